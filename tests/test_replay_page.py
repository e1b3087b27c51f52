"""The replay page (``anima replay FILE --html OUT``, engine/tools/viewer): one file that fetches
nothing, with every step of the game in the public view and each seat's, each seat's hidden
cards in its own view alone, the end on the last step, in the language asked for, and small.
(The page in a real browser: tests/browser/test_replay_browser.py.)"""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest
from replay_pages import assert_self_contained, boards, hidden_at, unpack
from test_replay import simulated
from test_undo import _game_with_an_undo

from engine.game import Game
from engine.tools.cli import main
from engine.tools.replay import GameRecord, record_from
from replay_viewer import replay_page
from wording.cards import card_name
from words import speaking


@pytest.fixture(scope="module")
def played() -> tuple[Game, GameRecord]:
    game, log = simulated(7, 3, 2)
    return game, record_from(game, log)


def test_the_page_is_one_file_that_fetches_nothing(played: tuple[Game, GameRecord]) -> None:
    _game, record = played
    assert_self_contained(replay_page(record))


def test_every_step_is_drawn_in_the_public_view_and_each_seats(
    played: tuple[Game, GameRecord],
) -> None:
    game, record = played
    data = unpack(replay_page(record))
    drawn = boards(data)
    assert len(drawn) == len(record.actions) + 1  # the setup, then each action
    assert all(len(step) == len(record.players) + 1 for step in drawn)
    # The public view has no seat's own cards; each seat's view ends with them.
    assert not any(b.startswith("O") for step in drawn for b in step[0])
    assert all(step[v][-1].startswith("O") for step in drawn for v in range(1, len(step)))
    # The last step: the game's end and its winner, in every view.
    assert game.s.winner is not None
    for board in drawn[-1]:
        head = board[0]
        assert 'class="over"' in head and f">{game.s.winner}</b> wins" in head


def test_a_seats_hand_is_in_its_own_view_alone(played: tuple[Game, GameRecord]) -> None:
    game, record = played
    drawn = boards(unpack(replay_page(record)))
    seats = record.players
    final = game.seat_view(seats[0], sealed=False)
    hidden = final.hand + final.missions
    assert hidden
    for card in hidden:  # after the end too, each in the seat's own view
        name = html.escape(card_name(game.db, card))
        assert name in "".join(drawn[-1][1])
    # In the middle of the game, a card the seat holds and the table does not see shows in
    # its view and in no other.
    middle = len(drawn) // 2
    held = hidden_at(record, middle, seats[0])
    assert held
    for card in held:
        name = html.escape(card_name(game.db, card))
        assert name in "".join(drawn[middle][1])
        others = [drawn[middle][0], *drawn[middle][2:]]
        assert not any(name in "".join(board) for board in others), card


def test_a_private_line_is_marked_for_its_seats_alone(played: tuple[Game, GameRecord]) -> None:
    _game, record = played
    data = unpack(replay_page(record))
    private = [line for step in data["steps"] for line in step[2] if isinstance(line, list)]
    assert private  # the secret start tells each seat its cards
    assert all(0 < mask < 1 << len(record.players) for _index, mask in private)


def test_display_names_are_shown_escaped(played: tuple[Game, GameRecord]) -> None:
    _game, record = played
    names = {record.players[0]: "<script>alert(1)</script> **Al**"}
    page = replay_page(record, names)
    assert "<script>alert(1)" not in page
    data = unpack(page)
    assert "&lt;script&gt;alert(1)&lt;/script&gt; **Al**" in data["seats"][0]
    joined = "".join(data["strings"])
    assert "<script" not in joined and "&lt;script&gt;alert(1)" in joined


def test_the_page_speaks_the_language_asked_for(played: tuple[Game, GameRecord]) -> None:
    _game, record = played
    with speaking("es"):
        page = replay_page(record)
    data = unpack(page)
    assert '<html lang="es">' in page
    assert data["labels"]["public"] == "Vista pública"
    assert any("Turno 1" in s for s in data["strings"])


def test_anima_replay_html_writes_the_page(
    played: tuple[Game, GameRecord], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _game, record = played
    source = tmp_path / "game.json"
    source.write_text(record.to_json())
    out = tmp_path / "game.html"
    assert main(["replay", str(source), "--html", str(out), "--language", "it"]) == 0
    page = out.read_text()
    assert_self_contained(page)
    assert unpack(page)["labels"]["public"] == "Vista pubblica"
    said = capsys.readouterr().out
    assert re.fullmatch(rf"{re.escape(str(out))}: {len(record.actions) + 1} steps, \d+ KiB\n", said)


def test_anima_replay_html_refuses_a_bad_record(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "bad.json"
    source.write_text('{"format": 1, "players": ["P1"], "seed": 1}')
    out = tmp_path / "bad.html"
    assert main(["replay", str(source), "--html", str(out)]) == 1
    assert not out.exists()
    assert "malformed record: players" in capsys.readouterr().err


def test_a_long_game_page_stays_small() -> None:
    # A five-player game of two sets, 25 turns played by random agents: some 2,000 steps
    # drawn in six views each.
    game, log = simulated(11, 5, 25, {"sets": ["shadow_of_omega", "beyond_good_and_evil"]})
    record = record_from(game, log)
    page = replay_page(record)
    assert len(record.actions) > 1500
    assert len(page.encode()) < 100 * len(record.actions)  # under 100 bytes a step


def test_a_game_with_an_undo_is_drawn_step_by_step() -> None:
    # The undo (issue 25) is a step of the record like any other: the page replays it (the
    # decision before it applied as undoable) and draws every step up to the end.
    game, actions = _game_with_an_undo()
    record = record_from(game, actions)
    drawn = boards(unpack(replay_page(record)))
    assert len(drawn) == len(record.actions) + 1
    assert any(a.action == "undo" for a in record.actions)
