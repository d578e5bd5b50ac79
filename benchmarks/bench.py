"""Speed of the rules engine: random self-play on one core.

    python benchmarks/bench.py            # Pony Tail, 4 and 6 players
    python benchmarks/bench.py --runs 7 --decisions 20000

Prints decisions per second, microseconds per decision (``legal_actions`` + choosing +
``apply``) and games per second, as the median (and min–max) of several runs.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

import meldkit
from meldkit.bots import RandomBot


def decisions_run(pack: str, players: int, decisions: int, seed: int) -> float:
    """Seconds for ``decisions`` decisions of random self-play (new games as needed)."""
    bot = RandomBot(seed=seed)
    game = 0
    state = meldkit.new_game(pack, players=players, seed=seed)
    t0 = time.perf_counter()
    for _ in range(decisions):
        if state.is_over:
            game += 1
            state = meldkit.new_game(pack, players=players, seed=seed * 1000 + game)
        state.apply(bot.choose(state))
    return time.perf_counter() - t0


def games_run(pack: str, players: int, games: int, seed: int) -> float:
    """Seconds for ``games`` whole games of random self-play."""
    t0 = time.perf_counter()
    for g in range(games):
        state = meldkit.new_game(pack, players=players, seed=seed * 1000 + g)
        bot = RandomBot(seed=g)
        while not state.is_over:
            state.apply(bot.choose(state))
    return time.perf_counter() - t0


def fmt(values: list[float], unit: str, scale: float = 1.0) -> str:
    v = [x * scale for x in values]
    return f"{statistics.median(v):>10,.1f} {unit}  ({min(v):,.1f}–{max(v):,.1f})"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pack", default="pony_tail")
    ap.add_argument("--players", default="4,6")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--decisions", type=int, default=10000)
    ap.add_argument("--games", type=int, default=2)
    args = ap.parse_args(argv)
    print(f"meldkit {meldkit.__version__}, Python {sys.version.split()[0]}; "
          f"median of {args.runs} runs (min–max)")
    for n in [int(x) for x in args.players.split(",")]:
        secs = [decisions_run(args.pack, n, args.decisions, seed=r) for r in range(args.runs)]
        per = [s / args.decisions for s in secs]
        print(f"{args.pack} {n} players")
        print(f"  decisions/s     {fmt([1 / p for p in per], '/s')}")
        print(f"  per decision    {fmt(per, 'µs', 1e6)}")
        gsecs = [games_run(args.pack, n, args.games, seed=r) for r in range(args.runs)]
        print(f"  games/s         {fmt([args.games / s for s in gsecs], '/s')}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
