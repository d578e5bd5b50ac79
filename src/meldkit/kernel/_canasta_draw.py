"""The draw phase of the canasta kernel: drawing from the stock, picking up the reserve, taking the
discard pile — what is legal and what it does.

A mixin of :class:`meldkit.RummyState` (``meldkit._state``), which ties the phases together."""

from __future__ import annotations

from .._actions import DRAW, END, PICKUP, TAKE, Action, Reason
from .._cards import RANKS, card_code, with_article
from .._game import call_hook
from .._rules import WILD
from ._canasta_common import PLAY_PHASE, _r, _rank_closed, _rank_name


class DrawPhase:
    """The draw phase of the canasta kernel."""

    __slots__ = ()

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
        if rules.sequences:
            out.extend(self._take_onto_run_candidates(p))
        return out

    def _check_pickup(self) -> Reason | None:
        p = self.current
        name = self.rules.spec.deal.reserve_name
        if self.rules.reserve_size == 0:
            return _r("reserve/none", "this game has no reserve pile")
        if self.reserve_taken[p]:
            return _r("reserve/already", f"you have already picked up your {name}")
        if not self.rules.pickup_at_turn_start:
            return _r("reserve/not-now", f"your {name} is picked up only when you complete a book")
        if not self._team_has_book(self.side_of[p]):
            return _r("reserve/needs-book",
                      f"your side needs a book before you pick up your {name}")
        return None

    def _pile_coming(self, top_on_pile: int) -> int:
        """Cards of the pile that come into the hand besides its top card (``pile.take_count``);
        ``top_on_pile``: 1 while the top card is still on the pile, 0 once it is melded."""
        below = len(self.pile) - top_on_pile
        limit = self.rules.take_count
        return below if limit is None else max(0, min(below, limit - 1))

    def _check_take(self, a: Action) -> Reason | None:
        rules = self.rules
        p = self.current
        t = self.side_of[p]
        if self.failed_initial:
            return _r("pile/after-withdraw", "after withdrawing an initial meld you must draw")
        if not self.pile:
            return _r("pile/empty", "the discard pile is empty")
        top_kind = self.kind_of[self.pile[-1]]
        top = self.rank_of[self.pile[-1]]
        code = card_code(top_kind)
        if rules.blocks_kind[top_kind]:
            return _r("pile/blocked", f"{with_article(code)} on top blocks the pile")
        if rules.single_card_rule and len(self.pile) == 1 and self.hand_size[p] == 1:
            return _r("pile/single-card", "holding a single card, you may not take a pile of a "
                                          "single card")
        if rules.pile_requires_melded and not self.melded[t]:
            return _r("pile/needs-melded", "your side must meld before taking the pile")
        if a.target >= 0:
            return self._check_take_onto_run(a)
        if not a.cards and rules.take_free and not (
                self.pile_frozen or (rules.frozen_until_melded and not self.melded[t])):
            return None  # pile.take_with: free — the whole pile, melding nothing
        if not (rules.is_natural_rank[top] or rules.is_wild_rank[top]):
            return _r("pile/top-unmeldable",
                      f"{with_article(code)} cannot be melded, so the pile cannot be taken")
        slot = WILD if rules.is_wild_rank[top] else top
        if slot == WILD and not rules.wild_melds:
            return _r("pile/top-wild",
                      "a wild card on top cannot be melded, so the pile cannot be taken")
        cards = a.cards
        if rules.going_out_rank[slot]:
            return _r("pile/top-going-out-only",
                      f"{_rank_name(slot)} are melded only when going out, so the pile cannot "
                      "be taken with one")
        hand = self.hands[p]
        frozen = self.pile_frozen or (rules.frozen_until_melded and not self.melded[t])
        if frozen and slot == WILD and not rules.frozen_same_rank_pair:
            # pile.frozen_take_with: natural_pair — no natural card matches a wild card
            why = ("the pile is frozen" if self.pile_frozen
                   else "the pile is frozen for a side that has not melded")
            return _r("pile/frozen-needs-pair",
                      f"{why}, and a frozen pile is taken only with two natural cards of its "
                      f"top card's rank: a wild {code} on top cannot be taken")
        opened = self.open_melds[t][slot]
        if opened is None and not rules.reopen and slot in self._closed_slots(t):
            return _rank_closed("pile", slot)
        if not cards:
            if frozen or not rules.take_onto_meld:
                return _r(
                    "pile/frozen-needs-pair" if frozen else "pile/needs-cards",
                    f"name the cards from your hand that meld with the {code}"
                    + (" (the pile is frozen: two of its rank)" if frozen else ""),
                )
            if opened is None:
                return _r("pile/no-meld",
                          f"your side has no open meld of {_rank_name(slot)} for the {code}")
            if not rules.take_onto_book and len(opened.cards) >= rules.book_size:
                return _r("pile/onto-book", f"the {code} may go alone only onto a meld of fewer "
                          f"than {rules.book_size} cards")
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
                    return _r("pile/method-not-allowed",
                              "taking the pile with a natural pair is not allowed")
                if nat_and_wild:
                    if not rules.take_natural_and_wild:
                        return _r("pile/method-not-allowed",
                                  "taking the pile with a natural and a wild card is not allowed")
                elif not pair:
                    also = " or one and a wild card" if rules.take_natural_and_wild else ""
                    return _r("pile/wrong-cards",
                              f"take the {code} with two natural {RANKS[top]}s{also}")
            for r in set(cards):
                if len(hand[r]) < cards.count(r):
                    return _r("pile/not-in-hand",
                              f"you do not hold {' '.join(RANKS[c] for c in cards)}")
        n_wild = sum(1 for c in cards if rules.is_wild_rank[c])
        top_wild = 1 if slot == WILD else 0
        nat = (opened.nat if opened else 0) + len(cards) - n_wild + (1 - top_wild)
        wild = (opened.wild if opened else 0) + n_wild + top_wild
        if slot == WILD:
            nat, wild = 0, nat + wild
        bad = rules.meld_shape_ok(slot, nat, wild)
        if bad is None and rules.adds_by_kind:  # books.kinds[].adds
            have, have_wild = (len(opened.cards), opened.wild) if opened else (0, 0)
            bad = rules.book_adds_ok(slot, have, have_wild, nat + wild - have - (
                wild - have_wild), wild - have_wild)
        if bad:
            return Reason(bad[0].replace("meld/", "pile/meld-").replace("add/", "pile/"),
                          f"the {code} cannot be melded: {bad[1]}")
        size = nat + wild
        completes = size >= rules.book_size and (
            opened is None or len(opened.cards) < rules.book_size)
        if not self.melded[t]:
            got = sum(self._values_leaving(p, cards))
            if rules.pile_top_counts:
                got += rules.value_of_kind[top_kind]
            need = self.initial_minimum(self.team_of[p])
            if got < need:
                if self.hand_size[p] == len(cards):  # the pile comes only with the minimum
                    return self._pending_empties_hand(got, need)
                return None  # pending: more melds may follow, or it is withdrawn
        gain = self._reserve_gain(p, t, completes)
        hand_after = self.hand_size[p] - len(cards) + self._pile_coming(1) + max(gain, 0)
        grown = self._grown_book(opened)
        new_books = [(slot, wild)] if completes or grown is not None else []
        return self._hand_after_ok(p, hand_after, new_books, gain >= 0, grown)

    def _do_take(self, a: Action) -> None:
        if a.target >= 0:
            self._do_take_onto_run(a)
            return
        p = self.current
        t = self.side_of[p]
        rules = self.rules
        top = self.pile.pop()
        self.phase = PLAY_PHASE
        if not a.cards and rules.take_free:  # the whole pile into the hand, unmelded
            self._to_hand(p, top)
            self._take_rest_of_pile(p)
            return
        slot = WILD if rules.is_wild_rank[self.rank_of[top]] else self.rank_of[top]
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
        if self.rules.sides_form and self.side_of is self.team_of:
            self._form_sides(p)  # the first to take the pile plays alone
        n = self._pile_coming(0)
        taken = self.pile[len(self.pile) - n:] if n else []
        for c in taken:
            self._to_hand(p, c)
        del self.pile[len(self.pile) - n:]
        # pile.take_count may leave cards: a pile partly taken stays as frozen as it was
        self.pile_frozen = self.pile_frozen and bool(self.pile)
        self._lay_out_bonus(p, replace=False)

    def _do_draw(self) -> None:
        """Draw from the stock; the stock's last card a bonus card ends the hand as
        ``hand_end.last_card_bonus`` says."""
        p = self.current
        last_bonus = self._draw_from_stock(p, self.rules.draw_for(self.n_players))
        self.phase = PLAY_PHASE
        if last_bonus:
            mode = self.rules.spec.hand_end.last_card_bonus
            if mode == "end_at_once":
                self._end_hand("stock_empty", None)
                return
            if mode == "meld_then_end":  # CC-18: meld and lay off, no discard, then the end
                self.final_play = True
                return
        if not self.stock and not self._legal():
            # the last cards of the stock were bonus cards, laid out and not replaced,
            # leaving a hand that can neither meld nor discard: the hand ends there
            self._end_hand("stock_empty", None)

    def _draw_from_stock(self, p: int, count: int) -> bool:
        """Draw ``count`` cards into p's hand, bonus cards laid out and replaced; True if
        the stock's last card was a bonus card (laid out, with nothing to replace it)."""
        is_bonus = self.rules.is_bonus_kind
        for _ in range(count):
            while self.stock:
                c = self.stock.pop()
                if is_bonus[self.kind_of[c]]:  # PT-8: laid out at once and replaced
                    self.bonus[p].append(c)
                    if not self.stock:
                        return True
                    continue
                self._to_hand(p, c)
                break
        return False

    def _check_final_end(self) -> Reason | None:
        """``end`` after the stock's last card, a bonus card, was drawn
        (``hand_end.last_card_bonus: meld_then_end``)."""
        if self.pending:
            got = self._pending_value(self.current)
            need = self.initial_minimum(self.team_of[self.current])
            return _r("end/initial-meld-pending",
                      f"your melds total {got} of the {need} needed: meld more, or withdraw "
                      "them")
        return None

    def _pick_up_reserve(self, p: int) -> None:
        cards = self.reserves[p]
        self.reserves[p] = []
        self.reserve_taken[p] = True
        for c in cards:
            self._to_hand(p, c)
        self._lay_out_bonus(p, replace=self.rules.reserve_bonus_replaced)
