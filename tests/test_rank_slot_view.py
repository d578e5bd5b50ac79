"""The canasta family's ``view(player)`` (the rank-slot meld model) is the same data however
it is built: the fast view equals, key for key and in key order, the straightforward one it
replaced (:func:`reference_view`, kept here verbatim), at every position of random games of
every bundled rank-slot pack, every seat, a variant pack and a plugin pack; and every view is
fresh data (changing one changes neither the game nor another view)."""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest

import meldkit
from meldkit import SetupError
from meldkit import plugins as plugin_registry
from meldkit._cards import RANKS
from meldkit._game import call_hook
from meldkit._rules import SEQ, WILD
from meldkit.kernel._canasta_runs import span_text

PACKS = ("pony_tail", "pony_canasta", "classic_canasta", "samba", "hand_and_foot")
MELDING = frozenset({"meld", "add", "run", "extend", "take", "pickup"})


def reference_view(self, player: int) -> dict[str, Any]:
    """``RankSlotModel.view`` as it was written when the core schema came in (the
    reference the fast view must equal), verbatim."""
    if type(player) is not int or not 0 <= player < self.n_players:
        raise SetupError(f"player must be a seat 0..{self.n_players - 1}, not {player!r}")
    codes = self.codes
    teams = []
    sides = []
    all_melds: list[dict[str, Any]] = []  # the core's melds: each team's, as one list
    for t in range(self.n_teams):
        melds = []
        for m in self.melds[t]:
            book = None
            if len(m.cards) >= self.rules.book_size:
                k = self.rules.book_kind(m.slot, m.wild)
                book = k.name if k else None
            if m.slot == SEQ:
                melds.append({
                    "rank": "run",
                    "sequence": span_text(self.rules.seq_ranks, m.suit, m.lo, m.hi),
                    "cards": [codes[c] for c in m.cards],
                    "closed": m.closed,
                    "book": book,
                    "pending": m.pending,
                    "id": None, "owner": None, "side": t, "kind": "run",
                })
                continue
            melds.append({
                "rank": "wild" if m.slot == WILD else RANKS[m.slot],
                "cards": [codes[c] for c in m.cards],
                "closed": m.closed,
                "book": book,
                "pending": m.pending,
                "id": None, "owner": None, "side": t,
                "kind": "wild" if m.slot == WILD else "set",
            })
        all_melds += melds  # the same records in "teams" and in "melds"
        seats = self.team_players(t)
        teams.append({
            "team": t,
            "players": seats,
            "score": self.scores[t],
            "melded": self.melded[t],
            "minimum": self.initial_minimum(t),
            "melds": melds,
        })
        sides.append({"side": t, "seats": seats[:], "score": self.scores[t]})
    team_of, hand_size = self.team_of, self.hand_size
    players = [{
        "seat": q,
        "team": team_of[q],
        "hand_size": hand_size[q],
        "reserve_size": len(self.reserves[q]),
        "reserve_picked_up": self.reserve_taken[q],
        "bonus": [codes[c] for c in self.bonus[q]],
        "out": self.out[q],
    } for q in range(self.n_players)]
    v: dict[str, Any] = {  # the core (ai/view_schema.CORE), then this engine's keys
        "pack": self.rules.name,
        "player": player,
        "team": team_of[player],
        "hand_number": self.hand_number,
        "phase": self.phase,
        "current_player": self.current_player,
        "dealer": self.dealer,
        "hand": self.hand_codes(player),
        "seats": [{"seat": q, "side": team_of[q], "hand_size": hand_size[q]}
                  for q in range(self.n_players)],
        "sides": sides,
        "melds": all_melds,
        "stock_size": len(self.stock),
        "pile": {
            "top": codes[self.pile[-1]] if self.pile else None,
            "size": len(self.pile),
            "frozen": self.pile_frozen,
        },  # squared up: only the top is seen (no "cards")
        "knock": None,
        "deadwood": None,
        "legal_actions": ([str(a) for a in self.legal_actions()]
                          if self.current_player == player else None),
        "you": player,
        "players": players,
        "teams": teams,
        "formed_sides": None if self.side_of is self.team_of else list(self.side_of),
        "sheets": None,  # (added with scoring.sheets; no pack here keeps sheets)
    }
    if self.plugin is not None:
        extra = call_hook(self.plugin.name, "view", self.plugin.view, self, player)
        if extra is not None:
            v["plugin"] = extra
    return v



