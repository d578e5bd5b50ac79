"""What every engine's deck stacking shares (:func:`meldkit.testing.stack_deck`): the
cards of a deck not yet placed, taken by code with a located refusal.

>>> from meldkit._stacking import KindsLeft
>>> left = KindsLeft([0, 0, 5])
>>> left.take("AC", "hand of seat 0"), left.take("AC", "stock"), left.left[0]
(0, 0, 0)
>>> left.take("AC", "upcard")
Traceback (most recent call last):
...
meldkit._errors.SetupError: upcard: no AC left in the deck
"""

from __future__ import annotations

from collections.abc import Iterable

from ._cards import kind_of_code
from ._errors import SetupError


class KindsLeft:
    """The card kinds of a deck still to be placed while stacking it."""

    __slots__ = ("left",)

    left: dict[int, int]
    """How many of each kind are still to be placed."""

    def __init__(self, kinds: Iterable[int]):
        self.left: dict[int, int] = {}
        for k in kinds:
            self.left[k] = self.left.get(k, 0) + 1

    def take(self, code: str, where: str) -> int:
        """The kind of card ``code``, now placed; :class:`~meldkit.SetupError` naming
        ``where`` if it is not a card code or none of it is left."""
        try:
            k = kind_of_code(code)
        except ValueError as e:
            raise SetupError(f"{where}: {e}") from None
        if self.left.get(k, 0) <= 0:
            raise SetupError(f"{where}: no {code} left in the deck")
        self.left[k] -= 1
        return k


def check_named(part: str, named: dict, size: int, players: int | None = None) -> None:
    """Refuse a stacked ``part`` (hand, reserve) naming more cards than are dealt, or a
    seat that is not at the table."""
    for seat, cards in named.items():
        if players is not None and (not isinstance(seat, int) or not 0 <= seat < players):
            raise SetupError(f"{part}s: {seat!r} is not a seat 0..{players - 1}")
        if len(cards) > size:
            raise SetupError(f"{part} of seat {seat}: {len(cards)} cards, but {size} are dealt")
