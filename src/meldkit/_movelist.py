"""The move list of ``meldkit play``: legal moves grouped so that a person can read them,
and the automatic events an action set off, for the log.

Moves that differ only in their wild cards make one line (``meld 9 9 9 +wild``); the wild
cards are chosen in a second step, or typed as notation (``meld 9 9 9 2``).  When even that
makes more than :data:`LIMIT` lines, the lines of one rank (``meld 9s``), then of one kind
of move (``discard …``), are folded into one, each opened in a further step, so that no list
is ever longer than :data:`LIMIT`.  Everything works on notation text, so it serves every
engine.

>>> moves = ["draw", "meld 9 9 9", "meld 9 9 2", "meld 9 9 9 2", "meld 9 9 JK", "discard 9"]
>>> [e.label for e in group_moves(moves, wild={"2", "JK"})]
['draw', 'meld 9 9 9 +wild (2 ways)', 'meld 9 9 +wild (2 ways)', 'discard 9']
>>> [e.label for e in group_moves(moves, wild={"2", "JK"})[1].open(wild={"2", "JK"})]
['meld 9 9 9', 'meld 9 9 9 2']
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Collection, Sequence
from typing import Any

import attrs

LIMIT = 25
"""The most lines a move list shows at once."""

_IDENTITY, _NATURALS, _RANK, _VERB = 0, 1, 2, 3


_STANDARD_RANKS = frozenset(("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K",
                             "T", "1"))


def _rank(word: str) -> str:
    """The rank of a card word (``9H`` → ``9``, ``9`` → ``9``); other words stay as they are."""
    w = word.upper()
    if w in ("JK", "JOKER", "X"):
        return "JK"
    if len(w) >= 2 and w[-1] in "CDHS" and w[:-1] in _STANDARD_RANKS:
        return w[:-1]
    return w


def _parts(move: str) -> tuple[str, list[str], str]:
    """``(verb, cards, target)`` of notation: ``add 9 2 to 9`` → ``('add', ['9', '2'], '9')``."""
    words = move.split()
    if not words:
        return "", [], ""
    verb, rest = words[0], words[1:]
    target = ""
    if "to" in rest:
        i = rest.index("to")
        rest, target = rest[:i], " ".join(rest[i + 1:])
    return verb, rest, target


def _key(move: str, level: int, wild: Collection[str]) -> Any:
    if level == _IDENTITY:
        return move
    verb, cards, target = _parts(move)
    if level == _VERB:
        return (verb,)
    if verb == "discard" and level == _NATURALS:
        return move  # a discard of a wild card is not a variant of another discard
    naturals = tuple(c for c in cards if _rank(c) not in wild)
    if level == _NATURALS:
        return (verb, naturals, target)
    slot = target or (_rank(naturals[0]) if naturals else ("wild" if cards else ""))
    return (verb, slot)


@attrs.frozen
class Entry:
    """One line of a move list: a move, or a group of moves opened in a further step."""

    label: str
    moves: tuple[str, ...]
    level: int = _IDENTITY
    """How the group was formed (finer levels open it)."""

    @property
    def is_move(self) -> bool:
        return len(self.moves) == 1

    def open(self, wild: Collection[str] = frozenset(), limit: int = LIMIT) -> list[Entry]:
        """The lines of a group's next step."""
        return _entries(list(self.moves), wild, range(self.level - 1, -1, -1), limit)


def _label(key: Any, level: int, moves: Sequence[str], wild: Collection[str]) -> str:
    n = len(moves)
    if level == _NATURALS:
        verb, naturals, target = key
        plain = " ".join([verb, *naturals])
        to = f" to {target}" if target else ""
        if not naturals:
            return f"{verb} wild cards{to} ({n} ways)"
        return f"{plain} +wild{to} ({n} ways)"
    if level == _RANK:
        verb, slot = key
        if verb in ("add",):
            return f"add to {slot} … ({n} ways)"
        if verb == "take":
            return f"take the pile … ({n} ways)"
        firsts = {(_parts(m)[1] or [""])[0] for m in moves}
        first = firsts.pop() if len(firsts) == 1 else ""
        if first and (first != slot or slot not in _STANDARD_RANKS):
            return f"{verb} {first} … ({n} ways)"  # a card named in full: meld 4H …
        shown = "wild cards" if slot == "wild" else f"{slot}s"
        return f"{verb} {shown} … ({n} ways)"
    (verb,) = key
    if verb == "discard":
        return f"discard … (one of {n} cards)"
    return f"{verb} … ({n} ways)"


