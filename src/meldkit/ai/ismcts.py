"""Information-set Monte Carlo tree search (single-observer ISMCTS, Cowling, Powley and
Whitehouse 2012) over meldkit's determinizations.

Each iteration samples a state consistent with what the searching player has seen
(:class:`~meldkit.ai.Determinizer`, built once per decision), walks one tree shared by all
determinizations — choosing among the children legal in this determinization by UCB with
availability counts — expands one untried action, plays a rollout with a configurable
policy (default: random, melding first) for at most ``rollout_depth`` actions or to the end
of the hand, and backs up each seat's reward: the game's returns if it ended, otherwise
the change of the team scores since the root squashed into (-1, 1) by ``score_scale``
(plus an optional ``evaluate(state, player)`` for unfinished positions).

>>> import meldkit
>>> from meldkit.bots import ISMCTSBot
>>> g = meldkit.new_game("gin_rummy", players=2, seed=4)
>>> bot = ISMCTSBot(iterations=20, seed=1)
>>> bot.choose(g) in g.legal_actions()
True
"""

from __future__ import annotations

import math
import random
import time

from .._checks import check
from .._errors import SetupError
from .resample import Determinizer

__all__ = ["ISMCTSBot"]


class _Node:
    __slots__ = ("avail", "children", "player", "total", "visits")

    def __init__(self, player):
        self.children: dict = {}
        self.visits = 0
        self.avail = 0
        self.total = 0.0  # reward to the player who chose the edge into this node
        self.player = player


class ISMCTSBot:
    """A bot that searches ``iterations`` determinized playouts per decision (or for
    ``time_limit`` seconds).  ``rollout`` is a bot-like object (``choose(state)``) or
    None for random melding-first play; ``evaluate(state, player) -> float in [-1, 1]``
    scores positions a rollout leaves unfinished (default: score change since the root,
    scaled by ``score_scale``, 0 meaning the pack's target / 4)."""

    name = "ismcts"

    def __init__(self, seed: int | None = None, iterations: int = 50,
                 time_limit: float | None = None, c: float = 0.7, rollout=None,
                 rollout_depth: int = 40, evaluate=None, score_scale: float = 0.0):
        check("ISMCTSBot", "iterations", iterations, "int", least=1)
        check("ISMCTSBot", "time_limit", time_limit, "float", above=0, optional=True)
        check("ISMCTSBot", "c", c, "float", least=0)
        check("ISMCTSBot", "rollout_depth", rollout_depth, "int", least=0)
        check("ISMCTSBot", "score_scale", score_scale, "float", least=0)
        if rollout is not None and not callable(getattr(rollout, "choose", None)):
            raise SetupError(f"ISMCTSBot: rollout must be a bot (with choose(state)) or "
                             f"None, not {rollout!r}")
        if evaluate is not None and not callable(evaluate):
            raise SetupError(f"ISMCTSBot: evaluate must be a function (state, player) -> "
                             f"float, or None, not {evaluate!r}")
        self.rng = random.Random(seed)
        self.iterations = iterations
        self.time_limit = time_limit
        self.c = c
        self.rollout = rollout
        self.rollout_depth = rollout_depth
        self.evaluate = evaluate
        self.score_scale = score_scale
        self.last_iterations = 0
        self.last_seconds = 0.0

    # ------------------------------------------------------------------ the decision
    def choose(self, state):
        """The most visited root action after the search."""
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        me = state.current_player
        det = Determinizer(state, me)
        root = _Node(None)
        root_scores = list(state.scores)
        scale = self.score_scale or self._default_scale(state)
        t0 = time.perf_counter()
        n = 0
        while True:
            if self.time_limit is not None:
                if time.perf_counter() - t0 >= self.time_limit and n > 0:
                    break
            elif n >= self.iterations:
                break
            self._iterate(det.sample(self.rng), root, root_scores, scale)
            n += 1
        self.last_iterations, self.last_seconds = n, time.perf_counter() - t0
        best = max(root.children.items(), key=lambda kv: (kv[1].visits, kv[1].total))
        key = best[0]
        for a in legal:
            if tuple.__new__(tuple, a) == key:
                return a
        return legal[0]

    def _default_scale(self, state) -> float:
        spec = getattr(state.pack.spec, "game", None)
        target = getattr(spec, "target", None) or 100
        return max(1.0, abs(target) / 4.0)

    # ------------------------------------------------------------------ one iteration
    def _iterate(self, s, root: _Node, root_scores, scale: float) -> None:
        path = [root]
        node = root
        rng = self.rng
        hand = s.hand_number
        # selection and expansion
        while not s.is_over and s.hand_number == hand:
            legal = s.legal_actions()
            keys = [tuple.__new__(tuple, a) for a in legal]
            untried = [i for i, k in enumerate(keys) if k not in node.children]
            for k in keys:
                child = node.children.get(k)
                if child is not None:
                    child.avail += 1
            mover = s.current_player
            if untried:
                i = rng.choice(untried)
                child = node.children[keys[i]] = _Node(mover)
                child.avail = 1
                s.apply(legal[i])
                path.append(child)
                break
            log_c = self.c
            best, best_u = None, -math.inf
            for a, k in zip(legal, keys):
                ch = node.children[k]
                u = ch.total / ch.visits + log_c * math.sqrt(math.log(ch.avail) / ch.visits)
                if u > best_u:
                    best, best_u = (a, ch), u
            a, node = best
            s.apply(a)
            path.append(node)
        # rollout
        depth = 0
        policy = self.rollout
        while not s.is_over and s.hand_number == hand and depth < self.rollout_depth:
            legal = s.legal_actions()
            if policy is not None:
                a = policy.choose(s)
            else:
                melding = [x for x in legal if x.type in ("meld", "add", "remove", "steal")]
                a = rng.choice(melding or legal)
            s.apply(a)
            depth += 1
        rewards = self._rewards(s, root_scores, scale)
        for nd in path[1:]:
            nd.visits += 1
            nd.total += rewards[nd.player]
        root.visits += 1

    def _rewards(self, s, root_scores, scale: float) -> list[float]:
        n = s.n_players
        if s.is_over:
            return s.player_returns()
        if self.evaluate is not None:
            return [self.evaluate(s, p) for p in range(n)]
        position = position_values(s)
        gains = [s.scores[t] - root_scores[t] + position[t] for t in range(s.n_teams)]
        out = []
        lowest = getattr(getattr(s, "rules", None), "spec", None)
        sign = -1.0 if getattr(getattr(lowest, "game", None), "winner", "") == "lowest" else 1.0
        for p in range(n):
            t = s.team_of[p]
            others = [gains[u] for u in range(s.n_teams) if u != t]
            diff = gains[t] - (max(others) if others else 0)
            out.append(math.tanh(sign * diff / scale))
        return out


