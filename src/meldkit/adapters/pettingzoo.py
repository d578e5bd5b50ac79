"""A PettingZoo AEC environment for any meldkit pack (``pip install 'meldkit[pettingzoo]'``).

Agents are ``player_0 … player_{n-1}``.  It follows the conventions of PettingZoo's
classic environments (chess, connect four, gin rummy):

* Each observation is a dict: ``observation``, the player's
  :meth:`~meldkit.GameState.observation` as float32, and ``action_mask``, the
  :meth:`~meldkit.GameState.legal_mask` as int8 (zeros for an agent not to act).  Actions
  are the pack's integer ids (:attr:`~meldkit.GameState.action_space`).
* The observation space has the true bounds of each slice of the
  :meth:`~meldkit.GameState.observation_spec` (a card count at most the copies of that
  kind in the deck, a one-hot slice 0..1, a size at most the deck); only scores and the
  hand number are unbounded above (and scores below).
* An illegal move (an id the mask forbids) ends the game: every agent is terminated and
  truncated, the mover's reward is ``illegal_reward`` (-1) and the others' 0, and the
  mover's info says ``illegal_move: True`` — the classic environments'
  ``TerminateIllegalWrapper``.  An id out of range, None for a live agent or a bool
  (``step(True)``) is refused with an :class:`~meldkit.IllegalActionError` (``env`` also
  asserts the range, as the classic ``AssertOutOfBoundsWrapper`` does).
* ``reset(seed)`` seeds the environment's random stream and each ``reset()`` after it
  deals the next game of that stream, so a seeded sequence of resets is reproducible.
* Rewards arrive when the game ends (:meth:`~meldkit.GameState.player_returns`: +1 for
  the winning side, -1/(sides - 1) for the others); a game reaching
  :meth:`~meldkit.GameState.max_game_length` actions (or ``max_actions``) is truncated.
* :meth:`MeldkitAEC.state` is the global state: every seat's observation, seat 0 first
  (it shows every hand: for centralised critics, never for a player).  ``infos`` give
  each agent its ``hand_number``.

>>> from meldkit.adapters.pettingzoo import env
>>> e = env("gin_rummy")
>>> e.reset(seed=1)
>>> agent = e.agent_selection
>>> obs = e.observe(agent)
>>> int(obs["action_mask"].sum()) > 0
True
>>> e.step(int(obs["action_mask"].nonzero()[0][0]))
>>> mask = e.observe(e.agent_selection)["action_mask"]
>>> bad = int((mask == 0).nonzero()[0][0])
>>> from pettingzoo.utils.env_logger import EnvLogger
>>> EnvLogger.suppress_output()  # PettingZoo warns of an illegal move
>>> e.step(bad)  # an illegal move: the game ends, the mover loses
>>> EnvLogger.unsuppress_output()
>>> e.terminations[e.agent_selection], e.rewards["player_0"] + e.rewards["player_1"]
(True, -1.0)
"""

from __future__ import annotations

# tests/test_doctests.py skips without the extra
__doctest_requires__ = ("numpy", "gymnasium", "pettingzoo")

import math
from array import array

try:
    import numpy as np
    from gymnasium import spaces
    from gymnasium.utils import seeding
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
    from pettingzoo.utils.env_logger import EnvLogger
except ImportError as e:  # pragma: no cover - depends on the extra
    raise ImportError(
        "meldkit.adapters.pettingzoo needs PettingZoo: pip install 'meldkit[pettingzoo]'"
    ) from e

import meldkit
from meldkit._errors import IllegalActionError, quoted

_ndarray, _INT8 = np.ndarray, np.dtype(np.int8)  # (numpy's module has a __getattr__: its
# attributes are looked up the slow way at each use; a dtype, not the scalar type, is
# what the array constructor converts fastest)
from meldkit.ai.observation import seat_writer

__all__ = ["MeldkitAEC", "env", "observation_bounds", "raw_env"]

_ONE_HOT = frozenset({"pile_top", "pile_frozen", "meld_closed", "melded", "out", "phase",
                      "to_move", "pending", "knocker", "group_tops", "passed_waiting",
                      "passed_by_me", "opened"})
"""Slices holding 0 or 1."""
_BY_KIND = frozenset({"hand", "pile", "groups", "removed"})
"""Slices counting cards of each kind (at most the copies of a kind in the deck)."""
_SIZES = frozenset({"pile_size", "bonus", "hand_sizes", "reserve_sizes", "stock",
                    "meld_wilds", "sequences", "buys"})
