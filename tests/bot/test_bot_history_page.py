"""``/anima history``'s replay page (bot.history.files, docs/replay.md): attached beside the log
and the record, with the seats by their display names, in the reader's language; left out
(the log and the record still sent) when the three would pass Discord's attachments limit."""

from __future__ import annotations

import pytest
from replay_pages import assert_self_contained, unpack
from test_bot_render import table_for
from test_replay import simulated

from bot import history
from words import speaking


def history_files(limit: int | None = None) -> dict[str, bytes]:
    game, log = simulated(7, 3, 2)
    table = table_for(game, ai={game.s.seats[2]})
    table.row.status = "over"
    actions = [(i + 1, seat, action, "player") for i, (seat, action) in enumerate(log)]
    with pytest.MonkeyPatch.context() as patch:
        if limit is not None:
            patch.setattr(history, "ATTACHMENTS_LIMIT", limit)
        with speaking("ru"):
            files = history.files(table.row, list(table.seats.values()), [], game, actions)
    return {f.filename: f.fp.read() for f in files}


def test_the_history_attaches_the_replay_page_in_the_readers_language() -> None:
    files = history_files()
    assert sorted(files) == [
        "anima-game-42-replay.html",
        "anima-game-42-replay.json",
        "anima-game-42.md",
    ]
    page = files["anima-game-42-replay.html"].decode()
    assert_self_contained(page)
    data = unpack(page)
    assert data["labels"]["public"] == "Общий вид"
    names = data["labels"]["names"]
    assert names[0] == "Player P1 " + "x" * 25 and names[2].startswith("🤖 Player P3")


def test_a_page_past_discords_limit_is_left_out_and_the_rest_sent() -> None:
    files = history_files(limit=10_000)
    assert sorted(files) == ["anima-game-42-replay.json", "anima-game-42.md"]
