"""Rule scenarios in YAML (``meldkit.scenarios``): they pass on the pack they describe,
catch a pack that plays a rule differently, and report every failure and every bad file
with ``file:line:col`` — never a traceback."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from meldkit import RulePackError
from meldkit.scenarios import (
    DEAL_KEYS,
    EXPECT_KEYS,
    SCENARIO_KEYS,
    STEP_KEYS,
    ScenarioError,
    bundled_scenarios,
    load_scenarios,
    run_scenario_text,
    run_scenarios,
)

ROOT = Path(__file__).resolve().parents[1]
PONY_TAIL = ROOT / "rulepacks" / "pony_tail.yaml"
DOCS_PAGE = ROOT / "docs" / "authoring" / "scenarios.md"

BLOCKED = """\
scenarios:
  - name: a black three blocks the pile
    deal:
      hands: {0: [9H, 9S]}
      upcard: 3C
    steps:
      - move: take 9 9
        refused: pile/blocked
      - expect:
          pile: {top: 3C, blocked: true}
"""


def failures(pack, text, filename="s.yaml"):
    return [str(f) for r in run_scenario_text(pack, text, filename) for f in r.failures]


def variant(tmp_path, old, new, name="variant.yaml"):
    """A copy of the bundled Pony Tail pack with one setting changed."""
    text = PONY_TAIL.read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / name
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


# --------------------------------------------------------------------------- passing and failing


def test_a_scenario_of_the_rule_the_pack_plays_passes():
    (result,) = run_scenario_text("pony_tail", BLOCKED)
    assert (result.name, result.passed) == ("a black three blocks the pile", True)


def test_a_pack_without_the_rule_fails_at_the_expectation_with_the_difference(tmp_path):
    pack = variant(tmp_path, "blocked_by: [3C, 3S]", "blocked_by: []")
    assert failures(pack, BLOCKED) == [
        "s.yaml:8:18: a black three blocks the pile, step 1 (take 9 9): expected it to be "
        "refused with pile/blocked, but it was refused with pile/top-unmeldable: a 3C cannot "
        "be melded, so the pile cannot be taken",
        "s.yaml:10:36: a black three blocks the pile, step 2: pile blocked: expected true, "
        "got false",
    ]


def test_every_bundled_example_scenario_passes_on_its_pack():
    files = sorted((ROOT / "rulepacks" / "scenarios").glob("*.yaml"))
    assert files, "the bundled packs ship example scenarios"
    for path in files:
        (( _, results),) = run_scenarios(path.stem, [path])
        assert not isinstance(results, ScenarioError), str(results)
        assert results and all(r.passed for r in results), [str(f) for r in results
                                                             for f in r.failures]


def test_the_bundled_examples_catch_changed_rules_of_pony_tail(tmp_path):
    changes = [
        ("{below: 15000, minimum: 50}", "{below: 15000, minimum: 30}", "PT-13"),
        ("upcard_turn_again: [bonus, wild]", "upcard_turn_again: [bonus]", "PT-3"),
        ("pickup_on_book: side_first", "pickup_on_book: never", "PT-16"),
        ("value: 300}", "value: 400}", "PT-18"),
    ]
    for old, new, clause in changes:
        pack = variant(tmp_path, old, new, f"{clause}.yaml")
        ((_, results),) = run_scenarios(pack, [bundled_scenarios("pony_tail")])
        failed = {r.name.split()[0] for r in results if not r.passed}
        assert clause in failed, (old, new, failed)


def test_three_silent_rule_differences_in_a_classic_canasta_pack_that_validates(tmp_path):
    """The issue's story: a Classic Canasta variant that validates ok plays three rules
    differently; the shipped example scenarios name each one."""
    from meldkit import check_pack

    text = (ROOT / "rulepacks" / "classic_canasta.yaml").read_text(encoding="utf-8")
    for old, new in (("frozen_until_melded: true", "frozen_until_melded: false"),
                     ('going_out_ranks: ["3"]', "going_out_ranks: []"),
                     ("{below: 3000, minimum: 90}", "{below: 3000, minimum: 60}")):
        assert old in text
        text = text.replace(old, new, 1)
    pack = tmp_path / "my_classic.yaml"
    pack.write_text(text, encoding="utf-8")
    assert check_pack(pack) == []
    ((_, results),) = run_scenarios(pack, [bundled_scenarios("classic_canasta")])
    assert sorted(r.name.split()[0] for r in results if not r.passed) == ["CC-11", "CC-13",
                                                                           "CC-9"]


def test_hand_score_items_show_the_item_that_differs(tmp_path):
    pack = variant(tmp_path, "value: 300}", "value: 400}")
    ((_, results),) = run_scenarios(pack, [bundled_scenarios("pony_tail")])
    (going_out,) = [r for r in results if r.name.startswith("PT-18")]
    messages = [f.message for f in going_out.failures]
    assert "hand 1, team 0, books: expected 8300, got 8400" in messages
    assert "hand 1, team 0, total: expected 8755, got 8855" in messages


def test_hands_compare_by_rank_when_the_expectation_names_ranks_only():
    text = BLOCKED.replace("refused: pile/blocked", "refused: true").replace(
        "pile: {top: 3C, blocked: true}", "hand_contains: {0: [9, 9]}\n          hand: {0: [9, K]}")
    (message,) = failures("pony_tail", text)
    assert message.startswith("s.yaml:11:21: a black three blocks the pile, step 2: hand of "
                              "seat 0: expected 9 K, got A 4 4 ")
    assert message.endswith("(not expected A 4 4 5 5 6 6 8 8 9 10 J Q)")


def test_a_refused_move_stops_the_scenario_and_says_why():
    text = BLOCKED.replace("      - move: take 9 9\n        refused: pile/blocked\n",
                           "      - discard 9\n")
    (message,) = failures("pony_tail", text)
    assert message == ("s.yaml:7:9: a black three blocks the pile, step 1 (discard 9): "
                       "'discard 9' was refused: draw first: from the stock or the discard pile "
                       "[turn/draw-first]")


def test_a_move_that_is_not_notation_is_located():
    text = BLOCKED.replace("move: take 9 9\n        refused: pile/blocked", "move: grab 9 9")
    (message,) = failures("pony_tail", text)
    assert message.startswith("s.yaml:7:15: a black three blocks the pile, step 1 (grab 9 9): "
                              "cannot read 'grab 9 9': unknown action 'grab'")


def test_a_deal_that_cannot_be_stacked_is_located_at_the_deal():
    text = BLOCKED.replace("hands: {0: [9H, 9S]}", "hands: {0: [9H, 9S], 7: [9D]}")
    (message,) = failures("pony_tail", text)
    assert message == ("s.yaml:4:28: a black three blocks the pile, deal: hands of seat 7: the "
                       "table has seats 0 to 3")
    seven = "hands: {0: [" + ", ".join(["9H"] * 7) + "]}"
    too_many = BLOCKED.replace("hands: {0: [9H, 9S]}", seven)
    (message,) = failures("pony_tail", too_many)
    assert message == ("s.yaml:4:7: a black three blocks the pile, deal: cannot deal it: hand "
                       "of seat 0: no 9H left in the deck")


def test_a_player_count_the_pack_does_not_play_is_reported():
    text = BLOCKED.replace("  - name: a black three blocks the pile\n",
                           "  - name: a black three blocks the pile\n    players: 100000\n")
    assert failures("pony_tail", text) == [
        "s.yaml:2:5: a black three blocks the pile, players: 100000 players, but pony_tail "
        "plays 4 to 6"]


def test_a_pack_of_one_player_count_says_it_once():
    text = BLOCKED.replace("  - name: a black three blocks the pile\n",
                           "  - name: a black three blocks the pile\n    players: 3\n")
    assert failures("gin_rummy", text) == [
        "s.yaml:2:5: a black three blocks the pile, players: 3 players, but gin_rummy plays 2"]


def test_a_card_the_packs_deck_does_not_have_is_not_said_to_be_used_up():
    import meldkit

    stripped = meldkit.load_pack_text(
        "extends: rummy\nname: rummy40\ndeck: {ranks: [A, '2', '3', '4', '5', '6', '7', J, "
        "Q, K]}\n", filename="rummy40.yaml")
    text = ("scenarios:\n  - name: an eight\n    deal:\n      hands: {0: [8H]}\n"
            "    steps:\n      - move: draw\n")
    (message,) = failures(stripped, text)
    assert message.endswith("hand of seat 0: the pack's deck has no 8H"), message
    assert "left in the deck" not in message


def test_hand_ended_null_expects_that_no_hand_has_ended_yet():
    still = BLOCKED.replace("          pile: {top: 3C, blocked: true}\n",
                            "          pile: {top: 3C, blocked: true}\n"
                            "          hand_ended: null\n")
    assert failures("pony_tail", still) == []
    ended = ("scenarios:\n  - name: out at once\n    players: 3\n    deal:\n"
             "      hands: {0: [5H, 6H, 7H, 9C, 9D]}\n      stock: [9H]\n    steps:\n"
             "      - moves: [draw, meld 5H 6H 7H, meld 9C 9D 9H]\n"
             "        expect: {hand_ended: null}\n")
    tonk = ("extends: rummy\nname: tonkish\ndeal: {hand: 5}\n"
            "going_out: {requires_discard: false}\n")
    import meldkit

    (message,) = failures(meldkit.load_pack_text(tonk, filename="tonkish.yaml"), ended)
    assert message.endswith("expected no hand to have ended, but hand 1 ended by went_out")


def test_seat_turn_is_checked_before_a_move_and_in_a_step_without_one():
    text = BLOCKED.replace("      - move: take 9 9\n", "      - by: 1\n        move: take 9 9\n")
    (message,) = failures("pony_tail", text)
    assert "expected seat 1 to play, but it is seat 0's turn" in message
    text = BLOCKED.replace("      - expect:\n", "      - by: 2\n      - expect:\n")
    (message,) = failures("pony_tail", text)
    assert message == ("s.yaml:9:9: a black three blocks the pile, step 2: expected seat 2 to "
                       "play, but it is seat 0's turn")


def test_scenarios_cover_table_meld_packs_whose_moves_name_suits():
    """Moves are notation and hands are card codes, so a pack of another engine (rummy,
    whose melds are runs named by suit) is tested the same way."""
    text = """\
