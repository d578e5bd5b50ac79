"""Draws (issue 24, item 5): a card turned from the stock that is never taken into the
hand — melded or laid off at once, or passed on to the pile or the next player
(``turn.stock_card: turned``, ``turn.turned_passes``) — and forcing: a card a player can
use at once must be used (``turn.forced``: the turned card, the top discard)."""

from __future__ import annotations

import json

import pytest

import meldkit
from meldkit import GameState, RulePackError, SaveError
from meldkit.testing import check_conformance, refusal, stacked_game

HANDS = {0: "5H 6H KC KD 2S 9C 4D".split(), 1: "8H 8S 8D 3C QS JD 10S".split()}


def conquian(extra: str = "") -> meldkit.RulePack:
    return meldkit.load_pack_text("extends: rummy\nname: turned\nturn: {stock_card: turned"
                                  + extra + "}\n", filename="t.yaml")


def deal(pack, stock=("7H", "AC", "2C", "3S"), upcard="QD") -> GameState:
    return stacked_game(pack, 3, hands=HANDS, upcard=upcard, stock=list(stock))


def codes(g: GameState, cards) -> list[str]:
    return [g.card_code(c) for c in cards]


def test_a_turned_card_is_melded_at_once_and_never_held():
    g = deal(conquian())
    g.apply("draw")
    assert ("turned", codes(g, g.hands[0]).count("7H")) == (g.phase, 0)
    assert {"card": "7H", "passes": 0} == g.view(1)["turned"]  # face up: every seat sees it
    assert ["meld 5H 6H 7H", "pass"] == [str(a) for a in g.legal_actions()]
    g.apply("meld 5H 6H 7H")
    assert ("play", 5, ["5H", "6H", "7H"]) == (g.phase, len(g.hands[0]),
                                                codes(g, g.melds[0].cards))
    assert g.view(1)["turned"] is None
    g.apply("discard 9C")
    assert (1, "draw") == (g.current, g.phase)


def test_a_turned_card_passed_goes_onto_the_pile_and_the_turn_ends():
    g = deal(conquian())
    g.apply("draw")
    g.apply("pass")
    assert (1, "draw", "7H", 7) == (g.current, g.phase, g.card_code(g.pile[-1]),
                                    len(g.hands[0]))
    g.apply("draw")  # seat 1 turns the AC: no use for it
    assert ["pass"] == [str(a) for a in g.legal_actions()]
    assert "turned/use-it" == refusal(g, "meld 8H 8S 8D").code  # no meld without it
    g.apply("pass")
    assert ["AC", 2] == [g.card_code(g.pile[-1]), g.current]


def test_a_turned_card_passed_on_is_the_next_players_until_all_have_passed():
    g = deal(conquian(", turned_passes: next"))
    g.apply("draw")  # seat 0 turns the 7H, and passes it on
    g.apply("pass")
    assert (1, "turned", {"card": "7H", "passes": 1}) == (g.current, g.phase,
                                                           g.view(2)["turned"])
    g.apply("pass")
    g.apply("pass")  # the third pass: every player has passed it, each pass a turn
    assert (0, "draw", "7H", None) == (g.current, g.phase, g.card_code(g.pile[-1]),
                                       g.view(0)["turned"])


def test_forcing_refuses_a_pass_of_a_turned_card_that_can_be_used():
    g = deal(conquian(", forced: [turned]"))
    g.apply("draw")
    assert ["meld 5H 6H 7H"] == [str(a) for a in g.legal_actions()]
    reason = refusal(g, "pass")
    assert ("turned/must-use", "you can use the turned 7H, so you must (turn.forced)") == (
        reason.code, reason.sentence)


