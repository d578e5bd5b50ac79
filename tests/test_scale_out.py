"""Simulations past one process: the same records and summary with ``--jobs 1``, ``--jobs 2``
and ``--ray``, whatever the batch size; records written whole and in game order; an
interrupted run resumed to the file an uninterrupted run writes; a full disk leaves whole
records and one line; a worker killed in the middle of a batch costs nothing; tasks handed
out lazily; Ray never imported unless asked.

The Ray tests share one local Ray (2 CPUs, no dashboard) started by a module fixture; they
are skipped, with the reason, when Ray is not installed (CI installs the ``ray`` extra).
"""

from __future__ import annotations

import errno
import itertools
import json
import logging
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from processes import children, meldkit_process, running

import meldkit
from meldkit import load_pack
from meldkit._sim_backends import _Backend, run_games
from meldkit.cli import main
from meldkit.simulate import RunSpec, record_line, simulate, summarize

needs_proc = pytest.mark.skipif(not os.path.isdir("/proc"),
                                reason="finds worker processes through /proc (Linux)")

RUN = ["simulate", "pony_tail", "--bots", "random", "--seed", "11", "-q"]
"""A quick run: Pony Tail, four random bots (about 20 ms a game)."""


def summary_text(out: str) -> str:
    """The printed summary without its timing line."""
    return "\n".join(line for line in out.splitlines() if not line.startswith("speed:"))


def run_cli(capsys, argv) -> tuple[str, str]:
    assert main(argv) == 0
    captured = capsys.readouterr()
    return summary_text(captured.out), captured.err


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    """30 games played in this process (``--jobs 1``): the file and the summary."""
    path = tmp_path_factory.mktemp("ref") / "ref.jsonl"
    import io
    from contextlib import redirect_stdout

    buf = io.StringIO()
    with redirect_stdout(buf):
        assert main([*RUN, "--games", "30", "--jobs", "1", "--out", str(path)]) == 0
    return path.read_bytes(), summary_text(buf.getvalue().replace(str(path), "OUT"))


@pytest.fixture(scope="module")
def local_ray():
    """One local Ray for the module: 2 CPUs, no dashboard."""
    ray = pytest.importorskip(
        "ray", reason='Ray is not installed (pip install "meldkit[ray]"); CI installs it')
    if not ray.is_initialized():
        ray.init(address="local", num_cpus=2, include_dashboard=False,
                 logging_level=logging.ERROR)
    yield ray
    ray.shutdown()


# --------------------------------------------------------------------------- same records


@pytest.mark.parametrize("extra", [["--jobs", "2"], ["--jobs", "2", "--batch", "1"],
                                   ["--jobs", "2", "--batch", "7"], ["--batch", "4"]])
def test_local_processes_write_the_same_file_and_summary_as_one_process(
        extra, reference, tmp_path, capsys):
    path = tmp_path / "out.jsonl"
    out, _ = run_cli(capsys, [*RUN, "--games", "30", "--out", str(path), *extra])
    assert reference == (path.read_bytes(), out.replace(str(path), "OUT"))


@pytest.mark.parametrize("extra", [[], ["--batch", "1"], ["--batch", "4"], ["--batch", "30"]])
def test_ray_writes_the_same_file_and_summary_as_one_process(
        extra, local_ray, reference, tmp_path, capsys):
    path = tmp_path / "ray.jsonl"
    out, _ = run_cli(capsys, [*RUN, "--games", "30", "--out", str(path), "--ray", *extra])
    assert reference == (path.read_bytes(), out.replace(str(path), "OUT"))


def test_compare_on_ray_reports_what_one_process_reports(local_ray, capsys):
    argv = ["compare", "pony_tail", "--set", "game.target=20000", "--games", "12",
            "--bots", "random", "-q"]
    one, _ = run_cli(capsys, argv)
    on_ray, _ = run_cli(capsys, [*argv, "--ray", "--batch", "5"])
    assert one == on_ray
    assert "seat 0 wins" in one


