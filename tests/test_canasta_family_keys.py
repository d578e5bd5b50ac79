"""The keys added for the canasta family (Classic Canasta, Hand and Foot): each is generic
(it works in any canasta pack), refused with a located error when it contradicts another
setting, and stated in the rules sheet without contradicting another sentence.

The clause tests (``test_classic_canasta_rules.py``, ``test_hand_and_foot_rules.py``) play
each key inside its game; these tests change one key at a time on a bundled pack.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import meldkit
from meldkit import RulePackError
from meldkit.rulesheet import rules_sheet
from meldkit.testing import stacked_game


def pack(text: str, name: str = "variant") -> meldkit.RulePack:
    return meldkit.load_pack_text(f"name: {name}\n" + text)


def problems(tmp_path: Path, text: str) -> list[str]:
    path = tmp_path / "variant.yaml"
    path.write_text(text)
    with pytest.raises(RulePackError) as info:
        meldkit.load_pack(path)
    return str(info.value).splitlines()


# --------------------------------------------------------------------------- scoring keys
@pytest.mark.parametrize("sets_by, points", [("side", 800), ("player", 400)])
def test_bonus_sets_by_side_counts_a_partnerships_red_threes_together(sets_by, points):
    p = pack(f"extends: classic_canasta\nscoring: {{bonus: {{sets_by: {sets_by}}}}}\n")
    g = stacked_game(p, 4, hands={0: "3H 3D KC KD KH AC AD AH".split(), 2: ["3H", "3D"]},
                     stock="5C 5D 5H 5S 4S".split())
    g.apply("draw"), g.apply("meld K K K"), g.apply("meld A A A")
    g._end_hand("stock_empty", None)
    assert points == g.hand_results[0].scores[0].bonus_cards  # 2 + 2 red threes


def test_required_books_named_twice_need_two_books_in_any_pack():
    p = pack("extends: pony_canasta\ngoing_out: {required_books: [natural, natural]}\n")
    g = stacked_game(p, 2, hands={0: "9C 9C 9D 9D 9H 9H 9S KC KD KH QC QD QH".split()},
                     reserves={0: "JC JD JH 8C 8D 8H 10C 10D 10H AC AD AH".split()},
                     stock=["KS", "5C"])
    g.apply("draw")
    for a in ("meld 9 9 9 9 9 9 9", "meld K K K K", "meld Q Q Q", "meld J J J", "meld 8 8 8",
              "meld 10 10 10"):
        g.apply(a)
    why = g.check("meld A A A")  # one natural canasta: the 5 left could not be discarded
    assert ("hand/keep-a-card", True) == (
        why.code, why.sentence.endswith("your side needs a natural book before going out"))


def test_game_hands_ends_the_game_after_that_many_hands_in_any_pack():
    p = pack("extends: pony_tail\ngame: {hands: 2}\n")
    g = meldkit.new_game(p, players=4, seed=1)
    g._end_hand("stock_empty", None)
    assert not g.is_over
    g._end_hand("stock_empty", None)
    assert g.is_over


def test_initial_meld_by_hand_replaces_the_score_tiers_in_any_pack():
    p = pack("extends: pony_canasta\ninitial_meld: {minimums: [], by_hand: [10, 20]}\n")
    g = meldkit.new_game(p, players=2, seed=1)
    seen = []
    for _ in range(3):
        seen.append(g.initial_minimum(0))
        g._end_hand("stock_empty", None)
    assert [10, 20, 20] == seen


# --------------------------------------------------------------------------- loader traps
def test_a_required_reserve_that_is_never_picked_up_is_located(tmp_path):
    found = problems(tmp_path, "extends: hand_and_foot\nname: v\n"
                               "reserve:\n  pickup_on_empty_hand: false\n")
    assert any(f"{tmp_path / 'variant.yaml'}:4:3: going_out.requires_reserve" in line
               and "can never be picked up" in line for line in found)


def test_a_kind_required_more_often_than_a_side_could_hold_it_is_located(tmp_path):
    text = ("extends: classic_canasta\nname: v\ngoing_out:\n"
            "  required_books: [natural, sevens, sevens]\n"
            "books:\n  kinds:\n    - {name: natural, max_wilds: 0, value: 500}\n"
            "    - {name: sevens, ranks: ['7'], value: 300}\n")
    found = problems(tmp_path, text)
    assert any(":4:37: going_out.required_books[2]" in line and "at most 1 sevens book" in line
               for line in found), found


def test_required_books_repeated_with_closing_books_is_accepted():
    p = pack("extends: hand_and_foot\ngoing_out: {required_books: [clean, clean, clean]}\n")
    assert ["clean"] * 3 == p.spec.going_out.required_books


@pytest.mark.parametrize("text, where, says", [
    ("initial_meld: {minimums: [{minimum: 50}]}\n", "initial_meld.minimums",
     "not used when initial_meld.by_hand is given"),
    ("game: {hands: 0}\n", "game.hands", "expected null or at least 1"),
    ("pile: {take_count: 0}\n", "pile.take_count", "expected null or at least 1"),
    ("turn: {draw_by_players: {5: 2}}\n", "turn.draw_by_players.5",
     "5 players is not a player count"),
    ("deck: {decks_by_players: {4: 0}}\n", "deck.decks_by_players.4",
     "0 decks for 4 players"),
    ("game: {target_by_players: {6: 100}}\n", "game.target_by_players.6",
     "6 players is not a player count"),
    ("initial_meld: {by_hand: [], minimums_by_players: {4: [{below: 10, minimum: 5}]}}\n",
     "initial_meld.minimums_by_players.4[0].below", "the last tier must have below: null"),
    ("scoring: {bonus: {by_count: {0: 5}}}\n", "scoring.bonus.by_count.0",
     "expected a count of at least 1"),
])
def test_by_players_tables_and_new_keys_refuse_impossible_values(tmp_path, text, where, says):
    found = problems(tmp_path, "extends: hand_and_foot\nname: v\n" + text)
    assert any(f": {where}: " in line and says in line for line in found), found


def test_partners_by_players_needs_optional_partnerships(tmp_path):
    found = problems(tmp_path, "extends: hand_and_foot\nname: v\n"
                               "players: {partners_by_players: {4: true}}\n")
    assert any("players.partners_by_players: applies only with partners: optional" in line
               for line in found), found


def test_players_counts_outside_min_and_max_are_located(tmp_path):
    found = problems(tmp_path, "extends: classic_canasta\nname: v\n"
                               "players: {counts: [2, 8]}\n")
    assert any("players.counts[1]: 8 is outside players.min..max" in line for line in found)


def test_bonus_sets_by_side_without_sets_is_refused(tmp_path):
    found = problems(tmp_path, "extends: pony_tail\nname: v\nscoring: {bonus: {sets_by: side}}\n")
    says = "scoring.bonus.sets_by: side, but scoring.bonus.set_size is 0 and by_count is empty"
    assert any(says in line
               for line in found), found


# --------------------------------------------------------------------------- rules sheets
@pytest.mark.parametrize("keep, requires", [(True, True), (True, False), (False, True),
                                            (False, False)])
def test_the_turn_and_going_out_sentences_never_contradict(keep, requires):
    p = pack(f"extends: pony_canasta\nturn: {{keep_card_to_discard: {str(keep).lower()}}}\n"
             f"going_out: {{requires_discard: {str(requires).lower()}}}\n")
    sheet = rules_sheet(p)
    must_keep = "You must keep a card to discard: a play that would leave you" in sheet
    by_melding = "by melding them all or by discarding the last one" in sheet
    last_discarded = "the last one by discarding it" in sheet
    assert (must_keep, by_melding, last_discarded) == (keep and requires, not requires, requires)
    if not keep and requires:
        assert "they leave the hand (this is not going out)" in sheet
    if not requires:
        assert "must always keep a card" not in sheet


def test_classic_canasta_sheet_states_the_differences_by_player_count():
    sheet = rules_sheet("classic_canasta")
    for line in ("2, 3, 4 or 6 players: 2 or 3 play each alone; 4 or 6 play in 2 teams",
                 "3 decks (162 cards) with 6 players",
                 "11 cards (15 cards with 2 players, 13 cards with 3 players, 13 cards with 6 "
                 "players)",
                 "| 7,500 or more | 150 |",
                 "5 held by one side score 1,000",
                 "5,000 points (10,000 with 6 players)",
                 "draw 1 card (2 cards with 2 players)",
                 "3s (treys) are melded only by a player going out",
                 "frozen for a side that has not melded",
                 "at least 1 book (2 books with 2 players, 2 books with 6 players)",
                 "4 held by one side score 800"):
        assert line in sheet, line


def test_hand_and_foot_sheet_states_its_rules():
    sheet = rules_sheet("hand_and_foot")
    for line in ("50 in hand 1, 90 in hand 2, 120 in hand 3, 150 in hand 4",
                 "Only the top 7 cards of the pile are taken",
                 "after melding their last card they go on playing from the foot",
                 "two clean books and two dirty books",
                 "The game is 4 hands"):
        assert line in sheet, line


def test_melding_out_onto_a_one_card_foot_never_leaves_a_player_without_a_move():
    # Found by the pack fuzzer: a hand melded out picks up a one-card foot; that card could
    # not be discarded (it would be going out without the books), so the game was stuck.
    # Before the fix, 5 of these 12 random games reached a dead end.
    from meldkit.bots import make_bot, play_game

    pack = meldkit.load_pack_text(
        "meldkit: 1\nextends: hand_and_foot\nname: one_card_foot\n"
        "players: {min: 2, max: 4, partners: never, teams: null}\ndeal: {reserve: 1}\n")
    for seed in range(12):
        game = meldkit.new_game(pack, players=2, seed=seed)
        play_game(game, [make_bot("random", seed=s) for s in range(2)], max_actions=100_000)
        assert game.is_over
