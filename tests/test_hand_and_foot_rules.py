"""Hand and Foot, clause by clause (``docs/games/hand_and_foot.md``, HF-1 … HF-13).

Each scenario deals a stacked deck (:func:`meldkit.testing.stacked_game`: seat 0 starts,
every card not named is a plain filler; seats 0 and 2 are partners), plays scripted actions
in notation and checks exact outcomes.

The script :func:`to_the_brink` brings seat 0 to the turn in which it can go out: it melds
its hand out in its first turn (picking up its foot), two clean books and a dirty one from
hand and foot, and its partner adds the second dirty book.
"""

from __future__ import annotations

import pytest
from clauses import cards, play, rank

import meldkit
from meldkit import SetupError
from meldkit.testing import refusal, stacked_game

PACK = "hand_and_foot"
VALUES = {"JK": 50, "A": 20, "2": 20, "K": 10, "Q": 10, "J": 10, "10": 10, "9": 10, "8": 10,
          "7": 5, "6": 5, "5": 5, "4": 5, "3": 5}
"""HF-12, written out here so that the tests do not read the pack."""

NINES = "9C 9C 9D 9D 9H 9H 9S"


def points(codes) -> int:
    return sum(VALUES[rank(c)] for c in codes)


def deal(hands=None, feet=None, upcard: str = "4C", stock: str = "") -> meldkit.GameState:
    """A stacked four-player game (seat 0 starts)."""
    return stacked_game(PACK, 4, hands={s: cards(h) for s, h in (hands or {}).items()},
                        reserves={s: cards(h) for s, h in (feet or {}).items()},
                        upcard=cards(upcard), stock=cards(stock))


def refused(g: meldkit.GameState, action: str):
    """The reason ``action`` is refused with (see :func:`meldkit.testing.refusal`)."""
    return refusal(g, action)


def seat(g: meldkit.GameState, q: int) -> dict:
    return g.view(0)["players"][q]


def melds(g: meldkit.GameState, team: int) -> list[tuple[str, int, str | None, bool]]:
    return [(m["rank"], len(m["cards"]), m["book"], m["closed"])
            for m in g.view(0)["teams"][team]["melds"]]


FOOT = "8H 7C 7D 7H 7S 2C 2D JK 5C 5D 5H"
"""Seat 0's foot in :func:`to_the_brink`: an 8 for the 8s, a dirty book of 7s, three 5s."""


def to_the_brink(foot: str = FOOT, partner_book: bool = True, eights_wild: bool = False,
                 last_draw: str = "5S 9C"):
    """Seat 0's side ends up with clean 9s and 8s (dirty 8s with ``eights_wild``) and dirty
    7s; its partner adds dirty 6s (``partner_book``); seat 0, foot picked up, holds 5 5 and
    has drawn ``last_draw`` and is to play."""
    g = deal(hands={0: f"{NINES} 8C 8C 8D 8D", 2: "6C 6D 6H 6S 2H JK JK 4D"},
             feet={0: foot},
             stock=f"8C 8D 4S 4H 4D 4C 4S 4H {last_draw}")
    play(g, "draw", "meld 9 9 9 9 9 9 9", "meld 8 8 8 8 8 8")  # the hand played out
    assert seat(g, 0)["reserve_picked_up"] and 0 == g.current_player
    play(g, "add JK to 8" if eights_wild else "add 8 to 8", "meld 7 7 7 7 2 2 JK", "discard 5")
    play(g, "draw", "discard 4")                                    # seat 1
    if partner_book:
        play(g, "draw", "meld 6 6 6 6 2 JK JK", "discard 4")       # seat 2
    else:
        play(g, "draw", "discard 4")
    play(g, "draw", "discard 4")                                    # seat 3
    play(g, "draw")                                                 # seat 0: 5 5 5S 9C
    return g


# --------------------------------------------------------------------------- the table
def test_HF_1_four_players_in_two_partnerships_with_five_decks():
    g = meldkit.new_game(PACK, players=4, seed=1)
    assert [0, 1, 0, 1] == g.team_of
    assert 270 == sum(len(z) for z in g.zone_cards().values())
    meldkit.new_game(PACK, players=4, deck_order=["JK"] * 10)
    with pytest.raises(SetupError):
        meldkit.new_game(PACK, players=4, deck_order=["JK"] * 11)


