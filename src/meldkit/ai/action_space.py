"""A fixed integer action space per pack and player count.

Every action a pack can ever allow gets a stable integer id, derived from the pack's
limits alone (the deck, the meld kinds and sizes, the wild-card limits, the group
spaces …), so the ids are the same in every process and every version of meldkit that
compiles the same pack.  :attr:`ActionIds.digest` fingerprints the table; a save records
it (``action_space_digest``) so that stored ids can be checked against the table they came
from.

>>> import meldkit
>>> g = meldkit.new_game("gin_rummy", players=2, seed=1, options={"first_player": 0})
>>> space = g.action_space
>>> space.size
1126
>>> space.id_of("pass"), str(space.action_of(space.id_of("meld 4H 5H 6H")))
(2, 'meld 4H 5H 6H')
>>> [space.action_of(i).__str__() for i, on in enumerate(g.legal_mask()) if on]
['take', 'pass']
>>> g.apply(space.id_of("pass")); g.phase
'first_upcard'
"""

from __future__ import annotations

import hashlib
import itertools
from operator import attrgetter
from typing import TYPE_CHECKING

from .._actions import Action
from .._checks import action_id as checked_id
from .._errors import IllegalActionError, MeldkitError, quoted

if TYPE_CHECKING:
    from .._game import GameState

__all__ = ["ActionIds", "ActionSpaceError", "action_space_for"]


class ActionSpaceError(MeldkitError):
    """The pack's action space cannot be listed (a plugin verb without an
    ``action_universe`` hook), or an id or action is outside it."""


class ActionIds:
    """The actions of one pack at one table size, each with a stable integer id.

    ``actions[i]`` is the action of id ``i``; ids are assigned in a fixed order (by
    action type, then cards, then target) that depends only on the pack.
    """

    __slots__ = (
        "_by_text",
        "_id_of_object",
        "_ids",
        "_live",
        "_name",
        "_tagged",
        "actions",
        "digest",
        "pack_name",
        "players",
        "size",
        "texts",
    )

    def __init__(self, pack_name: str, players: int, actions: list[Action]):
        self.pack_name = pack_name
        self.players = players
        self.actions: tuple[Action, ...] = tuple(actions)
        """Every action, by id."""
        self.texts: tuple[str, ...] = tuple(str(a) for a in actions)
        """The notation of every action, by id."""
        self.size: int = len(actions)
        """How many ids there are (ids are ``0 .. size - 1``)."""
        self._ids = {tuple.__new__(tuple, a): i for i, a in enumerate(actions)}
        self._by_text = {t: i for i, t in enumerate(self.texts)}
        if len(self._ids) != self.size or len(self._by_text) != self.size:
            raise ActionSpaceError(f"pack {pack_name!r}: two actions of its space are equal")
        # Each action object seen carries its id in its own __dict__, under a name of this
        # space alone (``_name``: spaces sharing an engine's interned objects each write
        # their own): ``_id_of_object(a)`` reads it with no hashing and no id() int, so
        # ``legal_ids()`` costs little beside ``legal_actions()``.  Engines hand out
        # interned objects, tagged the first time ids() meets them (at most ``4 * size``
        # objects, counted in ``_tagged``: an engine interns few).
        self._name = f"_action_id_{next(_SERIALS)}"
        self._id_of_object = attrgetter(self._name)
        for i, a in enumerate(self.actions):
            a.__dict__[self._name] = i
        self._tagged = 0
        # the action of each id as the engine last handed it out (its interned object, once
        # ids() has seen it; the space's own until then): what ``state.apply(id)`` applies,
        # so the engine finds it in its legal list by identity, as the object path does
        self._live: list[Action] = list(self.actions)
        h = hashlib.sha256()
        for t in self.texts:
            h.update(t.encode())
            h.update(b"\n")
        self.digest: str = h.hexdigest()
        """A SHA-256 of the action texts in id order: equal digests, equal ids."""

    def __len__(self) -> int:
        return self.size

    def __repr__(self) -> str:
        return (f"<ActionIds {self.pack_name} players={self.players} size={self.size} "
                f"digest={self.digest[:12]}>")

    def id_of(self, action: Action | str) -> int:
        """The id of an action (or of its canonical notation text); raises
        :class:`ActionSpaceError` for one outside the space."""
        if isinstance(action, Action):
            i = self._ids.get(tuple.__new__(tuple, action))
        elif isinstance(action, str):
            i = self._by_text.get(action)
            if i is None:
                i = self._by_text.get(" ".join(action.split()))
        else:
            raise ActionSpaceError(
                f"id_of takes an Action or its notation text, not {type(action).__name__}")
        if i is None:
            raise ActionSpaceError(
                f"{quoted(str(action))} is not in the action space of {self.pack_name} "
                f"for {self.players} players (write it as the engine does, or parse it with "
                "state.parse_action first)")
        return i

    def action_of(self, action_id: int) -> Action:
        """The action of an id; raises :class:`ActionSpaceError` for a bad id."""
        if type(action_id) is not int:
            try:
                action_id = checked_id(action_id)  # numpy integers
            except IllegalActionError as e:
                raise ActionSpaceError(e.reason) from None
        if not 0 <= action_id < self.size:
            raise ActionSpaceError(
                f"action id {quoted(action_id)} is outside the action space of {self.pack_name} "
                f"for {self.players} players (0..{self.size - 1})")
        return self.actions[action_id]

    def mask(self, actions) -> bytearray:
        """A ``size``-byte mask with 1 at the id of each of ``actions``."""
        m = bytearray(self.size)
        for i in self.ids(actions):
            m[i] = 1
        return m

    def ids(self, actions) -> list[int]:
        """The ids of ``actions``, in their order."""
        try:
            return list(map(self._id_of_object, actions))
        except AttributeError:  # objects not seen before (an engine's own interned ones)
            pass
        name, ids, out = self._name, self._ids, []
        for a in actions:
            d = getattr(a, "__dict__", None)
            i = None if d is None else d.get(name)
            if i is None:
                i = ids[tuple.__new__(tuple, a)]
                if d is not None and type(a) is Action and self._tagged < 4 * self.size:
                    d[name] = i  # bounded: an engine interns few objects
                    self._tagged += 1
                    self._live[i] = a
            out.append(i)
        return out


