"""A later deal stacked (:meth:`GameState.stack_deal`, scenarios' ``deals:``): pack authors
testing a schedule's later contracts (Liverpool, Carioca, Continental, Shanghai) could stack
only the first deal before."""

from __future__ import annotations

import json

import pytest

import meldkit
from meldkit import GameState, SaveError, SetupError
from meldkit._cards import card_code
from meldkit.bots import GreedyBot
from meldkit.scenarios import run_scenario_text
from meldkit.testing import stack_deck


def to_deal(g, n: int) -> None:
    """Play greedy bots until deal ``n`` starts."""
    bots = [GreedyBot(seed=i) for i in range(g.n_players)]
    while g.hand_number < n and not g.is_over:
        g.apply(bots[g.current_player].choose(g))
    assert g.hand_number == n


def codes(g, seat: int) -> list[str]:
    if g.meld_model == "table":
        return sorted(card_code(g.kind_of[c]) for c in g.hands[seat])
    return sorted(str(c) for c in g.view(seat)["hand"])


@pytest.mark.parametrize("pack,players,first", [
    ("contract_rummy", 3, lambda g: g.hand_first),
    ("classic_canasta", 4, lambda g: (g.dealer + 1) % g.n_players),
])
def test_a_later_deal_is_dealt_from_its_stacked_deck_and_saves_keep_it(pack, players, first):
    probe = meldkit.new_game(pack, players=players, seed=3)
    to_deal(probe, 2)
    seat = first(probe)  # the seat dealt first in deal 2 (the stacked cards go to it)
    g = meldkit.new_game(pack, players=players, seed=3)
    cards = ["JK", "5S", "5S"] if pack == "contract_rummy" else ["JK", "JK", "9S", "9S"]
    g.stack_deal(2, stack_deck(pack, players, {seat: cards}, first_player=seat, deal=2))
    restored = GameState.from_json(g.to_json(), pack=g.pack)
    assert restored == g and restored.later_orders == g.later_orders
    to_deal(g, 2)
    held = codes(g, seat)
    assert all(held.count(c) >= cards.count(c) for c in cards), held
    to_deal(restored, 2)  # the save deals deal 2 the same way
    assert restored == g
    dealt = codes(probe, seat)  # the same deal unstacked: not those cards
    assert not all(dealt.count(c) >= cards.count(c) for c in cards), dealt


def test_stack_deal_refuses_a_deal_already_dealt_a_card_the_deck_has_not_and_one_hand_engines():
    g = meldkit.new_game("contract_rummy", players=3, seed=1)
    with pytest.raises(SetupError, match=r"stack_deal: hand_number must be a deal after this "
                                         r"one \(2 to 1000000\), not 1"):
        g.stack_deal(1, ["5S"])
    with pytest.raises(SetupError, match="not True"):
        g.stack_deal(True, ["5S"])
    with pytest.raises(SetupError, match=r"deck_order\[1\]: more JK than the deck holds"):
        g.stack_deal(2, ["JK", "JK", "JK"])
    with pytest.raises(SetupError, match="must be a list of card codes"):
        g.stack_deal(2, "5S 6S")
    assert g.later_orders == {}
    houses = meldkit.new_game("houses", players=4, seed=1)
    with pytest.raises(SetupError, match="deals one hand: only its first deal is stacked"):
        houses.stack_deal(2, [])


def test_a_save_with_a_bad_later_deck_order_is_refused_naming_it():
    g = meldkit.new_game("contract_rummy", players=3, seed=1)
    d = json.loads(g.to_json())
    for bad, where in (({"2": ["ZZ"]}, "later_deck_orders.2"),
                       ({"x": ["5S"]}, "later_deck_orders.x"),
                       ({"1": ["5S"]}, "later_deck_orders.1"),
                       (["5S"], "later_deck_orders")):
        d["later_deck_orders"] = bad
        with pytest.raises(SaveError, match=where.replace(".", r"\.")):
            GameState.from_json(json.dumps(d), pack=g.pack)


