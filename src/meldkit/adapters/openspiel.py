"""meldkit packs as OpenSpiel games (``pip install 'meldkit[openspiel]'``).

Importing this module registers ``python_meldkit`` with pyspiel.  Its parameters, each
checked when the game is loaded (a bad one is a :class:`~meldkit.SetupError` naming the
value and what was expected):

``pack``
    A bundled pack's name (``gin_rummy``, ``houses`` …; :func:`meldkit.available_packs`),
    or the name :func:`register_pack` gave a pack of your own in this process.
``players``
    The table size; 0 (the default) is the pack's smallest table.
``chance``
    ``seed`` (the default): the first node is chance's and picks the deal's seed among
    ``deals`` seeds, uniformly; after it the engine plays deterministically.  ``cards``:
    card-level chance nodes, as OpenSpiel's own gin rummy has them — the deal is one chance
    node per card dealt and every draw from the stock one per card drawn, each uniform over
    the cards that may come (outcomes are card kinds, :attr:`MeldkitGame.card_kinds`; a
    kind the deck holds twice is twice as likely; every card the deal takes is chance's,
    so a canasta deal that replaces bonus cards has a node more for each).  ``cards``
    needs ``episode: hand``.
``deals``
    How many seeds the deal chooses among with ``chance: seed`` (1 … 1,000,000; 1000).
``episode``
    ``match`` (the default): the whole match to the pack's end, each seat's return +1 for
    the winning side and -1/(sides - 1) for the others (0 for all on a tie).  ``hand``: one
    hand, as OpenSpiel's and RLCard's gin are; each seat's return is its side's points for
    that hand less the mean of the other sides' (zero-sum), and 0 for all when the hand is
    cut short by ``max_actions``.
``max_actions``
    0 (the default) is :meth:`~meldkit.GameState.max_game_length`; a game reaching it
    ends there with returns 0 (short test games).

The game is sequential, imperfect-information and zero-sum, with terminal rewards.
Actions are the pack's integer ids; an id out of range, an illegal one, a chance outcome
that cannot come and a bool are refused (an :class:`~meldkit.IllegalActionError` names
it).  The observation tensor is :meth:`~meldkit.GameState.observation` (what the player
sees now, not perfect recall); the information-state string is the player's
perfect-recall record (every event as they saw it, and their view).  There is no
information-state tensor: a perfect-recall record has no fixed size, so
``information_state_tensor`` raises a :class:`~meldkit.MeldkitError` saying so rather than
return the observation.  ``resample_from_infostate`` deals the cards hidden from the
player anew (:meth:`~meldkit.GameState.resample`), as OpenSpiel's information-set MCTS
needs, and ``undo_action`` takes back the last action.

>>> import pyspiel
>>> import meldkit.adapters.openspiel
>>> game = pyspiel.load_game("python_meldkit", {"pack": "gin_rummy"})
>>> state = game.new_initial_state()
>>> state.is_chance_node(), game.num_distinct_actions()
(True, 1126)
>>> state.apply_action(7)
>>> state.current_player() in (0, 1), len(state.legal_actions()) > 0
(True, True)
>>> hand = pyspiel.load_game("python_meldkit", {"chance": "cards", "episode": "hand"})
>>> s = hand.new_initial_state()
>>> len(s.chance_outcomes()), s.action_to_string(s.chance_outcomes()[0][0])
(52, 'deal AC')
"""

from __future__ import annotations

__doctest_requires__ = ("numpy", "pyspiel")  # tests/test_doctests.py skips without the extra

import json
import os
import random
import re
from typing import NamedTuple

try:
    import numpy as np
    import pyspiel
except ImportError as e:  # pragma: no cover - depends on the extra
    raise ImportError(
        "meldkit.adapters.openspiel needs OpenSpiel: pip install 'meldkit[openspiel]'") from e

import meldkit
from meldkit._errors import IllegalActionError, MeldkitError, SetupError, quoted
from meldkit.ai.action_space import ActionSpaceError
from meldkit.ai.chance import draw_count
from meldkit.ai.infostate import _deal_event, card_code_of, step_events

