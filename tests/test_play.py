"""``anima play``: a game in the terminal, driven by scripted input.

The leak test plays whole games choosing "1" at every decision and checks every piece of text
written to the terminal, at the moment it is written, against the game: it names no card that
another seat holds hidden (hand, secret missions, start offers, a face-down Trap) unless the
human's seat has seen that card at some moment of the game.
"""

from __future__ import annotations

import io
import sys
from typing import Any

import pytest
from test_properties import NAMES, named_in, named_in_text

from engine import zones
from engine.agents.levels import DEFAULT_LEVEL, LEVELS
from engine.events import Event
from engine.game import Game
from engine.tools import cli
from engine.tools.play import TerminalGame, new_game, render_board, visible_to

HUMAN = "P1"
ALL_CARDS = set(NAMES)


class Always:
    """A terminal input that answers the same line forever."""

    def __init__(self, line: str) -> None:
        self.line = line
        self.reads = 0

    def readline(self) -> str:
        self.reads += 1
        return self.line


class Watched(io.StringIO):
    """The terminal's output, checked for hidden cards at each write."""

    def __init__(self, game: Game) -> None:
        super().__init__()
        self.game = game
        self.seen: set[str] = set()
        apply = game.apply

        def watched_apply(player: str, action: Any) -> Any:
            self.look()
            events = apply(player, action)
            self.look()
            # An event addressed to the human's seat may name a card another seat holds (a
            # trade offered to him): the engine's own property tests check that such an
            # event is his to see; from then on he has seen the card.
            for event in events:
                if visible_to(event, HUMAN):
                    self.seen |= named_in(event.data, ALL_CARDS)
                    self.seen |= named_in_text(event.text, ALL_CARDS)
            return events

        game.apply = watched_apply  # type: ignore[method-assign]
        self.look()

    def look(self) -> None:
        """Remember every card the human's seat may see now."""
        state = self.game.s
        self.seen |= set(zones.all_cards(state)) - zones.hidden_from(state, HUMAN)

    def write(self, text: str) -> int:
        self.look()
        state = self.game.s
        seen_names = {NAMES[c] for c in self.seen}
        secret = {
            card
            for card, zone in zones.places(state)
            if zone.key != HUMAN
            and not zones.is_visible_to(state, card, HUMAN)
            and card not in self.seen
            # Another copy by the same name was seen: naming it tells nothing.
            and NAMES[card] not in seen_names
        }
        leaked = named_in_text(text, secret)
        assert not leaked, f"{HUMAN} is shown {sorted(leaked)} in {text!r}"
        return super().write(text)


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_a_whole_game_choosing_1_shows_no_hidden_card_of_another_seat(seed: int) -> None:
    game, humans, agents = new_game(4, 1, "random", seed, {"turn_cap": 30})
    out = Watched(game)
    result = TerminalGame(game, humans, agents, Always("1\n"), out).run()  # type: ignore[arg-type]
    assert result == 0
    assert game.over
    text = out.getvalue()
    assert "=== Game over:" in text
    assert "P1, your decision:" in text


def test_the_board_shows_the_seats_own_cards_and_only_counts_of_the_others() -> None:
    game, _, _ = new_game(4, 1, "random", 5, {})
    view = game.seat_view(HUMAN)
    board = render_board(view, game.db)
    mine = game.s.players[HUMAN]
    for card in [*mine.missions, *mine.offered_characters, *mine.offered_advantages]:
        assert NAMES[card] in board
    for seat in ("P2", "P3", "P4"):
        other = game.s.players[seat]
        for card in [*other.missions, *other.offered_characters, *other.offered_advantages]:
            # A card by the same name may be the human's own.
            if NAMES[card] not in {NAMES[c] for c in zones.all_cards(game.s)} - {
                NAMES[c] for c in zones.hidden_from(game.s, HUMAN)
            }:
                assert NAMES[card] not in board
        assert f"{seat}: choosing a leader" in board  # S3: leaders hidden during setup


def test_the_log_keeps_only_events_the_seat_may_see() -> None:
    game, humans, agents = new_game(4, 2, "random", 7, {})
    session = TerminalGame(game, humans, agents, Always("1\n"), io.StringIO())  # type: ignore[arg-type]
    assert session.unseen[HUMAN] == [e.text for e in game.last_events]  # all public
    session.record(
        [
            Event("draw", "P3 draws 2 Advantages."),
            Event("draw_private", "You draw Scrying, Fireball.", ["P3"]),
            Event("draw_private", "You draw Holy Water.", ["P1"]),
            Event("offer", "P2 makes an offer to P1.", ["P1", "P2"]),
        ]
    )
    assert session.unseen["P1"][-3:] == [
        "P3 draws 2 Advantages.",
        "You draw Holy Water.",
        "P2 makes an offer to P1.",
    ]
    assert session.unseen["P2"][-2:] == ["P3 draws 2 Advantages.", "P2 makes an offer to P1."]


def run_cli(monkeypatch: pytest.MonkeyPatch, capsys: Any, stdin: Any, *args: str) -> Any:
    monkeypatch.setattr(sys, "stdin", stdin)
    code = cli.main(["play", *args])
    return code, capsys.readouterr()


def test_bad_input_gets_a_message_and_asks_again(
    monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    code, out = run_cli(
        monkeypatch, capsys, io.StringIO("one\n0\n99\n?\n?1\n?x\n\nq\n"), "--seed", "4"
    )
    assert code == 1
    assert "Not a number: 'one'" in out.out
    assert "No choice 0: type a number from 1 to 2." in out.out
    assert "No choice 99: type a number from 1 to 2." in out.out
    assert "Type the number of a choice" in out.out  # the help
    assert "(character):" in out.out  # ?1: the offered leader's card text
    assert "Type ?N with N from 1 to 2." in out.out
    assert "Not a number: ''" in out.out
    assert "Game left unfinished: you left the game." in out.out
    assert "Traceback" not in out.out + out.err


def test_the_end_of_the_input_leaves_cleanly(monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    code, out = run_cli(monkeypatch, capsys, io.StringIO("1\n1\n"), "--seed", "4")
    assert code == 1
    assert "Game left unfinished: the input ended." in out.out


class Interrupted:
    def readline(self) -> str:
        raise KeyboardInterrupt


def test_ctrl_c_leaves_cleanly(monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    code, out = run_cli(monkeypatch, capsys, Interrupted(), "--seed", "4")
    assert code == 130
    assert "Game left unfinished: interrupted." in out.out


def test_a_whole_game_from_the_command_with_every_seat_ai_but_one(
    monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    code, out = run_cli(monkeypatch, capsys, Always("1\n"), "--seed", "9", "--turn-cap", "20")
    assert code == 0
    assert f"AI ({DEFAULT_LEVEL}): P2, P3, P4" in out.out
    assert "=== Game over:" in out.out


def test_hot_seat_says_whose_turn_it_is(monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    code, out = run_cli(
        monkeypatch, capsys, io.StringIO("1\n1\n1\n1\n"), "--seed", "4", "--humans", "2"
    )
    assert code == 1
    assert "##### P1 at the keyboard" in out.out
    assert "##### P2 at the keyboard" in out.out


def test_the_command_refuses_what_cannot_be_played(
    monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    code, out = run_cli(monkeypatch, capsys, io.StringIO(""), "--humans", "0")
    assert code == 2
    assert "--humans must be 1 to 4" in out.err
    with pytest.raises(SystemExit):
        cli.main(["play", "--ai", "grandmaster"])
    assert "invalid choice: 'grandmaster'" in capsys.readouterr().err
    assert DEFAULT_LEVEL in LEVELS
