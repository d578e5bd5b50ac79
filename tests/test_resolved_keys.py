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


def _three_sun_majors_on_the_table(pack):
    """Seat 0 builds Father, Lover, Knight of Sun in space 1 while the others only place
    cards; then the players agree to end (the deck still lasting)."""
    g = meldkit.new_game(pack, players=4, seed=2, options={"first_player": 0},
                         deck_order=["FS", "LS", "KS", "VA"])
    for card in ("FS", "LS", "KS"):
        g.apply("draw")
        g.apply(f"place {card} 1")
        for _ in range(3):  # seats 1, 2, 3: draw and place a card
            g.apply("draw")
            g.apply(next(a for a in g.legal_actions() if a.type == "place"))
    g._end("agreed")
    return g


def test_sh_12_groups_left_on_the_table_score_nothing_by_default():
    g = _three_sun_majors_on_the_table(meldkit.load_pack("houses"))
    assert ["FS", "LS", "KS"] == [g.code(c) for c in g.groups[0][0]]
    assert 0 == g.scores[0]


def test_sh_12_table_groups_score_when_the_pack_says_so():
    pack = meldkit.load_pack_text(
        "extends: houses\nname: table_counts\noptions: {table_groups_score: true}\n")
    g = _three_sun_majors_on_the_table(pack)
    assert 30 <= g.scores[0]  # three majors of one house: 30 (and any others seat 2 made)
    assert 30 in [grp.points for grp in g.hand_results[-1].scores[0].groups]
