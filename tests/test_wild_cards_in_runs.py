"""Wild cards in table packs (issue 24, item 3): two general mechanisms as pack data.

- ``melds.kinds[].wild_natural_in_place``: a wild card standing as itself in a run (the
  wild 2H at the deuce's place of a hearts run) is a natural card there — it does not count
  toward ``max_wilds`` and leaves the run clean (Buraco: one wild card a sequence, a 2 in
  its own place is natural).
- ``melds.lay_off.win_back``: a player on their turn puts the natural card a wild card on
  the table stands for in its place and takes the wild card (``trade 6H to m1``).

Stacked decks on small packs built here; the loader's refusals; a save read back mid-hand;
random play on a pack with both keys that keeps every card.
"""

from __future__ import annotations

import itertools
import random

import pytest

import meldkit
from meldkit import GameState, RulePackError
from meldkit._cards import kind_of_code as k
from meldkit.kernel.melds import MeldKind, MeldRules, meld_code

DEUCES_AND_JOKERS = [k("2" + s) for s in "CDHS"] + [52]

PACK = """
meldkit: 1
name: wild_runs
deck: {decks: 2, jokers: 2}
players: {min: 2, max: 4, partners: never}
deal: {hand: 11, upcard: true, first_player: left_of_dealer}
cards:
  wild: ["2", JK]
melds:
  kinds:
    - {name: set, type: set, min_size: 3, max_wilds: 1}
    - {name: run, type: run, min_size: 3, ace: both, max_wilds: 1, wild_natural_in_place: true}
  lay_off: {onto: any, win_back: true}
pile: {take: top, freezes_on: [], blocked_by: []}
going_out: {requires_discard: true}
scoring: {style: penalty}
game: {hands: 1, winner: lowest, tie: draw, hand_turn_limit: 400}
"""


def load(text: str = PACK, **subs: str):
    for old, new in subs.items():
        assert old in text
        text = text.replace(old, new)
    return meldkit.load_pack_text(text, filename="wild_runs.yaml")


def deal(p, *hands: str, upcard: str = "QS", stock: str = "KD 5D 9H 5C 10S 10H"):
    order = [c for hand in hands for c in hand.split()] + [upcard, *stock.split()]
    return meldkit.new_game(p, players=len(hands), seed=1, options={"first_player": 0},
                            deck_order=order)


def cards(text: str) -> list[int]:
    return [k(c) for c in text.split()]


def legal(g) -> list[str]:
    return sorted(str(a) for a in g.legal_actions())


def melds(g) -> dict[str, list[str]]:
    return {m["id"]: m["cards"] for m in g.view(0)["melds"]}


def saved(g):
    h = GameState.from_json(g.to_json(), pack=g.pack)
    assert h == g
    assert legal(h) == legal(g)
    return h


def _rules(max_wilds: int = 1, flag: bool = True, **kw) -> MeldRules:
    return MeldRules([MeldKind("set", "set", max_wilds=1),
                      MeldKind("run", "run", ace="both", max_wilds=max_wilds,
                               wild_natural_in_place=flag, **kw)], DEUCES_AND_JOKERS)


# --------------------------------------------------------------------------- in place

def test_a_wild_card_in_its_own_place_in_a_run_is_a_natural_card():
    clean = _rules(max_wilds=0)
    for text, laid in (("AH 2H 3H", "AH 2H 3H"), ("3H 4H 2H", "2H 3H 4H")):
        m = clean.match(cards(text))
        assert m is not None and meld_code(m.cards) == laid
        assert clean.wilds_in(m) == 0  # clean: its only wild card stands as itself
    assert clean.match(cards("AH 2C 3H")) is None  # the 2C stands for the 2H: wild
    plain = _rules(max_wilds=0, flag=False)
    assert plain.match(cards("AH 2H 3H")) is None  # without the key a deuce is always wild
    one = _rules(max_wilds=1)
    m = one.match(cards("AH 2H 3H 2C"))  # Buraco: one wild card, and the 2 in its place
    assert meld_code(m.cards) == "AH 2H 3H 2C" and one.wilds_in(m) == 1
    assert one.match(cards("AH 2H 3H 2C JK")) is None  # two wild cards besides
    assert _rules(max_wilds=1, flag=False).match(cards("AH 2H 3H 2C")) is None


