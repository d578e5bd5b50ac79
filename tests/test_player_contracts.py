"""``initial_meld.contracts``: contracts each player works through on their own (Phase 10's
phases) — a player's contract is the first they have not met, laying it meets it, one a
hand at most; the game ends on the last met (or at ``game.hands``) and is won by the most
met, then the best total.  Proved on stacked decks, through saves, views, the rules sheet,
and bots playing whole games with every card kept."""

from __future__ import annotations

import json

import pytest

import meldkit
from meldkit import GameState, RulePackError, SaveError
from meldkit.bots import make_bot
from meldkit.testing import check_conformance, refusal, stacked_game
from test_flexible_melds import PHASE, greedy_game_ends

LADDER = (PHASE.replace("  melds: CONTRACT\n", "  contracts: [[set, set], [run], [colour]]\n")
          .replace("game: {hands: 2,", "game: {hands: 12,"))


def pack(text: str = LADDER):
    return meldkit.load_pack_text(text, filename="ladder.yaml")


def legal(g) -> list[str]:
    return [str(a) for a in g.legal_actions()]


def test_each_player_is_asked_for_their_own_first_unmet_contract():
    g = stacked_game(pack(), 2, hands={0: "5C 5D 5H 9C 9D 9S KD QS 2C 3D".split()},
                     upcard="6D", stock=["KS"])
    assert g.view(0)["contract"]["melds"] == ["set", "set"]
    assert g.view(0)["contract"]["met"] == [0, 0]
    g.apply("draw")
    g.apply("meld 5C 5D 5H")
    assert refusal(g, "discard KS").code == "contract/pending"
    g.apply("meld 9C 9D 9S")
    assert g.opened == [True, False]
    assert refusal(g, "meld KD QS 2C 3D").code.startswith("meld/")  # melds_after: false


def test_laying_a_contract_meets_it_and_the_next_hand_asks_for_the_next():
    g = stacked_game(pack(), 2, hands={0: "5C 5D 5H 9C 9D 9S KD QD 2C".split() + ["JK"],
                                       1: "4H 6S 8C 10D QC AH 3S 7D JC 2H".split()},
                     upcard="6D", stock=["KS"])
    for move in ("draw", "meld 5C 5D 5H", "meld 9C 9D 9S"):
        g.apply(move)
    # the rest of the hand played out by bots: seat 0 met its first contract in it
    bots = [make_bot("greedy", seed=1), make_bot("greedy", seed=2)]
    while g.hand_number == 1 and not g.is_over:
        g.apply(bots[g.current_player].choose(g))
    first = g.hand_results[0].final
    assert first.contracts_met[0] is True
    assert g.contracts_met()[0] >= 1
    assert g.view(0)["contract"]["melds"] == (["run"] if g.contracts_met()[0] == 1
                                              else ["colour"])
    seat1 = g.contracts_met()[1]
    assert g.view(1)["contract"]["melds"] == [["set", "set"], ["run"], ["colour"]][seat1]


def test_the_game_ends_on_the_last_contract_met_and_the_most_met_wins():
    p = pack(LADDER.replace("contracts: [[set, set], [run], [colour]]",
                            "contracts: [[set, set]]"))
    g = stacked_game(p, 2, hands={0: "5C 5D 5H 9C 9D 9S KD QD 2C 3D".split(),
                                  1: "4H 6S 8C 10D QC AH 3S 7D JC 2H".split()},
                     upcard="6D", stock=["KS"])
    bots = [make_bot("greedy", seed=1), make_bot("greedy", seed=2)]
    g.apply("draw")
    g.apply("meld 5C 5D 5H")
    g.apply("meld 9C 9D 9S")
    while not g.is_over:
        g.apply(bots[g.current_player].choose(g))
    assert len(g.hand_results) == 1  # seat 0 met the last (only) contract in hand 1
    met = g.contracts_met()
    assert met[0] == 1
    if met[1] == 0:
        assert g.winner == 0  # the most met, whatever the totals
    else:
        lowest = min(g.scores)
        assert g.winner == (g.scores.index(lowest) if g.scores.count(lowest) == 1 else None)


