"""Pony Canasta, clause by clause: one scenario per clause of the rules of record
(``shared/rules/pony_canasta.md``, PC-1 … PC-22), then random self-play for every table.

Each scenario deals a stacked deck (:func:`meldkit.testing.stacked_game`: seat 0 starts,
every card not named is a plain filler), plays scripted actions in notation and checks
exact outcomes: reason codes of refused actions, zones, and the scores of the hand.

Scripts used by several clauses:

- ``OUT_*``: seat 0 goes out on its first turn — a surprise canasta of seven 9s picks up
  its Pony, which is melded too, and the 5 drawn is discarded (concealed going out).
- ``LEAVER_*``: a seat melds its whole hand and, keeping no card to discard, leaves the
  hand (PC-15).
"""

from __future__ import annotations

import random

import pytest
from clauses import cards, play, rank

import meldkit
from meldkit import SetupError, TeamScore
from meldkit.bots import RandomBot
from meldkit.testing import refusal, stacked_game

PACK = "pony_canasta"

VALUES = {"JK": 50, "A": 20, "2": 20, "K": 10, "Q": 10, "J": 10, "10": 10, "9": 10, "8": 10,
          "7": 5, "6": 5, "5": 5, "4": 5, "3": 5}
"""PC-17, written out here so the tests do not read the pack's own table."""

OUT_HAND = "9C 9C 9D 9D 9H 9H 9S KC KD KH QC QD QH"
OUT_PONY = "JC JD JH 8C 8D 8H 10C 10D 10H AC AD AH"
OUT_DRAW = "KS 5C"
OUT_MELDS = ("meld 9 9 9 9 9 9 9", "meld K K K K", "meld Q Q Q", "meld J J J", "meld 8 8 8",
             "meld 10 10 10")
OUT_TURN = ("draw", *OUT_MELDS, "meld A A A", "discard 5")
OUT_SCORE = TeamScore(team=0, books=500, book_kinds=("natural",), melded_cards=290,
                      going_out=300)
"""Seat 0's side after OUT_TURN: a natural canasta, 9s 70 + Ks 40 + Qs, Js, 8s, 10s 30
each + As 60, and going out concealed (100 + 200)."""

LEAVER_HAND = "KC KD KH QC QD QH JC JD JH 10C 10D 10H AC"
LEAVER_DRAW = "AD AH"
LEAVER_TURN = ("draw", "meld K K K", "meld Q Q Q", "meld J J J", "meld 10 10 10", "meld A A A")
LEAVER_MELDED = 180


# --------------------------------------------------------------------------- helpers


def points(codes) -> int:
    """The PC-17 value of some cards."""
    return sum(VALUES[rank(c)] for c in codes)


def deal(players: int = 2, hands=None, ponies=None, upcard: str = "4C", stock: str = "",
         partners: bool | None = None, pack=None) -> meldkit.GameState:
    """A stacked Pony Canasta game (seat 0 starts); hands and Ponies as code strings."""
    return stacked_game(
        PACK if pack is None else pack, players,
        hands={s: cards(h) for s, h in (hands or {}).items()},
        reserves={s: cards(h) for s, h in (ponies or {}).items()},
        upcard=cards(upcard), stock=cards(stock),
        options=None if partners is None else {"partners": partners},
    )


def refused(g: meldkit.GameState, action: str) -> str:
    """The reason ``action`` is refused with (see :func:`meldkit.testing.refusal`)."""
    return refusal(g, action).code


def melds(g: meldkit.GameState, team: int) -> list[tuple[str, int, str | None]]:
    """A side's melds as (rank, size, canasta kind or None)."""
    return [(m["rank"], len(m["cards"]), m["book"]) for m in g.view(0)["teams"][team]["melds"]]


def bonus(g: meldkit.GameState, seat: int) -> list[str]:
    """The red treys a seat has laid out."""
    return g.view(seat)["players"][seat]["bonus"]


def assert_conserved(g: meldkit.GameState) -> None:
    """Every card of the 108-per-player deck is in exactly one zone."""
    ids = sorted(c for zone in g.zone_cards().values() for c in zone)
    assert list(range(108 * g.n_players)) == ids


def seeded(players: int, seed: int = 0, partners: bool = False) -> meldkit.GameState:
    """A shuffled game; the first player is drawn by high card (PC-4)."""
    return meldkit.new_game(PACK, players=players, seed=seed, options={"partners": partners})


def bot_step(g: meldkit.GameState, bots: list[RandomBot]) -> None:
    """The player to move plays their bot's choice."""
    g.apply(bots[g.current_player].choose(g))


