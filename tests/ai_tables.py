"""The tables the game-AI tests play: every bundled pack (new packs join automatically,
at their smallest table), some at a second size."""

from __future__ import annotations

import meldkit

PREFERRED = {"gin_rummy": 2, "oklahoma_gin": 2, "rummy": 3, "houses": 4, "pony_tail": 4,
             "pony_canasta": 2}


def tables(*extra: tuple[str, int]) -> list[tuple[str, int | None]]:
    """``(pack, players)`` for every bundled pack (players None: the pack's smallest
    table), then ``extra``."""
    return [(p, PREFERRED.get(p)) for p in meldkit.available_packs()] + list(extra)


def seats(pack: str, players: int | None) -> int:
    """``players``, or the smallest table of ``pack``."""
    return players if players is not None else meldkit.load_pack(pack).spec.players.min
