"""Card codes, ranks, suits and kinds for standard decks.

A physical card is an ``int`` id.  Its *kind* (rank and suit, or joker) indexes the
pack's tables.  Rules about melds look only at ranks, so most tables are indexed by
rank (``0`` = ace … ``12`` = king, ``13`` = joker).

>>> card_code(kind_of_code("10D"))
'10D'
>>> rank_index("Q"), RANKS[rank_index("JK")]
(11, 'JK')
>>> sorted(card_code(k) for k in kinds_matching("3")) [:2]
['3C', '3D']
"""

from __future__ import annotations

from ._errors import quoted

RANKS: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "JK")
"""Rank codes, indexed by rank number; ``JK`` (13) is the joker."""
SUITS: tuple[str, ...] = ("C", "D", "H", "S")
"""Suit codes, indexed by suit number: clubs, diamonds, hearts, spades."""
RED_SUITS = frozenset({1, 2})
JOKER_RANK = 13
JOKER_KIND = 52
N_RANKS = 14
N_KINDS = 53
MAX_DECK_CARDS = 10_000
"""Most cards in play at any table size (Pony Canasta for 16 uses 1,728): the loader
refuses a larger deck, and ``new_game`` reads no more of a ``deck_order``."""

_RANK_ALIASES = {"T": "10", "1": "A", "JOKER": "JK", "X": "JK"}


def rank_index(code: str) -> int:
    """The rank number of a rank code (``"A"``, ``"2"`` … ``"10"``, ``"J"``, ``"Q"``, ``"K"``,
    ``"JK"``).

    Raises ``ValueError`` naming the bad code.
    """
    c = str(code).strip().upper()
    c = _RANK_ALIASES.get(c, c)
    try:
        return RANKS.index(c)
    except ValueError:
        raise ValueError(
            f"{quoted(code)} is not a rank (expected one of {', '.join(RANKS)})"
        ) from None


def with_article(word: str) -> str:
    """``word`` after ``a`` or ``an``, by how its first letter sounds: ``an escalera book``,
    ``a natural book``, ``an 8C``, ``an A``, ``a JK``.

    >>> with_article("escalera book"), with_article("samba book"), with_article("8C")
    ('an escalera book', 'a samba book', 'an 8C')
    """
    return f"{'an' if word[:1].lower() in 'aeiou8' else 'a'} {word}"


def is_rank(code: str) -> bool:
    """Whether ``code`` is a rank code (``"2"``, ``"10"``, ``"JK"``), not a card code.

    >>> is_rank("10"), is_rank("JK"), is_rank("10D"), is_rank("11")
    (True, True, False, False)
    """
    try:
        rank_index(code)
    except ValueError:
        return False
    return True


def is_card_code(code: str) -> bool:
    """Whether ``code`` is a card code (``"QH"``, ``"10D"``, ``"JK"``).

    >>> is_card_code("QH"), is_card_code("JK"), is_card_code("Q"), is_card_code("QX")
    (True, True, False, False)
    """
    try:
        kind_of_code(code)
    except ValueError:
        return False
    return True


def kind_of_code(code: str) -> int:
    """The kind number of a card code such as ``"QH"``, ``"10D"`` or ``"JK"``."""
    c = str(code).strip().upper()
    if _RANK_ALIASES.get(c, c) == "JK":
        return JOKER_KIND
    if len(c) < 2 or c[-1] not in SUITS:
        raise ValueError(
            f"{quoted(code)} is not a card code (expected a rank and a suit such as QH, 10D, 3S, "
            "or JK)"
        )
    return rank_index(c[:-1]) * 4 + SUITS.index(c[-1])


