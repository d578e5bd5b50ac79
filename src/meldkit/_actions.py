"""Actions and their text notation.

An action names kinds and counts, never physical cards, so the legal set stays small and
the same in every deal.  ``str(action)`` is its notation and round-trips through
``GameState.parse_action``:

=========================  ===============================================================
``draw``                   draw from the stock
``take 9 9``               take the discard pile, melding its top card with these cards
``take``                   take the pile, laying the top card alone onto the side's meld
``pickup``                 pick up one's reserve pile (Pony Tail, Pony) before drawing
``meld 9 9 9 2``           lay down a new meld from the hand
``add 9 2 to 9``           lay cards off onto the side's open meld of 9s (``to wild``: the
                           wild meld)
``discard 9``              discard a card of that rank, ending the turn
``withdraw``               take back an initial meld that did not reach the minimum
``end``                    with the stock empty, end the hand instead of taking the pile
=========================  ===============================================================

Packs with suited sequences (``melds.sequences``, Samba) name the cards of a sequence, and
the card discarded, with their suits (which suit is given away matters there):

=========================  ===============================================================
``run 4H 5H 6H``           lay down a new sequence of one suit
``extend 7H 8H to 4H-6H``  lay cards off onto the side's sequence 4H-6H, at either end
``take to 4H-6H``          take the pile, laying its top card alone onto that sequence
``discard 9H``             discard that card, ending the turn
=========================  ===============================================================

In these actions ``cards`` are card kinds (``rank * 4 + suit``, ``52`` the joker), lowest
first, and the
``target`` of a sequence is :func:`seq_target` of its suit and its ends.  The table
kernel's spelling of a run is read too: ``meld 4H 5H 6H`` is ``run 4H 5H 6H``, ``add 7H to
4H-6H`` is ``extend 7H to 4H-6H``.

Text is read by the pack's dialect of the one grammar (:mod:`meldkit.notation`); cards
may be written in any order — they are put in canonical order before the action is
looked up — and ``str(action)`` is always the canonical text.
"""

from __future__ import annotations

from operator import itemgetter

import attrs

from ._cards import RANKS, SUITS, card_code
from ._errors import NotationError
from .notation import RANK_ORDER, SEQUENCE_ORDER, Dialect, rank_dialect


@attrs.frozen
class Reason:
    """Why an action is refused: a stable ``code`` and a ``sentence`` a player understands.

    >>> import meldkit
    >>> game = meldkit.new_game("pony_tail", players=4, seed=7)
    >>> game.apply("draw")
    >>> why = game.check("meld 2 3")
    >>> why
    Reason(code='meld/unmeldable-rank', sentence='3s can never be melded')
    >>> print(why)
    3s can never be melded [meld/unmeldable-rank]
    """

    code: str
    """A stable machine-readable code, ``area/what`` (``pile/frozen``, ``action/bad-id`` …)."""
    sentence: str
    """The reason in words, for a player."""

    def __str__(self) -> str:
        return f"{self.sentence} [{self.code}]"

DRAW = "draw"
TAKE = "take"
PICKUP = "pickup"
MELD = "meld"
ADD = "add"
DISCARD = "discard"
WITHDRAW = "withdraw"
END = "end"

RUN = "run"
EXTEND = "extend"

KERNEL_ACTION_TYPES = (DRAW, TAKE, PICKUP, MELD, ADD, DISCARD, WITHDRAW, END)
SEQUENCE_ACTION_TYPES = (RUN, EXTEND)
_WILD_TARGET = 14  # same as _rules.WILD
SEQ_TARGET_BASE = 1000
"""Targets from here up name a sequence (:func:`seq_target`); below, a rank slot."""


def seq_target(suit: int, lo: int, hi: int) -> int:
    """The ``target`` naming a side's sequence of ``suit`` from position ``lo`` to ``hi``
    (positions index ``melds.sequences.ranks``).

    >>> seq_target(2, 0, 2), seq_target_parts(1514)
    (1514, (2, 0, 2))
    """
    return SEQ_TARGET_BASE + suit * 256 + lo * 16 + hi


def seq_target_parts(target: int) -> tuple[int, int, int]:
    """``(suit, lo, hi)`` of a sequence target (the inverse of :func:`seq_target`)."""
    t = target - SEQ_TARGET_BASE
    return t // 256, (t // 16) % 16, t % 16
_NO_CARDS: tuple[int, ...] = ()


class Action(tuple):
    """One move, as an immutable interned value: ``type``, the ``cards`` it uses (rank
    numbers, canonical order) and a ``target`` (meld rank for ``add``, else -1).

    Build actions with :meth:`GameState.parse_action` or take them from
    :meth:`GameState.legal_actions`.  An action is a tuple ``(type, cards, target)``
    underneath, so comparing and hashing it costs no Python call.

    >>> import meldkit
    >>> game = meldkit.new_game("pony_tail", players=4, seed=7)
    >>> action = game.parse_action("take A JK")
    >>> action, str(action), action.type, action.cards, action.target
    (Action('take A JK'), 'take A JK', 'take', (0, 13), -1)
    >>> action == ("take", (0, 13), -1), action in game.legal_actions()
    (True, True)
    """

    type = property(itemgetter(0), doc="The action type (``meld``, ``discard`` …).")
    cards = property(itemgetter(1), doc="The ranks (or plugin-defined ints) it names.")
    target = property(itemgetter(2), doc="The meld it adds to, or -1.")

    def __new__(cls, type: str, cards: tuple[int, ...], target: int, text: str):
        self = tuple.__new__(cls, (type, cards, target))
        self.__dict__["_text"] = text
        return self

    def __setattr__(self, name, value):
        raise AttributeError("Action is immutable")

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"Action({self._text!r})"

    def __reduce__(self):
        return (Action, (self[0], self[1], self[2], self._text))


