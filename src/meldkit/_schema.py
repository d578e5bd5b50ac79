"""The rule-pack schema: frozen attrs classes, one per YAML section.

Every field carries ``metadata["doc"]`` (its meaning) so that the reference docs and the
JSON Schema are generated from these classes and cannot drift from what the loader
accepts.  Card selectors are strings: a rank code (``"2"``, ``"JK"``, ``"7"``) names every
card of that rank, a card code (``"3H"``) names one kind.
"""

from __future__ import annotations

import re
from typing import Any, Literal

import attrs


def _f(default, doc: str, **kw):
    """A field with a default and a documentation string."""
    if isinstance(default, (list, dict)):
        val = default
        return attrs.field(factory=lambda: type(val)(val), metadata={"doc": doc}, **kw)
    return attrs.field(default=default, metadata={"doc": doc}, **kw)


def _by_players(doc: str):
    """A table by player count (``{2: 15}``); ``null`` clears an inherited table."""
    return attrs.field(factory=dict, converter=_table, metadata={"doc": doc + " `null` clears "
                       "an inherited table (a child pack that plays fewer player counts)."})


def _table(value):
    return {} if value is None else value


frozen = attrs.frozen(kw_only=True)


@frozen
class DeckSpec:
    """Which cards are in play."""

    decks: int | None = _f(None, "A fixed number of standard 52-card decks.")
    decks_per_player: int | None = _f(
        None, "Standard decks per player (the deck grows with the table); use instead of `decks`."
    )
    jokers_per_deck: int = _f(
        2,
        "Jokers added to each standard deck. Not read where `jokers` (or `jokers_by_players`, "
        "for every player count) counts the whole pack's jokers: refused beside it, or below "
        "a parent's; a child's `jokers` replaces a parent's `jokers_per_deck`.",
    )
    decks_by_players: dict[int, int] | None = _by_players(
        "Standard decks by player count (`{6: 3}`: three decks for six players); a count not "
        "listed gets `decks` or `decks_per_player`.",
    )
    jokers: int | None = _f(
        None,
        "Jokers in the whole pack, instead of `jokers_per_deck` for each deck (a double pack "
        "with one joker: `decks: 2, jokers: 1`, 105 cards); null: `jokers_per_deck` per deck. "
        "Set one of the two, not both (a child may set `jokers` over a parent's "
        "`jokers_per_deck`).",
    )
    jokers_by_players: dict[int, int] | None = _by_players(
        "Jokers in the whole pack by player count (`{5: 2}`), beside `decks_by_players`; a "
        "count not listed gets `jokers`.",
    )
    ranks: list[str] | None = _f(
        None,
        "A stripped deck: the ranks each standard deck keeps, all four suits of each (`[A, "
        "\"2\", \"3\", \"4\", \"5\", \"6\", \"7\", J, Q, K]`: 40 cards); null: all 13. Runs "
        "keep the natural order, so a run does not cross a rank left out (see `run_gaps`).",
    )
    run_gaps: Literal["stop", "skip"] = _f(
        "stop",
        "With `deck.ranks`: a rank left out `stop`s a run, or runs `skip` it — the kept ranks "
        "next to each other are adjacent, so 6-7-J is a run where 8, 9 and 10 are left out "
        "(Conquian, Chinchón). In the natural order in table-meld packs (each run kind's "
        "`ace` as usual; refused beside an `ace` other than low when the deck keeps no ace), "
        "along `melds.sequences.ranks` in rank-slot packs. Needs runs: a run kind, or "
        "`melds.sequences`.",
    )


@frozen
class PlayersSpec:
    """How many play and how they form sides."""

    min: int = _f(2, "Fewest players (at least 2: a hand ends when one player is left in it).")
    max: int = _f(4, "Most players.")
    partners: Literal["always", "optional", "never"] = _f(
        "never",
        "Partnerships: `always`, `never` (each plays alone) or `optional` (a game option "
        "`partners`).",
    )
    teams: int | None = _f(
        None, "With partners: the number of teams; seats alternate (seat i is on team i mod teams)."
    )
    team_size: int | None = _f(
        None, "With partners: the size of each team, instead of `teams`; seats alternate."
    )
    min_for_partners: int = _f(2, "Fewest players with whom partnerships are allowed.")
    counts: list[int] = _f(
        [],
        "The player counts allowed, when not every count from `min` to `max` is "
        "(`[2, 3, 4, 6]`); empty: every count.",
    )
    partners_by_players: dict[int, bool] | None = _by_players(
        "With `partners: optional`: whether a table of this many plays in partnerships when "
        "the game option `partners` is not given (`{4: true, 6: true}`); a count not listed "
        "plays alone.",
    )
    sides_form: Literal["seated", "first_pile_take"] = _f(
        "seated",
        "Rank-slot packs where each plays alone at the deal: `first_pile_take`, the player "
        "who first takes the discard pile in a hand plays alone against the others, who "
        "become one side for the rest of the hand — their melds join (one meld per rank), "
        "each may lay off onto the side's melds, and each scores the side's total for the "
        "hand; a player who goes out before the pile was ever taken plays alone so "
        "(Cutthroat Canasta). `seated`: the sides are the seating.",
    )


@frozen
class DealSpec:
    """The deal, the reserve piles and the upcard."""

    hand: int = _f(11, "Cards dealt to each player's hand.")
    hand_by_players: dict[int, int] | None = _by_players(
        "Cards dealt to each hand by player count (`{2: 15, 3: 13}`); a count not listed "
        "gets `hand`.",
    )
    reserve: int = _f(0, "Cards dealt face down to each player's reserve pile (0 = none).")
    reserve_name: str = _f("reserve", "What the reserve pile is called (Pony Tail, Pony, foot).")
    reserve_per: Literal["player", "side"] = _f(
        "player",
        "Whose reserve piles are dealt: one to each `player`, or one to each `side` (table-meld "
        "packs only: Buraco's dead piles, taken by the first of the side to play out their "
        "hand; a rank-slot pack deals each player their own).",
    )
    order: list[Literal["hand", "reserve"]] = _f(
        ["hand", "reserve"],
        "Which is dealt first; stacked decks (`deck_order`) are dealt in blocks in this order, "
        "seat by seat from the first player.",
    )
    upcard: bool = _f(True, "Turn the top card of the stock to start the discard pile.")
    upcard_turn_again: list[Literal["bonus", "wild"]] = _f(
        ["bonus", "wild"],
        "If the upcard is one of these, turn another on top; the pile then starts frozen.",
    )
    first_player: Literal["left_of_dealer", "high_card"] = _f(
        "left_of_dealer",
        "Who starts the first hand: the player left of a dealer drawn by lot, or the player "
        "who draws the highest card.",
    )
    high_card_order: list[str] = _f(
        ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4"],
        "With `first_player: high_card`: ranks from highest; any other rank, or a tie, "
        "draws again.",
    )
    next_hand_first: Literal["left_of_previous", "high_card", "winner"] = _f(
        "left_of_previous",
        "Who starts each later hand: the player left of the previous hand's first player "
        "(the deal passes left), a new draw for the highest card, or the player who won "
        "the previous hand — went out, won it on the count (`stock.empty_winner`), or was "
        "left in when the others dropped — "
        "and after a hand nobody won, the player left of its first (`winner`: Tong-its, "
        "Continental). `winner` is refused in a knocking pack.",
    )


@frozen
class CardsSpec:
    """What each card is: wild, bonus, dead, unmeldable, and its value."""

    wild: list[str] = _f(
        ["JK", "2"],
        "Wild cards: ranks (`2`), or `JK` for the jokers; a pack with `melds.kinds` may also "
        "name single cards (`2C`). A joker "
        "left out of this list is no wild card and fits no meld: it is only ever discarded "
        "or held, and counts its `cards.values` against a hand that ends holding it.")
    turned_wild: Literal["none", "rank", "next_rank"] = _f(
        "none",
        "Table-meld packs: a rank wild for the deal, chosen by a card turned at the deal — "
        "after the hands and the upcard, the top card of the stock is turned face up and "
        "set aside for the deal (a joker turned is set aside too, and another turned), and "
        "every card of its `rank`, or of the `next_rank` above it (a king: aces; in a "
        "stripped deck the next rank it keeps), is wild for the deal, besides `wild`. In "
        "actions a card of that rank is named by its role, `*` and its suit (`meld 5H 7H "
        "*C`: the wild club), so that an action's id is the same in every deal; `9C` is "
        "read as `*C` in a deal where nines are wild.",
    )
    bonus: list[str] = _f(
        [], "Bonus cards (red 3s): laid out at once when dealt or drawn and replaced from the "
        "stock."
    )
    dead: list[str] = _f(
        [],
        "Dead cards (black 3s): a penalty if left in hand (the `dead_cards` scoring item, "
        "`scoring.dead_in_hand`). Being dead does not keep a card out of melds: its rank "
        "melds as `cards.unmeldable` (never) and `melds.going_out_ranks` (only by a player "
        "going out, as classic canasta's black 3s) say, like any card of that rank.",
    )
    unmeldable: list[str] = _f(["3"], "Ranks that may never be melded.")
    values: dict[str, int] = _f(
        {
            "JK": 50, "A": 20, "2": 20, "K": 10, "Q": 10, "J": 10, "10": 10, "9": 10, "8": 10,
            "7": 5, "6": 5, "5": 5, "4": 5, "3": 5,
        },
        "Card values, by rank or card code (a card code overrides its rank).",
    )


