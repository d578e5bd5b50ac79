"""Contracts, deal schedules, buying out of turn and jokers for a whole pack (issue 23):
general mechanisms as pack data, each shown on small packs built for the test (the Contract
Rummy clauses are in test_contract_rummy_rules.py)."""

from __future__ import annotations

import json
import pathlib
import random
import re
import tempfile

import pytest

import meldkit
from meldkit import GameState, IllegalActionError, RulePackError
from meldkit._cards import kind_of_code
from meldkit.kernel.table import TableRules

BASE = """
meldkit: 1
name: contract_test
deck: {decks: 2, jokers: 1}
players: {min: 3, max: 4, partners: never}
deal: {hand: 10, upcard: true, first_player: left_of_dealer}
cards:
  wild: [JK]
  values: {A: 15, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, "10": 10,
           J: 10, Q: 10, K: 10, JK: 15}
melds:
  kinds:
    - {name: set, type: set, min_size: 3}
    - {name: run, type: run, min_size: 4, ace: both}
  lay_off: {onto: any}
pile: {take: top, freezes_on: [], blocked_by: []}
going_out: {requires_discard: false}
scoring: {style: penalty}
game: {hands: 2, winner: lowest, tie: draw, hand_turn_limit: 500}
"""

FILLER = ["2C 3D 5S 7H 9C JD KS 4C 6D 8S", "2D 3S 5H 7C 9D JS KH 4D 6S 8H",
          "2S 3H 5C 7D 9S JH KC 4S 6H 8C"]


_DIR = tempfile.mkdtemp(prefix="meldkit-contracts-")
pathlib.Path(_DIR, "contract_base.yaml").write_text(BASE, encoding="utf-8")


def pack(extra: str = ""):
    """The base pack with ``extra`` merged over it (a child pack that extends it)."""
    return meldkit.load_pack_text("extends: contract_base.yaml\nname: contract_test\n" + extra,
                                  filename="contract_test.yaml", base_dir=_DIR)


def deal(p, *hands: str, upcard: str = "QD", stock: str = "", seed: int = 1):
    order = [c for hand in hands for c in hand.split()] + [upcard, *stock.split()]
    return meldkit.new_game(p, players=len(hands), seed=seed, options={"first_player": 0},
                            deck_order=order)


def legal(g) -> list[str]:
    return sorted(str(a) for a in g.legal_actions())


def saved(g):
    h = GameState.from_json(g.to_json(), pack=g.pack)
    assert h == g
    return h


# --------------------------------------------------------------------------- deck.jokers
def test_deck_jokers_counts_the_jokers_of_the_whole_pack_in_both_meld_models():
    table = pack("deck: {jokers_by_players: {4: 3}}\n")
    assert [meldkit.new_game(table, players=n, seed=1).kind_of.count(52)
            for n in (3, 4)] == [1, 3]
    assert len(meldkit.new_game(table, players=3, seed=1).kind_of) == 105
    tail = meldkit.load_pack_text("extends: pony_tail\ndeck: {jokers: 5}\n")
    g = meldkit.new_game(tail, players=4, seed=1)
    assert g.meld_model == "rank_slot"
    assert sum(1 for c in range(len(g.kind_of)) if g.card_code(c) == "JK") == 5
    assert len(g.kind_of) == 6 * 52 + 5
    assert GameState.from_json(g.to_json(), pack=tail) == g


# --------------------------------------------------------------------------- the contract
CONTRACT = "initial_meld: {melds: [set, set], lay_off_before: false}\n"


def test_a_contract_meld_is_pending_until_the_whole_contract_is_down():
    g = deal(pack(CONTRACT), "5H 5S 5D 9C 9S 9D 2C 3D 4S 6H", *FILLER[:2], stock="KD")
    g.apply("draw")
    assert "meld 5D 5H 5S" in legal(g) and "discard KD" in legal(g)
    g.apply("meld 5H 5S 5D")
    assert g.pending == [1] and not g.opened[0]
    assert not [a for a in legal(g) if a.startswith("discard")]  # the contract first
    assert "withdraw" in legal(g)
    with pytest.raises(IllegalActionError, match=r"lay the rest of it, or withdraw them.*"
                                                  r"\[contract/pending\]"):
        g.apply("discard KD")
    saved(g)
    g.apply("meld 9C 9S 9D")
    assert g.opened[0] and g.pending == []
    assert "discard KD" in legal(g)


def test_withdraw_takes_the_pending_melds_back_and_ends_melding_for_the_turn():
    g = deal(pack(CONTRACT), "5H 5S 5D 9C 9S 2H 2C 3D 4S 6H", *FILLER[:2], stock="KD")
    g.apply("draw")
    g.apply("meld 5H 5S 5D")
    assert legal(g) == ["withdraw"]  # no second set: only taking it back
    g.apply("withdraw")
    assert g.melds == [] and len(g.hands[0]) == 11 and g.withdrew
    assert all(a.startswith("discard") for a in legal(g))
    saved(g)


def test_a_meld_of_a_kind_the_contract_does_not_need_is_not_offered():
    g = deal(pack(CONTRACT), "5H 6H 7H 8H 9C 9S 9D 2C 3D 4S", *FILLER[:2], stock="KD")
    g.apply("draw")
    assert "meld 9C 9D 9S" in legal(g)
    assert not [a for a in legal(g) if a.startswith("meld 5H")]  # a run: not in [set, set]


def test_no_lay_off_before_opening_where_the_pack_says_so():
    p = pack(CONTRACT)
    g = deal(p, "5H 5S 5D 9C 9S 9D 2C 3D 4S 6H", "KC 5C 2D 3S 4H 6D 7S 8C 10D JH",
             FILLER[1], stock="KD QH")
    g.apply("draw")
    g.apply("meld 5H 5S 5D")
    g.apply("meld 9C 9S 9D")
    g.apply("discard KD")
    g.apply("draw")  # seat 1 holds 5C but has not opened
    assert not [a for a in legal(g) if a.startswith("add")]
    lenient = deal(pack(CONTRACT.replace("false", "true")), "5H 5S 5D 9C 9S 9D 2C 3D 4S 6H",
                   "KC 5C 2D 3S 4H 6D 7S 8C 10D JH", FILLER[1], stock="KD QH")
    for move in ("draw", "meld 5H 5S 5D", "meld 9C 9S 9D", "discard KD", "draw"):
        lenient.apply(move)
    assert "add 5C to m1" in legal(lenient)


