"""Test configuration: Hypothesis settings profiles and the ``slow`` marker.

Profiles (choose with ``--hypothesis-profile=NAME``, Hypothesis's own pytest option):

- ``default`` — loaded when none is named; quick enough for every local run;
- ``ci``      — four times the examples, for long runs by hand;
- ``dev``     — a handful of examples, for quick runs while editing;
- ``ci-slow`` — ten examples, for ``.ci/run``'s slow pass: the same properties at the bigger
  tables, where an example plays far more actions (the quick pass gives each game's first
  table the default's 25).
"""

from __future__ import annotations

import os
import sys

from hypothesis import HealthCheck, settings

# strategies.py lives next to this file; make it importable however pytest is invoked.
sys.path.insert(0, os.path.dirname(__file__))

# Play-outs run hundreds of actions per example: no per-example deadline, and generating
# the long choice lists is expected to take a while.
_common = {"deadline": None, "suppress_health_check": [HealthCheck.too_slow]}

# Registering "default" replaces Hypothesis's built-in default profile, which is the
# active one unless --hypothesis-profile names another.
settings.register_profile("default", max_examples=25, **_common)
settings.register_profile("ci", max_examples=100, print_blob=True, **_common)
settings.register_profile("dev", max_examples=10, **_common)
settings.register_profile("ci-slow", max_examples=10, **_common)


def pytest_runtest_logreport(report):
    """With ``MELDKIT_SKIPPED`` naming a file, append the id of every skipped test to it:
    ``.ci/run`` runs again, once the extras are installed, just the tests its first pass
    (``.[test]`` alone) skipped."""
    path = os.environ.get("MELDKIT_SKIPPED")
    if path and report.skipped and not hasattr(report, "wasxfail"):
        with open(path, "a", encoding="utf-8") as f:
            f.write(report.nodeid + "\n")


def pytest_configure(config):
    config.addinivalue_line(
        "markers", "slow: a long run (many whole games); deselect with -m 'not slow'"
    )
    config.addinivalue_line(
        "markers", "ray: starts a local Ray (slow; .ci/run runs these in one process, not -n)"
    )


# The README's test command is the quick suite, `python -m pytest -n auto -m "not slow"`
# (a few minutes at most on two cores); .ci/run also runs `-m slow`. Besides the tests
# marked slow where they are written, these soak runs are slow:
SOAK_TESTS = {
    "test_whole_games_keep_every_invariant_at_every_action",  # whole games, every action
    "test_2000_hands_agree_with_openspiel_move_for_move_and_score_for_score",
}
QUICK_PLAYERS = 4
"""Parametrized cases with more players are slow (the same checks at a bigger table)."""


def _players(params: dict) -> int | None:
    table = params.get("table")
    if hasattr(table, "players"):
        return table.players
    players = params.get("players")
    return players if isinstance(players, int) else None


def pytest_collection_modifyitems(config, items):
    """Mark the soak runs slow: :data:`SOAK_TESTS`; a conformance table that is not the
    first of its game in ``strategies.CONFORMANCE_TABLES`` (each game keeps one quick
    table); any other case with more than :data:`QUICK_PLAYERS` players; the tests that
    start Ray (a ``ray`` word in the name; also marked ``ray``)."""
    import pytest

    from strategies import CONFORMANCE_TABLES

    first: dict[str, object] = {}
    for table in CONFORMANCE_TABLES:
        first.setdefault(table.pack, table)
    for item in items:
        name = getattr(item, "originalname", item.name)
        params = getattr(getattr(item, "callspec", None), "params", {})
        table = params.get("table")
        if hasattr(table, "pack"):
            slow = first.get(table.pack) != table
        else:
            players = _players(params)
            slow = players is not None and players > QUICK_PLAYERS
        starts_ray = "ray" in name.split("_")
        if slow or name in SOAK_TESTS or starts_ray:
            item.add_marker(pytest.mark.slow)
        if starts_ray:
            item.add_marker(pytest.mark.ray)
