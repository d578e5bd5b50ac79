"""Samba, clause by clause (``docs/games/samba.md``, SA-1 … SA-13): four players in two
partnerships (seats 0 and 2 against 1 and 3), 162 cards, fifteen each, draw two.

Each scenario deals a stacked deck (:func:`meldkit.testing.stacked_game`: seat 0 starts,
every card not named is a plain filler), plays scripted actions in notation and checks
exact outcomes: reason codes of refused actions, zones, and the scores of the hand.
Samba's discards name their suits (``discard 5C``), as its sequences do (``run 4H 5H 6H``,
``extend 7H to 4H-6H``, ``take to 4H-6H``); melds of a rank name ranks (``meld K K K``).

Going out (SA-11) needs two canastas: :func:`going_out` has seat 0 go out in its first
turn with a samba (``4H``-``10H``) and a natural canasta of nines.
"""

from __future__ import annotations

from collections import Counter

import pytest

import meldkit
from meldkit import IllegalActionError, SetupError
from meldkit.testing import stacked_game

PACK = "samba"
PLAYERS = 4
DEAL = 15
"""SA-3."""
DRAW = 2
"""SA-4."""
TARGET = 10000
"""SA-11."""
VALUES = {"JK": 50, "A": 20, "2": 20, "K": 10, "Q": 10, "J": 10, "10": 10, "9": 10, "8": 10,
          "7": 5, "6": 5, "5": 5, "4": 5, "3": 5}
"""SA-12 (Canasta's card values)."""

NINES = "9C 9C 9D 9D 9H 9H 9S"  # a natural canasta (the three decks hold twelve 9s)
SAMBA = "4H 5H 6H 7H 8H 9H 10H"  # a sequence of seven: a samba


# --------------------------------------------------------------------------- helpers
def cards(text: str) -> list[str]:
    return text.split()


def rank(code: str) -> str:
    return code if code == "JK" else code[:-1]


def points(codes) -> int:
    return sum(VALUES[rank(c)] for c in codes)


def deal(hands=None, upcard: str = "4C", stock: str = "") -> meldkit.GameState:
    """A stacked four-player game (seat 0 starts); hands as code strings by seat."""
    return stacked_game(PACK, PLAYERS, hands={s: cards(h) for s, h in (hands or {}).items()},
                        upcard=cards(upcard), stock=cards(stock))


def play(g: meldkit.GameState, *actions: str) -> None:
    for a in actions:
        g.apply(a)


def refused(g: meldkit.GameState, action: str) -> str:
    """The reason code ``action`` is refused with; ``apply`` raises the same code and
    leaves the state as it was."""
    before = g.to_json()
    why = g.check(action)
    assert why is not None, f"{action!r} is legal"
    with pytest.raises(IllegalActionError) as info:
        g.apply(action)
    assert why.code == info.value.code
    assert before == g.to_json()
    return why.code


def others(last: str = "5S") -> str:
    """The stock for one round of seats 1 to 3: each draws 5S 6S, seat 3 ``last`` 6S."""
    return f"5S 6S 5S 6S {last} 6S"


def pass_turns(g: meldkit.GameState, last: str = "5S") -> None:
    """Seats 1 to 3 draw (the stock of :func:`others`) and discard; seat 3 discards
    ``last``, which is then the top of the pile for seat 0."""
    for seat in (1, 2, 3):
        assert seat == g.current_player
        play(g, "draw", f"discard {last if seat == 3 else '5S'}")


def melds(g: meldkit.GameState, team: int = 0) -> list[tuple[str, int, str | None]]:
    """A side's melds as (rank, or the sequence's ends; size; canasta kind or None)."""
    return [(m.get("sequence", m["rank"]), len(m["cards"]), m["book"])
            for m in g.view(0)["teams"][team]["melds"]]


def hand_size(g: meldkit.GameState, seat: int) -> int:
    return g.view(0)["players"][seat]["hand_size"]


def pile(g: meldkit.GameState) -> dict:
    return g.view(0)["pile"]


def melded_then_round(top: str, extra: str = "", run: str = "4H 5H 6H",
                      discard: str = "5C") -> meldkit.GameState:
    """Seat 0 lays the sequence ``run``, melds K K K and A A A (at least 75: the side has
    melded) and discards ``discard``; seats 1 to 3 draw and discard, seat 3 the card
    ``top``; seat 0 (also holding ``extra``) is to move again."""
    g = deal({0: f"{run} KC KD KH AC AD AH {extra}"}, stock="5C 5D " + others(top))
    play(g, "draw", f"run {run}", "meld K K K", "meld A A A", f"discard {discard}")
    pass_turns(g, top)
    assert (0, top) == (g.current_player, pile(g)["top"])
    return g


