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

import functools
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

import attrs

from .._cards import rank_of_kind

VOID_ENDINGS = frozenset({"wall", "limit", "stock_empty", "turn_limit"})
"""Ways a hand ends with no score."""


@attrs.frozen
class ScoreLine:
    """One side's score for one hand, item by item: ``items`` are ``(label, points)`` pairs
    in the order the pack's scoring items wrote them, and ``book_kinds`` the kind of each
    book the side completed.  Every named property sums the items of its label, so a line
    reads the same whichever items made it.

    >>> line = ScoreLine(0, (("books", 300), ("melded_cards", 250), ("tip", 5)), ("mixed",))
    >>> line.total, line.books, line.hand_cards, line.adjustments
    (555, 300, 0, (('tip', 5),))
    """

    team: int
    items: tuple[tuple[str, int], ...] = ()
    book_kinds: tuple[str, ...] = ()

    @property
    def total(self) -> int:
        """The side's points for the hand."""
        return sum(p for _, p in self.items)

    def points(self, label: str) -> int:
        """The sum of the items labelled ``label``."""
        return sum(p for lab, p in self.items if lab == label)

    books = property(lambda self: self.points("books"), doc="Points for completed books.")
    melded_cards = property(lambda self: self.points("melded_cards"),
                            doc="The values of the cards in the side's melds.")
    bonus_cards = property(lambda self: self.points("bonus_cards"),
                           doc="Points for the bonus cards the side laid out.")
    dead_cards = property(lambda self: self.points("dead_cards"),
                          doc="Points for dead cards (black 3s in Pony Tail).")
    hand_cards = property(lambda self: self.points("hand_cards"),
                          doc="The cards left in the side's hands, counted against it.")
    reserve_cards = property(lambda self: self.points("reserve_cards"),
                             doc="Reserves not picked up, counted against the side.")
    going_out = property(lambda self: self.points("going_out"),
                         doc="The bonus for going out (concealed or not).")

    @property
    def adjustments(self) -> tuple[tuple[str, int], ...]:
        """The items no named property reads: a plugin's, the knock's, game-end bonuses."""
        return tuple(i for i in self.items if i[0] not in NAMED)

    def to_dict(self) -> dict:
        d: dict = {"team": self.team, "items": [list(i) for i in self.items]}
        if self.book_kinds:
            d["book_kinds"] = list(self.book_kinds)
        return d


NAMED = ("books", "melded_cards", "bonus_cards", "dead_cards", "hand_cards", "reserve_cards",
         "going_out")
"""The labels a :class:`ScoreLine` names as properties, in the canasta line's order."""

TableScore = ScoreLine
"""The table kernel's score line (the one :class:`ScoreLine`)."""


@attrs.frozen
class KnockTerms:
    """The knock settings a gin hand's score depends on.  ``settle`` is how a knock settles
    with more than one defender (``knock.settle``): ``knocker``, the knocker against each
    defender as in two-player gin; ``lowest``, the lowest deadwood collects from everyone
    (Knock Rummy).  With one defender the two are the same."""

    gin_bonus: int
    big_gin_bonus: int | None
    undercut_bonus: int
    tie_is_undercut: bool
    settle: str = "knocker"


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
    laid: tuple[tuple[int, int], ...] = ()
    """Per player, ``(points, low aces)``: the value of the cards they laid this hand —
    melds and lay-offs, at the cards' own values — and how many of them were aces at the
    low end of a run (what the ``laid`` item reads; empty unless the pack scores it)."""
    ext: dict = attrs.field(factory=dict, hash=False)
    """Plugin data (``state.ext``) as it stood at the end of the hand (saved only when
    there is some), so a plugin's ``adjust_scores`` rescores the hand from the record."""
    at_once: bool = False
    """The player who went out laid their whole hand in that one turn, none of their own
    cards on the table before it, whatever the others had laid (what the ``multiply``
    item's ``when: out_at_once`` reads; recorded only where the pack scores it)."""
    reserve_taken: tuple[bool, ...] = ()
    """Per reserve pile (a seat's, or a side's with ``deal.reserve_per: side``), whether it
    was picked up (empty: the pack deals none)."""
    books: tuple[tuple[str, ...], ...] = ()
    """Per player, the kind of each book (a meld of ``books.size`` cards or more) they own
    on the table at the end (what the ``books`` item scores; empty unless the pack counts
    books)."""
    unmelded: tuple[int, ...] = ()
    """Per player, the value of the cards left in hand that they cannot arrange into melds
    (their least deadwood; a drop's penalty for a player who dropped), where an item counts
    them (``count: unmelded``; else empty)."""
    contracts_met: tuple[bool, ...] = ()
    """Per player, whether they met their contract this hand (``initial_meld.contracts``:
    each player's own, one a hand at most; else empty)."""
    unmelded_with_contract: tuple[int, ...] = ()
    """Per player, the value ``count: unmelded_with_contract`` counts (else empty).

    As ``unmelded``, but over the arrangements whose melds hold the contract
    (``initial_meld.melds``); every card where none does."""
    rejoin: tuple[int, ...] = ()
    """Per player, what rejoining after this hand moved their total (``game.rejoin``: to
    the highest total of those still in, plus ``add``; 0 for a player who did not rejoin;
    empty when nobody did).  The ``rejoin`` item scores it as a line of its own."""

    def to_dict(self) -> dict:
        d = {"team_of": list(self.team_of), "deadwood": list(self.deadwood),
             "ended_by": self.ended_by, "went_out": self.went_out, "big_gin": self.big_gin,
             "multiplier": self.multiplier,
             "game_end": [[list(i) for i in t] for t in self.game_end]}
        if self.laid:
            d["laid"] = [list(x) for x in self.laid]
        if self.at_once:
            d["at_once"] = True
        if self.books:
            d["books"] = [list(b) for b in self.books]
        if self.reserve_taken:
            d["reserve_taken"] = list(self.reserve_taken)
        if self.contracts_met:
            d["contracts_met"] = list(self.contracts_met)
        if self.rejoin:
            d["rejoin"] = list(self.rejoin)
        for key in COUNTED:
            if getattr(self, key):
                d[key] = list(getattr(self, key))
        if self.ext:
            d["ext"] = self.ext
        return d

    @classmethod
    def from_dict(cls, d: dict) -> TableFinal:
        return cls(team_of=tuple(d["team_of"]), deadwood=tuple(d["deadwood"]),
                   ended_by=d["ended_by"], went_out=d["went_out"], big_gin=d["big_gin"],
                   multiplier=d["multiplier"],
                   game_end=tuple(tuple((str(a), int(b)) for a, b in t) for t in d["game_end"]),
                   hand_number=d.get("hand_number", 0),
                   laid=tuple((int(a), int(b)) for a, b in d.get("laid", ())),
                   ext=d.get("ext", {}), at_once=d.get("at_once", False),
                   books=tuple(tuple(b) for b in d.get("books", ())),
                   reserve_taken=tuple(d.get("reserve_taken", ())),
                   contracts_met=tuple(d.get("contracts_met", ())),
                   rejoin=tuple(d.get("rejoin", ())),
                   **{key: tuple(d.get(key, ())) for key in COUNTED})


