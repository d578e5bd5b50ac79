"""The end of a canasta-kernel turn and hand: the next player, the hand scored from its final
zones, the next deal or the end of the game.

A mixin of :class:`meldkit.RummyState` (``meldkit._state``), which ties the phases together."""

from __future__ import annotations

import json

from .._game import call_hook
from .._scoring import HandFinal, TeamScore, score_hand
from ._canasta_common import DRAW_PHASE, OVER, HandResult


class HandEnd:
    """The end of a canasta-kernel turn and hand."""

    __slots__ = ()

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
