"""The ``meldkit`` command line: play, simulate, compare, validate, rules, replay, packs.

Errors are one clear line on standard error (never a traceback).  Exit codes: 0 success,
1 a problem with the input (a bad pack, a failed validation, an illegal setup, an unreadable
save), 2 a usage error (unknown command or option, a missing argument).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import secrets
import stat
import sys
from collections.abc import Sequence
from typing import Any, TextIO

from ._errors import MeldkitError, RulePackError, quoted

EXIT_OK = 0
EXIT_INPUT = 1
EXIT_USAGE = 2

_FORMATTER = argparse.RawDescriptionHelpFormatter

DEFAULT_BOTS = "greedy"
"""The bots of ``simulate``, ``compare`` and the seats of ``play`` when ``--bots`` is not
given."""


class _Parser(argparse.ArgumentParser):
    """argparse with a did-you-mean: a misspelt command or choice (``meldkit simualte``)
    and an unknown option (``--gams``) name the closest one the parser knows.  An unknown
    option is reported by the (sub)command's own parser, so it names that command's usage
    and options."""

    def _check_value(self, action: argparse.Action, value: Any) -> None:
        import difflib

        choices = action.choices
        if choices is not None and value not in choices:
            names = [str(c) for c in choices]
            close = difflib.get_close_matches(str(value), names, n=1)
            hint = f"did you mean {close[0]!r}? " if close else ""
            raise argparse.ArgumentError(
                action, f"invalid choice: {value!r} ({hint}choose from {', '.join(names)})")
        super()._check_value(action, value)

    def parse_known_args(self, args: Any = None, namespace: Any = None) -> Any:
        namespace, extras = super().parse_known_args(args, namespace)
        if extras:
            self.error(f"unrecognized arguments: {' '.join(extras)}{self._suggest(extras)}")
        return namespace, extras

    def _suggest(self, extras: list[str]) -> str:
        import difflib

        known = [o for a in self._actions for o in a.option_strings if o.startswith("--")]
        hints = []
        for word in extras:
            if not word.startswith("-") or word in ("-", "--"):
                continue
            option = word.split("=", 1)[0]
            dashed = option if option.startswith("--") else "-" + option
            close = difflib.get_close_matches(dashed, known, n=1)
            if close and close[0] not in hints:
                hints.append(close[0])
        return f" (did you mean {' or '.join(hints)}?)" if hints else ""



def _wrap(text: str) -> str:
    """A description paragraph wrapped for the terminal (the epilogs keep their layout)."""
    import shutil
    import textwrap

    width = max(40, min(shutil.get_terminal_size((80, 24)).columns, 100) - 2)
    return textwrap.fill(" ".join(text.split()), width)


class _UsageError(Exception):
    """A usage problem found after parsing (exit code 2)."""


# --------------------------------------------------------------------------- helpers


def _load(pack_arg: str, sets: Sequence[str] | None = None):
    """A bundled pack or a pack file, with ``--set`` overrides applied."""
    from ._loader import load_pack
    from .simulate import variant_pack

    pack = load_pack(pack_arg)
    return variant_pack(pack, sets) if sets else pack


def _title(pack) -> str:
    return pack.spec.title or pack.name


def _table_wild_codes(pack) -> frozenset[str]:
    from ._table import wild_codes

    return wild_codes(pack)


def _options(args: argparse.Namespace) -> dict | None:
    return {"partners": True} if getattr(args, "partners", False) else None


def _bot_names(text: str) -> list[str]:
    from .bots import BOTS

    names = [n.strip() for n in text.split(",") if n.strip()]
    if not names:
        raise _UsageError("--bots: name at least one bot, e.g. --bots greedy,random")
    for n in names:
        if n not in BOTS:
            raise _UsageError(f"--bots: unknown bot {quoted(n)} (expected one of "
                              f"{', '.join(sorted(BOTS))})")
    return names


def _players(args: argparse.Namespace, pack) -> int:
    return args.players if args.players is not None else pack.spec.players.min


def _whole_number(least: int, most: str | None = None):
    """An argparse type: a whole number of at least ``least`` and, with ``most`` (the name
    of a bound in :mod:`meldkit._sim_backends`, read when a value is given), at most it."""

    def parse(text: str) -> int:
        try:
            n = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
        if n < least:
            raise argparse.ArgumentTypeError(f"expected {least} or more, got {n}")
        if most is not None:
            from . import _sim_backends

            bound = getattr(_sim_backends, most)
            if n > bound:
                raise argparse.ArgumentTypeError(f"expected at most {bound:,}, got {n:,}")
        return n

    return parse


_positive = _whole_number(1)
_count = _whole_number(0)
_games = _whole_number(1, "MAX_GAMES")
_jobs = _whole_number(0, "MAX_JOBS")


def _isatty(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


PIPED_PROGRESS_LINES = 10
"""When standard error is not a terminal, ``compare`` and ``tournament`` write a progress
line every 1/PIPED_PROGRESS_LINES of the games (and one at the end) ..."""
PIPED_PROGRESS_SECONDS = 10.0
"""... but no sooner than this many seconds after the start or the previous line: a run
of a few seconds stays silent, a long one in a log shows it is alive."""


class _ProgressLines:
    """Progress for a log or a pipe: the bar's text without the bar, on a line of its own
    (``meldkit tournament: 40/60 games  1.6 games/s  25 s, 12 s left``), every ``every``
    games once :data:`PIPED_PROGRESS_SECONDS` have passed, and at the end if any line was
    written."""

    def __init__(self, command: str, total: int, first: int, stream: TextIO):
        import math
        import time

        from ._sim_backends import RateProgress

        self._clock = time.monotonic
        self.text = RateProgress(total, first, "games", stream, enabled=False, width=0)
        self.command = command
        self.stream = stream
        self.every = max(1, math.ceil(total / PIPED_PROGRESS_LINES))
        self.next = (first // self.every + 1) * self.every
        self.last = self._clock()
        self.written = False

    def update(self, done: int, total: int | None = None) -> None:
        end = done >= self.text.total
        if done < self.next and not end:
            return
        self.next = (done // self.every + 1) * self.every
        now = self._clock()
        if (not end or not self.written) and now - self.last < PIPED_PROGRESS_SECONDS:
            return
        self.last = now
        self.written = True
        self.stream.write(f"meldkit {self.command}: {self.text.line(done, now).strip()}\n")
        self.stream.flush()

    def clear(self) -> None:
        """Nothing to take off: each line stays in the log."""

    def close(self) -> None:
        """Nothing to end: the last line ended itself."""


def _progress(command: str, total: int, first: int = 0, quiet: bool = False):
    """The progress of a run of ``total`` games on standard error: a bar on a terminal
    (simulate's), :class:`_ProgressLines` in a pipe or a log, nothing when ``quiet``."""
    from ._sim_backends import RateProgress

    stream = sys.stderr
    if quiet or _isatty(stream):
        return RateProgress(total, first, "games", stream, enabled=not quiet)
    return _ProgressLines(command, total, first, stream)


def _style(args: argparse.Namespace, stream: TextIO):
    from ._table import Style, colour_wanted

    return Style(colour_wanted(stream, getattr(args, "color", "auto")))




def _hand_report(state, hr, style, reserve_name: str = "reserve", you: int | None = None,
                 **details: Any) -> str:
    """The end of a hand for its scoring style (see :func:`meldkit._table.render_hand_end`):
    how it ended and each side's score, item by item; ``you`` names a seat "you"."""
    from ._table import render_hand_end

    return render_hand_end(state, hr, style, you, reserve_name=reserve_name, **details)


def _game_over(state, style, you_team: int | None = None) -> str:
    w = state.winner
    lowest = state.pack.spec.game.winner == "lowest"  # the best score first
    scores = " to ".join(f"{s:,}" for s in sorted(state.scores, reverse=not lowest))
    n = len(state.hand_results)
    if w is None:
        head = f"Game over after {n} hand{'s' if n != 1 else ''}: a tie, {scores}."
    else:
        seats = state.team_players(w)
        if len(seats) == 1:  # no partners: the winner by seat
            who = "you win" if w == you_team else f"seat {seats[0]} wins"
        else:
            who = f"team {w} wins"
        head = f"Game over after {n} hand{'s' if n != 1 else ''}: {who}, {scores}."
    if you_team is not None and w is not None:
        head += style.green(" You win!") if w == you_team else " You lose."
    return style.bold(head) + "\n"


# --------------------------------------------------------------------------- packs


def _cmd_packs(args: argparse.Namespace) -> int:
    from ._loader import available_packs, load_pack

    out = sys.stdout
    names = available_packs()
    rows = []
    for name in names:
        try:
            pack = load_pack(name)
        except MeldkitError as e:
            rows.append((name, "", "", f"(cannot be loaded: {str(e).splitlines()[-1].strip()})"))
            continue
        pl = pack.spec.players
        count = f"{pl.min}-{pl.max}" if pl.min != pl.max else f"{pl.min}"
        rows.append((name, _title(pack), f"{count} players", pack.spec.description.strip()))
    w0 = max((len(r[0]) for r in rows), default=4)
    w1 = max((len(r[1]) for r in rows), default=5)
    for name, title, count, desc in rows:
        first = desc.split(": ")[0].split(". ")[0] if desc else ""
        if len(first) > 60:
            first = first[:57].rstrip() + "..."
        out.write(f"{name:<{w0}}  {title:<{w1}}  {count:<12} {first}\n".rstrip() + "\n")
    return EXIT_OK


# --------------------------------------------------------------------------- validate


def _cmd_validate(args: argparse.Namespace) -> int:
    from ._loader import check_pack

    problems = []
    ok_files = []
    for f in args.packs:
        found = check_pack(f)
        problems.extend(found)
        if not found:
            ok_files.append(f)
    if args.format == "json":
        data = [{"file": p.file, "line": p.line, "col": p.col, "path": p.path,
                 "message": p.message, "suggestion": p.suggestion} for p in problems]
        sys.stdout.write(json.dumps(data, indent=2) + "\n")
    else:
        for p in problems:
            sys.stdout.write(f"{p}\n")
        if problems:
            n = len(problems)
            sys.stderr.write(f"meldkit: {n} problem{'s' if n != 1 else ''} found\n")
        for f in ok_files:
            sys.stdout.write(f"{f}: ok\n")
    return EXIT_INPUT if problems else EXIT_OK


# --------------------------------------------------------------------------- rules


def _cmd_rules(args: argparse.Namespace) -> int:
    from .rulesheet import rules_sheet

    text = rules_sheet(_load(args.pack, args.set))
    if args.out:
        with open(args.out, "w", encoding="utf-8") as f:
            f.write(text)
        sys.stderr.write(f"wrote {args.out}\n")
    else:
        sys.stdout.write(text)
    return EXIT_OK


# --------------------------------------------------------------------------- simulate


def _install_hint(extra: str) -> str:
    """How to install an extra, from PyPI and in a source checkout."""
    return f'pip install "meldkit[{extra}]", or in a checkout pip install ".[{extra}]"'


def _need_matplotlib(path: str | None = None):
    """matplotlib's pyplot, or one line saying how to install it; with ``path`` (the
    ``--plot`` file), checked before any game is played: a format matplotlib writes, in a
    directory that exists."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        from matplotlib.backend_bases import FigureCanvasBase
    except ImportError:
        raise MeldkitError(
            f"--plot needs matplotlib, which is not installed: {_install_hint('plot')}"
        ) from None
    if path is not None:
        kinds = FigureCanvasBase.get_supported_filetypes()
        ext = os.path.splitext(path)[1].lstrip(".").lower()
        folder = os.path.dirname(os.path.abspath(path))
        if ext not in kinds:
            raise _UsageError(f"--plot {path}: name a file ending in one of "
                              f"{', '.join('.' + k for k in sorted(kinds))} (e.g. scores.png)")
        if not os.path.isdir(folder) or os.path.isdir(path):
            raise _UsageError(f"--plot {path}: " + ("a directory, not a file" if
                                                    os.path.isdir(path) else
                                                    f"no directory {folder}"))
        if not os.access(path if os.path.exists(path) else folder, os.W_OK):
            raise _UsageError(f"--plot {path}: not writable here (found before any game "
                              "is played)")
    return plt


def _need_openskill() -> None:
    """Before a tournament plays its first game: the ratings' library, or one line."""
    try:
        import openskill.models  # noqa: F401
    except ImportError:
        raise MeldkitError(
            "tournament ratings need OpenSkill, which is not installed: "
            f"{_install_hint('tournament')} (or pass --no-ratings)") from None


def _plot(plt, records, summary, path: str, title: str) -> None:
    """simulate's figure: final scores by team, hands per game, decisions per game."""
    scores = [(f"team {t}", [r.scores[t] for r in records]) for t in range(summary.n_teams)]
    _histograms(plt, scores, [("", [r.hands for r in records])],
                [("", [r.decisions for r in records])], path, title)


def _plot_runs(plt, runs, path: str, title: str) -> None:
    """compare's figure: the same three panels with one histogram per run (``runs`` are
    ``(label, records)``), the final scores of every team together."""
    _histograms(plt, [(label, [s for r in rs for s in r.scores]) for label, rs in runs],
                [(label, [r.hands for r in rs]) for label, rs in runs],
                [(label, [r.decisions for r in rs]) for label, rs in runs], path, title)


def _histograms(plt, scores, hands, decisions, path: str, title: str) -> None:
    """Three panels of histograms, each a list of ``(label, values)`` drawn over each
    other on shared bins (one unlabelled series is drawn grey)."""
    from matplotlib.ticker import MaxNLocator

    fig, axes = plt.subplots(1, 3, figsize=(14, 4.2))
    panels = (("Final scores", "points", scores, None),
              ("Game length in hands", "hands per game", hands, 1),
              ("Game length in decisions", "decisions per game", decisions, None))
    for ax, (name, xlabel, series, unit) in zip(axes, panels):
        values = [v for _, vs in series for v in vs]
        lo, hi = min(values), max(values)
        if unit:  # whole numbers: one bar each
            edges = [x - 0.5 for x in range(lo, hi + 2)]
            ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        else:
            step = max((hi - lo) / 24, 1)
            edges = [lo + i * step for i in range(26)]
        for label, vs in series:
            if label:
                ax.hist(vs, bins=edges, alpha=0.55, label=label)
            else:
                ax.hist(vs, bins=edges, color="tab:gray")
        if any(label for label, _ in series):
            ax.legend()
        ax.set_title(name)
        ax.set_xlabel(xlabel)
        ax.set_ylabel("games")
        ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def _scale(args: argparse.Namespace) -> dict:
    """simulate()'s keyword arguments for --jobs, --ray and --batch."""
    if args.ray is not None:
        from ._sim_backends import import_ray

        address = args.ray
        if not (address in ("local", "auto") or address.startswith("ray://")
                or address.rpartition(":")[2].isdigit()):
            raise _UsageError(f"--ray {address!r}: expected auto, ray://HOST:PORT or HOST:PORT "
                              "(write --ray after the pack name)")
        if args.ray != "local" and args.jobs is not None:
            raise _UsageError("--jobs sets the CPUs of a local Ray (--ray alone); a cluster "
                              "at --ray ADDRESS uses all of its own")
        import_ray()  # without Ray: one line saying how to install it
        return {"jobs": args.jobs or 0, "ray": args.ray, "batch": args.batch}
    return {"jobs": 1 if args.jobs is None else args.jobs, "ray": None, "batch": args.batch}


@contextlib.contextmanager
def _terminate_as_interrupt():
    """SIGTERM raises KeyboardInterrupt, so a terminated run cleans up like Ctrl-C: whole
    records in --out, workers stopped.  A worker forked while it is in force dies of
    SIGTERM as it would without it (a worker terminated while it started printed the
    handler's KeyboardInterrupt: a CI failure of a tournament test).  (Enter it after Ray
    is started: ``ray.init`` installs a SIGTERM handler of its own.)"""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        yield
        return

    main_pid = os.getpid()

    def interrupt(signum, frame):
        if os.getpid() != main_pid:  # a forked worker inherited the handler: die as one
            signal.signal(signal.SIGTERM, signal.SIG_DFL)  # would (no traceback on stderr)
            os.kill(os.getpid(), signal.SIGTERM)
            return
        raise KeyboardInterrupt

    old = signal.signal(signal.SIGTERM, interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, old)


def _cmd_simulate(args: argparse.Namespace) -> int:
    from ._sim_backends import ray_session
    from .simulate import (RecordFile, RecordWriteError, format_summary, resume_records,
                           simulate, summarize)

    pack = _load(args.pack, args.set)
    players = _players(args, pack)
    bots = _bot_names(args.bots)
    scale = _scale(args)
    if args.resume and not args.out:
        raise _UsageError("--resume continues the --out FILE of an interrupted run; name it")
    plt = _need_matplotlib(args.plot) if args.plot else None
    if args.out and args.pack and os.path.exists(args.out) and os.path.exists(args.pack) \
            and os.path.samefile(args.out, args.pack):
        raise _UsageError(f"--out {args.out} is the pack being played: name another file "
                          "for the game records")
    if args.out == "-":
        raise _UsageError("--out -: name a file for the records (they are not written to "
                          "standard output, where the summary goes)")
    if args.out and os.path.exists(args.out) and not os.path.isfile(args.out):
        raise _UsageError(f"--out {args.out}: not a regular file (a directory, a pipe or a "
                          "device): the records go to a file a run can cut back to its last "
                          "whole record and --resume can read")
    if args.out and not args.resume and os.path.isfile(args.out) \
            and os.path.getsize(args.out) > 0:
        raise _UsageError(f"--out {args.out} exists and holds records already: continue "
                          "that run with --resume, or name a new file (a run never writes "
                          "over one)")
    out = sys.stdout
    records = []
    if args.resume:
        records = resume_records(args.out, pack, players, args.games, args.seed, bots,
                                 _options(args))
        if records:
            sys.stderr.write(f"resuming {args.out}: {len(records)} of {args.games} games "
                             "already played\n")
    first = len(records)
    record_file = RecordFile(args.out, append=args.resume) if args.out else None
    progress = _progress("simulate", args.games, first)  # (a bar, or lines in a log)
    try:
        ray = scale["ray"] if first < args.games else None  # nothing left: no Ray to start
        with ray_session(ray, scale["jobs"] or None), _terminate_as_interrupt(), \
                contextlib.closing(simulate(pack, players, args.games, args.seed, bots,
                                            _options(args), progress.update, first=first,
                                            **scale)) as run:
            for r in run:
                if record_file:
                    record_file.write(r)
                records.append(r)
                if not args.quiet:
                    progress.clear()
                    scores = " ".join(f"{s:>7}" for s in r.scores)
                    who = (f"team {r.winner} wins" if r.winner is not None
                           else "unfinished" if r.unfinished else "a tie     ")
                    out.write(f"game {r.game + 1:>4}  {who}  scores {scores}  "
                              f"{r.hands} hands  {r.decisions} decisions\n")
                    out.flush()
    except BaseException as e:  # interrupted, or a worker or the cluster lost for good
        progress.close()
        if record_file and (records or isinstance(e, KeyboardInterrupt)) and not isinstance(
                e, RecordWriteError):  # its message says it all
            sys.stderr.write(f"meldkit: {len(records)} whole games are in {args.out}; "
                             "continue the run with the same command and --resume\n")
        raise
    finally:
        progress.close()
        if record_file:
            record_file.close()
    s = summarize(records)
    variant = f" ({', '.join(args.set)})" if args.set else ""
    title = (f"{_title(pack)}{variant}: {len(records)} games, {players} players, "
             f"seed {args.seed}, bots {','.join(bots)}")
    out.write("\n" + format_summary(s, title))
    if args.out:
        out.write(f"records: {args.out}\n")
    if plt is not None:
        _plot(plt, records, s, args.plot, title)
        out.write(f"plot: {args.plot}\n")
    return EXIT_OK


# --------------------------------------------------------------------------- compare


def _cmd_compare(args: argparse.Namespace) -> int:
    from ._loader import load_pack
    from ._sim_backends import ray_session
    from .simulate import compare, format_comparison, simulate, variant_pack

    if not args.set:
        raise _UsageError("compare needs at least one --set KEY=VALUE (the variant to try)")
    base = load_pack(args.pack)
    variant = variant_pack(base, args.set)
    players = _players(args, base)
    bots = _bot_names(args.bots)
    scale = _scale(args)
    plt = _need_matplotlib(args.plot) if args.plot else None
    progress = _progress("compare", 2 * args.games, quiet=args.quiet)
    try:
        with ray_session(scale["ray"], scale["jobs"] or None), _terminate_as_interrupt():
            with contextlib.closing(simulate(base, players, args.games, args.seed, bots,
                                             _options(args), lambda d, t: progress.update(d),
                                             **scale)) as run:
                a = list(run)
            with contextlib.closing(simulate(variant, players, args.games, args.seed, bots,
                                             _options(args),
                                             lambda d, t: progress.update(args.games + d),
                                             **scale)) as run:
                b = list(run)
    finally:
        progress.close()
    c = compare(a, b)
    out = sys.stdout
    out.write(f"{_title(base)}: base vs variant {', '.join(args.set)}\n")
    out.write(f"{args.games} games each on the same seeds (seed {args.seed}), {players} players, "
              f"bots {','.join(bots)}; 95% confidence intervals\n\n")
    out.write(format_comparison(c))
    if plt is not None:
        title = (f"{_title(base)}: base vs {', '.join(args.set)}; {args.games} games each, "
                 f"{players} players, seed {args.seed}, bots {','.join(bots)}")
        changed = ", ".join(args.set)
        _plot_runs(plt, [("base", a), (changed if len(changed) <= 30 else "variant", b)],
                   args.plot, title)
        out.write(f"plot: {args.plot}\n")
    return EXIT_OK


# --------------------------------------------------------------------------- play

class _Game:
    """One interactive game: the state, the seats, and the terminal."""

    def __init__(self, state, human: int, names: list[str], style, out: TextIO, inp: TextIO,
                 seed: int):
        from .bots import make_bot, pack_of

        self.state = state
        self.human = human
        self.names = names
        self.style = style
        self.out = out
        self.inp = inp
        self.seed = seed
        self.pack = pack_of(state)
        self.bots = {q: make_bot(names[q], seed=seed + 1 + q)
                     for q in range(state.n_players) if q != human}
        self.undo: list[tuple[Any, str, list]] = []
        self.hands_seen = len(state.hand_results)
        self.wild = _table_wild_codes(self.pack)
        self.echo = not _isatty(inp)
        self.menu: list[Any] = []  # the move list shown, and the step open in it (if any)
        self.open: Any = None
        self.partners = any(len(state.team_players(t)) > 1 for t in range(state.n_teams))
        self.fresh: list[str] = []  # the cards just come into your hand, marked on the table
        self.fresh_note = "new"
        self.layoffs: list[tuple[int, str, str]] = []  # (seat, card, meld id) this hand
        self.table_kernel = getattr(state, "meld_model", None) == "table"

    def who(self, q: int) -> str:
        """``you``, or a bot by seat: ``seat 1 (greedy)``, with its team where there are
        partners (``seat 1 (greedy, team 1)``)."""
        if q == self.human:
            return "you"
        team = f", team {self.state.team_of[q]}" if self.partners else ""
        return f"seat {q} ({self.names[q]}{team})"

    # ------------------------------------------------------------ output
    def say(self, text: str = "") -> None:
        self.out.write(text + ("\n" if not text.endswith("\n") else ""))

    def ask(self, prompt: str) -> str | None:
        self.out.write(prompt)
        self.out.flush()
        line = self.inp.readline()
        if not line:
            self.out.write("\n")
            return None
        if self.echo:
            self.out.write(line if line.endswith("\n") else line + "\n")
        return line.strip()

    def table(self) -> None:
        from ._table import render_state

        self.say(render_state(self.state, self.human, self.style, self.fresh, self.fresh_note))

    def moves(self) -> None:
        """The legal moves, grouped: moves that differ only in wild cards share a line,
        opened by its number (see ``meldkit._movelist``)."""
        from ._movelist import group_moves
        from ._table import render_moves

        wild = self.state.view(self.human).get("wild")  # this deal's (a schedule, a rank
        if wild is not None:                            # turned), where the view says
            self.wild = frozenset(wild)
        self.menu = group_moves([str(a) for a in self.state.legal_actions()], self.wild)
        self.open = None
        self.say(self.style.bold("Your moves") + " (a number or notation; 'help' for more):")
        self.say(render_moves([e.label for e in self.menu], self.style))

    def open_group(self, entry) -> None:
        """The next step of a grouped line: its moves, or finer groups."""
        from ._table import render_moves

        self.open = entry.open(self.wild)
        self.say(f"  {entry.label}: which one? (a number or notation; 'moves' to go back)")
        self.say(render_moves([e.label for e in self.open], self.style))

    def events(self, before: dict, action: str) -> None:
        """Log what the last action set off by itself (a reserve picked up, bonus cards
        laid out, books completed)."""
        from ._movelist import auto_events

        after = self.state.view(self.human)
        for text in auto_events(before, after, self.pack.spec.deal.reserve_name,
                                lambda q: f"seat {q} (you)" if q == self.human else f"seat {q}",
                                action, self.side_name):
            self.say(f"    {text}")

    def side_name(self, team: int) -> str:
        seats = self.state.team_players(team)
        if len(seats) == 1:
            return "you" if seats[0] == self.human else f"seat {seats[0]}"
        return f"team {team}"

    def after_apply(self, before=None, action=None) -> None:
        """The end of each hand the last action finished (``before``: the state before
        ``action``, where a table-meld hand's last hands are read)."""
        results = self.state.hand_results
        while self.hands_seen < len(results):
            self.say(_hand_report(self.state, results[self.hands_seen], self.style,
                                  self.pack.spec.deal.reserve_name, self.human,
                                  before=before, action=action, layoffs=self.layoffs))
            before = action = None
            self.hands_seen += 1
            self.layoffs = []
            self.fresh = []
            if not self.state.is_over:
                self.say(self.style.bold(f"── Hand {self.state.hand_number} ──"))

    def what_happened(self, p: int, action, seen: dict, after: dict, shown: str) -> list[str]:
        """The log of ``p``'s ``action``: the card drawn and the cards taken named to the
        player who may see them (you), never an opponent's stock draw (``drew from the
        stock``); ``seen`` and ``after`` are your views before and after it."""
        t = action.type
        same_hand = seen.get("hand_number") == after.get("hand_number")
        pile = seen.get("pile") or {}
        top, size = pile.get("top"), pile.get("size") or 0
        took = ""
        if t == "take" and top is not None:
            if self.table_kernel:
                n = size - ((after.get("pile") or {}).get("size") or 0) if same_hand else 1
                cards = (pile.get("cards") or [top])[-max(n, 1):]
                took = (f"{top} from the pile" if len(cards) == 1
                        else f"{len(cards)} cards from the pile ({' '.join(cards)})")
            else:
                took = f"the pile ({size} card{'' if size == 1 else 's'}, {top} on top)"
        if t == "draw" and after.get("phase") == "buy":
            return [str(action)]  # the draw waits while the others are asked to buy
        if p != self.human:
            if t == "draw":
                from .ai.chance import draw_count

                n = draw_count(self.state)
                if same_hand:  # the hand sizes are public
                    n = (after["seats"][p]["hand_size"] - seen["seats"][p]["hand_size"]) or n
                return [f"drew {'' if n == 1 else f'{n} cards '}from the stock"]
            if took:
                return [f"took {took}" if self.table_kernel else f"{action} — took {took}"]
            return [shown]
        gained: list[str] = []
        if same_hand:
            left = list(seen.get("hand") or ())
            for c in after.get("hand") or ():
                if c in left:
                    left.remove(c)
                else:
                    gained.append(c)
        new = " ".join(gained)
        lines = [str(action)]
        if t == "draw":
            lines.append(f"You drew {new}." if new else "You drew from the stock.")
            self.fresh, self.fresh_note = gained, "drawn"
        elif t == "take" and took:
            if self.table_kernel:
                lines.append(f"You took {took}.")
            else:
                lines.append(f"You took {took}" + (f"; new in your hand: {new}." if new
                                                   else "."))
            self.fresh, self.fresh_note = gained, "from the pile"
        elif t == "pickup":
            lines.append(f"You picked up your {self.pack.spec.deal.reserve_name}: {new}.")
            self.fresh, self.fresh_note = gained, "picked up"
        elif gained:
            lines.append(f"Into your hand: {new}.")
            self.fresh, self.fresh_note = self.fresh + gained, "new"
        return lines

    def play(self, p: int, action, before=None) -> None:
        """Apply ``p``'s ``action`` and log it: what it was, what came of it, the end of
        the hand it ended (``before``: a clone of the state before it, if one is kept)."""
        from ._cards import card_code
        from .ai.infostate import public_text

        state = self.state
        if p != self.human:
            self.fresh = []
        seen = state.view(self.human)
        shown = public_text(state, action)  # a card passed face down is not named
        if before is None and self.table_kernel:
            before = state.clone()  # a table-meld hand's last hands are read there
        if self.table_kernel and action.type == "add" and action.cards:
            onto = state.meld_by_id(action.target)  # (a card added to one's own meld, even
            if onto is not None and onto.owner != p:  # a pending one withdrawn later, is none)
                self.layoffs.append((p, card_code(action.cards[0]), f"m{action.target}"))
        state.apply(action)
        after = state.view(self.human)
        lines = self.what_happened(p, action, seen, after, shown)
        self.say(f"  {self.who(p)}: {lines[0]}")
        drew = action.type in ("draw", "take", "pickup")
        if not drew:  # what the move set off (a reserve picked up), then what came of it
            self.events(seen, str(action))
        for line in lines[1:]:
            self.say(f"    {line}")
        if drew:
            self.events(seen, str(action))
        self.after_apply(before, action)

    # ------------------------------------------------------------ the loop
    def run(self) -> int:
        state_team = self.state.team_of[self.human]
        show = True
        interrupted = False  # (a Ctrl-C at the prompt just before)
        while True:
            state = self.state
            if state.is_over:
                self.say(_game_over(state, self.style, state_team))
                return EXIT_OK
            p = state.current_player
            if not state.legal_actions():
                from .bots import stuck_reason

                raise _ReplayError(f"the game cannot go on: {stuck_reason(state)}")
            if p != self.human:
                self.play(p, self.bots[p].choose(state))
                show = True
                continue
            if show:
                self.say()
                self.table()
                self.moves()
                show = False
            try:
                line = self.ask("your move> ")
            except KeyboardInterrupt:  # at the prompt, as a REPL: the game is not lost
                if interrupted:
                    self.say("\nInterrupted again: leaving the game unfinished.")
                    return 130
                interrupted = True
                self.say("\n(Ctrl-C: 'save FILE' keeps the game, 'quit' leaves it; Ctrl-C "
                         "again leaves it unfinished)")
                continue
            interrupted = False
            if line is None:
                self.say("End of input: leaving the game unfinished "
                         "(type 'save FILE' before leaving to keep it).")
                return EXIT_OK
            if not line:
                self.moves()
                continue
            word, _, rest = line.partition(" ")
            cmd = word.lower()
            if cmd in ("help", "?", "h"):
                from ._movelist import play_help

                self.say(play_help(state))
            elif cmd in ("quit", "exit", "q"):
                self.say("Game left unfinished.")
                return EXIT_OK
            elif cmd in ("table", "t", "show"):
                show = True
            elif cmd in ("moves", "m"):
                self.moves()
            elif cmd == "hint":
                from .bots import GreedyBot

                self.say(f"  hint: {GreedyBot().choose(state)}")
            elif cmd in ("undo", "u"):
                if not self.undo:
                    self.say("  nothing to undo")
                else:
                    before, move, self.layoffs = self.undo.pop()
                    self.state = before
                    self.hands_seen = len(before.hand_results)
                    self.fresh = []
                    self.say(f"  undone: {move}")
                    show = True
            elif cmd == "save":
                self.save(rest.strip())
            else:
                show = self.move(line) or show
        # not reached

    def move(self, line: str) -> bool:
        """Play a numbered or written move; True if it was played."""
        state = self.state
        if line.isascii() and line.isdigit():  # not '²': int() refuses it
            shown = self.open if self.open is not None else self.menu
            if not shown:
                self.moves()
                shown = self.menu
            i = int(line)
            if not 1 <= i <= len(shown):
                self.say(f"  there is no move {i}: choose 1 to {len(shown)}")
                return False
            entry = shown[i - 1]
            if not entry.is_move:
                self.open_group(entry)
                return False
            action = state.parse_action(entry.moves[0])
        else:
            reason = state.check(line)
            if reason is not None:
                self.say(f"  not allowed: {reason.sentence} [{reason.code}]")
                return False
            action = state.parse_action(line)
        before = state.clone()
        self.undo.append((before, str(action), self.layoffs[:]))
        self.play(self.human, action, before)
        self.menu, self.open = [], None
        return True

    def save(self, path: str) -> None:
        if not path:
            self.say("  save where? e.g. 'save game.json'")
            return
        d = json.loads(self.state.to_json())
        d["play"] = {"seat": self.human, "bots": self.names, "bot_seed": self.seed}
        try:
            _write_atomically(path, json.dumps(d))
        except OSError as e:
            self.say(f"  could not save to {path}: {e.strerror or e}")
            return
        from . import available_packs

        pack = self.state.pack  # (a pack file: named again on resuming, never by the save)
        named = "" if pack.name in available_packs() else f"{pack.source} "
        self.say(f"  saved to {path} (resume with: meldkit play {named}--resume {path})")


def _write_atomically(path: str, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file in the same directory and a
    rename, so that a failed write never truncates an older file at ``path``."""
    import tempfile

    path = os.path.realpath(path)  # (a link's target is written, the link kept)
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            raise OSError(0, "it is not a regular file (a save replaces only a file)")
    except FileNotFoundError:
        pass
    folder = os.path.dirname(path)
    fd, tmp = tempfile.mkstemp(prefix=".meldkit-save-", suffix=".tmp", dir=folder)
    try:
        try:
            mode = os.stat(path).st_mode & 0o777
        except OSError:
            mode = 0o666 & ~_umask()
        os.chmod(tmp, mode)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _same_pack(path: str, data: bytes, pack) -> None:
    """Refuse a save of another pack than the one named on the command line, naming both
    (a save of the same pack with another digest is another version of it: from_json says
    so)."""
    from ._errors import SaveError
    from .saves import loads

    try:
        name = loads(data).get("pack")
    except (SaveError, AttributeError):
        return  # not a save: from_json says so
    if not isinstance(name, str) or name == pack.name:
        return
    from . import available_packs, load_pack

    saved = repr(name[:80])  # a pack that is not bundled: its name only (never opened)
    if name in available_packs():
        saved = f"{_title(load_pack(name))} ({name})"
    raise SaveError(f"{path}: this save is a game of {saved}, not of {_title(pack)} "
                    f"({pack.name}): resume it with 'meldkit play --resume {path}'")


def _check_history(path: str, state) -> None:
    """Refuse a save whose history does not replay from its seed to its state: played on,
    it would write a record that ``meldkit replay`` refuses."""
    from ._errors import MeldkitError, SaveError

    try:
        state.public_history()  # replays the history, and checks where it ends
    except MeldkitError as e:
        raise SaveError(f"{path}: its history does not replay from its seed to the saved "
                        f"game ({e}); it cannot be played on") from None


def _read_save(path: str, pack_arg: str | None):
    """A save file and its ``play`` extras, checked: the state (through
    ``GameState.from_json``, which never opens a path the save names) and the extras."""
    from . import GameState
    from ._errors import SaveError

    if not stat.S_ISREG(os.stat(path).st_mode):  # (a FIFO would block the read for ever)
        raise SaveError(f"{path}: not a regular file (a save is read from a file)")
    with open(path, "rb") as f:
        data = f.read(64_000_001)
    pack = _load(pack_arg) if pack_arg else None
    if pack is not None:
        _same_pack(path, data, pack)
    try:
        state = GameState.from_json(data, pack=pack)
    except SaveError as e:
        hint = ""
        if pack is None and str(e).startswith("cannot find pack"):
            hint = (" — on the command line, name the pack: 'meldkit replay SAVE --pack "
                    "PACK.yaml' or 'meldkit play PACK.yaml --resume SAVE'")
        raise SaveError(f"{path}: {e}{hint}") from None
    extras = json.loads(data).get("play")
    if extras is None:
        extras = {}
    if not isinstance(extras, dict):
        raise SaveError(f"{path}: play: expected an object, got {type(extras).__name__}")
    seat, bots, bot_seed = extras.get("seat", 0), extras.get("bots"), extras.get("bot_seed")
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < state.n_players:
        raise SaveError(f"{path}: play.seat: expected a seat 0 to {state.n_players - 1}, "
                        f"got {seat!r:.40}")
    if bots is not None and not (isinstance(bots, list) and len(bots) == state.n_players
                                 and all(isinstance(b, str) and len(b) < 40 for b in bots)):
        raise SaveError(f"{path}: play.bots: expected {state.n_players} bot names")
    if bot_seed is not None and (not isinstance(bot_seed, int) or isinstance(bot_seed, bool)
                                 or abs(bot_seed) > 2**256):
        raise SaveError(f"{path}: play.bot_seed: expected a whole number, got {bot_seed!r:.40}")
    return state, {"seat": seat, "bots": bots, "bot_seed": bot_seed}


def _cmd_play(args: argparse.Namespace) -> int:
    from . import new_game

    extras: dict[str, Any] = {}
    if args.resume:
        clash = [o for o, v in (("--players", args.players),
                                ("--seed", args.seed), ("--partners", args.partners))
                 if v not in (None, False)]
        if clash:
            raise _UsageError(f"--resume takes the game from the save: drop {', '.join(clash)}")
        state, extras = _read_save(args.resume, args.pack)
        _check_history(args.resume, state)
        seed = extras["bot_seed"] if extras["bot_seed"] is not None else state.seed
    else:
        pack = _load(args.pack or "pony_tail")
        # a short seed, printed, so that the game can be dealt again with --seed
        seed = args.seed if args.seed is not None else 100_000 + secrets.randbelow(900_000)
        state = new_game(pack, players=_players(args, pack), seed=seed, options=_options(args))
    n = state.n_players
    human = args.seat if args.seat is not None else extras.get("seat", 0)
    if not 0 <= human < n:
        raise ValueError(f"--seat {human}: the table has seats 0 to {n - 1}")
    saved = extras.get("bots")
    if args.bots is None and isinstance(saved, list) and len(saved) == n:
        seat_names = [str(x) for x in saved]
        was = extras.get("seat", 0)
        if human != was:  # --seat takes over another seat: its bot sits in the old one
            seat_names[was] = seat_names[human]
        seat_names[human] = "you"
        _bot_names(",".join(x for q, x in enumerate(seat_names) if q != human))
    else:
        names = _bot_names(args.bots if args.bots is not None else DEFAULT_BOTS)
        others = [q for q in range(n) if q != human]
        seat_names = ["you"] * n
        for i, q in enumerate(others):
            seat_names[q] = names[i % len(names)]
    out = sys.stdout
    style = _style(args, out)
    game = _Game(state, human, seat_names, style, out, sys.stdin, seed)
    pack = game.pack
    verb = "Resuming" if args.resume else "New game of"
    if game.partners:
        teams = "; ".join(
            f"team {t}: " + ", ".join(f"seat {q} ({seat_names[q]})"
                                      for q in state.team_players(t))
            for t in range(state.n_teams))
        seats = f"You are seat {human}, team {state.team_of[human]}.\n{teams}"
    else:  # no partners: you, and the others by seat
        others = [q for q in range(n) if q != human]
        seats = (f"You are seat {human}, against "
                 + ", ".join(f"seat {q} ({seat_names[q]})" for q in others) + ".")
    replay = "" if args.resume else (f"Play this deal again with: meldkit play "
                                     f"{args.pack or 'pony_tail'} --seed {state.seed}"
                                     + (f" --players {n}" if args.players else "") + "\n")
    out.write(style.bold(f"{verb} {_title(pack)}") + f", {n} players, seed {state.seed}. "
              f"{seats}\n{replay}Type 'help' for the moves of {_title(pack)}.\n")
    return game.run()


# --------------------------------------------------------------------------- replay


def _cmd_replay(args: argparse.Namespace) -> int:
    from . import new_game
    from ._table import render_state
    from .bots import pack_of

    saved, _ = _read_save(args.save, args.pack)
    pack = pack_of(saved)
    out = sys.stdout
    style = _style(args, out)
    g = new_game(pack, players=saved.n_players, seed=saved.seed,
                 options=dict(saved.options) if saved.options else None,
                 deck_order=list(saved.deck_order) if saved.deck_order else None)
    for n, order in getattr(saved, "later_orders", {}).items():  # stacked later deals
        g.stack_deal(n, order)
    history = list(saved.history)
    if args.seat is not None and not 0 <= args.seat < saved.n_players:
        raise ValueError(f"--seat {args.seat}: the table has seats 0 to {saved.n_players - 1}")
    out.write(style.bold(f"{_title(pack)}") + f": {saved.n_players} players, seed {saved.seed}; "
              f"{len(history)} actions over {len(saved.hand_results) + (0 if saved.is_over else 1)}"
              f" hand(s)\n")
    stepping = args.step
    echo = not _isatty(sys.stdin)

    def show(seat: int | None) -> None:
        who = seat if seat is not None else (g.current_player if g.current_player is not None
                                             else 0)
        out.write(render_state(g, who, style))

    def pause() -> bool:
        """Wait for Enter; False to stop stepping (q, or end of input)."""
        nonlocal stepping
        out.write("[Enter: next, q: stop stepping] ")
        out.flush()
        line = sys.stdin.readline()
        if not line:
            out.write("\n")
            stepping = False
            return True
        if echo:
            out.write(line if line.endswith("\n") else line + "\n")
        return line.strip().lower() not in ("q", "quit")

    out.write(style.bold("── Hand 1 ──") + "\n")
    if stepping:
        show(args.seat)
        if not pause():
            return EXIT_OK
    for i, move in enumerate(history, 1):
        p = g.current_player
        hands = len(g.hand_results)
        try:
            g.apply(move)
        except MeldkitError as e:
            raise _ReplayError(
                f"action {i} ({move!r}, the save's history[{i - 1}]) cannot be replayed: "
                f"{e}") from e
        team = g.team_of[p] if p is not None else "?"
        out.write(f"{i:>5}  seat {p} (team {team})  {move}\n")
        if len(g.hand_results) > hands:
            out.write(_hand_report(g, g.hand_results[-1], style, pack.spec.deal.reserve_name))
            if not g.is_over:
                out.write(style.bold(f"── Hand {g.hand_number} ──") + "\n")
        if stepping:
            show(args.seat)
            if not pause():
                return EXIT_OK
    if g.is_over:
        out.write(_game_over(g, style))
    if g != saved:
        a, b = json.loads(g.to_json()), json.loads(saved.to_json())
        differ = sorted(k for k in set(a) | set(b) if a.get(k) != b.get(k))
        raise _ReplayError("the replay does not reproduce the saved state "
                            f"(differs in: {', '.join(differ)})")
    out.write(f"ok: replaying the {len(history)} actions from the deal reproduces the save\n")
    return EXIT_OK


class _ReplayError(MeldkitError):
    """A save that does not replay (exit code 1)."""


# --------------------------------------------------------------------------- test


def _cmd_test(args: argparse.Namespace) -> int:
    from .scenarios import ScenarioError, bundled_scenarios, run_scenarios

    pack = _load(args.pack)
    # a bundled pack's name stands for its example scenarios (unless such a file exists)
    from ._loader import available_packs

    paths = []
    for p in args.scenarios:  # a bundled pack's name stands for its example scenarios
        bundled = None if os.path.exists(p) else bundled_scenarios(p)
        if bundled is None and not os.path.exists(p) and p in available_packs():
            shipped = sorted(n for n in available_packs() if bundled_scenarios(n))
            raise _UsageError(f"{p}: the bundled pack {p!r} ships no scenarios (those that "
                              f"do: {', '.join(shipped)}); name a scenario file")
        paths.append(p if bundled is None else str(bundled))
    if not paths:
        bundled = bundled_scenarios(args.pack)
        if bundled is None:
            raise _UsageError("name the scenario files or directories to run, e.g. "
                              f"meldkit test {args.pack} scenarios/")
        paths = [str(bundled)]
    out = sys.stdout
    passed = failed = broken = 0
    for path, results in run_scenarios(pack, paths):
        if isinstance(results, ScenarioError):
            broken += 1
            for problem in results.problems:
                out.write(f"{problem}\n")
            continue
        for r in results:
            if r.passed:
                passed += 1
                if args.verbose:
                    out.write(f"ok    {path}:{r.line}: {r.name}\n")
            else:
                failed += 1
                if args.verbose:
                    out.write(f"FAIL  {path}:{r.line}: {r.name}\n")
                for f in r.failures:
                    out.write(f"{f}\n")
    total = passed + failed
    summary = (f"{pack.name}: {total} scenario{'s' if total != 1 else ''}, {passed} passed, "
               f"{failed} failed")
    if broken:
        summary += f"; {broken} file{'s' if broken != 1 else ''} could not be read"
    elif not total:  # (a failure: a run that proves nothing must not pass)
        summary += (" — no scenario found in " + ", ".join(paths) + " (a scenario file is "
                    "a .yaml with a 'scenarios:' list; a directory is searched for them)")
    out.write(summary + "\n")
    return EXIT_INPUT if failed or broken or not total else EXIT_OK


# --------------------------------------------------------------------------- keys, schema


def _key_lines(key, width: int) -> list[str]:
    import textwrap

    from .schema_docs import inline_yaml

    import attrs

    if attrs.has(key.type):  # a section: its keys follow, each with its default
        lines = [f"{key.path}  (section)"]
        return lines + textwrap.wrap(key.doc, width, initial_indent="    ",
                                     subsequent_indent="    ")
    lines = [f"{key.path}  ({key.type_text}; default: {inline_yaml(key.default)})"]
    lines += textwrap.wrap(key.doc, width, initial_indent="    ", subsequent_indent="    ")
    lines += textwrap.wrap(f"applies to: {key.applies_to}" + (
        f"; needs: {key.needs}" if key.needs else ""), width, initial_indent="    ",
        subsequent_indent="      ")
    if key.example != key.default:
        source = f" ({key.example_source})" if key.example_source else ""
        lines.append(f"    example{source}: {key.name}: {inline_yaml(key.example)}")
    return lines


def _cmd_keys(args: argparse.Namespace) -> int:
    import difflib
    import shutil

    from .schema_docs import key_anchor, keys_matching, pack_keys

    keys = pack_keys()
    width = max(40, min(shutil.get_terminal_size((100, 24)).columns, 100) - 4)
    if args.search:
        if args.key:
            raise _UsageError("give a key or --search words, not both")
        chosen = keys_matching(keys, args.search)
        if not chosen:
            raise ValueError(f"no key's name or meaning holds {args.search!r}; "
                             "'meldkit keys' lists them all")
    elif args.key:
        want = key_anchor(args.key.strip()).strip(".")
        chosen = [k for k in keys if k.anchor == want or k.anchor.startswith(want + ".")]
        if not chosen:
            close = difflib.get_close_matches(want, [k.anchor for k in keys], n=3)
            hint = f" (did you mean {' or '.join(repr(c) for c in close)}?)" if close else ""
            raise ValueError(f"{args.key!r} is not a pack key{hint}; 'meldkit keys' lists "
                             "them all")
    else:
        chosen = keys
    out = sys.stdout
    for i, key in enumerate(chosen):
        if i:
            out.write("\n")
        out.write("\n".join(_key_lines(key, width)) + "\n")
    return EXIT_OK


def _cmd_schema(args: argparse.Namespace) -> int:
    from .schema_docs import schema_text, shipped_schema_path

    if args.path:
        if args.out:
            raise _UsageError("--path prints where the shipped schema is; --out writes one: "
                              "give one of them")
        sys.stdout.write(f"{shipped_schema_path()}\n")
        return EXIT_OK
    text = schema_text()
    if args.out:
        with open(args.out, "w", encoding="utf-8") as f:
            f.write(text)
        sys.stderr.write(f"wrote {args.out} (point your editor at it: "
                         f"# yaml-language-server: $schema={args.out})\n")
    else:
        sys.stdout.write(text)
    return EXIT_OK


# --------------------------------------------------------------------------- the parser


def _common(p: argparse.ArgumentParser, *, bots_default: str | None, seed_default: int | None,
            seed_help: str, bots_help: str | None = None) -> None:
    p.add_argument("--players", type=_positive, default=None, metavar="N",
                   help="number of players (default: the pack's minimum)")
    p.add_argument("--seed", type=_game_seed, default=seed_default, metavar="N",
                   help=seed_help)
    if bots_help is None:
        bots_help = (f"comma-separated bot names ({_bot_list()}), one per seat, repeated "
                     f"around the table (default: {bots_default})")
    p.add_argument("--bots", default=bots_default, metavar="NAMES", help=bots_help)
    p.add_argument("--partners", action="store_true",
                   help="play in partnerships where the pack makes them optional")


def _set_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                   help="play a variant: a dotted key into the pack and a YAML value, e.g. "
                        "game.target=20000, deal.hand=13, pile.freezes_on=[JK, '2'], "
                        "books.kinds.0.value=6000 (a number indexes a list), "
                        "deal.hand_by_players.2=13 (or keys a mapping) (repeatable)")


def _scale_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--jobs", "-j", type=_jobs, default=None, metavar="N",
                   help="worker processes (0: one per CPU; default: 1); with --ray alone, the "
                        "local Ray's CPUs (default: all); the results are the same for any "
                        "number")
    p.add_argument("--ray", nargs="?", const="local", default=None, metavar="ADDRESS",
                   help="play the games as Ray tasks: on a local Ray (--ray alone), or on a "
                        "cluster (--ray auto, --ray ray://HOST:10001); same results as "
                        'without (needs Ray: pip install "meldkit[ray]")')
    p.add_argument("--batch", type=_positive, default=None, metavar="N",
                   help="games per task (default: about 16 tasks per worker, at most 16 "
                        "games)")


def _color_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--color", choices=("auto", "always", "never"), default="auto",
                   help="colour the table: auto (only on a terminal, and not when NO_COLOR "
                        "is set), always or never (default: auto)")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``meldkit`` command."""
    from . import __version__

    p = _Parser(
        prog="meldkit",
        formatter_class=_FORMATTER,
        description=_wrap(
            "A rules engine for rummy-family card games, configured by YAML rule packs."),
        epilog="Run 'meldkit COMMAND --help' for a command's options and examples.\n"
               "Exit codes: 0 success, 1 bad input or a failed validation, 2 usage error.\n"
               "A PACK is a bundled pack name (see 'meldkit packs') or a .yaml file.",
    )
    p.add_argument("--version", action="version", version=f"meldkit {__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND", title="commands")

    # packs
    sp = sub.add_parser("packs", help="list the bundled rule packs",
                        description=_wrap("List the bundled rule packs with their titles."),
                        formatter_class=_FORMATTER)
    sp.set_defaults(func=_cmd_packs)

    # play
    sp = sub.add_parser(
        "play", help="play a game in the terminal against bots",
        formatter_class=_FORMATTER,
        description=_wrap(
            "Play a game in the terminal against bots. The table is drawn before each "
            "of your moves; type a move's number or its notation (draw, take 9 9, "
            "meld 9 9 2, add 9 to 9, discard 9, ...), or a command: help, moves, "
            "table, hint, undo, save FILE, quit. Reads standard input, so it can be "
            "scripted."),
        epilog="examples:\n"
               "  meldkit play pony_tail                    you are seat 0, three greedy bots\n"
               "  meldkit play pony_canasta --players 2 --bots random --seed 7\n"
               "  meldkit play --resume game.json           continue a saved game\n"
               "  yes 1 | meldkit play pony_canasta --players 2 --seed 1   always the first move")
    sp.add_argument("pack", nargs="?", default=None,
                    help="a bundled pack name or a .yaml file (default: pony_tail)")
    _common(sp, bots_default=None, seed_default=None,
            seed_help="seed of the deal (default: a random seed, printed at the start)",
            bots_help=f"comma-separated bot names ({_bot_list()}) for the other seats, in "
                      f"seat order, repeated (default: {DEFAULT_BOTS})")
    sp.add_argument("--seat", type=int, default=None, metavar="N",
                    help="your seat, 0 to players-1 (default: 0)")
    sp.add_argument("--resume", metavar="FILE",
                    help="continue a game saved with 'save FILE' (a save of a pack file: name "
                         "the pack too, e.g. 'meldkit play family.yaml --resume game.json')")
    _color_option(sp)
    sp.set_defaults(func=_cmd_play)

    # simulate
    sp = sub.add_parser(
        "simulate", help="play games between bots and summarise the results",
        formatter_class=_FORMATTER,
        description=_wrap(
            "Play games between bots; print each result and a summary: win rates per "
            "team and seat with 95% confidence intervals (Wilson), game length, how "
            "hands ended and the distribution of final scores."),
        epilog="examples:\n"
               "  meldkit simulate pony_tail --games 200 --bots greedy,random --jobs 4 -q\n"
               "  meldkit simulate pony_canasta --players 3 --games 50 --out runs.jsonl\n"
               "  meldkit simulate pony_tail --set game.target=20000 --plot scores.png\n"
               "  meldkit simulate pony_tail --games 100000 --ray auto -q --out big.jsonl\n"
               "  meldkit simulate pony_tail --games 100000 --ray auto -q --out big.jsonl "
               "--resume")
    sp.add_argument("pack", nargs="?", default="pony_tail",
                    help="a bundled pack name or a .yaml file (default: pony_tail)")
    sp.add_argument("--games", type=_games, default=10, metavar="N",
                    help="number of games (default: 10)")
    _common(sp, bots_default=DEFAULT_BOTS, seed_default=0,
            seed_help="seed of the run (default: 0)")
    _scale_options(sp)
    _set_option(sp)
    sp.add_argument("--out", metavar="FILE.jsonl",
                    help="write one JSON record per game, in game order, as games finish "
                         "(a new or empty file: one holding records is continued with "
                         "--resume, never written over)")
    sp.add_argument("--resume", action="store_true",
                    help="continue the --out FILE of an interrupted run: play only the games "
                         "missing from it (the file ends as an uninterrupted run's would)")
    sp.add_argument("--plot", metavar="FILE.png",
                    help="plot the score and game-length distributions (needs matplotlib: "
                         f"{_install_hint('plot')})")
    sp.add_argument("--quiet", "-q", action="store_true",
                    help="print only the summary, not a line per game (the progress bar "
                         "still shows on a terminal)")
    sp.set_defaults(func=_cmd_simulate)

    # compare
    sp = sub.add_parser(
        "compare", help="the variant lab: a pack against a variant, on the same seeds",
        formatter_class=_FORMATTER,
        description=_wrap(
            "Play the pack and a variant of it (--set KEY=VALUE ...) on the same seeds "
            "and report the differences — win rate by seat, game length in hands and "
            "decisions, the share of hands that end by going out — with 95% "
            "confidence intervals."),
        epilog="examples:\n"
               "  meldkit compare pony_tail --set game.target=20000 --games 100 --jobs 4\n"
               "  meldkit compare pony_tail --set deal.hand=13 --set deal.reserve=11\n"
               "  meldkit compare pony_canasta --players 4 --partners --set turn.draw=1\n"
               "  meldkit compare pony_tail --set deal.hand=13 --games 20000 --ray auto\n"
               "  meldkit compare pony_tail --set game.target=20000 --plot target.png")
    sp.add_argument("pack", help="a bundled pack name or a .yaml file")
    _set_option(sp)
    sp.add_argument("--games", type=_games, default=50, metavar="N",
                    help="games on each side (default: 50)")
    _common(sp, bots_default=DEFAULT_BOTS, seed_default=0,
            seed_help="seed of the run (default: 0)")
    _scale_options(sp)
    sp.add_argument("--plot", metavar="FILE.png",
                    help="plot the final scores and game lengths of the base and the variant "
                         f"over each other (needs matplotlib: {_install_hint('plot')})")
    sp.add_argument("--quiet", "-q", action="store_true",
                    help="no progress (a bar on a terminal; elsewhere a line every tenth of "
                         f"the games, at most one every {PIPED_PROGRESS_SECONDS:.0f} s)")
    sp.set_defaults(func=_cmd_compare)

    # validate
    sp = sub.add_parser(
        "validate", help="check rule pack files",
        formatter_class=_FORMATTER,
        description=_wrap(
            "Check rule pack files and report every problem as file:line:col: key: "
            "message. Exit code 0 and 'ok' if there are none, 1 if there are any."),
        epilog="examples:\n"
               "  meldkit validate my_variant.yaml\n"
               "  meldkit validate packs/*.yaml --format json     for editors and CI")
    sp.add_argument("packs", nargs="+", metavar="PACK", help="pack files (or bundled names)")
    sp.add_argument("--format", choices=("text", "json"), default="text",
                    help="text (default), or a JSON list of problems with file, line, col, "
                         "path, message and suggestion")
    sp.set_defaults(func=_cmd_validate)

    # rules
    sp = sub.add_parser(
        "rules", help="print a pack's rules as a Markdown rules sheet",
        formatter_class=_FORMATTER,
        description=_wrap(
            "Print the rules of a pack as a readable Markdown rules sheet, written "
            "from the pack itself, so it always says what the engine plays."),
        epilog="examples:\n"
               "  meldkit rules pony_tail\n"
               "  meldkit rules my_variant.yaml --out RULES.md\n"
               "  meldkit rules pony_tail --set game.target=20000")
    sp.add_argument("pack", help="a bundled pack name or a .yaml file")
    _set_option(sp)
    sp.add_argument("--out", "-o", metavar="FILE.md", help="write the sheet to a file")
    sp.set_defaults(func=_cmd_rules)

    # replay
    sp = sub.add_parser(
        "replay", help="show the history of a saved game, or step through it",
        formatter_class=_FORMATTER,
        description=_wrap(
            "Replay a saved game from its deal: print every action (numbered, with the "
            "seat that acted, and where hands end), or --step through it showing the "
            "table. Checks that the replay reproduces the saved state (exit 1 if not)."),
        epilog="examples:\n"
               "  meldkit replay game.json\n"
               "  meldkit replay game.json --step --seat 0")
    sp.add_argument("save", metavar="SAVE.json", help="a game saved by 'save FILE' in play, "
                                                       "or by GameState.to_json()")
    sp.add_argument("--pack", default=None, metavar="PACK",
                    help="the pack the game was saved with, when it is not a bundled pack "
                         "(a save never names a file to open)")
    sp.add_argument("--step", action="store_true",
                    help="show the table after each action and wait for Enter (q stops)")
    sp.add_argument("--seat", type=int, default=None, metavar="N",
                    help="with --step: show this seat's hand (default: the seat to play)")
    _color_option(sp)
    sp.set_defaults(func=_cmd_replay)

    # test
    sp = sub.add_parser(
        "test", help="run rule scenarios (YAML) against a pack",
        formatter_class=_FORMATTER,
        description=_wrap(
            "Run rule scenarios against a pack: each deals a stacked hand, plays scripted "
            "moves in notation and checks what must hold after any step (a move legal or "
            "refused with a reason code, a hand, the pile, the hand's score items, the game "
            "over). Every failure is reported as file:line:col with the difference. Exit "
            "code 0 if all pass, 1 otherwise."),
        epilog="examples:\n"
               "  meldkit test my_pack.yaml scenarios/\n"
               "  meldkit test my_pack.yaml scenarios/frozen_pile.yaml -v\n"
               "  meldkit test pony_tail              the scenarios shipped with a bundled pack\n"
               "  meldkit test my_variant.yaml pony_tail   ... run against your variant")
    sp.add_argument("pack", help="a bundled pack name or a .yaml file")
    sp.add_argument("scenarios", nargs="*", metavar="SCENARIOS",
                    help="scenario files or directories of them; a bundled pack's name "
                         "stands for its example scenarios (default, for a bundled pack: "
                         "its own)")
    sp.add_argument("--verbose", "-v", action="store_true",
                    help="also list the scenarios that pass")
    sp.set_defaults(func=_cmd_test)

    # keys
    sp = sub.add_parser(
        "keys", help="the rule-pack key reference: types, defaults, meanings",
        formatter_class=_FORMATTER,
        description=_wrap(
            "Print the rule-pack key reference, offline: every key (or one key, or one "
            "section) with its type, its default, what it means and an example. The "
            "documentation's reference page is generated from the same source."),
        epilog="examples:\n"
               "  meldkit keys                 every key\n"
               "  meldkit keys deal.hand       one key\n"
               "  meldkit keys pile            a section and its keys\n"
               "  meldkit keys --search 'one more turn'   keys by meaning")
    sp.add_argument("key", nargs="?", default=None,
                    help="a dotted key (deal.hand, books.kinds.value) or a section (pile)")
    sp.add_argument("--search", metavar="WORDS", default=None,
                    help="the keys whose name or meaning holds the phrase (any case, "
                         "across line breaks): --search 'one more turn'")
    sp.set_defaults(func=_cmd_keys)

    # schema
    sp = sub.add_parser(
        "schema", help="write the JSON Schema of rule packs (for editors)",
        formatter_class=_FORMATTER,
        description=_wrap(
            "Write the JSON Schema of rule packs, for editors that complete and check YAML "
            "(first line of a pack: # yaml-language-server: $schema=rulepack.schema.json). "
            "The same file ships inside the package: --path prints where."),
        epilog="examples:\n"
               "  meldkit schema --out rulepack.schema.json\n"
               "  meldkit schema --path        the copy installed with meldkit")
    sp.add_argument("--out", "-o", metavar="FILE.json", help="write to a file, not stdout")
    sp.add_argument("--path", action="store_true",
                    help="print the path of the schema file installed with meldkit")
    sp.set_defaults(func=_cmd_schema)

    # tournament
    sp = sub.add_parser(
        "tournament", help="a round robin between bots, with ratings",
        formatter_class=_FORMATTER,
        description=_wrap(
            "Play every pair of bots against each other, seats rotated, and report each "
            "pair's score with a 95% confidence interval and OpenSkill ratings with 95% "
            f"intervals (ratings need OpenSkill: {_install_hint('tournament')})."),
        epilog="examples:\n"
               "  meldkit tournament gin_rummy --bots random,greedy,ismcts --games 20\n"
               "  meldkit tournament houses --bots greedy,random --games 50 --no-ratings\n"
               "  meldkit tournament gin_rummy --bots greedy,ismcts -q > results.txt")
    sp.add_argument("pack", help="a bundled pack name or a .yaml file")
    sp.add_argument("--bots", required=True, metavar="A,B,...",
                    help=f"two or more bots, comma-separated: {_bot_list()}")
    sp.add_argument("--games", type=_pairing_games, default=20, metavar="N",
                    help="games per pair of bots (default: 20; at most 100,000)")
    sp.add_argument("--players", type=_positive, default=None, metavar="N",
                    help="seats at the table (default: the pack's smallest table)")
    sp.add_argument("--seed", type=_tournament_seed, default=0,
                    help="seed of the run, from -2**236 to 2**236 (default: 0)")
    sp.add_argument("--no-ratings", action="store_true", help="skip the OpenSkill ratings")
    sp.add_argument("--jobs", "-j", type=_jobs, default=1, metavar="N",
                    help="worker processes (0: one per CPU; default: 1); the results are the "
                         "same for any number")
    sp.add_argument("--quiet", "-q", action="store_true",
                    help="no progress (a bar on a terminal; elsewhere a line every tenth of "
                         f"the games, at most one every {PIPED_PROGRESS_SECONDS:.0f} s)")
    sp.set_defaults(func=_cmd_tournament)
    return p


def _bot_list() -> str:
    """The names of the bots every command accepts (:data:`meldkit.bots.BOTS`), for help."""
    from .bots import BOTS

    return ", ".join(sorted(BOTS))


def _pairing_games(text: str) -> int:
    """An argparse type: the tournament's ``--games``, 1 to ``MAX_PAIRING_GAMES``."""
    from .tournament import MAX_PAIRING_GAMES

    n = _positive(text)
    if n > MAX_PAIRING_GAMES:
        raise argparse.ArgumentTypeError(f"expected at most {MAX_PAIRING_GAMES:,}, got {n:,}")
    return n


def _seed_within(most: int):
    """An argparse type: a ``--seed``, a whole number within ``±most`` (a power of two),
    refused as a usage error naming the option."""
    shown = f"2**{most.bit_length() - 1}"

    def seed(text: str) -> int:
        try:
            n = int(text)
        except ValueError:
            n = None
        if n is None or not -most <= n <= most:
            raise argparse.ArgumentTypeError(f"expected a whole number from -{shown} to "
                                             f"{shown}, got {quoted(text if n is None else n)}")
        return n
    return seed


def _tournament_seed(text: str) -> int:
    """An argparse type: the tournament's ``--seed``, a whole number within ``±MAX_SEED``
    (so that every game's seed is valid)."""
    from .tournament import MAX_SEED

    return _seed_within(MAX_SEED)(text)


def _game_seed(text: str) -> int:
    """An argparse type: a ``--seed`` a game takes, within what a save holds."""
    from .saves import MAX_SEED

    return _seed_within(MAX_SEED)(text)


def _cmd_tournament(args: argparse.Namespace) -> int:
    from .tournament import run_tournament

    names = _bot_names(args.bots)
    if len(names) < 2:
        raise _UsageError("--bots: a tournament needs at least two bots, e.g. --bots greedy,random")
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise _UsageError(f"--bots: name each bot once ({', '.join(twice)} more than once), "
                          "e.g. --bots greedy,random")
    if not args.no_ratings:
        _need_openskill()
    pack = _load(args.pack)
    pairs = len(names) * (len(names) - 1) // 2
    progress = _progress("tournament", pairs * args.games, quiet=args.quiet)
    played = 0

    def step(a: str, b: str, done: int, games: int) -> None:
        nonlocal played
        played += 1
        progress.update(played)

    try:
        with _terminate_as_interrupt():  # SIGTERM stops the workers as Ctrl-C does
            result = run_tournament(pack, names, games=args.games, players=args.players,
                                    seed=args.seed, ratings=not args.no_ratings,
                                    progress=step, jobs=args.jobs)
    finally:
        progress.clear()
    print(result.report())
    return EXIT_OK


# --------------------------------------------------------------------------- main


def _error(message: str) -> None:
    print(f"meldkit: error: {message}", file=sys.stderr)


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit code."""
    for name in ("stdout", "stderr"):  # closed (``>&-``): Python gives None, not a file
        if getattr(sys, name) is None:
            setattr(sys, name, open(os.devnull, "w", encoding="utf-8"))  # noqa: SIM115
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as e:  # --help, --version (0) or a usage error (2)
        return e.code if isinstance(e.code, int) else EXIT_USAGE
    if not getattr(args, "func", None):
        parser.print_help(sys.stderr)
        return EXIT_USAGE
    try:
        return args.func(args)
    except _UsageError as e:
        print(f"meldkit {args.command}: error: {e}", file=sys.stderr)
        return EXIT_USAGE
    except RulePackError as e:
        problems = e.problems
        if len(problems) == 1:
            _error(str(problems[0]))
        else:
            _error(f"{len(problems)} problems in rule pack:")
            for problem in problems:
                print(f"  {problem}", file=sys.stderr)
        return EXIT_INPUT
    except (MeldkitError, ValueError) as e:
        _error(str(e).strip().replace("\n", " "))
        return EXIT_INPUT
    except OSError as e:
        if isinstance(e, BrokenPipeError):
            _quiet_broken_pipe()
            return EXIT_OK
        where = f"{e.filename}: " if e.filename else ""
        _error(f"{where}{e.strerror or e}")
        return EXIT_INPUT
    except KeyboardInterrupt:
        print("\nmeldkit: interrupted", file=sys.stderr)
        return 130


def _quiet_broken_pipe() -> None:
    """After the reader of stdout went away (``meldkit rules x | head``): no more output."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
