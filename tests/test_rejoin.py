"""Rejoining after elimination (``game.rejoin``): pool rummy's rejoin, Kalooki's buying
back in — the move of a total, its limits, the record a save rescores, and the loader's
refusals."""

from __future__ import annotations

import json

import pytest

import meldkit
from meldkit import GameState, RulePackError, SaveError
from meldkit._schema import RejoinSpec
from meldkit.bots import GreedyBot
from meldkit.kernel.table import rejoin_moves
from meldkit.rulesheet import rules_sheet
from meldkit.scenarios import run_scenario_text

POOL = """meldkit: 1
extends: rummy
name: pool
players: {min: 2, max: 6, partners: never}
scoring: {style: penalty, items: [{item: penalty}]}
game: {winner: lowest, eliminate_above: 100, rejoin: %s}
"""

BACK_IN = """scenarios:
  - name: seat 1 passes 100 and rejoins at the highest total still in, plus one
    players: 3
    start_scores: [20, 90, 50]
    deal:
      hands:
        0: [AH, 2H, 3H, 5C, 5D, 5S, 7D]
        1: [KC, QD, JH, 9S, 8C, 2D, 4S]       # 53: 90 + 53 = 143, out
        2: [3C, 6D, 9H, AC, 2S, 3D, 2C]       # 26: 50 + 26 = 76, the highest still in
      stock: [4H]
    steps:
      - moves: [draw, meld AH 2H 3H 4H, meld 5C 5D 5S, discard 7D]
        by: 0
      - expect:
          went_out: 0
          scores: [20, 77, 76]
          hand_score: {1: {cards_in_hand: 53, rejoin: -66}}
          game_over: false
          hand_number: 2
          hand_size: {0: 7, 1: 7, 2: 7}   # seat 1 is dealt in again
"""


def pool(rejoin: str = "{add: 1}") -> meldkit.RulePack:
    return meldkit.load_pack_text(POOL % rejoin, filename="pool.yaml")


def failures(pack, text: str) -> list[str]:
    return [str(f) for r in run_scenario_text(pack, text, "s.yaml") for f in r.failures]


def play_out(pack, seed: int, players: int = 4):
    game = meldkit.new_game(pack, players=players, seed=seed)
    bots = [GreedyBot(seed=i) for i in range(players)]
    while not game.is_over:
        game.apply(bots[game.current_player].choose(game))
    return game


def test_a_player_past_the_limit_rejoins_at_the_highest_total_still_in_plus_add():
    assert failures(pool(), BACK_IN) == []


def test_without_rejoin_the_same_hand_puts_the_player_out_for_good():
    text = BACK_IN.replace("scores: [20, 77, 76]", "scores: [20, 143, 76]").replace(
        "hand_score: {1: {cards_in_hand: 53, rejoin: -66}}", "hand_score: {1: {total: 53}}"
    ).replace("hand_size: {0: 7, 1: 7, 2: 7}", "hand_size: {0: 7, 1: 0, 2: 7}")
    plain = meldkit.load_pack_text(POOL.replace(", rejoin: %s", ""), filename="plain.yaml")
    assert failures(plain, text) == []


@pytest.mark.parametrize("rejoin, why", [
    ("{add: 1, times: 1}", None),
    ("{add: 1, least_in: 3}", "least_in"),                 # only two still in
    ("{add: 1, while_highest_at_most: 70}", "the cap"),    # the highest still in is 76
    ("{add: 30}", "the limit"),                            # 76 + 30 passes 100
])
def test_a_rejoin_waits_on_its_conditions(rejoin, why):
    got = failures(pool(rejoin), BACK_IN)
    assert (got == []) == (why is None), got


def test_rejoin_moves_directly():
    spec = RejoinSpec(add=1, times=1)
    out = [False, True, False]
    assert rejoin_moves(spec, 100, [40, 105, 60], [False] * 3, out, [0, 0, 0]) == (0, -44, 0)
    assert rejoin_moves(spec, 100, [40, 105, 60], [False] * 3, out, [0, 1, 0]) == ()  # used
    assert rejoin_moves(spec, 100, [40, 105, 60], [False, True, False], out, [0, 0, 0]) == ()
    both = rejoin_moves(spec, 100, [40, 105, 130], [False] * 3, [False, True, True], [0] * 3)
    assert both == ()  # one player left in: fewer than least_in (2)


@pytest.mark.parametrize("seed", range(6))
def test_rejoins_in_play_follow_the_rule_and_the_saves_rescore_them(seed):
    pack = pool("{add: 1, times: 2}")
    game = play_out(pack, seed)
    assert max(game.rejoins()) <= 2
    totals = [0] * game.n_players
    for h in game.hand_results:
        before = [t + s.total - sum(p for label, p in s.items if label == "rejoin")
                  for t, s in zip(totals, sorted(h.scores, key=lambda s: s.team))]
        for p, move in enumerate(h.final.rejoin):
            if move:
                still = [before[q] for q in range(game.n_players)
                         if before[q] <= 100 or h.final.rejoin[q]]
                assert before[p] > 100 and before[p] + move == max(
                    t for q, t in enumerate(before) if t <= 100) + 1, (h.hand_number, still)
        totals = [t + s.total for t, s in zip(totals, sorted(h.scores, key=lambda s: s.team))]
    assert totals == game.scores
    assert GameState.from_json(game.to_json(), pack=pack) == game


def test_some_game_rejoins_and_ends():
    pack = pool("{add: 1, times: 2}")
    games = [play_out(pack, seed) for seed in range(6)]
    assert sum(sum(g.rejoins()) for g in games) >= 3
    assert all(g.is_over for g in games)


