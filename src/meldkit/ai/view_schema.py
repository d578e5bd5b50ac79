"""The JSON Schema of :meth:`~meldkit.GameState.view`: one core every engine fills, and
each engine's extras beside it.

Every engine's ``view(player)`` holds the **core** (:data:`CORE`): the same keys with the
same meaning in every pack — ``pack, player, team, hand_number, phase, current_player,
dealer, hand, seats, sides, melds, stock_size, pile, knock, deadwood, legal_actions`` —
with null where the engine has no such thing (Houses has no pile; only the table kernel
knocks). ``plugin`` is there when the pack's plugin adds to the view. The keys an engine
showed before the core existed stay beside it, documented per engine (:data:`RUMMY_VIEW`,
:data:`TABLE_VIEW`, :data:`HOUSES_VIEW`): a client written against the core runs on every
pack, one written against an engine's own keys keeps working.

The shipped file ``view.schema.json`` (:func:`shipped_view_schema_path`) is
:func:`view_schema_document`: the core, which every view follows, with each bundled engine's
whole schema under ``$defs``.

>>> import meldkit
>>> from meldkit.ai.view_schema import view_schema
>>> g = meldkit.new_game("gin_rummy", players=2, seed=1)
>>> {"current_player", "hand", "legal_actions", "contract"} <= set(view_schema(g)["required"])
True
>>> v = g.view(g.current_player)
>>> v["seats"][1], v["pile"]["size"], v["legal_actions"][:1]
({'seat': 1, 'side': 1, 'hand_size': 10}, 1, ['take'])
"""

from __future__ import annotations

import json
from typing import Any

from ..kernel.melds import MOST_CARDS_ARRANGED

__all__ = ["CORE", "CORE_KEYS", "HOUSES_VIEW", "RUMMY_VIEW", "TABLE_VIEW",
           "shipped_view_schema_path", "view_schema", "view_schema_document",
           "view_schema_text"]

SHIPPED_VIEW_SCHEMA = "view.schema.json"
"""The file name of the view's JSON Schema shipped inside the package."""

_DIALECT = "https://json-schema.org/draft/2020-12/schema"
_ID = "https://meldkit.github.io/meldkit/latest/schema/view.schema.json"

_SEAT = {"type": "integer", "minimum": 0}
_SEAT_OR_NULL = {"type": ["integer", "null"], "minimum": 0}
_INT_OR_NULL = {"type": ["integer", "null"]}
_CODE = {"type": "string", "description": "a card, as the pack's notation writes it"}
_CARD = {"type": "string", "pattern": "^([AJQK2-9]|10)[CDHS]$|^JK$",
         "description": "a card code: rank and suit (7H, 10D, QS) or JK"}
_HCARD = {"type": "string", "pattern": "^[A-Z]{2}$", "description": "role + house code"}
_INTS = {"type": "array", "items": {"type": "integer"}}


def _obj(props: dict[str, Any], required=None, **extra) -> dict[str, Any]:
    return {"type": "object", "properties": props,
            "required": sorted(required if required is not None else props),
            "additionalProperties": False, **extra}


def _cards(card: dict[str, Any]) -> dict[str, Any]:
    return {"type": "array", "items": card}


