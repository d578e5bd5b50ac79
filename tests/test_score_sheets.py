"""Several scores at once and payments between players (issue 24, item 1): score sheets
(``scoring.sheets``, ``game.sheets_end``) — each hand counted in several running games,
each with its own items, target and bonuses, in both meld models — and the ``pay`` item
with its record (``HandResult.payments``)."""

from __future__ import annotations

import json

import pytest

import meldkit
from meldkit import GameState, RulePackError, SaveError
from meldkit.bots import GreedyBot
from meldkit.kernel.sheets import Ledger, SheetRule
from meldkit.rulesheet import rules_sheet
from meldkit.scenarios import run_scenario_text

HOLLYWOOD = """extends: gin_rummy
name: hollywood_gin
scoring:
  sheets:                                    # three games at once, each to 100
    - {name: game_1, from_win: 1}            # a player's first win scores in game 1
    - {name: game_2, from_win: 2}            # the second in games 1 and 2
    - {name: game_3, from_win: 3}            # the third and later in all three
"""

PONY_SHEETS = """extends: pony_canasta
name: pony_sheets
scoring:
  sheets:
    - {name: points, target: 3000}
    - name: outs
      target: 400
      game_bonus: 50
      items: [{item: going_out}, {item: bonus, points: 100, when: out}]
game:
  sheets_end: first
"""


def _hollywood():
    return meldkit.load_pack_text(HOLLYWOOD, filename="hollywood_gin.yaml")


def _play(pack, players: int, seed: int, saves_every: int = 0):
    g = meldkit.new_game(pack, players=players, seed=seed)
    bots = [GreedyBot(seed=seed * 10 + p) for p in range(players)]
    steps = 0
    while not g.is_over:
        g.apply(bots[g.current_player].choose(g))
        steps += 1
        if saves_every and steps % saves_every == 0:
            assert GameState.from_json(g.to_json(), pack=pack) == g
    return g


# --------------------------------------------------------------------------- the ledger
def test_a_sheet_counts_a_sides_hands_from_its_nth_win_and_ends_with_its_bonuses():
    rules = (SheetRule("one", 100, 1, game_bonus=100, box_bonus=25),
             SheetRule("two", 100, 2, game_bonus=100, box_bonus=25))
    ledger = Ledger(rules, n_teams=2)
    assert [e.points for e in ledger.enter([(30, 0)] * 2, won=0)] == [(30, 0), (0, 0)]
    assert [e.points for e in ledger.enter([(0, 20)] * 2, won=1)] == [(0, 20), (0, 0)]
    assert [e.points for e in ledger.enter([(50, 0)] * 2, won=0)] == [(50, 0), (50, 0)]
    one, two = ledger.enter([(40, 0)] * 2, won=0)   # side 0 reaches 120 on sheet one
    assert (one.points, one.bonus, one.ended) == ((40, 0), ((("box", 75), ("game", 100)),
                                                            (("box", 25),)), True)
    assert (two.points, two.ended) == ((40, 0), False)
    one, two = ledger.enter([(0, 15)] * 2, won=1)   # sheet one counts no more
    assert (one.points, two.points) == ((0, 0), (0, 15))
    assert ledger.sheet_totals() == [(295, 45), (90, 15)] and not ledger.over(first=False)
    assert ledger.over(first=True)
    closed = ledger.close([one, two])            # the game ends: sheet two closes too
    assert closed[1].bonus == ((("box", 50), ("game", 100)), (("box", 25),))
    assert ledger.totals() == [295 + 240, 45 + 40]