def games(pack, seeds, players=4, warm=True, melding=True, limit=3000):
    """Every position of seeded random games of ``pack`` (``melding``: melds, lay-offs and
    pile takes first, as ``RandomBot`` plays, so that hands end and tables fill), the end
    included; with ``warm`` False the legal actions are not asked for before the position
    is handed out."""
    for seed in seeds:
        rng = random.Random(seed)
        g = meldkit.new_game(pack, players=players, seed=seed)
        for _ in range(limit):
            if warm:
                g.legal_actions()
            yield g
            if g.is_over:
                break
            acts = g.legal_actions()
            if melding:
                acts = [a for a in acts if a.type in MELDING] or acts
            g.apply(acts[rng.randrange(len(acts))])


def same(g, p):
    v, ref = g.view(p), reference_view(g, p)
    assert v == ref
    assert json.dumps(v) == json.dumps(ref)  # the same keys in the same order


def kinds_seen(g, seen):
    """Count what the position shows (so a test proves it compared every kind of record)."""
    seen["over"] += g.is_over
    seen["mover"] += g.current_player is not None
    for ms in g.melds:
        for m in ms:
            seen["run" if m.slot == SEQ else "wild" if m.slot == WILD else "set"] += 1
            seen["book"] += len(m.cards) >= g.rules.book_size
            seen["closed"] += m.closed
            seen["pending"] += m.pending
    seen["bonus"] += any(g.bonus)
    seen["reserve"] += any(g.reserves)
    seen["out"] += any(g.out)
    seen["frozen"] += bool(g.pile_frozen)
    seen["empty_pile"] += not g.pile
    seen["hand>1"] += g.hand_number > 1


@pytest.mark.parametrize("pack", PACKS)
def test_the_view_is_the_reference_view_at_every_position(pack):
    seen, n = Counter(), 0
    for g in games(pack, range(3)):
        for p in range(g.n_players):
            same(g, p)
        kinds_seen(g, seen)
        n += 1
    wanted = ("over", "mover", "set", "book", "pending", "hand>1", "empty_pile")
    assert n > 1000 and all(seen[k] for k in wanted), seen  # every kind was compared


def test_what_only_some_packs_have_was_compared():
    seen = Counter()
    for pack in PACKS:
        for i, g in enumerate(games(pack, [22], warm=False)):
            if i % 10 == 0:  # out of the hand (rare in random play): flags turned over
                g = g.clone()
                g.out = [not o for o in g.out]
            kinds_seen(g, seen)
            for p in range(g.n_players):
                same(g, p)
    assert all(seen[k] for k in ("run", "wild", "closed", "bonus", "reserve", "out",
                                 "frozen")), seen


@pytest.mark.parametrize("pack, players", [("pony_tail", 6), ("pony_canasta", 2),
                                            ("pony_canasta", 3), ("pony_canasta", 16),
                                            ("classic_canasta", 6), ("samba", 4)])
def test_other_tables_and_uniform_random_play(pack, players):
    """Every seat's view at every position; at more than six seats, the player to move's
    and one other seat's in turn (each seat about fifty times)."""
    for melding in (True, False):
        for i, g in enumerate(games(pack, [5], players=players, melding=melding, limit=400)):
            seats = range(g.n_players) if players <= 6 else {i % players,
                                                              g.current_player or 0}
            for p in seats:
                same(g, p)


SMALL = """\
extends: samba
name: rank_slot_view_small
"""


def test_the_view_of_a_variant_pack_is_the_reference_view():
    pack = meldkit.load_pack_text(SMALL)
    for g in games(pack, range(2)):
        assert g.rules.name == "rank_slot_view_small"
        for p in range(g.n_players):
            same(g, p)


