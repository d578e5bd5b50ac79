"""Differential play of meldkit's ``gin_rummy`` against OpenSpiel's ``gin_rummy``.

One hand is played **in lockstep** in both engines from the identical deal: at every
decision the legal moves of the two must correspond one to one (each OpenSpiel action
translates to exactly one meldkit notation and back), the policy's choice is applied to
both, and when the hand ends the two must agree on how it ended and on its score
(OpenSpiel's ``Returns()`` against meldkit's ``hand_results[0].net``).

Needs the optional ``openspiel`` extra (``pip install "meldkit[openspiel]"``); this module
imports ``pyspiel`` only when a hand is played, so it can be imported (and its card and
action translations used) without it. ``import meldkit`` never imports this module.

The translation of cards and actions is pure:

>>> card_code(0), card_code(13), card_code(35), card_code(51)
('AS', 'AC', '10D', 'KH')
>>> card_index("10D")
35
>>> meld_notation(0)            # OpenSpiel's meld 0 is the three aces without the spade
'meld AC AD AH'
>>> to_notation("knock", 56 + 65)   # the first run: ace, two, three of spades
'meld AS 2S 3S'
>>> to_notation("layoff", card_index("9H"))
'add 9H'
>>> to_openspiel("draw", "take"), to_openspiel("knock", "done")
(52, 54)

Playing hands (with ``open_spiel`` installed)::

    from meldkit.testing_openspiel import play_hand, run_hands
    record = play_hand(7)          # one hand, the policies drawn from the seed
    assert record.difference is None, record.repro()
    summary = run_hands(2000)      # seeds 0..1999; summary.endings counts each ending
    print(summary.line())
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

__all__ = [
    "ENDINGS",
    "card_code",
    "card_index",
    "meld_notation",
    "openspiel_min_deadwood",
    "to_notation",
    "to_openspiel",
    "notation_key",
    "uniform_random",
    "Greedy",
    "POLICY_MIXES",
    "Scripted",
    "policies_for_hand",
    "HandRecord",
    "Summary",
    "play_hand",
    "run_hands",
]

#: The kinds of hand ending, as meldkit's ``HandResult.ended_by`` names them.
ENDINGS = ("knock", "gin", "undercut", "wall", "limit")

# --------------------------------------------------------------------------- cards
# OpenSpiel numbers a card suit * 13 + rank with the suits in the order s, c, d, h and the
# ranks A 2 ... 9 T J Q K; meldkit writes "AS", "10D", "KH".
_OS_SUITS = "SCDH"
_RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
_CODES = tuple(rank + suit for suit in _OS_SUITS for rank in _RANKS)
_INDEX = {code: i for i, code in enumerate(_CODES)}
_MELDKIT_SUIT_ORDER = {"C": 0, "D": 1, "H": 2, "S": 3}

N_CARDS = 52
DRAW_UPCARD, DRAW_STOCK, PASS, KNOCK, MELD_BASE = 52, 53, 54, 55, 56


def card_code(card: int) -> str:
    """meldkit's code of OpenSpiel card number ``card`` (0–51).

    >>> card_code(9)
    '10S'
    """
    if not 0 <= card < N_CARDS:
        raise ValueError(f"OpenSpiel card number must be 0-51 (got {card!r})")
    return _CODES[card]


def card_index(code: str) -> int:
    """OpenSpiel's number of the card with meldkit code ``code``.

    >>> card_index("AS"), card_index("KH")
    (0, 51)
    """
    try:
        return _INDEX[code.upper()]
    except (KeyError, AttributeError):
        raise ValueError(f"not a card code of the 52-card deck: {code!r} (expected e.g. "
                         f"'AS', '10D', 'KH')") from None


# --------------------------------------------------------------------------- melds
def _meld_table() -> tuple[tuple[int, ...], ...]:
    """OpenSpiel's 185 melds by id (``GinRummyUtils::MeldToInt``): 65 sets (per rank, the
    four 3-card sets ordered by the missing suit, then the 4-card set), then the runs of 3,
    4 and 5 cards, each by suit (s c d h) then by lowest rank."""
    melds: list[tuple[int, ...]] = []
    for rank in range(13):
        for missing in range(4):
            melds.append(tuple(s * 13 + rank for s in range(4) if s != missing))
        melds.append(tuple(s * 13 + rank for s in range(4)))
    for length in (3, 4, 5):
        for suit in range(4):
            for low in range(13 - length + 1):
                melds.append(tuple(suit * 13 + low + k for k in range(length)))
    return tuple(melds)


MELDS = _meld_table()


def _canonical(cards: Sequence[int]) -> list[str]:
    """Cards in meldkit's canonical meld order: a set by suit C D H S, a run low to high."""
    if len({c % 13 for c in cards}) == 1:
        return sorted((card_code(c) for c in cards), key=lambda code: _MELDKIT_SUIT_ORDER[code[-1]])
    return [card_code(c) for c in sorted(cards)]


