"""Determinization (issue 13, item 4): resample(player, rng) is a full state consistent
with what the player has seen — the same view and, on their turn, the same legal actions,
at every position of random games of every bundled pack — the hidden cards are dealt
uniformly (a chi-square test), bonus cards never land in a hand, and cards the player saw
move into a hidden zone stay where they went."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from ai_tables import seats, tables

import meldkit
from meldkit import GameState, MeldkitError
from meldkit.ai.resample import Determinizer

TABLES = tables(*[("rummy", 2), ("rummy", 4), ("pony_canasta", 4)])


@pytest.mark.parametrize("pack,players", TABLES)
def test_resampled_state_has_the_same_view_and_legal_actions_at_every_position(pack, players):
    players = seats(pack, players)
    rng = random.Random(13)
    g = meldkit.new_game(pack, players=players, seed=17)
    changed = checked = 0
    for step in range(160):
        if g.is_over:
            break
        if step % 10 == 0:
            for p in range(players):
                r = g.resample(p, rng)
                assert r.view(p) == g.view(p), (step, p)
                assert r.observation(p) == g.observation(p)
                if g.current_player == p:
                    assert r.legal_actions() == g.legal_actions(), (step, p)
                zones = r.zone_cards()
                assert sorted(c for ids in zones.values() for c in ids) == sorted(
                    c for ids in g.zone_cards().values() for c in ids)
                changed += r.zone_cards() != g.zone_cards()
                checked += 1
        g.apply(rng.choice(g.legal_actions()))
    assert checked >= 8 and changed >= checked // 4  # late in Houses few cards are hidden
    # a resampled state is a valid state: its save loads
    again = GameState.from_json(r.to_json())
    assert again.view(0) == r.view(0)


def test_hidden_cards_are_dealt_uniformly_chi_square():
    # gin at the deal, seen by seat 0: 41 unknown cards over the 10 cards of seat 1's hand
    # and the 31 of the stock; which one is on top of the stock must be uniform.
    g = meldkit.new_game("gin_rummy", players=2, seed=3)
    det = Determinizer(g, 0)
    assert len(det.cards) == 41
    rng = random.Random(99)
    n = 8200
    counts = Counter(det.sample(rng).stock[-1] for _ in range(n))
    assert set(counts) == set(det.cards)
    expected = n / 41
    chi2 = sum((counts[c] - expected) ** 2 / expected for c in det.cards)
    assert chi2 < 73.40  # chi-square, 40 degrees of freedom, p = 0.001
    # and a card's zone: in seat 1's hand with probability 10/41
    card = det.cards[0]
    in_hand = sum(card in det.sample(rng).hands[1] for _ in range(4100))
    assert abs(in_hand - 1000) < 4 * (4100 * (10 / 41) * (31 / 41)) ** 0.5


def test_bonus_cards_never_land_in_a_hand():
    g = meldkit.new_game("pony_tail", players=4, seed=5)
    rng = random.Random(1)
    for _ in range(30):
        g.apply(rng.choice(g.legal_actions()))
    det = Determinizer(g, 0)
    assert det._bonus, "the test needs unknown bonus cards"
    for _ in range(200):
        r = det.sample(rng)
        for p in range(4):
            assert not any(r.is_bonus(c) for c in r.hand_cards(p))


def test_a_card_taken_from_the_pile_stays_in_the_takers_hand():
    g = meldkit.new_game("gin_rummy", players=2, seed=1, options={"first_player": 0})
    top = g.pile[-1]
    g.apply("take")  # seat 0 takes the upcard: seat 1 saw it go
    det = Determinizer(g, 1)
    assert top in det.known
    for _ in range(50):
        assert top in det.sample(random.Random(_)).hands[0]


def test_a_wild_card_won_back_from_a_meld_stays_in_the_winners_hand():
    """``trade 6H to m1`` moves the joker from the table into seat 1's hand in plain
    sight: every determinization seat 0 makes keeps it there."""
    from test_wild_cards_in_runs import _jokered

    g = _jokered()
    g.apply("trade 6H to m1")
    joker = [c for c in g.hands[1] if g.card_code(c) == "JK"]
    assert len(joker) == 1
    det = Determinizer(g, 0)
    assert joker[0] in det.known
    for seed in range(30):
        assert joker[0] in det.sample(random.Random(seed)).hands[1]


def test_houses_passed_card_is_known_to_the_passer_only():
    g = meldkit.new_game("houses", players=4, seed=4)
    rng = random.Random(1)
    while not any(a.type == "pass" and a.cards for a in g.legal_actions()):
        g.apply(rng.choice(g.legal_actions()))
    p = g.current_player
    a = next(a for a in g.legal_actions() if a.type == "pass" and a.cards)
    g.apply(a)
    card = a.cards[0]
    assert card in Determinizer(g, p).known
    other = (p + 1) % 4
    assert card not in Determinizer(g, other).known
    seen = {Determinizer(g, other).sample(random.Random(i)).incoming[g.partner(p)]
            for i in range(40)}
    assert len(seen) > 1


def test_later_deals_are_unknown_and_the_history_is_not_replayable():
    g = meldkit.new_game("rummy", players=2, seed=2)
    r1 = g.resample(0, random.Random(1))
    r2 = g.resample(0, random.Random(2))
    assert r1.seed != g.seed and r1.seed != r2.seed
    for _ in range(6):
        g.apply(g.legal_actions()[0])
    r = g.resample(0, random.Random(3))
    assert r.zone_cards() != g.zone_cards()
    with pytest.raises(MeldkitError, match="resampled for seat 0: it holds that seat's "
                                           "information state only, not the public history"):
        r.public_history()
    with pytest.raises(ValueError, match="seat"):
        g.resample(7)
    json.loads(r.to_json())
    loaded = type(r).from_json(r.to_json(), pack=r.pack)
    with pytest.raises(MeldkitError, match="seed"):  # a save keeps no events
        loaded.public_history()


@pytest.mark.parametrize("pack, players", [("rummy", 2), ("gin_rummy", 2), ("pony_tail", 4),
                                           ("houses", 4), ("contract_rummy", 3)])
def test_a_resampled_state_keeps_the_players_information_state_and_steps_it(pack, players):
    """An RL audit: information_state() raised on every resampled state (new seed, no
    replayable history), so a search could not key its information sets on a sample. A
    resample keeps its player's information state, equal to the original's, and steps it
    with the sample's own moves; the other seats' are refused (the original's events hold
    their true cards)."""
    g = meldkit.new_game(pack, players=players, seed=5)
    rng = random.Random(5)
    for _ in range(25):
        g.apply(rng.choice(g.legal_actions()))
    p = g.current_player
    r = g.resample(p, random.Random(1))
    assert r.information_state(p) == g.information_state(p)
    assert r.clone().information_state(p) == g.information_state(p)
    other = (p + 1) % players
    with pytest.raises(MeldkitError, match=f"resampled for seat {p}: it holds that seat's "
                                           f"information state only, not the information "
                                           f"state of seat {other}"):
        r.information_state(other)
    # a move that shows no hidden card (not a draw): the same to the player in both
    a = next((a for a in r.legal_actions() if a.type in ("discard", "meld", "pass", "add")),
             None)
    if a is not None:
        g2 = g.clone()
        r.apply(a)
        g2.apply(a)
        assert r.information_state(p) == g2.information_state(p)


def test_a_continued_replay_knows_exactly_what_a_fresh_one_knows():
    import sys

    module = sys.modules["meldkit.ai.resample"]  # (meldkit.ai.resample is also a function)

    rng = random.Random(6)
    g = meldkit.new_game("rummy", players=3, seed=12)
    for step in range(150):
        if g.is_over:
            break
        p = g.current_player
        continued = Determinizer(g, p).known  # continues the replay of earlier positions
        module._TRACKS.clear()
        assert Determinizer(g, p).known == continued, step
        g.apply(rng.choice(g.legal_actions()))
