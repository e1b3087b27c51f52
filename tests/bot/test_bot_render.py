"""Rendering against Discord's limits and the no-leak rule, over many engine states (no
SimCord needed): every board, hand and panel of simulated games."""

from __future__ import annotations

from typing import Any

import discord
import pytest

from bot import rendering
from bot.components.game_views import board_view, private_view
from bot.storage import GameRow, GuildSettings, SeatRow
from bot.table import Table
from engine.events import Event
from engine.game import Game
from engine.prompts import Prompt
from engine.tools.simulate import play_game


def check_embed(embed: discord.Embed) -> None:
    assert len(embed) <= 6000
    assert len(embed.title or "") <= 256
    assert len(embed.description or "") <= 4096
    assert len(embed.fields) <= 25
    for f in embed.fields:
        assert 0 < len(f.name or "") <= 256 and 0 < len(f.value or "") <= 1024
    assert len(embed.footer.text or "") <= 2048


def check_view(view: discord.ui.View | None) -> list[str]:
    """Discord's component limits; returns every public string of the view."""
    if view is None:
        return []
    payload = view.to_components()
    assert len(payload) <= 5
    strings = []
    ids = []
    for row in payload:
        children = row["components"]
        assert 1 <= len(children) <= 5
        for c in children:
            ids.append(c["custom_id"])
            assert 1 <= len(c["custom_id"]) <= 100
            strings.append(c["custom_id"])
            if c["type"] == 2:
                assert 1 <= len(c["label"]) <= 80
                strings.append(c["label"])
            else:
                assert len(children) == 1  # a select fills its row
                assert 1 <= len(c["options"]) <= 25
                for o in c["options"]:
                    assert len(o["label"]) <= 100 and len(o["value"]) <= 100
                    strings += [o["label"], o["value"]]
    assert len(ids) == len(set(ids))
    return strings


def table_for(game: Game, ai: set[str] = frozenset()) -> Table:  # type: ignore[assignment]
    row = GameRow(
        id=42, guild_id=1, channel_id=2, host_id=100, status="running", options={},
        decision_timer=300, window_timer=30, seed=0, state_json="", version=game.s.actions,
        published_event_id=0, published_version=0, lobby_message_id=None, board_message_id=None,
        board_turn=None, winner_seat=None, ending=None, broken_reason=None, created_at=0.0,
        started_at=0.0, ended_at=None,
    )  # fmt: skip
    seats = {}
    for i, name in enumerate(game.s.seats):
        prompt = game.prompt_for(name)
        seats[name] = SeatRow(
            42, name, i, None if name in ai else 100 + i, f"Player {name} " + "x" * 25,
            ai=name in ai, prompt_since=game.s.actions if prompt else None,
            deadline=1e9 if prompt else None,
        )  # fmt: skip
    return Table(row, seats, game, GuildSettings(1, 300, 30, True, 3))


def hidden(game: Game) -> set[str]:
    out: set[str] = set()
    for p in game.s.players.values():
        out.update(p.hand, p.missions, p.offered_characters, p.offered_advantages)
    for r in game.s.regions:
        if r.preliminary and not r.revealed:
            out.add(r.preliminary)
    return out


def check_state(game: Game, events: list[Event]) -> None:
    table = table_for(game, ai={game.s.seats[-1]})
    view = game.table_view()
    board = rendering.board_embed(view, game.db, table.row, table.seats)
    check_embed(board)
    public = check_view(board_view(table))
    text = " ".join([*public, board.description or "", *(f.value for f in board.fields)])
    for card in hidden(game):
        assert card not in public, f"hidden card id {card} on the board"
        assert game.db[card].name not in text or card in view.public_cards()
    for seat in table.seats.values():
        check_embed(
            rendering.hand_embed(game.seat_view(seat.seat), game.db, table.row, seat, table.names)
        )
        check_view(private_view(table, seat))


@pytest.mark.parametrize("seed", range(6))
async def test_boards_and_panels_fit_discord_over_whole_games(seed: int) -> None:
    options: dict[str, Any] = {"open_rolls": seed % 2 == 0}
    if seed % 3 == 0:
        options["tree_of_regions"] = "soo"
    result = play_game(seed, players=5, turn_cap=6, options=options, observe=check_state)
    assert result.error is None, result.traceback


async def test_many_choices_become_select_menus() -> None:
    game = Game.new(["p1", "p2"], seed=1)
    game.s.prompts = [
        Prompt(player="p1", kind="pick", text="Pick", choices=[f"pick {i}" for i in range(60)],
               default="pick 0"),
    ]  # fmt: skip
    table = table_for(game)
    board = board_view(table)
    check_view(board)
    selects = [c for c in board.children if isinstance(c.item, discord.ui.Select)]  # type: ignore[attr-defined]
    assert sum(len(s.item.options) for s in selects) == 60  # type: ignore[attr-defined]
    panel = private_view(table, table.seats["p1"])
    check_view(panel)
    game.s.prompts[0].choices = [f"pick {i}" for i in range(140)]
    panel = private_view(table, table.seats["p1"])
    strings = check_view(panel)
    assert "139" not in strings  # more than 100 choices: the first 100 are offered


def test_event_lines_and_chunks() -> None:
    names = rendering.Names(
        {"p1": SeatRow(1, "p1", 0, 5, "alice"), "p2": SeatRow(1, "p2", 1, None, "AI 1", ai=True)}
    )
    assert names.sub("p1 attacks p2!") == "**alice** attacks **🤖 AI 1**!"
    lines = [f"line {i} " + "y" * 300 for i in range(20)]
    chunks = rendering.chunk_lines(lines)
    assert all(len(c) <= 2000 for c in chunks) and sum(c.count("line ") for c in chunks) == 20