def test_the_legal_reading_of_a_wild_card_is_taken_and_of_two_the_natural():
    rules = _rules(max_wilds=1)
    m = rules.match(cards("2H QH KH"))  # the 2H cannot stand as itself here: the AH
    assert meld_code(m.cards) == "QH KH 2H" and rules.wilds_in(m) == 1
    m = rules.match(cards("3H 4H 2H"))  # natural (2-3-4), not a wild 5H
    assert meld_code(m.cards) == "2H 3H 4H" and (m.low, m.high) == (1, 3)
    m = rules.match(cards("2H 2H 3H 4H"))  # two decks: one natural, the other wild
    assert meld_code(m.cards) == "2H 3H 4H 2H" and rules.wilds_in(m) == 1
    assert rules.match(cards("2H 2H 2H 3H")) is None  # one natural, two wild
    # a set is no run: its deuces are wild, whatever the run kind says
    assert rules.match(cards("2H 2D 2C")) is None
    m = rules.match(cards("9H 9D 2H"))
    assert (m.kind, rules.wilds_in(m)) == (0, 1)


def test_lay_offs_and_grown_melds_honour_a_wild_card_in_its_own_place():
    clean = _rules(max_wilds=0)
    run = clean.match(cards("3H 4H 5H"))
    grown = clean.can_add(run, k("2H"))
    assert meld_code(grown.cards) == "2H 3H 4H 5H" and clean.wilds_in(grown) == 0
    assert clean.can_add(run, k("2C")) is None  # a wild card the clean run cannot take
    one = _rules(max_wilds=1)
    m = one.can_add(one.match(cards("2H 3H 4H")), k("2C"))  # wild, above: 2-3-4-(5)
    assert meld_code(m.cards) == "2H 3H 4H 2C" and one.wilds_in(m) == 1
    assert one.can_add(m, k("JK")) is None  # the run already holds its one wild card
    m = one.can_add(one.match(cards("3H 4H JK")), k("2H"))  # the JK is the 5H
    assert meld_code(m.cards) == "2H 3H 4H JK" and one.wilds_in(m) == 1
    # a meld read back keeps its cards' places, counting a wild card in place as natural
    kept = one.match_grown(1, cards("2C 2H 3H"))
    assert (meld_code(kept.cards), kept.low, one.wilds_in(kept)) == ("2C 2H 3H", 0, 1)
    assert one.match_grown(1, cards("JK 2C 3H")) is None  # two wild cards


def test_every_meld_listed_from_a_hand_is_a_meld_and_every_meld_is_listed():
    rules = _rules(max_wilds=1)
    rng = random.Random(7)
    deck = [c for c in range(52)] * 2 + [52, 52]
    hearts = [q * 4 + 2 for q in range(6)] + [k("2C"), k("2H"), 52]
    for trial in range(60):
        hand = sorted(rng.sample(hearts, 6) + rng.sample(deck, 2)) if trial % 2 else sorted(
            rng.sample(deck, 8))
        listed = set(rules.melds_in(hand))
        for m in listed:
            assert rules.match(m) is not None and rules.match(m).cards == m
        for n in range(3, len(hand) + 1):
            for sub in set(itertools.combinations(hand, n)):
                m = rules.match(sub)
                if m is not None:
                    assert m.cards in listed, (meld_code(hand), meld_code(sub))


def test_the_deadwood_counts_a_run_holding_a_wild_card_in_its_own_place():
    clean = _rules(max_wilds=0)
    assert clean.min_deadwood(cards("AH 2H 3H 9C")) == 9
    melds_, dead = clean.best_arrangement(cards("AH 2H 3H 4H 9C"))
    assert [meld_code(m) for m in melds_] == ["AH 2H 3H 4H"] and meld_code(dead) == "9C"


