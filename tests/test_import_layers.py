"""The modules of meldkit import in layers, top-down, with no cycle.

The graph is read from the source with ``ast``: every ``import`` counts, those inside
functions too (a lazy import is still a dependency); only those under ``if TYPE_CHECKING:``
do not.  Two rules:

* **no cycle** — the strongly connected components of the graph are single modules;
* **no import runs upward** — every module has a layer in :data:`LAYERS`, and it imports
  only from its own layer or lower ones (a new module must be given a layer here).

The low layers reach what lies above them — the engine that plays a pack, the plugin it
names, the loader that finds a bundled pack — through :mod:`meldkit._registry`, which
holds them by name (``"module:Class"`` strings imported on first use), and engines give
the game-AI services what they need through hooks (``action_universe``,
``observation_layout``, ``set_zone_cards``, ``view_schema``), so :mod:`meldkit.ai` never
imports an engine.
"""

from __future__ import annotations

import ast
import fnmatch
from functools import cache
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"
PACKAGE = "meldkit"

LAYERS: list[tuple[str, list[str]]] = [
    # 0: imports nothing above itself; most import nothing of meldkit at all
    # (kernel/__init__ imports nothing; _pack_limits: the work bounds and YAML guards)
    ("leaves", ["_errors", "_checks", "_cards", "notation", "_actions", "saves", "_schema",
                "_pack", "_pack_limits", "_liveness", "_seating", "_registry", "_stacking",
                "records", "kernel", "kernel.melds", "kernel.scoring"]),
    # 1: the game-state contract and the AI services written against it alone
    ("contract", ["_game", "ai", "ai.*"]),
    # 2: the kernels: compiled rules, phases, meld models, their AI hooks and greedy play
    ("kernel", ["_rules", "_scoring", "_state", "kernel.*"]),
    # 3: extensions: the Plugin API and whole engines
    ("plugins", ["plugins", "houses", "houses.*"]),
    # 4: packs: the loader and its checks, the key reference, the rules sheet
    ("packs", ["_loader", "kernel.checks", "rulesheet", "kernel.rulesheet",
               "schema_docs"]),
    # 5: the public API (new_game; the lazy names of the loader and the plugin API)
    ("public API", [PACKAGE]),
    # 6: what is built on the API
    ("applications", ["__main__", "cli", "bots", "pimc", "simulate", "_sim_backends", "tournament",
                      "scenarios", "testing", "testing_openspiel", "adapters", "adapters.*",
                      "_table", "_movelist"]),
]
"""Layer by layer, bottom first: ``(name, module patterns)``; a module name is relative to
the package (``kernel.table``), the package itself is ``meldkit``, and the most specific
pattern wins (``kernel.checks`` over ``kernel.*``)."""

ALLOWED_CYCLES: list[frozenset[str]] = []
"""Cycles known and accepted (none: keep it so)."""


@cache
def modules() -> dict[str, tuple[Path, bool]]:
    """Every module of the package: name → (file, is a package ``__init__``)."""
    out = {}
    for f in sorted((SRC / PACKAGE).rglob("*.py")):
        parts = list(f.relative_to(SRC).with_suffix("").parts)
        is_pkg = parts[-1] == "__init__"
        out[".".join(parts[:-1] if is_pkg else parts)] = (f, is_pkg)
    return out


def _type_checking_only(tree: ast.AST) -> set[int]:
    skip: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for stmt in node.body:  # the else branch runs
                skip.update(id(n) for n in ast.walk(stmt))
    return skip


@cache
def import_graph() -> dict[str, dict[str, int]]:
    """module → {imported module: line of the first such import}."""
    mods = modules()
    graph: dict[str, dict[str, int]] = {m: {} for m in mods}
    for m, (f, is_pkg) in mods.items():
        tree = ast.parse(f.read_text(encoding="utf-8"), str(f))
        skip = _type_checking_only(tree)
        here = m.split(".") if is_pkg else m.split(".")[:-1]
        for node in ast.walk(tree):
            if id(node) in skip or not isinstance(node, (ast.Import, ast.ImportFrom)):
                continue
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            else:
                if node.level:
                    base = here[: len(here) - (node.level - 1)]
                    t = ".".join(base + ([node.module] if node.module else []))
                else:
                    t = node.module or ""
                subs = [f"{t}.{a.name}" for a in node.names if f"{t}.{a.name}" in mods]
                # `from . import saves` imports the submodule; `from .. import new_game` the
                # package itself
                targets = subs + ([t] if len(subs) < len(node.names) else [])
            for t in targets:
                while t not in mods and "." in t:  # import a.b.c names module a.b.c (or a.b)
                    t = t.rsplit(".", 1)[0]
                if t in mods and t != m:
                    graph[m].setdefault(t, node.lineno)
    return graph


