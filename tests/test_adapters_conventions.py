"""The adapters follow their frameworks' conventions (issue 22, items 2-4): OpenSpiel's
algorithms (ISMCTS in Python, evaluate_bots) run unchanged on ``python_meldkit``, with
resampling, undo, card-level chance and one-hand episodes; every parameter and input is
checked; the PettingZoo environment behaves as the classic environments do.  Each test
skips without its extra and plays short games."""

from __future__ import annotations

import pathlib
import subprocess
import sys
import textwrap

import pytest

import meldkit

# ---------------------------------------------------------------------------- OpenSpiel


def _spiel():
    pyspiel = pytest.importorskip("pyspiel")
    import meldkit.adapters.openspiel  # noqa: F401  (registers the game)

    return pyspiel


def _play_chance(state, rng):
    outcomes, probs = zip(*state.chance_outcomes())
    state.apply_action(int(rng.choice(outcomes, p=probs)))


def _random_step(state, rng):
    if state.is_chance_node():
        _play_chance(state, rng)
    else:
        state.apply_action(int(rng.choice(state.legal_actions())))


@pytest.mark.parametrize("params,says", [
    ({"deals": 0}, "'deals' must be a number of deals 1..1,000,000 (got 0"),
    ({"deals": -5}, "(got -5"),
    ({"pack": "gin_rumy"}, "'pack' must be a bundled pack's name"),
    ({"pack": "gin_rummy", "players": 3}, "'players' must be 0 (the smallest table) or 2..2"),
    ({"pack": "houses", "players": 1}, "or 4..4 for pack 'houses' (got 1"),
    ({"max_actions": -1}, "'max_actions' must be 0"),
    ({"chance": "dice"}, "'chance' must be one of seed, cards (got 'dice')"),
    ({"episode": "game"}, "'episode' must be one of match, hand"),
    ({"chance": "cards"}, "chance 'cards' needs episode 'hand'"),
])
def test_openspiel_every_parameter_is_checked_with_a_sentence(params, says):
    pyspiel = _spiel()
    with pytest.raises(meldkit.SetupError) as e:
        pyspiel.load_game("python_meldkit", params)
    assert says in str(e.value)


def test_the_adapters_messages_repeat_at_most_a_cut_of_a_huge_parameter():
    """Both adapters once echoed a 100,000-character parameter whole in the message."""
    pyspiel = _spiel()
    pytest.importorskip("pettingzoo")
    from meldkit.adapters import pettingzoo as pz

    huge = "z" * 100_000
    for make in (lambda: pyspiel.load_game("python_meldkit", {"pack": huge}),
                 lambda: pz.env("gin_rummy", players=huge)):
        with pytest.raises(meldkit.SetupError) as e:
            make()
        assert len(str(e.value)) < 600 and "zzz…" in str(e.value)


def test_openspiel_direct_construction_refuses_bools_and_unknown_parameters():
    _spiel()
    from meldkit.adapters.openspiel import MeldkitGame

    with pytest.raises(meldkit.SetupError, match="'players' must be .* that is a bool"):
        MeldkitGame({"players": True})
    with pytest.raises(meldkit.SetupError, match="unknown parameter"):
        MeldkitGame({"decks": 2})


def test_openspiel_chance_outcomes_and_action_ids_out_of_range_or_bool_are_refused():
    pyspiel = _spiel()
    game = pyspiel.load_game("python_meldkit", {"pack": "gin_rummy"})
    state = game.new_initial_state()
    with pytest.raises(meldkit.IllegalActionError, match="chance outcome 1000000000 cannot "
                                                         "come now .outcomes: 0..999"):
        state.apply_action(10**9)
    for bad in (True, False):
        with pytest.raises(meldkit.IllegalActionError, match="not bool"):
            state.apply_action(bad)
    assert state.is_chance_node() and state.history() == []
    state.apply_action(3)
    for bad in (10**6, game.num_distinct_actions()):
        with pytest.raises(meldkit.IllegalActionError, match="outside the action space"):
            state.apply_action(bad)
    illegal = next(a for a in range(game.num_distinct_actions())
                   if a not in state.legal_actions())
    with pytest.raises(meldkit.IllegalActionError):
        state.apply_action(illegal)
    with pytest.raises(meldkit.IllegalActionError, match="not bool"):
        state.apply_action(True)
    with pytest.raises(meldkit.IllegalActionError, match="not bool"):
        state.apply_action_with_legality_check(True)
    with pytest.raises(meldkit.IllegalActionError, match="not bool"):
        state.undo_action(True, 3)
    assert state.history() == [3]


