"""Knocking before drawing (``knock.before_draw: true``; Tonk's drop, Chinchón's close): a
player may knock at the start of their turn, on the hand they hold, with no discard, when
its deadwood is at most the knock value; the knocker lays melds from that hand, the
defenders lay off and meld as after any knock, and the knock settles by ``knock.settle``.
The knock after drawing, with a discard, stays allowed."""

from __future__ import annotations

import pytest
from knock_play import bot_games

import meldkit
from meldkit import RulePackError
from meldkit.testing import check_conformance, refusal, stacked_game

TONKISH = ("extends: gin_rummy\nname: tonkish\nplayers: {min: 2, max: 4}\n"
           "knock: {settle: lowest, before_draw: true}\n")
"""Gin rummy for two to four, the lowest count settling, knocking before drawing allowed."""

DEALER_LEFT = "9C 9D 9H JD QC QS 2H 3H 6D 4S"  # seat 0: the 9s melded, the 4S laid off: 41
KNOCKER = "AS 2S 3S 7C 7D 7H KC KD KH 2D"      # seat 1: three melds and the 2D (2)
LAST = "5S 8C 8D 8H AD AH 4C 5C 6C 3D"          # seat 2: the 8s and 4C-6C melded: 10


def saved(g):
    return meldkit.GameState.from_json(g.to_json(), pack=g.pack)


def legal(g) -> list[str]:
    return sorted(str(a) for a in g.legal_actions())


def at_seat_1s_turn(pack=TONKISH, seat_1=KNOCKER, seat_0=DEALER_LEFT, seat_2=LAST):
    """Three players: the upcard is passed round, seat 0 draws the QD and discards it;
    seat 1 is to draw (the 10C on the stock)."""
    if isinstance(pack, str):
        pack = meldkit.load_pack_text(pack)
    g = stacked_game(pack, 3, hands={0: seat_0.split(), 1: seat_1.split(),
                                     2: seat_2.split()}, upcard="KS", stock=["QD", "10C"])
    for move in ("pass", "pass", "pass", "draw", "discard QD"):
        g.apply(move)
    assert (g.phase, g.current_player) == ("draw", 1)
    return g


def play(g, moves):
    """Apply ``moves``, checking after each that the game saves and loads as it is."""
    for move in moves:
        assert g.check(move) is None, (move, g.check(move))
        g.apply(move)
        assert saved(g).to_json() == g.to_json()


def test_a_player_knocks_before_drawing_and_the_lowest_count_collects_from_everyone():
    g = at_seat_1s_turn()
    assert legal(g) == ["draw", "knock", "take"]
    zones = g.zone_cards()
    play(g, ["knock"])
    # no card drawn nor discarded: the knocker lays melds from the ten cards held
    assert (g.phase, g.current_player) == ("knock", 1)
    assert g.zone_cards() == zones
    assert legal(g) == ["meld 7C 7D 7H", "meld AS 2S 3S", "meld KC KD KH"]
    why = refusal(g, "discard 2D")
    assert (why.code, why.sentence) == ("knock/discard", "a knocker discards one card, and "
                                        "one who knocked before drawing none: lay your "
                                        "melds, then say done")
    play(g, ["meld AS 2S 3S", "meld 7C 7D 7H", "meld KC KD KH", "done"])
    # the defenders from the knocker's left: seat 2, then seat 0
    assert (g.phase, g.current_player, legal(g)) == ("layoff", 2, ["done"])
    play(g, ["done", "meld 8C 8D 8H", "meld 4C 5C 6C", "done"])
    assert (g.current_player, legal(g)) == (0, ["add 4S to m1", "done"])
    play(g, ["add 4S to m1", "done", "meld 9C 9D 9H", "done"])
    hr = g.hand_results[-1]
    # the knocker's 2 is lowest: 8 from seat 2 (10), 39 from seat 0 (41)
    assert (hr.ended_by, hr.went_out, hr.final.deadwood, hr.final.big_gin, hr.net) == (
        "knock", 1, (41, 2, 10), False, (-39, 47, -8))


