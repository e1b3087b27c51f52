"""``anima-bot``: start the Discord bot, or the offline preview when there is no token;
``anima-bot backup PATH``: copy the game database to PATH while the bot runs."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from bot.integrity import DatabaseDamaged, backup
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
    commands = parser.add_subparsers(dest="command", metavar="backup PATH")
    backup_command = commands.add_parser(
        "backup",
        help="copy the game database (ANIMA_DB_PATH) to PATH, safely while the bot runs",
        description="Copy the game database (ANIMA_DB_PATH) to a new file with SQLite's "
        "online backup API: safe while the bot runs. To restore, stop the bot and copy "
        "the backup over ANIMA_DB_PATH.",
    )
    backup_command.add_argument("path", help="the new file to write the backup to")
    args = parser.parse_args(argv)
    try:
        settings = load_settings()
    except SettingsError as exc:
        print(exc, file=sys.stderr)
        return 2
    if args.command == "backup":
        return _backup(settings.db_path, Path(args.path))
    try:
        if not settings.discord_token:
            from bot.preview import main_preview

            return main_preview(settings, port=args.preview_port)
        from bot.app import run_bot

        run_bot(settings)
    except DatabaseDamaged as exc:
        print(f"anima-bot: not starting. {exc}", file=sys.stderr)
        return 2
    return 0


def _backup(db_path: Path, target: Path) -> int:
    """``anima-bot backup PATH``: 0 and one line on success, 2 and the reason otherwise."""
    try:
        size = backup(db_path, target)
    except (ValueError, DatabaseDamaged) as exc:
        print(f"anima-bot backup: {exc}", file=sys.stderr)
        return 2
    print(f"Backed up {db_path} to {target} ({size / 1024:.0f} KB, quick_check ok).")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
