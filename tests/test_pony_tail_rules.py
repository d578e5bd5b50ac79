"""Pony Tail, clause by clause: one scenario per rule of record (``shared/rules/pony_tail.md``).

Every test deals a stacked deck (:func:`meldkit.testing.stacked_game`), plays scripted actions
in notation and asserts exact outcomes: reason codes, zone contents, scores.  Tests are named
after the clause they prove (``test_pt_15_…``).

Seats: with four players team 0 is seats 0 and 2, team 1 seats 1 and 3; seat 0 plays first
(so seat 3 dealt).  ``stacked_game`` fills every card a scenario does not name with plain
cards (no wild card, no 3, at most two of a rank per player), so a test asserts exact contents
only of what it names.

Two scenarios are shared by several clauses:

- :func:`four_books_turn` — seat 0 draws and lays down a sevens book and a wild book as the
  team's initial meld (closing them picks up seat 0's Pony Tail); the Pony Tail then holds a
  red book and a black book.  Team 1's cards are all named, so both teams' scores are exact.
- :func:`empty_the_stock` — a hand cannot run 211 stock cards dry in a short script, so the
  stock is moved, in order, under the discard pile.  Cards in the pile never score, so this
  changes no score (moving them into a Pony Tail would change the PT-25 penalty being
  tested); every card stays in exactly one zone (checked).
"""

from __future__ import annotations

from collections import Counter

import pytest

import meldkit
from meldkit import Reason, SetupError, TeamScore
from meldkit._cards import card_code
from meldkit._rules import WILD
from meldkit.testing import stacked_game

PACK = "pony_tail"


# --------------------------------------------------------------------------- helpers
def game(hands=None, reserves=None, upcard="9D", stock=("4S", "5S"), scores=None, players=4):
    """A stacked Pony Tail game, seat 0 to play (its first draw is the top of ``stock``);
    ``scores`` are set before the first action."""
    g = stacked_game(PACK, players, hands=hands, reserves=reserves, upcard=upcard, stock=stock)
    if scores is not None:
        g.scores[:] = scores
    return g


def play(g, *actions):
    for a in actions:
        g.apply(a)


def refusal(g, action):
    """The reason code ``action`` is refused with now (None if legal)."""
    why = g.check(action)
    return None if why is None else why.code


def codes(g, ids):
    """Sorted card codes of card ids."""
    return sorted(card_code(g.kind_of[c]) for c in ids)


def assert_conserved(g):
    """Card conservation: each of the 324 cards is in exactly one zone."""
    every = [c for ids in g.zone_cards().values() for c in ids]
    assert list(range(324)) == sorted(every)


def empty_the_stock(g, leave=0):
    """Move the stock but its top ``leave`` cards, in order, under the discard pile (see the
    module docstring).  Call it only right after an action or on a fresh game (no cached
    legal actions).
    """
    n = len(g.stock) - leave
    g.pile[:0] = g.stock[:n]
    del g.stock[:n]
    assert_conserved(g)


# The four-books scenario.  Seat 0: seven 7s and seven wild cards in hand, draws K K; its
# Pony Tail (FOUR_BOOKS_PONY_TAIL) makes seven Ks (red book) and Q Q Q Q Q 2 JK (black book),
# leaving the 9 to discard; its 3H is laid out and not replaced.  Seat 1's dealt 3D is
# replaced by the 4H at the top of the stock.
SEAT0_HAND = ["7C"] * 6 + ["7D"] + ["2C"] * 4 + ["JK"] * 3 + ["KC"]
FOUR_BOOKS_PONY_TAIL = ["3H"] + ["KC"] * 3 + ["KD"] + ["QC"] * 5 + ["2D", "JK", "9C"]
TEAM1_HANDS = {
    1: ["3D", "3C"] + ["AH"] * 6 + ["KH"] * 6 + ["JK"],  # after the 3D: -100 dead, -235
    3: ["QD"] * 6 + ["QH"] * 6 + ["5D"] * 3,  # -135
}
TEAM1_PONY_TAILS = {
    1: ["3S", "3H"] + ["10D"] * 6 + ["10H"] * 5,  # 100 + 100 + 110 = 310
    3: ["JH"] * 6 + ["JS"] * 6 + ["2H"],  # 140
}


def four_books_turn(pony_tail=FOUR_BOOKS_PONY_TAIL, seat2_hand=("3S", "AS", "AS"),
                    later_stock=(), scores=None):
    """Seat 0's first turn up to its sevens and wild books (Pony Tail picked up)."""
    g = game(
        hands={0: SEAT0_HAND, 2: list(seat2_hand), **TEAM1_HANDS},
        reserves={0: list(pony_tail), 2: ["3C", "JK"], **TEAM1_PONY_TAILS},
        stock=["4H", "KC", "KC", *later_stock],
        scores=scores,
    )
    play(g, "draw", "meld 7 7 7 7 7 7 7", "meld 2 2 2 2 JK JK JK")
    return g


def go_out(g):
    """Seat 0 finishes the four-books scenario: red book, black book, discard the 9."""
    play(g, "meld K K K K K K K", "meld Q Q Q Q Q 2 JK", "discard 9")