_MELD_TEXT = tuple("meld " + " ".join(_canonical(m)) for m in MELDS)
_MELD_ID = {text: i for i, text in enumerate(_MELD_TEXT)}


def meld_notation(meld_id: int) -> str:
    """meldkit's notation for laying OpenSpiel meld ``meld_id`` (0–184).

    >>> meld_notation(64), meld_notation(184)
    ('meld KC KD KH KS', 'meld 9H 10H JH QH KH')
    """
    if not 0 <= meld_id < len(MELDS):
        raise ValueError(f"OpenSpiel meld id must be 0-{len(MELDS) - 1} (got {meld_id!r})")
    return _MELD_TEXT[meld_id]


# --------------------------------------------------------------------------- actions
_PHASES = ("deal", "first_upcard", "draw", "discard", "knock", "layoff", "wall", "game_over")


def _phase_name(state: Any) -> str:
    return _PHASES[int(state.current_phase())]


def to_notation(phase: str, action: int) -> str:
    """The meldkit notation key of OpenSpiel ``action`` in OpenSpiel phase ``phase``
    (one of ``first_upcard draw discard knock layoff wall``).

    A lay-off is keyed ``add <card>`` without its target meld: OpenSpiel names only the
    card, and meldkit lists one lay-off per card (see :func:`notation_key`).

    >>> to_notation("first_upcard", 54), to_notation("layoff", 54), to_notation("discard", 55)
    ('pass', 'done', 'knock')
    """
    if 0 <= action < N_CARDS:
        if phase in ("discard", "knock"):
            return "discard " + _CODES[action]
        if phase == "layoff":
            return "add " + _CODES[action]
    elif action == DRAW_UPCARD and phase in ("first_upcard", "draw"):
        return "take"
    elif action == DRAW_STOCK and phase in ("first_upcard", "draw"):
        return "draw"
    elif action == PASS:
        if phase in ("first_upcard", "wall"):
            return "pass"
        if phase in ("knock", "layoff"):
            return "done"
    elif action == KNOCK and phase in ("discard", "wall"):
        return "knock"
    elif MELD_BASE <= action < MELD_BASE + len(MELDS) and phase in ("knock", "layoff"):
        return _MELD_TEXT[action - MELD_BASE]
    raise ValueError(f"OpenSpiel action {action} has no meldkit notation in phase {phase!r}")


def notation_key(text: str) -> str:
    """The key of a meldkit notation that :func:`to_notation` produces: the text itself,
    except that ``add 9H to m2`` is keyed ``add 9H`` and a meld's cards are put in the
    canonical order (a set by suit C D H S, a run low to high).

    >>> notation_key("add 9H to m2"), notation_key("discard 9H")
    ('add 9H', 'discard 9H')
    >>> notation_key("meld 8S 8D 8H")
    'meld 8D 8H 8S'
    """
    if text.startswith("add ") and " to " in text:
        return text[: text.index(" to ")]
    if text.startswith("meld ") and text not in _MELD_ID:
        codes = text.split()[1:]
        if all(code in _INDEX for code in codes):
            return "meld " + " ".join(_canonical([_INDEX[code] for code in codes]))
    return text


