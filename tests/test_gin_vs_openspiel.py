"""meldkit's gin_rummy against OpenSpiel's gin_rummy, a peer nobody here wrote.

2,000 hands are played in lockstep from identical deals (``meldkit.testing_openspiel``): at
every decision the legal moves must correspond one to one, and every hand must end the
same way with the same scores. The hands are played by a mix of policies (uniform random,
and greedy-on-deadwood players that knock early, play for gin, never knock before the wall,
lay off and meld lazily or fully) so that every kind of ending occurs; the counts are
asserted over the first 500 (the quick pass; the 2,000 are a slow test). ``benchmarks/gin_differential.py`` runs 100,000 hands.
"""

from __future__ import annotations

import pytest

pyspiel = pytest.importorskip(
    "pyspiel",
    reason="open_spiel is not installed (pip install -e '.[openspiel]'): the differential "
    "test against OpenSpiel's gin_rummy cannot run",
)

from meldkit import testing_openspiel as osd  # noqa: E402

HANDS = 2_000
COVERAGE_HANDS = 500
"""The first hands of the 2,000, enough for every ending, rare move and limit to occur (the
quick tests ask that of them; the 2,000 play in the slow pass)."""


@pytest.fixture(scope="module")
def summary() -> osd.Summary:
    return osd.run_hands(HANDS, first_seed=0)


@pytest.fixture(scope="module")
def coverage() -> osd.Summary:
    return osd.run_hands(COVERAGE_HANDS, first_seed=0)


def test_meld_ids_translate_as_openspiel_numbers_them():
    utils = pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)
    assert [sorted(utils.int_to_meld[i]) for i in range(185)] == [sorted(m) for m in osd.MELDS]


def test_card_codes_name_the_cards_openspiel_names():
    utils = pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)
    expected = [utils.card_string(i) for i in range(52)]  # "As", "Tc", "Kh"
    assert expected == [osd.card_code(i).replace("10", "T")[:-1] + osd.card_code(i)[-1].lower()
                        for i in range(52)]


def test_openspiel_deadwood_port_equals_openspiel_on_meld_rich_hands():
    # the 11-card figure OpenSpiel's knock test uses is not the least deadwood; the port
    # must give OpenSpiel's figure exactly, ties between arrangements included
    import random

    utils = pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)
    rng = random.Random(5)
    for _ in range(1500):
        pool = [c for c in range(52) if c % 13 < rng.randint(5, 13)]  # few ranks: many melds
        hand = rng.sample(pool, rng.choice((10, 11)))
        assert utils.min_deadwood(hand) == osd.openspiel_min_deadwood(hand), hand


@pytest.mark.parametrize("phase, actions", [
    ("first_upcard", [52, 53, 54]),
    ("draw", [52, 53]),
    ("discard", list(range(52)) + [55]),
    ("knock", list(range(52)) + [54] + list(range(56, 241))),
    ("layoff", list(range(52)) + [54] + list(range(56, 241))),
    ("wall", [54, 55]),
])
def test_every_openspiel_move_translates_to_notation_and_back(phase, actions):
    texts = [osd.to_notation(phase, a) for a in actions]
    assert len(set(texts)) == len(texts)
    assert [osd.to_openspiel(phase, t) for t in texts] == actions


def test_a_move_of_another_phase_is_refused_with_its_phase():
    with pytest.raises(ValueError, match="no meldkit notation in phase 'draw'"):
        osd.to_notation("draw", 55)
    with pytest.raises(ValueError, match="no OpenSpiel action in phase 'wall'"):
        osd.to_openspiel("wall", "discard 7H")


def test_2000_hands_agree_with_openspiel_move_for_move_and_score_for_score(summary):
    assert summary.hands == HANDS
    first = summary.differences[0].repro() if summary.differences else ""
    assert [] == [r.seed for r in summary.differences], first