COUNTED = ("unmelded", "unmelded_with_contract")
"""The words of a ``count`` other than ``all``, each the :class:`TableFinal` field that
holds what it counts per player."""


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


# --------------------------------------------------------------------------- the items
# One scoring pass: ``score(final, items)`` runs the item functions a pack compiled, in
# order, over one tally.  An item is named, holds the parameters the pack gave it and a pure
# function ``fn(final, tally)`` that adds ``(label, points)`` to sides (``tally.add``) and,
# in a zero-sum game, moves points between players (``tally.pay``).  ``ITEMS`` is the
# registry: item name -> builder; a preset is a named list of ``(item name, parameters)``.


class Tally:
    """What the items of one hand have written so far: each side's items and book kinds,
    the points per player (zero-sum presets) and the ending (a knock may rename it)."""

    __slots__ = ("book_kinds", "ending", "final", "items", "lines", "memo", "net", "payments")

    def __init__(self, final: Any, n_teams: int):
        self.final = final
        self.payments: list[tuple[int, int, int]] = []  # (payer, payee, points): ``pay``
        self.items: list[list[tuple[str, int]]] = [[] for _ in range(n_teams)]
        self.book_kinds: list[list[str]] = [[] for _ in range(n_teams)]
        self.net = [0] * len(final.team_of)
        self.ending: str = getattr(final, "ended_by", "")
        self.lines: list | None = None  # the lines a plugin returned, once it has run
        self.memo: dict[str, Any] = {}  # what several items derive from the final alike

    def add(self, team: int, label: str, points: int) -> None:
        """Credit ``points`` to side ``team`` under ``label``."""
        if self.lines is None:
            self.items[team].append((label, points))
        else:  # after a plugin: its lines, as it returned them, gain the item
            self.lines = [attrs.evolve(s, items=s.items + ((label, points),))
                          if s.team == team else s for s in self.lines]

    def pay(self, player: int, points: int) -> None:
        """Move ``points`` to ``player`` in the zero-sum ``net`` (negative: a loss)."""
        self.net[player] += points


@attrs.frozen
class Item:
    """One compiled scoring item: its registry name, the parameters the pack gave it and
    the pure function that scores it."""

    name: str
    params: tuple[tuple[str, Any], ...]
    fn: Callable[[Any, Tally], None] = attrs.field(eq=False, repr=False)


@attrs.frozen
class ItemType:
    """A registry entry: ``build(ctx, **params)`` returns the item's function.  ``ctx`` is
    the compiled rules the item reads tables from (card values, book kinds), or None.
    ``choices`` names the parameters that take a word, with the words allowed (the others
    take integers, -1000..1000 unless ``ranges`` bounds them); ``required``, the parameters
    a pack must give."""

    name: str
    params: tuple[str, ...]
    build: Callable[..., Callable[[Any, Tally], None]]
    doc: str
    choices: dict[str, tuple[str, ...]] = attrs.field(factory=dict)
    required: tuple[str, ...] = ()
    ranges: dict[str, tuple[int, int]] = attrs.field(factory=dict)
    fixed: tuple[str, ...] = ()
    """Parameters that only the pack's own keys set (a rank-slot item's tables)."""


ITEMS: dict[str, ItemType] = {}
"""Every scoring item, by name."""


def item(name: str, *params: str, choices: dict[str, tuple[str, ...]] | None = None,
         required: tuple[str, ...] = (), ranges: dict[str, tuple[int, int]] | None = None,
         fixed: tuple[str, ...] = ()):
    """Register ``build`` as the builder of item ``name`` with parameters ``params``."""
    def register(build):
        ITEMS[name] = ItemType(name, params, build, (build.__doc__ or "").strip(),
                               dict(choices or {}), required, dict(ranges or {}), fixed)
        return build
    return register


