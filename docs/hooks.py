"""MkDocs build hooks: the parts of the site that are generated from the code.

Nothing generated is written into ``docs/``: each page is a virtual file added to the build.

* ``authoring/reference.md`` — every rule-pack key, from the schema classes
  (:func:`meldkit.schema_docs.reference_markdown`);
* ``schema/rulepack.schema.json`` — the JSON Schema, from the same classes;
* ``games/<pack>.md`` — one page per bundled pack: its rules sheet
  (``meldkit.rulesheet.rules_sheet``, or a table of the pack's settings while that module
  does not exist), its *(resolved)* choices (``docs/games/resolved.yaml``) with the value
  the pack gives each, and the pack file. A game whose rules of record are written in the
  docs (``docs/games/<pack>.md``, clauses with ids from a named source) gets that page
  first and the generated parts after it, under *What the pack plays*;
* ``api/<module>.md`` — one mkdocstrings page per public module;
* ``reference/cli.md`` — the ``meldkit`` command's help, from its argument parser;
* a spec table at the top of every game page (players, decks, action-space size,
  observation shape, a typical game's length), computed from the engine;
* on the home page, a real ``meldkit play`` screen (a scripted session run through
  :func:`meldkit.cli.main`, its colours kept) and a ``meldkit simulate --plot`` figure
  (skipped, with a note, when matplotlib is not installed); on the Game AI page, the
  table of every bundled pack's action-space size.

A page may hold a stub of a generated page (``authoring/reference.md``: a note saying it is
generated, and that ``meldkit keys`` prints the same offline) so that links to it resolve
when the Markdown is read on its own; the build replaces the stub.

The nav in ``mkdocs.yml`` names the hand-written index of each generated section; the
pages generated for it are added after that index.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import html
import io
import json
import os
import pkgutil
import re
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src"
if str(SRC) not in sys.path:  # document the working tree, installed or not
    sys.path.insert(0, str(SRC))

import attrs
from mkdocs.structure.files import File, Files
from ruamel.yaml import YAML

import meldkit
from meldkit import schema_docs

REFERENCE = "authoring/reference.md"
SCHEMA = "schema/rulepack.schema.json"
RESOLVED = Path(__file__).parent / "games" / "resolved.yaml"
STUB = "<!-- stub: generated at build time by docs/hooks.py -->"
"""Marks a page in ``docs/`` that stands in for a generated one (the build replaces it)."""
SIMULATE_PLOT = "assets/simulate-gin_rummy.png"


# --------------------------------------------------------------------------- what exists


def public_modules() -> list[str]:
    """``meldkit`` and each of its public modules and subpackages, by name."""
    found = pkgutil.walk_packages([str(SRC / "meldkit")], "meldkit.")
    return ["meldkit"] + sorted(m.name for m in found
                                if not any(part.startswith("_") for part in m.name.split(".")))


def bundled_packs() -> list[meldkit.RulePack]:
    """The bundled packs: the rummy-kernel packs first, then the plugin games."""
    packs = [meldkit.load_pack(name) for name in meldkit.available_packs()]
    return sorted(packs, key=lambda p: (p.spec.plugin is not None, p.name))


def resolved_choices() -> dict[str, list[dict[str, Any]]]:
    """The *(resolved)* choices of each bundled pack's rules of record."""
    return YAML(typ="safe").load(RESOLVED.read_text(encoding="utf-8")) or {}


# --------------------------------------------------------------------------- pack pages


@functools.cache
def _keys() -> dict[str, schema_docs.PackKey]:
    """Every pack key by its anchor (its dotted path without ``[]``)."""
    return {key.anchor: key for key in schema_docs.pack_keys()}


def _key_link(path: str, to_reference: str) -> str:
    """A link to the reference entry of ``path`` (or of its nearest documented parent)."""
    anchors = _keys()
    target = path
    while target and target not in anchors:
        target = target.rpartition(".")[0]
    return f"[`{path}`]({to_reference}#{target})" if target else f"`{path}`"