scenarios:
  - name: a run of four hearts is melded, named by suit
    deal:
      hands: {0: [4H, 5H, 6H, KS]}
      stock: [7H]
    steps:
      - expect:
          refused: {meld 4H 5H 6H: true}
      - move: draw
        by: 0
        expect:
          hand_contains: {0: [4H, 5H, 6H, 7H]}
          legal: [meld 4H 5H 6H, meld 4H 5H 6H 7H]
      - move: meld 4H 5H 6H 7H
        expect:
          melds: {0: [[4H, 5H, 6H, 7H]]}
          hand_size: {0: 7}
"""
    assert failures("rummy", text) == []
    wrong = text.replace("melds: {0: [[4H, 5H, 6H, 7H]]}", "melds: {0: [[4H, 5H, 6H]]}")
    assert failures("rummy", wrong) == [
        "s.yaml:16:22: a run of four hearts is melded, named by suit, step 3 (meld 4H 5H 6H 7H): "
        "melds of team 0: no meld 4H 5H 6H, not expected 4H 5H 6H 7H (the table has: "
        "4H 5H 6H 7H)"]


def test_gin_offers_the_first_upcard_before_anyone_draws():
    text = """\
scenarios:
  - name: the first upcard is offered before anyone draws
    steps:
      - expect:
          hand_size: {0: 10, 1: 10}
          pile: {size: 1}
          refused: {draw: true}
          legal: [take, pass]
      - {move: pass, by: 0}
      - {move: pass, by: 1}
      - {move: draw, by: 0, expect: {hand_size: {0: 11}}}