@frozen
class TurnSpec:
    """The shape of a turn."""

    draw: int | None = _f(
        None,
        "Cards drawn from the stock each turn (fewer if the stock holds fewer). Not given: 2 "
        "in rank-slot packs (canasta's), 1 in table-meld packs (packs with `melds.kinds`); a "
        "knocking pack draws 1.",
    )
    draw_by_players: dict[int, int] | None = _by_players(
        "Cards drawn from the stock by player count (`{2: 2}`); a count not listed gets `draw`.",
    )
    keep_card_to_discard: bool = _f(
        True,
        "Melding or laying off so that the player holds no card to discard is refused. When "
        "false, such a player leaves the hand (`players_out_without_discard`).",
    )
    drop: list[int] = _f(
        [],
        "Table-meld packs: a player may `drop` (fold the hand) instead of drawing, and scores "
        "the first number as the cards against them if they drop in the hand's first round "
        "of turns — on their own first turn of the hand, whoever dropped before them (a drop "
        "is the dropper's turn) — the second later (`[20, 40]`); the hand ends when one "
        "player is left in it, who scores nothing against. The numbers count only where an "
        "item counts the cards held (`winner_takes`, `penalty`, `held`, `pay` with `per: "
        "point` or `between: every_pair`), and are refused elsewhere, where `[0, 0]` lets a "
        "player drop with nothing counted (a `pay` per hand still pays the stake). Empty: "
        "no dropping.",
    )
    stock_card: Literal["hand", "turned"] = _f(
        "hand",
        "Table-meld packs: what a stock draw does with its card — takes it into the `hand`, "
        "or `turned`: turns it face up, and it is never taken into the hand: the player melds "
        "it at once with cards from the hand (`meld 5H 6H 7H`) or lays it off (`add 7H to "
        "m2`), then plays on and discards as usual — or `pass`es it, ending the turn, and it "
        "goes on as `turned_passes` says (Conquian). One card a draw (`draw: 1`); not with "
        "knocking, an opening (`initial_meld`), books needed to go out, reserves or buying.",
    )
    turned_passes: Literal["pile", "next"] = _f(
        "pile",
        "With `stock_card: turned`: where a turned card that is passed goes — onto the "
        "discard `pile` (the next player may take it as a discard, as `pile.take` says), or "
        "to the `next` player, whose turn it is: instead of drawing, they use it or pass it "
        "on; a card every player in the hand has passed goes onto the pile.",
    )
    forced: list[Literal["turned", "discard"]] = _f(
        [],
        "Table-meld packs: cards a player who can use them at once — meld them with cards "
        "from the hand, or lay them off — must use: `turned`, the turned card "
        "(`stock_card: turned`) may not be passed; `discard`, the player to draw must take "
        "the top card of the discard pile (a discard, or a turned card passed on) instead "
        "of drawing, and use it at once. Empty: no forcing. Not with an opening, books "
        "needed to go out, reserves or knocking.",
    )
    play_or_draw: bool = _f(
        False,
        "Table-meld packs: a turn is to play or to draw, with no discard pile (Rummikub, "
        "Machiavelli). The turn starts in the play phase: the player either draws from the "
        "stock (`draw`, `turn.draw` cards), which ends the turn, or plays at least one card "
        "from the hand to the table — melds, lay-offs, and with `melds.rearrange` the "
        "table's melds rearranged — and ends the turn with `done`. A player who goes out "
        "plays their last card. With the stock empty a player who plays nothing says "
        "`pass`, and the hand ends when every player in it has passed in a row "
        "(`stock.when_empty: end_hand`), or as soon as the stock is empty "
        "(`end_at_once`); `stock.empty_winner` says who wins it. Needs `deal.upcard: false` "
        "and `going_out.requires_discard: false`; not with knocking, a turned stock card, "
        "buying, dropping, reserves or discard-pile keys.",
    )
    discard: bool = _f(
        True,
        "Table-meld packs: `false`: there is no discard pile (Carousel). A turn is to draw "
        "from the stock, then meld and lay off — and rearrange the table, with "
        "`melds.rearrange` — as the pack allows, and to end the turn with `done`; a player "
        "goes out by laying their last card. When the stock is empty, the player to draw "
        "cannot, and the hand ends (`stock.empty_winner` says who wins it). Needs "
        "`deal.upcard: false` and `going_out.requires_discard: false`; not with knocking, a "
        "turned stock card, `turn.forced`, reserves, books needed to go out, discard-pile "
        "keys, `stock.when_empty` other than `end_hand`, or `turn.play_or_draw` (whose "
        "turn has no discard already).",
    )


@frozen
class MeldKindSpec:
    """One kind of meld a table-meld pack allows: a *set* (cards of one rank), a *run*
    (consecutive ranks of one suit, or of any suits with `mixed_suits`) or a *flush* (cards
    of one suit, any ranks).  Declaring any kind switches the pack to the table-melds
    kernel (melds with ids and owners, runs, knocking); see the notation page."""

    name: str = _f("", "The kind's name (shown in the rules sheet); defaults to its type.")
    type: Literal["set", "run", "flush"] = _f(
        "set", "`set`: cards of one rank; `run`: consecutive ranks of one suit (of any "
        "suits with `mixed_suits`); `flush`: cards of one suit, of any ranks (Phase 10's "
        "\"seven cards of one colour\", the suits standing for its colours). A pack with a "
        "flush or a run of mixed suits searches a hand's least deadwood only up to 12 cards, "
        "so it is refused with knocking and with scoring items that `count: unmelded`."
    )
    min_size: int = _f(3, "Fewest cards in a meld of this kind.")
    max_size: int | None = _f(
        None,
        "Most cards when the meld is laid down (null: no limit); lay-offs may grow it further "
        "unless `lay_off.max_per_end` stops them.",
    )
    ace: Literal["low", "high", "both", "around"] = _f(
        "low",
        "Runs: where an ace stands — `low` (A-2-3), `high` (Q-K-A), `both` (either end, not "
        "both at once) or `around` the corner (K-A-2 too).",
    )
    max_wilds: int = _f(0, "Most wild cards in a meld of this kind (0: none).")
    wilds_adjacent: bool = _f(
        True,
        "Runs: two wild cards may stand side by side (false: never two together). Refused "
        "(false) on a set, whose cards stand in no order (`max_wilds` bounds a set's wild "
        "cards), and where no wild card can join the run (`max_wilds: 0`, or a pack without "
        "wild cards).",
    )
    all_wild: bool = _f(False, "A meld of this kind may be made of wild cards only.")
    distinct_suits: bool = _f(False, "Sets: no two cards of the same suit; a wild card "
                              "stands for a suit no other card has, so such a set holds four "
                              "cards at most, lay-offs included.")
    mixed_suits: bool = _f(
        False,
        "Runs: the cards may be of any suits (Phase 10's runs, \"in any combination of "
        "colours\"); a run still holds one card of each rank. Refused on a set or a flush, "
        "and beside `wild_natural_in_place`.",
    )
    wild_natural_in_place: bool = _f(
        False,
        "Runs: a wild card standing as itself — of the run's suit, at its own rank's place "
        "(the wild 2H in A-2-3 or 2-3-4 of hearts) — is a natural card there: it does not "
        "count toward `max_wilds`, and a run whose only wild cards stand so is clean "
        "(Buraco's deuce in its place). Where a run could read such a card either way, the "
        "legal reading is taken, and of two legal ones the natural. Refused on a set.",
    )


@frozen
class LayOffSpec:
    """Laying cards off onto melds already on the table (table-meld packs)."""

    onto: Literal["none", "own", "side", "any"] = _f(
        "any",
        "Whose melds a player may lay off onto during their turn: nobody's, their own, their "
        "side's, or anyone's. In a knocking pack (`scoring.style: knock`) nobody lays off "
        "during play, and this key says whether the defender lays off onto the knocker's "
        "melds after a knock: `any` (they do) or `none` (they only lay their own melds); "
        "`own` and `side` are refused there.",
    )
    max_per_end: int | None = _f(
        None,
        "Most cards laid off at each end of a run, and onto a set beyond its laid size "
        "(null: no limit; 0: no card is laid off, on a run or a set — in a knocking pack the "
        "defender lays nothing off; OpenSpiel's gin rummy: 2 at each end of a run). Refused "
        "beside `onto: none`, where no card is laid off.",
    )
    win_back: bool = _f(
        False,
        "A wild card on the table may be won back: in the play phase (once opened, where "
        "the pack has an opening), a player puts the natural card a wild card stands for "
        "into a meld they may lay off onto (`onto`), in its place, and takes the wild card "
        "into their hand — `trade 6H to m3` wins the joker of 5H JK 7H. In a set a wild "
        "card stands for any card of the set's rank the set may hold. Not with `onto: "
        "none` or knock scoring.",
    )
    wilds_stay: bool = _f(
        False,
        "A wild card in a run keeps the place it was laid in: a card is laid off only at an "
        "end of the run, every card on it keeping its place, so the card a wild card stands "
        "for reaches the run only by winning the wild card back (`win_back`) — Rommé's and "
        "Scala 40's joker. False: a natural card laid off for a wild card's place moves "
        "the wild card along the run (`5H 6H JK` takes the 7H, the joker going to the 8H). "
        "Refused where no card is laid off or no run can hold a wild card.",
    )
    within_max_size: bool = _f(
        False,
        "Lay-offs never grow a meld past its kind's `max_size` (a meld of four takes no "
        "fifth card: Oklahoma Rummy's sets and runs). False: `max_size` bounds a meld only "
        "when it is laid down. Refused where no card is laid off or no kind sets a "
        "`max_size`.",
    )


@frozen
class SequenceSpec:
    """Suited sequences in a canasta pack (Samba): consecutive ranks of one suit, with no
    wild card, laid beside the rank melds.  A sequence of `books.size` cards is a book of
    the kind marked `sequence: true`."""

    ranks: list[str] = _f(
        ["4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"],
        "The ranks a sequence may hold, lowest first (Samba: four low, ace high).",
    )
    min_size: int = _f(3, "Fewest cards in a sequence.")
    max_size: int = _f(7, "Most cards; a sequence of this size takes no more cards.")


