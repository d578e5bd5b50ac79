"""Contract Rummy: one scenario test per clause of the rules of record
(docs/games/contract_rummy.md, CR-1 … CR-15), from stacked decks and moves in notation.

A stacked deck deals, top first, the first player's hand (seat 0 here), then each next
seat's, the upcard, then the top of the stock; ``meldkit.testing.stacked_game`` fills the
cards a test does not name with cards that make no meld with the hand. A deal other than
the first is stacked on its own pack (``pack.for_deal(n)``: the schedule's item merged over
the pack, what the game plays in deal ``n``); the whole seven deals are played by greedy
bots.
"""

from __future__ import annotations

import functools

import pytest

import meldkit
from meldkit import GameState, SetupError
from meldkit.bots import make_bot
from meldkit.testing import refusal, stacked_game

PACK = meldkit.load_pack("contract_rummy")
JOKER = 52  # the joker's card kind
CONTRACTS = [["set", "set"], ["set", "run"], ["run", "run"], ["set", "set", "set"],
             ["set", "set", "run"], ["set", "run", "run"], ["run", "run", "run"]]


def deal(hands: dict[int, str], players: int = 3, upcard: str = "QD", stock: str = "",
         deal_number: int = 1, seed: int = 1):
    """A game of ``players`` whose deal ``deal_number`` is stacked: ``hands`` by seat (card
    codes, the rest filler), the upcard, the top of the stock; seat 0 plays first."""
    pack = PACK.for_deal(deal_number)
    return stacked_game(pack, players, hands={s: h.split() for s, h in hands.items()},
                        upcard=upcard, stock=stock.split(), seed=seed)


def play(g, *moves: str) -> None:
    for move in moves:
        g.apply(move)


def legal(g) -> list[str]:
    return sorted(str(a) for a in g.legal_actions())


def melds(g) -> list[tuple[str, int, list[str]]]:
    return [(m["id"], m["owner"], m["cards"]) for m in g.view(0)["melds"]]


def draw(g) -> str:
    """The player to move draws from the stock, nobody buying the discard passed by; the
    card drawn."""
    p = g.current_player
    before = list(g.view(p)["hand"])
    g.apply("draw")
    while g.phase == "buy":
        g.apply("pass")
    assert g.current_player == p
    after = list(g.view(p)["hand"])
    for card in before:
        after.remove(card)
    (drawn,) = after
    return drawn


def draw_and_throw_back(g, turns: int) -> list[str]:
    """``turns`` turns of: draw from the stock (nobody buys), discard the card drawn."""
    drawn = []
    for _ in range(turns):
        card = draw(g)
        g.apply(f"discard {card}")
        drawn.append(card)
    return drawn


@functools.cache
def whole_game(players: int, seed: int):
    """A game between greedy bots: each deal's start (deal number, first player, contract,
    hand sizes, pile, stock), the finished game, and the state one action before its end
    with that action."""
    g = meldkit.new_game(PACK, players=players, seed=seed)
    bots = [make_bot("greedy", seed=seed + seat) for seat in range(players)]
    starts, last = [], None
    while not g.is_over:
        if not starts or starts[-1]["deal"] != g.hand_number:
            view = g.view(0)
            starts.append({"deal": g.hand_number, "first": g.current_player,
                           "contract": view["contract"]["melds"], "hands": view["hand_sizes"],
                           "pile": view["pile"]["cards"], "stock": view["stock"],
                           "buys": list(g.buys), "bought": [0] * players})
        action = bots[g.current_player].choose(g)
        if str(action) == "buy":
            starts[-1]["bought"][g.current_player] += 1
        if g.hand_number == 7:
            last = (g.clone(), action)
        g.apply(action)
    return starts, g, last


def ends_game_by_going_out(players: int = 4) -> tuple[GameState, object]:
    """The state one action before the end of a whole game whose seventh deal ends by a
    player going out, and that action."""
    for seed in range(10):
        _, g, (before, action) = whole_game(players, seed)
        if g.hand_results[-1].ended_by == "went_out":
            return before, action
    raise AssertionError("no game of ten ends its seventh deal by going out")


# --------------------------------------------------------------------------- the table