"""
    assert failures("gin_rummy", text) == []


# --------------------------------------------------------------------------- untrusted files


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("scenarios: [\n", "s.yaml:2:1: invalid YAML"),
        ("", "s.yaml:1:1: the file is empty"),
        ("- 3\n", "s.yaml:1:3: scenarios[0]: expected a mapping, got 3 (an integer)"),
        ("scenarios:\n  - name: x\n    stepz: []\n",
         "s.yaml:3:5: scenarios[0].stepz: unknown key (did you mean 'steps'?)"),
        ("scenarios:\n  - steps: []\n", "s.yaml:2:5: scenarios[0]: expected a 'name:'"),
        ("scenarios:\n  - name: x\n    deal: {hands: {0: [9X]}}\n",
         "s.yaml:3:24: scenarios[0].deal.hands.0[0]: '9X' is not a card"),
        ("scenarios:\n  - name: x\n    deal: {hands: {north: [9H]}}\n",
         "s.yaml:3:20: scenarios[0].deal.hands.north: expected a seat number"),
        ("scenarios:\n  - name: x\n    steps:\n      - expect: {pile: {top: 9H, colour: red}}\n",
         "s.yaml:4:34: scenarios[0].steps[0].expect.pile.colour: unknown key"),
        ("scenarios:\n  - name: x\n    steps:\n      - expect: {pile: {top: 2}}\n",
         "s.yaml:4:30: scenarios[0].steps[0].expect.pile.top: expected one card code (9H, 10D, "
         "JK) or null for an empty pile, got '2', not a card"),
        ("scenarios:\n  - name: x\n    steps:\n      - expect: {pile: {top: [9H]}}\n",
         "s.yaml:4:30: scenarios[0].steps[0].expect.pile.top: expected one card code (9H, 10D, "
         "JK) or null for an empty pile, got a list"),
        ("scenarios:\n  - name: x\n    steps:\n      - {moves: [draw, draw], refused: true}\n",
         "s.yaml:4:40: scenarios[0].steps[0].refused: refused: needs exactly one move"),
        ("scenarios:\n  - name: x\n    steps:\n      - expect: {hand_size: {0: many}}\n",
         "s.yaml:4:33: scenarios[0].steps[0].expect.hand_size.0: expected a whole number, got "
         "'many' (a string)"),
        ("scenarios:\n  - name: x\n    steps:\n      - expect: {gameover: true}\n",
         "s.yaml:4:18: scenarios[0].steps[0].expect.gameover: unknown key (did you mean "
         "'game_over'?)"),
        ("scenarios: &a [*a]\n", "s.yaml"),
        ("a: " + "[" * 3000 + "]" * 3000 + "\n", "s.yaml:1:"),
        ("a: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\n"
         "c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c]\n"
         "e: [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d, *d, *d, *d, *d, *d, *d, *d, *d, *d, *d]\n",
         "s.yaml:5:"),
        ("scenarios: !!python/object:os.system [ls]\n", "s.yaml:1:"),
        ("a: &t [x]\nscenarios: &t []\n", "s.yaml:2:12: the anchor &t is set again"),
    ],
)
def test_a_bad_scenario_file_is_reported_where_written_never_as_a_traceback(text, expected):
    with pytest.raises(ScenarioError) as info:
        load_scenarios(text=text, filename="s.yaml")
    assert any(str(p).startswith(expected) for p in info.value.problems), info.value.problems


def test_every_problem_of_a_file_is_reported_at_once():
    text = "scenarios:\n  - name: x\n    seed: -1\n    players: two\n    stepz: []\n"
    with pytest.raises(ScenarioError) as info:
        load_scenarios(text=text, filename="s.yaml")
    assert [(p.line, p.path) for p in info.value.problems] == [
        (5, "scenarios[0].stepz"), (4, "scenarios[0].players"), (3, "scenarios[0].seed")]


def test_a_missing_file_and_a_bad_pack_are_errors_not_tracebacks(tmp_path):
    ((path, error),) = run_scenarios("pony_tail", [tmp_path / "none.yaml"])
    assert isinstance(error, ScenarioError)
    assert str(error.problems[0]) == f"{tmp_path / 'none.yaml'}: no such file"
    with pytest.raises(RulePackError):
        run_scenarios(tmp_path / "nopack.yaml", [])


def test_a_device_a_fifo_or_a_directory_is_refused_without_reading(tmp_path):
    import os

    fifo = tmp_path / "fifo.yaml"
    os.mkfifo(fifo)
    for path, message in (("/dev/zero", "is not a regular file"), (fifo, "is not a regular file"),
                          (tmp_path, "is a directory")):
        with pytest.raises(ScenarioError) as info:
            load_scenarios(path)
        assert message in str(info.value.problems[0]), path


def test_a_directory_runs_every_yaml_file_in_it(tmp_path):
    (tmp_path / "a.yaml").write_text(BLOCKED, encoding="utf-8")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "b.yml").write_text(BLOCKED, encoding="utf-8")
    (tmp_path / "notes.txt").write_text("not a scenario", encoding="utf-8")
    ran = run_scenarios("pony_tail", [tmp_path])
    assert [p.name for p, _ in ran] == ["a.yaml", "b.yml"]


# --------------------------------------------------------------------------- the docs


def _doc_block(title: str) -> str:
    text = DOCS_PAGE.read_text(encoding="utf-8")
    match = re.search(r'```yaml title="' + re.escape(title) + r'"[^\n]*\n(.*?)\n```', text, re.S)
    assert match, f"the scenarios page has a block titled {title}"
    return match[1] + "\n"


def test_every_scenario_key_is_documented_on_the_authoring_page():
    text = DOCS_PAGE.read_text(encoding="utf-8")
    for keys in (SCENARIO_KEYS, DEAL_KEYS, STEP_KEYS, EXPECT_KEYS):
        for key in keys:
            assert f"`{key}`" in text, key


def test_the_scenario_written_from_the_docs_catches_a_wrong_key_in_a_copy_of_the_pack(tmp_path):
    """The issue's acceptance test: a scenario file written from the docs alone passes on
    the bundled pack and catches a deliberately wrong key in a copy of it."""
    text = _doc_block("house_rules.scenarios.yaml")
    assert all(r.passed for r in run_scenario_text("pony_tail", text))
    wrong = variant(tmp_path, "frozen_take_with: same_rank_pair",
                    "frozen_take_with: natural_pair")
    found = failures(wrong, text, "house_rules.scenarios.yaml")
    assert found, "the wrong key went unnoticed"
    assert all(re.match(r"house_rules\.scenarios\.yaml:\d+:\d+: ", f) for f in found)
    assert found[0] in DOCS_PAGE.read_text(encoding="utf-8")  # the page shows this very output


def test_hand_score_names_a_table_packs_item_labels(tmp_path):
    """A scenario checks the ``laid`` and ``held`` items by name (a variant that stops
    counting the cards held fails on ``held``, not only on the total)."""
    text = (ROOT / "rulepacks" / "rummy_500.yaml").read_text(encoding="utf-8")
    assert "    - {item: held}\n" in text
    pack = tmp_path / "rummy_500.yaml"
    pack.write_text(text.replace("    - {item: held}\n", ""), encoding="utf-8")
    ((_, results),) = run_scenarios(pack, [bundled_scenarios("rummy_500")])
    (first,) = [r for r in results if r.name.startswith("R5-2 R5-7")]
    messages = [f.message for f in first.failures]
    assert "hand 1, team 1, held: expected -58, got 0" in messages


def test_start_scores_are_refused_for_a_pack_that_keeps_score_sheets(tmp_path):
    """A pack with score sheets sums its scores from them after every hand, so a
    scenario's ``start_scores`` used to vanish at the first hand's end (a pack author's
    Hollywood gin, stop 41): the scenario now fails at it and says why."""
    pack = tmp_path / "sheets.yaml"
    pack.write_text("extends: gin_rummy\nname: two_sheets\nscoring:\n  sheets:\n"
                    "    - {name: first}\n    - {name: second, from_win: 2}\n",
                    encoding="utf-8")
    text = ("players: 2\nscenarios:\n  - name: started\n    start_scores: [95, 0]\n"
            "    steps: [pass]\n")
    assert failures(str(pack), text) == [
        "s.yaml:3:5: started, start_scores: this pack keeps score sheets (scoring.sheets): its "
        "scores are the sheets' sums, which a scenario cannot set; play the hands that "
        "reach them instead"]
    assert failures("gin_rummy", text) == []  # no sheets: the scores start there


def test_a_legal_expectation_that_fails_lists_the_moves_legal_now():
    """A pack author had to guess at moves when ``legal:`` failed (Carioca, stop 41)."""
    text = ("players: 2\nscenarios:\n  - name: first turn\n    steps:\n"
            "      - expect: {legal: meld 5H 6H 7H}\n")
    (failure,) = failures("rummy", text)
    assert failure.endswith("[turn/wrong-phase]; legal now: draw, take"), failure


@pytest.mark.parametrize(("parent", "players", "size"), [("rummy", 3, 9), ("pony_tail", 4, 16)])
def test_a_stacked_deal_is_checked_against_the_first_deal_of_a_schedule(tmp_path, parent,
                                                                        players, size):
    """A schedule's first item may deal more cards than the pack's own ``deal.hand``: a
    pack author's Liverpool (twelve cards) was told '12 cards, but 10 are dealt' though the
    game deals twelve."""
    pack = tmp_path / "scheduled.yaml"
    pack.write_text(f"extends: {parent}\nname: scheduled\nschedule:\n"
                    f"  - {{deal: {{hand: {size}}}}}\n", encoding="utf-8")
    hand = [f"{rank}{suit}" for suit in "HS" for rank in
            ("4", "5", "6", "7", "8", "9", "10", "J")][:size]
    text = (f"players: {players}\nscenarios:\n  - name: the first deal\n"
            f"    deal: {{hands: {{0: [{', '.join(hand)}]}}}}\n"
            f"    steps:\n      - expect: {{hand_size: {{0: {size}}}}}\n")
    assert failures(str(pack), text) == []


def test_a_move_expected_after_the_game_is_over_says_the_game_is_over(tmp_path):
    """A pack author read "it is seat None's turn" for a step after the last hand."""
    pack = tmp_path / "one_hand.yaml"
    pack.write_text("extends: rummy\nname: one_hand\ngame: {hands: 1}\n", encoding="utf-8")
    text = ("players: 2\nscenarios:\n  - name: over\n"
            "    deal: {hands: {0: [5H, 6H, 7H, 8H, 9H, 10H, JH, QS, QD, QC]}, stock: [2C]}\n"
            "    steps:\n      - moves: [draw, meld 5H 6H 7H 8H 9H 10H JH, meld QS QD QC,"
            " discard 2C]\n        by: 0\n      - {move: draw, by: 1}\n")
    assert failures(str(pack), text) == [
        "s.yaml:8:16: over, step 2 (draw): expected seat 1 to play, but the game is over: "
        "nobody is to play"]


def test_a_refusal_of_any_reason_that_did_not_come_says_so_without_a_code():
    """A Rommé pack author's finding: ``refused: {…: true}`` (any reason will do) failed
    with "expected … to be refused with true"."""
    text = """\