@frozen
class MeldsSpec:
    """What a meld is.  A side has at most one open (unfinished) meld of a rank at a time;
    with `books.close_at_size` it may start another once the first is a closed book."""

    min_size: int = _f(3, "Fewest cards in a meld.")
    min_naturals: int = _f(2, "Fewest natural cards in a meld of a natural rank.")
    max_wilds: int = _f(3, "Most wild cards in a meld of a natural rank.")
    no_wild_ranks: list[str] = _f([], "Ranks whose melds take no wild cards at all (PT: 7s).")
    going_out_ranks: list[str] = _f(
        [],
        "Ranks melded only by a player going out in that turn (classic canasta's black 3s): a "
        "meld of one of them must leave the player no card, or one card to discard, and their "
        "side must then be allowed to go out.",
    )
    wild_melds: bool = _f(
        False,
        "Melds made only of wild cards are allowed. A wild card on top of the pile is taken "
        "for the side's wild meld with two wild cards of its own rank, but a wild card "
        "discarded freezes the pile (`pile.freezes_on`), and a frozen pile takes two wild "
        "cards only with `pile.frozen_take_with: same_rank_pair`; `pile.blocked_by` may "
        "block it.",
    )
    kinds: list[MeldKindSpec] = _f(
        [],
        "Table-meld packs: the kinds of meld allowed (sets and runs). When given, melds lie on "
        "the table with ids (`m1`, `m2` …) and owners, cards are named with their suits "
        "(`meld 4H 5H 6H`), and the canasta keys `min_naturals`, `max_wilds`, `no_wild_ranks`, "
        "`wild_melds` do not apply (books and an initial meld do: `books.kinds`, "
        "`initial_meld`).",
    )
    lay_off: LayOffSpec = _f(LayOffSpec(), "Table-meld packs: laying off onto melds on the table.")
    rearrange: bool = _f(
        False,
        "Table-meld packs: a player rearranges the table's melds in their play phase "
        "(Rummikub's and Machiavelli's manipulation). Once opened, before this turn (in a "
        "pack without an opening, from the first turn), they may `break m3`: the meld's "
        "cards leave the table and lie loose in front of them, to be "
        "melded and laid off again with cards from the hand (a meld or lay-off uses loose "
        "cards first). The turn cannot end, nor the player go out, while a card lies loose; "
        "`restore` puts the table and the hand back as they were at the start of the turn, "
        "and the player breaks nothing more that turn unless `restores` allows another "
        "try. A meld laid this turn is not "
        "broken, and each player breaks only melds they may lay off onto "
        "(`lay_off.onto`). Not with knock scoring, `lay_off.onto: none`, books, reserves, "
        "a turned stock card, `turn.forced`, `going_out.by_discard: false`, an opening of "
        "the whole hand (`initial_meld.all_at_once`), or scoring items that count the cards "
        "each player laid.",
    )
    restores: int = _f(
        1,
        "With `rearrange`: how many times a player may `restore` the table in one turn. "
        "A restore puts the table and the hand back as they were at the start of the turn "
        "(the cards played before the first break too), so that the player may try again "
        "or, having played nothing, draw; after the last restore they break nothing more "
        "that turn (1: one try). 1 to 10; refused without `rearrange`.",
    )
    sequences: SequenceSpec | None = _f(
        None,
        "Canasta packs: suited sequences besides the rank melds (Samba), named with suits "
        "(`run 4H 5H 6H`, `extend 7H to 4H-6H`); null: none.",
    )


@frozen
class BookKind:
    """One kind of book (canasta) and its value; the first kind a book matches is its kind."""

    name: str = _f("book", "The kind's name, used by `going_out.required_books`.")
    value: int = _f(0, "Points the book scores.")
    ranks: list[str] | None = _f(None, "Only books of these ranks (null: any natural rank).")
    wild_only: bool = _f(
        False, "A book made only of wild cards, of any size (`ranks`, `min_wilds` and "
        "`max_wilds` are refused beside it: its cards are all wild, and of no natural rank)."
    )
    sequence: bool = _f(
        False, "A book made of a suited sequence: a sequence of `melds.sequences` (Samba's "
        "samba) in a pack without `melds.kinds`, a run in a pack with them (Pinnacola's "
        "pinnacola)."
    )
    min_wilds: int = _f(0, "Fewest wild cards in the book.")
    max_wilds: int | None = _f(None, "Most wild cards in the book (0: natural).")
    counts_as: str | None = _f(
        None,
        "The name of another kind this book also counts as toward `going_out.required_books` "
        "(`clean`: a clean run is a clean book for going out; null: only its own kind).",
    )
    adds: Literal["any", "naturals", "wilds", "none"] | None = _f(
        None,
        "What a book of this kind still takes once it is a book: `any` card, only "
        "`naturals`, only `wilds`, or `none` — closed at `books.size` (in a rank-slot pack "
        "the side may then start a new meld of its rank, or of wild cards only after a "
        "`wild_only` book). Null: the pack's `books."
        "close_at_size` in a rank-slot pack (`none` when true), `any` in a table-meld pack "
        "(books keep growing). A book whose kind changes as cards are added (a wild card on "
        "a clean book) takes what its new kind takes, and counts as its new kind toward "
        "going out from the play that changes it.",
    )


@frozen
class BooksSpec:
    """Books (canastas). In a table-meld pack a book is a meld on the table of at least
    `size` cards, a set or a run (`sequence: true` kinds); its kind is the first of `kinds`
    it matches, and it keeps growing."""

    size: int = _f(7, "Cards that make a meld a book.")
    close_at_size: bool = _f(
        True, "A book is closed at `size` and takes no more cards; false: books keep growing. "
        "A book kind's `adds` says otherwise for its own books.",
    )
    reopen: bool = _f(
        True, "Rank-slot packs whose books close (`close_at_size`, or a kind's `adds: none`): "
        "whether a side may start a new meld of a rank it has closed a book of (false: "
        "Modern American Canasta — no second meld of a completed canasta's rank, nor the "
        "pile taken to start one).",
    )
    kinds: list[BookKind] = _f([], "The kinds of book, in matching order.")


@frozen
class MinimumTier:
    """One tier of the initial-meld minimum."""

    below: int | None = _f(None, "Applies while the side's score is below this (null: any score).")
    minimum: int = _f(0, "Points the initial meld must total.")


@frozen
class InitialMeldSpec:
    """The first meld of a side in a hand."""

    minimums: list[MinimumTier] = _f([], "Tiers by the side's cumulative score, first match wins.")
    minimums_by_players: dict[int, list[MinimumTier]] | None = _by_players(
        "Tiers by player count (`{6: [...]}`), each a list like `minimums`; a count not "
        "listed uses `minimums`.",
    )
    by_hand: list[int] = _f(
        [],
        "Minimums by hand number instead of score (`[50, 90, 120, 150]`: 50 in the first hand, "
        "90 in the second …; later hands take the last); when given, `minimums` is not used.",
    )
    pile_top_counts: bool = _f(
        True, "When taking the pile for the initial meld, the top card counts toward the minimum."
    )
    melds: list[str] = _f(
        [],
        "Table-meld packs: the contract — the kinds of the melds a player's opening must hold, "
        "one meld each (`[set, set]`: two sets; `[set, run]`: a set and a run), laid in one "
        "turn; until they are all down they are pending (`withdraw` takes them back), and the "
        "player may not discard. Kinds are the names of `melds.kinds`.",
    )
    contracts: list[list[str]] = _f(
        [],
        "Table-meld packs: contracts each player works through on their own, in order "
        "(Phase 10's phases): a player's contract is the first they have not met, and laying "
        "it down in a hand meets it (counted when the hand ends) — one a hand at most, so "
        "players at one table may be working on different contracts. The game ends after the "
        "hand in which a player meets the last, or after `game.hands` hands (required, as a "
        "bound); the winner has met the most contracts, then has the best total "
        "(`game.winner`); equal on both is a tie. Each contract is written as `melds` is "
        "(`[[set, set], [set, run], [run]]`). Not with `melds`, a `schedule` item that sets a "
        "contract, partnerships, score sheets, `game.eliminate_above`, knocking or "
        "`count: unmelded_with_contract`.",
    )
    wild_as_card: bool = _f(
        False,
        "Table-meld packs with a minimum: a wild card in an opening meld counts as the card "
        "it stands for (a joker in 5H JK 7H counts 6), not at its own value.",
    )
    low_ace: int | None = _f(
        None,
        "Table-meld packs with a minimum and runs whose ace may be low: what an ace at the "
        "low end of a run (A-2-3) counts toward the minimum (Scala 40: 1; with `wild_as_card`, "
        "a wild card standing for it too); an ace anywhere else counts its value. Null: its "
        "value (`cards.values`).",
    )
    take_before: bool = _f(
        True,
        "Table-meld packs with a contract or a minimum: whether a player who has not opened "
        "may take from the discard pile (false: they draw from the stock; buying out of turn "
        "is not taking, nor is taking an offered first upcard; `pile.taken_melded` may then "
        "not be `until_opened`).",
    )
    all_at_once: bool = _f(
        False,
        "Table-meld packs: a player opens only by melding the whole hand in one turn (every "
        "card but the one a last discard needs), going out — a closed hand shows nothing "
        "until then.",
    )
    lay_off_before: bool = _f(
        True,
        "Table-meld packs with a contract (`melds`, `contracts`) or a minimum (`minimums`): "
        "whether a player who has not opened may lay off onto the table's melds (`false` is "
        "refused where no card is ever laid off, `melds.lay_off.onto: none`).",
    )
    melds_after: bool = _f(
        True,
        "Table-meld packs with a contract (`melds`, `contracts`) or a minimum (`minimums`): "
        "whether a player who has opened may lay new melds (`false`: once down, a player "
        "only lays off — Liverpool, Carioca; refused beside `pile.taken_melded`, whose card "
        "an opened player could then only lay off, and where no card is ever laid off).",
    )
    lay_off_same_turn: bool = _f(
        True,
        "Table-meld packs with a contract or a minimum: whether a player may lay off in "
        "the turn they open (`false`: from their next turn — Carioca; needs "
        "`lay_off_before: false`, so that no card was laid off before the opening). A wild "
        "card won back (`trade`, `melds.lay_off.win_back`) lays a card into a meld as a "
        "lay-off does, and waits the same.",
    )


