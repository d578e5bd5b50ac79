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

from .._checks import check_seat

if TYPE_CHECKING:
    from .._game import GameState

__all__ = ["ObservationSpec", "observation", "observation_into", "observation_spec",
           "observation_writer", "seat_writer"]


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
    _check_player(state, player)
    last = _layout(state)
    out = last[6][:]  # zeros
    last[5](state, player, last[4], out)
    return out


def observation_into(state: GameState, player: int, out: array) -> None:
    """Write :func:`observation` ``(state, player)`` over ``out``, an ``array('f')`` of the
    spec's size kept by the caller (an environment reusing one buffer between steps)."""
    _check_player(state, player)
    last = _layout(state)
    zeros = last[6]
    if len(out) != len(zeros):
        raise ValueError(f"out holds {len(out)} values; this observation has {len(zeros)}")
    out[:] = zeros  # in place
    last[5](state, player, last[4], out)


def observation_writer(state: GameState):
    """A function ``write(s, player, out)`` doing what :func:`observation_into` does for
    any state ``s`` of ``state``'s table (its engine, pack, seats and teams), without
    checking its arguments: for an environment that deals every game of one table itself
    and keeps one buffer of the spec's size (``player`` a seat, ``out`` that buffer).

    >>> import meldkit
    >>> from array import array
    >>> g = meldkit.new_game("gin_rummy", players=2, seed=1)
    >>> write, buf = observation_writer(g), array("f", bytes(4 * g.observation_spec().size))
    >>> write(g, 0, buf); buf == g.observation(0)
    True
    """
    spec, fill, zeros = writer_parts(state)

    def write(s, player: int, out: array) -> None:
        out[:] = zeros  # in place
        fill(s, player, spec, out)

    return write


def seat_writer(state: GameState, player: int, out: array):
    """A function ``write(s)`` writing :func:`observation` ``(s, player)`` into ``out``
    (an ``array('f')`` of the spec's size) for any state ``s`` of ``state``'s table,
    unchecked: for an environment keeping one buffer a seat, which only this writer
    writes.  The engine's own writer where its fill has one (``fill.seat(state, player,
    spec, out)``, which may write only what changed since its last call), else
    :func:`observation_writer`'s.

    >>> import meldkit
    >>> from array import array
    >>> g = meldkit.new_game("gin_rummy", players=2, seed=1)
    >>> buf = array("f", bytes(4 * g.observation_spec().size))
    >>> write = seat_writer(g, 0, buf)
    >>> write(g); g.apply(g.legal_ids()[0]); write(g); buf == g.observation(0)
    True
    """
    spec, fill, zeros = writer_parts(state)
    make = getattr(fill, "seat", None)
    if make is not None:
        return make(state, player, spec, out)

    def write(s) -> None:
        out[:] = zeros  # in place
        fill(s, player, spec, out)

    return write


def writer_parts(state: GameState) -> tuple:
    """``(spec, fill, zeros)`` of ``state``'s table: :func:`observation_writer`'s
    ``write(s, p, out)`` is ``out[:] = zeros; fill(s, p, spec, out)`` (for a caller that
    inlines it)."""
    last = _layout(state)
    return last[4], last[5], last[6]


def _check_player(state, player) -> None:
    check_seat(player, state.n_players)


def _layout(state) -> tuple:
    """``(type, pack, players, teams, spec, fill, zeros)`` of ``state``'s table: the last
    table's, kept at hand (one tuple, replaced whole)."""
    global _last_layout
    last = _last_layout
    if not (last[0] is type(state) and last[1] is state.pack and last[2] == state.n_players
            and last[3] == state.n_teams):
        spec = observation_spec(state)
        last = _last_layout = (type(state), state.pack, state.n_players, state.n_teams,
                               spec, _engine(state)[1], array("f", bytes(4 * spec.size)))
    return last


_last_layout: tuple = (None,) * 7


def _engine(state):
    """The engine's ``(spec, fill)`` pair, from its ``observation_layout()`` hook (each
    engine has one: the kernels' are in :mod:`meldkit.kernel.universe`)."""
    hook = getattr(state, "observation_layout", None)
    if hook is None:
        from .action_space import ActionSpaceError

        raise ActionSpaceError(f"engine {type(state).__name__} has no observation layout")
    return hook()


# ----------------------------------------------------------- helpers for engines' layouts


def kinds_index(kind_of) -> tuple[list[int], dict[int, int]]:
    """The card kinds of a deck (``kind_of``: the kind of each card id), sorted, and the
    place of each in that order: the order of card-count slices.  The last deck's answer
    is kept (every observation asks again): the list and dict are shared, not to be
    changed."""
    global _last_kinds
    last = _last_kinds
    if last[0] == kind_of:  # a list compare: much cheaper than sorting the deck again
        return last[1]
    kinds = sorted(set(kind_of))
    found = kinds, {k: i for i, k in enumerate(kinds)}
    _last_kinds = (kind_of[:], found)
    return found


_last_kinds: tuple = (None, None)


def rel(p: int, q: int, n: int) -> int:
    """Seat ``q`` relative to the observer ``p`` at a table of ``n`` (0: the observer)."""
    return (q - p) % n


def fill_scores(state, p: int, spec: ObservationSpec, out: array) -> None:
    """Write each team's score into the ``scores`` slice, relative to ``p``'s team."""
    b = spec["scores"].start
    t0, nt = state.team_of[p], state.n_teams
    for t in range(nt):
        out[b + (t - t0) % nt] = state.scores[t]
