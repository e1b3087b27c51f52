"""Undo through the bot (issue 25): a member's panel offers Undo after his own decision while
nothing is revealed and nobody else decided; the click takes it back in one commit (a row
``undo`` of the action log), a stale Undo is refused with the reason, and a restart after an
undo keeps the game and its replay exact."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
import simcord
from anima_sim import (
    Driver,
    Stored,
    World,
    actions,
    board,
    chose,
    components,
    drive_new_game,
    lines_text,
    private_reply,
    stored,
)
from databases import TestDatabase

from bot.app import AnimaBot
from bot.database import Hop
from bot.games.undo import REFUSED
from bot.history import leaders
from bot.migrate import StoredGame, does_not_replay
from engine import Game, UndoRefusal, record_from
from engine.prompts import Prompt
from engine.rng import derived_server_seed
from engine.tools.replay import RecordedAction
from words import msg, say

pytestmark = pytest.mark.both_backends


def _lone_reset(st: Stored, prompts: list[Prompt]) -> bool:
    """A member's reset decision, alone, with Done among its choices."""
    return len(prompts) == 1 and prompts[0].kind == "reset" and "done" in prompts[0].choices


async def _decide_done(w: World, database: TestDatabase, driver: Driver) -> tuple[Any, int, str]:
    """The member whose reset it is clicks Done on the board, then opens his panel: (the
    panel, the game id, his seat)."""
    st, prompts = await driver.until(_lone_reset)
    prompt = prompts[0]
    result = await driver.choose(st, prompt, prompt.choices.index("done"))
    assert chose(result), private_reply(result)
    member = driver.players[st.seats[prompt.player].user_id or 0]
    opened = await member.click(
        board(w.table, database, driver.game_id), custom_id=f"anima:{driver.game_id}:hand"
    )
    assert opened.ephemeral and opened.response is not None
    return opened.response, driver.game_id, prompt.player


async def _undo_shown(
    w: World, database: TestDatabase, ai: int, seed: int
) -> tuple[Driver, Any, int, str, str, Any]:
    """A game of alice and bob (and ``ai`` AI seats) where a member decided Done and his
    panel shows Undo: the driver, the panel, the game, the seat, Undo's id, the member."""
    _, driver = await drive_new_game(w, database, [w.alice, w.bob], ai=ai, seed=seed)
    panel, game_id, seat = await _decide_done(w, database, driver)
    undo = _undo_id(panel, game_id)
    assert undo is not None, components(panel)
    member = driver.players[stored(database, game_id).seats[seat].user_id or 0]
    return driver, panel, game_id, seat, undo, member


def _undo_id(panel: Any, game_id: int) -> str | None:
    ids = [c.custom_id for c in components(panel) if c.custom_id]
    return next((i for i in ids if i.startswith(f"anima:{game_id}:undo:")), None)


def _said(result: Any) -> str:
    """The answer to a click in a panel: the panel edited in place, or a private reply."""
    if result.response is not None and result.response.content:
        return str(result.response.content)
    return private_reply(result) or ""


def _replays(database: TestDatabase, game_id: int) -> None:
    """The log, the undo included, replays to the stored state (what ``/anima history``'s
    record and ``anima-bot migrate`` check)."""
    st = stored(database, game_id)
    steps = [
        RecordedAction(player=seat, action=action, timeout=source == "timeout")
        for _v, seat, action, source in actions(database, game_id)
    ]
    record_from(st.game, steps)  # raises unless the replay gives the stored state exactly


async def test_clicking_undo_takes_the_decision_back_in_one_commit(
    w: World, simcord_env: simcord.Env, database: TestDatabase
) -> None:
    _, panel, game_id, seat, undo, member = await _undo_shown(w, database, ai=0, seed=3)
    before = stored(database, game_id)
    assert before.game.prompt_for(seat) is None  # Done was taken: his reset is over

    bot = simcord_env.bot
    assert isinstance(bot, AnimaBot)
    hops: list[Hop] = []
    bot.storage.db.trace = hops.append  # every hop to the database
    r = await member.click(panel, custom_id=undo)
    bot.storage.db.trace = None
    assert say(msg("undo.done")) in _said(r), _said(r)
    # Written as a decision is: one transaction, in one hop, of at most six statements.
    written = [h for h in hops if h.transactions]
    assert len(written) == 1 and len(written[0].statements) <= 6, hops
    after = stored(database, game_id)
    assert after.version == before.version + 1
    assert actions(database, game_id)[-1] == (after.version, seat, "undo", "human")
    prompt = after.game.prompt_for(seat)
    assert prompt is not None and prompt.kind == "reset"  # his decision again
    # The table reads that he took it back, under the board that waits for him again.
    name = "alice" if after.seats[seat].user_id == w.alice.id else "bob"
    assert f"**{name}** takes the last decision back." in lines_text(w.table.last_message)
    assert f"anima:{game_id}:{after.seats[seat].since}:" in str(
        [c.custom_id for c in components(board(w.table, database, game_id))]
    )
    _replays(database, game_id)


