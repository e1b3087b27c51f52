"""The board message as components V2 (issue 23): the largest board fits Discord's limits on
such a message in every language, pictures on or off; and its **Text board** button shows
the whole text board to the clicker alone, in one click, before and after a restart."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import discord
import pytest
import simcord
from anima_sim import World, board, components, drive_new_game, message_by_id, texts
from pictures.positions import BOARD_ACTION, BOARD_SEED, SECRET_ACTIONS, positions
from test_bot_render import table_for

from bot import rendering
from bot.app import AnimaBot
from bot.board_pictures import BOARD_FILE, battle_file
from bot.components.game_views import board_layout
from bot.pictures.board_alt import board_alt
from bot.pictures.canvas import ALT_LIMIT
from bot.publishing.board import MAX_BATTLES, lines_room
from words import LANGUAGES, speaking

#: Discord's limits on a components V2 message.
MAX_COMPONENTS = 40
MAX_TEXT = 4000
MAX_CUSTOM_ID = 100
TEXT_DISPLAY = 10


def walk(payload: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """Every component of a message's payload, nested ones too."""
    for c in payload:
        yield c
        yield from walk(c.get("components") or [])
        if "accessory" in c:
            yield from walk([c["accessory"]])


def lines_of(room: int) -> str:
    """Lines of the latest events filling ``room`` characters, as the publisher's largest
    batch above the board does (lines of 80 characters, a mention among them)."""
    line = "**Player P1 xxxxxxxxxxxxxxxxxxxxxxxxx** attacks <@100> at the Frozen Ford: 7 + 2"
    out = ""
    while len(out) + 1 + len(line) <= room:
        out = f"{out}\n{line}" if out else line
    assert room - len(out) <= len(line)
    return out


def check_v2(payload: list[dict[str, Any]]) -> tuple[int, int]:
    """Discord's limits on a components V2 message; (its components, its characters of text)."""
    every = list(walk(payload))
    text = sum(len(c["content"]) for c in every if c["type"] == TEXT_DISPLAY)
    ids = [c["custom_id"] for c in every if "custom_id" in c]
    assert len(every) <= MAX_COMPONENTS
    assert text <= MAX_TEXT
    assert all(1 <= len(i) <= MAX_CUSTOM_ID for i in ids) and len(ids) == len(set(ids))
    for c in every:
        if c["type"] == 1:  # an action row: five buttons, or one select menu
            assert 1 <= len(c["components"]) <= 5
        if c["type"] == 2:
            assert 1 <= len(c["label"]) <= 80
        for item in c.get("items", []):  # a media gallery's pictures and their alt texts
            assert len(item.get("description") or "") <= ALT_LIMIT
        assert len(c.get("items", [])) <= 10
    return len(every), text


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_largest_board_fits_components_v2s_limits(language: str) -> None:
    """The reference five-player game of the three sets (tests/pictures/positions.py; its
    board at action 1664 is the largest), every 60th action: all seats human, so that a
    decider's public choices are buttons on the board; long names; under the largest batch
    of lines the publisher puts above that board, and the most battle pictures."""
    checked = 0
    largest = (0, 0)
    game_positions = positions(BOARD_SEED, (BOARD_ACTION, *SECRET_ACTIONS), 60)
    assert BOARD_ACTION in game_positions
    battles = [(battle_file(n), "⚔" * ALT_LIMIT) for n in range(MAX_BATTLES)]
    for game, _events in game_positions.values():
        assert len(game.s.seats) == 5
        table = table_for(game)
        table.row.language = language
        view = game.table_view()
        names = {seat: table.names.label(seat) for seat in table.seats}
        with speaking(language):
            embed = rendering.board_embed(view, game.db, table.row, table.seats)
            colour = rendering.board_colour(game.over)
            for pictured in (False, True):
                text = rendering.board_text(embed, full=not pictured)
                picture = (BOARD_FILE, board_alt(view, game.db, names)) if pictured else None
                lines = lines_of(lines_room(text))
                shown = battles if pictured else []
                layout = board_layout(table, lines, text, picture, shown, colour)
                payload = layout.to_components()
                count, chars = check_v2(payload)
                largest = (max(largest[0], count), max(largest[1], chars))
                # The board is shown whole (not cut) beside the lines.
                assert texts_of(payload) == [lines, text]
                checked += 1
    assert checked == 2 * len(game_positions)
    assert largest[1] > MAX_TEXT - 100  # the largest batch of lines and board were there


def texts_of(payload: list[dict[str, Any]]) -> list[str]:
    return [c["content"] for c in walk(payload) if c["type"] == TEXT_DISPLAY]