def test_CR_1_three_to_eight_players_each_playing_alone():
    for players in range(3, 9):
        g = meldkit.new_game(PACK, players=players, seed=players)
        assert (players, list(range(players))) == (g.n_teams, g.team_of)
    for players in (2, 9):
        with pytest.raises(SetupError):
            meldkit.new_game(PACK, players=players, seed=1)


@pytest.mark.parametrize(("players", "decks", "jokers"), [(3, 2, 1), (4, 2, 1), (5, 3, 2),
                                                          (8, 3, 2)])
def test_CR_2_a_double_pack_and_one_joker_for_three_or_four_a_triple_and_two_for_more(
        players, decks, jokers):
    g = meldkit.new_game(PACK, players=players, seed=players)
    assert len(g.kind_of) == 52 * decks + jokers == (105 if players < 5 else 158)
    assert [decks] * 52 + [jokers] == [g.kind_of.count(k) for k in range(53)]
    view = g.view(0)
    assert (1, len(g.kind_of) - 10 * players - 1) == (len(view["pile"]["cards"]), view["stock"])


def test_CR_2_a_card_may_appear_twice_and_both_copies_are_dealt():
    g = deal({0: "5H 5H 5S", 1: "JK"}, players=4)
    assert 2 == g.view(0)["hand"].count("5H") and "JK" in g.view(1)["hand"]


def test_CR_3_the_first_player_begins_and_play_goes_to_the_left():
    g = deal({}, players=4)
    seen = []
    for _ in range(5):
        seen.append(g.current_player)
        draw_and_throw_back(g, 1)
    assert [0, 1, 2, 3, 0] == seen


def test_CR_3_each_deal_begins_one_seat_further_left():
    starts, _, _ = whole_game(4, 0)
    firsts = [s["first"] for s in starts]
    assert [(firsts[0] + i) % 4 for i in range(7)] == firsts


def test_CR_3_a_game_is_seven_deals():
    starts, g, _ = whole_game(4, 0)
    assert ([1, 2, 3, 4, 5, 6, 7], 7, True) == (
        [s["deal"] for s in starts], len(g.hand_results), g.is_over)


def test_CR_3_resolved_the_first_dealer_is_chosen_by_lot():
    firsts = {meldkit.new_game(PACK, players=3, seed=s).current_player for s in range(30)}
    assert {0, 1, 2} == firsts


@pytest.mark.parametrize("players", [3, 4, 5, 8])
def test_CR_4_ten_cards_in_the_first_four_deals_and_twelve_in_the_last_three(players):
    total = 105 if players < 5 else 158
    for n, size in enumerate([10, 10, 10, 10, 12, 12, 12], start=1):
        g = meldkit.new_game(PACK.for_deal(n), players=players, seed=n)
        view = g.view(0)
        assert [size] * players == view["hand_sizes"], n
        assert (1, total - size * players - 1) == (len(view["pile"]["cards"]), view["stock"])


def test_CR_4_the_seven_deals_of_a_game_deal_ten_then_twelve_cards():
    starts, _, _ = whole_game(4, 0)
    assert [[10] * 4] * 4 + [[12] * 4] * 3 == [s["hands"] for s in starts]
    assert all(len(s["pile"]) == 1 and s["stock"] == 105 - 4 * s["hands"][0] - 1
               for s in starts)


def test_CR_4_a_stacked_deck_deals_seat_by_seat_then_the_upcard():
    hands = {0: "5H 5S 5D 9C 9S 9D 2C 3D 4S 6H", 1: "KC KD KS 7C 7D 7S 5C 9H 10D JH",
             2: "AS 2S 3S 4S 6S 7H 8S 9S 10S QC"}
    g = deal(hands, upcard="KH", stock="8H")
    for seat, hand in hands.items():
        assert sorted(hand.split()) == sorted(g.view(seat)["hand"])
    assert ["KH"] == g.view(0)["pile"]["cards"]
    assert "8H" == draw(g)


def test_CR_5_each_deals_contract_is_the_published_table():
    starts, _, _ = whole_game(4, 0)
    assert CONTRACTS == [s["contract"] for s in starts]
    assert CONTRACTS == [PACK.for_deal(n).spec.initial_meld.melds for n in range(1, 8)]


