"""Dice anyone can verify, on Discord (issue 25, docs/fair_dice.md): the lobby shows the
commitment to the game's server seed from the moment it opens; nothing shows the seed itself
(no message, embed, DM, private answer or log line) until the game is over; the end message
reveals it, and it hashes to the commitment; the record of ``/anima history`` passes
``anima verify``; the game is rated as openskill says; the seats' seeds are the members' own
interactions; and ``anima-bot migrate``'s check replays a keyed game from its stored seeds
(and fails one whose seed was changed).

This bot draws a new server seed per game, as a real one does: the other bot tests fix a seed
(``ANIMA_FIXED_SEED``), which keeps their games on the old generator and their deals known.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import re
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest
import simcord
from anima_sim import (
    Driver,
    World,
    open_lobby,
    private_reply,
    start_game,
    stored,
)
from databases import TestDatabase, connect
from test_bot_noleak import message_parts
from test_bot_ratings import assert_figures, ratings, the_model_says

from bot.__main__ import main
from bot.app import AnimaBot
from bot.migrate import StoredGame, does_not_replay
from engine import default_cards
from engine.tools.replay import parse_record
from engine.tools.verify import verify


@pytest.fixture
def simcord_bot(make_bot: Callable[..., AnimaBot]) -> AnimaBot:
    """A bot without a fixed seed: every game gets its own secret server seed."""
    return make_bot(fixed_seed=None)


def everything_seen(w: World) -> list[str]:
    """Every text of every message the players and a spectator can see now: the channel
    (ephemeral answers included, each to its member) and the players' DMs."""
    seen: list[str] = []
    for viewer in (w.alice, w.bob, w.dave):
        for m in w.table.history(viewer=viewer):
            seen += message_parts(m)
    for member in (w.alice, w.bob):
        for m in member.user.dm_channel.history():
            seen += message_parts(m)
    return seen


def seeds(db_path: Path, game_id: int) -> tuple[str, dict[str, str | None], str]:
    """The stored server seed, each seat's seed, and the stored state."""
    with sqlite3.connect(db_path) as db:
        server, state = db.execute(
            "SELECT dice_seed, state_json FROM games WHERE id = ?", (game_id,)
        ).fetchone()
        seats = dict(db.execute("SELECT seat, dice_seed FROM seats WHERE game_id = ?", (game_id,)))
    return server, seats, state


