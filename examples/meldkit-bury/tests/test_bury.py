"""Tests of the bury plugin, run against the *installed* package (the entry point is only
visible once ``pip install ./examples/meldkit-bury`` has run)."""

from __future__ import annotations

import doctest
import os
from collections import Counter

import pytest

import meldkit
import meldkit_bury
from meldkit.bots import RandomBot
from meldkit.plugins import get_plugin, installed_plugins
from meldkit.testing import stacked_game

PACK = meldkit_bury.pack_path()
ROOT = os.path.dirname(PACK)  # a pack extends files under search roots the caller names
NAME = os.path.basename(PACK)
THREE = 2  # rank numbers: A=0, 2=1, 3=2 … K=12, JK=13


def game(**kw):
    """Pony Tail with Bury, seat 0 to play, holding two black 3s (the rest plain cards)."""
    kw.setdefault("hands", {0: ["3C", "3S", "9H", "9D"]})
    return stacked_game(PACK, players=4, **kw)


def assert_cards_conserved(state) -> None:
    ids = [c for cards in state.zone_cards().values() for c in cards]
    assert sorted(ids) == list(range(len(state.kind_of))), "a card is lost or duplicated"


def play_out_hand(state, bot, on_action=None) -> None:
    """Let ``bot`` play every seat until the hand in progress ends."""
    while not state.hand_results:
        action = bot.choose(state)
        if on_action:
            on_action(state, action)
        state.apply(action)


# --------------------------------------------------------------------------- discovery
def test_the_plugin_is_found_through_its_entry_point():
    assert "bury" in installed_plugins()
    assert get_plugin("bury") is meldkit_bury.plugin


def test_the_shipped_pack_loads_with_its_options():
    pack = meldkit.load_pack(PACK)
    assert (pack.name, pack.spec.plugin, pack.spec.plugin_package) == (
        "pony_tail_bury", "bury", "meldkit-bury")
    assert pack.options == meldkit_bury.BuryOptions(max_per_hand=1, penalty=50)
    assert meldkit.check_pack(PACK) == []


def test_the_module_examples_run():
    assert doctest.testmod(meldkit_bury).failed == 0


# --------------------------------------------------------------------------- the action
def test_burying_moves_a_black_3_to_the_bottom_of_the_stock():
    g = game()
    bury = g.parse_action("bury 3")
    assert bury in g.legal_actions()
    stock_size, hand_size = len(g.stock), g.hand_size[0]

    g.apply(bury)

    assert g.hand_codes(0).count("3C") + g.hand_codes(0).count("3S") == 1
    assert g.hand_size[0] == hand_size - 1
    assert len(g.stock) == stock_size + 1
    bottom = g.stock[0]  # the top of the stock is its last element
    assert g.rules.is_dead_kind[g.kind_of[bottom]]
    assert_cards_conserved(g)
    assert (g.current_player, g.phase) == (0, "draw"), "the player still draws"
    assert g.ext["bury"]["count"] == [1, 0, 0, 0]
    g.apply("draw")
    assert g.phase == "play"


def test_a_second_bury_in_the_same_hand_is_refused():
    g = game()
    g.apply("bury 3")
    assert g.check("bury 3").code == "bury/limit-reached"
    assert not [a for a in g.legal_actions() if a.type == "bury"]
    with pytest.raises(meldkit.IllegalActionError) as e:
        g.apply("bury 3")
    assert e.value.code == "bury/limit-reached"
    assert_cards_conserved(g)


def test_max_per_hand_is_read_from_the_options():
    pack = meldkit.load_pack_text(
        f"extends: {NAME}\nname: bury_twice\noptions: {{max_per_hand: 2}}\n", search_roots=[ROOT])
    g = stacked_game(pack, players=4, hands={0: ["3C", "3S", "3C"]})
    g.apply("bury 3")
    g.apply("bury 3")
    assert g.check("bury 3").code == "bury/limit-reached"
    assert g.ext["bury"]["count"] == [2, 0, 0, 0]


