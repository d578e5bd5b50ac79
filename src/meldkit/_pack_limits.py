"""Bounds on the work a rule pack can cause, and checks that a pack can be played.

A pack may come from a stranger (an upload to a game server), so reading one must never
take unbounded time or memory, block, recurse without limit or end in a traceback:

* :func:`read_pack_file` opens only regular files (never a FIFO or a device, which could
  block or never end), and reads at most :data:`MAX_PACK_BYTES`;
* :func:`load_yaml` builds the document with ruamel.yaml's round-trip loader while checking
  every YAML *event* as the parser hands it over (:func:`guard_yaml` runs the same checks
  on their own), and stops at the first thing the format refuses: nesting deeper than
  :data:`MAX_DEPTH` (flow brackets are counted even before the scanner, whose bookkeeping
  is quadratic in them), more than :data:`MAX_NODES` values counted *after* alias expansion
  (a "billion laughs" document is refused after a few thousand steps, never expanded), tags
  (``!foo``, ``!!omap``, ``!!set``; ``!!str`` on a scalar is allowed), merge keys
  (``<<: *anchor``), a number written with more than :data:`MAX_NUMBER_CHARS` characters,
  and text longer than :data:`MAX_SCALAR_CHARS`;
* :func:`check_runnable` adds the upper bounds and cross-key checks that keep a pack that
  validates playable (deck size, wild-card mixes, rank keys, ``high_card_order`` …).

Each refusal is a :class:`Refused` carrying the 1-based line and column; the loader turns it
into a located :class:`~meldkit.RulePackError`.  The limits are far above what a real pack
needs (the bundled packs are at most 3 kB, 240 values and 4 levels deep).

>>> guard_yaml("deck: {decks: 2}\\n")
>>> try:
...     guard_yaml("a: &a [1, 1]\\nb: &b [*a, *a, *a]\\nc: [*b, *b, *b]\\n", max_nodes=20)
... except Refused as exc:
...     print(exc.line, exc.col, exc.message)
3 5 more than 20 values after expanding aliases (a pack holds at most 20)
"""

from __future__ import annotations

import os
import re
import stat
from math import comb

from ruamel.yaml import YAML

from ._cards import (  # noqa: F401 - MAX_DECK_CARDS re-exported with the other limits
    JOKER_KIND,
    MAX_DECK_CARDS,
    RANKS,
    is_rank,
    kinds_matching,
    rank_index,
    rank_of_kind,
)
from ruamel.yaml.events import (
    AliasEvent,
    CollectionEndEvent,
    CollectionStartEvent,
    ScalarEvent,
)

__all__ = [
    "MAX_DEPTH",
    "MAX_EXTENDS",
    "MAX_NODES",
    "MAX_NUMBER_CHARS",
    "MAX_PACK_BYTES",
    "MAX_SCALAR_CHARS",
    "Refused",
    "guard_yaml",
    "load_yaml",
    "read_pack_file",
]

MAX_PACK_BYTES = 256 * 1024
"""Largest pack file (or text) read, in bytes of UTF-8."""
MAX_NODES = 2_000
"""Most values (mappings, lists and scalars, keys included) in one pack file, counting each
alias as the whole value it repeats."""
MAX_DEPTH = 16
"""Deepest nesting of mappings and lists."""
MAX_SCALAR_CHARS = 10_000
"""Longest single value (a description, say), in characters."""
MAX_NUMBER_CHARS = 30
"""Longest number literal; every count in a pack fits in far fewer digits."""
MAX_EXTENDS = 8
"""Longest ``extends:`` chain (a pack, its parent, grandparent, …)."""

_STR_TAG = "tag:yaml.org,2002:str"
_NUMBER = re.compile(r"[-+]?[0-9][0-9a-fA-F_xXoO.]*")


class Refused(ValueError):
    """Input the pack format refuses: ``message``, at 1-based ``line`` and ``col`` (None
    when the input has no position, e.g. a file that cannot be opened)."""

    def __init__(self, message: str, line: int | None = None, col: int | None = None):
        super().__init__(message)
        self.message = message
        self.line = line
        self.col = col


