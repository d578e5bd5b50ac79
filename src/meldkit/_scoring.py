"""Scoring: a pure, table-driven pass over the final zones of a hand.

:func:`score_hand` never touches a :class:`~meldkit.GameState`; it reads a
:class:`HandFinal` (the zones as they stood when the hand ended), so a hand's score can be
recomputed by anyone from the record.
"""

from __future__ import annotations

import weakref
from typing import Any

import attr
import attrs

from ._rules import Rules
from .kernel.scoring import (NAMED, Item, ScoreLine, compile_items, listed_items,
                             rank_slot_preset, score)


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
    sides: tuple[int, ...] = ()
    """``players.sides_form``: per seat, the side it scored with — the index in ``melds``
    of the melds it played (the lone player's own, the others' joined under the lowest
    seat among them); empty: the sides were the seating (``team_of``)."""
    void: bool = False
    """The hand ended void (``game.hand_turn_limit``): nobody scores for it."""

    @property
    def at_once(self) -> bool:
        """The side went out laying the whole hand in one turn (``concealed``): what a
        ``multiply`` or ``bonus`` item's ``when: out_at_once`` reads."""
        return self.concealed

    def to_dict(self) -> dict:
        """JSON-able form (lists, not tuples)."""
        # attrs.asdict always keeps tuples; attr.asdict can turn them into lists
        d = attr.asdict(self, retain_collection_types=False)
        if not self.sides:
            del d["sides"]  # (written only where sides formed)
        if not self.void:
            del d["void"]  # (written only for a void hand)
        return d

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
            sides=tuple(d.get("sides", ())),
            void=d.get("void", False),
        )


_UNSET: Any = object()


@attrs.frozen(init=False, repr=False)
class TeamScore(ScoreLine):
    """One team's score for one hand in the canasta kernel: a :class:`ScoreLine` kept in
    one canonical form — the named items (books, melded cards … going out, those not zero)
    in that order, then the other items (a plugin's ``adjustments``) as given — so a line
    may be written by its named fields and equals the line the scoring pass makes.

    >>> from meldkit import TeamScore
    >>> score = TeamScore(team=0, books=300, melded_cards=360, hand_cards=-5)
    >>> score.total, score.items
    (655, (('books', 300), ('melded_cards', 360), ('hand_cards', -5)))
    """

    def __init__(self, team: int, books: int = _UNSET, book_kinds: tuple[str, ...] = (),
                 melded_cards: int = _UNSET, bonus_cards: int = _UNSET,
                 dead_cards: int = _UNSET, hand_cards: int = _UNSET,
                 reserve_cards: int = _UNSET, going_out: int = _UNSET,
                 adjustments: tuple[tuple[str, int], ...] = _UNSET,
                 items: tuple[tuple[str, int], ...] = ()):
        given = {"books": books, "melded_cards": melded_cards, "bonus_cards": bonus_cards,
                 "dead_cards": dead_cards, "hand_cards": hand_cards,
                 "reserve_cards": reserve_cards, "going_out": going_out}
        named = dict.fromkeys(NAMED, 0)
        others = []
        for label, points in items:
            if label in named:
                named[label] += points
            else:
                others.append((label, points))
        for label, points in given.items():
            if points is not _UNSET:  # a named field given (or changed by attrs.evolve)
                named[label] = points
        if adjustments is not _UNSET:
            others = list(adjustments)
        self.__attrs_init__(team, tuple((n, p) for n, p in named.items() if p) + tuple(
            (label, points) for label, points in others), tuple(book_kinds))

    def __repr__(self) -> str:
        return (f"TeamScore(team={self.team!r}, books={self.books!r}, "
                f"book_kinds={self.book_kinds!r}, melded_cards={self.melded_cards!r}, "
                f"bonus_cards={self.bonus_cards!r}, dead_cards={self.dead_cards!r}, "
                f"hand_cards={self.hand_cards!r}, reserve_cards={self.reserve_cards!r}, "
                f"going_out={self.going_out!r}, adjustments={self.adjustments!r})")

    def to_dict(self) -> dict:
        """The line's JSON-able data, by named field (as records and saves hold it)."""
        d: dict = {"team": self.team, "books": self.books, "book_kinds": list(self.book_kinds)}
        d.update((n, self.points(n)) for n in NAMED[1:])
        d["adjustments"] = [list(a) for a in self.adjustments]
        return d


