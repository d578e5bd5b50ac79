"""meldkit's gin_rummy against OpenSpiel's gin_rummy, 100,000 hands in lockstep.

    python benchmarks/gin_differential.py                  # 100,000 hands, seeds 0..99,999
    python benchmarks/gin_differential.py --hands 5000 --first-seed 1000000
    python benchmarks/gin_differential.py --jobs 2         # split the seeds over 2 processes
    python benchmarks/gin_differential.py --pack oklahoma_gin --openspiel oklahoma=true

Every hand is dealt identically in both engines and played by the policy mix of
``meldkit.testing_openspiel`` (random, and greedy players that knock early, play for gin,
wait for the wall, lay off and meld fully or lazily). At every decision the legal moves
must correspond one to one; at the end, the ending and the scores must be equal. Prints a
progress line, then the count of each ending, the moves played by kind, and every hand that
differed (the first few in full: the deal and the moves, to replay). Exit status 1 if any
hand differed. Needs ``pip install -e '.[openspiel]'``.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor

from meldkit import testing_openspiel as osd


def _run(first_seed: int, hands: int, every: int, label: str, pack: str,
         params: dict) -> osd.Summary:
    t0 = time.perf_counter()

    def progress(s: osd.Summary) -> None:
        rate = s.hands / (time.perf_counter() - t0)
        print(f"  {label}{s.line()}  ({rate:,.0f} hands/s)", flush=True)

    def differs(r: osd.HandRecord) -> None:
        print(f"  {label}seed {r.seed} differs ({r.kind}): {r.difference}", flush=True)

    return osd.run_hands(hands, first_seed, progress=progress, every=every,
                         on_difference=differs, pack=pack, openspiel_params=params or None)


def _param(text: str) -> tuple[str, object]:
    """``name=value`` of an OpenSpiel game parameter: true/false, an integer, or text."""
    name, sep, value = text.partition("=")
    if not sep or not name:
        raise argparse.ArgumentTypeError(f"expected name=value, e.g. oklahoma=true (got {text!r})")
    if value.lower() in ("true", "false"):
        return name, value.lower() == "true"
    try:
        return name, int(value)
    except ValueError:
        return name, value


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hands", type=int, default=100_000, help="hands to play (100,000)")
    ap.add_argument("--first-seed", type=int, default=0, help="seed of the first hand (0)")
    ap.add_argument("--jobs", type=int, default=1, help="processes (1)")
    ap.add_argument("--every", type=int, default=5_000, help="progress line every N hands")
    ap.add_argument("--show", type=int, default=3, help="differing hands printed in full (3)")
    ap.add_argument("--pack", default="gin_rummy", help="meldkit pack (gin_rummy)")
    ap.add_argument("--openspiel", type=_param, action="append", default=[],
                    metavar="NAME=VALUE", help="an OpenSpiel gin_rummy parameter (repeatable)")
    args = ap.parse_args(argv)
    if args.hands < 1 or args.jobs < 1 or args.every < 1:
        ap.error("--hands, --jobs and --every must be at least 1")
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        print("open_spiel is not installed: pip install -e '.[openspiel]'", file=sys.stderr)
        return 2

    params = dict(args.openspiel)
    shown = ",".join(f"{k}={v}" for k, v in params.items())
    print(f"meldkit {args.pack} vs OpenSpiel gin_rummy({shown}): {args.hands:,} hands from "
          f"seed {args.first_seed}, {args.jobs} process(es)", flush=True)
    t0 = time.perf_counter()
    if args.jobs == 1:
        parts = [_run(args.first_seed, args.hands, args.every, "", args.pack, params)]
    else:
        share = -(-args.hands // args.jobs)
        starts = [(args.first_seed + i * share, min(share, args.hands - i * share))
                  for i in range(args.jobs) if i * share < args.hands]
        with ProcessPoolExecutor(len(starts)) as pool:
            futures = [pool.submit(_run, s, n, max(1, args.every // args.jobs), f"[{i}] ",
                                   args.pack, params)
                       for i, (s, n) in enumerate(starts)]
            parts = [f.result() for f in futures]
    total = osd.Summary()
    for part in parts:
        total.hands += part.hands
        total.decisions += part.decisions
        total.endings += part.endings
        total.moves += part.moves
        total.limits += part.limits
        total.differences += part.differences
    seconds = time.perf_counter() - t0

    print(f"\n{total.hands:,} hands, {total.decisions:,} decisions in {seconds:,.0f} s")
    print("endings (hands that agreed):")
    for ending in osd.ENDINGS:
        extra = ""
        if ending == "limit" and total.limits:
            extra = "  (" + ", ".join(f"{k} {v:,}" for k, v in sorted(total.limits.items())) + ")"
        print(f"  {ending:<9} {total.endings.get(ending, 0):>8,}{extra}")
    print("moves played, by OpenSpiel phase and verb:")
    for move, count in sorted(total.moves.items(), key=lambda kv: -kv[1]):
        print(f"  {move:<20} {count:>10,}")
    if not total.differences:
        print("differences: none")
        return 0
    kinds = Counter(r.kind for r in total.differences)
    print(f"differences: {len(total.differences):,} hands differed")
    for kind, count in kinds.most_common():
        print(f"  {count:>6,}  {kind}")
    print("  seeds: " + " ".join(str(r.seed) for r in total.differences[:200])
          + (" ..." if len(total.differences) > 200 else ""))
    for record in sorted(total.differences, key=lambda r: len(r.actions))[: args.show]:
        print("\n" + record.repro())
    return 1


if __name__ == "__main__":
    sys.exit(main())
