"""Houses' ``view(player)`` is the same data however it is built: the fast view equals, key
for key and in key order, the straightforward one it replaced (:func:`reference_view`, kept
here verbatim), at many positions of random games, every seat, the standard pack and a
variant; and every view is fresh data (changing one changes neither the game nor another
view)."""

from __future__ import annotations

import json
import random

import pytest

import meldkit
from meldkit import SetupError
from meldkit.houses._engine import ANSWER

SMALL = """\
extends: houses
name: houses_view_small
options:
  group_spaces: 3
  group_max: 3
"""


def reference_view(self, player: int) -> dict:
    """``HousesState.view`` as it was written when the core schema came in (the reference
    the fast view must equal)."""
    code = self.rules.codes
    team_of, hands = self.team_of, self.hands
    mover = self.current_player == player
    groups = [[[code[c] for c in g] for g in self.groups[q]] for q in range(self.n_players)]
    return {
        "pack": self.pack.name,
        "player": player,
        "team": team_of[player],
        "hand_number": self.hand_number,
        "phase": self.phase,
        "current_player": self.current_player,
        "dealer": None,
        "hand": sorted(code[c] for c in hands[player]),
        "seats": [{"seat": q, "side": team_of[q], "hand_size": len(hands[q])}
                  for q in range(self.n_players)],
        "sides": [{"side": t, "seats": self.team_players(t), "score": self.scores[t]}
                  for t in range(self.n_teams)],
        "melds": [{"id": str(s_i + 1), "owner": q, "side": team_of[q], "kind": "group",
                   "cards": g, "closed": False, "book": None, "pending": False}
                  for q, spaces in enumerate(groups) for s_i, g in enumerate(spaces) if g],
        "stock_size": len(self.stock),
        "pile": None,
        "knock": None,
        "deadwood": None,
        "legal_actions": [str(a) for a in self.legal_actions()] if mover else None,
        "you": player,
        "players": [{
            "seat": q,
            "team": self.team_of[q],
            "hand_size": len(self.hands[q]),
            "passed_card_waiting": self.incoming[q] >= 0,
            "groups": [g[:] for g in groups[q]],
            "removed": [[code[c] for c in g] for g in self.removed[q]],
        } for q in range(self.n_players)],
        "scores": list(self.scores),
        "proposal_pending": self.phase == ANSWER,
    }


def games(pack, seeds, warm=True):
    """Every position of random games of ``pack`` (seeded), the end included; with ``warm``
    False the legal actions are not asked for before the position is handed out."""
    for seed in seeds:
        rng = random.Random(seed)
        g = meldkit.new_game(pack, players=4, seed=seed)
        while True:
            if warm:
                g.legal_actions()
            yield g
            if g.is_over:
                break
            acts = g.legal_actions()
            g.apply(acts[rng.randrange(len(acts))])


def same(g, p):
    v, ref = g.view(p), reference_view(g, p)
    assert v == ref
    assert json.dumps(v) == json.dumps(ref)  # the same keys in the same order


@pytest.mark.parametrize("warm", [True, False])
def test_the_view_is_the_reference_view_at_every_position(warm):
    seen = {ANSWER: 0, "over": 0, "removed": 0, "waiting": 0}
    n = 0
    for g in games("houses", range(8), warm):
        for p in range(4):
            same(g, p)
        n += 1
        seen[ANSWER] += g.phase == ANSWER
        seen["over"] += g.is_over
        seen["removed"] += any(g.removed)
        seen["waiting"] += any(c >= 0 for c in g.incoming)
    assert n > 1000 and all(seen.values()), seen  # every kind of position was compared


def test_the_view_of_a_variant_pack_is_the_reference_view():
    pack = meldkit.load_pack_text(SMALL)
    for g in games(pack, range(4)):
        assert len(g.groups[0]) == 3
        for p in range(4):
            same(g, p)


def test_the_view_of_a_clone_a_restored_game_and_after_undo_is_the_reference_view():
    for g in games("houses", [3]):
        for h in (g.clone(), meldkit.GameState.from_json(g.to_json())):
            for p in range(4):
                same(h, p)
    g = meldkit.new_game("houses", players=4, seed=5)
    rng = random.Random(5)
    for _ in range(60):
        before = [reference_view(g, p) for p in range(4)]
        g.view(0)
        g.apply(rng.choice(g.legal_actions()))
        g.view(g.current_player if not g.is_over else 0)
        g.undo()
        assert [g.view(p) for p in range(4)] == before
        g.apply(rng.choice(g.legal_actions()))
        if g.is_over:
            break


def test_every_view_is_fresh_data():
    for g in games("houses", [7]):
        if not (any(any(s) for s in g.groups) and any(g.removed)):
            continue
        before = json.dumps([reference_view(g, p) for p in range(4)])
        for p in range(4):
            v = g.view(p)
            for m in v["melds"]:
                m["cards"].append("XX")
                m["id"] = "9"
            for q in v["players"]:
                for grp in q["groups"] + q["removed"]:
                    grp.append("XX")
                q["groups"].append([])
                q["removed"].append([])
            for s in v["sides"]:
                s["seats"].append(9)
            for s in v["seats"]:
                s["hand_size"] = -1
            v["hand"].append("XX")
            v["scores"].append(9)
            if v["legal_actions"] is not None:
                v["legal_actions"].append("XX")
        assert json.dumps([g.view(p) for p in range(4)]) == before
        assert json.dumps([reference_view(g, p) for p in range(4)]) == before
        if g.is_over:
            break


def test_the_view_is_the_same_with_its_code_memo_cleared_often_or_removed_groups_as_lists(
        monkeypatch):
    import meldkit.houses._engine as engine

    monkeypatch.setattr(engine, "_VIEW_CODES_MAX", 3)
    lists = 0
    for g in games("houses", [11]):
        for p in range(4):
            same(g, p)
        if any(g.removed):
            h = g.clone()
            h.removed = [[list(grp) for grp in gs] for gs in h.removed]
            for p in range(4):
                same(h, p)
            lists += 1
    assert lists
    assert len(g.rules.view_codes) <= 3


@pytest.mark.parametrize("bad", [-1, 4, True, 1.0, "0", None])
def test_a_view_for_no_seat_is_refused(bad):
    g = meldkit.new_game("houses", players=4, seed=1)
    with pytest.raises(SetupError, match="player must be a seat 0..3"):
        g.view(bad)
