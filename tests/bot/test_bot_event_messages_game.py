"""A whole game through the bot with the engine's event texts, prompt texts, choice labels
and withheld decisions' neutral lines replaced by a marker: no message, edit, DM, private
answer or log the bot sends holds it (issue 22: the bot words every event from its payload,
every decision from its kind and data, every choice from its data, and never shows the
engine's sentence)."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest
import simcord
from anima_sim import Driver, World, open_lobby, private_reply
from expansion_table import ALL_SETS
from test_bot_expansions import choose_sets

from engine.cards import default_cards
from engine.events import Event
from engine.game import Game
from engine.views import labels

MARK = "§ENGINE-TEXT§"


@pytest.fixture
def marked(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every event the engine emits (time-out notes included), every prompt's text and every
    choice's label says only the marker."""
    emit, timeout, ask = Game.emit, Game.timeout, Game.ask

    def marked_emit(self: Game, kind: str, text: str, to: Any = None, **data: Any) -> None:
        emit(self, kind, MARK, to, **data)

    def marked_timeout(self: Game, player: str) -> list[Event]:
        events = timeout(self, player)
        for e in events:
            e.text = MARK
        return events

    def marked_ask(self: Game, player: str, kind: str, text: str, *args: Any, **kw: Any) -> None:
        ask(self, player, kind, MARK, *args, **kw)

    monkeypatch.setattr(Game, "emit", marked_emit)
    monkeypatch.setattr(Game, "ask", marked_ask)
    monkeypatch.setattr(Game, "timeout", marked_timeout)
    monkeypatch.setattr(labels, "_label", lambda *_: MARK)
    # A decision withheld from the table reads as its kind, worded by the bot.
    monkeypatch.setattr(labels, "kind_text", lambda *_: MARK)


def sent_by_the_bot(env: simcord.Env) -> list[str]:
    """Every REST call the bot made (messages, edits, DMs, interaction answers), as text."""
    return [f"{name} {payload!r}" for _kind, name, payload in env.backend.transcript]


async def start(w: World, sets: list[str] | None) -> int:
    """A game of three members and one AI seat (of ``sets``, or the first set alone)."""
    game_id, lobby = await open_lobby(w, w.alice, [w.bob, w.carol], ai=1, turns=4)
    if sets is not None:
        lobby = await choose_sets(w, w.alice, lobby, game_id, sets)
    r = await w.alice.click(lobby, custom_id=f"anima:lobby:{game_id}:start")
    assert private_reply(r) is None, private_reply(r)
    return game_id


@pytest.mark.usefixtures("marked")
@pytest.mark.parametrize("sets", [None, ALL_SETS], ids=["first set", "three sets"])
async def test_no_message_of_a_whole_game_shows_the_engines_text(
    w: World, simcord_env: simcord.Env, db_path: Path, sets: list[str] | None
) -> None:
    # A decision timer: now and then nobody answers, and time-outs post their notes too.
    await w.admin.slash(w.table, "anima settings", decision_timer=60)
    game_id = await start(w, sets)
    # The players lay every Trap they can and hire Arcane characters: their lines too.
    traps = {c.id for c in default_cards().advantages if c.kind == "trap"}

    def prefer(choice: str) -> bool:
        kind, _, arg = choice.partition(" ")
        return (kind == "play" and arg in traps) or kind == "hire_arcane"

    members = {m.id: m for m in (w.alice, w.bob, w.carol)}
    driver = Driver(w, db_path, game_id, members, seed=4, prefer=prefer)
    steps = 0
    while await driver.step():
        steps += 1
        if steps % 13 == 0:
            await simcord_env.advance_time(61)
        if steps % 40 == 0:
            await w.bob.slash(w.table, "anima log")
    await w.carol.slash(w.table, "anima log")
    await w.alice.slash(w.table, "anima history")
    with sqlite3.connect(db_path) as db:
        kinds = {k for (k,) in db.execute("SELECT kind FROM events WHERE game_id = ?", (game_id,))}
        marked = db.execute(
            "SELECT COUNT(*) FROM events WHERE game_id = ? AND text = ?", (game_id, MARK)
        ).fetchone()[0]
    # The engine's texts did reach the bot, public and private ones, time-outs included...
    wanted = {"draw_private", "timeout", "timeout_private", "turn"}
    if sets is not None:  # the expansions' events, a face-down Trap's private line too
        wanted |= {"trap_set", "trap_set_private", "trap_revealed", "explore_new_regions"}
    assert marked > 100 and wanted <= kinds, sorted(kinds)
    sent = sent_by_the_bot(simcord_env)
    assert len(sent) > 100
    # ...and none of them left it.
    leaked = [s for s in sent if MARK in s]
    assert not leaked, leaked[:3]