def test_CR_5_deal_1_two_sets_a_run_is_not_the_contract():
    g = deal({0: "5H 5S 5D 9C 9S 9D 4H 5C 6H 7H"}, stock="KD")
    g.apply("draw")
    assert {"meld 5D 5H 5S", "meld 9C 9D 9S"} <= set(legal(g))
    assert "meld/not-in-contract" == refusal(g, "meld 4H 5H 6H 7H").code
    play(g, "meld 5H 5S 5D", "meld 9C 9S 9D")
    assert g.opened[0]


def test_CR_5_deal_2_a_set_and_a_run_not_a_second_set():
    g = deal({0: "5H 5S 5D 9C 9S 9D 6H 7H 8H 9H"}, stock="KD", deal_number=2)
    play(g, "draw", "meld 5H 5S 5D")
    assert not g.opened[0]
    assert "meld/not-in-contract" == refusal(g, "meld 9C 9S 9D").code  # the set is laid already
    g.apply("meld 6H 7H 8H 9H")
    assert g.opened[0]


def test_CR_5_deal_3_two_runs():
    g = deal({0: "AS 2S 3S 4S JH QH KH AH 9C 9D"}, stock="9S", deal_number=3)
    g.apply("draw")
    assert "meld/not-in-contract" == refusal(g, "meld 9C 9D 9S").code
    play(g, "meld AS 2S 3S 4S", "meld JH QH KH AH")
    assert g.opened[0]


def test_CR_5_deal_4_three_sets():
    g = deal({0: "5H 5S 5D 9C 9S 9D KC KD 2C 4H"}, stock="KS", deal_number=4)
    play(g, "draw", "meld 5H 5S 5D", "meld 9C 9S 9D")
    assert not g.opened[0] and "meld KC KD KS" in legal(g)
    g.apply("meld KC KD KS")
    assert g.opened[0]


def test_CR_5_deal_5_two_sets_and_a_run():
    g = deal({0: "5H 5S 5D 9C 9S 9D 3C 4C 5C 6C JH QS"}, stock="KD", deal_number=5)
    play(g, "draw", "meld 5H 5S 5D", "meld 9C 9S 9D")
    assert not g.opened[0]
    g.apply("meld 3C 4C 5C 6C")
    assert g.opened[0]


def test_CR_5_deal_6_a_set_and_two_runs():
    g = deal({0: "5H 5S 5D 3C 4C 5C 6C 8H 9H 10H JH KS"}, stock="2D", deal_number=6)
    play(g, "draw", "meld 5H 5S 5D", "meld 3C 4C 5C 6C")
    assert not g.opened[0]
    g.apply("meld 8H 9H 10H JH")
    assert g.opened[0]


def test_CR_5_deal_7_three_runs_out_of_twelve_cards():
    g = deal({0: "3C 4C 5C 6C 8H 9H 10H JH 2S 3S 4S 5S"}, stock="KD", deal_number=7)
    assert [12, 12, 12] == g.view(0)["hand_sizes"]
    play(g, "draw", "meld 3C 4C 5C 6C", "meld 8H 9H 10H JH", "meld 2S 3S 4S 5S")
    assert g.opened[0] and ["KD"] == g.view(0)["hand"]


# --------------------------------------------------------------------------- the turn


def test_CR_6_a_set_is_three_or_more_of_a_rank_a_suit_may_repeat():
    g = deal({0: "5H 5H 5S 9C 9S 9D 9H 9C 2C 4H"}, players=4, stock="KD")
    g.apply("draw")
    assert {"meld 5H 5H 5S", "meld 9C 9C 9D 9H 9S"} <= set(legal(g))
    assert "meld/not-a-meld" == refusal(g, "meld 5H 5S").code


def test_CR_6_a_run_is_four_or_more_of_one_suit():
    g = deal({0: "4H 5H 6H 7H 8H 9S 2C 3D JS KC"}, stock="QS", deal_number=3)
    g.apply("draw")
    assert {"meld 4H 5H 6H 7H", "meld 4H 5H 6H 7H 8H"} <= set(legal(g))
    assert "meld/not-a-meld" == refusal(g, "meld 4H 5H 6H").code  # three are not enough
    assert "meld/not-a-meld" == refusal(g, "meld 6H 7H 8H 9S").code  # one suit


