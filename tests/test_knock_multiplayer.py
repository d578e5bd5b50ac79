"""Knocking with more than two players: a knock settles with every defender, the knocker
against each (``knock.settle: knocker``, gin's terms pair by pair) or the lowest count
against everyone (``settle: lowest``, Knock Rummy); the defenders lay off and meld one
after another from the knocker's left; what no knocking pack supports is refused."""

from __future__ import annotations

import itertools

import attrs
import pytest
from knock_play import bot_games, cards_of

import meldkit
from meldkit import RulePackError
from meldkit.kernel.scoring import (KnockTerms, TableFinal, knock_outcome, knock_settlement,
                                    preset_items, score)
from meldkit.testing import check_conformance, refusal, stacked_game

GIN_3 = "extends: gin_rummy\nname: gin_3\nplayers: {min: 2, max: 4}\n"
"""Gin rummy (OpenSpiel's terms: ties score nothing, no big gin) for two to four."""

GIN = KnockTerms(gin_bonus=25, big_gin_bonus=31, undercut_bonus=25, tie_is_undercut=True)
LOWEST = attrs.evolve(GIN, settle="lowest")


def refusals(text: str) -> list[str]:
    with pytest.raises(RulePackError) as e:
        meldkit.load_pack_text(text, filename="k.yaml")
    return [str(p) for p in e.value.problems]


def scored(deadwood, terms, knocker=0, **kw):
    final = TableFinal(team_of=tuple(range(len(deadwood))), deadwood=tuple(deadwood),
                       ended_by="knock", went_out=knocker, **kw)
    lines, net, ending = score(final, preset_items("knock", terms), zero_sum=True)
    return {s.team: s.items for s in lines if s.items}, net, ending


# --------------------------------------------------------------------------- the knock item


def test_the_knocker_settles_with_each_defender_as_two_player_gin_would():
    assert scored((5, 20, 9), GIN) == ({0: (("deadwood", 19),)}, (19, -15, -4), "knock")
    # seat 2 undercuts (3 < 5): the difference and the bonus, whatever seat 1 pays
    assert scored((5, 20, 3), GIN) == (
        {0: (("deadwood", 15),), 2: (("deadwood", 2), ("undercut", 25))}, (-12, -15, 27),
        "undercut")
    # a tie undercuts here; where it does not (OpenSpiel's gin) that pair scores nothing
    assert scored((5, 20, 5), GIN)[1] == (-10, -15, 25)
    assert scored((5, 20, 5), attrs.evolve(GIN, tie_is_undercut=False)) == (
        {0: (("deadwood", 15),)}, (15, -15, 0), "knock")


def test_gin_and_big_gin_score_their_bonus_from_each_defender():
    assert scored((0, 12, 4, 30), GIN) == (
        {0: (("deadwood", 46), ("gin", 75))}, (121, -37, -29, -55), "gin")
    assert scored((0, 12, 4), GIN, big_gin=True, multiplier=2) == (
        {0: (("deadwood", 32), ("big_gin", 124))}, (156, -86, -70), "big_gin")


def test_a_knock_by_a_later_seat_settles_with_the_seats_after_it_in_turn():
    ending, payments = knock_settlement((9, 4, 20), 1, LOWEST)
    assert ("knock", [(2, 1, "knock", 16, 0), (0, 1, "knock", 5, 0)]) == (ending, payments)
    assert scored((9, 4, 20), GIN, knocker=1)[1] == (-5, 21, -16)


def test_the_lowest_count_collects_the_difference_from_everyone():
    assert scored((5, 20, 9), LOWEST) == ({0: (("deadwood", 19),)}, (19, -15, -4), "knock")
    # not the knocker: the knocker pays the difference and the undercut bonus
    assert scored((5, 20, 3), LOWEST) == (
        {2: (("deadwood", 19), ("undercut", 25))}, (-27, -17, 44), "undercut")
    # a defender tied with the knocker wins where ties undercut, else the knocker does
    assert scored((5, 20, 5), LOWEST)[1] == (-25, -15, 40)
    assert scored((5, 20, 5), attrs.evolve(LOWEST, tie_is_undercut=False))[1] == (15, -15, 0)
    # defenders tied for the lowest: the first in turn after the knocker (seat 3, then 0)
    assert scored((3, 8, 10, 3), LOWEST, knocker=1) == (
        {3: (("deadwood", 12), ("undercut", 25))}, (0, -30, -7, 37), "undercut")
    assert scored((0, 0, 7), LOWEST) == ({0: (("deadwood", 7), ("gin", 50))}, (57, -25, -32),
                                        "gin")  # gin is never undercut


