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


def render_state(state, player: int, style: Style, fresh: Sequence[str] = (),
                 fresh_note: str = "new") -> str:
    """The table as ``player`` sees it in ``state``, as lines of text, drawn by the
    renderer of the state's engine with the roles the pack gives its cards: table melds
    with ids (rummy, gin); a side's melds and books, the pile marked FROZEN or BLOCKED and
    the reserve (the canasta kernel); the view's keys for any other engine (Houses, a
    plugin's).  ``fresh`` are the cards just come into the hand (drawn, taken), marked
    with ``*`` and named after it with ``fresh_note`` (``drawn``, ``from the pile``)."""
    pack = state.pack
    title = pack.spec.title or pack.name
    view = state.view(player)
    model = getattr(state, "meld_model", None)
    try:
        if model == "table":
            return _render_table_melds(view, style, title, fresh, fresh_note)
        if model == "rank_slot":
            reserve = pack.spec.deal.reserve_name if pack.spec.deal.reserve else None
            return _render_rummy(view, style, title, wild_codes(pack), reserve,
                                 blocked_codes(pack), pack.spec.pile.frozen_until_melded,
                                 fresh, fresh_note, books_needed(pack, state.n_players))
    except (KeyError, TypeError, IndexError):  # a view this renderer does not read
        pass
    return _render_generic(view, style, title)


PHASE_WORDS = {
    "first_upcard": "the first upcard: take it or pass",
    "draw": "draw phase: draw from the stock or take from the pile",
    "play": "play phase: meld, add to melds, then discard",
    "discard": "discard phase: discard a card",
    "knock": "knock phase: discard, lay down your melds, then done",
    "layoff": "lay-off phase: lay off on the knocker's melds and meld the rest, then done",
    "wall": "the wall: knock with the top discard, or pass (the hand is void)",
    "buy": "buy phase: buy the discard out of turn (with a penalty from the stock), or pass",
    "over": "the game is over",
}
"""Each phase of the two kernels in words, as the table names it."""


def phase_words(phase: str, knock: bool = False) -> str:
    """A phase in words (``first_upcard`` → ``the first upcard: take it or pass``); a
    phase of another engine as it is.

    >>> phase_words("discard", knock=True)
    'discard phase: discard a card, or knock'
    """
    text = PHASE_WORDS.get(phase, f"{phase} phase")
    if phase == "discard" and knock:
        text += ", or knock"
    return text


def is_solo(view: dict[str, Any]) -> bool:
    """Whether every side of the table is one player (no partners): then the table speaks
    of "you" and of the others by seat, never of teams."""
    return all(len(s["seats"]) == 1 for s in view["sides"])


def seat_label(q: int, you: int) -> str:
    """``you``, or ``seat 2``."""
    return "you" if q == you else f"seat {q}"


def _marked(cards: Sequence[str], style: Style, fresh: Sequence[str], wild=frozenset()
            ) -> list[str]:
    """The cards shown, those in ``fresh`` (as many times as they are there) with ``*``."""
    left = list(fresh)
    out = []
    for c in cards:
        if c in left:
            left.remove(c)
            out.append(style.card(c, wild) + style.yellow("*"))
        else:
            out.append(style.card(c, wild))
    return out


def _fresh_in(hand: Sequence[str], fresh: Sequence[str]) -> list[str]:
    left = list(hand)
    out = []
    for c in fresh:
        if c in left:
            left.remove(c)
            out.append(c)
    return out


def books_needed(pack, players: int) -> tuple[tuple[str, ...], int]:
    """``(the required book kinds, the number of books)`` a side needs to go out
    (``going_out.required_books``, ``going_out.min_books`` for this table)."""
    going = pack.spec.going_out
    least = (going.min_books_by_players or {}).get(players, going.min_books) or 0
    return tuple(going.required_books or ()), least