__all__ = ["GAME_TYPE", "MeldkitGame", "MeldkitObserver", "MeldkitState", "register_pack"]

_DEFAULTS = {"pack": "gin_rummy", "players": 0, "deals": 1000, "max_actions": 0,
             "chance": "seed", "episode": "match"}
_CHOICES = {"chance": ("seed", "cards"), "episode": ("match", "hand")}
MAX_DEALS = 1_000_000
"""The most seeds ``deals`` may name (the chance node lists every one)."""
HAND_UTILITY_BOUND = 1_000_000.0
"""``min_utility``/``max_utility`` with ``episode: hand``: a bound on a hand's point
difference, not a tight one (no bundled pack comes near it; meldkit proves no smaller)."""

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


_REGISTERED: dict[str, meldkit.RulePack] = {}
"""The packs :func:`register_pack` made playable, by the name ``pack`` takes."""
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_.-]{0,63}")
"""A registered name: what an OpenSpiel game string (``python_meldkit(pack=...)``) can hold."""


def register_pack(pack: meldkit.RulePack | str | os.PathLike[str], name: str | None = None
                  ) -> str:
    """Make a pack of your own a ``python_meldkit`` game: ``pack`` is a loaded pack
    (:func:`meldkit.load_pack`, a plugin's included) or the path of a pack file, loaded
    here.  Returns the name to give the ``pack`` parameter — ``name``, or the pack's own.

    The name lasts for this process (a worker process registers it again).  It may not be
    a bundled pack's name, nor be taken by another pack (the same pack again is fine).  A
    pack without an integer action space (:class:`~meldkit.ai.ActionSpaceError`: too many
    meld actions) is refused here, as :class:`~meldkit.SetupError`.

    >>> import meldkit
    >>> pack = meldkit.load_pack_text("extends: gin_rummy\\nname: gin_to_50\\n"
    ...                               "game: {target: 50}\\n")
    >>> register_pack(pack)
    'gin_to_50'
    >>> game = pyspiel.load_game("python_meldkit", {"pack": "gin_to_50"})
    >>> game.num_distinct_actions()
    1126
    >>> register_pack(pack, name="gin_rummy")
    Traceback (most recent call last):
    ...
    meldkit._errors.SetupError: register_pack: 'gin_rummy' is a bundled pack's name: ...
    """
    if isinstance(pack, (str, os.PathLike)):
        pack = meldkit.load_pack(pack)
    if not isinstance(pack, meldkit.RulePack):
        raise SetupError(f"register_pack: pack must be a RulePack (meldkit.load_pack) or a "
                         f"pack file's path, not {type(pack).__name__}")
    name = pack.name if name is None else name
    if not isinstance(name, str) or not _NAME.fullmatch(name):
        raise SetupError(f"register_pack: name must be 1 to 64 letters, digits, '_', '.' or "
                         f"'-', starting with a letter or '_' (got {quoted(name)})")
    if name in meldkit.available_packs():
        raise SetupError(f"register_pack: {name!r} is a bundled pack's name: give your pack "
                         "another (name=...)")
    taken = _REGISTERED.get(name)
    if taken is not None:
        if taken.digest == pack.digest:
            return name
        raise SetupError(f"register_pack: {name!r} names another pack already (digest "
                         f"{taken.digest[:12]}); give this one another name")
    probe = meldkit.new_game(pack, players=pack.spec.players.min, seed=0)
    try:
        probe.action_space
    except ActionSpaceError as e:
        raise SetupError(f"register_pack: pack {pack.name!r} cannot be an OpenSpiel game: "
                         f"{e}") from None
    _REGISTERED[name] = pack
    return name


def _pack_of(name: str) -> meldkit.RulePack:
    """The pack the ``pack`` parameter names (a registered one, else a bundled one)."""
    got = _REGISTERED.get(name)
    return got if got is not None else meldkit.load_pack(name)


def _int_param(p: dict, name: str, low: int, high: int, what: str) -> int:
    v = p[name]
    if type(v) is not int or not low <= v <= high:
        raise SetupError(f"python_meldkit: parameter {name!r} must be {what} "
                         f"(got {quoted(v)} that is a {type(v).__name__})")
    return v


