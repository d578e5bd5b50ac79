"""Refusals of the library's own arguments out of kind or range, each a
:class:`~meldkit.SetupError` naming the owner, the argument and what was expected: the
bots' settings, ``simulate``'s and ``run_tournament``'s, a seat asked about, and an
action id (an :class:`~meldkit.IllegalActionError`).

>>> from meldkit._checks import check
>>> check("PIMCBot", "window", -1, "int", least=0)
Traceback (most recent call last):
...
meldkit._errors.SetupError: PIMCBot: window must be a whole number >= 0, not -1
>>> check("PIMCBot", "time_limit", None, "float", above=0, optional=True)
"""

from __future__ import annotations

import math

from ._errors import IllegalActionError, SetupError, quoted

_WORDS = {"int": "a whole number", "float": "a number", "bool": "True or False"}


def check(owner: str, name: str, value, kind: str, *, least: float | None = None,
          above: float | None = None, most: float | None = None,
          optional: bool = False) -> None:
    """Refuse ``value`` unless it is of ``kind`` (``"int"``, ``"float"``: an int or a
    finite float, ``"bool"``; never a bool for a number) within the bounds (``least`` and
    ``most`` inclusive, ``above`` exclusive), or None when ``optional``; the
    :class:`~meldkit.SetupError` names ``owner``, ``name`` and what was expected."""
    if value is None and optional:
        return
    if kind == "bool":
        ok = type(value) is bool
    elif kind == "int":
        ok = type(value) is int
    else:
        ok = type(value) in (int, float) and math.isfinite(value)
    if ok and kind != "bool":
        ok = ((least is None or value >= least) and (above is None or value > above)
              and (most is None or value <= most))
    if ok:
        return
    bounds = [f"{op} {b}" for op, b in ((">=", least), (">", above), ("<=", most))
              if b is not None and kind != "bool"]
    want = " ".join([_WORDS[kind], " and ".join(bounds)]).strip()
    if optional:
        want += " or None"
    raise SetupError(f"{owner}: {name} must be {want}, not {quoted(value)}")


def check_seat(player, n_players: int) -> None:
    """Refuse ``player`` unless it is a seat ``0 .. n_players - 1`` (an int, never a
    bool), with a :class:`~meldkit.SetupError` naming what was given.

    >>> check_seat(True, 2)
    Traceback (most recent call last):
    ...
    meldkit._errors.SetupError: player must be a seat 0..1, not True
    """
    if type(player) is not int or not 0 <= player < n_players:
        raise SetupError(f"player must be a seat 0..{n_players - 1}, not {quoted(player)}")


def is_bool(value) -> bool:
    """True for a bool, Python's or numpy's (``numpy.bool_`` has no ``__index__``)."""
    return isinstance(value, bool) or (type(value).__module__ == "numpy"
                                       and type(value).__name__ in ("bool", "bool_"))


def action_id(value) -> int:
    """``value`` as an action id (an int, or an object with ``__index__``, such as a numpy
    integer); a bool, no ``__index__``, or an ``__index__`` that raises or gives no int,
    is an :class:`~meldkit.IllegalActionError` (``action/bad-id``) naming the input's type.

    >>> action_id(True)
    Traceback (most recent call last):
    ...
    meldkit._errors.IllegalActionError: an action id is an int, not bool [action/bad-id]
    """
    kind = type(value).__name__
    if type(value) is int:
        return value
    index_of = getattr(type(value), "__index__", None)
    if is_bool(value) or index_of is None:
        raise IllegalActionError("action/bad-id", f"an action id is an int, not {kind}")
    try:
        # the method itself, not operator.index: what it gives is checked below, without
        # Python's DeprecationWarning for an int subclass (a bool) on the caller's stderr
        index = index_of(value)
    except Exception as e:  # a foreign __index__ may raise anything
        raise IllegalActionError(
            "action/bad-id",
            f"an action id is an int, not {kind} (its __index__ raised "
            f"{type(e).__name__}: {str(e)[:60]})") from None
    if type(index) is not int:
        raise IllegalActionError("action/bad-id",
                                 f"an action id is an int, not {kind} (its __index__ gave "
                                 f"{type(index).__name__})")
    return index
