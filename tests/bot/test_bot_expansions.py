"""The expansions at the table (issue 9, "Play"): the lobby's card sets and S5, Start's
refusals (G1), and a 5-seat game of all three sets played to the end through the bot, with the
no-leak scan over every public message (face-down Traps included).

The bot plays the stand-in expansion cards of the rule tests (``expansion_table``), injected as
its card database: the expansions' own cards are not in cards.json yet."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from pathlib import Path

import discord
import pytest
import simcord
from anima_sim import (
    Driver,
    World,
    board_text,
    components,
    lines_text,
    message_by_id,
    open_lobby,
    private_reply,
    stored,
)
from expansion_table import ALL_SETS, expansion_cards
from test_bot_noleak import LeakCheck

from bot.app import AnimaBot
from engine.cards import CardDB

BGE = "beyond_good_and_evil"
TOTG = "twilight_of_the_gods"


@pytest.fixture
def simcord_bot(make_bot: Callable[..., AnimaBot]) -> AnimaBot:
    """The bot with the stand-in expansion cards; its deal (seed 7) offers Traps to two of
    the human seats of a 5-seat game of the three sets."""
    return make_bot(cards=expansion_cards(), fixed_seed=7)


def public_events(db_path: Path, game_id: int) -> list[tuple[str, dict[str, object]]]:
    """(kind, payload) of every public event the bot logged."""
    with sqlite3.connect(db_path) as db:
        rows = db.execute(
            "SELECT kind, data_json FROM events WHERE game_id = ? AND recipients IS NULL "
            "ORDER BY id",
            (game_id,),
        ).fetchall()
    return [(kind, json.loads(data)) for kind, data in rows]


def select_values(message: discord.Message, custom_id: str) -> list[str]:
    return next(c.values for c in components(message) if c.custom_id == custom_id)


async def choose_sets(
    w: World, host: simcord.MemberActor, lobby: discord.Message, game_id: int, sets: list[str]
) -> discord.Message:
    """The host picks the card sets in the lobby's menu; the lobby message, updated."""
    r = await host.select(lobby, sets, custom_id=f"anima:lobby:{game_id}:sets")
    assert r.acknowledged and private_reply(r) is None, private_reply(r)
    return message_by_id(w.table, lobby.id)


async def test_lobby_offers_the_sets_of_the_card_database_and_S5_when_twilight_is_combined(
    w: World, db_path: Path
) -> None:
    game_id, lobby = await open_lobby(w, w.alice, [w.bob])
    assert select_values(lobby, f"anima:lobby:{game_id}:sets") == ALL_SETS
    edition = f"anima:lobby:{game_id}:edition"
    assert "S5" not in select_values(lobby, edition)  # Shadow of Omega alone
    lobby = await choose_sets(w, w.alice, lobby, game_id, ["twilight_of_the_gods"])
    assert "S5" not in select_values(lobby, edition)  # Twilight alone: S5 has no effect
    # The menu's order, whatever the order of the clicks.
    lobby = await choose_sets(w, w.alice, lobby, game_id, ["twilight_of_the_gods", BGE])
    assert stored(db_path, game_id).options["sets"] == [BGE, "twilight_of_the_gods"]
    assert "S5" in select_values(lobby, edition)
    r = await w.alice.select(lobby, ["V2", "S5"], custom_id=edition)
    assert r.acknowledged and private_reply(r) is None
    options = stored(db_path, game_id).options
    assert options["combined_missions"] == "older" and options["party_tie"] == "stands"
    lobby = message_by_id(w.table, lobby.id)
    field = next(f for f in lobby.embeds[0].fields if f.name == "Edition options")
    assert "Older sets' missions" in (field.value or "")
    # Without Twilight the option is neither offered nor shown, and an edition change keeps it.
    lobby = await choose_sets(w, w.alice, lobby, game_id, [BGE])
    assert "S5" not in select_values(lobby, edition)
    field = next(f for f in lobby.embeds[0].fields if f.name == "Edition options")
    assert "Older sets' missions" not in (field.value or "")
    await w.alice.select(lobby, ["V2"], custom_id=edition)
    assert stored(db_path, game_id).options["combined_missions"] == "older"


