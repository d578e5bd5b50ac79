"""A bounded fuzzing campaign over rule packs: every schema key, in packs of every engine.

    taskset -c 1 python benchmarks/fuzz_packs.py --seconds 300          # every bundled pack
    python benchmarks/fuzz_packs.py --seconds 60 --packs pony_tail rummy
    python benchmarks/fuzz_packs.py --hypothesis 2000                    # the pytest properties

Each case is a child pack of a bundled pack (``extends: <pack>``) setting one to three keys
drawn from :data:`meldkit._schema.KEY_READERS` (the one table the loader checks against, so
a key added there is fuzzed without touching this file) and the keys of their list items,
to values built from the key's schema type (each choice of a ``Literal``, ints around the
bounds, card codes and ranks, tables by player count, item mappings) or hostile ones; the
keys are visited in turn so that every key meets every bundled pack.  Some cases instead
mangle a bundled pack's text (spans deleted, repeated, spliced with YAML's specials).

The property, under a per-case time bound (``--case-seconds``, by ``SIGALRM``):

* loading refuses with a :class:`~meldkit.RulePackError` whose every problem is located
  (file, line and column), or
* the pack deals at its fewest and most players, and random decisions are played with, after
  each one, **card conservation** (every id of the deck in exactly one zone) and **liveness**
  (a game that is not over has a legal action, and each chosen action passes ``check``);
  now and then a save round-trip and the hidden-card check (a seat's view is the same when
  the cards it cannot see are shuffled).

Anything else — another exception, a problem without a place, a hang — is a failure: its
input is written to ``--out`` (one file per distinct failure) and summarised.  Prints the
counts the issue notes quote; exits 1 if any failure was found.
"""

from __future__ import annotations

import argparse
import collections
import copy
import itertools
import json
import random
import signal
import sys
import time
import traceback
import typing
from pathlib import Path
from typing import Any, Literal

import attrs
import yaml

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))

import meldkit
from meldkit import RulePackError
from meldkit._loader import bundled_pack_dir
from meldkit._schema import KEY_READERS, RulePackSpec, key_default, pack_leaves

# --------------------------------------------------------------------------- the keys


def _optional(tp: Any) -> tuple[bool, Any]:
    args = typing.get_args(tp)
    if type(None) in args:
        rest = [a for a in args if a is not type(None)]
        return True, rest[0] if len(rest) == 1 else typing.Union[tuple(rest)]
    return False, tp


def _owner_class(path: str) -> type:
    cls: type = RulePackSpec
    for step in path.split(".")[:-1]:
        cls = typing.get_type_hints(cls)[step]
    return cls


def schema_keys() -> list[tuple[str, Any]]:
    """``(dotted path, type)`` of every key :data:`KEY_READERS` names (from the schema
    walk, so a new key is here as soon as the schema and the table have it)."""
    out = []
    for path, field in pack_leaves():
        tp = typing.get_type_hints(_owner_class(path))[field.name]
        out.append((path, tp))
    missing = set(KEY_READERS) - {p for p, _ in out}
    assert not missing, f"KEY_READERS names keys the schema walk lacks: {sorted(missing)}"
    return out


KEYS = schema_keys()
DEFAULTS = {path: key_default(field) for path, field in pack_leaves()}

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "JK"]
SUITS = "CDHS"
HOSTILE = [-1, 0, 1, 2, 3, 7, 13, 52, 101, 10**6, 10**12, 2**63, -(2**70), True, False,
           None, 0.5, float("inf"), "", "JK", "7S", "3H", "banana", "\x00", "é" * 3, [], {},
           ["JK"], [None], [[1]], {"JK": 0}, {"bogus": 1}, {2: None}, {-1: 1}, "high_card"]


def _card(rng: random.Random) -> str:
    r = rng.choice(RANKS)
    return r if r == "JK" or rng.random() < 0.6 else r + rng.choice(SUITS)


def _int(rng: random.Random) -> int:
    roll = rng.random()
    if roll < 0.55:
        return rng.randint(0, 12)
    if roll < 0.8:
        return rng.choice([13, 15, 20, 25, 30, 50, 100, 500, 1000, 5000])
    if roll < 0.9:
        return rng.choice([-1, -5, -100])
    return rng.choice([10**4, 10**6, 10**9, 2**40, 2**63])


def value_of(tp: Any, rng: random.Random, depth: int = 0) -> Any:
    """A value of schema type ``tp`` (mostly well typed, sometimes at or past a bound)."""
    optional, tp = _optional(tp)
    if optional and rng.random() < 0.15:
        return None
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin is typing.Union:
        return value_of(rng.choice(args), rng, depth)
    if tp is bool:
        return rng.random() < 0.5
    if tp is int:
        return _int(rng)
    if tp is float:
        return rng.choice([0.0, 0.5, 1.0, 2.5])
    if tp is str:
        return rng.choice([_card(rng), rng.choice(RANKS), "book", "natural", "x", ""])
    if tp is Any:
        return rng.choice([1, "x", True, [1], {"a": 1}])
    if origin is Literal:
        return rng.choice(args)
    if isinstance(tp, type) and attrs.has(tp):
        hints = typing.get_type_hints(tp)
        fields = list(attrs.fields(tp))
        chosen = rng.sample(fields, rng.randint(0, min(len(fields), 4)))
        return {f.name: value_of(hints[f.name], rng, depth + 1) for f in chosen}
    if origin is list:
        n = rng.choice([0, 1, 1, 2, 3]) if depth < 3 else 0
        return [value_of(args[0], rng, depth + 1) for _ in range(n)]
    if origin is dict:
        key_tp, val_tp = args
        n = rng.choice([0, 1, 2]) if depth < 3 else 0
        out = {}
        for _ in range(n):
            k = rng.randint(1, 9) if key_tp is int else (
                rng.choice(RANKS + [_card(rng)]) if key_tp is str else value_of(key_tp, rng))
            out[k] = value_of(val_tp, rng, depth + 1)
        return out
    raise AssertionError(f"no value for {tp!r}")


