"""Samba, clause by clause (``docs/games/samba.md``, SA-1 … SA-13): four players in two
partnerships (seats 0 and 2 against 1 and 3), 162 cards, fifteen each, draw two.

Each scenario deals a stacked deck (:func:`meldkit.testing.stacked_game`: seat 0 starts,
every card not named is a plain filler), plays scripted actions in notation and checks
exact outcomes: reason codes of refused actions, zones, and the scores of the hand.
Samba's discards name their suits (``discard 5C``), as its sequences do (``run 4H 5H 6H``,
``extend 7H to 4H-6H``, ``take to 4H-6H``); melds of a rank name ranks (``meld K K K``).

Going out (SA-11) needs two canastas: :func:`going_out` has seat 0 go out in its first
turn with a samba (``4H``-``10H``) and a natural canasta of aces.
"""

from __future__ import annotations

from collections import Counter

import pytest
from clauses import cards, play, rank

import meldkit
from meldkit import SetupError
from meldkit.testing import refusal, stacked_game

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
ACES = "AC AC AD AD AH AH AS"
SAMBA = "4H 5H 6H 7H 8H 9H 10H"  # a sequence of seven: a samba


# --------------------------------------------------------------------------- helpers


def points(codes) -> int:
    return sum(VALUES[rank(c)] for c in codes)


def deal(hands=None, upcard: str = "4C", stock: str = "") -> meldkit.GameState:
    """A stacked four-player game (seat 0 starts); hands as code strings by seat."""
    return stacked_game(PACK, PLAYERS, hands={s: cards(h) for s, h in (hands or {}).items()},
                        upcard=cards(upcard), stock=cards(stock))


def refused(g: meldkit.GameState, action: str) -> str:
    """The reason ``action`` is refused with (see :func:`meldkit.testing.refusal`)."""
    return refusal(g, action).code


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
    """Seat 0 lays the sequence ``run``, melds K K K and A A A (at least 105: the side has
    melded) and discards ``discard``; seats 1 to 3 draw and discard, seat 3 the card
    ``top``; seat 0 (also holding ``extra``) is to move again."""
    g = deal({0: f"{run} KC KD KH AC AD AH {extra}"}, stock="5C 5D " + others(top))
    play(g, "draw", f"run {run}", "meld K K K", "meld A A A", f"discard {discard}")
    pass_turns(g, top)
    assert (0, top) == (g.current_player, pile(g)["top"])
    return g


def going_out(form: str):
    """A game in which seat 0 is about to go out in its first turn, and the actions that
    do it: a samba (4H-10H) and a natural canasta of aces, 190 or more in cards (the
    initial minimum is 160 at most).

    ``form``: ``"discard"`` (the last card discarded) or ``"meld"`` (every card melded)."""
    g = deal({0: f"{ACES} {SAMBA} KC"}, stock="AS AC" if form == "discard" else "KD KH")
    if form == "discard":
        return g, ["draw", f"run {SAMBA}", "meld A A A A A A A A A", "discard KC"]
    return g, ["draw", f"run {SAMBA}", "meld A A A A A A A", "meld K K K"]


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
    before = Counter(g.hand_codes(0))
    play(g, "draw")  # 3D and QC: the 3D is laid out and replaced by the QD
    assert ["3H", "3D"] == g.view(0)["players"][0]["bonus"]
    assert (DEAL + DRAW, Counter({"QC": 1, "QD": 1})) == (
        hand_size(g, 0), Counter(g.hand_codes(0)) - before)


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


def test_SA_5_the_pile_is_taken_with_a_natural_pair_and_the_rest_of_it_comes_too():
    g = melded_then_round("9H", "9C 9D 2C JK")
    size, held = pile(g)["size"], hand_size(g, 0)
    assert not pile(g)["frozen"]
    assert "pile/method-not-allowed" == refused(g, "take 9 2")  # a natural and a wild card
    assert "pile/method-not-allowed" == refused(g, "take 9 JK")
    play(g, "take 9 9")
    assert ("9", 3, None) in melds(g)
    assert ({"top": None, "size": 0, "frozen": False}, held - 2 + size - 1) == (
        pile(g), hand_size(g, 0))


def test_SA_5_the_top_card_alone_goes_onto_the_sides_meld_of_its_rank():
    g = melded_then_round("KS")
    size, held = pile(g)["size"], hand_size(g, 0)
    play(g, "take")
    assert ("K", 4, None) in melds(g)
    assert (0, held + size - 1) == (pile(g)["size"], hand_size(g, 0))


