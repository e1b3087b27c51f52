"""Refused input: every bad action raises a clear :class:`IllegalAction` and leaves the state
exactly as it was; every bad stored game raises :class:`GameDataError`."""

from __future__ import annotations

import ast
import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

import pytest

from engine.actions import Action, ActionType
from engine.agents import RandomAgent
from engine.errors import GameDataError, IllegalAction, Refusal
from engine.game import Game
from engine.prompts import PROMPT_KINDS
from engine.tools.scenario import build_game, parse
from engine.views import lazy_seat_view

PLAYERS = ["Ann", "Bob", "Cid"]
ROOT = Path(__file__).resolve().parent.parent


def _advance(game: Game, actions: int, seed: int = 7) -> Game:
    """Play ``actions`` random legal actions (fewer if the game ends)."""
    agent = RandomAgent(seed)
    for _ in range(actions):
        if game.over:
            break
        prompt = game.pending()[0]
        game.apply(prompt.player, agent.choose(lazy_seat_view(game, prompt.player), prompt))
    return game


def _start() -> Game:
    return Game.new(PLAYERS, {"turn_cap": 30}, seed=11)


def _middle() -> Game:
    game = _advance(_start(), 150)
    assert not game.over and game.s.turn >= 1
    return game


def _over() -> Game:
    game = _advance(Game.new(PLAYERS, {"turn_cap": 2}, seed=11), 10_000)
    assert game.over
    return game


STATES: dict[str, Callable[[], Game]] = {"start": _start, "middle": _middle}


def _refused(game: Game, player: str, action: Any, words: str) -> IllegalAction:
    """Apply a bad action: it raises IllegalAction naming ``words``, and nothing changes."""
    before = game.to_json()
    with pytest.raises(IllegalAction) as info:
        game.apply(player, action)
    assert words in str(info.value)
    assert game.to_json() == before
    return info.value


def _actor(game: Game) -> tuple[str, list[str]]:
    prompt = game.pending()[0]
    return prompt.player, prompt.choices


def _idle(game: Game) -> str | None:
    """A player with no open decision, if any."""
    waiting = {p.player for p in game.pending()}
    return next((n for n in game.s.seats if n not in waiting), None)


@pytest.mark.parametrize("state", STATES)
def test_illegal_action_is_refused(state: str) -> None:
    game = STATES[state]()
    player, _ = _actor(game)
    assert _refused(game, player, "pick x", "is not a legal choice now").kind is (
        Refusal.NOT_LEGAL_NOW
    )
    for bad in ("go nowhere", "keep nobody", "discard no_such_card"):
        assert _refused(game, player, bad, "no card").kind is Refusal.UNKNOWN_CARD


@pytest.mark.parametrize("state", STATES)
def test_action_of_another_prompt_is_refused(state: str) -> None:
    """A choice that is legal for one player is not for another (or for nobody waiting)."""
    game = STATES[state]()
    player, choices = _actor(game)
    idle = _idle(game)
    if idle is not None:
        _refused(game, idle, choices[0], "it is not your decision")
    others = [p for p in game.pending() if p.player != player]
    for other in others:
        foreign = [c for c in choices if c not in other.choices]
        if foreign:
            _refused(game, other.player, foreign[0], "is not a legal choice now")


def test_stale_action_is_refused() -> None:
    """An answer to a prompt that is gone (answered already, the button pressed twice)."""
    game = _start()
    prompt = game.prompt_for("Ann")
    assert prompt is not None and prompt.kind == "start_character"
    keep = prompt.choices[0]
    game.apply("Ann", keep)
    _refused(game, "Ann", keep, "is not a legal choice now")  # Ann now chooses an Advantage
    drop = game.prompt_for("Ann")
    assert drop is not None
    game.apply("Ann", drop.choices[0])
    _refused(game, "Ann", drop.choices[0], "it is not your decision")  # Ann waits for the others