def _nest(path: str, value: Any, into: dict) -> None:
    steps = path.split(".")
    node = into
    for step in steps[:-1]:
        child = node.get(step)
        if not isinstance(child, dict):
            child = node[step] = {}
        node = child
    node[steps[-1]] = value


class _Dumper(yaml.SafeDumper):
    pass


def _str(dumper, data):  # quote every string: "2" stays a rank, "" stays a string
    return dumper.represent_scalar("tag:yaml.org,2002:str", data, style='"')


_Dumper.add_representer(str, _str)


def key_pack(base: str, rng: random.Random, first: str | None = None) -> tuple[str, list[str]]:
    """A child pack of ``base`` setting one to three keys (``first`` among them)."""
    data: dict = {}
    keys = [first] if first else []
    keys += [p for p, _ in rng.sample(KEYS, rng.choice([0, 0, 1, 2]))]
    types = dict(KEYS)
    for path in keys:
        roll = rng.random()
        if roll < 0.1:
            value = rng.choice(HOSTILE)
        elif roll < 0.2:
            value = DEFAULTS[path]
        else:
            value = value_of(types[path], rng)
        if path in ("extends", "plugin", "plugin_package", "meldkit") and rng.random() < 0.8:
            continue  # mostly keep the base: these choose another pack, not a key to fuzz
        _nest(path, value, data)
    text = f"extends: {base}\n" + (yaml.dump(data, Dumper=_Dumper, sort_keys=False,
                                             allow_unicode=True) if data else "")
    return text, keys


SPECIALS = list("[]{}&*!|>:-?#'\",%@`<\t\n ") + ["\x00", "<<: ", "!!omap ", "&a ", "*a",
                                                  "\u2028", "\ufeff", "\x85", "99999999999"]


def mangled_text(text: str, rng: random.Random) -> str:
    for _ in range(rng.randint(1, 4)):
        i = rng.randint(0, len(text))
        j = rng.randint(i, min(len(text), i + 40))
        how = rng.choice(["delete", "repeat", "insert", "insert"])
        if how == "delete":
            text = text[:i] + text[j:]
        elif how == "repeat":
            text = text[:j] + text[i:j] * rng.randint(1, 50) + text[j:]
        else:
            text = text[:i] + rng.choice(SPECIALS) + text[i:]
    return text


# --------------------------------------------------------------------------- one case
class Hang(BaseException):
    """A case ran past its time bound (a BaseException: code under test that catches
    ``Exception`` cannot swallow it; the timer repeats in case it is swallowed anyway)."""


_ARMED = [False]  # a case under its bound: a repeat of the alarm once the case has ended
# (while its failure is being written down) must not escape the campaign's loop


def _alarm(signum, frame):
    if _ARMED[0]:
        raise Hang("time bound crossed")


class Tally:
    def __init__(self) -> None:
        self.counts: collections.Counter[str] = collections.Counter()
        self.failures: dict[str, tuple[str, str]] = {}  # signature -> (input, traceback)
        self.key_cases: collections.Counter[tuple[str, str]] = collections.Counter()

    def fail(self, signature: str, text: str, detail: str) -> None:
        self.counts["failures"] += 1
        self.failures.setdefault(signature, (text, detail))


def _signature(exc: BaseException) -> str:
    tb = traceback.extract_tb(exc.__traceback__)
    where = next((f for f in reversed(tb) if "/meldkit/" in f.filename), tb[-1] if tb else None)
    loc = f"{Path(where.filename).name}:{where.lineno}" if where else "?"
    return f"{type(exc).__name__} at {loc}"


def _conserved(g, deck: int) -> bool:
    seen = sorted(c for ids in g.zone_cards().values() for c in ids)
    return seen == list(range(deck))


def shuffle_hidden(g, player: int, rng: random.Random):
    """A copy of ``g`` whose cards hidden from ``player`` are permuted among the hidden
    positions (``tests/strategies.py``'s, loading with the game's own pack)."""
    from strategies import FACE_UP_PILE_MODELS, hidden_positions

    saved = json.loads(g.to_json())
    positions = hidden_positions(saved, player,
                                 pile_face_up=getattr(g, "meld_model", None) in FACE_UP_PILE_MODELS)

    def slot(path):
        return (saved[path[0]], path[1]) if len(path) == 2 else (saved[path[0]][path[1]],
                                                                  path[2])

    ids = [lst[i] for lst, i in map(slot, positions)]
    rng.shuffle(ids)
    for path, c in zip(positions, ids):
        lst, i = slot(path)
        lst[i] = c
    return type(g).from_json(json.dumps(saved), pack=g.pack)


