"""A hand's score as items the pack lists (issue 24, item 1): ``scoring.items`` in a
table-meld pack — ``laid`` (each player scores the cards they laid, melds and lay-offs,
an ace low in a run at ``low_ace``) and ``held`` (the cards left in hand against) —
shown on small stacked games of ``rummy_500``."""

from __future__ import annotations

import json
import random

import pytest

import meldkit
from meldkit import GameState, RulePackError


def deal(*hands: str, upcard: str, stock: str = "", pack="rummy_500"):
    order = [c for hand in hands for c in hand.split()] + [upcard, *stock.split()]
    return meldkit.new_game(pack, players=len(hands), seed=1, options={"first_player": 0},
                            deck_order=order)


ACES = ("AH 2H 3H AC AD AS 9C", "5S 6D 10C JD QS 3D 4C", "2D 3S 6H 6C 8S 9D QC")


def test_laid_counts_each_card_a_player_lays_and_notes_low_aces():
    g = deal(*ACES, upcard="KD", stock="8C")
    g.apply("draw")  # seat 0 draws 8C
    g.apply("meld AH 2H 3H")  # counted at its values (15 + 2 + 3); the ace is low
    assert g.laid == [[20, 1], [0, 0], [0, 0]]
    g.apply("meld AC AD AS")  # a set of aces: 15 each, none low
    assert g.laid[0] == [65, 1]
    assert GameState.from_json(g.to_json()) == g


def test_an_ace_low_in_a_run_counts_low_ace_and_cards_held_count_against():
    g = deal("AH 2H 3H AC AD AS 5C", *ACES[1:], upcard="KD", stock="9C 7D 8D 4H")
    for move in ("draw", "meld AH 2H 3H", "meld AC AD AS", "discard 9C",  # seat 0: 5C left
                 "draw", "discard 7D", "draw", "discard 8D",
                 "draw", "add 4H to m1", "discard 5C"):  # seat 0 lays off 4H, goes out
        g.apply(move)
    (hand,) = g.hand_results
    assert (hand.ended_by, hand.went_out) == ("went_out", 0)
    line = {s.team: s for s in hand.scores}
    assert line[0].points("laid") == 1 + 2 + 3 + 4 + 45  # low_ace: the ace of A-2-3-4 is 1
    assert line[0].points("held") == 0
    for seat in (1, 2):
        assert line[seat].points("held") == -hand.final.deadwood[seat] < 0
        assert hand.net[seat] == -hand.final.deadwood[seat]
    assert hand.net[0] == 55 and g.scores[0] == 55
    assert GameState.from_json(g.to_json()) == g


def test_laid_points_survive_saves_and_random_play_scores_every_hand():
    for seed in range(3):
        g = meldkit.new_game("rummy_500", players=3, seed=seed)
        rng = random.Random(seed)
        steps = 0
        while not g.is_over and steps < 3000:
            g.apply(rng.choice(g.legal_actions()))
            steps += 1
            if steps % 53 == 0:
                assert GameState.from_json(g.to_json()) == g
        for h in g.hand_results:
            laid = dict(h.scores[0].items).get("laid", 0)
            assert laid >= 0


