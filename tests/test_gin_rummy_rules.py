"""Gin Rummy: one scenario test per clause of the rules of record (docs/games/gin_rummy.md,
GR-1 … GR-16), from stacked decks and moves in notation.

A stacked deck deals, top first, the first player's ten cards (seat 0, the non-dealer),
the dealer's ten (seat 1), the upcard, then the top of the stock; the rest of the stock is
shuffled by the seed.  Where the pack plays OpenSpiel's rule rather than the book's, the
test says ``openspiel`` and a second test plays the book's rule from a pack that extends
``gin_rummy`` (see the page's table of differences).
"""

from __future__ import annotations

import pytest

import meldkit
from meldkit import GameState, SetupError

BOOK = meldkit.load_pack_text(
    """
extends: gin_rummy
name: gin_rummy_book
melds:
  kinds:
    - {name: set, type: set, min_size: 3, max_size: 4}
    - {name: run, type: run, min_size: 3, ace: low}
  lay_off: {max_per_end: null}
pile: {discard_taken_card: false}
stock: {wall_knock_with_upcard: false}
knock:
  big_gin_bonus: 31
  tie_is_undercut: true
  pile_take_limit: null
  returned_card_limit: null
game: {hand_turn_limit: 1000}
"""
)
"""The book's rules where OpenSpiel differs (docs/games/gin_rummy.md, the table of
differences)."""

# The knock of the notation page: seat 0 knocks with the 2D after drawing the QD.
KNOCKER = "AS 2S 3S 7C 7D 7H KC KD KH 2D"
DEFENDER = "4S 9C 9D JC JD QC QS 2H 3H 6D"  # 4S lays off on m1; deadwood 69, or 65 after
PLAIN = "JC QC 10D JD QD 8H 10H JH QH KH"  # a defender whose cards the tests leave alone
KNOCKER_MELDS = ("meld AS 2S 3S", "meld 7C 7D 7H", "meld KC KD KH")


def deal(hand0: str, hand1: str, upcard: str, stock: str = "", pack="gin_rummy", seed=1):
    """A new game dealt from a stacked deck (card codes separated by spaces)."""
    hands = hand0.split(), hand1.split()
    assert [10, 10] == [len(h) for h in hands]
    order = [*hands[0], *hands[1], upcard, *stock.split()]
    return meldkit.new_game(pack, players=2, seed=seed, options={"first_player": 0},
                            deck_order=order)


def play(g, *moves: str) -> None:
    for move in moves:
        g.apply(move)


def legal(g) -> list[str]:
    return sorted(str(a) for a in g.legal_actions())


def knock_with(g, discard: str, *melds: str) -> None:
    """Seat 0, holding eleven cards after the draw, knocks: discard, melds, done."""
    play(g, "knock", f"discard {discard}", *melds, "done")


def base_knock(pack="gin_rummy", defender=DEFENDER):
    """Seat 0 passes, seat 1 passes, seat 0 draws the QD and knocks with the 2D."""
    g = deal(KNOCKER, defender, "8C", "QD", pack=pack)
    play(g, "pass", "pass", "draw")
    knock_with(g, "QD", *KNOCKER_MELDS)
    return g


# --------------------------------------------------------------------------- the table


def test_GR_1_two_players_one_52_card_deck_without_jokers():
    pack = meldkit.load_pack("gin_rummy")
    assert (2, 2) == (pack.spec.players.min, pack.spec.players.max)
    g = meldkit.new_game("gin_rummy", players=2, seed=3)
    cards = [c for zone in g.zone_cards().values() for c in zone]
    assert list(range(52)) == sorted(cards)
    assert list(range(52)) == sorted(g.kind_of)  # one of each kind, no joker (kind 52)
    with pytest.raises(SetupError, match="is played by 2 players, not 3"):
        meldkit.new_game("gin_rummy", players=3)


