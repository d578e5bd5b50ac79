"""``going_out.last_turns``: after a player goes out, each other player takes one last turn
(Three Thirteen, Five Crowns) — draws, plays, discards, may go out too — and then the hand
ends, won by the first out.  Proved on stacked decks, through saves, the view, the play
screen and the rules sheet, and by bots playing whole games with every card kept."""

from __future__ import annotations

import json

import pytest

import meldkit
from meldkit import GameState, RulePackError, SaveError
from meldkit.bots import make_bot
from meldkit.testing import check_conformance, stacked_game

LAST = """\
extends: rummy
name: last_rummy
going_out: {last_turns: true}
scoring:
  items:
    - {item: winner_takes}
    - {item: bonus, points: 10, when: out_at_once}
"""

OUT_AT_ONCE = {0: "4H 5H 6H 9C 9D 9S KD".split()}  # + 7H drawn: out at once


def pack(text: str = LAST):
    return meldkit.load_pack_text(text, filename="last_rummy.yaml")


def test_the_others_each_take_one_last_turn_and_the_first_out_wins_the_hand():
    g = stacked_game(pack(), 3, hands=OUT_AT_ONCE, upcard="2C", stock=["7H", "2D", "3D"])
    for move in ("draw", "meld 4H 5H 6H 7H", "meld 9C 9D 9S", "discard KD"):
        g.apply(move)
    assert g.hand_number == 1 and g.current_player == 1  # the hand goes on
    assert g.view(1)["last_turns"] == {"out": 0, "left": 2}
    g.apply("draw")
    g.apply("discard 2D")
    assert g.view(2)["last_turns"] == {"out": 0, "left": 1} and g.current_player == 2
    g.apply("draw")
    g.apply("discard 3D")
    (result,) = g.hand_results
    final = result.final
    assert (final.ended_by, final.went_out) == ("went_out", 0)
    assert final.deadwood[0] == 0 and min(final.deadwood[1:]) > 0  # seven cards held each
    assert result.scores[0].total == final.deadwood[1] + final.deadwood[2] + 10  # at once
    assert g.hand_number == 2 and g.view(0)["last_turns"] is None


def test_a_player_who_goes_out_in_their_last_turn_counts_nothing_and_the_round_ends():
    g = stacked_game(pack(), 3, hands={**OUT_AT_ONCE, 1: "2S 3S 4S 5S 10C 10D 10H".split()},
                     upcard="2C", stock=["7H", "JC", "3D"])
    for move in ("draw", "meld 4H 5H 6H 7H", "meld 9C 9D 9S", "discard KD"):
        g.apply(move)
    for move in ("draw", "meld 2S 3S 4S 5S", "meld 10C 10D 10H", "discard JC"):
        g.apply(move)  # seat 1 goes out too, in its last turn
    assert g.hand_number == 1 and g.current_player == 2
    assert g.view(2)["last_turns"] == {"out": 0, "left": 1}
    g.apply("draw")
    g.apply("discard 3D")
    (result,) = g.hand_results
    assert result.final.went_out == 0  # the first out wins, not the last
    assert result.final.deadwood[1] == 0
    assert result.scores[0].total == result.final.deadwood[2] + 10


def test_a_stock_that_runs_out_in_the_last_turns_ends_the_hand_won_by_the_first_out():
    text = LAST + ("deck: {ranks: [A, '2', '3', '4', '5', '6', '7', '8']}\n"
                   "players: {max: 4}\n"
                   "deal: {upcard: false, hand: 7, hand_by_players: null}\n"
                   "stock: {when_empty: end_at_once}\n")
    g = stacked_game(pack(text), 4, first_player=2,
                     hands={0: "AH 2H 3H 4H 5H AC AS".split()},
                     stock=["8C", "8D", "AD", "8S"])
    assert len(g.stock) == 4  # 32 cards, 28 dealt
    for move in ("draw", "discard 8C", "draw", "discard 8D"):  # seats 2 and 3
        g.apply(move)
    for move in ("draw", "meld AH 2H 3H 4H 5H", "meld AC AD AS"):  # seat 0: out
        g.apply(move)
    assert g.view(1)["last_turns"] == {"out": 0, "left": 3}
    g.apply("draw")  # seat 1 draws the last card: seats 2 and 3 get no last turn
    g.apply("discard 8S")
    (result,) = g.hand_results
    assert (result.final.ended_by, result.final.went_out) == ("went_out", 0)
    assert result.scores[0].total == sum(result.final.deadwood[1:]) + 10


def test_a_save_in_the_last_turns_plays_on_alike_and_a_tampered_one_is_refused():
    p = pack()
    g = stacked_game(p, 3, hands=OUT_AT_ONCE, upcard="2C", stock=["7H", "2D", "3D"])
    for move in ("draw", "meld 4H 5H 6H 7H", "meld 9C 9D 9S", "discard KD"):
        g.apply(move)
    h = GameState.from_json(g.to_json(), pack=p)
    assert h == g and h.view(1)["last_turns"] == {"out": 0, "left": 2}
    for move in ("draw", "discard 2D", "draw", "discard 3D"):
        g.apply(move)
        h.apply(move)
    assert h == g and h.hand_results == g.hand_results
    saved = json.loads(_mid_last_turns(p).to_json())
    state = saved["state"] if "state" in saved else saved
    for bad in ([1, 2, 0], [0, 3, 0], [0, 2, 10**6], [0, 2], "0 2 0", [True, 2, 0],
                [0, -1, 0]):
        state["last_turns"] = bad
        with pytest.raises(SaveError, match="last_turns"):
            GameState.from_json(json.dumps(saved), pack=p)
    state["last_turns"] = [0, 2, 0]
    plain = meldkit.load_pack("rummy")
    with pytest.raises(SaveError):
        GameState.from_json(json.dumps(saved), pack=plain)


