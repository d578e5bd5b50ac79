"""Bots that choose actions: the interface, a random bot and a greedy bot.

A bot is any object with ``choose(state) -> Action`` for the state's current player.
:func:`make_bot` builds the bots the command line knows (:data:`BOTS`) by name.

>>> import meldkit
>>> from meldkit.bots import RandomBot, make_bot
>>> g = meldkit.new_game("pony_tail", players=4, seed=2)
>>> bot = RandomBot(seed=5)
>>> a = bot.choose(g)
>>> a in g.legal_actions()
True
>>> make_bot("greedy").choose(g) in g.legal_actions()
True
"""

from __future__ import annotations

import importlib

import random
from typing import Any, Protocol

from ._actions import (
    ADD,
    DISCARD,
    DRAW,
    END,
    EXTEND,
    MELD,
    PICKUP,
    RUN,
    TAKE,
    WITHDRAW,
    Action,
    seq_target_parts,
)
from ._cards import (
    JOKER_KIND,
    N_KINDS,
    RANKS,
    kind_of_code,
    kinds_matching,
    rank_index,
    rank_of_kind,
)
from ._checks import check
from ._errors import MeldkitError, StuckGameError

_MELDING = frozenset({MELD, ADD, RUN, EXTEND, TAKE, PICKUP})
_LAYING = frozenset({MELD, ADD, RUN, EXTEND})
"""Actions that lay cards from the hand onto the table."""
_SEQUENCE = frozenset({RUN, EXTEND})
_WILD_SLOT = len(RANKS)  # the slot of a wild meld (``add 2 to wild``)


class Bot(Protocol):
    """Chooses the current player's next action."""

    def choose(self, state) -> Action:
        """An action from ``state.legal_actions()``."""
        ...


class RandomBot:
    """Plays a uniformly random legal action — but melds, lays off, takes the pile or picks
    up its reserve whenever it can (``meld_first``), so that hands make progress."""

    name = "random"

    def __init__(self, seed: int | None = None, meld_first: bool = True):
        check("RandomBot", "meld_first", meld_first, "bool")
        self.rng = random.Random(seed)
        self.meld_first = meld_first

    def choose(self, state) -> Action:
        """A random legal action, melding first."""
        actions = state.legal_actions()
        if self.meld_first:
            model = getattr(state, "model", None)  # the kernel's meld model, else the engine
            kinds = getattr(model if model is not None else state, "PROGRESS_TYPES", _MELDING)
            melding = [a for a in actions if a.type in kinds]
            if melding:
                return self.rng.choice(melding)
        return self.rng.choice(actions)


# --------------------------------------------------------------------------- greedy


def pack_of(state):
    """The :class:`~meldkit.RulePack` a game is played with."""
    pack = getattr(state, "pack", None)
    return pack if pack is not None else state.rules.pack


class _Tables:
    """What the greedy bot needs to know about a pack's cards, read from ``pack.spec``."""

    def __init__(self, spec) -> None:
        def kinds(selectors) -> frozenset[int]:
            out: set[int] = set()
            for s in selectors or ():
                out |= kinds_matching(s)
            return frozenset(out)

        cards = spec.cards
        self.wild_ranks = frozenset(rank_of_kind(k) for k in kinds(cards.wild))
        self.dead = kinds(cards.dead)
        self.blocks = kinds(spec.pile.blocked_by)
        self.freezes = kinds(spec.pile.freezes_on)
        unmeldable = {rank_of_kind(k) for k in kinds(cards.unmeldable)}
        self.natural = frozenset(r for r in range(len(RANKS))
                                 if r not in self.wild_ranks and r not in unmeldable)
        self.value = [0] * N_KINDS
        for table in (cards.values,):
            for sel in sorted(table, key=lambda s: s.upper() not in RANKS):
                for k in kinds_matching(sel):
                    self.value[k] = table[sel]
        self.book_size = spec.books.size
        self.book_kinds = list(spec.books.kinds)
        seq = spec.melds.sequences
        self.seq_ranks = tuple(rank_index(r) for r in seq.ranks) if seq else ()
        self.seq_book = next((k for k in spec.books.kinds if k.sequence), None)
        self.wild_melds = spec.melds.wild_melds
        self.wild_book = any(k.wild_only for k in spec.books.kinds) and spec.melds.wild_melds

        self.required = frozenset(spec.going_out.required_books)
        wild_books = [k.value for k in spec.books.kinds if k.wild_only]
        # what a wild card is worth kept for a wild book: its share of the book
        self.wild_cost = max(wild_books) / self.book_size if self.wild_book and wild_books else 0.0

    def book_kind(self, slot: int, n_wild: int):
        """The kind of a book of ``slot`` with ``n_wild`` wild cards (the first kind that
        matches, as the kernel scores it), or None."""
        for k in self.book_kinds:
            if k.wild_only:
                if slot == _WILD_SLOT:
                    return k
                continue
            if slot == _WILD_SLOT:
                continue
            if k.ranks is not None and RANKS[slot] not in [str(r).upper() for r in k.ranks]:
                continue
            if n_wild < k.min_wilds or (k.max_wilds is not None and n_wild > k.max_wilds):
                continue
            return k
        return None