def test_a_knock_before_drawing_with_every_card_melded_is_gin_not_big_gin():
    g = at_seat_1s_turn(TONKISH.replace("before_draw", "big_gin_bonus: 31, before_draw"),
                        seat_1="AS 2S 3S 4S 7C 7D 7H KC KD KH",
                        seat_0=DEALER_LEFT.replace("4S", "5H"))
    play(g, ["knock", "meld AS 2S 3S 4S", "meld 7C 7D 7H", "meld KC KD KH", "done"])
    play(g, ["meld 8C 8D 8H", "meld 4C 5C 6C", "done", "meld 9C 9D 9H", "done"])
    hr = g.hand_results[-1]
    assert (hr.ended_by, hr.final.deadwood, hr.final.big_gin) == ("gin", (46, 0, 10), False)
    assert hr.scores[1].items[1] == ("gin", 50)


def test_a_knock_before_drawing_is_refused_with_too_much_deadwood():
    g = at_seat_1s_turn(seat_1=KNOCKER.replace("KH", "QH"))  # the KC KD QH left: 32
    assert legal(g) == ["draw", "take"]
    why = refusal(g, "knock")
    assert (why.code, why.sentence) == (
        "knock/before-draw-deadwood", "you may knock before drawing only when the cards you "
        "hold leave at most 10 deadwood with no discard; yours leave 32: draw, or take the "
        "discard")
    # without the key a knock before drawing is in the wrong phase, as it always was
    g = at_seat_1s_turn(TONKISH.replace("before_draw: true", "before_draw: false"))
    assert legal(g) == ["draw", "take"]
    why = refusal(g, "knock")
    assert (why.code, why.sentence) == (
        "turn/wrong-phase", "'knock' is not possible now (phase draw; possible: draw, take)")


def test_the_knock_after_drawing_with_a_discard_still_works():
    g = at_seat_1s_turn()
    play(g, ["draw"])
    assert "knock" in legal(g)
    play(g, ["knock", "discard 10C", "meld AS 2S 3S", "meld 7C 7D 7H", "meld KC KD KH",
             "done"])
    play(g, ["done", "meld 8C 8D 8H", "meld 4C 5C 6C", "done",
             "add 4S to m1", "done", "meld 9C 9D 9H", "done"])
    hr = g.hand_results[-1]
    assert (hr.ended_by, hr.final.deadwood, hr.net) == ("knock", (41, 2, 10), (-39, 47, -8))
    # a hand a knock before drawing would take may instead draw and knock after
    g = at_seat_1s_turn(seat_1=KNOCKER.replace("2D", "9S"))  # 9 before the draw
    play(g, ["draw", "knock", "discard 10C"])
    assert g.phase == "knock"
    assert refusal(g, "discard 9S").sentence.startswith("a knocker discards one card")


def test_the_rules_sheet_says_a_player_may_knock_before_drawing():
    from meldkit.rulesheet import rules_sheet

    line = ("- A player may also knock at the start of their turn, before drawing, when the "
            "cards they hold leave at most 10 in deadwood without a discard; that knocker lays "
            "down their melds without discarding (a hand melded whole is gin).")
    assert line in rules_sheet(meldkit.load_pack_text(TONKISH)).splitlines()
    assert "before drawing, when" not in rules_sheet(meldkit.load_pack("gin_rummy"))


def test_knocking_before_drawing_is_refused_in_a_pack_where_nobody_knocks():
    with pytest.raises(RulePackError) as e:
        meldkit.load_pack_text("extends: rummy\nknock: {before_draw: true}\n",
                               filename="k.yaml")
    assert [str(p) for p in e.value.problems] == [
        "k.yaml:2:9: knock.before_draw: true, but nobody knocks (knock.max_deadwood is "
        "null), so nobody knocks before drawing: set knock.max_deadwood and scoring.style: "
        "knock, or remove it"]


def test_a_knock_before_drawing_is_described_by_meldkit_keys():
    from meldkit._schema import KEY_NEEDS, KEY_READERS, KnockSpec

    assert KnockSpec().before_draw is False
    assert "knock.before_draw" in KEY_READERS
    assert KEY_NEEDS["knock.before_draw"][0] == "knock.max_deadwood"


# --------------------------------------------------------------------------- only before

ONLY_BEFORE = TONKISH.replace("before_draw: true", "before_draw: true, after_draw: false") \
    + "stock: {wall_knock_with_upcard: false}\n"
