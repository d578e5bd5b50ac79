"""A regression guard that cannot flake: count work, not time.

For a fixed seed, random self-play makes the same decisions on every machine, so the number
of Python function calls (and calls into C) that the engine makes per decision is a
deterministic measure of hot-path work.  Each budget is the figure measured when the guard
was set, plus a margin; a change that makes ``legal_actions`` + ``apply`` do much more work
fails here, whatever the machine's speed.  After an optimisation, lower the budget.
"""

from __future__ import annotations

import random
import sys

import pytest

import meldkit

# (pack, players, calls per decision measured when set, budget)
BUDGETS = [
    ("pony_tail", 4, 77.6, 95.0),
    ("pony_canasta", 8, 75.68, 95.0),
    ("houses", 4, 51.44, 65.0),
    ("gin_rummy", 2, 37.98, 50.0),
    ("rummy", 4, 61.14, 75.0),
]
DECISIONS = 1500


def _play(pack: str, players: int, decisions: int, seed: int, profiler=None) -> int:
    state = meldkit.new_game(pack, players=players, seed=seed)
    rng = random.Random(seed)
    made = 0
    sys.setprofile(profiler)
    try:
        while made < decisions and not state.is_over:
            acts = state.legal_actions()
            state.apply(acts[rng.randrange(len(acts))])
            made += 1
    finally:
        sys.setprofile(None)
    return made


def calls_per_decision(pack: str, players: int, decisions: int = DECISIONS, seed: int = 7) -> float:
    """Function calls (Python and C) per decision of uniform random self-play.

    The same play-out runs twice and the second is counted, so the memo tables (interned
    actions, wild-card mixes, fit sets) are as full as they will ever be for it: the count
    does not depend on what ran before in the process.
    """
    _play(pack, players, decisions, seed)
    calls = 0

    def profiler(frame, event, arg):
        nonlocal calls
        if event == "call" or event == "c_call":
            calls += 1

    made = _play(pack, players, decisions, seed, profiler)
    # the loop's own calls (legal_actions, randrange, len, apply) count too: they are fixed
    return calls / made


@pytest.mark.parametrize("pack,players,measured,budget", BUDGETS,
                         ids=[f"{p}-{n}p" for p, n, _, _ in BUDGETS])
def test_hot_path_work_per_decision_stays_within_budget(pack, players, measured, budget):
    work = calls_per_decision(pack, players)
    assert work <= budget, (
        f"{pack} with {players} players makes {work:.1f} calls per decision, over the budget "
        f"of {budget} (the hot path does more work than before: profile it)")
