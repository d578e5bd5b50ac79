"""The Houses engine: a :class:`meldkit.GameState` subclass with its own deck, phases and
actions.

Phases: ``take`` (draw from the deck, or receive the card the partner passed), ``act``
(place, pass a card to the partner, steal, move; after the deck is exhausted also remove
and pass the turn; propose to end), ``answer`` (the partner's out-of-turn answer to a
proposal to end) and ``over``.

Notation (cards are role + house codes, e.g. ``KS`` the Knight of Sun; spaces 1..4):
``draw``, ``receive``, ``place KS 2``, ``pass KS`` (face down to the partner), ``steal 3 to
1`` (top card of the right-hand opponent's group 3 onto one's own space 1), ``move 1 to 2``,
``remove 2``, ``pass`` (the turn), ``propose``, ``agree``, ``refuse``.
"""

from __future__ import annotations

import random
from operator import attrgetter
from typing import Any

import attrs

from .._actions import Action, Reason
from .._checks import check_seat
from .._errors import NotationError, SetupError
from .._game import GameState
from ..records import HandResult, totals

TAKE, ACT, ANSWER, OVER = "take", "act", "answer", "over"
DRAW, RECEIVE, PLACE, PASS, STEAL, MOVE, REMOVE = (
    "draw", "receive", "place", "pass", "steal", "move", "remove")
PROPOSE, AGREE, REFUSE = "propose", "agree", "refuse"
VERBS = (DRAW, RECEIVE, PLACE, PASS, STEAL, MOVE, REMOVE, PROPOSE, AGREE, REFUSE)


# What view() builds at every decision for every seat, made fast.  A view's dicts are copies
# of templates filled in (copying a dict costs a fraction of building one key by key): the
# view itself (_VIEW) and, per seat arrangement, each seat's records (_seat_templates).  A
# group's card codes are looked up once per distinct group (HousesRules.view_codes), not
# card by card.  Templates hold no lists: every list and dict of a view is new.
_VIEW = dict.fromkeys((  # the keys in order: the core (ai/view_schema.CORE), then Houses'
    "pack", "player", "team", "hand_number", "phase", "current_player", "dealer", "hand",
    "seats", "sides", "melds", "stock_size", "pile", "knock", "deadwood", "legal_actions",
    "you", "players", "scores", "proposal_pending"))
_TEXT = attrgetter("_text")
"""An action's notation: ``str(action)`` without the Python call (``Action.__str__``)."""
_VIEW_CODES_MAX = 1 << 14
"""Most groups whose codes :attr:`HousesRules.view_codes` keeps (then it starts again)."""


def _remember(memo: dict, key: tuple[int, ...], code) -> tuple[str, ...]:
    """The codes of the group ``key``, kept in ``memo`` (the view's lookup missed)."""
    if len(memo) >= _VIEW_CODES_MAX:
        memo.clear()
    cards = memo[key] = tuple(map(code, key))
    return cards


def _seat_templates(rules: HousesRules, team_of) -> list:
    """The view's records of each seat with what the seating fixes filled in: ``(seats
    record, players record, [melds record of each space])``, kept per seating (a few)."""
    key = tuple(team_of)
    found = rules.view_seats[key] = [
        ({"seat": q, "side": side, "hand_size": None},
         {"seat": q, "team": side, "hand_size": None, "passed_card_waiting": None,
          "groups": None, "removed": None},
         [{"id": name, "owner": q, "side": side, "kind": "group", "cards": None,
           "closed": False, "book": None, "pending": False} for name in rules.space_names])
        for q, side in enumerate(key)]
    return found


@attrs.frozen
class GroupScore:
    """A group removed for scoring: its cards (bottom first) and its points."""

    cards: tuple[str, ...]
    points: int


@attrs.frozen
class HousesTeamScore:
    """A team's score at the end: the removed groups and their total (SH-11, SH-12)."""

    team: int
    groups: tuple[GroupScore, ...] = ()

    @property
    def total(self) -> int:
        """The sum of the removed groups' points."""
        return sum(g.points for g in self.groups)


HousesResult = HandResult
"""The record of a finished game of Houses (one deal): :class:`meldkit.records.HandResult`
(the one shape), with :class:`HousesTeamScore` lines; ``ended_by`` is ``table_cleared``,
``agreed``, ``all_passed`` or ``repetition``, ``went_out`` None; ``final`` is
``{"removed": [...], "table": [...]}`` (group card ids per player): what the score is
computed from."""


