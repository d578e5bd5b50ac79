"""Knocking packs (``scoring.style: knock``): the lay-off and going-out keys either change the
game or are refused at their line, the rules sheet says what the engine does, and a
lay-off or knock test refused names its real cause."""

from __future__ import annotations

import pytest

import meldkit
from meldkit import RulePackError
from meldkit.kernel.rulesheet import table_sections

# Seat 0 knocks with the 2D after drawing the QD; the defender's 4S fits m1 (AS 2S 3S).
KNOCKER = "AS 2S 3S 7C 7D 7H KC KD KH 2D"
DEFENDER = "4S 9C 9D 9H JD QC QS 2H 3H 6D"
KNOCKER_MELDS = ("meld AS 2S 3S", "meld 7C 7D 7H", "meld KC KD KH")


def refusals(text: str, filename: str = "k.yaml") -> list[str]:
    """The loader's problems with the pack ``text``, one ``file:line:col: message`` each."""
    with pytest.raises(RulePackError) as e:
        meldkit.load_pack_text(text, filename=filename)
    return [str(p) for p in e.value.problems]


def knocked(pack, knocker=KNOCKER, defender=DEFENDER, stock="QD"):
    """Seat 0 draws and knocks, discarding the QD; the defender is to move."""
    order = [*knocker.split(), *defender.split(), "8C", *stock.split()]
    g = meldkit.new_game(pack, players=2, seed=1, options={"first_player": 0},
                         deck_order=order)
    for move in ("pass", "pass", "draw", "knock", "discard QD", *KNOCKER_MELDS, "done"):
        g.apply(move)
    return g


def legal(g) -> list[str]:
    return sorted(str(a) for a in g.legal_actions())


# --------------------------------------------------------------------------- lay_off.onto


def test_onto_own_or_side_in_a_knocking_pack_is_refused_at_its_line():
    for onto in ("own", "side"):
        assert [f"k.yaml:2:19: melds.lay_off.onto: {onto}, but scoring.style is knock: nobody "
                "lays off during play (melds are laid only on a knock), and after a knock the "
                "defender lays off onto the knocker's melds: write any (the defender lays off, "
                "the default) or none (nobody lays off)"] == refusals(
            f"extends: gin_rummy\nmelds: {{lay_off: {{onto: {onto}}}}}\n")


def test_onto_none_in_a_knocking_pack_stops_the_defenders_lay_offs():
    pack = meldkit.load_pack_text("extends: gin_rummy\nname: no_lay_offs\n"
                                  "melds: {lay_off: {onto: none, max_per_end: null}}\n")
    g = knocked(pack)
    assert ("layoff", 1, ["done", "meld 9C 9D 9H"]) == (g.phase, g.current_player, legal(g))
    why = g.check("add 4S to m1")
    assert ("add/not-allowed", "laying off is not allowed in this game") == (why.code,
                                                                             why.sentence)
    assert meldkit.GameState.from_json(g.to_json(), pack=pack).to_json() == g.to_json()
    with pytest.raises(meldkit.SaveError, match="layoff_stage: expected 2: nobody lays off"):
        meldkit.GameState.from_json(g.to_json().replace('"layoff_stage":2', '"layoff_stage":1'),
                                    pack=pack)
    g.apply("meld 9C 9D 9H")
    g.apply("done")
    assert (4 + 10 + 10 + 10 + 2 + 3 + 6) - 2 == g.hand_results[-1].net[0]  # the 4S counts
    assert ("- The defender then lays down their own melds; nobody lays off cards on the "
            "knocker's melds.") in table_sections(pack.spec)


def test_onto_any_in_a_knocking_pack_lets_the_defender_lay_off():
    for text in ("extends: gin_rummy\n", "extends: gin_rummy\nmelds: {lay_off: {onto: any}}\n"):
        g = knocked(meldkit.load_pack_text(text + "name: lay_offs\n"))
        assert ("layoff", ["add 4S to m1", "done"]) == (g.phase, legal(g))


