"""Returns, undo, game-length cap, cheap deepcopy and chance mode (issue 13, item 5)."""

from __future__ import annotations

import copy
import random
import time

import pytest

import meldkit
from meldkit import IllegalActionError
from meldkit.ai.chance import MAX_GAME_LENGTH, ChanceGame


def play_out(pack, players, seed, limit=20_000):
    rng = random.Random(seed)
    g = meldkit.new_game(pack, players=players, seed=seed)
    n = 0
    while not g.is_over and n < limit:
        g.apply(rng.choice(g.legal_actions()))
        n += 1
    return g, n


@pytest.mark.parametrize("pack,players", [("gin_rummy", 2), ("houses", 4), ("rummy", 3)])
def test_returns_are_zero_until_the_end_then_zero_sum_with_the_winner_positive(pack, players):
    g = meldkit.new_game(pack, players=players, seed=1)
    assert g.player_returns() == [0.0] * players
    g, n = play_out(pack, players, 2)
    assert g.is_over and n < g.max_game_length() == MAX_GAME_LENGTH
    r = g.player_returns()
    assert abs(sum(r)) < 1e-9
    if g.winner is not None:
        assert all((r[p] == 1.0) == (g.team_of[p] == g.winner) for p in range(players))


def test_undo_takes_back_exactly_the_last_action():
    rng = random.Random(3)
    g = meldkit.new_game("pony_tail", players=4, seed=3)
    for _ in range(40):
        before = g.clone()
        g.apply(rng.choice(g.legal_actions()))
        g.undo()
        assert g == before
        g.apply(rng.choice(g.legal_actions()))
    fresh = meldkit.new_game("gin_rummy", players=2, seed=1)
    with pytest.raises(IllegalActionError, match="no action to undo"):
        fresh.undo()


def test_deepcopy_costs_about_a_clone():
    g = meldkit.new_game("pony_tail", players=4, seed=2)

    def best(fn) -> float:  # the best of several runs: robust on a busy machine
        runs = []
        for _ in range(7):
            t = time.perf_counter()
            for _ in range(50):
                fn(g)
            runs.append(time.perf_counter() - t)
        return min(runs)

    assert best(copy.deepcopy) < 2 * best(lambda s: s.clone()) + 0.002
    c = copy.deepcopy(g)
    assert c == g and c.rules is g.rules  # the compiled rules are shared, not copied


def test_chance_mode_enumerates_the_stock_and_plays_the_chosen_card():
    g = ChanceGame(meldkit.new_game("rummy", players=2, seed=4, options={"first_player": 0}))
    rng = random.Random(0)
    nodes = 0
    for _ in range(200):
        if g.state.is_over:
            break
        if g.is_chance_node():
            outcomes = g.chance_outcomes()
            assert abs(sum(p for _, p in outcomes) - 1) < 1e-9
            assert g.current_player is None and g.legal_actions() == []
            kind = rng.choice(outcomes)[0]
            p = g.state.current_player
            before = sorted(g.state.view(p)["hand"])
            g.apply_chance(kind)
            assert sorted(before + [kind]) == sorted(g.state.view(p)["hand"])
            nodes += 1
        else:
            g.apply(rng.choice(g.legal_actions()))
    assert nodes > 10
    g2 = ChanceGame(meldkit.new_game("gin_rummy", players=2, seed=1))
    with pytest.raises(IllegalActionError, match="not a chance node"):
        g2.apply_chance("AS")


def test_chance_mode_counts_each_kind_of_a_two_deck_stock():
    g = ChanceGame(meldkit.new_game("pony_tail", players=4, seed=6))
    g.apply("draw")
    outcomes = dict(g.chance_outcomes())
    stock = g.state.stock
    assert abs(outcomes[g.state.card_code(stock[0])] -
               sum(g.state.card_code(c) == g.state.card_code(stock[0]) for c in stock)
               / len(stock)) < 1e-12
    # Pony Tail draws two cards: two chance decisions before the draw is applied
    g.apply_chance(g.chance_outcomes()[0][0])
    assert g.is_chance_node()
    g.apply_chance(g.chance_outcomes()[0][0])
    assert not g.is_chance_node() and g.state.phase == "play"


@pytest.mark.parametrize("pack,players", [("gin_rummy", 2), ("pony_tail", 4)])
def test_undo_of_a_resampled_state_is_exact_when_kept_and_refused_when_it_cannot_replay(
        pack, players):
    """A resampled state has a new seed: a cold undo (a replay from it) dealt a different
    game without a word.  Kept (``keep_undo``) it is exact; cold it is refused, unchanged."""
    g = meldkit.new_game(pack, players=players, seed=3, options={"first_player": 0})
    g.apply(g.legal_actions()[0])
    r = g.resample(0, random.Random(7))
    before = r.clone()
    r.apply(r.legal_ids()[0])
    after = r.clone()
    with pytest.raises(meldkit.MeldkitError, match=r"undo: the history does not replay "
                                                   r"from this state's seed .* keep_undo"):
        r.undo()
    assert r == after  # nothing half-done
    kept = before.clone()
    kept.keep_undo()
    kept.apply(kept.legal_ids()[0])
    kept.undo()
    assert kept == before


def test_a_chance_game_undoes_a_move_after_a_card_fixed_by_chance_keeping_the_card():
    g = ChanceGame(meldkit.new_game("gin_rummy", players=2, seed=1,
                                    options={"first_player": 0}))
    g.apply("pass"); g.apply("pass"); g.apply("draw")
    card = next(k for k, _ in g.chance_outcomes() if k != "10D")  # not the seed's own card
    g.apply_chance(card)
    s = g.state
    before = s.clone()
    s.apply(s.legal_actions()[0])
    s.undo()
    assert s == before and card in s.view(0)["hand"]
    s.undo()  # the draw itself: the fixed card back on the stock's top
    assert card not in s.view(0)["hand"] and s.history == ["pass", "pass"]
    cold = s.clone()  # a clone keeps no undo: its cold replay would lose the card
    cold.apply("draw")
    with pytest.raises(meldkit.MeldkitError, match="keep_undo"):
        cold.undo()
