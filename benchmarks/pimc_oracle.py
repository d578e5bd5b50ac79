"""Offline decision quality of ``pimc`` at gin (issue 22): how much better than the greedy
choice its choices are, judged with the hidden cards known.

Positions are taken from greedy self-play (three per hand, draw, discard, first upcard and
wall decisions with more than one candidate).  For each, every candidate of
:meth:`PIMCBot._candidates` is valued with the opponent's **true** hand and the stock
reshuffled ``--shuffles`` times (common random numbers; the hand played on greedily by
:class:`~meldkit.pimc.GinSim`; won 1, lost -1).  A bot's score is the mean, over the
positions, of the value of the candidate it picks less the greedy choice's ("gain per
decision"); the best candidate's gain is the ceiling.  ``--cheat`` also scores a ``pimc``
that is given the opponent's hand (its determinizations only reshuffle the stock): the
part of the ceiling that knowing the opponent's hand is worth.  Before each timed decision
the bot is shown the same player's earlier draw decisions of the hand
(:meth:`PIMCBot.observe`), so that a bot that follows the hand (the particle filter,
``--param particles=5000``) starts where it would be in play.  ``--cache PATH`` keeps the
valued positions in a pickle (valid only for the meldkit that wrote it).

Which part of the opponent's hand is worth knowing: ``--partial outs`` scores a ``pimc``
whose sampled hands agree with the true one on the bot's **outs** (the unseen cards that
would meld with two of its own) and are drawn as usual otherwise; ``--partial others``, the
control, on as many other unseen cards.  ``--outs-brier`` says how well the bot's own
sampler knows the outs (the Brier score of out-held over the first 200 positions, 200
sampled hands each, against the prior ``m / unseen``); with ``--outs-mix PARTICLES``, also
of mixtures of its probabilities with the particle filter's.

Usage::

    python benchmarks/pimc_oracle.py --positions 600 --time-limit 0.1 --cheat
    python benchmarks/pimc_oracle.py --param select=0 --param confidence=0.5
    python benchmarks/pimc_oracle.py --time-limit 0.15 --param particles=5000 \
        --param confidence=0.5 --cache /tmp/positions.pkl
    python benchmarks/pimc_oracle.py --positions 400 --time-limit 100 --partial outs
    python benchmarks/pimc_oracle.py --positions 400 --outs-brier --param particles=5000
    python benchmarks/pimc_oracle.py --positions 400 --outs-brier --outs-mix 5000
    python benchmarks/pimc_oracle.py --positions 400 --time-limit 100 --seed 3 \
        --cache /tmp/positions.pkl --dump /tmp/dump3.pkl     # then, with more seeds:
    python benchmarks/pimc_oracle.py --rules /tmp/dump1.pkl /tmp/dump2.pkl /tmp/dump3.pkl

How the bot should leave the greedy choice: ``--dump PATH`` keeps each decision's search
record (every searched candidate's mean paired gain over the greedy choice and its standard
error), and ``--rules DUMP...`` scores, offline and over those search seeds, the rule
"the rival with the largest mean gain above ``margin + confidence * se``" for a grid of
``confidence`` and ``margin`` (the search itself does not depend on them).  ``--first-hand``
takes the positions from other self-play deals, to check a rule on positions it was not
chosen on.

Prints one line per bot: gain per decision overall and by phase (gain / ceiling (n)).
"""

from __future__ import annotations

import argparse
import random
import time

import meldkit
from meldkit.bots import GreedyBot
from meldkit.pimc import _GIN_PHASES, GinRollout, GinSim, PIMCBot, parse_settings


class CheatPIMC(PIMCBot):
    """``pimc`` shown the opponent's hand: its determinizations reshuffle the stock only."""

    def _worlds(self, state, sim, obs, early, kmask, m, unseen):
        ko = state.kind_of
        hm = sum(1 << ko[c] for c in state.hands[1 - state.current_player])
        rest = [k for k in unseen if not hm >> k & 1]
        while True:
            stock = rest[:]
            self.rng.shuffle(stock)
            yield hm, stock


