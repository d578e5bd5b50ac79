"""Books, discards, the pile and sides (issue 24, items 4 and 6), in both meld models:
discards banned by a condition (``pile.discard_bans``, ``pile.all_banned``)."""

from __future__ import annotations

import pytest

import meldkit
from meldkit import GameState, RulePackError
from meldkit.testing import check_conformance, stack_deck

# --------------------------------------------------------------------------- packs

SEVENS = """meldkit: 1
extends: classic_canasta
name: sevens_wait
initial_meld: {minimums: [{minimum: 0}], minimums_by_players: null}
pile:
  discard_bans:
    - {cards: ["7"], unless: book_of_rank}
    - {cards: [JK, "2"], unless: going_out}
"""
"""A rank-slot pack: no 7 until the side holds a book of 7s; wild cards only going out."""

TABLE_BANS = """meldkit: 1
extends: rummy
name: rummy_waits
players: {min: 2, max: 6, partners: never}
deck: {decks: 2}
deal: {hand: 9, hand_by_players: {2: 9, 5: 9, 6: 9}}
cards: {wild: ["2"]}
melds:
  kinds:
    - {name: set, type: set, min_size: 3, max_wilds: 1}
    - {name: run, type: run, min_size: 3, max_wilds: 1}
books: {size: 5}
pile:
  discard_bans:
    - {cards: ["7"], unless: book_of_rank}
    - {cards: [QS], unless: opened}
"""
"""A table pack: no 7 until the side holds a book (5 cards) of 7s."""


def load(text: str, name: str):
    return meldkit.load_pack_text(text, filename=name)


def legal(g) -> set[str]:
    return {str(a) for a in g.legal_actions()}


def rank_slot_deal(pack, hands, stock=(), upcard="4C", players=2):
    order = stack_deck(pack, players, hands=hands, upcard=upcard, stock=stock)
    return meldkit.new_game(pack, players=players, seed=3, options={"first_player": 0},
                            deck_order=order)


def table_deal(pack, *hands: str, upcard: str = "QD", stock: str = ""):
    order = [c for hand in hands for c in hand.split()] + [upcard, *stock.split()]
    return meldkit.new_game(pack, players=len(hands), seed=1, options={"first_player": 0},
                            deck_order=order)


# --------------------------------------------------------------------------- discard bans

def test_no_seven_is_discarded_until_the_side_holds_a_book_of_sevens_rank_slot():
    pack = load(SEVENS, "sevens_wait.yaml")
    hand = "7H 7D 7C 7S 7H 7D 9C 9D KS QH 5C 6D 8S JC AH".split()
    g = rank_slot_deal(pack, {0: hand}, stock=["7C", "4D"])
    g.apply("draw")
    assert "discard 7" not in legal(g) and "discard 9" in legal(g)
    why = g.check("discard 7")
    assert (why.code, why.sentence) == (
        "discard/banned", "a 7 may not be discarded until your side holds a book of 7s")
    g.apply("meld 7 7 7 7 7 7 7")  # a book of 7s: the ban is lifted
    assert "discard 9" in legal(g) and g.check("discard 7") is not None  # (no 7 left)
    g = GameState.from_json(g.to_json(), pack=pack)
    g.apply("discard 9")
    g.apply("draw")  # seat 1, who holds no book of 7s
    assert all(a.cards != (6,) for a in g.legal_actions() if a.type == "discard")


def test_a_wild_card_is_discarded_only_going_out_and_a_hand_all_banned_lifts_the_bans():
    pack = load(SEVENS, "sevens_wait.yaml")
    hand = "2C 2D JK 7H 7D 7C 9C 9D 9S KS KH KD QH QD QC".split()
    g = rank_slot_deal(pack, {0: hand}, stock=["2H", "7S"])
    g.apply("draw")
    assert {"discard 2", "discard JK", "discard 7"} & legal(g) == set()
    assert g.check("discard JK").sentence == (
        "a JK may not be discarded except as your last card, going out")
    for meld in ("meld 9 9 9", "meld K K K", "meld Q Q Q"):
        g.apply(meld)
    assert g.hand_size[0] == 8  # 2 2 2 JK 7 7 7 7: every card banned, the bans are lifted
    assert {"discard 2", "discard JK", "discard 7"} <= legal(g)
    assert g.check("discard 7") is None


def test_all_banned_pass_ends_the_turn_without_a_discard_rank_slot():
    pack = load(SEVENS + "  all_banned: pass\n", "sevens_pass.yaml")
    hand = "2C 2D JK 7H 7D 7C 9C 9D 9S KS KH KD QH QD QC".split()
    g = rank_slot_deal(pack, {0: hand}, stock=["2H", "7S"])
    g.apply("draw")
    assert g.check("end").code == "end/may-discard"
    for meld in ("meld 9 9 9", "meld K K K", "meld Q Q Q"):
        g.apply(meld)
    assert "end" in legal(g) and not any(a.type == "discard" for a in g.legal_actions())
    assert "'end' ends the turn" in g.check("discard 7").sentence
    g.apply("end")
    assert (g.current, g.phase, g.hand_size[0]) == (1, "draw", 8)
    assert GameState.from_json(g.to_json(), pack=pack) == g


