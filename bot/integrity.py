"""The database file's health: the check run before the bot opens it, and online backups
(``anima-bot backup PATH``; a PostgreSQL database is backed up with its own tools: the
command says how).

A damaged file must not start silently (games gone, timers dead): :func:`check_file` runs
SQLite's ``PRAGMA quick_check`` and raises :class:`DatabaseDamaged`, whose message says how to
restore a backup. A file the bot may not write is not damaged: :func:`check_writable` raises
:class:`DatabaseReadOnly`, whose message says which file or folder and how to let the bot
write it (issue 24, fault 5). A backup uses SQLite's online backup API
(``sqlite3.Connection.backup``): it copies a consistent snapshot page by page while the bot
keeps running (WAL mode lets it read while the bot writes).
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
from pathlib import Path

#: How to get a game database back, for every refusal of a damaged file below.
RESTORE = (
    "To restore a backup: stop the bot, copy the backup (made with `anima-bot backup PATH`) "
    "over {path}, delete {path}-wal and {path}-shm if they exist, and start the bot again. "
    "Without a backup, move the file away to start with an empty database (its games, "
    "settings and stats are lost)."
)


#: What to do about a database the bot may not write (no backup is needed: nothing is lost).
WRITABLE = (
    "The bot writes to the file and, beside it, to SQLite's journal ({path}-wal, {path}-shm): "
    "give the user that runs the bot write permission on the file and its folder (chown or "
    "chmod; a read-only file system remounted read-write), then start the bot again. The "
    "database is not damaged: nothing needs restoring."
)


class DatabaseUnusable(Exception):
    """The database cannot be used as it is; the message says why and what to do."""


class DatabaseDamaged(DatabaseUnusable):
    """The database file cannot be used; the message says why and how to restore it."""


class DatabaseReadOnly(DatabaseUnusable):
    """The bot may not write the database file or its folder (issue 24, fault 5: it was
    reported as damaged, with advice to restore a backup); the message says which and how to
    let it."""


def _refuse(path: Path, why: str) -> DatabaseDamaged:
    return DatabaseDamaged(f"The database {path} {why}. " + RESTORE.format(path=path))


def check_file(path: Path | str) -> None:
    """Raise :class:`DatabaseDamaged` if ``path`` exists but is not a sound SQLite database:
    zero bytes (the bot writes its schema the moment it creates a database, so an empty file
    was truncated or replaced), not a database at all, or failing ``PRAGMA quick_check``. A
    missing file is fine: the bot creates it."""
    path = Path(path)
    if not path.exists():
        return
    if path.stat().st_size == 0:
        raise _refuse(path, "is an empty file (0 bytes), not the bot's database")
    try:
        with contextlib.closing(sqlite3.connect(path)) as db:
            rows = db.execute("PRAGMA quick_check").fetchall()
    except sqlite3.DatabaseError as exc:
        raise _refuse(path, f"cannot be read ({exc})") from None
    problems = [str(r[0]) for r in rows if r[0] != "ok"]
    if problems:
        shown = "; ".join(problems[:3]) + (" …" if len(problems) > 3 else "")
        raise _refuse(path, f"is damaged (SQLite's quick_check: {shown})")


def check_writable(path: Path | str) -> None:
    """Raise :class:`DatabaseReadOnly` if the bot could not write the database ``path``:
    the file (or its journal's files, when they are there) is read-only, or its folder is,
    where SQLite creates its journal (or, for a new database, the file itself; the nearest
    folder that exists when the folder is still to create).

    ``os.access`` answers for the process as it is: for root too, a file with the immutable
    attribute or on a read-only file system is not writable."""
    path = Path(path)
    journal = [Path(f"{path}{end}") for end in ("-wal", "-shm")]
    for file in [path, *journal]:
        if file.exists() and not os.access(file, os.W_OK):
            raise _read_only(path, "the file" if file == path else f"its journal file {file}")
    folder = path.parent
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    if not os.access(folder, os.W_OK | os.X_OK):
        raise _read_only(path, f"its folder {folder} (where SQLite creates its journal)")


def _read_only(path: Path, which: str) -> DatabaseReadOnly:
    """The refusal of the database ``path`` because this user may not write ``which``."""
    return DatabaseReadOnly(
        f"The database {path} is read-only: this user may not write {which}. "
        + WRITABLE.format(path=path)
    )


def backup(source: Path | str, target: Path | str) -> int:
    """Copy the database ``source`` to the new file ``target`` with SQLite's online backup
    API (safe while the bot runs), check the copy, and return its size in bytes. Refuses
    (ValueError) a missing source or an existing target; a damaged source raises
    :class:`DatabaseDamaged`."""
    source, target = Path(source), Path(target)
    if not source.exists():
        raise ValueError(f"there is no database at {source} (see ANIMA_DB_PATH)")
    try:
        if target.exists():
            raise ValueError(f"{target} exists already: choose a new file name")
    except OSError as exc:  # a name too long, a folder that cannot be searched
        raise ValueError(f"cannot write {target}: {exc.strerror or exc}") from None
    if target.resolve() == source.resolve():
        raise ValueError("the backup must be another file than the database")
    check_file(source)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:  # issue 24, fault 8: a file in the way, no permission
        raise ValueError(
            f"cannot create the folder {target.parent}: {exc.strerror or exc}"
        ) from None
    try:
        _copy(source, target)
    except (OSError, sqlite3.Error) as exc:
        # Nothing half-written is left to be taken for a backup (nor to refuse the next try).
        with contextlib.suppress(OSError):
            target.unlink(missing_ok=True)
        raise ValueError(f"cannot write {target}: {_reason(exc)}") from None
    check_file(target)
    return target.stat().st_size


def _copy(source: Path, target: Path) -> None:
    """Copy the database ``source`` into the new file ``target`` (SQLite's backup API)."""
    src = sqlite3.connect(f"file:{source}?mode=ro", uri=True)
    try:
        dst = sqlite3.connect(target)
        try:
            src.backup(dst)
        finally:
            dst.close()
    finally:
        src.close()


def _reason(exc: OSError | sqlite3.Error) -> str:
    """An error's reason in words: the system's (``File name too long``) or SQLite's."""
    if isinstance(exc, OSError):
        return exc.strerror or str(exc)
    return str(exc)
