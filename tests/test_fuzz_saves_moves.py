"""Bounded fuzzing campaigns (Hypothesis) over the two runtime inputs a stranger controls:
saves sent back by a client and moves typed by a player (issue 11).

* **Saves**: real saves (Pony Tail, Pony Canasta with and without partners, classic
  canasta, Hand and Foot, Houses, gin rummy and rummy; draw
  and play phases, pending melds, finished hands, finished games), mutated 1 to 3 times —
  a value replaced by another (another card id, -1, 10⁶, 2⁷⁰, ``true``, ``null``, a
  string, a float, a list, an object), a key deleted, a list item duplicated or dropped,
  a top-level field flipped, shifted, shuffled or taken from another position of the
  same game.
  ``from_json`` either refuses with a ``SaveError``, or the game it returns keeps every
  invariant: each card in exactly one zone, the save round-trips, every seat's view
  works, and random play goes on (every listed legal action passes ``check`` and applies)
  without any error that is not meldkit's own.
* **Moves**: hand-built ``Action`` objects with any parts, and notation assembled from
  verbs, ranks, card codes, spaces and odd words (``²``, ``-1``, ``٣``).  ``check`` always
  answers; ``apply`` accepts exactly what ``check`` accepts; a refused move changes
  nothing; an applied one is recorded in canonical notation that parses back to it.

Each example takes milliseconds; the default profile runs the file in a few seconds.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

import meldkit
from meldkit import Action, GameState, IllegalActionError, MeldkitError, SaveError
from meldkit.bots import RandomBot


def _collect_saves() -> list[str]:
    """Saves of real positions of every bundled kernel game and Houses."""
    saves = []
    tables = [("pony_tail", 4, None, 1), ("pony_canasta", 4, {"partners": True}, 2),
              ("pony_canasta", 3, None, 3), ("houses", 4, None, 4),
              ("classic_canasta", 4, None, 5), ("hand_and_foot", 4, None, 6),
              ("gin_rummy", 2, None, 7), ("rummy", 3, None, 8), ("samba", 4, None, 9)]
    for pack, players, options, seed in tables:
        g = meldkit.new_game(pack, players=players, seed=seed, options=options)
        bot = RandomBot(seed=seed)
        marks = {0, 1, 7, 40, 150, 400}
        step = 0
        while not g.is_over and step < 20_000:
            pending = getattr(g, "pending", False)
            if step in marks or (pending and len(saves) % 3 == 0) or (
                    g.hand_results and len(g.hand_results) == 1 and step % 97 == 0):
                saves.append(g.to_json())
            g.apply(bot.choose(g))
            step += 1
        saves.append(g.to_json())
    return saves


SAVES = _collect_saves()

ODD_VALUES = [-1, 0, 1, 10**6, 2**70, True, False, None, "", "banana", "draw", 1.5, [], {},
              [0], [[0]], {"a": 1}, "9", -(2**70)]


def _slots(node, out):
    """Every (container, key) in a JSON tree, without recursion."""
    stack = [node]
    while stack:
        n = stack.pop()
        items = n.items() if isinstance(n, dict) else enumerate(n) if isinstance(n, list) else ()
        for k, v in items:
            out.append((n, k))
            if isinstance(v, (dict, list)):
                stack.append(v)
    return out


@st.composite
def mutated_saves(draw) -> str:
    d = json.loads(draw(st.sampled_from(SAVES)))
    ids = [v for c, k in _slots(d, []) for v in [c[k]]
           if isinstance(v, int) and not isinstance(v, bool) and 0 <= v < 400]
    donors = [t for t in SAVES if json.loads(t)["pack"] == d["pack"]]
    for _ in range(draw(st.integers(1, 3))):
        op = draw(st.sampled_from(["replace", "replace", "card", "delete", "duplicate",
                                   "field", "splice"]))
        if op in ("field", "splice"):  # a top-level field: plausible values, wrong state
            key = draw(st.sampled_from(sorted(d)))
            if op == "splice":  # the field as another position of the same pack has it
                donor = json.loads(draw(st.sampled_from(donors)))
                if key in donor:
                    d[key] = donor[key]
            elif isinstance(d[key], bool):
                d[key] = not d[key]
            elif isinstance(d[key], int):
                d[key] += draw(st.sampled_from([-1, 1, 2]))
            elif isinstance(d[key], list) and d[key]:
                d[key] = draw(st.permutations(d[key]))
            continue
        slots = _slots(d, [])
        container, key = draw(st.sampled_from(slots))
        if op == "replace":
            container[key] = draw(st.one_of(st.sampled_from(ODD_VALUES), st.integers(-5, 400)))
        elif op == "card" and ids:
            container[key] = draw(st.sampled_from(ids))
        elif op == "delete":
            if isinstance(container, dict):
                del container[key]
            else:
                container.pop(key)
        elif isinstance(container, list):
            container.insert(key, container[key])
        else:
            container[key] = [container[key], container[key]]
    return json.dumps(d)


def _assert_sound(g: GameState, seed: int) -> None:
    """A loaded game keeps the invariants and plays on without a foreign error."""
    zones = g.zone_cards()
    ids = sorted(c for cards in zones.values() for c in cards)
    assert ids == list(range(len(ids))), "card conservation"
    text = g.to_json()
    assert GameState.from_json(text, pack=g.pack).to_json() == text
    for p in range(g.n_players):
        g.view(p)
    bot = RandomBot(seed=seed)
    for _ in range(25):
        if g.is_over:
            break
        legal = g.legal_actions()
        assert legal, "a game that is not over has a legal action"
        for a in legal[:8]:
            assert g.check(a) is None, f"listed {a} refused: {g.check(a)}"
        g.apply(bot.choose(g))
        g.to_json()


@given(mutated_saves(), st.integers(0, 10**6))
def test_a_mutated_save_is_refused_or_loads_into_a_sound_game(text, seed):
    try:
        g = GameState.from_json(text)
    except SaveError:
        return
    _assert_sound(g, seed)


# --------------------------------------------------------------------------- moves
VERBS = ["draw", "take", "pickup", "meld", "add", "discard", "withdraw", "end", "receive",
         "place", "pass", "steal", "move", "remove", "propose", "agree", "refuse"]
WORDS = VERBS + ["9", "2", "JK", "K", "A", "10", "3", "to", "wild", "KS", "LS", "VF", "PP",
                 "1", "2", "3", "4", "5", "0", "²", "٣", "-1", "9x", "QH", "", "TO", "Wild"]

moves_text = st.lists(st.sampled_from(WORDS), min_size=0, max_size=7).map(" ".join)

parts = st.one_of(st.integers(-3, 70), st.sampled_from([True, None, "9", 1.0, 2**70]))
hand_built = st.builds(
    Action,
    st.one_of(st.sampled_from(VERBS), st.sampled_from(["", "x", 7, None])),
    st.one_of(st.lists(parts, max_size=5).map(tuple), st.lists(parts, max_size=3),
              st.just("99")),
    st.one_of(st.integers(-3, 20), st.sampled_from([None, "9", True])),
    st.one_of(moves_text, st.none(), st.text(max_size=12)),
)


@st.composite
def positions(draw) -> GameState:
    return GameState.from_json(draw(st.sampled_from(SAVES)))


def _legal_twin(g: GameState, move) -> Action | None:
    """A listed legal action equal to ``move``, if any (tuples compare by value)."""
    for a in g.legal_actions():
        try:
            if tuple.__eq__(a, move) is True:
                return a
        except Exception:
            return None
    return None


@given(positions(), st.one_of(moves_text, hand_built, st.sampled_from([None, 3, b"draw"])))
def test_check_and_apply_agree_on_every_move_and_a_refusal_changes_nothing(g, move):
    before = g.to_json()
    why = g.check(move)
    try:
        g.apply(move)
    except IllegalActionError as e:
        assert why is not None, f"check accepted {move!r} but apply refused it: {e}"
        assert why.code == e.code
        assert g.to_json() == before
        return
    except MeldkitError as e:  # only IllegalActionError may refuse a move
        raise AssertionError(f"{move!r}: {type(e).__name__}: {e}") from None
    assert why is None, f"apply accepted {move!r} which check refused: {why}"
    recorded = g.history[-1]
    again = GameState.from_json(before).parse_action(recorded)
    assert recorded == str(again)
    if isinstance(move, Action):
        assert tuple(again) == tuple(move)


@given(positions(), st.integers(0, 10**6))
def test_legal_actions_are_exactly_the_moves_check_accepts_among_many_candidates(g, seed):
    import random

    rng = random.Random(seed)
    legal = {str(a) for a in g.legal_actions()}
    texts = {" ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 6))) for _ in range(40)}
    for text in texts | legal:
        accepted = g.check(text) is None
        if accepted:
            assert str(g.parse_action(text)) in legal, f"{text!r} passes check, not listed"


# --------------------------------------------------------------------------- the campaign
def _campaign_module():
    """``benchmarks/fuzz_saves_moves.py``, run here with a tiny budget per campaign."""
    pytest.importorskip("yaml", reason="the campaign writes YAML with PyYAML (the docs extra)")
    import importlib
    import pathlib
    import sys

    bench = pathlib.Path(__file__).resolve().parents[1] / "benchmarks"
    if str(bench) not in sys.path:
        sys.path.insert(0, str(bench))
    return importlib.import_module("fuzz_saves_moves")


def test_short_campaigns_of_saves_signed_saves_ids_hooks_and_scenarios_find_nothing():
    import random
    import signal

    fz = _campaign_module()
    signal.signal(signal.SIGALRM, fz._alarm)
    rng = random.Random(11)
    tally = fz.Tally()
    some = {n: ts[:: max(1, len(ts) // 4)] for n, ts in fz.collect_saves(
        ["pony_tail", "rummy", "houses"], rng, per_game=2, max_steps=120).items()}
    fz.saves_campaign(some, 1.0, rng, tally, 5)
    fz.signed_campaign(some, 0.3, rng, tally, 5)
    fz.ids_campaign(some, 0.8, rng, tally, 5)
    fz.hooks_campaign(0.8, rng, tally, 5, bases=["pony_tail", "gin_rummy"])
    fz.scenarios_campaign(0.3, rng, tally, 5, packs=["pony_tail"])
    for counted in ("saves", "signed saves", "positions probed with odd ids and moves",
                    "hook games", "scenario files"):
        assert tally.counts[counted] > 0, counted
    assert not tally.failures, {sig: detail[-600:] for sig, (_, detail) in
                                tally.failures.items()}