def test_a_save_keeps_the_contracts_met_and_a_tampered_record_is_refused():
    p = pack()
    g = meldkit.new_game(p, players=3, seed=5)
    bots = [make_bot("greedy", seed=s) for s in range(3)]
    while g.hand_number < 3 and not g.is_over:
        g.apply(bots[g.current_player].choose(g))
    assert g.hand_results
    h = GameState.from_json(g.to_json(), pack=p)
    assert h == g and h.contracts_met() == g.contracts_met()
    assert h.view(0)["contract"] == g.view(0)["contract"]
    d = json.loads(g.to_json())
    state = d["state"] if "state" in d else d
    state["hand_results"][0]["final"]["contracts_met"] = [1, 0, 0]
    with pytest.raises(SaveError, match="contracts_met"):
        GameState.from_json(json.dumps(d), pack=p)


@pytest.mark.parametrize("old,new,expected", [
    ("  contracts: [[set, set], [run], [colour]]",
     "  contracts: [[set, set], [run], [colour]]\n  melds: [set]", "initial_meld.melds"),
    ("game: {hands: 12, winner: lowest, hand_turn_limit: 400}",
     "game: {winner: lowest, hand_turn_limit: 400, target: 100}", "game.hands is not set"),
    ("players: {min: 2, max: 6, partners: never}",
     "players: {min: 4, max: 4, partners: always}", "partnerships"),
    ("  contracts: [[set, set], [run], [colour]]", "  contracts: [[set, pair]]",
     "'pair' is not a meld kind"),
    ("  contracts: [[set, set], [run], [colour]]", "  contracts: [[set], []]",
     "an empty contract"),
    ("  contracts: [[set, set], [run], [colour]]",
     "  contracts: [[set, set, set, set]]", "needs at least 12 cards"),
])
def test_contracts_are_refused_where_written_beside_what_decides_the_game_otherwise(
        old, new, expected):
    with pytest.raises(RulePackError) as e:
        pack(LADDER.replace(old, new))
    assert expected in str(e.value) and "ladder.yaml:" in str(e.value), str(e.value)


def test_the_rules_sheet_lists_the_contracts_and_how_the_game_ends():
    from meldkit.rulesheet import rules_sheet

    text = rules_sheet(pack())
    assert "1. two sets; 2. a run; 3. a colour" in text
    assert "meets the last contract, or after 12 hands at most" in text


@pytest.mark.parametrize("seed", [1, 2])
def test_random_play_keeps_every_invariant_and_greedy_games_end_on_the_contracts(seed):
    p = pack()
    assert check_conformance(p, players=3, games=1, seed=seed, max_actions=20_000) > 0
    g = greedy_game_ends(p, 3, seed)
    met = g.contracts_met()
    assert max(met) == 3 or len(g.hand_results) == 12
    assert all(m <= len(g.hand_results) for m in met)


SCENARIO = """\
pack: ladder.yaml
players: 2
scenarios:
  - name: a seat that meets its first contract is asked for the second in the next hand
    deal:
      hands:
        0: [5C, 5D, 5H, 5S, 9C, 9D, 9S, 9H, 2C, 3D]
      upcard: 6D
      stock: [5C, KH, 9C]
    steps:
      - expect:
          contract: {0: [set, set], 1: [set, set]}
          contracts_met: [0, 0]
      - moves: [draw, meld 5C 5D 5H, meld 9C 9D 9S, add 5S to m1, add 9H to m2, add 5C to m1,
                discard 3D]
        by: 0
      - moves: [draw, discard KH]
        by: 1
      - moves: [draw, add 9C to m2, discard 2C]
        by: 0
        expect:
          hand_ended: went_out
          hand_number: 2
          contracts_met: MET
          contract: {0: [run], 1: [set, set]}
"""


@pytest.mark.parametrize("met,says", [("[1, 0]", None),
                                      ("[2, 0]", "contracts_met: expected [2, 0], got [1, 0]")])
def test_a_scenario_proves_the_contracts_met_and_each_seats_contract(tmp_path, met, says):
    from meldkit.scenarios import run_scenarios

    (tmp_path / "ladder.yaml").write_text(LADDER)
    (tmp_path / "ladder.scenarios.yaml").write_text(SCENARIO.replace("MET", met))
    ((_, results),) = run_scenarios(str(tmp_path / "ladder.yaml"),
                                    [tmp_path / "ladder.scenarios.yaml"])
    assert not isinstance(results, Exception), results
    (result,) = results
    assert result.passed == (says is None)
    if says:
        assert says in str(result.failures)


def _ladder_with_ids():
    """The ladder of sets and runs of one suit, few wild cards: a pack with action ids."""
    text = (LADDER.replace("mixed_suits: true, ", "")
            .replace("    - {name: colour, type: flush, min_size: 7, max_wilds: 8}\n", "")
            .replace("[[set, set], [run], [colour]]", "[[set, set], [run], [set, run]]")
            .replace("max_wilds: 8", "max_wilds: 1"))
    return pack(text)


