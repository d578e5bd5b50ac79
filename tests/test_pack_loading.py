"""Loading rule packs: the bundled pack, ``extends``, caching, the digest, and every
problem a pack author can make reported at once with ``file:line:col``, key path, the bad
value, what was expected and a did-you-mean."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path
from textwrap import dedent

import pytest

from meldkit._errors import PackProblem, PluginError, RulePackError
from meldkit._loader import (
    RulePack,
    available_packs,
    bundled_pack_dir,
    check_pack,
    load_pack,
    load_pack_text,
)

# A small valid pack that extends nothing, for checks where inherited lists or mappings
# would get in the way (mappings merge, so a child cannot drop a parent's key).
STANDALONE = """\
meldkit: 1
name: standalone
deck:
  decks: 2
  jokers_per_deck: 2
players:
  min: 2
  max: 4
deal:
  hand: 11
"""


def write(directory: Path, name: str, text: str) -> Path:
    path = directory / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(dedent(text), encoding="utf-8")
    return path


def line_of(text: str, needle: str, start: int = 1) -> int:
    """The 1-based number of the first line at or after ``start`` containing ``needle``."""
    lines = dedent(text).splitlines()
    for number, line in enumerate(lines[start - 1 :], start):
        if needle in line:
            return number
    raise AssertionError(f"{needle!r} not in the text")


def problems_of(path: Path) -> list[PackProblem]:
    with pytest.raises(RulePackError) as info:
        load_pack(path)
    return info.value.problems


def problem_at(path: Path, key_path: str) -> str:
    """The one reported problem for ``key_path``, as the error message prints it."""
    found = [str(p) for p in problems_of(path) if p.path == key_path]
    assert len(found) == 1, found
    return found[0]


def only_problem(text: str, filename: str = "house.yaml"):
    """The one problem the loader reports for pack ``text`` (it must refuse it)."""
    with pytest.raises(RulePackError) as exc:
        load_pack_text(text, filename)
    (problem,) = exc.value.problems
    return problem


# --------------------------------------------------------------------------- the bundled pack


def test_pony_tail_loads_with_its_rules_of_record() -> None:
    pack = load_pack("pony_tail")
    spec = pack.spec
    assert pack.name == "pony_tail"
    assert spec.deck.decks == 6 and spec.deck.jokers_per_deck == 2  # PT-1
    assert (spec.players.min, spec.players.max, spec.players.teams) == (4, 6, 2)  # PT-2
    assert (spec.deal.hand, spec.deal.reserve) == (15, 13)  # PT-3
    assert [k.name for k in spec.books.kinds] == ["sevens", "wild", "red", "black"]  # PT-11
    assert spec.going_out.required_books == ["sevens", "wild", "red", "black"]  # PT-18
    assert [t.below for t in spec.initial_meld.minimums] == [15000, 30000, None]  # PT-13
    assert spec.game.target == 50000  # PT-27


def test_available_packs_lists_the_bundled_pony_tail() -> None:
    names = available_packs()
    assert "pony_tail" in names
    assert names == sorted(names)


def test_bundled_pack_dir_holds_the_pack_files() -> None:
    assert (bundled_pack_dir() / "pony_tail.yaml").is_file()


def test_loading_by_path_gives_the_same_pack_as_by_name() -> None:
    path = bundled_pack_dir() / "pony_tail.yaml"
    by_path = load_pack(path)
    assert by_path.digest == load_pack("pony_tail").digest
    assert by_path.source == str(path)


def test_unknown_bundled_name_suggests_the_closest() -> None:
    with pytest.raises(RulePackError) as info:
        load_pack("pony_tial")
    message = str(info.value)
    assert "'pony_tial' is not a bundled pack" in message
    assert "available: " in message and "pony_tail" in message
    assert "(did you mean 'pony_tail'?)" in message


def test_pack_without_a_name_is_named_after_its_file(tmp_path: Path) -> None:
    path = write(tmp_path, "house_rules.yaml", STANDALONE.replace("name: standalone\n", ""))
    assert load_pack(path).name == "house_rules"


# --------------------------------------------------------------------------- digest and cache


def test_digest_is_stable_across_loads() -> None:
    text = (bundled_pack_dir() / "pony_tail.yaml").read_text(encoding="utf-8")
    first = load_pack_text(text)
    again = load_pack_text(text)
    assert len(first.digest) == 64
    assert first.digest == again.digest == load_pack("pony_tail").digest


def test_digest_changes_when_a_value_changes() -> None:
    text = (bundled_pack_dir() / "pony_tail.yaml").read_text(encoding="utf-8")
    changed = text.replace("target: 50000", "target: 40000")
    assert changed != text
    assert load_pack_text(changed).digest != load_pack_text(text).digest


def test_digest_ignores_comments_and_key_order() -> None:
    one = load_pack_text(STANDALONE + "game: {target: 900}  # short game\n")
    other = load_pack_text("game:\n  target: 900\n" + STANDALONE)
    assert one.digest == other.digest


def test_warm_load_comes_from_the_cache_quickly() -> None:
    cold = load_pack("pony_tail")
    start = time.perf_counter()
    for _ in range(100):
        warm = load_pack("pony_tail")
    per_load = (time.perf_counter() - start) / 100
    assert warm.spec is cold.spec
    assert per_load < 0.005  # the budget is 50 ms; a cached load takes microseconds


def test_changed_file_is_reloaded(tmp_path: Path) -> None:
    path = write(tmp_path, "house.yaml", STANDALONE + "game: {target: 100}\n")
    assert load_pack(path).spec.game.target == 100
    path.write_text(STANDALONE + "game: {target: 200}\n", encoding="utf-8")
    os.utime(path, ns=(time.time_ns(), time.time_ns() + 10**9))
    assert load_pack(path).spec.game.target == 200


def test_changed_parent_is_reloaded_under_a_cached_child(tmp_path: Path) -> None:
    parent = write(tmp_path, "base.yaml", STANDALONE)
    child = write(tmp_path, "child.yaml", "extends: base.yaml\n")
    assert load_pack(child).spec.deal.hand == 11
    parent.write_text(STANDALONE.replace("hand: 11", "hand: 12"), encoding="utf-8")
    os.utime(parent, ns=(time.time_ns(), time.time_ns() + 10**9))
    assert load_pack(child).spec.deal.hand == 12


# --------------------------------------------------------------------------- extends


def test_child_extends_a_bundled_pack_by_name(tmp_path: Path) -> None:
    path = write(tmp_path, "short_pony.yaml", "extends: pony_tail\ngame: {target: 10000}\n")
    pack = load_pack(path)
    assert pack.spec.game.target == 10000
    assert pack.spec.deck.decks == 6
    assert pack.spec.extends == "pony_tail"


def test_a_child_removes_a_table_entry_of_its_parent_with_null(tmp_path: Path) -> None:
    """A pack author's Pennies from Heaven kept classic canasta's red-three counts 4, 5, 6
    beside its own 8, and could not drop them: ``null`` for a table's entry now removes it;
    a section's key written null still clears to null, and an entry the parent has not got
    is still refused as null."""
    path = write(tmp_path, "eights.yaml", "extends: classic_canasta\nscoring:\n  bonus:\n"
                 "    by_count: {4: null, 5: null, 6: null, 8: 1000}\n")
    pack = load_pack(path)
    assert pack.spec.scoring.bonus.by_count == {8: 1000}
    rummy = write(tmp_path, "r.yaml", "extends: rummy\ndeal:\n  hand_by_players: {5: null}\n")
    assert load_pack(rummy).spec.deal.hand_by_players == {2: 10, 6: 6}
    bad = write(tmp_path, "b.yaml", "extends: classic_canasta\nscoring:\n  bonus:\n"
                "    by_count: {9: null}\n")
    assert "scoring.bonus.by_count.9: expected an integer, got null" in problem_at(
        bad, "scoring.bonus.by_count.9")


def test_child_extends_a_pack_by_path_relative_to_its_own_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write(tmp_path, "packs/base/family.yaml", STANDALONE)
    path = write(tmp_path, "packs/child.yaml", "extends: base/family.yaml\ngame: {target: 700}\n")
    monkeypatch.chdir(tmp_path.parent)  # the working directory plays no part
    pack = load_pack(path)
    assert pack.spec.game.target == 700
    assert pack.spec.deck.decks == 2


def test_extends_reads_a_yaml_name_as_a_path_and_a_slash_without_yaml_is_refused(
    tmp_path: Path,
) -> None:
    """What docs/authoring/extends.md says: a value ending in .yaml/.yml, or holding a
    slash, is a path (no slash needed), and a path must end in .yaml/.yml."""
    write(tmp_path, "family.yaml", STANDALONE)
    write(tmp_path, "base/family.yaml", STANDALONE)
    beside = write(tmp_path, "beside.yaml", "extends: family.yaml\ngame: {target: 700}\n")
    assert load_pack(beside).spec.game.target == 700
    bare = write(tmp_path, "bare.yaml", "extends: base/family\n")
    assert "'base/family': a pack file path ends in .yaml or .yml" in problem_at(bare, "extends")


def test_extends_merges_mappings_and_replaces_lists(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "child.yaml",
        """\
        extends: pony_tail
        cards:
          wild: [JK]
          values: {"2": 5}
        """,
    )
    spec = load_pack(path).spec
    assert spec.cards.wild == ["JK"]  # the list replaces the parent's
    assert spec.cards.bonus == ["3H", "3D"]  # an untouched key is inherited
    assert spec.cards.values["2"] == 5 and spec.cards.values["JK"] == 50  # mappings merge


def test_child_does_not_inherit_the_parent_name(tmp_path: Path) -> None:
    path = write(tmp_path, "grandma.yaml", "extends: pony_tail\n")
    pack = load_pack(path)
    assert pack.name == "grandma"
    assert pack.spec.title == "Pony Tail"


def test_extends_cycle_is_reported(tmp_path: Path) -> None:
    a = write(tmp_path, "a.yaml", "meldkit: 1\nextends: b.yaml\n")
    b = write(tmp_path, "b.yaml", "meldkit: 1\nname: b\nextends: a.yaml\n")
    (problem,) = problems_of(a)
    assert str(problem) == f"{b}:3:1: extends: extends forms a cycle: {a} → {b} → {a}"


def test_pack_extending_itself_is_a_cycle(tmp_path: Path) -> None:
    path = write(tmp_path, "me.yaml", "extends: me.yaml\n")
    assert "extends forms a cycle" in problem_at(path, "extends")


def test_unknown_bundled_parent_suggests_the_closest_name(tmp_path: Path) -> None:
    path = write(tmp_path, "child.yaml", "name: c\nextends: pony_tale\n")
    message = problem_at(path, "extends")
    assert message.startswith(f"{path}:2:1: extends: 'pony_tale' is not a bundled pack")
    assert "(did you mean 'pony_tail'?)" in message


def test_missing_parent_file_is_reported_at_extends(tmp_path: Path) -> None:
    path = write(tmp_path, "child.yaml", "extends: nowhere.yaml\n")
    message = problem_at(path, "extends")
    assert message.startswith(f"{path}:1:1: extends: 'nowhere.yaml': no such pack file")


def test_error_in_the_parent_names_the_parent_file(tmp_path: Path) -> None:
    text = STANDALONE.replace("hand: 11", "hand: eleven")
    write(tmp_path, "base.yaml", text)
    child = write(tmp_path, "child.yaml", "extends: base.yaml\ngame: {target: 700}\n")
    message = problem_at(child, "deal.hand")
    expected_file = os.path.join(str(tmp_path), "base.yaml")
    assert message.startswith(f"{expected_file}:{line_of(text, 'hand:')}:3: deal.hand:")
    assert "expected an integer, got 'eleven' (a string)" in message


def test_malformed_parent_names_the_parent_file(tmp_path: Path) -> None:
    """Without a word of it (its lines could be any YAML file's: see docs/security.md)."""
    write(tmp_path, "base.yaml", "meldkit: 1\ndeck:\n  decks: [2\n")
    child = write(tmp_path, "child.yaml", "extends: base.yaml\n")
    (problem,) = problems_of(child)
    assert (problem.file, problem.line, problem.path) == (str(child), 1, "extends")
    assert problem.message == ("'base.yaml' does not parse as a rule pack (meldkit validate "
                               "'base.yaml' shows where)")


def test_child_change_that_breaks_an_inherited_deal_is_reported_in_the_child(
    tmp_path: Path,
) -> None:
    text = "extends: pony_tail\ndeck:\n  decks: 2\n"
    path = write(tmp_path, "thin.yaml", text)
    (problem,) = problems_of(path)
    assert (problem.file, problem.line, problem.path) == (str(path), 2, "deal")


# --------------------------------------------------------------------------- wrong types and keys

PONY_CHILD_HAND = """\
extends: pony_tail
deal:
  reserve: 13
  hand: {value}
"""


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("15x", "expected an integer, got '15x' (a string)"),
        ('"15"', "expected an integer, got '15' (a string) (remove the quotes)"),
        ("true", "expected an integer, got true (a boolean)"),
        ("15.5", "expected an integer, got 15.5 (a decimal number)"),
        ("", "expected an integer, got null (this key cannot be null: leave it out to keep "
             "the value it has — its default, or what the pack this one extends gives it — "
             "or give a value)"),
    ],
)
def test_wrong_type_names_the_bad_value_and_expected_integer(
    tmp_path: Path, value: str, expected: str
) -> None:
    path = write(tmp_path, "child.yaml", PONY_CHILD_HAND.format(value=value))
    message = problem_at(path, "deal.hand")
    assert message == f"{path}:4:3: deal.hand: {expected}"