def to_openspiel(phase: str, text: str) -> int:
    """The OpenSpiel action of meldkit notation ``text`` in OpenSpiel phase ``phase``.

    >>> to_openspiel("discard", "discard 10D"), to_openspiel("layoff", "add 9H to m1")
    (35, 47)
    >>> to_openspiel("layoff", "meld 7H 8H 9H") - 56     # OpenSpiel's meld id
    104
    """
    key = notation_key(text)
    verb, _, rest = key.partition(" ")
    if key == "take" and phase in ("first_upcard", "draw"):
        return DRAW_UPCARD
    if key == "draw" and phase in ("first_upcard", "draw"):
        return DRAW_STOCK
    if key == "pass" and phase in ("first_upcard", "wall"):
        return PASS
    if key == "done" and phase in ("knock", "layoff"):
        return PASS
    if key == "knock" and phase in ("discard", "wall"):
        return KNOCK
    if verb == "discard" and phase in ("discard", "knock") and rest in _INDEX:
        return _INDEX[rest]
    if verb == "add" and phase == "layoff" and rest in _INDEX:
        return _INDEX[rest]
    if verb == "meld" and phase in ("knock", "layoff") and key in _MELD_ID:
        return MELD_BASE + _MELD_ID[key]
    raise ValueError(f"meldkit notation {text!r} has no OpenSpiel action in phase {phase!r}")


# --------------------------------------------------------------------------- OpenSpiel's deadwood
def _value(card: int) -> int:
    return min(10, card % 13 + 1)


def _openspiel_melds(cards: list[int]) -> list[tuple[int, ...]]:
    """``GinRummyUtils::AllMelds`` in its order: sets (by rank, the 4-card set and two of its
    3-card subsets where four of a rank stand, then every run of three by rank), then runs
    of 5, 4 and 3 cards."""
    melds: list[tuple[int, ...]] = []
    by_rank = sorted(cards, key=lambda c: (c % 13, c))
    n = len(by_rank)
    for i in range(n - 3):
        if by_rank[i] % 13 == by_rank[i + 3] % 13:
            a, b, c, d = by_rank[i:i + 4]
            melds += [(a, b, c, d), (a, b, d), (a, c, d)]
    for i in range(n - 2):
        if by_rank[i] % 13 == by_rank[i + 2] % 13:
            melds.append(tuple(by_rank[i:i + 3]))
    by_suit = sorted(cards)
    for length in (5, 4, 3):
        for i in range(n - length + 1):
            first, last = by_suit[i], by_suit[i + length - 1]
            if last - first == length - 1 and first // 13 == last // 13:
                melds.append(tuple(by_suit[i:i + length]))
    return melds


def openspiel_min_deadwood(cards: Sequence[int]) -> int:
    """OpenSpiel's deadwood figure (``GinRummyUtils::MinDeadwood``) for OpenSpiel card
    numbers ``cards``, as its gin_rummy decides whether a knock is legal.

    For 10 cards it is the least deadwood. For 11 cards it is **not** always the least
    deadwood after the best discard: OpenSpiel takes the first arrangement of melds, in its
    enumeration order, of greatest melded value, and drops the highest-ranked card left
    over. Here, the least after discarding 3S is 10, OpenSpiel's figure is 11:

    >>> hand = [card_index(c) for c in "3S 5C 5D 5H 6C 6H 7C 7D 7H AH AS".split()]
    >>> openspiel_min_deadwood(hand)
    11
    >>> min(openspiel_min_deadwood([c for c in hand if c != d]) for d in hand)
    10
    """
    cards = list(cards)
    melds = _openspiel_melds(cards)
    best_value = 0
    best: tuple[tuple[int, ...], ...] = ()
    # AllMeldGroups: from each meld, depth first through the melds that do not overlap it
    # (kept in order), each maximal path a group; BestMeldGroup keeps the first of the
    # greatest value.
    path: list[tuple[int, ...]] = []

    def walk(meld: tuple[int, ...], pool: list[tuple[int, ...]]) -> None:
        nonlocal best_value, best
        path.append(meld)
        used = set(meld)
        children = [m for m in pool if used.isdisjoint(m)]
        if not children:
            value = sum(_value(c) for m in path for c in m)
            if value > best_value:
                best_value, best = value, tuple(path)
        else:
            for child in children:
                walk(child, children)
        path.pop()

    for meld in melds:
        walk(meld, melds)
    melded = {c for m in best for c in m}
    left = [c for c in cards if c not in melded]
    if len(cards) == 11 and left:
        left.remove(max(left, key=lambda c: (c % 13, c)))
    return sum(_value(c) for c in left)


