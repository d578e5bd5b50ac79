"""A rank order of the pack's own (issue 24, item 2): with ``deck.run_gaps: skip`` a
stripped deck's kept ranks are adjacent in runs — 6-7-J where 8, 9 and 10 are left out —
in matching, lay-offs, grown melds, the hand searches, notation, saves and the rules sheet
of a table pack, and along ``melds.sequences.ranks`` in a rank-slot pack; refused where
there is no gap or no run.  :class:`meldkit.kernel.melds.RankOrder` is checked against the
documented predicate and brute force, as :class:`MeldRules` is."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st
from test_kernel_melds import SETTINGS, brute_melds, brute_min_deadwood, meld_kinds

import meldkit
from meldkit import GameState, RulePackError
from meldkit._cards import kind_of_code
from meldkit.kernel.melds import MeldKind, MeldRules, RankOrder, meld_code
from meldkit.rulesheet import rules_sheet
from meldkit.testing import check_conformance, refusal, stacked_game

FORTY = 'deck: {ranks: [A, "2", "3", "4", "5", "6", "7", J, Q, K], run_gaps: skip}\n'
ORDER = (0, 1, 2, 3, 4, 5, 6, 10, 11, 12)  # A-7, J, Q, K


def cards(text: str) -> list[int]:
    return [kind_of_code(c) for c in text.split()]


def rummy_40(extra: str = "") -> meldkit.RulePack:
    return meldkit.load_pack_text("extends: rummy\nname: rummy_40\n" + FORTY + extra,
                                  filename="r40.yaml")


# --------------------------------------------------------------------------- the meld rules


def test_a_rank_order_makes_the_kept_ranks_next_to_each_other_adjacent():
    rules = RankOrder([MeldKind("set", "set"), MeldKind("run", "run", ace="around",
                                                       max_wilds=1)],
                      wild_kinds=[52], order=ORDER)
    m = rules.match(cards("JH 7H 6H"))
    assert ("6H 7H JH", 5, 7) == (meld_code(m.cards), m.low, m.high)
    assert [6, 10] == [rules.rank_at(p) for p in (6, 7)]
    assert "6H 7H JH QH" == meld_code(rules.can_add(m, kind_of_code("QH")).cards)
    with pytest.raises(ValueError, match="10H is of a rank this order leaves out"):
        rules.can_add(m, kind_of_code("10H"))
    assert "QH KH AH" == meld_code(rules.match(cards("AH KH QH")).cards)  # round the corner
    assert "7H JK QH" == meld_code(rules.match(cards("QH JK 7H")).cards)  # the joker is the J
    won, wild = rules.win_back(rules.match(cards("7H JK QH")), kind_of_code("JH"))
    assert ("7H JH QH", "JK") == (meld_code(won.cards), meld_code([wild]))
    assert rules.match_grown(1, cards("5H 6H 7H JH QH")).high == 8
    s = rules.match(cards("JC JD JH"))  # a set keeps its own rank
    assert (10, 10, 10) == (s.rank, s.low, s.high)
    assert "JC JD JH JS" == meld_code(rules.can_add(s, kind_of_code("JS")).cards)
    hand = cards("5S 6S 7S JS 7C 7D QD KD")
    assert ["5S 6S 7S", "5S 6S 7S JS", "6S 7S JS", "7C 7D 7S"] == [
        meld_code(x) for x in rules.melds_in(hand)][:4]
    melds, dead = rules.best_arrangement(hand)
    assert (["5S 6S 7S JS"], "7C 7D QD KD") == ([meld_code(x) for x in melds], meld_code(dead))
    assert rules.min_deadwood(hand) == rules.value(cards("7C 7D QD KD"))


def test_the_natural_order_is_plain_meld_rules_and_a_rank_order_pickles():
    import pickle

    from meldkit.kernel.melds import meld_rules

    assert type(meld_rules([MeldKind("run", "run")], order=range(13))) is MeldRules
    rules = RankOrder([MeldKind("run", "run")], order=ORDER)
    assert pickle.loads(pickle.dumps(rules)) == rules
    with pytest.raises(ValueError, match="'order' must list distinct ranks"):
        RankOrder([MeldKind("run", "run")], order=[0, 0, 1])


@st.composite
def orders(draw):
    """A stripped deck's kept ranks, in the natural order (at least four of them)."""
    kept = draw(st.sets(st.integers(0, 12), min_size=4, max_size=12))
    return tuple(sorted(kept))


@st.composite
def ordered_hands(draw, order, decks: int = 2, max_size: int = 8):
    """A hand from a few neighbouring ranks of the order (and its ends), with jokers."""
    low = draw(st.integers(0, len(order) - 1))
    ranks = {order[(low + i) % len(order)] for i in range(4)} | {order[0], order[-1]}
    pool = [r * 4 + s for r in sorted(ranks) for s in range(4)] * decks + [52] * 2 * decks
    return draw(st.lists(st.sampled_from(pool), min_size=1, max_size=max_size).filter(
        lambda h: all(v <= decks for v in Counter(h).values()) and h.count(52) <= 2 * decks))


