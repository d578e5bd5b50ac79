"""Every docstring example in the library runs (so none rots)."""

from __future__ import annotations

import ast
import doctest
import importlib
import importlib.util
import pkgutil

import pytest

import meldkit

MODULES = sorted(
    ["meldkit"] + [m.name for m in pkgutil.walk_packages(meldkit.__path__, "meldkit.")
                   if m.name != "meldkit.__main__"]
)


def doctest_requires(name: str) -> tuple[str, ...]:
    """The top-level modules a module's examples need, read from its source without importing
    it: a module-level ``__doctest_requires__ = ("pyspiel", ...)`` (the pytest-doctestplus
    name), so a module that cannot even be imported without an extra skips instead of failing."""
    source = importlib.util.find_spec(name).origin
    for node in ast.parse(open(source, encoding="utf-8").read()).body:
        if (isinstance(node, ast.Assign) and len(node.targets) == 1
                and getattr(node.targets[0], "id", None) == "__doctest_requires__"):
            return tuple(ast.literal_eval(node.value))
    return ()


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_run(name):
    for needed in doctest_requires(name):
        pytest.importorskip(needed, reason=f"{name}'s examples need {needed} (an optional extra)")
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0