def test_GR_2_ten_cards_each_then_the_upcard_then_the_stock():
    g = deal(KNOCKER, DEFENDER, "8C", "QD 5C")
    assert sorted(KNOCKER.split()) == sorted(g.view(0)["hand"])
    assert sorted(DEFENDER.split()) == sorted(g.view(1)["hand"])
    assert ["8C"] == g.view(0)["pile"]["cards"]
    assert 31 == g.view(0)["stock"]
    assert 0 == g.current_player  # the non-dealer plays first
    play(g, "pass", "pass", "draw")
    assert "QD" in g.view(0)["hand"]


def test_GR_2_the_first_dealer_is_chosen_by_lot():
    firsts = {meldkit.new_game("gin_rummy", players=2, seed=s).current_player for s in range(12)}
    assert {0, 1} == firsts  # the seed draws the dealer; the non-dealer acts first


def test_GR_2_the_deal_alternates():
    g = base_knock()
    play(g, "add 4S to m1", "done", "done")
    assert (2, 1) == (g.hand_number, g.current_player)
    assert 10 == len(g.view(1)["hand"]) == len(g.view(0)["hand"])


def test_GR_3_the_non_dealer_then_the_dealer_may_take_the_first_upcard():
    g = deal(KNOCKER, DEFENDER, "8C", "QD")
    assert ("first_upcard", 0, ["pass", "take"]) == (g.phase, g.current_player, legal(g))
    g.apply("pass")
    assert (1, ["pass", "take"]) == (g.current_player, legal(g))
    g.apply("pass")
    assert (0, ["draw"]) == (g.current_player, legal(g))  # both passed: the non-dealer draws
    assert "pile/cannot-take" == g.check("take").code


def test_GR_3_the_non_dealer_who_takes_the_upcard_discards_then_the_dealer_plays():
    g = deal(KNOCKER, DEFENDER, "8C", "QD")
    g.apply("take")
    assert ("discard", 0) == (g.phase, g.current_player)
    assert "8C" in g.view(0)["hand"] and 11 == len(g.view(0)["hand"])
    g.apply("discard 2D")
    assert ("draw", 1, ["draw", "take"]) == (g.phase, g.current_player, legal(g))
    assert ["2D"] == g.view(1)["pile"]["cards"]


def test_GR_3_the_dealer_may_take_the_upcard_the_non_dealer_passed():
    g = deal(KNOCKER, DEFENDER, "8C", "QD")
    play(g, "pass", "take")
    assert "8C" in g.view(1)["hand"]
    g.apply("discard 6D")
    assert ("draw", 0) == (g.phase, g.current_player)


# --------------------------------------------------------------------------- the turn


def test_GR_4_a_turn_is_a_draw_then_a_discard_and_nobody_melds_during_play():
    g = deal(KNOCKER, DEFENDER, "8C", "QD")
    play(g, "pass", "pass")
    assert "turn/wrong-phase" == g.check("discard 2D").code  # draw first
    g.apply("draw")
    assert {"discard", "knock"} >= {a.type for a in g.legal_actions()}
    assert "turn/wrong-phase" == g.check("meld 7C 7D 7H").code
    g.apply("discard 2D")
    assert (1, ["draw", "take"]) == (g.current_player, legal(g))
    assert "turn/wrong-phase" == g.check("meld 9C 9D 9H").code


def test_GR_4_openspiel_a_card_taken_from_the_pile_may_be_discarded_at_once():
    g = deal(KNOCKER, DEFENDER, "8C", "QD")
    play(g, "pass", "pass", "draw", "discard 2D", "take")
    assert g.check("discard 2D") is None


def test_GR_4_book_a_card_taken_from_the_pile_may_not_be_discarded_in_the_same_turn():
    g = deal(KNOCKER, DEFENDER, "8C", "QD", pack=BOOK)
    play(g, "pass", "pass", "draw", "discard 2D", "take")
    assert "discard/taken-card" == g.check("discard 2D").code
    assert g.check("discard 6D") is None


# --------------------------------------------------------------------------- melds


