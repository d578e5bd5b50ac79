"""ISMCTS against greedy: win rate with a 95% confidence interval, and iterations per
second (issue 13).  Two matches:

* Houses (4 players, partnerships): ISMCTS plays one team, GreedyBot (the one-ply Houses
  policy) the other; the ISMCTS team alternates between seats 0/2 and 1/3.
* Single Pony Tail hands (4 players, partnerships): the same, each game one hand; the team
  with the higher hand total wins.

Usage: python benchmarks/ismcts_vs_greedy.py [--games 200] [--iterations 20] [--match houses]
       [--rollout greedy|random] [--depth 8]
Prints one line per match: wins, ties, losses, win rate (ties count half) with its Wilson
95% interval, decisions and ISMCTS iterations per second.
"""

from __future__ import annotations

import argparse
import sys
import time

import meldkit
from meldkit.bots import GreedyBot, ISMCTSBot
from meldkit.tournament import wilson


def play(pack: str, seed: int, ismcts_team: int, iterations: int, single_hand: bool,
         rollout: str = "greedy", depth: int = 8):
    g = meldkit.new_game(pack, players=4, seed=seed)
    policy = GreedyBot(seed=seed) if rollout == "greedy" else None
    search = ISMCTSBot(seed=seed, iterations=iterations, rollout=policy, rollout_depth=depth)
    greedy = GreedyBot(seed=seed)
    its = secs = decisions = 0
    while not g.is_over and not (single_hand and g.hand_results):
        p = g.current_player
        if g.team_of[p] == ismcts_team:
            a = search.choose(g)
            if len(g.legal_actions()) > 1:
                its += search.last_iterations
                secs += search.last_seconds
                decisions += 1
        else:
            a = greedy.choose(g)
        g.apply(a)
    totals = g.hand_results[0].totals if single_hand else tuple(g.scores)
    mine, theirs = totals[ismcts_team], totals[1 - ismcts_team]
    return (mine > theirs) - (mine < theirs), its, secs, decisions


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--iterations", type=int, default=20)
    ap.add_argument("--match", choices=["houses", "pony_tail", "both"], default="both")
    ap.add_argument("--seed", type=int, default=1000)
    ap.add_argument("--rollout", choices=["greedy", "random"], default="greedy")
    ap.add_argument("--depth", type=int, default=8, help="rollout depth (actions)")
    args = ap.parse_args(argv)
    matches = ["houses", "pony_tail"] if args.match == "both" else [args.match]
    for pack in matches:
        w = t = l = 0
        its = secs = dec = 0
        t0 = time.perf_counter()
        for i in range(args.games):
            r, a, b, c = play(pack, args.seed + i, i % 2, args.iterations,
                              single_hand=(pack == "pony_tail"), rollout=args.rollout,
                              depth=args.depth)
            w += r > 0
            t += r == 0
            l += r < 0
            its += a
            secs += b
            dec += c
            if (i + 1) % 20 == 0:
                print(f"  {pack}: {i + 1} games, {w}-{t}-{l}", file=sys.stderr, flush=True)
        n = w + t + l
        lo, hi = wilson(w + 0.5 * t, n)
        what = "Houses games" if pack == "houses" else "single Pony Tail hands"
        print(f"{what}: ISMCTS ({args.iterations} iterations, {args.rollout} rollouts of "
              f"{args.depth}) vs greedy over {n}: "
              f"{w} won, {t} tied, {l} lost; win rate {(w + 0.5 * t) / n:.3f} "
              f"(95% CI {lo:.3f}-{hi:.3f}); {dec} searched decisions, "
              f"{its / secs:.0f} iterations/s; {time.perf_counter() - t0:.0f} s", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