@frozen
class DiscardBan:
    """Cards that may not be discarded unless a condition holds (`pile.discard_bans`)."""

    cards: list[str] = _f(
        [], "The cards banned: ranks (`\"7\"`, `JK`), or card codes (`7H`) in table-meld packs."
    )
    unless: Literal["book_of_rank", "book", "opened", "going_out", "not_going_out"] = _f(
        "book_of_rank",
        "When they may be discarded after all: `book_of_rank`, once the player's side holds a "
        "book of the card's rank (no 7 until the side has a book of 7s); `book`, once it "
        "holds any book; `opened`, once it has made its initial meld (the player has opened, "
        "in a table-meld pack); `going_out`, as the player's last card, going out; "
        "`not_going_out`, whenever it is not the last card (a card that may not be the "
        "discard that goes out: Pennies from Heaven's sevens; needs `all_banned: pass`, or "
        "a last card banned alone would be let go).",
    )


@frozen
class PileSpec:
    """The discard pile."""

    freezes_on: list[str] = _f(["JK", "2"], "Discarding one of these freezes the pile.")
    blocked_by: list[str] = _f(["3"], "A pile with one of these on top cannot be taken.")
    requires_melded: bool = _f(False, "Only a side that has already melded may take the pile.")
    take_with: list[Literal["natural_pair", "natural_and_wild", "onto_meld", "free"]] = _f(
        ["natural_pair", "natural_and_wild"],
        "Ways to take an unfrozen pile: the top card with two naturals of its rank, with one "
        "natural and one wild card, or alone onto the side's open meld of its rank (or, with "
        "`melds.sequences`, onto the end of one of the side's sequences); or `free`: the "
        "whole pile into the hand, melding nothing (`take`; not beside `onto_meld`, and it "
        "needs `game.hand_turn_limit`).",
    )
    take: Literal["pile", "top", "deep"] = _f(
        "pile",
        "Table-meld packs: what a player takes from the discard pile instead of drawing — the "
        "whole `pile`, the `top` card only (rummy), or `deep`: down to a chosen card, which must "
        "be melded or laid off at once (Rummy 500).",
    )
    first_upcard: Literal["none", "offer"] = _f(
        "none",
        "Table-meld packs: `offer` the first upcard (gin) — the first player may take it, else "
        "each other player in turn, else the first player draws from the stock.",
    )
    discard_taken_card: bool = _f(
        True, "Table-meld packs: a card taken from the pile may be discarded in the same turn "
        "(false: not the card taken — of a whole pile taken, its top card)."
    )
    discard_layable: bool = _f(
        True,
        "Table-meld packs: whether a player may discard a card they could lay off now "
        "(`false`: Scala 40 — a card that fits a meld on the table, where the player may lay "
        "off, goes there, not to the pile; a last card may always be discarded, and the ban "
        "lifts when it would leave no move).",
    )
    frozen_until_melded: bool = _f(
        False,
        "The pile is frozen for a side that has not melded this hand: it takes the pile only "
        "as a frozen pile (`frozen_take_with`), with cards matching the top card.",
    )
    single_card_rule: bool = _f(
        False,
        "A player holding a single card may not take a pile of a single card (classic "
        "canasta).",
    )
    take_count: int | None = _f(
        None,
        "Most cards taken with the pile: the top card and the cards beneath it up to this "
        "number (Hand and Foot: 7); the rest stays as the pile, as frozen as it was (null: "
        "the whole pile).",
    )
    onto_book: bool = _f(
        True,
        "With `onto_meld`, the top card alone may go onto a meld that is already a book; "
        "false: only onto a meld below `books.size` (Samba).",
    )
    taken_melded: Literal["no", "until_opened", "always"] = _f(
        "no",
        "Table-meld packs: the top card taken from the pile is used at once, the first meld "
        "or lay-off after the take holding it — `always`, or `until_opened` (by a player who "
        "has not yet opened, toward the opening); it may be taken only when it can be. A "
        "player who has not opened melds it in an opening made that turn (the contract, "
        "worth the minimum): it is taken only when such an opening can hold it, every meld "
        "offered while it is owed leaves one possible, and the melds pending with it are not "
        "withdrawn (the search for that opening is bounded: a thousand steps for each move "
        "it judges and ten thousand for all of a position's; past them the take is refused, "
        "and melds are offered unproved only when none could be judged). `until_opened` is "
        "refused beside "
        "`initial_meld.take_before: false`, where an unopened player never takes (unless a "
        "deal of the schedule lets them, or the first upcard is offered: `first_upcard`).",
    )
    taken_new_meld: bool = _f(
        False,
        "Table-meld packs: a card taken that must be used at once (`taken_melded`, or the "
        "deepest card of a deep take, `take: deep`) goes into a new meld with cards from "
        "the hand, never laid off onto a meld on the table (nor traded for a wild card); "
        "it may be taken only when it can. Oklahoma Rummy's and Tong-its' discard. Refused "
        "where no card taken is owed at once.",
    )
    buy_limit: int = _f(
        0,
        "Table-meld packs: buying out of turn — after a discard that the next player does not "
        "take, each other player in turn may `buy` it (or `pass`), taking `buy_penalty` cards "
        "from the stock with it; each player may buy this many times a hand (0: no buying).",
    )
    buy_penalty: int = _f(1, "Cards from the stock a buyer takes with the bought discard.")
    buy_after_opening: bool = _f(
        True,
        "Table-meld packs with buying (`buy_limit`) and an opening (`initial_meld.melds` or "
        "`minimums`): whether a player who has opened — laid the contract — may still buy "
        "(`false`: only players yet to open are asked, as many Liverpool tables play).",
    )
    frozen_take_with: Literal["natural_pair", "same_rank_pair"] = _f(
        "natural_pair",
        "How a frozen pile is taken: two naturals of the top's rank, or two cards of the top "
        "card's own rank even if wild (two deuces for a deuce).",
    )
    discard_bans: list[DiscardBan] = _f(
        [],
        "Cards that may not be discarded until a condition holds, each `{cards, unless}` "
        "(`[{cards: [\"7\"], unless: book_of_rank}]`: no 7 until the side holds a book of "
        "7s); a card two entries name is discarded only when both conditions hold. What a "
        "player holding only banned cards does is `all_banned`.",
    )
    all_banned: Literal["lift", "pass"] = _f(
        "lift",
        "With `discard_bans`, a player whose every card is banned: `lift`, may discard any of "
        "them; `pass`, ends the turn without a discard (`end` in a rank-slot pack, `pass` in "
        "a table-meld pack), keeping the cards.",
    )


@frozen
class ReserveSpec:
    """When a player picks up their reserve pile (Pony Tail, Pony)."""

    pickup_on_book: Literal["side_first", "own_first", "never"] = _f(
        "never",
        "Picked up at once by the player who completes a book: only their side's first book of "
        "the hand (`side_first`), or their own first book, surprise books included (`own_first`).",
    )
    pickup_at_turn_start: Literal["side_has_book", "never"] = _f(
        "never", "May be picked up at the start of the owner's turn, before drawing."
    )
    bonus_replaced: bool = _f(
        False, "A bonus card found in the reserve is replaced from the stock."
    )
    pickup_on_empty_hand: bool = _f(
        False,
        "The reserve (Hand and Foot's foot) is picked up when its owner's hand is played out: "
        "by melding the last card (play goes on from the reserve in the same turn) or by "
        "discarding it (the reserve is played from the next turn).",
    )


@frozen
class StockSpec:
    """When the stock runs low or out."""

    when_empty: Literal["end_hand", "end_at_once", "turn_pile", "shuffle_pile"] = _f(
        "end_hand",
        "When a turn ends with the stock empty: play goes on while each player in turn takes "
        "from the discard pile as the pack lets them, and the hand ends when the player to "
        "draw does not or cannot (`end_hand`: `pass` in a table pack, `end` in a rank-slot "
        "one); the hand ends at once, the next player not offered the last discard "
        "(`end_at_once`); or the discard pile but its top card becomes a new stock — turned "
        "over, unshuffled (`turn_pile`), or shuffled (`shuffle_pile`) — if it holds more "
        "cards than a turn draws (else as with `end_hand`). In rank-slot "
        "packs the pile stays as frozen as it was, and only where every turn draws at least "
        "2 cards (`turn.draw`), so that the stock and pile shrink and a hand always ends.",
    )
    empty_winner: Literal["none", "lowest_count"] = _f(
        "none",
        "Table-meld packs: who wins a hand that ends on an empty stock, nobody having gone "
        "out. `none`: nobody — it scores only by the items that count such a hand "
        "(`laid`, `held`, `books`, `reserve_untaken`), else it is void. `lowest_count`: "
        "the player in the hand holding the least value of cards wins it (of several: the "
        "player who ended it, else the first of them in turn after that player), ending "
        "`lowest_count`: the scoring "
        "items score it as a hand that player won — `winner_takes`, `pay` `between: "
        "winner` — but not as one they went out of (`when: out` does not hold). Tonk's "
        "and Tong-its' count. Not in a knocking pack.",
    )
    wall: int = _f(
        0,
        "Gin's wall: once a discard leaves this many cards in the stock, the hand ends, "
        "nobody having gone out: void in a knocking pack; scored by the items that count "
        "such a hand (`laid`, `held`, `books`, `reserve_untaken`) otherwise, as a stock run "
        "out (0: no wall).",
    )
    wall_knock_with_upcard: bool = _f(
        False,
        "At the wall, the next player may still knock by taking the last discard (OpenSpiel's "
        "gin rummy); false: the hand is void at once.",
    )


