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


def _exhaustive_sequence_actions(state):
    """Every run of held cards of one suit (up to 7), every extension of each of the side's
    sequences by held cards of any suit (up to 4), and the pile taken onto each of them."""
    from meldkit._actions import EXTEND, RUN, TAKE
    from meldkit._rules import SEQ

    p = state.current
    held = sorted({state.kind_of[c] for cards in state.hands[p] for c in cards
                   if state.kind_of[c] < 52})
    space = state.actions
    runs = [m for m in state.melds[state.team_of[p]] if m.slot == SEQ]
    for k in range(1, 8):
        for combo in itertools.combinations(held, k):
            if len({c % 4 for c in combo}) == 1:
                yield space.lookup(RUN, space.seq_canonical(combo))
            if k <= 4:
                for m in runs:
                    yield space.lookup(EXTEND, space.seq_canonical(combo), m.target)
    for m in runs:
        yield space.lookup(TAKE, (), m.target)


def test_samba_sequences_legal_actions_equal_what_check_accepts():
    """Samba's suited sequences (run, extend, take to): generated exactly when legal."""
    compared = 0
    for seed in range(4):
        state = meldkit.new_game("samba", players=4, seed=seed)
        rng = random.Random(seed)
        for step in range(500):
            if state.is_over:
                break
            legal = state.legal_actions()
            assert legal == [a for a in state._candidates() if state._check(a) is None]
            if step % 5 == 0:
                legal_set = set(legal)
                for a in _exhaustive_sequence_actions(state):
                    assert (a in legal_set) == (state.check(a) is None), str(a)
                    compared += 1
            melding = [a for a in legal if a.type in ("run", "extend", "meld", "add", "take")]
            pool = melding if melding and rng.random() < 0.8 else legal
            state.apply(pool[rng.randrange(len(pool))])
    assert compared > 1000
