"""The keys added for the canasta family (Classic Canasta, Hand and Foot): each is generic
(it works in any canasta pack), refused with a located error when it contradicts another
setting, and stated in the rules sheet without contradicting another sentence.

The clause tests (``test_classic_canasta_rules.py``, ``test_hand_and_foot_rules.py``) play
each key inside its game; these tests change one key at a time on a bundled pack.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import meldkit
from meldkit import RulePackError
from meldkit.rulesheet import rules_sheet
from meldkit.schema_docs import pack_keys
from meldkit.testing import stacked_game


def pack(text: str, name: str = "variant") -> meldkit.RulePack:
    return meldkit.load_pack_text(f"name: {name}\n" + text)


def problems(tmp_path: Path, text: str) -> list[str]:
    path = tmp_path / "variant.yaml"
    path.write_text(text)
    with pytest.raises(RulePackError) as info:
        meldkit.load_pack(path)
    return str(info.value).splitlines()


# --------------------------------------------------------------------------- scoring keys
@pytest.mark.parametrize("sets_by, points", [("side", 800), ("player", 400)])
def test_bonus_sets_by_side_counts_a_partnerships_red_threes_together(sets_by, points):
    p = pack(f"extends: classic_canasta\nscoring: {{bonus: {{sets_by: {sets_by}}}}}\n")
    g = stacked_game(p, 4, hands={0: "3H 3D KC KD KH AC AD AH".split(), 2: ["3H", "3D"]},
                     stock="5C 5D 5H 5S 4S".split())
    g.apply("draw"), g.apply("meld K K K"), g.apply("meld A A A")
    g._end_hand("stock_empty", None)
    assert points == g.hand_results[0].scores[0].bonus_cards  # 2 + 2 red threes


def test_required_books_named_twice_need_two_books_in_any_pack():
    p = pack("extends: pony_canasta\ngoing_out: {required_books: [natural, natural]}\n")
    g = stacked_game(p, 2, hands={0: "9C 9C 9D 9D 9H 9H 9S KC KD KH QC QD QH".split()},
                     reserves={0: "JC JD JH 8C 8D 8H 10C 10D 10H AC AD AH".split()},
                     stock=["KS", "5C"])
    g.apply("draw")
    for a in ("meld 9 9 9 9 9 9 9", "meld K K K K", "meld Q Q Q", "meld J J J", "meld 8 8 8",
              "meld 10 10 10"):
        g.apply(a)
    why = g.check("meld A A A")  # one natural canasta: the 5 left could not be discarded
    assert ("hand/keep-a-card", True) == (
        why.code, why.sentence.endswith("your side needs a natural book before going out"))


def test_game_hands_ends_the_game_after_that_many_hands_in_any_pack():
    p = pack("extends: pony_tail\ngame: {hands: 2}\n")
    g = meldkit.new_game(p, players=4, seed=1)
    g._end_hand("stock_empty", None)
    assert not g.is_over
    g._end_hand("stock_empty", None)
    assert g.is_over


def test_initial_meld_by_hand_replaces_the_score_tiers_in_any_pack():
    p = pack("extends: pony_canasta\ninitial_meld: {minimums: [], by_hand: [10, 20]}\n")
    g = meldkit.new_game(p, players=2, seed=1)
    seen = []
    for _ in range(3):
        seen.append(g.initial_minimum(0))
        g._end_hand("stock_empty", None)
    assert [10, 20, 20] == seen


# --------------------------------------------------------------------------- loader traps
def test_a_required_reserve_that_is_never_picked_up_is_located(tmp_path):
    found = problems(tmp_path, "extends: hand_and_foot\nname: v\n"
                               "reserve:\n  pickup_on_empty_hand: false\n")
    assert any(f"{tmp_path / 'variant.yaml'}:4:3: going_out.requires_reserve" in line
               and "can never be picked up" in line for line in found)


def test_a_kind_required_more_often_than_a_side_could_hold_it_is_located(tmp_path):
    text = ("extends: classic_canasta\nname: v\ngoing_out:\n"
            "  required_books: [natural, sevens, sevens]\n"
            "books:\n  kinds:\n    - {name: natural, max_wilds: 0, value: 500}\n"
            "    - {name: sevens, ranks: ['7'], value: 300}\n")
    found = problems(tmp_path, text)
    assert any(":4:37: going_out.required_books[2]" in line and "at most 1 sevens book" in line
               for line in found), found


def test_required_books_repeated_with_closing_books_is_accepted():
    p = pack("extends: hand_and_foot\ngoing_out: {required_books: [clean, clean, clean]}\n")
    assert ["clean"] * 3 == p.spec.going_out.required_books


@pytest.mark.parametrize("text, where, says", [
    ("initial_meld: {minimums: [{minimum: 50}]}\n", "initial_meld.minimums",
     "not used when initial_meld.by_hand is given"),
    ("game: {hands: 0}\n", "game.hands", "expected null or at least 1"),
    ("pile: {take_count: 0}\n", "pile.take_count", "expected null or at least 1"),
    ("turn: {draw_by_players: {5: 2}}\n", "turn.draw_by_players.5",
     "5 players is not a player count"),
    ("deck: {decks_by_players: {4: 0}}\n", "deck.decks_by_players.4",
     "0 decks for 4 players"),
    ("game: {target_by_players: {6: 100}}\n", "game.target_by_players.6",
     "6 players is not a player count"),
    ("initial_meld: {by_hand: [], minimums_by_players: {4: [{below: 10, minimum: 5}]}}\n",
     "initial_meld.minimums_by_players.4[0].below", "the last tier must have below: null"),
    ("scoring: {bonus: {by_count: {0: 5}}}\n", "scoring.bonus.by_count.0",
     "expected a count of at least 1"),
])
def test_by_players_tables_and_new_keys_refuse_impossible_values(tmp_path, text, where, says):
    found = problems(tmp_path, "extends: hand_and_foot\nname: v\n" + text)
    assert any(f": {where}: " in line and says in line for line in found), found


def test_partners_by_players_needs_optional_partnerships(tmp_path):
    found = problems(tmp_path, "extends: hand_and_foot\nname: v\n"
                               "players: {partners_by_players: {4: true}}\n")
    assert any("players.partners_by_players: applies only with partners: optional" in line
               for line in found), found


def test_players_counts_outside_min_and_max_are_located(tmp_path):
    found = problems(tmp_path, "extends: classic_canasta\nname: v\n"
                               "players: {counts: [2, 8]}\n")
    assert any("players.counts[1]: 8 is outside players.min..max" in line for line in found)


def test_bonus_sets_by_side_without_sets_is_refused(tmp_path):
    found = problems(tmp_path, "extends: pony_tail\nname: v\nscoring: {bonus: {sets_by: side}}\n")
    says = "scoring.bonus.sets_by: side, but scoring.bonus.set_size is 0 and by_count is empty"
    assert any(says in line
               for line in found), found


# --------------------------------------------------------------------------- rules sheets
@pytest.mark.parametrize("keep, requires", [(True, True), (True, False), (False, True),
                                            (False, False)])
def test_the_turn_and_going_out_sentences_never_contradict(keep, requires):
    p = pack(f"extends: pony_canasta\nturn: {{keep_card_to_discard: {str(keep).lower()}}}\n"
             f"going_out: {{requires_discard: {str(requires).lower()}}}\n")
    sheet = rules_sheet(p)
    must_keep = "You must keep a card to discard: a play that would leave you" in sheet
    by_melding = "by melding them all or by discarding the last one" in sheet
    last_discarded = "the last one by discarding it" in sheet
    assert (must_keep, by_melding, last_discarded) == (keep and requires, not requires, requires)
    if not keep and requires:
        assert "they leave the hand (this is not going out)" in sheet
    if not requires:
        assert "must always keep a card" not in sheet


def test_classic_canasta_sheet_states_the_differences_by_player_count():
    sheet = rules_sheet("classic_canasta")
    for line in ("2, 3, 4 or 6 players: 2 or 3 play each alone; 4 or 6 play in 2 teams",
                 "3 decks (162 cards) with 6 players",
                 "11 cards (15 cards with 2 players, 13 cards with 3 players, 13 cards with 6 "
                 "players)",
                 "| 7,500 or more | 150 |",
                 "5 held by one side score 1,000",
                 "5,000 points (10,000 with 6 players)",
                 "draw 1 card (2 cards with 2 players)",
                 "3s (treys) are melded only by a player going out",
                 "frozen for a side that has not melded",
                 "at least 1 book (2 books with 2 players, 2 books with 6 players)",
                 "4 held by one side score 800"):
        assert line in sheet, line


def test_hand_and_foot_sheet_states_its_rules():
    sheet = rules_sheet("hand_and_foot")
    for line in ("50 in hand 1, 90 in hand 2, 120 in hand 3, 150 in hand 4",
                 "Only the top 7 cards of the pile are taken",
                 "after melding their last card they go on playing from the foot",
                 "two clean books and two dirty books",
                 "The game is 4 hands"):
        assert line in sheet, line


def test_melding_out_onto_a_one_card_foot_never_leaves_a_player_without_a_move():
    # Found by the pack fuzzer: a hand melded out picks up a one-card foot; that card could
    # not be discarded (it would be going out without the books), so the game was stuck.
    # Before the fix, 5 of these 12 random games reached a dead end.
    from meldkit.bots import make_bot, play_game

    pack = meldkit.load_pack_text(
        "meldkit: 1\nextends: hand_and_foot\nname: one_card_foot\n"
        "players: {min: 2, max: 4, partners: never, teams: null}\ndeal: {reserve: 1}\n")
    for seed in range(12):
        game = meldkit.new_game(pack, players=2, seed=seed)
        play_game(game, [make_bot("random", seed=s) for s in range(2)], max_actions=100_000)
        assert game.is_over


# --------------------------------------------------------------------------- sequence keys
# melds.sequences, books.kinds[].sequence and pile.onto_book (Samba), each on another pack.
SHORT_RUNS = ("extends: classic_canasta\nmelds:\n  sequences: {min_size: 4, max_size: 5}\n")


def _after_draw(p, hand: str, stock: str = "5S 6S") -> meldkit.GameState:
    g = stacked_game(p, 4, hands={0: hand.split()}, stock=stock.split())
    g.apply("draw")
    return g


def test_sequences_bounds_come_from_the_pack():
    g = _after_draw(pack(SHORT_RUNS), "KS KD KC 4H 5H 6H 7H 8H 9H")
    g.apply("meld K K K")
    assert "run/too-small" == g.check("run 4H 5H 6H").code
    assert g.check("run 4H 5H 6H 7H") is None
    assert "run/too-large" == g.check("run 4H 5H 6H 7H 8H 9H").code
    g.apply("run 4H 5H 6H 7H")
    g.apply("extend 8H to 4H-7H")
    team = g.view(0)["teams"][0]["melds"]
    assert {"rank": "run", "sequence": "4H-8H", "closed": True, "book": None} == {
        k: team[1][k] for k in ("rank", "sequence", "closed", "book")}
    assert "extend/no-sequence" == g.check("extend 9H to 4H-8H").code  # closed at 5


def test_a_sequence_book_kind_scores_a_sequence_of_book_size():
    p = pack("extends: classic_canasta\nmelds:\n  sequences: {}\nbooks:\n  kinds:\n"
             "    - {name: straight, sequence: true, value: 1000}\n"
             "    - {name: natural, max_wilds: 0, value: 500}\n"
             "    - {name: mixed, min_wilds: 1, value: 300}\n")
    g = _after_draw(p, "4C 5C 6C 7C 8C 9C 10C QD QH")
    g.apply("run 4C 5C 6C 7C 8C 9C 10C")
    g._end_hand("stock_empty", None)
    score = g.hand_results[0].scores[0]
    assert (("straight",), 1000) == (score.book_kinds, score.books)


def test_a_sequence_shorter_than_a_book_is_never_one():
    g = _after_draw(pack(SHORT_RUNS), "KS KD KC 4H 5H 6H 7H 8H 9H")
    g.apply("run 4H 5H 6H 7H 8H")
    g._end_hand("stock_empty", None)
    assert () == g.hand_results[0].scores[0].book_kinds


@pytest.mark.parametrize("onto_book, code", [(True, None), (False, "pile/onto-book")])
def test_onto_book_decides_whether_the_top_card_alone_goes_onto_a_canasta(onto_book, code):
    p = pack(f"extends: classic_canasta\npile: {{onto_book: {str(onto_book).lower()}}}\n")
    g = stacked_game(p, 4, hands={0: "9C 9C 9D 9D 9H 9H 9S KC".split(), 1: ["9S"]},
                     stock="5S 6S 7S 8S".split())
    for a in ("draw", "meld 9 9 9 9 9 9 9", "discard 5"):
        g.apply(a)
    g.apply("draw")
    g.apply("discard 9")  # seat 1 gives seat 2 a 9 on top of the pile
    why = g.check("take")  # seat 2: alone onto the side's canasta of 9s
    assert code == (why.code if why else None)


def test_the_pile_taken_onto_a_sequence_needs_an_unfrozen_pile():
    g = stacked_game("samba", 4, hands={0: "KS KD KC QS QD QC 4H 5H 6H".split(),
                                        1: ["7H", "2C"], 3: ["2C"]},
                     stock="5S 6S 7S 8S 9S 10S".split())
    for a in ("draw", "meld K K K", "meld Q Q Q", "run 4H 5H 6H", "discard 5S"):
        g.apply(a)
    g.apply("draw")
    assert "discard/not-in-hand" == g.check("discard 7D").code  # a discard names its suit
    g.apply("discard 7H")                       # seat 1: 7H on top (it also holds 7S)
    assert g.check("take to 4H-6H") is None     # seat 2 (a partner) may take it
    g.apply("draw"), g.apply("discard 9S")      # seat 2 draws instead
    g.apply("draw"), g.apply("discard 2C")      # seat 3 freezes the pile with a deuce
    g.apply("draw"), g.apply("discard 6S")      # seat 0
    g.apply("draw"), g.apply("discard 7S")      # seat 1: a 7 of another suit on top
    assert "pile/frozen-needs-pair" == g.check("take to 4H-6H").code


@pytest.mark.parametrize("text, where, says", [
    ("melds:\n  sequences: {ranks: ['4', '5', '2']}\n", "melds.sequences.ranks[2]",
     "'2' is wild: sequences hold natural cards only"),
    ("melds:\n  sequences: {ranks: ['4', '5', '4'], max_size: 3}\n", "melds.sequences.ranks[2]",
     "'4' is already ranks[0]"),
    ("melds:\n  sequences: {ranks: ['4', '5', 'Z']}\n", "melds.sequences.ranks[2]",
     "'Z' is not a rank"),
    ("melds:\n  sequences: {max_size: 12}\n", "melds.sequences.max_size",
     "12 is more than the 11 ranks a sequence may hold"),
    ("melds:\n  sequences: {min_size: 1}\n", "melds.sequences.min_size", "expected 2 to max_size"),
    ("books:\n  kinds: [{name: s, sequence: true, value: 1, max_wilds: 0}]\n",
     "books.kinds[0].max_wilds", "applies to books of a rank"),
])
def test_sequence_keys_that_cannot_work_are_located(tmp_path, text, where, says):
    found = problems(tmp_path, "extends: samba\nname: v\n" + text)
    assert any("variant.yaml:" in line and f": {where}: " in line and says in line
               for line in found), found


def test_a_sequence_book_without_sequences_is_located(tmp_path):
    found = problems(tmp_path, "extends: classic_canasta\nname: v\nbooks:\n  kinds:\n"
                               "    - {name: s, sequence: true, value: 1}\n")
    assert any("variant.yaml:5:17: books.kinds[0].sequence: true, but the pack has no melds.sequences"
               in line for line in found), found


def test_a_save_with_a_broken_sequence_is_refused_at_the_card():
    import json

    from meldkit import SaveError

    g = _after_draw("samba", "KS KD KC 4H 5H 6H 7H")
    g.apply("meld K K K"), g.apply("run 4H 5H 6H")
    data = json.loads(g.to_json())
    melds = data["melds"][0]
    run = next(m for m in melds if m[0] == 15)
    run[1][1], run[1][2] = run[1][2], run[1][1]  # 4H 6H 5H
    with pytest.raises(SaveError, match=r"melds\[0\]\[1\]\[1\]\[1\]: 6H does not continue"):
        meldkit.GameState.from_json(json.dumps(data))
    run[1][1], run[1][2] = run[1][2], run[1][1]
    run[2] = True  # a three-card sequence marked closed
    with pytest.raises(SaveError, match=r"closed exactly when it holds 7 cards"):
        meldkit.GameState.from_json(json.dumps(data))


def test_samba_sheet_states_sequences_and_the_pile_rule():
    sheet = rules_sheet("samba")
    for line in ("A **sequence** is 3 cards or more of one suit in consecutive ranks",
                 "until it holds 7 cards; then it takes no more",
                 "| samba | a sequence of 7 cards of one suit | 1500 |",
                 "or the end of one of its sequences, if that meld is not yet a book (7 cards)",
                 "at most 2 wild cards",
                 "6 held by one side score 1,000"):
        assert line in sheet, line
    assert "natural_and_wild" not in sheet and "one natural card of its rank and one wild" \
        not in sheet


def test_a_meld_of_a_rank_keeps_the_suit_a_sequence_needs():
    g = stacked_game("samba", 4, hands={0: "7H 7S 7D 6H 8H KC KD KH 2C 2D".split(),
                                        2: "9S 9S 9D 9H 10H 8H 2S".split()},
                     stock="5S 6S 5D 6D 5H 6H".split())
    g.apply("draw"), g.apply("meld K K K"), g.apply("meld 7 7 2")
    assert ["7D", "7S"] == sorted(g.view(0)["teams"][0]["melds"][1]["cards"])[1:]
    assert "7H" in g.view(0)["hand"]  # it continues 6H and 8H
    g.apply("discard 5S"), g.apply("draw"), g.apply("discard 5D")
    g.apply("draw"), g.apply("meld 9 9 2")  # seat 2: a 9S first (two of them), not the 9H
    hand = g.view(2)["hand"]
    assert "9H" in hand and hand.count("9S") + hand.count("9D") == 1


@pytest.mark.parametrize("text, code", [
    ("extend 7H", "notation/sequence-needs-target"),
    ("extend 7H to 4H", "notation/bad-sequence"),
    ("take to 4H-6S", "notation/bad-sequence"),
    ("take to 6H-4H", "notation/bad-sequence"),
    ("take to 4H-XX", "notation/bad-card"),
    ("take 5H to 4H-6H", "notation/shape"),
    ("run", "notation/needs-cards"),
    ("run JK 5H 6H", "run/wild"),  # (a wild card in a sequence: one code, stop 47)
    ("run 4H 5H 6H to 4H-6H", "notation/shape"),
    ("discard 9", "notation/bad-card"),
    ("discard 9H 9S", "notation/one-discard"),
])
def test_sequence_notation_that_cannot_be_read_is_refused_with_a_code(text, code):
    g = meldkit.new_game("samba", players=4, seed=1)
    before = g.to_json()
    assert code == g.check(text).code
    with pytest.raises(meldkit.NotationError):
        g.apply(text)
    assert before == g.to_json()


def test_sequence_moves_and_saves_are_refused_in_a_pack_without_sequences():
    import json

    from meldkit import SaveError

    g = meldkit.new_game("classic_canasta", players=4, seed=1)
    assert "notation/unknown-verb" == g.check("run 4H 5H 6H").code
    save = json.loads(g.to_json())
    save["melds"][0].append([15, [save["stock"].pop()], False, False])  # slot 15: a sequence
    with pytest.raises(SaveError, match=r"melds\[0\]\[0\]\[0\]: this pack melds no sequences"):
        meldkit.GameState.from_json(json.dumps(save))


def test_onto_book_takes_a_boolean(tmp_path):
    found = problems(tmp_path, "extends: samba\nname: v\npile: {onto_book: 'no'}\n")
    assert any("pile.onto_book" in line for line in found), found


def test_sequence_ranks_written_with_aliases_are_read_alike_by_engine_bot_and_sheet():
    from meldkit.bots import _tables

    p = pack("extends: samba\nmelds:\n  sequences: {ranks: ['4', '5', '6', '7', '8', '9', T, J, Q,"
             " K, '1']}\n")
    g = meldkit.new_game(p, players=4, seed=1)
    assert g.rules.seq_ranks == _tables(g).seq_ranks  # T is 10, 1 is the ace
    assert "in the order 4s, 5s, 6s, 7s, 8s, 9s, 10s, Js, Qs, Ks, As" in rules_sheet(p)


# --------------------------------------------------------------------------- wild melds
def _wild_top_game(extra: str) -> tuple[meldkit.RulePack, meldkit.GameState]:
    """Seat 1 opens for seats 1 and 3; seat 2 discards a 2C; seat 3, holding two 2s, is to
    draw with the 2C on top (samba with wild melds, and ``extra``)."""
    p = pack("extends: samba\nmelds: {wild_melds: true}\n" + extra)
    g = stacked_game(p, 4, hands={0: ["4H", "KS"], 1: "KC KD KH QC QD QH 9S".split(),
                                  2: ["2C", "JS"], 3: ["2D", "2H", "8D"]},
                     upcard="9C", stock="5S 6S 7S 8S 5D 6D 7D 8C".split())
    for a in ("draw", "discard 4H", "draw", "meld K K K", "meld Q Q Q", "discard 9S", "draw",
              "discard 2C"):
        g.apply(a)
    return p, g


def _wild_top_line(p: meldkit.RulePack) -> list[str]:
    return [line for line in rules_sheet(p).splitlines()
            if line.startswith("- A wild card") and "on top" in line]


def test_a_wild_card_on_top_is_taken_only_as_the_sheet_says():
    # a deuce freezes the pile, and a frozen pile is taken with natural cards: never with 2 2
    p, g = _wild_top_game("")
    assert g.pile_frozen and not [a for a in g.legal_actions() if a.type == "take"]
    why = g.check("take 2 2")
    assert ("pile/frozen-needs-pair", True) == (
        why.code, why.sentence.endswith("a wild 2C on top cannot be taken"))
    assert _wild_top_line(p) == ["- A wild card on top cannot be taken: discarding it freezes "
                                 "the pile, and a frozen pile is taken only with natural cards."]
    # blocked: the blocked_by line says so, and nothing claims the take
    p, g = _wild_top_game("pile: {blocked_by: [3C, 3S, JK, '2']}\n")
    assert "pile/blocked" == g.check("take 2 2").code and _wild_top_line(p) == []
    # a deuce that does not freeze the pile: taken with two deuces, for the wild meld
    p, g = _wild_top_game("pile: {freezes_on: [JK]}\n")
    assert not g.pile_frozen and g.check("take 2 2") is None
    assert ["take 2 2"] == [str(a) for a in g.legal_actions() if a.type == "take"]
    assert _wild_top_line(p)[0].startswith("- A wild card on top of a pile that is not frozen is "
                                           "taken with two wild cards of its own rank")
    # frozen_take_with: same_rank_pair takes a frozen pile with two deuces for a deuce
    p, g = _wild_top_game("pile: {frozen_take_with: same_rank_pair}\n")
    assert g.pile_frozen and g.check("take 2 2") is None
    assert _wild_top_line(p) == ["- A wild card on top is taken with two wild cards of its own "
                                 "rank, for the side's wild meld."]


# --------------------------------------------------------------------------- dead cards
@pytest.mark.parametrize("going_out_ranks, sheet, mid_hand", [
    ('["3"]', "melded only by a player going out (see *Melds*)", "meld/only-going-out"),
    ("[]", "melded like any other card of their rank", None),
])
def test_dead_cards_meld_as_their_rank_does_and_the_sheet_says_so(going_out_ranks, sheet,
                                                                   mid_hand):
    # cards.dead only scores: black threes meld as melds.going_out_ranks lets threes meld
    p = pack(f"extends: samba\ncards: {{dead: [3C, 3S]}}\nmelds: {{going_out_ranks: "
             f"{going_out_ranks}}}\nscoring:\n  dead_in_hand: -100\n  items: [{{item: books}}, "
             "{item: melded_cards}, {item: dead_cards}, {item: hand_cards}]\n")
    assert (f"- **Dead cards:** the 3 of clubs and the 3 of spades — {sheet}; each left in a "
            "hand scores -100 (see *Scoring*).") in rules_sheet(p).splitlines()
    hand = "4H 5H 6H 7H 8H 9H 10H KS KD KC KH KS KD 3C 3S"
    g = _after_draw(p, hand, stock="3C KC QD 5D")
    assert mid_hand == (lambda why: why and why.code)(g.check("meld 3 3 3"))
    g.apply("run 4H 5H 6H 7H 8H 9H 10H"), g.apply("meld K K K K K K K")
    g.apply("meld 3 3 3")  # the last cards: going out with a samba and a canasta
    assert g.last_hand.ended_by == "went_out"
    doc = next(k.doc for k in pack_keys() if k.path == "cards.dead")
    assert "never melded" not in doc and "melds.going_out_ranks" in doc


# --------------------------------------------------------------------------- books no meld reaches
def test_a_sequence_book_longer_than_any_sequence_is_refused_naming_both_keys(tmp_path):
    # samba's own samba kind, left unreachable by a child's shorter sequences
    found = problems(tmp_path, "extends: samba\nname: v\nmelds:\n  sequences: {max_size: 5}\n")
    at = [line.split("variant.yaml:", 1)[1] for line in found if "variant.yaml:" in line]
    assert len(at) == 1 and at[0].startswith(
        "4:15: books.kinds[0]: 'samba' is a sequence book, but melds.sequences.max_size (5) "
        "stops a sequence at 5 cards, fewer than books.size (7): no meld could ever become "
        "this book (raise melds.sequences.max_size to 7, or remove the kind) (books.kinds[0] "
        "is inherited from ") and at[0].endswith("samba.yaml:45:7)"), found
    # written in one pack: at the kind's line, and at the required_books that names it
    found = problems(tmp_path, "extends: samba\nname: v\nmelds:\n  sequences: {max_size: 5}\n"
                               "books:\n  kinds:\n    - {name: natural, max_wilds: 0, value: 500}"
                               "\n    - {name: escalera, sequence: true, value: 1500}\n"
                               "going_out:\n  required_books: [escalera]\n")
    assert [line.split("variant.yaml:", 1)[1] for line in found if "variant.yaml:" in line] == [
        "8:7: books.kinds[1]: 'escalera' is a sequence book, but melds.sequences.max_size (5) "
        "stops a sequence at 5 cards, fewer than books.size (7): no meld could ever become "
        "this book (raise melds.sequences.max_size to 7, or remove the kind)",
        "10:20: going_out.required_books[0]: 'escalera' is a book kind no meld could ever "
        "become (melds.sequences.max_size (5) stops a sequence at 5 cards, fewer than "
        "books.size (7)), so no side could ever go out"], found


def test_a_wild_book_without_wild_melds_is_refused_at_the_kind(tmp_path):
    found = problems(tmp_path, "extends: samba\nname: v\nbooks:\n  kinds:\n"
                               "    - {name: mixed, value: 300}\n"
                               "    - {name: bolivia, wild_only: true, value: 2500}\n")
    assert any(line.endswith(
        "variant.yaml:6:7: books.kinds[1]: 'bolivia' is a book of wild cards only, but "
        "melds.wild_melds is false, so no meld is made of wild cards only: no meld could ever "
        "become this book (set melds.wild_melds: true, or remove the kind)")
        for line in found), found


def test_a_set_book_longer_than_any_set_is_refused_in_a_table_pack(tmp_path):
    found = problems(tmp_path, "extends: buraco\nname: v\nmelds:\n  kinds:\n"
                               "    - {name: sequence, type: run, max_wilds: 1}\n"
                               "    - {name: set, type: set, max_wilds: 1, max_size: 4}\n")
    assert any("variant.yaml:4:3: books.kinds[1]: 'clean_set' is a book of a set, but every "
               "set kind of melds.kinds holds at most 4 cards (max_size), fewer than "
               "books.size (7)" in line for line in found), found
    found = problems(tmp_path, "extends: buraco\nname: v\nmelds:\n  kinds:\n"
                               "    - {name: sequence, type: run, max_wilds: 1}\n"
                               "    - {name: set, type: set, max_wilds: 1, distinct_suits: true}\n")
    assert any("variant.yaml:4:3: books.kinds[3]: 'dirty_set' is a book of a set, but every "
               "set kind of melds.kinds holds at most 4 cards (max_size, or four with "
               "distinct_suits)" in line for line in found), found


# --------------------------------------------------------------------------- wording
BOLIVIA = ("extends: samba\nmelds: {wild_melds: true}\nbooks:\n  kinds:\n"
           "    - {name: bolivia, wild_only: true, value: 2500, adds: none}\n"
           "    - {name: escalera, sequence: true, value: 1500}\n"
           "    - {name: natural, max_wilds: 0, value: 500}\n"
           "    - {name: mixed, min_wilds: 1, value: 300}\n"
           "going_out: {min_books: 2, required_books: [escalera]}\n")


def test_book_names_take_a_or_an_and_the_going_out_sentence_reads_as_one():
    p = pack(BOLIVIA)
    sheet = rules_sheet(p).splitlines()
    assert ("A player may go out only when their side has at least 2 books, including one "
            "escalera book.") in sheet
    g = _after_draw(p, "KS KD KC KH KS KD KC QS QD QC QH QS QD QC JH", stock="JD JC")
    g.apply("meld K K K K K K K"), g.apply("meld Q Q Q Q Q Q Q")
    assert g.check("meld J J J").sentence.endswith(
        "your side needs an escalera book before going out")
    # the required books alone reach min_books: no second clause; a reserve joins with "and"
    sheet = rules_sheet(pack("extends: hand_and_foot\n")).splitlines()
    assert ("A player may go out only when their side has two clean books and two dirty "
            "books, and the player has picked up their foot.") in sheet


def test_a_closed_wild_book_frees_the_wild_meld_and_the_sheet_says_so():
    p = pack(BOLIVIA)
    assert ("- A bolivia book is closed and takes no more cards, and the side may start a new "
            "meld of wild cards only.") in rules_sheet(p).splitlines()
    g = _after_draw(p, "JK JK 2C 2D 2H 2S 2C 2D 2H 2S KS KD KC QS QD", stock="QC 4D")
    g.apply("meld 2 2 2 2 2 JK JK")  # a bolivia, closed
    assert g.check("meld 2 2 2") is None  # a new meld of wild cards only
    g.apply("meld 2 2 2")
    assert [(m["book"], m["closed"]) for m in g.view(0)["teams"][0]["melds"]] == [
        ("bolivia", True), (None, False)]


# --------------------------------------------------------------------------- shadowed book kinds
def test_a_book_kind_an_earlier_kind_always_matches_first_is_refused_naming_it(tmp_path):
    """A book is of the first kind it matches: with dirty (any wild cards) above clean
    (none), every clean book was dirty, so hand and foot's two clean books could never be
    held and no side could go out."""
    found = problems(tmp_path, "extends: hand_and_foot\nname: v\nbooks:\n  kinds:\n"
                               "    - {name: dirty, min_wilds: 0, value: 300}\n"
                               "    - {name: clean, max_wilds: 0, value: 500}\n"
                               "going_out:\n  required_books: [clean, dirty]\n")
    why = ("books.kinds[0], 'dirty', comes before it and matches every book of any natural "
           "rank with any number of wild cards, and a book is of the first kind it matches")
    assert [line.split("variant.yaml:", 1)[1] for line in found if "variant.yaml:" in line] == [
        f"6:7: books.kinds[1]: 'clean' is a book kind, but {why}: no meld could ever become "
        "this book (list it before 'dirty', or remove the kind)",
        f"8:20: going_out.required_books[0]: 'clean' is a book kind no meld could ever become "
        f"({why}), so no side could ever go out"], found


@pytest.mark.parametrize("kinds,later,earlier,matches", [
    (("{name: dirty, sequence: true, value: 100}",  # buraco: a table pack
      "{name: clean, sequence: true, max_wilds: 0, value: 200}"),
     "clean", "dirty", "every sequence book with any number of wild cards"),
    (("{name: high, ranks: [K, A], max_wilds: 2, value: 300}",
      "{name: aces, ranks: [A], min_wilds: 1, max_wilds: 1, value: 500}"),
     "aces", "high", "every book of the ranks K, A with at most 2 wild cards"),
])
def test_a_kind_inside_an_earlier_kinds_bounds_is_refused_in_either_meld_model(
        tmp_path, kinds, later, earlier, matches):
    parent = "buraco" if "sequence" in kinds[0] else "classic_canasta"
    found = problems(tmp_path, f"extends: {parent}\nname: v\nbooks:\n  kinds:\n"
                               f"    - {kinds[0]}\n    - {kinds[1]}\n"
                               "going_out: {required_books: []}\n")
    assert any(line.endswith(
        f"variant.yaml:6:7: books.kinds[1]: '{later}' is a book kind, but books.kinds[0], "
        f"'{earlier}', comes before it and matches {matches}, and a book is of the first "
        f"kind it matches: no meld could ever become this book (list it before "
        f"'{earlier}', or remove the kind)") for line in found), found


def test_book_kinds_an_earlier_kind_matches_only_in_part_load():
    for kinds in (
            "[{name: a, min_wilds: 1, max_wilds: 3}, {name: b, min_wilds: 2}]",  # 4+ wilds
            "[{name: sevens, ranks: ['7']}, {name: any}]",  # the other ranks
            "[{name: high, ranks: [K, A], max_wilds: 0}, {name: aces, ranks: [A]}]",
            "[{name: clean, max_wilds: 0}, {name: dirty}]",  # the usual order
            "[{name: run, sequence: true}, {name: set}]"):  # a sequence is no set
        pack(f"extends: samba\nbooks:\n  kinds: {kinds}\n"
             "going_out: {required_books: []}\n")
