"""The command line as a newcomer meets it (issue 20 item 2, issue 21 item 2): a misspelt
command or option names the right one, every command's help lists the bots it takes,
simulate and compare share one default, compare and tournament show their progress on a
terminal and in a log, compare plots, and a missing extra is one line — never a
traceback."""

from __future__ import annotations

import re
import sys

import pytest

from meldkit import cli
from meldkit.bots import BOTS
from meldkit.cli import main


def run(argv: list[str], capsys) -> tuple[int, str, str]:
    code = main(argv)
    out = capsys.readouterr()
    return code, out.out, out.err


def one_line_error(err: str) -> str:
    assert "Traceback" not in err
    assert len(err.splitlines()) == 1, err
    return err


# --------------------------------------------------------------------------- did you mean


def test_a_misspelt_command_names_the_command_meant(capsys):
    code, _, err = run(["simualte"], capsys)
    assert code == cli.EXIT_USAGE
    assert "meldkit: error: argument COMMAND: invalid choice: 'simualte' (did you mean " \
           "'simulate'? choose from packs, play, simulate," in err


def test_a_misspelt_option_names_the_option_of_that_command(capsys):
    code, _, err = run(["simulate", "pony_tail", "--gams", "3"], capsys)
    assert code == cli.EXIT_USAGE
    assert err.splitlines()[0].startswith("usage: meldkit simulate ")
    assert err.splitlines()[-1] == ("meldkit simulate: error: unrecognized arguments: --gams 3 "
                                    "(did you mean --games?)")


def test_each_misspelt_option_is_named_also_written_with_a_value(capsys):
    code, _, err = run(["compare", "pony_tail", "--sett=game.target=1", "--sed", "2"], capsys)
    assert code == cli.EXIT_USAGE
    assert err.splitlines()[-1].endswith("(did you mean --set or --seed?)")


def test_a_misspelt_choice_names_the_choice_meant(capsys):
    code, _, err = run(["validate", "x.yaml", "--format", "jsno"], capsys)
    assert code == cli.EXIT_USAGE
    assert "invalid choice: 'jsno' (did you mean 'json'? choose from text, json)" in err


def test_an_unknown_word_with_nothing_close_gets_no_guess(capsys):
    code, _, err = run(["simulate", "pony_tail", "--frobnicate"], capsys)
    assert code == cli.EXIT_USAGE
    assert err.splitlines()[-1] == "meldkit simulate: error: unrecognized arguments: --frobnicate"


def test_an_unknown_top_level_option_is_guessed_too(capsys):
    code, _, err = run(["--verison"], capsys)
    assert code == cli.EXIT_USAGE
    assert err.splitlines()[-1].endswith("(did you mean --version?)")


# --------------------------------------------------------------------------- bots


@pytest.mark.parametrize("command", ["simulate", "compare", "play", "tournament"])
def test_every_command_taking_bots_lists_each_bot_of_the_registry_in_its_help(command, capsys):
    code, out, _ = run([command, "--help"], capsys)
    assert code == 0
    bots_help = " ".join(out.split("--bots", 2)[2].split())  # the option's own entry
    assert "ismcts" in BOTS
    for name in BOTS:
        assert name in bots_help.split("--", 1)[0], (command, name)


def test_simulate_and_compare_default_to_the_same_bots(capsys):
    parser = cli.build_parser()
    simulate = parser.parse_args(["simulate", "pony_tail"])
    compare = parser.parse_args(["compare", "pony_tail", "--set", "game.target=1"])
    assert simulate.bots == compare.bots == cli.DEFAULT_BOTS
    code, out, _ = run(["compare", "pony_canasta", "--set", "game.target=2000", "--games", "1",
                        "-q"], capsys)
    assert code == 0
    assert f"bots {cli.DEFAULT_BOTS};" in out


# --------------------------------------------------------------------------- progress


COMPARE = ["compare", "pony_canasta", "--set", "game.target=2000", "--games", "2"]
TOURNAMENT = ["tournament", "gin_rummy", "--bots", "random,greedy", "--games", "3",
              "--no-ratings"]


@pytest.mark.parametrize(("argv", "command", "total"), [(COMPARE, "compare", 4),
                                                        (TOURNAMENT, "tournament", 3)])