def test_yes_is_text_not_a_boolean(tmp_path: Path) -> None:
    path = write(tmp_path, "child.yaml", "extends: pony_tail\ndeal:\n  upcard: yes\n")
    message = problem_at(path, "deal.upcard")
    assert message.startswith(f"{path}:3:3: deal.upcard: expected true or false, got 'yes'")
    assert "write true or false" in message


def test_unknown_key_suggests_the_closest_field(tmp_path: Path) -> None:
    text = "extends: pony_tail\nplayers:\n  min: 4\n  maxx: 6\n"
    path = write(tmp_path, "child.yaml", text)
    message = problem_at(path, "players.maxx")
    assert message == f"{path}:4:3: players.maxx: unknown key (did you mean 'max'?)"


def test_unknown_key_without_a_close_match_lists_the_known_keys(tmp_path: Path) -> None:
    path = write(tmp_path, "child.yaml", "extends: pony_tail\nturn:\n  zzz: 1\n")
    message = problem_at(path, "turn.zzz")
    assert ("unknown key (expected one of draw, draw_by_players, keep_card_to_discard, drop, "
            "stock_card, turned_passes, forced, play_or_draw, discard)") in message


def test_unknown_top_level_key_suggests_the_section(tmp_path: Path) -> None:
    path = write(tmp_path, "child.yaml", "extends: pony_tail\ndecks:\n  decks: 2\n")
    assert problem_at(path, "decks") == f"{path}:2:1: decks: unknown key (did you mean 'deck'?)"