def test_summaries_compare_equal_without_their_timing():
    records = list(simulate("pony_tail", 4, games=6, seed=2))
    again = [r for r in simulate("pony_tail", 4, games=6, seed=2, jobs=2, batch=2)]
    assert records == again
    a, b = summarize(records), summarize(again)
    assert a.seconds != b.seconds
    assert a == b


# --------------------------------------------------------------------------- workers that die


def _kill_first(find, killed: list, timeout: float = 60.0) -> threading.Thread:
    """A thread that SIGKILLs the first process ``find()`` returns, once."""

    def run():
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            pid = find()
            if pid is not None:
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:  # it ended between finding and killing
                    continue
                killed.append(pid)
                return
            time.sleep(0.005)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread


def _ray_batch_process() -> int | None:
    """A Ray worker that is playing a batch now (Ray titles it after the task)."""
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                with open(f"/proc/{name}/cmdline", "rb") as f:
                    if f.read().startswith(b"ray::play_batch"):
                        return int(name)
            except OSError:
                continue
    return None


@needs_proc
def test_a_ray_worker_killed_during_a_batch_loses_no_game_and_plays_none_twice(local_ray):
    expected = list(simulate("pony_tail", 4, games=32, seed=3))
    killed: list[int] = []
    thread = _kill_first(_ray_batch_process, killed)
    got = list(simulate("pony_tail", 4, games=32, seed=3, ray="local", batch=8))
    thread.join(timeout=1)
    assert killed, "no Ray worker was seen playing a batch"
    assert [r.game for r in got] == list(range(32))
    assert expected == got


def test_a_pool_worker_killed_during_a_batch_loses_no_game_and_plays_none_twice():
    import multiprocessing

    expected = list(simulate("pony_tail", 4, games=24, seed=4))
    killed: list[int] = []
    first_done = threading.Event()

    def find():
        if not first_done.is_set():
            return None
        children = [p.pid for p in multiprocessing.active_children()]
        return children[0] if children else None

    thread = _kill_first(find, killed)
    got = list(simulate("pony_tail", 4, games=24, seed=4, jobs=2, batch=6,
                        progress=lambda done, total: first_done.set()))
    thread.join(timeout=1)
    assert killed
    assert [r.game for r in got] == list(range(24))
    assert expected == got


def test_a_batch_that_kills_its_worker_every_time_fails_with_one_line(monkeypatch):
    from meldkit import _sim_backends

    monkeypatch.setattr(_sim_backends, "_pool_batch", _die_on_game_5)
    with pytest.raises(_sim_backends.WorkerLostError,
                       match=r"^games 4-7: a worker process died 4 times while playing them, "
                             r"the last time alone \(the retries are 2\)"):
        list(simulate("pony_tail", 4, games=8, seed=1, jobs=2, batch=4, retries=2))


def test_a_run_that_loses_a_batch_for_good_keeps_its_whole_records_and_says_resume(
        monkeypatch, reference, tmp_path, capsys):
    from meldkit import _sim_backends

    monkeypatch.setattr(_sim_backends, "_pool_batch", _die_on_game_5)
    path = tmp_path / "run.jsonl"
    argv = [*RUN, "--games", "30", "--jobs", "2", "--batch", "2", "--out", str(path)]
    assert main(argv) == 1
    err = capsys.readouterr().err.splitlines()
    written = path.read_bytes()
    games = written.count(b"\n")
    assert reference[0].startswith(written) and games <= 4  # games 0-3 at most
    # Which of games 0-3 were whole when batch 4-5 failed for good depends on the
    # scheduling (a dying worker breaks the pool, and batches in flight are retried): on a
    # loaded machine it can be none, and then there is nothing to resume from.
    resume = [f"meldkit: {games} whole games are in {path}; continue the run with the "
              "same command and --resume"] if games else []
    assert err[:len(resume)] == resume
    assert err[len(resume)].startswith(
        "meldkit: error: games 4-5: a worker process died 5 times")
    assert len(err) == len(resume) + 1


