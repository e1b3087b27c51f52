"""The pictures on Discord (issue 23): the board message shows the public board drawn (its
alt text the short text board), drawn off the click's path and only when what it shows
changed; an older board message loses its picture with its buttons."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
import simcord
from anima_sim import World, board, drive_new_game

from bot.app import AnimaBot
from bot.board_pictures import BOARD_FILE
from bot.pictures import ALT_LIMIT, draw_board


@pytest.fixture
def simcord_bot(make_bot: Callable[..., AnimaBot]) -> AnimaBot:
    """The bot with the board and the hands drawn (``ANIMA_TABLE_PICTURES``, off by default)."""
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
    (embed,) = message.embeds
    assert embed.image.url == f"attachment://{BOARD_FILE}"
    (picture,) = message.attachments
    assert picture.filename == BOARD_FILE and picture.description
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