_TABLES: dict[str, _Tables] = {}


def _tables(state) -> _Tables:
    pack = pack_of(state).for_deal(getattr(state, "hand_number", 0))  # a schedule's deal's
    t = _TABLES.get(pack.digest)
    if t is None:
        t = _TABLES[pack.digest] = _Tables(pack.spec)
    return t


_CODES: dict[str, tuple[int, int]] = {}


def _kind_rank(code: str) -> tuple[int, int]:
    """``(kind, rank)`` of a card code (cached: views repeat the same few codes)."""
    kr = _CODES.get(code)
    if kr is None:
        k = kind_of_code(code)
        kr = _CODES[code] = (k, rank_of_kind(k))
    return kr


def _rank_of_code(code: str) -> int:
    return _kind_rank(code)[1]


class _Seen:
    """One decision's reading of ``state.view(player)``: the hand by rank and the melds."""

    def __init__(self, state, tables: _Tables) -> None:
        p = state.current_player
        v: dict[str, Any] = state.view(p)
        self.player = p
        self.view = v
        formed = v.get("formed_sides")  # players.sides_form: the side it plays with now
        self.team = v["team"] if formed is None else formed[p]
        self.hand: dict[int, list[int]] = {}  # rank -> kinds held
        for code in v["hand"]:
            k, r = _kind_rank(code)
            self.hand.setdefault(r, []).append(k)
        self.hand_size = len(v["hand"])
        team = v["teams"][self.team]
        self.melded = team["melded"]
        self.open: dict[int, tuple[int, int]] = {}  # slot -> (size, wilds) of open melds
        self.books = 0
        self.book_kinds: set[str] = set()
        self.run_ends: set[int] = set()  # kinds that would extend one of our open sequences
        for m in team["melds"]:
            n = len(m["cards"])
            if m["rank"] == "run":
                if n >= tables.book_size:
                    self.books += 1
                    if m.get("book"):
                        self.book_kinds.add(m["book"])
                if not m["closed"]:
                    self.run_ends |= _run_ends(m["cards"], tables.seq_ranks)
                continue
            slot = _WILD_SLOT if m["rank"] == "wild" else RANKS.index(m["rank"])
            if n >= tables.book_size:
                self.books += 1
                if m.get("book"):
                    self.book_kinds.add(m["book"])
            if not m["closed"]:
                w = sum(1 for c in m["cards"] if _rank_of_code(c) in tables.wild_ranks)
                self.open[slot] = (n, w)
        self.pending = any(m["pending"] for m in team["melds"])
        self.opponent_ranks: set[int] = set()
        for t in v["teams"]:
            if t["team"] != self.team:
                for m in t["melds"]:
                    if m["rank"] not in ("wild", "run"):
                        self.opponent_ranks.add(RANKS.index(m["rank"]))
        self.stock = v["stock_size"]
        self.pile_size = v["pile"]["size"]


