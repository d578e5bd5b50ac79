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
from typing import TYPE_CHECKING

from .._actions import Action
from .._errors import IllegalActionError, MeldkitError

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
        "_ids",
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
                f"{str(action)!r} is not in the action space of {self.pack_name} "
                f"for {self.players} players (write it as the engine does, or parse it with "
                "state.parse_action first)")
        return i

    def action_of(self, action_id: int) -> Action:
        """The action of an id; raises :class:`ActionSpaceError` for a bad id."""
        if isinstance(action_id, bool):
            raise ActionSpaceError("an action id is an int, not bool")
        if type(action_id) is not int:
            try:
                import operator

                action_id = operator.index(action_id)  # numpy integers
            except TypeError:
                raise ActionSpaceError(
                    f"an action id is an int, not {type(action_id).__name__}") from None
        if not 0 <= action_id < self.size:
            raise ActionSpaceError(
                f"action id {action_id} is outside the action space of {self.pack_name} "
                f"for {self.players} players (0..{self.size - 1})")
        return self.actions[action_id]

    def mask(self, actions) -> bytearray:
        """A ``size``-byte mask with 1 at the id of each of ``actions``."""
        m = bytearray(self.size)
        ids = self._ids
        for a in actions:
            m[ids[tuple.__new__(tuple, a)]] = 1
        return m

    def ids(self, actions) -> list[int]:
        """The ids of ``actions``, in their order."""
        ids = self._ids
        return [ids[tuple.__new__(tuple, a)] for a in actions]


_CACHE: dict[tuple, ActionIds] = {}


def action_space_for(state: GameState) -> ActionIds:
    """The :class:`ActionIds` of ``state``'s pack and player count (built once, cached)."""
    key = (type(state).__name__, state.pack.name, state.pack.digest, state.n_players)
    space = _CACHE.get(key)
    if space is None:
        actions = _universe(state)
        space = ActionIds(state.pack.name, state.n_players, actions)
        if len(_CACHE) > 256:
            _CACHE.clear()
        _CACHE[key] = space
    return space


def _universe(state: GameState) -> list[Action]:
    hook = getattr(state, "action_universe", None)
    if hook is not None:
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
    from .._state import RummyState

    if isinstance(state, RummyState):
        return _kernel_universe(state)
    from ..kernel.table import TableState

    if isinstance(state, TableState):
        return _table_universe(state)
    from ..houses._engine import HousesState

    if isinstance(state, HousesState):
        return _houses_universe(state)
    raise ActionSpaceError(
        f"engine {type(state).__name__} (pack {state.pack.name!r}) does not list its actions: "
        "give it an action_universe() method returning every action the pack can allow")


def _sorted(actions, verbs: tuple[str, ...]) -> list[Action]:
    order = {v: i for i, v in enumerate(verbs)}
    uniq = {tuple.__new__(tuple, a): a for a in actions}
    return sorted(uniq.values(), key=lambda a: (order.get(a[0], len(order)), a[0], len(a[1]),
                                                a[1], a[2]))


# --------------------------------------------------------------------------- the canasta kernel


def _kernel_universe(state) -> list[Action]:
    from .._actions import ADD, DISCARD, DRAW, END, EXTEND, MELD, PICKUP, RUN, TAKE, WITHDRAW
    from .._cards import N_RANKS, rank_of_kind
    from .._rules import WILD

    rules = state.rules
    if rules.hooks:
        plugin = rules.plugin
        hook = getattr(plugin, "action_universe", None)
        if hook is None:
            raise ActionSpaceError(
                f"pack {state.pack.name!r}: plugin {plugin.name!r} adds the verbs "
                f"{', '.join(sorted(rules.hooks))} but has no action_universe(state) hook "
                "listing their actions, so the pack has no integer action ids")
        extra = list(hook(state))
    else:
        extra = []
    space = rules.action_space
    look = space.lookup
    held = [0] * (N_RANKS + 1)
    for k in state.kind_of:
        if not rules.is_bonus_kind[k]:
            held[rank_of_kind(k)] += 1
    wild_counts = [held[w] for w in rules.wild_ranks]
    out = [look(DRAW), look(END), look(PICKUP), look(WITHDRAW), look(TAKE)]
    for r in range(N_RANKS):
        if held[r] and not rules.suits_matter:  # else a discard names its suit
            out.append(look(DISCARD, (r,)))
        if held[r] >= 2:
            out.append(look(TAKE, (r, r)))
        if rules.is_natural_rank[r] and held[r]:
            for w in rules.wild_ranks:
                if held[w]:
                    out.append(look(TAKE, space.canonical((r, w))))
    mixes = rules.mixes_for(wild_counts)
    total_cards = sum(held)
    for new in (True, False):
        for slot in rules.meld_slots:
            room = min(rules.max_meld_size, total_cards)
            if new:
                lo, least = rules.min_naturals, rules.min_size
            else:
                lo, least = 0, 1
            max_w = room if slot == WILD else rules.slot_max_wilds[slot]
            if slot == WILD:
                lo = hi = 0
            else:
                hi = min(held[slot], room)
            for n in range(lo, hi + 1):
                for mix, w in mixes:
                    total = n + w
                    if w > max_w or total > room or total < least:
                        continue
                    cards = [slot] * n if slot != WILD else []
                    for c, wr in zip(mix, rules.wild_ranks):
                        cards.extend([wr] * c)
                    cards_t = space.canonical(cards)
                    out.append(look(MELD, cards_t) if new else look(ADD, cards_t, slot))
    if rules.suits_matter:
        out.extend(look(DISCARD, (k,)) for k in sorted(set(state.kind_of))
                   if not rules.is_bonus_kind[k])
    out.extend(_sequence_universe(rules, space, state.kind_of))
    out.extend(extra)
    return _sorted(out, (DRAW, END, PICKUP, TAKE, WITHDRAW, DISCARD, MELD, ADD, RUN, EXTEND))