def read_pack_file(path: str | os.PathLike[str], max_bytes: int = MAX_PACK_BYTES
                   ) -> tuple[bytes, tuple[int, int]]:
    """The bytes of a pack file and its ``(mtime_ns, size)``.

    Opens without blocking and refuses anything but a regular file, so a FIFO, a device
    (``/dev/zero``) or a directory is a :class:`Refused` at once; a file larger than
    ``max_bytes`` is refused without reading it whole.  ``OSError`` (no such file, no
    permission) passes through for the caller to word.
    """
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    fd = os.open(path, flags)
    try:
        st = os.fstat(fd)
        if stat.S_ISDIR(st.st_mode):
            raise IsADirectoryError(path)
        if not stat.S_ISREG(st.st_mode):
            raise Refused("is not a regular file (a pack is read only from a plain file)")
        if st.st_size > max_bytes:
            raise Refused(f"is {st.st_size} bytes; a pack file holds at most {max_bytes}")
        chunks, total = [], 0
        while True:
            chunk = os.read(fd, max_bytes + 1 - total)
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
            if total > max_bytes:
                raise Refused(f"is more than {max_bytes} bytes; a pack file holds at most "
                              f"{max_bytes}")
        return b"".join(chunks), (st.st_mtime_ns, st.st_size)
    finally:
        os.close(fd)


def _at(event) -> tuple[int, int]:
    mark = event.start_mark
    return mark.line + 1, mark.column + 1


def guard_yaml(text: str, *, max_nodes: int = MAX_NODES, max_depth: int = MAX_DEPTH,
               max_bytes: int = MAX_PACK_BYTES) -> None:
    """Raise :class:`Refused` (with the position) at the first thing in ``text`` that the
    pack format refuses or that would cost unbounded work; malformed YAML is left to the
    caller's parse (a :class:`ruamel.yaml.error.YAMLError` passes through).

    The pass is linear in the input: aliases are counted by the size of what they repeat,
    never expanded, so it stops after at most ``max_nodes`` steps however the aliases nest.
    """
    _precheck(text, max_depth, max_bytes)
    guard = _EventGuard(max_nodes, max_depth)
    try:
        for event in YAML(typ="rt").parse(text):
            guard.see(event)
    except NotImplementedError as exc:  # ruamel: "overlap in comment" (a comment layout
        raise _comment_overlap(exc) from None  # it cannot keep)


def load_yaml(text: str, *, max_nodes: int = MAX_NODES, max_depth: int = MAX_DEPTH,
              max_bytes: int = MAX_PACK_BYTES):
    """``text`` loaded by ruamel.yaml's round-trip loader (positions kept), with every
    event checked by :func:`guard_yaml`'s rules *as the document is built*: one pass, and
    the build stops at the first refusal, before any deep or large structure exists.
    Raises :class:`Refused`, or ruamel's ``YAMLError`` for malformed YAML.

    >>> load_yaml("deck: {decks: 2}\\n")["deck"]["decks"]
    2
    """
    _precheck(text, max_depth, max_bytes)
    guard = _EventGuard(max_nodes, max_depth)
    yaml = YAML(typ="rt")
    yaml.Parser = guarded_parser(yaml.Parser, guard.see, guard.anchor)
    try:
        return yaml.load(text)
    except NotImplementedError as exc:
        raise _comment_overlap(exc) from None


def guarded_parser(base: type, see, peek) -> type:
    """A subclass of ruamel's parser ``base`` that passes every event the composer takes
    to ``see`` and every event it peeks at to ``peek`` (the composer reads a node's
    anchor on a peek, before it takes the event)."""

    class GuardedParser(base):  # type: ignore[misc,valid-type]
        def get_event(self):
            event = super().get_event()
            if event is not None:
                see(event)
            return event

        def peek_event(self):
            event = super().peek_event()
            if event is not None:
                peek(event)
            return event

    return GuardedParser


def _precheck(text: str, max_depth: int, max_bytes: int) -> None:
    if len(text) > max_bytes and len(text.encode("utf-8", "surrogatepass")) > max_bytes:
        raise Refused(f"the pack is more than {max_bytes} bytes (at most {max_bytes})", 1, 1)
    _flow_depth(text, max_depth)