class GreedyBot:
    """Plays for points, one decision at a time, by simple rules:

    * picks up its reserve as soon as it may;
    * takes the discard pile when it pays (``take_min`` or more cards, the top completes
      a book, or the stock is gone), never for an initial meld it could not complete, and
      with a natural pair rather than a wild card;
    * melds what it can, bigger melds and books first, keeping wild cards for the wild
      meld (where the pack has wild books) unless they complete a book;
    * goes out whenever it can (it looks ahead through the rest of its turn);
    * discards what helps the opponents least: a card that blocks the pile or is dead,
      then a single card of a rank the opponents have not melded — never a wild card or
      a card that freezes the pile unless nothing else is left.

    In table-meld games (rummy, gin) it plays the engine's greedy policy
    (:mod:`meldkit.kernel.policy`) and remembers what it has seen of the hand — the
    public discards and the stock turning over — to let dead cards go.  Where the cards
    laid score (Rummy 500) it takes deep in the discard pile when that moves points into
    melds (it never did: the random bot beat it 17 games in 20 at Rummy 500; it now wins
    73 of 100 each way against the random bot).

    Deterministic (``seed`` only seeds the random fallback it uses for engines whose view
    it does not read).
    """

    name = "greedy"

    def __init__(self, seed: int | None = None, take_min: int = 6, wild_cost: float | None = None,
                 need_bonus: float = 1000.0):
        check("GreedyBot", "take_min", take_min, "int", least=0)
        check("GreedyBot", "wild_cost", wild_cost, "float", least=0, optional=True)
        check("GreedyBot", "need_bonus", need_bonus, "float", least=0)
        self.seed = seed
        self._fallback = RandomBot(seed)
        self.take_min = take_min
        self.wild_cost = wild_cost
        self.need_bonus = need_bonus
        self._memory = None  # what this player has seen, for engines that keep it
        self._memory_for = None

    # ---------------------------------------------------------------- entry point
    def choose(self, state) -> Action:
        """The greedy choice for the current player."""
        actions = state.legal_actions()
        if len(actions) == 1:
            return actions[0]
        policy = getattr(state, "greedy_policy", None)
        if policy is not None:  # an engine with its own greedy policy (the table model)
            make_memory = getattr(state, "greedy_memory", None)
            if make_memory is None:
                return policy(state)
            if self._memory is None or self._memory_for is not type(state):
                self._memory, self._memory_for = make_memory(), type(state)
            return policy(state, self._memory)
        if hasattr(state, "removed") and hasattr(state, "groups"):  # Houses
            from .ai.houses_policy import houses_choice

            return houses_choice(state)
        try:
            tables = _tables(state)
            seen = _Seen(state, tables)
        except MeldkitError:
            raise  # (a plugin hook's failure, say: not a view this bot cannot read)
        except (KeyError, TypeError, ValueError, AttributeError):
            # an engine whose view this bot does not read (a plugin's own game): play randomly
            return self._fallback.choose(state)
        types = {a.type for a in actions}
        if types & {DRAW, END, PICKUP, TAKE} and not types & {MELD, ADD, DISCARD, RUN, EXTEND}:
            return self._draw_phase(state, actions, tables, seen)
        return self._play_phase(state, actions, tables, seen)

    # ---------------------------------------------------------------- draw phase
    def _draw_phase(self, state, actions, tables: _Tables, seen: _Seen) -> Action:
        by_type: dict[str, list[Action]] = {}
        for a in actions:
            by_type.setdefault(a.type, []).append(a)
        if PICKUP in by_type:
            return by_type[PICKUP][0]
        takes = by_type.get(TAKE, [])
        if takes:
            best = self._best_take(state, takes, tables, seen)
            if best is not None:
                return best
        for t in (DRAW, END):
            if t in by_type:
                return by_type[t][0]
        return actions[0]

    def _best_take(self, state, takes, tables: _Tables, seen: _Seen) -> Action | None:
        top = seen.view["pile"]["top"]
        top_rank = _rank_of_code(top) if top else None
        slot = _WILD_SLOT if top_rank in tables.wild_ranks else top_rank
        size, _ = seen.open.get(slot, (0, 0))
        completes = size < tables.book_size <= size + 3
        pays = seen.pile_size >= self.take_min or completes or seen.stock == 0
        if not pays:
            return None
        # fewest wild cards from the hand first
        order = sorted(takes, key=lambda a: sum(1 for r in a.cards if r in tables.wild_ranks))
        for a in order:
            if seen.melded:
                return a
            trial = state.clone()
            trial.apply(a)
            if _complete_initial(trial, self, tables):
                return a
        return None

    # ---------------------------------------------------------------- play phase
    def _play_phase(self, state, actions, tables: _Tables, seen: _Seen) -> Action:
        melds = [a for a in actions if a.type in _LAYING]
        discards = [a for a in actions if a.type == DISCARD]
        withdraw = next((a for a in actions if a.type == WITHDRAW), None)
        # going out this turn beats everything
        if seen.hand_size <= 6 and seen.melded:
            plan = _going_out_plan(state, tables)
            if plan is not None:
                return plan
        if seen.pending or not seen.melded:
            # an initial meld: only one that reaches the minimum
            if melds:
                ranked = sorted(melds, key=lambda a: -self._meld_score(a, tables, seen))
                for a in ranked[:6]:
                    trial = state.clone()
                    trial.apply(a)
                    if _complete_initial(trial, self, tables):
                        return a
            if withdraw is not None:
                return withdraw
        elif melds:
            best = max(melds, key=lambda a: self._meld_score(a, tables, seen))
            if self._meld_score(best, tables, seen) > 0:
                return best
        if discards:
            return min(discards, key=lambda a: self._discard_key(a, tables, seen))
        return withdraw or actions[0]

    def _meld_score(self, a: Action, tables: _Tables, seen: _Seen) -> float:
        """How good a meld or lay-off is: book value if it completes one, then cards moved
        out of the hand, less a cost for wild cards spent outside the wild meld."""
        if a.type in _SEQUENCE:
            return _run_score(a, tables)
        wild = [r for r in a.cards if r in tables.wild_ranks]
        naturals = [r for r in a.cards if r not in tables.wild_ranks]
        if a.type == ADD:
            slot = a.target
        else:
            slot = naturals[0] if naturals else _WILD_SLOT
        size, have_w = seen.open.get(slot, (0, 0))
        after = size + len(a.cards)
        n_wild = have_w + len(wild) if slot != _WILD_SLOT else after
        score = 10.0 * len(a.cards)
        for r in a.cards:
            kinds = seen.hand.get(r, [])
            if kinds:
                score += tables.value[kinds[-1]]
        if size < tables.book_size <= after:
            kind = tables.book_kind(slot, n_wild)
            score += 100 + (kind.value if kind else 0)
            needed = kind is not None and kind.name in tables.required
            if needed and kind.name not in seen.book_kinds:
                score += self.need_bonus
        if slot != _WILD_SLOT and wild and tables.wild_book:
            cost = tables.wild_cost if self.wild_cost is None else self.wild_cost
            score -= cost * len(wild)
        return score

    def _discard_key(self, a: Action, tables: _Tables, seen: _Seen) -> tuple:
        if tables.seq_ranks:  # the discard names a kind (its suit matters)
            k = a.cards[0]
            r = rank_of_kind(k)
            kinds = seen.hand.get(r, [])
            held = kinds.count(k)
        else:
            r = a.cards[0]
            kinds = seen.hand.get(r, [])
            k = kinds[-1] if kinds else JOKER_KIND
            held = len(kinds)
        if k in tables.blocks or k in tables.dead:
            return (0, 0, 0, 0)
        if r in tables.wild_ranks:
            return (9, 0, 0, -tables.value[k])
        if k in tables.freezes:
            return (8, held, 0, 0)
        if r not in tables.natural:
            return (1, 0, 0, 0)
        return (
            2,
            1 if r in seen.open or k in seen.run_ends else 0,  # keep what our melds can take
            1 if r in seen.opponent_ranks else 0,
            held,                              # singles before pairs
            -tables.value[k],                  # then the costliest to be caught with
        )