def missing_books(required: Sequence[str], melds: Sequence[dict]) -> list[str]:
    """The required book kinds a side has not made yet (a kind required twice needs
    two books of it).

    >>> missing_books(["sevens", "wild", "red", "black"], [{"book": "red"}, {"book": None}])
    ['sevens', 'wild', 'black']
    """
    made = [m["book"] for m in melds if m.get("book") and not m.get("pending")]
    out = []
    for kind in required:
        if kind in made:
            made.remove(kind)
        else:
            out.append(kind)
    return out


_SUIT_NAMES = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}


def _render_table_melds(view: dict[str, Any], style: Style, title: str,
                        fresh: Sequence[str] = (), fresh_note: str = "new") -> str:
    """A table-meld game (rummy, gin) as its player sees it: the melds on the table with
    their ids, the pile, the stock, the other hands' sizes, and one's hand by suit."""
    you = view["player"]
    solo = is_solo(view)
    knock = view.get("knock_value") is not None

    cp = view.get("current_player")
    rearranging = view.get("rearranging")  # (melds.rearrange, turn.play_or_draw)
    no_pile = rearranging is not None and not view["pile"]["cards"]
    turn = ""
    if cp is not None:
        words = phase_words(view["phase"], knock)
        if no_pile and view["phase"] == "play":
            legal = view.get("legal_actions") or ()
            words = ("play phase: meld, add to melds" + (", break melds up"
                     if any(a.startswith("break") for a in legal) or rearranging["broken"]
                     else "") + ", then done" + (" — or draw" if "draw" in legal else ""))
        turn = f" · to play: {seat_label(cp, you)} — {words}"
    elif view["phase"] == "over":
        turn = " · the game is over"
    lines = [style.bold(title) if title else "",
             f"hand {view['hand_number']}{turn}",
             "scores: " + ", ".join(
                 f"{seat_label(s['seats'][0], you) if solo else 'team ' + str(s['side'])} "
                 f"{s['score']}" for s in view["sides"])]
    if knock:
        k = view.get("knocker")
        lines.append(f"knock with {view['knock_value']} or less"
                     + (f" · {seat_label(k, you)} knocked" if k is not None else ""))
    last = view.get("last_turns")
    if last is not None:  # going_out.last_turns
        lines.append(f"last turns: {seat_label(last['out'], you)} went out · "
                     f"{_plural(last['left'], 'last turn')} to play, this one among them")
    if view.get("wild"):  # this deal's (a schedule's deals, a rank turned: not the pack's)
        turned = (view.get("wild_rank") or {}).get("turned")
        lines.append("wild: " + " ".join(view["wild"])
                     + (f" (turned: {' '.join(turned)})" if turned else ""))
    lines += opening_lines(view, style)
    lines += buying_lines(view, style)
    melds = view["melds"]
    lines.append("melds: none" if not melds else "melds:")
    for m in melds:
        shown = " ".join(style.card(c) for c in m["cards"])
        pending = style.yellow(" (pending)") if m.get("pending") else ""
        book = f" {m['book']} book" if m.get("book") else ""
        lines.append(f"  {m['id']:<4} {m['kind']:<4} ({seat_label(m['owner'], you)}) "
                     f"[{shown}]{book}{pending}")
    if rearranging is not None and rearranging["loose"]:
        lines.append("loose (to lay again this turn, or restore): "
                     + " ".join(style.card(c) for c in rearranging["loose"]))
    pile = view["pile"]["cards"]  # face up, bottom first
    top = style.card(pile[-1]) if pile else "empty"
    if not no_pile:
        below = pile[:-1]  # the eight nearest the top shown, "…" for the rest
        lines.append(f"pile: {top}" + (f" (and {_plural(len(below), 'card')} below: "
                                       + ("… " if len(below) > 8 else "")
                                       + " ".join(below[-8:]) + ")" if below else ""))
    lines.append(f"stock: {_plural(view['stock_size'], 'card')} · " + ", ".join(
        f"{seat_label(s['seat'], you)} holds {_plural(s['hand_size'], 'card')}"
        for s in view["seats"] if s["seat"] != you))
    piles = view.get("reserves") or []
    if piles:  # one a seat, or one a side (fewer piles than seats)
        by_seat = len(piles) == len(view["seats"])
        lines.append("reserve piles: " + ", ".join(
            f"{seat_label(r['holder'], you) if by_seat else 'team ' + str(r['holder'])} "
            + ("taken" if r["taken"] else f"{_plural(r['size'], 'card')} down")
            for r in piles))
    by_suit: dict[str, list[str]] = {}
    for c in view["hand"]:
        by_suit.setdefault(c[-1], []).append(c)
    new = _fresh_in(view["hand"], fresh)
    rows = []
    left = list(new)
    for _, cards in sorted(by_suit.items()):
        mine = [c for c in left if c in cards]
        for c in mine:
            left.remove(c)
        rows.append(" ".join(_marked(cards, style, mine)))
    note = f"; * {fresh_note}: {' '.join(new)}" if new else ""
    lines.append("your hand: " + _join(rows, "   ")
                 + f"   (deadwood {view['deadwood']}{note})")
    return "\n".join(line for line in lines if line != "") + "\n"


