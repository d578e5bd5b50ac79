"""The play phase of the canasta kernel: melds and lay-offs by rank slot, the initial meld,
discarding and withdrawing — what is legal and what it does.

A mixin of :class:`meldkit.RummyState` (``meldkit._state``), which ties the phases together."""

from __future__ import annotations

from .._actions import ADD, END, MELD, WITHDRAW, Action, Reason
from .._cards import JOKER_KIND, N_RANKS, RANKS, card_code, rank_of_kind, with_article
from .._game import call_hook
from .._rules import BAN_WAITS, SEQ, WILD
from ._canasta_common import DRAW_PHASE, Meld, _r, _rank_closed, _rank_name


class PlayPhase:
    """The play phase of the canasta kernel."""

    __slots__ = ()

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
            opens = self.open_melds[self.side_of[p]]
            closed = () if rules.reopen else self._closed_slots(self.side_of[p])
            cap = rules.mix_cap
            wild_key = tuple(counts[w] if counts[w] < cap else cap for w in rules.wild_ranks)
            memo = rules.slot_actions
            min_nat = rules.min_naturals
            for slot in rules.meld_slots:
                opened = opens[slot]
                if opened is None:
                    if (slot != WILD and counts[slot] < min_nat) or slot in closed:
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
        if rules.sequences and not self.failed_initial:
            out.extend(self._run_actions(p, filtered))
        get = self.actions.get
        if self.pending:
            out.append(get(WITHDRAW))
        elif self.final_play:  # the stock's last card was a bonus card: no discard
            out.append(get(END))
        elif rules.discard_bans and filtered:  # pile.discard_bans: some cards wait
            acts = ([rules.kind_discard_actions[k] for k in sorted(
                {self.kind_of[c] for cards in hand for c in cards})] if rules.suits_matter
                else [rules.discard_actions[r] for r in range(N_RANKS) if counts[r]])
            legal = [a for a in acts if check(a) is None]
            out.extend(legal if legal or not rules.all_banned_pass
                       or not self._all_banned(p) else [get(END)])
        elif rules.suits_matter:  # the discard names its suit
            kind_of, by_kind = self.kind_of, rules.kind_discard_actions
            acts = [by_kind[k] for k in sorted({kind_of[c] for cards in hand for c in cards})]
            out.extend(acts if size >= 2 or not filtered else
                       [a for a in acts if check(a) is None])
        elif size >= 2 or not filtered:
            discards = rules.discard_actions
            out += [discards[r] for r in range(N_RANKS) if counts[r]]
        else:
            out.extend(a for r in range(N_RANKS) if counts[r]
                       for a in (rules.discard_actions[r],) if check(a) is None)
        for hook in rules.play_hooks:
            out.extend(a for a in call_hook(self.plugin.name, f"{hook.verb}.legal",
                                            hook.legal, self)
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
        adds_ok = rules.book_adds_ok if rules.adds_by_kind else None
        for n in range(lo, hi + 1):
            for mix, w in rules.mixes_for(list(wild_key)):
                total = n + w
                if w > max_w or total > room or total < least:
                    continue
                if adds_ok is not None and adds_ok(slot, have, have_wild, n, w) is not None:
                    continue  # books.kinds[].adds: what a book of its kind still takes
                acts.append(self._meld_action(new, slot, n, mix))
                totals.append(total)
        return tuple(acts), tuple(totals), max(totals, default=0)

    def _meld_action(self, new: bool, slot: int, n: int, mix: tuple[int, ...]) -> Action:
        cards = [slot] * n if slot != WILD else []
        for c, w in zip(mix, self.rules.wild_ranks):
            cards.extend([w] * c)
        cards_t = self.actions.canonical(cards)
        return self.actions.get(MELD, cards_t) if new else self.actions.get(ADD, cards_t, slot)

    def _closed_slots(self, t: int) -> set[int]:
        """The ranks (slots) side ``t`` has closed a book of this hand."""
        return {m.slot for m in self.melds[t] if m.closed}

    @staticmethod
    def _after_withdraw() -> Reason:
        """Why nothing may be melded once the player withdrew an initial meld this turn."""
        return _r("meld/after-withdraw",
                  "you could not reach the initial minimum, so you may not meld this turn")

    def _check_meld(self, a: Action) -> Reason | None:
        if self.failed_initial:
            return self._after_withdraw()
        rules = self.rules
        p = self.current
        t = self.side_of[p]
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
            if not rules.reopen and slot in self._closed_slots(t):
                return _rank_closed("meld", slot)
        else:
            target = a.target
            if slot != WILD and slot != target:
                return _r("add/wrong-rank",
                          f"only {_rank_name(target)} and wild cards go on that meld")
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
                return _r("meld/not-in-hand",
                          f"you do not hold {' '.join(RANKS[c] for c in cards)}")
        n_wild = sum(1 for c in cards if rules.is_wild_rank[c])
        if slot == WILD:
            nat, wild = 0, len(cards) + (len(opened.cards) if opened else 0)
        else:
            nat = len(cards) - n_wild + (opened.nat if opened else 0)
            wild = n_wild + (opened.wild if opened else 0)
        bad = rules.meld_shape_ok(slot, nat, wild)
        if bad:
            return Reason(*bad)
        if rules.adds_by_kind:  # books.kinds[].adds
            have, have_wild = (len(opened.cards), opened.wild) if opened else (0, 0)
            add_wild = len(cards) if slot == WILD else n_wild
            bad = rules.book_adds_ok(slot, have, have_wild, len(cards) - add_wild, add_wild)
            if bad:
                return Reason(*bad)
        size = nat + wild
        before = len(opened.cards) if opened else 0
        completes = size >= rules.book_size > before
        return self._meld_effects_ok(p, t, len(cards), sum(self._values_leaving(p, cards)),
                                     completes, slot, wild, opened)

    def _meld_effects_ok(self, p: int, t: int, n_cards: int, value: int, completes: bool,
                         slot: int, wild: int, opened: Meld | None) -> Reason | None:
        """What a well-formed meld or lay-off of ``n_cards`` cards worth ``value`` onto
        ``opened`` (None: a new meld of ``slot``) does to p's turn: the initial minimum,
        books completed, a reserve picked up, the card left to discard, going out."""
        rules = self.rules
        hand_after = self.hand_size[p] - n_cards
        if not self.melded[t]:
            got = self._pending_value(p) + value
            need = self.initial_minimum(self.team_of[p])
            if got < need:
                if rules.going_out_rank[slot]:  # a pending meld is never going out
                    return _r("meld/only-going-out",
                              f"{_rank_name(slot)} are melded only when going out, and melds "
                              "below the initial minimum cannot go out")
                if hand_after == 0:  # an empty hand whose only move would be to withdraw
                    return self._pending_empties_hand(got, need)
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
        grown = self._grown_book(opened)
        if grown is not None:
            new_books.append((slot, wild))
        gain = self._reserve_gain(p, t, completes)
        if rules.going_out_rank[slot]:
            why = self._going_out_meld(p, hand_after + max(gain, 0), new_books, gain >= 0, slot,
                                       grown)
            if why is not None:
                return why
        return self._hand_after_ok(p, hand_after + max(gain, 0), new_books, gain >= 0, grown)

    @staticmethod
    def _pending_empties_hand(got: int, need: int) -> Reason:
        """Why a play toward the initial meld may not leave the hand empty below the
        minimum: it neither commits the meld nor goes out, and only withdrawing would
        follow."""
        return _r("hand/keep-a-card",
                  f"this would leave you no card with your melds at {got} of the {need} the "
                  "initial meld needs: a play that empties your hand must complete the initial "
                  "meld and take you out")

    def _going_out_meld(self, p: int, hand_after: int, new_books, reserve_gained: bool,
                        slot: int, grown=None) -> Reason | None:
        """``melds.going_out_ranks``: such a meld leaves no card, or one to discard, and
        the side may then go out."""
        what = f"{_rank_name(slot)} are melded only when going out"
        if hand_after > 1 or (reserve_gained or self._foot_waiting(p)):
            return _r("meld/only-going-out",
                      f"{what}: this meld would leave you {hand_after} cards")
        why = self._go_out_reason(p, new_books, reserve_gained, grown)
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
        if self.final_play:
            return _r("discard/after-last-bonus",
                      "the stock's last card was a bonus card: you may meld, but not discard; "
                      "'end' ends the hand")
        p = self.current
        r = a.cards[0]
        if self.rules.suits_matter:  # a kind: the discard names its suit
            k = r
            r = rank_of_kind(k) if 0 <= k <= JOKER_KIND else -1
            if r < 0 or not any(self.kind_of[c] == k for c in self.hands[p][r]):
                return _r("discard/not-in-hand",
                          f"you hold no {card_code(k) if r >= 0 else 'such card'}")
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
                return Reason(why.code,
                              f"discarding your last card means going out: {why.sentence}")
        if self.rules.discard_bans:
            return self._discard_ban_reason(p, r)
        return None

    # ------------------------------------------------------------------ discard bans
    def _discard_condition(self, p: int, cond: str, rank: int) -> bool:
        """Whether ``cond`` of a ``pile.discard_bans`` entry holds for ``p`` discarding a
        card of ``rank`` now."""
        if cond in ("going_out", "not_going_out"):
            out = self.hand_size[p] == 1 and not self._foot_waiting(p)
            return out if cond == "going_out" else not out
        t = self.side_of[p]
        if cond == "opened":
            return self.melded[t]
        size = self.rules.book_size
        return any(len(m.cards) >= size and not m.pending and (cond == "book" or m.slot == rank)
                   for m in self.melds[t])

    def _ban_on(self, p: int, rank: int) -> str | None:
        """The condition a ban on discarding ``rank`` waits for, or None: not banned."""
        for cond in self.rules.discard_ban_of[rank]:
            if not self._discard_condition(p, cond, rank):
                return cond
        return None

    def _all_banned(self, p: int) -> bool:
        """Whether every card ``p`` holds is banned from the discard now."""
        hand = self.hands[p]
        return all(not hand[r] or self._ban_on(p, r) is not None for r in range(N_RANKS))

    def _discard_ban_reason(self, p: int, rank: int) -> Reason | None:
        """Why discarding a card of ``rank`` is refused by ``pile.discard_bans``; None if it
        is not banned, or every card held is and the bans are lifted (``all_banned: lift``)."""
        cond = self._ban_on(p, rank)
        if cond is None or (not self.rules.all_banned_pass and self._all_banned(p)):
            return None
        pass_ = " ('end' ends the turn while every card you hold is banned)" if (
            self.rules.all_banned_pass) else ""
        return _r("discard/banned", f"{with_article(RANKS[rank])} may not be discarded "
                  f"{BAN_WAITS[cond].format(rank=RANKS[rank])}{pass_}")

    def _check_end_turn(self) -> Reason | None:
        """``end`` in the play phase with no discard: only while every card held is banned
        from the discard (``pile.all_banned: pass``)."""
        if not (self.rules.discard_bans and self.rules.all_banned_pass):
            return _r("turn/already-drawn", "you have already drawn this turn")
        if self.pending:
            return _r("end/initial-meld-pending", "your initial meld is pending: meld more, "
                                                  "or withdraw it")
        if not self._all_banned(self.current):
            return _r("end/may-discard", "you hold a card you may discard: end the turn by "
                                         "discarding it")
        return None

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
        t = self.side_of[p]
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
        if self._pending_value(p) < self.initial_minimum(self.team_of[p]):
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
                if m.slot != SEQ and (rules.book_adds(m.slot, m.wild) == "none"
                                      if rules.adds_by_kind else rules.close_at_size):
                    # closed at books.size (a sequence closes at its max_size)
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
        if rules.suits_matter:
            c = self._take_kind(p, a.cards[0])
        else:
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
        t = self.side_of[p]
        keep = []
        top = self.pending_top if self.pile_pending else -1
        for m in self.melds[t]:
            if not m.pending:
                keep.append(m)
                continue
            if m.slot != SEQ:
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
