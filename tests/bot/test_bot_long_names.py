"""A member's display name of any length (issue 24, fault 7): a 2,000-character name broke
Start (an embed field over 1,024 characters). Names are shortened wherever they are shown:
the lobby, the board, the lines, the pings, the panels, the summary."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import simcord
from anima_sim import Driver, World, start_game, stored
from posting_checks import sent_payloads

from bot.rendering import NAME_LIMIT
from bot.storage import GuildSettings

#: A display name of 2,000 characters, with Markdown in it (escaping makes it longer).
LONG = ("Long*name_" * 200)[:2000]


def payloads(env: simcord.Env) -> list[dict[str, Any]]:
    """Every message the bot sent or edited (an interaction's answer: its message)."""
    return [p["data"] if isinstance(p.get("data"), dict) else p for p in sent_payloads(env)]


def within_discords_limits(payload: dict[str, Any]) -> bool:
    if len(payload.get("content") or "") > 2000:
        return False
    for e in payload.get("embeds") or []:
        fields = e.get("fields") or []
        total = len(e.get("title") or "") + len(e.get("description") or "")
        total += sum(len(f["name"]) + len(f["value"]) for f in fields)
        total += len((e.get("footer") or {}).get("text") or "")
        if (
            len(e.get("title") or "") > 256
            or len(e.get("description") or "") > 4096
            or any(len(f["name"]) > 256 or len(f["value"]) > 1024 for f in fields)
            or total > 6000
        ):
            return False
    return True


async def test_a_two_thousand_character_name_plays_a_whole_game(w: World, db_path: Path) -> None:
    env, guild, table = w.env, w.guild, w.table
    # Four members with such names (a global name, nicknames), and an AI player: the
    # lobby's and the board's fields list them all.
    long_one = guild.add_member(env.create_user("long", global_name=LONG))
    other = guild.add_member(env.create_user("other"), nick=LONG[::-1])
    third = guild.add_member(env.create_user("third"), nick="@" + LONG)
    fourth = guild.add_member(env.create_user("fourth"), nick="`" + LONG)
    storage = env.bot.storage  # type: ignore[attr-defined]
    await storage.save_guild_settings(GuildSettings(guild.id, 60, 30, True, 3))
    w = World(env, guild, table, long_one, other, third, fourth, w.admin)
    game_id = await start_game(w, long_one, [other, third, fourth], ai=1, turns=2)
    assert stored(db_path, game_id).status == "running"
    players = {m.id: m for m in (long_one, other, third, fourth)}
    driver = Driver(w, db_path, game_id, players, seed=4)
    for _ in range(6):
        assert await driver.step()
    await env.advance_time(31)  # a half-time ping
    await env.advance_time(31)  # a time-out, named on the board and in the lines
    for m in players.values():
        await m.slash(table, "anima hand")
    await driver.play()
    sent = payloads(env)
    assert sent and all(within_discords_limits(p) for p in sent)
    shown = json.dumps(sent, ensure_ascii=False)
    assert "Long\\\\*name" in shown  # the name is shown, escaped ...
    assert LONG[: NAME_LIMIT + 10].replace("*", "\\\\*") not in shown  # ... and shortened
