"""Meld predicates, run arithmetic and deadwood: pure functions over card kinds.

This module is the rummy family's counterpart of OpenSpiel's ``gin_rummy_utils``: it knows
which lists of cards form melds, how a meld on the table grows, and how a hand is best
arranged into melds and deadwood.  It never sees a game state; the engine calls it.

Cards are *kinds* (``meldkit._cards``): ``kind = rank * 4 + suit`` with rank ``0`` = ace …
``12`` = king and suit ``0..3`` = clubs, diamonds, hearts, spades; ``52`` is the joker.
A hand is a sequence of kinds and may hold the same kind twice (games with several decks).

A pack declares the meld kinds it allows; :class:`MeldRules` compiles them with the wild
kinds and the deadwood values:

>>> from meldkit._cards import kind_of_code as k
>>> gin = MeldRules([MeldKind("set", "set", max_size=4), MeldKind("run", "run", max_size=5)])
>>> m = gin.match([k("6H"), k("4H"), k("5H")])
>>> meld_code(m.cards), m.suit, m.low, m.high
('4H 5H 6H', 2, 3, 5)
>>> meld_code(gin.can_add(m, k("7H")).cards)
'4H 5H 6H 7H'
>>> hand = [k(c) for c in "4H 5H 6H 9C 9D 9S KS KH 2C 3D".split()]
>>> gin.min_deadwood(hand)
25
>>> melds, deadwood = gin.best_arrangement(hand)
>>> [meld_code(m) for m in melds], meld_code(deadwood)
(['4H 5H 6H', '9C 9D 9S'], '2C 3D KH KS')

**What is here.**  Predicates: :meth:`MeldRules.match` (cards laid down),
:meth:`MeldRules.can_add` (a lay-off), :meth:`MeldRules.match_grown` (a meld read back).
Hands: :meth:`MeldRules.melds_in`, :meth:`MeldRules.min_deadwood`,
:meth:`MeldRules.deadwood_within`, :meth:`MeldRules.best_arrangement`, and for knocking
:meth:`MeldRules.melds_within` and :meth:`MeldRules.discards_within` (OpenSpiel's
``LegalMelds`` and ``LegalDiscards``).  ``min_deadwood(hand, discard="openspiel")`` is
OpenSpiel's ``MinDeadwood`` of an 11-card hand, tie-breaking included.

**Run positions.**  A run occupies consecutive *positions*; the rank at position ``p`` is
``p % 13``.  The ace stands at position ``0`` (``A-2-3``) or ``13`` (``Q-K-A``), as the kind's
``ace`` setting allows.  With ``ace="around"`` a run may turn the corner: its ``low`` is
``0 … 12`` and its ``high`` is ``low + len - 1``, possibly above ``13`` (``K-A-2`` is
``low=12, high=14``).  No run holds two cards of one rank, so a run has at most 13 cards.

**Wild cards.**  A card whose kind is in ``wild_kinds`` is a wild card in a meld (it counts
towards ``max_wilds`` even where it stands for itself) — but in a run of a kind with
``wild_natural_in_place``, where it stands for itself (its suit, its own rank's position)
it is a natural card; of the readings of such a run that are legal the one with the most
such natural cards is taken.  A joker that is not wild
melds with nothing.  In a run each wild card fills one position; when several placements
are possible the canonical one puts wild cards first into gaps, then above the highest
natural card, then below the lowest (``4H 5H JK`` is ``4H 5H 6H``), as far as the kind's
``wilds_adjacent`` and ace rules allow.

**Deadwood values.**  By default an ace is worth 1, a two … ten its pips, a jack, queen or
king 10, and a joker 0; pass ``values`` (53 numbers, indexed by kind) for other tables.

**Speed.**  A hand without wild cards and without two cards of one kind (gin rummy) is
handled with 52-bit masks and memoised per hand; other hands take a general search over
counts that is exact but slower (past 24 cards, with wild cards, a search under deadwood
budgets).  Every memo is bounded (cleared past 100,000 entries).
"""

from __future__ import annotations

import functools
import itertools
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Literal

import attrs

from meldkit._cards import JOKER_KIND, N_KINDS, card_code

__all__ = ["Match", "MeldKind", "MeldRules", "RankOrder", "TooManyMelds", "default_values",
           "meld_code", "meld_rules"]

Cards = tuple[int, ...]
Choice = tuple[str, Cards]  # ("meld", cards) or ("dead", cards): a step of an arrangement

_ACE_MODES = ("low", "high", "both", "around")
_MEMO_LIMIT = 100_000
_BIG_HAND = 24
"""Past this many cards the least-deadwood search of a hand with wild cards works under
deadwood budgets (:meth:`MeldRules._least`) instead of searching every sub-hand."""
_INF = 1 << 30
_NIB = sum(1 << (4 * r) for r in range(13))  # bit 0 of every rank nibble
_ACES = 0xF
_GUARD = sum(8 << (4 * k) for k in range(N_KINDS))  # bit 3 of every 4-bit count


_BIT_OF = {c: 1 << c for c in range(64)}
"""The mask bit of each card kind."""
_last_hand: tuple[list[int], int] = ([], 0)
"""The last hand :func:`hand_bits` was asked (a copy) and its mask (replaced whole)."""


def hand_bits(hand: list[int]) -> int:
    """The mask of a hand of distinct card kinds (bit ``k`` for kind ``k``; a repeated
    kind carries into the next bit).  The last hand asked is kept: asked again for the
    same cards, or for them with cards put after them (a draw), only those are summed —
    the knock test and the observation ask of one hand in turn.

    >>> hand = [5, 9, 40]
    >>> hand_bits(hand) == 1 << 5 | 1 << 9 | 1 << 40
    True
    >>> hand.append(2)
    >>> hand_bits(hand) == 1 << 2 | 1 << 5 | 1 << 9 | 1 << 40
    True
    """
    global _last_hand
    old, mask = _last_hand
    if hand == old:
        return mask
    n = len(old)
    if len(hand) > n and hand[:n] == old:
        mask += sum(map(_BIT_OF.__getitem__, hand[n:]))
    else:
        mask = sum(map(_BIT_OF.__getitem__, hand))
    _last_hand = (hand[:], mask)
    return mask


def _check_bounds(**bounds: int | None) -> None:
    """Each of ``bounds`` (a search's ``limit``, ``most``) None or a whole number >= 0."""
    for name, bound in bounds.items():
        if bound is not None and (type(bound) is not int or bound < 0):
            raise ValueError(f"{name} must be a whole number >= 0 or None, not {bound!r}")


def meld_code(cards: Iterable[int]) -> str:
    """The notation of a list of card kinds, space separated, in the order given.

    >>> meld_code([12, 13, 14])
    '4C 4D 4H'
    >>> meld_code([36, 38, 39, 52])
    '10C 10H 10S JK'
    """
    return " ".join(card_code(_check_kind(c)) for c in cards)


