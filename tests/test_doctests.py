"""Every docstring example in the library runs (so none rots)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import meldkit

MODULES = sorted(
    ["meldkit"] + [m.name for m in pkgutil.walk_packages(meldkit.__path__, "meldkit.")
                   if m.name != "meldkit.__main__"]
)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_run(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0