def test_with_two_players_both_settlements_are_gins_own():
    for terms in (GIN, attrs.evolve(GIN, tie_is_undercut=False, big_gin_bonus=None)):
        for k, d, big, mult in itertools.product(range(0, 13, 3), range(0, 13, 2),
                                                 (False, True), (1, 2)):
            both = [scored((k, d), t, big_gin=big, multiplier=mult)
                    for t in (terms, attrs.evolve(terms, settle="lowest"))]
            assert both[0] == both[1]
            ending, points = knock_outcome(k, d, terms, big)
            assert (both[0][1][0], both[0][2]) == (points * mult, ending)


# --------------------------------------------------------------------------- what is refused


def test_knocking_packs_load_for_more_players_and_refuse_partners_where_written():
    assert meldkit.load_pack_text(GIN_3).spec.players.max == 4
    assert ["k.yaml:2:29: players.partners: optional, but with knock scoring each player's "
            "deadwood is settled on its own against the knocker's (or the lowest count's, "
            "knock.settle), so partners would pay each other: a knocking pack is played "
            "without partners (write never)"] == refusals(
        "extends: gin_rummy\nplayers: {max: 4, teams: 2, partners: optional}\n")


def test_settle_lowest_is_refused_where_it_could_change_nothing():
    assert ["k.yaml:2:9: knock.settle: lowest, but this pack is played by two players, "
            "where the lowest count is the knocker's or the one defender's and the knock "
            "settles as knock.settle: knocker does: remove it (it settles a knock with "
            "several defenders)"] == refusals("extends: gin_rummy\nknock: {settle: lowest}\n")
    assert ["k.yaml:2:9: knock.settle: lowest, but nobody knocks (knock.max_deadwood is "
            "null), so no knock is settled: set knock.max_deadwood and scoring.style: knock, "
            "or remove it"] == refusals("extends: rummy\nknock: {settle: lowest}\n")
    assert ["k.yaml:4:33: scoring.items[0].settle: item 'knock' takes its settle from the "
            "pack's knock keys (knock.settle)"] == refusals(
        GIN_3 + "scoring: {items: [{item: knock, settle: lowest}]}\n")


def test_dropping_in_a_knocking_pack_is_refused_with_its_reason():
    (problem,) = refusals(GIN_3 + "turn: {drop: [20, 40]}\n")
    assert problem.endswith("turn.drop: dropping is for packs that meld during play; in a "
                            "knocking pack every player stays in the hand until a knock "
                            "settles it against them")


# --------------------------------------------------------------------------- stacked hands

KNOCKER = "AS 2S 3S 7C 7D 7H KC KD KH 2D"  # with the QD drawn and discarded: 2 (the 2D)
KNOCKER_MELDS = ("meld AS 2S 3S", "meld 7C 7D 7H", "meld KC KD KH")
FIRST = "9C 9D 9H JD QC QS 2H 3H 6D 4S"   # the 9s melded, the 4S laid off on m1: 41
SECOND = "5S 8C 8D 8H AD AH 4C 5C 6C 3D"  # the 8s and 4C-6C melded, the 5S laid off: 5


def knocked(pack=GIN_3, knocker=KNOCKER, first=FIRST, second=SECOND, melds=KNOCKER_MELDS):
    """Three players: seat 0 draws the QD, knocks discarding it and lays ``melds``."""
    if isinstance(pack, str):
        pack = meldkit.load_pack_text(pack)
    g = stacked_game(pack, 3, hands={0: knocker.split(), 1: first.split(),
                                     2: second.split()}, upcard="KS", stock=["QD"])
    for move in ("pass", "pass", "pass", "draw", "knock", "discard QD", *melds, "done"):
        g.apply(move)
    return g


def legal(g) -> list[str]:
    return sorted(str(a) for a in g.legal_actions())


