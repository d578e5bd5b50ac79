"""The PettingZoo and OpenSpiel adapters pass their frameworks' own test suites for every
bundled pack (issue 13, item 6); small game counts, skipped without the extras."""

from __future__ import annotations

import pytest
from ai_tables import seats, tables

TABLES = tables(*[])


@pytest.mark.parametrize("pack,players", TABLES)
def test_pettingzoo_api_test_and_seed_test_pass(pack, players):
    players = seats(pack, players)
    pytest.importorskip("pettingzoo")
    from pettingzoo.test import api_test, seed_test

    from meldkit.adapters.pettingzoo import env

    api_test(env(pack, players=players), num_cycles=200, verbose_progress=False)
    seed_test(lambda: env(pack, players=players), num_cycles=100)


def test_pettingzoo_plays_a_whole_game_to_its_rewards():
    pytest.importorskip("pettingzoo")
    import numpy as np

    from meldkit.adapters.pettingzoo import env

    e = env("houses", players=4)
    e.reset(seed=3)
    rng = np.random.default_rng(0)
    total = {a: 0.0 for a in e.possible_agents}
    for agent in e.agent_iter(max_iter=20_000):
        obs, reward, term, trunc, _ = e.last()
        total[agent] += reward
        if term or trunc:
            e.step(None)
            continue
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert sorted(total.values()) in ([-1.0, -1.0, 1.0, 1.0], [0.0] * 4)


@pytest.mark.parametrize("pack,players", TABLES)
def test_openspiel_random_sim_test_with_serialization_passes(pack, players):
    players = seats(pack, players)
    pyspiel = pytest.importorskip("pyspiel")
    import meldkit.adapters.openspiel  # noqa: F401  (registers the game)

    game = pyspiel.load_game("python_meldkit", {"pack": pack, "players": players,
                                                "max_actions": 100})
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_openspiel_whole_game_and_private_information_state():
    pyspiel = pytest.importorskip("pyspiel")
    import numpy as np

    import meldkit.adapters.openspiel  # noqa: F401

    game = pyspiel.load_game("python_meldkit", {"pack": "houses", "players": 4})
    state = game.new_initial_state()
    state.apply_action(5)
    rng = np.random.default_rng(1)
    while not state.is_terminal():
        state.apply_action(int(rng.choice(state.legal_actions())))
    assert sum(state.returns()) == 0 and state.history()[0] == 5
    s = state.s
    for p in range(4):
        mine = state.information_state_string(p)
        for q in range(4):
            if q != p and s.view(q)["hand"]:
                assert str(s.view(q)["hand"]) not in mine
    again = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))[1]
    assert again.information_state_string(2) == state.information_state_string(2)