def test_forcing_makes_the_next_player_take_a_discard_they_can_use_and_use_it():
    p = meldkit.load_pack_text("extends: rummy\nname: forced\nturn: {forced: [discard]}\n",
                               filename="f.yaml")
    g = deal(p, stock=("3H", "AC", "2C"))
    g.apply("draw")  # seat 0 draws the 3H
    g.apply("discard KC")
    assert ["draw", "take"] == sorted(str(a) for a in g.legal_actions())  # no use for KC
    g = deal(p, stock=("3H", "AC", "2C"), upcard="7H")
    assert ["take"] == [str(a) for a in g.legal_actions()]  # 5H 6H take the 7H
    assert "pile/must-take" == refusal(g, "draw").code
    g.apply("take")
    assert ["meld 5H 6H 7H"] == [str(a) for a in g.legal_actions()]  # used at once
    assert "pile/must-use" == refusal(g, "discard 9C").code


def test_a_turned_card_is_saved_and_checked_on_load():
    pack = conquian(", turned_passes: next")
    g = deal(pack)
    g.apply("draw")
    g.apply("pass")
    assert GameState.from_json(g.to_json(), pack=pack) == g
    d = json.loads(g.to_json())
    bad = dict(d, phase="draw")
    with pytest.raises(SaveError, match="turned: expected null in the draw phase"):
        GameState.from_json(json.dumps(bad), pack=pack)
    bad = dict(d, turned_passes=5)
    with pytest.raises(SaveError, match="turned_passes"):
        GameState.from_json(json.dumps(bad), pack=pack)
    plain = conquian()
    g2 = deal(plain)
    g2.apply("draw")
    g2.apply("pass")
    g2.apply("draw")
    d2 = json.loads(g2.to_json())
    bad = dict(d2, turned_passes=1)
    with pytest.raises(SaveError, match="turned_passes: expected 0"):
        GameState.from_json(json.dumps(bad), pack=plain)


@pytest.mark.parametrize("extra", ["", ", turned_passes: next", ", forced: [turned, discard]",
                                   ", turned_passes: next, forced: [turned]"])
def test_turned_card_packs_keep_every_invariant(extra):
    import jsonschema

    from meldkit.ai.view_schema import view_schema

    pack = conquian(extra)
    assert check_conformance(pack, players=3, games=2, hands=2) > 0
    g = deal(pack)
    g.apply("draw")
    jsonschema.validate(g.view(1), view_schema(g))
    assert len(g.observation(1)) == len(g.observation(0))
    s = g.resample(1)
    assert s.turned == g.turned and s.view(1) == g.view(1)


@pytest.mark.parametrize("text, where, message", [
    ("extends: rummy\nturn: {turned_passes: next}\n", "turn.turned_passes",
     "next, but no card is turned from the stock"),
    ("extends: rummy\nturn: {forced: [turned]}\n", "turn.forced[0]",
     "turned, but no card is turned from the stock"),
    ("extends: rummy\nturn: {forced: [discard, discard]}\n", "turn.forced[1]",
     "'discard' is listed twice"),
    ("extends: gin_rummy\nturn: {stock_card: turned}\n", "turn.stock_card",
     "turned, but scoring.style is knock"),
    ("extends: contract_rummy\nturn: {forced: [discard]}\n", "turn.forced",
     "discard, but the pack has an opening"),
    ("extends: rummy\nturn: {stock_card: turned, draw: 2}\n", "turn.stock_card",
     "turned, but a turn draws more than one card"),
    ("extends: rummy\nturn: {stock_card: turned}\ndeal: {reserve: 5}\n", "turn.stock_card",
     "turned, but the pack deals reserve piles"),
    ("extends: rummy\nturn: {stock_card: turned}\ngoing_out: {min_books: 1}\n"
     "books: {size: 4}\n", "turn.stock_card", "turned, but going out needs books"),
    ("extends: pony_tail\nturn: {stock_card: turned}\n", "turn.stock_card",
     "the table meld model"),
])
def test_turned_cards_and_forcing_are_refused_where_a_card_owed_could_have_no_use(
        text, where, message):
    with pytest.raises(RulePackError) as e:
        meldkit.load_pack_text(text, filename="bad.yaml")
    assert f"{where}: " in str(e.value) and message in str(e.value), str(e.value)
