"""A PettingZoo AEC environment for any meldkit pack (``pip install 'meldkit[pettingzoo]'``).

Agents are ``player_0 … player_{n-1}``.  Each observation is a dict: ``observation``, the
player's :meth:`~meldkit.GameState.observation` as float32, and ``action_mask``, the
:meth:`~meldkit.GameState.legal_mask` as int8; actions are the pack's integer ids
(:attr:`~meldkit.GameState.action_space`).  Rewards arrive at the end of the game
(:meth:`~meldkit.GameState.player_returns`); a game reaching
:meth:`~meldkit.GameState.max_game_length` actions is truncated.

>>> from meldkit.adapters.pettingzoo import env
>>> e = env("gin_rummy")
>>> e.reset(seed=1)
>>> agent = e.agent_selection
>>> obs = e.observe(agent)
>>> int(obs["action_mask"].sum()) > 0
True
>>> e.step(int(obs["action_mask"].nonzero()[0][0]))
"""

from __future__ import annotations

__doctest_requires__ = ("numpy", "gymnasium", "pettingzoo")  # tests/test_doctests.py skips without the extra

try:
    import numpy as np
    from gymnasium import spaces
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
except ImportError as e:  # pragma: no cover - depends on the extra
    raise ImportError(
        "meldkit.adapters.pettingzoo needs PettingZoo: pip install 'meldkit[pettingzoo]'"
    ) from e

import meldkit

__all__ = ["MeldkitAEC", "env", "raw_env"]

_BOUND = 1e7


class MeldkitAEC(AECEnv):
    """An AEC environment playing one pack at one table size."""

    metadata = {"render_modes": ["human", "ansi"], "name": "meldkit_v0",
                "is_parallelizable": False}

    def __init__(self, pack="gin_rummy", players: int | None = None, options: dict | None = None,
                 render_mode: str | None = None, max_actions: int | None = None):
        super().__init__()
        self.pack = pack if isinstance(pack, meldkit.RulePack) else meldkit.load_pack(pack)
        self.n = players or self.pack.spec.players.min
        self.game_options = options
        self.render_mode = render_mode
        probe = meldkit.new_game(self.pack, players=self.n, seed=0, options=options)
        self.ids = probe.action_space
        self.spec_ = probe.observation_spec()
        self.max_actions = max_actions or probe.max_game_length()
        self.possible_agents = [f"player_{i}" for i in range(self.n)]
        self.agent_name_mapping = {a: i for i, a in enumerate(self.possible_agents)}
        obs = spaces.Box(-_BOUND, _BOUND, (self.spec_.size,), np.float32)
        mask = spaces.Box(0, 1, (self.ids.size,), np.int8)
        self._obs_space = spaces.Dict({"observation": obs, "action_mask": mask})
        self._act_space = spaces.Discrete(self.ids.size)
        self.state_ = None
        self.metadata = dict(self.metadata, name=f"meldkit_{self.pack.name}_v0")

    def observation_space(self, agent):
        return self._obs_space

    def action_space(self, agent):
        return self._act_space

    def reset(self, seed: int | None = None, options: dict | None = None):
        if seed is None:
            seed = int(np.random.SeedSequence().entropy % (2**63))
        self.state_ = meldkit.new_game(self.pack, players=self.n, seed=int(seed),
                                       options=self.game_options)
        self.steps = 0
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.state_.current_player]

    def observe(self, agent):
        i = self.agent_name_mapping[agent]
        s = self.state_
        obs = np.asarray(s.observation(i), dtype=np.float32)
        if s.is_over or s.current_player != i:
            mask = np.zeros(self.ids.size, np.int8)
        else:
            mask = np.frombuffer(bytes(s.legal_mask()), dtype=np.int8).copy()
        return {"observation": obs, "action_mask": mask}

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        s = self.state_
        s.apply(int(action))
        self.steps += 1
        self._cumulative_rewards[agent] = 0.0
        for a in self.agents:
            self.rewards[a] = 0.0
        if s.is_over:
            for a, r in zip(self.possible_agents, s.player_returns()):
                self.rewards[a] = r
                self.terminations[a] = True
        elif self.steps >= self.max_actions:
            for a in self.agents:
                self.truncations[a] = True
        if not (s.is_over or self.steps >= self.max_actions):
            self.agent_selection = self.possible_agents[s.current_player]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self):
        if self.state_ is None:
            return None
        text = f"{self.state_!r}\n{self.state_.history[-1] if self.state_.history else ''}"
        if self.render_mode == "human":
            print(text)
        return text

    def close(self):
        pass


def raw_env(pack="gin_rummy", **kwargs) -> MeldkitAEC:
    """The bare environment."""
    return MeldkitAEC(pack, **kwargs)


def env(pack="gin_rummy", **kwargs):
    """The environment with PettingZoo's standard checks (order enforcing, out-of-bounds)."""
    e = raw_env(pack, **kwargs)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    return wrappers.OrderEnforcingWrapper(e)