def test_a_table_pack_offers_and_lays_a_run_with_a_wild_card_in_its_own_place():
    p = load(PACK, **{"max_wilds: 1, wild_natural_in_place: true":
                      "max_wilds: 0, wild_natural_in_place: true"})
    g = deal(p, "AH 2H 3H 2C 5S 6S 9D 9C KC QD 4C", "6H 7H 8H 4D 7D 4S 10D JD 3C 7C 8C")
    g.apply("draw")
    offered = legal(g)
    assert "meld AH 2H 3H" in offered and "meld 2H 3H 4H" not in offered
    assert "meld AH 2C 3H" not in offered  # a clean run: the 2C would be wild
    assert g.check("meld AH 2C 3H").code == "meld/not-a-meld"
    g.apply("meld 3H AH 2H")  # any order: laid as the run lies
    assert melds(g) == {"m1": ["AH", "2H", "3H"]}
    assert g.view(0)["melds"][0]["kind"] == "run"
    saved(g)


# --------------------------------------------------------------------------- win back

def _jokered():
    """Seat 0 lays 5H JK 7H and 9C 9D JK; seat 1, holding the 6H and the 9S, is to play."""
    g = deal(load(), "5H JK 7H 9C 9D JK 3S 4S KC QD 8C", "6H 9S 4D 7D 10D JD 3C 7C 8D AS 2C")
    for move in ("draw", "meld 5H JK 7H", "meld 9C 9D JK", "discard QD", "draw"):
        g.apply(move)
    return g


def test_a_joker_in_a_run_is_won_back_by_the_card_it_stands_for():
    g = _jokered()
    assert melds(g) == {"m1": ["5H", "JK", "7H"], "m2": ["9C", "9D", "JK"]}
    trades = [a for a in legal(g) if a.startswith("trade")]
    assert trades == ["trade 6H to m1", "trade 9S to m2"]
    before = len(g.view(1)["hand"])
    g.apply("trade 6h to M1")
    assert melds(g)["m1"] == ["5H", "6H", "7H"]
    hand = g.view(1)["hand"]
    assert "JK" in hand and "6H" not in hand and len(hand) == before
    assert g.history[-1] == "trade 6H to m1"
    assert g.phase == "play" and g.current_player == 1  # the turn goes on
    assert "add JK to m1" in legal(g)  # the joker may be laid again, or kept
    h = saved(g)
    h.apply("trade 9S to m2")
    assert melds(h)["m2"] == ["9C", "9D", "9S"] and h.view(1)["hand"].count("JK") == 2


def test_a_wild_card_in_a_set_is_won_back_by_a_card_of_its_rank():
    rules = _rules()
    m, wild = rules.win_back(rules.match(cards("7C 7D JK")), k("7S"))
    assert meld_code(m.cards) == "7C 7D 7S" and wild == 52
    assert rules.win_back(rules.match(cards("7C 7D JK")), k("8S")) is None
    distinct = MeldRules([MeldKind("set", "set", max_wilds=1, distinct_suits=True)], [52])
    assert distinct.win_back(distinct.match(cards("7C 7D JK")), k("7D")) is None
    assert distinct.win_back(distinct.match(cards("7C 7D JK")), k("7H")) is not None


def test_a_wild_card_in_its_own_place_is_not_won_back():
    rules = _rules()
    run = rules.match(cards("AH 2H 3H 2C"))  # the 2H is natural, the 2C stands for the 4H
    assert rules.win_back(run, k("2H")) is None  # a wild card is never the natural card
    m, wild = rules.win_back(run, k("4H"))
    assert meld_code(m.cards) == "AH 2H 3H 4H" and wild == k("2C")
    assert rules.win_back(rules.match(cards("AH JK 3H")), k("2H")) is None
    assert rules.win_back(rules.match(cards("AH JK 3H")), k("2S")) is None


