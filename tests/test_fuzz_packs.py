"""Bounded fuzzing of rule packs (issue 11, item 5): a stranger's pack never hurts the host.

Two Hypothesis campaigns, each example bounded in work:

* **mutated data** — a bundled pack's merged data with a few keys (any key the schema
  knows, or one already written) set to hostile values or deleted;
* **mutated text** — a bundled pack's YAML text with spans deleted, repeated or spliced
  with YAML's special characters.

The property: loading either refuses with a :class:`~meldkit.RulePackError` whose every
problem names a file, or gives a pack that **deals and plays** random games to the end or
to a named stop (:class:`~meldkit.StuckGameError` ``action-limit``) — and nothing ever
raises anything but a meldkit error.  With the ``ci`` profile (100 examples each) the file
runs in well under a minute.
"""

from __future__ import annotations

import functools
import json
import time
import typing

import attrs
import pytest
from hypothesis import event, given
from hypothesis import strategies as st

import meldkit
from meldkit import MeldkitError, RulePackError, StuckGameError
from meldkit._loader import bundled_pack_dir
from meldkit._schema import RulePackSpec
from meldkit.bots import make_bot, play_game

PACKS = tuple(meldkit.available_packs())
"""Every bundled pack is fuzzed (its data and its text): the canasta kernel, the table-meld
kernel and the Houses engine."""
ACTIONS = 250
"""Actions per fuzzed game before the named stop: enough to cross hands in small games."""
SECONDS = 5.0
"""Most time one example may take (load, deal and play), even with every key at its bound."""


def _schema_paths(cls: type, prefix: tuple = ()) -> list[tuple]:
    """Every key path the schema knows (``("melds", "max_wilds")``, …)."""
    paths = []
    for field in attrs.fields(cls):
        path = prefix + (field.name,)
        paths.append(path)
        kind = field.type if not isinstance(field.type, str) else None
        if kind is None:
            kind = typing.get_type_hints(cls).get(field.name)
        if attrs.has(kind):
            paths += _schema_paths(kind, path)
    return paths


SCHEMA_PATHS = _schema_paths(RulePackSpec)

HOSTILE = st.sampled_from([
    -1, 0, 1, 2, 3, 4, 7, 13, 52, 100, 101, 500, 501, 10_000, 10**6, 10**12, 2**63,
    True, False, None, 0.5, "", "JK", "2", "3", "7", "7S", "3H", "A", "X", "banana",
    "high_card", "never", "always", "side_first", [], ["JK"], ["2", "JK"], ["7S"], ["3"],
    [1], ["A", "K"], {}, {"JK": 0}, {"7S": 5}, {"bogus": 1},
])


def _data_paths(node, prefix: tuple = ()) -> list[tuple]:
    """Every key path written in pack data, list items included (``("books", "kinds",
    0, "value")``): reaches plugin options and list entries the schema walk does not."""
    paths = []
    items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(
        node, list) else ()
    for key, child in items:
        paths.append(prefix + (key,))
        paths += _data_paths(child, prefix + (key,))
    return paths


def _set(data: dict, path: tuple, value) -> None:
    node = data
    for key in path[:-1]:
        if isinstance(node, list):
            if not (isinstance(key, int) and 0 <= key < len(node)):
                return
            child = node[key]
        else:
            child = node.get(key)
        if not isinstance(child, (dict, list)):
            child = node[key] = {}
        node = child
    last = path[-1]
    if isinstance(node, list):
        if isinstance(last, int) and 0 <= last < len(node):
            if value is _DELETE:
                del node[last]
            else:
                node[last] = value
        return
    if value is _DELETE:
        node.pop(last, None)
    else:
        node[last] = value


_DELETE = object()


def _play(pack) -> None:
    """Deal a game of the most players the pack allows (up to 16), and play one of the
    fewest with random bots."""
    meldkit.new_game(pack, players=min(pack.spec.players.max, 16), seed=5)
    players = pack.spec.players.min
    game = meldkit.new_game(pack, players=players, seed=11)
    bots = [make_bot("random", seed=s) for s in range(players)]
    try:
        play_game(game, bots, max_actions=ACTIONS)
    except StuckGameError as e:
        assert e.code == "action-limit", f"a dead end: {e}"


