"""One view for every engine (issue 19, item 5): every bundled pack's ``view(player)`` holds
the same core, published as JSON Schema (``view.schema.json``); only the mover's view lists
legal actions and no view names a card hidden from its player; every engine's hand records
have one shape; the Cookbook's server loop runs unchanged on every bundled pack."""

from __future__ import annotations

import ast
import json
import random
import re
from pathlib import Path

import attrs
import pytest
from ai_tables import seats, tables
from test_ai_infostate import _codes_of, _hidden, deck_codes, view_codes

import meldkit
from meldkit.ai.view_schema import (
    CORE_KEYS,
    shipped_view_schema_path,
    view_schema,
    view_schema_document,
    view_schema_text,
)

jsonschema = pytest.importorskip("jsonschema")

ROOT = Path(__file__).resolve().parents[1]
TABLES = tables(("pony_canasta", 4), ("rummy", 4), ("gin_rummy", 2))
PACKS = meldkit.available_packs()


def positions(pack: str, players: int, seed: int, steps: int = 400, every: int = 7):
    """Random-play positions of one game (every ``every`` actions, and the end)."""
    rng = random.Random(seed)
    g = meldkit.new_game(pack, players=players, seed=seed)
    for step in range(steps):
        if g.is_over:
            break
        if step % every == 0:
            yield g
        g.apply(rng.choice(g.legal_actions()))
    yield g


@pytest.mark.parametrize("pack,players", TABLES)
def test_every_engines_views_follow_the_core_and_the_engines_schema(pack, players):
    players = seats(pack, players)
    core = jsonschema.Draft202012Validator(view_schema_document())
    checked = 0
    for seed in (1, 2):
        for g in positions(pack, players, seed, steps=300, every=11):
            engine = jsonschema.Draft202012Validator(view_schema(g))
            for p in range(players):
                v = g.view(p)
                core.validate(v)
                engine.validate(v)
                assert json.loads(json.dumps(v)) == v  # plain JSON data
                checked += 1
    assert checked > 10


@pytest.mark.parametrize("pack,players", TABLES)
def test_the_core_says_the_same_thing_in_every_engine(pack, players):
    players = seats(pack, players)
    for g in positions(pack, players, seed=3):
        for p in range(players):
            v = g.view(p)
            assert (pack, p, g.team_of[p], g.hand_number, g.phase, g.current_player) == (
                v["pack"], v["player"], v["team"], v["hand_number"], v["phase"],
                v["current_player"])
            assert [q for q in range(players)] == [s["seat"] for s in v["seats"]]
            assert list(g.team_of) == [s["side"] for s in v["seats"]]
            assert len(v["hand"]) == v["seats"][p]["hand_size"]
            assert list(g.scores) == [s["score"] for s in v["sides"]]
            assert [g.team_players(t) for t in range(g.n_teams)] == [
                s["seats"] for s in v["sides"]]
            assert all(g.team_of[m["owner"]] == m["side"] for m in v["melds"]
                       if m["owner"] is not None)
            if v["pile"] is not None and "cards" in v["pile"]:
                assert (v["pile"]["size"], v["pile"]["top"]) == (
                    len(v["pile"]["cards"]), (v["pile"]["cards"] or [None])[-1])


@pytest.mark.parametrize("pack,players", TABLES)
def test_only_the_movers_view_lists_legal_actions_and_they_are_the_legal_ones(pack, players):
    players = seats(pack, players)
    for g in positions(pack, players, seed=5):
        for p in range(players):
            listed = g.view(p)["legal_actions"]
            if p == g.current_player:
                assert [str(a) for a in g.legal_actions()] == listed
            else:
                assert listed is None


@pytest.mark.parametrize("pack,players", TABLES)
def test_no_view_names_a_card_hidden_from_its_player(pack, players):
    """The leak check of the information-state tests (``test_ai_infostate``), at many
    positions and for the mover's legal actions too."""
    players = seats(pack, players)
    for g in positions(pack, players, seed=8, every=5):
        zones = g.zone_cards()
        deck = deck_codes(g)
        for p in range(players):
            hidden = _codes_of(g, [c for z, ids in zones.items() if _hidden(z, p, g)
                                   for c in ids])
            visible = _codes_of(g, [c for z, ids in zones.items() if not _hidden(z, p, g)
                                    for c in ids])
            named = view_codes(g, p, deck)
            assert not named & (hidden - visible), (p, named & (hidden - visible))


