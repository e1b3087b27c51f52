"""Undo (issue 25): a player takes back his last decision while nothing hidden or random was
revealed since and nobody else decided; the game becomes the replay of its actions minus the
last, and replays, records and ``anima verify`` still reproduce it."""

from __future__ import annotations

import json
import pickle
import random
from collections.abc import Callable

import pytest

from engine import Game, IllegalAction, Refusal, UndoRefusal, record_from
from engine.rng import derived_server_seed
from engine.state import GameState
from engine.tools.replay import RecordedAction, replay
from engine.tools.verify import verify

#: (state before, game after, the actor, the action): whether this is the case looked for.
Wanted = Callable[[GameState, Game, str, str], bool]


def _game(seed: int) -> Game:
    return Game.new(["a", "b", "c"], seed=seed, server_seed=derived_server_seed(seed))


def _play_until(want: Wanted, seeds: range = range(40)) -> tuple[Game, list[RecordedAction], str]:
    """Random games, every action the player's own decision, until the last action is one
    ``want`` looks for: the game, its actions and the actor."""
    for seed in seeds:
        game = _game(seed)
        chooser = random.Random(seed)
        actions: list[RecordedAction] = []
        while not game.over and game.version < 400:
            prompt = game.pending()[0]
            choice = chooser.choice(prompt.choices)
            before = pickle.loads(pickle.dumps(game.s))
            game.apply(prompt.player, choice, undoable=True)
            actions.append(RecordedAction(player=prompt.player, action=choice))
            if want(before, game, prompt.player, choice):
                return game, actions, prompt.player
    raise AssertionError("no game of the seeds has the case")


def _dice_moved(before: GameState, game: Game) -> bool:
    assert before.dice is not None and game.s.dice is not None
    return before.dice.drawn != game.s.dice.drawn


def _refused(game: Game, seat: str, why: UndoRefusal) -> None:
    """``seat`` may not undo, for ``why``; the action ``undo`` is refused and changes nothing."""
    assert game.undo_refusal(seat) == why
    state = game.to_json()
    with pytest.raises(IllegalAction) as caught:
        game.apply(seat, "undo")
    assert caught.value.kind == Refusal.UNDO_REFUSED
    assert caught.value.params["why"] == why
    assert game.to_json() == state


def _without_last(actions: list[RecordedAction], game: Game) -> str:
    """The state of the replay of ``actions`` minus the last, its version counting the
    undone action and the undo (the log's numbering)."""
    record = record_from(game, [], check=False)
    record.actions = actions[:-1]
    state = json.loads(replay(record).to_json())
    state["actions"] = len(actions) + 1
    return json.dumps(state)


def test_undo_allowed_after_a_choice_with_no_draw_or_die() -> None:
    def rest(before: GameState, game: Game, seat: str, action: str) -> bool:
        return action == "rest" and not _dice_moved(before, game)

    game, actions, seat = _play_until(rest)
    assert game.undo_refusal(seat) is None
    version = game.version
    events = game.apply(seat, "undo")
    assert [e.kind for e in events] == ["undone"] and events[0].to is None
    assert game.version == version + 1
    assert json.loads(game.to_json()) == json.loads(_without_last(actions, game))
    # The movement decision is his again, as before the Rest.
    prompt = game.prompt_for(seat)
    assert prompt is not None and "rest" in prompt.choices


def test_undo_refused_after_a_die_rolled() -> None:
    game, _, seat = _play_until(lambda before, game, seat, action: _dice_moved(before, game))
    _refused(game, seat, UndoRefusal.RANDOMNESS_REVEALED)


def test_undo_refused_after_a_card_drawn() -> None:
    def drew(before: GameState, game: Game, seat: str, action: str) -> bool:
        new = set(game.s.players[seat].hand) - set(before.players[seat].hand)
        from_deck = any(card in deck for deck in before.decks.values() for card in new)
        return from_deck and not _dice_moved(before, game)

    game, _, seat = _play_until(drew)
    _refused(game, seat, UndoRefusal.HIDDEN_REVEALED)


def test_undo_refused_after_a_card_looked_at() -> None:
    def peeked(before: GameState, game: Game, seat: str, action: str) -> bool:
        looks = sum(len(r.peeked) for r in before.regions)
        return sum(len(r.peeked) for r in game.s.regions) > looks and not _dice_moved(before, game)

    game, _, seat = _play_until(peeked, range(3, 4))
    _refused(game, seat, UndoRefusal.HIDDEN_REVEALED)


def test_undo_refused_after_a_card_shown_to_another_in_a_trade_offer() -> None:
    def offered(before: GameState, game: Game, seat: str, action: str) -> bool:
        answer = [p for p in game.pending() if p.kind == "trade_answer"]
        gives = any(p.data.get("give") for p in answer) or any(
            c in before.players[seat].hand for p in answer for c in _named(p.data)
        )
        return action == "send" and gives

    game, _, seat = _play_until(offered)
    _refused(game, seat, UndoRefusal.HIDDEN_REVEALED)


