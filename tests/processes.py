"""Helpers for tests that watch worker processes through /proc (Linux)."""

from __future__ import annotations

import os


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