"""Slices counting cards (at most the deck)."""


def observation_bounds(state) -> tuple[np.ndarray, np.ndarray]:
    """The least and greatest value of each element of ``state.observation(p)``, from
    its :meth:`~meldkit.GameState.observation_spec` and the deck: true bounds (a slice
    whose values have no bound — scores, the hand number — is infinite there).

    >>> import meldkit
    >>> low, high = observation_bounds(meldkit.new_game("gin_rummy", players=2, seed=0))
    >>> spec = meldkit.new_game("gin_rummy", players=2, seed=0).observation_spec()
    >>> [float(high[spec[name]].max()) for name in ("hand", "stock", "scores")]
    [1.0, 52.0, inf]
    """
    spec = state.observation_spec()
    cards = [c for z in state.zone_cards().values() for c in z]
    deck = float(len(cards))
    kind_of = getattr(state, "kind_of", None)
    if kind_of is not None:
        copies: dict[int, int] = {}
        for c in cards:
            copies[kind_of[c]] = copies.get(kind_of[c], 0) + 1
        most = float(max(copies.values()))
    else:
        most = 1.0  # every card its own kind
    values = getattr(getattr(state, "rules", None), "values", None)
    points = float(sum(abs(values[kind_of[c]]) for c in cards)) if (
        values is not None and kind_of is not None) else math.inf
    low = np.zeros(spec.size, np.float32)
    high = np.full(spec.size, np.inf, np.float32)
    for name, start, length, meaning in spec.fields:
        part = slice(start, start + length)
        if name in _ONE_HOT:
            high[part] = 1
        elif name in _BY_KIND or (name == "melds" and "x kind" in meaning):
            high[part] = most
        elif name in _SIZES or name == "melds":
            high[part] = deck
        elif name == "last_turns":  # (going_out.last_turns: the others', at most)
            high[part] = state.n_players - 1
        elif name in ("deadwood", "knock_value"):  # -1: not searched; no knocking
            low[part] = -1
            high[part] = points
        else:  # scores, hand_number and any slice not named here: no bound known
            low[part] = 0 if name == "hand_number" else -np.inf
    return low, high


