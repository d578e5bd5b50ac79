"""Terminal drawing for the command line: colours (only on a terminal, never with
``NO_COLOR``), the card table of a player's view, numbered move lists, and a progress bar.

Everything here reads a player's ``view`` (JSON-able data), so it draws what that player
may see and nothing else.

>>> s = Style(False)
>>> s.card("QH"), group_hand(["5S", "QH", "5D", "JK", "2C"], wild={"2", "JK"})
('QH', [('5', ['5D', '5S']), ('Q', ['QH']), ('wild', ['2C', 'JK'])])
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Sequence
from typing import Any, TextIO

from ._cards import RANKS, card_code, kinds_matching, rank_of_kind

_ESC = "\033["


def colour_wanted(stream: TextIO, when: str = "auto") -> bool:
    """Whether to colour ``stream``: ``always``, ``never``, or ``auto`` — only on a
    terminal, and not when the ``NO_COLOR`` environment variable is set (or ``TERM=dumb``)."""
    if when == "always":
        return True
    if when == "never":
        return False
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("TERM") == "dumb":
        return False
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


class Style:
    """ANSI styles, or plain text when disabled."""

    def __init__(self, enabled: bool):
        self.enabled = enabled

    def _sgr(self, code: str, text: str) -> str:
        return f"{_ESC}{code}m{text}{_ESC}0m" if self.enabled and text else text

    def bold(self, text: str) -> str:
        return self._sgr("1", text)

    def dim(self, text: str) -> str:
        return self._sgr("2", text)

    def red(self, text: str) -> str:
        return self._sgr("31", text)

    def green(self, text: str) -> str:
        return self._sgr("32", text)

    def yellow(self, text: str) -> str:
        return self._sgr("33", text)

    def blue(self, text: str) -> str:
        return self._sgr("34", text)

    def magenta(self, text: str) -> str:
        return self._sgr("35", text)

    def cyan(self, text: str) -> str:
        return self._sgr("36", text)

    def card(self, code: str, wild: frozenset[str] | set[str] = frozenset()) -> str:
        """A card code, red for hearts and diamonds, magenta for wild cards."""
        rank = code if code == "JK" else code[:-1]
        if rank in wild:
            return self.magenta(code)
        if code[-1:] in ("H", "D") and code != "JK":
            return self.red(code)
        return code


def _rank_of(code: str) -> str:
    return code if code == "JK" else code[:-1]


def group_hand(hand: Sequence[str], wild: set[str] | frozenset[str] = frozenset(),
               ) -> list[tuple[str, list[str]]]:
    """A hand sorted and grouped by rank (aces first, kings last), wild cards in a last
    group."""
    groups: dict[str, list[str]] = {}
    wilds: list[str] = []
    for code in hand:
        rank = _rank_of(code)
        if rank in wild:
            wilds.append(code)
        else:
            groups.setdefault(rank, []).append(code)
    order = {r: i for i, r in enumerate(RANKS)}
    out = [(r, sorted(groups[r])) for r in sorted(groups, key=lambda r: order.get(r, 99))]
    if wilds:
        out.append(("wild", sorted(wilds, key=lambda c: (order.get(_rank_of(c), 99), c))))
    return out


def _join(parts: Sequence[str], sep: str = "  ") -> str:
    return sep.join(p for p in parts if p)


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def wild_codes(pack) -> frozenset[str]:
    """The ranks of the pack's wild cards, as the hand shows them (``2``, ``JK``)."""
    out = set()
    for sel in pack.spec.cards.wild:
        for k in kinds_matching(sel):
            out.add(RANKS[rank_of_kind(k)])
    return frozenset(out)


def blocked_codes(pack) -> frozenset[str]:
    """The card codes that block the pile when on top (``pile.blocked_by``)."""
    out: set[str] = set()
    for sel in pack.spec.pile.blocked_by or ():
        try:
            out |= {card_code(k) for k in kinds_matching(sel)}
        except ValueError:
            pass
    return frozenset(out)


def render_state(state, player: int, style: Style) -> str:
    """The table as ``player`` sees it in ``state``, as lines of text, drawn by the
    renderer of the state's engine with the roles the pack gives its cards: table melds
    with ids (rummy, gin); a side's melds and books, the pile marked FROZEN or BLOCKED and
    the reserve (the canasta kernel); the view's keys for any other engine (Houses, a
    plugin's)."""
    from ._state import RummyState
    from .kernel.table import TableState

    pack = state.pack
    title = pack.spec.title or pack.name
    view = state.view(player)
    try:
        if isinstance(state, TableState):
            return _render_table_melds(view, style, title)
        if isinstance(state, RummyState):
            reserve = pack.spec.deal.reserve_name if pack.spec.deal.reserve else None
            return _render_rummy(view, style, title, wild_codes(pack), reserve,
                                 blocked_codes(pack), pack.spec.pile.frozen_until_melded)
    except (KeyError, TypeError, IndexError):  # a view this renderer does not read
        pass
    return _render_generic(view, style, title)


_SUIT_NAMES = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}