def test_GR_5_sets_of_three_or_four_and_runs_of_three_or_more_of_one_suit():
    g = deal("4H 5H 6H 7H 9C 9D 9H 9S 2D 3C", PLAIN, "8C", "KS")
    play(g, "pass", "pass", "draw", "knock", "discard KS")
    assert "meld/not-a-meld" == g.check("meld 4H 5H 6H 9C").code  # mixed
    assert "meld/not-a-meld" == g.check("meld 2D 3C").code  # too short
    play(g, "meld 4H 5H 6H 7H", "meld 9C 9D 9H 9S", "done")  # a run of 4, a set of 4
    assert [["4H", "5H", "6H", "7H"], ["9C", "9D", "9H", "9S"]] == [
        m["cards"] for m in g.view(1)["melds"]]


def test_GR_5_the_ace_is_low_only():
    low = deal("AS 2S 3S 7C 7D 7H 4H 5H 6H 2D", PLAIN, "8C", "KC")
    play(low, "pass", "pass", "draw")
    assert "knock" in legal(low)  # A-2-3 is a run: deadwood 2 after discarding the KC
    high = deal("QS KS AS 7C 7D 7H 4H 5H 6H 2D", PLAIN, "8C", "KC")
    play(high, "pass", "pass", "draw")
    assert "knock" not in legal(high)  # Q-K-A is not: deadwood 23


def test_GR_5_a_card_belongs_to_one_meld_only():
    # 7H would make both 7C 7D 7H and 5H 6H 7H: with it in both the hand would be gin, but
    # the best real arrangement leaves 5H 6H (11) after discarding the 8C: no knock.
    g = deal("9S 10S JS QS KS 7C 7D 7H 5H 6H", PLAIN, "4C", "8C")
    play(g, "pass", "pass", "draw")
    assert "knock" not in legal(g)


def test_GR_6_deadwood_counts_ace_1_pips_and_court_cards_10():
    defender = "AC AD 10C JD QH 4C 5D 8H 9S 6C"  # no meld, no lay-off: 64
    g = base_knock(defender=defender)
    g.apply("done")  # no lay-off
    g.apply("done")  # no meld
    result = g.hand_results[-1]
    assert (64, 2) == (result.final.deadwood[1], result.final.deadwood[0])
    assert (62, -62) == result.net


def test_GR_6_a_hand_counts_its_best_arrangement():
    # 6H in the set 6C 6D 6H leaves 4H 5H (9); in the run 4H 5H 6H it leaves 6C 6D (12).
    g = deal("9S 10S JS QS KS 4H 5H 6H 6C 6D", PLAIN, "8C", "2C")
    play(g, "pass", "pass", "draw")
    assert "knock" in legal(g)
    play(g, "knock", "discard 2C", "meld 9S 10S JS QS KS")
    assert "knock/meld" == g.check("meld 4H 5H 6H").code  # would leave 12
    play(g, "meld 6C 6D 6H", "done")
    assert "layoff" == g.phase


# --------------------------------------------------------------------------- knocking


def test_GR_7_knock_with_ten_or_less_after_the_discard():
    ten = deal("AS 2S 3S 4S 7C 7D 7H 7S 4D 6C", PLAIN, "8C", "KC")
    play(ten, "pass", "pass", "draw")
    assert "knock" in legal(ten)  # discard the KC: 4D 6C = 10
    eleven = deal("AS 2S 3S 4S 7C 7D 7H 7S 5D 6C", PLAIN, "8C", "KC")
    play(eleven, "pass", "pass", "draw")
    assert "knock" not in legal(eleven)  # 5D 6C = 11
    assert eleven.check("knock") is not None


def test_GR_7_knocking_is_never_compulsory():
    g = deal("AS 2S 3S 4S 7C 7D 7H 7S 4D 6C", PLAIN, "8C", "KC")
    play(g, "pass", "pass", "draw")
    g.apply("discard KC")
    assert (1, "draw") == (g.current_player, g.phase)


def test_GR_7_the_knocker_discards_lays_melds_and_ends_with_ten_or_less():
    g = deal("AS 2S 3S 4S 7C 7D 7H 7S 4D 6C", PLAIN, "8C", "KC")
    play(g, "pass", "pass", "draw", "knock")
    assert "knock/discard" == g.check("discard 4D").code  # 6C KC = 16 left
    g.apply("discard KC")
    assert "knock/too-much-deadwood" == g.check("done").code  # nothing laid yet
    play(g, "meld AS 2S 3S 4S", "meld 7C 7D 7H 7S", "done")
    assert ("layoff", 1) == (g.phase, g.current_player)


