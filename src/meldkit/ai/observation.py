"""Observation vectors: what one player may see, as a flat ``array('f')`` whose layout is
generated from the pack and named slice by slice by :func:`observation_spec`.

Seats and teams are relative to the observer: index 0 is the observer (or their team),
1 the next seat to the left, and so on — so one network plays every seat.  Card slices are
counts by card kind, over the kinds the pack's deck holds (``kinds`` in the spec, in order).
Nothing hidden from the player enters the vector: their own hand, public zones, and only
the sizes of hidden zones.

>>> import meldkit
>>> g = meldkit.new_game("gin_rummy", players=2, seed=1)
>>> spec = g.observation_spec()
>>> obs = g.observation(0)
>>> len(obs) == spec.size, sum(obs[spec["hand"]])
(True, 10.0)
"""

from __future__ import annotations

from array import array
from typing import TYPE_CHECKING

from .._cards import card_code

if TYPE_CHECKING:
    from .._game import GameState

__all__ = ["ObservationSpec", "observation", "observation_spec"]


class ObservationSpec:
    """The layout of an observation vector: named slices in order.

    ``spec["hand"]`` is a :class:`slice` into the vector; :attr:`fields` lists
    ``(name, start, length, meaning)``; :attr:`kinds` names the card kinds of card slices.
    """

    def __init__(self, engine: str, kinds: list[str]):
        self.engine = engine
        self.kinds = tuple(kinds)
        """The card codes that card-count slices count, in order."""
        self.fields: list[tuple[str, int, int, str]] = []
        """``(name, start, length, meaning)`` for every slice, in order."""
        self.size = 0
        """The length of the vector."""
        self._index: dict[str, slice] = {}

    def add(self, name: str, length: int, meaning: str) -> None:
        self.fields.append((name, self.size, length, meaning))
        self._index[name] = slice(self.size, self.size + length)
        self.size += length

    def __getitem__(self, name: str) -> slice:
        try:
            return self._index[name]
        except KeyError:
            raise KeyError(f"no slice {name!r} in this observation (slices: "
                           f"{', '.join(self._index)})") from None

    def __contains__(self, name: str) -> bool:
        return name in self._index

    def __repr__(self) -> str:
        return f"<ObservationSpec {self.engine} size={self.size} slices={len(self.fields)}>"

    def to_dict(self) -> dict:
        """The layout as JSON-able data (for documentation and model cards)."""
        return {"engine": self.engine, "size": self.size, "kinds": list(self.kinds),
                "fields": [{"name": n, "start": s, "length": k, "meaning": m}
                           for n, s, k, m in self.fields]}


_SPECS: dict[tuple, ObservationSpec] = {}


def observation_spec(state: GameState) -> ObservationSpec:
    """The layout of ``state.observation(p)`` for this pack and table (cached)."""
    key = (type(state).__name__, state.pack.name, state.pack.digest, state.n_players,
           state.n_teams)
    spec = _SPECS.get(key)
    if spec is None:
        spec = _SPECS[key] = _engine(state)[0](state)
    return spec


def observation(state: GameState, player: int) -> array:
    """What ``player`` may see, as a flat ``array('f')`` laid out by
    :func:`observation_spec`."""
    if not isinstance(player, int) or isinstance(player, bool) \
            or not 0 <= player < state.n_players:
        raise ValueError(f"player must be a seat 0..{state.n_players - 1}, not {player!r}")
    spec = observation_spec(state)
    out = array("f", bytes(4 * spec.size))
    _engine(state)[1](state, player, spec, out)
    return out


def _engine(state):
    from .._state import RummyState
    from ..houses._engine import HousesState
    from ..kernel.table import TableState

    if isinstance(state, TableState):
        return _table_spec, _table_fill
    if isinstance(state, RummyState):
        return _kernel_spec, _kernel_fill
    if isinstance(state, HousesState):
        return _houses_spec, _houses_fill
    hook = getattr(state, "observation_layout", None)
    if hook is not None:
        return hook()
    from .action_space import ActionSpaceError

    raise ActionSpaceError(f"engine {type(state).__name__} has no observation layout")


def _kinds_index(kind_of) -> tuple[list[int], dict[int, int]]:
    kinds = sorted(set(kind_of))
    return kinds, {k: i for i, k in enumerate(kinds)}


def _rel(p: int, q: int, n: int) -> int:
    return (q - p) % n


# --------------------------------------------------------------------------- table melds

_TABLE_PHASES = ("first_upcard", "draw", "play", "discard", "knock", "layoff", "wall", "over")