def test_a_sheet_a_side_ends_alone_at_0_multiplies_its_winners_total():
    """Hollywood gin's shutout: a player shut out of a game (a sheet) doubles the winner's
    score on it, bonuses included (``shutout_multiplier``)."""
    rules = (SheetRule("one", 100, 1, game_bonus=100, box_bonus=25, shutout=2),
             SheetRule("two", 100, 2, game_bonus=100, box_bonus=25, shutout=2))
    ledger = Ledger(rules, n_teams=2)
    ledger.enter([(60, 0)] * 2, won=0)
    ledger.enter([(0, 30)] * 2, won=1)  # side 1 wins a hand: on sheet one only
    one, two = ledger.enter([(50, 0)] * 2, won=0)  # side 0 reaches 110 on sheet one
    assert one.ended and one.bonus == ((("box", 50), ("game", 100)), (("box", 25),))
    closed = ledger.close([one, two])  # sheet two: side 1 never scored on it
    won = 50 + 25 + 100  # the points it counted (from the second win), one box, the game
    assert closed[1].bonus == ((("box", 25), ("game", 100), ("shutout", won)), ())
    assert ledger.sheet_totals() == [(110 + 150, 30 + 25), (2 * won, 0)]
    hollywood = meldkit.load_pack_text(HOLLYWOOD + "game: {shutout_multiplier: 2}\n",
                                       filename="hollywood_gin.yaml")
    assert "where every other side has 0 on it (a shutout)" in rules_sheet(hollywood)
    g = _play(hollywood, 2, 3, saves_every=40)  # whole games save and load with it
    assert GameState.from_json(g.to_json(), pack=hollywood) == g


def test_a_tied_sheet_plays_on_unless_ties_draw():
    rules = (SheetRule("only", 50),)
    tied = Ledger(rules, 2)
    assert not tied.enter([(50, 50)], won=None)[0].ended
    assert Ledger(rules, 2, draw=True).enter([(50, 50)], won=None)[0].ended


# --------------------------------------------------------------------------- table packs
@pytest.mark.parametrize("seed", [0, 3])
def test_hollywood_gin_counts_each_hand_on_the_sheets_a_win_has_opened(seed):
    pack = _hollywood()
    g = _play(pack, 2, seed, saves_every=89)
    wins, ended = [0, 0], [False] * 3
    for h in g.hand_results:
        won = g._won(h.net)
        if won is not None:
            wins[won] += 1
        own = [s.total for s in h.scores]
        for s, e in enumerate(h.sheets):
            want = tuple(own[t] if wins[t] >= s + 1 and not ended[s] else 0 for t in (0, 1))
            assert e.points == want, (h.hand_number, e)
            ended[s] = ended[s] or e.ended
    assert all(ended) and g.is_over  # the game ends when every sheet has
    sheets = g.view(0)["sheets"]
    assert [s["name"] for s in sheets] == ["game_1", "game_2", "game_3"]
    assert [sum(s["scores"][t] for s in sheets) for t in (0, 1)] == g.scores
    for s in sheets:  # each sheet reached 100 and paid its game bonus (gin_rummy's 100)
        assert s["ended"] and max(s["scores"]) >= 200
    saved = GameState.from_json(g.to_json(), pack=pack)
    assert saved == g and saved.hand_results == g.hand_results


@pytest.mark.parametrize("end", ["first", "every"])
def test_sheets_end_first_ends_a_table_game_with_the_first_sheet_to_end(end):
    pack = meldkit.load_pack_text(
        "extends: rummy\nscoring:\n  sheets:\n    - {name: short, target: 60}\n"
        f"    - {{name: long, target: 200}}\ngame: {{sheets_end: {end}}}\n")
    g = _play(pack, 3, 4)
    short, long = g.view(0)["sheets"]
    assert short["ended"] and max(short["scores"]) >= 60
    assert (max(long["scores"]) >= 200) == (end == "every")
    assert GameState.from_json(g.to_json(), pack=pack) == g


def test_a_save_whose_sheets_do_not_follow_from_its_hands_is_refused_at_the_hand():
    pack = _hollywood()
    g = _play(pack, 2, 1)
    data = json.loads(g.to_json())
    entry = data["hand_results"][2]["sheets"][0]
    entry["points"] = [p + 1 for p in entry["points"]]
    with pytest.raises(SaveError, match=r"hand_results\[2\]\.sheets: not what the score "
                                        r"sheets count from the hands before it"):
        GameState.from_json(json.dumps(data), pack=pack)
    data = json.loads(g.to_json())
    data["hand_results"][0]["sheets"][0]["ended"] = "yes"
    with pytest.raises(SaveError, match=r"hand_results\[0\]: not a hand record"):
        GameState.from_json(json.dumps(data), pack=pack)
    plain = json.loads(_play(meldkit.load_pack("gin_rummy"), 2, 1).to_json())
    plain["hand_results"][0]["sheets"] = [{"name": "game_1", "points": [0, 0]}]
    with pytest.raises(SaveError, match=r"hand_results\[0\]\.sheets: this pack keeps one "
                                        "score"):
        GameState.from_json(json.dumps(plain))