def test_GR_7_openspiel_the_knocker_may_stop_laying_melds_at_ten_or_less():
    # a gin hand, but the knocker stops with AS 2S 3S 4S (10) unlaid: a knock, not gin
    g = deal("AS 2S 3S 4S 7C 7D 7H KC KD KH", "JC QC 10D JD QD 8H 10H JH QH 9C", "8C", "QS")
    play(g, "pass", "pass", "draw", "knock", "discard QS", "meld 7C 7D 7H", "meld KC KD KH")
    assert {"done", "meld AS 2S 3S", "meld AS 2S 3S 4S"} <= set(legal(g))
    play(g, "done", "done", "done")
    result = g.hand_results[-1]
    assert ("knock", 10) == (result.ended_by, result.final.deadwood[0])


def test_GR_7_openspiel_runs_are_laid_at_most_five_long():
    hand = "AH 2H 3H 4H 5H 6H 8C 8D 8S 2C"
    g = deal(hand, PLAIN, "9C", "KD")
    play(g, "pass", "pass", "draw", "knock", "discard KD")
    assert "meld/not-a-meld" == g.check("meld AH 2H 3H 4H 5H 6H").code
    play(g, "meld AH 2H 3H", "meld 4H 5H 6H", "meld 8C 8D 8S", "done")
    assert "layoff" == g.phase
    book = deal(hand, PLAIN, "9C", "KD", pack=BOOK)
    play(book, "pass", "pass", "draw", "knock", "discard KD")
    assert book.check("meld AH 2H 3H 4H 5H 6H") is None


def test_GR_8_gin_the_defender_may_not_lay_off():
    g = deal("AS 2S 3S 4S 7C 7D 7H KC KD KH", "5S 9C 9D JC JD QC QS 2H 3H 6D", "8C", "QD")
    play(g, "pass", "pass", "draw")
    knock_with(g, "QD", "meld AS 2S 3S 4S", "meld 7C 7D 7H", "meld KC KD KH")
    assert ["done"] == legal(g)  # the 5S would fit m1, but not on a gin hand
    g.apply("done")
    assert "gin" == g.hand_results[-1].ended_by


def test_GR_8_gin_cannot_be_undercut():
    melded = "5H 6H 7H 8H 9C 9D 9H JC JD JH"
    g = deal("AS 2S 3S 4S 7C 7D 7S KC KD KS", melded, "8C", "QD")
    play(g, "pass", "pass", "draw")
    knock_with(g, "QD", "meld AS 2S 3S 4S", "meld 7C 7D 7S", "meld KC KD KS")
    play(g, "meld 5H 6H 7H 8H", "meld 9C 9D 9H", "meld JC JD JH", "done")
    result = g.hand_results[-1]
    assert ("gin", 0, (25, -25)) == (result.ended_by, result.went_out, result.net)


def test_GR_9_openspiel_has_no_big_gin_the_knocker_always_discards():
    g = deal("AS 2S 3S 4S 7C 7D 7H KC KD KH", DEFENDER.replace("4S", "10H"), "8C", "5S")
    play(g, "pass", "pass", "draw", "knock")  # all eleven cards form melds
    assert {"discard"} == {a.type for a in g.legal_actions()}
    knock_with_rest = ("discard 5S", "meld AS 2S 3S 4S", "meld 7C 7D 7H", "meld KC KD KH",
                       "done", "done")
    play(g, *knock_with_rest)
    result = g.hand_results[-1]
    assert "gin" == result.ended_by
    assert ("gin", 25) in result.scores[0].items


def test_GR_9_book_big_gin_melds_all_eleven_cards_for_31():
    g = deal("AS 2S 3S 4S 7C 7D 7H KC KD KH", DEFENDER.replace("4S", "10H"), "8C", "5S",
             pack=BOOK)
    play(g, "pass", "pass", "draw", "knock",
         "meld AS 2S 3S 4S 5S", "meld 7C 7D 7H", "meld KC KD KH", "done", "done")
    result = g.hand_results[-1]
    assert "big_gin" == result.ended_by
    assert ("big_gin", 31) in result.scores[0].items