def test_a_player_without_a_dead_card_cannot_bury():
    g = game()
    assert g.check("bury 9").code == "bury/no-dead-card"  # seat 0 holds 9s, not dead ones
    g.apply("draw")
    g.apply(next(a for a in g.legal_actions() if a.type == "discard"))
    assert g.current_player == 1  # seat 1 was dealt plain cards only
    assert g.check("bury 3").code == "bury/no-dead-card"
    assert not [a for a in g.legal_actions() if a.type == "bury"]


def test_burying_after_drawing_is_refused_by_the_kernel():
    g = game()
    g.apply("draw")
    assert g.check("bury 3").code == "turn/not-now"


@pytest.mark.parametrize("text", ["bury", "bury 3 3", "bury 3 to 9"])
def test_malformed_bury_notation_is_refused(text):
    assert game().check(text).code == "notation/shape"


def test_the_count_starts_afresh_each_hand():
    g = game()
    g.apply("bury 3")
    play_out_hand(g, RandomBot(seed=1))
    assert g.hand_number == 2
    assert meldkit_bury._counts(g) == [0, 0, 0, 0]


# --------------------------------------------------------------------------- saves
def test_save_and_load_keep_the_bury_count():
    g = game()
    g.apply("bury 3")
    loaded = meldkit.GameState.from_json(g.to_json(), pack=g.pack)
    assert loaded == g
    assert loaded.ext["bury"] == {"hand": 1, "count": [1, 0, 0, 0]}
    assert loaded.check("bury 3").code == "bury/limit-reached"


def test_a_clone_has_its_own_plugin_data():
    g = game()
    clone = g.clone()
    clone.apply("bury 3")
    assert "bury" not in g.ext
    assert g.check("bury 3") is None


def test_asking_for_legal_actions_does_not_change_the_state():
    g = game()
    before = g.to_json()
    g.legal_actions()
    g.check("bury 3")
    assert g.to_json() == before


# --------------------------------------------------------------------------- scoring
def test_the_hand_score_includes_the_penalty():
    g = game()
    buries = Counter()  # team -> buries this hand

    def count(state, action):
        if action.type == "bury":
            buries[state.team_of[state.current]] += 1

    count(g, g.parse_action("bury 3"))
    g.apply("bury 3")
    play_out_hand(g, RandomBot(seed=7), on_action=count)

    result = g.hand_results[0]
    plain = meldkit.score_hand(g.rules, result.final)
    assert buries[0] >= 1
    for team, score in enumerate(result.scores):
        assert score.total == plain[team].total - 50 * buries[team]
        expected = (("buried cards", -50 * buries[team]),) if buries[team] else ()
        assert score.adjustments == expected
    assert g.scores == list(result.totals)


def test_finished_hands_rescore_the_same_later_and_after_loading():
    g = game()
    g.apply("bury 3")
    bot = RandomBot(seed=3)
    play_out_hand(g, bot)
    first = g.hand_results[0]
    for _ in range(40):  # into the next hand, with its own buries
        g.apply(bot.choose(g))
    assert g.rescore(first) == first.totals
    loaded = meldkit.GameState.from_json(g.to_json(), pack=g.pack)
    assert loaded.hand_results[0].totals == first.totals
    assert loaded == g


# --------------------------------------------------------------------------- self-play
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_self_play_of_a_whole_hand(seed):
    g = meldkit.new_game(PACK, players=4, seed=seed)
    bot = RandomBot(seed=seed, meld_first=False)  # uniform: often picks 'bury 3'
    seen = Counter()

    def check_step(state, action):
        assert state.check(action) is None
        seen[action.type] += 1

    play_out_hand(g, bot, on_action=check_step)
    assert_cards_conserved(g)
    assert seen["bury"] >= 1
    result = g.hand_results[0]
    assert g.rescore(result) == result.totals


# --------------------------------------------------------------------------- pack errors
def test_a_misspelt_option_is_reported_with_did_you_mean(tmp_path):
    path = tmp_path / "typo.yaml"
    path.write_text(f"extends: {NAME}\nname: typo\noptions:\n  penalti: 5\n")
    with pytest.raises(meldkit.RulePackError) as e:
        meldkit.load_pack(path, search_roots=[ROOT])
    [problem] = e.value.problems
    assert problem.path == "options.penalti"
    assert problem.suggestion == "penalty"
    assert problem.line == 4
    assert "did you mean 'penalty'?" in str(e.value)


