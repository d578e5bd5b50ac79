"""Stacked decks for scenario tests and puzzles.

:func:`stacked_game` deals the hands, reserve piles, upcard and top of the stock you name;
every card you leave out is filled with plain cards (no wild, bonus or dead cards; in a
table-meld pack, cards that make no meld with the hand where any are left), so a scenario
shows only what it is about (the scenario page says how fillers are picked).  Engines with their
own deck stack it themselves (Houses: hands and the top of the deck, in card codes such as
``KS``).

>>> from meldkit.testing import stacked_game
>>> g = stacked_game("pony_tail", players=4, hands={0: ["9H", "9S", "9D", "KH"]},
...                  upcard="9C", stock=["5S", "6S"])
>>> g.current_player, [c for c in g.hand_codes(0) if c[0] == "9"], g.view(0)["pile"]["top"]
(0, ['9D', '9H', '9S'], '9C')
>>> g.apply("take 9 9"); [c for c in g.hand_codes(0) if c[0] == "9"]
['9H']
>>> h = stacked_game("houses", players=4, hands={0: ["KS", "LS"]}, stock=["FS"])
>>> sorted(h.rules.codes[c] for c in h.hands[0])[:2], h.rules.codes[h.stock[-1]]
(['KS', 'LS'], 'FS')
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence

from ._cards import JOKER_KIND, card_code
from ._errors import SetupError, quoted
from ._loader import RulePack, load_pack
from ._rules import Rules
from ._stacking import KindsLeft, check_named
from ._state import GameState, Reason

_PLAIN_ORDER = ("4", "5", "6", "8", "9", "10", "J", "Q", "K", "A")


def _as_map(x) -> dict[int, list[str]]:
    if not x:
        return {}
    if isinstance(x, Mapping):
        try:
            return {int(k): list(v) for k, v in x.items()}
        except (TypeError, ValueError):
            bad = [k for k in x if not isinstance(k, (int, str)) or not str(k).isdigit()]
            raise SetupError(f"stacked cards are given by seat (a whole number), not "
                             f"{quoted(bad[0] if bad else x)}") from None
    return {i: list(v) for i, v in enumerate(x)}


def stack_deck(
    pack: RulePack | str | os.PathLike,
    players: int,
    hands: Mapping[int, Sequence[str]] | Sequence[Sequence[str]] | None = None,
    reserves: Mapping[int, Sequence[str]] | Sequence[Sequence[str]] | None = None,
    upcard: str | Sequence[str] | None = None,
    stock: Sequence[str] = (),
    first_player: int = 0,
    deal: int = 1,
) -> list[str]:
    """A ``deck_order`` (card codes, top first) dealing the named cards.

    ``hands`` and ``reserves`` map a seat to (part of) its cards — a side, in a table pack
    that deals a reserve pile to each side (``deal.reserve_per: side``); the deal is in
    blocks, seat by seat from ``first_player``, in the pack's ``deal.order``.  ``upcard`` is the
    card (or cards, when the pack turns again) that starts the pile; ``stock`` is the top
    of the stock after it.  Start the game with ``options={"first_player": first_player}``.
    ``deal``: the deal of a schedule whose hand sizes and rules it follows; a later deal's
    order is given to :meth:`~meldkit.GameState.stack_deal`, with ``first_player`` the seat
    dealt first in that deal.
    """
    if isinstance(deal, bool) or not isinstance(deal, int) or deal < 1:
        raise SetupError(f"deal must be a deal number (1, 2 …), not {deal!r}")
    if not isinstance(pack, RulePack):
        pack = load_pack(pack)
    from ._state import RankSlotModel
    from .kernel.state import KernelState, model_for
    from .plugins import engine_for

    engine = engine_for(pack)
    if engine is not KernelState or model_for(pack) is not RankSlotModel:
        # the table model, or an engine with its own deck (Houses), stacks it itself
        stack = getattr(engine, "stack_deck", None)
        if stack is None:
            raise SetupError(f"the engine of pack {pack.name!r} ({engine.__name__}) cannot "
                             "stack a deck (it has no stack_deck)")
        extra: dict = {}
        if deal != 1:  # an engine that deals again (the table-melds kernel) takes it
            extra["deal"] = deal
        if reserves:  # an engine that deals reserves (the table-melds kernel) takes them
            extra["reserves"] = _as_map(reserves)
        if upcard:  # an engine that turns an upcard (the table-melds kernel) takes it
            if isinstance(upcard, (list, tuple)):
                if len(upcard) != 1:
                    raise SetupError(f"pack {pack.name!r} turns one upcard, not {len(upcard)}")
                upcard = upcard[0]
            extra["upcard"] = upcard
        try:
            return stack(pack, players, _as_map(hands), list(stock), first_player, **extra)
        except TypeError:
            if not extra:
                raise
            raise SetupError(f"pack {pack.name!r} deals no {' or '.join(extra)}") from None
    first = pack.for_deal(deal)  # the deal's settings (a schedule's own)
    rules = Rules.of(first)
    deal = first.spec.deal
    hands_m, reserves_m = _as_map(hands), _as_map(reserves)
    stacked = KindsLeft(rules.deck_kinds(players))
    left = stacked.left

    def take(code: str, where: str) -> str:
        stacked.take(code, where)
        return code

    hand_size = rules.hand_size_for(players)  # deal.hand_by_players
    for part, m, size in (("hand", hands_m, hand_size), ("reserve", reserves_m, deal.reserve)):
        check_named(part, m, size, players)
        for seat, cards in m.items():
            for c in cards:
                take(c, f"{part} of seat {seat}")
    ups = [upcard] if isinstance(upcard, str) else list(upcard or [])
    ups = [take(c, "upcard") for c in ups]
    stock_top = [take(c, "stock") for c in stock]

    def plain(k: int) -> bool:
        if k == JOKER_KIND:
            return False
        r = k // 4
        return not (rules.is_wild_rank[r] or rules.is_bonus_kind[k] or rules.is_dead_kind[k])

    by_rank = {r: [k for k in sorted(left) if plain(k) and card_code(k)[:-1] == r]
               for r in _PLAIN_ORDER}

    def filler(avoid: dict[str, int]) -> str:
        for r in sorted(_PLAIN_ORDER, key=lambda r: avoid.get(r, 0)):
            for k in by_rank[r]:
                if left[k] > 0:
                    left[k] -= 1
                    avoid[r] = avoid.get(r, 0) + 1
                    return card_code(k)
        raise SetupError("the deck has run out of plain filler cards: the cards not named "
                         "fill the rest, but never a wild, bonus or dead card, so name those "
                         "somewhere (a hand, a reserve, the stock) when the named cards take "
                         "most of the plain ones")

    order: list[str] = []
    seats = [(first_player + i) % players for i in range(players)]
    for part in deal.order:
        size = hand_size if part == "hand" else deal.reserve
        m = hands_m if part == "hand" else reserves_m
        for seat in seats:
            cards = list(m.get(seat, []))
            counts: dict[str, int] = {}
            for c in cards:
                counts[c[:-1]] = counts.get(c[:-1], 0) + 1
            while len(cards) < size:
                cards.append(filler(counts))
            order.extend(cards)
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


def refusal(game: GameState, action) -> Reason:
    """Why ``action`` is refused in ``game``, after proving the refusal whole: ``check``
    names a reason, ``apply`` raises :class:`~meldkit.IllegalActionError` with the same
    code, and the game is left exactly as it was.  Raises ``AssertionError`` when the
    action is legal, or when ``check`` and ``apply`` disagree.  For scenario tests.

    >>> g = stacked_game("classic_canasta", 4, hands={0: ["9H", "9S"]}, upcard="9C")
    >>> refusal(g, "discard 9").code
    'turn/draw-first'
    """
    from ._errors import IllegalActionError

    before = game.to_json()
    why = game.check(action)
    assert why is not None, f"{action!r} is legal"
    try:
        game.apply(action)
    except IllegalActionError as e:
        assert why.code == e.code, f"check says {why.code}, apply raises {e.code}"
    else:
        raise AssertionError(f"check refuses {action!r} ({why.code}) but apply took it")
    assert before == game.to_json(), f"the refused {action!r} changed the game"
    return why


class ConformanceError(AssertionError):
    """A game broke one of the invariants every pack must keep."""


def check_conformance(
    pack: RulePack | str | os.PathLike,
    players: int,
    games: int = 3,
    seed: int = 0,
    options: dict | None = None,
    max_actions: int = 5000,
    every: int = 17,
    hands: int | None = None,
) -> int:
    """Random self-play that checks the invariants every pack (and plugin) must keep;
    returns the number of actions checked, or raises :class:`ConformanceError` saying
    which invariant broke, in which game and after which actions.

    After every action: each card of the deck is in exactly one zone, and the game is
    over or the player to move has a legal action (liveness: a position with no legal
    action in a game that is not over is reported, naming its phase). Every ``every``
    actions: every legal action passes ``check``; a refused action raises
    ``IllegalActionError`` and leaves the state unchanged; a save loads back equal; a
    clone is equal and independent; a finished hand rescores to its recorded totals.
    Each game must end within ``max_actions`` — or, with ``hands``, play that many hands
    (for games that random play rarely finishes, such as gin, whose random hands end at the
    wall).

    >>> check_conformance("gin_rummy", players=2, games=1, hands=3) > 0
    True

    >>> check_conformance("pony_tail", players=4, games=1, max_actions=20000) > 0
    True
    """
    import random

    from . import new_game
    from ._game import GameState

    if not isinstance(pack, RulePack):
        pack = load_pack(pack)
    checked = 0
    for game in range(games):
        state = new_game(pack, players=players, seed=seed + game, options=options)
        rng = random.Random(seed * 7919 + game)
        n_cards = len([c for ids in state.zone_cards().values() for c in ids])
        results = 0

        def fail(what: str) -> ConformanceError:
            tail = ", ".join(state.history[-5:])
            return ConformanceError(f"{pack.name}, {players} players, game seed {seed + game}, "
                                    f"after {len(state.history)} actions (… {tail}): {what}")

        for step in range(max_actions):
            if state.is_over or (hands is not None and len(state.hand_results) >= hands):
                break
            legal = state.legal_actions()
            if not legal:  # the dealt position (after an action, checked below)
                raise fail(_dead_end(state))
            if step % every == 0:
                _check_position(state, legal, rng, fail)
            state.apply(legal[rng.randrange(len(legal))])
            checked += 1
            ids = sorted(c for zone in state.zone_cards().values() for c in zone)
            if ids != list(range(n_cards)):
                raise fail("card conservation: a card is missing or in two zones")
            if not state.is_over and not state.legal_actions():
                raise fail(_dead_end(state))
            if len(state.hand_results) > results:
                results = len(state.hand_results)
                hr = state.hand_results[-1]
                if tuple(state.rescore(hr)) != tuple(hr.totals):
                    raise fail("a finished hand does not rescore to its recorded totals")
        else:
            raise fail(f"the game did not end within {max_actions} actions")
        saved = state.to_json()
        if GameState.from_json(saved, pack=pack).to_json() != saved:
            raise fail("the finished game does not load back equal")
    return checked


def _dead_end(state) -> str:
    """The liveness failure of a state with no legal action that is not over."""
    return (f"liveness: no legal action in the {state.phase} phase (hand "
            f"{state.hand_number}, seat {state.current_player} to move) of a game that is "
            "not over")


def _check_position(state, legal, rng, fail) -> None:
    from ._errors import IllegalActionError
    from ._game import GameState

    for a in legal:
        if state.check(a) is not None:
            raise fail(f"legal action {a} is refused by check: {state.check(a)}")
    before = state.to_json()
    if GameState.from_json(before, pack=state.pack).to_json() != before:
        raise fail("a save does not load back equal")
    twin = state.clone()
    if twin.to_json() != before:
        raise fail("a clone differs from its original")
    twin.apply(legal[0])
    if state.to_json() != before:
        raise fail("applying an action to a clone changed the original")
    words = sorted({str(a).split()[0] for a in legal} | {"draw", "discard", "meld", "pass"})
    for _ in range(3):
        text = f"{rng.choice(words)} {rng.choice(['', 'JK', '3', '9 9', 'KS 9', '1 to 4'])}"
        try:
            a = state.parse_action(text)
        except IllegalActionError:
            continue
        if a in legal:
            continue
        try:
            state.apply(a)
        except IllegalActionError:
            if state.to_json() != before:
                raise fail(f"refused action {text!r} changed the state") from None
        else:
            raise fail(f"{text!r} applied although legal_actions() does not list it")
