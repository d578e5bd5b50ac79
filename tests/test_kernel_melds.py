"""meldkit.kernel.melds: meld predicates, lay-offs and deadwood, proved by unit tests, by
brute force over random rules and hands, and against OpenSpiel's own gin rummy utilities."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import attrs
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from meldkit._cards import kind_of_code
from meldkit.kernel.melds import (Match, MeldKind, MeldRules, TooManyMelds, default_values,
                                  meld_code, meld_rules, melds_holding)


def cards(text: str) -> list[int]:
    return [kind_of_code(c) for c in text.split()]


def codes(meld) -> str:
    return meld_code(meld.cards if isinstance(meld, Match) else meld)


GIN = MeldRules([MeldKind("set", "set", max_size=4), MeldKind("run", "run", max_size=5)])


def run_rules(**kw) -> MeldRules:
    return MeldRules([MeldKind("run", "run", **kw)], wild_kinds=[52])


# --------------------------------------------------------------------------- ace modes


@pytest.mark.parametrize(
    ("ace", "text", "ends"),
    [
        ("low", "AH 2H 3H", (0, 2)),
        ("low", "QH KH AH", None),
        ("low", "KH AH 2H", None),
        ("high", "QH KH AH", (11, 13)),
        ("high", "AH 2H 3H", None),
        ("both", "AH 2H 3H", (0, 2)),
        ("both", "QH KH AH", (11, 13)),
        ("both", "KH AH 2H", None),
        ("around", "KH AH 2H", (12, 14)),
        ("around", "QH KH AH", (11, 13)),
        ("around", "AH 2H 3H", (0, 2)),
        ("around", "JH QH KH AH 2H 3H", (10, 15)),
    ],
)
def test_ace_mode_decides_where_the_ace_stands(ace, text, ends):
    m = run_rules(ace=ace).match(cards(text))
    assert (None if m is None else (m.low, m.high)) == ends


def test_run_canonical_order_is_low_to_high_whatever_the_input_order():
    m = run_rules(ace="both").match(cards("AS KS QS"))
    assert "QS KS AS" == codes(m)
    assert (m.rank, m.suit) == (-1, 3)


def test_run_of_thirteen_around_the_corner_but_no_fourteenth_card():
    rules = run_rules(ace="around", max_wilds=1)
    full = cards("AC 2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC")
    m = rules.match(full)
    assert (m.low, m.high) == (0, 12)
    assert rules.can_add(m, kind_of_code("JK")) is None


def test_run_needs_one_suit_and_distinct_ranks():
    rules = run_rules()
    assert rules.match(cards("4H 5H 6S")) is None
    assert rules.match(cards("4H 5H 5H 6H")) is None
    assert rules.match(cards("4H 6H 7H")) is None


# --------------------------------------------------------------------------- wild rules


def test_wild_fills_a_gap_in_a_run():
    m = run_rules(max_wilds=1).match(cards("4H JK 6H"))
    assert ("4H JK 6H", 3, 5) == (codes(m), m.low, m.high)


def test_extra_wild_goes_above_the_run_then_below_at_the_king():
    rules = run_rules(max_wilds=1)
    m = rules.match(cards("JK 4H 5H"))
    assert ("4H 5H JK", 3, 5) == (codes(m), m.low, m.high)
    m = rules.match(cards("KH JK QH"))
    assert ("JK QH KH", 10, 12) == (codes(m), m.low, m.high)


def test_max_wilds_bounds_the_wild_cards_of_a_meld():
    assert run_rules(max_wilds=1).match(cards("4H JK JK")) is None
    assert run_rules(max_wilds=2).match(cards("4H JK JK")) is not None
    assert run_rules(max_wilds=0).match(cards("4H 5H JK")) is None


def test_wilds_not_adjacent_moves_a_wild_to_the_other_end_or_refuses():
    rules = run_rules(max_wilds=2, wilds_adjacent=False)
    m = rules.match(cards("5H 6H JK JK"))
    assert ("JK 5H 6H JK", 3, 6) == (codes(m), m.low, m.high)
    assert rules.match(cards("5H 8H JK JK")) is None  # the gap needs two wilds side by side
    assert run_rules(max_wilds=2).match(cards("5H 8H JK JK")) is not None


def test_all_wild_meld_only_where_allowed():
    wild_set = MeldRules([MeldKind("set", "set", max_wilds=3, all_wild=True)], wild_kinds=[52])
    m = wild_set.match(cards("JK JK JK"))
    assert (m.rank, m.low, m.high) == (-1, -1, -1)
    plain = MeldRules([MeldKind("set", "set", max_wilds=3)], wild_kinds=[52])
    assert plain.match(cards("JK JK JK")) is None
    wild_run = run_rules(max_wilds=3, all_wild=True)
    assert wild_run.match(cards("JK JK JK")).suit == -1
    apart = run_rules(max_wilds=3, all_wild=True, wilds_adjacent=False)
    assert apart.match(cards("JK JK JK")) is None


def test_deuces_wild_count_as_wild_even_in_their_own_place():
    rules = MeldRules([MeldKind("run", "run", max_wilds=0)], wild_kinds=kind_of_code_all("2"))
    assert rules.match(cards("AH 2H 3H")) is None
    rules = MeldRules([MeldKind("run", "run", max_wilds=1)], wild_kinds=kind_of_code_all("2"))
    assert "AH 2H 3H" == codes(rules.match(cards("AH 2H 3H")))


def kind_of_code_all(rank: str) -> list[int]:
    return [kind_of_code(rank + s) for s in "CDHS"]


def test_joker_that_is_not_wild_melds_with_nothing():
    rules = MeldRules([MeldKind("set", "set"), MeldKind("run", "run")])
    assert rules.match(cards("JK JK JK")) is None
    assert rules.match(cards("4H 5H JK")) is None
    assert 10 + 0 == rules.min_deadwood(cards("JK KS"))


# --------------------------------------------------------------------------- sets


def test_set_canonical_order_is_by_suit_with_wilds_last():
    rules = MeldRules([MeldKind("set", "set", max_wilds=1)], wild_kinds=[52])
    m = rules.match(cards("JK 9S 9C 9H"))
    assert ("9C 9H 9S JK", 8, -1, 8, 8) == (codes(m), m.rank, m.suit, m.low, m.high)


def test_distinct_suits_refuses_two_cards_of_one_suit_in_a_set():
    two_decks = cards("9S 9S 9H")
    assert MeldRules([MeldKind("set", "set")]).match(two_decks) is not None
    assert MeldRules([MeldKind("set", "set", distinct_suits=True)]).match(two_decks) is None


def test_sizes_bound_a_meld_laid_down():
    assert GIN.match(cards("9S 9H")) is None
    assert GIN.match(cards("3H 4H 5H 6H 7H 8H")) is None  # runs of at most 5 laid down
    assert GIN.match(cards("3H 4H 5H 6H 7H")) is not None


def test_first_declared_kind_wins():
    rules = MeldRules([MeldKind("short", "run", max_size=3), MeldKind("long", "run")])
    assert 0 == rules.match(cards("3H 4H 5H")).kind
    assert 1 == rules.match(cards("3H 4H 5H 6H")).kind


# --------------------------------------------------------------------------- lay-offs


def test_can_add_grows_a_run_at_either_end():
    m = GIN.match(cards("5H 6H 7H"))
    assert "4H 5H 6H 7H" == codes(GIN.can_add(m, kind_of_code("4H")))
    grown = GIN.can_add(m, kind_of_code("8H"))
    assert ("5H 6H 7H 8H", 4, 7) == (codes(grown), grown.low, grown.high)
    assert GIN.can_add(m, kind_of_code("9H")) is None
    assert GIN.can_add(m, kind_of_code("8S")) is None


def test_can_add_stops_at_the_ace_as_the_ace_rule_says():
    low = run_rules()
    assert low.can_add(low.match(cards("AC 2C 3C")), kind_of_code("KC")) is None
    assert low.can_add(low.match(cards("JC QC KC")), kind_of_code("AC")) is None
    around = run_rules(ace="around")
    m = around.can_add(around.match(cards("JC QC KC")), kind_of_code("AC"))
    assert ("JC QC KC AC", 10, 13) == (codes(m), m.low, m.high)
    m = around.can_add(around.match(cards("AC 2C 3C")), kind_of_code("KC"))
    assert ("KC AC 2C 3C", 12, 15) == (codes(m), m.low, m.high)


def test_can_add_respects_max_size_only_when_asked():
    m = GIN.match(cards("3H 4H 5H 6H 7H"))
    assert GIN.can_add(m, kind_of_code("8H")) is not None
    assert GIN.can_add(m, kind_of_code("8H"), respect_max_size=True) is None


def test_can_add_to_a_set_needs_its_rank_and_room_for_wilds():
    rules = MeldRules([MeldKind("set", "set", max_wilds=1)], wild_kinds=[52])
    m = rules.match(cards("9C 9D 9H"))
    assert "9C 9D 9H 9S" == codes(rules.can_add(m, kind_of_code("9S")))
    assert rules.can_add(m, kind_of_code("8S")) is None
    with_wild = rules.can_add(m, kind_of_code("JK"))
    assert "9C 9D 9H JK" == codes(with_wild)
    assert rules.can_add(with_wild, kind_of_code("JK")) is None


def test_can_add_a_wild_keeps_the_wilds_already_placed():
    rules = run_rules(max_wilds=2)
    m = rules.match(cards("4H JK 6H"))
    grown = rules.can_add(m, kind_of_code("JK"))
    assert ("4H JK 6H JK", 3, 6) == (codes(grown), grown.low, grown.high)


def test_can_add_the_natural_a_wild_stands_for_replaces_the_run():
    rules = run_rules(max_wilds=1)
    m = rules.match(cards("4H JK 6H"))
    grown = rules.can_add(m, kind_of_code("5H"))
    assert ("4H 5H 6H JK", 3, 6) == (codes(grown), grown.low, grown.high)


# --------------------------------------------------------------------------- hands


def test_two_decks_give_two_runs_of_the_same_cards():
    hand = cards("5H 5H 6H 6H 7H 7H")
    rules = MeldRules([MeldKind("run", "run")])
    assert 0 == rules.min_deadwood(hand)
    melds, dead = rules.best_arrangement(hand)
    assert (("5H 6H 7H", "5H 6H 7H"), ()) == (tuple(meld_code(m) for m in melds), dead)


def test_three_decks_allow_a_set_of_one_suit_unless_suits_must_differ():
    hand = cards("9S 9S 9S 9H 9H 10S JS")
    assert 10 + 10 == MeldRules([MeldKind("set", "set")]).min_deadwood(hand)
    distinct = MeldRules([MeldKind("set", "set", distinct_suits=True)])
    assert 9 * 5 + 10 + 10 == distinct.min_deadwood(hand)
    with_runs = MeldRules([MeldKind("set", "set", distinct_suits=True), MeldKind("run", "run")])
    assert 9 * 4 == with_runs.min_deadwood(hand)  # 9S 10S JS, then 9S 9S 9H 9H left


def test_melds_in_lists_every_meld_once_sorted_whatever_the_hand_order():
    hand = cards("5S 6S 7S 7D 7C 8S 7H")
    expected = GIN.melds_in(hand)
    assert expected == sorted(set(expected))
    rng = random.Random(3)
    for _ in range(5):
        rng.shuffle(hand)
        assert expected == GIN.melds_in(hand)
    assert 5 + 3 == len(expected)  # four 3-sets and the 4-set of 7s; 5-6-7, 6-7-8, 5-6-7-8


def test_melds_in_includes_every_wild_mix():
    rules = MeldRules([MeldKind("set", "set", max_wilds=1)], wild_kinds=[52, kind_of_code("2C")])
    found = {meld_code(m) for m in rules.melds_in(cards("9C 9D 2C JK"))}
    assert {"9C 9D 2C", "9C 9D JK"} == found


SHORT_ORDER = [0, 1, 2, 9, 10, 11, 12]  # A 2 3 10 J Q K
HOLDING_RULES = [  # (the rules, the kinds a hand may hold)
    (GIN, range(53)),
    (MeldRules([MeldKind("set", "set", max_wilds=1), MeldKind("run", "run", max_wilds=2)],
               wild_kinds=[52, kind_of_code("2C"), kind_of_code("2S")]), range(53)),
    (meld_rules([MeldKind("run", "run", ace="around")], order=SHORT_ORDER),
     [k for k in range(52) if k >> 2 in SHORT_ORDER]),
]


@settings(max_examples=60, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), which=st.sampled_from(HOLDING_RULES))
def test_melds_holding_a_card_are_the_melds_of_the_hand_that_hold_it(data, which):
    rules, kinds = which
    hand = data.draw(st.lists(st.sampled_from(list(kinds)), min_size=1, max_size=14))
    card = data.draw(st.sampled_from(hand))
    assert melds_holding(rules, hand, card) == [m for m in rules.melds_in(hand) if card in m]


def test_meld_prefers_the_set_that_lets_the_runs_stand():
    # OpenSpiel's example: 6s7s8s, 6c7c8c, 8d: laying 8s8c8d leaves 26, the runs leave 8.
    hand = cards("6S 7S 8S 6C 7C 8C 8D")
    assert 8 == GIN.min_deadwood(hand)
    assert ["6C 7C 8C", "6S 7S 8S"] == [meld_code(m) for m in GIN.melds_within(hand, 8)]


def test_discard_true_takes_the_card_that_helps_most_openspiel_the_high_card():
    hand = cards("5S 3C 4C 5C 2D 3D 4D 5D 2H 3H 4H")
    assert 0 == GIN.min_deadwood(hand, discard=True)
    assert 2 == GIN.min_deadwood(hand, discard="openspiel")
    assert 0 == GIN.min_deadwood(hand, discard="best")


def test_default_values_are_pips_with_faces_ten_and_joker_zero():
    values = default_values()
    assert [1, 2, 9, 10, 10, 10, 10] == [values[r * 4] for r in (0, 1, 8, 9, 10, 11, 12)]
    assert 0 == values[52]
    custom = MeldRules([MeldKind("set", "set")], values=[5] * 52 + [25])
    assert 30 == custom.value(cards("JK 2C"))


# --------------------------------------------------------------------------- errors


@pytest.mark.parametrize("bad", [53, -1, "4H", None, 2.5])
def test_bad_card_is_refused_with_its_value_named(bad):
    with pytest.raises(ValueError, match="is not a card kind"):
        GIN.min_deadwood([0, 1, bad])
    with pytest.raises(ValueError, match="is not a card kind"):
        GIN.match([0, 4, bad])
    with pytest.raises(ValueError, match="is not a card kind"):
        GIN.melds_in([0, 4, bad])


@pytest.mark.parametrize("bad", [7, None])
def test_a_hand_that_is_not_a_sequence_is_refused(bad):
    for call in (GIN.match, GIN.min_deadwood, GIN.melds_in, GIN.best_arrangement, GIN.value):
        with pytest.raises(ValueError, match="is not a sequence of card kinds"):
            call(bad)


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"type": "book"}, "'type' must be 'set', 'run' or 'flush'"),
        ({"type": "run", "min_size": 0}, "'min_size' must be an int >= 1"),
        ({"type": "run", "max_size": 2}, "'max_size' must be None or an int >= min_size 3"),
        ({"type": "run", "ace": "top"}, "'ace' must be one of low, high, both, around"),
        ({"type": "set", "max_wilds": -1}, "'max_wilds' must be an int >= 0"),
    ],
)
def test_bad_meld_kind_is_refused_with_the_field_named(fields, message):
    with pytest.raises(ValueError, match=message):
        MeldKind("k", **fields)


def test_bad_rules_are_refused():
    with pytest.raises(ValueError, match="at least one meld kind"):
        MeldRules([])
    with pytest.raises(ValueError, match="53 ints"):
        MeldRules([MeldKind("set", "set")], values=[1] * 52)
    with pytest.raises(ValueError, match="'discard' must be"):
        GIN.min_deadwood([0, 1], discard="worst")
    with pytest.raises(ValueError, match="needs a hand without wild cards"):
        MeldRules([MeldKind("set", "set")], wild_kinds=[52]).min_deadwood(
            [52, 0], discard="openspiel"
        )
    with pytest.raises(ValueError, match="'limit' must be an int"):
        GIN.melds_within([0, 1], "10")


# --------------------------------------------------------------------------- brute force


def brute_melds(rules: MeldRules, hand: list[int]) -> dict[int, tuple[int, ...]]:
    """Every subset of hand positions (a bit mask) that forms a meld, with its canonical cards."""
    out = {}
    n = len(hand)
    for size in range(1, n + 1):
        for idx in itertools.combinations(range(n), size):
            m = rules.match([hand[i] for i in idx])
            if m is not None:
                out[sum(1 << i for i in idx)] = m.cards
    return out


def brute_min_deadwood(rules: MeldRules, hand: list[int]) -> int:
    melds = list(brute_melds(rules, hand))
    values = [rules.values[c] for c in hand]
    n = len(hand)
    memo: dict[int, int] = {}

    def best(avail: int) -> int:  # least deadwood of the cards at positions in avail
        if avail == 0:
            return 0
        if avail in memo:
            return memo[avail]
        low = (avail & -avail).bit_length() - 1
        r = values[low] + best(avail & ~(1 << low))
        for m in melds:
            if m >> low & 1 and m & avail == m:
                r = min(r, best(avail & ~m))
        memo[avail] = r
        return r

    return best((1 << n) - 1)


def without(hand: list[int], cards_: tuple[int, ...]) -> list[int]:
    rest = list(hand)
    for c in cards_:
        rest.remove(c)
    return rest


meld_kinds = st.builds(
    MeldKind,
    name=st.just("k"),
    type=st.sampled_from(["set", "run"]),
    min_size=st.integers(2, 4),
    max_size=st.one_of(st.none(), st.integers(4, 6)),
    ace=st.sampled_from(["low", "high", "both", "around"]),
    max_wilds=st.integers(0, 2),
    wilds_adjacent=st.booleans(),
    all_wild=st.booleans(),
    distinct_suits=st.booleans(),
)
rules_st = st.builds(
    MeldRules,
    st.lists(meld_kinds, min_size=1, max_size=3),
    wild_kinds=st.sampled_from([(), (52,), (52, 4, 5, 6, 7)]),
)


@st.composite
def small_hands(draw, decks: int = 2, max_size: int = 8):
    """Hands from a few neighbouring ranks of one or two decks, so melds are common."""
    low = draw(st.integers(0, 9))
    pool = [r * 4 + s for r in list(range(low, low + 4)) + [0, 12] for s in range(4)]
    pool = pool * decks + [52] * (2 * decks)
    return draw(st.lists(st.sampled_from(pool), min_size=1, max_size=max_size).filter(
        lambda h: all(v <= decks for v in Counter(h).values()) and h.count(52) <= 2 * decks))


# Brute force is cheap on these small hands: twice the active profile's examples
# (50 by default, 200 under --hypothesis-profile=ci).
SETTINGS = settings(max_examples=2 * settings().max_examples, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])


def reference_is_meld(kind: MeldKind, wild: frozenset, cards_: list[int]) -> bool:
    """The meld predicate written straight from MeldKind's documentation."""
    n = len(cards_)
    if n < kind.min_size or (kind.max_size is not None and n > kind.max_size):
        return False
    nat = [c for c in cards_ if c not in wild]
    if n - len(nat) > kind.max_wilds:
        return False
    if kind.distinct_suits and kind.type == "set" and n > 4:
        return False  # a wild card stands for a suit no other card has: four at most
    if not nat:
        return kind.all_wild and (
            kind.type in ("set", "flush") or (n <= 13 and (n == 1 or kind.wilds_adjacent)))
    if 52 in nat:
        return False
    if kind.type == "set":
        return len({c // 4 for c in nat}) == 1 and (
            not kind.distinct_suits or len({c % 4 for c in nat}) == len(nat))
    if kind.type == "flush":
        return len({c % 4 for c in nat}) == 1
    one_suit = kind.mixed_suits or len({c % 4 for c in nat}) == 1
    if not one_suit or len({c // 4 for c in nat}) != len(nat) or n > 13:
        return False
    ranks = {c // 4 for c in nat}
    allowed = {"low": range(0, 13), "high": range(1, 14), "both": range(0, 14),
               "around": range(-13, 27)}[kind.ace]
    for low in range(-13, 14):
        positions = range(low, low + n)
        if not all(p in allowed for p in positions):
            continue
        if not ranks <= {p % 13 for p in positions}:
            continue
        wild_at = [p for p in positions if p % 13 not in ranks]
        if not kind.wilds_adjacent and any(b - a == 1 for a, b in itertools.pairwise(wild_at)):
            continue
        return True
    return False


def _spoiled(draw, hand: list[int]) -> list[int]:
    """``hand`` with some cards turned into wild cards (the joker, or a deuce of the
    ``(52, 4, 5, 6, 7)`` wild sets), sometimes one card changed, shuffled."""
    n = len(hand)
    for i in range(n):
        if draw(st.integers(0, 4)) == 0:
            hand[i] = draw(st.sampled_from([52, 4, 5, 6, 7]))
    if draw(st.integers(0, 3)) == 0:
        hand[draw(st.integers(0, n - 1))] = draw(st.integers(0, 52))
    return draw(st.permutations(hand))


@st.composite
def near_melds(draw):
    """A run (possibly round the corner) or a set, some cards turned into wild cards, and
    sometimes one card changed: about half of them are melds of some kind."""
    n = draw(st.integers(1, 7))
    if draw(st.booleans()):
        low, suit = draw(st.integers(0, 13)), draw(st.integers(0, 3))
        hand = [((low + i) % 13) * 4 + suit for i in range(n)]
    else:
        rank = draw(st.integers(0, 12))
        hand = [rank * 4 + draw(st.integers(0, 3)) for _ in range(n)]
    return _spoiled(draw, hand)


@SETTINGS
@given(meld_kinds, st.sampled_from([(), (52,), (52, 4, 5, 6, 7)]), near_melds())
@example(MeldKind("k", "set", min_size=2, max_wilds=1, distinct_suits=True), (52,),
         [0, 1, 52, 2, 3])  # (found in stop 46's CI: the reference allowed five cards)
def test_match_agrees_with_the_documented_predicate(kind, wild, hand):
    rules = MeldRules([kind], wild_kinds=wild)
    m = rules.match(hand)
    assert reference_is_meld(kind, frozenset(wild), hand) == (m is not None)
    if m is not None:
        assert Counter(m.cards) == Counter(hand)
        if kind.type == "run" and m.suit != -1:
            assert m.high - m.low + 1 == len(hand)
            positions = range(m.low, m.high + 1)
            assert all(c // 4 == p % 13 for p, c in zip(positions, m.cards, strict=True)
                       if c not in wild)


# Flushes (cards of one suit, any ranks) and runs of mixed suits (Phase 10's melds): the
# fast paths' masks know neither, so these rules take the exact search alone.
flex_kinds = st.one_of(
    st.builds(MeldKind, name=st.just("flush"), type=st.just("flush"),
              min_size=st.integers(2, 5), max_size=st.one_of(st.none(), st.integers(5, 7)),
              max_wilds=st.integers(0, 2), all_wild=st.booleans()),
    st.builds(MeldKind, name=st.just("mixed"), type=st.just("run"), mixed_suits=st.just(True),
              min_size=st.integers(2, 4), max_size=st.one_of(st.none(), st.integers(4, 6)),
              ace=st.sampled_from(["low", "high", "both", "around"]),
              max_wilds=st.integers(0, 2), wilds_adjacent=st.booleans(),
              all_wild=st.booleans()),
)
flex_rules_st = st.builds(
    MeldRules,
    st.lists(st.one_of(flex_kinds, meld_kinds), min_size=1, max_size=3).filter(
        lambda ks: any(k.type == "flush" or k.mixed_suits for k in ks)),
    wild_kinds=st.sampled_from([(), (52,), (52, 4, 5, 6, 7)]),
)


@st.composite
def mixed_near_melds(draw):
    """A run of mixed suits, a flush or a set, some cards wild, sometimes one changed."""
    n = draw(st.integers(1, 7))
    shape = draw(st.sampled_from(["run", "flush", "set"]))
    if shape == "run":
        low = draw(st.integers(0, 13))
        hand = [((low + i) % 13) * 4 + draw(st.integers(0, 3)) for i in range(n)]
    elif shape == "flush":
        suit = draw(st.integers(0, 3))
        hand = [draw(st.integers(0, 12)) * 4 + suit for _ in range(n)]
    else:
        rank = draw(st.integers(0, 12))
        hand = [rank * 4 + draw(st.integers(0, 3)) for _ in range(n)]
    return _spoiled(draw, hand)


@SETTINGS
@given(flex_kinds, st.sampled_from([(), (52,), (52, 4, 5, 6, 7)]), mixed_near_melds())
def test_flush_and_mixed_run_match_agrees_with_the_documented_predicate(kind, wild, hand):
    rules = MeldRules([kind], wild_kinds=wild)
    m = rules.match(hand)
    assert reference_is_meld(kind, frozenset(wild), hand) == (m is not None)
    if m is not None:
        assert Counter(m.cards) == Counter(hand)
        if kind.type == "run" and m.low >= 0:
            assert m.suit == -1 and m.high - m.low + 1 == len(hand)
            assert all(c // 4 == p % 13 for p, c in zip(range(m.low, m.high + 1), m.cards,
                                                        strict=True) if c not in wild)
        if kind.type == "flush" and any(c not in wild for c in hand):
            assert m.suit == next(c for c in hand if c not in wild) % 4


@SETTINGS
@given(flex_rules_st, small_hands(max_size=8))
def test_flush_and_mixed_run_deadwood_and_melds_equal_brute_force(rules, hand):
    assert brute_min_deadwood(rules, hand) == rules.min_deadwood(hand)
    assert sorted(set(brute_melds(rules, hand).values())) == rules.melds_in(hand)
    melds, dead = rules.best_arrangement(hand)
    assert Counter(hand) == Counter(c for meld in melds for c in meld) + Counter(dead)
    assert rules.min_deadwood(hand) == rules.value(dead)
    assert rules.mask_deadwood(sum(1 << c for c in set(hand))) == brute_min_deadwood(
        rules, sorted(set(hand)))


@SETTINGS
@given(flex_rules_st, mixed_near_melds(), st.integers(0, 52))
def test_flush_and_mixed_run_lay_off_is_a_match_of_the_grown_cards(rules, hand, card):
    m = rules.match(hand)
    if m is None:
        return
    grown = rules.can_add(m, card)
    if grown is not None:
        assert Counter(grown.cards) == Counter(hand) + Counter([card])
        assert rules.match_grown(m.kind, grown.cards) is not None
        if rules.kinds[m.kind].type == "flush" and m.suit >= 0:
            assert grown.suit == m.suit


def test_a_hand_past_the_flexible_search_bound_is_refused_not_searched():
    rules = MeldRules([MeldKind("flush", "flush", min_size=3)])
    assert rules.arrange_limit == 12 and GIN.arrange_limit is None
    with pytest.raises(TooManyMelds, match="at most 12"):
        rules.min_deadwood(list(range(0, 52, 4))[:13])
    assert rules.min_deadwood(list(range(0, 48, 4))) == 0  # twelve clubs: one flush


@SETTINGS
@given(rules_st, st.one_of(small_hands(), small_hands(decks=3)))
def test_min_deadwood_equals_brute_force_over_all_arrangements(rules, hand):
    assert brute_min_deadwood(rules, hand) == rules.min_deadwood(hand)


@SETTINGS
@given(small_hands(decks=1, max_size=9))
def test_gin_fast_path_equals_brute_force(hand):
    hand = [c for c in hand if c != 52]
    assert brute_min_deadwood(GIN, hand) == GIN.min_deadwood(hand)


@SETTINGS
@given(rules_st, small_hands(max_size=7))
def test_best_arrangement_is_disjoint_melds_achieving_min_deadwood(rules, hand):
    melds, dead = rules.best_arrangement(hand)
    for meld in melds:
        m = rules.match(meld)
        assert m is not None and m.cards == meld
    assert Counter(hand) == Counter(c for meld in melds for c in meld) + Counter(dead)
    assert rules.min_deadwood(hand) == rules.value(dead)
    assert (melds, dead) == rules.best_arrangement(list(reversed(hand)))


@SETTINGS
@given(rules_st, small_hands(max_size=7))
def test_melds_in_is_every_canonical_meld_of_the_hand(rules, hand):
    assert sorted(set(brute_melds(rules, hand).values())) == rules.melds_in(hand)


@SETTINGS
@given(rules_st, small_hands(max_size=7), st.integers(0, 20))
def test_melds_within_and_discards_within_follow_their_definitions(rules, hand, limit):
    expected = [m for m in rules.melds_in(hand)
                if brute_min_deadwood(rules, without(hand, m)) <= limit]
    assert expected == rules.melds_within(hand, limit)
    expected_discards = sorted(c for c in set(hand)
                               if brute_min_deadwood(rules, without(hand, (c,))) <= limit)
    assert expected_discards == rules.discards_within(hand, limit)


@SETTINGS
@given(rules_st, small_hands(max_size=8))
def test_discard_best_is_the_least_deadwood_over_every_single_discard(rules, hand):
    expected = min(brute_min_deadwood(rules, without(hand, (c,))) for c in set(hand))
    assert expected == rules.min_deadwood(hand, discard=True)


@SETTINGS
@given(rules_st, st.one_of(small_hands(), small_hands(decks=1, max_size=11)),
       st.integers(0, 40), st.sampled_from([False, True, "openspiel"]))
def test_deadwood_within_answers_as_min_deadwood_would(rules, hand, limit, discard):
    if discard == "openspiel" and (len(set(hand)) < len(hand) or rules.wild_kinds & set(hand)):
        discard = True
    expected = rules.min_deadwood(hand, discard=discard) <= limit
    assert expected == rules.deadwood_within(hand, limit, discard=discard)


@SETTINGS
@given(small_hands(decks=1, max_size=11))
def test_gin_discard_best_fast_path_equals_the_definition(hand):
    hand = [c for c in hand if c != 52]
    if hand:
        expected = min(GIN.min_deadwood(without(hand, (c,))) for c in hand)
        assert expected == GIN.min_deadwood(hand, discard=True)


@SETTINGS
@given(rules_st, st.data())
def test_can_add_grows_a_meld_exactly_when_the_grown_cards_still_form_it(rules, data):
    melds = rules.melds_in(data.draw(small_hands(max_size=8)))
    if not melds:
        return
    meld = data.draw(st.sampled_from(melds))
    m = rules.match(meld)
    card = data.draw(st.sampled_from(list(range(53))))
    grown = rules.can_add(m, card)
    # the same kind with no size limit judges the grown cards on their own
    alone = MeldRules([attrs.evolve(rules.kinds[m.kind], max_size=None)],
                      wild_kinds=rules.wild_kinds)
    fresh = alone.match(meld + (card,))
    same_meld = fresh is not None and (m.rank in (-1, fresh.rank)) and (m.suit in (-1, fresh.suit))
    assert same_meld == (grown is not None)
    if grown is not None:
        assert Counter(grown.cards) == Counter(meld) + Counter([card])
        assert grown.kind == m.kind
        assert alone.match(grown.cards) is not None
        if rules.kinds[m.kind].type == "run" and grown.suit != -1:
            assert grown.high - grown.low + 1 == len(grown.cards)
            assert [c >> 2 for c in grown.cards if c not in rules.wild_kinds] == [
                p % 13 for p, c in zip(range(grown.low, grown.high + 1), grown.cards, strict=True)
                if c not in rules.wild_kinds]


@SETTINGS
@given(rules_st, st.data())
def test_a_meld_grown_by_lay_offs_reads_back_with_its_wilds_in_place(rules, data):
    melds = rules.melds_in(data.draw(small_hands(max_size=8)))
    if not melds:
        return
    m = rules.match(data.draw(st.sampled_from(melds)))
    for card in data.draw(st.lists(st.sampled_from([52, 4, 5, 6, 7] + list(range(52))),
                                   max_size=6)):
        m = rules.can_add(m, card) or m
        assert m == rules.match_grown(m.kind, m.cards)


def test_memos_stay_within_their_bound(monkeypatch):
    from meldkit.kernel import melds as module

    monkeypatch.setattr(module, "_MEMO_LIMIT", 50)
    rules = MeldRules([MeldKind("set", "set"), MeldKind("run", "run", max_wilds=1)],
                      wild_kinds=[52])
    rng = random.Random(0)
    for _ in range(100):
        rules.min_deadwood(rng.sample(range(52), 11))
        rules.min_deadwood(rng.sample(range(52), 11), discard=True)
        rules.min_deadwood(rng.sample(range(52), 11), discard="openspiel")
        rules.min_deadwood(rng.sample(range(52), 5) * 2 + [52])
        rules.melds_in(rng.sample(range(52), 11))
    rules.min_deadwood(rng.sample(range(52), 6) * 2)
    memos = (rules._gen_memo, rules._melds_memo, rules._memo, rules._memo1,
             rules._packed_memo)
    assert all(0 < len(memo) <= 51 for memo in memos), [len(m) for m in memos]


# --------------------------------------------------------------------------- OpenSpiel


def to_openspiel(kind: int) -> int:
    """OpenSpiel card = suit * 13 + rank with suits s, c, d, h; meldkit suits are C, D, H, S."""
    return (((kind & 3) + 1) & 3) * 13 + (kind >> 2)


def from_openspiel(card: int) -> int:
    suit, rank = divmod(card, 13)
    return rank * 4 + ((suit + 3) & 3)


def random_gin_hands(count: int, seed: int):
    """Uniform hands, and hands from a few neighbouring ranks (rich in melds) half the time."""
    rng = random.Random(seed)
    for i in range(count):
        if i % 2:
            yield rng.sample(range(52), 11)
        else:
            low = rng.randrange(0, 9)
            pool = [r * 4 + s for r in range(low, min(13, low + rng.choice((4, 5, 6))))
                    for s in range(4)]
            yield rng.sample(pool, 11)


def test_card_mapping_to_openspiel_is_a_bijection():
    assert sorted(to_openspiel(k) for k in range(52)) == list(range(52))
    assert all(from_openspiel(to_openspiel(k)) == k for k in range(52))
    pyspiel = pytest.importorskip("pyspiel")
    utils = pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)
    for code in ("AS", "10C", "QD", "KH"):
        assert code.replace("10", "T")[0] + code[-1].lower() == utils.card_string(
            to_openspiel(kind_of_code(code)))


def test_min_deadwood_melds_and_discards_match_openspiel_gin_rummy_utils():
    pyspiel = pytest.importorskip("pyspiel")
    utils = pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)
    knock = 10
    compared = 0
    for hand in random_gin_hands(3000, seed=11):
        os_hand = [to_openspiel(k) for k in hand]
        ten, os_ten = hand[:10], os_hand[:10]
        assert utils.min_deadwood(os_hand) == GIN.min_deadwood(hand, discard="openspiel"), hand
        assert utils.min_deadwood(os_ten) == GIN.min_deadwood(ten), hand
        assert sorted(from_openspiel(c) for c in utils.legal_discards(os_hand, knock)) == \
            GIN.discards_within(hand, knock), hand
        os_melds = sorted(tuple(sorted(from_openspiel(c) for c in utils.int_to_meld[i]))
                          for i in utils.legal_melds(os_ten, knock))
        assert os_melds == sorted(tuple(sorted(m)) for m in GIN.melds_within(ten, knock)), hand
        compared += 1
    assert 3000 == compared


def test_every_openspiel_meld_is_a_meldkit_meld_and_back():
    pyspiel = pytest.importorskip("pyspiel")
    utils = pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)
    os_all = sorted(tuple(sorted(from_openspiel(c) for c in utils.int_to_meld[i]))
                    for i in range(185))
    assert os_all == sorted(tuple(sorted(m)) for m in GIN.melds_in(list(range(52))))


