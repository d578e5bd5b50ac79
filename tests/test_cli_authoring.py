"""A pack author's commands: ``meldkit test`` (rule scenarios), ``meldkit keys`` (the key
reference, offline), ``meldkit schema`` (the JSON Schema, also shipped in the package);
an inherited key's error located in the child; the first run of ``simulate``."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import meldkit
from meldkit import check_pack
from meldkit._pack_limits import AT_LEAST, AT_MOST
from meldkit.cli import main
from meldkit.schema_docs import (
    DEFAULT_SCHEMA_URL,
    SITE_URL,
    json_schema,
    pack_keys,
    schema_text,
    shipped_schema_path,
)

ROOT = Path(__file__).resolve().parents[1]


def check_pack_text(text: str) -> list:
    try:
        meldkit.load_pack_text(text, "house.yaml")
    except meldkit.RulePackError as exc:
        return list(exc.problems)
    return []


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


# --------------------------------------------------------------------------- meldkit test


def test_meldkit_test_runs_a_bundled_packs_example_scenarios(capsys):
    code, out, err = run(capsys, "test", "pony_tail")
    assert (code, err) == (0, "")
    assert re.fullmatch(r"pony_tail: (\d+) scenarios, \1 passed, 0 failed\n", out), out


def test_meldkit_test_names_a_bundled_pack_that_ships_no_scenarios(capsys):
    """A CLI audit: `meldkit test pony_tail gin_rummy` said 'gin_rummy: no such file'."""
    code, out, err = run(capsys, "test", "pony_tail", "gin_rummy")
    assert code == 2
    assert "gin_rummy: the bundled pack 'gin_rummy' ships no scenarios (those that do: " in err


def test_meldkit_test_reports_each_failure_located_and_exits_1(capsys, tmp_path):
    pack = tmp_path / "no_black_threes.yaml"
    pack.write_text("extends: pony_tail\npile:\n  blocked_by: []\n", encoding="utf-8")
    scenarios = tmp_path / "s.yaml"
    scenarios.write_text(
        "scenarios:\n"
        "  - name: black threes block\n"
        "    deal: {upcard: 3C}\n"
        "    steps:\n"
        "      - expect: {pile: {blocked: true}}\n", encoding="utf-8")
    code, out, _ = run(capsys, "test", str(pack), str(scenarios))
    assert code == 1
    assert out == (f"{scenarios}:5:34: black threes block, step 1: pile blocked: expected true, "
                   "got false\nno_black_threes: 1 scenario, 0 passed, 1 failed\n")


def test_meldkit_test_reports_an_unreadable_scenario_file_located(capsys, tmp_path):
    scenarios = tmp_path / "s.yaml"
    scenarios.write_text("scenarios:\n  - nme: x\n", encoding="utf-8")
    code, out, err = run(capsys, "test", "pony_tail", str(scenarios))
    assert code == 1 and err == ""
    assert out.splitlines()[0] == (f"{scenarios}:2:5: scenarios[0].nme: unknown key "
                                   "(did you mean 'name'?)")
    assert out.splitlines()[-1].endswith("; 1 file could not be read")


def test_meldkit_test_runs_a_bundled_packs_examples_on_a_variant(capsys, tmp_path):
    pack = tmp_path / "no_black_threes.yaml"
    pack.write_text("extends: pony_tail\npile:\n  blocked_by: []\n", encoding="utf-8")
    code, out, _ = run(capsys, "test", str(pack), "pony_tail")
    assert code == 1
    assert "PT-15 a black three on the pile blocks it" in out
    assert re.search(r"no_black_threes: (\d+) scenarios, \d+ passed, 1 failed\n$", out), out


def test_meldkit_test_without_scenarios_for_a_pack_file_is_a_usage_error(capsys, tmp_path):
    pack = tmp_path / "p.yaml"
    pack.write_text("extends: pony_tail\n", encoding="utf-8")
    code, _, err = run(capsys, "test", str(pack))
    assert code == 2
    assert "name the scenario files or directories to run" in err


# --------------------------------------------------------------------------- meldkit keys


def test_meldkit_keys_prints_one_key_with_type_default_and_meaning(capsys):
    key = next(k for k in pack_keys() if k.path == "deal.hand")
    code, out, _ = run(capsys, "keys", "deal.hand")
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == f"deal.hand  (integer; default: {key.default})"
    assert " ".join(line.strip() for line in lines[1:-2]) == key.doc
    assert lines[-2] == "    applies to: every pack"
    assert lines[-1].startswith("    example (")


def test_meldkit_keys_prints_a_section_and_every_key_below_it(capsys):
    code, out, _ = run(capsys, "keys", "books.kinds")
    assert code == 0
    heads = [line.split()[0] for line in out.splitlines() if line and not line.startswith(" ")]
    assert heads == [k.path for k in pack_keys() if k.anchor == "books.kinds"
                     or k.anchor.startswith("books.kinds.")]
    assert "books.kinds[].value" in heads


def test_meldkit_keys_search_finds_keys_by_a_phrase_of_their_meaning(capsys):
    """(Three Thirteen's author searched `meldkit keys` for "last turn" with grep, across
    the meanings' line breaks, and found nothing.)"""
    code, out, _ = run(capsys, "keys", "--search", "One more\nturn")
    heads = [line.split()[0] for line in out.splitlines() if line and not line.startswith(" ")]
    assert code == 0 and heads == ["going_out.last_turns"]
    code, out, _ = run(capsys, "keys", "--search", "wild card in a run keeps the place")
    assert code == 0 and out.startswith("melds.lay_off.wilds_stay  (")
    code, _, err = run(capsys, "keys", "--search", "no such phrase here")
    assert code != 0 and "no key's name or meaning holds 'no such phrase here'" in err
    code, _, err = run(capsys, "keys", "deal.hand", "--search", "hand")
    assert code != 0 and "not both" in err


def test_meldkit_keys_without_a_key_prints_every_key_from_the_docs_source(capsys):
    code, out, _ = run(capsys, "keys")
    heads = [line.split()[0] for line in out.splitlines() if line and not line.startswith(" ")]
    assert (code, heads) == (0, [k.path for k in pack_keys()])


@pytest.mark.parametrize("key, subkeys", [
    ("melds.sequences", ["melds.sequences.ranks", "melds.sequences.min_size",
                         "melds.sequences.max_size"]),
    ("initial_meld.minimums_by_players", ["initial_meld.minimums_by_players[n][].below",
                                          "initial_meld.minimums_by_players[n][].minimum"]),
])
def test_meldkit_keys_lists_the_keys_of_a_mapping_that_may_be_null(capsys, key, subkeys):
    code, out, _ = run(capsys, "keys", key)
    heads = [line.split()[0] for line in out.splitlines() if line and not line.startswith(" ")]
    assert (code, heads) == (0, [key, *subkeys])
    code, out, _ = run(capsys, "keys", subkeys[0])  # each is a key of its own
    assert code == 0 and out.startswith(subkeys[0] + "  (")


def test_every_key_whose_keys_follow_has_them_listed():
    keys = pack_keys()
    said = [k.path for k in keys if "keys follow" in k.type_text]
    assert "melds.sequences" in said
    assert [p for p in said if not any(k.path.startswith(p + ".") or k.path.startswith(p + "[")
                                       for k in keys)] == []


def test_meldkit_keys_suggests_the_key_meant(capsys):
    code, _, err = run(capsys, "keys", "deal.hnd")
    assert code == 1
    assert "'deal.hnd' is not a pack key (did you mean 'deal.hand'" in err


# --------------------------------------------------------------------------- meldkit schema


def test_meldkit_schema_writes_the_json_schema(capsys, tmp_path):
    code, out, _ = run(capsys, "schema")
    assert code == 0 and json.loads(out) == json_schema()
    target = tmp_path / "rulepack.schema.json"
    code, _, err = run(capsys, "schema", "--out", str(target))
    assert code == 0 and "yaml-language-server: $schema=" in err
    assert target.read_text(encoding="utf-8") == out


def test_the_shipped_schema_file_is_the_schema_of_this_version():
    """The package ships the schema for editors offline; refresh it after changing the pack
    keys with: meldkit schema --out src/meldkit/rulepack.schema.json"""
    shipped = Path(shipped_schema_path())
    assert shipped.parent == ROOT / "src" / "meldkit" or shipped.is_file()
    assert shipped.read_text(encoding="utf-8") == schema_text(), (
        "stale: run meldkit schema --out src/meldkit/rulepack.schema.json")


@pytest.mark.parametrize("word, bounds", [("minimum", AT_LEAST), ("maximum", AT_MOST)])
def test_the_schema_carries_the_loaders_bounds_and_only_where_the_loader_applies_them(
        word, bounds):
    """An editor flags ``turn: {draw: 0}`` as the loader does: each bounded key carries the
    loader's bound, one past it is refused at the key, the bound itself is not; and the
    section holding it is named at that path only, so the bound cannot leak to a twin."""
    schema = json_schema()
    text_of_schema = json.dumps(schema)
    for path, bound in bounds:
        node = schema
        for name in path[:-1]:
            ref = node["properties"][name]
            ref = ref.get("$ref") or next(a["$ref"] for a in ref["anyOf"] if "$ref" in a)
            assert text_of_schema.count(f'"{ref}"') == 1, f"{ref} is used at more than {path}"
            node = schema["$defs"][ref.rpartition("/")[2]]
        assert node["properties"][path[-1]][word] == bound, path
        key = ".".join(path)
        past = bound - 1 if word == "minimum" else bound + 1
        text = "extends: gin_rummy\n" + "".join(
            f"{'  ' * i}{name}:\n" for i, name in enumerate(path[:-1])
        ) + f"{'  ' * (len(path) - 1)}{path[-1]}: {{}}\n"
        messages = {v: [p.message for p in check_pack_text(text.format(v)) if p.path == key]
                    for v in (past, bound)}
        side = "least" if word == "minimum" else "most"
        assert any(f"at {side} {bound}, got {past}" in m for m in messages[past]), (key, messages)
        assert not any(f"at {side} {bound}" in m for m in messages[bound]), (key, messages)


def test_meldkit_schema_path_names_the_shipped_file(capsys):
    code, out, _ = run(capsys, "schema", "--path")
    assert (code, out) == (0, shipped_schema_path() + "\n")


def test_one_site_url_for_the_docs_the_schema_and_every_link():
    mkdocs = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    (site_url,) = re.findall(r"^site_url: (\S+)$", mkdocs, re.M)
    assert site_url == SITE_URL
    assert DEFAULT_SCHEMA_URL == site_url + "latest/schema/rulepack.schema.json"
    pages = [*sorted((ROOT / "docs").rglob("*.md")), ROOT / "README.md"]
    for page in pages:
        for url in re.findall(r"https://meldkit\.github\.io/[^\s)>\"'`]*", page.read_text("utf-8")):
            assert url.startswith(site_url + "latest/"), (page.name, url)


def test_the_docs_workflow_builds_with_the_ci_command_and_publishes_with_mike():
    workflow = (ROOT / ".github" / "workflows" / "docs.yml").read_text(encoding="utf-8")
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    (build,) = [line.strip() for line in ci.splitlines() if "mkdocs build" in line]
    assert build.replace('"$(mktemp -d)"', "site") in workflow
    assert "mike deploy" in workflow and "tags:" in workflow


# --------------------------------------------------------------------------- item 7: extends


def test_an_inherited_keys_error_points_at_the_childs_line_and_names_the_parents(tmp_path):
    child = tmp_path / "two_books.yaml"
    child.write_text(
        "extends: pony_tail\n"
        "name: two_books\n"
        "books:\n"
        "  kinds:\n"
        "    - {name: sevens, ranks: ['7'], max_wilds: 0, value: 5000}\n"
        "    - {name: red, max_wilds: 0, value: 500}\n", encoding="utf-8")
    problems = check_pack(child)
    assert [(p.file, p.line, p.path) for p in problems] == [
        (str(child), 4, "going_out.required_books[1]"),
        (str(child), 4, "going_out.required_books[3]"),
    ]
    from meldkit._loader import bundled_pack_dir

    parent = bundled_pack_dir() / "pony_tail.yaml"  # the installed copy (a wheel's, in CI)
    line = next(i for i, text in enumerate(parent.read_text().splitlines(), 1)
                if "required_books:" in text)
    assert problems[0].message.endswith(  # (a bundled parent named by its place in the bundle)
        f"(going_out.required_books[1] is inherited from rulepacks/pony_tail.yaml:{line}:28)")


def test_an_inherited_key_broken_by_a_childs_change_names_both_lines(tmp_path):
    child = tmp_path / "no_pony.yaml"
    child.write_text("extends: pony_canasta\ndeal:\n  reserve: 0\n", encoding="utf-8")
    (problem,) = check_pack(child)
    assert (problem.file, problem.line, problem.col) == (str(child), 3, 3)
    assert "reserve.pickup_on_book is inherited from" in problem.message
    assert "pony_canasta.yaml:" in problem.message


# --------------------------------------------------------------------------- item 4: first run


def test_simulate_plays_greedy_bots_by_default_and_names_them(capsys):
    code, out, _ = run(capsys, "simulate", "pony_tail", "--games", "1", "--quiet")
    assert code == 0
    assert "bots greedy" in out
    assert "went_out" in out


# --------------------------------------------------------------------------- item 6: play

WILD = frozenset({"2", "JK"})
MANY_WILD_CARDS = ["2C", "2D", "2H", "JK", "JK", "9H", "9S", "9D", "KH", "KS", "QH", "QS",
                   "5H", "5S", "8H"]


def _leaves(entries):
    for e in entries:
        if e.is_move:
            yield e.moves[0]
        else:
            yield from _leaves(e.open(WILD))


def _widest(entries):
    return max([len(entries)] + [_widest(e.open(WILD)) for e in entries if not e.is_move])


def test_moves_that_differ_only_in_wild_cards_share_one_line():
    from meldkit._movelist import group_moves
    from meldkit.testing import stacked_game

    g = stacked_game("pony_tail", 4, hands={0: MANY_WILD_CARDS}, stock=["JK", "2S"])
    g.apply("draw")
    moves = [str(a) for a in g.legal_actions()]
    entries = group_moves(moves, WILD)
    assert len(moves) > 60 and len(entries) <= 25
    line = next(e for e in entries if e.label.startswith("meld 9 9 9 +wild"))
    assert [e.label for e in line.open(WILD)] == [
        "meld 9 9 9", "meld 9 9 9 2", "meld 9 9 9 JK", "meld 9 9 9 2 2", "meld 9 9 9 2 JK",
        "meld 9 9 9 JK JK", "meld 9 9 9 2 2 2", "meld 9 9 9 2 2 JK", "meld 9 9 9 2 JK JK",
        "meld 9 9 9 JK JK JK"]
    assert sorted(_leaves(entries)) == sorted(moves)  # every move reachable, once


def test_play_lists_on_pony_tail_never_exceed_25_lines_in_any_step():
    import meldkit
    from meldkit._movelist import group_moves
    from meldkit.bots import GreedyBot, RandomBot

    widest = 0
    for seed, bot in ((1, RandomBot(seed=1)), (2, GreedyBot(seed=2))):
        g = meldkit.new_game("pony_tail", players=4, seed=seed)
        for _ in range(1500):
            if g.is_over:
                break
            moves = [str(a) for a in g.legal_actions()]
            entries = group_moves(moves, WILD)
            widest = max(widest, _widest(entries))
            assert sorted(_leaves(entries)) == sorted(moves)
            g.apply(bot.choose(g))
    assert 10 < widest <= 25


def test_a_long_list_folds_the_moves_of_one_rank_then_of_one_kind():
    from meldkit._movelist import group_moves

    moves = [f"discard {r}" for r in ("A", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")]
    moves += [f"meld {r} {r} {w}" for r in ("4", "5", "6", "8", "9", "10", "J", "Q", "K")
              for w in ("2", "JK")]
    moves += [f"meld {r} {r} {r}" for r in ("4", "5", "6", "8", "9")]
    assert len(group_moves(moves, WILD, limit=30)) == 25
    folded = group_moves(moves, WILD, limit=20)
    assert [e.label for e in folded][:2] == ["discard A", "discard 4"]
    assert "meld 9s … (3 ways)" in [e.label for e in folded]
    assert len(folded) <= 20 and sorted(_leaves(folded)) == sorted(moves)


def _play_stacked(script: str, pack: str = "pony_tail", **deal) -> str:
    """A transcript of ``meldkit play`` (seat 0 against greedy bots) from a stacked deal."""
    import io

    from meldkit._table import Style
    from meldkit.cli import _Game
    from meldkit.testing import stacked_game

    state = stacked_game(pack, 4, **deal)
    out = io.StringIO()
    game = _Game(state, 0, ["you", "greedy", "greedy", "greedy"], Style(False), out,
                 io.StringIO(script), seed=1)
    assert game.run() == 0
    return out.getvalue()


PONY_TAIL_BOOKS = ["7C", "7C", "7C", "7C", "7C", "7C", "7D", "2C", "2C", "2C", "2C", "JK", "JK",
                   "JK", "KC"]


def test_play_opens_a_grouped_line_in_a_second_step():
    deal = {"hands": {0: MANY_WILD_CARDS}, "stock": ["JK", "2S"]}
    out = _play_stacked("draw\nquit\n", **deal)
    lines = _move_lists(out)[-1]
    (line,) = [x for x in lines if " meld 9 9 9 +wild" in x]
    number, label = line.split(" ", 1)
    out = _play_stacked(f"draw\n{number}\n2\nquit\n", **deal)
    assert f"  {label}: which one? (a number or notation; 'moves' to go back)" in out
    opened = _move_lists(out)[-2]  # the last is the list after the move chosen in it
    assert [x.split(" ", 1)[1] for x in opened][:3] == ["meld 9 9 9", "meld 9 9 9 2",
                                                        "meld 9 9 9 JK"]
    assert "  you: meld 9 9 9 2\n" in out


def _move_lists(out: str) -> list[list[str]]:
    """The numbered lines of every move list in a play transcript (cells split)."""
    import re as _re

    lists, current = [], None
    for line in out.splitlines():
        if line.startswith("Your moves") or "which one?" in line:
            current = []
            lists.append(current)
            continue
        if current is not None:
            cells = _re.findall(r"(?:^|\s{2,})(\d+)  (\S.*?)(?=\s{2,}\d+  |$)", line)
            if not cells:
                current = None
                continue
            current.extend(f"{n} {text}" for n, text in cells)
    return [sorted(lst, key=lambda x: int(x.split()[0])) for lst in lists]


def test_play_logs_automatic_events_and_marks_a_blocked_pile():
    out = _play_stacked("draw\nmeld 7 7 7 7 7 7 7\nmeld 2 2 2 2 JK JK JK\nquit\n",
                        hands={0: PONY_TAIL_BOOKS}, upcard="3C", stock=["3H", "4H", "KC"])
    assert "Pile: 3C on top, 1 card · BLOCKED: 3C on top, the pile cannot be taken" in out
    log = out[out.index("  you: draw"):]
    assert log.index("  you: draw\n    You drew 4H KC.\n    seat 0 (you) lays out 3H\n") == 0
    assert "  you: meld 7 7 7 7 7 7 7\n\n" in log  # pending: the initial meld is below 50
    assert ("  you: meld 2 2 2 2 JK JK JK\n"
            "    team 0 completes a sevens book of 7s\n"
            "    team 0 completes a wild book of wild cards\n"
            "    seat 0 (you) picks up the Pony Tail (13 cards)\n") in log
    assert max(len(lst) for lst in _move_lists(out)) <= 25


def test_play_marks_a_pile_frozen_for_a_side_that_has_not_melded():
    out = _play_stacked("quit\n", pack="classic_canasta", hands={0: ["9H", "9S"]}, upcard="9C")
    assert "Pile: 9C on top, 1 card · FROZEN for your side until it melds" in out
    out = _play_stacked("quit\n", hands={0: ["9H", "9S"]}, upcard="9C")  # Pony Tail: not so
    assert "Pile: 9C on top, 1 card   ·" in out
