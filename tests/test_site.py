"""The docs site's generated parts: spec tables from the engine, the home page's real
``meldkit play`` screen, whole summaries and play-loop order in the API reference, and
(slow, with Chromium installed) the built site looked at in a real browser."""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import meldkit

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"


def _load(path: Path, name: str):
    pytest.importorskip("mkdocs")
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def hooks():
    return _load(DOCS / "hooks.py", "docs_hooks_site")


@pytest.fixture(scope="module")
def griffe_ext():
    pytest.importorskip("griffe")
    return _load(DOCS / "griffe_docstrings.py", "docs_griffe_site")


def test_a_game_page_spec_table_gives_the_engine_numbers_at_each_table(hooks):
    pack = meldkit.load_pack("classic_canasta")
    table = hooks.spec_table(pack)
    assert "| At a table of | 2 players | 3 players | 4 players | 6 players |" in table
    sizes = [meldkit.new_game(pack, players=n, seed=0).action_space.size for n in (2, 3, 4, 6)]
    assert "| Action space (ids) | " + " | ".join(f"{s:,}" for s in sizes) + " |" in table
    shapes = [meldkit.new_game(pack, players=n, seed=0).observation_spec().size
              for n in (2, 3, 4, 6)]
    assert "| Observation shape | " + " | ".join(f"({s},)" for s in shapes) + " |" in table
    assert "| Decks (cards in play) | 2 (108) | 2 (108) | 2 (108) | 3 (162) |" in table
    assert "**a typical game** at 2 players:" in table


def test_the_spec_table_comes_right_after_the_title(hooks):
    page = hooks.with_spec_table("# Samba\n\nSome rules.\n", meldkit.load_pack("samba"))
    lines = page.splitlines()
    assert lines[0] == "# Samba"
    assert lines[2].startswith("| At a table of | 4 players |")
    assert page.rstrip().endswith("Some rules.")


def test_the_action_space_table_lists_every_bundled_pack(hooks):
    table = hooks.action_space_table()
    for name in meldkit.available_packs():
        assert f"| [{name}](games/{name}.md) |" in table
    size = meldkit.new_game("samba", players=4, seed=0).action_space.size
    assert f"| [samba](games/samba.md) | 4 | {size:,} |" in table


def test_the_home_page_screen_is_a_real_play_session(hooks):
    session = hooks.play_session()
    assert session.startswith("your move> hint")
    assert "hint: " in session and "Pony Canasta" in session
    screen = hooks.play_screen()
    assert screen.startswith('<pre class="meldkit-screen"')
    assert "\x1b" not in screen and "<span style=" in screen


def test_terminal_colours_become_spans(hooks):
    html = hooks.ansi_html("\x1b[1mBold\x1b[0m <7D> \x1b[31m7D\x1b[0m")
    assert html == ('<span style="font-weight:bold">Bold</span> &lt;7D&gt; '
                    '<span style="color:#ff7b72">7D</span>')


def test_a_stub_of_a_generated_page_says_so_and_points_at_meldkit_keys(hooks):
    stub = (DOCS / "authoring" / "reference.md").read_text(encoding="utf-8")
    assert hooks.STUB in stub and "meldkit keys" in stub


def test_a_summary_line_is_the_whole_first_sentence(griffe_ext):
    text = ("Every action the player to move may take, in a stable order (a new list: the\n"
            "caller may change it). And more,\ne.g. this.\n\nBody.")
    assert griffe_ext.whole_summary(text).splitlines()[:2] == [
        "Every action the player to move may take, in a stable order (a new list: the "
        "caller may change it).",
        "And more, e.g. this.",
    ]
    assert griffe_ext.whole_summary("One line.\n\nBody.") == "One line.\n\nBody."


def test_every_public_docstring_summary_ends_a_sentence(griffe_ext):
    import griffe

    loader = griffe.GriffeLoader(search_paths=[str(ROOT / "src")],
                                 extensions=griffe.Extensions(griffe_ext.MarkdownDocstrings()))
    package = loader.load("meldkit")
    cut = []

    def walk(obj):
        for member in obj.members.values():
            if member.is_alias or member.name.startswith("_"):
                continue
            if member.docstring is not None:
                first = member.docstring.value.split("\n", 1)[0].strip()
                if first and not first.endswith((".", ":", "!", "?", ")", "`")):
                    cut.append(f"{member.path}: {first[:60]}")
            if member.is_class or member.is_module:
                walk(member)

    walk(package)
    assert cut == []


def test_the_game_state_members_come_in_play_loop_order(griffe_ext):
    import griffe

    loader = griffe.GriffeLoader(search_paths=[str(ROOT / "src")],
                                 extensions=griffe.Extensions(griffe_ext.MarkdownDocstrings()))
    package = loader.load("meldkit")
    order = package["_game"]["GameState"].exports
    loop = ["legal_actions", "check", "apply", "view", "to_json", "from_json", "clone",
            "undo", "returns", "legal_mask", "legal_ids", "observation"]
    assert [name for name in order if name in loop] == loop
    assert set(order) == set(package["_game"]["GameState"].members)
    assert package.exports[0] == "new_game"


@pytest.mark.slow
@pytest.mark.skipif(not (shutil.which("chromium") or shutil.which("chromium-browser")),
                    reason="needs headless Chromium (apt-get install chromium)")
def test_the_built_site_in_a_real_browser(tmp_path):
    pytest.importorskip("mkdocs")
    result = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "check_site.py"), "--out", str(tmp_path)],
        capture_output=True, text=True, timeout=600, cwd=ROOT)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    for name in ("home", "game", "api"):
        assert (tmp_path / f"{name}.png").stat().st_size > 10_000