def test_CR_6_the_ace_is_high_or_low_but_not_round_the_corner():
    g = deal({0: "AS 2S 3S 4S JH QH KH AH 2H 9D"}, stock="9C", deal_number=3)
    g.apply("draw")
    assert {"meld AS 2S 3S 4S", "meld JH QH KH AH"} <= set(legal(g))
    assert "meld/not-a-meld" == refusal(g, "meld QH KH AH 2H").code


def test_CR_6_the_joker_is_wild():
    g = deal({0: "5H 5S JK 9C 9S 9D 2C 3D 4S 6H"}, stock="KD")
    g.apply("draw")
    assert "meld 5H 5S JK" in legal(g)
    g = deal({0: "JH QH KH JK AS 2S 3S 9D 9C 5H"}, stock="9S", deal_number=3)
    g.apply("draw")
    assert {"meld JH QH KH JK", "meld AS 2S 3S JK"} <= set(legal(g))


def test_CR_6_resolved_at_most_two_jokers_in_a_meld_both_of_a_triple_pack():
    g = deal({0: "5H JK JK 9C 9S 9D 2C 4D 6S 8C"}, players=5, stock="KD")
    g.apply("draw")
    assert {"meld 5H JK JK", "meld 9C 9D 9S JK JK"} <= set(legal(g))
    g = deal({0: "4H JK JK 7H 9S 9D 9H 2C 6S 10C"}, players=5, stock="KD", deal_number=2)
    g.apply("draw")
    assert {"meld 4H JK JK 7H", "meld 7H JK 9H JK"} <= set(legal(g))


def test_CR_7_draw_from_the_stock_or_take_the_top_discard():
    g = deal({0: "KD", 1: "2H"}, stock="QH 7S")
    assert ("draw", ["draw", "take"]) == (g.phase, legal(g))
    assert "pile/cannot-take" == refusal(g, "take QD").code  # the top card only, no deep take
    g.apply("take")
    assert "QD" in g.view(0)["hand"] and [] == g.view(0)["pile"]["cards"]
    g.apply("discard KD")
    assert (1, "KD") == (g.current_player, g.view(1)["pile"]["top"])
    assert "QH" == draw(g)


def test_CR_7_a_discard_ends_the_turn():
    g = deal({0: "KD"}, stock="QH")
    play(g, "draw", "discard KD")
    assert (1, "draw", "KD") == (g.current_player, g.phase, g.view(1)["pile"]["top"])
    assert "turn/wrong-phase" == refusal(g, "discard " + g.view(1)["hand"][0]).code


def test_CR_7_resolved_a_card_taken_from_the_pile_may_be_discarded_again():
    g = deal({0: "KD"}, stock="QH")
    g.apply("take")
    assert "discard QD" in legal(g)
    g.apply("discard QD")
    assert (1, "QD") == (g.current_player, g.view(1)["pile"]["top"])


def test_CR_8_the_contracts_melds_are_pending_until_the_whole_contract_is_down():
    g = deal({0: "5H 5S 5D 9C 9S 9D 2C 3D 4S 6H"}, stock="KD")
    play(g, "draw", "meld 5H 5S 5D")
    assert ([1], [False] * 3) == (g.pending, g.opened)
    assert [True] == [m["pending"] for m in g.view(1)["melds"]]
    assert g.view(0)["contract"]["needs"] == ["set"]
    assert not [a for a in legal(g) if a.startswith("discard")]  # the contract first
    assert "contract/pending" == refusal(g, "discard KD").code
    g.apply("meld 9C 9S 9D")
    assert ([], [True, False, False]) == (g.pending, g.opened)
    assert [False, False] == [m["pending"] for m in g.view(1)["melds"]]
    g.apply("discard KD")
    assert 1 == g.current_player


def test_CR_8_resolved_withdraw_takes_the_pending_melds_back_and_ends_melding():
    g = deal({0: "5H 5S 5D 9C 9S 2H 2C 3D 4S 6H"}, stock="KD")
    play(g, "draw", "meld 5H 5S 5D")
    assert ["withdraw"] == legal(g)  # no second set: only taking the first back
    g.apply("withdraw")
    assert ([], 11, False) == (melds(g), len(g.view(0)["hand"]), g.opened[0])
    assert all(a.startswith("discard") for a in legal(g))  # no melding again this turn
    g.apply("discard KD")
    assert (1, [False] * 3) == (g.current_player, g.opened)