def _params(params) -> dict:
    """The parameters with their defaults, every one checked."""
    p = dict(_DEFAULTS)
    p.update(params or {})
    unknown = sorted(set(p) - set(_DEFAULTS))
    if unknown:
        raise SetupError(f"python_meldkit: unknown parameter(s) {', '.join(unknown)} "
                         f"(expected: {', '.join(sorted(_DEFAULTS))})")
    if not isinstance(p["pack"], str) or (p["pack"] not in meldkit.available_packs()
                                          and p["pack"] not in _REGISTERED):
        mine = f"; registered: {', '.join(sorted(_REGISTERED))}" if _REGISTERED else ""
        raise SetupError(f"python_meldkit: parameter 'pack' must be a bundled pack's name, "
                         f"one of {', '.join(meldkit.available_packs())}{mine}, or one "
                         f"register_pack gave (got {quoted(p['pack'])})")
    spec = _pack_of(p["pack"]).spec.players
    players = p["players"]
    if type(players) is not int or not (players == 0 or spec.min <= players <= spec.max):
        raise SetupError(f"python_meldkit: parameter 'players' must be 0 (the smallest "
                         f"table) or {spec.min}..{spec.max} for pack {quoted(p['pack'])} "
                         f"(got {quoted(players)} that is a {type(players).__name__})")
    _int_param(p, "deals", 1, MAX_DEALS, f"a number of deals 1..{MAX_DEALS:,}")
    _int_param(p, "max_actions", 0, 10**7, "0 (no cap below the game's own) or a cap "
               "1..10,000,000")
    for name, choices in _CHOICES.items():
        if p[name] not in choices:
            raise SetupError(f"python_meldkit: parameter {name!r} must be one of "
                             f"{', '.join(choices)} (got {quoted(p[name])})")
    if p["chance"] == "cards" and p["episode"] != "hand":
        raise SetupError("python_meldkit: chance 'cards' needs episode 'hand' (a match's "
                         "later deals would come from a hidden seed, not from chance nodes)")
    return p


class _Table:
    """What a game of one pack at one table size needs (kept outside the pyspiel object,
    whose Python attributes do not survive OpenSpiel's own copies of the game)."""

    def __init__(self, pack_name: str, players: int, deals: int, max_actions: int,
                 chance: str, episode: str):
        self.pack = _pack_of(pack_name)
        self.players = players or self.pack.spec.players.min
        self.deals = deals
        self.cards = chance == "cards"
        self.one_hand = episode == "hand"
        probe = meldkit.new_game(self.pack, players=self.players, seed=0)
        self.ids = probe.action_space
        self.obs_size = probe.observation_spec().size
        self.max_length = max_actions or probe.max_game_length()
        """Actions after which the game is cut short (a terminal state, returns 0)."""
        self.deck_size = sum(len(z) for z in probe.zone_cards().values())
        self.codes = [card_code_of(probe, c) for c in range(self.deck_size)]
        """The code of each card id (the deck as the engine numbers it)."""
        self.kinds = sorted(set(self.codes), key=self.codes.index)
        """The card-level chance outcomes: outcome ``i`` is a card of kind ``kinds[i]``."""
        self.kind_index = {k: i for i, k in enumerate(self.kinds)}
        if self.cards and not isinstance(getattr(probe, "stock", None), list):
            raise SetupError(f"python_meldkit: chance 'cards' needs a pack with a stock; "
                             f"pack {pack_name!r} has none")
        self.dealt = self.deck_size - len(getattr(probe, "stock", ()))
        """Cards dealt from the deck's top before the first turn in the probe's deal: the
        deal's first chance nodes (a deal that takes more — a bonus card replaced — gets a
        chance node for each card more, :meth:`MeldkitState._deal`)."""
        turns = [d.spec.turn for d in self.pack.deals]
        draw = max([draw_count(probe)] + [t.draw_by_players.get(self.players, t.draw)
                                          for t in turns])
        """The most cards one stock draw takes in any deal (chance nodes per draw)."""
        chance_nodes = (self.deck_size + self.max_length * draw) if self.cards else 1
        self.max_game_length = self.max_length + chance_nodes

    def __deepcopy__(self, memo):
        return self  # immutable: shared by every copy of a state

    def __reduce__(self):
        return _table_of, (self.key,)  # a serialized state names its table


