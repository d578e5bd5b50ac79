"""Classic Canasta, clause by clause (``docs/games/classic_canasta.md``, CC-1 … CC-20), at
every player count the pack plays: 2 and 3 alone, 4 and 6 in two partnerships.

Each scenario deals a stacked deck (:func:`meldkit.testing.stacked_game`: seat 0 starts,
every card not named is a plain filler), plays scripted actions in notation and checks
exact outcomes: reason codes of refused actions, zones, and the scores of the hand.

Going out (CC-16) needs one canasta with 3 or 4 players and two with 2 or 6; the script
:func:`going_out` reaches it at each count with seat 0 going out in its first turn that
melds (concealed, with a canasta of its own): with 6 players its partner has made the
second canasta before.
"""

from __future__ import annotations

import json
from collections import Counter

import pytest
from clauses import cards, play, rank

import meldkit
from meldkit import SetupError
from meldkit.testing import refusal, stack_deck, stacked_game

PACK = "classic_canasta"
PLAYERS = [2, 3, 4, 6]
DEAL = {2: 15, 3: 13, 4: 11, 6: 13}
"""CC-3, written out here so that the tests do not read the pack's own tables."""
DRAW = {2: 2, 3: 1, 4: 1, 6: 1}
"""CC-7."""
BOOKS_TO_GO_OUT = {2: 2, 3: 1, 4: 1, 6: 2}
"""CC-16."""
TARGET = {2: 5000, 3: 5000, 4: 5000, 6: 10000}
"""CC-20."""
VALUES = {"JK": 50, "A": 20, "2": 20, "K": 10, "Q": 10, "J": 10, "10": 10, "9": 10, "8": 10,
          "7": 5, "6": 5, "5": 5, "4": 5, "3": 5}
"""CC-19."""

NINES = "9C 9C 9D 9D 9H 9H 9S"  # a natural canasta; the eighth 9 (9S) stays in the deck
EIGHTS = "8C 8C 8D 8D 8H 8H 8S"


# --------------------------------------------------------------------------- helpers


def points(codes) -> int:
    return sum(VALUES[rank(c)] for c in codes)


def deal(players: int, hands=None, upcard: str = "4C", stock: str = "",
         partners: bool | None = None) -> meldkit.GameState:
    """A stacked game (seat 0 starts); hands as code strings by seat."""
    return stacked_game(
        PACK, players, hands={s: cards(h) for s, h in (hands or {}).items()},
        upcard=cards(upcard), stock=cards(stock),
        options=None if partners is None else {"partners": partners})


def refused(g: meldkit.GameState, action: str) -> str:
    """The reason ``action`` is refused with (see :func:`meldkit.testing.refusal`)."""
    return refusal(g, action).code


def pass_turns(g: meldkit.GameState, card: str = "4") -> None:
    """Every seat until seat 0 draws and discards a card of rank ``card`` (the stock
    names what each draws)."""
    while g.current_player != 0:
        play(g, "draw", f"discard {card}")


def cycle(rank_code: str, n: int) -> str:
    """``n`` cards of one rank in turning suits (``7S 7H 7D 7C 7S``)."""
    return " ".join(f"{rank_code}{'SHDC'[i % 4]}" for i in range(n))


def others(players: int) -> int:
    """Cards the other seats draw in one round."""
    return DRAW[players] * (players - 1)


def melds(g: meldkit.GameState, team: int) -> list[tuple[str, int, str | None]]:
    """A side's melds as (rank, size, canasta kind or None)."""
    return [(m["rank"], len(m["cards"]), m["book"]) for m in g.view(0)["teams"][team]["melds"]]


def hand_size(g: meldkit.GameState, seat: int) -> int:
    return g.view(0)["players"][seat]["hand_size"]


def going_out(players: int, form: str):
    """A game in which seat 0 is about to go out, and the actions that do it.

    ``form``: ``"discard"`` (the last card discarded) or ``"meld"`` (every card melded).
    Returns ``(game, actions)``; seat 0's side then holds exactly the canastas it needs
    (all natural)."""
    if players == 2:  # 15 cards, draw 2, two canastas
        g = deal(2, {0: f"{NINES} {EIGHTS} AC"}, stock="9S 8S" if form == "discard" else "AD AH")
        if form == "discard":
            return g, ["draw", "meld 9 9 9 9 9 9 9 9", "meld 8 8 8 8 8 8 8 8", "discard A"]
        return g, ["draw", "meld 9 9 9 9 9 9 9", "meld 8 8 8 8 8 8 8", "meld A A A"]
    if players == 3:  # 13 cards, one canasta
        g = deal(3, {0: f"{NINES} AC AD AH KC KD KH"}, stock="5C" if form == "discard" else "9S")
        if form == "discard":
            return g, ["draw", "meld 9 9 9 9 9 9 9", "meld A A A", "meld K K K", "discard 5"]
        return g, ["draw", "meld 9 9 9 9 9 9 9 9", "meld A A A", "meld K K K"]
    if players == 4:  # 11 cards, one canasta
        g = deal(4, {0: f"{NINES} AC AD AH AS"}, stock="5C" if form == "discard" else "9S")
        if form == "discard":
            return g, ["draw", "meld 9 9 9 9 9 9 9", "meld A A A A", "discard 5"]
        return g, ["draw", "meld 9 9 9 9 9 9 9 9", "meld A A A A"]
    # six players, two canastas: seat 0's partner (seat 2) melds one first
    g = six_players_partners_meld({0: f"{NINES} AC AD AH KC KD KH"}, first="8",
                                  then="5C" if form == "discard" else "9S")
    melds_ = ["meld A A A", "meld K K K"]
    if form == "discard":
        return g, ["draw", "meld 9 9 9 9 9 9 9", *melds_, "discard 5"]
    return g, ["draw", "meld 9 9 9 9 9 9 9 9", *melds_]


