"""The lobby's components: its selects (sets, optional rules, edition, timer and language)
and buttons (join, leave, add an AI player, start, cancel), the host's private picker of AI
levels (and the pickers on screen, closed with their lobby), and the lobby message's view. A
click hands over to ``bot.lobby`` through the interaction's client; the lobby message shows
the change.

Who reads what: the lobby message (its embed, selects and buttons) is public, in the lobby's
language (:func:`bot.languages.public_language`); a refusal and the AI level picker are the
clicker's, in his (:func:`bot.translator.reader`). Each callback runs in the
clicker's language (:func:`clicked`); the lobby message is drawn in the lobby's
(:func:`lobby_message`).
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord
from discord import ui

from bot import rendering
from bot.components import answers
from bot.components.answers import client, is_admin, new_view
from bot.languages import public_language
from bot.lobby_options import EDITION_OPTIONS, OPTIONAL_RULES, offered_codes, selected_codes
from bot.rendering.lobby import ai_level_name, language_name
from bot.table import MAX_SEATS
from bot.translator import reader
from engine import DEFAULT_LEVEL, LEVELS, CardDB, Options
from words import LANGUAGES, current, msg, say, speaking

if TYPE_CHECKING:
    from bot.lobby import LobbyOutcome
    from bot.storage import GameRow

#: The lobby's refusal when it is gone (``bot.lobby.CLOSED``, which sits above this layer).
CLOSED = msg("lobby.closed")
#: The timer select's values that choose the lobby's language instead: ``language:es``.
LANGUAGE_VALUE = "language:"
#: The timer select's values that turn the rating on or off (issue 25): ``rated:off``.
RATED_VALUE = "rated:"


async def clicked(interaction: discord.Interaction, work: Callable[[], Awaitable[None]]) -> None:
    """Run a lobby component's callback (guarded, see :func:`answers.guarded`) in the
    clicker's language."""
    with speaking(await reader(interaction)):
        await answers.guarded(interaction, work)


def lobby_message(result: LobbyOutcome, cards: CardDB) -> dict[str, Any]:
    """The lobby message's embed and view (none once closed), in the lobby's language."""
    assert result.row is not None
    with speaking(public_language(result.row)):
        embed = rendering.lobby_embed(
            result.row,
            result.seats,
            result.default_timer,
            closed=result.closed,
            default_pace=result.default_pace,
        )
        view = None if result.closed else lobby_view(result.row, cards)
    return {"embed": embed, "view": view}


def available_sets(cards: CardDB) -> list[str]:
    """Card sets that have cards in the database (others cannot be played yet)."""
    present = {c.set for c in cards}
    return [s for s in rendering.SET_NAMES if s in present]


class LobbyButton(
    ui.DynamicItem[ui.Button[Any]],
    template=r"anima:lobby:(?P<gid>[0-9]+):(?P<what>join|leave|ai|start|cancel)",
):
    STYLES = {
        "join": discord.ButtonStyle.success,
        "leave": discord.ButtonStyle.secondary,
        "ai": discord.ButtonStyle.secondary,
        "start": discord.ButtonStyle.primary,
        "cancel": discord.ButtonStyle.danger,
    }

    def __init__(self, gid: int, what: str) -> None:
        label = say(msg(f"lobby.button.{what}"))
        super().__init__(
            ui.Button(
                label=label,
                style=self.STYLES[what],
                custom_id=f"anima:lobby:{gid}:{what}",
                row=4,
            )
        )
        self.gid, self.what = gid, what

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: ui.Item[Any], match: re.Match[str], /
    ) -> LobbyButton:
        return cls(int(match["gid"]), match["what"])

    async def callback(self, interaction: discord.Interaction) -> None:
        if self.what == "ai":  # the host first picks the new AI player's level
            await clicked(interaction, lambda: ai_level_picker(interaction, self.gid))
            return
        await clicked(interaction, lambda: lobby_action(interaction, self.gid, self.what, []))