def test_GR_10_the_defender_lays_off_on_the_knockers_melds():
    g = base_knock()
    assert ("layoff", 1, ["add 4S to m1", "done"]) == (g.phase, g.current_player, legal(g))
    play(g, "add 4S to m1")
    assert ["AS", "2S", "3S", "4S"] == g.view(0)["melds"][0]["cards"]
    play(g, "done", "done")
    assert (67, -67) == g.hand_results[-1].net  # 69 - 4S - the knocker's 2


def test_GR_10_the_defender_then_lays_their_own_melds_and_the_hand_ends():
    g = base_knock(defender="4S 9C 9D 9H JD QC QS 2H 3H 6D")
    play(g, "add 4S to m1", "done")
    assert "meld 9C 9D 9H" in legal(g)
    play(g, "meld 9C 9D 9H", "done")
    # the knocker never lays off on the defender's melds: the hand is over
    assert 1 == len(g.hand_results)
    assert (10 + 10 + 10 + 2 + 3 + 6) - 2 == g.hand_results[-1].net[0]


def test_GR_10_openspiel_at_most_two_cards_laid_off_at_each_end_of_a_run():
    knocker = "5S 6S 7S 7C 7D 7H KC KD KH 2D"
    defender = "2S 3S 4S 8S 9S 10S JC QD 2H 6D"
    melds = ("meld 5S 6S 7S", "meld 7C 7D 7H", "meld KC KD KH")
    g = deal(knocker, defender, "8C", "QH")
    play(g, "pass", "pass", "draw")
    knock_with(g, "QH", *melds)
    play(g, "add 4S to m1", "add 3S to m1", "add 8S to m1", "add 9S to m1")
    assert ["done"] == legal(g)  # 2S and 10S would be a third card at an end
    book = deal(knocker, defender, "8C", "QH", pack=BOOK)
    play(book, "pass", "pass", "draw")
    knock_with(book, "QH", *melds)
    play(book, "add 4S to m1", "add 3S to m1", "add 8S to m1", "add 9S to m1")
    assert {"add 2S to m1", "add 10S to m1"} <= set(legal(book))


def test_GR_10_a_run_grown_by_lay_offs_past_five_cards_saves_and_loads():
    g = deal("AH 2H 3H 4H 5H 8C 8D 8S AC 2C", "6H 7H 9C 9D JC JD QC QS 3D 6D", "9H", "KD")
    play(g, "pass", "pass", "draw")
    knock_with(g, "KD", "meld AH 2H 3H 4H 5H", "meld 8C 8D 8S")
    g.apply("add 6H to m1")  # m1 now holds six cards
    assert g.to_json() == GameState.from_json(g.to_json()).to_json()


# --------------------------------------------------------------------------- scoring


def test_GR_11_the_knocker_scores_the_difference():
    g = base_knock()
    play(g, "add 4S to m1", "done", "done")
    result = g.hand_results[-1]
    assert ("knock", 0) == (result.ended_by, result.went_out)
    assert ((("deadwood", 67),), ()) == (result.scores[0].items, result.scores[1].items)
    assert [67, 0] == g.scores


UNDERCUT_KNOCKER = "AS 2S 3S 7C 7D 7H KC KD KH 10D"  # knocks with the 10D (10)
DEFENDER_MELDS = ("meld 2C 3C 4C", "meld 9C 9D 9H", "meld JC JD JH")


def undercut_game(last_defender_card: str, pack="gin_rummy"):
    g = deal(UNDERCUT_KNOCKER, "2C 3C 4C 9C 9D 9H JC JD JH " + last_defender_card, "8C", "QC",
             pack=pack)
    play(g, "pass", "pass", "draw")
    knock_with(g, "QC", *KNOCKER_MELDS)
    play(g, "done", *DEFENDER_MELDS, "done")
    return g.hand_results[-1]


