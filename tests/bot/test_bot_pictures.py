"""The pictures on Discord (issue 23): the board message shows the public board drawn (its
alt text the short text board), drawn off the click's path and only when what it shows
changed; an older board message loses its picture with its buttons."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import discord
import pytest
import simcord
from anima_sim import World, board, board_text, drive_new_game, lines_text
from databases import connect

from bot.app import AnimaBot
from bot.board_pictures import BATTLE_PREFIX, BOARD_FILE, battle_file
from bot.pictures import ALT_LIMIT, draw_battle, draw_board

PNG = b"\x89PNG\r\n\x1a\n"
#: A game's public battle rolls and results, in order.
BATTLES = (
    "SELECT id, kind, data_json FROM events WHERE game_id = ? AND recipients IS NULL "
    "AND kind IN ('battle_roll', 'battle_result') ORDER BY id"
)


@pytest.fixture
def simcord_bot(make_bot: Callable[..., AnimaBot]) -> AnimaBot:
    """The bot with the board and the hands drawn (``ANIMA_TABLE_PICTURES``: off in tests)."""
    return make_bot(table_pictures=True)


async def test_the_board_message_shows_the_board_drawn(
    w: World, simcord_env: simcord.Env, db_path: Path
) -> None:
    game_id, driver = await drive_new_game(w, db_path, [w.alice, w.bob], ai=1, turns=3, seed=5)
    bot = simcord_env.bot
    for _ in range(12):
        assert await driver.step()
    await bot.publisher.pictures.drawn()  # type: ignore[attr-defined]
    message = board(w.table, db_path, game_id)
    assert message.flags.components_v2 and not message.embeds and not message.content
    # The board's container shows the picture in a media gallery, with its alt text.
    (box,) = [c for c in message.components if isinstance(c, discord.components.Container)]
    (gallery,) = [
        c for c in box.children if isinstance(c, discord.components.MediaGalleryComponent)
    ]
    (item,) = gallery.items
    (picture,) = [a for a in message.attachments if a.filename == BOARD_FILE]
    assert picture.description and item.description == picture.description
    assert item.media.url == picture.url
    # Drawn from the public table view, its alt text the short text board.
    table = await bot.games.load(game_id)  # type: ignore[attr-defined]
    names = {seat: table.names.label(seat) for seat in table.seats}
    expected = draw_board(table.table_view(), table.game.db, names, "en")
    assert picture.description == expected.alt and len(picture.description) <= ALT_LIMIT
    # Older board messages keep their lines, not the board's picture.
    older = [m for m in w.table.history() if m.id != message.id and m.attachments]
    assert not [m for m in older if any(a.filename == BOARD_FILE for a in m.attachments)]
    stats = bot.pictures.stats  # type: ignore[attr-defined]
    assert stats.drawn >= 1 and stats.hits + stats.superseded >= 1


def battle_rolls(db_path: Path, game_id: int) -> list[tuple[int, dict[str, Any], Any]]:
    """The game's public battles as logged: (the roll's event id, its payload, the
    ``battle_result`` payload that follows it before the next roll, or None)."""
    with connect(db_path) as db:
        rows = db.execute(BATTLES, (game_id,)).fetchall()
    out: list[tuple[int, dict[str, Any], Any]] = []
    for event_id, kind, data in rows:
        if kind == "battle_roll":
            out.append((event_id, json.loads(data), None))
        elif out and out[-1][2] is None:
            out[-1] = (out[-1][0], out[-1][1], json.loads(data))
    return out


async def test_a_battle_is_drawn_on_the_message_that_carries_its_lines(
    w: World, simcord_env: simcord.Env, db_path: Path
) -> None:
    game_id, driver = await drive_new_game(w, db_path, [w.alice, w.bob], ai=1, turns=3, seed=5)
    bot = simcord_env.bot
    await driver.until(lambda st, _: len(battle_rolls(db_path, game_id)) >= 2)
    for _ in range(6):  # the battles' board messages are retired by newer ones
        assert await driver.step()
    await bot.publisher.pictures.drawn()  # type: ignore[attr-defined]
    table = await bot.games.load(game_id)  # type: ignore[attr-defined]
    names = {seat: table.names.label(seat) for seat in table.seats}
    public = w.table.history(viewer=w.dave)
    fought = battle_rolls(db_path, game_id)
    for event_id, roll, result in fought:
        name = battle_file(event_id)
        (message,) = [m for m in public if any(a.filename == name for a in m.attachments)]
        picture = next(a for a in message.attachments if a.filename == name)
        # Its lines are in the message; the picture is the public payloads drawn.
        assert f"= **{roll['totals'][0]}**" in lines_text(message)
        expected = draw_battle(roll, names, "en", result)
        assert picture.description == expected.alt and picture.description
        assert (await picture.read()).startswith(PNG) and picture.content_type == "image/png"
        # The result in words too: colour is never the only signal.
        if result is not None:
            assert str(result["margin"]) in picture.description or "tie" in picture.description
    # The newest board's message keeps its battles; older ones keep theirs without the board.
    retired = [m for m in public if m.attachments and not board_text(m)]
    assert retired and all(
        a.filename.startswith(BATTLE_PREFIX) for m in retired for a in m.attachments
    )