def opening_lines(view: dict[str, Any], style: Style) -> list[str]:
    """A table-meld view's opening (its ``contract`` record): what the deal's contract
    asks, what you still have to lay, and who has opened; nothing in a pack without one.

    >>> v = {"player": 0, "current_player": 0, "contract": {"melds": ["set", "run"],
    ...      "needs": ["run"], "minimum": 0, "opened": [False, True, False], "pending": ["m2"]}}
    >>> opening_lines(v, Style(False))
    ['contract: a set and a run · you: pending m2, still to lay a run · opened: seat 1']
    >>> v["contract"]["met"] = [2, 3, 0]    # initial_meld.contracts: each player's own
    >>> opening_lines(v, Style(False))[0].split(" · ")[0::3]
    ['your contract: a set and a run', 'contracts met: you 2, seat 1 3, seat 2 0']
    """
    from .kernel.rulesheet import contract_words

    c = view.get("contract")
    if not c:
        return []
    you = view["player"]
    asks = []
    if c["melds"]:
        asks.append(contract_words(c["melds"]))
    if c["minimum"]:
        asks.append(f"worth {c['minimum']} or more")
    own = c.get("met") is not None  # (initial_meld.contracts: each player's own)
    head = ((("your contract: " if own else "contract: ") if c["melds"] else "opening: ")
            + ", ".join(asks) if asks
            else "opening: the whole hand at once")  # a minimum alone is no contract
    if c["opened"][you]:
        mine = style.green("you have opened")
    else:
        # the view's "needs" is the player to move's: for the others, the whole contract
        need = c["needs"] if view.get("current_player") == you else c["melds"]
        bits = [f"pending {' '.join(c['pending'])}"] if c["pending"] and \
            view.get("current_player") == you else []
        if need:
            bits.append(f"still to lay {contract_words(need)}")
        elif c["melds"] and c["minimum"]:
            bits.append(f"still to reach {c['minimum']}")
        mine = style.yellow("you: " + (", ".join(bits) if bits else "not opened yet"))
    opened = [seat_label(q, you) for q, yes in enumerate(c["opened"]) if yes and q != you]
    met = (" · contracts met: " + ", ".join(f"{seat_label(q, you)} {n}"
                                             for q, n in enumerate(c["met"]))) if own else ""
    return [f"{head} · {mine} · opened: " + (", ".join(opened) if opened else "nobody else")
            + met]


