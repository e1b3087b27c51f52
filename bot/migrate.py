"""``anima-bot migrate --to postgresql://...``: move the bot's SQLite database to PostgreSQL,
and prove the games came over whole by replaying each from its actions.

Run it with the bot stopped (what the bot writes after the snapshot is not copied):

1. a snapshot of the SQLite database (``--from PATH``, else ``DATABASE_URL`` when it is a
   ``sqlite:///`` address, else ``ANIMA_DB_PATH``) is taken with SQLite's backup API into a
   temporary folder and brought to this bot's schema version there (the source file is only
   read, whatever its version);
2. every table of the snapshot is copied into the PostgreSQL database, empty or holding the
   bot's schema and no row, in one transaction (:mod:`bot.storage.transfer`): games, seats,
   actions, events, servers' and members' settings, auto-pass, closed DMs, results and stats,
   and the games' posting state (their publish pointers and board messages are columns of
   ``games``); a target with rows is refused, nothing merged;
3. each game dealt is read back from PostgreSQL and replayed from its seed, options, seats
   and actions (``Game.new`` then ``Game.apply``, as ``anima replay`` does): the result must
   be its stored state, byte for byte. A game already broken in SQLite (its stored state could
   not be loaded) is not replayed, and named.

It prints one line: the tables and rows copied, the games verified, every game that does not
replay by its id and why. Exit status: 0 when all is copied and verified; 1 when the copy is
made (committed) but some game does not replay or the check could not run; 2 when nothing was
copied (the line says why). Operator's words: English, outside the catalogs.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import sqlite3
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from bot.database import (
    Database,
    DatabaseError,
    PostgresDatabase,
    Session,
    SQLiteDatabase,
    database_for,
    is_postgres_url,
    without_password,
)
from bot.integrity import DatabaseUnusable, backup
from bot.settings import Settings
from bot.storage import GuildSettings, Storage, StorageUnavailable
from bot.storage.dialect import POSTGRESQL
from bot.storage.transfer import TransferRefused, copy_sqlite_into
from engine import CardDB, Game, GameDataError, IllegalAction, Options, default_cards

#: The snapshot is opened by the bot's own storage (its schema brought up to date): these
#: defaults are never written.
_DEFAULTS = GuildSettings(0, 0, 30, True, 3)


class MigrationFailed(Exception):
    """Nothing was copied; the message says why, in one line."""


@dataclass
class StoredGame:
    """What a game's replay needs, as stored."""

    id: int
    seed: int
    options_json: str
    state_json: str
    version: int
    #: The seats, in order.
    seats: list[str]
    #: (version, seat, action) of each action, in order.
    actions: list[tuple[int, str, str]]


@dataclass
class Verdict:
    """The games of the target, checked."""

    verified: int = 0
    #: Lobbies, and games cancelled or ended before the deal: no state to replay.
    not_dealt: int = 0
    #: Games already broken (not replayed).
    broken: list[int] = field(default_factory=list)
    #: (game, why) of each game that does not replay.
    failed: list[tuple[int, str]] = field(default_factory=list)
    #: Why the check could not run to its end (the database failed), else None.
    error: str | None = None


@dataclass
class Migration:
    """What ``anima-bot migrate`` did: the rows copied per table, and the check."""

    copied: dict[str, int]
    verdict: Verdict

    @property
    def ok(self) -> bool:
        return not self.verdict.failed and self.verdict.error is None

    def summary(self, source: Path | str, target: str) -> str:
        """The one line printed."""
        rows = sum(self.copied.values())
        tables = ", ".join(f"{table} {n:,}" for table, n in self.copied.items())
        v = self.verdict
        dealt = v.verified + len(v.failed)
        line = (
            f"anima-bot migrate: copied {len(self.copied)} tables, {rows:,} rows ({tables}) "
            f"from {source} to {target}; "
        )
        if v.failed:
            line += f"{v.verified} of {dealt} games verified by replaying their actions; "
            line += "does not replay: " + "; ".join(f"#{g} ({why})" for g, why in v.failed)
        else:
            line += f"{dealt} games verified by replaying their actions"
        notes = []
        if v.broken:
            listed = ", ".join(f"#{g}" for g in v.broken)
            notes.append(f"broken before the copy, not replayed: {listed}")
        if v.not_dealt:
            notes.append(f"not dealt, nothing to replay (lobbies, cancelled): {v.not_dealt}")
        if notes:
            line += f" ({'; '.join(notes)})"
        if v.error is not None:
            line += f"; the check stopped: {v.error}"
        if not self.ok:
            line += "; the copy is committed: look at these games before starting the bot on it"
        return line + "."