def _entries(moves: list[str], wild: Collection[str], levels: Any, limit: int) -> list[Entry]:
    """The lines of ``moves`` grouped at the first of ``levels`` that makes at most
    ``limit`` lines (else at the last)."""
    chosen: list[tuple[int, dict[Any, list[str]]]] = []
    for level in levels:
        groups: dict[Any, list[str]] = {}
        for m in moves:
            groups.setdefault(_key(m, level, wild), []).append(m)
        chosen.append((level, groups))
        if len(groups) <= limit:
            break
    level, groups = chosen[-1]
    out = []
    for key, members in groups.items():
        if len(members) == 1:
            out.append(Entry(members[0], (members[0],)))
        else:
            out.append(Entry(_label(key, level, members, wild), tuple(members), level))
    return out


def group_moves(moves: Sequence[str], wild: Collection[str] = frozenset(),
                limit: int = LIMIT) -> list[Entry]:
    """The first step's lines: one per move, except that moves differing only in wild
    cards share a line — and, past ``limit`` lines, one per rank, then one per kind of
    move."""
    return _entries(list(moves), frozenset(wild), (_NATURALS, _RANK, _VERB), limit)


# --------------------------------------------------------------------------- events


def _books(team: dict) -> Counter:
    return Counter((m["rank"], m["book"]) for m in team.get("melds", ())
                   if m.get("book") and not m.get("pending"))


def auto_events(before: dict, after: dict, reserve_name: str = "reserve",
                seat_name: Callable[[int], str] = lambda q: f"seat {q}",
                action: str = "",
                side_name: Callable[[int], str] = lambda t: f"team {t}") -> list[str]:
    """What an action set off by itself, from two views of the table (before and after):
    books completed (once no longer pending), reserve piles picked up (but by a ``pickup``
    ``action``), bonus cards laid out; ``seat_name`` and ``side_name`` name a seat and a
    side (``you`` where each side is one player).

    >>> b = {"hand_number": 1, "players": [{"seat": 0, "bonus": [], "reserve_picked_up": False,
    ...      "reserve_size": 13}], "teams": []}
    >>> a = {"hand_number": 1, "players": [{"seat": 0, "bonus": ["3H"], "reserve_picked_up": True,
    ...      "reserve_size": 0}], "teams": []}
    >>> auto_events(b, a, "Pony Tail")
    ['seat 0 picks up the Pony Tail (13 cards)', 'seat 0 lays out 3H']
    """
    try:
        new_hand = before.get("hand_number") != after.get("hand_number")
        old_players = {p["seat"]: p for p in before.get("players", ())}
        out = [] if new_hand else _buy_events(before, after, seat_name, action)
        if not new_hand:
            old_teams = {t["team"]: t for t in before.get("teams", ())}
            for t in after.get("teams", ()):
                new = _books(t) - _books(old_teams.get(t["team"], {}))
                for rank, book in new.elements():
                    shown = "wild cards" if rank == "wild" else f"{rank}s"
                    side = side_name(t["team"])
                    verb = "complete" if side == "you" else "completes"
                    out.append(f"{side} {verb} a {book} book of {shown}")
        for p in after.get("players", ()):
            q = p["seat"]
            old = {} if new_hand else old_players.get(q, {})
            if p.get("reserve_picked_up") and old and not old.get("reserve_picked_up") \
                    and old.get("reserve_size") and action.split()[:1] != ["pickup"]:
                out.append(f"{seat_name(q)} picks up the {reserve_name} "
                           f"({old['reserve_size']} cards)")
            was = list(old.get("bonus", ()))
            laid = list(p.get("bonus", ()))
            for c in was:
                if c in laid:
                    laid.remove(c)
            if laid:
                out.append(f"{seat_name(q)} lays out {' '.join(laid)}"
                           + (" (dealt)" if new_hand else ""))
        return out
    except (KeyError, TypeError, AttributeError):
        return []  # an engine whose view is not the rummy kernel's


