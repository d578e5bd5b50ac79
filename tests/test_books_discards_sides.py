"""Books, discards, the pile and sides (issue 24, items 4 and 6): discards banned by a
condition (``pile.discard_bans``, ``pile.all_banned``; both meld models), sides formed
during a hand (``players.sides_form``; rank-slot packs), a turn limit in both models
(``game.hand_turn_limit``) and the pile taken freely (``pile.take_with: free``; rank-slot
packs), and what a book still takes by its kind (``books.kinds[].adds``; both models)."""

from __future__ import annotations

import json

import pytest

import meldkit
from meldkit import GameState, RulePackError
from meldkit.rulesheet import rules_sheet
from meldkit.testing import check_conformance, stack_deck
from test_table_books import BOOKS

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

TABLE_BANS = BOOKS.split("books:")[0].replace("rummy_books", "rummy_waits") + """
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


def test_a_card_banned_only_as_the_going_out_discard_rank_slot():
    """Pennies from Heaven (a pack author's): a seven may not be the last discard, going
    out (``unless: not_going_out``); before that it may be discarded."""
    pack = load(SEVENS.replace("sevens_wait", "sevens_last").split("  discard_bans:")[0]
                + "  discard_bans: [{cards: ['7'], unless: not_going_out}]\n"
                "  all_banned: pass\n", "sevens_last.yaml")
    hand = "9C 9D 9S 9H 9C 9D 9S KC KD KH KS KC KD KH 7H".split()
    g = rank_slot_deal(pack, {0: hand}, stock=["9H", "KS"])  # (a turn draws two)
    g.apply("draw")
    assert "discard 7" in legal(g)  # not the last card: a seven may go
    for meld in ("meld 9 9 9 9 9 9 9 9", "meld K K K K K K K K"):
        g.apply(meld)
    assert g.hand_size[0] == 1  # the seven alone, and two canastas to go out with
    why = g.check("discard 7")
    assert (why.code, why.sentence) == (
        "discard/banned", "a 7 may not be discarded as your last card, to go out ('end' "
        "ends the turn while every card you hold is banned)")
    assert legal(g) == {"end"}
    assert "may not be discarded as the player's last card, to go out." in rules_sheet(pack)


def test_a_card_banned_only_as_the_going_out_discard_table():
    text = TABLE_BANS.replace("rummy_waits", "rummy_last").split("books:")[0] + (
        "pile:\n  discard_bans: [{cards: ['7'], unless: not_going_out}]\n  all_banned: pass\n")
    pack = load(text, "rummy_last.yaml")
    g = table_deal(pack, "7H KC KD KS QC QD QH JC JD", "AC AD AS 5C 9D JS 4C 4S 6D",
                   stock="JH 3D")
    g.apply("draw")
    assert "discard 7H" in legal(g)  # not the last card
    for meld in ("meld KC KD KS", "meld QC QD QH", "meld JC JD JH"):
        g.apply(meld)
    assert len(g.hands[0]) == 1  # the 7H alone: it may not go out
    why = g.check("discard 7H")
    assert (why.code, why.sentence) == (
        "discard/banned", "a 7H may not be discarded as your last card, to go out")
    assert legal(g) == {"pass"}
    g.apply("pass")
    assert (g.current, len(g.hands[0])) == (1, 1)
    assert GameState.from_json(g.to_json(), pack=pack) == g
    with pytest.raises(RulePackError, match=r"not_going_out bans a card only as the last "
                                            r"one, but pile.all_banned is lift"):
        load(text.replace("  all_banned: pass\n", ""), "rummy_last.yaml")


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
    for base in ("rummy", "pony_tail"):  # a rank the stripped deck leaves out
        with pytest.raises(RulePackError) as e:
            load(f"extends: {base}\ndeck: {{ranks: [A, '2', '3', '4', '5', '6', '7', J, Q, K]}}"
                 "\npile: {discard_bans: [{cards: ['9'], unless: going_out}]}\n",
                 "stripped_bans.yaml")
        assert ("stripped_bans.yaml:3:32: pile.discard_bans[0].cards[0]: '9' names no card of "
                "this deck (deck.ranks leaves it out)") in str(e.value)


def test_the_rules_sheet_says_what_each_ban_waits_for_and_what_an_all_banned_hand_does():
    from meldkit.rulesheet import rules_sheet

    sheet = rules_sheet(load(SEVENS + "  all_banned: pass\n", "sevens_pass.yaml"))
    assert ("- **Banned discards:** 7s may not be discarded until the player's side holds a "
            "book of its rank.") in sheet
    assert ("- **Banned discards:** jokers or 2s (deuces) may not be discarded except as the "
            "player's last card, going out.") in sheet
    assert "ends the turn without a discard (`end`), keeping the cards." in sheet
    sheet = rules_sheet(load(TABLE_BANS, "rummy_waits.yaml"))
    assert ("the queen of spades may not be discarded until the player's side has made its "
            "initial meld.") in sheet
    assert "- A player whose every card is banned from the discard may discard any of them." \
        in sheet


# --------------------------------------------------------------------------- sides formed

CUTTHROAT = """meldkit: 1
extends: classic_canasta
name: cutthroat
players: {min: 3, max: 4, counts: [3, 4], partners: never, partners_by_players: null,
          sides_form: first_pile_take}
deck: {decks_by_players: null}
deal: {hand: 11, hand_by_players: null}
turn: {draw_by_players: null}
going_out: {min_books_by_players: null}
game: {target: 7500, target_by_players: null}
initial_meld: {minimums_by_players: null}
"""
"""Three (or four) each alone until the pile is first taken (Cutthroat Canasta's lone hand)."""


def cutthroat():
    return load(CUTTHROAT, "cutthroat.yaml")


def _lone_hand_game():
    """Seats 0 and 1 meld aces on their own; seat 2 takes the pile with K K and plays
    alone; seats 0 and 1 become one side."""
    pack = cutthroat()
    hands = {0: ["AH", "AD", "AC", "QH"], 1: ["AS", "AH", "AD", "AC", "KH"],
             2: ["KS", "KD", "QS", "QD", "QC"]}
    g = rank_slot_deal(pack, hands, stock=["7H", "7D", "7C", "8C", "8D"], players=3)
    g.apply("draw")
    g.apply("meld A A A")
    g.apply("discard 7")
    g.apply("draw")
    return g


def test_the_first_to_take_the_pile_plays_alone_and_the_others_play_one_sides_melds():
    g = _lone_hand_game()
    why = g.check("add A to A")  # seat 1, alone still: seat 0's aces are not its side's
    assert (why.code, why.sentence) == ("add/no-meld", "your side has no open meld of As")
    g.apply("meld A A A")
    g.apply("discard K")
    assert g.view(2)["formed_sides"] is None
    g.apply("take K K")  # seat 2 takes the pile: 30 of the 50 needed, pending
    assert g.side_of is g.team_of  # a take not yet committed forms no sides
    g.apply("meld Q Q Q")  # 60: the initial meld, and the pile comes into the hand
    assert g.side_of == [0, 0, 2]
    assert [(m.slot, len(m.cards)) for m in g.melds[0]] == [(0, 6)]  # the aces joined
    assert g.melds[1] == [] and g.melded == [True, False, True]
    v = g.view(1)
    assert v["formed_sides"] == [0, 0, 2] and v["team"] == 1
    from meldkit.rulesheet import rules_sheet

    assert "the first player to take the discard pile plays alone" in rules_sheet(g.pack)
    assert [len(m["cards"]) for m in v["teams"][0]["melds"]] == [6]
    g = GameState.from_json(g.to_json(), pack=g.pack)
    g.apply("discard 4")
    g.apply("draw")
    g.apply("discard 8")
    g.apply("draw")  # seat 1 lays off onto the side's aces, which seat 0 began
    assert "add A to A" in legal(g)
    g.apply("add A to A")
    assert [(m.slot, len(m.cards)) for m in g.melds[0]] == [(0, 7)]  # a canasta of the side


def test_the_formed_sides_score_each_of_the_others_the_sides_total():
    pack = cutthroat()
    from meldkit.bots import GreedyBot
    from meldkit import score_hand

    seen = set()
    for seed in range(4):
        g = meldkit.new_game(pack, players=3, seed=seed)
        bots = [GreedyBot(seed=i) for i in range(3)]
        while len(g.hand_results) < 2 and not g.is_over:
            g.apply(bots[g.current_player].choose(g))
        for h in g.hand_results:
            sides = h.final.sides
            if not sides:
                continue
            lone = next(q for q in range(3) if sides.count(sides[q]) == 1)
            others = [h.scores[q].total for q in range(3) if q != lone]
            assert others[0] == others[1] and [s.team for s in h.scores] == [0, 1, 2]
            assert score_hand(meldkit.Rules.of(pack), h.final) == list(h.scores)
            assert type(h.final).from_dict(h.final.to_dict()) == h.final
            seen.add(lone)
        assert GameState.from_json(g.to_json(), pack=pack) == g
        d = json.loads(g.to_json())
        i = next((i for i, h in enumerate(g.hand_results) if h.final.sides), None)
        if i is not None:  # a record's sides are checked as a state's
            d["hand_results"][i]["final"]["sides"] = [2, 2, 2]
            with pytest.raises(meldkit.SaveError) as e:
                GameState.from_json(json.dumps(d), pack=pack)
            assert f"hand_results[{i}].final.sides: [2, 2, 2] is not a formation" in str(e.value)
    assert len(seen) >= 2  # different seats took the pile first


def test_going_out_before_the_pile_is_ever_taken_plays_alone():
    pack = cutthroat()
    hands = {0: ["QH", "QD", "QC", "QS", "QH", "QD", "QC", "KH", "KD", "KS", "KC"]}
    g = rank_slot_deal(pack, hands, stock=["5C"], players=3)
    g.apply("draw")
    g.apply("meld Q Q Q Q Q Q Q")  # a natural canasta: 70, the initial meld
    g.apply("meld K K K K")
    assert g.side_of is g.team_of
    g.apply("discard 5")  # out, concealed, before anyone took the pile: seat 0 alone
    hand = g.hand_results[0]
    assert (hand.went_out, hand.final.sides) == (0, (0, 1, 1))
    assert hand.scores[1].total == hand.scores[2].total < 0 < hand.scores[0].total
    assert g.view(0)["formed_sides"] is None  # a new hand: the seating again


def test_melds_joined_beyond_a_melds_wild_cards_stay_joined_and_load_from_a_save():
    pack = cutthroat()
    hands = {0: ["9H", "9D", "2C", "2D", "2H", "AH", "AD", "AC"],
             1: ["9S", "9C", "JK", "KH", "KD", "KS", "AS"], 2: ["AH", "AD"]}
    g = rank_slot_deal(pack, hands, stock=["5H", "8D"], players=3)
    g.apply("draw")
    g.apply("meld 9 9 2 2 2")  # three wild cards: the most a meld takes
    g.apply("meld A A A")
    g.apply("discard 5")
    g.apply("draw")
    g.apply("meld 9 9 JK")
    g.apply("meld K K K")
    g.apply("discard A")
    g.apply("take A A")  # seat 2 alone; seats 0 and 1 one side, their 9s one meld
    (nines,) = [m for m in g.melds[0] if m.slot == 8]
    assert (nines.nat, nines.wild) == (4, 4)  # beyond max_wilds 3: it takes no more wilds
    assert GameState.from_json(g.to_json(), pack=pack) == g
    d = json.loads(g.to_json())
    del d["side_of"]
    with pytest.raises(meldkit.SaveError) as e:  # unjoined, such a meld is refused
        GameState.from_json(json.dumps(d), pack=pack)
    assert "melds[0][0]: a meld takes at most 3 wild cards" in str(e.value)


def test_sides_formed_keep_cards_conserved_and_saves_exact_over_random_play():
    assert check_conformance(cutthroat(), players=3, games=2, hands=2) > 0
    assert check_conformance(cutthroat(), players=4, games=1, hands=1) > 0
    two = CUTTHROAT.replace("{min: 3, max: 4, counts: [3, 4]", "{min: 2, max: 3, counts: [2, 3]")
    assert check_conformance(load(two, "two.yaml"), players=2, games=2, hands=2) > 0  # alone


def test_a_save_or_record_with_sides_no_formation_makes_is_refused():
    g = _lone_hand_game()
    g.apply("meld A A A")
    g.apply("discard K")
    g.apply("take K K")
    g.apply("meld Q Q Q")
    d = json.loads(g.to_json())
    for bad, says in (([0, 1, 2, 0], "side_of: expected 3 items"),
                      ([1, 1, 2], "side_of: [1, 1, 2] is not a formation of sides"),
                      ([0, 1, 1], "side_of[2]: seat 2 plays on side 1, but its own side 2 "
                                  "holds melds")):
        d2 = json.loads(json.dumps(d))
        d2["side_of"] = bad
        with pytest.raises(meldkit.SaveError) as e:
            GameState.from_json(json.dumps(d2), pack=g.pack)
        assert says in str(e.value), str(e.value)
    plain = meldkit.new_game("classic_canasta", players=3, seed=1)
    d3 = json.loads(plain.to_json())
    d3["side_of"] = [0, 0, 2]
    with pytest.raises(meldkit.SaveError) as e:
        GameState.from_json(json.dumps(d3))
    assert "side_of: given, but sides form during a hand only with players.sides_form" \
        in str(e.value)


def test_sides_form_is_refused_where_it_could_not_work():
    with pytest.raises(RulePackError) as e:
        load("extends: classic_canasta\nplayers: {sides_form: first_pile_take}\n", "p.yaml")
    assert ("p.yaml:2:11: players.sides_form: first_pile_take, but players.partners is "
            "optional: sides form from players who each play alone at the deal") in str(e.value)
    with pytest.raises(RulePackError) as e:
        load("extends: pony_canasta\nplayers: {min: 2, max: 2, partners: never, "
             "sides_form: first_pile_take}\n", "two.yaml")
    assert "it would change nothing" in str(e.value)
    with pytest.raises(RulePackError) as e:
        load("extends: rummy\nplayers: {sides_form: first_pile_take}\n", "t.yaml")
    assert ("t.yaml:2:11: players.sides_form: is read only by the rank-slot meld model") \
        in str(e.value)


# --------------------------------------------------------------------------- turn limit, free take

LIMITED = """meldkit: 1
extends: classic_canasta
name: short_hands
game: {hand_turn_limit: 4}
"""

FREE = """meldkit: 1
extends: classic_canasta
name: free_pile
pile: {take_with: [free, natural_pair], frozen_until_melded: false}
game: {hand_turn_limit: 200}
"""
"""A rank-slot pack whose pile is taken whole, melding nothing (as Buraco's)."""


def _draw_and_discard(g) -> None:
    g.apply("draw")
    g.apply(next(a for a in g.legal_actions() if a.type == "discard"))


def test_a_rank_slot_hand_still_going_after_the_turn_limit_is_void():
    pack = load(LIMITED, "short_hands.yaml")
    g = rank_slot_deal(pack, {0: ["AH", "AD", "AC", "KS"]}, stock=["7H", "7D", "7C", "8C"],
                       players=2)
    g.apply("draw")
    g.apply("meld A A A")  # melded cards would score 60 in a hand that ends by play
    g.apply("discard 7")
    for _ in range(2):
        _draw_and_discard(g)
    assert g.turns == 3 and not g.hand_results
    saved = json.loads(g.to_json())
    assert saved["turns"] == 3
    _draw_and_discard(g)  # the fourth turn: the hand ends void
    (hand,) = g.hand_results
    assert (hand.ended_by, hand.went_out, hand.final.void) == ("turn_limit", None, True)
    assert [s.total for s in hand.scores] == [0, 0] and g.scores == [0, 0]
    assert hand.final.to_dict()["void"] is True
    assert meldkit.score_hand(meldkit.Rules.of(pack), hand.final) == list(hand.scores)
    assert (g.hand_number, g.turns) == (2, 0)
    assert GameState.from_json(g.to_json(), pack=pack) == g
    from meldkit.rulesheet import rules_sheet

    assert "- A hand still going after 4 turns is void: nobody scores for it." in rules_sheet(
        pack)
    for key, value, says in (("turns", 4, "turns: expected 0 to 3, got 4"),
                             ("turns", "x", "turns:")):
        bad = dict(saved, **{key: value})
        with pytest.raises(meldkit.SaveError) as e:
            GameState.from_json(json.dumps(bad), pack=pack)
        assert says in str(e.value), str(e.value)
    d = json.loads(g.to_json())
    d["hand_results"][0]["final"]["void"] = False
    with pytest.raises(meldkit.SaveError) as e:
        GameState.from_json(json.dumps(d), pack=pack)
    assert "hand_results[0].final.void: false, but a hand is void exactly when" in str(e.value)
    plain = json.loads(meldkit.new_game("classic_canasta", players=2, seed=1).to_json())
    plain["turns"] = 0
    with pytest.raises(meldkit.SaveError) as e:
        GameState.from_json(json.dumps(plain))
    assert "turns: given, but the pack sets no game.hand_turn_limit" in str(e.value)


def test_the_pile_taken_freely_comes_whole_into_the_hand_melding_nothing():
    pack = load(FREE, "free_pile.yaml")
    g = rank_slot_deal(pack, {0: ["KS", "QH"], 1: ["5S"]}, upcard="9C",
                       stock=["7H", "8D"], players=2)
    g.apply("draw")  # seat 0 draws two: 7H 8D
    g.apply("discard K")  # the pile: 9C KS
    assert "take" in legal(g)
    assert g.check("take") is None  # seat 1 holds neither a 9 nor a K
    size = g.hand_size[1]
    g.apply("take")
    assert (g.phase, g.hand_size[1], g.pile) == ("play", size + 2, [])
    assert not any(g.melds[1])  # nothing melded
    assert GameState.from_json(g.to_json(), pack=pack) == g
    from meldkit.rulesheet import rules_sheet

    assert ("- An unfrozen pile may be taken whole into your hand, melding nothing (`take`) "
            "— or by melding its top card as below.") in rules_sheet(pack)


def test_a_frozen_pile_is_taken_freely_no_more_but_with_a_natural_pair():
    pack = load(FREE, "free_pile.yaml")
    g = rank_slot_deal(pack, {0: ["2S", "QH"], 1: ["5S", "5D"]}, upcard="9C",
                       stock=["7H", "8D", "4C", "4H"], players=2)
    g.apply("draw")
    g.apply("discard 2")  # a wild card freezes the pile
    g.apply("draw")
    g.apply("discard 4")
    assert g.pile_frozen and g.check("take").code == "pile/frozen-needs-pair"


def test_a_free_take_lets_hands_run_to_the_limit_and_games_end_over_random_play():
    pack = load(FREE, "free_pile.yaml")
    assert check_conformance(pack, players=4, games=2, hands=2) > 0
    from meldkit.bots import RandomBot

    g = meldkit.new_game(pack, players=2, seed=5)
    bots = [RandomBot(seed=0), RandomBot(seed=1)]
    while len(g.hand_results) < 3 and not g.is_over:
        g.apply(bots[g.current_player].choose(g))
    assert all(h.ended_by in ("went_out", "stock_empty", "turn_limit") for h in g.hand_results)


def test_the_free_take_and_the_turn_limit_are_refused_where_they_could_not_work():
    with pytest.raises(RulePackError) as e:
        load("extends: classic_canasta\npile: {take_with: [free, onto_meld]}\n", "f.yaml")
    text = str(e.value)
    assert ("f.yaml:2:8: pile.take_with: free and onto_meld are both 'take' with no cards"
            in text)
    assert "pile.take_with: free, but game.hand_turn_limit is null" in text
    with pytest.raises(RulePackError) as e:
        load("extends: classic_canasta\ngame: {hand_turn_limit: 0}\n", "z.yaml")
    assert "z.yaml:2:8: game.hand_turn_limit: expected null or at least 1, got 0" in str(
        e.value)
    with pytest.raises(RulePackError) as e:
        load("extends: rummy\npile: {take_with: [free]}\n", "t.yaml")
    assert "pile.take_with: is read only by the rank-slot meld model" in str(e.value)


# --------------------------------------------------------------------------- book kinds' adds

ADDS = SEVENS.split("pile:")[0].replace("sevens_wait", "closing_books") + """books:
  kinds:
    - {name: natural, max_wilds: 0, value: 500, adds: naturals}
    - {name: mixed, min_wilds: 1, value: 300, adds: none}
"""
"""A rank-slot pack whose canastas keep growing (classic's), but per kind: a natural one
takes only naturals, a mixed one closes at seven."""

TABLE_ADDS = BOOKS.split("books:")[0].replace("rummy_books", "rummy_closing") + """
books:
  size: 7
  kinds:
    - {name: clean_run, value: 200, sequence: true, max_wilds: 0, adds: naturals}
    - {name: dirty_run, value: 100, sequence: true, adds: none}
    - {name: clean, value: 200, max_wilds: 0, adds: wilds}
    - {name: dirty, value: 100}
scoring:
  style: winner_takes_hands
  items: [{item: winner_takes}, {item: books}]
"""


def _naturals_only(g, book: str, natural: str, wild: str, sentence: str, sheet_lines):
    """Lay ``book`` (a book of a kind that takes natural cards only): the ``natural``
    lay-off is offered and the ``wild`` one refused; it saves; the rules sheet says so."""
    from meldkit.rulesheet import rules_sheet

    g.apply(book)
    assert natural in legal(g) and wild not in legal(g)
    why = g.check(wild)
    assert (why.code, why.sentence) == ("add/book-naturals-only", sentence)
    g.apply(natural)
    assert GameState.from_json(g.to_json(), pack=g.pack) == g
    sheet = rules_sheet(g.pack)
    assert [line for line in sheet_lines if line not in sheet] == []


def test_a_book_kind_says_what_its_books_still_take_rank_slot():
    pack = load(ADDS, "closing_books.yaml")
    hand = "9H 9D 9C 9S 9H 9D 9C 9S KH KD KC KS KH 2C 2D".split()
    g = rank_slot_deal(pack, {0: hand}, stock=["2H", "KD"], players=2)
    g.apply("draw")
    assert "meld K K K K K K 2 2" not in legal(g)  # eight: a mixed canasta holds seven
    assert g.check("meld K K K K K K 2 2").code == "meld/too-large"
    g.apply("meld K K K K K 2 2")  # a mixed canasta: closed
    (kings,) = [m for m in g.melds[0] if m.slot == 12]
    assert kings.closed and g.open_melds[0][12] is None
    assert g.check("add K to K").code == "add/no-meld"
    _naturals_only(g, "meld 9 9 9 9 9 9 9", "add 9 to 9", "add 2 to 9",
                   "that book takes only natural cards",
                   ["- A natural book takes only natural cards.",
                    "- A mixed book is closed and takes no more cards, and the side may start "
                    "a new meld of its rank."])


def test_a_book_kind_says_what_its_books_still_take_table():
    pack = load(TABLE_ADDS, "rummy_closing.yaml")
    g = table_deal(pack, "3H 4H 5H 6H 7H 8H 9H 10H 2C", "KC KD KS 5C 9D JS QC 4D 6D",
                   stock="AC")
    g.apply("draw")  # a clean run of seven takes naturals only
    _naturals_only(g, "meld 3H 4H 5H 6H 7H 8H 9H", "add 10H to m1", "add 2C to m1",
                   "m1 is a book that takes only natural cards",
                   ["once a book, it takes only natural cards.",
                    "once a book, it is closed and takes no more cards."])


def test_a_closed_table_book_takes_no_lay_off_and_gives_no_wild_card_back():
    text = TABLE_ADDS.replace(
        "    - {name: run, type: run, min_size: 3, max_wilds: 1}\n",
        "    - {name: run, type: run, min_size: 3, max_wilds: 1}\n  lay_off: {win_back: true}\n")
    pack = load(text, "rummy_closed.yaml")
    hands = ["3H 4H 5H 2C 7H 8H 9H 10H 6H", "KC KD KS 5C 9D JS QC 4D 6D"]
    g = table_deal(pack, *hands, stock="AC")
    g.apply("draw")
    g.apply("meld 2C 3H 4H 5H 7H 8H 9H")  # the 2 stands for 6H: a dirty run of seven
    assert g.check("add 10H to m1").code == "add/book-closed"
    assert "trade 6H to m1" not in legal(g)  # a closed book gives no wild card back
    growing = load(text.replace("sequence: true, adds: none}", "sequence: true}"), "grow.yaml")
    g = table_deal(growing, *hands, stock="AC")
    g.apply("draw")
    g.apply("meld 2C 3H 4H 5H 7H 8H 9H")
    assert {"add 10H to m1", "trade 6H to m1"} <= legal(g)  # without adds: none


def test_book_adds_are_refused_where_they_would_change_nothing():
    with pytest.raises(RulePackError) as e:
        load("extends: samba\nbooks:\n  kinds:\n    - {name: samba, sequence: true, "
             "value: 1500, adds: none}\n", "s.yaml")
    assert ("s.yaml:4:50: books.kinds[0].adds: none, but a sequence takes cards until "
            "melds.sequences.max_size") in str(e.value)
    with pytest.raises(RulePackError) as e:
        load("extends: pony_tail\nbooks:\n  kinds:\n    - {name: w, wild_only: true, "
             "adds: naturals}\n", "w.yaml")
    assert "books.kinds[0].adds: naturals, but a book of wild cards only takes no natural" \
        in str(e.value)


def test_book_adds_keep_cards_conserved_and_legal_moves_exact_over_random_play():
    assert check_conformance(load(ADDS, "closing_books.yaml"), players=2, games=2,
                             hands=1) > 0
    assert check_conformance(load(TABLE_ADDS, "rummy_closing.yaml"), players=3, games=2,
                             hands=1) > 0