class _Box:
    """Holds a state's meldkit game: a copy clones it, and a serialized state (OpenSpiel
    pickles a Python state's attributes) holds it as a meldkit save, so any engine's
    state serializes."""

    __slots__ = ("game",)

    def __init__(self, game):
        self.game = game

    def __deepcopy__(self, memo):
        return _Box(self.game.clone() if self.game is not None else None)

    def __reduce__(self):
        return _unbox, (None if self.game is None else self.game.to_json(),)


def _unbox(text):
    return _Box(None if text is None else meldkit.GameState.from_json(
        text, resolver=_registered_or_bundled))


def _registered_or_bundled(name: str, digest: str) -> meldkit.RulePack | None:
    """The pack a serialized state's save names: a registered pack of its digest (its
    registered name may not be the pack's own), else a bundled pack of its name."""
    for pack in list(_REGISTERED.values()):
        if pack.digest == digest:
            return pack
    from .._game import bundled_pack_resolver

    return bundled_pack_resolver(name, digest)


class _Events(list):
    """The events so far; a copy of a state copies the list, not the (immutable) events."""

    def __deepcopy__(self, memo):
        return _Events(self)


class _Frozen:
    """A snapshot a state replays from (see :meth:`MeldkitState.undo_action`): never
    changed, so copies of a state share it."""

    def __init__(self, state: MeldkitState):
        self.state = state

    def __deepcopy__(self, memo):
        return self


_TABLES: dict[tuple, _Table] = {}
_FIELDS = ("pack", "players", "deals", "max_actions", "chance", "episode")


def _table(params) -> _Table:
    p = _params(params)
    return _table_of(tuple(p[f] for f in _FIELDS))


def _table_of(key: tuple) -> _Table:
    t = _TABLES.get(key)
    if t is None:
        t = _TABLES[key] = _Table(*key)
        t.key = key
    return t


class MeldkitGame(pyspiel.Game):
    """One pack at one table size."""

    def __init__(self, params=None):
        t = _table(params)
        bound = HAND_UTILITY_BOUND if t.one_hand else 1.0
        info = pyspiel.GameInfo(
            num_distinct_actions=t.ids.size,
            max_chance_outcomes=len(t.kinds) if t.cards else t.deals,
            num_players=t.players,
            min_utility=-bound,
            max_utility=bound,
            utility_sum=0.0,
            max_game_length=t.max_game_length,
        )
        super().__init__(GAME_TYPE, info, {
            "pack": t.key[0], "players": t.players, "deals": t.deals,
            "max_actions": t.max_length, "chance": "cards" if t.cards else "seed",
            "episode": "hand" if t.one_hand else "match"})

    @property
    def card_kinds(self) -> list[str]:
        """The card code of each card-level chance outcome (``chance: cards``)."""
        return list(_table(self.get_parameters()).kinds)

    def new_initial_state(self):
        return MeldkitState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        return MeldkitObserver(_table(self.get_parameters()), iig_obs_type, params)


class _PlayerAction(NamedTuple):
    """A move as ``full_history`` gives it (``player`` and ``action``, as pyspiel's)."""

    player: int
    action: int


def _check_id(action, what: str = "action") -> int:
    """``action`` as an int id; a bool, a float or a string is refused."""
    if isinstance(action, bool) or not isinstance(action, (int, np.integer)):
        raise IllegalActionError("action/bad-id", f"an {what} is an int, not "
                                 f"{type(action).__name__} ({action!r:.40})")
    return int(action)


