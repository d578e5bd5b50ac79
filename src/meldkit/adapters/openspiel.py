"""meldkit packs as OpenSpiel games (``pip install 'meldkit[openspiel]'``).

Importing this module registers ``python_meldkit`` with pyspiel; its parameters are
``pack`` (a bundled pack's name), ``players`` (0: the pack's smallest table), ``deals``
(how many different deals the opening chance node chooses among: the deal's seed) and
``max_actions`` (0: :meth:`~meldkit.GameState.max_game_length`; a game reaching it ends
there with returns 0 — for short test games).

The game is sequential, imperfect-information and zero-sum, with terminal rewards
(:meth:`~meldkit.GameState.player_returns`).  The first node is chance's: it picks the
deal (seed ``0 … deals - 1``); after that the engine plays deterministically.  Actions are
the pack's integer ids; the observation tensor is :meth:`~meldkit.GameState.observation`;
the information-state string is the player's perfect-recall record (every event as they
saw it, and their view), kept incrementally.  States serialize as their action history.

>>> import pyspiel
>>> import meldkit.adapters.openspiel
>>> game = pyspiel.load_game("python_meldkit", {"pack": "gin_rummy"})
>>> state = game.new_initial_state()
>>> state.is_chance_node(), game.num_distinct_actions()
(True, 1126)
>>> state.apply_action(7)
>>> state.current_player() in (0, 1), len(state.legal_actions()) > 0
(True, True)
"""

from __future__ import annotations

__doctest_requires__ = ("numpy", "pyspiel")  # tests/test_doctests.py skips without the extra

import json

try:
    import numpy as np
    import pyspiel
except ImportError as e:  # pragma: no cover - depends on the extra
    raise ImportError(
        "meldkit.adapters.openspiel needs OpenSpiel: pip install 'meldkit[openspiel]'") from e

import meldkit
from meldkit.ai.infostate import _deal_event, step_events

__all__ = ["GAME_TYPE", "MeldkitGame", "MeldkitState"]

_DEFAULTS = {"pack": "gin_rummy", "players": 0, "deals": 1000, "max_actions": 0}

GAME_TYPE = pyspiel.GameType(
    short_name="python_meldkit",
    long_name="meldkit rule pack (Python)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=16,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_DEFAULTS,
)


class _Table:
    """What a game of one pack at one table size needs (kept outside the pyspiel object,
    whose Python attributes do not survive OpenSpiel's own copies of the game)."""

    def __init__(self, pack_name: str, players: int, deals: int, max_actions: int):
        self.pack = meldkit.load_pack(pack_name)
        self.players = players or self.pack.spec.players.min
        self.deals = deals
        probe = meldkit.new_game(self.pack, players=self.players, seed=0)
        self.ids = probe.action_space
        self.obs_size = probe.observation_spec().size
        self.max_length = max_actions or probe.max_game_length()
        """Actions after which the game is cut short (a terminal state, returns 0)."""

    def __deepcopy__(self, memo):
        return self  # immutable: shared by every copy of a state


class _Events(list):
    """The events so far; a copy of a state copies the list, not the (immutable) events."""

    def __deepcopy__(self, memo):
        return _Events(self)


_TABLES: dict[tuple, _Table] = {}


def _table(params) -> _Table:
    p = dict(_DEFAULTS)
    p.update(params or {})
    key = (str(p["pack"]), int(p["players"]), int(p["deals"]), int(p["max_actions"]))
    t = _TABLES.get(key)
    if t is None:
        t = _TABLES[key] = _Table(*key)
    return t


class MeldkitGame(pyspiel.Game):
    """One pack at one table size."""

    def __init__(self, params=None):
        t = _table(params)
        info = pyspiel.GameInfo(
            num_distinct_actions=t.ids.size,
            max_chance_outcomes=t.deals,
            num_players=t.players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=t.max_length + 1,
        )
        super().__init__(GAME_TYPE, info, {"pack": t.pack.name, "players": t.players,
                                           "deals": t.deals, "max_actions": t.max_length})

    def new_initial_state(self):
        return MeldkitState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        return MeldkitObserver(_table(self.get_parameters()), iig_obs_type, params)


class MeldkitState(pyspiel.State):
    """A game in progress: before the deal, a chance node."""

    def __init__(self, game: MeldkitGame):
        super().__init__(game)
        self.g = _table(game.get_parameters())
        self.s = None  # the meldkit state, once dealt
        self.events = _Events()  # meldkit.ai.Event values
        self.steps = 0

    def current_player(self):
        if self.s is None:
            return pyspiel.PlayerId.CHANCE
        if self.s.is_over or self.steps >= self.g.max_length:
            return pyspiel.PlayerId.TERMINAL
        return self.s.current_player

    def _legal_actions(self, player):
        return sorted(self.s.legal_ids())

    def chance_outcomes(self):
        p = 1.0 / self.g.deals
        return [(i, p) for i in range(self.g.deals)]

    def _apply_action(self, action):
        if self.s is None:
            self.s = meldkit.new_game(self.g.pack, players=self.g.players, seed=int(action))
            self.events.append(_deal_event(self.s))
            return
        self.events.extend(step_events(self.s, self.s.action_space.action_of(int(action))))
        self.steps += 1

    def _action_to_string(self, player, action):
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {action}"
        return self.g.ids.texts[action]

    def is_terminal(self):
        return self.s is not None and (self.s.is_over or self.steps >= self.g.max_length)

    def returns(self):
        if self.s is None or not self.s.is_over:
            return [0.0] * self.g.players
        return self.s.player_returns()

    def __str__(self):
        if self.s is None:
            return "(not dealt)"
        return json.dumps({"hand_number": self.s.hand_number, "phase": self.s.phase,
                           "current": self.s.current, "scores": self.s.scores,
                           "actions": len(self.s.history)})

    def __deepcopy__(self, memo):
        c = MeldkitState(self.get_game())
        c.s = self.s.clone() if self.s is not None else None
        c.events = _Events(self.events)
        c.steps = self.steps
        return c


class MeldkitObserver:
    """Observations: the player's observation vector (tensor) and, as strings, their view
    (``perfect_recall=False``) or their information state (``perfect_recall=True``)."""

    def __init__(self, game: _Table, iig_obs_type, params):
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        self.perfect_recall = bool(iig_obs_type and iig_obs_type.perfect_recall)
        self.tensor = np.zeros(game.obs_size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: MeldkitState, player: int):
        self.tensor.fill(0)
        if state.s is not None:
            self.tensor[:] = state.s.observation(player)

    def string_from(self, state: MeldkitState, player: int):
        if state.s is None:
            return f"p{player} (not dealt)"
        view = json.dumps(state.s.view(player), sort_keys=True, separators=(",", ":"))
        if not self.perfect_recall:
            return view
        seen = "\n".join(e.seen_by(player) for e in state.events)
        return f"{seen}\n{view}"


pyspiel.register_game(GAME_TYPE, MeldkitGame)