# --------------------------------------------------------------------------- policies
# A policy maps (OpenSpiel state, its legal actions, a random.Random) to one legal action.
Policy = Callable[[Any, list[int], random.Random], int]

_UTILS: Any = None


def _utils() -> Any:
    """OpenSpiel's own gin rummy utilities (C++): deadwood and meld arithmetic."""
    global _UTILS
    if _UTILS is None:
        import pyspiel

        _UTILS = pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)
    return _UTILS


def uniform_random(state: Any, legal: list[int], rng: random.Random) -> int:
    """Any legal action, uniformly at random (rarely knocks: most such hands end at the
    wall or at a limit)."""
    return legal[rng.randrange(len(legal))]


uniform_random.name = "random"  # type: ignore[attr-defined]


@dataclass(frozen=True)
class Greedy:
    """Plays on deadwood: takes an upcard when it lowers the hand's least deadwood,
    discards the card that leaves the least deadwood, knocks per ``knock``; the knocker
    lays the melds of its best arrangement (or, with ``lazy`` chance, stops as soon as the
    rest is under the knock card); the defender lays off with chance ``lay_off`` per card,
    then lays the melds of its best arrangement with chance ``lay_melds`` each.

    ``knock``: ``"asap"`` (as soon as legal), ``"gin"`` (only with no deadwood),
    ``"under:N"`` (when deadwood is at most N) or ``"never"``; ``wall``: at the wall, knock
    when deadwood is at most this (default: as ``knock``).
    """

    knock: str = "asap"
    lay_off: float = 1.0
    lay_melds: float = 1.0
    lazy: float = 0.0
    wall: int | None = None

    @property
    def name(self) -> str:
        extra = "" if (self.lay_off, self.lay_melds, self.lazy) == (1.0, 1.0, 0.0) else \
            f",off={self.lay_off},melds={self.lay_melds},lazy={self.lazy}"
        wall = "" if self.wall is None else f",wall={self.wall}"
        return f"greedy({self.knock}{extra}{wall})"

    def _knock_limit(self) -> int:
        if self.knock == "asap":
            return 10
        if self.knock == "gin":
            return 0
        if self.knock == "never":
            return -1
        return int(self.knock.split(":")[1])

    def __call__(self, state: Any, legal: list[int], rng: random.Random) -> int:
        u = _utils()
        phase = _phase_name(state)
        player = state.current_player()
        hand = state.hands()[player]
        if phase in ("first_upcard", "draw"):
            if DRAW_UPCARD not in legal:
                return DRAW_STOCK
            better = u.min_deadwood(hand + [state.upcard()]) < u.min_deadwood(hand)
            if better:
                return DRAW_UPCARD
            return DRAW_STOCK if DRAW_STOCK in legal else PASS
        if phase == "discard":
            if KNOCK in legal and state.deadwood()[player] <= self._knock_limit():
                return KNOCK
            return self._best_discard(u, hand, [a for a in legal if a < N_CARDS], rng)
        if phase == "wall":
            limit = self._knock_limit() if self.wall is None else self.wall
            if KNOCK in legal and u.min_deadwood(hand, state.upcard()) <= limit:
                return KNOCK
            return PASS
        if phase == "knock":
            if len(hand) == 11:
                return self._best_discard(u, hand, legal, rng)
            if PASS in legal and self.lazy and rng.random() < self.lazy:
                return PASS
            return self._lay_best_meld(u, hand, legal, rng)
        if phase == "layoff":
            if not state.finished_layoffs():
                cards = [a for a in legal if a < N_CARDS]
                if cards and rng.random() < self.lay_off:
                    return cards[rng.randrange(len(cards))]
                return PASS
            if rng.random() >= self.lay_melds:
                return PASS
            return self._lay_best_meld(u, hand, legal, rng)
        raise ValueError(f"no decision in phase {phase!r}")

    @staticmethod
    def _best_discard(u: Any, hand: list[int], cards: list[int], rng: random.Random) -> int:
        best: list[int] = []
        low = None
        for card in cards:
            rest = [c for c in hand if c != card]
            # least deadwood left; among equals, shed the highest card
            score = (u.min_deadwood(rest), -u.card_value(card))
            if low is None or score < low:
                low, best = score, [card]
            elif score == low:
                best.append(card)
        return best[rng.randrange(len(best))]

    @staticmethod
    def _lay_best_meld(u: Any, hand: list[int], legal: list[int], rng: random.Random) -> int:
        # the most valuable meld first, so that a lazy knocker may stop with a low one left
        for meld in sorted(u.best_meld_group(hand), key=lambda m: -u.total_card_value(m)):
            action = MELD_BASE + u.meld_to_int(meld)
            if action in legal:
                return action
        return PASS if PASS in legal else legal[rng.randrange(len(legal))]