class _EventGuard:
    """The checks on a stream of YAML events: counts, depth, aliases, tags, merge keys."""

    def __init__(self, max_nodes: int, max_depth: int):
        self.max_nodes = max_nodes
        self.max_depth = max_depth
        self.nodes = 0
        self.depth = 0
        # per open collection: [anchor, values before it, depth before it, deepest inside]
        self.open: list[list] = []
        self.anchors: dict[str, tuple[int, int]] = {}  # anchor -> (values, depth) it repeats
        self.defined: dict[str, tuple[int, int]] = {}  # anchor -> (line, column) it is set

    def anchor(self, event) -> None:
        """Refuse an anchor set a second time (at another place than the first), before
        ruamel's composer sees it (it only warns, on standard error, and an alias then
        names the later node)."""
        name = getattr(event, "anchor", None)
        if name is None or isinstance(event, AliasEvent):
            return
        first = self.defined.setdefault(name, _at(event))
        if first != _at(event):
            raise Refused(f"the anchor &{name} is set again (first at line {first[0]}, "
                          f"column {first[1]}): an alias would name the later one; give "
                          f"each anchor its own name", *_at(event))

    def see(self, event) -> None:
        open_ = self.open
        if isinstance(event, (ScalarEvent, CollectionStartEvent, AliasEvent)):
            if isinstance(event, AliasEvent):
                size, deep = self.anchors.get(event.anchor, (1, 0))
            else:
                size, deep = 1, 0
                _check_node(event)
                self.anchor(event)
            self.nodes += size
            if self.nodes > self.max_nodes:
                what = "after expanding aliases " if isinstance(event, AliasEvent) else ""
                raise Refused(f"more than {self.max_nodes} values {what}(a pack holds at "
                              f"most {self.max_nodes})", *_at(event))
            reach = self.depth + deep
            if open_ and reach > open_[-1][3]:
                open_[-1][3] = reach
            if isinstance(event, CollectionStartEvent):
                self.depth += 1
                reach = self.depth
                open_.append([event.anchor, self.nodes - 1, self.depth - 1, self.depth])
            elif isinstance(event, ScalarEvent) and event.anchor is not None:
                self.anchors[event.anchor] = (1, 0)
            if reach > self.max_depth:
                raise Refused(f"nested more than {self.max_depth} levels deep (lists and "
                              f"mappings in a pack nest at most {self.max_depth} deep)",
                              *_at(event))
        elif isinstance(event, CollectionEndEvent) and open_:
            anchor, before, start_depth, deepest = open_.pop()
            self.depth -= 1
            if anchor is not None:
                self.anchors[anchor] = (self.nodes - before, deepest - start_depth)
            if open_ and deepest > open_[-1][3]:
                open_[-1][3] = deepest


_FLOW_TOKEN = re.compile(r"""[\[\]{}\n#'"]""")


def _flow_depth(text: str, max_depth: int) -> None:
    """Refuse ``[[[[…`` nested deeper than ``max_depth`` before ruamel's scanner sees it
    (its simple-key bookkeeping is quadratic in the flow depth: 1,200 brackets cost a
    second).  A rough lexer: quoted text and comments are skipped, brackets counted."""
    depth = 0
    line = 1
    line_start = 0
    pos = 0
    n = len(text)
    while True:
        m = _FLOW_TOKEN.search(text, pos)
        if m is None:
            return
        ch = m.group()
        pos = m.end()
        if ch == "\n":
            line += 1
            line_start = pos
        elif ch in "[{":
            depth += 1
            if depth > max_depth:
                raise Refused(f"nested more than {max_depth} levels deep (lists and mappings "
                              f"in a pack nest at most {max_depth} deep)",
                              line, m.start() - line_start + 1)
        elif ch in "]}":
            depth = max(depth - 1, 0)
        else:
            before = text[m.start() - 1] if m.start() > line_start else " "
            if ch == "#":
                if before in " \t":
                    end = text.find("\n", pos)
                    pos = n if end < 0 else end
            elif before in " \t[{,:-?":  # a quoted scalar starts here (not "Sid's")
                while True:
                    end = text.find(ch, pos)
                    if end < 0:
                        return  # unterminated: the parser reports it
                    if ch == '"' and text[end - 1] == "\\":
                        pos = end + 1
                        continue
                    if ch == "'" and text.startswith("''", end):
                        pos = end + 2
                        continue
                    break
                line += text.count("\n", pos, end)
                nl = text.rfind("\n", pos, end)
                if nl >= 0:
                    line_start = nl + 1
                pos = end + 1


_SURROGATE = re.compile("[\ud800-\udfff]")


