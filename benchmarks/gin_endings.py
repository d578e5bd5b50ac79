"""How a bot's gin hands end against greedy (issue 22): who knocked, gin, undercut, wall.

Plays ``--deals`` deals of ``gin_rummy`` in meldkit, each twice with the seats swapped,
the bot (``--bot``, default ``pimc``) against meldkit's greedy bot, and counts each hand's
ending from the bot's side: its knock won, the opponent's knock won, a knock that met
equal deadwood (0 points), an undercut either way, gin either way, or the wall.

Usage::

    taskset -c 1 python benchmarks/gin_endings.py --deals 60 --first-seed 300000

Prints one line per hand (seed, swap, who knocked, how it ended, the knocker's and the
defender's deadwood, the bot's points, the actions played) and the counts.
"""

from __future__ import annotations

import argparse
import collections

import meldkit
from meldkit.bots import BOTS, GreedyBot


def ending(result, bot_seat: int) -> str:
    """The hand's ending from the bot's side (``bot knock``, ``opp gin``, ``wall`` …)."""
    if result.ended_by != "knock":
        return "wall"
    who = "bot" if result.went_out == bot_seat else "opp"
    final = result.final
    knocker, defender = final.deadwood[result.went_out], final.deadwood[1 - result.went_out]
    if knocker == 0:
        return f"{who} gin"
    if defender < knocker:
        return f"{who} undercut"
    if defender == knocker:
        return f"{who} knock, equal deadwood"
    return f"{who} knock"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", type=int, default=60)
    ap.add_argument("--first-seed", type=int, default=300000)
    ap.add_argument("--bot", default="pimc", choices=sorted(BOTS))
    args = ap.parse_args(argv)
    counts: collections.Counter = collections.Counter()
    for seed in range(args.first_seed, args.first_seed + args.deals):
        for swap in (0, 1):
            g = meldkit.new_game("gin_rummy", players=2, seed=seed)
            bots = {swap: BOTS[args.bot](seed=seed), 1 - swap: GreedyBot(seed=seed)}
            actions = 0
            while not g.hand_results:
                g.apply(bots[g.current_player].choose(g))
                actions += 1
            r = g.hand_results[-1]
            how = ending(r, swap)
            counts[how] += 1
            dw = r.final.deadwood
            print(seed, swap, how, dw[r.went_out] if r.went_out is not None else "-",
                  dw[1 - r.went_out] if r.went_out is not None else "-", r.net[swap], actions,
                  flush=True)
    for how, n in counts.most_common():
        print(f"{how}: {n}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