def _core(card: dict[str, Any], phases: list[str] | None = None) -> dict[str, dict[str, Any]]:
    """The core's properties, with ``card`` for each card (and ``phases`` for the phase)."""
    cards = _cards(card)
    return {
        "pack": {"type": "string", "description": "the pack's name"},
        "player": {**_SEAT, "description": "the seat this view is for"},
        "team": {"type": "integer", "minimum": 0,
                 "description": "that seat's side (its index in `sides`)"},
        "hand_number": {"type": "integer", "minimum": 1},
        "phase": ({"enum": phases} if phases else {"type": "string"})
        | {"description": "the phase; `over` when the game is over"},
        "current_player": {**_SEAT_OR_NULL, "description": "the seat to move (null: over)"},
        "dealer": {**_SEAT_OR_NULL, "description": "the dealer (null: the engine names none)"},
        "hand": {**cards, "description": "the player's own hand"},
        "seats": {"type": "array", "description": "every seat, in order: never its cards",
                  "items": _obj({"seat": _SEAT, "side": _SEAT,
                                 "hand_size": {"type": "integer", "minimum": 0}})},
        "sides": {"type": "array", "description": "every side (team; a player without "
                                                  "partners is a side of one), in order",
                  "items": _obj({"side": _SEAT, "seats": _INTS,
                                 "score": {"type": "integer",
                                           "description": "the side's running score"}})},
        "melds": {"type": "array", "description": "every meld on the table",
                  "items": _obj({
                      "id": {"type": ["string", "null"],
                             "description": "how actions name the meld (`m3`; a Houses "
                                            "space, `1`-`4`); null: actions name it by its "
                                            "rank or sequence"},
                      "owner": {**_SEAT_OR_NULL,
                                "description": "the seat that owns it (null: its side does)"},
                      "side": _SEAT,
                      "kind": {"type": "string",
                               "description": "the meld kind's name (`set`, `run`, `wild`, "
                                              "`group` …)"},
                      "rank": {"type": "string",
                               "description": "canasta kernel only: the meld's rank, `wild`, "
                                              "or `run`"},
                      "sequence": {"type": "string",
                                   "description": "canasta kernel, a sequence only: its ends "
                                                  "(4H-6H), as actions name it"},
                      "cards": {**cards, "description": "table-meld packs: the cards in the "
                                "order they lie, a run low to high with each wild card in "
                                "the place it fills (`5H 6H 7H JK`: the joker is the 8H)"},
                      "closed": {"type": "boolean"},
                      "book": {"type": ["string", "null"],
                               "description": "the book kind it made, else null"},
                      "pending": {"type": "boolean",
                                  "description": "laid this turn, not yet committed"}},
                      required=["id", "owner", "side", "kind", "cards", "closed", "book",
                                "pending"])},
        "stock_size": {"type": "integer", "minimum": 0},
        "pile": {"description": "the discard pile (null: the game has none)", "anyOf": [
            {"type": "null"},
            _obj({"top": {"anyOf": [card, {"type": "null"}]},
                  "size": {"type": "integer", "minimum": 0},
                  "frozen": {"type": "boolean"},
                  "cards": {**cards, "description": "the whole pile, bottom first: only "
                                                    "where it lies face up (table kernel)"}},
                 required=["top", "size", "frozen"])]},
        "knock": {"description": "knocking (null: the pack does not knock)", "anyOf": [
            {"type": "null"},
            _obj({"value": {**_INT_OR_NULL, "description": "most deadwood to knock with"},
                  "knocker": {**_SEAT_OR_NULL, "description": "the seat that knocked"}})]},
        "deadwood": {**_INT_OR_NULL,
                     "description": "the player's least deadwood (null: no deadwood, or a hand of "
                                    f"more than {MOST_CARDS_ARRANGED} cards, which is not "
                                    "searched)"},
        "legal_actions": {"anyOf": [{"type": "array", "items": {"type": "string"}},
                                    {"type": "null"}],
                          "description": "the legal actions' notation in the mover's own "
                                         "view; null in every other view"},
        "plugin": {"description": "what the pack's plugin adds (its own shape); present only "
                                  "when it adds something"},
    }


CORE_KEYS = ("pack", "player", "team", "hand_number", "phase", "current_player", "dealer",
             "hand", "seats", "sides", "melds", "stock_size", "pile", "knock", "deadwood",
             "legal_actions")
"""The keys every engine's view holds (``plugin`` may be there too)."""

CORE = {"type": "object", "properties": _core(_CODE), "required": sorted(CORE_KEYS),
        "title": "view() of any meldkit game: the core every engine fills",
        "description": "Engines add their own keys beside the core ($defs)."}
"""The core: what every view holds (other keys allowed)."""


def _engine(extras: dict[str, Any], card: dict[str, Any], phases: list[str],
            title: str) -> dict[str, Any]:
    props = _core(card, phases) | extras
    return _obj(props, required=[*CORE_KEYS, *extras], title=title)


_CANASTA_MELD = _obj({
    "rank": {"type": "string",
             "description": "the meld's rank, `wild`, or `run` for a suited sequence"},
    "sequence": {"type": ["string", "null"],
                 "pattern": "^([AJQK2-9]|10)[CDHS]-([AJQK2-9]|10)[CDHS]$",
                 "description": "a suited sequence's ends (4H-6H), as actions name it"},
    "cards": _cards(_CARD), "closed": {"type": "boolean"},
    "book": {"type": ["string", "null"]}, "pending": {"type": "boolean"},
    "id": {"type": "null"}, "owner": {"type": "null"}, "side": _SEAT,
    "kind": {"enum": ["set", "wild", "run"]}},
    required=["rank", "cards", "closed", "book", "pending", "id", "owner", "side", "kind"],
    description="the same records as the core's `melds`")

_SHEETS = {"type": ["array", "null"], "items": _obj({
    "name": {"type": "string"},
    "target": {"type": "integer", "description": "the total that ends the sheet"},
    "scores": {**_INTS, "description": "each side's total on the sheet"},
    "ended": {"type": "boolean", "description": "the sheet has ended (it counts no more)"}}),
    "description": "each score sheet (`scoring.sheets`), or null where the pack keeps one "
                   "score; `sides[].score` is then the sum of the sheets"}

