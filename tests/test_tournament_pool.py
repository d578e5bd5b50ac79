"""``meldkit tournament --jobs N`` on simulate's pool backend (issue 20, item 3): the same
result with one process or two; a worker that dies costs time, never a game and never a
traceback; SIGTERM, Ctrl-C or SIGKILL of the parent leave no worker behind.

Games are gin_rummy between ``random`` and ``greedy`` (about 15 ms each), except where the
outcomes must differ from game to game (Pony Tail, where random wins some).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time

import pytest
from processes import children, meldkit_process, running

from meldkit import _sim_backends
from meldkit.cli import main
from meldkit.tournament import run_tournament

needs_proc = pytest.mark.skipif(not os.path.isdir("/proc"),
                                reason="finds worker processes through /proc (Linux)")

TOURNAMENT = ["tournament", "gin_rummy", "--bots", "random,greedy", "--seed", "3"]


_children, _running = children, running


def _wait_for_workers(proc: subprocess.Popen, n: int = 2, timeout: float = 30) -> list[int]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        workers = _children(proc.pid)
        if len(workers) >= n:
            return workers
        assert proc.poll() is None, proc.communicate()
        time.sleep(0.01)
    pytest.fail(f"{n} worker processes did not start")


_meldkit = meldkit_process


# --------------------------------------------------------------------------- same result


def test_jobs_1_and_jobs_2_print_the_same_tournament(capsys):
    pytest.importorskip("openskill", reason="the ratings need the tournament extra")
    assert main([*TOURNAMENT, "--games", "8", "--jobs", "1"]) == 0
    one = capsys.readouterr().out
    assert main([*TOURNAMENT, "--games", "8", "--jobs", "2"]) == 0
    assert one == capsys.readouterr().out
    assert "random vs greedy: 0 won, 0 tied, 8 lost" in one and "Ratings" in one


def test_jobs_2_folds_mixed_outcomes_into_the_ratings_in_game_order():
    pytest.importorskip("openskill", reason="the ratings need the tournament extra")
    # Pony Tail, seed 0: random wins some games and loses others, so the ratings depend on
    # the order the outcomes are folded in; one game a batch, so the workers finish out of
    # order
    kw = {"games": 6, "seed": 0}
    one = run_tournament("pony_tail", ["random", "greedy"], **kw)
    two = run_tournament("pony_tail", ["random", "greedy"], jobs=2, **kw)
    assert 0 < one.pairs[0][2] < 6  # random won some, not all: the order matters
    assert (one.pairs, one.ratings) == (two.pairs, two.ratings)


# --------------------------------------------------------------------------- workers that die

_MARKER = ""
"""A file: game 3 kills its worker while the file does not exist (set by the test)."""


def _die_once_on_game_3(games):
    if ("random", "greedy", 3) in games and not os.path.exists(_MARKER):
        open(_MARKER, "w").close()  # noqa: SIM115 - an empty file, closed at once
        os._exit(1)
    return _sim_backends.play_batch(_sim_backends._WORKER_PLAY, games)


def test_a_worker_that_dies_mid_run_is_replaced_and_the_result_is_unchanged(
        monkeypatch, tmp_path):
    pytest.importorskip("openskill", reason="the ratings need the tournament extra")
    marker = tmp_path / "died"
    monkeypatch.setattr(sys.modules[__name__], "_MARKER", str(marker))
    monkeypatch.setattr(_sim_backends, "_pool_batch", _die_once_on_game_3)
    kw = {"games": 8, "seed": 3}
    expected = run_tournament("gin_rummy", ["random", "greedy"], **kw)
    got = run_tournament("gin_rummy", ["random", "greedy"], jobs=2, **kw)
    assert marker.exists()  # the worker playing game 3 did die
    assert (expected.pairs, expected.ratings) == (got.pairs, got.ratings)


def _die_on_game_3(games):
    if ("random", "greedy", 3) in games:
        os._exit(1)
    return _sim_backends.play_batch(_sim_backends._WORKER_PLAY, games)


def test_a_game_that_kills_every_worker_fails_with_one_line_naming_it(monkeypatch, capsys):
    monkeypatch.setattr(_sim_backends, "_pool_batch", _die_on_game_3)
    assert main([*TOURNAMENT, "--games", "6", "--jobs", "2", "--no-ratings"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("meldkit: error: game 3: a worker process died 5 times while "
                          "playing it, the last time alone (the retries are 3)")
    assert len(err.splitlines()) == 1


@needs_proc
def test_a_worker_killed_from_outside_costs_no_game_and_no_traceback(capsys):
    argv = [*TOURNAMENT, "--games", "120", "--no-ratings", "-q"]
    assert main([*argv, "--jobs", "1"]) == 0
    expected = capsys.readouterr().out
    proc = _meldkit(*argv, "--jobs", "2")
    seen = set(_wait_for_workers(proc))
    os.kill(min(seen), signal.SIGKILL)
    stop = threading.Event()

    def watch():  # every worker the run starts, the replacements included
        while not stop.is_set():
            seen.update(_children(proc.pid))
            time.sleep(0.01)

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    out, err = proc.communicate(timeout=60)
    stop.set()
    watcher.join()
    assert (proc.returncode, err) == (0, "")
    assert expected == out
    assert len(seen) > 2  # the broken pool was replaced


# --------------------------------------------------------------------------- signals


@needs_proc
@pytest.mark.parametrize(("how", "code"), [(signal.SIGTERM, 130), (signal.SIGINT, 130),
                                           (signal.SIGKILL, -signal.SIGKILL)])
def test_a_signal_ends_the_tournament_and_its_workers_within_seconds(how, code):
    proc = _meldkit(*TOURNAMENT, "--games", "5000", "--jobs", "2", "--no-ratings")
    try:
        workers = _wait_for_workers(proc)
        time.sleep(0.3)  # the workers are playing
        t0 = time.monotonic()
        proc.send_signal(how)
        _out, err = proc.communicate(timeout=10)
        ended = time.monotonic() - t0
        while time.monotonic() - t0 < 5 and any(_running(pid) for pid in workers):
            time.sleep(0.05)
        gone = time.monotonic() - t0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == code, err
    assert ended < 5
    assert [pid for pid in workers if _running(pid)] == [], f"still running {gone:.1f} s on"
    if how != signal.SIGKILL:
        assert err == "\nmeldkit: interrupted\n"



def _double_dying_once_on_minus_one(items):
    if -1 in items and not os.path.exists(_MARKER):
        open(_MARKER, "w").close()  # noqa: SIM115 - an empty file, closed at once
        os._exit(1)
    return [2 * i for i in items]


def _double_dying_on_minus_one(items):
    if -1 in items:
        os._exit(1)
    return [2 * i for i in items]


def test_a_pool_that_broke_before_a_submit_is_replaced_at_the_submit(monkeypatch, tmp_path):
    """A worker may die between two waits; the next submit then meets a broken pool
    (``BrokenProcessPool`` from ``submit``: a race CI once lost). The backend replaces the
    pool there, plays the lost batch again, and every batch's result comes back; a batch
    that kills every worker still fails the run with its one-line error."""
    from concurrent.futures import wait as wait_futures

    monkeypatch.setattr(sys.modules[__name__], "_MARKER", str(tmp_path / "died"))
    monkeypatch.setattr(_sim_backends, "_pool_batch", _double_dying_once_on_minus_one)
    backend = _sim_backends._PoolBackend(play=int, jobs=1, retries=1)
    try:
        backend.submit(0, [-1, 5])
        wait_futures(list(backend._futures))  # the pool broke before anyone asked
        backend.submit(2, [1, 2])  # replaced here, the lost batch submitted again
        got = []
        while backend._futures or backend._ready:
            got += backend.wait()
        assert sorted(got) == [(0, [-2, 10]), (2, [2, 4])]
    finally:
        backend.close()
    monkeypatch.setattr(_sim_backends, "_pool_batch", _double_dying_on_minus_one)
    backend = _sim_backends._PoolBackend(play=int, jobs=1, retries=0)
    try:
        backend.submit(0, [-1])
        wait_futures(list(backend._futures))
        with pytest.raises(_sim_backends.WorkerLostError, match="died 2 times"):
            backend.submit(1, [1, 2])
    finally:
        backend.close()


@pytest.mark.skipif(sys.platform == "win32", reason="fork and SIGTERM: POSIX")
def test_a_worker_forked_under_the_sigterm_handler_dies_of_sigterm_without_a_traceback():
    """CI (stop 48): a pool worker terminated while it started — before its initializer
    set SIGTERM back — raised the command line's KeyboardInterrupt and printed it."""
    import multiprocessing

    from meldkit.cli import _terminate_as_interrupt

    ctx = multiprocessing.get_context("fork")
    with _terminate_as_interrupt():
        child = ctx.Process(target=time.sleep, args=(30,))
        child.start()
        time.sleep(0.2)
        os.kill(child.pid, signal.SIGTERM)
        child.join(timeout=10)
        assert child.exitcode == -signal.SIGTERM  # (a KeyboardInterrupt: exit code 1)
