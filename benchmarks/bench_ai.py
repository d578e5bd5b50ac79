"""Per-decision cost of the game-AI interface (issue 13): legal_mask(), legal_ids(),
observation(p), beside legal_actions(); clone() and copy.deepcopy(); a Determinizer (one
replay) and one sample from it; undo() (clone-and-replay).  Positions come from random play
of every bundled pack; times are medians in microseconds.

Usage: python benchmarks/bench_ai.py [--positions 300]
"""

from __future__ import annotations

import argparse
import copy
import random
import statistics
import time

import meldkit
from meldkit.ai import Determinizer

TABLES = [("gin_rummy", 2), ("oklahoma_gin", 2), ("rummy", 4), ("houses", 4),
          ("pony_tail", 4), ("pony_canasta", 2)]


def timed(fn, repeat: int = 5) -> float:
    best = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        best.append(time.perf_counter() - t)
    return min(best) * 1e6


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--positions", type=int, default=300)
    args = ap.parse_args(argv)
    print(f"{'pack':<14}{'legal_actions':>14}{'legal_mask':>12}{'legal_ids':>11}"
          f"{'observation':>13}{'clone':>9}{'deepcopy':>10}{'determinizer':>14}"
          f"{'sample':>9}{'undo':>9}   (median us; determinizer and undo at move 100)")
    for pack, n in TABLES:
        rng = random.Random(1)
        g = meldkit.new_game(pack, players=n, seed=1)
        rows: dict[str, list[float]] = {k: [] for k in (
            "legal", "mask", "ids", "obs", "clone", "deep")}
        det_cost = sample_cost = undo_cost = float("nan")
        for i in range(args.positions):
            if g.is_over:
                g = meldkit.new_game(pack, players=n, seed=i)
            p = g.current_player

            def fresh_legal():
                g._legal_cache = None
                g.legal_actions()

            rows["legal"].append(timed(fresh_legal))
            rows["mask"].append(timed(g.legal_mask))
            rows["ids"].append(timed(g.legal_ids))
            rows["obs"].append(timed(lambda: g.observation(p)))
            rows["clone"].append(timed(g.clone))
            rows["deep"].append(timed(lambda: copy.deepcopy(g)))
            if i == 100:
                det_cost = timed(lambda: Determinizer(g, p), repeat=2)
                det = Determinizer(g, p)
                sample_cost = timed(lambda: det.sample(rng))
                c = g.clone()
                undo_cost = timed(c.undo, repeat=1)
            g.apply(rng.choice(g.legal_actions()))
        med = {k: statistics.median(v) for k, v in rows.items()}
        print(f"{pack:<14}{med['legal']:>14.1f}{med['mask']:>12.1f}{med['ids']:>11.1f}"
              f"{med['obs']:>13.1f}{med['clone']:>9.1f}{med['deep']:>10.1f}{det_cost:>14.0f}"
              f"{sample_cost:>9.1f}{undo_cost:>9.0f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