def test_SA_5_the_top_card_may_make_a_meld_of_six_a_canasta():
    g = deal({0: "KC KD KH KS KC KD AC AD AH"}, stock="5C 5D " + others("KH"))
    play(g, "draw", "meld K K K K K K", "meld A A A", "discard 5C")
    pass_turns(g, "KH")
    play(g, "take")
    assert ("K", 7, "natural") in melds(g)


def test_SA_5_the_top_card_may_not_go_onto_a_canasta():
    g = deal({0: "KC KD KH KS KC KD 2C AC AD AH KS KH"}, stock="5C 5D " + others("KH"))
    play(g, "draw", "meld K K K K K K 2", "meld A A A", "discard 5C")
    pass_turns(g, "KH")
    assert ("K", 7, "mixed") in melds(g)
    assert "pile/onto-book" == refused(g, "take")
    play(g, "take K K")  # a natural pair still takes it, onto the canasta
    assert ("K", 10, "mixed") in melds(g)


@pytest.mark.parametrize("run, top, after", [("4H 5H 6H", "7H", "4H-7H"),
                                             ("5H 6H 7H", "4H", "4H-7H"),
                                             ("QH KH AH", "JH", "JH-AH")])
def test_SA_5_the_top_card_alone_extends_a_sequence_at_either_end(run, top, after):
    g = melded_then_round(top, run=run)
    ends = f"{cards(run)[0]}-{cards(run)[-1]}"
    size, held = pile(g)["size"], hand_size(g, 0)
    assert [f"take to {ends}"] == [str(a) for a in g.legal_actions() if a.type == "take"]
    play(g, f"take to {ends}")
    assert (after, 4, None) == melds(g)[0]
    assert (0, held + size - 1) == (pile(g)["size"], hand_size(g, 0))


def test_SA_5_the_top_card_may_complete_a_samba_but_not_go_onto_one():
    g = melded_then_round("10H", run="4H 5H 6H 7H 8H 9H")
    play(g, "take to 4H-9H")
    assert ("4H-10H", 7, "samba") == melds(g)[0]
    g = melded_then_round("JH", run=SAMBA)
    assert ("4H-10H", 7, "samba") == melds(g)[0]
    assert "pile/no-meld" == refused(g, "take to 4H-10H")  # a samba takes no card


def test_SA_5_the_top_card_may_not_start_a_sequence():
    g = melded_then_round("JH", "QH KH")
    assert "pile/no-meld" == refused(g, "take to JH-KH")
    assert "pile/wrong-cards" == refused(g, "take Q K")
    assert [] == [str(a) for a in g.legal_actions() if a.type == "take"]


def test_SA_5_the_top_card_may_not_join_a_card_from_the_hand_onto_a_sequence():
    g = melded_then_round("8H", "7H")  # 8H would continue 4H-6H only after the 7H
    assert "pile/wrong-cards" == refused(g, "take to 4H-6H")
    assert "pile/wrong-cards" == refused(g, "take 7 8")
    assert ["draw"] == [str(a) for a in g.legal_actions()]


def test_SA_5_the_top_card_goes_onto_a_sequence_of_its_own_suit_only():
    g = melded_then_round("7S")
    assert "pile/wrong-cards" == refused(g, "take to 4H-6H")
    assert "pile/no-meld" == refused(g, "take to 4S-6S")


def test_SA_5_a_discarded_wild_card_freezes_the_pile_for_melds_and_sequences():
    g = melded_then_round("7H", "2C 7C 7D KS", discard="2C")
    assert pile(g)["frozen"]
    assert "pile/frozen-needs-pair" == refused(g, "take to 4H-6H")
    play(g, "take 7 7")  # a natural pair still takes it
    assert [("4H-6H", 3, None), ("K", 3, None), ("A", 3, None), ("7", 3, None)] == melds(g)
    assert not pile(g)["frozen"]


def test_SA_5_the_pile_is_frozen_for_a_side_that_has_not_melded():
    g = deal({0: "9C 9D 2C KC KD"}, upcard="9H")
    assert not pile(g)["frozen"]  # not frozen by a card …
    why = g.check("take 9 2")  # … but for this side, which has not melded
    assert ("pile/frozen-needs-pair", True) == (why.code, "not melded" in why.sentence)
    assert g.check("take 9 9") is None


