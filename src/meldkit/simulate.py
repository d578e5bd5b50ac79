"""Many games between bots: per-game records, summaries with confidence intervals, and
variants of a pack built from ``KEY=VALUE`` settings.

Every game's seed depends only on the run's seed and the game's number, so a run gives the
same records whether it is played in one process or many (``jobs``).

>>> from meldkit.simulate import simulate, summarize
>>> records = list(simulate("pony_tail", players=4, games=2, seed=1))
>>> records[0].hands >= 1 and records[0].winner in (0, 1)
True
>>> s = summarize(records)
>>> s.games, len(s.team_wins)
(2, 2)
>>> from meldkit.simulate import variant_pack
>>> variant_pack("pony_tail", ["game.target=20000", "deal.hand=13"]).spec.game.target
20000
"""

from __future__ import annotations

import errno
import json
import math
import os
import random
import statistics
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import attrs

from ._checks import check
from ._errors import MeldkitError, PackProblem, RulePackError, SetupError
from ._loader import RulePack, load_pack, load_pack_text
from ._sim_backends import MAX_GAMES, MAX_JOBS, make_backend, run_games
from .bots import StuckGameError, bot_names, make_bot, play_game

Z95 = 1.959963984540054
"""The two-sided 95% normal quantile."""


@attrs.frozen
class GameRecord:
    """The outcome of one simulated game.  ``seconds`` is left out of comparisons and of
    :meth:`to_dict`, so records are identical however the run was spread over processes."""

    game: int
    seed: int
    players: int
    winner: int | None
    """The winning team (None on a tie)."""
    scores: tuple[int, ...]
    """Final score of each team."""
    hands: int
    decisions: int
    ended_by: tuple[str, ...]
    """How each hand ended: ``went_out``, ``stock_empty``, ``one_side_left``."""
    bots: tuple[str, ...] = ()
    """The bot of each seat."""
    team_of: tuple[int, ...] = ()
    """The team of each seat."""
    went_out: tuple[int | None, ...] = ()
    """For each hand, the seat that went out (None if nobody did)."""
    hand_scores: tuple[tuple[int, ...], ...] = ()
    """For each hand, each team's score."""
    unfinished: str | None = None
    """Why the game could not be played to the end (None: it was)."""
    sheets: tuple[tuple[str, tuple[int, ...]], ...] = ()
    """With ``scoring.sheets``: each sheet's name and each team's final total on it."""
    contracts_met: tuple[int, ...] = ()
    """With ``initial_meld.contracts``: how many contracts each seat met (what decides the
    winner before the totals)."""
    seconds: float = attrs.field(default=0.0, eq=False)

    def to_dict(self) -> dict:
        """JSON-able form (without the timing; ``sheets`` and ``contracts_met`` only where
        the pack keeps them)."""
        return {f.name: _jsonable(getattr(self, f.name))
                for f in attrs.fields(type(self)) if f.name != "seconds"
                and (f.name not in ("sheets", "contracts_met") or getattr(self, f.name))}

    @classmethod
    def from_dict(cls, data: dict) -> GameRecord:
        """The record back from :meth:`to_dict` (one line of ``--out``, parsed).

        >>> r = next(simulate("pony_tail", 4, games=1, seed=3))
        >>> GameRecord.from_dict(json.loads(record_line(r))) == r
        True
        """
        fields = [f for f in attrs.fields(cls) if f.name != "seconds"]
        names = {f.name for f in fields}
        if not isinstance(data, dict) or set(data) - names or "game" not in data:
            raise ValueError("not a game record (expected the keys of "
                             f"meldkit's GameRecord: {', '.join(sorted(names))})")
        missing = [f.name for f in fields if f.default is attrs.NOTHING and f.name not in data]
        if missing:
            raise ValueError(f"a game record without {', '.join(missing)}")
        tuples = {"scores", "ended_by", "bots", "team_of", "went_out", "contracts_met"}
        values = {k: tuple(v) if k in tuples and isinstance(v, list) else v
                  for k, v in data.items()}
        if isinstance(values.get("hand_scores"), list):
            values["hand_scores"] = tuple(tuple(h) for h in values["hand_scores"])
        if isinstance(values.get("sheets"), list):
            values["sheets"] = tuple((name, tuple(v)) for name, v in values["sheets"])
        return cls(**values)


def record_line(record: GameRecord) -> bytes:
    """The record as one line of ``--out`` (compact JSON, newline-terminated, UTF-8)."""
    return (json.dumps(record.to_dict(), separators=(",", ":")) + "\n").encode()


class RecordWriteError(MeldkitError, OSError):
    """A record that could not be written to ``--out`` (a full disk, say); the file was
    cut back to the whole records before it."""