class MeldkitAEC(AECEnv):
    """An AEC environment playing one pack at one table size (see the module)."""

    metadata = {"render_modes": ["human", "ansi"], "name": "meldkit_v0",
                "is_parallelizable": False}

    def __init__(self, pack="gin_rummy", players: int | None = None, options: dict | None = None,
                 render_mode: str | None = None, max_actions: int | None = None,
                 illegal_reward: float = -1.0):
        super().__init__()
        self.pack = pack if isinstance(pack, meldkit.RulePack) else meldkit.load_pack(pack)
        if players is not None and (type(players) is not int or not (
                self.pack.spec.players.min <= players <= self.pack.spec.players.max)):
            raise meldkit.SetupError(
                f"players must be {self.pack.spec.players.min}..{self.pack.spec.players.max}"
                f" for pack {self.pack.name!r} (got {quoted(players)})")
        if max_actions is not None and (type(max_actions) is not int or max_actions < 1):
            raise meldkit.SetupError(f"max_actions must be a positive int or None (got "
                                     f"{quoted(max_actions)})")
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise meldkit.SetupError(f"render_mode must be None, 'human' or 'ansi' (got "
                                     f"{quoted(render_mode)})")
        self.n = players or self.pack.spec.players.min
        self.game_options = options
        self.render_mode = render_mode
        self.illegal_reward = float(illegal_reward)
        probe = meldkit.new_game(self.pack, players=self.n, seed=0, options=options)
        self.ids = probe.action_space
        self.spec_ = probe.observation_spec()
        self.max_actions = max_actions or probe.max_game_length()
        self.possible_agents = [f"player_{i}" for i in range(self.n)]
        self.agent_name_mapping = {a: i for i, a in enumerate(self.possible_agents)}
        low, high = observation_bounds(probe)
        obs = spaces.Box(low, high, (self.spec_.size,), np.float32)
        mask = spaces.Box(0, 1, (self.ids.size,), np.int8)
        self._obs_space = spaces.Dict({"observation": obs, "action_mask": mask})
        self._act_space = spaces.Discrete(self.ids.size)
        self.state_space = spaces.Box(np.tile(low, self.n), np.tile(high, self.n),
                                      (self.spec_.size * self.n,), np.float32)
        """The space of :meth:`state`."""
        self.state_ = None
        self._np_random = None
        self._n_ids = self.ids.size
        self._no_ids = bytearray(self._n_ids)
        """An action mask of zeros (observe() writes a copy)."""
        self._probe = probe
        """A game of this table: each seat's writer is made from it (and again when a
        pickled or copied env makes its own)."""
        self._seats: list[list] = [self._seat(i) for i in range(self.n)]
        """Each seat's ``[write, view, position]``: its observation buffer's writer
        (:func:`~meldkit.ai.observation.seat_writer`: written over at each new position
        with what changed), a numpy view of the buffer (observe() hands out a copy) and the
        position it holds (None: none yet)."""
        self._OVER = probe.OVER
        self._legal: tuple = (None, ())
        """``(position, ids)``: the legal ids observe() last masked for a live agent, which
        step() checks an action against."""
        self._info_hand = 1
        """The hand number the agents' ``infos`` dicts hold (made anew when it changes)."""
        self._position = 0
        """Counts the positions dealt and stepped to: an observation is kept per position."""
        self.metadata = dict(self.metadata, name=f"meldkit_{self.pack.name}_v0")

    def _seat(self, i: int) -> list:
        buf = array("f", bytes(4 * self.spec_.size))
        return [seat_writer(self._probe, i, buf), np.frombuffer(buf, np.float32), None]

    def __getstate__(self) -> dict:
        """Pickled (and deep-copied) without the kept observation buffers, their writers
        and numpy views: the copy writes its buffers afresh and sees them through views of
        its own."""
        state = dict(self.__dict__)
        del state["_seats"]
        return state

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self._seats = [self._seat(i) for i in range(self.n)]

    def observation_space(self, agent):
        return self._obs_space

    def action_space(self, agent):
        return self._act_space

    def reset(self, seed: int | None = None, options: dict | None = None):
        """Deal a new game: the next of the random stream ``seed`` starts (a stream from
        the operating system's entropy when the environment was never seeded)."""
        if seed is not None or self._np_random is None:
            self._np_random, _ = seeding.np_random(seed)
        game_seed = int(self._np_random.integers(0, 2**63 - 1))
        self.state_ = meldkit.new_game(self.pack, players=self.n, seed=game_seed,
                                       options=self.game_options)
        self.steps = 0
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {"hand_number": 1} for a in self.agents}
        self._info_hand = 1
        self.agent_selection = self.possible_agents[self.state_.current_player]
        self._position += 1

    def observe(self, agent):
        """The agent's observation, made when asked (once per position and seat: asked
        again, the kept one is copied).  Each call returns new arrays, as the classic
        environments do: the caller may keep or change them."""
        i = self.agent_name_mapping[agent]
        s = self.state_
        at = self._position
        seat = self._seats[i]
        if seat[2] != at:
            seat[0](s)  # (a write that raises leaves the next to write afresh)
            seat[2] = at
        mask = self._no_ids.copy()  # (a copy costs less than a new array of zeros)
        if s.current == i and s.phase != self._OVER and not (self.terminations[agent]
                                                              or self.truncations[agent]):
            ids = s.legal_ids()
            self._legal = (at, ids)
            for a in ids:
                mask[a] = 1
        return {"observation": seat[1].copy(), "action_mask": _ndarray(self._n_ids, _INT8, mask)}

    def state(self) -> np.ndarray:
        """The global state: every seat's observation, seat 0 first (:attr:`state_space`).
        It shows every hand: for a centralised critic, never for a player."""
        return np.concatenate([np.asarray(self.state_.observation(p), dtype=np.float32)
                               for p in range(self.n)])

    def _action_id(self, action) -> int:
        if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
            raise IllegalActionError("action/bad-id", f"an action is an int id "
                                     f"0..{self.ids.size - 1}, not {type(action).__name__} "
                                     f"({action!r:.40})")
        a = int(action)
        if not 0 <= a < self.ids.size:
            raise IllegalActionError("action/bad-id", f"action id {quoted(a)} is outside the "
                                     f"action space 0..{self.ids.size - 1}")
        return a

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._position += 1
            self._was_dead_step(action)
            return
        self._step(agent, action if type(action) is int and 0 <= action < self._n_ids
                   else self._action_id(action))

    def _step(self, agent: str, a: int) -> None:
        """Play id ``a`` (an int in range) for ``agent``, the live agent to move: what
        :meth:`step` does once the id is checked (the order wrapper's step, which checks
        it, calls this)."""
        s = self.state_
        legal = self._legal  # the ids observe() masked at this position, else the kernel's
        at = self._position
        if a not in (legal[1] if legal[0] == at else s.legal_ids()):
            self._illegal(agent)
            return
        s.apply(a)
        self._position = at + 1
        steps = self.steps = self.steps + 1
        if s.phase != self._OVER and steps < self.max_actions:
            # mid-game: every reward is 0 (as since the deal), so none accumulates; the
            # infos change only with the hand
            hand = s.hand_number
            if hand != self._info_hand:
                self._info_hand = hand
                infos = self.infos
                for x in self.agents:
                    infos[x] = {"hand_number": hand}
            self.agent_selection = self.possible_agents[s.current]
        else:
            self._cumulative_rewards[agent] = 0.0
            rewards, infos, hand = self.rewards, self.infos, s.hand_number
            self._info_hand = hand
            for x in self.agents:
                rewards[x] = 0.0
                infos[x] = {"hand_number": hand}
            if s.is_over:
                for x, r in zip(self.possible_agents, s.player_returns()):
                    rewards[x] = r
                    self.terminations[x] = True
            else:
                for x in self.agents:
                    self.truncations[x] = True
            self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _illegal(self, agent) -> None:
        """The classic environments' illegal-move rule (``TerminateIllegalWrapper``)."""
        EnvLogger.warn_on_illegal_move()
        self._position += 1
        self._cumulative_rewards[agent] = 0.0
        self.terminations = dict.fromkeys(self.agents, True)
        self.truncations = dict.fromkeys(self.agents, True)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self.rewards[agent] = self.illegal_reward
        self.infos[agent] = dict(self.infos[agent], illegal_move=True)
        self._accumulate_rewards()
        self._deads_step_first()

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
    """The bare environment (it already follows the illegal-move convention)."""
    return MeldkitAEC(pack, **kwargs)


