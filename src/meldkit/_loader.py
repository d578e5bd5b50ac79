"""Loading rule packs: YAML text → merged plain data → a validated :class:`RulePackSpec`.

A pack is read with ruamel.yaml's round-trip loader, so every key keeps its line and column.
``extends:`` names a parent pack — a bundled name (``pony_tail``) or a path relative to the
extending file — and the child is deep-merged over it: mappings merge key by key, anything
else (lists, scalars, ``null``) replaces. ``name`` is the one key not inherited: a child is a
different pack and is named after its own file unless it sets ``name``.

The merged data is structured with a strict cattrs converter (``"15"`` is not an integer,
``yes`` is not a boolean, unknown keys are refused) and then checked for meaning (card
selectors, deal arithmetic, player counts, contradictory settings). Every problem found is
reported at once as a :class:`~meldkit._errors.PackProblem` that names the file, line and
column the offending key came from, even when it came from a parent pack.

A pack never imports code: ``plugin:`` is kept as a string for the plugin hook to resolve
from installed entry points.
"""

from __future__ import annotations

import difflib
import hashlib
import json
import os
import pathlib
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator, Mapping
from functools import cache
from types import UnionType
from typing import Any, Literal, Union, get_args, get_origin

import attrs
import cattrs
from cattrs.cols import list_structure_factory, mapping_structure_factory
from cattrs.errors import (
    AttributeValidationNote,
    ForbiddenExtraKeysError,
    IterableValidationNote,
)
from cattrs.gen import make_dict_structure_fn
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.error import MarkedYAMLError, YAMLError
from ruamel.yaml.reader import ReaderError

from meldkit._cards import (
    JOKER_KIND,
    JOKER_RANK,
    RANKS,
    canonical_selector,
    card_code,
    deck_card_kinds,
    is_rank,
    kinds_matching,
    rank_index,
    rank_of_kind,
)
from meldkit._errors import (SHOWN_CHARS, PackProblem, PluginError, RulePackError, cut,
                             cut_path)
from meldkit._errors import quoted as _quote
from meldkit._pack import RulePack  # re-exported: meldkit._loader.RulePack
from meldkit._pack_limits import (
    AT_LEAST,
    MAX_CARD_VALUE,
    MAX_EXTENDS,
    MAX_PLAYERS,
    Refused,
    check_runnable,
    key_value,
    load_yaml,
    read_pack_file,
    reader_error_position,
)
from meldkit._schema import (
    CANASTA,
    ENGINE_NAMES,
    ENGINES,
    ENGINE_PACKS,
    HOUSES,
    KEY_NEEDS,
    KEY_READERS,
    TABLE,
    RulePackSpec,
    inert_value,
    pack_leaves,
)
from meldkit.saves import MAX_DROP_PENALTY, MAX_PACK_NAME

__all__ = [
    "RulePack",
    "available_packs",
    "bundled_pack_dir",
    "check_pack",
    "load_pack",
    "load_pack_text",
]

FORMAT_VERSION = 1
"""The rule-pack format version (``meldkit:`` key) this loader reads."""

KeyPath = tuple[Any, ...]
"""A key path into pack data: mapping keys and list indices, e.g. ``("books", "kinds", 0)``."""


# --------------------------------------------------------------------------- bundled packs


@cache
def bundled_pack_dir() -> pathlib.Path:
    """The directory of the packs that ship with meldkit.

    In an installed wheel it is ``meldkit/rulepacks``; in a source checkout it is the
    repository's top-level ``rulepacks`` directory.
    """
    here = pathlib.Path(__file__).resolve()
    installed = here.parent / "rulepacks"
    return installed if installed.is_dir() else here.parents[2] / "rulepacks"


def available_packs() -> list[str]:
    """The sorted names of the bundled packs (``load_pack`` accepts each of them)."""
    return sorted(p.stem for p in bundled_pack_dir().glob("*.yaml"))


def _is_path(name_or_path: str | os.PathLike[str]) -> bool:
    """A path (rather than a bundled name): a PathLike, or text with a slash or a YAML suffix."""
    if not isinstance(name_or_path, str):
        return True
    return "/" in name_or_path or os.sep in name_or_path or name_or_path.endswith((".yaml", ".yml"))


def _bundled_path(name: str) -> pathlib.Path | None:
    """The file of a bundled pack, or None if there is no such pack."""
    if not name or len(name) > 100 or "\x00" in name:
        return None
    path = bundled_pack_dir() / f"{name}.yaml"
    try:
        return path if path.is_file() else None
    except (OSError, ValueError):  # a name no file system takes
        return None


def _unknown_bundled(name: str) -> tuple[str, str | None]:
    """The message and suggestion for a bundled pack name that does not exist."""
    names = available_packs()
    close = difflib.get_close_matches(name, names, n=1)
    listing = ", ".join(names) or "none"
    message = (f"{_quote(name)} is not a bundled pack (available: {listing}; a file path "
               "ends in .yaml)")
    return message, close[0] if close else None


# --------------------------------------------------------------------------- reading YAML


@attrs.frozen
class _Loc:
    """Where a key or item was written: file label and 1-based line and column."""

    file: str
    line: int | None = None
    col: int | None = None


@attrs.define
class _Doc:
    """A pack document after ``extends``: plain data, where each key path was written,
    the files read (for the cache) and the labels of those files, child first."""

    data: dict[str, Any]
    locs: dict[KeyPath, _Loc]
    deps: list[Stamp]
    labels: list[str]


def _problem(loc: _Loc, path: str, message: str, suggestion: str | None = None) -> PackProblem:
    return PackProblem(loc.file, loc.line, loc.col, cut_path(path), message, suggestion)


def _where(loc: _Loc) -> str:
    """``file:line:col`` of a position."""
    return ":".join([loc.file] + [str(n) for n in (loc.line, loc.col) if n is not None])


def _fail(loc: _Loc, path: str, message: str, suggestion: str | None = None) -> RulePackError:
    return RulePackError([_problem(loc, path, message, suggestion)])


Stamp = tuple[str, int, int]
"""A file read for a pack: resolved path, mtime in ns and size, to tell when it changed."""


def _stamp(path: str) -> Stamp:
    st = os.stat(path)
    return path, st.st_mtime_ns, st.st_size


def _read(path: pathlib.Path, label: str) -> tuple[str, Stamp]:
    """The text and stamp of a pack file; a located RulePackError if it cannot be read.
    Only a regular file of at most ``MAX_PACK_BYTES`` is read (see :mod:`._pack_limits`)."""
    try:
        data, (mtime, size) = read_pack_file(path)
        return data.decode("utf-8"), (str(path), mtime, size)
    except Refused as exc:
        raise _fail(_Loc(label), "", exc.message) from None
    except FileNotFoundError:
        raise _fail(_Loc(label), "", "no such file") from None
    except IsADirectoryError:
        raise _fail(_Loc(label), "", "is a directory, not a pack file") from None
    except UnicodeDecodeError as exc:
        raise _fail(_Loc(label), "", f"is not UTF-8 text ({exc.reason})") from None
    except OSError as exc:
        raise _fail(_Loc(label), "", f"cannot be read ({exc.strerror})") from None


def _yaml_error(exc: YAMLError, label: str, text: str = "") -> RulePackError:
    """A RulePackError for malformed YAML, at the position ruamel reports."""
    if isinstance(exc, ReaderError):  # a character YAML forbids (NUL, …): only an offset
        line, col = reader_error_position(text, exc.position)
        char = exc.character if isinstance(exc.character, int) else ord(exc.character)
        return _fail(_Loc(label, line, col), "",
                     f"invalid YAML: the character U+{char:04X} is not allowed in YAML text")
    if isinstance(exc, MarkedYAMLError):
        mark = exc.problem_mark or exc.context_mark
        loc = _Loc(label, mark.line + 1, mark.column + 1) if mark else _Loc(label)
        context = f" ({exc.context})" if exc.context else ""
        return _fail(loc, "", f"invalid YAML: {exc.problem}{context}")
    return _fail(_Loc(label), "", f"invalid YAML: {str(exc).splitlines()[0]}")


def _scalar(value: Any) -> Any:
    """A YAML scalar as a plain Python value (ruamel subclasses int, float, str, bool)."""
    if isinstance(value, bool) or type(value).__name__ == "ScalarBoolean":
        return bool(value)
    if type(value).__name__ == "TaggedScalar":  # !!str, the one tag the guard lets through
        return str(value.value)
    for plain in (int, float, str):
        if isinstance(value, plain):
            return plain(value)
    return value


def _plain(node: Any, path: KeyPath, label: str, locs: dict[KeyPath, _Loc]) -> Any:
    """Plain dicts, lists and scalars from ruamel nodes, recording each key's position."""
    if isinstance(node, CommentedMap):
        out: dict[Any, Any] = {}
        lines = node.lc.data or {}
        for key, value in node.items():
            key = _scalar(key)
            pos = lines.get(key)
            locs[path + (key,)] = (
                _Loc(label, pos[0] + 1, pos[1] + 1) if pos else locs.get(path, _Loc(label))
            )
            out[key] = _plain(value, path + (key,), label, locs)
        return out
    if isinstance(node, CommentedSeq):
        items = []
        lines = node.lc.data or {}
        for i, value in enumerate(node):
            pos = lines.get(i)
            locs[path + (i,)] = (
                _Loc(label, pos[0] + 1, pos[1] + 1) if pos else locs.get(path, _Loc(label))
            )
            items.append(_plain(value, path + (i,), label, locs))
        return items
    return _scalar(node)


def _parse(text: str, label: str) -> tuple[dict[str, Any], dict[KeyPath, _Loc]]:
    """The top-level mapping of a pack and the position of every key in it.

    :func:`._pack_limits.load_yaml` checks every event as the document is built, so the
    work is bounded (size, depth, aliases) and the YAML features the format refuses (tags,
    merge keys) are located errors.
    """
    try:
        node = load_yaml(text)
    except Refused as exc:
        raise _fail(_Loc(label, exc.line, exc.col), "", exc.message) from None
    except YAMLError as exc:
        raise _yaml_error(exc, label, text) from None
    except (ValueError, TypeError, AttributeError, NotImplementedError, RecursionError) as exc:
        # a document the guard passed but ruamel cannot build: never a bare traceback
        raise _fail(_Loc(label, 1, 1), "", f"YAML this loader cannot read "
                    f"({type(exc).__name__}); write plain mappings, lists and values") from None
    if node is None:
        raise _fail(
            _Loc(label, 1, 1),
            "",
            "the pack is empty (expected a mapping of sections: deck, players, …)",
        )
    if not isinstance(node, CommentedMap):
        line, col = (node.lc.line + 1, node.lc.col + 1) if hasattr(node, "lc") else (1, 1)
        raise _fail(
            _Loc(label, line, col),
            "",
            "the top level must be a mapping of sections (deck:, players:, …), got "
            + ("a list" if isinstance(node, list) else _kind(_scalar(node))),
        )
    locs: dict[KeyPath, _Loc] = {(): _Loc(label, 1, 1)}
    data = _plain(node, (), label, locs)
    return data, locs


# --------------------------------------------------------------------------- extends


def _merge(base: _Doc, over: _Doc) -> _Doc:
    """``over`` deep-merged onto ``base``: mappings merge, everything else replaces.

    Key positions follow the values: a replaced subtree forgets the base's positions.
    ``name`` is not inherited, and ``null`` written for an entry of a table (a mapping of
    entries, such as ``cards.values``: :func:`_table_keys`) removes the base's entry.
    """
    locs = {p: loc for p, loc in base.locs.items() if p[:1] != ("name",)}

    tables = _table_keys()

    def merge(b: dict[Any, Any], o: dict[Any, Any], path: KeyPath) -> dict[Any, Any]:
        out = dict(b)
        for key, value in o.items():
            sub = path + (key,)
            if value is None and key in out and path in tables:
                _forget(locs, out.pop(key), sub)  # a table's entry removed
                continue
            if isinstance(value, dict) and isinstance(out.get(key), dict):
                out[key] = merge(out[key], value, sub)
            else:
                if key in out:
                    _forget(locs, out[key], sub)
                out[key] = value
        return out

    base_data = {k: v for k, v in base.data.items() if k != "name"}
    sb, so = base_data.get("scoring"), over.data.get("scoring")
    if (isinstance(sb, dict) and isinstance(so, dict) and "items" in sb and "items" not in so
            and so.get("style", sb.get("style")) != sb.get("style")):
        # a child that changes the style scores by it: the parent's items are its old style's
        _forget(locs, sb["items"], ("scoring", "items"))
        base_data["scoring"] = {k: v for k, v in sb.items() if k != "items"}
    data = merge(base_data, over.data, ())
    locs.update(over.locs)
    return _Doc(data, locs, over.deps + base.deps, over.labels + base.labels)


@cache
def _table_keys() -> frozenset[KeyPath]:
    """The key paths of the schema whose value is a table — a mapping of entries keyed by
    data (a card, a rank, a player count), not a section of named keys — whose entries are
    never null: in a child, ``null`` for one of its entries removes the parent's entry
    (``options``, a plugin's own, is not one).

    >>> ("scoring", "bonus", "by_count") in _table_keys(), ("scoring",) in _table_keys()
    (True, False)
    """
    from typing import get_type_hints

    out: set[KeyPath] = set()

    def walk(cls: type, path: KeyPath) -> None:
        hints = get_type_hints(cls)
        for f in attrs.fields(cls):
            tp = hints[f.name]
            inner = [a for a in get_args(tp) if a is not type(None)] if get_origin(tp) in (
                Union, UnionType) else [tp]
            inner_tp = inner[0] if len(inner) == 1 else tp
            if attrs.has(inner_tp):
                walk(inner_tp, (*path, f.name))
            elif get_origin(inner_tp) is dict and type(None) not in get_args(
                    get_args(inner_tp)[1]) and path + (f.name,) != ("options",):
                out.add((*path, f.name))

    walk(RulePackSpec, ())
    return frozenset(out)


