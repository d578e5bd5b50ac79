"""Oklahoma Gin: one scenario test per clause of the rules of record
(docs/games/oklahoma_gin.md, OG-1 … OG-4), from stacked decks and moves in notation.

Stacked decks deal as in tests/test_gin_rummy_rules.py: seat 0's ten cards (the
non-dealer), seat 1's ten, the upcard — which in Oklahoma sets the knock value — then the
top of the stock.
"""

from __future__ import annotations

import attrs
import pytest

import meldkit

KNOCKER = "AS 2S 3S 7C 7D 7H KC KD KH 2D"  # knocks with the 2D after drawing the QD
DEFENDER = "4S 9C 9D JC JD QC QS 2H 3H 6D"  # lays off the 4S; 65 left
PLAIN = "JC QC 10D JD QD 8H 10H JH QH 9C"
KNOCKER_MELDS = ("meld AS 2S 3S", "meld 7C 7D 7H", "meld KC KD KH")


def deal(hand0: str, hand1: str, upcard: str, stock: str = "", pack="oklahoma_gin"):
    order = [*hand0.split(), *hand1.split(), upcard, *stock.split()]
    return meldkit.new_game(pack, players=2, seed=1, options={"first_player": 0},
                            deck_order=order)


def play(g, *moves: str) -> None:
    for move in moves:
        g.apply(move)


def legal(g) -> list[str]:
    return sorted(str(a) for a in g.legal_actions())


def knock_hand(upcard: str, scores=None, wins=None):
    """Seat 0 knocks with the 2D (deadwood 2); seat 1 lays off the 4S and is left with 65."""
    g = deal(KNOCKER, DEFENDER, upcard, "QD")
    if scores is not None:
        g.scores = list(scores)
    if wins is not None:
        g.wins = list(wins)
    play(g, "pass", "pass", "draw", "knock", "discard QD", *KNOCKER_MELDS, "done",
         "add 4S to m1", "done", "done")
    return g


# --------------------------------------------------------------------------- OG-1


def test_OG_1_the_first_upcard_sets_the_knock_value():
    five = deal("AS 2S 3S 4S 7C 7D 7H 7S 2D 3C", PLAIN, "5H", "KC")
    assert 5 == five.view(0)["knock_value"] == five.view(1)["knock_value"]
    play(five, "pass", "pass", "draw")
    assert "knock" in legal(five)  # 2D 3C = 5 after discarding the KC
    six = deal("AS 2S 3S 4S 7C 7D 7H 7S 2D 4C", PLAIN, "5H", "KC")
    play(six, "pass", "pass", "draw")
    assert "knock" not in legal(six)  # 2D 4C = 6: enough in Gin Rummy, not here


@pytest.mark.parametrize(("upcard", "value"), [("2C", 2), ("9D", 9), ("10H", 10), ("JC", 10),
                                               ("QD", 10), ("KH", 10)])
def test_OG_1_pips_and_court_cards_give_the_knock_value(upcard, value):
    g = deal("AS 2S 3S 4S 5S 6S 7S 8S 9S 10S", "AH 2H 3H 4H 5H 6H 7H 8H 9H AD", upcard)
    assert value == g.view(0)["knock_value"]


def test_OG_1_an_ace_upcard_allows_gin_only():
    one = deal("AS 2S 3S 7C 7D 7H KC KD KH AD", PLAIN, "AH", "QS")
    assert 0 == one.view(0)["knock_value"]
    play(one, "pass", "pass", "draw")
    assert "knock" not in legal(one)  # the AD alone (1) is too much
    gin = deal("AS 2S 3S 4S 7C 7D 7H KC KD KH", PLAIN, "AH", "QS")
    play(gin, "pass", "pass", "draw")
    assert "knock" in legal(gin)
    play(gin, "knock", "discard QS", "meld AS 2S 3S 4S", "meld 7C 7D 7H", "meld KC KD KH",
         "done", "done")
    assert "gin" == gin.hand_results[-1].ended_by


def test_OG_1_the_knock_value_stays_for_the_deal_when_the_upcard_is_taken():
    g = deal(KNOCKER, DEFENDER, "5H", "QD")
    play(g, "take", "discard 2D")
    assert 5 == g.view(1)["knock_value"] == g.view(0)["knock_value"]


# --------------------------------------------------------------------------- OG-2


def test_OG_2_a_spade_upcard_doubles_the_hand():
    result = knock_hand("8S").hand_results[-1]
    assert ((134, -134), (("deadwood", 134),)) == (result.net, result.scores[0].items)


def test_OG_2_gin_and_undercut_bonuses_are_doubled_too():
    g = deal("AS 2S 3S 4S 7C 7D 7H KC KD KH", "AC AD 10C JD QH 4C 5D 8H 9C 6C", "8S", "QD")
    play(g, "pass", "pass", "draw", "knock", "discard QD", "meld AS 2S 3S 4S",
         "meld 7C 7D 7H", "meld KC KD KH", "done", "done")
    result = g.hand_results[-1]  # (64 + 25) × 2 (178: the game ends, and its bonuses follow)
    assert (("deadwood", 128), ("gin", 50)) == result.scores[0].items[:2]
    undercut = deal("AS 2S 3S 7C 7D 7H KC KD KH 8D", "2C 3C 4C 9C 9D 9H JC JD JH 5D",
                    "8S", "QC")
    play(undercut, "pass", "pass", "draw", "knock", "discard QC", *KNOCKER_MELDS, "done",
         "done", "meld 2C 3C 4C", "meld 9C 9D 9H", "meld JC JD JH", "done")
    result = undercut.hand_results[-1]
    assert ("undercut", (("deadwood", 6), ("undercut", 50))) == (
        result.ended_by, result.scores[1].items)  # (8 - 5 + 25) × 2


def test_OG_2_other_suits_do_not_double():
    assert (67, -67) == knock_hand("8C").hand_results[-1].net


def test_OG_2_resolved_the_box_and_game_bonuses_are_not_doubled():
    g = knock_hand("8S", scores=[120, 0], wins=[1, 0])
    assert (True, 0) == (g.is_over, g.winner)
    assert (("deadwood", 134), ("box", 50), ("game", 100)) == g.hand_results[-1].scores[0].items


def test_OG_2_a_doubled_hand_rescores_to_its_recorded_totals():
    g = knock_hand("8S")
    assert g.hand_results[-1].totals == g.rescore(g.hand_results[-1])


# --------------------------------------------------------------------------- OG-3, OG-4


def test_OG_3_the_game_is_played_to_150():
    short = knock_hand("8C", scores=[60, 0])
    assert (False, [127, 0]) == (short.is_over, short.scores)  # over 100, under 150
    game = knock_hand("8C", scores=[90, 0])
    assert (True, 0) == (game.is_over, game.winner)


def test_OG_4_everything_else_is_gin_rummy():
    gin = meldkit.load_pack("gin_rummy").spec
    okla = meldkit.load_pack("oklahoma_gin").spec
    for section in ("deck", "players", "deal", "cards", "turn", "melds", "pile", "stock",
                    "going_out", "scoring"):
        assert getattr(gin, section) == getattr(okla, section), section
    assert attrs.evolve(okla.knock, from_upcard=False, spade_upcard_doubles=False) == gin.knock
    assert attrs.evolve(okla.game, target=100) == gin.game
    g = deal(KNOCKER, DEFENDER, "8C", "QD")
    assert ("first_upcard", ["pass", "take"]) == (g.phase, legal(g))  # GR-3
