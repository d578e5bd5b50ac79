"""The game state: the only mutable object, changed only through :meth:`GameState.apply`.

A hand is turns; a turn is two phases, ``draw`` (pick up the reserve, draw, take the pile,
or end the hand on an empty stock) and ``play`` (meld, lay off, discard).  Every rule the
phases consult comes from the compiled :class:`~meldkit._rules.Rules`; nothing here knows
which game is being played.
"""

from __future__ import annotations

import json
import random
from typing import Any

import attrs

from ._actions import Reason  # noqa: F401 - re-exported: meldkit._state.Reason
from ._actions import (
    ADD,
    DISCARD,
    DRAW,
    END,
    MELD,
    PICKUP,
    TAKE,
    WITHDRAW,
    Action,
)
from . import saves as _saves
from ._cards import N_RANKS, RANKS, card_code, kind_of_code, rank_of_kind
from ._errors import SetupError
from ._game import GameState, call_hook
from ._rules import WILD, Rules
from ._scoring import HandFinal, TeamScore, score_hand

DRAW_PHASE = "draw"
PLAY_PHASE = "play"
OVER = "over"
_SLOTS = N_RANKS + 1  # natural ranks 0..13 and the WILD slot



@attrs.frozen
class HandResult:
    """The record of one finished hand."""

    hand_number: int
    """The hand's number in the game (1, 2 …)."""
    ended_by: str
    """``went_out``, ``stock_empty`` or ``one_side_left``."""
    went_out: int | None
    """The seat that went out, or None."""
    scores: tuple[TeamScore, ...]
    """Each team's score for the hand, item by item."""
    final: HandFinal
    """The zones at the end of the hand, what the scores are computed from."""

    @property
    def totals(self) -> tuple[int, ...]:
        """Each team's score for this hand."""
        return tuple(s.total for s in self.scores)


class Meld:
    """A side's meld on the table; a book once it holds ``books.size`` cards."""

    __slots__ = ("slot", "cards", "nat", "wild", "closed", "pending")

    def __init__(self, slot: int, cards: list[int], nat: int, wild: int, pending: bool):
        self.slot = slot
        self.cards = cards
        self.nat = nat
        self.wild = wild
        self.closed = False
        self.pending = pending

    def copy(self) -> Meld:
        m = Meld.__new__(Meld)
        m.slot = self.slot
        m.cards = self.cards[:]
        m.nat = self.nat
        m.wild = self.wild
        m.closed = self.closed
        m.pending = self.pending
        return m


_SHAPES = {DRAW: (0, 0), END: (0, 0), PICKUP: (0, 0), WITHDRAW: (0, 0), DISCARD: (1, 1),
           TAKE: (0, 2), MELD: (1, 99), ADD: (1, 99)}
"""The number of cards each kernel action names (actions built by hand are checked too)."""


def _r(code: str, sentence: str) -> Reason:
    return Reason(code, sentence)


def _rank_name(slot: int) -> str:
    return "wild cards" if slot == WILD else f"{RANKS[slot]}s"