def going_out(form: str):
    """A game in which seat 0 is about to go out in its first turn, and the actions that
    do it: a samba (4H-10H) and a natural canasta of nines.

    ``form``: ``"discard"`` (the last card discarded) or ``"meld"`` (every card melded)."""
    g = deal({0: f"{NINES} {SAMBA} AC"}, stock="9S 9C" if form == "discard" else "AD AH")
    if form == "discard":
        return g, ["draw", f"run {SAMBA}", "meld 9 9 9 9 9 9 9 9 9", "discard AC"]
    return g, ["draw", f"run {SAMBA}", "meld 9 9 9 9 9 9 9", "meld A A A"]


# --------------------------------------------------------------------------- the table
def test_SA_1_four_players_in_two_partnerships_seated_alternately():
    g = meldkit.new_game(PACK, players=4, seed=1)
    assert [0, 1, 0, 1] == g.team_of
    assert [[0, 2], [1, 3]] == [g.view(0)["teams"][t]["players"] for t in (0, 1)]


@pytest.mark.parametrize("players", [1, 2, 3, 5, 6])
def test_SA_1_other_numbers_of_players_are_not_played(players):
    with pytest.raises(SetupError):
        meldkit.new_game(PACK, players=players)


def test_SA_1_four_may_not_play_alone():
    with pytest.raises(SetupError, match="partnerships"):
        meldkit.new_game(PACK, players=4, options={"partners": False})


def test_SA_2_three_decks_and_six_jokers_make_162_cards():
    g = meldkit.new_game(PACK, players=4, seed=2)
    counts = Counter(g.card_code(c) for zone in g.zone_cards().values() for c in zone)
    assert 162 == sum(counts.values())
    assert (6, {3}) == (counts.pop("JK"), set(counts.values()))  # three of each of 52 cards
    assert 52 == len(counts)
    meldkit.new_game(PACK, players=4, deck_order=["JK"] * 6 + ["9C"] * 3)  # all of them …
    with pytest.raises(SetupError):  # … and not one more
        meldkit.new_game(PACK, players=4, deck_order=["JK"] * 7)
    with pytest.raises(SetupError):
        meldkit.new_game(PACK, players=4, deck_order=["9C"] * 4)


def test_SA_2_jokers_and_deuces_are_wild():
    g = deal({0: "KC KD 2C JK"}, stock="5C 5D")
    play(g, "draw", "meld K K 2 JK")  # 20 + 20 + 50 = 90: the initial meld
    assert [("K", 4, None)] == melds(g)
    assert g.view(0)["teams"][0]["melded"]


def test_SA_2_red_threes_are_laid_out_and_replaced_dealt_or_drawn():
    g = deal({0: "3H KC KD"}, stock="QS 3D QC QD QH")
    assert (["3H"], DEAL) == (g.view(0)["players"][0]["bonus"], hand_size(g, 0))
    assert "QS" in g.hand_codes(0)  # the replacement, from the top of the stock
    play(g, "draw")  # 3D and QC: the 3D is laid out and replaced by the QD
    assert ["3H", "3D"] == g.view(0)["players"][0]["bonus"]
    assert DEAL + DRAW == hand_size(g, 0)
    assert {"QC", "QD"} <= set(g.hand_codes(0))


def test_SA_3_fifteen_cards_each():
    g = meldkit.new_game(PACK, players=4, seed=3)
    assert [DEAL] * 4 == [hand_size(g, q) for q in range(4)]
    assert 162 - 4 * DEAL - pile(g)["size"] == len(g.stock) + sum(
        len(g.view(0)["players"][q]["bonus"]) for q in range(4))


def test_SA_3_the_player_left_of_the_dealer_starts_and_the_deal_passes_left():
    for seed in range(4):
        g = meldkit.new_game(PACK, players=4, seed=seed)
        dealer = g.dealer
        assert (dealer + 1) % 4 == g.current_player
        g._end_hand("stock_empty", None)
        assert ((dealer + 1) % 4, (dealer + 2) % 4) == (g.dealer, g.current_player)


@pytest.mark.parametrize("upcard, frozen", [("3H KC", True), ("2C KC", True),
                                            ("JK 3D KC", True), ("KC", False)])
def test_SA_3_a_red_three_or_wild_upcard_is_covered_and_freezes_the_pile(upcard, frozen):
    g = deal(upcard=upcard)
    assert {"top": "KC", "size": len(cards(upcard)), "frozen": frozen} == pile(g)


# --------------------------------------------------------------------------- the turn
def test_SA_4_draw_two_cards_meld_and_discard_one():
    g = deal({0: "KC KD KH AC AD AH"}, stock="QC QD 5C 5D")
    assert "turn/draw-first" == refused(g, "discard KC")
    stock = len(g.stock)
    play(g, "draw")
    assert (DEAL + DRAW, stock - DRAW) == (hand_size(g, 0), len(g.stock))
    assert {"QC", "QD"} <= set(g.hand_codes(0))
    assert "turn/already-drawn" == refused(g, "draw")  # one draw a turn
    play(g, "meld K K K", "meld A A A", "discard QC")
    assert (1, DEAL + DRAW - 6 - 1) == (g.current_player, hand_size(g, 0))
    play(g, "draw")
    assert (DEAL + DRAW, stock - 2 * DRAW) == (hand_size(g, 1), len(g.stock))
