"""Regenerate the README's command samples from real runs (or check that they are current).

Every ```text block of README.md whose first line is ``$ meldkit …`` is a sample: the
command is run (as ``python -m meldkit …`` with this interpreter) and the block's remaining
lines are replaced by what it printed.

    python benchmarks/readme_samples.py            # rewrite README.md in place
    python benchmarks/readme_samples.py --check    # exit 1 if a sample is out of date

``--check`` ignores the lines that measure this machine (``speed: …``), which no two runs
share; every other line must match.  The samples are whole simulations (a few minutes on two
cores), so this is a script for before a release, not a test of the quick suite.
"""

from __future__ import annotations

import argparse
import re
import shlex
import subprocess
import sys
import time
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"
SAMPLE = re.compile(r"```text\n(\$ meldkit [^\n]*)\n(.*?)```", re.S)
MACHINE_LINES = re.compile(r"^speed: ", re.M)


def run(command: str, cwd: Path) -> str:
    """What ``command`` (a ``$ meldkit …`` line) prints, standard output then error."""
    argv = shlex.split(command[2:])
    done = subprocess.run([sys.executable, "-m", "meldkit", *argv[1:]], capture_output=True,
                          text=True, cwd=cwd, check=False)
    if done.returncode != 0:
        raise SystemExit(f"{command!r} exited {done.returncode}:\n{done.stderr}")
    return done.stdout + done.stderr


def comparable(text: str) -> list[str]:
    return [line for line in text.splitlines() if not MACHINE_LINES.match(line)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only report stale samples")
    parser.add_argument("--readme", type=Path, default=README, help="the file (README.md)")
    args = parser.parse_args(argv)
    text = args.readme.read_text(encoding="utf-8")
    stale, pieces, end = [], [], 0
    for match in SAMPLE.finditer(text):
        command, old = match.group(1), match.group(2)
        started = time.perf_counter()
        new = run(command, args.readme.parent)
        print(f"{command}  ({time.perf_counter() - started:.0f} s)", file=sys.stderr)
        if comparable(new) != comparable(old):
            stale.append(command)
        pieces += [text[end:match.start()], f"```text\n{command}\n{new.rstrip()}\n```"]
        end = match.end()
    pieces.append(text[end:])
    if args.check:
        for command in stale:
            print(f"out of date: {command}")
        return 1 if stale else 0
    args.readme.write_text("".join(pieces), encoding="utf-8")
    print(f"{len(stale)} sample(s) rewritten", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
