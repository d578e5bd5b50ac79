"""A long fuzzing campaign over rule packs: the properties of ``tests/test_fuzz_packs.py``
with many more examples than CI runs.

    python benchmarks/fuzz_packs.py                      # 2,000 examples each, every bundled pack
    python benchmarks/fuzz_packs.py --examples 10000 --packs pony_tail houses

Each example mutates a bundled pack (its data: keys set to hostile values or deleted; or
its text: spans deleted, repeated or spliced with YAML's special characters) and checks
that loading refuses it with located problems, or that it deals and plays random games to
the end or to the named stop — never any other exception.  Hypothesis shrinks a failure to
a small pack and prints it.  Exits 1 if either property fails.
"""

from __future__ import annotations

import argparse
import sys
import time
import traceback
from pathlib import Path

from hypothesis import HealthCheck, settings

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

import test_fuzz_packs as fuzz  # noqa: E402  (the tests directory, added above)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=2000, help="examples per property")
    parser.add_argument("--packs", nargs="+", default=list(fuzz.PACKS),
                        help="bundled packs to mutate (default: all)")
    args = parser.parse_args(argv)
    fuzz.PACKS = tuple(args.packs)
    failed = False
    for test in (fuzz.test_a_mutated_pack_is_refused_or_deals_and_plays,
                 fuzz.test_a_mangled_pack_text_is_refused_or_deals_and_plays):
        run = settings(max_examples=args.examples, deadline=None, database=None,
                       suppress_health_check=list(HealthCheck))(test)
        start = time.perf_counter()
        try:
            run()
            verdict = "ok"
        except Exception:  # the shrunk failing example is in the traceback
            traceback.print_exc()
            verdict, failed = "FAILED", True
        print(f"{test.__name__}: {verdict}, {args.examples} examples over "
              f"{', '.join(fuzz.PACKS)} in {time.perf_counter() - start:.0f} s", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