class RecordFile:
    """An ``--out`` file that only ever holds whole records: each record is one line
    written whole (one buffer, unbuffered writes, then a flush); a write that fails is cut
    back to the end of the last whole record and raises :class:`RecordWriteError`, one
    line naming the file.  ``append`` continues a file (``--resume``) instead of starting
    it afresh.

    >>> import tempfile, pathlib
    >>> path = pathlib.Path(tempfile.mkdtemp(), "run.jsonl")
    >>> with RecordFile(path) as out:
    ...     for r in simulate("pony_tail", 4, games=2, seed=1):
    ...         out.write(r)
    >>> [json.loads(line)["game"] for line in path.read_bytes().splitlines()]
    [0, 1]
    """

    def __init__(self, path: str | os.PathLike, append: bool = False):
        self.path = os.fspath(path)
        self._file = self._open(self.path, "ab" if append else "wb")
        self._whole = self._file.seek(0, os.SEEK_END)  # the end of the last whole record

    @staticmethod
    def _open(path: str, mode: str):
        return open(path, mode, buffering=0)  # noqa: SIM115 - closed by close()

    def write(self, record: GameRecord) -> None:
        """Append ``record`` as one whole line, or leave the file as it was and raise."""
        line = record_line(record)
        view = memoryview(line)
        try:
            while view:
                n = self._file.write(view)
                if not n:
                    raise OSError(errno.EIO, "the file took none of the record")
                view = view[n:]
            self._file.flush()
        except OSError as e:
            cut = len(view) == len(line) or self._cut()  # nothing written: nothing to cut
            reason = e.strerror or str(e) or type(e).__name__
            kept = ("the file holds only the whole records before it" if cut
                    else "the file may end with part of it (--resume cuts that off)")
            raise RecordWriteError(
                f"{self.path}: {reason}: the record of game {record.game} was not written, "
                f"and {kept}; make room, then continue the run with the same command and "
                "--resume") from None
        self._whole += len(line)

    def _cut(self) -> bool:
        """Truncate the file to its last whole record; False if that failed too."""
        try:
            self._file.truncate(self._whole)
            self._file.seek(self._whole)
        except OSError:
            return False
        return True

    def close(self) -> None:
        """Close the file."""
        self._file.close()

    def __enter__(self) -> RecordFile:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _jsonable(value):
    if isinstance(value, (tuple, list)):
        return [_jsonable(v) for v in value]
    return value


def game_seed(seed: int, game: int) -> int:
    """The seed of game number ``game`` of a run seeded ``seed`` (independent of workers)."""
    return random.Random(f"meldkit-sim:{seed}:{game}").getrandbits(62)


def seat_bots(bots: Sequence[str], players: int) -> tuple[str, ...]:
    """The bot of each seat: ``bots`` repeated around the table."""
    if not bots:
        raise ValueError("no bots named")
    return tuple(bots[p % len(bots)] for p in range(players))


def play_one(pack: RulePack, players: int, seed: int, game: int,
             bots: Sequence[str] = ("random",), options: dict | None = None) -> GameRecord:
    """Play game number ``game`` of a run and return its record."""
    from . import new_game

    s = game_seed(seed, game)
    names = seat_bots(bots, players)
    state = new_game(pack, players=players, seed=s, options=options)
    seat = [make_bot(names[p], seed=s + 1 + p) for p in range(players)]
    t0 = time.perf_counter()
    unfinished = None
    try:
        play_game(state, seat)
    except StuckGameError as e:
        unfinished = str(e)
    return GameRecord(
        game=game,
        seed=s,
        players=players,
        winner=state.winner,
        scores=tuple(state.scores),
        hands=len(state.hand_results),
        decisions=len(state.history),
        ended_by=tuple(h.ended_by for h in state.hand_results),
        bots=names,
        team_of=tuple(state.team_of),
        went_out=tuple(h.went_out for h in state.hand_results),
        hand_scores=tuple(tuple(h.totals) for h in state.hand_results),
        unfinished=unfinished,
        sheets=_sheets(state),
        contracts_met=(tuple(state.contracts_met()) if getattr(
            getattr(state, "rules", None), "contracts", ()) else ()),
        seconds=time.perf_counter() - t0,
    )


def _sheets(state) -> tuple[tuple[str, tuple[int, ...]], ...]:
    """Each score sheet's name and each team's total on it, from the hand records."""
    n = len(state.scores)
    totals: dict[str, list[int]] = {}
    for h in getattr(state, "hand_results", ()):
        for e in getattr(h, "sheets", ()):
            row = totals.setdefault(e.name, [0] * n)
            for t, v in enumerate(e.totals):
                row[t] += v
    return tuple((name, tuple(row)) for name, row in totals.items())


