"""Try the bot without a Discord token: the real bot inside SimCord's local preview.

``make run`` with no ``DISCORD_TOKEN`` lands here. SimCord runs the real discord.py bot
against an in-memory Discord and serves a Discord-like page on 127.0.0.1, with a "Viewing
as" switch between the members, so anyone can play in a browser with no Discord account.

The world it builds: a server with the channel ``#anima-table`` and the members Alice, Bob
and Carol. Alice has opened a lobby (``/anima start``), Bob and Carol have joined it and Alice
has added an AI player, so the visitor sees a table ready to play: pressing **Start** (as
Alice) deals the game. Everything else (options, timer, more AI players, Cancel and a new
``/anima start turns:3``) is left to the visitor. DMs are off: the preview shows one channel,
and every secret is also under the board's **My hand** button. The pictures are on: the
board, each battle and **My hand** are drawn, and ``/anima card`` shows the card.

Its words (what the console prints, the preview server's name and its channel's topic) are
the catalogs' ``preview.*``, in English: a console carries no Discord locale.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import logging
import signal
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from bot.app import create_bot
from bot.commands import start
from bot.settings import Settings
from engine import DEFAULT_LEVEL
from words import SOURCE, msg, say

if TYPE_CHECKING:
    import simcord

log = logging.getLogger("anima.preview")

PREVIEW_GUILD = say(msg("preview.guild"), SOURCE)
PREVIEW_CHANNEL = "anima-table"
PREVIEW_MEMBERS = ("Alice", "Bob", "Carol")
PREVIEW_BOT_NAME = "Anima"
#: AI players Alice adds to the lobby: with the three members, 4 of the 5 seats.
PREVIEW_AI_SEATS = 1
#: The most virtual time the clock pump moves in one go, in seconds.
MAX_STEP = 30.0

NO_TOKEN = say(msg("preview.no_token"), SOURCE)
SEEDED = say(msg("preview.seeded"), SOURCE)


@dataclass
class PreviewWorld:
    """What :func:`seed_world` built: the table channel, the members and the open lobby."""

    guild: simcord.GuildHandle
    table: simcord.ChannelHandle
    members: list[simcord.MemberActor]
    game_id: int
    lobby_message_id: int


def preview_settings(settings: Settings) -> Settings:
    """The settings for the preview: the user's, but DMs off (the page shows the channel
    only; secrets are under **My hand**) and the pictures on (the board, the battles and the
    hands drawn: the preview shows what the bot can do). The database is a temporary file."""
    return settings.model_copy(update={"dms": False, "table_pictures": True})


async def seed_world(env: simcord.Env, ai_seats: int = PREVIEW_AI_SEATS) -> PreviewWorld:
    """Build the preview's server and open a lobby: Alice hosts, Bob and Carol join, Alice
    adds ``ai_seats`` AI players. Start is left to the visitor."""
    guild = env.create_guild(PREVIEW_GUILD)
    table = guild.create_text_channel(PREVIEW_CHANNEL, topic=say(msg("preview.topic"), SOURCE))
    members = [guild.add_member(env.create_user(name)) for name in PREVIEW_MEMBERS]
    await env.settle()
    bot = env.bot
    if bot.user is not None and bot.user.name != PREVIEW_BOT_NAME:
        # SimCord calls its bot user "TestBot"; rename it as an application owner would.
        await bot.user.edit(username=PREVIEW_BOT_NAME)
    alice, *others = members
    opened = await alice.slash(table, start.qualified_name)
    if opened.response is None:
        raise RuntimeError("the bot did not answer /anima start in the preview")
    row = await bot.storage.active_game(table.id)  # type: ignore[attr-defined]
    if row is None:
        raise RuntimeError(f"no lobby after /anima start: {opened.response.content!r}")
    lobby = opened.response.message
    for member in others:
        await member.click(lobby, custom_id=f"anima:lobby:{row.id}:join")
    for _ in range(ai_seats):
        # "Add AI player" opens the host's private level picker; the default level is taken.
        picker = await alice.click(lobby, custom_id=f"anima:lobby:{row.id}:ai")
        if picker.response is None:
            raise RuntimeError("the bot did not answer Add AI player in the preview")
        await alice.click(
            picker.response.message, custom_id=f"anima:lobby:{row.id}:ai:{DEFAULT_LEVEL}"
        )
    return PreviewWorld(guild, table, members, row.id, lobby.id)


def present_now(preview: simcord.Preview) -> None:
    """Let the page read relative times (``<t:…:R>``) against the virtual clock as it is now.

    SimCord's page draws a relative time against its *presentation time*, which only a
    refresh moves forward: a click from the page does not, and the clock pump refreshes
    only when the bot did something. So after the clock had run for a few minutes, the board
    a click posted read "closes in 7 minutes" for a 45-second reaction window, while the
    absolute time of the line above it was right (issue 23). The bot's deadlines are right
    (on the virtual clock, ``bot.table.now``); the page's clock was behind. This sets it,
    without publishing: the next publish (an action's, a refresh) uses it. SimCord 3.2 has
    no public way to do it; a preview created with a fixed ``presentation_time`` keeps it."""
    if getattr(preview, "_presentation_time_explicit", False):
        return
    with contextlib.suppress(AttributeError):
        preview.capture_time = preview.env.now()


def serialize_page_actions(preview: simcord.Preview) -> asyncio.Lock:
    """A lock that the page's actions (clicks, commands, viewer switches) and the clock pump
    take in turn; each action first sets the page's clock (:func:`present_now`).

    SimCord runs one operation at a time and refuses an action from the page that arrives
    while the clock is moving (HTTP 400): the page would then be stuck on "Action outcome
    uncertain" until reloaded. With the lock, such a click waits for the clock instead (a few
    milliseconds). This wraps ``Preview._action``, the one entry point of the page's actions
    in SimCord 3.2; if a later SimCord has no such method, the lock only orders the pump."""
    lock = asyncio.Lock()
    original = getattr(preview, "_action", None)
    if original is None or not inspect.iscoroutinefunction(original):
        log.warning("SimCord's preview has no _action(): page clicks may collide with the clock")
        return lock

    async def action(*args: Any, **kwargs: Any) -> Any:
        async with lock:
            present_now(preview)  # what the action posts reads relative times from now
            return await original(*args, **kwargs)

    preview._action = action  # type: ignore[method-assign]
    return lock


async def pump_clock(
    env: simcord.Env,
    preview: simcord.Preview,
    every: float = 1.0,
    lock: asyncio.Lock | None = None,
) -> None:
    """Move virtual time with the wall clock, so that decision timers, half-time pings and
    reaction windows expire as they would on Discord (SimCord's clock only moves when told).
    ``lock`` (see :func:`serialize_page_actions`) keeps it out of the way of the page.

    The pages are republished only when the bot did something (a time-out, a ping): a
    republish makes a click sent from an older page revision stale, so doing it every
    second would make clicks fail."""
    import simcord

    lock = lock if lock is not None else asyncio.Lock()
    loop = asyncio.get_running_loop()
    last = loop.time()
    stale = False  # the bot changed something the pages do not show yet
    while True:
        await asyncio.sleep(every)
        async with lock:
            # Catch up at most MAX_STEP at a time (after a suspended laptop, say), so that
            # the page is never held up for long.
            step = min(loop.time() - last, MAX_STEP)
            requests = len(env.http_requests)
            try:
                await env.advance_time(step)
            except simcord.SetupError:
                continue  # another operation is running: catch up on the next tick
            except TimeoutError:
                log.warning("the bot did not settle while the clock moved", exc_info=True)
            last += step
            present_now(preview)
            stale = stale or len(env.http_requests) != requests
            if stale:
                try:
                    await preview.refresh()
                    stale = False
                except simcord.SetupError:
                    pass  # refresh on the next tick


async def run_preview(
    settings: Settings,
    port: int = 0,
    seconds: float | None = None,
    url_file: Path | None = None,
    out: TextIO | None = None,
) -> None:
    """Serve the preview until the page's "End session" button, Ctrl+C/SIGTERM, or
    ``seconds`` (for scripts and tests). Prints what to do and the URL to ``out``
    (stderr by default) and writes the URL to ``url_file``."""
    import simcord

    out = out if out is not None else sys.stderr
    with tempfile.TemporaryDirectory(prefix="anima-preview-") as tmp:
        bot = create_bot(preview_settings(settings), db_path=Path(tmp) / "anima.sqlite3")
        try:
            # Errors are logged as they happen; a long session must not end in a traceback.
            async with simcord.run(bot, check_errors=False) as env:
                world = await seed_world(env)
                async with env.preview(
                    world.table, viewers=world.members, layout="channel", port=port
                ) as preview:
                    await _serve(env, preview, seconds, url_file, out)
        finally:
            # SimCord never closes the bot: without this aiosqlite's thread keeps the
            # process alive after the preview has stopped.
            await bot.close()


async def _serve(
    env: simcord.Env,
    preview: simcord.Preview,
    seconds: float | None,
    url_file: Path | None,
    out: TextIO,
) -> None:
    loop = asyncio.get_running_loop()
    installed = []
    for sig in (signal.SIGINT, signal.SIGTERM):
        # Also when started with '&', where SIGINT is ignored; not possible off the main thread.
        with contextlib.suppress(ValueError, RuntimeError, NotImplementedError):
            loop.add_signal_handler(sig, lambda: asyncio.ensure_future(preview.close()))
            installed.append(sig)
    try:
        opening = say(msg("preview.open", url=preview.url), SOURCE)
        print(f"{NO_TOKEN}\n{opening}\n{SEEDED}", file=out, flush=True)
        if url_file is not None:
            url_file.write_text(preview.url + "\n")
        lock = serialize_page_actions(preview)
        pump = asyncio.ensure_future(pump_clock(env, preview, lock=lock))
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
    finally:
        for sig in installed:
            loop.remove_signal_handler(sig)


def main_preview(settings: Settings, port: int = 0) -> int:
    """Run the preview in a fresh event loop; returns the exit code."""
    try:
        import simcord  # noqa: F401
    except ImportError:
        print(say(msg("preview.not_installed"), SOURCE), file=sys.stderr)
        return 2
    logging.basicConfig(
        level=settings.log_level_number, format="%(levelname)s %(name)s: %(message)s"
    )
    if settings.log_level != "DEBUG":
        # discord.py's start-up notes (no voice support, intents) mean nothing offline.
        logging.getLogger("discord").setLevel(logging.ERROR)
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(run_preview(settings, port=port))
    print(say(msg("preview.stopped"), SOURCE), file=sys.stderr)
    return 0
