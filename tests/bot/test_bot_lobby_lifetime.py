"""A lobby's life: ``/anima start`` answers before it writes the lobby, a lobby whose message
was never posted (or whose answer failed) or that stays idle is closed, never orphaned; and
Start is refused while the bot lacks the channel permissions a game needs."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import discord
import pytest
import simcord
from anima_sim import (
    World,
    default_options,
    game_ids,
    message_by_id,
    open_lobby,
    stored,
)
from simcord import assert_error

from bot.lobby import UNPOSTED_GRACE


async def test_start_answers_before_it_writes_the_lobby(
    w: World, simcord_env: simcord.Env, db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    storage = simcord_env.bot.storage  # type: ignore[attr-defined]
    real = storage.create_lobby
    answered: list[bool] = []

    async def create_lobby(*args: Any, **kwargs: Any) -> int | None:
        callbacks = [e for e in simcord_env.http_requests if e.path.endswith("/callback")]
        answered.append(bool(callbacks))
        return await real(*args, **kwargs)

    monkeypatch.setattr(storage, "create_lobby", create_lobby)
    r = await w.alice.slash(w.table, "anima start")
    assert not r.ephemeral and r.response is not None
    assert answered == [True]
    assert stored(db_path, 1).lobby_message_id == r.response.message.id


async def test_a_lobby_whose_answer_failed_is_closed_at_once(
    w: World, simcord_env: simcord.Env, db_path: Path
) -> None:
    simcord_env.inject_error("PATCH", "/webhooks/*/messages/@original", status=500)
    await w.alice.slash(w.table, "anima start")
    assert_error(simcord_env, discord.HTTPException)
    assert stored(db_path, 1).status == "cancelled"
    r = await w.bob.slash(w.table, "anima start")
    assert not r.ephemeral and stored(db_path, 2).status == "lobby"


async def test_a_lobby_never_posted_expires(
    w: World, simcord_env: simcord.Env, db_path: Path
) -> None:
    storage = simcord_env.bot.storage  # type: ignore[attr-defined]
    # The bot died between writing the lobby and posting its message.
    t = simcord_env.now().timestamp()
    await storage.create_lobby(w.guild.id, w.table.id, w.alice.id, "alice", default_options(), t)
    r = await w.bob.slash(w.table, "anima start")
    assert r.ephemeral and "already a game" in r.response.content
    await simcord_env.advance_time(UNPOSTED_GRACE)
    r = await w.bob.slash(w.table, "anima start")
    assert not r.ephemeral
    assert stored(db_path, 1).status == "cancelled" and stored(db_path, 2).status == "lobby"


async def test_an_idle_lobby_expires(w: World, simcord_env: simcord.Env, db_path: Path) -> None:
    simcord_env.bot.lobby.idle_after = 120  # type: ignore[attr-defined]
    game_id, lobby = await open_lobby(w, w.alice, [])
    await simcord_env.advance_time(90)
    await w.bob.click(lobby, custom_id=f"anima:lobby:{game_id}:join")  # a change: not idle
    await simcord_env.advance_time(90)
    r = await w.carol.slash(w.table, "anima start")
    assert r.ephemeral and "a lobby is open" in r.response.content
    await simcord_env.advance_time(31)
    r = await w.carol.slash(w.table, "anima start")
    assert not r.ephemeral
    assert stored(db_path, game_id).status == "cancelled"
    old = message_by_id(w.table, lobby.id)
    assert "expired" in (old.embeds[0].description or "") and not old.components


async def test_start_refuses_without_the_bots_permissions(w: World, db_path: Path) -> None:
    me = w.guild.me
    assert me is not None
    quiet = w.guild.create_text_channel(
        "quiet",
        overwrites={me: discord.PermissionOverwrite(send_messages=False, embed_links=False)},
    )
    r = await w.alice.slash(quiet, "anima start")
    assert r.ephemeral
    assert "**Embed Links**, **Send Messages**" in r.response.content, r.response.content
    assert game_ids(db_path) == []  # nothing changed
    # A game in a thread needs the thread permissions too.
    no_threads = w.guild.create_text_channel(
        "no-threads", overwrites={me: discord.PermissionOverwrite(create_public_threads=False)}
    )
    r = await w.alice.slash(no_threads, "anima start", thread=True)
    assert r.ephemeral and "**Create Public Threads**" in r.response.content
    assert "Send Messages" not in r.response.content
    assert game_ids(db_path) == []
    r = await w.alice.slash(no_threads, "anima start")  # played in the channel: fine
    assert not r.ephemeral and game_ids(db_path) == [1]