@pytest.mark.parametrize("top, action", [("7H", "take to 4H-6H"), ("KS", "take")])
def test_SA_5_a_single_card_may_not_take_a_single_card_pile(top, action):
    """As in Canasta (CC-15), whether onto a sequence or onto a meld of a rank."""
    g = deal({0: "4H 5H 6H KC KD KH AC AD AH QC QD QH JC JD JH", 3: f"5H 5S AC AD AH {top}"},
             stock="5C 5D 5S 6S 5S 6S")
    play(g, "draw", "run 4H 5H 6H", "meld K K K", "meld A A A", "meld Q Q Q", "meld J J J",
         "discard 5C")
    play(g, "draw", "discard 5S")  # seat 1
    play(g, "draw", "discard 5S")  # seat 2
    play(g, "take 5 5", "meld A A A", f"discard {top}")  # seat 3 leaves one card
    assert (1, {"top": top, "size": 1, "frozen": False}) == (hand_size(g, 0), pile(g))
    assert "pile/single-card" == refused(g, action)


def test_SA_5_a_black_three_on_top_stops_the_next_player_only():
    g = deal({0: "3C KC", 1: "3S 3S 7S", 2: "7C 7C"}, stock="5C 5D 5H 5S")
    play(g, "draw", "discard 3C")
    assert ("3C", False) == (pile(g)["top"], pile(g)["frozen"])
    assert "pile/blocked" == refused(g, "take 3 3")  # seat 1
    play(g, "draw", "discard 7S")  # covered
    assert (2, "7S", False) == (g.current_player, pile(g)["top"], pile(g)["frozen"])
    assert g.check("take 7 7") is None


# --------------------------------------------------------------------------- sequences
def test_SA_6_three_or_more_cards_of_one_suit_in_order_make_a_sequence():
    g = deal({0: "4H 5H 6H 7H 8H KC KD KH"}, stock="5C 5D")
    play(g, "draw", "run 4H 5H 6H 7H 8H", "meld K K K")  # 30 + 30: the initial meld
    assert [("4H-8H", 5, None), ("K", 3, None)] == melds(g)
    seq = g.view(0)["teams"][0]["melds"][0]
    assert {"rank": "run", "sequence": "4H-8H", "cards": cards("4H 5H 6H 7H 8H"),
            "closed": False, "book": None, "pending": False,
            "id": None, "owner": None, "side": 0, "kind": "run"} == seq


@pytest.mark.parametrize("action, code", [
    ("run 4H 5S 6H", "run/mixed-suits"),
    ("run 4H 6H 7H", "run/not-consecutive"),
    ("run 4H 4H 5H", "run/not-consecutive"),
    ("run 4H 5H", "run/too-small"),
    ("run 4H 5H 6H 7H 8H 9H 10H JH", "run/too-large"),
    ("run 4D 5D 6D", "meld/not-in-hand"),
    ("extend 7H to 4H-6H", "extend/no-sequence"),
])
def test_SA_6_a_sequence_is_one_suit_consecutive_and_three_to_seven_cards(action, code):
    g = deal({0: "4H 4H 5H 6H 7H 8H 9H 10H JH 5S"}, stock="5C 5D")
    play(g, "draw")
    assert code == refused(g, action)


@pytest.mark.parametrize("action, code", [
    ("run 3H 4H 5H", "run/rank"),  # threes are not in sequences
    ("run AH 4H 5H", "run/not-consecutive"),  # the ace is high only
    ("run KH AH 4H", "run/not-consecutive"),  # no turning the corner
    ("run QH KH AH", None),
    ("run 4H 5H 6H", None),
])
def test_SA_6_four_is_low_and_ace_high(action, code):
    g = deal({0: "3H 4H 5H 6H QH KH AH"}, stock="5C 5D")
    play(g, "draw")
    assert code == (refused(g, action) if code else g.check(action))


@pytest.mark.parametrize("action, code", [
    ("run 2H 4H 5H", "run/wild"),
    ("run 4H 5H 2C", "run/wild"),  # (one rule, one code: not run/mixed-suits)
    ("run 4H 5H JK", "run/wild"),
    ("extend 2H to 4H-6H", "run/wild"),
    ("extend JK to 4H-6H", "run/wild"),
])
def test_SA_6_no_wild_card_joins_a_sequence(action, code):
    g = deal({0: "4H 5H 6H 4H 5H 2H JK KC KD KH"}, stock="5C 5D")
    play(g, "draw", "run 4H 5H 6H", "meld K K K")
    assert code == refused(g, action)


