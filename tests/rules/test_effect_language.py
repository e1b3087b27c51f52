"""Every operation, timing and window that cards.json uses is executed by the engine."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from pydantic import BaseModel

from engine.cards import default_cards
from engine.cards import effects as fx
from engine.errors import IllegalAction
from engine.game import Game
from engine.rules.interpreter import OPS
from engine.rules.windows import WINDOW_TEXT
from engine.tools.scenario import build_game, parse

#: Timings the engine runs, and where: a test per row would fail if one went missing.
EXECUTED_TIMINGS = {
    "play": "play.usable_ability (phase steps)",
    "interrupt": "play.window_plays",
    "battle": "play.window_plays (battle_start, fighting)",
    "static": "party.static_bonus / party.monster_strength",
    "on_reveal": "exploration.run_encounter (events), advantages._reveal_trap (Traps, M9)",
    "on_win": "battle._roll (monster beats the party)",
    "on_lose": "battle._roll (monster beaten)",
    "movement_end": "advantages.run_after_movement (Incidents, M9)",
}


def _walk(value: Any) -> Iterator[BaseModel]:
    if isinstance(value, BaseModel):
        yield value
        for name in type(value).model_fields:
            yield from _walk(getattr(value, name))
    elif isinstance(value, list):
        for item in value:
            yield from _walk(item)


def test_T4_every_operation_used_by_a_card_has_an_interpreter() -> None:
    used = {m.op for card in default_cards() for m in _walk(card) if hasattr(m, "op")}
    assert used <= set(OPS), used - set(OPS)
    assert set(OPS) == fx.OPERATIONS


def test_T4_every_timing_and_window_used_by_a_card_is_executed() -> None:
    abilities = [m for card in default_cards() for m in _walk(card) if isinstance(m, fx.Ability)]
    assert {a.timing for a in abilities} <= set(EXECUTED_TIMINGS)
    assert set(EXECUTED_TIMINGS) == fx.TIMINGS
    assert {a.when for a in abilities if a.when} <= set(WINDOW_TEXT)


def test_T4_static_abilities_hold_only_modifiers() -> None:
    # party.static_bonus reads only Modify operations: anything else would silently do nothing.
    for card in default_cards():
        for ability in card.abilities:
            if ability.timing == "static":
                assert all(isinstance(op, fx.Modify) for op in ability.effects), card.id


def _agent_table(a_hand: list[str], b_hand: list[str]) -> Game:
    setup = {
        "players": {
            "A": {"party": ["agent"], "hand": a_hand},
            "B": {"party": ["heretic"], "hand": b_hand},  # slower: A acts first
        },
    }
    options = {"sets": ["beyond_good_and_evil"]}
    return build_game(parse({"players": ["A", "B"], "seed": 5, "options": options, "setup": setup}))


def test_exchange_advantage_gives_a_chosen_card_and_takes_a_random_one() -> None:
    """The Agent (Reset phase): A gives the card he picks and takes one of B's at random."""
    game = _agent_table(["blessed_blade", "holy_day"], ["sacrifice", "slander"])
    game.apply("A", "ability agent")
    game.apply("A", "pick B")
    prompt = game.prompt_for("A")
    assert prompt is not None and prompt.choices == ["pick blessed_blade", "pick holy_day"]
    events = game.apply("A", "pick blessed_blade")
    a_hand, b_hand = game.s.players["A"].hand, game.s.players["B"].hand
    assert len(a_hand) == len(b_hand) == 2
    assert "blessed_blade" in b_hand and "holy_day" in a_hand
    taken = next(card for card in a_hand if card != "holy_day")
    assert taken in {"sacrifice", "slander"}
    public = next(e for e in events if e.kind == "exchange_advantage")
    assert public.data == {"player": "A", "victim": "B"} and public.to is None
    private = next(e for e in events if e.kind == "exchange_advantage_private")
    assert sorted(private.to or []) == ["A", "B"]
    assert (private.data["given"], private.data["taken"]) == ("blessed_blade", taken)
    assert game.s.players["A"].party[0].tapped


def test_exchange_advantage_needs_a_card_on_both_sides() -> None:
    """No empty choices: with no Advantage on one side the exchange would change nothing, so
    the Agent's ability is not offered (and not accepted)."""
    for a_hand, b_hand in ((["blessed_blade"], []), ([], ["sacrifice"])):
        game = _agent_table(a_hand, b_hand)
        prompt = game.prompt_for("A")
        assert prompt is not None and prompt.kind == "reset"
        assert "ability agent" not in prompt.choices
        with pytest.raises(IllegalAction):
            game.apply("A", "ability agent")
        assert not game.s.players["A"].party[0].tapped