def _render_table_melds(view: dict[str, Any], style: Style, title: str) -> str:
    """A table-meld game (rummy, gin) as its player sees it: the melds on the table with
    their ids, the pile, the stock, the other hands' sizes, and one's hand by suit."""
    you = view["player"]
    lines = [style.bold(title) if title else "",
             f"hand {view['hand_number']} · phase {view['phase']} · scores "
             + ", ".join(f"{'you' if p == you else f'seat {p}'} {s}"
                         for p, s in enumerate(view["scores"]))]
    if view.get("knock_value") is not None:
        lines.append(f"knock with {view['knock_value']} or less"
                     + (f" · seat {view['knocker']} knocked" if view.get("knocker") is not None
                        else ""))
    melds = view["melds"]
    lines.append("melds: " + ("none" if not melds else ""))
    for m in melds:
        who = "you" if m["owner"] == you else f"seat {m['owner']}"
        shown = " ".join(style.card(c) for c in m["cards"])
        lines.append(f"  {m['id']:<4} {m['kind']:<4} ({who}) [{shown}]")
    pile = view["pile"]["cards"]  # face up, bottom first
    top = style.card(pile[-1]) if pile else "empty"
    lines.append(f"pile: {top}" + (f" (and {_plural(len(pile) - 1, 'card')} below: "
                                   + " ".join(pile[:-1][-8:]) + ")" if len(pile) > 1 else ""))
    lines.append(f"stock: {_plural(view['stock'], 'card')} · others hold: " + ", ".join(
        f"seat {p}: {n}" for p, n in enumerate(view["hand_sizes"]) if p != you))
    by_suit: dict[str, list[str]] = {}
    for c in view["hand"]:
        by_suit.setdefault(c[-1], []).append(c)
    lines.append("your hand: " + _join([" ".join(style.card(c) for c in cards)
                                        for _, cards in sorted(by_suit.items())], "   ")
                 + f"   (deadwood {view['deadwood']})")
    return "\n".join(line for line in lines if line != "") + "\n"


def _render_generic(view: dict[str, Any], style: Style, title: str) -> str:
    """Any engine's view, key by key (for engines whose view is not the rummy kernel's)."""
    lines = [style.bold(title)] if title else []
    for key, value in view.items():
        if key == "legal_actions":
            continue
        if isinstance(value, list) and value and isinstance(value[0], dict):
            lines.append(f"{key}:")
            for item in value:
                lines.append("  " + ", ".join(f"{k}: {v}" for k, v in item.items()))
        else:
            lines.append(f"{key}: {value}")
    return "\n".join(lines) + "\n"


def _meld_text(m: dict[str, Any], style: Style, wild) -> str:
    rank = m["rank"]
    cards = m["cards"]
    if rank == "run":  # a suited sequence, named as actions name it
        name = f"sequence {m['sequence']}"
    else:
        name = "wild" if rank == "wild" else f"{rank}s"
    head = f"{name} ×{len(cards)}"
    if m.get("book"):
        head = style.bold(f"{m['book']} book of {name}") + f" ×{len(cards)}"
        if m.get("closed"):
            head += " (closed)"
    elif m.get("pending"):
        head += style.yellow(" (pending)")
    shown = " ".join(style.card(c, wild) for c in cards)
    return f"{head} [{shown}]"


