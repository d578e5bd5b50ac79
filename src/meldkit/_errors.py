"""The exception hierarchy.  Every error also subclasses a built-in so callers may catch
either (``except ValueError`` keeps working)."""

from __future__ import annotations

import attrs


class MeldkitError(Exception):
    """Base class of every error meldkit raises on purpose."""


@attrs.frozen
class PackProblem:
    """One problem found in a rule pack: where, which key, what was wrong, what was expected."""

    file: str
    line: int | None
    col: int | None
    path: str
    message: str
    suggestion: str | None = None

    def __str__(self) -> str:
        where = self.file
        if self.line is not None:
            where += f":{self.line}"
            if self.col is not None:
                where += f":{self.col}"
        key = f" {self.path}:" if self.path else ""
        hint = f" (did you mean {self.suggestion!r}?)" if self.suggestion else ""
        return f"{where}:{key} {self.message}{hint}"


class RulePackError(MeldkitError, ValueError):
    """A rule pack could not be loaded.  ``problems`` lists every problem found, each with
    ``file:line:col``, the key path, the bad value and what was expected."""

    def __init__(self, problems: list[PackProblem] | str):
        if isinstance(problems, str):
            problems = [PackProblem("<pack>", None, None, "", problems)]
        self.problems = list(problems)
        n = len(self.problems)
        head = f"{n} problem{'s' if n != 1 else ''} in rule pack"
        super().__init__(head + ":\n" + "\n".join(f"  {p}" for p in self.problems))

    def __reduce__(self):  # picklable with its problems (errors cross process pools)
        return (type(self), (self.problems,))


class PluginError(RulePackError):
    """A plugin named by a pack is missing or does not provide what the hook requires.

    Raised while loading a pack it lists the pack's problems like a
    :class:`RulePackError`; raised on its own (``get_plugin``, ``validate_plugin``) its
    message is the one sentence."""

    def __init__(self, problems: list[PackProblem] | str):
        if isinstance(problems, str):
            self.problems = [PackProblem("<plugin>", None, None, "", problems)]
            self._sentence: str | None = problems
            Exception.__init__(self, problems)
        else:
            self._sentence = None
            super().__init__(problems)

    def __reduce__(self):
        return (type(self), (self._sentence if self._sentence is not None else self.problems,))


class IllegalActionError(MeldkitError, ValueError):
    """An action was refused.  ``code`` is stable (``pile/frozen-needs-pair``); ``reason``
    is a sentence a player understands.  The state is unchanged."""

    def __init__(self, code: str, reason: str, action: object = None):
        self.code = code
        self.reason = reason
        self.action = action
        what = f"{action}: " if action is not None else ""
        super().__init__(f"{what}{reason} [{code}]")

    def __reduce__(self):  # picklable: an error raised in a worker process reaches the pool
        return (type(self), (self.code, self.reason, self.action))


class NotationError(IllegalActionError):
    """Action text that does not parse."""


class SaveError(MeldkitError, ValueError):
    """A saved game could not be loaded: not JSON, not a save, damaged or tampered with
    (the message names the field, e.g. ``hands[2][5]``), or made with another version of
    the pack."""


class SetupError(MeldkitError, ValueError):
    """A game could not be set up (player count, options, stacked deck)."""


class StuckGameError(MeldkitError, RuntimeError):
    """A game could not be played to its end, and ``code`` names why:

    * ``"dead-end"`` — a position that is not over offers its player no legal action;
    * ``"action-limit"`` — the game did not end within the action budget (a pack whose
      games cannot end, e.g. one where no side can ever reach ``game.target``).

    Raised by :func:`meldkit.bots.play_game` (and recorded as an unfinished game by
    ``simulate``), never a bare ``RuntimeError``.

    >>> StuckGameError("action-limit", "no end within 10 actions").code
    'action-limit'
    """

    def __init__(self, code: str, reason: str):
        self.code = code
        self.reason = reason
        super().__init__(reason)

    def __reduce__(self):  # picklable: raised inside simulate's worker processes
        return (type(self), (self.code, self.reason))