def _sequence_universe(rules, space, kind_of) -> list[Action]:
    """Every ``run``, ``extend`` and ``take to <sequence>`` of a pack with
    ``melds.sequences`` (none for other packs)."""
    from .._actions import EXTEND, RUN, TAKE, seq_target

    if not rules.sequences:
        return []
    look = space.lookup
    ranks, n = rules.seq_ranks, len(rules.seq_ranks)
    most, least = rules.seq_max, rules.seq_min
    present = set(kind_of)
    out = []
    for s in range(4):
        if not all(r * 4 + s in present for r in ranks):
            continue  # a deck without some card of the suit: its sequences are not listed
        for lo in range(n):
            for hi in range(lo + least - 1, min(n, lo + most)):
                out.append(look(RUN, tuple(ranks[i] * 4 + s for i in range(lo, hi + 1))))
                size = hi - lo + 1
                if size >= most:
                    continue
                target = seq_target(s, lo, hi)
                if lo > 0 or hi < n - 1:
                    out.append(look(TAKE, (), target))
                for a in range(lo + 1):
                    for b in range(n - hi):
                        if 0 < a + b <= most - size:
                            pos = [*range(lo - a, lo), *range(hi + 1, hi + 1 + b)]
                            out.append(look(EXTEND, tuple(ranks[i] * 4 + s for i in pos), target))
    return out


# --------------------------------------------------------------------------- table melds


def _table_universe(state) -> list[Action]:
    from ..kernel.table import _action

    rules = state.rules
    kinds = sorted(state.kind_of)
    distinct = sorted(set(kinds))
    out = [_action(v) for v in ("draw", "take", "pass", "knock", "done")]
    out += [_action("discard", (k,)) for k in distinct]
    if rules.take == "deep":
        out += [_action("take", (k,)) for k in distinct]
    out += [_action("meld", m) for m in rules.melds.melds_in(kinds)]
    if rules.lay_off != "none" or rules.knock is not None:
        least = min(k.min_size for k in rules.kinds)
        most_melds = len(kinds) // max(1, least)
        out += [_action("add", (k,), mid) for mid in range(1, most_melds + 1) for k in distinct]
    return _sorted(out, ("draw", "take", "pass", "knock", "done", "discard", "meld", "add"))


# --------------------------------------------------------------------------- Houses


def _houses_universe(state) -> list[Action]:
    from ..houses._engine import (
        AGREE,
        DRAW,
        MOVE,
        PASS,
        PLACE,
        PROPOSE,
        RECEIVE,
        REFUSE,
        REMOVE,
        STEAL,
        VERBS,
    )

    r = state.rules
    look = r.lookup
    cards = range(len(r.codes))
    spaces = range(r.spaces)
    out = [look(v) for v in (DRAW, RECEIVE, PASS, PROPOSE, AGREE, REFUSE)]
    out += [look(PASS, (k,)) for k in cards]
    out += [look(PLACE, (k,), s) for k in cards for s in spaces]
    out += [look(STEAL, (a,), b) for a in spaces for b in spaces]
    out += [look(MOVE, (a,), b) for a in spaces for b in spaces if a != b]
    out += [look(REMOVE, (s,)) for s in spaces]
    return _sorted(out, VERBS)


def apply_id(state: GameState, action_id) -> Action:
    """The action of an id for ``state`` (what ``state.apply(int)`` applies); raises
    :class:`~meldkit.IllegalActionError` (``action/bad-id``) naming the range."""
    try:
        return state.action_space.action_of(action_id)
    except ActionSpaceError as e:
        raise IllegalActionError("action/bad-id", str(e)) from None