def test_stale_action_mid_game_is_refused() -> None:
    """Mid-game, an action applied once and sent again is refused whenever it is no longer
    one of the sender's choices (a double click on a button)."""
    game = _middle()
    agent = RandomAgent(3)
    refused = 0
    for _ in range(60):
        prompt = game.pending()[0]
        action = agent.choose(game.seat_view(prompt.player), prompt)
        game.apply(prompt.player, action)
        again = game.prompt_for(prompt.player)
        if game.over or (again is not None and action in again.choices):
            continue
        before = game.to_json()
        with pytest.raises(IllegalAction):
            game.apply(prompt.player, action)
        assert game.to_json() == before
        refused += 1
    assert refused >= 10


@pytest.mark.parametrize("state", STATES)
def test_player_not_in_the_game_is_refused(state: str) -> None:
    game = STATES[state]()
    _, choices = _actor(game)
    _refused(game, "Mallory", choices[0], "'Mallory' is not in this game")
    _refused(game, "", choices[0], "is not in this game")
    _refused(game, "ann", choices[0], "is not in this game")  # names are case-sensitive


@pytest.mark.parametrize("state", STATES)
def test_action_over_80_characters_is_refused(state: str) -> None:
    game = STATES[state]()
    player, choices = _actor(game)
    _refused(game, player, "go " + "x" * 78, "at most 80 characters")
    _refused(game, player, "x" * 81, "at most 80 characters")
    _refused(game, player, {"type": "go", "arg": "y" * 80}, "at most 80 characters")
    _refused(game, player, choices[0] + " " * 100, "at most 80 characters")


@pytest.mark.parametrize("state", STATES)
@pytest.mark.parametrize(
    ("action", "words"),
    [
        ("fly", "unknown action 'fly'"),
        ("fly away", "unknown action 'fly'"),
        ("", "unknown action ''"),
        ("DONE", "unknown action 'DONE'"),
        ({"type": "fly"}, "malformed action"),
        ({"type": "go", "arg": "x", "extra": 1}, "malformed action"),
        ({"arg": "x"}, "malformed action"),
        (42, "an action is a string or a JSON object"),
        (None, "an action is a string or a JSON object"),
        ("keep", "'keep' needs an argument"),
        ("done now", "'done' takes no argument"),
    ],
)
def test_unknown_or_malformed_action_is_refused(state: str, action: Any, words: str) -> None:
    game = STATES[state]()
    player, _ = _actor(game)
    _refused(game, player, action, words)


def test_action_record_of_an_unknown_type_is_refused() -> None:
    """Building an Action checks nothing (a plain record): ``apply`` checks one from outside."""
    game = _start()
    player, _ = _actor(game)
    _refused(game, player, Action(type=cast(ActionType, "fly")), "unknown action 'fly'")
    _refused(game, player, Action(type="keep"), "'keep' needs an argument")


def test_action_after_the_game_is_over_is_refused() -> None:
    game = _over()
    before = game.to_json()
    for name in game.s.seats:
        with pytest.raises(IllegalAction, match="the game is over"):
            game.apply(name, "done")
        with pytest.raises(IllegalAction, match="has no open decision"):
            game.timeout(name)
    assert game.to_json() == before


def test_timeout_without_a_decision_is_refused() -> None:
    game = _start()
    game.apply("Ann", game.pending()[0].choices[0])
    drop = game.prompt_for("Ann")
    assert drop is not None
    game.apply("Ann", drop.choices[0])
    before = game.to_json()
    with pytest.raises(IllegalAction, match="has no open decision"):
        game.timeout("Ann")
    with pytest.raises(IllegalAction, match="has no open decision"):
        game.timeout("Mallory")
    assert game.to_json() == before


# ------------------------------------------------------------------------------ stored games


@pytest.mark.parametrize(
    "text",
    [
        "",
        "{",
        "not json",
        "[]",
        "null",
        "42",
        '{"players": 3}',
        '{"phase": "dancing"}',
        '{"turn": "three"}',
        '{"options": {"turn_cap": -1}}',
        '{"options": {"no_such_option": true}}',
        b"\xff\xfe",
    ],
)
def test_malformed_stored_game_is_refused(text: str | bytes) -> None:
    with pytest.raises(GameDataError, match="stored game is malformed"):
        Game.from_json(text)


