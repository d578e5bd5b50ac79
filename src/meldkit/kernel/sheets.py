"""Score sheets: each hand counted in several running games at once (``scoring.sheets``).

A sheet is a game of its own: a target, the items it counts (the hand's own, or a list of
its own), the side's hands it counts (from the side's ``from_win``-th hand won), and the
game and box bonuses it pays when it ends.  The game's total (``state.scores``) is the sum
of the sheets; the game ends when every sheet has ended, or the first (``game.sheets_end``).

The ledger is a pure function of the hands' records: :meth:`Ledger.replay` rebuilds it
from the :class:`~meldkit.records.SheetEntry` each hand recorded, and :meth:`Ledger.enter`
writes the next hand's entries, so a save is checked by replaying it.

>>> rules = (SheetRule("first", 100, 0, 50, 0), SheetRule("second", 100, 2, 50, 0))
>>> ledger = Ledger(rules, n_teams=2)
>>> [e.points for e in ledger.enter([(60, 0), (60, 0)], won=0)]  # side 0's first win
[(60, 0), (0, 0)]
>>> [e.points for e in ledger.enter([(45, 0), (45, 0)], won=0)]  # its second: both sheets
[(45, 0), (45, 0)]
>>> ledger.ended, ledger.totals()  # the first sheet ended at 105, with its game bonus
((True, False), [200, 0])
"""

from __future__ import annotations

from collections.abc import Sequence

import attrs

from ..records import SheetEntry


@attrs.frozen
class SheetRule:
    """One sheet, compiled for a table size: its name, target, the side's hand won it
    counts from, and the bonuses it pays when it ends."""

    name: str
    target: int
    from_win: int = 0
    game_bonus: int = 0
    box_bonus: int = 0
    shutout: int = 1


def reached(totals: Sequence[int], target: int, lowest: bool = False, draw: bool = False
            ) -> bool:
    """Whether a running game with these totals has ended: a side has reached the target,
    and (ties playing on) the leader — the highest total, or the lowest where ``lowest`` —
    is alone.

    >>> reached((100, 80), 100), reached((100, 100), 100), reached((100, 100), 100, draw=True)
    (True, False, True)
    >>> reached((100, 40, 40), 100, lowest=True), reached((100, 40, 60), 100, lowest=True)
    (False, True)
    """
    if max(totals) < target:
        return False
    best = min(totals) if lowest else max(totals)
    return draw or list(totals).count(best) == 1


def leader(totals: Sequence[int], lowest: bool = False) -> int | None:
    """The side with the best total (the lowest where ``lowest``), or None on a tie."""
    best = min(totals) if lowest else max(totals)
    return list(totals).index(best) if list(totals).count(best) == 1 else None