def buying_lines(view: dict[str, Any], style: Style) -> list[str]:
    """A table-meld view's buying out of turn (its ``buying`` record): the discard on offer
    and for whom it waits, and each seat's buys left; nothing in a pack without buying.

    >>> v = {"player": 0, "pile": {"top": "QH"}, "buying": {"limit": 3, "penalty": 1,
    ...      "buys": [1, 3], "offered_for": 1}}
    >>> buying_lines(v, Style(False))
    ['buying: QH is offered before seat 1 draws (+1 penalty card) · buys left: you 2, seat 1 0']
    """
    b = view.get("buying")
    if not b:
        return []
    you = view["player"]
    left = ", ".join(f"{seat_label(q, you)} {b['limit'] - n}" for q, n in enumerate(b["buys"]))
    head = f"buying ({_plural(b['limit'], 'buy')} a deal, +{_plural(b['penalty'], 'penalty card')})"
    if b["offered_for"] is not None and view["pile"].get("top"):
        head = style.cyan(f"buying: {view['pile']['top']} is offered before "
                          f"{seat_label(b['offered_for'], you)} "
                          f"{'draw' if b['offered_for'] == you else 'draws'} "
                          f"(+{_plural(b['penalty'], 'penalty card')})")
    return [f"{head} · buys left: {left}"]


def _render_generic(view: dict[str, Any], style: Style, title: str) -> str:
    """Any engine's view: its core (the hand, the melds, the sides, whose turn) in words,
    then the engine's own keys, key by key (for engines whose view is neither kernel's)."""
    lines = [style.bold(title)] if title else []
    core = ("pack", "player", "team", "hand_number", "phase", "current_player", "dealer",
            "hand", "seats", "sides", "melds", "stock_size", "pile", "knock", "deadwood",
            "legal_actions")
    try:
        you = view["player"]
        cp = view.get("current_player")
        turn = (f" · to play: {seat_label(cp, you)} — {phase_words(view['phase'])}"
                if cp is not None else "")
        lines.append(f"hand {view['hand_number']}{turn}")
        lines.append("scores: " + ", ".join(
            f"{'your side' if you in s['seats'] else 'side ' + str(s['side'])} "
            f"(seat{'s' if len(s['seats']) != 1 else ''} "
            f"{', '.join(str(q) for q in s['seats'])}) {s['score']}" for s in view["sides"]))
        melds = view["melds"] or []
        lines.append("melds: none" if not melds else "melds:")
        for m in melds:
            lines.append(f"  {m['id']!s:<4} ({seat_label(m['owner'], you)}) ["
                         + " ".join(style.card(c) for c in m["cards"]) + "]")
        if view.get("stock_size") is not None:
            lines.append(f"stock: {_plural(view['stock_size'], 'card')} · " + ", ".join(
                f"{seat_label(s['seat'], you)} holds {_plural(s['hand_size'], 'card')}"
                for s in view["seats"] if s["seat"] != you))
        lines.append("your hand: " + " ".join(view["hand"] or ()))
    except (KeyError, TypeError, IndexError):  # no core: every key as it is
        core = ("legal_actions",)
    for key, value in view.items():
        if key in core:
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


def pile_mark(pile: dict[str, Any], blocked=frozenset(), frozen_for_you: bool = False) -> str:
    """The one state of the pile that governs taking it: BLOCKED (a card on top that no one
    may take the pile under), else FROZEN, else FROZEN for your side until it melds, else
    nothing.

    >>> pile_mark({"top": "3S", "frozen": True}, {"3S"})
    'BLOCKED: 3S on top, the pile cannot be taken'
    >>> pile_mark({"top": "9H", "frozen": True}, {"3S"})
    'FROZEN: only a natural pair takes it'
    """
    top = pile.get("top")
    if top and top in blocked:
        return f"BLOCKED: {top} on top, the pile cannot be taken"
    if pile.get("frozen"):
        return "FROZEN: only a natural pair takes it" if top else "frozen"
    if frozen_for_you and top:
        return "FROZEN for your side until it melds"
    return ""


