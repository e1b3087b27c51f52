"""Issue 9's 5-seat game of all three sets with the real cards of cards.json (the other
expansion tests play the rule tests' stand-in cards, whose ids their checks name): through the
bot to the end, with the no-leak scan over every public message, face-down Traps included."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from anima_sim import World
from test_bot_expansions import play_five_seats

from bot.app import AnimaBot
from engine.cards import default_cards

#: A deal (the bot's fixed seed) and members' choices (the driver's seed) whose game lays a
#: Trap and springs it, and explores with the three sets' Regions (M10).
DEAL_SEED, CHOICE_SEED = 7, 2


@pytest.fixture
def simcord_bot(make_bot: Callable[..., AnimaBot]) -> AnimaBot:
    """The bot with the card database it ships with."""
    return make_bot(fixed_seed=DEAL_SEED)


async def test_five_seats_play_the_three_real_sets_to_the_end_without_a_leak(
    w: World, db_path: Path
) -> None:
    kinds, texts, checked = await play_five_seats(w, db_path, default_cards(), CHOICE_SEED)
    assert {"trap_set", "trap_revealed", "explore_new_regions"} <= kinds, sorted(kinds)
    assert any("Trap face down" in t for t in texts)  # the board counts them, never names them
    assert checked > 100