players: 2
scenarios:
  - name: drawing is legal
    steps:
      - expect: {refused: {draw: true}}
      - move: draw
        refused: true
"""
    (result,) = run_scenario_text("rummy", text, "s.yaml")
    failures = [str(f) for f in result.failures]
    assert any("expected 'draw' to be refused, but it is legal" in f for f in failures), failures
    assert not any("with true" in f for f in failures), failures


def test_a_hand_expected_after_the_game_ended_says_the_game_is_over(tmp_path):
    """(Loba's author: "expected hand 2, got hand 1" hid that a filler hand's count had
    ended the game.)"""
    (tmp_path / "s.scenarios.yaml").write_text("""\
pack: rummy
players: 2
scenarios:
  - name: the count ends the game
    start_scores: [95, 0]
    deal:
      hands: {0: [AH, 2H, 3H, 4H, 5H, 6H, 7H, 8H, 9H, 10H]}
      stock: [JH]
    steps:
      - moves: [draw, meld AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH]
        expect: {hand_number: 2}
""")
    ((_, results),) = run_scenarios("rummy", [tmp_path / "s.scenarios.yaml"])
    (failure,) = results[0].failures
    assert "expected hand 2, got hand 1: the game is over, after hand 1" in failure.message


def test_scores_may_leave_a_team_out_with_null():
    """A pack author's Shanghai had to name every seat's score to check one (stop 48)."""
    import meldkit

    text = """scenarios:
  - name: one team's score
    players: 3
    start_scores: [10, 20, 30]
    steps:
      - expect: {scores: [10, null, 30]}
  - name: a wrong one still fails
    players: 3
    start_scores: [10, 20, 30]
    steps:
      - expect: {scores: [null, 21, null]}
"""
    got = failures(meldkit.load_pack("rummy"), text)
    assert len(got) == 1 and "scores: expected [null, 21, null], got [10, 20, 30]" in got[0]
    with pytest.raises(ScenarioError, match=r"one per team \(null for one not compared\)"):
        load_scenarios(text="scenarios:\n  - name: x\n    steps:\n      - expect: "
                            "{scores: [null, null]}\n", filename="s.yaml")
