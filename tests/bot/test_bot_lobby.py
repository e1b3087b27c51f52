"""The lobby: join, leave, AI seats, options, start and cancel; one game per channel; a game
in a thread started from the lobby message."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import discord
import simcord
from anima_sim import (
    Driver,
    World,
    add_ai,
    board,
    components,
    message_by_id,
    open_lobby,
    private_reply,
    stored,
)
from anima_sim import board as current_board

from bot.storage import GameRow
from words import msg, say


def ai_levels(db_path: Path, game_id: int) -> list[str | None]:
    """The stored level of each seat, in seat order (None: a member's seat)."""
    with sqlite3.connect(db_path) as db:
        rows = db.execute(
            "SELECT ai_level FROM seats WHERE game_id = ? ORDER BY position", (game_id,)
        )
        return [r[0] for r in rows]


def seats_field(message: discord.Message) -> str:
    return next(f.value for f in message.embeds[0].fields if f.name.startswith("Seats"))


def lobby_now(w: World, lobby: discord.Message) -> discord.Message:
    return message_by_id(w.table, lobby.id)


async def test_join_leave_add_ai_options_and_start(w: World, db_path: Path) -> None:
    r = await w.alice.slash(w.table, "anima start")
    assert not r.ephemeral
    lobby = r.response.message
    game_id = stored(db_path, 1).id
    ids = {c.custom_id for c in components(lobby)}
    assert {f"anima:lobby:{game_id}:{x}" for x in ("join", "leave", "ai", "start", "cancel")} <= ids
    assert {f"anima:lobby:{game_id}:{x}" for x in ("sets", "rules", "edition", "timer")} <= ids
    assert "1. alice (host)" in seats_field(lobby)

    async def click(member: simcord.MemberActor, what: str) -> str | None:
        """What the clicker is told privately: only a refusal (None: the lobby shows it)."""
        result = await member.click(lobby, custom_id=f"anima:lobby:{game_id}:{what}")
        assert result.acknowledged
        return private_reply(result)

    assert "at least 2 seats" in (await click(w.alice, "start") or "")
    assert await click(w.bob, "join") is None
    assert "2. bob" in seats_field(lobby_now(w, lobby))
    assert await click(w.bob, "join") == "You have already joined."
    assert "Only the host" in (await click(w.bob, "ai") or "")
    assert await click(w.carol, "leave") == "You are not in this lobby."
    assert await click(w.bob, "leave") is None
    assert "bob" not in seats_field(lobby_now(w, lobby))
    # "Add AI player": the host picks the level in a private picker that stays open.
    r = await w.alice.click(lobby, custom_id=f"anima:lobby:{game_id}:ai")
    assert r.ephemeral and "pick its level" in str(r.response.content)
    picker = r.response.message
    levels = {c.custom_id for c in components(picker)}
    assert levels == {f"anima:lobby:{game_id}:ai:{x}" for x in ("random", "normal", "hard")}
    for level in ("random", "normal", "hard"):
        r = await w.alice.click(picker, custom_id=f"anima:lobby:{game_id}:ai:{level}")
        assert r.acknowledged
    await add_ai(w.alice, lobby, game_id, "normal")
    seats = seats_field(lobby_now(w, lobby))
    assert "2. 🤖 AI 1 · random" in seats
    assert "3. 🤖 AI 2 · normal" in seats
    assert "4. 🤖 AI 3 · hard" in seats
    assert "5. 🤖 AI 4 · normal" in seats
    assert ai_levels(db_path, game_id) == [
        None,
        "random",
        "normal",
        "hard",
        "normal",
    ]
    assert "full" in (await click(w.bob, "join") or "")
    assert "full" in (await click(w.alice, "ai") or "")
    r = await w.alice.click(picker, custom_id=f"anima:lobby:{game_id}:ai:normal")
    assert "full" in str(r.response.content if r.response else private_reply(r))

    # Options: only the host; the embed and the selects follow.
    r = await w.bob.select(lobby, ["O2"], custom_id=f"anima:lobby:{game_id}:rules")
    assert "Only the host" in (private_reply(r) or "")
    await w.alice.select(lobby, ["O1", "O3"], custom_id=f"anima:lobby:{game_id}:rules")
    await w.alice.select(lobby, ["V2", "V3", "V4"], custom_id=f"anima:lobby:{game_id}:edition")
    r = await w.alice.select(lobby, ["120"], custom_id=f"anima:lobby:{game_id}:timer")
    assert r.acknowledged and private_reply(r) is None
    fields = {f.name: f.value for f in lobby_now(w, lobby).embeds[0].fields}
    # The lobby names the options; their codes (rule IDs) are for the rules' help texts.
    assert fields["Optional rules"] == "Tree of Regions, Open rolls"
    assert "O1" not in fields["Optional rules"]
    assert "Ties stand (BGE)" in fields["Edition options"]
    assert "Tree of Regions: BGE reading" in fields["Edition options"]
    assert fields["Decision timer"] == "2 min"
    options = stored(db_path, game_id).options
    assert options["tree_of_regions"] == "bge" and options["open_rolls"]
    assert options["party_tie"] == "stands" and not options["crisis"]
    assert not options["both_missions"]
    selected = {
        o.value
        for row in lobby_now(w, lobby).components
        for child in row.children
        for o in getattr(child, "options", [])
        if o.default
    }
    assert selected == {"shadow_of_omega", "O1", "O3", "V2", "V3", "V4", "120"}

    assert "Only the host" in (await click(w.bob, "start") or "")
    assert await click(w.alice, "start") is None
    st = stored(db_path, game_id)
    assert st.status == "running" and len(st.seats) == 5
    assert all(s.ai for s in st.seats.values() if s.user_id is None)
    game = st.game
    assert game.s.options.tree_of_regions == "bge" and not game.s.options.crisis
    # Every AI chose its start at once; alice is the only one deciding.
    assert [p.player for p in game.pending()] == ["p1"]
    closed = lobby_now(w, lobby)
    assert "has started" in closed.embeds[0].description and not closed.components


async def test_one_game_per_channel_and_cancel(w: World, db_path: Path) -> None:
    game_id, lobby = await open_lobby(w, w.alice, [w.bob])
    r = await w.carol.slash(w.table, "anima start")
    assert r.ephemeral and "already a game in this channel" in r.response.content
    assert f"/{lobby.id}" in r.response.content  # a link to the lobby

    # Another channel is free.
    other = w.guild.create_text_channel("other")
    r = await w.carol.slash(other, "anima start")
    assert not r.ephemeral

    r = await w.bob.click(lobby, custom_id=f"anima:lobby:{game_id}:cancel")
    assert "Only the host" in (private_reply(r) or "")
    r = await w.admin.click(lobby, custom_id=f"anima:lobby:{game_id}:cancel")
    assert private_reply(r) is None
    closed = lobby_now(w, lobby)
    assert "cancelled" in closed.embeds[0].description and not closed.components
    assert stored(db_path, game_id).status == "cancelled"
    r = await w.bob.slash(w.table, "anima start")
    assert not r.ephemeral


async def test_host_leaving_passes_the_lobby_on(w: World, db_path: Path) -> None:
    game_id, lobby = await open_lobby(w, w.alice, [w.bob])
    await w.alice.click(lobby, custom_id=f"anima:lobby:{game_id}:leave")
    assert "1. bob (host)" in seats_field(lobby_now(w, lobby))
    r = await w.bob.click(lobby, custom_id=f"anima:lobby:{game_id}:leave")
    assert private_reply(r) is None
    assert "Everybody left" in lobby_now(w, lobby).embeds[0].description
    assert stored(db_path, game_id).status == "cancelled"


async def test_running_game_blocks_a_new_lobby(w: World, db_path: Path) -> None:
    game_id, lobby = await open_lobby(w, w.alice, [w.bob])
    await w.alice.click(lobby, custom_id=f"anima:lobby:{game_id}:start")
    board_id = board(w.table, db_path, game_id).id
    r = await w.carol.slash(w.table, "anima start")
    assert r.ephemeral and "a game is running" in r.response.content
    assert f"/{board_id}" in r.response.content


async def test_a_game_in_a_thread_from_the_lobby_message(
    w: World, simcord_env: simcord.Env, db_path: Path
) -> None:
    """SimCord creates the thread through the API (POST .../messages/{id}/threads), as
    Discord does: no thread prepared by the harness."""
    r = await w.alice.slash(w.table, "anima start", turns=2, thread=True)
    lobby = r.response.message
    game_id = stored(db_path, 1).id
    fields = {f.name: f.value for f in lobby.embeds[0].fields}
    assert "thread" in fields["Where"]
    await w.bob.click(lobby, custom_id=f"anima:lobby:{game_id}:join")
    await w.alice.click(lobby, custom_id=f"anima:lobby:{game_id}:start")

    (thread,) = w.table.threads
    row: GameRow | None = await simcord_env.bot.storage.game(game_id)  # type: ignore[attr-defined]
    assert row is not None and row.channel_id == thread.id and row.status == "running"
    closed = message_by_id(w.table, lobby.id)
    assert f"<#{thread.id}>" in (closed.embeds[0].description or "")
    # The board and every line of the game are in the thread; the channel stays clean.
    board = current_board(thread, db_path, game_id)
    assert {"Choose my start", "My hand"} <= {c.label for c in components(board)}
    in_channel = len(w.table.history())
    # Commands and buttons work in the thread; the channel is free for another lobby.
    r = await w.bob.slash(thread, "anima hand")
    assert r.ephemeral and r.response.embeds[0].title == f"Your hand · game #{game_id}"
    players = {w.alice.id: w.alice, w.bob.id: w.bob}
    final = await Driver(w, db_path, game_id, players, seed=2, channel=thread).play()
    assert final.status == "over"
    assert len(w.table.history()) == in_channel
    assert any(m.embeds and m.embeds[0].title.endswith("is over") for m in thread.history())
    r = await w.carol.slash(w.table, "anima start")
    assert not r.ephemeral


async def test_a_non_hosts_start_cancel_and_timer_get_a_private_refusal_and_change_nothing(
    w: World, db_path: Path
) -> None:
    """Issue 24, fault 10: the click's own answer is the refusal, privately (not a silent
    acknowledgement), and the lobby stays as it was."""
    game_id, lobby = await open_lobby(w, w.alice, [w.bob], ai=1)
    before = stored(db_path, game_id)
    shown = lobby_now(w, lobby)
    for member in (w.bob, w.carol):  # a seated member, and one not in the lobby
        for what in ("start", "cancel"):
            r = await member.click(lobby, custom_id=f"anima:lobby:{game_id}:{what}")
            assert r.ephemeral and r.response is not None
            assert r.response.content == say(msg(f"lobby.host_only.{what}"))
        r = await member.select(lobby, ["120"], custom_id=f"anima:lobby:{game_id}:timer")
        assert r.ephemeral and r.response is not None
        assert r.response.content == say(msg("lobby.host_only.options"))
    after = stored(db_path, game_id)
    assert (after.status, after.options, after.seats) == ("lobby", before.options, before.seats)
    now = lobby_now(w, lobby)
    assert now.embeds[0].to_dict() == shown.embeds[0].to_dict()
    assert components(now) == components(shown)