async def test_G1_start_refuses_a_player_count_the_sets_forbid_and_changes_nothing(
    w: World, db_path: Path
) -> None:
    game_id, lobby = await open_lobby(w, w.alice, [w.bob, w.carol], ai=2)
    # G1: Twilight of the Gods alone seats 2-4 (Beyond Good and Evil alone seats 2-5).
    lobby = await choose_sets(w, w.alice, lobby, game_id, [TOTG])
    before = stored(db_path, game_id)
    r = await w.alice.click(lobby, custom_id=f"anima:lobby:{game_id}:start")
    refusal = private_reply(r) or ""
    assert refusal == "The game cannot start. These sets are played by 2 to 4 players, not 5."
    after = stored(db_path, game_id)
    assert after.status == "lobby" and after.state_json is None
    assert after.options == before.options and list(after.seats) == list(before.seats)
    # The same table with the three sets combined may start (2-5 players).
    lobby = await choose_sets(w, w.alice, lobby, game_id, ALL_SETS)
    r = await w.alice.click(lobby, custom_id=f"anima:lobby:{game_id}:start")
    assert private_reply(r) is None, private_reply(r)
    assert stored(db_path, game_id).status == "running"


async def play_five_seats(
    w: World, db_path: Path, cards: CardDB, seed: int
) -> tuple[set[str], list[str], int]:
    """A 5-seat game of all three sets (3 members, 2 AI seats, 5 turns) played to the end with
    the no-leak scan after every step; (public event kinds, public texts, views checked)."""
    humans = [w.alice, w.bob, w.carol]
    game_id, lobby = await open_lobby(w, w.alice, humans[1:], ai=2, turns=5)
    lobby = await choose_sets(w, w.alice, lobby, game_id, ALL_SETS)
    r = await w.alice.click(lobby, custom_id=f"anima:lobby:{game_id}:start")
    assert private_reply(r) is None, private_reply(r)
    st = stored(db_path, game_id, cards)
    assert len(st.seats) == 5 and sum(s.ai for s in st.seats.values()) == 2
    assert st.options["sets"] == ALL_SETS
    check = LeakCheck(w, db_path, game_id, w.dave, cards)
    check.check()
    # The players lay every Trap they can (and hire Arcane characters): the decks hold few
    # Traps, and a game that lays none would not test that they stay face down.
    traps = {c.id for c in cards.advantages if c.kind == "trap"}

    def prefer(choice: str) -> bool:
        kind, _, arg = choice.partition(" ")
        keep = kind == "drop" and arg not in traps  # the start: give back anything else
        return (kind == "play" and arg in traps) or kind == "hire_arcane" or keep

    driver = Driver(
        w, db_path, game_id, {m.id: m for m in humans}, seed=seed, cards=cards, prefer=prefer
    )
    while await driver.step():
        check.check()
    check.check()
    assert stored(db_path, game_id, cards).status == "over"
    kinds = {kind for kind, _ in public_events(db_path, game_id)}
    public = w.table.history(viewer=w.dave)
    texts = [lines_text(m) for m in public] + [board_text(m) for m in public]
    return kinds, texts, check.checked


async def test_five_seats_play_all_three_sets_to_the_end_without_a_leak(
    w: World, db_path: Path
) -> None:
    kinds, texts, checked = await play_five_seats(w, db_path, expansion_cards(), seed=2)
    # The game went through the expansions: Traps laid face down and sprung, a Region's level
    # changed, M10's exploration, E7's flight.
    assert {"trap_set", "trap_revealed", "region_level", "explore_new_regions", "flee"} <= kinds
    assert any("Trap face down" in t for t in texts)  # the board counts them
    assert any("🪤 A Trap springs at" in t for t in texts)
    assert checked > 100
