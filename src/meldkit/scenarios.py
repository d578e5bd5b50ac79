"""Rule scenarios: a pack author's tests, written in YAML, run without Python.

A scenario deals a stacked first hand (the cards you name for each seat's hand and
reserve pile, the upcard, the top of the stock; every other card is a plain filler, as
:func:`meldkit.testing.stacked_game` deals), plays a script of moves in notation, and
checks expectations after any step: that a move is legal or refused with a given reason
code, a player's hand, the pile, the score items of the hand that ended, the game being
over.  ``meldkit test PACK FILES...`` runs them and reports every failure as
``file:line:col`` with the difference.

>>> text = '''
... scenarios:
...   - name: a black 3 on the pile blocks it
...     deal:
...       hands: {0: [9H, 9S]}
...       upcard: 3C
...     steps:
...       - move: take 9 9
...         refused: pile/blocked
...       - expect: {pile: {top: 3C, blocked: true}}
... '''
>>> [r.passed for r in run_scenario_text("pony_tail", text)]
[True]
>>> bad = text.replace("pile/blocked", "pile/frozen-needs-pair")
>>> (result,) = run_scenario_text("pony_tail", bad, "blocked.yaml")
>>> print(result.failures[0])  # doctest: +NORMALIZE_WHITESPACE
blocked.yaml:9:18: a black 3 on the pile blocks it, step 1 (take 9 9): expected it to be
refused with pile/frozen-needs-pair, but it was refused with pile/blocked: a 3C on top
blocks the pile
"""

from __future__ import annotations

import difflib
import os
import pathlib
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

import attrs

from ._cards import RANKS, is_card_code, is_rank, kind_of_code, kinds_matching, rank_index
from ._errors import (MeldkitError, NotationError, PackProblem, SetupError, cut_path,
                      problems_message, quoted)

__all__ = [
    "DEAL_KEYS",
    "EXPECT_KEYS",
    "SCENARIO_KEYS",
    "MAX_DEPTH",
    "MAX_FILE_BYTES",
    "MAX_FILE_STEPS",
    "MAX_SCENARIOS",
    "MAX_SCENARIO_STEPS",
    "MAX_STACKED_DEALS",
    "MAX_VALUES",
    "STEP_KEYS",
    "Scenario",
    "ScenarioError",
    "ScenarioFailure",
    "ScenarioResult",
    "bundled_scenarios",
    "load_scenarios",
    "run_scenario_text",
    "run_scenarios",
    "scenario_files",
]

MAX_FILE_BYTES = 2_000_000
"""A scenario file larger than this is refused unread (files are untrusted input)."""

SCENARIO_KEYS: dict[str, str] = {
    "name": "What the scenario shows (required); failures are reported under it.",
    "players": "Number of players (default: the file's `players`, else the pack's minimum).",
    "first_player": "The seat that plays first (default 0).",
    "seed": "Seed of the shuffle of the cards the deal does not name (default 0).",
    "options": "Game options, e.g. `{partners: true}`, `{contracts_met: [9, 4]}`.",
    "start_scores": "Each team's score before the first move, e.g. `[15000, 0]` "
                    "(the initial-meld minimum depends on it); refused for a pack with score "
                    "sheets (`scoring.sheets`), whose scores are the sheets' sums.",
    "deal": "The stacked first hand (its keys follow).",
    "deals": "Later deals stacked, by deal number: `{2: {hands: {0: [JK, 5S]}}}`, each with "
             "`deal`'s keys; a deal's cards go to the seats named when it is dealt (the "
             "scenario is replayed from the start with it stacked).",
    "steps": "The script: a list of steps (their keys follow), played in order.",
}
DEAL_KEYS: dict[str, str] = {
    "hands": "Cards in each seat's hand, by seat: `{0: [9H, 9S, KH]}`; the rest of each hand "
             "is plain filler cards.",
    "reserves": "Cards in each seat's reserve pile (Pony Tail, Pony), by seat; by side where "
                "a table pack deals a pile to each side (Buraco's mortos).",
    "upcard": "The card turned up to start the pile (a list when the pack turns again).",
    "stock": "The top of the stock after the upcard, top first: the next cards drawn — "
             "after the card turned for the deal's wild rank, where the pack turns one "
             "(`cards.turned_wild`: the first card, and the next after a joker).",
}
STEP_KEYS: dict[str, str] = {
    "move": "One move in the pack's notation, played by the seat to play: `draw`, "
            "`take 9 9`, `meld 9 9 2`, `discard K` (or `meld 4H 5H 6H` where suits count).",
    "moves": "Several moves in order, as a list; the step's other keys apply after the last.",
    "by": "The seat that must be the one to play the move(s).",
    "refused": "The reason code the move must be refused with (`pile/blocked`), or `true` "
               "for any reason; the move is then not played.",
    "expect": "What must hold after the step's moves (or now, in a step without a move); "
              "its keys follow.",
}
EXPECT_KEYS: dict[str, str] = {
    "legal": "Moves that are legal now, as a list of notation.",
    "refused": "Moves refused now, each with its reason code: `{take 9 9: pile/blocked}` "
               "(`true`: any reason).",
    "hand": "Each named seat's whole hand: `{0: [9H, 9S, KH]}` compares card codes; a list of "
            "ranks only (`[9, 9, K]`) compares ranks. Order does not matter.",
    "hand_contains": "Cards each named seat holds at least: `{0: [9H]}`.",
    "hand_size": "Each named seat's number of cards in hand: `{0: 15}`.",
    "bonus": "Each named seat's laid-out bonus cards (red threes): `{0: [3H]}`.",
    "loose": "The cards lying loose, lifted off the table this turn and not yet laid again "
             "(`melds.rearrange`), in any order: `[5H, 6H, 7H]` (`[]`: none).",
    "reserve_picked_up": "Whether each named seat has picked up its reserve: `{0: true}`.",
    "melds": "Each named team's melds on the table, each a list of cards (codes or ranks), in "
             "any order: `{0: [[9H, 9S, 9D]]}`.",
    "pile": "The discard pile: `top` (a card code, or null when empty), `size`, `frozen`, "
            "`blocked` (its top card blocks it).",
    "turn": "The seat to play.",
    "phase": "The phase of the turn (`draw`, `play`).",
    "hand_number": "Which hand is being played (1 = the first).",
    "hand_ended": "How the last hand ended: `went_out`, `stock_empty`, `turn_limit`, "
                  "`no_legal_move`, `no_progress`; `one_side_left` (melds by rank); "
                  "`all_dropped`, `wall`, `limit`, and a knock's `knock`, `gin`, `big_gin` or "
                  "`undercut` (table packs); Houses' `table_cleared`, `agreed`, `all_passed`, "
                  "`repetition`; null: no hand has ended yet in this scenario.",
    "went_out": "The seat that went out of the last hand, or that ended it otherwise: the "
                "knocker, the player left in when the others dropped, the lowest count "
                "(`hand_ended` says which); null: nobody.",
    "hand_score": "Score items of the last hand, by team: `{0: {books: 5000, going_out: 100, "
                  "total: 5400}}`; items: books, book_kinds, melded_cards, bonus_cards, "
                  "dead_cards, hand_cards, reserve_cards, going_out, adjustments, total, and "
                  "the table packs' laid, held, cards_in_other_hands, cards_in_hand, "
                  "out_at_once, deadwood, gin, big_gin, undercut, reserve_untaken, and "
                  "payment (`pay`).",
    "scores": "Each team's game score: `[5400, -120]` (`null` for a team not compared: "
              "`[0, 125, null, null]`).",
    "contracts_met": "How many contracts each seat has met (`initial_meld.contracts`): "
                     "`[2, 1, 1]`.",
    "contract": "The meld kinds each named seat's contract asks for now, as the pack writes "
                "them: `{0: [set, run]}` (with `initial_meld.contracts`, the first the seat "
                "has not met).",
    "sheets": "Each named score sheet's totals by team (`scoring.sheets`): "
              "`{game_1: [45, 0]}`.",
    "payments": "The last hand's payments (`pay` items), each `[payer, payee, points]` in "
                "order: `[[1, 0, 24]]` (`[]`: none).",
    "game_over": "Whether the game is over.",
    "winner": "The winning team (null: none, or a tie).",
}
PILE_KEYS = ("top", "size", "frozen", "blocked")
SCORE_ITEMS = ("books", "book_kinds", "melded_cards", "bonus_cards", "dead_cards",
               "hand_cards", "reserve_cards", "going_out", "adjustments", "total",
               # the labels of the table packs' items (scoring.items, the styles' presets)
               "laid", "held", "cards_in_other_hands", "cards_in_hand", "out_at_once",
               "deadwood", "gin", "big_gin", "undercut", "reserve_untaken", "payment",
               # the game's end, on the last hand (game.box_bonus, game_bonus, shutout)
               "box", "game", "shutout",
               # a rejoin's move of a total after the hand (game.rejoin)
               "rejoin")