def migrate_command(settings: Settings, to: str, source: str | None) -> int:
    """``anima-bot migrate``: the line printed and the exit status (see the module's doc)."""
    if not is_postgres_url(to):
        print(
            "anima-bot migrate: --to must be a PostgreSQL address "
            "(postgresql://USER:PASSWORD@HOST/NAME)",
            file=sys.stderr,
        )
        return 2
    try:
        path = source_path(settings, source)
        done = asyncio.run(migrate(path, to, default_cards()))
    except MigrationFailed as exc:
        print(f"anima-bot migrate: nothing copied: {exc}", file=sys.stderr)
        return 2
    print(done.summary(path, without_password(to)), file=sys.stdout if done.ok else sys.stderr)
    return 0 if done.ok else 1


def source_path(settings: Settings, source: str | None) -> Path:
    """The SQLite file to migrate: ``--from``, else the bot's SQLite database."""
    if source is None:
        url = settings.database_url
        source = url if url is not None and not is_postgres_url(url) else str(settings.db_path)
    try:
        found = database_for(source)
    except ValueError as exc:
        raise MigrationFailed(str(exc)) from None
    if not isinstance(found, SQLiteDatabase):
        raise MigrationFailed(
            f"the source {found.where} is not a SQLite database: give the SQLite file with "
            "--from PATH"
        )
    return found.path


async def migrate(source: Path, target: str, cards: CardDB) -> Migration:
    """Copy the SQLite database ``source`` into the PostgreSQL database ``target`` and check
    every game (see the module's doc); raises :class:`MigrationFailed` when nothing was
    copied."""
    with tempfile.TemporaryDirectory(prefix="anima-migrate-") as folder:
        snapshot = Path(folder) / "snapshot.sqlite3"
        await _snapshot(source, snapshot)
        with contextlib.closing(sqlite3.connect(f"file:{snapshot}?mode=ro", uri=True)) as read:
            db = PostgresDatabase(target)
            try:
                await db.open()
            except DatabaseError as exc:
                raise MigrationFailed(f"cannot connect to {db.where}: {exc}") from None
            try:
                copied = await _copy(db, read)
                verdict = Verdict()
                try:
                    await verify(db, cards, verdict)
                except DatabaseError as exc:
                    verdict.error = str(exc)
            finally:
                await db.close()
    return Migration(copied, verdict)


async def _snapshot(source: Path, snapshot: Path) -> None:
    """A checked copy of ``source`` at this bot's schema version (the source only read)."""
    try:
        backup(source, snapshot)
    except (ValueError, DatabaseUnusable) as exc:
        raise MigrationFailed(str(exc)) from None
    storage = Storage(snapshot, _DEFAULTS)
    try:
        await storage.open()
    except (StorageUnavailable, DatabaseUnusable, RuntimeError) as exc:
        # RuntimeError: a schema newer than this bot.
        raise MigrationFailed(f"{source}: {exc}") from None
    finally:
        await storage.close()


async def _copy(db: Database, read: sqlite3.Connection) -> dict[str, int]:
    """The copy, one transaction in one hop; the rows per table."""
    migrations = POSTGRESQL.migrations
    try:
        return await db.run(lambda s: copy_sqlite_into(s, read, migrations))
    except TransferRefused as exc:
        raise MigrationFailed(str(exc)) from None
    except DatabaseError as exc:
        raise MigrationFailed(f"the copy failed, rolled back: {exc}") from None