def test_SA_6_either_partner_adds_at_either_end():
    g = deal({0: "6H 7H 8H KC KD KH AC AD AH", 2: "4H 5H 9H JH"},
             stock="5C 5D 5S 6S 4S 4D")
    play(g, "draw", "run 6H 7H 8H", "meld K K K", "meld A A A", "discard 5C")
    play(g, "draw", "discard 5S")  # seat 1
    play(g, "draw", "extend 5H 9H to 6H-8H")  # seat 2: one card at each end
    assert [("5H-9H", 5, None)] == melds(g)[:1]
    play(g, "extend 4H to 5H-9H")  # the low end
    assert "run/not-consecutive" == refused(g, "extend JH to 4H-9H")  # no 10H between
    assert ("4H-9H", cards("4H 5H 6H 7H 8H 9H")) == (
        g.view(0)["teams"][0]["melds"][0]["sequence"], g.view(0)["teams"][0]["melds"][0]["cards"])


def test_SA_6_seven_cards_make_a_samba_which_takes_no_more():
    g = deal({0: "4H 5H 6H 7H 8H 9H 10H JH KC KD KH"}, stock="5C 5D")
    play(g, "draw", "run 5H 6H 7H 8H 9H", "meld K K K")
    assert [("5H-9H", 5, None), ("K", 3, None)] == melds(g)
    play(g, "extend 4H 10H to 5H-9H")
    seq = g.view(0)["teams"][0]["melds"][0]
    assert ("4H-10H", 7, True, "samba") == (seq["sequence"], len(seq["cards"]), seq["closed"],
                                            seq["book"])
    assert "extend/no-sequence" == refused(g, "extend JH to 4H-10H")
    assert [] == [str(a) for a in g.legal_actions() if a.type == "extend"]


def test_SA_6_a_sequence_laid_at_seven_cards_is_a_samba_at_once():
    g = deal({0: SAMBA}, stock="5C 5D")
    play(g, "draw", f"run {SAMBA}")
    assert [("4H-10H", 7, "samba")] == melds(g)
    assert g.view(0)["teams"][0]["melds"][0]["closed"]


def test_SA_6_a_side_may_hold_several_sequences_of_one_suit_or_several():
    g = deal({0: "4H 5H 6H 4H 5H 6H 7H 4S 5S 6S"}, stock="5C 5D")
    play(g, "draw", "run 4H 5H 6H", "run 4H 5H 6H", "run 4S 5S 6S")  # 45 of 50: pending
    assert [("4H-6H", 3, None)] * 2 + [("4S-6S", 3, None)] == melds(g)
    assert [True] * 3 == [m["pending"] for m in g.view(0)["teams"][0]["melds"]]
    play(g, "extend 7H to 4H-6H")  # 50: the initial meld is made
    assert [("4H-7H", 4, None), ("4H-6H", 3, None), ("4S-6S", 3, None)] == melds(g)
    assert g.view(0)["teams"][0]["melded"]


# --------------------------------------------------------------------------- melds of a rank
def test_SA_7_a_meld_of_a_rank_needs_two_naturals_and_takes_at_most_two_wild_cards():
    g = deal({0: "KC KD KH KS 2C 2D JK AC AD AH"}, stock="5C 5D")
    play(g, "draw")
    assert "meld/too-few-naturals" == refused(g, "meld K 2 JK")
    assert "meld/too-many-wilds" == refused(g, "meld K K K 2 2 JK")
    play(g, "meld K K K 2 JK")
    assert "meld/too-many-wilds" == refused(g, "add 2 to K")  # not later either
    play(g, "add K to K")
    assert [("K", 6, None)] == melds(g)


def test_SA_7_a_canasta_takes_no_third_wild_card():
    g = deal({0: f"{NINES} 2C 2D JK"}, stock="5C 5D")
    play(g, "draw", "meld 9 9 9 9 9 9 9", "add 2 2 to 9")
    assert [("9", 9, "mixed")] == melds(g)
    assert "meld/too-many-wilds" == refused(g, "add JK to 9")