# Team 0 when seat 0 goes out: books 5000 + 2500 + 500 + 300; melded cards 35 + 230 + 70 + 120;
# seat 0's 3H; seat 2's black 3.  Seat 2's hand and Pony Tail do not count (PT-25).
TEAM0_WENT_OUT = TeamScore(team=0, books=8300, book_kinds=("sevens", "wild", "red", "black"),
                           melded_cards=455, bonus_cards=100, dead_cards=-100)
TEAM1_NOT_OUT = TeamScore(team=1, bonus_cards=100, dead_cards=-100, hand_cards=-370,
                          reserve_cards=-450)


# --------------------------------------------------------------------------- table
@pytest.mark.parametrize("players", [4, 5, 6])
def test_pt_1_six_decks_with_jokers_324_cards(players):
    g = meldkit.new_game(PACK, players=players, seed=1)
    every = [c for ids in g.zone_cards().values() for c in ids]
    counts = Counter(codes(g, every))
    assert 324 == len(every)
    assert list(range(324)) == sorted(every)
    assert 53 == len(counts)
    assert 12 == counts.pop("JK")
    assert {6} == set(counts.values())


@pytest.mark.parametrize("players, team_of", [
    (4, [0, 1, 0, 1]),
    (5, [0, 1, 0, 1, 0]),  # seats 0, 2, 4 against 1, 3
    (6, [0, 1, 0, 1, 0, 1]),
])
def test_pt_2_two_teams_seated_alternately(players, team_of):
    g = meldkit.new_game(PACK, players=players, seed=2)
    assert team_of == g.team_of
    assert [p for p in range(players) if p % 2 == 0] == g.team_players(0)
    assert [p for p in range(players) if p % 2 == 1] == g.team_players(1)


@pytest.mark.parametrize("players", [3, 7])
def test_pt_2_three_or_seven_players_refused(players):
    with pytest.raises(SetupError) as e:
        meldkit.new_game(PACK, players=players)
    assert f"pony_tail is played by 4 to 6 players, not {players}" == str(e.value)


@pytest.mark.parametrize("players", [4, 5, 6])
def test_pt_3_deal_fifteen_cards_and_a_thirteen_card_pony_tail(players):
    g = game(upcard="9D", players=players)
    assert [15] * players == g.hand_size
    assert [13] * players == [len(r) for r in g.reserves]
    assert ["9D"] == codes(g, g.pile)
    assert not g.pile_frozen
    assert 324 - 28 * players - 1 == len(g.stock)


@pytest.mark.parametrize("first", ["2C", "JK", "3D"])
def test_pt_3_red_three_or_wild_upcard_turns_another_and_freezes(first):
    g = game(upcard=[first, "9C"])
    assert [first, "9C"] == [card_code(g.kind_of[c]) for c in g.pile]
    assert g.pile_frozen
    assert "pile/frozen-needs-pair" == refusal(g, "take 9 2")


def test_pt_3_plain_upcard_is_not_turned_again():
    g = game(upcard="7C", stock=["9C"])
    assert ["7C"] == codes(g, g.pile)
    assert not g.pile_frozen  # PT-15: a 7 freezes the pile when it is discarded
    assert "9C" == card_code(g.kind_of[g.stock[-1]])


def test_pt_4_play_goes_to_the_left():
    g = game(stock=["4H", "5H", "4S", "5S", "6H", "6S", "8H", "8S"])
    assert (3, 0) == (g.dealer, g.current_player)  # the player left of the dealer starts
    seen = []
    for _ in range(4):
        seen.append(g.current_player)
        g.apply("draw")
        g.apply(f"discard {g.hand_codes(g.current_player)[0][:-1]}")
    assert [0, 1, 2, 3] == seen
    assert 0 == g.current_player


def test_pt_4_deal_passes_left_after_a_hand():
    g = game()
    empty_the_stock(g)
    g.apply("end")
    assert (2, 0, 1) == (g.hand_number, g.dealer, g.current_player)
    assert [15] * 4 == g.hand_size


def test_pt_4_first_dealer_drawn_by_lot_seeded():
    dealers = [meldkit.new_game(PACK, players=4, seed=s).dealer for s in range(12)]
    again = [meldkit.new_game(PACK, players=4, seed=s).dealer for s in range(12)]
    assert dealers == again
    assert 1 < len(set(dealers))
    g = meldkit.new_game(PACK, players=4, seed=5)
    assert (g.dealer + 1) % 4 == g.current_player


# --------------------------------------------------------------------------- cards
def test_pt_5_jokers_and_deuces_are_wild_sevens_natural():
    g = game(hands={0: ["9C", "9D", "JK", "8C", "8D", "2C", "7C", "7D", "7H"]})
    play(g, "draw", "meld 9 9 JK", "meld 8 8 2", "meld 7 7 7")
    assert [(8, 2, 1), (7, 2, 1), (6, 3, 0)] == [(m.slot, m.nat, m.wild) for m in g.melds[0]]
    assert g.melded[0]  # 9 9 JK alone is 70