@pytest.mark.parametrize("players", [2, 3, 5, 6])
def test_HF_1_other_counts_are_not_played(players):
    with pytest.raises(SetupError):
        meldkit.new_game(PACK, players=players)


def test_HF_2_a_hand_of_eleven_and_a_face_down_foot_of_eleven():
    g = meldkit.new_game(PACK, players=4, seed=2)
    assert [(11, 11, False)] * 4 == [(p["hand_size"], p["reserve_size"], p["reserve_picked_up"])
                                     for p in g.view(0)["players"]]
    assert "hand" not in g.view(1)["players"][0]  # another seat's cards are never shown


@pytest.mark.parametrize("upcard", ["3H KC", "2C KC", "JK KC"])
def test_HF_2_a_red_three_or_wild_upcard_is_covered(upcard):
    assert "KC" == deal(upcard=upcard).view(0)["pile"]["top"]


def test_HF_3_red_threes_are_laid_out_and_replaced():
    g = deal(hands={0: "3H KC"}, stock="QS 3D QC QD")
    assert (["3H"], 11) == (seat(g, 0)["bonus"], seat(g, 0)["hand_size"])
    play(g, "draw")
    assert (["3H", "3D"], 13) == (seat(g, 0)["bonus"], seat(g, 0)["hand_size"])


def test_HF_3_threes_are_never_melded():
    g = deal(hands={0: "3C 3C 3S KC KD KH"}, stock="5C 5D")
    play(g, "draw")
    assert "meld/unmeldable-rank" == refused(g, "meld 3 3 3").code


def test_HF_4_draw_two_cards_and_discard_one():
    g = deal(stock="QC QD")
    play(g, "draw")
    assert 13 == seat(g, 0)["hand_size"]
    play(g, "discard Q")
    assert (1, 12) == (g.current_player, seat(g, 0)["hand_size"])


def test_HF_5_melds_need_two_naturals_and_at_most_three_wild_cards():
    g = deal(hands={0: "KC KD 2C 2D JK JK"}, stock="5C 5D")
    play(g, "draw")
    assert "meld/too-few-naturals" == refused(g, "meld K 2 JK").code
    assert "meld/too-many-wilds" == refused(g, "meld K K 2 2 JK JK").code
    assert "meld/wild-melds-not-allowed" == refused(g, "meld 2 2 JK").code
    play(g, "meld K K 2 2 JK")
    assert [("K", 5, None, False)] == melds(g, 0)


def test_HF_6_a_book_of_seven_is_closed_and_a_new_meld_of_its_rank_may_start():
    g = deal(hands={0: f"{NINES} 9S 9C 9D"}, stock="5C 5D")
    play(g, "draw", "meld 9 9 9 9 9 9 9")
    assert [("9", 7, "clean", True)] == melds(g, 0)
    assert "add/no-meld" == refused(g, "add 9 to 9").code
    play(g, "meld 9 9 9")
    assert [("9", 7, "clean", True), ("9", 3, None, False)] == melds(g, 0)


def test_HF_6_clean_books_score_500_and_dirty_300():
    g = deal(hands={0: "9C 9C 9D 9D 9H 9H 9S 8C 8D 8H 8S"}, stock="2C JK")
    play(g, "draw", "meld 9 9 9 9 9 9 9", "meld 8 8 8 8 2 JK")
    g._end_hand("stock_empty", None)
    s = g.hand_results[0].scores[0]
    assert (("clean",), 500) == (s.book_kinds, s.books)
    g = deal(hands={0: "9C 9C 9D 9D 9H 2C JK 8C"}, stock="5C 5D")
    play(g, "draw", "meld 9 9 9 9 9 2 JK")
    g._end_hand("stock_empty", None)
    s = g.hand_results[0].scores[0]
    assert (("dirty",), 300) == (s.book_kinds, s.books)


# --------------------------------------------------------------------------- initial meld
def test_HF_7_the_initial_minimum_rises_with_the_hand_50_90_120_150():
    g = meldkit.new_game(PACK, players=4, seed=3)
    seen = []
    for _ in range(4):
        seen.append((g.hand_number, g.initial_minimum(0), g.initial_minimum(1)))
        g._end_hand("stock_empty", None)
    assert [(1, 50, 50), (2, 90, 90), (3, 120, 120), (4, 150, 150)] == seen


