"""Buraco: one scenario test per clause of the rules of record (docs/games/buraco.md,
BU-1 … BU-15), from stacked decks and moves in notation.

A stacked deck (:func:`meldkit.testing.stacked_game`) deals the named cards: each seat's
hand from seat 0 (which plays first), then the mortos — ``mortos={side: cards}`` — then
the top of the stock; every card not named is a filler that makes no meld with its hand.
A hand's score is read item by item: ``line.points("laid")`` (the cards the side
melded), ``"held"`` (the cards left in its hands, against it), ``"books"`` (its
canastas), ``"going_out"`` and ``"reserve_untaken"`` (a morto never taken).
"""

from __future__ import annotations

from collections import Counter

import pytest

import meldkit
from meldkit import GameState, SetupError
from meldkit.testing import refusal, stacked_game

VALUES = {"JK": 20, "2": 10, "A": 15, "K": 10, "Q": 10, "J": 10, "10": 10, "9": 10,
          "8": 10, "7": 5, "6": 5, "5": 5, "4": 5, "3": 5}
"""BU-3, as the clause gives them (the tests count hands with it)."""


def value(codes) -> int:
    return sum(VALUES[c if c == "JK" else c[:-1]] for c in codes)


def game(players: int = 4, hands=None, mortos=None, stock=(), seed: int = 1):
    """A new game whose first hand is dealt from a stacked deck; seat 0 plays first."""
    return stacked_game("buraco", players, hands=hands or {}, reserves=mortos or {},
                        stock=list(stock), seed=seed)


def play(g, *moves: str) -> None:
    for move in moves:
        g.apply(move)


def legal(g) -> set[str]:
    return {str(a) for a in g.legal_actions()}


def lines(result) -> dict:
    """The hand's score lines by side."""
    return {line.team: line for line in result.scores}


def hand_of(g, seat: int) -> list[str]:
    return g.view(seat)["hand"]


def books(g, seat: int = 0) -> list:
    return [m["book"] for m in g.view(seat)["melds"]]


def pass_turns(g, turns: int) -> None:
    """``turns`` turns of: draw from the stock, throw the card drawn back."""
    for _ in range(turns):
        p = g.current_player
        before = Counter(hand_of(g, p))
        g.apply("draw")
        (drawn,) = (Counter(hand_of(g, p)) - before).elements()
        g.apply(f"discard {drawn}")


# --------------------------------------------------------------------------- the table


def test_BU_1_four_play_in_two_partnerships_two_alone_and_no_other_count():
    four, two = meldkit.new_game("buraco", players=4), meldkit.new_game("buraco", players=2)
    assert [0, 1, 0, 1] == list(four.team_of)  # partners sit opposite
    assert [0, 1] == list(two.team_of)         # (resolved) two play alone
    for players in (3, 5):
        with pytest.raises(SetupError, match="buraco is played by 2"):
            meldkit.new_game("buraco", players=players)


def test_BU_2_two_packs_and_four_jokers_with_deuces_and_jokers_wild():
    g = game(4, hands={0: ["AH", "2H", "3H", "2C", "9C", "9D", "JK", "KS", "KD"]},
             stock=["5S"])
    kinds = Counter(g.card_code(c) for c in range(len(g.kind_of)))
    assert 108 == sum(kinds.values()) and 4 == kinds["JK"]
    assert {2} == {n for code, n in kinds.items() if code != "JK"}  # every card twice
    g.apply("draw")
    assert {"meld 9C 9D JK", "meld 9C 9D 2C", "meld KD KS JK", "meld KD KS 2H"} <= legal(g)
    assert "meld AH 2H 3H 2C" in legal(g)  # the 2H a natural two: 2C the one wild card


def test_BU_3_card_values_count_melded_for_the_side_and_held_against_it():
    melds = ["JK 5C 5D", "AH KH QH", "7C 7D 2S"]
    held = ["3D", "9H", "8S"]
    g = game(2, hands={0: " ".join(melds).split() + held[:2]}, stock=held[2:])
    play(g, "draw", *(f"meld {m}" for m in melds))
    other = hand_of(g, 1)
    g._end_hand("stock_empty", None)  # end the hand here: each side scores its cards
    line = lines(g.hand_results[0])[0]
    assert 30 + 35 + 20 == line.points("laid")  # joker 20, fives 5, ace 15, deuce 10 …
    assert -value(held) == line.points("held") == -25  # a three 5, a nine and an eight 10
    assert -value(other) == lines(g.hand_results[0])[1].points("held")