def _value_at(pack: meldkit.RulePack, path: str) -> str:
    """The value of a dotted key path in a pack (its default if the pack leaves it out),
    in YAML, shortened to fit a table cell."""
    value: Any = pack.raw
    for step in path.split("."):
        if not isinstance(value, dict) or step not in value:
            value = _keys()[path].default if path in _keys() else None
            break
        value = value[step]
    text = schema_docs.inline_yaml(value)
    return text if len(text) <= 60 else text[:57].rstrip(", ") + " …"


def _flatten(data: dict[str, Any], prefix: str = "") -> list[tuple[str, Any]]:
    """``(dotted key, value)`` of every key a pack sets, sections opened up."""
    rows: list[tuple[str, Any]] = []
    for key, value in data.items():
        path = f"{prefix}{key}"
        section = path in _keys() and attrs.has(_keys()[path].type)
        if section and isinstance(value, dict):
            rows += _flatten(value, path + ".")
        else:
            rows.append((path, value))
    return rows


def _settings_table(pack: meldkit.RulePack) -> str:
    """A minimal rules sheet: who plays, then every key the pack sets with its value and
    meaning."""
    spec = pack.spec
    docs = {anchor: key.doc for anchor, key in _keys().items()}
    rows = [
        f"**Players:** {_seats(spec)} · **Partnerships:** {spec.players.partners}"
        + (f" · **Plugin:** `{spec.plugin}`" if spec.plugin else ""),
        "",
        "## Settings",
        "",
        "| Key | Value | Meaning |",
        "| --- | --- | --- |",
    ]
    for path, value in _flatten(pack.raw):
        if path in ("meldkit", "name", "title", "description"):
            continue
        shown = schema_docs.inline_yaml(value).replace("|", "\\|")
        meaning = docs.get(path, "").replace("|", "\\|")
        rows.append(f"| {_key_link(path, '../' + REFERENCE)} | `{shown}` | {meaning} |")
    return "\n".join(rows)


def rules_sheet(pack: meldkit.RulePack) -> str:
    """The pack's rules sheet in Markdown: ``meldkit.rulesheet.rules_sheet`` when that
    module exists, else a table of the pack's settings."""
    try:
        from meldkit.rulesheet import rules_sheet as make_sheet
    except ModuleNotFoundError as exc:
        if exc.name != "meldkit.rulesheet":
            raise
        return _settings_table(pack)
    return make_sheet(pack)


def _resolved_section(pack: meldkit.RulePack, choices: list[dict[str, Any]]) -> str:
    """The resolved choices of a game's rules of record, with the pack's value of each key."""
    if not choices:
        return ""
    out = [
        "## Choices the rules of record leave open",
        "",
        (
            "Where the game's source is silent or unclear, the rules of record settle it; each "
            "such *(resolved)* choice is a pack key, so a family with other house rules "
            "changes it in a pack that [extends](../authoring/extends.md) this one."
        ),
        "",
        "| Clause | Resolved as | Pack key: value here |",
        "| --- | --- | --- |",
    ]
    for choice in choices:
        keys = choice.get("keys") or []
        where = "<br>".join(
            f"{_key_link(k, '../' + REFERENCE)}: `{_value_at(pack, k)}`" for k in keys
        )
        out.append(f"| {choice['clause']} | {choice['resolution']} | {where or choice['fixed']} |")
    return "\n".join(out) + "\n"


def _demoted(markdown: str) -> str:
    """``markdown`` with every heading one level deeper (outside code blocks)."""
    out, fenced = [], False
    for line in markdown.splitlines():
        if line.lstrip().startswith(("```", "~~~")):
            fenced = not fenced
        out.append("#" + line if not fenced and line.startswith("#") else line)
    return "\n".join(out)


