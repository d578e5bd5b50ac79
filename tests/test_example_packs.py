"""The packs in ``examples/packs/`` were written from meldkit's docs alone, each with rule
scenarios from a published source (the packs' headers name them): they load, their
scenarios pass, and greedy bots play them to the end."""

from __future__ import annotations

import pathlib

import pytest

from meldkit.scenarios import run_scenarios
from meldkit.simulate import simulate

PACKS = pathlib.Path(__file__).resolve().parents[1] / "examples" / "packs"
NAMES = sorted(p.stem for p in PACKS.glob("*.yaml") if not p.stem.endswith(".scenarios"))


def test_every_example_pack_has_its_scenarios():
    assert NAMES == ["indian_rummy", "kalooki", "knock_rummy", "machiavelli", "phase10",
                     "romme", "rummikub", "scala40", "three_thirteen", "tongits"]
    for name in NAMES:
        assert (PACKS / f"{name}.scenarios.yaml").is_file()


@pytest.mark.parametrize("name", NAMES)
def test_an_example_packs_scenarios_pass(name):
    ((path, results),) = run_scenarios(str(PACKS / f"{name}.yaml"),
                                       [PACKS / f"{name}.scenarios.yaml"])
    assert not isinstance(results, Exception), results
    failed = [r for r in results if not r.passed]
    assert len(results) >= 15 and not failed, failed


ENDINGS = {"knock_rummy": {"knock", "gin", "undercut"}, "tongits": {"went_out", "lowest_count"},
           "rummikub": {"went_out", "lowest_count"}, "machiavelli": {"went_out", "lowest_count"}}
"""How each pack's hands end between greedy bots (else by going out): a knocking pack's
by the knock's outcome, Tong-its', Rummikub's and Machiavelli's also on the count when the
stock runs out."""


@pytest.mark.parametrize("name", NAMES)
def test_an_example_pack_plays_to_the_end_with_greedy_bots(name):
    records = list(simulate(str(PACKS / f"{name}.yaml"), players=3, games=3, seed=5,
                            bots=("greedy",)))
    assert len(records) == 3
    endings = [e for r in records for e in r.ended_by]
    assert set(endings) <= ENDINGS.get(name, {"went_out"}), endings