def _check_node(event) -> None:
    """Tags, merge keys, long numbers and long text on one scalar or collection."""
    tag = event.tag
    if tag is not None and not (isinstance(event, ScalarEvent) and tag == _STR_TAG):
        shown = "!!" + tag.rsplit(":", 1)[-1] if tag.startswith("tag:yaml.org,2002:") else tag
        raise Refused(f"YAML tags such as {shown} are not part of the pack format (write "
                      "plain mappings, lists and values)", *_at(event))
    if not isinstance(event, ScalarEvent):
        return
    value = event.value
    plain = event.style is None and event.tag is None
    if plain and value == "<<":
        raise Refused("merge keys (<<: *anchor) are not part of the pack format: write the "
                      "keys out, or share settings with extends:", *_at(event))
    if len(value) > MAX_SCALAR_CHARS:
        raise Refused(f"a value of {len(value)} characters (at most {MAX_SCALAR_CHARS})",
                      *_at(event))
    if _SURROGATE.search(value):  # an escape such as "\ud800": no character UTF-8 writes
        raise Refused("a string with a lone surrogate escape (\\ud800 to \\udfff) is not "
                      "text: write the character itself, or its \\U escape", *_at(event))
    if plain and len(value) > MAX_NUMBER_CHARS and _NUMBER.fullmatch(value):
        raise Refused(f"a number written with {len(value)} characters (at most "
                      f"{MAX_NUMBER_CHARS})", *_at(event))


_COMMENT_AT = re.compile(r"line: (\d+), col: (\d+)")


def _comment_overlap(exc: NotImplementedError) -> Refused:
    """ruamel.yaml cannot keep some comment layouts (a comment after a key whose value
    starts on a later line, followed by blank lines): refuse them at the comment."""
    found = _COMMENT_AT.search(str(exc))
    line, col = (int(found.group(1)) + 1, int(found.group(2)) + 1) if found else (None, None)
    return Refused("this comment layout cannot be read (a comment after a key whose value "
                   "is on a later line): move the comment onto its own line above the key",
                   line, col)


def reader_error_position(text: str, index: int) -> tuple[int, int]:
    """1-based line and column of character ``index`` of ``text`` (for ruamel's
    ``ReaderError``, which gives only an offset)."""
    index = max(0, min(index, len(text)))
    line = text.count("\n", 0, index) + 1
    col = index - (text.rfind("\n", 0, index) + 1) + 1
    return line, col


# --------------------------------------------------------------------------- playable packs

MAX_CARD_VALUE = 1_000_000
"""Most points a card may count for either way (``cards.values``; real games use at most
a few hundred): with :data:`MAX_DECK_CARDS` cards, no total of cards outgrows a save's
bounds (:data:`meldkit.saves.MAX_SCORE`)."""
MAX_PLAYERS = 64
"""Most seats a pack may declare; also bounds the per-player-count checks."""
MAX_WILD_MIXES = 2_000
"""Most mixes of wild ranks a meld may hold (the count grows as C(w + k, w) with ``w``
wild ranks and melds of up to ``k`` wild cards; Pony Tail has 35)."""
AT_LEAST: tuple[tuple[tuple[str, ...], int], ...] = (
    (("deck", "jokers_per_deck"), 0),
    (("deck", "jokers"), 0),
    (("pile", "buy_limit"), 0),
    (("pile", "buy_penalty"), 0),
    (("players", "min"), 2),  # a hand ends when fewer than two players are left in it
    (("deal", "hand"), 1),
    (("deal", "reserve"), 0),
    (("turn", "draw"), 1),
    (("melds", "min_size"), 1),
    (("melds", "min_naturals"), 0),
    (("melds", "max_wilds"), 0),
    (("books", "size"), 1),
    (("going_out", "min_books"), 0),
    (("scoring", "bonus", "set_size"), 0),
    (("game", "target"), 1),
    (("game", "hands"), 1),
    (("game", "hand_turn_limit"), 1),
    (("game", "shutout_multiplier"), 1),
    (("pile", "take_count"), 1),
    (("stock", "wall"), 0),
    (("melds", "lay_off", "max_per_end"), 0),
    (("knock", "pile_take_limit"), 1),
    (("knock", "returned_card_limit"), 1),
    (("melds", "restores"), 1),
)
"""Lower bounds on single keys (the loader's ``lower_bounds``); with :data:`AT_MOST`, the
ranges :func:`meldkit.schema_docs.json_schema` publishes as ``minimum`` and ``maximum``."""
AT_MOST: tuple[tuple[tuple[str, ...], int], ...] = (
    (("deck", "jokers_per_deck"), 100),
    (("deck", "jokers"), 1000),
    (("pile", "buy_limit"), 100),
    (("pile", "buy_penalty"), 100),
    (("turn", "draw"), 100),
    (("melds", "min_size"), 500),
    (("melds", "max_wilds"), 500),
    (("books", "size"), 500),
    (("game", "target"), 10_000_000),
    (("game", "hand_turn_limit"), 100_000),
    (("game", "shutout_multiplier"), 100),
    (("players", "max"), MAX_PLAYERS),
    (("melds", "restores"), 10),
)
"""Upper bounds on single keys, far above any real game, so that no validated pack makes
``new_game`` or legal-action generation run out of memory or time."""
MAX_POINTS = 10_000_000
"""Most points any one scoring amount may give or take (a bonus, a book's value, a
knock's points, an item's parameter; real games use at most a few thousand), like
``game.target``'s bound: so that no validated pack's totals outgrow a save's bounds
(:data:`meldkit.saves.MAX_SCORE`) in any game a player could sit through."""