def test_a_trade_is_refused_with_its_reason():
    g = _jokered()
    why = {text: g.check(text).code for text in (
        "trade 8H to m1", "trade 4D to m1", "trade 6H to m2", "trade 6H to m9",
        "trade 2C to m1")}
    assert why == {"trade 8H to m1": "hand/missing-card",
                   "trade 4D to m1": "trade/no-wild-card",
                   "trade 6H to m2": "trade/no-wild-card",
                   "trade 6H to m9": "meld/no-such-meld",
                   "trade 2C to m1": "trade/wild-card"}
    assert "cannot be won back" in g.check("trade 4D to m1").sentence
    for text, code in (("trade 6H", "notation/trade"), ("trade to m1", "notation/trade"),
                       ("trade 6H 7H to m1", "notation/one-card"),
                       ("trade 6H to 4H-6H", "notation/meld-id")):
        with pytest.raises(meldkit.NotationError) as e:
            g.parse_action(text)
        assert e.value.code == code, text
    # a pack without win_back refuses it, in its play phase
    p = load(PACK, **{"win_back: true": "win_back: false"})
    g2 = deal(p, "5H JK 7H 9C 9D JK 3S 4S KC QD 8C", "6H 9S 4D 7D 10D JD 3C 7C 8D AS 2C")
    for move in ("draw", "meld 5H JK 7H", "discard QD", "draw"):
        g2.apply(move)
    assert not [a for a in legal(g2) if a.startswith("trade")]
    assert g2.check("trade 6H to m1").code == "trade/not-allowed"
    assert "trade" not in {a.type for a in g2.action_space.actions}
    # out of the play phase: the wrong phase
    assert _jokered().check("trade 6H to m1") is None
    g3 = deal(load(), "5H JK 7H 9C 9D JK 3S 4S KC QD 8C", "6H 9S 4D 7D 10D JD 3C 7C 8D AS 2C")
    assert g3.check("trade 6H to m1").code == "turn/wrong-phase"


def test_a_wild_card_is_won_back_only_from_a_meld_one_may_lay_off_onto_once_opened():
    own = load(PACK, **{"onto: any": "onto: own"})
    g = deal(own, "5H JK 7H 9C 9D JK 3S 4S KC QD 8C", "6H 9S 4D 7D 10D JD 3C 7C 8D AS 2C")
    for move in ("draw", "meld 5H JK 7H", "discard QD", "draw"):
        g.apply(move)
    assert g.check("trade 6H to m1").code == "trade/not-your-meld"
    opening = load(PACK, **{"pile: {": "initial_meld: {minimums: [{minimum: 30}]}\npile: {"})
    g = deal(opening, "5H JK 7H 9C 9D JK 3S 4S KC QD 8C",
             "6H 9S 4D 7D 10D JD 3C 7C 8D AS 2C", stock="KD 5D 9H 5C 10S 10H KS KH")
    for move in ("draw", "meld 5H JK 7H", "meld 9C 9D JK", "meld KC KD 2C"):
        if move in legal(g):
            g.apply(move)
    assert g.view(0)["melds"], "seat 0 opened"
    g.apply(next(a for a in legal(g) if a.startswith("discard")))
    g.apply("draw")
    assert g.check("trade 6H to m1").code == "trade/not-opened"


def test_the_action_universe_has_trades_only_where_the_pack_wins_wild_cards_back():
    g = _jokered()
    space = g.action_space
    assert "trade 6H to m1" in {str(a) for a in space.actions}
    g.apply(space.id_of("trade 6H to m1"))
    assert g.history[-1] == "trade 6H to m1"
    rummy = meldkit.new_game("rummy", players=2, seed=1)
    assert "trade" not in {a.type for a in rummy.action_space.actions}


def test_the_rules_sheet_says_both_keys():
    sheet = meldkit.rules_sheet(load()) if hasattr(meldkit, "rules_sheet") else None
    if sheet is None:
        from meldkit.rulesheet import rules_sheet
        sheet = rules_sheet(load())
    assert "a wild card in its own place" in sheet
    assert "Winning back a wild card" in sheet and "trade 6H to m3" in sheet


@pytest.mark.parametrize("cards, example", [
    ('["2", JK]', "`trade 6H to m3` wins the joker of 5H JK 7H;"),
    ('["2"]', "`trade 6H to m3` wins the 2C of 5H 2C 7H;"),
    ('["6"]', "`trade 4H to m3` wins the 6C of 3H 6C 5H;"),  # a run of no wild card
    ("[]\n  turned_wild: rank", "`trade 6H to m3` wins the *C of 5H *C 7H;"),
])
def test_the_rules_sheets_win_back_example_wins_a_wild_card_the_pack_has(cards, example):
    """The example always won 'the joker of 5H JK 7H', even in a pack whose only wild
    cards are deuces (or a rank turned wild at the deal), which has no joker to win."""
    from meldkit.rulesheet import rules_sheet

    sheet = rules_sheet(load(**{'wild: ["2", JK]': f"wild: {cards}"}))
    (line,) = [x for x in sheet.splitlines() if "Winning back a wild card" in x]
    assert example in line
    assert ("joker" in line) == ("JK" in cards)
    sets = load(**{'wild: ["2", JK]': 'wild: ["9", "2"]',
                   "    - {name: run, type: run, min_size: 3, ace: both, max_wilds: 1, "
                   "wild_natural_in_place: true}\n": ""})
    assert "(`trade 8S to m3` wins the 2C of 8C 8D 2C;" in rules_sheet(sets)  # no runs


