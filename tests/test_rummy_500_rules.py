"""Rummy 500: one scenario test per clause of the rules of record (docs/games/rummy_500.md,
R5-1 … R5-12), from stacked decks and moves in notation.

A stacked deck deals, top first, the first player's hand (seat 0 here), then each next
seat's, the upcard, then the top of the stock; the rest of the stock is shuffled by the
seed. A hand's score is read item by item: ``line.points("laid")`` (the cards a player
melded or laid off) and ``line.points("held")`` (the cards left in the hand, against).
"""

from __future__ import annotations

from collections import Counter

import pytest

import meldkit
from meldkit import SetupError
from meldkit.bots import make_bot
from meldkit.testing import refusal


def deal(*hands: str, upcard: str, stock: str = "", seed: int = 1):
    """A new game of as many players as hands, dealt from a stacked deck."""
    order = [c for hand in hands for c in hand.split()] + [upcard, *stock.split()]
    return meldkit.new_game("rummy_500", players=len(hands), seed=seed,
                            options={"first_player": 0}, deck_order=order)


def play(g, *moves: str) -> None:
    for move in moves:
        g.apply(move)


def legal(g) -> list[str]:
    return sorted(str(a) for a in g.legal_actions())


def lines(result) -> dict:
    """The hand's score lines by seat (every player plays alone)."""
    return {line.team: line for line in result.scores}


def draw_and_throw_back(g, turns: int) -> list[str]:
    """``turns`` turns of: draw from the stock, discard the card drawn. The cards drawn."""
    drawn_cards = []
    for _ in range(turns):
        p = g.current_player
        before = Counter(g.view(p)["hand"])
        g.apply("draw")
        (drawn,) = (Counter(g.view(p)["hand"]) - before).elements()
        drawn_cards.append(drawn)
        g.apply(f"discard {drawn}")
    return drawn_cards


SEAT1 = "6C 10C QC 10S JS QD KD 10H 4D 5D 8D 7S 6H"  # thirteen cards the 2-player tests leave


def going_out_game(scores=None):
    """Three players; seat 0 draws the 8H and melds all eight cards on the first turn."""
    g = deal("4H 5H 6H 7H 9C 9D 9H", "7C 7D 7S AC KC QD 2S", "3C 3D 10S JS 5C 6D JK",
             upcard="KH", stock="8H")
    if scores is not None:
        g.scores = list(scores)
    play(g, "draw", "meld 4H 5H 6H 7H 8H", "meld 9C 9D 9H")
    return g


THREE_TURNS = ("draw", "meld 4H 5H 6H", "meld 9C 9D 9H", "discard AD",
               "draw", "meld JC QC KC", "add 7H to m1", "discard 5C",
               "draw", "discard JD",
               "draw", "add 8H to m1", "discard 5S")


def three_turns_game(scores=None, moves=THREE_TURNS):
    """Three players, four turns. Seat 0 melds two melds; seat 1 melds J-Q-K of clubs and
    lays the 7H off on seat 0's run; seat 2 draws and throws back; seat 0 lays the 8H off
    and goes out by discarding its last card. Seat 1 still holds 2C 2D 2S."""
    g = deal("4H 5H 6H 9C 9D 9H 5S", "2C 2D 2S JC QC 7H 5C", "3C 3D 10S JS 5D 6D JK",
             upcard="KH", stock="AD KC JD 8H")
    if scores is not None:
        g.scores = list(scores)
    play(g, *moves)
    return g


# --------------------------------------------------------------------------- the table


@pytest.mark.parametrize(("players", "cards", "jokers"),
                         [(2, 54, 2), (3, 54, 2), (4, 54, 2), (5, 108, 4), (6, 108, 4),
                          (7, 108, 4), (8, 108, 4)])
