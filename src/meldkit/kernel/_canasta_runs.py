"""Suited sequences in the canasta kernel (``melds.sequences``, Samba): laying down a
sequence, extending one, and taking the discard pile onto one — what is legal and what it
does.

A side may hold any number of sequences, each a :class:`Run` in its list of melds (slot
``SEQ``) beside its rank melds.  A sequence holds consecutive ranks of
``melds.sequences.ranks`` in one suit and no wild card; at ``max_size`` cards it takes no
more, and at ``books.size`` it is a book of the kind marked ``sequence: true``.

A mixin of :class:`meldkit.RummyState` (``meldkit._state``), which ties the phases together."""

from __future__ import annotations

from .._actions import (
    EXTEND,
    RUN,
    SEQ_TARGET_BASE,
    TAKE,
    Action,
    Reason,
    seq_target,
    seq_target_parts,
)
from .._cards import RANKS, SUITS, card_code
from .._rules import SEQ
from ._canasta_common import PLAY_PHASE, Meld, _r

_MEMO_LIMIT = 50_000
"""Most entries kept in ``rules.run_actions`` before it starts again."""


class Run(Meld):
    """A side's suited sequence: ``cards`` lowest first, from position ``lo`` to ``hi`` of
    ``melds.sequences.ranks``, all of ``suit``."""

    __slots__ = ("suit", "lo", "hi")

    def __init__(self, suit: int, lo: int, hi: int, cards: list[int], pending: bool):
        super().__init__(SEQ, cards, len(cards), 0, pending)
        self.suit = suit
        self.lo = lo
        self.hi = hi

    @property
    def target(self) -> int:
        """The action target that names this sequence."""
        return seq_target(self.suit, self.lo, self.hi)

    def copy(self) -> Run:
        m = super().copy()
        m.suit = self.suit
        m.lo = self.lo
        m.hi = self.hi
        return m


def span_text(seq_ranks: tuple[int, ...], suit: int, lo: int, hi: int) -> str:
    """A sequence's name in notation (``4H-6H``)."""
    return f"{RANKS[seq_ranks[lo]]}{SUITS[suit]}-{RANKS[seq_ranks[hi]]}{SUITS[suit]}"


