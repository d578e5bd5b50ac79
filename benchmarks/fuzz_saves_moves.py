"""A bounded fuzzing campaign over the runtime inputs a stranger controls: saves, signed
saves, moves and action ids, plugin hooks, scenario files.

    taskset -c 1 python benchmarks/fuzz_saves_moves.py --seconds 300     # every bundled pack
    python benchmarks/fuzz_saves_moves.py --seconds 30 --only saves ids
    python benchmarks/fuzz_saves_moves.py --hypothesis 2000               # the pytest properties

The time is shared among six campaigns, each a loop of random cases (``random.Random``,
seeded), each case under a time bound (``SIGALRM``):

* ``saves`` — saves of real positions of every bundled pack at its fewest and most players
  (draw and play phases, finished hands, finished games), mutated: every top-level field in
  turn (so a field a save gains is mutated without touching this file), then any value
  replaced, deleted, duplicated, taken from another position.  ``from_json`` (with and
  without ``pack=``) refuses with a ``SaveError``, or the game is **sound and live**:
  every card in one zone, the save round-trips, every view works, and random play goes on
  (not over ⇒ a legal action that ``check`` accepts) with conservation after each move.
* ``signed`` — signed saves tampered (a character flipped, deleted, inserted; truncated;
  the header or MAC edited; another key; bytes, odd keys): ``verify`` gives the save back
  only if nothing changed, else ``SaveError`` (a key neither bytes nor text: ``TypeError``).
* ``ids`` — action ids and moves: legal ids, ints around the space, huge ints, bools, numpy
  ints and bools, objects whose ``__index__`` raises or gives no int, floats, text,
  notation, hand-built ``Action`` objects.  ``check`` answers (a Reason or None, never
  raises), ``apply`` accepts exactly what ``check`` accepts, a refusal changes nothing.
* ``hooks`` — a plugin whose hooks misbehave at random (raise, change state then raise,
  drop or double a card, store non-JSON data, give results of the wrong shape), on the
  canasta and the table kernel: every move either applies with the cards conserved and a
  save that round-trips, or is a ``PluginError`` / ``IllegalActionError`` leaving the state
  as it was.
* ``scenarios`` — the bundled scenario files mutated (spans deleted, repeated, NUL bytes,
  huge counts, a scenario repeated past the limits) and random YAML, loaded and run
  against their pack; plus a FIFO, ``/dev/zero``, a directory, a binary file.  The result
  is the scenarios' results or a ``ScenarioError`` whose every problem names the file.

Prints the counts the issue notes quote; writes each distinct failure's input to
``--out``; exits 1 if any was found.
"""

from __future__ import annotations

import argparse
import collections
import copy
import json
import os
import random
import signal
import sys
import tempfile
import time
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))

import meldkit
from meldkit import (
    Action,
    GameState,
    IllegalActionError,
    MeldkitError,
    PluginError,
    SaveError,
    saves,
)
from meldkit.bots import RandomBot

try:
    import numpy as np
except ImportError:  # pragma: no cover - numpy is optional
    np = None


class Hang(BaseException):
    """A case ran past its time bound."""


_ARMED = [False]  # a case under its bound: a repeat of the alarm once the case has ended
# (while its failure is being written down) must not escape the campaign's loop


def _alarm(signum, frame):
    if _ARMED[0]:
        raise Hang("time bound crossed")


class Tally:
    def __init__(self) -> None:
        self.counts: collections.Counter[str] = collections.Counter()
        self.failures: dict[str, tuple[str, str]] = {}

    def fail(self, signature: str, text: str, detail: str) -> None:
        self.counts["failures"] += 1
        self.failures.setdefault(signature, (text, detail))


def _signature(exc: BaseException) -> str:
    tb = traceback.extract_tb(exc.__traceback__)
    where = next((f for f in reversed(tb) if "/meldkit/" in f.filename), tb[-1] if tb else None)
    loc = f"{Path(where.filename).name}:{where.lineno}" if where else "?"
    return f"{type(exc).__name__}: {str(exc)[:60]} at {loc}"