DEAL_2 = """\
players: 3
scenarios:
  - name: deal 2's contract is a set and a run, stacked
    deal:
      hands: {0: [5C, 5D, 5H, 5S, 9C, 9D, 9S, KC, KD, KH]}
      stock: [2C]
    deals:
      2:
        hands: {1: [7H, 8H, 9H, 10H, 4S, 4D, 4C]}
        upcard: QS
        stock: [JH]
    steps:
      - moves: [draw, meld 5C 5D 5H 5S, meld 9C 9D 9S, meld KC KD KH, discard 2C]
        by: 0
        expect:
          hand_ended: went_out
          hand_number: 2
          hand_contains: {1: [7H, 8H, 9H, 10H, 4S, 4D, 4C]}
          pile: {top: QS}
          turn: 1
      - move: draw
      - move: meld 4S 4D 4C
        expect: {refused: {meld 7H 8H 9H JH: meld/not-a-meld}}
      - move: meld 7H 8H 9H 10H JH
        expect: {melds: {1: [[4S, 4D, 4C], [7H, 8H, 9H, 10H, JH]]}}
  - name: a deal the scenario never reaches is a failure
    deals:
      3: {hands: {0: [JK]}}
    steps:
      - expect: {hand_number: 1}
"""


def test_a_scenario_stacks_a_later_deal_and_says_when_it_never_comes():
    done, never = run_scenario_text(meldkit.load_pack("contract_rummy"), DEAL_2, "d.yaml")
    assert done.passed, [str(f) for f in done.failures]
    assert [str(f) for f in never.failures] == [
        "d.yaml:28:10: a deal the scenario never reaches is a failure, deal 3: deal 3 was "
        "never dealt: the scenario ended in deal 1"]


@pytest.mark.parametrize("deals,expected", [
    ("{1: {hands: {0: [JK]}}}", "d.yaml:4:13: scenarios[0].deals.1: expected a deal number "
                                "after the first (2, 3 …; the first is deal:), got 1"),
    ("[1, 2]", "d.yaml:4:12: scenarios[0].deals: expected a mapping of deal numbers"),
    ("{2: {hand: {0: [JK]}}}", "d.yaml:4:17: scenarios[0].deals.2.hand: unknown key"),
    ("{" + ", ".join(f"{n}: {{}}" for n in range(2, 23)) + "}",
     "d.yaml:4:12: scenarios[0].deals: 21 deals stacked, but a scenario stacks at most 20"),
])
def test_a_bad_deals_key_is_refused_where_it_is_written(deals, expected):
    text = f"scenarios:\n  - name: bad\n    steps: []\n    deals: {deals}\n"
    with pytest.raises(meldkit.scenarios.ScenarioError) as e:
        run_scenario_text(meldkit.load_pack("contract_rummy"), text, "d.yaml")
    assert expected in str(e.value)


def test_a_replay_from_the_seed_stacks_the_later_deals_too(tmp_path):
    from meldkit.ai.infostate import public_history_afresh, replay_start
    from meldkit.cli import main

    g = meldkit.new_game("contract_rummy", players=3, seed=5)
    g.stack_deal(2, stack_deck("contract_rummy", 3, {0: ["JK"]}, deal=2))
    to_deal(g, 2)
    g.apply(g.legal_actions()[0])
    again = replay_start(g)
    for move in g.history:
        again.apply(move)
    assert again == g
    assert g.public_history() == public_history_afresh(g)
    save = tmp_path / "g.json"
    save.write_text(g.to_json(), encoding="utf-8")
    assert main(["replay", str(save)]) == 0


CANASTA_DEAL_2 = """\
players: 2
scenarios:
  - name: deal 2 stacked in a canasta pack (the dealer's left is dealt first)
    deal:
      hands: {0: [9C, 5D], 1: [KS, 6H]}
    deals:
      2:
        hands: {0: [JK, JK, AS], 1: [QH, QD, QC]}
    steps:
      - moves: [draw, discard 9]
        by: 0
      - moves: [draw, discard K]
        by: 1
        expect:
          hand_ended: turn_limit
          hand_number: 2
          hand_contains: {0: [JK, JK, AS], 1: [QH, QD, QC]}
"""


def test_a_scenario_stacks_a_later_deal_of_the_canasta_kernel_too():
    short = meldkit.load_pack_text("extends: classic_canasta\nname: short_canasta\n"
                                   "game: {hand_turn_limit: 2}\n", filename="short.yaml")
    (result,) = run_scenario_text(short, CANASTA_DEAL_2, "c.yaml")
    assert result.passed, [str(f) for f in result.failures]