def test_a_save_whose_rejoin_is_not_what_the_rule_gives_is_refused():
    pack = pool()
    game = next(g for g in (play_out(pack, s) for s in range(10)) if sum(g.rejoins()))
    data = json.loads(game.to_json())
    i, h = next((i, h) for i, h in enumerate(data["hand_results"]) if h["final"].get("rejoin"))
    p = next(q for q, m in enumerate(h["final"]["rejoin"]) if m)
    h["final"]["rejoin"][p] -= 5  # a lower total than the rule gives, the lines to match
    line = next(s for s in h["scores"] if s["team"] == p)
    line["items"][-1][1] -= 5
    data["scores"][p] -= 5
    with pytest.raises(SaveError, match=rf"hand_results\[{i}\]\.final\.rejoin: expected "):
        GameState.from_json(json.dumps(data), pack=pack)
    plain = meldkit.load_pack_text(POOL.replace(", rejoin: %s", ""))
    with pytest.raises(SaveError):  # another pack entirely: refused before any field
        GameState.from_json(game.to_json(), pack=plain)


@pytest.mark.parametrize("rejoin, where, message", [
    ("{times: 0}", "game.rejoin.times", "expected 1 to 100 rejoins, got 0"),
    ("{add: 101}", "game.rejoin.add", "expected 0 to 100 (game.eliminate_above), got 101"),
    ("{add: -1}", "game.rejoin.add", "expected 0 to 100"),
    ("{add: 1, while_highest_at_most: 100}", "game.rejoin.while_highest_at_most",
     "expected 0 to 99: a player rejoins at that total plus 1 (add)"),
    ("{least_in: 6}", "game.rejoin.least_in", "expected 1 to 5"),
    ("{least_in: 0}", "game.rejoin.least_in", "expected 1 to 5"),
])
def test_a_rejoin_number_that_could_never_matter_is_refused_at_its_key(rejoin, where,
                                                                       message):
    with pytest.raises(RulePackError) as e:
        pool(rejoin)
    assert "pool.yaml:6:" in str(e.value) and f"{where}: {message}" in str(e.value)


def test_rejoin_without_elimination_is_refused():
    with pytest.raises(RulePackError, match=r"game\.rejoin: a mapping, but nobody is "
                                            r"eliminated \(game\.eliminate_above is null\)"):
        meldkit.load_pack_text("extends: rummy\ngame: {rejoin: {add: 1}}\n", filename="r.yaml")


def test_the_rules_sheet_states_the_rejoin():
    sheet = rules_sheet(pool("{add: 1, times: 2, while_highest_at_most: 79}"))
    assert ("- **Rejoining:** a player eliminated after a hand rejoins at once — twice in a "
            "game at most — with a new total: the highest total of the players still in plus "
            "1; only while at least 2 players are still in, that total is at most 79 and the "
            "new total is at most 100.") in sheet


def test_the_hand_end_says_who_rejoined_and_at_what_total():
    from meldkit._table import Style, render_hand_end

    pack = pool()
    game = next(g for g in (play_out(pack, s) for s in range(10)) if sum(g.rejoins()))
    h = next(h for h in game.hand_results if h.final.rejoin)
    text = render_hand_end(game, h, Style(False), None)
    assert "rejoining: seat " in text and "rejoins the game with a total of " in text
    assert "rejoin -" not in text  # the move is not a hand's item


def test_a_rejoin_in_the_save_of_a_pack_without_rejoining_is_refused():
    plain = meldkit.load_pack_text(POOL.replace(", rejoin: %s", ""), filename="plain.yaml")
    game = play_out(plain, 1)
    data = json.loads(game.to_json())
    h = data["hand_results"][0]
    h["final"]["rejoin"] = [-5] + [0] * (game.n_players - 1)  # lines and totals to match
    next(s for s in h["scores"] if s["team"] == 0)["items"].append(["rejoin", -5])
    data["scores"][0] -= 5
    with pytest.raises(SaveError, match=r"hand_results\[0\]\.final\.rejoin: only where the "
                                        r"pack has game\.rejoin"):
        GameState.from_json(json.dumps(data), pack=plain)
    rules = meldkit.load_pack_text("extends: rummy\nname: r\n")
    gin = play_out(rules, 2, players=2)
    data = json.loads(gin.to_json())
    data["hand_results"][0]["final"]["rejoin"] = [0, -3]
    with pytest.raises(SaveError, match=r"final\.rejoin: only where the pack has game\.rejoin"):
        GameState.from_json(json.dumps(data), pack=rules)  # (no elimination at all)


@pytest.mark.parametrize("bad", [["x", 0, 0, 0], [-5], [0, 0, 0, 10**40], [True, 0, 0, 0]])
def test_a_rejoin_of_a_bad_form_in_a_save_is_refused_at_its_field(bad):
    pack = pool()
    game = next(g for g in (play_out(pack, s) for s in range(10)) if sum(g.rejoins()))
    data = json.loads(game.to_json())
    data["hand_results"][0]["final"]["rejoin"] = bad
    with pytest.raises(SaveError, match=r"hand_results\[0\]\.final\.rejoin: expected 4 whole "
                                        r"numbers"):
        GameState.from_json(json.dumps(data), pack=pack)


@pytest.mark.parametrize("rejoin, words", [
    ("5", "game.rejoin: expected a mapping"),
    ("{tims: 1}", "game.rejoin.tims: unknown key (did you mean 'times'?)"),
    ("{times: many}", "game.rejoin.times: expected an integer"),
])
def test_a_rejoin_key_of_a_bad_form_is_refused_where_written(rejoin, words):
    with pytest.raises(RulePackError) as e:
        pool(rejoin)
    assert "pool.yaml:6:" in str(e.value) and words in str(e.value), str(e.value)