def test_a_card_laid_off_that_fits_a_set_and_a_run_extends_the_run_in_both():
    # OpenSpiel's lay-off names only the card, and counts it on every run it touches: after
    # 5H (which fits 5C5D5S and 6H7H8H), 4H may follow; after 4H, 3H may not (two per end)
    deal = ("5C 5D 5S 6H 7H 8H 2C 3C 4C AS  5H 4H 3H KH 9S QS QD KC KD JD  2S").split()
    moves = ["take", "knock", "discard 2S", "meld 5C 5D 5S", "meld 6H 7H 8H", "meld 2C 3C 4C",
             "done", "add 5H", "add 4H", "done", "done"]
    script = osd.Scripted(moves)
    record = osd.play_hand(0, (script, script), deal=deal)
    assert (record.difference, record.ending) == (None, "knock")
    assert record.openspiel_returns == record.meldkit_net == [71.0, -71.0]


def test_a_scripted_move_openspiel_does_not_allow_is_refused_by_name():
    deal = ("5C 5D 5S 6H 7H 8H 2C 3C 4C AS  5H 4H 3H KH 9S QS QD KC KD JD  2S").split()
    script = osd.Scripted(["take", "knock", "discard 2S", "meld 5C 5D 5S", "done"])
    with pytest.raises(ValueError, match="move 5 'done' is not legal in OpenSpiel here"):
        osd.play_hand(0, (script, script), deal=deal)


def test_a_rule_that_differs_is_reported_with_a_replayable_hand():
    # meldkit's oklahoma_gin (knock value from the upcard) against OpenSpiel's plain
    # gin_rummy (always 10): the harness must notice, and say where and how to replay it
    records = [osd.play_hand(seed, pack="oklahoma_gin") for seed in range(20)]
    differing = [r for r in records if r.difference is not None]
    assert differing
    record = differing[0]
    assert record.kind.split(" in ")[0] in ("legal moves", "scores")
    assert f"deck_order = {record.deal!r}" in record.repro()
    assert record.difference in record.repro()


@pytest.mark.parametrize("ending", osd.ENDINGS)
def test_each_kind_of_ending_occurs(coverage, ending):
    assert coverage.endings[ending] > 0, coverage.line()


@pytest.mark.parametrize("move", ["layoff add", "layoff meld", "wall knock", "wall pass",
                                  "first_upcard take", "first_upcard pass", "knock done",
                                  "knock done, melds in hand", "layoff done, melds in hand"])
def test_the_policies_reach_the_rare_moves(coverage, move):
    assert coverage.moves[move] > 0, coverage.moves


@pytest.mark.parametrize("reason", ["pile takes", "returned card"])
def test_both_limits_end_hands(coverage, reason):
    assert coverage.limits[reason] > 0, coverage.limits


# --------------------------------------------------------------------------- Oklahoma
OKLAHOMA_HANDS = 500


def test_oklahoma_gin_with_openspiel_choice_agrees_with_openspiel_oklahoma():
    # OpenSpiel's oklahoma=true sets the knock value from the upcard (ace: gin only) and
    # does not double spade hands: oklahoma_gin with spade_upcard_doubles off is that game
    import meldkit

    pack = meldkit.load_pack_text(
        "meldkit: 1\nextends: oklahoma_gin\nname: oklahoma_gin_openspiel\n"
        "knock:\n  spade_upcard_doubles: false\n")
    summary = osd.run_hands(OKLAHOMA_HANDS, 10_000, pack=pack,
                            openspiel_params={"oklahoma": True})
    first = summary.differences[0].repro() if summary.differences else ""
    assert [] == [r.seed for r in summary.differences], first
    assert summary.endings["gin"] > 0 and summary.endings["knock"] > 0


def test_oklahoma_gin_differs_from_openspiel_only_by_doubling_spade_hands():
    summary = osd.run_hands(OKLAHOMA_HANDS, 10_000, pack="oklahoma_gin",
                            openspiel_params={"oklahoma": True})
    assert summary.differences  # a spade upcard comes one hand in four
    for record in summary.differences:
        assert record.kind == "scores", record.repro()
        assert record.deal[20].endswith("S")  # the first upcard
        assert record.meldkit_net == [2 * x for x in record.openspiel_returns]

