"""A whole game of the three sets through the bot with the pictures on (issue 23, "Done
when"): the board, the battles, the hands and the cards are posted as PNG pictures with alt
text; a hand only in its owner's ephemeral answers; every public message, the pictures' alt
texts included, under the no-leak scan."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import discord
import pytest
import simcord
from anima_sim import Driver, World, board, open_lobby, private_reply, stored
from expansion_table import ALL_SETS
from test_bot_expansions import choose_sets
from test_bot_noleak import LeakCheck

from bot.app import AnimaBot
from bot.board_pictures import BATTLE_PREFIX, BOARD_FILE
from bot.panels import HAND_FILE
from bot.pictures import ALT_LIMIT, draw_hand
from bot.settings import Settings

PNG = b"\x89PNG\r\n\x1a\n"
CARD_FILE = "card.png"


@pytest.fixture
def simcord_bot(make_bot: Callable[..., AnimaBot]) -> AnimaBot:
    """The bot with the pictures on (``ANIMA_TABLE_PICTURES``), whatever its default."""
    return make_bot(table_pictures=True)


async def pictures_of(messages: list[discord.Message], prefix: str) -> list[discord.Attachment]:
    """The attachments of ``messages`` whose name starts with ``prefix``, each checked: a PNG
    with its alt text (Discord keeps at most ALT_LIMIT characters)."""
    found = [a for m in messages for a in m.attachments if a.filename.startswith(prefix)]
    for a in found:
        assert a.content_type == "image/png" and (await a.read()).startswith(PNG), a.filename
        assert a.description and len(a.description) <= ALT_LIMIT, a.filename
    return found


async def test_a_three_set_game_posts_the_board_battle_hand_and_card_pictures(
    w: World, simcord_env: simcord.Env, db_path: Path
) -> None:
    humans = [w.alice, w.bob, w.carol]
    game_id, lobby = await open_lobby(w, w.alice, humans[1:], ai=1, turns=3)
    lobby = await choose_sets(w, w.alice, lobby, game_id, ALL_SETS)
    r = await w.alice.click(lobby, custom_id=f"anima:lobby:{game_id}:start")
    assert private_reply(r) is None, private_reply(r)
    assert stored(db_path, game_id).options["sets"] == ALL_SETS
    bot = simcord_env.bot
    pictures = bot.publisher.pictures  # type: ignore[attr-defined]
    check = LeakCheck(w, db_path, game_id, w.dave)
    check.check()
    driver = Driver(w, db_path, game_id, {m.id: m for m in humans}, seed=3)
    # What each member's own hand picture said (its alt text) when he opened it.
    hands: dict[int, set[str]] = {m.id: set() for m in humans}
    steps = 0
    while await driver.step():
        steps += 1
        await pictures.drawn()  # the board's picture, edited in once drawn, is scanned too
        check.check()
        if steps % 25 == 1:
            member = humans[(steps // 25) % 3]
            await bot.panels.sent()  # type: ignore[attr-defined]
            opened = await member.click(
                board(w.table, db_path, game_id), custom_id=f"anima:{game_id}:hand"
            )
            assert opened.ephemeral and opened.response is not None, private_reply(opened)
            await bot.panels.sent()  # type: ignore[attr-defined]  # (drawn, then edited in)
            (hand,) = await pictures_of([opened.response.message], HAND_FILE)
            table = await bot.games.load(game_id)  # type: ignore[attr-defined]
            view = table.seat_view(table.seat_of(member.id).seat)
            assert hand.description == draw_hand(view, table.game.db, "en").alt
            hands[member.id].add(hand.description or "")
    check.check()
    assert stored(db_path, game_id).status == "over" and check.checked > 50
    public = w.table.history(viewer=w.dave)
    # The board: the newest board message shows the board drawn.
    boards = await pictures_of(public, BOARD_FILE)
    assert len(boards) >= 1 and board(w.table, db_path, game_id).attachments
    # The battles: each on the message that carries its lines, alt text the battle in words.
    battles = await pictures_of(public, BATTLE_PREFIX)
    assert battles and all("Strength" in (a.description or "") for a in battles)
    # The hands: only in their owners' ephemeral answers; nobody else sees one, nor its words.
    assert all(hands.values()), hands
    assert not await pictures_of(public, HAND_FILE)
    public_words = {p for m in public for a in m.attachments for p in [a.description]}
    for member in humans:
        others = [m for m in humans if m is not member] + [w.dave]
        for viewer in others:
            seen = w.table.history(viewer=viewer)
            shown = {a.description for m in seen for a in m.attachments}
            assert not (hands[member.id] - hands.get(viewer.id, set())) & shown
        own = [m for m in w.table.history(viewer=member) if m.attachments]
        hand_messages = [m for m in own if any(a.filename == HAND_FILE for a in m.attachments)]
        assert all(m.flags.ephemeral for m in hand_messages)  # (outdated ones lose theirs)
        dms = member.user.dm_channel.history()
        assert not [a for m in dms for a in m.attachments if a.filename == HAND_FILE]
    assert not any(h in public_words for hs in hands.values() for h in hs)
    # A card: /anima card answers its reader alone with the card drawn.
    r = await w.bob.slash(w.table, "anima card", name="dragons_spine")
    assert r.ephemeral and r.response is not None
    (card,) = await pictures_of([r.response.message], CARD_FILE)
    assert (card.description or "").startswith("Dragon's Spine")
    assert check.pictures > 10  # the pictures' alt texts were scanned with the rest


def test_the_pictures_are_drawn_by_default() -> None:
    # A new server sees the table drawn (issue 23's interaction p99 within 15 ms with them);
    # ANIMA_TABLE_PICTURES=false gives the text board.
    assert Settings(_env_file=None).table_pictures
    assert not Settings(_env_file=None, ANIMA_TABLE_PICTURES=False).table_pictures