def six_players_partners_meld(hands: dict, first: str, then: str, second: str = ""):
    """Six players: seat 0 passes, its partner seat 2 melds a natural canasta of rank
    ``first`` (and seat 4 one of rank ``second``, if given); seat 0, holding ``hands[0]``,
    is to move again and draws ``then``."""
    canasta = {"8": EIGHTS, "7": "7C 7C 7D 7D 7H 7H 7S"}
    hands = {**hands, 2: f"{canasta[first]} 4C"}
    if second:
        hands[4] = f"{canasta[second]} 4S"
    g = deal(6, hands, stock=f"4S 4H 4C 4D 4S 4H {then}")
    play(g, "draw", "discard 4")                                    # seat 0 passes
    play(g, "draw", "discard 4")                                    # seat 1
    play(g, "draw", f"meld {' '.join([first] * 7)}", "discard 4")   # seat 2: 70, a canasta
    play(g, "draw", "discard 4")                                    # seat 3
    play(g, "draw", *([f"meld {' '.join([second] * 7)}"] if second else []),
         "discard 4")                                               # seat 4
    play(g, "draw", "discard 4")                                    # seat 5
    return g


def melded_then_round(players: int, discard: str, other_rank: str = "7"):
    """Seat 0 melds K K K and A A A (90) and discards a ``discard``; every other seat draws
    and discards a card of ``other_rank``; seat 0 (holding 7 7 JK) is to move again."""
    g = deal(players, {0: "KC KD KH AC AD AH 2C 4D 7C 7D JK"},
             stock=cycle("4", DRAW[players]) + " " + cycle(other_rank, others(players)))
    play(g, "draw", "meld K K K", "meld A A A", f"discard {discard}")
    pass_turns(g, other_rank)
    return g


# --------------------------------------------------------------------------- the table
@pytest.mark.parametrize("players, teams", [
    (2, [0, 1]), (3, [0, 1, 2]), (4, [0, 1, 0, 1]), (6, [0, 1, 0, 1, 0, 1])])
def test_CC_1_two_and_three_play_alone_four_and_six_in_two_partnerships(players, teams):
    assert teams == meldkit.new_game(PACK, players=players, seed=1).team_of


def test_CC_1_four_may_play_alone_with_the_partners_option_off():
    assert [0, 1, 2, 3] == meldkit.new_game(PACK, players=4, options={"partners": False}).team_of


@pytest.mark.parametrize("players", [1, 5, 7])
def test_CC_1_five_and_other_counts_are_not_played(players):
    with pytest.raises(SetupError):
        meldkit.new_game(PACK, players=players)


@pytest.mark.parametrize("players, total, jokers", [(2, 108, 4), (3, 108, 4), (4, 108, 4),
                                                    (6, 162, 6)])
def test_CC_2_two_decks_and_four_jokers_three_decks_for_six(players, total, jokers):
    g = meldkit.new_game(PACK, players=players, seed=2)
    assert total == sum(len(z) for z in g.zone_cards().values())
    every = ["JK"] * jokers
    meldkit.new_game(PACK, players=players, deck_order=every)  # the deck holds them all …
    with pytest.raises(SetupError):  # … and not one more
        meldkit.new_game(PACK, players=players, deck_order=every + ["JK"])


@pytest.mark.parametrize("players", PLAYERS)
def test_CC_3_hand_size_by_player_count(players):
    g = meldkit.new_game(PACK, players=players, seed=3)
    assert [DEAL[players]] * players == [hand_size(g, q) for q in range(players)]


@pytest.mark.parametrize("players", PLAYERS)
def test_CC_4_the_player_left_of_the_dealer_starts_and_the_deal_passes_left(players):
    for seed in range(4):
        g = meldkit.new_game(PACK, players=players, seed=seed)
        dealer = g.dealer
        assert (dealer + 1) % players == g.current_player
        g._end_hand("stock_empty", None)
        assert ((dealer + 1) % players, (dealer + 2) % players) == (g.dealer, g.current_player)


