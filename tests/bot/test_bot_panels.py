"""A player's private panel: its view has no sealed table (only agents read it), shares the
board's public table and is otherwise the full view of its seat; it keeps no view timer and
works after 15 minutes; rendered again, it reads nothing it already knows."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

import pytest
import simcord
from anima_sim import (
    World,
    chose,
    components,
    drive_new_game,
    private_reply,
    start_game,
)
from test_bot_render import table_for

from bot.app import AnimaBot
from bot.autopass import describe
from bot.database import Hop
from bot.panels import fingerprint
from bot.pictures import draw_hand
from engine.agents import RandomAgent
from engine.game import Game
from engine.views import lazy_seat_view


@pytest.fixture
def simcord_bot(make_bot: Callable[..., AnimaBot]) -> AnimaBot:
    """The bot with the board and the hands drawn (``ANIMA_TABLE_PICTURES``: off in tests)."""
    return make_bot(table_pictures=True)


def test_panel_views_are_the_full_views_without_the_sealed_table() -> None:
    game = Game.new(["p1", "p2", "p3"], seed=11)
    agent = RandomAgent(11)
    for step in range(120):
        if game.over:
            break
        table = table_for(game)
        board = table.table_view()
        for seat in game.s.seats:
            panel = table.seat_view(seat)
            assert panel.sealed is None
            assert panel == game.seat_view(seat).model_copy(update={"sealed": None})
            if game.s.phase != "setup":
                # Outside the setup the parties are the board's own objects, not copies.
                assert panel.table.parties is board.parties
            # The AI still gets the full view, sealed table included.
            assert lazy_seat_view(game, seat).sealed == game.seat_view(seat).sealed
        prompt = game.pending()[step % len(game.pending())]
        game.apply(prompt.player, agent.choose(lazy_seat_view(game, prompt.player), prompt))


def view_timers() -> list[asyncio.Task[object]]:
    """discord.py's per-view timeout tasks still pending (one per message sent with a view
    that has a timeout; an ephemeral view gets 15 minutes unless it is stopped)."""
    return [
        t for t in asyncio.all_tasks() if not t.done() and "timeout_task_impl" in repr(t.get_coro())
    ]


async def test_a_panel_keeps_no_view_timer_and_works_after_15_minutes(
    w: World, simcord_env: simcord.Env, db_path: Path
) -> None:
    game_id, driver = await drive_new_game(w, db_path, [w.alice, w.bob], ai=1, turns=6, seed=2)
    players = driver.players
    # Random decisions until a board click is answered with a private panel: a follow-up
    # message with the player's buttons (discord.py gives such a view a 15-minute timer).
    # Six turns: with no empty choice offered, seed 2's first such click (a reward asking a
    # further choice) comes on turn 5.
    panel, member = None, w.alice
    for _ in range(500):
        st, prompts = driver.human_prompts()
        assert st.status == "running", "no board click was answered with a panel"
        prompt = driver.rng.choice(prompts)
        member = players[st.seats[prompt.player].user_id or 0]
        r = await driver.choose(st, prompt, driver.rng.randrange(len(prompt.choices)))
        assert r.acknowledged and chose(r), private_reply(r)
        # (Not the first turn's tip under a Pass, whose one button is Auto-pass windows.)
        panel = next(
            (
                f
                for f in r.followups
                if f.ephemeral and f"anima:{game_id}:hand" in {c.custom_id for c in components(f)}
            ),
            None,
        )
        if panel is not None:
            break
    assert panel is not None
    assert not view_timers()
    for _ in range(16):  # past Discord's 15 minutes, a minute at a time
        await simcord_env.advance_time(60)
    # The panel's buttons are DynamicItems: they still answer (Refresh: a fresh panel).
    refresh = f"anima:{game_id}:hand"
    assert refresh in {c.custom_id for c in components(panel)}
    r = await member.click(panel, custom_id=refresh)
    assert r.acknowledged and r.response is not None and r.response.embeds, private_reply(r)
    assert not view_timers()
    assert await driver.step()  # and the game goes on


async def test_a_panel_rendered_again_reads_nothing_it_knows(
    w: World, simcord_env: simcord.Env, db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A panel's private events and auto-pass are read once; a change (a publish that tells
    the seat something, a new auto-pass) shows without a stale read."""
    game_id = await start_game(w, w.alice, [w.bob], ai=0, turns=2)
    bot = simcord_env.bot
    storage, panels = bot.storage, bot.panels  # type: ignore[attr-defined]
    reads: list[str] = []

    def counted(hop: Hop) -> None:  # every statement handed to the database's thread
        reads.extend(sql for sql, _seconds in hop.statements if sql.startswith("SELECT"))

    monkeypatch.setattr(storage.db, "trace", counted)
    table = await bot.games.load(game_id)  # type: ignore[attr-defined]
    seat = table.seat_of(w.alice.id)
    first = await panels.parts(table, seat)
    read_once = len(reads)
    again = await panels.parts(table, seat)
    assert len(reads) == read_once and fingerprint(*again) == fingerprint(*first)
    # A change of the member's auto-pass (here by /anima settings) shows at once.
    await w.alice.slash(w.table, "anima settings", auto_moves=True)
    embed, _ = await panels.parts(table, seat)
    assert describe(frozenset({"move_declared"})) in str(embed.to_dict())


async def test_an_ephemeral_panel_shows_the_hand_drawn(
    w: World, simcord_env: simcord.Env, db_path: Path
) -> None:
    """My hand (ephemeral) shows the member's hand drawn from his own seat view (edited in
    once drawn, or at once when drawn already), its alt text his cards."""
    game_id = await start_game(w, w.alice, [w.bob], ai=0, turns=2)
    bot = simcord_env.bot
    r = await w.alice.slash(w.table, "anima hand")
    assert r.ephemeral and r.response is not None, private_reply(r)
    await bot.panels.sent()  # type: ignore[attr-defined]  # (drawn, then edited in)
    (embed,) = r.response.embeds
    assert embed.image.url == "attachment://hand.png"
    (picture,) = r.response.attachments
    assert picture.filename == "hand.png" and picture.description
    table = await bot.games.load(game_id)  # type: ignore[attr-defined]
    view = table.seat_view(table.seat_of(w.alice.id).seat)
    assert picture.description == draw_hand(view, table.game.db, "en").alt
    assert bot.pictures.stats.drawn >= 1  # type: ignore[attr-defined]
    again = await w.alice.slash(w.table, "anima hand")  # drawn already: in the answer itself
    assert again.response is not None and again.response.attachments
