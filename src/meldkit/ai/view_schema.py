"""JSON Schemas of :meth:`~meldkit.GameState.view`, one per engine (as packs have one).

>>> import meldkit
>>> from meldkit.ai.view_schema import view_schema
>>> g = meldkit.new_game("gin_rummy", players=2, seed=1)
>>> sorted(view_schema(g)["required"])[:4]
['current_player', 'deadwood', 'hand', 'hand_number']
"""

from __future__ import annotations

from typing import Any

__all__ = ["HOUSES_VIEW", "RUMMY_VIEW", "TABLE_VIEW", "view_schema"]

_SEAT = {"type": "integer", "minimum": 0}
_SEAT_OR_NULL = {"type": ["integer", "null"], "minimum": 0}
_CARD = {"type": "string", "pattern": "^([AJQK2-9]|10)[CDHS]$|^JK$",
         "description": "a card code: rank and suit (7H, 10D, QS) or JK"}
_CARDS = {"type": "array", "items": _CARD}
_INTS = {"type": "array", "items": {"type": "integer"}}
_LEGAL = {"type": "array", "items": {"type": "string"},
          "description": "the legal actions' notation (only for the player to move)"}


def _obj(props: dict[str, Any], required=None, **extra) -> dict[str, Any]:
    return {"type": "object", "properties": props,
            "required": sorted(required if required is not None else props),
            "additionalProperties": False, **extra}


TABLE_VIEW = _obj({
    "pack": {"type": "string"},
    "player": _SEAT,
    "hand_number": {"type": "integer", "minimum": 1},
    "phase": {"enum": ["first_upcard", "draw", "play", "discard", "knock", "layoff", "wall",
                       "over"]},
    "current_player": _SEAT_OR_NULL,
    "hand": {**_CARDS, "description": "the player's own hand, sorted"},
    "hand_sizes": _INTS,
    "stock": {"type": "integer", "minimum": 0, "description": "cards left in the stock"},
    "pile": {**_CARDS, "description": "the discard pile, bottom first (face up)"},
    "melds": {"type": "array", "items": _obj({
        "id": {"type": "string", "pattern": "^m[0-9]+$"}, "owner": _SEAT,
        "kind": {"type": "string"}, "cards": _CARDS})},
    "deadwood": {"type": "integer", "description": "the player's least deadwood"},
    "knock_value": {"type": ["integer", "null"]},
    "knocker": _SEAT_OR_NULL,
    "scores": _INTS,
}, title="view() of a table-meld game (gin, rummy)")

RUMMY_VIEW = _obj({
    "pack": {"type": "string"},
    "you": _SEAT,
    "team": {"type": "integer"},
    "hand_number": {"type": "integer", "minimum": 1},
    "phase": {"enum": ["draw", "play", "over"]},
    "current_player": _SEAT_OR_NULL,
    "dealer": _SEAT,
    "hand": _CARDS,
    "players": {"type": "array", "items": _obj({
        "seat": _SEAT, "team": {"type": "integer"}, "hand_size": {"type": "integer"},
        "reserve_size": {"type": "integer"}, "reserve_picked_up": {"type": "boolean"},
        "bonus": _CARDS, "out": {"type": "boolean"}})},
    "teams": {"type": "array", "items": _obj({
        "team": {"type": "integer"}, "players": _INTS, "score": {"type": "integer"},
        "melded": {"type": "boolean"}, "minimum": {"type": "integer"},
        "melds": {"type": "array", "items": _obj({
            "rank": {"type": "string",
                     "description": "the meld's rank, `wild`, or `run` for a suited sequence"},
            "sequence": {"type": "string", "pattern": "^([AJQK2-9]|10)[CDHS]-([AJQK2-9]|10)[CDHS]$",
                         "description": "a suited sequence's ends (4H-6H), as actions name it"},
            "cards": _CARDS, "closed": {"type": "boolean"},
            "book": {"type": ["string", "null"]}, "pending": {"type": "boolean"}},
            required=["rank", "cards", "closed", "book", "pending"])}})},
    "stock_size": {"type": "integer", "minimum": 0},
    "pile": _obj({"top": {"anyOf": [_CARD, {"type": "null"}]},
                  "size": {"type": "integer", "minimum": 0}, "frozen": {"type": "boolean"}}),
    "legal_actions": _LEGAL,
    "plugin": {"description": "what the pack's plugin adds (its own shape)"},
}, required=["pack", "you", "team", "hand_number", "phase", "current_player", "dealer", "hand",
             "players", "teams", "stock_size", "pile"],
   title="view() of a canasta-family game (Pony Tail, Pony Canasta)")

_HCARD = {"type": "string", "pattern": "^[A-Z]{2}$", "description": "role + house code"}
HOUSES_VIEW = _obj({
    "pack": {"type": "string"},
    "you": _SEAT,
    "team": {"type": "integer"},
    "phase": {"enum": ["take", "act", "answer", "over"]},
    "current_player": _SEAT_OR_NULL,
    "hand": {"type": "array", "items": _HCARD},
    "stock_size": {"type": "integer", "minimum": 0},
    "players": {"type": "array", "items": _obj({
        "seat": _SEAT, "team": {"type": "integer"}, "hand_size": {"type": "integer"},
        "passed_card_waiting": {"type": "boolean",
                                "description": "a face-down card waits (never which)"},
        "groups": {"type": "array", "items": {"type": "array", "items": _HCARD}},
        "removed": {"type": "array", "items": {"type": "array", "items": _HCARD}}})},
    "scores": _INTS,
    "proposal_pending": {"type": "boolean"},
    "legal_actions": _LEGAL,
}, required=["pack", "you", "team", "phase", "current_player", "hand", "stock_size", "players",
             "scores", "proposal_pending"], title="view() of Houses")


def schema(view: dict[str, Any]) -> dict[str, Any]:
    """A view schema (``TABLE_VIEW`` …) as a whole JSON Schema document (draft 2020-12):
    what an engine's ``view_schema()`` returns."""
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", **view}


def view_schema(state) -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) that ``state.view(p)`` follows: the engine's
    ``view_schema()`` (each engine has one)."""
    hook = getattr(state, "view_schema", None)
    if hook is None:
        raise TypeError(f"engine {type(state).__name__} publishes no view schema")
    return hook()