@attrs.frozen
class RunSpec:
    """Everything a worker needs to play any game of a run (sent to each worker once):
    called with a game number, it plays that game (:func:`play_one`).

    >>> spec = RunSpec(load_pack("pony_tail"), players=4, seed=1, bots=("random",))
    >>> spec(3) == play_one(spec.pack, 4, 1, 3)
    True
    """

    pack: RulePack
    players: int
    seed: int
    bots: tuple[str, ...]
    options: dict | None = None

    def __call__(self, game: int) -> GameRecord:
        return play_one(self.pack, self.players, self.seed, game, self.bots, self.options)


def simulate(pack: RulePack | str | os.PathLike, players: int, games: int, seed: int = 0,
             bots: Sequence[str] = ("random",), options: dict | None = None,
             progress: Callable[[int, int], None] | None = None,
             jobs: int = 1, *, ray: str | None = None, batch: int | None = None,
             first: int = 0, retries: int = 3) -> Iterator[GameRecord]:
    """Play games ``first`` … ``games - 1`` of a run and yield their records in game order.

    ``bots`` names a bot per seat, repeated around the table: random bots by default,
    where the command line's ``meldkit simulate`` seats greedy ones — compare the two
    before judging a pack by either (a greedy bot plays some long-run contracts worse
    than random play).  ``jobs`` > 1 plays in that
    many worker processes (0: one per CPU); ``ray`` plays the games as Ray tasks instead:
    ``"local"`` starts a local Ray (with ``jobs`` CPUs when ``jobs`` > 0), ``"auto"`` or
    ``"ray://host:10001"`` joins a cluster (needs ``pip install "meldkit[ray]"``).  Games
    go out in batches of ``batch`` games (default: about 16 batches per worker, at most
    16 games each).  The records are the same for any ``jobs``, ``ray``, ``batch`` and
    ``first``: a run resumed at ``first`` continues exactly where the first games left off.
    A batch lost with its worker is played again, up to ``retries`` times.  Closing the
    iterator stops the workers.  A setting out of its kind or range (``games=2.5``,
    ``jobs=-2``) is refused with a :class:`~meldkit.SetupError` naming it, before any game.

    >>> [r.game for r in simulate("pony_tail", 4, games=6, seed=1, first=4)]
    [4, 5]
    """
    from . import new_game

    if not isinstance(pack, RulePack):
        pack = load_pack(pack)
    bots = tuple(bot_names(bots, "simulate"))  # (a seat each, repeated around the table)
    check("simulate", "games", games, "int", least=0, most=MAX_GAMES)
    check("simulate", "jobs", jobs, "int", least=0, most=MAX_JOBS)
    check("simulate", "batch", batch, "int", least=1, optional=True)
    check("simulate", "retries", retries, "int", least=0)
    check("simulate", "first", first, "int", least=0)
    if first > games:
        raise SetupError(f"simulate: the first game ({first}) is outside the run's {games} "
                         f"games")
    new_game(pack, players=players, seed=seed, options=options)  # a bad table fails here
    if first == games:
        return (r for r in ())  # an empty generator: it has close() like the others
    spec = RunSpec(pack, players, seed, bots, options)
    jobs = jobs if games - first > 1 or ray else 1

    def run() -> Iterator[GameRecord]:  # workers start on the first next(), not before
        backend = make_backend(spec, jobs, ray, retries, games - first)
        yield from run_games(spec, range(games), first, batch, backend, progress)

    return run()


class ResumeError(MeldkitError, ValueError):
    """An ``--out`` file that cannot be continued by this run."""