#: Pairs of policies (player 0, player 1) with weights, mixed per hand so that every kind
#: of ending occurs: knocks, gins, undercuts (an early knocker against a patient
#: defender), the wall and the limits (mostly from random play).
POLICY_MIXES: tuple[tuple[float, Policy, Policy], ...] = (
    (0.12, uniform_random, uniform_random),
    (0.08, Greedy("asap", lay_off=0.5, lay_melds=0.7, lazy=0.5), uniform_random),
    (0.08, uniform_random, Greedy("asap", lay_off=0.5, lay_melds=0.7, lazy=0.5)),
    (0.20, Greedy("asap"), Greedy("asap")),
    (0.12, Greedy("asap"), Greedy("gin")),
    (0.12, Greedy("gin"), Greedy("asap")),
    (0.12, Greedy("gin"), Greedy("gin")),
    (0.04, Greedy("never", lay_off=0.8, wall=10), Greedy("never", wall=10)),
    (0.12, Greedy("under:5", lay_off=0.7, lazy=0.3), Greedy("under:3", lay_melds=0.8)),
)


class Scripted:
    """Plays the given moves, in meldkit notation, for both players in turn order, then
    returns None, which stops :func:`play_hand` there (to replay a finding).

    >>> script = Scripted(["pass", "take", "discard 7H"])
    >>> script.name
    'scripted(3 moves)'
    """

    def __init__(self, moves: Sequence[str]):
        self.moves = list(moves)
        self.next = 0

    @property
    def name(self) -> str:
        return f"scripted({len(self.moves)} moves)"

    def __call__(self, state: Any, legal: list[int], rng: random.Random) -> int | None:
        if self.next == len(self.moves):
            return None
        text = self.moves[self.next]
        self.next += 1
        action = to_openspiel(_phase_name(state), text)
        if action not in legal:
            raise ValueError(f"move {self.next} {text!r} is not legal in OpenSpiel here "
                             f"(legal: {[to_notation(_phase_name(state), a) for a in legal]})")
        return action


def policies_for_hand(rng: random.Random) -> tuple[Policy, Policy]:
    """Player 0's and player 1's policies for one hand, drawn from :data:`POLICY_MIXES`."""
    x = rng.random() * sum(w for w, _, _ in POLICY_MIXES)
    for weight, first, second in POLICY_MIXES:
        x -= weight
        if x < 0:
            return first, second
    return POLICY_MIXES[-1][1], POLICY_MIXES[-1][2]


