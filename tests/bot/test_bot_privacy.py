"""``/anima privacy`` (issue 25): what the bot keeps about a member, shown to him alone, and
deleted on his request: settings, auto-pass and stats deleted, his seats in finished games
anonymous ("a former member") with their records whole, a running game's or an open lobby's
seat left alone until it ends (across a restart too), nothing of another member touched."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import discord
import pytest
import simcord
from anima_sim import Driver, World, drive_new_game, open_lobby, private_reply, stored
from databases import TestDatabase, connect

from bot.app import AnimaBot
from bot.components.privacy import confirm_view, delete_view
from bot.storage import ANONYMOUS

pytestmark = pytest.mark.both_backends

#: The member who deletes his data: a name found nowhere else (cards, rules, events).
NAME = "quillonzed"


def member(w: World) -> simcord.MemberActor:
    return w.guild.add_member(w.env.create_user(NAME))


async def finished_game(w: World, database: TestDatabase) -> tuple[simcord.MemberActor, int]:
    """The member (:data:`NAME`) and a game he hosted and played to its end with alice and an
    AI player."""
    zed = member(w)
    game_id, driver = await drive_new_game(w, database, [zed, w.alice], ai=1, turns=2)
    await driver.play()
    return zed, game_id


def traces(database: TestDatabase, user_id: int, name: str) -> list[str]:
    """Every column of every table whose text holds the member's id or name."""
    with connect(database) as db:
        if database.kind == "sqlite":
            listed = "SELECT name FROM sqlite_master WHERE type = 'table'"
        else:
            listed = (
                "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'"
            )
        tables = [r[0] for r in db.execute(listed).fetchall()]
        assert "seats" in tables and "member_deletions" in tables
        hits = []
        for table in tables:
            cursor = db.execute(f"SELECT * FROM {table}")
            columns = [d[0] for d in cursor.description]
            for row in cursor.fetchall():
                for column, value in zip(columns, row, strict=True):
                    text = str(value)
                    if str(user_id) in text or name.lower() in text.lower():
                        hits.append(f"{table}.{column}: {text[:60]}")
    return hits


