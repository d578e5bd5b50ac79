"""Issue 24's keys together (``benchmarks/fuzz_packs.py --combos`` runs the random
campaign): each pack here combines mechanisms built on separate branches — with each other
and with older keys, in both meld models — and must load, keep the conformance invariants
under random play, and end every hand under random and greedy play."""

from __future__ import annotations

import pytest

import meldkit
from meldkit.bots import make_bot
from meldkit.testing import check_conformance

COMBOS = {
    # rank-slot: sides formed at the first pile take, scored on two sheets, with payments
    "sheets_sides_pay": ("""extends: classic_canasta
players: {min: 3, max: 3, counts: [3], partners: never, partners_by_players: null,
          sides_form: first_pile_take}
deck: {decks_by_players: null}
deal: {hand: 13, hand_by_players: null}
turn: {draw_by_players: null}
going_out: {min_books_by_players: null}
game: {target: 5000, target_by_players: null, sheets_end: first}
initial_meld: {minimums_by_players: null}
scoring:
  items: [{item: books}, {item: melded_cards}, {item: bonus_cards, negative_unless: out},
          {item: hand_cards}, {item: going_out}, {item: pay, stake: 1, between: every_pair}]
  sheets: [{name: game}, {name: outs, target: 1000, items: [{item: going_out}]}]
""", 3),
    # table: banned discards, a turned stock card passed on, both kinds of forcing
    "bans_turned_forced": ("""extends: rummy
pile:
  discard_bans: [{cards: [K, Q], unless: going_out}, {cards: ["7H"], unless: book}]
  all_banned: pass
books: {size: 4, kinds: [{name: book, value: 10}]}
going_out: {min_books: 0}
scoring:
  items: [{item: winner_takes}, {item: books}]
turn: {stock_card: turned, turned_passes: next, forced: [turned, discard]}
""", 3),
    # table: a stripped deck whose runs skip the gap, a wild rank turned each deal, jokers
    # won back from melds
    "gaps_turned_wild_win_back": ("""extends: rummy
deck: {ranks: [A, "2", "3", "4", "5", "6", "7", J, Q, K], run_gaps: skip, jokers_per_deck: 2}
cards: {wild: [JK], turned_wild: next_rank, values: {JK: 25}}
melds:
  kinds:
    - {name: set, type: set, min_size: 3, max_wilds: 2}
    - {name: run, type: run, min_size: 3, ace: low, max_wilds: 2}
  lay_off: {onto: any, win_back: true}
""", 2),
    # rank-slot: the pile taken freely, a turn limit, two sheets
    "free_take_limit_sheets": ("""extends: classic_canasta
pile: {take_with: [free, natural_pair], frozen_until_melded: false}
game: {hand_turn_limit: 60, sheets_end: every}
scoring:
  sheets: [{name: first}, {name: second, from_win: 1, target: 3000}]
""", 2),
    # rank-slot: the stock renewed from the pile, with banned discards passing
    "renewal_bans_rank_slot": ("""extends: pony_canasta
stock: {when_empty: shuffle_pile}
pile:
  discard_bans: [{cards: ["7"], unless: book_of_rank}, {cards: [JK, "2"], unless: going_out}]
  all_banned: pass
""", 2),
    # table: the stock renewed from the pile beside banned discards and a turn limit
    "renewal_bans_table": ("""extends: rummy
stock: {when_empty: shuffle_pile}
pile:
  discard_bans: [{cards: [A, "2", "3", "4", "5", "6", "7", "8"], unless: going_out}]
  all_banned: lift
game: {hand_turn_limit: 120}
""", 4),
    # table: books whose kinds say what they still take, a wild rank turned each deal
    "book_adds_turned_wild": ("""extends: rummy
deck: {jokers_per_deck: 2}
cards: {wild: [JK], turned_wild: rank, values: {JK: 25}}
melds:
  kinds:
    - {name: set, type: set, min_size: 3, max_wilds: 2}
    - {name: run, type: run, min_size: 3, ace: low, max_wilds: 2}
books:
  size: 4
  kinds: [{name: clean, max_wilds: 0, value: 50, adds: naturals},
          {name: dirty, min_wilds: 1, value: 30, adds: none}]
scoring:
  items: [{item: winner_takes}, {item: books}]
""", 3),
    # rank-slot: book kinds' adds beside sides formed and a turn limit
    "book_adds_sides_limit": ("""extends: pony_canasta
players: {min: 3, max: 4, counts: [3, 4], partners: never, partners_by_players: null,
          sides_form: first_pile_take}
books:
  kinds: [{name: natural, max_wilds: 0, value: 500, adds: naturals},
          {name: mixed, min_wilds: 1, value: 300, adds: none}]
game: {hand_turn_limit: 80}
""", 4),
    # table: last turns after going out, beside a turned stock card, forcing, a stock that
    # ends the hand at once and the lowest count winning it
    "last_turns_turned_stock_end": ("""extends: rummy
going_out: {last_turns: true, requires_discard: false}
deal: {upcard: false}
turn: {stock_card: turned, forced: [turned]}
stock: {when_empty: end_at_once, empty_winner: lowest_count}
game: {hand_turn_limit: 120}
""", 4),
    # table: last turns with the melds kept in the hand (the whole hand at once), wild
    # cards by deal and the unmelded cards counted (Three Thirteen's shape)
    "last_turns_at_once_by_deal": ("""extends: rummy
going_out: {last_turns: true, requires_discard: true}
initial_meld: {all_at_once: true}
melds:
  kinds:
    - {name: set, type: set, min_size: 3, max_wilds: 4}
    - {name: run, type: run, min_size: 3, max_wilds: 4}
  lay_off: {onto: none}
scoring:
  style: penalty
  items: [{item: penalty, count: unmelded}]
game: {hands: 3, winner: lowest}
schedule:
  - {deal: {hand: 3}, cards: {wild: ["3"]}}
  - {deal: {hand: 4}, cards: {wild: ["4"]}}
  - {deal: {hand: 5}, cards: {wild: ["5"]}}
""", 3),
}


def _pack(name: str):
    return meldkit.load_pack_text(COMBOS[name][0], filename=f"{name}.yaml")


@pytest.mark.parametrize("name", sorted(COMBOS))
def test_a_combination_keeps_the_invariants_under_random_play(name):
    assert check_conformance(_pack(name), players=COMBOS[name][1], games=1, seed=3, hands=2,
                             max_actions=20_000) > 0


@pytest.mark.parametrize("name", sorted(COMBOS))
def test_every_hand_of_a_combination_ends_under_greedy_play(name):
    pack, players = _pack(name), COMBOS[name][1]
    game = meldkit.new_game(pack, players=players, seed=4)
    bots = [make_bot("greedy", seed=p) for p in range(players)]
    for _ in range(2):
        hands, decisions = len(game.hand_results), 0
        while not game.is_over and len(game.hand_results) == hands:
            game.apply(bots[game.current_player].choose(game))
            decisions += 1
            assert decisions < 20_000, f"a hand of {name} has not ended"
        assert game.hand_results[-1].ended_by != "no_legal_move"
        assert meldkit.GameState.from_json(game.to_json(), pack=pack) == game
        if game.is_over:
            break
