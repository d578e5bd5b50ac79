"""Where the games of a run are played: in this process, in a pool of local worker processes
(``--jobs``), or as tasks on a Ray cluster (``--ray``).

A run is a pure per-game function ``play`` (picklable: a module-level function or a frozen
object with ``__call__``) and a sequence of ``items``, one per game; game ``k``'s result is
``play(items[k])``.  ``simulate`` plays game numbers (:class:`meldkit.simulate.RunSpec`),
``tournament`` plays ``(bot, bot, game)`` triples.  Every backend plays *batches*: the
items at positions ``[start, stop)``.  As a result depends only on ``play`` and its item,
the batch size, the number of workers and the backend change how fast the results come,
never what they are.  :func:`run_games` hands out batches lazily (a bounded window ahead of
the first game not yet returned, so fifty million games never build fifty million tasks),
collects them in the order they finish, and yields the results in the order of ``items``.

A batch lost with its worker is played again: Ray retries the task (``max_retries``); a
broken local pool is replaced by a new one and the lost batches are submitted again.
Either gives up, naming the batch, when it has killed its worker more than ``retries``
times.  Closing the iterator (or an exception, Ctrl-C, or SIGTERM turned into an exception
by the command line) stops the workers: the local pool's processes are terminated, and
each worker also exits by itself when the process that started it is gone.

This module knows nothing of games beyond that: it sits below ``simulate`` and
``tournament``, which pass their per-game function in.  Ray is imported only by the Ray
backend, on first use.

>>> from meldkit._sim_backends import make_backend, run_games
>>> list(run_games(abs, [-3, 1, -2, 4], first=1, batch=2))
[1, 2, 4]
>>> list(run_games(abs, range(-3, 3), backend=make_backend(abs, jobs=2)))
[3, 2, 1, 0, 1, 2]
"""

from __future__ import annotations

import contextlib
import logging
import os
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any, TextIO

from ._errors import MeldkitError
from ._table import Progress

RAY_INSTALL = 'pip install "meldkit[ray]"'
"""How to install the Ray extra."""

DEFAULT_RETRIES = 3
"""How many times a batch lost with its worker is played again before the run fails."""

MAX_JOBS = 1024
"""The most worker processes a run may ask for (``jobs``); a local run starts no more than
it has games to play."""

MAX_GAMES = 1_000_000_000
"""The most games one run of :func:`~meldkit.simulate.simulate` plays."""

Play = Callable[[Any], Any]
"""A pure per-game function: an item in, that game's result out (both picklable)."""


class WorkerLostError(MeldkitError, RuntimeError):
    """A batch of games was lost with its worker more often than the retries allow."""


class RayNotInstalledError(MeldkitError, ImportError):
    """``--ray`` without Ray installed."""

    def __init__(self) -> None:
        super().__init__(f"--ray needs Ray, which is not installed: {RAY_INSTALL}")


def play_batch(play: Play, items: Sequence) -> list:
    """The results of one batch: ``play`` of each item, in order."""
    return [play(item) for item in items]