def cycles(graph: dict[str, dict[str, int]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm,
    iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    found: list[list[str]] = []
    counter = 0
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            v, children = work[-1]
            for w in children:
                if w not in index:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(sorted(graph[w]))))
                    break
                if w in on_stack:
                    low[v] = min(low[v], index[w])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[v])
                if low[v] == index[v]:
                    comp = []
                    while True:
                        w = stack.pop()
                        on_stack.discard(w)
                        comp.append(w)
                        if w == v:
                            break
                    if len(comp) > 1:
                        found.append(sorted(comp))
    return found


def _short(module: str) -> str:
    return module[len(PACKAGE) + 1:] if module != PACKAGE else PACKAGE


def layer_of(module: str) -> int | None:
    """The layer of a module (by the most specific matching pattern), or None."""
    name = _short(module)
    best: tuple[int, int] | None = None  # (specificity, layer)
    for i, (_, patterns) in enumerate(LAYERS):
        for pat in patterns:
            if fnmatch.fnmatchcase(name, pat):
                rank = len(pat) - pat.count("*") * 100
                if best is None or rank > best[0]:
                    best = (rank, i)
    return None if best is None else best[1]


def test_the_import_graph_has_no_cycle():
    graph = import_graph()
    found = [c for c in cycles(graph) if frozenset(c) not in ALLOWED_CYCLES]
    lines = []
    for comp in found:
        members = set(comp)
        lines.append(f"cycle of {len(comp)}: {', '.join(comp)}")
        for m in comp:
            for t, line in sorted(graph[m].items()):
                if t in members:
                    lines.append(f"    {modules()[m][0].relative_to(SRC)}:{line} -> {t}")
    assert not found, "import cycles (imports inside functions count):\n" + "\n".join(lines)


def test_every_module_has_a_layer():
    missing = sorted(_short(m) for m in modules() if layer_of(m) is None)
    assert not missing, f"give these modules a layer in LAYERS: {missing}"


def test_no_import_runs_upward():
    graph = import_graph()
    upward = []
    for m, targets in sorted(graph.items()):
        lm = layer_of(m)
        for t, line in sorted(targets.items()):
            lt = layer_of(t)
            if lm is not None and lt is not None and lt > lm:
                upward.append(f"{modules()[m][0].relative_to(SRC)}:{line}: {_short(m)} "
                              f"({LAYERS[lm][0]}) imports {_short(t)} ({LAYERS[lt][0]})")
    assert not upward, "imports that run upward:\n" + "\n".join(upward)


def test_the_cycle_check_sees_function_level_imports_and_skips_type_checking():
    graph = {"a": {"b": 1}, "b": {"c": 1}, "c": {"a": 1}, "d": {"a": 1}}
    assert cycles(graph) == [["a", "b", "c"]]
    tree = ast.parse("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import x\n"
                     "def f():\n    import y\n")
    skip = _type_checking_only(tree)
    kept = [n.names[0].name for n in ast.walk(tree)
            if isinstance(n, ast.Import) and id(n) not in skip]
    assert kept == ["y"]
    # the kernels' AI hooks: an engine module imports the AI layer, never the reverse
    g = import_graph()
    assert f"{PACKAGE}.kernel.universe" in g[f"{PACKAGE}._state"]
    assert not [t for t in g[f"{PACKAGE}.ai.action_space"] if layer_of(t) > 1]


def test_the_registry_names_engines_and_finds_each_pack_its_engine():
    import subprocess
    import sys

    import meldkit
    from meldkit import _registry
    from meldkit.houses._engine import HousesState
    from meldkit.kernel.state import KernelState

    assert _registry.engine_for(meldkit.load_pack("gin_rummy")) is KernelState  # one engine
    assert _registry.engine_for(meldkit.load_pack("pony_tail")) is KernelState
    assert _registry.engine_for(meldkit.load_pack("houses")) is HousesState  # its plugin's
    assert _registry.plugin_for(meldkit.load_pack("pony_tail")) is None
    assert _registry.resolve_bundled("gin_rummy", "") is meldkit.load_pack("gin_rummy")
    assert _registry.resolve_bundled("../gin_rummy", "") is None  # never a path
    with pytest.raises(ValueError, match="module:Class"):
        _registry.register_engine("x", "meldkit.kernel.state.KernelState")
    # `import meldkit` imports neither the table kernel nor the plugin API nor the loader
    code = ("import sys, meldkit; print(sorted(m for m in ('meldkit.kernel.table', "
            "'meldkit.plugins', 'meldkit._loader', 'meldkit.ai.action_space') "
            "if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "[]"
