"""Issue 19 item 6: liveness — every reachable state is over or has a legal action.

* The loader refuses what it can see cannot be played: a canasta-kernel stock too small for
  the deal and reserves, a knock deal smaller than a meld (or unfit for OpenSpiel's test).
* Where it cannot see it, a hand with no legal move ends (``ended_by: no_legal_move``), and
  a game that makes no progress ends (``ended_by: no_progress``), which ``simulate`` prints.
* The conformance check reports a state with no legal action that is not over.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import meldkit
from meldkit import GameState, RulePackError
from meldkit import _liveness
from meldkit import _pack_limits as limits
from meldkit.bots import make_bot
from meldkit.houses._engine import HousesState
from meldkit.kernel.table import TableModel, TableRules
from meldkit.simulate import format_summary, play_one, summarize
from meldkit.testing import ConformanceError, check_conformance

# the packs: a 4-player canasta pack with a reserve each and a 15-card stock, and
# Oklahoma Gin dealt two cards
SHORT_STOCK = """meldkit: 1
extends: hand_and_foot
name: short_stock
deck: {decks: 2}
deal: {hand: 12}
game: {hands: null, target: 5000}
"""
TWO_CARD_GIN = """meldkit: 1
extends: oklahoma_gin
name: two_card_gin
deal: {hand: 2}
"""
# the same canasta pack with 19 cards of stock: loads, and its sides lose more each hand
# than they gain (the reserve, never reached, is a penalty)
FALLING = SHORT_STOCK.replace("hand: 12", "hand: 11").replace("short_stock", "falling")


def play(g: GameState, bot: str = "greedy", max_steps: int = 200_000) -> GameState:
    bots = [make_bot(bot, seed=p) for p in range(g.n_players)]
    for _ in range(max_steps):
        if g.is_over:
            return g
        legal = g.legal_actions()
        assert legal, f"no legal action in the {g.phase} phase of a game that is not over"
        g.apply(bots[g.current_player].choose(g))
    raise AssertionError(f"the game did not end within {max_steps} actions")


def problems(tmp_path: Path, text: str) -> tuple[Path, str]:
    path = tmp_path / "pack.yaml"
    path.write_text(text)
    with pytest.raises(RulePackError) as e:
        meldkit.load_pack(path)
    return path, str(e.value)


# --------------------------------------------------------------------------- the loader


def test_a_stock_too_small_for_the_deal_and_reserves_is_refused_at_the_deal(tmp_path) -> None:
    path, message = problems(tmp_path, SHORT_STOCK)
    assert (f"{path}:5:1: deal: 4 players × (12 hand + 11 reserve) + 1 upcard leave 15 of 108 "
            "cards in the stock, but 4 players drawing 2 a turn need at least 16 for 2 turns "
            "each") in message
    assert meldkit.load_pack_text(FALLING).spec.deal.hand == 11  # 19 cards: two turns each


def test_every_bundled_canasta_pack_leaves_a_stock_of_many_turns() -> None:
    from meldkit._rules import Rules

    for name in ("classic_canasta", "pony_tail", "samba", "hand_and_foot", "pony_canasta"):
        pack = meldkit.load_pack(name)
        rules, spec = Rules.of(pack), pack.spec
        for n in range(spec.players.min, spec.players.max + 1):
            stock = (len(rules.deck_kinds(n)) - n * (rules.hand_size_for(n) + spec.deal.reserve)
                     - spec.deal.upcard)
            assert stock >= 5 * limits.MIN_STOCK_DRAWS * n * rules.draw_for(n), (name, n)


def test_a_knock_deal_too_small_to_knock_with_is_refused(tmp_path) -> None:
    path, message = problems(tmp_path, TWO_CARD_GIN)
    assert (f"{path}:4:8: deal.hand: 2 cards dealt, fewer than the smallest meld (3 cards, "
            "melds.kinds min_size): a knocker could lay no meld") in message
    assert "knock.test: openspiel judges the eleven cards of OpenSpiel's ten-card deal, but " \
           "this pack deals 2" in message
    _, message = problems(tmp_path, TWO_CARD_GIN + "knock: {test: best_discard}\n")
    assert "deal.hand: 2 cards dealt" in message and "knock.test" not in message
    nine = TWO_CARD_GIN.replace("hand: 2", "hand: 9")
    _, message = problems(tmp_path, nine)
    assert "deals 9" in message and "deal.hand:" not in message
    assert meldkit.load_pack_text(nine + "knock: {test: best_discard}\n").spec.deal.hand == 9


# --------------------------------------------------------------------------- the engines


def test_a_knock_that_no_discard_completes_ends_the_hand_no_legal_move(monkeypatch) -> None:
    # what two_card_gin did before the loader refused it: a knock offered, then nothing legal
    monkeypatch.setattr(TableModel, "_legal_knock", lambda self: [])
    monkeypatch.setattr(TableRules, "_cache", {})  # phase tables compiled with the patch
    g = meldkit.new_game("gin_rummy", players=2, seed=1)
    bots = [make_bot("greedy", seed=p) for p in range(2)]
    while not any(h.ended_by == "no_legal_move" for h in g.hand_results):
        assert g.legal_actions(), g.phase
        g.apply(bots[g.current_player].choose(g))
    hand = next(h for h in g.hand_results if h.ended_by == "no_legal_move")
    assert (None, (0, 0)) == (hand.went_out, hand.totals)  # a void hand
    assert g.history[-1] == "knock" and g.phase in ("first_upcard", "draw")
    assert GameState.from_json(g.to_json(), pack=g.pack) == g


def test_table_hands_that_all_dead_end_end_the_game_no_progress(monkeypatch) -> None:
    monkeypatch.setattr(TableModel, "_legal_play", lambda self: [])
    monkeypatch.setattr(TableRules, "_cache", {})
    g = meldkit.new_game("rummy", players=2, seed=4)
    while not g.is_over:  # draw or take: then the play phase has nothing legal
        hands = len(g.hand_results)
        g.apply(g.legal_actions()[0])
        assert len(g.hand_results) == hands + 1
    endings = [h.ended_by for h in g.hand_results]
    assert ["no_legal_move"] * (limits.NO_PROGRESS_HANDS - 1) + ["no_progress"] == endings


def test_a_scored_table_hand_ended_for_no_progress_is_recorded_void_and_loads(
        monkeypatch) -> None:
    # rummy 500 scores a hand that runs out of stock (laid, less held); with nothing ever
    # melded, the last of NO_PROGRESS_HANDS such hands ends the game: before, its record
    # kept the held cards' scores while its final said no_progress, so it did not rescore
    # and the save was refused
    monkeypatch.setattr(TableModel, "_legal_play", lambda self: [
        a for a in TableModel._legal_play_moves(self) if a.type == "discard"])
    monkeypatch.setattr(TableRules, "_cache", {})
    monkeypatch.setattr(_liveness, "NO_PROGRESS_HANDS", 4)  # (the bundled bound: 10)
    g = meldkit.new_game("rummy_500", players=2, seed=3)
    while not g.is_over:
        g.apply(("draw" if g.stock else "pass") if g.phase == "draw"
                else g.legal_actions()[0])
    endings = [h.ended_by for h in g.hand_results]
    assert ["stock_empty"] * 3 + ["no_progress"] == endings
    assert g.hand_results[0].totals != (0, 0)  # the cards held count against
    last = g.hand_results[-1]
    assert (0, 0) == last.totals == g.rescore(last)  # the last hand is void
    assert list(g.scores) == [sum(h.totals[t] for h in g.hand_results) for t in range(2)]
    assert GameState.from_json(g.to_json(), pack=g.pack) == g


def test_a_table_hand_in_which_cards_were_laid_is_not_idle() -> None:
    import attrs

    g = meldkit.new_game("rummy_500", players=2, seed=3)
    while not g.hand_results:
        g.apply(make_bot("greedy", seed=0).choose(g))
    hand = attrs.evolve(g.hand_results[0], ended_by="stock_empty", went_out=None)
    nothing = attrs.evolve(hand, final=attrs.evolve(hand.final, laid=((0, 0), (0, 0))))
    something = attrs.evolve(hand, final=attrs.evolve(hand.final, laid=((0, 0), (15, 0))))
    assert TableModel._idle(nothing) and not TableModel._idle(something)


def test_canasta_hands_that_all_dead_end_end_the_game_no_progress(monkeypatch) -> None:
    from meldkit._state import RankSlotModel

    monkeypatch.setattr(RankSlotModel, "_play_actions", lambda self, filtered=True: [])
    g = meldkit.new_game("classic_canasta", players=4, seed=2)
    hands_before = 0
    while not g.is_over:
        g.apply("draw")
        assert len(g.hand_results) > hands_before or g.is_over
        hands_before = len(g.hand_results)
    endings = [h.ended_by for h in g.hand_results]
    assert ["no_legal_move"] * (limits.NO_PROGRESS_HANDS - 1) + ["no_progress"] == endings
    assert GameState.from_json(g.to_json(), pack=g.pack) == g


def test_a_game_whose_totals_stop_rising_ends_no_progress_and_simulate_says_so(
        monkeypatch) -> None:
    # before: the pack ran 20,000 decisions with scores falling; a game of this one
    # played 1,151 hands (−250,515 / −250,735) without ending
    monkeypatch.setattr(_liveness, "MAX_HANDS_WITHOUT_GAIN", 30)  # (the bundled bound: 1,000)
    pack = meldkit.load_pack_text(FALLING)
    record = play_one(pack, 4, seed=0, game=0, bots=("greedy",))
    assert record.unfinished is None
    assert record.ended_by[-1] == "no_progress"
    assert all(e != "no_progress" for e in record.ended_by[:-1])
    assert 30 <= record.hands < 60
    text = format_summary(summarize([record]))
    assert "no_progress" in text.split("hands ended")[1]


def test_no_progress_counts_only_idle_hands_in_a_row() -> None:
    from types import SimpleNamespace

    idle = SimpleNamespace(ended_by="stock_empty", went_out=None, totals=(0, 0))
    scored = SimpleNamespace(ended_by="went_out", went_out=0, totals=(50, -10))
    run = [idle] * (limits.NO_PROGRESS_HANDS - 1)

    def is_idle(h):
        return h.ended_by == "stock_empty"
    assert not limits.no_progress(run, is_idle)
    assert limits.no_progress(run + [idle], is_idle)
    assert not limits.no_progress(run[:3] + [scored] + run, is_idle)
    gains = [scored] * limits.MAX_HANDS_WITHOUT_GAIN  # every hand a new high: progress
    assert not limits.no_progress(gains, lambda h: False)


def test_bundled_games_play_to_their_end_without_a_dead_end() -> None:
    for name, players in (("rummy", 2), ("gin_rummy", 2), ("classic_canasta", 4),
                          ("hand_and_foot", 4), ("contract_rummy", 4), ("rummy_500", 5),
                          ("buraco", 4)):
        g = play(meldkit.new_game(name, players=players, seed=7))
        endings = {h.ended_by for h in g.hand_results}
        assert not endings & {"no_legal_move", "no_progress"}, (name, endings)


# --------------------------------------------------------------------------- conformance


def test_conformance_reports_a_state_with_no_legal_action_that_is_not_over(monkeypatch) -> None:
    real = HousesState._legal

    def stuck_after_the_draw(self):
        return [] if self.phase == "act" else real(self)

    monkeypatch.setattr(HousesState, "_legal", stuck_after_the_draw)
    with pytest.raises(ConformanceError) as e:
        check_conformance("houses", players=4, games=1)
    assert "liveness: no legal action in the act phase" in str(e.value)
    assert "after 1 actions" in str(e.value)


def test_conformance_passes_the_liveness_check_on_a_live_pack() -> None:
    assert check_conformance("rummy", players=2, games=1, hands=2) > 0