def format_action(type: str, cards: tuple[int, ...], target: int,
                  seq_ranks: tuple[int, ...] = ()) -> str:
    """The notation of an action (``seq_ranks``: the ranks of ``melds.sequences``, for
    sequence actions)."""
    if type in SEQUENCE_ACTION_TYPES or target >= SEQ_TARGET_BASE or (
            type == DISCARD and seq_ranks):
        parts = [type]
        parts.extend(card_code(k) for k in cards)
        if target >= 0:
            suit, lo, hi = seq_target_parts(target)
            parts.append("to")
            parts.append(f"{RANKS[seq_ranks[lo]]}{SUITS[suit]}-{RANKS[seq_ranks[hi]]}{SUITS[suit]}")
        return " ".join(parts)
    parts = [type]
    parts.extend(RANKS[r] for r in cards)
    if target >= 0:
        parts.append("to")
        parts.append("wild" if target == _WILD_TARGET else RANKS[target])
    return " ".join(parts)


class ActionSpace:
    """Interns the actions of one compiled pack and parses notation.

    ``wild_ranks`` decides the canonical order of cards: naturals by rank, then wilds;
    ``seq_ranks`` (``melds.sequences.ranks``) that of a sequence's cards, lowest first.
    """

    def __init__(self, wild_ranks: tuple[int, ...],
                 extra_verbs: dict[str, tuple[int | None, bool]] | None = None,
                 seq_ranks: tuple[int, ...] = ()):
        self._is_wild = [r in wild_ranks for r in range(len(RANKS) + 1)]
        self._table: dict[tuple, Action] = {}
        self._shapes = dict(extra_verbs or {})
        self.seq_ranks = tuple(seq_ranks)
        self._seq_pos = {r: i for i, r in enumerate(self.seq_ranks)}
        seq_verbs = SEQUENCE_ACTION_TYPES if self.seq_ranks else ()
        self.verbs = KERNEL_ACTION_TYPES + seq_verbs + tuple(self._shapes)
        self.dialect: Dialect = rank_dialect(self.verbs, self._shapes,
                                             sequences=bool(self.seq_ranks), span=self._seq_span)
        """How the pack writes its actions (:func:`meldkit.notation.rank_dialect`)."""

    def get(self, type: str, cards: tuple[int, ...] = _NO_CARDS, target: int = -1) -> Action:
        """The interned action; ``cards`` must already be in canonical order.  Only legal
        actions are built this way (legal-action generation), so the table stays as small
        as the pack's action space; parsed text is looked up, never interned."""
        key = (type, cards, target)
        a = self._table.get(key)
        if a is None:
            a = self._table[key] = Action(type, cards, target,
                                          format_action(type, cards, target, self.seq_ranks))
        return a

    def lookup(self, type: str, cards: tuple[int, ...] = _NO_CARDS, target: int = -1) -> Action:
        """The interned action if there is one, else a new (not interned) action."""
        a = self._table.get((type, cards, target))
        if a is None:
            a = Action(type, cards, target, format_action(type, cards, target, self.seq_ranks))
        return a

    def interned(self, action) -> Action | None:
        """The interned action equal to ``action``, or None."""
        return self._table.get(action)

    def canonical(self, cards) -> tuple[int, ...]:
        """Cards sorted naturals first (by rank), then wild cards (by rank)."""
        w = self._is_wild
        return tuple(sorted(cards, key=lambda r: (w[r], r)))

    def parse(self, text: str) -> Action:
        """Parse notation text into an action (interned if the pack's legal generation has
        built it); raises :class:`NotationError`.  The cards may be written in any order:
        they are put in canonical order before the action is looked up.

        The pack's :attr:`dialect` reads the text (:mod:`meldkit.notation`): ranks, and
        with suited sequences (Samba) the sequence forms and their table-kernel aliases."""
        if isinstance(text, Action):
            return text
        p = self.dialect.parse(str(text))
        cards = p.cards
        if p.order == SEQUENCE_ORDER:
            cards = self.seq_canonical(cards)
        elif p.order == RANK_ORDER:
            cards = self.canonical(cards)
        return self.lookup(p.verb, cards, p.target)  # type: ignore[arg-type]

    def seq_canonical(self, kinds) -> tuple[int, ...]:
        """Sequence cards (kinds) lowest first, by their place in ``melds.sequences.ranks``
        (a rank outside it sorts last)."""
        pos = self._seq_pos
        return tuple(sorted(kinds, key=lambda k: (pos.get(k // 4, 99), k)))

    def _seq_span(self, lo_k: int, hi_k: int, word: str) -> int:
        """The target of the side's sequence written by its ends (``4H-6H``): both ends
        ranks of ``melds.sequences.ranks``, the lowest first."""
        pos = self._seq_pos
        if lo_k // 4 not in pos or hi_k // 4 not in pos:
            raise NotationError("notation/bad-sequence",
                                f"{word!r} is not a sequence of one suit in this game")
        lo, hi = pos[lo_k // 4], pos[hi_k // 4]
        if hi - lo < 1:
            raise NotationError("notation/bad-sequence",
                                f"{word!r} is not a sequence: write its lowest card first")
        return seq_target(lo_k % 4, lo, hi)