PLUGIN = "rank_slot_view_plugin"


class _Extra(meldkit.Plugin):
    """Pony Tail whose view adds what the position is (or nothing, on odd hands)."""

    name = PLUGIN

    def view(self, state, player):
        if state.hand_number % 2:
            return None
        return {"seen_by": player, "stock": len(state.stock)}


def test_the_view_of_a_plugin_pack_is_the_reference_view():
    if PLUGIN not in plugin_registry._registry:
        plugin_registry.register(_Extra())
    pack = meldkit.load_pack_text(f"extends: pony_tail\nname: rank_slot_view_plugin\n"
                                  f"plugin: {PLUGIN}\n")
    with_extra = 0
    for g in games(pack, [2]):
        for p in range(g.n_players):
            same(g, p)
        with_extra += "plugin" in g.view(0)
    assert with_extra


def test_the_view_of_a_clone_a_restored_game_and_after_undo_is_the_reference_view():
    for pack in ("samba", "hand_and_foot"):
        for i, g in enumerate(games(pack, [3])):
            if i % 7:
                continue
            for h in (g.clone(), meldkit.GameState.from_json(g.to_json())):
                for p in range(h.n_players):
                    same(h, p)
    g = meldkit.new_game("samba", players=4, seed=5)
    rng = random.Random(5)
    for _ in range(150):
        before = [reference_view(g, p) for p in range(4)]
        g.view(0)
        g.apply(rng.choice(g.legal_actions()))
        g.view(g.current_player if not g.is_over else 0)
        g.undo()
        assert [g.view(p) for p in range(4)] == before
        g.apply(rng.choice(g.legal_actions()))
        if g.is_over:
            break


def _scribble(v):
    """Change every list and dict a view holds."""
    for m in v["melds"]:
        m["cards"].append("XX")
        m["book"] = "scribbled"
    for t in v["teams"]:
        t["players"].append(9)
        t["melds"].append({})
        t["score"] = -1
    for q in v["players"]:
        q["bonus"].append("XX")
        q["hand_size"] = -1
    for s in v["sides"]:
        s["seats"].append(9)
    for s in v["seats"]:
        s["hand_size"] = -1
    v["hand"].append("XX")
    v["pile"]["top"] = "XX"
    if v["legal_actions"] is not None:
        v["legal_actions"].append("XX")
    v["melds"].append({})
    v["seats"].append({})
    v["sides"].append({})
    v["players"].append({})


@pytest.mark.parametrize("pack", ["samba", "hand_and_foot", "pony_tail"])
def test_every_view_is_fresh_data(pack):
    changed = 0
    for i, g in enumerate(games(pack, [7])):
        if i % 3 or not any(g.melds):
            continue
        before = json.dumps([reference_view(g, p) for p in range(4)])
        saved = g.to_json()
        for p in range(4):
            _scribble(g.view(p))
        assert json.dumps([g.view(p) for p in range(4)]) == before
        assert json.dumps([reference_view(g, p) for p in range(4)]) == before
        assert g.to_json() == saved
        changed += 1
    assert changed > 20


def test_a_view_shares_no_list_or_dict_with_another_view():
    def containers(x, out):
        if isinstance(x, (list, dict)):
            out.append(x)
            for y in (x.values() if isinstance(x, dict) else x):
                containers(y, out)
        return out

    for i, g in enumerate(games("samba", [9])):
        if i % 5:
            continue
        a, b = g.view(0), g.view(0)
        ids_a = {id(c) for c in containers(a, [])}
        assert not ids_a & {id(c) for c in containers(b, [])}
        # within one view only the meld records are shared: "melds" and "teams" hold them
        shared = [m for t in a["teams"] for m in t["melds"]]
        assert [id(m) for m in shared] == [id(m) for m in a["melds"]]


@pytest.mark.parametrize("bad", [-1, 4, True, 1.0, "0", None])
def test_a_view_for_no_seat_is_refused(bad):
    g = meldkit.new_game("pony_tail", players=4, seed=1)
    with pytest.raises(SetupError, match="player must be a seat 0..3"):
        g.view(bad)