def test_a_board_grown_since_its_lines_is_cut_to_fit() -> None:
    """An edit in place keeps the message's lines: a board that grew since they were
    posted is cut at a line's end rather than refused by Discord."""
    game, _events = positions(BOARD_SEED, (BOARD_ACTION, *SECRET_ACTIONS), 60)[BOARD_ACTION]
    table = table_for(game)
    embed = rendering.board_embed(game.table_view(), game.db, table.row, table.seats)
    text = rendering.board_text(embed, full=True)
    lines = lines_of(rendering.CONTENT_LIMIT - 50)  # posted under a shorter board
    assert len(lines) + len(text) > MAX_TEXT
    payload = board_layout(table, lines, text).to_components()
    check_v2(payload)
    (kept, cut) = texts_of(payload)
    assert kept == lines and cut != text
    assert text.startswith(cut.rsplit("\n", 1)[0])


def private_board(result: Any) -> Any:
    """The clicker's ephemeral answer (the first call, or its follow-up)."""
    if result.ephemeral and result.response is not None:
        return result.response
    (answer,) = [f for f in result.followups if f.ephemeral]
    return answer


@pytest.fixture
def simcord_bot(make_bot: Callable[..., AnimaBot]) -> AnimaBot:
    """The bot with the board drawn: the board message shows its picture, not its text."""
    return make_bot(table_pictures=True)


async def board_drawn(w: World, env: simcord.Env, db_path: Path) -> tuple[int, discord.Message]:
    """A game a few decisions in, and its board message with the board's picture on it."""
    game_id, driver = await drive_new_game(w, db_path, [w.alice, w.bob], ai=1, turns=3, seed=5)
    for _ in range(8):
        assert await driver.step()
    await env.bot.publisher.pictures.drawn()  # type: ignore[attr-defined]
    return game_id, board(w.table, db_path, game_id)


async def test_the_text_board_button_shows_the_whole_board_privately_even_after_a_restart(
    w: World, simcord_env: simcord.Env, db_path: Path, make_bot: Callable[..., AnimaBot]
) -> None:
    game_id, message = await board_drawn(w, simcord_env, db_path)
    text_board = f"anima:{game_id}:board"
    assert text_board in [c.custom_id for c in components(message)]
    # The message shows the board drawn, its text board is not in it.
    table = await simcord_env.bot.games.load(game_id)  # type: ignore[attr-defined]
    whole = rendering.board_embed(table.table_view(), table.game.db, table.row, table.seats)
    assert whole.fields and not any(
        f.value in "\n".join(texts(message.components)) for f in whole.fields
    )

    for restarted in (False, True):
        if restarted:
            await simcord_env.restart_bot(make_bot(table_pictures=True))
        # dave watches: the text board is for anybody in the channel, and for him alone.
        before = len(w.table.history())
        r = await w.dave.click(message, custom_id=text_board)
        answer = private_board(r)
        (embed,) = answer.embeds
        assert embed.title == whole.title and embed.description == whole.description
        assert [(f.name, f.value) for f in embed.fields] == [
            (f.name, f.value) for f in whole.fields
        ]
        assert len(w.table.history()) == before  # nothing posted in the channel


async def test_an_ended_games_board_keeps_its_text_and_picture_and_loses_its_buttons(
    w: World, simcord_env: simcord.Env, db_path: Path
) -> None:
    game_id, before = await board_drawn(w, simcord_env, db_path)
    assert components(before)
    r = await w.alice.slash(w.table, "anima end")
    assert r.response is not None
    first = len(simcord_env.http_requests)
    await w.alice.click(r.response, custom_id=f"anima:end:{game_id}:yes")
    after = message_by_id(w.table, before.id)
    # The edit names the picture as the message's attachment (a CDN link read back expires).
    (edit,) = [
        c
        for c in simcord_env.http_requests[first:]
        if c.method == "PATCH" and c.path.endswith(f"/{before.id}")
    ]
    assert f'"attachment://{BOARD_FILE}"' in json.dumps(edit.json)
    assert not components(after)  # no button left
    assert texts(after.components) == texts(before.components)  # its lines and its board
    # The board's picture is still the message's own attachment.
    (picture,) = [a for a in after.attachments if a.filename == BOARD_FILE]
    (box,) = [c for c in after.components if isinstance(c, discord.components.Container)]
    (gallery,) = [
        c for c in box.children if isinstance(c, discord.components.MediaGalleryComponent)
    ]
    assert [i.media.url for i in gallery.items] == [picture.url]
