"""The wheel ships the bundled rule packs, and the command line is installed."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

import meldkit

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.slow
def test_wheel_contains_the_bundled_rule_packs(tmp_path):
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", str(tmp_path), str(ROOT)],
        check=True,
    )
    (wheel,) = tmp_path.glob("meldkit-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    for pack in sorted((ROOT / "rulepacks").glob("*.yaml")):
        assert f"meldkit/rulepacks/{pack.name}" in names
    for scenarios in sorted((ROOT / "rulepacks" / "scenarios").glob("*.yaml")):
        assert f"meldkit/rulepacks/scenarios/{scenarios.name}" in names
    assert "meldkit/py.typed" in names
    assert "meldkit/rulepack.schema.json" in names  # for editors, offline


def test_bundled_packs_load_from_the_installed_package():
    assert "pony_tail" in meldkit.available_packs()
    pack = meldkit.load_pack("pony_tail")
    assert Path(pack.source).name == "pony_tail.yaml"
    assert Path(pack.source).exists()


def test_python_dash_m_meldkit_shows_help():
    out = subprocess.run([sys.executable, "-m", "meldkit", "--help"], capture_output=True, text=True)
    assert out.returncode == 0
    assert "simulate" in out.stdout
