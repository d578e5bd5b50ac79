"""What an ace at the low end of a run counts toward a table pack's opening minimum
(``initial_meld.low_ace``): Scala 40 counts the ace of A-2-3 as 1 though an ace is worth 11
elsewhere.  Shown on a Scala-like child of ``rummy`` from stacked decks: the opening is made,
or not, exactly at the minimum, and ``legal_actions`` and ``apply`` agree."""

from __future__ import annotations

import pytest

import meldkit
from meldkit import RulePackError
from meldkit.rulesheet import rules_sheet
from meldkit.testing import refusal, stacked_game

SCALA = """extends: rummy
name: scala_like
cards:
  values: {A: 11}
melds:
  kinds:
    - {name: set, type: set, min_size: 3, max_size: 4}
    - {name: run, type: run, min_size: 3, ace: both}
initial_meld:
  minimums: [{minimum: MINIMUM}]
  low_ace: 1
"""


def scala(minimum: int = 40, extra: str = "", low_ace: str = "1"):
    text = SCALA.replace("MINIMUM", str(minimum)).replace("low_ace: 1", f"low_ace: {low_ace}")
    return meldkit.load_pack_text(text + extra, filename="scala_like.yaml")


LOW = "AS 2S 3S 4S KC KD KS 9H 9D 5C".split()
"""A-2-3-4 of spades (1 + 2 + 3 + 4 = 10 with the ace low) and three kings (30): 40."""


def legal(g) -> list[str]:
    return sorted(str(a) for a in g.legal_actions())


def test_an_ace_low_in_a_run_counts_low_ace_so_the_opening_is_made_exactly_at_the_minimum():
    g = stacked_game(scala(40), 2, hands={0: LOW}, upcard="7C", stock=["8C"])
    g.apply("draw")
    g.apply("meld AS 2S 3S 4S")  # 10 toward the 40
    assert not g.opened[0] and g.view(0)["contract"]["pending"]
    assert "meld KC KD KS" in legal(g)
    g.apply("meld KC KD KS")  # 10 + 30 = 40: opened
    assert g.opened[0]
    short = stacked_game(scala(41), 2, hands={0: LOW}, upcard="7C", stock=["8C"])
    for move in ("draw", "meld AS 2S 3S 4S", "meld KC KD KS"):
        short.apply(move)
    assert not short.opened[0]  # 40 < 41: still pending
    assert legal(short) == ["withdraw"]
    assert refusal(short, "discard 9H").code == "contract/pending"
    plain = stacked_game(scala(41, low_ace="null"), 2, hands={0: LOW}, upcard="7C",
                         stock=["8C"])
    for move in ("draw", "meld AS 2S 3S 4S", "meld KC KD KS"):
        plain.apply(move)
    assert plain.opened[0]  # without low_ace the ace counts 11: 20 + 30 = 50


def test_an_ace_high_in_a_run_or_in_a_set_counts_its_value():
    hand = "QH KH AH 5C 5D 5S 9C 8D 7S 2C".split()  # Q-K-A: 10 + 10 + 11; the fives 15
    g = stacked_game(scala(46), 2, hands={0: hand}, upcard="7C", stock=["8C"])
    for move in ("draw", "meld QH KH AH", "meld 5C 5D 5S"):
        g.apply(move)
    assert g.opened[0]  # 31 + 15 = 46
    aces = "AC AD AH 2S 3S 4S 9C 8D 7S 2C".split()  # a set of aces: 33; 2-3-4: 9
    g = stacked_game(scala(42), 2, hands={0: aces}, upcard="7C", stock=["8C"])
    for move in ("draw", "meld AC AD AH", "meld 2S 3S 4S"):
        g.apply(move)
    assert g.opened[0]  # 33 + 9 = 42


def test_a_card_taken_toward_the_opening_is_offered_only_when_the_low_ace_reaches_the_minimum():
    until = "pile: {taken_melded: until_opened}\n"
    hand = "AS 2S 3S KC KD KS 9H 9D 5C 7H".split()  # with the 4S taken: 10 + 30 = 40
    g = stacked_game(scala(40, until), 2, hands={0: hand}, upcard="4S", stock=["8C"])
    assert legal(g) == ["draw", "take"]
    g.apply("take")
    assert "meld AS 2S 3S 4S" in legal(g)
    for move in ("meld AS 2S 3S 4S", "meld KC KD KS"):
        g.apply(move)
    assert g.opened[0]
    short = stacked_game(scala(41, until), 2, hands={0: hand}, upcard="4S", stock=["8C"])
    assert legal(short) == ["draw"]  # no opening of 41 holds the 4S: it is not taken
    assert refusal(short, "take").code == "pile/cannot-take"


def test_the_rules_sheet_says_what_a_low_ace_counts_toward_the_opening():
    sheet = rules_sheet(scala(40))
    assert ("- Toward the opening minimum, an ace at the low end of a run (A-2-3) counts 1; "
            "an ace anywhere else counts its value.") in sheet
    assert "an ace at the low end" not in rules_sheet("rummy")


@pytest.mark.parametrize(("text", "expected"), [
    ("extends: rummy\ninitial_meld:\n  low_ace: 5\n",
     "low.yaml:3:3: initial_meld.low_ace: 5, but the pack sets no opening minimum "
     "(initial_meld.minimums), so no meld's points are counted: set one, or remove it"),
    ("extends: rummy\ninitial_meld:\n  minimums: [{minimum: 30}]\n  low_ace: 1\n",
     "low.yaml:4:3: initial_meld.low_ace: 1, but an ace already counts 1 (cards.values), "
     "so it would change nothing: remove it"),
    ("extends: rummy\nmelds:\n  kinds:\n    - {name: set, type: set, min_size: 3}\n"
     "    - {name: run, type: run, min_size: 3, ace: high}\n"
     "initial_meld:\n  minimums: [{minimum: 30}]\n  low_ace: 5\n",
     "low.yaml:8:3: initial_meld.low_ace: 5, but no run kind lets the ace be low "
     "(melds.kinds: ace is high), so no run has an ace at its low end: remove it"),
    ("extends: rummy\nmelds:\n  kinds:\n    - {name: set, type: set, min_size: 3}\n"
     "initial_meld:\n  minimums: [{minimum: 30}]\n  low_ace: 5\n",
     "low.yaml:7:3: initial_meld.low_ace: 5, but the pack has no run kind (melds.kinds), "
     "so no run has an ace at its low end: remove it"),
    ("extends: rummy\ndeck: {ranks: ['7', '8', '9', '10', J, Q, K]}\n"
     "initial_meld:\n  minimums: [{minimum: 30}]\n  low_ace: 5\n",
     "low.yaml:5:3: initial_meld.low_ace: 5, but the deck holds no aces (deck.ranks), so no "
     "run has an ace at its low end: remove it"),
    ("extends: rummy\ninitial_meld:\n  minimums: [{minimum: 30}]\n  low_ace: -1\n",
     "low.yaml:4:3: initial_meld.low_ace: expected null or an integer 0..1000000, got -1"),
])
def test_low_ace_is_refused_at_its_line_where_it_could_change_no_opening(text, expected):
    with pytest.raises(RulePackError) as e:
        meldkit.load_pack_text(text, filename="low.yaml")
    assert expected in str(e.value)
