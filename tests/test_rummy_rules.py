"""Rummy: one scenario test per clause of the rules of record (docs/games/rummy.md,
RU-1 … RU-12), from stacked decks and moves in notation.

A stacked deck deals, top first, the first player's hand (seat 0 here), then each next
seat's, the upcard, then the top of the stock; the rest of the stock is shuffled by the
seed.
"""

from __future__ import annotations

import pytest

import meldkit
from meldkit import SetupError


def deal(*hands: str, upcard: str, stock: str = "", seed: int = 1):
    """A new game of as many players as hands, dealt from a stacked deck."""
    order = [c for hand in hands for c in hand.split()] + [upcard, *stock.split()]
    return meldkit.new_game("rummy", players=len(hands), seed=seed,
                            options={"first_player": 0}, deck_order=order)


def play(g, *moves: str) -> None:
    for move in moves:
        g.apply(move)


def legal(g) -> list[str]:
    return sorted(str(a) for a in g.legal_actions())


def draw_and_throw_back(g, turns: int) -> list[str]:
    """``turns`` turns of: draw from the stock, discard the card drawn. The cards drawn."""
    drawn_cards = []
    for _ in range(turns):
        p = g.current_player
        before = set(g.view(p)["hand"])
        g.apply("draw")
        (drawn,) = set(g.view(p)["hand"]) - before
        drawn_cards.append(drawn)
        g.apply(f"discard {drawn}")
    return drawn_cards


SEAT1 = "2C 3C 6C 10C QC 10S JS QS KS 10H"  # ten cards the two-player tests leave alone


def going_out_game(scores=None):
    """Three players; seat 0 draws the 8H and melds all eight cards on the first turn."""
    g = deal("4H 5H 6H 7H 9C 9D 9H", "7C 7D 7S AC KC QD 2S", "3C 3D 10S JS 5C 6D 8D",
             upcard="KH", stock="8H")
    if scores is not None:
        g.scores = list(scores)
    play(g, "draw", "meld 4H 5H 6H 7H 8H", "meld 9C 9D 9H")
    return g


# --------------------------------------------------------------------------- the table


def test_RU_1_two_to_six_players_with_one_deck_and_no_jokers():
    for players in range(2, 7):
        g = meldkit.new_game("rummy", players=players, seed=players)
        assert list(range(52)) == sorted(g.kind_of)  # one of each card, no joker
    for players in (1, 7):
        with pytest.raises(SetupError):
            meldkit.new_game("rummy", players=players, seed=1)


def test_RU_1_resolved_the_ace_is_low_only():
    g = deal("AS 2S 3S QH KH AH 5C 7D 9C JD", SEAT1, upcard="4D", stock="8S")
    g.apply("draw")
    assert "meld AS 2S 3S" in legal(g)
    assert "meld/not-a-meld" == g.check("meld QH KH AH").code


@pytest.mark.parametrize(("players", "size"), [(2, 10), (3, 7), (4, 7), (5, 6), (6, 6)])
def test_RU_2_ten_cards_for_two_seven_for_three_or_four_six_for_five_or_six(players, size):
    g = meldkit.new_game("rummy", players=players, seed=7)
    view = g.view(0)
    assert [size] * players == view["hand_sizes"]
    assert (1, 52 - players * size - 1) == (len(view["pile"]["cards"]), view["stock"])


def test_RU_2_a_stacked_deck_deals_seat_by_seat_then_the_upcard():
    hands = ("4H 5H 6H 7H 9C 9D 9H", "7C 7D 7S AC KC QD 2S", "3C 3D 10S JS 5C 6D 8D")
    g = deal(*hands, upcard="KH", stock="8H")
    for seat, hand in enumerate(hands):
        assert sorted(hand.split()) == sorted(g.view(seat)["hand"])
    assert ["KH"] == g.view(0)["pile"]["cards"]
    g.apply("draw")
    assert "8H" in g.view(0)["hand"]


def test_RU_3_the_player_left_of_the_dealer_begins_and_play_goes_left():
    g = meldkit.new_game("rummy", players=3, seed=2, options={"first_player": 0})
    seen = []
    for _ in range(4):
        seen.append(g.current_player)
        draw_and_throw_back(g, 1)
    assert [0, 1, 2, 0] == seen