def pack_page(
    pack: meldkit.RulePack, choices: list[dict[str, Any]], rules_of_record: str | None = None
) -> str:
    """The page of one bundled pack: the rules sheet (with the title and description), the
    resolved choices, how to play it, and the pack file. With ``rules_of_record`` (the
    hand-written ``docs/games/<pack>.md``, which brings its own title), that page comes
    first and the rules sheet follows under *What the pack plays*."""
    spec = pack.spec
    sheet = rules_sheet(pack).strip()
    title = spec.title or pack.name
    if sheet.startswith("# "):  # the sheet brings its own title
        title, _, sheet = sheet[2:].partition("\n")
        sheet = sheet.strip()
    intro = [] if spec.description and spec.description in sheet else [spec.description, ""]
    head = [f"# {title.strip()}", "", *intro, sheet]
    if rules_of_record is not None:
        head = [
            rules_of_record.strip(),
            "",
            "## What the pack plays",
            "",
            *intro,
            _demoted(sheet),
        ]
    source = Path(pack.source)
    text = source.read_text(encoding="utf-8") if source.is_file() else schema_docs.to_yaml(pack.raw)
    return "\n".join(
        [
            *head,
            "",
            _resolved_section(pack, choices),
            "## Play it",
            "",
            "```bash",
            f"meldkit play {pack.name}         # play it in the terminal against bots",
            f"meldkit simulate {pack.name}     # bots play ten games; a summary follows",
            "```",
            "",
            "## The pack file",
            "",
            f'??? example "{source.name}"',
            "",
            f'    ```yaml title="{source.name}"',
            *(f"    {line}" if line else "" for line in text.rstrip().splitlines()),
            "    ```",
            "",
        ]
    )


def _seats(spec: Any) -> str:
    """``4 to 6``, or ``4`` when the pack seats one number of players."""
    low, high = spec.players.min, spec.players.max
    return str(low) if low == high else f"{low} to {high}"


def packs_table() -> str:
    """The bundled games, each linked to its page (for ``games/index.md``)."""
    rows = ["| Game | Pack | Players | About |", "| --- | --- | --- | --- |"]
    for pack in bundled_packs():
        spec = pack.spec
        title = spec.title or pack.name
        rows.append(
            f"| [{title}]({pack.name}.md) | `{pack.name}` | {_seats(spec)} | {spec.description} |"
        )
    return "\n".join(rows)


def sections_table() -> str:
    """The sections of a pack, each linked to its part of the reference."""
    rows = ["| Section | What it sets |", "| --- | --- |"]
    for key in _keys().values():
        if "." not in key.path and attrs.has(key.type):
            about = " ".join((key.type.__doc__ or key.doc).split())
            rows.append(f"| [`{key.path}`](reference.md#{key.anchor}) | {about} |")
    return "\n".join(rows)


# --------------------------------------------------------------------------- other pages


def api_page(module: str) -> str:
    """A module's reference: its docstring and public members, from mkdocstrings. The top
    package's members, and the game state's, come in the order of the play loop
    (``docs/griffe_docstrings.py`` gives them as ``exports``)."""
    order = ("      members_order: [__all__, source]\n      group_by_category: false\n"
             if module == "meldkit" else "")
    return f"::: {module}\n    options:\n      heading_level: 1\n{order}"


def cli_page() -> str:
    """The help of the ``meldkit`` command and of each subcommand."""
    from meldkit.cli import build_parser

    parser = build_parser()
    with _columns(90):
        out = [
            "# Command line",
            "",
            (
                "The `meldkit` command is installed with the package (`python -m meldkit` runs "
                "it too). This page is generated from the command's own help."
            ),
            "",
            "```text",
            parser.format_help().rstrip(),
            "```",
            "",
        ]
        for action in parser._actions:  # argparse keeps its subcommands in a private class
            if isinstance(action, argparse._SubParsersAction):
                for name, sub in action.choices.items():
                    out += [
                        f"## `meldkit {name}`",
                        "",
                        "```text",
                        sub.format_help().rstrip(),
                        "```",
                        "",
                    ]
    return "\n".join(out)


@contextlib.contextmanager
def _columns(width: int):
    """argparse wraps help to the terminal width: make it the same on every machine."""
    old = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = str(width)
    try:
        yield
    finally:
        if old is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = old


# --------------------------------------------------------------------------- spec tables


