"""``pile.discard_layable: false``: a card the player could lay off now is laid off, not
discarded (Scala 40; a pack author's, left over from stop 41), except the last card, going
out; the ban lifts where it would leave no move."""

from __future__ import annotations

import pytest

import meldkit
from meldkit import GameState, RulePackError
from meldkit.rulesheet import rules_sheet
from meldkit.testing import stacked_game


def pack(extra: str = ""):
    return meldkit.load_pack_text("extends: rummy\nname: layable\npile: {discard_layable: "
                                  "false}\n" + extra, filename="layable.yaml")


def test_a_card_that_fits_a_meld_on_the_table_is_laid_off_not_discarded():
    g = stacked_game(pack(), 2, hands={0: "5H 6H 7H 9C KD QS 2C 3D JS 4S".split()},
                     upcard="8D", stock=["8H", "10C"])
    g.apply("draw")  # the 8H
    g.apply("meld 5H 6H 7H")
    assert "add 8H to m1" in [str(a) for a in g.legal_actions()]
    assert "discard 8H" not in [str(a) for a in g.legal_actions()]
    why = g.check("discard 8H")
    assert why.code == "discard/layable"
    assert why.sentence == ("the 8H could be laid off on m1: a card that fits a meld on the "
                            "table is laid off, not discarded (pile.discard_layable: false)")
    assert g.check("discard KD") is None
    assert GameState.from_json(g.to_json(), pack=g.pack) == g
    plain = stacked_game("rummy", 2, hands={0: "5H 6H 7H 9C KD QS 2C 3D JS 4S".split()},
                         upcard="8D", stock=["8H", "10C"])
    for move in ("draw", "meld 5H 6H 7H"):
        plain.apply(move)
    assert plain.check("discard 8H") is None  # the default: any card may be discarded


def test_the_last_card_going_out_may_be_discarded_though_it_fits():
    g = stacked_game(pack(), 2, hands={0: "5H 6H 7H 9C 9D 9S KD KH KS 8H".split()},
                     upcard="8D", stock=["4H"])
    for move in ("draw", "meld 5H 6H 7H", "meld 9C 9D 9S", "meld KD KH KS"):
        g.apply(move)
    assert g.check("discard 8H").code == "discard/layable"  # 8H and 4H: one may go on m1
    g.apply("add 4H to m1")
    assert "discard 8H" in [str(a) for a in g.legal_actions()]  # the last card: free
    g.apply("discard 8H")
    assert g.hand_results[-1].went_out == 0


@pytest.mark.parametrize("text,expected", [
    ("extends: rummy\npile: {discard_layable: false}\nmelds:\n  lay_off: {onto: none}\n",
     "t.yaml:2:8: pile.discard_layable: false, but lay_off.onto is none: no card is ever "
     "laid off, so no discard could have been laid off"),
    ("extends: gin_rummy\npile: {discard_layable: false}\n",
     "t.yaml:2:8: pile.discard_layable: false, but in a knocking pack nobody lays off during "
     "play"),
    ("extends: classic_canasta\npile: {discard_layable: false}\n",
     "t.yaml:2:8: pile.discard_layable"),
])
def test_discard_layable_is_refused_where_nothing_is_laid_off_in_play(text, expected):
    with pytest.raises(RulePackError) as e:
        meldkit.load_pack_text(text, filename="t.yaml")
    assert expected in str(e.value)


def test_the_rules_sheet_says_so():
    assert ("A card the player could lay off on a meld on the table now may not be "
            "discarded") in rules_sheet(pack())