def resume_records(path: str | os.PathLike, pack: RulePack | str | os.PathLike, players: int,
                   games: int, seed: int = 0, bots: Sequence[str] = ("random",),
                   options: dict | None = None) -> list[GameRecord]:
    """The records already in the ``--out`` file of an interrupted run, checked to belong
    to this run, so that playing games ``len(result)`` … ``games - 1`` and appending their
    records gives the file an uninterrupted run writes.

    Records are written whole and in game order, so the file holds games 0, 1, 2, …; a
    last line without its newline (a writer killed mid-write) is cut off the file and
    played again.  A missing file gives ``[]``.  Raises :class:`ResumeError` (with the
    file and line) for a line that is not a record, a record out of order or from another
    seed, table or bots, a file with more games than ``games``, or a last game that does
    not replay the same here (another pack, ``--set`` or ``--partners``).

    >>> import tempfile, pathlib
    >>> out = pathlib.Path(tempfile.mkdtemp(), "run.jsonl")
    >>> lines = [record_line(r) for r in simulate("pony_tail", 4, games=3, seed=5)]
    >>> _ = out.write_bytes(lines[0] + lines[1] + lines[2][:20])   # killed while writing
    >>> [r.game for r in resume_records(out, "pony_tail", 4, games=3, seed=5)]
    [0, 1]
    >>> out.read_bytes() == lines[0] + lines[1]
    True
    """
    path = os.fspath(path)
    try:
        with open(path, "rb") as f:
            data = f.read()
    except FileNotFoundError:
        return []
    if not isinstance(pack, RulePack):
        pack = load_pack(pack)
    names = seat_bots(tuple(bots), players)
    lines = data.split(b"\n")
    partial = lines.pop()  # b"" when the file ends with a newline
    records: list[GameRecord] = []
    for i, line in enumerate(lines):
        where = f"{path}:{i + 1}"
        try:
            r = GameRecord.from_dict(json.loads(line))
        except RecursionError:  # the C parser counts its nesting against the recursion limit
            raise ResumeError(f"{where}: not a game record of meldkit simulate (JSON nested "
                              "too deeply)") from None
        except (ValueError, TypeError) as e:
            first = str(e).splitlines()[0] if str(e) else type(e).__name__
            raise ResumeError(f"{where}: not a game record of meldkit simulate ({first})"
                              ) from None
        if r.game != i:
            raise ResumeError(f"{where}: expected game {i}, found game {r.game} "
                              "(records are written in game order; was the file edited?)")
        if r.seed != game_seed(seed, i):
            raise ResumeError(f"{where}: game {i} was played with another --seed than {seed}; "
                              "resume with the run's own --seed, or write to a new --out file")
        if r.players != players or r.bots != names:
            raise ResumeError(
                f"{where}: game {i} was played by {r.players} players ({','.join(r.bots)}), "
                f"this run has {players} ({','.join(names)}); resume with the run's own "
                "--players and --bots")
        records.append(r)
    if len(records) > games:
        raise ResumeError(f"{path} holds {len(records)} games, more than --games {games}")
    if records:
        last = records[-1]
        again = play_one(pack, players, seed, last.game, names, options)
        if again != last:
            raise ResumeError(
                f"{path}:{len(records)}: game {last.game} plays differently with this pack "
                "and options; resume with the run's own pack, --set and --partners")
    if partial:
        with open(path, "r+b") as f:
            f.truncate(len(data) - len(partial))
    return records


# --------------------------------------------------------------------------- statistics


@attrs.frozen
class Interval:
    """An estimate with a 95% confidence interval."""

    value: float
    low: float
    high: float

    def pct(self, digits: int = 1) -> str:
        """As percentages: ``52.0% [45.1, 58.8]``."""
        return (f"{100 * self.value:.{digits}f}% "
                f"[{100 * self.low:.{digits}f}, {100 * self.high:.{digits}f}]")

    def num(self, digits: int = 2) -> str:
        """As numbers: ``4.05 [3.98, 4.12]``."""
        return f"{self.value:.{digits}f} [{self.low:.{digits}f}, {self.high:.{digits}f}]"

    def signed(self, digits: int = 2, scale: float = 1.0, unit: str = "") -> str:
        """As a signed difference: ``+3.0 pts [-1.2, +7.1]``."""
        v, lo, hi = self.value * scale, self.low * scale, self.high * scale
        return f"{v:+.{digits}f}{unit} [{lo:+.{digits}f}, {hi:+.{digits}f}]"


def wilson(k: int, n: int, z: float = Z95) -> Interval:
    """The Wilson score interval of a proportion ``k / n``.

    >>> w = wilson(9, 10); round(w.value, 2), round(w.low, 3), round(w.high, 3)
    (0.9, 0.596, 0.982)
    """
    if n <= 0:
        return Interval(math.nan, 0.0, 1.0)
    p = k / n
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return Interval(p, max(0.0, centre - half), min(1.0, centre + half))


def newcombe(k1: int, n1: int, k2: int, n2: int) -> Interval:
    """The difference ``k2/n2 - k1/n1`` of two proportions with Newcombe's hybrid score
    interval (from the two Wilson intervals).

    >>> d = newcombe(50, 100, 60, 100); round(d.value, 2), round(d.low, 3), round(d.high, 3)
    (0.1, -0.037, 0.232)
    """
    a, b = wilson(k1, n1), wilson(k2, n2)
    d = b.value - a.value
    lo = d - math.sqrt((b.value - b.low) ** 2 + (a.high - a.value) ** 2)
    hi = d + math.sqrt((b.high - b.value) ** 2 + (a.value - a.low) ** 2)
    return Interval(d, max(-1.0, lo), min(1.0, hi))


def mean_ci(values: Sequence[float]) -> Interval:
    """The mean with a normal-approximation 95% interval."""
    n = len(values)
    if n == 0:
        return Interval(math.nan, math.nan, math.nan)
    m = statistics.fmean(values)
    if n == 1:
        return Interval(m, m, m)
    half = Z95 * statistics.stdev(values) / math.sqrt(n)
    return Interval(m, m - half, m + half)