@functools.cache
def typical_game(pack_name: str, players: int, games: int = 10) -> tuple[float, float]:
    """The median decisions and hands of ``games`` games between greedy bots (seed 0)."""
    from meldkit.simulate import simulate

    records = list(simulate(pack_name, players=players, games=games, seed=0, bots=["greedy"]))
    return (statistics.median(r.decisions for r in records),
            statistics.median(r.hands for r in records))


@functools.cache
def table_facts(pack_name: str, players: int) -> dict[str, Any]:
    """What a table of ``players`` has: teams, cards in play, action ids, observation size."""
    game = meldkit.new_game(pack_name, players=players, seed=0)
    return {
        "teams": game.n_teams,
        "cards": sum(len(ids) for ids in game.zone_cards().values()),
        "actions": game.action_space.size,
        "observation": game.observation_spec().size,
    }


def _player_counts(pack: meldkit.RulePack, most: int = 4) -> list[int]:
    """The table sizes a spec table shows: the pack's smallest ``most`` sizes."""
    players = pack.spec.players
    allowed = [n for n in range(players.min, players.max + 1)
               if not players.counts or n in players.counts]
    return allowed[:most]


def _per_count(values: dict[int, Any]) -> str:
    """``1,126`` when every table size gives the same, else ``1,126 (2) · 1,400 (3)``."""
    shown = {n: f"{v:,}" if isinstance(v, int) else str(v) for n, v in values.items()}
    if len(set(shown.values())) == 1:
        return next(iter(shown.values()))
    return " · ".join(f"{v} ({n} players)" for n, v in shown.items())


def _decks(pack: meldkit.RulePack, players: int) -> str:
    """The standard decks a table of ``players`` uses (as the engine counts them), or the
    plugin's own deck."""
    deck = pack.spec.deck
    if pack.spec.plugin and deck.decks is None and deck.decks_per_player is None:
        return "own deck"
    decks = (deck.decks_by_players or {}).get(players)
    if decks is None:
        decks = deck.decks if deck.decks is not None else (deck.decks_per_player or 1) * players
    return str(decks)


def spec_table(pack: meldkit.RulePack) -> str:
    """A game's specification, computed from the engine at each table size: teams, decks
    and cards, the size of the integer action space (``state.action_space.size``), the
    shape of ``state.observation()`` (``observation_spec().size``); then the median length
    of ten games between greedy bots at the smallest table."""
    spec = pack.spec
    counts = _player_counts(pack)
    facts = {n: table_facts(pack.name, n) for n in counts}
    low = counts[0]
    decisions, hands = typical_game(pack.name, low)
    more = (f" (tables of more than {counts[-1]} not shown)"
            if spec.players.max > counts[-1] else "")

    def row(name: str, cell: Any) -> str:
        return f"| {name} | " + " | ".join(cell(n) for n in counts) + " |"

    out = [
        "| At a table of | " + " | ".join(f"{n} players" for n in counts) + " |",
        "| --- |" + " --- |" * len(counts),
        row("Teams", lambda n: str(facts[n]["teams"])),
        row("Decks (cards in play)", lambda n: f"{_decks(pack, n)} ({facts[n]['cards']:,})"),
        row("Action space (ids)", lambda n: f"{facts[n]['actions']:,}"),
        row("Observation shape", lambda n: f"({facts[n]['observation']:,},)"),
        "",
        f"**Players:** {_seats(spec)}{more} · **partnerships:** {spec.players.partners} · "
        f"**a typical game** at {low} players: {decisions:g} decisions in {hands:g} "
        f"hand{'s' if hands != 1 else ''} (median of 10 games between greedy bots, seed 0). "
        "Computed from the engine when this page was built: "
        "[`state.action_space`](../game-ai.md#integer-actions-and-the-legal-mask)"
        ".size, `state.observation_spec()`.size (a flat `array('f')`), "
        "`meldkit.simulate`.",
    ]
    return "\n".join(out) + "\n"


def with_spec_table(page: str, pack: meldkit.RulePack) -> str:
    """A game page with its spec table after its title."""
    title, _, rest = page.partition("\n")
    return f"{title}\n\n{spec_table(pack)}\n{rest.lstrip(chr(10))}"


