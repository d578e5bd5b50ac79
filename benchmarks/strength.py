"""Strength of meldkit's bots (issue 22): matches refereed by OpenSpiel's C++ gin_rummy.

Gin matches are played **in lockstep** in OpenSpiel's ``gin_rummy`` and meldkit's
``gin_rummy`` from the identical deal, through the differential mapping of
:mod:`meldkit.testing_openspiel`: at every decision the legal moves of the two engines
must correspond one to one (else the match stops with the hand's replay), a meldkit bot
chooses on meldkit's state and OpenSpiel's simple bot (``pyspiel.make_simple_gin_rummy_bot``)
on OpenSpiel's, and each hand is scored by OpenSpiel's ``returns()`` (checked against
meldkit's hand result). Every deal is played twice, seats swapped; a hand won scores 1, a
tie (the wall) 1/2. Pony Tail (four players, partnerships) has no OpenSpiel peer: single
hands in meldkit, the team with the higher hand total winning, each deal played with the
teams swapped.

Usage::

    python benchmarks/strength.py                       # the issue's table (long)
    python benchmarks/strength.py --match gin-greedy --deals 20 --bot pimc
    python benchmarks/strength.py --match gin-simple gin-greedy pony-greedy \\
        --bot pimc --time-limit 0.3

Prints a Markdown table, one row per match: pairing, hands, won-tied-lost, score with its
Wilson 95% interval, the bot's mean and largest CPU seconds per decision with a choice,
and whether the row meets issue 22's bar (score at least 0.60 and the interval's lower end
above 0.5).

``--hands FILE`` keeps each hand's result; two tools read those files back::

    python benchmarks/strength.py --pool set1.txt set2.txt ...    # the sets pooled
    python benchmarks/strength.py --paired new.txt base.txt       # hand by hand

``--pool`` prints one row per match kind over every hand of the files (disjoint deal sets:
a hand in two files is refused, as is a line that does not parse). ``--paired`` compares two runs on
the same deals: the mean difference in hand score (won 1, tied 1/2, lost 0) over the hands
both hold, its standard error, and how many hands went better, worse, or differ at all.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time

import meldkit
from meldkit import testing_openspiel as osd
from meldkit.bots import BOTS, GreedyBot
from meldkit.tournament import wilson


class Timed:
    """A meldkit bot whose decisions with more than one legal move are timed."""

    def __init__(self, bot):
        self.bot = bot
        self.seconds = 0.0
        self.decisions = 0
        self.worst = 0.0

    def choose(self, state):
        if len(state.legal_actions()) == 1:
            return self.bot.choose(state)
        t0 = time.process_time()
        a = self.bot.choose(state)
        dt = time.process_time() - t0
        self.seconds += dt
        self.decisions += 1
        self.worst = max(self.worst, dt)
        return a


PARAMS: dict = {}
"""Extra keyword arguments for the bot (``--param key=value``)."""


def make(name: str, seed: int, time_limit: float | None):
    if name == "greedy":
        return GreedyBot(seed=seed)
    cls = BOTS[name]
    kw = dict(PARAMS)
    if time_limit is not None:
        kw["time_limit"] = time_limit
    return cls(seed=seed, **kw)


def gin_hand(seed: int, seats: tuple) -> float:
    """Player 0's OpenSpiel return of one hand from the deal of ``seed``; ``seats`` holds a
    meldkit bot (``choose(state)``) or the string ``"simple"`` per seat."""
    import pyspiel

    rng = random.Random(seed)
    deck = list(range(osd.N_CARDS))
    rng.shuffle(deck)
    deal = [osd.card_code(c) for c in deck]
    state = osd._openspiel_initial_state(None)
    game = meldkit.new_game("gin_rummy", players=2, seed=seed, options={"first_player": 0},
                            deck_order=deal)
    params = state.get_game().get_parameters()
    simple = {p: pyspiel.make_simple_gin_rummy_bot(params, p)
              for p in (0, 1) if seats[p] == "simple"}
    nxt = 0
    decisions = 0
    while True:
        while state.is_chance_node():
            state.apply_action(deck[nxt])
            nxt += 1
        if state.is_terminal():
            break
        decisions += 1
        if decisions > 2000:
            raise RuntimeError(f"deal {seed}: no end after 2000 decisions")
        phase = osd._phase_name(state)
        p = state.current_player()
        legal = state.legal_actions()
        if seats[p] == "simple":
            chosen = simple[p].step(state)
            text = osd.to_notation(phase, chosen)
        else:
            text = osd.notation_key(str(seats[p].choose(game)))
            chosen = osd.to_openspiel(phase, text)
        kind, problem, action = osd._compare_decision(game, phase, p, legal, text)
        if kind is not None or chosen not in legal:
            raise RuntimeError(f"deal {seed}, decision {decisions} ({phase}, player {p}): "
                               f"{kind}: {problem or text + ' not legal in OpenSpiel'}")
        game.apply(action)
        state.apply_action(chosen)
    ret = list(state.returns())
    net = [float(x) for x in game.hand_results[0].net]
    if net != ret:
        raise RuntimeError(f"deal {seed}: OpenSpiel returns {ret}, meldkit {net}")
    return ret[0]


def pony_hand(seed: int, teams: tuple) -> float:
    """Team 0's hand total minus team 1's in one Pony Tail hand; ``teams[t]`` makes the
    bot of each seat of team ``t`` (called with the seat)."""
    g = meldkit.new_game("pony_tail", players=4, seed=seed)
    bots = [teams[g.team_of[p]](p) for p in range(4)]
    n = 0
    while not g.hand_results and not g.is_over:
        g.apply(bots[g.current_player].choose(g))
        n += 1
        if n > 20000:
            raise RuntimeError(f"pony_tail deal {seed}: no end")
    totals = g.hand_results[0].net
    return float(totals[0] - totals[1])


def match(kind: str, bot_name: str, deals: int, first: int, time_limit, log,
          hands_out=None) -> dict:
    w = t = l = 0
    timers = []
    t0 = time.perf_counter()
    for i in range(deals):
        seed = first + i
        for swap in (0, 1):
            if kind == "pony-greedy":
                timed = []

                def ours(p, seed=seed):
                    b = Timed(make(bot_name, seed * 10 + p, time_limit))
                    timed.append(b)
                    return b

                teams = (ours, lambda p: GreedyBot(seed=p))
                if swap:
                    teams = teams[::-1]
                r = pony_hand(seed, teams)
                for b in timed:
                    b.bot = None  # the timings kept, not the bot and its search's memos
                timers += timed
                mine = -r if swap else r
            else:
                ours = Timed(make(bot_name, seed * 2 + swap, time_limit))
                other = "simple" if kind == "gin-simple" else GreedyBot(seed=seed)
                seats = (other, ours) if swap else (ours, other)
                r = gin_hand(seed, seats)
                ours.bot = None  # the timings kept, not the bot and its search's memos
                timers.append(ours)
                mine = -r if swap else r
            if hands_out is not None:
                print(kind, seed, swap, mine, file=hands_out, flush=True)
            w += mine > 0
            t += mine == 0
            l += mine < 0
        if log and (i + 1) % 10 == 0:
            n = w + t + l
            print(f"  {kind}: {n} hands {w}-{t}-{l} score {(w + t / 2) / n:.3f} "
                  f"({time.perf_counter() - t0:.0f} s)", file=sys.stderr, flush=True)
    n = w + t + l
    secs = sum(b.seconds for b in timers)
    dec = sum(b.decisions for b in timers)
    return {**tally(kind, w, t, l), "per": secs / max(1, dec),
            "worst": max((b.worst for b in timers), default=0.0),
            "wall": time.perf_counter() - t0}


def read_hands(path) -> dict:
    """A ``--hands`` file as ``{(match, seed, swap): the bot's points}``."""
    out = {}
    try:
        with open(path, encoding="utf-8") as f:
            for n, line in enumerate(f, 1):
                fields = line.split()
                try:
                    kind, seed, swap, points = fields
                    key, value = (kind, int(seed), int(swap)), float(points)
                    if not math.isfinite(value):
                        raise ValueError(points)
                except ValueError:
                    raise SystemExit(f"{path}:{n}: expected 'match seed swap points', "
                                     f"got {line!r}") from None
                if key in out:
                    raise SystemExit(f"{path}:{n}: {kind} deal {seed} seat swap {swap} is "
                                     "already in the file")
                out[key] = value
    except OSError as exc:
        raise SystemExit(f"{path}: cannot read it ({exc.strerror})") from None
    return out


def tally(kind: str, w: int, t: int, l: int) -> dict:
    """A match's won-tied-lost as a row: hands, score (a tie counts half), Wilson interval."""
    n = w + t + l
    return {"kind": kind, "hands": n, "w": w, "t": t, "l": l, "score": (w + t / 2) / n,
            "ci": wilson(w + t / 2, n)}


def bar(row: dict) -> str:
    """Issue 22's bar for a row: a score of at least 0.60 and the interval above 0.5."""
    return "met" if row["score"] >= 0.60 and row["ci"][0] > 0.5 else "not met"


def hand_score(points: float) -> float:
    """A hand's score for the bot: won 1, tied 1/2, lost 0."""
    return 1.0 if points > 0 else 0.5 if points == 0 else 0.0


def pool(paths) -> list[dict]:
    """The hands of ``--hands`` files pooled, one summary per match kind.

    >>> import tempfile, os
    >>> d = tempfile.mkdtemp()
    >>> for name, text in (("a", "gin-greedy 1 0 12.0\\ngin-greedy 1 1 -3.0\\n"),
    ...                    ("b", "gin-greedy 2 0 0.0\\ngin-greedy 2 1 25.0\\n")):
    ...     with open(os.path.join(d, name), "w") as f:
    ...         _ = f.write(text)
    >>> [(r["kind"], r["w"], r["t"], r["l"], r["score"])
    ...  for r in pool([os.path.join(d, "a"), os.path.join(d, "b")])]
    [('gin-greedy', 2, 1, 1, 0.625)]
    """
    counts: dict = {}
    seen: dict = {}
    for path in paths:
        for key, points in read_hands(path).items():
            if key in seen:
                raise SystemExit(f"{path}: {key[0]} deal {key[1]} seat swap {key[2]} is also in "
                                 f"{seen[key]}: pool disjoint deal sets only")
            seen[key] = path
            w, t, l = counts.get(key[0], (0, 0, 0))
            counts[key[0]] = (w + (points > 0), t + (points == 0), l + (points < 0))
    return [tally(kind, *wtl) for kind, wtl in counts.items()]


def paired(new_path, base_path) -> dict:
    """Two runs on the same deals, hand by hand: the mean difference in hand score (new less
    base) over the hands both hold, its standard error, and the counts of hands that went
    better, worse, or differ in points at all."""
    new, base = read_hands(new_path), read_hands(base_path)
    both = sorted(new.keys() & base.keys())
    if len(both) < 2:
        raise SystemExit(f"{new_path} and {base_path} share {len(both)} hands: "
                         "compare two runs on the same deals")
    d = [hand_score(new[k]) - hand_score(base[k]) for k in both]
    mean = sum(d) / len(d)
    var = sum((x - mean) ** 2 for x in d) / (len(d) - 1)
    return {"hands": len(both), "mean": mean, "se": (var / len(d)) ** 0.5,
            "better": sum(x > 0 for x in d), "worse": sum(x < 0 for x in d),
            "differ": sum(new[k] != base[k] for k in both)}


PAIRINGS = {
    "gin-simple": "vs OpenSpiel's simple gin bot, gin_rummy",
    "gin-greedy": "vs meldkit greedy, gin_rummy",
    "pony-greedy": "vs meldkit greedy, pony_tail (teams)",
}
DEFAULT_DEALS = {"gin-simple": 200, "gin-greedy": 200, "pony-greedy": 50}
"""The issue's sizes: 400 gin hands, 100 Pony Tail hands (each deal played twice)."""


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bot", default="pimc", help="a meldkit bot name (meldkit.bots.BOTS)")
    ap.add_argument("--match", nargs="+", choices=sorted(PAIRINGS),
                    default=["gin-simple", "gin-greedy", "pony-greedy"])
    ap.add_argument("--deals", type=int, default=None,
                    help="deals per match, each played twice (default: 200 gin, 50 Pony Tail)")
    ap.add_argument("--first-seed", type=int, default=100_000)
    ap.add_argument("--time-limit", type=float, default=None,
                    help="the bot's seconds per decision (default: the bot's own)")
    ap.add_argument("--param", action="append", default=[], metavar="KEY=VALUE",
                    help="a setting of the bot, e.g. max_samples=40 (pimc: read as the "
                         "setting's kind, a bad one refused: meldkit.pimc.parse_settings)")
    ap.add_argument("--quiet", action="store_true")
    ap.add_argument("--hands", metavar="FILE", default=None,
                    help="write each hand's result (match, seed, swap, the bot's points) to FILE, "
                         "to compare two runs on the same deals hand by hand")
    ap.add_argument("--pool", nargs="+", metavar="FILE",
                    help="only: pool --hands files of disjoint deal sets, one row per match")
    ap.add_argument("--paired", nargs=2, metavar=("NEW", "BASE"),
                    help="only: compare two --hands files of the same deals, hand by hand")
    args = ap.parse_args(argv)
    if args.pool:
        print("| pooled | hands | won-tied-lost | score [95% interval] | bar |")
        print("|---|---:|---|---|---|")
        for r in pool(args.pool):
            lo, hi = r["ci"]
            print(f"| {PAIRINGS.get(r['kind'], r['kind'])} | {r['hands']} | "
                  f"{r['w']}-{r['t']}-{r['l']} | {r['score']:.3f} [{lo:.3f}, {hi:.3f}] | "
                  f"{bar(r)} |")
        return 0
    if args.paired:
        r = paired(*args.paired)
        print(f"{r['hands']} hands on the same deals: {r['mean']:+.3f} a hand (standard error "
              f"{r['se']:.3f}), {r['better']} better, {r['worse']} worse, "
              f"{r['differ']} differ in points")
        return 0
    hands_out = open(args.hands, "w") if args.hands else None
    if args.bot == "pimc":  # each value read as its setting's kind, a bad one refused
        from meldkit.pimc import parse_settings

        PARAMS.update(parse_settings(args.param))
    else:
        for kv in args.param:
            k, _, v = kv.partition("=")
            PARAMS[k] = float(v) if "." in v else int(v)
    rows = []
    print("| pairing | hands | won-tied-lost | score [95% interval] | s / decision | bar |")
    print("|---|---:|---|---|---:|---|", flush=True)
    for kind in args.match:
        deals = args.deals or DEFAULT_DEALS[kind]
        r = match(kind, args.bot, deals, args.first_seed, args.time_limit, not args.quiet,
                  hands_out)
        rows.append(r)
        lo, hi = r["ci"]
        print(f"| {args.bot} {PAIRINGS[kind]} | {r['hands']} | {r['w']}-{r['t']}-{r['l']} | "
              f"{r['score']:.3f} [{lo:.3f}, {hi:.3f}] | {r['per']:.3f} (max {r['worst']:.2f}) | "
              f"{bar(r)} |", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