def test_SA_7_wild_cards_are_never_melded_on_their_own():
    g = deal({0: "2C 2D JK KC KD KH AC AD AH"}, stock="5C 5D")
    play(g, "draw")
    assert "meld/wild-melds-not-allowed" == refused(g, "meld 2 2 JK")
    play(g, "meld K K K", "meld A A A")
    assert "meld/wild-melds-not-allowed" == refused(g, "meld 2 2 JK")


def test_SA_7_black_threes_are_melded_only_by_a_player_going_out():
    g = deal({0: f"{NINES} {SAMBA} 3C"}, stock="3S 3C")
    play(g, "draw")
    assert "meld/only-going-out" == refused(g, "meld 3 3 3")
    play(g, f"run {SAMBA}")
    assert "meld/only-going-out" == refused(g, "meld 3 3 3")  # it would leave seven 9s
    play(g, "meld 9 9 9 9 9 9 9", "meld 3 3 3")  # every card melded: out
    assert ("went_out", 0) == (g.last_hand.ended_by, g.last_hand.went_out)
    assert 50 + 70 + 15 == g.last_hand.scores[0].melded_cards


# --------------------------------------------------------------------------- canastas
def test_SA_8_seven_cards_of_a_rank_make_a_natural_or_a_mixed_canasta():
    g = deal({0: "KC KD KH KS KC KD KH 9C 9D 9H 9S 9C 2C JK"}, stock="5C 5D")
    play(g, "draw", "meld K K K K K K", "meld 9 9 9 9 9 2")
    assert [("K", 6, None), ("9", 6, None)] == melds(g)  # six cards: not yet
    play(g, "add K to K", "add JK to 9")
    assert [("K", 7, "natural"), ("9", 7, "mixed")] == melds(g)


def test_SA_8_a_samba_is_a_canasta_of_its_own_kind():
    g = deal({0: f"{SAMBA} KC KD KH"}, stock="5C 5D")
    play(g, "draw", "run 4H 5H 6H 7H 8H 9H", "meld K K K")
    assert [("4H-9H", 6, None), ("K", 3, None)] == melds(g)  # six cards: not yet
    play(g, "extend 10H to 4H-9H")
    assert ("4H-10H", 7, "samba") == melds(g)[0]
    g._end_hand("stock_empty", None)
    assert (("samba",), 1500) == (g.hand_results[-1].scores[0].book_kinds,
                                  g.hand_results[-1].scores[0].books)


def test_SA_8_a_samba_counts_toward_going_out_as_a_canasta():
    g, acts = going_out("meld")
    play(g, *acts)
    assert ("went_out", ("samba", "natural")) == (g.last_hand.ended_by,
                                                   g.last_hand.scores[0].book_kinds)


# --------------------------------------------------------------------------- two melds of a rank
def test_SA_9_cards_of_a_rank_go_onto_the_sides_one_meld_even_after_it_is_a_canasta():
    """meldkit's reading (docs/games/samba.md): one meld of each rank, which keeps growing."""
    g = deal({0: "KC KC KC KD KD KD KH KH KH KS KS KS 2C JK"}, stock="5C 5D")
    play(g, "draw", "meld K K K K K K K")
    assert [("K", 7, "natural")] == melds(g)
    assert "meld/open-meld-exists" == refused(g, "meld K K K")  # a second meld of Ks …
    play(g, "add K K K K K to K")  # … is combined with the first at once
    assert [("K", 12, "natural")] == melds(g)
    play(g, "add 2 JK to K")
    assert [("K", 14, "mixed")] == melds(g)
    g._end_hand("stock_empty", None)
    assert (("mixed",), 300) == (g.hand_results[-1].scores[0].book_kinds,
                                 g.hand_results[-1].scores[0].books)


def test_SA_9_partners_add_to_the_same_meld_of_a_rank():
    g = deal({0: "KC KD KH AC AD AH", 2: "KS KC KD"}, stock="5C 5D 5S 6S 4S 4D")
    play(g, "draw", "meld K K K", "meld A A A", "discard 5C")
    play(g, "draw", "discard 5S")  # seat 1
    play(g, "draw")  # seat 2
    assert "meld/open-meld-exists" == refused(g, "meld K K K")
    play(g, "add K K K to K")
    assert [("K", 6, None), ("A", 3, None)] == melds(g)


# --------------------------------------------------------------------------- initial meld
@pytest.mark.parametrize("score, minimum", [(-10, 15), (-1, 15), (0, 50), (1495, 50),
                                            (1500, 90), (2995, 90), (3000, 120), (6995, 120),
                                            (7000, 160), (9995, 160)])
