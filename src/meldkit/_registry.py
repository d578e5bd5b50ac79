"""Which engine plays a pack, which plugin it names, and where a bundled pack is — a leaf.

Low layers (the game-state contract, the compiled rules) need to reach things defined
above them: the class that plays a pack, the plugin a pack names, the loader that finds a
bundled pack.  They ask this registry, which holds them **by name** — engines as
``"module:Class"`` strings, the plugin machinery and the loader as module names — and
imports each on first use.  So nothing here imports meldkit at load time, and no module
below an engine imports it (``tests/test_import_layers.py`` keeps the layers honest).

>>> from meldkit._registry import engine_for
>>> import meldkit
>>> engine_for(meldkit.load_pack("gin_rummy")).__name__
'KernelState'
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ._game import GameState
    from ._pack import RulePack
    from .plugins import Plugin

__all__ = ["engine_for", "engine_named", "plugin_for", "register_engine", "resolve_bundled"]

_ENGINES: dict[str, str] = {
    "kernel": "meldkit.kernel.state:KernelState",  # every pack but a whole-engine plugin's
}
"""The built-in engines by name, as ``"module:Class"`` (imported on first use)."""
_LOADED: dict[str, type] = {}

_PLUGINS = "meldkit.plugins"  # the Plugin API and its entry points
_LOADER = "meldkit._loader"  # the pack loader (ruamel.yaml, cattrs: loaded on first use)


def register_engine(name: str, ref: str) -> None:
    """Name an engine class by its ``"module:Class"`` reference (imported on first use)."""
    module, sep, cls = ref.partition(":")
    if not (module and sep and cls):
        raise ValueError(f"an engine reference is 'module:Class', not {ref!r}")
    _ENGINES[name] = ref
    _LOADED.pop(name, None)


def engine_named(name: str) -> type[GameState]:
    """The engine class registered as ``name`` (``kernel``: :class:`KernelState`)."""
    cls = _LOADED.get(name)
    if cls is None:
        module, _, attr = _ENGINES[name].partition(":")
        cls = _LOADED[name] = getattr(importlib.import_module(module), attr)
    return cls


def plugin_for(pack: RulePack) -> Plugin | None:
    """The plugin a pack names (looked up by :func:`meldkit.plugins.get_plugin`), or None."""
    spec = pack.spec
    if not spec.plugin:
        return None
    return importlib.import_module(_PLUGINS).get_plugin(spec.plugin, spec.plugin_package)


def engine_for(pack: RulePack) -> type[GameState]:
    """The game-state class that plays ``pack``: its plugin's engine, or the one kernel
    (which picks the meld model the pack needs)."""
    plugin = plugin_for(pack)
    if plugin is not None and plugin.engine is not None:
        return plugin.engine
    return engine_named("kernel")


def resolve_bundled(name: Any, digest: str) -> RulePack | None:
    """The bundled pack called ``name``, or None: the default resolver of
    :meth:`meldkit.GameState.from_json`.  Only a bundled name is looked up — never a path."""
    if not isinstance(name, str) or not name.replace("_", "").replace("-", "").isalnum() \
            or not name.isascii():
        return None
    loader = importlib.import_module(_LOADER)
    if loader._bundled_path(name) is None:
        return None
    return loader.load_pack(name)
