"""The table-melds engine: sets and runs laid on the table with ids and owners.

A pack that declares ``melds.kinds`` is played by :class:`TableModel`: rummy (draw, meld,
lay off, discard, go out), gin (draw, discard or knock; the knocker lays melds, the
defender lays off and melds; deadwood scoring) and their relatives, all configured by pack
keys.  Cards are named by their codes with suits (``meld 4H 5H 6H``, ``add 7H to m3``).

Each phase is one pair of methods — ``_legal_<phase>`` lists the legal actions, ``_do_<phase>``
applies one — reached through one table (:data:`PHASES`), as in OpenSpiel's gin rummy.  Meld
arithmetic lives in :mod:`meldkit.kernel.melds`, scoring in :mod:`meldkit.kernel.scoring`;
neither touches the state.

>>> import meldkit
>>> g = meldkit.new_game("gin_rummy", players=2, seed=1, options={"first_player": 0})
>>> g.phase, [str(a) for a in g.legal_actions()]
('first_upcard', ['take', 'pass'])
>>> g.apply("pass"); g.apply("pass"); g.apply("draw")
>>> g.phase
'discard'
"""

from __future__ import annotations

import collections
import json
import random
import secrets
from typing import Any, Callable, ClassVar

import attrs

from .._actions import Action
from .._cards import (
    JOKER_KIND,
    RANKS,
    SUITS,
    card_code,
    deck_card_kinds,
    kind_of_code,
    kinds_matching,
    pack_deck_kinds,
    rank_index,
    rank_of_kind,
    run_order,
    with_article,
)
from .._checks import check_seat
from .._errors import NotationError, PluginError, SaveError, SetupError
from .._game import GameState, call_hook, plugin_rescored
from .._liveness import IDLE_ENDINGS, no_progress
from .._rules import BAN_WAITS, SEQ
from .._rules import WILD as WILD_SLOT
from .._stacking import KindsLeft, check_deck_order, check_named, renewed_stock
from ..notation import KIND_ORDER, MELD_ORDER, Dialect, Span, table_dialect
from ..records import HandResult
from .melds import (MOST_LISTED_MELDS, Match, MeldKind, TooManyMelds, hand_bits, meld_rules,
                    melds_holding, shown_deadwood, unmelded_value)
from .scoring import (COUNTED, VOID_ENDINGS, KnockTerms, TableFinal, TableScore,
                      compile_items, score, table_items, table_listed)
from .sheets import Ledger, sheet_rules, sheet_summary, shutout_bonus

FIRST_UPCARD = "first_upcard"
DRAW = "draw"
PLAY = "play"
DISCARD = "discard"
KNOCK = "knock"
LAYOFF = "layoff"
WALL = "wall"
BUY = "buy"
TURNED = "turned"
OVER = "over"

_SIMPLE = ("draw", "take", "pass", "done", "knock", "buy", "withdraw", "drop")
TABLE_VERBS = frozenset({*_SIMPLE, "meld", "add", "discard", "trade", "break", "restore"})
"""The table kernel's own action verbs (a plugin's action verb may not be one)."""


# --------------------------------------------------------------------------- compiled rules


def _without_layable_discards(actions: list[Action]) -> list[Action]:
    """``actions`` less the discards of a card that one of them lays off
    (``pile.discard_layable: false``); all of them when that would leave none."""
    layable = {a.cards[0] for a in actions if a.type == "add"}
    if not layable:
        return actions
    kept = [a for a in actions if not (a.type == "discard" and a.cards[0] in layable)]
    return kept or actions


class TableRules:
    """A table-meld pack compiled for the hot path (built once per pack, cached)."""

    meld_model = "table"
    """The meld model these rules are for (what a scoring item's builder asks)."""

    _cache: ClassVar[dict[str, TableRules]] = {}
    _CACHE_MAX = 64

    def __init__(self, pack) -> None:
        from .._rules import OpeningMinimum, Rules

        spec = pack.spec
        self.spec = spec
        self.name = pack.name
        self._pack = pack
        wild: set[int] = set()
        for sel in spec.cards.wild:
            wild |= kinds_matching(sel)
        self.wild = frozenset(wild)
        self.values = Rules._values(spec.cards.values, {})
        self.kinds = tuple(
            MeldKind(name=k.name or k.type, type=k.type, min_size=k.min_size,
                     max_size=k.max_size, ace=k.ace, max_wilds=k.max_wilds,
                     wilds_adjacent=k.wilds_adjacent, all_wild=k.all_wild,
                     distinct_suits=k.distinct_suits,
                     wild_natural_in_place=k.wild_natural_in_place, mixed_suits=k.mixed_suits)
            for k in spec.melds.kinds
        )
        order = run_order(spec.deck)  # deck.run_gaps: skip — the kept ranks are adjacent
        self.melds = meld_rules(self.kinds, self.wild, self.values, order)
        self.style = spec.scoring.style
        kn = spec.knock
        self.knock = kn.max_deadwood
        self.terms = KnockTerms(kn.gin_bonus, kn.big_gin_bonus, kn.undercut_bonus,
                                kn.tie_is_undercut, kn.settle)
        self.lay_off = spec.melds.lay_off.onto
        self.max_per_end = spec.melds.lay_off.max_per_end
        self.within_max_size = spec.melds.lay_off.within_max_size
        """Whether lay-offs keep a meld within its kind's ``max_size``."""
        self.wilds_stay = spec.melds.lay_off.wilds_stay
        """Whether a wild card in a run keeps its place (``melds.lay_off.wilds_stay``)."""
        self.win_back = (spec.melds.lay_off.win_back and self.lay_off != "none"
                         and kn.max_deadwood is None)
        """Whether a wild card on the table may be won back (``melds.lay_off.win_back``:
        ``trade 6H to m3``); computed once, so other packs never look for trades."""
        self.rearrange = spec.melds.rearrange
        """Whether a player may break the table's melds and lay their cards anew
        (``melds.rearrange``)."""
        self.restores = spec.melds.restores
        """How many times a player may restore the table in one turn (``melds.restores``)."""
        self.play_or_draw = spec.turn.play_or_draw
        """Whether a turn is to play or to draw, with no discard (``turn.play_or_draw``)."""
        self.no_discard = self.play_or_draw or not spec.turn.discard
        """Whether the pack has no discard pile: the turn ends with ``done``
        (``turn.discard: false``, or ``turn.play_or_draw``)."""
        self.take = spec.pile.take
        self.offer_upcard = spec.pile.first_upcard == "offer"
        self.discard_taken = spec.pile.discard_taken_card
        self.discard_layable = spec.pile.discard_layable
        self.requires_discard = spec.going_out.requires_discard
        self.meld_out = not (spec.going_out.requires_discard or spec.going_out.by_discard)
        """Whether going out means melding or laying off every card, never a discard
        (``going_out.by_discard: false``): a discard never empties the hand, and no play
        leaves a single card that cannot then be laid off."""
        self.wild_ranks = tuple(RANKS[r] for r in sorted({rank_of_kind(k) for k in self.wild}))
        """The ranks wild in the deals these rules are for, in rank order (the view's
        ``wild``)."""
        self.last_turns = spec.going_out.last_turns
        """``going_out.last_turns``: after a player goes out, each other player takes one
        more turn before the hand ends."""
        self.when_empty = spec.stock.when_empty
        self.empty_winner = spec.stock.empty_winner
        """Who wins a hand ended on an empty stock (``stock.empty_winner``)."""
        self.taken_new_meld = spec.pile.taken_new_meld
        """Whether a card owed at once goes into a new meld only (``pile.taken_new_meld``)."""
        self.wall = spec.stock.wall
        self.wall_knock = spec.stock.wall_knock_with_upcard
        self.turn_limit = spec.game.hand_turn_limit
        self.openspiel_knock = kn.test == "openspiel"
        self.knock_before_draw = kn.before_draw and kn.max_deadwood is not None
        """Whether a player may knock at the start of their turn, before drawing, on the
        hand they hold (``knock.before_draw``), as well as after drawing."""
        self.knock_after_draw = kn.after_draw
        """Whether a player may knock after drawing, with a discard (``knock.after_draw``;
        false only with ``before_draw``)."""
        self.take_limit = kn.pile_take_limit
        self.returned_limit = kn.returned_card_limit
        names = {k.name: i for i, k in enumerate(self.kinds)}
        self.contract = tuple(sorted(names[k] for k in spec.initial_meld.melds))
        """The contract: the kind index of each meld a player's opening must hold (sorted);
        empty: a player may meld at once."""
        self.contract_melds = (meld_rules(tuple(self.kinds[i] for i in sorted(set(
            self.contract))), self.wild, self.values, order) if self.contract else self.melds)
        """The meld arithmetic of the contract's kinds alone (what a player who has not
        opened builds toward: the greedy policy's measure)."""
        self.contracts = tuple(tuple(sorted(names[k] for k in c))
                               for c in spec.initial_meld.contracts)
        """``initial_meld.contracts``: each player's contracts in order, as :attr:`contract`
        (empty: every player has the deal's own)."""
        self.contracts_melds = tuple(
            meld_rules(tuple(self.kinds[i] for i in sorted(set(c))), self.wild, self.values,
                       order) for c in self.contracts)
        self.minimum = OpeningMinimum(spec.initial_meld)
        """The points a player's opening melds must total (``initial_meld.minimums``, per
        score tier, player count or hand)."""
        self.all_at_once = spec.initial_meld.all_at_once
        self.has_opening = (bool(self.contract) or bool(self.contracts) or bool(self.minimum)
                            or self.all_at_once)
        """Whether a player's first melds must meet a condition (a contract, a minimum)."""
        self.lay_off_before = spec.initial_meld.lay_off_before or not self.has_opening
        self.melds_after = spec.initial_meld.melds_after or not self.has_opening
        self.lay_off_waits = not spec.initial_meld.lay_off_same_turn and self.has_opening
        self.take_before = spec.initial_meld.take_before or not self.has_opening
        self.wild_as_card = spec.initial_meld.wild_as_card
        self.low_ace = spec.initial_meld.low_ace if self.minimum else None
        """What an ace at the low end of a run counts toward the opening minimum
        (``initial_meld.low_ace``; None: its value)."""
        self.opening_values = self.values if self.low_ace is None else tuple(
            max(v, self.low_ace) if k < 4 else v for k, v in enumerate(self.values))
        """The most each card kind may count toward the opening minimum (an ace its value
        or ``low_ace``): the bound by which the search for an opening prunes."""
        self.taken_melded = spec.pile.taken_melded
        # --- books: melds of books.size cards or more, of the first books.kinds they match
        from .._rules import book_kind_rules

        self.book_size = spec.books.size
        self.book_kinds = book_kind_rules(spec.books.kinds)
        first = {k.name: k.index for k in reversed(self.book_kinds)}
        needed: dict[int, int] = {}
        for name in spec.going_out.required_books:
            needed[first[name]] = needed.get(first[name], 0) + 1
        self.required_book_counts = tuple(sorted(needed.items()))
        self.min_books = spec.going_out.min_books
        self.min_books_by_players = dict(spec.going_out.min_books_by_players)
        self.needs_books = bool(needed) or self.min_books > 0 or any(
            self.min_books_by_players.values())
        """Whether going out needs the side to hold books (``going_out.min_books``,
        ``required_books``): a play may then empty the hand only once they are held."""
        items = [(d["item"], {k: v for k, v in d.items() if k != "item"})
                 for d in spec.scoring.items]
        self.items = (compile_items(table_listed(spec.scoring.items, self.terms), self)
                      if items else table_items(self.style, self.terms))
        """The hand's scoring items: ``scoring.items`` (then the plugin and game-end items),
        or the style's preset."""
        sheets = spec.scoring.sheets
        self.sheet_items = tuple(
            None if sh.items is None else compile_items(table_listed(sh.items, self.terms), self)
            for sh in sheets)
        """Each score sheet's own items (None: it counts the hand's), ``scoring.sheets``."""
        items += [(d["item"], {k: v for k, v in d.items() if k != "item"})
                  for sh in sheets for d in sh.items or ()]  # what the state must track
        self.tracks_laid = any(name == "laid" for name, _ in items)
        """Whether the state keeps what each player lays (the ``laid`` item reads it)."""
        self.laid_as_card = any(name == "laid" and params.get("wilds") == "as_card"
                                for name, params in items)
        """Whether a wild card laid counts as the card it stands for (``laid``'s
        ``wilds: as_card``)."""
        self.tracks_at_once = any(params.get("when") == "out_at_once" for _, params in items)
        """Whether the state keeps the turn each player first laid cards that stay on the
        table (``first_laid``: a ``multiply`` item's ``when: out_at_once`` reads it; saves
        keep it also where lay-offs wait for the turn after opening, ``lay_off_waits``)."""
        self.counts_unmelded = tuple(sorted({params["count"] for _, params in items
                                             if params.get("count", "all") != "all"}))
        """What the hand's record keeps per player beside the cards they hold: the value of
        those they cannot meld (``count: unmelded``, ``unmelded_with_contract``)."""
        self.draws_more = spec.turn.draw > 1 or any(
            n > 1 for n in spec.turn.draw_by_players.values())
        """Whether a stock draw may take more than one card (``turn.draw``)."""
        self.drop = tuple(spec.turn.drop)
        """``(in the first round, later)``: what a player who drops scores against (empty:
        no dropping)."""
        self.eliminate_above = spec.game.eliminate_above
        self.rejoin = spec.game.rejoin
        """``game.rejoin`` (a :class:`meldkit._schema.RejoinSpec`), or None."""
        self.may_sit_out = (bool(self.drop) or self.eliminate_above is not None
                            or spec.going_out.last_turns)
        """Whether a seat can be out of a hand (dropped, or gone out before the last turns)
        or of the game (eliminated)."""
        self.buy_limit = spec.pile.buy_limit
        self.buy_penalty = spec.pile.buy_penalty
        self.buy_opened = spec.pile.buy_after_opening
        """Whether a player who has opened may still buy (``pile.buy_after_opening``)."""
        self.reserve = spec.deal.reserve
        """Cards in each reserve pile (``deal.reserve``; 0: none)."""
        self.reserve_side = spec.deal.reserve_per == "side"
        self.tracks_books = self.needs_books or any(name == "books" for name, _ in items)
        self.book_adds = tuple(k.adds or "any" for k in spec.books.kinds)
        """Per book kind, what its books still take (``books.kinds[].adds``; books keep
        growing where it is not given)."""
        self.restricts_books = any(a != "any" for a in self.book_adds)
        self.discard_ban_of: dict[int, tuple[str, ...]] = {}
        """Card kind → the conditions each ban on discarding it waits for
        (``pile.discard_bans``: banned while one of them does not hold)."""
        for ban in spec.pile.discard_bans:
            for sel in ban.cards:
                for k in kinds_matching(sel):
                    self.discard_ban_of[k] = self.discard_ban_of.get(k, ()) + (ban.unless,)
        self.discard_bans = bool(self.discard_ban_of)
        self.all_banned_pass = spec.pile.all_banned == "pass"
        """Whether the hand's record keeps each player's books (the ``books`` item)."""
        t = spec.turn
        self.turns_stock = t.stock_card == "turned"
        """Whether a stock draw turns its card face up, never into the hand
        (``turn.stock_card: turned``: the ``turned`` phase)."""
        self.pass_next = t.turned_passes == "next"
        self.forced_turned = "turned" in t.forced
        self.forced_discard = "discard" in t.forced
        """Whether the player to draw must take (and use) a top discard they can use at
        once (``turn.forced: [discard]``)."""
        self.turned_wild = spec.cards.turned_wild
        """``cards.turned_wild``: ``none``, or how the card turned at each deal names the
        deal's wild rank (``rank``, ``next_rank``)."""
        self.wild_rank: int | None = None
        """The deal's wild rank (rules of one deal of a ``turned_wild`` pack, from
        :meth:`with_wild`: its actions name that rank's cards by role), else None."""
        self._wild_variants: dict[int, TableRules] = {}
        # --- plugin rule hooks: a pack without them keeps the plain phase table, so a
        # decision costs what it costs without plugins
        from .._registry import plugin_for

        self.plugin = plugin_for(pack)
        """The pack's rule-hook plugin (its ``actions``, ``adjust_scores``, ``view``), or
        None."""
        hooks = tuple(self.plugin.actions()) if self.plugin is not None else ()
        for problem in hook_problems(spec, self.plugin):
            raise SetupError(problem)  # the loader refuses these first, at ``plugin:``
        self.hooks = {h.verb: h for h in hooks}
        """Action hooks by verb."""
        self.hook_shapes = {h.verb: (h.cards, h.target) for h in hooks}
        """Verb → (cards it names, whether it names a meld): for the parser."""
        self.phase_hooks = {ph: tuple(h for h in hooks if h.phase == ph) for ph in PHASES}
        """Phase → the action hooks played in it."""
        self.phase_methods = {ph: _HOOKED if self.phase_hooks[ph] else pair
                              for ph, pair in PHASES.items()
                              if (ph != BUY or self.buy_limit) and (ph != TURNED
                                                                    or self.turns_stock)}
        """Phase → its ``(legal, do)`` method names: :data:`PHASES`, but a phase with
        action hooks lists and applies them too."""
        self.phase_table = {ph: (getattr(TableModel, legal), TableModel._check,
                                 getattr(TableModel, do))
                            for ph, (legal, do) in self.phase_methods.items()}
        self.phase_table[OVER] = (_nothing, _over_reason, None)
        """Phase → its ``(legal, check, do)`` functions, the rooms
        :class:`~meldkit.kernel.state.KernelState` dispatches to."""

    @classmethod
    def of(cls, pack) -> TableRules:
        """The compiled rules of ``pack`` (a bounded cache keyed by the pack's digest)."""
        key = pack.digest + pack.name
        rules = cls._cache.get(key)
        if rules is None:
            if len(cls._cache) >= cls._CACHE_MAX:
                cls._cache.pop(next(iter(cls._cache)))
            rules = cls._cache[key] = cls(pack)
        return rules

    def with_wild(self, rank: int) -> TableRules:
        """These rules for a deal whose turned card made ``rank`` wild
        (``cards.turned_wild``): the pack with that rank added to ``cards.wild``, its
        actions naming the rank's cards by role (``*C`` …); built once per rank."""
        found = self._wild_variants.get(rank)
        if found is None:
            spec = self.spec
            cards = attrs.evolve(spec.cards, wild=[*spec.cards.wild, RANKS[rank]])
            pack = attrs.evolve(self._pack, spec=attrs.evolve(spec, cards=cards),
                                digest=f"{self._pack.digest}+wild:{rank}")
            found = TableRules(pack)
            found.wild_rank = rank
            found.phase_table = {ph: _by_role(*fns) for ph, fns in found.phase_table.items()}
            self._wild_variants[rank] = found
        return found

    def wild_rank_of(self, kind: int) -> int | None:
        """The rank a card of ``kind`` turned at the deal makes wild (``cards.turned_wild``;
        None for a joker, which is set aside and another turned)."""
        if kind == JOKER_KIND:
            return None
        r = rank_of_kind(kind)
        if self.turned_wild == "rank":
            return r
        kept = sorted({rank_of_kind(k) for k in deck_card_kinds(self.spec.deck)})
        return kept[(kept.index(r) + 1) % len(kept)]

    def hand_size(self, players: int) -> int:
        """Cards dealt to each hand for a table of ``players``."""
        return self.spec.deal.hand_by_players.get(players, self.spec.deal.hand)

    def draw_for(self, players: int) -> int:
        """Cards a stock draw takes for a table of ``players`` (``turn.draw``,
        ``turn.draw_by_players``; fewer when the stock holds fewer)."""
        return self.spec.turn.draw_by_players.get(players, self.spec.turn.draw)

    def deck_kinds(self, players: int) -> list[int]:
        """The kind of every physical card, by card id (``deck.decks_by_players`` first)."""
        return pack_deck_kinds(self.spec.deck, players)

    def first_seat(self, key: str, players: int, rule: str) -> int:
        """The seat that starts a hand, drawn with the RNG ``key``: at random (left of a
        dealer drawn by lot), or with ``rule`` ``high_card`` the player who draws the
        highest card of ``deal.high_card_order`` from the deck (any other rank, or a tie,
        draws again)."""
        rng = random.Random(key)
        if rule != "high_card":
            return rng.randrange(players)
        place = {rank_index(c): i for i, c in enumerate(self.spec.deal.high_card_order)}
        kinds = self.deck_kinds(players)
        while True:
            places = [place.get(rank_of_kind(kinds[rng.randrange(len(kinds))]), 99)
                      for _ in range(players)]
            best = min(places)
            if best != 99 and places.count(best) == 1:
                return places.index(best)

    def target_for(self, players: int) -> int:
        """The game's target for a table of ``players`` (``game.target_by_players``)."""
        return self.spec.game.target_by_players.get(players, self.spec.game.target)


# --------------------------------------------------------------------------- actions

_ACTION_CACHE: dict[tuple, Action] = {}
_ACTION_CACHE_MAX = 50_000


_CODES = (*map(card_code, range(JOKER_KIND + 1)), *("*" + s for s in SUITS))
"""The notation of each card kind in an action: its code, or ``*`` and a suit for a role
(kinds 53 … 56: ``*C`` … ``*S``, the wild card of each suit of a deal's turned wild rank,
``cards.turned_wild``, so that an action's id is the same in every deal)."""


def _action(type_: str, cards: tuple[int, ...] = (), target: int = -1) -> Action:
    """The interned action (only actions the engine builds are interned)."""
    key = (type_, cards, target)
    a = _ACTION_CACHE.get(key)
    if a is None:
        a = Action(type_, cards, target, _text(type_, cards, target))
        if len(_ACTION_CACHE) < _ACTION_CACHE_MAX:
            _ACTION_CACHE[key] = a
    return a


def _lookup(type_: str, cards: tuple[int, ...] = (), target: int = -1) -> Action:
    """The interned action if the engine has built it, else a new one (parsed text is
    looked up, never interned, so text never fills the cache)."""
    a = _ACTION_CACHE.get((type_, cards, target))
    if a is None:
        a = Action(type_, cards, target, _text(type_, cards, target))
    return a


def _text(type_: str, cards: tuple[int, ...], target: int) -> str:
    """An action's notation: ``add 7H to m3``, and ``break m3`` (a meld broken up,
    ``melds.rearrange``)."""
    parts = [type_, *map(_CODES.__getitem__, cards)]
    if target >= 0:
        parts += [f"m{target}"] if type_ == "break" else ["to", f"m{target}"]
    return " ".join(parts)


_DIALECTS: dict[tuple, Dialect] = {}


def _dialect(hooks: dict[str, tuple[int | None, bool]] | None) -> Dialect:
    """The table dialect with these plugin verbs (built once for each set of them)."""
    key = tuple(hooks.items()) if hooks else ()
    d = _DIALECTS.get(key)
    if d is None:
        if len(_DIALECTS) >= 64:
            _DIALECTS.clear()
        d = _DIALECTS[key] = table_dialect(hooks)
    return d


def _meld_order(state: Any, cards: tuple[int, ...]) -> tuple[int, ...]:
    """The cards of a meld in canonical order — as the meld would lie (a set by suit, wild
    cards last; a run low to high, each wild card where it stands), as legal generation
    lists them; by kind when they form no meld (or with no game to say which)."""
    if state is not None and len(cards) > 1 and max(cards) <= JOKER_KIND:  # (not by role)
        m = state.rules.melds.match(cards)
        if m is not None:
            return m.cards
    return tuple(sorted(cards))


def _meld_of_span(state: Any, span: Span, text: str) -> int:
    """The id of the one run on the table whose ends are those the span names."""
    word = span.word
    if state is None:
        raise NotationError("notation/meld-id", f"{word!r} names a run by its ends, which "
                            "only a game can tell: name the meld by its id (m1, m2 …)", text)
    suit, low, high = span.low & 3, span.low >> 2, span.high >> 2
    rank_at = state.rules.melds.rank_at
    found = [m.id for m in state.melds if m.match.suit == suit
             and rank_at(m.match.low) == low and rank_at(m.match.high) == high]
    if not found:
        raise NotationError("notation/no-such-meld", f"no run on the table is {word}", text)
    if len(found) > 1:
        ids = ", ".join(f"m{i}" for i in found)
        raise NotationError("notation/ambiguous-meld",
                            f"{len(found)} runs on the table are {word} ({ids}): name one by "
                            "its id", text)
    return found[0]


def parse_table_action(text: str | Action,
                       hooks: dict[str, tuple[int | None, bool]] | None = None,
                       state: Any = None) -> Action:
    """Parse table-meld notation (``meld 4H 5H 6H``, ``add 7H to m3``, ``discard 10C``,
    ``take``, ``take 5H``, ``draw``, ``pass``, ``knock``, ``done``) in the table dialect
    (:func:`meldkit.notation.table_dialect`): the canasta spelling of a run is an alias
    (``run 4H 5H 6H`` is ``meld 4H 5H 6H``; ``extend 7H to 4H-6H`` and ``add 7H to 4H-6H``
    are ``add 7H to m<id>`` of the one run on ``state``'s table with those ends).

    A meld's cards may be written in any order: they are put in canonical order — as
    ``state``'s meld rules lay them, by kind without a state — before the action is looked
    up.  ``hooks`` maps a plugin's action verbs to their shapes (how many cards, whether the
    action names a meld): ``bury 9H``, ``swap 9H to m2`` — card codes with suits, a meld by
    its id, cards in canonical order (by card kind), as the kernel's own actions.

    >>> str(parse_table_action("add 7h to M3")), parse_table_action("meld 6H 4H 5H").cards
    ('add 7H to m3', (14, 18, 22))
    >>> str(parse_table_action("BURY 9h", {"bury": (1, False)}))
    'bury 9H'
    >>> str(parse_table_action("run 5h 4h 6h"))
    'meld 4H 5H 6H'
    """
    if isinstance(text, Action):
        if (type(text[0]) is not str or type(text[1]) is not tuple or type(text[2]) is not int
                or not all(type(c) is int and 0 <= c <= JOKER_KIND + 4 for c in text[1])):
            raise NotationError("notation/bad-action", "not a well-formed action", text)
        return _action(text[0], text[1], text[2])
    if not isinstance(text, str):
        raise NotationError("notation/not-text",
                            f"an action is notation text or an Action, not {type(text).__name__}")
    p = _dialect(hooks).parse(text)
    cards = p.cards
    if p.order == MELD_ORDER:
        cards = _meld_order(state, cards)
    elif p.order == KIND_ORDER:
        cards = tuple(sorted(cards))
    target = p.target
    if isinstance(target, Span):
        target = _meld_of_span(state, target, text)
    return _lookup(p.verb, cards, target)