def test_bad_option_values_are_reported_by_validate():
    with pytest.raises(meldkit.RulePackError) as e:
        meldkit.load_pack_text(
            f"extends: {NAME}\nname: bad\noptions: {{max_per_hand: 0, penalty: -5}}\n",
            search_roots=[ROOT])
    paths = sorted(p.path for p in e.value.problems)
    assert paths == ["options.max_per_hand", "options.penalty"]


def test_the_bury_pack_passes_meldkit_conformance_check():
    from meldkit.testing import check_conformance

    assert check_conformance(meldkit_bury.pack_path(), players=4, games=2, max_actions=20000) > 0


# --------------------------------------------------------------------------- a gin child pack
GIN = meldkit_bury.gin_pack_path()


def gin_game():
    """Gin Rummy with Bury, past the upcard: seat 1 to draw, holding the king of spades."""
    g = stacked_game(GIN, players=2, hands={1: ["KS", "9H", "2C"]})
    for text in ("pass", "pass", "draw"):
        g.apply(text)
    g.apply(next(a for a in g.legal_actions() if a.type == "discard"))
    assert (g.current_player, g.phase) == (1, "draw")
    return g


def test_the_gin_pack_loads_in_the_table_meld_model():
    pack = meldkit.load_pack(GIN)
    assert meldkit.check_pack(GIN) == []
    assert pack.options == meldkit_bury.BuryOptions(cards=["J", "Q", "K"], replace=True,
                                                    max_per_hand=1, penalty=10)
    game = meldkit.new_game(pack, players=2, seed=1)
    assert (type(game).__name__, game.meld_model) == ("KernelState", "table")


def test_in_gin_a_bury_names_the_card_with_its_suit_and_keeps_the_hand_size():
    g = gin_game()
    assert "bury KS" in [str(a) for a in g.legal_actions()]
    assert g.parse_action("bury ks") is g.parse_action("bury KS")
    hand, stock = len(g.hands[1]), len(g.stock)
    top = g.stock[-1]
    g.apply("bury KS")
    assert (len(g.hands[1]), len(g.stock)) == (hand, stock)
    assert g.card_code(g.stock[0]) == "KS"  # under the stock
    assert top in g.hands[1]  # the stock's top card in its place
    assert (g.current_player, g.phase) == (1, "draw")
    assert g.ext["bury"] == {"hand": 1, "count": [0, 1]}
    assert g.view(0)["plugin"] == {"buries_left": [1, 0]}
    assert_cards_conserved(g)


def test_in_gin_refusals_name_the_rule():
    g = gin_game()
    assert g.check("bury 9H").code == "bury/no-dead-card"
    assert g.check("bury K").code == "notation/bad-card"  # a gin action names the suit
    assert g.check("bury KS 9H").code == "notation/shape"
    g.apply("bury KS")
    assert g.check("bury KS").code == "bury/limit-reached"
    g.apply("draw")
    assert g.check("bury QS").code == "turn/not-now"


def test_a_gin_pack_must_name_its_cards_and_replace_them():
    with pytest.raises(meldkit.RulePackError) as e:
        meldkit.load_pack_text("extends: gin_rummy\nname: bad_gin_bury\nplugin: bury\n")
    assert sorted(p.path for p in e.value.problems) == ["options.cards", "options.replace"]


def test_gin_saves_ids_and_scores_keep_the_buries():
    g = gin_game()
    g.apply("bury KS")
    loaded = meldkit.GameState.from_json(g.to_json(), pack=g.pack)
    assert loaded == g and loaded.ext == g.ext
    assert g.action_space.id_of("bury KS") in range(g.action_space.size)
    bot = RandomBot(seed=4)
    play_out_hand(g, bot)
    result = g.hand_results[0]
    buried = [item for s in result.scores for item in s.items if item[0] == "buried cards"]
    assert ("buried cards", -10) in buried
    assert g.rescore(result) == result.totals
    assert meldkit.GameState.from_json(g.to_json(), pack=g.pack) == g