def bounded(tally: Tally, campaign: str, text: str, seconds: float, body: Callable[[], Any]
            ) -> None:
    """Run ``body`` under the time bound: a hang, a broken assertion or a foreign exception
    is a failure of ``campaign`` (its input ``text`` kept)."""
    _ARMED[0] = True
    signal.setitimer(signal.ITIMER_REAL, seconds, 1.0)
    try:
        body()
    except Hang:
        _ARMED[0] = False
        tally.fail(f"{campaign}: a hang", text, traceback.format_exc(limit=-10))
    except AssertionError as e:
        tally.fail(f"{campaign}: {str(e)[:90]}", text, traceback.format_exc())
    except Exception as e:
        tally.fail(f"{campaign}: {_signature(e)}", text, traceback.format_exc())
    finally:
        _ARMED[0] = False
        signal.setitimer(signal.ITIMER_REAL, 0)


def _until(deadline: float):
    """Yield until ``deadline`` (``time.monotonic``), at least once: a loaded machine still
    runs one case of each campaign."""
    yield
    while time.monotonic() < deadline:
        yield


# --------------------------------------------------------------------------- invariants
def conserved(g: GameState, deck: int) -> bool:
    return sorted(c for ids in g.zone_cards().values() for c in ids) == list(range(deck))


def deck_size(g: GameState) -> int:
    kind_of = getattr(g, "kind_of", None)
    if kind_of is not None:
        return len(kind_of)
    fresh = meldkit.new_game(g.pack, players=g.n_players, seed=1)
    return sum(len(ids) for ids in fresh.zone_cards().values())


def play_live(g: GameState, rng: random.Random, steps: int, tally: Tally) -> None:
    """Random decisions with conservation and liveness checked after each."""
    deck = deck_size(g)
    assert conserved(g, deck), "a loaded save's cards are not one of each id"
    for _ in range(steps):
        if g.is_over:
            return
        legal = g.legal_actions()
        assert legal, f"a loaded game that is not over has no legal action ({g.phase})"
        a = rng.choice(legal)
        assert g.check(a) is None, f"listed {a} refused: {g.check(a)}"
        g.apply(a)
        tally.counts["decisions with conservation checked"] += 1
        assert conserved(g, deck), f"cards not conserved after {a}"