def test_pt_6_threes_never_melded_black_three_blocks_pile():
    g = game(hands={0: ["3C", "3C", "3S"], 1: ["3S", "3S"]})
    g.apply("draw")
    assert Reason("meld/unmeldable-rank", "3s can never be melded") == g.check("meld 3 3 3")
    g.apply("discard 3")
    assert ["3S"] == codes(g, g.pile[-1:])
    assert Reason("pile/blocked", "a 3S on top blocks the pile") == g.check("take 3 3")
    assert ["draw"] == [str(a) for a in g.legal_actions()]


# --------------------------------------------------------------------------- turn
def test_pt_7_turn_is_draw_two_then_meld_then_discard():
    g = game(hands={0: ["AC", "AD", "AH"]}, stock=["KS", "QS"])
    assert "turn/draw-first" == refusal(g, "meld A A A")
    assert "turn/draw-first" == refusal(g, "discard A")
    stock = len(g.stock)
    g.apply("draw")
    assert (17, stock - 2) == (g.hand_size[0], len(g.stock))
    assert {"KS", "QS"} <= set(g.hand_codes(0))
    assert "turn/already-drawn" == refusal(g, "draw")
    play(g, "meld A A A", "discard Q")
    assert (13, "draw", 1) == (g.hand_size[0], g.phase, g.current_player)
    assert ["QS"] == codes(g, g.pile[-1:])


def test_pt_7_last_stock_card_is_drawn_alone():
    g = game(hands={0: ["AC"]}, stock=["KS"])
    empty_the_stock(g, leave=1)
    g.apply("draw")
    assert (16, 0) == (g.hand_size[0], len(g.stock))
    assert "KS" in g.hand_codes(0)


def test_pt_7_empty_stock_no_draw_take_or_end():
    g = game(hands={0: ["9C", "9H"]}, upcard="9S")
    empty_the_stock(g)
    assert "draw/stock-empty" == refusal(g, "draw")
    assert ["end", "take 9 9"] == [str(a) for a in g.legal_actions()]


def test_pt_8_red_three_dealt_is_laid_out_and_replaced():
    # the replacement 3D is a red 3 again: laid out and replaced in turn
    g = game(hands={0: ["3H", "3D"]}, stock=["KH", "3D", "QH", "4S", "5S"])
    assert ["3D", "3D", "3H"] == codes(g, g.bonus[0])
    assert 15 == g.hand_size[0]
    assert {"KH", "QH"} <= set(g.hand_codes(0))
    assert not [c for c in g.hand_codes(0) if c.startswith("3")]
    g.apply("draw")  # seat 0 draws the next two: the replacements came first
    assert {"4S", "5S"} <= set(g.hand_codes(0))


def test_pt_8_red_three_drawn_is_laid_out_and_replaced():
    g = game(stock=["3H", "KH", "QH"])
    stock = len(g.stock)
    g.apply("draw")
    assert ["3H"] == codes(g, g.bonus[0])
    assert (17, stock - 3) == (g.hand_size[0], len(g.stock))
    assert {"KH", "QH"} <= set(g.hand_codes(0))


def test_pt_8_red_three_in_pony_tail_is_laid_out_not_replaced():
    g = game(hands={0: ["KC"] * 6 + ["KD"]}, reserves={0: ["3H", "3D"]})
    g.apply("draw")
    stock = len(g.stock)
    g.apply("meld K K K K K K K")  # the team's first book picks up the Pony Tail (PT-16)
    assert ["3D", "3H"] == codes(g, g.bonus[0])
    assert (15 + 2 - 7 + 11, stock) == (g.hand_size[0], len(g.stock))
    assert not [c for c in g.hand_codes(0) if c.startswith("3")]


def test_pt_8_red_three_in_a_taken_pile_is_laid_out():
    # reading: a pile card is neither dealt nor drawn from the stock, so it is not replaced
    g = game(hands={0: ["9C", "9H", "AC", "AD", "AH"]}, upcard=["3H", "9S"])
    play(g, "take 9 9", "meld A A A")
    assert ["3H"] == codes(g, g.bonus[0])
    assert 15 - 2 - 3 == g.hand_size[0]
    assert [] == g.pile


# --------------------------------------------------------------------------- melds and books
def test_pt_9_meld_shape_three_cards_two_naturals_three_wilds():
    g = game(hands={0: ["9C", "9D", "2C", "2D", "2H", "JK", "7C", "7D", "7H"]})
    g.apply("draw")
    assert "meld/too-small" == refusal(g, "meld 9 9")
    assert "meld/too-few-naturals" == refusal(g, "meld 9 2 2")
    assert "meld/too-many-wilds" == refusal(g, "meld 9 9 2 2 2 JK")
    play(g, "meld 9 9 2 2 2")
    assert "meld/too-many-wilds" == refusal(g, "add JK to 9")
    assert [(8, 2, 3)] == [(m.slot, m.nat, m.wild) for m in g.melds[0]]