@frozen
class KnockSpec:
    """Knocking (gin): ending the hand with little unmelded ("deadwood") value."""

    max_deadwood: int | None = _f(
        None,
        "The knock value: a player may knock when the cards they cannot meld total at most "
        "this (null: no knocking; 0: only gin).",
    )
    from_upcard: bool = _f(
        False, "Oklahoma: the first upcard's value is the knock value (an ace: gin only)."
    )
    test: Literal["best_discard", "openspiel"] = _f(
        "best_discard",
        "How a knock is judged on the eleven cards held before the discard: the least "
        "deadwood over every discard (`best_discard`), or OpenSpiel's figure — the first best "
        "arrangement of all eleven, less its highest deadwood card — which is higher on about "
        "1% of meld-rich hands (`openspiel`; one deck, no wild cards).",
    )
    spade_upcard_doubles: bool = _f(False, "Oklahoma: a spade as first upcard doubles the hand.")
    gin_bonus: int = _f(25, "Bonus for knocking with no deadwood (gin).")
    big_gin_bonus: int | None = _f(
        None,
        "Bonus for big gin — all eleven cards melded, no discard (null: no big gin, as in "
        "OpenSpiel).",
    )
    undercut_bonus: int = _f(
        25,
        "Bonus to the defender whose deadwood is lower than (or equal to) the knocker's, paid "
        "by the knocker (with `settle: lowest`: to the lowest count, when it is not the "
        "knocker's).",
    )
    tie_is_undercut: bool = _f(
        True,
        "Equal deadwood is an undercut; false: the hand scores 0 (OpenSpiel's gin rummy). "
        "With `settle: lowest`: whether a defender tied with the knocker for the lowest count "
        "wins (else the knocker does).",
    )
    settle: Literal["knocker", "lowest"] = _f(
        "knocker",
        "How a knock settles with more than one defender (three or more players): "
        "`knocker`, the knocker against each defender on their own, as in two-player gin "
        "(the difference from each defender with more deadwood; the difference and the "
        "undercut bonus to each with less, or equal where ties undercut; gin's bonus from "
        "each); `lowest`, the lowest count collects the difference from every other player "
        "(Knock Rummy; a knocker with gin always wins, with gin's bonus from each), and the "
        "undercut bonus from the knocker when the knocker does not win (defenders tied for "
        "lowest: the first in turn after the knocker wins). With two players they are the "
        "same, and `lowest` is refused.",
    )
    before_draw: bool = _f(
        False,
        "A player may also knock at the start of their turn, before drawing (Tonk's drop, "
        "Chinchón's close), when the hand they hold, with no discard, has deadwood at most "
        "the knock value: they lay their melds from that hand and the knock settles as any "
        "other (a hand melded whole is gin, never big gin). The knock after drawing, with a "
        "discard, stays allowed unless `after_draw` is false.",
    )
    after_draw: bool = _f(
        True,
        "A player may knock after drawing, with a discard (and at the wall with the upcard). "
        "`false`: a player knocks only at the start of their turn, before drawing "
        "(`before_draw`, which it needs: Tonk's drop, Yaniv's call). Refused with "
        "`stock.wall_knock_with_upcard`, a knock after taking the upcard.",
    )
    lay_off_on_gin: bool = _f(
        False,
        "The defender may lay off onto a gin hand's melds. Refused where the defender "
        "lays nothing off (`melds.lay_off.onto: none` or `max_per_end: 0`).",
    )
    pile_take_limit: int | None = _f(
        None,
        "The hand is void on this many takes of the discard in one hand (OpenSpiel: 50; "
        "null: no limit).",
    )
    returned_card_limit: int | None = _f(
        None,
        "The hand is void when this many turns in a row end by discarding the card just taken "
        "(OpenSpiel: 2; null: no limit).",
    )


@frozen
class GoingOutSpec:
    """What going out requires and what it is worth."""

    required_books: list[str] = _f(
        [],
        "Book kinds the side must hold to go out; a kind named n times needs n books of that "
        "kind (`[clean, clean, dirty, dirty]`: two of each).",
    )
    min_books: int = _f(0, "Books the side must hold to go out.")
    min_books_by_players: dict[int, int] | None = _by_players(
        "Books needed to go out by player count (`{2: 2}`); a count not listed gets "
        "`min_books`.",
    )
    requires_reserve: bool = _f(
        False, "The player must have picked up their reserve pile to go out."
    )
    requires_discard: bool = _f(
        True,
        "Going out means discarding the last card. Refused (false) with knock scoring, "
        "where a knocker always discards: a knock without a discard, every card melded, is "
        "big gin (`knock.big_gin_bonus`).",
    )
    by_discard: bool = _f(
        True,
        "With `requires_discard: false`: a player may also go out by discarding their last "
        "card. `false`: only by melding or laying off every card (Conquian) — the last card "
        "is never discarded, so a turn's discard always leaves a card in hand, and a meld or "
        "lay-off that would leave a single card is allowed only if that card can then be "
        "laid off. Refused with `requires_discard: true` (going out is then always a "
        "discard) and with knock scoring.",
    )
    last_turns: bool = _f(
        False,
        "Table-meld packs: one more turn for everyone else after a player goes out (Three "
        "Thirteen, Five Crowns): the hand does not end at once; each other player in turn "
        "takes one last turn — draw, play, discard, and may go out too — and then it ends, "
        "won by the player who went out first (`went_out`). A hand that reaches the end of "
        "the stock, or `game.hand_turn_limit`, in the last turns ends there, won the same "
        "way (not void). Not with knocking, "
        "buying, dropping, rearranging the table, reserve piles, partners or a turned stock "
        "card passed on (`turn.turned_passes: next`).",
    )


@frozen
class HandEndSpec:
    """Other ways a hand ends."""

    stock_empty: bool = _f(
        True, "The hand ends when the stock is empty and the player to move does not take the pile."
    )
    players_out_without_discard: bool = _f(
        False,
        "A player with no card to discard at the end of their turn leaves the hand; their melds "
        "still count.",
    )
    one_side_left: bool = _f(
        True, "With `players_out_without_discard`: the hand ends when only one side has players."
    )
    last_card_bonus: Literal["play_on", "meld_then_end", "end_at_once"] = _f(
        "play_on",
        "When the last card of the stock, drawn, is a bonus card (laid out, with nothing left "
        "to replace it): `play_on`: the drawer plays the turn as usual and the hand goes on "
        "with an empty stock; `meld_then_end`: the drawer may meld and lay off but not "
        "discard, and `end` then ends the hand (classic canasta, Hoyle); `end_at_once`: the "
        "hand ends at once, the drawer neither melding nor discarding.",
    )


@frozen
class BonusScoring:
    """How bonus cards (red 3s) score."""

    value: int = _f(100, "Points per bonus card.")
    set_size: int = _f(
        0, "A player's bonus cards in sets of this size score `set_value` (0: no sets)."
    )
    set_value: int = _f(0, "Points for each full set.")
    negative_if_not_melded: bool = _f(False, "A side that has not melded counts them against it.")
    by_count: dict[int, int] = _f(
        {},
        "Points for holding exactly this many bonus cards, instead of `value` each and the "
        "sets (`{4: 800, 5: 1000, 6: 1200}`); whose cards count together is `sets_by`.",
    )
    sets_by: Literal["player", "side"] = _f(
        "player",
        "Whose bonus cards are counted together for `set_size` and `by_count`: each player's "
        "own, or the side's (classic canasta: all four red 3s held by one side score 800, "
        "however split between the partners).",
    )


@frozen
class SheetSpec:
    """A score sheet: a running game of its own that each hand is counted in."""

    name: str = _f("", "The sheet's name, as the view, the hand record and the rules sheet "
                   "show it (a word: `game_1`).")
    items: list[dict[str, Any]] | None = _f(
        None, "What the sheet counts, as `scoring.items` (null: the hand's own items — "
        "`scoring.items`, or the style's).")
    target: int | None = _f(
        None, "The sheet ends after the hand in which a side reaches this total on it (null: "
        "`game.target` for the table's size).")
    from_win: int = _f(
        0, "A side's hands count on this sheet from its n-th hand won, that hand included "
        "(0: every hand; Hollywood gin's games: 1, 2 and 3).")
    game_bonus: int | None = _f(
        None, "Bonus to the sheet's winner when it ends (null: `game.game_bonus`; as that, "
        "not positive where the lowest total wins, not negative where the highest does).")
    box_bonus: int | None = _f(
        None, "Bonus per hand a side won that the sheet counted, when it ends (null: "
        "`game.box_bonus`; refused, as that is, where the lowest total wins, and not "
        "negative where the highest does).")
    shutout_multiplier: int | None = _f(
        None, "The sheet's winner's total, bonuses included, times this when every other "
        "side ends the sheet at 0 (null: `game.shutout_multiplier`).")


