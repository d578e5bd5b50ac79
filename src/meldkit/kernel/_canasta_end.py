"""The end of a canasta-kernel turn and hand: the next player, the hand scored from its final
zones, the next deal or the end of the game.

A mixin of :class:`meldkit.RummyState` (``meldkit._state``), which ties the phases together."""

from __future__ import annotations

import json

import attrs

from .. import saves as _saves
from .._game import call_hook
from .._liveness import IDLE_ENDINGS, no_progress
from .._scoring import (HandFinal, TeamScore, by_seating, canasta_items, sheet_items,
                        side_final, void_lines)
from ._canasta_common import DRAW_PHASE, OVER, PLAY_PHASE, HandResult, totals
from .scoring import score
from .sheets import Ledger, sheet_rules


class HandEnd:
    """The end of a canasta-kernel turn and hand."""

    __slots__ = ()

    def _next_turn(self) -> None:
        if self.final_play:  # the stock's last card was a bonus card: play ends with this turn
            self._end_hand("stock_empty", None)
            return
        rules = self.rules
        n = self.n_players
        if rules.turn_limit is not None:  # game.hand_turn_limit: the hand ends void
            self.turns += 1
            if self.turns >= rules.turn_limit:
                self._end_hand("turn_limit", None)
                return
        if rules.players_leave and rules.one_side_left_ends:
            sides = {self.side_of[q] for q in range(n) if not self.out[q]}
            if len(sides) <= 1:
                self._end_hand("one_side_left", None)
                return
        if not self.stock and rules.spec.stock.when_empty == "end_at_once":
            self._end_hand("stock_empty", None)  # the next player is not offered the pile
            return
        if not self.stock and rules.renews_stock and len(self.pile) > rules.draw_for(n):
            from .._stacking import renewed_stock

            self.stock, self.pile = renewed_stock(  # the pile stays as frozen as it was
                self.pile, rules.spec.stock.when_empty,
                f"meldkit:{self.seed}:hand:{self.hand_number}:stock:{self.pile}")
        q = self.current
        for _ in range(n):
            q = (q + 1) % n
            if not self.out[q]:
                break
        self.current = q
        self.phase = DRAW_PHASE
        self.failed_initial = False
        self.melded_at_turn_start = self.player_melded[q]  # PC-20: judged per player
        self.turn_start_sizes = [len(m.cards) for m in self.melds[self.side_of[q]]]

    def _went_out_concealed(self, p: int) -> bool:
        """CC-17: the player going out had not melded before this turn — and, with
        ``scoring.concealed_needs_book``, laid a book's worth of cards in one meld in it
        (a canasta of their own, not one the partner laid)."""
        if self.melded_at_turn_start:
            return False
        if not self.rules.spec.scoring.concealed_needs_book:
            return True
        start = self.turn_start_sizes
        size = self.rules.book_size
        return any(len(m.cards) - (start[i] if i < len(start) else 0) >= size
                   for i, m in enumerate(self.melds[self.side_of[p]]))

    def _load_turn_marks(self, d: dict) -> None:
        """``final_play`` and ``turn_start_sizes`` from a save, checked against the state
        (saves from before them: none, and the side's melds as they stand)."""
        S = _saves
        melds = self.melds[self.side_of[self.current]]
        self.final_play = S.boolean(d.get("final_play", False), "final_play")
        if self.final_play:
            mode = self.rules.spec.hand_end.last_card_bonus
            if mode != "meld_then_end":
                raise S.bad("final_play", f"true, but hand_end.last_card_bonus is {mode}")
            if self.phase != PLAY_PHASE or self.stock or not self.bonus[self.current]:
                raise S.bad("final_play", "true only in the play phase of a player who drew "
                                          "the stock's last card, a bonus card")
        if "turn_start_sizes" not in d:
            self.turn_start_sizes = [len(m.cards) for m in melds if not m.pending]
            return
        sizes = S.array_of(d["turn_start_sizes"], "turn_start_sizes", S.integer,
                           max_len=len(melds))
        for i, n in enumerate(sizes):
            if melds[i].pending or not 1 <= n <= len(melds[i].cards):
                raise S.bad(f"turn_start_sizes[{i}]", f"{n}, but the meld it sizes holds "
                            f"{len(melds[i].cards)} cards"
                            + (" laid this turn" if melds[i].pending else ""))
        if self.phase == DRAW_PHASE and sizes != [len(m.cards) for m in melds]:
            raise S.bad("turn_start_sizes", "in the draw phase: the sizes of the side's melds "
                                            "as they stand")
        self.turn_start_sizes = sizes

    def _score(self, final: HandFinal, payments: list | None = None, items=None
               ) -> list[TeamScore]:
        """The hand's team scores: one pass of the pack's scoring items (the plugin's
        ``adjust_scores`` where the ``plugin`` item stands); ``payments`` gains what the
        ``pay`` items paid; ``items``: a score sheet's own (default: the hand's)."""
        plugin = self.plugin
        adjust = None if plugin is None else (
            lambda f, lines: call_hook(plugin.name, "adjust_scores", plugin.adjust_scores,
                                       self, f, lines))
        items = canasta_items(self.rules) if items is None else items
        if final.void:  # game.hand_turn_limit: nobody scores for the hand
            return void_lines(final)
        if final.sides:  # players.sides_form: scored by the sides as formed
            by_side, side = side_final(final)
            lines = score(by_side, items, line=TeamScore, adjust=adjust,
                          payments=payments).lines
            return by_seating(final, side, lines)
        return list(score(final, items, line=TeamScore, adjust=adjust, payments=payments).lines)

    # ------------------------------------------------------------------ score sheets
    @staticmethod
    def _won(net) -> int | None:
        """The side that won a hand: the one alone with the best positive total, or None."""
        best = max(net)
        return list(net).index(best) if best > 0 and list(net).count(best) == 1 else None

    def _sheet_points(self, final: HandFinal, scores) -> list[tuple[int, ...]]:
        """What each score sheet's items score each side in a hand (``scores``: the hand's
        own lines, for the sheets that count them)."""
        own = tuple(totals(scores))
        return [own if items is None else tuple(totals(self._score(final, items=items)))
                for items in sheet_items(self.rules)]

    def _ledger(self) -> Ledger:
        """The score sheets' ledger after the finished hands (replayed from their records),
        before any game-end close."""
        rules = self.rules
        hands = [(None, self._won(h.net), h.sheets) for h in self.hand_results]
        return Ledger.replay(sheet_rules(rules.spec, rules.target_for(self.n_players)),
                             len(self.scores), hands, False,
                             rules.spec.game.tie == "draw")[0]

    def _close_sheets(self) -> None:
        """The game ends: each sheet still open ends, its bonuses in the last hand's record."""
        last, ledger = self.hand_results[-1], self._ledger()
        self.hand_results[-1] = attrs.evolve(last, sheets=tuple(ledger.close(last.sheets)))
        self.scores[:] = ledger.totals()

    def rescore(self, result: HandResult) -> tuple[int, ...]:
        """A finished hand's team totals recomputed from its final zones."""
        return tuple(s.total for s in self._score(result.final))

    @staticmethod
    def _idle(h: HandResult) -> bool:
        """Whether a finished hand was idle: it ended on an empty stock or with no legal
        move, nobody went out, and no card was melded."""
        return h.went_out is None and h.ended_by in IDLE_ENDINGS and not any(h.final.melds)

    def _end_hand(self, ended_by: str, went_out: int | None) -> None:
        self.final_play = False
        if went_out is not None and self.rules.sides_form and self.side_of is self.team_of:
            self._form_sides(went_out)  # out before the pile was ever taken: alone
        final = HandFinal(
            team_of=tuple(self.team_of),
            hands=tuple(tuple(c for cards in h for c in cards) for h in self.hands),
            reserves=tuple(tuple(r) for r in self.reserves),
            reserve_taken=tuple(self.reserve_taken),
            bonus=tuple(tuple(b) for b in self.bonus),
            melds=tuple(tuple((m.slot, tuple(m.cards)) for m in ms) for ms in self.melds),
            melded=tuple(self.melded),
            went_out=went_out,
            concealed=went_out is not None and self._went_out_concealed(went_out),
            hand_number=self.hand_number,
            ext=json.loads(json.dumps(self.ext)) if self.ext else {},
            sides=() if self.side_of is self.team_of else tuple(self.side_of),
            void=ended_by == "turn_limit",
        )
        pays: list = []
        scores = tuple(self._score(final, pays))
        net, entries = totals(scores), ()
        sheets = bool(self.rules.spec.scoring.sheets)
        if sheets:  # several scores at once: the sheets count the hand
            ledger = self._ledger()
            entries = tuple(ledger.enter(self._sheet_points(final, scores), self._won(net)))
            self.scores[:] = ledger.totals()
        else:
            for s in scores:
                self.scores[s.team] += s.total
        self.hand_results.append(HandResult(self.hand_number, ended_by, went_out, scores,
                                            net, final, tuple(pays), entries))
        if self._game_ended():
            if sheets:
                self._close_sheets()
            self.phase = OVER
            return
        if no_progress(self.hand_results, self._idle):  # the game makes no progress:
            h = self.hand_results[-1]  # it ends here (relabelled if nobody went out)
            if went_out is None:
                self.hand_results[-1] = attrs.evolve(h, ended_by="no_progress")
            if sheets:
                self._close_sheets()
            self.phase = OVER
            return
        self._start_hand(self._ordered_deck())

    def _game_ended(self) -> bool:
        """Whether the finished hands end the game: ``game.hands`` of them, the sheets'
        end (``game.sheets_end``), or a side alone at or above the target (or tied there,
        with ``game.tie: draw``)."""
        rules, n = self.rules, len(self.hand_results)
        fixed = rules.fixed_hands is not None and n >= rules.fixed_hands  # game.hands
        if rules.spec.scoring.sheets:  # the sheets' end, or game.hands, whichever first
            return fixed or self._ledger().over(rules.spec.game.sheets_end == "first")
        if rules.fixed_hands is not None:
            return fixed
        best = max(self.scores)
        return best >= rules.target_for(self.n_players) and (
            self.scores.count(best) == 1 or rules.spec.game.tie == "draw")