async def test_a_stale_undo_is_refused_with_the_reason(
    w: World,
    simcord_env: simcord.Env,
    database: TestDatabase,
    make_bot: Callable[..., AnimaBot],
) -> None:
    driver, panel, game_id, _seat, undo, member = await _undo_shown(w, database, ai=0, seed=3)
    # An Undo drawn for an earlier version of the game (an older decision of his) never
    # takes back a later one.
    version = stored(database, game_id).version
    games = simcord_env.bot.games  # type: ignore[attr-defined]
    reply = await games.undo(game_id, member.id, version - 1)
    assert reply.content.startswith(say(msg("undo.stale")))
    # Panels shown before a restart are not refreshed: this one keeps its Undo on screen.
    await simcord_env.restart_bot(make_bot())
    assert await driver.step()  # the other member decides
    version = stored(database, game_id).version
    r = await member.click(panel, custom_id=undo)
    assert _said(r).startswith(say(msg("undo.refused.not_your_last"))), _said(r)
    assert stored(database, game_id).version == version  # nothing changed
    assert actions(database, game_id)[-1][2] != "undo"


async def test_a_restart_after_an_undo_keeps_the_game_and_its_replay(
    w: World,
    simcord_env: simcord.Env,
    database: TestDatabase,
    make_bot: Callable[..., AnimaBot],
) -> None:
    driver, panel, game_id, _seat, undo, member = await _undo_shown(w, database, ai=1, seed=5)
    r = await member.click(panel, custom_id=undo)
    assert say(msg("undo.done")) in _said(r)
    kept = stored(database, game_id).game.to_json()

    await simcord_env.restart_bot(make_bot())
    assert stored(database, game_id).game.to_json() == kept
    _replays(database, game_id)
    # A reloaded game keeps no state to go back to: the panel offers no Undo.
    opened = await member.click(
        board(w.table, database, game_id), custom_id=f"anima:{game_id}:hand"
    )
    assert opened.response is not None and _undo_id(opened.response, game_id) is None
    final = await driver.play()
    assert final.status == "over"
    _replays(database, game_id)


def test_a_leader_kept_then_taken_back_is_not_the_history_s_leader() -> None:
    log = [
        (1, "p1", "keep acrobat", "human"),
        (2, "p1", "undo", "human"),
        (3, "p1", "keep bard", "human"),
        (4, "p2", "keep monk", "human"),
    ]
    assert leaders(log) == {"p1": "bard", "p2": "monk"}


def test_migrate_replays_a_keyed_game_with_an_undo() -> None:
    """``anima-bot migrate``'s check replays the log, the undo included, to the stored state;
    and finds a log whose undone action is left out wrong."""
    game = Game.new(["p1", "p2"], seed=9, server_seed=derived_server_seed(9))
    log: list[tuple[int, str, str]] = []
    for seat in ("p1", "p2"):
        keep = game.legal_actions(seat)[0]
        game.apply(seat, keep, undoable=True)
        log.append((game.version, seat, str(keep)))
    game.apply("p2", "undo")
    log.append((game.version, "p2", "undo"))
    keep = game.legal_actions("p2")[-1]
    game.apply("p2", keep, undoable=True)
    log.append((game.version, "p2", str(keep)))

    def stored_game(actions: list[tuple[int, str, str]]) -> StoredGame:
        return StoredGame(1, 9, "{}", game.to_json(), game.version, ["p1", "p2"], actions)

    assert does_not_replay(stored_game(log), game.db) is None
    skipped = [(n, s, a) for n, (_, s, a) in enumerate(log[:1] + log[3:], start=1)]
    assert does_not_replay(stored_game(skipped), game.db) is not None


def test_every_undo_refusal_is_worded() -> None:
    assert set(REFUSED) == set(UndoRefusal)
