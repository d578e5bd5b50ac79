"""The rule-pack reference and JSON Schema, generated from the schema classes.

Everything here is read from :mod:`meldkit._schema` — the attrs classes the loader
structures packs into — by walking ``attrs.fields``: each key's type annotation, its
default and its ``metadata["doc"]``.  The published reference page and the published JSON
Schema therefore say exactly what the loader accepts, and cannot drift from it.

>>> from meldkit.schema_docs import json_schema, pack_keys
>>> schema = json_schema()
>>> schema["properties"]["deal"]["$ref"]
'#/$defs/DealSpec'
>>> schema["$defs"]["PileSpec"]["properties"]["frozen_take_with"]["enum"]
['natural_pair', 'same_rank_pair']
>>> key = next(k for k in pack_keys() if k.path == "deck.jokers_per_deck")
>>> key.type_text, key.default
('integer', 2)
"""

from __future__ import annotations

import json
import re
import textwrap
import types
import typing
from collections.abc import Iterator
from functools import cache
from typing import Any, Literal

import attrs

from ._pack_limits import AT_LEAST, AT_MOST
from ._schema import KEY_NEEDS, RulePackSpec, applies_to, owners_of

__all__ = [
    "DEFAULT_SCHEMA_URL",
    "SITE_URL",
    "PackKey",
    "defaults_yaml",
    "inline_yaml",
    "json_schema",
    "pack_keys",
    "reference_markdown",
    "schema_text",
    "shipped_schema_path",
    "to_yaml",
]

SITE_URL = "https://meldkit.github.io/meldkit/"
"""The documentation site (``site_url`` in ``mkdocs.yml``); each release is published under
its version, and ``latest/`` is the newest release."""

DEFAULT_SCHEMA_URL = SITE_URL + "latest/schema/rulepack.schema.json"
"""Where the documentation site publishes the JSON Schema (``$id`` of :func:`json_schema`)."""

SHIPPED_SCHEMA = "rulepack.schema.json"
"""The file name of the JSON Schema shipped inside the package (see
:func:`shipped_schema_path`); ``meldkit schema`` writes the same text."""

_JSON_SCHEMA_DIALECT = "https://json-schema.org/draft/2020-12/schema"

_EXAMPLES: dict[str, Any] = {"extends": "pony_canasta", "initial_meld.low_ace": 1}
"""Examples for keys that no bundled pack sets to anything but the default."""


@attrs.frozen
class PackKey:
    """One key of a rule pack, as the reference documents it."""

    path: str
    """Dotted key path; ``[]`` marks the items of a list (``books.kinds[].value``)."""
    anchor: str
    """The id of the key's heading on the reference page (``books.kinds.value``)."""
    owner: type
    """The schema class that declares the key."""
    name: str
    """The key itself (the last step of :attr:`path`)."""
    type: Any
    """The resolved type annotation."""
    type_text: str
    """The type in words (``integer or null``, ``one of `never`, `side_first` ...``)."""
    default: Any
    """The default as plain data (what the key means when a pack leaves it out)."""
    doc: str
    """The key's meaning (``metadata["doc"]`` of the field)."""
    example: Any
    """A value this key takes in a bundled pack, or a curated one."""
    example_source: str
    """The bundled pack the example comes from, or ``""`` for a curated example."""
    applies_to: str = ""
    """Which packs the key applies to: the engines that read it
    (:data:`meldkit._schema.KEY_READERS`); ``""`` for a section."""
    needs: str = ""
    """What else a pack must set for the key to have an effect (``""``: nothing)."""


# --------------------------------------------------------------------------- types


def _hints(cls: type) -> dict[str, Any]:
    """The resolved type annotations of a schema class (the module uses string annotations)."""
    return typing.get_type_hints(cls)