def card_code(kind: int) -> str:
    """The text code of a card kind (``"QH"``, ``"JK"``): 0 … 51 by rank then suit, 52 the
    joker; anything else is refused with a ``ValueError`` naming it.

    >>> card_code(0), card_code(47), card_code(52)
    ('AC', 'QS', 'JK')
    """
    if type(kind) is not int or not 0 <= kind <= JOKER_KIND:
        raise ValueError(f"{quoted(kind)} is not a card kind (expected a whole number 0..51, or "
                         f"{JOKER_KIND} for the joker)")
    if kind == JOKER_KIND:
        return "JK"
    return RANKS[kind // 4] + SUITS[kind % 4]


def rank_of_kind(kind: int) -> int:
    """The rank number of a card kind."""
    return JOKER_RANK if kind == JOKER_KIND else kind // 4


def is_red(kind: int) -> bool:
    """True for diamonds and hearts."""
    return kind != JOKER_KIND and kind % 4 in RED_SUITS


def canonical_selector(selector: str) -> str:
    """How a pack writes the rank or card a selector names (what :func:`kinds_matching`
    reads: ``"t"`` is ``"10"``, ``"1h"`` is ``"AH"``); raises ``ValueError`` as it does.

    >>> canonical_selector("t"), canonical_selector("1h"), canonical_selector("Joker")
    ('10', 'AH', 'JK')
    """
    s = str(selector).strip().upper()
    s = _RANK_ALIASES.get(s, s)
    return s if s in RANKS else card_code(kind_of_code(selector))


def kinds_matching(selector: str) -> frozenset[int]:
    """The kinds a pack selector names: a rank (``"3"``, ``"JK"``) names every suit of it,
    a card code (``"3H"``) names one kind.
    """
    s = str(selector).strip().upper()
    s = _RANK_ALIASES.get(s, s)
    if s in RANKS:
        r = RANKS.index(s)
        if r == JOKER_RANK:
            return frozenset({JOKER_KIND})
        return frozenset(r * 4 + su for su in range(4))
    return frozenset({kind_of_code(s)})


def standard_deck_kinds(decks: int, jokers_per_deck: int) -> list[int]:
    """The kinds of every card of ``decks`` standard decks, card id order."""
    one = list(range(52)) + [JOKER_KIND] * jokers_per_deck
    return one * decks


def deck_plan(deck, players: int) -> tuple[int, int | None]:
    """``(standard decks, jokers in all)`` of a pack's ``deck`` section at a table of
    ``players``; jokers None: ``jokers_per_deck`` in each deck.

    >>> from meldkit._schema import DeckSpec
    >>> deck_plan(DeckSpec(decks=2, jokers=1, decks_by_players={5: 3},
    ...                    jokers_by_players={5: 2}), 4), deck_plan(DeckSpec(decks=1), 2)
    ((2, 1), (1, None))
    >>> deck_plan(DeckSpec(decks=2, jokers=1, decks_by_players={5: 3},
    ...                    jokers_by_players={5: 2}), 5)
    (3, 2)
    """
    decks = (deck.decks_by_players or {}).get(players)
    if decks is None:
        decks = deck.decks if deck.decks is not None else (deck.decks_per_player or 1) * players
    jokers = (deck.jokers_by_players or {}).get(players, deck.jokers)
    return decks, jokers


def deck_card_kinds(deck) -> list[int]:
    """The 52 card kinds, or those of the ranks a stripped deck keeps (``deck.ranks``).

    >>> from meldkit._schema import DeckSpec
    >>> len(deck_card_kinds(DeckSpec())), len(deck_card_kinds(DeckSpec(ranks=["A", "K"])))
    (52, 8)
    """
    ranks = getattr(deck, "ranks", None)
    if not ranks:
        return list(range(52))
    keep = {rank_index(r) for r in ranks}
    return [k for k in range(52) if rank_of_kind(k) in keep]


def run_order(deck) -> tuple[int, ...] | None:
    """The ranks runs move through when they skip the ranks a stripped deck leaves out
    (``deck.run_gaps: skip``): the kept ranks in the natural order; None: the natural 13
    (a rank left out stops a run).

    >>> from meldkit._schema import DeckSpec
    >>> run_order(DeckSpec(ranks=["K", "A", "7", "J"], run_gaps="skip"))
    (0, 6, 10, 12)
    >>> run_order(DeckSpec(ranks=["K", "A", "7", "J"])) is None
    True
    """
    ranks = getattr(deck, "ranks", None)
    if not ranks or getattr(deck, "run_gaps", "stop") != "skip":
        return None
    return tuple(sorted({rank_index(r) for r in ranks}))


def pack_deck_kinds(deck, players: int) -> list[int]:
    """The kind of every physical card, by card id, of a pack's ``deck`` at a table of
    ``players``: the standard decks (each with ``jokers_per_deck`` jokers), or, with
    ``deck.jokers``, the decks and then that many jokers; a stripped deck
    (``deck.ranks``) without the ranks it leaves out."""
    decks, jokers = deck_plan(deck, players)
    cards = deck_card_kinds(deck)
    if jokers is None:
        return (cards + [JOKER_KIND] * deck.jokers_per_deck) * decks
    return cards * decks + [JOKER_KIND] * jokers