def _load_and_play(text: str) -> None:
    start = time.perf_counter()
    try:
        pack = meldkit.load_pack_text(text, filename="fuzzed.yaml")
    except RulePackError as e:
        assert e.problems and all(p.file and p.message for p in e.problems)
        event("refused")
        return
    except MeldkitError as e:  # pragma: no cover - shows which error leaked
        raise AssertionError(f"loading raised {type(e).__name__}, not a RulePackError") from e
    event("loaded, dealt and played")
    _play(pack)
    assert time.perf_counter() - start < SECONDS


@functools.cache
def _raw_json(name: str) -> str:
    """A bundled pack's merged data, read once per run (generation must not depend on
    files changing meanwhile)."""
    return json.dumps(meldkit.load_pack(name).raw)


@functools.cache
def _text(name: str) -> str:
    return (bundled_pack_dir() / f"{name}.yaml").read_text(encoding="utf-8")


@st.composite
def mutated_packs(draw) -> str:
    name = draw(st.sampled_from(PACKS))
    data = json.loads(_raw_json(name))
    written = _data_paths(data)
    for _ in range(draw(st.integers(1, 3))):
        path = tuple(draw(st.sampled_from(SCHEMA_PATHS + written)))
        value = draw(st.one_of(HOSTILE, st.integers(-3, 40), st.just(_DELETE)))
        _set(data, path, value)
    data.pop("extends", None)
    return json.dumps(data)  # JSON is YAML


@given(mutated_packs())
def test_a_mutated_pack_is_refused_or_deals_and_plays(text: str) -> None:
    _load_and_play(text)


SPECIALS = st.sampled_from(list("[]{}&*!|>:-?#'\",%@`<\t\n ") + ["\x00", "<<: ", "!!omap ",
                                                                 "&a ", "*a", "\u2028"])


@st.composite
def mutated_texts(draw) -> str:
    name = draw(st.sampled_from(PACKS))
    text = _text(name)
    for _ in range(draw(st.integers(1, 4))):
        i = draw(st.integers(0, len(text)))
        j = draw(st.integers(i, min(len(text), i + 40)))
        how = draw(st.sampled_from(["delete", "repeat", "insert"]))
        if how == "delete":
            text = text[:i] + text[j:]
        elif how == "repeat":
            text = text[:j] + text[i:j] * draw(st.integers(1, 50)) + text[j:]
        else:
            text = text[:i] + draw(SPECIALS) + text[i:]
    return text


@given(mutated_texts())
def test_a_mangled_pack_text_is_refused_or_deals_and_plays(text: str) -> None:
    _load_and_play(text)


# --------------------------------------------------------------------------- the campaign
def _campaign_module():
    """``benchmarks/fuzz_packs.py``: the key-driven campaign, run here with a tiny budget."""
    pytest.importorskip("yaml", reason="the campaign writes YAML with PyYAML (the docs extra)")
    import importlib
    import pathlib
    import sys

    bench = pathlib.Path(__file__).resolve().parents[1] / "benchmarks"
    if str(bench) not in sys.path:
        sys.path.insert(0, str(bench))
    return importlib.import_module("fuzz_packs")


def test_the_campaign_fuzzes_every_key_the_loader_checks_ownership_of():
    from meldkit._schema import KEY_READERS

    fp = _campaign_module()
    assert {path for path, _ in fp.KEYS} == set(KEY_READERS)
    assert {"hand_end.last_card_bonus", "scoring.concealed_needs_book"} <= set(KEY_READERS)
    rng = __import__("random").Random(3)
    for path, tp in fp.KEYS:  # every key has values of its type, written in a child pack
        text, keys = fp.key_pack("pony_tail", rng, first=path)
        assert text.startswith("extends: pony_tail\n") and keys[0] == path


def test_a_short_key_campaign_over_every_engine_finds_nothing():
    fp = _campaign_module()
    packs = ["pony_tail", "gin_rummy", "rummy", "houses"]
    tally = fp.campaign(packs, seconds=6, max_cases=16, case_seconds=5, decisions=40, seed=7)
    assert tally.counts["packs"] >= 4
    assert not tally.failures, {sig: detail[-600:] for sig, (_, detail) in
                                tally.failures.items()}