def _forget(locs: dict[KeyPath, _Loc], value: Any, path: KeyPath) -> None:
    """Drop the positions of ``path`` and everything under it (``value`` is what it held):
    work in proportion to the replaced value, not to the whole pack."""
    locs.pop(path, None)
    if isinstance(value, dict):
        for key, item in value.items():
            _forget(locs, item, path + (key,))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            _forget(locs, item, path + (i,))


Roots = tuple[pathlib.Path, ...]
"""The directories ``extends:`` may read files from (resolved): the loaded pack's own
directory, the caller's search roots and the bundled packs' directory."""


def _within(path: pathlib.Path, roots: Roots) -> bool:
    return any(path == root or path.is_relative_to(root) for root in roots)


def _roots(own: str | os.PathLike[str] | None,
           search_roots: Iterable[str | os.PathLike[str]]) -> Roots:
    """The resolved directories a pack's ``extends:`` chain may read."""
    if isinstance(search_roots, (str, os.PathLike)):
        search_roots = [search_roots]
    try:
        search_roots = list(search_roots)
    except TypeError:
        search_roots = [search_roots]
    for d in search_roots:
        if not isinstance(d, (str, os.PathLike)):
            raise _fail(_Loc("<argument>"), "", "search_roots are directories (str or "
                        f"os.PathLike), not {type(d).__name__}")
    dirs = ([own] if own is not None else []) + search_roots + [bundled_pack_dir()]
    return tuple(dict.fromkeys(pathlib.Path(d).resolve() for d in dirs))


def _parent_file(value: str, loc: _Loc, label: str, base_dir: pathlib.Path,
                 roots: Roots) -> tuple[pathlib.Path, str]:
    """The file named by a path in ``extends:``: relative, ending in .yaml/.yml, and
    inside ``roots`` (looked up from the extending file's directory, then from each root).
    Whether a file outside the roots exists is never revealed."""
    if os.path.isabs(value) or value.startswith("~") or pathlib.PurePath(value).drive:
        raise _fail(loc, "extends", f"{_quote(value)}: an absolute path is not allowed (write "
                    "a bundled pack name, or a path relative to this pack's file)")
    if not value.endswith((".yaml", ".yml")):
        raise _fail(loc, "extends", f"{_quote(value)}: a pack file path ends in .yaml or .yml")
    starts = [base_dir] + [r for r in roots if r != base_dir]
    escaped = False  # the path, read from the extending file's directory, leaves the roots
    for start in starts:
        try:
            path = (start / value).resolve()
        except (OSError, RuntimeError, ValueError):
            continue
        if not _within(path, roots):
            escaped = escaped or start == base_dir
            continue
        try:
            found, other = path.is_file(), path.exists()
        except (OSError, ValueError):
            found = other = False
        if other and not found:
            raise _fail(loc, "extends", f"{_quote(value)} is not a regular file")
        if found:
            if start != base_dir:
                return path, os.path.join(str(start), value)
            if label.startswith("<"):
                return path, value
            return path, os.path.normpath(os.path.join(os.path.dirname(label), value))
    if escaped:
        raise _fail(loc, "extends", f"{_quote(value)} is outside the directories extends may read: "
                    "write a bundled pack name, or a path to a file under the directory of the "
                    "pack being loaded (or under a search root the caller names)")
    raise _fail(loc, "extends", f"{_quote(value)}: no such pack file")


def _parent(value: Any, loc: _Loc, label: str, base_dir: pathlib.Path,
            roots: Roots = ()) -> tuple[pathlib.Path, str]:
    """The file and label of the pack named by ``extends: value``."""
    if not isinstance(value, str) or not value:
        raise _fail(
            loc, "extends", f"expected a bundled pack name or a file path, got {_show(value)}"
        )
    if _is_path(value):
        return _parent_file(value, loc, label, base_dir, roots)
    bundled = _bundled_path(value)
    if bundled is None:
        raise _fail(loc, "extends", *_unknown_bundled(value))
    return bundled.resolve(), f"rulepacks/{bundled.name}"  # (not where meldkit is installed)


def _load_doc(
    text: str,
    label: str,
    base_dir: pathlib.Path,
    chain: list[tuple[str, str]],
    deps: list[Stamp],
    roots: Roots = (),
    parsed: tuple[dict[str, Any], dict[KeyPath, _Loc]] | None = None,
) -> _Doc:
    """Parse one pack and, recursively, the packs it extends; ``chain`` holds the
    (identity, label) of the packs already being loaded, to detect cycles; ``roots`` are
    the directories ``extends:`` may read; ``parsed``: ``text`` already parsed."""
    data, locs = _parse(text, label) if parsed is None else parsed
    doc = _Doc(data, locs, deps, [label])
    if data.get("extends") is None:
        return doc
    loc = locs[("extends",)]
    path, parent_label = _parent(data["extends"], loc, label, base_dir, roots)
    identities = [ident for ident, _ in chain]
    if str(path) in identities:
        cycle = [lbl for _, lbl in chain[identities.index(str(path)) :]] + [parent_label]
        raise _fail(loc, "extends", "extends forms a cycle: " + " → ".join(cycle))
    if len(chain) >= MAX_EXTENDS:
        raise _fail(loc, "extends", f"extends chains at most {MAX_EXTENDS} packs deep")
    parent_text, stamp = _read(path, parent_label)
    parsed = (_parent_file_parsed(parent_text, parent_label, data["extends"], loc)
              if _is_path(data["extends"]) else None)
    parent = _load_doc(
        parent_text, parent_label, path.parent, chain + [(str(path), parent_label)], [stamp],
        roots, parsed,
    )
    return _merge(parent, doc)


def _parent_file_parsed(text: str, label: str, value: str, loc: _Loc
                        ) -> tuple[dict[str, Any], dict[KeyPath, _Loc]]:
    """A file ``extends:`` names, parsed, read as a pack only if it is one: it parses, and
    declares the format (``meldkit: 1``).  Otherwise it is refused at the child's
    ``extends:`` line, quoting nothing of the file (a key, a value, a YAML error's line):
    a server's pack upload cannot read other YAML files through the loader's errors."""
    try:
        data, locs = _parse(text, label)
    except RulePackError:
        raise _fail(loc, "extends", f"{_quote(value)} does not parse as a rule pack "
                    f"(meldkit validate {_quote(value)} shows where)") from None
    if "meldkit" not in data:
        raise _fail(loc, "extends", f"{_quote(value)} is not a rule pack: a pack file that "
                    "others extend declares its format (if it is one, add the line "
                    "`meldkit: 1` to it)")
    return data, locs


# --------------------------------------------------------------------------- structuring


def _kind(value: Any) -> str:
    """What sort of YAML value this is, for messages."""
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int):
        return "an integer"
    if isinstance(value, float):
        return "a decimal number"
    if isinstance(value, str):
        return "a string"
    return f"a {type(value).__name__}"


def _show(value: Any) -> str:
    """A value as a message quotes it: ``'15x' (a string)``, ``null``, ``a list``."""
    if value is None:
        return "null"
    if isinstance(value, (list, tuple)):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    text = ("true" if value else "false") if isinstance(value, bool) else repr(value)
    return f"{cut(text)} ({_kind(value)})"  # a message never quotes a long value whole


class _Mismatch(ValueError):
    """Raised by the strict structure hooks: a value that is not what the schema wants.

    ``what`` is the expected kind (``"an integer"``) when the value has the wrong type;
    :meth:`as_key` words the message for a mapping key.
    """

    def __init__(
        self, message: str, suggestion: str | None = None, what: str = "", value: Any = None
    ):
        super().__init__(message)
        self.message = message
        self.suggestion = suggestion
        self.what = what
        self.value = value

    def as_key(self) -> str:
        if not self.what:
            return f"key {self.message}"
        return f"the key must be {self.what}, got {_show(self.value)}{_hint(self.what, self.value)}"


def _hint(what: str, value: Any) -> str:
    """A short fix for the commonest type slips in YAML, or ``""``."""
    if what == "an integer" and isinstance(value, str) and value.strip().lstrip("+-").isdigit():
        return " (remove the quotes)"
    if what == "a string" and isinstance(value, (int, float)):
        text = str(value).lower() if isinstance(value, bool) else str(value)
        return f' (write it in quotes: "{text}")'
    if what == "true or false" and str(value).lower() in {"yes", "no", "on", "off", "y", "n"}:
        return " (YAML 1.2 reads yes/no/on/off as text; write true or false)"
    if value is None:
        return (" (this key cannot be null: leave it out to keep the value it has — its "
                "default, or what the pack this one extends gives it — or give a value)")
    return ""


def _expected(what: str, value: Any) -> _Mismatch:
    return _Mismatch(
        f"expected {what}, got {_show(value)}{_hint(what, value)}", what=what, value=value
    )


def _structure_int(value: Any, _: type) -> int:
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    raise _expected("an integer", value)


def _structure_str(value: Any, _: type) -> str:
    if isinstance(value, str):
        return value
    raise _expected("a string", value)


def _structure_bool(value: Any, _: type) -> bool:
    if isinstance(value, bool):
        return value
    raise _expected("true or false", value)


def _structure_literal(value: Any, type_: Any) -> Any:
    choices = get_args(type_)
    if isinstance(value, str) and value in choices:
        return value
    close = difflib.get_close_matches(str(value), [str(c) for c in choices], n=1)
    shown = _quote(value) if isinstance(value, str) else _show(value)
    raise _Mismatch(
        f"{shown} is not one of {', '.join(map(str, choices))}", close[0] if close else None
    )


def _guarded(
    container: type, what: str, inner: Callable[[Any, Any], Any]
) -> Callable[[Any, Any], Any]:
    """A structure hook that refuses values of the wrong container type before ``inner``
    sees them (cattrs would read the string ``"JK"`` as the list ``["J", "K"]``)."""

    def hook(value: Any, type_: Any) -> Any:
        if not isinstance(value, container):
            raise _expected(what, value)
        return inner(value, type_)

    return hook


def _origin_is(origin: Any) -> Callable[[Any], bool]:
    """A predicate on types: ``list[str]`` has origin ``list``."""

    def predicate(type_: Any) -> bool:
        return get_origin(type_) is origin

    return predicate


def _converter() -> cattrs.Converter:
    """A cattrs converter that is strict about every scalar and container type."""
    conv = cattrs.Converter(forbid_extra_keys=True, detailed_validation=True)
    conv.register_structure_hook(int, _structure_int)
    conv.register_structure_hook(str, _structure_str)
    conv.register_structure_hook(bool, _structure_bool)
    conv.register_structure_hook_func(_origin_is(Literal), _structure_literal)
    conv.register_structure_hook_factory(
        _origin_is(list),
        lambda t: _guarded(list, "a list", list_structure_factory(t, conv)),
    )
    conv.register_structure_hook_factory(
        _origin_is(dict),
        lambda t: _guarded(dict, "a mapping", mapping_structure_factory(t, conv)),
    )
    conv.register_structure_hook_factory(
        attrs.has,
        lambda t: _guarded(
            dict,
            "a mapping",
            make_dict_structure_fn(
                t, conv, _cattrs_forbid_extra_keys=True, _cattrs_detailed_validation=True
            ),
        ),
    )
    return conv


_CONVERTER = _converter()


def _structure_errors(
    exc: BaseException, path: KeyPath
) -> Iterator[tuple[KeyPath, str, str | None]]:
    """(key path, message, suggestion) for every leaf of a cattrs exception group."""
    if isinstance(exc, ForbiddenExtraKeysError):
        known = [a.name for a in attrs.fields(exc.cl)]
        for key in sorted(exc.extra_fields, key=str):
            close = difflib.get_close_matches(str(key), known, n=1)
            message = (
                "unknown key" if close else f"unknown key (expected one of {', '.join(known)})"
            )
            yield path + (key,), message, close[0] if close else None
        return
    if isinstance(exc, BaseExceptionGroup):
        for sub in exc.exceptions:
            step, is_key = _note_step(sub)
            if is_key and isinstance(sub, _Mismatch):
                yield path + step, sub.as_key(), None
            else:
                yield from _structure_errors(sub, path + step)
        return
    if isinstance(exc, _Mismatch):
        yield path, exc.message, exc.suggestion
    else:
        yield path, str(exc), None


def _note_step(exc: BaseException) -> tuple[KeyPath, bool]:
    """The key path step cattrs noted on an exception, and whether it was a mapping key."""
    for note in getattr(exc, "__notes__", ()):
        if isinstance(note, AttributeValidationNote):
            return (note.name,), False
        if isinstance(note, IterableValidationNote):
            return (note.index,), note.startswith("Structuring mapping key")
    return (), False


# --------------------------------------------------------------------------- key paths


def _path_text(path: KeyPath, data: Any) -> str:
    """``books.kinds[0].name``: indices of lists in brackets, mapping keys after dots."""
    text = ""
    for step in path:
        if isinstance(data, list) or (not isinstance(data, dict) and isinstance(step, int)):
            text += f"[{step}]"
        else:
            text += f".{step}" if text else str(step)
        try:
            data = data[step]
        except (KeyError, IndexError, TypeError):
            data = None
    return text


def _locate(doc: _Doc, path: KeyPath) -> _Loc:
    """The position of a key path, or of its nearest ancestor written in a file."""
    for end in range(len(path), -1, -1):
        loc = doc.locs.get(path[:end])
        if loc is not None:
            return loc
    return _Loc(doc.labels[0])