def test_the_observation_shows_each_seats_contracts_met_relative_to_the_observer():
    p = _ladder_with_ids()
    g = meldkit.new_game(p, players=3, seed=1)
    spec = g.observation_spec()
    assert [f[0] for f in spec.fields][-1] == "contracts_met"
    at = spec["contracts_met"].start
    bots = [make_bot("greedy", seed=s) for s in range(3)]
    while g.hand_number < 3 and not g.is_over:
        g.apply(bots[g.current_player].choose(g))
    met = g.contracts_met()
    assert any(met)
    for seat in range(3):
        got = [int(x) for x in g.observation(seat)[at:at + 3]]
        assert got == met[seat:] + met[:seat]
    assert "contracts_met" not in meldkit.new_game("contract_rummy", players=3,
                                                   seed=1).observation_spec()


def test_pettingzoos_api_test_passes_on_a_pack_of_each_players_contracts():
    pytest.importorskip("pettingzoo")
    from pettingzoo.test import api_test

    from meldkit.adapters.pettingzoo import env

    api_test(env(_ladder_with_ids(), players=3), num_cycles=200, verbose_progress=False)


def test_a_save_that_plays_on_past_the_last_contract_met_is_refused():
    p = pack(LADDER.replace("contracts: [[set, set], [run], [colour]]",
                            "contracts: [[colour]]").replace("hand_turn_limit: 400",
                                                             "hand_turn_limit: 2"))
    for seed in range(40):  # a first hand, cut short, in which nobody met the contract
        g = meldkit.new_game(p, players=2, seed=seed)
        bots = [make_bot("greedy", seed=s) for s in range(2)]
        while g.hand_number < 2 and not g.is_over:
            g.apply(bots[g.current_player].choose(g))
        if not g.is_over:
            break
    assert not g.is_over and g.contracts_met() == [0, 0]
    d = json.loads(g.to_json())
    state = d["state"] if "state" in d else d
    state["hand_results"][0]["final"]["contracts_met"] = [True, False]
    with pytest.raises(SaveError, match="contracts met"):
        GameState.from_json(json.dumps(d), pack=p)


def test_contracts_set_in_a_schedule_item_are_refused_at_the_item():
    text = (PHASE.replace("CONTRACT", "[set, run]").replace("game: {hands: 2,", "game: {hands: 3,")
            + "schedule:\n  - {initial_meld: {contracts: [[set]]}}\n")
    with pytest.raises(RulePackError) as e:
        pack(text)
    assert "schedule[0].initial_meld.contracts" in str(e.value), str(e.value)
    assert "outside the schedule" in str(e.value)


def test_a_turned_stock_card_owed_at_once_is_refused_beside_each_players_contracts():
    """Fuzz seed 3468: a card turned from the stock and owed at once, in a pack of each
    player's contracts, dead-ended a hand (the check counted only melds and minimums as an
    opening)."""
    text = LADDER + "turn: {stock_card: turned, forced: [turned]}\n"
    with pytest.raises(RulePackError, match="the pack has an opening"):
        pack(text)


def test_simulate_records_and_summarises_the_contracts_each_seat_met():
    from meldkit.simulate import GameRecord, format_summary, record_line, simulate, summarize

    records = list(simulate(pack(), players=3, games=2, seed=4, bots=("greedy",)))
    for r in records:
        assert len(r.contracts_met) == 3
        assert max(r.contracts_met) == 3 or r.hands == 12
        assert GameRecord.from_dict(json.loads(record_line(r))) == r
    text = format_summary(summarize(records))
    assert "contracts met" in text and "seat 2" in text
    plain = next(simulate("rummy", players=2, games=1, seed=1))
    assert plain.contracts_met == () and "contracts_met" not in plain.to_dict()


@pytest.mark.parametrize("written", ["set", "[set, run]", "[[set], 5]", "[[set, [run]]]"])
def test_contracts_of_a_bad_form_are_refused_where_written(written):
    text = LADDER.replace("contracts: [[set, set], [run], [colour]]", f"contracts: {written}")
    with pytest.raises(RulePackError) as e:
        pack(text)
    assert "ladder.yaml:" in str(e.value) and "initial_meld.contracts" in str(e.value), \
        str(e.value)


