"""The contract chapter of the authoring docs (issue 23, item 6): it is on the site's
navigation and the authoring index, and it writes every key a contract game needs, each
linked to its reference entry. Its examples run in tests/test_docs.py with every page's."""

from __future__ import annotations

import re
from pathlib import Path

import meldkit

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "authoring" / "contracts.md"

KEYS = ("deck.jokers", "deck.jokers_by_players", "melds.kinds", "initial_meld.melds",
        "initial_meld.lay_off_before", "pile.buy_limit", "pile.buy_penalty", "schedule",
        "scoring.style", "game.hands", "game.winner")


def test_the_chapter_is_in_the_nav_and_linked_from_the_authoring_index():
    assert "authoring/contracts.md" in (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    assert "(contracts.md)" in (ROOT / "docs" / "authoring" / "index.md").read_text(
        encoding="utf-8")


def test_the_chapter_links_each_contract_key_to_the_reference():
    text = PAGE.read_text(encoding="utf-8")
    for key in KEYS:
        assert f"(reference.md#{key})" in text, key


def test_the_last_step_is_a_contract_game_with_every_mechanism():
    blocks = re.findall(r'```yaml title="contract_night.yaml"[^\n]*\n(.*?)```',
                        PAGE.read_text(encoding="utf-8"), re.S)
    pack = meldkit.load_pack_text(blocks[-1], filename="contract_night.yaml")
    spec = pack.spec
    assert spec.deck.jokers and spec.initial_meld.melds and spec.pile.buy_limit
    assert not spec.initial_meld.lay_off_before
    assert len(pack.deals) == spec.game.hands == 4
    assert (spec.scoring.style, spec.game.winner) == ("penalty", "lowest")