def _render_rummy(view: dict[str, Any], style: Style, title: str, wild,
                  reserve_name: str | None, blocked=frozenset(),
                  frozen_until_melded: bool = False, fresh: Sequence[str] = (),
                  fresh_note: str = "new",
                  needed: tuple[tuple[str, ...], int] = ((), 0)) -> str:
    """A canasta-kernel game; ``reserve_name`` None: the game has no reserve; ``needed``
    the books a side needs to go out (:func:`books_needed`)."""
    you = view["you"]
    your_team = view["team"]
    players = view["players"]
    teams = view["teams"]
    solo = is_solo(view)
    lines: list[str] = []
    head = title or view.get("pack", "")
    bits = [f"hand {view['hand_number']}"]
    if view.get("dealer") is not None:
        bits.append(f"dealer: {seat_label(view['dealer'], you)}")
    if view.get("current_player") is not None:
        cp = view["current_player"]
        whose = seat_label(cp, you) if solo else f"seat {cp}" + (" (you)" if cp == you else "")
        bits.append(f"to play: {whose} — {phase_words(view['phase'])}")
    lines.append(style.bold(f"── {head} ── " + " · ".join(bits)))

    def side_name(t: dict[str, Any]) -> str:
        if solo:
            (q,) = t["players"]
            return "you" if q == you else f"seat {q}"
        seats = ", ".join(str(p) for p in t["players"])
        return f"team {t['team']} (seat{'s' if len(t['players']) != 1 else ''} {seats})"

    # scores
    parts = []
    for t in teams:
        label = side_name(t)
        if t["team"] == your_team and not solo:
            label = style.green(label + " ← you")
        elif t["team"] == your_team:
            label = style.green(label)
        parts.append(f"{label}: {t['score']:,}")
    lines.append("Scores: " + " · ".join(parts))
    required, least = needed
    # each side's table
    for t in sorted(teams, key=lambda t: t["team"] != your_team):
        seats = [p for p in players if p["team"] == t["team"]]
        status = "melded" if t["melded"] else f"not melded yet (minimum {t['minimum']})"
        if solo:
            label = "You" if t["team"] == your_team else f"Seat {t['players'][0]}"
        else:
            label = f"Team {t['team']}"
        if t["team"] == your_team:
            label = style.green(label if solo else label + " (yours)")
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
        if required:
            missing = missing_books(required, t["melds"])
            lines.append("  " + (style.yellow("books still needed to go out: "
                                              + ", ".join(missing)) if missing
                                 else "every required book made"))
        elif least:
            made = sum(1 for m in books if not m.get("pending"))
            if made < least:
                lines.append("  " + style.yellow(f"books to go out: {made} of the {least} "
                                                 "needed"))
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
    mark = pile_mark(pile, blocked, frozen_until_melded and not any(
        t["melded"] for t in teams if t["team"] == your_team))
    mark = f" · {style.cyan(mark)}" if mark else ""
    stock = f"   ·   Stock: {_plural(view['stock_size'], 'card')}"
    if pile["top"]:
        lines.append(f"Pile: {style.card(pile['top'], wild)} on top, "
                     f"{_plural(pile['size'], 'card')}{mark}{stock}")
    else:
        lines.append(f"Pile: empty{mark}{stock}")
    # the viewer's own hand
    hand = view["hand"]
    new = _fresh_in(hand, fresh)
    lines.append(style.bold(f"Your hand (seat {you}, {_plural(len(hand), 'card')}):")
                 + (f"  * {fresh_note}: {' '.join(new)}" if new else ""))
    groups = group_hand(hand, wild)
    if groups:
        row: list[str] = []
        width = 0
        left = list(new)
        for rank, cards in groups:
            mine = [c for c in left if c in cards]
            for c in mine:
                left.remove(c)
            cell = f"{rank}: " + " ".join(_marked(cards, style, mine, wild))
            plain = len(rank) + 2 + sum(len(c) + 1 for c in cards) + len(mine)
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


# --------------------------------------------------------------------------- a hand's end

_GAME_END = ("box", "game", "shutout")
"""The score lines of the game's end bonuses (on its last hand)."""
_NOT_THE_HANDS = (*_GAME_END, "rejoin")
"""The score lines that are not what the hand was worth: the game's end bonuses and a
rejoin's move of a total (``game.rejoin``)."""

