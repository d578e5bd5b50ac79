"""Going out only by melding or laying off every card (``going_out.by_discard: false``,
Conquian): the last card is never discarded, no play leaves a single card that can be
neither laid off nor discarded, and a pack using it never dead-ends — from stacked decks,
the loader's refusals, the rules sheet, and random self-play."""

from __future__ import annotations

import random

import pytest

import meldkit
from meldkit import RulePackError
from meldkit.rulesheet import rules_sheet
from meldkit.testing import check_conformance, refusal, stacked_game

MELD_OUT = "going_out: {requires_discard: false, by_discard: false}\n"


def pack(extra: str = "", base: str = "extends: rummy\nname: melded_out\n"
         "deal: {hand_by_players: {2: 7}}\n") -> meldkit.RulePack:
    return meldkit.load_pack_text(base + MELD_OUT + extra, filename="melded_out.yaml")


def seats(*hands: str) -> dict[int, list[str]]:
    """The hands of seats 0, 1 … from their cards written out."""
    return {seat: hand.split() for seat, hand in enumerate(hands)}


def legal(g) -> list[str]:
    return [str(a) for a in g.legal_actions()]


def problems(text: str) -> list[str]:
    with pytest.raises(RulePackError) as e:
        meldkit.load_pack_text(text, filename="p.yaml")
    return [f"{p.file}:{p.line}:{p.col}: {p.path}: {p.message}" for p in e.value.problems]


def only_problem(text: str) -> str:
    (found,) = problems(text)
    return found


LAST_DISCARD = ("you may not discard your last card: going out means melding or laying off "
                "every card (going_out.by_discard: false)")


def stranded(card: str) -> str:
    return (f"that would leave you only the {card}, which you could neither lay off nor "
            "discard: going out means melding or laying off every card "
            "(going_out.by_discard: false)")


# --------------------------------------------------------------------------- stacked decks


def test_the_last_card_is_never_discarded_and_a_player_goes_out_by_laying_it_off():
    g = stacked_game(pack(), 2, hands=seats("5H 6H 7H JS JC JD 4H", "8H 2C 10H QS AC 8D 8S"),
                     upcard="9C", stock=["QH", "3C", "8C"])
    g.apply("draw")                       # QH
    g.apply("meld 5H 6H 7H")
    g.apply("meld JC JD JS")
    g.apply("discard QH")                 # the turn's discard leaves the 4H
    g.apply("draw")                       # seat 1: 3C
    g.apply("meld 8D 8H 8S")
    g.apply("discard 3C")
    g.apply("draw")                       # seat 0: 8C, holding 4H 8C
    assert legal(g) == ["add 4H to m1", "add 8C to m3", "discard 4H", "discard 8C"]
    g.apply("add 4H to m1")               # the 8C left can still be laid off
    assert legal(g) == ["add 8C to m3"]
    why = refusal(g, "discard 8C")
    assert (why.code, why.sentence) == ("discard/last-card", LAST_DISCARD)
    g.apply("add 8C to m3")
    r = g.hand_results[0]
    assert (r.ended_by, r.went_out) == ("went_out", 0)


def test_a_lay_off_that_would_leave_a_card_that_can_be_neither_laid_off_nor_discarded_is_refused():
    g = stacked_game(pack(), 2, hands=seats("5H 6H 7H JS JC JD 4H", "8H 2C 10H QS AC 8D 8S"),
                     upcard="9C", stock=["QH", "3C"])
    g.apply("draw")
    g.apply("meld 5H 6H 7H")
    g.apply("meld JC JD JS")              # 4H QH left: the 4H fits m1, the QH nothing
    assert legal(g) == ["discard 4H", "discard QH"]
    why = refusal(g, "add 4H to m1")
    assert (why.code, why.sentence) == ("hand/last-card", stranded("QH"))


def test_a_meld_that_would_leave_one_card_that_cannot_be_played_is_refused():
    g = stacked_game(pack(), 2, hands=seats("5H 6H 7H 8H JS JC QD", "8S 2C 10H QS AC 8D 3S"),
                     upcard="9C", stock=["JD", "3C"])
    g.apply("draw")                       # JD: the run and the jacks leave the QD alone
    g.apply("meld 5H 6H 7H 8H")
    assert "meld JC JD JS" not in legal(g)
    why = refusal(g, "meld JC JD JS")
    assert (why.code, why.sentence) == ("hand/last-card", stranded("QD"))
    assert legal(g) == ["discard JC", "discard JD", "discard JS", "discard QD"]


def test_a_one_card_hand_draws_and_then_discards_one_of_its_two_cards():
    g = stacked_game(pack(), 2, hands=seats("5H 6H 7H JS JC JD KC", "8H 2C 10H QS AC 8D 8S"),
                     upcard="9C", stock=["2D", "3C", "QD"])
    for move in ["draw", "meld 5H 6H 7H", "meld JC JD JS", "discard 2D",
                 "draw", "discard 3C", "draw"]:
        g.apply(move)
    assert [g.card_code(c) for c in g.hands[0]] == ["KC", "QD"]
    assert sorted(legal(g)) == ["discard KC", "discard QD"]
    g.apply("discard KC")
    assert ([g.card_code(c) for c in g.hands[0]], g.current) == (["QD"], 1)


