"""The exception hierarchy.  Every error also subclasses a built-in so callers may catch
either (``except ValueError`` keeps working)."""

from __future__ import annotations

import reprlib

import attrs


class MeldkitError(Exception):
    """Base class of every error meldkit raises on purpose.

    Catch it to catch them all; each also subclasses a built-in (most ``ValueError``).

    >>> import meldkit
    >>> try:
    ...     meldkit.new_game("pony_tail", players=3)
    ... except meldkit.MeldkitError as e:
    ...     print(type(e).__name__, "-", e)
    SetupError - pony_tail is played by 4 to 6 players, not 3
    """


SHOWN_CHARS = 60
"""The most characters of a value given by the caller (an action, a seat, a pack name) that
a message repeats: a server logs messages, and what it was given may be untrusted text of
any length (the error keeps the whole, as ``action`` for example)."""


_REPR = reprlib.Repr()
_REPR.maxstring = SHOWN_CHARS  # a string in a container: its ends, cut in the middle
_REPR.maxother = SHOWN_CHARS  # anything else: int, float, objects

SHOWN_PATH_CHARS = 200
"""The most characters of a file's name that a problem's location repeats (its end)."""

SHOWN_PROBLEMS = 50
"""The most problems a :class:`RulePackError`'s message lists (its ``problems`` keeps them
all): a pack of thousands of bad keys makes a message a server can still log."""


def cut(text: str) -> str:
    """``text`` as a message repeats it: at most :data:`SHOWN_CHARS` characters.

    >>> cut("discard 9")
    'discard 9'
    >>> cut("x" * 1000)
    'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…'
    """
    return text if len(text) <= SHOWN_CHARS else text[: SHOWN_CHARS - 1] + "…"


def cut_path(path: str) -> str:
    """A key path as a message shows it: each of its dotted steps cut as :func:`cut` cuts
    (a pack's own keys may be of any length; the schema's are short).

    >>> cut_path("players.mx"), len(cut_path("game." + "k" * 1000))
    ('players.mx', 65)
    """
    if len(path) <= SHOWN_CHARS:
        return path
    return ".".join(map(cut, path.split(".")))


def quoted(value: object) -> str:
    """``repr(value)``, cut as :func:`cut` cuts; a container's repr is bounded while it is
    built (a few items a level, a few levels), so a huge or deeply nested value costs
    little and never exhausts the recursion limit.

    >>> quoted("2"), quoted(True), quoted([[[[[[[1]]]]]]]), quoted(list(range(100)))
    ("'2'", 'True', '[[[[[[...]]]]]]', '[0, 1, 2, 3, 4, 5, ...]')
    >>> quoted(10**50), quoted(10**5000)
    ('100000000000000000...0000000000000000000', 'a number of about 5,000 digits')
    """
    if isinstance(value, str):
        return cut(repr(value))
    if isinstance(value, int) and value.bit_length() > 13_000:  # past Python's 4,300 digits
        return f"a number of about {int(value.bit_length() * 0.30103):,} digits"
    return cut(_REPR.repr(value))


@attrs.frozen
class PackProblem:
    """One problem found in a rule pack: where, which key, what was wrong, what was expected.

    >>> import meldkit
    >>> try:
    ...     meldkit.load_pack_text("extends: pony_tail\\nplayers:\\n  mx: 6\\n",
    ...                            filename="house.yaml")
    ... except meldkit.RulePackError as e:
    ...     problem = e.problems[0]
    >>> problem.file, problem.line, problem.col, problem.path, problem.suggestion
    ('house.yaml', 3, 3, 'players.mx', 'max')
    >>> print(problem)
    house.yaml:3:3: players.mx: unknown key (did you mean 'max'?)
    """

    file: str
    line: int | None
    col: int | None
    path: str
    message: str
    suggestion: str | None = None

    def __str__(self) -> str:
        where = self.file  # a long name keeps its end, where the file's own name is
        if len(where) > SHOWN_PATH_CHARS:
            where = "…" + where[1 - SHOWN_PATH_CHARS:]
        if self.line is not None:
            where += f":{self.line}"
            if self.col is not None:
                where += f":{self.col}"
        key = f" {self.path}:" if self.path else ""
        hint = f" (did you mean {self.suggestion!r}?)" if self.suggestion else ""
        return f"{where}:{key} {self.message}{hint}"


