"""The ``meldkit`` command line.

Errors are one clear line on standard error (never a traceback); exit codes: 0 success,
1 a problem with the input (a bad pack, an illegal setup), 2 a usage error.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter

from ._errors import MeldkitError


def _cmd_simulate(args: argparse.Namespace) -> int:
    from ._loader import load_pack
    from .simulate import simulate

    pack = load_pack(args.pack)
    players = args.players or pack.spec.players.min
    options = {"partners": True} if args.partners else None
    bots = args.bots.split(",")
    out = sys.stdout
    show_progress = sys.stderr.isatty() and not args.quiet

    def progress(done: int, total: int) -> None:
        if show_progress:
            sys.stderr.write(f"\r{done}/{total} games")
            sys.stderr.flush()

    records = []
    for r in simulate(pack, players, args.games, args.seed, bots, options, progress):
        records.append(r)
        if not args.quiet:
            scores = " ".join(f"{s:>7}" for s in r.scores)
            out.write(f"game {r.game + 1:>4}  team {r.winner} wins  scores {scores}  "
                      f"{r.hands} hands  {r.decisions} decisions\n")
    if show_progress:
        sys.stderr.write("\n")
    n = len(records)
    wins = Counter(r.winner for r in records)
    hands = sum(r.hands for r in records)
    decisions = sum(r.decisions for r in records)
    seconds = sum(r.seconds for r in records)
    ends = Counter(e for r in records for e in r.ended_by)
    out.write(f"\n{pack.spec.title or pack.name}: {n} games, {players} players, seed {args.seed}\n")
    for t in sorted(wins):
        out.write(f"  team {t}: {wins[t]} wins ({100 * wins[t] / n:.1f}%)\n")
    out.write(f"  hands per game: {hands / n:.2f}; decisions per hand: {decisions / max(hands, 1):.1f}\n")
    out.write("  hands ended by: " + ", ".join(f"{k} {v}" for k, v in sorted(ends.items())) + "\n")
    out.write(f"  {decisions / seconds:,.0f} decisions/s, {n / seconds:.2f} games/s\n")
    return 0


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``meldkit`` command."""
    p = argparse.ArgumentParser(
        prog="meldkit",
        description="A rules engine for rummy-family card games, configured by YAML rule packs.",
    )
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    sim = sub.add_parser("simulate", help="play games between bots and summarise the results",
                         description="Play games between bots and print each result and a summary.")
    sim.add_argument("pack", nargs="?", default="pony_tail",
                     help="a bundled pack name or a .yaml file (default: pony_tail)")
    sim.add_argument("--games", type=int, default=10, help="number of games (default: 10)")
    sim.add_argument("--players", type=int, default=None,
                     help="number of players (default: the pack's minimum)")
    sim.add_argument("--seed", type=int, default=0, help="seed of the run (default: 0)")
    sim.add_argument("--bots", default="random",
                     help="comma-separated bot names, one per seat, repeated (default: random)")
    sim.add_argument("--partners", action="store_true",
                     help="play in partnerships where the pack makes them optional")
    sim.add_argument("--quiet", "-q", action="store_true", help="print only the summary")
    sim.set_defaults(func=_cmd_simulate)
    return p


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        return args.func(args)
    except MeldkitError as e:
        msg = str(e).rstrip()
        print(f"meldkit: error: {msg}", file=sys.stderr)
        return 1
    except ValueError as e:
        print(f"meldkit: error: {e}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("meldkit: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