def test_SA_10_initial_meld_minimum_by_the_sides_score(score, minimum):
    g = deal()
    g.scores[0] = score
    assert (minimum, 50) == (g.initial_minimum(0), g.initial_minimum(1))


@pytest.mark.parametrize("score, melded", [(-10, True), (0, False)])
def test_SA_10_fifteen_is_enough_while_the_side_is_below_zero(score, melded):
    g = deal({0: "4C 4D 4H KC"}, stock="5C 5D")
    g.scores[0] = score
    play(g, "draw", "meld 4 4 4")  # 15
    assert melded == g.view(0)["teams"][0]["melded"]
    if not melded:  # pending: the turn may not end on it
        assert "discard/initial-meld-pending" == refused(g, "discard KC")


@pytest.mark.parametrize("score, melds_, melded", [
    (0, [f"run {SAMBA}"], True),  # 50: the cards count …
    (1500, [f"run {SAMBA}"], False),  # … but not the samba's 1,500
    (0, ["run 4H 5H 6H 7H 8H", "meld K K K"], True),  # 30 + 30 = 60
    (1500, ["run 4H 5H 6H 7H 8H", "meld K K K"], False),  # 60 of 90
    (1500, ["run 4H 5H 6H 7H 8H", "meld K K K", "meld A A A"], True),  # 120
    (7000, ["run 4H 5H 6H 7H 8H", "meld K K K", "meld A A A"], False),  # 120 of 160
    (7000, ["run 4H 5H 6H 7H 8H", "meld K K K", "meld A A A JK"], True),  # 170
])
def test_SA_10_sequences_count_toward_the_minimum(score, melds_, melded):
    g = deal({0: f"{SAMBA} KC KD KH AC AD AH JK"}, stock="5C 5D")
    g.scores[0] = score
    play(g, "draw", *melds_)
    assert melded == g.view(0)["teams"][0]["melded"]


@pytest.mark.parametrize("score, melded", [(0, True), (1500, False)])
def test_SA_10_the_top_of_a_pile_taken_counts_toward_the_minimum(score, melded):
    g = deal({0: "AC AD KC"}, upcard="AH")
    g.scores[0] = score
    play(g, "take A A")  # 60 with the AH, 40 without it
    assert (melded, [("A", 3, None)]) == (g.view(0)["teams"][0]["melded"], melds(g))


@pytest.mark.parametrize("score, last", [
    (7000, "meld 4 4 4"),  # 135 of 160: the last cards would leave a hand of none
    (1500, "run 4H 5H 6H 7H 8H 9H 10H"),  # a sequence, 135 of 90 … but not the last cards
])
def test_SA_10_melds_toward_the_minimum_never_leave_an_empty_hand_below_it(score, last):
    # the hand melded to its last card, short of the minimum, could only be withdrawn: it is
    # refused, and legal_actions never offers it (the sheet: a play leaving no card must
    # take the player out)
    g = deal({0: "4H 5H 6H 7H 8H 9H 10H KS KD KC KH KS KD 4S 4D"}, stock="KC 4C")
    g.scores[0] = score
    melds_ = ["run 4H 5H 6H 7H 8H 9H 10H", "meld K K K K K K K", "meld 4 4 4"]
    play(g, "draw", *[m for m in melds_ if m != last])
    why = g.check(last)
    legal = [str(a) for a in g.legal_actions()]
    if score == 7000:
        assert ("hand/keep-a-card", True, False, True) == (
            why.code, "your melds at 135 of the 160" in why.sentence, last in legal,
            "withdraw" in legal)
        from meldkit.rulesheet import rules_sheet

        assert "would leave the player no card must reach it." in rules_sheet(PACK)
    else:  # 135 reaches 90: melding out then needs the books to go out (it has them)
        assert last in legal
        play(g, last)
        assert ("went_out", 0) == (g.last_hand.ended_by, g.last_hand.went_out)


def test_SA_10_the_pile_is_not_taken_with_the_last_cards_below_the_minimum():
    # hands of two cards that never grow (one drawn, one discarded), so that a pair taking
    # the pile is a hand's last cards
    p = meldkit.load_pack_text("name: v\nextends: samba\ndeal: {hand: 2}\nturn: {draw: 1}\n")
    g = stacked_game(p, PLAYERS, hands={0: ["9C", "KS"], 1: ["9S", "9D"]}, upcard=["4C"],
                     stock=["5S", "6S"])
    play(g, "draw", "discard 9C")  # seat 1's side has not melded: 30 of 50
    assert "hand/keep-a-card" == refused(g, "take 9 9")
    assert ["draw"] == [str(a) for a in g.legal_actions()]