def _render_rummy(view: dict[str, Any], style: Style, title: str, wild,
                  reserve_name: str | None, blocked=frozenset(),
                  frozen_until_melded: bool = False) -> str:
    """A canasta-kernel game; ``reserve_name`` None: the game has no reserve."""
    you = view["you"]
    your_team = view["team"]
    players = view["players"]
    teams = view["teams"]
    lines: list[str] = []
    head = title or view.get("pack", "")
    bits = [f"hand {view['hand_number']}"]
    if view.get("dealer") is not None:
        bits.append(f"dealer: seat {view['dealer']}")
    if view.get("current_player") is not None:
        cp = view["current_player"]
        bits.append(f"to play: seat {cp}" + (" (you)" if cp == you else "")
                    + f", {view['phase']} phase")
    lines.append(style.bold(f"── {head} ── " + " · ".join(bits)))
    # scores
    parts = []
    for t in teams:
        seats = ", ".join(str(p) for p in t["players"])
        label = f"team {t['team']} (seat{'s' if len(t['players']) != 1 else ''} {seats})"
        if t["team"] == your_team:
            label = style.green(label + " ← you")
        parts.append(f"{label}: {t['score']:,}")
    lines.append("Scores: " + " · ".join(parts))
    # each team's table
    for t in sorted(teams, key=lambda t: t["team"] != your_team):
        seats = [p for p in players if p["team"] == t["team"]]
        status = "melded" if t["melded"] else f"not melded yet (minimum {t['minimum']})"
        label = f"Team {t['team']}"
        if t["team"] == your_team:
            label = style.green(label + " (yours)")
        lines.append(f"{style.bold(label)} — {status}")
        books = [m for m in t["melds"] if m.get("book")]
        melds = [m for m in t["melds"] if not m.get("book")]
        if books:
            lines.append(f"  books ({len(books)}):")
            for m in books:
                lines.append("    " + _meld_text(m, style, wild))
        if melds:
            lines.append("  melds:")
            for m in melds:
                lines.append("    " + _meld_text(m, style, wild))
        if not books and not melds:
            lines.append(style.dim("  no melds"))
        for p in seats:
            bits = []
            who = f"seat {p['seat']}" + (" (you)" if p["seat"] == you else "")
            bits.append(_plural(p["hand_size"], "card"))
            if reserve_name and (p.get("reserve_size") or p.get("reserve_picked_up") is not None):
                if p.get("reserve_picked_up"):
                    bits.append(f"{reserve_name} picked up")
                elif p.get("reserve_size"):
                    bits.append(f"{reserve_name} of {p['reserve_size']} down")
            if p.get("bonus"):
                bits.append("bonus: " + " ".join(style.card(c) for c in p["bonus"]))
            if p.get("out"):
                bits.append(style.dim("out of the hand"))
            lines.append(f"  {who}: " + ", ".join(bits))
    # pile and stock
    pile = view["pile"]
    if pile["top"]:
        frozen = style.cyan(" FROZEN") if pile["frozen"] else ""
        if not pile["frozen"] and frozen_until_melded and not any(
                t["melded"] for t in teams if t["team"] == your_team):
            frozen = style.cyan(" FROZEN for your side until it melds")
        if pile["top"] in blocked:
            frozen += style.cyan(f" BLOCKED (a {pile['top']} on top: it cannot be taken)")
        lines.append(f"Pile: {style.card(pile['top'], wild)} on top, "
                     f"{_plural(pile['size'], 'card')}{frozen}   ·   Stock: "
                     f"{_plural(view['stock_size'], 'card')}")
    else:
        frozen = style.cyan(" (frozen)") if pile["frozen"] else ""
        lines.append(f"Pile: empty{frozen}   ·   Stock: {_plural(view['stock_size'], 'card')}")
    # the viewer's own hand
    hand = view["hand"]
    lines.append(style.bold(f"Your hand (seat {you}, {_plural(len(hand), 'card')}):"))
    groups = group_hand(hand, wild)
    if groups:
        row: list[str] = []
        width = 0
        for rank, cards in groups:
            cell = f"{rank}: " + " ".join(style.card(c, wild) for c in cards)
            plain = len(rank) + 2 + sum(len(c) + 1 for c in cards)
            if row and width + plain > 76:
                lines.append("  " + "   ".join(row))
                row, width = [], 0
            row.append(cell)
            width += plain + 3
        if row:
            lines.append("  " + "   ".join(row))
    else:
        lines.append(style.dim("  (empty)"))
    return "\n".join(lines) + "\n"


def render_moves(moves: Sequence[str], style: Style, width: int = 78) -> str:
    """Moves numbered from 1, in columns."""
    if not moves:
        return ""
    cells = [f"{i:>3}  {m}" for i, m in enumerate(moves, 1)]
    col = max(len(c) for c in cells) + 2
    per_row = max(1, width // col)
    rows = (len(cells) + per_row - 1) // per_row
    lines = []
    for r in range(rows):
        row = [cells[r + c * rows] for c in range(per_row) if r + c * rows < len(cells)]
        lines.append("".join(c.ljust(col) for c in row).rstrip())
    return "\n".join(lines) + "\n"


class Progress:
    """A one-line progress bar on a terminal stream (nothing when it is not a terminal)."""

    def __init__(self, total: int, label: str = "games", stream: TextIO | None = None,
                 enabled: bool | None = None, width: int = 30):
        self.stream = stream or sys.stderr
        if enabled is None:
            try:
                enabled = self.stream.isatty()
            except (AttributeError, ValueError):
                enabled = False
        self.enabled = enabled
        self.total = max(total, 1)
        self.label = label
        self.width = width
        self.start = time.monotonic()
        self._last = 0.0
        self._drawn = False

    def line(self, done: int, now: float) -> str:
        """The text of the bar: done of total, elapsed time and time left."""
        frac = min(done / self.total, 1.0)
        fill = int(frac * self.width)
        elapsed = now - self.start
        eta = ""
        if 0 < done < self.total:
            eta = f"  ETA {elapsed * (self.total - done) / done:.0f} s"
        bar = "█" * fill + "░" * (self.width - fill)
        return f"{bar} {done}/{self.total} {self.label}  {elapsed:.1f} s{eta}"

    def update(self, done: int, total: int | None = None) -> None:
        if not self.enabled:
            return
        if total:
            self.total = total
        now = time.monotonic()
        if done < self.total and now - self._last < 0.1:
            return
        self._last = now
        self.stream.write("\r" + self.line(done, now) + "\033[K")
        self.stream.flush()
        self._drawn = True

    def clear(self) -> None:
        """Take the bar off its line (before other output to the same terminal); the next
        :meth:`update` draws it again."""
        if self.enabled and self._drawn:
            self.stream.write("\r\033[K")
            self.stream.flush()
            self._last = 0.0

    def close(self) -> None:
        if self.enabled and self._drawn:
            self.stream.write("\n")
            self.stream.flush()