def position_values(s) -> list[float]:
    """Each team's material on the table, for positions a rollout leaves in mid-hand (in
    score points): the canasta kernel counts melded card values and books (at the pack's
    smallest book bonus) less the values left in hand; table melds count the deadwood
    others hold less one's own; Houses counts groups (``meldkit.ai.houses_policy``)."""
    nt = s.n_teams
    out = [0.0] * nt
    if s.is_over:
        return out
    if hasattr(s, "removed"):  # Houses
        from .houses_policy import team_value

        return [team_value(s, t) for t in range(nt)]
    if hasattr(s, "knock_value"):  # table melds: less deadwood is better
        mr, kinds = s.rules.melds, s._kinds
        dead = [mr.min_deadwood(kinds(h)) for h in s.hands]
        for p, d in enumerate(dead):
            out[s.team_of[p]] -= d
        return out
    rules = getattr(s, "rules", None)
    value = getattr(rules, "value_of_kind", None)
    if value is None:
        return out
    book = _book_bonus(rules)
    kind_of = s.kind_of
    for t in range(nt):
        for m in s.melds[t]:
            out[t] += sum(value[kind_of[c]] for c in m.cards)
            if len(m.cards) >= rules.book_size:
                out[t] += book
    for p in range(s.n_players):
        out[s.team_of[p]] -= sum(value[kind_of[c]] for cards in s.hands[p] for c in cards)
    return out


def _book_bonus(rules) -> float:
    values = [k.value for k in getattr(rules, "book_kinds", ())
              if isinstance(getattr(k, "value", None), (int, float)) and k.value > 0]
    return float(min(values)) if values else 100.0
