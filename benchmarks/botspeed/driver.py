"""The driver of ``benchmarks/bot_speed.py``: it sets the games up as players do and plays
them to their end, interleaved, a member taking a uniformly random legal choice at each of
its decisions (:class:`Bench`).
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import simcord
from simcord.components import walk_components

from bot.app import AnimaBot
from bot.pictures.cache import CacheStats
from engine.game import Game
from engine.prompts import Prompt

from .measure import Probe
from .memory import BotMemory
from .reader import Reader

#: How often the driver re-checks that the bot has settled after a wave (SimCord: 50 ms).
SETTLE_IDLE = 0.001
#: How long the driver awaits an interaction's own tasks before it settles (a click that
#: waits for SimCord's virtual clock goes on under the settle).
CLICK_WAIT_S = 5.0
#: Share of ``play <card>`` choices made with ``/anima play`` instead of a button.
COMMAND_SHARE = 0.25
#: ``/anima settings`` options that put a member on auto-pass for everything.
AUTO_EVERYTHING = {
    f"auto_{k}": True
    for k in ("moves", "encounters", "exploration", "battles", "reset", "interaction")
}


# ---------------------------------------------------------------------- measurement


def _private_text(result: simcord.InteractionResult) -> str | None:
    """The bot's private answer to a member: its ephemeral response, or the first ephemeral
    follow-up after a silent acknowledgement; None when it said nothing."""
    if result.ephemeral and result.response is not None:
        return str(result.response.content)
    for followup in result.followups:
        if followup.ephemeral:
            return str(followup.content)
    if result.response is not None and not result.deferred:
        # An update of the message clicked (types 6 and 7: the board's own edit) says
        # nothing privately. (SimCord shows the answer's kind in the result's repr only.)
        kind = str(getattr(getattr(result, "_interaction", None), "response_kind", ""))
        if "update" not in kind:
            return str(result.response.content)
    return None


@dataclass
class Seat:
    user_id: int | None
    ai: bool
    since: int | None


@dataclass
class Move:
    """The next interaction of one game: what to do, and what to check afterwards."""

    kind: str
    act: Callable[[], Awaitable[simcord.InteractionResult]]
    decision: bool
    member: simcord.MemberActor
    target: tuple[str, int] | None = None  # (custom_id, index) to pick in the panel it opens


@dataclass
class Table:
    """One game being played."""

    game_id: int
    channel: simcord.ChannelHandle
    members: dict[int, simcord.MemberActor]
    #: Its place among the games (its deal's seed, and auto-pass for every other game).
    index: int = 0
    panel: tuple[simcord.MemberActor, simcord.ResponseMessage, str, int] | None = None
    over: bool = False
    #: Its members are on auto-pass for everything.
    autopass: bool = False


@dataclass
class Tally:
    waves: int = 0
    decisions_tried: int = 0
    rejected: list[str] = field(default_factory=list)
    missing: int = 0  # a choice that the panel did not offer (should never happen)


def _components(message: simcord.ResponseMessage) -> list[dict[str, Any]]:
    return [c for c in walk_components(message.components) if c.get("custom_id")]


async def _pick(
    member: simcord.MemberActor, message: simcord.ResponseMessage, custom_id: str, index: int
) -> simcord.InteractionResult | None:
    """Click the button ``custom_id``, or choose ``index`` in the select that holds it."""
    comps = _components(message)
    if any(c.get("type") == 2 and c["custom_id"] == custom_id for c in comps):
        return await member.click(message, custom_id=custom_id)
    prefix = custom_id.rsplit(":", 1)[0] + ":s"
    for c in comps:
        values = [o["value"] for o in c.get("options", [])]
        if c.get("type") == 3 and c["custom_id"].startswith(prefix) and str(index) in values:
            return await member.select(message, [str(index)], custom_id=c["custom_id"])
    return None


def _has(message: simcord.ResponseMessage, custom_id: str, index: int) -> bool:
    prefix = custom_id.rsplit(":", 1)[0] + ":s"
    for c in _components(message):
        if c.get("type") == 2 and c["custom_id"] == custom_id:
            return True
        values = [o["value"] for o in c.get("options", [])]
        if c.get("type") == 3 and c["custom_id"].startswith(prefix) and str(index) in values:
            return True
    return False


@contextmanager
def _recording_tasks(into: list[asyncio.Future[Any]]) -> Iterator[None]:
    """Every task the event loop creates inside the block is appended to ``into`` (after the
    task factory already installed, SimCord's, has made it)."""
    loop = asyncio.get_running_loop()
    factory = loop.get_task_factory()

    def recording(loop: asyncio.AbstractEventLoop, coro: Any, **kwargs: Any) -> asyncio.Future[Any]:
        task = (
            factory(loop, coro, **kwargs)
            if factory is not None
            else asyncio.Task(coro, loop=loop, **kwargs)
        )
        into.append(task)
        return task

    loop.set_task_factory(recording)
    try:
        yield
    finally:
        loop.set_task_factory(factory)


class Bench:
    def __init__(self, env: simcord.Env, bot: AnimaBot, db: Path | str, args: Any) -> None:
        self.env = env
        self.bot = bot
        self.args = args
        self.rng = random.Random(args.seed)
        #: The bot's database, read behind its back (a SQLite file, or a PostgreSQL address).
        self.db = Reader(db)
        self.tables: list[Table] = []
        self.tally = Tally()
        #: Bytes the bot holds with every game live (see :func:`bot_memory`), and the
        #: database file's size after the run.
        self.memory = BotMemory()
        self.db_bytes = 0
        #: The PostgreSQL server's CPU time over the play phase (None: SQLite, or unknown).
        self.server_cpu_s: float | None = None
        #: The picture cache's counters when the play phase began (its figures are the play
        #: phase's: the counters at the end minus these).
        self.pictures_at_play = CacheStats()
        guild = env.create_guild("Anima Bench")
        self.guild = guild
        for i in range(args.games):
            channel = guild.create_text_channel(f"table-{i + 1:03}")
            members = [
                guild.add_member(env.create_user(f"player-{i + 1:03}-{n}")) for n in range(3)
            ]
            self.tables.append(Table(0, channel, {m.id: m for m in members}, index=i))
        self.probe = Probe(bot, {t.channel.id for t in self.tables})

    # ------------------------------------------------------------------ state (read-only)

    def state(
        self, game_id: int, channel_id: int
    ) -> tuple[str, int | None, Game | None, dict[str, Seat]]:
        status, state_json = self.db.execute(
            "SELECT status, state_json FROM games WHERE id = ?", (game_id,)
        ).fetchone()
        # The board as the channel shows it (the stored board id is saved with the game's
        # next commit: docs/bot.md).
        board = self.board(channel_id, game_id)
        seats = {
            r[0]: Seat(r[1], bool(r[2]), r[3])
            for r in self.db.execute(
                "SELECT seat, user_id, ai, prompt_since FROM seats WHERE game_id = ?", (game_id,)
            )
        }
        game = Game.from_json(state_json) if state_json else None
        return status, board, game, seats

    def board(self, channel_id: int, game_id: int) -> int | None:
        """The newest message of the channel that carries the game's board."""
        prefix = f"Anima · game #{game_id} · "
        messages = self.env.backend.messages[channel_id]
        for message_id in sorted(messages, reverse=True):
            message = messages[message_id]
            # The board is a container of components V2 whose text begins with its title.
            shown = [
                str(c.get("content") or "").removeprefix("### ")
                for c in walk_components(message.components)
                if c.get("type") == 10
            ]
            shown += [str(e.get("title") or "") for e in message.embeds]
            if any(text.startswith(prefix) for text in shown):
                return int(message_id)
        return None

    def message(self, channel: simcord.ChannelHandle, message_id: int) -> simcord.ResponseMessage:
        # A live view of the stored message (cheaper than rebuilding the channel's history).
        return simcord.ResponseMessage(
            self.env, self.env.backend.get_message(channel.id, message_id)
        )

    # ------------------------------------------------------------------ setup

    async def setup(self, tables: list[Table]) -> None:
        """Open the lobbies of ``tables``, then join, add an AI and start, each step across
        all of them."""
        self.probe.phase = "setup"
        lobbies: list[simcord.ResponseMessage] = []
        for table in tables:
            host = next(iter(table.members.values()))
            self.probe.kind = "/anima start"
            result = await host.slash(table.channel, "anima start", turns=self.args.turns)
            assert result.response is not None, "no lobby"
            lobbies.append(result.response)
            table.game_id = self._lobby_id(result.response)
        for table, lobby in zip(tables, lobbies, strict=True):
            for member in list(table.members.values())[1:]:
                self.probe.kind = "lobby join"
                r = await member.click(lobby, custom_id=f"anima:lobby:{table.game_id}:join")
                self._expect(r, "✅", "join")
        for table, lobby in zip(tables, lobbies, strict=True):
            host = next(iter(table.members.values()))
            self.probe.kind = "lobby add AI"
            r = await host.click(lobby, custom_id=f"anima:lobby:{table.game_id}:ai")
            picker = r.response.message if r.response is not None else None
            if picker is None:
                self.tally.rejected.append("add AI: no level picker")
                continue
            self.probe.kind = "lobby AI level"
            level = f"anima:lobby:{table.game_id}:ai:{self.args.ai_level}"
            r = await host.click(picker, custom_id=level)
            self._expect(r, "🤖", "add AI")
        for table in tables:
            if table.index % 2 == 0:
                table.autopass = True
                for member in table.members.values():
                    self.probe.kind = "/anima settings"
                    await member.slash(table.channel, "anima settings", **AUTO_EVERYTHING)
        for table, lobby in zip(tables, lobbies, strict=True):
            host = next(iter(table.members.values()))
            # A different, reproducible deal per game.
            self.bot.settings.fixed_seed = self.args.seed * 1_000_003 + table.index
            self.bot.lobby.fixed_seed = self.bot.settings.fixed_seed
            self.probe.kind = "lobby start"
            r = await host.click(lobby, custom_id=f"anima:lobby:{table.game_id}:start")
            self._expect(r, "✅", "start")

    @staticmethod
    def _lobby_id(lobby: simcord.ResponseMessage) -> int:
        for c in _components(lobby):
            parts = c["custom_id"].split(":")
            if parts[:2] == ["anima", "lobby"]:
                return int(parts[2])
        raise AssertionError("the lobby has no buttons")

    def _expect(self, result: simcord.InteractionResult, prefix: str, what: str) -> None:
        content = _private_text(result)
        if content is None:
            return  # a quiet board click: accepted, nothing private to say
        if not content.startswith(prefix):
            self.tally.rejected.append(f"{what}: {content[:120]!r}")

    # ------------------------------------------------------------------ play

    def plan(self, table: Table) -> Move | None:
        """The next interaction of a game (None when it is over)."""
        if table.panel is not None:
            member, panel, custom_id, index = table.panel
            table.panel = None

            async def choose_in_panel() -> simcord.InteractionResult:
                result = await _pick(member, panel, custom_id, index)
                assert result is not None
                return result

            return Move("panel choice", choose_in_panel, True, member)
        status, board_id, game, seats = self.state(table.game_id, table.channel.id)
        if status != "running" or game is None or board_id is None:
            table.over = True
            return None
        prompts = [p for p in game.pending() if not seats[p.player].ai]
        assert prompts, f"game {table.game_id} waits for nobody"
        prompt: Prompt = self.rng.choice(prompts)
        index = self.rng.randrange(len(prompt.choices))
        choice = prompt.choices[index]
        seat = seats[prompt.player]
        member = table.members[seat.user_id or 0]
        if choice.startswith("play ") and self.rng.random() < COMMAND_SHARE:
            card = choice.split(" ", 1)[1]

            def play() -> Awaitable[simcord.InteractionResult]:
                return member.slash(table.channel, "anima play", card=card)

            return Move("/anima play", play, True, member)
        custom_id = f"anima:{table.game_id}:{seat.since}:{index}"
        board = self.message(table.channel, board_id)
        if _has(board, custom_id, index):

            async def on_board() -> simcord.InteractionResult:
                result = await _pick(member, board, custom_id, index)
                assert result is not None
                return result

            return Move("board choice", on_board, True, member)
        what = "respond" if prompt.window else "decide"

        def open_panel() -> Awaitable[simcord.InteractionResult]:
            return member.click(board, custom_id=f"anima:{table.game_id}:{what}")

        return Move("panel open", open_panel, False, member, (custom_id, index))

    async def wave(self, tables: list[Table]) -> None:
        """The next interaction of each of ``tables``, fed to the bot together."""
        moves = [(t, m) for t in tables if (m := self.plan(t)) is not None]
        if not moves:
            return
        self.tally.waves += 1
        results: list[simcord.InteractionResult] = []
        with self.probe.held_events():
            for _table, move in moves:
                results.append(await move.act())
        # Each held event gets its own record (and kind) when it is fed.
        parse = self.bot._connection.parsers["INTERACTION_CREATE"]
        held, self.probe.held = self.probe.held, []
        assert len(held) == len(moves), "an action did not reach the bot"
        first = len(self.probe.records)
        started: list[asyncio.Future[Any]] = []
        with _recording_tasks(started):
            for (context, data), (_table, move) in zip(held, moves, strict=True):
                self.probe.kind = move.kind
                context.run(parse, data)
        records = self.probe.records[first:]
        # First the tasks discord.py started for the interactions (the components' callbacks,
        # the slash commands), awaited without polling: SimCord's settle wakes every ``idle``
        # seconds to look over every task of the bot, and those looks, taken while a click
        # is handled, were counted in its handling time (0.12 ms a click on average, 0.57 ms
        # in the slowest 1 %), work no bot does in production.
        if started:
            await asyncio.wait(started, timeout=CLICK_WAIT_S)
        # Then the rest (the panel senders, the collections after the clicks). SimCord's
        # settle re-checks every ``idle`` seconds while a callback the bot scheduled is still
        # queued; its default (50 ms) would leave the process idle for most of that time
        # after many interactions. This is the benchmark's own waiting, outside every
        # interaction's handling time.
        await self.env.settle(timeout=600, idle=SETTLE_IDLE)
        for (table, move), result, record in zip(moves, results, records, strict=True):
            if move.decision:
                self.tally.decisions_tried += 1
                self._expect(result, "✅", move.kind)
                # The private answer: the ephemeral response, or the ephemeral follow-up of a
                # board click (whose response is the board message clicked).
                reply = (
                    result.response
                    if result.ephemeral
                    else next((f for f in result.followups if f.ephemeral), None)
                )
                record.plain_ack = (
                    record.ephemeral == 1
                    and reply is not None
                    and "🔒" not in reply.content
                    and not reply.components
                )
            elif move.target is not None:
                panel = result.response
                custom_id, index = move.target
                if panel is None or not _has(panel, custom_id, index):
                    self.tally.missing += 1
                else:
                    table.panel = (move.member, panel, custom_id, index)

    async def play(self) -> None:
        self.probe.phase = "play"
        live = list(self.tables)
        k = max(1, self.args.concurrency)
        while live:
            order = self.rng.sample(live, len(live))
            for i in range(0, len(order), k):
                await self.wave(order[i : i + k])
            live = [t for t in live if not t.over]


# ---------------------------------------------------------------------- report