_ITEMS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def canasta_items(rules: Rules) -> tuple[Item, ...]:
    """The pack's scoring items: the ``canasta`` preset built from its ``scoring`` keys
    (compiled once per :class:`Rules`)."""
    items = _ITEMS.get(rules)
    if items is None:
        sc = rules.spec.scoring
        items = _ITEMS[rules] = compile_items(
            listed_items(sc) if sc.items else rank_slot_preset(rules.spec), rules)
    return items


_SHEET_ITEMS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def sheet_items(rules: Rules) -> tuple[tuple[Item, ...] | None, ...]:
    """Each score sheet's own items (``scoring.sheets[].items``; None: the sheet counts
    the hand's), compiled once per :class:`Rules`."""
    items = _SHEET_ITEMS.get(rules)
    if items is None:
        sc = rules.spec.scoring
        items = _SHEET_ITEMS[rules] = tuple(
            None if sh.items is None else compile_items(listed_items(sc, sh.items), rules)
            for sh in sc.sheets)
    return items


def score_hand(rules: Rules, final: HandFinal) -> list[TeamScore]:
    """Score every team for a hand that ended as ``final`` describes (the scoring pass,
    :func:`meldkit.kernel.scoring.score`, without the plugin's adjustments)."""
    if not isinstance(rules, Rules) or not isinstance(final, HandFinal):
        raise TypeError(f"score_hand takes the pack's Rules (meldkit.Rules.of(pack)) and a "
                        f"HandFinal, not {type(rules).__name__} and {type(final).__name__}")
    if final.void:
        return void_lines(final)
    if final.sides:
        by_side, side = side_final(final)
        return by_seating(final, side, score(by_side, canasta_items(rules),
                                             line=TeamScore).lines)
    return list(score(final, canasta_items(rules), line=TeamScore).lines)


def void_lines(final: HandFinal) -> list[TeamScore]:
    """A void hand's lines (``game.hand_turn_limit``): every team scores nothing."""
    return [TeamScore(t) for t in range(max(final.team_of) + 1)]


def side_final(final: HandFinal) -> tuple[HandFinal, tuple[int, ...]]:
    """A hand whose sides formed during play (``final.sides``) as the scoring pass reads
    it: ``(the record with the sides as its teams, numbered 0…, each side's melds, the
    side of each seat)``.

    >>> f = HandFinal(team_of=(0, 1, 2), hands=((), (), ()), reserves=((), (), ()),
    ...               reserve_taken=(True,) * 3, bonus=((), (), ()),
    ...               melds=(((8, (1, 2, 3)),), ((5, (4, 5, 6)),), ()),
    ...               melded=(True, True, False), went_out=1, concealed=False,
    ...               sides=(0, 1, 0))
    >>> by_side, side = side_final(f)
    >>> by_side.team_of, by_side.melds[1], side
    ((0, 1, 0), ((5, (4, 5, 6)),), (0, 1, 0))
    """
    order = sorted(set(final.sides))
    index = {t: i for i, t in enumerate(order)}
    side = tuple(index[t] for t in final.sides)
    return attrs.evolve(final, team_of=side, melds=tuple(final.melds[t] for t in order),
                        melded=tuple(final.melded[t] for t in order), sides=()), side


def by_seating(final: HandFinal, side: tuple[int, ...], lines) -> list:
    """Each team of the seating (``final.team_of``) scores the line of the side its seat
    played with (``side``, from :func:`side_final`): the lone player their own, each of the
    others the side's whole total."""
    of_side = {s.team: s for s in lines}
    seats = {t: p for p, t in reversed(list(enumerate(final.team_of)))}
    return [attrs.evolve(of_side[side[seats[t]]], team=t) for t in sorted(seats)]


def final_kind_of(rules: Rules, final: HandFinal) -> list[int]:
    """Kind of each card id for the table ``final`` belongs to."""
    return rules.deck_kinds(len(final.team_of))

