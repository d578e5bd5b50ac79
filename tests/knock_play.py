"""Self-play of knocking packs shared by the multi-player knock tests: random, then greedy,
bots play each seed's game to the end, and every card the deal holds is still there."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import meldkit
from meldkit.bots import GreedyBot, RandomBot


def cards_of(g) -> list[int]:
    """Every card of the game's zones, sorted."""
    return sorted(c for zone in g.zone_cards().values() for c in zone)


def bot_games(pack, players: int, seeds: range,
              after_move: Callable[[object, object, str, list[int]], None] | None = None
              ) -> Iterator[object]:
    """Each seed's game played by random bots, then by greedy ones, to the end; yields each
    finished game. ``after_move(g, action, phase_before, cards)`` runs after every move
    (``cards``: the game's cards at the deal, sorted)."""
    for seed in seeds:
        for bots in ([RandomBot(seed * 10 + i) for i in range(players)],
                     [GreedyBot(seed)] * players):
            g = meldkit.new_game(pack, players=players, seed=seed)
            cards = cards_of(g)
            for _ in range(200_000):
                if g.is_over:
                    break
                phase = g.phase
                a = bots[g.current_player].choose(g)
                g.apply(a)
                if after_move is not None:
                    after_move(g, a, phase, cards)
            assert g.is_over
            assert cards_of(g) == cards
            yield g