def compile_items(spec: Sequence[tuple[str, dict[str, Any]]], ctx: Any = None
                  ) -> tuple[Item, ...]:
    """Items from ``(name, parameters)`` pairs (a preset, or later pack data)."""
    out = []
    for name, params in spec:
        kind = ITEMS[name]
        unknown = set(params) - set(kind.params)
        if unknown:
            raise ValueError(f"scoring item {name!r} takes {', '.join(kind.params) or 'no'} "
                             f"parameters, not {', '.join(sorted(unknown))}")
        out.append(Item(name, tuple(sorted(params.items())), kind.build(ctx, **params)))
    return tuple(out)


class Scored(NamedTuple):
    """A scored hand: each side's line, the points per player and the ending."""

    lines: tuple
    net: tuple[int, ...]
    ending: str


def score(final: Any, items: Sequence[Item], *, line: type = ScoreLine, zero_sum: bool = False,
          adjust: Callable[[Any, list], list] | None = None,
          payments: list | None = None) -> Scored:
    """Score a finished hand: run ``items`` in order over ``final`` (a
    :class:`~meldkit.HandFinal` or :class:`TableFinal`).  Lines are of type ``line``;
    ``net`` is what the items paid each player when ``zero_sum``, else each side's total;
    ``adjust(final, lines)`` is the plugin's hook, run where the ``plugin`` item stands;
    ``payments``, when given, gains each ``(payer, payee, points)`` the ``pay`` items made.

    >>> final = TableFinal(team_of=(0, 1, 2), deadwood=(0, 12, 30), ended_by="went_out",
    ...                    went_out=0)
    >>> lines, net, ending = score(final, preset_items("winner_takes_hands"), zero_sum=True)
    >>> lines[0].items, net, ending
    ((('cards_in_other_hands', 42),), (42, -12, -30), 'went_out')
    """
    tally = Tally(final, max(final.team_of) + 1)
    for it in items:
        if it.name == "plugin":
            if adjust is not None:
                tally.lines = list(adjust(final, _lines(tally, line)))
            continue
        it.fn(final, tally)
    lines = tuple(tally.lines if tally.lines is not None else _lines(tally, line))
    net = tuple(tally.net) if zero_sum else tuple(s.total for s in lines)
    if payments is not None:
        payments.extend(tally.payments)
    return Scored(lines, net, tally.ending)


def _lines(tally: Tally, line: type) -> list:
    return [line(t, items=tuple(items), book_kinds=tuple(kinds))
            for t, (items, kinds) in enumerate(zip(tally.items, tally.book_kinds))]


# --- the table kernel's items: what the hands held (``final.deadwood``), zero-sum

def _scored(final: Any) -> bool:
    """Whether a table hand scores at all (nobody out, or a wall or limit: void)."""
    return final.went_out is not None and final.ended_by not in VOID_ENDINGS


SETTLES = ("knocker", "lowest")
"""How a knock settles with several defenders (``knock.settle``)."""


def _knock_winner(deadwood: tuple[int, ...], k: int, defenders: list[int],
                  terms: KnockTerms) -> int:
    """Who wins a knock settled by the lowest deadwood (``settle: lowest``): the knocker
    with gin (never undercut, as in gin); else the lowest count, the knocker winning a tie
    with a defender unless ``tie_is_undercut``; of defenders tied, the first in turn after
    the knocker.

    >>> t = KnockTerms(25, None, 10, True, "lowest")
    >>> _knock_winner((4, 9, 4), 0, [1, 2], t), _knock_winner((0, 0, 3), 0, [1, 2], t)
    (2, 0)
    >>> _knock_winner((4, 9, 4), 0, [1, 2], attrs.evolve(t, tie_is_undercut=False))
    0
    """
    if deadwood[k] == 0:
        return k
    low = min(deadwood[p] for p in defenders)
    if deadwood[k] < low or (deadwood[k] == low and not terms.tie_is_undercut):
        return k
    return next(p for p in defenders if deadwood[p] == low)


def knock_settlement(deadwood: tuple[int, ...], k: int, terms: KnockTerms,
                     big_gin: bool = False) -> tuple[str, list[tuple[int, int, str, int, int]]]:
    """``(ending, payments)`` of a knock by seat ``k`` with ``deadwood`` per seat (every
    other seat a defender, in turn from the knocker's left): each payment is ``(payer,
    payee, label, difference, bonus)`` — the deadwood difference and the bonus of
    ``label`` (``gin``, ``big_gin``, ``undercut``; ``knock``: none) that the payer owes,
    before the hand's multiplier.  ``settle: knocker`` settles the knocker with each
    defender as :func:`knock_outcome` does two players; ``settle: lowest`` has the
    lowest count (:func:`_knock_winner`) collect the difference from every other player,
    with the gin bonus from each when the knocker wins with gin, and the undercut bonus
    from the knocker when the knocker loses.  The ending is the knocker's: ``gin`` or
    ``big_gin``; ``undercut`` when a defender beat (or, with ``tie_is_undercut``, tied) the
    knocker; else ``knock``.

    >>> t = KnockTerms(25, None, 25, True)
    >>> knock_settlement((5, 20, 3), 0, t)
    ('undercut', [(1, 0, 'knock', 15, 0), (0, 2, 'undercut', 2, 25)])
    >>> knock_settlement((5, 20, 3), 0, attrs.evolve(t, settle="lowest"))
    ('undercut', [(0, 2, 'undercut', 2, 25), (1, 2, 'knock', 17, 0)])
    """
    n = len(deadwood)
    defenders = [(k + i) % n for i in range(1, n)]
    out: list[tuple[int, int, str, int, int]] = []
    if terms.settle == "lowest":
        w = _knock_winner(deadwood, k, defenders, terms)
        if w != k:
            ending, bonus = "undercut", 0
        elif deadwood[k]:
            ending, bonus = "knock", 0
        elif big_gin and terms.big_gin_bonus is not None:
            ending, bonus = "big_gin", terms.big_gin_bonus
        else:
            ending, bonus = "gin", terms.gin_bonus
        for p in [k, *defenders]:
            if p == w:
                continue
            label = ending if w == k else "undercut" if p == k else "knock"
            owed = bonus if w == k else terms.undercut_bonus if p == k else 0
            out.append((p, w, label, deadwood[p] - deadwood[w], owed))
        return ending, out
    endings = []
    for d in defenders:
        ending, points = knock_outcome(deadwood[k], deadwood[d], terms, big_gin)
        endings.append(ending)
        diff = abs(deadwood[d] - deadwood[k])
        bonus = abs(points) - diff
        if points > 0:
            out.append((d, k, ending, diff, bonus))
        elif points < 0:
            out.append((k, d, ending, diff, bonus))
    return ("undercut" if "undercut" in endings else endings[0]), out


