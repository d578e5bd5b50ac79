"""Perfect-information Monte Carlo search with greedy rollouts (``--bots pimc``).

At each decision with a choice the bot keeps a few **candidate** actions — the greedy
bot's own choice and the alternatives that matter (every draw-phase choice: take the
upcard or the stock, knock or pass at the wall; in a discard phase knocking and the
``top_k`` discards that leave the least deadwood; in a canasta-family play phase the
greedy choice and the ``top_k`` discards the greedy bot ranks best) — and, until its time
(``time_limit`` seconds) or ``max_samples`` determinizations are spent:

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
(laying melds after a knock, laying off) the bot plays greedy without searching.

>>> import meldkit
>>> from meldkit.pimc import PIMCBot
>>> g = meldkit.new_game("gin_rummy", players=2, seed=4)
>>> bot = PIMCBot(seed=1, max_samples=4)
>>> bot.choose(g) in g.legal_actions()
True
"""

from __future__ import annotations

import math
import random
import time

from .ai.resample import Determinizer, _write

__all__ = ["PIMCBot"]

_DRAW_TYPES = frozenset({"draw", "take", "pass", "pickup", "end", "knock"})


class PIMCBot:
    """Determinized search over a few candidate actions with greedy rollouts.

    ``time_limit``: seconds per decision (the search stops at the first determinization
    that would start after it; one determinization costs a rollout per candidate);
    ``max_samples``: determinizations per decision at most; ``top_k``: discards searched;
    ``scale``: points per unit of score (default 25 at gin, the pack's target / 100
    elsewhere); ``win_weight``: the score of a hand won outright; ``margin``: how much
    better than the greedy choice another candidate must be; ``rollout_depth``: actions a
    rollout plays at most before it is scored as it stands; ``confidence``: the greedy
    choice gives way only to a candidate whose mean paired gain exceeds ``margin`` plus
    this many standard errors; ``fast``: at two-player knock gin, rollouts on lists of
    kinds (:class:`GinRollout`); ``infer``, ``depth_back``, ``strength``: at gin, each
    determinization is the least unlikely of ``infer`` deals (fewest cards the opponent
    let go that meld with its sampled hand, fewest of its last ``depth_back`` discards
    that were not least-deadwood ones, plus ``strength`` times its deadwood; 1: uniform).
    Time is the process's CPU time (``time.process_time``), so a shared machine does not
    shorten the search.

    Strength (``benchmarks/strength.py``, 400 gin hands each, refereed by OpenSpiel):
    0.509 [0.460, 0.557] against greedy and 0.504 [0.455, 0.552] against OpenSpiel's simple
    bot at 0.043 s per decision — level with both, not the issue's 0.60.
    """

    name = "pimc"

    def __init__(self, seed: int | None = None, time_limit: float = 0.05,
                 max_samples: int = 64, top_k: int = 3, scale: float | None = None,
                 win_weight: float = 1.0, margin: float = 0.0, confidence: float = 1.0,
                 rollout_depth: int = 400, fast: bool = True, infer: int = 8,
                 depth_back: int = 4, strength: float = 0.1):
        from .bots import GreedyBot

        self.rng = random.Random(seed)
        self.time_limit = time_limit
        self.max_samples = max_samples
        self.top_k = top_k
        self.scale = scale
        self.win_weight = win_weight
        self.margin = margin
        self.confidence = confidence
        self.fast = fast
        self.infer = infer
        self.depth_back = depth_back
        self.strength = strength
        self.rollout_depth = rollout_depth
        self._greedy = GreedyBot(seed=seed)
        self._rollout_bot = GreedyBot(seed=seed)
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
        greedy = self._greedy.choose(state)
        cands = self._candidates(state, legal, greedy)
        self.last_samples, self.last_values = 0, {}
        if len(cands) == 1:
            return cands[0]
        me = state.current_player
        team = state.team_of[me]
        scale = self.scale or self._default_scale(state)
        det = Determinizer(state, me)
        signals = self._signals(state, me) if self.infer > 1 else None
        k = len(cands)
        values: list[list[float]] = [[] for _ in cands]
        n = 0
        deadline = t0 + self.time_limit
        per = 0.0
        sim = None
        if self.fast and GinRollout.applies(state):
            sim = GinRollout(state)
            moves = [str(a) for a in cands]
        while n < self.max_samples:
            if n and time.process_time() + per > deadline:
                break
            if sim is not None:  # gin: the sample and the rollouts on lists of kinds
                lists = self._sample_lists(det, state, signals)
                for i, mv in enumerate(moves):
                    hands, stock, pile = lists
                    net = sim.play_move([h[:] for h in hands], stock[:], pile[:], me,
                                        state.phase, state.taken, state.returned_in_row, mv)
                    values[i].append(self._score(net[me] - net[1 - me], scale))
                n += 1
                per = (time.process_time() - t0) / n
                continue
            base = self._sample(det, state, signals)
            for i, a in enumerate(cands):
                s = base.clone() if i < k - 1 else base
                s.apply(a)
                values[i].append(self._rollout(s, team, state, scale))
            n += 1
            per = (time.process_time() - t0) / n  # a determinization's cost so far
        gi = cands.index(greedy)
        best, best_gain = gi, 0.0
        for i in range(k):
            if i == gi:
                continue
            d = [x - y for x, y in zip(values[i], values[gi])]
            mean = sum(d) / n
            var = sum((x - mean) ** 2 for x in d) / max(1, n - 1)
            se = math.sqrt(var / n)
            if mean > self.margin + self.confidence * se and mean > best_gain:
                best, best_gain = i, mean
        self.last_samples = n
        self.last_seconds = time.process_time() - t0
        self.last_values = {str(a): sum(v) / n for a, v in zip(cands, values)}
        return cands[best]

    # ------------------------------------------------------------------ inference
    def _signals(self, state, me):
        """For a two-player knock game (gin): the cards each opponent let go this hand —
        the upcards it declined and the cards it discarded — as kinds, or None.  A greedy
        player keeps the cards that meld with its hand, so a sample in which such a card
        melds with the opponent's hand is unlikely."""
        rules = getattr(state, "rules", None)
        if rules is None or getattr(rules, "knock", None) is None:
            return None
        from ._cards import kind_of_code

        out: dict[int, list[int]] = {q: [] for q in range(state.n_players) if q != me}
        turns: dict[int, list] = {q: [] for q in out}  # (kind taken or None, kind discarded)
        drawn: dict[int, int | None] = {}
        pile: list[int] = []
        events = state.public_history()
        start = max((i for i, e in enumerate(events) if e.kind == "deal"), default=0)
        for e in events[start:]:
            text = e.public
            if e.kind == "deal":
                up = text.rpartition("upcard ")[2].strip() if "upcard " in text else ""
                pile = [kind_of_code(up)] if up else []
                continue
            verb = text.split(" ", 1)[0]
            if verb == "discard":
                pile.append(kind_of_code(text.split()[1]))
                if e.player in out:
                    out[e.player].append(pile[-1])
                    turns[e.player].append((drawn.pop(e.player, None), pile[-1]))
            elif verb == "take":
                if pile:
                    top = pile.pop()
                    drawn[e.player] = top
            elif verb in ("draw", "pass") and pile and e.player in out:
                out[e.player].append(pile[-1])
                if verb == "draw":
                    drawn[e.player] = None
        if not any(out.values()):
            return None
        return {q: (out[q], turns[q][-self.depth_back:]) for q in out}

    def _sample_lists(self, det, state, signals):
        """A gin determinization as lists of kinds: (hands, stock, pile)."""
        assignment = self._assignment(det, state, signals)
        ko = state.kind_of
        hands = [[ko[c] for c in h] for h in state.hands]
        stock = [ko[c] for c in state.stock]
        pile = [ko[c] for c in state.pile]
        zones = {"stock": stock, "pile": pile}
        for (z, i), c in assignment.items():
            if z.startswith("hand:"):
                hands[int(z[5:])][i] = ko[c]
            else:
                zones[z][i] = ko[c]
        return hands, stock, pile

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
        for a in self._ranked_discards(state, discards)[: self.top_k]:
            if a not in out:
                out.append(a)
        return out

    def _ranked_discards(self, state, discards) -> list:
        rules = getattr(getattr(state, "rules", None), "melds", None)
        if rules is not None and hasattr(rules, "min_deadwood"):  # the table kernel
            p = state.current_player
            hand = sorted(state.kind_of[c] for c in state.hands[p])
            values = rules.values

            def after(a):
                rest = hand[:]
                rest.remove(a.cards[0])
                return rules.min_deadwood(rest), -values[a.cards[0]]

            return sorted(discards, key=after)
        try:  # the canasta family: the greedy bot's own ranking
            from .bots import _Seen, _tables

            tables = _tables(state)
            seen = _Seen(state, tables)
            return sorted(discards, key=lambda a: self._greedy._discard_key(a, tables, seen))
        except (KeyError, TypeError, ValueError, AttributeError):
            return list(discards)

    # ------------------------------------------------------------------ rollouts
    def _score(self, d: float, scale: float) -> float:
        return d / scale + self.win_weight * ((d > 0) - (d < 0))

    def _rollout(self, s, team: int, root, scale: float) -> float:
        hand = len(root.hand_results)
        policy = getattr(type(s), "greedy_policy", None)
        if policy is not None and getattr(s.rules, "knock", None) is None:
            policy = None  # rummy: the greedy bot's memory of dead cards keeps hands ending
        bot = self._rollout_bot
        fast = self.fast and policy is not None
        depth = 0
        while not s.is_over and len(s.hand_results) == hand and depth < self.rollout_depth:
            if fast and GinRollout.applies(s):
                net = GinRollout(s).play(s)
                return self._score(net[team] - net[1 - team], scale)
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
class GinRollout:
    """The greedy policy of :func:`meldkit.kernel.policy.greedy_table_choice` played out on
    plain lists of card kinds, for two-player knock gin with the default terms (OpenSpiel's
    gin: knock at 10 or less, gin bonus 25, undercut bonus 25, no big gin, lay-offs but not
    on gin, knocking at the wall with the upcard, a hand void when a player discards the
    card just taken twice in a row).  About ten times faster than playing the engine; a
    model of the hand's end (the knocker lays a best arrangement, the defender lays off
    every card that fits, then melds), not the referee."""

    @staticmethod
    def applies(state) -> bool:
        rules = getattr(state, "rules", None)
        if rules is None or getattr(rules, "knock", None) is None or state.n_players != 2:
            return False
        kn = rules.spec.knock
        melds = rules.melds
        kinds = getattr(melds, "kinds", ())
        return (kn.max_deadwood == 10 and not kn.from_upcard and not kn.spade_upcard_doubles
                and kn.big_gin_bonus is None and not kn.lay_off_on_gin
                and sorted((k.name, k.max_size) for k in kinds) == [("run", 5), ("set", 4)]
                and rules.wall == 2 and rules.wall_knock and rules.discard_taken
                and state.phase in ("draw", "discard", "wall"))

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

    def play_move(self, hands, stock, pile, p, phase, taken, returned, move: str):
        """Play ``move`` (an action's notation: ``take``, ``draw``, ``pass`` at the wall,
        ``knock``, ``discard <card>``) in the position given by lists of kinds (changed),
        then the hand on greedily; the net points of each player."""
        from ._cards import kind_of_code

        hand = hands[p]
        if phase == "wall":
            if move == "pass":
                return [0, 0]
            hand.append(pile.pop())
            return self._knock(hands, p)
        if phase == "draw":
            if move == "take":
                taken = pile[-1]
                hand.append(pile.pop())
            else:
                hand.append(stock.pop())
                taken = None
            return self.play_lists(hands, stock, pile, p, "discard", taken, returned)
        if move == "knock":
            return self._knock(hands, p)
        card = kind_of_code(move.split()[1])
        hand.remove(card)
        pile.append(card)
        if taken is not None and taken == card:
            returned += 1
            if returned >= self.returned_limit:
                return [0, 0]
        else:
            returned = 0
        phase = "wall" if len(stock) <= 2 else "draw"
        return self.play_lists(hands, stock, pile, 1 - p, phase, None, returned)

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
            if taken is not None and taken == card:
                returned += 1
                if returned >= self.returned_limit:
                    return [0, 0]
            else:
                returned = 0
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
        sets = {}
        runs = []
        for m in melds:
            r0 = m[0] // 4
            if all(c // 4 == r0 for c in m):
                sets[r0] = len(m)
            else:
                ranks = sorted(c // 4 for c in m)
                runs.append([m[0] % 4, ranks[0], ranks[-1]])
        hand = list(hand)
        changed = True
        while changed:
            changed = False
            for c in sorted(hand):
                r, su = divmod(c, 4)
                fits = sets.get(r, 4) < 4
                if not fits:
                    for run in runs:
                        if run[0] == su and (r == run[1] - 1 or r == run[2] + 1):
                            if r == run[1] - 1:
                                run[1] = r
                            else:
                                run[2] = r
                            fits = True
                            break
                else:
                    sets[r] += 1
                if fits:
                    hand.remove(c)
                    changed = True
        return self.rules.min_deadwood(hand)


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


def _neighbours(card: int, others) -> int:
    rank, suit = divmod(card, 4)
    n = 0
    for c in others:
        r, s = divmod(c, 4)
        if r == rank or (s == suit and abs(r - rank) <= 2):
            n += 1
    return n