class _Problems:
    """Collects PackProblems for one document, locating each key path."""

    def __init__(self, doc: _Doc):
        self.doc = doc
        self.found: list[PackProblem] = []
        self.file_order = {label: i for i, label in enumerate(doc.labels)}

    def add(
        self,
        path: KeyPath,
        message: str,
        suggestion: str | None = None,
        related: tuple[KeyPath, ...] = (),
    ) -> None:
        """Report a problem at ``path``.  A problem that arises from several settings
        (``related`` paths) is located at whichever of them the most derived pack wrote,
        so that a child pack's change that breaks an inherited setting points at the child.
        """
        written = [loc for p in (path, *related) if (loc := self.doc.locs.get(p)) is not None]
        if written:
            loc = min(written, key=lambda w: self.file_order.get(w.file, len(self.file_order)))
        else:
            loc = _locate(self.doc, path)
        if self.inherited_at_child and len(self.doc.labels) > 1:
            loc, message = self._at_child(loc, path, related, message)
        problem = _problem(loc, _path_text(path, self.doc.data), message, suggestion)
        if problem not in self.found:  # two checks that agree are one problem
            self.found.append(problem)

    inherited_at_child = False
    """Set while the checks for meaning run: a problem with an inherited key is then
    reported at the child's line that caused it, naming the parent's line too."""

    def _at_child(
        self, loc: _Loc, path: KeyPath, related: tuple[KeyPath, ...], message: str
    ) -> tuple[_Loc, str]:
        child = self.doc.labels[0]
        own = self.doc.locs.get(path)
        if own is None:  # written in no file: not the parent's line that holds its section
            message += (f" ({_path_text(path, self.doc.data)} is not written in this pack or "
                        "its parents: it keeps its default)")
        elif own.file != child:
            message += f" ({_path_text(path, self.doc.data)} is inherited from {_where(own)})"
        if loc.file == child:
            return loc, message
        # The nearest key the child wrote on the way to a key involved; else its extends line.
        best: tuple[int, _Loc] | None = None
        for p in (path, *related):
            for end in range(len(p), 0, -1):
                at = self.doc.locs.get(p[:end])
                if at is not None and at.file == child:
                    if best is None or end > best[0]:
                        best = (end, at)
                    break
        cause = best[1] if best else self.doc.locs.get(("extends",), loc)
        return cause, message

    plugin_missing = False

    def raise_if_any(self) -> None:
        if self.found:
            last = len(self.file_order)
            self.found.sort(
                key=lambda p: (self.file_order.get(p.file, last), p.line or 0, p.col or 0)
            )
            raise (PluginError if self.plugin_missing else RulePackError)(self.found)


# --------------------------------------------------------------------------- semantic checks

_SELECTOR_LISTS: tuple[KeyPath, ...] = (
    ("cards", "wild"),
    ("cards", "bonus"),
    ("cards", "dead"),
    ("cards", "unmeldable"),
    ("pile", "freezes_on"),
    ("pile", "blocked_by"),
    ("melds", "no_wild_ranks"),
    ("melds", "going_out_ranks"),
    ("deal", "high_card_order"),
)
_SELECTOR_KEYS: tuple[KeyPath, ...] = (("cards", "values"), ("scoring", "reserve_values"))
_DECK_SIZE = 52


def _optional_key(path: KeyPath) -> bool:
    """Whether a key may be null (its default is)."""
    return dict(pack_leaves())[".".join(path)].default is None


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _written(data: Any, path: KeyPath) -> bool:
    """Whether the merged pack data (the pack and its parents) writes ``path``."""
    for step in path:
        if not isinstance(data, dict) or step not in data:
            return False
        data = data[step]
    return True


def kinds_matching_ok(selector: str) -> bool:
    """Whether ``selector`` names cards at all (bad selectors are reported elsewhere)."""
    try:
        return bool(kinds_matching(selector))
    except (ValueError, TypeError):
        return False