def test_pt_9_sevens_take_no_wild_cards():
    g = game(hands={0: ["7C", "7D", "7H", "7S", "2C", "JK", "AC", "AD", "AH"]})
    g.apply("draw")
    assert "meld/no-wilds-allowed" == refusal(g, "meld 7 7 2")
    assert "meld/no-wilds-allowed" == refusal(g, "meld 7 7 7 JK")
    play(g, "meld A A A", "meld 7 7 7")
    assert "meld/no-wilds-allowed" == refusal(g, "add 2 to 7")
    assert "meld/no-wilds-allowed" == refusal(g, "add 7 JK to 7")
    assert None is g.check("add 7 to 7")


def test_pt_10_wild_meld_three_to_seven_wild_cards():
    g = game(hands={0: ["2C", "2D", "2H", "2S", "JK", "JK", "JK", "JK", "2C"]})
    g.apply("draw")
    assert "meld/too-small" == refusal(g, "meld 2 JK")
    assert "meld/too-large" == refusal(g, "meld 2 2 2 2 2 JK JK JK")
    g.apply("meld 2 2 JK")  # 90: the initial meld
    assert [(WILD, 0, 3, False)] == [(m.slot, m.nat, m.wild, m.closed) for m in g.melds[0]]
    g.apply("add 2 2 JK JK to wild")
    assert [(WILD, 7, True)] == [(m.slot, len(m.cards), m.closed) for m in g.melds[0]]
    assert "wild" == g.view(0)["teams"][0]["melds"][0]["book"]


def test_pt_11_book_closes_at_seven_and_takes_no_more():
    g = game(hands={0: ["9C"] * 6 + ["9D", "9H", "2C"]})
    play(g, "draw", "meld 9 9 9 9 9 9")
    assert "meld/too-large" == refusal(g, "add 9 9 to 9")
    g.apply("add 9 to 9")
    assert [(True, 7)] == [(m.closed, len(m.cards)) for m in g.melds[0]]
    assert "add/no-meld" == refusal(g, "add 2 to 9")
    assert "red" == g.view(0)["teams"][0]["melds"][0]["book"]


def test_pt_11_book_kinds_and_values():
    g = four_books_turn()
    go_out(g)
    team0 = g.last_hand.scores[0]
    assert ("sevens", "wild", "red", "black") == team0.book_kinds
    assert 5000 + 2500 + 500 + 300 == team0.books
    kinds = {k.name: k.value for k in g.rules.book_kinds}
    assert {"sevens": 5000, "wild": 2500, "red": 500, "black": 300} == kinds
    # seven 7s are a sevens book only; 1 to 3 wild cards make a black book
    assert ["sevens", "red", "black", "black", "black", "wild"] == [
        g.rules.book_kind(rank, wilds).name
        for rank, wilds in ((6, 0), (8, 0), (8, 1), (8, 2), (8, 3), (WILD, 7))
    ]


def test_pt_12_one_open_meld_per_rank_and_a_new_one_after_a_book():
    g = game(hands={0: ["9C"] * 6 + ["9D", "9H", "9S", "9S"]})
    play(g, "draw", "meld 9 9 9 9")
    assert "meld/open-meld-exists" == refusal(g, "meld 9 9 9")
    g.apply("add 9 9 9 to 9")  # seven: a closed red book
    g.apply("meld 9 9 9")
    assert [(7, True), (3, False)] == [(len(m.cards), m.closed) for m in g.melds[0]]


def test_pt_12_cards_added_only_to_own_teams_melds():
    g = game(hands={0: ["9C", "9D", "9H", "AC", "AD", "AH"], 1: ["9S", "AS"]},
             stock=["4S", "5S", "6S", "8S"])
    play(g, "draw", "meld 9 9 9", "meld A A A", "discard 4", "draw")
    assert "add/no-meld" == refusal(g, "add 9 to 9")
    assert "add/no-meld" == refusal(g, "add A to A")
    assert [] == g.melds[1]


@pytest.mark.parametrize("score, minimum, melds_needed", [
    (-500, 50, 1),
    (0, 50, 1),
    (14_999, 50, 1),
    (15_000, 90, 2),
    (29_999, 90, 2),
    (30_000, 120, 3),
    (49_000, 120, 3),
])
def test_pt_13_initial_meld_minimum_by_team_score(score, minimum, melds_needed):
    g = game(hands={0: ["AC", "AD", "AH", "KC", "KD", "KH", "QC", "QD", "QH"]},
             scores=[score, 0])
    assert minimum == g.rules.minimum_for(score)
    assert (minimum, 50) == (g.initial_minimum(0), g.initial_minimum(1))
    assert minimum == g.view(0)["teams"][0]["minimum"]
    g.apply("draw")
    melded_after = []
    for meld in ("meld A A A", "meld K K K", "meld Q Q Q"):  # 60, 90, 120
        g.apply(meld)
        melded_after.append(g.melded[0])
    assert [i + 1 >= melds_needed for i in range(3)] == melded_after


def test_pt_13_discard_refused_while_below_the_minimum():
    g = game(hands={0: ["AC", "AD", "AH", "KC", "KD", "KH"]}, scores=[15_000, 0])
    play(g, "draw", "meld A A A")
    assert Reason("discard/initial-meld-pending",
                  "your melds total 60 of the 90 needed: meld more, or withdraw them") \
        == g.check("discard K")
    assert [True] == [m.pending for m in g.melds[0]]


