"""Helpers for driving the Anima bot through SimCord like players do."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import discord
import simcord
from databases import TestDatabase, connect

from engine.cards import CardDB, default_cards
from engine.game import Game
from engine.options import Options
from engine.prompts import Prompt
from words import LANGUAGES, msg, say


@dataclass
class Seat:
    seat: str
    user_id: int | None
    name: str
    ai: bool
    timeouts: int
    since: int | None
    deadline: float | None


@dataclass
class Stored:
    """A game as the bot stored it (read with sqlite3 or psycopg, like an admin would)."""

    id: int
    status: str
    version: int
    board_message_id: int | None
    lobby_message_id: int | None
    state_json: str | None
    seats: dict[str, Seat]
    options: dict[str, Any]
    seed: int
    #: The card database the bot plays with (None: the published cards).
    cards: CardDB | None = None

    @property
    def game(self) -> Game:
        assert self.state_json is not None
        return Game.from_json(self.state_json, self.cards)

    def seat_of(self, user_id: int) -> Seat:
        return next(s for s in self.seats.values() if s.user_id == user_id)


#: A test's database: a SQLite file, or either backend (``databases.TestDatabase``).
Db = Path | TestDatabase


def stored(db_path: Db, game_id: int, cards: CardDB | None = None) -> Stored:
    with connect(db_path) as db:
        row = db.execute(
            "SELECT id, status, version, board_message_id, lobby_message_id, state_json, "
            "options_json, seed FROM games WHERE id = ?",
            (game_id,),
        ).fetchone()
        seats = db.execute(
            "SELECT seat, user_id, name, ai, timeouts, prompt_since, deadline FROM seats "
            "WHERE game_id = ? ORDER BY position",
            (game_id,),
        ).fetchall()
    return Stored(
        id=row[0],
        status=row[1],
        version=row[2],
        board_message_id=row[3],
        lobby_message_id=row[4],
        state_json=row[5],
        options=json.loads(row[6]),
        seed=row[7],
        seats={s[0]: Seat(s[0], s[1], s[2], bool(s[3]), s[4], s[5], s[6]) for s in seats},
        cards=cards,
    )


def game_ids(db_path: Db) -> list[int]:
    with connect(db_path) as db:
        return [r[0] for r in db.execute("SELECT id FROM games ORDER BY id")]


def actions(db_path: Db, game_id: int) -> list[tuple[int, str, str, str]]:
    with connect(db_path) as db:
        return [
            tuple(r)
            for r in db.execute(
                "SELECT version, seat, action, source FROM actions WHERE game_id = ? "
                "ORDER BY version",
                (game_id,),
            ).fetchall()
        ]


# ---------------------------------------------------------------------- components


@dataclass
class Component:
    type: str  # "button" or "select"
    custom_id: str
    label: str
    values: list[str]
    disabled: bool = False


def components(message: Any) -> list[Component]:
    """The interactive components of a discord.Message or a SimCord ResponseMessage."""
    out: list[Component] = []
    if isinstance(message, discord.Message):
        for row in message.components:
            for child in getattr(row, "children", [row]):
                custom_id = getattr(child, "custom_id", None)
                if not custom_id:
                    continue
                if isinstance(child, discord.SelectMenu):
                    out.append(
                        Component(
                            "select",
                            custom_id,
                            child.placeholder or "",
                            [o.value for o in child.options],
                            child.disabled,
                        )
                    )
                else:
                    out.append(
                        Component(
                            "button",
                            custom_id,
                            getattr(child, "label", "") or "",
                            [],
                            getattr(child, "disabled", False),
                        )
                    )
        return out
    for comp in simcord.components.walk_components(message.components):
        if comp.get("type") == 2 and comp.get("custom_id"):
            out.append(Component("button", comp["custom_id"], comp.get("label") or "", [], False))
        elif comp.get("type") == 3:
            out.append(
                Component(
                    "select",
                    comp["custom_id"],
                    comp.get("placeholder") or "",
                    [o["value"] for o in comp.get("options", [])],
                )
            )
    return out


def message_by_id(channel: simcord.ChannelHandle, message_id: int | None) -> discord.Message:
    for m in channel.history():
        if m.id == message_id:
            return m
    raise AssertionError(f"message {message_id} is not in #{channel.name}")


def texts(components: Any) -> list[str]:
    """The text displays' contents of a message's components (components V2), nested ones
    too, in order."""
    out: list[str] = []
    for c in components or []:
        if isinstance(c, discord.components.TextDisplay):
            out.append(c.content)
        out += texts(getattr(c, "children", None))
    return out


def payload_texts(components: Any) -> list[str]:
    """The text displays' contents of components as sent to Discord (their JSON), nested
    ones too, in order: what an edit or an answer made a message show."""
    out: list[str] = []
    for c in components or []:
        if c.get("type") == discord.ComponentType.text_display.value:
            out.append(c["content"])
        out += payload_texts(c.get("components"))
    return out


def board_text(message: Any) -> str:
    """The board a message shows, as text, whichever form it has: an embed (its title,
    description, fields and footer) or components V2 (its container's text displays)."""
    for e in message.embeds:
        parts = [e.title or "", e.description or ""]
        parts += [f"{f.name}\n{f.value}" for f in e.fields]
        return "\n".join([*parts, e.footer.text or ""])
    boxes = [c for c in message.components if isinstance(c, discord.components.Container)]
    return "\n".join(t for box in boxes for t in texts(box.children))


def lines_text(message: Any) -> str:
    """The lines a message carries: its content, or (components V2) its text displays
    outside the board's container."""
    top = [c for c in message.components if not isinstance(c, discord.components.Container)]
    return "\n".join([message.content or "", *texts(top)]).strip("\n")


def is_board(message: discord.Message, game_id: int) -> bool:
    """The message carries the board of game ``game_id`` (its title in any language)."""
    titles = [say(msg("board.title", game=game_id), language) + " · " for language in LANGUAGES]
    text = board_text(message).removeprefix("### ")
    return text.startswith(tuple(titles))


def board(channel: simcord.ChannelHandle, db_path: Db, game_id: int) -> discord.Message:
    """The game's board as the channel shows it: its newest message carrying the board.

    (The stored ``board_message_id`` is saved with the game's next commit, not at once:
    see docs/bot.md, "Storage and recovery".)"""
    boards = [m for m in channel.history() if is_board(m, game_id)]
    assert boards, f"no board of game {game_id} in #{channel.name}"
    return boards[-1]


async def pick(
    actor: simcord.MemberActor, message: Any, custom_id: str, index: int
) -> simcord.InteractionResult | None:
    """Click the button ``custom_id`` or choose value ``index`` in the select holding it."""
    for c in components(message):
        if c.type == "button" and c.custom_id == custom_id:
            return await actor.click(message, custom_id=custom_id)
    for c in components(message):
        if (
            c.type == "select"
            and str(index) in c.values
            and c.custom_id.startswith(custom_id.rsplit(":", 1)[0] + ":s")
        ):
            return await actor.select(message, [str(index)], custom_id=c.custom_id)
    return None


# ---------------------------------------------------------------------- setting up games


@dataclass
class World:
    env: simcord.Env
    guild: simcord.GuildHandle
    table: simcord.ChannelHandle
    alice: simcord.MemberActor
    bob: simcord.MemberActor
    carol: simcord.MemberActor
    dave: simcord.MemberActor  # never plays: the public eye
    admin: simcord.MemberActor


def world(env: simcord.Env) -> World:
    guild = env.create_guild("Anima Test")
    table = guild.create_text_channel("table")
    mods = guild.create_role("Mods", permissions=discord.Permissions(manage_guild=True))
    return World(
        env,
        guild,
        table,
        guild.add_member(env.create_user("alice")),
        guild.add_member(env.create_user("bob")),
        guild.add_member(env.create_user("carol")),
        guild.add_member(env.create_user("dave")),
        guild.add_member(env.create_user("mod"), roles=[mods]),
    )


async def open_lobby(
    w: World,
    host: simcord.MemberActor,
    joiners: list[simcord.MemberActor],
    ai: int = 0,
    turns: int = 3,
    channel: simcord.ChannelHandle | None = None,
    ai_levels: list[str] | None = None,
) -> tuple[int, discord.Message]:
    """A lobby with ``joiners`` and AI players: ``ai_levels`` names each one's level, else
    ``ai`` random ones (the tests' games were written against random AI seats)."""
    channel = channel or w.table
    result = await host.slash(channel, "anima start", turns=turns)
    assert result.response is not None and not result.ephemeral
    lobby = result.response.message
    game_id = int(re.search(r"anima:lobby:(\d+):join", str(result.response.components))[1])  # type: ignore[index]
    for member in joiners:
        r = await member.click(lobby, custom_id=f"anima:lobby:{game_id}:join")
        assert r.acknowledged and private_reply(r) is None, private_reply(r)  # the lobby shows it
    for level in ai_levels or ["random"] * ai:
        await add_ai(host, lobby, game_id, level)
    return game_id, message_by_id(channel, lobby.id)


async def add_ai(
    host: simcord.MemberActor, lobby: discord.Message, game_id: int, level: str
) -> discord.Message:
    """The host clicks "Add AI player" and picks ``level`` in the private picker; returns the
    picker (it stays open for more)."""
    r = await host.click(lobby, custom_id=f"anima:lobby:{game_id}:ai")
    assert r.ephemeral and r.response is not None, private_reply(r)
    picker = r.response.message
    r = await host.click(picker, custom_id=f"anima:lobby:{game_id}:ai:{level}")
    assert r.acknowledged
    return picker


async def start_game(
    w: World,
    host: simcord.MemberActor,
    joiners: list[simcord.MemberActor],
    ai: int = 1,
    turns: int = 3,
    channel: simcord.ChannelHandle | None = None,
) -> int:
    game_id, lobby = await open_lobby(w, host, joiners, ai, turns, channel)
    r = await host.click(lobby, custom_id=f"anima:lobby:{game_id}:start")
    assert r.acknowledged and private_reply(r) is None, private_reply(r)
    return game_id


async def timed_game(w: World, seconds: int = 60) -> int:
    """A game of alice and bob (no AI, two turns) whose decisions time out after ``seconds``
    (the server's decision timer, set by the admin first)."""
    await w.admin.slash(w.table, "anima settings", decision_timer=seconds)
    return await start_game(w, w.alice, [w.bob], ai=0, turns=2)


async def drive_new_game(
    w: World,
    db_path: Db,
    members: list[simcord.MemberActor],
    ai: int = 1,
    turns: int = 3,
    seed: int = 0,
    channel: simcord.ChannelHandle | None = None,
) -> tuple[int, Driver]:
    """A game started by ``members[0]`` with the other members and ``ai`` AI players, and the
    :class:`Driver` that plays its members' seats (the opening most of the bot's tests share)."""
    game_id = await start_game(w, members[0], members[1:], ai=ai, turns=turns, channel=channel)
    players = {m.id: m for m in members}
    return game_id, Driver(w, db_path, game_id, players, seed=seed, channel=channel)


def reset_decision(st: Stored, prompts: list[Prompt]) -> bool:
    """Driver.until's condition: a lone reset decision (not a window) is open."""
    return len(prompts) == 1 and prompts[0].kind == "reset" and not prompts[0].window


def private_reply(result: Any) -> str | None:
    """What the bot told the clicking member privately: its ephemeral answer, or the first
    ephemeral follow-up after a silent acknowledgement; None when it said nothing (a board
    click with nothing private to tell: the board and the channel show what happened)."""
    if result.ephemeral and result.response is not None:
        return str(result.response.content)
    for followup in result.followups:
        if followup.ephemeral:
            return str(followup.content)
    return None


def chose(result: Any, label: str = "") -> bool:
    """The choice was accepted: a quiet acknowledgement, or "✅ You chose: **<label>..." (in
    the chooser's language).

    A refusal always answers in words, so a quiet click is an accepted one."""
    text = private_reply(result)
    # The answer's words up to the choice, in every language, then the choice's label.
    before = [say(msg("play.chose", choice="\0"), lang).split("\0")[0] for lang in LANGUAGES]
    return text is None or text.startswith(tuple(b + label for b in before))


class Driver:
    """Plays the human seats of a game with a seeded random choice among legal moves,
    through the board's buttons or the private panels, as a player would."""

    def __init__(
        self,
        w: World,
        db_path: Db,
        game_id: int,
        players: dict[int, simcord.MemberActor],
        seed: int = 0,
        channel: simcord.ChannelHandle | None = None,
        cards: CardDB | None = None,
        prefer: Callable[[str], bool] | None = None,
    ) -> None:
        self.w = w
        #: Choices (action strings) the players take whenever one is offered (e.g. laying a
        #: Trap), so that a test's game surely goes through them; the rest is random.
        self.prefer = prefer
        #: The bot's card database (None: the published cards).
        self.cards = cards
        self.db_path = db_path
        self.game_id = game_id
        self.players = players
        self.rng = random.Random(seed)
        self.channel = channel or w.table
        self.clicks = 0
        self.commands = 0
        #: Sometimes play cards with /anima play instead of the buttons.
        self.use_commands = True
        #: Crash tests: whether the bot was killed (a dead bot answers nothing, so the click
        #: that killed it is not checked).
        self.killed: Callable[[], bool] = lambda: False

    def human_prompts(self) -> tuple[Stored, list[Prompt]]:
        st = stored(self.db_path, self.game_id, self.cards)
        game = st.game
        return st, [p for p in game.pending() if not st.seats[p.player].ai]

    async def choose(self, st: Stored, prompt: Prompt, index: int) -> simcord.InteractionResult:
        """Take choice ``index`` of ``prompt``: on the board if it is there, else through
        the Decide / Respond panel."""
        seat = st.seats[prompt.player]
        member = self.players[seat.user_id or 0]
        choice = prompt.choices[index]
        if self.use_commands and choice.startswith("play ") and self.rng.random() < 0.5:
            self.commands += 1  # `/anima play card:<id>` does the same as the button
            return await member.slash(self.channel, "anima play", card=choice.split(" ", 1)[1])
        custom_id = f"anima:{self.game_id}:{seat.since}:{index}"
        board_msg = board(self.channel, self.db_path, self.game_id)
        result = await pick(member, board_msg, custom_id, index)
        if result is None:
            what = "respond" if prompt.window else "decide"
            opened = await member.click(board_msg, custom_id=f"anima:{self.game_id}:{what}")
            assert opened.ephemeral and opened.response is not None
            result = await pick(member, opened.response, custom_id, index)
            assert result is not None, (
                f"choice {index} ({prompt.choices[index]}) of {prompt.kind} is not offered: "
                f"{components(opened.response)}"
            )
        self.clicks += 1
        return result

    async def step(self) -> bool:
        """One human decision; False when the game is over."""
        st, prompts = self.human_prompts()
        if st.status != "running":
            return False
        assert prompts, "the game waits for nobody"
        prompt = self.rng.choice(prompts)
        index = self.rng.randrange(len(prompt.choices))
        preferred = [i for i, c in enumerate(prompt.choices) if self.prefer and self.prefer(c)]
        if preferred:
            index = self.rng.choice(preferred)
        result = await self.choose(st, prompt, index)
        if self.killed():
            return True
        assert result.acknowledged and chose(result), private_reply(result)
        return True

    async def until(self, wanted: Any, max_steps: int = 2000) -> tuple[Stored, list[Prompt]]:
        """Play random human decisions until ``wanted(stored, human_prompts)`` holds."""
        for _ in range(max_steps):
            st, prompts = self.human_prompts()
            if wanted(st, prompts):
                return st, prompts
            assert await self.step(), "the game ended first"
        raise AssertionError("never reached the wanted position")

    async def play(self, max_steps: int = 5000) -> Stored:
        for _ in range(max_steps):
            if not await self.step():
                break
        st = stored(self.db_path, self.game_id, self.cards)
        assert st.status == "over", f"game still {st.status} after {max_steps} steps"
        return st


def card_names() -> dict[str, str]:
    return {c.id: c.name for c in default_cards()}


def default_options(**kw: Any) -> dict[str, Any]:
    return Options(**kw).model_dump()