def test_a_contract_no_hand_can_hold_is_refused_at_its_line():
    with pytest.raises(RulePackError) as e:
        pack("initial_meld: {melds: [run, run, run]}\n")
    assert "contract_test.yaml:" in str(e.value) and "needs at least 12 cards" in str(e.value)
    with pytest.raises(RulePackError, match=r"'sett' is not a meld kind"):
        pack("initial_meld: {melds: [set, sett]}\n")


def test_a_contract_and_buying_are_refused_in_rank_slot_and_knocking_packs():
    with pytest.raises(RulePackError, match="initial_meld.melds: is read only by the table"):
        meldkit.load_pack_text("extends: pony_tail\ninitial_meld: {melds: [set]}\n")
    with pytest.raises(RulePackError, match="pile.buy_limit: buying is for packs"):
        meldkit.load_pack_text("extends: gin_rummy\npile: {buy_limit: 2}\n")
    with pytest.raises(RulePackError, match="pile.buy_penalty: 2, but nobody may buy"):
        pack("pile: {buy_penalty: 2}\n")
    with pytest.raises(RulePackError, match="lay_off_before: false, but the pack sets no contract or minimum"):
        pack("initial_meld: {lay_off_before: false}\n")


# --------------------------------------------------------------------------- buying
BUY = "pile: {buy_limit: 2, buy_penalty: 1}\n"


def _buy_game():
    g = deal(pack(BUY), "5H 5S 9C 9S 9D 2C 3D 4S 6H KD", *FILLER, stock="QH 7S 8D 10C")
    g.apply("draw")  # seat 0 draws QH
    g.apply("discard KD")
    return g


def test_a_discard_the_next_player_passes_by_is_offered_in_turn_order():
    g = _buy_game()
    assert (g.current_player, legal(g)) == (1, ["draw", "take"])
    g.apply("draw")  # seat 1 does not take it: seats 2 and 3 are asked, in turn
    assert (g.phase, g.current_player, legal(g)) == ("buy", 2, ["buy", "pass"])
    saved(g)
    g.apply("pass")
    assert (g.phase, g.current_player) == ("buy", 3)
    g.apply("buy")
    hand3 = g.view(3)["hand"]
    assert "KD" in hand3 and "7S" in hand3 and len(hand3) == 12  # the discard and a penalty
    assert (g.phase, g.current_player, g.buys) == ("play", 1, [0, 0, 0, 1])
    assert "8D" in g.view(1)["hand"]  # seat 1's own draw, after the buying
    saved(g)


def test_nobody_buys_when_all_pass_and_a_buyer_runs_out_of_buys():
    g = _buy_game()
    g.apply("draw")
    g.apply("pass")
    g.apply("pass")
    assert (g.phase, g.current_player, g.pile[-1] == g.pile[-1]) == ("play", 1, True)
    assert g.card_code(g.pile[-1]) == "KD"
    g.buys[3] = g.buys[0] = 2  # seats 3 and 0 have bought twice this hand: not asked again
    g.apply("discard " + g.view(1)["hand"][0])
    g.apply("draw")  # seat 2 passes the discard by: nobody may buy it
    assert g.phase == "play" and g.current_player == 2


@pytest.mark.parametrize("after", [True, False])
def test_a_player_who_has_opened_is_asked_to_buy_only_where_buy_after_opening(after):
    """``pile.buy_after_opening: false`` (many Liverpool tables): a player who has laid
    the contract is no longer asked to buy; the default asks every player with buys left."""
    p = pack("pile: {buy_limit: 2, buy_penalty: 1, buy_after_opening: "
             f"{str(after).lower()}}}\ninitial_meld: {{melds: [set]}}\n")
    g = deal(p, "5H 5S 9C 9S 9D 2C 3D 4S 6H KD", *FILLER, stock="QH 7S 8D 10C JC")
    g.apply("draw")  # seat 0 draws QH, opens with the nines and discards
    g.apply("meld 9C 9S 9D")
    g.apply("discard KD")
    assert g.opened == [True, False, False, False]
    g.apply("draw")  # seat 1 passes KD by: seats 2 and 3 pass
    g.apply("pass")
    g.apply("pass")
    g.apply("discard " + g.view(1)["hand"][0])
    g.apply("draw")  # seat 2 passes seat 1's discard by: seat 3, then seat 0 (opened)
    assert (g.phase, g.current_player) == ("buy", 3)
    g.apply("pass")
    assert (g.phase, g.current_player) == (("buy", 0) if after else ("play", 2))
    saved(g)
    from meldkit.rulesheet import rules_sheet

    sheet = rules_sheet(p)
    assert ("A player who has opened (laid the contract) is no longer asked." in sheet) \
        is not after


def test_buy_after_opening_is_refused_where_every_player_counts_as_opened():
    with pytest.raises(RulePackError, match=r"b.yaml:2:22: pile.buy_after_opening: false, "
                       r"but the pack has no initial meld"):
        meldkit.load_pack_text("extends: rummy\npile: {buy_limit: 2, buy_after_opening: "
                               "false}\n", filename="b.yaml")
    with pytest.raises(RulePackError, match=r"b.yaml:2:8: pile.buy_after_opening: false, "
                       r"but nobody may buy \(pile.buy_limit is 0\)"):
        meldkit.load_pack_text("extends: rummy\npile: {buy_after_opening: false}\n",
                               filename="b.yaml")


def test_buying_keeps_cards_conserved_over_random_play():
    p = pack(CONTRACT + BUY)
    for seed in range(3):
        g = meldkit.new_game(p, players=4, seed=seed)
        rng = random.Random(seed)
        steps = 0
        while not g.is_over and steps < 4000:
            g.apply(rng.choice(g.legal_actions()))
            steps += 1
            zones = g.zone_cards()
            assert sorted(c for cards in zones.values() for c in cards) == list(
                range(len(g.kind_of)))
        assert g.is_over


# --------------------------------------------------------------------------- the schedule
SCHEDULE = CONTRACT + """schedule:
  - {initial_meld: {melds: [set, set]}}
  - {deal: {hand: 12}, initial_meld: {melds: [set, run]}, pile: {buy_limit: 1}}
"""