def _die_on_game_5(games: range):
    if 5 in games:
        os._exit(1)
    return _sim_backends_pool_batch(games)


def _sim_backends_pool_batch(games):
    from meldkit import _sim_backends

    return _sim_backends.play_batch(_sim_backends._WORKER_PLAY, games)


# --------------------------------------------------------------------------- interrupt, resume


_meldkit = meldkit_process


_children, _running = children, running


def _wait_for_lines(path: Path, n: int, proc: subprocess.Popen, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if path.exists() and path.read_bytes().count(b"\n") >= n:
            return
        assert proc.poll() is None, proc.communicate()
        time.sleep(0.02)
    pytest.fail(f"{path} did not reach {n} records")


@needs_proc
@pytest.mark.parametrize(("how", "jobs"), [(signal.SIGTERM, "2"), (signal.SIGINT, "1")])
def test_an_interrupted_run_leaves_whole_records_and_resume_finishes_the_file(
        how, jobs, reference, tmp_path):
    path = tmp_path / "run.jsonl"
    argv = [*RUN, "--games", "30", "--jobs", jobs, "--batch", "2", "--out", str(path)]
    proc = _meldkit(*argv)
    _wait_for_lines(path, 4, proc)
    proc.send_signal(signal.SIGSTOP)  # held until the signal is in: it cannot finish first
    workers = _children(proc.pid)
    proc.send_signal(how)
    proc.send_signal(signal.SIGCONT)
    _out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "Traceback" not in err
    assert "--resume" in err
    data = path.read_bytes()
    assert data.endswith(b"\n")
    lines = data.splitlines()
    assert 4 <= len(lines) < 30
    assert [json.loads(line)["game"] for line in lines] == list(range(len(lines)))
    time.sleep(0.2)
    assert [pid for pid in workers if _running(pid)] == []  # no orphans

    done = subprocess.run([sys.executable, "-m", "meldkit", *argv, "--resume"],
                          capture_output=True, text=True, check=False, timeout=120)
    assert done.returncode == 0, done.stderr
    assert f"resuming {path}: {len(lines)} of 30 games already played" in done.stderr
    assert reference[0] == path.read_bytes()
    assert reference[1] == summary_text(done.stdout.replace(str(path), "OUT"))


@needs_proc
def test_pool_workers_exit_by_themselves_when_the_driver_is_killed(tmp_path):
    path = tmp_path / "run.jsonl"
    proc = _meldkit(*RUN, "--games", "300", "--jobs", "2", "--batch", "2", "--out", str(path))
    _wait_for_lines(path, 2, proc)
    workers = _children(proc.pid)
    assert workers
    proc.kill()  # SIGKILL: no cleanup in the driver at all
    proc.communicate(timeout=30)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and any(_running(pid) for pid in workers):
        time.sleep(0.1)
    assert [pid for pid in workers if _running(pid)] == []
    assert [json.loads(line)["game"] for line in path.read_bytes().splitlines()] == list(
        range(path.read_bytes().count(b"\n")))  # whole records, even after SIGKILL


def test_resume_cuts_a_half_written_record_and_plays_only_the_missing_games(
        reference, tmp_path, capsys):
    path = tmp_path / "run.jsonl"
    whole = reference[0].splitlines(keepends=True)
    path.write_bytes(b"".join(whole[:25]) + whole[25][:40])  # killed while writing game 25
    verbose = [arg for arg in RUN if arg != "-q"]  # a line per game played
    out, err = run_cli(capsys, [*verbose, "--games", "30", "--out", str(path), "--resume"])
    assert "25 of 30 games already played" in err
    played = [line.split()[1] for line in out.splitlines() if line.startswith("game ")]
    assert played == ["26", "27", "28", "29", "30"]  # numbered from 1: games 25 ... 29
    assert reference[0] == path.read_bytes()
    assert reference[1] in out.replace(str(path), "OUT")


def test_resume_on_ray_finishes_a_file_started_with_jobs(local_ray, reference, tmp_path,
                                                         capsys):
    path = tmp_path / "run.jsonl"
    path.write_bytes(b"".join(reference[0].splitlines(keepends=True)[:13]))
    out, _ = run_cli(capsys, [*RUN, "--games", "30", "--out", str(path), "--resume", "--ray"])
    assert reference == (path.read_bytes(), out.replace(str(path), "OUT"))


def test_out_never_writes_over_a_file_of_records(reference, tmp_path, capsys):
    """A CLI audit: rerunning an interrupted run without --resume emptied its records (and
    --out wrote over any file). A file holding records is refused before a game is
    played, pointing at --resume; an empty file is written."""
    path = tmp_path / "run.jsonl"
    kept = b"".join(reference[0].splitlines(keepends=True)[:13])
    path.write_bytes(kept)
    assert main([*RUN, "--games", "30", "--out", str(path)]) == 2
    assert path.read_bytes() == kept
    assert (f"--out {path} exists and holds records already: continue that run with "
            "--resume, or name a new file") in capsys.readouterr().err
    for odd in (tmp_path, "/dev/null"):  # (a pipe to stdout said only "Illegal seek")
        assert main([*RUN, "--games", "30", "--out", str(odd)]) == 2
        assert "not a regular file" in capsys.readouterr().err
    assert main([*RUN, "--games", "30", "--out", "-"]) == 2  # (it wrote a file named '-')
    assert "--out -: name a file for the records" in capsys.readouterr().err
    path.write_bytes(b"")
    out, _ = run_cli(capsys, [*RUN, "--games", "30", "--out", str(path)])
    assert reference == (path.read_bytes(), out.replace(str(path), "OUT"))


def test_resume_of_a_complete_file_plays_nothing(reference, tmp_path, capsys):
    path = tmp_path / "run.jsonl"
    path.write_bytes(reference[0])
    out, err = run_cli(capsys, [*RUN, "--games", "30", "--out", str(path), "--resume"])
    assert "30 of 30 games already played" in err
    assert reference == (path.read_bytes(), out.replace(str(path), "OUT"))


@pytest.mark.parametrize(("change", "message"), [
    (["--seed", "12"], "run.jsonl:1: game 0 was played with another --seed than 12"),
    (["--bots", "greedy"], "run.jsonl:1: game 0 was played by 4 players (random,random,"),
    (["--set", "game.target=20000"], "run.jsonl:3: game 2 plays differently with this pack"),
    (["--games", "2"], "run.jsonl holds 3 games, more than --games 2"),
])
def test_resume_refuses_a_file_of_another_run_in_one_line(change, message, reference,
                                                          tmp_path, capsys):
    path = tmp_path / "run.jsonl"
    path.write_bytes(b"".join(reference[0].splitlines(keepends=True)[:3]))
    argv = [*RUN, "--games", "30", "--out", str(path), "--resume", *change]
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert message in err
    assert len(err.strip().splitlines()) == 1
    assert path.read_bytes().count(b"\n") == 3  # left as it was


@pytest.mark.parametrize("line, says", [
    ('{"game": 0, "colour": "red"}', "expected the keys of meldkit's GameRecord"),
    ('{"game": 0}', "a game record without seed, players, winner, scores, hands"),
    ("[" * 100_000, "JSON nested too deeply"),  # was a RecursionError's traceback
])
def test_resume_refuses_a_line_that_is_not_a_record(tmp_path, capsys, line, says):
    path = tmp_path / "run.jsonl"
    path.write_text(line + "\n")
    assert main([*RUN, "--games", "3", "--out", str(path), "--resume"]) == 1
    err = capsys.readouterr().err
    assert f"{path}:1: not a game record of meldkit simulate (" in err and says in err
    assert len(err.strip().splitlines()) == 1


def test_resume_without_out_is_a_usage_error(capsys):
    assert main([*RUN, "--games", "3", "--resume"]) == 2
    assert "--resume continues the --out FILE" in capsys.readouterr().err


# --------------------------------------------------------------------------- a full disk


class _FullDisk:
    """A raw file that takes ``room`` more bytes, then fails as a full disk does: the write
    that crosses the limit writes what fits, the next raises ENOSPC."""

    def __init__(self, real, room: int):
        self._real = real
        self.room = room

    def write(self, data) -> int:
        if self.room <= 0:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        n = self._real.write(bytes(data)[:self.room])
        self.room -= n
        return n

    def __getattr__(self, name):
        return getattr(self._real, name)


@pytest.mark.parametrize(("whole", "cut"), [(0, 0), (2, 0), (2, 1), (3, 150)])
def test_simulate_out_on_a_full_disk_keeps_only_whole_records_and_says_so_in_one_line(
        whole, cut, reference, tmp_path, monkeypatch, capsys):
    from meldkit.simulate import RecordFile

    lines = reference[0].splitlines(keepends=True)
    room = sum(map(len, lines[:whole])) + cut  # full part-way through the next record
    real_open = RecordFile._open
    monkeypatch.setattr(RecordFile, "_open",
                        staticmethod(lambda path, mode: _FullDisk(real_open(path, mode), room)))
    path = tmp_path / "run.jsonl"
    assert main([*RUN, "--games", "30", "--out", str(path)]) == 1
    assert path.read_bytes() == b"".join(lines[:whole])
    err = capsys.readouterr().err
    assert err == (f"meldkit: error: {path}: No space left on device: the record of game "
                   f"{whole} was not written, and the file holds only the whole records "
                   "before it; make room, then continue the run with the same command and "
                   "--resume\n")


def test_resume_on_a_full_disk_keeps_the_records_it_had(reference, tmp_path, monkeypatch,
                                                         capsys):
    from meldkit.simulate import RecordFile

    lines = reference[0].splitlines(keepends=True)
    path = tmp_path / "run.jsonl"
    path.write_bytes(b"".join(lines[:5]))
    real_open = RecordFile._open
    monkeypatch.setattr(RecordFile, "_open",
                        staticmethod(lambda path, mode: _FullDisk(real_open(path, mode),
                                                                  len(lines[5]) + 40)))
    assert main([*RUN, "--games", "30", "--out", str(path), "--resume"]) == 1
    assert path.read_bytes() == b"".join(lines[:6])
    assert "the record of game 6 was not written" in capsys.readouterr().err
    monkeypatch.undo()
    out, _ = run_cli(capsys, [*RUN, "--games", "30", "--out", str(path), "--resume"])
    assert reference == (path.read_bytes(), out.replace(str(path), "OUT"))


# --------------------------------------------------------------------------- bounded work


class _CountingBackend(_Backend):
    """Records what is submitted; 'plays' a batch as records that carry only their number."""

    slots = 4
    workers = 4

    def __init__(self):
        self.submitted: list[tuple[int, int]] = []
        self.queue: list[tuple[int, int]] = []

    def submit(self, start, games):
        self.submitted.append((start, start + len(games)))
        self.queue.append((start, games))

    def wait(self):
        start, games = self.queue.pop()  # the newest first: out of order on purpose
        return [(start, [type("R", (), {"game": g})() for g in games])]


def test_tasks_are_handed_out_lazily_and_records_come_in_game_order():
    backend = _CountingBackend()
    spec = RunSpec(load_pack("pony_tail"), 4, 0, ("random",))
    run = run_games(spec, range(50_000_000), batch=10, backend=backend)
    assert [r.game for r in itertools.islice(run, 1000)] == list(range(1000))
    run.close()
    assert max(stop for _start, stop in backend.submitted) <= 1000 + 4 * 4 * 10 + 10
    assert len(backend.submitted) < 200


def test_fifty_million_games_start_at_once_with_local_processes():
    t0 = time.perf_counter()
    run = simulate("pony_tail", 4, games=50_000_000, seed=0, jobs=2)
    assert next(run).game == 0
    run.close()
    assert time.perf_counter() - t0 < 30


# --------------------------------------------------------------------------- Ray stays optional


def test_import_meldkit_and_other_commands_never_import_ray(tmp_path):
    code = ("import sys, meldkit, meldkit.cli, meldkit.simulate, meldkit._sim_backends\n"
            "from meldkit.cli import main\n"
            "assert main(['simulate', 'pony_tail', '--games', '2', '--jobs', '2', '-q',"
            " '--bots', 'random']) == 0\n"
            "assert main(['rules', 'pony_tail']) == 0\n"
            "print('ray' in sys.modules)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=False, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1] == "False"


def test_ray_flag_without_ray_says_how_to_install_it_in_one_line(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray -> ImportError
    assert main([*RUN, "--games", "2", "--ray"]) == 1
    err = capsys.readouterr().err
    assert err == ('meldkit: error: --ray needs Ray, which is not installed: '
                   'pip install "meldkit[ray]"\n')


@pytest.mark.parametrize(("argv", "message"), [
    (["--ray", "auto", "--jobs", "4"], "--jobs sets the CPUs of a local Ray"),
    (["--ray", "pony_tail"], "--ray 'pony_tail': expected auto, ray://HOST:PORT"),
    (["--batch", "0"], "expected 1 or more"),
])
def test_bad_scale_options_are_usage_errors(argv, message, capsys):
    assert main([*RUN, "--games", "2", *argv]) == 2
    assert message in capsys.readouterr().err


def test_record_lines_are_compact_json_with_the_game_number():
    r = next(simulate("pony_tail", 4, games=1, seed=8))
    line = record_line(r)
    assert line.endswith(b"\n") and line.count(b"\n") == 1
    assert json.loads(line)["game"] == 0


@pytest.mark.parametrize("name,bad", [("games", -1), ("games", 2.5), ("jobs", -2),
                                      ("games", 10**20), ("jobs", 10**6),
                                      ("batch", 0), ("retries", -1), ("first", -1),
                                      ("first", 3)])
def test_simulate_refuses_a_setting_out_of_its_range_before_any_game(name, bad):
    # jobs=-2 and retries=-1 were taken silently, games=2.5 raised a bare TypeError
    with pytest.raises(meldkit.SetupError, match=f"simulate: .*{name}"):
        simulate("gin_rummy", 2, **{"games": 2, name: bad})


def test_a_huge_count_is_refused_not_an_overflow_nor_a_fork_bomb(capsys):
    """``--games 99999999999999999999`` ended in a bare OverflowError (the length of the
    run's range), ``--jobs 100000`` asked for as many worker processes, and a tournament of
    a million games a pairing built a list of every game before playing one."""
    assert main([*RUN, "--games", "99999999999999999999"]) == 2  # a usage error (stop 47)
    assert "argument --games: expected at most 1,000,000,000" in capsys.readouterr().err
    from meldkit.tournament import run_tournament

    for bad in ({"games": 10**6}, {"jobs": 10**6}):
        with pytest.raises(meldkit.SetupError, match=f"run_tournament: {next(iter(bad))}"):
            run_tournament("gin_rummy", ["random", "greedy"], **bad)


def test_a_local_run_starts_no_more_workers_than_it_has_games():
    from meldkit._sim_backends import make_backend

    assert make_backend(abs, jobs=500, games=3).workers == 3
    assert make_backend(abs, jobs=500, games=1).workers == 1  # one game: this process
    assert make_backend(abs, jobs=2).workers == 2