def test_truncated_stored_game_is_refused() -> None:
    text = _middle().to_json()
    for cut in (1, len(text) // 3, len(text) // 2, len(text) - 1):
        with pytest.raises(GameDataError):
            Game.from_json(text[:cut])


@pytest.mark.parametrize(
    ("state", "where"),
    [
        *((state, where) for state in STATES for where in ("deck", "hand", "party", "missions")),
        ("start", "final_deck"),
        ("middle", "region"),
        ("middle", "preliminary"),
    ],
)
def test_stored_game_naming_an_unknown_card_is_refused(state: str, where: str) -> None:
    game = STATES[state]()
    before = game.to_json()
    data = json.loads(before)
    first = data["seats"][0]
    player = data["players"][first]
    if where == "deck":
        data["decks"]["advantage"][0] = "no_such_card"
    elif where == "hand":
        player.setdefault("hand", []).append("no_such_card")
    elif where == "region":
        data["regions"][0]["card"] = "no_such_card"
    elif where == "preliminary":
        data["regions"][0]["preliminary"] = "no_such_card"
    elif where == "party":
        player["party"] = [{"card": "no_such_card"}]
    elif where == "final_deck":
        data["final_deck"][0] = "no_such_card"
    else:
        player["missions"][0] = "no_such_card"
    with pytest.raises(GameDataError, match="unknown card 'no_such_card'"):
        Game.from_json(json.dumps(data))
    assert game.to_json() == before


def test_stored_game_with_an_unknown_step_is_refused() -> None:
    data = json.loads(_middle().to_json())
    data["stack"][-1]["kind"] = "no_such_step"
    with pytest.raises(GameDataError, match="unknown step 'no_such_step'"):
        Game.from_json(json.dumps(data))


# ------------------------------------------------------------------------------ G1


@pytest.mark.parametrize("players", [[], ["Ann"], ["A", "B", "C", "D", "E", "F"]])
def test_G1_one_or_six_players_are_refused(players: list[str]) -> None:
    with pytest.raises(IllegalAction, match="2 to 5 players") as info:
        Game.new(players)
    assert info.value.rule == "G1"


@pytest.mark.parametrize("count", [2, 3, 4, 5])
def test_G1_two_to_five_players_are_accepted(count: int) -> None:
    game = Game.new([f"P{i}" for i in range(count)])
    assert len(game.s.seats) == count
    assert {p.player for p in game.pending()} == set(game.s.seats)


@pytest.mark.parametrize("players", [["Ann", "Ann"], ["Ann", ""], ["Ann", "Bob Smith"]])
def test_bad_player_names_are_refused(players: list[str]) -> None:
    with pytest.raises(IllegalAction, match="player names"):
        Game.new(players)


# ---------------------------------------------------------------------- the rule a refusal cites


def _ask_kinds() -> set[str]:
    """Every prompt kind the rules modules can open: the literal second argument of each
    ``g.ask(...)`` call in engine/rules."""
    kinds: set[str] = set()
    for path in (ROOT / "engine" / "rules").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "ask"
            ):
                kind = node.args[1]
                assert isinstance(kind, ast.Constant), f"{path.name}: a prompt kind not literal"
                kinds.add(kind.value)
    return kinds


def _played_kinds(games: int, players: int, **options: Any) -> set[str]:
    """The prompt kinds met in whole games where each decision is a seeded random choice."""
    kinds: set[str] = set()
    for seed in range(games):
        chooser = random.Random(seed)
        game = Game.new(PLAYERS[:players], {"turn_cap": 25, **options}, seed=seed)
        while not game.over:
            prompts = game.pending()
            kinds.update(p.kind for p in prompts)
            prompt = prompts[chooser.randrange(len(prompts))]
            game.apply(prompt.player, chooser.choice(prompt.choices))
    return kinds