async def verify(db: Database, cards: CardDB, verdict: Verdict) -> None:
    """Replay every game of ``db`` dealt and not broken, each read in its own hop, into
    ``verdict``."""
    games = await db.run(
        lambda s: s.all("SELECT id, status, state_json IS NULL FROM games ORDER BY id")
    )
    for game_id, status, undealt in games:
        if undealt:
            verdict.not_dealt += 1
        elif status == "broken":
            verdict.broken.append(int(game_id))
        else:
            stored = await db.run(functools.partial(read_game, game_id=int(game_id)))
            why = does_not_replay(stored, cards)
            if why is None:
                verdict.verified += 1
            else:
                verdict.failed.append((stored.id, why))


async def read_game(s: Session, game_id: int) -> StoredGame:
    """A dealt game as its replay needs it (one hop of three statements)."""
    row = await s.one(
        "SELECT seed, options_json, state_json, version FROM games WHERE id = ?", (game_id,)
    )
    seats = await s.all("SELECT seat FROM seats WHERE game_id = ? ORDER BY position", (game_id,))
    actions = await s.all(
        "SELECT version, seat, action FROM actions WHERE game_id = ? ORDER BY version",
        (game_id,),
    )
    return StoredGame(
        id=game_id,
        seed=row[0],
        options_json=row[1],
        state_json=row[2],
        version=row[3],
        seats=[str(r[0]) for r in seats],
        actions=[(int(r[0]), str(r[1]), str(r[2])) for r in actions],
    )


def does_not_replay(stored: StoredGame, cards: CardDB) -> str | None:
    """Why ``stored`` is not the game its seed, options, seats and actions give, else None.
    Never raises: a game that cannot be replayed at all says why too."""
    try:
        return _replay_differs(stored, cards)
    except Exception as exc:  # a game that breaks the replay is one more failed game
        return f"its replay failed: {type(exc).__name__}: {exc}"


def dice_seeds(state_json: str) -> tuple[str | None, dict[str, str] | None]:
    """The seeds of a game of the keyed dice (its stored state's ``dice``: the server seed and
    the seats' seeds it was created with, docs/fair_dice.md); (None, None) for a game of the
    old generator, or a state that cannot be read (its replay then says what differs)."""
    try:
        state = json.loads(state_json)
    except ValueError:
        return None, None
    dice = state.get("dice") if isinstance(state, dict) else None
    if not isinstance(dice, dict) or not isinstance(dice.get("server_seed"), str):
        return None, None
    seats = dice.get("seat_seeds")
    return dice["server_seed"], dict(seats) if isinstance(seats, dict) else {}


def _replay_differs(stored: StoredGame, cards: CardDB) -> str | None:
    try:
        options = Options.model_validate(json.loads(stored.options_json))
    except ValueError:  # not JSON, or not the options (pydantic's error is a ValueError)
        return "its options cannot be read"
    server_seed, seat_seeds = dice_seeds(stored.state_json)
    try:
        game = Game.new(
            stored.seats,
            options,
            stored.seed,
            cards,
            server_seed=server_seed,
            seat_seeds=seat_seeds,
        )
    except (IllegalAction, ValueError) as exc:  # ValueError: seeds the engine refuses
        return f"its setup is refused: {exc}"
    for number, (version, seat, action) in enumerate(stored.actions, start=1):
        if version != number:
            return f"action {number} is missing"
        # An action the next one takes back (``undo``) keeps the state before it (issue 25).
        undone = number < len(stored.actions) and stored.actions[number][2] == "undo"
        try:
            game.apply(seat, action, undoable=undone)
        except IllegalAction as exc:
            return f"action {number} ({seat}: {action}) is refused: {exc}"
    try:
        kept = Game.from_json(stored.state_json, cards)
    except GameDataError as exc:
        return f"its stored state cannot be read: {exc}"
    if game.to_json() != kept.to_json():
        return f"its stored state is not what its {len(stored.actions)} actions give"
    if stored.version != game.version:
        return f"its version is {stored.version}, its actions {game.version}"
    return None
