"""A rank wild for the deal, chosen by a card turned at the deal (issue 24, item 3):
``cards.turned_wild``.  Actions name a card of the deal's wild rank by its role (``*C``),
so that every action keeps one integer id in every deal; the turned card is public (view,
resample), saved and checked, and said in the rules sheet."""

from __future__ import annotations

import json
import random

import pytest

import meldkit
from meldkit import GameState, NotationError, RulePackError, SaveError
from meldkit.ai.resample import Determinizer
from meldkit.bots import GreedyBot
from meldkit.rulesheet import rules_sheet
from meldkit.testing import check_conformance, refusal, stacked_game

KINDS = ("melds: {kinds: [{name: set, type: set, max_size: 4, max_wilds: 2}, "
         "{name: run, type: run, max_wilds: 2}]}\n")
HANDS = {0: "5H 6H KC KD 2S JC 4D".split(), 1: "8H 8S 3D 3C QS JD 10S".split()}


def wild_pack(mode: str = "rank", extra: str = "", cards: str = "") -> meldkit.RulePack:
    return meldkit.load_pack_text(f"extends: rummy\nname: wild_{mode}\ncards: {{turned_wild: "
                                  f"{mode}{cards}}}\n" + KINDS + extra, filename="w.yaml")


def deal(pack, stock=("9C", "2C", "AC", "7D"), upcard="QD") -> GameState:
    return stacked_game(pack, 3, hands=HANDS, upcard=upcard, stock=list(stock))


def test_the_card_turned_at_the_deal_makes_its_rank_wild_for_the_deal():
    g = deal(wild_pack())
    assert {"turned": ["9C"], "rank": "9"} == g.view(2)["wild_rank"]  # public
    assert 9 - 1 == g.rules.wild_rank
    g2 = deal(wild_pack(), stock=("9C", "9H"))
    g2.apply("draw")  # the 9H: wild this deal, named by its role
    legal = [str(a) for a in g2.legal_actions()]
    assert {"meld 5H 6H *H", "meld KC KD *H", "discard *H"} <= set(legal)
    assert str(g2.parse_action("meld 9H 6H 5H")) == "meld 5H 6H *H"  # 9H read as *H
    g2.apply("meld 5H 6H 9H")
    assert ["5H", "6H", "9H"] == [g2.card_code(c) for c in g2.melds[0].cards]
    assert (g2.melds[0].match.low, g2.melds[0].match.high) == (4, 6)  # the 9H is the 7H
    assert GameState.from_json(g2.to_json(), pack=g2.pack) == g2
    assert "hand/missing-card" == refusal(g2, "discard *S").code


def test_next_rank_makes_the_rank_above_the_turned_card_wild():
    g = deal(wild_pack("next_rank"), stock=("KS",))
    assert ("K", 0) == (g.view(0)["wild_rank"]["turned"][0][0], g.rules.wild_rank)  # aces
    stripped = wild_pack("next_rank", 'deck: {ranks: [A, "2", "3", "4", "5", "6", "7", J, '
                         "Q, K]}\n")
    g = stacked_game(stripped, 3, hands={0: "5H 6H".split()}, upcard="QD", stock=["7C"])
    assert "J" == g.view(0)["wild_rank"]["rank"]  # the next rank the deck keeps


def test_a_joker_turned_is_set_aside_and_another_turned():
    pack = wild_pack("rank", "deck: {jokers_per_deck: 2}\n",
                     ", wild: [JK], values: {JK: 15}")
    g = deal(pack, stock=("JK", "JK", "4C"))
    assert {"turned": ["JK", "JK", "4C"], "rank": "4"} == g.view(1)["wild_rank"]
    d = json.loads(g.to_json())
    d["indicator"] = list(reversed(d["indicator"]))  # the card that names it first
    with pytest.raises(SaveError, match="indicator: expected jokers, then the card"):
        GameState.from_json(json.dumps(d), pack=pack)


def test_every_deal_turns_its_own_wild_rank_and_every_action_keeps_its_id():
    pack = wild_pack()
    g = meldkit.new_game(pack, players=3, seed=11)
    space = g.action_space
    rng = random.Random(11)
    ranks = set()
    for _ in range(3000):
        if g.is_over or len(g.hand_results) >= 4:
            break
        ranks.add(g.rules.wild_rank)
        ids = g.legal_ids()
        assert [space.action_of(i) for i in ids] == g.legal_actions()
        g.apply(ids[rng.randrange(len(ids))])
    assert len(ranks) >= 3  # each deal turns a rank of its own


def test_a_turned_wild_rank_is_saved_checked_resampled_and_played_by_bots():
    pack = wild_pack()
    assert check_conformance(pack, players=3, games=2, hands=2) > 0
    g = deal(pack, stock=("9C", "9H"))
    s = Determinizer(g, 1).sample(random.Random(2))
    assert (s.indicator, s.rules.wild_rank) == (g.indicator, 8)
    d = json.loads(g.to_json())
    d["indicator"] = []
    with pytest.raises(SaveError, match="indicator"):
        GameState.from_json(json.dumps(d), pack=pack)
    plain = meldkit.new_game("rummy", players=3, seed=1)
    d = json.loads(plain.to_json())
    d["indicator"] = [d["stock"].pop()]
    with pytest.raises(SaveError, match="indicator: this pack turns no card"):
        GameState.from_json(json.dumps(d), pack=plain.pack)
    game = meldkit.new_game(pack, players=3, seed=5)
    bots = [GreedyBot() for _ in range(3)]
    while not game.is_over and len(game.hand_results) < 2:
        game.apply(bots[game.current_player].choose(game))
    assert game.hand_results[0].ended_by == "went_out"