def test_GR_12_undercut_the_defender_scores_the_difference_and_25():
    result = undercut_game("5D")  # the defender is left with 5 against the knocker's 10
    assert ("undercut", (-30, 30)) == (result.ended_by, result.net)
    assert (("deadwood", 5), ("undercut", 25)) == result.scores[1].items


def test_GR_12_openspiel_equal_deadwood_scores_nothing():
    result = undercut_game("10C")
    assert ("knock", (0, 0)) == (result.ended_by, result.net)
    assert ((), ()) == (result.scores[0].items, result.scores[1].items)


def test_GR_12_book_equal_deadwood_is_an_undercut():
    result = undercut_game("10C", pack=BOOK)
    assert ("undercut", (-25, 25)) == (result.ended_by, result.net)


def test_GR_13_gin_scores_the_defenders_deadwood_and_25():
    g = deal("AS 2S 3S 4S 7C 7D 7H KC KD KH", "AC AD 10C JD QH 4C 5D 8H 9S 6C", "8S", "QD")
    play(g, "pass", "pass", "draw")
    knock_with(g, "QD", "meld AS 2S 3S 4S", "meld 7C 7D 7H", "meld KC KD KH")
    g.apply("done")
    result = g.hand_results[-1]
    assert ("gin", (89, -89)) == (result.ended_by, result.net)
    assert (("deadwood", 64), ("gin", 25)) == result.scores[0].items


# --------------------------------------------------------------------------- hands without a knock


def draw_and_throw_back(g, turns: int, keep_for_last: str | None = None) -> None:
    """``turns`` turns of: draw from the stock and discard the card drawn (the last turn
    discards ``keep_for_last`` instead, when given)."""
    for turn in range(turns):
        p = g.current_player
        before = set(g.view(p)["hand"])
        g.apply("draw")
        (drawn,) = set(g.view(p)["hand"]) - before
        last = turn == turns - 1 and keep_for_last is not None
        g.apply(f"discard {keep_for_last if last else drawn}")


def test_GR_14_openspiel_at_the_wall_the_next_player_may_pass_and_the_hand_is_void():
    g = deal(KNOCKER, DEFENDER, "8C", "QD")
    play(g, "pass", "pass")
    draw_and_throw_back(g, 29)  # 31 cards in the stock, two left
    assert ("wall", 1, 2) == (g.phase, g.current_player, g.view(1)["stock"])
    g.apply("pass")
    result = g.hand_results[-1]
    assert ("wall", None, (0, 0)) == (result.ended_by, result.went_out, result.net)
    assert [0, 0] == g.scores


def test_GR_14_openspiel_at_the_wall_the_next_player_may_knock_with_the_last_discard():
    # seat 1 needs the KH: with it, AS 2S 3S / 7C 7D 7H / KC KD KH and the JH (10) after
    # discarding the QH.  Seat 0 holds the KH and throws it at the wall.
    g = deal("KH 4C 4D 5S 6S 8D 9H 10D JS QC", "AS 2S 3S 7C 7D 7H KC KD QH JH", "2C", "")
    play(g, "pass", "pass")
    draw_and_throw_back(g, 29, keep_for_last="KH")
    assert ("wall", 1) == (g.phase, g.current_player)
    assert "knock" in legal(g)
    g.apply("knock")
    assert "KH" in g.view(1)["hand"]
    play(g, "discard QH", *KNOCKER_MELDS, "done", "done", "done")
    assert ("knock", 1) == (g.hand_results[-1].ended_by, g.hand_results[-1].went_out)


def test_GR_14_book_the_hand_is_void_at_the_wall_at_once():
    g = deal(KNOCKER, DEFENDER, "8C", "QD", pack=BOOK)
    play(g, "pass", "pass")
    draw_and_throw_back(g, 29)
    assert ["wall"] == [r.ended_by for r in g.hand_results]


def test_GR_14_resolved_the_deal_passes_after_a_void_hand():
    g = deal(KNOCKER, DEFENDER, "8C", "QD")
    play(g, "pass", "pass")
    draw_and_throw_back(g, 29)
    g.apply("pass")
    assert (2, 1, "first_upcard") == (g.hand_number, g.current_player, g.phase)


