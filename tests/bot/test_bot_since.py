"""'Since you last looked' (issue 26): a member back after an hour or more reads, above his
private panel, what he missed (a few lines: how many events, the battles, the newest lines),
the public events and his own private ones only; not after a minute; once only."""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest
import simcord
from anima_sim import Driver, World, actions, board, start_game, stored
from test_bot_noleak import LeakCheck
from test_bot_privacy import delete as delete_my_data

from bot.app import AnimaBot
from bot.rendering.since import MAX_LINES, since_text
from bot.rendering.text import seat_names
from bot.storage import EventRow, SeatRow
from engine.cards import default_cards
from engine.game import Game
from engine.options import Options
from engine.visibility import hidden_from
from words import card_name, speaking

#: The timers' tick in these tests: SimCord's time travel runs every tick of the hours travelled.
TICK = 600.0
HOURS = 3 * 3600.0
DECISION_TIMER = 3600.0


@pytest.fixture
def simcord_bot(make_bot: Callable[..., AnimaBot]) -> AnimaBot:
    """The bot, its timers ticking every ten minutes (hours go by in these tests)."""
    return make_bot(timer_tick=TICK)


async def open_hand(w: World, member: simcord.MemberActor, db_path: Path, game_id: int) -> str:
    """``member`` clicks My hand on the board: the content above his panel."""
    r = await member.click(board(w.table, db_path, game_id), custom_id=f"anima:{game_id}:hand")
    assert r.ephemeral and r.response is not None and r.response.embeds
    return r.response.content or ""


async def others_play(driver: Driver, alice: str, simcord_env: simcord.Env, timeouts: int) -> int:
    """Bob and carol decide (alice's windows pass by themselves: auto-pass); ``timeouts`` of
    alice's own decisions run out meanwhile (the default is taken for her, an hour each),
    then they play on until she has a decision; the decisions they took."""
    taken = 0
    for _ in range(2000):
        st, prompts = driver.human_prompts()
        assert st.status == "running"
        theirs = [p for p in prompts if p.player != alice]
        if theirs:
            prompt = theirs[0]
            await driver.choose(st, prompt, driver.rng.randrange(len(prompt.choices)))
            taken += 1
        elif not timeouts:
            return taken
        else:
            await simcord_env.advance_time(DECISION_TIMER + TICK)
            timeouts -= 1
    raise AssertionError("alice never had a decision")


async def away_and_back(
    w: World, simcord_env: simcord.Env, db_path: Path, away: float, timeouts: int = 0
) -> tuple[int, str, str, int]:
    """Alice, bob and carol play; alice looks at her panel while bob decides, is away
    ``away`` seconds, bob and carol play on: what alice reads above her panel when she opens
    it again, the game, her seat and the version when she looked."""
    # Alice's windows pass at once (auto-pass): no time goes by but her absence.
    await w.alice.slash(
        w.table,
        "anima settings",
        auto_moves=True,
        auto_encounters=True,
        auto_exploration=True,
        auto_battles=True,
    )
    # A slow game: a decision times out after an hour, and nobody's seat goes to the AI.
    await w.admin.slash(
        w.table, "anima settings", decision_timer=int(DECISION_TIMER), ai_takeover=0
    )
    game_id = await start_game(w, w.alice, [w.bob, w.carol], ai=0, turns=3)
    st = stored(db_path, game_id)
    alice, bob = st.seat_of(w.alice.id).seat, st.seat_of(w.bob.id).seat
    players = {m.id: m for m in (w.alice, w.bob, w.carol)}
    driver = Driver(w, db_path, game_id, players, seed=7)
    driver.use_commands = False
    await driver.until(
        lambda st, prompts: (
            st.game.s.turn >= 1
            and prompts
            and all(p.player == bob and not p.window for p in prompts)
        )
    )
    assert await open_hand(w, w.alice, db_path, game_id) == ""
    looked_version = stored(db_path, game_id).version
    await simcord_env.advance_time(away)
    assert await others_play(driver, alice, simcord_env, timeouts) > 0
    return game_id, alice, await open_hand(w, w.alice, db_path, game_id), looked_version


def hidden_throughout(db_path: Path, game_id: int, seat: str, since_version: int) -> set[str]:
    """The cards ``seat`` could not see at any moment since ``since_version`` (the test
    replays the game; the bot may not read its state)."""
    st = stored(db_path, game_id)
    replay = Game.new(list(st.seats), Options.model_validate(st.options), st.seed)
    hidden: list[set[str]] = []
    for version, player, action, _source in actions(db_path, game_id):
        replay.apply(player, action)
        if version >= since_version:
            hidden.append(hidden_from(replay.s, seat))
    assert replay.to_json() == st.game.to_json()
    return set.intersection(*hidden)


