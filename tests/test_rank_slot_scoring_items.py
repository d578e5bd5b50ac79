"""``scoring.items`` in rank-slot (canasta-family) packs (issue 24, item 1): the canasta
items listed by name, their parameters the preset's (from the pack's scoring keys) with
the entry's over them, plus ``bonus`` and ``multiply``; a pack that lists no items scores
as before."""

from __future__ import annotations

import pytest

import meldkit
from meldkit import GameState, RulePackError
from meldkit.bots import GreedyBot
from meldkit.kernel.scoring import key_parameters, listed_items

ITEMS = """extends: pony_tail
name: pony_tail_items
scoring:
  items:
    - {item: books}
    - {item: dead_cards}
    - {item: hand_cards, counts: all}
    - {item: going_out, bonus: 300}
    - {item: bonus, points: 50, when: out}
    - {item: multiply, by: 3, when: out_at_once}
"""


def _first_hand(pack, seed: int):
    g = meldkit.new_game(pack, players=4, seed=seed)
    bots = [GreedyBot(seed=i) for i in range(4)]
    while not g.hand_results:
        g.apply(bots[g.current_player].choose(g))
    return g


def test_listed_items_take_the_presets_parameters_under_the_entrys():
    pack = meldkit.load_pack_text(ITEMS, filename="pony_tail_items.yaml")
    items = dict(listed_items(pack.spec.scoring))
    preset = key_parameters(pack.spec.scoring)
    assert items["hand_cards"] == {**preset["hand_cards"], "counts": "all"}
    assert items["going_out"] == {**preset["going_out"], "bonus": 300}
    assert items["dead_cards"] == preset["dead_cards"] == {"points": -100}
    assert list(items) == ["books", "dead_cards", "hand_cards", "going_out", "bonus",
                           "multiply", "plugin"]


def test_a_rank_slot_pack_scores_only_the_items_it_lists():
    pack = meldkit.load_pack_text(ITEMS, filename="pony_tail_items.yaml")
    for seed in (2, 5):
        g = _first_hand(pack, seed)
        hand = g.last_hand
        for line in hand.scores:
            labels = {label for label, _ in line.items}
            assert labels <= {"books", "dead_cards", "hand_cards", "going_out"}
            assert "melded_cards" not in labels and "bonus_cards" not in labels
        out = hand.final.went_out
        if out is not None:
            team = hand.final.team_of[out]
            line = next(s for s in hand.scores if s.team == team)
            factor = 3 if hand.final.concealed else 1
            assert line.going_out == 350 * factor
        assert GameState.from_json(g.to_json(), pack=pack) == g


def test_a_rank_slot_pack_without_items_scores_as_before():
    plain = _first_hand(meldkit.load_pack("pony_tail"), 2)
    labels = {label for s in plain.last_hand.scores for label, _ in s.items}
    assert "melded_cards" in labels


def test_rank_slot_items_are_checked_where_written():
    with pytest.raises(RulePackError) as e:
        meldkit.load_pack_text(
            "extends: pony_tail\nscoring:\n  items:\n    - {item: laid}\n"
            "    - {item: bonus_cards, by_count: {2: 5}}\n    - {item: hand_cards, counts: some}\n",
            filename="bad_items.yaml")
    text = str(e.value)
    assert "bad_items.yaml:4:7: scoring.items[0]: expected {item: <name>, ...} with a name " \
           "from books, melded_cards" in text
    assert "scoring.items[1].by_count: item 'bonus_cards' takes its by_count from the pack's " \
           "scoring keys" in text
    assert "scoring.items[2].counts: expected one of not_out, all, got 'some'" in text