def test_misspelt_choice_lists_the_choices_and_suggests_the_closest(tmp_path: Path) -> None:
    path = write(
        tmp_path, "child.yaml", "extends: pony_tail\ndeal:\n  first_player: left_of_delaer\n"
    )
    message = problem_at(path, "deal.first_player")
    assert message == (
        f"{path}:3:3: deal.first_player: 'left_of_delaer' is not one of left_of_dealer, "
        "high_card (did you mean 'left_of_dealer'?)"
    )


def test_misspelt_choice_in_a_list_names_its_index(tmp_path: Path) -> None:
    path = write(tmp_path, "child.yaml", "extends: pony_tail\ndeal:\n  order: [hand, reserv]\n")
    message = problem_at(path, "deal.order[1]")
    assert message.startswith(f"{path}:3:17: deal.order[1]: 'reserv' is not one of hand, reserve")
    assert "(did you mean 'reserve'?)" in message


def test_text_where_a_list_is_expected_is_refused(tmp_path: Path) -> None:
    # cattrs alone would read "JK" as the list ["J", "K"]
    path = write(tmp_path, "child.yaml", "extends: pony_tail\ncards:\n  wild: JK\n")
    assert problem_at(path, "cards.wild") == (
        f"{path}:3:3: cards.wild: expected a list, got 'JK' (a string)"
    )


def test_unquoted_rank_in_a_list_asks_for_quotes(tmp_path: Path) -> None:
    path = write(tmp_path, "child.yaml", "extends: pony_tail\ncards:\n  wild: [JK, 2]\n")
    message = problem_at(path, "cards.wild[1]")
    assert 'expected a string, got 2 (an integer) (write it in quotes: "2")' in message