# --------------------------------------------------------------------------- playing
@dataclass
class HandRecord:
    """One hand played in lockstep.

    ``ending`` is how it ended by OpenSpiel's state (knock, gin, undercut, wall, limit);
    ``difference`` is ``None`` when the engines agreed throughout, else the first
    disagreement, after which the hand was not played on. ``repro()`` prints the deal and
    the moves, enough to replay the hand in either engine.
    """

    seed: int
    deal: list[str]
    policies: tuple[str, str]
    actions: list[str] = field(default_factory=list)
    phases: list[str] = field(default_factory=list)
    #: rare situations met: ``"knock done, melds in hand"`` (the knocker stops while a
    #: meld is still legal), ``"layoff done, melds in hand"`` (the defender likewise)
    features: Counter = field(default_factory=Counter)
    decisions: int = 0
    ending: str | None = None
    #: for a ``limit`` ending: ``"pile takes"`` (OpenSpiel's 50th take of the upcard) or
    #: ``"returned card"`` (both players in a row discarded the card they had just taken)
    limit: str | None = None
    openspiel_returns: list[float] | None = None
    meldkit_net: list[float] | None = None
    meldkit_ended_by: str | None = None
    difference: str | None = None
    #: what differed: ``player``, ``phase``, ``legal moves``, ``duplicate move`` or
    #: ``translation`` followed by ``in <phase>``; ``hand end``, ``ending``, ``scores``,
    #: ``error`` or ``no end``
    kind: str | None = None

    def _differ(self, kind: str, text: str) -> HandRecord:
        self.kind, self.difference = kind, text
        return self

    def repro(self) -> str:
        """The deal (top first: 10 cards for player 0, 10 for player 1, the upcard, the
        stock) and the moves, in meldkit notation, with the disagreement."""
        moves = "\n".join(f"  {i + 1:>3}. {phase:<12} {a}"
                          for i, (phase, a) in enumerate(zip(self.phases, self.actions)))
        return (f"seed {self.seed}, policies {self.policies[0]} vs {self.policies[1]}\n"
                f"deck_order = {self.deal!r}\n"
                f"  player 0: {' '.join(self.deal[:10])}\n"
                f"  player 1: {' '.join(self.deal[10:20])}\n"
                f"  upcard:   {self.deal[20]}; stock from the top: {' '.join(self.deal[21:])}\n"
                f"moves (OpenSpiel phase, then the move in meldkit notation; player 0 "
                f"moves first):\n{moves}\n"
                f"difference: {self.difference}")


_OS_INITIAL: dict[tuple, Any] = {}


def _openspiel_initial_state(params: dict[str, Any] | None) -> Any:
    """A fresh OpenSpiel gin_rummy state: a clone of one pristine state per parameter set
    (a new state rebuilds the meld tables, about 3 ms; a clone copies them)."""
    key = tuple(sorted((params or {}).items()))
    if key not in _OS_INITIAL:
        try:
            import pyspiel
        except ImportError as exc:  # pragma: no cover - depends on the environment
            raise ImportError("the OpenSpiel differential needs open_spiel: "
                              "pip install 'meldkit[openspiel]'") from exc
        _OS_INITIAL[key] = pyspiel.load_game("gin_rummy", dict(key)).new_initial_state()
    return _OS_INITIAL[key].clone()


def _openspiel_ending(state: Any, last_phase: str, last_action: int) -> str:
    knocked = state.knocked()
    if not any(knocked):
        return "wall" if (last_phase == "wall" and last_action == PASS) else "limit"
    knocker = 0 if knocked[0] else 1
    if state.deadwood()[knocker] == 0:
        return "gin"
    return "undercut" if state.returns()[knocker] < 0 else "knock"


def _meldkit_hand_over(game: Any) -> bool:
    return bool(game.hand_results) or game.is_over