def test_a_schedule_gives_each_deal_its_own_contract_and_hand_size():
    p = pack(SCHEDULE)
    assert [p.for_deal(n).spec.deal.hand for n in (1, 2, 3)] == [10, 12, 10]
    g = meldkit.new_game(p, players=3, seed=4)
    assert g.rules.contract == (0, 0) and len(g.hands[0]) == 10
    rng = random.Random(0)
    while g.hand_number == 1:
        g.apply(rng.choice(g.legal_actions()))
    assert g.rules.contract == (0, 1) and g.rules.buy_limit == 1
    assert sorted(len(h) for h in g.hands)[:2] == [12, 12]
    h = saved(g)
    assert h.rules is g.rules  # a save of deal 2 plays with deal 2's pack


def test_a_schedule_item_may_set_only_deal_level_keys_and_is_checked_like_a_pack():
    with pytest.raises(RulePackError) as e:
        pack(CONTRACT + "schedule:\n  - {game: {target: 5}}\n")
    assert "contract_test.yaml:" in str(e.value)
    assert "schedule[0].game.target: game.target is not a deal-level key" in str(e.value)
    with pytest.raises(RulePackError, match=r"schedule\[0\].*in deal 1: needs at least 12"):
        pack(CONTRACT + "schedule:\n  - {initial_meld: {melds: [run, run, run]}}\n")
    with pytest.raises(RulePackError, match=r"schedule\[0\]\.deal\.reserve: deal\.reserve is "
                       "not a deal-level key"):
        meldkit.load_pack_text("extends: pony_tail\nschedule: [{deal: {reserve: 5}}]\n")


def test_game_hands_with_a_schedule_plays_every_deal_then_ends():
    g = meldkit.new_game(pack(SCHEDULE), players=3, seed=2)
    rng = random.Random(2)
    while not g.is_over:
        g.apply(rng.choice(g.legal_actions()))
    assert len(g.hand_results) == 2


def test_a_table_pack_draws_turn_draw_cards_and_a_schedule_may_change_it_by_deal():
    p = pack("schedule:\n  - {turn: {draw_by_players: {3: 2}}}\n  - {turn: {draw: 1}}\n")
    assert [TableRules.of(p.for_deal(n)).draw_for(3)
            for n in (1, 2, 3)] == [2, 1, 1]
    g = deal(p, "5H 5S 5D 9C 9S 9D 2C 3D 4S 6H", *FILLER[:2], stock="KD 8D QS")
    g.apply("draw")  # deal 1 draws two cards: the top two of the stock
    assert len(g.hands[0]) == 12 and {"KD", "8D"} <= {g.card_code(c) for c in g.hands[0]}
    from meldkit.rulesheet import rules_sheet
    assert "draw 1 card from the stock (2 with 3 players) in deal 1" in rules_sheet(p)
    h = saved(g)  # the save keeps deal 1's draw
    rng = random.Random(3)
    while not (h.hand_number == 2 and h.phase == "draw") and not h.is_over:
        h.apply(rng.choice(h.legal_actions()))
    assert h.hand_number == 2 and h.rules.draw_for(3) == 1
    p2 = h.current_player
    before = len(h.hands[p2])
    h.apply("draw")
    assert len(h.hands[p2]) == before + 1


def test_a_table_pack_draws_one_card_unless_it_says_and_a_knocking_pack_only_one():
    assert meldkit.load_pack("rummy_500").spec.turn.draw == 1
    g = deal(pack("turn: {draw: 3}\n"), "5H 5S 5D 9C 9S 9D 2C 3D 4S 6H", *FILLER[:2],
             stock="KD 8D QS 7C")
    g.apply("draw")
    assert len(g.hands[0]) == 13
    with pytest.raises(RulePackError, match=r"turn.draw: a knocking pack draws one card"):
        meldkit.load_pack_text("extends: gin_rummy\nturn: {draw: 2}\n", filename="k.yaml")
    with pytest.raises(RulePackError, match=r"needs at least 12 cards, but a hand of 9 holds "
                       r"11 after its draw"):  # three runs of 4 from 9 cards and 2 drawn
        pack("turn: {draw: 2}\ndeal: {hand: 9}\ninitial_meld: {melds: [run, run, run]}\n")


def test_a_contract_only_buying_can_reach_is_played():
    """A pack author's Shanghai: deal 8's contract (a set and a run of ten, 13 cards) was
    refused for an 11-card hand, which buying grows (the source: "buying discards will be
    required"); a contract still past every buy is refused, saying so."""
    def shanghai(hand: int, pile: str):
        return meldkit.load_pack_text(
            f"extends: contract_rummy\nname: shanghai8\ndeal: {{hand: {hand}, hand_by_players: "
            "null}\nschedule: []\nmelds:\n  kinds:\n"
            "    - {name: set, type: set, min_size: 3, max_wilds: 2}\n"
            "    - {name: run10, type: run, min_size: 10, max_wilds: 4}\n"
            f"initial_meld: {{melds: [set, run10]}}\npile: {pile}\n", filename="shanghai8.yaml")

    assert shanghai(11, "{buy_limit: 3, buy_penalty: 1}").spec.initial_meld.melds == [
        "set", "run10"]
    with pytest.raises(RulePackError, match=r"needs at least 13 cards, but a hand of 11 holds "
                       r"12 after its draw \(at 3 players\)"):
        shanghai(11, "{buy_limit: 0}")
    with pytest.raises(RulePackError, match=r"needs at least 13 cards, but a hand of 5 holds "
                       r"6 after its draw, 10 with every buy \(pile.buy_limit\)"):
        shanghai(5, "{buy_limit: 2, buy_penalty: 1}")


# --------------------------------------------------------------------------- the minimum
def _minimum_game(extra: str):
    p = meldkit.load_pack_text("extends: rummy\n" + extra, filename="minimum.yaml")
    hands = ["2C 3C 4C 10H JH QH KH 9S 9D 5S", "6D 7D 8D 6S 7S 8C JC 2S 3S 4H"]
    order = [c for h in hands for c in h.split()] + ["KD", "5D"]
    return meldkit.new_game(p, players=2, seed=1, options={"first_player": 0},
                            deck_order=order)


def test_an_opening_minimum_holds_a_table_players_melds_pending_until_worth_it():
    g = _minimum_game("initial_meld: {minimums: [{minimum: 30}]}\n")
    g.apply("draw")
    g.apply("meld 2C 3C 4C")  # 9 points: not yet an opening of 30
    assert g.pending == [1] and not g.opened[0]
    assert g.view(0)["contract"]["minimum"] == 30
    assert not [a for a in legal(g) if a.startswith("discard")]
    saved(g)
    g.apply("meld 10H JH QH KH")  # 9 + 40: opened
    assert g.opened[0] and g.pending == []
    assert "discard 5D" in legal(g)
    plain = _minimum_game("")
    plain.apply("draw")
    plain.apply("meld 2C 3C 4C")
    assert plain.opened[0] and "discard 5D" in legal(plain)  # no minimum: open at once