_SERIALS = itertools.count()
"""Numbers each :class:`ActionIds`: the attribute its ids are kept under on action objects."""


_CACHE: dict[tuple, ActionIds | ActionSpaceError] = {}
_CACHE_MAX = 64
"""Action spaces kept (each up to 60,000 actions): past it the cache starts afresh."""


def action_space_for(state: GameState) -> ActionIds:
    """The :class:`ActionIds` of ``state``'s pack and player count (built once, cached; a
    pack without one raises :class:`ActionSpaceError`, also once: the refusal is cached)."""
    key = (type(state).__name__, state.pack.name, state.pack.digest, state.n_players)
    space = _CACHE.get(key)
    if space is None:
        try:
            space = ActionIds(state.pack.name, state.n_players, _universe(state))
        except ActionSpaceError as e:
            space = e
        if len(_CACHE) >= _CACHE_MAX:
            _CACHE.clear()
        _CACHE[key] = space
    if isinstance(space, ActionSpaceError):
        raise ActionSpaceError(str(space))
    return space


def _universe(state: GameState) -> list[Action]:
    """Every action of the space, from the engine's ``action_universe()`` hook (each engine
    has one: the kernels' are in :mod:`meldkit.kernel.universe`)."""
    hook = getattr(state, "action_universe", None)
    if hook is None:
        raise ActionSpaceError(
            f"engine {type(state).__name__} (pack {state.pack.name!r}) does not list its "
            "actions: give it an action_universe() method returning every action the pack "
            "can allow")
    try:
        actions = list(hook())
    except MeldkitError:
        raise
    except Exception as e:
        raise ActionSpaceError(
            f"{type(state).__name__}.action_universe raised {type(e).__name__}: {e}") from e
    if not all(isinstance(a, Action) for a in actions):
        raise ActionSpaceError(
            f"{type(state).__name__}.action_universe must list Action values")
    return actions


def sorted_actions(actions, verbs: tuple[str, ...]) -> list[Action]:
    """``actions`` without repeats, in the order of action ids: by verb (in the order of
    ``verbs``, any other verb after them by name), then by the number of cards, the cards
    and the target.  An engine's ``action_universe()`` may return this."""
    order = {v: i for i, v in enumerate(verbs)}
    uniq = {tuple.__new__(tuple, a): a for a in actions}
    return sorted(uniq.values(), key=lambda a: (order.get(a[0], len(order)), a[0], len(a[1]),
                                                a[1], a[2]))


def apply_id(state: GameState, action_id) -> Action:
    """The action of an id for ``state`` (what ``state.apply(int)`` applies); raises
    :class:`~meldkit.IllegalActionError` (``action/bad-id``) naming the range."""
    try:
        space = state.action_space
    except ActionSpaceError as e:  # (a pack without one: say so with the id sent)
        raise IllegalActionError("action/bad-id", f"action id {quoted(action_id)} names no "
                                 f"action: {e}") from None
    try:
        return space.action_of(action_id)
    except ActionSpaceError as e:
        raise IllegalActionError("action/bad-id", str(e)) from None