def test_pt_13_minimum_counts_every_meld_of_the_turn():
    g = game(hands={0: ["9C", "9D", "9H", "8C", "8D", "8H"]})
    play(g, "draw", "meld 9 9 9")
    assert ([True], False) == ([m.pending for m in g.melds[0]], g.melded[0])
    g.apply("meld 8 8 8")  # 30 + 30
    assert ([False, False], True) == ([m.pending for m in g.melds[0]], g.melded[0])


def test_pt_13_short_initial_meld_goes_back_to_the_hand():
    g = game(hands={0: ["9C", "9D", "9H", "8C", "8D", "8H"]})
    g.apply("draw")
    before = g.hand_codes(0)
    play(g, "meld 9 9 9", "withdraw")
    assert before == g.hand_codes(0)
    assert ([], False, "play") == (g.melds[0], g.melded[0], g.phase)
    assert "meld/after-withdraw" == refusal(g, "meld 8 8 8")
    g.apply("discard 4")
    assert 1 == g.current_player


# --------------------------------------------------------------------------- the pile
def test_pt_14_take_pile_with_natural_pair_or_natural_and_wild():
    g = game(hands={0: ["9C", "9H", "2C", "AC", "AD", "AH"]}, upcard="9S")
    assert "pile/needs-cards" == refusal(g, "take")
    assert "pile/wrong-cards" == refusal(g, "take A A")
    assert "pile/wrong-cards" == refusal(g, "take 2 2")
    assert None is g.check("take 9 9")
    play(g, "take 9 2", "meld A A A")  # 40 + 60
    assert [(8, 2, 1), (0, 3, 0)] == [(m.slot, m.nat, m.wild) for m in g.melds[0]]


def test_pt_14_take_onto_the_teams_open_meld():
    g = game(hands={0: ["9C", "9D", "9H", "AC", "AD", "AH"], 1: ["9S"], 2: ["9H", "9S"]},
             stock=["4S", "5S", "6S", "8S"])
    play(g, "draw", "meld 9 9 9", "meld A A A", "discard 4", "draw", "discard 9")
    pile = codes(g, g.pile[:-1])
    g.apply("take 9 9")
    nines = g.open_melds[0][8]
    assert [(8, 6, False)] == [(m.slot, len(m.cards), m.closed) for m in g.melds[0]
                               if m is nines]
    assert not g.reserve_taken[2]  # no book was closed (PT-16)
    assert 15 - 2 + len(pile) == g.hand_size[2]
    assert ([], False) == (g.pile, g.pile_frozen)


def test_pt_14_initial_take_top_card_counts_toward_minimum():
    # A A from the hand (40) and the A on top (20) make 60: the meld is made at once
    g = game(hands={0: ["AC", "AD"]}, upcard="AS")
    g.apply("take A A")
    assert (True, False) == (g.melded[0], g.pending)
    assert [] == g.pile


def test_pt_14_initial_take_rest_of_pile_does_not_count_and_stays_pending():
    # pile: AS (20) under a 9: 9 9 + 9 = 30; the AS below would make it 50 but does not count
    g = game(hands={0: ["9C"], 1: ["9C", "9H", "KC", "KD", "KH"]}, upcard="AS")
    play(g, "draw", "discard 9")
    g.apply("take 9 9")
    assert (False, True, ["AS"]) == (g.melded[1], g.pending, codes(g, g.pile))
    assert [(8, 3, True)] == [(m.slot, len(m.cards), m.pending) for m in g.melds[1]]
    assert "discard/initial-meld-pending" == refusal(g, "discard K")
    assert 15 - 2 == g.hand_size[1]
    g.apply("meld K K K")  # 30 + 30 = 60: made, and the rest of the pile comes to the hand
    assert (True, False, []) == (g.melded[1], g.pending, g.pile)
    assert 15 - 2 - 3 + 1 == g.hand_size[1]
    assert "AS" in g.hand_codes(1)


def test_pt_14_withdrawn_take_returns_everything_and_the_player_draws():
    g = game(hands={0: ["9C"], 1: ["9C", "9H", "KC", "KD", "KH"]}, upcard="AS",
             stock=["4S", "5S", "6S", "8S"])
    play(g, "draw", "discard 9")
    hand = g.hand_codes(1)
    pile = list(g.pile)
    play(g, "take 9 9", "withdraw")
    assert (hand, pile, [], "draw") == (g.hand_codes(1), g.pile, g.melds[1], g.phase)
    assert "pile/after-withdraw" == refusal(g, "take 9 9")
    assert "turn/draw-first" == refusal(g, "meld K K K")
    g.apply("draw")
    assert "meld/after-withdraw" == refusal(g, "meld K K K")
    assert 17 == g.hand_size[1]


def test_pt_14_black_three_on_top_blocks_the_pile():
    g = game(hands={0: ["3C"], 1: ["3S", "3C", "2C"]})
    play(g, "draw", "discard 3")
    assert "pile/blocked" == refusal(g, "take 3 3")
    assert "pile/blocked" == refusal(g, "take 3 2")
    assert ["draw"] == [str(a) for a in g.legal_actions()]


