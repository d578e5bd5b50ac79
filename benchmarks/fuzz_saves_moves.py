"""A long fuzzing campaign over saves and moves: the properties of
``tests/test_fuzz_saves_moves.py`` with many more examples than CI runs.

    python benchmarks/fuzz_saves_moves.py            # 2,000 examples per property
    python benchmarks/fuzz_saves_moves.py 20000

Prints, per property, whether it held and how long it took, then how many of a sample of
mutated saves ``from_json`` accepted (the rest were refused with a ``SaveError``).
"""

from __future__ import annotations

import collections
import os
import sys
import time
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests"))

from hypothesis import HealthCheck, settings  # noqa: E402

PROPERTIES = [
    "test_a_mutated_save_is_refused_or_loads_into_a_sound_game",
    "test_check_and_apply_agree_on_every_move_and_a_refusal_changes_nothing",
    "test_legal_actions_are_exactly_the_moves_check_accepts_among_many_candidates",
]


def main(examples: int) -> int:
    settings.register_profile("campaign", max_examples=examples, deadline=None,
                              suppress_health_check=list(HealthCheck))
    settings.load_profile("campaign")
    import test_fuzz_saves_moves as fuzz

    from meldkit import GameState, SaveError

    failed = 0
    for name in PROPERTIES:
        start = time.perf_counter()
        try:
            getattr(fuzz, name)()
            verdict = "held"
        except Exception as e:  # report and go on with the next property
            verdict = f"FAILED: {type(e).__name__}: {str(e)[:2000]}"
            failed += 1
        print(f"{name}: {verdict} ({examples} examples, {time.perf_counter() - start:.1f} s)")
    outcomes: collections.Counter[str] = collections.Counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # .example() outside a test
        for _ in range(min(examples, 2000)):
            try:
                GameState.from_json(fuzz.mutated_saves().example())
                outcomes["accepted (and sound, per the property)"] += 1
            except SaveError:
                outcomes["refused with a SaveError"] += 1
    for outcome, n in outcomes.most_common():
        print(f"  mutated saves {outcome}: {n}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(int(sys.argv[1]) if len(sys.argv) > 1 else 2000))