def _integers(value, path):
    """Every integer under ``value`` (attrs sections, lists, dicts; not booleans), each
    as ``(path, integer)``."""
    if isinstance(value, bool):
        return
    if isinstance(value, int):
        yield path, value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from _integers(v, (*path, k))
    elif isinstance(value, (list, tuple)):
        for i, v in enumerate(value):
            yield from _integers(v, (*path, i))
    elif hasattr(type(value), "__attrs_attrs__"):
        for field in type(value).__attrs_attrs__:
            yield from _integers(getattr(value, field.name), (*path, field.name))


def _check_points(spec, add) -> None:
    """No scoring amount beyond :data:`MAX_POINTS` either way: the scoring section, the
    books' values, the knock's points and the game's bonuses."""
    places = [(("scoring",), spec.scoring), (("books", "kinds"), spec.books.kinds),
              (("knock",), spec.knock),
              (("game", "game_bonus"), spec.game.game_bonus),
              (("game", "box_bonus"), spec.game.box_bonus)]
    for where, value in places:
        for path, v in _integers(value, where):
            if abs(v) > MAX_POINTS:
                add(path, f"expected {-MAX_POINTS:,} to {MAX_POINTS:,} points, got {v}")


from ._liveness import (  # noqa: E402,F401 - the liveness bounds live in a leaf: re-exported
    IDLE_ENDINGS,
    MAX_HANDS_WITHOUT_GAIN,
    NO_PROGRESS_HANDS,
    no_progress,
)

MIN_STOCK_DRAWS = 2
"""Turns each player must be able to draw from the stock left by the deal (hands, reserves
and the upcard), in packs of the canasta kernel: with less, a hand ends before anyone can
build an initial meld, so every hand ends idle (the bundled packs leave at least 10)."""


def key_value(spec, path: tuple[str, ...]):
    """The value at a key path of a pack's spec.

    >>> from meldkit._schema import RulePackSpec
    >>> key_value(RulePackSpec(), ("turn", "draw")), key_value(RulePackSpec(), ("game", "target"))
    (None, 5000)
    """
    for name in path:
        spec = getattr(spec, name)
    return spec


