"""The record of a finished hand: one shape for every engine (``state.hand_results``).

A leaf module: it imports nothing of meldkit. Each engine fills the same six fields —
``hand_number, ended_by, went_out, scores, net, final`` — and keeps its own kinds of
score line (:class:`meldkit.TeamScore` in the canasta kernel, ``TableScore`` in the table
kernel, ``HousesTeamScore``) and of final zones (:class:`meldkit.HandFinal`, ``TableFinal``,
Houses' dict) inside them. Every score line has ``team`` and ``total``.

>>> import meldkit
>>> from meldkit.bots import GreedyBot
>>> from meldkit.records import HandResult
>>> for pack, n in (("pony_canasta", 2), ("gin_rummy", 2)):
...     game, bot = meldkit.new_game(pack, players=n, seed=29), GreedyBot(seed=0)
...     while not game.hand_results:
...         game.apply(bot.choose(game))
...     hand = game.last_hand
...     print(type(hand) is HandResult, list(hand.to_dict()), hand.net == hand.totals
...           if pack == "pony_canasta" else sum(hand.net))
True ['hand_number', 'ended_by', 'went_out', 'scores', 'net', 'final'] True
True ['hand_number', 'ended_by', 'went_out', 'scores', 'net', 'final'] 0
"""

from __future__ import annotations

from typing import Any, Callable

import attrs

__all__ = ["HandResult", "SheetEntry", "totals"]


def totals(scores) -> tuple[int, ...]:
    """Each score line's total, in order (what ``net`` is where a hand is not zero-sum).

    >>> from meldkit import TeamScore
    >>> totals([TeamScore(team=0, books=300), TeamScore(team=1, hand_cards=-20)])
    (300, -20)
    """
    return tuple(s.total for s in scores)


def _data(x: Any) -> Any:
    """``x`` as JSON-able data: its ``to_dict()``, or its fields with lists for tuples."""
    if hasattr(x, "to_dict"):
        return x.to_dict()
    if attrs.has(type(x)):
        return {a.name: _data(getattr(x, a.name)) for a in attrs.fields(type(x))}
    if isinstance(x, (tuple, list)):
        return [_data(i) for i in x]
    if isinstance(x, dict):
        return {k: _data(v) for k, v in x.items()}
    return x


@attrs.frozen
class HandResult:
    """The record of one finished hand, in every engine.

    >>> import meldkit
    >>> from meldkit.bots import GreedyBot
    >>> game, bot = meldkit.new_game("pony_canasta", players=2, seed=29), GreedyBot(seed=0)
    >>> while not game.hand_results:
    ...     game.apply(bot.choose(game))
    >>> hand = game.last_hand
    >>> hand.hand_number, hand.ended_by in ("went_out", "stock_empty", "one_side_left")
    (1, True)
    >>> hand.totals == tuple(score.total for score in hand.scores) == game.rescore(hand)
    True
    >>> list(hand.totals) == game.scores   # the first hand's totals are the running scores
    True
    """

    hand_number: int
    """The hand's number in the game (1, 2 …)."""
    ended_by: str
    """How it ended: ``went_out``, ``stock_empty``, ``one_side_left`` (canasta kernel);
    ``knock``, ``gin``, ``big_gin``, ``undercut``, ``wall``, ``limit`` (table kernel);
    ``turn_limit`` (either kernel, at ``game.hand_turn_limit``: void); ``table_cleared``,
    ``agreed``, ``all_passed``, ``repetition`` (Houses); ``no_legal_move`` or
    ``no_progress`` (any engine)."""
    went_out: int | None
    """The seat that went out or knocked, or None."""
    scores: tuple[Any, ...]
    """Each side's score line for the hand, item by item (``team``, ``total``)."""
    net: tuple[int, ...]
    """What the hand was worth to each side before game-end bonuses: zero-sum in the
    table kernel (the winner's gain is the others' loss), each side's total elsewhere."""
    final: Any
    """The zones at the end of the hand: what the scores are computed from."""
    payments: tuple[tuple[int, int, int], ...] = ()
    """Each ``(payer, payee, points)`` the pack's ``pay`` scoring items made (seats), in
    order; empty where the pack lists none."""
    sheets: tuple[Any, ...] = ()
    """With ``scoring.sheets``: what each score sheet counted this hand
    (:class:`SheetEntry`, in the pack's order); empty otherwise."""

    @property
    def totals(self) -> tuple[int, ...]:
        """Each side's score for this hand."""
        return totals(self.scores)

    def to_dict(self) -> dict[str, Any]:
        """The record as JSON-able data (the six fields, in order; then ``payments`` and
        ``sheets`` where the pack makes them)."""
        d = {"hand_number": self.hand_number, "ended_by": self.ended_by,
             "went_out": self.went_out, "scores": [_data(s) for s in self.scores],
             "net": list(self.net), "final": _data(self.final)}
        if self.payments:
            d["payments"] = [list(p) for p in self.payments]
        if self.sheets:
            d["sheets"] = [s.to_dict() for s in self.sheets]
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any], score: Callable[[Any], Any],
                  final: Callable[[Any], Any]) -> HandResult:
        """Read :meth:`to_dict`'s data back, with the engine's readers of a score line
        and of the final zones (a missing field is a ``KeyError``; the engine's load
        checks ``payments`` and ``sheets`` against the pack)."""
        return cls(hand_number=d["hand_number"], ended_by=d["ended_by"],
                   went_out=d["went_out"], scores=tuple(score(s) for s in d["scores"]),
                   net=tuple(d["net"]), final=final(d["final"]),
                   payments=tuple((_int(a), _int(b), _int(c)) for a, b, c in d.get("payments", ())),
                   sheets=tuple(SheetEntry.from_dict(s) for s in d.get("sheets", ())))


@attrs.frozen
class SheetEntry:
    """What one score sheet (``scoring.sheets``) counted in one hand: ``points`` per side
    (0 where the sheet did not count the side's hand), the ``bonus`` items each side
    gained when the sheet ended (its game and box bonuses), and whether it ended.

    >>> e = SheetEntry("first", (45, 0), ((("game", 100),), ()), True)
    >>> e.totals, SheetEntry.from_dict(e.to_dict()) == e
    ((145, 0), True)
    """

    name: str
    points: tuple[int, ...]
    bonus: tuple[tuple[tuple[str, int], ...], ...] = ()
    ended: bool = False

    @property
    def totals(self) -> tuple[int, ...]:
        """Each side's points on the sheet this hand, bonuses included."""
        return tuple(p + sum(v for _, v in (self.bonus[t] if self.bonus else ()))
                     for t, p in enumerate(self.points))

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"name": self.name, "points": list(self.points)}
        if any(self.bonus):
            d["bonus"] = [[list(i) for i in b] for b in self.bonus]
        if self.ended:
            d["ended"] = True
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> SheetEntry:
        """Read :meth:`to_dict`'s data back (a ``TypeError`` for a value of the wrong type)."""
        ended = d.get("ended", False)
        if not isinstance(d["name"], str) or type(ended) is not bool:
            raise TypeError("a sheet entry's name is a string, ended true or false")
        return cls(d["name"], tuple(map(_int, d["points"])),
                   tuple(tuple((str(a), _int(b)) for a, b in t) for t in d.get("bonus", ())),
                   ended)


def _int(x: Any) -> int:
    """``x`` if it is an integer (not a bool), else a ``TypeError``."""
    if type(x) is not int:
        raise TypeError(f"expected an integer, got {x!r:.60}")
    return x