def _is_optional(tp: Any) -> tuple[bool, Any]:
    """``(True, X)`` for ``X | None``, else ``(False, tp)``."""
    if typing.get_origin(tp) in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(tp) if a is not type(None)]
        if len(args) + 1 == len(typing.get_args(tp)) and len(args) == 1:
            return True, args[0]
    return False, tp


def _words(tp: Any) -> str:
    """A type annotation in words, for the reference."""
    optional, inner = _is_optional(tp)
    if optional:
        return f"{_words(inner)} or null"
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin is Literal:
        return "one of " + ", ".join(f"`{a}`" for a in args)
    if origin is list:
        item = args[0]
        if typing.get_origin(item) is Literal:
            return "list of " + ", ".join(f"`{a}`" for a in typing.get_args(item))
        if attrs.has(item):
            return "list of mappings (their keys follow)"
        return f"list of {_plural(_words(item))}"
    if origin is dict:
        return f"mapping of {_words(args[0])} to {_words(args[1])}"
    if attrs.has(tp):
        return "mapping (its keys follow)"
    return {int: "integer", str: "string", bool: "boolean", Any: "any value"}.get(tp, str(tp))


def _plural(words: str) -> str:
    return {"integer": "integers", "string": "strings", "boolean": "booleans"}.get(words, words)


def _class_doc(cls: type) -> str:
    return " ".join((cls.__doc__ or "").split())


# --------------------------------------------------------------------------- defaults


def _plain(value: Any) -> Any:
    """A default as plain data: attrs instances become mappings."""
    if attrs.has(type(value)):
        return attrs.asdict(value, recurse=True)
    return value


def _default(field: attrs.Attribute[Any]) -> Any:
    """What a field means when a pack leaves it out, as plain data."""
    default: Any = field.default
    if isinstance(default, attrs.Factory):  # type: ignore[arg-type]
        default = default.factory()
    return _plain(default)


# --------------------------------------------------------------------------- examples


@cache
def _bundled_raw() -> tuple[tuple[str, dict[str, Any]], ...]:
    """``(name, data as written)`` of every bundled pack: the rummy-kernel packs first,
    then those that need a plugin, each group in name order."""
    from ._loader import available_packs, load_pack

    packs = [load_pack(name) for name in available_packs()]
    packs.sort(key=lambda pack: (pack.spec.plugin is not None, pack.name))
    return tuple((pack.name, pack.raw) for pack in packs)


def _lookup(data: Any, steps: list[str]) -> list[Any]:
    """Every value at ``steps`` in ``data``; a ``[]`` step fans out over list items."""
    if not steps:
        return [data]
    step, rest = steps[0], steps[1:]
    if step.endswith("[n][]"):  # a table of lists by player count: every item of each
        table = data.get(step[:-5]) if isinstance(data, dict) else None
        found = []
        for items in table.values() if isinstance(table, dict) else ():
            for item in items if isinstance(items, list) else ():
                found.extend(_lookup(item, rest))
        return found
    if step.endswith("[]"):
        items = data.get(step[:-2]) if isinstance(data, dict) else None
        found = []
        for item in items if isinstance(items, list) else ():
            found.extend(_lookup(item, rest))
        return found
    if isinstance(data, dict) and step in data:
        return _lookup(data[step], rest)
    return []


def _example(path: str, default: Any, tp: Any) -> tuple[Any, str]:
    """An example value for ``path`` and the pack it comes from: a bundled pack's value
    that differs from the default, else a curated example, else any bundled value, else the
    default.  Free-form mappings (``options``) are abridged to a few scalar entries."""
    found = [(v, name) for name, raw in _bundled_raw() for v in _lookup(raw, path.split("."))]
    differing = [(v, name) for v, name in found if v != default]
    if differing:
        value, source = differing[0]
    elif path in _EXAMPLES:
        value, source = _EXAMPLES[path], ""
    else:
        value, source = found[0] if found else (default, "")
    free_form = typing.get_origin(tp) is dict and typing.get_args(tp)[1] is Any
    if free_form and isinstance(value, dict):
        scalars = {k: v for k, v in value.items() if not isinstance(v, (dict, list))}
        if len(scalars) < len(value):
            value = dict(list(scalars.items())[:3])
            source = f"{source}, abridged" if source else ""
    return value, source