def test_scoring_items_are_refused_where_no_item_runs_and_when_malformed():
    with pytest.raises(RulePackError, match="scoring.items: is read only by the rank-slot "
                       "meld model .* and the table meld model"):  # the Houses engine scores
        meldkit.load_pack_text("extends: houses\nscoring: {items: [{item: held}]}\n")
    with pytest.raises(RulePackError) as e:
        meldkit.load_pack_text("extends: rummy\nscoring: {items: [{item: laid, low: 1}, "
                               "{item: booty}]}\n", filename="items.yaml")
    text = str(e.value)
    assert "items.yaml:2:" in text and "item 'laid' takes low_ace" in text
    assert ("with a name from winner_takes, penalty, laid, held, books, bonus, "
            "reserve_untaken, multiply, knock, pay, got 'booty'") in text
    with pytest.raises(RulePackError, match="item 'held', but a knocking pack scores with "
                       "knock"):
        meldkit.load_pack_text("extends: gin_rummy\nscoring: {items: [{item: held}]}\n")
    with pytest.raises(RulePackError, match="list {item: knock} once"):
        meldkit.load_pack_text("extends: gin_rummy\nscoring: {items: [{item: knock}, "
                               "{item: knock}]}\n")
    with pytest.raises(RulePackError, match=r"items\[0\]\.gin_bonus: item 'knock' takes its "
                       r"gin_bonus from the pack's knock keys \(knock\.gin_bonus\)"):
        meldkit.load_pack_text("extends: gin_rummy\nscoring: {items: [{item: knock, "
                               "gin_bonus: 5}]}\n")
    with pytest.raises(RulePackError) as e:
        meldkit.load_pack_text("extends: rummy\nscoring: {style: penalty, items: "
                               "[{item: winner_takes}]}\ngame: {winner: lowest}\n",
                               filename="mixed.yaml")
    assert ("mixed.yaml:2:35: scoring.items[0]: item 'winner_takes' is the "
            "winner_takes_hands style's, but scoring.style is penalty") in str(e.value)


def test_a_child_pack_that_changes_the_style_scores_by_it_not_by_its_parents_items():
    child = meldkit.load_pack_text("extends: rummy\nscoring: {style: penalty}\n"
                                   "game: {winner: lowest}\n")
    assert child.spec.scoring.items == []  # rummy's winner_takes was rummy's style's
    same = meldkit.load_pack_text("extends: rummy_500\nscoring: {style: winner_takes_hands}\n")
    assert same.spec.scoring.items == meldkit.load_pack("rummy_500").spec.scoring.items


# --------------------------------------------------------------------------- multiply
DOUBLE = ("extends: rummy\nname: rummy_double\nscoring:\n  items:\n    - {item: winner_takes}\n"
          "    - {item: multiply, by: 2, when: out_at_once}\n")
AT_ONCE = ("2C 3C 4C 10H JH QH KH 9S 9D 9C", "6D 7D 8D 6S 7S 8C JC 2S 3S 4H")


def _double():
    return meldkit.load_pack_text(DOUBLE, filename="rummy_double.yaml")


def test_multiply_out_at_once_doubles_a_hand_laid_down_whole_in_one_turn():
    g = deal(*AT_ONCE, upcard="5D", stock="KD", pack=_double())
    for move in ("draw", "meld 2C 3C 4C", "meld 10H JH QH KH"):
        g.apply(move)
    g = GameState.from_json(g.to_json(), pack=g.pack)  # first_laid survives a save
    g.apply("meld 9C 9D 9S")
    g.apply("discard KD")
    (hand,) = g.hand_results
    held = hand.final.deadwood[1]
    assert (hand.ended_by, hand.final.at_once) == ("went_out", True)
    assert dict(hand.scores[0].items) == {"cards_in_other_hands": 2 * held}
    assert hand.net == (2 * held, -2 * held)
    assert GameState.from_json(g.to_json(), pack=g.pack) == g


def test_multiply_out_at_once_leaves_a_hand_that_showed_melds_earlier_as_it_is():
    g = deal(*AT_ONCE, upcard="5D", stock="KD 5C", pack=_double())
    for move in ("draw", "meld 2C 3C 4C", "discard KD",  # seat 0 shows a meld, turn 1
                 "draw", "discard 5C",
                 "draw"):
        g.apply(move)
    for move in ("meld 10H JH QH KH", "meld 9C 9D 9S"):
        g.apply(move)
    g.apply(next(str(a) for a in g.legal_actions() if a.type == "discard"))
    (hand,) = g.hand_results
    assert hand.final.at_once is False and hand.went_out == 0
    assert hand.net[0] == hand.final.deadwood[1]  # not doubled