def test_openspiel_card_chance_deals_card_by_card_and_draws_from_the_stock_by_chance():
    pyspiel = _spiel()
    game = pyspiel.load_game("python_meldkit", {"pack": "gin_rummy", "chance": "cards",
                                                "episode": "hand"})
    assert game.max_chance_outcomes() == 52
    state = game.new_initial_state()
    dealt = 0
    while state.is_chance_node():  # 2 hands of 10 and the upcard, as OpenSpiel's gin
        outcomes = state.chance_outcomes()
        assert len(outcomes) == 52 - dealt
        assert {p for _, p in outcomes} == {1 / (52 - dealt)}
        state.apply_action(outcomes[-1][0])
        dealt += 1
    assert dealt == 21
    assert sorted(state.s.view(state.s.hand_first)["hand"]) == sorted(
        game.card_kinds[k] for k in range(51, 41, -1))
    draw = state.s.action_space.id_of(state.s.parse_action("draw"))
    while draw not in state.legal_actions():  # pass, pass: then draw
        state.apply_action(state.s.action_space.id_of(state.s.parse_action("pass")))
    drawer = state.current_player()
    state.apply_action(draw)
    assert state.is_chance_node()
    outcomes = dict(state.chance_outcomes())
    assert len(outcomes) == 31 and abs(sum(outcomes.values()) - 1) < 1e-9
    kind = game.card_kinds[min(outcomes)]
    assert kind not in state.s.view(drawer)["hand"]
    state.apply_action(min(outcomes))
    assert not state.is_chance_node() and kind in state.s.view(drawer)["hand"]
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, min(outcomes)) == f"draw {kind}"
    # the stacked deck still replays from its seed: meldkit's own tools work on the state
    assert len(state.s.public_history()) == len(state.s.history) + 1
    with pytest.raises(meldkit.IllegalActionError):
        state.apply_action(draw)


def test_openspiel_card_chance_gives_every_card_a_deal_takes_its_own_uniform_node():
    """A canasta deal replaces each bonus card dealt from the stock, so how many cards it
    takes varies (Pony Tail: 114 to 120 and more); those past the first deal's count came
    from a fixed order (72% of deals, skewed to a few kinds), not from chance."""
    import collections
    import random

    pyspiel = _spiel()
    game = pyspiel.load_game("python_meldkit", {"pack": "pony_tail", "chance": "cards",
                                                "episode": "hand", "players": 4})
    rng = random.Random(2)
    counts, extra = set(), collections.Counter()
    for _ in range(60):
        state = game.new_initial_state()
        t = state.g
        while state.s is None:
            left = collections.Counter(t.codes)
            left.subtract(t.kinds[k] for k in state.dealing)
            n = t.deck_size - len(state.dealing)
            outcomes = state.chance_outcomes()
            assert outcomes == [(i, left[k] / n) for i, k in enumerate(t.kinds) if left[k]]
            state.apply_action(rng.choice([o for o, _ in outcomes]))
        assert t.deck_size - len(state.s.stock) <= len(state.dealing)  # all chance's
        counts.add(len(state.dealing))
        extra.update(state.dealing[t.dealt:])
    assert len(counts) >= 3 and len(extra) > 20  # a node more for each card more
    assert game.max_game_length() >= t.deck_size


def test_openspiel_one_hand_episode_returns_that_hands_point_differences():
    pyspiel = _spiel()
    from meldkit.bots import make_bot

    bot = make_bot("greedy", seed=1)  # random play seldom knocks
    game = pyspiel.load_game("python_meldkit", {"pack": "gin_rummy", "episode": "hand"})
    assert game.max_utility() > 100
    scored = 0
    for deal in range(4):
        state = game.new_initial_state()
        state.apply_action(deal)
        while not state.is_terminal():
            state.apply_action(state.s.action_space.id_of(bot.choose(state.s)))
        t = state.s.hand_results[0].totals
        assert state.returns() == [float(t[0] - t[1]), float(t[1] - t[0])]
        assert len(state.s.hand_results) == 1
        scored += any(t)
    assert scored  # some hand scored points


def test_openspiel_resample_from_infostate_keeps_what_the_player_saw():
    pyspiel = _spiel()
    import numpy as np

    rng = np.random.default_rng(2)
    for params in ({"pack": "gin_rummy"}, {"pack": "rummy", "players": 3, "chance": "cards",
                                           "episode": "hand"}):
        game = pyspiel.load_game("python_meldkit", params)
        state = game.new_initial_state()
        for _ in range(60):
            if state.is_terminal():
                break
            _random_step(state, rng)
        while state.is_chance_node():
            _play_chance(state, rng)
        p = state.current_player()
        other = (p + 1) % game.num_players()
        changed = 0
        for _ in range(5):
            r = state.resample_from_infostate(p, rng.random)
            assert r.information_state_string(p) == state.information_state_string(p)
            assert r.observation_tensor(p) == state.observation_tensor(p)
            assert r.legal_actions() == state.legal_actions()
            changed += r.s.view(other)["hand"] != state.s.view(other)["hand"]
            r.apply_action(r.legal_actions()[0])  # a resampled state plays on
        assert changed