# --------------------------------------------------------------------------- walking


def key_anchor(path: str) -> str:
    """A key path without its item marks, as the reference's heading ids and ``meldkit
    keys`` name keys: ``books.kinds[].value`` → ``books.kinds.value``,
    ``initial_meld.minimums_by_players[n][].below`` → ``initial_meld.minimums_by_players.below``.
    """
    return re.sub(r"\[[^\]]*\]", "", path)


def _walk(cls: type, prefix: str) -> Iterator[PackKey]:
    hints = _hints(cls)
    for field in attrs.fields(cls):
        path = f"{prefix}{field.name}"
        tp = hints[field.name]
        default = _default(field)
        example, source = _example(path, default, tp)
        applies, needs = _owners(path, tp)
        yield PackKey(
            path=path,
            anchor=key_anchor(path),
            owner=cls,
            name=field.name,
            type=tp,
            type_text=_words(tp),
            default=default,
            doc=field.metadata["doc"],
            example=example,
            example_source=source,
            applies_to=applies,
            needs=needs,
        )
        inner = _is_optional(tp)[1]  # a mapping that may be null (melds.sequences) too
        args = typing.get_args(inner)
        if attrs.has(inner):
            yield from _walk(inner, f"{path}.")
        elif typing.get_origin(inner) is list and attrs.has(args[0]):
            yield from _walk(args[0], f"{path}[].")
        elif (typing.get_origin(inner) is dict and typing.get_origin(args[1]) is list
              and attrs.has(typing.get_args(args[1])[0])):  # lists by player count
            yield from _walk(typing.get_args(args[1])[0], f"{path}[n][].")


def _owners(path: str, tp: Any) -> tuple[str, str]:
    """``(applies to, needs)`` of a key in words; ``("", "")`` for a section."""
    if attrs.has(tp):
        return "", ""
    owners = owners_of(path)
    needs = owners.needs
    enforced = KEY_NEEDS.get(path.replace("[]", ""))
    if enforced is not None and enforced[0] not in needs:
        needs = f"{needs}; {enforced[0]}" if needs else enforced[0]
    return applies_to(path), needs


def pack_keys() -> list[PackKey]:
    """Every key a rule pack may set, depth first in the order the schema declares them.

    Keys of list items (``books.kinds[].name``) follow the list's own key.
    """
    return list(_walk(RulePackSpec, ""))


def _schema_classes() -> list[type]:
    """Every attrs class of the schema, the root first, each once."""
    seen: list[type] = [RulePackSpec]
    for key in pack_keys():
        inner = _is_optional(key.type)[1]
        if typing.get_origin(inner) is list:
            inner = typing.get_args(inner)[0]
        if attrs.has(inner) and inner not in seen:
            seen.append(inner)
    return seen


# --------------------------------------------------------------------------- JSON Schema


def _json_type(tp: Any) -> dict[str, Any]:
    optional, inner = _is_optional(tp)
    if optional:
        sub = _json_type(inner)
        if set(sub) == {"type"}:
            return {"type": [sub["type"], "null"]}
        if "enum" in sub:
            return {"enum": [*sub["enum"], None]}
        return {"anyOf": [sub, {"type": "null"}]}
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin is Literal:
        return {"enum": list(args)}
    if origin is list:
        return {"type": "array", "items": _json_type(args[0])}
    if origin is dict:
        out: dict[str, Any] = {"type": "object"}
        if args and args[1] is not Any:
            out["additionalProperties"] = _json_type(args[1])
        return out
    if attrs.has(tp):
        return {"$ref": f"#/$defs/{tp.__name__}"}
    if tp is Any:
        return {}
    return {"type": {int: "integer", str: "string", bool: "boolean"}[tp]}