_ENDINGS = {"went_out": "{who} went out", "stock_empty": "the stock ran out",
            "lowest_count": "the stock ran out, and {who} held the lowest count",
            "one_side_left": "only one side was left", "knock": "{who} knocked",
            "gin": "{who} went gin", "big_gin": "{who} went big gin",
            "undercut": "{who} knocked and was undercut", "wall": "the stock reached the wall",
            "limit": "the pile was taken too often", "turn_limit": "the hand went on too long",
            "no_legal_move": "no one could move", "no_progress": "the game made no progress"}


def _total_after(state, hr, team: int) -> int:
    """A side's total after the hand ``hr``, a rejoin included (no game-end bonus)."""
    return sum(points for h in state.hand_results if h.hand_number <= hr.hand_number
               for s in h.scores if s.team == team
               for label, points in s.items if label not in _GAME_END)


def ending_words(ended_by: str, who: str | None) -> str:
    """How a hand ended, in words (``knock``, ``seat 1`` → ``seat 1 knocked``)."""
    return _ENDINGS.get(ended_by, ended_by).format(who=who or "nobody")


_ITEMS = (("books", "books"), ("melded_cards", "melded cards"), ("bonus_cards", "bonus"),
          ("dead_cards", "dead cards"), ("hand_cards", "cards in hand"),
          ("reserve_cards", "reserve"), ("going_out", "going out"))


def render_hand_end(state, result, style: Style, you: int | None = None, *,
                    before=None, action=None, layoffs: Sequence[tuple[int, str, str]] = (),
                    reserve_name: str = "reserve") -> str:
    """The end of a hand, for its scoring style: the canasta kernel's score item by item;
    a knock hand (gin) both hands — melds, lay-offs, deadwood — and ``9 vs 17 → +8 to
    you``; a rummy hand the cards left and who scores them.  ``you`` names a seat "you";
    ``before`` is the state before ``action``, the hand's last (the table kernel deals the
    next hand at once: its hands are read there), ``layoffs`` the ``(seat, card, meld id)``
    laid off in the hand."""
    if getattr(state, "meld_model", None) == "table":
        try:
            return _table_hand_end(state, result, style, you, before, action, layoffs)
        except (AttributeError, KeyError, IndexError, TypeError, ValueError):
            pass  # a plugin's record this summary does not read: the short form
    return _canasta_hand_end(state, result, style, you, reserve_name)


def _side_label(state, team: int, you: int | None) -> str:
    seats = state.team_players(team)
    if len(seats) == 1:
        return "you" if seats[0] == you else f"seat {seats[0]}"
    return f"team {team}" + (" (yours)" if you is not None and you in seats else "")


def _seat_text(q: int | None, you: int | None) -> str | None:
    if q is None:
        return None
    return "you" if q == you else f"seat {q}"


def _canasta_hand_end(state, hr, style: Style, you: int | None, reserve_name: str) -> str:
    how = ending_words(hr.ended_by, _seat_text(hr.went_out, you))
    lines = [style.bold(f"── Hand {hr.hand_number} is over: {how} ──")]
    items = tuple((a, reserve_name if a == "reserve_cards" else label) for a, label in _ITEMS)
    for s in getattr(hr, "scores", ()):
        parts = []
        for attr, label in items:
            v = getattr(s, attr, 0)
            if isinstance(v, int) and v:
                extra = f" ({', '.join(s.book_kinds)})" if attr == "books" and s.book_kinds else ""
                parts.append(f"{label}{extra} {v:+,}")
        named = hasattr(s, "books")  # (a canasta line: its items are the fields above)
        for label, points in (getattr(s, "adjustments", ()) if named
                              else getattr(s, "items", ())):
            parts.append(f"{label.replace('_', ' ')} {points:+,}")
        for g in getattr(s, "groups", ()):  # (Houses: each group removed, and its points)
            parts.append(f"{' '.join(g.cards)} {g.points:+,}")
        total = state.scores[s.team] if s.team < len(state.scores) else 0
        lines.append(f"  {_side_label(state, s.team, you)}: {s.total:+,}  = "
                     + (", ".join(parts) or "nothing") + f"   → {total:,}")
    return "\n".join(lines) + "\n"


