"""Two checkouts' ``bench.py`` side by side: runs alternate, one core, medians and ratios.

    python benchmarks/side_by_side.py /work/base /work/new            # 5 rounds of --quick
    python benchmarks/side_by_side.py OLD NEW --rounds 7 --core 1 --args "--only decisions"

Each round runs ``OLD/benchmarks/bench.py`` with ``PYTHONPATH=OLD/src``, then the same for
NEW (each checkout measured by its own script, pinned with ``taskset`` when it exists), so
both see the same machine at nearly the same moment. Every table row that both print is
matched by its label; the table shows each side's median over the rounds and NEW / OLD
(below 1: NEW is faster). Rows whose figure is not a time, a rate or a ratio are shown as
they are. Exit status 0; the caller judges the ratios.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import time

ROW = re.compile(r"^\s{2}(?P<label>\S.*?)\s{2,}(?P<value>-?[\d,.]+)\s(?P<unit>µs|ms|s|×|/s|MB)\b")


def rows(text: str) -> dict[str, tuple[float, str]]:
    """The ``label -> (value, unit)`` rows of one ``bench.py`` table (section-qualified)."""
    out: dict[str, tuple[float, str]] = {}
    section = ""
    for line in text.splitlines():
        if line and not line.startswith(" "):
            section = line.split(",")[0].strip()
            continue
        m = ROW.match(line)
        if m:
            label = f"{section}: {m['label'].strip()}"
            out[label] = (float(m["value"].replace(",", "")), m["unit"])
    return out


def run(checkout: str, args: list[str], core: int | None) -> dict[str, tuple[float, str]]:
    env = dict(os.environ, PYTHONPATH=os.path.join(checkout, "src"))
    cmd = [sys.executable, os.path.join(checkout, "benchmarks", "bench.py"), *args]
    if core is not None and shutil.which("taskset"):
        cmd = ["taskset", "-c", str(core), *cmd]
    done = subprocess.run(cmd, env=env, cwd=checkout, capture_output=True, text=True)
    if done.returncode not in (0, 1):  # bench.py exits 1 when a target is missed
        raise SystemExit(f"{checkout}: bench.py failed:\n{done.stderr[-2000:]}")
    return rows(done.stdout)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--core", type=int, default=0, help="the core to pin to (-1: none)")
    ap.add_argument("--args", default="--quick", help="bench.py's arguments")
    a = ap.parse_args(argv)
    core = None if a.core < 0 else a.core
    got: dict[str, list[dict]] = {a.old: [], a.new: []}
    t0 = time.perf_counter()
    for r in range(a.rounds):
        for checkout in (a.old, a.new) if r % 2 == 0 else (a.new, a.old):
            got[checkout].append(run(checkout, a.args.split(), core))
        print(f"  round {r + 1}/{a.rounds} ({time.perf_counter() - t0:.0f} s)", file=sys.stderr,
              flush=True)
    labels = [k for k in got[a.new][0] if all(k in g for side in got.values() for g in side)]
    width = max(map(len, labels), default=10)
    print(f"{'row':<{width}}  {'old':>10}  {'new':>10}  new/old")
    for label in labels:
        old = statistics.median(g[label][0] for g in got[a.old])
        new = statistics.median(g[label][0] for g in got[a.new])
        unit = got[a.new][0][label][1]
        ratio = f"{new / old:.2f}" if old else "-"
        print(f"{label:<{width}}  {old:>8.3g}{unit:>2}  {new:>8.3g}{unit:>2}  {ratio}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
