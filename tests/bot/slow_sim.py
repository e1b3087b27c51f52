"""Helpers of the slow-pace tests (issue 26): a slow game's set-up, its seats' pending pings as
stored, and the pings each member received (DMs and channel mentions, with their times)."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import simcord
from anima_sim import Db, World, start_game
from databases import connect

#: The bot's timer loop looks for due deadlines this often in these tests (seconds): a slow
#: game's timers are hours long, and SimCord wakes the loop at every tick it jumps over.
TICK = 1800
HOUR = 3600
#: A ping's marks (bot.slow): its decision opened, half time, "you are next", time ran out.
OPEN, HALF, NEXT, MISSED = "🔔", "⏰", "👀", "⌛"
MARKS = (OPEN, HALF, NEXT, MISSED)


@dataclass
class Ping:
    """A ping a member received: its kind (a mark), when, and the deadline it names."""

    kind: str
    at: float
    deadline: int | None
    dm: bool


def slow_seats(db: Db, game_id: int) -> dict[str, dict[str, Any]]:
    """Each seat's timers and pending slow-game bookkeeping, as stored."""
    with connect(db) as c:
        rows = c.execute(
            "SELECT seat, deadline, half_at, pinged, slow_json, ai, timeouts FROM seats "
            "WHERE game_id = ? ORDER BY position",
            (game_id,),
        ).fetchall()
    return {
        r[0]: {
            "deadline": r[1],
            "half_at": r[2],
            "pinged": bool(r[3]),
            "slow": json.loads(r[4]) if r[4] else {},
            "ai": bool(r[5]),
            "timeouts": r[6],
        }
        for r in rows
    }


def pings(env: simcord.Env, user_id: int, game_id: int) -> list[Ping]:
    """Every ping of game ``game_id`` ``user_id`` received: the bot's DMs marked as pings, and
    the channel messages that notified him (their ``ping_user_ids``)."""
    found = []
    backend = env.backend
    dm = backend.dm_channels.get(user_id)
    for channel_id, messages in backend.messages.items():
        for m in messages.values():
            at = datetime.fromisoformat(m.timestamp).timestamp()
            due = re.search(r"<t:(\d+)", m.content)
            deadline = int(due[1]) if due else None
            if channel_id == dm:
                for mark in MARKS:
                    if m.content.startswith(mark) and f"#{game_id}" in m.content:
                        found.append(Ping(mark, at, deadline, True))
            elif user_id in m.ping_user_ids:
                # The lines that name him (a board message's lines are in its components).
                lines = [
                    line
                    for line in "\n".join([m.content, *_texts(m.components)]).splitlines()
                    if f"<@{user_id}>" in line
                ]
                for line in lines or [""]:
                    mark = next((k for k in MARKS if line.startswith(k)), "")
                    due = re.search(r"<t:(\d+)", line)
                    found.append(Ping(mark, at, int(due[1]) if due else None, False))
    return sorted(found, key=lambda p: p.at)


async def slow_game(w: World, quiet: dict[simcord.MemberActor, tuple[str, str]]) -> int:
    """The server's pace set to slow (12 h decisions, 1 h windows, a vote after 3 time-outs),
    each member of ``quiet`` with his quiet hours and time zone; a game of alice, bob and carol
    started at the server's default pace."""
    r = await w.admin.slash(
        w.table, "anima settings", pace="slow", slow_timer=12, slow_window=60, ai_takeover=3
    )
    fields = {f.name: f.value for f in r.response.embeds[0].fields}
    assert (
        fields["Pace of new lobbies"] == "slow: 12 hours per decision, reaction windows 1 hour"
    ), fields
    for member, (hours, zone) in quiet.items():
        r = await member.slash(w.table, "anima settings", quiet_hours=hours, timezone=zone)
        fields = {f.name: f.value for f in r.response.embeds[0].fields}
        assert zone in fields["Your quiet hours (only you see them)"]
    return await start_game(w, w.alice, [w.bob, w.carol], ai=0, turns=2)


async def advance(env: simcord.Env, seconds: float) -> None:
    """Move the virtual clock on by ``seconds``, a few hours at a time (SimCord gives each
    move 5 s of real time to settle, and the bot's timer loop wakes at every tick)."""
    step = 4 * HOUR
    while seconds > 0:
        await env.advance_time(min(step, seconds))
        seconds -= step


#: The paces the restart tests run at (issue 26: slow games survive restarts like live ones).
PACES = ["live", "slow"]


async def set_pace(w: World, pace: str, **settings: Any) -> None:
    """The server's default pace for new lobbies (and any other ``settings``), set by its
    admin."""
    r = await w.admin.slash(w.table, "anima settings", pace=pace, **settings)
    assert r.ephemeral and r.response.embeds, r.response.content


def _texts(components: Any) -> list[str]:
    """Every text of a message's components (stored as Discord's JSON)."""
    if isinstance(components, list):
        return [t for c in components for t in _texts(c)]
    if isinstance(components, dict):
        own = [components["content"]] if isinstance(components.get("content"), str) else []
        return own + [t for v in components.values() for t in _texts(v)]
    return []