def test_the_rules_sheet_says_how_the_wild_rank_is_turned():
    sheet = rules_sheet(wild_pack("next_rank"))
    assert "- **Wild cards:** the rank above a card turned at each deal." in sheet
    assert ("- Then the top card of the stock is turned face up and set aside for the deal: "
            "every card of the rank above it (after a king: aces) is wild for the deal.") in sheet


def test_a_card_named_by_its_role_is_refused_where_no_rank_is_turned():
    g = meldkit.new_game("rummy", players=3, seed=1)
    with pytest.raises(NotationError, match="a card named by its role"):
        g.parse_action("discard *C")


@pytest.mark.parametrize("text, where, message", [
    ("extends: pony_tail\ncards: {turned_wild: rank}\n", "cards.turned_wild",
     "the table meld model"),
    ("extends: gin_rummy\ncards: {turned_wild: rank}\n", "knock.test",
     "openspiel judges a one-deck game without wild cards"),
    ("extends: rummy\ncards: {turned_wild: rank}\ndeal: {hand: 17, hand_by_players: null}\n",
     "deal", "+ 1 card turned for the wild rank"),
    ("extends: rummy\ncards: {turned_wild: suit}\n", "cards.turned_wild", "'suit'"),
])
def test_a_turned_wild_rank_is_refused_where_it_cannot_be_played(text, where, message):
    with pytest.raises(RulePackError) as e:
        meldkit.load_pack_text(text, filename="bad.yaml")
    assert f"{where}: " in str(e.value) and message in str(e.value), str(e.value)


def test_a_card_of_the_rank_turned_wild_is_won_back_by_the_card_it_stands_for():
    """win_back was refused as 'the pack has no wild cards (cards.wild)' where the only wild
    cards were the deal's turned rank; a card of that rank in a meld is won back as any
    wild card is."""
    pack = meldkit.load_pack_text(
        "extends: rummy\nname: wild_won\ncards: {turned_wild: rank, wild: []}\n"
        + KINDS.replace("]}", "], lay_off: {onto: any, win_back: true}}"), filename="w.yaml")
    g = stacked_game(pack, 3, hands={0: "5H 6H 9S KC KD QC 4D".split(),
                                     1: "7H 8S 3D 3C QS JD 10S".split()},
                     upcard="QD", stock=["9C", "2C", "AC"])
    for move in ("draw", "meld 5H 6H *S", "discard QC", "draw"):  # nines are wild
        g.apply(move)
    assert "trade 7H to m1" in [str(a) for a in g.legal_actions()]
    g.apply("trade 7H to m1")
    assert ["5H", "6H", "7H"] == [g.card_code(c) for c in g.melds[0].cards]
    assert "9S" in [g.card_code(c) for c in g.hands[1]]
    assert "add *S to m1" in [str(a) for a in g.legal_actions()]  # the 9S, wild again
    assert GameState.from_json(g.to_json(), pack=pack) == g
    with pytest.raises(RulePackError) as e:  # no wild card at all: the message names both
        meldkit.load_pack_text("extends: rummy\ncards: {wild: []}\nmelds: {lay_off: "
                               "{onto: any, win_back: true}}\n", filename="w.yaml")
    assert ("w.yaml:3:30: melds.lay_off.win_back: true, but the pack has no wild cards "
            "(cards.wild, cards.turned_wild)") in str(e.value)


def test_a_card_of_the_rank_turned_wild_is_laid_as_the_card_it_stands_for_with_as_card():
    """laid's wilds: as_card was refused as 'the pack has no wild cards (cards.wild)' where
    the only wild cards were the deal's turned rank; a card of that rank laid in a run
    counts as the card it stands for (the 9H as the 7H of 5H 6H 9H), as any wild card."""
    scores = {}
    for wilds in ("as_card", "own"):
        pack = meldkit.load_pack_text(
            "extends: rummy\nname: wild_laid\ncards: {turned_wild: rank, wild: []}\n" + KINDS
            + "deal: {hand_by_players: {2: 5}}\nscoring:\n  items: [{item: laid, wilds: "
            f"{wilds}}}, {{item: held}}]\n", filename="w.yaml")
        g = stacked_game(pack, 2, hands={0: "5H 6H KC KD 2S".split(),
                                         1: "8H 3D QS JD 10S".split()},
                         upcard="QD", stock=["9C", "9H", "4C", "KH"])
        for move in ("draw", "meld 5H 6H 9H", "discard 2S", "draw", "discard 4C", "draw",
                     "meld KC KD KH"):  # nines wild: seat 0 goes out
            g.apply(move)
        (hand,) = g.hand_results
        scores[wilds] = hand.scores[0].items
    assert scores == {"as_card": (("laid", 5 + 6 + 7 + 30),), "own": (("laid", 5 + 6 + 9 + 30),)}
    with pytest.raises(RulePackError) as e:  # no wild card at all: refused at wilds
        meldkit.load_pack_text("extends: rummy\ncards: {wild: []}\nscoring:\n  items:\n"
                               "    - {item: winner_takes}\n    - {item: laid, wilds: as_card}\n",
                               filename="w.yaml")
    assert str(e.value).splitlines()[1:] == [(
        "  w.yaml:6:20: scoring.items[1].wilds: as_card, but the pack has no wild cards "
        "(cards.wild, cards.turned_wild), so every card laid counts at its own value anyway: "
        "remove it")]