class MeldkitState(pyspiel.State):
    """A game in progress: before the deal, a chance node."""

    s = property(lambda self: self._box.game, lambda self, game: setattr(
        self, "_box", _Box(game)), doc="The meldkit state (None before the deal).")

    def __init__(self, game: MeldkitGame):
        super().__init__(game)
        self.g = _table(game.get_parameters())
        self.s = None  # the meldkit state, once dealt
        self.events = _Events()  # meldkit.ai.Event values
        self.steps = 0
        self.dealing: list[int] = []  # chance: cards — the card kinds dealt so far
        self.pending = None  # chance: cards — a stock draw waiting for its cards
        self.fixed = 0  # cards of the pending draw fixed so far
        self.fresh_stock = True  # the stock is still the deck's tail (not a pile turned over)
        self.record: list[tuple[int, int]] = []  # (player, action) of every move
        self.base = None  # a _Frozen snapshot to replay from (a resampled state), or None
        self.base_len = 0  # moves of `record` the snapshot holds

    # ------------------------------------------------------------------ whose turn
    def _hand_done(self) -> bool:
        return self.g.one_hand and bool(self.s.hand_results)

    def is_terminal(self):
        return self.s is not None and self.pending is None and (
            self.s.is_over or self.steps >= self.g.max_length or self._hand_done())

    def current_player(self):
        if self.s is None or self.pending is not None:
            return pyspiel.PlayerId.CHANCE
        if self.is_terminal():
            return pyspiel.PlayerId.TERMINAL
        return self.s.current_player

    def _legal_actions(self, player):
        return sorted(self.s.legal_ids())

    # ------------------------------------------------------------------ chance
    def chance_outcomes(self):
        g = self.g
        if not g.cards:
            if self.s is not None:
                return []
            p = 1.0 / g.deals
            return [(i, p) for i in range(g.deals)]
        if self.s is None:
            left: dict[str, int] = {}
            for code in g.codes:
                left[code] = left.get(code, 0) + 1
            for k in self.dealing:
                left[g.kinds[k]] -= 1
        elif self.pending is not None:
            stock = self.s.stock
            left = {}
            for c in stock[:len(stock) - self.fixed]:
                code = g.codes[c]
                left[code] = left.get(code, 0) + 1
        else:
            return []
        n = sum(left.values())
        return [(g.kind_index[k], v / n) for k, v in sorted(
            left.items(), key=lambda kv: g.kind_index[kv[0]]) if v]

    def _chance(self, outcome: int) -> None:
        legal = dict(self.chance_outcomes())
        if outcome not in legal:
            raise IllegalActionError(
                "chance/outcome", f"chance outcome {quoted(outcome)} cannot come now (outcomes: "
                f"{self._outcome_range(legal)})")
        g = self.g
        if not g.cards:
            self.s = meldkit.new_game(g.pack, players=g.players, seed=outcome)
            self.events.append(_deal_event(self.s))
            return
        if self.s is None:
            self.dealing.append(outcome)
            if len(self.dealing) >= g.dealt:
                self._deal()
            return
        self._fix_stock_card(g.kinds[outcome])

    @staticmethod
    def _outcome_range(legal: dict) -> str:
        keys = sorted(legal)
        if keys == list(range(len(keys))):
            return f"0..{len(keys) - 1}"
        return ", ".join(map(str, keys))

    def _deal(self) -> None:
        """Deal the deck stacked with the cards chance chose, then the rest in a fixed
        order; a deal that takes a card beyond those (a bonus card replaced, which varies
        from deal to deal) is undone, and the next card is chance's too: every card the
        deal takes is a uniform chance outcome."""
        g = self.g
        top = [g.kinds[k] for k in self.dealing]
        rest = list(g.codes)
        for code in top:
            rest.remove(code)
        random.Random(0).shuffle(rest)
        s = meldkit.new_game(g.pack, players=g.players, seed=0, deck_order=top + rest)
        if g.deck_size - len(s.stock) > len(top):
            return  # the deal took a card chance has not chosen yet: one chance node more
        self.s = s
        self.events.append(_deal_event(self.s))

    def _fix_stock_card(self, code: str) -> None:
        """Bring the first card of kind ``code`` below the fixed ones to the top of the
        stock (the others keep their order, so the stacked deck still replays), then apply
        the pending draw once each of its cards is fixed."""
        s, g = self.s, self.g
        stock = s.stock
        top = len(stock) - 1 - self.fixed
        for i in range(top, -1, -1):
            if g.codes[stock[i]] == code:
                stock.insert(top, stock.pop(i))
                break
        self.fixed += 1
        if self.fixed >= min(draw_count(s), len(stock)):
            used = g.deck_size - len(stock)
            s.deck_order = list(s.deck_order[:used]) + [g.codes[c] for c in reversed(stock)]
            a, self.pending, self.fixed = self.pending, None, 0
            s._legal_cache = None
            self._play(a)

    # ------------------------------------------------------------------ moves
    def apply_action(self, action):
        """Apply an action id (or a chance outcome); a bool is refused."""
        super().apply_action(_check_id(action))

    def apply_action_with_legality_check(self, action):
        super().apply_action_with_legality_check(_check_id(action))

    def _apply_action(self, action):
        action = _check_id(action)
        player = self.current_player()
        if self.is_terminal():
            raise IllegalActionError("game/over", "the game is over")
        if player == pyspiel.PlayerId.CHANCE:
            self._chance(action)
        else:
            if not 0 <= action < self.g.ids.size:
                raise IllegalActionError("action/bad-id", f"action id {quoted(action)} is outside "
                                         f"the action space 0..{self.g.ids.size - 1}")
            a = self.s.action_space.action_of(action)
            why = self.s.check(a)
            if why is not None:
                raise IllegalActionError(why.code, why.sentence, a)
            self.steps += 1
            if self.g.cards and self.fresh_stock and a.type == "draw" and self.s.stock:
                self.pending = a  # chance fixes the cards the draw takes
            else:
                self._play(a)
        self.record.append((player, action))

    def _play(self, a) -> None:
        before = len(self.s.stock) if self.g.cards else 0
        self.events.extend(step_events(self.s, a))
        if self.g.cards and len(self.s.stock) > before:
            self.fresh_stock = False  # a pile turned over: its order is known, not chance

    def _action_to_string(self, player, action):
        if player == pyspiel.PlayerId.CHANCE:
            if not self.g.cards:
                return f"deal {action}"
            if not 0 <= action < len(self.g.kinds):
                return f"chance outcome {quoted(action)} (out of range)"
            return f"{'draw' if self.s is not None else 'deal'} {self.g.kinds[action]}"
        if not 0 <= action < self.g.ids.size:
            return f"action {quoted(action)} (out of range)"
        return self.g.ids.texts[action]

    # ------------------------------------------------------------------ history and undo
    def history(self):
        return [a for _, a in self.record]

    def full_history(self):
        return [_PlayerAction(p, a) for p, a in self.record]

    def history_str(self):
        return ", ".join(map(str, self.history()))

    def move_number(self):
        return len(self.record)

    def undo_action(self, player, action):
        """Take back the last move, which must be ``player``'s ``action`` (OpenSpiel's
        contract).  The state is rebuilt by replaying its moves; a resampled state can be
        taken back only to the position it was resampled at."""
        player, action = _check_id(player, "player"), _check_id(action)
        if not self.record or self.record[-1] != (player, action):
            last = self.record[-1] if self.record else None
            raise IllegalActionError("undo/not-last", f"undo_action({player}, {action}): the "
                                     f"last move is {last} (player, action)")
        if len(self.record) <= self.base_len:
            raise IllegalActionError("undo/resampled", "cannot undo past the position this "
                                     "state was resampled at")
        fresh = (self.base.state.clone() if self.base is not None
                 else MeldkitState(self.get_game()))
        for _, a in self.record[self.base_len:-1]:
            fresh._apply_action(a)
        for k in ("s", "events", "steps", "dealing", "pending", "fixed", "fresh_stock"):
            setattr(self, k, getattr(fresh, k))
        self.record = self.record[:-1]

    # ------------------------------------------------------------------ information sets
    def resample_from_infostate(self, player_id, probability_sampler):
        """A state ``player_id`` cannot tell from this one, every card hidden from them
        dealt anew (:meth:`~meldkit.GameState.resample`), drawn with
        ``probability_sampler`` (a function giving floats in [0, 1), as OpenSpiel passes).
        Its :meth:`history` is this state's (the record of what was played, as meldkit's
        resampled states keep theirs); :meth:`undo_action` stops at it."""
        player_id = _check_id(player_id, "player")
        if not 0 <= player_id < self.g.players:
            raise ValueError(f"player must be a seat 0..{self.g.players - 1}, not {player_id}")
        c = self.clone()
        if self.s is None:
            if self.dealing:
                raise MeldkitError("resample_from_infostate: the deal is under way (call it "
                                   "at a player's turn)")
            return c
        seed = int(probability_sampler() * 2**53)
        c.s = self.s.resample(player_id, random.Random(seed))
        c.base = _Frozen(c.clone())
        c.base_len = len(c.record)
        return c

    def clone(self):
        c = MeldkitState(self.get_game())
        c.s = self.s.clone() if self.s is not None else None
        c.events = _Events(self.events)
        c.steps, c.dealing, c.pending = self.steps, list(self.dealing), self.pending
        c.fixed, c.fresh_stock = self.fixed, self.fresh_stock
        c.record, c.base, c.base_len = list(self.record), self.base, self.base_len
        return c

    def __deepcopy__(self, memo):
        return self.clone()

    # ------------------------------------------------------------------ outcome
    def returns(self):
        n = self.g.players
        if not self.is_terminal() or not (self.s.is_over or self._hand_done()):
            return [0.0] * n  # under way, or cut short by max_actions
        if not self.g.one_hand:
            return self.s.player_returns()
        totals = list(self.s.hand_results[0].totals)
        team = self.s.team_of
        sides = len(totals)
        if sides < 2:
            return [0.0] * n
        whole = sum(totals)
        return [float(totals[team[p]] - (whole - totals[team[p]]) / (sides - 1))
                for p in range(n)]

    def __str__(self):
        if self.s is None:
            return f"(dealing: {len(self.dealing)} cards)" if self.dealing else "(not dealt)"
        return json.dumps({"hand_number": self.s.hand_number, "phase": self.s.phase,
                           "current": self.s.current, "scores": self.s.scores,
                           "actions": len(self.s.history),
                           "pending_draw": self.pending is not None})