def test_multiply_out_at_once_reads_only_the_player_who_went_out_and_the_sheet_says_so():
    from meldkit.rulesheet import rules_sheet

    g = deal(*AT_ONCE, upcard="5D", stock="KD 5C QS", pack=_double())
    for move in ("draw", "discard KD",
                 "draw", "meld 6D 7D 8D", "discard 5C",  # seat 1 has a meld on the table
                 "draw", "meld 2C 3C 4C", "meld 10H JH QH KH", "meld 9C 9D 9S", "discard QS"):
        g.apply(move)
    (hand,) = g.hand_results
    assert (hand.went_out, hand.final.at_once) == (0, True)
    assert hand.net[0] == 2 * hand.final.deadwood[1]  # doubled all the same
    assert ("- Everything above counts 2 times when the player who goes out lays their whole "
            "hand in that one turn, having laid no card on the table before it (what the "
            "other players have laid does not matter).") in rules_sheet(_double())


def test_multiply_is_checked_where_written_and_a_save_must_match_the_pack():
    with pytest.raises(RulePackError) as e:
        meldkit.load_pack_text("extends: rummy\nscoring:\n  items:\n    - {item: winner_takes}\n"
                               "    - {item: multiply, by: 0, when: out_at_once}\n"
                               "    - {item: multiply, when: dealt}\n    - {item: multiply}\n",
                               filename="mult.yaml")
    text = str(e.value)
    assert "mult.yaml:5:" in text and "expected null or an integer 1..100, got 0" in text
    assert "scoring.items[2].when: expected one of out, out_at_once, got 'dealt'" in text
    assert "scoring.items[3]: item 'multiply' needs when (one of out, out_at_once)" in text
    save = json.loads(deal(*AT_ONCE, upcard="5D", stock="KD", pack=_double()).to_json())
    assert save["first_laid"] == [None, None]
    save["first_laid"] = [5, None]  # a turn the hand has not reached
    with pytest.raises(meldkit.SaveError, match="first_laid"):
        GameState.from_json(json.dumps(save), pack=_double())
    plain = json.loads(deal(*AT_ONCE, upcard="5D", stock="KD", pack="rummy").to_json())
    assert "first_laid" not in plain  # written only where the pack scores it
    plain["first_laid"] = [None, None]
    with pytest.raises(meldkit.SaveError, match="neither scores going out at once nor lays off only"):
        GameState.from_json(json.dumps(plain))


def test_the_rules_sheet_says_each_scoring_item_in_order():
    from meldkit.kernel.rulesheet import ITEM_SENTENCES
    from meldkit.kernel.scoring import TABLE_ITEMS
    from meldkit.rulesheet import rules_sheet

    assert set(ITEM_SENTENCES) | {"knock"} == set(TABLE_ITEMS)  # knock: the knock keys' lines
    sheet = rules_sheet("rummy_500")
    assert ("- Each player scores the value of every card they laid this hand, in melds and "
            "lay-offs alike; an ace at the low end of a run counts 1.\n"
            "- The cards left in each player's hand count against them.") in sheet
    assert "other players' hands" not in sheet  # not its style's preset: the items it lists
    assert ("- Everything above counts 2 times when the player who goes out lays their whole "
            "hand in that one turn") in rules_sheet(_double())


CAPPED_HANDS = ("2C 3C 4C 10H JH QH KH 9S 9D 9C", "KD QD JS QS KS 8D 9H 2S 3S 4H")
"""Seat 0 goes out in one turn; seat 1 is left holding far more than 20."""


def _capped_hand(items: str, extra: str = ""):
    pack = meldkit.load_pack_text(
        f"extends: rummy\nname: rummy_capped\n{extra}\nscoring:\n{items}",
        filename="rummy_capped.yaml")
    g = deal(*CAPPED_HANDS, upcard="5D", stock="6H", pack=pack)
    for move in ("draw", "meld 2C 3C 4C", "meld 10H JH QH KH", "meld 9C 9D 9S", "discard 6H"):
        g.apply(move)
    assert GameState.from_json(g.to_json(), pack=pack) == g
    (hand,) = g.hand_results
    assert hand.final.deadwood[1] > 20
    return g, hand


def test_a_capped_winner_takes_collects_at_most_the_cap_from_each_player():
    g, hand = _capped_hand("  items: [{item: winner_takes, cap: 20}]\n")
    assert hand.net == (20, -20)
    assert dict(hand.scores[0].items) == {"cards_in_other_hands": 20}
    assert hand.scores[1].items == ()  # the loser's line counts nothing: the winner collects
    assert g.scores == [20, 0]