class HousesRules:
    """The compiled tables of a Houses pack (cached per pack digest)."""

    _cache: dict[str, HousesRules] = {}

    def __init__(self, pack):
        o = pack.options
        self.pack = pack
        self.options = o
        self.n_roles = len(o.roles)
        self.codes = [r.code.upper() + h.code.upper() for h in o.houses for r in o.roles]
        self.kind_of_code = {c: k for k, c in enumerate(self.codes)}
        self.house = [k // self.n_roles for k in range(len(self.codes))]
        self.role = [k % self.n_roles for k in range(len(self.codes))]
        self.major = [o.roles[r].major for r in self.role]
        role_index = {r.code.upper(): i for i, r in enumerate(o.roles)}
        self.partner_role = [-1] * self.n_roles
        for a, b in o.correspondences.items():
            ia, ib = role_index[a.upper()], role_index[b.upper()]
            self.partner_role[ia], self.partner_role[ib] = ib, ia
        self.spaces = o.group_spaces
        self.gmin, self.gmax = o.group_min, o.group_max
        self.hand_size = pack.spec.deal.hand
        self._actions: dict[tuple, Action] = {}
        self._fit_sets: dict[tuple[int, ...], frozenset[int]] = {}
        self._points: dict[tuple[int, ...], int | None] = {}
        # for view(): a group's card ids -> their codes (filled as seen), each space's name,
        # the records of each seating (_seat_templates)
        self.view_codes: dict[tuple[int, ...], tuple[str, ...]] = {}
        self.space_names = tuple(str(s + 1) for s in range(self.spaces))
        self.view_seats: dict[tuple[int, ...], list] = {}  # by team_of
        self.all_cards = range(len(self.codes))
        # every action legal-move generation can build, interned once (no call per action)
        spaces, act = range(self.spaces), self.action
        self.place_actions = [tuple(act(PLACE, (k,), s) for s in spaces) for k in self.all_cards]
        self.pass_actions = [act(PASS, (k,)) for k in self.all_cards]
        self.steal_actions = [tuple(act(STEAL, (f,), s) for s in spaces) for f in spaces]
        self.move_actions = [tuple(act(MOVE, (f,), s) for s in spaces) for f in spaces]
        self.remove_actions = [act(REMOVE, (s,)) for s in spaces]
        self.space_range = spaces
        self.take_actions = (act(DRAW), act(RECEIVE))  # by "a card was passed to me"
        self.answer_actions = (act(AGREE), act(REFUSE))
        self.pass_turn_action = act(PASS)
        self.propose_action = act(PROPOSE)
        self._zobrist: dict[int, tuple] = {}

    def zobrist(self, players: int) -> tuple:
        """SH-10's position hashing for a table of ``players``: ``(hand, incoming, group,
        current)`` — a 64-bit random word for each card in each hand ``hand[p][card]``, as
        each passed card ``incoming[p][card]``, at each depth of each group space
        ``group[p][space][depth][card]``, and for each player to move.  A position's key
        is the XOR of the words of where its cards are (:meth:`HousesState.position_key`),
        so a move updates it with a few XORs.  Drawn from a fixed seed: the same in every
        process and version."""
        z = self._zobrist.get(players)
        if z is None:
            rng = random.Random(0x5EED_0510)
            cards = range(len(self.codes))

            def words() -> list[int]:
                return [rng.getrandbits(64) for _ in cards]

            depth = max(self.gmax, 2)
            z = self._zobrist[players] = (
                [words() for _ in range(players)],
                [words() for _ in range(players)],
                [[[words() for _ in range(depth)] for _ in range(self.spaces)]
                 for _ in range(players)],
                [rng.getrandbits(64) for _ in range(players)],
            )
        return z

    def fit_set(self, group: list[int]) -> frozenset[int]:
        """Every card that fits on ``group`` (memoised by the group's cards)."""
        key = tuple(group)
        found = self._fit_sets.get(key)
        if found is None:
            found = self._fit_sets[key] = frozenset(
                k for k in self.all_cards if k not in key and self.fits(group, k))
        return found

    def points(self, group: list[int]) -> int | None:
        """:meth:`group_points`, memoised."""
        key = tuple(group)
        try:
            return self._points[key]
        except KeyError:
            value = self._points[key] = self.group_points(key)
            return value

    CACHE_SIZE = 64
    """Most compiled Houses packs kept (least recently used dropped)."""

    @classmethod
    def of(cls, pack) -> HousesRules:
        """The compiled tables of ``pack`` (cached by digest, at most :attr:`CACHE_SIZE`)."""
        cache = cls._cache
        r = cache.pop(pack.digest, None)
        if r is None:
            r = cls(pack)
            while len(cache) >= cls.CACHE_SIZE:
                del cache[next(iter(cache))]
        cache[pack.digest] = r  # most recently used last
        return r

    def action(self, type: str, cards: tuple[int, ...] = (), target: int = -1) -> Action:
        """The interned action (legal-action generation builds actions this way)."""
        key = (type, cards, target)
        a = self._actions.get(key)
        if a is None:
            a = self._actions[key] = Action(type, cards, target, self.text(type, cards, target))
        return a

    def lookup(self, type: str, cards: tuple[int, ...] = (), target: int = -1) -> Action:
        """The interned action if there is one, else a new one (parsed text is never
        interned)."""
        a = self._actions.get((type, cards, target))
        return a if a is not None else Action(type, cards, target, self.text(type, cards, target))

    def text(self, type: str, cards: tuple[int, ...], target: int) -> str:
        """The notation of an action."""
        if type == PLACE:
            return f"place {self.codes[cards[0]]} {target + 1}"
        if type == PASS and cards:
            return f"pass {self.codes[cards[0]]}"
        if type in (STEAL, MOVE):
            return f"{type} {cards[0] + 1} to {target + 1}"
        if type == REMOVE:
            return f"remove {cards[0] + 1}"
        return type

    def fits(self, group: list[int], k: int) -> bool:
        """SH-6: the group with ``k`` on top could still be, or become, a group type."""
        if not group:
            return True
        n = len(group) + 1
        house, role, major = self.house, self.role, self.major
        if n <= self.gmax:
            if all(house[c] == house[k] and major[c] == major[k] for c in group):
                return True  # type 1: majors or minors of one house
            if all(role[c] == role[k] for c in group):
                return True  # type 2: one rank
        return (n == 2 and house[group[0]] == house[k]
                and self.partner_role[role[group[0]]] == role[k])

    def group_points(self, group: list[int] | tuple[int, ...]) -> int | None:
        """Points of a complete scoring group (SH-11), or None if it is not one."""
        n = len(group)
        if not group:
            return None
        house, role, major = self.house, self.role, self.major
        sc = self.options.scores
        if self.gmin <= n <= self.gmax and (
                all(house[c] == house[group[0]] and major[c] == major[group[0]] for c in group)
                or all(role[c] == role[group[0]] for c in group)):
            table = sc.majors if major[group[0]] else sc.minors
            return table.get(n)
        if (n == 2 and house[group[0]] == house[group[1]] and major[group[0]]
                and self.partner_role[role[group[0]]] == role[group[1]]):
            return sc.pair  # a corresponding pair, major placed first
        return None


class HousesState(GameState):
    """A game of Houses in progress."""

    __slots__ = ("rules", "stock", "hands", "groups", "removed", "n_removed", "incoming",
                 "post_deck", "proposed", "passes_in_row", "ended_by", "positions",
                 "team_seats", "zob", "zhash", "fit", "scoring")

    # ------------------------------------------------------------------ creation
    @classmethod
    def _new(cls, pack, players: int, seed: int, options: dict | None,
             deck_order: list[str] | None) -> HousesState:
        rules = HousesRules.of(pack)
        s = cls.__new__(cls)
        s.rules = rules
        options = s._setup(pack, players, seed, options, deck_order)
        s.hand_number = 1
        rng = random.Random(f"meldkit:{seed}:1")
        first = options.get("first_player")
        if first is None:
            first = (rng.randrange(players) + 1) % players  # left of a dealer drawn by lot
        deck = s._ordered_deck(rng)
        s.stock = deck[::-1]
        s.hands = [[] for _ in range(players)]
        for i in range(players):  # the deal is in blocks, seat by seat from the first player
            s.hands[(first + i) % players] = [s.stock.pop() for _ in range(rules.hand_size)]
        s.groups = [[[] for _ in range(rules.spaces)] for _ in range(players)]
        s.removed = [[] for _ in range(players)]
        s.n_removed = 0
        s.team_seats = tuple(s.team_players(t) for t in range(s.n_teams))
        s.incoming = [-1] * players
        s.zob = rules.zobrist(players)
        s.zhash = s._full_hash()
        s.fit = s._fit_sets()
        s.scoring = s._scoring_groups()
        s.proposed = False
        s.passes_in_row = 0
        s.positions = {}
        s.ended_by = ""
        s._start_turn(first)
        return s

    def _ordered_deck(self, rng: random.Random) -> list[int]:
        ids = list(range(len(self.rules.codes)))
        if not self.deck_order:
            rng.shuffle(ids)
            return ids
        top = []
        for i, code in enumerate(self.deck_order):
            k = self.rules.kind_of_code.get(str(code).upper())
            if k is None:
                raise SetupError(f"deck_order[{i}]: {code!r} is not a card of this deck "
                                 f"(cards are role + house codes such as {self.rules.codes[0]})")
            if k in top:
                raise SetupError(f"deck_order[{i}]: {code} appears twice")
            top.append(k)
        rest = [c for c in ids if c not in set(top)]
        rng.shuffle(rest)
        return top + rest

    @classmethod
    def stack_deck(cls, pack, players: int, hands: dict[int, list[str]], stock: list[str],
                   first_player: int = 0) -> list[str]:
        """A ``deck_order`` dealing ``hands`` (seat → card codes, filled up from the cards
        not named, in deck order) with ``stock`` on top of the deck after the deal (what
        :func:`meldkit.testing.stack_deck` calls for Houses)."""
        rules = HousesRules.of(pack)
        named: list[str] = []
        for where, codes in [*((f"hand of seat {s}", h) for s, h in hands.items()),
                             ("stock", stock)]:
            for code in codes:
                k = rules.kind_of_code.get(str(code).upper())
                if k is None:
                    raise SetupError(f"{where}: {code!r} is not a card of this deck "
                                     f"(cards are role + house codes such as {rules.codes[0]})")
                if rules.codes[k] in named:
                    raise SetupError(f"{where}: {rules.codes[k]} is named twice")
                named.append(rules.codes[k])
        for seat, h in hands.items():
            if not isinstance(seat, int) or not 0 <= seat < players:
                raise SetupError(f"hands: {seat!r} is not a seat 0..{players - 1}")
            if len(h) > rules.hand_size:
                raise SetupError(f"hand of seat {seat}: {len(h)} cards, but {rules.hand_size} "
                                 "are dealt")
        filler = iter(c for c in rules.codes if c not in named)
        order: list[str] = []
        for i in range(players):
            seat = (first_player + i) % players
            h = [rules.codes[rules.kind_of_code[c.upper()]] for c in hands.get(seat, [])]
            order += h + [next(filler) for _ in range(rules.hand_size - len(h))]
        order += [rules.codes[rules.kind_of_code[c.upper()]] for c in stock]
        if len(order) > len(rules.codes):
            raise SetupError(f"the deck has {len(rules.codes)} cards, {len(order)} are named")
        return order

    def _start_turn(self, p: int) -> None:
        self.current = p
        self.proposed = False
        self.post_deck = not self.stock
        self.phase = TAKE if (self.incoming[p] >= 0 or self.stock) else ACT
        if self.post_deck:  # SH-10: the third occurrence of a position ends the game
            key = format(self.zhash ^ self.zob[3][p], "016x")  # = position_key(), kept
            seen = self.positions[key] = self.positions.get(key, 0) + 1
            if seen >= self.rules.options.repetitions:
                self._end("repetition")

    def position_key(self) -> str:
        """The key of the position SH-10 compares — the cards in every hand, every passed
        card, the cards of every group space in their order, and the player to move — as
        16 hex digits (:meth:`HousesRules.zobrist`).  Play keeps the same hash up to date
        move by move (``zhash``) instead of computing it at every turn."""
        return format(self._full_hash() ^ self.zob[3][self.current], "016x")

    def _fit_sets(self) -> list[list[frozenset[int]]]:
        """The cards that fit on each group space of each player (kept up to date by
        :meth:`_regroup`, so legal-move generation looks them up)."""
        fit_set = self.rules.fit_set
        return [[fit_set(g) for g in spaces] for spaces in self.groups]

    def _scoring_groups(self) -> list[list[bool]]:
        """Whether each group space of each player holds a complete scoring group (SH-11),
        kept up to date like :meth:`_fit_sets`."""
        points = self.rules.points
        return [[points(g) is not None for g in spaces] for spaces in self.groups]

    def _regroup(self, p: int, s: int) -> None:
        """Group space ``s`` of player ``p`` changed: refresh what fits on it and whether
        it scores."""
        g = self.groups[p][s]
        self.fit[p][s] = self.rules.fit_set(g)
        self.scoring[p][s] = self.rules.points(g) is not None

    def _full_hash(self) -> int:
        """The position hash computed from scratch (what the moves keep up to date)."""
        hand_w, in_w, group_w, _ = self.zob
        h = 0
        for p, cards in enumerate(self.hands):
            for c in cards:
                h ^= hand_w[p][c]
        for p, c in enumerate(self.incoming):
            if c >= 0:
                h ^= in_w[p][c]
        for p, spaces in enumerate(self.groups):
            for s, group in enumerate(spaces):
                for d, c in enumerate(group):
                    h ^= group_w[p][s][d][c]
        return h

    # ------------------------------------------------------------------ reading
    def code(self, card: int) -> str:
        """The text code of a card (``KS``)."""
        return self.rules.codes[card]

    def right_hand_opponent(self, p: int) -> int:
        """The player who moved just before ``p`` (SH-3)."""
        return (p - 1) % self.n_players

    def partner(self, p: int) -> int:
        """``p``'s partner (opposite)."""
        return (p + self.n_players // 2) % self.n_players

    def cards_in_play(self) -> int:
        """Cards on the table (not removed) and in hands: every card but the deck's and
        the removed groups' (each card is in exactly one zone)."""
        return len(self.rules.codes) - len(self.stock) - self.n_removed

    def zone_cards(self) -> dict[str, list[int]]:
        """Every zone with the card ids in it; each card is in exactly one."""
        z = {"stock": list(self.stock)}
        for p in range(self.n_players):
            z[f"hand:{p}"] = list(self.hands[p])
            z[f"incoming:{p}"] = [self.incoming[p]] if self.incoming[p] >= 0 else []
            for s, g in enumerate(self.groups[p]):
                z[f"group:{p}:{s + 1}"] = list(g)
            z[f"removed:{p}"] = [c for g in self.removed[p] for c in g]
        return z

    # ------------------------------------------------------------------ game-AI hooks
    def action_universe(self) -> list[Action]:
        """Every action of the pack at this table, in id order (the integer action space)."""
        from ..ai.action_space import sorted_actions

        r = self.rules
        look = r.lookup
        cards = range(len(r.codes))
        spaces = range(r.spaces)
        out = [look(v) for v in (DRAW, RECEIVE, PASS, PROPOSE, AGREE, REFUSE)]
        out += [look(PASS, (k,)) for k in cards]
        out += [look(PLACE, (k,), s) for k in cards for s in spaces]
        out += [look(STEAL, (a,), b) for a in spaces for b in spaces]
        out += [look(MOVE, (a,), b) for a in spaces for b in spaces if a != b]
        out += [look(REMOVE, (s,)) for s in spaces]
        return sorted_actions(out, VERBS)

    def observation_layout(self):
        """The ``(spec, fill)`` functions of :meth:`observation`: ``spec(state)`` names the
        slices, ``fill(state, player, spec, out)`` writes what ``player`` sees."""
        return HousesState._observation_spec, HousesState._observation_fill

    _PHASES = (TAKE, ACT, ANSWER, OVER)  # the phase slice of an observation

    def _observation_spec(self):
        from ..ai.observation import ObservationSpec

        r = self.rules
        n, nc, sp = self.n_players, len(r.codes), r.spaces
        s = ObservationSpec("houses", list(r.codes))
        s.add("hand", nc, "own hand: 1 for each card held")
        s.add("groups", n * sp * nc, "cards in each group space (relative seat x space x card)")
        s.add("group_tops", n * sp * nc, "the top card of each group space (one-hot)")
        s.add("removed", n * nc, "cards in each seat's removed groups (relative seat x card)")
        s.add("hand_sizes", n, "cards in each seat's hand (relative seat)")
        s.add("passed_waiting", n, "1 where a face-down passed card waits for that seat")
        s.add("passed_by_me", nc, "the card I passed that my partner has not yet received")
        s.add("stock", 1, "cards left in the deck")
        s.add("scores", self.n_teams, "each team's score (relative team)")
        s.add("phase", len(self._PHASES), "the phase, one-hot: " + ", ".join(self._PHASES))
        s.add("to_move", n, "the seat to act, one-hot (relative seat)")
        return s

    def _observation_fill(self, p: int, spec, out) -> None:
        from ..ai.observation import fill_scores, rel

        r = self.rules
        n, nc, sp = self.n_players, len(r.codes), r.spaces
        for c in self.hands[p]:
            out[spec["hand"].start + c] = 1
        for q in range(n):
            rq = rel(p, q, n)
            for s_i, g in enumerate(self.groups[q]):
                base = (rq * sp + s_i) * nc
                for c in g:
                    out[spec["groups"].start + base + c] = 1
                if g:
                    out[spec["group_tops"].start + base + g[-1]] = 1
            for g in self.removed[q]:
                for c in g:
                    out[spec["removed"].start + rq * nc + c] = 1
            out[spec["hand_sizes"].start + rq] = len(self.hands[q])
            out[spec["passed_waiting"].start + rq] = 1 if self.incoming[q] >= 0 else 0
        mine = self.incoming[self.partner(p)]
        if mine >= 0:
            out[spec["passed_by_me"].start + mine] = 1
        out[spec["stock"].start] = len(self.stock)
        fill_scores(self, p, spec, out)
        out[spec["phase"].start + self._PHASES.index(self.phase)] = 1
        if self.phase != "over":
            out[spec["to_move"].start + rel(p, self.current, n)] = 1

    def set_zone_cards(self, assignment: dict[tuple[str, int], int]) -> None:
        """Put card ``c`` at each hidden ``(zone, index)`` (what a resample deals)."""
        for (z, i), c in assignment.items():
            if z == "stock":
                self.stock[i] = c
            elif z.startswith("hand:"):
                self.hands[int(z[5:])][i] = c
            elif z.startswith("incoming:"):
                self.incoming[int(z[9:])] = c
            else:
                raise ValueError(f"cannot resample zone {z}")

    def view_schema(self) -> dict[str, Any]:
        """The JSON Schema :meth:`view` follows."""
        from ..ai.view_schema import HOUSES_VIEW, schema

        return schema(HOUSES_VIEW)

    def view(self, player: int) -> dict[str, Any]:
        """What ``player`` sees: their hand, every group and removed group, and only the
        number of cards in the deck, other hands and passed cards."""
        check_seat(player, self.n_players)
        # Built for speed (see _seat_templates): one pass over the seats, the same records
        # as written out key by key, every list and dict new (a caller may change its view).
        r = self.rules
        memo, code = r.view_codes, r.codes.__getitem__
        team_of, hands, incoming, removed = self.team_of, self.hands, self.incoming, self.removed
        phase = self.phase
        current = None if phase == OVER else self.current
        try:
            seat_records = r.view_seats[tuple(team_of)]
        except KeyError:
            seat_records = _seat_templates(r, team_of)
        seats, melds, players = [], [], []
        q = 0
        for spaces in self.groups:
            seat_t, player_t, meld_t = seat_records[q]
            size = len(hands[q])
            x = seat_t.copy()
            x["hand_size"] = size
            seats.append(x)
            shown = []
            s_i = 0
            for g in spaces:
                if g:
                    key = tuple(g)
                    try:
                        cards = memo[key]
                    except KeyError:
                        cards = _remember(memo, key, code)
                    x = meld_t[s_i].copy()
                    x["cards"] = [*cards]
                    melds.append(x)
                    shown.append([*cards])
                else:
                    shown.append([])
                s_i += 1
            gone = []
            for g in removed[q]:  # tuples
                try:
                    cards = memo[g]
                except (KeyError, TypeError):
                    cards = _remember(memo, tuple(g), code)
                gone.append([*cards])
            x = player_t.copy()
            x["hand_size"] = size
            x["passed_card_waiting"] = incoming[q] >= 0
            x["groups"] = shown
            x["removed"] = gone
            players.append(x)
            q += 1
        scores = self.scores
        sides = []
        t = 0
        for team in self.team_seats:
            sides.append({"side": t, "seats": [*team], "score": scores[t]})
            t += 1
        v = _VIEW.copy()  # dealer, pile, knock, deadwood stay None
        v["pack"] = self.pack.name
        v["player"] = v["you"] = player
        v["team"] = team_of[player]
        v["hand_number"] = self.hand_number
        v["phase"] = phase
        v["current_player"] = current
        v["hand"] = sorted(map(code, hands[player]))
        v["seats"] = seats
        v["sides"] = sides
        v["melds"] = melds
        v["stock_size"] = len(self.stock)
        if current == player:  # only the mover's view lists them (else None)
            v["legal_actions"] = [*map(_TEXT, self._cached_legal())]  # = legal_actions()
        v["players"] = players
        v["scores"] = [*scores]
        v["proposal_pending"] = phase == ANSWER
        return v

    # ------------------------------------------------------------------ notation
    def parse_action(self, text: str | Action) -> Action:
        """Parse Houses notation (see the module docstring)."""
        if isinstance(text, Action):
            return text
        text = str(text)
        if len(text) > 100:  # before any work on the text
            raise NotationError("notation/too-long", "a Houses action has at most 4 words")
        words = text.split()
        if not words:
            raise NotationError("notation/empty", "no action given")
        verb, args = words[0].lower(), words[1:]
        r = self.rules
        if verb not in VERBS:  # before the length: an unknown verb is the first thing wrong
            raise NotationError("notation/unknown-verb",
                                f"unknown action {words[0][:20]!r} (expected one of "
                                f"{', '.join(VERBS)})")
        if len(words) > 4:
            raise NotationError("notation/too-long", "a Houses action has at most 4 words")

        def card(w: str) -> int:
            k = r.kind_of_code.get(w.upper())
            if k is None:
                raise NotationError("notation/bad-card",
                                    f"{w!r} is not a card (role + house, e.g. {r.codes[0]})")
            return k

        def space(w: str) -> int:
            if not (w.isascii() and w.isdigit()) or not 1 <= int(w) <= r.spaces:
                raise NotationError("notation/bad-space",
                                    f"{w!r} is not a group space (1 to {r.spaces})")
            return int(w) - 1

        shape = {DRAW: 0, RECEIVE: 0, PROPOSE: 0, AGREE: 0, REFUSE: 0, REMOVE: 1, PLACE: 2}
        if verb == PASS:
            if len(args) > 1:
                raise NotationError("notation/args", "write 'pass' or 'pass <card>'")
            return r.lookup(PASS, (card(args[0]),) if args else ())
        if verb in (STEAL, MOVE):
            if len(args) != 3 or args[1].lower() != "to":
                raise NotationError("notation/args", f"write '{verb} <space> to <space>'")
            return r.lookup(verb, (space(args[0]),), space(args[2]))
        if len(args) != shape[verb]:
            example = {REMOVE: "remove 2", PLACE: "place KS 2"}.get(verb, verb)
            raise NotationError("notation/args", f"write '{example}'")
        if verb == PLACE:
            return r.lookup(PLACE, (card(args[0]),), space(args[1]))
        if verb == REMOVE:
            return r.lookup(REMOVE, (space(args[0]),))
        return r.lookup(verb)

    def _interned(self, action: Action) -> Action | None:
        return self.rules._actions.get(action)

    # ------------------------------------------------------------------ legality
    def _legal(self) -> list[Action]:
        r = self.rules
        p = self.current
        if self.phase == TAKE:
            return [r.take_actions[self.incoming[p] >= 0]]
        if self.phase == ANSWER:
            return list(r.answer_actions)
        mine = self.groups[p]
        fit = self.fit[p]
        spaces = r.space_range
        hand = sorted(self.hands[p])
        place = r.place_actions
        out = [place[k][s] for k in hand for s in spaces if k in fit[s]]
        if not self.post_deck:
            passes = r.pass_actions
            out += [passes[k] for k in hand]
        steal = r.steal_actions
        out += [steal[f][s] for f, g in enumerate(self.groups[(p - 1) % self.n_players]) if g
                for s in spaces if g[-1] in fit[s]]
        move = r.move_actions
        out += [move[f][s] for f, g in enumerate(mine) if g for s in spaces
                if s != f and (mine[s] or len(g) > 1) and g[-1] in fit[s]]
        if self.post_deck:
            scores = self.scoring[p]
            out += [r.remove_actions[s] for s in spaces if scores[s]]
            if (not self.hands[p] or not out
                    or r.options.pass_after_deck == "always"):
                out.append(r.pass_turn_action)
        if not self.proposed and self.cards_in_play() <= r.options.end_proposal_max_cards:
            out.append(r.propose_action)
        return out

    def _check(self, a: Action) -> Reason | None:
        # Legal sets here are small (a few dozen actions): membership is the check, and
        # the reason is worked out only for refused actions.
        if a in self._cached_legal():
            return None
        return self._reason(a)

    def _reason(self, a: Action) -> Reason:
        r = self.rules
        p = self.current
        t = a.type
        if self.phase == TAKE:
            if self.incoming[p] >= 0:
                return Reason("take/must-receive",
                              "your partner passed you a card: you must pick it up first")
            return Reason("turn/draw-first", "draw a card from the deck first")
        if self.phase == ANSWER:
            return Reason("answer/agree-or-refuse",
                          "your partner proposes to end the game: agree or refuse")
        if t == DRAW and self.post_deck:
            return Reason("draw/deck-exhausted", "the deck is exhausted: there is nothing to draw")
        if t in (DRAW, RECEIVE):
            return Reason("turn/already-taken", "you have already taken a card this turn")
        if t in (AGREE, REFUSE):
            return Reason("answer/no-proposal", "no one has proposed to end the game")
        if t == PROPOSE:
            if self.proposed:
                return Reason("end/already-proposed", "you have already proposed this turn")
            return Reason("end/too-many-cards",
                          "the game may end by agreement only with "
                          f"{r.options.end_proposal_max_cards} "
                          f"or fewer cards on the table and in hands ({self.cards_in_play()} now)")
        if t == PLACE:
            if a.cards[0] not in self.hands[p]:
                return Reason("place/not-in-hand", f"you do not hold {r.codes[a.cards[0]]}")
            return Reason("place/does-not-fit",
                          f"{r.codes[a.cards[0]]} does not fit your group {a.target + 1}")
        if t == PASS:
            if a.cards:
                if self.post_deck:
                    return Reason("pass/deck-exhausted",
                                  "cards are passed to the partner only while the deck lasts")
                return Reason("pass/not-in-hand", f"you do not hold {r.codes[a.cards[0]]}")
            if not self.post_deck:
                return Reason("pass/while-deck-lasts",
                              "while the deck lasts a turn is a place, pass of a card, steal "
                              "or move")
            return Reason("pass/must-play", "you may pass only with no card in hand or no play")
        if t == STEAL:
            g = self.groups[self.right_hand_opponent(p)][a.cards[0]]
            if not g:
                return Reason("steal/empty-group",
                              "that group of your right-hand opponent is empty")
            return Reason("steal/does-not-fit",
                          f"{r.codes[g[-1]]} does not fit your group {a.target + 1}")
        if t == MOVE:
            g = self.groups[p][a.cards[0]]
            if not g:
                return Reason("move/empty-group", "that group of yours is empty")
            return Reason("move/does-not-fit",
                          "that card does not fit there (or the move changes nothing)")
        if t == REMOVE:
            if not self.post_deck:
                return Reason("remove/deck-not-exhausted",
                              "groups are removed for scoring only after the deck is exhausted")
            return Reason("remove/not-complete", "that group is not a complete scoring group")
        return Reason("action/unknown", f"unknown action {a}")

    # ------------------------------------------------------------------ applying
    def _do(self, a: Action) -> None:
        p = self.current
        t = a.type
        hand_w, in_w, group_w, _ = self.zob
        if t == DRAW:
            c = self.stock.pop()
            self.hands[p].append(c)
            self.zhash ^= hand_w[p][c]
            self.phase = ACT
            return
        if t == RECEIVE:
            c = self.incoming[p]
            self.hands[p].append(c)
            self.incoming[p] = -1
            self.zhash ^= in_w[p][c] ^ hand_w[p][c]
            self.phase = ACT
            return
        if t == PROPOSE:
            self.proposed = True
            self.phase = ANSWER
            self.current = self.partner(p)
            return
        if t == AGREE:
            self._end("agreed")
            return
        if t == REFUSE:
            self.phase = ACT
            self.current = self.partner(p)
            return
        if t == PLACE:
            c, to = a.cards[0], self.groups[p][a.target]
            self.hands[p].remove(c)
            self.zhash ^= hand_w[p][c] ^ group_w[p][a.target][len(to)][c]
            to.append(c)
            self._regroup(p, a.target)
        elif t == PASS and a.cards:
            c, q = a.cards[0], self.partner(p)
            self.hands[p].remove(c)
            self.incoming[q] = c
            self.zhash ^= hand_w[p][c] ^ in_w[q][c]
        elif t == STEAL or t == MOVE:
            o = self.right_hand_opponent(p) if t == STEAL else p
            src, to = self.groups[o][a.cards[0]], self.groups[p][a.target]
            c = src.pop()
            self.zhash ^= group_w[o][a.cards[0]][len(src)][c] ^ group_w[p][a.target][len(to)][c]
            to.append(c)
            self._regroup(o, a.cards[0])
            self._regroup(p, a.target)
        elif t == REMOVE:
            g = self.groups[p][a.cards[0]]
            for d, c in enumerate(g):
                self.zhash ^= group_w[p][a.cards[0]][d][c]
            self.removed[p].append(tuple(g))
            self.n_removed += len(g)
            self.scores[self.team_of[p]] += self.rules.group_points(g)
            self.groups[p][a.cards[0]] = []
            self._regroup(p, a.cards[0])
        self.passes_in_row = self.passes_in_row + 1 if (t == PASS and not a.cards) else 0
        if self.passes_in_row >= self.n_players:
            self._end("all_passed")
            return
        if t == REMOVE or t == STEAL:  # only these can clear a team's table
            for seats in self.team_seats:
                if (any(self.removed[q] for q in seats)
                        and not any(g for q in seats for g in self.groups[q])):
                    self._end("table_cleared")
                    return
        self._start_turn((p + 1) % self.n_players)

    def _end(self, how: str) -> None:
        self.ended_by = how
        self.phase = OVER
        final = self._final()
        scores = self._score(final)
        self.scores = [s.total for s in scores]
        self.hand_results.append(HousesResult(1, how, None, tuple(scores), totals(scores),
                                              final))

    def _score(self, final: dict) -> list[HousesTeamScore]:
        r = self.rules
        out = []
        for team in range(self.n_teams):
            groups = []
            for q in self.team_players(team):
                for g in final["removed"][q]:
                    groups.append(GroupScore(tuple(r.codes[c] for c in g), r.group_points(g) or 0))
                if r.options.table_groups_score:  # SH-12 resolves otherwise: a pack setting
                    for g in final.get("table", [[]] * self.n_players)[q]:
                        points = r.group_points(g)
                        if points is not None:
                            groups.append(GroupScore(tuple(r.codes[c] for c in g), points))
            out.append(HousesTeamScore(team, tuple(groups)))
        return out

    def _final(self) -> dict:
        """What the final score is computed from: removed groups and groups on the table."""
        return {"removed": [[list(g) for g in gs] for gs in self.removed],
                "table": [[list(g) for g in gs if g] for gs in self.groups]}

    def rescore(self, result: HousesResult) -> tuple[int, ...]:
        """A finished game's team totals recomputed from ``result.final``."""
        return tuple(s.total for s in self._score(result.final))

    # ------------------------------------------------------------------ copies and saves
    def clone(self) -> HousesState:
        """An independent copy."""
        c = HousesState.__new__(HousesState)
        for name in ("pack", "rules", "n_players", "seed", "options", "deck_order", "team_of",
                     "n_teams", "hand_number", "current", "phase", "post_deck", "proposed",
                     "passes_in_row", "ended_by", "_legal_cache"):
            setattr(c, name, getattr(self, name))
        c.scores = self.scores[:]
        c.history = self.history[:]
        c.hand_results = self.hand_results[:]
        c.stock = self.stock[:]
        c.hands = [h[:] for h in self.hands]
        c.groups = [[g[:] for g in gs] for gs in self.groups]
        c.removed = [gs[:] for gs in self.removed]
        c.n_removed = self.n_removed
        c.team_seats = self.team_seats
        c.zob = self.zob
        c.zhash = self.zhash
        c.fit = [f[:] for f in self.fit]
        c.scoring = [f[:] for f in self.scoring]
        c.incoming = self.incoming[:]
        c.positions = dict(self.positions)
        c._info = getattr(self, "_info", None)  # (shared: copied before it is stepped)
        return c

    def _state_dict(self) -> dict[str, Any]:
        return {
            "scores": self.scores, "hand_number": self.hand_number, "current": self.current,
            "phase": self.phase, "stock": self.stock, "hands": self.hands,
            "groups": self.groups, "removed": [[list(g) for g in gs] for gs in self.removed],
            "incoming": self.incoming, "post_deck": self.post_deck, "proposed": self.proposed,
            "passes_in_row": self.passes_in_row, "ended_by": self.ended_by,
            "positions": self.positions,
            "history": self.history,
        }

    @classmethod
    def _from_state_dict(cls, pack, d: dict[str, Any]) -> HousesState:
        """Rebuild a game from a save, checking every field (see :mod:`meldkit.saves`)."""
        from .. import saves as S

        s = cls.__new__(cls)
        s.pack = pack
        r = s.rules = HousesRules.of(pack)
        s._load_envelope(pack, d)
        n, n_teams, spaces = s.n_players, s.n_teams, r.spaces
        n_cards = len(r.codes)
        if s.deck_order:
            seen_codes: set[int] = set()
            for i, code in enumerate(s.deck_order):
                k = r.kind_of_code.get(code.upper())
                if k is None or k in seen_codes:
                    raise S.bad(f"deck_order[{i}]", f"{code!r} is not a card of this deck"
                                if k is None else f"{code} appears twice")
                seen_codes.add(k)
        ledger = S.CardLedger(n_cards)
        s.stock = ledger.cards(S.get(d, "stock"), "stock")
        s.hands = [ledger.cards(h, f"hands[{p}]")
                   for p, h in enumerate(S.array(S.get(d, "hands"), "hands", n))]
        s.incoming = []
        for p, c in enumerate(S.array(S.get(d, "incoming"), "incoming", n)):
            if c == -1 and not isinstance(c, bool):
                s.incoming.append(-1)
            else:
                s.incoming.append(ledger.card(c, f"incoming[{p}]"))
        s.groups = []
        for p, gs in enumerate(S.array(S.get(d, "groups"), "groups", n)):
            mine = []
            for i, g in enumerate(S.array(gs, f"groups[{p}]", spaces)):
                g = ledger.cards(g, f"groups[{p}][{i}]", max_len=max(r.gmax, 2))
                for j in range(1, len(g)):
                    if not r.fits(g[:j], g[j]):
                        raise S.bad(f"groups[{p}][{i}][{j}]",
                                    f"{r.codes[g[j]]} does not fit on that group (SH-6)")
                mine.append(g)
            s.groups.append(mine)
        s.removed = []
        for p, gs in enumerate(S.array(S.get(d, "removed"), "removed", n)):
            mine = []
            for i, g in enumerate(S.array(gs, f"removed[{p}]", max_len=n_cards)):
                g = ledger.cards(g, f"removed[{p}][{i}]", max_len=max(r.gmax, 2))
                if r.group_points(g) is None:
                    raise S.bad(f"removed[{p}][{i}]", "not a complete scoring group (SH-11)")
                mine.append(tuple(g))
            s.removed.append(mine)
        s.n_removed = sum(len(g) for gs in s.removed for g in gs)
        s.team_seats = tuple(s.team_players(t) for t in range(s.n_teams))
        s.zob = r.zobrist(n)
        s.zhash = s._full_hash()
        s.fit = s._fit_sets()
        s.scoring = s._scoring_groups()
        ledger.complete("stock, hands, incoming, groups and removed")
        s.scores = S.array_of(S.get(d, "scores"), "scores",
                              lambda v, w: S.integer(v, w, -S.MAX_SCORE, S.MAX_SCORE), n_teams)
        s.hand_number = S.integer(S.get(d, "hand_number"), "hand_number", 1, 1)
        s.current = S.integer(S.get(d, "current"), "current", 0, n - 1)
        s.phase = S.choice(S.get(d, "phase"), "phase", (TAKE, ACT, ANSWER, OVER))
        s.post_deck = S.boolean(S.get(d, "post_deck"), "post_deck")
        s.proposed = S.boolean(S.get(d, "proposed"), "proposed")
        s.passes_in_row = S.integer(S.get(d, "passes_in_row"), "passes_in_row", 0, n)
        endings = ("table_cleared", "agreed", "all_passed", "repetition")
        s.ended_by = S.choice(S.get(d, "ended_by"), "ended_by",
                              endings if s.phase == OVER else ("",))
        if s.post_deck and s.stock:
            raise S.bad("post_deck", "the deck is not exhausted")
        if s.phase == TAKE and s.incoming[s.current] < 0 and not s.stock:
            raise S.bad("phase", "nothing to take: the deck is exhausted and no card was passed")
        if s.phase == ANSWER and not s.proposed:
            raise S.bad("phase", "an answer with no proposal to end")
        limit = r.options.repetitions
        s.positions = {}
        for key, count in S.obj(d.get("positions", {}), "positions").items():
            if len(key) != 16 or key.strip("0123456789abcdef"):
                raise S.bad(f"positions.{key[:20]}", "expected a 16-digit hex position digest")
            s.positions[key] = S.integer(count, f"positions.{key}", 1, limit)
        if len(s.positions) > 10**6:
            raise S.bad("positions", "too many positions")
        s.history = s.history  # checked with the envelope
        s.hand_results = []
        if s.phase == OVER:
            final = s._final()
            scores = tuple(s._score(final))
            result = HousesResult(1, s.ended_by, None, scores, totals(scores), final)
            s.hand_results.append(result)
            expected = list(result.totals)
        else:
            expected = [sum(r.group_points(g) or 0 for q in s.team_players(t) for g in s.removed[q])
                        for t in range(n_teams)]
        if expected != s.scores:
            raise S.bad("scores", f"{s.scores} are not the points of the removed groups {expected}")
        s._legal_cache = None
        s._check_position()
        return s

    def _check_position(self) -> None:
        """Refuse a saved position that no game reaches: the flags of a turn (``proposed``,
        ``passes_in_row``, ``post_deck``, ``positions``) against the phase and the deck, an
        ending against what ends a game (SH-10, SH-13), and the liveness invariant (a game
        that is not over has a legal action); each a :class:`~meldkit.SaveError` naming
        the field."""
        from .. import saves as S

        r = self.rules
        n, p, phase = self.n_players, self.current, self.phase
        limit = r.options.repetitions
        cleared = [t for t, seats in enumerate(self.team_seats)
                   if any(self.removed[q] for q in seats)
                   and not any(g for q in seats for g in self.groups[q])]
        if phase == OVER:
            why = {"table_cleared": not cleared,
                   "agreed": not self.proposed,
                   "all_passed": self.passes_in_row < n,
                   "repetition": limit not in self.positions.values()}[self.ended_by]
            if why:
                raise S.bad("ended_by", f"{self.ended_by}, but the position does not end the "
                                        "game so (SH-10, SH-13)")
            return
        if cleared:
            raise S.bad("groups", f"team {cleared[0]} has cleared its table, which ends the "
                                  "game (SH-13)")
        if any(self.removed[q] for q in range(n)) and not self.post_deck:
            raise S.bad("removed", "groups are removed only after the deck is exhausted, but "
                                   "post_deck is false")
        if self.passes_in_row >= n or (self.passes_in_row and not self.post_deck):
            raise S.bad("passes_in_row", f"expected 0 to {n - 1}, and 0 while the deck lasts "
                                         f"(a turn is passed only after it), got "
                                         f"{self.passes_in_row}")
        if self.proposed and phase == TAKE:
            raise S.bad("proposed", "true in the take phase (a proposal is made after the "
                                    "card is taken)")
        if phase == ANSWER and self.cards_in_play() > r.options.end_proposal_max_cards:
            raise S.bad("phase", f"answer, but {self.cards_in_play()} cards are in play: an "
                                 f"end may be proposed only with "
                                 f"{r.options.end_proposal_max_cards} or fewer")
        if phase == ACT and self.incoming[p] >= 0:
            raise S.bad(f"incoming[{p}]", "a card passed to the player to move is picked up "
                                          "before anything else (the take phase)")
        if phase == TAKE and not self.stock and not self.post_deck:
            raise S.bad("post_deck", "false at the start of a turn with the deck exhausted")
        if self.positions and not self.post_deck:
            raise S.bad("positions", "positions are counted only after the deck is exhausted "
                                     "(SH-10), but post_deck is false")
        for key, count in self.positions.items():
            if count >= limit:
                raise S.bad(f"positions.{key}", f"seen {count} times: the game ends at the "
                                                f"{limit}th occurrence (SH-10)")
        if phase == TAKE and self.post_deck and self.position_key() not in self.positions:
            raise S.bad("positions", "the position at the start of this turn is not counted "
                                     "(SH-10)")
        if not self._cached_legal():
            raise S.bad("phase", f"{phase}, but seat {p} would have no legal action: no game "
                                 "reaches such a position")