RUMMY_VIEW = _engine({
    "you": {**_SEAT, "description": "the seat (as `player`)"},
    "players": {"type": "array", "items": _obj({
        "seat": _SEAT, "team": {"type": "integer"}, "hand_size": {"type": "integer"},
        "reserve_size": {"type": "integer"}, "reserve_picked_up": {"type": "boolean"},
        "bonus": _cards(_CARD), "out": {"type": "boolean"}}),
        "description": "each seat with the canasta kernel's own details (reserve, bonus cards)"},
    "teams": {"type": "array", "items": _obj({
        "team": {"type": "integer"}, "players": _INTS, "score": {"type": "integer"},
        "melded": {"type": "boolean"}, "minimum": {"type": "integer"},
        "melds": {"type": "array", "items": _CANASTA_MELD}}),
        "description": "each side with its melds, whether it has melded, its minimum"},
    "sheets": _SHEETS,
    "formed_sides": {"type": ["array", "null"], "items": {"type": "integer", "minimum": 0},
                     "description": "`players.sides_form`: once sides formed this hand, each "
                                    "seat's side — the index in `teams` of the melds it plays "
                                    "and the total it scores; null: the seating (`team`)"},
}, _CARD, ["draw", "play", "over"], "view() of a canasta-family game (Pony Tail, Samba …)")

TABLE_VIEW = _engine({
    "hand_sizes": {**_INTS, "description": "each seat's hand size (as `seats`)"},
    "stock": {"type": "integer", "minimum": 0, "description": "as `stock_size`"},
    "knock_value": {**_INT_OR_NULL, "description": "as `knock.value`"},
    "knocker": {**_SEAT_OR_NULL, "description": "as `knock.knocker`"},
    "scores": {**_INTS, "description": "each side's score (as `sides`)"},
    "contract": {"type": ["object", "null"], "properties": {
        "melds": {"type": "array", "items": {"type": "string"},
                  "description": "the kinds of the melds the viewer's contract asks for, "
                                 "as the pack writes them: the deal's, or with "
                                 "`initial_meld.contracts` the first the viewer has not met"},
        "met": {"type": ["array", "null"], "items": {"type": "integer", "minimum": 0},
                "description": "with `initial_meld.contracts`: how many contracts each "
                               "seat has met (null without them)"},
        "needs": {"type": "array", "items": {"type": "string"},
                  "description": "the kinds the viewer has still to lay to open: none once "
                                 "they have opened; for the player to move, those their "
                                 "pending melds leave (a meld that fits several covers the "
                                 "one of largest `min_size` first)"},
        "minimum": {"type": "integer",
                    "description": "the points the viewer's opening must total (0: none)"},
        "opened": {"type": "array", "items": {"type": "boolean"},
                   "description": "whether each seat has met the contract"},
        "pending": {"type": "array", "items": {"type": "string"},
                    "description": "ids of the melds laid toward the contract this turn"}},
        "required": ["melds", "met", "needs", "minimum", "opened", "pending"],
        "additionalProperties": False,
        "description": "what a player's opening needs (`initial_meld`: a contract, a "
                       "minimum), or null"},
    "dropped": {"type": ["array", "null"], "items": {"type": ["integer", "null"]},
                "description": "each seat's drop penalty if it has dropped this hand (null: "
                               "in), or null where the pack has no dropping (`turn.drop`)"},
    "eliminated": {"type": ["array", "null"], "items": {"type": "boolean"},
                   "description": "whether each seat is out of the game, or null where the "
                                  "pack eliminates nobody (`game.eliminate_above`)"},
    "buying": {"type": ["object", "null"], "properties": {
        "limit": {"type": "integer"}, "penalty": {"type": "integer"},
        "buys": {**_INTS, "description": "discards each seat has bought this hand"},
        "offered_for": {**_SEAT_OR_NULL,
                        "description": "in the buy phase, the seat whose draw waits"}},
        "required": ["limit", "penalty", "buys", "offered_for"], "additionalProperties": False,
        "description": "buying out of turn (`pile.buy_limit`), or null"},
    "reserves": {"type": ["array", "null"], "items": {
        "type": "object", "properties": {
            "holder": {"type": "integer", "description": "the seat, or the side "
                                                         "(`deal.reserve_per: side`)"},
            "size": {"type": "integer", "description": "cards in it (face down)"},
            "taken": {"type": "boolean"}},
        "required": ["holder", "size", "taken"], "additionalProperties": False},
        "description": "the face-down reserve piles (`deal.reserve`), or null"},
    "sheets": _SHEETS,
    "turned": {"type": ["object", "null"], "properties": {
        "card": _CARD, "passes": {"type": "integer", "minimum": 0,
                                  "description": "players who have passed it on"}},
        "required": ["card", "passes"], "additionalProperties": False,
        "description": "the card turned face up from the stock, to be used at once or "
                       "passed (`turn.stock_card: turned`), or null"},
    "last_turns": {"type": ["object", "null"], "properties": {
        "out": {"type": "integer", "description": "the seat that went out first"},
        "left": {"type": "integer", "minimum": 1,
                 "description": "the last turns still to play, the one being played among "
                                "them"}},
        "required": ["out", "left"], "additionalProperties": False,
        "description": "after a player went out, the others' last turns "
                       "(`going_out.last_turns`), or null"},
    "wild": {"type": "array", "items": {"type": "string"},
             "description": "the ranks wild in this deal, in rank order (`JK` for jokers): "
                            "`cards.wild`, a schedule's deal's, and a rank turned "
                            "(`cards.turned_wild`)"},
    "wild_rank": {"type": ["object", "null"], "properties": {
        "turned": _cards(_CARD),
        "rank": {"type": ["string", "null"],
                 "description": "the rank wild this deal (null: none turned)"}},
        "required": ["turned", "rank"], "additionalProperties": False,
        "description": "the cards turned at the deal to name its wild rank (jokers, then "
                       "the card that names it), set aside face up (`cards.turned_wild`), "
                       "or null"},
    "rearranging": {"type": ["object", "null"], "properties": {
        "loose": _cards(_CARD),
        "broken": {"type": "boolean", "description": "a meld was broken this turn (the "
                                                     "table can be restored)"},
        "restored": {"type": "boolean", "description": "the table was restored this turn: "
                                                       "nothing more is broken"},
        "laid_this_turn": {"type": "array", "items": {"type": "string"},
                           "description": "melds laid this turn (never broken), by id"},
        "turn_hand_size": {"type": "integer", "description": "cards the player to move "
                                                             "held as the turn began"}},
        "required": ["loose", "broken", "restored", "laid_this_turn", "turn_hand_size"],
        "additionalProperties": False,
        "description": "this turn's rearranging (`melds.rearrange`; with no discard pile, "
                       "`turn.play_or_draw` or `turn.discard: false`, too): "
                       "the cards lifted off the table and not yet laid again, face up; "
                       "or null"},
}, _CARD, ["first_upcard", "draw", "play", "discard", "knock", "layoff", "wall", "buy",
           "turned", "over"],
    "view() of a table-meld game (gin, rummy)")

