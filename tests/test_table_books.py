"""Books in table-meld packs and book kinds that count as others (issue 24, item 4):
``books.size``/``books.kinds`` read by the table model (a meld of ``size`` cards or more is
a book of the first kind it matches, a run matching ``sequence: true`` kinds),
``going_out.min_books``/``required_books`` (a play may empty the hand only once the side
holds them), ``counts_as`` (a clean run is a clean book for going out, in both meld
models), and the scoring items ``books`` and ``bonus``."""

from __future__ import annotations

import json

import pytest

import meldkit
from meldkit import GameState, RulePackError
from meldkit.testing import check_conformance

BOOKS = """meldkit: 1
extends: rummy
name: rummy_books
players: {min: 2, max: 6, partners: never}
deck: {decks: 2}
deal: {hand: 9, hand_by_players: {2: 9, 5: 9, 6: 9}}
cards: {wild: ["2"]}
melds:
  kinds:
    - {name: set, type: set, min_size: 3, max_wilds: 1}
    - {name: run, type: run, min_size: 3, max_wilds: 1}
books:
  size: 7
  kinds:
    - {name: clean, value: 200, max_wilds: 0}
    - {name: clean_run, value: 200, sequence: true, max_wilds: 0, counts_as: clean}
    - {name: dirty, value: 100}
    - {name: dirty_run, value: 100, sequence: true}
going_out: {required_books: [clean], requires_discard: false}
scoring:
  style: winner_takes_hands
  items:
    - {item: laid}
    - {item: held}
    - {item: books}
    - {item: bonus, points: 100, when: out}
"""


def pack(text: str = BOOKS, name: str = "rummy_books.yaml"):
    return meldkit.load_pack_text(text, filename=name)


def deal(p, *hands: str, upcard: str = "QD", stock: str = ""):
    order = [c for hand in hands for c in hand.split()] + [upcard, *stock.split()]
    return meldkit.new_game(p, players=len(hands), seed=1, options={"first_player": 0},
                            deck_order=order)


RUN = "3H 4H 5H 6H 7H 8H 9H"
OTHER = "KC KD KS 5C 9D JS QC 4S 6D"


def legal(g) -> set[str]:
    return {str(a) for a in g.legal_actions()}


def test_going_out_needs_the_required_book_a_play_keeps_two_cards_until_then():
    g = deal(pack(), "3H 4H 5H 6H 7H 8H 9C JC JD", OTHER, stock="JH")
    g.apply("draw")  # 10 cards: a 6-card run, the jacks, 9C
    assert "meld 3H 4H 5H 6H 7H 8H" in legal(g)
    g.apply("meld 3H 4H 5H 6H 7H 8H")  # 4 left: 9C JC JD JH
    assert "meld JC JD JH" not in legal(g)  # it would leave one card, and no clean book
    refusal = g.check("meld JC JD JH")
    assert refusal.code == "out/required-books"
    assert "your side needs a clean book before going out" in refusal.sentence
    assert "discard 9C" in legal(g)


def test_a_clean_run_of_seven_counts_as_a_clean_book_and_the_hand_goes_out():
    g = deal(pack(), RUN + " JC JD", OTHER, stock="JH")
    g.apply("draw")
    g.apply("meld 3H 4H 5H 6H 7H 8H 9H")  # a clean run of 7: a clean_run book
    assert "meld JC JD JH" in legal(g)  # its counts_as: clean lets the side go out
    g = GameState.from_json(g.to_json(), pack=g.pack)
    g.apply("meld JC JD JH")
    (hand,) = g.hand_results
    assert (hand.ended_by, hand.went_out) == ("went_out", 0)
    assert hand.final.books == (("clean_run",), ())
    line = {s.team: s for s in hand.scores}
    assert line[0].points("books") == 200 and line[0].points("going_out") == 100
    assert line[0].book_kinds == ("clean_run",)
    assert line[0].points("laid") == sum(range(3, 10)) + 30
    assert GameState.from_json(g.to_json(), pack=g.pack) == g


def test_the_view_names_the_book_kind_each_meld_makes():
    g = deal(pack(), "3H 4H 5H 6H 7H 8H 2C JC JD", OTHER, stock="9H")
    g.apply("draw")
    g.apply("meld 3H 4H 5H 6H 7H 8H")
    assert [None] == [m["book"] for m in g.view(1)["melds"]]  # six cards: not yet a book
    g.apply("add 9H to m1")
    assert ["clean_run"] == [m["book"] for m in g.view(1)["melds"]]
    g.apply("add 2C to m1")  # a wild card makes it dirty
    assert ["dirty_run"] == [m["book"] for m in g.view(0)["melds"]]


def test_min_books_counts_any_book_of_the_pack():
    text = BOOKS.replace("going_out: {required_books: [clean], requires_discard: false}",
                         "going_out: {min_books: 1, requires_discard: false}").replace(
        ", counts_as: clean}", "}")  # (counts_as serves required_books only: refused here)
    g = deal(pack(text), "3H 4H 5H 6H 7H 8H 2C JC JD", OTHER, stock="JH")
    g.apply("draw")
    g.apply("meld 3H 4H 5H 6H 7H 8H")  # six cards: no book yet; 2C JC JD JH left
    assert g.check("meld JC JD JH").code == "out/needs-books"
    assert "needs 1 book (melds of 7 cards or more) to go out (it has 0)" in g.check(
        "meld JC JD JH").sentence
    g.apply("add 2C to m1")  # the run grows to seven with a wild 2: a dirty run, a book
    assert "meld JC JD JH" in legal(g)
    g.apply("meld JC JD JH")
    (hand,) = g.hand_results
    assert hand.final.books == (("dirty_run",), ())
    assert {s.team: s for s in hand.scores}[0].points("books") == 100


