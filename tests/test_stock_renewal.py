"""A new stock from the discard pile (issue 24, item 2): ``stock.when_empty`` turns the
pile but its top card over (``turn_pile``) or shuffles it (``shuffle_pile``) into a new
stock when a turn ends with the stock empty, in both meld models; the rank-slot model only
where every turn draws two cards or more (its hands have no turn limit); the rules sheet
says it, and a resample deals the shuffled cards anew among their own places."""

from __future__ import annotations

import random

import pytest

import meldkit
from meldkit import GameState, RulePackError
from meldkit.ai.resample import Determinizer
from meldkit.rulesheet import rules_sheet
from meldkit.testing import check_conformance


def table_pack(how: str) -> meldkit.RulePack:
    return meldkit.load_pack_text(f"extends: rummy\nname: rummy_{how}\n"
                                  f"stock: {{when_empty: {how}}}\n", filename="r.yaml")


def rank_slot_pack(how: str) -> meldkit.RulePack:
    return meldkit.load_pack_text(f"extends: classic_canasta\nname: cc_{how}\n"
                                  f"stock: {{when_empty: {how}}}\n"
                                  "turn: {draw: 2, draw_by_players: null}\n", filename="c.yaml")


def play_to_renewal(pack, players: int, seed: int = 0):
    """A random game played until its stock is renewed: ``(state before the last action,
    state after it)``."""
    g = meldkit.new_game(pack, players=players, seed=seed)
    rng = random.Random(seed)
    for _ in range(5000):
        acts = g.legal_actions()
        before = g.clone()
        g.apply(acts[rng.randrange(len(acts))])
        if g.hand_number == before.hand_number and len(g.stock) > len(before.stock) + 1:
            return before, g
    raise AssertionError("no renewal")


@pytest.mark.parametrize("pack, players", [(table_pack, 2), (rank_slot_pack, 2)])
def test_a_turn_ending_with_the_stock_empty_renews_it_from_the_pile(pack, players):
    before, after = play_to_renewal(pack("turn_pile"), players)
    assert after.history[-1].startswith("discard") and before.stock == []
    assert len(after.pile) == 1 and after.pile[0] in before.hand_cards(before.current)
    assert after.stock == before.pile[::-1]  # turned over: the old bottom card comes first
    shuffled = pack("shuffle_pile")
    before, after = play_to_renewal(shuffled, players)
    assert len(after.pile) == 1 and before.stock == []
    assert sorted(after.stock) == sorted(before.pile) != after.stock
    assert after.stock != before.pile[::-1]
    assert GameState.from_json(after.to_json(), pack=shuffled) == after
    again = meldkit.new_game(shuffled, players=players, seed=0)
    for text in after.history:
        again.apply(text)
    assert again.stock == after.stock  # the same game shuffles the same way


@pytest.mark.parametrize("how", ["turn_pile", "shuffle_pile"])
def test_renewing_packs_keep_every_invariant(how):
    assert check_conformance(table_pack(how), players=2, games=2, hands=2) > 0
    assert check_conformance(rank_slot_pack(how), players=2, games=1, hands=1) > 0


@pytest.mark.parametrize("pack", [table_pack, rank_slot_pack])
def test_a_resample_deals_the_shuffled_cards_anew_among_their_own_places(pack):
    _, g = play_to_renewal(pack("shuffle_pile"), 2)
    g.apply("draw")  # the next player draws from them
    d = Determinizer(g, 0)
    drawn = {c for c in g.hand_cards(1) if c in d.unordered}
    pile_cards = set(g.stock) | drawn
    assert d.unordered and set(d.unordered) == pile_cards
    rng = random.Random(3)
    stocks = set()
    for _ in range(20):
        s = d.sample(rng)
        assert set(s.stock) <= pile_cards and s.pile == g.pile
        assert s.hand_cards(0) == g.hand_cards(0) and len(s.stock) == len(g.stock)
        stocks.add(tuple(s.stock))
    assert len(stocks) > 1  # the order is unknown
    _, t = play_to_renewal(pack("turn_pile"), 2)
    assert all(Determinizer(t, 0).sample(rng).stock == t.stock for _ in range(5))


def test_the_rules_sheet_says_how_the_stock_is_renewed():
    assert ("- When the stock runs out, the discard pile but its top card is shuffled to form "
            "a new stock.") in rules_sheet(table_pack("shuffle_pile"))
    sheet = rules_sheet(rank_slot_pack("turn_pile"))
    assert ("- When a turn ends with the stock empty, the discard pile but its top card is "
            "turned over, without shuffling, to form a new stock, if it holds more cards than a "
            "turn draws; the pile stays as frozen as it was.") in sheet
    assert "(when the pile was too small to form a new stock)" in sheet


