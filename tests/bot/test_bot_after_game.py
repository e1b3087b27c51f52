"""After the game (issue 8, findings 8 and 9): the board counts the turns of a limited game
("turn 2/3"); the end message says how the game was decided (the tie-break and everybody's
scores at a turn limit) and reveals every leader and mission, which nothing showed before;
``/anima log`` and ``/anima history`` (the whole log, the replay record and the replay page as
files) work for
the finished game, and the history is refused while the game runs."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import discord
from anima_sim import World, actions, board, board_text, card_names, drive_new_game, lines_text
from replay_pages import assert_self_contained, boards, unpack

from engine.endings import TIEBREAKS
from engine.tools.replay import parse_record, replay


def texts(message: discord.Message) -> str:
    """Everything a message shows: its lines and its board or other embeds (components V2's
    text displays included)."""
    return f"{lines_text(message)}\n{board_text(message)}"


def heading(message: discord.Message) -> str:
    """The board's title (its heading on a message of components V2)."""
    return board_text(message).split("\n")[0]


async def test_turns_tiebreak_reveals_log_and_history(w: World, db_path: Path) -> None:
    game_id, driver = await drive_new_game(w, db_path, [w.alice, w.bob], ai=1, turns=3, seed=4)

    # While the game runs, its history (every secret card, and a record to rebuild them) is
    # refused.
    await driver.until(lambda st, _p: st.game.s.turn == 2)
    r = await w.alice.slash(w.table, "anima history")
    assert r.ephemeral and "still being played" in r.response.content
    assert not r.response.attachments
    # Finding 8: the board of a limited game says "turn 2/3" (the board moves down with the
    # lines, so it is read while the turn is played).
    assert "turn 2/3" in heading(board(w.table, db_path, game_id))
    await driver.until(lambda st, _p: st.game.s.turn == 3)
    assert "turn 3/3" in heading(board(w.table, db_path, game_id))

    final = await driver.play()
    game = final.game
    names = card_names()
    public = w.table.history(viewer=w.dave)
    summary = next(m for m in public if m.embeds and m.embeds[0].title.endswith("is over"))
    before = public[: public.index(summary)]

    # Finding 8: the end names the criterion.
    end = summary.embeds[0]
    assert game.s.ending == "turn_cap"  # this seed plays the three turns out
    over = next(e for e in game_events(db_path, game_id) if e["kind"] == "game_over")
    decided = TIEBREAKS[over["data"]["tiebreak"]]
    assert f"decided on {decided}" in end.description
    tiebreak = next(f for f in end.fields if f.name == "Tie-break")
    for seat, score in over["data"]["scores"].items():
        line = next(x for x in tiebreak.value.split("\n") if final.seats[seat].name in x)
        assert f"completed missions **{score['completed_missions']}**" in line

    # Finding 9: every player's leader and missions (secret, started, completed) are revealed
    # at the end, and were never shown before it.
    leaders = {
        a[1]: a[2].split(" ", 1)[1]
        for a in reversed(actions(db_path, game_id))
        if a[2].startswith("keep ")
    }
    for seat in game.s.seats:
        p = game.s.players[seat]
        field = next(f for f in end.fields if final.seats[seat].name in f.name)
        assert f"👑 Leader: {names[leaders[seat]]}" in field.value
        secret = ", ".join(names[c] for c in p.missions) or "none"
        assert f"📜 Secret: {secret}" in field.value
        for mission in p.missions:
            assert not any(names[mission] in texts(m) for m in before), names[mission]
    assert not any("📜 Secret" in texts(m) or "👑 Leader" in texts(m) for m in before)

    # /anima log works after the game, for anybody at the table.
    r = await w.dave.slash(w.table, "anima log")
    assert r.ephemeral and r.response.embeds[0].title == f"Game #{game_id} · latest events"
    assert "wins the game" in r.response.embeds[0].description

    # /anima history: the whole public log with the revealed secrets, and the replay record.
    r = await w.dave.slash(w.table, "anima history")
    files = {a.filename: (await a.read()).decode() for a in r.response.attachments}
    log = files[f"anima-game-{game_id}.md"]
    assert log.startswith(f"# Anima: Shadow of Omega · game #{game_id}")
    assert "## Turn 3" in log and "## Revealed after the game" in log
    for seat in game.s.seats:
        assert f"- Leader: {names[leaders[seat]]}" in log
    private = [e["text"] for e in game_events(db_path, game_id) if e["to"] is not None]
    assert not any(text in log for text in private if "goes from" in text or "draws" in text)
    record = parse_record(json.loads(files[f"anima-game-{game_id}-replay.json"]))
    assert replay(record).to_json() == game.to_json()
    assert len(record.actions) == len(actions(db_path, game_id))
    # The replay page: one self-contained HTML file, every step in every seat's view, the
    # seats by their display names, the end on its last step.
    page = files[f"anima-game-{game_id}-replay.html"]
    assert_self_contained(page)
    data = unpack(page)
    assert len(data["steps"]) == len(record.actions) + 1
    shown = [n.removeprefix("🤖 ") for n in data["labels"]["names"]]  # an AI seat: 🤖 AI 1
    assert shown == [final.seats[s].name for s in game.s.seats]
    assert f">{final.seats[game.s.winner].name}</b> wins" in boards(data)[-1][0][0]
    r = await w.dave.slash(w.table, "anima history", game=game_id + 5)
    assert "no finished game" in r.response.content.lower()


def game_events(db_path: Path, game_id: int) -> list[dict[str, Any]]:
    """The game's logged events, as an admin reads them."""
    with sqlite3.connect(db_path) as db:
        rows = db.execute(
            "SELECT kind, text, recipients, data_json FROM events WHERE game_id = ? ORDER BY id",
            (game_id,),
        ).fetchall()
    return [
        {"kind": k, "text": t, "to": json.loads(r) if r else None, "data": json.loads(d)}
        for k, t, r, d in rows
    ]
