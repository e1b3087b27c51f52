"""The other players' live panels are edited by their game's sender, after the click.

:meth:`bot.panels.Panels.refresh` marks the panels whose owner's situation changed (while the
click holds the game's lock) for the game's sender task, which renders them again and edits
those whose picture changed, in order, once the click has let the loop go: a panel changed
twice before the sender got to it is edited once, to what it shows last; a panel replaced
by a newer one only says that it is outdated (sent by the same sender); a panel Discord
refuses is forgotten. A panel is refreshed when its owner's situation changes, or says that
it is outdated."""

from __future__ import annotations

import asyncio
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import discord
import pytest
import simcord
from anima_sim import (
    World,
    board,
    components,
    start_game,
    stored,
)

from bot.panels import OUTDATED, Panels, fingerprint
from bot.table import PanelKey


class Screen:
    """A panel on a player's screen: the edits the bot made to it."""

    def __init__(self, refuse: bool = False) -> None:
        self.edits: list[dict[str, Any]] = []
        self.refuse = refuse

    async def edit(self, **fields: Any) -> None:
        await asyncio.sleep(0)  # a call over the network lets the loop go
        if self.refuse:
            raise discord.NotFound(SimpleNamespace(status=404, reason="Not Found"), "gone")
        self.edits.append(fields)

    def titles(self) -> list[str | None]:
        return [e["embeds"][0].title if e.get("embeds") else e.get("content") for e in self.edits]


def fake_table(game_id: int, seats: list[str]) -> Any:
    """What :meth:`Panels.refresh` reads of a game: its seats, its status, its parties."""
    row = SimpleNamespace(status="running", paused_at=None, guild_id=1, language="en")
    table_view = SimpleNamespace(parties=[])
    seat_rows = {
        s: SimpleNamespace(seat=s, ai=False, prompt_since=1, deadline=None, user_id=None)
        for s in seats
    }
    # Nobody may undo (issue 25): the Undo button is part of a panel's situation.
    game = SimpleNamespace(undo_refusal=lambda seat: "nothing_to_undo")
    return SimpleNamespace(
        id=game_id, row=row, seats=seat_rows, table_view=lambda: table_view, game=game
    )


@pytest.fixture
def panels(monkeypatch: pytest.MonkeyPatch) -> Panels:
    """Panels whose rendering shows each seat's ``shows`` text (set by the test)."""
    p = Panels(storage=None)  # type: ignore[arg-type]
    shows: dict[str, str] = {}

    async def parts(table: Any, seat: Any) -> tuple[discord.Embed, None]:
        return discord.Embed(title=shows.get(seat.seat, "start")), None

    monkeypatch.setattr(p, "parts", parts)
    p.shows = shows  # type: ignore[attr-defined]
    return p


async def open_panel(p: Panels, game_id: int, seat: str, message_id: int, screen: Screen) -> None:
    """A panel opened now: it shows what the seat's panel renders now."""
    shown = fingerprint(discord.Embed(title=p.shows.get(seat, "start")), None)  # type: ignore[attr-defined]
    await p.opened(PanelKey(game_id, seat, shown), message_id, screen.edit, dm=False)


async def test_refreshed_panels_are_sent_after_the_click_in_order(panels: Panels) -> None:
    table = fake_table(7, ["p1", "p2"])
    screens = {"p1": Screen(), "p2": Screen()}
    for i, (seat, screen) in enumerate(screens.items()):
        await open_panel(panels, 7, seat, 100 + i, screen)
    panels.shows.update(p1="p1 decides", p2="p2 waits")  # type: ignore[attr-defined]

    assert await panels.refresh(table) == 2
    # Nothing is sent while the click goes on: the click does not wait for other screens.
    assert screens["p1"].edits == [] and screens["p2"].edits == []
    await panels.sent()
    assert screens["p1"].titles() == ["p1 decides"]
    assert screens["p2"].titles() == ["p2 waits"]


async def test_a_panel_changed_twice_before_its_edit_is_edited_once(panels: Panels) -> None:
    table = fake_table(7, ["p1"])
    screen = Screen()
    await open_panel(panels, 7, "p1", 100, screen)
    panels.shows["p1"] = "first"  # type: ignore[attr-defined]
    await panels.refresh(table, told={"p1"})
    panels.shows["p1"] = "second"  # type: ignore[attr-defined]
    await panels.refresh(table, told={"p1"})
    await panels.sent()
    assert screen.titles() == ["second"]
    # What it shows now is known: the same again costs no edit.
    await panels.refresh(table, told={"p1"})
    await panels.sent()
    assert screen.titles() == ["second"]


async def test_a_panel_replaced_before_its_edit_only_says_it_is_outdated(panels: Panels) -> None:
    table = fake_table(7, ["p1"])
    old, new = Screen(), Screen()
    await open_panel(panels, 7, "p1", 100, old)
    panels.shows["p1"] = "changed"  # type: ignore[attr-defined]
    await panels.refresh(table, told={"p1"})
    await open_panel(panels, 7, "p1", 101, new)  # a newer panel, before the sender ran
    assert old.edits == []  # the answer that opened the newer one does not wait for it
    await panels.sent()
    assert old.titles() == [OUTDATED]  # no refresh for it, only the "outdated" edit
    assert new.edits == []  # it shows the game as it is already