def action_space_table() -> str:
    """Every bundled pack's action-space size at its smallest table (for the Game AI page)."""
    rows = ["| Pack | Players | Ids (at the smallest table) | Observation size |",
            "| --- | --- | --- | --- |"]
    for pack in bundled_packs():
        low = pack.spec.players.min
        facts = table_facts(pack.name, low)
        rows.append(f"| [{pack.name}](games/{pack.name}.md) | {_seats(pack.spec)} "
                    f"| {facts['actions']:,} | {facts['observation']:,} |")
    return "\n".join(rows)


# --------------------------------------------------------------------------- the home page

PLAY_ARGS = ["play", "pony_canasta", "--players", "2", "--seed", "7", "--color", "always"]
"""The session shown on the home page: you against a greedy bot, seed 7."""

_SGR = re.compile(r"\x1b\[([0-9;]*)m")
_STYLE = {"1": "font-weight:bold", "2": "opacity:.7", "31": "color:#ff7b72",
          "32": "color:#7ee787", "33": "color:#e3b341", "34": "color:#79c0ff",
          "35": "color:#d2a8ff", "36": "color:#56d4dd"}


def run_cli(argv: list[str], stdin: str = "") -> str:
    """What ``meldkit <argv>`` prints (standard output and error) given ``stdin``."""
    from meldkit.cli import main

    out = io.StringIO()
    old_stdin = sys.stdin
    sys.stdin = io.StringIO(stdin)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out), _columns(100):
            main(argv)
    finally:
        sys.stdin = old_stdin
    return out.getvalue()


def ansi_html(text: str) -> str:
    """Terminal text with colour codes (SGR) as HTML spans."""
    out: list[str] = []
    styles: list[str] = []
    pos = 0
    for match in _SGR.finditer(text):
        chunk = html.escape(text[pos : match.start()])
        out.append(f'<span style="{";".join(styles)}">{chunk}</span>' if styles and chunk
                   else chunk)
        for code in (match.group(1) or "0").split(";"):
            if code == "0":
                styles = []
            elif code in _STYLE and _STYLE[code] not in styles:
                styles.append(_STYLE[code])
        pos = match.end()
    out.append(html.escape(text[pos:]))
    return "".join(out)


@functools.cache
def play_session() -> str:
    """A scripted ``meldkit play`` session: draw, ask for a hint, play it, quit; the
    screen from the hint on."""
    first = run_cli(PLAY_ARGS, "1\nhint\nquit\n")
    hint = re.search(r"hint: (.+)", _SGR.sub("", first))
    move = hint.group(1).strip() if hint else "1"
    text = run_cli(PLAY_ARGS, f"1\nhint\n{move}\nquit\n")
    start = text.find("your move> hint")
    return text[start if start >= 0 else 0 :].rstrip() + "\n"


def play_screen() -> str:
    """The play session as a terminal picture (an HTML ``<pre>``), with how it was made."""
    lines = ansi_html(play_session()).splitlines()
    body = "\n".join(line if line.strip() else " " for line in lines)
    command = "meldkit " + " ".join(a for a in PLAY_ARGS if a not in ("--color", "always"))
    return (
        f'<pre class="meldkit-screen" style="background:#161b22;color:#e6edf3;padding:1em;'
        f'border-radius:6px;font-size:.72rem;line-height:1.35;overflow-x:auto">{body}</pre>\n\n'
        f"*A real session, replayed when this site was built: `{command}`, the moves "
        "typed on standard input (`1` to draw, `hint`, the hinted meld, `quit`).*\n"
    )


SIMULATE_ARGS = ["simulate", "gin_rummy", "--games", "40", "-q"]


@functools.cache
def simulate_figure() -> tuple[bytes | None, str]:
    """The ``simulate --plot`` figure (PNG bytes, or None without matplotlib) and the
    printed summary."""
    try:
        import matplotlib  # noqa: F401
    except ModuleNotFoundError:
        return None, ""
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "plot.png")
        text = run_cli([*SIMULATE_ARGS, "--plot", path])
        data = Path(path).read_bytes() if os.path.exists(path) else None
    summary = "\n".join(line for line in text.splitlines() if not line.startswith("plot:"))
    return data, summary.strip()