def test_CR_8_resolved_no_lay_off_before_ones_own_contract_is_down():
    g = deal({0: "5H 5S 5D 9C 9S 9D 2C 3D 4S 6H", 1: "5C 9H 4D 6S 7C 8D 10D JH KS AH"},
             stock="KD QH")
    play(g, "draw", "meld 5H 5S 5D", "meld 9C 9S 9D", "discard KD")
    assert "QH" == draw(g)  # seat 1 holds the fourth 5 and 9, and has not opened
    assert not [a for a in legal(g) if a.startswith("add")]
    assert refusal(g, "add 5C to m1").code.startswith("add/")


def test_CR_9_after_opening_lay_off_on_anyones_meld_in_that_turn_or_later():
    g = deal({0: "5H 5S 5D 9C 9S 9D 5C 3D 4S 6H",
              1: "KC KD KS 7C 7D 7S 9H 2S 3S 4D", 2: "AC 2H 3H 4H 6C 8C 10C QC JD 6D"},
             stock="QH KH 8S 8H 2C")
    play(g, "draw", "meld 5H 5S 5D", "meld 9C 9S 9D")
    assert "add 5C to m1" in legal(g)  # in the turn of opening, on their own meld
    play(g, "add 5C to m1", "discard QH")
    assert "KH" == draw(g)
    play(g, "meld KC KD KS", "meld 7C 7D 7S")  # seat 1 opens
    play(g, "add 9H to m2", "add KH to m3", "discard 2S")  # on seat 0's meld, and its own
    assert [("m1", 0, ["5C", "5D", "5H", "5S"]), ("m2", 0, ["9C", "9D", "9H", "9S"]),
            ("m3", 1, ["KC", "KD", "KH", "KS"]), ("m4", 1, ["7C", "7D", "7S"])] == melds(g)


def test_CR_9_a_run_grows_at_either_end():
    g = deal({0: "4H 5H 6H 7H 8S 9S 10S JS 3H 8H", 1: "QS 2C 2D 3C 3D 5C 5D KC KD AC"},
             stock="AH 9C 7S", deal_number=3)
    play(g, "draw", "meld 4H 5H 6H 7H", "meld 8S 9S 10S JS")
    assert {"add 3H to m1", "add 8H to m1"} <= set(legal(g))
    play(g, "add 3H to m1", "add 8H to m1")
    assert ("m1", 0, ["3H", "4H", "5H", "6H", "7H", "8H"]) == melds(g)[0]  # as it lies


def test_CR_9_resolved_after_opening_further_melds_of_either_kind():
    g = deal({0: "5C 5S 5D 9C 9S 9D 4H 5H 6H 7H"}, stock="KD")
    g.apply("draw")
    assert "meld/not-in-contract" == refusal(g, "meld 4H 5H 6H 7H").code  # not in the contract
    play(g, "meld 5C 5S 5D", "meld 9C 9S 9D")
    assert "meld 4H 5H 6H 7H" in legal(g)  # once opened, a run too
    g.apply("meld 4H 5H 6H 7H")
    assert ("m3", 0, ["4H", "5H", "6H", "7H"]) == melds(g)[2]
    assert ["KD"] == g.view(0)["hand"]


def test_CR_10_a_discard_passed_by_is_offered_in_turn_and_bought_with_a_penalty_card():
    g = deal({0: "KD"}, players=4, stock="QH 7S 8D")
    play(g, "draw", "discard KD")  # seat 0 draws QH and throws the KD
    assert (1, ["draw", "take"]) == (g.current_player, legal(g))
    g.apply("draw")  # seat 1 does not take it: seats 2 and 3 are asked, in turn
    assert ("buy", 2, ["buy", "pass"]) == (g.phase, g.current_player, legal(g))
    g.apply("pass")
    assert ("buy", 3) == (g.phase, g.current_player)
    g.apply("buy")
    hand3 = g.view(3)["hand"]
    assert ("KD" in hand3, "7S" in hand3, len(hand3)) == (True, True, 12)  # with a penalty
    assert ("play", 1, [0, 0, 0, 1]) == (g.phase, g.current_player, g.buys)
    assert "8D" in g.view(1)["hand"] and 11 == len(g.view(1)["hand"])  # seat 1's own draw