def test_with_onto_none_a_lay_off_cap_or_lay_offs_on_gin_are_refused():
    assert ["k.yaml:2:19: melds.lay_off.max_per_end: 2, but lay_off.onto is none: the "
            "defender lays nothing off after a knock, so no cap on lay-offs applies: remove it "
            "(or write null over an inherited one) (melds.lay_off.max_per_end is inherited "
            "from rulepacks/gin_rummy.yaml:50:5)"
            ] == refusals("extends: gin_rummy\nmelds: {lay_off: {onto: none}}\n")
    assert ["k.yaml:3:9: knock.lay_off_on_gin: true, but lay_off.onto is none: the defender "
            "lays nothing off after a knock, not after gin either: remove it"] == refusals(
        "extends: gin_rummy\nmelds: {lay_off: {onto: none, max_per_end: null}}\n"
        "knock: {lay_off_on_gin: true}\n")
    assert ["k.yaml:2:31: melds.lay_off.max_per_end: 0, but lay_off.onto is none: no card is "
            "ever laid off, so no cap on lay-offs applies: remove it (or write null over an "
            "inherited one)"] == refusals(
        "extends: rummy\nmelds: {lay_off: {onto: none, max_per_end: 0}}\n")


# --------------------------------------------------------------------------- requires_discard


def test_requires_discard_false_in_a_knocking_pack_is_refused_at_its_line():
    assert ["k.yaml:2:13: going_out.requires_discard: false, but scoring.style is knock: a "
            "knocker always discards as they knock, and a knock that melds every card without "
            "a discard is big gin, which knock.big_gin_bonus sets: remove it"] == refusals(
        "extends: gin_rummy\ngoing_out: {requires_discard: false}\n")


# --------------------------------------------------------------------------- max_per_end: 0

NO_LAY_OFFS = "extends: gin_rummy\nname: capped\nmelds: {lay_off: {max_per_end: 0}}\n"
SET_AND_RUN = "4S 9C 9D 9H JD QC 7S 2H 3H 6D"  # the 4S fits m1 (a run), the 7S m2 (a set)


def test_max_per_end_0_in_a_knocking_pack_stops_lay_offs_on_runs_and_sets_as_the_sheet_says():
    pack = meldkit.load_pack_text(NO_LAY_OFFS)
    g = knocked(pack, defender=SET_AND_RUN)
    assert ("layoff", ["done"]) == (g.phase, legal(g))
    assert "add 4S to m1" in legal(knocked("gin_rummy", defender=SET_AND_RUN))
    assert "add 7S to m2" in legal(knocked("gin_rummy", defender=SET_AND_RUN))
    lines = table_sections(pack.spec)
    assert ("- The defender then lays down their own melds; nobody lays off cards on the "
            "knocker's melds.") in lines
    assert "## Laying off" not in lines
    assert not any("At most 0" in line or "defender then lays off" in line for line in lines)


def test_max_per_end_0_in_a_rummy_pack_is_said_as_no_lay_offs():
    lines = table_sections(meldkit.load_pack_text(
        "extends: rummy\nname: capped\nmelds: {lay_off: {max_per_end: 0}}\n").spec)
    assert "- Cards are never laid off on melds on the table." in lines
    assert not any("At most 0" in line or "lay off cards" in line for line in lines), lines


TWO_DECKS = ("extends: rummy\nname: two_decks\ndeck: {decks: 2}\n"
             "melds: {lay_off: {max_per_end: 2}}\n")


def two_decks_set_laid():
    """Seat 0 of a two-deck rummy game lays 7C 7D 7H (m1) and still holds 7S 7C 7D 7H."""
    order = "7C 7D 7H 7S 7C 7D 7H 2C 4D 9S 2D 3D 5D 6D 8C 9C 10D JC QD KS AS KH".split()
    g = meldkit.new_game(meldkit.load_pack_text(TWO_DECKS), players=2, seed=1,
                         options={"first_player": 0}, deck_order=order)
    for move in ("draw", "meld 7C 7D 7H"):
        g.apply(move)
    return g


def test_max_per_end_caps_the_cards_laid_off_onto_a_set_and_the_sheet_says_so():
    assert ("- At most 2 cards may be laid off at each end of a run, and 2 onto a set beyond "
            "the cards it was laid with.") in table_sections(meldkit.load_pack("gin_rummy").spec)
    g = two_decks_set_laid()
    for move in ("add 7S to m1", "add 7C to m1"):
        g.apply(move)
    assert not [a for a in g.legal_actions() if a.type == "add"]  # a third: beyond the cap