def rows(database: TestDatabase, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    with connect(database) as db:
        return [tuple(r) for r in db.execute(sql, params).fetchall()]


def fields(result: Any) -> dict[str, str]:
    embed = result.response.embeds[0]
    return {f.name: f.value for f in embed.fields}


async def delete(w: World, actor: simcord.MemberActor) -> simcord.InteractionResult:
    """``/anima privacy``, **Delete my data**, **Delete for good**: the last answer."""
    r = await actor.slash(w.table, "anima privacy")
    assert r.ephemeral, private_reply(r)
    asked = await actor.click(r.response, custom_id=f"anima:privacy:{actor.id}:ask")
    assert "Delete your data for good?" in asked.response.content
    return await actor.click(asked.response, custom_id=f"anima:privacy:{actor.id}:yes")


async def history(w: World, game_id: int) -> dict[str, str]:
    r = await w.dave.slash(w.table, "anima history", game=game_id)
    return {a.filename: (await a.read()).decode() for a in r.response.attachments}


async def test_privacy_lists_the_members_own_data_in_his_language(
    w: World, database: TestDatabase
) -> None:
    zed, game_id = await finished_game(w, database)
    await zed.slash(w.table, "anima settings", language="es", auto_battles=True)
    other = w.env.create_guild("Other")
    elsewhere = other.create_text_channel("mesa")
    await other.add_member(zed.user).slash(elsewhere, "anima settings", auto_reset=True)

    r = await zed.slash(w.table, "anima privacy")
    assert r.ephemeral
    assert r.response.embeds[0].title == "Lo que guardo sobre ti"
    listed = fields(r)
    seats = "Tus puestos en partidas terminadas (tu nombre y tu id de usuario)"
    assert listed[seats] == "Este servidor: **1** · otros servidores: **0**"
    assert listed["Tus estadísticas (`/anima stats`)"] == listed[seats]
    autopass = listed["Tu paso automático"]
    assert autopass.startswith("Este servidor: **1** · otros servidores: **1**\nAquí: ")
    assert listed["Tu idioma"].startswith("Elegido: **Español**")
    assert "Mensajes directos" not in listed  # his DMs were never refused
    assert [c["custom_id"] for c in r.response.components[0]["components"]] == [
        f"anima:privacy:{zed.id}:ask"
    ]

    # Its confirmation speaks his language too; changing his mind deletes nothing.
    asked = await zed.click(r.response, custom_id=f"anima:privacy:{zed.id}:ask")
    assert asked.response.content.startswith("⚠️ ¿Borrar tus datos para siempre?")
    kept = await zed.click(asked.response, custom_id=f"anima:privacy:{zed.id}:no")
    assert kept.response.content == "No se ha borrado nada."

    # Another member sees his own data only: no seat, no stats of zed's.
    r = await w.dave.slash(w.table, "anima privacy")
    listed = fields(r)
    assert list(listed) == ["Your language"], listed
    assert f"anima:privacy:{w.dave.id}:ask" in str(r.response.components)
    assert stored(database, game_id).seat_of(zed.id).name == NAME  # only shown, not changed


async def test_deleting_with_finished_games_leaves_anonymous_seats_and_no_trace(
    w: World, database: TestDatabase
) -> None:
    zed, game_id = await finished_game(w, database)
    await zed.slash(w.table, "anima settings", auto_battles=True)
    before = await history(w, game_id)
    stats_before = rows(database, "SELECT guild_id, user_key, name, wins, games FROM player_stats")
    assert traces(database, zed.id, NAME)

    done = await delete(w, zed)
    assert done.response.content.startswith("🗑️ Your data is deleted")
    assert "still sit in" not in done.response.content
    assert traces(database, zed.id, NAME) == []

    # His seat is anonymous; alice's, her stats and the AI's are as they were.
    seats = {s.seat: s for s in stored(database, game_id).seats.values()}
    mine = next(s for s in seats.values() if s.user_id == ANONYMOUS)
    assert mine.name == "" and not mine.ai
    assert any(s.user_id == w.alice.id and s.name == "alice" for s in seats.values())
    assert rows(database, "SELECT host_id FROM games WHERE id = ?", (game_id,)) == [(ANONYMOUS,)]
    result = rows(database, "SELECT user_id, name FROM results WHERE seat = ?", (mine.seat,))
    assert result == [(ANONYMOUS, "")]
    assert rows(database, "SELECT guild_id, user_key, name, wins, games FROM player_stats") == [
        s for s in stats_before if s[1] != zed.id
    ]

    # The game's records stay whole: the replay is the same, the log says "a former member".
    after = await history(w, game_id)
    replay = f"anima-game-{game_id}-replay.json"
    assert json.loads(after[replay]) == json.loads(before[replay])
    log = f"anima-game-{game_id}.md"
    assert NAME in before[log] and NAME not in after[log]
    assert after[log] == before[log].replace(NAME, "a former member")
    r = await w.dave.slash(w.table, "anima log")
    assert NAME not in str(r.response.embeds[0].to_dict())

    # Asking again is harmless; he plays again as a new person.
    again = await delete(w, zed)
    assert again.response.content.startswith("🗑️ Your data is deleted")
    assert mine in stored(database, game_id).seats.values()
    new_game, _lobby = await open_lobby(w, zed, [w.alice])
    r = await zed.slash(w.table, "anima privacy")
    assert fields(r)["Your seats in running games and open lobbies"] == (
        "This server: **1** · other servers: **0**"
    )
    assert "Your seats in finished games (your name and user id)" not in fields(r)
    assert new_game > game_id


async def test_deleting_during_a_game_waits_for_its_end_across_a_restart(
    w: World,
    simcord_env: simcord.Env,
    database: TestDatabase,
    make_bot: Callable[..., AnimaBot],
) -> None:
    zed = member(w)
    await zed.slash(w.table, "anima settings", auto_battles=True)
    game_id, driver = await drive_new_game(w, database, [zed, w.alice], ai=1, turns=2)
    await driver.step()

    done = await delete(w, zed)
    assert "You still sit in 1 game or lobby" in done.response.content
    # The running game is not touched: his seat, his name; his settings are gone.
    st = stored(database, game_id)
    assert st.status == "running" and st.seat_of(zed.id).name == NAME
    assert rows(database, "SELECT user_id, game_id FROM member_deletions") == [(zed.id, game_id)]
    assert rows(database, "SELECT * FROM autopass WHERE user_id = ?", (zed.id,)) == []
    assert rows(database, "SELECT * FROM member_settings WHERE user_id = ?", (zed.id,)) == []
    r = await zed.slash(w.table, "anima privacy")
    assert fields(r)["Deletion waiting"] == "Your deletion waits for 1 game to end."

    await simcord_env.restart_bot(make_bot())
    final = await Driver(w, database, game_id, driver.players, seed=3).play()
    assert final.status == "over"
    assert rows(database, "SELECT * FROM member_deletions") == []
    # He went on playing after his deletion: the bot knows his Discord locale again, as a
    # new player's (for his DMs); nothing else of him is left.
    assert traces(database, zed.id, NAME) == [f"member_settings.user_id: {zed.id}"]
    assert rows(database, "SELECT language FROM member_settings WHERE user_id = ?", (zed.id,)) == [
        (None,)
    ]
    assert [s.user_id for s in stored(database, game_id).seats.values()].count(ANONYMOUS) == 1
    # His game was counted at its end, then taken off; alice's stays.
    stats = rows(database, "SELECT user_key, games FROM player_stats WHERE user_key <> -1")
    assert stats == [(w.alice.id, 1)]
    # The game was rated (two members): alice and the AI level are, and nothing is kept of
    # him, neither under his id nor as a former member's rating.
    rated = rows(database, "SELECT user_id, ai_level FROM ratings ORDER BY user_id")
    assert [r[0] for r in rated] == [0, w.alice.id] and rated[0][1] != ""
    assert "a former member" in (await history(w, game_id))[f"anima-game-{game_id}.md"]


async def test_a_lobby_left_open_is_anonymised_when_it_closes(
    w: World, database: TestDatabase
) -> None:
    zed = member(w)
    lobby_id, _lobby = await open_lobby(w, w.alice, [zed])
    done = await delete(w, zed)
    assert "You still sit in 1 game or lobby" in done.response.content
    assert rows(database, "SELECT name FROM seats WHERE user_id = ?", (zed.id,)) == [(NAME,)]
    r = await w.alice.slash(w.table, "anima end")
    await w.alice.click(r.response, custom_id=f"anima:end:{lobby_id}:yes")
    assert rows(database, "SELECT status FROM games WHERE id = ?", (lobby_id,)) == [("ended",)]
    assert traces(database, zed.id, NAME) == []


async def test_a_deletion_due_while_the_bot_was_away_is_applied_at_start(
    w: World,
    simcord_env: simcord.Env,
    database: TestDatabase,
    make_bot: Callable[..., AnimaBot],
) -> None:
    zed, game_id = await finished_game(w, database)
    # As if the bot had stopped between the game's end and applying the deletion.
    with connect(database) as db:
        db.execute(
            "INSERT INTO member_deletions (user_id, game_id, at) VALUES (?, ?, 0)",
            (zed.id, game_id),
        )
    await simcord_env.restart_bot(make_bot())
    assert rows(database, "SELECT * FROM member_deletions") == []
    users = [s.user_id for s in stored(database, game_id).seats.values()]
    assert sorted(users, key=str) == sorted([ANONYMOUS, w.alice.id, None], key=str)
    # His settings were never deleted here (no request of his went through the bot).
    assert [t for t in traces(database, zed.id, NAME) if not t.startswith("member_settings.")] == []


async def test_a_stranger_cannot_click_another_members_privacy_buttons(
    w: World, simcord_env: simcord.Env, database: TestDatabase
) -> None:
    await w.alice.slash(w.table, "anima settings", auto_battles=True)
    # Her answer is private: Discord lets nobody else click it. Her buttons where anybody
    # could (a message of the bot's in the channel) are refused to another member all the same.
    channel = simcord_env.bot.get_channel(w.table.id)
    assert isinstance(channel, discord.TextChannel)
    for view in (delete_view(w.alice.id), confirm_view(w.alice.id)):
        posted = await channel.send("-", view=view)
        for c in posted.components[0].children:  # type: ignore[union-attr]
            clicked = await w.dave.click(posted, custom_id=c.custom_id)
            assert private_reply(clicked) == (
                "These buttons belong to the member who asked. Use `/anima privacy` for your "
                "own data."
            )
    assert rows(database, "SELECT kinds FROM autopass WHERE user_id = ?", (w.alice.id,)) != []
    # Changing one's mind deletes nothing.
    r = await w.alice.slash(w.table, "anima privacy")
    asked = await w.alice.click(r.response, custom_id=f"anima:privacy:{w.alice.id}:ask")
    kept = await w.alice.click(asked.response, custom_id=f"anima:privacy:{w.alice.id}:no")
    assert kept.response.content == "Nothing was deleted."
    assert rows(database, "SELECT kinds FROM autopass WHERE user_id = ?", (w.alice.id,)) != []


async def test_his_ping_settings_are_listed_and_deleted(w: World, database: TestDatabase) -> None:
    zed = member(w)
    await zed.slash(w.table, "anima settings", quiet_hours="23-08", timezone="Europe/Rome")
    r = await zed.slash(w.table, "anima privacy")
    pings = fields(r)["Your ping settings"]
    assert "Europe/Rome" in pings and "23" in pings and "❌" in pings, pings
    await delete(w, zed)
    assert rows(database, "SELECT * FROM member_pings WHERE user_id = ?", (zed.id,)) == []
    r = await zed.slash(w.table, "anima privacy")
    assert "Your ping settings" not in fields(r)
