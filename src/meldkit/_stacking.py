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
>>> left.take("9H", "stock")
Traceback (most recent call last):
...
meldkit._errors.SetupError: stock: the pack's deck has no 9H
"""

from __future__ import annotations

import random
from collections.abc import Iterable

from ._cards import MAX_DECK_CARDS, card_code, kind_of_code
from ._errors import SetupError, quoted


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
        if k not in self.left:  # not a card of this deck at all, not one used up
            raise SetupError(f"{where}: the pack's deck has no {code}")
        if self.left[k] <= 0:
            raise SetupError(f"{where}: no {code} left in the deck")
        self.left[k] -= 1
        return k


def check_deck_order(kind_of: list[int], deck_order: list[str]) -> None:
    """Refuse a stacked ``deck_order`` (card codes, top first) that lists more cards than
    the deck ``kind_of`` (each card's kind) has, a code that is no card, or more of a card
    than the deck holds (:class:`~meldkit.SetupError` naming the position).

    >>> check_deck_order([0, 0, 5], ["AC", "AC"])
    >>> check_deck_order([0, 0, 5], ["AC", "2D", "2D"])
    Traceback (most recent call last):
    ...
    meldkit._errors.SetupError: deck_order[2]: more 2D than the deck holds
    """
    n = len(kind_of)
    if len(deck_order) > n:
        many = (f"more than {MAX_DECK_CARDS:,}" if len(deck_order) > MAX_DECK_CARDS
                else len(deck_order))  # new_game reads no further
        raise SetupError(f"deck_order lists {many} cards but the deck has {n}")
    have: dict[int, int] = {}
    for k in kind_of:
        have[k] = have.get(k, 0) + 1
    for i, code in enumerate(deck_order):
        try:
            k = kind_of_code(code)
        except ValueError as e:
            raise SetupError(f"deck_order[{i}]: {e}") from None
        have[k] = have.get(k, 0) - 1
        if have[k] < 0:
            raise SetupError(f"deck_order[{i}]: more {card_code(k)} than the deck holds")


def check_named(part: str, named: dict, size: int, players: int | None = None) -> None:
    """Refuse a stacked ``part`` (hand, reserve) naming more cards than are dealt, or a
    seat that is not at the table."""
    for seat, cards in named.items():
        if players is not None and (not isinstance(seat, int) or not 0 <= seat < players):
            raise SetupError(f"{part}s: {quoted(seat)} is not a seat 0..{players - 1}")
        if len(cards) > size:
            raise SetupError(f"{part} of seat {seat}: {len(cards)} cards, but {size} are dealt")


def renewed_stock(pile: list[int], how: str, seed: object) -> tuple[list[int], list[int]]:
    """``(stock, pile)`` when the discard pile but its top card becomes a new stock
    (``stock.when_empty``): turned over (``turn_pile``: the pile's bottom card is drawn
    first), or shuffled (``shuffle_pile``, by a random order drawn from ``seed``: the
    same game gives the same order).  The stock's top card is the end of its list.

    >>> renewed_stock([1, 2, 3, 4], "turn_pile", 0)
    ([3, 2, 1], [4])
    >>> stock, pile = renewed_stock([1, 2, 3, 4], "shuffle_pile", "meldkit:7")
    >>> sorted(stock), pile, stock == renewed_stock([1, 2, 3, 4], "shuffle_pile", "meldkit:7")[0]
    ([1, 2, 3], [4], True)
    """
    stock = pile[-2::-1]
    if how == "shuffle_pile":
        random.Random(str(seed)).shuffle(stock)
    return stock, pile[-1:]
