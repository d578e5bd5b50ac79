"""What the canasta kernel's phases share: a meld on the table, a hand's record, reason
helpers and phase names."""

from __future__ import annotations

from .._actions import ADD, DISCARD, DRAW, END, EXTEND, MELD, PICKUP, RUN, TAKE, WITHDRAW, Reason
from .._cards import N_RANKS, RANKS
from .._rules import SEQ, WILD
from .._scoring import HandFinal, TeamScore  # noqa: F401 - re-exported (HandResult's parts)
from ..records import HandResult, totals  # noqa: F401 - the one hand record

DRAW_PHASE = "draw"
PLAY_PHASE = "play"
OVER = "over"
_SLOTS = N_RANKS + 1  # natural ranks 0..13 and the WILD slot


class Meld:
    """A side's meld on the table; a book once it holds ``books.size`` cards."""

    __slots__ = ("slot", "cards", "nat", "wild", "closed", "pending")

    def __init__(self, slot: int, cards: list[int], nat: int, wild: int, pending: bool):
        self.slot = slot
        self.cards = cards
        self.nat = nat
        self.wild = wild
        self.closed = False
        self.pending = pending

    def copy(self) -> Meld:
        cls = type(self)
        m = cls.__new__(cls)
        m.slot = self.slot
        m.cards = self.cards[:]
        m.nat = self.nat
        m.wild = self.wild
        m.closed = self.closed
        m.pending = self.pending
        return m


_SHAPES = {DRAW: (0, 0), END: (0, 0), PICKUP: (0, 0), WITHDRAW: (0, 0), DISCARD: (1, 1),
           TAKE: (0, 2), MELD: (1, 99), ADD: (1, 99), RUN: (1, 99), EXTEND: (1, 99)}
"""The number of cards each kernel action names (actions built by hand are checked too)."""
def _r(code: str, sentence: str) -> Reason:
    return Reason(code, sentence)


def _rank_closed(verb: str, slot: int) -> Reason:
    """Why a side may not start a meld of a rank it has closed a book of (``books.reopen:
    false``): ``verb`` ``meld`` (a new meld) or ``pile`` (the pile taken to start one)."""
    what = "take the pile to start" if verb == "pile" else "start"
    return _r(f"{verb}/rank-closed", f"your side has closed a book of {_rank_name(slot)}: it "
              f"may not {what} another meld of them (books.reopen: false)")


def _rank_name(slot: int) -> str:
    if slot == SEQ:
        return "sequences"
    return "wild cards" if slot == WILD else f"{RANKS[slot]}s"


