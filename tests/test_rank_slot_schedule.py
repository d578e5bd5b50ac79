"""A ``schedule`` in a rank-slot pack (issue 23, item 3): the hand, the draw and the
opening minimum by deal, as in the table model; the wild ranks stay the same in every deal."""

from __future__ import annotations

import pytest

import meldkit
from meldkit import GameState, RulePackError
from meldkit.bots import GreedyBot
from meldkit.rulesheet import rules_sheet

SCHEDULE = """extends: pony_tail
name: pony_tail_by_deal
game: {hands: 3}
schedule:
  - {deal: {hand: 11}, turn: {draw: 1}}
  - {deal: {hand: 13}, initial_meld: {minimums: [{minimum: 90}]}}
"""


def _pack():
    return meldkit.load_pack_text(SCHEDULE, filename="pony_tail_by_deal.yaml")


def test_a_rank_slot_schedule_deals_draws_and_sets_the_minimum_by_deal():
    g = meldkit.new_game(_pack(), players=4, seed=3)
    bots = [GreedyBot(seed=i) for i in range(4)]
    seen = {}
    while not g.is_over:
        if g.hand_number not in seen:
            seen[g.hand_number] = (g.hand_size[:], g.rules.draw_for(4),
                                   g.rules.minimum_for(0, g.hand_number, 4))
            if g.phase == "draw":  # the first draw of the deal takes that deal's count
                p, before = g.current_player, g.hand_size[g.current_player]
                h = g.clone()
                h.apply("draw")
                drawn = h.hand_size[p] - before + len(h.bonus[p]) - len(g.bonus[p])
                assert drawn == seen[g.hand_number][1]
        g.apply(bots[g.current_player].choose(g))
    assert seen == {1: ([11] * 4, 1, 50), 2: ([13] * 4, 2, 90), 3: ([15] * 4, 2, 50)}
    assert len(g.hand_results) == 3


def test_a_save_of_a_scheduled_rank_slot_deal_plays_with_that_deals_rules():
    g = meldkit.new_game(_pack(), players=4, seed=5)
    bots = [GreedyBot(seed=i) for i in range(4)]
    while g.hand_number < 2 and not g.is_over:
        g.apply(bots[g.current_player].choose(g))
    h = GameState.from_json(g.to_json(), pack=g.pack)
    assert h == g and h.rules is g.rules and h.rules.spec.deal.hand == 13
    assert h.pack is g.pack and h.pack.deals  # the whole pack, not the deal's


def test_a_rank_slot_schedule_is_checked_like_a_pack_and_keeps_the_wild_ranks():
    with pytest.raises(RulePackError) as e:
        meldkit.load_pack_text("extends: pony_tail\nschedule:\n  - {cards: {wild: [JK]}}\n",
                               filename="wild_by_deal.yaml")
    assert ("wild_by_deal.yaml:3:14: schedule[0].cards.wild: in a rank-slot pack the wild "
            "ranks shape every meld's action id, so it is the same in every deal") in str(e.value)
    with pytest.raises(RulePackError, match=r"schedule\[0\]\.pile\.buy_limit: in deal 1: "
                       r".*read only by the table"):
        meldkit.load_pack_text("extends: pony_tail\nschedule:\n  - {pile: {buy_limit: 1}}\n",
                               filename="buy_by_deal.yaml")


def test_the_rules_sheet_of_a_rank_slot_schedule_says_what_changes_by_deal():
    sheet = rules_sheet(_pack())
    assert "## Deal by deal" in sheet
    assert "- **Hand:** 11 cards in deal 1; 13 cards in deal 2; 15 cards in later deals." in sheet
    assert "- **Draw:** 1 card in deal 1; 2 cards in deal 2 and later deals." in sheet
    assert "a minimum of 90 in deal 2" in sheet
    assert "## Deal by deal" not in rules_sheet("pony_tail")