def _mid_last_turns(p):
    g = stacked_game(p, 3, hands=OUT_AT_ONCE, upcard="2C", stock=["7H", "2D", "3D"])
    for move in ("draw", "meld 4H 5H 6H 7H", "meld 9C 9D 9S", "discard KD"):
        g.apply(move)
    return g


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_and_greedy_play_keep_every_invariant_with_last_turns(players):
    p = pack()
    check_conformance(p, players=players, games=2, max_actions=100_000)
    g = meldkit.new_game(p, players=players, seed=players)
    bots = [make_bot("greedy", seed=q) for q in range(players)]
    seen = 0
    while not g.is_over:
        g.apply(bots[g.current_player].choose(g))
        seen += g.view(0)["last_turns"] is not None
    assert seen and all(r.final.ended_by in ("went_out", "turn_limit") for r in g.hand_results)


@pytest.mark.parametrize("extra,clash", [
    ("pile: {buy_limit: 3}\n", "pile.buy_limit"),
    ("turn: {drop: [20, 40]}\n", "turn.drop"),
    ("melds: {rearrange: true}\n", "melds.rearrange"),
    ("players: {partners: always, teams: 2}\n", "players.partners"),
    ("turn: {stock_card: turned, turned_passes: next}\n", "turn.turned_passes"),
])
def test_last_turns_are_refused_where_written_beside_what_ends_a_turn_otherwise(extra, clash):
    with pytest.raises(RulePackError) as e:
        pack(LAST + extra)
    found = [p for p in e.value.problems if p.path == "going_out.last_turns"]
    assert found and (found[0].file, found[0].line, found[0].col) == ("last_rummy.yaml", 3, 13)
    assert clash in found[0].message


def test_last_turns_are_refused_in_a_pack_of_the_rank_slot_model():
    with pytest.raises(RulePackError, match="going_out.last_turns: is read only by the table"):
        meldkit.load_pack_text("extends: pony_tail\nname: x\ngoing_out: {last_turns: true}\n",
                               filename="x.yaml")


def test_the_rules_sheet_and_the_play_screen_speak_of_the_last_turns():
    from meldkit._table import Style, render_state
    from meldkit.rulesheet import rules_sheet

    assert "each other player in turn takes **one last turn**" in rules_sheet(pack())
    assert "The hand ends at once when a player goes out" not in rules_sheet(pack())
    assert "The hand ends at once when a player goes out" in rules_sheet("rummy")
    screen = render_state(_mid_last_turns(pack()), 1, Style(False))
    assert "last turns: seat 0 went out · 2 last turns to play, this one among them" in screen


def test_the_hands_turn_limit_reached_in_the_last_turns_ends_it_won_not_void():
    """(The example pack's author: at game.hand_turn_limit in the last turns the hand was
    void, and the player who had gone out lost it.)"""
    g = stacked_game(pack(LAST + "game: {hand_turn_limit: 2}\n"), 3, hands=OUT_AT_ONCE,
                     upcard="2C", stock=["7H", "2D", "3D"])
    for move in ("draw", "meld 4H 5H 6H 7H", "meld 9C 9D 9S", "discard KD", "draw",
                 "discard 2D"):
        g.apply(move)
    (result,) = g.hand_results  # turn 2 ended: the limit, in seat 1's last turn
    assert (result.final.ended_by, result.final.went_out) == ("went_out", 0)
    assert result.scores[0].total > 10


def test_a_resample_in_the_last_turns_keeps_them_and_what_the_player_saw():
    import random

    g = _mid_last_turns(pack())
    for seed in range(5):
        r = g.resample(1, random.Random(seed))
        assert r.view(1) == g.view(1) and r.view(1)["last_turns"] == {"out": 0, "left": 2}
        bots = [make_bot("greedy", seed=q) for q in range(3)]
        while r.hand_number == 1:
            r.apply(bots[r.current_player].choose(r))
        assert r.hand_results[0].final.went_out == 0


def test_the_observation_counts_the_last_turns_still_to_play():
    p = pack()
    g = _mid_last_turns(p)
    spec = g.observation_spec()
    assert spec["last_turns"].stop - spec["last_turns"].start == 1
    assert [g.observation(q)[spec["last_turns"]][0] for q in range(3)] == [2.0] * 3
    g.apply("draw")
    g.apply("discard 2D")
    assert g.observation(0)[spec["last_turns"]][0] == 1.0
    g.apply("draw")
    g.apply("discard 3D")  # the hand ends: nobody has gone out in the next
    assert g.observation(0)[spec["last_turns"]][0] == 0.0
    assert "last_turns" not in meldkit.new_game("rummy", players=3, seed=1).observation_spec()


def test_pettingzoos_api_test_passes_with_last_turns_and_their_bound():
    pytest.importorskip("pettingzoo")
    from pettingzoo.test import api_test

    import meldkit.adapters.pettingzoo as pz

    env = pz.env(pack=pack(), players=3)
    api_test(env, num_cycles=200)
    low, high = pz.observation_bounds(_mid_last_turns(pack()))
    spec = _mid_last_turns(pack()).observation_spec()
    assert (low[spec["last_turns"]][0], high[spec["last_turns"]][0]) == (0, 2)


@pytest.mark.parametrize("value,says", [('"yes"', "expected true or false"),
                                        ("[true]", "expected true or false")])
def test_last_turns_of_a_bad_form_are_refused_where_written(value, says):
    with pytest.raises(RulePackError) as e:
        pack(LAST.replace("going_out: {last_turns: true}",
                          f"going_out: {{last_turns: {value}}}"))
    (found,) = e.value.problems
    assert (found.path, found.line, found.col) == ("going_out.last_turns", 3, 13)
    assert says in found.message