def test_the_minimum_by_players_and_by_hand_in_a_table_pack():
    tiers = _minimum_game("initial_meld: {minimums_by_players: {2: [{minimum: 50}]}}\n")
    assert tiers._opening_minimum(0) == 50
    by_hand = _minimum_game("initial_meld: {by_hand: [60, 90]}\n")
    assert by_hand._opening_minimum(0) == 60
    by_hand.apply("draw")
    by_hand.apply("meld 10H JH QH KH")
    assert not by_hand.opened[0]  # 40 of 60


def test_an_opening_minimum_is_refused_in_a_knocking_pack():
    with pytest.raises(RulePackError, match="initial_meld.minimums: an opening minimum"):
        meldkit.load_pack_text("extends: gin_rummy\ninitial_meld: {minimums: [{minimum: 9}]}\n")


# --------------------------------------------------------------------------- before opening
def test_no_pile_take_before_opening_where_the_pack_says_so():
    p = pack(CONTRACT.replace("lay_off_before: false", "take_before: false"))
    g = deal(p, "5H 5S 5D 9C 9S 9D 2C 3D 4S 6H", *FILLER[:2], upcard="QD", stock="KD")
    assert legal(g) == ["draw"]  # seat 0 has not opened: no take of the upcard
    free = deal(pack(CONTRACT), "5H 5S 5D 9C 9S 9D 2C 3D 4S 6H", *FILLER[:2], stock="KD")
    assert legal(free) == ["draw", "take"]


def test_all_at_once_opens_only_by_melding_the_whole_hand():
    p = pack("initial_meld: {all_at_once: true}\ndeal: {hand: 6}\n"
             "going_out: {by_discard: false}\n")  # (no last card to discard)
    g = deal(p, "5H 5S 5D 9C 9S 9D", "2C 3D 5S 7H 9C JD", "2D 3S 5H 7C 9D JS",
             upcard="QD", stock="KD")
    g.apply("draw")
    g.apply("meld 5H 5S 5D")
    assert not g.opened[0] and g.pending  # the hand is not all down
    assert "discard KD" not in legal(g)
    g.apply("meld 9C 9S 9D")
    assert not g.opened[0] and legal(g) == ["withdraw"]  # KD melds with nothing
    g.apply("withdraw")
    g.apply("discard KD")
    assert g.melds == [] and len(g.hands[0]) == 6
    saved(g)


def test_all_at_once_may_leave_the_card_a_discard_goes_out_with():
    """Where discarding the last card goes out (``requires_discard: false`` keeps it so),
    the hand laid all at once is every card but that one, as the key says: a pack author's
    Continental (fifteen cards in runs, the sixteenth discarded) had its discard refused as
    ``contract/pending``."""
    p = pack("initial_meld: {all_at_once: true}\ndeal: {hand: 6}\n")
    g = deal(p, "5H 5S 5D 9C 9S 9D", "2C 3D 5S 7H 9C JD", "2D 3S 5H 7C 9D JS",
             upcard="QD", stock="KD")
    g.apply("draw")
    g.apply("meld 5H 5S 5D")
    assert not g.opened[0] and "discard KD" not in legal(g)  # the hand is not all down
    g.apply("meld 9C 9S 9D")
    assert g.opened[0] and legal(g) == ["discard KD"]  # the opening, and the last card
    g.apply("discard KD")
    assert g.hand_results[-1].went_out == 0 and g.hand_results[-1].final.at_once is False
    saved(g)


def test_a_contract_may_require_a_kind_a_meld_also_forms_a_clean_run():
    p = pack("melds:\n  kinds:\n    - {name: set, type: set, min_size: 3}\n"
             "    - {name: run, type: run, min_size: 4, ace: both, max_wilds: 1}\n"
             "    - {name: clean_run, type: run, min_size: 4, max_wilds: 0}\n"
             "initial_meld: {melds: [run, clean_run]}\n")
    g = deal(p, "4H 5H JK 7H 8S 9S 10S JS 2C 3D", *FILLER[:2], stock="KD")
    g.apply("draw")
    assert "meld 4H 5H JK 7H" in legal(g) and "meld 8S 9S 10S JS" in legal(g)
    g.apply("meld 4H 5H JK 7H")  # a run with a wild card: only the run of the contract
    assert g.view(0)["contract"]["needs"] == ["clean_run"]
    g.apply("meld 8S 9S 10S JS")  # natural: it is the clean run
    assert g.opened[0]
    wild_twice = deal(p, "4H 5H JK 7H 8S 9S 10S 2C 3D QS", *FILLER[:2], stock="KD")
    wild_twice.apply("draw")
    wild_twice.apply("meld 4H 5H JK 7H")
    # 8S 9S 10S alone is no run of four, and the joker is laid: nothing covers clean_run
    assert [a for a in legal(wild_twice) if a.startswith("meld")] == []


def test_game_tie_play_on_is_refused_beside_a_fixed_number_of_hands():
    with pytest.raises(RulePackError, match="game.tie: play_on, but the game ends after "
                                            "game.hands"):
        pack("game: {hands: 3, tie: play_on}\n")
    assert pack("game: {hands: 3, tie: draw}\n").spec.game.tie == "draw"


def test_game_tie_play_on_is_refused_below_a_parents_fixed_number_of_hands(tmp_path):
    """A child's play_on under hands its parent fixed is ignored as much as one beside
    them (a pack author's Okey, and contract_rummy's seven hands, validated it, then drew
    tied games); a parent's play_on, for its own target, does not bind a child that fixes
    the hands."""
    (tmp_path / "fixed.yaml").write_text("meldkit: 1\nextends: contract_rummy\nname: fixed\n"
                                         "game: {hands: 3}\n")
    for parent in ("contract_rummy", "fixed.yaml"):
        with pytest.raises(RulePackError, match=r"child.yaml:2:8: game.tie: play_on, but "
                                                r"the game ends after game.hands \("):
            meldkit.load_pack_text(f"extends: {parent}\ngame: {{tie: play_on}}\n",
                                   filename="child.yaml", base_dir=tmp_path)
    (tmp_path / "ties.yaml").write_text("meldkit: 1\nextends: rummy\nname: ties\ngame: {tie: play_on}\n")
    child = meldkit.load_pack_text("extends: ties.yaml\ngame: {hands: 3}\n",
                                   filename="child.yaml", base_dir=tmp_path)
    assert (child.spec.game.hands, child.spec.game.tie) == (3, "play_on")