def _table_spec(state) -> ObservationSpec:
    kinds, _ = _kinds_index(state.kind_of)
    n, nk = state.n_players, len(kinds)
    s = ObservationSpec("table", [card_code(k) for k in kinds])
    s.add("hand", nk, "own hand: count of each card kind")
    s.add("pile", nk, "discard pile (face up): count of each card kind")
    s.add("pile_top", nk, "the top card of the pile (one-hot; zeros when empty)")
    s.add("melds", n * nk, "cards in melds owned by each seat (relative seat x kind)")
    s.add("hand_sizes", n, "cards in each seat's hand (relative seat)")
    s.add("stock", 1, "cards left in the stock")
    s.add("scores", state.n_teams, "each team's score (relative team)")
    s.add("phase", len(_TABLE_PHASES), "the phase, one-hot: " + ", ".join(_TABLE_PHASES))
    s.add("to_move", n, "the seat to act, one-hot (relative seat)")
    s.add("knocker", n, "the seat that knocked, one-hot (relative seat; zeros: none)")
    s.add("knock_value", 1, "the most deadwood a knock allows this hand (-1: no knocking)")
    s.add("deadwood", 1, "own least deadwood")
    s.add("hand_number", 1, "the hand being played (1, 2 …)")
    return s


def _table_fill(state, p: int, spec: ObservationSpec, out: array) -> None:
    _, idx = _kinds_index(state.kind_of)
    nk, n, kind_of = len(idx), state.n_players, state.kind_of
    b = spec["hand"].start
    for c in state.hands[p]:
        out[b + idx[kind_of[c]]] += 1
    b = spec["pile"].start
    for c in state.pile:
        out[b + idx[kind_of[c]]] += 1
    if state.pile:
        out[spec["pile_top"].start + idx[kind_of[state.pile[-1]]]] = 1
    b = spec["melds"].start
    for m in state.melds:
        base = b + _rel(p, m.owner, n) * nk
        for c in m.cards:
            out[base + idx[kind_of[c]]] += 1
    b = spec["hand_sizes"].start
    for q in range(n):
        out[b + _rel(p, q, n)] = len(state.hands[q])
    out[spec["stock"].start] = len(state.stock)
    _scores(state, p, spec, out)
    out[spec["phase"].start + _TABLE_PHASES.index(state.phase)] = 1
    if state.phase != "over":
        out[spec["to_move"].start + _rel(p, state.current, n)] = 1
    if state.knocker is not None:
        out[spec["knocker"].start + _rel(p, state.knocker, n)] = 1
    out[spec["knock_value"].start] = -1 if state.knock_value is None else state.knock_value
    out[spec["deadwood"].start] = state.rules.melds.min_deadwood(state._kinds(state.hands[p]))
    out[spec["hand_number"].start] = state.hand_number


def _scores(state, p: int, spec: ObservationSpec, out: array) -> None:
    b = spec["scores"].start
    t0, nt = state.team_of[p], state.n_teams
    for t in range(nt):
        out[b + (t - t0) % nt] = state.scores[t]


# --------------------------------------------------------------------------- canasta kernel

_KERNEL_PHASES = ("draw", "play", "over")


def _kernel_spec(state) -> ObservationSpec:
    from .._cards import N_RANKS

    kinds, _ = _kinds_index(state.kind_of)
    n, nk, nt = state.n_players, len(kinds), state.n_teams
    slots = N_RANKS + 1
    s = ObservationSpec("rummy", [card_code(k) for k in kinds])
    s.add("hand", nk, "own hand: count of each card kind")
    s.add("pile_top", nk, "the top card of the pile (one-hot; zeros when empty)")
    s.add("pile_size", 1, "cards in the discard pile")
    s.add("pile_frozen", 1, "1 when the pile is frozen")
    s.add("melds", nt * slots, "cards on each team's melds by rank slot (relative team x "
          "A..K, JK, wild meld)")
    s.add("meld_wilds", nt * slots, "wild cards in each team's melds by rank slot")
    s.add("meld_closed", nt * slots, "1 where a team's meld of that slot is closed")
    s.add("melded", nt, "1 when the team has made its initial meld (relative team)")
    s.add("bonus", n, "bonus cards laid out by each seat (relative seat)")
    s.add("hand_sizes", n, "cards in each seat's hand (relative seat)")
    s.add("reserve_sizes", n, "cards in each seat's face-down reserve (relative seat)")
    s.add("out", n, "1 for a seat that has left the hand (relative seat)")
    s.add("stock", 1, "cards left in the stock")
    s.add("scores", nt, "each team's score (relative team)")
    s.add("phase", len(_KERNEL_PHASES), "the phase, one-hot: " + ", ".join(_KERNEL_PHASES))
    s.add("to_move", n, "the seat to act, one-hot (relative seat)")
    s.add("pending", 1, "1 while an initial meld is pending (below the minimum)")
    s.add("hand_number", 1, "the hand being played (1, 2 …)")
    if state.rules.sequences:
        s.add("sequences", nt * 4 * len(state.rules.seq_ranks),
              "cards in each team's suited sequences (relative team x suit C, D, H, S x "
              "place in melds.sequences.ranks)")
    return s