def test_openspiel_undo_action_restores_every_position_back_to_the_start():
    pyspiel = _spiel()
    import numpy as np

    rng = np.random.default_rng(3)
    for params in ({"pack": "gin_rummy", "max_actions": 50},
                   {"pack": "gin_rummy", "chance": "cards", "episode": "hand"}):
        game = pyspiel.load_game("python_meldkit", params)
        state = game.new_initial_state()
        seen = []
        for _ in range(45):
            if state.is_terminal():
                break
            seen.append((str(state), state.history(), state.information_state_string(0)))
            _random_step(state, rng)
        while state.history():
            player, action = state.full_history()[-1].player, state.full_history()[-1].action
            state.undo_action(player, action)
            assert (str(state), state.history(), state.information_state_string(0)) \
                == seen.pop()
        assert state.move_number() == 0 and state.is_chance_node()
        with pytest.raises(meldkit.IllegalActionError, match="undo"):
            state.undo_action(0, 1)


def test_openspiel_information_state_tensor_is_refused_not_the_observation():
    pyspiel = _spiel()
    game = pyspiel.load_game("python_meldkit", {"pack": "gin_rummy"})
    assert not game.get_type().provides_information_state_tensor
    state = game.new_initial_state()
    state.apply_action(1)
    with pytest.raises(meldkit.MeldkitError, match="no information-state tensor"):
        state.information_state_tensor(0)
    from open_spiel.python.observation import make_observation

    recall = make_observation(game, pyspiel.IIGObservationType(perfect_recall=True))
    assert recall.tensor is None
    assert "seat" in recall.string_from(state, 0) or "hand 1 dealt" in recall.string_from(
        state, 0)


def _ismcts(game, seed, sims):
    import numpy as np
    from open_spiel.python.algorithms import ismcts, mcts

    rng = np.random.RandomState(seed)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)

    class Bot(ismcts.ISMCTSBot):  # OpenSpiel's Python ISMCTS keeps no state between moves
        def restart_at(self, state):
            pass

        def inform_action(self, state, player_id, action):
            pass

    return Bot(game, evaluator, uct_c=2.0, max_simulations=sims, random_state=rng)


@pytest.mark.parametrize("params", [
    {"pack": "gin_rummy", "max_actions": 40},
    {"pack": "gin_rummy", "chance": "cards", "episode": "hand", "max_actions": 40},
])
def test_openspiel_python_ismcts_plays_a_few_moves(params):
    pyspiel = _spiel()
    import numpy as np

    game = pyspiel.load_game("python_meldkit", params)
    bot = _ismcts(game, 0, 10)
    rng = np.random.default_rng(0)
    state = game.new_initial_state()
    moves = 0
    while moves < 4:
        if state.is_chance_node():
            _play_chance(state, rng)
            continue
        action = bot.step(state)  # resample_from_infostate at every simulation
        assert action in state.legal_actions()
        state.apply_action(action)
        moves += 1


def test_openspiel_plays_a_pack_of_your_own_registered_by_path(tmp_path):
    """A researcher's own pack (here the example Rummikub, rearranging the table) is a
    python_meldkit game once registered: OpenSpiel's random_sim_test and its Python ISMCTS
    run on it."""
    pyspiel = _spiel()
    import numpy as np
    from meldkit.adapters.openspiel import register_pack

    path = pathlib.Path(__file__).resolve().parents[1] / "examples" / "packs" / "rummikub.yaml"
    name = register_pack(str(path), name="my_rummikub")
    assert name == "my_rummikub"
    assert register_pack(path, name="my_rummikub") == name  # the same pack again: fine
    game = pyspiel.load_game(f"python_meldkit(pack={name},max_actions=200)")
    assert game.get_parameters()["pack"] == name
    assert game.num_distinct_actions() == meldkit.new_game(
        meldkit.load_pack(path), players=2, seed=0).action_space.size
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)
    # (serialize=True: a registered pack's state unpickles with that pack, where its save
    # looked the pack up among the bundled ones and was refused, an RL audit's finding)
    import pickle

    state = game.new_initial_state()
    while state.is_chance_node():
        _play_chance(state, np.random.default_rng(0))
    assert str(pickle.loads(pickle.dumps(state))) == str(state)
    bot = _ismcts(game, 0, 5)
    rng = np.random.default_rng(1)
    state = game.new_initial_state()
    while state.is_chance_node():
        _play_chance(state, rng)
    if state.current_player() == 0:
        assert bot.step(state) in state.legal_actions()


