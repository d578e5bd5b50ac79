"""Reserve piles in table-meld packs (issue 24, item 4): ``deal.reserve`` with
``reserve_per: player`` or ``side`` (Buraco's dead piles) — the first of a side to play out
their hand takes the pile as their new hand (after a meld or lay-off they play on; after a
discard it is their next hand), only a player whose pile is taken goes out, and the
``reserve_untaken`` item scores a pile never picked up."""

from __future__ import annotations

import json
import random

import pytest

import meldkit
from meldkit import GameState, RulePackError
from meldkit.testing import check_conformance

RESERVES = """meldkit: 1
extends: rummy
name: rummy_dead_piles
players: {min: 2, max: 4, partners: optional, team_size: 2, min_for_partners: 4,
          partners_by_players: {4: true}}
deck: {decks: 2}
deal: {hand: 7, hand_by_players: null, reserve: 3, reserve_name: dead pile, reserve_per: side}
scoring:
  style: winner_takes_hands
  items:
    - {item: laid}
    - {item: held}
    - {item: reserve_untaken, points: -100}
"""


def pack(text: str = RESERVES):
    return meldkit.load_pack_text(text, filename="rummy_dead_piles.yaml")


def deal(*hands: str, reserves: tuple[str, ...], upcard: str = "QD", stock: str = ""):
    order = [c for hand in hands for c in hand.split()]
    order += [c for r in reserves for c in r.split()] + [upcard, *stock.split()]
    return meldkit.new_game(pack(), players=len(hands), seed=1, options={"first_player": 0},
                            deck_order=order)


HANDS = ("4H 5H 6H 9C 9D 9S KD", "2C 3D 5S 7C 9H JD KS")
RES = ("8S 8D 8C", "4C 6D 10C")


def test_a_hand_melded_out_picks_up_the_dead_pile_and_the_turn_goes_on():
    g = deal("4H 5H 6H 7H 9C 9D 9S", HANDS[1], reserves=RES, stock="8H")
    g.apply("draw")  # 8H: a run of five and a set of three
    assert g.view(0)["reserves"] == [{"holder": 0, "size": 3, "taken": False},
                                     {"holder": 1, "size": 3, "taken": False}]
    assert "8S" not in json.dumps(g.view(1))  # face down: nobody sees the cards
    g.apply("meld 4H 5H 6H 7H 8H")
    g.apply("meld 9C 9D 9S")  # played out: the dead pile is the hand, the turn goes on
    assert not g.hand_results and g.phase == "play" and g.current_player == 0
    assert sorted(g.card_code(c) for c in g.hands[0]) == ["8C", "8D", "8S"]
    assert g.reserve_taken == [True, False] and g.reserves[0] == []
    assert g.view(1)["reserves"][0] == {"holder": 0, "size": 0, "taken": True}
    assert GameState.from_json(g.to_json(), pack=g.pack) == g
    g.apply("meld 8C 8D 8S")  # played out again, the pile taken: out
    assert g.hand_results[0].went_out == 0


def test_only_a_player_whose_pile_is_taken_goes_out_and_an_untaken_pile_costs_its_side():
    g = deal("4H 5H 6H 9C 9D 9S KD", HANDS[1], reserves=("8S 8D 8C", "4C 6D 10C"),
             stock="7H")
    g.apply("draw")  # 7H: 4H 5H 6H 7H 9C 9D 9S KD
    for move in ("meld 4H 5H 6H 7H", "meld 9C 9D 9S"):
        g.apply(move)
    g.apply("discard KD")  # played out by a discard: the dead pile 8S 8D 8C is the next hand
    assert g.reserve_taken == [True, False] and not g.hand_results
    g.apply("draw")
    g.apply("discard 2C")
    g.apply("draw")  # 8C 8D 8S and the card drawn
    g.apply("meld 8C 8D 8S")
    g.apply(next(str(a) for a in g.legal_actions() if a.type == "discard"))  # the pile taken: out
    (hand,) = g.hand_results
    assert (hand.ended_by, hand.went_out) == ("went_out", 0)
    assert hand.final.reserve_taken == (True, False)
    line = {s.team: s for s in hand.scores}
    assert line[1].points("reserve_untaken") == -100
    assert line[0].points("reserve_untaken") == 0
    assert GameState.from_json(g.to_json(), pack=g.pack) == g