def play_hand(seed: int, policies: tuple[Policy, Policy] | None = None, *,
              meldkit: bool = True, pack: Any = "gin_rummy",
              openspiel_params: dict[str, Any] | None = None,
              deal: Sequence[str] | None = None,
              max_decisions: int = 1000) -> HandRecord:
    """Play one hand from the deal shuffled by ``seed`` in OpenSpiel and, with ``meldkit``
    (the default), in meldkit in lockstep; ``policies`` default to a pair drawn from
    :data:`POLICY_MIXES` by the seed (a policy that returns None stops the hand there).
    ``pack`` (a name or a loaded pack) is the meldkit side, ``openspiel_params`` the
    OpenSpiel game's parameters (``{"oklahoma": True}`` pairs with ``oklahoma_gin``);
    ``deal`` is a deck order (card codes, top first: ten cards for player 0, ten for
    player 1, the upcard, the stock) instead of the seed's shuffle — a short one is
    completed with the other cards in OpenSpiel's order. Returns the :class:`HandRecord`."""
    rng = random.Random(seed)
    deck = list(range(N_CARDS))
    rng.shuffle(deck)
    if deal is not None:
        stacked = [card_index(code) for code in deal]
        if len(set(stacked)) != len(stacked):
            raise ValueError(f"the deal names a card twice: {list(deal)!r}")
        deck = stacked + [c for c in range(N_CARDS) if c not in set(stacked)]
    if policies is None:
        policies = policies_for_hand(rng)
    names = tuple(getattr(p, "name", getattr(p, "__name__", "?")) for p in policies)
    record = HandRecord(seed, [_CODES[c] for c in deck], names)  # type: ignore[arg-type]

    state = _openspiel_initial_state(openspiel_params)
    next_card = 0
    game = None
    if meldkit:
        import meldkit as mk

        game = mk.new_game(pack, players=2, seed=seed, options={"first_player": 0},
                           deck_order=record.deal)
    last_phase, last_action = "deal", -1
    while True:
        while state.is_chance_node():
            state.apply_action(deck[next_card])
            next_card += 1
        if state.is_terminal():
            break
        if record.decisions >= max_decisions:
            return record._differ("no end", f"no end after {max_decisions} decisions")
        phase = _phase_name(state)
        player = state.current_player()
        legal = state.legal_actions()
        chosen = policies[player](state, legal, rng)
        if chosen is None:
            return record
        text = to_notation(phase, chosen)
        if game is not None:
            where = f"at decision {record.decisions + 1} ({phase}, player {player}): "
            try:
                kind, problem, action = _compare_decision(game, phase, player, legal, text)
                if kind is None:
                    game.apply(action)
            except Exception as exc:  # noqa: BLE001 - any meldkit failure is a finding
                return record._differ("error", f"{where}meldkit raised {exc!r}")
            if kind is not None:
                return record._differ(f"{kind} in {phase}", where + problem)
            text = str(action)
        record.actions.append(text)
        record.phases.append(phase)
        if chosen == PASS and phase in ("knock", "layoff") and legal[-1] >= MELD_BASE:
            record.features[f"{phase} done, melds in hand"] += 1
        record.decisions += 1
        state.apply_action(chosen)
        last_phase, last_action = phase, chosen
        if game is not None and not state.is_terminal() and _meldkit_hand_over(game):
            return record._differ("hand end", (
                f"after decision {record.decisions} ({text!r}) meldkit's hand ended "
                f"({game.hand_results[-1].ended_by}) but OpenSpiel's goes on in phase "
                f"{_phase_name(state)}"))

    record.ending = _openspiel_ending(state, last_phase, last_action)
    if record.ending == "limit":
        record.limit = "pile takes" if last_action == DRAW_UPCARD else "returned card"
    record.openspiel_returns = list(state.returns())
    if game is not None:
        if not _meldkit_hand_over(game):
            return record._differ("hand end", (
                f"OpenSpiel's hand ended ({record.ending}) but meldkit's goes on in phase "
                f"{game.phase!r}, player {game.current_player}"))
        try:
            result = game.hand_results[0]
            record.meldkit_ended_by = result.ended_by
            record.meldkit_net = [float(x) for x in result.net]
        except Exception as exc:  # noqa: BLE001 - any meldkit failure is a finding
            return record._differ("error", f"reading meldkit's hand result raised {exc!r}")
        if record.meldkit_ended_by != record.ending:
            return record._differ("ending", f"ending: OpenSpiel {record.ending}, meldkit "
                                            f"{record.meldkit_ended_by}")
        if record.meldkit_net != record.openspiel_returns:
            return record._differ("scores", f"scores ({record.ending}): OpenSpiel "
                                            f"{record.openspiel_returns}, meldkit "
                                            f"{record.meldkit_net}")
    return record