@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize("upcard, frozen", [("3H KC", True), ("2C KC", True),
                                            ("JK 3D KC", True), ("KC", False)])
def test_CC_5_red_three_or_wild_upcard_is_covered_and_freezes_the_pile(players, upcard, frozen):
    g = deal(players, upcard=upcard)
    assert {"top": "KC", "size": len(cards(upcard)), "frozen": frozen} == g.view(0)["pile"]


@pytest.mark.parametrize("players", PLAYERS)
def test_CC_6_red_threes_are_laid_out_and_replaced_dealt_or_drawn(players):
    g = deal(players, {0: "3H KC KD"}, stock="QS 3D QC QD QH")
    assert (["3H"], DEAL[players]) == (g.view(0)["players"][0]["bonus"], hand_size(g, 0))
    assert "QS" in g.hand_codes(0)  # the replacement, from the top of the stock
    play(g, "draw")
    assert ["3H", "3D"] == g.view(0)["players"][0]["bonus"]
    assert DEAL[players] + DRAW[players] == hand_size(g, 0)


@pytest.mark.parametrize("players", PLAYERS)
def test_CC_6_jokers_and_deuces_are_wild(players):
    g = deal(players, {0: "KC KD 2C JK"}, stock="5C 5D")
    play(g, "draw", "meld K K 2 JK")  # 20 + 20 + 50 = 90: the initial meld
    assert [("K", 4, None)] == melds(g, 0)


# --------------------------------------------------------------------------- the turn
@pytest.mark.parametrize("players", PLAYERS)
def test_CC_7_draw_one_card_two_with_two_players_and_discard_one(players):
    g = deal(players, stock="QC QD QH")
    play(g, "draw")
    assert DEAL[players] + DRAW[players] == hand_size(g, 0)
    play(g, "discard Q")
    assert (1, DEAL[players] + DRAW[players] - 1) == (g.current_player, hand_size(g, 0))


@pytest.mark.parametrize("players", PLAYERS)
def test_CC_8_melds_need_two_naturals_and_at_most_three_wild_cards(players):
    g = deal(players, {0: "KC KD 2C 2D JK JK"}, stock="5C 5D")
    play(g, "draw")
    assert "meld/too-few-naturals" == refused(g, "meld K 2 JK")
    assert "meld/too-many-wilds" == refused(g, "meld K K 2 2 JK JK")
    play(g, "meld K K 2 2 JK")  # two naturals, three wild cards
    assert [("K", 5, None)] == melds(g, 0)


@pytest.mark.parametrize("players", PLAYERS)
def test_CC_8_one_meld_of_each_rank_and_no_melds_of_wild_cards_only(players):
    g = deal(players, {0: "KC KD KH KS AC AD AH 2C 2D JK"}, stock="KC 5D")
    play(g, "draw", "meld K K K", "meld A A A")
    assert "meld/open-meld-exists" == refused(g, "meld K K")
    assert "meld/wild-melds-not-allowed" == refused(g, "meld 2 2 JK")
    play(g, "add K to K")
    assert ("K", 4, None) in melds(g, 0)


@pytest.mark.parametrize("players", PLAYERS)
def test_CC_9_black_threes_may_not_be_melded_without_going_out(players):
    g = deal(players, {0: "3C 3C 3S KC KD KH QC"}, stock="5C 5D")
    play(g, "draw")
    assert "meld/only-going-out" == refused(g, "meld 3 3 3")  # before the initial meld
    play(g, "meld K K K")
    assert "meld/only-going-out" == refused(g, "meld 3 3 3")  # it would not go out


@pytest.mark.parametrize("players", [2, 3, 4])
def test_CC_9_black_threes_may_be_the_last_meld_of_a_player_going_out(players):
    hand = {2: f"{NINES} {EIGHTS} 3C", 3: f"{NINES} AC AD AH 3C 3C 3S",
            4: f"{NINES} 3C 3C 3S 3S"}[players]
    g = deal(players, {0: hand}, stock={2: "3S 3S", 3: "5C", 4: "5C"}[players])
    play(g, "draw", "meld 9 9 9 9 9 9 9")
    if players == 4:
        assert "meld/only-going-out" == refused(g, "meld 3 3 3")  # it would leave 3 and 5
        play(g, "meld 3 3 3 3", "discard 5")
    elif players == 3:
        play(g, "meld A A A", "meld 3 3 3", "discard 5")
    else:
        play(g, "meld 8 8 8 8 8 8 8", "meld 3 3 3")  # every card melded
    assert ("went_out", 0) == (g.last_hand.ended_by, g.last_hand.went_out)
    assert any(g.card_code(ids[0]) in ("3C", "3S") for _, ids in g.last_hand.final.melds[0])