def test_unquoted_rank_as_a_mapping_key_asks_for_quotes(tmp_path: Path) -> None:
    path = write(tmp_path, "child.yaml", "extends: pony_tail\ncards:\n  values:\n    2: 20\n")
    message = problem_at(path, "cards.values.2")
    assert message.startswith(f"{path}:4:5: cards.values.2: the key must be a string, got 2")
    assert 'write it in quotes: "2"' in message


def test_section_that_is_not_a_mapping_is_refused(tmp_path: Path) -> None:
    path = write(tmp_path, "child.yaml", "extends: pony_tail\ndeck: 6\n")
    assert problem_at(path, "deck") == f"{path}:2:1: deck: expected a mapping, got 6 (an integer)"


def test_problem_in_a_list_of_mappings_names_the_item(tmp_path: Path) -> None:
    text = """\
    extends: pony_tail
    books:
      kinds:
        - {name: sevens, value: 5000}
        - {name: wild, value: lots}
    """
    path = write(tmp_path, "child.yaml", text)
    message = problem_at(path, "books.kinds[1].value")
    assert message.startswith(f"{path}:5:20: books.kinds[1].value: expected an integer")


# --------------------------------------------------------------------------- unreadable files


def test_malformed_yaml_is_reported_with_its_line(tmp_path: Path) -> None:
    text = "name: broken\ndeck:\n  decks: 6\n  jokers_per_deck: [2\nplayers: {}\n"
    path = write(tmp_path, "broken.yaml", text)
    (problem,) = problems_of(path)
    assert problem.file == str(path)
    assert problem.line is not None and problem.line >= 4
    assert problem.message.startswith("invalid YAML: ")


def test_malformed_yaml_in_text_is_reported_with_its_line() -> None:
    with pytest.raises(RulePackError) as info:
        load_pack_text("deck:\n  decks: 6\n bad: : x\n", filename="inline.yaml")
    assert "inline.yaml:3:" in str(info.value)


def test_duplicate_key_is_reported_where_it_repeats(tmp_path: Path) -> None:
    path = write(tmp_path, "twice.yaml", "deck: {decks: 1}\nname: a\ndeck: {decks: 2}\n")
    (problem,) = problems_of(path)
    assert (problem.line, problem.col) == (3, 1)
    assert 'duplicate key "deck"' in problem.message


def test_missing_file_is_reported(tmp_path: Path) -> None:
    path = tmp_path / "absent.yaml"
    assert str(problems_of(path)[0]) == f"{path}: no such file"


def test_empty_file_is_reported(tmp_path: Path) -> None:
    path = write(tmp_path, "empty.yaml", "# nothing yet\n")
    assert str(problems_of(path)[0]).startswith(f"{path}:1:1: the pack is empty")


def test_top_level_list_is_refused(tmp_path: Path) -> None:
    path = write(tmp_path, "list.yaml", "- deck\n- players\n")
    message = str(problems_of(path)[0])
    assert message.startswith(f"{path}:1:1: the top level must be a mapping")
    assert message.endswith("got a list")


# --------------------------------------------------------------------------- semantic checks


@pytest.mark.parametrize(
    ("section", "key_path", "bad"),
    [
        ("cards:\n  wild: [JK, ZZ]\n", "cards.wild[1]", "ZZ"),
        ("cards:\n  values: {QX: 10}\n", "cards.values.QX", "QX"),
        ('pile:\n  blocked_by: [3C, "11"]\n', "pile.blocked_by[1]", "11"),
        ('melds:\n  no_wild_ranks: ["77"]\n', "melds.no_wild_ranks[0]", "77"),
        ("deal:\n  high_card_order: [A, KK]\n", "deal.high_card_order[1]", "KK"),
        ('scoring:\n  reserve_values: {"3Z": 1}\n', "scoring.reserve_values.3Z", "3Z"),
        ('books:\n  kinds:\n    - {name: x, ranks: ["0"]}\n', "books.kinds[0].ranks[0]", "0"),
    ],
)
def test_bad_card_selector_is_reported_where_written(
    tmp_path: Path, section: str, key_path: str, bad: str
) -> None:
    text = "extends: pony_tail\n" + section + "going_out: {required_books: []}\n"
    path = write(tmp_path, "child.yaml", text)
    message = problem_at(path, key_path)
    assert message.startswith(f"{path}:{line_of(text, bad)}:")
    assert f"{key_path}: {bad!r} is not a card code (expected a rank and a suit" in message


def test_every_card_in_the_deck_needs_a_value(tmp_path: Path) -> None:
    values = (
        '  values: {A: 20, "2": 20, K: 10, Q: 10, J: 10, "10": 10, "9": 10, "8": 10,'
        ' "7": 5, "6": 5, "5": 5, "4": 5, 3H: 5}\n'
    )
    text = STANDALONE + "cards:\n" + values
    path = write(tmp_path, "p.yaml", text)
    message = problem_at(path, "cards.values")
    assert message.startswith(f"{path}:{line_of(text, 'values:')}:3: cards.values: ")
    assert "no value for 3C, 3D, 3S, JK" in message


def test_jokers_need_a_value_only_when_they_are_in_the_deck(tmp_path: Path) -> None:
    values = (
        '  values: {A: 20, "2": 20, "3": 5, "4": 5, "5": 5, "6": 5, "7": 5, "8": 10,'
        ' "9": 10, "10": 10, J: 10, Q: 10, K: 10}\n'
    )
    with_jokers = write(tmp_path, "j.yaml", STANDALONE + "cards:\n" + values)
    assert "no value for JK" in problem_at(with_jokers, "cards.values")
    without = STANDALONE.replace("jokers_per_deck: 2", "jokers_per_deck: 0")
    assert load_pack(write(tmp_path, "n.yaml", without + "cards:\n" + values)).spec.deck.decks == 2