class RecordingPIMC(PIMCBot):
    """``pimc`` that keeps, for its last decision, each searched candidate's paired gain
    over the greedy choice: ``(move, mean, standard error, determinizations)``."""

    record: list = []

    def _pick(self, cands, gi, values, active, n, t0):
        self.record = [(str(cands[i]), mean, se, n)
                       for i, mean, se in self._paired_gains(values, gi, active, n)]
        return super()._pick(cands, gi, values, active, n, t0)


def rule_choice(record, greedy: str, confidence: float, margin: float) -> str:
    """The move :meth:`PIMCBot._pick` makes from a :class:`RecordingPIMC` record under
    another ``confidence`` and ``margin``: the greedy choice unless a searched rival's mean
    paired gain exceeds ``margin + confidence * se`` (the largest such gain wins)."""
    best, best_gain = greedy, 0.0
    for mv, mean, se, _n in record:
        if mv != greedy and mean > margin + confidence * se and mean > best_gain:
            best, best_gain = mv, mean
    return best


def rule_gains(dumps, rules) -> None:
    """Offline: the gain per decision, over the recorded decisions of ``dumps`` (one list
    a search seed), had the bot left the greedy choice only for the searched rival with
    the largest mean gain above ``margin + confidence * se``: a row per ``(confidence,
    margin)`` in ``rules``, with the mean over the seeds and its spread."""
    import statistics

    for conf, margin in rules:
        per_seed = []
        for rows in dumps:
            total = 0.0
            for _phase, moves, greedy, vals, rec in rows:
                pick = rule_choice(rec, greedy, conf, margin)
                total += vals[moves.index(pick)] - vals[moves.index(greedy)]
            per_seed.append(total / len(rows))
        sd = statistics.stdev(per_seed) if len(per_seed) > 1 else 0.0
        print(f"confidence {conf:4.2f} margin {margin:5.3f}: gain/decision "
              f"{statistics.mean(per_seed):+.4f} (sd {sd:.4f} over {len(per_seed)} seeds)")


def outs_of(mine: int, cards) -> list[int]:
    """The kinds among ``cards`` that would meld with two cards of ``mine`` (a mask of
    kinds, ``rank * 4 + suit``, aces low): the third of a rank, or the card next to two in
    a row of its suit (either end or the middle).

    >>> outs_of((1 << 24) | (1 << 28), range(52))  # 7 and 8 of clubs: the 6, 9 of clubs
    [20, 32]
    >>> outs_of((1 << 24) | (1 << 25), [26, 27, 28])  # two 7s: the other 7s
    [26, 27]
    """
    out = []
    for c in cards:
        r, s = c >> 2, c & 3
        same = sum(1 for x in range(4) if x != s and mine >> (r * 4 + x) & 1)
        run = [0 <= r + d < 13 and mine >> ((r + d) * 4 + s) & 1 for d in (-2, -1, 1, 2)]
        if same >= 2 or (run[0] and run[1]) or (run[1] and run[2]) or (run[2] and run[3]):
            out.append(c)
    return out


class PartialPIMC(PIMCBot):
    """``pimc`` shown part of the opponent's hand: each sampled hand is made to agree with
    the true one on the bot's outs (``know = "outs"``) or, the control, on as many other
    unseen cards picked at random for the position (``"others"``), a card swapped for one
    on the other side of the same standing; the rest is the bot's own sampler."""

    know = "outs"

    def _worlds(self, state, sim, obs, early, kmask, m, unseen):
        ko = state.kind_of
        me = state.current_player
        true = sum(1 << ko[c] for c in state.hands[1 - me])
        mine = sum(1 << ko[c] for c in state.hands[me])
        free = [c for c in unseen if not kmask >> c & 1]
        fixed = outs_of(mine, free)
        if self.know == "others":
            rest = [c for c in free if c not in fixed]
            fixed = random.Random(mine).sample(rest, min(len(fixed), len(rest)))
        rng = self.rng
        base = PIMCBot._worlds(self, state, sim, obs, early, kmask, m, unseen)
        while True:
            hm, _ = next(base)
            for c in fixed:
                want = true >> c & 1
                if (hm >> c & 1) != want:
                    pool = [x for x in free if x not in fixed and (hm >> x & 1) == want]
                    if pool:
                        hm ^= (1 << c) | (1 << rng.choice(pool))
            stock = [c for c in unseen if not hm >> c & 1]
            rng.shuffle(stock)
            yield hm, stock


