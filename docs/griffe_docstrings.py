"""A griffe extension for the API reference: meldkit's docstrings as Markdown.

meldkit's docstrings are written to be read in the terminal and run as doctests, with
Sphinx-style roles (``:class:`RulePack```) and bare ``>>>`` examples. Markdown would turn
the examples into nested block quotes and print the roles literally, so before
mkdocstrings renders a docstring this extension

* fences every run of ``>>>`` example lines as a ``pycon`` code block, and
* turns a role into a cross-reference when its target is documented on the site (a public
  object with a docstring), and into inline code otherwise.

The docstrings themselves are not changed: ``help()`` and doctest see them as written.
"""

from __future__ import annotations

import re
from typing import Any

import griffe

_ROLE = re.compile(
    r":(?:py:)?(?:class|meth|func|attr|exc|mod|data|obj|const):`(~?)([\w.]+)(?:\(\))?`"
)


def fence_examples(text: str) -> str:
    """Wrap each run of doctest lines (``>>>`` up to the next blank line) in a fence."""
    out: list[str] = []
    in_fence = in_example = False
    for line in text.splitlines():
        stripped = line.strip()
        if in_example and not stripped:
            out.append("```")
            in_example = False
        if stripped.startswith("```"):
            in_fence = not in_fence
        elif not in_fence and not in_example and stripped.startswith(">>>"):
            out.append("```pycon")
            in_example = True
        out.append(line)
    if in_example:
        out.append("```")
    return "\n".join(out)


def _documented(collection: Any, path: str) -> bool:
    """Whether ``path`` is rendered on the site: it exists, every part of it is public, and
    it has a docstring (mkdocstrings leaves undocumented members out)."""
    if any(part.startswith("_") for part in path.split(".")):
        return False
    try:
        obj = collection.get_member(path)
        return bool(obj.has_docstring)
    except Exception:  # noqa: BLE001 - not found, or an alias that does not resolve
        return False


def _public_path(obj: griffe.Object, target: str) -> str | None:
    """The documented path a role's target names, looked up the way Sphinx would: as
    written, in the object's class and module, and as re-exported by ``meldkit``."""
    collection = obj.modules_collection
    name = target.split(".")[-1]
    owner = obj if obj.is_class else obj.parent
    candidates = [target]
    for scope in (owner, obj.module):
        if scope is not None:
            candidates.append(f"{scope.path}.{target}")
    candidates += [f"meldkit.{target}", f"meldkit.{name}"]
    if "." in target:  # "meldkit._errors.PackProblem" is documented as "meldkit.PackProblem"
        head = target.split(".")
        for i in range(1, len(head)):
            candidates.append("meldkit." + ".".join(head[i:]))
    for path in candidates:
        if _documented(collection, path):
            return path
    return None


def markdown_roles(obj: griffe.Object, text: str) -> str:
    """Sphinx roles as Markdown cross-references, or as inline code."""

    def replace(match: re.Match[str]) -> str:
        short, target = match.group(1), match.group(2)
        shown = target.split(".")[-1] if short else target
        path = _public_path(obj, target)
        return f"[`{shown}`][{path}]" if path else f"`{shown}`"

    return _ROLE.sub(replace, text)


class MarkdownDocstrings(griffe.Extension):
    """Rewrites each docstring for Markdown once the object tree is complete."""

    def on_object(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = markdown_roles(obj, fence_examples(obj.docstring.value))

    def on_package(self, *, pkg: griffe.Module, **kwargs: Any) -> None:
        """The top package gets no ``on_object`` event of its own."""
        self.on_object(obj=pkg)