@frozen
class ScoringSpec:
    """Scoring at the end of each hand."""

    style: Literal["canasta", "winner_takes_hands", "penalty", "knock"] = _f(
        "canasta",
        "How a hand scores: `canasta` (melds, books and bonuses, the keys below); "
        "`winner_takes_hands`: the player who goes out scores the value of every card left in "
        "the other hands (rummy); `penalty`: each player scores the value of the cards left in "
        "their own hand, and the lowest total wins (`game.winner: lowest`); `knock`: gin — the "
        "deadwood difference with the `knock` bonuses.",
    )

    items: list[dict[str, Any]] = _f(
        [],
        "The hand's score as items, in place of `style`'s (every bundled pack lists its "
        "own). A rank-slot pack lists the "
        "canasta items it counts (`books`, `melded_cards`, `bonus_cards`, `dead_cards`, "
        "`hand_cards`, `reserve_cards`, `going_out`, each with the parameters its scoring "
        "keys give unless the entry gives them; `bonus_cards`' `negative_unless` — `never` "
        "(the default), `melded`, `out` or `book` — counts them against a side that has not "
        "melded, not gone out, or completed no book) and `bonus`, "
        "`multiply`, `pay`. A knocking pack lists `knock` (its parameters from the `knock` "
        "keys) and may add `pay`. A table-meld pack "
        "lists each `{item: <name>, <parameter>: <value>}` from `laid` (each player scores "
        "the cards they laid, melds and lay-offs; `low_ace`: what an ace at the low end of a "
        "run counts; `wilds: as_card`: a wild card at the value of the card it stands for), "
        "`held` (each player loses the cards left in hand), `winner_takes` (who "
        "goes out takes the others' counts), `penalty` (each scores their own count) — "
        "these three take a `cap`, the most one player's count can be (Indian Rummy's 80), "
        "and a `count`: `all` cards left in hand (the default), `unmelded` — only those the "
        "player cannot arrange into melds (Chinchón) — or `unmelded_with_contract` — only "
        "those left out of an arrangement whose melds hold the contract, `initial_meld."
        "melds`, and every card where none does (Indian Rummy's two lives); a count other "
        "than `all` is refused where a hand can grow past 16 cards (the search is "
        "exponential in the hand) —, "
        "`books` (each book a player owns on the table scores its kind's `value`), `bonus` "
        "(`points` to who goes out, `when: out` or `out_at_once`), `reserve_untaken` "
        "(`points`, a penalty, for each reserve pile never picked up) and "
        "`multiply` (everything listed above it, times `by` — default 2 — `when` the hand "
        "meets a condition: `out_at_once`, the player who went out laid their whole hand in "
        "that one turn); `pay` (payments between players, recorded payer to payee: `stake`, "
        "`per: hand` or `point` — each point the payer holds —, `between: winner` — each "
        "player not on the winner's side pays the winner — or `every_pair` — of two players "
        "on different sides, who holds more pays the other —, `when`); the plugin's "
        "`adjust_scores` and the game-end bonuses follow. Where the lowest total wins "
        "(`game.winner: lowest`), an item that would raise the total of whom it rewards or "
        "lower the total of whom it penalises is refused: `pay`, `held`, `laid`, `books` of "
        "a positive value, a positive `bonus`, a negative `reserve_untaken`.",
    )
    sheets: list[SheetSpec] = _f(
        [],
        "Several scores at once: each hand is counted on every sheet, each a running game "
        "with its own target, items and bonuses; the game's total is the sum of the sheets, "
        "and the game ends when they have ended (`game.sheets_end`). Empty: one score.",
    )
    melded_cards: bool = _f(True, "Add the card values of cards in books and melds.")
    bonus: BonusScoring = _f(BonusScoring(), "Bonus cards.")
    dead_in_hand: int = _f(
        0, "Points per dead card left in any hand, for every side (negative: a penalty): the "
        "`dead_cards` scoring item, which a pack listing `scoring.items` lists too (while "
        "it is not 0, `hand_cards` leaves dead cards out)."
    )
    hand_penalty: Literal["not_out", "all"] = _f(
        "all",
        "Whose cards left in hand count against them: only the sides that did not go out, or all.",
    )
    reserve_penalty: Literal["not_out", "all"] = _f(
        "all", "Whose reserve piles not picked up count against them."
    )
    reserve_values: dict[str, int] = _f(
        {}, "Card values in an unpicked reserve that differ from `cards.values`."
    )
    going_out: int = _f(0, "Bonus for going out.")
    concealed_going_out: int = _f(
        0, "Extra bonus for going out without having melded before that turn."
    )
    concealed_needs_book: bool = _f(
        False,
        "Going out concealed also needs a book of the player's own: `books.size` or more "
        "cards laid in one meld in that turn (classic canasta: a canasta the partner laid "
        "does not make the hand concealed).",
    )


@frozen
class RejoinSpec:
    """Rejoining after elimination (`game.eliminate_above`): pool rummy's rejoin, Kalooki's
    buying back in.  The engine keeps no stakes, so every player who may rejoin does."""

    times: int = _f(1, "How many times each player may rejoin in a game (at least 1).")
    add: int = _f(
        0,
        "The rejoining player's new total is the highest total of the players still in "
        "the game, plus this (pool rummy: 1; not negative).",
    )
    while_highest_at_most: int | None = _f(
        None,
        "Only while that highest total is at most this (101 pool rummy: 79); null: while "
        "the new total is within `game.eliminate_above`, which it must always be.",
    )
    least_in: int = _f(
        2,
        "Only while at least this many players are still in the game after the hand "
        "(at least 1).",
    )


@frozen
class GameSpec:
    """The game as a series of hands."""

    target: int = _f(
        5000, "The game ends after the hand in which a side reaches this total. Not null: a "
        "game of `hands` hands, or ended by `eliminate_above`, reads no target, so leave the "
        "key out there.")
    eliminate_above: int | None = _f(
        None,
        "Table-meld packs, lowest wins: a player whose total passes this after a hand leaves "
        "the game (is dealt no more cards); the last one in wins. The target is not used: "
        "`game.target` or `target_by_players` written beside it (or in a child of the pack "
        "that sets it) is refused; one inherited from a parent pack, written for its game "
        "without elimination, is not (`extends: rummy` with `game: {winner: lowest, "
        "eliminate_above: 100}` loads).",
    )
    rejoin: RejoinSpec | None = _f(
        None,
        "Table-meld packs with `eliminate_above`: a player eliminated after a hand rejoins "
        "at once, at the highest total of those still in plus `add`, up to `times` times "
        "(null: an eliminated player stays out).",
    )
    target_by_players: dict[int, int] | None = _by_players(
        "The target by player count (`{6: 10000}`); a count not listed plays to `target`.",
    )
    hands: int | None = _f(
        None,
        "A fixed number of hands: the game ends after this many, whatever the totals, and "
        "`target` is not used (null: play to `target`).",
    )
    winner: Literal["highest", "lowest"] = _f(
        "highest",
        "Who wins once a side reaches the target: the highest total, or the lowest (penalty "
        "scoring, where reaching the target means losing: with `scoring.style: penalty` "
        "each player's cards left count against them, and `highest` is refused).",
    )
    game_bonus: int = _f(
        0,
        "Table-meld packs: bonus added to the total of the side that wins the game. Where "
        "the highest total wins it must not be negative, and where the lowest wins not "
        "positive (either would count against the winner): there a negative bonus takes "
        "points off the winner's total.",
    )
    shutout_multiplier: int = _f(
        1,
        "Table-meld packs where the highest total wins: when the game ends with every other "
        "side at a total of 0 (a shutout, gin's schneider), the winner's total, box and game "
        "bonuses included, is multiplied by this (2: doubled; 1: no shutout rule).",
    )
    box_bonus: int = _f(
        0,
        "Table-meld packs: bonus per hand won (a hand's winner: the player its items paid "
        "the most points), added when the game ends (gin's line or box); not negative. Only "
        "where the highest total wins: where the lowest does, no hand's items pay a player "
        "points, so it is refused (to take points off whoever goes out, list `{item: bonus, "
        "points: -5, when: out}`).",
    )
    hand_turn_limit: int | None = _f(
        None,
        "A hand still going after this many turns ends void (nobody scores for it), so that "
        "games between bots always end (null: no limit); a rank-slot pack that lets the pile "
        "be taken freely (`pile.take_with: [free]`) needs one, and so does a table-meld pack "
        "whose pile may be taken without melding the card taken (unless "
        "`pile.taken_melded: always`; a knocking pack: or `knock.pile_take_limit`).",
    )
    sheets_end: Literal["every", "first"] = _f(
        "every",
        "With `scoring.sheets`: the game ends when every sheet has ended (`every`), or when "
        "the first one does (`first`); the highest (or lowest) total of all the sheets wins.",
    )
    tie: Literal["play_on", "draw"] = _f(
        "play_on",
        "When the leading sides are tied at or above the target: play another hand "
        "(`play_on`), or end the game drawn (`draw`, no winner). A game of `hands` hands "
        "ends after them: a tie is drawn (write `draw`).",
    )


@frozen
class RulePackSpec:
    """A rule pack: the whole YAML document."""

    meldkit: int = _f(1, "Rule-pack format version (`1`). A pack file that others extend "
                         "must write it: `extends:` reads no other file.")
    name: str = _f("", "Short name of the game (defaults to the file name; at most 200 "
                          "characters, as a save records it).")
    title: str = _f("", "Display name.")
    description: str = _f("", "A sentence or two about the game.")
    extends: str | None = _f(None, "A pack (bundled name or relative path) this one overrides.")
    plugin: str | None = _f(
        None,
        "A plugin (an installed entry point in the `meldkit.plugins` group) the pack needs; "
        "no code is ever imported from a path written in a pack.",
    )
    plugin_package: str | None = _f(
        None, "The package that provides `plugin`, named in the error when it is not installed."
    )
    deck: DeckSpec = _f(DeckSpec(), "Which cards are in play.")
    players: PlayersSpec = _f(PlayersSpec(), "Players and sides.")
    deal: DealSpec = _f(DealSpec(), "The deal.")
    cards: CardsSpec = _f(CardsSpec(), "Card categories and values.")
    turn: TurnSpec = _f(TurnSpec(), "The turn.")
    melds: MeldsSpec = _f(MeldsSpec(), "Melds.")
    books: BooksSpec = _f(BooksSpec(), "Books (canastas).")
    initial_meld: InitialMeldSpec = _f(InitialMeldSpec(), "The initial meld.")
    pile: PileSpec = _f(PileSpec(), "The discard pile.")
    reserve: ReserveSpec = _f(ReserveSpec(), "Reserve piles.")
    stock: StockSpec = _f(StockSpec(), "The stock running low or out.")
    knock: KnockSpec = _f(KnockSpec(), "Knocking (gin).")
    going_out: GoingOutSpec = _f(GoingOutSpec(), "Going out.")
    hand_end: HandEndSpec = _f(HandEndSpec(), "End of a hand.")
    scoring: ScoringSpec = _f(ScoringSpec(), "Scoring.")
    game: GameSpec = _f(GameSpec(), "The game.")
    options: dict[str, Any] = _f(
        {}, "Plugin settings (free-form, validated by the plugin named in `plugin`)."
    )
    schedule: list[dict[str, Any]] = _f(
        [],
        "Settings by deal — deal n plays with item n merged over the pack (a later deal, "
        "with the pack as written). An item may set the deal-level keys `deal.hand`, "
        "`deal.hand_by_players`, `initial_meld.*`, `pile.buy_limit`, `cards.wild`, "
        "`cards.values` (merged entry by entry over the pack's), "
        "`turn.draw`, `turn.draw_by_players`, `going_out.requires_discard` and "
        "`going_out.by_discard` "
        "(`[{initial_meld: {melds: [set, set]}}, {deal: {hand: 12}}]`); each deal's pack is "
        "checked like a pack, so a key its meld model does not read is refused. A rank-slot "
        "pack keeps its `cards.wild` in every deal.",
    )


