"""``anima-bot``: start the Discord bot."""

from __future__ import annotations

import sys

from bot.settings import SettingsError, load_settings

MISSING_TOKEN = (
    "DISCORD_TOKEN is missing: copy .env.example to .env and set DISCORD_TOKEN to your bot's "
    "token (Discord Developer Portal > your application > Bot > Reset Token)."
)


def main() -> int:
    """Entry point of the ``anima-bot`` console script."""
    try:
        settings = load_settings()
    except SettingsError as exc:
        print(exc, file=sys.stderr)
        return 2
    if not settings.discord_token:
        print(MISSING_TOKEN, file=sys.stderr)
        return 2
    from bot.app import run_bot

    run_bot(settings)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