# --------------------------------------------------------------------------- going out
@pytest.mark.parametrize("form", ["discard", "meld"])
def test_SA_11_going_out_with_two_canastas_by_discarding_or_melding_every_card(form):
    g, acts = going_out(form)
    play(g, *acts)
    assert ("went_out", 0) == (g.last_hand.ended_by, g.last_hand.went_out)
    assert ("samba", "natural") == g.last_hand.scores[0].book_kinds
    assert () == g.last_hand.final.hands[0]


def test_SA_11_going_out_by_extending_a_sequence_into_the_second_canasta():
    g = deal({0: f"{ACES} 4H 5H 6H 7H 8H KC KD KH"}, stock="9H 10H")
    play(g, "draw", "meld A A A A A A A", "meld K K K", "run 4H 5H 6H 7H 8H")
    assert "hand/keep-a-card" == refused(g, "extend 9H to 4H-8H")  # one canasta so far
    play(g, "extend 9H 10H to 4H-8H")  # the samba, with the last cards
    assert ("went_out", ("natural", "samba")) == (g.last_hand.ended_by,
                                                   g.last_hand.scores[0].book_kinds)


@pytest.mark.parametrize("form, draw, last, code", [
    ("discard", "QH 5C", "meld Q Q Q", "hand/keep-a-card"),
    ("meld", "QH QS", "meld Q Q Q Q", "out/needs-books"),
])
def test_SA_11_one_canasta_is_not_enough_to_go_out(form, draw, last, code):
    g = deal({0: f"{NINES} AC AD AH KC KD KH QC QD"}, stock=draw)
    play(g, "draw", "meld 9 9 9 9 9 9 9", "meld A A A", "meld K K K")
    why = g.check(last)  # it would leave no card, or one to discard
    assert (code, True) == (why.code, "needs 2 books to go out (it has 1)" in why.sentence)
    assert code == refused(g, last)


def test_SA_11_going_out_concealed_scores_200_and_no_more():
    g, acts = going_out("discard")
    play(g, *acts)
    assert (True, 200) == (g.last_hand.final.concealed, g.last_hand.scores[0].going_out)


def test_SA_11_going_out_after_melding_on_an_earlier_turn_scores_200_too():
    g = deal({0: f"AC AD AH AS {NINES} 4H 5H 6H 7H"}, stock="10H 5D " + others() + " 8H 9H")
    play(g, "draw", "meld A A A A", "discard 5D")  # seat 0 melds (80) …
    pass_turns(g)
    play(g, "draw", f"run {SAMBA}", "meld 9 9 9 9 9 9 9")  # … and goes out a turn later
    assert ("went_out", False, 200) == (g.last_hand.ended_by, g.last_hand.final.concealed,
                                        g.last_hand.scores[0].going_out)


@pytest.mark.parametrize("short, over", [(500, True), (3000, False)])
def test_SA_11_the_game_ends_after_the_hand_in_which_a_side_reaches_10000(short, over):
    g, acts = going_out("discard")
    g.scores[0] = TARGET - short
    play(g, *acts)
    assert g.last_hand.totals[0] > 2000  # the samba alone is 1,500
    assert (over, 0 if over else None, 1 if over else 2) == (g.is_over, g.winner, g.hand_number)