# --------------------------------------------------------------------------- who reads each key

CANASTA = "canasta"
"""The kernel's rank-slot meld model (:class:`meldkit._state.RankSlotModel` of
:class:`meldkit.KernelState`): every pack without ``melds.kinds`` and without a plugin
engine."""
TABLE = "table"
"""The kernel's table meld model (:class:`meldkit.kernel.table.TableModel` of
:class:`meldkit.KernelState`): packs with ``melds.kinds``."""
HOUSES = "houses"
"""The Houses engine, the ``houses`` plugin's own game engine."""

ENGINES: tuple[str, ...] = (CANASTA, TABLE, HOUSES)
"""The engines whose reading of every key :data:`KEY_READERS` records."""

ENGINE_NAMES: dict[str, str] = {
    CANASTA: "the rank-slot meld model",
    TABLE: "the table meld model",
    HOUSES: "the Houses engine",
}
ENGINE_PACKS: dict[str, str] = {
    CANASTA: "packs without melds.kinds",
    TABLE: "packs with melds.kinds",
    HOUSES: "plugin: houses",
}
"""Which packs each engine plays, in words."""

_DEFAULT: Any = object()
"""``inert`` of a key whose default is also what the engines that ignore it do."""


@attrs.frozen
class KeyOwners:
    """Which engines read one key, and what it means in a pack whose engine does not."""

    readers: frozenset[str]
    """The engines that honour the key (a subset of :data:`ENGINES`)."""
    inert: Any = _DEFAULT
    """The value that says what the other engines do anyway (``cards.bonus: []`` in a
    table-meld pack: no bonus cards); :data:`_DEFAULT`: the key's default.  A pack whose
    engine does not read the key may write it only with this value."""
    needs: str = ""
    """What else the pack must set for the key to have an effect, in words ("" if nothing);
    see :data:`KEY_NEEDS` for the needs the loader enforces."""


def _k(*readers: str, inert: Any = _DEFAULT, needs: str = "") -> KeyOwners:
    return KeyOwners(frozenset(readers), inert, needs)


_ALL = _k(CANASTA, TABLE, HOUSES)
_C = _k(CANASTA)
_T = _k(TABLE)
_CT = _k(CANASTA, TABLE)

KEY_READERS: dict[str, KeyOwners] = {
    # --- the pack itself: read by the loader for every engine
    "meldkit": _ALL, "name": _ALL, "title": _ALL, "description": _ALL, "extends": _ALL,
    "plugin": _ALL, "plugin_package": _ALL,
    "options": _k(CANASTA, TABLE, HOUSES, needs="plugin (the plugin validates them)"),
    "schedule": _k(CANASTA, TABLE, inert=[]),
    # --- deck (the Houses engine brings its own deck)
    "deck.decks": _CT,
    "deck.decks_per_player": _CT,
    "deck.jokers_per_deck": _CT,
    "deck.decks_by_players": _k(CANASTA, TABLE, inert={}),
    "deck.jokers": _k(CANASTA, TABLE, inert=None),
    "deck.jokers_by_players": _k(CANASTA, TABLE, inert={}),
    "deck.ranks": _k(CANASTA, TABLE, inert=None),
    "deck.run_gaps": _k(CANASTA, TABLE, inert="stop", needs="deck.ranks, and runs (a run "
                        "kind, or melds.sequences)"),
    # --- players and sides: the seating every engine shares
    "players.min": _ALL, "players.max": _ALL, "players.partners": _ALL, "players.teams": _ALL,
    "players.team_size": _ALL, "players.min_for_partners": _ALL, "players.counts": _ALL,
    "players.partners_by_players": _ALL,
    "players.sides_form": _k(CANASTA, inert="seated"),
    # --- the deal
    "deal.hand": _ALL,
    "deal.hand_by_players": _k(CANASTA, TABLE, inert={}),
    "deal.reserve": _k(CANASTA, TABLE, inert=0),
    "deal.reserve_name": _k(CANASTA, TABLE, needs="deal.reserve above 0"),
    "deal.reserve_per": _k(CANASTA, TABLE, needs="deal.reserve above 0"),
    "deal.order": _k(CANASTA, needs="deal.reserve above 0 (or a stacked deck)"),
    "deal.upcard": _k(CANASTA, TABLE, inert=False),
    "deal.upcard_turn_again": _k(CANASTA, inert=[]),
    "deal.first_player": _k(CANASTA, TABLE, inert="left_of_dealer"),
    "deal.high_card_order": _k(CANASTA, TABLE, needs="deal.first_player or "
                               "deal.next_hand_first: high_card"),
    "deal.next_hand_first": _k(CANASTA, TABLE, inert="left_of_previous"),
    # --- cards: the canasta categories; wild cards and values in both kernels
    "cards.wild": _k(CANASTA, TABLE, inert=[]),
    "cards.turned_wild": _k(TABLE, inert="none"),
    "cards.bonus": _k(CANASTA, inert=[]),
    "cards.dead": _k(CANASTA, inert=[]),
    "cards.unmeldable": _k(CANASTA, inert=[]),
    "cards.values": _CT,
    # --- the turn (Houses draws one card)
    "turn.draw": _k(CANASTA, TABLE, inert=1),
    "turn.drop": _k(TABLE, inert=[]),
    "turn.stock_card": _k(TABLE, inert="hand"),
    "turn.turned_passes": _k(TABLE, needs="turn.stock_card: turned"),
    "turn.forced": _k(TABLE, inert=[]),
    "turn.draw_by_players": _k(CANASTA, TABLE, inert={}),
    "turn.keep_card_to_discard": _C,
    "turn.play_or_draw": _k(TABLE, inert=False),
    "turn.discard": _k(TABLE, inert=True),
    # --- melds: rank slots in the canasta kernel, kinds in the table kernel
    "melds.min_size": _C, "melds.min_naturals": _C, "melds.max_wilds": _C,
    "melds.no_wild_ranks": _C, "melds.going_out_ranks": _C, "melds.wild_melds": _C,
    "melds.kinds": _k(TABLE, inert=[]),
    "melds.lay_off.onto": _T,
    "melds.lay_off.max_per_end": _k(TABLE, inert=None),
    "melds.lay_off.win_back": _k(TABLE, inert=False),
    "melds.lay_off.wilds_stay": _k(TABLE, inert=False),
    "melds.lay_off.within_max_size": _k(TABLE, inert=False),
    "melds.rearrange": _k(TABLE, inert=False),
    "melds.restores": _k(TABLE, needs="melds.rearrange"),
    "melds.sequences": _k(CANASTA, inert=None),
    # --- books (canastas)
    "books.size": _CT, "books.close_at_size": _C,
    "books.reopen": _k(CANASTA, inert=True, needs="books.close_at_size, or a kind's adds: none"), "books.kinds": _k(CANASTA, TABLE, inert=[]),
    # --- the initial meld
    "initial_meld.minimums": _CT, "initial_meld.minimums_by_players": _CT,
    "initial_meld.by_hand": _CT, "initial_meld.pile_top_counts": _C,
    "initial_meld.melds": _k(TABLE, inert=[]),
    "initial_meld.contracts": _k(TABLE, inert=[]),
    "initial_meld.take_before": _k(TABLE, inert=True,
                                   needs="initial_meld.melds, contracts or minimums"),
    "initial_meld.all_at_once": _k(TABLE, inert=False),
    "initial_meld.wild_as_card": _k(TABLE, inert=False, needs="initial_meld.minimums"),
    "initial_meld.low_ace": _k(TABLE, inert=None, needs="initial_meld.minimums and a run "
                               "kind whose ace may be low"),
    "initial_meld.lay_off_before": _k(TABLE, inert=True,
                                      needs="initial_meld.melds, contracts or minimums"),
    "initial_meld.melds_after": _k(TABLE, inert=True,
                                   needs="initial_meld.melds, contracts or minimums"),
    "initial_meld.lay_off_same_turn": _k(TABLE, inert=True,
                                         needs="initial_meld.lay_off_before: false"),
    # --- the discard pile
    "pile.freezes_on": _k(CANASTA, inert=[]),
    "pile.blocked_by": _k(CANASTA, inert=[]),
    "pile.requires_melded": _C,
    "pile.take_with": _C,
    "pile.take": _k(TABLE, inert="pile"),
    "pile.first_upcard": _k(TABLE, needs="deal.upcard"),
    "pile.discard_taken_card": _T,
    "pile.discard_layable": _k(TABLE, inert=True),
    "pile.frozen_until_melded": _C, "pile.single_card_rule": _C, "pile.take_count": _C,
    "pile.onto_book": _k(CANASTA, needs="pile.take_with: [onto_meld]"),
    "pile.frozen_take_with": _C,
    "pile.discard_bans": _k(CANASTA, TABLE, inert=[]),
    "pile.all_banned": _k(CANASTA, TABLE, needs="pile.discard_bans"),
    "pile.buy_limit": _k(TABLE, inert=0),
    "pile.taken_melded": _k(TABLE, inert="no"),
    "pile.buy_penalty": _k(TABLE, needs="pile.buy_limit above 0"),
    "pile.buy_after_opening": _k(TABLE, inert=True, needs="pile.buy_limit above 0 and an "
                                 "initial meld (initial_meld.melds, contracts or minimums)"),
    # --- reserve piles
    "reserve.pickup_on_book": _k(CANASTA, needs="deal.reserve above 0"),
    "reserve.pickup_at_turn_start": _k(CANASTA, needs="deal.reserve above 0"),
    "reserve.bonus_replaced": _k(CANASTA, needs="deal.reserve above 0 and cards.bonus"),
    "reserve.pickup_on_empty_hand": _k(CANASTA, needs="deal.reserve above 0"),
    # --- the stock running low
    "stock.when_empty": _k(CANASTA, TABLE, inert="end_hand"),
    "stock.wall": _k(TABLE, inert=0),
    "stock.wall_knock_with_upcard": _k(TABLE, needs="stock.wall above 0"),
    "stock.empty_winner": _k(TABLE, inert="none"),
    "pile.taken_new_meld": _k(TABLE, inert=False),
    # --- knocking
    "knock.max_deadwood": _k(TABLE, needs="scoring.style: knock"),
    "knock.from_upcard": _k(TABLE, needs="knock.max_deadwood and deal.upcard"),
    "knock.test": _k(TABLE, needs="knock.max_deadwood"),
    "knock.spade_upcard_doubles": _k(TABLE, needs="deal.upcard"),
    "knock.gin_bonus": _k(TABLE, needs="scoring.style: knock"),
    "knock.big_gin_bonus": _k(TABLE, needs="scoring.style: knock"),
    "knock.undercut_bonus": _k(TABLE, needs="scoring.style: knock"),
    "knock.tie_is_undercut": _k(TABLE, needs="scoring.style: knock"),
    "knock.settle": _k(TABLE, needs="scoring.style: knock"),
    "knock.before_draw": _k(TABLE, needs="scoring.style: knock"),
    "knock.after_draw": _k(TABLE, needs="knock.before_draw: true"),
    "knock.lay_off_on_gin": _k(TABLE, needs="scoring.style: knock"),
    "knock.pile_take_limit": _T,
    "knock.returned_card_limit": _T,
    # --- going out
    "going_out.required_books": _k(CANASTA, TABLE, needs="books.kinds"),
    "going_out.min_books": _CT,
    "going_out.min_books_by_players": _k(CANASTA, TABLE, inert={}),
    "going_out.requires_reserve": _k(CANASTA, needs="deal.reserve above 0"),
    "going_out.requires_discard": _CT,
    "going_out.by_discard": _k(TABLE, needs="going_out.requires_discard: false"),
    "going_out.last_turns": _T,
    # --- other ends of a hand
    "hand_end.stock_empty": _C,
    "hand_end.players_out_without_discard": _C,
    "hand_end.one_side_left": _k(CANASTA, needs="hand_end.players_out_without_discard"),
    "hand_end.last_card_bonus": _k(CANASTA, needs="cards.bonus"),
    # --- scoring: the style in both kernels, canasta's items in the canasta kernel
    "scoring.style": _CT,
    "scoring.items": _k(CANASTA, TABLE, inert=[]),
    "scoring.sheets": _k(CANASTA, TABLE, inert=[]),
    "scoring.melded_cards": _C,
    "scoring.bonus.value": _k(CANASTA, needs="cards.bonus"),
    "scoring.bonus.set_size": _k(CANASTA, needs="cards.bonus"),
    "scoring.bonus.set_value": _k(CANASTA, needs="cards.bonus and scoring.bonus.set_size"),
    "scoring.bonus.negative_if_not_melded": _k(CANASTA, needs="cards.bonus"),
    "scoring.bonus.by_count": _k(CANASTA, needs="cards.bonus"),
    "scoring.bonus.sets_by": _k(CANASTA, needs="cards.bonus"),
    "scoring.dead_in_hand": _k(CANASTA, needs="cards.dead"),
    "scoring.hand_penalty": _C,
    "scoring.reserve_penalty": _k(CANASTA, needs="deal.reserve above 0"),
    "scoring.reserve_values": _k(CANASTA, needs="deal.reserve above 0"),
    "scoring.going_out": _C,
    "scoring.concealed_going_out": _C,
    "scoring.concealed_needs_book": _k(CANASTA, needs="scoring.concealed_going_out above 0"),
    # --- the game (Houses ends by its own rules)
    "game.target": _k(CANASTA, TABLE, needs="game.hands null"),
    "game.target_by_players": _k(CANASTA, TABLE, inert={}, needs="game.hands null"),
    "game.hands": _k(CANASTA, TABLE, inert=None),
    "game.winner": _k(TABLE, inert="highest"),
    "game.game_bonus": _k(TABLE, inert=0),
    "game.box_bonus": _k(TABLE, inert=0),
    "game.shutout_multiplier": _k(TABLE, inert=1),
    "game.hand_turn_limit": _k(CANASTA, TABLE, inert=None),
    "game.tie": _CT,
    "game.sheets_end": _k(CANASTA, TABLE, needs="scoring.sheets"),
    "game.eliminate_above": _k(TABLE, inert=None),
    "game.rejoin": _k(TABLE, inert=None),
}
"""Every key of the pack format (as :func:`pack_leaves` names them) and the engines that
read it: the one table the loader's ownership check, ``meldkit keys`` and the reference
page are driven by.  A key set (to anything but its ``inert`` value) in a pack whose engine
is not among its readers is refused at its ``file:line:col``; a list of mappings
(``books.kinds``) is one key, its items' keys go with it."""