def test_HF_7_melds_below_the_minimum_are_pending():
    g = deal(hands={0: "KC KD KH QC QD QH"}, stock="5C 5D")
    play(g, "draw", "meld K K K")
    assert "discard/initial-meld-pending" == refused(g, "discard 5").code
    play(g, "meld Q Q Q")
    assert g.view(0)["teams"][0]["melded"]


def test_HF_7_of_a_pile_taken_only_the_top_card_counts():
    g = deal(hands={0: "KD KH QC QD QH"}, upcard="2C 2D 2H 2S JK KC")
    play(g, "take K K")  # 30: the wild cards beneath do not count
    why = refused(g, "discard Q")
    assert ("discard/initial-meld-pending", "your melds total 30 of the 50 needed") == (
        why.code, why.sentence.split(":")[0])
    assert 9 == seat(g, 0)["hand_size"]  # the cards beneath come once the minimum is met
    play(g, "meld Q Q Q")  # 60
    assert (True, 11) == (g.view(0)["teams"][0]["melded"], seat(g, 0)["hand_size"])


# --------------------------------------------------------------------------- the pile
def test_HF_8_the_pile_is_taken_only_with_a_natural_pair():
    g = deal(hands={0: "7C 7D JK KC KD KH"}, upcard="7H")
    assert "pile/method-not-allowed" == refused(g, "take 7 JK").code
    assert "pile/needs-cards" == refused(g, "take").code
    assert g.check("take 7 7") is None


def test_HF_8_a_three_on_top_cannot_be_taken():
    g = deal(hands={0: "3S 3S KC"}, upcard="3C")
    assert "pile/blocked" == refused(g, "take 3 3").code


@pytest.mark.parametrize("wild", ["2", "JK"])
def test_HF_8_a_wild_card_on_top_cannot_be_taken(wild):
    g = deal(hands={0: f"{wild}C KC" if wild == "2" else "JK KC", 1: f"{wild}D {wild}D"
                    if wild == "2" else "JK JK"}, stock="5C 5D 5H 5S")
    play(g, "draw", f"discard {wild}")
    assert "pile/top-wild" == refused(g, f"take {wild} {wild}").code


def test_HF_8_only_the_top_seven_cards_are_taken():
    # ten cards in the pile: nine wild cards turned up, covered by a king
    g = deal(hands={0: "KD KH QC QD QH"}, upcard="2C 2D 2H 2S JK JK 2C 2D 2H KC")
    assert 10 == g.view(0)["pile"]["size"]
    held = seat(g, 0)["hand_size"]
    play(g, "take K K", "meld Q Q Q")  # the initial meld: 30 + 30
    assert held - 2 - 3 + 6 == seat(g, 0)["hand_size"]  # the king melded and six beneath
    assert {"size": 3, "frozen": True} == {k: g.view(0)["pile"][k] for k in ("size", "frozen")}


# --------------------------------------------------------------------------- the foot
def test_HF_9_melding_the_last_card_picks_up_the_foot_and_play_goes_on():
    g = deal(hands={0: "KC KD KH QC QD QH JC JD JH 10C 10D"}, feet={0: "AC AD AH 5C"},
             stock="10H 10S")
    play(g, "draw", "meld K K K", "meld Q Q Q", "meld J J J", "meld 10 10 10 10")
    assert (True, 11, 0, "play") == (seat(g, 0)["reserve_picked_up"], seat(g, 0)["hand_size"],
                                     g.current_player, g.phase)
    play(g, "meld A A A")  # the foot is played in the same turn
    assert ("A", 3, None, False) in melds(g, 0)


def test_HF_9_discarding_the_last_card_picks_up_the_foot_for_the_next_turn():
    g = deal(hands={0: "KC KD KH QC QD QH JC JD JH 10C 10D"}, stock="10H 5C")
    play(g, "draw", "meld K K K", "meld Q Q Q", "meld J J J", "meld 10 10 10", "discard 5")
    assert (True, 11, 1) == (seat(g, 0)["reserve_picked_up"], seat(g, 0)["hand_size"],
                             g.current_player)
    assert [] == g.hand_results  # not going out