_LINE_FIELDS = ("books", "book_kinds", "melded_cards", "bonus_cards", "dead_cards",
                "hand_cards", "reserve_cards", "going_out", "adjustments", "total")
"""The score items a line names as fields; any other is the sum of its label's items."""
_FILE_KEYS = {"players": "default number of players", "scenarios": "the list of scenarios",
              "pack": "the pack the file is written for (informative)"}


class ScenarioError(MeldkitError, ValueError):
    """A scenario file that cannot be read: ``problems`` lists each one with its
    ``file:line:col``."""

    def __init__(self, problems: list[PackProblem]):
        self.problems = list(problems)
        super().__init__(problems_message(self.problems, "scenario file"))


@attrs.frozen
class _At:
    line: int | None = None
    col: int | None = None


@attrs.frozen
class _Expect:
    key: str
    value: Any
    at: _At
    arg: Any = None
    """A seat or team for per-seat keys, a move for ``refused``."""


@attrs.frozen
class _Step:
    number: int
    moves: tuple[tuple[str, _At], ...]
    by: int | None
    refused: Any
    refused_at: _At
    expects: tuple[_Expect, ...]
    at: _At = _At()
    """Where the step was written."""


@attrs.frozen
class Scenario:
    """One scenario as read from a file (see the module docstring)."""

    name: str
    file: str
    line: int | None
    col: int | None
    players: int | None
    first_player: int
    seed: int
    options: dict | None
    start_scores: tuple[int, ...] | None
    hands: dict[int, list[str]]
    reserves: dict[int, list[str]]
    upcard: Any
    stock: list[str]
    deal_at: Any = attrs.field(repr=False)
    seat_at: dict = attrs.field(repr=False)
    steps: tuple[_Step, ...] = attrs.field(repr=False)
    later: dict = attrs.field(factory=dict, repr=False)
    """Deal number (2, 3 …) -> its stacked :class:`_Deal` (``deals:``)."""
    options_at: Any = attrs.field(default=None, repr=False)
    """Where ``options:`` was written (a bad game option is reported there)."""


@attrs.frozen
class _Deal:
    """A stacked deal as read from a scenario (``deal:``, or an entry of ``deals:``)."""

    hands: dict[int, list[str]]
    reserves: dict[int, list[str]]
    upcard: Any
    stock: list[str]
    at: Any
    seat_at: dict


@attrs.frozen
class ScenarioFailure:
    """An expectation that did not hold, or a step that could not be played."""

    file: str
    line: int | None
    col: int | None
    scenario: str
    step: str
    message: str

    def __str__(self) -> str:
        where = ":".join([self.file] + [str(n) for n in (self.line, self.col) if n is not None])
        step = f", {self.step}" if self.step else ""
        return f"{where}: {self.scenario}{step}: {self.message}"


@attrs.frozen
class ScenarioResult:
    """The outcome of one scenario."""

    name: str
    file: str
    line: int | None
    failures: tuple[ScenarioFailure, ...]

    @property
    def passed(self) -> bool:
        """True when every step could be played and every expectation held."""
        return not self.failures


# --------------------------------------------------------------------------- reading