def test_rules_pickle_and_copy_as_their_definition():
    import copy
    import pickle

    rules = MeldRules([MeldKind("set", "set", max_wilds=1), MeldKind("run", "run")],
                      wild_kinds=[52], values=list(default_values()[:52]) + [25])
    hand = cards("4H 5H JK KS KD")
    expected = rules.min_deadwood(hand)
    for clone in (pickle.loads(pickle.dumps(rules)), copy.deepcopy(rules)):
        assert clone == rules and hash(clone) == hash(rules)
        assert expected == clone.min_deadwood(hand)
    assert rules != MeldRules([MeldKind("set", "set", max_wilds=1), MeldKind("run", "run")],
                              wild_kinds=[52])


@pytest.mark.parametrize("pack", ["rummy_500", "buraco", "contract_rummy"])
def test_a_large_hands_budgeted_search_finds_the_plain_searchs_deadwood_and_choices(
        pack, monkeypatch):
    """Past ``_BIG_HAND`` cards the least-deadwood search works under deadwood budgets
    (``MeldRules._gdw_bounded``): on hands of 25 to 29 cards with wild cards it gives the
    plain search's value and arrangement (its first best choice at every step)."""
    import meldkit
    import meldkit.kernel.melds as melds

    game = meldkit.new_game(pack, players=meldkit.load_pack(pack).spec.players.min, seed=1)
    mr = game.rules.melds
    kinds = [game.kind_of[c] for c in range(len(game.kind_of))]
    rng = random.Random(5)
    hands = [rng.sample(kinds, rng.randint(25, 29)) for _ in range(20)]
    hands = [h for h in hands if mr.wild_kinds.intersection(h)]
    assert len(hands) >= 4
    budgeted = [(mr.min_deadwood(h), mr.best_arrangement(h)) for h in hands]
    mr.clear_caches()
    monkeypatch.setattr(melds, "_BIG_HAND", 10**6)  # the plain search for every hand
    assert [(mr.min_deadwood(h), mr.best_arrangement(h)) for h in hands] == budgeted
    mr.clear_caches()


