"""Observation vectors (issue 13, item 2): a flat array('f') per player whose slices the
spec names, carrying the player's own cards and nothing hidden from them."""

from __future__ import annotations

import random
from array import array

import pytest
from ai_tables import seats, tables
from strategies import shuffle_hidden

import meldkit

TABLES = tables(*[])


def positions(pack, players, actions=120, seed=3):
    rng = random.Random(seed)
    g = meldkit.new_game(pack, players=players, seed=seed)
    for _ in range(actions):
        if g.is_over:
            return
        yield g
        g.apply(rng.choice(g.legal_actions()))


@pytest.mark.parametrize("pack,players", TABLES)
def test_spec_slices_tile_the_vector_and_hand_counts_match(pack, players):
    players = seats(pack, players)
    g = meldkit.new_game(pack, players=players, seed=1)
    spec = g.observation_spec()
    ends = 0
    for name, start, length, meaning in spec.fields:
        assert start == ends and length > 0 and meaning
        ends += length
    assert ends == spec.size
    for g in positions(pack, players):
        for p in range(players):
            obs = g.observation(p)
            assert isinstance(obs, array) and obs.typecode == "f" and len(obs) == spec.size
            hand = g.view(p)["hand"]
            assert sum(obs[spec["hand"]]) == len(hand)
            assert obs[spec["hand_sizes"]][0] == len(hand)


@pytest.mark.parametrize("pack,players", TABLES)
def test_observation_does_not_change_when_hidden_cards_are_shuffled(pack, players):
    players = seats(pack, players)
    rng = random.Random(5)
    spec = meldkit.new_game(pack, players=players, seed=1).observation_spec()
    checked = 0
    for i, g in enumerate(positions(pack, players, actions=60)):
        if i % 6:
            continue
        for p in range(players):
            other = shuffle_hidden(g, p, rng)
            a, b = other.observation(p), g.observation(p)
            if "passed_by_me" in spec:  # the passer knows the card (the helper hides it)
                a[spec["passed_by_me"]] = b[spec["passed_by_me"]]
            assert a == b, (i, p)
            checked += 1
    assert checked >= 10


def test_seats_are_relative_to_the_observer():
    g = meldkit.new_game("rummy", players=3, seed=2, options={"first_player": 1})
    spec = g.observation_spec()
    assert list(g.observation(1)[spec["to_move"]]) == [1, 0, 0]
    assert list(g.observation(0)[spec["to_move"]]) == [0, 1, 0]


def test_bad_player_is_a_clear_error():
    g = meldkit.new_game("gin_rummy", players=2, seed=2)
    with pytest.raises(ValueError, match="seat 0..1"):
        g.observation(2)
    with pytest.raises(KeyError, match="no slice 'nope'"):
        g.observation_spec()["nope"]


def test_houses_passer_sees_the_card_they_passed_and_no_one_else_does():
    rng = random.Random(1)
    g = meldkit.new_game("houses", players=4, seed=4)
    spec = g.observation_spec()
    for _ in range(400):
        passes = [a for a in g.legal_actions() if a.type == "pass" and a.cards]
        if passes:
            p = g.current_player
            g.apply(passes[0])
            card = passes[0].cards[0]
            assert g.observation(p)[spec["passed_by_me"]][card] == 1
            for q in range(4):
                if q != p:
                    assert sum(g.observation(q)[spec["passed_by_me"]]) == 0
            return
        g.apply(rng.choice(g.legal_actions()))
    pytest.fail("no pass in 400 moves")
