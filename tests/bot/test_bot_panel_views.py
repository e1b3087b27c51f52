"""The views the bot renders (issue 10): a panel's view has no sealed table (only agents read
it) and shares the board's public table, and is otherwise the full view of its seat."""

from __future__ import annotations

from test_bot_render import table_for

from engine.agents import RandomAgent
from engine.game import Game
from engine.views import lazy_seat_view


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