def check_runnable(spec, add, player_counts, deck_size, own_deck: bool = False,
                   engine: bool = False) -> None:
    """Upper bounds and cross-key checks for packs that validate but could not be played.

    ``add(path, message, related=...)`` reports a problem at a key path; ``deck_size(n)``
    is the number of cards for ``n`` players (None when the deck is ill-defined);
    ``own_deck``: a plugin brings its own deck; ``engine``: a plugin's engine plays the
    pack.  Checks of the canasta kernel's own keys are skipped for packs that another
    engine plays (a plugin's engine, or table melds).
    """
    for path, most in AT_MOST:
        value = key_value(spec, path)
        if isinstance(value, int) and value > most:
            add(path, f"expected at most {most}, got {value}")
    most_draw = dict(AT_MOST)[("turn", "draw")]
    for count, draw in (spec.turn.draw_by_players or {}).items():
        if isinstance(draw, int) and draw > most_draw:
            add(("turn", "draw_by_players", count), f"expected at most {most_draw}, got {draw}")
    _check_points(spec, add)
    for i, sheet in enumerate(spec.scoring.sheets):
        m = sheet.shutout_multiplier
        if m is not None and not 1 <= m <= 100:
            add(("scoring", "sheets", i, "shutout_multiplier"), f"expected 1 to 100, got {m}")
    for count in player_counts:
        size = deck_size(count)
        if size is not None and size > MAX_DECK_CARDS:
            deck = spec.deck
            key = ("deck", "decks_per_player" if deck.decks_per_player is not None else "decks")
            if count in (deck.jokers_by_players or {}):  # the jokers of that table
                key = ("deck", "jokers_by_players", count)
            elif count in (deck.decks_by_players or {}):
                key = ("deck", "decks_by_players", count)
            add(key if not own_deck else ("options",), f"{size} cards for {count} players; a "
                f"deck holds at most {MAX_DECK_CARDS} cards")
            break
    _check_rank_lists(spec, add)
    players = spec.players
    if players.partners == "always" and players.min_for_partners > players.min:
        add(("players", "min_for_partners"), f"{players.min_for_partners} is above players.min "
            f"({players.min}): with partners: always, a game of {players.min} could not be set "
            "up", related=(("players", "min"), ("players", "partners")))
    high_card = "high_card" in (spec.deal.first_player, spec.deal.next_hand_first)
    if high_card and spec.deal.high_card_order and not own_deck:
        jokers = (spec.deck.jokers_per_deck if spec.deck.jokers is None else spec.deck.jokers)
        in_deck = set(range(13)) | ({13} if jokers > 0 else set())
        named = {rank_index(s) for s in spec.deal.high_card_order if is_rank(s)}
        if named and not named & in_deck:
            add(("deal", "high_card_order"), "names no rank in the deck (there are no jokers: "
                "deck.jokers_per_deck is 0), so no card could ever win the draw",
                related=(("deck", "jokers_per_deck"),))
    if getattr(spec.melds, "kinds", None) and not engine:
        _check_knock_deal(spec, add, player_counts)
        _check_table_wild_mixes(spec, add, player_counts)
        _check_contract_sizes(spec, add)
    if engine or getattr(spec.melds, "kinds", None):
        return  # another engine plays this pack: the canasta kernel's keys do not apply
    _check_stock(spec, add, player_counts, deck_size)
    _check_canasta_kernel(spec, add)


def _check_stock(spec, add, player_counts, deck_size) -> None:
    """The canasta kernel deals hands, reserves and the upcard from one deck: the stock
    left must give every player :data:`MIN_STOCK_DRAWS` turns of drawing, or no hand can
    be played (each ends on an empty stock before anyone can meld)."""
    deal = spec.deal
    short = []
    for count in player_counts:
        size = deck_size(count)
        if size is None:
            return
        hand = (deal.hand_by_players or {}).get(count, deal.hand)
        draw = (spec.turn.draw_by_players or {}).get(count, spec.turn.draw)
        stock = size - count * (hand + deal.reserve) - (1 if deal.upcard else 0)
        if stock < 0 or not 1 <= draw <= dict(AT_MOST)[("turn", "draw")]:
            continue  # a deal larger than the deck, or a draw out of bounds: reported apart
        if stock < MIN_STOCK_DRAWS * count * draw:
            short.append((count, hand, draw, stock, size))
    if not short:
        return
    count, hand, draw, stock, size = short[0]
    reserve = f" + {deal.reserve} reserve" if deal.reserve else ""
    others = [str(c) for c, *_ in short[1:]]
    also = f" (too few also for {', '.join(others)} players)" if others else ""
    add(("deal",), f"{count} players × ({hand} hand{reserve})"
        f"{' + 1 upcard' if deal.upcard else ''} "
        f"leave {stock} of {size} cards in the stock, but {count} players drawing {draw} a "
        f"turn need at least {MIN_STOCK_DRAWS * count * draw} for {MIN_STOCK_DRAWS} turns "
        f"each{also}: every hand would end on an empty stock before anyone could meld "
        "(deal fewer cards or use more decks)",
        related=(("deck",), ("turn", "draw"), ("players",)))