@pytest.mark.parametrize(
    ("deck", "key_path", "expected"),
    [
        ("{jokers_per_deck: 2}", "deck", "set decks or decks_per_player"),
        ("{decks: 2, decks_per_player: 1}", "deck.decks_per_player", "not both"),
        ("{decks: 0}", "deck.decks", "expected a positive number of decks, got 0"),
        ("{decks_per_player: -1}", "deck.decks_per_player", "positive number of decks, got -1"),
        ("{decks: 2, jokers_per_deck: -2}", "deck.jokers_per_deck", "expected at least 0, got -2"),
    ],
)
def test_deck_size_must_be_given_once_and_positive(
    tmp_path: Path, deck: str, key_path: str, expected: str
) -> None:
    text = STANDALONE.replace("deck:\n  decks: 2\n  jokers_per_deck: 2\n", f"deck: {deck}\n")
    path = write(tmp_path, "p.yaml", text)
    message = problem_at(path, key_path)
    assert message.startswith(f"{path}:3:")
    assert expected in message


def test_player_max_below_min_is_reported(tmp_path: Path) -> None:
    text = STANDALONE.replace("max: 4", "max: 1").replace("min: 2", "min: 3")
    path = write(tmp_path, "p.yaml", text)
    assert problem_at(path, "players.max") == f"{path}:8:3: players.max: max (1) is below min (3)"


def test_absurd_player_count_is_refused_quickly(tmp_path: Path) -> None:
    path = write(tmp_path, "c.yaml", "extends: pony_tail\nplayers:\n  max: 1000000000\n")
    assert "expected at most 64, got 1000000000" in problem_at(path, "players.max")


def test_partners_need_exactly_one_of_teams_or_team_size(tmp_path: Path) -> None:
    path = write(tmp_path, "c.yaml", "extends: pony_tail\nplayers:\n  team_size: 2\n")
    message = problem_at(path, "players.team_size")
    assert message == (
        f"{path}:3:3: players.team_size: with partners: always, set exactly one of teams or "
        "team_size"
    )


def test_team_size_that_no_player_count_can_form_is_reported(tmp_path: Path) -> None:
    text = "extends: pony_tail\nplayers:\n  min: 5\n  max: 5\n  teams: null\n  team_size: 2\n"
    path = write(tmp_path, "c.yaml", text)
    message = problem_at(path, "players.team_size")
    assert message == (
        f"{path}:6:3: players.team_size: no player count from 5 to 5 can form teams of 2"
    )


def test_always_partners_refuse_a_player_count_that_cannot_be_seated(tmp_path: Path) -> None:
    text = "extends: pony_tail\nplayers:\n  teams: null\n  team_size: 2\n"
    path = write(tmp_path, "c.yaml", text)
    message = problem_at(path, "players.team_size")
    assert "5 players cannot form teams of 2 (counts that can: 4, 6)" in message


def test_more_teams_than_players_is_reported(tmp_path: Path) -> None:
    path = write(tmp_path, "c.yaml", "extends: pony_tail\nplayers:\n  teams: 7\n")
    assert "no player count from 4 to 6 can form 7 teams" in problem_at(path, "players.teams")


def test_deal_arithmetic_message_shows_the_sum(tmp_path: Path) -> None:
    text = "extends: pony_tail\ndeck:\n  decks: 2\n"
    path = write(tmp_path, "c.yaml", text)
    message = problem_at(path, "deal")
    assert message.startswith(
        f"{path}:2:1: deal: 6 players × (15 hand + 13 reserve) + 1 upcard = 169 cards, "
        "but the deck has 108 (2 decks × 54)"
    )
    assert "too few also for 4, 5 players" in message


def test_deal_arithmetic_names_the_hand_dealt_at_the_count_it_reports(tmp_path: Path) -> None:
    # rummy deals 10 at two players: the message for four (16 each) once said "10 hand"
    path = write(tmp_path, "c.yaml", "extends: rummy\ndeal: {hand: 16}\n")
    with pytest.raises(RulePackError) as e:
        load_pack(path)
    assert f"{path}:2:1: deal: 4 players × 16 hand + 1 upcard = 65 cards, but the deck " in (
        str(e.value))


def test_deal_arithmetic_checks_the_smallest_table_with_decks_per_player(tmp_path: Path) -> None:
    text = STANDALONE.replace("decks: 2", "decks_per_player: 1").replace(
        "hand: 11", "hand: 27\n  reserve: 27"
    )
    path = write(tmp_path, "p.yaml", text)
    message = problem_at(path, "deal")
    assert message == (
        f"{path}:9:1: deal: 4 players × (27 hand + 27 reserve) + 1 upcard = 217 cards, "
        "but the deck has 216 (1 deck per player × 4 players × 54) "
        "(too few also for 2, 3 players)"
    )


def test_deal_that_fits_exactly_passes_the_arithmetic_but_its_stock_is_refused(
        tmp_path: Path) -> None:
    # 4 × 26 + 1 = 105 cards from 2 × 54 = 108: dealt, but 3 cards of stock cannot be played
    text = STANDALONE.replace("hand: 11", "hand: 26\n  upcard: true")
    path = write(tmp_path, "p.yaml", text)
    message = problem_at(path, "deal")
    assert "leave 3 of 108 cards in the stock" in message
    assert "= 105 cards" not in message  # the deal itself fits the deck
    fits = STANDALONE.replace("hand: 11", "hand: 22\n  upcard: true")  # 19 left: 2 turns
    assert load_pack(write(tmp_path, "q.yaml", fits)).spec.deal.hand == 22