def play_checked(g, rng: random.Random, decisions: int, tally: Tally, shuffle_every: int = 0
                 ) -> None:
    """Random decisions on ``g`` with conservation and liveness after each (an
    ``AssertionError`` says which broke)."""
    deck = sum(len(ids) for ids in g.zone_cards().values())
    assert _conserved(g, deck), "a new game's cards are not one of each id"
    for step in range(decisions):
        if g.is_over:
            tally.counts["games played to the end"] += 1
            return
        legal = g.legal_actions()
        assert legal, f"not over but no legal action (phase {g.phase}, {g.history[-6:]})"
        a = rng.choice(legal)
        why = g.check(a)
        assert why is None, f"listed {a} refused by check: {why}"
        g.apply(a)
        tally.counts["decisions with conservation checked"] += 1
        assert _conserved(g, deck), f"cards not conserved after {a} ({g.history[-6:]})"
        if shuffle_every and step % shuffle_every == shuffle_every - 1 and not g.is_over:
            text = g.to_json()
            back = type(g).from_json(text, pack=g.pack)
            assert back.to_json() == text, "a save does not round-trip"
            p = g.current_player
            if p is not None and p >= 0:
                try:
                    other = shuffle_hidden(g, p, rng)
                except meldkit.SaveError:  # Houses counts positions (SH-10): a reshuffled
                    tally.counts["hidden-card checks skipped (Houses)"] += 1  # save is not one
                    continue
                assert json.dumps(other.view(p), sort_keys=True) == json.dumps(
                    g.view(p), sort_keys=True), f"seat {p}'s view shows a card it cannot see"
                tally.counts["hidden-card checks"] += 1


def bounded_case(text: str, tally: Tally, seconds: float, body, filename: str = "fuzz.yaml",
                 count_refusals: bool = False) -> str:
    """Load ``text`` under the time bound and, if it loads, run ``body(pack)`` (which gives
    the outcome's name); a refusal must locate every problem (``count_refusals``: each
    problem's sentence is counted); a hang, a broken invariant or a foreign exception is a
    failure.  The outcome's name."""
    _ARMED[0] = True
    signal.setitimer(signal.ITIMER_REAL, seconds, 1.0)
    try:
        try:
            pack = meldkit.load_pack_text(text, filename=filename)
        except RulePackError as e:
            unlocated = [p for p in e.problems if not p.file or p.line is None or p.col is None]
            if not e.problems or unlocated:
                tally.fail("a refusal without file:line:col: "
                           + (str(unlocated[0]).split(":", 1)[-1][:70] if unlocated else
                              "no problems"), text, str(e))
                return "unlocated"
            for problem in e.problems if count_refusals else ():
                tally.counts[f"refused: {str(problem).split(': ', 1)[-1][:90]}"] += 1
            return "refused"
        return body(pack)
    except Hang:
        _ARMED[0] = False
        where = _signature(sys.exc_info()[1]).split(" at ")[-1]  # (one a hot loop)
        tally.fail(f"a hang (time bound crossed) at {where}", text,
                   traceback.format_exc(limit=-8))
        return "hang"
    except AssertionError as e:
        tally.fail(f"invariant: {str(e).split('(')[0][:80]}", text, traceback.format_exc())
        return "invariant"
    except Exception as e:  # another exception: never
        tally.fail(_signature(e), text, traceback.format_exc())
        return "error"
    finally:
        _ARMED[0] = False
        signal.setitimer(signal.ITIMER_REAL, 0)


def table_sizes(players, most: int) -> list[int]:
    """The fewest and the most players a pack allows, the most capped at ``most`` (a pack
    whose smallest table is larger is dealt at that table alone)."""
    allowed = sorted(players.counts) if players.counts else list(
        range(players.min, players.max + 1))
    small = [n for n in allowed if n <= most] or allowed[:1]
    return sorted({small[0], small[-1]})


def run_case(text: str, tally: Tally, rng: random.Random, seconds: float, decisions: int
             ) -> str:
    """Load ``text`` and, if it loads, deal and play; returns the outcome's name."""
    def body(pack) -> str:
        for n in table_sizes(pack.spec.players, 8):
            try:
                g = meldkit.new_game(pack, players=n, seed=rng.randrange(2**32))
            except meldkit.SetupError as e:
                tally.fail(f"a loaded pack does not deal {n}: {str(e)[:60]}", text, str(e))
                return "setup"
            play_checked(g, rng, decisions, tally, shuffle_every=40)
        return "loaded"
    return bounded_case(text, tally, seconds, body)


