"""Clicks by the wrong people, double clicks and two clicks at once: one action, clear words."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import discord
import pytest
import simcord
from anima_sim import (
    Stored,
    World,
    actions,
    board_text,
    chose,
    components,
    drive_new_game,
    message_by_id,
    payload_texts,
    private_reply,
    stored,
    texts,
)
from anima_sim import board as board_of

from bot.components import answers
from bot.table import Reply
from engine.prompts import Prompt


def single_public_decision(st: Stored, prompts: list[Prompt]) -> bool:
    return len(prompts) == 1 and not prompts[0].window and prompts[0].kind == "reset"


@dataclass
class AtDecision:
    """A 2-member game played until one member alone must decide in the Reset phase."""

    game_id: int
    players: dict[int, simcord.MemberActor]
    st: Stored
    prompts: list[Prompt]


async def at_single_public_decision(w: World, db_path: Path, *, ai: int, seed: int) -> AtDecision:
    game_id, driver = await drive_new_game(w, db_path, [w.alice, w.bob], ai=ai, turns=2, seed=seed)
    players = driver.players
    st, prompts = await driver.until(single_public_decision)
    return AtDecision(game_id, players, st, prompts)


async def test_strangers_and_other_players_cannot_decide(w: World, db_path: Path) -> None:
    at = await at_single_public_decision(w, db_path, ai=1, seed=2)
    game_id, players, st, prompts = at.game_id, at.players, at.st, at.prompts
    decider = st.seats[prompts[0].player]
    other = w.bob if decider.user_id == w.alice.id else w.alice
    board = board_of(w.table, db_path, game_id)
    done = f"anima:{game_id}:{decider.since}:{prompts[0].choices.index('done')}"
    before = stored(db_path, game_id).version

    r = await w.dave.click(board, custom_id=done)
    said = private_reply(r) or ""
    assert "You are not playing in this game" in said
    assert f"**{decider.name}**'s decision" in said
    r = await other.click(board, custom_id=done)
    assert f"it is **{decider.name}**'s decision" in (private_reply(r) or "")
    r = await w.dave.click(board, custom_id=f"anima:{game_id}:decide")
    assert r.ephemeral and "not playing" in r.response.content
    r = await other.click(board, custom_id=f"anima:{game_id}:decide")
    assert r.ephemeral and "Not your turn" in r.response.content
    r = await w.dave.click(board, custom_id=f"anima:{game_id}:hand")
    assert r.ephemeral and r.response.content == "You are not playing in this game."
    assert stored(db_path, game_id).version == before

    # The decider's own click works.
    member = players[decider.user_id]
    r = await member.click(board, custom_id=done)
    assert chose(r, "Done**")
    assert stored(db_path, game_id).version > before


async def test_double_click_applies_one_action(w: World, db_path: Path) -> None:
    at = await at_single_public_decision(w, db_path, ai=0, seed=4)
    game_id, players, st, prompts = at.game_id, at.players, at.st, at.prompts
    seat = st.seats[prompts[0].player]
    member = players[seat.user_id]
    board = board_of(w.table, db_path, game_id)
    # Two private panels open for the same decision, the first one older than the 15 minutes
    # in which the bot may edit it (so it could not be marked outdated when the second one
    # opened): the same choice is clicked in both.
    first = await member.click(board, custom_id=f"anima:{game_id}:decide")
    for _ in range(15):
        await w.env.advance_time(60)
    assert "no longer updates itself" in first.response.content
    second = await member.click(board, custom_id=f"anima:{game_id}:decide")
    index = prompts[0].choices.index("done")
    custom_id = f"anima:{game_id}:{seat.since}:{index}"
    assert custom_id in [c.custom_id for c in components(first.response)]
    assert custom_id in [c.custom_id for c in components(second.response)]
    n_actions = len(actions(db_path, game_id))

    ok = await member.click(second.response, custom_id=custom_id)
    assert ok.response.content.startswith("✅")
    stale = await member.click(first.response, custom_id=custom_id)
    assert stale.response.content.startswith("That choice is no longer open.")
    # ... with a fresh prompt if he has one now, and exactly one action was applied by him.
    mine = [a for a in actions(db_path, game_id)[n_actions:] if a[3] == "human"]
    assert mine == [mine[0]] and mine[0][2] == "done"


async def test_two_clicks_at_once_apply_once(
    w: World, simcord_env: simcord.Env, db_path: Path
) -> None:
    at = await at_single_public_decision(w, db_path, ai=0, seed=4)
    game_id, st, prompts = at.game_id, at.st, at.prompts
    seat = st.seats[prompts[0].player]
    index = prompts[0].choices.index("done")
    games = simcord_env.bot.games
    n_actions = len(actions(db_path, game_id))
    # Two interactions racing inside the bot: the game lock and the version check let one in.
    replies = await asyncio.gather(
        games.choose(game_id, seat.user_id, seat.since, index),
        games.choose(game_id, seat.user_id, seat.since, index),
    )
    assert sorted(r.ok for r in replies) == [False, True]
    assert any(r.content.startswith("That choice is no longer open.") for r in replies)
    mine = [a for a in actions(db_path, game_id)[n_actions:] if a[3] == "human"]
    assert len(mine) == 1


async def test_a_board_click_is_answered_by_the_boards_own_edit(
    w: World, simcord_env: simcord.Env, db_path: Path
) -> None:
    """The click that changes the board answers its interaction with the board's edit
    ("update message"): one call, no separate acknowledgement and edit of the board."""
    at = await at_single_public_decision(w, db_path, ai=0, seed=4)
    game_id, players, st, prompts = at.game_id, at.players, at.st, at.prompts
    seat = st.seats[prompts[0].player]
    board = board_of(w.table, db_path, game_id)
    done = f"anima:{game_id}:{seat.since}:{prompts[0].choices.index('done')}"
    first = len(simcord_env.http_requests)

    r = await players[seat.user_id].click(board, custom_id=done)

    assert chose(r, "Done**")
    calls = simcord_env.http_requests[first:]
    answers = [c for c in calls if c.path.endswith("/callback")]
    assert [a.json["type"] for a in answers] == [7]  # UPDATE_MESSAGE, the only answer
    board_edits = [c for c in calls if c.method == "PATCH" and c.path.endswith(f"/{board.id}")]
    assert board_edits == []  # the answer was the clicked board's edit
    clicked = message_by_id(w.table, board.id)
    newest = board_of(w.table, db_path, game_id)
    if newest.id == board.id:  # edited in place, by the answer: it shows the new state
        assert [payload_texts(a.json["data"]["components"]) for a in answers] == [
            texts(clicked.components)
        ]
    else:  # posted again under new lines: the answer took the clicked one's board and buttons
        assert not board_text(clicked) and not components(clicked)
        assert board_text(newest) and components(newest)
    assert stored(db_path, game_id).version > st.version


class _Response:
    """The answer side of a fake interaction: what was sent, in order."""

    def __init__(self, sent: list[str], refuse_edit: bool = False) -> None:
        self.sent = sent
        self.refuse_edit = refuse_edit

    async def edit_message(self, **fields: Any) -> None:
        if self.refuse_edit:
            raise discord.HTTPException(_FakeHTTP(), "refused")
        self.sent.append("edit")

    async def defer(self) -> None:
        self.sent.append("defer")


class _FakeHTTP:
    status = 400
    reason = "Bad Request"


def _interaction(sent: list[str], refuse_edit: bool = False) -> Any:
    return SimpleNamespace(message=SimpleNamespace(id=42), response=_Response(sent, refuse_edit))


async def test_a_board_click_kept_waiting_is_acknowledged_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Discord wants an answer within 3 seconds: a click whose game keeps it waiting is
    acknowledged after ACKNOWLEDGE_AFTER, and the board is then edited the ordinary way."""
    monkeypatch.setattr(answers, "ACKNOWLEDGE_AFTER", 0.01)
    sent: list[str] = []
    click = answers.BoardClick(_interaction(sent))
    assert click.message_id == 42
    await asyncio.sleep(0.05)
    assert sent == ["defer"]
    assert not await click.edit(embeds=[], view=None)  # answered already: the caller edits
    await click.done()
    assert sent == ["defer"]


