"""``cards.values`` in a ``schedule`` item: a deal prices some cards apart (Five Crowns'
wild rank counts 20 left in hand, the rank changing deal by deal).  The entry merges over
the pack's table; the deal's hand is scored, its opening counted and its bots play with
that deal's values, and the rules sheet says which deal prices what."""

from __future__ import annotations

import pytest

import meldkit
from meldkit.rulesheet import rules_sheet
from meldkit import RulePackError
from meldkit.bots import _tables
from meldkit.scenarios import run_scenario_text

WILD_WORTH_20 = """\
meldkit: 1
extends: rummy
name: wild_twenty
deck: {decks: 1, jokers_per_deck: 0}
deal: {hand_by_players: null}
cards:
  values: {A: 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, "10": 10,
           J: 10, Q: 10, K: 10}
melds:
  lay_off: {onto: none}
initial_meld: {all_at_once: true}
going_out: {requires_discard: true}
game: {hands: 2, winner: lowest}
scoring:
  style: penalty
  items:
    - {item: penalty, count: unmelded}
schedule:
  - {deal: {hand: 3}, cards: {wild: ["3"], values: {"3": 20}}}
  - {deal: {hand: 4}, cards: {wild: ["4"], values: {"4": 20}}}
"""

TWO_DEALS = """\
scenarios:
  - name: the deal's wild rank counts 20 left in hand, in each deal its own
    deal:
      hands: {0: [5H, 6H, 7H], 1: [3C, 9D, KH]}
      upcard: 8S
      stock: [JD, 2D]
    deals:
      2:
        hands: {1: [5C, 6C, 7C, 8C], 0: [4C, 3D, 9H, KS]}
        upcard: 8D
        stock: [2S, JC]
    steps:
      - moves: [draw, meld 5H 6H 7H, discard JD]
        by: 0
        expect:
          hand_score: {1: {total: %d}}
      - moves: [draw, meld 5C 6C 7C 8C, discard 2S]
        by: 1
        expect:
          hand_score: {0: {total: %d}}
"""


def test_each_deal_scores_the_hand_left_with_its_own_values():
    pack = meldkit.load_pack_text(WILD_WORTH_20, filename="wild_twenty.yaml")
    # deal 1: 3C (wild, 20) + 9D + KH; deal 2: 4C (wild, 20) + 3D (3 again) + 9H + KS
    (result,) = run_scenario_text(pack, TWO_DEALS % (39, 42), "s.yaml")
    assert result.passed, result.failures
    (wrong,) = run_scenario_text(pack, TWO_DEALS % (22, 25), "s.yaml")  # face values
    assert [f.message for f in wrong.failures] == [
        "hand 1, team 1, total: expected 22, got 39",
        "hand 2, team 0, total: expected 25, got 42"], wrong.failures


def test_the_rules_sheet_says_which_deal_prices_what():
    pack = meldkit.load_pack_text(WILD_WORTH_20, filename="wild_twenty.yaml")
    sheet = rules_sheet(pack)
    assert "Card values by deal: 3s (treys) count 20 in deal 1; 4s count 20 in deal 2." in sheet
    assert "| 3s (treys) | 3 |" in sheet  # the pack's own table is unchanged


CANASTA_KINGS = """\
meldkit: 1
extends: classic_canasta
name: kings_fifty
schedule:
  - {cards: {values: {K: 50}}}
  - {}
"""


def test_a_rank_slot_deal_counts_its_opening_and_plays_its_bots_with_its_values():
    pack = meldkit.load_pack_text(CANASTA_KINGS, filename="kings_fifty.yaml")
    scenario = """\
scenarios:
  - name: kings count 50 in deal 1, so 9 9 9 and K K K open at 1,500
    start_scores: [1500, 0]
    deal:
      hands: {0: [9H, 9S, 9D, KH, KS, KD, 5C]}
      stock: [5S, 6S]
    steps:
      - moves: [draw, meld 9 9 9, meld K K K, discard 5]
      - expect:
          melds: {0: [[9, 9, 9], [K, K, K]]}
"""
    (result,) = run_scenario_text(pack, scenario, "s.yaml")
    assert result.passed, result.failures
    base = meldkit.load_pack("classic_canasta")  # 60 points there: refused
    (refused,) = run_scenario_text(base, scenario, "s.yaml")
    assert not refused.passed
    g = meldkit.new_game(pack, players=4, seed=1)
    king = meldkit.kind_of_code("KS")
    assert _tables(g).value[king] == 50 and g.rules.value_of_kind[king] == 50
    g.hand_number = 2  # (the tables a bot reads are the deal's)
    assert _tables(g).value[king] == 10


def test_a_schedule_value_is_checked_like_the_packs_own_and_located():
    bad = CANASTA_KINGS.replace("{K: 50}", "{K: 10000000}")
    with pytest.raises(RulePackError) as e:
        meldkit.load_pack_text(bad, filename="kings_fifty.yaml")
    assert "kings_fifty.yaml:5:" in str(e.value) and "schedule[0].cards.values.K" in str(e.value)


RUMMY_500_JACKS = """\
meldkit: 1
extends: rummy_500
name: jacks_wild_500
melds:
  kinds:
    - {name: set, type: set, min_size: 3, max_wilds: 2}
    - {name: run, type: run, min_size: 3, ace: both, max_wilds: 2}
schedule:
  - {cards: {values: {J: 50}, wild: [J]}}
  - {cards: {values: {A: 5}}}
"""


@pytest.mark.parametrize("text,players", [(WILD_WORTH_20, 3), (RUMMY_500_JACKS, 2),
                                          (CANASTA_KINGS, 4)])
def test_a_save_after_a_deal_rescores_each_hand_with_its_own_deals_values(text, players):
    """fuzz_packs (stop 47, ``--with deal_values``): a save checked every finished hand's
    scores with the rules of the deal being played, so a game past a deal that priced
    cards apart was refused as damaged ("the hand's scores are not what its final zones
    score"; "scores are not the sum of the hands' scores")."""
    from meldkit import GameState
    from meldkit.bots import make_bot

    pack = meldkit.load_pack_text(text, filename="p.yaml")
    g = meldkit.new_game(pack, players=players, seed=2)
    bots = [make_bot("greedy", seed=i) for i in range(players)]
    while len(g.hand_results) < 2 and not g.is_over:
        g.apply(bots[g.current_player].choose(g))
        if g.hand_results:
            assert GameState.from_json(g.to_json(), pack=pack) == g
    assert g.hand_results and g.hand_results[0].scores != ()


def test_a_schedule_values_entry_of_a_bad_form_is_located_in_its_deal():
    text = ("meldkit: 1\nextends: rummy\nschedule:\n  - {cards: {values: 5}}\n"
            "  - {cards: {values: {ZZ: 3}}}\n")
    with pytest.raises(RulePackError) as e:
        meldkit.load_pack_text(text, filename="bad.yaml")
    found = [f"{p.line}:{p.col}: {p.path}: {p.message}" for p in e.value.problems]
    assert found[0].startswith("4:14: schedule[0].cards.values: in deal 1: expected a "
                               "mapping, got 5"), found
    assert found[1].startswith("5:23: schedule[1].cards.values.ZZ: in deal 2: 'ZZ' is not a "
                               "card code"), found