@attrs.frozen
class Distribution:
    """Mean, standard deviation, minimum, quartiles and maximum of some numbers."""

    n: int
    mean: float
    sd: float
    min: float
    q1: float
    median: float
    q3: float
    max: float

    @classmethod
    def of(cls, values: Sequence[float]) -> Distribution:
        """The distribution of ``values`` (quartiles by the inclusive method)."""
        v = sorted(values)
        if not v:
            nan = math.nan
            return cls(0, nan, nan, nan, nan, nan, nan, nan)
        if len(v) == 1:
            x = v[0]
            return cls(1, x, 0.0, x, x, x, x, x)
        q1, med, q3 = statistics.quantiles(v, n=4, method="inclusive")
        return cls(len(v), statistics.fmean(v), statistics.stdev(v), v[0], q1, med, q3, v[-1])


@attrs.frozen
class Summary:
    """What a run of games shows.  Two summaries are equal when the games are: the timing
    fields are left out of comparisons."""

    games: int
    players: int
    team_of: tuple[int, ...]
    bots: tuple[str, ...]
    team_wins: tuple[int, ...]
    ties: int
    unfinished: int
    seat_wins: tuple[int, ...]
    hands: int
    decisions: int
    hands_per_game: Interval
    decisions_per_game: Interval
    decisions_per_hand: float
    ended_by: dict[str, int]
    went_out_by_team: tuple[int, ...]
    scores: tuple[Distribution, ...]
    seconds: float = attrs.field(eq=False)
    """Time spent playing, summed over the games timed in this run (records read back
    from a file carry no time); like the other timing fields, left out of comparisons."""
    timed_games: int = attrs.field(default=0, eq=False)
    timed_decisions: int = attrs.field(default=0, eq=False)
    sheets: tuple[tuple[str, tuple[Distribution, ...]], ...] = ()
    """With ``scoring.sheets``: each sheet's name and its final totals by team."""
    contracts_met: tuple[Distribution, ...] = ()
    """With ``initial_meld.contracts``: the contracts each seat met, by seat."""

    @property
    def n_teams(self) -> int:
        """The number of teams."""
        return len(self.team_wins)

    def team_rate(self, t: int) -> Interval:
        """Team ``t``'s share of the games won, with its Wilson interval."""
        return wilson(self.team_wins[t], self.games)

    def seat_rate(self, p: int) -> Interval:
        """The share of games won by seat ``p``'s team, with its Wilson interval."""
        return wilson(self.seat_wins[p], self.games)

    def went_out_rate(self) -> Interval:
        """The share of hands a player ended by going out (a knock or gin in a knocking
        pack: :data:`OUT_ENDINGS`), with its Wilson interval."""
        return wilson(self.went_out_hands, self.hands)

    @property
    def went_out_hands(self) -> int:
        """The hands a player ended by going out, knocking or gin."""
        return sum(self.ended_by.get(how, 0) for how in OUT_ENDINGS)


OUT_ENDINGS = ("went_out", "knock", "gin", "big_gin", "undercut")
"""The hand endings where a player went out: in a knocking pack, a knock (undercut or not)
and gin."""


def summarize(records: Sequence[GameRecord]) -> Summary:
    """Summarise the records of one run (same pack, table and bots)."""
    if not records:
        raise ValueError("no games to summarise")
    first = records[0]
    team_of = first.team_of or tuple(range(first.players))
    n_teams = len(first.scores)
    team_wins = [0] * n_teams
    seat_wins = [0] * first.players
    ties = unfinished = 0
    went_out_by_team = [0] * n_teams
    ended: Counter[str] = Counter()
    for r in records:
        if r.unfinished:
            unfinished += 1
        elif r.winner is None:
            ties += 1
        else:
            team_wins[r.winner] += 1
            for p in range(r.players):
                if team_of[p] == r.winner:
                    seat_wins[p] += 1
        ended.update(r.ended_by)
        for how, seat in zip(r.ended_by, r.went_out):
            if seat is not None and how == "went_out":  # (not a knock's or a count's winner)
                went_out_by_team[team_of[seat]] += 1
    hands = sum(r.hands for r in records)
    decisions = sum(r.decisions for r in records)
    return Summary(
        games=len(records),
        players=first.players,
        team_of=tuple(team_of),
        bots=first.bots,
        team_wins=tuple(team_wins),
        ties=ties,
        unfinished=unfinished,
        seat_wins=tuple(seat_wins),
        hands=hands,
        decisions=decisions,
        hands_per_game=mean_ci([r.hands for r in records]),
        decisions_per_game=mean_ci([r.decisions for r in records]),
        decisions_per_hand=decisions / max(hands, 1),
        ended_by=dict(sorted(ended.items())),
        went_out_by_team=tuple(went_out_by_team),
        scores=tuple(Distribution.of([r.scores[t] for r in records]) for t in range(n_teams)),
        seconds=sum(r.seconds for r in records),
        timed_games=sum(1 for r in records if r.seconds > 0),
        timed_decisions=sum(r.decisions for r in records if r.seconds > 0),
        sheets=tuple((name, tuple(Distribution.of([dict(r.sheets)[name][t] for r in records
                                                   if name in dict(r.sheets)])
                                  for t in range(n_teams)))
                     for name, _ in first.sheets),
        contracts_met=tuple(Distribution.of([r.contracts_met[p] for r in records
                                             if r.contracts_met])
                            for p in range(len(first.contracts_met))),
    )