# --------------------------------------------------------------------------- drop, elimination
DROP = "turn: {drop: [20, 40]}\n"


def test_a_player_may_drop_before_drawing_and_scores_the_rounds_penalty():
    g = deal(pack(DROP), "5H 5S 5D 9C 9S 9D 2C 3D 4S 6H", *FILLER, stock="KD QH")
    assert "drop" in legal(g)
    g.apply("drop")  # seat 0 folds in the first round: 20 against
    assert (g.dropped, g.current_player) == ([20, None, None, None], 1)
    saved(g)
    g.apply("drop")
    g.apply("draw")  # seat 2 plays on; seat 3 is left with it
    g.apply("discard " + g.view(2)["hand"][0])
    g.apply("drop")  # seat 3 drops: seat 2 is the last one in
    (hand,) = g.hand_results
    assert (hand.ended_by, hand.went_out) == ("all_dropped", 2)
    assert hand.final.deadwood == (20, 20, 0, 20) and g.scores == [20, 20, 0, 20]
    assert g.dropped == [None] * 4  # everyone is dealt in again


def test_a_drop_after_the_first_round_costs_the_second_penalty():
    g = deal(pack(DROP), "5H 5S 5D 9C 9S 9D 2C 3D 4S 6H", *FILLER, stock="KD QH 7C 8C")
    for _ in range(4):  # a round of draw-and-discard
        g.apply("draw")
        g.apply("discard " + g.view(g.current_player)["hand"][0])
    g.apply("drop")
    assert g.dropped[0] == 40


def test_a_drop_on_a_second_turn_costs_the_second_penalty_though_someone_dropped_before():
    """The first round is each seat's first turn: an earlier drop is a turn too, so it does
    not stretch the round into the next player's second turn."""
    g = deal(pack(DROP), "5H 5S 5D 9C 9S 9D 2C 3D 4S 6H", *FILLER[:2], stock="KD QH 7C 8C")
    g.apply("draw")
    g.apply("discard 2C")
    g.apply("drop")  # seat 1, on its first turn: 20
    g.apply("draw")
    g.apply("discard " + g.view(2)["hand"][0])
    g.apply("drop")  # seat 0, on its second turn: 40
    (hand,) = g.hand_results
    assert (hand.ended_by, hand.went_out) == ("all_dropped", 2)
    assert hand.final.deadwood == (40, 20, 0)


def test_the_first_drop_penalty_is_for_a_players_own_first_turn_of_the_hand():
    """Random games with drops and elimination: a drop costs the first penalty exactly when
    the seat has had no turn yet in the hand (an eliminated seat has none to wait for)."""
    p = pack(DROP + "game: {hands: null, eliminate_above: 60}\n")
    seen = set()
    for seed in range(12):
        g = meldkit.new_game(p, players=4, seed=seed)
        rng = random.Random(seed)
        hands, had_turn = 0, set()
        while not g.is_over and hands < 40:
            seat = g.current_player
            a = rng.choice(g.legal_actions())
            if g.phase == "draw":  # a turn starts (a drop is one)
                first = seat not in had_turn
                had_turn.add(seat)
            g.apply(a)
            if a.type == "drop":
                penalty = (g.dropped[seat] if len(g.hand_results) == hands
                           else g.hand_results[-1].final.deadwood[seat])
                assert penalty == (20 if first else 40), (seed, seat, had_turn)
                seen.add((first, any(g.eliminated)))
            if len(g.hand_results) > hands:
                hands, had_turn = len(g.hand_results), set()
    assert seen >= {(True, False), (False, False), (False, True)}


def test_a_player_past_the_elimination_limit_leaves_and_the_last_one_in_wins():
    p = pack(DROP + "game: {hands: null, eliminate_above: 30}\n")
    g = meldkit.new_game(p, players=3, seed=3)
    rng = random.Random(3)
    hands = 0
    while not g.is_over and hands < 500:
        g.apply(rng.choice(g.legal_actions()))
        if len(g.hand_results) > hands:
            hands = len(g.hand_results)
            out = [q for q in range(3) if g.eliminated[q]]
            assert all(g.scores[q] > 30 for q in out)
            if not g.is_over:  # the next deal leaves them out
                assert all(not g.hands[q] for q in out) and not g.eliminated[g.current_player]
                saved(g)
    assert g.is_over and sum(not e for e in g.eliminated) == 1
    (last,) = [q for q in range(3) if not g.eliminated[q]]
    assert g.winner == last


def test_dropping_and_elimination_are_checked_where_written():
    with pytest.raises(RulePackError, match=r"turn.drop: expected two penalties"):
        pack("turn: {drop: [20]}\n")
    with pytest.raises(RulePackError, match="elimination is for games the lowest total wins"):
        pack("game: {hands: null, winner: highest, eliminate_above: 100}\n")
    with pytest.raises(RulePackError, match="game.target: the game ends when one player"):
        pack("game: {hands: null, target: 50, eliminate_above: 100}\n")
    with pytest.raises(RulePackError, match="turn.drop: is read only by the table"):
        meldkit.load_pack_text("extends: pony_tail\nturn: {drop: [20, 40]}\n")


WILD_KINDS = ("melds:\n  kinds:\n    - {name: set, type: set, min_size: 3, max_wilds: 1}\n"
              "    - {name: run, type: run, min_size: 4, ace: both, max_wilds: 1}\n")


def test_a_wild_card_may_count_as_the_card_it_stands_for_toward_the_minimum():
    minimum = WILD_KINDS + "initial_meld: {minimums: [{minimum: 20}], wild_as_card: true}\n"
    g = deal(pack(minimum), "5H JK 7H 8H 9C 9S 2D 3D 4S 6C", *FILLER[:2], stock="KD")
    g.apply("draw")
    g.apply("meld 5H JK 7H 8H")  # 5 + 6 (the joker as 6H) + 7 + 8 = 26: open
    assert g.opened[0]
    own = deal(pack(minimum.replace("true", "false")), "5H JK 7H 8H 9C 9S 2D 3D 4S 6C",
               *FILLER[:2], stock="KD")
    own.apply("draw")
    own.apply("meld 5H JK 7H 8H")  # the joker at its own 15: 35, open too
    assert own.opened[0]
    low = deal(pack(minimum.replace("20", "30")), "5H JK 7H 8H 9C 9S 2D 3D 4S 6C",
               *FILLER[:2], stock="KD")
    low.apply("draw")
    low.apply("meld 5H JK 7H 8H")  # 26 < 30 as the card; it would be 35 at its own value
    assert not low.opened[0]