def test_no_seven_is_discarded_until_the_side_holds_a_book_of_sevens_table():
    pack = load(TABLE_BANS, "rummy_waits.yaml")
    g = table_deal(pack, "7H 7D 7C 7S KC KD QS 4H 9C", "AC AD AS 5C 9D JS QC 4S 6D",
                   stock="7H 3D")
    g.apply("draw")  # 7H: five 7s in hand
    assert "discard 7H" not in legal(g) and "discard KC" in legal(g)
    assert "discard QS" in legal(g)  # rummy has no opening: every player has opened
    why = g.check("discard 7D")
    assert (why.code, why.sentence) == (
        "discard/banned", "a 7D may not be discarded until your side holds a book of 7s")
    g.apply("meld 7C 7D 7H 7S")  # four: not yet a book (books.size 5)
    assert g.check("discard 7H").code == "discard/banned"
    g.apply("add 7H to m1")  # five 7s: a book of 7s
    assert "discard KC" in legal(g)
    assert GameState.from_json(g.to_json(), pack=pack) == g


def test_all_banned_pass_in_a_table_pack_and_a_ban_until_opened():
    text = TABLE_BANS.replace("extends: rummy\n", "extends: rummy\ninitial_meld: "
                              "{minimums: [{minimum: 50}]}\n").replace(
        "[QS], unless: opened", "[Q, K], unless: opened") + "  all_banned: pass\n"
    pack = load(text, "rummy_pass.yaml")
    g = table_deal(pack, "7H 7D 7C QS QH QC KC KD KS", "AC AD AS 5C 9D JS JC 4S 6D",
                   stock="QD 3D")
    g.apply("draw")  # QD: every card held is banned
    assert "pass" in legal(g) and not any(a.type == "discard" for a in g.legal_actions())
    assert g.check("discard QS").sentence == (
        "a QS may not be discarded until your side has made its initial meld")
    passed = g.clone()
    passed.apply("pass")
    assert (passed.current, passed.phase, len(passed.hands[0])) == (1, "draw", 10)
    assert GameState.from_json(passed.to_json(), pack=pack) == passed
    g.apply("meld QC QD QH")  # 30: pending, below the minimum of 50
    g.apply("meld KC KD KS")  # 60: opened, so the queen is free
    assert {a for a in legal(g) if a.startswith(("discard", "pass"))} == {"discard QS"}
    assert g.check("pass").code == "turn/may-discard"


@pytest.mark.parametrize("all_banned", ["lift", "pass"])
def test_discard_bans_never_leave_a_dead_end_over_random_play(all_banned):
    rank_slot = load(SEVENS + f"  all_banned: {all_banned}\n", "sevens.yaml")
    assert check_conformance(rank_slot, players=2, games=2, hands=1) > 0
    table = TABLE_BANS + f"  all_banned: {all_banned}\n"
    assert check_conformance(load(table, "waits.yaml"), players=3, games=2, hands=1) > 0


def test_discard_bans_are_refused_where_they_could_not_work():
    with pytest.raises(RulePackError) as e:
        load("extends: classic_canasta\npile:\n  discard_bans:\n"
             "    - {cards: [7H], unless: book}\n    - {cards: [JK], unless: book_of_rank}\n"
             "    - {cards: [], unless: going_out}\n    - {cards: [X9], unless: opened}\n",
             "bad_bans.yaml")
    text = str(e.value)
    assert ("bad_bans.yaml:4:16: pile.discard_bans[0].cards[0]: '7H' is a card code, but the "
            "rank-slot meld model (packs without melds.kinds) discards by rank: write '7'") in text
    assert ("bad_bans.yaml:5:16: pile.discard_bans[1].cards[0]: 'JK', unless book_of_rank, but "
            "no book of its rank can be made") in text
    assert "bad_bans.yaml:6:8: pile.discard_bans[2].cards: names no card" in text
    assert "pile.discard_bans[3].cards[0]:" in text
    with pytest.raises(RulePackError) as e:
        load("extends: gin_rummy\npile:\n  discard_bans: [{cards: [KS], unless: going_out}]\n",
             "gin_bans.yaml")
    assert ("gin_bans.yaml:3:3: pile.discard_bans: a discard ban waits for books or melds, "
            "but in a knocking pack melds are laid only on a knock") in str(e.value)
    with pytest.raises(RulePackError) as e:
        load("extends: rummy\npile: {all_banned: pass}\n", "idle_pass.yaml")
    assert ("idle_pass.yaml:2:8: pile.all_banned: pass, but no card is banned from the "
            "discard") in str(e.value)
    with pytest.raises(RulePackError) as e:
        load("extends: rummy\npile: {discard_bans: [{cards: [KS], unless: soon}]}\n",
             "bad_word.yaml")
    assert ("bad_word.yaml:2:37: pile.discard_bans[0].unless: 'soon' is not one of "
            "book_of_rank, book, opened, going_out") in str(e.value)


def test_the_rules_sheet_says_what_each_ban_waits_for_and_what_an_all_banned_hand_does():
    from meldkit.rulesheet import rules_sheet

    sheet = rules_sheet(load(SEVENS + "  all_banned: pass\n", "sevens_pass.yaml"))
    assert ("- **Banned discards:** 7s may not be discarded until the player's side holds a "
            "book of its rank.") in sheet
    assert ("- **Banned discards:** jokers or 2s (deuces) may not be discarded except as the "
            "player's last card, going out.") in sheet
    assert "ends the turn without a discard (`end`), keeping the cards." in sheet
    sheet = rules_sheet(load(TABLE_BANS, "rummy_waits.yaml"))
    assert ("the Q of spades may not be discarded until the player's side has made its "
            "initial meld.") in sheet
    assert "- A player whose every card is banned from the discard may discard any of them." \
        in sheet
