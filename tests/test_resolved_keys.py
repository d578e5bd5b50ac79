"""Pack keys for choices the rules of record mark *(resolved)*: changing the key changes
the game (PT-27 ties, PC-4 who starts later hands, SH-12 groups left on the table)."""

from __future__ import annotations

import meldkit
from meldkit.bots import RandomBot


def _finish_hand(state, seed: int = 1) -> None:
    bot = RandomBot(seed=seed)
    hands = len(state.hand_results)
    while len(state.hand_results) == hands:
        state.apply(bot.choose(state))


def _end_level(pack, seed: int = 3):
    """A game whose first hand is ended at once (stock empty), with cumulative scores set
    so that both teams then stand level at 60,000, above the target."""
    probe = meldkit.new_game(pack, players=4, seed=seed)
    probe._end_hand("stock_empty", None)
    first_hand = probe.hand_results[0].totals
    g = meldkit.new_game(pack, players=4, seed=seed)
    g.scores = [60_000 - t for t in first_hand]
    g._end_hand("stock_empty", None)
    assert g.scores == [60_000, 60_000]
    return g


def test_pt_27_a_tie_plays_another_hand_by_default():
    g = _end_level(meldkit.load_pack("pony_tail"))
    assert (False, 2) == (g.is_over, g.hand_number)


def test_pt_27_game_tie_draw_ends_a_level_game_with_no_winner():
    pack = meldkit.load_pack_text("extends: pony_tail\nname: tie_draws\ngame: {tie: draw}\n")
    g = _end_level(pack)
    assert (True, None) == (g.is_over, g.winner)


def test_pc_4_next_hand_first_left_of_previous_by_default():
    g = meldkit.new_game("pony_canasta", players=5, seed=11)
    first = g.current_player
    _finish_hand(g)
    assert (first + 1) % 5 == g.current_player


def test_pc_4_next_hand_first_high_card_draws_again():
    pack = meldkit.load_pack_text(
        "extends: pony_canasta\nname: redraw\ndeal: {next_hand_first: high_card}\n")
    firsts = set()
    for seed in range(12):
        g = meldkit.new_game(pack, players=5, seed=seed)
        first = g.current_player
        _finish_hand(g, seed)
        firsts.add((g.current_player - first) % 5)
    assert len(firsts) > 1  # not always the next seat


def test_sh_12_table_groups_score_when_the_pack_says_so():
    pack = meldkit.load_pack_text(
        "extends: houses\nname: table_counts\noptions: {table_groups_score: true}\n")
    base = meldkit.load_pack("houses")
    differs = 0
    for seed in range(10):
        games = [meldkit.new_game(p, players=4, seed=seed) for p in (base, pack)]
        for g in games:
            bot = RandomBot(seed=seed, meld_first=False)
            while not g.is_over:
                g.apply(bot.choose(g))
        plain, counted = games
        assert plain.history == counted.history  # the option changes scoring only
        assert all(c >= p for c, p in zip(counted.scores, plain.scores))
        differs += counted.scores != plain.scores
    assert differs > 0