@pytest.mark.parametrize("expect,says", [
    ("contracts_met: [one, 0]", "expected a list of whole numbers, one per seat"),
    ("contracts_met: true", "expected a list of whole numbers, one per seat"),
    ("contract: {0: set}", "expected a list of meld kind names"),
    ("contract: {0: [set, 5]}", "expected a list of meld kind names"),
])
def test_a_scenarios_contract_expectations_of_a_bad_form_are_reported_where_written(
        tmp_path, expect, says):
    from meldkit.scenarios import run_scenarios

    (tmp_path / "ladder.yaml").write_text(LADDER)
    text = SCENARIO.replace("MET", "[1, 0]").replace(
        "          contract: {0: [set, set], 1: [set, set]}\n          contracts_met: [0, 0]",
        "          " + expect)
    (tmp_path / "ladder.scenarios.yaml").write_text(text)
    ((_, results),) = run_scenarios(str(tmp_path / "ladder.yaml"),
                                    [tmp_path / "ladder.scenarios.yaml"])
    assert isinstance(results, Exception), results
    assert says in str(results) and "ladder.scenarios.yaml:" in str(results), str(results)


def test_the_option_contracts_met_starts_each_seat_further_up_the_ladder():
    p = pack()
    g = stacked_game(p, 2, hands={0: "5C 5D 5H 5S 6C 7D 8H 9C KD QS".split()},
                     upcard="6D", stock=["KS"], options={"contracts_met": [1, 2]})
    assert g.contracts_met() == [1, 2]
    assert g.view(0)["contract"]["melds"] == ["run"]  # seat 0's second contract
    assert g.view(1)["contract"]["melds"] == ["colour"]  # seat 1's third and last
    g.apply("draw")
    assert refusal(g, "meld 5C 5D 5H").code == "meld/not-in-contract"  # a set: no run
    h = GameState.from_json(g.to_json(), pack=p)  # the option is saved with the game
    assert h == g and h.contracts_met() == [1, 2] and h.options["contracts_met"] == [1, 2]


def test_a_seat_started_on_the_last_contract_ends_the_game_by_meeting_it():
    g = meldkit.new_game(pack(), players=2, seed=3, options={"contracts_met": [2, 2]})
    bots = [make_bot("greedy", seed=1), make_bot("greedy", seed=2)]
    while not g.is_over:
        g.apply(bots[g.current_player].choose(g))
    met = g.contracts_met()
    assert max(met) == 3 and min(met) >= 2  # nobody goes below where they started
    assert len(g.hand_results) <= 12  # game.hands


@pytest.mark.parametrize("met,says", [
    ([3, 0], "a whole number from 0 to 2"), ([0], "each of the 2 seats"),
    ([True, 0], "not [True, 0]"), ([-1, 0], "not [-1, 0]"), ("1 0", "not '1 0'"),
])
def test_the_option_contracts_met_of_a_bad_form_is_refused_by_name(met, says):
    with pytest.raises(meldkit.SetupError, match="option contracts_met") as e:
        meldkit.new_game(pack(), players=2, seed=1, options={"contracts_met": met})
    assert says in str(e.value)


def test_the_option_contracts_met_is_refused_for_a_pack_without_contracts_and_in_a_save():
    with pytest.raises(meldkit.SetupError, match="initial_meld.contracts"):
        meldkit.new_game("contract_rummy", players=3, seed=1, options={"contracts_met": [1] * 3})
    p = pack()
    d = json.loads(meldkit.new_game(p, players=2, seed=1,
                                    options={"contracts_met": [0, 1]}).to_json())
    d["options"]["contracts_met"] = [0, 3]  # a tampered save: past the ladder's end
    with pytest.raises(SaveError, match="contracts_met"):
        GameState.from_json(json.dumps(d), pack=p)


def test_a_scenarios_bad_option_contracts_met_is_reported_at_its_options(tmp_path):
    from meldkit.scenarios import run_scenarios

    (tmp_path / "ladder.yaml").write_text(LADDER)
    text = SCENARIO.replace("MET", "[1, 0]").replace(
        "  - name:", "  - options: {contracts_met: [3, 0]}\n    name:", 1)
    (tmp_path / "s.scenarios.yaml").write_text(text)
    ((_, results),) = run_scenarios(str(tmp_path / "ladder.yaml"), [tmp_path / "s.scenarios.yaml"])
    (result,) = results
    assert not result.passed
    (failure,) = result.failures
    line = text.splitlines().index("  - options: {contracts_met: [3, 0]}") + 1
    assert (failure.line, failure.step) == (line, "options"), failure
    assert "from 0 to 2" in failure.message