def _check_knock_deal(spec, add, player_counts) -> None:
    """In a knock pack (``knock.max_deadwood``) the knocker discards, then lays melds from
    the cards dealt: a deal smaller than the smallest meld can never lay one (no gin, a
    knock only of unmelded cards), and ``knock.test: openspiel`` is OpenSpiel's test of
    the eleven cards of a ten-card deal, which on other deals offers knocks that no
    discard can complete (``oklahoma_gin`` with ``deal: {hand: 2}`` reached the knock
    phase with no legal action)."""
    if spec.knock.max_deadwood is None:
        return
    deal = spec.deal
    hands = sorted({(deal.hand_by_players or {}).get(n, deal.hand) for n in player_counts})
    if not hands:
        return
    smallest = min(k.min_size for k in spec.melds.kinds)
    if hands[0] < smallest:
        add(("deal", "hand"), f"{hands[0]} cards dealt, fewer than the smallest meld "
            f"({smallest} cards, melds.kinds min_size): a knocker could lay no meld, so no "
            "hand could be won by gin (deal at least as many cards as a meld holds)",
            related=(("knock", "max_deadwood"), ("melds", "kinds")))
    if spec.knock.test == "openspiel" and hands != [10]:
        shown = ", ".join(map(str, hands))
        add(("knock", "test"), f"openspiel judges the eleven cards of OpenSpiel's ten-card "
            f"deal, but this pack deals {shown}: it would offer knocks that no discard can "
            "complete (use best_discard, or deal 10)", related=(("deal", "hand"),))


def _check_rank_lists(spec, add) -> None:
    """Keys that take ranks refuse card codes (``melds.no_wild_ranks: [7S]``)."""
    lists = [(("melds", "no_wild_ranks"), "melds.no_wild_ranks", spec.melds.no_wild_ranks),
             (("melds", "going_out_ranks"), "melds.going_out_ranks",
              spec.melds.going_out_ranks),
             (("cards", "unmeldable"), "cards.unmeldable", spec.cards.unmeldable),
             (("deal", "high_card_order"), "deal.high_card_order", spec.deal.high_card_order)]
    lists += [(("books", "kinds", i, "ranks"), f"books.kinds[{i}].ranks", kind.ranks or [])
              for i, kind in enumerate(spec.books.kinds)]
    for path, shown, selectors in lists:
        for i, selector in enumerate(selectors):
            try:
                kinds = kinds_matching(selector)
            except (ValueError, TypeError):
                continue  # not a card selector at all: reported by the selector checks
            if kinds and not is_rank(selector):
                rank = RANKS[rank_of_kind(min(kinds))]
                add(path + (i,), f"{selector!r} is a card code, but {shown} takes ranks "
                    f"(write {rank!r})")


MAX_TABLE_WILD_MIXES = 100_000
"""Most mixes of wild cards a table meld of one kind may hold (:func:`_table_wild_mixes`):
listing them costs about a microsecond each (a pack of fifty million took 42 s for its
first save; eight decks of four wild ranks, 2,379 a set, take 0.09 s)."""

def _table_wild_mixes(spec, players: int, most: int) -> int:
    """An upper bound on the mixes of wild cards a table meld of at most ``most`` of them
    may hold at a table of ``players``: the multisets of the wild card kinds (each rank's
    four suits, jokers), the lesser of C(W + most, W) - 1 and the product of each kind's
    copies plus one, less one."""
    deck = spec.deck
    decks = (deck.decks_by_players or {}).get(players) or (
        deck.decks_per_player * players if deck.decks_per_player else deck.decks or 1)
    jokers = (deck.jokers_by_players or {}).get(players, deck.jokers)
    if jokers is None:
        jokers = deck.jokers_per_deck * decks
    deals = [(list(spec.cards.wild), spec.cards.turned_wild != "none")]
    for item in spec.schedule or ():  # a deal's own wild cards: its schedule item's
        cards = item.get("cards") if isinstance(item, dict) else None
        if isinstance(cards, dict) and ("wild" in cards or "turned_wild" in cards):
            wild = cards.get("wild", spec.cards.wild)
            deals.append(([w for w in wild or () if isinstance(w, str)],
                          cards.get("turned_wild", spec.cards.turned_wild) != "none"))
    worst = 0
    for selectors, turned in deals:
        kinds: set[int] = set()
        for selector in selectors:
            try:
                kinds |= kinds_matching(selector)
            except (ValueError, TypeError):
                pass  # (refused by the selector checks)
        copies = [jokers if k == JOKER_KIND else decks for k in kinds
                  if k != JOKER_KIND or jokers]
        if turned:  # a rank cut at the deal: four more kinds, at worst
            copies += [decks] * 4
        w = len(copies)
        if not w or most <= 0:
            continue
        product = 1
        for c in copies:
            product *= c + 1
            if product > 10 * MAX_TABLE_WILD_MIXES:
                break
        worst = max(worst, min(comb(w + most, w), product) - 1)
    return worst