def _compare_decision(game: Any, phase: str, player: int, legal: list[int],
                      chosen: str) -> tuple[str | None, str, Any]:
    """``(None, "", action)`` with the meldkit action matching ``chosen`` when the decision
    corresponds (same player, matching phase, legal moves one to one), else the kind of
    difference and a description."""
    if game.current_player != player:
        return "player", (f"OpenSpiel's player {player} to act, meldkit's "
                          f"{game.current_player} (meldkit phase {game.phase!r})"), None
    if game.phase != phase and not (phase == "first_upcard" and legal == [DRAW_STOCK]
                                    and game.phase == "draw"):
        return "phase", f"OpenSpiel phase {phase!r}, meldkit phase {game.phase!r}", None
    ours = {}
    for action in game.legal_actions():
        key = notation_key(str(action))
        if key in ours:
            return "duplicate move", (f"meldkit lists two moves keyed {key!r}: {ours[key]} "
                                      f"and {action}"), None
        ours[key] = action
    theirs = {to_notation(phase, a): a for a in legal}
    if ours.keys() != theirs.keys():
        only_os = sorted(set(theirs) - set(ours))
        only_mk = sorted(set(ours) - set(theirs))
        return "legal moves", (f"legal moves differ: only OpenSpiel {only_os}, only meldkit "
                               f"{[str(ours[k]) for k in only_mk]} (both "
                               f"{len(set(ours) & set(theirs))})"), None
    for key, action in ours.items():  # the translation back must land on the same action
        if to_openspiel(phase, str(action)) != theirs[key]:
            return "translation", (f"{action} translates to "
                                   f"{to_openspiel(phase, str(action))}, not {theirs[key]}"), None
    return None, "", ours[chosen]


@dataclass
class Summary:
    """Hands played by :func:`run_hands`: the count of each ending and every hand that
    differed."""

    hands: int = 0
    decisions: int = 0
    endings: Counter = field(default_factory=Counter)
    #: moves played, by OpenSpiel phase and verb: ``"layoff add"``, ``"wall knock"`` ...,
    #: and the rare situations of :attr:`HandRecord.features`
    moves: Counter = field(default_factory=Counter)
    #: ``limit`` endings by reason (see :attr:`HandRecord.limit`)
    limits: Counter = field(default_factory=Counter)
    differences: list[HandRecord] = field(default_factory=list)

    def line(self) -> str:
        """One line: hands, decisions, each ending's count, differences."""
        counts = ", ".join(f"{k} {self.endings.get(k, 0):,}" for k in ENDINGS)
        return (f"{self.hands:,} hands, {self.decisions:,} decisions; {counts}; "
                f"{len(self.differences)} differing")


def run_hands(hands: int, first_seed: int = 0, *, meldkit: bool = True,
              pack: Any = "gin_rummy", openspiel_params: dict[str, Any] | None = None,
              progress: Callable[[Summary], None] | None = None,
              every: int = 1000,
              on_difference: Callable[[HandRecord], None] | None = None) -> Summary:
    """Play hands with seeds ``first_seed, first_seed + 1, ...`` (see :func:`play_hand`);
    ``progress`` is called with the running summary every ``every`` hands, and
    ``on_difference`` with each hand that differs, as it is found."""
    summary = Summary()
    for seed in range(first_seed, first_seed + hands):
        record = play_hand(seed, meldkit=meldkit, pack=pack, openspiel_params=openspiel_params)
        summary.hands += 1
        summary.decisions += record.decisions
        summary.moves.update(f"{phase} {text.split()[0]}"
                             for phase, text in zip(record.phases, record.actions))
        summary.moves.update(record.features)
        if record.difference is not None:
            summary.differences.append(record)
            if on_difference is not None:
                on_difference(record)
        else:
            summary.endings[record.ending] += 1
            if record.limit:
                summary.limits[record.limit] += 1
        if progress is not None and summary.hands % every == 0:
            progress(summary)
    return summary