def side_name(s: Summary, t: int) -> str:
    """What the summary calls team ``t``: ``team 1`` with partners, ``seat 1`` where each
    player plays alone (as many teams as seats)."""
    if s.n_teams == s.players:
        return f"seat {s.team_of.index(t)}"
    return f"team {t}"


def team_label(s: Summary, t: int) -> str:
    """``team 0 (seats 0, 2: greedy)``; ``seat 1 (random)`` where each plays alone.

    >>> s = summarize([GameRecord(game=1, seed=0, players=2, winner=0, scores=(120, 40),
    ...                           hands=2, decisions=60, ended_by=("went_out",) * 2,
    ...                           bots=("greedy", "random"))])
    >>> team_label(s, 1)
    'seat 1 (random)'
    """
    seats = [p for p in range(s.players) if s.team_of[p] == t]
    bots = "/".join(sorted({s.bots[p] for p in seats})) if s.bots else ""
    if s.n_teams == s.players:
        return side_name(s, t) + (f" ({bots})" if bots else "")
    who = "seat" if len(seats) == 1 else "seats"
    return f"team {t} ({who} {', '.join(map(str, seats))}{': ' + bots if bots else ''})"


def format_summary(s: Summary, title: str = "") -> str:
    """The summary as text, as ``meldkit simulate`` prints it."""
    lines = []
    if title:
        lines.append(title)
    lines.append("wins (95% CI)")
    for t in range(s.n_teams):
        lines.append(f"  {team_label(s, t):<32} {s.team_wins[t]:>5}  {s.team_rate(t).pct()}")
    if s.ties:
        lines.append(f"  {'ties':<32} {s.ties:>5}")
    if s.unfinished:
        lines.append(f"  {'unfinished (engine dead end)':<32} {s.unfinished:>5}")
    if any(s.team_of.count(t) > 1 for t in range(s.n_teams)):
        for p in range(s.players):
            bot = f": {s.bots[p]}" if s.bots else ""
            label = f"seat {p} (team {s.team_of[p]}{bot})"
            lines.append(f"  {label:<32} {s.seat_wins[p]:>5}  {s.seat_rate(p).pct()}")
    lines.append("length (95% CI)")
    lines.append(f"  hands per game      {s.hands_per_game.num()}")
    lines.append(f"  decisions per game  {s.decisions_per_game.num(1)}")
    lines.append(f"  decisions per hand  {s.decisions_per_hand:.1f}")
    lines.append(f"hands ended ({s.hands} hands)")
    for how, n in s.ended_by.items():
        extra = ""
        if how == "went_out" and s.n_teams > 1:
            extra = "  (" + ", ".join(
                f"{side_name(s, t)}: {s.went_out_by_team[t]}" for t in range(s.n_teams)) + ")"
        lines.append(f"  {how:<14} {n:>6}  {100 * n / max(s.hands, 1):5.1f}%{extra}")
    lines.append("final scores        mean       sd      min       q1   median       q3      max")
    for t, d in enumerate(s.scores):
        lines.append(f"  {side_name(s, t):<13} " + " ".join(
            f"{x:>8.0f}" for x in (d.mean, d.sd, d.min, d.q1, d.median, d.q3, d.max)))
    for name, dists in s.sheets:  # several scores at once: each sheet's totals
        lines.append(f"sheet {name:<13} mean       sd      min       q1   median       q3"
                     "      max")
        for t, d in enumerate(dists):
            lines.append(f"  {side_name(s, t):<13} " + " ".join(
                f"{x:>8.0f}" for x in (d.mean, d.sd, d.min, d.q1, d.median, d.q3, d.max)))
    if s.contracts_met:  # each player's own contracts: the most met wins, then the total
        lines.append("contracts met       mean       sd      min       q1   median       q3"
                     "      max")
        for p, d in enumerate(s.contracts_met):
            lines.append(f"  seat {p:<8} " + " ".join(
                f"{x:>8.1f}" for x in (d.mean, d.sd, d.min, d.q1, d.median, d.q3, d.max)))
    if s.seconds > 0:
        games, decisions = (s.timed_games, s.timed_decisions) if s.timed_games else (
            s.games, s.decisions)
        lines.append(f"speed: {decisions / s.seconds:,.0f} decisions/s, "
                     f"{games / s.seconds:.2f} games/s per process")
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------- comparing