class Ledger:
    """The sheets' running state: each sheet's totals per side, the hands each side has
    won, the hands won each sheet counted (its box), and which sheets have ended."""

    __slots__ = ("counted_wins", "draw", "ended", "lowest", "n_teams", "rules", "sums", "wins")

    def __init__(self, rules: Sequence[SheetRule], n_teams: int, lowest: bool = False,
                 draw: bool = False):
        self.rules = tuple(rules)
        self.n_teams = n_teams
        self.lowest, self.draw = lowest, draw
        self.sums = [[0] * n_teams for _ in self.rules]
        self.wins = [0] * n_teams
        self.counted_wins = [[0] * n_teams for _ in self.rules]
        self.ended: tuple[bool, ...] = (False,) * len(self.rules)

    def enter(self, points: Sequence[Sequence[int]], won: int | None) -> list[SheetEntry]:
        """Count one hand: ``points[s][t]`` is what sheet ``s``'s items scored side ``t``,
        ``won`` the side that won the hand (or None).  A sheet counts a side's points once
        the side has won ``from_win`` hands (this one included), until the sheet ends;
        a sheet that ends pays its bonuses.  Returns the hand's entries."""
        if won is not None:
            self.wins[won] += 1
        out, ended = [], list(self.ended)
        for s, rule in enumerate(self.rules):
            if ended[s]:
                out.append(SheetEntry(rule.name, (0,) * self.n_teams))
                continue
            counted = tuple(points[s][t] if self.wins[t] >= rule.from_win else 0
                            for t in range(self.n_teams))
            if won is not None and self.wins[won] >= rule.from_win:
                self.counted_wins[s][won] += 1
            for t, p in enumerate(counted):
                self.sums[s][t] += p
            if reached(self.sums[s], rule.target, self.lowest, self.draw):
                ended[s] = True
                out.append(self._close(s, counted))
            else:
                out.append(SheetEntry(rule.name, counted))
        self.ended = tuple(ended)
        return out

    def close(self, entries: Sequence[SheetEntry]) -> list[SheetEntry]:
        """The game ends: each sheet still open ends too, with its bonuses (written into
        the last hand's ``entries``)."""
        out = list(entries)
        for s, e in enumerate(out):
            if not self.ended[s]:
                out[s] = self._close(s, e.points)
        self.ended = (True,) * len(self.rules)
        return out

    def _close(self, s: int, counted: tuple[int, ...]) -> SheetEntry:
        rule = self.rules[s]
        bonus: list[list[tuple[str, int]]] = [[] for _ in range(self.n_teams)]
        if rule.box_bonus:
            for t, n in enumerate(self.counted_wins[s]):
                if n:
                    bonus[t].append(("box", rule.box_bonus * n))
        best = leader(self.sums[s], self.lowest)
        if rule.game_bonus and best is not None:
            bonus[best].append(("game", rule.game_bonus))
        if rule.shutout > 1 and best is not None:
            bonus[best] += shutout_bonus(self.sums[s], best, bonus[best], rule.shutout)
        for t, items in enumerate(bonus):
            self.sums[s][t] += sum(v for _, v in items)
        return SheetEntry(rule.name, counted, tuple(map(tuple, bonus)) if any(bonus) else (),
                          True)

    def over(self, first: bool) -> bool:
        """Whether the sheets end the game: every sheet has ended (or, with ``first``, any)."""
        return any(self.ended) if first else all(self.ended)

    def totals(self) -> list[int]:
        """Each side's game total: the sum of its totals on every sheet."""
        return [sum(col) for col in zip(*self.sums)] if self.sums else [0] * self.n_teams

    def sheet_totals(self) -> list[tuple[int, ...]]:
        """Each sheet's totals per side."""
        return [tuple(s) for s in self.sums]

    @classmethod
    def replay(cls, rules: Sequence[SheetRule], n_teams: int, hands: Sequence[tuple[
            Sequence[Sequence[int]] | None, int | None, Sequence[SheetEntry]]],
            lowest: bool = False, draw: bool = False, check: bool = False
            ) -> tuple[Ledger, int | None]:
        """The ledger after ``hands`` — each ``(points, won, recorded entries)``, points
        None to take the recorded entries' points as they stand — before any game-end
        close; with ``check``, also the index of the first hand whose recorded entries are
        not what the ledger writes (None: all are), a game-end close of the last hand
        included (the ledger is then closed)."""
        ledger = cls(rules, n_teams, lowest, draw)
        for i, (points, won, recorded) in enumerate(hands):
            if points is None:
                points = [e.points for e in recorded] if len(recorded) == len(
                    ledger.rules) else [(0,) * n_teams for _ in ledger.rules]
            entries = ledger.enter(points, won)
            if check and list(recorded) != entries:
                closed = ledger.close(entries) if i == len(hands) - 1 else None
                if closed is None or list(recorded) != closed:
                    return ledger, i
        return ledger, None


def shutout_bonus(totals: Sequence[int], best: int, bonuses: Sequence[tuple[str, int]],
                  multiplier: int) -> list[tuple[str, int]]:
    """``[("shutout", points)]`` making the winner ``best``'s total, its ``bonuses``
    included, ``multiplier`` times as much where every other side's total is 0 (a shutout:
    ``game.shutout_multiplier``); ``[]`` otherwise.

    >>> shutout_bonus((120, 0), 0, [("game", 100)], 2), shutout_bonus((120, 5), 0, [], 2)
    ([('shutout', 220)], [])
    """
    if multiplier <= 1 or any(v for t, v in enumerate(totals) if t != best):
        return []
    won = totals[best] + sum(v for _, v in bonuses)
    return [("shutout", won * (multiplier - 1))] if won > 0 else []


def sheet_rules(spec, target: int) -> tuple[SheetRule, ...]:
    """The pack's sheets (``spec.scoring.sheets``) for a table whose ``game.target`` is
    ``target``: a sheet's target, game and box bonuses and shutout multiplier default to
    the game's."""
    g = spec.game
    return tuple(SheetRule(sh.name, target if sh.target is None else sh.target, sh.from_win,
                           g.game_bonus if sh.game_bonus is None else sh.game_bonus,
                           g.box_bonus if sh.box_bonus is None else sh.box_bonus,
                           g.shutout_multiplier if sh.shutout_multiplier is None
                           else sh.shutout_multiplier)
                 for sh in spec.scoring.sheets)


def sheet_summary(rules: Sequence[SheetRule], results, n_teams: int) -> list[dict]:
    """Each sheet as the view shows it — ``name``, ``target``, each side's total on it
    (``scores``, bonuses included) and whether it has ``ended`` — from the hands' records.

    >>> from meldkit.records import HandResult
    >>> hand = HandResult(1, "knock", 0, (), (20, -20), None, sheets=(
    ...     SheetEntry("first", (20, 0), ((("game", 100),), ()), True),))
    >>> sheet_summary((SheetRule("first", 10),), [hand], 2)
    [{'name': 'first', 'target': 10, 'scores': [120, 0], 'ended': True}]
    """
    out = []
    for s, rule in enumerate(rules):
        entries = [r.sheets[s] for r in results if len(r.sheets) > s]
        scores = [sum(e.totals[t] for e in entries) for t in range(n_teams)]
        out.append({"name": rule.name, "target": rule.target, "scores": scores,
                    "ended": any(e.ended for e in entries)})
    return out
