"""The offline preview (``make run`` without a token): the seeded world, the page on
127.0.0.1, the clock pump, and a clean stop.

These tests start their own SimCord ``Env`` (``simcord.run`` or ``run_preview``), so they
do not use the ``simcord_env`` fixture: only one live ``Env`` is allowed per event loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import os
import signal
import sys
from collections.abc import AsyncIterator, Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

import aiohttp
import pytest
import simcord
from anima_sim import lines_text

from bot.app import AnimaBot, create_bot
from bot.preview import (
    NO_TOKEN,
    PREVIEW_BOT_NAME,
    SEEDED,
    PreviewWorld,
    preview_settings,
    pump_clock,
    run_preview,
    seed_world,
    serialize_page_actions,
)
from bot.settings import Settings


def preview_config(**overrides: Any) -> Settings:
    values: dict[str, Any] = {"DISCORD_TOKEN": "", "ANIMA_FIXED_SEED": 11}
    values.update(overrides)
    return Settings(_env_file=None, **values)


@contextlib.asynccontextmanager
async def started(bot: AnimaBot) -> AsyncIterator[simcord.Env]:
    try:
        async with simcord.run(bot) as env:
            yield env
    finally:
        await bot.close()
    assert not bot.errors


@contextlib.asynccontextmanager
async def previewed_game(
    settings: Settings, tmp_path: Path
) -> AsyncIterator[tuple[simcord.Env, PreviewWorld, Any, aiohttp.ClientSession]]:
    """The preview's seeded world with the game started by Alice, its page served and an HTTP
    session to use it: (env, world, preview, http)."""
    bot = create_bot(preview_settings(settings), db_path=tmp_path / "anima.sqlite3")
    async with started(bot) as env:
        world = await seed_world(env)
        lobby = next(m for m in world.table.history() if m.id == world.lobby_message_id)
        await world.members[0].click(lobby, custom_id=f"anima:lobby:{world.game_id}:start")
        async with (
            env.preview(world.table, viewers=world.members, layout="channel") as preview,
            aiohttp.ClientSession() as http,
        ):
            yield env, world, preview, http


class Page:
    """The page's HTTP API, as the browser uses it (see docs/notes/simcord.md §5)."""

    def __init__(self, http: aiohttp.ClientSession, url: str) -> None:
        self.http = http
        self.base, self.capability = url.strip().split("/#", 1)
        self.context = ""
        self.sequence = 0

    def headers(self) -> dict[str, str]:
        headers = {"X-Simcord-Capability": self.capability}
        if self.context:
            headers["X-Simcord-Context"] = self.context
        return headers

    async def open(self) -> dict[str, Any]:
        async with self.http.post(f"{self.base}/api/pages", json={}, headers=self.headers()) as r:
            assert r.status == 200
            page: dict[str, Any] = await r.json()
        self.context = page["context"]["id"]
        return page

    async def state(self) -> dict[str, Any]:
        async with self.http.get(f"{self.base}/api/state", headers=self.headers()) as r:
            assert r.status == 200
            state: dict[str, Any] = await r.json()
        return state

    async def action(self, kind: str, **fields: Any) -> dict[str, Any]:
        state = await self.state()
        self.sequence += 1
        body = {
            "protocol_version": 3,
            "sequence": self.sequence,
            "request_id": f"test-{self.sequence}",
            "generation": state["context"]["generation"],
            "bot_generation": state["botGeneration"],
            "published_revision": state["publishedRevision"],
            "kind": kind,
            **fields,
        }
        async with self.http.post(
            f"{self.base}/api/action", json=body, headers=self.headers()
        ) as r:
            assert r.status == 200
            result: dict[str, Any] = await r.json()
        return result