def test_openspiel_register_pack_refuses_clashing_names_and_packs_without_ids(tmp_path):
    pyspiel = _spiel()
    from meldkit.adapters.openspiel import register_pack

    mine = meldkit.load_pack_text("extends: gin_rummy\nname: mine_to_50\ngame: {target: 50}\n")
    other = meldkit.load_pack_text("extends: gin_rummy\nname: mine_to_50\ngame: {target: 60}\n")
    assert register_pack(mine) == "mine_to_50"
    for pack, name, says in [
        (mine, "gin_rummy", "'gin_rummy' is a bundled pack's name"),
        (other, None, "'mine_to_50' names another pack already"),
        (mine, "has space", "name must be 1 to 64 letters"),
        (mine, True, "name must be"),
        (42, None, "pack must be a RulePack"),
        (meldkit.load_pack_text("extends: rummy_500\nname: r500x\ndeck: {decks: 10}\n"
                                "players: {max: 8}\n"), None, "cannot be an OpenSpiel game"),
    ]:
        with pytest.raises(meldkit.SetupError, match="register_pack") as e:
            register_pack(pack, name=name)
        assert says in str(e.value)
    with pytest.raises(meldkit.RulePackError):
        register_pack(tmp_path / "missing.yaml")
    with pytest.raises(meldkit.SetupError, match="registered: .*mine_to_50"):
        pyspiel.load_game("python_meldkit", {"pack": "unregistered"})
    assert pyspiel.load_game("python_meldkit", {"pack": "mine_to_50"}).num_players() == 2


def test_openspiel_evaluate_bots_plays_ismcts_against_random():
    pyspiel = _spiel()
    import numpy as np
    from open_spiel.python.algorithms import evaluate_bots

    game = pyspiel.load_game("python_meldkit", {"pack": "gin_rummy", "chance": "cards",
                                                "episode": "hand", "max_actions": 40})
    bots = [_ismcts(game, 1, 4), pyspiel.make_uniform_random_bot(1, 7)]
    returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots,
                                          np.random.RandomState(5))
    assert len(returns) == 2 and sum(returns) == 0


_CPP_ISMCTS = textwrap.dedent("""
    import pyspiel
    import meldkit.adapters.openspiel
    game = pyspiel.load_game("python_meldkit", {"pack": "gin_rummy", "max_actions": 40})
    state = game.new_initial_state()
    state.apply_action(3)
    bot = pyspiel.ISMCTSBot(1, pyspiel.RandomRolloutEvaluator(1, 1), 2.0, 10, 5,
                            pyspiel.ISMCTSFinalPolicyType.NORMALIZED_VISIT_COUNT,
                            False, False)
    for _ in range(3):
        action = bot.{call}(state)
        state.apply_action(action[1] if isinstance(action, tuple) else action)
    print("played")
""")


def _run(code: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, check=False)


@pytest.mark.xfail(strict=True, reason=(
    "pyspiel 2.0.2 cannot run its C++ ISMCTS on any Python game: ISMCTSBot.step releases "
    "the GIL and then calls the Python observer (a segfault), and PyState has no "
    "trampoline for ResampleFromInfostate, so C++ never reaches the Python "
    "resample_from_infostate. Strict: this fails once OpenSpiel fixes both"))
def test_openspiel_cpp_ismcts_plays_a_few_moves_in_a_subprocess():
    _spiel()
    done = _run(_CPP_ISMCTS.replace("{call}", "step"))
    assert done.returncode == 0 and "played" in done.stdout, done.stderr[-500:]


def test_openspiel_cpp_ismcts_failure_is_pyspiels_not_the_adapters():
    """The diagnosis the xfail above names, pinned: with the GIL held (``step_with_policy``
    does not release it) C++ ISMCTS gets as far as resampling and stops at OpenSpiel's
    own ``ResampleFromInfostate() not implemented`` — the base State method, because
    pyspiel's PyState does not forward it to Python — while the same state resamples
    from Python."""
    _spiel()
    done = _run(_CPP_ISMCTS.replace("{call}", "step_with_policy"))
    assert done.returncode == 1, (done.returncode, done.stderr[-500:])
    assert "ResampleFromInfostate() not implemented" in done.stderr
    crash = _run(_CPP_ISMCTS.replace("{call}", "step"))
    assert crash.returncode < 0 or "played" not in crash.stdout  # killed by a signal
    resampled = _run(_CPP_ISMCTS.split("bot =")[0] + textwrap.dedent("""
        import random
        r = state.resample_from_infostate(state.current_player(), random.random)
        assert r.information_state_string() == state.information_state_string()
        print("resampled")
    """))
    assert "resampled" in resampled.stdout, resampled.stderr[-500:]