def _buy_events(before: dict, after: dict, seat_name: Callable[[int], str],
                action: str) -> list[str]:
    """Buying out of turn in a table-meld view (its ``buying`` record): a draw that put the
    discard on offer first, who bought it, and the draw of the player it waited for (its
    card named only to that player)."""
    was, now = before.get("buying"), after.get("buying")
    if not was or not now:
        return []
    out = []
    top = (before.get("pile") or {}).get("top")
    you = after.get("player")

    def name(q: int) -> str:
        return "you" if q == you else seat_name(q)

    def verb(q: int, word: str) -> str:
        return f"{name(q)} {word if q == you else word + 's'}"
    if now.get("offered_for") is not None and was.get("offered_for") is None:
        drawer = now["offered_for"]
        asked = after.get("current_player")
        out.append(f"before {verb(drawer, 'draw')}, the others may buy "
                   f"{(after.get('pile') or {}).get('top')}: {name(asked)} first")
    elif was.get("offered_for") is not None and now.get("offered_for") is None:
        drawer = was["offered_for"]
        buyer = next((q for q, (a, b) in enumerate(zip(was["buys"], now["buys"])) if b > a),
                     None)
        left = list(before.get("hand") or ())
        gained = [c for c in after.get("hand") or () if c not in left or left.remove(c)]
        if buyer is not None:
            n = was.get("penalty", 0)
            penalty = f" and {n} penalty card{'' if n == 1 else 's'}" if n else ""
            if buyer == you and top in gained:  # your own penalty cards are named to you
                gained.remove(top)
                penalty = f" and the penalty card{'' if n == 1 else 's'} {' '.join(gained)}"
            out.append(f"{name(buyer)} bought {top}{penalty}")
        else:
            out.append(f"nobody bought {top}")
        drew = f" {gained[-1]}" if drawer == you and gained else ""
        out.append(f"{verb(drawer, 'draw')}{drew or ' from the stock'}")
    return out


# --------------------------------------------------------------------------- help

_COMMANDS = """\
Commands:
  moves        list your moves again         table        draw the table again
  hint         what the greedy bot would do  undo         take back your last move
  save FILE    save the game (resume with: meldkit play --resume FILE)
  help         this help                     quit         leave the game
"""

_GROUPS = """\
A line ending in "(N ways)" groups moves that differ only in their wild cards (or, in a
long list, the moves of one rank): type its number to choose among them, or type the
move itself ({example}).
"""


def pack_moves(state) -> list[tuple[str, str]]:
    """The moves of ``state``'s pack, each as ``(an example in notation, what it does)``:
    read from the pack's rules (a knock only where it knocks, ``pickup`` only where it has
    a reserve), so that ``help`` lists the game's own moves; for an engine of neither
    kernel, one example of each verb of its action universe.

    >>> import meldkit
    >>> [m for m, _ in pack_moves(meldkit.new_game("gin_rummy", players=2, seed=1))]
    ['take', 'pass', 'draw', 'discard 7H', 'knock', 'meld 4H 5H 6H', 'add 7H to m1', 'done']
    """
    spec = state.pack.spec
    model = getattr(state, "meld_model", None)
    if model == "table":
        return _table_moves(spec)
    if model == "rank_slot":
        return _canasta_moves(spec, state)
    examples: dict[str, str] = {}
    for a in state.action_universe():
        examples.setdefault(str(a).split()[0] if str(a) else "", str(a))
    return [(text, "") for verb, text in examples.items() if verb]


def _rearranging_moves(spec) -> list[tuple[str, str]]:
    if not spec.melds.rearrange:
        return []
    return [("break m1", "lift meld m1 off the table: its cards lie loose until you lay "
                         "them again this turn"),
            ("restore", "put the table and your hand back as they were before your first "
                        "break this turn")]


def _melding_moves(spec) -> list[tuple[str, str]]:
    """A meld, a lay-off where the pack lays off, and the table's rearranging where it
    rearranges (``melds.rearrange``)."""
    loose = " (loose cards first)" if spec.melds.rearrange else ""
    out = [("meld 4H 5H 6H", "lay down a set or a run" + loose)]
    if spec.melds.lay_off.onto != "none":
        out.append(("add 7H to m1", "lay off on meld m1 (the ids are on the table)"))
    return out + _rearranging_moves(spec)


def _play_or_draw_moves(spec) -> list[tuple[str, str]]:
    """A turn to play or to draw (``turn.play_or_draw``)."""
    from .kernel.rulesheet import _has_opening

    out = _melding_moves(spec) + [("done", "end your turn, once a card of your hand is on the table and none "
                     "lies loose"),
            ("draw", "play nothing: draw the top card of the stock (ends your turn)"),
            ("pass", "play nothing, with the stock empty (ends your turn)")]
    if _has_opening(spec):
        out.append(("withdraw", "take back the melds laid toward your opening this turn"))
    return out


