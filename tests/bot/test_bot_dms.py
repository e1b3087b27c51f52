"""Secret starts by DM; closed DMs (50007): told once in the channel, never retried, and the
My hand button shows everything instead."""

from __future__ import annotations

from pathlib import Path

import simcord
from anima_sim import Driver, World, board, chose, components, lines_text, start_game, stored


def close_dms(env: simcord.Env, member: simcord.MemberActor) -> None:
    env.inject_error(
        "POST",
        f"/channels/{member.user.dm_channel.id}/messages",
        status=403,
        code=50007,
        message="Cannot send messages to this user",
        times=None,
    )


def dm_posts(env: simcord.Env, member: simcord.MemberActor) -> int:
    path = f"/channels/{member.user.dm_channel.id}/messages"
    return sum(1 for h in env.http_requests if h.method == "POST" and h.path == path)


async def test_secret_start_by_dm_and_its_buttons(w: World, db_path: Path) -> None:
    game_id = await start_game(w, w.alice, [w.bob], ai=0, turns=2)
    dm = w.alice.user.dm_channel.history()[-1]
    embed = dm.embeds[0]
    assert [f.name for f in embed.fields] == [
        "Your 2 Basic missions (secret)",
        "Characters offered (keep 1)",
        "Advantages offered (keep 3)",
    ]
    game = stored(db_path, game_id).game
    p1 = game.s.players["p1"]
    assert all(game.db[c].name in embed.fields[1].value for c in p1.offered_characters)
    # Choosing in the DM works like the panel: the DM shows the next choice.
    lead = [c for c in components(dm) if c.label.startswith("Lead with")]
    assert len(lead) == 2
    r = await w.alice.user.click(dm, custom_id=lead[0].custom_id)
    assert chose(r, "Lead with")
    assert any(c.label.startswith("Give back") for c in components(r.response))
    assert stored(db_path, game_id).game.s.players["p1"].party


async def test_closed_dms_told_once_never_retried(
    w: World, simcord_env: simcord.Env, db_path: Path
) -> None:
    env = simcord_env
    w.bob.user.dm_channel  # noqa: B018 - creates the DM channel so its id is known
    close_dms(env, w.bob)
    game_id = await start_game(w, w.alice, [w.bob, w.carol], ai=1, turns=2)

    notices = [m for m in w.table.history() if "can't send you direct messages" in lines_text(m)]
    assert len(notices) == 1 and w.bob.mention in lines_text(notices[0])
    assert dm_posts(env, w.bob) == 1  # tried once, refused
    assert w.alice.user.dm_channel.history()  # the others got theirs

    # The button works instead: bob's secret start is under My hand.
    r = await w.bob.click(board(w.table, db_path, game_id), custom_id=f"anima:{game_id}:hand")
    assert r.ephemeral
    names = {f.name for f in r.response.embeds[0].fields}
    assert {"Offered characters (keep 1)", "Secret missions"} <= names

    # Play on: whatever is private for bob, no new DM attempt, no new notice.
    players = {m.id: m for m in (w.alice, w.bob, w.carol)}
    driver = Driver(w, db_path, game_id, players, seed=9)
    await driver.play()
    assert dm_posts(env, w.bob) == 1
    notices = [m for m in w.table.history() if "can't send you direct messages" in lines_text(m)]
    assert len(notices) == 1

    # A new game: still no DM attempt; bob is told once in that game.
    game2 = await start_game(w, w.bob, [w.alice], ai=0, turns=1)
    assert dm_posts(env, w.bob) == 1
    notices = [m for m in w.table.history() if "can't send you direct messages" in lines_text(m)]
    assert len(notices) == 2
    assert stored(db_path, game2).status == "running"

    # /anima dms asks to try again.
    r = await w.bob.slash(w.table, "anima dms")
    assert r.ephemeral and "try to DM you again" in r.response.content