def _run_score(a: Action, tables: _Tables) -> float:
    """How good laying down or extending a suited sequence is: the cards it moves out of
    the hand and their values, and a samba's value when it completes one."""
    added = len(a.cards)
    before = 0
    if a.type == EXTEND:
        _, lo, hi = seq_target_parts(a.target)
        before = hi - lo + 1
    score = 10.0 * added + sum(tables.value[k] for k in a.cards)
    if before < tables.book_size <= before + added:
        score += 100 + (tables.seq_book.value if tables.seq_book else 0)
    return score


def _wilds_in(a: Action, tables: _Tables) -> int:
    """Wild cards an action lays (none in a suited sequence, whose cards are kinds)."""
    if a.type in _SEQUENCE:
        return 0
    return sum(r in tables.wild_ranks for r in a.cards)


def _run_ends(codes: list[str], seq_ranks: tuple[int, ...]) -> set[int]:
    """The kinds that continue a sequence (its cards as codes, lowest first) at either end."""
    lo_k, hi_k = kind_of_code(codes[0]), kind_of_code(codes[-1])
    suit = lo_k % 4
    lo, hi = seq_ranks.index(lo_k // 4), seq_ranks.index(hi_k // 4)
    return {seq_ranks[i] * 4 + suit for i in (lo - 1, hi + 1) if 0 <= i < len(seq_ranks)}


def _complete_initial(state, bot: GreedyBot, tables: _Tables, limit: int = 12) -> bool:
    """On ``state`` (a scratch copy, changed), meld greedily until the side's initial meld
    is committed; True if it is."""
    p = state.current_player
    for _ in range(limit):
        if p is None or state.current_player != p or state.phase != "play":
            return False
        seen = _Seen(state, tables)
        if seen.melded and not seen.pending:
            return True
        melds = [a for a in state.legal_actions() if a.type in _LAYING]
        if not melds:
            return False
        state.apply(max(melds, key=lambda a: bot._meld_score(a, tables, seen)))
    return False


def _going_out_plan(state, tables: _Tables) -> Action | None:
    """The first action of a sequence that ends the hand with the current player going
    out this turn (meld the biggest first, then discard the last card), or None."""
    p = state.current_player
    trial = state.clone()
    hands_before = len(trial.hand_results)
    first: Action | None = None
    for _ in range(20):
        actions = trial.legal_actions()
        melds = [a for a in actions if a.type in _LAYING]
        if melds:
            a = max(melds, key=lambda a: (len(a.cards), -_wilds_in(a, tables)))
        else:
            discards = [a for a in actions if a.type == DISCARD]
            if len(discards) != 1 or sum(1 for _ in _hand_codes(trial, p)) != 1:
                return None
            a = discards[0]
        first = first or a
        trial.apply(a)
        if len(trial.hand_results) > hands_before or trial.is_over:
            last = trial.hand_results[-1]
            return first if last.went_out == p else None
        if trial.current_player != p:
            return None
    return None


def _hand_codes(state, p: int) -> list[str]:
    return state.view(p)["hand"]


from .ai.ismcts import ISMCTSBot  # noqa: E402  (information-set MCTS, issue 13)


class _Bots(dict):
    """Bot classes by name; a ``"module:Class"`` value is imported when first looked up, so a
    bot built on this module's greedy play (:mod:`meldkit.pimc`) is registered here without
    an import cycle."""

    def __getitem__(self, name: str) -> type:
        value = super().__getitem__(name)
        if isinstance(value, str):
            module, _, attr = value.partition(":")
            value = getattr(importlib.import_module(module), attr)
            super().__setitem__(name, value)
        return value


BOTS: dict[str, type] = _Bots(random=RandomBot, greedy=GreedyBot, ismcts=ISMCTSBot,
                              pimc="meldkit.pimc:PIMCBot")
"""Bot classes by name, as the command line knows them."""


def make_bot(name: str, seed: int | None = None):
    """A bot by name (``random``, ``greedy``, ``ismcts``, ``pimc``)."""
    try:
        cls = BOTS[name]
    except KeyError:
        known = ", ".join(sorted(BOTS))
        raise ValueError(f"unknown bot {name!r} (expected one of {known})") from None
    return cls(seed=seed)


def bot_names(bots, caller: str, least: int = 1,
              too_few: str = "bots must name at least one bot") -> list[str]:
    """``bots`` as a list of bot names, each built once here so that an unknown one fails
    before any game (``ValueError``); a plain string, a name that is not a string or fewer
    than ``least`` names (``too_few`` says so) is a :class:`~meldkit.SetupError` naming
    ``caller``.

    >>> bot_names(("random", "greedy"), "simulate")
    ['random', 'greedy']
    """
    from ._errors import SetupError, quoted

    if isinstance(bots, (str, bytes)) or not hasattr(bots, "__iter__"):
        raise SetupError(f"{caller}: bots must be a list of bot names, e.g. ['random', "
                         f"'greedy'], not {quoted(bots)}")
    names = list(bots)
    for name in names:
        if not isinstance(name, str):
            raise SetupError(f"{caller}: bots must be a list of bot names, not "
                             f"{quoted(name)} in {quoted(names)}")
    for name in dict.fromkeys(names):
        make_bot(name)
    if len(names) < least:
        raise SetupError(f"{caller}: {too_few}, not {quoted(names)}")
    return names


def stuck_reason(state) -> str:
    """Why ``state`` cannot go on, in words."""
    return (f"no legal action for seat {state.current_player} in the {state.phase} phase of "
            f"hand {state.hand_number} (a dead end in the rules engine)")


def play_game(state, bots, max_actions: int = 1_000_000):
    """Play ``state`` to the end with one bot per seat; returns the state.  Raises
    :class:`~meldkit.StuckGameError` with code ``dead-end`` if the game reaches a position
    with no legal action, or ``action-limit`` if it has not ended after ``max_actions``
    actions (a pack whose games never end)."""
    n = 0
    while not state.is_over:
        if not state.legal_actions():
            raise StuckGameError("dead-end", stuck_reason(state))
        if n >= max_actions:
            raise StuckGameError(
                "action-limit",
                f"the game did not end within {max_actions} actions (hand "
                f"{state.hand_number}, scores {list(state.scores)}): the pack's games may "
                "never end, e.g. when no side can reach game.target")
        state.apply(bots[state.current_player].choose(state))
        n += 1
    return state