def test_CC_9_six_players_black_threes_wait_for_the_second_canasta():
    g = deal(6, {0: f"{NINES} 3C 3C 3S 3S KC KD"}, stock="KH")
    play(g, "draw", "meld 9 9 9 9 9 9 9", "meld K K K")
    why = g.check("meld 3 3 3 3")
    assert ("meld/only-going-out", True) == (why.code, "2 books" in why.sentence)


@pytest.mark.parametrize("players", PLAYERS)
def test_CC_9_black_threes_take_no_wild_cards(players):
    g = deal(players, {0: f"{NINES} 3C 3S 2C"}, stock="5C 5D")
    play(g, "draw", "meld 9 9 9 9 9 9 9")
    assert "meld/no-wilds-allowed" == refused(g, "meld 3 3 2")


@pytest.mark.parametrize("players", PLAYERS)
def test_CC_10_canastas_natural_500_mixed_300_and_they_keep_growing(players):
    g = deal(players, {0: f"{NINES} 2C KC"}, stock="5C 5D")
    play(g, "draw", "meld 9 9 9 9 9 9 9")
    assert [("9", 7, "natural")] == melds(g, 0)
    play(g, "add 2 to 9")  # a canasta keeps taking cards; a wild card makes it mixed
    assert [("9", 8, "mixed")] == melds(g, 0)
    g._end_hand("stock_empty", None)
    assert ("mixed",) == g.hand_results[0].scores[0].book_kinds
    assert 300 == g.hand_results[0].scores[0].books


# --------------------------------------------------------------------------- initial meld
@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize("score, minimum", [(-10, 15), (0, 50), (1495, 50), (1500, 90),
                                            (2995, 90), (3000, 120), (4990, 120), (7495, 120),
                                            (7500, 150)])
def test_CC_11_initial_meld_minimum_by_the_sides_score(players, score, minimum):
    if players != 6 and score >= 7500:
        minimum = 120  # the 150 tier is the six-player game's
    g = deal(players)
    g.scores[0] = score
    assert minimum == g.initial_minimum(0)


@pytest.mark.parametrize("players", PLAYERS)
def test_CC_11_melds_below_the_minimum_are_pending_and_may_not_be_left(players):
    g = deal(players, {0: "KC KD KH QC QD QH"}, stock="5D 5H")
    play(g, "draw", "meld K K K")  # 30 of 50
    assert "discard/initial-meld-pending" == refused(g, "discard 5")
    play(g, "meld Q Q Q")  # 60: the side has melded
    assert g.view(0)["teams"][0]["melded"]


@pytest.mark.parametrize("players", PLAYERS)
def test_CC_11_the_top_of_a_pile_taken_counts_toward_the_minimum(players):
    g = deal(players, {0: "KC KD QC QD QH"}, upcard="KH")
    play(g, "take K K")  # 30
    assert "discard/initial-meld-pending" == refused(g, "discard Q")
    play(g, "meld Q Q Q")  # 60
    assert g.view(0)["teams"][0]["melded"]


# --------------------------------------------------------------------------- the pile
@pytest.mark.parametrize("players", PLAYERS)
def test_CC_12_a_discarded_wild_card_freezes_the_pile(players):
    g = melded_then_round(players, "2")
    assert g.view(0)["pile"]["frozen"]
    assert "pile/frozen-needs-pair" == refused(g, "take 7 JK")
    play(g, "take 7 7")
    assert {"size": 0, "frozen": False} == {k: g.view(0)["pile"][k] for k in ("size", "frozen")}


@pytest.mark.parametrize("players", PLAYERS)
def test_CC_13_the_pile_is_frozen_for_a_side_that_has_not_melded(players):
    g = deal(players, {0: "7C JK 7D KC KD KH AC AD AH"}, upcard="7H")
    assert not g.view(0)["pile"]["frozen"]  # not frozen by a card …
    why = g.check("take 7 JK")  # … but for this side, which has not melded
    assert ("pile/frozen-needs-pair", True) == (why.code, "not melded" in why.sentence)
    assert g.check("take 7 7") is None


@pytest.mark.parametrize("players", PLAYERS)
def test_CC_13_once_the_side_has_melded_the_pile_is_taken_as_usual(players):
    g = melded_then_round(players, "4")
    assert not g.view(0)["pile"]["frozen"]
    play(g, "take 7 JK")
    assert ("7", 3, None) in melds(g, 0)


@pytest.mark.parametrize("players", PLAYERS)
def test_CC_14_a_black_three_blocks_the_pile_for_the_next_player_only(players):
    after = 2 % players  # the player after the next
    hands = ({0: "3C 7C 7C KC", 1: "3S 3S 7S"} if players == 2
             else {0: "3C KC", 1: "3S 3S 7S", 2: "7C 7C"})
    g = deal(players, hands, stock="5C 5D 5H 5S" if players == 2 else "5C 5D")
    play(g, "draw", "discard 3")
    assert ("3C", False) == (g.view(0)["pile"]["top"], g.view(0)["pile"]["frozen"])
    assert "pile/blocked" == refused(g, "take 3 3")  # seat 1
    play(g, "draw", "discard 7")  # covered: the pile is as before
    assert (after, "7S", False) == (g.current_player, g.view(0)["pile"]["top"],
                                    g.view(0)["pile"]["frozen"])
    assert g.check("take 7 7") is None