def test_R5_1_one_deck_and_two_jokers_to_four_players_two_decks_from_five(players, cards,
                                                                          jokers):
    g = meldkit.new_game("rummy_500", players=players, seed=players)
    assert cards == len(g.kind_of)
    kinds = Counter(g.kind_of)
    assert jokers == kinds[52]  # the joker's kind
    assert {cards // 54} == {kinds[k] for k in range(52)}  # every card once, or twice


def test_R5_1_two_to_eight_players():
    for players in (1, 9):
        with pytest.raises(SetupError):
            meldkit.new_game("rummy_500", players=players, seed=1)


def test_R5_2_number_cards_face_value_pictures_ten_aces_and_jokers_fifteen():
    g = going_out_game()
    line = lines(g.hand_results[-1])
    # seat 1 holds 7C 7D 7S AC KC QD 2S: 7 + 7 + 7 + 15 + 10 + 10 + 2
    assert -58 == line[1].points("held")
    # seat 2 holds 3C 3D 10S JS 5C 6D JK: 3 + 3 + 10 + 10 + 5 + 6 + 15
    assert -52 == line[2].points("held")
    # seat 0 laid 4H … 8H and three nines
    assert 4 + 5 + 6 + 7 + 8 + 27 == line[0].points("laid")


def test_R5_2_an_ace_in_a_low_run_counts_one_high_or_in_hand_fifteen():
    g = deal("AH 2H 3H QS KS AS 2C 3C 4C 9D 9H 9S JH", SEAT1.replace("6H", "AD"),
             upcard="KH", stock="AC")
    play(g, "draw", "meld AH 2H 3H", "meld QS KS AS", "meld 2C 3C 4C", "add AC to m3",
         "meld 9D 9H 9S", "discard JH")
    result = g.hand_results[-1]
    assert ("went_out", 0) == (result.ended_by, result.went_out)
    line = lines(result)
    # A-2-3: 1 + 2 + 3; Q-K-A: 10 + 10 + 15; 2-3-4 with the AC laid off low: 9 + 1; 27
    assert 6 + 35 + 10 + 27 == line[0].points("laid")
    assert 0 == line[0].points("held")
    # seat 1 still holds the AD: it counts 15 against
    assert -(6 + 10 * 7 + 4 + 5 + 8 + 7 + 15) == line[1].points("held")


def test_R5_2_resolved_an_ace_laid_off_below_a_two_counts_one_as_well():
    g = deal("AH 2H 3H QS KS AS 2C 3C 4C 9D 9H 9S JH", SEAT1.replace("6H", "AD"),
             upcard="KH", stock="AC")
    play(g, "draw", "meld 2C 3C 4C")
    assert [9, 0] == g.laid[0]
    g.apply("add AC to m1")
    assert [9 + 15, 1] == g.laid[0]  # laid at 15, one of them a low ace
    play(g, "meld AH 2H 3H", "meld QS KS AS", "meld 9D 9H 9S", "discard JH")
    assert 10 + 6 + 35 + 27 == lines(g.hand_results[-1])[0].points("laid")


def test_R5_2_resolved_a_joker_counts_fifteen_laid_even_where_it_stands_for_a_low_ace():
    g = deal("JK 2H 3H AC AD AS 8S 9S JK 9C 9D 9H 4H", SEAT1, upcard="KH", stock="QH")
    play(g, "draw", "meld JK 2H 3H", "meld 8S 9S JK")
    assert [[15 + 2 + 3 + 15 + 8 + 9, 0], [0, 0]] == g.laid
    g.apply("meld AC AD AS")  # a set of aces: 15 each, none low
    assert [52 + 45, 0] == g.laid[0]


def test_R5_3_thirteen_cards_each_for_two_players_seven_for_three_to_eight():
    for players in range(2, 9):
        g = meldkit.new_game("rummy_500", players=players, seed=7)
        view = g.view(0)
        size = 13 if players == 2 else 7
        assert [size] * players == view["hand_sizes"]
        assert (1, len(g.kind_of) - players * size - 1) == (len(view["pile"]["cards"]),
                                                           view["stock"])


def test_R5_3_a_stacked_deck_deals_seat_by_seat_then_the_upcard():
    hands = ("4H 5H 6H 7H 9C 9D 9H", "7C 7D 7S AC KC QD 2S", "3C 3D 10S JS 5C 6D JK")
    g = deal(*hands, upcard="KH", stock="8H")
    for seat, hand in enumerate(hands):
        assert sorted(hand.split()) == sorted(g.view(seat)["hand"])
    assert ["KH"] == g.view(0)["pile"]["cards"]
    g.apply("draw")
    assert "8H" in g.view(0)["hand"]


def test_R5_3_the_player_left_of_the_dealer_begins_and_play_goes_left():
    g = meldkit.new_game("rummy_500", players=4, seed=2, options={"first_player": 0})
    seen = []
    for _ in range(5):
        seen.append(g.current_player)
        draw_and_throw_back(g, 1)
    assert [0, 1, 2, 3, 0] == seen


def test_R5_3_the_first_dealer_is_chosen_by_lot():
    firsts = {meldkit.new_game("rummy_500", players=4, seed=s).current_player
              for s in range(30)}
    assert {0, 1, 2, 3} == firsts


# --------------------------------------------------------------------------- the turn


def test_R5_4_sets_of_three_or_more_and_runs_of_three_or_more_of_a_suit():
    g = deal("9C 9D 9H 9S 4H 5H 6H 7H 8H KC 2S 3S 4C", SEAT1.replace("6H", "2D"),
             upcard="JD", stock="QH")
    g.apply("draw")
    assert "meld/not-a-meld" == refusal(g, "meld 2S 3S 4C").code  # not of one suit
    assert "meld/not-a-meld" == refusal(g, "meld 7H 8H KC").code  # not consecutive
    assert "meld/not-a-meld" == refusal(g, "meld 9C 9D").code  # two cards are no meld
    play(g, "meld 9C 9D 9H 9S", "meld 4H 5H 6H 7H 8H")  # a set of four, a run of five
    assert [("m1", 0, ["9C", "9D", "9H", "9S"]), ("m2", 0, ["4H", "5H", "6H", "7H", "8H"])] == [
        (m["id"], m["owner"], m["cards"]) for m in g.view(1)["melds"]]


def test_R5_4_melding_is_never_compulsory():
    g = deal("9C 9D 9H 9S 4H 5H 6H 7H 8H KC 2S 3S 4C", SEAT1.replace("6H", "2D"),
             upcard="JD", stock="QH")
    play(g, "draw", "discard QH")
    assert ([], 1, 13) == (g.view(1)["melds"], g.current_player, len(g.view(0)["hand"]))


def test_R5_4_an_ace_stands_high_or_low_but_not_around_the_corner():
    g = deal("AH 2H 3H QS KS AS KC AC 2C 9D 9H 9S JH", SEAT1, upcard="KH", stock="QH")
    g.apply("draw")
    assert {"meld AH 2H 3H", "meld QS KS AS"} <= set(legal(g))
    assert "meld/not-a-meld" == refusal(g, "meld KC AC 2C").code


def test_R5_4_a_joker_stands_for_any_card_of_a_set_or_a_run():
    g = deal("JK 5H 6H 7C 7D AH 2H 3H QS KS AS 4C 9D", SEAT1.replace("6H", "2D"),
             upcard="KH", stock="8C")
    g.apply("draw")
    assert {"meld 5H 6H JK", "meld 7C 7D JK", "meld 2H 3H JK", "meld JK KS AS"} <= set(legal(g))
    g.apply("meld 7C 7D JK")
    assert [["7C", "7D", "JK"]] == [m["cards"] for m in g.view(0)["melds"]]


def test_R5_4_resolved_at_most_two_jokers_in_a_meld():
    # five players: two decks, four jokers
    g = deal("JK JK JK 5H 2S 3S 4S", "4C 5C 6C 8D 9D 10D JH", "4H 6H 8C 9C 10C JD QD",
             "5S 6S 8H 9H 10H JC QS", "QC QH KC KD KH 2C 3C", upcard="AD", stock="7S")
    g.apply("draw")
    assert "meld 5H JK JK" in legal(g)
    assert "meld/not-a-meld" == refusal(g, "meld 5H JK JK JK").code
    assert "meld/not-a-meld" == refusal(g, "meld JK JK JK").code


def test_R5_4_resolved_with_two_decks_a_set_may_hold_twin_cards_and_more_than_four():
    g = deal("7H 7H 7S 7D 7C 2S 3S", "4C 5C 6C 8D 9D 10D JH", "4H 5H 6H 8C 9C 10C JD",
             "4S 5S 6S 8H 9H 10H JC", "QC QD QH KC KD KH 2C", upcard="AD", stock="AS")
    g.apply("draw")
    assert {"meld 7H 7H 7S", "meld 7C 7D 7H 7H 7S"} <= set(legal(g))
    g.apply("meld 7C 7D 7H 7H 7S")
    assert [35, 0] == g.laid[0]


def deep_pile_game():
    """Two players; the pile holds 7H (the upcard), AS, 9C; seat 0 to play."""
    g = deal("7C 7D 4S 9S KC 2D 5C 8H 10D JC 3C 6D QH", SEAT1.replace("7S", "2S"), upcard="7H",
             stock="AS 9C 4C 6S")
    play(g, "draw", "discard AS", "draw", "discard 9C")
    return g


def test_R5_5_take_the_top_card_or_a_deeper_one_with_every_card_above_it():
    g = deep_pile_game()
    assert ["7H", "AS", "9C"] == g.view(0)["pile"]["cards"]
    # the top card; the 7H (a set with 7C 7D); not the AS, which nothing takes at once
    assert ["draw", "take", "take 7H"] == legal(g)
    assert "pile/cannot-take" == refusal(g, "take AS").code
    g.apply("take 7H")
    hand = g.view(0)["hand"]
    assert {"7H", "AS", "9C"} <= set(hand) and 16 == len(hand)
    assert ([], "play") == (g.view(0)["pile"]["cards"], g.phase)


def test_R5_5_the_deepest_card_taken_must_be_melded_at_once():
    g = deep_pile_game()
    g.apply("take 7H")
    assert "pile/must-use" == refusal(g, "discard AS").code
    assert "pile/must-use" == refusal(g, "discard 7H").code
    assert all("7H" in a for a in legal(g))  # every move uses the 7H
    g.apply("meld 7C 7D 7H")
    assert "discard AS" in legal(g)  # the cards above it are the player's own now
    g.apply("discard AS")
    assert (1, "draw") == (g.current_player, g.phase)


def test_R5_5_the_deep_card_may_be_laid_off_at_once_on_anyones_meld():
    g = deal("4H 5H 6H KC 2S 3D 9S", "JS QS 2C 10D 5C 8D AC", "3C 4D 10S 6D 8C 9C JD",
             upcard="7H", stock="QD")
    play(g, "draw", "meld 4H 5H 6H", "discard KC")
    assert ["draw", "take", "take 7H"] == legal(g)  # seat 1 can lay the 7H off on m1
    g.apply("take 7H")
    assert ["add 7H to m1"] == legal(g)
    g.apply("add 7H to m1")
    assert [7, 0] == g.laid[1]  # seat 1's, on seat 0's meld
    assert "discard KC" in legal(g)


def test_R5_5_resolved_a_lone_top_card_need_not_be_melded():
    g = deep_pile_game()
    g.apply("take")  # the 9C, the top card alone
    assert "9C" in g.view(0)["hand"]
    assert g.check("discard QH") is None
    g.apply("discard QH")
    assert (1, "draw") == (g.current_player, g.phase)


def test_R5_6_lay_off_on_another_players_meld_scores_for_the_one_who_lays_it():
    g = three_turns_game(moves=THREE_TURNS[:-1])
    melds = {m["id"]: (m["owner"], m["cards"]) for m in g.view(0)["melds"]}
    assert (0, ["4H", "5H", "6H", "7H", "8H"]) == melds["m1"]  # still seat 0's run
    assert [[4 + 5 + 6 + 27 + 8, 0], [37, 0], [0, 0]] == g.laid
    g.apply("discard 5S")
    line = lines(g.hand_results[-1])
    assert 10 + 10 + 10 + 7 == line[1].points("laid")  # J-Q-K of clubs and the 7H
    assert 4 + 5 + 6 + 27 + 8 == line[0].points("laid")  # not the 7H


def test_R5_6_lay_off_at_either_end_of_a_run_or_on_a_set():
    g = deal("4H 5H 6H 9C 9D 9H 2C 2D 5S 6S KC QC JC", "3H 7H 9S KD 10S QS 10C 8D AS 4C "
             "3S 8C 6D", upcard="JH", stock="JD 7D")
    play(g, "draw", "meld 4H 5H 6H", "meld 9C 9D 9H", "discard JD")
    g.apply("draw")
    assert {"add 3H to m1", "add 7H to m1", "add 9S to m2"} <= set(legal(g))
    play(g, "add 3H to m1", "add 7H to m1", "add 9S to m2")
    assert [3 + 7 + 9, 0] == g.laid[1]


def test_R5_7_going_out_by_melding_every_card_without_a_discard():
    g = going_out_game()
    result = g.hand_results[-1]
    assert ("went_out", 0) == (result.ended_by, result.went_out)
    assert 0 == result.final.deadwood[0]


def test_R5_7_going_out_by_discarding_the_last_card():
    g = three_turns_game(moves=THREE_TURNS[:-1])
    assert (["5S"], ["discard 5S"]) == (g.view(0)["hand"], legal(g))
    g.apply("discard 5S")
    result = g.hand_results[-1]
    assert ("went_out", 0) == (result.ended_by, result.went_out)


def test_R5_7_the_turn_ends_with_a_discard():
    g = deep_pile_game()
    assert (0, "draw") == (g.current_player, g.phase)
    play(g, "draw", "discard QH")
    assert (1, "draw", "QH") == (g.current_player, g.phase, g.view(1)["pile"]["cards"][-1])


def test_R5_7_resolved_the_top_card_taken_may_be_discarded_again():
    g = deep_pile_game()
    g.apply("take")
    assert "discard 9C" in legal(g)
    g.apply("discard 9C")
    assert ["7H", "AS", "9C"] == g.view(1)["pile"]["cards"]


# --------------------------------------------------------------------------- the end of a hand


def test_R5_8_the_hand_ends_when_the_stock_runs_out_and_a_player_will_not_take():
    # two players × 13 cards + the upcard leave 27 cards in the stock
    g = meldkit.new_game("rummy_500", players=2, seed=5, options={"first_player": 0})
    draw_and_throw_back(g, 26)
    assert ([], 1) == (g.hand_results, g.view(0)["stock"])
    draw_and_throw_back(g, 1)
    assert ([], 0, 1) == (g.hand_results, g.view(0)["stock"], g.current_player)
    assert str(g.legal_actions()[0]) == "pass" and g.check("draw").code == "draw/stock-empty"
    g.apply("pass")  # seat 1 takes nothing from the pile: the hand is over
    result = g.hand_results[-1]
    assert ("stock_empty", None) == (result.ended_by, result.went_out)
    assert (2, 1) == (g.hand_number, g.current_player)


def test_R5_8_play_goes_on_while_each_player_takes_from_the_pile():
    g = meldkit.new_game("rummy_500", players=2, seed=5, options={"first_player": 0})
    draw_and_throw_back(g, 27)
    takes = [a for a in g.legal_actions() if a.type == "take"]
    assert takes  # deep takes too (R5-5), each melded at once (R5-6)
    bot = make_bot("greedy", seed=0)
    while g.phase != "draw" or g.current_player == 1:  # seat 1 plays its take through
        g.apply(takes[0] if g.phase == "draw" else bot.choose(g))
    assert ([], 0, "draw") == (g.hand_results, g.current_player, g.phase)
    assert str(g.legal_actions()[0]) == "pass"  # seat 0 may take in turn, or end the hand
    g.apply("pass")
    assert "stock_empty" == g.hand_results[-1].ended_by


def test_R5_8_with_end_at_once_the_next_player_may_not_take_from_the_pile():
    at_once = meldkit.load_pack_text("extends: rummy_500\nname: r500_at_once\n"
                                     "stock: {when_empty: end_at_once}\n", filename="r.yaml")
    g = meldkit.new_game(at_once, players=2, seed=5, options={"first_player": 0})
    draw_and_throw_back(g, 27)
    assert "stock_empty" == g.hand_results[-1].ended_by  # no turn for the next player


def test_R5_9_each_player_scores_what_they_laid_less_what_they_hold():
    result = three_turns_game().hand_results[-1]
    line = lines(result)
    assert (50, 0) == (line[0].points("laid"), line[0].points("held"))  # went out
    assert (37, -6) == (line[1].points("laid"), line[1].points("held"))  # 2C 2D 2S unmelded
    assert (0, -52) == (line[2].points("laid"), line[2].points("held"))
    assert (50, 31, -52) == result.net == tuple(line[s].total for s in range(3))


def test_R5_9_a_hand_ended_by_the_stock_is_scored_the_same_way():
    g = deal("9C 9D 9H 2C 3C 6C 10C QC 10S JS QD KD 10H", "4D 5D 8D 2S 3S 4S 7C JC KC 7D "
             "2H 3H 5S", upcard="KH", stock="AD", seed=4)
    play(g, "draw", "meld 9C 9D 9H", "discard AD")
    draw_and_throw_back(g, 26)
    if not g.hand_results:  # the next player could take from the pile, and does not
        g.apply("pass")
    result = g.hand_results[-1]
    assert "stock_empty" == result.ended_by
    line = lines(result)
    assert (27, -result.final.deadwood[0]) == (line[0].points("laid"), line[0].points("held"))
    assert result.net[0] == 27 - result.final.deadwood[0]
    assert result.net[1] == -result.final.deadwood[1] < 0


# --------------------------------------------------------------------------- the game


def test_R5_10_the_game_ends_once_a_player_reaches_500():
    g = three_turns_game(scores=[450, 0, 0])
    assert (True, 0, [500, 31, -52]) == (g.is_over, g.winner, g.scores)
    assert [] == g.legal_actions()


def test_R5_10_below_500_another_hand_is_dealt():
    g = three_turns_game(scores=[449, 0, 0])
    assert (False, 2, [499, 31, -52]) == (g.is_over, g.hand_number, g.scores)


def test_R5_10_when_two_pass_500_the_higher_total_wins_not_who_went_out():
    g = three_turns_game(scores=[455, 480, 0])
    assert (True, 1, [505, 511, -52]) == (g.is_over, g.winner, g.scores)
    assert 0 == g.hand_results[-1].went_out


def test_R5_10_resolved_equal_leaders_above_500_play_another_hand():
    g = three_turns_game(scores=[474, 493, 0])
    assert (False, None, [524, 524, -52]) == (g.is_over, g.winner, g.scores)
    assert 2 == g.hand_number


def test_R5_11_each_hand_adds_to_the_running_totals_which_may_fall_below_zero():
    g = going_out_game(scores=[10, 20, 30])
    assert [67, -38, -22] == g.scores
    assert not g.is_over


def test_R5_11_the_next_hand_is_dealt_afresh_and_begun_by_the_next_player():
    g = going_out_game()
    assert (2, 1) == (g.hand_number, g.current_player)
    view = g.view(1)
    assert ([7, 7, 7], [], 1) == (view["hand_sizes"], view["melds"], len(view["pile"]["cards"]))
    assert 54 - 22 == view["stock"]


def test_R5_12_resolved_a_hand_still_going_after_500_turns_is_void():
    # taking the top card and discarding it again never runs the stock down
    g = meldkit.new_game("rummy_500", players=2, seed=3, options={"first_player": 0})
    for turn in range(500):
        assert not g.hand_results, turn
        top = g.view(g.current_player)["pile"]["cards"][-1]
        play(g, "take", f"discard {top}")
    result = g.hand_results[-1]
    assert ("turn_limit", None, (0, 0)) == (result.ended_by, result.went_out, result.net)
    assert [0, 0] == g.scores
