"""Every operation, timing and window that cards.json uses is executed by the engine."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from pydantic import BaseModel

from engine.cards import default_cards
from engine.cards import effects as fx
from engine.rules.interpreter import OPS
from engine.rules.windows import WINDOW_TEXT

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
