"""A targeted soak of rearranging (``melds.rearrange``) and the play-or-draw turn
(``turn.play_or_draw``): the Rummikub example pack and eight variants of it (no opening,
breaking one's own melds only, three tries a turn (``melds.restores``), jokers won back,
the hand over when the stock is empty, two cards drawn, a draw and no discard, a
draw-and-discard turn), each played by random and greedy bots at every table size with
every check of the combination campaign (``fuzz_packs.run_combo``: card conservation and
liveness after every decision, ``check`` of each action, its notation's round trip, saves
and their continuation, views, resamples).

Usage: python benchmarks/soak_rearrange.py SEED SECONDS
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

import yaml
from fuzz_packs import Tally, _Dumper, _merge, report, run_combo

BASE = (Path(__file__).parent.parent / "examples" / "packs" / "rummikub.yaml").read_text()
VARIANTS = {
    "rummikub": {},
    "no opening": {"initial_meld": {"minimums": [], "wild_as_card": False,
                                    "lay_off_before": True, "lay_off_same_turn": True}},
    "own melds": {"melds": {"lay_off": {"onto": "own"}}},
    "three tries": {"melds": {"restores": 3}},
    "win back": {"melds": {"lay_off": {"win_back": True, "wilds_stay": False}}},
    "end at once": {"stock": {"when_empty": "end_at_once", "empty_winner": "none"}},
    "draw two": {"turn": {"draw": 2}},
    "draw, no discard": {"turn": {"play_or_draw": False, "discard": False}},
    "draw and discard": {"turn": {"play_or_draw": False}, "deal": {"upcard": True},
                         "pile": {"take": "top"}, "stock": {"when_empty": "turn_pile"},
                         "game": {"hand_turn_limit": 300}},
}
"""Each variant's changes to the Rummikub pack (merged into its data)."""


def main(seed: int, seconds: float) -> int:
    tally = Tally()
    rng = random.Random(seed)
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        for name, extra in VARIANTS.items():
            data = yaml.safe_load(BASE)
            _merge(data, extra)
            text = yaml.dump(data, Dumper=_Dumper, sort_keys=False, allow_unicode=True)
            outcome = run_combo(text, tally, random.Random(rng.randrange(2**32)), 60, 2)
            tally.counts[f"variant {name}: {outcome}"] += 1
    report(tally, None, seconds)
    return 1 if tally.failures else 0


if __name__ == "__main__":
    sys.exit(main(int(sys.argv[1]), float(sys.argv[2])))
