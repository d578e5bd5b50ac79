"""Scoring a table-meld hand: pure functions over the hand's final record.

:func:`score_table_hand` reads a :class:`TableFinal` (what the hands held when the hand
ended, who went out or knocked) and the pack's settings; it never touches a game state, so
anyone can rescore a hand from its record.

>>> from meldkit.kernel.scoring import TableFinal, KnockTerms, score_table_hand
>>> final = TableFinal(team_of=(0, 1), deadwood=(4, 19), ended_by="knock", went_out=0)
>>> terms = KnockTerms(gin_bonus=25, big_gin_bonus=None, undercut_bonus=25,
...                    tie_is_undercut=True)
>>> scores, net, how = score_table_hand("knock", final, terms)
>>> scores[0].total, net, how
(15, (15, -15), 'knock')
"""

from __future__ import annotations

import attrs

VOID_ENDINGS = frozenset({"wall", "limit", "stock_empty", "turn_limit"})
"""Ways a hand ends with no score."""


@attrs.frozen
class TableScore:
    """One side's score for one hand, item by item (``items`` are ``(label, points)``)."""

    team: int
    items: tuple[tuple[str, int], ...] = ()

    @property
    def total(self) -> int:
        """The side's points for the hand."""
        return sum(p for _, p in self.items)

    def to_dict(self) -> dict:
        return {"team": self.team, "items": [list(i) for i in self.items]}


@attrs.frozen
class KnockTerms:
    """The knock settings a gin hand's score depends on."""

    gin_bonus: int
    big_gin_bonus: int | None
    undercut_bonus: int
    tie_is_undercut: bool


@attrs.frozen
class TableFinal:
    """What a finished table-meld hand's score depends on.

    ``deadwood[p]`` is the value of the cards player ``p`` still held when the hand ended
    (after the knocker's melds and the defender's lay-offs); ``went_out`` is the seat that
    went out or knocked (None for a void hand); ``big_gin`` marks a knock with no discard;
    ``multiplier`` doubles a hand (Oklahoma's spade upcard); ``game_end`` holds each team's
    game-end items (box and game bonuses) when this was the game's last hand.
    ``hand_number`` and ``ext`` (a plugin's ``state.ext`` as the hand ended) are what a
    plugin's ``adjust_scores`` reads, as in the canasta kernel's ``HandFinal``.
    """

    team_of: tuple[int, ...]
    deadwood: tuple[int, ...]
    ended_by: str
    went_out: int | None
    big_gin: bool = False
    multiplier: int = 1
    game_end: tuple[tuple[tuple[str, int], ...], ...] = ()
    hand_number: int = 0
    """Which hand of the game this was (1 = the first); saved in the hand's record."""
    ext: dict = attrs.field(factory=dict, hash=False)
    """Plugin data (``state.ext``) as it stood at the end of the hand (saved only when
    there is some), so a plugin's ``adjust_scores`` rescores the hand from the record."""

    def to_dict(self) -> dict:
        d = {"team_of": list(self.team_of), "deadwood": list(self.deadwood),
             "ended_by": self.ended_by, "went_out": self.went_out, "big_gin": self.big_gin,
             "multiplier": self.multiplier,
             "game_end": [[list(i) for i in t] for t in self.game_end]}
        if self.ext:
            d["ext"] = self.ext
        return d

    @classmethod
    def from_dict(cls, d: dict) -> TableFinal:
        return cls(team_of=tuple(d["team_of"]), deadwood=tuple(d["deadwood"]),
                   ended_by=d["ended_by"], went_out=d["went_out"], big_gin=d["big_gin"],
                   multiplier=d["multiplier"],
                   game_end=tuple(tuple((str(a), int(b)) for a, b in t) for t in d["game_end"]),
                   hand_number=d.get("hand_number", 0), ext=d.get("ext", {}))


def knock_outcome(knocker_deadwood: int, defender_deadwood: int, terms: KnockTerms,
                  big_gin: bool = False) -> tuple[str, int]:
    """``(ending, points)`` of a knock: points > 0 go to the knocker, < 0 to the defender.

    >>> t = KnockTerms(25, 31, 25, True)
    >>> knock_outcome(0, 12, t), knock_outcome(5, 5, t), knock_outcome(7, 3, t)
    (('gin', 37), ('undercut', -25), ('undercut', -29))
    """
    if knocker_deadwood == 0:
        if big_gin and terms.big_gin_bonus is not None:
            return "big_gin", defender_deadwood + terms.big_gin_bonus
        return "gin", defender_deadwood + terms.gin_bonus
    diff = defender_deadwood - knocker_deadwood
    if diff > 0:
        return "knock", diff
    if diff < 0 or terms.tie_is_undercut:
        return "undercut", diff - terms.undercut_bonus
    return "knock", 0


def score_table_hand(style: str, final: TableFinal, terms: KnockTerms | None = None
                     ) -> tuple[tuple[TableScore, ...], tuple[int, ...], str]:
    """``(team scores, net points per player, ending)`` of a finished hand.

    ``net`` is zero-sum between the players (what the hand is worth to each, before game
    and box bonuses): in ``knock`` the winner's points against the loser, in
    ``winner_takes_hands`` the winner collects what each other player held, in ``penalty``
    each player loses what they held.
    """
    n_teams = max(final.team_of) + 1
    n = len(final.team_of)
    items: list[list[tuple[str, int]]] = [[] for _ in range(n_teams)]
    net = [0] * n
    ending = final.ended_by
    if ending in VOID_ENDINGS or final.went_out is None:
        pass
    elif style == "knock":
        assert terms is not None
        k = final.went_out
        d = next(p for p in range(n) if p != k)
        ending, points = knock_outcome(final.deadwood[k], final.deadwood[d], terms, final.big_gin)
        points *= final.multiplier
        winner, pts = (k, points) if points > 0 else (d, -points)
        loser = d if winner == k else k
        if pts:
            dw = abs(final.deadwood[d] - final.deadwood[k]) * final.multiplier
            bonus = {"gin": terms.gin_bonus, "big_gin": terms.big_gin_bonus or 0,
                     "undercut": terms.undercut_bonus}.get(ending, 0) * final.multiplier
            if dw:
                items[final.team_of[winner]].append(("deadwood", dw))
            if bonus:
                items[final.team_of[winner]].append((ending, bonus))
            net[winner], net[loser] = pts, -pts
    elif style == "winner_takes_hands":
        w = final.went_out
        taken = sum(final.deadwood[p] for p in range(n) if final.team_of[p] != final.team_of[w])
        items[final.team_of[w]].append(("cards_in_other_hands", taken))
        for p in range(n):
            if final.team_of[p] != final.team_of[w]:
                net[p] = -final.deadwood[p]
        net[w] = taken
    elif style == "penalty":
        for p in range(n):
            if final.deadwood[p]:
                items[final.team_of[p]].append(("cards_in_hand", final.deadwood[p]))
            net[p] = -final.deadwood[p]
    else:  # pragma: no cover - the loader refuses other styles in table packs
        raise ValueError(f"unknown scoring style {style!r}")
    for t, extra in enumerate(final.game_end):
        items[t].extend(extra)
    return tuple(TableScore(t, tuple(items[t])) for t in range(n_teams)), tuple(net), ending