"""Tonk's drop and Yaniv's call: a knock at the start of the turn only (knock.after_draw)."""


def test_with_after_draw_false_a_player_knocks_only_before_drawing():
    g = at_seat_1s_turn(ONLY_BEFORE)
    assert legal(g) == ["draw", "knock", "take"]
    play(g, ["draw"])  # the 10C drawn: ten cards still leave 2, but no knock now
    assert legal(g) == sorted(f"discard {c}" for c in (KNOCKER + " 10C").split())
    why = refusal(g, "knock")
    assert (why.code, why.sentence) == (
        "knock/only-before-draw", "in this game a player knocks only at the start of their "
        "turn, before drawing (knock.after_draw: false): discard")
    play(g, ["discard 10C"])
    # the knock before drawing itself is as with after_draw true
    g = at_seat_1s_turn(ONLY_BEFORE)
    play(g, ["knock", "meld AS 2S 3S", "meld 7C 7D 7H", "meld KC KD KH", "done"])
    play(g, ["done", "meld 8C 8D 8H", "meld 4C 5C 6C", "done",
             "add 4S to m1", "done", "meld 9C 9D 9H", "done"])
    hr = g.hand_results[-1]
    assert (hr.ended_by, hr.final.deadwood, hr.net) == ("knock", (41, 2, 10), (-39, 47, -8))


def test_the_rules_sheet_says_a_player_knocks_only_before_drawing():
    from meldkit.rulesheet import rules_sheet

    sheet = rules_sheet(meldkit.load_pack_text(ONLY_BEFORE))
    assert ("- A player may **knock** only at the start of their turn, before drawing, when "
            "the cards they cannot meld (their *deadwood*) total at most 10; the knocker lays "
            "down their melds without discarding (a hand melded whole is gin), and cards left "
            "unmelded are their deadwood.") in sheet.splitlines()
    assert "after the discard" not in sheet and "may also knock" not in sheet


@pytest.mark.parametrize("pack, where, message", [
    (TONKISH.replace("before_draw: true", "after_draw: false"), "4:25",
     "knock.after_draw: false, but nobody knocks before drawing (knock.before_draw is "
     "false), so with no knock after drawing nobody would knock at all: set "
     "knock.before_draw: true, or remove it"),
    (TONKISH.replace("before_draw: true", "before_draw: true, after_draw: false"), "4:44",
     "knock.after_draw: false, but stock.wall_knock_with_upcard lets a player knock after "
     "taking the upcard at the wall: set it false, or remove this"),
])
def test_after_draw_false_is_refused_without_a_knock_before_drawing_or_with_the_wall_knock(
        pack, where, message):
    with pytest.raises(RulePackError) as e:
        meldkit.load_pack_text(pack, filename="k.yaml")
    assert [str(p) for p in e.value.problems] == [f"k.yaml:{where}: {message}"]


# --------------------------------------------------------------------------- self-play

SELF_PLAY = TONKISH + "game: {target: 50}\n"


@pytest.mark.parametrize("players", (3, 4))
def test_knocking_before_drawing_keeps_the_invariants_of_every_pack(players):
    pack = meldkit.load_pack_text(SELF_PLAY)
    assert check_conformance(pack, players=players, games=2, hands=6) > 0


@pytest.mark.parametrize("only_before", (False, True))
@pytest.mark.parametrize("players", (2, 3, 4))
def test_random_and_greedy_games_knock_before_drawing_end_and_keep_every_card(
        players, only_before):
    pack = meldkit.load_pack_text(
        ONLY_BEFORE + "game: {target: 50}\n" if only_before else SELF_PLAY)
    before_draw = after_draw = games = 0

    def knocks_before_drawing_save(g, action, phase, cards):
        nonlocal before_draw, after_draw
        if phase == "draw" and action.type == "knock":  # saves and loads as it is
            before_draw += 1
            assert g.phase == "knock" and saved(g).to_json() == g.to_json()
        after_draw += phase in ("discard", "wall") and action.type == "knock"

    for g in bot_games(pack, players, range(50), knocks_before_drawing_save):
        assert all(sum(hr.net) == 0 for hr in g.hand_results)
        games += 1
    assert games == 100 and before_draw > 0
    assert (after_draw == 0) == only_before