# --------------------------------------------------------------------------- rank-slot packs
def test_a_rank_slot_pack_counts_each_sheet_with_its_own_items_and_ends_on_the_first():
    pack = meldkit.load_pack_text(PONY_SHEETS, filename="pony_sheets.yaml")
    seen_out = False
    for seed in range(3):
        g = _play(pack, 2, seed, saves_every=151)
        for h in g.hand_results:
            points, outs = h.sheets
            assert points.points == tuple(s.total for s in h.scores)
            out = h.final.went_out
            if out is not None and not outs.points == (0, 0):
                seen_out = True
                team = h.final.team_of[out]
                assert outs.points[team] >= 100 + 100  # going out, and the bonus
                assert outs.points[1 - team] == 0
        last = g.hand_results[-1].sheets
        assert all(e.ended for e in last)  # the first to end ended the game; both closed
        view = g.view(0)["sheets"]
        assert any(s["scores"][t] >= s["target"] for s in view for t in (0, 1))
        assert [sum(s["scores"][t] for s in view) for t in (0, 1)] == g.scores
        assert GameState.from_json(g.to_json(), pack=pack) == g
    assert seen_out


# --------------------------------------------------------------------------- the checks
def _refused(text: str, filename: str) -> str:
    """The loader's refusal of a pack ``text``, as printed."""
    with pytest.raises(RulePackError) as e:
        meldkit.load_pack_text(text, filename=filename)
    return str(e.value)


def test_sheets_are_checked_where_written():
    text = _refused("extends: rummy\nscoring:\n  sheets:\n    - {name: Game 1}\n"
                    "    - {name: b, from_win: 101, items: []}\n    - {name: b, target: 0}\n"
                    "    - {name: c, items: [{item: knock}, {item: pay, stake: 1}]}\n",
                    "sheets.yaml")
    assert "sheets.yaml:4:8: scoring.sheets[0].name: expected a word of lowercase" in text
    assert "scoring.sheets[1].items: an empty list scores nothing" in text
    assert "scoring.sheets[1].from_win: expected 0 to 100, got 101" in text
    assert "scoring.sheets[2].name: 'b' names two sheets" in text
    assert "scoring.sheets[2].target: expected null or 1 to 10000000, got 0" in text
    assert "scoring.sheets[3].items[0]: item 'knock' is the knock style's" in text
    assert "scoring.sheets[3].items[1]: payments are the hand's, recorded with it" in text
    with pytest.raises(RulePackError, match="game.sheets_end: first, but the pack keeps one "
                                            "score"):
        meldkit.load_pack_text("extends: pony_tail\ngame: {sheets_end: first}\n")
    with pytest.raises(RulePackError, match="sheets and game.eliminate_above do not go "
                                            "together"):
        meldkit.load_pack_text("extends: contract_rummy\ngame: {eliminate_above: 300}\n"
                               "scoring: {sheets: [{name: a}]}\n")
    with pytest.raises(RulePackError, match=r"scoring\.sheets: is read only by"):
        meldkit.load_pack_text("extends: houses\nscoring: {sheets: [{name: a}]}\n")