@pytest.mark.parametrize("card, code", [("7", "7C"), ("2", "2C"), ("JK", "JK")])
def test_pt_15_pile_freezes_on_seven_deuce_or_joker(card, code):
    g = game(hands={0: [code]})
    assert not g.pile_frozen
    play(g, "draw", f"discard {card}")
    assert g.pile_frozen


def test_pt_15_frozen_pile_needs_natural_pair():
    # frozen by a deuce; a 9 discarded on it keeps it frozen until taken
    g = game(hands={0: ["2C"], 1: ["9C"], 2: ["9H", "9S", "2D", "AC", "AD", "AH"]},
             stock=["4S", "5S", "4H", "5H"])
    play(g, "draw", "discard 2", "draw", "discard 9")
    assert g.pile_frozen
    assert "pile/frozen-needs-pair" == refusal(g, "take 9 2")
    play(g, "take 9 9", "meld A A A")
    assert (False, []) == (g.pile_frozen, g.pile)


def test_pt_15_frozen_pile_taken_with_two_deuces_for_a_deuce():
    g = game(hands={0: ["2C"], 1: ["2D", "2H", "JK"]})
    play(g, "draw", "discard 2")
    assert "pile/frozen-needs-pair" == refusal(g, "take 2 JK")
    g.apply("take 2 2")  # 60 reaches the minimum
    assert [(WILD, ["2C", "2D", "2H"])] == [(m.slot, codes(g, m.cards)) for m in g.melds[1]]
    assert (True, False, []) == (g.melded[1], g.pile_frozen, g.pile)


def test_pt_15_joker_and_deuce_do_not_take_a_joker():
    g = game(hands={0: ["JK"], 1: ["JK", "2H", "2D"], 3: ["JK", "JK"]},
             stock=["4S", "5S", "4H", "5H", "6H", "8H"])
    play(g, "draw", "discard JK")
    assert "pile/frozen-needs-pair" == refusal(g, "take 2 JK")
    assert "pile/frozen-needs-pair" == refusal(g, "take 2 2")
    play(g, "draw", "discard 4", "draw", "discard 4")  # still frozen, a 4 on top
    assert "pile/frozen-needs-pair" == refusal(g, "take JK JK")
    g = game(hands={0: ["JK"], 1: ["JK", "JK"]})
    play(g, "draw", "discard JK")
    assert None is g.check("take JK JK")


def test_pt_15_two_sevens_take_a_seven():
    g = game(hands={0: ["7C"], 1: ["7D", "7H", "AC", "AD", "AH"]})
    play(g, "draw", "discard 7")
    assert "pile/frozen-needs-pair" == refusal(g, "take 7 2")
    play(g, "take 7 7", "meld A A A")  # 15 + 60
    assert [(6, 3), (0, 3)] == [(m.slot, len(m.cards)) for m in g.melds[1]]
    assert not g.pile_frozen


# --------------------------------------------------------------------------- the Pony Tail
def test_pt_16_closing_the_teams_first_book_picks_up_the_pony_tail():
    tail = ["AS"] * 6 + ["KS"] * 6 + ["QS"]
    g = game(hands={0: ["9C"] * 6 + ["9D"]}, reserves={0: tail})
    g.apply("draw")
    assert not g.reserve_taken[0]
    g.apply("meld 9 9 9 9 9 9 9")
    assert (True, [], "play") == (g.reserve_taken[0], g.reserves[0], g.phase)
    assert 15 + 2 - 7 + 13 == g.hand_size[0]
    assert Counter(tail) <= Counter(g.hand_codes(0))


def test_pt_16_melding_the_last_cards_into_the_first_book_plays_on_with_the_pony_tail():
    tail = ["JS"] * 6 + ["10S"] * 6 + ["8S"]
    g = game(hands={0: ["KS"] * 5 + ["QS"] * 5 + ["AS"] * 5}, reserves={0: tail},
             stock=["AD", "AH"])
    play(g, "draw", "meld K K K K K", "meld Q Q Q Q Q")
    g.apply("meld A A A A A A A")  # no card left but for the Pony Tail: allowed (PT-20)
    assert (sorted(tail), "play", 0) == (sorted(g.hand_codes(0)), g.phase, g.current_player)


def test_pt_16_only_the_first_book_picks_up_at_once():
    # seat 0 closes the first book; partner seat 2 closes the second and keeps its Pony Tail
    g = game(hands={0: ["9C"] * 6 + ["9D"], 2: ["KC"] * 6 + ["KD"]},
             stock=["4S", "5S", "4H", "5H", "6S", "8S"])
    play(g, "draw", "meld 9 9 9 9 9 9 9", "discard 4", "draw", "discard 4", "draw")
    g.apply("meld K K K K K K K")
    assert [True, True] == [m.closed for m in g.melds[0]]
    assert (False, 13, 10) == (g.reserve_taken[2], len(g.reserves[2]), g.hand_size[2])


