"""The items that count the cards left in hand — ``winner_takes``, ``penalty``, ``held`` —
may count only the cards their holder cannot arrange into melds (``count: unmelded``, as
Chinchón does), or cannot arrange into melds that hold the contract (``count:
unmelded_with_contract``: Indian Rummy's two "lives", every card without them).  The search
is exponential in the hand, so the loader refuses the count where a hand can grow past
:data:`~meldkit.kernel.melds.MOST_CARDS_ARRANGED` cards, at the item's line."""

from __future__ import annotations

import json
from array import array

import pytest

import meldkit
from meldkit import GameState, RulePackError
from meldkit._cards import kind_of_code as k
from meldkit.ai.observation import seat_writer
from meldkit.kernel.checks import most_cards_held
from meldkit.kernel.melds import (
    CONTRACT_ARRANGING_WORK,
    MOST_CARDS_ARRANGED,
    MeldKind,
    MeldRules,
    TooManyMelds,
    unmelded_value,
)
from meldkit.rulesheet import rules_sheet
from meldkit.testing import stacked_game


def rummy(items: str, extra: str = ""):
    return meldkit.load_pack_text(f"extends: rummy\nname: rummy_unmelded\n{extra}scoring:\n"
                                  f"{items}", filename="rummy_unmelded.yaml")


OUT = "2C 3C 4C 10H JH QH KH 9S 9D 9C".split()
"""Seat 0 melds all ten cards in one turn and discards the card drawn."""
LOSER = "5D 6D 7D 8D KS KC 2S 4S 9H AH".split()
"""Seat 1: a run of four diamonds (26) and 36 in cards that meld with nothing (62 in all)."""


def out_in_one_turn(pack):
    g = stacked_game(pack, 2, hands={0: OUT, 1: LOSER}, upcard="5S", stock=["6H"])
    for move in ("draw", "meld 2C 3C 4C", "meld 10H JH QH KH", "meld 9C 9D 9S", "discard 6H"):
        g.apply(move)
    assert GameState.from_json(g.to_json(), pack=pack) == g
    (hand,) = g.hand_results
    assert hand.final.deadwood == (0, 62)
    return g, hand


def test_a_loser_who_holds_a_meld_pays_only_for_the_cards_left_out_of_melds():
    g, hand = out_in_one_turn(rummy("  items: [{item: winner_takes, count: unmelded}]\n"))
    assert hand.final.unmelded == (0, 36)  # KS KC 2S 4S 9H AH; the diamonds' run is free
    assert dict(hand.scores[0].items) == {"cards_in_other_hands": 36}
    assert hand.net == (36, -36) and g.scores == [36, 0]
    every = out_in_one_turn(rummy("  items: [{item: winner_takes}]\n"))[1]
    assert every.net == (62, -62) and every.final.unmelded == ()  # counted only where asked


def test_penalty_and_held_count_the_unmelded_cards_too_and_a_cap_still_bounds_them():
    hand = out_in_one_turn(rummy("  style: penalty\n  items: [{item: penalty, count: "
                                 "unmelded}]\n", "game: {winner: lowest}\n"))[1]
    assert dict(hand.scores[1].items) == {"cards_in_hand": 36} and hand.net == (0, -36)
    hand = out_in_one_turn(rummy("  items: [{item: laid}, {item: held, count: unmelded, "
                                 "cap: 30}]\n"))[1]
    assert dict(hand.scores[1].items) == {"held": -30}


CONTRACT = ("melds:\n  kinds:\n    - {name: set, type: set, min_size: 3, max_size: 4}\n"
            "    - {name: run, type: run, min_size: 3, ace: low}\n"
            "initial_meld: {melds: [run, run]}\n")
"""A rummy whose opening (the contract) is two runs."""


def test_unmelded_with_contract_counts_every_card_of_a_loser_whose_melds_miss_the_contract():
    pack = rummy("  items: [{item: winner_takes, count: unmelded_with_contract}]\n", CONTRACT)
    out = "2C 3C 4C 10H JH QH KH 9S 10S JS".split()  # two runs, then a third: out
    g = stacked_game(pack, 2, hands={0: out, 1: LOSER}, upcard="5S", stock=["6H"])
    for move in ("draw", "meld 2C 3C 4C", "meld 10H JH QH KH", "meld 9S 10S JS",
                 "discard 6H"):
        g.apply(move)
    (hand,) = g.hand_results
    assert hand.final.unmelded_with_contract == (0, 62)  # one run only: every card counts
    assert hand.net == (62, -62)
    two_runs = "5D 6D 7D 8D 2S 3S 4S KC 9H AH".split()  # two runs: KC 9H AH are left
    g = stacked_game(pack, 2, hands={0: out, 1: two_runs}, upcard="5S", stock=["6H"])
    for move in ("draw", "meld 2C 3C 4C", "meld 10H JH QH KH", "meld 9S 10S JS",
                 "discard 6H"):
        g.apply(move)
    assert g.hand_results[0].final.unmelded_with_contract == (0, 20)
    assert g.hand_results[0].net == (20, -20)


