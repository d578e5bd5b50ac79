"""``books.reopen: false``: a side that has closed a book of a rank may not start another
meld of it, nor take the pile to start one (Modern American Canasta; a pack author's).
The default, as in Hand and Foot, lets a closed book's rank start anew."""

from __future__ import annotations

import pytest

import meldkit
from meldkit import GameState, RulePackError
from meldkit.testing import refusal, stacked_game


def pack(reopen: bool):
    return meldkit.load_pack_text(
        "extends: classic_canasta\nname: closing\ndeck: {decks: 3}\n"
        "books: {close_at_size: true, reopen: "
        f"{str(reopen).lower()}}}\ninitial_meld: {{minimums: [{{minimum: 0}}], "
        "minimums_by_players: null}\n", filename="closing.yaml")


HAND = "KC KD KH KS KC KD KH KS KC KD 9C 9D 5S 6H 8C".split()
"""Ten kings of three decks (a book of seven closes, three are left) and odd cards."""


def closed_kings(reopen: bool):
    g = stacked_game(pack(reopen), 2, hands={0: HAND, 1: ["KH"]},
                     stock=["QC", "4D", "7C", "7D"])
    g.apply("draw")
    g.apply("meld K K K K K K K")  # a book of seven: closed at books.size
    return g


def test_no_new_meld_of_a_closed_rank_where_the_pack_says_so():
    g = closed_kings(reopen=False)
    assert refusal(g, "meld K K K").sentence == (
        "your side has closed a book of Ks: it may not start another meld of them "
        "(books.reopen: false)")
    assert not any(a.type == "meld" and "K" in str(a) for a in g.legal_actions())
    assert GameState.from_json(g.to_json(), pack=g.pack) == g
    free = closed_kings(reopen=True)
    assert free.check("meld K K K") is None  # the default: a new meld of kings starts
    from meldkit.rulesheet import rules_sheet
    assert "the side may not start another meld of that rank, nor take the pile to start " \
           "one." in rules_sheet(g.pack)


def test_nor_the_pile_taken_to_start_one():
    g = closed_kings(reopen=False)
    g.apply("discard 9")
    g.apply("draw")
    g.apply("discard K")  # seat 1 puts a king on the pile
    assert refusal(g, "take K K").code == "pile/rank-closed"


@pytest.mark.parametrize("text,expected", [
    ("extends: classic_canasta\nbooks: {reopen: false}\n",
     "t.yaml:2:9: books.reopen: false, but no book ever closes here"),
    ("extends: rummy\nbooks: {reopen: false}\n", "t.yaml:2:9: books.reopen"),
    ("extends: classic_canasta\nbooks:\n  close_at_size: true\n  reopen: false\n  kinds:\n"
     "    - {name: any, value: 300, adds: any}\n",
     "t.yaml:4:3: books.reopen: false, but no book ever closes here"),
])
def test_reopen_is_refused_where_no_book_closes(text, expected):
    with pytest.raises(RulePackError) as e:
        meldkit.load_pack_text(text, filename="t.yaml")
    assert expected in str(e.value)
