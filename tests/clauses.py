"""Helpers shared by the clause tests of the canasta-family rules of record
(``test_<pack>_rules.py``): card lists from text, ranks of codes, and scripted play.
Refusals are proved with :func:`meldkit.testing.refusal`."""

from __future__ import annotations

import meldkit


def cards(text: str) -> list[str]:
    """``"9H 9S JK"`` as a list of card codes."""
    return text.split()


def rank(code: str) -> str:
    """The rank of a card code (``"10D"`` -> ``"10"``, ``"JK"`` -> ``"JK"``)."""
    return code if code == "JK" else code[:-1]


def play(g: meldkit.GameState, *actions: str) -> None:
    """Apply actions in notation, in order."""
    for a in actions:
        g.apply(a)
