"""The ``meldkit`` command line: simulate, errors as one line, exit codes."""

from __future__ import annotations

from meldkit.cli import main


def test_simulate_prints_each_game_and_a_summary(capsys):
    assert main(["simulate", "pony_tail", "--games", "2", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert out.count("team ") >= 2
    assert "game    1" in out and "game    2" in out
    assert "Pony Tail: 2 games, 4 players, seed 3" in out
    assert "hands per game" in out


def test_simulate_is_deterministic_for_a_seed(capsys):
    main(["simulate", "pony_tail", "--games", "1", "--seed", "9", "--quiet"])
    first = capsys.readouterr().out.splitlines()[:4]
    main(["simulate", "pony_tail", "--games", "1", "--seed", "9", "--quiet"])
    assert first == capsys.readouterr().out.splitlines()[:4]


def test_unknown_pack_is_one_clear_line_and_exit_1(capsys):
    assert main(["simulate", "pony_tial", "--games", "1"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("meldkit: error:")
    assert "pony_tail" in err  # did you mean
    assert "Traceback" not in err


def test_bad_player_count_is_refused_with_exit_1(capsys):
    assert main(["simulate", "pony_tail", "--players", "3", "--games", "1"]) == 1
    assert "4 to 6 players" in capsys.readouterr().err