def test_pt_17_no_pickup_before_the_team_has_a_book():
    g = game(hands={0: ["9C"] * 6 + ["9D"]})
    assert "reserve/needs-book" == refusal(g, "pickup")
    assert "pickup" not in [str(a) for a in g.legal_actions()]
    play(g, "draw", "meld 9 9 9 9 9 9 9", "discard 4")
    assert "reserve/needs-book" == refusal(g, "pickup")  # the other team's book does not count


def test_pt_17_partner_picks_up_at_the_start_of_a_later_turn():
    g = game(hands={0: ["9C"] * 6 + ["9D"]}, reserves={2: ["3D", "AS", "AS"]},
             stock=["4S", "5S", "4H", "5H", "6S", "8S"])
    play(g, "draw", "meld 9 9 9 9 9 9 9", "discard 4", "draw", "discard 4")
    assert "pickup" in [str(a) for a in g.legal_actions()]
    stock = len(g.stock)
    g.apply("pickup")  # its red 3 is laid out and not replaced (PT-8)
    assert (True, "draw", 15 + 12, ["3D"]) == (
        g.reserve_taken[2], g.phase, g.hand_size[2], codes(g, g.bonus[2]))
    assert stock == len(g.stock)
    assert "reserve/already" == refusal(g, "pickup")
    g.apply("draw")
    assert "turn/already-drawn" == refusal(g, "pickup")


# --------------------------------------------------------------------------- going out
def test_pt_18_going_out_needs_all_four_books():
    tail = ["3H"] + ["KC"] * 3 + ["KD"] + ["QC"] * 5 + ["QS", "QS", "9C"]  # no black book
    g = four_books_turn(pony_tail=tail)
    g.apply("meld K K K K K K K")
    why = g.check("meld Q Q Q Q Q Q Q")
    assert "hand/keep-a-card" == why.code
    assert why.sentence.endswith("your side needs a black book before going out")
    assert None is g.check("meld Q Q Q Q Q Q")  # two cards left: no going out


def test_pt_19_go_out_by_melding_all_but_one_and_discarding_it():
    g = four_books_turn()
    play(g, "meld K K K K K K K", "meld Q Q Q Q Q 2 JK")
    assert ["9C"] == g.hand_codes(0)
    g.apply("discard 9")
    assert ("went_out", 0) == (g.last_hand.ended_by, g.last_hand.went_out)


def test_pt_19_going_out_needs_the_players_pony_tail():
    # seat 0 holds all four books but keeps a card; partner seat 2, Pony Tail not picked up,
    # cannot meld down to one card
    tail = ["8C"] + FOUR_BOOKS_PONY_TAIL[1:]
    g = four_books_turn(pony_tail=tail, seat2_hand=["AS"] * 6 + ["9S"] * 6 + ["8S"] * 3,
                        later_stock=["5H", "6H", "8H", "10C"])
    play(g, "meld K K K K K K K", "meld Q Q Q Q Q 2 JK", "discard 9")
    play(g, "draw", "discard 5", "draw", "meld A A A A A A", "meld 9 9 9 9 9 9")
    assert Reason("hand/keep-a-card", "you would hold one card, and discarding it means "
                  "going out: you must pick up your Pony Tail before going out") \
        == g.check("meld 8 8 8 8")
    assert None is g.check("meld 8 8 8")


def test_pt_20_melding_down_to_no_card_refused():
    # two red 3s in the Pony Tail: seat 0 ends with exactly the seven cards of a black book
    tail = ["3H", "3D"] + ["KC"] * 3 + ["KD"] + ["QC"] * 5 + ["2D", "JK"]
    g = four_books_turn(pony_tail=tail)
    g.apply("meld K K K K K K K")
    assert Reason("hand/keep-a-card", "you must keep a card to discard") \
        == g.check("meld Q Q Q Q Q 2 JK")
    play(g, "meld Q Q Q Q Q", "discard 2")
    assert (["JK"], 1, []) == (g.hand_codes(0), g.current_player, g.hand_results)


def test_pt_20_melding_down_to_one_card_refused_when_the_team_cannot_go_out():
    g = game(hands={0: ["AS"] * 6 + ["KS"] * 6 + ["QS"] * 3}, stock=["QH", "4H"])
    play(g, "draw", "meld A A A A A A", "meld K K K K K K")
    assert "hand/keep-a-card" == refusal(g, "meld Q Q Q Q")
    assert None is g.check("meld Q Q Q")


def test_pt_21_going_out_ends_the_hand_at_once():
    g = four_books_turn()
    go_out(g)
    assert 1 == len(g.hand_results)
    hand = g.last_hand
    assert (1, "went_out", 0, ()) == (hand.hand_number, hand.ended_by, hand.went_out,
                                      hand.final.hands[0])
    assert (2, 0, 1, "draw") == (g.hand_number, g.dealer, g.current_player, g.phase)


