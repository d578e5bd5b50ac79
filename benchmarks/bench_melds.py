"""Speed of meldkit.kernel.melds on 11-card gin rummy hands, random and meld-rich.

Microseconds per call of ``min_deadwood``, ``min_deadwood(discard=...)``, ``melds_within``
and ``discards_within`` (knock value 10): median, 90th and 99th percentiles (means are not
shown: on a shared machine a few preempted calls dominate them), cold (every memo cleared
before the call) and warm (the same hand asked again).  OpenSpiel's C++ ``GinRummyUtils`` through
its Python binding is timed alongside when ``open_spiel`` is installed (binding overhead
included, so its figures are an upper bound on the C++ cost).

    python benchmarks/bench_melds.py [--hands 3000] [--seed 1]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from meldkit.kernel.melds import MeldKind, MeldRules

GIN = MeldRules([MeldKind("set", "set", max_size=4), MeldKind("run", "run", max_size=5)])


def timings_us(fn, hands, *, cold: bool) -> list[float]:
    times = []
    clock = time.perf_counter_ns
    for hand in hands:
        if cold:
            GIN.clear_caches()
        else:
            fn(hand)
        t = clock()
        fn(hand)
        times.append(clock() - t)
    return [t / 1000 for t in times]


def summary(times: list[float]) -> str:
    q = statistics.quantiles(times, n=100)
    return f"{statistics.median(times):8.2f} {q[89]:8.2f} {q[98]:8.1f}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    uniform = [rng.sample(range(52), 11) for _ in range(args.hands)]
    rich = []  # meld-rich: 11 of the 20 cards of five neighbouring ranks
    for _ in range(args.hands):
        low = rng.randrange(0, 9)
        rich.append(rng.sample([r * 4 + s for r in range(low, low + 5) for s in range(4)], 11))
    for label, hands in (("random", uniform), ("meld-rich (five neighbouring ranks)", rich)):
        table(label, hands, args.hands)


def table(label: str, hands: list[list[int]], count: int) -> None:
    calls = {
        "min_deadwood": GIN.min_deadwood,
        "min_deadwood(discard=True)": lambda h: GIN.min_deadwood(h, discard=True),
        "min_deadwood(discard='openspiel')": lambda h: GIN.min_deadwood(h, discard="openspiel"),
        "melds_within(10)": lambda h: GIN.melds_within(h, 10),
        "discards_within(10)": lambda h: GIN.discards_within(h, 10),
    }
    print(f"\n{count} {label} 11-card hands, us per call")
    print(f"{'call':36} {'cold: median':>12} {'p90':>8} {'p99':>8}   "
          f"{'warm: median':>12} {'p90':>8} {'p99':>8}")
    for name, fn in calls.items():
        cold = summary(timings_us(fn, hands, cold=True))
        warm = summary(timings_us(fn, hands, cold=False))
        print(f"{name:36}     {cold}       {warm}")
    try:
        import pyspiel
    except ImportError:
        print("(open_spiel not installed: no OpenSpiel column)")
        return
    utils = pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)
    os_hands = [[(((k & 3) + 1) & 3) * 13 + (k >> 2) for k in h] for h in hands]
    os_calls = {
        "OpenSpiel MinDeadwood (11 cards)": utils.min_deadwood,
        "OpenSpiel LegalMelds(10)": lambda h: utils.legal_melds(h, 10),
        "OpenSpiel LegalDiscards(10)": lambda h: utils.legal_discards(h, 10),
    }
    for name, fn in os_calls.items():
        print(f"{name:36}     {summary(timings_us(fn, os_hands, cold=False))}   (no cache)")


if __name__ == "__main__":
    main()
