"""Screen cheap gin policies against greedy on 52-bit masks (issue 22): is there a rollout
policy better than greedy for ``pimc`` to search with, and what is knowing the opponent's
hand worth to a discard?

Each policy plays ``--deals`` random deals of two-player knock gin (OpenSpiel's terms, as
:class:`meldkit.pimc.GinSim` plays them), each twice with the seats swapped, against the
greedy policy of :mod:`meldkit.kernel.policy` (take an upcard that lands in a meld, discard
to the least deadwood, knock at once).  The hand starts at the non-dealer's draw with the
upcard on the pile (no first-upcard pass); a knock is scored as ``GinSim`` scores it and
the wall is a tie.  It prints each policy's score (a win 1, a tie ½) with a 95% interval.

The policies (``--policies``, any of):

* ``greedy``: greedy against itself (0.5 by construction: the harness's check);
* ``look:B``: the discard that minimises ``(1-B)`` × the deadwood it leaves plus ``B`` ×
  the deadwood expected after the next stock draw (one ply of expectation, the unseen
  cards equally likely);
* ``take:K``: greedy, but also takes an upcard that lets it knock at once or that lowers
  its least deadwood by ``K`` or more (a low card for a high one);
* ``cheat:L``: greedy's discards within ``L`` deadwood points of the least, each costed
  ``L`` more if the opponent's **true** hand would take it (what feeding is worth);
* ``public:L``: the same, the opponent's hand sampled 40 times from what it could hold
  (the upcards it took and kept, then uniformly from the unseen cards; samples that would
  have taken one of its last three refused upcards are drawn again).

Usage::

    python benchmarks/gin_policy_screen.py --deals 3000 --policies greedy look:1 take:9 cheat:5

Measured at stop 48 (3,000 deals, 6,000 hands, each ±0.013): ``look`` 0.504 (B 0.3),
0.504 (0.6), 0.505 (1.0); ``take`` 0.499–0.501 (K 4, 6, 9, 12, knock only); ``cheat``
0.572 (L 2), 0.641 (5), 0.652 (10); ``public`` 0.485 (L 5).  See docs/pimc-record.md.
"""

from __future__ import annotations

import argparse
import math
import random
import time

import meldkit
from meldkit.pimc import GinSim

ALL = (1 << 52) - 1


def _cards(mask: int) -> list[int]:
    out = []
    while mask:
        b = mask & -mask
        mask ^= b
        out.append(b.bit_length() - 1)
    return out


