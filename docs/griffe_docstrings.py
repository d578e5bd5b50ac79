"""A griffe extension for the API reference: meldkit's docstrings as Markdown.

meldkit's docstrings are written to be read in the terminal and run as doctests, with
Sphinx-style roles (``:class:`RulePack```) and bare ``>>>`` examples. Markdown would turn
the examples into nested block quotes and print the roles literally, so before
mkdocstrings renders a docstring this extension

* fences every run of ``>>>`` example lines as a ``pycon`` code block, and
* turns a role into a cross-reference when its target is documented on the site (a public
  object with a docstring), and into inline code otherwise, and
* puts the whole first sentence on the first line: mkdocstrings' summary tables show a
  member's first *line*, and docstrings wrapped at 92 columns would be cut mid-sentence
  there (the paragraph renders the same: Markdown joins its lines).

It also orders the members of the top package and of the game state in the order of the
play loop (``new_game`` → ``legal_actions`` → ``check`` → ``apply`` → ``view`` → saves →
game AI), as their ``exports``: the ``meldkit`` page sorts by ``members_order: [__all__,
source]``, so the source order of the files (which the code's own layout decides) is left
as it is.

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


_NOT_AN_END = ("e.g.", "i.e.", "etc.", "vs.", "cf.", "no.")


def _first_sentence_end(text: str) -> int | None:
    """The index just after the first sentence of ``text`` (outside brackets and inline
    code), or None when the whole text is one sentence."""
    depth, code = 0, False
    for i, char in enumerate(text):
        if char == "`":
            code = not code
        elif code:
            continue
        elif char in "([{":
            depth += 1
        elif char in ")]}":
            depth = max(0, depth - 1)
        elif char in ".!?" and depth == 0:
            rest = text[i + 1 :]
            if not rest.strip():
                return None
            if rest[0] == " " and rest.lstrip()[:1].isupper():
                word = text[: i + 1].rsplit(" ", 1)[-1].lower()
                if word not in _NOT_AN_END:
                    return i + 1
    return None


def whole_summary(text: str) -> str:
    """``text`` with its first paragraph re-wrapped so that its first line is its whole
    first sentence (and the rest of the paragraph the next line)."""
    lines = text.splitlines()
    end = next((i for i, line in enumerate(lines) if not line.strip()), len(lines))
    para = lines[:end]
    if len(para) < 2 or any(
        line.lstrip().startswith((">>>", "```", "- ", "* ")) or line.rstrip().endswith(":")
        for line in para
    ):
        return text
    joined = " ".join(line.strip() for line in para)
    cut = _first_sentence_end(joined)
    head = [joined] if cut is None else [joined[:cut], joined[cut:].strip()]
    return "\n".join(head + lines[end:])


PLAY_LOOP = (
    # a game: start it, ask what is legal, check, apply, look
    "new_game", "load_pack", "load_pack_text", "available_packs", "check_pack",
    "GameState", "legal_actions", "check", "is_legal", "apply", "parse_action", "view",
    "current_player", "phase", "is_over", "winner", "scores", "team_players",
    "last_hand", "hand_results", "history", "pack_name",
    # saves and search
    "to_json", "from_json", "clone", "undo", "returns", "player_returns",
    # game AI
    "action_space", "legal_mask", "legal_ids", "observation", "observation_spec",
    "information_state", "public_history", "resample", "max_game_length",
    # what the engines add, the records, the values
    "KernelState", "Action", "Reason", "RulePack", "Rules", "HandResult", "HandFinal",
    "TeamScore", "score_hand", "card_code", "kind_of_code", "RANKS", "SUITS",
    "Plugin", "ActionHook",
)
"""The reading order of the ``meldkit`` page and of the game-state classes: the names
listed come first, in this order, the others after them in source order."""

ORDERED = ("meldkit", "meldkit._game.GameState", "meldkit.kernel.state.KernelState")
"""The objects whose members are put in :data:`PLAY_LOOP` order."""


def play_loop_order(obj: griffe.Object) -> list[str]:
    """The names of ``obj``'s members: :data:`PLAY_LOOP` first, the rest as they are."""
    if obj.is_module and obj.exports is not None:
        names = [str(name) for name in obj.exports]
    else:
        names = list(obj.members)
    first = [name for name in PLAY_LOOP if name in names]
    return first + [name for name in names if name not in first]


class MarkdownDocstrings(griffe.Extension):
    """Rewrites each docstring for Markdown once the object tree is complete."""

    def on_object(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        if obj.docstring is not None:
            text = whole_summary(obj.docstring.value)
            obj.docstring.value = markdown_roles(obj, fence_examples(text))

    def on_package(self, *, pkg: griffe.Module, **kwargs: Any) -> None:
        """The top package gets no ``on_object`` event of its own; its members and the
        game state's are put in play-loop order."""
        self.on_object(obj=pkg)
        for path in ORDERED:
            try:
                obj = pkg.modules_collection.get_member(path)
            except KeyError:
                continue
            obj.exports = play_loop_order(obj)