# --------------------------------------------------------------------------- the loader

def test_the_loader_refuses_the_keys_where_they_cannot_apply_at_their_line():
    with pytest.raises(RulePackError) as e:
        load(PACK, **{"{name: set, type: set, min_size: 3, max_wilds: 1}":
                      "{name: set, type: set, min_size: 3, max_wilds: 1, "
                      "wild_natural_in_place: true}"})
    assert "wild_runs.yaml:11:57:" in str(e.value) and "applies to runs only" in str(e.value)
    for subs, words in (({"onto: any": "onto: none"}, "lay_off.onto is none"),
                        ({'wild: ["2", JK]': "wild: []"}, "has no wild cards"),
                        ({"scoring: {style: penalty}":
                          "scoring: {style: penalty, items: [{item: laid}]}"},
                         "scoring item laid")):
        with pytest.raises(RulePackError) as e:
            load(PACK, **subs)
        assert "melds.lay_off.win_back" in str(e.value) and words in str(e.value), subs
        assert "wild_runs.yaml:13:" in str(e.value)
    with pytest.raises(RulePackError, match="win_back: true, but scoring.style is knock"):
        meldkit.load_pack_text("extends: gin_rummy\ncards: {wild: [JK]}\n"
                               "knock: {test: best_discard}\n"
                               "melds: {lay_off: {onto: any, win_back: true}}\n")
    with pytest.raises(RulePackError,
                       match=r"x.yaml:2:19: melds.lay_off.win_back: is read only by the table"):
        meldkit.load_pack_text("extends: pony_tail\nmelds: {lay_off: {win_back: true}}\n",
                               filename="x.yaml")


# --------------------------------------------------------------------------- random play

def test_random_play_with_both_keys_keeps_every_card_and_reads_back_mid_hand():
    p = load()
    traded = 0
    for seed in range(6):
        g = meldkit.new_game(p, players=2 + seed % 3, seed=seed)
        deck = len(g.kind_of)
        rng = random.Random(seed)
        steps = 0
        while g.phase != "over" and steps < 600:
            acts = g.legal_actions()
            trades = [a for a in acts if a.type == "trade"]
            progress = [a for a in acts if a.type in ("meld", "add")]
            a = rng.choice(trades or progress or acts) if rng.random() < 0.8 else rng.choice(acts)
            traded += a.type == "trade"
            g.apply(a)
            steps += 1
            s = g.to_json()
            if steps % 25 == 0 or a.type == "trade":
                h = GameState.from_json(s, pack=p)
                assert h == g and legal(h) == legal(g)
            v = g.view(0)
            held = sum(q["hand_size"] for q in v["seats"])
            on_table = sum(len(m["cards"]) for m in v["melds"])
            assert held + on_table + v["stock_size"] + v["pile"]["size"] == deck
    assert traded >= 3


def test_the_greedy_bot_wins_a_wild_card_back_when_it_can():
    from meldkit.bots import make_bot

    g = _jokered()
    assert str(make_bot("greedy", seed=1).choose(g)) == "trade 6H to m1"