def out_probabilities(make, data, samples: int = 200) -> list[tuple[float, float, int]]:
    """For each of the bot's outs over ``data``: (the probability ``make()``'s sampler
    gives that the opponent holds it, the prior ``m / unseen``, 1 if it does)."""
    out = []
    for g, _moves, _greedy, _vals, earlier in data:
        bot = make()
        for s in earlier:
            bot.observe(s)
        me = g.current_player
        ko = g.kind_of
        sim = bot._gin_sim(g)
        obs, early, known, unseen = bot._gin_info(g, me)
        kmask = sum(1 << k for k in known)
        m = len(g.hands[1 - me]) - len(known)
        worlds = None
        if bot.particles > 0:
            worlds = bot._particle_worlds(g, sim, unseen, kmask, m)
        if worlds is None:
            worlds = bot._worlds(g, sim, obs, early, kmask, m, unseen)
        hands = [next(worlds)[0] for _ in range(samples)]
        true = sum(1 << ko[c] for c in g.hands[1 - me])
        mine = sum(1 << ko[c] for c in g.hands[me])
        prior = m / len(unseen)
        for c in outs_of(mine, [u for u in unseen if not kmask >> u & 1]):
            out.append((sum(h >> c & 1 for h in hands) / samples, prior, true >> c & 1))
    return out


def brier_report(label, probs) -> tuple[float, float]:
    """Print and return the Brier score of ``probs`` (``(probability, prior, held)`` for
    each out) and the prior's, with the reliability (by the probability, in tenths:
    predicted and actual)."""
    n = len(probs)
    held = sum(t for _, _, t in probs)
    sq = sum((p - t) ** 2 for p, _, t in probs) / n
    sq0 = sum((q - t) ** 2 for _, q, t in probs) / n
    bins: dict[int, list] = {}
    for p, _, t in probs:
        b = bins.setdefault(min(int(p * 10), 9), [0.0, 0, 0])
        b[0] += p
        b[1] += t
        b[2] += 1
    print(f"{label}: {n} outs ({held} held), Brier {sq:.4f} (the prior's {sq0:.4f})",
          flush=True)
    print("  reliability: " + ", ".join(f"{b[0] / b[2]:.2f}->{b[1] / b[2]:.2f} ({b[2]})"
                                       for _, b in sorted(bins.items())), flush=True)
    return sq, sq0


def outs_brier(label, make, data, samples: int = 200, mix=None) -> tuple[float, float]:
    """How well ``make()``'s sampler knows whether the opponent holds the bot's outs, over
    ``data``: (its Brier score of out-held, the prior's ``m / unseen``); prints both and
    the reliability (by the sampler's probability, in tenths: predicted and actual).
    With ``mix`` (another bot's maker), also the Brier score of each mixture ``a`` times
    ``mix``'s probability plus ``1 - a`` times ``make``'s, ``a`` in tenths."""
    probs = out_probabilities(make, data, samples)
    if not probs:
        print(f"{label}: no outs in these positions", flush=True)
        return float("nan"), float("nan")
    sq, sq0 = brier_report(label, probs)
    n = len(probs)
    if mix is not None:
        other = out_probabilities(mix, data, samples)
        pairs = [(p, q, t) for (p, _, t), (q, _, _) in zip(probs, other, strict=True)]
        row = []
        for a in range(11):
            w = a / 10
            mixed = sum((w * q + (1 - w) * p - t) ** 2 for p, q, t in pairs) / n
            row.append(f"{w:.1f}: {mixed:.4f}")
        print("  mixed with the other sampler, its share: " + ", ".join(row), flush=True)
    return sq, sq0


