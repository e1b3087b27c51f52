"""``anima-bot``: start the Discord bot, or the offline preview when there is no token."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

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
    args = parser.parse_args(argv)
    try:
        settings = load_settings()
    except SettingsError as exc:
        print(exc, file=sys.stderr)
        return 2
    if not settings.discord_token:
        from bot.preview import main_preview

        return main_preview(settings, port=args.preview_port)
    from bot.app import run_bot

    run_bot(settings)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