def test_two_defenders_lay_off_on_the_knockers_melds_in_turn_and_both_pay_the_knocker():
    g = knocked()
    assert ("layoff", 1, ["add 4S to m1", "done"]) == (g.phase, g.current_player, legal(g))
    assert refusal(g, "add 5S to m1").code == "hand/missing-card"  # seat 2's card
    g.apply("add 4S to m1")
    g.apply("done")  # seat 1 now lays its own melds
    assert "add 4S to m1" not in legal(g) and "meld 9C 9D 9H" in legal(g)
    g.apply("meld 9C 9D 9H")
    g.apply("done")
    # seat 2's 5S fits m1 only now that seat 1 has laid the 4S on it
    assert (2, ["add 5S to m1", "done"]) == (g.current_player, legal(g))
    for move in ("add 5S to m1", "done", "meld 8C 8D 8H", "meld 4C 5C 6C", "done"):
        g.apply(move)
    hr = g.hand_results[-1]
    assert (hr.ended_by, hr.went_out, hr.final.deadwood, hr.net) == (
        "knock", 0, (2, 41, 5), (42, -39, -3))
    assert [s.items for s in hr.scores] == [(("deadwood", 42),), (), ()]
    assert g.scores == [42, 0, 0]


def test_one_of_two_defenders_undercuts_the_knocker_and_the_other_still_pays():
    knocker = KNOCKER.replace("2D", "6H")  # 6 of deadwood
    g = knocked(pack=GIN_3 + "knock: {tie_is_undercut: true}\n", knocker=knocker)
    for move in ("add 4S to m1", "done", "meld 9C 9D 9H", "done",
                 "add 5S to m1", "done", "meld 8C 8D 8H", "meld 4C 5C 6C", "done"):
        g.apply(move)
    hr = g.hand_results[-1]
    # seat 1 pays 41 - 6; seat 2 (5) undercuts: 1 and the bonus of 25 from the knocker
    assert (hr.ended_by, hr.final.deadwood, hr.net) == ("undercut", (6, 41, 5), (9, -35, 26))
    assert [s.items for s in hr.scores] == [
        (("deadwood", 35),), (), (("deadwood", 1), ("undercut", 25))]
    assert g.scores == [35, 0, 26]


def test_gin_with_three_players_takes_the_bonus_from_each_defender_who_lays_nothing_off():
    g = knocked(knocker="AS 2S 3S 4S 7C 7D 7H KC KD KH", first=FIRST.replace("4S", "5H"),
                melds=("meld AS 2S 3S 4S", "meld 7C 7D 7H", "meld KC KD KH"))
    assert (1, ["done", "meld 9C 9D 9H"]) == (g.current_player, legal(g))  # no lay-off
    g.apply("meld 9C 9D 9H")
    g.apply("done")
    assert (2, ["done", "meld 4C 5C 6C", "meld 8C 8D 8H"]) == (g.current_player, legal(g))
    why = refusal(g, "add 5S to m1")  # it would fit m1, but not after gin
    assert ("add/after-gin", "nobody lays off on gin: the knocker melded every card "
            "(knock.lay_off_on_gin: false)") == (why.code, why.sentence)
    for move in ("meld 8C 8D 8H", "meld 4C 5C 6C", "done"):
        g.apply(move)
    hr = g.hand_results[-1]
    # seat 1 holds 46, seat 2 the 5S and 5 more (10); each pays that and the gin bonus
    assert (hr.ended_by, hr.final.deadwood, hr.net) == ("gin", (0, 46, 10), (106, -71, -35))
    assert hr.scores[0].items[:2] == (("deadwood", 56), ("gin", 50))
    assert g.is_over and g.scores[0] == 106 + 25 + 100  # the box and game bonuses


def test_big_gin_with_three_players_melds_every_card_without_a_discard():
    pack = meldkit.load_pack_text(GIN_3 + "knock: {big_gin_bonus: 31, test: best_discard}\n")
    g = stacked_game(pack, 3, hands={0: "AS 2S 3S 4S 7C 7D 7H KC KD KH".split(),
                                     1: FIRST.replace("4S", "10H").split(),
                                     2: SECOND.replace("5S", "JS").split()},
                     upcard="KS", stock=["5S"])
    for move in ("pass", "pass", "pass", "draw", "knock", "meld AS 2S 3S 4S 5S",
                 "meld 7C 7D 7H", "meld KC KD KH", "done"):
        g.apply(move)
    for seat, melds in ((1, ["meld 9C 9D 9H"]), (2, ["meld 8C 8D 8H", "meld 4C 5C 6C"])):
        assert (seat, "layoff") == (g.current_player, g.phase)
        for move in (*melds, "done"):
            g.apply(move)
    hr = g.hand_results[-1]
    # seat 1 holds 51, seat 2 15: each pays that and the big gin bonus of 31
    assert (hr.ended_by, hr.final.deadwood, hr.net) == ("big_gin", (0, 51, 15), (128, -82, -46))


