"""Bots that choose actions: the interface and a random bot.

A bot is any object with ``choose(state) -> Action`` for the state's current player.

>>> import meldkit
>>> from meldkit.bots import RandomBot
>>> g = meldkit.new_game("pony_tail", players=4, seed=2)
>>> bot = RandomBot(seed=5)
>>> a = bot.choose(g)
>>> a in g.legal_actions()
True
"""

from __future__ import annotations

import random
from typing import Protocol

from ._actions import ADD, MELD, PICKUP, TAKE, Action
from ._state import GameState

_MELDING = frozenset({MELD, ADD, TAKE, PICKUP})


class Bot(Protocol):
    """Chooses the current player's next action."""

    def choose(self, state: GameState) -> Action:
        """An action from ``state.legal_actions()``."""
        ...


class RandomBot:
    """Plays a uniformly random legal action — but melds, lays off, takes the pile or picks
    up its reserve whenever it can (``meld_first``), so that hands make progress."""

    name = "random"

    def __init__(self, seed: int | None = None, meld_first: bool = True):
        self.rng = random.Random(seed)
        self.meld_first = meld_first

    def choose(self, state: GameState) -> Action:
        """A random legal action, melding first."""
        actions = state.legal_actions()
        if self.meld_first:
            melding = [a for a in actions if a.type in _MELDING]
            if melding:
                return self.rng.choice(melding)
        return self.rng.choice(actions)


BOTS: dict[str, type] = {"random": RandomBot}
"""Bot classes by name, as the command line knows them."""


def make_bot(name: str, seed: int | None = None):
    """A bot by name (``random``)."""
    try:
        cls = BOTS[name]
    except KeyError:
        raise ValueError(f"unknown bot {name!r} (expected one of {', '.join(sorted(BOTS))})") from None
    return cls(seed=seed)


def play_game(state: GameState, bots, max_actions: int = 1_000_000) -> GameState:
    """Play ``state`` to the end with one bot per seat; returns the state."""
    n = 0
    while not state.is_over:
        state.apply(bots[state.current].choose(state))
        n += 1
        if n >= max_actions:
            raise RuntimeError(f"game did not finish within {max_actions} actions")
    return state