def test_CR_10_the_nearest_in_turn_after_the_player_to_draw_gets_it_never_the_discarder():
    g = deal({1: "KD"}, players=4, stock="QH 7S 8D 9D 10H")
    play(g, "draw", "discard QH")
    assert "7S" == draw(g)
    g.apply("discard KD")  # seat 1 discards; seat 2 draws; seats 3 and 0 are asked
    g.apply("draw")
    assert ("buy", 3) == (g.phase, g.current_player)
    g.apply("pass")
    assert ("buy", 0) == (g.phase, g.current_player)
    g.apply("buy")
    assert ("play", 2, [1, 0, 0, 0]) == (g.phase, g.current_player, g.buys)  # seat 1 never asked


def test_CR_10_a_discard_the_next_player_takes_is_not_offered():
    g = deal({0: "KD"}, players=4, stock="QH")
    play(g, "draw", "discard KD", "take")
    assert ("play", 1, [0, 0, 0, 0]) == (g.phase, g.current_player, g.buys)
    assert "KD" in g.view(1)["hand"]


def test_CR_10_the_first_upcard_is_not_offered():
    g = deal({}, players=4, stock="QH")
    g.apply("draw")
    assert ("play", 0) == (g.phase, g.current_player)


def test_CR_10_resolved_three_buys_a_deal():
    g = deal({}, players=3)
    for _ in range(3):  # seat 2 buys every discard of seat 0 that seat 1 passes by
        g.apply(f"discard {draw(g)}")
        g.apply("draw")
        assert ("buy", 2) == (g.phase, g.current_player)
        g.apply("buy")
        g.apply(f"discard {g.view(1)['hand'][0]}")
        g.apply(f"discard {draw(g)}")
    assert ([0, 0, 3], 10, 16) == (g.buys, len(g.hands[0]), len(g.hands[2]))
    g.apply(f"discard {draw(g)}")
    g.apply("draw")  # seat 2 has no buys left: nobody is asked
    assert ("play", 1) == (g.phase, g.current_player)


def test_CR_10_resolved_every_deal_gives_three_buys_again():
    starts, _, _ = whole_game(4, 0)
    assert all([0, 0, 0, 0] == s["buys"] for s in starts)
    assert any(s["bought"] for s in starts)  # the bots did buy
    assert all(n <= 3 for s in starts for n in s["bought"])


def test_CR_11_going_out_by_melding_every_card_ends_the_deal():
    g = deal({0: "5H 5S 5D 5C 9C 9S 9D 9H KC KD"}, stock="KH")
    play(g, "draw", "meld 5H 5S 5D 5C", "meld 9C 9S 9D 9H", "meld KC KD KH")
    result = g.hand_results[-1]
    assert ("went_out", 0, 2) == (result.ended_by, result.went_out, g.hand_number)


def test_CR_11_going_out_by_laying_off_the_last_card():
    g = deal({0: "5H 5S 5D 9C 9S 9D 9H 5C KC KD"}, stock="KH")
    play(g, "draw", "meld 5H 5S 5D", "meld 9C 9S 9D", "meld KC KD KH", "add 9H to m2")
    assert not g.hand_results and "add 5C to m1" in legal(g)
    g.apply("add 5C to m1")
    assert ("went_out", 0) == (g.hand_results[-1].ended_by, g.hand_results[-1].went_out)


def test_CR_11_going_out_by_discarding_the_last_card():
    g = deal({0: "5H 5S 5D 5C 9C 9S 9D KC KD KH"}, stock="2C")
    play(g, "draw", "meld 5H 5S 5D 5C", "meld 9C 9S 9D", "meld KC KD KH")
    assert not g.hand_results and ["discard 2C"] == legal(g)
    g.apply("discard 2C")
    assert ("went_out", 0) == (g.hand_results[-1].ended_by, g.hand_results[-1].went_out)


# --------------------------------------------------------------------------- end of a deal


def test_CR_12_resolved_when_the_stock_runs_out_the_pile_is_turned_and_play_goes_on():
    g = meldkit.new_game(PACK, players=3, seed=5, options={"first_player": 0})
    stock = g.view(0)["stock"]  # 105 - 30 - 1 = 74
    drawn = draw_and_throw_back(g, stock)
    assert not g.hand_results
    assert ([drawn[-1]], 74) == (g.view(0)["pile"]["cards"], g.view(0)["stock"])  # top stays
    assert ["draw", "take"] == legal(g)


