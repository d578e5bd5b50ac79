"""The documentation stays true: its examples run, its reference covers every pack key,
its JSON Schema accepts every bundled pack, and every public item has a docstring.

Code blocks in ``docs/**/*.md`` and ``README.md``, page by page, in order, in one
namespace per page and in a fresh working directory:

* ```` ```python ```` blocks run as code; one that starts with ``>>>`` is a doctest;
* ```` ```pycon ```` blocks are doctests (their output must match, ``...`` matches anything);
* ```` ```yaml title="name.yaml" ```` blocks are files: each is written to the working
  directory as it appears, so the page's later code can load it;
* a block right after ``<!-- requires: module -->`` is skipped when that optional module
  is not installed.

The site itself is built by ``mkdocs build --strict`` (see ``.ci/run``).
"""

from __future__ import annotations

import doctest
import importlib
import importlib.util
import inspect
import re
import shlex
import typing
from pathlib import Path

import attrs
import pytest
from ruamel.yaml import YAML

import meldkit
from meldkit import schema_docs
from meldkit._schema import RulePackSpec

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
PAGES = sorted(DOCS.rglob("*.md")) + [ROOT / "README.md"]
SCHEMA_PATH = "schema/rulepack.schema.json"

_OPEN = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})[ \t]*(?P<lang>[\w+-]*)(?P<rest>.*)$")
_TITLE = re.compile(r'title="([^"]*)"')
_REQUIRES = re.compile(r"<!--\s*requires:\s*([\w.]+)\s*-->")


@attrs.frozen
class Block:
    """A fenced code block of a Markdown page."""

    lang: str
    title: str
    text: str
    line: int
    requires: str = ""