def test_pt_22_empty_stock_and_no_take_ends_the_hand():
    g = game(hands={1: ["9H", "9S"]}, upcard="4C", stock=["4S", "9C"])
    g.apply("draw")
    empty_the_stock(g)
    g.apply("discard 9")
    assert None is g.check("end")
    assert ["end", "take 9 9"] == [str(a) for a in g.legal_actions()]
    g.apply("end")
    hand = g.last_hand
    assert ("stock_empty", None, 1) == (hand.ended_by, hand.went_out, hand.hand_number)
    assert 2 == g.hand_number


def test_pt_22_end_refused_while_the_stock_has_cards():
    g = game()
    assert Reason("end/stock-not-empty", "the hand ends only when the stock is empty") \
        == g.check("end")


# --------------------------------------------------------------------------- scoring
def test_pt_23_card_values():
    hand = ["JK", "AC", "2C", "KC", "QC", "JC", "10C", "9C", "8C", "7C", "6C", "5C", "4C",
            "AD", "KD"]  # 50 + 20 + 20 + 6 x 10 + 4 x 5 + 20 + 10 = 200
    g = game(hands={0: hand, 2: [c.replace("C", "H").replace("D", "S") for c in hand]})
    empty_the_stock(g)
    g.apply("end")
    assert -400 == g.last_hand.scores[0].hand_cards


def test_pt_24_25_scores_when_the_stock_runs_out():
    # Both teams count their hands and unpicked Pony Tails (PT-25); black 3s -100 each,
    # red 3s +100 each (PT-24).  Seat 0 melds two red books and Q Q Q 2, then seat 1 ends.
    g = game(
        hands={
            0: ["KC"] * 6 + ["KD"] + ["QC"] * 3 + ["2C", "3C"] + ["4C"] * 3,
            1: ["3C", "3S"] + ["QD"] * 6 + ["KH"] * 6 + ["AH"],
            2: ["3D", "3S"] + ["AC"] * 6 + ["9D"] * 6 + ["10C"],  # 3D replaced by the 6C
            3: ["JH"] * 6 + ["JS"] * 6 + ["4D"] * 3,
        },
        reserves={
            0: ["3H"] + ["JC"] * 6 + ["JD"] + ["8C"] * 5,
            1: ["10D"] * 6 + ["10H"] * 6 + ["3C"],
            2: ["3S", "3D", "JK", "AD", "2D"] + ["7C"] * 4 + ["8D"] * 4,
            3: ["QH"] * 6 + ["QS"] * 6 + ["JK"],
        },
        upcard="9C",
        stock=["6C", "5C", "5D"],
    )
    play(g, "draw", "meld K K K K K K K", "meld J J J J J J J", "meld Q Q Q 2", "discard 8")
    assert ["3C", "4C", "4C", "4C", "5C", "5D", "8C", "8C", "8C", "8C"] == g.hand_codes(0)
    empty_the_stock(g)
    g.apply("end")
    team0, team1 = g.last_hand.scores
    assert TeamScore(team=0, books=1000, book_kinds=("red", "red"), melded_cards=190,
                     bonus_cards=200, dead_cards=-200, hand_cards=-65 - 195,
                     reserve_cards=-350) == team0
    assert TeamScore(team=1, dead_cards=-200, hand_cards=-140 - 135,
                     reserve_cards=-220 - 170) == team1
    assert (580, -865) == g.last_hand.totals == tuple(g.scores)


def test_pt_24_25_scores_when_a_player_goes_out():
    g = four_books_turn()
    go_out(g)
    assert (TEAM0_WENT_OUT, TEAM1_NOT_OUT) == g.last_hand.scores
    assert [8755, -820] == g.scores


def test_pt_26_no_going_out_bonus():
    g = four_books_turn()
    go_out(g)
    team0 = g.last_hand.scores[0]
    assert 0 == team0.going_out
    assert team0.books + team0.melded_cards + team0.bonus_cards + team0.dead_cards \
        == team0.total


@pytest.mark.parametrize("before, over", [(41_245, True), (41_244, False)])
def test_pt_27_game_ends_after_the_hand_reaching_50000(before, over):
    g = four_books_turn(scores=[before, 0])
    go_out(g)
    assert [before + 8755, -820] == g.scores
    assert over == g.is_over
    assert (0 if over else None) == g.winner
    assert (1 if over else 2) == g.hand_number


def _symmetric_hand(scores):
    """Every seat holds cards of the same values (its own suit); seat 0 ends the hand."""
    hands = {p: [f"K{s}"] * 6 + [f"Q{s}"] * 6 + [f"J{s}"] * 3 for p, s in enumerate("CDHS")}
    tails = {p: [f"10{s}"] * 6 + [f"9{s}"] * 6 + [f"8{s}"] for p, s in enumerate("CDHS")}
    g = game(hands=hands, reserves=tails, upcard="4C", scores=scores)
    empty_the_stock(g)
    g.apply("end")
    assert (-560, -560) == g.last_hand.totals
    return g


def test_pt_27_a_tie_plays_another_hand():
    g = _symmetric_hand([50_600, 50_600])
    assert ([50_040, 50_040], False, 2) == (g.scores, g.is_over, g.hand_number)
    g = _symmetric_hand([50_601, 50_600])
    assert ([50_041, 50_040], True, 0) == (g.scores, g.is_over, g.winner)