def test_books_keep_cards_conserved_and_saves_exact_over_random_play():
    assert check_conformance(pack(), players=3, games=3, hands=1) > 0


def test_book_keys_are_refused_where_nothing_counts_books_or_they_could_not_work():
    with pytest.raises(RulePackError) as e:
        pack("extends: rummy\nbooks: {kinds: [{name: clean, max_wilds: 0}]}\n", "idle.yaml")
    assert "idle.yaml:2:9: books.kinds: but nothing counts books in this pack" in str(e.value)
    bad = BOOKS.replace("counts_as: clean}", "counts_as: spotless}")
    with pytest.raises(RulePackError, match="'spotless' is not another book kind"):
        pack(bad)
    with pytest.raises(RulePackError, match="going_out.required_books does not name 'dirty'"):
        pack(BOOKS.replace("counts_as: clean}", "counts_as: dirty}"))
    with pytest.raises(RulePackError, match="pile.taken_melded: always, but going out needs"):
        pack(BOOKS + "pile: {taken_melded: always}\n")
    with pytest.raises(RulePackError, match="books are for packs that meld during play"):
        pack("extends: gin_rummy\ngoing_out: {min_books: 1}\n", "gin_books.yaml")
    with pytest.raises(RulePackError, match="books.close_at_size: is read only by the "
                       "rank-slot"):  # a table pack's books keep growing
        pack(BOOKS.replace("  size: 7\n", "  size: 7\n  close_at_size: false\n"))


def test_a_save_with_books_the_pack_does_not_have_is_refused():
    g = deal(pack(), RUN + " JC JD", OTHER, stock="JH")
    for move in ("draw", "meld 3H 4H 5H 6H 7H 8H 9H", "meld JC JD JH"):
        g.apply(move)
    save = json.loads(g.to_json())
    save["hand_results"][0]["final"]["books"] = [["gold"], []]
    with pytest.raises(meldkit.SaveError, match=r"hand_results\[0\]\.final\.books"):
        GameState.from_json(json.dumps(save), pack=g.pack)


def test_counts_as_lets_a_rank_slot_book_stand_in_for_another_kind_to_go_out():
    hf = meldkit.load_pack("hand_and_foot")
    child = meldkit.load_pack_text(
        "extends: hand_and_foot\nbooks:\n  kinds:\n"
        "    - {name: clean, max_wilds: 0, value: 500, counts_as: dirty}\n"
        "    - {name: dirty, min_wilds: 1, value: 300}\n", filename="hf_clean.yaml")
    four_clean = [(12, 0)] * 4  # four books of kings without a wild card
    plain = meldkit.new_game(hf, players=4, seed=1)
    reason = plain._go_out_reason(0, new_books=four_clean, reserve_gained=True)
    assert reason is not None and reason.code == "out/required-books"
    g = meldkit.new_game(child, players=4, seed=1)
    assert g._go_out_reason(0, new_books=four_clean, reserve_gained=True) is None
    assert g._go_out_reason(0, new_books=four_clean[:3], reserve_gained=True) is not None


def test_min_books_by_players_sets_the_books_to_go_out_for_the_table_size():
    text = BOOKS.replace(
        "going_out: {required_books: [clean], requires_discard: false}",
        "going_out: {min_books: 0, min_books_by_players: {2: 1}, requires_discard: false}",
    ).replace(", counts_as: clean}", "}")
    p = pack(text)
    two = deal(p, "3H 4H 5H 6H 7H 8H 9C JC JD", OTHER, stock="JH")
    three = deal(p, "3H 4H 5H 6H 7H 8H 9C JC JD", OTHER, "2D 3S 5C 7D 9S JH KC 4C 6C",
                 stock="JH")
    for g in (two, three):
        g.apply("draw")
        g.apply("meld 3H 4H 5H 6H 7H 8H")
    assert two.check("meld JC JD JH").code == "out/needs-books"  # two players: one book
    assert three.check("meld JC JD JH") is None  # three: none needed


def test_the_rules_sheet_says_the_books_and_what_going_out_needs():
    from meldkit.rulesheet import rules_sheet

    sheet = rules_sheet(pack())
    assert "- A meld on the table of 7 cards or more is a **book**; it may keep growing." in sheet
    assert ("- **clean_run** (200 points): a run with no wild card; it counts as a clean book "
            "for going out.") in sheet
    assert "- To go out, the player's side must hold 1 clean book; until it does" in sheet
    assert "- The player who goes out scores 100 more." in sheet
    assert "## Books" not in rules_sheet("rummy")


def test_the_rules_sheet_says_a_book_never_grows_where_nothing_is_laid_off():
    from meldkit.rulesheet import rules_sheet

    p = pack(BOOKS.replace("melds:\n", "melds:\n  lay_off: {onto: none}\n"))
    g = deal(p, RUN + " JC JD", OTHER, stock="10H")
    g.apply("draw")
    g.apply("meld " + RUN)  # a book of seven, and the owner holds the 10H that would fit
    assert g.check("add 10H to m1").code == "add/not-allowed"
    sheet = rules_sheet(p)
    assert ("- A meld on the table of 7 cards or more is a **book**; no card is ever laid "
            "off, so no meld grows: a book is laid whole, 7 cards or more in one meld, and "
            "stays as it was laid.") in sheet
    assert "keep growing" not in sheet
    assert "- Cards are never laid off on melds on the table." in sheet