def test_the_rules_sheet_lists_a_rank_slot_packs_items_in_order():
    from meldkit.rulesheet import rules_sheet

    sheet = rules_sheet(meldkit.load_pack_text(ITEMS, filename="pony_tail_items.yaml"))
    assert ("At the end of each hand every side scores, in this order:\n\n"
            "| Item | Points |\n|---|---|\n"
            "| each book | sevens 5,000, wild 2,500, red 500, black 300 |\n"
            "| each dead card left in a hand | -100 |\n"
            "| cards left in hand (every side) | minus their value |\n"
            "| going out | 300 |\n"
            "| the side that goes out | 50 more |\n"
            "| everything above, when the player who goes out lays their whole hand in that "
            "one turn, having laid no card on the table before it (what the other players "
            "have laid does not matter) | times 3 |") in sheet
    booked = rules_sheet(meldkit.load_pack_text(  # going out at once is going out concealed
        ITEMS.replace("scoring:\n", "scoring:\n  concealed_needs_book: true\n"),
        filename="pony_tail_items.yaml"))
    assert ("(what the other players have laid does not matter), and lays a book of their "
            "own in it: 7 cards in one meld | times 3 |") in booked


def test_a_bundled_packs_explicit_items_read_on_its_rules_sheet_as_its_preset_did():
    from meldkit.rulesheet import rules_sheet

    def scoring(sheet: str) -> str:
        start = sheet.index("## Scoring")
        return sheet[start:sheet.index("\n## ", start)]

    for name in ("classic_canasta", "pony_tail", "gin_rummy", "oklahoma_gin", "rummy",
                 "contract_rummy"):
        preset = meldkit.load_pack_text(f"extends: {name}\nname: {name}\n"
                                        "scoring: {items: []}\n")
        assert scoring(rules_sheet(name)) == scoring(rules_sheet(preset)), name


def test_a_listed_melded_cards_item_beside_melded_cards_false_is_refused_at_the_key():
    with pytest.raises(RulePackError) as e:  # classic_canasta lists melded_cards (CC-19)
        meldkit.load_pack_text("extends: classic_canasta\nscoring:\n  melded_cards: false\n",
                               filename="no_melded.yaml")
    assert ("no_melded.yaml:3:3: scoring.items[1]: item 'melded_cards', but "
            "scoring.melded_cards is false") in str(e.value)
    child = "extends: classic_canasta\nname: no_reserve\ndeal: {reserve: 0}\n"
    assert meldkit.load_pack_text(child).spec.scoring.items  # no reserve: nothing to drop


AGAINST = """extends: %s
name: against
scoring:
  items:
    - {item: bonus_cards, negative_unless: %s}
    - {item: dead_cards}
    - {item: hand_cards}
"""


@pytest.mark.parametrize("base, unless", [  # melded: CC-19's tests
    ("pony_tail", "out"), ("pony_tail", "never"),
    ("classic_canasta", "book")])  # one canasta goes out: the other side may have none
def test_bonus_cards_count_against_a_side_unless_it_went_out_melded_or_made_a_book(
        base, unless):
    pack = meldkit.load_pack_text(AGAINST % (base, unless), filename="against.yaml")
    seen = set()
    for seed in range(12):
        hand = _first_hand(pack, seed).last_hand
        f = hand.final
        out = None if f.went_out is None else f.team_of[f.went_out]
        for line in hand.scores:
            n = sum(len(f.bonus[p]) for p, t in enumerate(f.team_of) if t == line.team)
            book = any(len(ids) >= pack.spec.books.size for _, ids in f.melds[line.team])
            met = {"out": line.team == out, "never": True, "melded": f.melded[line.team],
                   "book": book}
            worth = 800 if n == 4 and base == "classic_canasta" else 100 * n  # CC: all four
            assert line.bonus_cards == (worth if met[unless] else -worth)
            seen.add((met[unless], n > 0))
    assert (False, True) in seen or unless == "never"  # a side's red 3s counted against it
    assert (True, True) in seen


def test_the_rules_sheet_words_red_threes_against_a_side_without_a_book():
    from meldkit.rulesheet import rules_sheet

    sheet = rules_sheet(meldkit.load_pack_text(AGAINST % ("classic_canasta", "book")))
    assert "negative for a side that has completed no book (7 cards or more in a meld)" in sheet
