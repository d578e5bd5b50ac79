"""Record (or check) every hand's scores for every bundled pack: the golden file of
``tests/test_scoring_items.py``.

Each bundled pack at two or three player counts from its range, ten seeds, under the
greedy bots and under the random bots; every hand of a game (up to ``HANDS`` hands, or
``DECISIONS`` decisions) is kept as its ending, who went out, each side's score line
(the ``(label, points)`` items and the book kinds) and ``net``: the first ``SHOWN`` hands in
full, and a digest of them all.  The game's saved form is
loaded back once at the end, so the load's rescoring check runs on every game too.

    python benchmarks/scoring_golden.py            # rewrite tests/data/scoring_golden.json
    python benchmarks/scoring_golden.py --check    # compare, print the first differences
"""

from __future__ import annotations

import argparse
import hashlib
import json
import pathlib
import sys

import meldkit
from meldkit.bots import GreedyBot, RandomBot
from meldkit.records import _data

GOLDEN = pathlib.Path(__file__).resolve().parent.parent / "tests" / "data" / "scoring_golden.json"
COUNTS = {"classic_canasta": (2, 3, 4), "contract_rummy": (4,), "gin_rummy": (2,),
          "hand_and_foot": (4,),
          "houses": (4,), "oklahoma_gin": (2,), "pony_canasta": (2, 3, 4),
          "pony_tail": (4, 6), "rummy": (2, 4, 6), "rummy_500": (3,), "samba": (4,),
          "buraco": (2, 4)}
VARIANTS = {  # child packs for what no bundled pack scores: the penalty style, box and game
    "rummy+penalty": ("extends: rummy\nscoring: {style: penalty, items: [{item: penalty}]}\n"
                      "game: {winner: lowest}\n", (3,)),
    "rummy+bonuses": ("extends: rummy\ngame: {box_bonus: 10, game_bonus: 50}\n", (2,)),
    "classic_canasta+side_sets": (
        "extends: classic_canasta\nscoring: {bonus: {sets_by: side}}\n", (4,)),
}
SEEDS = range(10)
BOTS = {"greedy": GreedyBot, "random": RandomBot}
HANDS = 3  # canasta-kernel games: the first hands (a game runs long)
SHOWN = 2  # hands kept in full; the digest covers every hand
DECISIONS = 20000  # table-kernel games play to the end (their box and game bonuses)


def line(s) -> list:
    """A score line as ``[team, [[label, points] …], [book kinds …]]``: a canasta
    line's named fields (those not zero) then its adjustments, a table line's items, or
    Houses' line as its data."""
    if hasattr(s, "books"):  # the canasta kernel's line, read through its named fields
        names = ("books", "melded_cards", "bonus_cards", "dead_cards", "hand_cards",
                 "reserve_cards", "going_out")
        items = [(n, getattr(s, n)) for n in names if getattr(s, n)] + list(s.adjustments)
    elif hasattr(s, "items"):
        items = list(s.items)
    else:  # Houses
        return [s.team, _data(s), []]
    kinds = list(getattr(s, "book_kinds", ()))
    kinds = [f"{k}*{kinds.count(k)}" for k in sorted(set(kinds))]  # the digest keeps the order
    return [s.team, [[str(a), int(b)] for a, b in items], kinds]


def hand(h) -> list:
    return [h.hand_number, h.ended_by, h.went_out, [line(s) for s in h.scores], list(h.net)]


def _pack(name: str):
    if name in VARIANTS:
        return meldkit.load_pack_text(VARIANTS[name][0])
    return name


def play(pack: str, players: int, seed: int, bot: str) -> dict:
    rules = _pack(pack)
    game = meldkit.new_game(rules, players=players, seed=seed)
    bots = [BOTS[bot](seed=seed * 10 + p) for p in range(players)]
    long = getattr(game, "meld_model", None) == "rank_slot" or game.pack.deals  # a schedule
    hands = HANDS if long else 10**9
    decisions = 0
    while not game.is_over and len(game.hand_results) < hands and decisions < DECISIONS:
        game.apply(bots[game.current_player].choose(game))
        decisions += 1
    type(game).from_json(game.to_json(), pack=None if rules is pack else rules)  # a load rescores every hand and checks the sums
    hands = [hand(h) for h in game.hand_results]
    every = json.dumps(hands, separators=(",", ":")).encode()
    return {"pack": pack, "players": players, "seed": seed, "bot": bot,
            "hands": hands[:SHOWN], "n_hands": len(hands),
            "digest": hashlib.sha256(every).hexdigest()[:16], "scores": list(game.scores)}


def games():
    for pack, counts in [*COUNTS.items(), *((k, v[1]) for k, v in VARIANTS.items())]:
        for players in counts:
            for bot in BOTS:
                for seed in SEEDS:
                    yield pack, players, seed, bot


def record() -> list[dict]:
    return [play(*g) for g in games()]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="compare with the golden file")
    args = ap.parse_args(argv)
    got = record()
    if args.check:
        want = json.loads(GOLDEN.read_text())
        bad = [(w, g) for w, g in zip(want, got) if w != g]
        for w, g in bad[:5]:
            print("differs:", w["pack"], w["players"], w["seed"], w["bot"])
            for hw, hg in zip(w["hands"], g["hands"]):
                if hw != hg:
                    print("  want", hw, "\n  got ", hg)
        print(f"{len(got) - len(bad)}/{len(got)} games as recorded")
        return 1 if bad or len(want) != len(got) else 0
    GOLDEN.parent.mkdir(exist_ok=True)
    GOLDEN.write_text("[\n" + ",\n".join(json.dumps(g, separators=(",", ":"))
                                         for g in got) + "\n]\n")
    n_hands = sum(g["n_hands"] for g in got)
    print(f"{len(got)} games, {n_hands} hands -> {GOLDEN} ({GOLDEN.stat().st_size} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
