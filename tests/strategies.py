"""Hypothesis strategies and play-out helpers for the conformance suite.

Every rule pack gets the invariants of DESIGN.md ("Invariants every pack gets for free")
checked by ``tests/test_properties.py``.  A pack joins by adding a row to
:data:`CONFORMANCE_TABLES`; nothing else here knows which game is played.

Play-outs are driven by *choices*: plain ints that :func:`pick` maps onto the legal
actions of the moment, so a play-out is a seed plus a list of ints — replayable, and
shrinkable by Hypothesis.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from hypothesis import strategies as st

import meldkit
from meldkit import Action, GameState


class Table(NamedTuple):
    """One row of the conformance matrix: a pack, a player count, and game options."""

    pack: str
    players: int
    options: dict | None = None


CONFORMANCE_TABLES: list[Table] = [
    Table("pony_tail", 4),
    Table("pony_tail", 5),
    Table("pony_tail", 6),
    Table("pony_canasta", 2),
    Table("pony_canasta", 4, {"partners": True}),
    Table("pony_canasta", 7),
    Table("pony_canasta", 16),
    Table("houses", 4),
    Table("classic_canasta", 2),
    Table("classic_canasta", 3),
    Table("classic_canasta", 4),
    Table("classic_canasta", 6),
    Table("hand_and_foot", 4),
    Table("samba", 4),
    Table("gin_rummy", 2),
    Table("oklahoma_gin", 2),
    Table("rummy", 2),
    Table("rummy", 3),
    Table("rummy", 4),
    Table("rummy", 5),
    Table("rummy", 6),
    *[Table("rummy_500", n) for n in range(2, 9)],
    Table("contract_rummy", 3),
    Table("contract_rummy", 4),
    Table("contract_rummy", 5),
    Table("contract_rummy", 6),
    Table("contract_rummy", 7),
    Table("contract_rummy", 8),
    Table("buraco", 4),
    Table("buraco", 2),
]
"""Every (pack, players[, options]) the conformance suite runs.  Add a row to add a game."""


def table_id(table: Table) -> str:
    """A readable pytest id: ``pony_tail-4p``."""
    opts = "".join(f"-{k}={v}" for k, v in sorted((table.options or {}).items()))
    return f"{table.pack}-{table.players}p{opts}"


MAX_ACTIONS_PER_HAND = 20_000
"""Random self-play must finish every hand in fewer actions than this (Houses' random hands
end by the third repetition of a position, SH-10: a median of about 700 actions, with a
long tail past 2,000)."""

PROGRESS_TYPES = frozenset({"meld", "add", "take", "pickup", "knock"})
"""Action types that move a game forward; :func:`pick` prefers them so play-outs reach
books, reserves, frozen piles, knocks (gin: uniformly random play almost never knocks, and
its hands end at the wall) and later hands."""

CHOICE_MAX = 2**16 - 1


# --------------------------------------------------------------------------- playing
def pick(state: GameState, choice: int) -> Action:
    """The legal action ``choice`` names: three times in four one of the progress actions
    (when there is one), else any legal action.  Deterministic in (state, choice)."""
    actions = state.legal_actions()
    if not actions:
        raise AssertionError(f"no legal action in a game that is not over: {state!r}")
    if choice % 4:
        progress = [a for a in actions if a.type in PROGRESS_TYPES]
        if progress:
            return progress[(choice // 4) % len(progress)]
    return actions[(choice // 4) % len(actions)]


Step = Callable[[GameState, Action], None]


def play(state: GameState, choices: Sequence[int], after: Step | None = None) -> int:
    """Apply :func:`pick` for each choice (stopping when the game ends); call
    ``after(state, action)`` after every action.  Returns the number of actions applied."""
    n = 0
    for choice in choices:
        if state.is_over:
            break
        a = pick(state, choice)
        state.apply(a)
        n += 1
        if after is not None:
            after(state, a)
    return n


def play_bot(state: GameState, rng: random.Random, steps: int, after: Step | None = None) -> int:
    """Random self-play for up to ``steps`` actions, with the same preferences as
    :func:`pick`.  Returns the number of actions applied."""
    n = 0
    while n < steps and not state.is_over:
        a = pick(state, rng.randrange(CHOICE_MAX + 1))
        state.apply(a)
        n += 1
        if after is not None:
            after(state, a)
    return n


def play_hands(state: GameState, rng: random.Random, hands: int,
               after: Step | None = None) -> list[int]:
    """Self-play until ``hands`` more hands have finished (or the game is over).

    Returns the number of actions each finished hand took (from where play began); fails
    if a hand runs to :data:`MAX_ACTIONS_PER_HAND` actions without ending.
    """
    lengths = []
    while len(lengths) < hands and not state.is_over:
        done = len(state.hand_results)
        n = 0
        while len(state.hand_results) == done:
            assert n < MAX_ACTIONS_PER_HAND, (
                f"hand {state.hand_number} did not end within {MAX_ACTIONS_PER_HAND} "
                f"actions of random self-play; last actions: {state.history[-12:]}"
            )
            a = pick(state, rng.randrange(CHOICE_MAX + 1))
            state.apply(a)
            n += 1
            if after is not None:
                after(state, a)
        lengths.append(n)
    return lengths


# --------------------------------------------------------------------------- starts
@dataclass(frozen=True)
class Start:
    """How to reach a starting position: a new game of ``table`` with ``seed`` (and
    ``first_player``), then ``warmup`` actions of random self-play seeded by ``seed``.

    The warm-up is unchecked; it only moves the start of a checked play-out into the
    middle of a hand or into a later hand.
    """

    table: Table
    seed: int
    first_player: int | None = None
    warmup: int = 0

    def new_game(self) -> GameState:
        options = dict(self.table.options or {})
        if self.first_player is not None:
            options["first_player"] = self.first_player
        return meldkit.new_game(self.table.pack, players=self.table.players, seed=self.seed,
                                options=options or None)

    def build(self) -> GameState:
        state = self.new_game()
        play_bot(state, random.Random(self.seed), self.warmup)
        return state


def seeds() -> st.SearchStrategy[int]:
    """Game seeds."""
    return st.integers(min_value=0, max_value=2**32 - 1)


def starts(table: Table, max_warmup: int = 700) -> st.SearchStrategy[Start]:
    """Starting positions: half are fresh deals, half lie up to ``max_warmup`` actions of
    self-play into the game."""
    return st.builds(
        Start,
        table=st.just(table),
        seed=seeds(),
        first_player=st.none() | st.integers(0, table.players - 1),
        warmup=st.just(0) | st.integers(0, max_warmup),
    )


@st.composite
def choice_lists(draw, max_size: int = 400, min_size: int = 0) -> list[int]:
    """A random legal play-out prefix, as choices for :func:`pick`.  The length is drawn
    first (uniformly), so long play-outs are as likely as short ones."""
    n = draw(st.integers(min_size, max_size))
    return draw(st.lists(st.integers(0, CHOICE_MAX), min_size=n, max_size=n))


class SeededRandom(random.Random):
    """A ``random.Random`` that shows its seed when Hypothesis prints an example."""

    def __init__(self, seed: int):
        super().__init__(seed)
        self.initial_seed = seed

    def __repr__(self) -> str:
        return f"SeededRandom({self.initial_seed})"


def bot_rngs() -> st.SearchStrategy[random.Random]:
    """Seeded random generators for self-play bots."""
    return seeds().map(SeededRandom)


# --------------------------------------------------------------------------- actions
ACTION_TYPES_NO_CARDS = ("draw", "pickup", "withdraw", "end")
N_RANK_CODES = 14  # A..K and JK
WILD_TARGET = 14  # "add … to wild"


def notation_actions(space) -> st.SearchStrategy[Action]:
    """Any action the notation can write, mostly illegal: every verb, random ranks
    (canonical order, as :meth:`ActionSpace.get` requires) and random ``add`` targets."""
    ranks = st.integers(0, N_RANK_CODES - 1)

    def cards(lo: int, hi: int):
        return st.lists(ranks, min_size=lo, max_size=hi).map(space.canonical)

    return st.one_of(
        st.sampled_from(ACTION_TYPES_NO_CARDS).map(space.get),
        cards(0, 3).map(lambda c: space.get("take", c)),
        cards(1, 8).map(lambda c: space.get("meld", c)),
        st.tuples(cards(1, 8), st.integers(0, WILD_TARGET)).map(
            lambda ct: space.get("add", ct[0], ct[1])),
        ranks.map(lambda r: space.get("discard", (r,))),
    )


BAD_NOTATION = st.sampled_from([
    "", "draw 9", "discard", "discard 9 9", "meld", "add 9 9", "add 9 to", "add to 9",
    "take 9 9 9 9", "discard 9H", "meld 1O 1O 1O", "fold", "pickup 3", "end now", "add 2 to",
]) | st.text(alphabet="adeiklmnoprtw 0123456789JQKAX", max_size=16)
"""Notation text that mostly does not parse (NotationError is an IllegalActionError)."""


def is_rummy(state: GameState) -> bool:
    """Whether ``state`` is the rummy kernel (rank notation, an action space, hands by rank)."""
    return hasattr(state, "actions") and hasattr(state, "hand_codes")


def _rank_word(code: str) -> str:
    return code if code == "JK" else code[:-1]


@dataclass(frozen=True)
class Probe:
    """A candidate action, described apart from any state so that one strategy serves a
    whole play-out; :meth:`resolve` writes it for the state at hand.

    ``kind`` is ``legal`` (one of the legal actions), ``recombined`` (the words of the
    legal actions shuffled together), ``near`` (rummy: a meld, lay-off, take or discard
    written from the cards held), ``notation`` (any rummy action, ``action``) or ``text``
    (raw text, mostly unparseable).  ``picks`` are indices, taken modulo what is there.
    """

    kind: str
    picks: tuple[int, ...] = ()
    action: Action | None = None
    text: str = ""

    def resolve(self, state: GameState) -> Action | str:
        if self.kind == "notation":
            return self.action
        if self.kind == "text":
            return self.text
        legal = state.legal_actions()
        if self.kind == "legal":
            return legal[self.picks[0] % len(legal)] if legal else "draw"
        if self.kind == "recombined":
            texts = [str(a).split() for a in legal] or [["draw"]]
            verbs = sorted({t[0] for t in texts})
            words = sorted({w for t in texts for w in t[1:]})
            out = [verbs[self.picks[0] % len(verbs)]]
            if words:
                out += [words[i % len(words)] for i in self.picks[1:]]
            return " ".join(out)
        # near: from the cards the player to act holds, and the pile's top
        view = state.view(state.current_player)
        held = [_rank_word(c) for c in view["hand"]]
        if view["pile"]["top"]:
            held.append(_rank_word(view["pile"]["top"]))
        held = held or ["9"]
        verb, target, *rest = self.picks
        cards = [held[i % len(held)] for i in rest]
        verb = ("meld", "add", "take", "discard")[verb % 4]
        if verb == "take":
            cards = cards[:target % 4]  # "take" with 0 to 3 cards
        elif verb == "discard":
            cards = cards[:1]
        text = " ".join([verb, *cards])
        if verb == "add":
            targets = sorted(set(held)) + ["wild"]
            text += f" to {targets[target % len(targets)]}"
        return text


def probes(state: GameState) -> st.SearchStrategy[Probe]:
    """Candidate actions for play-outs of ``state``'s game: mostly illegal, some legal."""
    index = st.integers(0, CHOICE_MAX)
    parts = [
        st.builds(Probe, kind=st.just("legal"), picks=st.tuples(index)),
        st.builds(Probe, kind=st.just("recombined"),
                  picks=st.lists(index, min_size=1, max_size=6).map(tuple)),
        BAD_NOTATION.map(lambda text: Probe("text", text=text)),
    ]
    if is_rummy(state):
        parts += [
            notation_actions(state.actions).map(lambda a: Probe("notation", action=a)),
            st.builds(Probe, kind=st.just("near"),
                      picks=st.lists(index, min_size=3, max_size=10).map(tuple)),
        ]
    return st.one_of(parts)