@attrs.frozen
class Comparison:
    """A base pack and a variant played on the same seeds."""

    base: Summary
    variant: Summary
    seat_diff: tuple[Interval, ...]
    hands_diff: Interval
    decisions_diff: Interval
    went_out_diff: Interval


def compare(base: Sequence[GameRecord], variant: Sequence[GameRecord]) -> Comparison:
    """Differences (variant − base) between two runs on the same seeds: win rate by seat
    and game length in hands and in decisions (paired, game by game: the same deal played
    both ways, so a variant that changes nothing differs by exactly 0), the share of hands
    that end by going out (Newcombe: the hands are not paired)."""
    if len(base) != len(variant):
        raise ValueError("compare needs the same number of games on both sides")
    a, b = summarize(base), summarize(variant)
    seat = tuple(mean_ci([_won(v, p) - _won(u, p) for u, v in zip(base, variant)])
                 for p in range(a.players))
    hands = mean_ci([v.hands - u.hands for u, v in zip(base, variant)])
    decisions = mean_ci([v.decisions - u.decisions for u, v in zip(base, variant)])
    out = newcombe(a.went_out_hands, a.hands, b.went_out_hands, b.hands)
    return Comparison(a, b, seat, hands, decisions, out)


def _won(record: GameRecord, seat: int) -> int:
    """1 if ``seat``'s side won the game of ``record``, else 0 (a tie, an unfinished game)."""
    if record.unfinished or record.winner is None:
        return 0
    return int(record.team_of[seat] == record.winner)


def format_comparison(c: Comparison) -> str:
    """The comparison as text, as ``meldkit compare`` prints it."""
    a, b = c.base, c.variant
    w = 26
    lines = [f"{'':<{w}} {'base':<24} {'variant':<24} difference (variant - base)"]
    for p in range(a.players):
        label = f"seat {p} wins" + (f" (team {a.team_of[p]})" if a.n_teams < a.players else "")
        lines.append(f"{label:<{w}} {a.seat_rate(p).pct():<24} {b.seat_rate(p).pct():<24} "
                     f"{c.seat_diff[p].signed(1, 100, ' pts')}")
    lines.append(f"{'hands per game':<{w}} {a.hands_per_game.num():<24} "
                 f"{b.hands_per_game.num():<24} {c.hands_diff.signed(2)}")
    lines.append(f"{'decisions per game':<{w}} {a.decisions_per_game.num(0):<24} "
                 f"{b.decisions_per_game.num(0):<24} {c.decisions_diff.signed(0)}")
    lines.append(f"{'decisions per hand':<{w}} {a.decisions_per_hand:<24.1f} "
                 f"{b.decisions_per_hand:<24.1f} "
                 f"{b.decisions_per_hand - a.decisions_per_hand:+.1f}")
    lines.append(f"{'hands ended by going out':<{w}} {a.went_out_rate().pct():<24} "
                 f"{b.went_out_rate().pct():<24} {c.went_out_diff.signed(1, 100, ' pts')}")
    return "\n".join(line.rstrip() for line in lines) + "\n"


# --------------------------------------------------------------------------- variants

SET_FILE = "<--set>"
"""The file name problems in ``--set`` overrides are reported under."""


def parse_setting(text: str) -> tuple[list[str | int], Any]:
    """``"game.target=20000"`` → ``(["game", "target"], 20000)``: a dotted key path
    (numbers index lists) and a YAML value (scalar or flow: ``[a, b]``, ``{x: 1}``, ``true``).

    >>> parse_setting("pile.freezes_on=[JK, '2']")
    (['pile', 'freezes_on'], ['JK', '2'])
    >>> parse_setting("books.kinds.0.value=6000")
    (['books', 'kinds', 0, 'value'], 6000)
    """
    from ruamel.yaml import YAML
    from ruamel.yaml.error import YAMLError

    key, eq, value = text.partition("=")
    key = key.strip()
    if not eq or not key:
        raise ValueError(f"--set {text!r}: expected KEY=VALUE, e.g. game.target=20000")
    path: list[str | int] = []
    for step in key.split("."):
        step = step.strip()
        if not step:
            raise ValueError(f"--set {text!r}: empty step in key {key!r}")
        path.append(int(step) if step.isascii() and step.isdigit() else step)
    if not isinstance(path[0], str):
        raise ValueError(  # noqa: TRY004 - a bad command-line value
            f"--set {text!r}: a key starts with a section name, e.g. game.target")
    depth = _flow_depth(value)
    if depth > MAX_SET_DEPTH:
        raise ValueError(f"--set {key}=...: the value nests {depth} deep "
                         f"(at most {MAX_SET_DEPTH})")
    try:
        parsed = YAML(typ="safe", pure=True).load(value) if value.strip() else None
    except YAMLError as e:
        first = str(e).strip().splitlines()[0]
        raise ValueError(f"--set {text!r}: the value is not YAML ({first})") from None
    except RecursionError:
        raise ValueError(f"--set {key}=...: the value nests too deeply") from None
    return path, parsed