def test_GR_15_openspiel_void_when_both_players_throw_back_the_card_they_took():
    g = deal(KNOCKER, DEFENDER, "8C", "QD")
    play(g, "pass", "pass", "draw", "discard QD", "take", "discard QD")
    assert not g.hand_results  # one throw-back is allowed
    play(g, "take", "discard QD")
    assert ["limit"] == [r.ended_by for r in g.hand_results]
    assert [0, 0] == g.scores


def test_GR_15_openspiel_void_on_the_50th_take_of_the_discard():
    g = deal(KNOCKER, DEFENDER, "8C", "QD")
    play(g, "pass", "pass", "draw", "discard 2D")
    for take in range(1, 51):
        p = g.current_player
        top = g.view(p)["pile"]["cards"][-1]
        g.apply("take")
        if take == 50:
            break
        keep = next(c for c in g.view(p)["hand"] if c != top)  # never throw it back
        g.apply(f"discard {keep}")
        assert not g.hand_results, f"ended after take {take}"
    assert ["limit"] == [r.ended_by for r in g.hand_results]


def test_GR_15_book_takes_are_not_limited():
    g = deal(KNOCKER, DEFENDER, "8C", "QD", pack=BOOK)
    play(g, "pass", "pass", "draw", "discard 2D")
    for _ in range(60):
        p = g.current_player
        top = g.view(p)["pile"]["cards"][-1]
        g.apply("take")
        g.apply(f"discard {next(c for c in g.view(p)['hand'] if c != top)}")
    assert not g.hand_results


# --------------------------------------------------------------------------- the game


def test_GR_16_the_first_to_100_wins_and_game_and_box_bonuses_are_added():
    g = deal(KNOCKER, DEFENDER, "8C", "QD")
    # as if seat 0 had won three earlier hands (90 points) and seat 1 two (40)
    g.scores, g.wins = [90, 40], [3, 2]
    play(g, "pass", "pass", "draw")
    knock_with(g, "QD", *KNOCKER_MELDS)
    play(g, "add 4S to m1", "done", "done")
    assert (True, 0) == (g.is_over, g.winner)
    last = g.hand_results[-1]
    assert (("deadwood", 67), ("box", 100), ("game", 100)) == last.scores[0].items
    assert (("box", 50),) == last.scores[1].items
    assert [90 + 67 + 100 + 100, 40 + 50] == g.scores
    assert [] == g.legal_actions()


SHUTOUT = meldkit.load_pack_text("extends: gin_rummy\nname: gin_shutout\n"
                                 "game: {shutout_multiplier: 2}\n", filename="shutout.yaml")
"""Gin with the shutout (schneider) rule many sources play: a loser who ends the game at 0
doubles the winner's total, bonuses included."""


@pytest.mark.parametrize("before,doubled", [([90, 0], True), ([90, 5], False)])
def test_a_shutout_doubles_the_winners_total_where_the_pack_says_so(before, doubled):
    g = deal(KNOCKER, DEFENDER, "8C", "QD", pack=SHUTOUT)
    g.scores, g.wins = before[:], [3, 0 if doubled else 1]
    play(g, "pass", "pass", "draw")
    knock_with(g, "QD", *KNOCKER_MELDS)
    play(g, "add 4S to m1", "done", "done")
    assert g.is_over and g.winner == 0
    won = 90 + 67 + 100 + 100  # the hand, the box bonus for four hands won, the game bonus
    items = g.hand_results[-1].scores[0].items
    if doubled:
        assert items[-1] == ("shutout", won) and g.scores == [2 * won, 0]
    else:
        assert "shutout" not in dict(items) and g.scores[0] == won
    from meldkit.rulesheet import rules_sheet
    assert ("- A **shutout**: where every other player ends the game at 0, the winner's "
            "total, bonuses included, is doubled.") in rules_sheet(SHUTOUT)


