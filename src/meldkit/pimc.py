"""Perfect-information Monte Carlo search with greedy rollouts (``--bots pimc``).

At each decision with a choice the bot keeps a few **candidate** actions — the greedy
bot's own choice and the alternatives that matter (every draw-phase choice: take the
upcard or the stock, knock or pass at the wall; in a discard phase knocking and the
discards that leave at most ``window`` more than the least deadwood) — and, for a fixed
number of determinizations (``max_samples``: by default 400 at gin's mask search, 8 on
the engine's rollouts; ``time_limit`` seconds only caps it; after ``race`` of them only
the greedy choice and its ``keep`` best rivals go on):

1. samples a state consistent with what it has seen (:class:`~meldkit.ai.Determinizer`:
   every hidden card dealt anew, uniformly, the cards it watched an opponent take kept in
   that hand);
2. for every candidate (on the same sample: common random numbers), applies it and plays
   the hand on with the greedy policy for every seat (``rollout_depth`` actions at most);
3. scores the outcome for its side: the hand's point difference (its side's hand total
   less the best other side's) divided by ``scale`` plus ``win_weight`` for a hand won
   (minus for one lost), or, for a rollout cut off before the hand ends, the difference of
   the scores and of the cards melded so far.

It plays the candidate with the best mean; the greedy choice wins unless another beats it
by ``margin`` (in units of the score). Where the greedy policy is the whole of a decision
(laying melds after a knock, laying off) the bot plays greedy without searching; so it
does in the canasta family unless ``max_samples`` is given (a rollout costs too much
there), with a wild card spent outside a required wild-only book costed by
:meth:`PIMCBot._policy`.

At two-player knock gin with OpenSpiel's terms (:meth:`GinRollout.applies`; the first
upcard, draw, discard and wall decisions) the search runs on 52-bit masks of card kinds
(:class:`GinSim`: the engine's greedy hand, about three times faster than
:class:`GinRollout`'s lists), and the determinizations are drawn by the bot itself
(:meth:`PIMCBot._worlds`) from what it saw this hand (:meth:`PIMCBot._gin_info`): the
upcards the opponent took and kept are in its hand; its other cards are drawn *as a greedy
player's kept hand would be* — the best of ``m + select × draws`` unseen cards, its
stock draws so far letting the weakest go — and never a hand that could have knocked at
its last discard; the stock is the rest, shuffled.  Uniform deals give the opponent about
50 deadwood at every turn where a greedy player holds 31 after three to five turns; the
rollouts then overrate every line that races the opponent.

With ``particles`` > 0 (off by default) the opponent's hand comes instead from a
**particle filter** (:meth:`PIMCBot._filter`): that many hands dealt from the cards it
could hold, each followed through its play this hand (:meth:`PIMCBot._gin_events`) as a
greedy player's — an upcard taken or refused, a discard, a knock not made weigh 1 where
the greedy player holding that hand does the same, else ``eps`` (a discard leaving the
same least deadwood, ``tie``); a stock draw is the card then discarded when the particle
does not hold it, else one of ``tries`` stock cards by what it makes the greedy player
discard — resampled when their weight concentrates, kept from decision to decision, and
dropped when they hold a card the bot has since seen.  It picks better moves on positions
of greedy self-play judged with the opponent's true hand (``benchmarks/pimc_oracle.py``:
+0.013 a decision over greedy's choice with 5000 particles, ``confidence=0.5`` and
0.15 s, against +0.007 for the default at 0.15 s) but played worse in matches (0.496
against greedy over 400 hands, where the default scores 0.555); see docs/pimc-record.md.

>>> import meldkit
>>> from meldkit.pimc import PIMCBot
>>> g = meldkit.new_game("gin_rummy", players=2, seed=4)
>>> bot = PIMCBot(seed=1, max_samples=4)
>>> bot.choose(g) in g.legal_actions()
True
"""

from __future__ import annotations

import hashlib
import math
import random
import time

from ._cards import card_code, kind_of_code
from ._checks import check
from ._errors import SetupError
from .ai.resample import Determinizer, _write
from .kernel.policy import _neighbours

__all__ = ["PIMCBot", "parse_settings"]

_DRAW_TYPES = frozenset({"draw", "take", "pass", "pickup", "end", "knock"})
_GIN_PHASES = ("first_upcard", "draw", "discard", "wall")
GIN_SAMPLES = 400
"""Determinizations per decision at two-player knock gin's mask search, by default."""
ENGINE_SAMPLES = 8
"""Determinizations per decision on the engine's rollouts (other packs), by default."""
GIN_WORK = 15_000
"""At gin's mask search, the work after which a decision searches no more determinizations,
by default (:meth:`PIMCBot.choose`: rollout turns, counted as stock cards drawn plus two a
rollout, plus two for each discard the sampler's selection makes, retries included): a cap
on the CPU of the largest decisions that does not depend on the clock. A unit of work costs
about 30 to 40 µs at the capped decisions (the discards with seven to eleven candidates)."""


_SETTINGS = {  # name: (kind, bounds) of PIMCBot's settings, checked on construction
    "time_limit": ("float", dict(above=0, optional=True)),
    "max_samples": ("int", dict(least=1, optional=True)),
    "top_k": ("int", dict(least=1)), "window": ("float", dict(least=0)),
    "race": ("int", dict(least=1)), "keep": ("int", dict(least=0)),
    "scale": ("float", dict(above=0, optional=True)), "win_weight": ("float", dict(least=0)),
    "margin": ("float", {}), "confidence": ("float", dict(least=0)),
    "rollout_depth": ("int", dict(least=1)), "fast": ("bool", {}),
    "infer": ("int", dict(least=1)), "depth_back": ("int", dict(least=0)),
    "strength": ("float", dict(least=0)), "select": ("float", dict(least=0)),
    "proposals": ("int", dict(least=1)), "particles": ("int", dict(least=0)),
    "eps": ("float", dict(least=0, most=1)), "tie": ("float", dict(least=0, most=1)),
    "tries": ("int", dict(least=1)), "safety": ("float", dict(least=0)),
    "danger_samples": ("int", dict(least=1)), "safe_rollouts": ("bool", {}),
    "max_work": ("int", dict(least=0, optional=True)), "follow": ("int", dict(least=0)),
    "reseed": ("bool", {}),
}


def parse_settings(pairs) -> dict:
    """:class:`PIMCBot` settings from ``key=value`` texts (the benchmarks' ``--param``),
    each value read as its setting's kind; an unknown key or a bad value is refused.

    >>> parse_settings(["window=4", "safety=8", "safe_rollouts=true", "max_work=none"])
    {'window': 4.0, 'safety': 8.0, 'safe_rollouts': True, 'max_work': None}
    """
    out: dict = {}
    for kv in pairs:
        key, eq, text = kv.partition("=")
        if key not in _SETTINGS or not eq:
            known = ", ".join(sorted(_SETTINGS))
            raise SetupError(f"PIMCBot: {kv!r} is not key=value with a known setting "
                             f"(one of {known})")
        kind, bounds = _SETTINGS[key]
        word = text.strip().lower()
        value: object = text  # a value that does not read as its kind is refused below
        if word == "none":
            value = None
        elif kind == "bool":
            value = {"true": True, "1": True, "false": False, "0": False}.get(word, text)
        else:
            try:
                value = int(text) if kind == "int" else float(text)
            except ValueError:
                pass
        check("PIMCBot", key, value, kind, **bounds)
        out[key] = value
    return out


def _check_settings(given: dict) -> None:
    """Refuse a :class:`PIMCBot` setting out of its range, naming it (``SetupError``)."""
    for name, (kind, bounds) in _SETTINGS.items():
        check("PIMCBot", name, given[name], kind, **bounds)
    w = given["weights"]
    if not (isinstance(w, (tuple, list)) and len(w) == 4 and all(
            type(x) in (int, float) and math.isfinite(x) and x >= 0 for x in w)):
        raise SetupError(f"PIMCBot: weights must be four numbers >= 0, not {w!r}")