def test_the_shipped_view_schema_is_this_versions_and_is_valid():
    shipped = Path(shipped_view_schema_path())
    assert shipped.read_text(encoding="utf-8") == view_schema_text(), (
        "stale: python -c 'from meldkit.ai.view_schema import view_schema_text as t; "
        "print(t(), end=\"\")' > src/meldkit/view.schema.json")
    doc = json.loads(shipped.read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(doc)
    for engine in doc["$defs"].values():
        jsonschema.Draft202012Validator.check_schema(engine)
        assert set(CORE_KEYS) <= set(engine["required"])


def test_the_core_refuses_a_view_without_its_keys():
    g = meldkit.new_game("gin_rummy", players=2, seed=1)
    v = g.view(0)
    core = jsonschema.Draft202012Validator(view_schema_document())
    for key in CORE_KEYS:
        broken = {k: x for k, x in v.items() if k != key}
        assert not core.is_valid(broken), key
    assert not core.is_valid(v | {"pile": ["5C"]})  # the old table pile (a list)


# --------------------------------------------------------------------------- hand records

RECORD_FIELDS = ["hand_number", "ended_by", "went_out", "scores", "net", "final"]


@pytest.mark.parametrize("pack", PACKS)
def test_every_engines_hand_records_have_one_shape(pack):
    from meldkit.records import HandResult

    players = seats(pack, dict(tables()).get(pack))
    rng = random.Random(2)
    g = meldkit.new_game(pack, players=players, seed=2)
    for _ in range(3000):
        if g.is_over or len(g.hand_results) >= 2:
            break
        g.apply(rng.choice(g.legal_actions()))
    assert g.hand_results, "no hand finished"
    running = [0] * g.n_teams
    for i, r in enumerate(g.hand_results):
        assert type(r) is HandResult
        assert RECORD_FIELDS + ["payments", "sheets"] == [a.name for a in
                                                          attrs.fields(HandResult)]
        assert i + 1 == r.hand_number
        assert g.n_teams == len(r.scores) == len(r.totals)
        assert len(r.net) in (g.n_teams, g.n_players)
        for s in r.scores:
            running[s.team] += s.total
        d = r.to_dict()
        assert RECORD_FIELDS == list(d) and json.loads(json.dumps(d)) == d  # (no pay, sheets)
    assert running == list(g.scores) or g.is_over  # game-end bonuses may follow the hands
    again = meldkit.GameState.from_json(g.to_json())
    assert again.hand_results == g.hand_results


# --------------------------------------------------------------------------- the Cookbook

SERVER = ("handle", "client", "serve")


def cookbook_server() -> ast.Module:
    """The Cookbook's server loop: its imports and the functions ``handle``, ``client`` and
    ``serve``, taken from the page's ```python blocks exactly as written."""
    text = (ROOT / "docs" / "cookbook.md").read_text(encoding="utf-8")
    body = []
    for block in re.findall(r"^```python\n(.*?)^```", text, re.S | re.M):
        for node in ast.parse(block).body:
            if isinstance(node, (ast.Import, ast.ImportFrom)) or (
                    isinstance(node, ast.FunctionDef) and node.name in SERVER):
                body.append(node)
    found = [n.name for n in body if isinstance(n, ast.FunctionDef)]
    assert sorted(SERVER) == sorted(found), found
    return ast.Module(body=body, type_ignores=[])


@pytest.mark.parametrize("pack", PACKS)
def test_the_cookbook_server_loop_runs_unchanged_on_every_bundled_pack(pack):
    namespace: dict = {}
    exec(compile(cookbook_server(), "docs/cookbook.md", "exec"), namespace)
    players = seats(pack, dict(tables()).get(pack))
    result = namespace["serve"](pack, players=players, seed=7, max_decisions=1500)
    assert result["decisions"] > 0
    assert result["over"] or result["decisions"] == 1500
    assert len(result["scores"]) == meldkit.new_game(pack, players=players, seed=7).n_teams
