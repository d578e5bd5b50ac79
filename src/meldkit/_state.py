"""The canasta kernel's game state: the only mutable object, changed only through
:meth:`GameState.apply`.

A hand is turns; a turn is two phases, ``draw`` (pick up the reserve, draw, take the pile,
or end the hand on an empty stock) and ``play`` (meld, lay off, discard).  Each phase is a
room of its own, a mixin in :mod:`meldkit.kernel`: ``_canasta_deal`` (the deal),
``_canasta_draw`` (the draw phase), ``_canasta_play`` (melds, lay-offs, discards),
``_canasta_out`` (what going out requires) and ``_canasta_end`` (the end of a turn and a
hand); :class:`RankSlotModel` here ties them together — creation, notation, the legality and
apply dispatch, views, copies and saves.  Every rule the phases consult comes from the
compiled :class:`~meldkit._rules.Rules`; nothing here knows which game is being played.
"""

from __future__ import annotations

import json
from operator import attrgetter
from typing import Any

import attrs

from . import saves as _saves
from ._actions import (
    ADD,
    DISCARD,
    DRAW,
    END,
    EXTEND,
    MELD,
    PICKUP,
    RUN,
    SEQ_TARGET_BASE,
    TAKE,
    WITHDRAW,
    Action,
    Reason,  # noqa: F401 - re-exported: meldkit._state.Reason
)
from ._cards import N_RANKS, RANKS, card_code, kind_of_code, rank_of_kind
from ._checks import check_seat
from ._game import GameState, call_hook, plugin_rescored
from ._liveness import no_progress
from ._rules import SEQ, WILD, Rules
from ._scoring import HandFinal
from .kernel._canasta_common import (  # noqa: F401 - re-exported from meldkit._state
    _SHAPES,
    _SLOTS,
    DRAW_PHASE,
    OVER,
    PLAY_PHASE,
    HandResult,
    Meld,
    _r,
    _rank_name,
)
from .kernel._canasta_deal import DealPhase
from .kernel._canasta_draw import DrawPhase
from .kernel._canasta_end import HandEnd
from .kernel.sheets import sheet_rules, sheet_summary
from .kernel._canasta_out import GoingOut
from .kernel._canasta_play import PlayPhase
from .kernel._canasta_runs import Run, SequencePlay, span_text


# What RankSlotModel.view builds at every decision for every seat, made fast (as Houses'
# view): a view's dicts are copies of templates filled in (copying a dict costs a fraction of
# building it key by key): the view itself (_VIEW) and, per seating, each seat's and each
# side's records and each side's meld record of each slot (_view_seat_templates).  A
# sequence's name is looked up (_view_spans), not formatted.  Templates hold no lists: every
# list and dict of a view is new.
_VIEW = dict.fromkeys((  # the keys in order: the core (ai/view_schema.CORE), then the model's
    "pack", "player", "team", "hand_number", "phase", "current_player", "dealer", "hand",
    "seats", "sides", "melds", "stock_size", "pile", "knock", "deadwood", "legal_actions",
    "you", "players", "teams", "formed_sides"))
_TEXT = attrgetter("_text")
"""An action's notation: ``str(action)`` without the Python call (``Action.__str__``)."""
_VIEW_MEMO_MAX = 1 << 10
"""Most seatings (and sequence rank lists) the view's memos keep (then they start again)."""
_VIEW_SEATS: dict[tuple[int, ...], tuple] = {}
"""``(n_teams, *team_of)`` -> the view's records of that seating (_view_seat_templates)."""
_VIEW_SPANS: dict[tuple[int, ...], dict[tuple[int, int, int], str]] = {}
"""``melds.sequences.ranks`` -> ``{(suit, lo, hi): span_text(...)}``, filled as seen."""


def _view_seat_templates(key: tuple[int, ...]) -> tuple:
    """The view's records of the seating ``key`` (``(n_teams, *team_of)``) with what the
    seating fixes filled in: ``(seats records, players records, [(the side's seats, teams
    record, sides record, its meld record of each slot) of each side])``."""
    n_teams, team_of = key[0], key[1:]
    seats = tuple({"seat": q, "side": side, "hand_size": None} for q, side in enumerate(team_of))
    players = tuple({"seat": q, "team": side, "hand_size": None, "reserve_size": None,
                     "reserve_picked_up": None, "bonus": None, "out": None}
                    for q, side in enumerate(team_of))
    sides = []
    for t in range(n_teams):
        by_slot: list[dict[str, Any] | None] = [None] * (max(N_RANKS, WILD, SEQ) + 1)
        for slot in (*range(N_RANKS), WILD):
            by_slot[slot] = {"rank": "wild" if slot == WILD else RANKS[slot], "cards": None,
                             "closed": None, "book": None, "pending": None, "id": None,
                             "owner": None, "side": t, "kind": "wild" if slot == WILD else "set"}
        by_slot[SEQ] = {"rank": "run", "sequence": None, "cards": None, "closed": None,
                        "book": None, "pending": None, "id": None, "owner": None, "side": t,
                        "kind": "run"}
        sides.append((tuple(q for q, side in enumerate(team_of) if side == t),
                      {"team": t, "players": None, "score": None, "melded": None,
                       "minimum": None, "melds": None},
                      {"side": t, "seats": None, "score": None},
                      tuple(by_slot)))
    if len(_VIEW_SEATS) >= _VIEW_MEMO_MAX:
        _VIEW_SEATS.clear()
    found = _VIEW_SEATS[key] = (seats, players, tuple(sides))
    return found


def _view_spans(seq_ranks: tuple[int, ...]) -> dict[tuple[int, int, int], str]:
    """The memo of the sequences' names of ``seq_ranks`` (filled by the view)."""
    try:
        return _VIEW_SPANS[seq_ranks]
    except KeyError:
        if len(_VIEW_SPANS) >= _VIEW_MEMO_MAX:
            _VIEW_SPANS.clear()
        found = _VIEW_SPANS[seq_ranks] = {}
        return found