def test_the_rules_sheet_says_which_cards_count():
    sheet = rules_sheet(rummy("  items: [{item: winner_takes, count: unmelded, cap: 50}]\n"))
    assert ("- The player who goes out scores the value of the cards left in the other "
            "players' hands that each of them cannot arrange into melds, 50 points at most "
            "from any one of them.") in sheet
    sheet = rules_sheet(rummy("  items: [{item: laid}, {item: held, count: "
                              "unmelded_with_contract}]\n", CONTRACT))
    assert ("- The cards left in each player's hand that they cannot arrange into melds "
            "holding the contract (all of them, where the hand holds no such arrangement) "
            "count against them.") in sheet
    assert "cannot arrange" not in rules_sheet("rummy")


@pytest.mark.parametrize(("text", "expected"), [
    ("extends: rummy_500\nscoring:\n  items:\n    - {item: laid, low_ace: 1}\n"
     "    - {item: held, count: unmelded}\n",
     "grow.yaml:5:20: scoring.items[1].count: unmelded, but a player may take a card deep "
     "in the pile with every card above it (pile.take: deep), so a hand may grow without "
     "bound, and the cards a hand cannot meld are searched only in hands of at most 16 "
     "cards: count every card (remove it)"),
    ("extends: rummy\nturn: {draw: 2}\nscoring:\n  items: [{item: winner_takes, "
     "count: unmelded}]\n",
     "grow.yaml:4:32: scoring.items[0].count: unmelded, but a turn draws 2 cards and "
     "discards one (turn.draw), so a hand may grow without bound"),
    ("extends: contract_rummy\nscoring:\n  items: [{item: penalty, count: unmelded}]\n",
     "grow.yaml:3:27: scoring.items[0].count: unmelded, but a hand may hold 17 cards here "
     "(10 dealt + 6 bought + 1 drawn), and the cards a hand cannot meld are searched only "
     "in hands of at most 16 cards: count every card (remove it)"),
    ("extends: rummy\nscoring:\n  items: [{item: winner_takes, count: "
     "unmelded_with_contract}]\n",
     "grow.yaml:3:32: scoring.items[0].count: unmelded_with_contract, but the pack sets no "
     "contract (initial_meld.melds), so there is no contract for a hand's melds to hold: "
     "write unmelded, or set one"),
    ("extends: rummy\nscoring:\n  items: [{item: winner_takes, count: most}]\n",
     "grow.yaml:3:32: scoring.items[0].count: expected one of all, unmelded, "
     "unmelded_with_contract, got 'most'"),
])
def test_count_unmelded_is_refused_at_its_line_where_a_hand_may_outgrow_the_search(
        text, expected):
    with pytest.raises(RulePackError) as e:
        meldkit.load_pack_text(text, filename="grow.yaml")
    assert expected in str(e.value)


def test_the_most_cards_a_hand_can_hold_comes_from_the_deal_buys_and_the_draw():
    def most(name: str):
        return most_cards_held(meldkit.load_pack(name).spec)
    assert most("rummy") == (11, "10 dealt + 1 drawn, at 2 players")
    assert most("contract_rummy") == (17, "10 dealt + 6 bought + 1 drawn")
    assert most("rummy_500") == (None, ("pile", "take"))
    assert most("samba")[0] is None  # a canasta pack takes the whole pile
    banned = meldkit.load_pack_text(
        "extends: rummy\npile:\n  discard_bans: [{cards: [K, Q, J, '10', '9'], "
        "unless: going_out}]\n  all_banned: pass\n", filename="banned.yaml")
    assert most_cards_held(banned.spec) == (
        21, "20 cards banned from the discard held at a pass + 1 drawn, at 2 players")


INDIAN = MeldRules([MeldKind("pure", "run", ace="both", wild_natural_in_place=True),
                    MeldKind("run", "run", ace="both", max_wilds=13),
                    MeldKind("set", "set", max_size=4, max_wilds=13, distinct_suits=True)],
                   [k(c) for c in ("9C", "9D", "9H", "9S", "JK")])
"""Indian Rummy's melds with the nines cut wild: a pure run (a nine in its own place is
natural there), a run and a set of different suits, wild cards as many as the meld has."""


def test_a_wild_card_in_its_own_place_may_be_what_makes_the_pure_run():
    hand = [k(c) for c in "5S 6S 8H 9H 10H JK KD".split()]
    # 5S 6S 9H and 8H JK 10H would be two runs, neither pure: 5S 6S JK and 8H 9H 10H are
    assert unmelded_value(INDIAN, hand, (0, 1)) == 10
    assert unmelded_value(INDIAN, hand[:5] + hand[6:], (0, 1)) == 5 + 6 + 8 + 9 + 10 + 10


