"""Scenario files are untrusted input with bounded work: too many scenarios or steps are
refused at the ``file:line:col`` where the limit is crossed, before the rest is read, and a
file that is not YAML text (NUL bytes, a FIFO, a device, a directory) is a problem naming
the file — never a hang, never a traceback."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from meldkit import scenarios
from meldkit.cli import main
from meldkit.scenarios import ScenarioError, load_scenarios, run_scenarios

DOCS_PAGE = Path(__file__).resolve().parents[1] / "docs" / "authoring" / "scenarios.md"


def problems(text: str) -> list[str]:
    with pytest.raises(ScenarioError) as info:
        load_scenarios(text=text, filename="s.yaml")
    return [str(p) for p in info.value.problems]


def scenario_list(n: int, steps: str = "[draw]") -> str:
    return "scenarios:\n" + "".join(f"  - name: s{i}\n    steps: {steps}\n" for i in range(n))


@pytest.fixture
def small_limits(monkeypatch):
    """Limits small enough to cross in a few lines (the functions read them when called)."""
    monkeypatch.setattr(scenarios, "MAX_SCENARIOS", 3)
    monkeypatch.setattr(scenarios, "MAX_SCENARIO_STEPS", 4)
    monkeypatch.setattr(scenarios, "MAX_FILE_STEPS", 6)


# --------------------------------------------------------------------------- scenarios per file


def test_a_file_of_more_scenarios_than_the_limit_is_refused_at_the_first_one_too_many():
    text = scenario_list(scenarios.MAX_SCENARIOS + 1)
    line = 2 + 2 * scenarios.MAX_SCENARIOS  # two lines a scenario, after "scenarios:"
    assert problems(text) == [
        f"s.yaml:{line}:5: scenarios[{scenarios.MAX_SCENARIOS}]: more than "
        f"{scenarios.MAX_SCENARIOS:,} scenarios (a scenario file holds at most "
        f"{scenarios.MAX_SCENARIOS:,}: split them into several files)"]


def test_a_file_of_exactly_the_limit_loads(small_limits):
    assert [s.name for s in load_scenarios(text=scenario_list(3))] == ["s0", "s1", "s2"]


def test_the_scenario_limit_stops_the_read_before_the_rest_of_the_file(small_limits):
    """Broken YAML after the fourth scenario is never reached: the refusal comes first."""
    text = scenario_list(4) + "  - name: [unclosed\n"
    assert problems(text) == [
        "s.yaml:8:5: scenarios[3]: more than 3 scenarios (a scenario file holds at most 3: "
        "split them into several files)"]


def test_a_bare_list_of_scenarios_has_the_same_limit(small_limits):
    text = "".join(f"- {{name: s{i}}}\n" for i in range(4))
    assert problems(text)[0].startswith("s.yaml:4:3: scenarios[3]: more than 3 scenarios")


def test_scenarios_repeated_by_an_alias_count_each_time(small_limits):
    text = "shared: &s {name: same}\nscenarios: [*s, *s, *s, *s]\n"
    assert problems(text) == [
        "s.yaml:2:25: scenarios[3]: more than 3 scenarios (a scenario file holds at most 3: "
        "split them into several files)"]


# --------------------------------------------------------------------------- steps


def test_a_scenario_of_too_many_steps_is_refused_at_the_step_that_crosses_the_limit(
        small_limits):
    text = "scenarios:\n  - name: long\n    steps: [draw, draw, draw, draw, draw]\n"
    assert problems(text) == [
        "s.yaml:3:37: scenarios[0].steps[4]: more than 4 steps in one scenario (a scenario "
        "holds at most 4, each move of a moves: list counting as one)"]


def test_each_move_of_a_moves_list_counts_as_a_step(small_limits):
    text = ("scenarios:\n  - name: long\n    steps:\n      - draw\n"
            "      - moves: [draw, draw, draw, draw]\n")
    assert problems(text)[0].startswith(
        "s.yaml:5:35: scenarios[0].steps[1].moves[3]: more than 4 steps in one scenario")
    fits = "scenarios:\n  - name: fits\n    steps:\n      - moves: [draw, draw, draw, draw]\n"
    assert len(load_scenarios(text=fits)[0].steps[0].moves) == 4


def test_the_steps_of_a_file_are_bounded_across_its_scenarios(small_limits):
    text = scenario_list(3, "[draw, draw, draw]")  # 9 steps, at most 6 in a file
    assert problems(text) == [
        "s.yaml:7:13: scenarios[2].steps[0]: more than 6 steps in the file (a scenario file "
        "holds at most 6, each move of a moves: list counting as one)"]


def test_steps_repeated_by_an_alias_count_each_time(small_limits):
    """The parse sees the list once; the reader counts it again in every scenario."""
    text = ("scenarios:\n  - {name: a, steps: &s [draw, draw, draw]}\n"
            "  - {name: b, steps: *s}\n  - {name: c, steps: *s}\n")
    assert problems(text) == [
        "s.yaml:4:15: scenarios[2].steps: more than 6 steps in the file (a scenario file "
        "holds at most 6, each move of a moves: list counting as one)"]


def test_the_values_of_a_file_are_bounded_with_the_limit_named(monkeypatch):
    monkeypatch.setattr(scenarios, "MAX_VALUES", 100)
    legal = ", ".join(["draw"] * 20)  # 30 values a scenario: the fourth crosses 100
    found = problems(scenario_list(4, f"[{{expect: {{legal: [{legal}]}}}}]"))
    assert found == ["s.yaml:9:22: more than 100 values (a scenario file holds at most 100)"]


# --------------------------------------------------------------------------- not YAML text


def test_a_nul_byte_is_located_and_names_the_file(tmp_path):
    path = tmp_path / "binary.yaml"
    path.write_bytes(b"scenarios:\n  - name: a\x00b\n")
    with pytest.raises(ScenarioError) as info:
        load_scenarios(path)
    assert [str(p) for p in info.value.problems] == [
        f"{path}:2:12: a NUL byte: a scenario file is YAML text, not binary data"]


def test_a_control_character_yaml_forbids_is_located():
    assert problems("scenarios:\n  - name: a\x07b\n") == [
        "s.yaml:2:12: invalid YAML: the character U+0007 is not allowed in YAML text"]


def test_meldkit_test_reports_each_unreadable_file_in_one_line_and_fails(tmp_path, capsys):
    fifo = tmp_path / "fifo.yaml"
    os.mkfifo(fifo)
    nul = tmp_path / "nul.yaml"
    nul.write_bytes(b"\x00" * 64)
    big = tmp_path / "big.yaml"
    big.write_text(scenario_list(scenarios.MAX_SCENARIOS + 1), encoding="utf-8")
    code = main(["test", "pony_tail", str(fifo), "/dev/zero", str(nul), str(big)])
    out = capsys.readouterr()
    assert code != 0
    lines = (out.out + out.err).splitlines()
    assert f"{fifo}: is not a regular file (a scenario file is read only from a plain file)" \
        in lines
    assert "/dev/zero: is not a regular file (a scenario file is read only from a plain file)" \
        in lines
    assert f"{nul}:1:1: a NUL byte: a scenario file is YAML text, not binary data" in lines
    assert any(line.startswith(f"{big}:{2 + 2 * scenarios.MAX_SCENARIOS}:5: ") for line in lines)
    assert "Traceback" not in out.out + out.err


def test_a_directory_holding_a_fifo_runs_without_blocking(tmp_path):
    os.mkfifo(tmp_path / "stuck.yaml")
    (tmp_path / "ok.yaml").write_text(scenario_list(1, "[]"), encoding="utf-8")
    ran = run_scenarios("pony_tail", [tmp_path])
    assert [(p.name, [r.passed for r in results]) for p, results in ran] == [("ok.yaml", [True])]


# --------------------------------------------------------------------------- the docs


def test_the_authoring_page_states_every_limit():
    text = DOCS_PAGE.read_text(encoding="utf-8")
    for value in (scenarios.MAX_SCENARIOS, scenarios.MAX_SCENARIO_STEPS,
                  scenarios.MAX_FILE_STEPS, scenarios.MAX_VALUES, scenarios.MAX_DEPTH):
        assert f"{value:,}" in text, value
    assert f"{scenarios.MAX_FILE_BYTES // 1_000_000} MB" in text


def test_a_problem_repeats_at_most_a_cut_of_a_huge_value():
    """A scenario file's 5,000-character card or count was echoed whole in its problem."""
    huge = "q" * 5000
    found = problems(f"pack: pony_tail\nplayers: 4\nscenarios:\n  - name: x\n    deal:\n"
                     f"      stock: [{huge}]\n    steps:\n      - expect:\n"
                     f"          hand_size: {{0: {huge}}}\n")
    assert len(found) == 2 and all(len(p) < 300 and "qqq…" in p for p in found), found
