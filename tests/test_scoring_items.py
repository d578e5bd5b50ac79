"""One scoring pass built from items (``meldkit.kernel.scoring.score``): every bundled pack's
hands score as they did before the pass (the golden file ``tests/data/scoring_golden.json``,
written by ``benchmarks/scoring_golden.py`` from the scorers it replaced), the styles are
presets of items, and a score line's named fields are sums of its items by label."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import attrs
import pytest

import meldkit
from meldkit import TeamScore
from meldkit._scoring import canasta_items
from meldkit.kernel.scoring import (
    ITEMS,
    PRESETS,
    KnockTerms,
    ScoreLine,
    TableFinal,
    TableScore,
    compile_items,
    preset_items,
    rank_slot_preset,
    score,
)
from meldkit.kernel.table import TableRules

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("scoring_golden",
                                               ROOT / "benchmarks" / "scoring_golden.py")
golden = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(golden)
GOLDEN = json.loads(golden.GOLDEN.read_text())
CONFIGS = list(dict.fromkeys((g["pack"], g["players"], g["bot"]) for g in GOLDEN))
"""Each (pack, players, bot) once, in the golden file's order (the same in every xdist
worker: a set's order is not)."""


def test_the_golden_file_covers_every_bundled_pack_at_two_or_three_counts():
    packs = {g["pack"] for g in GOLDEN}
    assert set(meldkit.available_packs()) <= packs
    assert len(GOLDEN) == len(list(golden.games())) == 460
    assert golden.GOLDEN.stat().st_size < 250_000


@pytest.mark.parametrize("pack, players, bot", CONFIGS)
def test_every_hand_scores_as_the_golden_file_records(pack, players, bot):
    want = [g for g in GOLDEN if (g["pack"], g["players"], g["bot"]) == (pack, players, bot)]
    got = [golden.play(pack, players, g["seed"], bot) for g in want]  # each save reloads too
    assert [g["seed"] for g in want] == list(golden.SEEDS)
    assert want == got


# --------------------------------------------------------------------------- presets
def test_each_table_style_is_a_preset_of_items():
    assert {s: tuple(n for n, _ in spec) for s, spec in PRESETS.items() if spec} == {
        "winner_takes_hands": ("winner_takes", "plugin", "rejoin", "game_end"),
        "penalty": ("penalty", "plugin", "rejoin", "game_end"),
        "knock": ("knock", "plugin", "rejoin", "game_end"),
    }
    assert all(n in ITEMS for spec in PRESETS.values() if spec for n, _ in spec)


def test_the_canasta_preset_is_built_from_the_packs_scoring_keys():
    names = {p: tuple(n for n, _ in rank_slot_preset(meldkit.load_pack(p).spec))
             for p in ("classic_canasta", "pony_tail")}
    # only what can score: no reserve in Canasta, no going-out bonus in Pony Tail (PT-26)
    assert names["classic_canasta"] == ("books", "melded_cards", "bonus_cards", "hand_cards",
                                        "going_out", "plugin")
    assert names["pony_tail"] == ("books", "melded_cards", "bonus_cards", "dead_cards",
                                  "hand_cards", "reserve_cards", "plugin")
    going_out = canasta_items(meldkit.Rules.of(meldkit.load_pack("classic_canasta")))[4]
    assert going_out.params == (("bonus", 100), ("concealed", 100))


def _without_items(name: str):
    """Bundled pack ``name`` with its ``scoring.items`` cleared: it scores by its preset."""
    return meldkit.load_pack_text(f"extends: {name}\nname: {name}_preset\n"
                                  "scoring: {items: []}\n")


def _compiled(pack) -> tuple:
    if pack.spec.melds.kinds:  # the table meld model
        return TableRules(pack).items
    return canasta_items(meldkit.Rules.of(pack))


@pytest.mark.parametrize("name", [p for p in meldkit.available_packs()
                                  if p not in ("houses", "rummy_500", "buraco")])
def test_each_bundled_packs_explicit_items_equal_its_preset(name):
    pack = meldkit.load_pack(name)
    assert pack.spec.scoring.items  # written out, each with its rule clause
    listed, preset = _compiled(pack), _compiled(_without_items(name))
    assert [(i.name, i.params) for i in listed] == [(i.name, i.params) for i in preset]


def test_rummy_500_lists_items_that_no_style_presets_and_houses_scores_by_its_plugin():
    names = [i.name for i in _compiled(meldkit.load_pack("rummy_500"))]
    assert names == ["laid", "held", "plugin", "rejoin", "game_end"]  # R5-9: no preset scores so
    buraco = [i.name for i in _compiled(meldkit.load_pack("buraco"))]  # BU-13
    assert buraco == ["laid", "held", "books", "bonus", "reserve_untaken", "plugin", "rejoin",
                      "game_end"]
    with pytest.raises(meldkit.RulePackError, match=r"scoring\.items"):
        meldkit.load_pack_text("extends: houses\nscoring: {items: [{item: books}]}\n")


