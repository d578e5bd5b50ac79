"""Helpers for tests that watch worker processes through /proc (Linux)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys


def children(pid: int) -> list[int]:
    """The processes whose parent is ``pid``."""
    out = []
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                with open(f"/proc/{name}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                out.append(int(name))
    return out


def running(pid: int) -> bool:
    """The process exists and is not a zombie (exited, waiting to be reaped)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] not in ("Z", "X")
    except OSError:
        return False


def _default_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def meldkit_process(*argv: str, **kw) -> subprocess.Popen:
    """``python -m meldkit *argv`` started with its output piped and Ctrl-C handled as on a
    terminal: a test run started in the background (``pytest … &``) has SIGINT ignored,
    and a child would inherit that and never see the SIGINT a test sends it."""
    return subprocess.Popen([sys.executable, "-m", "meldkit", *argv], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, preexec_fn=_default_sigint,
                            **kw)