class Screen:
    """The policies on one :class:`GinSim`; a policy is ``(take, discard)``, each called
    with the player's mask and a dict of what it may read (``opp``: the opponent's true
    hand, ``pub``: what is public about the opponent, ``pile``: the discard pile)."""

    def __init__(self, seed: int = 5):
        self.sim = GinSim(meldkit.new_game("gin_rummy", players=2, seed=1))
        self.rng = random.Random(seed)

    # ------------------------------------------------------------------ the policies
    def greedy_take(self, h, t, ctx) -> bool:
        return self.sim.takes(h, t)

    def greedy_discard(self, h, ctx) -> int:
        return self.sim.discard(h)[0]

    def policy(self, name: str):
        """``(take, discard)`` for a ``--policies`` entry (``look:1``, ``cheat:5`` …)."""
        kind, _, arg = name.partition(":")
        take, discard = self.greedy_take, self.greedy_discard
        if kind == "look":
            discard = self._look(float(arg))
        elif kind == "take":
            take = self._take(int(arg) if arg else None)
        elif kind in ("cheat", "public"):
            discard = self._safe(float(arg), kind == "public")
        elif kind != "greedy":
            raise SystemExit(f"gin_policy_screen: unknown policy {name!r}")
        return take, discard

    def _look(self, beta: float):
        sim = self.sim

        def discard(h, ctx):
            unseen = _cards(ALL & ~h & ~ctx["dead"])
            leaves = sim._leaves(h, h)
            low = min(leaves)[0]
            best = None
            for d, c in leaves:
                if d > low + 10:
                    continue
                h2 = h ^ (1 << c)
                after = sum(min(sim.topd(h2 | 1 << u), d) for u in unseen) / len(unseen)
                key = ((1 - beta) * d + beta * after, d, -sim.values[c])
                if best is None or key < best[0]:
                    best = (key, c)
            return best[1]
        return discard

    def _take(self, k: int | None):
        sim = self.sim

        def take(h, t, ctx):
            if sim.takes(h, t):
                return True
            after = sim.topd(h | 1 << t)
            return after <= sim.knock_limit or (k is not None and sim.top(h) - after >= k)
        return take

    def _safe(self, lam: float, public: bool):
        sim, rng = self.sim, self.rng

        def discard(h, ctx):
            leaves = sim._leaves(h, h)
            low = min(leaves)[0]
            cands = [(d, c) for d, c in leaves if d <= low + lam]
            if len(cands) == 1:
                return cands[0][1]
            if not public:
                return sim._least(h, [(d + lam * sim.takes(ctx["opp"], c), c)
                                      for d, c in cands])
            pub = ctx["pub"]
            known = pub["taken"]
            pile = sum(1 << c for c in ctx["pile"])
            pool = _cards(ALL & ~h & ~pub["out"] & ~known & ~pile)
            need = 10 - known.bit_count()
            danger = dict.fromkeys((c for _, c in cands), 0)
            n = tries = 0
            while n < 40 and tries < 800:
                tries += 1
                s = known
                for c in rng.sample(pool, need):
                    s |= 1 << c
                if any(sim.takes(s, u) for u in pub["refused"][-3:] if not s >> u & 1):
                    continue
                n += 1
                for _, c in cands:
                    danger[c] += sim.takes(s, c)
            if n == 0:
                return sim._least(h, cands)
            return sim._least(h, [(d + lam * danger[c] / n, c) for d, c in cands])
        return discard

    # ------------------------------------------------------------------ the hand
    def hand(self, deal: random.Random, pols, first: int) -> int:
        """One hand from a random deal: player 0's net points (0 at the wall)."""
        sim = self.sim
        deck = list(range(52))
        deal.shuffle(deck)
        hands = [0, 0]
        for _ in range(10):
            hands[0] |= 1 << deck.pop()
            hands[1] |= 1 << deck.pop()
        pile, stock = [deck.pop()], deck
        # pub[q]: what q's opponent knows of q; dead[q]: the cards q saw leave play
        pub = [{"taken": 0, "out": 1 << pile[0], "refused": []} for _ in range(2)]
        dead = [1 << pile[0], 1 << pile[0]]
        p = first
        for _ in range(200):
            if len(stock) <= sim.wall:
                return 0
            take, discard = pols[p]
            h = hands[p]
            t = pile[-1] if pile else None
            if t is not None and take(h, t, {}):
                pile.pop()
                h |= 1 << t
                pub[p]["taken"] |= 1 << t
                pub[p]["out"] &= ~(1 << t)
            else:
                if t is not None:
                    pub[p]["refused"].append(t)
                c = stock.pop()
                h |= 1 << c
                dead[p] |= 1 << c
            hands[p] = h
            if sim.topd(h) <= sim.knock_limit:
                return sim._knock(hands, p)
            card = discard(h, {"opp": hands[1 - p], "pub": pub[1 - p], "pile": pile,
                               "dead": dead[p] | h})
            hands[p] = h ^ 1 << card
            pile.append(card)
            pub[p]["taken"] &= ~(1 << card)
            for q in (0, 1):
                pub[q]["out"] |= 1 << card
                dead[q] |= 1 << card
            p = 1 - p
        return 0

    def match(self, name: str, deals: int, first_seed: int) -> tuple[float, float, float]:
        """The policy's score against greedy over ``deals`` deals, seats swapped, and its
        95% Wilson interval."""
        pol, greedy = self.policy(name), (self.greedy_take, self.greedy_discard)
        score = 0.0
        for i in range(deals):
            for swap in (0, 1):
                pols = [pol, greedy] if swap == 0 else [greedy, pol]
                net = self.hand(random.Random(first_seed + i), pols, i % 2)
                net = -net if swap else net
                score += 1.0 if net > 0 else 0.5 if net == 0 else 0.0
        n = 2 * deals
        return (score / n, *_wilson(score / n, n))


def _wilson(p: float, n: int, z: float = 1.96) -> tuple[float, float]:
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", type=int, default=1000)
    ap.add_argument("--first-seed", type=int, default=0)
    ap.add_argument("--policies", nargs="+", default=["greedy", "look:1", "take:9",
                                                       "cheat:5", "public:5"])
    args = ap.parse_args(argv)
    screen = Screen()
    print(f"{'policy':<12} {'hands':>6} {'score':>6}  95% interval   seconds")
    for name in args.policies:
        t0 = time.process_time()
        p, lo, hi = screen.match(name, args.deals, args.first_seed)
        print(f"{name:<12} {2 * args.deals:>6} {p:>6.3f}  [{lo:.3f}, {hi:.3f}]  "
              f"{time.process_time() - t0:7.1f}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