def test_a_stock_is_renewed_only_where_every_hand_is_sure_to_end():
    """A renewed stock could let a hand go on for ever: a table pack needs a turn limit; a
    rank-slot pack a turn limit, or a draw of two cards or more every turn (the stock and
    pile then shrink with every turn)."""
    with pytest.raises(RulePackError) as e:
        meldkit.load_pack_text("extends: classic_canasta\nstock: {when_empty: shuffle_pile}\n",
                               filename="cc.yaml")
    assert ("cc.yaml:2:9: stock.when_empty: shuffle_pile, but a turn draws 1 card and "
            "game.hand_turn_limit is null: a rank-slot pack renews its stock from the pile "
            "only where a hand is sure to end") in str(e.value)
    limited = meldkit.load_pack_text("extends: classic_canasta\nstock: {when_empty: "
                                     "shuffle_pile}\ngame: {hand_turn_limit: 400}\n",
                                     filename="cc.yaml")
    assert limited.spec.stock.when_empty == "shuffle_pile"
    for how in ("turn_pile", "shuffle_pile"):
        with pytest.raises(RulePackError) as e:
            meldkit.load_pack_text(f"extends: rummy\nstock: {{when_empty: {how}}}\n"
                                   "game: {hand_turn_limit: null}\n", filename="r.yaml")
        assert (f"r.yaml:2:9: stock.when_empty: {how}, but game.hand_turn_limit is null: a "
                "stock renewed from the pile may last for ever") in str(e.value)
    with pytest.raises(RulePackError, match="stock.when_empty: 'reshuffle'"):
        meldkit.load_pack_text("extends: rummy\nstock: {when_empty: reshuffle}\n",
                               filename="r.yaml")


@pytest.mark.parametrize("pack, players, ends", [(table_pack, 2, "pass"),
                                                 (rank_slot_pack, 2, "end")])
def test_end_at_once_ends_the_hand_where_end_hand_offers_the_next_player_the_pile(
        pack, players, ends):
    """``end_hand``: with the stock empty, the player to draw may take from the pile or end
    the hand (``pass`` in a table pack, ``end`` in a rank-slot one); ``end_at_once``: the
    hand ends as the turn that left the stock empty ends, in both models."""
    games = {}
    for how in ("end_hand", "end_at_once"):
        g = meldkit.new_game(pack(how), players=players, seed=2)
        rng = random.Random(2)
        while g.hand_number == 1 and (g.stock or g.phase != "draw"):
            plain = [a for a in g.legal_actions() if a.type in ("draw", "discard")]
            g.apply(plain[rng.randrange(len(plain))] if plain else g.legal_actions()[0])
        games[how] = g
    waiting, ended = games["end_hand"], games["end_at_once"]
    assert ended.hand_results[0].ended_by == "stock_empty"
    assert waiting.history == ended.history  # the same game up to there
    assert not waiting.hand_results and waiting.stock == []
    assert ends in [str(a) for a in waiting.legal_actions()]
    waiting.apply(ends)
    assert waiting.hand_results[0].ended_by == "stock_empty"


COUNT_WIN = """\
extends: rummy
name: count_win
stock: {when_empty: end_at_once, empty_winner: lowest_count}
scoring:
  items:
    - {item: pay, stake: 1}
    - {item: bonus, points: 5, when: out}
"""


def test_empty_winner_lowest_count_gives_the_hand_to_the_least_held():
    """``stock.empty_winner: lowest_count`` (Tonk's and Tong-its' count, found by a
    Tong-its pack author): the stock runs out, nobody out — the least value held wins the
    hand, paid as a won hand, but it is no going out (``when: out`` does not pay)."""
    from meldkit.testing import stacked_game

    pack = meldkit.load_pack_text(COUNT_WIN, filename="count_win.yaml")
    g = stacked_game(pack, 3, hands={0: "KC QD JH 10S 9C 8D 7H".split(),
                                     1: "AC 2D 3H 4S 5C 6D 8H".split(),
                                     2: "KD QH JS 10C 9D 8S 7C".split()},
                     upcard="KS", stock=["QC"])
    g.stock[:] = g.stock[-1:]
    g.apply("draw")
    g.apply("discard QC")  # the stock is empty: the hand ends, seat 1 holding 29
    (hand,) = g.hand_results
    assert (hand.ended_by, hand.went_out) == ("lowest_count", 1)
    assert hand.totals == (-1, 2, -1)  # each other seat pays the stake; no bonus for out
    assert GameState.from_json(g.to_json(), pack=pack) == g
    plain = meldkit.load_pack_text(COUNT_WIN.replace(", empty_winner: lowest_count", ""),
                                   filename="void.yaml")
    v = stacked_game(plain, 3, hands={0: "KC QD JH 10S 9C 8D 7H".split()},
                     upcard="KS", stock=["QC"])
    v.stock[:] = v.stock[-1:]
    v.apply("draw")
    v.apply("discard QC")
    assert (v.hand_results[0].ended_by, v.hand_results[0].totals) == ("stock_empty", (0, 0, 0))


def test_empty_winner_is_refused_in_a_knocking_pack_and_a_rank_slot_one():
    with pytest.raises(RulePackError, match="stock.empty_winner: lowest_count, but "
                                            "scoring.style is knock"):
        meldkit.load_pack_text("extends: gin_rummy\nstock: {empty_winner: lowest_count}\n")
    with pytest.raises(RulePackError, match="stock.empty_winner: is read only by the table"):
        meldkit.load_pack_text("extends: classic_canasta\n"
                               "stock: {empty_winner: lowest_count}\n")


@pytest.mark.parametrize("text, why", [
    ("extends: gin_rummy\nstock: {when_empty: end_at_once}\n",
     "x.yaml:2:9: stock.when_empty: end_at_once, but stock.wall (2) ends the hand before "
     "the stock runs out"),
    ("extends: rummy\nstock: {when_empty: end_hand, wall: 2, empty_winner: lowest_count}\n",
     "x.yaml:2:40: stock.empty_winner: lowest_count, but stock.wall (2) ends the hand "
     "before the stock runs out"),
])
def test_a_stock_end_that_a_wall_never_lets_happen_is_refused(text, why):
    with pytest.raises(RulePackError) as e:
        meldkit.load_pack_text(text, filename="x.yaml")
    assert why in str(e.value)