def _table_moves(spec) -> list[tuple[str, str]]:
    knock = spec.knock is not None and spec.knock.max_deadwood is not None
    if spec.turn.play_or_draw:
        return _play_or_draw_moves(spec)
    out = []
    if spec.pile.first_upcard != "none":
        out += [("take", "take the first upcard (or the discard on top)"),
                ("pass", "pass the first upcard")]
    out.append(("draw", "draw the top card of the stock"))
    take = spec.pile.take
    if not spec.turn.discard:  # (no discard pile: nothing taken, nothing discarded)
        out += _melding_moves(spec) + [
            ("done", "end your turn (there is no discard), once no card lies loose")]
    else:
        if spec.pile.first_upcard == "none":
            out.append(("take", {"top": "take the top card of the discard pile",
                                 "pile": "take the whole discard pile"}.get(
                                     take, "take the top card of the discard pile")))
        if take == "deep":
            out.append(("take 5H", "take the pile down to 5H (you must use 5H at once)"))
        out.append(("discard 7H", "discard a card (ends your turn)"))
        out += [("knock", (f"knock with {spec.knock.max_deadwood} or less deadwood: "
                           "then discard and lay down your melds")),
                ("meld 4H 5H 6H", "after a knock: lay down a set or a run"),
                ("add 7H to m1", "after the other side knocks: lay off on its meld m1"),
                ("done", "finish laying down (or laying off)")] if knock else \
            _melding_moves(spec)
    if getattr(spec.stock, "wall", 0) and not knock:
        out.append(("pass", "at the wall: end the hand"))
    from .kernel.rulesheet import _has_opening, deal_specs

    if _has_opening(spec):
        out.append(("withdraw", "take back the melds laid toward your opening this turn "
                                "(you cannot " + ("discard" if spec.turn.discard else
                                                  "end the turn") + " while they are pending)"))
    deals = deal_specs(spec)
    if any(d.pile.buy_limit for d in deals):
        n = spec.pile.buy_penalty
        out += [("buy", f"when asked out of turn: buy the discard, with "
                        f"{n} penalty card{'' if n == 1 else 's'} from the stock"),
                ("pass", "when asked out of turn: do not buy it")]
    if any(d.turn.drop for d in deals):
        first, later = spec.turn.drop or next(d.turn.drop for d in deals if d.turn.drop)
        out.append(("drop", f"instead of drawing: fold this hand ({first} against you in "
                            f"the first round, {later} later)"))
    return out


def _canasta_moves(spec, state) -> list[tuple[str, str]]:
    n = spec.turn.draw
    out = [("draw", "draw from the stock" if n == 1 else f"draw {n} cards from the stock")]
    take = spec.pile.take_with or ()
    if "natural_pair" in take:
        out.append(("take 9 9", "take the pile with two natural 9s (a 9 on top)"))
    if "natural_and_wild" in take:
        out.append(("take 9 2", "take the pile with a 9 and a wild card"))
    sequences = bool(getattr(state.rules, "sequences", None))
    if "onto_meld" in take:
        out.append(("take", "take the pile, its top card onto your side's meld of its rank"))
        if sequences:
            out.append(("take to 4H-6H",
                        "take the pile, its top card (3H or 7H) onto your sequence 4H-6H"))
    if spec.deal.reserve:
        out.append(("pickup", f"pick up your {spec.deal.reserve_name}"))
    out.append(("meld 9 9 2", "lay down a new meld"))
    out.append(("add 9 to 9", "add to your side's meld of 9s"))
    if sequences:
        out.append(("run 4H 5H 6H", "lay down a sequence of one suit"))
        out.append(("extend 7H to 4H-6H", "add to the sequence 4H-6H"))
    # where sequences are melded a discard names its suit
    out.append(("discard 9H" if sequences else "discard 9", "discard a card (ends your turn)"))
    if any(t.minimum for t in (spec.initial_meld.minimums or ())):
        out.append(("withdraw", "take back an initial meld short of the minimum"))
    out.append(("end", "end the hand when the stock is empty"))
    return out


def play_help(state) -> str:
    """``meldkit play``'s help for ``state``'s pack: its own moves with examples, the
    commands, and how grouped lines open."""
    moves = pack_moves(state)
    width = max((len(m) for m, _ in moves), default=0) + 2
    title = state.pack.spec.title or state.pack.name
    lines = [f"The moves of {title}. Type a move's number, or the move itself in notation:"]
    lines += [f"  {m:<{width}}{what}".rstrip() for m, what in moves]
    text = "\n".join(lines) + "\n" + _COMMANDS
    if getattr(state, "meld_model", None) == "rank_slot":
        text += _GROUPS.format(example="meld 9 9 9 2")
    return text