async def test_a_panel_discord_refuses_is_forgotten(panels: Panels) -> None:
    table = fake_table(7, ["p1", "p2"])
    gone, kept = Screen(refuse=True), Screen()
    await open_panel(panels, 7, "p1", 100, gone)
    await open_panel(panels, 7, "p2", 101, kept)
    panels.shows.update(p1="x", p2="y")  # type: ignore[attr-defined]
    await panels.refresh(table)
    await panels.sent()
    assert panels.live(7, "p1") is None
    assert panels.live(7, "p2") is not None and kept.titles() == ["y"]


async def test_the_panel_answered_by_its_own_click_is_not_sent(panels: Panels) -> None:
    table = fake_table(7, ["p1", "p2"])
    mine, theirs = Screen(), Screen()
    await open_panel(panels, 7, "p1", 100, mine)
    await open_panel(panels, 7, "p2", 101, theirs)
    panels.shows.update(p1="x", p2="y")  # type: ignore[attr-defined]
    assert await panels.refresh(table, skip=100) == 1
    await panels.sent()
    assert mine.edits == [] and theirs.titles() == ["y"]


async def test_each_game_has_its_own_sender(
    panels: Panels, monkeypatch: pytest.MonkeyPatch
) -> None:
    started: list[int] = []
    send = panels._send

    async def counted(game_id: int) -> None:
        started.append(game_id)
        await send(game_id)

    monkeypatch.setattr(panels, "_send", counted)
    tables = {g: fake_table(g, ["p1"]) for g in (7, 8)}
    screens = {g: Screen() for g in tables}
    for g, screen in screens.items():
        await open_panel(panels, g, "p1", 100 + g, screen)
    for text in ("a", "b"):
        panels.shows["p1"] = text  # type: ignore[attr-defined]
        for table in tables.values():
            await panels.refresh(table, told={"p1"})
    await panels.sent()
    assert sorted(started) == [7, 8]  # one sender per game, started once for both changes
    assert all(s.titles() == ["b"] for s in screens.values())
    assert not panels._senders  # nothing left running


async def test_the_sender_renders_the_game_as_it_is_by_then(panels: Panels) -> None:
    table = fake_table(7, ["p1"])
    screen = Screen()
    await open_panel(panels, 7, "p1", 100, screen)
    seen: list[Any] = []
    panels.current = lambda game_id, marked: seen.append(marked) or table
    panels.shows["p1"] = "at the click"  # type: ignore[attr-defined]
    assert await panels.refresh(table, told={"p1"}) == 1  # marked, not rendered yet
    panels.shows["p1"] = "a later click"  # type: ignore[attr-defined]
    await panels.sent()
    assert screen.titles() == ["a later click"] and seen == [table]
    # A game no longer in memory (an error dropped it) is not rendered: nothing is sent.
    panels.current = lambda game_id, marked: None
    panels.shows["p1"] = "uncommitted"  # type: ignore[attr-defined]
    await panels.refresh(table, told={"p1"})
    await panels.sent()
    assert screen.titles() == ["a later click"]


async def test_private_panels_are_refreshed_or_say_they_are_outdated(
    w: World, db_path: Path
) -> None:
    game_id = await start_game(w, w.alice, [w.bob], ai=0, turns=2)
    gid = game_id

    async def hand(member: simcord.MemberActor) -> simcord.InteractionResult:
        r = await member.click(board(w.table, db_path, gid), custom_id=f"anima:{gid}:hand")
        assert r.ephemeral and r.response is not None
        return r

    alice, bob = await hand(w.alice), await hand(w.bob)
    before = bob.response.embeds[0].to_dict()
    before.pop("timestamp", None)

    # Alice makes her two start choices in her panel (answered in place each time).
    for _ in range(2):
        st = stored(db_path, gid)
        since = st.seats["p1"].since
        r = await w.alice.click(alice.response, custom_id=f"anima:{gid}:{since}:0")
        assert r.response is not None and r.response.content.startswith("✅")
    # Bob's situation did not change: his panel was not touched.
    after = bob.response.embeds[0].to_dict()
    after.pop("timestamp", None)
    assert after == before

    # Bob makes his start choices in his panel; the first decision of the game goes to one
    # of them, and his panel (whoever it is) shows it with its buttons.
    for _ in range(2):
        st = stored(db_path, gid)
        since = st.seats["p2"].since
        r = await w.bob.click(bob.response, custom_id=f"anima:{gid}:{since}:0")
        assert r.response is not None and r.response.content.startswith("✅")
    st = stored(db_path, gid)
    (decider,) = [p.player for p in st.game.pending()]
    panel = alice if decider == "p1" else bob
    assert "Your decision" in (panel.response.embeds[0].description or "")
    ids = [c.custom_id for c in components(panel.response)]
    assert any(i.startswith(f"anima:{gid}:{st.seats[decider].since}:") for i in ids)
    # Alice's panel was a "✅ You chose" answer: it becomes her full, current panel when that
    # shows something new; the start's offer gone with her choice (issue 23), it shows
    # nothing new unless she decides now.
    if decider == "p1":
        assert alice.response.embeds and alice.response.embeds[0].title.startswith("Your hand")
    else:
        # Her answer carried Undo (issue 25); once Bob decided, her panel is shown whole,
        # without it.
        assert alice.response.embeds and alice.response.embeds[0].title.startswith("Your hand")
        assert not [c for c in components(alice.response) if ":undo:" in (c.custom_id or "")]

    # A newer panel makes the older one say it is outdated (and lose its buttons).
    newer = await hand(w.alice)
    assert alice.response.content == OUTDATED
    assert not alice.response.embeds and not components(alice.response)
    assert newer.response.embeds[0].title.startswith("Your hand")
