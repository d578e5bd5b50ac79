"""Stacked decks for scenario tests and puzzles.

:func:`stacked_game` deals the hands, reserve piles, upcard and top of the stock you name;
every card you leave out is filled with plain cards (no wild, bonus or dead cards, at most
two of a rank per player), so a scenario shows only what it is about.

>>> from meldkit.testing import stacked_game
>>> g = stacked_game("pony_tail", players=4, hands={0: ["9H", "9S", "9D", "KH"]},
...                  upcard="9C", stock=["5S", "6S"])
>>> g.current_player, [c for c in g.hand_codes(0) if c[0] == "9"], g.view(0)["pile"]["top"]
(0, ['9D', '9H', '9S'], '9C')
>>> g.apply("take 9 9"); [c for c in g.hand_codes(0) if c[0] == "9"]
['9H']
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence

from ._cards import JOKER_KIND, card_code, kind_of_code
from ._errors import SetupError
from ._loader import RulePack, load_pack
from ._rules import Rules
from ._state import GameState

_PLAIN_ORDER = ("4", "5", "6", "8", "9", "10", "J", "Q", "K", "A")


def _as_map(x) -> dict[int, list[str]]:
    if not x:
        return {}
    if isinstance(x, Mapping):
        return {int(k): list(v) for k, v in x.items()}
    return {i: list(v) for i, v in enumerate(x)}


def stack_deck(
    pack: RulePack | str | os.PathLike,
    players: int,
    hands: Mapping[int, Sequence[str]] | Sequence[Sequence[str]] | None = None,
    reserves: Mapping[int, Sequence[str]] | Sequence[Sequence[str]] | None = None,
    upcard: str | Sequence[str] | None = None,
    stock: Sequence[str] = (),
    first_player: int = 0,
) -> list[str]:
    """A ``deck_order`` (card codes, top first) dealing the named cards.

    ``hands`` and ``reserves`` map a seat to (part of) its cards; the deal is in blocks,
    seat by seat from ``first_player``, in the pack's ``deal.order``.  ``upcard`` is the
    card (or cards, when the pack turns again) that starts the pile; ``stock`` is the top
    of the stock after it.  Start the game with ``options={"first_player": first_player}``.
    """
    if not isinstance(pack, RulePack):
        pack = load_pack(pack)
    rules = Rules.of(pack)
    deal = pack.spec.deal
    hands_m, reserves_m = _as_map(hands), _as_map(reserves)
    kinds = rules.deck_kinds(players)
    left: dict[int, int] = {}
    for k in kinds:
        left[k] = left.get(k, 0) + 1

    def take(code: str, where: str) -> str:
        k = kind_of_code(code)
        if left.get(k, 0) <= 0:
            raise SetupError(f"{where}: no {code} left in the deck")
        left[k] -= 1
        return code

    named: list[tuple[str, int, list[str]]] = []
    for part, m, size in (("hand", hands_m, deal.hand), ("reserve", reserves_m, deal.reserve)):
        for seat, cards in m.items():
            if len(cards) > size:
                raise SetupError(f"{part} of seat {seat}: {len(cards)} cards, but {size} are dealt")
            named.append((part, seat, [take(c, f"{part} of seat {seat}") for c in cards]))
    ups = [upcard] if isinstance(upcard, str) else list(upcard or [])
    ups = [take(c, "upcard") for c in ups]
    stock_top = [take(c, "stock") for c in stock]

    def plain(k: int) -> bool:
        if k == JOKER_KIND:
            return False
        r = k // 4
        return not (rules.is_wild_rank[r] or rules.is_bonus_kind[k] or rules.is_dead_kind[k])

    fillers: list[str] = []
    by_rank = {r: [k for k in sorted(left) if plain(k) and card_code(k)[:-1] == r]
               for r in _PLAIN_ORDER}

    def filler(avoid: dict[str, int]) -> str:
        for r in sorted(_PLAIN_ORDER, key=lambda r: avoid.get(r, 0)):
            for k in by_rank[r]:
                if left[k] > 0:
                    left[k] -= 1
                    avoid[r] = avoid.get(r, 0) + 1
                    return card_code(k)
        raise SetupError("the deck has run out of plain filler cards")

    order: list[str] = []
    seats = [(first_player + i) % players for i in range(players)]
    for part in deal.order:
        size = deal.hand if part == "hand" else deal.reserve
        m = hands_m if part == "hand" else reserves_m
        for seat in seats:
            cards = list(m.get(seat, []))
            counts: dict[str, int] = {}
            for c in cards:
                counts[c[:-1]] = counts.get(c[:-1], 0) + 1
            while len(cards) < size:
                cards.append(filler(counts))
            order.extend(cards)
    del fillers
    if deal.upcard:
        order.extend(ups or [filler({})])
    order.extend(stock_top)
    return order


def stacked_game(
    pack: RulePack | str | os.PathLike,
    players: int,
    hands=None,
    reserves=None,
    upcard: str | Sequence[str] | None = None,
    stock: Sequence[str] = (),
    first_player: int = 0,
    seed: int = 0,
    options: dict | None = None,
) -> GameState:
    """A new game whose first hand is dealt from :func:`stack_deck`."""
    from . import new_game

    order = stack_deck(pack, players, hands, reserves, upcard, stock, first_player)
    opts = dict(options or {})
    opts["first_player"] = first_player
    return new_game(pack, players=players, seed=seed, options=opts, deck_order=order)