class _InBounds(wrappers.AssertOutOfBoundsWrapper):
    """PettingZoo's ``AssertOutOfBoundsWrapper``, the same assertion; a plain int id in
    range (what ``Discrete.contains`` accepts first) passes without the space's call."""

    def step(self, action) -> None:
        raw = self.env
        if type(action) is int and 0 <= action < raw._n_ids:
            raw.step(action)
        else:
            super().step(action)


class _OrderEnforcing(wrappers.OrderEnforcingWrapper):
    """PettingZoo's ``OrderEnforcingWrapper``, the same checks and warnings; once reset,
    ``last()``, ``observe()`` and ``step()`` read the environment's own attributes instead
    of through two wrappers' ``__getattr__`` (the wrapped chain is :func:`env`'s)."""

    def __init__(self, env: _InBounds):
        super().__init__(env)
        self._raw = env.env

    def last(self, observe: bool = True):
        if not self._has_reset:
            return super().last(observe)  # PettingZoo's error
        raw = self._raw
        agent = raw.agent_selection
        assert agent is not None
        return (raw.observe(agent) if observe else None, raw._cumulative_rewards[agent],
                raw.terminations[agent], raw.truncations[agent], raw.infos[agent])

    def observe(self, agent):
        if not self._has_reset:
            return super().observe(agent)
        return self._raw.observe(agent)

    def step(self, action) -> None:
        raw = self._raw
        if not self._has_reset:
            super().step(action)  # PettingZoo's error
        elif type(action) is int and 0 <= action < raw._n_ids:  # what _InBounds passes
            agent = raw.agent_selection  # (raw.step's checks, the id's done here)
            if raw._legal[0] == raw._position:  # observed live here: no termination
                self._has_updated = True
                raw._step(agent, action)
            elif raw.agents:
                self._has_updated = True
                if raw.terminations[agent] or raw.truncations[agent]:
                    raw.step(action)
                else:
                    raw._step(agent, action)
            else:
                super().step(action)
        elif raw.agents:
            self._has_updated = True
            self.env.step(action)
        else:
            super().step(action)

    def __str__(self) -> str:
        return str(self.env)


def env(pack="gin_rummy", **kwargs):
    """The environment with PettingZoo's standard checks (order enforcing, out-of-bounds),
    as the classic environments wrap theirs."""
    return _OrderEnforcing(_InBounds(raw_env(pack, **kwargs)))
