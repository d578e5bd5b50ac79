"""Flushes (``type: flush``: cards of one suit, any ranks) and runs of mixed suits
(``mixed_suits: true``): Phase 10's melds, in a table-meld pack — laid, grown by lay-offs,
met as a contract, saved and read back, refused beside the rules that cannot search them,
and played to the end by bots with every card kept.  The meld predicates themselves are
checked against brute force in ``test_kernel_melds.py``."""

from __future__ import annotations

import json

import pytest

import meldkit
from meldkit import GameState, RulePackError
from meldkit.bots import make_bot
from meldkit.testing import check_conformance, refusal, stacked_game

PHASE = """\
meldkit: 1
name: phases
deck: {decks: 2, jokers_per_deck: 2}
players: {min: 2, max: 6, partners: never}
deal: {hand: 10, upcard: true}
cards:
  wild: [JK]
melds:
  kinds:
    - {name: set, type: set, min_size: 3, max_wilds: 8}
    - {name: run, type: run, min_size: 4, mixed_suits: true, ace: low, max_wilds: 8}
    - {name: colour, type: flush, min_size: 7, max_wilds: 8}
  lay_off: {onto: any}
pile: {take: top}
initial_meld:
  melds: CONTRACT
  melds_after: false
going_out: {requires_discard: false}
scoring:
  style: penalty
  items:
    - {item: penalty}
game: {hands: 2, winner: lowest, hand_turn_limit: 400}
"""


def pack(contract: str = "[set, run]", extra: str = ""):
    return meldkit.load_pack_text(PHASE.replace("CONTRACT", contract) + extra,
                                  filename="phases.yaml")


def legal(g) -> list[str]:
    return [str(a) for a in g.legal_actions()]


def test_a_run_of_mixed_suits_is_laid_grows_at_either_end_and_meets_the_contract():
    g = stacked_game(pack(), 2, hands={0: "3H 4C 5D 6S 9H 9C 9D KD QS 2C".split()},
                     upcard="8S", stock=["7C"])
    g.apply("draw")
    assert "meld 3H 4C 5D 6S" in legal(g)
    g.apply("meld 3H 4C 5D 6S")
    g.apply("meld 9C 9D 9H")  # the contract: a set and a run
    assert g.opened[0]
    for move in ("add 7C to m1", "add 2C to m1"):  # either end, any suit
        g.apply(move)
    view = g.view(0)
    assert [m["cards"] for m in view["melds"] if m["id"] == "m1"] == [
        ["2C", "3H", "4C", "5D", "6S", "7C"]]
    assert refusal(g, "add KD to m1").code.startswith("add/")


def test_a_run_of_mixed_suits_holds_one_card_of_each_rank_and_a_flush_one_suit():
    g = stacked_game(pack("[colour]"), 2,
                     hands={0: "2H 5H 7H 9H JH QH KH 3H 3C 4D".split()}, stock=["AH"])
    g.apply("draw")
    assert refusal(g, "meld 3H 3C 4D 5H").code.startswith("meld/")  # two threes
    assert "meld 2H 3H 5H 7H 9H JH QH" in legal(g)
    g.apply("meld 2H 3H 5H 7H 9H JH QH")
    g.apply("add KH to m1")
    g.apply("add AH to m1")
    assert len(g.melds[0].cards) == 9
    assert refusal(g, "add 3C to m1").code.startswith("add/")


def test_melds_of_both_kinds_are_saved_and_read_back_in_their_places():
    g = stacked_game(pack(), 2, hands={0: "3H 4C JK 6S 9H 9C 9D KD QS 2C".split()},
                     upcard="8S", stock=["7C"])
    for move in ("draw", "meld 3H 4C JK 6S", "meld 9C 9D 9H", "add 7C to m1"):
        g.apply(move)
    h = GameState.from_json(g.to_json(), pack=g.pack)
    assert h == g and legal(h) == legal(g)
    assert [m.match for m in h.melds] == [m.match for m in g.melds]
    d = json.loads(g.to_json())
    state = d["state"] if "state" in d else d
    state["melds"][0][2] = ["3H", "4C", "4D", "6S", "7C"]  # two fours: no run
    with pytest.raises(meldkit.SaveError, match="melds"):
        GameState.from_json(json.dumps(d), pack=g.pack)