def test_a_hand_past_the_bound_or_a_contract_search_past_its_work_counts_every_card():
    rules = MeldRules([MeldKind("set", "set"), MeldKind("run", "run", max_wilds=4)], [52])
    runs = [k(f"{r}{s}") for s in "CDHS" for r in ("2", "3", "4", "5")]
    assert unmelded_value(rules, runs[:MOST_CARDS_ARRANGED]) == 0
    assert unmelded_value(rules, runs + [k("6C")]) == sum(rules.values[c] for c in runs) + 6
    # a hand built to be slow: nine wild cards of five kinds, two of them in their places
    crowded = [k(c) for c in "8H 9C 9D 9D 9H 9H 9S 10S JC JH QH KD KH JK".split()]
    with pytest.raises(TooManyMelds):
        INDIAN.min_deadwood_holding(crowded, (0, 1), work=CONTRACT_ARRANGING_WORK)
    assert INDIAN.min_deadwood_holding(crowded, (0, 1)) == 8  # what the whole search finds
    assert unmelded_value(INDIAN, crowded, (0, 1)) == sum(INDIAN.values[c] for c in crowded)
    assert unmelded_value(INDIAN, crowded) == 0  # no contract: the least deadwood, at once


def _save(pack, **change):
    g, _ = out_in_one_turn(pack)
    d = json.loads(g.to_json())
    d["hand_results"][0]["final"].update(change)
    return d


def test_a_save_whose_record_of_unmelded_cards_cannot_be_is_refused():
    pack = rummy("  items: [{item: winner_takes, count: unmelded}]\n")
    assert _save(pack)["hand_results"][0]["final"]["unmelded"] == [0, 36]
    for bad in ([0, 70], [0], [0, "36"]):  # more than held, short, not a number
        with pytest.raises(meldkit.SaveError, match=r"hand_results\[0\]\.final\.unmelded"):
            GameState.from_json(json.dumps(_save(pack, unmelded=bad)), pack=pack)
    plain = rummy("  items: [{item: winner_takes}]\n")
    with pytest.raises(meldkit.SaveError, match=r"final\.unmelded: only where the pack"):
        GameState.from_json(json.dumps(_save(plain, unmelded=[0, 36])), pack=plain)


SIXTEEN = "2C 3C 4C 5C 2D 3D 4D 5D 2H 3H 4H 5H 2S 3S 4S KS".split()
"""Sixteen cards of four runs and a king: 10 deadwood."""


def test_the_view_and_the_observation_show_the_least_deadwood_up_to_the_bound_only():
    assert len(SIXTEEN) == MOST_CARDS_ARRANGED
    for decks in (1, 2):  # every card its own kind (the seat writer's incremental path), or not
        pack = meldkit.load_pack_text(
            f"extends: rummy\nname: big_rummy\ndeck: {{decks: {decks}}}\nplayers: {{max: 3}}\n"
            "deal: {hand: 16, hand_by_players: null}\n", filename="big_rummy.yaml")
        g = stacked_game(pack, 3, hands={0: SIXTEEN}, upcard="9D", stock=["KD"])
        at = g.observation_spec()["deadwood"].start
        buf = array("f", bytes(4 * g.observation_spec().size))
        write = seat_writer(g, 0, buf)
        write(g)
        assert g.view(0)["deadwood"] == 10
        assert g.observation(0)[at] == buf[at] == 10
        g.apply("draw")  # a seventeenth card: not searched, in the view and the tensor alike
        write(g)
        assert len(g.view(0)["hand"]) == MOST_CARDS_ARRANGED + 1
        assert g.view(0)["deadwood"] is None
        assert g.observation(0)[at] == buf[at] == -1
        g.apply("discard KD")
        write(g)
        assert g.view(0)["deadwood"] == 10 and g.observation(0)[at] == buf[at] == 10
        assert buf == g.observation(0)


def test_a_knocking_pack_whose_hands_outgrow_the_search_is_refused_at_its_deal():
    text = "extends: gin_rummy\nname: big_gin\ndeal: {hand: %d}\nknock: {test: best_discard}\n"
    meldkit.load_pack_text(text % (MOST_CARDS_ARRANGED - 1), filename="big_gin.yaml")
    with pytest.raises(RulePackError) as e:
        meldkit.load_pack_text(text % MOST_CARDS_ARRANGED, filename="big_gin.yaml")
    assert ("big_gin.yaml:3:8: deal.hand: a hand may hold 17 cards here (16 dealt + 1 "
            "drawn), but a knocking pack searches each hand for its least deadwood at every "
            "knock, and searches hands of at most 16 cards: deal fewer") in str(e.value)