def test_without_by_discard_false_the_last_card_discarded_still_goes_out():
    either = meldkit.load_pack_text("extends: rummy\nname: either\n"
                                    "deal: {hand_by_players: {2: 7}}\n", filename="e.yaml")
    g = stacked_game(either, 2, hands=seats("5H 6H 7H JS JC JD 4H", "8H 2C 10H QS AC 8D 8S"),
                     upcard="9C", stock=["QH"])
    for move in ["draw", "meld 5H 6H 7H", "meld JC JD JS", "add 4H to m1"]:
        g.apply(move)                     # (the QH left alone: the lay-off is allowed)
    assert legal(g) == ["discard QH"]
    g.apply("discard QH")
    assert (g.hand_results[0].ended_by, g.hand_results[0].went_out) == ("went_out", 0)


def _after_seat_1_discards_8c(p, kept: str):
    """Seat 0 holds only ``kept`` after its first turn; seat 1 melds three 8s and
    discards the 8C, which fits their meld."""
    g = stacked_game(p, 2, hands=seats("5H 6H 7H JS JC JD " + kept, "8H 8D 8S 8C 2C 10H QS"),
                     upcard="9C", stock=["2D", "3C", "KD"])
    for move in ["draw", "meld 5H 6H 7H", "meld JC JD JS", "discard 2D",
                 "draw", "meld 8D 8H 8S", "discard 8C"]:
        g.apply(move)
    return g


def test_a_discard_is_forced_only_where_using_it_leaves_a_card_that_can_be_played():
    p = pack("turn: {forced: [discard]}\n")
    g = _after_seat_1_discards_8c(p, "KC")  # 8C onto m3 would leave the KC stranded
    assert legal(g) == ["draw", "take"]
    g.apply("take")
    assert legal(g) == ["discard KC"]
    g = _after_seat_1_discards_8c(p, "4H")  # the 4H left can go onto m1: forced
    assert legal(g) == ["take"]
    g.apply("take")
    assert legal(g) == ["add 8C to m3"]


def test_a_card_that_must_be_melded_at_once_is_taken_only_where_that_strands_no_card():
    p = pack("pile: {taken_melded: always}\n")
    g = _after_seat_1_discards_8c(p, "KC")
    assert legal(g) == ["draw"]
    assert refusal(g, "take").code == "pile/cannot-take"
    g = _after_seat_1_discards_8c(p, "4H")
    assert legal(g) == ["draw", "take"]


def conquian(extra: str = "") -> meldkit.RulePack:
    return meldkit.load_pack_text("extends: rummy\nname: conquian_out\n"
                                  "deal: {hand_by_players: {2: 4}}\n"
                                  "turn: {stock_card: turned" + extra + "}\n" + MELD_OUT,
                                  filename="conquian_out.yaml")


def test_a_turned_card_is_used_only_where_the_hand_left_can_still_go_out():
    g = stacked_game(conquian(), 2, hands=seats("5H 6H 7H KC", "2C 3D 10S QD"),
                     upcard="9C", stock=["8H", "AS", "9H"])
    g.apply("draw")                       # the 8H turned: 5H-8H would leave the KC alone
    assert legal(g) == ["meld 6H 7H 8H", "pass"]
    why = refusal(g, "meld 5H 6H 7H 8H")
    assert (why.code, why.sentence) == ("hand/last-card", stranded("KC"))
    g.apply("meld 6H 7H 8H")
    g.apply("discard KC")
    g.apply("draw")                       # seat 1 turns the AS: no use
    g.apply("pass")
    g.apply("draw")                       # seat 0 turns the 9H, holding the 5H
    assert legal(g) == ["add 9H to m1", "pass"]
    g.apply("add 9H to m1")
    assert legal(g) == ["add 5H to m1"]
    assert refusal(g, "discard 5H").code == "discard/last-card"
    g.apply("add 5H to m1")               # every card melded, the turned ones too: out
    assert (g.hand_results[0].ended_by, g.hand_results[0].went_out) == ("went_out", 0)


# --------------------------------------------------------------------------- the loader


def test_by_discard_false_is_refused_where_going_out_requires_a_discard():
    assert only_problem("extends: rummy\ngoing_out: {requires_discard: true, "
                        "by_discard: false}\n") == (
        "p.yaml:2:37: going_out.by_discard: false, but going_out.requires_discard is true: "
        "going out is then always a discard of the last card, so nobody could go out: "
        "write requires_discard: false beside it (going out only by melding or laying off "
        "every card), or remove it")


def test_by_discard_false_is_refused_in_a_knocking_pack():
    assert only_problem("extends: gin_rummy\ngoing_out:\n  by_discard: false\n") == (
        "p.yaml:3:3: going_out.by_discard: false, but scoring.style is knock: a knocker "
        "always discards as they knock, and a knock that melds every card without a "
        "discard is big gin, which knock.big_gin_bonus sets: remove it")