def test_every_prompt_kind_has_a_rule_and_a_description() -> None:
    assert _ask_kinds() == set(PROMPT_KINDS)
    played = _played_kinds(6, 3) | _played_kinds(3, 3, tree_of_regions="soo", final_reveal="choose")
    assert played <= set(PROMPT_KINDS), played - set(PROMPT_KINDS)
    assert len(played) >= 12  # the games met most kinds, not a handful
    for kind, entry in PROMPT_KINDS.items():
        assert entry.text and entry.text == entry.text.strip(), kind
        assert entry.rule is None or (entry.rule[0].isupper() and entry.rule[1:].isdigit())


def test_I2_a_refused_attack_cites_I2_and_a_refused_trade_I1() -> None:
    game = build_game(
        parse(
            {
                "players": ["Ann", "Bob"],
                "setup": {
                    "regions": [{"card": "village_of_cornes"}, {"card": "whispering_forest"}],
                    "players": {
                        "Ann": {"party": ["acrobat"], "region": "village_of_cornes"},
                        "Bob": {"party": ["duelist"], "region": "whispering_forest"},
                    },
                    "phase": "interaction",
                },
            }
        )
    )
    prompt = game.prompt_for("Ann")
    assert prompt is not None and prompt.kind == "interaction"
    refused = _refused(game, "Ann", "attack Bob", "is not a legal choice now")
    assert refused.rule == "I2"  # not in the same Region
    assert _refused(game, "Ann", "offer Bob", "is not a legal choice now").rule == "I1"  # forest
    assert _refused(game, "Ann", "rest", "is not a legal choice now").rule == "I1"


# ------------------------------------------------------------------------------ refusal kinds


def test_every_refusal_has_a_kind_for_the_front_end_to_word() -> None:
    """A refusal says why as data (boardgame.io's action error types): its kind and the
    parameters a front end needs, beside the engine's English reason for logs."""
    game = Game.new(["Ann", "Bob"], seed=3)
    assert _refused(game, "Ann", "fly away", "unknown action").kind is Refusal.UNKNOWN_ACTION
    malformed = _refused(game, "Ann", "keep", "needs an argument")
    assert malformed.kind is Refusal.MALFORMED and malformed.params["needs_argument"] is True
    assert _refused(game, "Ann", "x" * 81, "at most").kind is Refusal.TOO_LONG
    assert _refused(game, "Zed", "pass", "not in this game").params == {"player": "Zed"}
    unknown = _refused(game, "Ann", "keep no_such_card", "no card")
    assert unknown.kind is Refusal.UNKNOWN_CARD and unknown.params == {"card": "no_such_card"}
    other = next(c for c in game.db.by_id if c not in game.prompt_for("Ann").choices)  # type: ignore[union-attr]
    wrong = _refused(game, "Ann", f"keep {other}", "is not a legal choice now")
    assert wrong.kind is Refusal.NOT_LEGAL_NOW
    assert wrong.params == {"action": f"keep {other}", "decision": "start_character"}
    with pytest.raises(IllegalAction) as info:
        Game.new(["Ann"])
    assert info.value.kind is Refusal.PLAYER_COUNT
    assert info.value.params == {"players": 1, "low": 2, "high": 5}


def test_a_decision_of_somebody_else_names_whose_it_is() -> None:
    game = Game.new(["Ann", "Bob"], seed=3)
    while game.pending() and game.pending()[0].kind.startswith("start_"):
        prompt = game.pending()[0]
        game.apply(prompt.player, prompt.choices[0])
    waiting = sorted({p.player for p in game.pending()})
    idle = next(p for p in ("Ann", "Bob") if p not in waiting)
    refused = _refused(game, idle, "done", "not your decision")
    assert refused.kind is Refusal.NOT_YOUR_DECISION and refused.params == {
        "waiting": tuple(waiting)
    }
