"""A hand's score as items the pack lists (issue 24, item 1): ``scoring.items`` in a
table-meld pack — ``laid`` (each player scores the cards they laid, melds and lay-offs,
an ace low in a run at ``low_ace``) and ``held`` (the cards left in hand against) —
shown on small stacked games of ``rummy_500``."""

from __future__ import annotations

import random

import pytest

import meldkit
from meldkit import GameState, RulePackError


def deal(*hands: str, upcard: str, stock: str = "", pack="rummy_500"):
    order = [c for hand in hands for c in hand.split()] + [upcard, *stock.split()]
    return meldkit.new_game(pack, players=len(hands), seed=1, options={"first_player": 0},
                            deck_order=order)


ACES = ("AH 2H 3H AC AD AS 9C", "5S 6D 10C JD QS 3D 4C", "2D 3S 6H 6C 8S 9D QC")


def test_laid_counts_each_card_a_player_lays_and_notes_low_aces():
    g = deal(*ACES, upcard="KD", stock="8C")
    g.apply("draw")  # seat 0 draws 8C
    g.apply("meld AH 2H 3H")  # counted at its values (15 + 2 + 3); the ace is low
    assert g.laid == [[20, 1], [0, 0], [0, 0]]
    g.apply("meld AC AD AS")  # a set of aces: 15 each, none low
    assert g.laid[0] == [65, 1]
    assert GameState.from_json(g.to_json()) == g


def test_an_ace_low_in_a_run_counts_low_ace_and_cards_held_count_against():
    g = deal("AH 2H 3H AC AD AS 5C", *ACES[1:], upcard="KD", stock="9C 7D 8D 4H")
    for move in ("draw", "meld AH 2H 3H", "meld AC AD AS", "discard 9C",  # seat 0: 5C left
                 "draw", "discard 7D", "draw", "discard 8D",
                 "draw", "add 4H to m1", "discard 5C"):  # seat 0 lays off 4H, goes out
        g.apply(move)
    (hand,) = g.hand_results
    assert (hand.ended_by, hand.went_out) == ("went_out", 0)
    line = {s.team: s for s in hand.scores}
    assert line[0].points("laid") == 1 + 2 + 3 + 4 + 45  # low_ace: the ace of A-2-3-4 is 1
    assert line[0].points("held") == 0
    for seat in (1, 2):
        assert line[seat].points("held") == -hand.final.deadwood[seat] < 0
        assert hand.net[seat] == -hand.final.deadwood[seat]
    assert hand.net[0] == 55 and g.scores[0] == 55
    assert GameState.from_json(g.to_json()) == g


def test_laid_points_survive_saves_and_random_play_scores_every_hand():
    for seed in range(3):
        g = meldkit.new_game("rummy_500", players=3, seed=seed)
        rng = random.Random(seed)
        steps = 0
        while not g.is_over and steps < 3000:
            g.apply(rng.choice(g.legal_actions()))
            steps += 1
            if steps % 53 == 0:
                assert GameState.from_json(g.to_json()) == g
        for h in g.hand_results:
            laid = dict(h.scores[0].items).get("laid", 0)
            assert laid >= 0


def test_scoring_items_are_refused_where_no_item_runs_and_when_malformed():
    with pytest.raises(RulePackError, match="scoring.items: is read only by the table"):
        meldkit.load_pack_text("extends: pony_tail\nscoring: {items: [{item: held}]}\n")
    with pytest.raises(RulePackError) as e:
        meldkit.load_pack_text("extends: rummy\nscoring: {items: [{item: laid, low: 1}, "
                               "{item: booty}]}\n", filename="items.yaml")
    text = str(e.value)
    assert "items.yaml:2:" in text and "item 'laid' takes low_ace" in text
    assert "with a name from winner_takes, penalty, laid, held, got 'booty'" in text
    with pytest.raises(RulePackError, match="its items cannot be replaced"):
        meldkit.load_pack_text("extends: gin_rummy\nscoring: {items: [{item: held}]}\n")