def test_counts_that_must_be_positive_are_all_reported(tmp_path: Path) -> None:
    text = "extends: pony_tail\ndeal:\n  hand: 0\nturn:\n  draw: 0\nmelds:\n  min_size: 0\n"
    path = write(tmp_path, "c.yaml", text)
    assert problem_at(path, "deal.hand") == f"{path}:3:3: deal.hand: expected at least 1, got 0"
    assert problem_at(path, "turn.draw") == f"{path}:5:3: turn.draw: expected null or at least 1, got 0"
    assert "expected at least 1, got 0" in problem_at(path, "melds.min_size")


def test_meld_and_book_sizes_must_agree(tmp_path: Path) -> None:
    text = "extends: pony_tail\nmelds:\n  min_naturals: 4\nbooks:\n  size: 2\n"
    path = write(tmp_path, "c.yaml", text)
    assert "4 is more than melds.min_size (3)" in problem_at(path, "melds.min_naturals")
    assert problem_at(path, "books.size") == (
        f"{path}:5:3: books.size: 2 is smaller than melds.min_size (3)"
    )


def test_book_kind_names_must_be_unique(tmp_path: Path) -> None:
    text = """\
    extends: pony_tail
    books:
      kinds:
        - {name: red, max_wilds: 0, value: 500}
        - {name: red, min_wilds: 1, value: 300}
    going_out: {required_books: [red]}
    """
    path = write(tmp_path, "c.yaml", text)
    message = problem_at(path, "books.kinds[1].name")
    assert (
        message == f"{path}:5:8: books.kinds[1].name: 'red' is already the name of books.kinds[0]"
    )


def test_required_books_must_name_book_kinds(tmp_path: Path) -> None:
    text = "extends: pony_tail\ngoing_out:\n  required_books: [sevens, wlid]\n"
    path = write(tmp_path, "c.yaml", text)
    message = problem_at(path, "going_out.required_books[1]")
    assert message == (
        f"{path}:3:28: going_out.required_books[1]: 'wlid' is not a book kind "
        "(books.kinds: sevens, wild, red, black) (did you mean 'wild'?)"
    )


@pytest.mark.parametrize(
    ("tiers", "key_path", "expected"),
    [
        (
            "[{below: 100, minimum: 50}, {below: 100, minimum: 90}, {minimum: 120}]",
            "initial_meld.minimums[1].below",
            "100 is not above the previous tier's 100",
        ),
        (
            "[{minimum: 50}, {minimum: 90}]",
            "initial_meld.minimums[0].below",
            "only the last tier may have below: null",
        ),
        (
            "[{below: 100, minimum: 50}, {below: 200, minimum: 90}]",
            "initial_meld.minimums[1].below",
            "the last tier must have below: null so that every score has a minimum, got 200",
        ),
    ],
)
def test_initial_meld_tiers_must_rise_and_end_open(
    tmp_path: Path, tiers: str, key_path: str, expected: str
) -> None:
    text = f"extends: pony_tail\ninitial_meld:\n  minimums: {tiers}\n"
    path = write(tmp_path, "c.yaml", text)
    message = problem_at(path, key_path)
    assert message.startswith(f"{path}:3:")
    assert expected in message


def test_no_initial_meld_tiers_means_no_minimum(tmp_path: Path) -> None:
    path = write(tmp_path, "c.yaml", "extends: pony_tail\ninitial_meld:\n  minimums: []\n")
    assert load_pack(path).spec.initial_meld.minimums == []


def test_reserve_settings_without_reserve_piles_are_contradictions(tmp_path: Path) -> None:
    text = "extends: pony_tail\ndeal:\n  reserve: 0\n"
    path = write(tmp_path, "c.yaml", text)
    problems = {p.path: p for p in problems_of(path)}
    assert set(problems) == {
        "reserve.pickup_on_book",
        "reserve.pickup_at_turn_start",
        "going_out.requires_reserve",
        "scoring.reserve_penalty",
        "scoring.reserve_values",
    }
    for problem in problems.values():
        assert (problem.file, problem.line) == (str(path), 3)  # the child's change
        assert "but deal.reserve is 0 (no reserve piles are dealt)" in problem.message
    assert problems["reserve.pickup_on_book"].message.startswith("side_first but")


def test_card_cannot_be_both_wild_and_bonus(tmp_path: Path) -> None:
    path = write(tmp_path, "c.yaml", "extends: pony_tail\ncards:\n  bonus: [3H, JK]\n")
    message = problem_at(path, "cards.bonus[1]")
    assert message.startswith(
        f"{path}:3:15: cards.bonus[1]: 'JK' names JK, already listed in cards.wild"
    )


def test_unsupported_format_version_is_reported(tmp_path: Path) -> None:
    path = write(tmp_path, "c.yaml", "extends: pony_tail\nmeldkit: 2\n")
    assert "format version 2 is not supported" in problem_at(path, "meldkit")


def test_a_plugin_name_is_never_imported_as_a_module(tmp_path: Path) -> None:
    module = "meldkit_test_never_imported_plugin"
    (tmp_path / f"{module}.py").write_text("raise SystemExit('imported!')\n")
    sys.path.insert(0, str(tmp_path))
    try:
        path = write(tmp_path, "c.yaml", f"extends: pony_tail\nplugin: {module}\n")
        with pytest.raises(PluginError):
            load_pack(path)
    finally:
        sys.path.remove(str(tmp_path))
    assert module not in sys.modules


def test_a_missing_plugin_says_which_package_to_install(tmp_path: Path) -> None:
    path = write(tmp_path, "c.yaml", "extends: pony_tail\nplugin: knock\nplugin_package: meldkit-knock\n")
    with pytest.raises(PluginError) as info:
        load_pack(path)
    (problem,) = info.value.problems
    assert (problem.line, problem.path) == (2, "plugin")
    assert "pip install meldkit-knock" in problem.message
    assert "'knock'" in problem.message