def random_rules(rng: random.Random) -> MeldRules:
    """One to three meld kinds of random settings (wild cards read in their place, sets of
    one suit, aces round the corner …), one to five wild kinds, and now and then random
    card values (some below zero, where no budget is searched)."""
    while True:
        kinds = []
        for _ in range(rng.randint(1, 3)):
            type_ = rng.choice(["set", "run"])
            kinds.append({"type": type_, "min_size": rng.randint(2, 4),
                          "max_size": rng.choice([None, None, rng.randint(4, 7)]),
                          "ace": rng.choice(["low", "high", "both", "around"]),
                          "max_wilds": rng.randint(0, 3), "wilds_adjacent": rng.random() < 0.6,
                          "all_wild": rng.random() < 0.3, "distinct_suits": rng.random() < 0.3,
                          "wild_natural_in_place": type_ == "run" and rng.random() < 0.25})
        values = rng.choice([None, None, [rng.randint(0, 15) for _ in range(53)],
                             [rng.randint(-3, 12) for _ in range(53)]])
        try:
            return MeldRules([MeldKind(name="k", **k) for k in kinds],
                             rng.choice([(52,), (52, 4, 5, 6, 7), (4, 5, 6, 7)]), values)
        except ValueError:
            continue


@pytest.mark.parametrize("seed", range(3))
def test_the_budgeted_search_gives_the_plain_searchs_deadwood_and_choices_on_random_rules(
        seed, monkeypatch):
    """Stop 37: the search under deadwood budgets (``MeldRules._within``) answers a rest
    without wild cards at once, branches first on a card in no meld of natural cards, and
    prunes by the cards that the wild cards left cannot all rescue from the deadwood.  On
    random rules and hands of 20 to 32 cards from one or two decks, with one to three wild
    cards, it keeps its promise for budgets about the least deadwood, and gives the plain
    search's value and arrangement (its first best choice at every step)."""
    from meldkit.kernel import melds

    rng = random.Random(seed)
    cases = []
    for _ in range(12):
        rules = random_rules(rng)
        wild = sorted(rules.wild_kinds)
        naturals = [c for c in range(52) if c not in rules.wild_kinds] * rng.choice([1, 2])
        size, w = rng.randint(20, 32), rng.randint(1, 3)
        cases.append((rules, rng.sample(naturals, size - w) + rng.choices(wild, k=w)))
    budgeted = []
    for rules, hand in cases:
        least = rules.min_deadwood(hand)
        budgeted.append((least, rules.best_arrangement(hand)))
        if rules._floor is None:
            continue
        state = tuple(sorted(hand))
        for budget in range(least - 2, least + 3):
            r = rules._within(state, budget)  # an arrangement's deadwood, or a bound above
            assert (r <= budget) == (least <= budget), (hand, budget, r, least)
            assert least <= r if r <= budget else r <= least, (hand, budget, r, least)
    monkeypatch.setattr(melds, "_BIG_HAND", 10**6)  # the plain search for every hand
    for (rules, hand), want in zip(cases, budgeted, strict=True):
        rules.clear_caches()
        assert (rules.min_deadwood(hand), rules.best_arrangement(hand)) == want, hand
        rules.clear_caches()