def test_a_schedule_may_change_the_wild_cards_of_a_deal():
    p = pack(WILD_KINDS + CONTRACT
             + "schedule:\n  - {cards: {wild: [JK, 2C]}}\n  - {cards: {wild: [JK]}}\n")
    assert p.for_deal(1).spec.cards.wild == ["JK", "2C"]
    g = meldkit.new_game(p, players=3, seed=1)
    assert kind_of_code("2C") in g.rules.wild
    melds = {str(a) for a in g.action_space.actions if a.type == "meld"}
    assert "meld 5H 5S 2C" in melds  # deal 1's melds are in the space (2C wild)


def test_a_taken_card_must_be_melded_at_once_where_the_pack_says_so():
    p = pack("pile: {taken_melded: always}\n")
    g = deal(p, "5H 5S 9C 2C 3D 4S 6H 8D JC KS", *FILLER[:2], upcard="5D", stock="KD")
    assert legal(g) == ["draw", "take"]  # 5D melds with 5H 5S
    g.apply("take")
    assert g.must_use == kind_of_code("5D")
    assert [a for a in legal(g) if a.startswith("discard")] == []
    assert "meld 5D 5H 5S" in legal(g)
    saved(g)
    g.apply("meld 5H 5S 5D")
    assert g.must_use is None and "discard KS" in legal(g)
    useless = deal(p, "5H 5S 9C 2C 3D 4S 6H 8D JC KS", *FILLER[:2], upcard="QD", stock="KD")
    assert legal(useless) == ["draw"]  # QD melds with nothing: it may not be taken


def test_the_top_card_of_a_whole_pile_taken_must_be_melded_too():
    """A pack author's Oklahoma Rummy: with ``pile.take: pile`` the take was refused when
    the top card could not be melded, but once taken nothing made the player meld it: a
    discard, even of that card, ended the turn."""
    p = pack("pile: {take: pile, taken_melded: always}\n")
    g = deal(p, "5H 5S 9C 2C 3D 4S 6H 8D JC KS", *FILLER[:2], upcard="5D", stock="KD")
    g.apply("take")
    assert g.must_use == kind_of_code("5D") and g.pile == []
    assert [a for a in legal(g) if a.startswith("discard")] == []
    assert g.check("discard 5D").code == g.check("discard KS").code == "pile/must-use"
    saved(g)
    g.apply("meld 5H 5S 5D")
    assert "discard KS" in legal(g)
    kept = pack("pile: {take: pile, discard_taken_card: false}\n")  # the top card, taken
    g = deal(kept, "5H 5S 9C 2C 3D 4S 6H 8D JC KS", *FILLER[:2], upcard="5D", stock="KD")
    g.apply("take")
    assert "discard 5D" not in legal(g) and "discard KS" in legal(g)
    assert g.check("discard 5D").code == "discard/taken-card"


def test_until_opened_the_taken_card_must_go_toward_the_contract():
    p = pack(CONTRACT + "pile: {taken_melded: until_opened}\n")
    g = deal(p, "5H 5S 9C 9S 9D 2C 3D 4S 6H 8D", *FILLER[:2], upcard="5D", stock="KD")
    g.apply("take")
    assert not [a for a in legal(g) if a.startswith("discard")]
    g.apply("meld 5H 5S 5D")
    g.apply("meld 9C 9S 9D")
    assert g.opened[0] and "discard 8D" in legal(g)


TAKEN_40 = ("initial_meld: {minimums: [{minimum: 40}], lay_off_before: false}\n"
            "pile: {taken_melded: until_opened}\n")
"""Kalooki's rule: an unopened player takes the discard only to open with it, worth 40."""


def test_until_opened_the_top_card_is_taken_only_when_an_opening_worth_the_minimum_holds_it():
    p = pack(TAKEN_40)
    short = deal(p, "KC KD 2C 3D 5S 7H 9C JD 4C 6D", *FILLER[:2], upcard="KS", stock="QH")
    assert legal(short) == ["draw"]  # KC KD KS is 30: no opening of 40 holds the KS
    assert short.check("take").code == "pile/cannot-take"
    enough = deal(p, "KC KD QH QD QC 2C 5S 7H 9C 4D", *FILLER[:2], upcard="KS", stock="3H")
    assert legal(enough) == ["draw", "take"]  # KC KD KS and the queens: 60


def test_a_card_taken_toward_the_opening_stays_owed_in_the_pending_melds_until_it_is_made():
    g = deal(pack(TAKEN_40), "KC KD QH QD QC 2C 5S 7H 9C 4D", *FILLER[:2], upcard="KS",
             stock="3H")
    g.apply("take")
    g.apply("meld KC KD KS")  # 30, pending: the KS is still owed
    assert g.pending and g.must_use == kind_of_code("KS")
    assert legal(g) == ["meld QC QD QH"]  # no withdraw, no discard
    before = g.to_json()
    for move in ("withdraw", "discard 2C"):
        assert g.check(move).code == "pile/must-use"
        with pytest.raises(IllegalActionError):
            g.apply(move)
        assert g.to_json() == before
    saved(g)
    g.apply("meld QH QD QC")  # 60: opened, the KS in it
    assert g.opened[0] and g.must_use is None and "discard 2C" in legal(g)


def test_while_a_taken_card_is_owed_no_meld_is_offered_that_would_leave_no_opening():
    g = deal(pack(TAKEN_40), "KC KD KH 2C 3D 5S 7H 9C JD 4C", *FILLER[:2], upcard="KS",
             stock="QH")
    g.apply("take")
    assert legal(g) == ["meld KC KD KH KS"]  # three kings are 30, and nothing else melds
    assert g.check("meld KC KD KS").code == "pile/must-use"


@pytest.mark.parametrize("extra", [TAKEN_40, CONTRACT + "pile: {taken_melded: until_opened}\n",
                                   TAKEN_40.replace("until_opened", "always")])
def test_random_play_with_a_taken_card_owed_toward_the_opening_keeps_the_invariants(extra):
    from meldkit.testing import check_conformance

    assert check_conformance(pack(extra), players=3, games=3, hands=2, every=3) > 0


