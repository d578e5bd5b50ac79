"""Print the key table: for every key of the pack format, which engines honour it and which
refuse it (``python benchmarks/key_table.py [--markdown]``).

Read from the one table the loader checks against (``meldkit._schema.KEY_READERS``);
``tests/test_key_walk.py`` proves each cell: an honoured key names a test of its effect, a
refused key is refused at its ``file:line:col``.  ``melds.kinds`` in a canasta pack is not
a cell of either kind: it makes the pack a table-meld pack.
"""

from __future__ import annotations

import sys

from meldkit._schema import CANASTA, ENGINES, KEY_READERS, TABLE, applies_to

NEWLY_HONOURED = ("deck.decks_by_players", "deal.first_player", "deal.high_card_order",
                  "deal.next_hand_first", "game.target_by_players", "game.hands",
                  "deck.jokers", "deck.jokers_by_players", "initial_meld.minimums",
                  "initial_meld.minimums_by_players", "initial_meld.by_hand")
"""Keys the table model honours since the key-ownership change (it ignored them, or they are
new and read by both models)."""


def cell(key: str, engine: str) -> str:
    if key == "melds.kinds" and engine == CANASTA:
        return "selects table"
    return "honoured" if engine in KEY_READERS[key].readers else "refused"


def main(argv: list[str]) -> int:
    markdown = "--markdown" in argv
    counts = {e: {"honoured": 0, "refused": 0, "selects table": 0} for e in ENGINES}
    rows = []
    for key in KEY_READERS:
        cells = [cell(key, e) for e in ENGINES]
        for e, c in zip(ENGINES, cells):
            counts[e][c] += 1
        rows.append((key, cells))
    if markdown:
        print("| key | " + " | ".join(ENGINES) + " |")
        print("|---|" + "---|" * len(ENGINES))
        for key, cells in rows:
            print(f"| `{key}` | " + " | ".join(cells) + " |")
    else:
        width = max(len(k) for k in KEY_READERS)
        print(f"{'key':{width}}  " + "  ".join(f"{e:9}" for e in ENGINES))
        for key, cells in rows:
            print(f"{key:{width}}  " + "  ".join(f"{c:9}" for c in cells))
    print()
    print(f"{len(KEY_READERS)} keys")
    for e in ENGINES:
        c = counts[e]
        extra = f", {c['selects table']} selects the table model" if c["selects table"] else ""
        print(f"{e}: {c['honoured']} honoured, {c['refused']} refused{extra}")
    print(f"newly honoured in the {TABLE} model: " + ", ".join(NEWLY_HONOURED))
    for key in NEWLY_HONOURED:
        assert TABLE in KEY_READERS[key].readers, applies_to(key)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
