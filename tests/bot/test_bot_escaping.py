"""User text is escaped wherever the bot shows it: members' names over a whole game, and
hostile nicknames in every message the bot sends."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import discord
import simcord
from anima_sim import (
    Driver,
    World,
    start_game,
    stored,
)
from posting_checks import sent_payloads

from bot.storage import GuildSettings

#: Nicknames that would be markdown, a masked link, a ping or a mention if echoed as typed.
HOSTILE = ["[Free Nitro](https://evil.example)", "@everyone", "**bold**", "`tick`", "<@123>"]


#: What each looks like when it was echoed unescaped.
UNESCAPED = [
    r"(?<!\\)\[Free Nitro\]",
    r"@everyone",
    r"(?<!\\)\*\*bold",
    r"(?<!\\)`tick",
    r"(?<!\\)<@123>",
]


def rendered_texts(payload: Any) -> list[str]:
    """The parts of a message payload that Discord renders as markdown: its content, and
    its embeds' titles, descriptions, field names and values (not button labels, select
    options or footers, which Discord shows as plain text)."""
    if not isinstance(payload, dict):
        return []
    if isinstance(payload.get("data"), dict):  # an interaction callback
        payload = payload["data"]
    texts = [payload["content"]] if isinstance(payload.get("content"), str) else []
    for e in payload.get("embeds") or []:
        texts += [e.get("title") or "", e.get("description") or ""]
        texts += [x for f in e.get("fields") or [] for x in (f.get("name"), f.get("value"))]
    return texts


def sent_texts(env: simcord.Env) -> list[str]:
    """Every markdown text of every message the bot sent or edited (channel, DMs, answers
    to interactions, ephemeral panels), from the REST calls it made."""
    return [text for payload in sent_payloads(env) for text in rendered_texts(payload)]


async def test_hostile_nicknames_are_escaped_in_every_message(
    simcord_env: simcord.Env, db_path: Path
) -> None:
    env = simcord_env
    guild = env.create_guild("Anima Test")
    table = guild.create_text_channel("table")
    members = [
        guild.add_member(env.create_user(f"user{i}"), nick=name) for i, name in enumerate(HOSTILE)
    ]
    storage = env.bot.storage  # type: ignore[attr-defined]
    await storage.save_guild_settings(GuildSettings(guild.id, 60, 30, True, 3))
    w = World(env, guild, table, *members[:4], members[4])
    game_id = await start_game(w, members[0], members[1:], ai=0, turns=2)
    assert [s.name for s in stored(db_path, game_id).seats.values()] == HOSTILE
    players = {m.id: m for m in members}
    # The players attack and offer trades whenever they can: choices that name a player.
    driver = Driver(
        w, db_path, game_id, players, seed=5, prefer=lambda c: c.startswith(("attack", "offer"))
    )
    # Half the game by the players, one decision left to its timer (the table is told whose
    # time ran out and what was chosen), the rest by the players.
    await driver.until(lambda st, prompts: st.game.s.turn >= 2)
    await env.advance_time(61)
    await members[0].slash(table, "anima log")
    # Typed text is echoed back escaped too.
    await members[0].slash(table, "anima play", card="**bold** <@123>")
    await members[1].slash(table, "anima card", name="[Free Nitro](https://evil.example)")
    await members[2].slash(table, "anima rules", topic="`tick` @everyone")
    for m in members:
        await m.slash(table, "anima hand")
    await driver.play()
    await members[1].slash(table, "anima stats")
    await members[1].slash(table, "anima log")
    await members[1].slash(table, "anima history")
    texts = sent_texts(env)
    assert any("Free Nitro" in t for t in texts) and any("bold" in t for t in texts)
    assert any("ran out of time" in t for t in texts)
    assert any("You chose: **Attack" in t or "You chose: **Offer" in t for t in texts)
    for t in texts:
        for pattern in UNESCAPED:
            assert not re.search(pattern, t), (pattern, t)


def shown_texts(m: discord.Message) -> list[str]:
    """The parts of a message Discord renders as markdown."""
    parts = [m.content or ""]
    for e in m.embeds:
        parts += [e.title or "", e.description or ""]
        parts += [x for f in e.fields for x in (f.name or "", f.value or "")]
    return parts


HOSTILE_NAMES = ["[Free Nitro](https://evil.example)", "**Boldy**", "@everyone"]


async def test_hostile_names_are_escaped_over_a_whole_game(
    simcord_env: simcord.Env, db_path: Path
) -> None:
    guild = simcord_env.create_guild("Anima Test")
    table = guild.create_text_channel("table")
    members = [
        guild.add_member(simcord_env.create_user(f"user{i}", global_name=name))
        for i, name in enumerate(HOSTILE_NAMES)
    ]
    dave = guild.add_member(simcord_env.create_user("dave"))
    w = World(simcord_env, guild, table, *members, dave, dave)
    game_id = await start_game(w, w.alice, [w.bob, w.carol], ai=0, turns=2)
    assert [s.name for s in stored(db_path, game_id).seats.values()] == HOSTILE_NAMES
    await Driver(w, db_path, game_id, {m.id: m for m in members}, seed=3).play()
    r = await w.dave.slash(w.table, "anima stats")
    messages = [*w.table.history(viewer=w.dave), r.response.message]
    shown = [t for m in messages for t in shown_texts(m)]
    assert any("Free Nitro" in t for t in shown) and any("Boldy" in t for t in shown)
    for t in shown:
        assert not re.search(r"(?<!\\)\[Free Nitro\]", t), t  # no masked link
        assert not re.search(r"(?<!\\)\*\*Boldy", t), t  # no bold from a name
        assert "@everyone" not in t, t  # no ping (escaped with a zero-width space)