def values(g, moves, shuffles, rng):
    sim = GinSim(g)
    me = g.current_player
    ko = g.kind_of
    masks = [sum(1 << ko[c] for c in h) for h in g.hands]
    stock = [ko[c] for c in g.stock]
    pile = [ko[c] for c in g.pile]
    sign = 1 if me == 0 else -1
    out = [0.0] * len(moves)
    for _ in range(shuffles):
        st = stock[:]
        rng.shuffle(st)
        for i, mv in enumerate(moves):
            hands = masks[:]
            if g.phase == "first_upcard":
                net = sim.play_first_upcard(hands, st[:], pile[:], me, g.passes, mv)
            else:
                net = sim.play_move(hands, st[:], pile[:], me, g.phase, g.taken,
                                    g.returned_in_row, mv)
            net *= sign
            out[i] += (net > 0) - (net < 0)
    return [v / shuffles for v in out]


def positions(n: int, shuffles: int, first_hand: int = 1):
    out = []
    probe = PIMCBot(seed=0)
    seed = first_hand - 1
    while len(out) < n:
        seed += 1
        rng = random.Random(seed)
        g = meldkit.new_game("gin_rummy", players=2, seed=seed)
        stops = set(rng.sample(range(40), 3))
        k = 0
        before: list = [[], []]  # each player's earlier decisions this hand
        while not g.hand_results:
            legal = g.legal_actions()
            if k in stops and len(legal) > 1 and GinRollout.applies(g, _GIN_PHASES):
                greedy = GreedyBot().choose(g)
                cands = [str(a) for a in probe._candidates(g, legal, greedy)]
                if len(cands) > 1:
                    out.append((g.clone(), cands, str(greedy), values(g, cands, shuffles, rng),
                                before[g.current_player][:]))
            if len(legal) > 1 and g.phase in ("first_upcard", "draw"):
                before[g.current_player].append(g.clone())
            g.apply(type(g).greedy_policy(g))
            k += 1
    return out[:n]