def _hand_moves(state):
    """The current hand's public moves, oldest first, as ``(seat, verb, kind)``: the upcard
    taken (``take``), the pile's top when a player draws from the stock or passes
    (``draw``, ``pass``), the card discarded (``discard``); None for an empty pile and for
    the other verbs (``knock``, the melds after it).  What every gin reader of the public
    history below starts from."""
    events = state.public_history()
    start = max((i for i, e in enumerate(events) if e.kind == "deal"), default=0)
    pile: list[int] = []
    for e in events[start:]:
        text = e.public
        if e.kind == "deal":
            up = text.rpartition("upcard ")[2].strip() if "upcard " in text else ""
            pile = [kind_of_code(up)] if up else []
            continue
        if e.kind != "action":
            continue
        verb = text.split(" ", 1)[0]
        card = None
        if verb == "take":
            card = pile.pop() if pile else None
        elif verb in ("draw", "pass"):
            card = pile[-1] if pile else None
        elif verb == "discard":
            card = kind_of_code(text.split()[1])
            pile.append(card)
        yield e.player, verb, card


class PIMCBot:
    """Determinized search over a few candidate actions with greedy rollouts.

    ``max_samples``: determinizations per decision (default :data:`GIN_SAMPLES` at gin's
    mask search, :data:`ENGINE_SAMPLES` on the engine's rollouts), a fixed count so that a
    busy machine does not change the moves; ``time_limit``: CPU seconds per decision that
    cap it (default None: no cap; the search stops at the first determinization that
    would start after it); ``window``: at a gin discard, the discards searched are those
    within this many deadwood points of the least; ``race``, ``keep``: after ``race``
    determinizations only the greedy choice and its ``keep`` best rivals are searched on;
    ``top_k``: discards searched in the canasta family when ``max_samples`` is given;
    ``scale``: points per unit of score (default 25 at gin, the pack's target / 100
    elsewhere); ``win_weight``: the score of a hand won outright; ``margin``: how much
    better than the greedy choice another candidate must be; ``rollout_depth``: actions a
    rollout plays at most before it is scored as it stands; ``confidence``: the greedy
    choice gives way only to a candidate whose mean paired gain exceeds ``margin`` plus
    this many standard errors; ``fast``: at two-player knock gin, the search on bit masks
    (:class:`GinSim`, :meth:`_worlds`); ``select``: how strongly a sampled gin opponent's
    hand is selected (0: uniform deals); ``proposals``, ``weights``: with ``proposals`` >
    1, each gin determinization is one of that many, weighted by ``exp(-penalty)`` of the
    opponent's play this hand (:meth:`GinSim.penalty`; it did not improve the decisions
    measured, so it is off); ``infer``, ``depth_back``, ``strength``: on the engine's
    rollouts at a knock-gin variant :class:`GinSim` does not model (Oklahoma gin), each
    determinization is the least unlikely of ``infer`` deals (fewest cards the opponent
    let go that meld with its sampled hand, fewest of its last ``depth_back`` discards
    that were not least-deadwood ones, plus ``strength`` times its deadwood; 1: uniform);
    ``particles``, ``eps``, ``tie``, ``tries``: the gin particle filter (:meth:`_filter`;
    ``particles=0``: the kept-hand sampler :meth:`_worlds`); ``max_work``: at gin's mask
    search, no determinization starts once the rollouts have done this much work
    (default :data:`GIN_WORK`; 0: no cap) — a cap on the largest decisions' CPU that,
    unlike ``time_limit``, does not depend on the clock; ``follow``: at gin's mask search,
    a take is also searched followed by each of this many discards other than greedy's
    (:meth:`_follow_ups`; 0, the default: the take followed by greedy's discard alone), and
    a take chosen for its planned discard makes that discard the choice to beat at the
    next decision; ``reseed``: each decision's search seeded from ``seed`` and the bot's
    view of the game's history (:meth:`_reseeded`; off by default), so that a decision
    depends on the position alone.  :meth:`observe` follows the
    opponent's play without searching (for a bot shown a position mid-hand).
    Time is the process's CPU time (``time.process_time``), so a shared machine does not
    shorten the search.

    Strength (``benchmarks/strength.py``, gin, every hand refereed by OpenSpiel, deals
    played twice with the seats swapped, each deal set chosen before play): the default
    over eleven sets against greedy, 4,400 hands, 0.579 [0.564, 0.593], and over nine
    against OpenSpiel's simple bot, 3,600 hands, 0.594 [0.578, 0.610], at 0.15–0.27 s a
    decision (the largest 0.58 s). With ``follow=3``
    (stop 37), on three more unseen sets, 1,200 hands each, 0.573 [0.544, 0.600] against
    greedy and 0.598 [0.570, 0.626] against OpenSpiel's simple bot, and worse than the
    default over 1,000 paired hands, so it is off (it takes more often, partly because it
    values the take with its best discard but the stock draw with greedy's).
    docs/pimc-record.md holds every run, the screens of the options that are off
    (``safety``, ``safe_rollouts``, the particle filter, ``proposals``) and the decision
    study of the settings.
    """

    name = "pimc"

    def __init__(self, seed: int | None = None, time_limit: float | None = None,
                 max_samples: int | None = None, top_k: int = 3, window: int = 8,
                 race: int = 100, keep: int = 2,
                 scale: float | None = None,
                 win_weight: float = 1.0, margin: float = 0.0,
                 confidence: float = 1.0,
                 rollout_depth: int = 400, fast: bool = True, infer: int = 8,
                 depth_back: int = 4, strength: float = 0.1,
                 select: float = 1.3, proposals: int = 1,
                 weights: tuple = (8.0, 1.5, 2.0, 1.5), particles: int = 0,
                 eps: float = 0.05, tie: float = 0.5, tries: int = 4,
                 safety: float = 0.0, danger_samples: int = 100,
                 safe_rollouts: bool = False, max_work: int | None = None,
                 follow: int = 0, reseed: bool = False):
        _check_settings(locals())
        self.rng = random.Random(seed)
        self.time_limit = time_limit
        self.max_samples = max_samples
        self.top_k = top_k
        self.window = window
        self.race = race
        self.keep = keep
        self.scale = scale
        self.win_weight = win_weight
        self.margin = margin
        self.confidence = confidence
        self.fast = fast
        self.infer = infer
        self.depth_back = depth_back
        self.strength = strength
        self.rollout_depth = rollout_depth
        self.seed = seed
        self._policies: dict[str, tuple] = {}
        self.weights = weights
        self.proposals = proposals
        self.select = select
        self.particles = particles
        self.eps = eps
        self.tries = tries
        self.tie = tie
        self.safety = safety
        self.danger_samples = danger_samples
        self.safe_rollouts = safe_rollouts
        self.max_work = max_work
        self.follow = follow
        self.reseed = reseed
        self._base = seed if seed is not None else random.getrandbits(64)
        self._work = 0
        self._prior = None  # the gin sampler's safe discard, when it finds one
        self._plan = None  # (hand after a planned take, its planned discard's code)
        self._pf: dict = {}  # seat -> the particles following its opponent this hand
        self._sims: dict = {}
        self.last_samples = 0
        self.last_seconds = 0.0
        self.last_values: dict[str, float] = {}

    # ------------------------------------------------------------------ the decision
    def choose(self, state):
        """The candidate with the best mean rollout score."""
        t0 = time.process_time()
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        if self.reseed:
            self._reseeded(state)
        self._greedy, self._rollout_bot = self._policy(state)
        greedy = self._greedy.choose(state)
        self.last_samples, self.last_values = 0, {}
        if self.max_samples is None and getattr(state, "meld_model", None) == "rank_slot":
            return greedy  # the canasta family: a rollout costs too much to search well
        cands = self._candidates(state, legal, greedy)
        gin = self.fast and GinRollout.applies(state, _GIN_PHASES)
        planned = self._planned(state, cands) if gin else None
        if gin and self.follow:
            cands += self._follow_ups(state, cands)
        if len(cands) == 1:
            return cands[0]
        scale = self.scale or self._default_scale(state)
        self._prior = planned
        if gin:
            one = self._gin_sampler(state, cands, scale)
            samples = self.max_samples or GIN_SAMPLES
        else:
            one = self._engine_sampler(state, cands, scale)
            samples = self.max_samples or ENGINE_SAMPLES
        gi = cands.index(greedy if self._prior is None else self._prior)
        active = list(range(len(cands)))
        values: list[list[float]] = [[] for _ in cands]
        n = 0
        deadline = t0 + self.time_limit if self.time_limit else None
        ts = time.process_time()
        per = 0.0
        self._work = 0  # the gin sampler counts its rollouts' turns
        budget = GIN_WORK if self.max_work is None else self.max_work
        while n < samples:
            if deadline is not None and n >= 2 and time.process_time() + per > deadline:
                break
            if budget and n >= 2 and self._work >= budget:
                break
            if n == self.race and len(active) > self.keep + 1:  # the finalists go on
                rest = sorted((i for i in active if i != gi), key=lambda i: -sum(values[i]))
                active = sorted([gi] + rest[:self.keep])
            for i, x in zip(active, one(active)):
                values[i].append(x)
            n += 1
            per = (time.process_time() - ts) / n  # a determinization's cost so far
        choice = self._pick(cands, gi, values, active, n, t0)
        if isinstance(choice, _Then):
            self._plan = (choice.hand, choice.then)
            return choice.action
        return choice

    def _reseeded(self, state) -> None:
        """Seed the search from the bot's seed and what it knows (``reseed``): its view of
        the game's history, its own hand and draws included.  A decision is then a function
        of the position, whatever the bot searched before, so two settings compared on the
        same deals part ways only where their choices differ."""
        me = state.current_player
        text = "\n".join(e.private.get(me, e.public) for e in state.public_history())
        digest = hashlib.blake2b(f"{self._base}\n{text}".encode(), digest_size=8).digest()
        self.rng.seed(int.from_bytes(digest, "big"))

    def _follow_ups(self, state, cands) -> list:
        """At a gin draw or first upcard, the take followed by each of the ``follow`` best
        discards after it (by the least deadwood each leaves, within ``window``) other
        than greedy's, which the take alone plays: the discard is chosen knowing no more
        than the take is, so the take is worth its best follow-up."""
        take = next((a for a in cands if a.type == "take"), None)
        if take is None or state.phase not in ("draw", "first_upcard") or not state.pile:
            return []
        sim = self._gin_sim(state)
        h = _hand_mask(state, state.current_player) | 1 << state.kind_of[state.pile[-1]]
        greedy_card = sim.discard(h)[0]
        leaves = sorted(sim._leaves(h, h ^ 1 << greedy_card))
        if not leaves:
            return []
        low = leaves[0][0]
        return [_Then(take, h, f"discard {card_code(c)}")
                for d, c in leaves[:self.follow] if d <= low + self.window]

    def _planned(self, state, cands):
        """The discard this bot planned when it took the upcard now in its hand (the
        choice a rival must beat in place of greedy's), or None."""
        plan, self._plan = self._plan, None
        if plan is None or state.phase != "discard":
            return None
        if _hand_mask(state, state.current_player) != plan[0]:
            return None
        return next((a for a in cands if str(a) == plan[1]), None)

    def _engine_sampler(self, state, cands, scale):
        """One determinization's scores of the candidates on the engine: the hidden cards
        dealt anew (:meth:`_sample`), each candidate applied and the hand played on."""
        me = state.current_player
        team = state.team_of[me]
        det = Determinizer(state, me)
        signals = self._signals(state, me) if self.infer > 1 else None

        def one(active):
            base = self._sample(det, state, signals)
            out = []
            for i in active:
                s = base.clone() if i != active[-1] else base
                s.apply(cands[i])
                out.append(self._rollout(s, team, state, scale))
            return out
        return one

    # ------------------------------------------------------------------ gin
    def _gin_sim(self, state) -> "GinSim":
        """The :class:`GinSim` of ``state``'s compiled rules, kept with them (so that an id
        freed by other rules and reused is never taken for theirs) for the last few."""
        rules = state.rules
        hit = self._sims.get(id(rules))
        if hit is None or hit[0] is not rules:
            if len(self._sims) >= 4:
                self._sims.clear()
            hit = self._sims[id(rules)] = (rules, GinSim(state))
        return hit[1]

    def _gin_info(self, state, me):
        """What ``me`` saw of the opponent this hand: its observations for
        :meth:`GinSim.penalty` (oldest first), the upcards it took before each, the cards
        it holds that ``me`` knows (upcards it took and kept) and the kinds ``me`` has not
        seen (the opponent's other cards and the stock)."""
        opp = 1 - me
        known: set[int] = set()
        obs: list = []
        early: list[int] = []
        taken_mask = 0
        cur = None
        for seat, verb, card in _hand_moves(state):
            his = seat == opp
            if verb == "take":
                if his and card is not None:
                    known.add(card)
                    cur = (card, True)
            elif verb == "draw":
                if his:
                    cur = (card, False)
            elif verb == "pass":
                if his and card is not None:
                    obs.append(("pass", card))
                    early.append(taken_mask)
            elif verb == "discard":
                if his and cur is not None:
                    known.discard(card)
                    obs.append(("turn", cur[0], cur[1], card))
                    early.append(taken_mask)
                    if cur[1]:
                        taken_mask |= 1 << cur[0]
                    cur = None
        ko = state.kind_of
        seen = {ko[c] for c in state.hands[me]} | {ko[c] for c in state.pile} | known
        unseen = [k for k in range(52) if k not in seen]
        return obs, early, known, unseen

    def _gin_sampler(self, state, cands, scale):
        """One determinization's scores of the candidates at two-player knock gin, on bit
        masks (:class:`GinSim`): the opponent's hand from :meth:`_worlds` (or the particle
        filter's, :meth:`_particle_worlds`), the stock the other unseen cards, shuffled."""
        sim = self._gin_sim(state)
        me = state.current_player
        opp = 1 - me
        obs, early, known, unseen = self._gin_info(state, me)
        ko = state.kind_of
        mine = _hand_mask(state, me)
        kmask = 0
        for k in known:
            kmask |= 1 << k
        m = len(state.hands[opp]) - len(known)
        pile0 = [ko[c] for c in state.pile]
        phase = state.phase
        passes = getattr(state, "passes", 0)
        taken, returned = state.taken, state.returned_in_row
        moves = [str(a) for a in cands]
        worlds = None
        if self.particles > 0 and type(self)._worlds is PIMCBot._worlds:
            worlds = self._particle_worlds(state, sim, unseen, kmask, m)
        if worlds is None:
            worlds = self._worlds(state, sim, obs, early, kmask, m, unseen)
        sign = 1 if me == 0 else -1
        score = self._score
        if self.safety > 0 and phase == "discard":
            self._prior = self._safe_discard(sim, cands, moves, mine, worlds)
        sim.safe_seat = me if self.safe_rollouts and self.safety > 0 else None
        sim.safety = self.safety

        def one(active):
            hm, stock0 = next(worlds)  # the sampler counts its own discards in _work
            out = []
            n0 = len(stock0)
            work = 2
            for i in active:
                mv = moves[i]
                hands = [0, 0]
                hands[me] = mine
                hands[opp] = hm
                stock = stock0[:]
                if phase == "first_upcard":
                    net = sim.play_first_upcard(hands, stock, pile0[:], me, passes, mv)
                else:
                    net = sim.play_move(hands, stock, pile0[:], me, phase, taken,
                                        returned, mv)
                out.append(score(sign * net, scale))
                work += n0 - len(stock) + 2  # the rollout's turns, about
            self._work += work
            return out
        return one

    def _safe_discard(self, sim, cands, moves, mine, worlds):
        """The discard that leaves the least deadwood plus ``safety`` times the chance
        that the opponent takes it (a greedy player takes an upcard that lies in a meld of
        its best arrangement), over ``danger_samples`` of the sampled opponent hands;
        None when the greedy choice knocks.  Ties go to the earlier candidate (the greedy
        choice first, then by least deadwood and highest value)."""
        if moves[0] == "knock":
            return None
        cards = {i: kind_of_code(mv.split()[1]) for i, mv in enumerate(moves)
                 if mv.startswith("discard")}
        if len(cards) < 2:
            return None
        k = max(1, self.danger_samples)
        hands = [next(worlds)[0] for _ in range(k)]
        takes = sim.takes
        top = sim.top
        best, best_cost = None, None
        for i, c in cards.items():
            danger = sum(takes(hm, c) for hm in hands) / k
            cost = top(mine ^ 1 << c) + self.safety * danger
            if best_cost is None or cost < best_cost - 1e-9:
                best, best_cost = i, cost
        return cands[best]

    def _worlds(self, state, sim, obs, early, kmask, m, unseen):
        """Endless determinizations at gin: (the opponent's hand as a mask, the stock as
        a list of kinds, shuffled).

        Each hand is drawn as a greedy player's would be after the hand so far: its ``m``
        unknown cards are the best ``m`` of ``m + round(select * draws)`` unseen cards
        (``draws``: the cards it drew from the stock this hand; the greedy discard lets
        the others go), so that its deadwood matches a kept hand's (uniformly dealt
        cards leave about 50 deadwood at every turn, where a greedy hand has 31 after
        three to five turns and 19 after nine).  A hand that could have knocked at its
        last discard is drawn again, with two cards fewer to choose from each time (up to
        six times).  With ``proposals`` > 1, one of
        that many is kept with weights ``exp(-penalty)`` (:meth:`GinSim.penalty`, from
        the opponent's every draw and discard, with ``weights``)."""
        rng = self.rng
        w = self.weights
        draws = sum(1 for o in obs if o[0] == "turn" and not o[2])
        extra = min(len(unseen) - m, int(round(self.select * draws)))
        k = max(1, self.proposals) if obs and any(w) else 1
        last = obs[-1][3] if obs and obs[-1][0] == "turn" else None
        limit = sim.knock_limit
        full = 0
        for c in unseen:
            full |= 1 << c

        def propose():
            for t in range(6):  # less selection at each try
                e = max(0, extra - 2 * t)
                cards = rng.sample(unseen, m + e)
                hm = kmask
                for c in cards:
                    hm |= 1 << c
                for _ in range(e):
                    hm ^= 1 << sim.discard_from(hm, hm & ~kmask)
                self._work += 2 * e  # a discard from a large hand: about two rollout turns
                if last is None or sim.topd(hm | 1 << last) > limit:
                    break  # it did not knock: its deadwood was above the knock limit
            return hm

        while True:
            if k == 1:
                hm = propose()
            else:  # importance resampling: one of k proposals, by exp(-penalty)
                props = [propose() for _ in range(k)]
                pens = [sim.penalty(h, obs, early, rng, w) for h in props]
                low = min(pens)
                ws = [math.exp(low - p) for p in pens]
                x = rng.random() * sum(ws)
                for wt, hm in zip(ws, props):
                    x -= wt
                    if x <= 0:
                        break
            rest = full & ~hm
            stock = [c for c in unseen if rest >> c & 1]
            rng.shuffle(stock)
            yield hm, stock

    # ------------------------------------------------------------------ the particle filter
    def _gin_events(self, state, me):
        """The opponent's play this hand, oldest first, for :meth:`_filter`: ``("up", u,
        took)`` an upcard ``u`` it took or refused (the first upcard or a draw), ``("stock",)``
        a stock draw, ``("disc", d)`` a discard, ``("wall", u)`` the wall's upcard refused;
        and the mask of the cards it discarded that came from its hidden cards."""
        opp = 1 - me
        known: set[int] = set()
        out: list = []
        hidden = 0
        discards = 0
        passes = 0
        for seat, verb, card in _hand_moves(state):
            his = seat == opp
            if verb == "take":
                if his and card is not None:
                    known.add(card)
                    out.append(("up", card, True))
            elif verb == "draw":
                if his:
                    if card is not None and not (discards == 0 and passes >= 2):
                        out.append(("up", card, False))
                    out.append(("stock",))
            elif verb == "pass":
                if discards == 0:
                    passes += 1
                    if his and card is not None:
                        out.append(("up", card, False))
                elif his and card is not None:
                    out.append(("wall", card))
            elif verb == "discard":
                discards += 1
                if his:
                    if card in known:
                        known.discard(card)
                    else:
                        hidden |= 1 << card
                    out.append(("disc", card))
            elif verb == "knock":
                break
        return out, hidden

    def _filter(self, state, sim, unseen, kmask, m):
        """Particles for the opponent's hand now: a sequential importance resampling of
        its hand through its play this hand, as a greedy player's (:class:`GinSim`).

        Each particle deals it ten of the cards it could have held (``pool``: the cards
        ``me`` has not seen and the discards it made from its hidden cards), then follows
        its turns: an upcard taken or refused, a discard and a knock not made weigh 1 if
        the greedy player holding the particle's hand does the same, else ``eps``; a
        stock draw is the discard itself when the particle does not hold it, else one of
        ``tries`` cards of the stock drawn at random, picked by the weight of what the
        greedy player then discards (the particle's weight multiplied by the mean weight
        of the tries and the stock's size); a discard other than the greedy one that
        leaves the same least deadwood weighs ``tie`` (OpenSpiel's simple bot breaks
        such ties its own way).  The particles are resampled when their effective number
        falls under half, and kept per seat for the next decision of the same hand (only
        the turns since are followed); a particle holding a card ``me`` has seen since
        weighs 0.  Started mid-hand, fewer particles are dealt (about half the time limit
        for the turns so far).  If every particle weighs 0 the filter starts afresh at the
        next decision and this one uses :meth:`_worlds`.  Returns (hands, weights)."""
        rng = self.rng
        me = state.current_player
        obs, hidden = self._gin_events(state, me)
        full = hidden
        for c in unseen:
            full |= 1 << c
        pool_cards = [c for c in range(52) if full >> c & 1]
        n = max(1, self.particles)
        eps = self.eps
        tie = self.tie
        tries = self.tries
        top, topd, takes, disc = sim.top, sim.topd, sim.takes, sim.discard
        limit = sim.knock_limit
        events = state.public_history()
        deal = max((i for i, e in enumerate(events) if e.kind == "deal"), default=0)
        key = (id(state.rules), deal, len(state.hand_results), self.particles)
        pf = self._pf.get(me)
        if pf is not None and pf[0] == key and obs[:len(pf[1])] == pf[1]:
            _, done, hands, ws, gone = pf  # go on from the turns already followed
            hands, ws = hands[:], ws[:]
            n = len(hands)
            i = len(done)
        else:
            # from the deal: at most about half the time limit for the turns so far
            per = 4e-6 + 8e-6 * len(obs)
            n = min(n, max(200, int((self.time_limit or 0.1) / 2 / per)))
            hands = []
            for _ in range(n):
                h = 0
                for c in rng.sample(pool_cards, 10):
                    h |= 1 << c
                hands.append(h)
            ws = [1.0 / n] * n
            gone = 0  # hidden cards already discarded: not in the stock
            i = 0
        npool = len(pool_cards)

        def weigh(h, d):
            """The weight of an 11-card hand ``h`` discarding ``d`` and not knocking."""
            w = 1.0 if topd(h) > limit else eps
            if disc(h)[0] != d:
                w *= tie if top(h ^ 1 << d) == topd(h) else eps
            return w

        def draw(avail):
            """A card of the pool still in ``avail`` (a mask), at random."""
            while True:
                x = pool_cards[rng.randrange(npool)]
                if avail >> x & 1:
                    return x

        L = len(obs)
        if L and obs[-1][0] == "stock":
            L -= 1  # its discard is still to come
        while i < L:
            o = obs[i]
            kind = o[0]
            if kind == "up":
                u, took = o[1], o[2]
                b = 1 << u
                memo: dict = {}
                for j in range(n):
                    if not ws[j]:
                        continue
                    h = hands[j]
                    t = memo.get(h)
                    if t is None:
                        t = memo[h] = takes(h, u)
                    if t != took:
                        ws[j] *= eps
                    if took:
                        hands[j] = h | b
            elif kind == "wall":
                u = o[1]
                for j in range(n):
                    if ws[j] and topd(hands[j] | 1 << u) <= limit:
                        ws[j] *= eps
            elif kind == "stock":
                d = obs[i + 1][1] if i + 1 < L and obs[i + 1][0] == "disc" else None
                lik: dict = {}  # 11-card hand -> its weigh(h, d)
                for j in range(n):
                    if not ws[j]:
                        continue
                    h = hands[j]
                    avail = full & ~h & ~gone
                    if d is not None and not h >> d & 1:
                        if not avail >> d & 1:
                            ws[j] = 0.0
                            continue
                        h |= 1 << d  # it drew the card it discards
                        w = lik.get(h)
                        if w is None:
                            w = lik[h] = weigh(h, d)
                        hands[j] = h
                        ws[j] *= w
                        continue
                    navail = avail.bit_count()
                    if not navail:
                        ws[j] = 0.0
                        continue
                    if d is None:
                        hands[j] = h | 1 << draw(avail)
                        continue
                    tot, cw = 0.0, []
                    for _ in range(tries):
                        hx = h | 1 << draw(avail)
                        w = lik.get(hx)
                        if w is None:
                            w = lik[hx] = weigh(hx, d)
                        tot += w
                        cw.append((w, hx))
                    r = rng.random() * tot
                    for w, hx in cw:
                        r -= w
                        if r <= 0:
                            break
                    hands[j] = hx
                    ws[j] *= tot / tries * navail
                if d is not None:
                    i += 1  # the discard is weighed with the draw
                    for j in range(n):
                        hands[j] &= ~(1 << d)
                    if hidden >> d & 1:
                        gone |= 1 << d
            elif kind == "disc":  # after an upcard taken
                d = o[1]
                lik = {}
                for j in range(n):
                    if not ws[j]:
                        continue
                    h = hands[j]
                    if not h >> d & 1:
                        ws[j] = 0.0
                        continue
                    w = lik.get(h)
                    if w is None:
                        w = lik[h] = weigh(h, d)
                    ws[j] *= w
                    hands[j] = h ^ 1 << d
                if hidden >> d & 1:
                    gone |= 1 << d
            i += 1
            tot = sum(ws)
            if tot <= 0:  # no particle explains its play: start afresh next time
                self._pf.pop(me, None)
                return hands, [0.0] * n
            ws = [w / tot for w in ws]
            ess = 1.0 / sum(w * w for w in ws)
            if ess < n / 2:
                hands = self._resample(hands, ws, n)
                ws = [1.0 / n] * n
        # the hand now holds only cards me has not seen (and the upcards it kept)
        allowed = kmask
        for c in unseen:
            allowed |= 1 << c
        size = m + kmask.bit_count()
        for j in range(n):
            if hands[j] & ~allowed or hands[j].bit_count() != size:
                ws[j] = 0.0
        tot = sum(ws)
        if tot <= 0:
            self._pf.pop(me, None)
            return hands, ws
        ws = [w / tot for w in ws]
        if 1.0 / sum(w * w for w in ws) < n / 2:
            hands = self._resample(hands, ws, n)
            ws = [1.0 / n] * n
        self._pf[me] = (key, obs[:L], hands, ws, gone)
        return hands, ws

    def observe(self, state) -> None:
        """Follow the opponent's play so far at two-player knock gin (what :meth:`choose`
        does first at each decision), without searching."""
        if not (self.fast and self.particles > 0 and GinRollout.applies(state, _GIN_PHASES)):
            return
        me = state.current_player
        obs, early, known, unseen = self._gin_info(state, me)
        kmask = 0
        for k in known:
            kmask |= 1 << k
        m = len(state.hands[1 - me]) - len(known)
        self._filter(state, self._gin_sim(state), unseen, kmask, m)

    def _particle_worlds(self, state, sim, unseen, kmask, m):
        """Endless determinizations drawn from :meth:`_filter`'s particles (by weight),
        the stock the other unseen cards, shuffled; None if no particle is consistent."""
        hands, ws = self._filter(state, sim, unseen, kmask, m)
        tot = sum(ws)
        if tot <= 0:
            return None
        rng = self.rng
        full = 0
        for c in unseen:
            full |= 1 << c
        cum = []
        acc = 0.0
        for w in ws:
            acc += w
            cum.append(acc)
        self.last_particles = hands, ws

        def gen():
            import bisect
            while True:
                hm = hands[min(len(hands) - 1, bisect.bisect_left(cum, rng.random() * acc))]
                rest = full & ~hm
                stock = [c for c in unseen if rest >> c & 1]
                rng.shuffle(stock)
                yield hm, stock
        return gen()

    def _resample(self, hands, ws, n):
        rng = self.rng
        step = 1.0 / n
        u = rng.random() * step
        out = []
        c = ws[0]
        j = 0
        for k in range(n):
            t = u + k * step
            while t > c and j < n - 1:
                j += 1
                c += ws[j]
            out.append(hands[j])
        return out

    def _pick(self, cands, gi, values, active, n, t0):
        """The greedy choice (``cands[gi]``) unless another candidate searched to the end
        (``active``) has a mean paired gain over it above ``margin`` plus ``confidence``
        standard errors (the largest such gain wins); one determinization is never enough
        to leave the greedy choice."""
        best, best_gain = gi, 0.0
        for i, mean, se in self._paired_gains(values, gi, active, n):
            if mean > self.margin + self.confidence * se and mean > best_gain:
                best, best_gain = i, mean
        self.last_samples = n
        self.last_seconds = time.process_time() - t0
        self.last_values = {str(a): sum(v) / len(v) for a, v in zip(cands, values) if v}
        return cands[best]

    @staticmethod
    def _paired_gains(values, gi, active, n):
        """``(i, mean, standard error)`` of each searched rival's paired gain over the
        greedy choice ``gi``, over ``n`` determinizations (none when ``n`` < 2)."""
        base = values[gi]
        out = []
        for i in active if n >= 2 else ():
            if i == gi:
                continue
            d = [x - y for x, y in zip(values[i], base)]
            mean = sum(d) / n
            var = sum((x - mean) ** 2 for x in d) / (n - 1)
            out.append((i, mean, math.sqrt(var / n)))
        return out

    # ------------------------------------------------------------------ inference
    def _signals(self, state, me):
        """For a two-player knock game (gin): the cards each opponent let go this hand —
        the upcards it declined and the cards it discarded — as kinds, or None.  A greedy
        player keeps the cards that meld with its hand, so a sample in which such a card
        melds with the opponent's hand is unlikely."""
        rules = getattr(state, "rules", None)
        if rules is None or getattr(rules, "knock", None) is None:
            return None
        out: dict[int, list[int]] = {q: [] for q in range(state.n_players) if q != me}
        turns: dict[int, list] = {q: [] for q in out}  # (kind taken or None, kind discarded)
        drawn: dict[int, int | None] = {}
        for seat, verb, card in _hand_moves(state):
            if verb == "discard":
                if seat in out:
                    out[seat].append(card)
                    turns[seat].append((drawn.pop(seat, None), card))
            elif verb == "take":
                if card is not None:
                    drawn[seat] = card
            elif verb in ("draw", "pass") and card is not None and seat in out:
                out[seat].append(card)
                if verb == "draw":
                    drawn[seat] = None
        if not any(out.values()):
            return None
        return {q: (out[q], turns[q][-self.depth_back:]) for q in out}

    def _assignment(self, det, state, signals):
        """The least unlikely of ``infer`` deals of the hidden cards: each opponent's
        sampled hand scored by the cards it let go that meld with it, and by how many of
        its last ``depth_back`` discards were not ones a least-deadwood player makes
        (the hand of each time rebuilt backwards: the hand now, plus the cards let go
        since, less the cards drawn since — a sampled card for each stock draw)."""
        if not signals:
            return det.deal(self.rng)
        kind_of = state.kind_of
        md = state.rules.melds.min_deadwood
        known = {q: [kind_of[c] for c in state.hands[q]] for q in signals}
        best, best_v = None, None
        for _ in range(self.infer):
            assignment = det.deal(self.rng)
            v = 0
            for q, (let_go, turns) in signals.items():
                zone = f"hand:{q}"
                hand = list(known[q])
                for (z, i), c in assignment.items():
                    if z == zone:
                        hand[i] = kind_of[c]
                hs = set(hand)
                v += sum(_melds_with(x, hs) for x in let_go)
                v += self.strength * md(hand)  # a greedy player's hand is well kept
                # its discards, latest first: from the hand it held then (its hand now,
                # plus the cards it let go since, less the cards it drew since), each
                # was a least-deadwood discard
                fresh = {kind_of[c] for (z, _), c in assignment.items() if z == zone}
                after = hand
                weight = 2.0
                for took, d in reversed(turns):
                    before = after + [d]
                    if md(after) > md(before, discard=True):
                        v += weight
                    weight = 1.0
                    if took is not None:
                        if took not in before:
                            break
                        before.remove(took)
                    else:
                        pool = [c for c in before if c in fresh]
                        if not pool:
                            break
                        x = pool[self.rng.randrange(len(pool))]
                        fresh.discard(x)
                        before.remove(x)
                    after = before
            if best_v is None or v < best_v:
                best, best_v = assignment, v
        return best

    def _sample(self, det, state, signals):
        """A determinization as a state (see :meth:`_assignment`)."""
        if not signals:
            return det.sample(self.rng)
        best = self._assignment(det, state, signals)
        s = state.clone()
        _write(s, best)
        s.seed = self.rng.getrandbits(128)
        s._legal_cache = None
        return s

    def _default_scale(self, state) -> float:
        if getattr(state.rules, "knock", None) is not None if hasattr(state, "rules") else False:
            return 25.0
        spec = getattr(state.pack.spec, "game", None)
        target = getattr(spec, "target", None) or 100
        return max(1.0, abs(target) / 100.0)

    # ------------------------------------------------------------------ candidates
    def _candidates(self, state, legal, greedy) -> list:
        types = {a.type for a in legal}
        if types <= _DRAW_TYPES:  # a draw-phase choice: all of them, when few
            if len(legal) <= 6:
                return list(legal)
            return [greedy]
        discards = [a for a in legal if a.type == "discard"]
        if not discards:
            return [greedy]  # laying melds or laying off: the greedy policy decides
        out = [greedy]
        if "knock" in types:
            out += [a for a in legal if a.type == "knock" and a is not greedy]
        for a in self._ranked_discards(state, discards):
            if a not in out:
                out.append(a)
        return out

    def _ranked_discards(self, state, discards) -> list:
        """The discards worth searching, best first: in table packs by the least deadwood
        each leaves (at most ``window`` above the best), in the canasta family by the
        greedy bot's ranking."""
        rules = getattr(getattr(state, "rules", None), "melds", None)
        if rules is not None and hasattr(rules, "min_deadwood"):  # the table kernel
            p = state.current_player
            hand = sorted(state.kind_of[c] for c in state.hands[p])
            values = rules.values
            keyed = []
            for a in discards:
                rest = hand[:]
                rest.remove(a.cards[0])
                keyed.append((rules.min_deadwood(rest), -values[a.cards[0]], a))
            keyed.sort(key=lambda t: t[:2])
            low = keyed[0][0]
            return [a for d, _, a in keyed if d <= low + self.window]
        try:  # the canasta family: the greedy bot's own ranking
            from .bots import _Seen, _tables

            tables = _tables(state)
            seen = _Seen(state, tables)
            ranked = sorted(discards, key=lambda a: self._greedy._discard_key(a, tables, seen))
            return ranked[:self.top_k]
        except (KeyError, TypeError, ValueError, AttributeError):
            return list(discards[:self.top_k])

    def _policy(self, state) -> tuple:
        """The bot's own policy for ``state``'s pack, twice (the choice a candidate must
        beat, or the choice itself where the bot does not search; and every seat's play
        in a rollout): the greedy bot, with a wild card spent outside a wild-only book
        costing that book's value *plus*, where going out requires such a book, the
        greedy bot's bonus for a required book, shared among its cards (the greedy bot
        counts the value alone: at Pony Tail 500 a card where it counts 357)."""
        from .bots import GreedyBot, _tables, pack_of

        key = pack_of(state).digest
        bots = self._policies.get(key)
        if bots is None:
            cost = None
            try:
                tables = _tables(state)
            except (KeyError, TypeError, ValueError, AttributeError):
                tables = None
            if tables is not None and tables.wild_book:
                wild = [k for k in tables.book_kinds if k.wild_only]
                required = any(k.name in tables.required for k in wild)
                need = GreedyBot().need_bonus if required else 0
                cost = (max(k.value for k in wild) + need) / tables.book_size
            bots = self._policies[key] = (GreedyBot(seed=self.seed, wild_cost=cost),
                                          GreedyBot(seed=self.seed, wild_cost=cost))
        return bots

    # ------------------------------------------------------------------ rollouts
    def _score(self, d: float, scale: float) -> float:
        return d / scale + self.win_weight * ((d > 0) - (d < 0))

    def _rollout(self, s, team: int, root, scale: float) -> float:
        hand = len(root.hand_results)
        policy = getattr(type(s), "greedy_policy", None)
        if policy is not None and getattr(s.rules, "knock", None) is None:
            policy = None  # rummy: the greedy bot's memory of dead cards keeps hands ending
        bot = self._rollout_bot
        depth = 0
        while not s.is_over and len(s.hand_results) == hand and depth < self.rollout_depth:
            s.apply(policy(s) if policy is not None else bot.choose(s))
            depth += 1
        if len(s.hand_results) > hand:
            net = s.hand_results[hand].net
            mine = net[team]
            other = max(x for t, x in enumerate(net) if t != team)
            return self._score(mine - other, scale)
        scores = s.scores
        mine = scores[team] - root.scores[team]
        other = max(scores[t] - root.scores[t] for t in range(len(scores)) if t != team)
        return (mine - other) / scale