class TableActions:
    """Builds the table kernel's interned actions: ``state.actions`` for a plugin's
    ``legal`` (as :class:`meldkit._actions.ActionSpace` is in the canasta kernel).

    Cards are card kinds (``kind_of_code("9H")``), in canonical order — by kind, which
    :meth:`canonical` gives; ``target`` is a meld id (``m3`` → 3) or -1.

    >>> str(TABLE_ACTIONS.get("bury", (kind_of_code("9H"),)))
    'bury 9H'
    """

    __slots__ = ()

    @staticmethod
    def get(type: str, cards: tuple[int, ...] = (), target: int = -1) -> Action:
        """The interned action (the parser returns the same object for its notation)."""
        return _action(type, tuple(cards), target)

    lookup = get

    @staticmethod
    def canonical(cards) -> tuple[int, ...]:
        """Card kinds in canonical order (by kind)."""
        return tuple(sorted(cards))

    interned = staticmethod(_ACTION_CACHE.get)
    """The interned action equal to ``action``, or None (the interner's own lookup)."""


TABLE_ACTIONS = TableActions()
"""The one :class:`TableActions` (it holds nothing: actions are interned module-wide)."""

_DISCARD = tuple(_action("discard", (k,)) for k in range(JOKER_KIND + 1))
"""``discard <card>`` for every card kind, built once."""
def _at_an_end(run: Match, grown: Match) -> bool:
    """Whether ``grown`` is the run ``run`` with one card more at an end, every card of it
    in the place it held (a wild card not moved)."""
    cards = run.cards
    return (grown.cards[:-1] == cards and grown.low == run.low) or (
        grown.cards[1:] == cards and len(grown.cards) == len(cards) + 1
        and grown.low != run.low)


_RENEWING = ("turn_pile", "shuffle_pile")
"""The ``stock.when_empty`` values that renew the stock from the pile."""

_DRAW, _TAKE, _PASS, _DONE, _KNOCK, _BUY, _WITHDRAW, _DROP = (
    _action(t) for t in ("draw", "take", "pass", "done", "knock", "buy", "withdraw", "drop"))
_RESTORE = _action("restore")
_TURN_TYPES = frozenset({"break", "restore", "draw", "done"})
"""The play phase's actions of ``melds.rearrange`` and ``turn.play_or_draw`` (``pass``
there too, which :meth:`TableModel._do_play` also plays for ``pile.all_banned``)."""
_NONE_DROPPED = {n: [None] * n for n in range(1, 65)}
"""A table's ``dropped`` when nobody has dropped (compared whole: one C-level check)."""


# --------------------------------------------------------------------------- the state


TableHandResult = HandResult
"""A table-meld hand's record: :class:`meldkit.records.HandResult` (the one shape), with
:class:`TableScore` lines and a :class:`TableFinal`; ``ended_by`` is ``went_out``,
``knock``, ``gin``, ``big_gin``, ``undercut`` — or a void hand: ``wall``, ``stock_empty``,
``limit``, ``turn_limit``; ``net`` is zero-sum."""


def _table_score(s: dict) -> TableScore:
    return TableScore(s["team"], tuple((str(a), int(b)) for a, b in s["items"]),
                      tuple(str(k) for k in s.get("book_kinds", ())))


def table_hand_from_dict(d: dict) -> HandResult:
    """A table-meld hand's record read back from a save (``to_dict``'s data)."""
    final = TableFinal.from_dict(d["final"])
    if not isinstance(final.ext, dict):
        raise TypeError("final.ext is plugin data: an object")
    final = attrs.evolve(final, hand_number=d["hand_number"])  # the record's number
    return HandResult.from_dict(d, _table_score, lambda _: final)


class TableMeld:
    """A meld on the table: its id (``m3``), owner seat, cards and shape."""

    __slots__ = ("id", "owner", "cards", "match", "low_ext", "high_ext", "fits", "places")

    def __init__(self, id: int, owner: int, cards: list[int], match: Match,
                 low_ext: int = 0, high_ext: int = 0):
        self.id = id
        self.owner = owner
        self.cards = cards
        self.match = match
        self.low_ext = low_ext
        self.high_ext = high_ext
        self.fits: dict[int, Any] = {}
        """Memo: how each card kind grows this meld (None: it does not fit)."""
        self.places: tuple[Match, list[int] | None] | None = None
        """Memo: a match and the places a save holds for it (None: read back alike)."""

    def copy(self) -> TableMeld:
        m = TableMeld(self.id, self.owner, self.cards[:], self.match, self.low_ext,
                      self.high_ext)
        m.fits = self.fits  # shared: a meld that changes gets a new memo
        return m


_last_deck: tuple = (None, False)
"""The last deck asked of :func:`_own_kinds` and its answer (replaced whole)."""


def _own_kinds(kind_of: list[int]) -> bool:
    """Whether every card of the deck ``kind_of`` (a game's, never changed) is its own
    kind: card id ``k`` is the one card of kind ``k`` (gin's deck)."""
    global _last_deck
    last = _last_deck
    if last[0] is not kind_of:
        last = _last_deck = (kind_of, kind_of == list(range(len(kind_of))))
    return last[1]


OPENING_SEARCH_WORK = 1_000
"""Most positions visited and melds listed by the search for an opening after one candidate
move (:meth:`TableModel._opens_after`: a take, or a meld toward the opening): past it the
search answers no for that move."""

OPENING_MOVE_WORK = 10_000
"""Most work of all the searches made while one move's legal actions are listed (each
candidate its own :data:`OPENING_SEARCH_WORK` within it): past it they answer no, so that a
hostile pack's huge hand (a deep take under a tall pile, many wild cards) cannot stall a
move, while one candidate's long search leaves the next its own budget."""


class _SearchCut(Exception):
    """A search for an opening past its budget."""


class _OpeningSearch:
    """The memo of the searches for an opening made for one move's legal actions: the
    positions found to make no opening (``failed``), the work done so far (``work``, at
    most :data:`OPENING_MOVE_WORK`), where the current candidate's search stops
    (``limit``), and whether a search was cut short (``cut``: its no is not a proof)."""

    __slots__ = ("cut", "failed", "limit", "work")

    def __init__(self) -> None:
        self.failed: set = set()
        self.work = 0
        self.limit = OPENING_SEARCH_WORK
        self.cut = False

    def next_candidate(self) -> bool:
        """Give the next candidate move its own budget; False once the move's is spent."""
        if self.work >= OPENING_MOVE_WORK:
            self.cut = True
            return False
        self.limit = min(self.work + OPENING_SEARCH_WORK, OPENING_MOVE_WORK)
        return True