def _inline(value: Any) -> str:
    """A value as YAML writes it inline: ``[]``, ``{}``, ``null``, ``false``, ``side``."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_inline(v) for v in value) + "]" if len(value) <= 4 else "a list"
    if isinstance(value, dict):
        return "{}" if not value else "a mapping"
    if attrs.has(type(value)):
        return "a mapping"
    return _quote(value) if isinstance(value, str) and len(value) > SHOWN_CHARS else str(value)


def _schema_default() -> Any:
    from meldkit._schema import _DEFAULT

    return _DEFAULT


_COUNTERPARTS: dict[tuple[str, str], str] = {
    ("turn.keep_card_to_discard", TABLE): "a table-meld pack says whether a player keeps a "
    "card to discard with going_out.requires_discard",
}
"""Keys of one meld model whose default states a rule the other model writes with a key of
its own: refused there even at the default (``keep_card_to_discard: true`` in a table pack
whose players may meld out), naming the key that model reads."""


def _not_read(engine: str, readers: frozenset[str], inert: Any, say_inert: bool,
              fix: str | None = None) -> str:
    """The sentence refusing a key that ``engine`` does not read (``fix``: what to do, if
    not the default advice)."""
    by = " and ".join(f"{ENGINE_NAMES[e]} ({ENGINE_PACKS[e]})" for e in ENGINES if e in readers)
    why = {CANASTA: "it declares no melds.kinds", TABLE: "it declares melds.kinds",
           HOUSES: "its plugin houses plays the whole game"}[engine]
    if fix is None:
        fix = f"remove it (or write {_inline(inert)})" if say_inert else "remove it"
    return (f"is read only by {by}; this pack is played by {ENGINE_NAMES[engine]} ({why}), "
            f"which would ignore it: {fix}")


class _Checker:
    """The semantic checks on a structured pack; each adds problems, none raises."""

    def __init__(self, spec: RulePackSpec, problems: _Problems, plugin: Any = None,
                 options: Any = None, one_deal: bool = False):
        self.spec = spec
        self.one_deal = one_deal
        """Whether ``spec`` is one deal of a pack's ``schedule`` (checked like a pack, but
        a key the other deals may use is judged on the whole pack)."""
        self.problems = problems
        self.add = problems.add
        self.plugin = plugin
        self.options = options
        self.hooks_failed: set[str] = set()

    def run(self) -> None:
        for check in (
            self.format_version,
            self.lower_bounds,
            self.selectors,
            self.card_categories,
            self.card_values,
            self.deck,
            self.players,
            self.partners,
            self.deal,
            self.deal_arithmetic,
            self.melds_and_books,
            self.sequences,
            self.books_reachable,
            self.initial_meld,
            self.reserve,
            self.by_player_count,
            self.canasta_family,
            self.discard_bans,
            self.by_discard,
            self.stripped_deck,
            self.table_melds,
            self.key_owners,
            self.wild_ranks,
            self.plugin_hooks,
            self.runnable,
            self.plugin_checks,
        ):
            check()

    def engine(self) -> str | None:
        """The engine that plays this pack, as :data:`meldkit._schema.ENGINES` names it;
        None for a plugin's own engine that the key table does not know, or a plugin that
        could not be loaded (reported already)."""
        if self.spec.plugin:
            if self.plugin is None:
                return None
            if self.plugin.engine is not None:
                return HOUSES if self.spec.plugin == HOUSES else None
        return TABLE if self.spec.melds.kinds else CANASTA

    def key_owners(self) -> None:
        """Every key the pack sets (to anything but its inert value) is read by the pack's
        engine (:data:`meldkit._schema.KEY_READERS`), and has what it needs
        (:data:`meldkit._schema.KEY_NEEDS`): a key accepted is never ignored."""
        engine = self.engine()
        if engine is None:
            return
        data = self.problems.doc.data
        for dotted, owners in KEY_READERS.items():
            path = tuple(dotted.split("."))
            if not _written(data, path):
                continue
            value = key_value(self.spec, path)
            if engine in owners.readers:
                need = KEY_NEEDS.get(dotted)
                if need is not None and value != inert_value(dotted):
                    needed = tuple(need[0].split("."))
                    if key_value(self.spec, needed) == inert_value(need[0]):
                        self.add(path, f"{_inline(value)}, but {need[1]}",
                                 related=(needed,))
                continue
            twin = _COUNTERPARTS.get((dotted, engine))
            if value == inert_value(dotted) and twin is None:
                continue
            cause = {TABLE: (("melds", "kinds"),), HOUSES: (("plugin",),)}.get(engine, ())
            if twin is not None:  # written at all, it says what the engine does otherwise
                self.add(path, _not_read(engine, owners.readers, None, False,
                                         fix=f"remove it ({twin})"), related=cause)
                continue
            self.add(path, _not_read(engine, owners.readers, inert_value(dotted),
                                     owners.inert is not _schema_default()), related=cause)

    def wild_ranks(self) -> None:
        """The canasta kernel makes whole ranks wild: a card code in ``cards.wild``
        (``2H``) would make every card of its rank wild, so it is refused."""
        if self.engine() != CANASTA:
            return
        for i, selector in enumerate(self.spec.cards.wild):
            if not kinds_matching_ok(selector) or is_rank(selector):
                continue  # a rank, or not a card selector (reported by the selector checks)
            rank = RANKS[rank_of_kind(min(kinds_matching(selector)))]
            self.add(("cards", "wild", i), f"{_quote(selector)} is a card code, but "
                     f"{ENGINE_NAMES[CANASTA]} ({ENGINE_PACKS[CANASTA]}) makes whole ranks "
                     f"wild: every {rank} would be wild (write {_quote(rank)}; only a pack with "
                     "melds.kinds makes single cards wild)")

    def plugin_hooks(self) -> None:
        """A rule-hook plugin's hooks run in the pack's engine
        (:data:`meldkit.kernel.checks.HOOKS_RUN`), or the plugin is refused."""
        if self.plugin is None or self.plugin.engine is not None:
            return
        from .kernel.checks import check_plugin_hooks

        engine = self.engine()
        if engine is not None:
            check_plugin_hooks(engine, self.plugin, self.add)
        from .kernel.table import hook_problems  # each action's phase is one of the pack's

        for message in hook_problems(self.spec, self.plugin):
            self.add(("plugin",), message)

    def runnable(self) -> None:
        """Upper bounds and cross-key checks, so that a pack that loads can be played:
        see :func:`meldkit._pack_limits.check_runnable`."""

        def deck_size(n: int) -> int | None:
            size = self._deck_size(n)
            return None if size is None else size[0]

        engine = self.plugin is not None and self.plugin.engine is not None
        check_runnable(self.spec, self.add, self._player_counts(), deck_size,
                       own_deck=self._plugin_deck(), engine=engine)

    def _hook(self, hook: str, default: Any, *args: Any) -> Any:
        """Call the plugin's load-time ``hook``; a hook that raises is reported once, as a
        PluginError naming the plugin and the hook, and gives ``default``."""
        try:
            return getattr(self.plugin, hook)(*args)
        except Exception as exc:  # plugin code: never let it escape load_pack raw
            self._hook_failed(hook, f"raised {type(exc).__name__}: {exc}")
            return default

    def _hook_failed(self, hook: str, what: str) -> None:
        if hook in self.hooks_failed:
            return
        self.hooks_failed.add(hook)
        if len(what) > 200:
            what = what[:199] + "…"
        self.add(("plugin",), f"plugin {_quote(self.spec.plugin)}: its {hook} hook {what}")
        self.problems.plugin_missing = True  # raised as a PluginError

    def plugin_checks(self) -> None:
        """The plugin's own checks of its options (each a message, or (key path, message))."""
        if self.plugin is None or (self.plugin.options_class is not None and self.options is None):
            return
        items = self._hook("validate", [], self.spec, self.options)
        try:
            items = list(items)
        except Exception:
            self._hook_failed("validate", f"returned {type(items).__name__}, not a list")
            return
        for item in items:
            if isinstance(item, tuple) and len(item) == 2 and isinstance(item[0], (tuple, list)):
                path, message = item
                self.add(("options", *path), str(message))
            elif isinstance(item, str):
                self.add(("options",), item)
            else:
                self._hook_failed("validate", "returned an item that is neither a message nor "
                                  "a (key path, message) pair")

    # -- one method per area -------------------------------------------------------------

    def format_version(self) -> None:
        if self.spec.meldkit != FORMAT_VERSION:
            self.add(
                ("meldkit",),
                f"format version {self.spec.meldkit} is not supported (this meldkit reads "
                f"version {FORMAT_VERSION})",
            )

    def lower_bounds(self) -> None:
        for path, least in AT_LEAST:
            value = key_value(self.spec, path)
            if value is not None and value < least:
                null = "null or " if _optional_key(path) else ""
                self.add(path, f"expected {null}at least {least}, got {value}")

    def _selector_ok(self, path: KeyPath, selector: str) -> bool:
        try:
            kinds_matching(selector)
        except ValueError as exc:
            self.add(path, str(exc))
            return False
        canonical = canonical_selector(selector)
        if selector != canonical:  # (one spelling a card: no two keys for it, no odd text)
            self.add(path, f"{_quote(selector)} is written {_quote(canonical)} in a pack "
                     f"(it names the ranks {', '.join(RANKS)} and cards such as 10H, in "
                     "capitals; the notation's other spellings are for moves)")
            return False
        return True

    def selectors(self) -> None:
        for path in _SELECTOR_LISTS:
            for i, selector in enumerate(key_value(self.spec, path)):
                self._selector_ok(path + (i,), selector)
        for path in _SELECTOR_KEYS:
            for selector in key_value(self.spec, path):
                self._selector_ok(path + (selector,), selector)
        for i, kind in enumerate(self.spec.books.kinds):
            for j, selector in enumerate(kind.ranks or ()):
                self._selector_ok(("books", "kinds", i, "ranks", j), selector)

    def _kinds(self, selectors: list[str]) -> set[int]:
        """The kinds named by the valid selectors of a list (invalid ones are reported
        by :meth:`selectors`)."""
        kinds: set[int] = set()
        for selector in selectors:
            try:
                kinds |= kinds_matching(selector)
            except ValueError:
                pass
        return kinds

    def card_categories(self) -> None:
        """A card cannot be both wild and bonus, wild and dead, or bonus and dead."""
        cards = self.spec.cards
        for later, earlier in (("bonus", "wild"), ("dead", "wild"), ("dead", "bonus")):
            taken = self._kinds(getattr(cards, earlier))
            for i, selector in enumerate(getattr(cards, later)):
                overlap = self._kinds([selector]) & taken
                if overlap:
                    shown = ", ".join(sorted({card_code(k) for k in overlap}))
                    self.add(
                        ("cards", later, i),
                        f"{_quote(selector)} names {shown}, already listed in cards.{earlier} "
                        f"(a card is {later} or {earlier}, not both)",
                        related=(("cards", earlier),),
                    )

    def _ranks_ok(self) -> bool:
        ranks = self.spec.deck.ranks or []
        return all(isinstance(r, str) and r.upper() in RANKS[:13] for r in ranks) and len(
            {r.upper() for r in ranks}) == len(ranks)

    def _run_gaps(self, kept: set[int]) -> None:
        """``deck.run_gaps: skip`` needs runs that can skip a gap: a run kind (whose ace
        stands low where the deck keeps no ace), or sequences long enough for the kept
        ranks."""
        if self.spec.deck.run_gaps != "skip":
            return
        at = ("deck", "run_gaps")
        melds = self.spec.melds
        if kept == set(range(13)):
            self.add(at, "skip, but deck.ranks keeps every rank: there is no gap to skip",
                     related=(("deck", "ranks"),))
        if melds.kinds:
            runs = [i for i, k in enumerate(melds.kinds) if k.type == "run"]
            if not runs:
                self.add(at, "skip, but the pack has no run kind (melds.kinds): only runs "
                         "have gaps", related=(("melds", "kinds"),))
            for i in runs if 0 not in kept else ():
                if melds.kinds[i].ace != "low":
                    self.add(("melds", "kinds", i, "ace"), f"{melds.kinds[i].ace}, but the "
                             "deck keeps no ace (deck.ranks) and its runs skip the gaps "
                             "(deck.run_gaps): write low", related=(at,))
        elif melds.sequences is None:
            self.add(at, "skip, but the pack has no runs: in a rank-slot pack runs are "
                     "melds.sequences", related=(("melds", "sequences"),))
        else:
            seq = melds.sequences
            held = [r for r in seq.ranks if isinstance(r, str) and r.upper() in RANKS[:13]
                    and rank_index(r) in kept]
            if seq.max_size > len(held):
                self.add(("melds", "sequences", "max_size"), f"{seq.max_size} is more than "
                         f"the {len(held)} ranks of melds.sequences.ranks the deck keeps",
                         related=(("deck", "ranks"), at))

    def stripped_deck(self) -> None:
        """``deck.ranks`` names each kept rank once, and the card keys name cards it has."""
        ranks = self.spec.deck.ranks
        if ranks is None:
            if self.spec.deck.run_gaps == "skip":
                self.add(("deck", "run_gaps"), "skip, but the deck leaves no rank out "
                         "(deck.ranks is null): there is no gap to skip")
            return
        seen: set[str] = set()
        for i, r in enumerate(ranks):
            code = r.upper() if isinstance(r, str) else r
            if code not in RANKS[:13]:
                self.add(("deck", "ranks", i), f"expected a rank (A, 2 … 10, J, Q, K), got "
                         f"{_quote(r)}")
            elif code in seen:
                self.add(("deck", "ranks", i), f"{_quote(r)} is listed twice")
            seen.add(code)
        if len(ranks) < 1:
            self.add(("deck", "ranks"), "expected at least one rank (null: all 13)")
        if not self._ranks_ok() or not ranks:
            return
        self._run_gaps({rank_index(r) for r in ranks})
        kept = set(deck_card_kinds(self.spec.deck)) | {JOKER_KIND}
        cards = self.spec.cards
        for key in ("wild", "bonus", "dead", "unmeldable"):
            for i, selector in enumerate(getattr(cards, key)):
                if kinds_matching_ok(selector) and not kinds_matching(selector) & kept:
                    self.add(("cards", key, i), f"{_quote(selector)} names no card of this deck "
                             f"(deck.ranks leaves it out)", related=(("deck", "ranks"),))

    def card_values(self) -> None:
        """Every card kind in the deck has a value, within :data:`MAX_CARD_VALUE` (so that
        no total of a hand's cards outgrows what a save holds)."""
        for selector, value in self.spec.cards.values.items():
            if isinstance(value, int) and abs(value) > MAX_CARD_VALUE:
                self.add(("cards", "values", selector), f"expected -{MAX_CARD_VALUE} to "
                         f"{MAX_CARD_VALUE} points for a card, got {value}")
        in_deck = set(deck_card_kinds(self.spec.deck) if self._ranks_ok() else range(52))
        if self._deals_jokers():
            in_deck.add(JOKER_KIND)
        missing = in_deck - self._kinds(list(self.spec.cards.values))
        if not missing:
            return
        names = []
        for rank, code in enumerate(RANKS):
            of_rank = sorted(k for k in missing if rank_of_kind(k) == rank)
            whole = len(of_rank) == (1 if code == "JK" else 4)
            names += [code] if whole else [card_code(k) for k in of_rank]
        self.add(
            ("cards", "values"),
            f"no value for {', '.join(names)} (every card in the deck needs a value, "
            "by rank or by card code)",
        )

    def _plugin_deck(self) -> bool:
        """True when the pack's plugin brings its own deck."""
        return self.plugin is not None and self._plugin_deck_size(
            self.spec.players.max) is not None

    def _plugin_deck_size(self, players: int) -> int | None:
        """The plugin's ``deck_size`` hook, checked: a whole number of cards, or None."""
        size = self._hook("deck_size", None, self.spec, self.options, players)
        if size is None or (isinstance(size, int) and not isinstance(size, bool) and size >= 0):
            return size
        self._hook_failed("deck_size", f"returned {_show(size)}, not a number of cards or None")
        return None

    def deck(self) -> None:
        deck = self.spec.deck
        if self._plugin_deck():
            return
        if deck.decks is None and deck.decks_per_player is None:
            self.add(("deck",), "expected the number of decks: set decks or decks_per_player")
        elif deck.decks is not None and deck.decks_per_player is not None:
            self.add(
                ("deck", "decks_per_player"),
                "set decks or decks_per_player, not both (set the other to null)",
            )
        for field in ("decks", "decks_per_player"):
            value = getattr(deck, field)
            if value is not None and value < 1:
                self.add(("deck", field), f"expected a positive number of decks, got {value}")
        self._jokers_per_deck_read()

    def _jokers_per_deck_read(self) -> None:
        """``deck.jokers`` (or ``jokers_by_players`` for every player count) counts the
        whole pack's jokers in place of ``jokers_per_deck``: a pack that writes
        ``jokers_per_deck`` beside it, or below a parent's, is refused, as ``decks`` beside
        ``decks_per_player`` is.  A child that sets ``jokers`` over a parent's
        ``jokers_per_deck`` replaces it, as the key's reference says."""
        deck = self.spec.deck
        per_deck = ("deck", "jokers_per_deck")
        if not _written(self.problems.doc.data, per_deck):
            return
        by_players = deck.jokers_by_players or {}
        if deck.jokers is not None:
            whole, said = ("deck", "jokers"), f"jokers ({deck.jokers}) counts"
            undo = "set jokers to null to count jokers per deck"
        elif self._player_counts() and all(n in by_players for n in self._player_counts()):
            whole, said = ("deck", "jokers_by_players"), (
                "jokers_by_players gives every player count its jokers, counting")
            undo = "leave out of jokers_by_players the player counts to count per deck"
        else:
            return
        locs, order = self.problems.doc.locs, self.problems.file_order
        mine, theirs = locs.get(per_deck), locs.get(whole)
        if mine is not None and theirs is not None and (
                order.get(mine.file, 0) > order.get(theirs.file, 0)):
            return  # a child's jokers replaces the jokers_per_deck it inherits
        self.add(per_deck, f"set jokers or jokers_per_deck, not both: {said} the jokers of "
                 "the whole pack in place of jokers_per_deck, which would change nothing "
                 f"(remove jokers_per_deck, or {undo})",
                 related=(whole,))

    def players(self) -> None:
        players = self.spec.players
        if players.min > players.max:
            self.add(("players", "max"), f"max ({players.max}) is below min ({players.min})",
                     related=(("players", "min"),))

    def table_melds(self) -> None:
        """The table-meld keys (sets and runs, knocking, scoring styles): see
        :mod:`meldkit.kernel.checks`."""
        from .kernel.checks import check_table_pack

        def deck_size(n: int) -> int | None:
            size = self._deck_size(n)
            return None if size is None else size[0]

        check_table_pack(self.spec, self.add, self._player_counts(), deck_size,
                         one_deal=self.one_deal)

    def _player_counts(self) -> range:
        players = self.spec.players
        return range(max(players.min, 1), min(players.max, MAX_PLAYERS) + 1)

    def partners(self) -> None:
        """With partners, the sides must be defined and some player counts must form them."""
        players = self.spec.players
        if players.partners == "never":
            return
        teams, team_size = players.teams, players.team_size
        if teams is not None and team_size is None:
            field, size, described = "teams", teams, _plural(teams, "team")
        elif team_size is not None and teams is None:
            field, size, described = "team_size", team_size, f"teams of {team_size}"
        else:
            self.add(
                ("players",) if teams is None else ("players", "team_size"),
                f"with partners: {players.partners}, set exactly one of teams or team_size",
            )
            return
        if size < 2:
            self.add(("players", field), f"expected at least 2, got {size}")
            return

        def seats(count: int) -> bool:
            if field == "teams":
                return count >= size
            return count % size == 0 and count >= 2 * size

        counts = self._player_counts()
        if players.partners == "optional":
            counts = range(max(counts.start, players.min_for_partners), counts.stop)
        good = [c for c in counts if seats(c)]
        bad = [c for c in counts if not seats(c)]
        if not good and counts:
            self.add(
                ("players", field),
                f"no player count from {counts.start} to {counts.stop - 1} can form {described}",
            )
        elif players.partners == "always" and bad:
            self.add(
                ("players", field),
                f"with partners: always, {', '.join(map(str, bad))} players cannot form "
                f"{described} (counts that can: {', '.join(map(str, good))})",
            )

    def deal(self) -> None:
        deal = self.spec.deal
        for i, part in enumerate(deal.order):
            if part in deal.order[:i]:
                self.add(("deal", "order", i), f"{_quote(part)} is listed twice")
        if "hand" not in deal.order:
            self.add(("deal", "order"), "expected 'hand' in the deal order")
        if deal.reserve > 0 and "reserve" not in deal.order:
            self.add(
                ("deal", "order"),
                f"expected 'reserve' in the deal order (deal.reserve is {deal.reserve})",
            )
        for key in ("first_player", "next_hand_first"):
            if getattr(deal, key) == "high_card" and not deal.high_card_order:
                self.add(  # (no rank to draw: the draw for the first seat would never end)
                    ("deal", "high_card_order"),
                    f"{key}: high_card needs at least one rank in high_card_order",
                    related=(("deal", key),))

    def _deck_size(self, players: int) -> tuple[int, str] | None:
        """The cards in the deck for a player count, and how that number comes about;
        None when the deck is ill-defined (reported by :meth:`deck`)."""
        if self.plugin is not None:
            size = self._plugin_deck_size(players)
            if size is not None:
                return size, f"{size} (the {self.spec.plugin} plugin's deck)"
        deck = self.spec.deck
        if deck.ranks and not self._ranks_ok():
            return None
        per = len(deck_card_kinds(deck))  # 52, or fewer in a stripped deck
        jokers = (deck.jokers_by_players or {}).get(players, deck.jokers)
        if jokers is not None:  # jokers for the whole pack
            decks = (deck.decks_by_players or {}).get(players)
            if decks is None:
                decks = (deck.decks if deck.decks is not None
                         else (deck.decks_per_player or 0) * players)
            if decks < 1 or jokers < 0:
                return None
            size = decks * per + jokers
            return size, (f"{size} ({_plural(decks, 'deck')} × {per} + "
                          f"{_plural(jokers, 'joker')})")
        per_deck = per + max(deck.jokers_per_deck, 0)
        by_count = deck.decks_by_players.get(players)
        if by_count is not None and by_count >= 1:
            size = by_count * per_deck
            return size, f"{size} ({_plural(by_count, 'deck')} for {players} players × {per_deck})"
        if deck.decks is not None and deck.decks_per_player is None:
            size = deck.decks * per_deck
            return size, f"{size} ({_plural(deck.decks, 'deck')} × {per_deck})"
        if deck.decks_per_player is not None and deck.decks is None:
            size = deck.decks_per_player * players * per_deck
            return size, (
                f"{size} ({_plural(deck.decks_per_player, 'deck')} per player × "
                f"{_plural(players, 'player')} × {per_deck})"
            )
        return None

    def deal_arithmetic(self) -> None:
        """Every player count from min to max can be dealt from the deck."""
        deal = self.spec.deal
        upcard = 1 if deal.upcard else 0
        turned = 1 if getattr(self.spec.cards, "turned_wild", "none") != "none" else 0
        failing = []
        for count in self._player_counts():
            deck = self._deck_size(count)
            if deck is None:
                continue  # (an ill-defined deck at this count is reported by deck())
            hand = deal.hand_by_players.get(count, deal.hand)
            each = (f"{hand} hand" if not deal.reserve
                    else f"({hand} hand + {deal.reserve} reserve)")
            needed = count * (hand + deal.reserve) + upcard + turned
            if needed > deck[0]:
                plus = (" + 1 upcard" if upcard else "") + (" + 1 card turned for the wild "
                                                             "rank" if turned else "")
                text = f"{_plural(count, 'player')} × {each}{plus} = {needed} cards, "
                failing.append((count, text + f"but the deck has {deck[1]}"))
        if failing:
            count, text = failing[-1]
            others = [str(c) for c, _ in failing[:-1]]
            if others:
                text += f" (too few also for {', '.join(others)} players)"
            self.add(("deal",), text, related=(("deck",), ("players",)))

    def sequences(self) -> None:
        """``melds.sequences`` (Samba) and the book kinds marked ``sequence``."""
        spec = self.spec
        seq = spec.melds.sequences
        for i, kind in enumerate(spec.books.kinds):
            if not kind.sequence:
                continue
            path = ("books", "kinds", i, "sequence")
            if spec.melds.kinds:  # a table pack: its runs are the sequences, wild or not
                if not any(k.type == "run" for k in spec.melds.kinds):
                    self.add(path, "true, but no meld kind is a run: no run could become "
                             "this book", related=(("melds", "kinds"),))
                if kind.ranks is not None:
                    self.add(("books", "kinds", i, "ranks"), "applies to books of a rank; a "
                             "sequence book is a run, which has no single rank, so ranks is "
                             "never read: remove it", related=(path,))
                continue
            if seq is None:
                self.add(path, "true, but the pack has no melds.sequences: no sequence could "
                         "become this book", related=(("melds",),))
            for key in ("ranks", "max_wilds"):
                if getattr(kind, key) is not None:
                    self.add(("books", "kinds", i, key), "applies to books of a rank; a "
                             "sequence book has no wild card and no single rank",
                             related=(path,))
            if kind.wild_only or kind.min_wilds:
                self.add(path, "a sequence book cannot also be wild_only or need wild cards",
                         related=(("books", "kinds", i),))
        if seq is None:
            return
        base = ("melds", "sequences")
        if spec.melds.kinds:
            self.add(base, "suited sequences in a canasta pack do not mix with melds.kinds; a "
                     "table-meld pack declares a run kind instead", related=(("melds", "kinds"),))
        wild = {rank_of_kind(k) for k in self._kinds(spec.cards.wild)}
        unmeldable = {rank_of_kind(k) for k in self._kinds(spec.cards.unmeldable)}
        seen: dict[int, int] = {}
        for i, code in enumerate(seq.ranks):
            try:
                r = rank_index(code)
            except ValueError as exc:
                self.add((*base, "ranks", i), str(exc))
                continue
            if r == JOKER_RANK or r in wild or r in unmeldable:
                what = "a joker" if r == JOKER_RANK else ("wild" if r in wild else "unmeldable")
                self.add((*base, "ranks", i), f"{_quote(code)} is {what}: sequences hold natural "
                         "cards only", related=(("cards",),))
            if r in seen:
                self.add((*base, "ranks", i), f"{_quote(code)} is already ranks[{seen[r]}]")
            seen.setdefault(r, i)
        if not 2 <= seq.min_size <= seq.max_size:
            self.add((*base, "min_size"), f"expected 2 to max_size ({seq.max_size}), got "
                     f"{seq.min_size}", related=((*base, "max_size"),))
        if seq.max_size > len(seq.ranks):
            self.add((*base, "max_size"), f"{seq.max_size} is more than the {len(seq.ranks)} "
                     "ranks a sequence may hold", related=((*base, "ranks"),))

    def books_reachable(self) -> None:
        """Every book kind can be reached: some meld can grow to ``books.size`` cards of its
        shape (a sequence within ``melds.sequences.max_size``, or a table pack's run or set
        within its kind's ``max_size``; cards of wild cards only with ``melds.wild_melds``);
        and ``going_out.required_books`` names no kind that cannot be."""
        spec = self.spec
        size = spec.books.size
        table = bool(spec.melds.kinds)
        seq = spec.melds.sequences
        unreachable: dict[int, tuple[str, tuple[KeyPath, ...]]] = {}
        for i, kind in enumerate(spec.books.kinds):
            at = ("books", "kinds", i)
            blocked = None
            never = self._never_natural(kind)
            if never is not None:
                blocked = (never, f"is a book of natural {'/'.join(kind.ranks)}",
                           "remove the kind, or name a rank that can be melded")
            short = self._too_few_wilds(kind) if never is None else None
            if short is not None:
                blocked = (short, f"needs at least {kind.min_wilds} wild card"
                           f"{'s' if kind.min_wilds != 1 else ''} (min_wilds)",
                           "lower min_wilds, or remove the kind")
            if blocked is not None:
                (why, related), what, fix = blocked
                unreachable[i] = (why, related)
                self.add(at, f"{_quote(kind.name)} {what}, but {why}: no meld could ever "
                         f"become this book ({fix})", related=related)
                continue
            if table:
                shape = "run" if kind.sequence else "set"
                if kind.wild_only or not any(k.type == shape for k in spec.melds.kinds):
                    continue  # (no run kind for a sequence book: sequences() says so)
                shapes = [k for k in spec.melds.kinds if k.type == shape]
                suits = any(k.distinct_suits for k in shapes)  # a set of four suits at most
                most = [min(k.max_size or 10**9, 4 if k.distinct_suits else 10**9)
                        for k in shapes]
                if max(most) >= size:
                    continue
                why = (f"every {shape} kind of melds.kinds holds at most {max(most)} cards "
                       f"({'max_size, or four with distinct_suits' if suits else 'max_size'}),"
                       f" fewer than books.size ({size})")
                fix = (f"raise a {shape} kind's max_size to {size}"
                       + (" without distinct_suits" if suits else ""))
                related: tuple[KeyPath, ...] = (("melds", "kinds"), ("books", "size"))
            elif kind.sequence:
                if seq is None:
                    unreachable[i] = ("the pack has no melds.sequences", ((*at, "sequence"),))
                    continue  # sequences() reports the kind
                if seq.max_size >= size:
                    continue
                why = (f"melds.sequences.max_size ({seq.max_size}) stops a sequence at "
                       f"{seq.max_size} cards, fewer than books.size ({size})")
                fix = f"raise melds.sequences.max_size to {size}"
                related = (("melds", "sequences", "max_size"), ("books", "size"))
            elif kind.wild_only:
                if spec.melds.wild_melds:
                    continue
                why = "melds.wild_melds is false, so no meld is made of wild cards only"
                fix = "set melds.wild_melds: true"
                related = (("melds", "wild_melds"),)
            else:
                continue
            what = "a sequence book" if kind.sequence else (
                "a book of wild cards only" if kind.wild_only else f"a book of a {shape}")
            unreachable[i] = (why, related)
            self.add(at, f"{_quote(kind.name)} is {what}, but {why}: no meld could ever become "
                     f"this book ({fix}, or remove the kind)", related=related)
        for j, kind in enumerate(spec.books.kinds):
            h = next((h for h in range(j) if _book_kind_covers(spec.books.kinds[h], kind)),
                     None)
            if j in unreachable or h is None:
                continue
            earlier = spec.books.kinds[h]
            why = (f"books.kinds[{h}], {_quote(earlier.name)}, comes before it and matches "
                   f"{_book_kind_takes(earlier)}, and a book is of the first kind it matches")
            unreachable[j] = (why, (("books", "kinds", h),))
            self.add(("books", "kinds", j), f"{_quote(kind.name)} is a book kind, but {why}: "
                     "no meld could ever become this book (list it before "
                     f"{_quote(earlier.name)}, or remove the kind)",
                     related=(("books", "kinds", h),))
        first = {}
        for i, kind in enumerate(spec.books.kinds):
            first.setdefault(kind.name, i)
        for j, name in enumerate(spec.going_out.required_books):
            i = first.get(name)
            if i is None or i not in unreachable:
                continue
            why, related = unreachable[i]
            self.add(("going_out", "required_books", j),
                     f"{_quote(name)} is a book kind no meld could ever become ({why}), so no "
                     "side could ever go out", related=(("books", "kinds", i), *related))

    def _deals_jokers(self) -> bool:
        """Whether the deck holds jokers at some player count (``deck.jokers``, or
        ``jokers_per_deck``, or ``jokers_by_players``)."""
        deck = self.spec.deck
        return (deck.jokers_per_deck > 0 if deck.jokers is None else deck.jokers > 0) or any(
            n > 0 for n in (deck.jokers_by_players or {}).values())

    def _too_few_wilds(self, kind: Any) -> tuple[str, tuple[KeyPath, ...]] | None:
        """Why no meld could hold a book kind's ``min_wilds`` wild cards, and the keys that
        say so; None where one could (or the kind asks for none)."""
        need = kind.min_wilds
        if need <= 0 or kind.wild_only or kind.sequence:
            return None  # (a sequence book's wild cards: the sequence checks)
        spec = self.spec
        if kind.max_wilds is not None and kind.max_wilds < need:
            return None  # (a kind's own bounds crossed: reported at its max_wilds)
        if not spec.cards.wild and spec.cards.turned_wild == "none":
            return "the pack has no wild cards (cards.wild)", (("cards", "wild"),)
        if spec.melds.kinds:
            shapes = [k for k in spec.melds.kinds if k.type == "set"]
            most = max((k.max_wilds for k in shapes), default=need)
            if most < need:
                return (f"a set of melds.kinds holds at most {most} wild "
                        f"card{'s' if most != 1 else ''} (max_wilds)", (("melds", "kinds"),))
            return None
        barred = {str(r).strip().upper() for r in spec.melds.no_wild_ranks}
        if kind.ranks and all(str(r).strip().upper() in barred for r in kind.ranks):
            return (f"melds.no_wild_ranks bars wild cards from melds of "
                    f"{'/'.join(kind.ranks)}", (("melds", "no_wild_ranks"),))
        if spec.melds.max_wilds < need:
            return (f"a meld holds at most {spec.melds.max_wilds} wild "
                    f"card{'s' if spec.melds.max_wilds != 1 else ''} (melds.max_wilds)",
                    (("melds", "max_wilds"),))
        return None

    def _never_natural(self, kind: Any) -> tuple[str, tuple[KeyPath, ...]] | None:
        """Why no natural card of any of a book kind's ``ranks`` can ever be melded, and the
        keys that say so; None where one can (or the kind names no ranks)."""
        if not kind.ranks or kind.sequence or kind.wild_only or not self._ranks_ok():
            return None
        spec = self.spec
        table = bool(spec.melds.kinds)
        dealt = {rank_of_kind(k) for k in deck_card_kinds(spec.deck)}
        jokers = self._deals_jokers()

        def rank_of(selector: Any) -> int | None:  # a rank's number; None: a card code
            text = str(selector).strip()
            if not is_rank(text) or not kinds_matching_ok(text):
                return None
            return rank_of_kind(min(kinds_matching(text)))

        wild = {rank_of(w) for w in spec.cards.wild} - {None}
        unmeldable = set() if table else {rank_of(u) for u in spec.cards.unmeldable} - {None}
        reasons: list[str] = []
        related: list[KeyPath] = []
        for rank in kind.ranks:
            r = rank_of(rank)
            if r is None:
                return None  # (a bad rank: the selector checks report it)
            name = RANKS[r]
            if r == JOKER_RANK:
                if not jokers:
                    reasons.append("the deck has no jokers")
                    related.append(("deck",))
                elif table or r in wild:
                    reasons.append("a joker melds only as a wild card" if table else
                                   "jokers are wild (cards.wild), never natural")
                    related.append(("cards", "wild"))
                else:
                    return None
            elif r not in dealt:
                reasons.append(f"the deck leaves out the {name}s (deck.ranks)")
                related.append(("deck", "ranks"))
            elif not table and r in wild:
                reasons.append(f"{name}s are wild (cards.wild), never natural")
                related.append(("cards", "wild"))
            elif r in unmeldable:
                reasons.append(f"{name}s are never melded (cards.unmeldable)")
                related.append(("cards", "unmeldable"))
            else:
                return None
        return "; ".join(dict.fromkeys(reasons)), tuple(dict.fromkeys(related))

    def _wild_only_bounds(self, i: int, kind: Any) -> None:
        """A ``wild_only`` book kind takes every book of wild cards only, whatever its
        size: its ``ranks``, ``min_wilds`` and ``max_wilds``, which bound natural ranks and
        the wild cards among naturals, are never read, so they are refused."""
        at = ("books", "kinds", i)
        wild = ("every card of a book of wild cards only is wild, and such a book is of this "
                "kind whatever its size")
        for key, unset, why in (("ranks", None, "a book of wild cards only has no natural rank"),
                                ("min_wilds", 0, wild), ("max_wilds", None, wild)):
            value = getattr(kind, key)
            if value != unset:
                self.add((*at, key), f"{_inline(value)}, but the kind is wild_only: {why}, so "
                         f"{key} is never read: remove it", related=((*at, "wild_only"),))

    def melds_and_books(self) -> None:
        melds, books = self.spec.melds, self.spec.books
        if melds.min_naturals > melds.min_size:
            self.add(
                ("melds", "min_naturals"),
                f"{melds.min_naturals} is more than melds.min_size ({melds.min_size})",
                related=(("melds", "min_size"),),
            )
        if books.size < melds.min_size:
            self.add(
                ("books", "size"),
                f"{books.size} is smaller than melds.min_size ({melds.min_size})",
                related=(("melds", "min_size"),),
            )
        # a book closes where its kind says adds: none, or where a kind that says nothing
        # (or a pack without kinds) follows books.close_at_size
        closes = any(k.adds == "none" for k in books.kinds) or books.close_at_size and (
            not books.kinds or any(k.adds is None for k in books.kinds))
        if not books.reopen and not self.spec.melds.kinds and not closes:
            self.add(("books", "reopen"), "false, but no book ever closes here (books."
                     "close_at_size is false, or every kind's adds lets its books grow, and no "
                     "kind says adds: none): a side's book of a rank keeps taking its cards, "
                     "so there is never a second meld of it to forbid: remove it",
                     related=(("books", "close_at_size"),))
        first_index: dict[str, int] = {}
        for i, kind in enumerate(books.kinds):
            if kind.name in first_index:
                self.add(
                    ("books", "kinds", i, "name"),
                    f"{_quote(kind.name)} is already the name of "
                    f"books.kinds[{first_index[kind.name]}]",
                )
            first_index.setdefault(kind.name, i)
            names = [k.name for k in books.kinds]
            if kind.counts_as is not None and (kind.counts_as == kind.name
                                               or kind.counts_as not in names):
                self.add(("books", "kinds", i, "counts_as"),
                         f"{_quote(kind.counts_as)} is not another book kind (books.kinds: "
                         f"{', '.join(names)})")
            elif kind.counts_as is not None and kind.counts_as not in (
                    self.spec.going_out.required_books):
                self.add(("books", "kinds", i, "counts_as"),
                         f"{_quote(kind.counts_as)}, but going_out.required_books does not name "
                         f"{_quote(kind.counts_as)}: it would change nothing",
                         related=(("going_out", "required_books"),))
            if kind.adds is not None and kind.sequence and not self.spec.melds.kinds:
                self.add(("books", "kinds", i, "adds"), f"{kind.adds}, but a sequence takes "
                         "cards until melds.sequences.max_size, then no more: remove it",
                         related=(("books", "kinds", i, "sequence"),))
            if kind.adds in ("naturals", "wilds") and kind.wild_only:
                self.add(("books", "kinds", i, "adds"), f"{kind.adds}, but a book of wild "
                         "cards only takes no natural card: write wilds or none"
                         if kind.adds == "naturals" else f"{kind.adds}: a book of wild cards "
                         "only takes nothing else anyway (write any)")
            if kind.wild_only and not kind.sequence:  # (a wild_only sequence: sequences())
                self._wild_only_bounds(i, kind)
            if kind.min_wilds < 0:
                self.add(
                    ("books", "kinds", i, "min_wilds"), f"expected at least 0, got {kind.min_wilds}"
                )
            if kind.max_wilds is not None and kind.max_wilds < kind.min_wilds:
                self.add(
                    ("books", "kinds", i, "max_wilds"),
                    f"{kind.max_wilds} is below min_wilds ({kind.min_wilds})",
                )
        names = list(first_index)
        for i, name in enumerate(self.spec.going_out.required_books):
            if name not in first_index:
                close = difflib.get_close_matches(name, names, n=1)
                self.add(
                    ("going_out", "required_books", i),
                    f"{_quote(name)} is not a book kind "
                    f"(books.kinds: {', '.join(names) or 'none'})",
                    close[0] if close else None,
                    related=(("books", "kinds"),),
                )

    def initial_meld(self) -> None:
        """Tiers: ``below`` increases, and only the last tier, which must exist, is open."""
        self._tiers(self.spec.initial_meld.minimums, ("initial_meld", "minimums"))

    def _tiers(self, tiers: list, where: KeyPath) -> None:
        previous: int | None = None
        for i, tier in enumerate(tiers):
            path = (*where, i, "below")
            last = i == len(tiers) - 1
            if tier.below is None and not last:
                self.add(
                    path, "only the last tier may have below: null (later tiers could never apply)"
                )
            elif tier.below is not None and last:
                self.add(
                    path,
                    f"the last tier must have below: null so that every score has a minimum, "
                    f"got {tier.below}",
                )
            if tier.below is not None and previous is not None and tier.below <= previous:
                self.add(path, f"{tier.below} is not above the previous tier's {previous}")
            if tier.below is not None:
                previous = tier.below
            if tier.minimum < 0:
                self.add((*where, i, "minimum"), f"expected at least 0, got {tier.minimum}")

    def reserve(self) -> None:
        """Reserve settings are contradictions when no reserve piles are dealt; a reserve
        required to go out must be one that can be picked up."""
        r = self.spec.reserve
        if self.spec.deal.reserve != 0:
            if self.engine() != CANASTA:
                return  # (the reserve keys are the rank-slot model's: refused as unread)
            if (self.spec.going_out.requires_reserve and r.pickup_on_book == "never"
                    and r.pickup_at_turn_start == "never" and not r.pickup_on_empty_hand):
                self.add(("going_out", "requires_reserve"),
                         f"true, but the {self.spec.deal.reserve_name} can never be picked up "
                         "(reserve.pickup_on_book and pickup_at_turn_start are never, "
                         "pickup_on_empty_hand is false), so nobody could ever go out",
                         related=(("reserve", "pickup_on_empty_hand"),
                                  ("reserve", "pickup_on_book"),
                                  ("reserve", "pickup_at_turn_start")))
            return
        for path, value, idle in (
            (("reserve", "pickup_on_book"), self.spec.reserve.pickup_on_book, "never"),
            (("reserve", "pickup_at_turn_start"), self.spec.reserve.pickup_at_turn_start, "never"),
            (("reserve", "pickup_on_empty_hand"), self.spec.reserve.pickup_on_empty_hand, False),
            (("going_out", "requires_reserve"), self.spec.going_out.requires_reserve, False),
            (("reserve", "bonus_replaced"), r.bonus_replaced, False),
            (("scoring", "reserve_penalty"), self.spec.scoring.reserve_penalty, "all"),
            (("scoring", "reserve_values"), self.spec.scoring.reserve_values, {}),
        ):
            if value != idle:
                shown = value if isinstance(value, str) else _inline(value)
                self.add(
                    path,
                    f"{shown} but deal.reserve is 0 (no reserve piles are dealt)",
                    related=(("deal", "reserve"),),
                )

    def by_player_count(self) -> None:
        """The ``*_by_players`` tables and ``players.counts`` name playable counts and
        sensible values."""
        spec = self.spec
        counts = self._player_counts()
        allowed = set(spec.players.counts) or set(counts)
        for i, n in enumerate(spec.players.counts):
            if n not in counts:
                self.add(("players", "counts", i), f"{n} is outside players.min..max "
                         f"({counts.start}..{counts.stop - 1})", related=(("players",),))
        listed = sorted(set(spec.players.counts) & set(counts))
        for field in ("min", "max") if listed else ():
            n = getattr(spec.players, field)
            if n not in listed:
                best = listed[0] if field == "min" else listed[-1]
                self.add(("players", field), f"{n}, but players.counts allows only "
                         f"{', '.join(map(str, listed))} players: a game of {n} could not be "
                         f"dealt (write {field}: {best})", related=(("players", "counts"),))
        tables = (
            (("deck", "decks_by_players"), spec.deck.decks_by_players, 1, "decks"),
            (("deck", "jokers_by_players"), spec.deck.jokers_by_players, 0, "jokers"),
            (("deal", "hand_by_players"), spec.deal.hand_by_players, 1, "cards"),
            (("turn", "draw_by_players"), spec.turn.draw_by_players, 1, "cards"),
            (("going_out", "min_books_by_players"), spec.going_out.min_books_by_players, 0,
             "books"),
            (("game", "target_by_players"), spec.game.target_by_players, 1, "points"),
        )
        for path, table, least, what in tables:
            for n, value in table.items():
                if n not in allowed:
                    self.add((*path, n), f"{n} players is not a player count of this pack "
                             f"({', '.join(map(str, sorted(allowed)))})", related=(("players",),))
                if value < least:
                    self.add((*path, n), f"{value} {what} for {n} players: expected at least "
                             f"{least}")
        for n, tiers in spec.initial_meld.minimums_by_players.items():
            path = ("initial_meld", "minimums_by_players", n)
            if n not in allowed:
                self.add(path, f"{n} players is not a player count of this pack "
                         f"({', '.join(map(str, sorted(allowed)))})", related=(("players",),))
            self._tiers(tiers, path)
        for n in spec.scoring.bonus.by_count:
            if n < 1:
                self.add(("scoring", "bonus", "by_count", n), f"expected a count of at least 1 "
                         f"bonus card, got {n}")
        pb = spec.players.partners_by_players
        if pb and spec.players.partners != "optional":
            self.add(("players", "partners_by_players"), f"applies only with partners: "
                     f"optional (partners is {spec.players.partners})",
                     related=(("players", "partners"),))
        for n in pb:
            if n not in allowed:
                self.add(("players", "partners_by_players", n), f"{n} players is not a player "
                         f"count of this pack ({', '.join(map(str, sorted(allowed)))})")
            elif pb[n] and n < spec.players.min_for_partners:
                self.add(("players", "partners_by_players", n), f"partnerships need at least "
                         f"{spec.players.min_for_partners} players (players.min_for_partners)",
                         related=(("players", "min_for_partners"),))

    def canasta_family(self) -> None:
        """Keys of the canasta family (Classic Canasta, Hand and Foot) that contradict each
        other or could never apply."""
        spec = self.spec
        if spec.deal.reserve_per == "side" and self.engine() == CANASTA:
            self.add(("deal", "reserve_per"), "side, but a rank-slot pack deals each player "
                     "their own reserve: write player (reserves per side are table-meld packs')")
        pl = spec.players
        if pl.sides_form != "seated" and self.engine() == CANASTA:
            counts = [n for n in (pl.counts or self._player_counts()) if n >= 3]
            if pl.partners != "never":
                self.add(("players", "sides_form"), f"{pl.sides_form}, but players.partners "
                         f"is {pl.partners}: sides form from players who each play alone at "
                         "the deal (write partners: never)", related=(("players", "partners"),))
            elif not counts:
                self.add(("players", "sides_form"), f"{pl.sides_form}, but the pack is for two "
                         "players, where the one who takes the pile already plays alone "
                         "against the other: it would change nothing", related=(("players",),))
        if (spec.scoring.items or spec.scoring.sheets or spec.game.sheets_end != "every") \
                and self.engine() == CANASTA:  # (a table pack's: table_melds)
            from .kernel.checks import check_items

            locs, order = self.problems.doc.locs, self.problems.file_order
            check_items(spec, self.add, lambda path: (
                order.get(locs[path].file) if path in locs else None))
        if spec.stock.when_empty not in ("end_hand", "end_at_once") and \
                spec.game.hand_turn_limit is None:
            # a stock renewed from the pile may go on for ever unless the hand is bounded
            draws = [spec.turn.draw or 2, *spec.turn.draw_by_players.values()]
            if self.engine() != CANASTA:
                self.add(("stock", "when_empty"), f"{spec.stock.when_empty}, but "
                         "game.hand_turn_limit is null: a stock renewed from the pile may "
                         "last for ever (players drawing and discarding and nobody going "
                         "out) — set a turn limit, after which the hand ends void",
                         related=(("game", "hand_turn_limit"),))
            elif min(draws) < 2:
                self.add(("stock", "when_empty"), f"{spec.stock.when_empty}, but a turn "
                         f"draws {min(draws)} card{'s' if min(draws) != 1 else ''} and "
                         "game.hand_turn_limit is null: a rank-slot pack renews its stock "
                         "from the pile only where a hand is sure to end — every turn "
                         "drawing at least 2 cards, so that the stock and pile shrink, or a "
                         "turn limit", related=(("turn", "draw"), ("game", "hand_turn_limit")))
        im, pile, game = spec.initial_meld, spec.pile, spec.game
        if "free" in pile.take_with and self.engine() == CANASTA:
            if "onto_meld" in pile.take_with:
                self.add(("pile", "take_with"), "free and onto_meld are both 'take' with no "
                         "cards, and a free take already lets the top card go onto a meld: "
                         "keep one")
            if game.hand_turn_limit is None:
                self.add(("pile", "take_with"), "free, but game.hand_turn_limit is null: a "
                         "pile taken freely may pass from hand to hand and the hand never "
                         "end — set a limit", related=(("game", "hand_turn_limit"),))
        if im.by_hand and im.minimums:
            self.add(("initial_meld", "minimums"), "not used when initial_meld.by_hand is "
                     "given (minimums by hand number): remove one of the two",
                     related=(("initial_meld", "by_hand"),))
        if im.by_hand and im.minimums_by_players:
            self.add(("initial_meld", "minimums_by_players"), "not used when "
                     "initial_meld.by_hand is given (minimums by hand number): remove one of "
                     "the two", related=(("initial_meld", "by_hand"),))
        for i, minimum in enumerate(im.by_hand):
            if minimum < 0:
                self.add(("initial_meld", "by_hand", i), f"expected at least 0, got {minimum}")
        locs = self.problems.doc.locs
        order = self.problems.file_order
        hands_at = locs.get(("game", "hands"))
        if game.hands is not None and hands_at is not None and all(
                sh.target is not None for sh in spec.scoring.sheets):
            # As for eliminate_above below: a target written beside game.hands (or below
            # it, in a child) is refused; a parent's, for its own game, is simply not used.
            for key in ("target", "target_by_players"):
                at = locs.get(("game", key))
                if at is not None and getattr(game, key) and order.get(at.file, 0) <= \
                        order.get(hands_at.file, 0):  # (null clears a parent's mapping)
                    self.add(("game", key), f"the game ends after game.hands ({game.hands}) "
                             "hands whatever the totals, not at a target: remove it (a "
                             "target inherited from a parent pack is not used)",
                             related=(("game", "hands"),))
        kn, gin_at = spec.knock, locs.get(("knock", "max_deadwood"))
        if kn.max_deadwood == 0 and not kn.from_upcard and gin_at is not None:
            # Only gin knocks, and gin is never undercut: the undercut keys written beside
            # it (or below it) are refused; a parent's, for its own game, are not used.
            for key in ("undercut_bonus", "tie_is_undercut"):
                at = locs.get(("knock", key))
                if at is not None and order.get(at.file, 0) <= order.get(gin_at.file, 0):
                    self.add(("knock", key), "only gin may knock (knock.max_deadwood: 0), "
                             "and gin is never undercut, so it is never read: remove it",
                             related=(("knock", "max_deadwood"),))
        if game.eliminate_above is not None:
            if game.winner != "lowest":
                self.add(("game", "eliminate_above"), "elimination is for games the lowest "
                         "total wins (game.winner: lowest)", related=(("game", "winner"),))
            if spec.players.partners != "never":
                self.add(("game", "eliminate_above"), "players leave the game one by one: "
                         "it needs players.partners: never", related=(("players",),))
            if game.rejoin is not None:
                self._check_rejoin(game.rejoin, game.eliminate_above, spec.players.max)
            # A target written beside eliminate_above (or below it, in a child) is refused;
            # one a parent wrote for its own game, without elimination, is simply not used.
            elim_at = locs.get(("game", "eliminate_above"))
            for key in ("target", "target_by_players"):
                at = locs.get(("game", key))
                if at is not None and (elim_at is None or order.get(at.file, 0)
                                       <= order.get(elim_at.file, 0)):
                    self.add(("game", key), "the game ends when one player is left in "
                             "(game.eliminate_above), not at a target: remove it (a target "
                             "inherited from a parent pack is not used)",
                             related=(("game", "eliminate_above"),))
        drop = spec.turn.drop
        if drop and (len(drop) != 2 or min(drop) < 0 or max(drop) > MAX_DROP_PENALTY):
            self.add(("turn", "drop"), f"expected two penalties, [in the first round, later], "
                     f"each from 0 to {MAX_DROP_PENALTY:,} (what a save holds), got "
                     f"{_quote(drop)}")
        elif drop and spec.knock.max_deadwood is not None:
            self.add(("turn", "drop"), "dropping is for packs that meld during play; in a "
                     "knocking pack every player stays in the hand until a knock settles it "
                     "against them", related=(("knock", "max_deadwood"),))
        elif drop and any(drop) and spec.melds.kinds and not self._drop_counted():
            from .kernel.checks import HELD_ITEMS

            self.add(("turn", "drop"), f"{_quote(drop)} count as the cards a dropper holds, "
                     f"but no scoring item counts the cards held ({HELD_ITEMS} do), so any "
                     "two numbers would play the same: write [0, 0] to let a player drop "
                     "with nothing counted against them, or list an item that counts them",
                     related=(("scoring", "items"),))
        tie_at, hands_at = locs.get(("game", "tie")), locs.get(("game", "hands"))
        order = self.problems.file_order
        if (game.hands is not None and game.tie == "play_on" and tie_at is not None
                and hands_at is not None
                and order.get(tie_at.file, 0) <= order.get(hands_at.file, 0)):
            # Written beside game.hands or below it, in a child; a parent's play_on, for
            # its own target, does not bind a child that fixes the hands.
            self.add(("game", "tie"), f"play_on, but the game ends after game.hands "
                     f"({game.hands}) hands whatever the scores, so leaders tied then draw "
                     "the game: write draw, or remove it", related=(("game", "hands"),))
        bonus = spec.scoring.bonus
        if bonus.sets_by == "side" and bonus.set_size == 0 and not bonus.by_count:
            self.add(("scoring", "bonus", "sets_by"), "side, but scoring.bonus.set_size is 0 "
                     "and by_count is empty (nothing counts the side's bonus cards together)",
                     related=(("scoring", "bonus", "set_size"),))
        self._required_books_possible()

    def _check_rejoin(self, rejoin, limit: int, most_players: int) -> None:
        """``game.rejoin``'s numbers: each one that could leave it never read, or put a
        rejoining player past the limit, is refused at its key."""
        at = ("game", "rejoin")
        if not 1 <= rejoin.times <= 100:
            self.add((*at, "times"), f"expected 1 to 100 rejoins, got {rejoin.times}")
        if not 0 <= rejoin.add <= limit:
            self.add((*at, "add"), f"expected 0 to {limit} (game.eliminate_above), got "
                                   f"{rejoin.add}")
        cap = rejoin.while_highest_at_most
        if cap is not None and not 0 <= cap <= limit - rejoin.add:
            self.add((*at, "while_highest_at_most"),
                     f"expected 0 to {limit - rejoin.add}: a player rejoins at that total "
                     f"plus {rejoin.add} (add), which must not pass game.eliminate_above "
                     f"({limit})")
        if not 1 <= rejoin.least_in <= most_players - 1:
            self.add((*at, "least_in"), f"expected 1 to {most_players - 1}: at least one "
                     f"player is out, of at most {most_players} (players.max)")

    def _drop_counted(self) -> bool:
        """Whether ``turn.drop``'s numbers can change a score: an item counts the cards
        held, or the pack's plugin scores (its ``adjust_scores`` reads the hand's record)."""
        from .kernel.checks import counts_cards_held, hooks_named

        if self.spec.plugin is not None and (
                self.plugin is None or "adjust_scores" in hooks_named(self.plugin)):
            return True
        return counts_cards_held(self.spec)

    def discard_bans(self) -> None:
        """``pile.discard_bans``: each entry names cards (ranks in a rank-slot pack, which
        discards by rank), and its condition can come to hold — a book of the card's rank
        needs a rank that makes books; no bans where melds are laid only on a knock."""
        spec, engine = self.spec, self.engine()
        bans = spec.pile.discard_bans
        if not bans or engine not in (CANASTA, TABLE):
            return
        if spec.knock.max_deadwood is not None:
            self.add(("pile", "discard_bans"), "a discard ban waits for books or melds, but "
                     "in a knocking pack melds are laid only on a knock",
                     related=(("knock", "max_deadwood"),))
            return
        wild = self._kinds(spec.cards.wild)
        natural = {r for r in range(13) if not {r * 4 + s for s in range(4)} <= wild}
        if engine == CANASTA:
            natural -= {rank_of_kind(k) for k in self._kinds(spec.cards.unmeldable)}
        elif not any(k.type == "set" for k in spec.melds.kinds):
            natural = set()  # a book of a rank is a set, and the pack has no set kind
        kept = (set(deck_card_kinds(spec.deck)) | {JOKER_KIND}) if self._ranks_ok() else None
        for i, ban in enumerate(bans):
            at = ("pile", "discard_bans", i)
            if ban.unless == "not_going_out" and spec.pile.all_banned != "pass":
                self.add((*at, "unless"), "not_going_out bans a card only as the last one, "
                         f"but pile.all_banned is {spec.pile.all_banned}: a last card banned is "
                         "every card held, and the ban would be lifted just when it applies "
                         "(write all_banned: pass, so the player keeps it and ends the turn)",
                         related=(("pile", "all_banned"),))
            if not ban.cards:
                self.add((*at, "cards"), "names no card: list the cards banned")
            for j, selector in enumerate(ban.cards):
                if not self._selector_ok((*at, "cards", j), selector):
                    continue
                if kept is not None and not kinds_matching(selector) & kept:
                    self.add((*at, "cards", j), f"{_quote(selector)} names no card of this deck "
                             "(deck.ranks leaves it out): the ban would change nothing",
                             related=(("deck", "ranks"),))
                elif engine == CANASTA and not is_rank(selector):
                    rank = RANKS[rank_of_kind(min(kinds_matching(selector)))]
                    self.add((*at, "cards", j), f"{_quote(selector)} is a card code, but "
                             f"{ENGINE_NAMES[CANASTA]} ({ENGINE_PACKS[CANASTA]}) discards by "
                             f"rank: write {_quote(rank)}")
                elif ban.unless == "book_of_rank" and not any(
                        rank_of_kind(k) in natural and k not in wild
                        for k in kinds_matching(selector)):
                    self.add((*at, "cards", j), f"{_quote(selector)}, unless book_of_rank, but no "
                             "book of its rank can be made (a wild or unmeldable rank, or no "
                             "set kind in melds.kinds): it would never be discarded",
                             related=((*at, "unless"),))

    def by_discard(self) -> None:
        """``going_out.by_discard: false`` (going out only by melding every card) needs
        ``requires_discard: false`` and a pack that does not knock, and leaves a discard ban
        lifted only for the last card (``unless: going_out``) never lifted."""
        spec = self.spec
        if spec.going_out.by_discard or self.engine() != TABLE:
            return
        at = ("going_out", "by_discard")
        if spec.scoring.style == "knock":
            self.add(at, "false, but scoring.style is knock: a knocker always discards as "
                     "they knock, and a knock that melds every card without a discard is big "
                     "gin, which knock.big_gin_bonus sets: remove it",
                     related=(("scoring", "style"),))
            return
        if spec.going_out.requires_discard:
            self.add(at, "false, but going_out.requires_discard is true: going out is then "
                     "always a discard of the last card, so nobody could go out: write "
                     "requires_discard: false beside it (going out only by melding or laying "
                     "off every card), or remove it", related=(("going_out", "requires_discard"),))
            return
        for i, ban in enumerate(spec.pile.discard_bans):
            if ban.unless == "not_going_out":
                self.add(("pile", "discard_bans", i, "unless"), "not_going_out, but nobody "
                         "goes out by a discard here (going_out.by_discard: false), so no "
                         "discard is ever the one that goes out and the ban would change "
                         "nothing: remove it", related=(at,))
            if ban.unless == "going_out":
                self.add(("pile", "discard_bans", i, "unless"), "going_out, but nobody goes "
                         "out by a discard here (going_out.by_discard: false), so its cards "
                         "would never be discarded: choose another condition (book_of_rank, "
                         "book or opened), or remove the ban", related=(at,))

    def _required_books_possible(self) -> None:
        """A book kind named n times in going_out.required_books needs n books of it; with
        books that keep growing a side has one meld per rank, so a kind limited to fewer
        ranks than that could never be held often enough."""
        spec = self.spec
        if spec.books.close_at_size:
            return
        kinds = {k.name: k for k in spec.books.kinds}
        seen: dict[str, int] = {}
        for i, name in enumerate(spec.going_out.required_books):
            seen[name] = seen.get(name, 0) + 1
            kind = kinds.get(name)
            if kind is None or seen[name] < 2 or kind.adds == "none":
                continue  # (a kind that closes frees its rank for another meld)
            most = 1 if kind.wild_only else (len(kind.ranks) if kind.ranks is not None else None)
            if most is not None and seen[name] > most:
                self.add(("going_out", "required_books", i),
                         f"{_quote(name)} is named {seen[name]} times, which needs {seen[name]} "
                         f"{name} books, but with books.close_at_size: false a side holds one "
                         f"meld per rank, so at most {most} {name} book"
                         f"{'s' if most != 1 else ''}", related=(("books", "close_at_size"),))


