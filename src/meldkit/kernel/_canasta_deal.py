"""The deal of a canasta-kernel hand: the first dealer, the stacked or shuffled deck, hands and
reserves dealt, the upcard, bonus cards laid out.

A mixin of :class:`meldkit.RummyState` (``meldkit._state``), which ties the phases together."""

from __future__ import annotations

import random

from .._cards import N_RANKS, kind_of_code, rank_of_kind
from .._rules import SEQ, Rules
from .._stacking import check_deck_order
from ._canasta_common import _SLOTS, DRAW_PHASE


class DealPhase:
    """The deal of a canasta-kernel hand."""

    __slots__ = ()

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
        """Card ids from the top of the deck: the stacked prefix (the first hand's
        ``deck_order``, a later one's :meth:`~meldkit.GameState.stack_deal`), then the rest
        shuffled by the hand's seed."""
        ids = list(range(len(self.kind_of)))
        rng = self._hand_rng_for(self.hand_number + 1)
        stacked = self._stacked_for(self.hand_number + 1)
        if not stacked:
            rng.shuffle(ids)
            return ids
        self._check_stack(stacked)
        free: dict[int, list[int]] = {}
        for c in ids:
            free.setdefault(self.kind_of[c], []).append(c)
        top = [free[kind_of_code(code)].pop(0) for code in stacked]
        used = set(top)
        rest = [c for c in ids if c not in used]
        rng.shuffle(rest)
        return top + rest

    def _check_stack(self, deck_order: list[str]) -> None:
        check_deck_order(self.kind_of, deck_order)

    def _deals_again(self) -> bool:
        return True

    def _first_dealt(self) -> int:
        return (self.dealer + 1) % self.n_players  # the dealer's left

    def _hand_rng_for(self, hand_number: int) -> random.Random:
        return random.Random(f"meldkit:{self.seed}:{hand_number}")

    def _start_hand(self, deck: list[int]) -> None:
        """Deal hand ``hand_number + 1`` from ``deck`` (top first)."""
        n = self.n_players
        self.hand_number += 1
        if self.pack.deals:  # a schedule: this deal's own settings
            self.rules = Rules.of(self.pack.for_deal(self.hand_number))
            self.actions = self.rules.action_space
        rules = self.rules
        if self.hand_number > 1:
            nxt = rules.spec.deal.next_hand_first
            won = self.hand_results[-1].went_out if (
                nxt == "winner" and self.hand_results) else None
            if nxt == "high_card":
                self.dealer = self._draw_first_dealer()
            elif won is not None:
                self.dealer = (won - 1) % n  # the winner plays first
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
        self.side_of = self.team_of  # players.sides_form: the seating until sides form
        self.turns = 0  # turns played this hand (game.hand_turn_limit)
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
        self.final_play = False
        self.turn_start_sizes = []
        self._legal_cache = None

    def _form_sides(self, lone: int) -> None:
        """``players.sides_form: first_pile_take``: ``lone`` plays alone, and the others
        become one side for the rest of the hand — the side of the lowest seat among them,
        into whose melds the others' join (one meld per rank: two open melds of a rank
        become one, closed at ``books.size`` where books close)."""
        others = [q for q in range(self.n_players) if q != lone]
        rep = self.team_of[others[0]]
        rules = self.rules
        for q in others[1:]:
            t = self.team_of[q]
            opens = self.open_melds[rep]
            for m in self.melds[t]:
                into = None if m.slot == SEQ or m.closed else opens[m.slot]
                if into is None:
                    self.melds[rep].append(m)
                    if m.slot != SEQ and not m.closed:
                        opens[m.slot] = m
                    continue
                into.cards.extend(m.cards)
                into.nat += m.nat
                into.wild += m.wild
                if (len(into.cards) >= rules.book_size
                        and rules.book_adds(into.slot, into.wild) == "none"):
                    into.closed = True
                    opens[m.slot] = None
            self.melds[t] = []
            self.open_melds[t] = [None] * _SLOTS
            self.melded[rep] = self.melded[rep] or self.melded[t]
            self.melded[t] = False
        side_of = list(self.team_of)
        for q in others:
            side_of[q] = rep
        # (at two seats the sides are the seating: nothing forms)
        self.side_of = self.team_of if side_of == self.team_of else side_of

    def _upcard_again(self, kind: int) -> bool:
        r = self.rules
        return (r.upcard_again_bonus and r.is_bonus_kind[kind]) or (
            r.upcard_again_wild and r.is_wild_rank[rank_of_kind(kind)]
        )

    def _lay_out_bonus(self, p: int, replace: bool) -> None:
        """Move every bonus card from p's hand to their bonus area; replace from the stock."""
        is_bonus = self.rules.is_bonus_kind
        hand = self.hands[p]
        while True:
            found = False
            for r in self.rules.bonus_ranks:  # only ranks with a bonus kind can hold one
                rank_cards = hand[r]
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