def test_a_shutout_in_a_game_played_from_its_start_saves_and_loads_whole():
    short = meldkit.load_pack_text("extends: gin_rummy\nname: gin_short_shutout\n"
                                   "game: {shutout_multiplier: 2, target: 10}\n",
                                   filename="short.yaml")
    g = deal(KNOCKER, DEFENDER, "8C", "QD", pack=short)
    play(g, "pass", "pass", "draw")
    knock_with(g, "QD", *KNOCKER_MELDS)
    play(g, "add 4S to m1", "done", "done")
    won = 67 + 25 + 100  # the hand, one box, the game bonus
    assert g.is_over and g.scores == [2 * won, 0]
    assert g.hand_results[-1].scores[0].items[-1] == ("shutout", won)
    assert GameState.from_json(g.to_json(), pack=short) == g


@pytest.mark.parametrize("text,expected", [
    ("extends: contract_rummy\ngame: {shutout_multiplier: 2}\n",
     "t.yaml:2:8: game.shutout_multiplier: 2, but the lowest total wins this pack"),
    ("extends: gin_rummy\ngame: {shutout_multiplier: 0}\n",
     "t.yaml:2:8: game.shutout_multiplier: expected at least 1, got 0"),
    ("extends: gin_rummy\ngame: {shutout_multiplier: 101}\n",
     "t.yaml:2:8: game.shutout_multiplier: expected at most 100, got 101"),
    ("extends: classic_canasta\ngame: {shutout_multiplier: 2}\n",
     "t.yaml:2:8: game.shutout_multiplier"),
])
def test_a_shutout_multiplier_is_refused_where_it_could_not_work(text, expected):
    with pytest.raises(meldkit.RulePackError) as e:
        meldkit.load_pack_text(text, filename="t.yaml")
    assert expected in str(e.value)


def test_GR_16_below_100_another_hand_is_dealt():
    g = deal(KNOCKER, DEFENDER, "8C", "QD")
    g.scores = [20, 0]
    play(g, "pass", "pass", "draw")
    knock_with(g, "QD", *KNOCKER_MELDS)
    play(g, "add 4S to m1", "done", "done")
    assert (False, 2, [87, 0]) == (g.is_over, g.hand_number, g.scores)


def test_GR_16_resolved_a_tie_at_100_plays_another_hand():
    g = deal(KNOCKER, DEFENDER, "8C", "QD")
    g.scores = [33, 100]
    play(g, "pass", "pass", "draw")
    knock_with(g, "QD", *KNOCKER_MELDS)
    play(g, "add 4S to m1", "done", "done")
    assert (False, [100, 100]) == (g.is_over, g.scores)


def test_GR_16_the_final_hand_rescores_to_its_recorded_totals():
    g = deal(KNOCKER, DEFENDER, "8C", "QD")
    g.scores, g.wins = [90, 40], [3, 2]
    play(g, "pass", "pass", "draw")
    knock_with(g, "QD", *KNOCKER_MELDS)
    play(g, "add 4S to m1", "done", "done")
    last = g.hand_results[-1]
    assert last.totals == g.rescore(last)


SHUTOUT_SCENARIO = """\
players: 2
scenarios:
  - name: GR-16 a shutout doubles the winner's total, bonuses included
    deal:
      hands:
        0: [AS, 2S, 3S, 7C, 7D, 7H, KC, KD, KH, 2D]
        1: [4S, 9C, 9D, JC, JD, QC, QS, 2H, 3H, 6D]
      upcard: 8C
      stock: [QD]
    steps:
      - moves: [pass, pass, draw, knock, discard QD, meld AS 2S 3S, meld 7C 7D 7H,
                meld KC KD KH, done]
      - moves: [add 4S to m1, done, done]
        expect:
          game_over: true
          hand_score: {0: {deadwood: 67, box: 25, game: 100, shutout: 192}}
          scores: [384, 0]
"""


def test_a_scenario_checks_the_game_end_bonuses_by_name():
    short = meldkit.load_pack_text("extends: gin_rummy\nname: gin_short_shutout\n"
                                   "game: {shutout_multiplier: 2, target: 10}\n",
                                   filename="short.yaml")
    from meldkit.scenarios import run_scenario_text

    (result,) = run_scenario_text(short, SHUTOUT_SCENARIO, "s.yaml")
    assert result.passed, [str(f) for f in result.failures]
