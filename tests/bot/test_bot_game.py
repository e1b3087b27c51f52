"""A whole game from /anima start to the end, driven through commands and button clicks."""

from __future__ import annotations

from pathlib import Path

from anima_sim import Driver, World, board_text, components, message_by_id, start_game, stored
from anima_sim import board as current_board


async def test_whole_game_three_humans_and_an_ai(w: World, db_path: Path) -> None:
    game_id = await start_game(w, w.alice, [w.bob, w.carol], ai=1, turns=3)
    st = stored(db_path, game_id)
    assert st.status == "running" and st.options["turn_cap"] == 3
    assert [s.name for s in st.seats.values()] == ["alice", "bob", "carol", "AI 1"]
    assert st.seats["p4"].ai and st.seats["p4"].user_id is None

    # The lobby message is closed, the board is posted with the start buttons.
    lobby = message_by_id(w.table, st.lobby_message_id)
    assert "has started" in (lobby.embeds[0].description or "") and not lobby.components
    board = current_board(w.table, db_path, game_id)
    labels = {c.label for c in components(board)}
    assert {"Choose my start", "My hand"} <= labels

    # Everybody got his secret start by DM, with the buttons to choose.
    for member in (w.alice, w.bob, w.carol):
        dm = member.user.dm_channel.history()[-1]
        assert dm.embeds[0].title.startswith("Your secret start")
        assert any(c.label.startswith("Lead with") for c in components(dm))

    players = {m.id: m for m in (w.alice, w.bob, w.carol)}
    driver = Driver(w, db_path, game_id, players, seed=1)
    final = await driver.play()
    assert final.status == "over"
    assert driver.clicks > 100 and driver.commands > 0  # buttons, panels and /anima play
    game = final.game
    assert game.over and game.s.ending in {
        "turn_cap",
        "final_mission",
        "crisis_won",
        "crisis_lost",
        "last_player",
    }

    # The end: the outcome line, the summary, and a board without buttons.
    public = w.table.history(viewer=w.dave)
    summary = [m for m in public if m.embeds and m.embeds[0].title.endswith("is over")]
    assert len(summary) == 1
    assert any(x in (summary[0].embeds[0].description or "") for x in ("wins", "Nobody wins"))
    players_fields = [f for f in summary[0].embeds[0].fields if f.name != "Tie-break"]
    assert len(players_fields) == 4 and all("👑 Leader" in f.value for f in players_fields)
    last_board = current_board(w.table, db_path, game_id)
    assert not components(last_board)
    assert "over" in board_text(last_board).split("\n")[0].lower()
    # One board in the channel: each new batch of lines came with the board under it, and
    # the older board messages kept their lines only (issue 8).
    shown = {m.id: board_text(m).removeprefix("### ") for m in public if m not in summary}
    boards = [m for m in public if shown.get(m.id, "").startswith("Anima · game")]
    assert [m.id for m in boards] == [last_board.id]
    assert all(not components(m) for m in public)

    # The stats were recorded with the last action.
    stats = await w.alice.slash(w.table, "anima stats")
    assert stats.ephemeral
    text = stats.response.embeds[0].description + stats.response.embeds[0].fields[0].value
    assert "Games played: **1**" in text
    for name in ("alice", "bob", "carol", "AI players"):
        assert name in text

    # A new game can be started in the channel now.
    again = await w.bob.slash(w.table, "anima start")
    assert not again.ephemeral
