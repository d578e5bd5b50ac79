"""The fast legal-action generator agrees with the full rules (`check`) everywhere.

`legal_actions()` builds most actions legal by construction and sends only the doubtful
ones through `check`; here, over random play of every rummy pack, it must equal the
candidates that `check` accepts, and every well-formed meld/add/discard the hand could
pay for that is missing from it must be refused by `check`.
"""

from __future__ import annotations

import itertools
import random

import pytest

import meldkit
from meldkit._actions import ADD, DISCARD, MELD

TABLES = [("pony_tail", 4), ("pony_tail", 6), ("pony_canasta", 2), ("pony_canasta", 5)]


def _exhaustive_play_actions(state):
    """Every meld, add and discard naming cards the player holds (up to 8 cards)."""
    hand = [r for r, cards in enumerate(state.hands[state.current]) for _ in cards]
    space = state.actions
    seen = set()
    for k in range(1, min(8, len(hand)) + 1):
        for combo in itertools.combinations(hand, k):
            if combo in seen:
                continue
            seen.add(combo)
            cards = space.canonical(combo)
            yield space.get(MELD, cards)
            for target in set(combo) | {14}:
                yield space.get(ADD, cards, target)
    for r in set(hand):
        yield space.get(DISCARD, (r,))


@pytest.mark.parametrize("pack,players", TABLES)
def test_legal_actions_equal_the_candidates_check_accepts(pack, players):
    for seed in range(3):
        state = meldkit.new_game(pack, players=players, seed=seed)
        rng = random.Random(seed)
        for step in range(600):
            if state.is_over:
                break
            legal = state.legal_actions()
            assert legal == [a for a in state._candidates() if state._check(a) is None]
            if state.phase == "play" and step % 7 == 0 and state.hand_size[state.current] <= 14:
                legal_set = set(legal)
                for a in _exhaustive_play_actions(state):
                    assert (a in legal_set) == (state.check(a) is None), str(a)
            state.apply(legal[rng.randrange(len(legal))])