class MeldkitObserver:
    """Observations: the player's observation vector (tensor) and, as strings, their view
    (``perfect_recall=False``) or their information state (``perfect_recall=True``).

    A perfect-recall observer has no tensor (``tensor`` is None, as OpenSpiel marks an
    observer without one); asking it for one raises, rather than hand back the
    observation, which is not perfect-recall."""

    def __init__(self, game: _Table, iig_obs_type, params):
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        self.perfect_recall = bool(iig_obs_type and iig_obs_type.perfect_recall)
        if self.perfect_recall:
            self.tensor = None
            self.dict = {}
        else:
            self.tensor = np.zeros(game.obs_size, np.float32)
            self.dict = {"observation": self.tensor}

    def set_from(self, state: MeldkitState, player: int):
        if self.perfect_recall:
            raise MeldkitError(
                "python_meldkit has no information-state tensor (a perfect-recall record "
                "has no fixed size): use information_state_string, or observation_tensor "
                "for what the player sees now (not perfect recall)")
        self.tensor.fill(0)
        if state.s is not None:
            self.tensor[:] = state.s.observation(player)

    def string_from(self, state: MeldkitState, player: int):
        if state.s is None:
            mine = ""
            if state.dealing and state.g.cards:
                mine = f", {len(state.dealing)} cards dealt"
            return f"p{player} (not dealt{mine})"
        view = json.dumps(state.s.view(player), sort_keys=True, separators=(",", ":"))
        if not self.perfect_recall:
            return view
        seen = "\n".join(e.seen_by(player) for e in state.events)
        if state.pending is not None:
            seen += f"\nseat {state.s.current}: {state.pending} (cards coming)"
        return f"{seen}\n{view}"


pyspiel.register_game(GAME_TYPE, MeldkitGame)