def test_a_capped_penalty_counts_at_most_the_cap_against_the_player():
    g, hand = _capped_hand("  style: penalty\n  items: [{item: penalty, cap: 20}]\n",
                           "game: {winner: lowest}")
    assert dict(hand.scores[1].items) == {"cards_in_hand": 20}  # penalty points: 20, no more
    assert hand.net == (0, -20)
    assert g.scores == [0, 20]


def test_a_capped_held_loses_at_most_the_cap_beside_what_was_laid():
    g, hand = _capped_hand("  items: [{item: laid}, {item: held, cap: 20}]\n")
    assert dict(hand.scores[1].items) == {"held": -20}
    assert g.scores[1] == -20
    uncapped = _capped_hand("  items: [{item: laid}, {item: held}]\n")[1]
    assert uncapped.scores[0] == hand.scores[0]
    assert dict(uncapped.scores[1].items)["held"] == -hand.final.deadwood[1]


def test_the_retired_cap_item_is_refused_where_it_is_listed_with_what_to_write():
    with pytest.raises(RulePackError) as e:
        meldkit.load_pack_text("extends: rummy\nscoring:\n  items:\n    - {item: winner_takes}\n"
                               "    - {item: cap, most: 20}\n", filename="capped.yaml")
    text = str(e.value)
    assert "capped.yaml:5:7: scoring.items[1]: item 'cap' is no more" in text
    assert "{item: penalty, cap: 80}" in text
    with pytest.raises(RulePackError) as e:  # a canasta pack never had it: the usual names
        meldkit.load_pack_text("extends: pony_tail\nscoring:\n  items: [{item: books}, "
                               "{item: cap, most: 5}]\n", filename="capped.yaml")
    assert "capped.yaml:3:26: scoring.items[1]: expected {item: <name>, ...} with a name " \
        "from books," in str(e.value) and "is no more" not in str(e.value)
    with pytest.raises(RulePackError, match=r"capped.yaml:2:32: scoring.items\[0\].cap: "
                       r"expected null or an integer 0..100000, got -1"):
        meldkit.load_pack_text("extends: rummy\nscoring: {items: [{item: held, cap: -1}, "
                               "{item: laid}]}\n", filename="capped.yaml")


def test_laid_wilds_as_card_counts_a_wild_card_as_the_card_it_stands_for():
    as_card = meldkit.load_pack_text(
        "extends: rummy_500\nname: r500_as_card\ncards: {wild: [JK]}\nmelds:\n  kinds:\n"
        "    - {name: set, type: set, min_size: 3, max_wilds: 1}\n"
        "    - {name: run, type: run, min_size: 3, ace: both, max_wilds: 2}\n"
        "scoring:\n  items:\n    - {item: laid, low_ace: 1, wilds: as_card}\n"
        "    - {item: held}\n", filename="r500_as_card.yaml")
    g = deal("5H JK 7H 9C 9D 9S KD", "5S 6D 10C JD QS 3D 4C", "2D 3S 6H 6C 8S 9H QC",
             upcard="KS", stock="JK 8H", pack=as_card)
    g.apply("draw")  # seat 0 draws the second joker
    g.apply("meld 5H JK 7H")  # the joker stands for 6H: 5 + 6 + 7
    assert g.laid[0][0] == 18
    g.apply("add JK to m1")  # the second joker extends the run: as 4H or 8H, worth 4 or 8
    assert g.laid[0][0] in (18 + 4, 18 + 8)
    from meldkit.rulesheet import rules_sheet
    assert "; a wild card counts as the card it stands for." in rules_sheet(as_card)
    with pytest.raises(RulePackError, match=r"expected one of own, as_card, got 'face'"):
        meldkit.load_pack_text("extends: rummy_500\nscoring:\n  items:\n"
                               "    - {item: laid, wilds: face}\n", filename="face.yaml")