HOUSES_VIEW = _engine({
    "you": {**_SEAT, "description": "the seat (as `player`)"},
    "players": {"type": "array", "items": _obj({
        "seat": _SEAT, "team": {"type": "integer"}, "hand_size": {"type": "integer"},
        "passed_card_waiting": {"type": "boolean",
                                "description": "a face-down card waits (never which)"},
        "groups": {"type": "array", "items": {"type": "array", "items": _HCARD}},
        "removed": {"type": "array", "items": {"type": "array", "items": _HCARD}}})},
    "scores": _INTS,
    "proposal_pending": {"type": "boolean"},
}, _HCARD, ["take", "act", "answer", "over"], "view() of Houses")


def schema(view: dict[str, Any]) -> dict[str, Any]:
    """A view schema (``TABLE_VIEW`` …) as a whole JSON Schema document (draft 2020-12):
    what an engine's ``view_schema()`` returns."""
    return {"$schema": _DIALECT, **view}


def view_schema(state) -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) that ``state.view(p)`` follows: the engine's
    ``view_schema()`` (each engine has one)."""
    hook = getattr(state, "view_schema", None)
    if hook is None:
        raise TypeError(f"engine {type(state).__name__} publishes no view schema")
    return hook()


def view_schema_document() -> dict[str, Any]:
    """The published schema: the core (every view follows it) and, under ``$defs``, each
    bundled engine's whole schema (``canasta``, ``table``, ``houses``).

    >>> doc = view_schema_document()
    >>> sorted(doc["$defs"]), doc["required"] == sorted(CORE_KEYS)
    (['canasta', 'houses', 'table'], True)
    """
    return {"$schema": _DIALECT, "$id": _ID, **CORE,
            "$defs": {"canasta": RUMMY_VIEW, "table": TABLE_VIEW, "houses": HOUSES_VIEW}}


def view_schema_text() -> str:
    """:func:`view_schema_document` as the text of the shipped ``view.schema.json``."""
    return json.dumps(view_schema_document(), indent=2, ensure_ascii=False) + "\n"


def shipped_view_schema_path() -> str:
    """The path of ``view.schema.json`` installed with meldkit.

    >>> shipped_view_schema_path().endswith("view.schema.json")
    True
    """
    import pathlib

    return str(pathlib.Path(__file__).resolve().parents[1] / SHIPPED_VIEW_SCHEMA)