@item("knock", "gin_bonus", "big_gin_bonus", "undercut_bonus", "tie_is_undercut", "settle",
      choices={"settle": SETTLES},
      fixed=("gin_bonus", "big_gin_bonus", "undercut_bonus", "tie_is_undercut", "settle"))
def _knock(ctx, gin_bonus: int, big_gin_bonus: int | None, undercut_bonus: int,
           tie_is_undercut: bool, settle: str = "knocker"):
    """The deadwood difference to the knocker, or to the defender with the undercut bonus;
    gin and big gin with their bonuses; all times the hand's multiplier. With several
    defenders, the knocker settles with each (``settle: knocker``), or the lowest count
    collects from everyone (``settle: lowest``): :func:`knock_settlement`. Names the ending."""
    terms = KnockTerms(gin_bonus, big_gin_bonus, undercut_bonus, tie_is_undercut, settle)

    def knock(final, tally: Tally) -> None:
        if not _scored(final):
            return
        ending, payments = knock_settlement(final.deadwood, final.went_out, terms,
                                            final.big_gin)
        tally.ending = ending
        m, team_of = final.multiplier, final.team_of
        won: dict[tuple[int, str], int] = {}  # (payee, label): points, deadwood first
        for payer, payee, label, diff, bonus in payments:
            if diff:
                won[payee, "deadwood"] = won.get((payee, "deadwood"), 0) + diff * m
            tally.pay(payer, -(diff + bonus) * m)
            tally.pay(payee, (diff + bonus) * m)
        for payer, payee, label, diff, bonus in payments:
            if bonus:
                won[payee, label] = won.get((payee, label), 0) + bonus * m
        for (payee, label), points in won.items():
            tally.add(team_of[payee], label, points)
    return knock


def _capped(points: int, cap: int | None) -> int:
    """``points``, at most ``cap`` (None: no cap) — a count of cards left in one hand."""
    return points if cap is None or points <= cap else cap


_CAP = {"cap": (0, 100_000)}
"""The range of the ``cap`` of the items that count the cards left in hand."""
_COUNT = {"count": ("all", *COUNTED)}
"""What the items that count the cards left in hand may count (``count``)."""


def _counts(final: Any, count: str) -> tuple[int, ...]:
    """What each player's cards left in hand count (``count``): all of them
    (``final.deadwood``), or those they cannot meld (``final.unmelded`` …; a record
    without them, all)."""
    return (count != "all" and getattr(final, count, ())) or final.deadwood


@item("winner_takes", "cap", "count", ranges=_CAP, choices=_COUNT)
def _winner_takes(ctx, cap: int | None = None, count: str = "all"):
    """The player who went out takes the value of the cards left in the others' hands, at
    most ``cap`` from any one of them (``cap``: null or absent, no cap); with ``count:
    unmelded``, only the cards each cannot arrange into melds (``unmelded_with_contract``:
    into melds holding the contract, else all)."""
    def winner_takes(final, tally: Tally) -> None:
        if not _scored(final):
            return
        w, team_of = final.went_out, final.team_of
        held = _counts(final, count)
        owed = [(p, _capped(held[p], cap)) for p in range(len(team_of))
                if team_of[p] != team_of[w]]
        taken = sum(points for _, points in owed)
        tally.add(team_of[w], "cards_in_other_hands", taken)
        for p, points in owed:
            tally.pay(p, -points)
        tally.pay(w, taken)
    return winner_takes


@item("penalty", "cap", "count", ranges=_CAP, choices=_COUNT)
def _penalty(ctx, cap: int | None = None, count: str = "all"):
    """Each player scores the value of the cards left in their own hand (lowest wins), at
    most ``cap`` (null or absent: no cap); with ``count: unmelded`` only the cards they
    cannot arrange into melds (``unmelded_with_contract``: into melds holding the contract,
    else all)."""
    def penalty(final, tally: Tally) -> None:
        if not _scored(final):
            return
        for p, held in enumerate(_counts(final, count)):
            held = _capped(held, cap)
            if held:
                tally.add(final.team_of[p], "cards_in_hand", held)
            tally.pay(p, -held)
    return penalty