# --------------------------------------------------------------------------- hidden cards
HIDDEN_ZONES: dict[str, str] = {
    "stock": "all",           # face down
    "pile": "below_top",      # only the top card of the discard pile shows
    "hands": "other_seats",   # a player sees their own hand only
    "reserves": "all_seats",  # reserve piles (Pony Tail) lie face down, even one's own
    "incoming": "all_seats",  # cards passed face down (Houses); -1 for none
}
"""Save keys (``to_json`` data) of zones whose cards some player cannot see, and which of
their positions are hidden.  An engine with other hidden zones adds its keys here."""

FACE_UP_PILE_MODELS = ("table",)
"""Meld models whose whole discard pile lies face up (the table model: a deep take
chooses a card from anywhere in it), so no card of the pile is hidden."""


def hidden_positions(saved: dict, player: int, pile_face_up: bool = False) -> list[tuple]:
    """Paths ``(key, index)`` / ``(key, seat, index)`` / ``(key, seat)`` into a save of
    every card ``player`` cannot see (see :data:`HIDDEN_ZONES`)."""
    out: list[tuple] = []
    for key, which in HIDDEN_ZONES.items():
        if key == "pile" and pile_face_up:
            continue
        zone = saved.get(key)
        if zone is None:
            continue
        if which == "all":
            out += [(key, i) for i in range(len(zone))]
        elif which == "below_top":
            out += [(key, i) for i in range(len(zone) - 1)]
        else:
            for q, cards in enumerate(zone):
                if which == "other_seats" and q == player:
                    continue
                if isinstance(cards, list):
                    out += [(key, q, i) for i in range(len(cards))]
                elif cards >= 0:
                    out.append((key, q))
    return out


