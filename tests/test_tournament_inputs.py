"""What ``run_tournament``, ``simulate`` and ``meldkit tournament`` refuse, and how, before
any game is played: a seed too big for its games' seeds, a bot name unknown or given
twice, a plain string for the list of bots, more games than a pairing may play; and the
words of the progress lines and the seat rotation.

Games are gin_rummy between ``random`` and ``greedy`` (about 15 ms each).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from meldkit import SetupError
from meldkit import tournament as tournament_module
from meldkit.cli import EXIT_USAGE, main
from meldkit.simulate import simulate
from meldkit.tournament import MAX_PAIRING_GAMES, play_pairing, run_tournament

DOCS = Path(__file__).resolve().parents[1] / "docs"
TOURNAMENT = ["tournament", "gin_rummy", "--no-ratings", "-q"]


def run(argv: list[str], capsys) -> tuple[int, str, str]:
    code = main(argv)
    out = capsys.readouterr()
    return code, out.out, out.err


def no_game(*args):
    raise AssertionError("a game was played before the settings were checked")


# --------------------------------------------------------------------------- seed


def test_a_seed_too_big_is_refused_up_front_naming_seed_and_the_value_given():
    with pytest.raises(SetupError) as e:
        run_tournament("gin_rummy", ["random", "greedy"], games=2, seed=2**250,
                       ratings=False, progress=no_game)
    message = str(e.value)
    assert message.startswith("run_tournament: seed must be a whole number from -2**236 to "
                              f"2**236, not {str(2**250)[:18]}...")  # the seed given
    assert len(message.split(", not ", 1)[1]) <= 60


@pytest.mark.parametrize(("seed", "shown"), [(1.5, "1.5"), (True, "True"), ("3", "'3'"),
                                             (-(2**236) - 1, "-11042")])
def test_a_seed_not_an_int_or_out_of_range_is_refused_naming_seed(seed, shown):
    with pytest.raises(SetupError, match=r"^run_tournament: seed must be a whole number from "
                                         rf"-2\*\*236 to 2\*\*236, not {shown}"):
        run_tournament("gin_rummy", ["random", "greedy"], games=2, seed=seed, ratings=False,
                       progress=no_game)


def test_every_game_seed_of_the_extreme_seeds_is_valid():
    biggest = tournament_module.MAX_SEED
    assert biggest == 2**236
    for seed in (biggest, -biggest):
        r = run_tournament("gin_rummy", ["random", "greedy"], games=1, seed=seed,
                           ratings=False)
        assert sum(r.pairs[0][2:5]) == 1
    # the last game of the longest pairing, from the biggest seed
    assert play_pairing("gin_rummy", 2, "random", "greedy", MAX_PAIRING_GAMES - 1,
                        seed=biggest) in ("random", "greedy", None)


def test_the_cli_refuses_a_seed_too_big_as_a_usage_error_naming_seed(capsys):
    code, out, err = run([*TOURNAMENT, "--bots", "random,greedy", "--games", "2",
                          "--seed", str(2**250)], capsys)
    assert (code, out) == (EXIT_USAGE, "")
    assert err.startswith("usage: meldkit tournament ")
    last = err.splitlines()[-1]
    assert last.startswith("meldkit tournament: error: argument --seed: expected a whole "
                           f"number from -2**236 to 2**236, got {str(2**250)[:18]}...")
    assert len(last.split(", got ", 1)[1]) <= 60


def test_the_cli_refuses_a_seed_not_a_whole_number_naming_seed(capsys):
    code, _, err = run([*TOURNAMENT, "--bots", "random,greedy", "--seed", "1.5"], capsys)
    assert code == EXIT_USAGE
    assert "error: argument --seed: expected a whole number" in err and "'1.5'" in err


# --------------------------------------------------------------------------- bots


def test_an_unknown_bot_is_refused_before_any_game():
    with pytest.raises(ValueError, match=r"unknown bot 'bogus' \(expected one of "):
        run_tournament("gin_rummy", ["greedy", "random", "bogus"], games=100, ratings=False,
                       progress=no_game)


@pytest.mark.parametrize("bots", ["random,greedy", "random"])
def test_a_plain_string_of_bots_is_refused_asking_for_a_list(bots):
    with pytest.raises(SetupError, match=r"^run_tournament: bots must be a list of bot names, "
                                         r"e\.g\. \['random', 'greedy'\], not 'random"):
        run_tournament("gin_rummy", bots, games=2, ratings=False, progress=no_game)


@pytest.mark.parametrize(("bots", "words"), [
    (["random"], "a tournament needs at least two bots"),
    (["random", "greedy", "random"], "name each bot once (random more than once)"),
    (["random", 7], "bots must be a list of bot names"),
])
def test_too_few_repeated_or_odd_bots_are_refused_naming_bots(bots, words):
    with pytest.raises(SetupError) as e:
        run_tournament("gin_rummy", bots, games=2, ratings=False, progress=no_game)
    assert str(e.value).startswith("run_tournament: ") and words in str(e.value)


def test_simulate_refuses_a_plain_string_of_bots_asking_for_a_list():
    with pytest.raises(SetupError, match=r"^simulate: bots must be a list of bot names"
                                         r".*, not 'random'"):
        simulate("gin_rummy", 2, games=1, bots="random")
    with pytest.raises(SetupError, match=r"^simulate: bots must name at least one bot"):
        simulate("gin_rummy", 2, games=1, bots=[])
    with pytest.raises(SetupError, match=r"^simulate: bots must be a list of bot names"):
        simulate("gin_rummy", 2, games=1, bots=["random", ["greedy"]])
    assert [r.bots for r in simulate("gin_rummy", 2, games=1, bots=("greedy",))] == \
        [("greedy", "greedy")]


def test_the_cli_refuses_a_bot_named_twice_as_a_usage_error_naming_bots(monkeypatch, capsys):
    monkeypatch.setattr(tournament_module, "run_tournament", None)  # no game may start
    code, out, err = run([*TOURNAMENT, "--bots", "random,random", "--games", "2"], capsys)
    assert (code, out) == (EXIT_USAGE, "")
    assert err == ("meldkit tournament: error: --bots: name each bot once (random more than "
                   "once), e.g. --bots greedy,random\n")


# --------------------------------------------------------------------------- games


@pytest.mark.parametrize(("games", "shown"), [("100001", "100,001"),
                                              (str(10**23), f"{10**23:,}")])
def test_the_cli_refuses_more_games_than_a_pairing_plays_as_a_usage_error(capsys, games,
                                                                            shown):
    code, out, err = run([*TOURNAMENT, "--bots", "random,greedy", "--games", games], capsys)
    assert (code, out) == (EXIT_USAGE, "")
    assert err.startswith("usage: meldkit tournament ")
    assert err.splitlines()[-1] == ("meldkit tournament: error: argument --games: expected at "
                                    f"most 100,000, got {shown}")


def test_the_cli_takes_the_most_games_a_pairing_plays():
    from meldkit.cli import build_parser

    args = build_parser().parse_args(["tournament", "gin_rummy", "--bots", "random,greedy",
                                      "--games", str(MAX_PAIRING_GAMES)])
    assert args.games == MAX_PAIRING_GAMES == 100_000


# --------------------------------------------------------------------------- words


@pytest.mark.parametrize("command", ["compare", "tournament"])
def test_the_quiet_help_says_progress_lines_are_at_least_10_s_apart(command, capsys):
    code, out, _ = run([command, "--help"], capsys)
    assert code == 0
    quiet = " ".join(out.split("--quiet, -q", 1)[1].split())
    assert "a line every tenth of the games, at most one every 10 s" in quiet


@pytest.mark.parametrize("page", ["getting-started.md", "scaling.md"])
def test_the_docs_say_progress_lines_are_at_least_10_s_apart(page):
    text = " ".join((DOCS / page).read_text(encoding="utf-8").split())
    assert "every tenth of the games, at most one every 10 seconds" in text


def test_the_module_says_seats_are_even_only_over_an_even_number_of_games():
    doc = " ".join(tournament_module.__doc__.split())
    assert "over an even number of games each bot sits in every seat equally often" in doc