def test_in_a_pipe_a_line_every_tenth_of_the_games(monkeypatch, capsys, argv, command, total):
    monkeypatch.setattr(cli, "PIPED_PROGRESS_SECONDS", 0.0)
    code, _, err = run(argv, capsys)
    assert code == 0
    done = [int(m[1]) for m in re.finditer(rf"^meldkit {command}: (\d+)/{total} games  ", err,
                                           re.M)]
    assert done == list(range(1, total + 1))  # fewer than ten games: one line a game
    assert "\r" not in err and "█" not in err


def test_in_a_pipe_a_short_run_stays_silent(capsys):
    assert cli.PIPED_PROGRESS_SECONDS >= 5
    code, _, err = run(TOURNAMENT, capsys)
    assert (code, err) == (0, "")


def test_piped_lines_come_every_tenth_once_the_interval_has_passed():
    import io

    stream = io.StringIO()
    lines = cli._ProgressLines("compare", 100, 0, stream)
    # the clock is read at the start and at 10, 20, ... 100 games done
    lines._clock = iter([1.0, 2.0, 12.0, 13.0, 25.0, 26.0, 27.0, 28.0, 29.0, 30.0]).__next__
    lines.last = 0.0
    for done in range(1, 101):
        lines.update(done)
    shown = [int(line.split()[2].split("/")[0]) for line in stream.getvalue().splitlines()]
    # 10 (1 s) and 20 (2 s) are too soon; 30 (12 s); 40 (13 s) too soon; 50 (25 s); 60 to
    # 90 too soon; the end is always shown once a line has been
    assert shown == [30, 50, 100]


@pytest.mark.parametrize("argv", [COMPARE, TOURNAMENT])
def test_on_a_terminal_a_bar(monkeypatch, capsys, argv):
    monkeypatch.setattr(cli, "_isatty", lambda stream: True)
    code, _, err = run(argv, capsys)
    assert code == 0
    assert "\r█" in err and " games" in err


@pytest.mark.parametrize("argv", [COMPARE, TOURNAMENT])
def test_quiet_shows_no_progress_anywhere(monkeypatch, capsys, argv):
    monkeypatch.setattr(cli, "PIPED_PROGRESS_SECONDS", 0.0)
    monkeypatch.setattr(cli, "_isatty", lambda stream: True)
    code, _, err = run([*argv, "-q"], capsys)
    assert (code, err) == (0, "")


# --------------------------------------------------------------------------- plots and extras


def test_compare_plot_draws_the_base_and_the_variant(tmp_path, capsys):
    pytest.importorskip("matplotlib")
    png = tmp_path / "compare.png"
    code, out, _ = run([*COMPARE, "-q", "--plot", str(png)], capsys)
    assert code == 0
    assert png.read_bytes()[:4] == b"\x89PNG"
    assert out.endswith(f"plot: {png}\n")


def test_compare_plot_without_matplotlib_is_one_line_before_any_game(monkeypatch, tmp_path,
                                                                     capsys):
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # the import fails
    monkeypatch.setattr("meldkit.simulate.simulate", None)  # no game may start
    code, out, err = run([*COMPARE, "--plot", str(tmp_path / "c.png")], capsys)
    assert (code, out) == (cli.EXIT_INPUT, "")
    assert one_line_error(err) == (
        'meldkit: error: --plot needs matplotlib, which is not installed: pip install '
        '"meldkit[plot]", or in a checkout pip install ".[plot]"\n')


def test_tournament_without_openskill_is_one_line_before_any_game(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "openskill", None)  # the import fails
    monkeypatch.setitem(sys.modules, "openskill.models", None)
    monkeypatch.setattr("meldkit.tournament.run_tournament", None)  # no game may start
    code, out, err = run(["tournament", "gin_rummy", "--bots", "random,greedy", "--games", "2"],
                         capsys)
    assert (code, out) == (cli.EXIT_INPUT, "")
    assert one_line_error(err) == (
        "meldkit: error: tournament ratings need OpenSkill, which is not installed: pip "
        'install "meldkit[tournament]", or in a checkout pip install ".[tournament]" (or pass '
        "--no-ratings)\n")


def test_tournament_without_openskill_plays_with_no_ratings(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "openskill", None)
    monkeypatch.setitem(sys.modules, "openskill.models", None)
    code, out, _ = run([*TOURNAMENT, "-q"], capsys)
    assert code == 0
    assert "random vs greedy:" in out and "Ratings" not in out
