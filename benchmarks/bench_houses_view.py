"""What does Houses' ``view(player)`` cost?  Random Houses games, every seat's view timed
at every decision (CPU time of this thread, ``time.thread_time``).

    taskset -c 0 python benchmarks/bench_houses_view.py            # 5 runs, 200 games each
    taskset -c 0 python benchmarks/bench_houses_view.py --runs 3 --games 100

Compare two checkouts by running it with each on ``PYTHONPATH`` (alternately, so machine
noise hits both alike)::

    for i in 1 2 3 4 5; do
      PYTHONPATH=/work/base/src taskset -c 0 python benchmarks/bench_houses_view.py --runs 1
      PYTHONPATH=/work/main/src taskset -c 0 python benchmarks/bench_houses_view.py --runs 1
    done

The games are the same in every checkout (the same seeds and a seeded RNG choosing among
the legal actions).  The legal actions are computed before the views are timed, so a view
pays for formatting them, not for finding them.  Prints µs per ``view()`` call for each run
and the median.  Only the public API is used (``new_game``, ``legal_actions``, ``apply``,
``view``), so the script runs against older checkouts too.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time

import meldkit


def one_run(games: int, seed: int, max_decisions: int = 2000) -> tuple[float, int]:
    """Seconds of ``view()`` CPU time and the number of ``view()`` calls over ``games``
    random Houses games."""
    clock = time.thread_time
    spent = 0.0
    calls = 0
    for g in range(games):
        s = seed * 100_003 + g
        state = meldkit.new_game("houses", players=4, seed=s)
        rng = random.Random(s)
        seats = range(state.n_players)
        view = state.view
        for _ in range(max_decisions):
            if state.is_over:
                break
            acts = state.legal_actions()  # found before the clock runs (both checkouts)
            t0 = clock()
            for p in seats:
                view(p)
            spent += clock() - t0
            calls += state.n_players
            state.apply(acts[rng.randrange(len(acts))])
        for p in seats:  # the final position too
            t0 = clock()
            view(p)
            spent += clock() - t0
            calls += 1
    return spent, calls


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=5, help="runs (default 5)")
    ap.add_argument("--games", type=int, default=200, help="games per run (default 200)")
    ap.add_argument("--seed", type=int, default=1, help="first seed (default 1)")
    args = ap.parse_args(argv)
    per_call = []
    for _ in range(args.runs):
        spent, calls = one_run(args.games, args.seed)
        per_call.append(spent / calls * 1e6)
    where = meldkit.__file__.rsplit("/src/", 1)[0]
    print(f"{where}: Houses view() {statistics.median(per_call):.3f} µs median "
          f"({calls} calls/run; runs: {', '.join(f'{x:.3f}' for x in per_call)})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
