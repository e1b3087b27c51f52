"""The lobby on a full disk (issue 24, fault 6): ``/anima start`` and every click that writes
the lobby say that the bot cannot save, in words, and change nothing; once the disk has room
the same lobby goes on."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import simcord
from anima_sim import World, message_by_id, open_lobby, private_reply, stored
from databases import TestDatabase

from bot.app import AnimaBot
from bot.components.answers import ERROR_TEXT
from bot.lobby import CANNOT_SAVE
from bot.storage import StorageUnavailable
from words import say

pytestmark = pytest.mark.both_backends


@pytest.mark.sqlite_only  # a full disk, simulated by SQLite's max_page_count
async def test_a_lobby_on_a_full_disk_says_it_cannot_save_and_changes_nothing(
    w: World, simcord_env: simcord.Env, db_path: Path
) -> None:
    await open_lobby(w, w.alice, [])
    bot = simcord_env.bot
    assert isinstance(bot, AnimaBot)
    await bot.storage.fetchone("VACUUM")  # no free page left: the next new page is refused
    pages = (await bot.storage.fetchone("PRAGMA page_count"))[0]
    await bot.storage.fetchone(f"PRAGMA max_page_count = {pages}")
    # New lobbies in new channels until one needs a new page.
    said = None
    for i in range(200):
        channel = w.guild.create_text_channel(f"more-{i}")
        r = await w.carol.slash(channel, "anima start")
        assert r.response is not None
        if not r.response.embeds:
            said = r.response.content
            break
    assert said == say(CANNOT_SAVE), said
    assert said != ERROR_TEXT
    bot.errors.clear()  # the cause is logged (anima.storage); nothing reached the user

    # With room again, the channel opens its lobby.
    await bot.storage.fetchone("PRAGMA max_page_count = 1073741823")
    r = await w.carol.slash(channel, "anima start")
    assert r.response is not None and r.response.embeds


async def test_every_lobby_write_refused_says_it_cannot_save_and_changes_nothing(
    w: World, simcord_env: simcord.Env, database: TestDatabase, monkeypatch: pytest.MonkeyPatch
) -> None:
    bot = simcord_env.bot
    assert isinstance(bot, AnimaBot)
    game_id, lobby = await open_lobby(w, w.alice, [w.bob])
    before = stored(database, game_id)

    async def full(*args: Any) -> None:
        raise StorageUnavailable("OperationalError: database or disk is full")

    # Every write of the storage is one transaction: each is refused as on a full disk.
    monkeypatch.setattr(bot.storage, "transaction", full)
    said = []
    for member, what in ((w.carol, "join"), (w.bob, "leave"), (w.alice, "cancel")):
        r = await member.click(lobby, custom_id=f"anima:lobby:{game_id}:{what}")
        said.append(private_reply(r))
    for what, value in (("timer", "120"), ("timer", "language:es"), ("rules", "O1")):
        r = await w.alice.select(lobby, [value], custom_id=f"anima:lobby:{game_id}:{what}")
        said.append(private_reply(r))
    r = await w.alice.click(lobby, custom_id=f"anima:lobby:{game_id}:ai")
    assert r.response is not None
    r = await w.alice.click(r.response.message, custom_id=f"anima:lobby:{game_id}:ai:normal")
    said.append(r.response.content if r.response else None)  # the picker says it
    r = await w.alice.click(lobby, custom_id=f"anima:lobby:{game_id}:start")
    said.append(private_reply(r))
    assert said == [say(CANNOT_SAVE)] * len(said)
    after = stored(database, game_id)
    assert after.status == "lobby" and after.seats == before.seats
    assert after.options == before.options and after.version == before.version

    # The same lobby goes on once the database takes writes again.
    monkeypatch.undo()
    r = await w.alice.click(lobby, custom_id=f"anima:lobby:{game_id}:start")
    assert private_reply(r) is None
    assert stored(database, game_id).status == "running"


async def test_a_lobby_whose_message_cannot_be_recorded_is_closed_and_says_so(
    w: World, simcord_env: simcord.Env, database: TestDatabase, monkeypatch: pytest.MonkeyPatch
) -> None:
    bot = simcord_env.bot
    assert isinstance(bot, AnimaBot)
    update = bot.storage.update_game

    async def refused(game_id: int, **fields: Any) -> None:
        if "lobby_message_id" in fields:
            raise StorageUnavailable("OperationalError: database or disk is full")
        await update(game_id, **fields)

    monkeypatch.setattr(bot.storage, "update_game", refused)
    r = await w.alice.slash(w.table, "anima start")
    assert r.response is not None
    shown = message_by_id(w.table, r.response.message.id)
    assert shown.content == say(CANNOT_SAVE) and not shown.embeds and not shown.components
    assert stored(database, 1).status == "cancelled"  # the channel is free at once
    monkeypatch.undo()
    r = await w.alice.slash(w.table, "anima start")
    assert r.response is not None and r.response.embeds