def test_melds_in_stops_past_its_limit_and_refuses_a_bad_one():
    from meldkit.kernel.melds import TooManyMelds

    hand = cards("5S 6S 7S 7D 7C 8S")
    assert len(GIN.melds_in(hand, limit=4)) == 4
    with pytest.raises(TooManyMelds, match="more than 3 melds"):
        GIN.melds_in(hand, limit=3)
    for bad in (-1, 2.5, True, "4"):
        with pytest.raises(ValueError, match="limit must be a whole number"):
            GIN.melds_in(hand, limit=bad)


def test_a_set_of_different_suits_holds_four_cards_at_most_wild_cards_included():
    """Scala 40's author: a joker laid off on 5C 5D 5H 5S made a set of five, its joker
    standing for no suit left and never to be won back; a wild card in a set of different
    suits stands for a suit no other card has, so four cards is the most."""
    k = kind_of_code
    rules = MeldRules([MeldKind("set", "set", min_size=3, max_wilds=2, distinct_suits=True)],
                      wild_kinds=[k("JK")])
    four = rules.match([k("5C"), k("5D"), k("5H"), k("5S")])
    assert four is not None and rules.can_add(four, k("JK")) is None
    three = rules.match([k("5C"), k("5D"), k("JK")])
    assert rules.can_add(three, k("5H")) is not None
    assert rules.can_add(rules.can_add(three, k("5H")), k("5S")) is None
    assert rules.match([k("5C"), k("5D"), k("5H"), k("JK"), k("JK")]) is None
    hand = [k(c) for c in "5C 5D 5H 5S".split()] + [k("JK")] * 2
    assert max(map(len, rules.melds_in(hand))) == 4


def test_the_four_card_cap_of_distinct_suits_is_a_sets_and_the_search_agrees_with_match():
    """Hypothesis (stop 41) met a run kind built with ``distinct_suits``: ``match`` took
    3S 4S 5S and two wild deuces as a run, but the least-deadwood search capped the kind at
    four cards, as a set of different suits is, and left two deadwood. Packs cannot write
    it (the loader refuses ``distinct_suits`` on a run); the engine now agrees with itself."""
    from meldkit._cards import kind_of_code as k

    rules = MeldRules([MeldKind("run", "run", min_size=3, max_wilds=2, distinct_suits=True)],
                      wild_kinds=[4, 5, 6, 7, 52])
    hand = [k(c) for c in "3S 4S 5S 2C 2D".split()]
    assert rules.match(hand) is not None and rules.min_deadwood(hand) == 0
    sets = MeldRules([MeldKind("set", "set", min_size=3, max_wilds=2, distinct_suits=True)],
                     wild_kinds=[52])
    five = [k(c) for c in "9C 9D 9H 9S".split()] + [52]
    assert sets.match(five) is None  # a set of different suits is still four at most