@pytest.mark.parametrize("kind,key,expected", [
    ("{name: s, type: set, min_size: 3, mixed_suits: true}", "mixed_suits",
     "applies to runs only (this kind is a set"),
    ("{name: f, type: flush, min_size: 5, ace: high}", "ace", "applies to runs only"),
    ("{name: f, type: flush, min_size: 5, max_wilds: 1, wilds_adjacent: false}",
     "wilds_adjacent", "a flush's cards stand in no order"),
    ("{name: f, type: flush, min_size: 5, distinct_suits: true}", "distinct_suits",
     "a flush is of one suit"),
    ("{name: r, type: run, min_size: 4, mixed_suits: true, max_wilds: 1, "
     "wild_natural_in_place: true}", "wild_natural_in_place", "run of its own suit"),
])
def test_a_kind_key_that_does_not_apply_to_a_flush_or_mixed_run_is_refused_where_written(
        kind, key, expected):
    text = PHASE.replace("CONTRACT", "[set]").replace(
        "    - {name: colour, type: flush, min_size: 7, max_wilds: 8}", "    - " + kind)
    with pytest.raises(RulePackError) as e:
        meldkit.load_pack_text(text, filename="bad.yaml")
    assert expected in str(e.value) and key in str(e.value) and "bad.yaml:" in str(e.value)


@pytest.mark.parametrize("extra,expected", [
    ("knock: {max_deadwood: 10}\n", "scoring.style is knock"),
    ("books: {kinds: [{name: clean, max_wilds: 0}]}\n", "counts books"),
])
def test_a_flush_is_refused_beside_what_would_search_large_hands_or_count_books(
        extra, expected):
    text = PHASE.replace("CONTRACT", "[set]") + extra
    if "knock" in extra:
        text = text.replace("  style: penalty\n  items:\n    - {item: penalty}\n",
                            "  style: knock\n").replace("going_out: {requires_discard: false}\n",
                                                        "").replace(
            "initial_meld:\n  melds: [set]\n  melds_after: false\n", "")
    with pytest.raises(RulePackError) as e:
        meldkit.load_pack_text(text, filename="bad.yaml")
    assert expected in str(e.value), str(e.value)


def test_a_flush_is_refused_beside_an_item_counting_the_unmelded_cards():
    text = PHASE.replace("CONTRACT", "[set]").replace("    - {item: penalty}",
                                                      "    - {item: penalty, count: unmelded}")
    with pytest.raises(RulePackError, match="counts only the cards a hand cannot meld"):
        meldkit.load_pack_text(text, filename="bad.yaml")


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_play_keeps_every_invariant_and_greedy_play_ends(seed):
    p = pack("[colour]" if seed == 3 else "[set, run]")
    assert check_conformance(p, players=3, games=1, seed=seed, max_actions=20_000) > 0
    assert greedy_game_ends(p, 3, seed)


def greedy_game_ends(p, players: int, seed: int, most: int = 20_000) -> GameState:
    """A game of ``p`` played to its end by greedy bots (within ``most`` decisions)."""
    g = meldkit.new_game(p, players=players, seed=seed)
    bots = [make_bot("greedy", seed=seed + i) for i in range(players)]
    for _ in range(most):
        if g.is_over:
            return g
        g.apply(bots[g.current_player].choose(g))
    raise AssertionError(f"no end in {most} decisions")


@pytest.mark.parametrize("old,new,where", [
    ("type: flush", "type: colour", "melds.kinds[2].type"),
    ("mixed_suits: true", "mixed_suits: sometimes", "melds.kinds[1].mixed_suits"),
    ("  lay_off: {onto: any}", "  lay_off: {onto: any, within_max_size: 1}",
     "melds.lay_off.within_max_size"),
])
def test_the_new_meld_keys_of_a_bad_form_are_refused_where_written(old, new, where):
    text = PHASE.replace("CONTRACT", "[set, run]").replace(old, new)
    with pytest.raises(RulePackError) as e:
        meldkit.load_pack_text(text, filename="bad.yaml")
    assert "bad.yaml:" in str(e.value) and where in str(e.value), str(e.value)