def walk(components: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """A page message's components, nested ones (components V2) too."""
    for c in components:
        yield c
        yield from walk(c.get("components") or [])


def shown(message: dict[str, Any]) -> list[str]:
    """A page message's text displays (components V2)."""
    return [c["content"] for c in walk(message.get("components") or []) if "content" in c]


def texts(page: dict[str, Any]) -> list[str]:
    """Every message's content, text displays and embed text on a page."""
    out = []
    for m in page["messages"].values():
        out.append(m["content"] or "")
        out += shown(m)
        for e in m["embeds"]:
            out.append(e.get("title") or "")
            out.append(e.get("description") or "")
            out += [f"{f['name']}: {f['value']}" for f in e.get("fields", [])]
    return out


def page_board(page: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """Game #1's board message on a page, and its My hand button."""
    board = next(
        m
        for m in page["messages"].values()
        if any(t.startswith("### Anima · game #1 ·") for t in shown(m))
    )
    my_hand = next(c for c in walk(board["components"]) if c.get("label") == "My hand")
    return board, my_hand


async def test_seed_world_opens_a_lobby_that_the_visitor_starts(tmp_path: Path) -> None:
    bot = create_bot(preview_settings(preview_config()), db_path=tmp_path / "anima.sqlite3")
    async with started(bot) as env:
        world = await seed_world(env)
        assert [m.name for m in world.members] == ["Alice", "Bob", "Carol"]
        assert bot.user is not None and bot.user.name == PREVIEW_BOT_NAME
        assert not bot.settings.dms  # the page shows the channel only: secrets via My hand

        row = await bot.storage.game(world.game_id)
        assert row is not None and row.status == "lobby"  # Start is left to the visitor
        assert row.host_id == world.members[0].id
        seats = await bot.storage.seats(world.game_id)
        assert [(s.name, s.ai) for s in seats] == [
            ("Alice", False),
            ("Bob", False),
            ("Carol", False),
            ("AI 1", True),
        ]
        lobby = next(m for m in world.table.history() if m.id == world.lobby_message_id)
        assert "Alice (host)" in (lobby.embeds[0].fields[0].value or "")
        labels = [
            getattr(c, "label", None)
            for row in lobby.components
            for c in getattr(row, "children", [row])
        ]
        assert "Start" in labels and "Join" in labels
        # Each joiner saw his own confirmation; the public eye sees only the lobby.
        assert [m.id for m in world.table.history()] == [world.lobby_message_id]
        # The visitor's Start deals a game whose board is drawn (the pictures are on).
        assert bot.settings.table_pictures
        await world.members[0].click(lobby, custom_id=f"anima:lobby:{world.game_id}:start")
        await bot.publisher.pictures.drawn()
        drawn = [a for m in world.table.history() for a in m.attachments]
        assert [a.filename for a in drawn] == ["board.png"] and drawn[0].description


async def test_run_preview_prints_the_url_serves_the_lobby_and_ends_from_the_page(
    tmp_path: Path,
) -> None:
    url_file = tmp_path / "url.txt"
    out = io.StringIO()
    task = asyncio.ensure_future(
        run_preview(preview_config(), seconds=60, url_file=url_file, out=out)
    )
    try:
        for _ in range(200):
            if url_file.exists() or task.done():
                break
            await asyncio.sleep(0.05)
        assert url_file.exists(), task.exception() if task.done() else "no URL after 10 s"
        url = url_file.read_text().strip()

        lines = out.getvalue().splitlines()
        assert lines == [NO_TOKEN, f"Open {url} in a browser (Ctrl+C to stop).", SEEDED]
        assert lines[0].startswith("DISCORD_TOKEN is missing") and ".env" in lines[0]
        assert url.startswith("http://127.0.0.1:") and "/#" in url

        async with aiohttp.ClientSession() as http:
            page = Page(http, url)
            async with http.get(page.base + "/") as r:
                assert r.status == 200 and "SimCord Preview" in await r.text()
            async with http.get(page.base + "/api/state") as r:
                assert r.status == 401  # the key in the URL's #fragment is required
            opened = await page.open()
            assert [v["name"] for v in opened["viewers"]] == ["Alice", "Bob", "Carol"]
            shown = "\n".join(texts(opened))
            assert "Anima: Shadow of Omega · game #1" in shown
            assert "1. Alice (host)\n2. Bob\n3. Carol\n4. 🤖 AI 1" in shown
            # The page's "End session" button stops the preview.
            closed = await page.action("close")
            assert not closed["rejected"]
        await asyncio.wait_for(task, 10)
    finally:
        if not task.done():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task


async def test_the_clock_pump_runs_out_decision_timers_in_real_time(tmp_path: Path) -> None:
    settings = preview_config(
        ANIMA_DECISION_TIMER=2, ANIMA_WINDOW_TIMER=2, ANIMA_TIMER_TICK=0.5, ANIMA_AI_TAKEOVER=0
    )
    async with previewed_game(settings, tmp_path) as (env, world, preview, http):
        page = Page(http, preview.url)
        await page.open()  # before the time-out: the pump must republish it
        pump = asyncio.ensure_future(pump_clock(env, preview, every=0.2))
        try:
            for _ in range(100):
                state = await page.state()
                if any("ran out of time" in t for t in texts(state)):
                    break
                await asyncio.sleep(0.1)
        finally:
            pump.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await pump
        shown = "\n".join(texts(state))
        assert "half of your time is gone" in shown
        assert "**Alice** ran out of time: the default choice." in shown
        public = [lines_text(m) for m in world.table.history()]
        assert any("ran out of time" in c for c in public)


async def test_a_page_click_waits_for_the_clock_instead_of_failing(tmp_path: Path) -> None:
    """SimCord refuses a page action that arrives while the clock moves (HTTP 400, and the
    page is stuck on "outcome uncertain"); with the preview's lock it waits instead."""
    settings = preview_config(ANIMA_DECISION_TIMER=0, ANIMA_TIMER_TICK=0.5)
    async with previewed_game(settings, tmp_path) as (env, world, preview, http):
        lock = serialize_page_actions(preview)
        page = Page(http, preview.url)
        opened = await page.open()
        board, my_hand = page_board(opened)

        async def move_the_clock() -> None:
            async with lock:  # as pump_clock does
                # Ten runs of the bot's timer loop: about half a second of SimCord work.
                await env.advance_time(5)

        clock = asyncio.ensure_future(move_the_clock())
        await asyncio.sleep(0.1)
        assert not clock.done()
        result = await page.action(  # asserts HTTP 200
            "click", target_id=board["id"], control_key=my_hand["control_key"]
        )
        assert clock.done()
        assert not result["rejected"] and result["settlement"] == "settled"
        panels = [m for m in world.table.history(viewer=world.members[0]) if m.flags.ephemeral]
        assert panels and panels[-1].embeds[0].title == "Your hand · game #1"


async def test_a_page_click_reads_relative_times_from_the_virtual_clock(tmp_path: Path) -> None:
    """Issue 23: a 45-second window read "closes in 7 minutes" on the page, the absolute time
    above it right. The bot's deadlines are on the virtual clock; the page drew ``<t:…:R>``
    against SimCord's presentation time, which a page click does not move (only a refresh
    does, and the pump refreshes only when the bot changed something). The preview now sets
    it before every page action and whenever the clock moves."""
    settings = preview_config(ANIMA_DECISION_TIMER=0, ANIMA_TIMER_TICK=5)
    async with previewed_game(settings, tmp_path) as (env, _world, preview, http):
        lock = serialize_page_actions(preview)
        page = Page(http, preview.url)
        opened = await page.open()
        async with lock:  # the clock runs for minutes and the bot posts nothing
            for _ in range(40):
                await env.advance_time(10)
        board, my_hand = page_board(opened)
        await page.action("click", target_id=board["id"], control_key=my_hand["control_key"])
        shown = datetime.fromisoformat((await page.state())["profile"]["presentationTime"])
        assert abs((shown - env.now()).total_seconds()) < 5, (shown, env.now())


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
async def test_anima_bot_without_a_token_serves_the_preview_and_stops_on_sigterm(
    tmp_path: Path,
) -> None:
    """What `make run` does with no DISCORD_TOKEN, end to end, in a fresh process."""
    env = {
        k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN" and not k.startswith("ANIMA_")
    }
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        "--preview-port",
        "0",
        cwd=tmp_path,  # no .env there
        env=env,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    try:
        assert proc.stderr is not None
        before = []  # nothing is expected before the token line (a stray warning is let by)
        for _ in range(20):
            first = (await asyncio.wait_for(proc.stderr.readline(), 30)).decode()
            if first.strip() == NO_TOKEN or not first:
                break
            before.append(first)
        assert first.strip() == NO_TOKEN, before
        second = (await asyncio.wait_for(proc.stderr.readline(), 10)).decode()
        assert second.startswith("Open http://127.0.0.1:")
        url = second.split()[1]
        async with aiohttp.ClientSession() as http:
            opened = await Page(http, url).open()
        assert "Anima: Shadow of Omega · game #1" in texts(opened)
        proc.send_signal(signal.SIGTERM)
        out, err = await asyncio.wait_for(proc.communicate(), 20)
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
    assert proc.returncode == 0
    assert out == b""
    rest = err.decode()
    assert "Traceback" not in rest and rest.strip().endswith("Preview stopped.")