# --------------------------------------------------------------------------- shown
def test_the_rules_sheet_simulate_and_scenarios_show_each_sheet():
    from meldkit.rulesheet import rules_sheet
    from meldkit.simulate import format_summary, simulate, summarize

    pack = _hollywood()
    sheet = rules_sheet(pack)
    assert ("- **game_2**, to 100: counts the hand's score (above) for each side from its "
            "2nd hand won (that hand included); when it ends, its winner scores 100 and each "
            "side 25 for every hand it won that the sheet counted.") in sheet
    assert "The game ends when every sheet has ended" in sheet
    assert "its own items: going out (100)" in rules_sheet(
        meldkit.load_pack_text(PONY_SHEETS))
    records = list(simulate(pack, 2, games=2, bots=("greedy",)))
    assert [name for name, _ in records[0].sheets] == ["game_1", "game_2", "game_3"]
    assert [sum(v[t] for _, v in r.sheets) for r in records for t in (0, 1)] == [
        s for r in records for s in r.scores]
    text = format_summary(summarize(records))
    assert "sheet game_1" in text and "sheet game_3" in text
    rummy = meldkit.load_pack_text("extends: rummy\nscoring:\n  sheets:\n    - {name: every}\n"
                                   "    - {name: second, from_win: 2}\n")
    scenario = SCENARIO + ("          sheets: {every: [89, 0, 0], second: [0, 0, 0]}\n"
                           "          scores: [89, 0, 0]\n")
    assert all(r.passed for r in run_scenario_text(rummy, scenario))
    (wrong,) = run_scenario_text(rummy, scenario.replace("second: [0, 0, 0]", "third: [0]"))
    assert "there is no score sheet 'third' (the pack's: every, second)" in str(wrong)


# --------------------------------------------------------------------------- payments
def _paying(items: str, pack: str = "rummy") -> meldkit.RulePack:
    return meldkit.load_pack_text(f"extends: {pack}\nname: paying\nscoring:\n  items:\n"
                                  f"{items}", filename="paying.yaml")


OUT = ("2C 3C 4C 5C 9S 9D 9C", "KS QS JS 10S 8H 7D 6C", "AD 2D 3H 5S 6S 7S 4D")
"""Seat 0 goes out (draws KH, melds two, discards KH); seat 1 holds 61, seat 2 holds 28."""


def _out(pack) -> GameState:
    order = [c for hand in OUT for c in hand.split()] + ["QH", "KH"]
    g = meldkit.new_game(pack, players=3, seed=1, options={"first_player": 0},
                         deck_order=order)
    for move in ("draw", "meld 2C 3C 4C 5C", "meld 9C 9D 9S", "discard KH"):
        g.apply(move)
    return g


def test_each_loser_pays_the_winner_per_point_and_the_record_keeps_each_payment():
    pack = _paying("    - {item: winner_takes}\n    - {item: pay, stake: 2, per: point}\n")
    g = _out(pack)
    (hand,) = g.hand_results
    assert hand.payments == ((1, 0, 122), (2, 0, 56))
    assert [s.total for s in hand.scores] == [89 + 178, -122, -56]
    assert hand.net == (89 + 178, -61 - 122, -28 - 56) and sum(hand.net) == 0
    assert hand.to_dict()["payments"] == [[1, 0, 122], [2, 0, 56]]
    assert GameState.from_json(g.to_json(), pack=pack) == g
    data = json.loads(g.to_json())
    data["hand_results"][0]["payments"] = [[1, 0, 122]]
    with pytest.raises(SaveError, match=r"hand_results\[0\]\.payments: expected "
                                        r"\[\[1, 0, 122\], \[2, 0, 56\]\]"):
        GameState.from_json(json.dumps(data), pack=pack)


SCENARIO = (
    "scenarios:\n  - name: seat 0 goes out\n    players: 3\n    deal:\n"
    "      hands: {0: [2C, 3C, 4C, 5C, 9S, 9D, 9C], 1: [KS, QS, JS, 10S, 8H, 7D, 6C],"
    " 2: [AD, 2D, 3H, 5S, 6S, 7S, 4D]}\n      upcard: QH\n      stock: [KH]\n"
    "    steps:\n      - moves: [draw, meld 2C 3C 4C 5C, meld 9C 9D 9S, discard KH]\n"
    "        expect:\n")
"""The hands of :data:`OUT` as a scenario; its expectations follow."""


