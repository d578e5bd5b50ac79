"""The ``meldkit`` command line: every command's output and exit codes, errors as one line,
games played through standard input, saves, replays, variants and colour."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

import meldkit
from meldkit.cli import main

COMMANDS = ["packs", "play", "simulate", "compare", "validate", "rules", "replay"]


def feed(monkeypatch, text: str) -> None:
    """Standard input for the command (not a terminal)."""
    monkeypatch.setattr(sys, "stdin", io.StringIO(text))


def no_traceback(err: str) -> None:
    assert "Traceback" not in err
    lines = [line for line in err.splitlines() if line.strip()]
    assert lines and lines[0].startswith("meldkit")


# --------------------------------------------------------------------------- help and usage


def test_top_level_help_lists_every_command(capsys):
    assert main(["--help"]) == 0
    out = capsys.readouterr().out
    for command in COMMANDS:
        assert command in out
    assert "Exit codes" in out


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_has_help_with_examples(command, capsys):
    assert main([command, "--help"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"usage: meldkit {command}")
    if command != "packs":
        assert "examples:" in out


def test_version(capsys):
    assert main(["--version"]) == 0
    assert capsys.readouterr().out.startswith("meldkit ")


@pytest.mark.parametrize("argv", [
    [],                                         # no command
    ["shuffle"],                                # unknown command
    ["simulate", "--games", "0"],               # not a positive number
    ["simulate", "--frobnicate"],               # unknown option
    ["validate"],                               # missing argument
    ["compare", "pony_tail"],                   # compare without a variant
    ["play", "--seed", "3", "--resume", "x.json"],  # resume takes the seed from the save
])
def test_usage_errors_exit_2(argv, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert "usage:" in err or "error:" in err


def test_python_dash_m_meldkit_exit_codes():
    ok = subprocess.run([sys.executable, "-m", "meldkit", "packs"],
                        capture_output=True, text=True, check=False)
    assert ok.returncode == 0 and "pony_tail" in ok.stdout
    usage = subprocess.run([sys.executable, "-m", "meldkit", "simulate", "--games", "x"],
                           capture_output=True, text=True, check=False)
    assert usage.returncode == 2
    bad = subprocess.run([sys.executable, "-m", "meldkit", "rules", "nope_pack"],
                         capture_output=True, text=True, check=False)
    assert bad.returncode == 1
    assert bad.stderr.count("\n") == 1 and bad.stderr.startswith("meldkit: error:")


# --------------------------------------------------------------------------- packs


def test_packs_lists_the_bundled_packs_with_titles(capsys):
    assert main(["packs"]) == 0
    out = capsys.readouterr().out
    assert "pony_tail" in out and "Pony Tail" in out and "4-6 players" in out
    assert "pony_canasta" in out and "Pony Canasta" in out


# --------------------------------------------------------------------------- validate

BAD_PACK = """\
extends: pony_tail
deal:
  hand: "15"
books:
  size: 7
  kindz: []
