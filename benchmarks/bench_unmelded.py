"""How long the count of the cards a hand cannot meld takes at its worst, by hand size.

``count: unmelded`` (the ``winner_takes``, ``penalty`` and ``held`` items) searches the
least deadwood of each loser's hand, and ``count: unmelded_with_contract`` the least
deadwood of an arrangement that holds the contract.  Both searches grow exponentially with
the hand, so the loader refuses the count where a hand can outgrow
:data:`meldkit.kernel.melds.MOST_CARDS_ARRANGED` cards, and the contract search stops at
:data:`meldkit.kernel.melds.CONTRACT_ARRANGING_WORK`.  This script finds slow hands by hill
climbing (a hand's score: the entries the search leaves in its memos, a deterministic
measure of its work) over meld rules chosen to be slow — eight decks, several wild kinds,
melds that take many wild cards — and times the slowest found, cold (every memo cleared),
the best of three runs:

    python benchmarks/bench_unmelded.py                  # sizes 12 to 18, a few minutes
    python benchmarks/bench_unmelded.py --sizes 14 16 --iters 100 --restarts 3
"""

from __future__ import annotations

import argparse
import random
import time

from meldkit.kernel import melds as M
from meldkit.kernel.melds import MeldKind, MeldRules, unmelded_value

VALUES = tuple([15] * 4 + [r for r in range(2, 11) for _ in range(4)] + [10] * 12 + [25])
DECKS = 8

RULES = {
    "contract rummy": (MeldRules([MeldKind("set", "set", min_size=3, max_wilds=2),
                                  MeldKind("run", "run", min_size=4, ace="both", max_wilds=2)],
                                 {52}, VALUES), (0, 1)),
    "indian rummy": (MeldRules([MeldKind("pure", "run", min_size=3, ace="both", max_wilds=0,
                                         wild_natural_in_place=True),
                                MeldKind("run", "run", min_size=3, ace="both", max_wilds=13),
                                MeldKind("set", "set", min_size=3, max_size=4, max_wilds=13,
                                         distinct_suits=True)],
                               {52, 32, 33, 34, 35}, VALUES), (0, 1)),
    "wild deuces": (MeldRules([MeldKind("set", "set", min_size=3, max_wilds=52),
                               MeldKind("run", "run", min_size=3, ace="around", max_wilds=52)],
                              {52, 4, 5, 6, 7}, VALUES), (0, 1)),
    "pairs, all wild": (MeldRules([MeldKind("set", "set", min_size=2, max_wilds=52,
                                            all_wild=True),
                                   MeldKind("run", "run", min_size=2, ace="around",
                                            max_wilds=52, all_wild=True)],
                                  {52, 4, 5, 6, 7}, VALUES), (0, 1)),
}
"""Meld rules chosen to be slow, each with a contract of two kinds for the contract search."""


def work(rules: MeldRules, hand: list[int], contract: tuple[int, ...]) -> int:
    """The entries one cold count leaves in the memos (and, with a contract, the choices
    its search weighed): what the hill climb makes large."""
    rules.clear_caches()
    weighed = 0
    if contract:
        state = tuple(sorted(hand))
        if not M._covers(rules.match_as, rules.best_arrangement(state)[0], contract):
            budget = [M.CONTRACT_ARRANGING_WORK]
            try:
                rules._holding(state, contract, {}, budget)
            except M.TooManyMelds:
                pass
            weighed = M.CONTRACT_ARRANGING_WORK - budget[0]
    else:
        rules.min_deadwood(hand)
    return weighed + sum(len(m) for m in (rules._gen_memo, rules._fit_memo, rules._melds_memo,
                                          rules._packed_memo, rules._memo, rules._memo1))


def climb(rules: MeldRules, size: int, contract: tuple[int, ...], rng: random.Random,
          iters: int) -> tuple[int, list[int]]:
    """A slow hand of ``size`` cards: cards of six neighbouring ranks and wild cards, one
    or two changed at a time, kept when the work does not fall."""
    wild = sorted(rules.wild_kinds)
    low = rng.randrange(0, 9)
    pool = list(range(low * 4, min(52, low * 4 + 24))) * DECKS + wild * DECKS
    hand = [rng.choice(pool) for _ in range(size)]
    best = work(rules, hand, contract)
    for _ in range(iters):
        other = hand[:]
        for _ in range(rng.randint(1, 2)):
            other[rng.randrange(size)] = rng.choice(pool if rng.random() < 0.8 else range(53))
        w = work(rules, other, contract)
        if w >= best:
            hand, best = other, w
    return best, hand


def cold_ms(rules: MeldRules, hand: list[int], contract: tuple[int, ...]) -> float:
    times = []
    for _ in range(3):
        rules.clear_caches()
        t = time.perf_counter()
        unmelded_value(rules, hand, contract)
        times.append(time.perf_counter() - t)
    return min(times) * 1000


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[12, 14, 16, 18])
    ap.add_argument("--iters", type=int, default=200)
    ap.add_argument("--restarts", type=int, default=4)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    limit = M.MOST_CARDS_ARRANGED
    print(f"MOST_CARDS_ARRANGED = {limit}, CONTRACT_ARRANGING_WORK = "
          f"{M.CONTRACT_ARRANGING_WORK}; ms, the slowest hand found, cold")
    print(f"{'rules':18} {'count':24} " + " ".join(f"{n:>7}" for n in args.sizes))
    for name, (rules, contract) in RULES.items():
        for label, c in (("unmelded", ()), ("unmelded_with_contract", contract)):
            row = []
            for size in args.sizes:
                M.MOST_CARDS_ARRANGED = max(limit, size)  # time past the bound too
                rng = random.Random(f"{args.seed}:{name}:{label}:{size}")
                found = sorted((climb(rules, size, c, rng, args.iters)
                                for _ in range(args.restarts)), reverse=True)
                row.append(max(cold_ms(rules, hand, c) for _, hand in found[:3]))
                M.MOST_CARDS_ARRANGED = limit
            print(f"{name:18} {label:24} " + " ".join(f"{ms:7.1f}" for ms in row),
                  flush=True)


if __name__ == "__main__":
    main()
