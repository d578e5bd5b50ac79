"""How fast do simulations scale out?  Games per second with ``--jobs 1``, ``--jobs 2`` and
Ray with 2 workers, Ray's cost per task, and the driver's cost per record; then the sizing
table of docs/scaling.md worked out from those numbers.

    python benchmarks/bench_scale.py                  # 400 games, random bots
    python benchmarks/bench_scale.py --games 200 --bots greedy
    python benchmarks/bench_scale.py --quick          # 100 games, fewer no-op tasks, 1 run

Needs the Ray extra (``pip install -e ".[ray]"``).  Each games/s figure is the best of
``--repeat`` runs (wall time) on this machine, which may be shared: read the ratios, not the
third digit.
"""

from __future__ import annotations

import argparse
import logging
import math
import os
import statistics
import sys
import tempfile
import time

from meldkit import load_pack
from meldkit._sim_backends import auto_batch
from meldkit.simulate import record_line, simulate


REPEAT = 3


def games_per_second(pack, games: int, bots, **scale) -> tuple[float, list]:
    """Wall-clock games per second, the best of ``REPEAT`` runs (the machine may be shared:
    the best run is the least disturbed), and the records."""
    best = 0.0
    for _ in range(REPEAT):
        t0 = time.perf_counter()
        records = list(simulate(pack, 4, games, seed=1, bots=bots, **scale))
        best = max(best, games / (time.perf_counter() - t0))
    return best, records


def _noop(x):
    return x


def ray_task_overhead(ray, tasks: int) -> dict[str, float]:
    """Seconds per no-op task: one at a time (round trip), and many in flight (the cost a
    task adds to the cluster's work, per worker, and the driver's share of it)."""
    noop = ray.remote(num_cpus=1)(_noop)
    ray.get([noop.remote(i) for i in range(20)])  # warm the workers
    t0 = time.perf_counter()
    for i in range(min(tasks, 200)):
        ray.get(noop.remote(i))
    round_trip = (time.perf_counter() - t0) / min(tasks, 200)
    workers = int(ray.cluster_resources().get("CPU", 1))
    t0 = time.perf_counter()
    pending = [noop.remote(i) for i in range(tasks)]
    while pending:
        _ready, pending = ray.wait(pending, num_returns=min(len(pending), 64))
    wall = time.perf_counter() - t0
    return {"round_trip": round_trip, "per_task_cpu": wall * workers / tasks,
            "driver_per_task": wall / tasks}


def driver_cost_per_record(records, path: str) -> float:
    """Seconds the driver spends on one record: JSON line and an unbuffered write."""
    t0 = time.perf_counter()
    with open(path, "wb", buffering=0) as f:
        for _ in range(5):
            for r in records:
                f.write(record_line(r))
    return (time.perf_counter() - t0) / (5 * len(records))


def sizing(per_game: float, overhead: float, driver: float, cores: int) -> tuple[int, float]:
    """The smallest batch keeping Ray's overhead under 5%, and the games/s expected on
    ``cores`` workers with it.

    A task of ``b`` games costs ``b * per_game + overhead`` worker seconds, so the overhead
    share ``overhead / (b * per_game + overhead)`` is under 5% when
    ``b >= 19 * overhead / per_game``.  One driver writes every record, so the rate is also
    capped at ``1 / driver`` records per second.
    """
    batch = max(1, math.ceil(19 * overhead / per_game))
    rate = cores / (per_game + overhead / batch)
    return batch, min(rate, 1 / driver)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=400)
    ap.add_argument("--bots", default="random")
    ap.add_argument("--pack", default="pony_tail")
    ap.add_argument("--repeat", type=int, default=3, help="runs per figure, the best kept")
    ap.add_argument("--quick", action="store_true", help="100 games, 500 no-op tasks, 1 run")
    args = ap.parse_args(argv)
    global REPEAT
    REPEAT = 1 if args.quick else args.repeat
    games = 100 if args.quick else args.games
    bots = tuple(args.bots.split(","))
    pack = load_pack(args.pack)
    try:
        import ray
    except ImportError:
        print('needs Ray: pip install -e ".[ray]"', file=sys.stderr)
        return 1
    print(f"{args.pack}, 4 players, bots {args.bots}, {games} games, best of {REPEAT}; "
          f"{os.cpu_count()} CPUs on this machine, load average "
          f"{os.getloadavg()[0]:.1f}\n")

    one, ref = games_per_second(pack, games, bots, jobs=1)
    two, rec2 = games_per_second(pack, games, bots, jobs=2)
    assert rec2 == ref
    t0 = time.perf_counter()
    ray.init(address="local", num_cpus=2, include_dashboard=False,
             logging_level=logging.ERROR)
    start = time.perf_counter() - t0
    try:
        games_per_second(pack, 8, bots, ray="local", batch=1)  # start the workers
        on_ray, rec3 = games_per_second(pack, games, bots, ray="local")
        assert rec3 == ref
        ray_b1, _ = games_per_second(pack, games, bots, ray="local", batch=1)
        cost = ray_task_overhead(ray, 500 if args.quick else 2000)
    finally:
        ray.shutdown()
    with tempfile.TemporaryDirectory() as tmp:
        driver = driver_cost_per_record(ref, os.path.join(tmp, "r.jsonl"))
    per_game = statistics.fmean(r.seconds for r in ref)  # one process, one game

    b = auto_batch(games, 2)
    print(f"{'backend':<34} {'games/s':>9}  {'vs --jobs 1':>11}")
    for label, rate in (("--jobs 1", one), ("--jobs 2", two),
                        (f"--ray, 2 workers, batch {b} (auto)", on_ray),
                        ("--ray, 2 workers, batch 1", ray_b1)):
        print(f"{label:<34} {rate:>9.1f}  {rate / one:>10.2f}x")
    print(f"\none game in one process           {1000 * per_game:8.1f} ms")
    print(f"Ray start (ray.init, 2 CPUs)      {start:8.1f} s")
    print(f"Ray no-op task, round trip        {1000 * cost['round_trip']:8.2f} ms")
    print(f"Ray no-op task, many in flight    {1000 * cost['per_task_cpu']:8.2f} ms of worker "
          f"time per task ({1000 * cost['driver_per_task']:.2f} ms of wall time each)")
    print(f"driver, per record (JSON + write) {1e6 * driver:8.1f} us  "
          f"(one driver writes at most {1 / driver:,.0f} records/s)")

    overhead = cost["per_task_cpu"]
    print(f"\nsizing (games of {1000 * per_game:.1f} ms, {1000 * overhead:.2f} ms per task, "
          "one driver)")
    print(f"{'cores':>6} {'batch for <5% overhead':>24} {'expected games/s':>18} "
          f"{'tasks/s at the driver':>22}")
    for cores in (8, 64, 512):
        batch, rate = sizing(per_game, overhead, driver, cores)
        print(f"{cores:>6} {batch:>24} {rate:>18,.0f} {rate / batch:>22,.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