def test_HF_9_the_foot_is_not_picked_up_otherwise():
    g = deal(stock="5C 5D")
    assert "reserve/not-now" == refused(g, "pickup").code


# --------------------------------------------------------------------------- going out
def test_HF_10_two_clean_and_two_dirty_books_and_the_foot_then_going_out():
    g = to_the_brink()
    assert ["clean", "clean", "dirty", "dirty"] == sorted(
        b for _, _, b, _ in melds(g, 0) if b)
    play(g, "meld 5 5 5", "discard 9")
    assert ("went_out", 0) == (g.last_hand.ended_by, g.last_hand.went_out)


def test_HF_10_one_dirty_book_short_is_refused_and_named():
    g = to_the_brink(partner_book=False)
    why = refused(g, "meld 5 5 5")  # it would leave one card, whose discard goes out
    assert "needs a dirty book before going out" in why.sentence


def test_HF_10_a_repeated_kind_means_that_many_books_one_clean_and_three_dirty_is_not_enough():
    g = to_the_brink(foot=FOOT.replace("8H", "JK"), eights_wild=True)
    assert ["clean", "dirty", "dirty", "dirty"] == sorted(b for _, _, b, _ in melds(g, 0) if b)
    why = refused(g, "meld 5 5 5")
    assert "needs a clean book before going out" in why.sentence


def test_HF_10_the_last_card_is_discarded_not_melded():
    g = to_the_brink(last_draw="5S 5C")  # seat 0 holds four 5s and the four books
    why = refused(g, "meld 5 5 5 5")
    assert ("hand/keep-a-card", "you must keep a card to discard") == (why.code, why.sentence)
    play(g, "meld 5 5 5", "discard 5")
    assert ("went_out", 0) == (g.last_hand.ended_by, g.last_hand.went_out)


def test_HF_11_the_hand_ends_when_the_stock_is_empty_and_the_pile_is_not_taken():
    g = meldkit.new_game(PACK, players=4, seed=5)
    while g.stock and not g.hand_results:
        p = g.current_player
        play(g, "draw")
        if not g.hand_results:
            play(g, f"discard {rank(g.hand_codes(p)[-1])}")
    if not g.hand_results:
        assert "end" in [str(a) for a in g.legal_actions()]
        play(g, "end")
    assert ("stock_empty", None) == (g.last_hand.ended_by, g.last_hand.went_out)


# --------------------------------------------------------------------------- scoring
def test_HF_12_books_cards_going_out_and_hands_and_feet_left_count_against():
    g = to_the_brink()
    play(g, "meld 5 5 5", "discard 9")
    final = g.last_hand.final
    ours, theirs = g.last_hand.scores
    melded = [g.card_code(c) for _, ids in final.melds[0] for c in ids]
    left = [g.card_code(c) for c in final.hands[2]]  # the partner's hand …
    foot = [g.card_code(c) for c in final.reserves[2]]  # … and foot count against the side
    assert (1600, points(melded), -points(left), -points(foot), 100) == (
        ours.books, ours.melded_cards, ours.hand_cards, ours.reserve_cards, ours.going_out)
    held = [g.card_code(c) for q in (1, 3) for c in final.hands[q]]
    feet = [g.card_code(c) for q in (1, 3) for c in final.reserves[q]]
    assert (0, -points(held), -points(feet), 0) == (
        theirs.books, theirs.hand_cards, theirs.reserve_cards, theirs.going_out)
    assert 22 == len(feet)


def test_HF_12_red_threes_score_100_each():
    g = deal(hands={0: "3H 3D KC KD KH QC QD QH"}, stock="5C 5D 5H 5S")
    play(g, "draw", "meld K K K", "meld Q Q Q")
    g._end_hand("stock_empty", None)
    assert 200 == g.hand_results[0].scores[0].bonus_cards


def test_HF_13_four_hands_make_a_game_whatever_the_scores():
    g = meldkit.new_game(PACK, players=4, seed=6)
    g.scores[0] = 10**6  # far beyond any target: the game still lasts four hands
    over = []
    for _ in range(4):
        g._end_hand("stock_empty", None)
        over.append(g.is_over)
    assert [False, False, False, True] == over
    assert 4 == len(g.hand_results)