def test_BU_4_eleven_each_two_mortos_of_eleven_no_upcard_the_rest_the_stock():
    for players, stock in ((4, 42), (2, 64)):
        g = meldkit.new_game("buraco", players=players, seed=7)
        assert [11] * players == [len(h) for h in g.hands]
        assert [{"holder": 0, "size": 11, "taken": False},
                {"holder": 1, "size": 11, "taken": False}] == g.view(0)["reserves"]
        assert (stock, 0) == (len(g.stock), len(g.pile))
        assert ("draw", ["draw"]) == (g.phase, sorted(legal(g)))  # nothing to take yet
    g = meldkit.new_game("buraco", players=4, seed=7)
    play(g, "draw", f"discard {hand_of(g, g.current_player)[0]}")
    assert g.current_player == (g.hand_first + 1) % 4  # play goes round to the left


# --------------------------------------------------------------------------- the turn


def test_BU_5_the_whole_pile_is_taken_freely_instead_of_drawing():
    g = game(4, hands={0: ["KS"], 1: ["QH"], 2: ["4D"]}, stock=["AS", "8C", "9D", "JC"])
    play(g, "draw", "discard KS", "draw", "discard QH", "draw", "discard 4D")
    assert {"draw", "take"} <= legal(g)
    play(g, "take")  # all three cards, with no condition on them
    assert (14, 0, "play") == (len(hand_of(g, 3)), len(g.pile), g.phase)
    assert {"KS", "QH", "4D"} <= set(hand_of(g, 3))
    assert "discard QH" in legal(g)  # (resolved) a card just taken may go straight back
    play(g, "discard QH")
    assert (0, "draw", ["QH"]) == (g.current_player, g.phase, g.view(0)["pile"]["cards"])


def test_BU_6_sequences_of_a_suit_and_sets_of_a_rank_of_three_or_more():
    g = game(2, hands={0: ["AH", "2H", "3H", "QS", "KS", "AS", "3C", "4C", "5C",
                           "7D", "7D"]}, stock=["7S"])
    g.apply("draw")
    assert {"meld AH 2H 3H", "meld QS KS AS", "meld 3C 4C 5C",   # the ace low or high
            "meld 7D 7D 7S"} <= legal(g)  # (resolved) a set of one rank, twins and all
    for bad in ("meld 3C 4C", "meld 3H 4C 5C", "meld KS AS 2H 3H", "meld 7D 7S 3C"):
        assert "meld/not-a-meld" == refusal(g, bad).code  # short, mixed, round the corner
    assert "discard 7D" in legal(g)  # melding is never compulsory
    play(g, "meld 3C 4C 5C")  # no minimum for the first meld: 15 points
    assert [["3C", "4C", "5C"]] == [m["cards"] for m in g.view(0)["melds"]]


def test_BU_7_one_wild_card_a_meld_a_deuce_in_its_own_place_natural():
    g = game(2, hands={0: ["5H", "6H", "JK", "2C", "AS", "2S", "3S", "2D", "4H", "9H",
                           "10C"]}, stock=["KD", "8H"])
    g.apply("draw")
    assert {"meld 5H 6H JK", "meld 5H 6H 2C", "meld AS 2S 3S 2D"} <= legal(g)
    for bad in ("meld 5H JK 2C", "meld 5H 6H JK 2C", "meld JK 2C 2D"):  # two wild; all wild
        assert "meld/not-a-meld" == refusal(g, bad).code
    # (resolved) a deuce of the suit standing for a card moves home when that card comes
    g = game(2, hands={0: ["2H", "4H", "5H", "6H", "7H", "8H", "9H", "3H"]}, stock=["KS"])
    play(g, "draw", "meld 2H 4H 5H 6H 7H 8H 9H")
    assert ["dirty"] == books(g)  # the 2H stands for a missing card
    play(g, "add 3H to m1")
    assert ["clean"] == books(g)  # 2H 3H 4H … 9H: the deuce in its own place


def test_BU_8_either_partner_adds_to_the_sides_melds_never_the_opponents():
    g = game(4, hands={0: ["5H", "6H", "7H"], 1: ["8H"], 2: ["4H", "9C"]},
             stock=["KD", "QS", "JC"])
    play(g, "draw", "meld 5H 6H 7H", "discard KD", "draw")
    assert "add/not-your-meld" == refusal(g, "add 8H to m1").code  # the opponents' meld
    play(g, "discard QS", "draw")
    assert "add 4H to m1" in legal(g)  # the partner's meld
    play(g, "add 4H to m1")
    assert ["4H", "5H", "6H", "7H"] == sorted(g.view(0)["melds"][0]["cards"])