def problems_message(problems: list[PackProblem], what: str) -> str:
    """``N problems in <what>:`` and a line a problem, the first :data:`SHOWN_PROBLEMS`."""
    n = len(problems)
    shown = [f"  {p}" for p in problems[:SHOWN_PROBLEMS]]
    if n > SHOWN_PROBLEMS:
        shown.append(f"  … and {n - SHOWN_PROBLEMS} more (the error's problems list every one)")
    return f"{n} problem{'s' if n != 1 else ''} in {what}:\n" + "\n".join(shown)


class RulePackError(MeldkitError, ValueError):
    """A rule pack could not be loaded.  ``problems`` lists every problem found, each with
    ``file:line:col``, the key path, the bad value and what was expected.

    >>> import meldkit
    >>> meldkit.load_pack_text("extends: pony_tail\\nplayers:\\n  mx: 6\\n", filename="house.yaml")
    Traceback (most recent call last):
    ...
    meldkit._errors.RulePackError: 1 problem in rule pack:
      house.yaml:3:3: players.mx: unknown key (did you mean 'max'?)
    """

    def __init__(self, problems: list[PackProblem] | str):
        if isinstance(problems, str):
            problems = [PackProblem("<pack>", None, None, "", problems)]
        self.problems = list(problems)
        super().__init__(problems_message(self.problems, "rule pack"))

    def __reduce__(self):  # picklable with its problems (errors cross process pools)
        return (type(self), (self.problems,))


class PluginError(RulePackError):
    """A plugin named by a pack is missing or does not provide what the hook requires.

    Raised while loading a pack it lists the pack's problems like a
    :class:`RulePackError`; raised on its own (``get_plugin``, ``validate_plugin``) its
    message is the one sentence.

    >>> from meldkit.plugins import get_plugin
    >>> get_plugin("nosuch")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    meldkit._errors.PluginError: this pack needs the plugin 'nosuch', which is not installed: install it with `pip install meldkit-nosuch` (installed plugins: ...)
    """

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
    is a sentence a player understands.  The state is unchanged.

    >>> import meldkit
    >>> game = meldkit.new_game("pony_tail", players=4, seed=7)
    >>> try:
    ...     game.apply("discard 9")
    ... except meldkit.IllegalActionError as e:
    ...     print(e.code, "-", e.reason, "-", e.action)
    turn/draw-first - draw first: from the stock or the discard pile - discard 9
    """

    def __init__(self, code: str, reason: str, action: object = None):
        self.code = code
        self.reason = reason
        self.action = action
        what = f"{cut(str(action))}: " if action is not None else ""
        super().__init__(f"{what}{reason} [{code}]")

    def __reduce__(self):  # picklable: an error raised in a worker process reaches the pool
        return (type(self), (self.code, self.reason, self.action))


class NotationError(IllegalActionError):
    """Action text that does not parse (an :class:`IllegalActionError` too).

    >>> import meldkit
    >>> game = meldkit.new_game("pony_tail", players=4, seed=7)
    >>> try:
    ...     game.apply("discard 5H")
    ... except meldkit.NotationError as e:
    ...     print(e.code, "-", e.reason)
    notation/bad-card - '5H' is not a rank (expected one of A, 2, 3, 4, 5, 6, 7, 8, 9, 10, J, Q, K, JK); actions name ranks, not suits: write '5'
    """


class SaveError(MeldkitError, ValueError):
    """A saved game could not be loaded: not JSON, not a save, damaged or tampered with
    (the message names the field, e.g. ``hands[2][5]``), or made with another version of
    the pack.

    >>> import meldkit
    >>> meldkit.GameState.from_json("not json")
    Traceback (most recent call last):
    ...
    meldkit._errors.SaveError: not a meldkit save: Expecting value: line 1 column 1 (char 0)
    """


class SetupError(MeldkitError, ValueError):
    """A game could not be set up (player count, options, stacked deck).

    >>> import meldkit
    >>> meldkit.new_game("pony_tail", players=4, options={"first_player": 9})
    Traceback (most recent call last):
    ...
    meldkit._errors.SetupError: option first_player must be a seat 0..3, not 9
    """

    option: str | None = None
    """The game option refused (``first_player``; ``options`` for the whole mapping), or
    None where the refusal is of something else."""

    @classmethod
    def of_option(cls, option: str, message: str) -> SetupError:
        """A refusal of the game option ``option``."""
        err = cls(message)
        err.option = option
        return err


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