def test_dead_piles_per_side_keep_cards_conserved_over_random_play_at_four():
    assert len(meldkit.new_game(pack(), players=4, seed=0).reserves) == 2  # one a side
    assert check_conformance(pack(), players=4, games=3, hands=1) > 0


def test_reserves_are_checked_where_written_and_in_saves():
    with pytest.raises(RulePackError, match=r"deal.reserve_per: side, but a rank-slot pack"):
        meldkit.load_pack_text("extends: pony_tail\ndeal: {reserve_per: side}\n")
    with pytest.raises(RulePackError, match=r"deal.reserve: reserve piles are for packs that "
                       r"meld during play"):
        meldkit.load_pack_text("extends: gin_rummy\ndeal: {reserve: 3}\n")
    g = deal(*HANDS, reserves=RES, stock="KC")
    save = json.loads(g.to_json())
    save["reserve_taken"] = [True, False]  # taken, but its cards still there
    with pytest.raises(meldkit.SaveError, match=r"reserves\[0\]: expected 3 cards, or none"):
        GameState.from_json(json.dumps(save), pack=g.pack)
    plain = json.loads(meldkit.new_game("rummy", players=2, seed=1).to_json())
    plain["reserves"] = [[], []]
    with pytest.raises(meldkit.SaveError, match="this pack deals no reserve piles"):
        GameState.from_json(json.dumps(plain))


def test_the_rules_sheet_says_the_dead_piles():
    from meldkit.rulesheet import rules_sheet

    sheet = rules_sheet(pack())
    assert ("- Then each side is dealt a face-down **dead pile** of 3 cards. When the first "
            "player of the side plays out their hand, the dead pile becomes their hand") in sheet
    assert "- A reserve pile never picked up scores -100 for its side." in sheet


def test_a_resample_deals_the_face_down_piles_anew_and_keeps_what_the_player_saw():
    g = meldkit.new_game(pack(), players=2, seed=3)
    r = g.resample(0, random.Random(5))
    zones, again = g.zone_cards(), r.zone_cards()
    assert sorted(zones["hand:0"]) == sorted(again["hand:0"]) and zones["pile"] == again["pile"]
    assert [len(again[f"reserve:{h}"]) for h in (0, 1)] == [3, 3]
    hidden = sorted(zones["stock"] + zones["hand:1"] + zones["reserve:0"] + zones["reserve:1"])
    assert hidden == sorted(again["stock"] + again["hand:1"] + again["reserve:0"]
                            + again["reserve:1"])
    assert r.view(0) == {**g.view(0)}


def test_a_save_whose_hand_record_has_the_wrong_reserve_piles_is_refused():
    g = deal("4H 5H 6H 7H 9C 9D 9S", HANDS[1], reserves=RES, stock="8H")
    for move in ("draw", "meld 4H 5H 6H 7H 8H", "meld 9C 9D 9S", "meld 8C 8D 8S"):
        g.apply(move)
    save = json.loads(g.to_json())
    assert save["hand_results"][0]["final"]["reserve_taken"] == [True, False]
    for bad in ([True], [True, "no"]):
        save["hand_results"][0]["final"]["reserve_taken"] = bad
        with pytest.raises(meldkit.SaveError, match=r"hand_results\[0\]\.final\.reserve_taken"):
            GameState.from_json(json.dumps(save), pack=g.pack)


def test_a_stacked_deck_names_the_reserve_piles_of_a_table_pack_by_seat_or_by_side():
    from meldkit.testing import stack_deck, stacked_game

    g = stacked_game(pack(), 4, hands={0: ["AH"]}, reserves={1: ["QH", "KS"]}, stock=["QS"])
    assert ["QH", "KS"] == [g.card_code(c) for c in g.reserves[1][:2]]  # side 1's pile
    assert 3 == len(g.reserves[0]) == len(g.reserves[1])
    g.apply("draw")
    assert {"AH", "QS"} <= set(g.view(0)["hand"])  # the named stock comes after the piles
    per_seat = pack(RESERVES.replace("reserve_per: side", "reserve_per: player"))
    g = stacked_game(per_seat, 4, reserves={3: ["QH"]})
    assert "QH" == g.card_code(g.reserves[3][0])
    with pytest.raises(meldkit.SetupError, match="reserves: 2 is not a side 0..1"):
        stack_deck(pack(), 4, reserves={2: ["QH"]})
    with pytest.raises(meldkit.SetupError, match="pack 'rummy' deals no reserves"):
        stack_deck("rummy", 2, reserves={0: ["QH"]})
