"""A stripped deck (issue 24, item 2): ``deck.ranks`` keeps only the ranks it lists, in
all four suits, in both meld models; the deal arithmetic, the card keys and the rules sheet
follow it; a run does not cross a rank left out."""

from __future__ import annotations

import pytest

import meldkit
from meldkit import GameState, RulePackError
from meldkit._cards import kind_of_code
from meldkit.testing import check_conformance
from meldkit.rulesheet import rules_sheet

FORTY = 'deck: {ranks: [A, "2", "3", "4", "5", "6", "7", J, Q, K]}\n'


def test_a_stripped_table_deck_keeps_its_ranks_and_runs_stop_at_a_gap():
    p = meldkit.load_pack_text("extends: rummy\nname: rummy_40\n" + FORTY, filename="r40.yaml")
    g = meldkit.new_game(p, players=3, seed=1)
    assert len(g.kind_of) == 40
    assert {g.card_code(c)[:-1] for c in range(40)} == {"A", "2", "3", "4", "5", "6", "7",
                                                        "J", "Q", "K"}
    assert g.rules.melds.match(tuple(kind_of_code(c) for c in ("6H", "7H", "JH"))) is None
    assert g.rules.melds.match(tuple(kind_of_code(c) for c in ("5H", "6H", "7H"))) is not None
    assert check_conformance(p, players=3, games=2, hands=1) > 0
    assert "- **Deck:** 1 40-card deck (40 cards)." in rules_sheet(p)
    assert "- **Stripped deck:** each deck keeps only the ranks A, 2, 3, 4, 5, 6, 7, J, Q, K" \
        in rules_sheet(p)


def test_the_rules_sheet_lists_values_only_for_the_ranks_the_deck_keeps():
    """A 40-card deck without 8, 9 and 10 still showed their values (inherited from rummy's
    cards.values); the table lists the ranks dealt, and a joker only where some table plays
    with jokers."""
    p = meldkit.load_pack_text("extends: rummy\nname: rummy_40\n" + FORTY, filename="r40.yaml")
    sheet = rules_sheet(p)
    table = sheet[sheet.index("| Card | Value |"):sheet.index("## The deal")].splitlines()
    assert table[2:] == ["| aces | 1 |", "| 2s (deuces) | 2 |", "| 3s (treys) | 3 |",
                         "| 4s | 4 |", "| 5s | 5 |", "| 6s | 6 |", "| 7s | 7 |",
                         "| jacks | 10 |", "| queens | 10 |", "| kings | 10 |", ""]
    forty = FORTY.replace("]}", "], %s}")
    five = meldkit.load_pack_text("extends: rummy_500\nname: five\n" + forty % (
        "jokers: 0, jokers_by_players: {5: 1}"), filename="r5.yaml")
    assert "| jokers | 15 |" in rules_sheet(five)  # jokers at five players
    none = meldkit.load_pack_text("extends: rummy_500\nname: none\n" + forty % (
        "jokers_per_deck: 0") + "cards: {wild: []}\n", filename="r0.yaml")
    assert "jokers |" not in rules_sheet(none) and "| 8s |" not in rules_sheet(none)


def test_a_stripped_rank_slot_deck_deals_only_its_ranks():
    p = meldkit.load_pack_text(
        'extends: pony_tail\nname: pt_no_fours\ndeck: {ranks: [A, K, Q, J, "10", "9", "8", '
        '"7", "5", "6", "2", "3"]}\n', filename="pt48.yaml")
    g = meldkit.new_game(p, players=4, seed=2)
    assert len(g.kind_of) == 6 * (48 + 2)
    assert not any(g.card_code(c).startswith("4") for c in range(len(g.kind_of)))
    assert GameState.from_json(g.to_json(), pack=p) == g


def test_a_stripped_deck_is_checked_where_written():
    with pytest.raises(RulePackError) as e:
        meldkit.load_pack_text("extends: rummy\ndeck: {ranks: [A, A, Z]}\n", filename="s.yaml")
    assert "s.yaml:2:19: deck.ranks[1]: 'A' is listed twice" in str(e.value)
    assert "deck.ranks[2]: expected a rank (A, 2 … 10, J, Q, K), got 'Z'" in str(e.value)
    with pytest.raises(RulePackError, match=r"cards.bonus\[0\]: '3H' names no card of this "
                       r"deck \(deck.ranks leaves it out\)"):
        meldkit.load_pack_text('extends: pony_tail\ndeck: {ranks: [A, K, Q, J, "10", "9", '
                               '"8", "7", "4", "5", "6", "2"]}\n', filename="no3.yaml")
    with pytest.raises(RulePackError, match="deal"):  # 13 cards for 6 players from 40
        meldkit.load_pack_text("extends: rummy\n" + FORTY
                               + "deal: {hand: 13, hand_by_players: null}\n",
                               filename="big.yaml")
    with pytest.raises(RulePackError, match="knock.test: openspiel judges a one-deck game"):
        meldkit.load_pack_text("extends: gin_rummy\n" + FORTY, filename="gin40.yaml")