def test_a_run_whose_only_wild_card_stands_in_its_own_place_is_a_clean_book():
    text = """meldkit: 1
extends: rummy
name: clean_books
deck: {decks: 2}
deal: {hand: 9, hand_by_players: {2: 9}}
cards: {wild: ["2"]}
melds:
  kinds:
    - {name: set, type: set, min_size: 3, max_wilds: 1}
    - {name: run, type: run, min_size: 3, max_wilds: 1, wild_natural_in_place: true}
books:
  size: 7
  kinds:
    - {name: clean, value: 200, sequence: true, max_wilds: 0}
    - {name: dirty, value: 100, sequence: true}
going_out: {required_books: [clean], requires_discard: false}
"""
    p = meldkit.load_pack_text(text, filename="clean_books.yaml")
    g = deal(p, "AH 2H 3H 4H 5H 6H 7H KC 9D", "KD KS 5C 9C JS QC 4S 6D 8D",
             upcard="QD", stock="JD 10C")
    g.apply("draw")  # the JD
    assert "meld AH 2H 3H 4H 5H 6H 7H" in legal(g)  # leaves KC 9D JD: no going out yet
    g.apply("meld AH 2H 3H 4H 5H 6H 7H")
    state = g._state if hasattr(g, "_state") else g
    m = state.melds[0]
    assert state.rules.kinds[m.match.kind].name == "run"
    assert state.rules.book_kinds[state._meld_book(m)].name == "clean"


def test_the_view_shows_a_run_as_it_lies_each_wild_card_in_its_place():
    """A Rommé pack author's finding: the view listed a meld's cards in the order they
    were laid, so ``5H 6H JK`` grown by the 7H read ``5H 6H JK 7H`` though the joker had
    moved to the 8H — and the card a joker stands for decides who may win it back."""
    g = _jokered()
    g.apply("add 6H to m1")  # the 6H takes its place in 5H JK 7H: the joker moves up
    assert melds(g)["m1"] == ["5H", "6H", "7H", "JK"]
    assert "trade 8H to m1" not in legal(g)  # (seat 1 holds no 8H)
    back = saved(g)
    assert melds(back) == melds(g)  # a save reads it back in place


def test_with_wilds_stay_a_wild_card_keeps_its_place_and_is_reached_only_by_a_trade():
    """``melds.lay_off.wilds_stay`` (Rommé's and Scala 40's joker): the 6H fits 5H JK 7H
    only where the joker stands, so it is not laid off — it wins the joker back; cards go
    on at the ends, the joker where it was laid.  Without the key the 6H moves it."""
    staying = load(**{"lay_off: {onto: any, win_back: true}":
                      "lay_off: {onto: any, win_back: true, wilds_stay: true}"})
    g = deal(staying, "5H JK 7H 9C 9D JK 3S 4S KC QD 8C", "6H 9S 4D 7D 10D JD 3C 7C 8D AS 2C")
    for move in ("draw", "meld 5H JK 7H", "meld 9C 9D JK", "discard QD", "draw"):
        g.apply(move)
    assert "add 6H to m1" not in legal(g) and "trade 6H to m1" in legal(g)
    assert g.check("add 6H to m1").code == "add/wild-card-stays"
    moved = _jokered()  # the same deal without the key: the 6H moves the joker up
    assert "add 6H to m1" in legal(moved)
    ends = deal(staying, "5H 6H JK 9C 9D JK 3S 4S KC QD 8C",
                "7H 4H 8H 7D 10D JD 3C 7C 8D AS 2C")
    for move in ("draw", "meld 5H 6H JK", "discard QD", "draw"):
        ends.apply(move)
    assert melds(ends)["m1"] == ["5H", "6H", "JK"]  # the joker: the 7H
    assert {"add 4H to m1", "add 8H to m1", "trade 7H to m1"} <= set(legal(ends))
    assert "add 7H to m1" not in legal(ends)
    ends.apply("add 8H to m1")
    assert melds(ends)["m1"] == ["5H", "6H", "JK", "8H"]
    ends.apply("add 4H to m1")
    assert melds(ends)["m1"] == ["4H", "5H", "6H", "JK", "8H"]
    back = saved(ends)
    assert "add 7H to m1" not in legal(back) and "trade 7H to m1" in legal(back)


@pytest.mark.parametrize("extra, why", [
    ("melds: {lay_off: {wilds_stay: true, onto: none}}", "true, but no card is laid off"),
    ("melds: {lay_off: {wilds_stay: true}}", "true, but no run can hold a wild card"),
])
def test_wilds_stay_is_refused_where_it_would_change_nothing(extra, why):
    with pytest.raises(RulePackError) as e:
        meldkit.load_pack_text(f"extends: rummy\nname: ws\n{extra}\n", filename="ws.yaml")
    assert f"ws.yaml:3:19: melds.lay_off.wilds_stay: {why}" in str(e.value)