@item("laid", "low_ace", "wilds", choices={"wilds": ("own", "as_card")})
def _laid(ctx, low_ace: int | None = None, wilds: str = "own"):
    """Each player scores the value of the cards they laid this hand, melds and lay-offs
    alike (Rummy 500); an ace at the low end of a run counts ``low_ace`` (null: its value);
    a wild card its own value, or with ``wilds: as_card`` the value of the card it stands
    for (in a set, the least value of its rank's cards; counted as it is laid:
    ``final.laid``)."""
    ace = None if ctx is None else ctx.values[0]

    def laid(final, tally: Tally) -> None:
        if not final.laid or final.ended_by in ("turn_limit", "no_legal_move", "no_progress"):
            return
        for p, (points, low_aces) in enumerate(final.laid):
            if low_ace is not None and ace is not None:
                points -= low_aces * (ace - low_ace)
            if points:
                tally.add(final.team_of[p], "laid", points)
            tally.pay(p, points)
    return laid


@item("held", "cap", "count", ranges=_CAP, choices=_COUNT)
def _held(ctx, cap: int | None = None, count: str = "all"):
    """Each player loses the value of the cards left in their hand (Rummy 500: scored
    beside ``laid``, whoever went out), at most ``cap`` (null or absent: no cap); with
    ``count: unmelded`` only the cards they cannot arrange into melds
    (``unmelded_with_contract``: into melds holding the contract, else all)."""
    def held(final, tally: Tally) -> None:
        if final.ended_by in ("turn_limit", "no_legal_move", "no_progress"):
            return
        for p, points in enumerate(_counts(final, count)):
            points = _capped(points, cap)
            if points:
                tally.add(final.team_of[p], "held", -points)
            tally.pay(p, -points)
    return held


def _went_out(final: Any) -> bool:
    return final.went_out is not None and getattr(final, "ended_by", "went_out") == "went_out"


CONDITIONS: dict[str, Callable[[Any], bool]] = {
    "out": _went_out,
    "out_at_once": lambda final: _went_out(final) and final.at_once,
}
"""What a hand's ``multiply`` and ``bonus`` items may depend on (``when``), each read from
the hand's record: ``out``, a player went out; ``out_at_once``, a player went out laying
their whole hand in one turn."""

_VOID = ("turn_limit", "no_legal_move", "no_progress")
"""Endings after which the items that count what was laid score nothing."""


@item("bonus", "points", "when", choices={"when": tuple(CONDITIONS)},
      required=("points", "when"))
def _bonus(ctx, points: int, when: str):
    """``points`` to the player (and side) who went out, when the hand meets ``when``
    (``out``: going out; ``out_at_once``: going out laying the whole hand in one turn)."""
    met, label = CONDITIONS[when], {"out": "going_out"}.get(when, when)

    def bonus(final, tally: Tally) -> None:
        if met(final) and points:
            tally.add(final.team_of[final.went_out], label, points)
            tally.pay(final.went_out, points)
    return bonus


def _table_books(ctx):
    """The ``books`` item of a table-meld pack: each book on the table scores its kind's
    ``value`` for its owner (``final.books``)."""
    value = {k.name: k.value for k in reversed(ctx.book_kinds)}

    def books(final, tally: Tally) -> None:
        if getattr(final, "ended_by", "") in _VOID:
            return
        for p, kinds in enumerate(final.books):
            t = final.team_of[p]
            points = sum(value.get(k, 0) for k in kinds)
            tally.book_kinds[t].extend(kinds)
            if points:
                tally.add(t, "books", points)
            tally.pay(p, points)
    return books


@item("multiply", "by", "when", choices={"when": tuple(CONDITIONS)}, required=("when",),
      ranges={"by": (1, 100)})
def _multiply(ctx, when: str, by: int = 2):
    """Everything the items above it scored this hand, times ``by`` (default 2), when the
    hand meets ``when`` (``out_at_once``: the player who went out laid their whole hand
    in that one turn)."""
    met = CONDITIONS[when]
    by = 2 if by is None else by

    def multiply(final, tally: Tally) -> None:
        if not met(final):
            return
        tally.items = [[(label, points * by) for label, points in side]
                       for side in tally.items]
        tally.net = [points * by for points in tally.net]
        tally.payments = [(a, b, points * by) for a, b, points in tally.payments]
    return multiply


@item("reserve_untaken", "points", required=("points",))
def _reserve_untaken(ctx, points: int):
    """``points`` (a penalty: negative) to each side whose reserve pile was never picked up
    (``deal.reserve``; per seat, or per side with ``reserve_per: side``)."""
    def reserve_untaken(final, tally: Tally) -> None:
        if not final.reserve_taken or getattr(final, "ended_by", "") in _VOID:
            return
        per_side = len(final.reserve_taken) != len(final.team_of)
        for h, taken in enumerate(final.reserve_taken):
            if taken or not points:
                continue
            seat = final.team_of.index(h) if per_side else h
            tally.add(final.team_of[seat], "reserve_untaken", points)
            tally.pay(seat, points)
    return reserve_untaken


def _held_counts(ctx: Any, final: Any, tally: Tally) -> tuple[int, ...]:
    """The value of the cards each player holds at the end (a table hand's ``deadwood``;
    in a rank-slot hand the values of ``final.hands``)."""
    if hasattr(final, "deadwood"):
        return final.deadwood
    counts = tally.memo.get("held")
    if counts is None:
        kind_of, value = _kind_of(ctx, final, tally), ctx.value_of_kind
        counts = tally.memo["held"] = tuple(sum(value[kind_of[c]] for c in h)
                                            for h in final.hands)
    return counts


@item("pay", "stake", "per", "between", "when",
      choices={"per": ("hand", "point"), "between": ("winner", "every_pair"),
               "when": tuple(CONDITIONS)},
      required=("stake",), ranges={"stake": (1, 100_000)})
