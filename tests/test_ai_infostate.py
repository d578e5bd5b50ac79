"""Public history and information states (issue 13, item 3): who did what and where hands
begin and end, and no public history, information state or view of a player contains a
card that player has not seen (Houses' face-down passes above all)."""

from __future__ import annotations

import random
import re

import pytest
from ai_tables import seats, tables

import meldkit
from meldkit._cards import card_code
from meldkit.ai.infostate import public_history, replay_start, step_events

TABLES = tables(*[])


def deck_codes(g) -> set[str]:
    if hasattr(g, "kind_of"):
        return {card_code(k) for k in g.kind_of}
    return set(g.rules.codes)


def codes_in(text: str, deck: set[str]) -> set[str]:
    return {w for w in re.split(r"[\s(),;:\[\]'\"{}]+", text) if w in deck}


def view_codes(g, p: int, deck: set[str]) -> set[str]:
    """The card codes ``p``'s view names, but for ``wild``: the ranks wild this deal, from
    the rules (``JK``: jokers), which name no card — the same list for every seat."""
    view = g.view(p)
    assert view.pop("wild", []) == g.view((p + 1) % g.n_players).get("wild", [])
    return codes_in(str(view), deck)


def played(pack, players, actions, seed):
    rng = random.Random(seed)
    g = meldkit.new_game(pack, players=players, seed=seed)
    for _ in range(actions):
        if g.is_over:
            break
        g.apply(rng.choice(g.legal_actions()))
    return g


@pytest.mark.parametrize("pack,players", TABLES)
def test_no_event_or_view_names_a_card_the_player_has_not_seen(pack, players):
    players = seats(pack, players)
    g = played(pack, players, 250, seed=21)
    s = replay_start(g)
    deck = deck_codes(s)
    seen = [view_codes(s, p, deck) for p in range(players)]
    events = public_history(g)
    i = 1
    for n, text in enumerate(g.history):
        made = step_events(s, text, n)
        shown = codes_in(text, deck) if text.split()[0] == "discard" else set()
        for p in range(players):
            seen[p] |= view_codes(s, p, deck)  # what p sees now
            seen[p] |= shown  # a discard lies face up, even one that ends the hand at once
        for e in made:
            for p in range(players):
                named = codes_in(e.seen_by(p), deck)
                assert named <= seen[p], (n, p, e.seen_by(p), named - seen[p])
            assert e == events[i]
            i += 1
    assert i == len(events)


@pytest.mark.parametrize("pack,players", TABLES)
def test_views_name_only_cards_in_zones_the_player_may_see(pack, players):
    players = seats(pack, players)
    g = played(pack, players, 150, seed=8)
    zones = g.zone_cards()
    from meldkit.ai.infostate import card_code_of

    for p in range(players):
        hidden_only = _codes_of(g, [c for z, ids in zones.items() if _hidden(z, p, g)
                                        for c in ids])
        visible = _codes_of(g, [c for z, ids in zones.items() if not _hidden(z, p, g)
                                    for c in ids])
        named = view_codes(g, p, deck_codes(g))
        assert not (named & (set(hidden_only) - set(visible))), p
    assert card_code_of(g, 0)


def _codes_of(g, ids):
    from meldkit.ai.infostate import card_code_of

    return {card_code_of(g, c) for c in ids}


def _hidden(zone: str, p: int, g) -> bool:
    if zone in ("stock",) or zone.startswith(("reserve:", "incoming:")):
        return True
    if zone == "pile":
        return False
    if zone.startswith("hand:"):
        return zone != f"hand:{p}"
    return False


def test_houses_pass_is_face_down_in_public_history_and_the_cli_log():
    g = meldkit.new_game("houses", players=4, seed=4)
    rng = random.Random(1)
    while not any(a.type == "pass" and a.cards for a in g.legal_actions()):
        g.apply(rng.choice(g.legal_actions()))
    p = g.current_player
    a = next(a for a in g.legal_actions() if a.type == "pass" and a.cards)
    g.apply(a)
    assert g.history[-1] == str(a)  # the host's record keeps the card (for replay)
    e = [e for e in g.public_history() if e.kind == "action"][-1]
    assert e.public == "pass (a card, face down)"
    code = g.rules.codes[a.cards[0]]
    assert code not in e.public and e.seen_by(p).endswith(f"pass {code}")
    for q in range(4):
        if q != p:
            assert code not in e.seen_by(q)


def test_history_says_who_acted_and_where_hands_begin_and_end():
    g = played("gin_rummy", 2, 3000, seed=5)
    events = g.public_history()
    deals = [e for e in events if e.kind == "deal"]
    ends = [e for e in events if e.kind == "hand_end"]
    assert len(ends) == len(g.hand_results) and len(deals) >= len(ends)
    acts = [e for e in events if e.kind == "action"]
    assert len(acts) == len(g.history)
    assert [e.index for e in acts] == list(range(len(g.history)))
    assert all(e.player is not None for e in acts)
    assert "hand 1 ended" in ends[0].public and deals[0].public.startswith("hand 1 dealt")


def test_information_state_differs_only_by_what_the_player_saw():
    g = meldkit.new_game("gin_rummy", players=2, seed=1, options={"first_player": 0})
    for a in ("pass", "pass", "draw"):
        g.apply(a)
    i0, i1 = g.information_state(0), g.information_state(1)
    assert i0["events"][-1] == "seat 0: draw (gets JC)" and i1["events"][-1] == "seat 0: draw"
    assert i0["view"] == g.view(0)
    with pytest.raises(ValueError, match="seat"):
        g.information_state(5)


def test_the_terminal_player_does_not_print_an_opponents_face_down_pass(monkeypatch, capsys):
    import io

    from meldkit.cli import main

    monkeypatch.setattr("sys.stdin", io.StringIO("1\n" * 400))
    main(["play", "houses", "--seed", "3", "--bots", "random"])
    out = capsys.readouterr().out
    bot_lines = [ln for ln in out.splitlines() if ln.startswith("  seat ") and "pass" in ln]
    assert any("pass (a card, face down)" in ln for ln in bot_lines)
    assert not [ln for ln in bot_lines if re.search(r"pass [A-Z]{2}\b", ln)]


@pytest.mark.parametrize("pack,players", TABLES)
def test_every_view_follows_the_published_json_schema(pack, players):
    players = seats(pack, players)
    jsonschema = pytest.importorskip("jsonschema")
    from meldkit.ai.view_schema import view_schema

    rng = random.Random(4)
    g = meldkit.new_game(pack, players=players, seed=4)
    validator = jsonschema.Draft202012Validator(view_schema(g))
    jsonschema.Draft202012Validator.check_schema(view_schema(g))
    for step in range(200):
        if g.is_over:
            break
        if step % 10 == 0:
            for p in range(players):
                validator.validate(g.view(p))
        g.apply(rng.choice(g.legal_actions()))