# --------------------------------------------------------------------------- scoring
@pytest.mark.parametrize("nines, draw, books, kinds", [
    (NINES, "9S 9C", 1500 + 500, ("samba", "natural")),
    ("9C 9C 9D 9D 9H 9S 2C", "9S JK", 1500 + 300, ("samba", "mixed")),
])
def test_SA_12_a_hand_scores_canastas_melded_cards_going_out_and_cards_left(
        nines, draw, books, kinds):
    g = deal({0: f"{nines} {SAMBA} AC"}, stock=draw)
    melded = cards(SAMBA) + cards(nines) + cards(draw)
    play(g, "draw", f"run {SAMBA}", "meld " + " ".join(rank(c) for c in cards(nines + " " + draw)),
         "discard AC")
    result = g.hand_results[-1]
    ours, theirs = result.scores
    left = {t: [g.card_code(c) for q, h in enumerate(result.final.hands) if g.team_of[q] == t
                for c in h] for t in (0, 1)}
    assert (15, 30) == (len(left[0]), len(left[1]))  # the partner's cards count against us
    assert (books, kinds, points(melded), -points(left[0]), 200, 0) == (
        ours.books, ours.book_kinds, ours.melded_cards, ours.hand_cards, ours.going_out,
        ours.bonus_cards)
    assert (0, 0, -points(left[1]), 0) == (theirs.books, theirs.melded_cards,
                                           theirs.hand_cards, theirs.going_out)
    assert (books + points(melded) - points(left[0]) + 200, -points(left[1])) == result.totals
    assert list(result.totals) == g.scores


def test_SA_12_each_samba_scores_1500():
    g = deal({0: f"{SAMBA} 4S 5S 6S 7S 8S 9S 10S KC"}, stock="KD KH")
    play(g, "draw", f"run {SAMBA}", "run 4S 5S 6S 7S 8S 9S 10S", "meld K K K")  # out
    ours = g.last_hand.scores[0]
    assert (("samba", "samba"), 3000, 50 + 50 + 30, 200) == (
        ours.book_kinds, ours.books, ours.melded_cards, ours.going_out)


def test_SA_12_sequences_score_their_cards_like_melds():
    g = deal({0: "4H 5H 6H 7H 8H QS KS AS KC KD KH"}, stock="5C 5D")
    play(g, "draw", "run 4H 5H 6H 7H 8H", "run QS KS AS", "meld K K K")
    g._end_hand("stock_empty", None)
    assert 30 + 40 + 30 == g.hand_results[-1].scores[0].melded_cards


@pytest.mark.parametrize("held, value", [(1, 100), (3, 300), (4, 400), (5, 500), (6, 1000)])
@pytest.mark.parametrize("meld", [True, False])
def test_SA_12_red_threes_score_100_each_and_all_six_of_one_side_1000(held, value, meld):
    threes = ["3H", "3D", "3H", "3D", "3H", "3D"][:held]
    g = deal({0: " ".join(threes[:3]) + " KC KD KH AC AD AH", 2: " ".join(threes[3:])},
             stock="5C 5D 5H 5S 6C 6D 6H 6S")
    assert held == sum(len(g.view(0)["players"][q]["bonus"]) for q in (0, 2))
    play(g, "draw")
    if meld:
        play(g, "meld K K K", "meld A A A")
    g._end_hand("stock_empty", None)
    assert (value if meld else -value) == g.hand_results[-1].scores[0].bonus_cards


# --------------------------------------------------------------------------- end of a hand
def _stock_run_down(seed: int) -> meldkit.GameState:
    """A game in which every player draws and discards a card it drew until the stock is
    empty."""
    g = meldkit.new_game(PACK, players=4, seed=seed)
    while g.stock and not g.hand_results:
        p = g.current_player
        before = Counter(g.hand_codes(p))
        play(g, "draw")
        drawn = Counter(g.hand_codes(p)) - before
        plain = [c for c in drawn if c != "JK" and rank(c) not in ("2", "3")]
        play(g, f"discard {(plain or g.hand_codes(p))[0]}")
    return g


def test_SA_13_the_hand_ends_when_the_stock_is_empty_and_the_pile_is_not_taken():
    g = _stock_run_down(5)
    assert not g.hand_results and not g.stock
    assert "end" in [str(a) for a in g.legal_actions()]
    play(g, "end")
    assert ("stock_empty", None, 1) == (g.last_hand.ended_by, g.last_hand.went_out,
                                         len(g.hand_results))
    assert 0 == g.last_hand.scores[0].going_out


def test_SA_13_with_the_stock_empty_the_player_may_take_the_pile_and_play_on():
    for seed in range(10):
        g = _stock_run_down(seed)
        takes = [a for a in g.legal_actions() if a.type == "take"]
        if takes:
            break
    assert takes, "no seed gave a pile to take"
    play(g, str(takes[0]))
    assert ([], 0) == (g.hand_results, len(g.stock))


def test_SA_13_the_hand_ends_when_a_player_goes_out():
    g, acts = going_out("meld")
    play(g, *acts)
    assert (1, "went_out", 2) == (len(g.hand_results), g.last_hand.ended_by, g.hand_number)