def code_blocks(path: Path) -> list[Block]:
    """Every fenced code block of a page (also those indented in admonitions and tabs)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    blocks = []
    i = 0
    while i < len(lines):
        match = _OPEN.match(lines[i])
        if not match:
            i += 1
            continue
        indent, fence = match["indent"], match["fence"]
        title = _TITLE.search(match["rest"])
        body = []
        j = i + 1
        while j < len(lines) and not (
            lines[j].strip().startswith(fence) and set(lines[j].strip()) == {fence[0]}
        ):
            body.append(
                lines[j][len(indent) :] if lines[j].startswith(indent) else lines[j].lstrip()
            )
            j += 1
        before = next((line for line in reversed(lines[:i]) if line.strip()), "")
        requires = _REQUIRES.search(before)
        blocks.append(
            Block(
                match["lang"].lower(),
                title[1] if title else "",
                "\n".join(body) + "\n",
                i + 1,
                requires[1] if requires else "",
            )
        )
        i = j + 1
    return blocks


def _runnable(block: Block) -> bool:
    return block.lang in ("python", "py", "pycon") or (
        block.lang == "yaml" and block.title.endswith((".yaml", ".yml"))
    )


def _page_id(path: Path) -> str:
    return str(path.relative_to(ROOT))


RUNNABLE_PAGES = [p for p in PAGES if any(_runnable(b) for b in code_blocks(p))]


def _run_doctest(block: Block, namespace: dict, page: Path) -> None:
    name = f"{_page_id(page)}:{block.line}"
    test = doctest.DocTestParser().get_doctest(block.text, namespace, name, str(page), block.line)
    test.globs = namespace  # DocTest copies its globals: share the page's namespace instead
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    report: list[str] = []
    runner.run(test, out=report.append, clear_globs=False)
    assert runner.failures == 0, f"doctest at {name} failed:\n" + "".join(report)


@pytest.mark.parametrize("page", RUNNABLE_PAGES, ids=_page_id)
def test_every_code_example_of_the_page_runs(page, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    namespace: dict = {"__name__": "__main__"}
    for block in code_blocks(page):
        if block.requires and importlib.util.find_spec(block.requires) is None:
            continue
        if block.lang == "yaml" and block.title.endswith((".yaml", ".yml")):
            (tmp_path / block.title).write_text(block.text, encoding="utf-8")
        elif block.lang == "pycon" or (
            block.lang in ("python", "py") and block.text.lstrip().startswith(">>>")
        ):
            _run_doctest(block, namespace, page)
        elif block.lang in ("python", "py"):
            code = compile(block.text, f"{_page_id(page)}:{block.line}", "exec")
            exec(code, namespace)  # noqa: S102 - the documentation's own examples


def test_the_code_block_reader_finds_indented_and_titled_blocks(tmp_path):
    page = tmp_path / "page.md"
    page.write_text(
        'Text\n\n```python\nx = 1\n```\n\n!!! note\n    ```yaml title="a.yaml"\n'
        "    deck: {decks: 1}\n    ```\n\n<!-- requires: jsonschema -->\n\n````pycon\n>>> x\n1\n````\n",
        encoding="utf-8",
    )
    assert [(b.lang, b.title, b.text, b.line, b.requires) for b in code_blocks(page)] == [
        ("python", "", "x = 1\n", 3, ""),
        ("yaml", "a.yaml", "deck: {decks: 1}\n", 8, ""),
        ("pycon", "", ">>> x\n1\n", 14, "jsonschema"),
    ]


# --------------------------------------------------------------------------- commands


def _documented_commands() -> list[str]:
    """Every ``meldkit …`` command line in a shell block of the docs or the README."""
    found = []
    for page in PAGES:
        for block in code_blocks(page):
            if block.lang not in ("bash", "sh", "shell", "console"):
                continue
            for line in block.text.splitlines():
                line = line.split(" #")[0].strip().removeprefix("$ ")
                if line.startswith("meldkit ") and line not in found:
                    found.append(line)
    return found


PENDING_COMMANDS = {"compare", "packs", "play", "replay", "rules", "validate"}
"""Subcommands the docs describe that were being built alongside them: a line is skipped
while its subcommand does not exist, and checked once it does."""


@pytest.mark.parametrize("line", _documented_commands())
def test_documented_command_lines_parse(line):
    from meldkit.cli import build_parser

    parser = build_parser()
    argv = shlex.split(line)[1:]
    commands = {
        name
        for action in parser._actions
        if hasattr(action, "choices") and isinstance(action.choices, dict)
        for name in action.choices
    }
    if argv[0] not in commands and argv[0] in PENDING_COMMANDS:
        pytest.skip(f"`meldkit {argv[0]}` is not built yet")
    assert argv[0] in commands, f"the docs use a command that does not exist: {line}"
    parser.parse_args(argv)  # exits (failing the test) on an unknown option


# --------------------------------------------------------------------------- the pack reference


def _schema_fields(cls: type = RulePackSpec, prefix: str = ""):
    """(path, field, class) of every field of the schema classes, walked independently of
    schema_docs so that the two can be compared."""
    hints = typing.get_type_hints(cls)
    for field in attrs.fields(cls):
        path = prefix + field.name
        yield path, field, cls
        tp = hints[field.name]
        if type(None) in typing.get_args(tp):  # a mapping or table that may be null
            tp = next(a for a in typing.get_args(tp) if a is not type(None))
        args = typing.get_args(tp)
        if attrs.has(tp):
            yield from _schema_fields(tp, path + ".")
        elif typing.get_origin(tp) is list and attrs.has(args[0]):
            yield from _schema_fields(args[0], path + "[].")
        elif typing.get_origin(tp) is dict and typing.get_origin(args[1]) is list:
            yield from _schema_fields(typing.get_args(args[1])[0], path + "[n][].")


def test_the_reference_documents_every_pack_key_with_its_meaning():
    page = schema_docs.reference_markdown()
    for path, field, cls in _schema_fields():
        anchor = re.sub(r"\[[^\]]*\]", "", path)
        if cls is RulePackSpec and attrs.has(typing.get_type_hints(cls)[field.name]):
            assert f"## `{path}` {{ #{anchor} }}" in page, path  # a section
            continue
        assert f"### `{path}` {{ #{anchor} }}" in page, path
        section = page.split(f"{{ #{anchor} }}", 1)[1].split("\n#", 1)[0]
        assert field.metadata["doc"] in section, path
        assert "**Type:**" in section and "**Default:**" in section, path
        assert '```yaml title="Example' in section, path


def test_pack_keys_give_the_type_and_default_of_a_key():
    keys = {key.path: key for key in schema_docs.pack_keys()}
    assert [path for path, _, _ in _schema_fields()] == list(keys)
    assert (keys["players.partners"].type_text, keys["players.partners"].default) == (
        "one of `always`, `optional`, `never`",
        "never",
    )
    assert keys["deck.decks"].type_text == "integer or null"
    assert keys["books.kinds[].value"].anchor == "books.kinds.value"


def test_curated_examples_name_real_keys():
    paths = {key.path for key in schema_docs.pack_keys()}
    assert set(schema_docs._EXAMPLES) <= paths


def test_every_key_at_its_default_is_a_pack_the_loader_reads():
    # Two decks: at its defaults (4 players, 11 cards, draw 2) one deck leaves a stock of 9,
    # too small for two turns each, which the loader refuses (docs/authoring/validating.md).
    text = schema_docs.defaults_yaml().replace("decks: null", "decks: 2", 1)
    pack = meldkit.load_pack_text(text, filename="defaults.yaml")
    default = RulePackSpec()  # turn.draw not given: the loader gives the meld model's own (2)
    assert pack.spec == attrs.evolve(default, deck=attrs.evolve(default.deck, decks=2),
                                     turn=attrs.evolve(default.turn, draw=2))


# --------------------------------------------------------------------------- JSON Schema


def _yaml_file(path: Path):
    return YAML(typ="safe").load(path.read_text(encoding="utf-8"))


def test_the_json_schema_describes_every_pack_key():
    schema = schema_docs.json_schema()
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    for path, field, cls in _schema_fields():
        node = schema if cls is RulePackSpec else schema["$defs"][cls.__name__]
        assert node["additionalProperties"] is False, cls.__name__
        prop = node["properties"][field.name]
        assert prop["description"] == field.metadata["doc"], path
        tp = typing.get_type_hints(cls)[field.name]
        if typing.get_origin(tp) is typing.Literal:
            assert prop["enum"] == list(typing.get_args(tp)), path


def test_the_json_schema_is_valid_and_accepts_every_bundled_pack():
    jsonschema = pytest.importorskip("jsonschema")
    schema = schema_docs.json_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    packs = sorted((ROOT / "rulepacks").glob("*.yaml"))
    assert packs
    for path in packs:
        errors = [
            f"{'.'.join(map(str, e.absolute_path))}: {e.message}"
            for e in validator.iter_errors(_yaml_file(path))
        ]
        assert errors == [], path.name


def test_the_json_schema_refuses_what_the_loader_refuses():
    jsonschema = pytest.importorskip("jsonschema")
    validator = jsonschema.Draft202012Validator(schema_docs.json_schema())
    bad = {
        "players": {"mx": 6},
        "deal": {"hand": "15", "upcard": "yes"},
        "pile": {"frozen_take_with": "natural_pairs"},
        "turn": {"draw": 0},
        "melds": {"min_size": 501},
    }
    paths = sorted(".".join(map(str, e.absolute_path)) for e in validator.iter_errors(bad))
    assert paths == ["deal.hand", "deal.upcard", "melds.min_size", "pile.frozen_take_with",
                     "players", "turn.draw"]


def test_every_example_of_the_reference_fits_the_json_schema():
    jsonschema = pytest.importorskip("jsonschema")
    validator = jsonschema.Draft202012Validator(schema_docs.json_schema())
    for key in schema_docs.pack_keys():
        fragment = YAML(typ="safe").load(schema_docs._example_yaml(key))
        assert list(validator.iter_errors(fragment)) == [], key.path


def test_the_docs_point_editors_at_the_published_schema():
    site_url = re.search(r"^site_url:\s*(\S+)", (ROOT / "mkdocs.yml").read_text(), re.MULTILINE)[1]
    # each release is published under its version with mike; latest/ is the newest
    published = site_url.rstrip("/") + "/latest/" + SCHEMA_PATH
    assert schema_docs.DEFAULT_SCHEMA_URL == published
    used = {
        url
        for page in PAGES
        for url in re.findall(
            r"https?://[^\s\"'<>)]*\.schema\.json", page.read_text(encoding="utf-8")
        )
    }
    assert used == {published}


# --------------------------------------------------------------------------- bundled games


def test_every_bundled_game_has_its_resolved_choices_and_each_names_pack_keys():
    choices = _yaml_file(DOCS / "games" / "resolved.yaml")
    assert set(meldkit.available_packs()) <= set(choices)
    anchors = {key.anchor: key for key in schema_docs.pack_keys()}
    for pack, entries in choices.items():
        for entry in entries:
            assert entry["clause"] and entry["resolution"], (pack, entry)
            assert bool(entry.get("keys")) != bool(entry.get("fixed")), (pack, entry)
            for path in entry.get("keys") or []:
                # a key, or an entry of a mapping key (cards.values.2, options.roles)
                head = next((p for p in (path, path.rpartition(".")[0]) if p in anchors), None)
                assert head is not None, (pack, path)
                if head != path:
                    assert typing.get_origin(anchors[head].type) is dict, (pack, path)


def test_game_pages_show_the_value_each_resolved_choice_has_in_the_pack():
    hooks = _hooks()
    page = hooks.pack_page(meldkit.load_pack("pony_tail"), hooks.resolved_choices()["pony_tail"])
    assert "| PT-26 |" in page
    assert "[`scoring.going_out`](../authoring/reference.md#scoring.going_out): `0`" in page
    assert "[`cards.values.2`](../authoring/reference.md#cards.values): `20`" in page
    assert page.startswith("# ")
    assert 'title="pony_tail.yaml"' in page


def test_without_a_rules_sheet_module_a_game_page_lists_the_pack_settings(monkeypatch):
    hooks = _hooks()
    import sys

    monkeypatch.setitem(sys.modules, "meldkit.rulesheet", None)  # as if it did not exist
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("meldkit.rulesheet")
    sheet = hooks.rules_sheet(meldkit.load_pack("pony_tail"))
    assert "| [`deck.decks`](../authoring/reference.md#deck.decks) | `6` |" in sheet


def test_a_written_rules_of_record_page_comes_first_on_the_game_page():
    hooks = _hooks()
    written = "# Gin Rummy\n\n## Rules of record\n\n- **GR-1 Players and cards.** Two.\n"
    page = hooks.pack_page(meldkit.load_pack("gin_rummy"), [], written)
    assert page.startswith(written.strip())
    assert 1 == sum(line.startswith("# ") for line in page.splitlines())  # one title
    sheet = page.index("## What the pack plays")
    assert page.index("### Players and cards") > sheet  # the sheet's sections, one level down
    assert 'title="gin_rummy.yaml"' in page


RULES_OF_RECORD = {"gin_rummy": "GR", "oklahoma_gin": "OG", "rummy": "RU",
                   "classic_canasta": "CC", "hand_and_foot": "HF", "samba": "SA",
                   "contract_rummy": "CR", "rummy_500": "R5", "buraco": "BU"}
"""Bundled games whose rules of record are written in docs/games/<pack>.md, and the prefix
of their clause ids."""


def _clause_ids(pack: str) -> list[str]:
    text = (DOCS / "games" / f"{pack}.md").read_text(encoding="utf-8")
    return re.findall(rf"\*\*({RULES_OF_RECORD[pack]}-\d+)\b", text)


@pytest.mark.parametrize("pack", sorted(RULES_OF_RECORD))
def test_every_clause_of_a_rules_page_has_a_test_named_after_it(pack):
    ids = _clause_ids(pack)
    assert ids and len(ids) == len(set(ids)), ids
    tests = (ROOT / "tests" / f"test_{pack}_rules.py").read_text(encoding="utf-8")
    named = set(re.findall(r"^def test_([A-Z][A-Z0-9]_\d+)_", tests, re.M))
    assert {i.replace("-", "_") for i in ids} == named


@pytest.mark.parametrize("pack", sorted(RULES_OF_RECORD))
def test_the_pack_comments_cite_only_clauses_of_its_rules_page(pack):
    ids = set(_clause_ids(pack))
    cited = set(re.findall(rf"\b({RULES_OF_RECORD[pack]}-\d+)\b",
                           (ROOT / "rulepacks" / f"{pack}.yaml").read_text(encoding="utf-8")))
    assert cited and cited <= ids


def _hooks():
    pytest.importorskip("mkdocs")
    spec = importlib.util.spec_from_file_location("docs_hooks", DOCS / "hooks.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# --------------------------------------------------------------------------- docstrings

DOCSTRING_MODULES = ("meldkit.bots", "meldkit.simulate", "meldkit.testing", "meldkit.schema_docs")


def _public_items() -> list[tuple[str, object]]:
    """Everything in ``meldkit.__all__`` and the public names defined in
    DOCSTRING_MODULES, with the public methods and properties of each class."""
    items: list[tuple[str, object]] = [
        (name, importlib.import_module(name)) for name in DOCSTRING_MODULES
    ]
    items += [(f"meldkit.{name}", getattr(meldkit, name)) for name in meldkit.__all__]
    for module_name in DOCSTRING_MODULES:
        module = importlib.import_module(module_name)
        for name, obj in vars(module).items():
            defined_here = getattr(obj, "__module__", None) == module_name
            if (
                not name.startswith("_")
                and defined_here
                and (inspect.isclass(obj) or inspect.isfunction(obj))
            ):
                items.append((f"{module_name}.{name}", obj))
    members = []
    for name, obj in items:
        if inspect.isclass(obj):
            for attr, value in vars(obj).items():
                value = (
                    value.fget if isinstance(value, property) else getattr(value, "__func__", value)
                )
                if not attr.startswith("_") and inspect.isfunction(value):
                    members.append((f"{name}.{attr}", value))
    return items + members


def _docstring(obj: object) -> str:
    """An object's own docstring: the API reference shows no docstring inherited from a
    base class, and leaves out members that have none."""
    if inspect.isclass(obj):
        return obj.__dict__.get("__doc__") or ""
    return getattr(obj, "__doc__", None) or ""


@pytest.mark.parametrize(
    ("name", "obj"), [pytest.param(name, obj, id=name) for name, obj in _public_items()]
)
def test_every_public_item_has_a_docstring(name, obj):
    assert _docstring(obj).strip(), f"{name} has no docstring"