def default_values() -> tuple[int, ...]:
    """The default deadwood value of every kind: ace 1, pips 2 … 10, faces 10, joker 0.

    >>> v = default_values()
    >>> v[0], v[4 * 6], v[4 * 12 + 3], v[52]
    (1, 7, 10, 0)
    """
    return tuple(min(10, k // 4 + 1) for k in range(52)) + (0,)


@functools.lru_cache(maxsize=16)
def _byte_tables(values: tuple[int, ...]) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """For each byte ``i`` of a card mask (cards ``8i … 8i+7``) and each value ``b`` of
    that byte: the total value of its cards, and the highest value (at least 0).

    >>> sums, tops = _byte_tables(default_values())
    >>> sums[0][0b101], tops[0][0b101], sums[6][0b10000]   # AC + AH; the joker
    (2, 1, 0)
    """
    def cards(i: int, b: int) -> list[int]:
        return [values[8 * i + j] for j in range(8) if b >> j & 1 and 8 * i + j < N_KINDS]

    return (tuple(tuple(sum(cards(i, b)) for b in range(256)) for i in range(7)),
            tuple(tuple(max([0, *cards(i, b)]) for b in range(256)) for i in range(7)))


def _check_kind(card: object) -> int:
    if type(card) is not int or not 0 <= card < N_KINDS:  # exactly int: a bool is not a card
        raise ValueError(
            f"{card!r} is not a card kind (expected an int 0 … 52: rank*4 + suit, 52 = joker)"
        )
    return card


def _bad_cards(cards: object) -> ValueError:
    try:
        for c in cards:  # type: ignore[attr-defined]
            _check_kind(c)
    except ValueError as e:
        return e
    except TypeError:
        pass
    return ValueError(f"{cards!r} is not a sequence of card kinds")


class TooManyMelds(ValueError):
    """More melds than :meth:`MeldRules.melds_in`'s ``limit`` (the search stops there)."""


class _Enough(Exception):
    """:meth:`MeldRules._enumerate` has found the ``most`` melds asked for."""


@attrs.frozen
class MeldKind:
    """One kind of meld a pack allows: a *set* (cards of one rank), a *run* (consecutive
    ranks of one suit; of any suits with ``mixed_suits``) or a *flush* (cards of one suit,
    any ranks), with its size, ace and wild-card rules.

    ``max_size`` bounds a meld when it is laid down (``None``: no limit); lay-offs may grow it
    further unless the caller asks :meth:`MeldRules.can_add` to respect it.

    ``wild_natural_in_place`` (runs; a set ignores it): a wild card standing as itself — of
    the run's suit, at its own rank's position, as the wild 2H in ``AH 2H 3H`` — is a
    natural card there: it does not count toward ``max_wilds`` (see :class:`MeldRules`).

    >>> MeldKind("run", "run", ace="both").ace
    'both'
    >>> MeldKind("run", "sequence")
    Traceback (most recent call last):
    ...
    ValueError: meld kind 'run': 'type' must be 'set', 'run' or 'flush' (got 'sequence')
    """

    name: str
    type: Literal["set", "run", "flush"]
    min_size: int = 3
    max_size: int | None = None
    ace: Literal["low", "high", "both", "around"] = "low"
    max_wilds: int = 0
    wilds_adjacent: bool = True
    all_wild: bool = False
    distinct_suits: bool = False
    wild_natural_in_place: bool = False
    mixed_suits: bool = False

    def __attrs_post_init__(self) -> None:
        def bad(what: str) -> ValueError:
            return ValueError(f"meld kind {self.name!r}: {what}")

        if not isinstance(self.name, str) or not self.name:
            raise bad(f"'name' must be a non-empty str (got {self.name!r})")
        if self.type not in ("set", "run", "flush"):
            raise bad(f"'type' must be 'set', 'run' or 'flush' (got {self.type!r})")
        if type(self.min_size) is not int or self.min_size < 1:
            raise bad(f"'min_size' must be an int >= 1 (got {self.min_size!r})")
        if self.max_size is not None and (
            type(self.max_size) is not int or self.max_size < self.min_size
        ):
            raise bad(
                f"'max_size' must be None or an int >= min_size {self.min_size} "
                f"(got {self.max_size!r})"
            )
        if self.ace not in _ACE_MODES:
            raise bad(f"'ace' must be one of {', '.join(_ACE_MODES)} (got {self.ace!r})")
        if type(self.max_wilds) is not int or self.max_wilds < 0:
            raise bad(f"'max_wilds' must be an int >= 0 (got {self.max_wilds!r})")
        for flag in ("wilds_adjacent", "all_wild", "distinct_suits", "wild_natural_in_place",
                     "mixed_suits"):
            if not isinstance(getattr(self, flag), bool):
                raise bad(f"{flag!r} must be true or false (got {getattr(self, flag)!r})")
        if self.mixed_suits and self.type != "run":
            raise bad("'mixed_suits' is a run's: a set's cards are of any suits already, a "
                      "flush's of one")
        if self.mixed_suits and self.wild_natural_in_place:
            raise bad("'wild_natural_in_place' needs a run of one suit (its wild card stands "
                      "as itself in its suit), not 'mixed_suits'")
        if self.type == "flush" and (self.distinct_suits or self.wild_natural_in_place
                                     or not self.wilds_adjacent):
            raise bad("a flush's cards stand in no order and are of one suit: "
                      "'distinct_suits', 'wild_natural_in_place' and 'wilds_adjacent: false' "
                      "do not apply")


@attrs.frozen
class Match:
    """How a list of cards forms a meld.

    ``kind`` indexes :attr:`MeldRules.kinds`; ``cards`` are in canonical order (a set by suit,
    wild cards last; a run from low to high with each wild card in the position it fills).
    A set has its ``rank`` (``-1`` if all wild), ``suit == -1`` and ``low == high == rank``.
    A run has ``rank == -1``, its ``suit`` and the positions of its ends ``low`` and ``high``
    (see the module notes); an all-wild run has ``suit == low == high == -1``.
    """

    kind: int
    cards: tuple[int, ...]
    rank: int
    suit: int
    low: int
    high: int

    @property
    def is_run(self) -> bool:
        """Whether this is a run in its positions (of one suit, or of mixed suits with
        ``suit == -1``) — not a set, a flush (``rank == low == -1``, its ``suit``) or an
        all-wild meld."""
        return self.rank < 0 and self.low >= 0


@functools.cache  # at most 4 ace rules x 14 lengths (x the rank orders in use)
def _windows(ace: str, n: int, L: int = 13) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """The run windows of ``n`` cards an ace rule allows in a cycle of ``L`` ranks: (low
    position, rank of each slot)."""
    if n < 1 or n > L:
        return ()
    if ace == "low":
        lows = range(0, L + 1 - n)
    elif ace == "high":
        lows = range(1, L + 2 - n)
    elif ace == "both":
        lows = range(0, L + 2 - n)
    else:
        lows = range(0, L)
    return tuple((lo, tuple((lo + i) % L for i in range(n))) for lo in lows)


def _window_ok(ace: str, low: int, n: int, L: int = 13) -> int | None:
    """The normalised low end of a window, or None if the ace rule forbids it."""
    high = low + n - 1
    if n > L:
        return None
    if ace == "low":
        return low if low >= 0 and high <= L - 1 else None
    if ace == "high":
        return low if low >= 1 and high <= L else None
    if ace == "both":
        return low if low >= 0 and high <= L else None
    return low % L


class _ByDefinition:
    """Equal and hashed as ``_definition()`` says (meld rules: their kinds, wild cards,
    values and rank order)."""

    def _definition(self) -> tuple[Any, ...]:
        raise NotImplementedError

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return self._definition() == other._definition()  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        return hash(self._definition())


def _bad_discard(discard: object) -> ValueError:
    """The error for a ``discard`` argument that is none of the four."""
    return ValueError(f"'discard' must be False, True, 'best' or 'openspiel' (got {discard!r})")


class MeldRules(_ByDefinition):
    """The meld kinds of a pack, compiled with its wild kinds and deadwood values.

    ``kinds`` are tried in the order declared.  ``wild_kinds`` are the kinds that are wild
    (say ``[52]`` for jokers, or every deuce).  ``values`` gives the deadwood value of every
    kind ``0 … 52`` (default :func:`default_values`).

    >>> from meldkit._cards import kind_of_code as k
    >>> rummy = MeldRules([MeldKind("set", "set"), MeldKind("run", "run", ace="around",
    ...                    max_wilds=1)], wild_kinds=[52])
    >>> m = rummy.match([k("KS"), k("JK"), k("2S")])
    >>> meld_code(m.cards), (m.low, m.high)
    ('KS JK 2S', (12, 14))
    >>> rummy.match([k("KS"), k("JK"), k("JK")]) is None    # at most one wild card
    True
    """

    def __init__(
        self,
        kinds: Sequence[MeldKind],
        wild_kinds: Iterable[int] = (),
        values: Sequence[int] | None = None,
        *,
        n_ranks: int = 13,
    ) -> None:
        if type(n_ranks) is not int or not 1 <= n_ranks <= 13:
            raise ValueError(f"'n_ranks' must be an int 1 … 13 (got {n_ranks!r})")
        self._L = n_ranks
        """The ranks a run moves through (13; fewer in the engine of a :class:`RankOrder`,
        whose kinds are ``position * 4 + suit``)."""
        kinds = tuple(kinds)
        if not kinds:
            raise ValueError("MeldRules needs at least one meld kind (got none)")
        for i, kind in enumerate(kinds):
            if not isinstance(kind, MeldKind):
                raise ValueError(f"meld kind #{i} must be a MeldKind (got {kind!r})")
        self.kinds: tuple[MeldKind, ...] = kinds
        self.wild_kinds: frozenset[int] = frozenset(_check_kind(w) for w in wild_kinds)
        if values is None:
            values = default_values()
        values = tuple(values)
        if len(values) != N_KINDS or any(type(v) is not int for v in values):
            raise ValueError(
                f"'values' must be {N_KINDS} ints, one per kind 0 … 52 (got {len(values)} items)"
            )
        self.values: tuple[int, ...] = values
        self._most_value = max(0, *values)
        self._floor = 0 if min(values) >= 0 else None
        """The least deadwood any hand can have (0 when no card counts below zero): a
        search that reaches it stops."""
        self._wildmask = sum(1 << w for w in self.wild_kinds)
        self._most_wilds = max(k.max_wilds for k in kinds)
        self._in_place = any(k.wild_natural_in_place and k.type == "run" for k in kinds)
        self._plain = all(k.type in ("set", "run") and not k.mixed_suits for k in kinds)
        """Whether every kind is a set or a run of one suit: the masks and packed counts of
        the fast paths, and the searches under deadwood budgets, know no other kind."""
        self.arrange_limit: int | None = None if self._plain else MOST_FLEX_ARRANGED
        """The most cards the least-deadwood searches take (None: no bound of their own):
        :data:`MOST_FLEX_ARRANGED` where a flush or a run of mixed suits makes them
        exponential; past it they raise :class:`TooManyMelds`."""
        """Whether some run kind reads a wild card in its own place as natural (computed
        once: the other packs' paths never look further)."""
        self._bit = {k: 1 << k for k in range(N_KINDS)}
        self._gen_memo: dict[Cards, tuple[int, Choice]] = {}
        self._fit_memo: dict[Cards, tuple[int, int]] = {}  # hand -> lo, hi: _within
        self._melds_memo: dict[object, Any] = {}  # meld lists and OpenSpiel figures
        self._compile_fast()

    def clear_caches(self) -> None:
        """Forget every memoised hand (the memos are bounded anyway; this is for
        measurements and for freeing memory at once)."""
        self._gen_memo.clear()
        self._fit_memo.clear()
        self._melds_memo.clear()
        self._memo.clear()
        self._memo[0] = 0
        self._memo1.clear()
        self._memo1[0] = _INF
        self._packed_memo.clear()
        self._packed_memo[0] = 0
        self._mask_bounds.clear()

    def __repr__(self) -> str:
        return f"MeldRules({list(self.kinds)!r}, wild_kinds={sorted(self.wild_kinds)!r})"

    def _definition(self) -> tuple[Any, ...]:
        return (self.kinds, tuple(sorted(self.wild_kinds)), self.values, self._L)

    def __reduce__(self) -> Any:
        """Pickled as its definition (the search tables and memos are rebuilt), so rules
        travel to worker processes.

        >>> import pickle
        >>> gin = MeldRules([MeldKind("set", "set"), MeldKind("run", "run")])
        >>> pickle.loads(pickle.dumps(gin)) == gin
        True
        """
        kinds, wild, values, n_ranks = self._definition()
        return (functools.partial(MeldRules, n_ranks=n_ranks), (kinds, wild, values))

    def rank_at(self, position: int) -> int:
        """The rank at a run position (``Match.low`` … ``Match.high``): ``position % 13``,
        the ace at 0 and 13 (a :class:`RankOrder` has its own).

        >>> MeldRules([MeldKind("run", "run")]).rank_at(13)
        0
        """
        return position % self._L

    # ------------------------------------------------------------------ predicates

    def value(self, cards: Iterable[int]) -> int:
        """The total deadwood value of the cards.

        >>> MeldRules([MeldKind("set", "set")]).value([0, 40, 52])
        11
        """
        v = self.values
        try:
            return sum(v[_check_kind(c)] for c in cards)
        except TypeError:
            raise _bad_cards(cards) from None

    def match(self, cards: Sequence[int]) -> Match | None:
        """The first declared kind the cards form as a meld laid down (within its
        ``max_size``), or ``None``.

        >>> from meldkit._cards import kind_of_code as k
        >>> rules = MeldRules([MeldKind("set", "set", distinct_suits=True),
        ...                    MeldKind("run", "run", ace="both")])
        >>> rules.match([k("AD"), k("KD"), k("QD")]).cards == (k("QD"), k("KD"), k("AD"))
        True
        >>> rules.match([k("9S"), k("9S"), k("9H")]) is None    # two spades in a set
        True
        """
        try:
            cards = tuple(cards)
        except TypeError:
            raise _bad_cards(cards) from None
        for c in cards:
            _check_kind(c)
        for i in range(len(self.kinds)):
            m = self._match_kind(i, cards, True)
            if m is not None:
                return m
        return None

    def match_as(self, kind: int, cards: Sequence[int]) -> Match | None:
        """The cards as a meld of kind number ``kind`` laid down (within its ``max_size``),
        or ``None`` — whichever kind :meth:`match` would name first.

        >>> from meldkit._cards import kind_of_code as k
        >>> rules = MeldRules([MeldKind("run", "run"), MeldKind("clean", "run", max_wilds=0)],
        ...                   wild_kinds=[52])
        >>> run = [k(c) for c in ("4H", "5H", "6H")]
        >>> rules.match(run).kind, rules.match_as(1, run).kind, rules.match_as(1, run + [52])
        (0, 1, None)
        """
        return self._match_kind(kind, tuple(cards), True)

    def match_grown(self, kind: int, cards: Sequence[int]) -> Match | None:
        """The cards as a meld of kind number ``kind`` that lay-offs may have grown past its
        ``max_size`` (how a saved meld is read back), or ``None``.

        Cards given in a run's order (as :attr:`Match.cards` keeps them) keep their places,
        so wild cards stay where lay-offs left them; in any other order the run is placed
        canonically.

        >>> from meldkit._cards import kind_of_code as k
        >>> rules = MeldRules([MeldKind("run", "run", max_size=3)])
        >>> hand = [k(c) for c in ("4H", "5H", "6H", "7H")]
        >>> rules.match(hand) is None, rules.match_grown(0, hand).high
        (True, 6)
        >>> wild = MeldRules([MeldKind("run", "run", max_wilds=2)], wild_kinds=[52])
        >>> m = wild.match_grown(0, [k(c) for c in ("JK", "5H", "6H", "JK")])
        >>> meld_code(m.cards), m.low
        ('JK 5H 6H JK', 3)
        """
        if not isinstance(kind, int) or not 0 <= kind < len(self.kinds):
            return None
        try:
            cards = tuple(cards)
        except TypeError:
            raise _bad_cards(cards) from None
        for c in cards:
            _check_kind(c)
        if self.kinds[kind].type == "run":
            kept = self._run_in_order(kind, cards)
            if kept is not None:
                return kept
        return self._match_kind(kind, cards, False)

    def _run_in_order(self, idx: int, cards: tuple[int, ...]) -> Match | None:
        """The run with its cards in the positions given (low to high), if that is a valid
        placement of this kind (any size), else None."""
        m = self._match_kind(idx, cards, False)
        if m is None or m.low < 0 or m.cards == cards:
            return m
        kind = self.kinds[idx]
        wild = self.wild_kinds
        if kind.wild_natural_in_place:
            return self._in_order_in_place(idx, kind, cards, m)
        n = len(cards)
        L = self._L
        i = next(j for j, x in enumerate(cards) if x not in wild)
        c = cards[i]
        for low in ((c >> 2) - i, (c >> 2) + L - i):
            nlow = _window_ok(kind.ace, low, n, L)
            if nlow is None:
                continue
            if any(x not in wild and x >> 2 != (low + j) % L for j, x in enumerate(cards)):
                continue
            if not kind.wilds_adjacent and any(
                a in wild and b in wild for a, b in itertools.pairwise(cards)
            ):
                continue
            return Match(idx, cards, -1, m.suit, nlow, nlow + n - 1)
        return m

    def _in_order_in_place(self, idx: int, kind: MeldKind, cards: tuple[int, ...],
                           m: Match) -> Match:
        """:meth:`_run_in_order` for a kind with ``wild_natural_in_place``: the cards in
        the positions given if some low end makes that a legal placement (the fewest wild
        cards counted), else the canonical ``m``."""
        n = len(cards)
        L = self._L
        best = None
        for j, x in enumerate(cards):
            if x == JOKER_KIND or x & 3 != m.suit:
                continue
            for low in ((x >> 2) - j, (x >> 2) + L - j):
                nlow = _window_ok(kind.ace, low, n, L)
                if nlow is None:
                    continue
                w = self._counted_wilds(kind, cards, m.suit, low)
                if w is not None and (best is None or w < best[0]):
                    best = (w, nlow)
        if best is None:
            return m
        return Match(idx, cards, -1, m.suit, best[1], best[1] + n - 1)

    def _counted_wilds(self, kind: MeldKind, cards: Sequence[int], suit: int,
                       low: int) -> int | None:
        """The wild cards counted in a run of ``suit`` lying from position ``low`` (a wild
        card in its own place is natural, ``wild_natural_in_place``), or None if the cards
        do not lie there legally (a natural card out of place, too many wild cards, two
        side by side where ``wilds_adjacent`` forbids it)."""
        wild = self.wild_kinds
        L = self._L
        w = 0
        prev = False
        for j, x in enumerate(cards):
            here = x != JOKER_KIND and x & 3 == suit and x >> 2 == (low + j) % L
            if x in wild:
                counted = not here
            elif not here:
                return None
            else:
                counted = False
            if counted:
                w += 1
                if prev and not kind.wilds_adjacent:
                    return None
            prev = counted
        return w if w <= kind.max_wilds else None

    def _match_in_place(self, idx: int, kind: MeldKind, nat: list[int], wl: list[int],
                        n: int) -> Match | None:
        """:meth:`_match_kind` of a run kind with ``wild_natural_in_place``: of the wild
        cards that could stand in their own places, as many as can be are read as natural
        (the legal reading with the most of them; then the lowest suit, the canonical
        placement)."""
        if nat and nat[-1] == JOKER_KIND:
            return None
        if nat:
            suits = [nat[0] & 3]
            if any(c & 3 != suits[0] for c in nat) or n > self._L:
                return None
        else:
            suits = sorted({c & 3 for c in wl if c != JOKER_KIND})
        nat_ranks = {c >> 2 for c in nat}
        if len(nat_ranks) != len(nat):
            return None
        cands = {s: sorted({c for c in wl if c != JOKER_KIND and c & 3 == s
                            and c >> 2 not in nat_ranks}) for s in suits}
        for size in range(max((len(c) for c in cands.values()), default=0), 0, -1):
            for s in suits:
                for sub in itertools.combinations(cands[s], size):
                    if len({c >> 2 for c in sub}) != size or len(wl) - size > kind.max_wilds:
                        continue
                    rest = list(wl)
                    for c in sub:
                        rest.remove(c)
                    ranks = {c >> 2: c for c in (*nat, *sub)}
                    placed = self._place(kind, ranks, n)
                    if placed is None:
                        continue
                    low, slots = placed
                    it = iter(rest)
                    out = tuple(ranks[q] if q in ranks else next(it) for q in slots)
                    return Match(idx, out, -1, s, low, low + n - 1)
        if len(wl) > kind.max_wilds:
            return None
        if not nat:
            if not kind.all_wild or n > self._L or (n > 1 and not kind.wilds_adjacent):
                return None
            return Match(idx, tuple(wl), -1, -1, -1, -1)
        ranks = {c >> 2: c for c in nat}
        placed = self._place(kind, ranks, n)
        if placed is None:
            return None
        low, slots = placed
        it = iter(wl)
        out = tuple(ranks[q] if q in ranks else next(it) for q in slots)
        return Match(idx, out, -1, suits[0], low, low + n - 1)

    def _match_kind(self, idx: int, cards: tuple[int, ...], check_size: bool) -> Match | None:
        kind = self.kinds[idx]
        n = len(cards)
        if n < kind.min_size or (check_size and kind.max_size is not None and n > kind.max_size):
            return None
        wild = self.wild_kinds
        nat = sorted(c for c in cards if c not in wild)
        wl = sorted(c for c in cards if c in wild)
        w = len(wl)
        if w and kind.wild_natural_in_place and kind.type == "run":
            return self._match_in_place(idx, kind, nat, wl, n)
        if w > kind.max_wilds:
            return None
        if not nat:
            if not kind.all_wild or (kind.distinct_suits and kind.type == "set" and n > 4):
                return None
            if kind.type == "run" and (n > self._L or (n > 1 and not kind.wilds_adjacent)):
                return None
            return Match(idx, tuple(wl), -1, -1, -1, -1)
        if nat[-1] == JOKER_KIND:
            return None
        if kind.type == "set":
            r = nat[0] >> 2
            if any(c >> 2 != r for c in nat):
                return None
            if kind.distinct_suits and (len(set(nat)) != len(nat) or n > 4):
                return None  # (a wild card stands for a suit no other card has)
            return Match(idx, tuple(nat) + tuple(wl), r, -1, r, r)
        if kind.type == "flush":
            s = nat[0] & 3
            if any(c & 3 != s for c in nat):
                return None
            return Match(idx, tuple(nat) + tuple(wl), -1, s, -1, -1)
        if kind.mixed_suits:
            s = -1  # (a run of any suits: its place is its ranks')
        else:
            s = nat[0] & 3
            if any(c & 3 != s for c in nat):
                return None
        if n > self._L:
            return None
        ranks = {c >> 2: c for c in nat}
        if len(ranks) != len(nat):
            return None
        placed = self._place(kind, ranks, n)
        if placed is None:
            return None
        low, slots = placed
        it = iter(wl)
        out = tuple(ranks[q] if q in ranks else next(it) for q in slots)
        return Match(idx, out, -1, s, low, low + n - 1)

    def _place(
        self, kind: MeldKind, ranks: dict[int, int], n: int
    ) -> tuple[int, tuple[int, ...]] | None:
        best = None
        for low, slots in _windows(kind.ace, n, self._L):
            idxs = [i for i, q in enumerate(slots) if q in ranks]
            if len(idxs) != len(ranks):
                continue
            if not kind.wilds_adjacent and not _wilds_apart(slots, ranks):
                continue
            key = (idxs[0], idxs[-1] - idxs[0], low)
            if best is None or key < best[0]:
                best = (key, low, slots)
        return None if best is None else (best[1], best[2])

    def can_add(self, match: Match, card: int, *, respect_max_size: bool = False) -> Match | None:
        """The meld grown by one card (a lay-off), or ``None`` if the card does not fit.

        A run grows at either end; a set gains a card of its rank (or a wild card).  The
        grown meld keeps the positions of the wild cards already in it when the new card
        goes at an end; a natural card for a position a wild card holds makes the run be
        placed afresh (canonically), if it still fits.  ``max_size`` limits the growth only
        with ``respect_max_size=True``.

        >>> from meldkit._cards import kind_of_code as k
        >>> rules = MeldRules([MeldKind("run", "run", max_size=3)])
        >>> m = rules.match([k("2C"), k("3C"), k("4C")])
        >>> meld_code(rules.can_add(m, k("AC")).cards)
        'AC 2C 3C 4C'
        >>> rules.can_add(m, k("5C"), respect_max_size=True) is None
        True
        """
        if not isinstance(match, Match) or not 0 <= match.kind < len(self.kinds):
            raise ValueError(f"{match!r} is not a Match of these rules")
        _check_kind(card)
        kind = self.kinds[match.kind]
        n = len(match.cards) + 1
        if respect_max_size and kind.max_size is not None and n > kind.max_size:
            return None
        new = match.cards + (card,)
        if kind.type == "set":
            m = self._match_kind(match.kind, new, False)
            if m is not None and (match.rank == -1 or m.rank == match.rank):
                return m
            return None
        if kind.type == "flush":
            m = self._match_kind(match.kind, new, False)
            if m is not None and (match.suit == -1 or m.suit == match.suit):
                return m
            return None
        if match.low < 0:  # an all-wild run
            return self._match_kind(match.kind, new, False)
        if kind.wild_natural_in_place:
            return self._add_in_place(match, card, kind, n, new)
        is_wild = card in self.wild_kinds
        if not is_wild and (card == JOKER_KIND or (not kind.mixed_suits
                                                   and card & 3 != match.suit)):
            return None
        if is_wild and sum(c in self.wild_kinds for c in new) > kind.max_wilds:
            return None
        best = None
        L = self._L
        for at_low in (True, False):
            low = match.low - 1 if at_low else match.low
            pos = low if at_low else match.high + 1
            nlow = _window_ok(kind.ace, low, n, L)
            if nlow is None:
                continue
            if not is_wild and pos % L != card >> 2:
                continue
            cards = (card,) + match.cards if at_low else new
            if is_wild and not kind.wilds_adjacent:
                neighbour = match.cards[0] if at_low else match.cards[-1]
                if neighbour in self.wild_kinds:
                    continue
            idxs = [i for i, c in enumerate(cards) if c not in self.wild_kinds]
            key = (idxs[0], idxs[-1] - idxs[0], nlow)
            if best is None or key < best[0]:
                best = (key, Match(match.kind, cards, -1, match.suit, nlow, nlow + n - 1))
        if best is not None:
            return best[1]
        m = self._match_kind(match.kind, new, False)
        if m is not None and m.suit == match.suit:
            return m
        return None

    def _add_in_place(self, match: Match, card: int, kind: MeldKind, n: int,
                      new: tuple[int, ...]) -> Match | None:
        """:meth:`can_add` onto a run of a kind with ``wild_natural_in_place``: the card at
        the end where the fewest wild cards count (its own place first), else the run
        placed afresh — also when that counts fewer wild cards: a deuce of the suit that
        stood for another card moves to its own place when that card comes (2H 4H 5H and
        the 3H make the clean 2H 3H 4H 5H).

        >>> from meldkit._cards import kind_of_code as k
        >>> kinds = [MeldKind("run", "run", max_wilds=1, wild_natural_in_place=True)]
        >>> rules = MeldRules(kinds, wild_kinds=[k("2" + s) for s in "CDHS"] + [52])
        >>> grown = rules.can_add(rules.match([k("4H"), k("5H"), k("2H")]), k("3H"))
        >>> meld_code(grown.cards), rules.wilds_in(grown)
        ('2H 3H 4H 5H', 0)
        """
        fresh = self._match_kind(match.kind, new, False)
        if fresh is not None and fresh.suit != match.suit:
            fresh = None
        best = None
        for at_low in (True, False):
            low = match.low - 1 if at_low else match.low
            nlow = _window_ok(kind.ace, low, n, self._L)
            if nlow is None:
                continue
            cards = (card,) + match.cards if at_low else new
            w = self._counted_wilds(kind, cards, match.suit, low)
            if w is None:
                continue
            key = (w, at_low if card in self.wild_kinds else False, nlow)  # a wild card high
            if best is None or key < best[0]:
                best = (key, Match(match.kind, cards, -1, match.suit, nlow, nlow + n - 1))
        if best is not None and (fresh is None or best[0][0] <= self.wilds_in(fresh)):
            return best[1]
        return fresh

    def wilds_in(self, match: Match) -> int:
        """The wild cards a meld counts (toward ``max_wilds``; 0: a clean meld): a wild card
        in its own place in a run of a kind with ``wild_natural_in_place`` is natural.

        >>> from meldkit._cards import kind_of_code as k
        >>> kinds = [MeldKind("run", "run", max_wilds=1, wild_natural_in_place=True)]
        >>> rules = MeldRules(kinds, wild_kinds=[k("2" + s) for s in "CDHS"] + [52])
        >>> rules.wilds_in(rules.match([k("AH"), k("2H"), k("3H")]))
        0
        >>> rules.wilds_in(rules.match([k("2C"), k("2H"), k("3H")]))   # 2C stands for AH
        1
        """
        wild = self.wild_kinds
        kind = self.kinds[match.kind]
        if match.suit < 0 or not kind.wild_natural_in_place or kind.type != "run":
            return sum(1 for c in match.cards if c in wild)
        w = self._counted_wilds(kind, match.cards, match.suit, match.low)
        return sum(1 for c in match.cards if c in wild) if w is None else w

    def win_back(self, match: Match, card: int) -> tuple[Match, int] | None:
        """The meld with the natural ``card`` in the place of a wild card that stands for
        it, and that wild card's kind — ``None`` if no wild card of the meld stands for
        ``card`` (a joker won back).  In a run a wild card stands for the card of its
        position; in a set for a card of the set's rank that the set may hold (the last
        wild card in its order is won back).  A wild card in its own place
        (``wild_natural_in_place``) stands for itself, and an all-wild meld for no card
        in particular: neither is won back.

        >>> from meldkit._cards import kind_of_code as k
        >>> rules = MeldRules([MeldKind("run", "run", max_wilds=1)], wild_kinds=[52])
        >>> m, wild = rules.win_back(rules.match([k("5H"), k("JK"), k("7H")]), k("6H"))
        >>> meld_code(m.cards), meld_code([wild])
        ('5H 6H 7H', 'JK')
        >>> rules.win_back(m, k("8H")) is None
        True
        """
        if not isinstance(match, Match) or not 0 <= match.kind < len(self.kinds):
            raise ValueError(f"{match!r} is not a Match of these rules")
        _check_kind(card)
        wild = self.wild_kinds
        if card in wild or card == JOKER_KIND:
            return None
        cards = match.cards
        kind = self.kinds[match.kind]
        if kind.type == "flush":  # the last wild card, for any card of the suit
            if match.suit < 0 or card & 3 != match.suit:
                return None
            for j in range(len(cards) - 1, -1, -1):
                if cards[j] in wild:
                    m = self._match_kind(match.kind, cards[:j] + cards[j + 1:] + (card,),
                                         False)
                    return None if m is None else (m, cards[j])
            return None
        if kind.type == "run" and match.low >= 0:  # the wild card at the card's position
            if not kind.mixed_suits and card & 3 != match.suit:
                return None
            in_place = kind.wild_natural_in_place and kind.type == "run"
            for j, x in enumerate(cards):
                r = (match.low + j) % self._L
                if r != card >> 2 or x not in wild:
                    continue
                if in_place and x == card:
                    return None  # it stands for itself
                new = cards[:j] + (card,) + cards[j + 1:]
                m = self._run_in_order(match.kind, new)
                return None if m is None else (m, x)
            return None
        if match.rank < 0 or card >> 2 != match.rank:
            return None
        for j in range(len(cards) - 1, -1, -1):
            x = cards[j]
            if x in wild:
                m = self._match_kind(match.kind, cards[:j] + cards[j + 1:] + (card,), False)
                if m is not None and m.rank == match.rank:
                    return m, x
                return None
        return None

    # ------------------------------------------------------------------ hands

    def melds_in(self, hand: Sequence[int], *, limit: int | None = None,
                 most: int | None = None) -> list[tuple[int, ...]]:
        """Every distinct meld that can be laid from the hand (within each kind's
        ``max_size``), wild-card mixes included, each in canonical order; sorted as tuples.
        With ``limit``, a hand with more melds than that raises :class:`TooManyMelds` as
        soon as the search passes it (many decks' sets grow as the fourth power of the
        copies of each card).  With ``most``, a hand with more melds than that gives the
        ``most`` the search found first, the same ones on every call (what a position's
        legal actions list: :data:`MOST_LISTED_MELDS`).

        >>> from meldkit._cards import kind_of_code as k
        >>> gin = MeldRules([MeldKind("set", "set", max_size=4), MeldKind("run", "run")])
        >>> [meld_code(m) for m in gin.melds_in([k(c) for c in "5S 6S 7S 7D 7C 8S".split()])]
        ['5S 6S 7S', '5S 6S 7S 8S', '6S 7S 8S', '7C 7D 7S']
        """
        _check_bounds(limit=limit, most=most)
        mask = self._mask(hand)
        if mask is not None:  # (a hand without wild or repeated cards: a few hundred melds)
            out = [self._tuple_of[m] for m in self._fast_melds(mask)]
            if most is not None:
                out = out[:most]
        else:
            out = list(self._general_melds(self._state(hand), limit, most))
        if limit is not None and len(out) > limit:
            raise TooManyMelds(f"more than {limit} melds")
        return out

    def meld_multisets(self, hand: Sequence[int], *, limit: int | None = None
                       ) -> list[tuple[int, ...]]:
        """The melds of :meth:`melds_in`, each as its sorted multiset of cards, sorted.

        Not laid in order (:meth:`laid` orders one); ``limit`` as there.  Cheaper than
        :meth:`melds_in` on a hand with wild or repeated cards, where the order costs most:
        what counts melds, or compares those of several meld rules, wants this.

        >>> from meldkit._cards import kind_of_code as k
        >>> gin = MeldRules([MeldKind("set", "set", max_size=4), MeldKind("run", "run")])
        >>> [meld_code(m) for m in gin.meld_multisets([k(c) for c in "5S 6S 7S 8S".split()])]
        ['5S 6S 7S', '5S 6S 7S 8S', '6S 7S 8S']
        """
        _check_bounds(limit=limit)
        mask = self._mask(hand)
        if mask is not None:
            out = sorted(tuple(sorted(self._tuple_of[m])) for m in self._fast_melds(mask))
        else:
            state = self._state(hand)
            wild = self.wild_kinds
            counts = Counter(c for c in state if c not in wild)
            out = sorted(self._enumerate(counts, [c for c in state if c in wild], None,
                                         False, limit))
        if limit is not None and len(out) > limit:
            raise TooManyMelds(f"more than {limit} melds")
        return out

    def laid(self, cards: Sequence[int]) -> tuple[int, ...]:
        """The cards of a meld in the order it is laid (the order of its actions), from
        any order of them; raises ``ValueError`` if they form no meld.

        >>> from meldkit._cards import kind_of_code as k
        >>> gin = MeldRules([MeldKind("set", "set", max_size=4), MeldKind("run", "run")])
        >>> meld_code(gin.laid([k("7S"), k("5S"), k("6S")]))
        '5S 6S 7S'
        """
        m = self.match(cards)
        if m is None:
            raise ValueError(f"{meld_code(tuple(cards))} is no meld of these rules")
        return m.cards

    def min_deadwood(
        self, hand: Sequence[int], *, discard: bool | Literal["best", "openspiel"] = False
    ) -> int:
        """The least total value of the cards left out of melds, over every arrangement of
        the hand into disjoint melds (each within its kind's ``max_size``).

        ``discard=True`` (or ``"best"``) first discards the card that helps most: the least
        deadwood over every choice of one card to discard (a hand of 11 in gin, after the
        draw).  ``discard="openspiel"`` follows OpenSpiel's ``MinDeadwood`` on an 11-card
        hand exactly instead: take the *first* best arrangement in OpenSpiel's meld order
        and drop its highest-ranked deadwood card.  With gin's melds OpenSpiel's figure is
        never lower, and it is higher on about 1% of meld-rich hands (cards from four to
        six neighbouring ranks), where a better discard exists; on 20,000 uniformly random
        hands the two agreed.  ``"openspiel"`` needs a hand without wild or repeated cards.

        >>> from meldkit._cards import kind_of_code as k
        >>> gin = MeldRules([MeldKind("set", "set", max_size=4),
        ...                  MeldKind("run", "run", max_size=5)])
        >>> hand = [k(c) for c in "5S 3C 4C 5C 2D 3D 4D 5D 2H 3H 4H".split()]
        >>> gin.min_deadwood(hand), gin.min_deadwood(hand, discard=True)
        (4, 0)
        >>> gin.min_deadwood(hand, discard="openspiel")
        2
        """
        mask = self._mask(hand)
        if mask is not None:
            return self._mask_min(mask, discard)
        if discard is False:
            return self._general_min(self._state(hand))
        if discard is True or discard == "best":
            state = self._state(hand)
            if not state:
                raise ValueError("min_deadwood(discard=True) needs a hand of at least one card")
            return min(self._general_min(_remove(state, (c,))) for c in sorted(set(state)))
        if discard == "openspiel":
            self._state(hand)  # a located error for bad cards first
            raise ValueError(
                "min_deadwood(discard='openspiel') needs a hand without wild cards and "
                "without two cards of one kind"
            )
        raise _bad_discard(discard)

    def min_deadwood_holding(self, hand: Sequence[int], kinds: Sequence[int], *,
                             work: int | None = None) -> int | None:
        """The least deadwood of the hand over the arrangements whose melds hold one meld of
        each kind numbered in ``kinds`` (indices of :attr:`kinds`; a meld counts for any
        kind it forms, as a contract is met), or None when no arrangement holds them.
        Every wild mix is tried (a wild card in its own place may be what makes a run
        clean), so it costs more than :meth:`min_deadwood`; with ``work``, a search that
        weighs more than that many choices of a meld (or of a card left dead) raises
        :class:`TooManyMelds` — counted afresh each call, so the answer never depends on
        what earlier calls left in the memos.

        >>> from meldkit._cards import kind_of_code as k
        >>> rules = MeldRules([MeldKind("clean", "run", max_wilds=0, wild_natural_in_place=True),
        ...                    MeldKind("run", "run", max_wilds=2)], wild_kinds=[k("9H"), 52])
        >>> hand = [k(c) for c in "5S 6S 8H 9H 10H JK KD".split()]
        >>> rules.min_deadwood_holding(hand, [0, 1])  # 8H 9H 10H clean, 5S 6S JK: KD left
        10
        >>> rules.min_deadwood_holding(hand[:-2] + [k("KD")], [0, 1]) is None
        True
        """
        state = self._state(hand)
        need = tuple(sorted(kinds))
        for kind in need:
            if type(kind) is not int or not 0 <= kind < len(self.kinds):
                raise ValueError(f"kinds must be numbers of this rules' kinds, 0 … "
                                 f"{len(self.kinds) - 1} (got {kind!r})")
        if work is not None and (type(work) is not int or work < 0):
            raise ValueError(f"work must be a whole number >= 0 or None, not {work!r}")
        self._check_arrangeable(state)
        if not all(self._has_meld_of(state, kind) for kind in sorted(set(need))):
            return None  # (at once, where the search would have to try everything to know)
        budget = [_INF if work is None else work]
        r = self._holding(state, need, {}, budget)
        return None if r >= _INF // 2 else r

    def _holding(self, state: Cards, need: Cards, memo: dict, budget: list[int],
                 cap: int = _INF) -> int:
        """:meth:`min_deadwood_holding` of a sorted hand if it is below ``cap``, else a
        figure of ``cap`` or more that no arrangement goes below (``_INF`` or more: none
        holds the kinds ``need``).  As :meth:`_gdw`, the lowest natural card is melded in
        each meld that holds it (every wild mix that can matter) — a meld laid for one of
        the kinds it forms or for none — or left dead; a choice whose rest cannot beat the
        best found so far (by its least deadwood, which holds nothing) is not searched.
        ``memo`` is the call's own: ``(state, need) -> (figure, exact)``; ``budget[0]``,
        the choices it may still weigh."""
        if not need:
            return self._general_min(state)
        key = (state, need)
        hit = memo.get(key)
        if hit is not None and (hit[1] or hit[0] >= cap):
            return hit[0]
        floor = self._general_min(state)  # no arrangement holding the kinds does better
        if floor >= cap:
            memo[key] = (floor, False)
            return floor
        wild = self.wild_kinds
        naturals = [c for c in state if c not in wild]
        if not naturals:
            best = self._wild_holding(state, need, memo, budget)
        else:
            c = naturals[0]
            wl = [w for w in state if w in wild]
            melds = self._every_mix_holding(c, naturals, wl)
            budget[0] -= len(melds) + 1
            if budget[0] < 0:
                raise TooManyMelds("the search for an arrangement holding the kinds is past "
                                   "its work")
            best = _INF
            for j, kind in enumerate(need):  # the melds that lay a kind still needed first,
                if j and kind == need[j - 1]:  # those with fewest wild cards first
                    continue
                laid = sorted((m for m in melds if self._forms(kind, m)),
                              key=lambda m: (sum(x in wild for x in m), -len(m)))
                for meld in laid:
                    if best == floor:
                        break
                    best = min(best, self._holding(_remove(state, meld), need[:j] + need[j + 1:],
                                                   memo, budget, min(cap, best)))
            for meld in melds:
                if best == floor:
                    break
                best = min(best, self._holding(_remove(state, meld), need, memo, budget,
                                               min(cap, best)))
            if best != floor:
                v = self.values[c]
                best = min(best, v + self._holding(_remove(state, (c,)), need, memo, budget,
                                                   min(cap, best) - v))
        memo[key] = (best, best < cap)
        return best

    def _has_meld_of(self, state: Cards, kind: int) -> bool:
        """Whether some cards of the sorted hand form a meld of kind number ``kind``: a meld
        of its natural cards from each lowest one, the most valuable wild cards filling the
        places left (any wild card does where one does: one in its own place only counts
        less), or wild cards alone."""
        wild = self.wild_kinds
        values = self.values
        naturals = [c for c in state if c not in wild]
        wl = sorted((w for w in state if w in wild), key=lambda x: (-values[x], x))
        for c in sorted(set(naturals)):
            same = Counter(x for x in naturals if x >= c and (x >> 2 == c >> 2
                                                                  or x & 3 == c & 3
                                                                  or not self._plain))
            if any(self._forms(kind, m)
                   for m in self._enumerate(same, wl, c, True, only=kind)):
                return True
        k = self.kinds[kind]
        return k.all_wild and any(self._forms(kind, tuple(sorted(wl[:w])))
                                  for w in range(max(1, k.min_size), len(wl) + 1))

    def _wild_holding(self, state: Cards, need: Cards, memo: dict, budget: list[int]) -> int:
        """:meth:`_holding` of wild cards alone: the kinds still needed laid as all-wild
        melds of the most valuable wild cards (wild cards alone are alike but for their
        value), the rest as :meth:`_wild_only` leaves them."""
        kind = need[0]
        values = self.values
        order = tuple(sorted(state, key=lambda x: (-values[x], x)))
        best = _INF
        for w in range(1, len(order) + 1):
            meld = tuple(sorted(order[:w]))
            if self._forms(kind, meld):
                best = min(best, self._holding(tuple(sorted(order[w:])), need[1:], memo,
                                               budget))
        return best

    def _every_mix_holding(self, c: int, naturals: list[int], wl: list[int]
                           ) -> tuple[tuple[int, ...], ...]:
        """The melds holding the lowest natural card ``c``, with the mixes of the wild cards
        ``wl`` that can matter, memoised.  Where no run reads a wild card in its own place
        as natural, wild cards are alike in melds but for their value, so some best
        arrangement melds the most valuable and leaves the least valuable dead: the melds
        of :meth:`_melds_holding`.  Where one does, every mix (a 9H melded as a counted
        wild card may be the one a clean 8H 9H 10H needed)."""
        if not self._in_place:
            return self._melds_holding(c, naturals, wl)
        same = self._near(c, naturals)
        return self._enumerated(("every mix", c, same, tuple(wl)), same, wl, c, False)

    def _enumerated(self, key: tuple, same: tuple[int, ...], wl: list[int], c: int,
                    best_wilds: bool) -> tuple[tuple[int, ...], ...]:
        """The melds holding ``c`` among ``same`` and the wild cards ``wl``
        (:meth:`_enumerate`), memoised under ``key``."""
        memo = self._melds_memo
        hit = memo.get(key)
        if hit is None:
            hit = tuple(sorted(self._enumerate(Counter(same), wl, c, best_wilds)))
            if len(memo) > _MEMO_LIMIT:
                memo.clear()
            memo[key] = hit
        return hit

    def _forms(self, kind: int, meld: tuple[int, ...]) -> bool:
        """Whether the cards ``meld`` form a meld of kind number ``kind``, memoised."""
        key = ("forms", kind, meld)
        memo = self._melds_memo
        hit = memo.get(key)
        if hit is None:
            hit = memo[key] = self._match_kind(kind, meld, True) is not None
        return hit

    def _mask_min(self, mask: int, discard) -> int:
        """:meth:`min_deadwood` of a hand without wild cards kept as a ``mask``."""
        if discard is False:
            r = self._memo.get(mask)
            return self._top(mask) if r is None else r
        if discard is True or discard == "best":
            return self._top_discard(mask)
        if discard == "openspiel":
            return self._openspiel(mask)
        raise _bad_discard(discard)

    def mask_deadwood(self, mask: int) -> int:
        """:meth:`min_deadwood` of the hand holding one card of each kind whose bit is set
        in ``mask`` (bit ``k`` for kind ``k``), for a caller that keeps hands as masks.

        >>> from meldkit._cards import kind_of_code as k
        >>> gin = MeldRules([MeldKind("set", "set"), MeldKind("run", "run")])
        >>> hand = [k(c) for c in "4H 5H 6H 9C 9D 9S KS KH 2C 3D".split()]
        >>> gin.mask_deadwood(sum(1 << c for c in hand)) == gin.min_deadwood(hand) == 25
        True
        """
        if mask & self._wildmask or not self._plain:
            return self._general_min(tuple(c for c in range(N_KINDS) if mask >> c & 1))
        return self._mask_min(mask, False)

    def mask_deadwood_from(self, kept: tuple[int, int, int] | None,
                           mask: int) -> tuple[int, int, int]:
        """``(mask, meldable, deadwood)`` of the hand ``mask`` (as :meth:`mask_deadwood`;
        ``meldable``: its cards that lie in some meld, -1 when not known), derived from
        ``kept``, the triple of another hand (a seat's hand a card ago), when the two
        differ by one card that lies in no meld: then that card's value is all that
        changes.  Otherwise (or ``kept`` None) it is computed.

        >>> from meldkit._cards import kind_of_code as k
        >>> gin = MeldRules([MeldKind("set", "set"), MeldKind("run", "run")])
        >>> hand = sum(1 << k(c) for c in "4H 5H 6H 9C 9D 9S KS KH 2C 3D".split())
        >>> kept = gin.mask_deadwood_from(None, hand)
        >>> kept[2], gin.mask_deadwood_from(kept, hand | 1 << k("QD"))[2]
        (25, 35)
        >>> gin.mask_deadwood_from(kept, hand ^ 1 << k("KS"))[2]
        15
        """
        if not self._plain:  # (a flush or a run of mixed suits: no masks)
            return mask, -1, self.mask_deadwood(mask)
        if kept is not None:
            old, mm, dw = kept
            d = old ^ mask
            if not d:
                return kept
            if not d & (d - 1) and mm >= 0 and not (old | mask) & self._wildmask:
                if d & old:  # a card gone: no meld changes if it was in none
                    if not d & mm:
                        return mask, mm, dw - self._val_of_bit[d]
                else:
                    mm = self._meldable(mask)
                    if not d & mm:  # a card come that melds with nothing
                        return mask, mm, dw + self._val_of_bit[d]
                    r = self._memo.get(mask)
                    return mask, mm, self._top(mask) if r is None else r
        if mask & self._wildmask:
            return mask, -1, self.mask_deadwood(mask)
        r = self._memo.get(mask)
        return mask, self._meldable(mask), self._top(mask) if r is None else r

    def deadwood_within(self, hand: Sequence[int], limit: int, *,
                        discard: bool | Literal["best", "openspiel"] = False) -> bool:
        """Whether ``min_deadwood(hand, discard=discard) <= limit`` — answered without the
        deadwood search when the cards that lie in no meld already exceed the limit (most
        hands, when a player checks whether they may knock).

        >>> from meldkit._cards import kind_of_code as k
        >>> gin = MeldRules([MeldKind("set", "set"), MeldKind("run", "run")])
        >>> hand = [k(c) for c in "2C 3C 4C 7D 7H 7S KS QH JD 9C AS".split()]
        >>> gin.deadwood_within(hand, 10, discard=True), gin.deadwood_within(hand, 30)
        (False, False)
        """
        mask = self._mask(hand)
        if mask is not None:
            return self.mask_within(mask, limit, discard)
        return self.min_deadwood(hand, discard=discard) <= limit

    def mask_within(self, mask: int, limit: int,
                    discard: bool | Literal["best", "openspiel"] = False) -> bool:
        """:meth:`deadwood_within` of the hand holding one card of each kind whose bit is
        set in ``mask`` (as :meth:`mask_deadwood`), for a caller that keeps hands as masks.

        >>> from meldkit._cards import kind_of_code as k
        >>> gin = MeldRules([MeldKind("set", "set"), MeldKind("run", "run")])
        >>> hand = [k(c) for c in "2C 3C 4C 7D 7H 7S KS 9C AS".split()]
        >>> mask = sum(1 << c for c in hand)
        >>> [gin.mask_within(mask, v) for v in (20, 19)]  # deadwood K + 9 + A = 20
        [True, False]
        >>> [gin.mask_within(mask, v, True) for v in (10, 9)]  # the king discarded: 10
        [True, False]
        """
        if mask & self._wildmask:
            hand = [c for c in range(N_KINDS) if mask >> c & 1]
            return self.min_deadwood(hand, discard=discard) <= limit
        dead = mask ^ self._meldable(mask)
        s = self._valsum(dead)
        if discard:  # less the highest card: first against the highest value there is
            if s - self._most_value > limit or s - self._sum_top(dead)[1] > limit:
                return False
        elif s > limit:
            return False
        return self._mask_min(mask, discard) <= limit

    def best_arrangement(
        self, hand: Sequence[int]
    ) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
        """One arrangement achieving :meth:`min_deadwood`: (melds, deadwood cards).

        Melds are canonical tuples, sorted; the deadwood is sorted.  The same hand always
        gives the same arrangement.

        >>> from meldkit._cards import kind_of_code as k
        >>> rules = MeldRules([MeldKind("set", "set", max_wilds=2)], wild_kinds=[52])
        >>> melds, dead = rules.best_arrangement([k("9C"), k("9D"), k("JK"), k("3S")])
        >>> [meld_code(m) for m in melds], meld_code(dead)
        (['9C 9D JK'], '3S')
        """
        mask = self._mask(hand)
        melds: list[tuple[int, ...]] = []
        if mask is not None:
            dead = sorted(self._fast_arrangement(mask, melds))
        else:
            state = self._state(hand)
            dead = []
            while state:
                _, choice = self._gdw(state)
                kind_, cards = choice
                if kind_ == "dead":
                    dead.extend(cards)
                else:
                    melds.append(self._canon(cards))
                state = _remove(state, cards)
            dead.sort()
        return tuple(sorted(melds)), tuple(dead)

    def melds_within(self, hand: Sequence[int], limit: int) -> list[tuple[int, ...]]:
        """The melds (within ``max_size``) that appear in *some* arrangement of the hand
        whose deadwood is at most ``limit`` — what a knocker may lay (OpenSpiel's
        ``LegalMelds``); sorted as tuples.

        >>> from meldkit._cards import kind_of_code as k
        >>> gin = MeldRules([MeldKind("set", "set", max_size=4),
        ...                  MeldKind("run", "run", max_size=5)])
        >>> hand = [k(c) for c in "6S 7S 8S 6C 7C 8C 8D AH 2H AD".split()]
        >>> [meld_code(m) for m in gin.melds_within(hand, 12)]    # not 8S 8C 8D
        ['6C 7C 8C', '6S 7S 8S']
        """
        limit = _check_limit(limit)
        mask = self._mask(hand)
        if mask is not None:
            top = self._top
            return [self._tuple_of[m] for m in self._fast_melds(mask) if top(mask ^ m) <= limit]
        state = self._state(hand)
        out = []
        for meld in self._general_melds(state):
            if self._general_min(_remove(state, meld)) <= limit:
                out.append(meld)
        return out

    def discards_within(self, hand: Sequence[int], limit: int) -> list[int]:
        """The distinct cards whose discard leaves a hand with :meth:`min_deadwood` at most
        ``limit`` (OpenSpiel's ``LegalDiscards`` when knocking); sorted.

        >>> from meldkit._cards import kind_of_code as k
        >>> gin = MeldRules([MeldKind("set", "set", max_size=4),
        ...                  MeldKind("run", "run", max_size=5)])
        >>> hand = [k(c) for c in "6S 7S 8S 6C 7C 8C 8D AH 2H AD KC".split()]
        >>> meld_code(gin.discards_within(hand, 14))
        '8D KC'
        """
        limit = _check_limit(limit)
        mask = self._mask(hand)
        if mask is not None:
            top = self._top
            mm = self._meldable(mask)
            # a card in no meld leaves every arrangement as it is: the deadwood drops by it
            base = top(mask) - limit
            val_of_bit = self._val_of_bit
            out = []
            m = mask
            while m:
                low = m & -m
                m ^= low
                if (val_of_bit[low] >= base) if not low & mm else (top(mask ^ low) <= limit):
                    out.append(low.bit_length() - 1)
            return out
        state = self._state(hand)
        return [
            c for c in sorted(set(state)) if self._general_min(_remove(state, (c,))) <= limit
        ]

    # ------------------------------------------------------------------ input

    def _mask(self, hand: Sequence[int]) -> int | None:
        """The 53-bit mask of a hand for the fast path, or None (wild or repeated cards)."""
        try:
            m = sum(map(self._bit.__getitem__, hand))  # a carry (a repeated card) loses a bit
        except (KeyError, TypeError):
            raise _bad_cards(hand) from None
        if m & self._wildmask or m.bit_count() != len(hand) or not self._plain:
            return None
        return m

    def _state(self, hand: Iterable[int]) -> tuple[int, ...]:
        try:
            return tuple(sorted(_check_kind(c) for c in hand))
        except TypeError:
            raise _bad_cards(hand) from None

    def _canon(self, cards: Sequence[int]) -> tuple[int, ...]:
        m = self.match(cards)
        assert m is not None, cards
        return m.cards

    # ------------------------------------------------------------------ enumeration

    def _enumerate(
        self, counts: Counter[int], wilds: Sequence[int], first: int | None, greedy: bool,
        limit: int | None = None, only: int | None = None, most: int | None = None,
    ) -> set[tuple[int, ...]]:
        """Multisets of cards (sorted tuples) forming a meld of some kind, from ``counts``
        (naturals) and ``wilds``.  ``first``: only melds holding that natural card.
        ``greedy``: a meld with ``w`` wild cards takes the first ``w`` of ``wilds`` (sorted
        by value, highest first) instead of every distinct mix.  ``only``: of that kind
        number alone.  ``most``: the search stops once it has found that many (it may hold
        a few more: one shape's wild mixes, at most 2,000 by the loader's bound, are added
        together), always at the same point for the same cards.
        """
        out: set[tuple[int, ...]] = set()
        try:
            self._enumerate_into(out, counts, wilds, first, greedy, limit, only, most)
        except _Enough:  # (raised only with ``most``)
            pass
        return out

    def _enumerate_into(
        self, out: set[tuple[int, ...]], counts: Counter[int], wilds: Sequence[int],
        first: int | None, greedy: bool, limit: int | None, only: int | None,
        most: int | None,
    ) -> None:
        """:meth:`_enumerate`'s search, adding to ``out``; raises :class:`_Enough` once
        ``out`` holds ``most``."""
        stop = _INF if most is None else most
        if first == JOKER_KIND:
            return  # a joker that is not wild melds with nothing
        wc = Counter(wilds)
        nw = len(wilds)
        mix_memo: dict[int, list[tuple[int, ...]]] = {}

        def mixes(w: int) -> list[tuple[int, ...]]:
            if w not in mix_memo:
                if greedy:
                    mix_memo[w] = [tuple(wilds[:w])] if w <= nw else []
                else:
                    mix_memo[w] = _submultisets(wc, w)
            return mix_memo[w]

        for kind in self.kinds if only is None else (self.kinds[only],):
            maxw = min(kind.max_wilds, nw)
            top = kind.max_size if kind.max_size is not None else 1 << 20
            if kind.distinct_suits and kind.type == "set":  # of different suits: four at most
                top = min(top, 4)
            if kind.type == "set":
                ranks = (
                    [first >> 2] if first is not None
                    else sorted({c >> 2 for c in counts if c < 52})
                )
                for r in ranks:
                    avail = []
                    for s in range(4):
                        a = counts.get(r * 4 + s, 0)
                        if first is not None and r * 4 + s == first:
                            a -= 1
                        if first is not None and r * 4 + s < first:
                            a = 0
                        if kind.distinct_suits:
                            a = min(a, 1)
                            if first is not None and r * 4 + s == first:
                                a = 0
                        avail.append(a)
                    for xs in itertools.product(*(range(a + 1) for a in avail)):
                        if limit is not None and len(out) > limit:
                            raise TooManyMelds(f"more than {limit} melds")
                        nat = sum(xs) + (1 if first is not None else 0)
                        if nat == 0:
                            continue
                        base = tuple(
                            r * 4 + s for s in range(4) for _ in range(xs[s])
                        ) + ((first,) if first is not None else ())
                        for w in range(maxw + 1):
                            size = nat + w
                            if size > top:
                                break
                            if size < kind.min_size:
                                continue
                            for mix in mixes(w):
                                out.add(tuple(sorted(base + mix)))
                            if len(out) >= stop:
                                raise _Enough
                if kind.all_wild and first is None:
                    for w in range(max(1, kind.min_size), min(maxw, top) + 1):
                        for mix in mixes(w):
                            out.add(tuple(sorted(mix)))
                        if len(out) >= stop:
                            raise _Enough
                continue
            if kind.type == "flush" or kind.mixed_suits:
                self._enumerate_flexible(out, kind, counts, first, maxw, top, mixes, limit,
                                         stop)
                continue
            # runs
            longest = min(top, self._L)
            suits = (
                [first & 3] if first is not None else sorted({c & 3 for c in counts if c < 52})
            )
            if kind.wild_natural_in_place and nw:
                self._runs_in_place(kind, counts, wilds, first, greedy, maxw, longest, out,
                                    stop)
                if limit is not None and len(out) > limit:
                    raise TooManyMelds(f"more than {limit} melds")
                suits = []  # every run is listed; the all-wild ones below
            for s in suits:
                if first is not None:
                    windows = _windows_around(kind, first, counts, maxw, longest, self._L)
                else:
                    windows = _windows_with_naturals(kind, s, counts, maxw, longest, self._L)
                for slots in windows:
                    if limit is not None and len(out) > limit:
                        raise TooManyMelds(f"more than {limit} melds")
                    n = len(slots)
                    forced = []
                    free = []
                    fixed = []
                    for i, q in enumerate(slots):
                        k = q * 4 + s
                        if first is not None and k == first:
                            fixed.append(i)
                        elif counts.get(k, 0) and (first is None or k > first):
                            free.append(i)
                        else:
                            forced.append(i)
                    if len(forced) > maxw:
                        continue
                    for extra in range(0, min(maxw - len(forced), len(free)) + 1):
                        for comb in itertools.combinations(free, extra):
                            wild_slots = sorted(forced + list(comb))
                            if len(wild_slots) == n:
                                continue  # all wild: below
                            if not kind.wilds_adjacent and any(
                                b - a == 1 for a, b in itertools.pairwise(wild_slots)
                            ):
                                continue
                            ws = set(wild_slots)
                            base = tuple(
                                slots[i] * 4 + s for i in range(n) if i not in ws
                            )
                            for mix in mixes(len(wild_slots)):
                                out.add(tuple(sorted(base + mix)))
                            if len(out) >= stop:
                                raise _Enough
            if kind.all_wild and first is None and (kind.wilds_adjacent or kind.min_size <= 1):
                hi = min(maxw, longest) if kind.wilds_adjacent else min(maxw, longest, 1)
                for w in range(max(1, kind.min_size), hi + 1):
                    for mix in mixes(w):
                        out.add(tuple(sorted(mix)))
                    if len(out) >= stop:
                        raise _Enough

    def _enumerate_flexible(self, out: set[tuple[int, ...]], kind: MeldKind,
                            counts: Counter[int], first: int | None, maxw: int, top: int,
                            mixes: Callable[[int], list[tuple[int, ...]]],
                            limit: int | None, stop: int) -> None:
        """:meth:`_enumerate_into`'s melds of a flush, or of a run of mixed suits: with
        ``first``, those whose lowest natural card it is (each natural card above it, and
        more copies of it); every wild mix (``mixes``)."""

        def add(base: tuple[int, ...], w: int) -> None:
            if limit is not None and len(out) > limit:
                raise TooManyMelds(f"more than {limit} melds")
            for mix in mixes(w):
                out.add(tuple(sorted(base + mix)))
            if len(out) >= stop:
                raise _Enough

        def avail(c: int) -> int:
            a = counts.get(c, 0)
            if first is not None:
                a = 0 if c < first else a - 1 if c == first else a
            return a

        lead = () if first is None else (first,)
        if kind.type == "flush":
            suits = ([first & 3] if first is not None
                     else sorted({c & 3 for c in counts if c < 52 and counts[c]}))
            for s in suits:
                pool = [(c, avail(c)) for c in sorted(counts) if c < 52 and c & 3 == s]
                pool = [(c, a) for c, a in pool if a > 0]
                most_k = min(top - len(lead), sum(a for _, a in pool))
                for k in range(0 if lead else 1, most_k + 1):
                    for w in range(max(0, kind.min_size - len(lead) - k),
                                   min(maxw, top - len(lead) - k) + 1):
                        for sub in _lazy_submultisets(pool, k):
                            add(lead + sub, w)
            if kind.all_wild and first is None:
                for w in range(max(1, kind.min_size), min(maxw, top) + 1):
                    add((), w)
            return
        # a run of mixed suits: one card of each rank of a window, of any suit, or wild
        L = self._L
        lo_rank = None if first is None else first >> 2
        at_rank = [[first] if q == lo_rank else
                   [q * 4 + t for t in range(4) if avail(q * 4 + t) > 0] for q in range(L)]
        choices = [c if q == lo_rank or not maxw else c + [-1]  # -1: a wild card's place
                   for q, c in enumerate(at_rank)]
        reach = sum(1 for c in at_rank if c) + maxw  # the longest run these cards could make
        for n in range(kind.min_size, min(top, L, reach) + 1):
            for _low, slots in _windows(kind.ace, n, L):
                if lo_rank is not None and lo_rank not in slots:
                    continue
                if sum(1 for q in slots if not at_rank[q]) > maxw:
                    continue  # more places without a natural card than wild cards
                options = [choices[q] for q in slots]
                for pick in itertools.product(*options):
                    w = pick.count(-1)
                    if w > maxw or w == n:
                        continue
                    if not kind.wilds_adjacent and any(
                            a == b == -1 for a, b in itertools.pairwise(pick)):
                        continue
                    add(tuple(c for c in pick if c != -1), w)
        if kind.all_wild and first is None and (kind.wilds_adjacent or kind.min_size <= 1):
            hi = min(maxw, top, L) if kind.wilds_adjacent else min(maxw, top, L, 1)
            for w in range(max(1, kind.min_size), hi + 1):
                add((), w)

    def _runs_in_place(self, kind: MeldKind, counts: Counter[int], wilds: Sequence[int],
                       first: int | None, greedy: bool, maxw: int, longest: int,
                       out: set[tuple[int, ...]], stop: int = _INF) -> None:
        """:meth:`_enumerate`'s runs of a kind with ``wild_natural_in_place``: a slot is
        filled by its natural card, by the wild card that is that card (natural there), or
        by a wild card counted toward ``max_wilds`` (:class:`_Enough` once ``out`` holds
        ``stop``)."""
        wc = Counter(wilds)
        if first is not None:
            suits = [first & 3]
        else:
            suits = sorted({c & 3 for c in counts if c < 52} | {c & 3 for c in wc if c < 52})
        for s in suits:
            # a slot takes a natural card, a wild card in its own place, or a counted one
            fill = len({c >> 2 for c in counts if c < 52 and c & 3 == s}
                       | {c >> 2 for c in wc if c < 52 and c & 3 == s}) + maxw
            for n in range(kind.min_size, min(longest, fill) + 1):
                for _low, slots in _windows(kind.ace, n, self._L):
                    forced, free, own = [], [], []
                    has_first = False
                    for i, q in enumerate(slots):
                        k = q * 4 + s
                        if first is not None and k == first:
                            has_first = True
                        elif counts.get(k, 0) and (first is None or k > first):
                            free.append(i)
                        elif wc.get(k, 0):
                            own.append(i)
                        else:
                            forced.append(i)
                    if (first is not None and not has_first) or len(forced) > maxw:
                        continue
                    choosable = free + own
                    for extra in range(0, min(maxw - len(forced), len(choosable)) + 1):
                        for comb in itertools.combinations(choosable, extra):
                            ws = set(forced).union(comb)
                            if len(ws) == n:
                                continue  # all wild (counted): the all-wild melds
                            wild_slots = sorted(ws)
                            if not kind.wilds_adjacent and any(
                                b - a == 1 for a, b in itertools.pairwise(wild_slots)
                            ):
                                continue
                            base = tuple(slots[i] * 4 + s for i in range(n) if i not in ws)
                            used = [slots[i] * 4 + s for i in own if i not in ws]
                            left = wc - Counter(used)
                            w = len(wild_slots)
                            if greedy:
                                rest = list(wilds)
                                for c in used:
                                    rest.remove(c)
                                mixes = [tuple(rest[:w])] if w <= len(rest) else []
                            else:
                                mixes = _submultisets(left, w)
                            for mix in mixes:
                                out.add(tuple(sorted(base + mix)))
                            if len(out) >= stop:
                                raise _Enough

    def _general_melds(self, state: tuple[int, ...], limit: int | None = None,
                       most: int | None = None) -> tuple[tuple[int, ...], ...]:
        key = ("melds", state, most)
        hit = self._melds_memo.get(key)
        if hit is None:
            wild = self.wild_kinds
            counts = Counter(c for c in state if c not in wild)
            wl = [c for c in state if c in wild]
            found = self._enumerate(counts, wl, None, False, limit, most=most)
            if most is not None and len(found) > most:
                found = sorted(found)[:most]
            hit = tuple(sorted({self._canon(m) for m in found}))
            if len(self._melds_memo) > _MEMO_LIMIT:
                self._melds_memo.clear()
            self._melds_memo[key] = hit
        return hit

    # ------------------------------------------------------------------ general search

    def _general_min(self, state: tuple[int, ...]) -> int:
        """Least deadwood of any sorted hand: a hand without wild cards by the mask or
        packed-count search, a large one under deadwood budgets, else :meth:`_gdw`."""
        r = self._natural_min(state)
        if r is not None:
            return r
        if len(state) > _BIG_HAND and self._floor is not None and self._plain:
            return self._least(state)
        return self._gdw(state)[0]

    def _natural_min(self, state: tuple[int, ...], budget: int = _INF) -> int | None:
        """Least deadwood of a sorted hand without wild cards (the mask search when no
        card repeats, else packed counts); None with a wild card or past 7 copies.  With
        a ``budget`` (no card worth less than 0) it is as :meth:`_within`'s answer."""
        mask = self._mask(state)
        if mask is not None:
            return self._mask_least(mask, budget)
        if self.wild_kinds.intersection(state) or not self._plain:
            return None
        return self._packed_min(state, budget)

    def _mask_least(self, mask: int, budget: int = _INF) -> int:
        """Least deadwood of the natural cards of ``mask``; with a ``budget`` (no card
        worth less than 0), as :meth:`_within`'s answer."""
        if budget < _INF:
            return self._dw_within(mask, budget)
        r = self._memo.get(mask)
        return self._top(mask) if r is None else r

    def _natural_meldable(self, naturals: Sequence[int]) -> tuple[int, int]:
        """(the kinds among ``naturals``, those of them that may lie in a meld of them) as
        masks: the fast path's test, which a card in no meld never passes, widened to the
        sets of one suit from several decks."""
        bit = self._bit
        present = 0
        for c in naturals:
            present |= bit[c]
        mm = self._meldable(present)
        if self._multi_set_min is not None and len(naturals) != present.bit_count():
            totals = Counter(c >> 2 for c in naturals if c < 52)
            for r, t in totals.items():
                if t >= self._multi_set_min:
                    mm |= present & (15 << (4 * r))
        return present, mm

    def _packed_min(self, state: tuple[int, ...], budget: int = _INF) -> int | None:
        """Least deadwood of a hand of natural cards, repeated ones included: the
        lowest-card search of the fast path over counts packed 4 bits a kind (a guard bit
        makes "this meld lies within the hand" one subtraction).  None past 7 copies.
        Past a ``budget`` (no card worth less than 0) perhaps only the value of the cards
        in no meld, the search skipped."""
        if not state:
            return 0
        counts = Counter(state)
        copies = max(counts.values())
        if copies > 7:
            return None
        mm = self._natural_meldable(state)[1]
        values = self.values
        dead = 0
        packed = 0
        for c in state:
            if mm >> c & 1:
                packed += 1 << (4 * c)
            else:
                dead += values[c]
        if dead > budget:
            return dead
        return dead + self._packed_search(copies)(packed)

    def _packed_search(self, copies: int) -> Callable[[int], int]:
        """The memoised search over packed counts, with meld patterns for up to ``copies``
        copies of a kind (built once per number of copies; the memo is shared, since a
        pattern needing more copies than a hand holds never fits it)."""
        fn = self._packed_fns.get(copies)
        if fn is not None:
            return fn
        wild = self.wild_kinds
        pats: dict[int, tuple[int, ...]] = {}
        for t in _natural_melds(self.kinds, wild, self._L):
            pats.setdefault(sum(1 << (4 * c) for c in t), t)
        for kind in self.kinds:
            if kind.type != "set" or kind.distinct_suits or copies < 2:
                continue
            top = kind.max_size if kind.max_size is not None else 4 * copies
            for r in range(self._L):
                suits = [s for s in range(4) if r * 4 + s not in wild]
                for xs in itertools.product(range(copies + 1), repeat=len(suits)):
                    if kind.min_size <= sum(xs) <= top:
                        t = tuple(
                            r * 4 + s for s, x in zip(suits, xs, strict=True) for _ in range(x)
                        )
                        pats.setdefault(sum(1 << (4 * c) for c in t), t)
        by_low: list[list[int]] = [[] for _ in range(N_KINDS)]
        for packed, t in sorted(pats.items(), key=lambda item: item[1]):
            by_low[min(t)].append(packed)
        by_low_t = tuple(tuple(lst) for lst in by_low)
        memo = self._packed_memo
        values = self.values
        guard = _GUARD

        def search(h: int) -> int:
            r = memo.get(h)
            if r is not None:
                return r
            k = ((h & -h).bit_length() - 1) >> 2
            one = 1 << (4 * k)
            best = values[k] + search(h - one)
            hg = h | guard
            for p in by_low_t[k]:
                if (hg - p) & guard == guard:
                    v = search(h - p)
                    if v < best:
                        best = v
            if len(memo) > _MEMO_LIMIT:
                memo.clear()
                memo[0] = 0
            memo[h] = best
            return best

        self._packed_fns[copies] = search
        return search

    def _gdw(self, state: Cards) -> tuple[int, Choice]:
        """(least deadwood, first choice) of a sorted hand; exact for any hand."""
        memo = self._gen_memo
        hit = memo.get(state)
        if hit is not None:
            return hit
        self._check_arrangeable(state)
        values = self.values
        wild = self.wild_kinds
        naturals = [c for c in state if c not in wild]
        if len(state) > _BIG_HAND and naturals and self._floor is not None and self._plain:
            res = self._gdw_bounded(state, naturals)
        elif not naturals:
            res = self._wild_only(state)
        else:
            c = naturals[0]
            wl = sorted((w for w in state if w in wild), key=lambda x: (-values[x], x))
            best: tuple[int, Choice] | None = None
            floor = self._floor
            for meld in self._melds_holding(c, naturals, wl):
                v = self._gdw(_remove(state, meld))[0]
                if best is None or v < best[0]:
                    best = (v, ("meld", meld))
                    if v == floor:
                        break  # nothing does better: the first best choice
            if best is None or best[0] != floor:
                v = values[c] + self._gdw(_remove(state, (c,)))[0]
                if best is None or v < best[0]:
                    best = (v, ("dead", (c,)))
            res = best
        if len(memo) > _MEMO_LIMIT:
            memo.clear()
        memo[state] = res
        return res

    def _options(self, state: Cards, naturals: list[int]) -> list[tuple[int, Choice]]:
        """:meth:`_gdw`'s choices for the lowest natural card, in its order, each with the
        deadwood it adds: every meld holding it (0), then the card left dead."""
        c = naturals[0]
        values = self.values
        wl = sorted((w for w in state if w in self.wild_kinds), key=lambda x: (-values[x], x))
        out: list[tuple[int, Choice]] = [(0, ("meld", m))
                                         for m in self._melds_holding(c, naturals, wl)]
        out.append((values[c], ("dead", (c,))))
        return out

    def _gdw_bounded(self, state: Cards, naturals: list[int]) -> tuple[int, Choice]:
        """:meth:`_gdw` of a large hand (no card worth less than 0): the least deadwood
        under budgets (:meth:`_least`), then the first choice, in :meth:`_gdw`'s order,
        that reaches it."""
        least = self._general_min(state)
        for cost, choice in self._options(state, naturals):
            left = least - cost
            if left >= 0 and self._within(_remove(state, choice[1]), left) <= left:
                return least, choice
        raise AssertionError("no choice reaches the least deadwood")  # pragma: no cover

    def _least(self, state: Cards) -> int:
        """Least deadwood of a hand (no card worth less than 0) by searches under a
        budget (:meth:`_within`): a first arrangement, then ever lower budgets, each below
        the last arrangement found, until one fails.  Only that last search must look at
        all it could, and bounds prune it: the 40-card rummy 500 hand whose plain search
        went through 648,000 sub-hands now searches 14 hands with wild cards and some
        2,300 of natural cards."""
        lo, hi = self._known(state, _INF)
        if hi == _INF:
            hi = self._within(state, sum(self.values[c] for c in state))  # all dead fits
        while lo < hi:
            r = self._within(state, hi - 1)
            if r < hi:
                hi = r
            else:
                lo = r
        return lo

    def _within(self, state: Cards, budget: int) -> int:
        """The deadwood of some arrangement of ``state`` if one is within ``budget``, else
        a bound above ``budget`` that none goes below (no card worth less than 0); the
        bounds learnt are memoised for each hand: ``lo <= least <= hi``."""
        lo, hi = self._known(state, budget)
        if hi <= budget:
            return hi
        if lo > budget:
            return lo
        r = self._search(state, budget)
        memo = self._fit_memo
        if len(memo) > _MEMO_LIMIT:
            memo.clear()
        memo[state] = (lo, r) if r <= budget else (r, hi)
        return r

    def _search(self, state: Cards, budget: int) -> int:
        """:meth:`_within` of a hand with wild cards (or past 7 copies) that its bounds
        leave open.  The choices whose rest holds no wild card come first: the natural-card
        searches answer them at once.  The others' rests are searched only if their bounds
        (:meth:`_known`) leave room.  If all fail, the least any of them could reach."""
        naturals = [c for c in state if c not in self.wild_kinds]
        wilds = len(state) - len(naturals)
        present, mm = self._natural_meldable(naturals)
        distinct = present.bit_count() == len(naturals)  # then a rest's naturals: a mask
        alone = present ^ mm  # in no meld of naturals here, nor in any rest
        least = _INF
        later = []
        for cost, (_, cards) in self._branches(state, naturals, alone):
            left = budget - cost
            if left < 0:
                least = min(least, cost)
                continue
            bits, used = self._meld_bits(cards)
            if used < wilds:
                later.append((left, cost, cards))
                continue
            if distinct:
                r = self._valsum(alone & ~bits)  # a bound before the search
                if r <= left:
                    r = self._mask_least(present ^ bits, left)
            else:
                r = self._within(_remove(state, cards), left)
            if r <= left:
                return cost + r
            least = min(least, cost + r)
        open_ = []
        for left, cost, cards in later:
            rest = _remove(state, cards)
            rlo, rhi = self._known(rest, left)
            if rhi <= left:
                return cost + rhi
            if rlo > left:
                least = min(least, cost + rlo)
            else:
                open_.append((left, cost, rest))
        for left, cost, rest in open_:
            r = self._within(rest, left)
            if r <= left:
                return cost + r
            least = min(least, cost + r)
        return least

    def _branches(self, state: Cards, naturals: list[int], alone: int
                  ) -> list[tuple[int, Choice]]:
        """The choices :meth:`_search` branches on, each with the deadwood it adds.  When
        natural cards lie in no meld of naturals (``alone``), the most valuable of them:
        the melds holding it (each spends wild cards, so few choices and short paths) or
        it dead.  Else, as :meth:`_gdw`, the lowest card's.  A meld takes the most
        valuable wild cards left: some best arrangement does so for any meld, as wild
        cards are alike in melds — but not where a run reads one in its place as natural,
        which keeps :meth:`_gdw`'s order (its proven choices)."""
        if not alone or len(naturals) == len(state) or self._in_place:
            return self._options(state, naturals)
        values = self.values
        x = max((c for c in naturals if alone >> c & 1), key=lambda c: (values[c], -c))
        wl = sorted((w for w in state if w in self.wild_kinds), key=lambda w: (-values[w], w))
        out: list[tuple[int, Choice]] = [(0, ("meld", m))
                                         for m in self._melds_around(x, naturals, wl)]
        out.append((values[x], ("dead", (x,))))
        return out

    def _melds_around(self, x: int, naturals: list[int], wl: list[int]
                      ) -> tuple[tuple[int, ...], ...]:
        """Every meld holding the natural card ``x``, wild cards taken highest value first,
        memoised by the cards of its rank and suit and the wild cards: what
        :meth:`_enumerate` lists from each card up to ``x`` that could share a meld with
        it, given only the cards of its rank (for a set) or of its suit (for a run)."""
        if x == JOKER_KIND:
            return ()  # a joker that is not wild melds with nothing
        r, s = x >> 2, x & 3
        same = tuple(c for c in naturals if c >> 2 == r or c & 3 == s)
        key = ("around", x, same, tuple(wl[: self._most_wilds]), len(wl))
        memo = self._melds_memo
        hit = memo.get(key)
        if hit is None:
            counts = Counter(same)
            of_rank = Counter(c for c in same if c >> 2 == r)
            of_suit = Counter(c for c in same if c & 3 == s)
            found: set[tuple[int, ...]] = set()
            for c in sorted(counts):
                if c > x:
                    break
                near = counts if c == x else of_rank if c >> 2 == r else of_suit
                found.update(m for m in self._enumerate(near, wl, c, True) if x in m)
            hit = tuple(sorted(found))
            if len(memo) > _MEMO_LIMIT:
                memo.clear()
            memo[key] = hit
        return hit

    def _meld_bits(self, cards: Cards) -> tuple[int, int]:
        """(the natural kinds of ``cards`` as a mask, how many of them are wild)."""
        memo = self._melds_memo
        key = ("bits", cards)
        hit = memo.get(key)
        if hit is None:
            wild = self.wild_kinds
            bit = self._bit
            hit = (sum({bit[c] for c in cards if c not in wild}),
                   sum(c in wild for c in cards))
            if len(memo) > _MEMO_LIMIT:
                memo.clear()
            memo[key] = hit
        return hit

    def _known(self, state: Cards, budget: int) -> tuple[int, int]:
        """Bounds ``lo <= least <= hi`` on the least deadwood of ``state`` (no card worth
        less than 0) known without a search of it: a hand without wild cards answers at
        once (under ``budget``, see :meth:`_within`), one of wild cards only is exact, any
        other as memoised, else from :meth:`_bound`."""
        r = self._natural_min(state, budget)
        if r is not None:
            return (0, r) if r <= budget else (r, _INF)
        memo = self._fit_memo
        hit = memo.get(state)
        if hit is None:
            naturals = [c for c in state if c not in self.wild_kinds]
            if naturals:
                hit = (self._bound(naturals, len(state) - len(naturals)), _INF)
            else:
                v = self._wild_only(state)[0]
                hit = (v, v)
            if len(memo) > _MEMO_LIMIT:
                memo.clear()
            memo[state] = hit
        return hit

    def _bound(self, naturals: list[int], wilds: int) -> int:
        """A deadwood no arrangement goes below (no card worth less than 0): a natural
        card in no meld of naturals is dead unless a meld with a wild card holds it, and
        the ``wilds`` wild cards make at most that many melds, each within one rank (a
        set) or one suit (a run) — so all but the most valuable ``wilds`` of those ranks
        and suits stay dead."""
        present, mm = self._natural_meldable(naturals)
        if present == mm:
            return 0
        values = self.values
        dead = 0
        groups = [0] * 17  # what lies in no meld, by rank (13 at most), then by suit
        for c in naturals:
            if not mm >> c & 1:
                v = values[c]
                dead += v
                if c != JOKER_KIND:
                    groups[c >> 2] += v
                    groups[13 + (c & 3)] += v
        if wilds:
            groups.sort()
            dead -= sum(groups[-wilds:])
        return max(dead, 0)

    def _melds_holding(
        self, c: int, naturals: list[int], wl: list[int]
    ) -> tuple[tuple[int, ...], ...]:
        """The melds holding the lowest natural card ``c`` (wild cards taken highest value
        first), memoised by what they depend on: the cards of ``c``'s rank and suit, and
        the wild cards a meld could take."""
        same = self._near(c, naturals)
        key = (c, same, tuple(wl) if self._in_place else tuple(wl[: self._most_wilds]),
               len(wl))
        return self._enumerated(key, same, wl, c, True)

    def _check_arrangeable(self, state: Cards) -> None:
        """Raise :class:`TooManyMelds` for a hand past :attr:`arrange_limit`."""
        if self.arrange_limit is not None and len(state) > self.arrange_limit:
            raise TooManyMelds(f"a hand of {len(state)} cards is not arranged: with a flush or "
                               f"a run of mixed suits the search takes at most "
                               f"{self.arrange_limit}")

    def _near(self, c: int, naturals: Sequence[int]) -> tuple[int, ...]:
        """The natural cards a meld holding ``c`` may take: those sharing its rank or suit,
        or all of them where a flush or a run of mixed suits may hold any."""
        return _sharing_rank_or_suit(c, naturals) if self._plain else tuple(naturals)

    def _every_meld_holding(self, near: Sequence[int], card: int, most: int | None = None
                            ) -> list[tuple[int, ...]]:
        """:func:`melds_holding` for a natural ``card`` among ``near``, the cards that could
        share a meld with it: on the fast path ``melds_in(near)`` filtered; else (wild or
        repeated cards) only the melds whose lowest natural card is one of ``near``'s up to
        ``card`` (what :meth:`_enumerate` lists from each) are enumerated, every wild mix,
        canonical and memoised (with ``most``, the first that many found)."""
        mask = self._mask(near)
        if mask is not None:
            tuple_of = self._tuple_of
            return [m for m in map(tuple_of.__getitem__, self._fast_melds(mask))
                    if card in m][:most]
        state = self._state(near)
        key = ("holding", state, card, most)
        memo = self._melds_memo
        hit = memo.get(key)
        if hit is None:
            wild = self.wild_kinds
            counts = Counter(c for c in state if c not in wild)
            wl = [c for c in state if c in wild]
            found: set[tuple[int, ...]] = set()
            for c in sorted(counts):
                if c > card or (most is not None and len(found) >= most):
                    break
                found.update(m for m in self._enumerate(counts, wl, c, False, most=most)
                             if card in m)
            if most is not None and len(found) > most:
                found = set(sorted(found)[:most])
            hit = tuple(sorted({self._canon(m) for m in found}))
            if len(memo) > _MEMO_LIMIT:
                memo.clear()
            memo[key] = hit
        return list(hit)

    def _wild_only(self, state: Cards) -> tuple[int, Choice]:
        """Wild cards alone: meld the most valuable ones in all-wild melds if allowed."""
        if not state:
            return (0, ("dead", ()))
        n = len(state)
        sizes: set[int] = set()
        for kind in self.kinds:
            if not kind.all_wild:
                continue
            top = min(kind.max_wilds, kind.max_size or n, n)
            if kind.type == "run":
                top = min(top, self._L) if kind.wilds_adjacent else min(top, 1)
            sizes.update(range(kind.min_size, top + 1))
        values = self.values
        order = sorted(state, key=lambda x: (-values[x], x))
        reach = {0}
        for total in range(1, n + 1):
            if any(total - s in reach for s in sizes if s <= total):
                reach.add(total)
        k = max(reach)
        if k == 0:
            return (sum(values[c] for c in state), ("dead", state))
        for s in sorted(sizes, reverse=True):
            if s <= k and (k - s) in reach:
                return (
                    sum(values[c] for c in order[k:]),
                    ("meld", tuple(sorted(order[:s]))),
                )
        raise AssertionError("unreachable")  # pragma: no cover

    # ------------------------------------------------------------------ fast path

    def _compile_fast(self) -> None:
        """Tables for hands of distinct natural cards: every natural meld of one deck as a
        mask, grouped by its lowest card, and the memoised deadwood search over masks."""
        L = self._L
        plain = tuple(k for k in self.kinds if k.type in ("set", "run") and not k.mixed_suits)
        melds = _natural_melds(plain, self.wild_kinds, L)
        self._tuple_of: dict[int, tuple[int, ...]] = {}
        by_low: list[list[int]] = [[] for _ in range(N_KINDS)]
        for t in melds:
            mask = sum(1 << c for c in t)
            if mask not in self._tuple_of:
                self._tuple_of[mask] = t
                by_low[min(t)].append(mask)
        # order within a lowest card: by tuple, so results and arrangements are deterministic
        by_low_t = tuple(tuple(sorted(lst, key=self._tuple_of.__getitem__)) for lst in by_low)
        self._by_low = by_low_t
        values = self.values
        val_of_bit = {1 << k: values[k] for k in range(N_KINDS)}
        self._val_of_bit = val_of_bit

        set_mins = [k.min_size for k in plain if k.type == "set" and k.min_size <= 4]
        run_kinds = [
            (k.ace, k.min_size) for k in plain if k.type == "run" and k.min_size <= L
        ]
        full = (1 << (4 * L)) - 1  # the cards of the L ranks (not the joker)
        top_shift = 4 * L  # an ace above the top rank (or a run round the corner)
        set_add = tuple((4 - m) * _NIB for m in sorted(set(set_mins)))
        # each run kind: how its aces stand (0 low, 1 high, 2 both, 3 around) and the
        # shifts from a run's lowest card to its other cards
        runs = tuple((_ACE_MODES.index(ace), tuple(range(4, 4 * k, 4)))
                     for ace, k in sorted(set(run_kinds)))
        last = (-1, 0)  # the last mask asked and its answer, replaced whole (the knock
        # test and then the observation ask of one hand in turn)

        def meldable(mask: int) -> int:
            """Cards of ``mask`` that lie in some natural meld within ``mask``."""
            nonlocal last
            kept = last
            if kept[0] == mask:
                return kept[1]
            m = mask & full
            out = 0
            if set_add:
                cnt = (m & _NIB) + ((m >> 1) & _NIB) + ((m >> 2) & _NIB) + ((m >> 3) & _NIB)
                for add in set_add:
                    out |= m & ((((cnt + add) >> 2) & _NIB) * 15)
            for ace, shifts in runs:
                if ace == 0:  # low
                    e = m
                elif ace == 1:  # high
                    e = (m & ~_ACES) | ((m & _ACES) << top_shift)
                elif ace == 2:  # both
                    e = m | ((m & _ACES) << top_shift)
                else:  # around
                    e = m | (m << top_shift)
                st = e
                for i in shifts:
                    st &= e >> i
                if st:
                    cov = st
                    for i in shifts:
                        cov |= st << i
                    out |= (cov | (cov >> top_shift)) & m
            last = (mask, out)
            return out

        self._meldable = meldable
        memo: dict[int, int] = {0: 0}
        memo1: dict[int, int] = {0: _INF}

        nonneg = min(values) >= 0  # then no deadwood is below 0: the search may stop there

        def dw(mask: int) -> int:
            r = memo.get(mask)
            if r is not None:
                return r
            low = mask & -mask
            lowest = val_of_bit[low]
            best = _INF
            for m in by_low_t[low.bit_length() - 1]:  # the lowest card melded …
                if m & mask == m:
                    v = dw(mask ^ m)
                    if v < best:
                        best = v
                        if not v and nonneg:
                            break
            if best > lowest or not nonneg:  # … or dead: it costs its value at least
                v = lowest + dw(mask ^ low)
                if v < best:
                    best = v
            if len(memo) > _MEMO_LIMIT:
                memo.clear()
                memo[0] = 0
            memo[mask] = best
            return best

        # seven lookups instead of a loop over the cards (the observation and the knock
        # test ask for a new hand's deadwood at every decision)
        (s0, s1, s2, s3, s4, s5, s6), (h0, h1, h2, h3, h4, h5, h6) = _byte_tables(values)

        def valsum(mask: int) -> int:
            """The total value of the cards of ``mask``."""
            return (s0[mask & 255] + s1[mask >> 8 & 255] + s2[mask >> 16 & 255]
                    + s3[mask >> 24 & 255] + s4[mask >> 32 & 255] + s5[mask >> 40 & 255]
                    + s6[mask >> 48])

        def top(mask: int) -> int:
            r = memo.get(mask)
            if r is not None:
                return r
            mm = meldable(mask)
            r = valsum(mask ^ mm) + dw(mm) if mm else valsum(mask)
            if len(memo) > _MEMO_LIMIT:
                memo.clear()
                memo[0] = 0
            memo[mask] = r
            return r

        def dw1(mask: int) -> int:
            """Least deadwood after discarding exactly one card (INF for no card)."""
            r = memo1.get(mask)
            if r is not None:
                return r
            low = mask & -mask
            rest = mask ^ low
            best = dw(rest)
            v = val_of_bit[low] + dw1(rest)
            if v < best:
                best = v
            for m in by_low_t[low.bit_length() - 1]:
                if m & mask == m:
                    v = dw1(mask ^ m)
                    if v < best:
                        best = v
            if len(memo1) > _MEMO_LIMIT:
                memo1.clear()
                memo1[0] = _INF
            memo1[mask] = best
            return best

        def sum_top(mask: int) -> tuple[int, int]:
            """The total value of the cards of ``mask`` and the highest single value (at
            least 0)."""
            b0, b1, b2, b3 = mask & 255, mask >> 8 & 255, mask >> 16 & 255, mask >> 24 & 255
            b4, b5, b6 = mask >> 32 & 255, mask >> 40 & 255, mask >> 48
            return (s0[b0] + s1[b1] + s2[b2] + s3[b3] + s4[b4] + s5[b5] + s6[b6],
                    max(h0[b0], h1[b1], h2[b2], h3[b3], h4[b4], h5[b5], h6[b6]))

        def top_discard(mask: int) -> int:
            key = mask | (1 << 60)
            r = memo.get(key)
            if r is not None:
                return r
            if not mask:
                raise ValueError("min_deadwood(discard=True) needs a hand of at least one card")
            mm = meldable(mask)
            dead = mask ^ mm
            best = _INF
            if dead:
                s, hi = sum_top(dead)
                best = s - hi + dw(mm)
                if mm:
                    v = s + dw1(mm)
                    if v < best:
                        best = v
            else:
                best = dw1(mm)
            if len(memo) > _MEMO_LIMIT:
                memo.clear()
                memo[0] = 0
            memo[key] = best
            return best

        bounds: dict[int, tuple[int, int]] = {}  # mask -> (lo, hi) around its deadwood

        def dw_within(mask: int, budget: int) -> int:
            """top(mask) if at most ``budget``, else a bound above it (no card worth less
            than 0), as MeldRules._within: dw's lowest-card search, each hand first rid
            of its cards in no meld (their value a bound), cut short by the budget."""
            r = memo.get(mask)
            if r is not None:
                return r
            lo, hi = bounds.get(mask, (0, _INF))
            if hi <= budget:
                return hi
            if lo > budget:
                return lo
            mm = meldable(mask)
            dead = valsum(mask ^ mm)
            if dead > budget or not mm:
                lo = dead
                if not mm:
                    hi = dead
            else:
                left = budget - dead
                low = mm & -mm
                least = _INF
                for m in by_low_t[low.bit_length() - 1]:
                    if m & mm == m:
                        r = dw_within(mm ^ m, left)
                        if r <= left:
                            hi = dead + r
                            break
                        least = min(least, r)
                else:
                    v = val_of_bit[low]
                    r = v + dw_within(mm ^ low, left - v) if v <= left else v
                    if r <= left:
                        hi = dead + r
                    else:
                        lo = dead + min(least, r)
            old_lo, old_hi = bounds.get(mask, (0, _INF))
            lo, hi = max(lo, old_lo), min(hi, old_hi)
            if len(bounds) > _MEMO_LIMIT:
                bounds.clear()
            bounds[mask] = (lo, hi)
            if lo == hi:  # found exactly: the plain searches may use it
                if len(memo) > _MEMO_LIMIT:
                    memo.clear()
                    memo[0] = 0
                memo[mask] = lo
            return hi if hi <= budget else lo

        self._dw_within = dw_within
        self._mask_bounds = bounds
        self._memo = memo
        self._memo1 = memo1
        self._packed_memo: dict[int, int] = {0: 0}
        self._packed_fns: dict[int, Callable[[int], int]] = {}
        multi = [k.min_size for k in self.kinds if k.type == "set" and not k.distinct_suits]
        self._multi_set_min = min(multi) if multi else None
        self._dw = dw
        self._top = top
        self._top_discard = top_discard
        self._sum_top = sum_top
        self._valsum = valsum

    def _fast_melds(self, mask: int) -> tuple[int, ...]:
        """Masks of the natural melds inside ``mask``, sorted by their tuples."""
        memo = self._melds_memo
        hit = memo.get(mask)
        if hit is None:
            mm = self._meldable(mask)
            found = []
            by_low = self._by_low
            while mm:
                low = mm & -mm
                mm ^= low
                for m in by_low[low.bit_length() - 1]:
                    if m & mask == m:
                        found.append(m)
            hit = tuple(sorted(found, key=self._tuple_of.__getitem__))
            if len(memo) > _MEMO_LIMIT:
                memo.clear()
            memo[mask] = hit
        return hit

    def _fast_arrangement(self, mask: int, melds: list[tuple[int, ...]]) -> list[int]:
        dw = self._dw
        mm = self._meldable(mask)
        dead = [c for c in range(N_KINDS) if (mask ^ mm) >> c & 1]
        cur = mm
        while cur:
            target = dw(cur)
            low = cur & -cur
            c = low.bit_length() - 1
            for m in self._by_low[c]:
                if m & cur == m and dw(cur ^ m) == target:
                    melds.append(self._tuple_of[m])
                    cur ^= m
                    break
            else:
                dead.append(c)
                cur ^= low
        return dead

    def _openspiel(self, mask: int) -> int:
        """OpenSpiel's MinDeadwood for a hand of hand_size + 1 cards: the first
        maximum-value meld group in its order of melds, less its highest-ranked deadwood
        card (clubs … spades ranked s < c < d < h within a rank, as OpenSpiel orders them)."""
        key = mask | (1 << 61)
        memo = self._melds_memo
        hit: int | None = memo.get(key)
        if hit is not None:
            return hit
        mm = self._meldable(mask)
        dead_fixed = mask ^ mm
        total_dw = self._top(mask)
        hi_fixed = _os_top(dead_fixed)
        top_melded = _os_top(mm)
        if top_melded is None or (
            hi_fixed is not None and _os_key(hi_fixed) > _os_key(top_melded)
        ):
            dropped = hi_fixed  # the highest deadwood card whatever the arrangement
        else:
            used = 0
            for g in self._openspiel_group(mm):
                used |= g
            dropped = _os_top(dead_fixed | (mm & ~used))
        res = total_dw - (self.values[dropped] if dropped is not None else 0)
        if len(memo) > _MEMO_LIMIT:
            memo.clear()
        memo[key] = res
        return res

    def _openspiel_group(self, mm: int) -> list[int]:
        """The first maximum-value set of disjoint melds in OpenSpiel's AllMelds order
        (four-card sets, then the other sets by rank, then runs longest first, by suit in
        OpenSpiel's order s, c, d, h, then by rank)."""
        melds = list(self._fast_melds(mm))
        counts: dict[int, int] = {}
        for c in range(52):
            if mm >> c & 1:
                counts[c >> 2] = counts.get(c >> 2, 0) + 1

        def os_suit(c: int) -> int:
            return ((c & 3) + 1) & 3

        def order(m: int) -> tuple[int, ...]:
            t = self._tuple_of[m]
            if t[0] >> 2 == t[-1] >> 2:  # a set
                r = t[0] >> 2
                if len(t) == 4:
                    return (0, r, 0)
                if counts.get(r) == 4:
                    present = sorted(os_suit(c) for c in t)
                    missing = ({0, 1, 2, 3} - set(present)).pop()
                    # sorted a < b < c < d; sweeps give abcd, abd, acd, then abc, bcd
                    return {2: (0, r, 1), 1: (0, r, 2), 3: (1, r, 0), 0: (1, r, 1)}[missing]
                return (1, r, len(t))
            return (2, -len(t), os_suit(t[0]), self._tuple_of[m][0] >> 2)

        melds.sort(key=order)
        values = self.values
        mval = [sum(values[c] for c in self._tuple_of[m]) for m in melds]
        target = self._valsum(mm) - self._dw(mm)
        valsum = self._valsum
        path: list[int] = []

        def dfs(start: int, used: int, value: int) -> bool:
            if value == target:
                return True
            if value + valsum(mm & ~used) < target:
                return False
            for j in range(start, len(melds)):
                m = melds[j]
                if not m & used:
                    path.append(m)
                    if dfs(j + 1, used | m, value + mval[j]):
                        return True
                    path.pop()
            return False

        dfs(0, 0, 0)
        return path


class RankOrder(_ByDefinition):
    """Meld rules whose runs move through a rank order of the pack's own: ``order`` lists
    the ranks lowest first (rank numbers, ace ``0`` … king ``12``), and ranks next to each
    other in it are adjacent — a deck stripped of 8, 9 and 10 may run ``6H 7H JH``.  The
    first rank of the order stands where each run kind's ``ace`` says (low, or above the
    last rank too); a card of a rank the order leaves out is no card of this deck (a
    ``ValueError``).

    It answers every question :class:`MeldRules` answers, with the same arguments: it
    plays a :class:`MeldRules` whose kinds are positions in the order (``position * 4 +
    suit``) and translates the cards in and out.  A run's :attr:`Match.low` and ``high``
    are positions in the order: :meth:`rank_at` names their ranks.

    >>> from meldkit._cards import kind_of_code as k
    >>> forty = RankOrder([MeldKind("set", "set"), MeldKind("run", "run", max_wilds=1)],
    ...                   wild_kinds=[52], order=[0, 1, 2, 3, 4, 5, 6, 10, 11, 12])
    >>> m = forty.match([k("JH"), k("6H"), k("7H")])
    >>> meld_code(m.cards), forty.rank_at(m.low), forty.rank_at(m.high)
    ('6H 7H JH', 5, 10)
    >>> meld_code(forty.can_add(m, k("5H")).cards), forty.match([k("QH"), k("AH"), k("KH")])
    ('5H 6H 7H JH', None)
    >>> meld_code(forty.match([k("7H"), k("JK"), k("QH")]).cards)   # the joker is the jack
    '7H JK QH'
    """

    def __init__(self, kinds: Sequence[MeldKind], wild_kinds: Iterable[int] = (),
                 values: Sequence[int] | None = None, *, order: Sequence[int]) -> None:
        order = tuple(order)
        if not order or any(type(r) is not int or not 0 <= r <= 12 for r in order) or len(
                set(order)) != len(order):
            raise ValueError(f"'order' must list distinct ranks 0 … 12 (got {order!r})")
        self.order: tuple[int, ...] = order
        """The ranks runs move through, lowest first."""
        self._pos = {r: i for i, r in enumerate(order)}
        to_v: list[int | None] = [None] * N_KINDS
        from_v: list[int] = [JOKER_KIND] * N_KINDS
        for kind in range(52):
            p = self._pos.get(kind >> 2)
            if p is not None:
                to_v[kind] = p * 4 + (kind & 3)
                from_v[p * 4 + (kind & 3)] = kind
        to_v[JOKER_KIND] = JOKER_KIND
        self._to_v, self._from_v = to_v, from_v
        self.wild_kinds: frozenset[int] = frozenset(_check_kind(w) for w in wild_kinds)
        if values is None:
            values = default_values()
        self.values: tuple[int, ...] = tuple(values)
        if len(self.values) != N_KINDS or any(type(v) is not int for v in self.values):
            raise ValueError(
                f"'values' must be {N_KINDS} ints, one per kind 0 … 52 (got {len(self.values)} "
                "items)")
        plain = [0] * N_KINDS
        for kind, v in enumerate(to_v):
            if v is not None:
                plain[v] = self.values[kind]
        self._engine = MeldRules(kinds, [to_v[w] for w in self.wild_kinds if to_v[w] is not None],
                                 plain, n_ranks=len(order))
        self.kinds: tuple[MeldKind, ...] = self._engine.kinds
        self.arrange_limit: int | None = self._engine.arrange_limit
        """:attr:`MeldRules.arrange_limit`."""

    # ------------------------------------------------------------------ translation
    def _v(self, cards: Iterable[int]) -> tuple[int, ...]:
        to_v = self._to_v
        try:
            out = tuple(to_v[_check_kind(c)] for c in cards)
        except TypeError:
            raise _bad_cards(cards) from None
        if None in out:
            bad = next(c for c in cards if to_v[c] is None)
            raise ValueError(f"{card_code(bad)} is of a rank this order leaves out "
                             f"(order: {' '.join(card_code(r * 4)[:-1] for r in self.order)})")
        return out  # type: ignore[return-value]

    def _real(self, cards: Iterable[int]) -> tuple[int, ...]:
        from_v = self._from_v
        return tuple(from_v[c] for c in cards)

    def _out(self, m: Match | None) -> Match | None:
        if m is None:
            return None
        cards = self._real(m.cards)
        if m.suit >= 0 or m.rank < 0:  # a run (positions stay), or all wild
            return Match(m.kind, cards, m.rank, m.suit, m.low, m.high)
        r = self.order[m.rank]
        return Match(m.kind, cards, r, -1, r, r)

    def _in(self, m: Match) -> Match:
        if not isinstance(m, Match) or not 0 <= m.kind < len(self.kinds):
            raise ValueError(f"{m!r} is not a Match of these rules")
        cards = self._v(m.cards)
        if m.suit >= 0 or m.rank < 0:
            return Match(m.kind, cards, m.rank, m.suit, m.low, m.high)
        p = self._pos.get(m.rank, -1)
        return Match(m.kind, cards, p, -1, p, p)

    def _sorted_real(self, melds: Iterable[Sequence[int]]) -> list[tuple[int, ...]]:
        return sorted(self._real(m) for m in melds)

    # ------------------------------------------------------------------ MeldRules' questions
    def rank_at(self, position: int) -> int:
        """The rank at a run position: the order's, the first rank again past the last."""
        return self.order[position % len(self.order)]

    def value(self, cards: Iterable[int]) -> int:
        """:meth:`MeldRules.value`."""
        return self._engine.value(self._v(cards))

    def match(self, cards: Sequence[int]) -> Match | None:
        """:meth:`MeldRules.match`."""
        return self._out(self._engine.match(self._v(cards)))

    def match_as(self, kind: int, cards: Sequence[int]) -> Match | None:
        """:meth:`MeldRules.match_as`."""
        return self._out(self._engine.match_as(kind, self._v(cards)))

    def match_grown(self, kind: int, cards: Sequence[int]) -> Match | None:
        """:meth:`MeldRules.match_grown`."""
        return self._out(self._engine.match_grown(kind, self._v(cards)))

    def can_add(self, match: Match, card: int, *, respect_max_size: bool = False) -> Match | None:
        """:meth:`MeldRules.can_add`."""
        return self._out(self._engine.can_add(self._in(match), self._v((card,))[0],
                                              respect_max_size=respect_max_size))

    def wilds_in(self, match: Match) -> int:
        """:meth:`MeldRules.wilds_in`."""
        return self._engine.wilds_in(self._in(match))

    def win_back(self, match: Match, card: int) -> tuple[Match, int] | None:
        """:meth:`MeldRules.win_back`."""
        won = self._engine.win_back(self._in(match), self._v((card,))[0])
        if won is None:
            return None
        return self._out(won[0]), self._from_v[won[1]]  # type: ignore[return-value]

    def melds_in(self, hand: Sequence[int], *, limit: int | None = None,
                 most: int | None = None) -> list[tuple[int, ...]]:
        """:meth:`MeldRules.melds_in`."""
        return self._sorted_real(self._engine.melds_in(self._v(hand), limit=limit,
                                                       most=most))

    def meld_multisets(self, hand: Sequence[int], *, limit: int | None = None
                       ) -> list[tuple[int, ...]]:
        """:meth:`MeldRules.meld_multisets`."""
        return sorted(tuple(sorted(self._real(m))) for m in self._engine.meld_multisets(
            self._v(hand), limit=limit))

    def laid(self, cards: Sequence[int]) -> tuple[int, ...]:
        """:meth:`MeldRules.laid`."""
        return self._real(self._engine.laid(self._v(cards)))

    def min_deadwood(self, hand: Sequence[int], *,
                     discard: bool | Literal["best", "openspiel"] = False) -> int:
        """:meth:`MeldRules.min_deadwood` (not OpenSpiel's figure: its card order is the
        natural one)."""
        if discard == "openspiel":
            raise ValueError("min_deadwood(discard='openspiel') needs the natural rank order")
        return self._engine.min_deadwood(self._v(hand), discard=discard)

    def min_deadwood_holding(self, hand: Sequence[int], kinds: Sequence[int]) -> int | None:
        """:meth:`MeldRules.min_deadwood_holding`."""
        return self._engine.min_deadwood_holding(self._v(hand), kinds)

    def mask_deadwood(self, mask: int) -> int:
        """:meth:`MeldRules.mask_deadwood`: the hand of the kinds whose bits ``mask`` sets."""
        return self.min_deadwood([c for c in range(N_KINDS) if mask >> c & 1])

    def mask_deadwood_from(self, kept: tuple[int, int, int] | None,
                           mask: int) -> tuple[int, int, int]:
        """:meth:`MeldRules.mask_deadwood_from`, always computed (``meldable`` -1)."""
        return mask, -1, self.mask_deadwood(mask)

    def deadwood_within(self, hand: Sequence[int], limit: int, *,
                        discard: bool | Literal["best", "openspiel"] = False) -> bool:
        """:meth:`MeldRules.deadwood_within`."""
        if discard == "openspiel":
            raise ValueError("deadwood_within(discard='openspiel') needs the natural rank "
                             "order")
        return self._engine.deadwood_within(self._v(hand), limit, discard=discard)

    def mask_within(self, mask: int, limit: int,
                    discard: bool | Literal["best", "openspiel"] = False) -> bool:
        """:meth:`MeldRules.mask_within`: the hand of the kinds whose bits ``mask`` sets."""
        return self.deadwood_within([c for c in range(N_KINDS) if mask >> c & 1], limit,
                                    discard=discard)

    def best_arrangement(self, hand: Sequence[int]
                         ) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
        """:meth:`MeldRules.best_arrangement`."""
        melds, dead = self._engine.best_arrangement(self._v(hand))
        return tuple(self._sorted_real(melds)), tuple(sorted(self._real(dead)))

    def melds_within(self, hand: Sequence[int], limit: int) -> list[tuple[int, ...]]:
        """:meth:`MeldRules.melds_within`."""
        return self._sorted_real(self._engine.melds_within(self._v(hand), limit))

    def discards_within(self, hand: Sequence[int], limit: int) -> list[int]:
        """:meth:`MeldRules.discards_within`."""
        return sorted(self._real(self._engine.discards_within(self._v(hand), limit)))

    def clear_caches(self) -> None:
        """:meth:`MeldRules.clear_caches`."""
        self._engine.clear_caches()

    def _definition(self) -> tuple[Any, ...]:
        return (self.kinds, tuple(sorted(self.wild_kinds)), self.values, self.order)

    def __reduce__(self) -> Any:
        kinds, wild, values, order = self._definition()
        return (functools.partial(RankOrder, order=order), (kinds, wild, values))

    def __repr__(self) -> str:
        return (f"RankOrder({list(self.kinds)!r}, wild_kinds={sorted(self.wild_kinds)!r}, "
                f"order={list(self.order)!r})")


def melds_holding(rules: MeldRules | RankOrder, hand: Sequence[int],
                  card: int, most: int | None = None) -> list[tuple[int, ...]]:
    """The melds of ``rules.melds_in(hand)`` that hold ``card``, in the same order, found
    among the cards that could share a meld with it: its rank's, its suit's and the wild
    ones (a set is one rank, a run one suit), so that a long hand — a player's cards and a
    deep pile — is not searched whole.  With ``most``, at most that many (the first the
    search finds, as :meth:`MeldRules.melds_in`'s ``most``).

    >>> from meldkit._cards import kind_of_code as k
    >>> gin = MeldRules([MeldKind("set", "set"), MeldKind("run", "run")])
    >>> hand = [k(c) for c in "5S 6S 7S 7D 7C 8S 9H 9D 9C".split()]
    >>> [meld_code(m) for m in melds_holding(gin, hand, k("7D"))]
    ['7C 7D 7S']
    """
    wild = rules.wild_kinds
    if card in wild or card >= JOKER_KIND:
        return [m for m in rules.melds_in(hand, most=most) if card in m]
    rank, suit = card >> 2, card & 3
    near = [c for c in hand
            if c in wild or (c < JOKER_KIND and (c >> 2 == rank or c & 3 == suit))]
    if isinstance(rules, MeldRules):
        return rules._every_meld_holding(near, card, most)
    return [m for m in rules.melds_in(near, most=most) if card in m]


def _sharing_rank_or_suit(c: int, naturals: Sequence[int]) -> tuple[int, ...]:
    """The natural cards that share card kind ``c``'s rank or suit (``c`` itself too): the
    only ones a meld holding ``c`` can take.

    >>> _sharing_rank_or_suit(0, [0, 1, 4, 5, 8])  # AC: the other aces, and the clubs
    (0, 1, 4, 8)
    """
    r, s = c >> 2, c & 3
    return tuple(x for x in naturals if x >> 2 == r or x & 3 == s)


MOST_LISTED_MELDS = 5_000
"""The most melds a position offers.  A hand that holds more — dozens of cards over many
decks with many wild cards, which only a pack written to be slow deals: the bundled and
example packs' hands, played by bots, list at most 448, and a 14-card Indian Rummy hand
holding 8 of its 10 wild cards about 3,400 — offers the first 5,000 the search finds, the
same ones every time, and the others are refused (``meld/past-listing``); whether a card
taken must be melded at once can be (``pile.taken_melded``) is judged over the first 5,000
melds that hold it.  The table kernel's legal actions are its listing, and every move
lists the next position's: a 60-card hand of 270,000 melds took 4 s a move, 5,000 take
about 0.1 s."""

MOST_FLEX_ARRANGED = 12
"""The most cards the least-deadwood searches take where a pack has a flush or a run of
mixed suits (:attr:`MeldRules.arrange_limit`): those melds may take any card of a suit, or
any suit at each rank, so the fast paths' masks do not hold them and the exact search
grows as two to the power of the hand (Phase 10's hands hold ten or eleven cards)."""

MOST_CARDS_ARRANGED = 16
"""The most cards a hand may hold for the value of the cards it cannot meld to be searched
(:func:`unmelded_value`; the scoring items' ``count: unmelded``).  The least-deadwood
search grows exponentially with the hand: over meld rules chosen to be slow (eight decks,
several wild kinds, melds of many wild cards), the slowest hands a hill climb found take
up to about 45 ms at 16 cards, 150 ms at 18 (``benchmarks/bench_unmelded.py``); a hand of
contract rummy's melds takes about 1 s at 60 cards and 6 s at 80.  The loader refuses the
count where a hand can grow past it, so a hand past it comes only from a plugin's hooks
(or an edited save): it counts every card."""

def shown_deadwood(rules: MeldRules | RankOrder, hand: Sequence[int]) -> int | None:
    """The least deadwood of ``hand`` as a player is shown it (``view()["deadwood"]``, the
    observation's ``deadwood``), or None for a hand of more than
    :data:`MOST_CARDS_ARRANGED` cards, which is not searched: a server computes views for
    every seat at every move, and a pack whose hands grow large (a whole pile taken, many
    decks) must not make one cost seconds.  A knocking pack's hands never grow past it (the
    loader refuses one whose could), so its players always see the figure.

    >>> from meldkit._cards import kind_of_code as k
    >>> gin = MeldRules([MeldKind("set", "set"), MeldKind("run", "run")])
    >>> shown_deadwood(gin, [k(c) for c in "5S 5H 5D 9C KD".split()])
    19
    >>> shown_deadwood(gin, [k(c) for c in "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AH "
    ...                                    "2H 3H 4H".split()]) is None
    True
    """
    return None if len(hand) > arranged_at_most(rules) else rules.min_deadwood(hand)


def arranged_at_most(rules: MeldRules | RankOrder) -> int:
    """The most cards of a hand whose least deadwood is searched for a view or a bot:
    :data:`MOST_CARDS_ARRANGED`, or fewer where the rules bound their searches
    (:attr:`MeldRules.arrange_limit`).

    >>> arranged_at_most(MeldRules([MeldKind("set", "set"), MeldKind("flush", "flush")]))
    12
    """
    limit = rules.arrange_limit
    return MOST_CARDS_ARRANGED if limit is None else min(limit, MOST_CARDS_ARRANGED)


CONTRACT_ARRANGING_WORK = 1_500
"""The most choices (a meld, every wild mix that can matter, or a card left dead) one
search for the best arrangement that holds a contract may weigh
(:meth:`MeldRules.min_deadwood_holding`, ``count: unmelded_with_contract``); past it the
hand counts every card, as if no arrangement held the contract.  Counted afresh in each
search, so the answer depends on the hand alone.  With it and
:data:`MOST_CARDS_ARRANGED`, the slowest hands found take about 45 ms (the benchmark
above); the hands Indian Rummy's losers held at the end of 300 games of greedy and random
bots weighed at most 993 (99% at most 183)."""


def _covers(fits: Callable[[int, Sequence[int]], Any], melds: Sequence[Sequence[int]],
            contract: Sequence[int]) -> bool:
    """Whether distinct melds of ``melds`` form one meld of each kind of ``contract`` (a
    meld counts for any kind it forms: ``fits(kind, meld)``)."""
    def cover(i: int, left: tuple[int, ...]) -> bool:
        if not left:
            return True
        if i == len(melds):
            return False
        return any(fits(kind, melds[i]) is not None and cover(i + 1, left[:j] + left[j + 1:])
                   for j, kind in enumerate(left)) or cover(i + 1, left)
    return cover(0, tuple(contract))


def unmelded_value(rules: MeldRules | RankOrder, hand: Sequence[int],
                   contract: Sequence[int] = ()) -> int:
    """The value of the cards of ``hand`` left out of melds in its best arrangement (its
    least deadwood): what a player who did not go out counts with ``count: unmelded``.
    With a ``contract`` (kind numbers of ``rules.kinds``), the best arrangement whose melds
    hold one meld of each of those kinds (a meld counts for any kind it forms), and every
    card's value where no arrangement holds them (Indian Rummy's two "lives").

    Bounded: a hand of more than :data:`MOST_CARDS_ARRANGED` cards, or a contract search
    past :data:`CONTRACT_ARRANGING_WORK`, counts every card.  The same hand and rules always
    give the same figure.

    >>> from meldkit._cards import kind_of_code as k
    >>> rules = MeldRules([MeldKind("pure", "run", max_wilds=0), MeldKind("run", "run",
    ...                    max_wilds=2), MeldKind("set", "set", max_wilds=2)], [52])
    >>> hand = [k(c) for c in "4H 5H 6H 8C 9C 9D 9S KS 2C".split()]
    >>> unmelded_value(rules, hand)  # 4H 5H 6H and three nines: 8C KS 2C are left
    20
    >>> unmelded_value(rules, hand, [0, 1])  # a clean run and a run: one run only, so all
    62
    >>> unmelded_value(rules, hand + [k("JK")], [0, 1])  # 8C 9C JK: 9D 9S KS 2C are left
    30
    """
    hand = sorted(hand)
    every = sum(rules.values[c] for c in hand)
    if len(hand) > arranged_at_most(rules):
        return every
    least = rules.min_deadwood(hand)
    if not contract:
        return least
    if _covers(rules.match_as, rules.best_arrangement(hand)[0], contract):
        return least
    try:
        held = rules.min_deadwood_holding(hand, contract, work=CONTRACT_ARRANGING_WORK)
    except TooManyMelds:
        return every
    return every if held is None else held


def meld_rules(kinds: Sequence[MeldKind], wild_kinds: Iterable[int] = (),
               values: Sequence[int] | None = None, order: Sequence[int] | None = None
               ) -> MeldRules | RankOrder:
    """The meld rules of a pack: :class:`MeldRules`, or a :class:`RankOrder` when runs move
    through ``order`` (rank numbers lowest first) rather than the natural 13 ranks.

    >>> type(meld_rules([MeldKind("run", "run")])).__name__
    'MeldRules'
    >>> type(meld_rules([MeldKind("run", "run")], order=[0, 1, 2, 10, 11, 12])).__name__
    'RankOrder'
    """
    if order is None or tuple(order) == tuple(range(13)):
        return MeldRules(kinds, wild_kinds, values)
    return RankOrder(kinds, wild_kinds, values, order=order)


@functools.lru_cache(maxsize=64)
def _natural_melds(
    kinds: tuple[MeldKind, ...], wild: frozenset[int], L: int = 13
) -> tuple[tuple[int, ...], ...]:
    """Every meld of natural cards of one deck of ``L`` ranks, in canonical order (a natural
    run has one placement, but for ``L`` cards, where the lowest start is canonical)."""
    found: dict[int, tuple[int, ...]] = {}
    for kind in kinds:
        top = kind.max_size if kind.max_size is not None else L
        if kind.type == "set":
            for r in range(L):
                suits = [s for s in range(4) if r * 4 + s not in wild]
                for n in range(kind.min_size, min(top, 4) + 1):
                    for comb in itertools.combinations(suits, n):
                        t = tuple(r * 4 + s for s in comb)
                        found.setdefault(sum(1 << c for c in t), t)
            continue
        for s in range(4):
            for n in range(kind.min_size, min(top, L) + 1):
                for _low, slots in _windows(kind.ace, n, L):
                    t = tuple(q * 4 + s for q in slots)
                    if not wild.intersection(t):
                        found.setdefault(sum(1 << c for c in t), t)
    return tuple(sorted(found.values()))


def _windows_around(
    kind: MeldKind, first: int, counts: Counter[int], maxw: int, longest: int, L: int = 13
) -> Iterable[tuple[int, ...]]:
    """The run windows (rank of each slot) holding ``first`` that need at most ``maxw``
    wild cards, other naturals being the cards above ``first`` in ``counts``: grown outward
    from ``first``'s position, so hopeless windows are never looked at."""
    r, s = first >> 2, first & 3
    ace = kind.ace
    if r == 0 and ace in ("high", "both"):
        positions = [L] if ace == "high" else [0, L]
    else:
        positions = [r]
    for p in positions:
        if ace == "around":
            lo_min, hi_max = p - (L - 1), p + (L - 1)
        else:
            lo_min = 1 if ace == "high" else 0
            hi_max = L - 1 if ace == "low" else L

        def avail(q: int) -> bool:
            k = (q % L) * 4 + s
            return k > first and counts.get(k, 0) > 0

        gaps_low = 0
        for lo in range(p, lo_min - 1, -1):
            if lo < p and not avail(lo):
                gaps_low += 1
                if gaps_low > maxw:
                    break
            gaps = gaps_low
            for hi in range(p, hi_max + 1):
                if hi > p and not avail(hi):
                    gaps += 1
                    if gaps > maxw:
                        break
                n = hi - lo + 1
                if n > longest:
                    break
                if n >= kind.min_size:
                    yield tuple(q % L for q in range(lo, hi + 1))


def _windows_with_naturals(
    kind: MeldKind, s: int, counts: Counter[int], maxw: int, longest: int, L: int = 13
) -> Iterable[tuple[int, ...]]:
    """The run windows of suit ``s`` (rank of each slot) holding at least one natural card
    of ``counts`` and at most ``maxw`` positions without one: each grown from its low end
    and abandoned at the first gap too many."""
    ace = kind.ace
    if ace == "around":
        lows: Iterable[int] = range(L)
    else:
        lows = range(1 if ace == "high" else 0, (L - 1 if ace == "low" else L) + 1)
    hi_max = L - 1 if ace == "low" else L
    for lo in lows:
        gaps = naturals = 0
        for hi in range(lo, (lo + L - 1 if ace == "around" else hi_max) + 1):
            if counts.get((hi % L) * 4 + s, 0):
                naturals += 1
            else:
                gaps += 1
                if gaps > maxw:
                    break
            n = hi - lo + 1
            if n > longest:
                break
            if n >= kind.min_size and naturals:
                yield tuple(q % L for q in range(lo, hi + 1))


def _os_key(card: int) -> tuple[int, int]:
    """OpenSpiel's order of cards within a rank: spades, clubs, diamonds, hearts."""
    return (card >> 2, ((card & 3) + 1) & 3)


def _os_top(mask: int) -> int | None:
    """The card of a mask that OpenSpiel sorts last (highest rank, then s < c < d < h)."""
    if not mask:
        return None
    if mask >> 52:
        return JOKER_KIND
    r = (mask.bit_length() - 1) >> 2
    nib = mask >> (4 * r)
    for suit in (2, 1, 0, 3):
        if nib >> suit & 1:
            return 4 * r + suit
    raise AssertionError("unreachable")  # pragma: no cover


def _wilds_apart(slots: tuple[int, ...], ranks: dict[int, int]) -> bool:
    prev = False
    for q in slots:
        w = q not in ranks
        if w and prev:
            return False
        prev = w
    return True


def _lazy_submultisets(items: Sequence[tuple[int, int]], size: int
                       ) -> Iterable[tuple[int, ...]]:
    """Every distinct sub-multiset of ``size`` items of ``items`` (``(card, copies)``,
    sorted), as sorted tuples, one at a time (a flush's cards: many, and the caller stops
    at its bound).

    >>> list(_lazy_submultisets([(1, 2), (5, 1)], 2))
    [(1, 1), (1, 5)]
    """
    def rec(i: int, left: int, acc: tuple[int, ...]) -> Iterable[tuple[int, ...]]:
        if left == 0:
            yield acc
            return
        if i == len(items) or sum(a for _, a in items[i:]) < left:
            return
        c, a = items[i]
        for take in range(min(a, left), -1, -1):
            yield from rec(i + 1, left - take, acc + (c,) * take)

    return rec(0, size, ())


def _submultisets(counter: Counter[int], size: int) -> list[tuple[int, ...]]:
    """Every distinct sub-multiset of ``size`` items, as sorted tuples."""
    items = sorted(counter.items())
    out: list[tuple[int, ...]] = []

    def rec(i: int, left: int, acc: list[int]) -> None:
        if left == 0:
            out.append(tuple(acc))
            return
        if i == len(items):
            return
        k, cnt = items[i]
        for take in range(min(cnt, left), -1, -1):
            rec(i + 1, left - take, acc + [k] * take)

    rec(0, size, [])
    return out


def _remove(state: tuple[int, ...], cards: Iterable[int]) -> tuple[int, ...]:
    rest = list(state)
    for c in cards:
        rest.remove(c)
    return tuple(rest)


def _check_limit(limit: object) -> int:
    if type(limit) is not int:
        raise ValueError(f"'limit' must be an int (got {limit!r})")
    return limit