@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize("how", ["take 7 7", "take 7 JK"])
def test_CC_15_an_unfrozen_pile_is_taken_with_a_pair_or_a_natural_and_a_wild(players, how):
    g = melded_then_round(players, "4")
    size, held = g.view(0)["pile"]["size"], hand_size(g, 0)
    play(g, how)
    assert ("7", 3, None) in melds(g, 0)
    assert held - 2 + size - 1 == hand_size(g, 0)


@pytest.mark.parametrize("players", PLAYERS)
def test_CC_15_an_unfrozen_pile_is_taken_onto_the_sides_meld_of_its_rank(players):
    g = melded_then_round(players, "4", other_rank="K")
    play(g, "take")
    assert ("K", 4, None) in melds(g, 0)


@pytest.mark.parametrize("players", PLAYERS)
def test_CC_15_a_single_card_may_not_take_a_single_card_pile(players):
    hand = {2: "KC KD KH AC AD AH QC QD QH JC JD JH 10C 10D 10H",
            3: "KC KD KH AC AD AH QC QD QH JC JD JH 5C",
            4: "KC KD KH AC AD AH QC QD QH QS 5C"}
    hand[6] = hand[3]
    melds_ = {2: ["meld 10 10 10", "meld J J J"], 3: ["meld J J J"], 6: ["meld J J J"]}
    last = players - 1  # the seat before seat 0 takes the pile and leaves one card on it
    g = deal(players, {0: hand[players], last: "5H 5S AC AD AH KS"},
             stock="5C 5D" if players == 2 else "5D " + cycle("5", players - 2))
    play(g, "draw", "meld K K K", "meld A A A",
         "meld Q Q Q Q" if players == 4 else "meld Q Q Q", *melds_.get(players, []),
         "discard 5")
    while g.current_player != last:
        play(g, "draw", "discard 5")
    play(g, "take 5 5", "meld A A A", "discard K")
    assert (1, 1, "KS") == (hand_size(g, 0), g.view(0)["pile"]["size"], g.view(0)["pile"]["top"])
    assert "pile/single-card" == refused(g, "take")


@pytest.mark.parametrize("players", PLAYERS)
def test_CC_15_a_wild_card_on_top_cannot_be_taken(players):
    g = melded_then_round(players, "4", other_rank="2")
    assert "pile/top-wild" == refused(g, "take 2 2")


# --------------------------------------------------------------------------- going out
@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize("form", ["discard", "meld"])
def test_CC_16_going_out_by_discarding_or_by_melding_every_card(players, form):
    g, acts = going_out(players, form)
    play(g, *acts)
    assert ("went_out", 0) == (g.last_hand.ended_by, g.last_hand.went_out)
    assert ("natural",) * BOOKS_TO_GO_OUT[players] == g.last_hand.scores[0].book_kinds


TWO_CANASTAS = {
    # (players, form): seat 0's hand, its draw, the melds, and the play refused
    (2, "discard"): (f"{NINES} AC AD AH AS KC KD KH KS", "AC 5C",
                     ["meld 9 9 9 9 9 9 9", "meld A A A A A"], "meld K K K K"),
    (2, "meld"): (f"{NINES} AC AD AH AS KC KD KH KS", "AC KC",
                  ["meld 9 9 9 9 9 9 9", "meld A A A A A"], "meld K K K K K"),
    (6, "discard"): (f"{NINES} AC AD AH KC KD KH", "5C",
                     ["meld 9 9 9 9 9 9 9", "meld A A A"], "meld K K K"),
    (6, "meld"): (f"{NINES} AC AD AH AS KC KD", "KH",
                  ["meld 9 9 9 9 9 9 9", "meld A A A A"], "meld K K K"),
}


@pytest.mark.parametrize("players", [2, 6])
@pytest.mark.parametrize("form", ["discard", "meld"])
def test_CC_16_two_canastas_are_needed_with_two_or_six_players(players, form):
    hand, draw, melds_, last = TWO_CANASTAS[players, form]
    g = deal(players, {0: hand}, stock=draw)
    play(g, "draw", *melds_)
    why = g.check(last)  # the meld would leave no card (meld) or one to discard (discard)
    assert ("out/needs-books" if form == "meld" else "hand/keep-a-card") == why.code
    assert "needs 2 books to go out (it has 1)" in why.sentence
    assert "must keep a card" not in why.sentence


@pytest.mark.parametrize("players", [3, 4])
def test_CC_16_one_canasta_is_enough_with_three_or_four_players(players):
    g, acts = going_out(players, "meld")
    play(g, *acts)
    assert ("natural",) == g.last_hand.scores[0].book_kinds