def _kind_text(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return f"{str(value).lower()} (a boolean)"
    if isinstance(value, int):
        return f"{value} (an integer)"
    if isinstance(value, float):
        return f"{value} (a decimal number)"
    if isinstance(value, str):
        return f"{quoted(value)} (a string)"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    return type(value).__name__


class _Reader:
    """Turns the ruamel round-trip tree of a scenario file into :class:`Scenario`
    objects, collecting every problem with its position."""

    def __init__(self, label: str):
        self.label = label
        self.problems: list[PackProblem] = []
        self.file_steps = 0
        self.step_lists: set[int] = set()

    def problem(self, at: _At, path: str, message: str, suggestion: str | None = None) -> None:
        self.problems.append(PackProblem(self.label, at.line, at.col, cut_path(path), message,
                                         suggestion))

    @staticmethod
    def at_key(node: Any, key: Any) -> _At:
        try:
            line, col = node.lc.key(key)
            return _At(line + 1, col + 1)
        except (AttributeError, KeyError, TypeError):
            return _At()

    @staticmethod
    def at_value(node: Any, key: Any) -> _At:
        """Where the value of ``node[key]`` (a mapping key or a list index) was written."""
        try:
            if isinstance(key, int) and isinstance(node, list):
                line, col = node.lc.item(key)
            else:
                line, col = node.lc.value(key)
            return _At(line + 1, col + 1)
        except (AttributeError, KeyError, TypeError, IndexError):
            return _At()

    @staticmethod
    def at_node(node: Any, default: _At) -> _At:
        try:
            return _At(node.lc.line + 1, node.lc.col + 1)
        except AttributeError:
            return default

    def mapping(self, node: Any, at: _At, path: str, keys: Iterable[str]) -> bool:
        """Whether ``node`` is a mapping; reports unknown keys with a did-you-mean."""
        if not isinstance(node, dict):
            self.problem(at, path, f"expected a mapping, got {_kind_text(node)}")
            return False
        known = list(keys)
        for key in node:
            if key not in known:
                close = difflib.get_close_matches(str(key), known, n=1)
                msg = ("unknown key" if close
                       else f"unknown key (expected one of {', '.join(known)})")
                self.problem(self.at_key(node, key), f"{path}.{key}" if path else str(key), msg,
                             close[0] if close else None)
        return True

    def integer(self, node: dict, key: str, path: str, least: int = 0) -> int | None:
        value = node[key]
        at = self.at_value(node, key)
        if isinstance(value, bool) or not isinstance(value, int):
            self.problem(at, path, f"expected a whole number, got {_kind_text(value)}")
            return None
        if value < least:
            self.problem(at, path, f"expected {least} or more, got {value}")
            return None
        return int(value)

    def text(self, node: Any, key: Any, path: str) -> str | None:
        value = node[key]
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            value = str(value)  # `discard 9` is text; a bare 9 in a list of ranks too
        if not isinstance(value, str) or not value.strip():
            self.problem(self.at_value(node, key), path,
                         f"expected text, got {_kind_text(value)}")
            return None
        return str(value)

    def cards(self, node: Any, key: Any, path: str, ranks_ok: bool) -> list[str] | None:
        """A list of card codes (or of ranks, if ``ranks_ok``)."""
        value = node[key]
        at = self.at_value(node, key)
        if isinstance(value, str) and not ranks_ok:
            value_list = [value]
        elif not isinstance(value, list):
            self.problem(at, path, f"expected a list of cards, got {_kind_text(value)}")
            return None
        else:
            value_list = value
        out = []
        ok = True
        for i, item in enumerate(value_list):
            plain = isinstance(item, (str, int)) and not isinstance(item, bool)
            code = str(item) if plain else None
            where = self.at_value(value, i) if isinstance(value, list) else at
            if code is None:
                self.problem(where, f"{path}[{i}]", f"expected a card code, got {_kind_text(item)}")
                ok = False
                continue
            if not is_card_code(code) and not (ranks_ok and is_rank(code)):
                hint = (" (a card code has a rank and a suit: 9H, 10D, JK)" if not ranks_ok
                        else " (a card code such as 9H, or a rank such as 9)")
                self.problem(where, f"{path}[{i}]", f"{quoted(code)} is not a card{hint}")
                ok = False
                continue
            out.append(code.strip().upper())
        return out if ok else None

    def seats(self, node: Any, key: str, path: str) -> dict | None:
        """A mapping of seat (or team) numbers, with the position of each."""
        value = node[key]
        at = self.at_value(node, key)
        if not isinstance(value, dict):
            self.problem(at, path, f"expected a mapping of seat numbers, e.g. {{0: ...}}, got "
                                   f"{_kind_text(value)}")
            return None
        ok = True
        for seat in value:
            if isinstance(seat, bool) or not isinstance(seat, int) or seat < 0:
                self.problem(self.at_key(value, seat), f"{path}.{seat}",
                             f"expected a seat number (0, 1, ...), got {_kind_text(seat)}")
                ok = False
        return value if ok else None

    # -- the file -------------------------------------------------------------------------

    def file(self, root: Any) -> list[Scenario]:
        if isinstance(root, list):
            items, default_players, at = root, None, _At(1, 1)
        else:
            if not self.mapping(root, _At(1, 1), "", _FILE_KEYS):
                return []
            if "scenarios" not in root:
                self.problem(_At(1, 1), "", "expected a 'scenarios:' list")
                return []
            default_players = None
            if "players" in root:
                default_players = self.integer(root, "players", "players", 1)
            items = root["scenarios"]
            at = self.at_value(root, "scenarios")
            if not isinstance(items, list):
                self.problem(at, "scenarios", f"expected a list of scenarios, got "
                                              f"{_kind_text(items)}")
                return []
        if len(items) > MAX_SCENARIOS:  # aliases expanded (the parse counted them once)
            self.problem(self.at_node(items[MAX_SCENARIOS], self.at_value(items, MAX_SCENARIOS)),
                         f"scenarios[{MAX_SCENARIOS}]", _too_many_scenarios())
            return []
        out = []
        for i, item in enumerate(items):
            if not self.steps_within(item, self.at_value(items, i), f"scenarios[{i}]"):
                break
            sc = self.scenario(item, self.at_value(items, i), f"scenarios[{i}]", default_players)
            if sc is not None:
                out.append(sc)
        return out

    def steps_within(self, node: Any, at: _At, path: str) -> bool:
        """Whether scenario ``node``'s steps keep within :data:`MAX_SCENARIO_STEPS` and,
        with the scenarios before it, :data:`MAX_FILE_STEPS`; else the problem, at the step
        that crosses the limit."""
        raw = node.get("steps") if isinstance(node, dict) else None
        if not isinstance(raw, list):
            return True
        repeated = id(raw) in self.step_lists  # an alias: locate it at this scenario's key
        self.step_lists.add(id(raw))
        count = 0
        for i, step in enumerate(raw):
            moves = step.get("moves") if isinstance(step, dict) else None
            count += max(len(moves), 1) if isinstance(moves, list) else 1
            in_file = self.file_steps + count > MAX_FILE_STEPS
            if count > MAX_SCENARIO_STEPS or in_file:
                if repeated:
                    self.problem(self.at_key(node, "steps"), f"{path}.steps",
                                 _too_many_steps(in_file))
                else:
                    self.problem(self.at_node(step, self.at_value(raw, i)),
                                 f"{path}.steps[{i}]", _too_many_steps(in_file))
                return False
        self.file_steps += count
        return True

    def scenario(self, node: Any, at: _At, path: str, players: int | None) -> Scenario | None:
        at = self.at_node(node, at)
        if not self.mapping(node, at, path, SCENARIO_KEYS):
            return None
        before = len(self.problems)
        name = self.text(node, "name", f"{path}.name") if "name" in node else None
        if "name" not in node:
            self.problem(at, path, "expected a 'name:' saying what the scenario shows")
        if "players" in node:
            players = self.integer(node, "players", f"{path}.players", 1)
        first = self.integer(node, "first_player", f"{path}.first_player") \
            if "first_player" in node else 0
        seed = self.integer(node, "seed", f"{path}.seed") if "seed" in node else 0
        options = None
        if "options" in node:
            options = node["options"]
            if not isinstance(options, dict):
                self.problem(self.at_value(node, "options"), f"{path}.options",
                             f"expected a mapping, got {_kind_text(options)}")
            options = _plain(options)
        start = None
        if "start_scores" in node:
            v = node["start_scores"]
            if not isinstance(v, list) or any(isinstance(x, bool) or not isinstance(x, int)
                                              for x in v):
                self.problem(self.at_value(node, "start_scores"), f"{path}.start_scores",
                             "expected a list of whole numbers, one per team")
            else:
                start = tuple(int(x) for x in v)
        first_deal = _Deal({}, {}, None, [], at, {})
        if "deal" in node:
            first_deal = self.deal(node["deal"], self.at_value(node, "deal"), f"{path}.deal")
        later: dict[int, _Deal] = {}
        if "deals" in node:
            deals = node["deals"]
            deals_at = self.at_value(node, "deals")
            if not isinstance(deals, dict):
                self.problem(deals_at, f"{path}.deals", "expected a mapping of deal numbers "
                             f"(2, 3 …) to deals, got {_kind_text(deals)}")
            elif len(deals) > MAX_STACKED_DEALS:
                self.problem(deals_at, f"{path}.deals", f"{len(deals)} deals stacked, but a "
                             f"scenario stacks at most {MAX_STACKED_DEALS} (each is dealt by "
                             "playing the scenario again): split it")
            else:
                for n in deals:
                    key_at = self.at_key(deals, n)
                    if isinstance(n, bool) or not isinstance(n, int) or n < 2:
                        self.problem(key_at, f"{path}.deals.{n}", "expected a deal number "
                                     f"after the first (2, 3 …; the first is deal:), got "
                                     f"{_kind_text(n)}")
                        continue
                    later[int(n)] = self.deal(deals[n], self.at_value(deals, n),
                                              f"{path}.deals.{n}")
        steps: list[_Step] = []
        if "steps" in node:
            raw = node["steps"]
            if not isinstance(raw, list):
                self.problem(self.at_value(node, "steps"), f"{path}.steps",
                             f"expected a list of steps, got {_kind_text(raw)}")
            else:
                for i, item in enumerate(raw):
                    step = self.step(item, self.at_value(raw, i), f"{path}.steps[{i}]", i + 1)
                    if step is not None:
                        steps.append(step)
        if len(self.problems) > before or name is None:
            return None
        return Scenario(name=name, file=self.label, line=at.line, col=at.col, players=players,
                        first_player=first or 0, seed=seed or 0, options=options,
                        start_scores=start, hands=first_deal.hands,
                        reserves=first_deal.reserves, upcard=first_deal.upcard,
                        stock=first_deal.stock, deal_at=first_deal.at,
                        seat_at=first_deal.seat_at, steps=tuple(steps), later=later,
                        options_at=self.at_value(node, "options") if options else None)

    def deal(self, deal: Any, deal_at: _At, path: str) -> _Deal:
        """A stacked deal: ``hands``, ``reserves``, ``upcard``, ``stock``."""
        hands: dict[int, list[str]] = {}
        reserves: dict[int, list[str]] = {}
        upcard: Any = None
        stock: list[str] = []
        seat_at: dict = {}
        if self.mapping(deal, deal_at, path, DEAL_KEYS):
            for part, target in (("hands", hands), ("reserves", reserves)):
                if part in deal:
                    seats = self.seats(deal, part, f"{path}.{part}")
                    for seat in seats or {}:
                        cards = self.cards(seats, seat, f"{path}.{part}.{seat}", False)
                        if cards is not None:
                            target[int(seat)] = cards  # a plain int, not ruamel's
                            seat_at[(part, int(seat))] = self.at_key(seats, seat)
            if "upcard" in deal:
                up = self.cards(deal, "upcard", f"{path}.upcard", False)
                if up is not None:
                    upcard = up[0] if isinstance(deal["upcard"], str) else up
            if "stock" in deal:
                stock = self.cards(deal, "stock", f"{path}.stock", False) or []
        return _Deal(hands, reserves, upcard, stock, deal_at, seat_at)

    def step(self, node: Any, at: _At, path: str, number: int) -> _Step | None:
        at = self.at_node(node, at)
        if isinstance(node, str):  # a bare move: `- draw`
            return _Step(number, ((node, at),), None, None, at, (), at)
        if not self.mapping(node, at, path, STEP_KEYS):
            return None
        if not node:
            self.problem(at, path, "an empty step (expected move, moves, or expect)")
            return None
        moves: list[tuple[str, _At]] = []
        if "move" in node and "moves" in node:
            self.problem(self.at_key(node, "moves"), f"{path}.moves",
                         "write move (one) or moves (a list), not both")
        if "move" in node:
            text = self.text(node, "move", f"{path}.move")
            if text is not None:
                moves.append((text, self.at_value(node, "move")))
        if "moves" in node:
            raw = node["moves"]
            if not isinstance(raw, list) or not raw:
                self.problem(self.at_value(node, "moves"), f"{path}.moves",
                             f"expected a list of moves, got {_kind_text(raw)}")
            else:
                for i in range(len(raw)):
                    text = self.text(raw, i, f"{path}.moves[{i}]")
                    if text is not None:
                        moves.append((text, self.at_value(raw, i)))
        by = self.integer(node, "by", f"{path}.by") if "by" in node else None
        refused: Any = None
        refused_at = at
        if "refused" in node:
            refused_at = self.at_value(node, "refused")
            refused = node["refused"]
            if refused is not True and not isinstance(refused, str):
                self.problem(refused_at, f"{path}.refused",
                             f"expected a reason code such as pile/blocked, or true, got "
                             f"{_kind_text(refused)}")
            elif len(moves) != 1:
                self.problem(refused_at, f"{path}.refused",
                             "refused: needs exactly one move in the step (move: ...)")
        expects: list[_Expect] = []
        if "expect" in node:
            expects = self.expect(node["expect"], self.at_value(node, "expect"), f"{path}.expect")
        return _Step(number, tuple(moves), by, refused, refused_at, tuple(expects), at)

    def expect(self, node: Any, at: _At, path: str) -> list[_Expect]:
        if not self.mapping(node, at, path, EXPECT_KEYS):
            return []
        out: list[_Expect] = []
        for key in node:
            if key not in EXPECT_KEYS:
                continue
            kp = f"{path}.{key}"
            vat = self.at_value(node, key)
            value = node[key]
            if key == "legal":
                items = value if isinstance(value, list) else [value]
                for i in range(len(items)):
                    text = self.text(items, i, f"{kp}[{i}]") if isinstance(value, list) \
                        else self.text(node, key, kp)
                    if text is not None:
                        where = self.at_value(value, i) if isinstance(value, list) else vat
                        out.append(_Expect(key, text, where))
            elif key == "refused":
                if not isinstance(value, dict):
                    self.problem(vat, kp, "expected a mapping of moves to reason codes, e.g. "
                                          f"{{take 9 9: pile/blocked}}, got {_kind_text(value)}")
                    continue
                for move, code in value.items():
                    if not isinstance(move, (str, int)) or (code is not True
                                                            and not isinstance(code, str)):
                        self.problem(self.at_key(value, move), f"{kp}.{move}",
                                     "expected a move and its reason code (or true)")
                        continue
                    out.append(_Expect(key, code, self.at_key(value, move), str(move)))
            elif key in ("hand", "hand_contains", "bonus"):
                seats = self.seats(node, key, kp)
                for seat in seats or {}:
                    cards = self.cards(seats, seat, f"{kp}.{seat}", key != "bonus")
                    if cards is not None:
                        out.append(_Expect(key, cards, self.at_value(seats, seat), int(seat)))
            elif key == "loose":
                cards = [] if node[key] == [] else self.cards(node, key, kp, False)
                if cards is not None:
                    out.append(_Expect(key, cards, self.at_key(node, key), None))
            elif key in ("hand_size", "reserve_picked_up"):
                seats = self.seats(node, key, kp)
                for seat in seats or {}:
                    v = seats[seat]
                    ok = isinstance(v, bool) if key == "reserve_picked_up" else (
                        isinstance(v, int) and not isinstance(v, bool) and v >= 0)
                    if not ok:
                        want = "true or false" if key == "reserve_picked_up" else "a whole number"
                        self.problem(self.at_value(seats, seat), f"{kp}.{seat}",
                                     f"expected {want}, got {_kind_text(v)}")
                        continue
                    out.append(_Expect(key, v, self.at_value(seats, seat), int(seat)))
            elif key == "melds":
                teams = self.seats(node, key, kp)
                for team in teams or {}:
                    melds = teams[team]
                    tat = self.at_value(teams, team)
                    if not isinstance(melds, list):
                        self.problem(tat, f"{kp}.{team}", "expected a list of melds, each a list "
                                                          f"of cards, got {_kind_text(melds)}")
                        continue
                    parsed = [self.cards(melds, i, f"{kp}.{team}[{i}]", True)
                              for i in range(len(melds))]
                    if all(p is not None for p in parsed):
                        out.append(_Expect(key, parsed, tat, int(team)))
            elif key == "pile":
                if self.mapping(value, vat, kp, PILE_KEYS):
                    for sub in value:
                        if sub not in PILE_KEYS:
                            continue
                        v = value[sub]
                        sat = self.at_value(value, sub)
                        if sub == "top" and v is not None:
                            plain = isinstance(v, (str, int)) and not isinstance(v, bool)
                            if not (plain and is_card_code(str(v))):
                                got = (f"{quoted(str(v))}, not a card" if plain
                                       else _kind_text(v))
                                self.problem(sat, f"{kp}.top", "expected one card code (9H, "
                                             f"10D, JK) or null for an empty pile, got {got}")
                                continue
                            out.append(_Expect("pile.top", str(v).strip().upper(), sat))
                            continue
                        if sub in ("frozen", "blocked") and not isinstance(v, bool):
                            self.problem(sat, f"{kp}.{sub}", f"expected true or false, got "
                                                             f"{_kind_text(v)}")
                            continue
                        if sub == "size" and (isinstance(v, bool) or not isinstance(v, int)):
                            self.problem(sat, f"{kp}.{sub}", f"expected a whole number, got "
                                                             f"{_kind_text(v)}")
                            continue
                        out.append(_Expect("pile." + sub, v, sat))
            elif key == "hand_score":
                teams = self.seats(node, key, kp)
                for team in teams or {}:
                    items = teams[team]
                    tat = self.at_value(teams, team)
                    if not self.mapping(items, tat, f"{kp}.{team}", SCORE_ITEMS):
                        continue
                    for item in items:
                        if item in SCORE_ITEMS:
                            out.append(_Expect(key, (item, _plain(items[item])),
                                               self.at_value(items, item), int(team)))
            elif key in ("turn", "hand_number", "went_out", "winner"):
                nullable = key in ("went_out", "winner")
                if value is None and nullable:
                    out.append(_Expect(key, None, vat))
                elif isinstance(value, bool) or not isinstance(value, int):
                    self.problem(vat, kp, f"expected a whole number{' or null' if nullable else ''}"
                                          f", got {_kind_text(value)}")
                else:
                    out.append(_Expect(key, int(value), vat))
            elif key == "game_over":
                if not isinstance(value, bool):
                    self.problem(vat, kp, f"expected true or false, got {_kind_text(value)}")
                else:
                    out.append(_Expect(key, value, vat))
            elif key in ("scores", "contracts_met"):
                if not isinstance(value, list) or any(
                        x is not None and (isinstance(x, bool) or not isinstance(x, int))
                        for x in value) or all(x is None for x in value):
                    per = "team" if key == "scores" else "seat"
                    self.problem(vat, kp, f"expected a list of whole numbers, one per {per} "
                                          "(null for one not compared)")
                else:
                    out.append(_Expect(key, [None if x is None else int(x) for x in value], vat))
            elif key == "contract":
                seats = self.seats(node, key, kp)
                for seat in seats or {}:
                    names = seats[seat]
                    if not isinstance(names, list) or not all(isinstance(x, str) for x in names):
                        self.problem(self.at_value(seats, seat), f"{kp}.{seat}",
                                     "expected a list of meld kind names, e.g. [set, run], "
                                     f"got {_kind_text(names)}")
                    else:
                        out.append(_Expect(key, list(names), self.at_value(seats, seat),
                                           int(seat)))
            elif key == "sheets":
                if not isinstance(value, dict) or not value:
                    self.problem(vat, kp, "expected a mapping of sheet names to totals, e.g. "
                                          f"{{game_1: [45, 0]}}, got {_kind_text(value)}")
                    continue
                for name, totals in value.items():
                    if not isinstance(totals, list) or any(
                            isinstance(x, bool) or not isinstance(x, int) for x in totals):
                        self.problem(self.at_value(value, name), f"{kp}.{name}",
                                     "expected a list of whole numbers, one per team")
                        continue
                    out.append(_Expect(key, list(totals), self.at_value(value, name),
                                       str(name)))
            elif key == "payments":
                if not isinstance(value, list) or any(
                        not isinstance(p, list) or len(p) != 3 or any(
                            isinstance(x, bool) or not isinstance(x, int) for x in p)
                        for p in value):
                    self.problem(vat, kp, "expected a list of [payer, payee, points], e.g. "
                                          "[[1, 0, 24]]")
                else:
                    out.append(_Expect(key, [list(p) for p in value], vat))
            elif key == "hand_ended" and value is None:  # no hand has ended yet
                out.append(_Expect(key, None, vat))
            else:  # phase, hand_ended
                text = self.text(node, key, kp)
                if text is not None:
                    out.append(_Expect(key, text, vat))
        return out


def _plain(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


MAX_VALUES = 50_000
"""Most values (mappings, lists, scalars and keys, after expanding aliases) a scenario file
may hold: reading is the dearest part of a run (the bundled files hold about 90 values per
scenario)."""
MAX_DEPTH = 16
"""Deepest nesting of lists and mappings in a scenario file."""
MAX_SCENARIOS = 500
"""Most scenarios in one file (each deals a game); split a longer suite into files."""
MAX_SCENARIO_STEPS = 1_000
"""Most steps in one scenario, each move of a ``moves:`` list counting as a step."""
MAX_FILE_STEPS = 10_000
"""Most steps in one file, counted as for :data:`MAX_SCENARIO_STEPS`."""
MAX_STACKED_DEALS = 20
"""Most later deals one scenario stacks (``deals:``): each is dealt by playing the scenario
again from its start (real schedules have at most ten deals)."""


def _too_many_scenarios() -> str:
    return (f"more than {MAX_SCENARIOS:,} scenarios (a scenario file holds at most "
            f"{MAX_SCENARIOS:,}: split them into several files)")


def _too_many_steps(in_file: bool) -> str:
    if in_file:
        return (f"more than {MAX_FILE_STEPS:,} steps in the file (a scenario file holds at "
                f"most {MAX_FILE_STEPS:,}, each move of a moves: list counting as one)")
    return (f"more than {MAX_SCENARIO_STEPS:,} steps in one scenario (a scenario holds at most "
            f"{MAX_SCENARIO_STEPS:,}, each move of a moves: list counting as one)")


class _Counter:
    """Counts scenarios and steps as the parser hands over YAML events, so a file with too
    many is refused where the limit is crossed, before the rest is read.  An alias counts
    as the one item it stands for here; :class:`_Reader` counts again on the built tree,
    aliases expanded."""

    # a collection's role, from its parent's role and its key (mappings) or none (lists)
    _VALUE_ROLES = {("root", "scenarios"): "scenarios", ("scenario", "steps"): "steps",
                    ("step", "moves"): "moves"}
    _ITEM_ROLES = {"root": "scenario", "scenarios": "scenario", "steps": "step",
                   "moves": "move"}

    def __init__(self) -> None:
        # per open collection: [role, is a mapping, next node is a key, its key, items seen]
        self.open: list[list[Any]] = []
        self.step_path = ""
        self.scenarios = 0
        self.steps = 0
        self.file_steps = 0

    def see(self, event: Any) -> None:
        from ruamel.yaml.events import (
            AliasEvent,
            CollectionEndEvent,
            CollectionStartEvent,
            MappingStartEvent,
            ScalarEvent,
        )

        if isinstance(event, CollectionEndEvent):
            if self.open:
                self.open.pop()
            return
        if not isinstance(event, (ScalarEvent, CollectionStartEvent, AliasEvent)):
            return
        role = "other"
        if not self.open:
            role = "root"
        else:
            parent = self.open[-1]
            if parent[1]:  # a mapping: keys and values alternate
                if parent[2]:
                    parent[2], parent[3] = False, getattr(event, "value", None)
                    role = "key"
                else:
                    parent[2] = True
                    role = self._VALUE_ROLES.get((parent[0], parent[3]), "other")
            else:
                parent[4] += 1
                role = self._ITEM_ROLES.get(parent[0], "other")
                if role == "move" and parent[4] == 1:
                    role = "other"  # a step's first move is the step itself
        if role == "scenario":
            self.scenarios += 1
            self.steps = 0
            if self.scenarios > MAX_SCENARIOS:
                raise _refused(_too_many_scenarios(), event, f"scenarios[{self.scenarios - 1}]")
        elif role in ("step", "move"):
            self.steps += 1
            self.file_steps += 1
            index = self.open[-1][4] - 1
            if role == "step":
                self.step_path = f"scenarios[{self.scenarios - 1}].steps[{index}]"
            if self.steps > MAX_SCENARIO_STEPS or self.file_steps > MAX_FILE_STEPS:
                path = self.step_path + (f".moves[{index}]" if role == "move" else "")
                raise _refused(_too_many_steps(self.file_steps > MAX_FILE_STEPS), event, path)
        if isinstance(event, CollectionStartEvent):
            self.open.append([role, isinstance(event, MappingStartEvent), True, None, 0])


def _refused(message: str, event: Any, path: str) -> Exception:
    """A scenario-file limit crossed at ``event``: the pack guard's ``Refused``, with the
    key path where it was."""
    from ._pack_limits import Refused

    exc = Refused(message, event.start_mark.line + 1, event.start_mark.column + 1)
    exc.path = path  # type: ignore[attr-defined]
    return exc


def _load_yaml(text: str) -> Any:
    """``text`` built by ruamel.yaml's round-trip loader (positions kept) in one pass whose
    every event passes the pack loader's guard (values, depth, tags) and :class:`_Counter`:
    the first refusal stops the build (``_pack_limits.Refused``)."""
    from ruamel.yaml import YAML

    from ._pack_limits import _comment_overlap, _EventGuard, _precheck, guarded_parser

    _precheck(text, MAX_DEPTH, MAX_FILE_BYTES)
    guard = _EventGuard(MAX_VALUES, MAX_DEPTH)
    counter = _Counter()
    yaml = YAML(typ="rt")

    def see(event: Any) -> None:
        guard.see(event)
        counter.see(event)

    yaml.Parser = guarded_parser(yaml.Parser, see, guard.anchor)
    try:
        return yaml.load(text)
    except NotImplementedError as exc:  # a comment layout ruamel cannot keep
        raise _comment_overlap(exc) from None


def _parse_text(text: str, label: str) -> Any:
    from ruamel.yaml.error import MarkedYAMLError, YAMLError
    from ruamel.yaml.reader import ReaderError

    from ._pack_limits import Refused, reader_error_position

    def problem(line: int | None, col: int | None, message: str) -> ScenarioError:
        return ScenarioError([PackProblem(label, line, col, "", message)])

    nul = text.find("\0")
    if nul >= 0:  # binary data, not text: say so before the parser does (it gives no place)
        raise problem(*reader_error_position(text, nul),
                      "a NUL byte: a scenario file is YAML text, not binary data")
    try:
        return _load_yaml(text)
    except Refused as exc:
        message = exc.message
        for pack_words, ours in (("a pack holds", "a scenario file holds"),
                                 ("in a pack nest", "in a scenario file nest"),
                                 ("the pack is", "the file is"),
                                 ("the pack format", "scenario files")):
            message = message.replace(pack_words, ours)
        raise ScenarioError([PackProblem(label, exc.line, exc.col, getattr(exc, "path", ""),
                                         message)]) from None
    except ReaderError as exc:  # a character YAML forbids: ruamel gives only an offset
        char = exc.character if isinstance(exc.character, int) else ord(exc.character)
        raise problem(*reader_error_position(text, exc.position),
                      f"invalid YAML: the character U+{char:04X} is not allowed in YAML "
                      "text") from None
    except MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        ctx = f" ({exc.context})" if exc.context else ""
        raise problem(mark.line + 1 if mark else None, mark.column + 1 if mark else None,
                      f"invalid YAML: {exc.problem}{ctx}") from None
    except (YAMLError, RecursionError, ValueError) as exc:
        first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise problem(None, None, f"invalid YAML: {first}") from None


def _read_file(path: str | os.PathLike[str], label: str) -> str:
    """The text of a scenario file: a regular file only (never a FIFO or a device, which
    could block), of at most :data:`MAX_FILE_BYTES`, in UTF-8."""
    from ._pack_limits import Refused, read_pack_file

    def problem(message: str) -> ScenarioError:
        return ScenarioError([PackProblem(label, None, None, "", message)])

    try:
        data, _ = read_pack_file(path, MAX_FILE_BYTES)
        return data.decode("utf-8")
    except Refused as exc:
        raise problem(exc.message.replace("a pack is read", "a scenario file is read")
                      .replace("a pack file holds", "a scenario file holds")) from None
    except FileNotFoundError:
        raise problem("no such file") from None
    except IsADirectoryError:
        raise problem("is a directory") from None
    except UnicodeDecodeError as exc:
        raise problem(f"is not UTF-8 text ({exc.reason})") from None
    except OSError as exc:
        raise problem(f"cannot be read ({exc.strerror})") from None


def load_scenarios(path: str | os.PathLike[str] | None = None, *, text: str | None = None,
                   filename: str = "<string>") -> list[Scenario]:
    """The scenarios of a file (or of ``text``), checked; raises :class:`ScenarioError`
    listing every problem with its ``file:line:col``.

    >>> load_scenarios(text="scenarios:\\n  - name: x\\n    stepz: []\\n")
    Traceback (most recent call last):
    ...
    meldkit.scenarios.ScenarioError: 1 problem in scenario file:
      <string>:3:5: scenarios[0].stepz: unknown key (did you mean 'steps'?)
    """
    label = filename
    if text is None:
        if path is None:
            raise TypeError("load_scenarios needs a path or text=")
        label = os.fspath(path)
        text = _read_file(path, label)
    elif len(text) > MAX_FILE_BYTES:
        raise ScenarioError([PackProblem(label, None, None, "",
                                         f"larger than {MAX_FILE_BYTES:,} bytes: not read")])
    root = _parse_text(text, label)
    if root is None:
        raise ScenarioError([PackProblem(label, 1, 1, "", "the file is empty (expected "
                                                          "'scenarios:' and a list)")])
    reader = _Reader(label)
    try:
        found = reader.file(root)
    except RecursionError:
        raise ScenarioError([PackProblem(label, None, None, "", "nested too deeply")]) from None
    if reader.problems:
        raise ScenarioError(reader.problems)
    return found


# --------------------------------------------------------------------------- running


def _codes_text(codes: Sequence[str]) -> str:
    return " ".join(codes) if codes else "nothing"


def _sort_codes(codes: Iterable[str]) -> list[str]:
    """Card codes (or ranks) in rank order, aces first."""

    def key(c: str) -> tuple[int, str]:
        return (rank_index(_rank_of(c)) if is_card_code(c) else rank_index(c)), c

    return sorted(codes, key=key)


def _rank_of(code: str) -> str:
    """The rank of a card code (``9H`` → ``9``); a rank stays itself."""
    if code == "JK" or not is_card_code(code):
        return code
    return code[:-1]


def _compare_cards(expected: list[str], actual: list[str], *, at_least: bool = False
                   ) -> str | None:
    """None if ``actual`` holds exactly (or ``at_least``) ``expected``; else the difference.
    An expected list of ranks only compares ranks."""
    by_rank = all(is_rank(c) and not is_card_code(c) or c == "JK" for c in expected) and any(
        c != "JK" for c in expected)
    got = [_rank_of(c) for c in actual] if by_rank else list(actual)
    want = [RANKS[rank_index(c)] for c in expected] if by_rank else list(expected)
    missing = Counter(want) - Counter(got)
    extra = Counter(got) - Counter(want)
    if not missing and (at_least or not extra):
        return None
    bits = []
    if missing:
        bits.append("missing " + _codes_text(_sort_codes(missing.elements())))
    if extra and not at_least:
        bits.append("not expected " + _codes_text(_sort_codes(extra.elements())))
    return (f"expected {_codes_text(_sort_codes(want))}, got {_codes_text(_sort_codes(got))} "
            f"({'; '.join(bits)})")


def _matches(got: list, expected: list) -> bool:
    """Whether ``got`` is ``expected`` where it names a value (null: any), as long.

    >>> _matches([10, 20, 30], [10, None, 30]), _matches([10, 20], [10, None, 30])
    (True, False)
    """
    return len(got) == len(expected) and all(e is None or g == e
                                             for g, e in zip(got, expected))


def _show(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_show(v) for v in value) + "]"
    return str(value)


class _Run:
    def __init__(self, pack: Any, sc: Scenario):
        self.pack = pack
        self.sc = sc
        self.failures: list[ScenarioFailure] = []
        self.state: Any = None
        self.players = 0
        self.played: list[str] = []  # the moves applied so far, in order
        self.orders: dict[int, list[str]] = {}  # later deal -> its deck_order, once dealt

    def fail(self, at: _At, step: str, message: str) -> None:
        self.failures.append(ScenarioFailure(self.sc.file, at.line, at.col, self.sc.name, step,
                                             message))

    def run(self) -> ScenarioResult:
        sc = self.sc
        pack = self.pack
        players = sc.players if sc.players is not None else pack.spec.players.min
        low, high = pack.spec.players.min, pack.spec.players.max
        if not low <= players <= high:
            self.fail(_At(sc.line, sc.col), "players",
                      f"{players} players, but {pack.name} plays "
                      + (f"{low}" if low == high else f"{low} to {high}"))
            return self.result()
        if not self.seats_ok(players):
            return self.result()
        self.players = players
        try:
            self.state = self.new_state()
        except MeldkitError as exc:  # a game option, or the deal, the engine refuses
            if isinstance(exc, SetupError) and exc.option and sc.options_at is not None:
                self.fail(sc.options_at, "options", _one_line(exc))
            else:
                self.fail(_At(*_pos(sc.deal_at)), "deal", f"cannot deal it: {_one_line(exc)}")
            return self.result()
        except Exception as exc:  # an engine that cannot stack this pack's deck
            self.fail(_At(*_pos(sc.deal_at)), "deal",
                      f"cannot deal it: {type(exc).__name__}: {exc}")
            return self.result()
        if sc.start_scores is not None:
            if len(sc.start_scores) != self.state.n_teams:
                self.fail(_At(sc.line, sc.col), "start_scores",
                          f"{len(sc.start_scores)} scores for {self.state.n_teams} teams")
                return self.result()
            if pack.spec.scoring.sheets:
                self.fail(_At(sc.line, sc.col), "start_scores",
                          "this pack keeps score sheets (scoring.sheets): its scores are "
                          "the sheets' sums, which a scenario cannot set; play the hands "
                          "that reach them instead")
                return self.result()
            self.set_scores(self.state)
        for step in sc.steps:
            if not self.step(step):
                break
        else:
            for n, deal in sorted(sc.later.items()):
                if n not in self.orders:
                    self.fail(_At(*_pos(deal.at)), f"deal {n}",
                              f"deal {n} was never dealt: the scenario ended in deal "
                              f"{self.state.hand_number}")
        return self.result()

    def new_state(self) -> Any:
        """The scenario's game before its first move: the first deal stacked (or the seed's,
        for an engine that cannot stack and no cards named), the later deals stacked so far
        (:attr:`orders`)."""
        from .testing import stacked_game

        sc, pack, players = self.sc, self.pack, self.players
        if self.stackable() or sc.hands or sc.reserves or sc.upcard or sc.stock:
            state = stacked_game(pack, players, hands=sc.hands, reserves=sc.reserves,
                                 upcard=sc.upcard, stock=sc.stock,
                                 first_player=sc.first_player, seed=sc.seed,
                                 options=sc.options)
        else:  # no cards named, and an engine that cannot stack: the seed's deal
            from . import new_game

            options = dict(sc.options or {}, first_player=sc.first_player)
            state = new_game(pack, players=players, seed=sc.seed, options=options)
        for n, order in self.orders.items():
            state.stack_deal(n, order)
        return state

    def set_scores(self, state: Any) -> None:
        state.scores[:] = list(self.sc.start_scores)
        if hasattr(state, "_legal_cache"):  # the minimum depends on the score
            state._legal_cache = None

    def restack(self) -> bool:
        """After a move: if it dealt a deal the scenario stacks (``deals:``), deal it as
        stacked — the deal's cards to the seats named, from the seat dealt first — by
        playing the scenario again from its start with that deal's deck stacked.  False
        (a failure reported) when it cannot."""
        from .testing import stack_deck

        state, sc = self.state, self.sc
        n = state.hand_number
        deal = sc.later.get(n)
        if deal is None or n in self.orders or state.is_over:
            return True
        first = state._first_dealt()
        where = _At(*_pos(deal.at))
        try:
            self.orders[n] = stack_deck(self.pack, self.players, hands=deal.hands,
                                        reserves=deal.reserves, upcard=deal.upcard,
                                        stock=deal.stock, first_player=first, deal=n)
            again = self.new_state()
            if sc.start_scores is not None:
                self.set_scores(again)
            for move in self.played:
                again.apply(move)
        except MeldkitError as exc:
            self.fail(where, f"deal {n}", f"cannot deal it: {_one_line(exc)}")
            return False
        if again.hand_number != n or again._first_dealt() != first:
            self.fail(where, f"deal {n}", f"played again with deal {n} stacked, the "
                      f"scenario did not reach the start of deal {n} as before")
            return False
        self.state = again
        return True

    def stackable(self) -> bool:
        """Whether the pack's engine can deal a stacked deck."""
        from .plugins import engine_for

        return getattr(engine_for(self.pack), "stack_deck", None) is not None

    def result(self) -> ScenarioResult:
        return ScenarioResult(self.sc.name, self.sc.file, self.sc.line, tuple(self.failures))

    def seats_ok(self, players: int) -> bool:
        ok = True
        for (part, seat), at in self.sc.seat_at.items():
            if seat >= players:
                self.fail(at, "deal", f"{part} of seat {seat}: the table has seats 0 to "
                                      f"{players - 1}")
                ok = False
        return ok

    def whose_turn(self) -> str:
        """Whose turn it is, in a failure's words: a seat, or that nobody is to play (the
        game is over)."""
        seat = self.state.current_player
        if seat is None or getattr(self.state, "is_over", False):
            return "the game is over: nobody is to play"
        return f"it is seat {_show(seat)}'s turn"

    def step(self, step: _Step) -> bool:
        """Play one step; False to stop the scenario (the state is no longer the one the
        script describes)."""
        state = self.state
        label = f"step {step.number}"
        if step.by is not None and not step.moves and state.current_player != step.by:
            self.fail(step.at, label, f"expected seat {step.by} to play, but "
                                      f"{self.whose_turn()}")
            return False
        if len(step.moves) == 1:
            label += f" ({step.moves[0][0]})"
        elif step.moves:
            label += f" ({step.moves[0][0]} … {step.moves[-1][0]})"
        for move, at in step.moves:
            if step.by is not None and state.current_player != step.by:
                self.fail(at, label, f"expected seat {step.by} to play, but "
                                     f"{self.whose_turn()}")
                return False
            reason = self.refusal(move)
            if isinstance(reason, str):  # could not be read at all
                if step.refused is not None and _code_matches(step.refused, "notation/"):
                    return True
                self.fail(at, label, reason)
                return False
            if step.refused is not None:
                if reason is None:
                    self.fail(step.refused_at, label,
                              f"expected it to be refused{_with_code(step.refused)}, but it is "
                              "legal")
                elif not _code_matches(step.refused, reason.code):
                    self.fail(step.refused_at, label,
                              f"expected it to be refused with {step.refused}, but it was "
                              f"refused with {reason.code}: {reason.sentence}")
                continue
            if reason is not None:
                self.fail(at, label,
                          f"{quoted(move)} was refused: {reason.sentence} [{reason.code}]")
                return False
            try:
                state.apply(move)
            except MeldkitError as exc:
                self.fail(at, label, f"{quoted(move)} was refused: {_one_line(exc)}")
                return False
            except Exception as exc:
                self.fail(at, label, f"the engine failed on {quoted(move)}: "
                                     f"{type(exc).__name__}: {exc}")
                return False
            self.played.append(move)
            if self.sc.later and not self.restack():
                return False
            state = self.state
        said: set[str] = set()
        for ex in step.expects:
            try:
                message = self.check(ex)
            except MeldkitError as exc:
                message = _one_line(exc)
            if message and message not in said:  # e.g. "no finished hand" once per step
                said.add(message)
                self.fail(ex.at, label, message)
        return True

    def refusal(self, move: str) -> Any:
        """None if legal, a Reason if refused, a message if the move cannot be read."""
        state = self.state
        try:
            action = state.parse_action(move)
        except NotationError as exc:
            return f"cannot read {quoted(move)}: {exc.reason} [{exc.code}]"
        except MeldkitError as exc:
            return f"cannot read {quoted(move)}: {_one_line(exc)}"
        return state.check(action)

    def legal_now(self, most: int = 12) -> str:
        """The moves legal now, in notation, for a failure message: the first ``most`` of
        them and how many more."""
        try:
            moves = [str(a) for a in self.state.legal_actions()]
        except MeldkitError:
            return "no move is legal now"
        shown = ", ".join(moves[:most])
        more = f" and {len(moves) - most} more" if len(moves) > most else ""
        return f"legal now: {shown}{more}" if moves else "no move is legal now"

    # -- expectations ---------------------------------------------------------------------

    def seat(self, seat: int, what: str = "seat") -> str | None:
        n = self.state.n_players if what == "seat" else self.state.n_teams
        if not 0 <= seat < n:
            return f"there is no {what} {seat} (the table has {what}s 0 to {n - 1})"
        return None

    def hand(self, seat: int) -> list[str]:
        state = self.state
        if getattr(state, "meld_model", None) == "rank_slot":
            return list(state.hand_codes(seat))
        return list(state.view(seat)["hand"])

    def check(self, ex: _Expect) -> str | None:
        state = self.state
        key = ex.key
        if key == "legal":
            reason = self.refusal(ex.value)
            if isinstance(reason, str):
                return reason
            if reason is not None:
                return f"expected {quoted(ex.value)} to be legal, but it is refused: " \
                       f"{reason.sentence} " \
                       f"[{reason.code}]; {self.legal_now()}"
            return None
        if key == "refused":
            reason = self.refusal(ex.arg)
            if isinstance(reason, str):
                return None if _code_matches(ex.value, "notation/") else reason
            if reason is None:
                return (f"expected {quoted(ex.arg)} to be refused{_with_code(ex.value)}, "
                        "but it is legal")
            if not _code_matches(ex.value, reason.code):
                return (f"expected {quoted(ex.arg)} to be refused with {ex.value}, "
                        "but it is refused "
                        f"with {reason.code}: {reason.sentence}")
            return None
        if key in ("hand", "hand_contains", "hand_size", "bonus", "reserve_picked_up"):
            bad = self.seat(ex.arg)
            if bad:
                return bad
            view = state.view(ex.arg)
            if key in ("hand", "hand_contains"):
                diff = _compare_cards(ex.value, self.hand(ex.arg), at_least=key == "hand_contains")
                what = "hand" if key == "hand" else "hand holds at least"
                return f"{what} of seat {ex.arg}: {diff}" if diff else None
            if key == "hand_size":
                got = len(self.hand(ex.arg))
                return None if got == ex.value else \
                    f"hand size of seat {ex.arg}: expected {ex.value}, got {got}"
            player = _player(view, ex.arg)
            if key == "bonus":
                diff = _compare_cards(ex.value, list(player.get("bonus", [])))
                return f"bonus cards of seat {ex.arg}: {diff}" if diff else None
            got = (bool(player["reserve_picked_up"]) if "reserve_picked_up" in player
                   else _reserve_taken(view, ex.arg))
            return None if got == ex.value else (
                f"seat {ex.arg}: expected its reserve "
                f"{'picked up' if ex.value else 'not picked up'}"
                f", but it is {'picked up' if got else 'still down'}")
        if key == "loose":
            got = list((state.view(state.current_player or 0).get("rearranging") or {}).get(
                "loose", ()))
            diff = _compare_cards(ex.value, got)
            return f"loose cards: {diff}" if diff else None
        if key == "melds":
            bad = self.seat(ex.arg, "team")
            if bad:
                return bad
            seat = state.team_players(ex.arg)[0]
            view = state.view(seat)
            if "teams" in view:
                team = next(t for t in view["teams"] if t["team"] == ex.arg)
                got = [list(m["cards"]) for m in team["melds"]]
            else:  # engines whose melds are on the table, not by team
                got = [list(m["cards"] if isinstance(m, dict) else m)
                       for m in view.get("melds", ())
                       if not isinstance(m, dict) or m.get("owner", m.get("team", ex.arg))
                       in (ex.arg, None)]
            return _compare_melds(ex.arg, ex.value, got)
        if key.startswith("pile."):
            return self.pile(key[5:], ex.value)
        if key == "turn":
            got = state.current_player
            return None if got == ex.value else f"expected seat {ex.value} to play, got " \
                                                f"{_show(got)}{_over_note(state)}"
        if key == "phase":
            return None if state.phase == ex.value else \
                f"expected the {ex.value} phase, got {state.phase}{_over_note(state)}"
        if key == "hand_number":
            return None if state.hand_number == ex.value else \
                f"expected hand {ex.value}, got hand {state.hand_number}{_over_note(state)}"
        if key == "sheets":
            sheets = {s["name"]: s["scores"] for s in state.view(0).get("sheets") or ()}
            if ex.arg not in sheets:
                return (f"there is no score sheet {quoted(ex.arg)}"
                        + (f" (the pack's: {', '.join(sheets)})" if sheets else
                           " (the pack keeps one score)"))
            got = sheets[ex.arg]
            return None if got == ex.value else (f"sheet {ex.arg}: expected "
                                                 f"{_show(ex.value)}, got {_show(got)}")
        if key == "hand_ended" and ex.value is None:
            if not state.hand_results:
                return None
            hr = state.hand_results[-1]
            return (f"expected no hand to have ended, but hand {hr.hand_number} ended by "
                    f"{hr.ended_by}")
        if key in ("hand_ended", "went_out", "hand_score", "payments"):
            if not state.hand_results:
                return f"expected a finished hand, but hand {state.hand_number} is still " \
                       "being played"
            hr = state.hand_results[-1]
            if key == "hand_ended":
                return None if hr.ended_by == ex.value else \
                    f"expected the hand to end by {ex.value}, it ended by {hr.ended_by}"
            if key == "went_out":
                return None if hr.went_out == ex.value else \
                    f"expected seat {_show(ex.value)} to go out, got {_show(hr.went_out)}"
            if key == "payments":
                got = [list(p) for p in getattr(hr, "payments", ())]
                return None if got == ex.value else (f"payments: expected {_show(ex.value)}, "
                                                     f"got {_show(got)}")
            return self.score_item(hr, ex.arg, *ex.value)
        if key == "scores":
            got = list(state.scores)
            return None if _matches(got, ex.value) else (f"scores: expected {_show(ex.value)}, "
                                                         f"got {_show(got)}")
        if key in ("contracts_met", "contract"):
            seat = 0 if key == "contracts_met" else ex.arg
            bad = None if key == "contracts_met" else self.seat(seat)
            if bad:
                return bad
            shown = state.view(seat).get("contract")
            if not shown or (key == "contracts_met" and shown.get("met") is None):
                return (f"{key}: this game has no contract"
                        + (" of each player's own (initial_meld.contracts)"
                           if key == "contracts_met" else ""))
            got = shown["met"] if key == "contracts_met" else shown["melds"]
            return None if _matches(got, ex.value) else (
                f"{key}{'' if key == 'contracts_met' else f' of seat {seat}'}: expected "
                f"{_show(ex.value)}, got {_show(got)}")
        if key == "game_over":
            return None if state.is_over == ex.value else (
                "expected the game to be over, but it goes on" if ex.value
                else "expected the game to go on, but it is over")
        if key == "winner":
            return None if state.winner == ex.value else \
                f"expected team {_show(ex.value)} to win, got {_show(state.winner)}"
        raise AssertionError(key)  # pragma: no cover - the reader knows every key

    def pile(self, what: str, value: Any) -> str | None:
        state = self.state
        seat = state.current_player if state.current_player is not None else 0
        pile = state.view(seat).get("pile")
        if isinstance(pile, list):  # engines that show the whole pile (table melds)
            pile = {"top": pile[-1] if pile else None, "size": len(pile), "frozen": False}
        if not isinstance(pile, dict):
            return "this game has no discard pile in its view"
        if what == "blocked":
            top = pile.get("top")
            blocks: set[int] = set()
            for sel in getattr(self.pack.spec.pile, "blocked_by", ()):
                blocks |= kinds_matching(sel)
            got = top is not None and kind_of_code(top) in blocks
        else:
            got = pile.get(what)
        if got == value:
            return None
        return f"pile {what}: expected {_show(value)}, got {_show(got)}"

    def score_item(self, hr: Any, team: int, item: str, value: Any) -> str | None:
        score = next((s for s in hr.scores if s.team == team), None)
        if score is None:
            return f"there is no team {team} in the hand's scores"
        got = getattr(score, item) if item in _LINE_FIELDS else score.points(item)
        if item == "book_kinds":  # in any order
            got, value = sorted(got), sorted(value if isinstance(value, list) else [value])
        elif item == "adjustments":  # (label, points) pairs, written as lists
            got = [list(a) for a in got]
        if got == value:
            return None
        return (f"hand {hr.hand_number}, team {team}, {item}: expected {_show(value)}, got "
                f"{_show(got)}")


def _with_code(refused: Any) -> str:
    """How a failure names the refusal a scenario expected: ``with`` its code, or nothing
    where any refusal would do (``true``).

    >>> _with_code("meld/not-now"), _with_code(True)
    (' with meld/not-now', '')
    """
    return "" if refused is True else f" with {_show(refused)}"


def _compare_melds(team: int, want: list[list[str]], got: list[list[str]]) -> str | None:
    left = list(got)
    unmatched = []
    for meld in want:
        hit = next((i for i, g in enumerate(left) if _compare_cards(meld, g) is None), None)
        if hit is None:
            unmatched.append(meld)
        else:
            left.pop(hit)
    if not unmatched and not left:
        return None
    shown = "; ".join(_codes_text(_sort_codes(m)) for m in got) or "none"
    bits = [f"no meld {_codes_text(m)}" for m in unmatched]
    bits += [f"not expected {_codes_text(_sort_codes(m))}" for m in left]
    return f"melds of team {team}: {', '.join(bits)} (the table has: {shown})"


def _reserve_taken(view: dict, seat: int) -> bool:
    """A table pack's view: whether the reserve pile of ``seat`` — its own, or its side's
    where the pack deals one a side (fewer piles than seats) — has been picked up."""
    piles, seats = view.get("reserves") or [], view.get("seats") or []
    holder = seat if len(piles) == len(seats) else next(
        (q["side"] for q in seats if q["seat"] == seat), seat)
    return any(r["taken"] for r in piles if r["holder"] == holder)


def _player(view: dict, seat: int) -> dict:
    for p in view.get("players", ()):
        if p.get("seat") == seat:
            return p
    return {}


def _code_matches(expected: Any, code: str) -> bool:
    if expected is True:
        return True
    return code == expected or (expected.endswith("/") and code.startswith(expected))


def _one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split())


def _over_note(state: Any) -> str:
    """Why a turn, phase or hand expected did not come, where the game has ended: a hand's
    count ending the game (a filler hand past ``game.eliminate_above`` or the target) reads
    otherwise as a scenario that stopped short."""
    if not getattr(state, "is_over", False):
        return ""
    return (f": the game is over, after hand {len(state.hand_results)} (scores "
            f"{list(state.scores)}; a hand the scenario does not name is filler cards, which "
            "count too)")


def _pos(at: Any) -> tuple[int | None, int | None]:
    return (at.line, at.col) if isinstance(at, _At) else (None, None)


# --------------------------------------------------------------------------- public API


def run_scenario_text(pack: Any, text: str, filename: str = "<string>") -> list[ScenarioResult]:
    """Run the scenarios in YAML ``text`` against ``pack`` (a name, a path or a
    :class:`~meldkit.RulePack`); raises :class:`ScenarioError` for a file that cannot be
    read."""
    from ._loader import RulePack, load_pack

    if not isinstance(pack, RulePack):
        pack = load_pack(pack)
    return [_Run(pack, sc).run() for sc in load_scenarios(text=text, filename=filename)]


def scenario_files(paths: Iterable[str | os.PathLike[str]]) -> list[pathlib.Path]:
    """The scenario files named: files as given, directories searched for ``*.yaml`` and
    ``*.yml`` (recursively, sorted)."""
    out: list[pathlib.Path] = []
    for p in paths:
        path = pathlib.Path(p)
        if path.is_dir():
            out.extend(sorted(q for q in path.rglob("*") if q.suffix in (".yaml", ".yml")
                              and q.is_file()))
        else:
            out.append(path)
    return out


def run_scenarios(pack: Any, paths: Iterable[str | os.PathLike[str]]
                  ) -> list[tuple[pathlib.Path, list[ScenarioResult] | ScenarioError]]:
    """Run every scenario file under ``paths`` against ``pack``: for each file, its
    results, or the :class:`ScenarioError` that kept it from running."""
    from ._loader import RulePack, load_pack

    if not isinstance(pack, RulePack):
        pack = load_pack(pack)
    out: list[tuple[pathlib.Path, list[ScenarioResult] | ScenarioError]] = []
    for path in scenario_files(paths):
        try:
            scenarios = load_scenarios(path)
        except ScenarioError as exc:
            out.append((path, exc))
            continue
        out.append((path, [_Run(pack, sc).run() for sc in scenarios]))
    return out


def bundled_scenarios(pack_name: str) -> pathlib.Path | None:
    """The example scenario file shipped for a bundled pack, or None.

    >>> bundled_scenarios("pony_tail").name
    'pony_tail.yaml'
    """
    from ._loader import bundled_pack_dir

    path = bundled_pack_dir() / "scenarios" / f"{pack_name}.yaml"
    return path if path.is_file() else None