def assert_no_secret(check: LeakCheck, text: str, hidden: set[str]) -> None:
    """No card in ``hidden`` is named in ``text`` (the texts printed on cards, which may name
    another card, masked first: the no-leak test's rule)."""
    names = {name for card in hidden for name in check._names(card)}
    cleaned = text
    for static in check.static:
        cleaned = cleaned.replace(static, " ")
    for name in names:
        named = cleaned
        for longer in check.longer[name]:
            if longer not in names:
                named = named.replace(longer, " ")
        assert not re.search(rf"(?<!\w){re.escape(name)}(?!\w)", named), (name, text)


async def test_back_after_hours_she_reads_what_she_missed_once(
    w: World, simcord_env: simcord.Env, db_path: Path
) -> None:
    game_id, alice, text, looked_version = await away_and_back(
        w, simcord_env, db_path, HOURS, timeouts=2
    )
    lines = text.split("\n")
    assert 2 <= len(lines) <= MAX_LINES, text
    assert re.match(r"👀 \*\*Since you last looked\*\* \(<t:\d+:R>\): \d+ events?$", lines[0])
    missed = int(re.search(r": (\d+) events?$", lines[0])[1])  # type: ignore[index]
    assert missed >= 10  # two of her decisions timed out while bob and carol played on
    shown = [line for line in lines if line.startswith("> ")]
    assert len(lines) == MAX_LINES and shown == lines[-len(shown) :]
    assert f"… {missed - len(shown)} earlier events, then:" in lines
    if any(line.startswith("⚔️") for line in lines):
        assert re.match(r"⚔️ \d+ battles?", lines[1])
    # Nothing another player alone may see: his hand, his missions, the decks.
    check = LeakCheck(w, db_path, game_id, w.dave)
    assert_no_secret(check, text, hidden_throughout(db_path, game_id, alice, looked_version))
    # Seen: her next look tells nothing more.
    assert await open_hand(w, w.alice, db_path, game_id) == ""


async def test_back_after_a_minute_she_reads_nothing_more(
    w: World, simcord_env: simcord.Env, db_path: Path
) -> None:
    _game_id, _alice, text, _version = await away_and_back(w, simcord_env, db_path, 60)
    assert text == ""


def test_the_lines_count_the_battles_mark_her_secrets_and_cut_the_rest() -> None:
    db = default_cards()
    names = seat_names(
        [
            SeatRow(1, "p1", 0, 1, "alice"),
            SeatRow(1, "p2", 1, 2, "bob"),
            SeatRow(1, "p3", 2, 3, "carol"),
        ]
    )
    card = db.advantages[0].id
    events = [
        EventRow(1, 1, 1, "battle_result", "", None, {"winner": "p2", "margin": 2}),
        EventRow(2, 1, 2, "window_closed", "", None, {}),
        EventRow(3, 1, 3, "battle_result", "", None, {"winner": "Beast", "margin": 0}),
        EventRow(4, 1, 4, "battle_result", "", None, {"winner": "p2", "margin": 1}),
        EventRow(5, 1, 5, "battle_result", "", None, {"winner": "p3", "margin": 1}),
        EventRow(6, 1, 6, "rest", "", None, {"player": "p3"}),
        EventRow(7, 1, 7, "draw_private", "", ["p1"], {"cards": [card]}),
    ]
    with speaking("en"):
        text = since_text(events, names, db, 1_767_225_600.0)
    assert text.split("\n") == [
        "👀 **Since you last looked** (<t:1767225600:R>): 6 events",
        "⚔️ 4 battles: **bob** won 2, **carol** won 1",
        "… 4 earlier events, then:",
        "> **carol**'s party rests (+2 Strength, +2 Speed next turn).",
        f"> 🔒 You draw {card_name(card, db.by_id[card].name)}.",
    ], text
    # Only a window that closed by itself: nothing to tell.
    with speaking("en"):
        assert since_text(events[1:2], names, db, 0.0) == ""


async def test_her_looks_go_with_her_data(
    w: World, simcord_env: simcord.Env, db_path: Path, simcord_bot: AnimaBot
) -> None:
    # A look is a member's data (/anima privacy): deleted with the rest, in memory too.
    game_id, _alice, text, _version = await away_and_back(w, simcord_env, db_path, HOURS)
    assert text  # the lines shown: the look written
    looks = "SELECT game_id FROM member_seen WHERE user_id = ?"
    with sqlite3.connect(db_path) as db:
        assert db.execute(looks, (w.alice.id,)).fetchall() == [(game_id,)]
    assert await simcord_bot.storage.last_seen(game_id, w.alice.id, read=False) is not None
    await delete_my_data(w, w.alice)
    with sqlite3.connect(db_path) as db:
        assert db.execute(looks, (w.alice.id,)).fetchall() == []
    assert await simcord_bot.storage.last_seen(game_id, w.alice.id, read=False) is None
