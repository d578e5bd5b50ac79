"""Going out in the canasta kernel: the books a side holds, what going out requires, the card a
player must keep, the reserve a play picks up.

A mixin of :class:`meldkit.RummyState` (``meldkit._state``), which ties the phases together."""

from __future__ import annotations

from .._actions import Reason
from .._rules import missing_books
from ._canasta_common import _r


class GoingOut:
    """Going out in the canasta kernel."""

    __slots__ = ()

    def _team_has_book(self, t: int) -> bool:
        size = self.rules.book_size
        return any(len(m.cards) >= size and not m.pending for m in self.melds[t])

    def _grown_book(self, opened):
        """``opened``, the meld a play adds to, if it is already a book (None otherwise):
        it stays a book, of the kind its cards make after the play (which the play's
        ``new_books`` entry for its rank names)."""
        if opened is not None and len(opened.cards) >= self.rules.book_size:
            return opened
        return None

    def _book_kinds(self, t: int, grown=None) -> list[int]:
        """Kind index of every book of team t that stands on the table (not pending),
        but ``grown``, a book a play is adding to (its kind after the play is the play's to
        say: a wild card on a clean book makes it another kind)."""
        rules = self.rules
        out = []
        for m in self.melds[t]:
            if len(m.cards) >= rules.book_size and not m.pending and m is not grown:
                k = rules.book_kind(m.slot, m.wild)
                if k is not None:
                    out.append(k.index)
        return out

    def _go_out_reason(self, p: int, new_books: list[tuple[int, int]] = (),
                       reserve_gained: bool = False, grown=None) -> Reason | None:
        """None if p's side may go out after a play that completes ``new_books`` (each
        ``(slot, wild)``; with ``grown``, the book the play adds to, as it will be)."""
        rules = self.rules
        if rules.requires_reserve and not (self.reserve_taken[p] or reserve_gained):
            name = rules.spec.deal.reserve_name
            return _r("out/reserve-not-picked-up", f"you must pick up your {name} before going out")
        kinds = self._book_kinds(self.side_of[p], grown)
        for nb in new_books:
            k = rules.book_kind(*nb)
            if k is not None:
                kinds.append(k.index)
        need = rules.min_books_for(self.n_players)
        if len(kinds) < need:
            return _r("out/needs-books",
                      f"your side needs {need} book{'s' if need != 1 else ''} to go out "
                      f"(it has {len(kinds)})")
        missing = missing_books(rules.book_kinds, rules.required_book_counts, kinds)
        if missing:
            return _r("out/required-books",
                      f"your side needs {' and '.join(missing)} before going out")
        return None

    def _foot_waiting(self, p: int) -> bool:
        """Whether playing out p's hand picks up their reserve
        (``reserve.pickup_on_empty_hand``)."""
        return self.rules.pickup_on_empty_hand and not self.reserve_taken[p]

    def _hand_after_ok(self, p: int, hand_after: int, new_books, reserve_gained,
                       grown=None) -> Reason | None:
        """PT-20: a play must leave a card to discard (and one card only when going out);
        ``new_books`` and ``grown`` as :meth:`_go_out_reason` takes them."""
        if hand_after >= 2:
            return None
        if not reserve_gained and self._foot_waiting(p):
            # the hand played out (or its last card discarded) picks up the reserve
            foot = len(self.reserves[p])
            if hand_after >= 1 or foot >= 2:
                return None
            # melding the last cards picks up a reserve of one card (or none): judge the hand
            # it leaves, so that the player is never left holding a card they cannot play
            return self._hand_after_ok(p, foot, new_books, foot or 1, grown)
        if hand_after == 1:
            if self.final_play:  # no discard follows: the hand ends with the card held
                return None
            why = self._go_out_reason(p, new_books, reserve_gained, grown)
            if why is None:
                return None
            return _r("hand/keep-a-card",
                      f"you would hold one card, and discarding it means going out: {why.sentence}")
        # hand_after == 0
        rules = self.rules
        if not rules.spec.going_out.requires_discard and self._go_out_reason(
                p, new_books, reserve_gained, grown) is None:
            return None
        if not rules.keep_card:
            return None
        why = self._go_out_reason(p, new_books, reserve_gained, grown)
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
        for m in self.melds[self.side_of[p]]:
            if m.pending:
                total += sum(value[kind_of[c]] for c in m.cards)
        if self.pile_pending and not self.rules.pile_top_counts:
            total -= value[kind_of[self.pending_top]]
        return total