def test_a_knock_settled_by_the_lowest_count_in_a_stacked_hand():
    pack = meldkit.load_pack_text(GIN_3 + "knock: {settle: lowest, tie_is_undercut: true, "
                                          "undercut_bonus: 10}\n")
    g = knocked(pack, knocker=KNOCKER.replace("2D", "6H"))
    for move in ("add 4S to m1", "done", "meld 9C 9D 9H", "done",
                 "add 5S to m1", "done", "meld 8C 8D 8H", "meld 4C 5C 6C", "done"):
        g.apply(move)
    hr = g.hand_results[-1]
    # seat 2 (5) is lowest: 1 and the bonus of 10 from the knocker (6), 36 from seat 1
    assert (hr.ended_by, hr.net) == ("undercut", (-11, -36, 47))
    assert g.scores == [0, 0, 47]
    # seat 1 keeps its 4S: seat 2's 5S no longer fits, and the knocker is lowest
    g = knocked(pack, knocker=KNOCKER.replace("2D", "6H"))
    why = refusal(g, "meld 9C 9D 9H")  # (a pack author met meld/not-now here)
    assert (why.code, why.sentence) == ("meld/lay-offs-first", "a defender lays off onto the "
                                        "knocker's melds first: say done, then lay your own "
                                        "melds")
    g.apply("done")
    assert refusal(g, "add 4S to m1").code == "add/done-laying-off"
    for move in ("meld 9C 9D 9H", "done"):
        g.apply(move)
    assert ["done"] == legal(g)
    for move in ("done", "meld 8C 8D 8H", "meld 4C 5C 6C", "done"):
        g.apply(move)
    hr = g.hand_results[-1]
    assert (hr.ended_by, hr.final.deadwood, hr.net) == ("knock", (6, 45, 10), (43, -39, -4))
    assert meldkit.GameState.from_json(g.to_json(), pack=g.pack).to_json() == g.to_json()


# --------------------------------------------------------------------------- what is said


def test_the_rules_sheet_says_each_defender_settles_with_the_knocker():
    from meldkit.kernel.rulesheet import table_sections

    lines = table_sections(meldkit.load_pack_text(
        GIN_3 + "knock: {big_gin_bonus: 31, test: best_discard}\n"
        "deal: {hand_by_players: {4: 7}}\n").spec)
    assert [line for line in lines if "defender" in line or "gin" in line.lower()] == [
        "- Each defender (every other player, one after another from the knocker's left) then "
        "lays off cards on the knocker's melds (not after gin), and lays down their own melds.",
        "- **Gin:** a knock with no deadwood at all.",
        "- **Big gin:** every card (the hand and the draw) melded, with no discard.",
        "- The knocker settles with each defender on their own, as two players would: from "
        "each defender whose deadwood is higher, the knocker scores the difference between "
        "their two totals.",
        "- Gin scores a bonus of 25, big gin 31 from each defender.",
        "- **Undercut:** a defender whose deadwood is lower than the knocker's scores the "
        "difference plus 25 from the knocker — whatever the knocker scores from the other "
        "defenders; gin is never undercut.",
        "- Between the knocker and a defender with equal deadwood, nothing is scored."]
    assert ("- Each player then scores 25 for every hand they won (the box or line bonus; a "
            "hand is won by the player it pays the most points, on balance, who need not be "
            "the knocker).") in lines


def test_the_rules_sheet_says_the_lowest_count_collects():
    from meldkit.kernel.rulesheet import table_sections

    lines = table_sections(meldkit.load_pack_text(
        GIN_3 + "knock: {settle: lowest, undercut_bonus: 10}\n").spec)
    start = lines.index("## Scoring")
    assert lines[start + 3:start + 6] == [
        "- The player with the lowest deadwood wins the hand and scores the difference "
        "between their total and each other player's, from each of them; the knocker wins a "
        "tie with a defender, and of defenders tied for the lowest the first after the "
        "knocker, in turn, wins.",
        "- **Gin:** a knocker with no deadwood wins whatever the others hold, and scores a "
        "bonus of 25 from each other player besides.",
        "- **Undercut:** a knocker who does not win pays the winner 10 besides the difference."]