def test_RU_3_the_first_dealer_is_chosen_by_lot():
    firsts = {meldkit.new_game("rummy", players=4, seed=s).current_player for s in range(30)}
    assert {0, 1, 2, 3} == firsts


def test_RU_3_the_deal_passes_to_the_left():
    g = going_out_game()
    assert (2, 1) == (g.hand_number, g.current_player)


# --------------------------------------------------------------------------- the turn


def test_RU_4_draw_from_the_stock_or_take_the_top_discard():
    g = deal("AS 2S 3S QH KH AH 5C 7D 9C JD", SEAT1, upcard="4D", stock="8S")
    assert ("draw", ["draw", "take"]) == (g.phase, legal(g))
    assert "pile/cannot-take" == g.check("take 4D").code  # only the top card, no deep take
    g.apply("take")
    assert "4D" in g.view(0)["hand"] and [] == g.view(0)["pile"]["cards"]
    g.apply("discard QH")
    g.apply("draw")
    assert "8S" in g.view(1)["hand"]


def test_RU_5_sets_and_sequences_any_number_of_melds_in_a_turn():
    g = deal("9C 9D 9H 9S 4H 5H 6H 7H 8H KC", SEAT1, upcard="4D", stock="2D")
    g.apply("draw")
    assert "meld/not-a-meld" == g.check("meld 7H 8H KC").code  # neither set nor run
    play(g, "meld 9C 9D 9H 9S", "meld 4H 5H 6H 7H 8H")  # a set of four, a run of five
    assert [("m1", 0, ["9C", "9D", "9H", "9S"]), ("m2", 0, ["4H", "5H", "6H", "7H", "8H"])] == [
        (m["id"], m["owner"], m["cards"]) for m in g.view(1)["melds"]]
    g.apply("discard KC")
    assert (1, "draw") == (g.current_player, g.phase)


def test_RU_5_melding_is_never_compulsory():
    g = deal("9C 9D 9H 9S 4H 5H 6H 7H 8H KC", SEAT1, upcard="4D", stock="2D")
    g.apply("draw")
    g.apply("discard KC")
    assert ([], 1) == (g.view(0)["melds"], g.current_player)


def test_RU_6_lay_off_on_anyones_meld_at_either_end_or_as_a_fourth_card():
    g = deal("4H 5H 6H 9C 9D 9H 2C 2D 5S 6S", "3H 7H 9S KC KD QS 10C 8D AS 4C",
             upcard="JC", stock="JD 7D")
    play(g, "draw", "meld 4H 5H 6H", "meld 9C 9D 9H", "discard JD")
    g.apply("draw")
    assert {"add 3H to m1", "add 7H to m1", "add 9S to m2"} <= set(legal(g))
    play(g, "add 3H to m1", "add 7H to m1", "add 9S to m2")
    melds = {m["id"]: (m["owner"], m["cards"]) for m in g.view(0)["melds"]}
    assert (0, ["3H", "4H", "5H", "6H", "7H"]) == melds["m1"]  # still seat 0's meld
    assert (0, ["9C", "9D", "9H", "9S"]) == melds["m2"]


def test_RU_7_a_discard_ends_the_turn():
    g = deal("AS 2S 3S QH KH AH 5C 7D 9C JD", SEAT1, upcard="4D", stock="8S")
    play(g, "draw", "discard QH")
    assert (1, "draw", "QH") == (g.current_player, g.phase, g.view(1)["pile"]["cards"][-1])


def test_RU_7_a_card_taken_from_the_pile_may_not_be_discarded_in_the_same_turn():
    g = deal("AS 2S 3S QH KH AH 5C 7D 9C JD", SEAT1, upcard="4D", stock="8S")
    g.apply("take")
    assert "discard/taken-card" == g.check("discard 4D").code
    assert "discard 4D" not in legal(g)
    assert g.check("discard QH") is None