def test_by_discard_is_refused_in_a_rank_slot_pack():
    assert only_problem("extends: classic_canasta\ngoing_out:\n  by_discard: false\n") == (
        "p.yaml:3:3: going_out.by_discard: is read only by the table meld model (packs with "
        "melds.kinds); this pack is played by the rank-slot meld model (it declares no "
        "melds.kinds), which would ignore it: remove it")


def test_a_discard_ban_lifted_only_for_going_out_is_refused_where_nobody_goes_out_by_discarding():
    assert only_problem("extends: rummy\n" + MELD_OUT + "pile:\n  discard_bans:\n"
                        "    - {cards: [KS], unless: going_out}\n") == (
        "p.yaml:5:21: pile.discard_bans[0].unless: going_out, but nobody goes out by a "
        "discard here (going_out.by_discard: false), so its cards would never be "
        "discarded: choose another condition (book_of_rank, book or opened), or remove "
        "the ban")


def test_a_deal_of_the_schedule_may_go_out_by_melding_only():
    p = meldkit.load_pack_text("extends: contract_rummy\nname: last_deal_melded\nschedule:\n"
                               "  - {initial_meld: {melds: [set, set]}}\n"
                               "  - {deal: {hand: 12}, initial_meld: {melds: [run, run, run]}, "
                               "going_out: {by_discard: false}}\n", filename="s.yaml")
    assert [d.spec.going_out.by_discard for d in p.deals] == [True, False]
    sheet = rules_sheet(p)
    assert ("- A player goes out by getting rid of every card: by melding, laying off or "
            "discarding the last cards in deal 1 and later deals; by melding or laying off "
            "the last cards, never by discarding the last one in deal 2.") in sheet
    assert only_problem("extends: contract_rummy\nschedule:\n"
                        "  - {going_out: {requires_discard: true, by_discard: false}}\n"
                        ).startswith("p.yaml:3:42: schedule[0].going_out.by_discard: in "
                                     "deal 1: false, but going_out.requires_discard is true")


# --------------------------------------------------------------------------- rules sheet


def test_the_rules_sheet_says_the_last_card_is_never_discarded():
    sheet = rules_sheet(pack())
    assert ("- A player goes out only by melding or laying off every card: the last card is "
            "never discarded, so a turn's discard always leaves a card in hand, and a meld "
            "or lay-off that would leave a single card is allowed only if that card can "
            "then be laid off.") in sheet
    assert "or by discarding the last card" not in sheet


# --------------------------------------------------------------------------- self-play

SELF_PLAY = {
    "rummy": (pack(base="extends: rummy\nname: rummy_melded_out\n"), 3, 100),
    "conquian": (meldkit.load_pack_text(
        "extends: rummy\nname: conquian_melded_out\nplayers: {min: 2, max: 2}\n"
        "deck: {ranks: [A, '2', '3', '4', '5', '6', '7', J, Q, K], run_gaps: skip}\n"
        "deal: {hand: 10, hand_by_players: null}\nstock: {when_empty: end_hand}\n"
        "turn: {stock_card: turned, forced: [turned, discard]}\n" + MELD_OUT,
        filename="c.yaml"), 2, 150),
    "taken_melded": (pack("pile: {taken_melded: always}\n",
                          base="extends: rummy\nname: taken_melded_out\n"), 3, 75),
    "deep_opening": (pack("initial_meld: {minimums: [{minimum: 30}]}\n"
                          "melds: {lay_off: {win_back: true}}\n"
                          "scoring: {items: [{item: winner_takes}]}\n",
                          base="extends: rummy_500\nname: deep_melded_out\n"), 3, 75),
}


@pytest.mark.parametrize("name", SELF_PLAY)
def test_random_self_play_never_dead_ends_keeps_every_card_and_goes_out_only_by_melding(name):
    p, players, games = SELF_PLAY[name]
    went_out = 0
    for seed in range(games):
        g = meldkit.new_game(p, players=players, seed=seed)
        rng = random.Random(seed)
        cards = sorted(c for zone in g.zone_cards().values() for c in zone)
        for _ in range(3000):
            if g.is_over or len(g.hand_results) >= 2:
                break
            moves = g.legal_actions()
            a = moves[rng.randrange(len(moves))]
            ended = len(g.hand_results)
            g.apply(a)
            assert sorted(c for zone in g.zone_cards().values() for c in zone) == cards
            if len(g.hand_results) > ended and g.hand_results[-1].ended_by == "went_out":
                assert a.type != "discard", f"seed {seed}: out by {a}"
                went_out += 1
        assert all(h.ended_by != "no_legal_move" for h in g.hand_results), seed
    assert went_out > 0


@pytest.mark.parametrize("name", ["rummy", "conquian"])
def test_a_pack_going_out_by_melding_keeps_every_invariant(name):
    p, players, _ = SELF_PLAY[name]
    assert check_conformance(p, players=players, games=3, hands=2, every=3) > 0
