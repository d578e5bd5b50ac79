"""Once down (``initial_meld.melds_after: false``): a player who has opened lays no new
melds, only lay-offs (Liverpool, Carioca); and lay-offs from the turn after the opening
(``initial_meld.lay_off_same_turn: false``, Carioca).  Both are contract rummy's keys from
pack authors' Liverpool and Carioca, which no key could write before."""

from __future__ import annotations

import json

import pytest

import meldkit
from meldkit import GameState, RulePackError
from meldkit.testing import refusal, stacked_game


def liverpool(extra: str = ""):
    return meldkit.load_pack_text(
        "extends: contract_rummy\nname: once_down\ninitial_meld:\n  melds_after: false\n"
        + extra, filename="once_down.yaml")


SEAT0 = "5C 5D 5H 9C 9D 9S KC KD KH 2S".split()
"""Two sets for deal 1's contract (two sets), a third set, and a deuce."""


def opened(pack):
    """Seat 0 draws the 5S and lays the contract: two sets."""
    g = stacked_game(pack, 3, hands={0: SEAT0}, upcard="8H", stock=["5S", "QD", "QS", "4H"])
    for move in ("draw", "meld 5C 5D 5H", "meld 9C 9D 9S"):
        g.apply(move)
    assert g.opened[0]
    return g


def test_once_down_a_player_lays_no_new_meld_but_may_lay_off():
    g = opened(liverpool())
    reason = refusal(g, "meld KC KD KH")
    assert reason.code == "meld/after-opening"
    assert "only lay-offs (initial_meld.melds_after: false)" in reason.sentence
    assert not any(a.type == "meld" for a in g.legal_actions())
    g.apply("add 5S to m1")  # laying off onto the opening's set: in the same turn
    assert [len(m.cards) for m in g.melds] == [4, 3]
    assert GameState.from_json(g.to_json(), pack=g.pack) == g


def test_without_the_key_an_opened_player_melds_on():
    g = opened(meldkit.load_pack("contract_rummy"))
    g.apply("meld KC KD KH")
    assert len(g.melds) == 3


def test_lay_offs_wait_for_the_turn_after_the_opening():
    pack = liverpool("  lay_off_same_turn: false\n")
    g = opened(pack)
    reason = refusal(g, "add 5S to m1")
    assert reason.code == "add/opening-turn"
    assert not any(a.type == "add" for a in g.legal_actions())
    saved = json.loads(g.to_json())
    assert saved["first_laid"] == [saved["turns"], None, None]
    assert GameState.from_json(g.to_json(), pack=pack).legal_actions() == g.legal_actions()
    g.apply("discard 2S")
    while (g.current_player, g.phase) != (0, "draw"):  # the others play; nobody buys
        moves = [str(a) for a in g.legal_actions()]
        g.apply(next((m for m in ("draw", "pass") if m in moves), moves[-1]))
    g.apply("draw")
    while g.phase == "buy":  # the draw from the stock offers the discard: nobody buys it
        g.apply("pass")
    g.apply("add 5S to m1")  # the next turn: laid off
    assert len(g.melds[0].cards) == 4


def test_a_wild_card_is_won_back_only_from_the_turn_after_the_opening_as_lay_offs_are():
    pack = liverpool("  lay_off_same_turn: false\nmelds:\n  lay_off: {onto: any, "
                     "win_back: true}\n")
    hand = "5C 5D 5H 9C 9D JK 9H KC KD 2S".split()
    g = stacked_game(pack, 3, hands={0: hand}, upcard="8H", stock=["QS", "QD", "4H", "7C"])
    for move in ("draw", "meld 5C 5D 5H", "meld 9C 9D JK"):
        g.apply(move)
    reason = refusal(g, "trade 9H to m2")  # it put the 9H into the table's set: a lay-off
    assert reason.code == "trade/opening-turn"
    assert "initial_meld.lay_off_same_turn: false" in reason.sentence
    assert not any(a.type in ("add", "trade") for a in g.legal_actions())
    same_turn = stacked_game(liverpool("melds:\n  lay_off: {onto: any, win_back: true}\n"),
                             3, hands={0: hand}, upcard="8H", stock=["QS", "QD", "4H", "7C"])
    for move in ("draw", "meld 5C 5D 5H", "meld 9C 9D JK", "trade 9H to m2"):
        same_turn.apply(move)  # without the key: in the turn it opens
    assert "JK" in same_turn.view(0)["hand"]


@pytest.mark.parametrize("text,expected", [
    ("extends: rummy\ninitial_meld:\n  melds_after: false\n",
     "t.yaml:3:3: initial_meld.melds_after: false, but the pack sets no contract or "
     "minimum"),
    ("extends: contract_rummy\ninitial_meld:\n  melds_after: false\npile:\n  taken_melded: "
     "always\n", "t.yaml:3:3: initial_meld.melds_after: false, but pile.taken_melded is "
     "always"),
    ("extends: contract_rummy\ninitial_meld:\n  melds_after: false\nmelds:\n  lay_off:\n"
     "    onto: none\n", "t.yaml:3:3: initial_meld.melds_after: false, but lay_off.onto is "
     "none: no card is ever laid off, so a player who has opened could play no card but a "
     "discard and never go out"),
    ("extends: contract_rummy\ninitial_meld:\n  lay_off_same_turn: false\n  lay_off_before: "
     "true\n", "t.yaml:3:3: initial_meld.lay_off_same_turn: false, but "
     "initial_meld.lay_off_before is true"),
    ("extends: classic_canasta\ninitial_meld:\n  melds_after: false\n",
     "t.yaml:3:3: initial_meld.melds_after"),
])
def test_each_key_is_refused_where_it_would_change_nothing_or_dead_end(text, expected):
    with pytest.raises(RulePackError) as e:
        meldkit.load_pack_text(text, filename="t.yaml")
    assert expected in str(e.value)


def test_the_rules_sheet_says_once_down_only_lay_offs_and_from_which_turn():
    from meldkit.rulesheet import rules_sheet

    sheet = rules_sheet(liverpool("  lay_off_same_turn: false\n"))
    assert ("once you have opened (see *Opening*), lay off cards on melds on the table, as "
            "many as you like, but lay down no new melds") in sheet
    assert "has **opened**, and lays off from then on, but lays down no new melds." in sheet
    assert "- A player lays off only from the turn after the one they open in." in sheet
    plain = rules_sheet(meldkit.load_pack("contract_rummy"))
    assert "no new melds" not in plain and "turn after the one they open" not in plain