def _pay(ctx, stake: int, per: str = "hand", between: str = "winner", when: str | None = None):
    """Payments between players, recorded payer to payee.  ``between: winner``: each player
    not on the side of the hand's winner (whom the items above paid most, else the player
    who went out) pays the winner ``stake`` (``per: hand``) or
    ``stake`` for each point of the cards the payer holds (``per: point``);
    ``between: every_pair``: of each two players on different sides, the one who holds
    more pays the other ``stake``, or ``stake`` for each point of the difference. Only
    when the hand meets ``when`` (``out``, ``out_at_once``), if given."""
    met = CONDITIONS[when] if when else None
    per_point = per == "point"

    def pay(final, tally: Tally) -> None:
        if (met is not None and not met(final)) or (
                hasattr(final, "deadwood") and not _scored(final)):  # a void table hand
            return
        team_of, w = final.team_of, final.went_out
        if max(tally.net) > 0:  # the hand's winner: whom the items above paid most
            w = tally.net.index(max(tally.net))
        held = _held_counts(ctx, final, tally)
        if between == "winner":
            if w is None:
                return
            pairs = [(p, w, held[p]) for p in range(len(team_of)) if team_of[p] != team_of[w]]
        else:
            pairs = [(p, q, held[p] - held[q]) for p in range(len(team_of))
                     for q in range(len(team_of)) if team_of[p] != team_of[q]
                     and held[p] > held[q]]
        for payer, payee, points in pairs:
            amount = stake * points if per_point else stake
            if amount:
                tally.add(team_of[payer], "payment", -amount)
                tally.add(team_of[payee], "payment", amount)
                tally.pay(payer, -amount)
                tally.pay(payee, amount)
                tally.payments.append((payer, payee, amount))
    return pay


TABLE_ITEMS = ("winner_takes", "penalty", "laid", "held", "books", "bonus", "reserve_untaken",
               "multiply", "knock", "pay")
"""The items a table-meld pack may list in ``scoring.items`` (``knock`` only in a knocking
pack, its parameters from the pack's ``knock`` keys)."""

KNOCK_ITEMS = ("knock", "pay")
"""The items a knocking pack (``scoring.style: knock``) may list: the knock itself, and
payments."""


def table_listed(entries: Sequence[dict[str, Any]], terms: KnockTerms | None = None
                 ) -> tuple[tuple[str, dict[str, Any]], ...]:
    """A table pack's ``scoring.items`` as ``(name, parameters)``: the ``knock`` item's
    parameters from the pack's knock keys (``terms``), then the plugin's ``adjust_scores``,
    a rejoin's move of a total and the game-end bonuses, as in every preset.

    >>> table_listed([{"item": "winner_takes"}]) == PRESETS["winner_takes_hands"]
    True
    """
    out = []
    for d in entries:
        params = {k: v for k, v in d.items() if k != "item"}
        if d["item"] == "knock" and terms is not None:
            params = {**attrs.asdict(terms), **params}
        out.append((d["item"], params))
    return (*out, ("plugin", {}), ("rejoin", {}), ("game_end", {}))


@item("game_end")
def _game_end(ctx):
    """The box and game bonuses the game's last hand records (``final.game_end``)."""
    def game_end(final, tally: Tally) -> None:
        for t, extra in enumerate(final.game_end):
            for label, points in extra:
                tally.add(t, label, points)
    return game_end


@item("rejoin")
def _rejoin(ctx):
    """What rejoining after the hand moved each rejoining player's total (``final.rejoin``,
    ``game.rejoin``), a line of its own; not part of what the hand was worth (``net``)."""
    def rejoin(final, tally: Tally) -> None:
        for p, points in enumerate(final.rejoin):
            if points:
                tally.add(final.team_of[p], "rejoin", points)
    return rejoin


@item("plugin")
def _plugin(ctx):
    """The pack's plugin's ``adjust_scores``, run on the lines scored so far (the
    interpreter calls it: it needs the game)."""
    return lambda final, tally: None


# --- the canasta kernel's items: the sides' melds, hands, reserves and bonus cards
# (``ctx`` is the compiled :class:`meldkit.Rules`: card values, book kinds, wild ranks)

def _seats(final: Any, team: int) -> list[int]:
    return [p for p, t in enumerate(final.team_of) if t == team]


def _kind_of(ctx: Any, final: Any, tally: Tally) -> list[int]:
    """The kind of each card id at this table (the deck, built once per hand)."""
    kinds = tally.memo.get("kind_of")
    if kinds is None:
        kinds = tally.memo["kind_of"] = ctx.deck_kinds(len(final.team_of))
    return kinds


def _out_team(final: Any) -> int | None:
    return final.team_of[final.went_out] if final.went_out is not None else None


@item("books")
def _books(ctx):
    """Each completed book's value by its kind (``books.kinds``); the kinds are kept."""
    if getattr(ctx, "meld_model", None) == "table":
        return _table_books(ctx)
    def books(final, tally: Tally) -> None:
        kind_of = _kind_of(ctx, final, tally)
        for t, melds in enumerate(final.melds):
            points = 0
            for kind in _book_kinds(ctx, melds, kind_of):
                points += kind.value
                tally.book_kinds[t].append(kind.name)
            tally.add(t, "books", points)
    return books


def _book_kinds(ctx, melds, kind_of):
    """The book kind of each of a side's rank-slot ``melds`` that is a book (a meld of
    ``books.size`` cards or more that a kind of ``books.kinds`` matches)."""
    size, is_wild = ctx.book_size, ctx.is_wild_rank
    for slot, ids in melds:
        if len(ids) >= size:
            kind = ctx.book_kind(slot, sum(1 for c in ids if is_wild[rank_of_kind(kind_of[c])]))
            if kind is not None:
                yield kind