def _book_ranks(kind: Any) -> frozenset[int] | None:
    """The ranks a book kind names (None: any natural rank, or a rank it names that is no
    rank, which its own check reports)."""
    if kind.ranks is None:
        return None
    try:
        return frozenset(rank_index(r) for r in kind.ranks)
    except ValueError:
        return None


def _book_kind_covers(first: Any, later: Any) -> bool:
    """Whether book kind ``first`` matches every book that ``later`` would, from their own
    keys alone (as :meth:`meldkit._rules.BookKindRule.matches` reads them): a sequence
    kind matches sequences within its wild-card bounds, a wild-only kind every book of
    wild cards only, another kind books of its ranks within its wild-card bounds."""
    if first.sequence != later.sequence:
        return False
    if not first.sequence:
        if first.wild_only or later.wild_only:
            return first.wild_only and later.wild_only
        if first.ranks is not None:
            ranks, within = _book_ranks(first), _book_ranks(later)
            if ranks is None or within is None or not within <= ranks:
                return False
    return first.min_wilds <= later.min_wilds and (
        first.max_wilds is None or (later.max_wilds is not None
                                    and later.max_wilds <= first.max_wilds))


def _book_kind_takes(kind: Any) -> str:
    """The books a kind matches, in words (as :func:`_book_kind_covers` reads it)."""
    if kind.wild_only and not kind.sequence:
        return "every book of wild cards only"
    lo, hi = kind.min_wilds, kind.max_wilds
    wilds = ("any number of wild cards" if lo == 0 and hi is None else
             "no wild card" if hi == 0 else
             f"at least {lo} wild card{'s' if lo != 1 else ''}" if hi is None else
             f"at most {hi} wild card{'s' if hi != 1 else ''}" if lo == 0 else
             f"{lo} wild card{'s' if lo != 1 else ''}" if lo == hi else
             f"{lo} to {hi} wild cards")
    if kind.sequence:
        return f"every sequence book with {wilds}"
    ranks = ("of any natural rank" if kind.ranks is None else
             f"of the ranks {', '.join(str(r) for r in kind.ranks)}")
    return f"every book {ranks} with {wilds}"


