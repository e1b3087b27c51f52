"""Take the README's screenshots: a real game in the offline preview, photographed with
headless Chromium.

    make screenshots
    # or: .venv/bin/python docs/screenshots/take_screenshots.py [--out docs/screenshots]

It builds the same world as ``make run`` without a token (:func:`bot.preview.seed_world`),
starts the game as Alice and plays the three members through the bot's own buttons and panels
(SimCord actors, in this process; the AI seat plays itself), with a fixed seed so that the
pictures come out the same every time. At each wanted position it serves the preview page,
focused on one message as one member sees it, and runs
``chromium --headless --screenshot`` on the page's URL.

The last picture is the replay page that ``/anima history`` attaches: a whole game of four
normal AIs (named as the members) written with ``replay_viewer`` and opened from its file.

Needs ``chromium`` on the PATH (Debian: ``apt-get install chromium``; or set ``CHROMIUM``), and
a colour emoji font for the symbols (Debian: ``fonts-noto-color-emoji``).
Only this script needs it: tests and CI never do. Pillow, when installed, shrinks a picture
that is larger than ``--max-kb``.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import contextlib
import gzip
import json
import os
import re
import shutil
import tempfile
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import discord
import simcord

from bot.app import AnimaBot, create_bot
from bot.preview import PreviewWorld, preview_settings, seed_world
from bot.settings import Settings
from bot.table import Table
from engine import Agent, Game, make_agent, record_from
from engine.prompts import Prompt
from engine.tools.simulate import play_game
from replay_viewer import replay_page

HERE = Path(__file__).resolve().parent
SEED = 5
WIDTH = 1280


@dataclass
class Shot:
    name: str
    what: str
    #: The window's height: the whole focused message, buttons included, must fit.
    height: int


SHOTS = {
    s.name: s
    for s in (
        Shot("lobby.png", "the lobby `make run` opens with, as Alice (the host)", 960),
        Shot("board.png", "the board with Bob's Movement decision as buttons, as Bob", 1560),
        Shot("battle.png", "a battle drawn: the dice, the totals and its outcome, as Bob", 1000),
        Shot("card.png", "/anima card: a card drawn, as Alice", 1240),
        Shot("hand.png", "Carol's private panel (My hand): her cards and choices", 1400),
        Shot(
            "three_sets.png",
            "a board of the three sets: an Arcane character, a Trap face down, an Artifact",
            1800,
        ),
        Shot("board_es.png", "a game in Spanish: its board, as Bob (who reads Spanish)", 1560),
        Shot("hand_es.png", "the same game: Carol's private panel, in Spanish", 1400),
        Shot("board_ru.png", "a game in Russian: its board, as Bob (who reads Russian)", 1560),
        Shot("hand_ru.png", "the same game: Carol's private panel, in Russian", 1400),
        Shot(
            "replay.png",
            "the replay page of /anima history: a finished game stepped through, in Bob's view",
            1100,
        ),
        Shot("games.png", "/anima games: Alice's games on the server, her turn first", 900),
        Shot("since.png", "Alice back after hours: 'Since you last looked' on her panel", 1600),
        Shot(
            "slow_vote.png",
            "a slow game: Bob let three decisions run out, the table votes on his seat",
            900,
        ),
    )
}
#: The languages photographed (issue 22): the game's language (a lobby option) and every
#: member's own (``/anima settings language``), with the preview's client in that locale.
LANGUAGE_SHOTS = {"es": "es-ES", "ru": "ru"}
#: The card sets of the last picture's game (the lobby's menu, all ticked).
THREE_SETS = ["shadow_of_omega", "beyond_good_and_evil", "twilight_of_the_gods"]


async def chromium(url: str, out: Path, height: int, budget_ms: int = 8000) -> None:
    """Photograph ``url`` with headless Chromium (the page's JS renders in virtual time)."""
    exe = os.environ.get("CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    if exe is None:
        raise SystemExit("chromium is not installed (Debian: apt-get install chromium)")
    with tempfile.TemporaryDirectory(prefix="anima-chromium-") as profile:
        proc = await asyncio.create_subprocess_exec(
            exe,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--hide-scrollbars",
            f"--user-data-dir={profile}",
            f"--window-size={WIDTH},{height}",
            f"--virtual-time-budget={budget_ms}",
            f"--screenshot={out}",
            url,
            stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.PIPE,
        )
        _, err = await asyncio.wait_for(proc.communicate(), 120)
    if proc.returncode != 0 or not out.is_file():
        raise SystemExit(f"chromium failed ({proc.returncode}): {err.decode()[-500:]}")


def shrink(path: Path, max_kb: int) -> None:
    """Keep the PNG under ``max_kb`` (fewer colours, then smaller), if Pillow is there."""
    if path.stat().st_size <= max_kb * 1024:
        return
    try:
        from PIL import Image
    except ImportError:
        print(f"  {path.name}: {path.stat().st_size // 1024} KB (no Pillow to shrink it)")
        return
    with Image.open(path) as img:
        rgb = img.convert("RGB")
    for scale in (1.0, 0.85, 0.75, 0.6):
        size = (int(rgb.width * scale), int(rgb.height * scale))
        small = rgb if scale == 1.0 else rgb.resize(size, Image.Resampling.LANCZOS)
        small.quantize(colors=256, method=Image.Quantize.MEDIANCUT).save(path, optimize=True)
        if path.stat().st_size <= max_kb * 1024:
            return


class Members:
    """Plays the members' seats through the board and the private panels, as people do."""

    def __init__(self, env: simcord.Env, bot: AnimaBot, world: PreviewWorld) -> None:
        self.env, self.bot, self.world = env, bot, world
        self.members = {m.id: m for m in world.members}
        self.steps = 0

    async def table(self) -> Table:
        return await self.bot.games.load(self.world.game_id)

    def message(self, message_id: int | None) -> discord.Message:
        return next(m for m in self.world.table.history() if m.id == message_id)

    async def board(self) -> discord.Message:
        return self.message((await self.table()).row.board_message_id)

    def member(self, table: Table, seat: str) -> simcord.MemberActor:
        return self.members[table.seats[seat].user_id or 0]

    async def choose(self, table: Table, prompt: Prompt, index: int) -> None:
        """Choice ``index``: its button on the board, else in the Decide / Respond panel."""
        seat = table.seats[prompt.player]
        member = self.member(table, prompt.player)
        custom_id = f"anima:{table.id}:{seat.prompt_since}:{index}"
        board = self.message(table.row.board_message_id)
        if custom_id in custom_ids(board.components):
            await member.click(board, custom_id=custom_id)
            return
        what = "respond" if prompt.window else "decide"
        opened = await member.click(board, custom_id=f"anima:{table.id}:{what}")
        panel = opened.response
        assert panel is not None, opened
        if custom_id in custom_ids(panel.components):
            await member.click(panel, custom_id=custom_id)
            return
        for c in simcord.components.walk_components(panel.components):
            if c.get("type") == 3 and str(index) in [o["value"] for o in c["options"]]:
                await member.select(panel, [str(index)], custom_id=c["custom_id"])
                return
        raise AssertionError(f"choice {index} of {prompt.kind} is not offered")

    async def play_until(
        self,
        wanted: Callable[[Table, list[Prompt]], bool],
        prefer: Callable[[Prompt, str], tuple[int, str]] | None = None,
        limit: int = 500,
    ) -> Table:
        """Play the members' decisions (battles wanted: attack, explore, pass; or as
        ``prefer(prompt, choice)`` ranks them) until ``wanted(table, their prompts)``."""
        rank = prefer or (lambda prompt, choice: preference(choice))
        for _ in range(limit):
            table = await self.table()
            prompts = [p for p in table.game.pending() if not table.seats[p.player].ai]
            if wanted(table, prompts):
                return table
            if table.game.over or not prompts:
                raise SystemExit("the game ended before the wanted position")
            prompt = prompts[0]
            best = max(range(len(prompt.choices)), key=lambda i: rank(prompt, prompt.choices[i]))
            await self.choose(table, prompt, best)
            self.steps += 1
        raise SystemExit("the wanted position never came")


def moves(member: simcord.MemberActor) -> Callable[[Table, list[Prompt]], bool]:
    """The position where ``member`` has his Movement decision (a public one: its choices
    are buttons on the board)."""

    def wanted(table: Table, prompts: list[Prompt]) -> bool:
        return any(
            p.kind == "movement" and table.seats[p.player].user_id == member.id for p in prompts
        )

    return wanted


def decides_reset(member: simcord.MemberActor) -> Callable[[Table, list[Prompt]], bool]:
    """The position where ``member``'s Reset phase names three cards of his or more (those
    choices are buttons on his panel only, never on the board)."""

    def wanted(table: Table, prompts: list[Prompt]) -> bool:
        return any(
            p.kind == "reset" and len(p.choices) >= 3 and table.seats[p.player].user_id == member.id
            for p in prompts
        )

    return wanted


def preference(choice: str) -> tuple[int, str]:
    order = ("attack", "explore", "go ", "pass", "done", "keep", "drop")
    rank = next((i for i, p in enumerate(order) if choice.startswith(p)), len(order))
    return (-rank, choice)


def expansion_preference(prompt: Prompt, choice: str) -> tuple[int, str]:
    """The last picture's members put the expansions' cards on the table: in the Reset phase
    they lay Traps and join Factions and Artifacts (A5-A7) before anything else; at a Hire
    reward they take an Arcane character (C7); otherwise they play as :func:`preference`."""
    if prompt.kind == "reset" and choice.startswith("play "):
        return (1, choice)
    if choice.startswith("hire_arcane"):
        return (1, choice)
    return preference(choice)


def three_sets_board(table: Table) -> bool:
    """The position of the last picture: a Trap face down on a Region, an Arcane character in
    a party, and a Faction or an Artifact in play. (Guarded Regions come out later in this
    game: the board shows one when it is on the table.)"""
    view = table.game.table_view()
    db = table.game.db
    kinds = {db.advantage(card).kind for party in view.parties for card in party.in_play}
    return (
        any(region.traps for region in view.regions)
        and any(c.arcane for party in view.parties for c in party.characters)
        and bool(kinds & {"faction", "artifact"})
    )


def custom_ids(components: Any) -> list[str]:
    if components and isinstance(components[0], discord.components.Component):
        out = []
        for row in components:
            for c in getattr(row, "children", [row]):
                if getattr(c, "custom_id", None):
                    out.append(c.custom_id)
        return out
    return [
        c["custom_id"] for c in simcord.components.walk_components(components) if "custom_id" in c
    ]


def shown_text(components: Any) -> str:
    """The text displays' contents of a message of components V2, nested ones too."""
    out = []
    for c in components or []:
        if isinstance(c, discord.components.TextDisplay):
            out.append(c.content)
        out.append(shown_text(getattr(c, "children", None)))
    return "\n".join(t for t in out if t)


def battle_message(world: PreviewWorld) -> discord.Message | None:
    for m in reversed(world.table.history()):
        text = f"{m.content or ''}\n{shown_text(m.components)}"
        if "+ Strength" in text and " vs 🎲" in text:
            return m
    return None


async def photograph(
    env: simcord.Env,
    world: PreviewWorld,
    viewer: simcord.MemberActor,
    target: Any,
    shot: Shot,
    out_dir: Path,
    max_kb: int,
    locale: str = "en-US",
) -> None:
    out = out_dir / shot.name
    # The pictures (the board's, a hand's) are edited in once drawn: photographed with them.
    bot = env.bot
    await bot.publisher.pictures.drawn()  # type: ignore[attr-defined]
    await bot.panels.sent()  # type: ignore[attr-defined]
    await env.settle()
    viewers = [viewer, *(m for m in world.members if m is not viewer)]  # the first is shown
    async with env.preview(
        world.table, viewers=viewers, layout="channel", locale=locale
    ) as preview:
        await preview.show(target)
        await chromium(preview.url, out, shot.height)
    shrink(out, max_kb)
    print(f"  {out}  ({out.stat().st_size // 1024} KB)")


async def take(out_dir: Path, max_kb: int) -> None:
    settings = Settings(_env_file=None, DISCORD_TOKEN="", ANIMA_FIXED_SEED=SEED)
    out_dir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="anima-shots-") as tmp:
        bot = create_bot(preview_settings(settings), db_path=Path(tmp) / "anima.sqlite3")
        try:
            async with simcord.run(bot) as env:
                world = await seed_world(env)
                alice, bob, carol = world.members
                lobby = next(m for m in world.table.history() if m.id == world.lobby_message_id)
                await photograph(env, world, alice, lobby, SHOTS["lobby.png"], out_dir, max_kb)

                await alice.click(lobby, custom_id=f"anima:lobby:{world.game_id}:start")
                game = Members(env, bot, world)

                # Bob's Movement phase: a public decision, its choices as buttons on the board.
                await game.play_until(moves(bob))
                board = await game.board()
                await photograph(env, world, bob, board, SHOTS["board.png"], out_dir, max_kb)

                await game.play_until(lambda t, p: battle_message(world) is not None)
                # One decision more: the board moves to the newest message, and the battle's
                # lines stay behind on their own.
                first = battle_message(world)
                assert first is not None
                await game.play_until(lambda t, p: t.row.board_message_id != first.id)
                battle = game.message(first.id)
                await photograph(env, world, bob, battle, SHOTS["battle.png"], out_dir, max_kb)

                # Carol's private panel when her decision names her cards (Reset phase): those
                # choices are buttons on her panel only, never on the board.
                table = await game.play_until(decides_reset(carol))
                board = game.message(table.row.board_message_id)
                hand = await carol.click(board, custom_id=f"anima:{table.id}:hand")
                await photograph(env, world, carol, hand, SHOTS["hand.png"], out_dir, max_kb)
                card = await alice.slash(world.table, "anima card", name="dragons_spine")
                await photograph(env, world, alice, card, SHOTS["card.png"], out_dir, max_kb)
                print(f"  ({game.steps} decisions played by the members)")
        finally:
            await bot.close()
    if bot.errors:
        raise SystemExit(f"the bot raised errors: {bot.errors!r}")
    await take_overview(settings, out_dir, max_kb)
    await take_three_sets(settings, out_dir, max_kb)
    await take_replay(out_dir, max_kb)
    for language, locale in LANGUAGE_SHOTS.items():
        await take_language(settings, language, locale, out_dir, max_kb)
    await take_slow(settings, out_dir, max_kb)


async def take_slow(settings: Settings, out_dir: Path, max_kb: int) -> None:
    """A slow game (issue 26), the pace Alice picks in the lobby (12 hours a decision): Alice
    and Carol play, Bob does not; after his third decision runs out the table votes on his
    seat (the preview has DMs off: the pings are mentions in the channel)."""
    # The timer loop wakes every half hour: SimCord runs each tick it jumps over.
    async with preview_game(settings.model_copy(update={"timer_tick": 1800})) as (env, _bot, world):
        alice, bob, carol = world.members
        lobby = next(m for m in world.table.history() if m.id == world.lobby_message_id)
        gid = world.game_id
        await alice.select(lobby, ["slow:43200"], custom_id=f"anima:lobby:{gid}:timer")
        await alice.click(lobby, custom_id=f"anima:lobby:{gid}:start")
        game = Members(env, env.bot, world)  # type: ignore[arg-type]
        for _ in range(500):
            if (vote := vote_message(world)) is not None:
                break
            table = await game.table()
            playing = [
                p
                for p in table.game.pending()
                if not table.seats[p.player].ai and game.member(table, p.player) is not bob
            ]
            if not playing:
                await env.advance_time(4 * 3600)  # Bob's decision runs out
                continue
            choices = playing[0].choices
            best = max(range(len(choices)), key=lambda i: preference(choices[i]))
            await game.choose(table, playing[0], best)
        else:
            raise SystemExit("the table never voted")
        await photograph(env, world, carol, vote, SHOTS["slow_vote.png"], out_dir, max_kb)


def vote_message(world: PreviewWorld) -> discord.Message | None:
    """The newest message of a vote on a seat (its buttons), if any."""
    for m in reversed(world.table.history()):
        if any(":vote:" in c for c in custom_ids(m.components)):
            return m
    return None


async def take_language(
    settings: Settings, language: str, locale: str, out_dir: Path, max_kb: int
) -> None:
    """A game in ``language``: the host picks it in the lobby, every member picks it for his
    own messages; the board at Bob's Movement decision and Carol's panel at her Reset phase,
    as for the English pictures."""
    with tempfile.TemporaryDirectory(prefix="anima-shots-") as tmp:
        bot = create_bot(preview_settings(settings), db_path=Path(tmp) / "anima.sqlite3")
        try:
            async with simcord.run(bot) as env:
                world = await seed_world(env)
                alice, bob, carol = world.members
                for member in world.members:
                    await member.slash(world.table, "anima settings", language=language)
                lobby = next(m for m in world.table.history() if m.id == world.lobby_message_id)
                gid = world.game_id
                await alice.select(
                    lobby, [f"language:{language}"], custom_id=f"anima:lobby:{gid}:timer"
                )
                await alice.click(lobby, custom_id=f"anima:lobby:{gid}:start")
                game = Members(env, bot, world)

                await game.play_until(moves(bob))
                shot = SHOTS[f"board_{language}.png"]
                await photograph(env, world, bob, await game.board(), shot, out_dir, max_kb, locale)

                table = await game.play_until(decides_reset(carol))
                board = game.message(table.row.board_message_id)
                hand = await carol.click(board, custom_id=f"anima:{table.id}:hand")
                shot = SHOTS[f"hand_{language}.png"]
                await photograph(env, world, carol, hand, shot, out_dir, max_kb, locale)
        finally:
            await bot.close()
    if bot.errors:
        raise SystemExit(f"the bot raised errors: {bot.errors!r}")


#: Hours Alice is away in the pictures of issue 26 (the timers tick every ten minutes there),
#: before she looks at her games; then two of her decisions time out (a slow game's timer).
AWAY = 3 * 3600
SLOW_TIMER = 4 * 3600


async def take_overview(settings: Settings, out_dir: Path, max_kb: int) -> None:
    """Issue 26: Alice looks at her panel and goes away for hours while the others play;
    meanwhile Bob opens a second game in another channel and Carol a lobby, both with her:
    ``/anima games`` as she comes back, then her panel with what she missed."""
    slow = settings.model_copy(update={"timer_tick": 600.0, "decision_timer": SLOW_TIMER})
    async with preview_game(slow) as (env, bot, world):
        await photograph_overview(env, bot, world, out_dir, max_kb)


@contextlib.asynccontextmanager
async def preview_game(
    settings: Settings,
) -> AsyncIterator[tuple[simcord.Env, AnimaBot, PreviewWorld]]:
    """The preview's world (its lobby open) on a new bot with ``settings``, closed after; a
    bot error stops the pictures."""
    with tempfile.TemporaryDirectory(prefix="anima-shots-") as tmp:
        bot = create_bot(preview_settings(settings), db_path=Path(tmp) / "anima.sqlite3")
        try:
            async with simcord.run(bot) as env:
                yield env, bot, await seed_world(env)
        finally:
            await bot.close()
    if bot.errors:
        raise SystemExit(f"the bot raised errors: {bot.errors!r}")


async def photograph_overview(
    env: simcord.Env, bot: AnimaBot, world: PreviewWorld, out_dir: Path, max_kb: int
) -> None:
    """:func:`take_overview`'s game and pictures."""
    alice, bob, carol = world.members
    # Her reaction windows pass by themselves: nothing but her own turn waits.
    windows = {f"auto_{k}": True for k in ("moves", "encounters", "exploration")}
    await alice.slash(world.table, "anima settings", auto_battles=True, **windows)
    lobby = next(m for m in world.table.history() if m.id == world.lobby_message_id)
    await alice.click(lobby, custom_id=f"anima:lobby:{world.game_id}:start")
    game = Members(env, bot, world)
    table = await game.play_until(moves(bob))
    await alice.click(await game.board(), custom_id=f"anima:{table.id}:hand")
    await env.advance_time(AWAY)
    for name, host, joiner in (("slow-game", bob, alice), ("next-game", carol, alice)):
        channel = world.guild.create_text_channel(name)
        opened = await host.slash(channel, "anima start")
        assert opened.response is not None
        row = await bot.storage.active_game(channel.id)
        assert row is not None
        message = opened.response.message
        await joiner.click(message, custom_id=f"anima:lobby:{row.id}:join")
        if name == "slow-game":
            await host.click(message, custom_id=f"anima:lobby:{row.id}:start")
    mine = await alice.slash(world.table, "anima games")
    await photograph(env, world, alice, mine, SHOTS["games.png"], out_dir, max_kb)
    # Bob and Carol play on; two of Alice's decisions time out (the default is
    # taken for her); then they play until she must decide, and she looks.
    timeouts = 2
    for _ in range(1000):
        table = await game.table()
        prompts = [p for p in table.game.pending() if not table.seats[p.player].ai]
        theirs = [p for p in prompts if game.member(table, p.player) is not alice]
        if theirs:
            choices = theirs[0].choices
            best = max(range(len(choices)), key=lambda i: preference(choices[i]))
            await game.choose(table, theirs[0], best)
        elif timeouts:
            await env.advance_time(SLOW_TIMER + 600)
            timeouts -= 1
        else:
            break
    board = await game.board()
    back = await alice.click(board, custom_id=f"anima:{table.id}:hand")
    await photograph(env, world, alice, back, SHOTS["since.png"], out_dir, max_kb)


#: Seeds tried in turn for the three-sets picture: the first whose game reaches the wanted
#: position is photographed (the AI seat plays to win, and some games end first).
THREE_SETS_SEEDS = range(SEED, SEED + 12)


async def take_three_sets(settings: Settings, out_dir: Path, max_kb: int) -> None:
    """A second game, of the three sets (chosen in the lobby's menu), played until a Trap lies
    face down, an Arcane character has joined a party and a Faction or an Artifact is in play;
    the board as a member who did not lay that Trap sees it (it is named to its owner only)."""
    for seed in THREE_SETS_SEEDS:
        seeded = settings.model_copy(update={"fixed_seed": seed})
        try:
            await take_three_sets_once(seeded, out_dir, max_kb)
        except GameEndedFirst as ended:
            print(f"  (seed {seed}: {ended}; trying the next seed)")
            continue
        return
    raise SystemExit("no seed reached the three-sets position")


class GameEndedFirst(Exception):
    """The game ended (or never came) before the wanted position."""


async def take_three_sets_once(settings: Settings, out_dir: Path, max_kb: int) -> None:
    """One attempt of :func:`take_three_sets` with ``settings``' fixed seed."""
    with tempfile.TemporaryDirectory(prefix="anima-shots-") as tmp:
        bot = create_bot(preview_settings(settings), db_path=Path(tmp) / "anima.sqlite3")
        try:
            async with simcord.run(bot) as env:
                world = await seed_world(env)
                alice = world.members[0]
                lobby = next(m for m in world.table.history() if m.id == world.lobby_message_id)
                custom_id = f"anima:lobby:{world.game_id}:sets"
                await alice.select(lobby, THREE_SETS, custom_id=custom_id)
                await alice.click(lobby, custom_id=f"anima:lobby:{world.game_id}:start")
                game = Members(env, bot, world)
                try:
                    table = await game.play_until(
                        lambda t, p: three_sets_board(t), expansion_preference, limit=800
                    )
                except SystemExit as ended:
                    raise GameEndedFirst(str(ended)) from None
                view = table.game.table_view()
                owners = {
                    seat
                    for seat in table.seats
                    for region in table.game.seat_view(seat).table.regions
                    if region.own_traps
                }
                viewer = next(
                    game.member(table, seat)
                    for seat in view.order
                    if seat not in owners and not table.seats[seat].ai
                )
                board = await game.board()
                shot = SHOTS["three_sets.png"]
                await photograph(env, world, viewer, board, shot, out_dir, max_kb)
                print(f"  ({game.steps} decisions played by the members)")
        finally:
            await bot.close()
    if bot.errors:
        raise SystemExit(f"the bot raised errors: {bot.errors!r}")


#: The replay picture's game: four seats named as the preview's members, normal AIs in all
#: of them, the seed fixed; photographed in Bob's view at the first step past the middle
#: that tells the table at least three things.
REPLAY_NAMES = {"P1": "Alice", "P2": "Bob", "P3": "Carol", "P4": "🤖 AI 1"}


async def take_replay(out_dir: Path, max_kb: int) -> None:
    """The replay page (the HTML file ``/anima history`` attaches), opened from a file in
    headless Chromium at one step of a whole game, in Bob's view (his hand and missions)."""
    log: list[tuple[str, str]] = []

    class Recorder:
        def __init__(self, seat: str) -> None:
            self.inner = make_agent("normal", f"{SEED}:{seat}")

        def choose(self, game: Game, prompt: Prompt) -> str:
            action = self.inner.choose(game, prompt)
            log.append((prompt.player, action))
            return action

    games: list[Game] = []
    agents: dict[str, Agent] = {seat: Recorder(seat) for seat in REPLAY_NAMES}
    result = play_game(SEED, 4, 0, agents=agents, observe=lambda g, _e: games.append(g))
    if result.error is not None:
        raise SystemExit(f"the replay's game failed: {result.error}")
    record = record_from(games[-1], log)
    page = replay_page(record, REPLAY_NAMES, "Anima · game #1 step by step")
    steps = unpacked_steps(page)
    step = next(n for n in range(len(steps) // 2, len(steps)) if public_lines(steps[n]) >= 3)
    with tempfile.TemporaryDirectory(prefix="anima-replay-") as tmp:
        file = Path(tmp) / "replay.html"
        file.write_text(page, encoding="utf-8")
        out = out_dir / "replay.png"
        await chromium(f"{file.as_uri()}#step={step}&view=2", out, SHOTS["replay.png"].height)
    shrink(out, max_kb)
    print(f"  {out}  ({out.stat().st_size // 1024} KB; step {step} of {len(steps) - 1})")


def unpacked_steps(page: str) -> list[Any]:
    """The replay page's steps (its data: gzipped JSON in base64)."""
    found = re.search(r'<script id="data" type="application/octet-stream">([^<]*)<', page)
    assert found is not None
    steps: list[Any] = json.loads(gzip.decompress(base64.b64decode(found[1])))["steps"]
    return steps


def public_lines(step: list[Any]) -> int:
    """How many lines of a step the whole table is told."""
    return sum(isinstance(line, int) for line in step[2])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=HERE, help="where to write the PNGs")
    parser.add_argument("--max-kb", type=int, default=300, help="shrink larger pictures")
    parser.add_argument("--slow-only", action="store_true", help="only the slow game's picture")
    args = parser.parse_args()
    if args.slow_only:
        settings = Settings(_env_file=None, DISCORD_TOKEN="", ANIMA_FIXED_SEED=SEED)
        asyncio.run(take_slow(settings, args.out, args.max_kb))
        return
    print(f"Taking {len(SHOTS)} screenshots into {args.out}:")
    for shot in SHOTS.values():
        print(f"  {shot.name}: {shot.what}")
    asyncio.run(take(args.out, args.max_kb))


if __name__ == "__main__":
    main()