class RummyState(GameState):
    """A rummy-family game in progress (the kernel's engine).  Create one with
    :func:`meldkit.new_game`.

    >>> import meldkit
    >>> g = meldkit.new_game("pony_tail", players=4, seed=1)
    >>> g.hand_number, g.phase, len(g.legal_actions()) > 0
    (1, 'draw', True)
    >>> g.apply("draw"); g.phase
    'play'
    """

    __slots__ = (
        "rules", "actions", "kind_of", "rank_of", "codes", "dealer",
        "stock", "pile", "pile_frozen", "hands", "hand_size", "reserves", "reserve_taken",
        "bonus", "melds", "open_melds", "melded", "out", "pending", "pile_pending",
        "pending_top", "failed_initial", "melded_at_turn_start", "player_melded", "plugin",
        "ext",
    )

    # ------------------------------------------------------------------ creation
    @classmethod
    def _new(cls, pack, players: int, seed: int, options: dict | None,
             deck_order: list[str] | None) -> RummyState:
        rules = Rules.of(pack)
        s = cls.__new__(cls)
        s.rules = rules
        s.pack = rules.pack
        s.plugin = rules.plugin
        s.ext = {}
        s.actions = rules.action_space
        options = s._setup(pack, players, seed, options, deck_order)
        s.kind_of = rules.deck_kinds(players)
        s.rank_of = [rank_of_kind(k) for k in s.kind_of]
        s.codes = rules.card_codes(len(s.kind_of))
        s.hand_number = 0
        first = options.get("first_player")
        if first is not None:
            s.dealer = (first - 1) % players
        else:
            s.dealer = s._draw_first_dealer()
        s._start_hand(s._ordered_deck())
        return s

    def _draw_first_dealer(self) -> int:
        tag = "seating" if self.hand_number == 0 else f"seating:{self.hand_number + 1}"
        rng = random.Random(f"meldkit:{self.seed}:{tag}")
        n = self.n_players
        if self.rules.spec.deal.first_player == "left_of_dealer":
            return rng.randrange(n)
        order = self.rules.high_card_rank  # rank -> place (0 = highest)
        while True:  # PC-4: highest card starts; jokers, deuces, treys and ties draw again
            ranks = [self.rank_of[rng.randrange(len(self.rank_of))] for _ in range(n)]
            places = [order.get(r, 99) for r in ranks]
            best = min(places)
            if best != 99 and places.count(best) == 1:
                return (places.index(best) - 1) % n

    def _ordered_deck(self) -> list[int]:
        """Card ids from the top of the deck: the stacked prefix (first hand only), then
        the rest shuffled by the hand's seed."""
        ids = list(range(len(self.kind_of)))
        rng = self._hand_rng_for(self.hand_number + 1)
        if not (self.deck_order and self.hand_number == 0):
            rng.shuffle(ids)
            return ids
        free: dict[int, list[int]] = {}
        for c in ids:
            free.setdefault(self.kind_of[c], []).append(c)
        top = []
        for i, code in enumerate(self.deck_order):
            try:
                k = kind_of_code(code)
            except ValueError as e:
                raise SetupError(f"deck_order[{i}]: {e}") from None
            pool = free.get(k)
            if not pool:
                total = self.kind_of.count(k)
                raise SetupError(
                    f"deck_order[{i}]: no {code} left (the deck has {total} of them)"
                )
            top.append(pool.pop(0))
        used = set(top)
        rest = [c for c in ids if c not in used]
        rng.shuffle(rest)
        return top + rest

    def _hand_rng_for(self, hand_number: int) -> random.Random:
        return random.Random(f"meldkit:{self.seed}:{hand_number}")

    def _start_hand(self, deck: list[int]) -> None:
        """Deal hand ``hand_number + 1`` from ``deck`` (top first)."""
        rules = self.rules
        n = self.n_players
        self.hand_number += 1
        if self.hand_number > 1:
            if rules.spec.deal.next_hand_first == "high_card":
                self.dealer = self._draw_first_dealer()
            else:
                self.dealer = (self.dealer + 1) % n
        first = (self.dealer + 1) % n
        self.stock = deck[::-1]  # top of the stock is the end of the list
        self.pile = []
        self.pile_frozen = False
        self.hands = [[[] for _ in range(N_RANKS)] for _ in range(n)]
        self.hand_size = [0] * n
        self.reserves = [[] for _ in range(n)]
        self.reserve_taken = [rules.reserve_size == 0] * n
        self.bonus = [[] for _ in range(n)]
        self.melds = [[] for _ in range(self.n_teams)]
        self.open_melds = [[None] * _SLOTS for _ in range(self.n_teams)]
        self.melded = [False] * self.n_teams
        self.player_melded = [False] * n
        self.out = [False] * n
        self.pending = False
        self.pile_pending = False
        self.pending_top = -1
        self.failed_initial = False
        seats = [(first + i) % n for i in range(n)]
        deal = rules.spec.deal
        for part in deal.order:
            size = rules.hand_size_for(n) if part == "hand" else deal.reserve
            for p in seats:
                cards = [self.stock.pop() for _ in range(size)]
                if part == "hand":
                    for c in cards:
                        self._to_hand(p, c)
                else:
                    self.reserves[p] = cards
        if deal.upcard:
            up = self.stock.pop()
            self.pile.append(up)
            while self.stock and self._upcard_again(self.kind_of[up]):
                self.pile_frozen = True
                up = self.stock.pop()
                self.pile.append(up)
        for p in seats:  # PT-8: bonus cards in the dealt hand are laid out and replaced
            self._lay_out_bonus(p, replace=True)
        self.current = first
        self.phase = DRAW_PHASE
        self.melded_at_turn_start = False
        self._legal_cache = None

    def _upcard_again(self, kind: int) -> bool:
        r = self.rules
        return (r.upcard_again_bonus and r.is_bonus_kind[kind]) or (
            r.upcard_again_wild and r.is_wild_rank[rank_of_kind(kind)]
        )


    # ------------------------------------------------------------------ card moves
    def _to_hand(self, p: int, c: int) -> None:
        self.hands[p][self.rank_of[c]].append(c)
        self.hand_size[p] += 1

    def _from_hand(self, p: int, rank: int) -> int:
        self.hand_size[p] -= 1
        return self.hands[p][rank].pop()

    def _lay_out_bonus(self, p: int, replace: bool) -> None:
        """Move every bonus card from p's hand to their bonus area; replace from the stock."""
        is_bonus = self.rules.is_bonus_kind
        while True:
            found = False
            for rank_cards in self.hands[p]:
                if rank_cards and any(is_bonus[self.kind_of[c]] for c in rank_cards):
                    keep = [c for c in rank_cards if not is_bonus[self.kind_of[c]]]
                    gone = [c for c in rank_cards if is_bonus[self.kind_of[c]]]
                    rank_cards[:] = keep
                    self.hand_size[p] -= len(gone)
                    self.bonus[p].extend(gone)
                    if replace:
                        for _ in gone:
                            if self.stock:
                                self._to_hand(p, self.stock.pop())
                                found = True
            if not found:
                return

    def _draw_from_stock(self, p: int, count: int) -> None:
        is_bonus = self.rules.is_bonus_kind
        for _ in range(count):
            while self.stock:
                c = self.stock.pop()
                if is_bonus[self.kind_of[c]]:  # PT-8: laid out at once and replaced
                    self.bonus[p].append(c)
                    continue
                self._to_hand(p, c)
                break

    def _pick_up_reserve(self, p: int) -> None:
        cards = self.reserves[p]
        self.reserves[p] = []
        self.reserve_taken[p] = True
        for c in cards:
            self._to_hand(p, c)
        self._lay_out_bonus(p, replace=self.rules.reserve_bonus_replaced)

    # ------------------------------------------------------------------ for plugins
    def card_code(self, card: int) -> str:
        """The text code of a card id (``QH``)."""
        return card_code(self.kind_of[card])

    def card_rank(self, card: int) -> int:
        """The rank number of a card id (A=0 … K=12, JK=13; see ``meldkit.RANKS``)."""
        return self.rank_of[card]

    def is_wild(self, card: int) -> bool:
        """True for a wild card of this pack."""
        return self.rules.is_wild_rank[self.rank_of[card]]

    def is_dead(self, card: int) -> bool:
        """True for a dead card of this pack (black 3s in Pony Tail)."""
        return self.rules.is_dead_kind[self.kind_of[card]]

    def is_bonus(self, card: int) -> bool:
        """True for a bonus card of this pack (red 3s)."""
        return self.rules.is_bonus_kind[self.kind_of[card]]

    def hand_cards(self, player: int) -> list[int]:
        """The card ids in a player's hand, by rank."""
        return [c for cards in self.hands[player] for c in cards]

    def remove_from_hand(self, player: int, card: int) -> None:
        """Take one given card id out of a player's hand (for plugin actions: put it in
        another zone next, so that every card stays in exactly one zone)."""
        self.hands[player][self.rank_of[card]].remove(card)
        self.hand_size[player] -= 1

    def add_to_hand(self, player: int, card: int) -> None:
        """Put a card id into a player's hand."""
        self._to_hand(player, card)

    def put_on_stock(self, card: int, bottom: bool = False) -> None:
        """Put a card id on the top (or the bottom) of the stock."""
        if bottom:
            self.stock.insert(0, card)
        else:
            self.stock.append(card)

    # ------------------------------------------------------------------ public reading
    def hand_codes(self, player: int) -> list[str]:
        """The cards in a player's hand as codes, sorted by rank."""
        codes = self.codes
        out = []
        for cards in self.hands[player]:
            out.extend(codes[c] for c in sorted(cards))
        return out

    def initial_minimum(self, team: int) -> int:
        """The initial-meld minimum of a team at its current score."""
        return self.rules.minimum_for(self.scores[team], self.hand_number, self.n_players)

    def zone_cards(self) -> dict[str, list[int]]:
        """Every zone with the card ids in it; each card of the deck is in exactly one."""
        z: dict[str, list[int]] = {"stock": list(self.stock), "pile": list(self.pile)}
        for p in range(self.n_players):
            z[f"hand:{p}"] = [c for cards in self.hands[p] for c in cards]
            z[f"reserve:{p}"] = list(self.reserves[p])
            z[f"bonus:{p}"] = list(self.bonus[p])
        for t in range(self.n_teams):
            for i, m in enumerate(self.melds[t]):
                z[f"meld:{t}:{i}"] = list(m.cards)
        return z

    # ------------------------------------------------------------------ notation
    def parse_action(self, text: str | Action) -> Action:
        """Parse notation (``"meld 9 9 2"``) into an action; raises ``NotationError``."""
        return self.actions.parse(text)

    def _interned(self, action: Action) -> Action | None:
        return self.actions.interned(action)

    def _hooks_may_fail(self) -> bool:
        return self.plugin is not None

    # ------------------------------------------------------------------ legality
    def _legal(self) -> list[Action]:
        """The legal actions.  Candidates are generated within the structural limits
        (cards held, meld shapes), so most are legal by construction; only those whose
        effects need the full rules (a hand left with one card or none, plugin actions,
        the draw phase) go through :meth:`_check`, which stays the one definition of
        legality (a test compares the two over random play)."""
        if self.phase == DRAW_PHASE:
            return [a for a in self._draw_candidates() if self._check(a) is None]
        return self._play_actions()

    def _candidates(self) -> list[Action]:
        """Every structurally plausible action for the current phase (a superset of the
        legal actions; for tests and debugging)."""
        if self.phase == DRAW_PHASE:
            return self._draw_candidates()
        return self._play_actions(filtered=False)

    def _draw_candidates(self) -> list[Action]:
        p = self.current
        get = self.actions.get
        out: list[Action] = []
        if not self.reserve_taken[p]:
            out.append(get(PICKUP))
        out.append(get(DRAW) if self.stock else get(END))
        if self.pile and not self.failed_initial:
            out.extend(self._take_candidates(p))
        for hook in self.rules.draw_hooks:
            out.extend(call_hook(self.plugin.name, f"{hook.verb}.legal", hook.legal, self))
        return out

    def _play_actions(self, filtered: bool = True) -> list[Action]:
        """The play phase's actions (``filtered``: only the legal ones)."""
        p = self.current
        rules = self.rules
        hand = self.hands[p]
        counts = [len(c) for c in hand]
        size = self.hand_size[p]
        check = self._check
        out: list[Action] = []
        if not self.failed_initial:
            opens = self.open_melds[self.team_of[p]]
            cap = rules.mix_cap
            wild_key = tuple(counts[w] if counts[w] < cap else cap for w in rules.wild_ranks)
            memo = rules.slot_actions
            min_nat = rules.min_naturals
            for slot in rules.meld_slots:
                opened = opens[slot]
                if opened is None:
                    if slot != WILD and counts[slot] < min_nat:
                        continue
                    key = (True, slot, 0 if slot == WILD else counts[slot], wild_key, 0, 0)
                else:
                    key = (False, slot, 0 if slot == WILD else counts[slot], wild_key,
                           len(opened.cards), opened.wild)
                entry = memo.get(key)
                if entry is None:
                    entry = memo[key] = self._slot_actions(*key)
                acts, totals, most = entry
                if filtered and rules.going_out_rank[slot]:
                    out.extend(a for a in acts if check(a) is None)
                elif not filtered or size - most >= 2:
                    out.extend(acts)
                else:
                    out.extend(a for a, total in zip(acts, totals)
                               if size - total >= 2 or check(a) is None)
        get = self.actions.get
        if self.pending:
            out.append(get(WITHDRAW))
        elif size >= 2 or not filtered:
            out.extend(rules.discard_actions[r] for r in range(N_RANKS) if counts[r])
        else:
            out.extend(a for r in range(N_RANKS) if counts[r]
                       for a in (rules.discard_actions[r],) if check(a) is None)
        for hook in rules.play_hooks:
            out.extend(a for a in call_hook(self.plugin.name, f"{hook.verb}.legal", hook.legal, self)
                       if not filtered or check(a) is None)
        return out

    def _slot_actions(self, new: bool, slot: int, held: int, wild_key: tuple[int, ...],
                      have: int, have_wild: int) -> tuple[tuple[Action, ...], tuple[int, ...], int]:
        """The meld (``new``) or lay-off actions on ``slot`` for a hand holding ``held``
        naturals of it and ``wild_key`` wild cards, onto a meld of ``have`` cards (of them
        ``have_wild`` wild): the actions, their sizes and the largest size.  Memoised in
        ``rules.slot_actions``: a pure function of its arguments."""
        rules = self.rules
        room = rules.max_meld_size - have
        if new:
            lo, least = rules.min_naturals, rules.min_size
            max_w = room if slot == WILD else rules.slot_max_wilds[slot]
        else:
            lo, least = 0, 1
            max_w = room if slot == WILD else rules.slot_max_wilds[slot] - have_wild
        if slot == WILD:
            lo, hi = 0, 0
        else:
            hi = min(held, room)
        acts, totals = [], []
        for n in range(lo, hi + 1):
            for mix, w in rules.mixes_for(list(wild_key)):
                total = n + w
                if w > max_w or total > room or total < least:
                    continue
                acts.append(self._meld_action(new, slot, n, mix))
                totals.append(total)
        return tuple(acts), tuple(totals), max(totals, default=0)

    def _meld_action(self, new: bool, slot: int, n: int, mix: tuple[int, ...]) -> Action:
        cards = [slot] * n if slot != WILD else []
        for c, w in zip(mix, self.rules.wild_ranks):
            cards.extend([w] * c)
        cards_t = self.actions.canonical(cards)
        return self.actions.get(MELD, cards_t) if new else self.actions.get(ADD, cards_t, slot)

    def _take_candidates(self, p: int) -> list[Action]:
        rules = self.rules
        top = self.rank_of[self.pile[-1]]
        get = self.actions.get
        counts = self.hands[p]
        out = [get(TAKE)]
        if len(counts[top]) >= 2:
            out.append(get(TAKE, (top, top)))
        if rules.is_natural_rank[top] and counts[top]:
            for w in rules.wild_ranks:
                if counts[w]:
                    out.append(get(TAKE, self.actions.canonical((top, w))))
        return out

    def _check(self, a: Action) -> Reason | None:
        if self.phase == OVER:
            return _r("game/over", "the game is over")
        t = a.type
        shape = _SHAPES.get(t)
        if shape is not None and not (shape[0] <= len(a.cards) <= shape[1]
                                      and (a.target >= 0) == (t == ADD)):
            return _r("action/malformed", f"'{a}' is not a well-formed {t} action")
        hook = self.rules.hooks.get(t)
        if hook is not None:
            if ((hook.cards is not None and len(a.cards) != hook.cards)
                    or (a.target >= 0) != hook.target):
                return _r("action/malformed", f"'{a}' is not a well-formed {t} action")
            if hook.phase != self.phase:
                when = "before drawing" if hook.phase == DRAW_PHASE else "after drawing"
                return _r("turn/not-now", f"'{t}' is played {when}")
            return call_hook(self.plugin.name, f"{t}.check", hook.check, self, a)
        if self.phase == DRAW_PHASE:
            if t == DRAW:
                if not self.stock:
                    return _r("draw/stock-empty", "the stock is empty: take the pile or end the hand")
                return None
            if t == END:
                if self.stock:
                    return _r("end/stock-not-empty", "the hand ends only when the stock is empty")
                if not self.rules.stock_empty_ends:
                    return _r("end/not-allowed", "this game does not end on an empty stock")
                return None
            if t == PICKUP:
                return self._check_pickup()
            if t == TAKE:
                return self._check_take(a)
            if t in (MELD, ADD, DISCARD, WITHDRAW):
                return _r("turn/draw-first", "draw first: from the stock or the discard pile")
            return _r("action/unknown", f"unknown action type {t!r}")
        # play phase
        if t in (MELD, ADD):
            return self._check_meld(a)
        if t == DISCARD:
            return self._check_discard(a)
        if t == WITHDRAW:
            if not self.pending:
                return _r("withdraw/nothing-pending", "there is no initial meld to take back")
            return None
        if t in (DRAW, TAKE, PICKUP, END):
            return _r("turn/already-drawn", "you have already drawn this turn")
        return _r("action/unknown", f"unknown action type {t!r}")

    def _check_pickup(self) -> Reason | None:
        p = self.current
        name = self.rules.spec.deal.reserve_name
        if self.rules.reserve_size == 0:
            return _r("reserve/none", "this game has no reserve pile")
        if self.reserve_taken[p]:
            return _r("reserve/already", f"you have already picked up your {name}")
        if not self.rules.pickup_at_turn_start:
            return _r("reserve/not-now", f"your {name} is picked up only when you complete a book")
        if not self._team_has_book(self.team_of[p]):
            return _r("reserve/needs-book", f"your side needs a book before you pick up your {name}")
        return None

    def _team_has_book(self, t: int) -> bool:
        size = self.rules.book_size
        return any(len(m.cards) >= size and not m.pending for m in self.melds[t])

    def _book_kinds(self, t: int) -> list[int]:
        """Kind index of every book of team t."""
        rules = self.rules
        out = []
        for m in self.melds[t]:
            if len(m.cards) >= rules.book_size:
                k = rules.book_kind(m.slot, m.wild)
                if k is not None:
                    out.append(k.index)
        return out

    def _go_out_reason(self, p: int, new_books: list[tuple[int, int]] = (),
                       reserve_gained: bool = False) -> Reason | None:
        """None if p's side may go out (after ``new_books`` are completed)."""
        rules = self.rules
        if rules.requires_reserve and not (self.reserve_taken[p] or reserve_gained):
            name = rules.spec.deal.reserve_name
            return _r("out/reserve-not-picked-up", f"you must pick up your {name} before going out")
        kinds = self._book_kinds(self.team_of[p])
        for nb in new_books:
            k = rules.book_kind(*nb)
            if k is not None:
                kinds.append(k.index)
        need = rules.min_books_for(self.n_players)
        if len(kinds) < need:
            return _r("out/needs-books",
                      f"your side needs {need} book{'s' if need != 1 else ''} to go out "
                      f"(it has {len(kinds)})")
        missing = []
        for i, count in rules.required_book_counts:
            short = count - kinds.count(i)
            if short > 0:  # a kind named n times in required_books needs n books of it
                name = rules.book_kinds[i].name
                missing.append(f"a {name} book" if short == 1 else f"{short} more {name} books")
        if missing:
            return _r("out/required-books",
                      f"your side needs {' and '.join(missing)} before going out")
        return None

    def _foot_waiting(self, p: int) -> bool:
        """Whether playing out p's hand picks up their reserve
        (``reserve.pickup_on_empty_hand``)."""
        return self.rules.pickup_on_empty_hand and not self.reserve_taken[p]

    def _hand_after_ok(self, p: int, hand_after: int, new_books, reserve_gained) -> Reason | None:
        """PT-20: a play must leave a card to discard (and one card only when going out)."""
        if hand_after >= 2:
            return None
        if not reserve_gained and self._foot_waiting(p):
            # the hand played out (or its last card discarded) picks up the reserve
            foot = len(self.reserves[p])
            if hand_after >= 1 or foot >= 2:
                return None
            # melding the last cards picks up a reserve of one card (or none): judge the hand
            # it leaves, so that the player is never left holding a card they cannot play
            return self._hand_after_ok(p, foot, new_books, foot or 1)
        if hand_after == 1:
            why = self._go_out_reason(p, new_books, reserve_gained)
            if why is None:
                return None
            return _r("hand/keep-a-card",
                      f"you would hold one card, and discarding it means going out: {why.sentence}")
        # hand_after == 0
        rules = self.rules
        if not rules.spec.going_out.requires_discard and self._go_out_reason(
                p, new_books, reserve_gained) is None:
            return None
        if not rules.keep_card:
            return None
        why = self._go_out_reason(p, new_books, reserve_gained)
        if why is not None and not rules.spec.going_out.requires_discard:
            # melding every card would be going out: name what going out still needs
            return _r(why.code, f"melding your last cards means going out: {why.sentence}")
        return _r("hand/keep-a-card", "you must keep a card to discard")

    def _reserve_gain(self, p: int, t: int, completes_book: bool) -> int:
        """Cards p's hand gains if completing a book now picks up their reserve."""
        rules = self.rules
        if not completes_book or self.reserve_taken[p]:
            return -1
        mode = rules.pickup_on_book
        if mode == "never" or (mode == "side_first" and self._team_has_book(t)):
            return -1
        # Counted from the reserve's size, never its face-down contents: whether a book may
        # be melded must not reveal how many bonus cards the unseen reserve holds.
        return len(self.reserves[p])

    def _pending_value(self, p: int) -> int:
        value = self.rules.value_of_kind
        kind_of = self.kind_of
        total = 0
        for m in self.melds[self.team_of[p]]:
            if m.pending:
                total += sum(value[kind_of[c]] for c in m.cards)
        if self.pile_pending and not self.rules.pile_top_counts:
            total -= value[kind_of[self.pending_top]]
        return total

    def _pile_coming(self, top_on_pile: int) -> int:
        """Cards of the pile that come into the hand besides its top card (``pile.take_count``);
        ``top_on_pile``: 1 while the top card is still on the pile, 0 once it is melded."""
        below = len(self.pile) - top_on_pile
        limit = self.rules.take_count
        return below if limit is None else max(0, min(below, limit - 1))

    def _check_take(self, a: Action) -> Reason | None:
        rules = self.rules
        p = self.current
        t = self.team_of[p]
        if self.failed_initial:
            return _r("pile/after-withdraw", "after withdrawing an initial meld you must draw")
        if not self.pile:
            return _r("pile/empty", "the discard pile is empty")
        top_kind = self.kind_of[self.pile[-1]]
        top = self.rank_of[self.pile[-1]]
        code = card_code(top_kind)
        if rules.blocks_kind[top_kind]:
            return _r("pile/blocked", f"a {code} on top blocks the pile")
        if rules.single_card_rule and len(self.pile) == 1 and self.hand_size[p] == 1:
            return _r("pile/single-card", "holding a single card, you may not take a pile of a "
                                          "single card")
        if rules.pile_requires_melded and not self.melded[t]:
            return _r("pile/needs-melded", "your side must meld before taking the pile")
        if not (rules.is_natural_rank[top] or rules.is_wild_rank[top]):
            return _r("pile/top-unmeldable", f"a {code} cannot be melded, so the pile cannot be taken")
        slot = WILD if rules.is_wild_rank[top] else top
        if slot == WILD and not rules.wild_melds:
            return _r("pile/top-wild", "a wild card on top cannot be melded, so the pile cannot be taken")
        cards = a.cards
        if rules.going_out_rank[slot]:
            return _r("pile/top-going-out-only",
                      f"{_rank_name(slot)} are melded only when going out, so the pile cannot "
                      "be taken with one")
        hand = self.hands[p]
        frozen = self.pile_frozen or (rules.frozen_until_melded and not self.melded[t])
        opened = self.open_melds[t][slot]
        if not cards:
            if frozen or not rules.take_onto_meld:
                return _r(
                    "pile/frozen-needs-pair" if frozen else "pile/needs-cards",
                    f"name the cards from your hand that meld with the {code}"
                    + (" (the pile is frozen: two of its rank)" if frozen else ""),
                )
            if opened is None:
                return _r("pile/no-meld", f"your side has no open meld of {_rank_name(slot)} for the {code}")
        elif len(cards) != 2:
            return _r("pile/wrong-cards", f"take the {code} with two cards from your hand")
        else:
            pair = cards[0] == top and cards[1] == top
            if frozen:
                ok = pair and (rules.frozen_same_rank_pair or rules.is_natural_rank[top])
                if not ok:
                    need = (f"two {RANKS[top]}s" if rules.frozen_same_rank_pair
                            else f"two natural {RANKS[top]}s")
                    why = ("the pile is frozen" if self.pile_frozen
                           else "the pile is frozen for a side that has not melded")
                    return _r("pile/frozen-needs-pair",
                              f"{why}: you need {need} from your hand to take it")
            elif slot == WILD:
                if not pair:
                    return _r("pile/wrong-cards", f"take a wild {code} with two {RANKS[top]}s")
            else:
                nat_and_wild = cards[0] == top and rules.is_wild_rank[cards[1]]
                if pair and not rules.take_natural_pair:
                    return _r("pile/method-not-allowed", "taking the pile with a natural pair is not allowed")
                if nat_and_wild:
                    if not rules.take_natural_and_wild:
                        return _r("pile/method-not-allowed",
                                  "taking the pile with a natural and a wild card is not allowed")
                elif not pair:
                    return _r("pile/wrong-cards",
                              f"take the {code} with two natural {RANKS[top]}s or one and a wild card")
            for r in set(cards):
                if len(hand[r]) < cards.count(r):
                    return _r("pile/not-in-hand", f"you do not hold {' '.join(RANKS[c] for c in cards)}")
        n_wild = sum(1 for c in cards if rules.is_wild_rank[c])
        top_wild = 1 if slot == WILD else 0
        nat = (opened.nat if opened else 0) + len(cards) - n_wild + (1 - top_wild)
        wild = (opened.wild if opened else 0) + n_wild + top_wild
        if slot == WILD:
            nat, wild = 0, nat + wild
        bad = rules.meld_shape_ok(slot, nat, wild)
        if bad:
            return Reason(bad[0].replace("meld/", "pile/meld-"), f"the {code} cannot be melded: {bad[1]}")
        size = nat + wild
        completes = size >= rules.book_size and (opened is None or len(opened.cards) < rules.book_size)
        if not self.melded[t]:
            got = sum(self._values_leaving(p, cards))
            if rules.pile_top_counts:
                got += rules.value_of_kind[top_kind]
            if got < self.initial_minimum(t):
                return None  # pending: more melds may follow, or it is withdrawn
        gain = self._reserve_gain(p, t, completes)
        hand_after = self.hand_size[p] - len(cards) + self._pile_coming(1) + max(gain, 0)
        new_books = [(slot, wild)] if completes else []
        return self._hand_after_ok(p, hand_after, new_books, gain >= 0)

    def _check_meld(self, a: Action) -> Reason | None:
        rules = self.rules
        p = self.current
        t = self.team_of[p]
        if self.failed_initial:
            return _r("meld/after-withdraw",
                      "you could not reach the initial minimum, so you may not meld this turn")
        cards = a.cards
        naturals = {c for c in cards if not rules.is_wild_rank[c]}
        if len(naturals) > 1:
            return _r("meld/mixed-ranks", "a meld holds cards of one rank (and wild cards)")
        slot = next(iter(naturals)) if naturals else WILD
        if slot != WILD and not rules.is_natural_rank[slot]:
            return _r("meld/unmeldable-rank", f"{RANKS[slot]}s can never be melded")
        opened = self.open_melds[t][slot]
        if a.type == MELD:
            if opened is not None:
                return _r("meld/open-meld-exists",
                          f"your side already has an open meld of {_rank_name(slot)}: add to it")
        else:
            target = a.target
            if slot != WILD and slot != target:
                return _r("add/wrong-rank", f"only {_rank_name(target)} and wild cards go on that meld")
            if slot == WILD and target != WILD:
                slot = target
            if slot == WILD and target == WILD and naturals:
                return _r("add/wrong-rank", "only wild cards go on the wild meld")
            opened = self.open_melds[t][slot]
            if opened is None:
                return _r("add/no-meld", f"your side has no open meld of {_rank_name(slot)}")
            if opened.pending and not self.pending:
                return _r("add/no-meld", f"your side has no open meld of {_rank_name(slot)}")
        hand = self.hands[p]
        for r in set(cards):
            if len(hand[r]) < cards.count(r):
                return _r("meld/not-in-hand", f"you do not hold {' '.join(RANKS[c] for c in cards)}")
        n_wild = sum(1 for c in cards if rules.is_wild_rank[c])
        if slot == WILD:
            nat, wild = 0, len(cards) + (len(opened.cards) if opened else 0)
        else:
            nat = len(cards) - n_wild + (opened.nat if opened else 0)
            wild = n_wild + (opened.wild if opened else 0)
        bad = rules.meld_shape_ok(slot, nat, wild)
        if bad:
            return Reason(*bad)
        size = nat + wild
        before = len(opened.cards) if opened else 0
        completes = size >= rules.book_size > before
        hand_after = self.hand_size[p] - len(cards)
        if not self.melded[t]:
            got = self._pending_value(p) + sum(self._values_leaving(p, cards))
            if got < self.initial_minimum(t):
                if rules.going_out_rank[slot]:  # a pending meld is never going out
                    return _r("meld/only-going-out",
                              f"{_rank_name(slot)} are melded only when going out, and melds "
                              "below the initial minimum cannot go out")
                return None  # pending: the minimum is not reached yet
            if self.pile_pending:
                hand_after += self._pile_coming(0)
            new_books = [(m.slot, m.wild) for m in self.melds[t]
                         if m.pending and len(m.cards) >= rules.book_size and m is not opened]
            if completes:
                new_books.append((slot, wild))
            completes = bool(new_books)
        else:
            new_books = [(slot, wild)] if completes else []
        gain = self._reserve_gain(p, t, completes)
        if rules.going_out_rank[slot]:
            why = self._going_out_meld(p, hand_after + max(gain, 0), new_books, gain >= 0, slot)
            if why is not None:
                return why
        return self._hand_after_ok(p, hand_after + max(gain, 0), new_books, gain >= 0)

    def _going_out_meld(self, p: int, hand_after: int, new_books, reserve_gained: bool,
                        slot: int) -> Reason | None:
        """``melds.going_out_ranks``: such a meld leaves no card, or one to discard, and
        the side may then go out."""
        what = f"{_rank_name(slot)} are melded only when going out"
        if hand_after > 1 or (reserve_gained or self._foot_waiting(p)):
            return _r("meld/only-going-out",
                      f"{what}: this meld would leave you {hand_after} cards")
        why = self._go_out_reason(p, new_books, reserve_gained)
        if why is not None:
            return _r("meld/only-going-out", f"{what}, and {why.sentence}")
        return None

    def _values_leaving(self, p: int, cards: tuple[int, ...]) -> list[int]:
        """Values of the physical cards that ``cards`` (ranks) would take from p's hand."""
        value = self.rules.value_of_kind
        kind_of = self.kind_of
        out = []
        hand = self.hands[p]
        for r in set(cards):
            k = cards.count(r)
            out.extend(value[kind_of[c]] for c in hand[r][-k:])
        return out

    def _check_discard(self, a: Action) -> Reason | None:
        p = self.current
        r = a.cards[0]
        if self.pending:
            got = self._pending_value(p)
            need = self.initial_minimum(self.team_of[p])
            return _r("discard/initial-meld-pending",
                      f"your melds total {got} of the {need} needed: meld more, or withdraw them")
        if not self.hands[p][r]:
            return _r("discard/not-in-hand", f"you hold no {RANKS[r]}")
        if self.hand_size[p] == 1 and not self._foot_waiting(p):
            why = self._go_out_reason(p)
            if why is not None:
                return Reason(why.code, f"discarding your last card means going out: {why.sentence}")
        return None

    # ------------------------------------------------------------------ applying
    def _do(self, a: Action) -> None:
        t = a.type
        if t == DRAW:
            self._draw_from_stock(self.current, self.rules.draw_for(self.n_players))
            self.phase = PLAY_PHASE
            if not self.stock and not self._legal():
                # the last cards of the stock were bonus cards, laid out and not replaced,
                # leaving a hand that can neither meld nor discard: the hand ends there
                # (as classic canasta ends on a red 3 drawn as the last card)
                self._end_hand("stock_empty", None)
        elif t == TAKE:
            self._do_take(a)
        elif t == PICKUP:
            self._pick_up_reserve(self.current)
        elif t == END:
            self._end_hand("stock_empty", None)
        elif t == MELD or t == ADD:
            self._do_meld(a)
        elif t == DISCARD:
            self._do_discard(a)
        elif t == WITHDRAW:
            self._do_withdraw()
        else:
            call_hook(self.plugin.name, f"{t}.apply", self.rules.hooks[t].apply, self, a)

    def _do_take(self, a: Action) -> None:
        p = self.current
        t = self.team_of[p]
        rules = self.rules
        top = self.pile.pop()
        slot = WILD if rules.is_wild_rank[self.rank_of[top]] else self.rank_of[top]
        self.phase = PLAY_PHASE
        ids = [top] + [self._from_hand(p, r) for r in a.cards]
        before = self.open_melds[t][slot]
        before_size = len(before.cards) if before else 0
        m = self._place(t, slot, ids, pending=not self.melded[t])
        if self.melded[t]:
            self._take_rest_of_pile(p)
            # only a meld the take brings to book size is a completed book
            completed = before_size < rules.book_size <= len(m.cards)
            self._after_meld(p, t, [m] if completed else [])
        else:
            self.pending = True
            self.pile_pending = True
            self.pending_top = top
            self._maybe_commit(p, t)

    def _take_rest_of_pile(self, p: int) -> None:
        n = self._pile_coming(0)
        taken = self.pile[len(self.pile) - n:] if n else []
        for c in taken:
            self._to_hand(p, c)
        del self.pile[len(self.pile) - n:]
        # pile.take_count may leave cards: a pile partly taken stays as frozen as it was
        self.pile_frozen = self.pile_frozen and bool(self.pile)
        self._lay_out_bonus(p, replace=False)

    def _place(self, t: int, slot: int, ids: list[int], pending: bool) -> Meld:
        """Put card ids on team t's open meld of ``slot`` (creating it)."""
        is_wild = self.rules.is_wild_rank
        n_wild = sum(1 for c in ids if is_wild[self.rank_of[c]])
        m = self.open_melds[t][slot]
        if m is None:
            m = Meld(slot, ids, len(ids) - n_wild, n_wild, pending)
            self.melds[t].append(m)
            self.open_melds[t][slot] = m
        else:
            m.cards.extend(ids)
            m.nat += len(ids) - n_wild
            m.wild += n_wild
        if slot == WILD:
            m.wild += m.nat
            m.nat = 0
        return m

    def _do_meld(self, a: Action) -> None:
        p = self.current
        t = self.team_of[p]
        rules = self.rules
        naturals = [c for c in a.cards if not rules.is_wild_rank[c]]
        slot = naturals[0] if naturals else (a.target if a.type == ADD else WILD)
        ids = [self._from_hand(p, r) for r in a.cards]
        before = self.open_melds[t][slot]
        before_size = len(before.cards) if before else 0
        m = self._place(t, slot, ids, pending=not self.melded[t])
        if not self.melded[t]:
            self.pending = True
            self._maybe_commit(p, t)
            return
        if before_size < rules.book_size <= len(m.cards):
            self._after_meld(p, t, [m])
        else:
            self._after_meld(p, t, [])

    def _maybe_commit(self, p: int, t: int) -> None:
        """Commit the pending initial meld once it reaches the minimum."""
        if self._pending_value(p) < self.initial_minimum(t):
            return
        self.melded[t] = True
        self.pending = False
        done = []
        for m in self.melds[t]:
            if m.pending:
                m.pending = False
                if len(m.cards) >= self.rules.book_size:
                    done.append(m)
        if self.pile_pending:
            self.pile_pending = False
            self.pending_top = -1
            self._take_rest_of_pile(p)
        self._after_meld(p, t, done)

    def _after_meld(self, p: int, t: int, completed: list[Meld]) -> None:
        """Close completed books, pick up the reserve, and let a player with no cards leave."""
        rules = self.rules
        self.player_melded[p] = True
        picked_up = False
        if completed:
            had_book = any(len(m.cards) >= rules.book_size for m in self.melds[t]
                           if m not in completed and not m.pending)
            for m in completed:
                if rules.close_at_size:
                    m.closed = True
                    self.open_melds[t][m.slot] = None
            mode = rules.pickup_on_book
            if not self.reserve_taken[p] and (
                    mode == "own_first" or (mode == "side_first" and not had_book)):
                self._pick_up_reserve(p)
                picked_up = True
        if picked_up and self.hand_size[p] == 1 and rules.keep_card \
                and self._go_out_reason(p) is not None:
            # The check counted the whole face-down reserve (its contents are unseen); bonus
            # cards in it were laid out and left one card that may not be discarded: the
            # player leaves the hand, as one with no card to discard (PC-15).
            self.out[p] = True
            self._next_turn()
            return
        if self.hand_size[p] == 0 and self._foot_waiting(p):
            self._pick_up_reserve(p)  # the hand melded out: play goes on from the reserve
        if self.hand_size[p] == 0:
            if not rules.spec.going_out.requires_discard and self._go_out_reason(p) is None:
                self._end_hand("went_out", p)
            else:  # PC-15: no card to discard: the player leaves the hand
                self.out[p] = True
                self._next_turn()

    def _do_discard(self, a: Action) -> None:
        p = self.current
        rules = self.rules
        c = self._from_hand(p, a.cards[0])
        self.pile.append(c)
        if rules.freezes_kind[self.kind_of[c]]:
            self.pile_frozen = True
        if self.hand_size[p] == 0 and self._foot_waiting(p):
            self._pick_up_reserve(p)  # the last card discarded: the reserve is played next turn
            self._next_turn()
        elif self.hand_size[p] == 0:
            self._end_hand("went_out", p)
        else:
            self._next_turn()

    def _do_withdraw(self) -> None:
        p = self.current
        t = self.team_of[p]
        keep = []
        top = self.pending_top if self.pile_pending else -1
        for m in self.melds[t]:
            if not m.pending:
                keep.append(m)
                continue
            self.open_melds[t][m.slot] = None
            for c in m.cards:
                if c == top:
                    self.pile.append(c)
                else:
                    self._to_hand(p, c)
        self.melds[t] = keep
        self.pending = False
        self.failed_initial = True
        if self.pile_pending:
            self.pile_pending = False
            self.pending_top = -1
            self.phase = DRAW_PHASE

    def _next_turn(self) -> None:
        rules = self.rules
        n = self.n_players
        if rules.players_leave and rules.one_side_left_ends:
            sides = {self.team_of[q] for q in range(n) if not self.out[q]}
            if len(sides) <= 1:
                self._end_hand("one_side_left", None)
                return
        q = self.current
        for _ in range(n):
            q = (q + 1) % n
            if not self.out[q]:
                break
        self.current = q
        self.phase = DRAW_PHASE
        self.failed_initial = False
        self.melded_at_turn_start = self.player_melded[q]  # PC-20: judged per player

    def _score(self, final: HandFinal) -> list[TeamScore]:
        scores = score_hand(self.rules, final)
        if self.plugin is not None:
            scores = call_hook(self.plugin.name, "adjust_scores", self.plugin.adjust_scores,
                               self, final, scores)
        return scores

    def rescore(self, result: HandResult) -> tuple[int, ...]:
        """A finished hand's team totals recomputed from its final zones."""
        return tuple(s.total for s in self._score(result.final))

    def _end_hand(self, ended_by: str, went_out: int | None) -> None:
        final = HandFinal(
            team_of=tuple(self.team_of),
            hands=tuple(tuple(c for cards in h for c in cards) for h in self.hands),
            reserves=tuple(tuple(r) for r in self.reserves),
            reserve_taken=tuple(self.reserve_taken),
            bonus=tuple(tuple(b) for b in self.bonus),
            melds=tuple(tuple((m.slot, tuple(m.cards)) for m in ms) for ms in self.melds),
            melded=tuple(self.melded),
            went_out=went_out,
            concealed=went_out is not None and not self.melded_at_turn_start,
            hand_number=self.hand_number,
            ext=json.loads(json.dumps(self.ext)) if self.ext else {},
        )
        scores = tuple(self._score(final))
        self.hand_results.append(HandResult(self.hand_number, ended_by, went_out, scores, final))
        for s in scores:
            self.scores[s.team] += s.total
        if self.rules.fixed_hands is not None:  # game.hands: a fixed number of hands
            if self.hand_number >= self.rules.fixed_hands:
                self.phase = OVER
                return
            self._start_hand(self._ordered_deck())
            return
        best = max(self.scores)
        if best >= self.rules.target_for(self.n_players) and (
                self.scores.count(best) == 1 or self.rules.spec.game.tie == "draw"):
            self.phase = OVER
            return
        self._start_hand(self._ordered_deck())

    # ------------------------------------------------------------------ copies and saves
    def clone(self) -> RummyState:
        """An independent copy (actions applied to it do not touch this state)."""
        c = RummyState.__new__(RummyState)
        c.rules = self.rules
        c.pack = self.pack
        c.plugin = self.plugin
        c.ext = json.loads(json.dumps(self.ext)) if self.ext else {}
        c.actions = self.actions
        c.n_players = self.n_players
        c.seed = self.seed
        c.options = self.options
        c.deck_order = self.deck_order
        c.team_of = self.team_of
        c.n_teams = self.n_teams
        c.kind_of = self.kind_of
        c.rank_of = self.rank_of
        c.codes = self.codes
        c.scores = self.scores[:]
        c.hand_number = self.hand_number
        c.dealer = self.dealer
        c.current = self.current
        c.phase = self.phase
        c.stock = self.stock[:]
        c.pile = self.pile[:]
        c.pile_frozen = self.pile_frozen
        c.hands = [[cards[:] for cards in h] for h in self.hands]
        c.hand_size = self.hand_size[:]
        c.reserves = [r[:] for r in self.reserves]
        c.reserve_taken = self.reserve_taken[:]
        c.bonus = [b[:] for b in self.bonus]
        c.melds = [[m.copy() for m in ms] for ms in self.melds]
        c.open_melds = [[None] * _SLOTS for _ in range(self.n_teams)]
        for t, ms in enumerate(c.melds):
            for m in ms:
                if not m.closed:
                    c.open_melds[t][m.slot] = m
        c.melded = self.melded[:]
        c.out = self.out[:]
        c.pending = self.pending
        c.pile_pending = self.pile_pending
        c.pending_top = self.pending_top
        c.failed_initial = self.failed_initial
        c.melded_at_turn_start = self.melded_at_turn_start
        c.player_melded = self.player_melded[:]
        c.history = self.history[:]
        c.hand_results = self.hand_results[:]
        c._legal_cache = self._legal_cache
        return c

    def view(self, player: int) -> dict[str, Any]:
        """What ``player`` may see, as JSON-able data: their own hand, every public zone,
        and only the sizes of hidden ones (stock, other hands, reserves, the pile below
        its top)."""
        if type(player) is not int or not 0 <= player < self.n_players:
            raise SetupError(f"player must be a seat 0..{self.n_players - 1}, not {player!r}")
        codes = self.codes
        teams = []
        for t in range(self.n_teams):
            melds = []
            for m in self.melds[t]:
                book = None
                if len(m.cards) >= self.rules.book_size:
                    k = self.rules.book_kind(m.slot, m.wild)
                    book = k.name if k else None
                melds.append({
                    "rank": "wild" if m.slot == WILD else RANKS[m.slot],
                    "cards": [codes[c] for c in m.cards],
                    "closed": m.closed,
                    "book": book,
                    "pending": m.pending,
                })
            teams.append({
                "team": t,
                "players": self.team_players(t),
                "score": self.scores[t],
                "melded": self.melded[t],
                "minimum": self.initial_minimum(t),
                "melds": melds,
            })
        players = [{
            "seat": q,
            "team": self.team_of[q],
            "hand_size": self.hand_size[q],
            "reserve_size": len(self.reserves[q]),
            "reserve_picked_up": self.reserve_taken[q],
            "bonus": [codes[c] for c in self.bonus[q]],
            "out": self.out[q],
        } for q in range(self.n_players)]
        v: dict[str, Any] = {
            "pack": self.rules.name,
            "you": player,
            "team": self.team_of[player],
            "hand_number": self.hand_number,
            "phase": self.phase,
            "current_player": self.current_player,
            "dealer": self.dealer,
            "hand": self.hand_codes(player),
            "players": players,
            "teams": teams,
            "stock_size": len(self.stock),
            "pile": {
                "top": codes[self.pile[-1]] if self.pile else None,
                "size": len(self.pile),
                "frozen": self.pile_frozen,
            },
        }
        if self.current_player == player:
            v["legal_actions"] = [str(a) for a in self.legal_actions()]
        if self.plugin is not None:
            extra = call_hook(self.plugin.name, "view", self.plugin.view, self, player)
            if extra is not None:
                v["plugin"] = extra
        return v

    def _state_dict(self) -> dict[str, Any]:
        return {
            "ext": self.ext,
            "scores": self.scores,
            "hand_number": self.hand_number,
            "dealer": self.dealer,
            "current": self.current,
            "phase": self.phase,
            "stock": self.stock,
            "pile": self.pile,
            "pile_frozen": self.pile_frozen,
            "hands": [[c for cards in h for c in cards] for h in self.hands],
            "reserves": self.reserves,
            "reserve_taken": self.reserve_taken,
            "bonus": self.bonus,
            "melds": [[[m.slot, m.cards, m.closed, m.pending] for m in ms] for ms in self.melds],
            "melded": self.melded,
            "out": self.out,
            "pending": self.pending,
            "pile_pending": self.pile_pending,
            "pending_top": self.pending_top,
            "failed_initial": self.failed_initial,
            "melded_at_turn_start": self.melded_at_turn_start,
            "player_melded": self.player_melded,
            "history": self.history,
            "hand_results": [
                {"hand_number": h.hand_number, "ended_by": h.ended_by, "went_out": h.went_out,
                 "final": h.final.to_dict()}
                for h in self.hand_results
            ],
        }

    @classmethod
    def _from_state_dict(cls, pack, d: dict) -> RummyState:
        """Rebuild a state from a save, checking every field (see :mod:`meldkit.saves`)."""
        S = _saves
        rules = Rules.of(pack)
        s = cls.__new__(cls)
        s.rules = rules
        s.pack = pack
        s.plugin = rules.plugin
        s.actions = rules.action_space
        s._load_envelope(pack, d)
        n, n_teams = s.n_players, s.n_teams
        s.kind_of = rules.deck_kinds(n)
        s.rank_of = [rank_of_kind(k) for k in s.kind_of]
        s.codes = rules.card_codes(len(s.kind_of))
        n_cards = len(s.kind_of)
        if s.deck_order:
            left: dict[int, int] = {}
            for k in s.kind_of:
                left[k] = left.get(k, 0) + 1
            for i, code in enumerate(s.deck_order):
                try:
                    k = kind_of_code(code)
                except ValueError as e:
                    raise S.bad(f"deck_order[{i}]", str(e)) from None
                if left.get(k, 0) <= 0:
                    raise S.bad(f"deck_order[{i}]", f"no {code} left in this deck")
                left[k] -= 1
        ext = S.json_data(S.obj(d.get("ext", {}), "ext"), "ext")
        s.ext = json.loads(json.dumps(ext))
        ledger = S.CardLedger(n_cards)
        s.stock = ledger.cards(S.get(d, "stock"), "stock")
        s.pile = ledger.cards(S.get(d, "pile"), "pile")
        s.hands = [[[] for _ in range(N_RANKS)] for _ in range(n)]
        s.hand_size = [0] * n
        for p, ids in enumerate(S.array(S.get(d, "hands"), "hands", n)):
            for c in ledger.cards(ids, f"hands[{p}]"):
                s._to_hand(p, c)
        s.reserves = [ledger.cards(r, f"reserves[{p}]")
                      for p, r in enumerate(S.array(S.get(d, "reserves"), "reserves", n))]
        s.reserve_taken = S.array_of(S.get(d, "reserve_taken"), "reserve_taken", S.boolean, n)
        for p in range(n):
            if s.reserve_taken[p] and s.reserves[p]:
                raise S.bad(f"reserves[{p}]", "a reserve already picked up holds no cards")
        s.bonus = [ledger.cards(b, f"bonus[{p}]")
                   for p, b in enumerate(S.array(S.get(d, "bonus"), "bonus", n))]
        for p, b in enumerate(s.bonus):
            for i, c in enumerate(b):
                if not rules.is_bonus_kind[s.kind_of[c]]:
                    raise S.bad(f"bonus[{p}][{i}]", f"{s.codes[c]} is not a bonus card")
        s.melded = S.array_of(S.get(d, "melded"), "melded", S.boolean, n_teams)
        s.melds = []
        s.open_melds = [[None] * _SLOTS for _ in range(n_teams)]
        is_wild = rules.is_wild_rank
        for t, ms in enumerate(S.array(S.get(d, "melds"), "melds", n_teams)):
            team = []
            for i, m in enumerate(S.array(ms, f"melds[{t}]", max_len=n_cards)):
                where = f"melds[{t}][{i}]"
                slot, ids, closed, pending = S.array(m, where, 4)
                slot = S.integer(slot, f"{where}[0]", 0, WILD)
                if slot not in rules.meld_slots:
                    raise S.bad(f"{where}[0]", f"this pack melds no {_rank_name(slot)}")
                ids = ledger.cards(ids, f"{where}[1]")
                closed = S.boolean(closed, f"{where}[2]")
                pending = S.boolean(pending, f"{where}[3]")
                n_wild = sum(1 for c in ids if is_wild[s.rank_of[c]])
                for j, c in enumerate(ids):
                    r = s.rank_of[c]
                    if not is_wild[r] and r != slot:
                        raise S.bad(f"{where}[1][{j}]",
                                    f"{s.codes[c]} does not belong in a meld of {_rank_name(slot)}")
                mm = Meld(slot, list(ids), len(ids) - n_wild, n_wild, pending)
                if slot == WILD:
                    mm.nat, mm.wild = 0, len(ids)
                why = rules.meld_shape_ok(slot, mm.nat, mm.wild)
                if why is not None:
                    raise S.bad(where, why[1])
                if closed and not (rules.close_at_size and len(ids) >= rules.book_size):
                    raise S.bad(f"{where}[2]", "only a complete book is closed")
                if pending and s.melded[t]:
                    raise S.bad(f"{where}[3]", "a side that has melded has no pending meld")
                mm.closed = closed
                team.append(mm)
                if not closed:
                    if s.open_melds[t][slot] is not None:
                        raise S.bad(where, f"a second open meld of {_rank_name(slot)}")
                    s.open_melds[t][slot] = mm
            s.melds.append(team)
        ledger.complete("stock, pile, hands, reserves, bonus and melds")
        s.out = S.array_of(S.get(d, "out"), "out", S.boolean, n)
        s.scores = S.array_of(S.get(d, "scores"), "scores",
                              lambda v, w: S.integer(v, w, -S.MAX_SCORE, S.MAX_SCORE), n_teams)
        s.hand_number = S.integer(S.get(d, "hand_number"), "hand_number", 1, 10**6)
        s.dealer = S.integer(S.get(d, "dealer"), "dealer", 0, n - 1)
        s.current = S.integer(S.get(d, "current"), "current", 0, n - 1)
        s.phase = S.choice(S.get(d, "phase"), "phase", (DRAW_PHASE, PLAY_PHASE, OVER))
        s.pile_frozen = S.boolean(S.get(d, "pile_frozen"), "pile_frozen")
        s.pending = S.boolean(S.get(d, "pending"), "pending")
        s.pile_pending = S.boolean(S.get(d, "pile_pending"), "pile_pending")
        s.pending_top = S.integer(S.get(d, "pending_top"), "pending_top", -1, n_cards - 1)
        s.failed_initial = S.boolean(S.get(d, "failed_initial"), "failed_initial")
        s.melded_at_turn_start = S.boolean(S.get(d, "melded_at_turn_start"),
                                           "melded_at_turn_start")
        if "player_melded" in d:
            s.player_melded = S.array_of(d["player_melded"], "player_melded", S.boolean, n)
        else:  # a save from before PC-20 was judged per player: as the sides stood
            s.player_melded = [s.melded[s.team_of[q]] for q in range(n)]
        cur_team = s.team_of[s.current]
        has_pending = [any(m.pending for m in ms) for ms in s.melds]
        for t in range(n_teams):
            if has_pending[t] and (t != cur_team or s.phase != PLAY_PHASE):
                raise S.bad(f"melds[{t}]", "a pending meld belongs to the side of the player "
                                           "in the middle of their turn")
        if s.pending != has_pending[cur_team]:
            raise S.bad("pending", f"expected {has_pending[cur_team]}: it says whether the side "
                                   "to move has pending melds")
        if s.pile_pending:
            if not s.pending or not any(s.pending_top in m.cards
                                        for m in s.melds[cur_team] if m.pending):
                raise S.bad("pending_top", "a pile taken for a pending meld has its top card "
                                           "in that meld")
        elif s.pending_top != -1:
            raise S.bad("pending_top", f"expected -1 with no pile pending, got {s.pending_top}")
        if s.phase != OVER and s.out[s.current]:
            raise S.bad("current", f"seat {s.current} is out of this hand and cannot move")
        s.hand_results = []
        totals = [0] * n_teams
        for i, h in enumerate(S.array(S.get(d, "hand_results"), "hand_results",
                                      max_len=10_000)):
            where = f"hand_results[{i}]"
            h = S.obj(h, where)
            S.integer(S.get(h, "hand_number", f"{where}."), f"{where}.hand_number", i + 1, i + 1)
            ended_by = S.choice(S.get(h, "ended_by", f"{where}."), f"{where}.ended_by",
                                ("went_out", "stock_empty", "one_side_left"))
            went_out = S.get(h, "went_out", f"{where}.")
            if went_out is not None:
                S.integer(went_out, f"{where}.went_out", 0, n - 1)
            if (went_out is None) != (ended_by != "went_out"):
                raise S.bad(f"{where}.went_out", f"does not agree with ended_by {ended_by!r}")
            final = s._final_from_save(S.get(h, "final", f"{where}."), f"{where}.final", i + 1)
            if final.went_out != went_out:
                raise S.bad(f"{where}.final.went_out", "differs from the hand's went_out")
            scores = tuple(s._score(final))
            for sc in scores:
                totals[sc.team] += sc.total
            s.hand_results.append(HandResult(i + 1, ended_by, went_out, scores, final))
        done = len(s.hand_results)
        if s.hand_number != (done if s.phase == OVER else done + 1):
            raise S.bad("hand_number", f"{s.hand_number} does not follow the {done} finished "
                                       f"hand(s) in hand_results")
        if totals != s.scores:
            raise S.bad("scores", f"{s.scores} are not the sum of the hands' scores {totals}")
        s._legal_cache = None
        return s

    def _final_from_save(self, v, where: str, hand_number: int) -> HandFinal:
        """A finished hand's record from a save, checked like the state."""
        S = _saves
        n, n_teams = self.n_players, self.n_teams
        n_cards = len(self.kind_of)
        v = S.obj(v, where)
        ledger = S.CardLedger(n_cards)
        team_of = S.get(v, "team_of", f"{where}.")
        if team_of != self.team_of:
            raise S.bad(f"{where}.team_of", f"expected the game's seating {self.team_of}")

        def zones(key: str, count: int) -> tuple[tuple[int, ...], ...]:
            return tuple(tuple(ledger.cards(z, f"{where}.{key}[{i}]"))
                         for i, z in enumerate(S.array(S.get(v, key, f"{where}."),
                                                       f"{where}.{key}", count)))

        hands, reserves, bonus = zones("hands", n), zones("reserves", n), zones("bonus", n)
        melds = []
        for t, ms in enumerate(S.array(S.get(v, "melds", f"{where}."), f"{where}.melds", n_teams)):
            team = []
            for i, m in enumerate(S.array(ms, f"{where}.melds[{t}]", max_len=n_cards)):
                mw = f"{where}.melds[{t}][{i}]"
                slot, ids = S.array(m, mw, 2)
                slot = S.integer(slot, f"{mw}[0]", 0, WILD)
                if slot not in self.rules.meld_slots:
                    raise S.bad(f"{mw}[0]", f"this pack melds no {_rank_name(slot)}")
                team.append((slot, tuple(ledger.cards(ids, f"{mw}[1]"))))
            melds.append(tuple(team))
        went_out = S.get(v, "went_out", f"{where}.")
        if went_out is not None:
            S.integer(went_out, f"{where}.went_out", 0, n - 1)
        S.integer(v.get("hand_number", hand_number), f"{where}.hand_number",
                  hand_number, hand_number)
        ext = S.json_data(S.obj(v.get("ext", {}), f"{where}.ext"), f"{where}.ext")
        return HandFinal(
            team_of=tuple(self.team_of),
            hands=hands,
            reserves=reserves,
            reserve_taken=tuple(S.array_of(S.get(v, "reserve_taken", f"{where}."),
                                           f"{where}.reserve_taken", S.boolean, n)),
            bonus=bonus,
            melds=tuple(melds),
            melded=tuple(S.array_of(S.get(v, "melded", f"{where}."), f"{where}.melded",
                                    S.boolean, n_teams)),
            went_out=went_out,
            concealed=S.boolean(S.get(v, "concealed", f"{where}."), f"{where}.concealed"),
            hand_number=hand_number,
            ext=json.loads(json.dumps(ext)),
        )
