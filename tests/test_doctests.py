"""Every docstring example in the library runs (so none rots)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import meldkit

MODULES = sorted(
    ["meldkit"] + [f"meldkit.{m.name}" for m in pkgutil.iter_modules(meldkit.__path__)
                   if m.name != "__main__"]
)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_run(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0
