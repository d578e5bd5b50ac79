"""Scoring: a pure, table-driven pass over the final zones of a hand.

:func:`score_hand` never touches a :class:`~meldkit.GameState`; it reads a
:class:`HandFinal` (the zones as they stood when the hand ended), so a hand's score can be
recomputed by anyone from the record.
"""

from __future__ import annotations

import attr
import attrs

from ._cards import rank_of_kind
from ._rules import Rules


@attrs.frozen
class HandFinal:
    """The zones and facts a hand's score depends on, as they stood at its end.

    ``melds[t]`` lists ``(slot, card_ids)`` for every meld of team ``t`` (slot is the rank,
    or ``WILD`` = 14 for a wild meld).  Each finished hand's record keeps one
    (``HandResult.final``), and :func:`score_hand` scores it again from that alone.

    >>> import meldkit
    >>> from meldkit.bots import GreedyBot
    >>> game, bot = meldkit.new_game("pony_canasta", players=2, seed=29), GreedyBot(seed=0)
    >>> while not game.hand_results:
    ...     game.apply(bot.choose(game))
    >>> final = game.last_hand.final
    >>> final.team_of, final.hand_number, final.went_out in (None, 0, 1)
    ((0, 1), 1, True)
    >>> meldkit.score_hand(meldkit.Rules.of(game.pack), final) == list(game.last_hand.scores)
    True
    >>> type(final).from_dict(final.to_dict()) == final
    True
    """

    team_of: tuple[int, ...]
    hands: tuple[tuple[int, ...], ...]
    reserves: tuple[tuple[int, ...], ...]
    reserve_taken: tuple[bool, ...]
    bonus: tuple[tuple[int, ...], ...]
    melds: tuple[tuple[tuple[int, tuple[int, ...]], ...], ...]
    melded: tuple[bool, ...]
    went_out: int | None
    concealed: bool
    hand_number: int = 0
    """Which hand of the game this was (1 = the first)."""
    ext: dict = attrs.field(factory=dict, hash=False)
    """Plugin data (``state.ext``) as it stood at the end of the hand, so a plugin's
    ``adjust_scores`` can rescore the hand later from the record alone."""

    def to_dict(self) -> dict:
        """JSON-able form (lists, not tuples)."""
        # attrs.asdict always keeps tuples; attr.asdict can turn them into lists
        return attr.asdict(self, retain_collection_types=False)

    @classmethod
    def from_dict(cls, d: dict) -> HandFinal:
        """Inverse of :meth:`to_dict`."""
        return cls(
            team_of=tuple(d["team_of"]),
            hands=tuple(tuple(h) for h in d["hands"]),
            reserves=tuple(tuple(h) for h in d["reserves"]),
            reserve_taken=tuple(d["reserve_taken"]),
            bonus=tuple(tuple(h) for h in d["bonus"]),
            melds=tuple(tuple((s, tuple(ids)) for s, ids in t) for t in d["melds"]),
            melded=tuple(d["melded"]),
            went_out=d["went_out"],
            concealed=d["concealed"],
            hand_number=d.get("hand_number", 0),
            ext=d.get("ext", {}),
        )


@attrs.frozen
class TeamScore:
    """One team's score for one hand, item by item; :attr:`total` adds them up.

    >>> from meldkit import TeamScore
    >>> score = TeamScore(team=0, books=300, melded_cards=360, hand_cards=-5)
    >>> score.total
    655
    """

    team: int
    """The team."""
    books: int = 0
    """Points for completed books."""
    book_kinds: tuple[str, ...] = ()
    """The kind of each completed book (``red``, ``sevens`` …)."""
    melded_cards: int = 0
    """The values of the cards in the team's melds."""
    bonus_cards: int = 0
    """Points for the bonus cards the team laid out."""
    dead_cards: int = 0
    """Points for dead cards (black 3s in Pony Tail)."""
    hand_cards: int = 0
    """The cards left in the team's hands, counted against it."""
    reserve_cards: int = 0
    """Reserves not picked up, counted against the team."""
    going_out: int = 0
    """The bonus for going out."""
    adjustments: tuple[tuple[str, int], ...] = ()
    """Points added by plugins' scoring rules, as ``(label, points)`` pairs."""

    @property
    def total(self) -> int:
        """The hand score: the sum of every item."""
        return (
            self.books
            + self.melded_cards
            + self.bonus_cards
            + self.dead_cards
            + self.hand_cards
            + self.reserve_cards
            + self.going_out
            + sum(points for _, points in self.adjustments)
        )


def bonus_points(rules: Rules, n: int) -> int:
    """Points for ``n`` bonus cards counted together — one player's, or a side's with
    ``scoring.bonus.sets_by: side``: ``by_count`` if it lists ``n``, else full sets and
    the rest at ``value`` each."""
    b = rules.spec.scoring.bonus
    if n in b.by_count:
        return b.by_count[n]
    if b.set_size:
        sets, rest = divmod(n, b.set_size)
        return sets * b.set_value + rest * b.value
    return n * b.value


def score_hand(rules: Rules, final: HandFinal) -> list[TeamScore]:
    """Score every team for a hand that ended as ``final`` describes."""
    sc = rules.spec.scoring
    value = rules.value_of_kind
    reserve_value = rules.reserve_value_of_kind
    kind_of = final_kind_of(rules, final)
    n_teams = max(final.team_of) + 1
    out_team = final.team_of[final.went_out] if final.went_out is not None else None
    scores = []
    for t in range(n_teams):
        seats = [p for p, tt in enumerate(final.team_of) if tt == t]
        books = melded = 0
        kinds: list[str] = []
        for slot, ids in final.melds[t]:
            if len(ids) >= rules.book_size:
                n_wild = sum(1 for c in ids if rules.is_wild_rank[rank_of_kind(kind_of[c])])
                kind = rules.book_kind(slot, n_wild)
                if kind is not None:
                    books += kind.value
                    kinds.append(kind.name)
            if sc.melded_cards:
                melded += sum(value[kind_of[c]] for c in ids)
        if sc.bonus.sets_by == "side":  # the side's bonus cards together make the sets
            bonus = bonus_points(rules, sum(len(final.bonus[p]) for p in seats))
        else:
            bonus = sum(bonus_points(rules, len(final.bonus[p])) for p in seats)
        if sc.bonus.negative_if_not_melded and not final.melded[t]:
            bonus = -bonus
        dead = hand = reserve = 0
        hand_counts = sc.hand_penalty == "all" or t != out_team
        reserve_counts = sc.reserve_penalty == "all" or t != out_team
        for p in seats:
            for c in final.hands[p]:
                k = kind_of[c]
                if sc.dead_in_hand and rules.is_dead_kind[k]:
                    dead += sc.dead_in_hand
                elif hand_counts:
                    hand -= value[k]
            if reserve_counts and not final.reserve_taken[p]:
                reserve -= sum(reserve_value[kind_of[c]] for c in final.reserves[p])
        going_out = 0
        if t == out_team:
            going_out = sc.going_out + (sc.concealed_going_out if final.concealed else 0)
        scores.append(
            TeamScore(
                team=t,
                books=books,
                book_kinds=tuple(kinds),
                melded_cards=melded,
                bonus_cards=bonus,
                dead_cards=dead,
                hand_cards=hand,
                reserve_cards=reserve,
                going_out=going_out,
            )
        )
    return scores


def final_kind_of(rules: Rules, final: HandFinal) -> list[int]:
    """Kind of each card id for the table ``final`` belongs to."""
    return rules.deck_kinds(len(final.team_of))