# --------------------------------------------------------------------------- canastas, morto


def test_BU_9_a_meld_of_seven_is_a_canasta_clean_without_a_wild_card_dirty_with_one():
    g = game(4, hands={0: ["3H", "4H", "5H", "6H", "7H", "8H", "9C", "9C", "9D", "JK",
                           "QS"], 2: ["9H", "9S", "9S", "2C"]}, stock=["9H"])
    play(g, "draw", "meld 3H 4H 5H 6H 7H 8H 9H")
    assert ["clean"] == books(g)  # seven in a suit, no wild card
    play(g, "meld 9C 9C 9D JK", "discard QS")
    assert ["clean", None] == books(g)  # four cards: not a canasta
    pass_turns(g, 1)
    play(g, "draw", "add 9H to m2", "add 9S to m2")
    assert ["clean", None] == books(g)
    play(g, "add 9S to m2")
    assert ["clean", "dirty_set"] == books(g)  # seven of a rank with a joker: dirty
    play(g, "add 2C to m1")  # a canasta keeps growing; a wild card makes a clean one dirty
    assert ["dirty", "dirty_set"] == books(g) and 8 == len(g.view(0)["melds"][0]["cards"])


HAND0 = ["3H", "4H", "5H", "6H", "7H", "8H", "9H", "9C", "9D", "9S", "JK"]
MORTO0 = ["5C", "6C", "7C", "8C", "9C", "10C", "2S", "KC", "KD", "KS", "AS"]


def test_BU_10_the_first_of_a_side_to_play_out_takes_its_morto_at_once_or_next_turn():
    # by melding every card: the morto is the player's hand at once, and play goes on
    g = game(4, hands={0: HAND0}, mortos={0: MORTO0}, stock=["10H"])
    play(g, "draw", "meld 3H 4H 5H 6H 7H 8H 9H 10H", "meld 9C 9D 9S JK")
    assert (0, "play", sorted(MORTO0)) == (g.current_player, g.phase, sorted(hand_of(g, 0)))
    assert [True, False] == [r["taken"] for r in g.view(0)["reserves"]]
    assert "meld KC KD KS" in legal(g)
    # by discarding the last card: the morto is the player's hand for the next turn
    g = game(2, hands={0: HAND0[:10] + ["QD"]}, mortos={0: MORTO0}, stock=["10H", "KH"])
    play(g, "draw", "meld 3H 4H 5H 6H 7H 8H 9H 10H", "meld 9C 9D 9S", "discard QD")
    assert (1, sorted(MORTO0)) == (g.current_player, sorted(hand_of(g, 0)))
    play(g, "draw", "discard KH")
    assert (0, "draw") == (g.current_player, g.phase)
    g.apply("draw")
    assert "meld KC KD KS" in legal(g)
    # the side's morto is taken once: the partner who then plays out goes out
    spades = ["4S", "5S", "6S", "7S", "8S", "9S", "10S", "JS", "QS", "KS", "AS"]
    g = game(4, hands={0: HAND0, 2: spades}, mortos={0: MORTO0}, stock=["10H", "KH", "JC"])
    play(g, "draw", "meld 3H 4H 5H 6H 7H 8H 9H 10H", "meld 9C 9D 9S JK", "discard AS",
         "draw", "discard KH", "draw", f"meld {' '.join(spades)}", "discard JC")
    (hand,) = g.hand_results
    assert ("went_out", 2, (True, False)) == (hand.ended_by, hand.went_out,
                                             hand.final.reserve_taken)