MAX_SET_DEPTH = 20
"""The deepest nesting of ``[``/``{`` a ``--set`` value may have (a pack nests about 4)."""


def _flow_depth(value: str) -> int:
    """The deepest nesting of ``[``/``{`` in a YAML flow value (a linear scan)."""
    depth = best = 0
    for ch in value:
        if ch in "[{":
            depth += 1
            best = max(best, depth)
        elif ch in "]}":
            depth -= 1
    return best


def _first_list_step(raw: dict, path: list) -> int | None:
    """Where ``path`` first indexes a list: its first number whose parent in the pack is a
    list.  Any other number is a mapping's key (``scoring.bonus.by_count``,
    ``deal.hand_by_players``: mappings keyed by numbers, written in the pack or not)."""
    node: Any = raw
    for i, step in enumerate(path):
        if isinstance(step, int) and isinstance(node, list):
            return i
        node = node.get(step) if isinstance(node, dict) else None
    return None


def _override(raw: dict, settings: Sequence[str]) -> dict:
    """The nested override mapping for ``settings``; list steps copy the base's list."""
    import copy

    over: dict = {}
    for text in settings:
        path, value = parse_setting(text)
        # the first list step: copy that list from the merged base (or the override so far)
        cut = _first_list_step(raw, path)
        node: Any = over
        for i, step in enumerate(path[:-1] if cut is None else path[:cut - 1]):
            if not isinstance(node.get(step), dict):
                node[step] = {}
            node = node[step]
        if cut is None:
            node[path[-1]] = value
            continue
        list_key = path[cut - 1]
        current = node.get(list_key)
        if current is None:
            base: Any = raw
            for step in path[:cut]:
                try:
                    base = base[step]
                except (KeyError, IndexError, TypeError):
                    base = None
                    break
            current = copy.deepcopy(base) if isinstance(base, list) else None
        if not isinstance(current, list):
            where = ".".join(map(str, path[:cut]))
            raise ValueError(f"--set {text!r}: {where} is not a list in the pack")  # noqa: TRY004
        node[list_key] = current
        target: Any = current
        for j, step in enumerate(path[cut:-1], start=cut):
            try:
                target = target[step]
            except (KeyError, IndexError, TypeError):
                where = ".".join(map(str, path[:j + 1]))
                raise ValueError(f"--set {text!r}: the pack has no {where}") from None
        last = path[-1]
        try:
            if isinstance(target, list):
                target[last]  # must exist: an index past the end is refused
            target[last] = value
        except (IndexError, TypeError):
            where = ".".join(map(str, path))
            raise ValueError(f"--set {text!r}: the pack has no {where}") from None
    return over


def variant_text(base: RulePack, settings: Sequence[str]) -> str:
    """The YAML text of a pack that ``extends`` ``base`` (by its file name, loaded from
    the base's directory) with ``settings`` (``KEY=VALUE``) applied."""
    import io

    from ruamel.yaml import YAML

    over = _override(base.raw, settings)
    doc = {"extends": os.path.basename(base.source), "name": base.name}
    doc.update(over)
    yaml = YAML(typ="safe", pure=True)
    yaml.default_flow_style = False
    buf = io.StringIO()
    yaml.dump(doc, buf)
    return buf.getvalue()


def variant_pack(base: RulePack | str | os.PathLike, settings: Sequence[str]) -> RulePack:
    """``base`` with ``settings`` (``KEY=VALUE``) applied, loaded like any pack; problems
    are reported against the ``--set`` that caused them."""
    if not isinstance(base, RulePack):
        base = load_pack(base)
    if not settings:
        return base
    if base.source.startswith("<"):
        raise ValueError("--set needs a pack loaded from a file")
    text = variant_text(base, settings)
    try:
        base_dir = os.path.dirname(os.path.abspath(base.source))
        return load_pack_text(text, SET_FILE, base_dir=base_dir)
    except RulePackError as e:
        raise type(e)([_blame(p, settings) for p in e.problems]) from None


def _blame(problem: PackProblem, settings: Sequence[str]) -> PackProblem:
    """A problem in the generated variant text, re-labelled with the ``--set`` it came from."""
    if problem.file != SET_FILE:
        return problem
    path = problem.path.replace("[", ".").replace("]", "")
    keys = [(text, text.partition("=")[0].strip()) for text in settings]
    # the setting of that key (or of a key above it), else every setting below it
    found = [text for text, key in keys if path == key or path.startswith(key + ".")]
    found = found[-1:] or [text for text, key in keys if key.startswith(path + ".")]
    label = ", ".join(f"--set {text}" for text in found) if found else SET_FILE
    return attrs.evolve(problem, file=label, line=None, col=None)