def test_RU_7_resolved_unless_it_is_the_only_card_left():
    g = deal("3D 4D 5D 9C 9D 9H JC JD JH 2D", "QS 3S 5C 7S 8C 10D KS 6C AH 4C",
             upcard="KC", stock="KD 7H")
    play(g, "draw", "meld 3D 4D 5D", "meld 9C 9D 9H", "meld JC JD JH", "discard KD")
    play(g, "draw", "discard QS")
    play(g, "take")  # seat 0 holds the 2D and the QS just taken
    assert "discard/taken-card" == g.check("discard QS").code
    play(g, "add 2D to m1")
    assert ["discard QS"] == legal(g)  # the QS is all that is left
    g.apply("discard QS")
    assert ("went_out", 0) == (g.hand_results[-1].ended_by, g.hand_results[-1].went_out)


# --------------------------------------------------------------------------- the end of a hand


def test_RU_8_going_out_by_melding_every_card_without_a_discard():
    g = going_out_game()
    result = g.hand_results[-1]
    assert ("went_out", 0) == (result.ended_by, result.went_out)


def test_RU_8_going_out_by_discarding_the_last_card():
    g = deal("4H 5H 6H 7H 9C 9D 9H JC JD JH", SEAT1, upcard="4D", stock="KH")
    play(g, "draw", "meld 4H 5H 6H 7H", "meld 9C 9D 9H", "meld JC JD JH")
    assert not g.hand_results and ["discard KH"] == legal(g)
    g.apply("discard KH")
    assert ("went_out", 0) == (g.hand_results[-1].ended_by, g.hand_results[-1].went_out)


def test_RU_9_when_the_stock_runs_out_the_pile_is_turned_over_and_play_goes_on():
    # six players × six cards + the upcard leave 15 cards in the stock
    g = meldkit.new_game("rummy", players=6, seed=5, options={"first_player": 0})
    drawn = draw_and_throw_back(g, 15)
    assert not g.hand_results
    assert ([drawn[-1]], 15) == (g.view(0)["pile"]["cards"], g.view(0)["stock"])  # the top stays up
    assert ["draw", "take"] == legal(g)  # the next player may still take the top discard


def test_RU_9_the_turned_pile_is_drawn_from_its_old_bottom():
    # turning the face-up pile over puts its bottom card, the first upcard, on top
    g = meldkit.new_game("rummy", players=6, seed=5, options={"first_player": 0})
    upcard = g.view(0)["pile"]["cards"][0]
    drawn = draw_and_throw_back(g, 15)
    assert [upcard, *drawn[:-2]] == draw_and_throw_back(g, 14)


def test_RU_10_the_winner_collects_the_value_of_the_cards_left_in_the_other_hands():
    result = going_out_game().hand_results[-1]
    # seat 1: 7C 7D 7S (a set, but still in the hand) AC KC QD 2S = 44; seat 2: 45
    assert (89, -44, -45) == result.net
    assert (("cards_in_other_hands", 89),) == result.scores[0].items
    assert (0, 0) == (result.scores[1].total, result.scores[2].total)


# --------------------------------------------------------------------------- the game


def test_RU_11_resolved_the_game_ends_once_a_player_reaches_100():
    g = going_out_game(scores=[20, 50, 0])
    assert (True, 0, [109, 50, 0]) == (g.is_over, g.winner, g.scores)
    assert [] == g.legal_actions()


def test_RU_11_resolved_below_100_another_hand_is_dealt():
    g = going_out_game()
    assert (False, 2, [89, 0, 0]) == (g.is_over, g.hand_number, g.scores)


def test_RU_11_resolved_a_tie_at_the_top_plays_another_hand():
    g = going_out_game(scores=[11, 100, 0])
    assert (False, [100, 100, 0]) == (g.is_over, g.scores)


def test_RU_12_resolved_a_hand_still_going_after_500_turns_is_void():
    g = meldkit.new_game("rummy", players=2, seed=3, options={"first_player": 0})
    draw_and_throw_back(g, 499)
    assert not g.hand_results
    draw_and_throw_back(g, 1)
    result = g.hand_results[-1]
    assert ("turn_limit", None, (0, 0)) == (result.ended_by, result.went_out, result.net)
    assert [0, 0] == g.scores