class AiLevelButton(
    ui.DynamicItem[ui.Button[Any]],
    template=r"anima:lobby:(?P<gid>[0-9]+):ai:(?P<level>[a-z_]+)",
):
    """A level in the host's private picker of "Add AI player": seats an AI of that level.

    The lobby's five rows are taken (four selects, one row of five buttons), so the level is
    picked in a private message; it stays open to add several AI players."""

    def __init__(self, gid: int, level: str) -> None:
        style = (
            discord.ButtonStyle.primary if level == DEFAULT_LEVEL else discord.ButtonStyle.secondary
        )
        super().__init__(
            ui.Button(
                label=ai_level_name(level).capitalize(),
                style=style,
                custom_id=f"anima:lobby:{gid}:ai:{level}",
            )
        )
        self.gid, self.level = gid, level

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: ui.Item[Any], match: re.Match[str], /
    ) -> AiLevelButton:
        return cls(int(match["gid"]), match["level"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await clicked(interaction, lambda: add_ai_player(interaction, self.gid, self.level))


def ai_level_view(gid: int) -> ui.View:
    """One button per AI level, weakest first (engine.agents.levels)."""
    view = new_view()
    for level in LEVELS:
        view.add_item(AiLevelButton(gid, level))
    return view


#: How long Discord lets an interaction's token edit its ephemeral message.
TOKEN_LIFE = 15 * 60.0


@dataclass
class _Picker:
    """An AI level picker on the host's screen, and how to edit it."""

    edit: Callable[..., Awaitable[Any]]
    language: str
    expires_at: float


class LobbyPickers:
    """The hosts' AI level pickers still on screen, per lobby (in memory). A picker is an
    ephemeral message that outlives its lobby: when the lobby closes (started, cancelled,
    expired, ended) each loses its buttons and says the lobby is closed, so that none is left
    looking live (issue 23). Its interaction's token edits it for 15 minutes; a picker older
    than that, or one left after a restart, refuses a click instead (the lobby is gone)."""

    def __init__(self) -> None:
        self._open: dict[int, list[_Picker]] = {}

    def opened(self, game_id: int, edit: Callable[..., Awaitable[Any]]) -> None:
        """A picker of lobby ``game_id`` was shown, in the current language."""
        t = discord.utils.utcnow().timestamp()
        live = [p for p in self._open.get(game_id, []) if p.expires_at > t]
        self._open[game_id] = [*live, _Picker(edit, current(), t + TOKEN_LIFE)]

    async def close(self, game_id: int) -> int:
        """Lobby ``game_id`` closed: its pickers lose their buttons; returns how many."""
        t = discord.utils.utcnow().timestamp()
        pickers = [p for p in self._open.pop(game_id, []) if p.expires_at > t]
        for p in pickers:
            with speaking(p.language), contextlib.suppress(discord.HTTPException):
                await p.edit(content=say(CLOSED), view=None)
        return len(pickers)


async def ai_level_picker(interaction: discord.Interaction, gid: int) -> None:
    """ "Add AI player": the host gets the levels privately; anybody else the refusal."""
    refusal = await client(interaction).lobby.ai_refusal(
        gid, interaction.user.id, is_admin(interaction)
    )
    if refusal is not None:
        await interaction.response.send_message(say(refusal), ephemeral=True)
        return
    await interaction.response.send_message(
        rendering.ai_level_text(), view=ai_level_view(gid), ephemeral=True
    )
    client(interaction).lobby.pickers.opened(gid, interaction.edit_original_response)


async def add_ai_player(interaction: discord.Interaction, gid: int, level: str) -> None:
    """A level picked: the AI takes a seat, the lobby message shows it (in the lobby's
    language), and the picker says so (or why not, in the host's)."""
    await interaction.response.defer()
    bot = client(interaction)
    result = await bot.lobby.add_ai(gid, interaction.user.id, is_admin(interaction), level)
    if result.error or result.row is None:
        await interaction.edit_original_response(content=say(result.error or CLOSED), view=None)
        return
    row = result.row
    if row.lobby_message_id is not None:
        lobby = bot.publisher.channel(row).get_partial_message(row.lobby_message_id)
        with contextlib.suppress(discord.HTTPException):  # the seat is taken all the same
            await lobby.edit(**lobby_message(result, bot.cards))
    added = result.seats[-1]
    seated = msg(
        "lobby.ai_added", name=added.name, level=ai_level_name(level), seat=len(result.seats)
    )
    await interaction.edit_original_response(
        content=f"{say(seated)}\n\n{rendering.ai_level_text()}",
        view=ai_level_view(gid) if len(result.seats) < MAX_SEATS else None,
    )


class LobbySelect(
    ui.DynamicItem[ui.Select[Any]],
    template=r"anima:lobby:(?P<gid>[0-9]+):(?P<what>sets|rules|edition|timer)",
):
    def __init__(self, gid: int, what: str, options: list[discord.SelectOption], row: int) -> None:
        low, high = {
            "sets": (1, len(options)),
            "rules": (0, len(options)),
            "edition": (0, len(options)),
            "timer": (1, 1),
        }[what]
        super().__init__(
            ui.Select(
                custom_id=f"anima:lobby:{gid}:{what}",
                placeholder=say(msg(f"lobby.select.{what}")),
                min_values=low,
                max_values=max(1, high),
                options=options,
                row=row,
            )
        )
        self.gid, self.what = gid, what

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: ui.Item[Any], match: re.Match[str], /
    ) -> LobbySelect:
        row = {"sets": 0, "rules": 1, "edition": 2, "timer": 3}[match["what"]]
        return cls(int(match["gid"]), match["what"], list(getattr(item, "options", [])), row)

    async def callback(self, interaction: discord.Interaction) -> None:
        values, what = list(self.item.values), self.what
        if what == "timer" and values and values[0].startswith(LANGUAGE_VALUE):
            # The lobby has five rows (four selects, the buttons): the language is chosen
            # in the timer's select.
            what, values = "language", [values[0].removeprefix(LANGUAGE_VALUE)]
        elif what == "timer" and values and values[0].startswith(RATED_VALUE):
            what, values = "rated", [values[0].removeprefix(RATED_VALUE)]
        await clicked(interaction, lambda: lobby_action(interaction, self.gid, what, values))


async def lobby_action(
    interaction: discord.Interaction, gid: int, what: str, values: list[str]
) -> None:
    """A lobby button or select: the lobby message shows the change (nobody gets a private
    confirmation per click); only a refusal is said to the clicker, privately (in the
    current language: his)."""
    lobby = client(interaction).lobby
    user = interaction.user
    admin = is_admin(interaction)
    if what not in ("join", "leave"):
        # Only the host's: anybody else's click is answered with the refusal itself,
        # privately (a silent acknowledgement and a message after it read as nothing).
        refusal = await lobby.host_refusal(gid, user.id, admin, what)
        if refusal is not None:
            await interaction.response.send_message(say(refusal), ephemeral=True)
            return
    # Acknowledge first: the lock may be held by a start that deals and posts the board.
    await interaction.response.defer()
    if what == "start":
        result = await lobby.start(gid, user.id, admin)
    elif what == "join":
        # The Join's id is the member's own seed of the dice (docs/fair_dice.md).
        result = await lobby.join(gid, user.id, user.display_name, str(interaction.id))
    elif what == "leave":
        result = await lobby.leave(gid, user.id)
    elif what == "cancel":
        result = await lobby.cancel(gid, user.id, admin)
    else:
        result = await lobby.set_option(gid, user.id, admin, what, values)
    if result.error or result.row is None:
        await interaction.followup.send(say(result.error or CLOSED), ephemeral=True)
        return
    await interaction.edit_original_response(**lobby_message(result, client(interaction).cards))


def lobby_view(row: GameRow, cards: CardDB) -> ui.View:
    """The lobby's selects (sets among those ``cards`` has, rules, edition with S5 when
    Twilight of the Gods is combined, timer and language) and buttons, in the current
    language."""
    options = Options.model_validate(row.options)
    o, v = selected_codes(options)
    view = new_view()
    sets = [
        discord.SelectOption(label=rendering.SET_NAMES[s], value=s, default=s in options.sets)
        for s in available_sets(cards)
    ]
    view.add_item(LobbySelect(row.id, "sets", sets, 0))
    rules = [
        discord.SelectOption(label=c.name, value=code, description=c.description, default=code in o)
        for code, c in OPTIONAL_RULES.items()
    ]
    view.add_item(LobbySelect(row.id, "rules", rules, 1))
    edition = [
        discord.SelectOption(label=c.name, value=code, description=c.description, default=code in v)
        for code, c in EDITION_OPTIONS.items()
        if code in offered_codes(options, "edition")
    ]
    view.add_item(LobbySelect(row.id, "edition", edition, 2))
    timers = [
        discord.SelectOption(
            label=say(msg("lobby.option.timer", timer=label)),
            value="default" if seconds is None else str(seconds),
            default=seconds == row.decision_timer and row.pace != "slow",
        )
        for label, seconds in rendering.TIMER_CHOICES
    ]
    # The slow pace (issue 26): a decision timer in hours.
    timers += [
        discord.SelectOption(
            label=say(msg("lobby.option.slow", timer=rendering.duration(seconds))),
            value=f"{rendering.SLOW_VALUE}{seconds}",
            default=row.pace == "slow" and seconds == row.decision_timer,
        )
        for seconds in rendering.SLOW_CHOICES
    ]
    # The languages by their own names; the lobby's is in its embed (a select of one value
    # shows one default, the timer's).
    languages = [
        discord.SelectOption(
            label=say(msg("lobby.option.language", language=language_name(language))),
            value=f"{LANGUAGE_VALUE}{language}",
        )
        for language in LANGUAGES
    ]
    # Rated or not (issue 25): the one that changes it (the embed says which it is).
    languages.append(
        discord.SelectOption(
            label=say(msg("lobby.option.rated_off" if row.rated else "lobby.option.rated_on")),
            value=f"{RATED_VALUE}{'off' if row.rated else 'on'}",
        )
    )
    view.add_item(LobbySelect(row.id, "timer", timers + languages, 3))
    for what in ("join", "leave", "ai", "start", "cancel"):
        view.add_item(LobbyButton(row.id, what))
    return view