# ---------------------------------------------------------------------------- PettingZoo


def _zoo():
    pytest.importorskip("pettingzoo")
    from meldkit.adapters import pettingzoo

    return pettingzoo


def test_pettingzoo_illegal_move_ends_the_game_with_the_mover_penalised():
    zoo = _zoo()
    import numpy as np

    for make in (zoo.env, zoo.raw_env):
        e = make("gin_rummy")
        e.reset(seed=2)
        mover = e.agent_selection
        mask = e.observe(mover)["action_mask"]
        e.step(int(np.flatnonzero(mask == 0)[0]))
        assert all(e.terminations.values()) and all(e.truncations.values())
        assert e.rewards == {mover: -1.0, next(a for a in e.agents if a != mover): 0.0}
        assert e.infos[mover]["illegal_move"] is True
        _, _, term, trunc, _ = e.last()
        assert term and trunc
        total = dict.fromkeys(e.possible_agents, 0.0)
        for agent in e.agent_iter(max_iter=10):
            total[agent] += e.last()[1]
            e.step(None)
        assert not e.agents and total[mover] == -1.0


def test_pettingzoo_bool_none_and_out_of_range_actions_are_refused():
    zoo = _zoo()
    import numpy as np

    e = zoo.raw_env("gin_rummy")
    e.reset(seed=1)
    for bad in (True, np.bool_(False), None, 1.0, "pass", -1, e.ids.size):
        with pytest.raises(meldkit.IllegalActionError, match="action"):
            e.step(bad)
    assert not any(e.terminations.values()) and e.state_.history == []
    wrapped = zoo.env("gin_rummy")
    wrapped.reset(seed=1)
    with pytest.raises(meldkit.IllegalActionError, match="not bool"):
        wrapped.step(True)
    with pytest.raises(AssertionError):
        wrapped.step(10**6)


def _trace(e, moves: int, rng_seed: int):
    import numpy as np

    rng = np.random.default_rng(rng_seed)
    out = []
    for agent in e.agent_iter(max_iter=moves):
        obs, reward, term, trunc, _ = e.last()
        out.append((agent, obs["observation"].tobytes(), reward))
        if term or trunc:
            e.step(None)
        else:
            e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return out


def test_pettingzoo_reset_after_a_seeded_reset_is_reproducible():
    zoo = _zoo()
    runs = []
    for _ in range(2):
        e = zoo.env("rummy", players=3)
        e.reset(seed=11)
        first = _trace(e, 30, 0)
        e.reset()  # the next game of the seeded stream
        second = _trace(e, 30, 1)
        e.reset()
        runs.append((first, second, _trace(e, 30, 2)))
    assert runs[0] == runs[1]
    assert runs[0][0][0][1] != runs[0][1][0][1]  # each reset deals a new game


@pytest.mark.parametrize("pack", meldkit.available_packs())
def test_pettingzoo_observations_stay_within_the_true_bounds(pack):
    zoo = _zoo()
    import numpy as np

    e = zoo.raw_env(pack, max_actions=300)
    box = e.observation_space(e.possible_agents[0])["observation"]
    spec = e.spec_
    for name, start, length, _ in spec.fields:
        finite = np.isfinite(box.high[start:start + length]).all()
        assert finite == (name not in ("scores", "hand_number")), name
    assert box.high.max(initial=0, where=np.isfinite(box.high)) < 1e4
    e.reset(seed=3)
    rng = np.random.default_rng(0)
    for agent in e.agent_iter(max_iter=300):
        obs, _, term, trunc, info = e.last()
        assert box.contains(obs["observation"]), [
            f for f in spec.fields
            if not box.low[f[1]:f[1] + f[2]].__le__(obs["observation"][f[1]:f[1] + f[2]]).all()
            or not (obs["observation"][f[1]:f[1] + f[2]] <= box.high[f[1]:f[1] + f[2]]).all()]
        assert info["hand_number"] >= 1
        e.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    state = e.state()
    assert state.shape == e.state_space.shape and e.state_space.contains(state)
    assert (state[:spec.size] == e.observe("player_0")["observation"]).all()
