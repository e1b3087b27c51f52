"""Drawings for the picture cache's tests, run in its worker process (module functions, so
that they can be sent there): they say which process drew them, can be held until a file
appears, and log their calls to a file (a worker's memory is not the test's)."""

from __future__ import annotations

import os
import time
from pathlib import Path

from bot.pictures import Picture


def tagged(tag: str, log: Path, gate: Path | None = None) -> Picture:
    """A picture whose alt text is ``tag`` and whose bytes name the process that drew it,
    drawn once ``gate`` exists (if given); ``tag`` is appended to the lines of ``log``."""
    deadline = time.monotonic() + 10
    while gate is not None and not gate.exists() and time.monotonic() < deadline:
        time.sleep(0.01)
    with log.open("a") as out:
        out.write(tag + "\n")
    return Picture(str(os.getpid()).encode(), tag, 1, 1)


def calls(log: Path) -> list[str]:
    """The tags drawn so far, in order."""
    return log.read_text().split() if log.exists() else []


def broken() -> Picture:
    """A drawing that fails."""
    raise RuntimeError("broken")


def busy(seconds: float) -> Picture:
    """A picture that costs ``seconds`` of CPU time in the process that draws it."""
    start = time.process_time()
    while time.process_time() - start < seconds:
        pass
    return Picture(str(os.getpid()).encode(), "busy", 1, 1)


def dies_once(mark: Path) -> Picture:
    """The worker process dies the first time (``mark`` does not exist yet), as one killed by
    the system would; the next call draws."""
    if not mark.exists():
        mark.touch()
        os._exit(1)
    return Picture(str(os.getpid()).encode(), "again", 1, 1)