@pytest.mark.parametrize("players", PLAYERS)
def test_CC_16_melding_every_card_without_a_canasta_is_refused(players):
    hand = {2: "KC KD KH AC AD AH QC QD QH JC JD JH JS 10C 10D",
            3: "KC KD KH AC AD AH QC QD QH QS JC JD JH",
            4: "KC KD KH AC AD AH QC QD QH JC JD",
            6: "KC KD KH AC AD AH QC QD QH QS JC JD JH"}[players]
    draw = {2: "10H 10S", 3: "JS", 4: "JH", 6: "JS"}[players]
    g = deal(players, {0: hand}, stock=draw)
    play(g, "draw", "meld K K K", "meld A A A",
         "meld Q Q Q Q" if players in (3, 6) else "meld Q Q Q")
    if players == 2:
        play(g, "meld J J J J")
    last = {2: "meld 10 10 10 10", 3: "meld J J J J", 4: "meld J J J", 6: "meld J J J J"}[players]
    why = g.check(last)
    assert ("out/needs-books", True) == (why.code, "means going out" in why.sentence)
    assert all(hand_size(g, 0) > len(a.cards) for a in g.legal_actions()
               if a.type in ("meld", "add"))


# --------------------------------------------------------------------------- scoring
@pytest.mark.parametrize("players", PLAYERS)
def test_CC_17_going_out_concealed_scores_200(players):
    g, acts = going_out(players, "discard")  # seat 0 had not melded before
    play(g, *acts)
    assert 200 == g.last_hand.scores[0].going_out


@pytest.mark.parametrize("players", [4, 6])
def test_CC_17_going_out_after_melding_on_an_earlier_turn_scores_100(players):
    hands = {0: f"{NINES} AC AD AH AS"}
    last = ["5D", "discard 5"]
    if players == 6:  # thirteen cards, and a second canasta from seat 2
        hands[0] += " KC KD"
        hands[2] = f"{EIGHTS} 4C"
        last = ["KH", "meld K K K"]
    g = deal(players, hands, stock="5C " + cycle("4", players - 1) + " " + last[0])
    play(g, "draw", "meld A A A A", "discard 5")  # seat 0 melds (80) …
    play(g, "draw", "discard 4")
    if players == 6:
        play(g, "draw", "meld 8 8 8 8 8 8 8", "discard 4")
    pass_turns(g)
    play(g, "draw", "meld 9 9 9 9 9 9 9", last[1])  # … and goes out on a later turn
    assert ("went_out", 100) == (g.last_hand.ended_by, g.last_hand.scores[0].going_out)


@pytest.mark.parametrize("players", [4, 6])
def test_CC_17_concealed_is_judged_per_player_whatever_the_partner_did(players):
    hands = {0: f"{NINES} AC AD AH AS", 2: "KC KD KH QC QD QH 4D"}
    finish = ["discard 5"]
    if players == 6:  # thirteen cards, and two canastas
        hands[0] += " JC JD"
        hands[4] = f"{EIGHTS} 4H"
        finish = ["meld J J J"]
    draws = (["4S", "4S", "KS", "4H"] + (["8S", "4C"] if players == 6 else [])
             + ["5C" if players == 4 else "JH"])
    g = deal(players, hands, stock=" ".join(draws))
    play(g, "draw", "discard 4")                                # seat 0 passes
    play(g, "draw", "discard 4")                                # seat 1
    play(g, "draw", "meld K K K K", "meld Q Q Q", "discard 4")  # seat 2: the side melds
    play(g, "draw", "discard 4")                                # seat 3
    if players == 6:
        play(g, "draw", "meld 8 8 8 8 8 8 8 8", "discard 4")    # seat 4: a canasta
        play(g, "draw", "discard 4")                            # seat 5
    play(g, "draw", "meld 9 9 9 9 9 9 9", "meld A A A A", *finish)
    assert ("went_out", 200) == (g.last_hand.ended_by, g.last_hand.scores[0].going_out)


@pytest.mark.parametrize("players", [4, 6])
def test_CC_17_a_concealed_hand_needs_a_canasta_of_its_own(players):
    """Seat 0 melds its whole hand in one turn, not having melded before, on the canastas
    its partners laid: the ordinary 100, not the concealed 200."""
    if players == 4:
        g = deal(4, {0: "AC AD AH AS KC KD KH QC QD QH 5D", 2: f"{NINES} 4C"},
                 stock="4S 4H 4D 4S QS")
        play(g, "draw", "discard 4", "draw", "discard 4")          # seats 0 and 1
        play(g, "draw", "meld 9 9 9 9 9 9 9", "discard 4")         # seat 2: the canasta
        play(g, "draw", "discard 4")                               # seat 3
        out = ["meld A A A A", "meld K K K", "meld Q Q Q Q", "discard 5"]
    else:  # seats 2 and 4 lay the two canastas
        g = six_players_partners_meld({0: "AC AD AH AS KC KD KH QC QD QH JC JD 5D"},
                                      first="8", second="7", then="JH")
        out = ["meld A A A A", "meld K K K", "meld Q Q Q", "meld J J J", "discard 5"]
    assert (0, False) == (g.current_player, g.player_melded[0])
    play(g, "draw", *out)
    assert ("went_out", 0) == (g.last_hand.ended_by, g.last_hand.went_out)
    assert (False, 100) == (g.last_hand.final.concealed, g.last_hand.scores[0].going_out)