# --------------------------------------------------------------------------- saves
def collect_saves(packs: list[str], rng: random.Random, per_game: int = 12,
                  max_steps: int = 3000) -> dict[str, list[str]]:
    """Saves of real positions of every pack at its fewest and most players (and with
    partners where optional): spread through a game, finished hands, the end."""
    out: dict[str, list[str]] = collections.defaultdict(list)
    for name in packs:
        pack = meldkit.load_pack(name)
        sp = pack.spec.players
        tables = [(n, None) for n in sorted({sp.min, min(sp.max, 6)})]
        if sp.partners == "optional":
            tables.append((max(4, sp.min), {"partners": True}))
        for n, options in tables:
            g = meldkit.new_game(pack, players=n, seed=rng.randrange(2**32), options=options)
            _stack_a_later_deal(g, rng)  # (saves then carry later_deck_orders to mutate)
            bot = RandomBot(seed=rng.randrange(2**32))
            keep = sorted(rng.sample(range(1, max_steps // 2), per_game)) + [0]
            step, hands = 0, 0
            while not g.is_over and step < max_steps:
                if step in keep or len(g.hand_results) != hands:
                    out[name].append(g.to_json())
                    hands = len(g.hand_results)
                g.apply(bot.choose(g))
                step += 1
            out[name].append(g.to_json())
    return out


def _stack_a_later_deal(g, rng: random.Random) -> None:
    """Stack deal 2 of ``g`` (a few cards of its deck on top) where its engine deals again,
    so that its saves hold ``later_deck_orders``."""
    from meldkit.testing import stack_deck

    try:
        order = stack_deck(g.pack, g.n_players, {}, deal=2)
        g.stack_deal(2, order[:rng.randrange(1, 8)])
    except meldkit.MeldkitError:
        pass  # (an engine that deals one hand: nothing to stack)


ODD = [-1, 0, 1, 2, 10**6, 2**70, -(2**70), True, False, None, "", "banana", "draw", 1.5,
       float("nan"), [], {}, [0], [[0]], {"a": 1}, "9", "\x00", "é", [-1], [True]]


def _slots(node) -> list[tuple[Any, Any]]:
    out, stack = [], [node]
    while stack:
        n = stack.pop()
        items = n.items() if isinstance(n, dict) else enumerate(n) if isinstance(n, list) else ()
        for k, v in items:
            out.append((n, k))
            if isinstance(v, (dict, list)):
                stack.append(v)
    return out


def mutate_value(container, key, rng: random.Random, ids: list[int], donor: dict | None):
    op = rng.choice(["odd", "int", "card", "delete", "duplicate", "flip", "shift", "donor",
                     "shuffle", "empty"])
    v = container[key]
    if op == "odd":
        container[key] = copy.deepcopy(rng.choice(ODD))
    elif op == "int":
        container[key] = rng.randint(-5, 400)
    elif op == "card" and ids:
        container[key] = rng.choice(ids)
    elif op == "delete":
        if isinstance(container, dict):
            del container[key]
        else:
            container.pop(key)
    elif op == "duplicate":
        if isinstance(container, list):
            container.insert(key, copy.deepcopy(v))
        else:
            container[key] = [v, v]
    elif op == "flip" and isinstance(v, bool):
        container[key] = not v
    elif op == "shift" and isinstance(v, int) and not isinstance(v, bool):
        container[key] = v + rng.choice([-2, -1, 1, 2])
    elif op == "donor" and donor is not None and isinstance(container, dict) and key in donor:
        container[key] = copy.deepcopy(donor[key])
    elif op == "shuffle" and isinstance(v, list) and v:
        rng.shuffle(v)
    elif op == "empty" and isinstance(v, (list, dict, str)):
        container[key] = type(v)()


def mutated_save(text: str, rng: random.Random, donors: list[str], field: str | None
                 ) -> str:
    d = json.loads(text)
    ids = [v for c, k in _slots(d) for v in [c[k]]
           if isinstance(v, int) and not isinstance(v, bool) and 0 <= v < 500]
    donor = json.loads(rng.choice(donors)) if donors else None
    if field is not None and field in d:  # the field in turn: itself, or a value inside it
        inner = _slots(d[field]) if isinstance(d[field], (dict, list)) and rng.random() < 0.6 \
            else []
        container, key = rng.choice(inner) if inner else (d, field)
        mutate_value(container, key, rng, ids, donor if container is d else None)
    for _ in range(rng.choice([0, 0, 1, 2])):
        slots = _slots(d)
        if slots:
            container, key = rng.choice(slots)
            mutate_value(container, key, rng, ids, donor if container is d else None)
    return json.dumps(d)


def saves_campaign(all_saves: dict[str, list[str]], seconds: float, rng: random.Random,
                   tally: Tally, case_seconds: float) -> None:
    names = sorted(all_saves)
    packs = {n: meldkit.load_pack(n) for n in names}
    fields = {n: sorted({k for t in all_saves[n] for k in json.loads(t)}) for n in names}
    deadline = time.monotonic() + seconds
    i = 0
    for _ in _until(deadline):
        name = names[i % len(names)]
        flist = fields[name]
        field = flist[(i // len(names)) % len(flist)]
        text = mutated_save(rng.choice(all_saves[name]), rng, all_saves[name], field)
        with_pack = rng.random() < 0.5

        def case(text=text, name=name, with_pack=with_pack) -> None:
            try:
                g = GameState.from_json(text, pack=packs[name] if with_pack else None)
            except SaveError:
                tally.counts["saves refused (SaveError)"] += 1
                return
            tally.counts["saves accepted, then checked sound and live"] += 1
            again = g.to_json()
            assert GameState.from_json(again, pack=g.pack).to_json() == again, \
                "an accepted save does not round-trip"
            for p in range(g.n_players):
                g.view(p)
            play_live(g, rng, 30, tally)

        bounded(tally, "saves", text, case_seconds, case)
        tally.counts["saves"] += 1
        tally.counts[f"save fields mutated in turn ({name})"] = len(flist)
        i += 1


# --------------------------------------------------------------------------- signed saves
def tamper(signed: str, rng: random.Random) -> str:
    how = rng.choice(["flip", "delete", "insert", "truncate", "header", "mac", "case",
                      "space", "bom", "swap", "crlf"])
    i = rng.randrange(len(signed))
    if how == "flip":
        c = signed[i]
        return signed[:i] + (chr(ord(c) ^ 1) if ord(c) > 1 else "x") + signed[i + 1:]
    if how == "delete":
        return signed[:i] + signed[i + 1:]
    if how == "insert":
        return signed[:i] + rng.choice([" ", "0", "\n", "\x00", "é", "{"]) + signed[i:]
    if how == "truncate":
        return signed[:i]
    if how == "header":
        return signed.replace("/1", "/2", 1) if rng.random() < 0.5 else signed.replace(
            "hmac-sha256", "hmac-sha1", 1)
    head, _, body = signed.partition("\n")
    mac = head.rsplit(" ", 1)[1]
    if how == "mac":
        return head[:-len(mac)] + mac[:-1] + ("0" if mac[-1] != "0" else "1") + "\n" + body
    if how == "case":
        return head[:-len(mac)] + mac.upper() + "\n" + body
    if how == "space":
        return signed + rng.choice([" ", "\n", "\t"])
    if how == "bom":
        return "\ufeff" + signed
    if how == "crlf":
        return signed.replace("\n", "\r\n", 1)
    return body + "\n" + head  # swap


ODD_KEYS: list[tuple[Any, type]] = [
    (b"", SaveError), (b"short", SaveError), ("", SaveError), ("short key", SaveError),
    ("\ud800" * 20, SaveError), (b"x" * 15, SaveError), (None, TypeError), (12345, TypeError),
    ([b"k" * 16], TypeError), (1.5, TypeError)]


def signed_campaign(all_saves: dict[str, list[str]], seconds: float, rng: random.Random,
                    tally: Tally, case_seconds: float) -> None:
    pool = [t for ts in all_saves.values() for t in ts]
    deadline = time.monotonic() + seconds
    for _ in _until(deadline):
        save = rng.choice(pool)
        key = rng.choice([os.urandom(32), os.urandom(16), "a text key of some length",
                          bytearray(os.urandom(20)), memoryview(os.urandom(24))])
        signed = saves.sign(save, key)

        def case(save=save, key=key, signed=signed) -> None:
            assert saves.verify(signed, key) == save, "an untouched signed save is refused"
            assert saves.verify(signed.encode(), key) == save, "bytes of a signed save"
            for _ in range(4):
                bad = tamper(signed, rng)
                try:
                    back = saves.verify(bad, key)
                except SaveError:
                    tally.counts["signed-save tamperings refused"] += 1
                    continue
                assert back == save, f"a tampered signed save verified: {bad[:80]!r}"
                tally.counts["signed-save tamperings that changed nothing the MAC covers"] += 1
            other = os.urandom(32)
            try:
                saves.verify(signed, other)
                raise AssertionError("verified with another key")
            except SaveError:
                tally.counts["signed-save tamperings refused"] += 1
            odd, expected = rng.choice(ODD_KEYS)
            for fn in (lambda: saves.sign(save, odd), lambda: saves.verify(signed, odd)):
                try:
                    fn()
                    raise AssertionError(f"the key {odd!r} was accepted")
                except expected:
                    tally.counts["odd signing keys refused"] += 1

        bounded(tally, "signed", signed, case_seconds, case)
        tally.counts["signed saves"] += 1


# --------------------------------------------------------------------------- ids and moves
class _IndexRaises:
    def __init__(self, exc: BaseException):
        self.exc = exc

    def __index__(self):
        raise self.exc


class _IndexGives:
    def __init__(self, value):
        self.value = value

    def __index__(self):
        return self.value


class _IntSub(int):
    pass


VERBS = ["draw", "take", "pickup", "meld", "add", "discard", "withdraw", "end", "knock",
         "lay", "run", "extend", "pass", "receive", "place", "steal", "gin", "bury"]
WORDS = VERBS + ["9", "2", "JK", "K", "A", "10", "3", "to", "wild", "m1", "m2", "9H", "KS",
                 "QH", "²", "٣", "-1", "", "TO", "4H-6H", "0", "99999999999999999999"]


def odd_ids(rng: random.Random, g: GameState) -> list[Any]:
    size = g.action_space.size
    legal = g.legal_ids()
    out: list[Any] = [rng.choice(legal)] if legal else []
    out += [rng.randint(-3, size + 3), size, size - 1, -1, 2**64, -(2**70), 10**100,
            True, False, _IntSub(rng.randrange(size)),
            _IndexRaises(rng.choice([ValueError("v"), TypeError("t"), OverflowError("o"),
                                     RuntimeError("r"), ZeroDivisionError(), KeyError("k")])),
            _IndexGives(rng.choice(["3", 1.0, None, True, 2**70])), 1.0, float("nan"), "7",
            b"draw", None, [], (1,), object()]
    if np is not None:
        out += [np.int64(rng.choice(legal)) if legal else np.int64(0), np.int32(-1),
                np.uint8(rng.randrange(min(size, 255))), np.bool_(True), np.bool_(False),
                np.int64(size + 10), np.float64(1.0)]
    out.append(" ".join(rng.choice(WORDS) for _ in range(rng.randint(0, 6))))
    try:
        listed = g.legal_actions()
    except MeldkitError:
        listed = []
    if listed:
        a = rng.choice(listed)
        out += [a, str(a), str(a).upper(), f"  {a}  ",
                Action(a.type, tuple(a.cards) + (rng.randint(-2, 60),), a.target, str(a)),
                Action(rng.choice(VERBS), (rng.randint(-2, 60),), rng.choice([None, 0, -1, 99]),
                       rng.choice([None, "draw", str(a), "x y"]))]
    return out


def ids_campaign(all_saves: dict[str, list[str]], seconds: float, rng: random.Random,
                 tally: Tally, case_seconds: float) -> None:
    packs = {n: meldkit.load_pack(n) for n in all_saves}  # (a pack file is not bundled:
    pool = [(n, t) for n, ts in all_saves.items() for t in ts]  # its saves need it passed)
    deadline = time.monotonic() + seconds
    for _ in _until(deadline):
        name, text = rng.choice(pool)

        def case(text=text, name=name) -> None:
            from meldkit.ai.action_space import ActionSpaceError

            g = GameState.from_json(text, pack=packs[name])
            if g.is_over:
                return
            try:
                g.action_space
            except ActionSpaceError:  # refused, by name: too many meld actions for ids
                tally.counts["packs with no integer action space (refused)"] += 1
                return
            for move in odd_ids(rng, g):
                before = g.to_json()
                why = g.check(move)
                assert why is None or isinstance(why, meldkit.Reason), \
                    f"check({move!r}) gave {why!r}"
                try:
                    g.apply(move)
                except IllegalActionError as e:
                    assert why is not None, f"check accepted {move!r}, apply refused: {e}"
                    assert why.code == e.code, f"{move!r}: check {why.code}, apply {e.code}"
                    assert g.to_json() == before, f"a refused {move!r} changed the state"
                    tally.counts["moves and ids refused (IllegalActionError)"] += 1
                    continue
                except MeldkitError as e:
                    raise AssertionError(f"{move!r}: {type(e).__name__}: {e}") from None
                assert why is None, f"apply accepted {move!r} which check refused: {why}"
                tally.counts["moves and ids applied"] += 1
                if g.is_over:
                    return

        bounded(tally, "ids", text, case_seconds, case)
        tally.counts["positions probed with odd ids and moves"] += 1


# --------------------------------------------------------------------------- plugin hooks
HOOK_MODES = ["ok", "ok", "ok", "raise", "ext-then-raise", "options-then-raise",
              "drop-card", "double-card", "foreign-card", "ext-set", "ext-nan", "ext-int-key",
              "legal-none", "legal-text", "check-text", "check-true", "scores-none",
              "scores-short", "scores-ints", "view-list", "view-set"]
FUZZ_PLUGIN = "fuzz_mischief"


def _hook_plugin():
    from meldkit import ActionHook, Plugin
    from meldkit import plugins as registry

    class Mischief(Plugin):
        name = FUZZ_PLUGIN
        rng = random.Random(0)
        calls = collections.Counter()

        def _mode(self) -> str:
            self.calls["hook calls"] += 1
            return self.rng.choice(HOOK_MODES)

        def actions(self):
            def legal(state):
                mode = self._mode()
                if mode == "legal-none":
                    return None
                if mode == "legal-text":
                    return "fz"
                return [state.actions.get("fz")]

            def check(state, action):
                mode = self._mode()
                return {"check-text": "no", "check-true": True}.get(mode)

            def apply(state, action):
                mode, p = self._mode(), state.current
                if mode == "ok":
                    state.ext.setdefault(FUZZ_PLUGIN, {"n": 0})["n"] += 1
                elif mode == "raise":
                    raise ValueError("a hook that fails")
                elif mode == "ext-then-raise":
                    state.ext[FUZZ_PLUGIN] = {"n": [1, 2]}
                    raise KeyError("after storing")
                elif mode == "options-then-raise":
                    state.options["fz"] = "changed"
                    raise RuntimeError("after changing options")
                elif mode == "drop-card" and state.hand_cards(p):
                    state.remove_from_hand(p, state.hand_cards(p)[0])
                elif mode == "double-card" and state.stock:
                    state.add_to_hand(p, state.stock[-1])
                elif mode == "foreign-card":
                    state.put_on_stock(99_999)
                elif mode == "ext-set":
                    state.ext[FUZZ_PLUGIN] = {"n": {1}}
                elif mode == "ext-nan":
                    state.ext[FUZZ_PLUGIN] = float("nan")
                elif mode == "ext-int-key":
                    state.ext[FUZZ_PLUGIN] = {1: 2}

            return [ActionHook("fz", "draw", legal, check, apply, cards=0)]

        def adjust_scores(self, state, final, scores):
            mode = self._mode()
            if mode == "scores-none":
                return None
            if mode == "scores-short":
                return scores[:1]
            if mode == "scores-ints":
                return [0 for _ in scores]
            return scores

        def view(self, state, player):
            mode = self._mode()
            return {"view-list": [1], "view-set": {"a": {1}}}.get(mode)

    if FUZZ_PLUGIN not in registry._registry:
        registry.register(Mischief())
    return registry._registry[FUZZ_PLUGIN]


HOOK_BASES = ["pony_tail", "classic_canasta", "gin_rummy", "rummy", "oklahoma_gin"]


def hooks_campaign(seconds: float, rng: random.Random, tally: Tally, case_seconds: float,
                   bases: list[str] = HOOK_BASES) -> None:
    plugin = _hook_plugin()
    plugin.rng = random.Random(rng.randrange(2**32))
    packs = {}
    for base in bases:
        packs[base] = meldkit.load_pack_text(
            f"extends: {base}\nname: {base}_fz\nplugin: {FUZZ_PLUGIN}\n", filename="fz.yaml")
    deadline = time.monotonic() + seconds
    i = 0
    for _ in _until(deadline):
        base = bases[i % len(bases)]
        pack = packs[base]
        i += 1

        def case(pack=pack) -> None:
            g = meldkit.new_game(pack, players=pack.spec.players.min,
                                 seed=rng.randrange(2**32))
            deck = deck_size(g)
            for _ in range(120):
                if g.is_over:
                    return
                before = g.to_json()
                try:
                    legal = g.legal_actions()
                except PluginError:
                    tally.counts["hook moves refused (PluginError)"] += 1
                    assert g.to_json() == before, "a failing legal hook changed the state"
                    continue
                if not legal:
                    raise AssertionError("not over and no legal action")
                hooked = [a for a in legal if a.type == "fz"]
                a = rng.choice(hooked) if hooked and rng.random() < 0.5 else rng.choice(legal)
                try:
                    g.apply(a)
                except (PluginError, IllegalActionError):
                    tally.counts["hook moves refused (PluginError)"] += 1
                    assert g.to_json() == before, f"a refused {a} changed the state"
                    assert conserved(g, deck), "cards lost after a refused hook"
                    if not hooked or a.type != "fz":  # a scoring hook refused at a hand's end:
                        return  # every retry meets the same hook; a new game then
                    continue
                tally.counts["hook moves applied, cards conserved"] += 1
                assert conserved(g, deck), f"a hook broke conservation unnoticed ({a})"
                json.dumps(g.ext, allow_nan=False)
                text = g.to_json()
                try:  # loading checks liveness: it runs the (misbehaving) legal hooks
                    back = GameState.from_json(text, pack=pack)
                except PluginError:
                    tally.counts["hook saves refused on load (PluginError)"] += 1
                else:
                    assert back.to_json() == text, "a hooked game's save does not round-trip"
                for p in range(g.n_players):
                    try:
                        g.view(p)
                    except PluginError:
                        tally.counts["view hooks refused (PluginError)"] += 1

        bounded(tally, "hooks", f"{pack.spec.name}", case_seconds, case)
        tally.counts["hook games"] += 1
    tally.counts["hook calls (random behaviour)"] = plugin.calls["hook calls"]


# --------------------------------------------------------------------------- scenario files
def _random_yaml(rng: random.Random, depth: int = 0) -> Any:
    roll = rng.random()
    if depth > 3 or roll < 0.35:
        return rng.choice([0, 1, -1, 10**9, 2**70, "draw", "9H", "meld 9 9 9", "", None, True,
                           1.5, "players", "scenarios", "\x01", "é"])
    if roll < 0.65:
        return [_random_yaml(rng, depth + 1) for _ in range(rng.randint(0, 4))]
    keys = ["scenarios", "players", "name", "deal", "steps", "expect", "hands", "stock",
            "pile", "seed", "moves", "clause", "score", "melds", "x", "dealer", "stacked"]
    return {rng.choice(keys): _random_yaml(rng, depth + 1) for _ in range(rng.randint(0, 5))}


def mangled_scenarios(text: str, rng: random.Random) -> str:
    how = rng.choice(["span", "span", "nul", "count", "repeat", "random", "tabs", "control"])
    if how == "random":
        import yaml

        return yaml.safe_dump({"scenarios": _random_yaml(rng)} if rng.random() < 0.7 else
                              _random_yaml(rng), allow_unicode=True)
    if how == "nul":
        i = rng.randrange(len(text))
        return text[:i] + "\x00" + text[i:]
    if how == "control":
        i = rng.randrange(len(text))
        return text[:i] + rng.choice(["\x07", "\ufffe", "\x1b", "\ud800"]) + text[i:]
    if how == "count":
        import re

        nums = list(re.finditer(r"\b\d+\b", text))
        if nums:
            m = rng.choice(nums)
            return text[:m.start()] + str(rng.choice([10**6, 10**18, 2**70, 0, 999]))\
                + text[m.end():]
        return text
    if how == "repeat":  # the scenario list repeated toward and past the limits
        head, sep, body = text.partition("scenarios:")
        return head + sep + body * rng.choice([3, 50, 600])
    if how == "tabs":
        return text.replace("  ", "\t", rng.randint(1, 5))
    for _ in range(rng.randint(1, 4)):
        i = rng.randint(0, len(text))
        j = rng.randint(i, min(len(text), i + 60))
        text = rng.choice([text[:i] + text[j:], text[:j] + text[i:j] * rng.randint(2, 30)
                           + text[j:], text[:i] + rng.choice("[]{}:-&*!|>'\"#") + text[i:]])
    return text


def _located(e: meldkit.scenarios.ScenarioError, label: str) -> None:
    assert e.problems, "a ScenarioError without problems"
    for p in e.problems:
        assert p.file == label and p.message, f"a problem that does not name the file: {p}"


def scenarios_campaign(seconds: float, rng: random.Random, tally: Tally, case_seconds: float,
                       packs: list[str] | None = None) -> None:
    from meldkit.scenarios import (
        ScenarioError,
        bundled_scenarios,
        load_scenarios,
        run_scenario_text,
    )

    files = {n: bundled_scenarios(n) for n in packs or meldkit.available_packs()}
    files = {n: p.read_text(encoding="utf-8") for n, p in files.items() if p is not None}
    packs = {n: meldkit.load_pack(n) for n in files}
    tmp = Path(tempfile.mkdtemp(prefix="fuzz_scenarios_"))
    fifo = tmp / "fifo.yaml"
    os.mkfifo(fifo)
    (tmp / "binary.yaml").write_bytes(os.urandom(4096))
    (tmp / "latin1.yaml").write_bytes("scenarios: [é]".encode("latin-1"))
    (tmp / "dir.yaml").mkdir()
    for path in [fifo, "/dev/zero", "/dev/null", tmp / "binary.yaml", tmp / "latin1.yaml",
                 tmp / "dir.yaml", tmp / "missing.yaml"]:
        def case(path=path) -> None:
            try:
                load_scenarios(path)
            except ScenarioError as e:
                _located(e, os.fspath(path))
                tally.counts["scenario files refused, naming the file"] += 1

        bounded(tally, "scenarios", str(path), case_seconds, case)
        tally.counts["scenario files"] += 1
    names = sorted(files)
    deadline = time.monotonic() + seconds
    i = 0
    for _ in _until(deadline):
        name = names[i % len(names)]
        text = mangled_scenarios(files[name], rng)
        i += 1

        def case(text=text, name=name) -> None:
            try:
                results = run_scenario_text(packs[name], text, filename="fz.yaml")
            except ScenarioError as e:
                _located(e, "fz.yaml")
                tally.counts["scenario files refused, naming the file"] += 1
                return
            tally.counts["scenario files run"] += 1
            tally.counts["scenarios run"] += len(results)

        began = time.monotonic()
        bounded(tally, "scenarios", text, 3 * case_seconds, case)  # a 500-scenario file
        took = time.monotonic() - began  # parses for seconds before its refusal: slow, not hung
        if took > case_seconds:
            tally.counts[f"scenario files slower than {case_seconds:g} s (not hung)"] += 1
        tally.counts["scenario files"] += 1


# --------------------------------------------------------------------------- campaign
CAMPAIGNS = ("saves", "signed", "ids", "hooks", "scenarios")
SHARES = {"saves": 0.4, "signed": 0.1, "ids": 0.2, "hooks": 0.15, "scenarios": 0.15}


def campaign(packs: list[str], seconds: float, *, only: tuple[str, ...] = CAMPAIGNS,
             seed: int = 0, case_seconds: float = 10.0) -> Tally:
    signal.signal(signal.SIGALRM, _alarm)
    rng = random.Random(seed)
    tally = Tally()
    start = time.monotonic()
    all_saves = collect_saves(packs, rng) if {"saves", "signed", "ids"} & set(only) else {}
    tally.counts["base saves of real play"] = sum(map(len, all_saves.values()))
    left = max(seconds - (time.monotonic() - start), 1.0)
    share = sum(SHARES[c] for c in only)
    for name in only:
        t = left * SHARES[name] / share
        if name == "saves":
            saves_campaign(all_saves, t, rng, tally, case_seconds)
        elif name == "signed":
            signed_campaign(all_saves, t, rng, tally, case_seconds)
        elif name == "ids":
            ids_campaign(all_saves, t, rng, tally, case_seconds)
        elif name == "hooks":
            hooks_campaign(t, rng, tally, case_seconds)
        elif name == "scenarios":
            scenarios_campaign(t, rng, tally, case_seconds, packs)
    return tally


def report(tally: Tally, out: Path | None, elapsed: float) -> None:
    for name, n in sorted(tally.counts.items()):
        print(f"  {name}: {n:,}")
    print(f"  distinct failures: {len(tally.failures)} ({elapsed:.0f} s)")
    for k, (sig, (text, detail)) in enumerate(sorted(tally.failures.items())):
        print(f"FAILURE {k}: {sig}")
        print("    " + (detail.strip().splitlines() or [""])[-1][:300])
        if out:
            out.mkdir(parents=True, exist_ok=True)
            (out / f"saves_failure_{k}.input").write_text(text, encoding="utf-8",
                                                          errors="backslashreplace")
            (out / f"saves_failure_{k}.txt").write_text(sig + "\n\n" + detail,
                                                        encoding="utf-8")


PROPERTIES = [
    "test_a_mutated_save_is_refused_or_loads_into_a_sound_game",
    "test_check_and_apply_agree_on_every_move_and_a_refusal_changes_nothing",
    "test_legal_actions_are_exactly_the_moves_check_accepts_among_many_candidates",
]


def _hypothesis(examples: int) -> bool:
    from hypothesis import HealthCheck, settings

    settings.register_profile("campaign", max_examples=examples, deadline=None,
                              suppress_health_check=list(HealthCheck))
    settings.load_profile("campaign")
    import test_fuzz_saves_moves as fuzz

    ok = True
    for name in PROPERTIES:
        try:
            getattr(fuzz, name)()
            print(f"{name}: held ({examples} examples)")
        except Exception as e:
            print(f"{name}: FAILED: {type(e).__name__}: {str(e)[:2000]}")
            ok = False
    return ok


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=300)
    parser.add_argument("--case-seconds", type=float, default=10)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--packs", nargs="+", default=list(meldkit.available_packs()))
    parser.add_argument("--only", nargs="+", choices=CAMPAIGNS, default=list(CAMPAIGNS))
    parser.add_argument("--out", type=Path, default=Path("fuzz_findings"))
    parser.add_argument("--hypothesis", type=int, default=0, metavar="N")
    args = parser.parse_args(argv)
    start = time.monotonic()
    tally = campaign(args.packs, args.seconds, only=tuple(args.only), seed=args.seed,
                     case_seconds=args.case_seconds)
    print(f"fuzz_saves_moves: {len(args.packs)} bundled packs ({', '.join(args.packs)}); "
          f"numpy ids {'included' if np is not None else 'skipped (no numpy)'}")
    report(tally, args.out, time.monotonic() - start)
    ok = not tally.failures
    if args.hypothesis:
        ok = _hypothesis(args.hypothesis) and ok
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
