"""meldkit — a rules engine for rummy-family card games, configured by YAML rule packs.

>>> import meldkit
>>> "pony_tail" in meldkit.available_packs()
True
>>> game = meldkit.new_game("pony_tail", players=4, seed=7)
>>> game.apply("draw")
>>> game.phase
'play'
"""

from __future__ import annotations

import itertools
import os
from typing import TYPE_CHECKING, Any

from ._actions import Action
from ._cards import MAX_DECK_CARDS, RANKS, SUITS, card_code, kind_of_code
from ._errors import (
    IllegalActionError,
    MeldkitError,
    NotationError,
    PackProblem,
    PluginError,
    RulePackError,
    SaveError,
    SetupError,
    StuckGameError,
)
from ._game import GameState
from ._rules import Rules
from ._scoring import HandFinal, TeamScore, score_hand
from ._actions import Reason
from ._state import HandResult

if TYPE_CHECKING:
    from ._loader import available_packs, check_pack, load_pack, load_pack_text
    from .kernel.state import KernelState, RummyState
    from ._pack import RulePack
    from .plugins import ActionHook, Plugin

# The pack loader (ruamel.yaml, cattrs) and the plugin registry (importlib.metadata) load
# on first use, so that `import meldkit` stays fast.
_LAZY = {
    "KernelState": "kernel.state",
    "RummyState": "kernel.state",
    "RulePack": "_pack",
    "available_packs": "_loader",
    "check_pack": "_loader",
    "load_pack": "_loader",
    "load_pack_text": "_loader",
    "ActionHook": "plugins",
    "Plugin": "plugins",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'meldkit' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))


__version__ = "0.1.0"

__all__ = [
    "RANKS",
    "SUITS",
    "card_code",
    "kind_of_code",
    "Action",
    "ActionHook",
    "Plugin",
    "KernelState",
    "RummyState",
    "GameState",
    "HandFinal",
    "HandResult",
    "IllegalActionError",
    "MeldkitError",
    "NotationError",
    "PackProblem",
    "PluginError",
    "Reason",
    "RulePack",
    "RulePackError",
    "Rules",
    "SaveError",
    "SetupError",
    "StuckGameError",
    "TeamScore",
    "available_packs",
    "check_pack",
    "load_pack",
    "load_pack_text",
    "new_game",
    "score_hand",
]


def new_game(
    pack: RulePack | str | os.PathLike,
    players: int,
    seed: int | None = None,
    options: dict | None = None,
    deck_order: list[str] | None = None,
) -> GameState:
    """Start a game: deal the first hand of ``pack`` to ``players`` seats.

    ``seed`` fixes every shuffle and draw by lot: the same seed deals the same game, so a
    seed is a secret — whoever knows it knows every hidden card and every future deal.
    Without one, a 128-bit seed is drawn from the operating system's random source
    (:func:`secrets.randbits`); pass a seed only to reproduce a game.  ``options`` holds
    game options (``partners``: play in partnerships where the pack makes them optional;
    ``first_player``: the seat that starts, instead of a draw by lot; ``contracts_met``:
    with ``initial_meld.contracts``, how many each seat has met at the start). ``deck_order``
    stacks the top of the first hand's deck (card codes, top first); the rest is shuffled.
    Each argument is checked before anything is dealt: a bad one is refused with a
    :class:`SetupError` that names it and what was expected.

    >>> g = new_game("pony_tail", players=4, seed=3, options={"first_player": 0})
    >>> g.current_player
    0
    """
    from ._pack import RulePack
    from ._registry import engine_for

    if not isinstance(pack, RulePack):
        from ._loader import load_pack

        pack = load_pack(pack)
    if seed is None:
        import secrets

        seed = secrets.randbits(128)
    if deck_order is not None and not isinstance(deck_order, (str, bytes)):
        try:
            # any iterable of codes, read once and never past what a deck can hold
            deck_order = list(itertools.islice(deck_order, MAX_DECK_CARDS + 1))
        except TypeError:
            pass  # not iterable: refused, named, with the other setup checks
    return engine_for(pack)._new(pack, players, seed, options, deck_order)