async def test_lobby_commits_to_the_dice_the_end_reveals_the_seed_and_the_record_verifies(
    w: World, db_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG, logger="anima")
    game_id, lobby = await open_lobby(w, w.alice, [w.bob], ai=1, turns=2)

    # The lobby shows the commitment: its start in a field, the whole hash in the footer.
    embed = lobby.embeds[0]
    field = next(f for f in embed.fields if f.name == "Dice commitment")
    short = re.fullmatch(r"`([0-9a-f]{16})…`", field.value or "")
    assert short is not None, field.value
    found = re.search(r"([0-9a-f]{64})", embed.footer.text or "")
    assert found is not None, embed.footer.text
    commitment = found[1]
    assert commitment.startswith(short[1])
    server_seed, seat_seeds, _ = seeds(db_path, game_id)
    assert hashlib.sha256(bytes.fromhex(server_seed)).hexdigest() == commitment
    # Each member's seat has his own seed (his /anima start's, his Join's id); the AI none.
    assert seat_seeds["p1"] and seat_seeds["p2"] and seat_seeds["p1"] != seat_seeds["p2"]
    assert seat_seeds["p1"].isdigit() and seat_seeds["p2"].isdigit()
    assert seat_seeds["p3"] is None

    r = await w.alice.click(lobby, custom_id=f"anima:lobby:{game_id}:start")
    assert r.acknowledged and private_reply(r) is None, private_reply(r)
    _, _, state = seeds(db_path, game_id)
    dice = json.loads(state)["dice"]
    assert dice["server_seed"] == server_seed
    assert dice["seat_seeds"] == {"p1": seat_seeds["p1"], "p2": seat_seeds["p2"]}

    # Until the game is over, nothing anybody can see shows the seed.
    driver = Driver(w, db_path, game_id, {w.alice.id: w.alice, w.bob.id: w.bob}, seed=2)
    steps = 0
    while stored(db_path, game_id).status == "running":
        assert not any(server_seed in t for t in everything_seen(w)), f"after {steps} steps"
        assert not any(server_seed in r.getMessage() for r in caplog.records)
        assert await driver.step()
        steps += 1
        assert steps < 3000, "the game never ended"
    assert stored(db_path, game_id).status == "over"
    assert steps > 10  # a game was played, with the seed checked at each decision
    summary = next(
        m
        for m in w.table.history(viewer=w.dave)
        if m.embeds and m.embeds[0].title == f"Anima · game #{game_id} is over"
    )
    # The last decision's messages too, up to the end message.
    before = [m for v in (w.alice, w.bob) for m in w.table.history(viewer=v) if m.id < summary.id]
    assert not any(server_seed in t for m in before for t in message_parts(m))

    # The end message reveals the seed and its commitment, and says how to check them.
    dice_field = next(f for f in summary.embeds[0].fields if f.name == "Dice and shuffles")
    revealed = re.search(r"Server seed: `([0-9a-f]{64})`", dice_field.value or "")
    assert revealed is not None and revealed[1] == server_seed, dice_field.value
    assert f"`{commitment}`" in (dice_field.value or "")
    assert hashlib.sha256(bytes.fromhex(revealed[1])).hexdigest() == commitment
    assert "/anima history" in dice_field.value and "anima verify FILE" in dice_field.value

    # The game was rated (two members): the ratings are openskill's figures for its end.
    want = the_model_says(TestDatabase.sqlite(db_path), game_id)
    assert set(want) == {(w.alice.id, ""), (w.bob.id, ""), (0, "random")}
    assert_figures(ratings(TestDatabase.sqlite(db_path)), want)

    # The record of /anima history: its seeds are the game's, and every draw checks out.
    r = await w.dave.slash(w.table, "anima history")
    files = {a.filename: (await a.read()).decode() for a in r.response.attachments}
    record = parse_record(json.loads(files[f"anima-game-{game_id}-replay.json"]))
    verdict = verify(record)
    assert verdict.ok, verdict.problems
    assert verdict.commitment == commitment
    assert verdict.counts["shuffle"] > 0 and verdict.counts["die"] > 0  # the deal and a battle

    # anima-bot migrate replays the game from its stored seeds: the same game, byte for byte;
    # with one seat's seed changed, another deal (its stored state is not its actions').
    with sqlite3.connect(db_path) as db:
        seed, options_json, stored_state, version = db.execute(
            "SELECT seed, options_json, state_json, version FROM games WHERE id = ?", (game_id,)
        ).fetchone()
        seats = [
            r[0]
            for r in db.execute(
                "SELECT seat FROM seats WHERE game_id = ? ORDER BY position", (game_id,)
            )
        ]
        logged = db.execute(
            "SELECT version, seat, action FROM actions WHERE game_id = ? ORDER BY version",
            (game_id,),
        ).fetchall()
    game = StoredGame(game_id, seed, options_json, stored_state, version, seats, logged)
    assert does_not_replay(game, default_cards()) is None
    changed = json.loads(stored_state)
    changed["dice"]["seat_seeds"]["p2"] += "0"
    game.state_json = json.dumps(changed)
    why = does_not_replay(game, default_cards())
    assert why is not None and ("not what its" in why or "is refused" in why), why


async def test_migrate_to_postgresql_verifies_keyed_games_and_keeps_their_seeds(
    w: World,
    simcord_env: simcord.Env,
    make_bot: Callable[..., AnimaBot],
    db_path: Path,
    target: TestDatabase,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    # A keyed game played to its end, another one running, a lobby with its seed.
    finished = w.guild.create_text_channel("finished")
    over_id = await start_game(w, w.carol, [w.dave], ai=1, turns=2, channel=finished)
    await Driver(w, db_path, over_id, {w.carol.id: w.carol, w.dave.id: w.dave}, 1, finished).play()
    game_id = await start_game(w, w.alice, [w.bob], ai=1, turns=2)
    driver = Driver(w, db_path, game_id, {w.alice.id: w.alice, w.bob.id: w.bob}, seed=3)
    for _ in range(6):
        assert await driver.step()
    lobby_id, _ = await open_lobby(w, w.admin, [], channel=w.guild.create_text_channel("lobby"))
    assert all(seeds(db_path, g)[0] for g in (over_id, game_id, lobby_id))

    monkeypatch.chdir(tmp_path)  # no .env
    monkeypatch.setenv("ANIMA_DB_PATH", str(db_path))
    monkeypatch.delenv("DATABASE_URL", raising=False)
    # The bot stopped (its pointers written), as the operator runs the migration.
    await simcord_env.restart_bot(make_bot(fixed_seed=None))
    assert await asyncio.to_thread(main, ["migrate", "--to", target.url]) == 0
    (line,) = capsys.readouterr().out.splitlines()
    assert "2 games verified by replaying their actions" in line, line
    with connect(target) as db:
        copied = dict(db.execute("SELECT id, dice_seed FROM games").fetchall())
        seats = db.execute("SELECT COUNT(*) FROM seats WHERE dice_seed IS NOT NULL").fetchone()
    assert copied == {g: seeds(db_path, g)[0] for g in (over_id, game_id, lobby_id)}
    assert seats == (5,)  # carol, dave, alice, bob, and the lobby's host