@item("melded_cards")
def _melded_cards(ctx):
    """The values of the cards in each side's melds (``scoring.melded_cards``)."""
    value = ctx.value_of_kind

    def melded_cards(final, tally: Tally) -> None:
        kind_of = _kind_of(ctx, final, tally)
        for t, melds in enumerate(final.melds):
            tally.add(t, "melded_cards", sum(value[kind_of[c]] for _, ids in melds
                                             for c in ids))
    return melded_cards


@item("bonus_cards", "value", "set_size", "set_value", "by_count", "sets_by",
      "negative_unless", choices={"negative_unless": ("never", "melded", "out", "book")},
      fixed=("by_count", "sets_by"))
def _bonus_cards(ctx, value: int, set_size: int, set_value: int, by_count: dict,
                 sets_by: str, negative_unless: str = "never"):
    """Bonus cards laid out (red threes): ``by_count`` if it lists the count, else full
    sets and the rest at ``value``; counted per player or per side; against the side
    unless it melded (``negative_unless: melded``), went out (``out``) or completed a
    book (``book``: a meld the ``books`` item values)."""
    kept = {  # whether the side keeps its bonus cards' points positive, by negative_unless
        "never": lambda final, t, tally: True,
        "melded": lambda final, t, tally: final.melded[t],
        "out": lambda final, t, tally: _out_team(final) == t,
        "book": lambda final, t, tally: any(_book_kinds(ctx, final.melds[t],
                                                        _kind_of(ctx, final, tally))),
    }[negative_unless]

    def points(n: int) -> int:
        if n in by_count:
            return by_count[n]
        if set_size:
            sets, rest = divmod(n, set_size)
            return sets * set_value + rest * value
        return n * value

    def bonus_cards(final, tally: Tally) -> None:
        for t in range(len(tally.items)):
            seats = _seats(final, t)
            if sets_by == "side":  # the side's bonus cards together make the sets
                bonus = points(sum(len(final.bonus[p]) for p in seats))
            else:
                bonus = sum(points(len(final.bonus[p])) for p in seats)
            if not kept(final, t, tally):
                bonus = -bonus
            tally.add(t, "bonus_cards", bonus)
    return bonus_cards


@item("dead_cards", "points")
def _dead_cards(ctx, points: int):
    """``points`` for each dead card (``cards.dead``) left in a hand."""
    is_dead = ctx.is_dead_kind

    def dead_cards(final, tally: Tally) -> None:
        kind_of = _kind_of(ctx, final, tally)
        for t in range(len(tally.items)):
            tally.add(t, "dead_cards", sum(points for p in _seats(final, t)
                                           for c in final.hands[p] if is_dead[kind_of[c]]))
    return dead_cards


@item("hand_cards", "counts", "skip_dead", choices={"counts": ("not_out", "all")},
      fixed=("skip_dead",))
def _hand_cards(ctx, counts: str, skip_dead: bool):
    """The cards left in hand, against the side: every side (``counts: all``) or the sides
    that did not go out; dead cards left out when they score as dead cards."""
    value, is_dead = ctx.value_of_kind, ctx.is_dead_kind

    def hand_cards(final, tally: Tally) -> None:
        kind_of, out = _kind_of(ctx, final, tally), _out_team(final)
        for t in range(len(tally.items)):
            if counts == "all" or t != out:
                tally.add(t, "hand_cards", -sum(
                    value[kind_of[c]] for p in _seats(final, t) for c in final.hands[p]
                    if not (skip_dead and is_dead[kind_of[c]])))
    return hand_cards


@item("reserve_cards", "counts", choices={"counts": ("not_out", "all")})
def _reserve_cards(ctx, counts: str):
    """Reserves (feet, pony tails) never picked up, against the side (``reserve_values``):
    every side (``counts: all``) or the sides that did not go out."""
    value = ctx.reserve_value_of_kind

    def reserve_cards(final, tally: Tally) -> None:
        kind_of, out = _kind_of(ctx, final, tally), _out_team(final)
        for t in range(len(tally.items)):
            if counts == "all" or t != out:
                tally.add(t, "reserve_cards", -sum(
                    value[kind_of[c]] for p in _seats(final, t) if not final.reserve_taken[p]
                    for c in final.reserves[p]))
    return reserve_cards


@item("going_out", "bonus", "concealed")
def _going_out(ctx, bonus: int, concealed: int):
    """``bonus`` to the side that went out, ``concealed`` more when it went out concealed."""
    def going_out(final, tally: Tally) -> None:
        out = _out_team(final)
        if out is not None:
            tally.add(out, "going_out", bonus + (concealed if final.concealed else 0))
    return going_out


RANK_SLOT_ITEMS = ("books", "melded_cards", "bonus_cards", "dead_cards", "hand_cards",
                   "reserve_cards", "going_out", "bonus", "multiply", "pay")
"""The items a rank-slot (canasta-family) pack may list in ``scoring.items``."""


def listed_items(sc: Any, entries: Sequence[dict[str, Any]] | None = None
                 ) -> tuple[tuple[str, dict[str, Any]], ...]:
    """A rank-slot pack's ``scoring.items`` (or ``entries``, a sheet's) as ``(name,
    parameters)``, each canasta item's parameters those its pack's scoring keys give
    (:func:`key_parameters`) with the ones the entry gives over them; the plugin's
    ``adjust_scores`` last."""
    keys = key_parameters(sc)
    out = [(d["item"], {**keys.get(d["item"], {}),
                        **{k: v for k, v in d.items() if k != "item"}})
           for d in (sc.items if entries is None else entries)]
    return tuple(out) + (("plugin", {}),)