"""


def test_validate_a_good_pack_says_ok(tmp_path, capsys):
    f = tmp_path / "variant.yaml"
    f.write_text("extends: pony_tail\ngame: {target: 20000}\n")
    assert main(["validate", str(f)]) == 0
    assert capsys.readouterr().out.strip() == f"{f}: ok"


def test_validate_reports_every_problem_with_file_line_col(tmp_path, capsys):
    f = tmp_path / "bad.yaml"
    f.write_text(BAD_PACK)
    assert main(["validate", str(f)]) == 1
    captured = capsys.readouterr()
    lines = captured.out.splitlines()
    assert len(lines) == 2
    assert any(line.startswith(f"{f}:3:") and "deal.hand" in line and "remove the quotes" in line
               for line in lines)
    assert any(line.startswith(f"{f}:6:") and "kinds" in line for line in lines)
    assert "2 problems" in captured.err


def test_validate_json_for_editors_and_ci(tmp_path, capsys):
    f = tmp_path / "bad.yaml"
    f.write_text(BAD_PACK)
    assert main(["validate", str(f), "--format", "json"]) == 1
    problems = json.loads(capsys.readouterr().out)
    assert len(problems) == 2
    for p in problems:
        assert set(p) == {"file", "line", "col", "path", "message", "suggestion"}
        assert p["file"] == str(f)
    assert {p["path"] for p in problems} == {"deal.hand", "books.kindz"}
    assert any(p["suggestion"] == "kinds" for p in problems)
    assert main(["validate", "pony_tail", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out) == []


def test_validate_a_missing_file_fails(tmp_path, capsys):
    assert main(["validate", str(tmp_path / "missing.yaml")]) == 1
    assert "no such file" in capsys.readouterr().out


# --------------------------------------------------------------------------- rules


def test_rules_prints_a_markdown_sheet_from_the_pack(capsys):
    assert main(["rules", "pony_tail"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("# Pony Tail\n")
    for section in ("## The deal", "## A turn", "## Melds", "## Books", "## The discard pile",
                    "## The Pony Tail", "## Going out", "## The end of a hand", "## Scoring",
                    "## The end of the game"):
        assert section in out
    assert "| sevens | 7 natural 7s | 5000 |" in out
    assert "50,000 points" in out


def test_rules_of_a_variant_and_to_a_file(tmp_path, capsys):
    target = tmp_path / "RULES.md"
    assert main(["rules", "pony_tail", "--set", "game.target=20000", "--out", str(target)]) == 0
    assert "20,000 points" in target.read_text()
    assert main(["rules", "pony_canasta"]) == 0
    assert "## The Pony\n" in capsys.readouterr().out


# --------------------------------------------------------------------------- simulate


def test_simulate_prints_each_game_and_a_summary(capsys):
    assert main(["simulate", "pony_tail", "--games", "2", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "game    1" in out and "game    2" in out
    assert "Pony Tail: 2 games, 4 players, seed 3" in out
    assert "hands per game" in out and "decisions per hand" in out
    assert "wins (95% CI)" in out
    assert "team 0 (seats 0, 2: greedy)" in out
    assert "final scores        mean       sd      min       q1   median       q3      max" in out
    assert "hands ended" in out


def test_simulate_is_deterministic_for_a_seed(capsys):
    main(["simulate", "pony_tail", "--games", "1", "--seed", "9", "--quiet"])
    first = capsys.readouterr().out.splitlines()[:8]
    main(["simulate", "pony_tail", "--games", "1", "--seed", "9", "--quiet"])
    assert first == capsys.readouterr().out.splitlines()[:8]


def test_simulate_records_are_identical_for_any_jobs(tmp_path, capsys):
    one, two = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    args = ["simulate", "pony_canasta", "--games", "4", "--seed", "5", "-q"]
    assert main(args + ["--out", str(one)]) == 0
    assert main(args + ["--out", str(two), "--jobs", "2"]) == 0
    assert one.read_bytes() == two.read_bytes()
    records = [json.loads(line) for line in one.read_text().splitlines()]
    assert [r["game"] for r in records] == [0, 1, 2, 3]
    assert {"seed", "winner", "scores", "hands", "decisions", "ended_by", "bots",
            "team_of", "went_out", "hand_scores"} <= set(records[0])


def test_simulate_bots_per_seat_and_a_variant(capsys):
    assert main(["simulate", "pony_canasta", "--players", "3", "--games", "2",
                 "--bots", "greedy,random", "--set", "game.target=2000", "-q"]) == 0
    out = capsys.readouterr().out
    assert "Pony Canasta (game.target=2000): 2 games, 3 players" in out
    assert "seat 0 (greedy)" in out and "seat 1 (random)" in out
    assert "seat 2 (greedy)" in out and "team 2" not in out


def test_simulate_bad_set_key_is_reported_against_the_option(capsys):
    assert main(["simulate", "pony_tail", "--games", "1", "--set", "game.targt=20000"]) == 1
    err = capsys.readouterr().err
    no_traceback(err)
    assert "--set game.targt=20000" in err and "did you mean 'target'" in err


def test_simulate_bad_set_value_gets_the_loaders_message(capsys):
    assert main(["simulate", "pony_tail", "--games", "1", "--set", "deal.hand=many"]) == 1
    err = capsys.readouterr().err
    assert "deal.hand" in err and "expected an integer" in err


def test_simulate_unknown_bot_is_one_line(capsys):
    """A usage error naming --bots (exit 2), as the tournament's is; a huge --seed too
    (it was exit 1, 'seed must be an int', naming no option: a CLI audit)."""
    assert main(["simulate", "pony_tail", "--games", "1", "--bots", "clever"]) == 2
    err = capsys.readouterr().err
    no_traceback(err)
    assert "--bots: unknown bot 'clever'" in err and "greedy" in err
    assert main(["simulate", "pony_tail", "--games", "1", "--seed", str(2**300)]) == 2
    assert "argument --seed: expected a whole number from -2**256 to 2**256" in (
        capsys.readouterr().err)


def test_simulate_plot_without_matplotlib_names_the_extra(monkeypatch, tmp_path, capsys):
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import fails
    assert main(["simulate", "pony_tail", "--games", "1",
                 "--plot", str(tmp_path / "p.png")]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert 'pip install "meldkit[plot]"' in err


def test_simulate_plot_draws_the_distributions(tmp_path, capsys):
    pytest.importorskip("matplotlib")
    png = tmp_path / "p.png"
    assert main(["simulate", "pony_canasta", "--games", "3", "-q", "--plot", str(png)]) == 0
    assert png.read_bytes()[:4] == b"\x89PNG"
    assert f"plot: {png}" in capsys.readouterr().out


def test_simulate_win_rates_per_seat_with_intervals(capsys):
    assert main(["simulate", "pony_tail", "--games", "2", "-q", "--bots", "random,greedy"]) == 0
    out = capsys.readouterr().out
    for seat, team, bot in ((0, 0, "random"), (1, 1, "greedy"), (2, 0, "random"),
                            (3, 1, "greedy")):
        line = next(x for x in out.splitlines() if x.strip().startswith(f"seat {seat} "))
        assert f"(team {team}: {bot})" in line and "% [" in line


def test_simulate_out_to_an_unwritable_place_is_one_line(tmp_path, capsys):
    assert main(["simulate", "pony_tail", "--games", "1",
                 "--out", str(tmp_path / "no" / "such" / "dir.jsonl")]) == 1
    no_traceback(capsys.readouterr().err)


def test_unknown_pack_is_one_clear_line_and_exit_1(capsys):
    assert main(["simulate", "pony_tial", "--games", "1"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("meldkit: error:")
    assert "pony_tail" in err  # did you mean
    assert "Traceback" not in err


def test_bad_player_count_is_refused_with_exit_1(capsys):
    assert main(["simulate", "pony_tail", "--players", "3", "--games", "1"]) == 1
    assert "4 to 6 players" in capsys.readouterr().err


# --------------------------------------------------------------------------- compare


def test_compare_a_variant_on_the_same_seeds(capsys):
    assert main(["compare", "pony_canasta", "--set", "game.target=2000", "--games", "4"]) == 0
    out = capsys.readouterr().out
    assert "base vs variant game.target=2000" in out
    assert "4 games each on the same seeds" in out
    lines = {line.split("  ")[0]: line for line in out.splitlines()}
    for row in ("seat 0 wins", "seat 1 wins", "hands per game", "decisions per game",
                "decisions per hand", "hands ended by going out"):
        assert row in lines
    # a lower target means shorter games, on every seed
    hands = lines["hands per game"]
    diff = hands.split()[-3]
    assert diff.startswith("-")


def test_compare_pairs_the_games_so_a_variant_changing_nothing_differs_by_zero(capsys):
    """A CLI audit: gin's target is already 100, yet the 'variant' game.target=100 was
    given a difference of +0.0 pts [-46.5, +46.5] over 5 games (the seats' win rates were
    compared as two separate runs); compared game by game, it is exactly 0."""
    assert main(["compare", "gin_rummy", "--set", "game.target=100", "--games", "5",
                 "-q"]) == 0
    out = capsys.readouterr().out
    assert "+0.0 pts [+0.0, +0.0]" in out.splitlines()[4]  # seat 0 wins
    from meldkit.simulate import _won, compare, simulate

    base = list(simulate("gin_rummy", 2, games=6, seed=3, bots=("random",)))
    other = list(simulate("gin_rummy", 2, games=6, seed=4, bots=("random",)))
    c = compare(base, other)
    diffs = [_won(v, 0) - _won(u, 0) for u, v in zip(base, other)]
    assert c.seat_diff[0].value == sum(diffs) / 6


def test_compare_with_a_list_index_and_a_flow_value(capsys):
    assert main(["compare", "pony_tail", "--games", "1", "-q",
                 "--set", "books.kinds.0.value=6000", "--set", "pile.freezes_on=[JK, '2']"]) == 0
    assert "books.kinds.0.value=6000, pile.freezes_on=[JK, '2']" in capsys.readouterr().out


def test_set_a_number_under_a_mapping_keyed_by_numbers_is_its_key_not_a_list_index():
    from meldkit.simulate import variant_text

    canasta = variant_text(meldkit.load_pack("classic_canasta"), ["scoring.bonus.by_count.4=900"])
    assert meldkit.load_pack_text(canasta).spec.scoring.bonus.by_count[4] == 900
    gin = variant_text(meldkit.load_pack("rummy"), ["deal.hand_by_players.3=8"])  # written
    assert meldkit.load_pack_text(gin).spec.deal.hand_by_players == {2: 10, 3: 8, 5: 6, 6: 6}
    new = variant_text(meldkit.load_pack("gin_rummy"), ["game.target_by_players.2=50"])  # not
    assert meldkit.load_pack_text(new).spec.game.target_by_players == {2: 50}


def test_compare_bad_value_exit_1(capsys):
    assert main(["compare", "pony_tail", "--games", "1", "--set", "game.target=[1, 2]"]) == 1
    err = capsys.readouterr().err
    assert "--set game.target=[1, 2]" in err and "expected an integer" in err
    assert main(["compare", "pony_tail", "--games", "1", "--set", "target"]) == 1
    assert "expected KEY=VALUE" in capsys.readouterr().err


# --------------------------------------------------------------------------- play


def test_play_a_whole_game_on_standard_input(monkeypatch, capsys):
    feed(monkeypatch, "1\n" * 3000)
    assert main(["play", "pony_canasta", "--players", "2", "--seed", "1", "--bots", "random"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("New game of Pony Canasta, 2 players, seed 1. You are seat 0")
    assert "Hand 1 is over" in out
    assert "Game over after" in out
    assert "Your hand (seat 0" in out and "Your moves" in out


def test_play_a_whole_game_of_pony_tail_with_greedy_partners(monkeypatch, capsys):
    feed(monkeypatch, "1\n" * 1500)
    assert main(["play", "pony_tail", "--seed", "2", "--seat", "1"]) == 0
    out = capsys.readouterr().out
    assert "You are seat 1, team 1" in out
    assert "── Hand 1 is over" in out
    # the table: scores, melds, the Pony Tail, the pile, the stock, the hand grouped by rank
    assert "Scores: " in out and "Pony Tail of 13 down" in out
    assert "Pile: " in out and "Stock: " in out
    assert "seat 0 (greedy, team 0): drew 2 cards from the stock" in out
    assert "Game over after" in out and "End of input" not in out


def test_play_leaves_at_the_end_of_input(monkeypatch, capsys):
    feed(monkeypatch, "1\n" * 3)
    assert main(["play", "pony_tail", "--seed", "2"]) == 0
    assert "End of input: leaving the game unfinished" in capsys.readouterr().out


def test_play_shows_the_kernels_reason_for_an_illegal_move(monkeypatch, capsys):
    feed(monkeypatch, "meld 9 9 9\ndiscard 9x\n99\nquit\n")
    assert main(["play", "pony_tail", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "not allowed: draw first: from the stock or the discard pile [turn/draw-first]" in out
    assert "[notation/bad-card]" in out
    assert "there is no move 99" in out
    assert "Game left unfinished." in out


def test_play_help_hint_and_undo(monkeypatch, capsys):
    feed(monkeypatch, "help\nundo\nhint\ndraw\nundo\nquit\n")
    assert main(["play", "pony_tail", "--seed", "3", "--color", "never"]) == 0
    out = capsys.readouterr().out
    assert "Type a move's number, or the move itself in notation" in out
    assert "nothing to undo" in out
    assert "hint: " in out
    assert "you: draw" in out and "undone: draw" in out
    # after the undo the table shows the draw phase again
    assert out.rindex("draw phase") > out.index("undone: draw")


def test_play_save_resume_and_replay(monkeypatch, tmp_path, capsys):
    save = tmp_path / "game.json"
    feed(monkeypatch, f"1\n1\nsave {save}\nquit\n")
    assert main(["play", "pony_tail", "--seed", "4", "--bots", "random,greedy"]) == 0
    assert f"saved to {save}" in capsys.readouterr().out
    data = json.loads(save.read_text())
    assert data["format"] == "meldkit-save/1"
    assert data["play"]["bots"] == ["you", "random", "greedy", "random"]

    feed(monkeypatch, "table\nquit\n")
    assert main(["play", "--resume", str(save)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Resuming Pony Tail, 4 players, seed 4. You are seat 0")
    assert "team 1: seat 1 (random), seat 3 (random)" in out

    assert main(["replay", str(save)]) == 0
    out = capsys.readouterr().out
    n = len(data["history"])
    assert f"{n} actions" in out
    assert "    1  seat " in out and f"{n:>5}  seat 0 (team 0)" in out
    assert "── Hand 1 ──" in out
    assert "ok: replaying the" in out


def test_replay_step_shows_the_table_and_stops_on_q(monkeypatch, tmp_path, capsys):
    save = tmp_path / "game.json"
    feed(monkeypatch, f"1\n1\nsave {save}\nquit\n")
    main(["play", "pony_tail", "--seed", "3"])
    capsys.readouterr()
    feed(monkeypatch, "\n\nq\n")
    assert main(["replay", str(save), "--step", "--seat", "0"]) == 0
    out = capsys.readouterr().out
    assert out.count("Your hand (seat 0") == 3
    assert "    2  seat" in out and "    3  seat" not in out
    assert "ok: replaying" not in out


def test_replay_of_a_tampered_save_fails(monkeypatch, tmp_path, capsys):
    save = tmp_path / "game.json"
    feed(monkeypatch, f"1\n1\nsave {save}\nquit\n")
    main(["play", "pony_tail", "--seed", "3"])
    capsys.readouterr()
    data = json.loads(save.read_text())
    data["history"] = data["history"][:-1]
    save.write_text(json.dumps(data))
    assert main(["replay", str(save)]) == 1
    err = capsys.readouterr().err
    no_traceback(err)
    assert "does not reproduce the saved state" in err


def test_replay_names_a_bad_action_by_its_number_and_its_history_index(tmp_path, capsys):
    g = meldkit.new_game("gin_rummy", players=2, seed=3)
    for _ in range(4):
        g.apply(g.legal_actions()[0])
    data = json.loads(g.to_json())
    data["history"][2] = "discard ZZ"
    save = tmp_path / "game.json"
    save.write_text(json.dumps(data))
    assert main(["replay", str(save)]) == 1
    err = capsys.readouterr().err
    assert "action 3 ('discard ZZ', the save's history[2]) cannot be replayed" in err


def test_play_refuses_to_resume_a_save_whose_history_does_not_replay(monkeypatch, tmp_path,
                                                                     capsys):
    save = tmp_path / "game.json"
    feed(monkeypatch, f"1\n1\nsave {save}\nquit\n")
    main(["play", "pony_tail", "--seed", "3"])
    capsys.readouterr()
    data = json.loads(save.read_text())
    data["history"] = data["history"][:-1]  # the state stays: a record that never replays
    save.write_text(json.dumps(data))
    feed(monkeypatch, "quit\n")
    assert main(["play", "--resume", str(save)]) == 1
    err = capsys.readouterr().err
    no_traceback(err)
    assert "its history does not replay from its seed to the saved game" in err


def test_replay_of_a_file_that_is_not_a_save(tmp_path, capsys):
    f = tmp_path / "x.json"
    f.write_text("{not json")
    assert main(["replay", str(f)]) == 1
    no_traceback(capsys.readouterr().err)
    assert main(["replay", str(tmp_path / "missing.json")]) == 1
    assert "No such file" in capsys.readouterr().err


@pytest.mark.parametrize("argv", [["replay", "{f}", "--pack", "gin_rummy"],
                                  ["play", "gin_rummy", "--resume", "{f}"]])
def test_a_deeply_nested_save_named_with_its_pack_is_one_line(tmp_path, capsys, argv):
    """With the pack named, the save's pack was read by a plain json.loads before the
    save's own checks: a deeply nested file ended in a RecursionError's traceback."""
    f = tmp_path / "deep.json"
    f.write_text("[" * 100_000 + "]" * 100_000)
    assert main([a.format(f=f) for a in argv]) == 1
    err = capsys.readouterr().err
    no_traceback(err)
    assert "not a meldkit save: JSON nested too deeply" in err


def test_play_bad_seat_is_one_line(monkeypatch, capsys):
    feed(monkeypatch, "")
    assert main(["play", "pony_tail", "--seat", "7", "--seed", "1"]) == 1
    assert "the table has seats 0 to 3" in capsys.readouterr().err


def test_play_through_a_real_pipe():
    proc = subprocess.run(
        [sys.executable, "-m", "meldkit", "play", "pony_tail", "--seed", "5"],
        input="1\nquit\n", capture_output=True, text=True, timeout=60, check=False)
    assert proc.returncode == 0
    assert "you: draw" in proc.stdout and "\033[" not in proc.stdout


# --------------------------------------------------------------------------- colour


def test_colour_only_when_asked_or_on_a_terminal(monkeypatch, capsys):
    from meldkit._table import colour_wanted

    class Tty(io.StringIO):
        def isatty(self):
            return True

    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.delenv("TERM", raising=False)
    assert colour_wanted(Tty()) is True
    assert colour_wanted(io.StringIO()) is False
    assert colour_wanted(Tty(), "never") is False
    monkeypatch.setenv("NO_COLOR", "1")
    assert colour_wanted(Tty()) is False
    assert colour_wanted(io.StringIO(), "always") is True

    feed(monkeypatch, "quit\n")
    main(["play", "pony_tail", "--seed", "3"])
    assert "\033[" not in capsys.readouterr().out
    feed(monkeypatch, "quit\n")
    main(["play", "pony_tail", "--seed", "3", "--color", "always"])
    assert "\033[1m" in capsys.readouterr().out


def test_progress_bar_draws_only_on_a_terminal():
    from meldkit._table import Progress

    quiet = io.StringIO()
    p = Progress(10, stream=quiet)
    p.update(5)
    p.close()
    assert quiet.getvalue() == ""
    shown = io.StringIO()
    p = Progress(10, stream=shown, enabled=True)
    p.update(10)
    p.close()
    assert "10/10 games" in shown.getvalue() and shown.getvalue().endswith("\n")


def test_readme_shows_the_command_line():
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text()
    assert "## Command line" in readme
    for command in ("meldkit simulate", "meldkit play", "meldkit compare"):
        assert command in readme


def test_the_readme_play_transcript_is_what_meldkit_play_prints(monkeypatch, capsys):
    """The README's ``meldkit play`` session, replayed: its moves fed to the command, every
    line it shows (but the ``[…]`` elisions) printed in that order."""
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    start = readme.index("$ meldkit play pony_tail --seed 3\n")
    block = readme[start:readme.index("```", start)].splitlines()
    shown = [line for line in block[1:] if not line.startswith("[…")]
    moves = [line.split("your move> ", 1)[1] for line in shown if line.startswith("your move> ")]
    feed(monkeypatch, "\n".join(moves + ["quit"]) + "\n")
    monkeypatch.setenv("NO_COLOR", "1")
    main(["play", "pony_tail", "--seed", "3"])
    out = capsys.readouterr().out.splitlines()
    printed = [line.replace("your move> ", "", 1) if line.startswith("your move> ") else line
               for line in out]
    at = 0
    for line in shown:
        want = line.split("your move> ", 1)[1] if line.startswith("your move> ") else line
        while at < len(out) and want not in (out[at], printed[at]) and not out[at].endswith(
                want):
            at += 1
        assert at < len(out), f"README line not printed (in order): {line!r}"
        at += 1


# --------------------------------------------------------------------------- a CLI audit (stop 47)


def test_save_writes_only_files_and_through_links(monkeypatch, tmp_path, capsys):
    """``save PATH`` renamed its file over anything at PATH: a FIFO, a link (and, as root,
    a device: an audit replaced /dev/full)."""
    import os

    fifo, link, real = tmp_path / "fifo", tmp_path / "link.json", tmp_path / "real.json"
    os.mkfifo(fifo)
    link.symlink_to(real)
    feed(monkeypatch, f"save {fifo}\nsave {link}\nquit\n")
    assert main(["play", "gin_rummy", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert f"could not save to {fifo}: it is not a regular file" in out
    assert fifo.exists() and not fifo.is_file()  # still the FIFO
    assert link.is_symlink() and json.loads(real.read_text())["pack"] == "gin_rummy"
    for argv in (["play", "--resume", str(fifo)], ["replay", str(fifo)]):  # never blocks
        assert main(argv) == 1
        assert "not a regular file (a save is read from a file)" in capsys.readouterr().err


def test_resume_takes_over_another_seat_and_names_a_pack_file(monkeypatch, tmp_path, capsys):
    pack, save = tmp_path / "family.yaml", tmp_path / "fam.json"
    pack.write_text("meldkit: 1\nextends: gin_rummy\nname: family\n", encoding="utf-8")
    feed(monkeypatch, f"save {save}\nquit\n")
    assert main(["play", str(pack), "--seed", "1"]) == 0
    assert f"resume with: meldkit play {pack} --resume {save}" in capsys.readouterr().out
    feed(monkeypatch, "quit\n")
    assert main(["play", str(pack), "--resume", str(save), "--seat", "1"]) == 0
    assert "You are seat 1, against seat 0 (greedy)." in capsys.readouterr().out


def test_a_canasta_hands_summary_names_each_item_once(monkeypatch, capsys):
    feed(monkeypatch, "1\n" * 3000)
    main(["play", "pony_tail", "--seed", "3"])
    out = capsys.readouterr().out
    line = next(x for x in out.splitlines() if x.startswith("  team 0 (yours): "))
    assert line.count("melded cards") == 1 and line.count("books") == 1, line


def test_simulate_refuses_its_own_pack_as_out_and_a_bad_plot_before_playing(tmp_path, capsys):
    pack = tmp_path / "mine.yaml"
    pack.write_text("meldkit: 1\nextends: pony_tail\n", encoding="utf-8")
    assert main(["simulate", str(pack), "--games", "1", "-q", "--out", str(pack)]) == 2
    assert "is the pack being played" in capsys.readouterr().err
    assert pack.read_text(encoding="utf-8").startswith("meldkit: 1")
    pytest.importorskip("matplotlib")
    for plot, says in ((tmp_path / "nodir" / "p.png", "no directory"),
                       (tmp_path / "p.txt", "name a file ending in one of")):
        assert main(["simulate", "pony_tail", "--games", "1", "-q", "--plot", str(plot)]) == 2
        captured = capsys.readouterr()
        assert says in captured.err and "game    1" not in captured.out  # nothing played


def test_a_closed_stdout_is_no_traceback(tmp_path):
    out = tmp_path / "g.jsonl"
    run = subprocess.run([sys.executable, "-c", "import os, sys; os.close(1); sys.stdout = "
                          "None; from meldkit.cli import main; sys.exit(main(['simulate', "
                          f"'pony_tail', '--games', '2', '-q', '--out', {str(out)!r}]))"],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0 and "Traceback" not in run.stderr, run.stderr
    assert len(out.read_text().splitlines()) == 2


@pytest.mark.parametrize("argv,says", [
    (["simulate", "pony_tail", "--games", "1000000000000"],
     "argument --games: expected at most 1,000,000,000, got 1,000,000,000,000"),
    (["simulate", "pony_tail", "--jobs", "5000"], "argument --jobs/-j: expected at most 1,024"),
    (["schema", "--path", "--out", "x.json"], "--path prints where the shipped schema is"),
    (["keys", "deal.hand", "--search", "hand"], "give a key or --search words, not both"),
])
def test_usage_errors_name_the_option_and_exit_2(argv, says, capsys):
    assert main(argv) == 2
    assert says in capsys.readouterr().err


def test_a_test_run_that_finds_no_scenario_says_where_it_looked(tmp_path, capsys):
    assert main(["test", "pony_tail", str(tmp_path)]) == 1
    assert f"no scenario found in {tmp_path}" in capsys.readouterr().out


def test_compare_counts_a_knock_or_gin_as_going_out_in_a_knocking_pack(capsys):
    assert main(["compare", "gin_rummy", "--set", "game.target=50", "--games", "4", "-q"]) == 0
    row = next(line for line in capsys.readouterr().out.splitlines()
               if line.startswith("hands ended by going out"))
    assert row.split()[5] != "0.0%"  # every gin hand ends by a knock, gin or the wall


class _CtrlC(io.StringIO):
    """Standard input that raises KeyboardInterrupt at the lines marked ``^C``."""

    def readline(self, *args):
        line = super().readline(*args)
        if line.strip() == "^C":
            raise KeyboardInterrupt
        return line


def test_play_survives_one_ctrl_c_at_the_prompt_and_leaves_on_a_second(monkeypatch, capsys,
                                                                       tmp_path):
    """A CLI audit: Ctrl-C in `play` lost the game at once, without the save hint end of
    input gives. At the prompt it now says how to keep or leave the game and goes on; a
    second Ctrl-C in a row leaves (exit 130)."""
    save = tmp_path / "kept.json"
    monkeypatch.setattr(sys, "stdin", _CtrlC(f"^C\nsave {save}\n^C\n^C\n"))
    assert main(["play", "gin_rummy", "--seed", "1"]) == 130
    out = capsys.readouterr().out
    assert "(Ctrl-C: 'save FILE' keeps the game, 'quit' leaves it; Ctrl-C again leaves it " \
           "unfinished)" in out
    assert out.rstrip().endswith("Interrupted again: leaving the game unfinished.")
    assert save.is_file()  # saved between the two interruptions