def reference_in_order(kind: MeldKind, wild: frozenset, order: tuple, hand: list) -> bool:
    """The meld predicate from the documentation, positions counted along ``order``."""
    n, L = len(hand), len(order)
    if n < kind.min_size or (kind.max_size is not None and n > kind.max_size):
        return False
    nat = [c for c in hand if c not in wild]
    if n - len(nat) > kind.max_wilds or 52 in nat:
        return False
    if not nat:
        return kind.all_wild and (kind.type == "set" or (n <= L and (n == 1 or
                                                                     kind.wilds_adjacent)))
    if kind.type == "set":
        return len({c // 4 for c in nat}) == 1 and (
            not kind.distinct_suits or len({c % 4 for c in nat}) == len(nat))
    pos = {order.index(c // 4) for c in nat}
    if len({c % 4 for c in nat}) != 1 or len(pos) != len(nat) or n > L:
        return False
    allowed = {"low": range(0, L), "high": range(1, L + 1), "both": range(0, L + 1),
               "around": range(-L, 2 * L + 1)}[kind.ace]
    for low in range(-L, L + 1):
        places = range(low, low + n)
        if not all(p in allowed for p in places) or not pos <= {p % L for p in places}:
            continue
        wild_at = [p for p in places if p % L not in pos]
        if not kind.wilds_adjacent and any(b - a == 1 for a, b in itertools.pairwise(wild_at)):
            continue
        return True
    return False


@SETTINGS
@given(st.data(), meld_kinds, orders(), st.sampled_from([(), (52,)]))
def test_a_rank_order_matches_the_documented_predicate(data, kind, order, wild):
    rules = RankOrder([kind], wild_kinds=wild, order=order)
    hand = data.draw(ordered_hands(order, max_size=7))
    m = rules.match(hand)
    assert reference_in_order(kind, frozenset(wild), order, hand) == (m is not None)
    if m is not None and kind.type == "run" and m.suit != -1:
        assert Counter(m.cards) == Counter(hand)
        assert all(c // 4 == rules.rank_at(p) for p, c in
                   zip(range(m.low, m.high + 1), m.cards, strict=True) if c not in wild)


@SETTINGS
@given(st.data(), st.lists(meld_kinds, min_size=1, max_size=3), orders(),
       st.sampled_from([(), (52,)]))
def test_a_rank_orders_searches_equal_brute_force(data, kinds, order, wild):
    rules = RankOrder(kinds, wild_kinds=wild, order=order)
    hand = data.draw(ordered_hands(order))
    assert brute_min_deadwood(rules, hand) == rules.min_deadwood(hand)
    assert sorted(set(brute_melds(rules, hand).values())) == sorted(
        rules.match(m).cards for m in rules.melds_in(hand))
    melds, dead = rules.best_arrangement(hand)
    assert Counter(hand) == Counter(c for m in melds for c in m) + Counter(dead)
    assert rules.min_deadwood(hand) == rules.value(dead)
    multisets = rules.meld_multisets(hand)
    assert multisets == sorted(tuple(sorted(m)) for m in rules.melds_in(hand))
    assert sorted(map(rules.laid, multisets)) == rules.melds_in(hand)


def test_a_rank_order_answers_every_question_meld_rules_answers():
    """What the table kernel asks of meld rules it asks of either: every public method of
    :class:`MeldRules` is one of :class:`RankOrder` too (the action universe once asked a
    rank order for ``meld_multisets``, which only MeldRules had)."""
    public = {n for n in vars(MeldRules) if not n.startswith("_") and callable(
        getattr(MeldRules, n))}
    assert public - set(dir(RankOrder)) == set()


@SETTINGS
@given(st.data(), orders())
def test_a_rank_orders_fast_path_equals_brute_force(data, order):
    rules = RankOrder([MeldKind("set", "set", max_size=4), MeldKind("run", "run", ace="both")],
                      order=order)
    hand = sorted(set(c for c in data.draw(ordered_hands(order, decks=1, max_size=9))
                      if c != 52))
    assert brute_min_deadwood(rules, hand) == rules.min_deadwood(hand)
    if hand:  # the fast path's least deadwood after the best discard
        assert min(brute_min_deadwood(rules, hand[:i] + hand[i + 1:])
                   for i in range(len(hand))) == rules.min_deadwood(hand, discard=True)


# --------------------------------------------------------------------------- table packs


def test_a_table_pack_lays_and_grows_a_run_across_the_ranks_left_out():
    p = rummy_40()
    g = stacked_game(p, 3, hands={0: "6H 7H JH 5C".split(), 1: "QH 2D".split()}, upcard="KS",
                     stock=["3C", "4D", "5D"])
    g.apply("draw")
    assert "meld 6H 7H JH" in [str(a) for a in g.legal_actions()]
    g.apply("meld 7H JH 6H")  # any order: laid low to high
    assert ["6H", "7H", "JH"] == [g.card_code(c) for c in g.melds[0].cards]
    g.apply("discard 5C")
    g.apply("draw")
    assert "add QH to m1" in [str(a) for a in g.legal_actions()]
    g.apply("add QH to 6H-JH")  # a run named by its ends
    assert ["6H", "7H", "JH", "QH"] == [g.card_code(c) for c in g.melds[0].cards]
    assert GameState.from_json(g.to_json(), pack=p) == g
    assert "meld/not-a-meld" == refusal(rummy_40_stop(), "meld 6H 7H JH").code


def rummy_40_stop() -> GameState:
    p = meldkit.load_pack_text("extends: rummy\nname: rummy_40\n"
                               'deck: {ranks: [A, "2", "3", "4", "5", "6", "7", J, Q, K]}\n',
                               filename="r40.yaml")
    g = stacked_game(p, 3, hands={0: "6H 7H JH 5C".split()}, upcard="KS", stock=["3C"])
    g.apply("draw")
    return g


def test_a_table_pack_that_skips_gaps_plays_whole_games_and_says_so():
    p = rummy_40()
    assert check_conformance(p, players=3, games=2, hands=2) > 0
    assert ("runs skip the ranks left out, so the kept ranks are adjacent in the order "
            "A-2-3-4-5-6-7-J-Q-K.") in rules_sheet(p)
    wild = meldkit.load_pack_text(
        "extends: rummy\nname: rummy_40_jokers\ncards: {wild: [JK], values: {JK: 15}}\n"
        'deck: {ranks: [A, "2", "3", "4", "5", "6", "7", J, Q, K], run_gaps: skip, '
        'jokers_per_deck: 2}\n'
        "melds: {kinds: [{name: set, type: set, max_wilds: 1}, "
                    "{name: run, type: run, max_wilds: 1, ace: around}]}\n", filename="r40j.yaml")
    assert check_conformance(wild, players=2, games=2, hands=1) > 0


# --------------------------------------------------------------------------- rank-slot packs


def test_a_rank_slot_pack_that_skips_gaps_runs_its_sequences_across_them():
    p = meldkit.load_pack_text("extends: samba\nname: samba_40\n" + FORTY,
                               filename="s40.yaml")
    assert (3, 4, 5, 6, 10, 11, 12, 0) == meldkit.Rules.of(p).seq_ranks
    g = stacked_game(p, 4, hands={0: "6H 7H JH QH KC KD KH".split()}, upcard="4C",
                     stock=["5C", "5D"])
    g.apply("draw")
    assert g.check("run 6H 7H JH") is None
    g.apply("run 6H 7H JH")
    assert "6H-JH" == g.view(0)["teams"][0]["melds"][0]["sequence"]
    assert g.check("extend QH to 6H-JH") is None
    stop = meldkit.load_pack_text('extends: samba\ndeck: {ranks: [A, "2", "3", "4", "5", '
                                  '"6", "7", J, Q, K]}\n', filename="s40stop.yaml")
    g2 = stacked_game(stop, 4, hands={0: "6H 7H JH QH KC KD KH".split()}, upcard="4C",
                      stock=["5C", "5D"])
    g2.apply("draw")
    assert g2.check("run 6H 7H JH") is not None


# --------------------------------------------------------------------------- refusals


@pytest.mark.parametrize("text, where, message", [
    ("extends: rummy\ndeck: {run_gaps: skip}\n", "deck.run_gaps",
     "skip, but the deck leaves no rank out (deck.ranks is null)"),
    ("extends: rummy\ndeck: {run_gaps: skip, ranks: [A, \"2\", \"3\", \"4\", \"5\", \"6\", "
     "\"7\", \"8\", \"9\", \"10\", J, Q, K]}\n", "deck.run_gaps",
     "skip, but deck.ranks keeps every rank"),
    ("extends: rummy\n" + FORTY + "melds: {kinds: [{type: set}]}\n", "deck.run_gaps",
     "skip, but the pack has no run kind"),
    ("extends: pony_tail\n" + FORTY, "deck.run_gaps",
     "skip, but the pack has no runs: in a rank-slot pack runs are melds.sequences"),
    ("extends: rummy\ndeck: {ranks: [\"7\", \"8\", J, Q, K], run_gaps: skip}\n"
     "melds: {kinds: [{type: set}, {type: run, ace: high}]}\n", "melds.kinds[1].ace",
     "high, but the deck keeps no ace (deck.ranks)"),
    ("extends: samba\ndeck: {ranks: [A, \"2\", \"3\", \"4\", \"5\", \"6\", J, Q], "
     "run_gaps: skip}\n", "melds.sequences.max_size",
     "7 is more than the 6 ranks of melds.sequences.ranks the deck keeps"),
    ("extends: rummy\ndeck: {ranks: [A, K, Q], run_gaps: across}\n", "deck.run_gaps",
     "'across'"),
])
def test_run_gaps_is_refused_where_it_could_change_nothing(text, where, message):
    with pytest.raises(RulePackError) as e:
        meldkit.load_pack_text(text, filename="gaps.yaml")
    assert f"{where}: " in str(e.value) and message in str(e.value), str(e.value)
    assert "gaps.yaml:" in str(e.value)