def test_the_rules_sheet_says_dropping_a_taken_card_owed_and_elimination():
    from meldkit.rulesheet import rules_sheet

    p = pack(DROP + "pile: {taken_melded: until_opened}\n" + CONTRACT
             + "game: {hands: null, eliminate_above: 100}\n")
    sheet = rules_sheet(p)
    assert "may **drop** — fold the hand, which then counts 20 against them" in sheet
    assert "taken by a player who has not opened must be used at once: the first meld or lay-off" in sheet
    assert "passes 100 after a hand leaves the game" in sheet


def test_refusals_before_opening_name_the_contract():
    g = deal(pack(CONTRACT), "5H 6H 7H 8H 9C 9S 9D 2C 3D 4S", *FILLER[:2], stock="KD")
    g.apply("draw")
    why = g.check("meld 5H 6H 7H 8H")
    assert why.code == "meld/not-in-contract" and "set, set" in why.sentence
    other = deal(pack(CONTRACT), "5H 5S 5D 9C 9S 9D 2C 3D 4S 6H",
                 "KC 5C 2D 3S 4H 6D 7S 8C 10D JH", FILLER[1], stock="KD QH")
    for move in ("draw", "meld 5H 5S 5D", "meld 9C 9S 9D", "discard KD", "draw"):
        other.apply(move)
    assert other.check("add 5C to m1").code == "add/not-opened"
    assert "(met the contract)" in other.check("add 5C to m1").sentence
    g = deal(pack(CONTRACT), "5H 5S 5D 9C 9S 9D 2C 3D 4S 6H", *FILLER[:2], stock="KD")
    g.apply("draw")
    g.apply("meld 5H 5S 5D")
    assert g.check("discard KD").sentence.startswith(
        "your melds toward the contract are pending")


MINIMUM = "initial_meld: {minimums: [{minimum: 40}], lay_off_before: false}\n"


def test_refusals_and_the_table_of_a_pack_with_an_opening_minimum_but_no_contract():
    from meldkit._table import Style, opening_lines

    g = deal(pack(MINIMUM), "5H 5S 5D 9C 9S 9D 2C 3D 4S 6H",
             "KC 5C 2D 3S 4H 6D 7S 8C 10D JH", FILLER[1], stock="KD QH")
    g.apply("draw")
    g.apply("meld 5H 5S 5D")  # 15 of the 40: pending
    why = g.check("discard KD")
    assert why.code == "contract/pending"
    assert why.sentence == ("your melds toward your opening are pending: lay the rest of it, "
                            "or withdraw them, before you discard")
    assert "opening: worth 40 or more · " in opening_lines(g.view(0), Style(False))[0]
    other = deal(pack(MINIMUM), "10H 10S 10D JC JS JD 2C 3D 4S 6H",
                 "KC 5C 2D 3S 4H 6D 7S 8C 10C JH", FILLER[1], stock="KD QH")
    for move in ("draw", "meld 10H 10S 10D", "meld JC JS JD", "discard KD", "draw"):
        other.apply(move)
    why = other.check("add 10C to m1")
    assert why.code == "add/not-opened"
    assert why.sentence == ("you may lay off only once you have opened (laid melds worth 40 "
                            "or more in one turn)")
    assert "contract" not in why.sentence


def test_before_opening_keys_without_an_opening_condition_are_refused_at_their_line():
    for extra, where in (("initial_meld: {take_before: false}\n", "initial_meld.take_before"),
                         ("pile: {taken_melded: until_opened}\n", "pile.taken_melded"),
                         ("initial_meld: {wild_as_card: true}\n", "initial_meld.wild_as_card")):
        with pytest.raises(RulePackError) as e:
            pack(extra)
        assert "contract_test.yaml:3:" in str(e.value) and f"{where}:" in str(e.value)
        assert "would change nothing" in str(e.value) or "no meld's points" in str(e.value)


# --------------------------------------------------------------------------- bad saves
def _save_of(p, moves, players=3, **stack):
    g = deal(p, "5H 5S 5D 9C 9S 9D 2C 3D 4S 6H", *FILLER[:players - 1], **stack)
    for move in moves:
        g.apply(move)
    return g, json.loads(g.to_json())


@pytest.mark.parametrize("field, value, named", [
    ("opened", [True, "yes", False], "opened[1]"),
    ("opened", [True, False], "opened"),
    ("pending", [99], "pending"),
    ("pending", ["m1"], "pending[0]"),
    ("withdrew", "no", "withdrew"),
])
def test_a_save_with_a_bad_contract_field_is_refused_naming_it(field, value, named):
    p = pack(CONTRACT)
    _, d = _save_of(p, ["draw", "meld 5H 5S 5D"], stock="KD")
    d[field] = value
    with pytest.raises(meldkit.SaveError, match=re.escape(named)):
        GameState.from_json(json.dumps(d), pack=p)


@pytest.mark.parametrize("field, value, named", [
    ("buys", [0, 0, 0, 9], "buys[3]"),
    ("buy_for", 7, "buy_for"),
    ("buy_for", None, "buy_for"),
    ("discarder", 2, "current"),
    ("buys", [0, 0, 0], "buys"),
])
def test_a_save_with_a_bad_buying_field_is_refused_naming_it(field, value, named):
    p = pack(BUY)
    g = _buy_game()
    g.apply("draw")  # the buy phase: seat 2 asked, seat 1 waiting
    d = json.loads(g.to_json())
    d[field] = value
    with pytest.raises(meldkit.SaveError, match=re.escape(named)):
        GameState.from_json(json.dumps(d), pack=g.pack)
    assert p.digest == g.pack.digest


@pytest.mark.parametrize("field, value, named", [
    ("dropped", [20, 99, None, None], "dropped"),
    ("dropped", [20, 20, 20, None], "dropped"),
    ("eliminated", [True, False, False, False], "eliminated"),
    ("laid", [[1, 0]] * 4, "laid"),
])
def test_a_save_with_a_bad_drop_elimination_or_laid_field_is_refused_naming_it(field, value,
                                                                               named):
    p = pack(DROP)
    g = deal(p, "5H 5S 5D 9C 9S 9D 2C 3D 4S 6H", *FILLER, stock="KD QH")
    g.apply("drop")
    d = json.loads(g.to_json())
    d[field] = value
    with pytest.raises(meldkit.SaveError, match=re.escape(named)):
        GameState.from_json(json.dumps(d), pack=p)