# --------------------------------------------------------------------------- table
@pytest.mark.parametrize("players, total", [(2, 216), (5, 540), (12, 1296), (16, 1728)])
def test_pc_1_two_decks_with_jokers_per_player(players, total):
    g = seeded(players)
    assert total == sum(len(z) for z in g.zone_cards().values())
    assert_conserved(g)


@pytest.mark.parametrize("players", [2, 3])
@pytest.mark.parametrize("code, per_player", [("JK", 4), ("3H", 2), ("QS", 2)])
def test_pc_1_each_player_brings_two_decks_and_their_jokers(players, code, per_player):
    every = [code] * (per_player * players)
    meldkit.new_game(PACK, players=players, deck_order=every)  # the deck holds them all …
    with pytest.raises(SetupError):  # … and not one more
        meldkit.new_game(PACK, players=players, deck_order=every + [code])


@pytest.mark.parametrize("players, teams", [
    (4, [0, 1, 0, 1]),
    (6, [0, 1, 2, 0, 1, 2]),
    (8, [0, 1, 2, 3, 0, 1, 2, 3]),
    (16, [0, 1, 2, 3, 4, 5, 6, 7] * 2),
])
def test_pc_2_partners_sit_alternately_in_teams_of_two(players, teams):
    g = seeded(players, partners=True)
    assert teams == g.team_of
    assert [[t, t + players // 2] for t in range(players // 2)] == [
        g.team_players(t) for t in range(players // 2)]


@pytest.mark.parametrize("players", [2, 3, 4, 5, 7, 12, 16])
def test_pc_2_each_plays_alone_without_partners(players):
    assert list(range(players)) == seeded(players).team_of
    assert list(range(players)) == meldkit.new_game(PACK, players=players).team_of


@pytest.mark.parametrize("players", [2, 3, 5, 7, 9, 15])
def test_pc_2_partners_refused_with_an_odd_count_or_fewer_than_four(players):
    with pytest.raises(SetupError):
        seeded(players, partners=True)


@pytest.mark.parametrize("players", [1, 17])
def test_pc_2_two_to_sixteen_players(players):
    with pytest.raises(SetupError):
        seeded(players)


def test_pc_3_pony_of_12_is_dealt_before_the_hand_of_13():
    ponies = ["7C 7C 7C 7C 7D 7D 7D 7D 7H 7H 7H 7H", "7S 7S 7S 7S 6C 6C 6C 6C 6D 6D 6D 6D"]
    hands = ["AC AC KC KC QC QC JC JC 10C 10C 9C 9C 8C", "AD AD KD KD QD QD JD JD 10D 10D 9D 9D 8D"]
    order = [c for part in ponies + hands for c in cards(part)] + ["5S"]
    g = meldkit.new_game(PACK, players=2, options={"first_player": 0}, deck_order=order)
    for seat in (0, 1):
        assert sorted(cards(hands[seat])) == sorted(g.hand_codes(seat))
        assert 12 == g.view(seat)["players"][seat]["reserve_size"]
    assert {"top": "5S", "size": 1, "frozen": False} == g.view(0)["pile"]
    assert 216 - 2 * 25 - 1 == g.view(0)["stock_size"]


@pytest.mark.parametrize("upcard", ["3H KC", "2C KC", "JK 3D KC"])
def test_pc_3_red_trey_or_wild_upcard_turns_another_and_the_pile_starts_frozen(upcard):
    g = deal(upcard=upcard)
    assert {"top": "KC", "size": len(cards(upcard)), "frozen": True} == g.view(0)["pile"]


def test_pc_3_plain_upcard_starts_an_unfrozen_pile():
    assert {"top": "KC", "size": 1, "frozen": False} == deal(upcard="KC").view(0)["pile"]


def test_pc_4_first_player_by_high_card_is_fixed_by_the_seed():
    firsts = [seeded(4, seed).current_player for seed in range(40)]
    assert firsts == [seeded(4, seed).current_player for seed in range(40)]
    assert {0, 1, 2, 3} == set(firsts)


@pytest.mark.parametrize("seed", [1, 2])
def test_pc_4_next_hand_starts_left_of_the_previous_first_player(seed):
    g = seeded(5, seed)
    first = g.current_player
    bots = [RandomBot(seed=seed + p) for p in range(5)]
    while g.hand_number == 1:
        bot_step(g, bots)
    assert (2, (first + 1) % 5) == (g.hand_number, g.current_player)


# --------------------------------------------------------------------------- cards
def test_pc_5_jokers_and_deuces_are_wild():
    g = deal(hands={0: "9C 9D JK KC KD 2C 5C"}, stock="6S 6H")
    play(g, "draw", "meld 9 9 JK", "meld K K 2")
    assert [("9", 3, None), ("K", 3, None)] == melds(g, 0)
    assert [True, False] == g.melded


def test_pc_5_treys_are_never_melded():
    g = deal(hands={0: "3C 3S 3C 2C KC KD KH QC QD QH"}, stock="6S 6H")
    play(g, "draw", "meld K K K", "meld Q Q Q")
    assert "meld/unmeldable-rank" == refused(g, "meld 3 3 3")
    assert "meld/unmeldable-rank" == refused(g, "meld 3 3 2")


# --------------------------------------------------------------------------- turn
def test_pc_6_a_turn_draws_two_and_discards_one():
    g = deal(hands={0: "KC"}, stock="6S 6H")
    assert "turn/draw-first" == refused(g, "discard K")
    play(g, "draw")
    assert ("play", 15) == (g.phase, len(g.hand_codes(0)))
    assert "turn/already-drawn" == refused(g, "draw")
    play(g, "discard K")
    assert (1, "draw", 14) == (g.current_player, g.phase, len(g.hand_codes(0)))
    # only the top card of the pile is shown
    assert {"top": "KC", "size": 2, "frozen": False} == g.view(1)["pile"]


def test_pc_7_red_treys_dealt_are_laid_out_and_replaced():
    g = deal(hands={0: "3H 3D"}, stock="KS KD")
    assert ["3H", "3D"] == bonus(g, 0)
    hand = g.hand_codes(0)
    assert (13, True, True) == (len(hand), "KS" in hand, "KD" in hand)


def test_pc_7_red_trey_drawn_is_laid_out_and_replaced():
    g = deal(stock="3H 7S 7H")
    play(g, "draw")
    assert ["3H"] == bonus(g, 0)
    assert ["7H", "7S"] == sorted(c for c in g.hand_codes(0) if c[0] == "7")


def test_pc_7_red_trey_in_the_pony_is_laid_out_and_not_replaced():
    g = deal(hands={0: OUT_HAND}, ponies={0: "3H JC JD JH 8C 8D 8H 10C 10D 10H AC AD"},
             stock=OUT_DRAW)
    play(g, "draw", "meld 9 9 9 9 9 9 9")
    assert ["3H"] == bonus(g, 0)
    assert 15 - 7 + 11 == len(g.hand_codes(0))


# --------------------------------------------------------------------------- melds
def test_pc_8_meld_shape():
    g = deal(hands={0: "9C 9D 9H 9S 9C 9D 2C 2D 2H JK KC"}, stock="6S 6H")
    play(g, "draw")
    assert "meld/too-small" == refused(g, "meld 9 9")
    assert "meld/too-few-naturals" == refused(g, "meld 9 2 2")
    assert "meld/too-many-wilds" == refused(g, "meld 9 9 2 2 2 JK")
    play(g, "meld 9 9 2 2 2")  # 2 naturals and 3 wilds, 80 points
    assert "meld/open-meld-exists" == refused(g, "meld 9 9 9")
    assert "meld/too-many-wilds" == refused(g, "add JK to 9")
    assert [("9", 5, None)] == melds(g, 0)


def test_pc_8_canastas_keep_growing_and_keep_their_kind():
    g = deal(hands={0: "9C 9C 9D 9D 9H 9H 9S 9S 9C 2C KC KD KH"}, stock="6S 6H")
    play(g, "draw", "meld 9 9 9 9 9 9 9")
    assert [("9", 7, "natural")] == melds(g, 0)
    play(g, "add 9 9 to 9")
    assert [("9", 9, "natural")] == melds(g, 0)
    play(g, "add 2 to 9")
    assert [("9", 10, "mixed")] == melds(g, 0)


@pytest.mark.parametrize("score, minimum", [
    (-5, 15), (0, 50), (1495, 50), (1500, 90), (2995, 90), (3000, 120), (10_000, 120)])
def test_pc_9_initial_meld_minimum_tiers(score, minimum):
    assert minimum == meldkit.Rules.of(meldkit.load_pack(PACK)).minimum_for(score)


def test_pc_9_initial_meld_waits_until_it_reaches_the_minimum():
    g = deal(hands={0: "KC KD KH QC QD QH 5C"}, stock="6S 6H")
    assert 50 == g.initial_minimum(0)
    play(g, "draw", "meld K K K")  # 30 of 50
    assert (True, [False, False]) == (g.pending, g.melded)
    assert "discard/initial-meld-pending" == refused(g, "discard 5")
    play(g, "meld Q Q Q")  # 60
    assert (False, [True, False]) == (g.pending, g.melded)
    play(g, "discard 5")


def test_pc_9_withdrawn_initial_meld_ends_melding_for_the_turn():
    g = deal(hands={0: "KC KD KH QC QD 5C"}, stock="6S 6H")
    play(g, "draw", "meld K K K", "withdraw")
    assert ["KC", "KD", "KH"] == sorted(c for c in g.hand_codes(0) if c[0] == "K")
    assert "meld/after-withdraw" == refused(g, "meld K K K")
    play(g, "discard 5")
    assert [] == melds(g, 0)


def test_pc_9_a_side_below_zero_needs_15():
    g = deal(hands={1: LEAVER_HAND}, stock="6S 6H " + LEAVER_DRAW)
    play(g, "draw", "discard 6", *LEAVER_TURN)  # seat 0 does not meld, seat 1 leaves
    assert g.scores[0] < 0
    assert 15 == g.initial_minimum(0)


def test_pc_10_surprise_canasta_picks_up_the_pony_at_once():
    g = deal(hands={0: OUT_HAND}, ponies={0: OUT_PONY}, stock=OUT_DRAW)
    play(g, "draw", "meld 9 9 9 9 9 9 9")
    assert [True, False] == g.reserve_taken
    assert [("9", 7, "natural")] == melds(g, 0)
    assert 15 - 7 + 12 == len(g.hand_codes(0))
    play(g, "meld J J J")  # and plays on with the Pony's cards
    assert ("J", 3, None) == melds(g, 0)[-1]


# --------------------------------------------------------------------------- the pile
def first_round(hand0: str, melds0=("meld K K K", "meld Q Q Q"), discard0: str = "5S",
                top: str = "9C") -> meldkit.GameState:
    """Seat 0 (holding K K K Q Q Q, ``discard0`` and ``hand0``) draws, makes ``melds0`` and
    discards ``discard0``; seat 1 draws and discards ``top``.  Seat 0 is to move, the pile
    being 4C, ``discard0``, ``top``."""
    g = deal(hands={0: f"KC KD KH QC QD QH {discard0} {hand0}", 1: top}, stock="6S 6H 8S 8H")
    play(g, "draw", *melds0, f"discard {rank(discard0)}", "draw", f"discard {rank(top)}")
    assert (0, "draw", 3) == (g.current_player, g.phase, len(g.pile))
    return g


def test_pc_11_a_wild_discard_freezes_the_pile_until_it_is_taken():
    g = first_round("9H 9S", discard0="2C")  # seat 1 has discarded a 9 on the deuce
    assert {"top": "9C", "size": 3, "frozen": True} == g.view(0)["pile"]
    play(g, "take 9 9")
    assert (False, 0) == (g.pile_frozen, len(g.pile))


def test_pc_12_pile_refused_before_the_side_has_melded():
    g = first_round("9H 9S", melds0=())
    assert "pile/needs-melded" == refused(g, "take 9 9")


def test_pc_12_frozen_pile_needs_a_natural_pair():
    g = first_round("9H 2D 9S", discard0="JK")
    assert "pile/frozen-needs-pair" == refused(g, "take 9 2")
    assert "pile/frozen-needs-pair" == refused(g, "take")
    hand = len(g.hand_codes(0))
    play(g, "take 9 9")
    assert ("9", 3, None) == melds(g, 0)[-1]
    assert hand - 2 + 2 == len(g.hand_codes(0))  # the rest of the pile: 4C and the joker


def test_pc_12_unfrozen_pile_taken_with_a_natural_and_a_wild():
    g = first_round("9H 2D")
    hand = len(g.hand_codes(0))
    play(g, "take 9 2")
    assert ("play", ("9", 3, None), 0) == (g.phase, melds(g, 0)[-1], len(g.pile))
    assert hand - 2 + 2 == len(g.hand_codes(0))
    assert {"4C", "5S"} <= set(g.hand_codes(0))


def test_pc_12_unfrozen_pile_taken_by_laying_the_top_card_on_the_sides_meld():
    g = first_round("", top="KS")
    play(g, "take")
    assert [("K", 4, None), ("Q", 3, None)] == melds(g, 0)
    assert {"4C", "5S"} <= set(g.hand_codes(0))


def test_pc_12_top_card_alone_needs_a_meld_of_its_rank():
    assert "pile/no-meld" == refused(first_round(""), "take")


def test_pc_12_top_card_alone_refused_when_the_pile_is_frozen():
    g = first_round("", discard0="2C", top="KS")
    assert "pile/frozen-needs-pair" == refused(g, "take")


def test_pc_12_a_trey_on_top_cannot_be_taken():
    g = first_round("3S 3S", top="3C")
    assert "pile/blocked" == refused(g, "take 3 3")
    assert "pile/blocked" == refused(g, "take")


# --------------------------------------------------------------------------- the Pony
def test_pc_13_canasta_completed_on_the_table_picks_up_the_completers_pony():
    g = deal(4, partners=True, hands={0: "9C 9D 9H 9S 9C 5S", 2: "9D 9H"},
             stock="6S 6H 8S 8H")
    play(g, "draw", "meld 9 9 9 9 9", "discard 5", "draw", "discard 8")
    play(g, "draw", "add 9 9 to 9")  # seat 2 completes the canasta seat 0 began
    assert [("9", 7, "natural")] == melds(g, 0)
    assert [False, False, True, False] == g.reserve_taken


def test_pc_13_each_player_picks_up_with_their_own_first_canasta():
    g = deal(4, partners=True, hands={0: "9C 9C 9D 9D 9H 9H 9S KC KD KH KS 5S", 2: "KC KD KH"},
             stock="6S 6H 8S 8H")
    play(g, "draw", "meld 9 9 9 9 9 9 9", "meld K K K K", "discard 5", "draw", "discard 8")
    assert [True, False, False, False] == g.reserve_taken
    play(g, "draw", "add K K K to K")  # the side's second canasta, seat 2's first
    assert [True, False, True, False] == g.reserve_taken


def test_pc_13_taking_the_pile_without_completing_a_canasta_keeps_the_pony():
    g = first_round("9H 9S")
    play(g, "take 9 9")
    assert [False, False] == g.reserve_taken


def test_pc_13_taking_the_pile_onto_a_six_card_meld_completes_a_canasta():
    g = first_round("KS KC KD", melds0=("meld K K K K K K", "meld Q Q Q"), top="KH")
    play(g, "take")
    assert [("K", 7, "natural"), ("Q", 3, None)] == melds(g, 0)
    assert [True, False] == g.reserve_taken


# --------------------------------------------------------------------------- going out
def test_pc_14_going_out_needs_a_canasta():
    g = deal(hands={0: "KC KD KH KS QC QD QH QS JC JD JH 9C 9D"}, stock="9H 5C")
    play(g, "draw", "meld K K K K", "meld Q Q Q Q", "meld J J J")
    assert "hand/keep-a-card" == refused(g, "meld 9 9 9")  # 5 left: discarding it is going out
    play(g, "discard 5")


def test_pc_14_discarding_the_last_card_goes_out_and_ends_the_hand():
    g = deal(hands={0: OUT_HAND}, ponies={0: OUT_PONY}, stock=OUT_DRAW)
    play(g, *OUT_TURN)
    assert ("went_out", 0, 2) == (g.last_hand.ended_by, g.last_hand.went_out, g.hand_number)


def test_pc_15_a_player_with_no_card_to_discard_sits_out_the_hand():
    g = deal(3, hands={1: LEAVER_HAND, 2: "KS KS KS QS QS QS JS JS JS 10S 10S 10S AS"},
             stock="6S 6H " + LEAVER_DRAW + " AS 5D 8S 8H AS AS")
    play(g, "draw", "discard 6", *LEAVER_TURN)
    assert ([False, True, False], 2) == (g.out, g.current_player)
    play(g, "draw", "discard 5", "draw", "discard 8")
    assert 2 == g.current_player  # seat 1 takes no further turn
    play(g, "draw", "meld K K K", "meld Q Q Q", "meld J J J", "meld 10 10 10", "meld A A A A")
    hand = g.last_hand  # seat 2 leaves too: only seat 0's side is left
    assert ("one_side_left", None) == (hand.ended_by, hand.went_out)
    assert [0, LEAVER_MELDED, LEAVER_MELDED + 20] == [s.melded_cards for s in hand.scores]
    assert [0, 0, 0] == [s.going_out for s in hand.scores]


def test_pc_15_the_hand_ends_when_only_one_partnership_has_players():
    g = deal(4, partners=True, hands={1: LEAVER_HAND, 3: "9S 9S 9S 8S 8S 8S 7S 7S 7S 6S 6S 6S 5S"},
             stock="6S 6H " + LEAVER_DRAW + " 8S 8H 5S 5S")
    play(g, "draw", "discard 6", *LEAVER_TURN)
    assert ([False, True, False, False], 2) == (g.out, g.current_player)
    play(g, "draw", "discard 8")
    assert 3 == g.current_player  # the partnership still has a player
    play(g, "draw", "meld 9 9 9", "meld 8 8 8", "meld 7 7 7", "meld 6 6 6", "meld 5 5 5")
    assert ("one_side_left", 2) == (g.last_hand.ended_by, g.hand_number)
    # seat 1's melds and seat 3's 9s, 8s 30 each, 7s, 6s, 5s 15 each
    assert LEAVER_MELDED + 105 == g.last_hand.scores[1].melded_cards


def test_pc_15_melding_every_card_even_with_a_canasta_leaves_the_hand_without_going_out():
    g = deal(hands={0: OUT_HAND}, ponies={0: OUT_PONY}, stock="KS AS")
    play(g, "draw", *OUT_MELDS, "meld A A A A")
    hand = g.last_hand
    assert ("one_side_left", None, 0) == (hand.ended_by, hand.went_out, hand.scores[0].going_out)


def test_pc_16_an_empty_stock_ends_the_hand():
    g = deal()
    assert "end/stock-not-empty" == refused(g, "end")
    while g.view(0)["stock_size"]:
        play(g, "draw", f"discard {rank(g.hand_codes(g.current_player)[-1])}")
    assert "draw/stock-empty" == refused(g, "draw")
    left = [g.hand_codes(0), g.hand_codes(1)]
    play(g, "end")
    hand = g.last_hand
    assert ("stock_empty", None) == (hand.ended_by, hand.went_out)
    assert [-points(left[0]), -points(left[1])] == [s.hand_cards for s in hand.scores]
    assert [0, 0] == [s.going_out for s in hand.scores]
    assert_conserved(g)


# --------------------------------------------------------------------------- scoring
@pytest.mark.parametrize("card, value", [
    ("JK", 50), ("AS", 20), ("2S", 20), ("KS", 10), ("8S", 10), ("7S", 5), ("4S", 5), ("3S", 5)])
def test_pc_17_card_values(card, value):
    rest = "4C 4C 4D 4D 5C 5C 5D 5D 6C 6C 6D 6D"  # 60
    g = deal(hands={0: OUT_HAND, 1: f"{rest} {card}"}, ponies={0: OUT_PONY}, stock=OUT_DRAW)
    play(g, *OUT_TURN)
    assert -(60 + value) == g.last_hand.scores[1].hand_cards


def test_pc_18_natural_canasta_500_mixed_300_plus_card_values():
    g = deal(hands={0: "9C 9C 9D 9D 9H 9H 9S 9S KC KD KH KS 2C"},
             ponies={0: "QC QD QH JC JD JH 10C 10D 10H AC AD AH"}, stock="KC KD")
    play(g, "draw", "meld 9 9 9 9 9 9 9", "add 9 to 9", "meld K K K K K K 2",
         "meld Q Q Q", "meld J J J", "meld 10 10 10", "meld A A A")
    # 9s 80 + Ks 60 + 2 20 + Qs, Js, 10s 30 each + As 60
    assert TeamScore(team=0, books=800, book_kinds=("natural", "mixed"),
                     melded_cards=310) == g.last_hand.scores[0]


def red_trey_hand(treys: str, melds0: bool) -> meldkit.HandResult:
    """Seat 0 is dealt ``treys`` (replaced from the stock), melds K K K Q Q Q or not, and
    discards; seat 1 leaves the hand, ending it."""
    n = len(cards(treys))
    replacements = " ".join(cards("4S 4H 5S 5H 6S")[:n])
    g = deal(hands={0: f"{treys} KC KD KH QC QD QH 5C", 1: LEAVER_HAND},
             stock=f"{replacements} 6H 8S {LEAVER_DRAW}")
    assert cards(treys) == bonus(g, 0)
    play(g, "draw", *(("meld K K K", "meld Q Q Q") if melds0 else ()), "discard 5", *LEAVER_TURN)
    return g.last_hand


@pytest.mark.parametrize("treys, expected", [("3H", 100), ("3H 3D 3H", 300)])
def test_pc_19_fewer_than_four_red_treys_score_100_each(treys, expected):
    assert expected == red_trey_hand(treys, melds0=True).scores[0].bonus_cards


def test_pc_19_four_red_treys_score_1000():
    assert 1000 == red_trey_hand("3H 3H 3D 3D", melds0=True).scores[0].bonus_cards


def test_pc_19_five_red_treys_score_1100():
    assert 1100 == red_trey_hand("3H 3H 3D 3D 3D", melds0=True).scores[0].bonus_cards


@pytest.mark.parametrize("treys, expected", [("3H", -100), ("3H 3D 3H 3D", -1000)])
def test_pc_19_red_treys_count_against_a_side_that_has_not_melded(treys, expected):
    assert expected == red_trey_hand(treys, melds0=False).scores[0].bonus_cards


def test_pc_19_red_trey_sets_are_counted_per_player():
    hand0 = "9C 9C 9D 9D 9H 9H 9S KC KD 3H QC QD 3H"  # OUT_HAND; KH and QH replace the treys
    g = deal(4, partners=True, hands={0: hand0, 2: "3D 3D"}, ponies={0: OUT_PONY},
             stock="KH QH 4S 4H " + OUT_DRAW)
    assert (["3H", "3H"], ["3D", "3D"]) == (bonus(g, 0), bonus(g, 2))
    play(g, *OUT_TURN)
    assert 400 == g.last_hand.scores[0].bonus_cards  # two pairs, not a set of four


def test_pc_20_going_out_concealed_scores_100_and_200():
    g = deal(hands={0: OUT_HAND}, ponies={0: OUT_PONY}, stock=OUT_DRAW)
    play(g, *OUT_TURN)
    assert OUT_SCORE == g.last_hand.scores[0]


def test_pc_20_going_out_after_melding_on_an_earlier_turn_scores_100():
    g = deal(hands={0: OUT_HAND, 1: "6S"}, ponies={0: OUT_PONY},
             stock=OUT_DRAW + " 6H 8S AS 4S")
    play(g, "draw", *OUT_MELDS, "discard 5", "draw", "discard 6")
    assert 3 == len(g.hand_codes(0))  # A A A kept
    play(g, "draw", "meld A A A A", "discard 4")
    # 9s 70 + Ks 40 + Qs, Js, 8s, 10s 30 each + four As 80
    assert TeamScore(team=0, books=500, book_kinds=("natural",), melded_cards=310,
                     going_out=100) == g.last_hand.scores[0]


def test_pc_20_concealed_going_out_is_judged_per_player_not_per_side():
    # seat 2 (seat 0's partner) melds first; seat 0 had not melded before its going-out turn
    g = deal(4, partners=True, hands={0: OUT_HAND, 2: "7S 7H JK"}, ponies={0: OUT_PONY},
             stock="KS 6S  4D 4S  7C 6D  4H 4C  AS 5C")
    play(g, "draw", "discard 6",  # seat 0: no meld
         "draw", "discard 4",
         "draw", "meld 7 7 JK", "discard 6",  # seat 2 melds for the side (60)
         "draw", "discard 4")
    assert (True, 0) == (g.melded[0], g.current_player)
    play(g, "draw", *OUT_MELDS, "meld A A A A", "discard 5")
    assert ("went_out", 0) == (g.last_hand.ended_by, g.last_hand.went_out)
    assert 300 == g.last_hand.scores[0].going_out  # 100 + 200: seat 0 went out concealed


@pytest.mark.parametrize("own_book,bonus", [(True, 100), (False, 300)])
def test_pc_20_classic_concealed_going_out_needs_a_canasta_of_the_players_own(own_book, bonus):
    """PC-20 (resolved: classic concealed going out) is ``scoring.concealed_needs_book``:
    seat 0, who had not melded, goes out on its partner's canasta without one of its own,
    and scores 100, not 300; with the key false it would score 300 (a clause audit, stop
    47: no test pinned the key)."""
    pack = meldkit.load_pack("pony_canasta") if own_book else meldkit.load_pack_text(
        "meldkit: 1\nextends: pony_canasta\nscoring: {concealed_needs_book: false}\n")
    g = deal(4, partners=True, pack=pack,
             hands={0: "KC KD KH QC QD QH JC JD JH 8C 8D 8H AC",
                    2: "9C 9C 9D 9D 9H 9H 9S"},
             stock="AS 5C  4D 4S  6S 6H  4H 10C  AD 4C")
    play(g, "draw", "discard 5", "draw", "discard 4",
         "draw", "meld 9 9 9 9 9 9 9", "discard 6",  # the partner's canasta
         "draw", "discard 4")
    play(g, "draw", "meld K K K", "meld Q Q Q", "meld J J J", "meld 8 8 8", "meld A A A",
         "discard 4")
    assert ("went_out", 0) == (g.last_hand.ended_by, g.last_hand.went_out)
    assert bonus == g.last_hand.scores[0].going_out


def test_pc_20_a_player_who_melded_before_goes_out_unconcealed_even_if_the_partner_did_not():
    g = deal(4, partners=True, hands={0: OUT_HAND}, ponies={0: OUT_PONY},
             stock="KS 6S  4D 4S  4H 4C  6H 6C  AS 5C")
    play(g, "draw", "meld K K K K", "meld Q Q Q", "discard 6",  # seat 0 melds (70)
         "draw", "discard 4", "draw", "discard 4", "draw", "discard 6")
    play(g, "draw", *[m for m in OUT_MELDS if m.split()[1] not in "KQ"], "meld A A A A",
         "discard 5")
    assert ("went_out", 100) == (g.last_hand.ended_by, g.last_hand.scores[0].going_out)


def test_pc_21_hands_and_unpicked_ponies_count_against_every_side():
    pony = "KS KS QS QS JS JS 10S 10S 9S 9S 8S 8S"  # 120
    g = deal(4, partners=True,
             hands={0: OUT_HAND, 2: "JK 2S AS KS QS JS 10S 9S 8S 7S 6S 5S 4S"},  # 170
             ponies={0: OUT_PONY, 1: pony, 2: "3H 4D 4D 5D 5D 6D 6D 7D 7D 8D 8D 9D",  # 75
                     3: pony},
             stock=OUT_DRAW)
    opponents = g.hand_codes(1) + g.hand_codes(3)
    play(g, *OUT_TURN)
    partner_left = TeamScore(team=0, books=500, book_kinds=("natural",), melded_cards=290,
                             hand_cards=-170, reserve_cards=-75, going_out=300)
    assert (partner_left, 845) == (g.last_hand.scores[0], g.last_hand.scores[0].total)
    opposing = TeamScore(team=1, hand_cards=-points(opponents), reserve_cards=-240)
    assert opposing == g.last_hand.scores[1]


@pytest.mark.parametrize("before, over", [(3000, False), (4000, True)])
def test_pc_22_the_game_ends_after_the_hand_in_which_a_side_reaches_5000(before, over):
    g = deal(hands={0: OUT_HAND}, ponies={0: OUT_PONY}, stock=OUT_DRAW)
    g.scores[0] = before  # a game in progress (initial minimum 120: the 9s wait for the Ks, Qs)
    play(g, *OUT_TURN)
    assert (before + 1090, over) == (g.scores[0], g.is_over)
    assert (0 if over else None, 1 if over else 2) == (g.winner, g.hand_number)


# --------------------------------------------------------------------------- self-play
MAX_ACTIONS_PER_HAND = 5_000
MAX_ACTIONS_PER_GAME = 60_000

TABLES = [(n, False) for n in range(2, 17)] + [(n, True) for n in range(4, 17, 2)]


@pytest.mark.parametrize("players, partners", TABLES,
                         ids=[f"{n}p{'-partners' if p else ''}" for n, p in TABLES])
def test_self_play_finishes_a_hand(players, partners):
    g = seeded(players, seed=players, partners=partners)
    bots = [RandomBot(seed=100 * players + p) for p in range(players)]
    for _ in range(MAX_ACTIONS_PER_HAND):
        bot_step(g, bots)
        if g.hand_results:
            break
        assert_conserved(g)
    hand = g.last_hand
    assert hand is not None, f"hand 1 did not end within {MAX_ACTIONS_PER_HAND} actions"
    assert hand.ended_by in ("went_out", "stock_empty", "one_side_left")
    assert list(hand.totals) == g.scores
    assert_conserved(g)


GAMES = [(2, False), (5, False), (8, False), (16, False), (6, True)]


@pytest.mark.parametrize("players, partners", GAMES,
                         ids=[f"{n}p{'-partners' if p else ''}" for n, p in GAMES])
def test_self_play_finishes_a_game_at_5000(players, partners):
    g = seeded(players, seed=7, partners=partners)
    rng = random.Random(players)
    bots = [RandomBot(seed=rng.randrange(10**6)) for _ in range(players)]
    for _ in range(MAX_ACTIONS_PER_GAME):
        if g.is_over:
            break
        bot_step(g, bots)
    assert g.is_over, f"the game did not end within {MAX_ACTIONS_PER_GAME} actions"
    assert_conserved(g)
    totals = [0] * g.n_teams
    for i, hand in enumerate(g.hand_results, 1):  # PC-22: over after the first hand at 5,000
        totals = [a + b for a, b in zip(totals, hand.totals)]
        assert (max(totals) >= 5000) == (i == len(g.hand_results))
    assert (totals, max(range(g.n_teams), key=totals.__getitem__)) == (g.scores, g.winner)
