"""The end of a canasta-kernel turn and hand: the next player, the hand scored from its final
zones, the next deal or the end of the game.

A mixin of :class:`meldkit.RummyState` (``meldkit._state``), which ties the phases together."""

from __future__ import annotations

import json

from .. import saves as _saves
from .._game import call_hook
from .._liveness import IDLE_ENDINGS, no_progress
from .._scoring import (HandFinal, TeamScore, by_seating, canasta_items, side_final,
                        void_lines)
from ._canasta_common import DRAW_PHASE, OVER, PLAY_PHASE, HandResult, totals
from .scoring import score


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

    def _score(self, final: HandFinal) -> list[TeamScore]:
        """The hand's team scores: one pass of the pack's scoring items (the plugin's
        ``adjust_scores`` where the ``plugin`` item stands)."""
        plugin = self.plugin
        adjust = None if plugin is None else (
            lambda f, lines: call_hook(plugin.name, "adjust_scores", plugin.adjust_scores,
                                       self, f, lines))
        if final.void:  # game.hand_turn_limit: nobody scores for the hand
            return void_lines(final)
        if final.sides:  # players.sides_form: scored by the sides as formed
            by_side, side = side_final(final)
            lines = score(by_side, canasta_items(self.rules), line=TeamScore, adjust=adjust).lines
            return by_seating(final, side, lines)
        return list(score(final, canasta_items(self.rules), line=TeamScore, adjust=adjust).lines)

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
        scores = tuple(self._score(final))
        self.hand_results.append(HandResult(self.hand_number, ended_by, went_out, scores,
                                            totals(scores), final))
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
        if went_out is None and no_progress(self.hand_results, self._idle):
            h = self.hand_results[-1]  # the game makes no progress: it ends here
            self.hand_results[-1] = HandResult(h.hand_number, "no_progress", None, h.scores,
                                               h.net, h.final)
            self.phase = OVER
            return
        self._start_hand(self._ordered_deck())