RED_THREES = {2: "3H 3H 3D 3D", 3: "3H 3H 3D 3D", 4: "3H 3H 3D 3D", 6: "3H 3H 3H 3D 3D 3D"}
"""CC-6: the red threes of the deck (two decks; three for six players)."""


def last_card_red_three(players: int, hand: str, pack=PACK) -> meldkit.GameState:
    """A stacked game in which seat 0, holding ``hand``, is to draw the stock's last card,
    a red three: every other red three starts the pile (CC-5), the stock is run down by
    each seat discarding a card it drew, and the first player is chosen so that the
    last draw falls to seat 0."""
    threes = RED_THREES[players].split()
    upcard = " ".join(threes[1:]) + " KC"  # the other red threes, covered
    total = 162 if players == 6 else 108
    stock = total - players * DEAL[players] - len(upcard.split())
    first = -((stock - 1) // DRAW[players]) % players  # seat 0 draws last
    order = stack_deck(PACK, players, {0: cards(hand)}, upcard=cards(upcard),
                       first_player=first)
    fresh = meldkit.new_game(PACK, players=players)
    rest = Counter(fresh.card_code(c) for zone in fresh.zone_cards().values() for c in zone)
    rest.subtract(order + [threes[0]])
    g = meldkit.new_game(pack, players=players, options={"first_player": first},
                         deck_order=order + sorted(rest.elements()) + [threes[0]])
    while g.view(0)["stock_size"] > DRAW[players]:
        p = g.current_player
        before = Counter(g.hand_codes(p))
        play(g, "draw")
        drawn = Counter(g.hand_codes(p)) - before
        play(g, f"discard {rank(min(drawn))}")
    assert (0, "draw") == (g.current_player, g.phase)
    return g


@pytest.mark.parametrize("players", PLAYERS)
def test_CC_18_a_red_three_drawn_last_ends_play_its_drawer_may_meld_but_not_discard(players):
    g = last_card_red_three(players, "KC KD KH AC AD AH")
    bonus_before = len(g.view(0)["players"][0]["bonus"])
    play(g, "draw")
    seat = g.view(0)["players"][0]
    assert ("play", 0, bonus_before + 1) == (g.phase, g.view(0)["stock_size"], len(seat["bonus"]))
    assert "3H" == seat["bonus"][-1] or "3D" == seat["bonus"][-1]
    assert "discard/after-last-bonus" == refused(g, "discard K")
    play(g, "meld K K K")  # 30: the initial meld is still short of 50
    assert "end/initial-meld-pending" == refused(g, "end")
    play(g, "meld A A A")  # 90
    legal = [str(a) for a in g.legal_actions()]
    assert "end" in legal and not [a for a in legal if a.startswith("discard")]
    play(g, "end")
    assert ("stock_empty", None, 1) == (g.last_hand.ended_by, g.last_hand.went_out,
                                        len(g.hand_results))
    assert (90, 100 * (bonus_before + 1)) == (g.last_hand.scores[0].melded_cards,
                                              g.last_hand.scores[0].bonus_cards)


def test_CC_18_a_save_keeps_the_play_after_a_red_three_drawn_last_and_checks_it():
    g = last_card_red_three(4, "KC KD KH AC AD AH")
    play(g, "draw", "meld K K K")
    loaded = meldkit.GameState.from_json(g.to_json())
    assert loaded == g and "end/initial-meld-pending" == refused(loaded, "end")
    play(loaded, "meld A A A", "end")
    assert ("stock_empty", 90) == (loaded.last_hand.ended_by,
                                   loaded.last_hand.scores[0].melded_cards)
    save = json.loads(g.to_json())
    save["turn_start_sizes"] = [3]  # the K K K was laid this turn, not before it
    with pytest.raises(meldkit.SaveError, match="turn_start_sizes"):
        meldkit.GameState.from_json(json.dumps(save))
    early = json.loads(meldkit.new_game(PACK, players=4, seed=1).to_json())
    early["final_play"] = True  # a draw phase with a full stock
    with pytest.raises(meldkit.SaveError, match="final_play"):
        meldkit.GameState.from_json(json.dumps(early))


@pytest.mark.parametrize("mode, phase", [("end_at_once", None), ("play_on", "play")])
def test_CC_18_other_tables_end_at_once_or_play_on_after_a_red_three_drawn_last(mode, phase):
    """hand_end.last_card_bonus: ``end_at_once`` (the drawer neither melds nor discards)
    or ``play_on`` (the turn as usual, and play goes on with an empty stock)."""
    variant = meldkit.load_pack_text(f"extends: classic_canasta\nname: cc_{mode}\n"
                                     f"hand_end: {{last_card_bonus: {mode}}}\n")
    g = last_card_red_three(4, "KC KD KH AC AD AH", variant)
    play(g, "draw")
    if phase is None:
        assert ("stock_empty", 1) == (g.last_hand.ended_by, len(g.hand_results))
    else:
        play(g, "meld K K K", "meld A A A")
        play(g, next(str(a) for a in g.legal_actions() if a.type == "discard"))
        assert (1, "draw", 0) == (g.current_player, g.phase, len(g.hand_results))


@pytest.mark.parametrize("players", PLAYERS)
def test_CC_18_the_hand_ends_when_the_stock_is_empty_and_the_pile_is_not_taken(players):
    g = meldkit.new_game(PACK, players=players, seed=5)
    while g.stock and not g.hand_results:
        p = g.current_player
        play(g, "draw")
        if not g.hand_results:
            play(g, f"discard {rank(g.hand_codes(p)[-1])}")
    if not g.hand_results:  # the player to move may take the pile or end the hand
        assert "end" in [str(a) for a in g.legal_actions()]
        play(g, "end")
    assert ("stock_empty", None) == (g.last_hand.ended_by, g.last_hand.went_out)


@pytest.mark.parametrize("players", PLAYERS)
def test_CC_19_scores_canastas_melded_cards_going_out_and_cards_left_in_hand(players):
    g, acts = going_out(players, "discard")
    play(g, *acts)
    final = g.last_hand.final
    ours, theirs = g.last_hand.scores[0], g.last_hand.scores[1]
    left = [g.card_code(c) for q, h in enumerate(final.hands) if g.team_of[q] == 0 for c in h]
    melded = [g.card_code(c) for _, ids in final.melds[0] for c in ids]
    assert (500 * BOOKS_TO_GO_OUT[players], points(melded), -points(left)) == (
        ours.books, ours.melded_cards, ours.hand_cards)
    held = [g.card_code(c) for q, h in enumerate(final.hands) if g.team_of[q] == 1 for c in h]
    assert (0, 0, -points(held), 0) == (theirs.books, theirs.melded_cards, theirs.hand_cards,
                                        theirs.going_out)


@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize("meld", [True, False])
def test_CC_19_all_four_red_threes_of_one_side_score_800_however_split(players, meld):
    partner = 2 if players in (4, 6) else 0
    hands = {0: "3H 3D KC KD KH AC AD AH"}
    if partner:
        hands[partner] = "3H 3D"
    else:
        hands[0] += " 3H 3D"
    g = deal(players, hands, stock="5C 5D 5H 5S 4S 4H")
    assert 4 == sum(len(g.view(0)["players"][q]["bonus"]) for q in range(players)
                    if g.team_of[q] == 0)
    play(g, "draw")
    if meld:
        play(g, "meld K K K", "meld A A A")
    g._end_hand("stock_empty", None)
    assert (800 if meld else -800) == g.hand_results[0].scores[0].bonus_cards


@pytest.mark.parametrize("held, points", [(5, 1000), (6, 1200)])
def test_CC_19_six_players_five_red_threes_score_1000_and_six_1200(held, points):
    threes = ["3H", "3D", "3H", "3D", "3H", "3D"][:held]
    g = deal(6, {0: " ".join(threes[:3]) + " KC KD KH AC AD AH", 2: " ".join(threes[3:])},
             stock="5C 5D 5H 5S 5C 5D 4S")
    play(g, "draw", "meld K K K", "meld A A A")
    g._end_hand("stock_empty", None)
    assert points == g.hand_results[0].scores[0].bonus_cards


@pytest.mark.parametrize("players", PLAYERS)
def test_CC_19_fewer_red_threes_score_100_each(players):
    g = deal(players, {0: "3H 3D 3H KC KD KH AC AD AH"}, stock="5C 5D 5H 5S 4S")
    play(g, "draw", "meld K K K", "meld A A A")
    g._end_hand("stock_empty", None)
    assert 300 == g.hand_results[0].scores[0].bonus_cards


@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize("short, over", [(500, True), (4000, False)])
def test_CC_20_the_game_ends_after_the_hand_in_which_a_side_reaches_5000(players, short, over):
    """5,000 with 2 to 4 players, 10,000 with 6."""
    g, acts = going_out(players, "discard")
    g.scores[0] = TARGET[players] - short
    play(g, *acts)
    assert (over, 0 if over else None, 1 if over else 2) == (g.is_over, g.winner, g.hand_number)