def auto_batch(games: int, workers: int) -> int:
    """The batch size used when none is given: about 16 batches per worker, at most 16
    games (short enough that the last batches end together and progress is steady, long
    enough that Ray's cost per task stays under 5% for games of 2 ms or more; see
    docs/scaling.md).

    >>> auto_batch(200, 1), auto_batch(200, 2), auto_batch(10**9, 512)
    (1, 6, 16)
    """
    if workers <= 1:
        return 1
    return max(1, min(16, games // (workers * 16)))


def _games(start: int, items: Sequence) -> tuple[str, str]:
    """``("games 4-7", "them")``: the positions of a batch in its run, and its pronoun."""
    if len(items) == 1:
        return f"game {start}", "it"
    return f"games {start}-{start + len(items) - 1}", "them"


# --------------------------------------------------------------------------- backends


class _Backend:
    """Plays batches somewhere.  ``slots``: how many batches to keep in flight."""

    slots: int = 1
    workers: int = 1

    def submit(self, start: int, items: Sequence) -> None:
        """Play the batch ``items``, the games from position ``start`` of the run."""
        raise NotImplementedError

    def wait(self) -> list[tuple[int, list]]:
        """Block until at least one batch is done; its ``(start, results)``."""
        raise NotImplementedError

    def close(self) -> None:
        """Stop the workers (batches still in flight are abandoned)."""


class _SerialBackend(_Backend):
    """In this process, one batch at a time."""

    def __init__(self, play: Play):
        self._play = play
        self._queue: list[tuple[int, Sequence]] = []

    def submit(self, start: int, items: Sequence) -> None:
        self._queue.append((start, items))

    def wait(self) -> list[tuple[int, list]]:
        start, items = self._queue.pop(0)
        return [(start, play_batch(self._play, items))]


# --- a pool of local processes

_WORKER_PLAY: Play | None = None


def _pool_worker_init(play: Play) -> None:
    """In each pool worker: keep the run's per-game function, leave Ctrl-C to the driver,
    and exit when the process that started this worker is gone (no orphans, whatever
    killed it)."""
    import signal

    global _WORKER_PLAY
    _WORKER_PLAY = play
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # a forked worker inherits the driver's handlers; the command line's SIGTERM handler
    # would turn the pool's terminate() into a KeyboardInterrupt sent back as a result
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    parent = os.getppid()

    def watch() -> None:
        while True:
            time.sleep(0.5)
            if os.getppid() != parent:
                os._exit(1)

    threading.Thread(target=watch, name="meldkit-orphan-watch", daemon=True).start()


def _pool_batch(items: Sequence) -> list:
    assert _WORKER_PLAY is not None
    return play_batch(_WORKER_PLAY, items)


class _PoolBackend(_Backend):
    """``jobs`` local worker processes; a pool broken by a dead worker is replaced.

    A dead worker breaks the whole pool, so every batch in flight is lost with it and
    counted as lost.  A batch lost more than ``retries`` times is then played alone in a
    pool of its own: if it finishes, it was only in the wrong company; if its worker dies
    again, the run fails naming it.
    """

    def __init__(self, play: Play, jobs: int, retries: int):
        self._play = play
        self.workers = jobs
        self.slots = 2 * jobs
        self._retries = retries
        self._lost: dict[int, int] = {}  # batch start -> times lost
        self._futures: dict[Any, tuple[int, Sequence]] = {}
        self._ready: list[tuple[int, list]] = []  # played alone, not yet returned
        self._pool = self._new_pool()

    def _new_pool(self, workers: int | None = None):
        from concurrent.futures import ProcessPoolExecutor

        return ProcessPoolExecutor(max_workers=workers or self.workers,
                                   initializer=_pool_worker_init, initargs=(self._play,))

    def submit(self, start: int, items: Sequence) -> None:
        from concurrent.futures.process import BrokenProcessPool

        try:
            future = self._pool.submit(_pool_batch, items)
        except BrokenProcessPool:  # a worker died since the last wait(): replace the pool
            self._restart()  # (the batches in flight are lost and played again)
            future = self._pool.submit(_pool_batch, items)
        self._futures[future] = (start, items)

    def wait(self) -> list[tuple[int, list]]:
        from concurrent.futures import FIRST_COMPLETED
        from concurrent.futures import wait as wait_futures
        from concurrent.futures.process import BrokenProcessPool

        out, self._ready = self._ready, []
        if out or not self._futures:
            return out
        done, _ = wait_futures(list(self._futures), return_when=FIRST_COMPLETED)
        broken = False
        for f in done:
            if isinstance(f.exception(), BrokenProcessPool):
                broken = True
                continue
            start, _items = self._futures.pop(f)
            out.append((start, f.result()))  # a game's own error propagates from here
        if broken:
            self._restart()
        return out

    def _restart(self) -> None:
        """A worker died: every batch not finished is lost; play them on a new pool."""
        lost = []
        for f, (start, items) in list(self._futures.items()):
            if f.done() and f.exception() is None:
                continue  # finished before the pool broke: kept for the next wait()
            del self._futures[f]
            lost.append((start, items))
        _terminate_pool(self._pool)
        again = []
        for start, items in lost:
            n = self._lost[start] = self._lost.get(start, 0) + 1
            if n <= self._retries:
                again.append((start, items))
                continue
            results = self._play_alone(items)
            if results is None:
                self.close()
                games, them = _games(start, items)
                raise WorkerLostError(
                    f"{games}: a worker process died {n + 1} times while playing {them}, "
                    f"the last time alone (the retries are {self._retries}); out of memory?")
            self._ready.append((start, results))
        self._pool = self._new_pool()
        for start, items in again:
            self.submit(start, items)

    def _play_alone(self, items: Sequence) -> list | None:
        """The batch's results from a pool of its own, or None if its worker died."""
        from concurrent.futures.process import BrokenProcessPool

        pool = self._new_pool(1)
        try:
            return pool.submit(_pool_batch, items).result()
        except BrokenProcessPool:
            return None
        finally:
            _terminate_pool(pool)

    def close(self) -> None:
        _terminate_pool(self._pool)


def _terminate_pool(pool) -> None:
    """Stop a ProcessPoolExecutor now: cancel what is queued, kill the workers."""
    terminate = getattr(pool, "terminate_workers", None)  # Python 3.14+
    if terminate is not None:
        try:
            terminate()
        except Exception:  # noqa: BLE001 - already broken or shut down
            pass
        return
    processes = list((getattr(pool, "_processes", None) or {}).values())
    manager = getattr(pool, "_executor_manager_thread", None)
    for p in processes:
        if p.is_alive():
            p.terminate()
    pool.shutdown(wait=False, cancel_futures=True)
    for p in processes:
        p.join(timeout=2)
        if p.is_alive():  # SIGTERM not taken (e.g. before the initializer ran): SIGKILL
            p.kill()
            p.join(timeout=5)
    # let the pool's manager thread finish closing its pipes now: at interpreter exit,
    # concurrent.futures would otherwise race it and may print a 'Bad file descriptor'
    if manager is not None and manager is not threading.current_thread():
        manager.join(timeout=5)


# --- Ray


def import_ray():
    """The ``ray`` module, or :class:`RayNotInstalledError` with the install command."""
    try:
        import ray
    except ImportError:
        raise RayNotInstalledError from None
    return ray


class _RayBackend(_Backend):
    """Batches as Ray tasks, on a local Ray started here or on an existing cluster.

    A Ray already initialised in this process (``ray.init`` by the caller) is used as it is
    and left running; one started here is shut down by :meth:`close`.
    """

    def __init__(self, play: Play, address: str, jobs: int | None, retries: int):
        ray = self._ray = import_ray()
        self._started = _init_ray(ray, address, jobs)
        self._task = ray.remote(num_cpus=1, max_retries=retries,
                                retry_exceptions=False)(play_batch)
        self._play_ref = ray.put(play)
        cpus = int(ray.cluster_resources().get("CPU", 1)) or 1
        self.workers = cpus
        self.slots = 2 * cpus
        self._refs: dict[Any, tuple[int, Sequence]] = {}
        self._retries = retries

    def submit(self, start: int, items: Sequence) -> None:
        ref = self._task.remote(self._play_ref, items)
        self._refs[ref] = (start, items)

    def wait(self) -> list[tuple[int, list]]:
        ray = self._ray
        ready, _ = ray.wait(list(self._refs), num_returns=1)
        more, _ = ray.wait([r for r in self._refs if r not in ready],
                           num_returns=len(self._refs) - len(ready), timeout=0)
        out = []
        for ref in [*ready, *more]:
            start, items = self._refs.pop(ref)
            try:
                results = ray.get(ref)
            except ray.exceptions.RayTaskError as e:  # the game itself failed: its error
                cause = getattr(e, "cause", None)
                if isinstance(cause, BaseException):
                    raise cause from None
                raise
            except (ray.exceptions.WorkerCrashedError, ray.exceptions.NodeDiedError,
                    ray.exceptions.ObjectLostError) as e:
                n = self._retries + 1
                games, them = _games(start, items)
                raise WorkerLostError(
                    f"{games}: the Ray worker playing {them} was lost "
                    f"{n} time{'s' if n != 1 else ''} ({type(e).__name__}); out of memory?"
                ) from None
            except ray.exceptions.RayError as e:  # the cluster itself: lost head, ...
                first = (str(e).strip().splitlines() or [""])[0]
                raise WorkerLostError(f"{_games(start, items)[0]}: Ray failed "
                                      f"({type(e).__name__}: {first})") from None
            out.append((start, results))
        return out

    def close(self) -> None:
        ray = self._ray
        for ref in list(self._refs):
            try:
                ray.cancel(ref, force=True)
            except Exception:  # noqa: BLE001 - finished or already gone
                pass
        self._refs.clear()
        if self._started:
            ray.shutdown()
            self._started = False


def _init_ray(ray, address: str, jobs: int | None) -> bool:
    """Connect to Ray at ``address`` unless this process already is; True if started here."""
    if ray.is_initialized():
        return False
    kwargs: dict[str, Any] = {"include_dashboard": False, "logging_level": logging.ERROR}
    if address in ("", "local"):
        kwargs["address"] = "local"
        if jobs:
            kwargs["num_cpus"] = jobs
    else:
        kwargs["address"] = address  # its nodes must have meldkit installed
    try:
        ray.init(**kwargs)
    except (ConnectionError, RuntimeError, ValueError) as e:
        first = (str(e).strip().splitlines() or [type(e).__name__])[0]
        where = "a local Ray" if kwargs["address"] == "local" else f"Ray at {address}"
        raise MeldkitError(f"--ray: cannot start or reach {where}: {first}") from None
    return True


@contextlib.contextmanager
def ray_session(address: str | None, jobs: int | None = None) -> Iterator[None]:
    """Within the block, this process is connected to Ray at ``address`` (see
    :func:`make_backend`), so that several runs share one Ray; a Ray started here is shut
    down at the end.  Does nothing when ``address`` is None."""
    if address is None:
        yield
        return
    ray = import_ray()
    started = _init_ray(ray, address, jobs)
    try:
        yield
    finally:
        if started:
            ray.shutdown()


# --------------------------------------------------------------------------- the driver


def make_backend(play: Play, jobs: int = 1, ray: str | None = None,
                 retries: int = DEFAULT_RETRIES, games: int | None = None) -> _Backend:
    """The backend that plays ``play`` in ``jobs`` local processes (0: one per CPU; 1: this
    process; never more than ``games``, the games to play, when given), or on Ray at
    ``ray`` (``"local"``: start one here, with ``jobs`` CPUs if ``jobs`` > 0; ``"auto"`` or
    ``"ray://host:10001"``: an existing cluster).  A batch lost with its worker is played
    again up to ``retries`` times."""
    if ray is not None:
        return _RayBackend(play, ray, jobs or None, retries)
    if jobs == 0:
        jobs = os.cpu_count() or 1
    if games is not None:
        jobs = min(jobs, games)
    if jobs <= 1:
        return _SerialBackend(play)
    return _PoolBackend(play, jobs, retries)


def run_games(play: Play, items: Sequence, first: int = 0, batch: int | None = None,
              backend: _Backend | None = None,
              progress: Callable[[int, int], None] | None = None) -> Iterator[Any]:
    """Yield ``play(items[k])`` for ``k`` = ``first`` … ``len(items) - 1``, in that order,
    played in batches of ``batch`` games (default: :func:`auto_batch`) on ``backend``
    (default: this process; it must have been made for the same ``play``).
    ``progress(done, total)`` is called as batches arrive, ``done`` counting the ``first``
    games too.  The backend is closed when the iterator ends or is closed."""
    if backend is None:
        backend = _SerialBackend(play)
    games = len(items)
    if batch is None:
        batch = auto_batch(games - first, backend.workers)
    if batch < 1:
        raise ValueError(f"batch size must be 1 or more, got {batch}")
    window = 4 * backend.slots * batch  # never more than this many games ahead of the output
    next_submit = next_yield = first
    in_flight = 0
    finished: dict[int, list] = {}
    try:
        while next_yield < games:
            while (in_flight < backend.slots and next_submit < games
                   and next_submit < next_yield + window):
                stop = min(next_submit + batch, games)
                backend.submit(next_submit, items[next_submit:stop])
                in_flight += 1
                next_submit = stop
            for start, results in backend.wait():
                finished[start] = results
                in_flight -= 1
            while next_yield in finished:
                results = finished.pop(next_yield)
                next_yield += len(results)
                if progress:
                    progress(next_yield, games)
                yield from results
    finally:
        backend.close()


# --------------------------------------------------------------------------- progress


class RateProgress(Progress):
    """A one-line progress bar on a terminal: games done, games/s and time left, measured
    over the games played by this run (games resumed from a file count as done, not as
    speed).  Draws nothing when disabled (not a terminal)."""

    def __init__(self, total: int, first: int = 0, label: str = "games",
                 stream: TextIO | None = None, enabled: bool = True, width: int = 24):
        super().__init__(total, label=label, stream=stream, enabled=enabled, width=width)
        self.first = first

    def line(self, done: int, now: float | None = None) -> str:
        """The text of the bar.

        >>> p = RateProgress(100, first=20, enabled=False)
        >>> p.line(60, now=p.start + 8.0)
        '██████████████░░░░░░░░░░ 60/100 games  5.0 games/s  8 s, 8 s left'
        """
        now = time.monotonic() if now is None else now
        elapsed = now - self.start
        frac = min(done / self.total, 1.0)
        fill = int(frac * self.width)
        bar = "█" * fill + "░" * (self.width - fill)
        played = done - self.first
        rate = played / elapsed if elapsed > 0 and played > 0 else 0.0
        text = f"{bar} {done}/{self.total} {self.label}"
        if rate:
            text += f"  {rate:,.1f} {self.label}/s"
        text += f"  {elapsed:.0f} s"
        if rate and done < self.total:
            text += f", {(self.total - done) / rate:.0f} s left"
        return text
