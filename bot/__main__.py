"""``anima-bot``: start the Discord bot, or the offline preview when there is no token;
``anima-bot backup PATH``: copy the game database (SQLite) to PATH while the bot runs, or say
how to back up a PostgreSQL database (``pg_dump``: the bot makes no copy of a server's
database); ``anima-bot migrate --to postgresql://...``: copy the SQLite database into an empty
PostgreSQL database and check every game (:mod:`bot.migrate`)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from bot.database import PostgresDatabase, SQLiteDatabase, database_for
from bot.integrity import DatabaseDamaged, DatabaseUnusable, backup
from bot.settings import SettingsError, load_settings


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``anima-bot`` console script."""
    parser = argparse.ArgumentParser(
        prog="anima-bot",
        description="Start the Anima Discord bot (DISCORD_TOKEN set), or the offline preview "
        "in a browser when there is no token. Settings come from the environment or .env "
        "(see the README).",
    )
    parser.add_argument(
        "--preview-port", type=int, default=0, help="port of the offline preview (0: any free)"
    )
    commands = parser.add_subparsers(dest="command", metavar="{backup PATH, migrate --to URL}")
    backup_command = commands.add_parser(
        "backup",
        help="copy the game database (ANIMA_DB_PATH) to PATH, safely while the bot runs",
        description="Copy the game database (ANIMA_DB_PATH) to a new file with SQLite's "
        "online backup API: safe while the bot runs. To restore, stop the bot and copy "
        "the backup over ANIMA_DB_PATH. With a PostgreSQL DATABASE_URL, print how to back "
        "it up with pg_dump (and restore it with pg_restore) instead.",
    )
    backup_command.add_argument("path", help="the new file to write the backup to")
    migrate_parser = commands.add_parser(
        "migrate",
        help="copy the SQLite database into an empty PostgreSQL database, and check it",
        description="Copy every table of the bot's SQLite database (--from PATH, else "
        "ANIMA_DB_PATH) into an empty PostgreSQL database, in one transaction, then check "
        "every game by replaying it from its actions. Stop the bot first (what it writes "
        "later is not copied); the SQLite file is only read. Then set DATABASE_URL to the "
        "new database and start the bot. Exit status: 0 copied and checked, 1 copied but "
        "some game does not replay, 2 nothing copied.",
    )
    migrate_parser.add_argument(
        "--to", required=True, metavar="URL", help="the PostgreSQL database: postgresql://..."
    )
    migrate_parser.add_argument(
        "--from",
        dest="source",
        metavar="PATH",
        help="the SQLite file (default: DATABASE_URL if it is sqlite:///..., else ANIMA_DB_PATH)",
    )
    args = parser.parse_args(argv)
    try:
        settings = load_settings()
    except SettingsError as exc:
        print(exc, file=sys.stderr)
        return 2
    if args.command == "backup":
        return _backup(settings.database, Path(args.path))
    if args.command == "migrate":
        from bot.migrate import migrate_command

        return migrate_command(settings, args.to, args.source)
    try:
        if not settings.discord_token:
            from bot.preview import main_preview

            return main_preview(settings, port=args.preview_port)
        from bot.app import run_bot

        run_bot(settings)
    except DatabaseUnusable as exc:  # damaged, or read-only
        print(f"anima-bot: not starting. {exc}", file=sys.stderr)
        return 2
    return 0


def _backup(database: Path | str, target: Path) -> int:
    """``anima-bot backup PATH``: 0 and one line on success, 2 and the reason otherwise;
    on PostgreSQL, 2 and how to make the backup with ``pg_dump`` (nothing copied)."""
    try:
        found = database_for(database)
    except ValueError as exc:
        print(f"anima-bot backup: {exc}", file=sys.stderr)
        return 2
    if isinstance(found, PostgresDatabase):
        print(pg_dump_way(found.where, target), file=sys.stderr)
        return 2
    assert isinstance(found, SQLiteDatabase)
    db_path = found.path
    try:
        size = backup(db_path, target)
    except (ValueError, DatabaseDamaged) as exc:
        print(f"anima-bot backup: {exc}", file=sys.stderr)
        return 2
    print(f"Backed up {db_path} to {target} ({size / 1024:.0f} KB, quick_check ok).")
    return 0


def pg_dump_way(where: str, target: Path | str) -> str:
    """What ``anima-bot backup PATH`` says on PostgreSQL (``where``: the database's address,
    its password hidden): the ``pg_dump`` command that makes the backup, safely while the
    bot runs (one consistent snapshot), and the ``pg_restore`` that brings it back."""
    return (
        f"anima-bot backup: the database is PostgreSQL ({where}): the bot makes no copy of "
        "it; PostgreSQL's own tools do, safely while the bot runs (one consistent "
        "snapshot). With DATABASE_URL set in the shell:\n"
        f'  pg_dump --format=custom --file={target} "$DATABASE_URL"\n'
        "To restore it: stop the bot, then\n"
        f'  pg_restore --clean --if-exists --no-owner --dbname="$DATABASE_URL" {target}\n'
        "and start the bot again (it resumes every game from the backup)."
    )


if __name__ == "__main__":
    raise SystemExit(main())