def test_a_withdraw_or_drop_that_cannot_be_played_is_refused_with_its_reason():
    g = deal(pack(CONTRACT), "5H 5S 5D 9C 9S 9D 2C 3D 4S 6H", *FILLER[:2], stock="KD")
    assert g.check("drop").code == "drop/not-allowed"
    assert g.check("buy").code == "turn/wrong-phase"
    g.apply("draw")
    assert g.check("withdraw").code == "withdraw/nothing-pending"
    with pytest.raises(meldkit.NotationError):
        g.apply("withdraw 5H")


def test_an_offered_first_upcard_owed_at_once_is_offered_only_to_a_player_who_can_use_it():
    """``pile.first_upcard: offer`` with ``taken_melded``: the upcard must be melded or laid
    off in that turn, so a player who could not is offered only the pass (taking it once
    left a player with no legal move, and the hand ended void, in most random hands)."""
    p = meldkit.load_pack_text("extends: rummy\nname: offered\n"
                               "pile: {first_upcard: offer, taken_melded: always}\n",
                               filename="offered.yaml")
    kings = deal(p, "KC KD 2S 4H 6C 8D 10S QH 3C 5D", "2C 4D 6S 8H 10C QD 3S 5H 7C 9D",
                 upcard="KS")
    assert legal(kings) == ["pass", "take"]
    kings.apply("take")
    assert legal(kings) == ["meld KC KD KS"]  # owed at once
    none = deal(p, "2S 4H 6C 8D 10S QH 3C 5D 7S 9H", "2C 4D 6S 8H 10C QD 3S 5H 7C 9D",
                upcard="KS")
    assert legal(none) == ["pass"]
    assert none.check("take") is not None and saved(none) == none
    endings = []
    for seed in range(12):
        g = meldkit.new_game(p, players=2, seed=seed)
        rng = random.Random(seed)
        while not g.is_over and len(g.hand_results) < 3:
            g.apply(rng.choice(g.legal_actions()))
        endings += [h.ended_by for h in g.hand_results]
    assert "no_legal_move" not in endings and endings.count("went_out") > len(endings) // 2


def test_the_search_for_an_opening_is_bounded_on_a_hostile_pack():
    """fuzz_packs (seed 3444): rummy 500 with an all-at-once opening — a deep take asks,
    for each card under the top, whether an opening holding it can be made from the hand
    and the cards above it, and the unbounded search ran for minutes.  It is bounded per
    move (past the bound the take is refused), and play goes on."""
    import time

    p = meldkit.load_pack_text("extends: rummy_500\ninitial_meld:\n  all_at_once: true\n",
                               filename="all_at_once_500.yaml")
    worst = 0.0
    for seed, players in ((0, 2), (1, 4)):
        g = meldkit.new_game(p, players=players, seed=seed)
        rng = random.Random(seed)
        for _ in range(250):
            if g.is_over:
                break
            start = time.process_time()
            g.apply(rng.choice(g.legal_actions()))
            worst = max(worst, time.process_time() - start)
    assert worst < 2.0, worst


def _overlapping(kinds: str, contract: str, name: str) -> meldkit.RulePack:
    return meldkit.load_pack_text(
        f"meldkit: 1\nextends: contract_rummy\nname: {name}\n"
        "deck: {decks: 2, jokers: 4, decks_by_players: null, jokers_by_players: null}\n"
        f"melds:\n  kinds:\n{kinds}initial_meld: {{melds: {contract}}}\nschedule: []\n"
        "game: {hands: 1}\n", filename=f"{name}.yaml")


def test_a_meld_laid_toward_the_contract_takes_the_kind_it_covers_and_grows_as_it():
    """A Phase 10 author's finding: four wild cards laid as the contract's run were kept
    as the set their cards also form (the first kind listed), so the run took an 8 of
    clubs beside an 8 of diamonds and refused the 9 of diamonds."""
    from meldkit.testing import stacked_game

    pack = _overlapping(
        "    - {name: set, type: set, min_size: 3, max_wilds: 4, all_wild: true}\n"
        "    - {name: run, type: run, min_size: 4, max_wilds: 4, all_wild: true}\n",
        "[set, run]", "all_wild_contract")
    g = stacked_game(pack, 3, hands={0: "JK JK JK JK 5C 5D 5H 8D 9D 8C".split()},
                     upcard="2S", stock=["KH"])
    for move in ("draw", "meld JK JK JK JK", "meld 5C 5D 5H"):
        g.apply(move)
    assert g.opened[0]
    assert [(m["kind"], m["cards"]) for m in g.view(0)["melds"]] == [
        ("run", ["JK", "JK", "JK", "JK"]), ("set", ["5C", "5D", "5H"])]
    g.apply("add 8D to m1")
    assert g.check("add 9D to m1") is None
    assert g.check("add 8C to m1").code == "add/does-not-fit"
    again = GameState.from_json(g.to_json(), pack=pack)  # a save keeps the kind
    assert again.view(0)["melds"] == g.view(0)["melds"]
    assert again.check("add 9D to m1") is None


def test_the_view_names_what_the_contract_still_needs_with_overlapping_kinds():
    """Five of a kind covers a contract's set of five before its pair (the most demanding
    kind first), so the view asks for the pair, as the legal moves do; once a player has
    opened they need nothing, and a seat not to move needs the whole contract."""
    from meldkit.testing import stacked_game

    pack = _overlapping("    - {name: pair, type: set, min_size: 2}\n"
                        "    - {name: five, type: set, min_size: 5}\n",
                        "[five, pair]", "overlapping_contract")
    g = stacked_game(pack, 3, hands={0: "5C 5C 5D 5H 5S 9C 9D 2H 3H 4H".split()},
                     upcard="8S", stock=["KH"])
    g.apply("draw")
    g.apply("meld 5C 5C 5D 5H 5S")
    view = g.view(0)
    assert view["contract"]["needs"] == ["pair"]
    assert [m["kind"] for m in view["melds"]] == ["five"]
    assert [str(a) for a in g.legal_actions()] == ["meld 9C 9D", "withdraw"]
    assert g.view(1)["contract"]["needs"] == ["five", "pair"]  # (as the pack writes it)
    g.apply("meld 9C 9D")
    assert g.opened[0] and g.view(0)["contract"]["needs"] == []
    assert [m["kind"] for m in g.view(1)["melds"]] == ["five", "pair"]
