"""The slow pace's settings (issue 26): chosen at the lobby, a member's quiet hours and time
zone (checked, autocompleted), and a ping in the channel for a member without DMs, which waits
for the end of his quiet hours like a DM does."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import simcord
from anima_sim import World, message_by_id, open_lobby, private_reply
from databases import connect
from slow_sim import HALF, HOUR, OPEN, TICK, advance, pings, slow_seats

from bot.app import AnimaBot


async def test_the_host_picks_the_slow_pace_in_the_lobby(w: World, db_path: Path) -> None:
    game_id, lobby = await open_lobby(w, w.alice, [w.bob])
    timer = f"anima:lobby:{game_id}:timer"
    r = await w.alice.select(lobby, ["slow:86400"], custom_id=timer)
    assert r.acknowledged and private_reply(r) is None
    fields = {f.name: f.value for f in message_by_id(w.table, lobby.id).embeds[0].fields}
    assert fields["Decision timer"] == "slow: 1 day per decision"
    chosen = [
        o for o in message_by_id(w.table, lobby.id).components[3].children[0].options if o.default
    ]
    assert [o.value for o in chosen] == ["slow:86400"]  # not the live "1 day" as well
    r = await w.alice.click(lobby, custom_id=f"anima:lobby:{game_id}:start")
    with connect(db_path) as db:
        pace, decision, window = db.execute(
            "SELECT pace, decision_timer, window_timer FROM games WHERE id = ?", (game_id,)
        ).fetchone()
    assert (pace, decision, window) == ("slow", 86400, 3600)  # the server's slow window


async def test_bad_quiet_hours_or_time_zone_change_nothing(w: World) -> None:
    r = await w.bob.slash(w.table, "anima settings", quiet_hours="late", timezone="Europe/Rome")
    assert r.ephemeral and "is not a span of hours" in r.response.content
    r = await w.bob.slash(w.table, "anima settings", quiet_hours="23-07", timezone="Mars/Olympus")
    assert "is not a time zone" in r.response.content
    r = await w.bob.slash(w.table, "anima settings")
    fields = {f.name: f.value for f in r.response.embeds[0].fields}
    assert fields["Your quiet hours (only you see them)"] == "none (time zone UTC)"
    r = await w.bob.slash(w.table, "anima settings", quiet_hours="22:30-7", timezone="UTC+2")
    fields = {f.name: f.value for f in r.response.embeds[0].fields}
    assert fields["Your quiet hours (only you see them)"] == "22:30-07:00, time zone UTC+2"
    names = await w.bob.autocomplete(w.table, "anima settings", "timezone", "rome")
    assert [c["value"] for c in names] == ["Europe/Rome"]
    # A member may not change the server's pace.
    r = await w.bob.slash(w.table, "anima settings", pace="slow")
    assert "Manage Server" in r.response.content


async def test_without_dms_the_ping_is_a_mention_after_the_quiet_hours(
    w: World, simcord_env: simcord.Env, db_path: Path, make_bot: Callable[..., AnimaBot]
) -> None:
    env = simcord_env
    await env.restart_bot(make_bot(timer_tick=TICK))
    await w.admin.slash(w.table, "anima settings", pace="slow", slow_timer=2, dms=False)
    # bob sleeps until 03:00 UTC: his first start choice's clock starts then.
    await w.bob.slash(w.table, "anima settings", quiet_hours="23-03", timezone="UTC")
    game_id, lobby = await open_lobby(w, w.alice, [w.bob], turns=2)
    await w.alice.click(lobby, custom_id=f"anima:lobby:{game_id}:start")
    start = datetime(2026, 1, 1, tzinfo=UTC).timestamp()
    seats = slow_seats(db_path, game_id)
    assert (
        seats["p2"]["deadline"] == start + 5 * HOUR and seats["p1"]["deadline"] < start + 3 * HOUR
    )
    assert not [p for p in pings(env, w.bob.id, game_id)]  # the board named him quietly
    await advance(env, TICK)
    assert [p.kind for p in pings(env, w.alice.id, game_id)] == [OPEN]
    assert not pings(env, w.bob.id, game_id)  # 00:30: he sleeps
    await advance(env, 3 * HOUR)
    bob = pings(env, w.bob.id, game_id)
    assert [p.kind for p in bob] == [OPEN] and not bob[0].dm  # a mention in the channel
    assert start + 3 * HOUR <= bob[0].at <= start + 3 * HOUR + TICK
    await advance(env, HOUR)
    assert [p.kind for p in pings(env, w.bob.id, game_id)] == [OPEN, HALF]
