"""Many games between bots, with per-game records and a summary.

>>> from meldkit.simulate import simulate
>>> records = list(simulate("pony_tail", players=4, games=1, seed=1))
>>> records[0].hands >= 1 and records[0].winner in (0, 1)
True
"""

from __future__ import annotations

import os
import random
import time
from collections.abc import Callable, Iterator, Sequence

import attrs

from ._loader import RulePack, load_pack
from .bots import make_bot, play_game


@attrs.frozen
class GameRecord:
    """The outcome of one simulated game."""

    game: int
    seed: int
    players: int
    winner: int
    scores: tuple[int, ...]
    hands: int
    decisions: int
    ended_by: tuple[str, ...]
    seconds: float

    def to_dict(self) -> dict:
        """JSON-able form."""
        return attrs.asdict(self, retain_collection_types=False)


def game_seed(seed: int, game: int) -> int:
    """The seed of game number ``game`` of a run seeded ``seed`` (independent of workers)."""
    return random.Random(f"meldkit-sim:{seed}:{game}").getrandbits(62)


def play_one(pack: RulePack, players: int, seed: int, game: int,
             bots: Sequence[str] = ("random",), options: dict | None = None) -> GameRecord:
    """Play game number ``game`` of a run and return its record."""
    from . import new_game

    s = game_seed(seed, game)
    state = new_game(pack, players=players, seed=s, options=options)
    seat_bots = [make_bot(bots[p % len(bots)], seed=s + 1 + p) for p in range(players)]
    t0 = time.perf_counter()
    play_game(state, seat_bots)
    return GameRecord(
        game=game,
        seed=s,
        players=players,
        winner=state.winner,
        scores=tuple(state.scores),
        hands=len(state.hand_results),
        decisions=len(state.history),
        ended_by=tuple(h.ended_by for h in state.hand_results),
        seconds=time.perf_counter() - t0,
    )


def simulate(pack: RulePack | str | os.PathLike, players: int, games: int, seed: int = 0,
             bots: Sequence[str] = ("random",), options: dict | None = None,
             progress: Callable[[int, int], None] | None = None) -> Iterator[GameRecord]:
    """Play ``games`` games and yield their records in order."""
    if not isinstance(pack, RulePack):
        pack = load_pack(pack)
    for i in range(games):
        yield play_one(pack, players, seed, i, bots, options)
        if progress:
            progress(i + 1, games)