# --------------------------------------------------------------------------- all problems at once


def test_all_structure_problems_are_reported_at_once(tmp_path: Path) -> None:
    text = """\
    extends: pony_tail
    players:
      maxx: 6
    deal:
      hand: 15x
      first_player: left_of_delaer
    cards:
      wild: JK
    """
    path = write(tmp_path, "many.yaml", text)
    with pytest.raises(RulePackError) as info:
        load_pack(path)
    lines = str(info.value).splitlines()
    assert lines[0] == "4 problems in rule pack:"
    assert [line.strip().split(": ")[0] for line in lines[1:]] == [
        f"{path}:3:3",
        f"{path}:5:3",
        f"{path}:6:3",
        f"{path}:8:3",
    ]
    assert "players.maxx: unknown key (did you mean 'max'?)" in lines[1]


def test_all_semantic_problems_are_reported_at_once(tmp_path: Path) -> None:
    text = """\
    extends: pony_tail
    deck: {decks: 1}
    cards: {wild: [JK, ZZ]}
    going_out: {required_books: [sevnes]}
    turn: {draw: 0}
    """
    path = write(tmp_path, "many.yaml", text)
    paths = [p.path for p in problems_of(path)]
    assert sorted(paths) == sorted(
        ["deal", "cards.wild[1]", "going_out.required_books[0]", "turn.draw"]
    )


def test_problem_line_reads_file_line_col_path_message_suggestion(tmp_path: Path) -> None:
    path = write(tmp_path, "c.yaml", "extends: pony_tail\npile:\n  frozen_take_with: same_rank\n")
    (problem,) = problems_of(path)
    assert problem == PackProblem(
        file=str(path),
        line=3,
        col=3,
        path="pile.frozen_take_with",
        message="'same_rank' is not one of natural_pair, same_rank_pair",
        suggestion="same_rank_pair",
    )


def test_check_pack_finds_nothing_wrong_with_pony_tail() -> None:
    assert check_pack("pony_tail") == []


def test_check_pack_returns_every_problem_instead_of_raising(tmp_path: Path) -> None:
    path = write(tmp_path, "c.yaml", "extends: pony_tail\nturn: {draw: 0}\ndeal: {hand: 0}\n")
    assert [p.path for p in check_pack(path)] == ["turn.draw", "deal.hand"]


def test_rule_pack_record_shows_name_source_and_digest() -> None:
    pack = load_pack("pony_tail")
    assert isinstance(pack, RulePack)
    assert repr(pack).startswith("RulePack(name='pony_tail', source=")
    assert pack.raw["deck"] == {"decks": 6, "jokers_per_deck": 2}


def test_a_problem_two_checks_find_is_reported_once() -> None:
    """``game.target: 0`` in a knocking pack broke both the bounds every pack has and the
    knock kernel's own check: one problem, once."""
    with pytest.raises(RulePackError) as exc:
        load_pack_text("extends: gin_rummy\ngame: {target: 0}\n", "house.yaml")
    assert [str(p) for p in exc.value.problems] == [
        "house.yaml:2:8: game.target: expected at least 1, got 0"]


@pytest.mark.parametrize("text, key, message", [
    ("extends: buraco\nplayers: {counts: [4]}\n", "players.min",
     "2, but players.counts allows only 4 players: a game of 2 could not be dealt "
     "(write min: 4)"),
    ("extends: classic_canasta\nplayers: {max: 7}\n", "players.max",
     "7, but players.counts allows only 2, 3, 4, 6 players: a game of 7 could not be dealt "
     "(write max: 6)"),
])
def test_the_fewest_and_most_players_are_counts_the_pack_allows(text, key, message) -> None:
    """A pack whose players.min (or max) is not one of its players.counts validated, and
    then a game at that count could not be dealt (found by the mutated-pack fuzz test)."""
    problem = only_problem(text)
    assert problem.path == key and problem.message.startswith(message), problem
    assert str(problem).startswith(f"house.yaml:2:11: {key}: "), problem  # where it was written


def test_wilds_adjacent_false_on_a_set_kind_is_refused_where_it_was_written() -> None:
    """A set's cards stand in no order, so ``wilds_adjacent`` cannot change which sets are
    legal (``KC JK JK`` stays one): refused on a set as ``ace`` is, accepted on a run."""
    text = ("extends: rummy\nmelds:\n  kinds:\n"
            "    - {name: set, type: set, min_size: 3, wilds_adjacent: false}\n"
            "    - {name: run, type: run, min_size: 3, max_wilds: 1, wilds_adjacent: false}\n"
            "cards: {wild: [\"2\"]}\n")
    problem = only_problem(text)
    assert str(problem) == (
        "house.yaml:4:43: melds.kinds[0].wilds_adjacent: false, but it applies to runs only "
        "(a set's cards stand in no order, so no wild card stands beside another: this kind "
        "is a set): remove it, and bound a set's wild cards with max_wilds")
    assert load_pack_text(text.replace(", wilds_adjacent: false}\n    - {name: run",
                                       "}\n    - {name: run"), "house.yaml")


