"""Train a gin rummy agent on meldkit's PettingZoo environment with MaskablePPO.

The agent learns one hand at a time against meldkit's random bot, then plays held-out
deals against that bot and prints its score with a 95% interval::

    pip install -r examples/train_gin/requirements.txt
    python examples/train_gin/train_gin.py --minutes 5 --eval-hands 400

How it is put together:

* ``meldkit.adapters.pettingzoo.env(pack)`` is the AEC environment; the pack is
  ``gin_one_hand.yaml`` beside this file (gin_rummy with ``game.hands: 1``), so an episode
  is one hand.
* :class:`OneHandGin` turns it into a single-agent gymnasium environment: the agent sits
  in a seat drawn at each reset, the other seat is :class:`meldkit.bots.RandomBot`
  (uniformly random legal moves, melding first), stepped through the same AEC env.
  ``action_masks()`` is the env's ``action_mask``, which MaskablePPO reads, so the agent
  never makes an illegal move.
* The reward is the hand's point difference (``hand_results[0].net``, the knocker's
  deadwood edge, gin and undercut bonuses) divided by ``--point-scale``; ``--reward win``
  uses +1/-1/0 for a won, lost or void hand instead.  ``--shaping`` adds a potential-based
  term (the change of the agent's own deadwood, the potential zero at the end of the hand),
  which leaves the best policy unchanged and speeds up learning to knock.
"""

from __future__ import annotations

import argparse
import math
import random
import time
from pathlib import Path

import gymnasium as gym
import numpy as np
from gymnasium import spaces

import meldkit
from meldkit.adapters.pettingzoo import env as meldkit_env
from meldkit.adapters.pettingzoo import observation_bounds
from meldkit.bots import RandomBot

PACK = Path(__file__).with_name("gin_one_hand.yaml")


class OneHandGin(gym.Env):
    """One hand of gin rummy against a bot, as a single-agent gymnasium environment over
    meldkit's PettingZoo AEC environment.

    Observations are the AEC observation scaled into 0..1 by its true bounds
    (``observation_bounds``; the unbounded slices, scores and the hand number, are 0 and 1
    in a one-hand game).  ``info["points"]`` at the end of an episode is the agent's point
    difference for the hand, ``info["result"]`` 1, 0 or -1.
    """

    def __init__(self, opponent=None, reward: str = "points", point_scale: float = 50.0,
                 shaping: float = 0.0, seat: int | None = None):
        super().__init__()
        if reward not in ("points", "win"):
            raise ValueError(f"reward must be 'points' or 'win', not {reward!r}")
        self.aec = meldkit_env(meldkit.load_pack(PACK))
        self.opponent = opponent if opponent is not None else RandomBot()
        self.reward_kind, self.point_scale, self.shaping = reward, point_scale, shaping
        self.fixed_seat = seat
        probe = meldkit.new_game(self.aec.unwrapped.pack, players=2, seed=0)
        _, high = observation_bounds(probe)
        finite = np.isfinite(high) & (high > 0)
        self.scale = np.where(finite, high, 1.0).astype(np.float32)
        self.deadwood = probe.observation_spec()["deadwood"]
        size = probe.observation_spec().size
        self.observation_space = spaces.Box(-1.0, 1.0, (size,), np.float32)
        self.action_space = spaces.Discrete(probe.action_space.size)
        self._mask = None

    # -- the AEC env, the opponent's turns played inside -------------------------------
    def _state(self):
        return self.aec.unwrapped.state_

    def _play_opponent(self):
        """Step the opponent until it is the agent's turn or the hand is over."""
        aec = self.aec
        while not self._over() and aec.agent_selection != self.me:
            state = self._state()
            aec.step(state.action_space.id_of(self.opponent.choose(state)))

    def _over(self):
        return any(self.aec.terminations.values()) or any(self.aec.truncations.values())

    def _observe(self):
        obs = self.aec.observe(self.me)
        self._mask = obs["action_mask"].astype(bool)
        vec = obs["observation"] / self.scale
        return np.clip(vec, -1.0, 1.0).astype(np.float32), float(obs["observation"][
            self.deadwood][0])

    def _potential(self, deadwood):
        return -self.shaping * deadwood / self.point_scale

    def action_masks(self) -> np.ndarray:
        """The legal actions now (MaskablePPO asks for them before each step)."""
        return self._mask

    def reset(self, *, seed=None, options=None):
        super().reset(seed=seed)
        self.aec.reset(seed=int(self.np_random.integers(2**31)))
        seat = self.fixed_seat if self.fixed_seat is not None else int(
            self.np_random.integers(2))
        self.me = f"player_{seat}"
        self.seat = seat
        if hasattr(self.opponent, "rng"):
            self.opponent.rng.seed(int(self.np_random.integers(2**31)))
        self._play_opponent()
        obs, dw = self._observe()
        self._phi = self._potential(dw)
        return obs, {}

    def step(self, action):
        self.aec.step(int(action))
        self._play_opponent()
        if self._over():
            points, result = self._outcome()
            reward = result if self.reward_kind == "win" else points / self.point_scale
            reward += 0.0 - self._phi  # the potential is zero at the end of the hand
            obs = np.zeros(self.observation_space.shape, np.float32)
            self._mask = np.ones(self.action_space.n, bool)
            truncated = not any(self.aec.terminations.values())
            return obs, float(reward), not truncated, truncated, {
                "points": points, "result": result}
        obs, dw = self._observe()
        phi = self._potential(dw)
        reward, self._phi = phi - self._phi, phi
        return obs, float(reward), False, False, {}

    def _outcome(self) -> tuple[float, int]:
        """The agent's point difference for the hand and its result (1, 0, -1)."""
        state = self._state()
        if self.aec.unwrapped.infos[self.me].get("illegal_move"):
            return -self.point_scale, -1
        results = getattr(state, "hand_results", None) or []
        points = float(results[0].net[self.seat]) if results else 0.0
        return points, int(np.sign(points))