def test_lay_offs_on_gin_beside_max_per_end_0_are_refused_at_their_line():
    assert ["k.yaml:4:9: knock.lay_off_on_gin: true, but lay_off.max_per_end is 0: the "
            "defender lays nothing off after a knock, not after gin either: remove it"
            ] == refusals(NO_LAY_OFFS + "knock: {lay_off_on_gin: true}\n")


# --------------------------------------------------------------------------- add/end-full


def test_a_lay_off_refused_by_the_cap_names_it():
    g = meldkit.new_game("gin_rummy", players=2, seed=1, options={"first_player": 0},
                         deck_order=["5S", "6S", "7S", "7C", "7D", "7H", "KC", "KD", "KH", "2D",
                                     "2S", "3S", "4S", "8S", "9S", "10S", "JC", "QD", "2H", "6D",
                                     "8C", "QH"])
    for move in ("pass", "pass", "draw", "knock", "discard QH", "meld 5S 6S 7S",
                 "meld 7C 7D 7H", "meld KC KD KH", "done",
                 "add 4S to m1", "add 3S to m1", "add 8S to m1", "add 9S to m1"):
        g.apply(move)
    for card, end in (("2S", "low"), ("10S", "high")):
        why = g.check(f"add {card} to m1")
        assert ("add/end-full", f"{card} cannot be laid off on m1: at most 2 cards may be laid "
                f"off at each end of a run (melds.lay_off.max_per_end), and its {end} end has "
                "2") == (why.code, why.sentence)
    assert "add/does-not-fit" == g.check("add 2H to m1").code  # no cap: it does not fit
    g = two_decks_set_laid()
    for move in ("add 7S to m1", "add 7C to m1"):
        g.apply(move)
    why = g.check("add 7D to m1")
    assert ("add/end-full", "7D cannot be laid off on m1: at most 2 cards may be laid off onto "
            "a set beyond the cards it was laid with (melds.lay_off.max_per_end), and it has 2"
            ) == (why.code, why.sentence)
    g = knocked(meldkit.load_pack_text(NO_LAY_OFFS), defender=SET_AND_RUN)
    why = g.check("add 7S to m2")
    assert ("add/end-full", "7S cannot be laid off on m2: no card may be laid off on a meld in "
            "this game (melds.lay_off.max_per_end: 0)") == (why.code, why.sentence)


# --------------------------------------------------------------------------- knock.test


OPENSPIEL = ("knock.test: openspiel judges a one-deck game without wild cards, jokers "
             "included, at every table, of the standard 52 cards; here ")
INHERITED = " (knock.test is inherited from rulepacks/gin_rummy.yaml:67:3)"  # (not the path
# meldkit is installed at: a bundled parent is named by its place in the bundle)


@pytest.mark.parametrize("extra, at, cause", [
    ('deck: {ranks: [A, "2", "3", "4", "5", "6", "7", J, Q, K]}\n', "2:8",
     "deck.ranks strips the deck to 10 of the 13 ranks: remove deck.ranks"),
    ("deck: {decks: 2}\n", "2:8", "deck.decks is 2: give deck.decks: 1"),
    ("deck: {decks_by_players: {2: 3}}\n", "2:8",
     "deck.decks_by_players gives 3 decks at 2 players: remove deck.decks_by_players"),
    ("deck: {jokers_per_deck: 2}\ncards: {values: {JK: 0}}\n", "2:8",
     "deck.jokers_per_deck adds 2 jokers: give deck.jokers_per_deck: 0"),
    ("cards: {wild: ['2']}\n", "2:9", "cards.wild makes 2 wild: give cards.wild: []"),
    ("cards: {turned_wild: rank}\n", "2:9", "cards.turned_wild is rank (a rank turned wild "
     "at the deal): give cards.turned_wild: none"),
    ("deck: {decks: 2, ranks: [A, K, Q, J, '10', '9', '8']}\n", "2:18",
     "deck.ranks strips the deck to 7 of the 13 ranks and deck.decks is 2: remove deck.ranks "
     "and give deck.decks: 1"),
])
def test_openspiels_knock_test_names_what_keeps_it_from_judging_the_pack(extra, at, cause):
    assert [f"k.yaml:{at}: {OPENSPIEL}{cause}, or use best_discard{INHERITED}"] == refusals(
        "extends: gin_rummy\n" + extra)