# ---------------------------------------------------------------------- fast gin rollouts
def _hand_mask(state, p: int) -> int:
    """Seat ``p``'s hand as a mask of card kinds (bit ``k`` for kind ``k``)."""
    ko = state.kind_of
    return sum(1 << ko[c] for c in state.hands[p])


class _Then:
    """A take and the discard planned after it (``then``), searched as one candidate; its
    string is the move :meth:`GinSim.play_move` plays (``take;discard 7H``)."""

    __slots__ = ("action", "hand", "then")

    def __init__(self, action, hand: int, then: str):
        self.action, self.hand, self.then = action, hand, then

    def __str__(self) -> str:
        return f"{self.action};{self.then}"


class GinRollout:
    """The greedy policy of :func:`meldkit.kernel.policy.greedy_table_choice` played out on
    plain lists of card kinds, for two-player knock gin with the default terms (OpenSpiel's
    gin: knock at 10 or less, gin bonus 25, undercut bonus 25, no big gin, lay-offs but not
    on gin, knocking at the wall with the upcard, a hand void when a player discards the
    card just taken twice in a row).  About ten times faster than playing the engine; a
    model of the hand's end (the knocker lays a best arrangement, the defender lays off
    every card that fits, then melds), not the referee."""

    @staticmethod
    def applies(state, phases=("draw", "discard", "wall")) -> bool:
        rules = getattr(state, "rules", None)
        if rules is None or getattr(rules, "knock", None) is None or state.n_players != 2:
            return False
        kn = rules.spec.knock
        melds = rules.melds
        kinds = getattr(melds, "kinds", ())
        if getattr(melds, "order", None) is not None or melds.wild_kinds:
            return False  # GinSim's masks are of natural cards in the natural order
        return (kn.max_deadwood == 10 and not kn.from_upcard and not kn.spade_upcard_doubles
                and not kn.before_draw  # (its players knock after drawing only)
                and kn.big_gin_bonus is None and not kn.lay_off_on_gin
                and rules.lay_off != "none"  # (its defender lays off)
                and sorted((k.name, k.max_size) for k in kinds) == [("run", 5), ("set", 4)]
                and rules.wall == 2 and rules.wall_knock and rules.discard_taken
                and state.phase in phases)

    def __init__(self, state):
        self.rules = state.rules.melds
        self.values = self.rules.values
        self.gin_bonus = state.rules.spec.knock.gin_bonus
        self.undercut_bonus = state.rules.spec.knock.undercut_bonus
        self.returned_limit = state.rules.returned_limit or 10**9

    def play(self, s) -> list[int]:
        """The net points of each player when the hand of state ``s`` ends."""
        ko = s.kind_of
        hands = [[ko[c] for c in h] for h in s.hands]
        stock = [ko[c] for c in s.stock]
        pile = [ko[c] for c in s.pile]
        return self.play_lists(hands, stock, pile, s.current_player, s.phase, s.taken,
                               s.returned_in_row)

    def play_lists(self, hands, stock, pile, p, phase, taken, returned) -> list[int]:
        """The greedy hand from a position given by lists of kinds (changed): each
        player's net points."""
        md = self.rules.min_deadwood
        for _ in range(200):
            hand = hands[p]
            if phase == "wall":
                top = pile[-1]
                if md(hand + [top], discard=True) <= 10:
                    hand.append(pile.pop())
                    return self._knock(hands, p)
                return [0, 0]
            if phase == "draw":
                top = pile[-1] if pile else None
                if top is not None and self._takes(hand, top):
                    hand.append(pile.pop())
                    taken = top
                else:
                    hand.append(stock.pop())
                    taken = None
            # discard (or knock)
            card, low = self._discard(hand)
            if low <= 10:
                return self._knock(hands, p, card)
            hand.remove(card)
            pile.append(card)
            returned = _returned(taken, card, returned)
            if returned >= self.returned_limit:
                return [0, 0]
            taken = None
            p = 1 - p
            phase = "wall" if len(stock) <= 2 else "draw"
        return [0, 0]

    def _takes(self, hand, top) -> bool:
        md = self.rules.min_deadwood
        with_top = hand + [top]
        if md(with_top, discard=True) >= md(hand):
            return False
        melds, _ = self.rules.best_arrangement(with_top)
        return any(top in m for m in melds)

    def _discard(self, hand) -> tuple[int, int]:
        """The greedy discard (least deadwood left, then the card that pairs with the
        fewest others, then the highest; the lowest kind of equals) and the deadwood left."""
        md = self.rules.min_deadwood
        low = None
        tied: list = []
        for card in sorted(hand):  # the engine lists discards by kind; ties go to the first
            rest = hand[:]
            rest.remove(card)
            d = md(rest)
            if low is None or d < low:
                low, tied = d, [(card, rest)]
            elif d == low:
                tied.append((card, rest))
        if len(tied) == 1:
            return tied[0][0], low
        values = self.values
        return min(tied, key=lambda cr: (_neighbours(cr[0], cr[1]), -values[cr[0]]))[0], low

    def _knock(self, hands, p, card=None) -> list[int]:
        hand = hands[p]
        if card is None:
            card = self._discard(hand)[0]
        hand.remove(card)
        melds, dead = self.rules.best_arrangement(hand)
        values = self.values
        kdw = sum(values[c] for c in dead)
        other = hands[1 - p]
        if kdw == 0:
            net = self.gin_bonus + self.rules.min_deadwood(other)
        else:
            ddw = self._defender_deadwood(other, melds)
            diff = ddw - kdw
            net = diff if diff >= 0 else diff - self.undercut_bonus
        return [net, -net] if p == 0 else [-net, net]

    def _defender_deadwood(self, hand, melds) -> int:
        return self.rules.min_deadwood(_laid_off(sorted(hand), melds))