def _multiplied(state, final, name) -> str:
    """What a hand's ``multiply`` items did to its score, as the end-of-hand summary says
    it ("" when none applied)."""
    from .kernel.scoring import CONDITIONS

    out = ""
    for d in state.rules.spec.scoring.items:
        if d.get("item") == "multiply" and CONDITIONS[d["when"]](final):
            how = ("in one turn" if d["when"] == "out_at_once" else "")
            out += (f"; all times {d.get('by') or 2}: {name(final.went_out)} went out"
                     + (f" {how}" if how else ""))
    return out


def _table_hand_end(state, hr, style: Style, you, before, action, layoffs) -> str:
    from ._cards import card_code, kind_of_code

    final = hr.final
    n = len(final.team_of)
    knocker = hr.went_out
    how = ending_words(hr.ended_by, _seat_text(knocker, you))
    lines = [style.bold(f"── Hand {hr.hand_number} is over: {how} ──")]

    def name(q: int) -> str:
        return _seat_text(q, you) or ""

    def cards(codes: Sequence[str]) -> str:
        return " ".join(style.card(c) for c in sorted(codes, key=kind_of_code))

    if before is not None:
        hands = [[card_code(before.kind_of[c]) for c in before.hands[q]] for q in range(n)]
        melds = {f"m{m.id}": (m.owner, [card_code(before.kind_of[c]) for c in m.cards])
                 for m in before.melds}
        actor = before.current_player
        if action is not None and actor is not None and action.type in ("discard", "meld",
                                                                        "add"):
            used = [card_code(k) for k in action.cards]
            for c in used:
                hands[actor].remove(c)
            if action.type == "meld":
                melds[f"m{before.next_meld}"] = (actor, used)
            elif action.type == "add" and f"m{action.target}" in melds:
                melds[f"m{action.target}"][1].extend(used)
        laid: dict[int, dict[str, list[str]]] = {}
        laid_cards: dict[str, list[str]] = {}
        for q, c, mid in layoffs:
            if mid not in melds or melds[mid][0] == q:
                continue  # a card added to one's own meld stays in it
            laid.setdefault(q, {}).setdefault(mid, []).append(c)
            laid_cards.setdefault(mid, []).append(c)
        order = list(range(n))
        if knocker is not None:  # the knocker first
            order = [knocker] + [q for q in order if q != knocker]
        for q in order:
            own = []
            for mid, (owner, codes) in melds.items():
                if owner != q:
                    continue
                extra = list(laid_cards.get(mid, ()))
                mine = list(codes)
                for c in extra:  # the cards laid off on it are shown with who laid them
                    if c in mine:
                        mine.remove(c)
                own.append(f"{mid} [{cards(mine)}]")
            bits = [("melds " + " ".join(own)) if own else "no melds"]
            if laid.get(q):
                bits.append("laid off " + ", ".join(f"{cards(cs)} on {mid}"
                                                    for mid, cs in laid[q].items()))
            left = hands[q]
            word = "deadwood" if state.rules.style == "knock" else "cards left"
            bits.append(f"{word} {cards(left)} = {final.deadwood[q]}" if left
                        else "no cards left" if hr.ended_by not in ("gin", "big_gin")
                        else "gin: no deadwood")
            lines.append(f"  {name(q)}: " + " · ".join(bits))
    net = list(hr.net)
    best = max(range(n), key=lambda q: net[q])
    items = [i for s in hr.scores for i in s.items if i[0] not in _NOT_THE_HANDS]
    worth = ", ".join(f"{label.replace('_', ' ')} {points:+,}" for label, points in items)
    style_of = state.rules.style
    if knocker is None or not any(net):
        lines.append("  no score: the hand is void" if knocker is None
                     else "  no score")
    elif style_of == "knock" and n > 2:  # the knocker against each defender, in turn
        defenders = [(knocker + i) % n for i in range(1, n)]
        head = (f"  {name(knocker)} {final.deadwood[knocker]} vs "
                + ", ".join(f"{name(q)} {final.deadwood[q]}" for q in defenders) + " → "
                + ", ".join(f"{net[q]:+,} to {name(q)}" for q in [knocker, *defenders]
                            if net[q] > 0))
        won = [(s.team, [i for i in s.items if i[0] not in _NOT_THE_HANDS])
               for s in hr.scores]
        said = [f"{_side_label(state, t, you)}: " + ", ".join(
                    f"{label.replace('_', ' ')} {points:+,}" for label, points in its)
                for t, its in won if its]
        if said:
            head += f" ({'; '.join(said)})"
        if getattr(final, "multiplier", 1) > 1:
            head += f", doubled ×{final.multiplier}"
        lines.append(head)
    elif style_of == "knock":
        d = next(q for q in range(n) if q != knocker)
        head = (f"  {final.deadwood[knocker]} vs {final.deadwood[d]} → "
                f"{net[best]:+,} to {name(best)}")
        if len(items) > 1 or (items and items[0][0] != "deadwood"):
            head += f" ({worth})"
        if getattr(final, "multiplier", 1) > 1:
            head += f", doubled ×{final.multiplier}"
        lines.append(head)
    elif style_of == "winner_takes_hands":
        scored = []  # each side's items, a label once (two payments: their sum)
        for s in hr.scores:
            its: dict[str, list[int]] = {}
            for label, points in s.items:
                if points and label not in _NOT_THE_HANDS:
                    its.setdefault(label, []).append(points)
            if its:
                scored.append((s.team, sum(map(sum, its.values())),
                               [(label + ("s" if len(ps) > 1 else ""), sum(ps))
                                for label, ps in its.items()]))
        if {label for *_, its in scored for label, _ in its} <= {"cards_in_other_hands"}:
            head = (f"  {name(best)} {'score' if best == you else 'scores'} "
                    f"{net[best]:+,}: the cards left in the other hands ("
                    + ", ".join(f"{name(q)} {final.deadwood[q]}" for q in range(n)
                                if q != best) + ")")
        else:  # the items that scored, by side (payments, cards laid, held …)
            said = []
            for t, total, its in sorted(scored, key=lambda x: -x[1]):
                who = _side_label(state, t, you)
                verb = "" if said else (" score" if who == "you" else " scores")
                said.append(f"{who}{verb} {total:+,} ("
                            + ", ".join(f"{label.replace('_', ' ')} {points:+,}"
                                        for label, points in its) + ")")
            head = "  " + "; ".join(said)
        lines.append(head + _multiplied(state, final, name))
    elif style_of == "penalty":  # each scores the cards left in hand: the lowest total wins
        totals = [sum(pts for label, pts in s.items if label not in _NOT_THE_HANDS)
                  for s in sorted(hr.scores, key=lambda s: s.team)]
        lines.append("  penalty points (the lowest total wins): " + ", ".join(
            f"{name(q)} {totals[final.team_of[q]]:+,}" for q in range(n)))
    else:
        lines.append("  " + ", ".join(f"{name(q)} {net[q]:+,}" for q in range(n)))
    back = [q for q, move in enumerate(getattr(final, "rejoin", ())) if move]
    if back:
        lines.append("  rejoining: " + ", ".join(
            f"{name(q)} {'rejoin' if q == you else 'rejoins'} the game with a total of "
            f"{_total_after(state, hr, final.team_of[q]):,}" for q in back))
    extras = [(s.team, label, points) for s in hr.scores for label, points in s.items
              if label in _GAME_END]
    if extras:
        lines.append("  game end: " + ", ".join(
            f"{_side_label(state, t, you)} {label} bonus {points:+,}"
            for t, label, points in extras))
    lines.append("  scores: " + ", ".join(
        f"{_side_label(state, t, you)} {state.scores[t]:,}" for t in range(len(state.scores))))
    return "\n".join(lines) + "\n"