MAX_CONTRACT_MELDS = 8
"""Most melds a contract may name (``initial_meld.melds``, each of
``initial_meld.contracts``): real contracts name at most four; each meld laid toward one is
matched against the melds still needed, which with twenty named took seconds a move."""


def _check_contract_sizes(spec, add) -> None:
    """A contract of more than :data:`MAX_CONTRACT_MELDS` melds is refused at its key."""
    im = spec.initial_meld
    named = [(("initial_meld", "melds"), im.melds)]
    named += [(("initial_meld", "contracts", i), c) for i, c in enumerate(im.contracts)]
    for path, melds in named:
        if len(melds) > MAX_CONTRACT_MELDS:
            add(path, f"a contract of {len(melds)} melds (at most {MAX_CONTRACT_MELDS}; "
                "real ones name up to four)")


def _check_table_wild_mixes(spec, add, player_counts) -> None:
    """A table meld kind whose wild cards could mix more ways than
    :data:`MAX_TABLE_WILD_MIXES` is refused at its ``max_wilds``: the action universe and
    the melds of a hand list every mix (six wild ranks and twelve wild cards a meld took
    minutes to list before this check)."""
    for i, kind in enumerate(spec.melds.kinds):
        most = kind.max_wilds or 0
        if kind.max_size is not None:
            most = min(most, kind.max_size)
        for n in player_counts:
            mixes = _table_wild_mixes(spec, n, most)
            if mixes > MAX_TABLE_WILD_MIXES:
                add(("melds", "kinds", i, "max_wilds"),
                    f"the wild cards of a {kind.name or kind.type} of up to {most} of them "
                    f"could mix more than {MAX_TABLE_WILD_MIXES:,} ways at {n} players: "
                    "allow fewer wild cards a meld, or make fewer cards wild",
                    related=(("cards", "wild"),))
                break


def _check_canasta_kernel(spec, add) -> None:
    """The canasta kernel's keys: what it can generate, play and end."""
    melds, books = spec.melds, spec.books
    if melds.min_naturals < 1:
        add(("melds", "min_naturals"), f"expected at least 1, got {melds.min_naturals} (a meld "
            "of a natural rank holds at least one card of it; melds of wild cards only are "
            "melds.wild_melds)")
    wild_ranks = set()
    for selector in spec.cards.wild:
        try:
            wild_ranks |= {rank_of_kind(k) for k in kinds_matching(selector)}
        except (ValueError, TypeError):
            pass
    cap = max(melds.max_wilds, books.size)
    if wild_ranks and 0 <= cap <= min(most for path, most in AT_MOST
                                       if path in (('melds', 'max_wilds'), ('books', 'size'))):
        mixes = comb(len(wild_ranks) + cap, len(wild_ranks)) - 1
        if mixes > MAX_WILD_MIXES:
            path = ("melds", "max_wilds") if melds.max_wilds >= books.size else ("books", "size")
            add(path, f"{len(wild_ranks)} wild ranks in melds of up to {cap} cards make "
                f"{mixes} mixes of wild cards (at most {MAX_WILD_MIXES}): use fewer wild "
                "ranks or smaller melds", related=(("cards", "wild"),))
    if not spec.hand_end.stock_empty:
        add(("hand_end", "stock_empty"), "false is not supported: once the stock is empty, "
            "a player who cannot take the discard pile would have no legal action (a pile "
            "too small for stock.when_empty to renew the stock leaves none); write true")
    scoring = spec.scoring
    if getattr(scoring, "style", "canasta") != "canasta":
        return
    if getattr(spec.game, "winner", "highest") != "highest":
        return
    gains = [
        scoring.melded_cards and max(spec.cards.values.values(), default=0) > 0,
        any(kind.value > 0 for kind in books.kinds),
        scoring.going_out > 0,
        scoring.concealed_going_out > 0,
        bool(spec.cards.bonus) and (scoring.bonus.value > 0 or (
            scoring.bonus.set_size > 0 and scoring.bonus.set_value > 0)),
        bool(spec.cards.dead) and scoring.dead_in_hand > 0,
    ]
    if not any(gains):
        add(("game", "target"), f"no side can ever score a point (card values, book values "
            f"and bonuses are all 0 or less), so no game reaches {spec.game.target}",
            related=(("cards", "values"),))
