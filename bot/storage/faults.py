"""What goes wrong in storage, as the rest of the bot sees it: a write the database refused
(:class:`StorageUnavailable`), a game that moved on since it was loaded
(:class:`VersionConflict`), and the simulated crashes of the tests.

Crash points (tests): :func:`kill_point` raises :class:`Killed` at a named step armed in
:data:`crash_points`, to simulate the process dying right there.

A damaged row is not a fault raised here: it is read without raising and marked
(:attr:`~bot.storage.rows.GameRow.damage`, :attr:`~bot.storage.rows.EventRow.damaged`, see
:mod:`bot.storage.rows`), so that one bad row stops only its own game.
"""

from __future__ import annotations

#: The named steps of an action where a test may kill the bot (:func:`kill_point`).
KILL_STEPS = (
    "after start commit",
    "after commit",
    "after final commit",
    "after post",
    "before pointer",
)
#: Armed crash points (tests only): step -> how many more times the step passes before the
#: bot is killed there (0: the next time).
crash_points: dict[str, int] = {}


class Killed(BaseException):
    """A simulated crash: the bot "dies" at a named step (a BaseException, so that no
    ``except Exception`` of the bot catches it and carries on)."""


def kill_point(step: str) -> None:
    """Raise :class:`Killed` if the test armed ``step`` (one shot)."""
    left = crash_points.get(step)
    if left is None:
        return
    if left > 0:
        crash_points[step] = left - 1
        return
    del crash_points[step]
    raise Killed(step)


class StorageUnavailable(Exception):
    """A write failed in the database (disk full, I/O error, read-only file, server gone...):
    nothing of it was
    saved. The message names the real cause; players are told the bot cannot save now."""


class VersionConflict(Exception):
    """The stored game moved on since it was loaded: nothing was written."""


class _NotALobby(Exception):
    """``start_game`` found no lobby to start: its transaction is rolled back."""
