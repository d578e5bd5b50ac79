"""Compile a validated rule pack into the tables the hot path reads.

Everything here is computed once per pack: plain ints, tuples and lists indexed by card
kind or rank.  Nothing on the hot path parses, validates or looks up strings.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._cards import (
    N_KINDS,
    N_RANKS,
    RANKS,
    card_code,
    kinds_matching,
    pack_deck_kinds,
    rank_index,
    rank_of_kind,
    run_order,
    with_article,
)
from ._actions import ActionSpace
from ._registry import plugin_for
from ._seating import seating

if TYPE_CHECKING:
    from ._pack import RulePack
    from .plugins import Plugin

_FIND = object()  # Rules.of(pack): find the pack's plugin in the registry

WILD = N_RANKS  # the slot of a side's wild meld (melds made only of wild cards)
"""Meld slot used for melds made only of wild cards."""
SEQ = N_RANKS + 1
"""Meld slot of a suited sequence (``melds.sequences``); a side may hold many."""


def _kinds(selectors) -> frozenset[int]:
    out: set[int] = set()
    for s in selectors or ():
        out |= kinds_matching(s)
    return frozenset(out)


def _ranks(selectors) -> frozenset[int]:
    return frozenset(rank_index(s) for s in selectors or ())


BAN_WAITS = {
    "book_of_rank": "until your side holds a book of {rank}s",
    "book": "until your side holds a book",
    "opened": "until your side has made its initial meld",
    "going_out": "except as your last card, going out",
    "not_going_out": "as your last card, to go out",
}
"""What each condition of ``pile.discard_bans`` (``unless``) waits for, in a refusal's
words; both meld models say it so."""


class BookKindRule:
    """A compiled book kind: which books it matches and what it scores."""

    __slots__ = ("name", "value", "ranks", "wild_only", "sequence", "min_wilds", "max_wilds",
                 "index", "counts_as", "adds")

    def __init__(self, spec, index: int, counts_as: int | None = None):
        self.name = spec.name
        self.value = spec.value
        self.ranks = _ranks(spec.ranks) if spec.ranks is not None else None
        self.wild_only = spec.wild_only
        self.sequence = spec.sequence
        self.min_wilds = spec.min_wilds
        self.max_wilds = spec.max_wilds
        self.index = index
        self.counts_as = counts_as
        """The index of the kind this one also counts as for going out (``counts_as``)."""
        self.adds = spec.adds
        """What a book of this kind still takes (``adds``; None: the pack's default)."""

    def matches(self, rank: int, n_wild: int) -> bool:
        """Whether a book of ``rank`` (``WILD`` for a wild book) with ``n_wild`` wilds is of
        this kind (``SEQ`` for a suited sequence)."""
        if self.sequence or rank == SEQ:  # (a table pack's runs may hold wild cards)
            return (self.sequence and rank == SEQ and n_wild >= self.min_wilds
                    and (self.max_wilds is None or n_wild <= self.max_wilds))
        if self.wild_only:
            return rank == WILD
        if rank == WILD:
            return False
        if self.ranks is not None and rank not in self.ranks:
            return False
        if n_wild < self.min_wilds:
            return False
        return self.max_wilds is None or n_wild <= self.max_wilds



def book_kind_rules(kinds) -> list[BookKindRule]:
    """The compiled ``books.kinds``, each knowing the index of its ``counts_as`` kind."""
    index = {k.name: i for i, k in reversed(list(enumerate(kinds)))}
    return [BookKindRule(k, i, index.get(k.counts_as) if k.counts_as else None)
            for i, k in enumerate(kinds)]


def missing_books(book_kinds: list[BookKindRule], required: tuple[tuple[int, int], ...],
                  held: list[int]) -> list[str]:
    """What a side holding books of the kind indexes ``held`` still lacks of the
    ``required`` ``(kind, count)`` pairs, in words; a book also counts as the kind its
    own kind ``counts_as`` (each book once: for its own kind first).

    >>> from meldkit._schema import BookKind
    >>> kinds = book_kind_rules([BookKind(name="clean"), BookKind(name="run", counts_as="clean")])
    >>> missing_books(kinds, ((0, 2),), [0, 1]), missing_books(kinds, ((0, 2),), [1])
    ([], ['a clean book'])
    """
    spare = list(held)
    short = {}
    for i, count in required:  # each kind's own books first
        own = min(count, spare.count(i))
        for _ in range(own):
            spare.remove(i)
        short[i] = count - own
    for i, count in required:  # then books of a kind that counts as it
        while short[i] > 0:
            stand_in = next((k for k in spare if book_kinds[k].counts_as == i), None)
            if stand_in is None:
                break
            spare.remove(stand_in)
            short[i] -= 1
    out = []
    for i, _ in required:  # a kind named n times in required_books needs n books of it
        name, n = book_kinds[i].name, short[i]
        if n > 0:
            out.append(with_article(f"{name} book") if n == 1 else f"{n} more {name} books")
    return out


class OpeningMinimum:
    """The points an opening (a side's or player's first melds) must total, as
    ``initial_meld`` gives them: ``by_hand`` first, then the score tiers for the table's
    player count, then ``minimums``; called as ``minimum(score, hand_number, n_players)``.
    Both meld models read it (the rank-slot model per side, the table model per player).

    >>> from meldkit._schema import InitialMeldSpec, MinimumTier
    >>> m = OpeningMinimum(InitialMeldSpec(minimums=[MinimumTier(below=1500, minimum=50),
    ...                                              MinimumTier(minimum=90)]))
    >>> m(0), m(2000), bool(m), bool(OpeningMinimum(InitialMeldSpec()))
    (50, 90, True, False)
    """

    __slots__ = ("by_hand", "tiers", "tiers_by_players")

    def __init__(self, spec) -> None:
        self.by_hand = tuple(spec.by_hand)
        self.tiers = [(t.below, t.minimum) for t in spec.minimums]
        self.tiers_by_players = {n: [(t.below, t.minimum) for t in tiers]
                                 for n, tiers in spec.minimums_by_players.items()}

    def __call__(self, score: int, hand_number: int = 1, n_players: int | None = None) -> int:
        by_hand = self.by_hand
        if by_hand:
            return by_hand[min(max(hand_number, 1), len(by_hand)) - 1]
        for below, minimum in self.tiers_by_players.get(n_players, self.tiers):
            if below is None or score < below:
                return minimum
        return 0

    def __bool__(self) -> bool:
        """Whether any opening needs points at all."""
        tiers = [self.tiers, *self.tiers_by_players.values()]
        return any(self.by_hand) or any(m for ts in tiers for _, m in ts)

class Rules:
    """The compiled form of a :class:`~meldkit.RulePack`: precomputed tables only.

    Build it with :meth:`Rules.of` (cached per pack digest, at most
    :attr:`CACHE_SIZE` packs: the least recently used is dropped).

    >>> import meldkit
    >>> pack = meldkit.load_pack("pony_tail")
    >>> rules = meldkit.Rules.of(pack)
    >>> rules.name, rules.book_size, rules.min_size, rules.digest == pack.digest
    ('pony_tail', 7, 3, True)
    >>> [meldkit.RANKS[r] for r in rules.wild_ranks]
    ['2', 'JK']
    >>> meldkit.Rules.of(pack) is rules   # compiled once per pack
    True
    """

    _cache: dict[str, Rules] = {}
    CACHE_SIZE = 64
    """Most compiled packs kept (a server loading many uploaded packs stays bounded; a
    game keeps its own compiled rules, so dropping one from the cache costs only time)."""

    def __init__(self, pack: RulePack, plugin: Plugin | None | object = _FIND):
        """Compile ``pack``; ``plugin`` is the plugin it names (None: none; by default
        looked up in :mod:`meldkit._registry`)."""
        spec = pack.spec
        self.pack = pack
        self.spec = spec
        self.name = pack.name
        self.digest = pack.digest
        # --- cards -------------------------------------------------------------------
        wild_kinds = _kinds(spec.cards.wild)
        self.wild_ranks: tuple[int, ...] = tuple(sorted({rank_of_kind(k) for k in wild_kinds}))
        self.is_wild_rank = [r in self.wild_ranks for r in range(N_RANKS + 1)]
        self.is_bonus_kind = [False] * N_KINDS
        for k in _kinds(spec.cards.bonus):
            self.is_bonus_kind[k] = True
        self.bonus_ranks = tuple(sorted({rank_of_kind(k) for k in _kinds(spec.cards.bonus)}))
        """The ranks that have a bonus kind (red 3s: 3)."""
        self.is_dead_kind = [False] * N_KINDS
        for k in _kinds(spec.cards.dead):
            self.is_dead_kind[k] = True
        unmeldable = _ranks(spec.cards.unmeldable)
        self.going_out_rank = [False] * (N_RANKS + 2)  # rank slots, WILD and SEQ
        for r in _ranks(spec.melds.going_out_ranks):
            self.going_out_rank[r] = True
        self.natural_ranks: tuple[int, ...] = tuple(
            r for r in range(N_RANKS) if r not in self.wild_ranks and r not in unmeldable
        )
        self.is_natural_rank = [r in self.natural_ranks for r in range(N_RANKS + 1)]
        self.value_of_kind = self._values(spec.cards.values, {})
        self.reserve_value_of_kind = self._values(spec.cards.values, spec.scoring.reserve_values)
        # --- melds -------------------------------------------------------------------
        m = spec.melds
        self.min_size = m.min_size
        self.min_naturals = m.min_naturals
        self.max_wilds = m.max_wilds
        self.no_wild = [False] * (N_RANKS + 1)
        for r in _ranks(m.no_wild_ranks):
            self.no_wild[r] = True
        self.wild_melds = m.wild_melds
        self.book_size = spec.books.size
        self.close_at_size = spec.books.close_at_size
        self.reopen = spec.books.reopen
        self.book_kinds = book_kind_rules(spec.books.kinds)
        self.adds_by_kind = any(k.adds is not None for k in self.book_kinds)
        """Whether a book kind says what its books still take (``books.kinds[].adds``):
        books then close, or take only some cards, kind by kind."""
        self.max_meld_size = (self.book_size if self.close_at_size and not self.adds_by_kind
                              else 10**9)
        self._book_kind_memo: dict[tuple[int, int], BookKindRule | None] = {}
        self.book_kind_index = {k.name: k.index for k in self.book_kinds}
        self.required_books = tuple(self.book_kind_index[n] for n in spec.going_out.required_books)
        needed: dict[int, int] = {}
        for i in self.required_books:  # a kind named n times needs n books of it
            needed[i] = needed.get(i, 0) + 1
        self.required_book_counts = tuple(sorted(needed.items()))
        self.min_books = spec.going_out.min_books
        self.min_books_by_players = dict(spec.going_out.min_books_by_players)
        # every (deuces, jokers…) mix of wild cards up to max_wilds, fewest first
        self.wild_mixes = self._wild_mixes(max(self.max_wilds, self.book_size))
        no_mix = (0,) * len(self.wild_ranks)
        self.wild_mix_info = [(no_mix, 0)] + [(m, sum(m)) for m in self.wild_mixes]
        self.meld_slots = self.natural_ranks + ((WILD,) if self.wild_melds else ())
        sq = m.sequences
        self.sequences = sq is not None
        self.suits_matter = self.sequences
        """A card's suit decides which sequence it continues: discards name their suit,
        and melds of a rank keep the suits sequences need (``RummyState._card_to_lay``)."""
        self.seq_ranks: tuple[int, ...] = tuple(rank_index(r) for r in sq.ranks) if sq else ()
        skip = run_order(spec.deck)  # deck.run_gaps: skip — a left-out rank is no gap
        if skip is not None:
            self.seq_ranks = tuple(r for r in self.seq_ranks if r in skip)
        self.seq_pos = [-1] * (N_RANKS + 1)
        for i, r in enumerate(self.seq_ranks):
            self.seq_pos[r] = i
        self.seq_min = sq.min_size if sq else 0
        self.seq_max = sq.max_size if sq else 0
        self.run_actions: dict = {}  # memo of RummyState._run_actions, by suit and places held
        self.record_slots = frozenset(self.meld_slots + ((SEQ,) if sq else ()))
        """Slots a meld on the table may have (saves check against it)."""
        self.slot_max_wilds = [0 if self.no_wild[r] else self.max_wilds
                               for r in range(N_RANKS + 1)]
        self.meld_actions: dict = {}  # (new, slot, naturals, wild mix) -> Action, filled lazily
        self.mix_cap = max(self.max_wilds, self.book_size)
        self.slot_actions: dict = {}  # memo of RummyState._slot_actions
        self._mixes_by_counts: dict[tuple[int, ...], list] = {}
        self._codes: dict[int, list[str]] = {}
        # --- initial meld, pile, reserve, going out ---------------------------------------
        self.minimum_for = OpeningMinimum(spec.initial_meld)
        self.pile_top_counts = spec.initial_meld.pile_top_counts
        p = spec.pile
        self.freezes_kind = [False] * N_KINDS
        for k in _kinds(p.freezes_on):
            self.freezes_kind[k] = True
        self.blocks_kind = [False] * N_KINDS
        for k in _kinds(p.blocked_by):
            self.blocks_kind[k] = True
        self.pile_requires_melded = p.requires_melded
        self.take_natural_pair = "natural_pair" in p.take_with
        self.take_natural_and_wild = "natural_and_wild" in p.take_with
        self.take_onto_meld = "onto_meld" in p.take_with
        self.take_free = "free" in p.take_with
        """Whether an unfrozen pile may be taken whole, melding nothing (``take``)."""
        self.turn_limit = spec.game.hand_turn_limit
        """Turns after which a hand still going ends void (``game.hand_turn_limit``)."""
        self.take_onto_book = p.onto_book
        self.frozen_same_rank_pair = p.frozen_take_with == "same_rank_pair"
        self.frozen_until_melded = p.frozen_until_melded
        self.take_count = p.take_count
        self.single_card_rule = p.single_card_rule
        self.discard_ban_of: list[tuple[str, ...]] = [()] * (N_RANKS + 1)
        """Per rank, the conditions each ban on discarding it waits for
        (``pile.discard_bans``: the card is banned while one of them does not hold)."""
        for ban in p.discard_bans:
            for r in _ranks(ban.cards):
                self.discard_ban_of[r] += (ban.unless,)
        self.discard_bans = any(self.discard_ban_of)
        """Whether any card is banned from the discard (a pack without bans lists its
        discards as before)."""
        self.all_banned_pass = p.all_banned == "pass"
        self.sides_form = spec.players.sides_form == "first_pile_take"
        """Whether the first to take the pile plays alone against a side of the others
        (``players.sides_form``)."""
        r = spec.reserve
        self.reserve_size = spec.deal.reserve
        self.pickup_on_book = r.pickup_on_book
        self.pickup_at_turn_start = r.pickup_at_turn_start == "side_has_book"
        self.reserve_bonus_replaced = r.bonus_replaced
        self.pickup_on_empty_hand = r.pickup_on_empty_hand and self.reserve_size > 0
        self.requires_reserve = spec.going_out.requires_reserve and self.reserve_size > 0
        self.draw_count = spec.turn.draw
        self.draw_by_players = dict(spec.turn.draw_by_players)
        self.hand_by_players = dict(spec.deal.hand_by_players)
        self.keep_card = spec.turn.keep_card_to_discard
        h = spec.hand_end
        self.stock_empty_ends = h.stock_empty
        self.renews_stock = spec.stock.when_empty not in ("end_hand", "end_at_once")
        """Whether the pile but its top card becomes a new stock at the end of a turn that
        leaves the stock empty, if it holds more cards than a turn draws
        (``stock.when_empty``)."""
        self.players_leave = h.players_out_without_discard
        self.one_side_left_ends = h.one_side_left
        self.target = spec.game.target
        self.target_by_players = dict(spec.game.target_by_players)
        self.fixed_hands = spec.game.hands
        d = spec.deal
        self.upcard_again_bonus = "bonus" in d.upcard_turn_again
        self.upcard_again_wild = "wild" in d.upcard_turn_again
        self.high_card_rank = {rank_index(c): i for i, c in enumerate(d.high_card_order)}
        # --- plugin hooks and action interning ------------------------------------------
        self.plugin = plugin_for(pack) if plugin is _FIND else plugin
        hooks = self.plugin.actions() if self.plugin is not None else ()
        self.hooks = {h.verb: h for h in hooks}
        self.draw_hooks = tuple(h for h in hooks if h.phase == "draw")
        self.play_hooks = tuple(h for h in hooks if h.phase == "play")
        self.action_space = ActionSpace(
            self.wild_ranks, {h.verb: (h.cards, h.target) for h in hooks}, self.seq_ranks)
        self.discard_actions = [self.action_space.get("discard", (r,)) for r in range(N_RANKS)]
        self.kind_discard_actions = (  # with sequences a discard names its kind
            [self.action_space.get("discard", (k,)) for k in range(N_KINDS)]
            if self.suits_matter else [])

    @staticmethod
    def _values(values: dict[str, int], overrides: dict[str, int]) -> list[int]:
        out = [0] * N_KINDS
        for table in (values, overrides):
            # ranks first, then card codes, so a card code overrides its rank
            for sel in sorted(table, key=lambda s: s.upper() not in RANKS):
                for k in kinds_matching(sel):
                    out[k] = table[sel]
        return out

    def _wild_mixes(self, most: int) -> list[tuple[int, ...]]:
        """Every vector of counts over ``wild_ranks`` with 0 < total <= most, by total."""
        n = len(self.wild_ranks)
        mixes: list[tuple[int, ...]] = []

        def rec(i: int, left: int, acc: tuple[int, ...]) -> None:
            if i == n:
                if sum(acc):
                    mixes.append(acc)
                return
            for c in range(left + 1):
                rec(i + 1, left - c, acc + (c,))

        rec(0, most, ())
        mixes.sort(key=lambda m: (sum(m), tuple(-c for c in m)))
        return mixes

    def mixes_for(self, wild_counts: list[int]) -> list[tuple[tuple[int, ...], int]]:
        """The ``(mix, total)`` wild-card mixes a hand holding ``wild_counts`` (per wild
        rank) can pay for, no-wild mix first (memoised)."""
        cap = self.mix_cap
        key = tuple(c if c < cap else cap for c in wild_counts)
        found = self._mixes_by_counts.get(key)
        if found is None:
            found = self._mixes_by_counts[key] = [
                m for m in self.wild_mix_info if all(c <= k for c, k in zip(m[0], key))]
        return found

    @classmethod
    def of(cls, pack: RulePack, plugin: Plugin | None | object = _FIND) -> Rules:
        """The compiled rules of ``pack`` (cached by the pack's digest, least recently
        used dropped beyond :attr:`CACHE_SIZE`); ``plugin``, the plugin the pack names, is
        looked up in :mod:`meldkit._registry` when not given."""
        cache = cls._cache
        rules = cache.pop(pack.digest, None)
        if rules is None:
            rules = cls(pack, plugin)
            while len(cache) >= cls.CACHE_SIZE:
                try:
                    cache.pop(next(iter(cache)), None)
                except (StopIteration, RuntimeError):  # changed meanwhile by another thread
                    break
        cache[pack.digest] = rules  # most recently used last
        return rules

    # --- players and decks -----------------------------------------------------------------
    def card_codes(self, n_players: int) -> list[str]:
        """The text code of each card id of the deck for ``n_players`` (cached)."""
        cache = self._codes
        codes = cache.get(n_players)
        if codes is None:
            codes = cache[n_players] = [card_code(k) for k in self.deck_kinds(n_players)]
        return codes

    def deck_kinds(self, n_players: int) -> list[int]:
        """The kind of each card id for a table of ``n_players``."""
        return pack_deck_kinds(self.spec.deck, n_players)

    def hand_size_for(self, n_players: int) -> int:
        """Cards dealt to each hand at a table of ``n_players`` (``deal.hand_by_players``)."""
        return self.hand_by_players.get(n_players, self.spec.deal.hand)

    def draw_for(self, n_players: int) -> int:
        """Cards drawn from the stock at a table of ``n_players`` (``turn.draw_by_players``)."""
        return self.draw_by_players.get(n_players, self.draw_count)

    def min_books_for(self, n_players: int) -> int:
        """Books a side needs to go out at a table of ``n_players``."""
        return self.min_books_by_players.get(n_players, self.min_books)

    def seating(self, n_players: int, partners: bool | None) -> tuple[list[int], int]:
        """``(team_of_seat, n_teams)`` for a table; raises :class:`~meldkit.SetupError` when the
        pack does not allow that table (:func:`meldkit._seating.seating`)."""
        return seating(self.spec.players, self.name, n_players, partners)

    def target_for(self, n_players: int) -> int:
        """The game's target at a table of ``n_players`` (``game.target_by_players``)."""
        return self.target_by_players.get(n_players, self.target)

    def book_kind(self, rank: int, n_wild: int) -> BookKindRule | None:
        """The kind of a book of ``rank`` with ``n_wild`` wild cards (first match;
        memoised: a pure function of its arguments)."""
        key = (rank, n_wild)
        try:
            return self._book_kind_memo[key]
        except KeyError:
            found = next((k for k in self.book_kinds if k.matches(rank, n_wild)), None)
            if len(self._book_kind_memo) < 4096:  # wild counts are bounded by the deck
                self._book_kind_memo[key] = found
            return found

    def book_adds(self, rank: int, n_wild: int) -> str:
        """What a book of ``rank`` with ``n_wild`` wild cards still takes: ``any``,
        ``naturals``, ``wilds`` or ``none`` (its kind's ``adds``, else ``books.
        close_at_size``'s)."""
        kind = self.book_kind(rank, n_wild) if self.adds_by_kind else None
        if kind is not None and kind.adds is not None:
            return kind.adds
        return "none" if self.close_at_size else "any"

    def book_adds_ok(self, rank: int, have: int, have_wild: int, add_nat: int,
                     add_wild: int) -> tuple[str, str] | None:
        """None if ``add_nat`` natural and ``add_wild`` wild cards may go onto a meld of
        ``rank`` holding ``have`` cards (``have_wild`` wild), as the book kinds' ``adds``
        say — a book takes what its kind takes, and a book of a kind that closes holds
        ``books.size`` cards — else ``(code, sentence)``.  Asked only with
        :attr:`adds_by_kind`."""
        size = self.book_size
        if have >= size:
            adds = self.book_adds(rank, have_wild)
            if adds == "none":
                return ("add/book-closed", "that book is closed: it takes no more cards")
            if adds == "naturals" and add_wild:
                return ("add/book-naturals-only", "that book takes only natural cards")
            if adds == "wilds" and add_nat:
                return ("add/book-wilds-only", "that book takes only wild cards")
        if have + add_nat + add_wild > size and self.book_adds(
                rank, have_wild + add_wild) == "none":
            return ("meld/too-large", f"a book of that kind holds {size} cards and is closed")
        return None

    def meld_shape_ok(self, rank: int, n_nat: int, n_wild: int) -> tuple[str, str] | None:
        """None if a meld of ``rank`` (``WILD`` for wild-only) with these counts is valid,
        else ``(code, sentence)``."""
        size = n_nat + n_wild
        if size > self.max_meld_size:
            return ("meld/too-large", f"a meld holds at most {self.max_meld_size} cards")
        if rank == WILD:
            if not self.wild_melds:
                return ("meld/wild-melds-not-allowed", "melds of wild cards only are not allowed")
            if size < self.min_size:
                return ("meld/too-small", f"a meld needs at least {self.min_size} cards")
            return None
        if size < self.min_size:
            return ("meld/too-small", f"a meld needs at least {self.min_size} cards")
        if n_nat < self.min_naturals:
            return (
                "meld/too-few-naturals",
                f"a meld needs at least {self.min_naturals} natural cards",
            )
        if n_wild and self.no_wild[rank]:
            return ("meld/no-wilds-allowed", f"melds of {RANKS[rank]}s take no wild cards")
        if n_wild > self.max_wilds:
            return ("meld/too-many-wilds", f"a meld takes at most {self.max_wilds} wild cards")
        return None