class TableModel:
    """The table-meld model of :class:`~meldkit.kernel.state.KernelState`: melds with ids
    and owners checked by :class:`~meldkit.kernel.melds.MeldRules`, lay-offs onto them,
    knocking and deadwood, for every pack that declares ``melds.kinds`` (rummy, gin …).

    Not a class of its own games: its methods run on a ``KernelState`` whose ``model`` is
    this class (the state holds the data, the model the behaviour)."""

    __slots__ = ()
    NAME = "table"
    """What :attr:`KernelState.meld_model` says of a game of this model."""

    SLOTS = ("rules", "kind_of", "hands", "stock", "pile", "melds", "next_meld",
                 "hand_first", "passes", "knocker", "knock_value", "knock_discarded",
                 "layoff_stage", "defenders", "taken", "must_use", "pile_takes",
                 "returned_in_row", "turns", "wins", "multiplier", "ext",
                 "opened", "pending", "withdrew", "buys", "buy_for", "discarder", "laid",
                 "dropped", "eliminated", "first_laid", "reserves", "reserve_taken",
                 "turned", "turned_passes", "indicator", "loose", "formed", "before",
                 "restored", "turn_hand", "start", "last")
    """The state fields this model keeps (slots of ``KernelState``); ``state.actions``
    is :data:`TABLE_ACTIONS`, which builds interned actions for a plugin's ``legal``
    (``state.actions.get(verb, cards, target)``)."""

    PROGRESS_TYPES: ClassVar[frozenset[str]] = frozenset({"meld", "add"})
    """The actions that move a hand forward (a random bot melds first); taking the discard
    does not, in rummy and gin."""

    @staticmethod
    def greedy_policy(state, memory=None) -> Action:
        """The greedy bot's choice (:func:`meldkit.kernel.policy.greedy_table_choice`);
        ``memory``: a :class:`~meldkit.kernel.policy.TableMemory` the bot keeps."""
        from .policy import greedy_table_choice

        return greedy_table_choice(state, memory)

    @staticmethod
    def greedy_memory():
        """A fresh memory for :meth:`greedy_policy` (one per player)."""
        from .policy import TableMemory

        return TableMemory()

    # ------------------------------------------------------------------ creation
    @classmethod
    def _new(cls, pack, players: int, seed: int | None, options: dict | None,
             deck_order: list[str] | None) -> GameState:
        s = cls.__new__(cls)
        s.model, s.actions = TableModel, TABLE_ACTIONS
        if seed is None:
            seed = secrets.randbits(128)
        s._setup(pack, players, seed, options, deck_order)
        s.rules = TableRules.of(pack)
        s.plugin, s.phases = s.rules.plugin, s.rules.phase_table
        s.kind_of = s.rules.deck_kinds(players)
        if deck_order:
            s._check_stack(deck_order)
        s.hand_number = 0
        s.wins = [0] * s.n_teams
        s.eliminated = [False] * players  # out of the game (game.eliminate_above)
        s.ext = {}
        first = s.options.get("first_player")
        if first is None:
            first = s.rules.first_seat(f"meldkit:{s.seed}:first", players,
                                       s.rules.spec.deal.first_player)
        s._deal(first)
        return s

    @classmethod
    def stack_deck(cls, pack, players: int, hands: dict[int, list[str]], stock: list[str],
                   first_player: int = 0, upcard: str | None = None,
                   reserves: dict[int, list[str]] | None = None, deal: int = 1) -> list[str]:
        """A ``deck_order`` dealing ``hands`` (seat → card codes), then ``reserves`` (each
        seat's reserve pile, or each side's where the pack deals one a side: side → card
        codes), then ``upcard``, then ``stock`` from the top (what
        :func:`meldkit.testing.stack_deck` calls).  Hands and piles are filled up with cards
        not named, each chosen so that it makes no meld with the hand (or pile)."""
        rules = TableRules.of(pack.for_deal(deal))  # the deal's (a schedule's own)
        stacked = KindsLeft(rules.deck_kinds(players))
        left, take = stacked.left, stacked.take
        size = rules.hand_size(players)
        check_named("hand", hands, size, players)
        named = {seat: [take(c, f"hand of seat {seat}") for c in codes]
                 for seat, codes in hands.items()}
        holders, whose = 0, "seat"
        if rules.reserve:  # the piles, as _deal deals them: one a seat, or one a side
            holders = players
            if rules.reserve_side:
                from .._seating import seating

                holders, whose = seating(rules.spec.players, pack.name, players, None)[1], "side"
        elif reserves:
            raise SetupError(f"pack {pack.name!r} deals no reserves")
        reserves = reserves or {}
        for h in reserves:
            if not isinstance(h, int) or not 0 <= h < holders:
                raise SetupError(f"reserves: {h!r} is not a {whose} 0..{holders - 1}")
        check_named("reserve", reserves, rules.reserve)
        piles = {h: [take(c, f"reserve of {whose} {h}") for c in codes]
                 for h, codes in reserves.items()}
        up = [take(upcard, "upcard")] if upcard else []
        top = [take(c, "stock") for c in stock]
        # fillers: ranks three apart, suits in turn, and never a card that melds with the hand
        # (where every card left would, the one in the fewest melds: a pack of pairs, say)
        order_ = sorted((k for k in left if k != JOKER_KIND and k not in rules.wild),
                        key=lambda k: ((k // 4 * 3) % 13, k % 4))

        def filled(cards: list[int], n: int) -> list[str]:
            cards = list(cards)
            while len(cards) < n:
                pick, fewest = None, 0
                for k in order_:
                    if left[k] <= 0:
                        continue
                    melds = sum(k in m for m in rules.melds.melds_in(
                        cards + [k], most=MOST_LISTED_MELDS))
                    if pick is None or melds < fewest:
                        pick, fewest = k, melds
                    if not melds:
                        break
                if pick is None:
                    raise SetupError("the deck has run out of filler cards: the cards not "
                                     "named fill the rest, but never a wild card or a "
                                     "joker, so name those somewhere (a hand, a reserve, "
                                     "the stock) when the named cards take most of the "
                                     "others")
                left[pick] -= 1
                cards.append(pick)
            return [card_code(k) for k in cards]

        out: list[str] = []
        for i in range(players):
            out += filled(named.get((first_player + i) % players, []), size)
        for h in range(holders):
            out += filled(piles.get(h, []), rules.reserve)
        if rules.spec.deal.upcard:
            if not up:
                pick = next(k for k in order_ if left[k] > 0)
                left[pick] -= 1
                up = [pick]
            out.append(card_code(up[0]))
        elif up:
            raise SetupError(f"pack {pack.name!r} turns no upcard")
        return out + [card_code(k) for k in top]

    def _check_stack(self, deck_order: list[str]) -> None:
        check_deck_order(self.kind_of, deck_order)

    def _deals_again(self) -> bool:
        return True

    def _first_dealt(self) -> int:
        return self.hand_first

    def _deal(self, first: int) -> None:
        """Shuffle and deal a new hand with ``first`` to act."""
        self.hand_number += 1
        if self.pack.deals:  # a schedule: this deal's own settings
            self.rules = TableRules.of(self.pack.for_deal(self.hand_number))
            self.phases = self.rules.phase_table
        n = self.n_players
        ids = list(range(len(self.kind_of)))
        random.Random(f"meldkit:{self.seed}:hand:{self.hand_number}").shuffle(ids)
        stacked = self._stacked_for(self.hand_number)
        if stacked:
            by_kind: dict[int, list[int]] = {}
            for c in sorted(ids):
                by_kind.setdefault(self.kind_of[c], []).append(c)
            top = [by_kind[kind_of_code(code)].pop(0) for code in stacked]
            chosen = set(top)
            ids = top + [c for c in ids if c not in chosen]
        size = self.rules.hand_size(n)
        pos = 0
        self.hands = [[] for _ in range(n)]
        for i in range(n):
            seat = (first + i) % n
            if self.eliminated[seat]:
                continue  # out of the game: dealt nothing
            self.hands[seat] = ids[pos:pos + size]
            pos += size
        self.reserves, self.reserve_taken = [], []
        size = self.rules.reserve
        if size:  # face-down reserve piles, one a seat or one a side (deal.reserve_per)
            holders = self.n_teams if self.rules.reserve_side else n
            for h in range(holders):
                self.reserves.append(ids[pos:pos + size])
                pos += size
            self.reserve_taken = [False] * holders
        rest = ids[pos:]
        self.pile = []
        spec = self.rules.spec
        if spec.deal.upcard and rest:
            self.pile.append(rest[0])
            rest = rest[1:]
        self.stock = rest[::-1]  # top of the stock is the end of the list
        self.indicator = []
        if self.rules.turned_wild != "none":  # the card that names the deal's wild rank
            self._turn_wild_rank()
        self.melds = []
        self.next_meld = 1
        self.loose, self.formed, self.before, self.restored = [], [], None, 0
        self.start = None
        """``melds.rearrange``: the hand and the table at the start of the turn, kept at
        its first play by a player who may break melds (what ``restore`` brings back)."""
        self.hand_first = first
        self.current = first
        self.passes = 0
        self.knocker = None
        self.knock_discarded = False
        self.layoff_stage = 0
        self.defenders = []
        self.taken = None
        self.must_use = None
        self.turned, self.turned_passes = None, 0  # a card turned from the stock, its passes
        self.pile_takes = 0
        self.returned_in_row = 0
        self.turns = 0
        self.multiplier = 1
        self.opened = [not self.rules.has_opening] * n
        self.pending = []
        self.withdrew = False
        self.buys = [0] * n
        self.buy_for = None
        self.discarder = None
        self.laid = [[0, 0] for _ in range(n)]
        self.first_laid = [None] * n
        self.dropped = [None] * n
        self.last = None
        """``going_out.last_turns``, once a player has gone out: ``(the seat out first, the
        last turns still to play, the turn they went out in)``; None before."""
        kn = spec.knock
        self.knock_value = kn.max_deadwood
        if self.pile and (kn.from_upcard or kn.spade_upcard_doubles):
            up = self.kind_of[self.pile[-1]]
            if kn.from_upcard:
                v = self.rules.values[up]
                self.knock_value = 0 if up // 4 == 0 else v
            if kn.spade_upcard_doubles and up != JOKER_KIND and up % 4 == SUITS.index("S"):
                self.multiplier = 2
        self.phase = FIRST_UPCARD if (self.rules.offer_upcard and self.pile) else DRAW
        if self.rules.play_or_draw:  # (turn.play_or_draw: the turn starts in play)
            self.phase = PLAY
        self.turn_hand = len(self.hands[first])
        self._legal_cache = None

    def _turn_wild_rank(self) -> None:
        """``cards.turned_wild``: turn the stock's top card face up and set it aside (a
        joker too, turning another): its rank (or the next) is wild for the deal, whose
        rules (:meth:`TableRules.with_wild`) name that rank's cards by role in actions."""
        base = TableRules.of(self.pack.for_deal(self.hand_number))
        rank = None
        while self.stock and rank is None:
            c = self.stock.pop()
            self.indicator.append(c)
            rank = base.wild_rank_of(self.kind_of[c])
        self.rules = base if rank is None else base.with_wild(rank)
        self.phases = self.rules.phase_table

    def _role_action(self, a: Action) -> Action:
        """``a`` with the cards of the deal's wild rank named by role (``*C`` …), its cards
        then in kind order: the action as this deal lists it (``cards.turned_wild``)."""
        r = self.rules.wild_rank
        cards = a.cards
        if r is None or not any(k >> 2 == r and k != JOKER_KIND for k in cards):
            return a
        return _action(a.type, tuple(sorted(JOKER_KIND + 1 + (k & 3)
                                            if k >> 2 == r and k != JOKER_KIND else k
                                            for k in cards)), a.target)

    def _phys_action(self, a: Action) -> Action:
        """``a`` with its role cards (``*C`` …) as the cards of the deal's wild rank, a
        meld's cards in the order it lies in: the action as the engine plays it."""
        cards = a.cards
        if not cards or max(cards) <= JOKER_KIND:
            return a
        r = self.rules.wild_rank
        if r is None:
            return a
        kinds = tuple(r * 4 + k - JOKER_KIND - 1 if k > JOKER_KIND else k for k in cards)
        return _action(a.type, _meld_order(self, kinds) if a.type == "meld" else kinds,
                       a.target)

    # ------------------------------------------------------------------ helpers
    def _kinds(self, cards: list[int]) -> list[int]:
        k = self.kind_of
        return [k[c] for c in cards]

    def _hand_kinds(self, p: int) -> tuple[int, ...]:
        k = self.kind_of
        return tuple(sorted(k[c] for c in self.hands[p]))

    def _value(self, cards) -> int:
        v, k = self.rules.values, self.kind_of
        return sum(v[k[c]] for c in cards)

    def _take_cards(self, p: int, kinds) -> list[int]:
        """Remove one physical card of each kind from ``p``'s hand (lowest id first)."""
        hand = self.hands[p]
        k = self.kind_of
        last = _last_deck
        if last[1] if last[0] is k else _own_kinds(k):  # (gin's deck: a kind is one card,
            # the card of its own id)
            for kind in kinds:
                hand.remove(kind)
            return list(kinds)
        out = []
        for kind in kinds:
            best = None
            for c in hand:
                if k[c] == kind and (best is None or c < best):
                    best = c
            hand.remove(best)
            out.append(best)
        return out

    def _next(self, seat: int) -> int:
        """The next seat in turn that is still in the hand (not dropped, not eliminated)."""
        n = self.n_players
        seat = (seat + 1) % n
        if self.rules.may_sit_out and self._sitting_out:
            out = self._out_of_hand
            while out(seat):
                seat = (seat + 1) % n
        return seat

    @property
    def _sitting_out(self) -> bool:
        """Whether some seat is out of this hand (dropped; gone out, in the last turns) or
        of the game (eliminated)."""
        return (self.dropped != _NONE_DROPPED.get(self.n_players) or any(self.eliminated)
                or self.last is not None)

    def _out_of_hand(self, seat: int) -> bool:
        return (self.dropped[seat] is not None or self.eliminated[seat]
                or (self.last is not None and not self.hands[seat]))

    def _knock_allowed_with(self, hand_kinds) -> bool:
        kv = self.knock_value
        if kv is None:
            return False
        test = "openspiel" if self.rules.openspiel_knock else True
        return self.rules.melds.deadwood_within(hand_kinds, kv, discard=test)

    def meld_by_id(self, mid: int) -> TableMeld | None:
        """The meld ``m<mid>`` on the table, or None."""
        for m in self.melds:
            if m.id == mid:
                return m
        return None

    def _may_lay_off_on(self, p: int, m: TableMeld) -> bool:
        onto = self.rules.lay_off
        if onto == "any":
            return True
        if onto == "own":
            return m.owner == p
        if onto == "side":
            return self.team_of[m.owner] == self.team_of[p]
        return False

    def _fit(self, m: TableMeld, kind: int) -> tuple[Match, int, int] | None:
        """How ``kind`` grows meld ``m`` (new shape and end extensions), within limits."""
        fits = m.fits
        if kind in fits:
            return fits[kind]
        fit = fits[kind] = self._grow(m, kind)
        return fit

    def _book_adds(self, m: TableMeld) -> str:
        """What meld ``m`` still takes as a book (``books.kinds[].adds``): ``any`` below
        ``books.size``, or for a book of a kind that does not say."""
        if len(m.cards) < self.rules.book_size:
            return "any"
        k = self._meld_book(m)
        return "any" if k is None or k < 0 else self.rules.book_adds[k]

    def _adds_refused(self, m: TableMeld, kind: int) -> tuple[str, str] | None:
        """Why card ``kind`` may not go onto meld ``m`` as its book kind says; None if it
        may."""
        adds = self._book_adds(m)
        wild = kind in self.rules.wild
        if adds == "none":
            return "add/book-closed", f"m{m.id} is a closed book: it takes no more cards"
        if adds == "naturals" and wild:
            return "add/book-naturals-only", f"m{m.id} is a book that takes only natural cards"
        if adds == "wilds" and not wild:
            return "add/book-wilds-only", f"m{m.id} is a book that takes only wild cards"
        return None

    def _grow(self, m: TableMeld, kind: int) -> tuple[Match, int, int] | None:
        if self.rules.restricts_books and self._adds_refused(m, kind) is not None:
            return None  # books.kinds[].adds: what a book of its kind still takes
        grown = self.rules.melds.can_add(m.match, kind,
                                         respect_max_size=self.rules.within_max_size)
        if grown is None:
            return None
        if self.rules.wilds_stay and m.match.is_run and not _at_an_end(m.match, grown):
            grown = self._grown_at_an_end(m.match, kind)
            if grown is None:
                return None  # only by moving a wild card: win it back instead
        lim = self.rules.max_per_end
        low, high = m.low_ext, m.high_ext
        if m.match.is_run:  # which end grew?
            if grown.low != m.match.low:
                low += 1
            elif grown.high != m.match.high:
                high += 1
        else:
            high += 1
        if lim is not None and (low > lim or high > lim):
            return None
        return grown, low, high

    def _grown_at_an_end(self, match: Match, kind: int) -> Match | None:
        """The run ``match`` with card ``kind`` at one of its ends, every card keeping its
        place (``melds.lay_off.wilds_stay``), or None."""
        melds = self.rules.melds
        for cards in (match.cards + (kind,), (kind,) + match.cards):
            grown = melds.match_grown(match.kind, cards)
            if grown is not None and _at_an_end(match, grown):
                return grown
        return None

    def _cap_refused(self, m: TableMeld, kind: int) -> tuple[str, str] | None:
        """Why card ``kind``, which fits meld ``m``, may not be laid off on it: the cards
        already laid off at that end of the run, or onto the set, reach
        ``melds.lay_off.max_per_end`` (``add/end-full``); None if the cap is not why."""
        lim = self.rules.max_per_end
        if lim is None:
            return None
        grown = self.rules.melds.can_add(m.match, kind)
        if grown is None:
            return None
        run = m.match.is_run
        if run and grown.low != m.match.low:
            end, past = "low end", m.low_ext
        else:
            end, past = ("high end" if run and grown.high != m.match.high else "end"), m.high_ext
        if past < lim:
            return None
        what = f"{card_code(kind)} cannot be laid off on m{m.id}: "
        if lim == 0:
            return "add/end-full", what + ("no card may be laid off on a meld in this game "
                                           "(melds.lay_off.max_per_end: 0)")
        cap = f"{lim} card{'s' if lim != 1 else ''}"
        if run:
            return "add/end-full", what + (f"at most {cap} may be laid off at each end of a "
                                           f"run (melds.lay_off.max_per_end), and its {end} "
                                           f"has {past}")
        return "add/end-full", what + (f"at most {cap} may be laid off onto a set beyond "
                                       f"the cards it was laid with (melds.lay_off."
                                       f"max_per_end), and it has {past}")

    def _layoffs_for(self, p: int, melds: list[TableMeld], one_per_card: bool,
                     kinds: list[int] | None = None) -> list[Action]:
        """``add`` of each card kind of ``p``'s hand (or of ``kinds``) onto each of
        ``melds`` it fits (with ``one_per_card``, onto the first only)."""
        out = []
        seen = set()
        runs_first = sorted(melds, key=lambda m: (not m.match.is_run, m.id))
        for kind in sorted(set(self._kinds(self.hands[p]) if kinds is None else kinds)):
            for m in runs_first:
                if (kind, m.id) in seen:
                    continue
                if self._fit(m, kind) is not None:
                    seen.add((kind, m.id))
                    out.append(_action("add", (kind,), m.id))
                    if one_per_card:
                        break
        return out

    # ------------------------------------------------------------------ the contract
    def parse_action(self, text: str | Action) -> Action:
        """Parse notation into an action; raises :class:`~meldkit.NotationError`.  A meld's
        cards may come in any order; a run may be named by its ends (``4H-6H``).  In a deal
        with a turned wild rank (``cards.turned_wild``) a card of that rank is named by its
        role (``*C``), and ``9C`` in a deal of wild nines is read as ``*C``."""
        a = parse_table_action(text, self.rules.hook_shapes, self)
        if self.rules.wild_rank is None:
            if a.cards and max(a.cards) > JOKER_KIND:
                raise NotationError("notation/bad-card", "a card named by its role (*C …) is "
                                    "a card of a wild rank turned at the deal, and this deal "
                                    "has none (cards.turned_wild)", text)
            return a
        return self._role_action(self._phys_action(a))

    def _hooks_may_fail(self) -> bool:
        return self.rules.plugin is not None  # plugin code runs: apply snapshots the state

    def _interned(self, action: Action) -> Action | None:
        return _ACTION_CACHE.get(action)

    def _check(self, action: Action):
        """Every phase's check: an action is legal when it is listed; otherwise the reason."""
        from .._actions import Reason

        legal = self._cached_legal()
        if action in legal:
            return None
        hook = self.rules.hooks.get(action.type)
        if hook is not None:
            return self._check_hook(hook, action)
        return Reason(*self._why(action))

    # ------------------------------------------------------------------ plugin actions
    def _legal_hooked(self) -> list[Action]:
        """The phase's own legal actions, then those of the plugin's action hooks for this
        phase that their ``check`` accepts (as the canasta kernel lists them)."""
        out = getattr(self, PHASES[self.phase][0])()
        name = self.rules.plugin.name
        for hook in self.rules.phase_hooks[self.phase]:
            for a in call_hook(name, f"{hook.verb}.legal", hook.legal, self):
                if not isinstance(a, Action) or a.type != hook.verb:
                    raise PluginError(f"plugin {name!r}: hook {hook.verb}.legal listed "
                                      f"{a!r:.60}, not a {hook.verb!r} action (build them "
                                      "with state.actions.get)")
                if self._check_hook(hook, a) is None:
                    out.append(a)
        return out

    def _do_hooked(self, a: Action) -> None:
        """Apply a plugin's action through its hook, or the phase's own action."""
        hook = self.rules.hooks.get(a.type)
        if hook is None:
            getattr(self, PHASES[self.phase][1])(a)
        else:
            call_hook(self.rules.plugin.name, f"{a.type}.apply", hook.apply, self, a)

    def _check_hook(self, hook, a: Action):
        """None or the :class:`~meldkit.Reason` refusing a plugin action: its shape and
        phase are the kernel's to check, the rest the hook's ``check``."""
        from .._actions import Reason

        t = a.type
        if ((hook.cards is not None and len(a.cards) != hook.cards)
                or (a.target >= 0) != hook.target):
            return Reason("action/malformed", f"'{a}' is not a well-formed {t} action")
        if hook.phase != self.phase:
            now = "" if self.phase in (DRAW, PLAY) else f", not in the {self.phase} phase"
            return Reason("turn/not-now",
                          f"'{t}' is played {_WHEN.get(hook.phase, hook.phase)}{now}")
        return call_hook(self.rules.plugin.name, f"{t}.check", hook.check, self, a)

    # ------------------------------------------------------------------ for plugins
    def card_code(self, card: int) -> str:
        """The text code of a card id (``QH``)."""
        return card_code(self.kind_of[card])

    def card_kind(self, card: int) -> int:
        """The kind of a card id (rank × 4 + suit, ``JK`` = 52): what actions name."""
        return self.kind_of[card]

    def card_rank(self, card: int) -> int:
        """The rank number of a card id (A=0 … K=12, JK=13; see ``meldkit.RANKS``)."""
        return rank_of_kind(self.kind_of[card])

    def is_wild(self, card: int) -> bool:
        """True for a wild card of this pack (``cards.wild``)."""
        return self.kind_of[card] in self.rules.wild

    def hand_cards(self, player: int) -> list[int]:
        """The card ids in a player's hand (a copy)."""
        return self.hands[player][:]

    def remove_from_hand(self, player: int, card: int) -> None:
        """Take one given card id out of a player's hand (for plugin actions: put it in
        another zone next, so that every card stays in exactly one zone)."""
        self.hands[player].remove(card)

    def add_to_hand(self, player: int, card: int) -> None:
        """Put a card id into a player's hand."""
        self.hands[player].append(card)

    def put_on_stock(self, card: int, bottom: bool = False) -> None:
        """Put a card id on the top (or the bottom) of the stock."""
        if bottom:
            self.stock.insert(0, card)
        else:
            self.stock.append(card)

    def _past_listing(self, a: Action) -> bool:
        """Whether the meld ``a``, of the hand to move, was left out of a listing cut at
        :data:`~meldkit.kernel.melds.MOST_LISTED_MELDS` melds."""
        kinds = self._kinds(self.hands[self.current]) + self._kinds(self.loose)
        if self.phase == TURNED:
            kinds.append(self.kind_of[self.turned])
        melds = self.rules.melds
        return (self.phase in (PLAY, TURNED, LAYOFF) and melds.match(a.cards) is not None
                and len(melds.melds_in(kinds, most=MOST_LISTED_MELDS + 1)) > MOST_LISTED_MELDS
                and a.cards not in melds.melds_in(kinds, most=MOST_LISTED_MELDS))

    def _why(self, a: Action) -> tuple[str, str]:
        """A reason code and sentence for an action that is not legal now."""
        if self.rules.wild_rank is not None:  # (cards.turned_wild) its cards as played
            a = self._phys_action(a)
        t = a.type
        phase = self.phase
        if t in ("break", "restore") and not self.rules.rearrange:
            return ("rearrange/not-allowed", "this game does not rearrange the table's melds "
                    "(melds.rearrange)")
        if t not in PHASE_ACTIONS[phase] or (
                t == "knock" and phase == DRAW and not self.rules.knock_before_draw) or (
                t == "draw" and phase == PLAY and not self.rules.play_or_draw) or (
                t == "done" and phase == PLAY and not self.rules.no_discard):
            allowed = sorted({x.type for x in self._cached_legal()})
            return ("turn/wrong-phase",
                    f"'{t}' is not possible now (phase {phase}; possible: {', '.join(allowed)})")
        if t == "knock" and phase == DISCARD and not self.rules.knock_after_draw:
            return ("knock/only-before-draw", "in this game a player knocks only at the "
                    "start of their turn, before drawing (knock.after_draw: false): discard")
        if t == "knock" and phase == DRAW:
            kinds = self._kinds(self.hands[self.current])
            return "knock/before-draw-deadwood", (
                f"you may knock before drawing only when the cards you hold leave at most "
                f"{self.knock_value} deadwood with no discard; yours leave "
                f"{self.rules.melds.min_deadwood(kinds)}: draw, or take the discard")
        if phase == TURNED and t == "pass":
            return "turned/must-use", ("you can use the turned "
                                       f"{card_code(self.kind_of[self.turned])}"
                                       ", so you must (turn.forced)")
        if phase == DRAW and t == "draw" and self.rules.forced_discard and self.pile:
            return "pile/must-take", (f"you can use the {card_code(self.kind_of[self.pile[-1]])} "
                                      "on the pile at once, so you must take it (turn.forced)")
        hand = set(self._kinds(self.hands[self.current]))
        if phase == TURNED:
            hand.add(self.kind_of[self.turned])
        if phase == PLAY and (self.rules.rearrange or self.rules.no_discard):
            why = self._turn_why(a)
            if why is not None:
                return why
            hand |= set(self._kinds(self.loose))
        missing = [card_code(k) for k in a.cards if k not in hand]
        if t == "trade":  # before the hand: a pack without win-backs says so first
            why = self._trade_why(a)
            if why is not None:
                return why
        if t in ("discard", "meld", "add", "trade") and missing:
            return "hand/missing-card", f"you do not hold {', '.join(missing)}"
        if phase == TURNED and self.kind_of[self.turned] not in a.cards:
            code = card_code(self.kind_of[self.turned])
            return "turned/use-it", (f"the turned {code} comes first: meld it or lay it off, "
                                     "or pass it")
        if self.must_use is not None and t in ("discard", "meld", "add", "trade"):
            if self.pending:  # (owed toward the opening, and laid in a pending meld)
                if t == "discard":
                    return "pile/must-use", (f"the {card_code(self.must_use)} taken from the "
                                             "pile is in your melds toward the opening: "
                                             "make the opening this turn")
            elif not (t != "discard" and self.must_use in a.cards):
                how = ("meld" if self.rules.taken_new_meld else "meld or lay off")
                return "pile/must-use", (f"you must first {how} "
                                         f"{card_code(self.must_use)}, taken from "
                                         "the pile")
            elif t != "meld" and self.rules.taken_new_meld:
                return "pile/must-use", (f"the {card_code(self.must_use)} taken from the "
                                         "pile goes into a new meld with cards from your "
                                         "hand, not onto the table's (pile.taken_new_meld)")
        if t == "discard" and phase == PLAY and self._keeps_last(self.current):
            return "discard/last-card", ("you may not discard your last card: going out means "
                                         "melding or laying off every card "
                                         "(going_out.by_discard: false)")
        if self.rules.needs_books and phase == PLAY and a in self._legal_play_moves():
            blocked = self._books_block(self.current, a)
            if blocked is not None:
                return blocked
        if self.rules.meld_out and t in ("meld", "add", "trade") and (
                (phase == PLAY and a in self._legal_play_moves()) or (
                    phase == TURNED and a in self._uses(self.current,
                                                        self.kind_of[self.turned], True))):
            last = self._stranded(a)
            if last is not None:
                return "hand/last-card", (f"that would leave you only the {card_code(last)}, "
                                          "which you could neither lay off nor discard: going "
                                          "out means melding or laying off every card "
                                          "(going_out.by_discard: false)")
        if t == "meld":
            if self.rules.melds.match(a.cards) is None:
                return "meld/not-a-meld", f"{' '.join(map(card_code, a.cards))} is not a meld"
            if phase == PLAY and not self.opened[self.current] and self.withdrew:
                return "meld/withdrawn", "you withdrew your opening this turn: discard"
            if phase == PLAY and not self.opened[self.current] and self._contract_of(
                    self.current):
                needs = ", ".join(self.rules.kinds[k].name for k in self._still_needed())
                return "meld/not-in-contract", (f"that meld is none of the contract's melds "
                                                f"you still need ({needs})")
            if phase == PLAY and not self.opened[self.current] and self.must_use is not None:
                return "pile/must-use", (f"the {card_code(self.must_use)} taken from the "
                                         "pile must be part of an opening made this turn, "
                                         "and after that meld none could be")
            if phase == KNOCK:
                return ("knock/meld", "that meld leaves more deadwood than the knock allows")
            if phase == LAYOFF and self.layoff_stage == 1:
                return "meld/lay-offs-first", ("a defender lays off onto the knocker's melds "
                                               "first: say done, then lay your own melds")
            if phase == PLAY and self.opened[self.current] and not self.rules.melds_after:
                return "meld/after-opening", ("once you have opened you lay no new melds, "
                                              "only lay-offs (initial_meld.melds_after: "
                                              "false)")
            if phase == PLAY and self._leaves_too_few(a):
                return "hand/keep-a-card", ("that meld would leave you no card to discard: "
                                            "going out means discarding the last card "
                                            "(going_out.requires_discard)")
            if self._past_listing(a):
                return "meld/past-listing", (
                    f"this hand holds more than {MOST_LISTED_MELDS:,} melds, and only the "
                    f"first {MOST_LISTED_MELDS:,} the engine lists may be laid (a bound "
                    "against packs written to be slow)")
            return "meld/not-now", "that meld cannot be laid now"
        if t == "add":
            if self.rules.lay_off == "none" and phase in (PLAY, LAYOFF):
                return "add/not-allowed", "laying off is not allowed in this game"
            if phase == PLAY and not self.opened[self.current] and not self.rules.lay_off_before:
                return "add/not-opened", ("you may lay off only once you have opened ("
                                          + self._opened_words(self.current) + ")")
            if phase == PLAY and self._opened_this_turn(self.current):
                return "add/opening-turn", ("you opened this turn: you may lay off from your "
                                            "next turn (initial_meld.lay_off_same_turn: false)")
            m = self.meld_by_id(a.target)
            if m is None:
                return "meld/no-such-meld", f"there is no meld m{a.target}"
            if phase == LAYOFF and self.layoff_stage == 2:
                if self._first_layoff_stage() == 2:  # gin, without knock.lay_off_on_gin
                    return "add/after-gin", ("nobody lays off on gin: the knocker melded "
                                             "every card (knock.lay_off_on_gin: false)")
                return "add/done-laying-off", ("you have finished laying off: lay your own "
                                               "melds, then done")
            if phase == PLAY and not self._may_lay_off_on(self.current, m):
                whose = "your side's" if self.rules.lay_off == "side" else "your own"
                return "add/not-your-meld", (f"m{a.target} is not a meld you may lay off onto: "
                                             f"only {whose} melds")
            if self.rules.restricts_books and a.cards:
                why = self._adds_refused(m, a.cards[0])
                if why is not None:
                    return why
            why = self._cap_refused(m, a.cards[0])
            if why is not None:
                return why
            top = self.rules.kinds[m.match.kind].max_size
            if self.rules.within_max_size and top is not None and len(m.cards) >= top and (
                    self.rules.melds.can_add(m.match, a.cards[0]) is not None):
                return "add/meld-full", (f"m{a.target} holds {len(m.cards)} cards, the most a "
                                         f"{self.rules.kinds[m.match.kind].name} may hold "
                                         "(melds.lay_off.within_max_size)")
            if self.rules.wilds_stay and self.rules.melds.can_add(m.match, a.cards[0]):
                return "add/wild-card-stays", (
                    f"{card_code(a.cards[0])} fits m{a.target} only where a wild card stands, "
                    "and a wild card keeps its place (melds.lay_off.wilds_stay): win it back "
                    "with a trade, where the pack allows")
            return "add/does-not-fit", f"{card_code(a.cards[0])} cannot be laid off on m{a.target}"
        if t == "trade":
            return ("trade/no-wild-card", f"no wild card of m{a.target} stands for "
                    f"{card_code(a.cards[0])}: it cannot be won back with it")
        if t == "withdraw":
            if self.pending and self.must_use is not None:
                return "pile/must-use", (f"the {card_code(self.must_use)} taken from the pile "
                                         "must be part of an opening made this turn: the "
                                         "melds toward it cannot be taken back")
            return "withdraw/nothing-pending", "there are no melds toward an opening to take back"
        if t == "drop":
            return "drop/not-allowed", "this game has no dropping (turn.drop)"
        if t == "discard" and self.rules.discard_bans and phase == PLAY:
            cond = self._ban_on(self.current, a.cards[0])
            if cond is not None:
                rank = RANKS[rank_of_kind(a.cards[0])]
                return "discard/banned", (f"{with_article(card_code(a.cards[0]))} may not be "
                                          "discarded "
                                          + BAN_WAITS[cond].format(rank=rank))
        if t == "discard" and phase == PLAY and not self.rules.discard_layable and len(
                self.hands[self.current]) > 1:
            fits = [x.target for x in self._legal_play_moves()
                    if x.type == "add" and x.cards[0] == a.cards[0]]
            if fits:
                return "discard/layable", (f"the {card_code(a.cards[0])} could be laid off on "
                                           f"m{fits[0]}: a card that fits a meld on the table "
                                           "is laid off, not discarded "
                                           "(pile.discard_layable: false)")
        if t == "pass" and phase == DRAW:
            return "turn/wrong-phase", ("'pass' is possible in the draw only with the stock "
                                        "empty (it ends the hand): draw, or take from the pile")
        if t == "draw" and phase == DRAW and not self.stock:
            return "draw/stock-empty", ("the stock is empty: take from the discard pile, or "
                                        "pass to end the hand")
        if t == "pass" and phase == PLAY:
            if self.pending and self.rules.discard_bans and self.rules.all_banned_pass:
                return self._pending_why("end the turn")
            if not (self.rules.discard_bans and self.rules.all_banned_pass):
                return "turn/wrong-phase", ("'pass' is not possible now: a turn ends with a "
                                            "discard")
            return "turn/may-discard", ("you may end the turn without a discard only while "
                                        "every card you hold is banned from the discard")
        if t == "discard" and self.pending:
            return self._pending_why("discard")
        if t == "discard" and phase == KNOCK and self.knock_discarded:
            return "knock/discard", ("a knocker discards one card, and one who knocked "
                                     "before drawing none: lay your melds, then say done")
        if t == "discard" and phase == KNOCK:
            return "knock/discard", "that discard leaves more deadwood than the knock allows"
        if t == "discard" and self.taken is not None and a.cards[0] == self.taken:
            return "discard/taken-card", "you may not discard the card you took from the pile"
        if t == "take" and not self.pile:
            return "pile/empty", "the discard pile is empty"
        if t == "take":
            return "pile/cannot-take", "you cannot take that card from the pile"
        if t == "done":
            return "knock/too-much-deadwood", "your unmelded cards still exceed the knock value"
        return "action/illegal", f"{a} is not legal now"

    # ------------------------------------------------------------------ first upcard
    def _legal_first_upcard(self) -> list[Action]:
        if self.passes >= self.n_players:
            return [_DRAW]
        return [_TAKE, _PASS] if self._may_take_top() else [_PASS]

    def _do_first_upcard(self, a: Action) -> None:
        t = a.type
        if t == "pass":
            self.passes += 1
            self.current = self.hand_first if self.passes >= self.n_players else \
                self._next(self.current)
            return
        if t == "take":
            self._take_top()
        else:
            self._draw_stock()
        self._after_draw()

    # ------------------------------------------------------------------ draw
    def _legal_draw(self) -> list[Action]:
        """The draw phase: the stock, the pile as the pack lets it be taken, a drop, a
        knock before drawing; with the stock empty (``stock.when_empty``), ``pass`` ends
        the hand beside whatever else the player may do (listed only where there is some)."""
        out = [_DRAW] if self.stock else []
        if self.rules.drop:
            out.append(_DROP)
        pile = self.pile
        rules = self.rules
        knock = rules.knock_before_draw and self._may_knock_before_draw()
        if pile and (rules.take_before or self.opened[self.current]):
            search = _OpeningSearch()  # (one memo and budget for this move's take checks)
            if self._may_take_top(search):
                out.append(_TAKE)
            if rules.forced_discard and self._forced_take():  # turn.forced: [discard]
                forced = [_TAKE, _DROP] if rules.drop else [_TAKE]
                return forced + [_KNOCK] if knock else forced
            if self.rules.take == "deep":
                seen = {self.kind_of[pile[-1]]}
                for i in range(len(pile) - 2, -1, -1):
                    kind = self.kind_of[pile[i]]
                    if kind not in seen:
                        seen.add(kind)
                        if self._deep_usable(i, search):
                            out.append(_action("take", (kind,)))
        if knock:
            out.append(_KNOCK)
        if out and not self.stock:
            out.insert(0, _PASS)
        return out

    def _may_knock_before_draw(self) -> bool:
        """Whether the player to move may knock before drawing (``knock.before_draw``): the
        hand they hold, with no discard, leaves at most the knock value in deadwood."""
        kv = self.knock_value
        return kv is not None and self.rules.melds.deadwood_within(
            self._kinds(self.hands[self.current]), kv, discard=False)

    def _may_take_top(self, search: _OpeningSearch | None = None) -> bool:
        """Whether the player to move may take the pile's top card as far as
        ``pile.taken_melded`` goes: a card they must meld at once, only if they can."""
        return (self.rules.taken_melded == "no" or not self._must_meld_taken()
                or self._top_usable(search))

    def _must_meld_taken(self) -> bool:
        """Whether the top card taken now must be melded or laid off this turn."""
        rule = self.rules.taken_melded
        return rule == "always" or (rule == "until_opened" and not self.opened[self.current])

    def _top_usable(self, search: _OpeningSearch | None = None) -> bool:
        """Whether the player to move could meld the pile's top card at once (toward the
        opening, if they have not opened), or lay it off where they may."""
        p = self.current
        top = self.kind_of[self.pile[-1]]
        return self._usable_with(p, top, self._kinds(self.hands[p]) + [top], search, 1)

    def _deep_usable(self, i: int, search: _OpeningSearch | None = None) -> bool:
        """Whether the card at pile position ``i`` could be melded (toward the opening, if
        the player has not opened) or laid off at once after taking it and every card
        above it."""
        p = self.current
        kinds = self._kinds(self.hands[p]) + self._kinds(self.pile[i:])
        return self._usable_with(p, self.kind_of[self.pile[i]], kinds, search,
                                 len(self.pile) - i)

    def _usable_with(self, p: int, card: int, kinds: list[int],
                     search: _OpeningSearch | None = None, taken: int = 1) -> bool:
        """Whether ``p``, holding ``kinds`` (``card`` among them; ``taken``: the cards of
        them that would come from the top of the pile), could meld ``card`` at once — in an
        opening made this turn, if they have not opened (:meth:`_opens_after`) — or lay it
        off where they may, leaving the cards a play must leave (:meth:`_keep`: a card to
        discard where going out means discarding; :meth:`_books_left`: two while the side
        lacks the books to go out; :meth:`_stranded`: no last card that could be neither
        played nor discarded)."""
        opening = not self.opened[p]
        need = self._still_needed() if opening else []
        spare = len(kinds) - self._keep(p)
        books = self.rules.needs_books
        last = self.rules.meld_out and not opening  # (the opening search sees to it)
        for meld in melds_holding(self.rules.melds, kinds, card, MOST_LISTED_MELDS):
            if len(meld) <= spare and (not need or len(self._still_needed(meld)) < len(need)) and (
                    not books or self._books_left(p, len(kinds) - len(meld), new=meld) is None
            ) and (not opening or self._opens_after(p, kinds, meld, search)) and (
                    not last or self._stranded(_action("meld", meld), taken) is None):
                return True
        if (opening and not self.rules.lay_off_before) or spare < 1 or (
                self.rules.taken_new_meld):  # (a card owed: into a new meld only)
            return False
        return any(self._may_lay_off_on(p, m) and self._fit(m, card) is not None and (
            not books or self._books_left(p, len(kinds) - 1, grown=m.id, card=card) is None)
            and not (self.rules.meld_out and self._stranded(_action("add", (card,), m.id),
                                                             taken) is not None)
            for m in self.melds)

    def _do_draw(self, a: Action) -> None:
        if a.type == "drop":
            self._drop(self.current)
            return
        if a.type == "pass":  # the stock is empty and the player takes nothing: the end
            self._end_hand("stock_empty", None)
            return
        if a.type == "knock":  # before drawing (knock.before_draw): nothing to discard
            self.knocker = self.current
            self.knock_discarded = True
            self.taken = self.discarder = None
            self.phase = KNOCK
            return
        if a.type == "draw":
            if self.rules.buy_limit and self._buyers():  # the others may buy it first
                self.buy_for = self.current
                self.current = self._buyers()[0]
                self.phase = BUY
                return
            if self.rules.turns_stock:  # turned face up, never into the hand
                self.turned, self.turned_passes = self.stock.pop(), 0
                self.taken = self.discarder = None
                self.phase = TURNED
                return
            self._draw_stock()
        else:
            limit = self.rules.take_limit
            self.pile_takes += 1
            if limit is not None and self.pile_takes >= limit:
                self._end_hand("limit", None)
                return
            forced = self.rules.forced_discard and not a.cards and self._forced_take()
            top = self.kind_of[self.pile[-1]]
            if a.cards:
                self._take_deep(a.cards[0])
            elif self.rules.take == "pile":  # the whole pile, on the strength of its top
                must = self.rules.taken_melded != "no" and self._must_meld_taken()
                self.hands[self.current].extend(self.pile)
                self.pile = []
                self.taken = None if must else top
                if must:  # the top card: melded or laid off this turn (pile.taken_melded)
                    self.must_use = top
            else:
                self._take_top()
            if forced:  # taken because it can be used: it must be, this turn
                self.must_use, self.taken = top, None
        self.phase = DISCARD if self.knock_value is not None else PLAY  # (_after_draw,
        self.discarder = None  # inlined: the draw's usual case)

    # ------------------------------------------------------------------ a turned card
    def _uses(self, p: int, kind: int, stranding: bool = False) -> list[Action]:
        """The melds and lay-offs by which ``p`` would use at once a card of ``kind`` they
        do not hold (a turned card, the top discard), each leaving ``p`` the cards a discard
        needs — and no last card that could be neither played nor discarded
        (:meth:`_stranded`), unless ``stranding`` (those too)."""
        kinds = self._kinds(self.hands[p])
        keep = self._keep(p)
        out = [_action("meld", m) for m in melds_holding(self.rules.melds, kinds + [kind], kind,
                                                         MOST_LISTED_MELDS)
               if len(kinds) + 1 - len(m) >= keep] if (
            self.rules.melds_after or not self.opened[p]) else []  # (once down: lay-offs)
        if len(kinds) >= keep:
            out += [_action("add", (kind,), m.id) for m in self.melds
                    if self._may_lay_off_on(p, m) and self._fit(m, kind) is not None]
        if self.rules.meld_out and not stranding:
            taken = 0 if self.phase == TURNED else 1  # (else the top discard, forced)
            out = [a for a in out if self._stranded(a, taken) is None]
        return out

    def _forced_take(self) -> bool:
        """Whether the player to draw must take the top discard (``turn.forced:
        [discard]``): they could use it at once — in a new meld, where a card owed goes into
        a new meld only (``pile.taken_new_meld``), not by a lay-off the take then forbids."""
        uses = self._uses(self.current, self.kind_of[self.pile[-1]])
        if self.rules.taken_new_meld:
            return any(a.type == "meld" for a in uses)
        return bool(uses)

    def _legal_turned(self) -> list[Action]:
        """A card turned from the stock (``turn.stock_card: turned``): a meld or lay-off
        using it, or ``pass`` (not where ``turn.forced`` names it and it can be used)."""
        out = self._uses(self.current, self.kind_of[self.turned])
        if not (out and self.rules.forced_turned):
            out.append(_PASS)
        return out

    def _do_turned(self, a: Action) -> None:
        p, c = self.current, self.turned
        if a.type == "pass":
            self._pass_turned(c)
            return
        self.turned, self.turned_passes = None, 0
        if a.type == "meld":
            self._lay_meld(p, a.cards, turned=c)
        else:
            self._lay_off(p, a.cards[0], a.target, turned=c)
        if self.first_laid[p] is None:
            self.first_laid[p] = self.turns
        self.phase = PLAY  # play on: melds, lay-offs, the discard
        if not self.hands[p]:
            self._end_hand("went_out", p)

    def _pass_turned(self, c: int) -> None:
        """The player passes the turned card ``c``: it goes onto the pile, or with
        ``turned_passes: next`` to the next player in the hand — to the pile once every
        player in the hand has passed it.  Passing ends the turn."""
        if self.rules.pass_next:
            in_hand = sum(not self._out_of_hand(q) for q in range(self.n_players))
            if self.turned_passes + 1 < in_hand:
                self.turned_passes += 1
                self.turns += 1
                limit = self.rules.turn_limit
                if limit is None or self.turns < limit:
                    self.current = self._next(self.current)  # still the turned phase
                    return
                self.turned = None
                self.pile.append(c)
                self._end_hand("turn_limit", None)
                return
        self.turned, self.turned_passes = None, 0
        self.pile.append(c)
        self.taken = None
        self._end_turn()

    def _draw_stock(self) -> None:
        stock, hand = self.stock, self.hands[self.current]
        hand.append(stock.pop())
        if self.rules.draws_more:  # a pack that draws more than one card (turn.draw)
            for _ in range(min(self.rules.draw_for(self.n_players), len(stock) + 1) - 1):
                hand.append(stock.pop())
        self.taken = None

    def _take_top(self) -> None:
        must = self.rules.taken_melded != "no" and self._must_meld_taken()
        c = self.pile.pop()
        self.hands[self.current].append(c)
        self.taken = None if must else self.kind_of[c]
        if must:  # to be melded or laid off this turn (pile.taken_melded)
            self.must_use = self.kind_of[c]
        self.discarder = None

    def _take_deep(self, kind: int) -> None:
        pile = self.pile
        i = max(j for j in range(len(pile)) if self.kind_of[pile[j]] == kind)
        self.hands[self.current].extend(pile[i:])
        self.must_use = kind
        self.taken = None
        del pile[i:]

    def _drop(self, p: int) -> None:
        """``p`` folds the hand: the cards stay face down, out of play, and count the drop
        penalty of the round; the last player left in the hand ends it.

        The first penalty is for a drop on the player's own first turn of the hand: the
        hand's first round is one turn for each seat dealt in (not eliminated), and a drop
        is that seat's turn, though it ends no turn (``turns`` counts the others)."""
        first, later = self.rules.drop
        started = self.turns + sum(d is not None for d in self.dropped)
        dealt_in = self.n_players - sum(self.eliminated)
        self.dropped[p] = first if started < dealt_in else later
        left = [q for q in range(self.n_players) if not self._out_of_hand(q)]
        if len(left) == 1:
            self._end_hand("all_dropped", left[0])
            return
        self.discarder = None  # the discard passed by is no longer on offer
        self.current = self._next(p)
        self.phase = DRAW

    def _after_draw(self) -> None:
        self.phase = DISCARD if self.knock_value is not None else PLAY
        self.discarder = None  # the last discard is no longer on offer

    # ------------------------------------------------------------------ buying out of turn
    def _buyers(self) -> list[int]:
        """The seats that may still buy the top discard, in turn order after the player to
        draw (``pile.buy_limit``): not its discarder, buys left, not opened where
        ``pile.buy_after_opening`` is false, and enough stock for the penalty and the
        drawer's card."""
        rules = self.rules
        if not rules.buy_limit or self.discarder is None or not self.pile:
            return []
        if len(self.stock) < rules.buy_penalty + 1:
            return []
        start = self.buy_for if self.phase == BUY else self.current
        n = self.n_players
        order = [(start + i) % n for i in range(1, n)]
        if self.phase == BUY:  # those after the one asked now
            order = order[order.index(self.current) + 1:]
        return [q for q in order if q != self.discarder and self.buys[q] < rules.buy_limit
                and not self._out_of_hand(q) and (rules.buy_opened or not self.opened[q])]

    def _legal_buy(self) -> list[Action]:
        return [_BUY, _PASS]

    def _do_buy(self, a: Action) -> None:
        q = self.current
        if a.type == "buy":
            self.buys[q] += 1
            hand = self.hands[q]
            hand.append(self.pile.pop())
            for _ in range(self.rules.buy_penalty):
                hand.append(self.stock.pop())
            self.discarder = None  # bought: the pile's new top is no discard on offer
        else:
            after = self._buyers()
            if after:
                self.current = after[0]
                return
        self.current, self.buy_for = self.buy_for, None
        self.phase = DRAW
        self._draw_stock()  # the draw its player chose before the discard was offered
        self._after_draw()

    # ------------------------------------------------------------------ play (rummy)
    def _legal_play(self) -> list[Action]:
        out = self._legal_play_moves()
        rules = self.rules
        if rules.no_discard:  # the turn ends with done (or a draw or a pass: play or draw)
            out = [a for a in out if a.type != "discard"] + self._turn_ends(self.current)
        if self.rules.needs_books:  # the hand is emptied only with the books to go out
            p = self.current
            out = [a for a in out if self._books_block(p, a) is None]
        if self.rules.meld_out:  # no play leaves a last card that can be neither played
            out = [a for a in out if self._stranded(a) is None]  # nor discarded
        if not self.rules.discard_layable and len(self.hands[self.current]) > 1:
            out = _without_layable_discards(out)  # (a last card may always be discarded)
        return out

    def _keeps_last(self, p: int) -> bool:
        """Whether ``p`` may not discard now because the discard would take them out where
        nobody goes out by a discard (``going_out.by_discard: false``): they hold one card
        (and no reserve waits, which a hand played out would pick up)."""
        return (self.rules.meld_out and len(self.hands[p]) == 1
                and not (self.rules.reserve and self._reserve_waiting(p)))

    def _stranded(self, a: Action, taken: int = 0) -> int | None:
        """Where nobody goes out by a discard (``going_out.by_discard: false``): the kind
        of the one card that the player to move would be left holding after the meld,
        lay-off or trade ``a`` — of the turned card, in the turned phase; with ``taken``,
        after first taking that many cards from the top of the pile — when they could then
        neither lay it off nor discard it (a dead end); None if the play leaves them more
        cards, none, or a card they can still play.  Judged on a copy of the game, with the
        play made."""
        p, t = self.current, a.type
        held = len(self.hands[p]) + taken + (self.turned is not None and not taken)
        left = held - (len(a.cards) if t == "meld" else 1 if t == "add" else 0)
        if left != 1 or t not in ("meld", "add", "trade"):
            return None
        s = self.clone()
        if taken:
            s.hands[p].extend(s.pile[-taken:])
            del s.pile[-taken:]
            s.taken = None
        if s.phase == TURNED and not taken:
            s._do_turned(a)
        else:
            s.phase = PLAY
            s._do_play(a)
        if len(s.hands[p]) != 1 or s._legal_play():
            return None
        return s.kind_of[s.hands[p][0]]

    def _keep(self, p: int) -> int:
        """Cards a meld or lay-off must leave ``p``: one to discard where going out means
        discarding (``going_out.requires_discard``), none while ``p``'s reserve waits (a
        hand played out picks it up)."""
        if self.rules.reserve and self._reserve_waiting(p):
            return 0
        return 1 if self.rules.requires_discard else 0

    def _reserve_holder(self, p: int) -> int:
        """The index of ``p``'s reserve: their seat, or their side (``deal.reserve_per``)."""
        return self.team_of[p] if self.rules.reserve_side else p

    def _reserve_waiting(self, p: int) -> bool:
        """Whether ``p``'s (or their side's) reserve is still to be picked up (a pack with
        reserve piles: callers ask ``rules.reserve`` first)."""
        return not self.reserve_taken[self._reserve_holder(p)]

    def _pick_up_reserve(self, p: int) -> bool:
        """``p`` has played out their hand: their reserve, if it waits, becomes their hand
        (True); False: there is none left, so ``p`` goes out."""
        if not (self.rules.reserve and self._reserve_waiting(p)):
            return False
        h = self._reserve_holder(p)
        self.hands[p], self.reserves[h] = self.reserves[h], []
        self.reserve_taken[h] = True
        return True

    def _legal_play_moves(self) -> list[Action]:
        p = self.current
        if not self.opened[p]:
            return self._legal_opening(p)
        hand = self.hands[p]
        held = self._kinds(hand)
        kinds = held + self._kinds(self.loose) if self.loose else held  # (loose: rearrange)
        keep = self._keep(p)
        out: list[Action] = []
        must = self.must_use
        if self.rules.melds_after:  # (initial_meld.melds_after: false: once down, lay-offs)
            for meld in self.rules.melds.melds_in(kinds, most=MOST_LISTED_MELDS):
                if len(kinds) - len(meld) >= keep and (must is None or must in meld):
                    out.append(_action("meld", meld))
        new_only = must is not None and self.rules.taken_new_meld  # (never laid off)
        if len(kinds) - 1 >= keep and not self._opened_this_turn(p) and not new_only:
            mine = [m for m in self.melds if self._may_lay_off_on(p, m)]
            for a in self._layoffs_for(p, mine, one_per_card=False, kinds=kinds):
                if must is None or a.cards[0] == must:
                    out.append(a)
        if self.rules.win_back and not new_only and not self._opened_this_turn(p):
            out += self._trades_for(p, held, must)  # (a card laid into a meld: a lay-off's)
        if self.rules.rearrange:
            out += self._rearranging(p)
            if self.loose:  # every loose card is laid again before the turn ends
                return out
        if must is None and not self._keeps_last(p):  # (by_discard: false: the last card
            taken = None if self.rules.discard_taken else self.taken  # is never discarded)
            distinct = sorted(set(kinds))
            if self.rules.discard_bans:
                out += self._ban_discards(p, distinct, taken)
                return out
            for kind in distinct:
                if kind != taken or len(distinct) == 1:
                    out.append(_action("discard", (kind,)))
        return out

    def _opened_this_turn(self, p: int) -> bool:
        """Whether ``p`` opened in this turn where a player lays off only from the turn
        after (``initial_meld.lay_off_same_turn: false``): their first cards to stay on
        the table were laid this turn (nothing is laid off before an opening there)."""
        return self.rules.lay_off_waits and self.first_laid[p] == self.turns

    def contracts_met(self) -> list[int]:
        """How many contracts each player has met (``initial_meld.contracts``: one a hand
        at most, counted from the hand records after those the game option
        ``contracts_met`` starts each seat with; all 0 in a pack without them)."""
        met = list(self.options.get("contracts_met") or [0] * self.n_players)
        for r in self.hand_results:
            for p, done in enumerate(r.final.contracts_met):
                met[p] += done
        return met

    def _contract_index(self, p: int) -> int:
        """Which of ``initial_meld.contracts`` is ``p``'s now (the first not met)."""
        return min(self.contracts_met()[p], len(self.rules.contracts) - 1)

    def _contract_of(self, p: int) -> tuple[int, ...]:
        """The kind of each meld ``p``'s contract asks for (sorted): the deal's, or with
        ``initial_meld.contracts`` the first of them ``p`` has not met."""
        rules = self.rules
        return rules.contracts[self._contract_index(p)] if rules.contracts else rules.contract

    def _contract_melds_of(self, p: int):
        """The meld arithmetic of ``p``'s contract's kinds alone (what the greedy policy
        builds toward)."""
        rules = self.rules
        if rules.contracts:
            return rules.contracts_melds[self._contract_index(p)]
        return rules.contract_melds

    def _contract_names_of(self, p: int) -> list[str]:
        """``p``'s contract as the pack writes it (kind names, in its order)."""
        im = self.rules.spec.initial_meld
        return list(im.contracts[self._contract_index(p)] if im.contracts else im.melds)

    def _still_needed(self, extra: tuple[int, ...] | None = None) -> list[int]:
        """The kinds of the contract's melds the player to move has not laid this turn (with
        ``extra``, a meld of card kinds, laid too): the pending melds are matched to the
        contract's kinds so that as many as can be are covered, a meld counting for any kind
        it forms (a clean run is also a run)."""
        if not self._contract_of(self.current):
            return []
        groups = [self._kinds(self.meld_by_id(mid).cards) for mid in self.pending]
        if extra is not None:
            groups.append(extra)
        return self._uncovered(groups)

    def _uncovered(self, groups: list | tuple) -> list[int]:
        """The kinds of the contract's melds that the melds ``groups`` (of card kinds) leave
        to lay, as many covered as can be (:meth:`_still_needed`)."""
        return self._contract_cover(groups)[0]

    def _contract_cover(self, groups: list | tuple) -> tuple[list[int], list[int | None]]:
        """The contract's kinds the melds ``groups`` leave to lay, as many covered as can
        be, and the kind each group covers (None: none).  A group that fits several kinds
        takes the most demanding first (the largest ``min_size``, then the contract's
        order): five of a kind covers a set of five before a pair, so the pair is what is
        still needed, and four wild cards a run of four before a set of three."""
        contract = self._contract_of(self.current)
        fits = self.rules.melds.match_as
        kinds = self.rules.kinds
        best: tuple[list[int], list[int | None]] = (list(contract), [None] * len(groups))
        taken: list[int | None] = []

        def cover(i: int, left: list[int]) -> None:
            nonlocal best
            if len(left) < len(best[0]):
                best = (left, taken + [None] * (len(groups) - len(taken)))
            if i == len(groups) or not left or len(best[0]) == 0:
                return
            tried: set[int] = set()
            for j in sorted(range(len(left)), key=lambda j: (-kinds[left[j]].min_size, j)):
                kind = left[j]
                if kind not in tried and fits(kind, groups[i]) is not None:
                    tried.add(kind)
                    taken.append(kind)
                    cover(i + 1, left[:j] + left[j + 1:])
                    taken.pop()
            taken.append(None)
            cover(i + 1, left)
            taken.pop()

        cover(0, list(contract))
        return best

    def _needs_words(self, player: int) -> list[str]:
        """The names of the contract's melds ``player`` has still to lay, in the order the
        pack writes them: none once they have opened; for the player to move, those their
        melds laid this turn leave (:meth:`_still_needed`)."""
        if self.opened[player]:
            return []
        left = collections.Counter(self.rules.kinds[k].name for k in (
            self._still_needed() if player == self.current else self._contract_of(player)))
        out = []
        for name in self._contract_names_of(player):
            if left[name] > 0:
                left[name] -= 1
                out.append(name)
        return out

    def _label_pending(self) -> None:
        """Give each meld laid toward the contract the kind it covers (:meth:`_contract_cover`),
        so that it grows as that kind: four wild cards laid as the contract's run take
        lay-offs as a run, not as the set their cards also form."""
        melds = [self.meld_by_id(mid) for mid in self.pending]
        _, covered = self._contract_cover([self._kinds(m.cards) for m in melds])
        for m, kind in zip(melds, covered):
            if kind is not None and kind != m.match.kind:
                match = self.rules.melds.match_grown(kind, m.match.cards)
                if match is not None:
                    m.match, m.low_ext, m.high_ext, m.fits = match, 0, 0, {}

    def _opens_after(self, p: int, kinds: list[int], meld: tuple[int, ...],
                     search: _OpeningSearch | None = None) -> bool:
        """Whether ``p``, who has not opened and holds the card kinds ``kinds`` (``meld``
        among them), can lay ``meld`` toward the opening as :meth:`_legal_opening` offers it
        and make the opening this turn — with it, or with more melds from the hand
        (:meth:`_opening_search`; ``search``: the memo of searches from the same position).

        What a card owed toward the opening asks (``pile.taken_melded``, a card taken deep
        in the pile): it is taken only when an opening holding it can be made, and every
        meld laid while it is owed leaves one possible (:meth:`_legal_opening`).  Searches
        past :data:`OPENING_SEARCH_WORK` answer no (a take refused, a meld not offered;
        ``search.cut`` says so), each candidate with its own budget within the move's."""
        search = _OpeningSearch() if search is None else search
        if not search.next_candidate():
            return False
        groups = tuple(tuple(self._kinds(self.meld_by_id(mid).cards)) for mid in self.pending)
        try:
            return self._opening_search(p, kinds, meld, groups, self._pending_value(), search)
        except (_SearchCut, TooManyMelds):
            search.work, search.cut = search.limit, True  # (this candidate's budget spent)
            return False

    def _opening_search(self, p: int, kinds: list[int], meld: tuple[int, ...],
                        groups: tuple[tuple[int, ...], ...], value: int,
                        search: _OpeningSearch) -> bool:
        """:meth:`_opens_after` from melds ``groups`` pending, worth ``value`` points: a
        depth-first search over the hand's melds.  A position is the cards left, the
        contract's melds still to lay (or the melds pending, while the contract is not
        covered) and the points toward the minimum (no more than it); ``search.failed``
        holds those found to make no opening."""
        rules = self.rules
        search.work += 1
        if search.work > search.limit:
            raise _SearchCut
        left = len(kinds) - len(meld)
        keep = self._keep(p)
        match = rules.melds.match(meld)
        if left < keep or match is None:
            return False
        need = self._uncovered(groups) if self._contract_of(self.current) else ()
        grown = (*groups, meld)
        after = self._uncovered(grown) if need else need
        if need and len(after) == len(need):
            return False  # it lays none of the contract's melds still needed
        value += self._meld_points(meld, match)
        minimum = self._opening_minimum(p)
        spare = self._at_once_spare()
        if not after and value >= minimum and (not rules.all_at_once or left <= spare) and (
                not rules.meld_out or left != 1):  # (a last card that might be stranded:
            return True  # the opening is made     # not counted, by_discard: false)
        if left == keep:
            return False  # the hand's last cards, and no opening
        rest = kinds[:]
        for k in meld:
            rest.remove(k)
        key = (tuple(sorted(rest)), tuple(sorted(grown)) if after else (), min(value, minimum))
        if key in search.failed:
            return False
        budget = search.limit - search.work
        if budget <= 0:
            raise _SearchCut
        melds = rules.melds.melds_in(rest, limit=budget)
        search.work += len(melds) + 1
        in_one = set().union(*melds)  # the cards left that some meld could hold
        values = rules.opening_values
        most = max(values) if rules.wild_as_card else 0
        if value + sum(most if k in rules.wild else values[k] for k in rest
                       if k in in_one) >= minimum and not (  # (else: short of it however
                rules.all_at_once and sum(k not in in_one for k in rest) > spare):  # they meld)
            for m in sorted(melds, key=len, reverse=True):
                if self._opening_search(p, rest, m, grown, value, search):
                    return True
        search.failed.add(key)
        return False

    def _pending_value(self) -> int:
        """The points of the melds the player to move has laid toward opening this turn."""
        rules = self.rules
        if not rules.wild_as_card and rules.low_ace is None:
            return sum(self._value(self.meld_by_id(mid).cards) for mid in self.pending)
        return sum(self._meld_points(m.match.cards, m.match)
                   for m in map(self.meld_by_id, self.pending))

    def _meld_points(self, kinds: tuple[int, ...], match: Match | None = None) -> int:
        """The points of a meld of card ``kinds`` (``match``: how they meld, if known)
        toward an opening minimum: each card's value, a wild card's the card it stands for
        with ``initial_meld.wild_as_card``, and an ace at the low end of a run
        ``initial_meld.low_ace`` (with ``wild_as_card``, a wild card standing for it too)."""
        rules = self.rules
        if not rules.wild_as_card and rules.low_ace is None:
            return sum(rules.values[k] for k in kinds)
        if match is None:
            match = rules.melds.match(kinds)
        if rules.wild_as_card:
            points = self._opening_points(match)
        else:
            points = sum(rules.values[k] for k in kinds)
        low = rules.low_ace
        if low is not None and match.is_run and match.low == 0 and rules.melds.rank_at(0) == 0:
            ace = match.cards[0]  # the card at the ace's place, low
            if ace < 4 and (ace not in rules.wild or ace == match.suit):  # an ace (a wild
                # one standing as itself in its suit's run too: the old rule)
                points += low - rules.values[ace]
            elif rules.wild_as_card:  # a wild card standing for the ace, priced as one
                points += low - self._stand_in_value(0, match.suit)
        return points

    def _stand_in_value(self, rank: int, suit: int) -> int:
        """The value of the card a wild card stands for at ``rank``: of ``suit``, or in a
        meld of any suits (``suit`` -1) the least of that rank's (as ``cards.values`` may
        price one card apart: QS)."""
        values = self.rules.values
        if suit >= 0:
            return values[rank * 4 + suit]
        return min(values[rank * 4 + s] for s in range(4))

    def _opening_points(self, match: Match) -> int:
        """A meld's points toward an opening minimum: each card's value, a wild card at the
        value of the card it stands for (``initial_meld.wild_as_card``)."""
        values = self.rules.values
        wild = self.rules.wild
        if not match.is_run:  # a set: each natural card its own value, each wild card its
            rank = match.rank  # rank's; all wild, or a flush (whose wild cards stand for no
            if rank < 0:       # card in particular): each card its own
                return sum(values[k] for k in match.cards)
            stand = self._stand_in_value(rank, -1)
            return sum(stand if k in wild else values[k] for k in match.cards)
        rank_at = self.rules.melds.rank_at
        return sum(self._stand_in_value(rank_at(pos), match.suit) if k in wild else values[k]
                   for pos, k in zip(range(match.low, match.low + len(match.cards)),
                                     match.cards, strict=True))

    def _opening_minimum(self, p: int) -> int:
        return self.rules.minimum(self.scores[self.team_of[p]], self.hand_number,
                                  self.n_players)

    def _opened_words(self, p: int) -> str:
        """What opening is for ``p`` in this deal, in a refusal's words."""
        if self._contract_of(p):
            return "met the contract"
        least = self._opening_minimum(p)
        if least and not self.rules.all_at_once:
            return f"laid melds worth {least} or more in one turn"
        return "made your opening"

    def _at_once_spare(self) -> int:
        """The cards an opening laid all at once (``initial_meld.all_at_once``) may leave in
        the hand: one, for the discard that goes out — wherever discarding the last card
        goes out (``going_out.by_discard``, or ``requires_discard``) — else none."""
        return 0 if self.rules.meld_out else 1

    def _opening_met(self, p: int) -> bool:
        """Whether the melds pending make the player's opening: the contract's kinds all
        laid, worth the minimum."""
        if self.rules.all_at_once and len(self.hands[p]) > self._at_once_spare():
            return False  # the whole hand, or nothing
        return not self._still_needed() and self._pending_value() >= self._opening_minimum(p)

    def _legal_opening(self, p: int) -> list[Action]:
        """The play phase of a player who has not opened: melds toward the opening (of the
        kinds the contract still needs, if it has one), pending until the contract is down
        and worth the minimum; lay-offs where ``lay_off_before``; a discard once nothing is
        pending; ``withdraw`` to take pending melds back."""
        kinds = self._kinds(self.hands[p])
        keep = self._keep(p)
        need = self._still_needed()
        out: list[Action] = []
        owed = self.must_use is not None  # a taken card owed: the opening is made this turn
        must = None if self.pending else self.must_use  # (still held: the next meld holds it)
        mr = self.rules.melds
        if not self.withdrew:
            contract = bool(self._contract_of(p))
            short = self._opening_minimum(p) - self._pending_value()
            search = _OpeningSearch()
            cut: list[Action] = []  # melds the search for an opening turned down
            for meld in mr.melds_in(kinds, most=MOST_LISTED_MELDS):
                left = len(kinds) - len(meld)
                if (must is not None and must not in meld) or left < keep:
                    continue
                if mr.match(meld) is None:
                    continue
                after = self._still_needed(meld) if contract and need else need
                if contract and need and len(after) == len(need):
                    continue  # it covers none of the contract's melds still to lay
                if left == keep:  # the hand's last cards: only if they make the opening
                    last = not after
                    if not (last and self._meld_points(meld) >= short):
                        continue
                if owed and not self._opens_after(p, kinds, meld, search):
                    cut.append(_action("meld", meld))
                    continue  # it would leave no opening this turn for the card owed
                out.append(_action("meld", meld))
            if cut and not out and search.cut:
                out = cut  # the search gave up (a take found an opening): the player moves on
        if self.rules.lay_off_before and not self.pending and len(kinds) - 1 >= keep and not (
                must is not None and self.rules.taken_new_meld):
            mine = [m for m in self.melds if self._may_lay_off_on(p, m)]
            out += [a for a in self._layoffs_for(p, mine, one_per_card=False)
                    if must is None or a.cards[0] == must]
        elif self.pending and not owed and len(kinds) - 1 >= max(keep, 1):
            # a meld laid toward the opening this turn grows as the player builds it (never
            # emptying the hand: the opening is made by melds, or by the discard after; not
            # while a card taken is owed, whose melds stay: the search for the opening that
            # keeps a move open looks at melds only)
            out += self._layoffs_for(p, [self.meld_by_id(mid) for mid in self.pending],
                                     one_per_card=False)
        if self.pending:
            if not owed:  # the card owed is in them: they stay
                out.append(_WITHDRAW)
        elif must is None and not self._keeps_last(p):
            taken = None if self.rules.discard_taken else self.taken
            distinct = sorted(set(kinds))
            if self.rules.discard_bans:
                out += self._ban_discards(p, distinct, taken)
            else:
                out += [_action("discard", (k,)) for k in distinct
                        if k != taken or len(distinct) == 1]
        return out

    # ------------------------------------------------------------------ discard bans
    def _discard_condition(self, p: int, cond: str, kind: int) -> bool:
        """Whether ``cond`` of a ``pile.discard_bans`` entry holds for ``p`` discarding a
        card of ``kind`` now."""
        if cond in ("going_out", "not_going_out"):
            out = len(self.hands[p]) == 1 and not (self.rules.reserve
                                                   and self._reserve_waiting(p))
            return out if cond == "going_out" else not out
        if cond == "opened":
            return self.opened[p]
        team, team_of = self.team_of[p], self.team_of
        if cond == "book":
            return bool(self._books_of(team))
        rank = rank_of_kind(kind)
        return any(team_of[m.owner] == team and m.match.suit < 0 and m.match.rank == rank
                   and self._meld_book(m) is not None for m in self.melds)

    def _ban_on(self, p: int, kind: int) -> str | None:
        """The condition a ban on discarding ``kind`` waits for, or None: not banned."""
        for cond in self.rules.discard_ban_of.get(kind, ()):
            if not self._discard_condition(p, cond, kind):
                return cond
        return None

    def _ban_discards(self, p: int, distinct: list[int], taken: int | None) -> list[Action]:
        """The discards of ``distinct`` card kinds ``p`` may make under
        ``pile.discard_bans``: those not banned; every one when all are banned and the
        bans are lifted (``all_banned: lift``), else ``pass``."""
        offered = [k for k in distinct if k != taken or len(distinct) == 1]
        free = [_DISCARD[k] for k in offered if self._ban_on(p, k) is None]
        if free or not offered:
            return free
        return [_PASS] if self.rules.all_banned_pass else [_DISCARD[k] for k in offered]

    # ------------------------------------------------------------------ books
    def _book_kind(self, size: int, match: Match, n_wild: int) -> int | None:
        """The ``books.kinds`` index of a meld of ``size`` cards shaped ``match`` with
        ``n_wild`` wild cards (-1: a book, the pack naming no kinds); None: no book."""
        rules = self.rules
        if size < rules.book_size:
            return None
        if not rules.book_kinds:
            return -1
        rank = SEQ if match.is_run else (WILD_SLOT if match.rank < 0 else match.rank)
        return next((k.index for k in rules.book_kinds if k.matches(rank, n_wild)), None)

    def _meld_book(self, m: TableMeld) -> int | None:
        # the wild cards the meld counts (a wild card in its own place is natural)
        return self._book_kind(len(m.cards), m.match, self.rules.melds.wilds_in(m.match))

    def _books_of(self, team: int, grown: int | None = None, card: int | None = None,
                  new: tuple[int, ...] | None = None) -> list[int]:
        """The book kinds the melds of side ``team`` make — with ``card`` (a kind) laid
        off on meld ``grown``, or the meld of kinds ``new`` laid, when given."""
        wild, team_of, kind_of = self.rules.wild, self.team_of, self.kind_of
        out = []
        for m in self.melds:
            if team_of[m.owner] != team:
                continue
            if m.id == grown:
                fit = self._fit(m, card) if card is not None else None
                n_wild = (self.rules.melds.wilds_in(fit[0]) if fit is not None else
                          sum(1 for c in m.cards if kind_of[c] in wild) + (card in wild))
                k = self._book_kind(len(m.cards) + 1, m.match, n_wild)
            else:
                k = self._meld_book(m)
            if k is not None:
                out.append(k)
        if new is not None:
            match = self.rules.melds.match(new)
            k = self._book_kind(len(new), match, sum(1 for c in new if c in wild)
                                if match is None else self.rules.melds.wilds_in(match))
            if k is not None:
                out.append(k)
        return out

    def _books_reason(self, p: int, held: list[int]) -> tuple[str, str] | None:
        """Why ``p``'s side, holding books of the kinds ``held``, may not go out; None if
        it may."""
        from .._rules import missing_books

        rules = self.rules
        need = rules.min_books_by_players.get(self.n_players, rules.min_books)
        if len(held) < need:
            return ("out/needs-books", f"your side needs {need} book{'s' if need != 1 else ''} "
                    f"(melds of {rules.book_size} cards or more) to go out (it has "
                    f"{len(held)}): keep two cards until it has")
        missing = missing_books(rules.book_kinds, rules.required_book_counts,
                                [k for k in held if k >= 0])
        if missing:
            return ("out/required-books", f"your side needs {' and '.join(missing)} before "
                    "going out: keep two cards until it has")
        return None

    def _books_block(self, p: int, a: Action) -> tuple[str, str] | None:
        """The reason a play ``a`` is refused for leaving ``p`` too few cards while their
        side lacks the books to go out (a meld or lay-off must leave two cards, a discard
        one, until it has them); None if it may be played."""
        left = len(self.hands[p]) - len(a.cards)
        if a.type == "meld":
            return self._books_left(p, left, new=a.cards)
        if a.type == "add":
            return self._books_left(p, left, grown=a.target, card=a.cards[0])
        if a.type == "discard" and left < 1:
            return self._books_left(p, left)
        return None

    def _books_left(self, p: int, left: int, **change: Any) -> tuple[str, str] | None:
        """Why a play that leaves ``p`` holding ``left`` cards (after a meld or lay-off:
        ``change``, as :meth:`_books_of` takes it) is refused while their side lacks the
        books to go out; None if it may be played."""
        if left >= 2 or (self.rules.reserve and self._reserve_waiting(p)):
            return None  # (a hand played out picks up the reserve: not going out yet)
        return self._books_reason(p, self._books_of(self.team_of[p], **change))

    def _withdraw(self, p: int) -> None:
        """Take the melds laid toward the contract this turn back into the hand."""
        back = set(self.pending)
        for m in self.melds:
            if m.id in back:
                self.hands[p].extend(m.cards)
        self.melds = [m for m in self.melds if m.id not in back]
        if self.formed:  # (melds.rearrange: the melds laid this turn)
            self.formed = [i for i in self.formed if i not in back]
        if back and all(m.id < min(back) for m in self.melds):  # the latest ids: free again,
            self.next_meld = min(back)  # so ids stay within the action space's targets
        self.pending = []
        self.withdrew = True

    # ------------------------------------------------------------------ rearranging
    def _turn_why(self, a: Action) -> tuple[str, str] | None:
        """Why ``a``, in the play phase of a pack that rearranges melds or plays or draws,
        is refused — for the actions those keys add or change; None: ask on."""
        p, t = self.current, a.type
        loose = ("the " + ", ".join(card_code(k) for k in sorted(self._kinds(self.loose)))
                 + " lie loose: lay them on the table, or restore it") if self.loose else ""
        played = len(self.hands[p]) < self.turn_hand
        pending = self.pending and not self.opened[p]
        if t == "break":
            m = self.meld_by_id(a.target)
            if m is None:
                return "meld/no-such-meld", f"there is no meld m{a.target}"
            if not self.opened[p] or (self.rules.has_opening and self.first_laid[p] == self.turns):
                return "break/not-opened", ("you may break melds from the turn after you "
                                            "opened (" + self._opened_words(p) + ")")
            if self.restored >= self.rules.restores:
                times = "" if self.restored == 1 else f" {self.restored} times"
                return "break/restored", (f"you restored the table{times} this turn, as "
                                          "often as melds.restores allows: you break "
                                          "nothing more until your next turn")
            if m.id in self.formed:
                return "break/laid-this-turn", (f"m{m.id} was laid this turn: restore the "
                                                "table to lay its cards otherwise")
            if m.id in self.pending:
                return "break/pending", f"m{m.id} is pending toward your opening"
            whose = "your side's" if self.rules.lay_off == "side" else "your own"
            return "break/not-your-meld", (f"m{m.id} is not a meld you may break: only "
                                           f"{whose} melds (melds.lay_off.onto)")
        if t == "restore":
            return "restore/nothing-broken", "you have broken no meld this turn"
        if t == "discard" and self.rules.no_discard:
            return "discard/none", (
                "this game has no discard: end the turn with done"
                + (", once you have played (turn.play_or_draw)" if self.rules.play_or_draw
                   else " (turn.discard: false)"))
        if t in ("discard", "pass", "done") and self.loose:
            return "rearrange/loose-cards", loose
        if pending and (t == "done" or t in ("draw", "pass") and self.rules.play_or_draw):
            return self._pending_why("draw" if t == "draw" else "end the turn")
        if t in ("draw", "pass", "done") and self.rules.play_or_draw:
            if t == "done":
                if self.before is not None:
                    return "turn/nothing-played", ("you have played no card from your hand "
                                                   "this turn: play one, or restore the table "
                                                   "and " + ("draw" if self.stock else "pass"))
                return "turn/nothing-played", ("you have played no card from your hand this "
                                               "turn: " + ("draw" if self.stock else "pass")
                                               + " instead")
            if played:
                return "turn/played", ("you have played from your hand this turn: end it "
                                       "with done" + (" once nothing lies loose"
                                                      if self.loose else ""))
            if self.before is not None:
                return "turn/rearranged", ("you broke melds this turn: play a card from your "
                                           "hand and say done once nothing lies loose, or "
                                           "restore the table and then " + t)
            if t == "draw":
                return "draw/stock-empty", "the stock is empty: play, or pass"
            return "turn/must-draw", "you may pass only with the stock empty: play, or draw"
        return None

    def _pending_why(self, before: str) -> tuple[str, str]:
        """The refusal of what ends a turn (``before`` it: ``discard``, ``draw``, ``end the
        turn``) while melds toward the contract or the opening are pending."""
        toward = "the contract" if self._contract_of(self.current) else "your opening"
        return "contract/pending", (f"your melds toward {toward} are pending: lay the rest "
                                    f"of it, or withdraw them, before you {before}")

    def _leaves_too_few(self, a: Action) -> bool:
        """Whether the meld ``a`` would leave the player to move fewer cards, in hand and
        loose, than :meth:`_keep` asks (one to discard)."""
        p = self.current
        return len(self.hands[p]) + len(self.loose) - len(a.cards) < self._keep(p)

    def _free_meld_id(self) -> int:
        """The least meld id no meld on the table has (``melds.rearrange``: broken melds
        free their ids, so that ids stay within the action space's targets)."""
        used = {m.id for m in self.melds}
        mid = 1
        while mid in used:
            mid += 1
        return mid

    def _take_play_cards(self, p: int, kinds) -> list[int]:
        """Remove one physical card of each kind for a meld or lay-off: a loose card of
        that kind if one lies loose (``melds.rearrange``), else one from ``p``'s hand."""
        out = []
        k = self.kind_of
        for kind in kinds:
            found = [c for c in self.loose if k[c] == kind]
            if found:
                c = min(found)
                self.loose.remove(c)
                out.append(c)
            else:
                out += self._take_cards(p, (kind,))
        return out

    def _may_break(self, p: int) -> bool:
        """Whether ``p`` may break melds now (``melds.rearrange``): opened before this
        turn, and not since restoring the table this turn."""
        return (self.opened[p] and self.restored < self.rules.restores
                and (not self.rules.has_opening or self.first_laid[p] != self.turns))

    def _breakable(self, p: int) -> list[TableMeld]:
        """The melds ``p`` may break now: not laid this turn, not pending, ones ``p`` may
        lay off onto."""
        if not self._may_break(p):
            return []
        formed, pending = self.formed, self.pending
        return [m for m in self.melds if m.id not in formed and m.id not in pending
                and self._may_lay_off_on(p, m)]

    def _rearranging(self, p: int) -> list[Action]:
        """``break m<id>`` for each meld ``p`` may break, and ``restore`` once a meld has
        been broken this turn."""
        out = [_action("break", (), m.id) for m in sorted(self._breakable(p),
                                                          key=lambda m: m.id)]
        if self.before is not None:
            out.append(_RESTORE)
        return out

    def _turn_snapshot(self, p: int) -> tuple:
        """``p``'s hand and the table as they are now (what ``restore`` brings back)."""
        return (self.hands[p][:], [m.copy() for m in self.melds], self.formed[:],
                self.must_use)

    def _break(self, p: int, target: int) -> None:
        """Lift meld ``target``'s cards off the table: they lie loose until laid again."""
        if self.before is None:  # the hand and the table at the turn's start: for restore
            self.before = self.start if self.start is not None else self._turn_snapshot(p)
            self.start = None
        m = self.meld_by_id(target)
        self.melds.remove(m)
        self.loose.extend(m.cards)

    def _restore_table(self, p: int) -> None:
        """Put the table and ``p``'s hand back as they were at the start of the turn: every
        card played this turn back in the hand, every meld broken whole again."""
        hand, melds, formed, must_use = self.before
        self.hands[p] = hand[:]
        self.melds = [m.copy() for m in melds]
        self.formed, self.must_use = formed[:], must_use
        self.loose = []
        self.before = None
        self.restored += 1

    def _turn_ends(self, p: int) -> list[Action]:
        """How the player to move ends a turn with no discard: never while a card lies
        loose or a meld waits toward an opening; with ``turn.discard: false``, ``done``;
        with ``turn.play_or_draw``, ``draw`` (or, with the stock empty, ``pass``) while
        they have played nothing and broken nothing, ``done`` once a card of their hand is
        on the table."""
        if self.loose or self.pending:
            return []
        if not self.rules.play_or_draw:  # (turn.discard: false) drawn already: done
            return [_DONE]
        if len(self.hands[p]) < self.turn_hand:  # played
            return [_DONE]
        if self.before is not None:
            return []
        return [_DRAW] if self.stock else [_PASS]

    def _do_play(self, a: Action) -> None:
        p = self.current
        t = a.type
        if t in _TURN_TYPES or (t == "pass" and self.rules.play_or_draw):
            # (rearranging, and a turn to play or to draw)
            self._do_turn_action(p, a)
            return
        if self.rules.rearrange and self.start is None and self.before is None and (
                t in ("meld", "add", "trade") and self._may_break(p)):
            self.start = self._turn_snapshot(p)  # what a restore brings back
        if t == "meld":
            self._lay_meld(p, a.cards)
            if not self.opened[p]:
                self.pending.append(self.melds[-1].id)
                if self._contract_of(p):
                    self._label_pending()
                if self._opening_met(p):  # the contract is down, worth the minimum: opened
                    self.opened[p] = True
                    self.pending = []
                    self.must_use = None  # a card owed is in the opening
            if self.opened[p] and self.first_laid[p] is None:  # on the table to stay
                self.first_laid[p] = self.turns
        elif t == "withdraw":
            self._withdraw(p)
            return
        elif t == "add":
            self._lay_off(p, a.cards[0], a.target)
            if not self.opened[p] and a.target in self.pending:  # growing the opening
                if self._contract_of(p):
                    self._label_pending()
                if self._opening_met(p):
                    self.opened[p] = True
                    self.pending = []
                    self.must_use = None
                else:
                    return
            if self.first_laid[p] is None:
                self.first_laid[p] = self.turns
        elif t == "trade":
            self._win_back(p, a.cards[0], a.target)
            return  # the hand keeps its size
        elif t == "pass":  # every card held is banned from the discard (all_banned: pass)
            self.taken = None
            self.withdrew = False
            self._end_turn()
            return
        else:
            self._discard(p, a.cards[0])
            return
        if not self.hands[p] and not self.loose and not self._pick_up_reserve(p):
            self._end_hand("went_out", p)  # (a reserve: play on)

    def _do_turn_action(self, p: int, a: Action) -> None:
        """``break``, ``restore``, and ``turn.play_or_draw``'s ``draw``, ``pass`` and
        ``done``."""
        t = a.type
        if t == "break":
            self._break(p, a.target)
            return
        if t == "restore":
            self._restore_table(p)
            return
        self.withdrew = False  # (the turn ends: a withdrawal is of this turn only)
        if t == "draw":
            self._draw_stock()
            self.passes = 0
            self._end_turn()
        elif t == "done":
            self.passes = 0
            self._end_turn()
        else:  # pass: the stock is empty and the player plays nothing
            self.passes += 1
            if self.passes >= sum(1 for q in range(self.n_players) if not self._out_of_hand(q)):
                self._end_hand("stock_empty", None)  # every player in the hand passed
            else:
                self._end_turn()

    def _lay_meld(self, p: int, kinds: tuple[int, ...], turned: int | None = None) -> None:
        if turned is None:
            cards = self._take_play_cards(p, kinds) if self.loose else self._take_cards(p, kinds)
        else:  # the turned card (not in the hand) in its kind's place
            i = kinds.index(self.kind_of[turned])
            cards = self._take_cards(p, kinds[:i] + kinds[i + 1:])
            cards.insert(i, turned)
        if self.must_use is not None and self.must_use in kinds and self.opened[p]:
            self.must_use = None  # (before the opening: owed until the opening is made)
        match = self.rules.melds.match(kinds)
        if self.rules.rearrange:  # the least free id, so ids stay within the action space
            mid = self._free_meld_id()
            self.formed.append(mid)
        else:
            mid = self.next_meld
        self.melds.append(TableMeld(mid, p, cards, match))
        self.next_meld = max(self.next_meld, mid + 1)
        if self.rules.tracks_laid:
            self._credit(p, kinds, match)

    def _lay_off(self, p: int, kind: int, target: int, turned: int | None = None) -> None:
        m = self.meld_by_id(target)
        grown, low, high = self._fit(m, kind)
        if turned is not None:
            c = turned
        else:
            (c,) = (self._take_play_cards if self.loose else self._take_cards)(p, (kind,))
        m.cards.append(c)
        before = m.match
        m.match, m.low_ext, m.high_ext = grown, low, high
        if self.rules.tracks_laid:
            self._credit(p, (kind,), grown, before)
        m.fits = {}
        if self.must_use is not None and self.must_use == kind:
            self.must_use = None

    def _trades_for(self, p: int, kinds: list[int], must: int | None) -> list[Action]:
        """The wild cards ``p`` may win back (``melds.lay_off.win_back``): ``trade <card>
        to m<id>`` for each natural card held that a wild card stands for in a meld ``p``
        may lay off onto."""
        out = []
        mr = self.rules.melds
        wild = self.rules.wild
        held = sorted(set(kinds) - wild - {JOKER_KIND}) if must is None else (
            [must] if must not in wild else [])
        for m in self.melds:
            if not any(k in wild for k in m.match.cards) or not self._may_lay_off_on(p, m):
                continue
            if self.rules.restricts_books and self._book_adds(m) in ("none", "wilds"):
                continue  # a book that takes no natural card gives no wild card back
            for kind in held:
                if mr.win_back(m.match, kind) is not None:
                    out.append(_action("trade", (kind,), m.id))
        return out

    def _win_back(self, p: int, kind: int, target: int) -> None:
        """Put the natural card ``kind`` into meld ``target`` in the place of the wild card
        that stands for it, and give that wild card to ``p``."""
        m = self.meld_by_id(target)
        match, wild_kind = self.rules.melds.win_back(m.match, kind)
        (c,) = self._take_cards(p, (kind,))
        kind_of = self.kind_of
        w = next(x for x in m.cards if kind_of[x] == wild_kind)
        m.cards.remove(w)
        m.cards.append(c)
        self.hands[p].append(w)
        left = {}  # the meld's cards in the order of its shape, so a save reads it back so
        for x in m.cards:
            left.setdefault(kind_of[x], []).append(x)
        m.cards = [left[k].pop() for k in match.cards]
        m.match = match
        m.fits = {}
        if self.must_use is not None and self.must_use == kind:
            self.must_use = None
        if self.first_laid[p] is None:
            self.first_laid[p] = self.turns

    def _trade_why(self, a: Action) -> tuple[str, str] | None:
        """Why a ``trade`` (a wild card won back) is refused before the cards are looked at:
        the pack, the opening, the meld and whose it is."""
        if not self.rules.win_back:
            return "trade/not-allowed", ("wild cards on the table are not won back in this "
                                         "game (melds.lay_off.win_back)")
        if not self.opened[self.current]:
            return "trade/not-opened", "you may win back a wild card only once you have opened"
        if self.phase == PLAY and self._opened_this_turn(self.current):
            return "trade/opening-turn", ("you opened this turn: like a lay-off, a wild card "
                                          "is won back from your next turn "
                                          "(initial_meld.lay_off_same_turn: false)")
        m = self.meld_by_id(a.target)
        if m is None:
            return "meld/no-such-meld", f"there is no meld m{a.target}"
        if not self._may_lay_off_on(self.current, m):
            return "trade/not-your-meld", (f"m{a.target} is not a meld you may lay off onto, "
                                           "so you may not win back its wild cards")
        if a.cards and a.cards[0] in self.rules.wild:
            return "trade/wild-card", (f"{card_code(a.cards[0])} is a wild card: a wild card "
                                       "is won back with the natural card it stands for")
        return None

    def _credit(self, p: int, kinds, match: Match, before: Match | None = None) -> None:
        """Count the cards ``p`` laid into ``match`` (grown from ``before`` by a lay-off):
        their values — a wild card's the card it stands for, with ``laid``'s ``wilds:
        as_card`` — and the natural aces among them at the low end of a run (``low_ace``)."""
        laid = self.laid[p]
        if self.rules.laid_as_card:
            laid[0] += self._opening_points(match) - (
                self._opening_points(before) if before is not None else 0)
        else:
            laid[0] += sum(self.rules.values[k] for k in kinds)
        if match.is_run and match.low == 0:
            laid[1] += sum(1 for k in kinds if k != JOKER_KIND and k // 4 == 0
                           and k not in self.rules.wild)

    def _discard(self, p: int, kind: int) -> None:
        k = self.kind_of
        last = _last_deck
        if last[1] if last[0] is k else _own_kinds(k):  # (_take_cards' usual case, inlined:
            self.hands[p].remove(kind)  # a card its own kind)
            c = kind
        else:
            (c,) = self._take_cards(p, (kind,))
        self.pile.append(c)
        limit = self.rules.returned_limit
        if self.taken is not None and self.taken == kind:
            self.returned_in_row += 1
        else:
            self.returned_in_row = 0
        self.taken = None
        if limit is not None and self.returned_in_row >= limit:
            self._end_hand("limit", None)
            return
        if not self.hands[p] and not self._pick_up_reserve(p):  # (a reserve: the next hand)
            self._end_hand("went_out", p)
            return
        self.discarder = p if self.rules.buy_limit else None  # on offer to buyers
        self.withdrew = False
        self._end_turn()

    def _end_turn(self) -> None:
        last = self.last
        if last is not None:  # going_out.last_turns: one turn fewer to play
            if last[1] <= 1:
                self._end_hand("went_out", last[0])
                return
            self.last = (last[0], last[1] - 1, last[2])
        self.turns += 1
        limit = self.rules.turn_limit
        if limit is not None and self.turns >= limit:
            self._end_hand("turn_limit", None)
            return
        rules = self.rules
        if rules.wall and len(self.stock) <= rules.wall:
            if rules.wall_knock and self.knock_value is not None:
                self.current = self._next(self.current)
                self.phase = WALL
                return
            self._end_hand("wall", None)
            return
        if not self.stock:
            if rules.when_empty in _RENEWING and len(self.pile) > rules.draw_for(
                    self.n_players):  # a new stock, for at least a whole draw
                self.stock, self.pile = renewed_stock(
                    self.pile, rules.when_empty,
                    f"meldkit:{self.seed}:hand:{self.hand_number}:stock:{self.turns}")
            elif rules.when_empty == "end_at_once":
                self._end_hand("stock_empty", None)
                return
        if rules.may_sit_out and self._sitting_out:
            self.current = self._next(self.current)
        else:  # (_next's usual case, inlined)
            self.current = (self.current + 1) % self.n_players
        self.phase = DRAW
        if rules.rearrange or rules.no_discard:
            self.formed, self.before, self.restored, self.start = [], None, 0, None
            self.turn_hand = len(self.hands[self.current])
            if rules.play_or_draw:
                self.phase = PLAY
                return
        if not self.stock and not self._legal():  # nothing to take (a plugin's draw-phase
            # actions count too): the hand ends; listed again by _do, rare enough to pay
            self._end_hand("stock_empty", None)

    # ------------------------------------------------------------------ discard (gin)
    def _legal_discard(self) -> list[Action]:
        kind_of = self.kind_of
        hand = self.hands[self.current]
        last = _last_deck
        own = last[1] if last[0] is kind_of else _own_kinds(kind_of)  # (a card its own kind)
        if own:
            out = list(map(_DISCARD.__getitem__, sorted(hand)))
        else:
            kinds = [kind_of[c] for c in hand]
            out = list(map(_DISCARD.__getitem__, sorted(set(kinds))))
        taken = self.taken
        if taken is not None and not self.rules.discard_taken and _DISCARD[taken] in out:
            out.remove(_DISCARD[taken])
        kv = self.knock_value
        if kv is not None and self.rules.knock_after_draw:
            rules = self.rules
            test = "openspiel" if rules.openspiel_knock else True
            if rules.melds.mask_within(hand_bits(hand), kv, test) if own else \
                    rules.melds.deadwood_within(kinds, kv, discard=test):
                out.append(_KNOCK)
        return out

    def _do_discard(self, a: Action) -> None:
        if a.type == "knock":
            self.knocker = self.current
            self.knock_discarded = False
            self.phase = KNOCK
            return
        self._discard(self.current, a.cards[0])

    # ------------------------------------------------------------------ knock (the knocker)
    def _legal_knock(self) -> list[Action]:
        p = self.current
        kinds = self._kinds(self.hands[p])
        mr = self.rules.melds
        kv = self.knock_value
        laid = any(m.owner == p for m in self.melds)
        out: list[Action] = []
        big_gin = self.rules.terms.big_gin_bonus is not None
        if not self.knock_discarded and not laid:
            out = [_action("discard", (k,)) for k in mr.discards_within(kinds, kv)]
            if big_gin and mr.min_deadwood(kinds) == 0:
                out += [_action("meld", m) for m in mr.melds_within(kinds, 0)]
            return out
        if not self.knock_discarded:  # big gin: every card must be melded
            out = [_action("meld", m) for m in mr.melds_within(kinds, 0)]
            if not kinds:
                out.append(_action("done"))
            return out
        out = [_action("meld", m) for m in mr.melds_within(kinds, kv)]
        if self._value(self.hands[p]) <= kv:
            out.append(_action("done"))
        return out

    def _do_knock(self, a: Action) -> None:
        p = self.current
        t = a.type
        if t == "discard":
            (c,) = self._take_cards(p, a.cards)
            self.pile.append(c)
            self.knock_discarded = True
            self.taken = None
        elif t == "meld":
            self._lay_meld(p, a.cards)
        else:  # done
            self.defenders = [(p + i) % self.n_players for i in range(1, self.n_players)]
            self.current = self.defenders[0]
            self.phase = LAYOFF
            self.layoff_stage = self._first_layoff_stage()

    def _first_layoff_stage(self) -> int:
        """Where each defender starts after a knock: laying off onto the knocker's melds
        (1), or, where nobody lays off (``melds.lay_off.onto: none``) or the knocker went
        gin (an empty hand) without ``knock.lay_off_on_gin``, laying their own melds (2)."""
        if self.rules.lay_off == "none":
            return 2
        gin = not self.hands[self.knocker]
        return 2 if gin and not self.rules.spec.knock.lay_off_on_gin else 1

    # ------------------------------------------------------------------ lay-offs (defender)
    def _legal_layoff(self) -> list[Action]:
        p = self.current
        out = [_action("done")]
        if self.layoff_stage == 1:
            theirs = [m for m in self.melds if m.owner == self.knocker]
            out += self._layoffs_for(p, theirs, one_per_card=True)
        else:
            out += [_action("meld", m) for m in self.rules.melds.melds_in(
                self._kinds(self.hands[p]), most=MOST_LISTED_MELDS)]
        return out

    def _do_layoff(self, a: Action) -> None:
        p = self.current
        t = a.type
        if t == "add":
            self._lay_off(p, a.cards[0], a.target)
        elif t == "meld":
            self._lay_meld(p, a.cards)
        elif self.layoff_stage == 1:
            self.layoff_stage = 2
        else:
            self.defenders.pop(0)
            if self.defenders:
                self.current = self.defenders[0]
                self.layoff_stage = self._first_layoff_stage()
            else:
                self._end_hand("knock", self.knocker)

    # ------------------------------------------------------------------ the wall
    def _legal_wall(self) -> list[Action]:
        out = [_action("pass")]
        p = self.current
        kinds = self._kinds(self.hands[p]) + [self.kind_of[self.pile[-1]]]
        if self._knock_allowed_with(kinds):
            out.append(_action("knock"))
        return out

    def _do_wall(self, a: Action) -> None:
        if a.type == "pass":
            self._end_hand("wall", None)
            return
        self._take_top()
        self.knocker = self.current
        self.knock_discarded = False
        self.phase = KNOCK

    # ------------------------------------------------------------------ the end of a hand
    @staticmethod
    def _idle(r: TableHandResult) -> bool:
        """Whether a finished hand was idle: it ended on an empty stock or with no legal
        move, nobody went out and, where the pack scores what is laid (``laid``), nobody
        laid a card (else such a hand is void: no score moves, and its melds leave the
        table with it)."""
        return (r.went_out is None and r.ended_by in IDLE_ENDINGS
                and not any(points for points, _ in r.final.laid))

    def _book_name(self, m: TableMeld) -> str | None:
        """The kind name of the book meld ``m`` makes (``book`` for a pack that names no
        kinds), where the pack counts books; else None."""
        if not self.rules.tracks_books:
            return None
        k = self._meld_book(m)
        return None if k is None else self.rules.book_kinds[k].name if k >= 0 else "book"

    def _final_books(self) -> tuple[tuple[str, ...], ...]:
        """Per player, the kind name of each book they own on the table (``book`` for a
        pack that names no kinds)."""
        out: list[list[str]] = [[] for _ in range(self.n_players)]
        for m in self.melds:
            name = self._book_name(m)
            if name is not None:
                out[m.owner].append(name)
        return tuple(map(tuple, out))

    def _out_at_once(self, how: str, who: int | None) -> bool:
        """Whether ``who`` went out laying their whole hand in this one turn: nothing of
        theirs stayed on the table from an earlier turn (tracked where the pack scores it;
        after last turns, the turn they went out in)."""
        turn = self.turns if self.last is None else self.last[2]
        return (self.rules.tracks_at_once and how == "went_out" and who is not None
                and self.first_laid[who] in (None, turn))

    def _start_last_turns(self, how: str, who: int | None) -> bool:
        """``going_out.last_turns``: whether the hand goes on to the others' last turns
        instead of ending ``how`` now — ``who`` went out first (the last turns begin), or
        went out too in their last turn (it ends) — or the stock or the hand's turn limit
        ran out in them (the hand ends, won by who went out first: True after ending it
        so).  False for the hand's own end, the first out's ``went_out``."""
        last = self.last
        if last is None:
            if how != "went_out" or who is None:
                return False
            others = sum(1 for q in range(self.n_players)
                         if q != who and not self._out_of_hand(q))
            if not others:
                return False
            self.last = (who, others + 1, self.turns)  # (+1: the turn going out ends)
        elif how in ("stock_empty", "wall", "turn_limit"):  # not void: someone went out
            self._end_hand("went_out", last[0])
            return True
        elif how != "went_out" or who == last[0]:
            return False
        self.taken = None  # the turn ends, as a discard ends it
        self.withdrew = False
        self._end_turn()
        return True

    def _end_hand(self, how: str, who: int | None) -> None:
        if self.rules.last_turns and self._start_last_turns(how, who):
            return
        if self.before is not None or self.restored or self.formed or self.start:  # (done:
            self.loose, self.formed, self.before, self.restored = [], [], None, 0  # the
            self.start = None  # rearranging of melds.rearrange)
        deadwood = tuple(self._value(h) if self.dropped[p] is None else self.dropped[p]
                         for p, h in enumerate(self.hands))
        if how == "stock_empty" and self.rules.empty_winner == "lowest_count":
            n = self.n_players  # the least count held wins: of several, the first in turn
            seats = [(self.current + i) % n for i in range(n)]
            held = [p for p in seats if self.dropped[p] is None and not self.eliminated[p]]
            if held:
                how, who = "lowest_count", min(held, key=deadwood.__getitem__)
        if how == "all_dropped":  # the one left in scores nothing against
            deadwood = tuple(0 if p == who else d for p, d in enumerate(deadwood))
        big_gin = how == "knock" and not self.knock_discarded
        final = TableFinal(tuple(self.team_of), deadwood, how, who, big_gin, self.multiplier,
                           hand_number=self.hand_number,
                           laid=tuple(map(tuple, self.laid)) if self.rules.tracks_laid else (),
                           ext=json.loads(json.dumps(self.ext)) if self.ext else {},
                           at_once=self._out_at_once(how, who),
                           books=self._final_books() if self.rules.tracks_books else (),
                           reserve_taken=tuple(self.reserve_taken),
                           contracts_met=tuple(self.opened) if self.rules.contracts else (),
                           **{count: self._unmelded(deadwood, count == "unmelded_with_contract",
                                                    who if how == "all_dropped" else None)
                              for count in self.rules.counts_unmelded})
        self.last = None
        self._record(final, who, +1)
        if self._game_over():
            self._finish_game()
            return
        if no_progress(self.hand_results, self._idle):  # the game makes no progress:
            if who is None:  # it ends here (a hand nobody went out of: void, scored so)
                self._record(self.hand_results[-1].final, who, -1)
                self._record(attrs.evolve(final, ended_by="no_progress"), who, +1)
            self._finish_game()
            return
        self.dropped = [None] * self.n_players  # back in for the next hand
        nxt = self.rules.spec.deal.next_hand_first
        if nxt == "winner" and who is not None and how not in VOID_ENDINGS:
            first = who  # the hand's winner (a knocking pack refuses winner)
        elif nxt in ("left_of_previous", "winner"):
            first = self._next(self.hand_first)
        else:
            first = self.rules.first_seat(f"meldkit:{self.seed}:first:{self.hand_number}",
                                          self.n_players, nxt)
        if self.eliminated[first]:
            first = self._next(first)
        self._deal(first)

    def _unmelded(self, deadwood: tuple[int, ...], contract: bool,
                  last_in: int | None) -> tuple[int, ...]:
        """Per player, the value of the cards they hold that they cannot arrange into melds
        (with ``contract``, into melds holding the contract, else all of them): what
        ``count: unmelded`` counts; ``deadwood``'s figure for a player who dropped, holds
        nothing or is ``last_in`` (the one left when the others dropped)."""
        melds, held = self.rules.melds, self.rules.contract if contract else ()
        return tuple(d if self.dropped[p] is not None or not h or p == last_in else
                     unmelded_value(melds, self._kinds(h), held)
                     for p, (d, h) in enumerate(zip(deadwood, self.hands)))

    def _record(self, final: TableFinal, who: int | None, sign: int) -> None:
        """Score a hand's record and add it (``sign`` +1) to the hand records, the totals
        (or the score sheets) and the hands won — or take the last one back out (-1)."""
        if sign < 0:
            last = self.hand_results.pop()
            if self.rules.sheet_items:  # the sheets as the records left make them
                self.scores[:] = self._ledger().totals()
            else:
                for s in last.scores:
                    self.scores[s.team] -= s.total
            won = self._won(last.net)
            if won is not None:
                self.wins[won] -= 1
            return
        pays: list = []
        scores, net, ending = self._score(final, pays)
        won = self._won(net)
        entries = ()
        if self.rules.sheet_items:  # several scores at once: the sheets count the hand
            ledger = self._ledger()
            entries = tuple(ledger.enter(self._sheet_points(final, scores), won))
            self.scores[:] = ledger.totals()
        else:
            for s in scores:
                self.scores[s.team] += s.total
        self.hand_results.append(TableHandResult(self.hand_number, ending, who, scores, net,
                                                 final, tuple(pays), entries))
        limit = self.rules.eliminate_above
        if limit is not None:  # a total past the limit leaves the game
            before = self.eliminated
            self.eliminated = [out or self.scores[self.team_of[p]] > limit
                               for p, out in enumerate(self.eliminated)]
            if self.rules.rejoin is not None:
                self._rejoin(before)
        if won is not None:  # a hand won (for the box bonus)
            self.wins[won] += 1

    def _rejoin(self, before: list[bool]) -> None:
        """The players the hand just recorded eliminated rejoin as ``game.rejoin`` says
        (:func:`rejoin_moves`): the record keeps each one's move (``final.rejoin``) as a
        ``rejoin`` line of its score, so a save rescores it."""
        if not any(o and not b for o, b in zip(self.eliminated, before)):
            return  # nobody out this hand (the count of rejoins reads every record)
        used = rejoins_used(self.hand_results[:-1], self.n_players)
        moves = rejoin_moves(self.rules.rejoin, self.rules.eliminate_above, self.scores,
                             before, self.eliminated, used)
        if not moves:
            return
        last = self.hand_results[-1]
        scores = tuple(attrs.evolve(s, items=s.items + tuple(
            ("rejoin", moves[p]) for p in range(self.n_players)
            if moves[p] and self.team_of[p] == s.team)) for s in last.scores)
        self.hand_results[-1] = attrs.evolve(last, scores=scores,
                                             final=attrs.evolve(last.final, rejoin=moves))
        for p, move in enumerate(moves):
            if move:
                self.scores[self.team_of[p]] += move
                self.eliminated[p] = False

    def rejoins(self) -> list[int]:
        """How many times each player has rejoined the game (``game.rejoin``).

        >>> import meldkit
        >>> meldkit.new_game("rummy", players=3, seed=1).rejoins()
        [0, 0, 0]
        """
        return rejoins_used(self.hand_results, self.n_players)

    def _score(self, final: TableFinal, payments: list | None = None, items=None):
        """``(team scores, net per player, ending)`` of a hand from its record.  With a
        plugin, its ``adjust_scores(state, final, scores)`` changes the hand's team scores
        (a list of :class:`~meldkit.kernel.scoring.TableScore`, one per team) before the
        game-end items (box and game bonuses) are added; ``net`` and the ending are the
        kernel's.  ``payments`` gains what the ``pay`` items paid; ``items``: a score
        sheet's own (default: the hand's)."""
        adjust = None if self.rules.plugin is None else self._adjust_scores
        return score(final, self.rules.items if items is None else items, zero_sum=True,
                     adjust=adjust, payments=payments)  # one pass

    def _won(self, net) -> int | None:
        """The side that won a hand of ``net`` (the player paid most, if paid), or None."""
        best = max(range(self.n_players), key=lambda q: net[q])
        return self.team_of[best] if net[best] > 0 else None

    def _sheet_points(self, final: TableFinal, scores) -> list[tuple[int, ...]]:
        """What each score sheet's items score each side in a hand (``scores``: the hand's
        own lines, for the sheets that count them)."""
        own = [0] * self.n_teams
        for s in scores:
            own[s.team] += s.total
        out = []
        for items in self.rules.sheet_items:
            if items is None:
                out.append(tuple(own))
                continue
            sheet = [0] * self.n_teams
            for s in self._score(final, items=items)[0]:
                sheet[s.team] += s.total
            out.append(tuple(sheet))
        return out

    def _ledger(self) -> Ledger:
        """The score sheets' ledger after the finished hands (replayed from their records),
        before any game-end close."""
        spec = self.rules.spec
        rules = sheet_rules(spec, self.rules.target_for(self.n_players))
        hands = [(None, self._won(r.net), r.sheets) for r in self.hand_results]
        return Ledger.replay(rules, self.n_teams, hands, spec.game.winner == "lowest",
                             spec.game.tie == "draw")[0]

    def _adjust_scores(self, final: TableFinal, scores: list) -> list:
        """The plugin's ``adjust_scores`` on the lines scored before the game-end items."""
        plugin = self.rules.plugin
        scores = call_hook(plugin.name, "adjust_scores", plugin.adjust_scores, self, final,
                           scores)
        try:
            scores = list(scores)
            ok = all(isinstance(s, TableScore) for s in scores)
        except TypeError:
            ok = False
        if not ok:
            raise PluginError(f"plugin {plugin.name!r}: hook adjust_scores must return a list "
                              f"of TableScore (one per team) in a table-meld pack, not "
                              f"{scores!r:.80}")
        return scores

    def rescore(self, result) -> tuple[int, ...]:
        """A finished hand's team totals recomputed from its record (``result.final``)."""
        scores, _, _ = self._score(result.final)
        return tuple(s.total for s in scores)

    def _game_over(self) -> bool:
        spec = self.rules.spec.game
        if self.rules.sheet_items:  # the sheets end the game (or game.hands does)
            return self._ledger().over(spec.sheets_end == "first") or (
                spec.hands is not None and len(self.hand_results) >= spec.hands)
        if spec.eliminate_above is not None:  # the last one in wins
            return sum(not out for out in self.eliminated) <= 1 or (
                spec.hands is not None and len(self.hand_results) >= spec.hands)
        if self.rules.contracts and max(self.contracts_met()) >= len(self.rules.contracts):
            return True  # a player has met the last contract (or game.hands, just below)
        if spec.hands is not None:  # game.hands: a fixed number of hands, all played
            return len(self.hand_results) >= spec.hands  # a tie then: a drawn game
        if max(self.scores) < self.rules.target_for(self.n_players):
            return False
        if spec.tie == "play_on":  # the leader alone: the highest, or the lowest total
            best = max(self.scores) if spec.winner == "highest" else min(self.scores)
            return self.scores.count(best) == 1
        return True

    def _finish_game(self) -> None:
        spec = self.rules.spec.game
        if self.rules.sheet_items:  # each sheet still open ends, with its bonuses
            last, ledger = self.hand_results[-1], self._ledger()
            self.hand_results[-1] = attrs.evolve(last, sheets=tuple(ledger.close(last.sheets)))
            self.scores[:] = ledger.totals()
            self.phase = OVER
            return
        extra: list[list[tuple[str, int]]] = [[] for _ in range(self.n_teams)]
        if spec.box_bonus:
            for t in range(self.n_teams):
                if self.wins[t]:
                    extra[t].append(("box", spec.box_bonus * self.wins[t]))
        win = self.winner_before_bonus()
        if spec.game_bonus and win is not None:
            extra[win].append(("game", spec.game_bonus))
        if spec.shutout_multiplier > 1 and win is not None:  # every other side at 0
            extra[win] += shutout_bonus(self.scores, win, extra[win], spec.shutout_multiplier)
        if any(extra):  # recorded in the last hand's record, so it rescores the same
            last = self.hand_results[-1]
            final = attrs.evolve(last.final, game_end=tuple(tuple(e) for e in extra))
            scores = _with_game_end(last.scores, final.game_end)  # no second adjust_scores
            self.hand_results[-1] = attrs.evolve(last, scores=scores, final=final)
            for t in range(self.n_teams):
                self.scores[t] += sum(p for _, p in extra[t])
        self.phase = OVER

    def winner_before_bonus(self) -> int | None:
        if self.rules.eliminate_above is not None:
            left = [p for p, out in enumerate(self.eliminated) if not out]
            if len(left) == 1:
                return self.team_of[left[0]]
        sc = self.scores
        sign = 1 if self.rules.spec.game.winner == "lowest" else -1
        if self.rules.contracts:  # the most contracts met, then the best total
            met = self.contracts_met()  # (no partners: a team is one player)
            keys = [(-met[t], sign * sc[t]) for t in range(self.n_teams)]
            best_key = min(keys)
            return keys.index(best_key) if keys.count(best_key) == 1 else None
        best = min(sc) if sign == 1 else max(sc)
        return sc.index(best) if sc.count(best) == 1 else None

    @property
    def winner(self) -> int | None:
        """The winning team once the game is over (the lowest total under
        ``game.winner: lowest``; None before, or on a tie)."""
        if self.phase != OVER:
            return None
        return self.winner_before_bonus()

    # ------------------------------------------------------------------ views and zones
    def zone_cards(self) -> dict[str, list[int]]:
        """Every zone with the card ids in it; each card of the deck is in exactly one."""
        z = {"stock": self.stock[:], "pile": self.pile[:]}
        for p, h in enumerate(self.hands):
            z[f"hand:{p}"] = h[:]
        for m in self.melds:
            z[f"meld:m{m.id}"] = m.cards[:]
        for h, r in enumerate(self.reserves):
            z[f"reserve:{h}"] = r[:]
        if self.rules.turns_stock:  # face up, never in a hand (turn.stock_card: turned)
            z["turned"] = [] if self.turned is None else [self.turned]
        if self.rules.turned_wild != "none":  # set aside face up (cards.turned_wild)
            z["indicator"] = self.indicator[:]
        if self.rules.rearrange:  # lifted off the table this turn, face up
            z["loose"] = self.loose[:]
        return z

    # ------------------------------------------------------------------ game-AI hooks
    def action_universe(self) -> list[Action]:
        """Every action the pack can allow at this table, in id order (the integer action
        space; :func:`meldkit.kernel.universe.table_universe`), then its plugin's actions
        (:func:`plugin_action_universe`).  Its actions are looked up, not interned: a
        universe may hold 100,000 melds that play never lists, and the interner is bounded
        (what play lists is interned as it is listed; actions compare by value)."""
        from .universe import table_universe

        out = table_universe(self, _lookup)
        if self.rules.hooks:
            from ..ai.action_space import ActionSpaceError, sorted_actions

            extra = plugin_action_universe(self)
            if extra is None:
                raise ActionSpaceError(
                    f"pack {self.pack.name!r}: plugin {self.rules.plugin.name!r} adds the "
                    f"verbs {', '.join(sorted(self.rules.hooks))} but has no "
                    "action_universe(state) hook listing their actions, so the pack has no "
                    "integer action ids")
            out += sorted_actions(extra, ())  # plugin verbs sort after the kernel's
        return out

    def observation_layout(self):
        """The ``(spec, fill)`` functions of :meth:`observation`."""
        from .universe import TABLE_LAYOUT

        return TABLE_LAYOUT

    def set_zone_cards(self, assignment: dict[tuple[str, int], int]) -> None:
        """Put card ``c`` at each hidden ``(zone, index)`` (what a resample deals)."""
        from .universe import table_set_zone_cards

        table_set_zone_cards(self, assignment)

    def view_schema(self) -> dict[str, Any]:
        """The JSON Schema :meth:`view` follows."""
        from ..ai.view_schema import TABLE_VIEW, schema

        return schema(TABLE_VIEW)

    def _codes(self, cards) -> list[str]:
        code, kind = _CODE_OF_KIND, self.kind_of
        return [code[kind[c]] for c in cards]

    def view(self, player: int) -> dict[str, Any]:
        """What ``player`` may see, as JSON-able data: their own hand, the sizes of the
        others, the melds on the table, the discard pile (face up), the stock's size — and,
        under ``"plugin"``, what the pack's plugin's ``view(state, player)`` adds."""
        check_seat(player, self.n_players)
        team_of, kinds, scores = self.team_of, self.rules.kinds, self.scores
        sizes = [len(h) for h in self.hands]
        sides = [{"side": t, "seats": [], "score": scores[t]} for t in range(self.n_teams)]
        for q, t in enumerate(team_of):
            sides[t]["seats"].append(q)
        pile = self._codes(self.pile)
        v = {  # the core (ai/view_schema.CORE), then this engine's keys
            "pack": self.pack.name,
            "player": player,
            "team": team_of[player],
            "hand_number": self.hand_number,
            "phase": self.phase,
            "current_player": self.current_player,
            "dealer": None,
            "hand": [_CODE_OF_KIND[k] for k in sorted(self._kinds(self.hands[player]))],
            "seats": [{"seat": q, "side": team_of[q], "hand_size": n}
                      for q, n in enumerate(sizes)],
            "sides": sides,
            "melds": [{"id": f"m{m.id}", "owner": m.owner, "side": team_of[m.owner],
                       "kind": kinds[m.match.kind].name,
                       "cards": [_CODE_OF_KIND[k] for k in m.match.cards],  # as they lie:
                       "closed": False,  # a run's wild cards in the places they fill
                       "book": self._book_name(m) if self.rules.tracks_books else None,
                       "pending": m.id in self.pending}
                      for m in self.melds],
            "stock_size": len(self.stock),
            "pile": {"top": pile[-1] if pile else None, "size": len(pile), "frozen": False,
                     "cards": pile},  # face up, bottom first
            "knock": (None if self.rules.knock is None
                      else {"value": self.knock_value, "knocker": self.knocker}),
            "deadwood": shown_deadwood(self.rules.melds, self._kinds(self.hands[player])),
            "legal_actions": ([str(a) for a in self.legal_actions()]
                              if self.current_player == player else None),
            "hand_sizes": sizes[:],
            "stock": len(self.stock),
            "knock_value": self.knock_value,
            "knocker": self.knocker,
            "scores": list(scores),
            "contract": None if not self.rules.has_opening else {
                "melds": self._contract_names_of(player),  # as the pack writes it
                "met": self.contracts_met() if self.rules.contracts else None,
                "needs": self._needs_words(player),
                "minimum": self._opening_minimum(player),
                "opened": self.opened[:], "pending": [f"m{i}" for i in self.pending]},
            "dropped": self.dropped[:] if self.rules.drop else None,
            "eliminated": self.eliminated[:] if self.rules.eliminate_above is not None else None,
            "reserves": None if not self.rules.reserve else [
                {"holder": h, "size": len(r), "taken": self.reserve_taken[h]}
                for h, r in enumerate(self.reserves)],
            "buying": None if not self.rules.buy_limit else {
                "limit": self.rules.buy_limit, "penalty": self.rules.buy_penalty,
                "buys": self.buys[:], "offered_for": self.buy_for},
            "sheets": None if not self.rules.sheet_items else sheet_summary(
                sheet_rules(self.rules.spec, self.rules.target_for(self.n_players)),
                self.hand_results, self.n_teams),
            "turned": None if self.turned is None else {
                "card": _CODE_OF_KIND[self.kind_of[self.turned]],
                "passes": self.turned_passes},
            "wild": list(self.rules.wild_ranks),
            "last_turns": None if self.last is None else {
                "out": self.last[0], "left": self.last[1]},
            "wild_rank": None if self.rules.turned_wild == "none" else {
                "turned": self._codes(self.indicator),
                "rank": None if self.rules.wild_rank is None else RANKS[self.rules.wild_rank]},
            "rearranging": None if not (self.rules.rearrange or self.rules.no_discard) else {
                "loose": self._codes(self.loose), "broken": self.before is not None,
                "restored": self.restored > 0, "laid_this_turn": [f"m{i}" for i in self.formed],
                "turn_hand_size": self.turn_hand},
        }
        plugin = self.rules.plugin
        if plugin is not None:
            extra = call_hook(plugin.name, "view", plugin.view, self, player)
            if extra is not None:
                v["plugin"] = extra
        return v

    def clone(self) -> GameState:
        """An independent copy."""
        s = type(self).__new__(type(self))
        for name in GameState.__slots__:
            setattr(s, name, getattr(self, name))
        for name in _SHARED:
            setattr(s, name, getattr(self, name))
        s.options = dict(self.options)
        s.scores = self.scores[:]
        s.history = self.history[:]
        s.hand_results = self.hand_results[:]
        s.hands = [h[:] for h in self.hands]
        s.stock = self.stock[:]
        s.pile = self.pile[:]
        s.melds = [m.copy() for m in self.melds]
        s.defenders = self.defenders[:]
        s.wins = self.wins[:]
        s.opened, s.pending, s.buys = self.opened[:], self.pending[:], self.buys[:]
        s.laid = [x[:] for x in self.laid]
        s.first_laid = self.first_laid[:]
        s.reserves = [r[:] for r in self.reserves]
        s.reserve_taken = self.reserve_taken[:]
        s.indicator = self.indicator[:]
        s.loose, s.formed = self.loose[:], self.formed[:]  # (before: never changed in place)
        s.dropped, s.eliminated = self.dropped[:], self.eliminated[:]
        s.ext = json.loads(json.dumps(self.ext)) if self.ext else {}
        s._legal_cache = None
        return s

    # ------------------------------------------------------------------ saves
    _SAVED = ("hand_number", "current", "phase", "hand_first", "passes", "knocker",
              "knock_value", "knock_discarded", "layoff_stage", "taken", "must_use",
              "pile_takes", "returned_in_row", "turns", "multiplier", "next_meld")

    def _saved_meld(self, m: TableMeld) -> list:
        """A meld as a save holds it: ``[id, owner, cards, low_ext, high_ext, kind]``, and
        the kinds in the places they fill when a run's lay-offs left its wild cards (or its
        ends) otherwise than reading its cards back would place them."""
        out = [m.id, m.owner, m.cards[:], m.low_ext, m.high_ext, m.match.kind]
        if m.match.rank == -1 and len(m.cards) > 1:  # a run: are its places read back?
            if m.places is None or m.places[0] is not m.match:
                kind_of = self.kind_of
                back = self.rules.melds.match_grown(m.match.kind, [kind_of[c] for c in m.cards])
                m.places = (m.match, None if back == m.match else list(m.match.cards))
            if m.places[1] is not None:
                out.append(m.places[1][:])
        return out

    def _state_dict(self) -> dict[str, Any]:
        d = {k: getattr(self, k) for k in self._SAVED}
        d.update(
            scores=list(self.scores), history=list(self.history), wins=list(self.wins),
            hands=[h[:] for h in self.hands], stock=self.stock[:], pile=self.pile[:],
            melds=[self._saved_meld(m) for m in self.melds],
            defenders=self.defenders[:],
            hand_results=[r.to_dict() for r in self.hand_results],
        )
        if self.rules.plugin is not None:  # plugin data, as the canasta kernel saves it
            d["ext"] = self.ext
        if self.rules.has_opening or not all(self.opened):  # who has opened
            d.update(opened=self.opened[:], pending=self.pending[:], withdrew=self.withdrew)
        if self.rules.tracks_laid:
            d["laid"] = [x[:] for x in self.laid]
        if self.rules.tracks_at_once or self.rules.lay_off_waits or self.rules.rearrange:
            d["first_laid"] = self.first_laid[:]
        if self.rules.rearrange or self.rules.no_discard:  # this turn's rearranging
            d.update(loose=self.loose[:], formed=self.formed[:], restored=self.restored,
                     turn_hand=self.turn_hand, before=self._saved_snapshot(self.before))
            if self.start is not None:
                d["start"] = self._saved_snapshot(self.start)
        if self.rules.reserve:
            d.update(reserves=[r[:] for r in self.reserves], reserve_taken=self.reserve_taken[:])
        if any(x is not None for x in self.dropped):
            d["dropped"] = self.dropped[:]
        if self.last is not None:  # going_out.last_turns: who went out, turns left, when
            d["last_turns"] = list(self.last)
        if any(self.eliminated):
            d["eliminated"] = self.eliminated[:]
        if any(self.buys) or self.buy_for is not None or self.discarder is not None:
            d.update(buys=self.buys[:], buy_for=self.buy_for, discarder=self.discarder)
        if self.turned is not None:  # a card turned from the stock (turn.stock_card)
            d.update(turned=self.turned, turned_passes=self.turned_passes)
        if self.rules.turned_wild != "none":  # the cards that named the deal's wild rank
            d["indicator"] = self.indicator[:]
        return d

    @classmethod
    def _from_state_dict(cls, pack, d: dict[str, Any]) -> GameState:
        """Read a save as untrusted input: every field checked (a
        :class:`~meldkit.SaveError` naming it), every card in exactly one zone, and the
        position one a game can reach."""
        from .. import saves as sv

        s = cls.__new__(cls)
        s.model, s.actions = TableModel, TABLE_ACTIONS
        try:
            s._setup(pack, d["players"], d["seed"], d["options"], d["deck_order"])
        except SetupError as e:
            raise SaveError(f"damaged meldkit save: players/seed/options: {e}") from None
        deal = sv.integer(sv.get(d, "hand_number"), "hand_number", 1, 10**6)
        s.rules = rules = TableRules.of(pack.for_deal(deal))
        s.plugin, s.phases = rules.plugin, rules.phase_table
        s.kind_of = rules.deck_kinds(s.n_players)
        n, n_cards = s.n_players, len(s.kind_of)
        ext = sv.json_data(sv.obj(d.get("ext", {}), "ext"), "ext")
        if ext and rules.plugin is None:
            raise sv.bad("ext", "plugin data, but the pack names no plugin")
        s.ext = json.loads(json.dumps(ext))

        def seat(v: Any, path: str) -> int:
            return sv.integer(v, path, 0, n - 1)

        ledger = sv.CardLedger(n_cards)
        s.hands = [ledger.cards(h, f"hands[{p}]")
                   for p, h in enumerate(sv.array(sv.get(d, "hands"), "hands", n))]
        s.stock = ledger.cards(sv.get(d, "stock"), "stock")
        s.pile = ledger.cards(sv.get(d, "pile"), "pile")
        s.reserves, s.reserve_taken = [], []
        if rules.reserve:  # the reserve piles: each taken one empty
            holders = s.n_teams if rules.reserve_side else n
            s.reserves = [ledger.cards(r, f"reserves[{h}]") for h, r in enumerate(
                sv.array(sv.get(d, "reserves"), "reserves", holders))]
            s.reserve_taken = sv.array_of(sv.get(d, "reserve_taken"), "reserve_taken",
                                          lambda v, p: sv.boolean(v, p), holders)
            for h, r in enumerate(s.reserves):
                if len(r) != (0 if s.reserve_taken[h] else rules.reserve):
                    raise sv.bad(f"reserves[{h}]", f"expected {rules.reserve} cards, or none "
                                                   "once taken")
        elif "reserves" in d or "reserve_taken" in d:
            raise sv.bad("reserves", "this pack deals no reserve piles")
        turned = d.get("turned")
        s.turned = None if turned is None else ledger.cards([turned], "turned")[0]
        s.indicator = ledger.cards(d.get("indicator", []), "indicator")
        if s.indicator and rules.turned_wild == "none":
            raise sv.bad("indicator", "this pack turns no card for a wild rank "
                                      "(cards.turned_wild)")
        if rules.turned_wild != "none":  # the deal's rules: its wild rank, from the card
            ranks = [rules.wild_rank_of(s.kind_of[c]) for c in s.indicator]
            if any(r is not None for r in ranks[:-1]) or (
                    (not ranks or ranks[-1] is None) and s.stock):
                raise sv.bad("indicator", "expected jokers, then the card that names the wild "
                                          "rank (a card is turned until one is not a joker, "
                                          "while the stock lasts)")
            if ranks and ranks[-1] is not None:
                s.rules = rules = rules.with_wild(ranks[-1])
                s.phases = rules.phase_table
        s.turned_passes = sv.integer(d.get("turned_passes", 0), "turned_passes", 0, n - 1)

        def read_melds(value: Any, at: str, ledger: Any) -> tuple[list[TableMeld], set[int]]:
            return s._read_melds(value, at, ledger, seat)

        s.melds, ids_seen = read_melds(sv.get(d, "melds"), "melds", ledger)
        rearranging = rules.rearrange or rules.no_discard
        s.loose = ledger.cards(d.get("loose", []), "loose")
        if s.loose and not rules.rearrange:
            raise sv.bad("loose", "this pack does not rearrange melds (melds.rearrange)")
        ledger.complete()
        if not rearranging and any(k in d for k in ("loose", "formed", "restored",
                                                    "turn_hand", "before", "start")):
            raise sv.bad("before", "this pack neither rearranges melds nor plays or draws")
        s.formed = sv.array_of(d.get("formed", []), "formed",
                               lambda v, p: sv.integer(v, p, 1, 10**6), max_len=n_cards)
        if not set(s.formed) <= ids_seen or len(set(s.formed)) != len(s.formed):
            raise sv.bad("formed", "expected ids of melds on the table, each once")
        restored = d.get("restored", 0)  # (a count; a save of before melds.restores: a bool)
        s.restored = (int(restored) if isinstance(restored, bool) else
                      sv.integer(restored, "restored", 0, rules.restores))
        s.turn_hand = sv.integer(d.get("turn_hand", 0), "turn_hand", 0, n_cards)
        def read_snapshot(at: str) -> tuple | None:
            """A remembered hand and table (``before``, ``start``), or None."""
            snap = d.get(at)
            if snap is None:
                return None
            if not rules.rearrange:
                raise sv.bad(at, "this pack does not rearrange melds (melds.rearrange)")
            snap = sv.obj(snap, at)
            cards = sv.CardLedger(n_cards)
            hand = cards.cards(sv.get(snap, "hand"), f"{at}.hand")
            melds, ids = read_melds(sv.get(snap, "melds"), f"{at}.melds", cards)
            formed = sv.array_of(sv.get(snap, "formed"), f"{at}.formed",
                                 lambda v, p: sv.integer(v, p, 1, 10**6), max_len=n_cards)
            if not set(formed) <= ids:
                raise sv.bad(f"{at}.formed", f"expected ids of melds of {at}.melds")
            must = sv.get(snap, "must_use")
            if must is not None:
                must = sv.integer(must, f"{at}.must_use", 0, JOKER_KIND)
            return (hand, melds, formed, must)  # (checked in _check_rearranging)

        s.before, s.start = read_snapshot("before"), read_snapshot("start")
        s.phase = sv.choice(sv.get(d, "phase"), "phase", (*PHASES, OVER))
        s.hand_number = sv.integer(sv.get(d, "hand_number"), "hand_number", 1, 10**6)
        s.current = seat(sv.get(d, "current"), "current")
        s.hand_first = seat(sv.get(d, "hand_first"), "hand_first")
        s.passes = sv.integer(sv.get(d, "passes"), "passes", 0, n)
        knocker = sv.get(d, "knocker")
        s.knocker = None if knocker is None else seat(knocker, "knocker")
        kv = sv.get(d, "knock_value")
        s.knock_value = None if kv is None else sv.integer(kv, "knock_value", 0, 1000)
        if (s.knock_value is None) != (rules.knock is None):
            raise sv.bad("knock_value", "does not match the pack's knocking rule")
        s.knock_discarded = sv.boolean(sv.get(d, "knock_discarded"), "knock_discarded")
        s.layoff_stage = sv.integer(sv.get(d, "layoff_stage"), "layoff_stage", 0, 2)
        # the kinds of the card taken from the pile this turn, and of a card taken deep in
        # the pile that must still be used: public facts, so kinds, not hidden card ids
        taken = sv.get(d, "taken")
        s.taken = None if taken is None else sv.integer(taken, "taken", 0, JOKER_KIND)
        must = sv.get(d, "must_use")
        if must is not None and (type(must) is not int or must not in s._kinds(
                s.hands[s.current]) and not d.get("pending")):  # (or pending: checked below)
            raise sv.bad("must_use", f"{sv.what(must)} is not the kind of a card in the hand "
                                     "of the player to move")
        s.must_use = must
        s.pile_takes = sv.integer(sv.get(d, "pile_takes"), "pile_takes", 0, 10**6)
        s.returned_in_row = sv.integer(sv.get(d, "returned_in_row"), "returned_in_row", 0,
                                       10**6)
        s.turns = sv.integer(sv.get(d, "turns"), "turns", 0, 10**7)
        s.multiplier = sv.integer(sv.get(d, "multiplier"), "multiplier", 1, 2)
        s.next_meld = sv.integer(sv.get(d, "next_meld"), "next_meld",
                                 max(ids_seen, default=0) + 1, 10**6 + 1)
        s.scores = sv.array_of(sv.get(d, "scores"), "scores",
                               lambda v, p: sv.integer(v, p, -sv.MAX_SCORE, sv.MAX_SCORE),
                               s.n_teams)
        s.wins = sv.array_of(sv.get(d, "wins"), "wins",
                             lambda v, p: sv.integer(v, p, 0, 10**6), s.n_teams)
        s.history = sv.strings(sv.get(d, "history"), "history", sv.MAX_HISTORY_ITEM, 10**7)
        s.defenders = sv.array_of(sv.get(d, "defenders"), "defenders", seat, max_len=n)
        # the contract and buying (saved only where a pack has them)
        opened = d.get("opened")
        s.opened = ([not rules.has_opening] * n if opened is None else sv.array_of(
            opened, "opened", lambda v, p: sv.boolean(v, p), n))
        s.pending = sv.array_of(d.get("pending", []), "pending",
                                lambda v, p: sv.integer(v, p, 1, 10**6), max_len=n_cards)
        s.withdrew = sv.boolean(d.get("withdrew", False), "withdrew")
        buys = d.get("buys")
        s.buys = [0] * n if buys is None else sv.array_of(
            buys, "buys", lambda v, p: sv.integer(v, p, 0, rules.buy_limit), n)
        dropped = d.get("dropped")
        s.dropped = [None] * n if dropped is None else sv.array_of(
            dropped, "dropped",
            lambda v, p: None if v is None else sv.integer(v, p, 0, sv.MAX_DROP_PENALTY), n)
        if dropped is not None and (not rules.drop or any(
                x is not None and x not in rules.drop for x in s.dropped)):
            raise sv.bad("dropped", f"expected a drop penalty of turn.drop {list(rules.drop)}")
        last = d.get("last_turns")
        s.last = None if last is None else tuple(sv.array_of(
            last, "last_turns", lambda v, p: sv.integer(v, p, 0, 10**7), 3))
        if s.last is not None and not rules.last_turns:
            raise sv.bad("last_turns", "this pack has no last turns (going_out.last_turns)")
        gone = d.get("eliminated")
        s.eliminated = [False] * n if gone is None else sv.array_of(
            gone, "eliminated", lambda v, p: sv.boolean(v, p), n)
        if any(s.eliminated) and rules.eliminate_above is None:
            raise sv.bad("eliminated", "this pack eliminates nobody (game.eliminate_above)")
        laid = d.get("laid")
        s.laid = [[0, 0] for _ in range(n)] if laid is None else sv.array_of(
            laid, "laid", lambda v, p: [  # (points laid, which card values bound; aces)
                sv.integer(x, f"{p}[{j}]", -sv.MAX_SCORE if j == 0 else 0,
                           sv.MAX_SCORE if j == 0 else 10**7)
                for j, x in enumerate(sv.array(v, p, 2))], n)
        if laid is not None and not rules.tracks_laid:
            raise sv.bad("laid", "this pack does not score what each player lays")
        first = d.get("first_laid")
        if first is not None and not (rules.tracks_at_once or rules.lay_off_waits
                                      or rules.rearrange):
            raise sv.bad("first_laid", "this pack neither scores going out at once nor lays "
                                       "off only from the turn after opening")
        s.first_laid = [None] * n if first is None else sv.array_of(
            first, "first_laid", lambda v, p: None if v is None else sv.integer(
                v, p, 0, s.turns), n)
        buy_for, discarder = d.get("buy_for"), d.get("discarder")
        s.buy_for = None if buy_for is None else seat(buy_for, "buy_for")
        s.discarder = None if discarder is None else seat(discarder, "discarder")
        s.hand_results = []
        for i, r in enumerate(sv.array(sv.get(d, "hand_results"), "hand_results",
                                       max_len=10_000)):
            try:
                s.hand_results.append(table_hand_from_dict(
                    sv.json_data(r, f"hand_results[{i}]")))
            except (KeyError, TypeError, ValueError, AttributeError):
                raise sv.bad(f"hand_results[{i}]", "not a hand record") from None
        s._legal_cache = None
        s._check_position()
        return s

    def _read_melds(self, value: Any, at: str, ledger: Any, seat: Callable
                    ) -> tuple[list[TableMeld], set[int]]:
        """The melds of a save (``at``: ``melds``, or ``before.melds``), their cards
        counted in ``ledger``; and their ids."""
        from .. import saves as sv

        rules, n_cards = self.rules, len(self.kind_of)
        melds: list[TableMeld] = []
        ids_seen: set[int] = set()
        for i, m in enumerate(sv.array(value, at, max_len=n_cards)):
            path = f"{at}[{i}]"
            m = sv.array(m, path, max_len=7)
            if len(m) not in (6, 7):
                raise sv.bad(path, f"expected 6 items (7 with a run's places), got {len(m)}")
            mid, owner, cards, low, high, kind = m[:6]
            mid = sv.integer(mid, f"{path}[0]", 1, 10**6)
            if mid in ids_seen:
                raise sv.bad(f"{path}[0]", f"meld id m{mid} is used twice")
            ids_seen.add(mid)
            cards = ledger.cards(cards, f"{path}[2]")
            kind = sv.integer(kind, f"{path}[5]", 0, len(rules.kinds) - 1)
            kinds = [self.kind_of[c] for c in cards]
            if len(m) == 7:  # a run's places, as lay-offs left them
                places = sv.array_of(m[6], f"{path}[6]",
                                     lambda v, at: sv.integer(v, at, 0, JOKER_KIND),
                                     length=len(kinds))
                match = rules.melds.match_grown(kind, places)
                if sorted(places) != sorted(kinds) or match is None or (
                        list(match.cards) != places or match.rank != -1):
                    raise sv.bad(f"{path}[6]", "expected its cards' kinds in the places "
                                               "they fill in a run of its kind")
            else:
                match = rules.melds.match_grown(kind, kinds)
            if match is None:
                raise sv.bad(path, "its cards do not form a meld of its kind")
            melds.append(TableMeld(mid, seat(owner, f"{path}[1]"), cards, match,
                                   sv.integer(low, f"{path}[3]", 0, 52),
                                   sv.integer(high, f"{path}[4]", 0, 52)))
        return melds, ids_seen

    def _saved_snapshot(self, snap: tuple | None) -> dict | None:
        """A remembered hand and table (``before``, ``start``) as a save holds it."""
        if snap is None:
            return None
        hand, melds, formed, must_use = snap
        return {"hand": hand[:], "melds": [self._saved_meld(m) for m in melds],
                "formed": formed[:], "must_use": must_use}

    def _check_rearranging(self) -> None:
        """A save's fields of ``melds.rearrange`` and ``turn.play_or_draw``: cards lie
        loose, and the table as it was before the turn's first break is remembered, only in
        the play phase of a player who has opened; the remembered hand and table hold the
        very cards that the hand, the loose cards and the table hold now."""
        from .. import saves as sv

        p, phase = self.current, self.phase
        if (self.loose or self.before is not None or self.restored or self.start is not None
                ) and (phase != PLAY or not self.opened[p]):
            raise sv.bad("loose", "melds are rearranged only in the play phase of a player "
                                  "who has opened")
        if self.loose and self.before is None:
            raise sv.bad("before", "cards lie loose, but no table before a break is "
                                   "remembered")
        if self.before is not None and self.restored >= self.rules.restores:
            raise sv.bad("restored", "the table was restored this turn, so nothing more is "
                                     "broken")
        if phase == PLAY and self.rules.play_or_draw and len(self.hands[p]) > self.turn_hand:
            raise sv.bad("turn_hand", f"{self.turn_hand}, but the player to move holds "
                                      f"{len(self.hands[p])} cards in a turn that draws none")
        if self.start is not None and (self.before is not None or not self._may_break(p)):
            raise sv.bad("start", "the turn's start is remembered only until the first break, "
                                  "for a player who may break melds")
        for at, snap in (("before", self.before), ("start", self.start)):
            if snap is None:
                continue
            hand, melds, formed, _ = snap
            then = sorted(hand + [c for m in melds for c in m.cards])
            now = sorted(self.hands[p] + self.loose + [c for m in self.melds for c in m.cards])
            if then != now:
                raise sv.bad(at, "the remembered hand and table do not hold the cards the "
                                 "hand, the loose cards and the table hold now")
            if not set(self.formed) >= set(formed):
                raise sv.bad("formed", "a meld laid this turn before the first break is "
                                       "missing")

    def _check_contract_and_buying(self) -> None:
        """The contract's, buying's, dropping's and elimination's fields of a save, against
        the pack and the phase."""
        from .. import saves as sv

        rules, phase = self.rules, self.phase
        for p in range(self.n_players):
            if self.eliminated[p] and self.hands[p]:
                raise sv.bad(f"hands[{p}]", "seat out of the game (eliminated) holds cards")
            if self.eliminated[p] and self.scores[self.team_of[p]] <= rules.eliminate_above:
                raise sv.bad(f"eliminated[{p}]", "its total has not passed the limit")
        if phase != OVER and self._out_of_hand(self.current):
            raise sv.bad("current", "the seat to move has dropped or is out of the game")
        if phase != OVER and sum(self.dropped[q] is None and not self.eliminated[q]
                                 for q in range(self.n_players)) < 2:
            raise sv.bad("dropped", "fewer than two players left in the hand: it has ended")
        if not rules.has_opening and not all(self.opened):
            raise sv.bad("opened", "a seat has not opened, but this deal has no contract or "
                                   "minimum (initial_meld)")
        if self.pending:
            if phase != PLAY or self.opened[self.current]:
                raise sv.bad("pending", "melds toward a contract are pending only in the play "
                                        "phase of a player who has not opened")
            mine = {m.id for m in self.melds if m.owner == self.current}
            if not set(self.pending) <= mine or len(set(self.pending)) != len(self.pending):
                raise sv.bad("pending", f"{self.pending} are not melds of the player to move")
            # each pending meld lays one of the contract's melds; past the contract, more
            # melds are laid only toward the opening's minimum (checked just below)
            contract = self._contract_of(self.current)
            if contract and len(self._still_needed()) != max(len(contract) - len(self.pending),
                                                             0):
                raise sv.bad("pending", "the pending melds are not part of the contract")
            if self._opening_met(self.current):
                raise sv.bad("pending", "the pending melds already make the opening: the "
                                        "player would have opened")
        if self.withdrew and (phase != PLAY or self.pending):
            raise sv.bad("withdrew", "a withdrawal is remembered only in the play phase of "
                                     "the turn that made it, with nothing pending")
        if any(self.buys) and not rules.buy_limit:
            raise sv.bad("buys", "this deal allows no buying (pile.buy_limit is 0)")
        if (phase == BUY) != (self.buy_for is not None):
            raise sv.bad("buy_for", f"expected {'a seat' if phase == BUY else 'null'} in the "
                                    f"{phase} phase")
        if phase == BUY and (self.current == self.buy_for or self.current == self.discarder
                             or self.buys[self.current] >= rules.buy_limit):
            raise sv.bad("current", "the seat asked to buy may not buy this discard")
        if self.discarder is not None and phase not in (DRAW, BUY):
            raise sv.bad("discarder", f"expected null in the {phase} phase (a discard is on "
                                      "offer only until the next player has drawn)")
        if self.discarder is not None and not self.pile:
            raise sv.bad("discarder", "a discard on offer, but the discard pile is empty")
        if (phase == TURNED) != (self.turned is not None):
            raise sv.bad("turned", f"expected {'a card' if phase == TURNED else 'null'} in "
                                   f"the {phase} phase (a card is turned from the stock only "
                                   "until it is used or passed)")
        if phase == TURNED and not rules.turns_stock:
            raise sv.bad("phase", "turned, but this deal turns no card from the stock "
                                  "(turn.stock_card)")
        if self.turned_passes and not (phase == TURNED and rules.pass_next):
            raise sv.bad("turned_passes", "expected 0: only a turned card passed on to the "
                                          "next player (turn.turned_passes: next) counts passes")

    def _check_position(self) -> None:
        """Refuse a saved position that no game reaches: every field checked against the
        phase (what only one phase holds — ``knocker``, ``taken``, ``must_use``,
        ``defenders`` … — only there), the pack's limits and the rest of the state; the hand
        records against the scores; and the liveness invariant (a game that is not over has
        a legal action), each refusal a :class:`~meldkit.SaveError` naming the field."""
        from .. import saves as sv

        self._check_results()
        phase = self.phase
        n = self.n_players
        rules = self.rules
        self._check_rearranging()
        if phase == OVER:
            return
        knocking = phase in (KNOCK, LAYOFF)
        if phase in (WALL, FIRST_UPCARD) and not self.pile:
            raise sv.bad("phase", f"{phase}, but the discard pile is empty")
        if phase in (WALL, KNOCK, DISCARD) and self.knock_value is None:
            raise sv.bad("phase", f"{phase}, but the pack has no knocking")
        if phase == PLAY and self.knock_value is not None:
            raise sv.bad("phase", "play, but in this pack melds are laid only on a knock")
        if phase == FIRST_UPCARD and not rules.offer_upcard:
            raise sv.bad("phase", "first_upcard, but this pack does not offer the upcard "
                                  "(pile.first_upcard)")
        if phase == WALL and not (rules.wall_knock and len(self.stock) <= rules.wall):
            raise sv.bad("phase", f"wall, but the stock holds {len(self.stock)} cards above "
                                  f"the wall of {rules.wall} (or the pack has no knock at the "
                                  "wall)")
        if phase in (DRAW, FIRST_UPCARD) and rules.wall and len(self.stock) <= rules.wall:
            raise sv.bad("stock", f"{len(self.stock)} cards in the {phase} phase: a hand ends "
                                  f"at the wall of {rules.wall}")
        if knocking and self.knocker is None:
            raise sv.bad("knocker", f"none, but the phase is {phase}")
        if not knocking and self.knocker is not None:
            raise sv.bad("knocker", f"expected null in the {phase} phase (only the knock and "
                                    f"lay-off phases have a knocker), got {self.knocker}")
        if phase == KNOCK and self.knocker != self.current:
            raise sv.bad("knocker", "the player to move is not the knocker")
        if not knocking and self.knock_discarded:
            raise sv.bad("knock_discarded", f"expected false in the {phase} phase (only a "
                                            "knocker has discarded)")
        if phase == LAYOFF:
            k = self.knocker
            order = [(k + i) % n for i in range(1, n)]
            if not self.defenders or self.defenders != order[len(order) - len(self.defenders):]:
                raise sv.bad("defenders", f"expected the seats after the knocker in turn, "
                                          f"ending with {order}, got {self.defenders}")
            if self.defenders[0] != self.current:
                raise sv.bad("defenders", "the player to move is not the defender laying off")
            if self.layoff_stage not in (1, 2):
                raise sv.bad("layoff_stage", f"expected 1 or 2 in the layoff phase, got "
                                             f"{self.layoff_stage}")
            if self.layoff_stage == 1 and rules.lay_off == "none":
                raise sv.bad("layoff_stage", "expected 2: nobody lays off in this pack "
                                             "(melds.lay_off.onto: none)")
            if self.layoff_stage == 1 and self._first_layoff_stage() == 2:
                raise sv.bad("layoff_stage", "expected 2: the knocker went gin, and nobody "
                                             "lays off on gin (knock.lay_off_on_gin: false)")
        else:
            if self.defenders:
                raise sv.bad("defenders", f"expected [] in the {phase} phase (defenders lay "
                                          f"off only in the layoff phase), got "
                                          f"{self.defenders}")
            if self.layoff_stage:
                raise sv.bad("layoff_stage", f"expected 0 in the {phase} phase, got "
                                             f"{self.layoff_stage}")
        if self.must_use is not None:
            if phase != PLAY:
                raise sv.bad("must_use", f"expected null in the {phase} phase (a card taken "
                                         "deep in the pile is owed only in the play phase "
                                         "of the turn that took it)")
            if rules.take != "deep" and rules.taken_melded == "no" and not rules.forced_discard:
                raise sv.bad("must_use", "expected null: this pack takes no card deep in the "
                                         f"pile (pile.take is {rules.take}) and need not meld "
                                         "a taken card (pile.taken_melded)")
            if self.taken is not None:
                raise sv.bad("taken", "expected null with must_use set (a card taken deep "
                                      "in the pile is not the top card)")
            if self.pending and not any(
                    m.id in self.pending and self.must_use in self._kinds(m.cards)
                    for m in self.melds):
                raise sv.bad("must_use", f"{sv.what(self.must_use)} is the kind of no card in "
                                         "the melds pending toward the opening, which hold "
                                         "the card owed from the first")
        if self.taken is not None:
            allowed = (PLAY, DISCARD) + ((KNOCK, LAYOFF) if not self.knock_discarded else ())
            if phase not in allowed:
                raise sv.bad("taken", f"expected null in the {phase} phase (a card taken from "
                                      "the pile is remembered only until its taker discards)")
            if self.taken not in self.kind_of:
                raise sv.bad("taken", f"{card_code(self.taken)} is not a card of this deck")
            if phase == DISCARD and self.taken not in self._kinds(self.hands[self.current]):
                raise sv.bad("taken", f"{card_code(self.taken)} is not in the hand of the "
                                      "player to move, who took it this turn: no game "
                                      "reaches such a position")
        if phase == FIRST_UPCARD:
            expected = self.hand_first if self.passes >= n else (self.hand_first + self.passes) % n
            if self.current != expected:
                raise sv.bad("current", f"expected seat {expected}: after {self.passes} "
                                        f"pass(es) of the upcard from seat {self.hand_first}")
            if len(self.pile) != 1 or self.melds or self.turns:
                raise sv.bad("phase", "first_upcard, but the hand has gone past its upcard "
                                      "(a pile of one card, no meld, no turn played)")
        kn = rules.spec.knock
        if self.knock_value is not None:
            most = max(rules.values) if kn.from_upcard else kn.max_deadwood
            if not kn.from_upcard and self.knock_value != kn.max_deadwood:
                raise sv.bad("knock_value", f"expected {kn.max_deadwood} (knock.max_deadwood), "
                                            f"got {self.knock_value}")
            if self.knock_value > most:
                raise sv.bad("knock_value", f"expected 0 to {most} (the upcard's value), got "
                                            f"{self.knock_value}")
        if self.multiplier != 1 and not kn.spade_upcard_doubles:
            raise sv.bad("multiplier", f"expected 1: this pack doubles no hand "
                                       f"(knock.spade_upcard_doubles), got {self.multiplier}")
        for field, limit, key in (("pile_takes", rules.take_limit, "knock.pile_take_limit"),
                                  ("returned_in_row", rules.returned_limit,
                                   "knock.returned_card_limit"),
                                  ("turns", rules.turn_limit, "game.hand_turn_limit")):
            value = getattr(self, field)
            if limit is not None and value >= limit:
                raise sv.bad(field, f"expected 0 to {limit - 1} (the hand ends at {key}: "
                                    f"{limit}), got {value}")
        if self.last is not None:  # going_out.last_turns
            out, left, when = self.last
            if not (out < n and out != self.current and not self.hands[out]):
                raise sv.bad("last_turns", "expected first the seat that went out, whose "
                                           f"hand is empty and who is not to move, got {out}")
            if not 1 <= left < n or when > self.turns:
                raise sv.bad("last_turns", f"expected the last turns left (1 to {n - 1}) "
                                           "and the turn the seat went out in (at most "
                                           f"turns, {self.turns}), got {[left, when]}")
        if phase != LAYOFF and phase != KNOCK:
            empty = [p for p in range(n) if not self.hands[p] and not self.eliminated[p]
                     and not (p == self.current and self.loose)  # (cards loose: play on)
                     and not (self.last is not None and p != self.current)]  # (out: last
            #                                                           turns, the others')
            if empty:
                raise sv.bad(f"hands[{empty[0]}]", f"empty in the {phase} phase: a player "
                                                   "with no card has gone out, ending the hand")
        if self.knock_value is not None:  # gin: melds are laid only on a knock
            size = rules.hand_size(n)
            if phase == KNOCK:
                exact, may_meld = [p for p in range(n) if p != self.knocker], {self.knocker}
            elif phase == LAYOFF:
                exact = self.defenders[1:]
                may_meld = set(range(n)) - set(exact)
                if self.layoff_stage == 1:
                    may_meld.discard(self.current)
            else:
                exact, may_meld = list(range(n)), set()
            for p in exact:
                want = size + (1 if phase == DISCARD and p == self.current else 0)
                if len(self.hands[p]) != want:
                    raise sv.bad(f"hands[{p}]", f"expected {want} cards in the {phase} phase, "
                                                f"got {len(self.hands[p])}")
            for i, m in enumerate(self.melds):
                if m.owner not in may_meld:
                    raise sv.bad(f"melds[{i}][1]", f"seat {m.owner} cannot have laid a meld "
                                                   f"by the {phase} phase (in this pack melds "
                                                   "are laid on a knock)")
        self._check_contract_and_buying()
        if not self._cached_legal():
            raise sv.bad("phase", f"{phase}, but the player to move would have no legal action: "
                                  "no game reaches such a position")

    _ENDINGS = frozenset({"went_out", "knock", "gin", "big_gin", "undercut", "wall",
                          "stock_empty", "lowest_count", "limit", "turn_limit", "no_legal_move",
                          "no_progress", "all_dropped"})
    """Every ``ended_by`` a table-meld hand can have."""

    def _check_results(self) -> None:
        """The hand records of a save: numbered in order, each rescoring to its recorded
        scores, and together what ``scores``, ``wins`` and ``hand_number`` say."""
        totals = [0] * self.n_teams
        wins = [0] * self.n_teams
        sheets: list = []  # (points, won, recorded entries) per hand, with scoring.sheets
        now = self.rules
        out = [False] * self.n_players  # who is out of the game (game.eliminate_above)
        used = [0] * self.n_players  # the rejoins so far (game.rejoin)
        try:
            for i, r in enumerate(self.hand_results):
                if self.pack.deals:  # a schedule: each hand checked by its own deal's rules
                    self.rules = TableRules.of(self.pack.for_deal(i + 1))
                self._check_result(i, r, totals, wins, sheets)
                if now.eliminate_above is not None:
                    out = self._check_rejoin(i, r, totals, out, used)
        finally:
            self.rules = now
        self._check_totals(totals, wins, sheets)
        if self.rules.rejoin is not None and out != list(self.eliminated):
            from .. import saves as sv

            raise sv.bad("eliminated", f"expected {out}: who the hands' totals put out of "
                                       "the game, and did not rejoin")

    def _check_rejoin(self, i: int, r, totals: list, out: list, used: list) -> list:
        """A hand record's ``final.rejoin``: what ``game.rejoin`` moves after it, given the
        totals (``totals``, the rejoin's lines included), who was out before it (``out``)
        and the rejoins before it (``used``, counted on); who is out after it."""
        from .. import saves as sv

        moves = r.final.rejoin  # (its form checked with the hand: _check_result)
        before = [t - (moves[p] if moves else 0) for p, t in enumerate(totals)]
        limit = self.rules.eliminate_above
        now = [o or before[p] > limit for p, o in enumerate(out)]
        if self.rules.rejoin is not None:
            expected = rejoin_moves(self.rules.rejoin, limit, before, out, now, used)
            if tuple(moves) != expected:
                raise sv.bad(f"hand_results[{i}].final.rejoin",
                             f"expected {list(expected) or 'none'}: what game.rejoin moves "
                             "after this hand")
            for p, move in enumerate(expected):
                used[p] += move != 0
            now = [o and not (expected and expected[p]) for p, o in enumerate(now)]
        return now

    def _check_result(self, i: int, r, totals: list, wins: list, sheets: list) -> None:
        """One hand record of a save (see :meth:`_check_results`), added to ``totals``,
        ``wins`` and ``sheets``."""
        from .. import saves as sv

        n = self.n_players
        where = f"hand_results[{i}]"
        if r.hand_number != i + 1:
            raise sv.bad(f"{where}.hand_number", f"expected {i + 1}, got {r.hand_number!r}")
        if r.ended_by not in self._ENDINGS:
            raise sv.bad(f"{where}.ended_by", f"expected one of "
                                              f"{', '.join(sorted(self._ENDINGS))}, got "
                                              f"{sv.what(r.ended_by)}")
        f = r.final
        if list(f.team_of) != list(self.team_of):
            raise sv.bad(f"{where}.final.team_of", f"expected the game's seating "
                                                   f"{self.team_of}")
        if len(f.deadwood) != n or not all(
                type(x) is int and -sv.MAX_SCORE <= x <= sv.MAX_SCORE for x in f.deadwood):
            raise sv.bad(f"{where}.final.deadwood", f"expected {n} card totals, whole "
                                                    f"numbers within +-{sv.MAX_SCORE}")
        if r.went_out != f.went_out or (r.went_out is not None and not (
                type(r.went_out) is int and 0 <= r.went_out < n)):
            raise sv.bad(f"{where}.went_out", f"expected a seat 0 to {n - 1} or null, the "
                                              "same as final.went_out")
        if f.multiplier not in (1, 2) or type(f.big_gin) is not bool:
            raise sv.bad(f"{where}.final", "multiplier 1 or 2 and big_gin true or false")
        if len(f.contracts_met) != (n if self.rules.contracts else 0) or not all(
                type(x) is bool for x in f.contracts_met):
            raise sv.bad(f"{where}.final.contracts_met", "one true or false per seat "
                         "where the pack has contracts of each player's own "
                         "(initial_meld.contracts), else absent")
        if len(f.reserve_taken) != len(self.reserve_taken) or not all(
                type(x) is bool for x in f.reserve_taken):
            raise sv.bad(f"{where}.final.reserve_taken", "one true or false per reserve "
                                                         "pile of this pack")
        names = {k.name for k in self.rules.book_kinds} | {"book"}
        if f.books and (not self.rules.tracks_books or len(f.books) != n or any(
                type(k) is not str or k not in names for b in f.books for k in b)):
            raise sv.bad(f"{where}.final.books", "a list per player of the book kinds "
                                                 "of this pack, only where it counts books")
        for key in COUNTED:
            got = getattr(f, key)
            if key not in self.rules.counts_unmelded:
                if got:
                    raise sv.bad(f"{where}.final.{key}", f"only where the pack counts "
                                 f"with count: {key}, else absent")
            elif len(got) != n or not all(type(x) is int and x <= d for x, d in zip(
                    got, f.deadwood, strict=True)) or min(got) < -sv.MAX_SCORE:
                raise sv.bad(f"{where}.final.{key}", f"expected {n} card totals, each "
                             "whole and at most what final.deadwood says the player held")
        if f.rejoin and self.rules.rejoin is None:
            raise sv.bad(f"{where}.final.rejoin", "only where the pack has game.rejoin, else "
                                                  "absent")
        if f.rejoin and (len(f.rejoin) != n or not all(
                type(x) is int and abs(x) <= sv.MAX_SCORE for x in f.rejoin)):
            raise sv.bad(f"{where}.final.rejoin", f"expected {n} whole numbers within "
                                                  f"+-{sv.MAX_SCORE}, one per player")
        if type(f.at_once) is not bool or (f.at_once and not self.rules.tracks_at_once):
            raise sv.bad(f"{where}.final.at_once", "true only where the pack scores "
                                                   "going out at once, else absent")
        if len(f.game_end) not in (0, self.n_teams) or (f.game_end and i != len(
                self.hand_results) - 1):
            raise sv.bad(f"{where}.final.game_end", "game-end bonuses belong to the last "
                                                    "hand, one list per team")
        pays: list = []
        scores, net, ending = self._score(f, pays)
        if tuple(scores) != tuple(r.scores) or tuple(net) != tuple(r.net) or (
                ending != r.ended_by):
            raise sv.bad(f"{where}.scores", "the hand's scores are not what its final "
                                            "zones score" + plugin_rescored(self))
        if tuple(pays) != tuple(r.payments):
            raise sv.bad(f"{where}.payments", f"expected {[list(p) for p in pays]}, what "
                                              "the pack's pay items pay in this hand")
        if self.rules.sheet_items:
            sheets.append((self._sheet_points(f, scores), self._won(net), r.sheets))
        elif r.sheets:
            raise sv.bad(f"{where}.sheets", "this pack keeps one score (no scoring.sheets)")
        for s in scores:
            totals[s.team] += s.total
        if r.ended_by == "no_progress" and i != len(self.hand_results) - 1:
            raise sv.bad(f"{where}.ended_by", "no_progress ends the game: only the last "
                                              "hand can end so")
        best = max(range(n), key=lambda q: net[q])
        if net[best] > 0:
            wins[self.team_of[best]] += 1

    def _check_totals(self, totals: list, wins: list, sheets: list) -> None:
        """What the hand records add up to: ``scores``, ``wins``, the sheets' entries and
        ``hand_number`` (see :meth:`_check_results`)."""
        from .. import saves as sv

        n = self.n_players
        if self.rules.sheet_items:  # the sheets' entries, replayed from the hands
            g = self.rules.spec.game
            ledger, bad = Ledger.replay(
                sheet_rules(self.rules.spec, self.rules.target_for(n)), self.n_teams, sheets,
                g.winner == "lowest", g.tie == "draw", check=True)
            if bad is not None:
                raise sv.bad(f"hand_results[{bad}].sheets", "not what the score sheets count "
                                                            "from the hands before it")
            totals = ledger.totals()
        if totals != list(self.scores):
            raise sv.bad("scores", f"{list(self.scores)} are not the sum of the hands' scores "
                                   f"{totals}" + plugin_rescored(self))
        if wins != list(self.wins):
            raise sv.bad("wins", f"expected {wins}, the hands each team won in hand_results")
        done = len(self.hand_results)
        expected = done if self.phase == OVER else done + 1
        if self.hand_number != expected:
            raise sv.bad("hand_number", f"expected {expected}, after the {done} finished "
                                        f"hand(s) in hand_results, got {self.hand_number}")
        stalled = done and no_progress(self.hand_results, self._idle)
        if self.phase == OVER and done and not stalled and not self._game_over():
            raise sv.bad("phase", f"over, but no team has reached the target "
                                  f"{self.rules.spec.game.target} (scores {list(self.scores)})")
        if self.phase == OVER and not done:
            raise sv.bad("phase", "over, but no hand has been played")
        if self.phase != OVER and (self._game_over() or stalled) and done:
            met = (f" and the contracts met {self.contracts_met()}" if self.rules.contracts
                   else "")
            raise sv.bad("phase", f"{self.phase}, but the scores {list(self.scores)}{met} "
                                  "have ended the game")


_CODE_OF_KIND = tuple(card_code(k) for k in range(JOKER_KIND + 1))
"""The code of each card kind (``_CODE_OF_KIND[kind_of_code("QH")] == "QH"``)."""

_SHARED = TableModel.SLOTS + ("model", "phases", "actions", "plugin")
"""The fields :meth:`TableModel.clone` copies by reference before copying the mutable ones."""

PHASES: dict[str, tuple[str, str]] = {
    FIRST_UPCARD: ("_legal_first_upcard", "_do_first_upcard"),
    DRAW: ("_legal_draw", "_do_draw"),
    PLAY: ("_legal_play", "_do_play"),
    DISCARD: ("_legal_discard", "_do_discard"),
    KNOCK: ("_legal_knock", "_do_knock"),
    LAYOFF: ("_legal_layoff", "_do_layoff"),
    WALL: ("_legal_wall", "_do_wall"),
    BUY: ("_legal_buy", "_do_buy"),
    TURNED: ("_legal_turned", "_do_turned"),
}
"""Each phase's pair: the method listing its legal actions and the one applying an action."""

PHASE_ACTIONS: dict[str, frozenset[str]] = {
    FIRST_UPCARD: frozenset({"take", "pass", "draw"}),
    DRAW: frozenset({"draw", "take", "drop", "knock", "pass"}),
    PLAY: frozenset({"meld", "add", "discard", "withdraw", "trade", "pass", "break",
                     "restore", "draw", "done"}),
    DISCARD: frozenset({"discard", "knock"}),
    KNOCK: frozenset({"discard", "meld", "done"}),
    LAYOFF: frozenset({"add", "meld", "done"}),
    WALL: frozenset({"knock", "pass"}),
    BUY: frozenset({"buy", "pass"}),
    TURNED: frozenset({"meld", "add", "pass"}),
}
"""The action types each phase knows (an action of another type is refused as
``turn/wrong-phase``)."""



def _by_role(legal, check, do):
    """A phase's ``(legal, check, do)`` in a deal with a turned wild rank
    (``cards.turned_wild``): the legal actions name that rank's cards by role (``*C`` …),
    and an action is played with the cards they stand for."""
    def legal_by_role(s) -> list[Action]:
        return [s._role_action(a) for a in legal(s)]

    if do is None:
        return legal_by_role, check, None

    def do_by_role(s, a: Action) -> None:
        do(s, s._phys_action(a))

    return legal_by_role, check, do_by_role


def _nothing(state) -> list[Action]:
    return []


def _over_reason(state, action: Action):
    from .._actions import Reason

    return Reason("game/over", "the game is over")

# --------------------------------------------------------------------------- plugin hooks

_HOOKED = ("_legal_hooked", "_do_hooked")
"""The ``(legal, do)`` pair of a phase in which a plugin's action hooks are played."""

_WHEN = {DRAW: "before drawing", PLAY: "after drawing", FIRST_UPCARD: "while the first "
         "upcard is offered", DISCARD: "after drawing, before discarding or knocking",
         KNOCK: "by the knocker, laying melds", LAYOFF: "by a defender, laying off",
         WALL: "at the wall", BUY: "while a discard is offered for buying",
         TURNED: "with a card turned from the stock"}
"""When an action hook of each phase is played (for the ``turn/not-now`` sentence)."""


def rejoins_used(results, players: int) -> list[int]:
    """How many times each of ``players`` rejoined over the hand records ``results``."""
    used = [0] * players
    for r in results:
        for p, move in enumerate(r.final.rejoin):
            used[p] += move != 0
    return used


def rejoin_moves(rejoin, limit: int, totals, out_before, out_now, used) -> tuple[int, ...]:
    """What rejoining moves each player's total by after a hand (``game.rejoin``; empty:
    nobody rejoins).  A player the hand eliminated (in ``out_now``, not ``out_before``)
    with rejoins left rejoins at the highest total of those still in plus ``add``, while
    at least ``least_in`` players are in, that highest total is at most
    ``while_highest_at_most`` and the new total within ``limit``; each player's total
    (``totals``: by seat, no partners in such a pack) is the one after the hand.

    >>> from meldkit._schema import RejoinSpec
    >>> rejoin_moves(RejoinSpec(add=1), 100, [40, 105, 60], [False] * 3,
    ...              [False, True, False], [0, 0, 0])
    (0, -44, 0)
    """
    still = [p for p, out in enumerate(out_now) if not out]
    if len(still) < max(rejoin.least_in, 1):
        return ()
    high = max(totals[p] for p in still)
    new = high + rejoin.add
    cap = rejoin.while_highest_at_most
    if new > limit or (cap is not None and high > cap):
        return ()
    moves = tuple(new - totals[p] if out_now[p] and not out_before[p] and used[p] < rejoin.times
                  else 0 for p in range(len(totals)))
    return moves if any(moves) else ()


def _with_game_end(scores, game_end) -> tuple[TableScore, ...]:
    """``scores`` with each team's game-end items (box and game bonuses) appended."""
    if not game_end:
        return tuple(scores)
    return tuple(attrs.evolve(s, items=s.items + tuple(game_end[s.team])) for s in scores)


def table_phases(spec: Any) -> tuple[str, ...]:
    """The phases a table-meld pack reaches (in :data:`PHASES` order): ``draw`` and
    ``play`` without knocking; ``draw``, ``discard``, ``knock`` and ``layoff`` with it,
    and ``wall`` when a player may knock at the wall; ``first_upcard`` when the upcard is
    offered.  A plugin's action hook may name any of them."""
    kn = spec.knock
    have = set() if spec.turn.play_or_draw else {DRAW}  # (play or draw: the play phase)
    if spec.pile.first_upcard == "offer" and spec.deal.upcard:
        have.add(FIRST_UPCARD)
    if kn.max_deadwood is not None or kn.from_upcard:
        have |= {DISCARD, KNOCK, LAYOFF}
        if spec.stock.wall and spec.stock.wall_knock_with_upcard:
            have.add(WALL)
    else:
        have.add(PLAY)
    if spec.turn.stock_card == "turned":
        have.add(TURNED)
    return tuple(p for p in PHASES if p in have)


def hook_problems(spec: Any, plugin: Any) -> list[str]:
    """What a pack's rule-hook plugin asks that the pack's kernel cannot do: an action
    hook played in a phase the pack does not have (a canasta pack has ``draw`` and
    ``play``; a table pack :func:`table_phases`), or a verb that is one of the table
    kernel's own (``pass``, ``knock`` …).  For the loader (each problem is refused at
    ``plugin:``) and for :class:`TableRules`."""
    if plugin is None or plugin.engine is not None:
        return []
    table = bool(spec.melds.kinds)
    phases = table_phases(spec) if table else (DRAW, PLAY)
    out = []
    for hook in plugin.actions():
        if hook.phase not in phases:
            out.append(f"plugin {plugin.name!r}: action {hook.verb!r} is played in the "
                       f"{hook.phase} phase, which this pack does not have (its phases: "
                       f"{', '.join(phases)})")
        if table and hook.verb in TABLE_VERBS:
            out.append(f"plugin {plugin.name!r}: action verb {hook.verb!r} clashes with the "
                       "table meld model's own action")
    return out


def plugin_action_universe(state: GameState) -> list[Action] | None:
    """Every action the pack's plugin may add, for the integer action space
    (:mod:`meldkit.ai.action_space`): ``[]`` without action hooks, else what the plugin's
    ``action_universe(state)`` lists (as in the canasta kernel), or None when it has no
    such method — the pack then has no integer action ids (the caller raises
    ``ActionSpaceError``).  Add these to the kernel's own universe."""
    rules = state.rules
    if not rules.hooks:
        return []
    hook = getattr(rules.plugin, "action_universe", None)
    if hook is None:
        return None
    return list(hook(state))

