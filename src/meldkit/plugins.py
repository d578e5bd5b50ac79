"""The plugin hook: how a separately installed package extends meldkit.

A plugin is a :class:`Plugin` instance published under the entry-point group
``meldkit.plugins`` and named by a pack (``plugin: houses``).  Loading a pack never imports
a module path written in YAML: only installed entry points are looked up, by name.

A plugin contributes any of:

* ``options_class`` — an attrs class for the pack's ``options:`` section, structured and
  reported with the same ``file:line:col`` errors as the rest of the pack;
* ``engine`` — a whole game engine, a subclass of :class:`meldkit.GameState`, for games
  whose turn structure is not rummy's (its own deck, phases, actions, out-of-turn
  decisions, end conditions and scoring) — Sackson's Houses is one;
* ``actions`` — new action types for the rummy kernel (:class:`ActionHook`: legal-action
  generation, check with reason codes, apply, notation);
* ``adjust_scores`` — a scoring rule applied to every team's hand score;
* ``deck_size`` — the number of cards for a table, when ``engine`` brings its own deck.

>>> from meldkit.plugins import get_plugin
>>> get_plugin("houses").name
'houses'
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

import attrs

from ._errors import PluginError, cut, quoted
from ._registry import engine_for  # noqa: F401 - re-exported: the engine that plays a pack

if TYPE_CHECKING:
    from ._actions import Action
    from ._loader import RulePack
    from ._scoring import HandFinal, TeamScore

ENTRY_POINT_GROUP = "meldkit.plugins"
_PACKAGE_NAME = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9._-]{0,98}[A-Za-z0-9])?")
"""A distribution name pip could install (PEP 508's form, bounded)."""
API_VERSION = 1
HOOK_PHASES = ("draw", "play", "first_upcard", "discard", "knock", "layoff", "wall")
"""Every phase an :class:`ActionHook` may name: the canasta kernel's ``draw`` and ``play``,
and the table-melds kernel's phases; the loader refuses a hook whose phase its pack lacks."""


@attrs.frozen
class ActionHook:
    """A new action type, in the canasta kernel and in the table-melds kernel.

    ``verb`` is its notation word (``bury 3``: the verb, then rank codes, then optionally
    ``to <rank>``; in a pack with ``melds.kinds``, card codes and a meld id: ``bury 9H``,
    ``bury 9H to m2``); ``cards`` (how many cards it names; None: any number) and
    ``target`` (whether it takes ``to <rank>`` / ``to m<id>``) let the parser refuse a
    misshapen action with a ``NotationError``.  ``phase`` is one of the pack's phases
    (:data:`HOOK_PHASES`: ``"draw"`` or ``"play"`` in a canasta pack; ``draw``, ``play``,
    ``first_upcard``, ``discard``, ``knock``, ``layoff`` or ``wall`` as a table pack has
    them), checked when the pack loads.  ``legal(state)``
    yields the legal actions of this type (build them with ``state.actions.get(verb, cards,
    target)``); ``check(state, action)`` returns None or a :class:`~meldkit.Reason`;
    ``apply(state, action)`` changes the state and may rely on ``check`` having passed.
    The engine checks each hook (a result of the wrong shape, a card lost or doubled by
    ``apply``, plugin data that is not JSON: a :class:`PluginError` naming the hook) and
    undoes a move whose hook fails, so ``state`` is left as it was; ``legal`` and ``check``
    must only read it.  The pack's structured options are ``state.pack.options``;
    plugin data that must survive save/load lives in ``state.ext[plugin_name]`` (JSON-able;
    saved with the game, copied by ``clone()``, and snapshotted into each hand's
    ``HandFinal.ext``).

    >>> from meldkit.plugins import ActionHook, Plugin, validate_plugin
    >>> bury = ActionHook(verb="bury", phase="play", cards=1,
    ...                   legal=lambda state: [],
    ...                   check=lambda state, action: None,
    ...                   apply=lambda state, action: None)
    >>> class Bury(Plugin):
    ...     name = "bury-example"
    ...     def actions(self):
    ...         return [bury]
    >>> [hook.verb for hook in validate_plugin(Bury(), "bury-example").actions()]
    ['bury']
    """

    verb: str
    phase: str
    legal: Callable[[Any], Sequence[Action]]
    check: Callable[[Any, Action], Any]
    apply: Callable[[Any, Action], None]
    cards: int | None = None
    target: bool = False


class Plugin:
    """Base class of meldkit plugins; subclass it and set what you contribute.

    A plugin is published under the ``meldkit.plugins`` entry point (or, in a notebook,
    given to :func:`register`) and named by a pack's ``plugin:`` key.

    >>> import attrs
    >>> from meldkit.plugins import Plugin, get_plugin, validate_plugin
    >>> class Tip(Plugin):  # ten points more for every side, every hand
    ...     name = "tip"
    ...     def adjust_scores(self, state, final, scores):
    ...         return [attrs.evolve(s, adjustments=s.adjustments + (("tip", 10),))
    ...                 for s in scores]
    >>> validate_plugin(Tip(), "tip").name
    'tip'
    >>> get_plugin("houses").engine.__name__   # an installed plugin with its own engine
    'HousesState'
    """

    name: ClassVar[str] = ""
    """The name packs use (``plugin: houses``); must equal the entry-point name."""
    api_version: ClassVar[int] = API_VERSION
    """The plugin API this plugin was written for."""
    options_class: ClassVar[type | None] = None
    """An attrs class for the pack's ``options:`` section (None: options must be empty)."""
    engine: ClassVar[type | None] = None
    """A :class:`meldkit.GameState` subclass that plays the whole game, or None to use the
    rummy kernel (with ``actions`` and ``adjust_scores``)."""

    def actions(self) -> Sequence[ActionHook]:
        """New action types for the rummy kernel."""
        return ()

    def adjust_scores(self, state: Any, final: HandFinal,
                      scores: list[TeamScore]) -> list[TeamScore]:
        """Change a hand's scores: return a list of one score per team, of the type given
        (:class:`~meldkit.TeamScore` in the canasta kernel; add points as
        ``adjustments``), each with an int total; anything else is a :class:`PluginError`
        naming this hook."""
        return scores

    def view(self, state: Any, player: int) -> dict | None:
        """Extra JSON-able data for ``state.view(player)`` (under ``"plugin"``), or None.
        Show only what ``player`` may see."""
        return None

    def deck_size(self, spec: Any, options: Any, players: int) -> int | None:
        """Cards in play for a table of ``players`` when the engine brings its own deck
        (the loader checks the deal against it); None: the pack's standard deck."""
        return None

    def validate(self, spec: Any, options: Any) -> list[Any]:
        """Problems with a pack using this plugin, beyond what ``options_class`` checks:
        messages, or ``(key path under options, message)`` pairs."""
        return []

    def rules(self, spec: Any, options: Any) -> list[str]:
        """The rules this plugin plays, as Markdown lines of the pack's rules sheet
        (``meldkit rules``; sections start ``## ``): an engine plugin's whole game, or a
        rule-hook plugin's own actions and scoring, in words, from the pack's ``spec`` and
        its structured ``options``.  [] (the default): the sheet says only that the
        plugin's rules apply."""
        return []


_HOOK_SIGNATURES = {
    "actions": 0,
    "adjust_scores": 3,
    "view": 2,
    "deck_size": 3,
    "validate": 2,
    "rules": 2,
}


def _fail(name: str, message: str) -> PluginError:
    return PluginError(f"plugin {quoted(name)}: {message}")


def validate_plugin(plugin: Any, name: str) -> Plugin:
    """Check that ``plugin`` provides what the hook requires; raises :class:`PluginError`
    naming the plugin and the problem."""
    from ._actions import KERNEL_ACTION_TYPES
    from ._game import GameState

    if isinstance(plugin, type) and issubclass(plugin, Plugin):
        plugin = plugin()
    if not isinstance(plugin, Plugin):
        raise _fail(name, "the entry point must give a meldkit.plugins.Plugin, not "
                          f"{quoted(plugin)}")
    if plugin.name != name:
        raise _fail(name, f"its name attribute is {quoted(plugin.name)}, but it is registered "
                          f"as {quoted(name)}")
    if plugin.api_version != API_VERSION:
        raise _fail(name, f"written for plugin API {plugin.api_version}, meldkit has {API_VERSION}")
    for hook, n_args in _HOOK_SIGNATURES.items():
        fn = getattr(plugin, hook, None)
        if not callable(fn):
            raise _fail(name, f"hook {hook} is missing or not callable")
        n = _takes(fn, n_args)
        if n is not None:
            raise _fail(name, f"hook {hook} takes {n} argument(s), expected {n_args}")
    if plugin.engine is not None and not (
            isinstance(plugin.engine, type) and issubclass(plugin.engine, GameState)):
        raise _fail(name, "engine must be a subclass of meldkit.GameState")
    if plugin.engine is not None:  # the engine plays the whole game: which hooks run?
        runs = getattr(plugin.engine, "PLUGIN_HOOKS", frozenset())
        if not isinstance(runs, (set, frozenset)) or not runs <= set(_RULE_HOOKS):
            raise _fail(name, f"its engine {plugin.engine.__name__}'s PLUGIN_HOOKS must be "
                              f"a set of the hooks it calls ({', '.join(_RULE_HOOKS)}), not "
                              f"{quoted(runs)}")
        unused = [h for h in _RULE_HOOKS if h not in runs
                  and getattr(type(plugin), h, None) is not getattr(Plugin, h)]
        if unused:
            raise _fail(name, f"hook(s) {', '.join(unused)} would never run: its engine "
                              f"{plugin.engine.__name__} plays the whole game, and runs only "
                              "the hooks its PLUGIN_HOOKS names (the kernel's rule hooks are "
                              "not used): remove them, or call them from the engine and "
                              "name them there")
    if plugin.options_class is not None and not attrs.has(plugin.options_class):
        raise _fail(name, "options_class must be an attrs class")
    seen = set(KERNEL_ACTION_TYPES)
    try:
        hooks = list(plugin.actions())
    except Exception as e:  # plugin code: a PluginError naming the hook, never raw
        raise _fail(name, f"hook actions raised {type(e).__name__}: {e}") from None
    for hook in hooks:
        if not isinstance(hook, ActionHook):
            raise _fail(name, f"actions() must give ActionHook objects, not {quoted(hook)}")
        if not isinstance(hook.verb, str) or not _VERB.fullmatch(hook.verb) \
                or hook.verb == "to":
            raise _fail(name, f"action verb {quoted(hook.verb)}: a verb is one lower-case "
                              "word (letters, digits, _ or -, a letter first; not 'to'), as "
                              "a move is typed")
        if hook.verb in seen:
            raise _fail(name, f"action verb {quoted(hook.verb)} clashes with an existing action")
        if hook.phase not in HOOK_PHASES:  # and one of its pack's: checked at load
            raise _fail(name, f"action {quoted(hook.verb)}: phase must be one of "
                              f"{', '.join(HOOK_PHASES)}, not {quoted(hook.phase)}")
        for part, n_args in (("legal", 1), ("check", 2), ("apply", 2)):
            fn = getattr(hook, part)
            if not callable(fn):
                raise _fail(name, f"action {quoted(hook.verb)}: {part} is not callable")
            n = _takes(fn, n_args)
            if n is not None:
                raise _fail(name, f"action {quoted(hook.verb)}: {part} takes {n} argument(s), "
                                  f"expected {n_args}")
        seen.add(hook.verb)
    return plugin


_RULE_HOOKS = ("actions", "adjust_scores", "view")
"""The hooks the kernels run for a rule-hook plugin; an engine plugin's engine runs those
its ``PLUGIN_HOOKS`` names (none by default)."""

_VERB = re.compile(r"[a-z][a-z0-9_-]*")
"""A plugin action's verb: one lower-case word, as notation reads a move's first word."""


def _takes(fn, n_args: int) -> str | None:
    """None if ``fn`` can be called with ``n_args`` positional arguments (defaults and
    ``*args`` allowed), else how many it takes, for the refusal."""
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        return None  # (a builtin without a signature: taken on trust)
    try:
        sig.bind(*([None] * n_args))
    except TypeError:
        return str(len([p for p in sig.parameters.values()
                        if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]))
    return None


_registry: dict[str, Plugin] = {}


def register(plugin: Plugin) -> Plugin:
    """Register a plugin object directly (for tests and notebooks; installed packages use
    the ``meldkit.plugins`` entry point).  Validated like an entry point."""
    p = validate_plugin(plugin, getattr(plugin, "name", ""))
    if p.name in _registry and _registry[p.name] is not p:
        raise _fail(p.name, "a different plugin of that name is already registered")
    _registry[p.name] = p
    return p


def installed_plugins() -> list[str]:
    """Names of the plugins installed through the ``meldkit.plugins`` entry point."""
    from importlib import metadata

    return sorted({ep.name for ep in metadata.entry_points(group=ENTRY_POINT_GROUP)}
                  | set(_registry))


def get_plugin(name: str, package: str | None = None) -> Plugin:
    """The plugin called ``name``; raises :class:`PluginError` saying which package to
    install when it is missing."""
    from importlib import metadata

    if name in _registry:
        return _registry[name]
    eps = [ep for ep in metadata.entry_points(group=ENTRY_POINT_GROUP) if ep.name == name]
    if not eps:
        dist = package or f"meldkit-{name}"
        known = ", ".join(installed_plugins()) or "none"
        if not _PACKAGE_NAME.fullmatch(str(dist)):  # no command to paste for such a name
            raise PluginError(f"this pack needs the plugin {quoted(name)}, which is not "
                              f"installed and is no package's name (installed plugins: "
                              f"{known})")
        raise PluginError(
            f"this pack needs the plugin {quoted(name)}, which is not installed: "
            f"install it with `pip install {cut(dist)}` (installed plugins: {known})"
        )
    if len({ep.value for ep in eps}) > 1:
        raise _fail(name, "more than one installed package registers a plugin of that name: "
                          + ", ".join(sorted(ep.value for ep in eps)))
    try:
        obj = eps[0].load()
    except Exception as e:  # a broken plugin package must not give a bare traceback
        raise _fail(name, f"could not be imported from {eps[0].value}: "
                          f"{type(e).__name__}: {e}") from None
    plugin = validate_plugin(obj, name)
    _registry[name] = plugin
    return plugin


def plugin_for(pack: RulePack) -> Plugin | None:
    """The plugin a pack names, or None."""
    spec = pack.spec
    if not spec.plugin:
        return None
    return get_plugin(spec.plugin, spec.plugin_package)

