"""How long a game may go on without progress — a leaf, so that the engines read it without
importing the loader's limits (and ruamel.yaml) on ``import meldkit``.  The loader's
:mod:`meldkit._pack_limits` re-exports it."""

from __future__ import annotations

NO_PROGRESS_HANDS = 10
"""Hands in a row that may end idle — on an empty stock or with no legal move, with no card
melded and nobody going out — before the game ends with ``ended_by: no_progress`` (the last
hand's record).  A game of a bundled pack never has two idle hands in a row (random and
greedy self-play, every pack); a pack whose stock is too small for anyone to meld has
nothing else in every hand, and without this bound would play on for ever with its scores
falling (issue 19).  The streak is counted from the hand records, so a save needs no field
for it."""

IDLE_ENDINGS = frozenset({"stock_empty", "no_legal_move", "no_progress"})
"""The hand endings that count towards :data:`NO_PROGRESS_HANDS` when no card was melded
(``no_progress`` is the last such hand, relabelled)."""

MAX_HANDS_WITHOUT_GAIN = 1_000
"""Hands in a row in which the leading total reaches no new high, after which a game that
plays to ``game.target`` ends with ``ended_by: no_progress`` at the next hand nobody goes
out of: its totals are not moving towards the target (a pack whose sides lose more each
hand than they gain; a gin pack in which nobody can ever knock, so every hand ends at the
wall).  Far above what play shows: in self-play of the bundled packs the longest such run
is 4 hands for greedy and random bots, except random gin, which knocks so rarely that runs
of 600 wall hands occur (about 1 hand in 50 scores, so a run of 1,000 has odds below
1 in 10^8)."""


def no_progress(results, idle) -> bool:
    """Whether a game has stopped making progress, judged from its finished hands
    ``results`` (records with ``ended_by``, ``went_out`` and ``totals``, and ``sheets``
    where the pack keeps score sheets): the last :data:`NO_PROGRESS_HANDS` all idle
    (``idle(record)``: the engine says whether the hand changed anything), or
    :data:`MAX_HANDS_WITHOUT_GAIN` hands since the leading game total last reached a new
    high (with sheets, the sum of what the sheets counted: a sheet that has ended counts
    nothing more).  Engines call it when a hand ends, whoever went out (a game whose hands
    all go out may still never reach its target); it is a pure function of the records, so
    a loaded save is judged the same way.

    >>> from types import SimpleNamespace as Hand
    >>> idle = Hand(ended_by="stock_empty", went_out=None, totals=(-50, -40))
    >>> no_progress([idle] * (NO_PROGRESS_HANDS - 1), lambda h: True)
    False
    >>> no_progress([idle] * NO_PROGRESS_HANDS, lambda h: True)
    True
    >>> no_progress([idle] * MAX_HANDS_WITHOUT_GAIN, lambda h: False)
    True
    """
    if len(results) >= NO_PROGRESS_HANDS and all(
            idle(h) for h in results[-NO_PROGRESS_HANDS:]):
        return True
    if len(results) < MAX_HANDS_WITHOUT_GAIN:
        return False
    totals = [0] * len(_gain(results[0]))
    peak, since = 0, 0
    for h in results:
        for t, v in enumerate(_gain(h)):
            totals[t] += v
        if max(totals) > peak:
            peak, since = max(totals), 0
        else:
            since += 1
    return since >= MAX_HANDS_WITHOUT_GAIN


def _gain(h) -> tuple[int, ...]:
    """What a finished hand added to each side's game total: what its score sheets counted
    (bonuses included) where the pack keeps sheets, else its totals."""
    sheets = getattr(h, "sheets", ())
    if not sheets:
        return h.totals
    return tuple(map(sum, zip(*(e.totals for e in sheets))))
