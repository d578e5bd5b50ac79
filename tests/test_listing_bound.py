"""A position offers at most :data:`~meldkit.kernel.melds.MOST_LISTED_MELDS` melds.

A pack that validates can deal 60-card hands over eight decks with dozens of wild cards;
such a hand holds hundreds of thousands of melds, and every move lists the next position's
legal actions, so one move took seconds.  The search for a position's melds now stops at
the bound, always at the same point; the melds past it are refused with their own reason.
"""

from __future__ import annotations

import collections

import pytest

import meldkit
from meldkit.kernel.melds import MOST_LISTED_MELDS, MeldKind, MeldRules
from meldkit._cards import kind_of_code

SLOW = """\
extends: rummy
name: slow_rummy
deck: {decks: 8, jokers: 16}
players: {min: 2, max: 2}
deal: {hand: 60, hand_by_players: null}
cards: {wild: [JK, "2", "3", "4"], values: {JK: 20}}
melds:
  kinds:
    - {name: run, type: run, min_size: 3, max_wilds: 3}
    - {name: set, type: set, min_size: 3, max_wilds: 4}
"""
"""Sixty cards of eight decks, 112 of them wild: a hand holds about 270,000 melds."""


@pytest.fixture(scope="module")
def slow_pack():
    return meldkit.load_pack_text(SLOW, filename="slow_rummy.yaml")


def _melds_listed(game) -> list[str]:
    return [str(a) for a in game.legal_actions() if a.type == "meld"]


def test_a_hand_of_more_melds_than_the_bound_offers_the_first_ones_the_same_each_time(
        slow_pack):
    game = meldkit.new_game(slow_pack, players=2, seed=1)
    game.apply("draw")
    listed = _melds_listed(game)
    assert len(listed) == MOST_LISTED_MELDS
    again = meldkit.new_game(slow_pack, players=2, seed=1)
    again.apply("draw")
    assert _melds_listed(again) == listed  # the same melds, in the same order
    assert game.check(listed[-1]) is None and game.check(listed[0]) is None


def test_a_meld_past_the_bound_is_refused_with_its_own_reason(slow_pack):
    game = meldkit.new_game(slow_pack, players=2, seed=1)
    game.apply("draw")
    listed = set(_melds_listed(game))
    hand = collections.Counter(game.view(game.current_player)["hand"])
    wild = {"JK"} | {c for c in hand if c[0] in "234" and c[:2] != "10"}
    sets = [f"meld {c} {c} {c}" for c, n in sorted(hand.items()) if n >= 3 and c not in wild]
    unlisted = [m for m in sets if m not in listed]
    assert unlisted, sets  # three of one card: a set of this pack, not among the first
    why = game.check(unlisted[0])
    assert why.code == "meld/past-listing"
    assert f"more than {MOST_LISTED_MELDS:,} melds" in why.sentence
    with pytest.raises(meldkit.IllegalActionError, match=r"meld/past-listing"):
        game.apply(unlisted[0])
    assert game.check(sorted(listed)[0]) is None  # the state is as it was


def test_a_move_matches_at_most_the_bound_of_melds(slow_pack, monkeypatch):
    """Each listed meld costs a match: a move's work stays near the bound (it was about
    270,000 matches, 4 s, on this hand) — the draw, the meld and the lay-off listings,
    and a take whose card must be melded at once (``pile.taken_melded``)."""
    calls = 0
    real = MeldRules._canon

    def counted(self, cards):
        nonlocal calls
        calls += 1
        return real(self, cards)

    monkeypatch.setattr(MeldRules, "_canon", counted)
    text = SLOW.replace("name: slow_rummy", "name: slow_taking") + (
        "pile: {take: pile, taken_melded: always}\n")
    for pack in (meldkit.load_pack_text(text, filename="slow_taking.yaml"),):
        game = meldkit.new_game(pack, players=2, seed=1)
        for move in range(6):
            calls = 0
            game.apply(game.legal_actions()[-1])  # a take deep in the pile, a discard …
            assert calls <= 2 * MOST_LISTED_MELDS + 100, (move, calls)


def test_melds_in_with_most_gives_the_first_found_of_the_full_listing():
    gin = MeldRules([MeldKind("set", "set", max_size=4), MeldKind("run", "run")],
                    frozenset({kind_of_code("2C")}))
    hand = [kind_of_code(c) for c in "2C 5S 6S 7S 7D 7C 8S 9S 9D 9C".split()]
    every = gin.melds_in(hand)
    assert len(every) > 5
    for most in (0, 1, 5, len(every), len(every) + 3):
        some = gin.melds_in(hand, most=most)
        assert len(some) == min(most, len(every)) and set(some) <= set(every)
        assert some == sorted(some) and gin.melds_in(hand, most=most) == some
    with pytest.raises(ValueError, match="most must be a whole number"):
        gin.melds_in(hand, most=-1)


def test_a_rare_but_real_hand_is_listed_whole():
    """Indian Rummy's 14-card hand holding 8 of its 10 wild cards (two jokers and the cut
    rank's eight, here the twos): the most melds of 300 such hands drawn at random."""
    wild = frozenset(kind_of_code(c) for c in "JK 2C 2D 2H 2S".split())
    indian = MeldRules([MeldKind("pure_run", "run", max_wilds=0, ace="both",
                                 wild_natural_in_place=True),
                        MeldKind("run", "run", max_wilds=13, ace="both"),
                        MeldKind("set", "set", max_size=4, max_wilds=13, distinct_suits=True)],
                       wild)
    hand = [kind_of_code(c) for c in "2C 2C 2D 2D 2H 2S 6H 9D 10D JD QD KD JK JK".split()]
    every = indian.melds_in(hand)
    assert 2_000 < len(every) <= MOST_LISTED_MELDS
    assert indian.melds_in(hand, most=MOST_LISTED_MELDS) == every


def test_the_greedy_bot_searches_no_least_deadwood_of_a_hand_past_the_bound(slow_pack,
                                                                           monkeypatch):
    """The greedy bot's move on such a hand took 3.7 s, nearly all of it the exact
    least-deadwood search; past :data:`~meldkit.kernel.melds.MOST_CARDS_ARRANGED` cards
    (the views' bound) it measures the hand by its bounded listing instead."""
    from meldkit.bots import GreedyBot
    from meldkit.kernel.melds import MOST_CARDS_ARRANGED

    real = MeldRules.min_deadwood

    def bounded(self, hand, **kw):
        assert len(hand) <= MOST_CARDS_ARRANGED, len(hand)
        return real(self, hand, **kw)

    monkeypatch.setattr(MeldRules, "min_deadwood", bounded)
    game = meldkit.new_game(slow_pack, players=2, seed=1)
    bot = GreedyBot()
    for _ in range(12):
        game.apply(bot.choose(game))
    assert game.history[:2] == ["draw", game.history[1]] and game.history[1].startswith("meld")