def shuffle_hidden(state: GameState, player: int, rng: random.Random) -> GameState:
    """A copy of ``state`` whose cards hidden from ``player`` are permuted among the hidden
    positions (zone sizes kept), built through ``to_json`` → edit → ``from_json``
    (which re-sorts every hand by rank)."""
    saved = json.loads(state.to_json())
    face_up = getattr(state, "meld_model", None) in FACE_UP_PILE_MODELS
    positions = hidden_positions(saved, player, pile_face_up=face_up)

    def slot(path):  # the list holding the card, and its index there
        return (saved[path[0]], path[1]) if len(path) == 2 else (saved[path[0]][path[1]], path[2])

    ids = [lst[i] for lst, i in map(slot, positions)]
    rng.shuffle(ids)
    for path, c in zip(positions, ids):
        lst, i = slot(path)
        lst[i] = c
    return GameState.from_json(json.dumps(saved))


# --------------------------------------------------------------------------- invariants
_DECK_SIZES: dict[str, int] = {}


def _deck_size(state: GameState) -> int:
    key = f"{state.pack.digest}:{state.n_players}"
    if key not in _DECK_SIZES:
        fresh = meldkit.new_game(state.pack, players=state.n_players)
        _DECK_SIZES[key] = sum(len(ids) for ids in fresh.zone_cards().values())
    return _DECK_SIZES[key]


def deck_size(state: GameState) -> int:
    """The number of cards in play: every id ``0 … n-1`` is in exactly one zone."""
    kind_of = getattr(state, "kind_of", None)  # the rummy kernel names every card's kind
    return len(kind_of) if kind_of is not None else _deck_size(state)


def assert_cards_conserved(state: GameState, after: object = None) -> None:
    """Every card id of the deck is in exactly one zone."""
    zones = state.zone_cards()
    seen = [c for ids in zones.values() for c in ids]
    n = deck_size(state)
    if sorted(seen) != list(range(n)):
        counts: dict[int, int] = {}
        for c in seen:
            counts[c] = counts.get(c, 0) + 1
        missing = sorted(set(range(n)) - set(counts))
        doubled = {c for c, k in counts.items() if k > 1}
        where = {name: [c for c in ids if c in doubled] for name, ids in zones.items()}
        raise AssertionError(
            f"cards not conserved after {after!s}: {len(seen)} ids for a {n}-card deck; "
            f"missing {missing[:10]}, doubled in {({k: v for k, v in where.items() if v})}; "
            f"last actions {state.history[-8:]}"
        )