# --------------------------------------------------------------------------- assembling


def _canonical(value: Any) -> Any:
    """Data JSON can sort: mapping keys as strings."""
    if isinstance(value, dict):
        return {str(k): _canonical(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_canonical(v) for v in value]
    return value


def _digest(data: Mapping[str, Any]) -> str:
    text = json.dumps(
        _canonical(data), sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str
    )
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _structured(doc: _Doc, problems: _Problems) -> RulePackSpec | None:
    """``doc`` structured into a spec, or None with each structural problem added."""
    try:
        spec = _CONVERTER.structure(doc.data, RulePackSpec)
    except (cattrs.BaseValidationError, ForbiddenExtraKeysError) as exc:
        for path, message, suggestion in _structure_errors(exc, ()):
            if path == ("game", "target") and doc.data["game"]["target"] is None:
                message = _null_target(doc.data)
            problems.add(path, message, suggestion)
        return None
    if spec.turn.draw is None:  # the meld model's own default
        spec = attrs.evolve(spec, turn=attrs.evolve(spec.turn, draw=default_draw(spec)))
    return spec


def _null_target(data: dict) -> str:
    """Why ``game.target: null`` is refused, and what to write instead: a target is a number
    of points; a game that does not read it (a fixed number of hands, elimination) needs the
    key left out, as null would say nothing the absent key does not."""
    def whole(value: Any) -> bool:
        return isinstance(value, int) and not isinstance(value, bool)

    scoring = data.get("scoring")
    game, sheets = data["game"], scoring.get("sheets") if isinstance(scoring, dict) else None
    reads = isinstance(sheets, list) and any(
        not (isinstance(sh, dict) and whole(sh.get("target"))) for sh in sheets)
    ends = (f"after game.hands ({game['hands']}) hands whatever the totals"
            if whole(game.get("hands")) else
            "when one player is left in (game.eliminate_above)"
            if whole(game.get("eliminate_above")) else None)
    if ends and not reads:
        return (f"null, but a target is a number of points, and this game ends {ends}, so "
                "it reads no target: leave the key out (a target inherited from a parent "
                "pack is not used either)")
    if ends:
        return ("null, but a target is a number of points, and a score sheet without a "
                "target of its own ends at game.target: write one, or give every sheet its "
                "own target (scoring.sheets[].target) and leave the key out")
    return ("null, but the game ends after the hand in which a side reaches game.target, so "
            "it needs a number of points: write one, or leave the key out (a parent pack's "
            "target, else 5000); to play a fixed number of hands instead, set game.hands and "
            "leave the key out")


def default_draw(spec: RulePackSpec) -> int:
    """Cards a turn draws when ``turn.draw`` is not given: one in a table-meld pack (sets
    and runs), two in a rank-slot pack (canasta's).

    >>> from meldkit import load_pack
    >>> [load_pack(n).spec.turn.draw for n in ("gin_rummy", "pony_tail")]
    [1, 2]
    """
    return 1 if spec.melds.kinds else 2


def _build(doc: _Doc, source: str) -> RulePack:
    """Structure and check a merged document; a RulePackError listing every problem."""
    problems = _Problems(doc)
    if isinstance(doc.data, dict) and "scenarios" in doc.data:  # (not a pack's key)
        problems.add(("scenarios",), "this is a scenario file, not a rule pack: run it "
                     "against its pack with `meldkit test PACK FILE` (or "
                     "meldkit.scenarios.run_scenarios)")
        problems.raise_if_any()
    spec = _structured(doc, problems)
    if spec is None:
        problems.raise_if_any()
        raise AssertionError("a validation error always has a leaf problem")  # pragma: no cover
    plugin, options = _plugin_options(spec, doc, problems)
    problems.inherited_at_child = True
    _Checker(spec, problems, plugin, options).run()
    problems.raise_if_any()
    name = spec.name or pathlib.PurePath(source).stem
    if len(name) > MAX_PACK_NAME:
        whose = "" if spec.name else (f" (taken from the file's name, {_quote(source)}: "
                                      "set a shorter one with name:)")
        problems.add(("name",), f"a pack's name is at most {MAX_PACK_NAME} characters, as a "
                     f"save records it, not {len(name)}{whose}")
        problems.raise_if_any()
    digest = _digest(doc.data)
    deals = _schedule(doc, spec, problems, name, source, digest, options)
    return RulePack(spec=spec, name=name, source=source, digest=digest, raw=doc.data,
                    options=options, deals=deals)


_SCHEDULED: dict[str, frozenset[str] | None] = {
    "deal": frozenset({"hand", "hand_by_players"}),
    "initial_meld": None,  # every key of the section
    "pile": frozenset({"buy_limit"}),
    "going_out": frozenset({"requires_discard", "by_discard"}),
    "cards": frozenset({"wild", "values"}),
    "turn": frozenset({"draw", "draw_by_players"}),
}
"""The deal-level keys a ``schedule`` item may set, by section (None: all of it)."""


_SAME_EVERY_DEAL: dict[tuple[str, str], str] = {
    ("cards", "wild"): "the wild ranks shape every meld's action id",
}
"""Deal-level keys a rank-slot pack may not vary by deal, and why."""


def _schedule_allowed() -> str:
    keys = [f"{s}.*" if ks is None else ", ".join(f"{s}.{k}" for k in sorted(ks))
            for s, ks in _SCHEDULED.items()]
    return ", ".join(keys)


def _schedule(doc: _Doc, spec: RulePackSpec, problems: _Problems, name: str, source: str,
              digest: str, options: Any) -> tuple[RulePack, ...]:
    """The pack of each deal of ``spec.schedule``: the item merged over the pack and checked
    like a pack, its problems located at the item's own lines (``schedule[4].deal.hand``)."""
    if not spec.schedule:
        return ()
    base = _Doc({k: v for k, v in doc.data.items() if k != "schedule"},
                {p: loc for p, loc in doc.locs.items() if p[:1] != ("schedule",)},
                doc.deps, doc.labels)
    deals = []
    for i, item in enumerate(spec.schedule):
        at: KeyPath = ("schedule", i)
        bad = False
        for section, keys in item.items():
            allowed = _SCHEDULED.get(section, frozenset())
            if not isinstance(keys, dict):
                problems.add(at + (section,), f"expected a mapping of {section} keys, got "
                             f"{_kind(keys)}")
                bad = True
                continue
            for key in keys:
                if allowed is not None and key not in allowed:
                    problems.add(at + (section, key), f"{section}.{key} is not a deal-level key "
                                 f"(a schedule item may set {_schedule_allowed()})")
                    bad = True
                elif (section, key) in _SAME_EVERY_DEAL and not spec.melds.kinds:
                    problems.add(at + (section, key), f"in a rank-slot pack "
                                 f"{_SAME_EVERY_DEAL[section, key]}, so it is the same in "
                                 "every deal (set it once, outside the schedule)")
                    bad = True
        if bad:
            continue
        over = _Doc(dict(item), {p[2:]: loc for p, loc in doc.locs.items() if p[:2] == at},
                    [], doc.labels[:1])
        merged = _merge(base, over)
        if "name" in doc.data:
            merged.data["name"] = doc.data["name"]
        own = _Problems(merged)
        deal_spec = _structured(merged, own)
        if deal_spec is not None:
            own.inherited_at_child = True
            _Checker(deal_spec, own, _registry_plugin(deal_spec), options,
                     one_deal=True).run()
        for p in own.found:
            problems.found.append(attrs.evolve(
                p, path=f"schedule[{i}].{p.path}",
                message=f"in deal {i + 1}: {p.message}"))
        if deal_spec is not None and not own.found:
            deals.append(RulePack(spec=deal_spec, name=name, source=source,
                                  digest=f"{digest}:deal{i + 1}", raw=merged.data,
                                  options=options))
    problems.raise_if_any()
    return tuple(deals)


def _registry_plugin(spec: RulePackSpec) -> Any:
    from .plugins import get_plugin

    return get_plugin(spec.plugin, spec.plugin_package) if spec.plugin else None


def _plugin_options(spec: RulePackSpec, doc: _Doc, problems: _Problems) -> tuple[Any, Any]:
    """The plugin a pack names (looked up among installed entry points, never imported
    from a path in the pack) and its ``options:`` structured by the plugin's class."""
    from .plugins import get_plugin

    if not spec.plugin:
        if spec.options:
            problems.add(("options",), "options are plugin settings, but the pack names no plugin")
        return None, None
    try:
        plugin = get_plugin(spec.plugin, spec.plugin_package)
    except PluginError as exc:
        problems.add(("plugin",), "; ".join(p.message for p in exc.problems))
        problems.plugin_missing = True
        return None, None
    if plugin.options_class is None:
        if spec.options:
            problems.add(("options",), f"plugin {_quote(spec.plugin)} takes no options")
        return plugin, None
    try:
        options = _CONVERTER.structure(doc.data.get("options") or {}, plugin.options_class)
    except (cattrs.BaseValidationError, ForbiddenExtraKeysError) as exc:
        for path, message, suggestion in _structure_errors(exc, ("options",)):
            problems.add(path, message, suggestion)
        return plugin, None
    except Exception as exc:  # the plugin's options class raised (a validator, __init__)
        what = f"{type(exc).__name__}: {exc}"
        problems.add(("options",), f"plugin {_quote(spec.plugin)}: its options_class raised "
                     f"{what[:200]}")
        problems.plugin_missing = True
        return plugin, None
    return plugin, options


def load_pack_text(
    text: str,
    filename: str = "<string>",
    base_dir: str | os.PathLike[str] | None = None,
    search_roots: Iterable[str | os.PathLike[str]] = (),
) -> RulePack:
    """Load a pack from YAML text.

    ``filename`` labels problems; ``base_dir`` is where a relative ``extends:`` path is
    looked up (default: the directory of ``filename``).  ``extends:`` reads only files
    under ``base_dir`` (or the directory of ``filename``) and the ``search_roots``; text
    with neither a file name nor a ``base_dir`` may extend only bundled packs and files
    under ``search_roots``.  Raises :class:`RulePackError` listing every problem found.

    >>> pack = load_pack_text("extends: pony_tail\\ngame: {target: 10000}\\n")
    >>> pack.spec.game.target, pack.spec.deck.decks
    (10000, 6)
    """
    for arg, value, kinds, want in (("text", text, str, "a str"),
                                    ("filename", filename, str, "a str"),
                                    ("base_dir", base_dir, (str, os.PathLike, type(None)),
                                     "a str or a path")):
        if not isinstance(value, kinds):
            raise _fail(_Loc("<argument>"), "", f"load_pack_text's {arg} must be {want}, "
                        f"not {type(value).__name__}")
    real_file = not filename.startswith("<")
    if base_dir is None and real_file:
        base_dir = os.path.dirname(filename)
    try:
        roots = _roots(base_dir, search_roots)
        root = roots[0] if base_dir is not None else pathlib.Path(os.devnull)
        identity = str(pathlib.Path(filename).resolve()) if real_file else filename
    except (OSError, ValueError, RuntimeError) as exc:
        raise _fail(_Loc(filename), "", f"cannot be resolved ({type(exc).__name__})") from None
    doc = _load_doc(text, filename, root, [(identity, filename)], [], roots)
    return _build(doc, filename)


_CACHE: OrderedDict[tuple[str, Roots], tuple[list[Stamp], RulePack]] = OrderedDict()
"""Packs loaded from files, by resolved path and extends roots, with the stamps of every
file read; the least recently used is dropped beyond :data:`PACK_CACHE_SIZE`."""

PACK_CACHE_SIZE = 64
"""Most packs :func:`load_pack` keeps (a server loading many uploaded packs stays bounded)."""


def _fresh(deps: list[Stamp]) -> bool:
    """Whether every file a cached pack was read from is unchanged."""
    try:
        return all(_stamp(stamp[0]) == stamp for stamp in deps)
    except OSError:
        return False


def _pack_file(name_or_path: str | os.PathLike[str]) -> tuple[pathlib.Path, str]:
    """The resolved file and the label of a bundled name or a path."""
    if not isinstance(name_or_path, (str, os.PathLike)):
        raise _fail(_Loc("<argument>"), "", "a pack is a bundled pack's name or a file path "
                    f"(str or os.PathLike), not {type(name_or_path).__name__}")
    if _is_path(name_or_path):
        label = os.fspath(name_or_path)
        try:
            return pathlib.Path(name_or_path).resolve(), label
        except (OSError, ValueError, RuntimeError) as exc:
            raise _fail(_Loc(str(label)), "", f"cannot be read ({type(exc).__name__})") from None
    name = str(name_or_path)
    path = _bundled_path(name)
    if path is None:
        raise _fail(_Loc(name), "", *_unknown_bundled(name))
    return path.resolve(), str(path)


def load_pack(
    name_or_path: str | os.PathLike[str],
    search_roots: Iterable[str | os.PathLike[str]] = (),
) -> RulePack:
    """Load a bundled pack by name or a pack file by path, validated and merged.

    ``extends:`` in the pack (and its parents) may name a bundled pack, or a ``.yaml``
    file under the pack's own directory or under one of ``search_roots`` — never an
    absolute path or one that climbs out of them.  Loads are cached (at most
    :data:`PACK_CACHE_SIZE` packs) on the files read and their modification times, so
    loading an unchanged pack again is nearly free. Raises :class:`RulePackError`
    listing every problem, each as ``file:line:col: key.path: message``.

    >>> pack = load_pack("pony_tail")
    >>> pack.name, pack.spec.deck.decks, [k.name for k in pack.spec.books.kinds]
    ('pony_tail', 6, ['sevens', 'wild', 'red', 'black'])
    """
    path, label = _pack_file(name_or_path)
    roots = _roots(path.parent, search_roots)
    key = (str(path), roots)
    hit = _CACHE.get(key)
    if hit is not None and _fresh(hit[0]):
        try:
            _CACHE.move_to_end(key)
        except KeyError:  # dropped meanwhile by another thread: still a good answer
            pass
        pack = hit[1]
        return pack if pack.source == label else attrs.evolve(pack, source=label)
    text, stamp = _read(path, label)
    doc = _load_doc(text, label, path.parent, [(key[0], label)], [stamp], roots)
    pack = _build(doc, label)
    _CACHE.pop(key, None)
    _CACHE[key] = (doc.deps, pack)  # most recently used last
    while len(_CACHE) > PACK_CACHE_SIZE:
        try:
            _CACHE.popitem(last=False)
        except KeyError:  # emptied meanwhile by another thread
            break
    return pack


def check_pack(name_or_path: str | os.PathLike[str]) -> list[PackProblem]:
    """Every problem in a pack (``[]`` if it loads), as ``meldkit validate`` reports them.

    >>> check_pack("pony_tail")
    []
    """
    try:
        load_pack(name_or_path)
    except RulePackError as exc:
        return list(exc.problems)
    return []