def _returned(taken: int | None, card: int, returned: int) -> int:
    """How many upcards in a row have been taken and discarded straight back, after
    ``card`` is discarded by a player who took ``taken`` (None: drew from the stock).

    >>> _returned(7, 7, 1), _returned(7, 8, 1), _returned(None, 8, 1)
    (2, 0, 0)
    """
    return returned + 1 if card == taken else 0


def _laid_off(cards: list[int], melds) -> list[int]:
    """The defender's ``cards`` (kinds, ascending) left after laying off on the knocker's
    ``melds``: in passes from the lowest card, each card that adds to a set of fewer than
    four or to either end of a run is laid off, until a pass lays off none.

    >>> aces, run_5_to_7 = (0, 1, 2), (16, 20, 24)  # kind = rank * 4 + suit
    >>> _laid_off([3, 8, 12, 44], [aces, run_5_to_7])  # the fourth ace; 3 and 4 of the run's suit
    [44]
    """
    sets: dict[int, int] = {}
    runs = []
    for m in melds:
        r0 = m[0] // 4
        if all(c // 4 == r0 for c in m):
            sets[r0] = len(m)
        else:
            ranks = sorted(c // 4 for c in m)
            runs.append([m[0] % 4, ranks[0], ranks[-1]])
    changed = True
    while changed:
        changed = False
        kept = []
        for c in cards:
            r, su = divmod(c, 4)
            if sets.get(r, 4) < 4:
                sets[r] += 1
                changed = True
                continue
            for run in runs:
                if run[0] == su and (r == run[1] - 1 or r == run[2] + 1):
                    if r == run[1] - 1:
                        run[1] = r
                    else:
                        run[2] = r
                    changed = True
                    break
            else:
                kept.append(c)
        cards = kept
    return cards


def _melds_with(x: int, hand) -> int:
    """1 if card kind ``x`` makes a set or a run of three with cards of ``hand`` (kinds)."""
    rank, suit = divmod(x, 4)
    if sum(1 for t in range(4) if t != suit and rank * 4 + t in hand) >= 2:
        return 1

    def has(r):
        return 0 <= r <= 12 and r * 4 + suit in hand

    lo1, hi1 = has(rank - 1), has(rank + 1)
    if (lo1 and hi1) or (lo1 and has(rank - 2)) or (hi1 and has(rank + 2)):
        return 1
    return 0


# ---------------------------------------------------------------------- gin on bit masks
_INF = 10**9
_MEMO_LIMIT = 100_000


class GinSim:
    """Two-player knock gin (the terms :meth:`GinRollout.applies` accepts) on 52-bit masks
    of card kinds: the greedy policy of :func:`meldkit.kernel.policy.greedy_table_choice`
    for both seats, played out from a position, and the inference of the opponent's hand
    (:meth:`penalty`).  It plays the hands :class:`GinRollout` plays, about four times
    faster: a discard costs one deadwood search per card that lies in a meld (a card in
    no meld leaves the deadwood less its value), every search memoised by the meld rules."""

    def __init__(self, state):
        melds = state.rules.melds
        self.rules = melds
        self.values = melds.values
        self.top = melds._top                  # mask -> least deadwood
        self.topd = melds._top_discard         # mask -> least deadwood after one discard
        self.meldable = melds._meldable        # mask -> the cards that lie in some meld
        self._arr = melds._fast_arrangement
        kn = state.rules.spec.knock
        self.knock_limit = kn.max_deadwood
        self.gin_bonus = kn.gin_bonus
        self.undercut_bonus = kn.undercut_bonus
        self.returned_limit = state.rules.returned_limit or 10**9
        self.wall = state.rules.wall
        nb = []
        for c in range(52):
            r, s = divmod(c, 4)
            m = 0
            for o in range(52):
                if o == c:
                    continue
                r2, s2 = divmod(o, 4)
                if r2 == r or (s2 == s and abs(r2 - r) <= 2):
                    m |= 1 << o
            nb.append(m)
        self.nb = nb
        self.safe_seat = None  # the seat whose rollout discards avoid the opponent's takes
        self.safety = 0.0
        self._dmemo: dict = {}  # mask -> discard(mask)
        self._tmemo: dict = {}  # mask | (card + 1) << 52 -> takes(mask, card)

    # ---------------------------------------------------------------- the greedy policy
    def discard(self, h: int) -> tuple[int, int]:
        """The greedy discard from mask ``h`` and the least deadwood it leaves (memoised:
        the rollouts of one decision meet the same hands again and again)."""
        memo = self._dmemo
        r = memo.get(h)
        if r is None:
            r = self._discard(h)
            if len(memo) > _MEMO_LIMIT:
                memo.clear()
            memo[h] = r
        return r

    def _discard(self, h: int) -> tuple[int, int]:
        top = self.top
        vals = self.values
        mm = self.meldable(h)
        base = top(h)
        low = _INF
        tied: list[int] = []
        m = h
        while m:
            b = m & -m
            m ^= b
            c = b.bit_length() - 1
            d = top(h ^ b) if b & mm else base - vals[c]
            if d < low:
                low, tied = d, [c]
            elif d == low:
                tied.append(c)
        if len(tied) == 1:
            return tied[0], low
        nb = self.nb
        best = min(tied, key=lambda c: ((h & nb[c]).bit_count(), -vals[c]))
        return best, low

    def _leaves(self, h: int, allowed: int) -> list:
        """(the least deadwood left, card) for each discard from ``h`` among ``allowed``."""
        top = self.top
        vals = self.values
        mm = self.meldable(h)
        base = top(h)
        out = []
        m = allowed
        while m:
            b = m & -m
            m ^= b
            c = b.bit_length() - 1
            out.append((top(h ^ b) if b & mm else base - vals[c], c))
        return out

    def _least(self, h: int, keyed) -> int:
        """The card of the least cost in ``keyed`` ((cost, card) pairs); ties go to the
        card with the fewest neighbours in ``h``, then the highest value (greedy's)."""
        low = min(keyed)[0]
        tied = [c for d, c in keyed if d == low]
        if len(tied) == 1:
            return tied[0]
        nb, vals = self.nb, self.values
        return min(tied, key=lambda c: ((h & nb[c]).bit_count(), -vals[c]))

    def safe_discard(self, h: int, hd: int) -> int:
        """The discard from ``h`` that leaves the least deadwood plus ``safety`` if the
        greedy player holding ``hd`` would take it (ties: :meth:`discard`'s order)."""
        leaves = self._leaves(h, h)
        low = min(leaves)[0]
        safety = self.safety
        takes = self.takes
        return self._least(h, [(d + safety * takes(hd, c), c) for d, c in leaves
                               if d <= low + safety])

    def discard_from(self, h: int, allowed: int) -> int:
        """The greedy discard from mask ``h`` among the cards of ``allowed``."""
        return self._least(h, self._leaves(h, allowed))

    def takes(self, h: int, t: int) -> bool:
        """Whether the greedy player holding ``h`` takes the upcard ``t``: it lowers the
        least deadwood and lies in a meld of the best arrangement (memoised)."""
        key = h | (t + 1) << 52
        memo = self._tmemo
        r = memo.get(key)
        if r is None:
            r = self._takes(h, t)
            if len(memo) > _MEMO_LIMIT:
                memo.clear()
            memo[key] = r
        return r

    def _takes(self, h: int, t: int) -> bool:
        b = 1 << t
        ht = h | b
        if self.topd(ht) >= self.top(h) or not self.meldable(ht) & b:
            return False
        melds: list = []
        self._arr(ht, melds)
        return any(t in m for m in melds)

    def knock_net(self, hk: int, hd: int) -> int:
        """The knocker's net points: it lays a best arrangement of ``hk`` (its ten cards
        after the discard), the defender ``hd`` lays off every card that fits, then melds."""
        melds: list = []
        dead = self._arr(hk, melds)
        vals = self.values
        kdw = sum(vals[c] for c in dead)
        if kdw == 0:
            return self.gin_bonus + self.top(hd)
        ddw = self._defender_deadwood(hd, melds)
        diff = ddw - kdw
        return diff if diff >= 0 else diff - self.undercut_bonus

    def _defender_deadwood(self, hd: int, melds) -> int:
        cards = []
        m = hd
        while m:
            b = m & -m
            m ^= b
            cards.append(b.bit_length() - 1)
        left = _laid_off(cards, melds)
        if len(left) == len(cards):
            return self.top(hd)
        return self.top(sum(1 << c for c in left))

    def play(self, hands: list, stock: list, pile: list, p: int, phase: str,
             taken, returned: int) -> int:
        """The greedy hand from a position (``hands``: two masks; ``stock``, ``pile``:
        lists of kinds, the top last; all changed): player 0's net points."""
        topd = self.topd
        limit = self.knock_limit
        wall = self.wall
        for _ in range(200):
            h = hands[p]
            if phase == "wall":
                t = pile[-1]
                if topd(h | 1 << t) <= limit:
                    pile.pop()
                    hands[p] = h | 1 << t
                    return self._knock(hands, p)
                return 0
            if phase == "draw":
                t = pile[-1] if pile else None
                if t is not None and self.takes(h, t):
                    pile.pop()
                    h |= 1 << t
                    taken = t
                else:
                    h |= 1 << stock.pop()
                    taken = None
                hands[p] = h
            if topd(h) <= limit:
                return self._knock(hands, p)
            if p == self.safe_seat:
                card = self.safe_discard(h, hands[1 - p])
            else:
                card, _ = self.discard(h)
            hands[p] = h ^ 1 << card
            pile.append(card)
            returned = _returned(taken, card, returned)
            if returned >= self.returned_limit:
                return 0
            taken = None
            p = 1 - p
            phase = "wall" if len(stock) <= wall else "draw"
        return 0

    def _knock(self, hands, p: int, card: int | None = None) -> int:
        h = hands[p]
        if card is None:
            card = self.discard(h)[0]
        net = self.knock_net(h ^ 1 << card, hands[1 - p])
        return net if p == 0 else -net

    def play_move(self, hands, stock, pile, p: int, phase: str, taken, returned: int,
                  move: str) -> int:
        """Play ``move`` (``take``, ``draw``, ``pass``, ``knock``, ``discard <card>``, or a
        take and the discard after it, ``take;discard <card>``) for player ``p``, then the
        hand on greedily: player 0's net points."""
        h = hands[p]
        if phase == "wall":
            if move == "pass":
                return 0
            hands[p] = h | 1 << pile.pop()
            return self._knock(hands, p)
        if phase == "draw":
            if move.startswith("take"):
                taken = pile.pop()
                hands[p] = h | 1 << taken
                if move != "take":  # take;discard X: the planned discard
                    return self.play_move(hands, stock, pile, p, "discard", taken, returned,
                                          move[5:])
            else:
                hands[p] = h | 1 << stock.pop()
                taken = None
            return self.play(hands, stock, pile, p, "discard", taken, returned)
        if move == "knock":
            return self._knock(hands, p)
        card = kind_of_code(move.split()[1])
        hands[p] = h ^ 1 << card
        pile.append(card)
        returned = _returned(taken, card, returned)
        if returned >= self.returned_limit:
            return 0
        phase = "wall" if len(stock) <= self.wall else "draw"
        return self.play(hands, stock, pile, 1 - p, phase, None, returned)

    def play_first_upcard(self, hands, stock, pile, p: int, passes: int, move: str) -> int:
        """The first upcard's choice (``take``, ``take;discard <card>`` or ``pass``;
        ``passes``: how many players passed it before), then the hand on greedily: player
        0's net points."""
        if move.startswith("take"):
            t = pile.pop()
            hands[p] |= 1 << t
            if move != "take":  # take;discard X: the planned discard
                return self.play_move(hands, stock, pile, p, "discard", t, 0, move[5:])
            return self.play(hands, stock, pile, p, "discard", t, 0)
        q = 1 - p
        if passes == 0:  # the other player may take it; if not, this one draws
            t = pile[-1]
            if self.takes(hands[q], t):
                pile.pop()
                hands[q] |= 1 << t
                return self.play(hands, stock, pile, q, "discard", t, 0)
            hands[p] |= 1 << stock.pop()
            return self.play(hands, stock, pile, p, "discard", None, 0)
        hands[q] |= 1 << stock.pop()  # both passed: the first player draws
        return self.play(hands, stock, pile, q, "discard", None, 0)

    # ---------------------------------------------------------------- inference
    def penalty(self, hand: int, obs: list, early: list, rng, w: tuple) -> float:
        """How unlikely the opponent's hand ``hand`` (a mask) makes what it did this hand
        (``obs``, oldest first: ``("pass", upcard)`` or ``("turn", upcard, took, discard)``)
        for a greedy player: its hands of each turn rebuilt backwards (the hand now, plus
        each discard, less each card drawn — the upcard taken, or for a stock draw one of
        the cards it may have drawn then, picked at random, ``early[i]`` being the
        upcards taken before turn ``i``), each turn weighs ``w`` = (a knock it did not
        make, a discard that did not leave the least deadwood, an upcard taken that did
        not meld, an upcard passed that the greedy player would have taken)."""
        w_knock, w_disc, w_take, w_pass = w
        top, topd, takes = self.top, self.topd, self.takes
        limit = self.knock_limit
        cur = hand
        pen = 0.0
        for i in range(len(obs) - 1, -1, -1):
            o = obs[i]
            if o[0] == "pass":
                if takes(cur, o[1]):
                    pen += w_pass
                continue
            _, u, took, d = o
            b11 = cur | 1 << d
            md1 = topd(b11)
            if md1 <= limit:
                pen += w_knock
            if top(cur) > md1:
                pen += w_disc
            if took:
                bu = 1 << u
                if not b11 & bu:
                    return pen + 100.0
                cur = b11 ^ bu
                if not takes(cur, u):
                    pen += w_take
                continue
            elig = b11 & ~early[i]
            cards = []
            while elig:
                b = elig & -elig
                elig ^= b
                cards.append(b)
            if not cards:
                return pen + 100.0
            x = cards[rng.randrange(len(cards))]
            if u is not None and takes(b11 ^ x, u):
                for _ in range(2):  # another card it may have drawn
                    y = cards[rng.randrange(len(cards))]
                    if not takes(b11 ^ y, u):
                        x = y
                        break
                else:
                    pen += w_pass
            cur = b11 ^ x
        return pen