def test_laid_wilds_as_card_keeps_each_natural_card_of_a_set_at_its_own_value():
    """A pack author's Oklahoma Rummy: with ``wilds: as_card`` a set counted every card at
    its rank's clubs value, so a melded QS priced 50 (``cards.values``) counted 10; a wild
    card in a set counts the least of its rank's values."""
    queens = meldkit.load_pack_text(
        "extends: rummy_500\nname: r500_queens\ncards: {wild: [JK], values: {QS: 50}}\n"
        "scoring:\n  items:\n    - {item: laid, wilds: as_card}\n    - {item: held}\n",
        filename="r500_queens.yaml")
    g = deal("QS QH QD JK 9D 9S KD", "5S 6D 10C JD 3S 3D 4C", "2D 6H 6C 8S 9H 4D 5C",
             upcard="KS", stock="QC 8H", pack=queens)
    g.apply("draw")
    g.apply("meld QS QH QD")
    assert g.laid[0][0] == 50 + 10 + 10
    g.apply("add JK to m1")  # the joker stands for a queen: the least queen's value, 10
    assert g.laid[0][0] == 80


def test_an_item_that_could_never_score_is_refused_at_its_line():
    with pytest.raises(RulePackError) as e:
        meldkit.load_pack_text(
            "extends: rummy\nscoring:\n  items:\n    - {item: winner_takes}\n"
            "    - {item: reserve_untaken, points: -100}\n    - {item: books}\n"
            "    - {item: laid, wilds: as_card}\n", filename="idle.yaml")
    text = str(e.value)
    assert ("idle.yaml:5:7: scoring.items[1]: item 'reserve_untaken', but the pack deals no "
            "reserve piles (deal.reserve): it would score nothing (remove it)") in text
    assert "scoring.items[2]: item 'books', but no book kind has a value" in text
    assert ("idle.yaml:7:20: scoring.items[3].wilds: as_card, but the pack has no wild cards "
            "(cards.wild, cards.turned_wild), so every card laid counts at its own value "
            "anyway: remove it") in text


def test_a_save_whose_hand_record_says_at_once_wrongly_is_refused():
    g = deal(*AT_ONCE, upcard="5D", stock="KD", pack=_double())
    for move in ("draw", "meld 2C 3C 4C", "meld 10H JH QH KH", "meld 9C 9D 9S", "discard KD"):
        g.apply(move)
    save = json.loads(g.to_json())
    assert save["hand_results"][0]["final"]["at_once"] is True
    save["hand_results"][0]["final"]["at_once"] = "yes"
    with pytest.raises(meldkit.SaveError, match=r"hand_results\[0\]\.final\.at_once"):
        GameState.from_json(json.dumps(save), pack=g.pack)
    plain = deal(*AT_ONCE, upcard="5D", stock="KD", pack="rummy")
    for move in ("draw", "meld 2C 3C 4C", "meld 10H JH QH KH", "meld 9C 9D 9S", "discard KD"):
        plain.apply(move)
    save = json.loads(plain.to_json())
    save["hand_results"][0]["final"]["at_once"] = True  # a pack that does not score it
    with pytest.raises(meldkit.SaveError, match=r"final\.at_once: true only where the pack"):
        GameState.from_json(json.dumps(save))


@pytest.mark.parametrize("parent", ["rummy", "gin_rummy", "pony_tail"])
@pytest.mark.parametrize(("entry", "expected"), [
    ("{item: []}", "expected {item: <name>, ...} with a name from"),
    ("{item: {a: 1}}", "expected {item: <name>, ...} with a name from"),
    ("[penalty]", "expected a mapping, got a list"),
    ("7", "expected a mapping, got 7")])
def test_an_item_whose_name_is_not_a_string_is_refused_where_it_is_written(parent, entry,
                                                                          expected):
    """fuzz_packs (CI, stop 40) met ``{item: []}``: the check for retired names hashed it
    and raised TypeError instead of a located refusal."""
    with pytest.raises(RulePackError) as e:
        meldkit.load_pack_text(f"extends: {parent}\nscoring:\n  items:\n    - {entry}\n",
                               filename="odd.yaml")
    assert f"odd.yaml:4:7: scoring.items[0]: {expected}" in str(e.value)