def test_until_opened_beside_take_before_false_is_refused_where_it_was_written(
        tmp_path: Path) -> None:
    """With ``initial_meld.take_before: false`` a player who has not opened never takes from
    the pile, so ``pile.taken_melded: until_opened`` could never apply: refused at the key,
    naming take_before; in a child that sets take_before, at the child's line.  Kept where
    an unopened player does take: the offered first upcard, a deal of the schedule."""
    contract = "initial_meld: {melds: [set, set], take_before: false}\n"
    text = "extends: rummy\n" + contract + "pile: {taken_melded: until_opened}\n"
    says = ("pile.taken_melded: until_opened, but initial_meld.take_before is false: a player "
            "who has not opened never takes from the discard pile, so no card they take is "
            "owed toward the opening: remove it (or set always, for the cards an opened "
            "player takes), or let them take (initial_meld.take_before: true)")
    problem = only_problem(text)
    assert str(problem) == f"house.yaml:3:8: {says}"
    parent = write(tmp_path, "parent.yaml",
                   "meldkit: 1\n" + text.replace(", take_before: false", ""))
    child = write(tmp_path, "child.yaml", "extends: parent.yaml\n"
                  "initial_meld: {take_before: false}\n")
    assert problem_at(child, "pile.taken_melded") == (
        f"{child}:2:16: {says} (pile.taken_melded is inherited from {parent}:4:8)")
    assert load_pack(parent).spec.pile.taken_melded == "until_opened"
    for kept in (text.replace("until_opened}", "until_opened, first_upcard: offer}"),
                 text + "schedule:\n  - {initial_meld: {take_before: true}}\n",
                 text.replace(", take_before: false", "")
                 + "schedule:\n  - {initial_meld: {take_before: false}}\n"):
        assert load_pack_text(kept, "house.yaml").spec.pile.taken_melded == "until_opened"
    assert load_pack_text(text.replace("until_opened", "always"), "house.yaml")


def test_jokers_per_deck_beside_jokers_is_refused_where_it_was_written(tmp_path: Path) -> None:
    """``deck.jokers`` counts the whole pack's jokers in place of ``jokers_per_deck``: a
    pack writing both, or a child writing ``jokers_per_deck`` below a parent's ``jokers``,
    is refused at ``jokers_per_deck`` (as ``decks`` beside ``decks_per_player``); a child's
    ``jokers`` over a parent's ``jokers_per_deck`` is the documented replacement."""
    says = ("deck.jokers_per_deck: set jokers or jokers_per_deck, not both: jokers (0) counts "
            "the jokers of the whole pack in place of jokers_per_deck, which would change "
            "nothing (remove jokers_per_deck, or set jokers to null to count jokers per deck)")
    with pytest.raises(RulePackError) as exc:
        load_pack_text("extends: rummy\ndeck: {jokers: 0, jokers_per_deck: 5}\n", "house.yaml")
    (problem,) = exc.value.problems
    assert str(problem) == f"house.yaml:2:19: {says}"
    parent = write(tmp_path, "parent.yaml", "meldkit: 1\nextends: rummy\ndeck: {jokers: 0}\n")
    assert load_pack(parent).spec.deck.jokers == 0  # over rummy's jokers_per_deck: 0
    child = write(tmp_path, "child.yaml", "extends: parent.yaml\ndeck:\n  jokers_per_deck: 5\n")
    assert problem_at(child, "deck.jokers_per_deck") == f"{child}:3:3: {says}"
    nulled = write(tmp_path, "nulled.yaml",
                   "extends: parent.yaml\ndeck: {jokers: null, jokers_per_deck: 0}\n")
    assert load_pack(nulled).spec.deck.jokers_per_deck == 0
    every = "extends: rummy\ndeck: {jokers_by_players: {2: 0, 3: 0, 4: 0, 5: 0, 6: 0}}\n"
    with pytest.raises(RulePackError) as exc:
        load_pack_text(every.replace("{jokers_by", "{jokers_per_deck: 0, jokers_by"),
                       "house.yaml")
    (problem,) = exc.value.problems
    assert str(problem) == (
        "house.yaml:2:8: deck.jokers_per_deck: set jokers or jokers_per_deck, not both: "
        "jokers_by_players gives every player count its jokers, counting the jokers of the "
        "whole pack in place of jokers_per_deck, which would change nothing (remove "
        "jokers_per_deck, or leave out of jokers_by_players the player counts to count per "
        "deck)")
    assert load_pack_text(every, "house.yaml").spec.deck.jokers_by_players[2] == 0


@pytest.mark.parametrize("cards,where,why", [
    ("cards: {wild: [\"2\"]}\n", "house.yaml:5:43",
     "this kind takes no wild card (max_wilds: 0, its default)"),
    ("", "house.yaml:4:43", "the pack has no wild cards (cards.wild, cards.turned_wild)"),
])
def test_wilds_adjacent_false_where_no_wild_card_can_join_the_run_is_refused(cards, where,
                                                                            why) -> None:
    """``wilds_adjacent: false`` bounds where a run's wild cards stand; a run kind that takes
    none (``max_wilds: 0``), or a pack without wild cards, leaves it nothing to change."""
    text = (f"extends: rummy\n{cards}melds:\n  kinds:\n"
            "    - {name: run, type: run, min_size: 3, wilds_adjacent: false}\n")
    problem = only_problem(text)
    assert str(problem).startswith(
        f"{where}: melds.kinds[0].wilds_adjacent: false, but {why}, so no wild card could "
        "stand beside another"), problem
    if cards:  # a run that takes a wild card: the key bounds where it stands
        assert load_pack_text(text.replace("min_size: 3,", "min_size: 3, max_wilds: 1,"),
                              "house.yaml")


def test_a_scenario_file_loaded_as_a_pack_says_to_run_it_with_meldkit_test():
    """A CLI audit: `meldkit simulate kalooki.scenarios.yaml` gave three schema errors
    (pack, players, scenarios: unknown key) and no hint of what the file is."""
    import meldkit

    path = Path(__file__).parents[1] / "examples/packs/kalooki.scenarios.yaml"
    with pytest.raises(RulePackError) as e:
        meldkit.load_pack(path)
    (problem,) = e.value.problems
    assert problem.path == "scenarios" and problem.message.startswith(
        "this is a scenario file, not a rule pack: run it against its pack with "
        "`meldkit test PACK FILE`")
