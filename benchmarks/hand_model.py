"""A learned model of the gin opponent's hand (issue 22): does it know the bot's outs
better than ``pimc``'s kept-hand sampler?

``pimc`` plays at the plateau of one-step search under a calibrated but vague belief:
knowing which of its outs the opponent holds would be worth about +0.02 a decision, and
its kept-hand sampler scores a Brier of 0.2009 on out-held against the prior's 0.2102
(``pimc_oracle.py --outs-brier``).  This script fits a logistic regression of
card-in-the-opponent's-hand on what the bot saw (the card's rank; the opponent's
discards, refused and taken upcards of the card's rank and of its suit one and two ranks
away; the same of the bot's own hand and of the dead cards; the opponent's stock draws)
over greedy self-play, and scores it on the same outs as ``--outs-brier`` (the first 200
positions of ``pimc_oracle``'s study, dealt from other seeds than the training hands).
A card's probability is the model's, rescaled so that the unseen cards' sum is the
number of the opponent's unknown cards.

Usage (needs numpy, in the ``bench`` extra)::

    python benchmarks/hand_model.py --hands 3000
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

import meldkit
from meldkit.pimc import PIMCBot, _hand_moves

sys.path.insert(0, str(Path(__file__).parent))
from pimc_oracle import brier_report, out_probabilities, outs_of, positions  # noqa: E402

NEAR = ((0, 1), (-1, 0), (1, 0), (-2, 0), (2, 0))  # same rank other suit; same suit ±1, ±2


def _near_count(mask: int, c: int, dr: int, same_rank: bool) -> int:
    r, s = c >> 2, c & 3
    if same_rank:
        return sum(1 for x in range(4) if x != s and mask >> (r * 4 + x) & 1)
    rr = r + dr
    return int(0 <= rr < 13 and mask >> (rr * 4 + s) & 1)


def features(state, me: int) -> tuple[list[int], list[list[float]], int, int]:
    """(the unseen kinds, a feature row for each, the opponent's unknown cards ``m``, the
    mask of the opponent's hand) at ``state`` for seat ``me``."""
    opp = 1 - me
    ko = state.kind_of
    disc = refused = took = 0
    recent_disc = recent_refused = 0  # the opponent's last two turns
    draws = 0
    turns = []
    for seat, verb, card in _hand_moves(state):
        if seat != opp or card is None and verb != "draw":
            continue
        if verb == "take":
            took |= 1 << card
        elif verb == "draw":
            draws += 1
            if card is not None:
                refused |= 1 << card
                turns.append(("r", card))
        elif verb == "pass":
            refused |= 1 << card
            turns.append(("r", card))
        elif verb == "discard":
            disc |= 1 << card
            took &= ~(1 << card)
            turns.append(("d", card))
    for kind, card in turns[-4:]:
        if kind == "d":
            recent_disc |= 1 << card
        else:
            recent_refused |= 1 << card
    mine = sum(1 << ko[c] for c in state.hands[me])
    dead = sum(1 << ko[c] for c in state.pile)
    known = took
    seen = mine | dead | known
    unseen = [k for k in range(52) if not seen >> k & 1]
    m = len(state.hands[opp]) - known.bit_count()
    rows = []
    for c in unseen:
        r = c >> 2
        row = [0.0] * 13
        row[r] = 1.0
        row.append(draws / 10)
        row.append(draws / 10 * (min(r, 9) + 1) / 10)
        for mask in (disc, refused, took, mine, dead, recent_disc, recent_refused):
            for dr, same in NEAR:
                row.append(float(_near_count(mask, c, dr, bool(same))))
        rows.append(row)
    hand = sum(1 << ko[c] for c in state.hands[opp])
    return unseen, rows, m, hand


def training_rows(hands: int, first_seed: int):
    """Rows and labels from greedy self-play: three decision positions a hand."""
    X, y = [], []
    for seed in range(first_seed, first_seed + hands):
        rng = random.Random(seed)
        g = meldkit.new_game("gin_rummy", players=2, seed=seed)
        stops = set(rng.sample(range(40), 3))
        k = 0
        while not g.hand_results:
            if k in stops and g.phase in ("draw", "discard"):
                unseen, rows, _m, hand = features(g, g.current_player)
                X += rows
                y += [hand >> c & 1 for c in unseen]
            g.apply(type(g).greedy_policy(g))
            k += 1
    return X, y


def fit(X, y, l2: float = 1e-3, steps: int = 30):
    """Logistic regression by Newton's method (numpy): the weights, the bias last."""
    import numpy as np

    A = np.hstack([np.asarray(X, float), np.ones((len(X), 1))])
    t = np.asarray(y, float)
    w = np.zeros(A.shape[1])
    for _ in range(steps):
        p = 1 / (1 + np.exp(-A @ w))
        g = A.T @ (p - t) + l2 * w
        H = (A * (p * (1 - p))[:, None]).T @ A + l2 * np.eye(A.shape[1])
        step = np.linalg.solve(H, g)
        w -= step
        if np.abs(step).max() < 1e-8:
            break
    return w


def probabilities(w, rows, m: int) -> list[float]:
    import numpy as np

    A = np.hstack([np.asarray(rows, float), np.ones((len(rows), 1))])
    p = 1 / (1 + np.exp(-A @ w))
    p = p * (m / p.sum())  # the unseen cards' sum is the opponent's unknown cards
    return list(np.clip(p, 0.0, 1.0))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hands", type=int, default=3000, help="self-play hands to learn from")
    ap.add_argument("--first-seed", type=int, default=500_000)
    ap.add_argument("--positions", type=int, default=200)
    ap.add_argument("--cache", metavar="PATH", help="pimc_oracle's valued positions")
    ap.add_argument("--mix", action="store_true", help="also the kept-hand sampler's Brier "
                    "score, and mixtures of its probabilities with the model's")
    args = ap.parse_args(argv)
    t0 = time.process_time()
    X, y = training_rows(args.hands, args.first_seed)
    print(f"{len(X):,} rows from {args.hands:,} hands ({sum(y):,} held), "
          f"{time.process_time() - t0:.0f} s", flush=True)
    w = fit(X, y)
    data = None
    if args.cache:
        import pickle

        with open(args.cache, "rb") as f:
            data = pickle.load(f)
    if data is None:
        data = positions(args.positions, 1)
    data = data[:args.positions]
    learned = []  # (the model's probability, the prior's, held) for each out, in order
    for g, *_ in data:
        me = g.current_player
        unseen, rows, m, hand = features(g, me)
        probs = dict(zip(unseen, probabilities(w, rows, m)))
        mine = sum(1 << g.kind_of[c] for c in g.hands[me])
        prior = m / len(unseen)
        learned += [(probs[c], prior, hand >> c & 1) for c in outs_of(mine, unseen)]
    n = len(learned)
    brier_report("learned model", learned)
    if args.mix:  # the kept-hand sampler's probabilities of the same outs, and mixtures
        kept = out_probabilities(lambda: PIMCBot(seed=1, time_limit=100), data)
        assert [t for *_, t in kept] == [t for *_, t in learned]
        sk = sum((p - t) ** 2 for p, _, t in kept) / n
        row = []
        for a in range(11):
            w = a / 10
            row.append(f"{w:.1f}: " + format(sum((w * p + (1 - w) * k - t) ** 2 for (p, _, t),
                                                 (k, _, _) in zip(learned, kept)) / n, ".4f"))
        print(f"the kept-hand sampler: Brier {sk:.4f}; the learned model's share in a "
              "mixture: " + ", ".join(row))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