class RankSlotModel(DealPhase, DrawPhase, PlayPhase, SequencePlay, GoingOut, HandEnd):
    """The rank-slot meld model of :class:`~meldkit.kernel.state.KernelState`: canasta's
    "one growing meld per rank per side", Samba's sequences, books, reserves, red threes,
    pile freezing and initial minimums, for every pack without ``melds.kinds``.

    Not a class of its own games: its methods run on a ``KernelState`` whose ``model`` is
    this class (the state holds the data, the model the behaviour).

    >>> import meldkit
    >>> g = meldkit.new_game("pony_tail", players=4, seed=1)
    >>> type(g).__name__, g.meld_model
    ('KernelState', 'rank_slot')
    >>> g.hand_number, g.phase, len(g.legal_actions()) > 0
    (1, 'draw', True)
    >>> g.apply("draw"); g.phase
    'play'
    """

    __slots__ = ()
    PROGRESS_TYPES = frozenset({MELD, ADD, RUN, EXTEND, TAKE, PICKUP})
    """The actions that move a hand forward (a random bot that melds first prefers them)."""
    NAME = "rank_slot"
    """What :attr:`KernelState.meld_model` says of a game of this model."""

    SLOTS = (
        "rules", "actions", "kind_of", "rank_of", "codes", "dealer",
        "stock", "pile", "pile_frozen", "hands", "hand_size", "reserves", "reserve_taken",
        "bonus", "melds", "open_melds", "melded", "out", "pending", "pile_pending",
        "pending_top", "failed_initial", "melded_at_turn_start", "player_melded", "plugin",
        "ext", "final_play", "turn_start_sizes", "side_of", "turns",
    )
    """The state fields this model keeps (slots of ``KernelState``)."""

    # ------------------------------------------------------------------ creation
    @classmethod
    def _new(cls, pack, players: int, seed: int, options: dict | None,
             deck_order: list[str] | None) -> GameState:
        rules = Rules.of(pack.for_deal(1))
        s = cls.__new__(cls)
        s.model, s.phases = RankSlotModel, PHASES
        s.rules = rules
        s.pack = pack
        s.plugin = rules.plugin
        s.ext = {}
        s.actions = rules.action_space
        options = s._setup(pack, players, seed, options, deck_order)
        s.kind_of = rules.deck_kinds(players)
        s.rank_of = [rank_of_kind(k) for k in s.kind_of]
        s.codes = rules.card_codes(s.n_players)
        s.hand_number = 0
        first = options.get("first_player")
        if first is not None:
            s.dealer = (first - 1) % players
        else:
            s.dealer = s._draw_first_dealer()
        s._start_hand(s._ordered_deck())
        return s

    # ------------------------------------------------------------------ card moves
    def _to_hand(self, p: int, c: int) -> None:
        self.hands[p][self.rank_of[c]].append(c)
        self.hand_size[p] += 1

    def _from_hand(self, p: int, rank: int) -> int:
        self.hand_size[p] -= 1
        cards = self.hands[p][rank]
        if self.rules.suits_matter and len(cards) > 1:
            return cards.pop(self._card_to_lay(p, cards))
        return cards.pop()

    # ------------------------------------------------------------------ for plugins
    def card_code(self, card: int) -> str:
        """The text code of a card id (``QH``)."""
        return card_code(self.kind_of[card])

    def card_rank(self, card: int) -> int:
        """The rank number of a card id (A=0 … K=12, JK=13; see ``meldkit.RANKS``)."""
        return self.rank_of[card]

    def is_wild(self, card: int) -> bool:
        """True for a wild card of this pack."""
        return self.rules.is_wild_rank[self.rank_of[card]]

    def is_dead(self, card: int) -> bool:
        """True for a dead card of this pack (black 3s in Pony Tail)."""
        return self.rules.is_dead_kind[self.kind_of[card]]

    def is_bonus(self, card: int) -> bool:
        """True for a bonus card of this pack (red 3s)."""
        return self.rules.is_bonus_kind[self.kind_of[card]]

    def hand_cards(self, player: int) -> list[int]:
        """The card ids in a player's hand, by rank."""
        return [c for cards in self.hands[player] for c in cards]

    def remove_from_hand(self, player: int, card: int) -> None:
        """Take one given card id out of a player's hand (for plugin actions: put it in
        another zone next, so that every card stays in exactly one zone)."""
        self.hands[player][self.rank_of[card]].remove(card)
        self.hand_size[player] -= 1

    def add_to_hand(self, player: int, card: int) -> None:
        """Put a card id into a player's hand."""
        self._to_hand(player, card)

    def put_on_stock(self, card: int, bottom: bool = False) -> None:
        """Put a card id on the top (or the bottom) of the stock."""
        if bottom:
            self.stock.insert(0, card)
        else:
            self.stock.append(card)

    # ------------------------------------------------------------------ public reading
    def hand_codes(self, player: int) -> list[str]:
        """The cards in a player's hand as codes, sorted by rank."""
        codes = self.codes
        out = []
        for cards in self.hands[player]:
            out.extend(codes[c] for c in sorted(cards))
        return out

    def initial_minimum(self, team: int) -> int:
        """The initial-meld minimum of a team at its current score."""
        return self.rules.minimum_for(self.scores[team], self.hand_number, self.n_players)

    def zone_cards(self) -> dict[str, list[int]]:
        """Every zone with the card ids in it; each card of the deck is in exactly one."""
        z: dict[str, list[int]] = {"stock": list(self.stock), "pile": list(self.pile)}
        for p in range(self.n_players):
            z[f"hand:{p}"] = [c for cards in self.hands[p] for c in cards]
            z[f"reserve:{p}"] = list(self.reserves[p])
            z[f"bonus:{p}"] = list(self.bonus[p])
        for t in range(self.n_teams):
            for i, m in enumerate(self.melds[t]):
                z[f"meld:{t}:{i}"] = list(m.cards)
        return z

    # ------------------------------------------------------------------ game-AI hooks
    def action_universe(self) -> list[Action]:
        """Every action the pack can allow at this table, in id order (the integer action
        space; :func:`meldkit.kernel.universe.canasta_universe`)."""
        from .kernel.universe import canasta_universe

        return canasta_universe(self)

    def observation_layout(self):
        """The ``(spec, fill)`` functions of :meth:`observation`."""
        from .kernel.universe import CANASTA_LAYOUT

        return CANASTA_LAYOUT

    def set_zone_cards(self, assignment: dict[tuple[str, int], int]) -> None:
        """Put card ``c`` at each hidden ``(zone, index)`` (what a resample deals)."""
        from .kernel.universe import canasta_set_zone_cards

        canasta_set_zone_cards(self, assignment)

    def view_schema(self) -> dict[str, Any]:
        """The JSON Schema :meth:`view` follows."""
        from .ai.view_schema import RUMMY_VIEW, schema

        return schema(RUMMY_VIEW)

    # ------------------------------------------------------------------ notation
    def parse_action(self, text: str | Action) -> Action:
        """Parse notation (``"meld 9 9 2"``) into an action; raises ``NotationError``."""
        return self.actions.parse(text)

    def _interned(self, action: Action) -> Action | None:
        return self.actions.interned(action)

    def _hooks_may_fail(self) -> bool:
        return self.plugin is not None

    # ------------------------------------------------------------------ legality
    # The legal actions.  Candidates are generated within the structural limits (cards
    # held, meld shapes), so most are legal by construction; only those whose effects
    # need the full rules (a hand left with one card or none, plugin actions, the draw
    # phase) go through ``_check``, which stays the one definition of legality (a test
    # compares the two over random play).
    def _legal_draw(self) -> list[Action]:
        """The draw phase's legal actions (its room in :data:`PHASES`)."""
        check = RankSlotModel._check  # this model's own check, without the table's dispatch
        return [a for a in self._draw_candidates() if check(self, a) is None]

    def _legal_play(self) -> list[Action]:
        """The play phase's legal actions (its room in :data:`PHASES`)."""
        return self._play_actions()

    def _candidates(self) -> list[Action]:
        """Every structurally plausible action for the current phase (a superset of the
        legal actions; for tests and debugging)."""
        if self.phase == DRAW_PHASE:
            return self._draw_candidates()
        return self._play_actions(filtered=False)

    def _check(self, a: Action) -> Reason | None:
        if self.phase == OVER:
            return _r("game/over", "the game is over")
        t = a.type
        shape = _SHAPES.get(t)
        if shape is not None:
            target = a.target
            if target >= SEQ_TARGET_BASE:  # a sequence: extend, or take the pile onto it
                aimed = t == EXTEND or (t == TAKE and not a.cards)
            else:
                aimed = (target >= 0) == (t == ADD) and t != EXTEND
            if not (aimed and shape[0] <= len(a.cards) <= shape[1]):
                return _r("action/malformed", f"'{a}' is not a well-formed {t} action")
            if (t == RUN or target >= SEQ_TARGET_BASE) and not self.rules.sequences:
                return _r("action/unknown", f"this game has no sequences ('{t}')")
        hook = self.rules.hooks.get(t)
        if hook is not None:
            if ((hook.cards is not None and len(a.cards) != hook.cards)
                    or (a.target >= 0) != hook.target):
                return _r("action/malformed", f"'{a}' is not a well-formed {t} action")
            if hook.phase != self.phase:
                when = "before drawing" if hook.phase == DRAW_PHASE else "after drawing"
                return _r("turn/not-now", f"'{t}' is played {when}")
            return call_hook(self.plugin.name, f"{t}.check", hook.check, self, a)
        if self.phase == DRAW_PHASE:
            if t == DRAW:
                if not self.stock:
                    return _r("draw/stock-empty",
                              "the stock is empty: take the pile or end the hand")
                return None
            if t == END:
                if self.stock:
                    return _r("end/stock-not-empty", "the hand ends only when the stock is empty")
                if not self.rules.stock_empty_ends:
                    return _r("end/not-allowed", "this game does not end on an empty stock")
                return None
            if t == PICKUP:
                return self._check_pickup()
            if t == TAKE:
                return self._check_take(a)
            if t in (MELD, ADD, DISCARD, WITHDRAW, RUN, EXTEND):
                return _r("turn/draw-first", "draw first: from the stock or the discard pile")
            return _r("action/unknown", f"unknown action type {t!r}")
        # play phase
        if t in (MELD, ADD):
            return self._check_meld(a)
        if t in (RUN, EXTEND):
            return self._check_run(a)
        if t == DISCARD:
            return self._check_discard(a)
        if t == WITHDRAW:
            if not self.pending:
                return _r("withdraw/nothing-pending", "there is no initial meld to take back")
            return None
        if t == END:
            return self._check_final_end() if self.final_play else self._check_end_turn()
        if t in (DRAW, TAKE, PICKUP, END):
            return _r("turn/already-drawn", "you have already drawn this turn")
        return _r("action/unknown", f"unknown action type {t!r}")

    # ------------------------------------------------------------------ applying
    def _apply(self, a: Action) -> None:
        """Apply a legal action of either phase (their ``do`` in :data:`PHASES`)."""
        t = a.type
        if t == DRAW:
            DrawPhase._do_draw(self)  # the model's own (the table model has one too)
        elif t == TAKE:
            self._do_take(a)
        elif t == PICKUP:
            self._pick_up_reserve(self.current)
        elif t == END:
            if self.phase == PLAY_PHASE and not self.final_play:  # every card held banned
                self._next_turn()
            else:
                self._end_hand("stock_empty", None)
        elif t == MELD or t == ADD:
            self._do_meld(a)
        elif t == RUN or t == EXTEND:
            self._do_run(a)
        elif t == DISCARD:
            PlayPhase._do_discard(self, a)
        elif t == WITHDRAW:
            self._do_withdraw()
        else:
            call_hook(self.plugin.name, f"{t}.apply", self.rules.hooks[t].apply, self, a)

    # ------------------------------------------------------------------ copies and saves
    def clone(self) -> GameState:
        """An independent copy (actions applied to it do not touch this state)."""
        c = type(self).__new__(type(self))
        c.model, c.phases = RankSlotModel, PHASES
        c.rules = self.rules
        c.pack = self.pack
        c.plugin = self.plugin
        c.ext = json.loads(json.dumps(self.ext)) if self.ext else {}
        c.actions = self.actions
        c.n_players = self.n_players
        c.seed = self.seed
        c.options = self.options
        c.deck_order = self.deck_order
        c.later_orders = self.later_orders
        c.team_of = self.team_of
        c.side_of = self.team_of if self.side_of is self.team_of else self.side_of[:]
        c.n_teams = self.n_teams
        c.kind_of = self.kind_of
        c.rank_of = self.rank_of
        c.codes = self.codes
        c.scores = self.scores[:]
        c.hand_number = self.hand_number
        c.dealer = self.dealer
        c.current = self.current
        c.phase = self.phase
        c.stock = self.stock[:]
        c.pile = self.pile[:]
        c.pile_frozen = self.pile_frozen
        c.hands = [[cards[:] for cards in h] for h in self.hands]
        c.hand_size = self.hand_size[:]
        c.reserves = [r[:] for r in self.reserves]
        c.reserve_taken = self.reserve_taken[:]
        c.bonus = [b[:] for b in self.bonus]
        c.melds = [[m.copy() for m in ms] for ms in self.melds]
        c.open_melds = [[None] * _SLOTS for _ in range(self.n_teams)]
        for t, ms in enumerate(c.melds):
            for m in ms:
                if not m.closed and m.slot != SEQ:
                    c.open_melds[t][m.slot] = m
        c.melded = self.melded[:]
        c.out = self.out[:]
        c.pending = self.pending
        c.pile_pending = self.pile_pending
        c.pending_top = self.pending_top
        c.failed_initial = self.failed_initial
        c.melded_at_turn_start = self.melded_at_turn_start
        c.player_melded = self.player_melded[:]
        c.final_play = self.final_play
        c.turns = self.turns
        c.turn_start_sizes = self.turn_start_sizes[:]
        c.history = self.history[:]
        c.hand_results = self.hand_results[:]
        c._legal_cache = self._legal_cache
        c._info = getattr(self, "_info", None)  # (shared: copied before it is stepped)
        return c

    def view(self, player: int) -> dict[str, Any]:
        """What ``player`` may see, as JSON-able data: their own hand, every public zone,
        and only the sizes of hidden ones (stock, other hands, reserves, the pile below
        its top)."""
        check_seat(player, self.n_players)
        # Built for speed (see _view_seat_templates): the records copied from templates and
        # filled in, one pass over the sides and one over the seats, every list and dict new
        # (a caller may change its view); the same records, key for key, as written out
        # (tests/test_rank_slot_view.py keeps that code and checks this against it).
        rules = self.rules
        codes = self.codes
        code = codes.__getitem__
        team_of, n_teams, n_players = self.team_of, self.n_teams, self.n_players
        key = (n_teams, *team_of)
        try:
            seat_ts, player_ts, side_ts = _VIEW_SEATS[key]
        except KeyError:
            seat_ts, player_ts, side_ts = _view_seat_templates(key)
        scores, melded, hand_number = self.scores, self.melded, self.hand_number
        book_size, book_kind, minimum_for = rules.book_size, rules.book_kind, rules.minimum_for
        spans = None  # the sequences' names (span_text), found at the first sequence
        teams = []
        sides = []
        all_melds: list[dict[str, Any]] = []  # the core's melds: each team's, as one list
        minimum_of = None  # (score, minimum) of the last team: sides often score alike
        all_team_melds = self.melds
        for t in range(n_teams):
            members, team_t, side_t, meld_ts = side_ts[t]
            melds = []
            for m in all_team_melds[t]:
                cards = m.cards
                slot = m.slot
                x = meld_ts[slot].copy()
                if slot == SEQ:
                    if spans is None:
                        spans = _view_spans(rules.seq_ranks)
                    where = (m.suit, m.lo, m.hi)
                    try:
                        x["sequence"] = spans[where]
                    except KeyError:
                        x["sequence"] = spans[where] = span_text(rules.seq_ranks, *where)
                x["cards"] = [*map(code, cards)]
                x["closed"] = m.closed
                if len(cards) >= book_size:  # else "book" stays None
                    k = book_kind(slot, m.wild)
                    x["book"] = k.name if k else None
                x["pending"] = m.pending
                melds.append(x)
            all_melds += melds  # the same records in "teams" and in "melds"
            score = scores[t]
            if minimum_of is None or minimum_of[0] != score:
                minimum_of = (score, minimum_for(score, hand_number, n_players))
            x = team_t.copy()  # = initial_minimum(t), team_players(t)
            x["players"] = [*members]
            x["score"] = score
            x["melded"] = melded[t]
            x["minimum"] = minimum_of[1]
            x["melds"] = melds
            teams.append(x)
            x = side_t.copy()
            x["seats"] = [*members]
            x["score"] = score
            sides.append(x)
        hand_size, reserves, reserve_taken, bonus, out = (
            self.hand_size, self.reserves, self.reserve_taken, self.bonus, self.out)
        seats = []
        players = []
        for q in range(n_players):
            size = hand_size[q]
            x = seat_ts[q].copy()
            x["hand_size"] = size
            seats.append(x)
            x = player_ts[q].copy()
            x["hand_size"] = size
            x["reserve_size"] = len(reserves[q])
            x["reserve_picked_up"] = reserve_taken[q]
            x["bonus"] = [*map(code, bonus[q])]
            x["out"] = out[q]
            players.append(x)
        hand = []  # = hand_codes(player): by rank, each rank's cards by id
        for cards in self.hands[player]:
            if cards:
                if len(cards) == 1:
                    hand.append(codes[cards[0]])
                else:
                    hand += map(code, sorted(cards))
        pile = self.pile
        phase = self.phase
        current = None if phase == OVER else self.current  # = current_player
        v: dict[str, Any] = _VIEW.copy()  # the core (ai/view_schema.CORE), then this engine's
        v["pack"] = rules.name
        v["player"] = v["you"] = player
        v["team"] = team_of[player]
        v["hand_number"] = hand_number
        v["phase"] = phase
        v["current_player"] = current
        v["dealer"] = self.dealer
        v["hand"] = hand
        v["seats"] = seats
        v["sides"] = sides
        v["melds"] = all_melds
        v["stock_size"] = len(self.stock)
        v["pile"] = {  # squared up: only the top is seen (no "cards")
            "top": codes[pile[-1]] if pile else None,
            "size": len(pile),
            "frozen": self.pile_frozen,
        }  # "knock" and "deadwood" stay None
        if current == player:  # only the mover's view lists them (else None)
            legal = self._cached_legal()  # = legal_actions(), not copied
            v["legal_actions"] = [*map(_TEXT if self.plugin is None else str, legal)]
        v["players"] = players
        v["teams"] = teams
        v["sheets"] = None if not self.rules.spec.scoring.sheets else sheet_summary(
            sheet_rules(self.rules.spec, self.rules.target_for(self.n_players)), self.hand_results,
            len(self.scores))
        if self.side_of is not team_of:  # players.sides_form: the sides formed this hand
            v["formed_sides"] = [*self.side_of]
        if self.plugin is not None:
            extra = call_hook(self.plugin.name, "view", self.plugin.view, self, player)
            if extra is not None:
                v["plugin"] = extra
        return v

    def _state_dict(self) -> dict[str, Any]:
        return {
            "ext": self.ext,
            "scores": self.scores,
            "hand_number": self.hand_number,
            "dealer": self.dealer,
            "current": self.current,
            "phase": self.phase,
            "stock": self.stock,
            "pile": self.pile,
            "pile_frozen": self.pile_frozen,
            "hands": [[c for cards in h for c in cards] for h in self.hands],
            "reserves": self.reserves,
            "reserve_taken": self.reserve_taken,
            "bonus": self.bonus,
            "melds": [[[m.slot, m.cards, m.closed, m.pending] for m in ms] for ms in self.melds],
            "melded": self.melded,
            "out": self.out,
            "pending": self.pending,
            "pile_pending": self.pile_pending,
            "pending_top": self.pending_top,
            "failed_initial": self.failed_initial,
            "melded_at_turn_start": self.melded_at_turn_start,
            "player_melded": self.player_melded,
            "final_play": self.final_play,
            "turn_start_sizes": self.turn_start_sizes,
            **({} if self.side_of is self.team_of else {"side_of": self.side_of}),
            **({} if self.rules.turn_limit is None else {"turns": self.turns}),
            "history": self.history,
            "hand_results": [
                {"hand_number": h.hand_number, "ended_by": h.ended_by, "went_out": h.went_out,
                 "final": h.final.to_dict()}
                for h in self.hand_results
            ],
        }

    @classmethod
    def _from_state_dict(cls, pack, d: dict) -> GameState:
        """Rebuild a state from a save, checking every field (see :mod:`meldkit.saves`)."""
        S = _saves
        deal = S.integer(S.get(d, "hand_number"), "hand_number", 1, 10**6)
        rules = Rules.of(pack.for_deal(deal))  # a schedule: the saved deal's own rules
        s = cls.__new__(cls)
        s.model, s.phases = RankSlotModel, PHASES
        s.rules = rules
        s.pack = pack
        s.plugin = rules.plugin
        s.actions = rules.action_space
        s._load_envelope(pack, d)
        n, n_teams = s.n_players, s.n_teams
        s.kind_of = rules.deck_kinds(n)
        s.rank_of = [rank_of_kind(k) for k in s.kind_of]
        s.codes = rules.card_codes(s.n_players)
        n_cards = len(s.kind_of)
        if s.deck_order:
            left: dict[int, int] = {}
            for k in s.kind_of:
                left[k] = left.get(k, 0) + 1
            for i, code in enumerate(s.deck_order):
                try:
                    k = kind_of_code(code)
                except ValueError as e:
                    raise S.bad(f"deck_order[{i}]", str(e)) from None
                if left.get(k, 0) <= 0:
                    raise S.bad(f"deck_order[{i}]", f"no {code} left in this deck")
                left[k] -= 1
        ext = S.json_data(S.obj(d.get("ext", {}), "ext"), "ext")
        s.ext = json.loads(json.dumps(ext))
        ledger = S.CardLedger(n_cards)
        s.stock = ledger.cards(S.get(d, "stock"), "stock")
        s.pile = ledger.cards(S.get(d, "pile"), "pile")
        s.hands = [[[] for _ in range(N_RANKS)] for _ in range(n)]
        s.hand_size = [0] * n
        for p, ids in enumerate(S.array(S.get(d, "hands"), "hands", n)):
            for c in ledger.cards(ids, f"hands[{p}]"):
                s._to_hand(p, c)
        s.reserves = [ledger.cards(r, f"reserves[{p}]")
                      for p, r in enumerate(S.array(S.get(d, "reserves"), "reserves", n))]
        s.reserve_taken = S.array_of(S.get(d, "reserve_taken"), "reserve_taken", S.boolean, n)
        for p in range(n):
            if s.reserve_taken[p] and s.reserves[p]:
                raise S.bad(f"reserves[{p}]", "a reserve already picked up holds no cards")
        s.bonus = [ledger.cards(b, f"bonus[{p}]")
                   for p, b in enumerate(S.array(S.get(d, "bonus"), "bonus", n))]
        for p, b in enumerate(s.bonus):
            for i, c in enumerate(b):
                if not rules.is_bonus_kind[s.kind_of[c]]:
                    raise S.bad(f"bonus[{p}][{i}]", f"{s.codes[c]} is not a bonus card")
        s.melded = S.array_of(S.get(d, "melded"), "melded", S.boolean, n_teams)
        s.melds = []
        joined: list[tuple[str, str]] = []
        s.open_melds = [[None] * _SLOTS for _ in range(n_teams)]
        is_wild = rules.is_wild_rank
        for t, ms in enumerate(S.array(S.get(d, "melds"), "melds", n_teams)):
            team = []
            for i, m in enumerate(S.array(ms, f"melds[{t}]", max_len=n_cards)):
                where = f"melds[{t}][{i}]"
                slot, ids, closed, pending = S.array(m, where, 4)
                slot = S.integer(slot, f"{where}[0]", 0, SEQ)
                if slot not in rules.record_slots:
                    raise S.bad(f"{where}[0]", f"this pack melds no {_rank_name(slot)}")
                ids = ledger.cards(ids, f"{where}[1]")
                closed = S.boolean(closed, f"{where}[2]")
                pending = S.boolean(pending, f"{where}[3]")
                if pending and s.melded[t]:
                    raise S.bad(f"{where}[3]", "a side that has melded has no pending meld")
                if slot == SEQ:
                    run = s._run_from_save(ids, where)
                    if closed != (len(ids) >= rules.seq_max):
                        raise S.bad(f"{where}[2]", "a sequence is closed exactly when it holds "
                                                   f"{rules.seq_max} cards")
                    run.closed, run.pending = closed, pending
                    team.append(run)
                    continue
                n_wild = sum(1 for c in ids if is_wild[s.rank_of[c]])
                for j, c in enumerate(ids):
                    r = s.rank_of[c]
                    if not is_wild[r] and r != slot:
                        raise S.bad(f"{where}[1][{j}]",
                                    f"{s.codes[c]} does not belong in a meld of {_rank_name(slot)}")
                mm = Meld(slot, list(ids), len(ids) - n_wild, n_wild, pending)
                if slot == WILD:
                    mm.nat, mm.wild = 0, len(ids)
                why = rules.meld_shape_ok(slot, mm.nat, mm.wild)
                if why is not None and why[0] in _JOINED_SHAPES:
                    joined.append((where, why[1]))  # two melds joined as sides formed?
                elif why is not None:
                    raise S.bad(where, why[1])
                closes = (len(ids) >= rules.book_size
                          and rules.book_adds(slot, mm.wild) == "none")
                if closed and not closes:
                    raise S.bad(f"{where}[2]", "only a complete book of a kind that closes "
                                               "is closed")
                if closes and not closed and not pending and rules.adds_by_kind:
                    raise S.bad(f"{where}[2]", "a complete book of a kind that closes "
                                               "(books.kinds[].adds: none) is closed")
                mm.closed = closed
                team.append(mm)
                if not closed:
                    if s.open_melds[t][slot] is not None:
                        raise S.bad(where, f"a second open meld of {_rank_name(slot)}")
                    s.open_melds[t][slot] = mm
            s.melds.append(team)
        ledger.complete("stock, pile, hands, reserves, bonus and melds")
        s.side_of = s._sides_from_save(d.get("side_of"), "side_of", s.melds, s.melded)
        if joined and s.side_of is s.team_of:  # (only melds joined may hold so many cards)
            raise S.bad(*joined[0])
        s.out = S.array_of(S.get(d, "out"), "out", S.boolean, n)
        s.scores = S.array_of(S.get(d, "scores"), "scores",
                              lambda v, w: S.integer(v, w, -S.MAX_SCORE, S.MAX_SCORE), n_teams)
        s.hand_number = S.integer(S.get(d, "hand_number"), "hand_number", 1, 10**6)
        s.dealer = S.integer(S.get(d, "dealer"), "dealer", 0, n - 1)
        s.current = S.integer(S.get(d, "current"), "current", 0, n - 1)
        s.phase = S.choice(S.get(d, "phase"), "phase", (DRAW_PHASE, PLAY_PHASE, OVER))
        s.pile_frozen = S.boolean(S.get(d, "pile_frozen"), "pile_frozen")
        s.pending = S.boolean(S.get(d, "pending"), "pending")
        s.pile_pending = S.boolean(S.get(d, "pile_pending"), "pile_pending")
        s.pending_top = S.integer(S.get(d, "pending_top"), "pending_top", -1, n_cards - 1)
        s.failed_initial = S.boolean(S.get(d, "failed_initial"), "failed_initial")
        s.melded_at_turn_start = S.boolean(S.get(d, "melded_at_turn_start"),
                                           "melded_at_turn_start")
        if "player_melded" in d:
            s.player_melded = S.array_of(d["player_melded"], "player_melded", S.boolean, n)
        else:  # a save from before PC-20 was judged per player: as the sides stood
            s.player_melded = [s.melded[s.side_of[q]] for q in range(n)]
        cur_team = s.side_of[s.current]
        has_pending = [any(m.pending for m in ms) for ms in s.melds]
        for t in range(n_teams):
            if has_pending[t] and (t != cur_team or s.phase != PLAY_PHASE):
                raise S.bad(f"melds[{t}]", "a pending meld belongs to the side of the player "
                                           "in the middle of their turn")
        if s.pending != has_pending[cur_team]:
            raise S.bad("pending", f"expected {has_pending[cur_team]}: it says whether the side "
                                   "to move has pending melds")
        if s.pile_pending:
            if not s.pending or not any(s.pending_top in m.cards
                                        for m in s.melds[cur_team] if m.pending):
                raise S.bad("pending_top", "a pile taken for a pending meld has its top card "
                                           "in that meld")
        elif s.pending_top != -1:
            raise S.bad("pending_top", f"expected -1 with no pile pending, got {s.pending_top}")
        if s.phase != OVER and s.out[s.current]:
            raise S.bad("current", f"seat {s.current} is out of this hand and cannot move")
        s._load_turn_marks(d)
        limit = rules.turn_limit
        if limit is None and "turns" in d:
            raise S.bad("turns", "given, but the pack sets no game.hand_turn_limit")
        s.turns = 0 if limit is None else S.integer(d.get("turns", 0), "turns", 0, limit - 1)
        s.hand_results = []
        ledger = s._ledger() if s.rules.spec.scoring.sheets else None  # (no hands yet)
        totals = [0] * n_teams
        for i, h in enumerate(S.array(S.get(d, "hand_results"), "hand_results",
                                      max_len=10_000)):
            where = f"hand_results[{i}]"
            h = S.obj(h, where)
            S.integer(S.get(h, "hand_number", f"{where}."), f"{where}.hand_number", i + 1, i + 1)
            ended_by = S.choice(S.get(h, "ended_by", f"{where}."), f"{where}.ended_by",
                                s._ENDINGS)
            went_out = S.get(h, "went_out", f"{where}.")
            if went_out is not None:
                S.integer(went_out, f"{where}.went_out", 0, n - 1)
            if (went_out is None) != (ended_by != "went_out"):
                raise S.bad(f"{where}.went_out", f"does not agree with ended_by {ended_by!r}")
            if ended_by == "turn_limit" and rules.turn_limit is None:
                raise S.bad(f"{where}.ended_by", "turn_limit, but the pack sets no "
                                                 "game.hand_turn_limit")
            final = s._final_from_save(S.get(h, "final", f"{where}."), f"{where}.final", i + 1)
            if final.void != (ended_by == "turn_limit"):
                raise S.bad(f"{where}.final.void", f"{str(final.void).lower()}, but a hand "
                            "is void exactly when it ends at the turn limit (turn_limit)")
            if final.went_out != went_out:
                raise S.bad(f"{where}.final.went_out", "differs from the hand's went_out")
            pays: list = []
            if pack.deals:  # a schedule: the hand is scored by its own deal's rules
                s.rules = Rules.of(pack.for_deal(i + 1))
            scores = tuple(s._score(final, pays))
            s.rules = rules
            for sc in scores:
                totals[sc.team] += sc.total
            net = tuple(sc.total for sc in scores)  # a side's net is its total
            entries = ()  # (a save keeps the zones: payments and sheets are counted again)
            if ledger is not None:
                entries = tuple(ledger.enter(s._sheet_points(final, scores), s._won(net)))
            s.hand_results.append(HandResult(i + 1, ended_by, went_out, scores, net, final,
                                             tuple(pays), entries))
        done = len(s.hand_results)
        if s.hand_number != (done if s.phase == OVER else done + 1):
            raise S.bad("hand_number", f"{s.hand_number} does not follow the {done} finished "
                                       f"hand(s) in hand_results")
        if ledger is not None:  # the sheets' totals; a finished game closed its sheets
            if s.phase == OVER and done:
                last = s.hand_results[-1]
                s.hand_results[-1] = attrs.evolve(last, sheets=tuple(ledger.close(last.sheets)))
            totals = ledger.totals()
        if totals != s.scores:
            raise S.bad("scores", f"{s.scores} are not the sum of the hands' scores {totals}"
                        + plugin_rescored(s))
        s._legal_cache = None
        s._check_position()
        return s

    _ENDINGS = ("went_out", "stock_empty", "one_side_left", "no_legal_move", "no_progress",
                "turn_limit")
    """Every ``ended_by`` a hand of the canasta kernel can have."""

    def _check_position(self) -> None:
        """Refuse a saved position that no game reaches: the fields a phase holds only
        there, the sides' melds against ``melded``, the reserves against ``reserve_taken``,
        ``over`` against the game's end, and the liveness invariant (a game that is not
        over has a legal action); each a :class:`~meldkit.SaveError` naming the field."""
        S = _saves
        rules = self.rules
        n, phase = self.n_players, self.phase
        results = self.hand_results
        for i, h in enumerate(results[:-1]):
            if h.ended_by == "no_progress":
                raise S.bad(f"hand_results[{i}].ended_by", "no_progress ends the game: only "
                                                            "the last hand can end so")
        ended = bool(results) and (results[-1].ended_by == "no_progress"
                                   or no_progress(results, self._idle)
                                   or self._game_ended())
        if (phase == OVER) != ended:
            if phase == OVER:
                raise S.bad("phase", f"over, but after {len(results)} hand(s) with scores "
                                     f"{self.scores} the game goes on")
            raise S.bad("phase", f"{phase}, but the game ended after hand {len(results)} "
                                 f"(scores {self.scores})")
        if phase == OVER:
            return
        for p in range(n):
            if not self.reserve_taken[p] and len(self.reserves[p]) != rules.reserve_size:
                raise S.bad(f"reserves[{p}]", f"expected the {rules.reserve_size} cards dealt "
                                              f"(not picked up), got {len(self.reserves[p])}")
            if self.out[p] and self.hand_size[p] > 1:
                raise S.bad(f"out[{p}]", f"seat {p} holds {self.hand_size[p]} cards: a player "
                                         "leaves the hand only with no card to discard")
            if not self.out[p] and not self.hand_size[p] and not (
                    phase == PLAY_PHASE and p == self.current):
                raise S.bad(f"hands[{p}]", "empty, but the seat is not out of the hand (a "
                                           "player with no card goes out, leaves or picks up "
                                           "the reserve)")
        for t in range(self.n_teams):
            if self.melded[t] and not self.melds[t]:
                raise S.bad(f"melded[{t}]", "true, but the side has no meld on the table")
        if self.pile_frozen and not self.pile and not self.pile_pending:
            # (a pending initial meld may hold the pile's last card: withdrawn, it comes back)
            raise S.bad("pile_frozen", "true, but the discard pile is empty (taking the pile "
                                       "unfreezes it)")
        team = self.side_of[self.current]
        if self.failed_initial and self.melded[team]:
            raise S.bad("failed_initial", "true, but the side to move has melded (only a "
                                          "side still to make its initial meld can fail it)")
        if self.melded_at_turn_start and not self.player_melded[self.current]:
            raise S.bad("melded_at_turn_start", f"true, but seat {self.current} has not melded "
                                                "this hand (player_melded)")
        if not self._cached_legal():
            raise S.bad("phase", f"{phase}, but seat {self.current} would have no legal action: "
                                 "no game reaches such a position")

    def _sides_from_save(self, v, where: str, melds, melded) -> list[int]:
        """``side_of`` (a state's) or ``sides`` (a hand record's) from a save: absent, the
        seating; else a formation ``players.sides_form`` makes — one seat alone, the others
        on the side of the lowest seat among them, whose melds hold theirs."""
        S = _saves
        if v is None or (where.endswith("sides") and v == []):
            return self.team_of
        if not self.rules.sides_form:
            raise S.bad(where, "given, but sides form during a hand only with "
                               "players.sides_form: first_pile_take")
        n = self.n_players
        v = S.array_of(v, where, lambda x, w: S.integer(x, w, 0, n - 1), n)
        formations = []
        for lone in range(n):
            rep = min(q for q in range(n) if q != lone)
            formations.append([self.team_of[q] if q == lone else self.team_of[rep]
                               for q in range(n)])
        if v not in formations:
            raise S.bad(where, f"{v} is not a formation of sides: one seat alone, each other "
                               "on the side of the lowest seat among them")
        for q in range(n):
            t = self.team_of[q]
            if v[q] != t and (melds[t] or melded[t]):
                raise S.bad(f"{where}[{q}]", f"seat {q} plays on side {v[q]}, but its own "
                                             f"side {t} holds melds or has melded (a side "
                                             "joined to another keeps none)")
        return self.team_of if v == list(self.team_of) else v

    def _run_from_save(self, ids: list[int], where: str) -> Run:
        """A sequence from a save: cards of one suit at consecutive places of
        ``melds.sequences.ranks``, lowest first, ``min_size`` to ``max_size`` of them."""
        S = _saves
        rules = self.rules
        if not rules.seq_min <= len(ids) <= rules.seq_max:
            raise S.bad(f"{where}[1]", f"a sequence holds {rules.seq_min} to {rules.seq_max} "
                                       f"cards, not {len(ids)}")
        kinds = [self.kind_of[c] for c in ids]
        first = kinds[0]
        lo = rules.seq_pos[rank_of_kind(first)] if first < 52 else -1
        for j, k in enumerate(kinds):
            if k >= 52 or k % 4 != first % 4 or lo < 0 or rules.seq_pos[k // 4] != lo + j:
                raise S.bad(f"{where}[1][{j}]", f"{self.codes[ids[j]]} does not continue a "
                                                "sequence of one suit, lowest card first")
        return Run(first % 4, lo, lo + len(ids) - 1, list(ids), False)

    def _final_from_save(self, v, where: str, hand_number: int) -> HandFinal:
        """A finished hand's record from a save, checked like the state."""
        S = _saves
        n, n_teams = self.n_players, self.n_teams
        n_cards = len(self.kind_of)
        v = S.obj(v, where)
        ledger = S.CardLedger(n_cards)
        team_of = S.get(v, "team_of", f"{where}.")
        if team_of != self.team_of:
            raise S.bad(f"{where}.team_of", f"expected the game's seating {self.team_of}")

        def zones(key: str, count: int) -> tuple[tuple[int, ...], ...]:
            return tuple(tuple(ledger.cards(z, f"{where}.{key}[{i}]"))
                         for i, z in enumerate(S.array(S.get(v, key, f"{where}."),
                                                       f"{where}.{key}", count)))

        hands, reserves, bonus = zones("hands", n), zones("reserves", n), zones("bonus", n)
        melds = []
        for t, ms in enumerate(S.array(S.get(v, "melds", f"{where}."), f"{where}.melds", n_teams)):
            team = []
            for i, m in enumerate(S.array(ms, f"{where}.melds[{t}]", max_len=n_cards)):
                mw = f"{where}.melds[{t}][{i}]"
                slot, ids = S.array(m, mw, 2)
                slot = S.integer(slot, f"{mw}[0]", 0, SEQ)
                if slot not in self.rules.record_slots:
                    raise S.bad(f"{mw}[0]", f"this pack melds no {_rank_name(slot)}")
                ids = tuple(ledger.cards(ids, f"{mw}[1]"))
                if slot == SEQ:
                    self._run_from_save(list(ids), mw)
                team.append((slot, ids))
            melds.append(tuple(team))
        went_out = S.get(v, "went_out", f"{where}.")
        if went_out is not None:
            S.integer(went_out, f"{where}.went_out", 0, n - 1)
        S.integer(v.get("hand_number", hand_number), f"{where}.hand_number",
                  hand_number, hand_number)
        melded = tuple(S.array_of(S.get(v, "melded", f"{where}."), f"{where}.melded",
                                  S.boolean, n_teams))
        sides = self._sides_from_save(v.get("sides"), f"{where}.sides", melds, melded)
        ext = S.json_data(S.obj(v.get("ext", {}), f"{where}.ext"), f"{where}.ext")
        return HandFinal(
            team_of=tuple(self.team_of),
            hands=hands,
            reserves=reserves,
            reserve_taken=tuple(S.array_of(S.get(v, "reserve_taken", f"{where}."),
                                           f"{where}.reserve_taken", S.boolean, n)),
            bonus=bonus,
            melds=tuple(melds),
            melded=melded,
            went_out=went_out,
            concealed=S.boolean(S.get(v, "concealed", f"{where}."), f"{where}.concealed"),
            hand_number=hand_number,
            ext=json.loads(json.dumps(ext)),
            sides=() if sides is self.team_of else tuple(sides),
            void=S.boolean(v.get("void", False), f"{where}.void"),
        )


_JOINED_SHAPES = frozenset({"meld/too-many-wilds", "meld/too-large"})
"""What a meld may exceed in a save once sides formed (``players.sides_form``): two open
melds of a rank joined into one may hold more wild cards, or cards, than one laid may."""


def _over_reason(state, a: Action) -> Reason:
    return _r("game/over", "the game is over")


PHASES = {
    DRAW_PHASE: (RankSlotModel._legal_draw, RankSlotModel._check, RankSlotModel._apply),
    PLAY_PHASE: (RankSlotModel._legal_play, RankSlotModel._check, RankSlotModel._apply),
    OVER: (lambda state: [], _over_reason, None),
}
"""The rank-slot model's phase table: each phase's ``(legal, check, do)``, the functions
:class:`~meldkit.kernel.state.KernelState` dispatches to.  Every action of a turn is
checked and applied by the same pair: a canasta turn's two rooms differ in what they list."""