KEY_NEEDS: dict[str, tuple[str, str]] = {
    "pile.buy_after_opening": ("pile.buy_limit", "nobody may buy (pile.buy_limit is 0), "
                               "so no opened player is kept from it: set pile.buy_limit, or "
                               "remove it"),
    "pile.buy_penalty": ("pile.buy_limit", "nobody may buy (pile.buy_limit is 0), so no "
                         "buyer takes it: set pile.buy_limit, or remove it"),
    "scoring.dead_in_hand": ("cards.dead", "no card is dead (cards.dead is empty), so it "
                             "would score nothing: list the dead cards in cards.dead, or "
                             "remove it"),
    "stock.wall_knock_with_upcard": ("stock.wall", "the pack has no wall (stock.wall is "
                                     "0), so nobody reaches one to knock at: set stock.wall, "
                                     "or remove it"),
    "knock.after_draw": ("knock.before_draw", "nobody knocks before drawing "
                         "(knock.before_draw is false), so with no knock after drawing "
                         "nobody would knock at all: set knock.before_draw: true, or remove "
                         "it"),
    "game.rejoin": ("game.eliminate_above", "nobody is eliminated (game.eliminate_above is "
                    "null), so nobody rejoins: set game.eliminate_above, or remove it"),
    "pile.all_banned": ("pile.discard_bans", "no card is banned from the discard "
                        "(pile.discard_bans is empty), so no hand is all banned: list the "
                        "bans in pile.discard_bans, or remove it"),
    **{f"knock.{key}": ("knock.max_deadwood", f"nobody knocks (knock.max_deadwood is null), "
                        f"so {what}: set knock.max_deadwood and scoring.style: knock, or "
                        f"remove it") for key, what in (
        ("from_upcard", "no knock value is taken from the upcard"),
        ("test", "no knock is judged"),
        ("spade_upcard_doubles", "no knock's score is doubled"),
        ("gin_bonus", "nobody goes gin"), ("big_gin_bonus", "nobody goes big gin"),
        ("undercut_bonus", "nobody is undercut"), ("tie_is_undercut", "nobody is undercut"),
        ("settle", "no knock is settled"),
        ("before_draw", "nobody knocks before drawing"), ("lay_off_on_gin", "nobody lays off on a knock"))},
}
"""Needs the loader enforces: key → (the key it needs set, the sentence of the refusal).
Each is a key that is honoured only when another is set to something but its default."""


def _fields_of(cls: type) -> dict[str, Any]:
    from typing import get_type_hints

    return get_type_hints(cls)


def pack_leaves(cls: type = RulePackSpec, prefix: str = "") -> list[tuple[str, attrs.Attribute]]:
    """Every key :data:`KEY_READERS` covers, as ``(dotted path, attrs field)``, depth first:
    each field of a section; a section (``melds.lay_off``) is walked, a list, table or
    optional of mappings (``books.kinds``, ``melds.sequences``) is one key.

    >>> paths = [path for path, _ in pack_leaves()]
    >>> paths[:3], "melds.lay_off.onto" in paths, "books.kinds" in paths
    (['meldkit', 'name', 'title'], True, True)
    """
    hints = _fields_of(cls)
    out: list[tuple[str, attrs.Attribute]] = []
    for field in attrs.fields(cls):
        path = prefix + field.name
        tp = hints[field.name]
        if isinstance(tp, type) and attrs.has(tp):
            out += pack_leaves(tp, path + ".")
        else:
            out.append((path, field))
    return out


def key_default(field: attrs.Attribute) -> Any:
    """A field's default value (a factory called)."""
    default = field.default
    if isinstance(default, attrs.Factory):  # type: ignore[arg-type]
        default = default.factory()
    return default


def owners_of(path: str) -> KeyOwners:
    """The :class:`KeyOwners` of a key path (``books.kinds[].value`` goes with
    ``books.kinds``; ``melds.sequences.ranks`` with ``melds.sequences``).

    >>> sorted(owners_of("knock.max_deadwood").readers), owners_of("cards.bonus").inert
    (['table'], [])
    """
    path = re.sub(r"\[[^\]]*\]", "", path)
    while path not in KEY_READERS:
        if "." not in path:
            raise KeyError(path)
        path = path.rpartition(".")[0]
    return KEY_READERS[path]


def inert_value(path: str) -> Any:
    """The value of ``path`` that a pack whose engine does not read it may write."""
    owners = KEY_READERS[path]
    if owners.inert is not _DEFAULT:
        return owners.inert
    fields = dict(pack_leaves())
    return key_default(fields[path])


def applies_to(path: str) -> str:
    """Which packs a key applies to, in words (``meldkit keys``, the reference page).

    >>> applies_to("pile.take")
    'the table meld model (packs with melds.kinds)'
    """
    readers = owners_of(path).readers
    if readers == frozenset(ENGINES):
        return "every pack"
    return ", ".join(f"{ENGINE_NAMES[e]} ({ENGINE_PACKS[e]})" for e in ENGINES if e in readers)