def test_every_pair_settles_the_difference_and_a_multiplier_scales_the_payments():
    pack = _paying("    - {item: pay, stake: 5, between: every_pair}\n"
                   "    - {item: multiply, by: 3, when: out}\n")
    (hand,) = _out(pack).hand_results
    assert hand.payments == ((1, 0, 15), (1, 2, 15), (2, 0, 15))
    assert hand.net == (30, -30, 0)
    text = SCENARIO + ("          payments: [[1, 0, 15], [1, 2, 15], [2, 0, 15]]\n"
                       "          hand_score: {0: {payment: 30}, 2: {payment: 0}}\n")
    assert all(r.passed for r in run_scenario_text(pack, text)), run_scenario_text(pack, text)


def test_pay_is_checked_where_written():
    text = _refused("extends: rummy\nscoring:\n  items:\n    - {item: pay}\n"
                    "    - {item: pay, stake: 1, per: card, between: all}\n"
                    "    - {item: cap, most: 50}\n", "pay.yaml")
    assert "pay.yaml:4:7: scoring.items[0]: item 'pay' needs stake" in text
    assert "scoring.items[1].per: expected one of hand, point, got 'card'" in text
    assert "scoring.items[1].between: expected one of winner, every_pair, got 'all'" in text
    assert "pay.yaml:6:7: scoring.items[2]: item 'cap' is no more" in text
    assert "item 'pay' raises the total of whoever is paid, but the lowest total wins" in \
        _refused("extends: contract_rummy\nscoring:\n  items:\n    - {item: penalty}\n"
                 "    - {item: pay, stake: 1}\n", "lowest.yaml")


def test_pay_in_a_rank_slot_pack_and_in_a_knocking_pack():
    pony = _paying("    - {item: books}\n    - {item: pay, stake: 1, per: point}\n",
                   pack="pony_canasta")
    seen = False
    for seed in range(4):
        g = meldkit.new_game(pony, players=2, seed=seed)
        bots = [GreedyBot(seed=p) for p in range(2)]
        while not g.hand_results:
            g.apply(bots[g.current_player].choose(g))
        (hand,) = g.hand_results
        out = hand.final.went_out
        if out is None:
            assert hand.payments == ()
            continue
        held = meldkit.Rules.of(pony).value_of_kind
        kinds = meldkit.Rules.of(pony).deck_kinds(2)
        owed = sum(held[kinds[c]] for c in hand.final.hands[1 - out])
        assert hand.payments == (((1 - out, out, owed),) if owed else ())
        seen = seen or bool(owed)
        assert GameState.from_json(g.to_json(), pack=pony) == g
    assert seen
    gin = _paying("    - {item: knock}\n    - {item: pay, stake: 10}\n", pack="gin_rummy")
    g = _play(gin, 2, 2)
    for hand in g.hand_results:
        won = g._won(hand.net)
        assert hand.payments == (((1 - won, won, 10),) if won is not None and
                                 hand.ended_by in ("knock", "gin", "undercut") else ())


@pytest.mark.parametrize("pack_name", ["rummy", "pony_tail"])
def test_the_sheets_end_a_game_of_fixed_hands_in_both_models_whichever_comes_first(pack_name):
    """``game.hands`` beside ``scoring.sheets``: the game ends when the sheets end
    (``sheets_end``) or after its hands, whichever comes first — in both meld models (the
    rank-slot model once played every hand though its sheets had ended)."""
    players = 4 if pack_name == "pony_tail" else 3
    pack = meldkit.load_pack_text(
        f"extends: {pack_name}\ngame: {{hands: 3, sheets_end: first}}\nscoring:\n  sheets:\n"
        "    - {name: a, target: 1}\n    - {name: b, target: 1}\n")
    g = _play(pack, players, 5)
    assert len(g.hand_results) == 1  # a sheet with a target of 1 ends at the first hand
    assert GameState.from_json(g.to_json(), pack=pack) == g


def test_a_bonus_cards_sign_condition_outside_its_words_is_refused_at_its_line():
    with pytest.raises(RulePackError, match=r"p\.yaml:4:27: scoring\.items\[0\]\."
                                            r"negative_unless: expected one of never, "
                                            r"melded, out, book, got 'sometimes'"):
        meldkit.load_pack_text("extends: pony_tail\nscoring:\n  items:\n"
                               "    - {item: bonus_cards, negative_unless: sometimes}\n",
                               filename="p.yaml")