def _named(data: object) -> list[str]:
    if isinstance(data, str):
        return [data]
    if isinstance(data, dict):
        return [x for v in data.values() for x in _named(v)]
    if isinstance(data, list):
        return [x for v in data for x in _named(v)]
    return []


def _window_opened(before: GameState, game: Game, seat: str, action: str) -> bool:
    """A move that opened a reaction window for the others, nothing drawn yet."""
    others = [p for p in game.pending() if p.window and p.player != seat]
    return action.startswith("go ") and bool(others) and game.undo_refusal(seat) is None


def test_undo_refused_after_another_answers_the_reaction_window() -> None:
    game, _, seat = _play_until(_window_opened)
    other = next(p for p in game.pending() if p.window and p.player != seat)
    game.apply(other.player, "pass")  # answered by another (an AI or his auto-pass)
    _refused(game, seat, UndoRefusal.OTHERS_DECIDED)


def test_undo_refused_after_another_seat_decided() -> None:
    game, _, seat = _play_until(_window_opened)
    other = next(p for p in game.pending() if p.window and p.player != seat)
    game.apply(other.player, "pass", undoable=True)  # his own decision, undoable by him
    _refused(game, seat, UndoRefusal.OTHERS_DECIDED)
    assert game.undo_refusal(other.player) in (None, UndoRefusal.RANDOMNESS_REVEALED)


def test_undo_refused_for_an_action_not_his() -> None:
    game = _game(2)
    game.apply("a", game.legal_actions("a")[0], undoable=True)
    _refused(game, "b", UndoRefusal.NOT_YOUR_LAST)  # a's decision, b has none
    assert game.undo_refusal("a") is None


def test_undo_of_an_earlier_decision_refused_once_another_decided() -> None:
    game, _, seat = _play_until(_window_opened)
    stranger = next(s for s in game.s.seats if s != seat)  # he decided earlier in the game
    _refused(game, stranger, UndoRefusal.OTHERS_DECIDED)


def test_undo_refused_after_a_time_out_taken_for_him() -> None:
    def then_his_window(before: GameState, game: Game, seat: str, action: str) -> bool:
        prompt = game.prompt_for(seat)
        return game.undo_refusal(seat) is None and prompt is not None and len(game.pending()) > 1

    game, _, seat = _play_until(then_his_window)
    game.timeout(seat)
    _refused(game, seat, UndoRefusal.NOT_YOUR_LAST)


def test_nothing_to_undo_at_the_start_after_a_reload_and_after_an_undo() -> None:
    game = _game(1)
    _refused(game, "a", UndoRefusal.NOTHING_TO_UNDO)
    keep = game.legal_actions("a")[0]
    game.apply("a", keep, undoable=True)
    assert game.undo_refusal("a") is None
    reloaded = Game.from_json(game.to_json())
    _refused(reloaded, "a", UndoRefusal.NOTHING_TO_UNDO)
    game.apply("a", "undo")
    _refused(game, "a", UndoRefusal.NOTHING_TO_UNDO)
    plain = _game(1)
    plain.apply("a", keep)  # not applied as his undoable decision (an AI seat's, a replay's)
    _refused(plain, "a", UndoRefusal.NOTHING_TO_UNDO)


def _game_with_an_undo() -> tuple[Game, list[RecordedAction]]:
    """A keyed game played on after an undo, to its end or 400 actions."""
    game, actions, seat = _play_until(
        lambda before, game, seat, action: action == "rest" and game.undo_refusal(seat) is None
    )
    game.apply(seat, "undo")
    actions.append(RecordedAction(player=seat, action="undo"))
    chooser = random.Random(7)
    while not game.over and game.version < 400:
        prompt = game.pending()[0]
        choice = chooser.choice(prompt.choices)
        game.apply(prompt.player, choice, undoable=True)
        actions.append(RecordedAction(player=prompt.player, action=choice))
    return game, actions


def test_replay_of_a_game_with_an_undo_reproduces_the_state() -> None:
    game, actions = _game_with_an_undo()
    record = record_from(game, actions)  # checks the replay against the state, byte for byte
    assert replay(record).to_json() == game.to_json()
    assert any(a.action == "undo" for a in record.actions)


def test_verify_passes_on_a_keyed_game_with_an_undo() -> None:
    game, actions = _game_with_an_undo()
    verdict = verify(record_from(game, actions))
    assert verdict.ok, verdict.problems
    assert verdict.steps == len(actions)


def test_a_record_that_undoes_a_die_roll_does_not_replay() -> None:
    game, actions, seat = _play_until(lambda before, game, seat, action: _dice_moved(before, game))
    actions.append(RecordedAction(player=seat, action="undo"))
    record = record_from(game, [], check=False)
    record.actions = actions
    with pytest.raises(Exception, match="undo"):
        replay(record)