KEYS_ITEMS_READ: tuple[tuple[tuple[str, ...], str, str | None], ...] = (
    (("scoring", "going_out"), "going_out", "bonus"),
    (("scoring", "concealed_going_out"), "going_out", "concealed"),
    (("scoring", "hand_penalty"), "hand_cards", "counts"),
    (("scoring", "reserve_penalty"), "reserve_cards", "counts"),
    (("scoring", "reserve_values"), "reserve_cards", None),
    (("scoring", "bonus", "value"), "bonus_cards", "value"),
    (("scoring", "bonus", "set_size"), "bonus_cards", "set_size"),
    (("scoring", "bonus", "set_value"), "bonus_cards", "set_value"),
    (("scoring", "bonus", "by_count"), "bonus_cards", None),
    (("scoring", "bonus", "sets_by"), "bonus_cards", None),
    (("scoring", "bonus", "negative_if_not_melded"), "bonus_cards", "negative_unless"),
)
"""A rank-slot pack's scoring keys that only an item reads: ``(key path, the item, the
item's parameter it gives, or None where the item reads the key itself)`` — the keys
:func:`key_parameters` reads, and ``reserve_values`` (read by ``reserve_cards`` through
the rules); the loader refuses one that no listed item reads."""


def key_parameters(sc: Any) -> dict[str, dict[str, Any]]:
    """Each canasta item's parameters as the pack's ``scoring`` keys (``sc``) give them."""
    b = sc.bonus
    return {
        "books": {}, "melded_cards": {},
        "bonus_cards": {"value": b.value, "set_size": b.set_size, "set_value": b.set_value,
                        "by_count": dict(b.by_count), "sets_by": b.sets_by,
                        "negative_unless": "melded" if b.negative_if_not_melded else "never"},
        "dead_cards": {"points": sc.dead_in_hand},
        "hand_cards": {"counts": sc.hand_penalty, "skip_dead": bool(sc.dead_in_hand)},
        "reserve_cards": {"counts": sc.reserve_penalty},
        "going_out": {"bonus": sc.going_out, "concealed": sc.concealed_going_out},
    }


def canasta_preset(sc: Any, *, bonus_cards: bool = True, reserve: bool = True
                   ) -> tuple[tuple[str, dict[str, Any]], ...]:
    """The ``canasta`` style's items from the pack's ``scoring`` keys (``sc``): those that
    can score in the pack (``bonus_cards`` where it has bonus cards, ``reserve_cards`` where
    it deals reserves, ``dead_cards`` and ``going_out`` where they are worth points)."""
    keys = key_parameters(sc)
    names = ["books", "melded_cards" if sc.melded_cards else "",
             "bonus_cards" if bonus_cards else "", "dead_cards" if sc.dead_in_hand else "",
             "hand_cards", "reserve_cards" if reserve else "",
             "going_out" if sc.going_out or sc.concealed_going_out else ""]
    return tuple((n, keys[n]) for n in names if n) + (("plugin", {}),)


def rank_slot_preset(spec: Any) -> tuple[tuple[str, dict[str, Any]], ...]:
    """A rank-slot pack's preset: :func:`canasta_preset` for the pack (``spec``)."""
    return canasta_preset(spec.scoring, bonus_cards=bool(spec.cards.bonus),
                          reserve=bool(spec.deal.reserve))


PRESETS: dict[str, tuple[tuple[str, dict[str, Any]], ...] | None] = {
    "winner_takes_hands": (("winner_takes", {}), ("plugin", {}), ("rejoin", {}),
                           ("game_end", {})),
    "penalty": (("penalty", {}), ("plugin", {}), ("rejoin", {}), ("game_end", {})),
    "knock": (("knock", {}), ("plugin", {}), ("rejoin", {}), ("game_end", {})),
    "canasta": None,  # built from the canasta family's keys: :func:`canasta_preset`
}
"""Each ``scoring.style`` as its items.  ``knock``'s parameters come from the pack's
``knock`` keys (:func:`table_items`)."""


def preset_items(style: str, terms: KnockTerms | None = None) -> tuple[Item, ...]:
    """The compiled items of a table style (``knock`` takes the pack's knock terms)."""
    spec = PRESETS.get(style)
    if spec is None:
        raise ValueError(f"unknown scoring style {style!r}")
    if style == "knock":
        assert terms is not None
        spec = tuple((n, attrs.asdict(terms) if n == "knock" else p) for n, p in spec)
    return compile_items(spec)


@functools.lru_cache(maxsize=64)
def table_items(style: str, terms: KnockTerms | None = None) -> tuple[Item, ...]:
    """:func:`preset_items`, compiled once per pack setting."""
    return preset_items(style, terms)


def score_table_hand(style: str, final: TableFinal, terms: KnockTerms | None = None
                     ) -> tuple[tuple[ScoreLine, ...], tuple[int, ...], str]:
    """``(team scores, net points per player, ending)`` of a finished hand.

    ``net`` is zero-sum between the players (what the hand is worth to each, before game
    and box bonuses): in ``knock`` the winner's points against the loser, in
    ``winner_takes_hands`` the winner collects what each other player held, in ``penalty``
    each player loses what they held.  One pass of the style's items (:func:`score`).
    """
    return tuple(score(final, table_items(style, terms), zero_sum=True))
