"""examples/train_gin: the one-hand gymnasium wrapper over the PettingZoo env (with the
PettingZoo extra), and a tiny MaskablePPO run (only where sb3-contrib is installed: CI
installs meldkit's extras only, so there that test skips)."""

import importlib.util
import random
import time
from pathlib import Path

import pytest

pytest.importorskip("pettingzoo")
np = pytest.importorskip("numpy")

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "train_gin" / "train_gin.py"


@pytest.fixture(scope="module")
def train_gin():
    spec = importlib.util.spec_from_file_location("train_gin", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_one_hand_episode_against_the_random_bot(train_gin):
    env = train_gin.OneHandGin(shaping=1.0)
    seats = set()
    for seed in range(4):
        obs, _ = env.reset(seed=seed)
        seats.add(env.seat)
        assert env.observation_space.contains(obs)
        total, steps, done = 0.0, 0, False
        while not done:
            mask = env.action_masks()
            assert mask.any() and env.aec.agent_selection == env.me
            obs, reward, term, trunc, info = env.step(int(np.flatnonzero(mask)[-1]))
            total += reward
            steps += 1
            done = term or trunc
        state = env.aec.unwrapped.state_
        assert state.is_over and state.hand_number == 1  # one hand: game.hands 1
        assert info["result"] in (-1, 0, 1) and np.sign(info["points"]) == info["result"]
        # the shaping is potential-based with a zero final potential: it adds the start's
        # -potential only, so the return is the hand's points plus a constant of the deal
        assert steps > 0 and np.isfinite(total)
    assert seats <= {0, 1}


def test_evaluation_prints_an_interval(train_gin):
    result = train_gin.evaluate(train_gin.random_policy(random.Random(0)), 6)
    assert result["won"] + result["tied"] + result["lost"] == 6
    lo, hi = result["score_ci"]
    assert 0 <= lo <= result["score"] <= hi <= 1
    assert "95% CI" in train_gin.report("random agent", result)


def test_trains_on_a_tiny_budget(train_gin, capsys):
    pytest.importorskip("sb3_contrib")
    start = time.process_time()  # CPU time: the machine may be shared
    result = train_gin.main(["--minutes", "0", "--timesteps", "256", "--n-steps", "128",
                             "--batch-size", "64", "--epochs", "1", "--eval-hands", "4"])
    out = capsys.readouterr().out
    assert "trained 256 steps" in out and "trained agent vs random, 4 hands" in out
    assert result["hands"] == 4 and 0 <= result["score"] <= 1
    assert time.process_time() - start < 60