def simulate_section() -> str:
    """The figure and summary of a ``simulate --plot`` run, or a note when skipped."""
    data, summary = simulate_figure()
    command = "meldkit " + " ".join(SIMULATE_ARGS) + " --plot scores.png"
    if data is None:
        return (f"*(`{command}` draws a figure here when the site is built with matplotlib "
                "installed: `python -m pip install \".[docs]\"`.)*\n")
    return (
        f"![The figure of `{command}`: final scores, and game length in hands and in "
        f"decisions]({SIMULATE_PLOT})\n\n"
        f'??? note "What `{command}` printed"\n\n'
        + "    ```text\n"
        + "".join(f"    {line}\n" for line in summary.splitlines())
        + "    ```\n"
    )


# --------------------------------------------------------------------------- mkdocs events


def _extend_nav(nav: list[Any], index: str, entries: list[Any]) -> bool:
    """Add ``entries`` after ``index`` in the nav section that lists it."""
    for item in nav:
        children = next(iter(item.values())) if isinstance(item, dict) else None
        if isinstance(children, list):
            if index in children:
                children[children.index(index) + 1 : children.index(index) + 1] = entries
                return True
            if _extend_nav(children, index, entries):
                return True
    return False


def on_config(config: Any) -> Any:
    """Add the generated games and API pages to the nav."""
    games = [{p.spec.title or p.name: f"games/{p.name}.md"} for p in bundled_packs()]
    api = [{m: f"api/{m}.md"} for m in public_modules()]
    for index, entries in (("games/index.md", games), ("api/index.md", api)):
        if not _extend_nav(config.nav, index, entries):
            raise ValueError(f"mkdocs.yml: the nav does not list {index}")
    return config


def schema_url(config: Any) -> str:
    """Where the site publishes the JSON Schema."""
    return (config.site_url or "/").rstrip("/") + "/" + SCHEMA


def on_files(files: Files, config: Any) -> Files:
    """Add the generated pages and the JSON Schema to the build."""
    choices = resolved_choices()
    generated = {
        REFERENCE: schema_docs.reference_markdown(),
        SCHEMA: json.dumps(schema_docs.json_schema(schema_url(config)), indent=2) + "\n",
        "reference/cli.md": cli_page(),
    }
    for pack in bundled_packs():
        uri = f"games/{pack.name}.md"
        written = files.get_file_from_path(uri)  # the game's rules of record, if written
        rules_of_record = None
        if written is not None:
            rules_of_record = Path(written.abs_src_path).read_text(encoding="utf-8")
            files.remove(written)
        page = pack_page(pack, choices.get(pack.name, []), rules_of_record)
        generated[uri] = with_spec_table(page, pack)
    for module in public_modules():
        generated[f"api/{module}.md"] = api_page(module)
    figure, _ = simulate_figure()
    if figure is not None:
        generated[SIMULATE_PLOT] = figure
    for uri, content in generated.items():
        existing = files.get_file_from_path(uri)
        if existing is not None:
            if not _is_stub(existing.abs_src_path):
                raise ValueError(f"docs/{uri} is generated at build time: remove the file "
                                 f"(or make it a stub: {STUB})")
            files.remove(existing)
        files.append(File.generated(config, uri, content=content))
    return files


def _is_stub(path: str | None) -> bool:
    """Whether a file in ``docs/`` is a stub of a generated page."""
    return bool(path) and path.endswith(".md") and STUB in Path(path).read_text(encoding="utf-8")


def on_page_markdown(markdown: str, page: Any, config: Any, files: Files) -> str:
    """Fill the markers that hand-written pages leave for generated content."""
    markers = {
        "<!-- generated: packs-table -->": packs_table,
        "<!-- generated: sections-table -->": sections_table,
        "<!-- generated: play-screen -->": play_screen,
        "<!-- generated: simulate-plot -->": simulate_section,
        "<!-- generated: action-space-table -->": action_space_table,
    }
    for marker, make in markers.items():
        if marker in markdown:
            markdown = markdown.replace(marker, make())
    return markdown