def _object_schema(cls: type) -> dict[str, Any]:
    hints = _hints(cls)
    properties = {}
    for field in attrs.fields(cls):
        prop = _json_type(hints[field.name])
        prop["description"] = field.metadata["doc"]
        prop["default"] = _default(field)
        properties[field.name] = prop
    return {
        "type": "object",
        "description": _class_doc(cls),
        "properties": properties,
        "additionalProperties": False,
    }


def json_schema(schema_id: str = DEFAULT_SCHEMA_URL) -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of a rule pack file.

    Every key has its ``description`` and ``default``; ``Literal`` choices are ``enum``;
    every mapping refuses unknown keys (``additionalProperties: false``), as the loader
    does; a number the loader bounds on its own in every pack (``turn.draw``,
    ``game.target`` …: :data:`~meldkit._pack_limits.AT_LEAST` and
    :data:`~meldkit._pack_limits.AT_MOST`) carries the same ``minimum`` and ``maximum``.
    What the loader checks for meaning beyond that (card selectors, deal arithmetic,
    contradictory settings) it reports with ``file:line:col``.

    >>> json_schema()["$defs"]["TurnSpec"]["properties"]["draw"]["minimum"]
    1
    """
    schema = {
        "$schema": _JSON_SCHEMA_DIALECT,
        "$id": schema_id,
        "title": "meldkit rule pack",
        **_object_schema(RulePackSpec),
        "description": (
            "A meldkit rule pack: a YAML file that configures the rummy-family kernel into one "
            "game. Every key is optional; a pack may `extends:` another and override only "
            "what differs."
        ),
        "$defs": {cls.__name__: _object_schema(cls) for cls in _schema_classes()[1:]},
    }
    for paths, word in ((AT_LEAST, "minimum"), (AT_MOST, "maximum")):
        for path, bound in paths:
            _key_schema(schema, path)[word] = bound
    return schema


def _key_schema(schema: dict[str, Any], path: tuple[str, ...]) -> dict[str, Any]:
    """The schema of the key at ``path`` (``("turn", "draw")``), following ``$ref``s."""
    node = schema
    for name in path:
        node = node["properties"][name]
        while "$ref" in node or "anyOf" in node:
            ref = node.get("$ref") or next(a["$ref"] for a in node["anyOf"] if "$ref" in a)
            node = schema["$defs"][ref.rpartition("/")[2]]
    return node


def schema_text() -> str:
    """:func:`json_schema` as the text of the shipped schema file (``meldkit schema``)."""
    return json.dumps(json_schema(), indent=2, ensure_ascii=False) + "\n"


def shipped_schema_path() -> str:
    """The path of the JSON Schema file installed with meldkit, for an editor to read
    offline (``# yaml-language-server: $schema=<this path>``).

    >>> shipped_schema_path().endswith("rulepack.schema.json")
    True
    """
    import pathlib

    return str(pathlib.Path(__file__).resolve().parent / SHIPPED_SCHEMA)


# --------------------------------------------------------------------------- YAML text

_PLAIN = re.compile(r"[A-Za-z_][A-Za-z0-9_ .()-]*")
_YAML_WORDS = {"true", "false", "null", "yes", "no", "on", "off", "y", "n", "~"}


def _scalar(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return str(value)
    text = str(value)
    if _PLAIN.fullmatch(text) and text.lower() not in _YAML_WORDS and text == text.strip():
        return text
    return json.dumps(text, ensure_ascii=False)


def inline_yaml(value: Any) -> str:
    """A value in YAML flow style, on one line: ``[JK, "2"]``, ``{below: 0, minimum: 15}``."""
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_scalar(k)}: {inline_yaml(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(inline_yaml(v) for v in value) + "]"
    return _scalar(value)


def to_yaml(value: dict[str, Any], indent: int = 0) -> str:
    """Pack data as block YAML, the way packs are written: nested sections in block style,
    lists and small mappings in flow style, a list of mappings one item per line.

    >>> print(to_yaml({"deal": {"hand": 15, "order": ["hand", "reserve"]},
    ...                "books": {"kinds": [{"name": "red", "max_wilds": 0}]}}))
    deal:
      hand: 15
      order: [hand, reserve]
    books:
      kinds:
        - {name: red, max_wilds: 0}
    """
    pad = "  " * indent
    lines = []
    for key, item in value.items():
        head = f"{pad}{_scalar(key)}:"
        if (
            isinstance(item, dict)
            and item
            and (len(item) > 4 or any(isinstance(v, (dict, list)) for v in item.values()))
        ):
            lines += [head, to_yaml(item, indent + 1)]
        elif isinstance(item, str) and len(head) + len(item) > 88:
            lines.append(f"{head} >-")
            lines += textwrap.wrap(
                item, 88, initial_indent=f"{pad}  ", subsequent_indent=f"{pad}  "
            )
        elif isinstance(item, list) and item and all(isinstance(v, dict) for v in item):
            lines += [head, *(f"{pad}  - {inline_yaml(v)}" for v in item)]
        else:
            lines.append(f"{head} {inline_yaml(item)}")
    return "\n".join(lines)


def _example_yaml(key: PackKey) -> str:
    """The key's example as a pack fragment; a key of a list item shows the whole item."""
    steps = key.path.split(".")
    lines: list[str] = []
    for depth, step in enumerate(steps[:-1]):
        pad = "  " * depth
        if step.endswith("[n][]"):  # a table by player count: one count's list
            table_path = steps[: depth] + [step[:-5]]
            rows = [
                (count, item)
                for _, raw in _bundled_raw()
                for table in _lookup(raw, table_path)
                if isinstance(table, dict)
                for count, items in table.items()
                for item in (items if isinstance(items, list) else ())
                if isinstance(item, dict) and item.get(key.name) == key.example
            ]
            count, item = rows[0] if rows else (2, {key.name: key.example})
            return "\n".join([*lines, f"{pad}{step[:-5]}:", f"{pad}  {count}:",
                              f"{pad}    - {inline_yaml(item)}"])
        if step.endswith("[]"):
            item_path = ".".join(steps[: depth + 1])
            items = [
                item
                for _, raw in _bundled_raw()
                for item in _lookup(raw, item_path.split("."))
                if isinstance(item, dict) and item.get(key.name) == key.example
            ]
            item = items[0] if items else {key.name: key.example}
            return "\n".join([*lines, f"{pad}{step[:-2]}:", f"{pad}  - {inline_yaml(item)}"])
        lines.append(f"{pad}{step}:")
    return "\n".join([*lines, to_yaml({steps[-1]: key.example}, len(steps) - 1)])


def defaults_yaml() -> str:
    """Every key of a rule pack at its default, each under a comment with its meaning.

    The deck has no default size: a pack sets ``deck.decks`` or ``deck.decks_per_player``.
    """
    lines = [
        "# Every key of a meldkit rule pack at its default. A pack sets only what differs.",
        f"# yaml-language-server: $schema={DEFAULT_SCHEMA_URL}",
    ]

    def emit(cls: type, indent: int) -> None:
        pad = "  " * indent
        hints = _hints(cls)
        for field in attrs.fields(cls):
            lines.extend(
                textwrap.wrap(
                    field.metadata["doc"],
                    92,
                    initial_indent=f"{pad}# ",
                    subsequent_indent=f"{pad}# ",
                )
            )
            if attrs.has(hints[field.name]):
                lines.append(f"{pad}{field.name}:")
                emit(hints[field.name], indent + 1)
            else:
                lines.append(to_yaml({field.name: _default(field)}, indent))

    emit(RulePackSpec, 0)
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------- reference page

_INTRO = """\
# Rule pack reference

Every key a rule pack may set, generated from the schema classes the loader reads
(`meldkit._schema`), so this page always says what this version of meldkit accepts. Every
key is optional: a pack that leaves a key out gets its default or, with
[`extends:`](extends.md), its parent pack's value. The deck alone has no default size: set
`deck.decks` or `deck.decks_per_player`. The same classes give the
[JSON Schema](json-schema.md) for editors.

**Applies to.** Each key names the engines that read it: the canasta kernel (packs without
`melds.kinds`), the table-melds kernel (packs with `melds.kinds`) and the Houses engine
(`plugin: houses`). A pack that sets a key its engine does not read is refused at the key's
`file:line:col`, saying which engine reads it; writing the value that says what the engine
does anyway (`cards.bonus: []` in a gin pack) is accepted. **Needs** names what else must be
set for the key to have an effect. A key is never accepted and ignored
([validating](validating.md#every-key-is-read)).

**Card selectors.** Where a key lists cards (`cards.wild`, `pile.blocked_by`, the keys of
`cards.values`…), a rank code (`A`, `2` … `10`, `J`, `Q`, `K`, and `JK` for the joker)
names every card of that rank, and a card code (`3H`, `10D`) names one kind. Quote the
ranks that look like numbers: `"2"`, `"10"`.

**YAML.** Packs are read as YAML 1.2: `yes`, `no`, `on` and `off` are text, not booleans
(write `true` and `false`), and `"15"` in quotes is text, not a number.
"""


def _key_section(key: PackKey) -> list[str]:
    source = f" ({key.example_source})" if key.example_source else ""
    return [
        f"### `{key.path}` {{ #{key.anchor} }}",
        "",
        f"**Type:** {key.type_text} · **Default:** `{inline_yaml(key.default)}`",
        "",
        f"**Applies to:** {key.applies_to}"
        + (f" · **Needs:** {key.needs}" if key.needs else ""),
        "",
        key.doc,
        "",
        f'```yaml title="Example{source}"',
        _example_yaml(key),
        "```",
        "",
    ]


def keys_matching(keys: list[PackKey], phrase: str) -> list[PackKey]:
    """The keys whose dotted path or meaning holds ``phrase``, in any case and whatever
    the spacing and line breaks.

    >>> [k.path for k in keys_matching(pack_keys(), "one more  TURN")]
    ['going_out.last_turns']
    """
    wanted = " ".join(phrase.lower().split())
    return [k for k in keys if wanted in " ".join(f"{k.path} {k.doc}".lower().split())]


def reference_markdown() -> str:
    """The "Rule pack reference" page: every key with its type, default, meaning and an
    example, section by section, each key under a heading whose id is its dotted path."""
    keys = pack_keys()
    by_path = {key.path: key for key in keys}
    out = [
        _INTRO,
        '??? example "Every key at its default"',
        "",
        '    ```yaml title="defaults.yaml"',
    ]
    out += [f"    {line}" if line else "" for line in defaults_yaml().splitlines()]
    out += ["    ```", "", "## Top level { #top-level }", "", _class_doc(RulePackSpec), ""]
    for key in keys:
        if "." not in key.path and not attrs.has(key.type):
            out += _key_section(key)
    for section in keys:
        if "." in section.path or not attrs.has(section.type):
            continue
        out += [f"## `{section.path}` {{ #{section.anchor} }}", "", _class_doc(section.type), ""]
        owner = section.type
        for key in keys:
            if not key.path.startswith(section.path + "."):
                continue
            if key.owner is not owner and "[]" in key.path:
                items = key.path.rpartition("[]")[0]
                out += [f"**Items of `{items}`.** {_class_doc(key.owner)}", ""]
            elif key.owner is not owner and _is_optional(by_path.get(
                    key.path.rpartition(".")[0], key).type)[0]:  # a mapping that may be null
                out += [f"**Keys of `{key.path.rpartition('.')[0]}`.** "
                        f"{_class_doc(key.owner)}", ""]
            owner = key.owner
            out += _key_section(key)
    return "\n".join(out)