# -- evaluation ----------------------------------------------------------------------------

def wilson(score: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson 95% interval of a proportion (ties counted half in ``score``)."""
    if n == 0:
        return 0.0, 1.0
    p = score / n
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return centre - half, centre + half


def evaluate(policy, hands: int, seed: int = 10_000) -> dict:
    """Play ``hands`` hands against the random bot, seats alternating, deals from
    ``seed`` (held out from training). ``policy(obs, mask) -> id``."""
    env = OneHandGin(reward="points")
    won = tied = lost = 0
    points = []
    for i in range(hands):
        env.fixed_seat = i % 2
        obs, _ = env.reset(seed=seed + i)
        done = False
        while not done:
            obs, _, term, trunc, info = env.step(policy(obs, env.action_masks()))
            done = term or trunc
        points.append(info["points"])
        won += info["result"] > 0
        tied += info["result"] == 0
        lost += info["result"] < 0
    pts = np.asarray(points)
    score = won + tied / 2
    half = 1.96 * pts.std(ddof=1) / math.sqrt(hands) if hands > 1 else math.inf
    return {"hands": hands, "won": won, "tied": tied, "lost": lost, "score": score / hands,
            "score_ci": wilson(score, hands), "points": float(pts.mean()),
            "points_ci": (float(pts.mean() - half), float(pts.mean() + half))}


def report(name: str, r: dict) -> str:
    lo, hi = r["score_ci"]
    plo, phi = r["points_ci"]
    return (f"{name} vs random, {r['hands']} hands: {r['won']} won, {r['tied']} void, "
            f"{r['lost']} lost; score {r['score']:.3f} (95% CI {lo:.3f}-{hi:.3f}, void "
            f"hands count half); mean points {r['points']:+.2f} (95% CI {plo:+.2f} to "
            f"{phi:+.2f})")


def random_policy(rng: random.Random):
    return lambda obs, mask: rng.choice(np.flatnonzero(mask).tolist())


# -- training ------------------------------------------------------------------------------

class _Deadline:
    """A stable-baselines3 callback stopping training after ``seconds`` of this process's
    CPU time (on an idle core, wall-clock time; on a shared one, the work done is the same
    whatever the load). Built lazily so the module imports without the library."""

    def __new__(cls, seconds: float):
        from stable_baselines3.common.callbacks import BaseCallback

        class Deadline(BaseCallback):
            def _on_training_start(self):
                self.end = time.process_time() + seconds

            def _on_step(self):
                return time.process_time() < self.end

        return Deadline()


def train(args) -> object:
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.monitor import Monitor

    torch.set_num_threads(args.threads)
    env = Monitor(OneHandGin(reward=args.reward, point_scale=args.point_scale,
                             shaping=args.shaping))
    env.reset(seed=args.seed)
    model = MaskablePPO(
        "MlpPolicy", env, learning_rate=args.lr, n_steps=args.n_steps,
        batch_size=min(args.batch_size, args.n_steps), n_epochs=args.epochs, gamma=args.gamma,
        gae_lambda=0.95, ent_coef=args.ent_coef, clip_range=0.2, seed=args.seed,
        policy_kwargs={"net_arch": [256, 256]}, verbose=args.verbose, device="cpu")
    callback = _Deadline(args.minutes * 60) if args.minutes else None
    start, cpu = time.monotonic(), time.process_time()
    model.learn(total_timesteps=args.timesteps, callback=callback)
    took, cpu = time.monotonic() - start, time.process_time() - cpu
    episodes = env.get_episode_rewards()
    print(f"trained {model.num_timesteps} steps ({len(episodes)} hands) in {cpu:.0f} s of "
          f"CPU ({took:.0f} s wall clock)", flush=True)
    if args.save:
        model.save(args.save)
        print(f"saved {args.save}.zip")
    return model


def main(argv=None) -> dict:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--timesteps", type=int, default=10_000_000,
                   help="agent steps to train at most (default: until --minutes)")
    p.add_argument("--minutes", type=float, default=5.0,
                   help="training budget in minutes of CPU time (0: --timesteps only)")
    p.add_argument("--eval-hands", type=int, default=400)
    p.add_argument("--reward", choices=("points", "win"), default="points")
    p.add_argument("--point-scale", type=float, default=50.0)
    p.add_argument("--shaping", type=float, default=1.0,
                   help="weight of the potential-based deadwood term (0: none)")
    p.add_argument("--lr", type=float, default=3e-4)
    p.add_argument("--n-steps", type=int, default=2048)
    p.add_argument("--batch-size", type=int, default=256)
    p.add_argument("--epochs", type=int, default=5)
    p.add_argument("--gamma", type=float, default=0.99)
    p.add_argument("--ent-coef", type=float, default=0.01)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--threads", type=int, default=1, help="torch threads")
    p.add_argument("--save", default="", help="save the model here (.zip added)")
    p.add_argument("--load", default="", help="evaluate a saved model, no training")
    p.add_argument("--baseline", action="store_true",
                   help="also evaluate a random agent on the same deals")
    p.add_argument("--verbose", type=int, default=0)
    args = p.parse_args(argv)
    try:  # the example's own dependencies (requirements.txt), not meldkit's
        import sb3_contrib  # noqa: F401
        import torch  # noqa: F401
    except ImportError as e:
        raise SystemExit(f"train_gin: {e.name} is not installed; install the example's "
                         "dependencies first: python -m pip install -r "
                         f"{Path(__file__).with_name('requirements.txt')}") from None

    if args.load:
        from sb3_contrib import MaskablePPO
        model = MaskablePPO.load(args.load, device="cpu")
    else:
        model = train(args)

    def agent(obs, mask):
        action, _ = model.predict(obs, action_masks=mask, deterministic=True)
        return int(action)

    start = time.monotonic()
    result = evaluate(agent, args.eval_hands)
    print(report("trained agent", result) + f" [{time.monotonic() - start:.0f} s]",
          flush=True)
    if args.baseline:
        base = evaluate(random_policy(random.Random(args.seed)), args.eval_hands)
        print(report("random agent", base))
        result["baseline"] = base
    return result


if __name__ == "__main__":
    main()