def test_the_end_of_a_hand_shows_the_knocker_against_each_defender():
    from meldkit._table import Style, render_hand_end

    g = knocked(pack=GIN_3 + "knock: {tie_is_undercut: true}\n",
                knocker=KNOCKER.replace("2D", "6H"))
    for move in ("add 4S to m1", "done", "meld 9C 9D 9H", "done",
                 "add 5S to m1", "done", "meld 8C 8D 8H", "meld 4C 5C 6C"):
        g.apply(move)
    before = g.clone()
    g.apply("done")
    text = render_hand_end(g, g.hand_results[-1], Style(False), you=0, before=before)
    assert ("  you 6 vs seat 1 41, seat 2 5 → +9 to you, +26 to seat 2 (you: deadwood +35; "
            "seat 2: deadwood +1, undercut +25)\n") in text


# --------------------------------------------------------------------------- self-play

SELF_PLAY = {
    "gin": GIN_3 + "knock: {test: best_discard, big_gin_bonus: 31, tie_is_undercut: true, "
                   "lay_off_on_gin: true}\n",
    "lowest": GIN_3 + "knock: {settle: lowest}\n",
    "oklahoma": "extends: oklahoma_gin\nname: oklahoma_4\nplayers: {max: 4}\n",
}
"""Knocking packs for three and four: gin's terms with big gin, ties undercutting and
lay-offs on gin; the lowest count settling, with OpenSpiel's wall, limits and knock test;
Oklahoma's knock value from the upcard and its spade doubling."""


@pytest.mark.parametrize("players", (3, 4))
@pytest.mark.parametrize("name", sorted(SELF_PLAY))
def test_multiplayer_knocking_packs_keep_the_invariants_of_every_pack(name, players):
    pack = meldkit.load_pack_text(SELF_PLAY[name])
    assert check_conformance(pack, players=players, games=2, hands=6) > 0


@pytest.mark.parametrize("players", (3, 4))
@pytest.mark.parametrize("name", sorted(SELF_PLAY))
def test_random_and_greedy_games_end_keep_every_card_and_settle_to_zero(name, players):
    pack = meldkit.load_pack_text(SELF_PLAY[name])
    endings = set()

    def rare_phases_keep_cards(g, action, phase, cards):  # the rare phases: every move
        if g.phase in ("layoff", "knock", "wall"):
            assert cards_of(g) == cards

    for g in bot_games(pack, players, range(6), rare_phases_keep_cards):
        for hr in g.hand_results:
            assert sum(hr.net) == 0, hr
            endings.add(hr.ended_by)
            if hr.ended_by in ("knock", "gin", "big_gin", "undercut"):
                ending, payments = knock_settlement(hr.final.deadwood, hr.went_out,
                                                    g.rules.terms, hr.final.big_gin)
                net = [0] * players
                for payer, payee, _, diff, bonus in payments:
                    net[payer] -= (diff + bonus) * hr.final.multiplier
                    net[payee] += (diff + bonus) * hr.final.multiplier
                assert (ending, tuple(net)) == (hr.ended_by, hr.net)
    assert {"knock", "wall"} <= endings <= {"knock", "gin", "big_gin", "undercut", "wall",
                                            "limit", "no_progress"}


@pytest.mark.parametrize("players", [2, 3])
def test_the_rules_sheet_of_a_gin_only_knock_says_no_knock_is_undercut(players):
    """Straight gin (``knock.max_deadwood: 0``): every knock is gin, and gin is never
    undercut, but the sheet described an undercut a pack author's scenario never met (stop
    41); a knock at a count says that gin is never undercut."""
    from meldkit.rulesheet import rules_sheet

    counts = "" if players == 2 else "players: {min: 3, max: 3}\n"
    straight = meldkit.load_pack_text("extends: gin_rummy\nknock: {max_deadwood: 0}\n"
                                      + counts, filename="straight.yaml")
    sheet = rules_sheet(straight)
    assert "- Only gin may knock, so no knock is ever undercut." in sheet
    assert "**Undercut:**" not in sheet
    assert "gin is never undercut" in rules_sheet(meldkit.load_pack("gin_rummy"))


def test_the_undercut_keys_written_beside_a_gin_only_knock_are_refused():
    with pytest.raises(RulePackError) as e:
        meldkit.load_pack_text("extends: gin_rummy\nknock: {max_deadwood: 0, undercut_bonus: "
                               "50, tie_is_undercut: true}\n", filename="straight.yaml")
    assert [f"{p.file}:{p.line}:{p.col}: {p.path}" for p in e.value.problems] == [
        "straight.yaml:2:26: knock.undercut_bonus", "straight.yaml:2:46: knock.tie_is_undercut"]
    assert "gin is never undercut, so it is never read: remove it" in str(e.value)
    meldkit.load_pack_text("extends: gin_rummy\nknock: {max_deadwood: 0}\n")  # (inherited)