async def test_a_board_click_answered_by_its_edit_is_not_acknowledged_again() -> None:
    sent: list[str] = []
    click = answers.BoardClick(_interaction(sent))
    assert await click.edit(embeds=[], view=None)
    assert not await click.edit(embeds=[], view=None)
    await click.done()
    await asyncio.sleep(0)
    assert sent == ["edit"]


async def test_a_refused_board_edit_leaves_the_click_to_be_acknowledged() -> None:
    sent: list[str] = []
    click = answers.BoardClick(_interaction(sent, refuse_edit=True))
    assert not await click.edit(embeds=[], view=None)
    await click.done()
    assert sent == ["defer"]


class _Answers:
    """A fake interaction for a private answer: the calls it gets, in order."""

    def __init__(self, sent: list[str]) -> None:
        self.sent = sent
        self.guild_id = 1
        self.message = None  # a click on the public board: the answer is a new ephemeral
        self.response = self

    async def send_message(self, *args: Any, **kwargs: Any) -> None:
        self.sent.append("send_message")

    async def defer(self, **kwargs: Any) -> None:
        self.sent.append("defer")

    async def edit_original_response(self, **kwargs: Any) -> Any:
        self.sent.append("edit_original_response")
        return SimpleNamespace(id=7)


async def test_a_private_answer_that_comes_quickly_is_one_call() -> None:
    sent: list[str] = []

    async def work() -> Reply:
        return Reply("✅ here")

    await answers.reply_quickly(_Answers(sent), work)  # type: ignore[arg-type]
    assert sent == ["send_message"]


async def test_a_private_answer_that_takes_long_is_acknowledged_first(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(answers, "ACKNOWLEDGE_AFTER", 0.01)
    sent: list[str] = []

    async def work() -> Reply:
        await asyncio.sleep(0.05)
        return Reply("✅ at last")

    await answers.reply_quickly(_Answers(sent), work)  # type: ignore[arg-type]
    assert sent == ["defer", "edit_original_response"]
