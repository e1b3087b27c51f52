"""Try the bot without a Discord token: the real bot inside SimCord's local preview.

``make run`` with no ``DISCORD_TOKEN`` lands here. SimCord runs the real discord.py bot
against an in-memory Discord and serves a Discord-like page on 127.0.0.1, with a "Viewing
as" switch between the members, so anyone can play in a browser with no Discord account.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import sys
import tempfile
from pathlib import Path

from bot.settings import Settings

PREVIEW_MEMBERS = ("Alice", "Bob", "Carol")
NO_TOKEN = (
    "DISCORD_TOKEN is missing (copy .env.example to .env and set it to connect to Discord): "
    "starting the offline preview instead."
)


async def _pump_clock(env: object, preview: object) -> None:
    """Virtual time does not follow the wall clock on its own: move it one second per second
    so that decision timers and reaction windows expire as they would on Discord."""
    import simcord

    while True:
        await asyncio.sleep(1.0)
        try:
            await env.advance_time(1.0)  # type: ignore[attr-defined]
            await preview.refresh()  # type: ignore[attr-defined]
        except simcord.SetupError:  # a browser action is running: try on the next tick
            pass


async def run_preview(
    settings: Settings,
    port: int = 0,
    seconds: float | None = None,
    url_file: Path | None = None,
) -> None:
    """Serve the preview until the page's "End session" button, Ctrl+C/SIGTERM, or
    ``seconds`` (for scripts and screenshots)."""
    import simcord

    from bot.app import create_bot

    db_path = Path(tempfile.mkdtemp(prefix="anima-preview-")) / "anima.sqlite3"
    async with simcord.run(create_bot(settings, db_path=db_path)) as env:
        guild = env.create_guild("Anima (local preview)")
        table = guild.create_text_channel("anima-table")
        members = [guild.add_member(env.create_user(name)) for name in PREVIEW_MEMBERS]
        await env.settle()
        await members[0].slash(table, "anima start")  # a lobby to join, so the page is not empty
        async with env.preview(table, viewers=members, layout="channel", port=port) as preview:
            loop = asyncio.get_running_loop()
            for sig in (signal.SIGINT, signal.SIGTERM):
                loop.add_signal_handler(sig, lambda: asyncio.ensure_future(preview.close()))
            print(
                f"{NO_TOKEN}\nOpen {preview.url} in a browser (switch 'Viewing as' to play "
                "each member; Ctrl+C to stop).",
                file=sys.stderr,
                flush=True,
            )
            if url_file is not None:
                url_file.write_text(preview.url)
            pump = asyncio.ensure_future(_pump_clock(env, preview))
            try:
                if seconds is None:
                    await preview.wait_closed()
                else:
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(preview.wait_closed(), seconds)
            finally:
                pump.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await pump


def main_preview(settings: Settings, port: int = 0) -> int:
    """Run the preview in a fresh event loop; returns the exit code."""
    try:
        import simcord  # noqa: F401
    except ImportError:
        print(
            "DISCORD_TOKEN is missing: set it in .env (see .env.example), or install the "
            "offline preview with `make run`.",
            file=sys.stderr,
        )
        return 2
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(run_preview(settings, port=port))
    return 0
