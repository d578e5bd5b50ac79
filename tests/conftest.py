"""Test configuration: Hypothesis settings profiles and the ``slow`` marker.

Profiles (choose with ``--hypothesis-profile=NAME``, Hypothesis's own pytest option):

- ``default`` — loaded when none is named; quick enough for every local run;
- ``ci``      — four times the examples, as ``.ci/run`` uses;
- ``dev``     — a handful of examples, for quick runs while editing.
"""

from __future__ import annotations

import os
import sys

from hypothesis import HealthCheck, settings

# strategies.py lives next to this file; make it importable however pytest is invoked.
sys.path.insert(0, os.path.dirname(__file__))

# Play-outs run hundreds of actions per example: no per-example deadline, and generating
# the long choice lists is expected to take a while.
_common = {"deadline": None, "suppress_health_check": [HealthCheck.too_slow]}

# Registering "default" replaces Hypothesis's built-in default profile, which is the
# active one unless --hypothesis-profile names another.
settings.register_profile("default", max_examples=25, **_common)
settings.register_profile("ci", max_examples=100, print_blob=True, **_common)
settings.register_profile("dev", max_examples=10, **_common)


def pytest_configure(config):
    config.addinivalue_line(
        "markers", "slow: a long run (many whole games); deselect with -m 'not slow'"
    )