def test_BU_11_a_side_goes_out_only_with_a_clean_canasta_by_melding_or_discarding():
    # the side's only canasta is dirty: a play that would empty the hand is refused
    morto = ["KC", "KD", "KS", "QH", "QS", "QD", "5C", "5D", "5S", "5H", "JK"]
    g = game(2, hands={0: ["3H", "4H", "5H", "6H", "7H", "8H", "2S", "9C", "9D", "9S",
                           "2D"]}, mortos={0: morto}, stock=["9H"])
    play(g, "draw", "meld 3H 4H 5H 6H 7H 8H 2S", "meld 9C 9D 9H 9S 2D")  # the morto
    play(g, "meld KC KD KS", "meld QD QH QS", "add JK to m3")
    assert ["dirty", None, None, None] == books(g)
    assert not {a for a in legal(g) if a.startswith("meld")}  # each would leave 0 or 1
    why = refusal(g, "meld 5C 5D 5H 5S")
    assert "out/required-books" == why.code and "clean book" in why.sentence
    assert "out/required-books" == refusal(g, "meld 5C 5D 5S").code  # one card: no discard
    assert "discard 5C" in legal(g)
    # with a clean canasta, out by melding every card (by discarding: BU-13)
    morto = ["4C", "5C", "6C", "7C", "8C", "9C", "10C", "2S", "AC", "AD", "AS"]
    g = game(2, hands={0: HAND0}, mortos={0: morto}, stock=["10H"])
    play(g, "draw", "meld 3H 4H 5H 6H 7H 8H 9H 10H", "meld 9C 9D 9S JK",
         "meld 4C 5C 6C 7C 8C 9C 10C 2S", "meld AC AD AS")
    (hand,) = g.hand_results
    assert ("went_out", 0) == (hand.ended_by, hand.went_out)


def test_BU_12_the_hand_ends_when_the_stock_is_used_up():
    g = meldkit.new_game("buraco", players=4, seed=3, options={"first_player": 0})
    pass_turns(g, 41)
    assert 1 == len(g.stock) and not g.hand_results
    pass_turns(g, 1)  # the last card drawn: once that turn is over, the hand is over
    (hand,) = g.hand_results
    assert ("stock_empty", None) == (hand.ended_by, hand.went_out)
    assert 2 == g.hand_number and 42 == len(g.stock)


# --------------------------------------------------------------------------- the score


def test_BU_13_each_side_scores_melds_canastas_and_going_out_less_hands_and_a_morto():
    g = game(4, hands={0: HAND0}, mortos={0: MORTO0}, stock=["10H"])
    play(g, "draw", "meld 3H 4H 5H 6H 7H 8H 9H 10H", "meld 9C 9D 9S JK",  # the morto
         "meld 5C 6C 7C 8C 9C 10C 2S", "meld KC KD KS")
    held = {seat: hand_of(g, seat) for seat in (1, 2, 3)}
    play(g, "discard AS")  # the last card: out
    (hand,) = g.hand_results
    assert ("went_out", 0) == (hand.ended_by, hand.went_out)
    ours, theirs = lines(hand)[0], lines(hand)[1]
    assert value(["3H", "4H", "5H", "6H", "7H", "8H", "9H", "10H", "9C", "9D", "9S", "JK",
                  *MORTO0[:-1]]) == ours.points("laid") == 55 + 50 + 55 + 30
    assert 200 + 100 == ours.points("books")  # the clean run, the dirty run of clubs
    assert 100 == ours.points("going_out") and 0 == ours.points("reserve_untaken")
    assert -value(held[2]) == ours.points("held")  # the partner's cards count against
    assert -value(held[1] + held[3]) == theirs.points("held")
    assert -100 == theirs.points("reserve_untaken") and 0 == theirs.points("laid")
    assert (ours.total, theirs.total) == tuple(g.scores)
    assert GameState.from_json(g.to_json(), pack=g.pack) == g


def test_BU_14_the_game_ends_after_a_hand_that_takes_a_side_to_3000():
    g = meldkit.new_game("buraco", players=4, seed=3, options={"first_player": 0})
    pass_turns(g, 42)  # hand 1 ends: the next hand begins one seat to the left
    assert (2, 1) == (g.hand_number, g.current_player)
    first = g.hand_results[0].totals
    g = meldkit.new_game("buraco", players=4, seed=3, options={"first_player": 0})
    g.scores = [3000 - first[0], 2990 - first[1]]
    pass_turns(g, 42)
    assert g.is_over and 0 == g.winner and [3000, 2990] == g.scores
    g = meldkit.new_game("buraco", players=4, seed=3, options={"first_player": 0})
    g.scores = [3100 - first[0], 3100 - first[1]]  # (resolved) level above it: play on
    pass_turns(g, 42)
    assert not g.is_over and 2 == g.hand_number


def test_BU_15_a_hand_still_going_after_500_turns_is_void():
    g = game(2, hands={0: ["KS"]}, stock=["AS"])
    play(g, "draw", "discard KS")
    while not g.hand_results:  # each takes the one-card pile and throws it back
        play(g, "take", f"discard {g.view(g.current_player)['pile']['top'] or 'KS'}")
    (hand,) = g.hand_results
    assert ("turn_limit", (0, 0)) == (hand.ended_by, hand.totals)
    assert 500 == sum(1 for a in g.history if a.startswith("discard"))