def test_CR_12_resolved_the_turned_pile_is_drawn_from_its_old_bottom():
    g = meldkit.new_game(PACK, players=3, seed=5, options={"first_player": 0})
    upcard = g.view(0)["pile"]["cards"][0]
    drawn = draw_and_throw_back(g, 74)
    assert [upcard, *drawn[:-2]] == draw_and_throw_back(g, 73)


def test_CR_13_the_others_score_their_cards_left_ace_and_joker_15_faces_10():
    g = deal({0: "5H 5S 5D 5C 9C 9S 9D 9H KC KD", 1: "AC AD JK KS QS JS 10S 2H 3H 4H",
              2: "AS 2S 3S 4S 5S 6S 7S 8S 9S 10C"}, stock="KH")
    play(g, "draw", "meld 5H 5S 5D 5C", "meld 9C 9S 9D 9H", "meld KC KD KH")
    result = g.hand_results[-1]
    # seat 1: 15 + 15 + 15 + 4 × 10 + 2 + 3 + 4 = 94; seat 2: 15 + 2 + … + 9 + 10 = 69
    assert (0, -94, -69) == result.net
    assert ((), (("cards_in_hand", 94),), (("cards_in_hand", 69),)) == tuple(
        s.items for s in result.scores)
    assert [0, 94, 69] == g.scores


def test_CR_13_melds_in_the_hand_count_against_it_and_totals_add_up():
    g = deal({0: "5H 5S 5D 5C 9C 9S 9D 9H KC KD", 1: "7C 7D 7S AC 2D 3S 4H 6C 8D 10H"},
             stock="KH")
    g.scores[:] = [4, 10, 0]
    play(g, "draw", "meld 5H 5S 5D 5C", "meld 9C 9S 9D 9H", "meld KC KD KH")
    penalty = -g.hand_results[-1].net[1]
    assert 7 * 3 + 15 + 2 + 3 + 4 + 6 + 8 + 10 == penalty  # the three 7s count too
    assert [4, 10 + penalty] == g.scores[:2]


# --------------------------------------------------------------------------- the game


def test_CR_14_after_the_seventh_deal_the_lowest_total_wins():
    for seed in (0, 1):
        _, g, _ = whole_game(4, seed)
        assert (True, 7) == (g.is_over, len(g.hand_results))
        assert g.scores.count(min(g.scores)) == 1 and g.winner == g.scores.index(min(g.scores))
        assert [] == g.legal_actions()


def test_CR_14_the_lowest_total_wins_not_the_last_to_go_out():
    before, action = ends_game_by_going_out()
    g = before.clone()
    out = g.current_player
    g.scores[:] = [500 if seat == out else 0 for seat in range(4)]
    g.apply(action)
    penalties = [-n for n in g.hand_results[-1].net]
    assert g.is_over and g.hand_results[-1].went_out == out
    assert g.winner == min((p, s) for s, p in enumerate(penalties) if s != out)[1]
    assert g.winner != out


def test_CR_14_resolved_a_tie_for_the_lowest_total_is_a_drawn_game():
    before, action = ends_game_by_going_out()
    probe = before.clone()
    probe.apply(action)
    penalties = [-n for n in probe.hand_results[-1].net]
    out = before.current_player
    other = next(s for s in range(4) if s != out)
    g = before.clone()
    g.scores[:] = [1000] * 4
    g.scores[out], g.scores[other] = penalties[other] + 5, 5  # both end on penalties + 5
    g.apply(action)
    assert g.scores[out] == g.scores[other] == min(g.scores)
    assert (True, 7, None) == (g.is_over, len(g.hand_results), g.winner)


def test_CR_15_resolved_a_deal_still_going_after_600_turns_is_void():
    g = meldkit.new_game(PACK, players=3, seed=5, options={"first_player": 0})
    draw_and_throw_back(g, 599)
    assert not g.hand_results
    draw_and_throw_back(g, 1)
    result = g.hand_results[-1]
    assert ("turn_limit", None, (0, 0, 0)) == (result.ended_by, result.went_out, result.net)
    assert ([0, 0, 0], 2) == (g.scores, g.hand_number)  # it counts as one of the seven
    assert ["set", "run"] == g.view(0)["contract"]["melds"]
