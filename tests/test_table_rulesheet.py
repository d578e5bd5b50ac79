"""The table packs' rules sheet says how the game ends as the table kernel plays it:
``game.hands`` (a fixed number of hands) and ``game.target_by_players`` (the target for
the table's size) as well as ``game.target``."""

from __future__ import annotations

import random

import meldkit
from meldkit.kernel.rulesheet import table_sections


def pack(tmp_path, text: str) -> meldkit.RulePack:
    path = tmp_path / "variant.yaml"
    path.write_text(text, encoding="utf-8")
    return meldkit.load_pack(str(path))


def game_end(p: meldkit.RulePack) -> list[str]:
    lines = table_sections(p.spec)
    start = lines.index("## The end of the game")
    return [line for line in lines[start + 1:] if line.startswith("- ")]


def play(p: meldkit.RulePack, players: int, seed: int = 3):
    rng = random.Random(seed)
    g = meldkit.new_game(p, players=players, seed=seed)
    for _ in range(200_000):
        if g.is_over:
            return g
        g.apply(rng.choice(g.legal_actions()))
    raise AssertionError("the game did not end")


def test_a_fixed_number_of_hands_is_what_the_sheet_says_and_what_is_played(tmp_path):
    p = pack(tmp_path, "extends: gin_rummy\ngame: {hands: 2}\n")
    assert ["- The game is 2 hands, whatever the scores; the highest total then wins."] == \
        game_end(p)[:1]
    assert 2 == len(play(p, 2).hand_results)


def test_the_target_by_table_size_is_what_the_sheet_says_and_what_is_played(tmp_path):
    p = pack(tmp_path, "extends: rummy\ngame: {target: 100, target_by_players: {3: 40}}\n")
    assert ["- The game ends when a player reaches 100 (40 with 3 players); the highest "
            "total wins."] == game_end(p)[:1]
    g = play(p, 3)
    before_last = [sum(r.totals[t] for r in g.hand_results[:-1]) for t in range(g.n_teams)]
    assert max(before_last) < 40 <= max(g.scores) < 100  # it ends on reaching 40, not 100


def test_a_plain_target_reads_as_before():
    assert ["- The game ends when a player reaches 100; the highest total wins."] == \
        game_end(meldkit.load_pack("gin_rummy"))[:1]