def _kernel_fill(state, p: int, spec: ObservationSpec, out: array) -> None:
    from .._cards import N_RANKS

    _, idx = _kinds_index(state.kind_of)
    n, nt, kind_of = state.n_players, state.n_teams, state.kind_of
    slots = N_RANKS + 1
    b = spec["hand"].start
    for cards in state.hands[p]:
        for c in cards:
            out[b + idx[kind_of[c]]] += 1
    if state.pile:
        out[spec["pile_top"].start + idx[kind_of[state.pile[-1]]]] = 1
    out[spec["pile_size"].start] = len(state.pile)
    out[spec["pile_frozen"].start] = 1 if state.pile_frozen else 0
    t0 = state.team_of[p]
    for t in range(nt):
        rt = (t - t0) % nt
        for m in state.melds[t]:
            if m.slot >= slots:  # a suited sequence
                base = spec["sequences"].start + (rt * 4 + m.suit) * len(state.rules.seq_ranks)
                for q in range(m.lo, m.hi + 1):
                    out[base + q] += 1
                continue
            i = rt * slots + m.slot
            out[spec["melds"].start + i] += len(m.cards)
            out[spec["meld_wilds"].start + i] += m.wild
            if m.closed:
                out[spec["meld_closed"].start + i] = 1
        out[spec["melded"].start + rt] = 1 if state.melded[t] else 0
    for q in range(n):
        rq = _rel(p, q, n)
        out[spec["bonus"].start + rq] = len(state.bonus[q])
        out[spec["hand_sizes"].start + rq] = state.hand_size[q]
        out[spec["reserve_sizes"].start + rq] = len(state.reserves[q])
        out[spec["out"].start + rq] = 1 if state.out[q] else 0
    out[spec["stock"].start] = len(state.stock)
    _scores(state, p, spec, out)
    out[spec["phase"].start + _KERNEL_PHASES.index(state.phase)] = 1
    if state.phase != "over":
        out[spec["to_move"].start + _rel(p, state.current, n)] = 1
    out[spec["pending"].start] = 1 if state.pending else 0
    out[spec["hand_number"].start] = state.hand_number


# --------------------------------------------------------------------------- Houses

_HOUSES_PHASES = ("take", "act", "answer", "over")


def _houses_spec(state) -> ObservationSpec:
    r = state.rules
    n, nc, sp = state.n_players, len(r.codes), r.spaces
    s = ObservationSpec("houses", list(r.codes))
    s.add("hand", nc, "own hand: 1 for each card held")
    s.add("groups", n * sp * nc, "cards in each group space (relative seat x space x card)")
    s.add("group_tops", n * sp * nc, "the top card of each group space (one-hot)")
    s.add("removed", n * nc, "cards in each seat's removed groups (relative seat x card)")
    s.add("hand_sizes", n, "cards in each seat's hand (relative seat)")
    s.add("passed_waiting", n, "1 where a face-down passed card waits for that seat")
    s.add("passed_by_me", nc, "the card I passed that my partner has not yet received")
    s.add("stock", 1, "cards left in the deck")
    s.add("scores", state.n_teams, "each team's score (relative team)")
    s.add("phase", len(_HOUSES_PHASES), "the phase, one-hot: " + ", ".join(_HOUSES_PHASES))
    s.add("to_move", n, "the seat to act, one-hot (relative seat)")
    return s


def _houses_fill(state, p: int, spec: ObservationSpec, out: array) -> None:
    r = state.rules
    n, nc, sp = state.n_players, len(r.codes), r.spaces
    for c in state.hands[p]:
        out[spec["hand"].start + c] = 1
    for q in range(n):
        rq = _rel(p, q, n)
        for s_i, g in enumerate(state.groups[q]):
            base = (rq * sp + s_i) * nc
            for c in g:
                out[spec["groups"].start + base + c] = 1
            if g:
                out[spec["group_tops"].start + base + g[-1]] = 1
        for g in state.removed[q]:
            for c in g:
                out[spec["removed"].start + rq * nc + c] = 1
        out[spec["hand_sizes"].start + rq] = len(state.hands[q])
        out[spec["passed_waiting"].start + rq] = 1 if state.incoming[q] >= 0 else 0
    mine = state.incoming[state.partner(p)]
    if mine >= 0:
        out[spec["passed_by_me"].start + mine] = 1
    out[spec["stock"].start] = len(state.stock)
    _scores(state, p, spec, out)
    out[spec["phase"].start + _HOUSES_PHASES.index(state.phase)] = 1
    if state.phase != "over":
        out[spec["to_move"].start + _rel(p, state.current, n)] = 1