def test_an_item_refuses_a_parameter_it_does_not_take():
    with pytest.raises(ValueError, match="'going_out' takes bonus, concealed parameters, "
                                         "not colour"):
        compile_items([("going_out", {"bonus": 100, "concealed": 0, "colour": 1})])


def test_gin_knock_undercut_and_big_gin_as_items():
    items = preset_items("knock", KnockTerms(25, 31, 25, True))
    final = TableFinal(team_of=(0, 1), deadwood=(7, 3), ended_by="knock", went_out=0)
    assert score(final, items, zero_sum=True) == (
        (ScoreLine(0), ScoreLine(1, (("deadwood", 4), ("undercut", 25)))), (-29, 29),
        "undercut")
    big = attrs.evolve(final, deadwood=(0, 12), big_gin=True, multiplier=2)
    assert score(big, items, zero_sum=True) == (
        (ScoreLine(0, (("deadwood", 24), ("big_gin", 62))), ScoreLine(1)), (86, -86),
        "big_gin")


def test_a_void_hand_scores_nothing_but_its_game_end_items():
    final = TableFinal(team_of=(0, 1, 2), deadwood=(5, 6, 7), ended_by="wall", went_out=None,
                       game_end=((), (("game", 50),), ()))
    for style in ("winner_takes_hands", "penalty"):
        lines, net, ending = score(final, preset_items(style), zero_sum=True)
        assert [s.items for s in lines] == [(), (("game", 50),), ()]
        assert (net, ending) == ((0, 0, 0), "wall")


def test_the_plugin_runs_where_its_item_stands_before_the_game_end_items():
    final = TableFinal(team_of=(0, 1), deadwood=(0, 9), ended_by="went_out", went_out=0,
                       game_end=((("box", 25),), ()))
    seen = []

    def adjust(f, lines):
        seen.append([s.items for s in lines])
        return [attrs.evolve(s, items=s.items + (("tip", 1),)) for s in reversed(lines)]

    lines, _, _ = score(final, preset_items("winner_takes_hands"), zero_sum=True,
                        adjust=adjust)
    assert seen == [[(("cards_in_other_hands", 9),), ()]]
    assert [s.items for s in lines] == [(("tip", 1),),  # the plugin's order kept
                                        (("cards_in_other_hands", 9), ("tip", 1), ("box", 25))]


# --------------------------------------------------------------------------- score lines
def test_named_fields_are_sums_of_the_items_by_label():
    line = ScoreLine(1, (("going_out", 100), ("going_out", 100), ("hand_cards", -5),
                         ("deadwood", 12)))
    assert (line.going_out, line.hand_cards, line.books, line.total) == (200, -5, 0, 207)
    assert line.adjustments == (("deadwood", 12),)
    assert TableScore is ScoreLine


def test_a_team_score_written_by_fields_equals_the_one_written_by_items():
    by_fields = TeamScore(team=0, books=300, book_kinds=("mixed",), melded_cards=250,
                          going_out=200, adjustments=(("tip", 10),))
    by_items = TeamScore(0, items=(("going_out", 100), ("books", 300), ("tip", 10),
                                   ("melded_cards", 250), ("hand_cards", 0),
                                   ("going_out", 100)), book_kinds=("mixed",))
    assert by_fields == by_items and hash(by_fields) == hash(by_items)
    assert by_fields.items == (("books", 300), ("melded_cards", 250), ("going_out", 200),
                               ("tip", 10))
    assert by_fields.total == 760


def test_a_team_score_evolves_by_its_named_fields_as_before():
    s = TeamScore(team=1, books=500, hand_cards=-20)
    tipped = attrs.evolve(s, adjustments=s.adjustments + (("tip", 10),))
    assert tipped == TeamScore(team=1, books=500, hand_cards=-20, adjustments=(("tip", 10),))
    assert attrs.evolve(tipped, books=0).items == (("hand_cards", -20), ("tip", 10))
    assert tipped.to_dict() == {
        "team": 1, "books": 500, "book_kinds": [], "melded_cards": 0, "bonus_cards": 0,
        "dead_cards": 0, "hand_cards": -20, "reserve_cards": 0, "going_out": 0,
        "adjustments": [["tip", 10]]}
    assert repr(s) == ("TeamScore(team=1, books=500, book_kinds=(), melded_cards=0, "
                       "bonus_cards=0, dead_cards=0, hand_cards=-20, reserve_cards=0, "
                       "going_out=0, adjustments=())")