def evaluate(label, make, data, dump=None, shuffles: int = 300) -> float:
    """The bot's gain per decision over ``data``, printed by phase; with ``dump`` (a list),
    each decision's ``(phase, moves, greedy, values, search record)`` appended to it (the
    bot a :class:`RecordingPIMC`).  A take the bot chose for the discard it planned after
    it (``follow``) is valued as that take and that discard, against the greedy choice on
    ``shuffles`` common reshuffles of its own (and so is every such take it searched, in
    the dump, for :func:`rule_gains`)."""
    gain = 0.0
    spent = 0.0
    phases: dict = {}
    for k, (g, moves, greedy, vals, earlier) in enumerate(data):
        bot = make()
        for s in earlier:  # what the bot saw at its earlier decisions this hand
            bot.observe(s)
        t0 = time.process_time()
        a = str(bot.choose(g))
        spent += time.process_time() - t0
        gi = moves.index(greedy)
        ceiling = max(vals) - vals[gi]  # over the stored candidates: the same for every bot
        if bot._plan is not None:  # a take for the discard planned after it (follow)
            a = f"{a};{bot._plan[1]}"
        # the takes searched with a planned discard, valued on reshuffles of their own
        # against the greedy choice's value there, then placed beside the stored values
        extra = [mv for mv, *_ in getattr(bot, "record", ()) if mv not in moves]
        if a not in moves and a not in extra:
            extra.append(a)
        if extra:
            fresh = values(g, [greedy] + extra, shuffles, random.Random(k))
            moves = moves + extra
            vals = vals + [vals[gi] + v - fresh[0] for v in fresh[1:]]
        d = vals[moves.index(a)] - vals[gi]
        gain += d
        if dump is not None:
            dump.append((g.phase, moves, greedy, vals, bot.record))
        ph = phases.setdefault(g.phase, [0, 0.0, 0.0])
        ph[0] += 1
        ph[1] += d
        ph[2] += ceiling
    n = len(data)
    ceiling = sum(p[2] for p in phases.values()) / n
    by = " ".join(f"{k}: {p[1] / p[0]:+.3f}/{p[2] / p[0]:+.3f} ({p[0]})" for k, p in phases.items())
    print(f"{label}: gain/decision {gain / n:+.4f} of {ceiling:+.4f}, {spent / n:.3f} s/decision"
          f" | {by}", flush=True)
    return gain / n


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--positions", type=int, default=600)
    ap.add_argument("--shuffles", type=int, default=300)
    ap.add_argument("--first-hand", type=int, default=1, help="the first self-play deal the "
                    "positions are taken from (another: a fresh set of positions)")
    ap.add_argument("--time-limit", type=float, default=0.1)
    ap.add_argument("--param", action="append", default=[], metavar="KEY=VALUE")
    ap.add_argument("--cache", metavar="PATH", help="keep the valued positions in this file")
    ap.add_argument("--cheat", action="store_true", help="also score pimc shown the hand")
    ap.add_argument("--partial", choices=("outs", "others"), help="also score pimc shown "
                    "whether the opponent holds its outs (or, the control, as many others)")
    ap.add_argument("--outs-brier", action="store_true", help="only: how well the sampler "
                    "knows the outs (Brier score, the first 200 positions)")
    ap.add_argument("--outs-mix", type=int, metavar="PARTICLES", help="with --outs-brier: "
                    "also mixtures with the particle filter's probabilities")
    ap.add_argument("--dump", metavar="PATH", help="keep each decision's search record "
                    "(the candidates' paired gains and standard errors) in this pickle")
    ap.add_argument("--rules", nargs="+", metavar="DUMP", help="only: score other rules "
                    "for leaving the greedy choice (confidence, margin) on these dumps")
    ap.add_argument("--seed", type=int, default=1, help="the bots' seed (another seed: "
                    "the noise of the search itself)")
    args = ap.parse_args(argv)
    kw = parse_settings(args.param)
    if args.rules:
        import pickle

        dumps = []
        for path in args.rules:
            with open(path, "rb") as f:
                dumps.append(pickle.load(f))
        rule_gains(dumps, [(c, mg) for c in (0.0, 0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 2.0)
                           for mg in (0.0, 0.005, 0.01, 0.02)])
        return 0
    t0 = time.process_time()
    data = None
    if args.cache:
        import os
        import pickle

        if os.path.exists(args.cache):
            with open(args.cache, "rb") as f:
                data = pickle.load(f)
    if data is None:
        data = positions(args.positions, args.shuffles, args.first_hand)
        if args.cache:
            with open(args.cache, "wb") as f:
                pickle.dump(data, f)
    data = data[:args.positions]
    print(f"{len(data)} positions valued in {time.process_time() - t0:.0f} s", flush=True)
    tl = args.time_limit
    if args.outs_brier:
        mix = None
        if args.outs_mix:
            def mix():
                return PIMCBot(seed=args.seed, time_limit=tl,
                               **{**kw, "particles": args.outs_mix})
        outs_brier(f"pimc {kw or 'default'} sampler", lambda: PIMCBot(seed=args.seed,
                   time_limit=tl, **kw), data[:200], mix=mix)
        return 0
    dump = [] if args.dump else None
    maker = RecordingPIMC if args.dump else PIMCBot
    evaluate(f"pimc {kw or 'default'}", lambda: maker(seed=args.seed, time_limit=tl, **kw),
             data, dump, args.shuffles)
    if args.dump:
        import pickle

        with open(args.dump, "wb") as f:
            pickle.dump(dump, f)
    if args.cheat:
        evaluate("pimc shown the hand", lambda: CheatPIMC(seed=args.seed, time_limit=tl, **kw),
                 data, shuffles=args.shuffles)
    if args.partial:
        def shown():  # an instance setting, not the class's: PartialPIMC stays as defined
            bot = PartialPIMC(seed=args.seed, time_limit=tl, **kw)
            bot.know = args.partial
            return bot

        evaluate(f"pimc shown its {args.partial}", shown, data, shuffles=args.shuffles)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