class SequencePlay:
    """Suited sequences of the canasta kernel."""

    __slots__ = ()

    # ------------------------------------------------------------------ legal actions
    def _held_kinds(self, p: int) -> dict[int, int]:
        """How many cards of each kind of a sequence rank p holds."""
        kind_of = self.kind_of
        hand = self.hands[p]
        held: dict[int, int] = {}
        for r in self.rules.seq_ranks:
            for c in hand[r]:
                k = kind_of[c]
                held[k] = held.get(k, 0) + 1
        return held

    def _run_actions(self, p: int, filtered: bool) -> list[Action]:
        """New sequences and extensions p can lay down (``filtered``: only the legal ones).

        Built per suit from a bit mask of the places held, memoised in the compiled rules
        (``rules.run_actions``): a pure function of the suit, the mask and the sequence."""
        rules = self.rules
        pos = rules.seq_pos
        kind_of = self.kind_of
        hand = self.hands[p]
        masks = [0, 0, 0, 0]
        for r in rules.seq_ranks:
            cards = hand[r]
            if cards:
                bit = 1 << pos[r]
                for c in cards:
                    masks[kind_of[c] & 3] |= bit
        memo = rules.run_actions
        if len(memo) > _MEMO_LIMIT:  # bounded: a long-lived server meets many hands
            memo.clear()
        out: list[Action] = []
        for s in range(4):
            if masks[s]:
                key = (s, masks[s], -1, -1)
                acts = memo.get(key)
                if acts is None:
                    acts = memo[key] = self._new_runs(s, masks[s])
                out.extend(acts)
        seen = set()
        for m in self.melds[self.side_of[p]]:
            if m.slot != SEQ or m.closed or (m.pending and not self.pending):
                continue
            key = (m.suit, masks[m.suit], m.lo, m.hi)
            if key in seen:
                continue
            seen.add(key)
            acts = memo.get(key)
            if acts is None:
                acts = memo[key] = self._extensions(*key)
            out.extend(acts)
        if filtered:
            size = self.hand_size[p]
            check = self._check
            out = [a for a in out if size - len(a.cards) >= 2 or check(a) is None]
        return out

    def _new_runs(self, suit: int, mask: int) -> tuple[Action, ...]:
        """Every new sequence of ``suit`` a hand holding the places in ``mask`` can lay."""
        rules = self.rules
        ranks, n = rules.seq_ranks, len(rules.seq_ranks)
        get = self.actions.get
        out = []
        for lo in range(n):
            hi = lo
            while hi < n and mask >> hi & 1 and hi - lo < rules.seq_max:
                if hi - lo + 1 >= rules.seq_min:
                    out.append(get(RUN, tuple(ranks[i] * 4 + suit for i in range(lo, hi + 1))))
                hi += 1
        return tuple(out)

    def _extensions(self, suit: int, mask: int, lo: int, hi: int) -> tuple[Action, ...]:
        """Every extension of the sequence ``lo``..``hi`` of ``suit`` by places in ``mask``."""
        rules = self.rules
        ranks, n = rules.seq_ranks, len(rules.seq_ranks)
        get = self.actions.get
        room = rules.seq_max - (hi - lo + 1)
        below = 0
        while lo - below - 1 >= 0 and mask >> (lo - below - 1) & 1:
            below += 1
        above = 0
        while hi + above + 1 < n and mask >> (hi + above + 1) & 1:
            above += 1
        target = seq_target(suit, lo, hi)
        out = []
        for a in range(below + 1):
            for b in range(above + 1):
                if 0 < a + b <= room:
                    places = [*range(lo - a, lo), *range(hi + 1, hi + 1 + b)]
                    out.append(get(EXTEND, tuple(ranks[i] * 4 + suit for i in places), target))
        return tuple(out)

    def _take_onto_run_candidates(self, p: int) -> list[Action]:
        """``take to <sequence>`` for every sequence of p's side the pile's top card extends."""
        rules = self.rules
        k = self.kind_of[self.pile[-1]]
        if k >= 52 or rules.seq_pos[k // 4] < 0:
            return []
        pos, suit = rules.seq_pos[k // 4], k % 4
        out = []
        for m in self.melds[self.side_of[p]]:
            if m.slot == SEQ and not m.closed and m.suit == suit and pos in (m.lo - 1, m.hi + 1):
                a = self.actions.get(TAKE, (), m.target)
                if a not in out:
                    out.append(a)
        return out

    # ------------------------------------------------------------------ legality
    def _find_run(self, t: int, target: int) -> Run | None:
        """Team t's open sequence that ``target`` names (a pending one only mid-initial-meld)."""
        if target < SEQ_TARGET_BASE:
            return None
        suit, lo, hi = seq_target_parts(target)
        for m in self.melds[t]:
            if (m.slot == SEQ and not m.closed and m.suit == suit and m.lo == lo
                    and m.hi == hi and (self.pending or not m.pending)):
                return m
        return None

    def _target_text(self, target: int) -> str:
        suit, lo, hi = seq_target_parts(target)
        ranks = self.rules.seq_ranks
        if not (0 <= suit < 4 and lo <= hi < len(ranks)):
            return "that sequence"
        return span_text(ranks, suit, lo, hi)

    def _check_run(self, a: Action) -> Reason | None:
        """``run`` and ``extend``: a sequence of one suit, consecutive, without wild cards."""
        if self.failed_initial:
            return self._after_withdraw()
        rules = self.rules
        p = self.current
        t = self.side_of[p]
        cards = a.cards
        if any(type(k) is not int or not 0 <= k < 52 for k in cards):
            return _r("action/malformed", f"'{a}' names a card that is not in a standard deck")
        wild = [k for k in cards if rules.is_wild_rank[k // 4]]
        if wild:  # (before the suits and ranks, so that one rule has one code)
            return _r("run/wild", f"a sequence takes no wild card ({RANKS[wild[0] // 4]}s "
                                  "are wild)")
        suit = cards[0] % 4
        if any(k % 4 != suit for k in cards):
            return _r("run/mixed-suits", "a sequence holds cards of one suit")
        pos = sorted(rules.seq_pos[k // 4] for k in cards)
        for k in cards:
            if rules.seq_pos[k // 4] < 0:
                return _r("run/rank", f"{RANKS[k // 4]}s are not part of sequences in this game")
        if len(set(pos)) != len(pos):
            return _r("run/not-consecutive", "a sequence holds each rank once")
        if a.type == RUN:
            m = None
            if pos[-1] - pos[0] != len(pos) - 1:
                return _r("run/not-consecutive", "a sequence holds consecutive ranks")
            if len(pos) < rules.seq_min:
                return _r("run/too-small", f"a sequence needs at least {rules.seq_min} cards")
            size = len(pos)
        else:
            m = self._find_run(t, a.target)
            if m is None:
                return _r("extend/no-sequence",
                          f"your side has no open sequence {self._target_text(a.target)}")
            if suit != m.suit:
                return _r("run/mixed-suits", "a sequence holds cards of one suit")
            below = [q for q in pos if q < m.lo]
            above = [q for q in pos if q > m.hi]
            if (len(below) + len(above) != len(pos)
                    or below != list(range(m.lo - len(below), m.lo))
                    or above != list(range(m.hi + 1, m.hi + 1 + len(above)))):
                return _r("run/not-consecutive",
                          "the cards must continue the sequence at its ends, without gaps")
            size = len(m.cards) + len(pos)
        if size > rules.seq_max:
            return _r("run/too-large", f"a sequence holds at most {rules.seq_max} cards")
        held = self._held_kinds(p)
        for k in set(cards):
            if held.get(k, 0) < cards.count(k):
                return _r("meld/not-in-hand", f"you do not hold {' '.join(map(card_code, cards))}")
        value = self.rules.value_of_kind
        before = len(m.cards) if m else 0
        completes = size >= rules.book_size > before
        return self._meld_effects_ok(p, t, len(cards), sum(value[k] for k in cards),
                                     completes, SEQ, 0, m)

    def _check_take_onto_run(self, a: Action) -> Reason | None:
        """``take to <sequence>``: the top card alone extends one of the side's sequences."""
        rules = self.rules
        p = self.current
        t = self.side_of[p]
        code = self.codes[self.pile[-1]]
        if self.pile_frozen or (rules.frozen_until_melded and not self.melded[t]):
            return _r("pile/frozen-needs-pair",
                      "the pile is frozen: it is taken only with a natural pair of its top card")
        if not rules.take_onto_meld:
            return _r("pile/method-not-allowed", "the top card may not be taken onto a meld")
        m = self._find_run(t, a.target)
        if m is None:
            return _r("pile/no-meld",
                      f"your side has no open sequence {self._target_text(a.target)}")
        k = self.kind_of[self.pile[-1]]
        pos = rules.seq_pos[k // 4] if k < 52 else -1
        if k >= 52 or k % 4 != m.suit or pos not in (m.lo - 1, m.hi + 1):
            return _r("pile/wrong-cards", f"the {code} does not continue "
                      f"{self._target_text(a.target)}")
        if len(m.cards) >= rules.seq_max:
            return _r("run/too-large", f"a sequence holds at most {rules.seq_max} cards")
        if not rules.take_onto_book and len(m.cards) >= rules.book_size:
            return _r("pile/onto-book", f"the {code} may go alone only onto a meld of fewer "
                      f"than {rules.book_size} cards")
        completes = len(m.cards) + 1 >= rules.book_size > len(m.cards)
        gain = self._reserve_gain(p, t, completes)
        hand_after = self.hand_size[p] + self._pile_coming(1) + max(gain, 0)
        return self._hand_after_ok(p, hand_after, [(SEQ, 0)] if completes else [], gain >= 0)

    # ------------------------------------------------------------------ applying
    def _card_to_lay(self, p: int, cards: list[int]) -> int:
        """Which of p's cards of one rank (``cards``) a meld of that rank takes, as an
        index: melds of a rank name no suits, so the game keeps the suits that matter for
        sequences — it lays the suit p holds most copies of, then, between equals, the card
        that continues fewest of p's suited cards and of the side's sequences, then the
        card that came into the hand last."""
        kind_of = self.kind_of
        rules = self.rules
        pos_of, ranks = rules.seq_pos, rules.seq_ranks
        hand = self.hands[p]
        runs = [m for m in self.melds[self.side_of[p]] if m.slot == SEQ and not m.closed]
        kinds = [kind_of[c] for c in cards]

        def ties(k: int) -> int:
            pos = pos_of[k // 4] if k < 52 else -1
            if pos < 0:
                return 0
            suit, n = k & 3, 0
            for q in (pos - 1, pos + 1):
                if 0 <= q < len(ranks):
                    nk = ranks[q] * 4 + suit
                    n += any(kind_of[c] == nk for c in hand[ranks[q]])
            return n + 2 * sum(1 for m in runs if m.suit == suit and pos in (m.lo - 1, m.hi + 1))

        return max(range(len(cards)), key=lambda i: (kinds.count(kinds[i]), -ties(kinds[i]), i))

    def _take_kind(self, p: int, k: int) -> int:
        """Take one card of kind ``k`` out of p's hand; its id."""
        cards = self.hands[p][k // 4]
        kind_of = self.kind_of
        for i in range(len(cards) - 1, -1, -1):
            if kind_of[cards[i]] == k:
                self.hand_size[p] -= 1
                return cards.pop(i)
        raise AssertionError(f"no {card_code(k)} in hand {p}")  # checked before

    def _grow_run(self, m: Run, ids: list[int]) -> None:
        """Put card ids (checked to continue ``m``) onto a sequence at its ends."""
        pos_of = self.rules.seq_pos
        rank_of = self.rank_of
        low = sorted((c for c in ids if pos_of[rank_of[c]] < m.lo),
                     key=lambda c: pos_of[rank_of[c]], reverse=True)
        for c in low:
            m.cards.insert(0, c)
            m.lo -= 1
        for c in sorted((c for c in ids if pos_of[rank_of[c]] > m.hi),
                        key=lambda c: pos_of[rank_of[c]]):
            m.cards.append(c)
            m.hi += 1
        m.nat = len(m.cards)
        if len(m.cards) >= self.rules.seq_max:
            m.closed = True

    def _do_run(self, a: Action) -> None:
        p = self.current
        t = self.side_of[p]
        rules = self.rules
        ids = [self._take_kind(p, k) for k in a.cards]
        if a.type == RUN:
            pos = rules.seq_pos
            lo = pos[a.cards[0] // 4]
            m = Run(a.cards[0] % 4, lo, lo + len(ids) - 1, ids, not self.melded[t])
            if len(ids) >= rules.seq_max:
                m.closed = True
            self.melds[t].append(m)
            before = 0
        else:
            m = self._find_run(t, a.target)
            before = len(m.cards)
            self._grow_run(m, ids)
        if not self.melded[t]:
            self.pending = True
            self._maybe_commit(p, t)
            return
        self._after_meld(p, t, [m] if before < rules.book_size <= len(m.cards) else [])

    def _do_take_onto_run(self, a: Action) -> None:
        p = self.current
        t = self.side_of[p]
        m = self._find_run(t, a.target)
        top = self.pile.pop()
        self.phase = PLAY_PHASE
        before = len(m.cards)
        self._grow_run(m, [top])
        self._take_rest_of_pile(p)
        size = self.rules.book_size
        self._after_meld(p, t, [m] if before < size <= len(m.cards) else [])
