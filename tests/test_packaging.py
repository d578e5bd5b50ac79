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


def _readme_commands() -> list[str]:
    """The two commands the README opens with (the lines of its first shell block)."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = readme.split("```bash\n", 1)[1].split("```", 1)[0]
    return [line for line in block.splitlines() if line and not line.startswith("#")]


def test_ci_runs_the_readme_test_command_first_with_only_what_it_installs():
    """``.ci/run`` runs the README's test command exactly as written before it installs any
    extra, so a test that needs an extra must skip cleanly with ``.[test]`` alone."""
    install_and_run, install_and_test = _readme_commands()
    assert "pip install" in install_and_run and "pip install" in install_and_test
    ci = [line.strip() for line in (ROOT / ".ci" / "run").read_text().splitlines()]
    first_install = next(i for i, line in enumerate(ci) if "pip install" in line)
    assert ci[first_install] == install_and_test


def test_readme_samples_script_rewrites_and_checks_a_sample(tmp_path):
    """benchmarks/readme_samples.py reruns each ``$ meldkit …`` text block: --check reports a
    stale one (exit 1), a rewrite makes it current (exit 0)."""
    script = ROOT / "benchmarks" / "readme_samples.py"
    readme = tmp_path / "README.md"
    readme.write_text("intro\n\n```text\n$ meldkit packs\nnot what it prints\n```\n\nend\n")
    check = [sys.executable, str(script), "--readme", str(readme), "--check"]
    stale = subprocess.run(check, capture_output=True, text=True)
    assert stale.returncode == 1 and "out of date: $ meldkit packs" in stale.stdout
    subprocess.run([sys.executable, str(script), "--readme", str(readme)], check=True,
                   capture_output=True)
    text = readme.read_text()
    assert "pony_tail" in text and "not what it prints" not in text and text.endswith("end\n")
    assert subprocess.run(check, capture_output=True, text=True).returncode == 0
