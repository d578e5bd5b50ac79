"""What does the canasta family's ``view(player)`` cost (the rank-slot meld model: Pony Tail,
Pony Canasta, Classic Canasta, Samba, Hand and Foot)?  Random games of each pack, every
seat's view timed at every decision (CPU time of this thread, ``time.thread_time``).

    taskset -c 0 python benchmarks/bench_rank_slot_view.py            # 5 runs, every pack
    taskset -c 0 python benchmarks/bench_rank_slot_view.py --runs 3 --packs pony_tail,samba

Compare two checkouts by running it with each on ``PYTHONPATH`` (alternately, so machine
noise hits both alike)::

    for i in 1 2 3 4 5; do
      PYTHONPATH=/work/base/src taskset -c 0 python benchmarks/bench_rank_slot_view.py --runs 1
      PYTHONPATH=/work/main/src taskset -c 0 python benchmarks/bench_rank_slot_view.py --runs 1
    done

The games are the same in every checkout (the same seeds and a seeded RNG choosing among
the legal actions; random canasta rarely ends, so each game stops after ``--decisions``;
``--melding`` plays melds first, for a table with more melds on it).
The legal actions are computed before the views are timed, so a view pays for formatting
them, not for finding them.  Prints µs per ``view()`` call for each pack: each run and the
median.  Only the public API is used (``new_game``, ``legal_actions``, ``apply``, ``view``),
so the script runs against older checkouts too.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time

import meldkit

PACKS = ("pony_tail", "pony_canasta", "classic_canasta", "samba", "hand_and_foot")
MELDING = frozenset({"meld", "add", "run", "extend", "take", "pickup"})
"""With ``--melding``, a random action of these types is chosen whenever there is one (what
``meldkit.bots.RandomBot`` does): games with more melds on the table, and that end."""


def one_run(pack: str, games: int, seed: int, decisions: int,
            melding: bool = False) -> tuple[float, int]:
    """Seconds of ``view()`` CPU time and the number of ``view()`` calls over ``games``
    random games of ``pack`` (4 players), ``decisions`` decisions each at most."""
    clock = time.thread_time
    spent = 0.0
    calls = 0
    for g in range(games):
        s = seed * 100_003 + g
        state = meldkit.new_game(pack, players=4, seed=s)
        rng = random.Random(s)
        seats = range(state.n_players)
        view = state.view
        for _ in range(decisions):
            if state.is_over:
                break
            acts = state.legal_actions()  # found before the clock runs (both checkouts)
            t0 = clock()
            for p in seats:
                view(p)
            spent += clock() - t0
            calls += state.n_players
            if melding:
                acts = [a for a in acts if a.type in MELDING] or acts
            state.apply(acts[rng.randrange(len(acts))])
    return spent, calls


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=5, help="runs (default 5)")
    ap.add_argument("--games", type=int, default=20, help="games per run (default 20)")
    ap.add_argument("--decisions", type=int, default=400,
                    help="decisions per game at most (default 400)")
    ap.add_argument("--seed", type=int, default=1, help="first seed (default 1)")
    ap.add_argument("--melding", action="store_true",
                    help="meld, lay off and take the pile whenever possible (see MELDING)")
    ap.add_argument("--packs", default=",".join(PACKS), help="comma list of packs")
    args = ap.parse_args(argv)
    where = meldkit.__file__.rsplit("/src/", 1)[0]
    for pack in filter(None, args.packs.split(",")):
        per_call = []
        for _ in range(args.runs):
            spent, calls = one_run(pack, args.games, args.seed, args.decisions,
                                   args.melding)
            per_call.append(spent / calls * 1e6)
        print(f"{where}: {pack:<16}{' melding' if args.melding else ''} view() {statistics.median(per_call):7.3f} µs median "
              f"({calls} calls/run; runs: {', '.join(f'{x:.3f}' for x in per_call)})",
              flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