# --------------------------------------------------------------------------- campaign
def campaign(packs: list[str], seconds: float, *, case_seconds: float = 10.0,
             decisions: int = 150, seed: int = 0, max_cases: int | None = None,
             text_share: float = 0.2) -> Tally:
    """Cases until ``seconds`` have passed (or ``max_cases``): keys in turn over every pack,
    a share of text manglings."""
    signal.signal(signal.SIGALRM, _alarm)
    rng = random.Random(seed)
    tally = Tally()
    texts = {p: (bundled_pack_dir() / f"{p}.yaml").read_text(encoding="utf-8") for p in packs}
    deadline = time.monotonic() + seconds
    i = k = 0
    while time.monotonic() < deadline and (max_cases is None or i < max_cases):
        base = packs[i % len(packs)]
        if rng.random() < text_share:
            text = mangled_text(texts[base], rng)
            kind = "mangled text"
        else:
            base = packs[k % len(packs)]  # every key meets every pack in turn
            key = KEYS[(k // len(packs)) % len(KEYS)][0]
            k += 1
            text, _ = key_pack(base, rng, first=key)
            tally.key_cases[(key, base)] += 1
            kind = "key pack"
        outcome = run_case(text, tally, random.Random(rng.randrange(2**32)), case_seconds,
                           decisions)
        tally.counts[f"{kind}: {outcome}"] += 1
        tally.counts["packs"] += 1
        i += 1
    tally.counts["keys"] = len(KEYS)
    tally.counts["keys met in every pack"] = sum(
        all(tally.key_cases[(k, p)] for p in packs) for k, _ in KEYS)
    return tally


# --------------------------------------------------------------------------- combinations
# Issue 24's keys were built on separate branches; here they meet each other and the older
# keys, with values that mean something (the key campaign's values are mostly refused), in
# packs of both meld models, played whole hands by random and greedy bots.

TABLE_PACKS = ("rummy", "rummy_500", "contract_rummy", "gin_rummy", "oklahoma_gin", "buraco")
RANK_SLOT_PACKS = ("classic_canasta", "pony_canasta", "samba", "hand_and_foot", "pony_tail")


def _base_data(base: str) -> dict:
    """A bundled pack's data, merged over the pack it extends."""
    data = yaml.safe_load((bundled_pack_dir() / f"{base}.yaml").read_text(encoding="utf-8"))
    if "extends" not in data:
        return data
    merged = _base_data(data.pop("extends"))
    _merge(merged, data)
    return merged


def _m_sheets(rng, data, table):
    sheets = [{"name": "first"}]
    for i in range(rng.randint(1, 2)):
        sheet: dict = {"name": f"s{i}", "from_win": rng.choice([0, 1, 2, 3])}
        if rng.random() < 0.5:
            sheet["target"] = rng.choice([50, 200, 1000, 3000])
        if rng.random() < 0.4:
            sheet["items"] = [{"item": "bonus", "points": rng.choice([10, 500]),
                               "when": rng.choice(["out", "out_at_once"])}]
        if rng.random() < 0.3:
            sheet["game_bonus"] = rng.choice([0, 100])
        sheets.append(sheet)
    out: dict = {"scoring": {"sheets": sheets}}
    if rng.random() < 0.5:
        out["game"] = {"sheets_end": rng.choice(["every", "first"])}
    return out


def _m_pay(rng, data, table):
    items = list(data.get("scoring", {}).get("items") or [])
    pay = {"item": "pay", "stake": rng.choice([1, 2, 10])}
    for key, words in (("per", ["hand", "point"]), ("between", ["winner", "every_pair"]),
                       ("when", ["out", "out_at_once"])):
        if rng.random() < 0.5:
            pay[key] = rng.choice(words)
    return {"scoring": {"items": items + [pay]}}


def _m_negative_unless(rng, data, table):
    items = list(data.get("scoring", {}).get("items") or [])
    if not any(i.get("item") == "bonus_cards" for i in items):
        return None
    how = rng.choice(["melded", "out", "never", "book"])
    return {"scoring": {"items": [dict(i, negative_unless=how) if i.get("item") == "bonus_cards"
                                  else i for i in items]}}


def _m_run_gaps(rng, data, table):
    left_out = rng.choice([["8", "9", "10"], ["5", "6"], ["7"], ["4", "5", "6"]])
    ranks = [r for r in RANKS[:13] if r not in left_out]
    return {"deck": {"ranks": ranks, "run_gaps": rng.choice(["skip", "skip", "stop"])}}


def _m_renew(rng, data, table):
    out: dict = {"stock": {"when_empty": rng.choice(["turn_pile", "shuffle_pile"])}}
    if table and rng.random() < 0.85:  # (a table pack without a limit: the lead's refusal)
        out["game"] = {"hand_turn_limit": rng.choice([40, 150, 500])}
    return out


def _m_turned(rng, data, table):
    if not table:
        return None
    turn: dict = {"stock_card": "turned", "turned_passes": rng.choice(["pile", "next"])}
    if rng.random() < 0.6:
        turn["forced"] = rng.choice([["turned"], ["discard"], ["turned", "discard"]])
    return {"turn": turn}


def _m_forced_discard(rng, data, table):
    return {"turn": {"forced": ["discard"]}} if table else None


def _m_turned_wild(rng, data, table):
    if not table:
        return None
    kinds = [dict(k, max_wilds=rng.choice([1, 2])) for k in data["melds"]["kinds"]]
    return {"cards": {"turned_wild": rng.choice(["rank", "next_rank"])},
            "melds": {"kinds": kinds}}


def _m_bans(rng, data, table):
    pool = [{"cards": ["7"], "unless": "book_of_rank"}, {"cards": ["JK", "2"],
                                                         "unless": "going_out"},
            {"cards": ["K", "Q"], "unless": "opened"}, {"cards": ["A"], "unless": "book"},
            {"cards": ["3", "4", "5", "6", "8", "9", "10", "J"], "unless": "going_out"}]
    if table:
        pool.append({"cards": ["QS", "7H"], "unless": "going_out"})
    bans = rng.sample(pool, rng.randint(1, 3))
    out: dict = {"pile": {"discard_bans": bans}}
    if rng.random() < 0.7:
        out["pile"]["all_banned"] = rng.choice(["lift", "pass"])
    return out


def _m_sides_form(rng, data, table):
    if table:
        return None
    return {"players": {"min": 3, "max": 5, "counts": rng.choice([[3], [3, 4], [3, 5]]),
                        "partners": "never", "partners_by_players": None,
                        "sides_form": "first_pile_take"}}


def _m_turn_limit(rng, data, table):
    return {"game": {"hand_turn_limit": rng.choice([1, 5, 30, 200])}}


def _m_free_take(rng, data, table):
    if table:
        return {"pile": {"take": rng.choice(["pile", "deep"])}}
    return {"pile": {"take_with": rng.choice([["free"], ["free", "natural_pair"]]),
                     "frozen_until_melded": rng.random() < 0.5},
            "game": {"hand_turn_limit": rng.choice([20, 200])}}


def _m_taking(rng, data, table):
    """The first upcard offered, a taken card owed at once, a drop of the hand (table packs:
    the combination that once left a player who took an offered upcard with no move)."""
    if not table:
        return None
    out = {"pile": {"first_upcard": rng.choice(["offer", "none"]),
                    "taken_melded": rng.choice(["no", "always", "until_opened"])}}
    if rng.random() < 0.5:
        out["turn"] = {"drop": sorted(rng.sample(range(5, 60, 5), 2))}
    return out


def _m_book_adds(rng, data, table):
    books = data.get("books") or {}
    kinds = [dict(k, adds=rng.choice(["any", "naturals", "wilds", "none"]))
             if rng.random() < 0.8 else k for k in books.get("kinds") or []]
    if not kinds:  # a table pack: books of sets
        kinds = [{"name": "clean", "max_wilds": 0, "value": 50,
                  "adds": rng.choice(["naturals", "none"])},
                 {"name": "dirty", "min_wilds": 1, "value": 30,
                  "adds": rng.choice(["any", "wilds", "none"])}]
        return {"books": {"size": rng.choice([4, 5, 7]), "kinds": kinds},
                "cards": {"wild": ["JK", "2"], "values": {"JK": 25}},
                "deck": {"jokers_per_deck": 2},
                "melds": {"kinds": [dict(k, max_wilds=2, max_size=None)
                                    for k in data["melds"]["kinds"]]}}
    return {"books": {"kinds": kinds}}


# the older keys they meet
def _m_win_back(rng, data, table):
    if not table:
        return None
    return {"cards": {"wild": ["JK"] + (["2"] if rng.random() < 0.5 else []),
                      "values": {"JK": 25}},
            "deck": {"jokers_per_deck": 2},
            "melds": {"kinds": [dict(k, max_wilds=rng.choice([1, 2]))
                                for k in data["melds"]["kinds"]],
                      "lay_off": {"onto": "any", "win_back": True}}}


def _m_opening(rng, data, table):
    if table:
        return {"initial_meld": {"minimums": [{"minimum": rng.choice([15, 30, 51])}]}}
    return {"initial_meld": {"minimums": [{"minimum": rng.choice([0, 50, 120])}],
                             "minimums_by_players": None}}


def _m_requires_discard(rng, data, table):
    return {"going_out": {"requires_discard": rng.random() < 0.5}}


def _m_reserve(rng, data, table):
    return {"deal": {"reserve": rng.choice([5, 11]), "hand": rng.choice([7, 11]),
                     "hand_by_players": None}} if not table or rng.random() < 0.5 else None


def _m_draw(rng, data, table):
    return {"turn": {"draw": rng.choice([1, 2, 3]), "draw_by_players": None}}


def _m_players(rng, data, table):
    return {"players": {"max": rng.choice([5, 6, 8])}} if table else None


def _m_schedule(rng, data, table):
    return {"schedule": [{"turn": {"draw": rng.choice([1, 2])}},
                         {"deal": {"hand": rng.choice([7, 9, 11])}}]}


def _knocks(data) -> bool:
    return (data.get("scoring") or {}).get("style") == "knock"


def _m_stock_end(rng, data, table):
    """The stock's end (stop 43): the next player offered the pile, or the hand over at
    once; in a table pack, the hand won on the count."""
    out: dict = {"stock": {"when_empty": rng.choice(["end_hand", "end_at_once"])}}
    if table and not _knocks(data) and rng.random() < 0.7:
        out["stock"]["empty_winner"] = "lowest_count"
    return out


def _m_wilds_stay(rng, data, table):
    """Wild cards that keep their place in a run (stop 43), with jokers won back or not."""
    if not table:
        return None
    out = _m_win_back(rng, data, table)
    out["melds"]["lay_off"]["wilds_stay"] = True
    out["melds"]["lay_off"]["win_back"] = rng.random() < 0.6
    return out


def _m_new_meld(rng, data, table):
    """A taken card owed into a new meld (stop 43), with an opening to make or not."""
    if not table or _knocks(data):
        return None
    out: dict = {"pile": {"taken_melded": rng.choice(["always", "until_opened"]),
                          "taken_new_meld": rng.random() < 0.7}}
    if rng.random() < 0.6:  # the opening a pending meld grows toward
        out["initial_meld"] = {"minimums": [{"minimum": rng.choice([15, 30, 51])}]}
    return out


def _m_winner_first(rng, data, table):
    """The winner of a hand first in the next (stop 43)."""
    return None if _knocks(data) else {"deal": {"next_hand_first": "winner"}}


def _m_rearrange(rng, data, table):
    """Melds broken up and laid again this turn (stop 44), with an opening to make or not."""
    if not table or _knocks(data):
        return None
    out: dict = {"melds": {"rearrange": True}}
    if rng.random() < 0.4:
        out["initial_meld"] = {"minimums": [{"minimum": rng.choice([15, 30])}]}
    return out


def _m_play_or_draw(rng, data, table):
    """A turn with no discard pile (stop 44): to play or to draw, or three times in ten a
    draw, then ``done`` (``turn.discard: false``); the base pack's pile keys set back to
    their defaults (the loader refuses them beside it), the table rearranged or not."""
    if not table or _knocks(data):
        return None
    from meldkit.kernel.checks import table_pile_defaults

    pile = table_pile_defaults()
    draw_first = rng.random() < 0.3  # (turn.discard: false: a draw, then done)
    turn = ({"discard": False, "forced": [], "stock_card": "hand"} if draw_first else
            {"play_or_draw": True, "drop": [], "forced": [], "stock_card": "hand"})
    return {"turn": turn,
            "deal": {"upcard": False, "reserve": 0},
            "going_out": {"requires_discard": False, "by_discard": True},
            "pile": pile, "initial_meld": {"take_before": True},
            "stock": {"when_empty": "end_hand" if draw_first else rng.choice(
                ["end_hand", "end_at_once"]),
                      "empty_winner": rng.choice(["none", "lowest_count"])},
            "melds": {"rearrange": rng.random() < 0.8}}


def _m_flex_melds(rng, data, table):
    """Flushes and runs of mixed suits (stop 45): the base's run kinds of any suits, some of
    the time, and a flush kind added."""
    if not table or _knocks(data):
        return None
    kinds = copy.deepcopy((data.get("melds") or {}).get("kinds") or [])
    for kind in kinds:
        if kind.get("type") == "run" and rng.random() < 0.7:
            kind["mixed_suits"] = True
            kind.pop("wild_natural_in_place", None)
    if rng.random() < 0.7:
        kinds.append({"name": "flush", "type": "flush", "min_size": rng.choice([3, 4, 5, 7]),
                      "max_wilds": rng.choice([0, 1, 2])})
    return {"melds": {"kinds": kinds}}


def _m_contracts(rng, data, table):
    """Contracts each player works through on their own (stop 45), of the base's kinds."""
    if not table or _knocks(data):
        return None
    names = [k.get("name") or k.get("type") for k in
             (data.get("melds") or {}).get("kinds") or []]
    if not names:
        return None
    ladder = [[rng.choice(names) for _ in range(rng.randint(1, 2))]
              for _ in range(rng.randint(1, 4))]
    return {"initial_meld": {"contracts": ladder, "melds": []}, "schedule": [],
            "players": {"partners": "never"},
            "game": {"hands": rng.choice([3, 6, 10])}}


def _m_last_turns(rng, data, table):
    """One last turn for everyone else after a player goes out (stop 46), with the keys it
    is refused beside set back (no buying, dropping, rearranging, reserves, partners or a
    turned card passed on)."""
    if not table or _knocks(data):
        return None
    return {"going_out": {"last_turns": True},
            "pile": {"buy_limit": 0}, "turn": {"drop": [], "turned_passes": "pile"},
            "melds": {"rearrange": False},
            "deal": {"reserve": 0}, "players": {"partners": "never", "teams": None}}


def _m_deal_values(rng, data, table):
    """Cards priced apart deal by deal (stop 47: ``cards.values`` in a schedule item), in a
    table pack with that deal's rank wild as in Five Crowns, half the time."""
    items = []
    for _ in range(rng.randint(2, 3)):
        rank = rng.choice(["3", "5", "7", "9", "J", "K", "A"])
        item: dict = {"cards": {"values": {rank: rng.choice([0, 5, 20, 50])}}}
        if table and rng.random() < 0.5:
            item["cards"]["wild"] = [rank]
        items.append(item)
    return {"schedule": items}


def _m_rejoin(rng, data, table):
    """Elimination with rejoining (stop 48: ``game.rejoin``): the lowest total wins, each
    player counting their cards as penalty points, out past a limit and back in at the
    highest total still in (plus one, or not), once or twice, while that total is low."""
    if not table or _knocks(data):
        return None
    limit = rng.choice([30, 60, 100])
    add = rng.choice([0, 1])
    rejoin: dict = {"add": add, "times": rng.choice([1, 2]), "least_in": 2}
    if rng.random() < 0.5:
        rejoin["while_highest_at_most"] = rng.randint(0, limit - add)
    return {"scoring": {"style": "penalty", "items": [{"item": "penalty"}], "sheets": []},
            "players": {"partners": "never", "teams": None},
            "game": {"winner": "lowest", "eliminate_above": limit, "rejoin": rejoin,
                     "hands": None, "game_bonus": 0, "box_bonus": 0,
                     "shutout_multiplier": 1, "tie": "play_on"}}  # (the base's target:
    #                                                          inherited, so not used)


MECHANISMS = {
    "sheets": _m_sheets, "pay": _m_pay, "negative_unless": _m_negative_unless,
    "run_gaps": _m_run_gaps, "renew": _m_renew, "turned": _m_turned,
    "forced_discard": _m_forced_discard, "turned_wild": _m_turned_wild, "bans": _m_bans,
    "sides_form": _m_sides_form, "turn_limit": _m_turn_limit, "free_take": _m_free_take,
    "book_adds": _m_book_adds, "taking": _m_taking,
    "stock_end": _m_stock_end, "wilds_stay": _m_wilds_stay, "new_meld": _m_new_meld,
    "winner_first": _m_winner_first, "rearrange": _m_rearrange, "play_or_draw": _m_play_or_draw,
    "flex_melds": _m_flex_melds, "contracts": _m_contracts, "last_turns": _m_last_turns,
    "deal_values": _m_deal_values, "rejoin": _m_rejoin,
}
"""Issue 24's mechanisms and later ones (stop 43's: ``stock_end`` … ``winner_first``; stop
44's ``rearrange`` and ``play_or_draw``; stop 45's ``flex_melds`` and ``contracts``; stop
46's ``last_turns``; stop 47's ``deal_values``; stop 48's ``rejoin``), each
a function ``(rng, base pack data, table?)`` giving pack data (or None where the meld
model has no such mechanism to try)."""
OLD_MECHANISMS = {
    "win_back": _m_win_back, "opening": _m_opening, "requires_discard": _m_requires_discard,
    "reserve": _m_reserve, "draw": _m_draw, "players": _m_players, "schedule": _m_schedule,
}


def _merge(into: dict, data: dict) -> None:
    for key, value in data.items():
        if isinstance(value, dict) and isinstance(into.get(key), dict):
            _merge(into[key], value)
        else:
            into[key] = copy.deepcopy(value)


def combo_pack(base: str, rng: random.Random, names: list[str]) -> tuple[str, list[str]]:
    """A child pack of ``base`` combining the mechanisms ``names`` (those that apply to its
    meld model): its text and the names used."""
    data = _base_data(base)
    table = "kinds" in (data.get("melds") or {})
    out: dict = {}
    used = []
    for name in names:
        frag = {**MECHANISMS, **OLD_MECHANISMS}[name](rng, data, table)
        if frag is not None:
            _merge(out, frag)
            used.append(name)
    text = f"extends: {base}\n" + (yaml.dump(out, Dumper=_Dumper, sort_keys=False,
                                            allow_unicode=True) if out else "")
    return text, used


HAND_DECISIONS = 40_000
"""Most decisions one hand may take in the combination campaign: a hand of a pack that
validates must end (a turn limit, an empty stock, someone out); far above the longest hand
random play of the bundled packs shows."""


def play_hands(g, bots, rng: random.Random, hands: int, tally: Tally) -> None:
    """Play ``g`` with ``bots`` until it is over or ``hands`` hands have ended, checking after
    every decision the cards' conservation, liveness, ``check`` of the chosen action and its
    notation's round trip; every so often a save's round trip and its continuation, every
    seat's view, a resample of the seat to move; a hand that takes more than
    :data:`HAND_DECISIONS` decisions is a failure."""
    deck = sum(len(ids) for ids in g.zone_cards().values())
    assert _conserved(g, deck), "a new game's cards are not one of each id"
    done = len(g.hand_results)
    in_hand = 0
    step = 0
    while not g.is_over and len(g.hand_results) - done < hands:
        legal = g.legal_actions()
        assert legal, f"not over but no legal action (phase {g.phase}, {g.history[-6:]})"
        p = g.current_player
        a = bots[p].choose(g) if bots else rng.choice(legal)
        assert a in legal, f"the bot chose {a}, not a legal action"
        why = g.check(a)
        assert why is None, f"listed {a} refused by check: {why}"
        assert g.parse_action(str(a)) == a, f"{a} does not round-trip its notation"
        if step % 53 == 7:
            text = g.to_json()
            back = type(g).from_json(text, pack=g.pack)
            assert back.to_json() == text, "a save does not round-trip"
            back.apply(a)
        else:
            back = None
        before = len(g.hand_results)
        g.apply(a)
        step += 1
        in_hand += 1
        tally.counts["combo decisions checked"] += 1
        assert _conserved(g, deck), f"cards not conserved after {a} ({g.history[-6:]})"
        if back is not None:
            assert back.to_json() == g.to_json(), f"a loaded save continues otherwise after {a}"
        if len(g.hand_results) != before:
            in_hand = 0
            tally.counts["combo hands ended"] += 1
            ended_by = g.hand_results[-1].ended_by
            tally.counts[f"combo hands ended by {ended_by}"] += 1
            if any(getattr(g.hand_results[-1].final, "rejoin", ())):
                tally.counts["combo hands after which a player rejoined"] += 1
            assert ended_by != "no_legal_move", (  # the engine's rescue of a dead end
                f"a hand dead-ended: no legal move after {a} ({g.history[-8:]})")
        assert in_hand <= HAND_DECISIONS, (
            f"a hand did not end within {HAND_DECISIONS} decisions (phase {g.phase}, "
            f"{g.history[-8:]})")
        if step % 97 == 13 and not g.is_over:
            for seat in range(g.n_players):
                json.dumps(g.view(seat))
            seat = g.current_player
            if seat is not None and seat >= 0:
                r = g.resample(seat, rng)
                assert r.view(seat) == g.view(seat), "a resample shows the seat another view"
                assert r.legal_actions() == g.legal_actions(), "a resample has other actions"
                tally.counts["combo resamples checked"] += 1
    if g.is_over:
        tally.counts["combo games played to the end"] += 1
        text = g.to_json()
        assert type(g).from_json(text, pack=g.pack).to_json() == text, "a finished save"


def run_combo(text: str, tally: Tally, rng: random.Random, seconds: float, hands: int) -> str:
    """Load ``text`` and, if it loads, write its rules sheet and play ``hands`` hands at its
    fewest and most players with random bots and again with greedy bots; the outcome's
    name."""
    from meldkit.bots import make_bot
    from meldkit.rulesheet import rules_sheet

    def body(pack) -> str:
        rules_sheet(pack)
        for n in table_sizes(pack.spec.players, 6):
            for kind in ("random", "greedy"):
                try:
                    g = meldkit.new_game(pack, players=n, seed=rng.randrange(2**32))
                except meldkit.SetupError as e:
                    tally.fail(f"a loaded pack does not deal {n}: {str(e)[:60]}", text, str(e))
                    return "setup"
                bots = None if kind == "random" else [make_bot("greedy", seed=rng.randrange(
                    2**16)) for _ in range(n)]
                play_hands(g, bots, rng, hands, tally)
        return "played"
    return bounded_case(text, tally, seconds, body, filename="combo.yaml",
                        count_refusals=True)


def combo_campaign(seconds: float, *, case_seconds: float = 60.0, hands: int = 2,
                   seed: int = 0, max_cases: int | None = None, old_share: float = 0.5,
                   always: str | None = None) -> Tally:
    """Cases until ``seconds`` have passed: each a base pack of either meld model in turn
    with two to four of issue 24's mechanisms and, half the time, one or two older ones;
    ``always``: a mechanism in every case, applied last (its settings win), to soak it."""
    signal.signal(signal.SIGALRM, _alarm)
    rng = random.Random(seed)
    tally = Tally()
    bases = [p for pair in itertools.zip_longest(TABLE_PACKS, RANK_SLOT_PACKS) for p in pair if p]
    deadline = time.monotonic() + seconds
    i = 0
    while time.monotonic() < deadline and (max_cases is None or i < max_cases):
        base = bases[i % len(bases)]
        names = rng.sample(sorted(MECHANISMS), rng.randint(2, 4))
        if rng.random() < old_share:
            names += rng.sample(sorted(OLD_MECHANISMS), rng.randint(1, 2))
        if always is not None:
            names = [n for n in names if n != always] + [always]
        text, used = combo_pack(base, rng, names)
        outcome = run_combo(text, tally, random.Random(rng.randrange(2**32)), case_seconds,
                            hands)
        tally.counts[f"combo: {outcome}"] += 1
        for name in used:
            tally.counts[f"mechanism {name}: {outcome}"] += 1
        i += 1
    return tally


def report(tally: Tally, out: Path | None, elapsed: float) -> None:
    for name, n in sorted(tally.counts.items()):
        print(f"  {name}: {n:,}")
    print(f"  distinct failures: {len(tally.failures)} ({elapsed:.0f} s)")
    for k, (sig, (text, detail)) in enumerate(sorted(tally.failures.items())):
        print(f"FAILURE {k}: {sig}")
        print("    " + detail.strip().splitlines()[-1][:300])
        if out:
            out.mkdir(parents=True, exist_ok=True)
            (out / f"pack_failure_{k}.yaml").write_text(text, encoding="utf-8")
            (out / f"pack_failure_{k}.txt").write_text(sig + "\n\n" + detail, encoding="utf-8")


def _hypothesis(packs: list[str], examples: int) -> bool:
    import test_fuzz_packs as fuzz
    from hypothesis import HealthCheck, settings

    fuzz.PACKS = tuple(packs)
    ok = True
    for test in (fuzz.test_a_mutated_pack_is_refused_or_deals_and_plays,
                 fuzz.test_a_mangled_pack_text_is_refused_or_deals_and_plays):
        run = settings(max_examples=examples, deadline=None, database=None,
                       suppress_health_check=list(HealthCheck))(test)
        try:
            run()
            print(f"{test.__name__}: ok, {examples} examples")
        except Exception:
            traceback.print_exc()
            ok = False
    return ok


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=300, help="wall time of the campaign")
    parser.add_argument("--case-seconds", type=float, default=10, help="time bound of a case")
    parser.add_argument("--decisions", type=int, default=150, help="decisions per game")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--packs", nargs="+", default=list(meldkit.available_packs()))
    parser.add_argument("--out", type=Path, default=Path("fuzz_findings"),
                        help="where failing inputs are written")
    parser.add_argument("--hypothesis", type=int, default=0, metavar="N",
                        help="also run the pytest properties with N examples each")
    parser.add_argument("--combos", action="store_true",
                        help="the combination campaign: issue 24's mechanisms together, whole "
                             "hands by random and greedy bots")
    parser.add_argument("--hands", type=int, default=2, help="hands per combination game")
    parser.add_argument("--with", dest="always", choices=sorted(MECHANISMS),
                        help="with --combos: this mechanism in every case (to soak a new one)")
    args = parser.parse_args(argv)
    start = time.monotonic()
    if args.combos:
        tally = combo_campaign(args.seconds, case_seconds=max(args.case_seconds, 60),
                               hands=args.hands, seed=args.seed, always=args.always)
        print(f"fuzz_packs --combos: {len(MECHANISMS)} mechanisms of issue 24, "
              f"{len(OLD_MECHANISMS)} older ones, bases {', '.join(TABLE_PACKS + RANK_SLOT_PACKS)}")
        report(tally, args.out, time.monotonic() - start)
        return 0 if not tally.failures else 1
    tally = campaign(args.packs, args.seconds, case_seconds=args.case_seconds,
                     decisions=args.decisions, seed=args.seed)
    print(f"fuzz_packs: {len(args.packs)} bundled packs ({', '.join(args.packs)}), "
          f"{len(KEYS)} schema keys")
    report(tally, args.out, time.monotonic() - start)
    ok = not tally.failures
    if args.hypothesis:
        ok = _hypothesis(args.packs, args.hypothesis) and ok
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
