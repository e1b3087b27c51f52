"""Buttons and select menus, and the views that hold them (board, private panel, lobby, the
``/anima end`` confirmation). Every interactive component is a :class:`discord.ui.DynamicItem`
whose custom_id carries all it needs (game id, prompt version, choice index), so buttons keep
working after a restart and no view is kept in memory. A click acknowledges the interaction
and hands over to the bot's services (``bot.games``, ``bot.lobby``), reached through the
client of the interaction.

custom_ids (all ≤ 100 characters, never a card id):

- ``anima:<game>:<since>:<index>`` — a choice button (public board or private panel);
- ``anima:<game>:<since>:s<n>`` — a choice select (option values are choice indexes);
- ``anima:<game>:<decide|hand|respond|reclaim>`` — the board's control buttons;
- ``anima:<game>:autopass`` — the private panel's auto-pass menu (option values are the
  kinds of ``bot.autopass``);
- ``anima:lobby:<game>:<join|leave|ai|start|cancel>`` and ``…:<sets|rules|edition|timer>``;
- ``anima:lobby:<game>:ai:<level>`` — a level in the host's private "Add AI player" picker;
- ``anima:end:<game>:<yes|no>`` — the ``/anima end`` confirmation.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import discord
from discord import ui

from bot import rendering
from bot.autopass import AUTO_KINDS
from bot.collector import work_done
from bot.lobby_options import EDITION_OPTIONS, OPTIONAL_RULES, offered_codes, selected_codes
from bot.table import MAX_SEATS
from engine.agents.levels import DEFAULT_LEVEL, LEVELS
from engine.cards import CardDB
from engine.options import Options
from engine.prompts import PLAY_KINDS
from engine.views import ChoiceView

if TYPE_CHECKING:
    from bot.app import AnimaBot
    from bot.storage import GameRow, SeatRow
    from bot.table import Reply, Table

log = logging.getLogger("anima.components")

ERROR_TEXT = (
    "Something went wrong on my side. Nothing you did was lost: the board shows the game "
    "as it stands. Please try again."
)

#: Public choice buttons on the board before it switches to select menus.
BOARD_BUTTONS = 15
#: Choice buttons on a private panel before it switches to select menus (three rows: the
#: fourth holds the auto-pass menu, the fifth the Refresh button).
PANEL_BUTTONS = 15
#: Select menus of choices on a private panel at most.
PANEL_SELECTS = 3
SELECT_SIZE = 25


def new_view() -> ui.View:
    """An empty view for the bot's components, with no timer and no listener.

    Every item is a :class:`discord.ui.DynamicItem` registered once at start
    (``AnimaBot.setup_hook``): a click is matched by its custom_id, whatever message it is
    on. So the view is stopped at once: discord.py then keeps nothing for the message it is
    sent with (``is_finished()`` views are not stored). Otherwise it would keep every sent
    view, and give every ephemeral one (the private panels) a 15-minute timeout task of
    its own, which piles up in a long game and slows SimCord's virtual clock (issue 10)."""
    view = ui.View(timeout=None)
    with contextlib.suppress(RuntimeError):  # outside an event loop: nothing to stop
        asyncio.get_running_loop()
        view.stop()
    return view


def _bot(interaction: discord.Interaction) -> AnimaBot:
    return interaction.client  # type: ignore[return-value]


def is_admin(interaction: discord.Interaction) -> bool:
    """Manage Server, the permission that lets members end games and change settings."""
    user = interaction.user
    return isinstance(user, discord.Member) and user.guild_permissions.manage_guild


def _in_panel(interaction: discord.Interaction) -> bool:
    """A click on an ephemeral panel or in a DM updates that message in place."""
    message = interaction.message
    return interaction.guild_id is None or (message is not None and message.flags.ephemeral)


async def guarded(interaction: discord.Interaction, work: Callable[[], Awaitable[None]]) -> None:
    """Run a component callback; an unexpected error is logged (and kept for the tests) and
    the user gets a short apology instead of a traceback or a spinning button."""
    try:
        await work()
    except Exception as exc:
        log.exception("component callback failed")
        _bot(interaction).record_error(exc)
        try:
            if interaction.response.is_done():
                await interaction.followup.send(ERROR_TEXT, ephemeral=True)
            else:
                await interaction.response.send_message(ERROR_TEXT, ephemeral=True)
        except discord.HTTPException:
            pass
    finally:
        work_done()


async def _open(interaction: discord.Interaction) -> bool:
    """Acknowledge at once (3-second rule); True when the answer edits a panel in place."""
    if _in_panel(interaction):
        await interaction.response.defer()
        return True
    await interaction.response.defer(ephemeral=True, thinking=True)
    return False


async def _answer(interaction: discord.Interaction, reply: Reply) -> None:
    await answer(interaction, reply)


async def _reply_quickly(
    interaction: discord.Interaction, work: Callable[[], Awaitable[Reply]]
) -> None:
    """Answer with ``work``'s reply in one call when it comes within
    :data:`ACKNOWLEDGE_AFTER` (the panel clicked in, edited in place; or a new ephemeral
    message); else acknowledge first (Discord wants an answer within 3 seconds) and complete
    the answer when the reply comes (two calls).

    The work runs in the caller's task; a timer starts the acknowledgement if it is due (a
    timer handle, cancelled at no cost in the usual case, where a task and a wait would
    cost a few objects and a loop turn each)."""
    opening: asyncio.Future[bool] | None = None

    def acknowledge() -> None:
        nonlocal opening
        opening = asyncio.ensure_future(_open(interaction))

    timer = asyncio.get_running_loop().call_later(ACKNOWLEDGE_AFTER, acknowledge)
    try:
        reply = await work()
    finally:
        timer.cancel()
        if opening is not None:
            await opening  # acknowledged: the answer (or the apology) completes it
    if opening is not None:
        await _answer(interaction, reply)
        return
    embeds = [reply.embed] if reply.embed is not None else []
    view = reply.view
    if _in_panel(interaction):
        await interaction.response.edit_message(
            content=reply.content or None, embeds=embeds, view=view, attachments=reply.files
        )
        message_id = interaction.message.id if interaction.message is not None else None
    else:
        extra: dict[str, Any] = {"view": view} if view is not None else {}
        sent = await interaction.response.send_message(
            reply.content or None, embeds=embeds, files=reply.files, ephemeral=True, **extra
        )
        resource = sent.resource if sent is not None else None
        message_id = resource.id if isinstance(resource, discord.InteractionMessage) else None
    if reply.panel is not None and message_id is not None:
        await _remember_panel(interaction, reply, message_id)


async def _remember_panel(interaction: discord.Interaction, reply: Reply, message_id: int) -> None:
    """The answer shown is the player's live panel (:mod:`bot.panels`)."""
    assert reply.panel is not None
    edit: Callable[..., Awaitable[Any]] = interaction.edit_original_response
    if interaction.guild_id is None and interaction.message is not None:
        # A DM: an ordinary message, which the bot may edit after the token has expired.
        edit = interaction.message.edit
    await _bot(interaction).panels.opened(
        reply.panel, message_id, edit, interaction.guild_id is None, reply.embed, reply.view
    )


async def answer(interaction: discord.Interaction, reply: Reply) -> None:
    """Complete a deferred answer (a new ephemeral message, or the panel clicked in), and
    remember it as the player's live panel when it is one (:mod:`bot.panels`)."""
    message = await interaction.edit_original_response(
        content=reply.content or None,
        embeds=[reply.embed] if reply.embed is not None else [],
        view=reply.view,
        attachments=reply.files,
    )
    if reply.panel is not None:
        await _remember_panel(interaction, reply, message.id)


# ---------------------------------------------------------------------- choices


class ChoiceButton(
    ui.DynamicItem[ui.Button[Any]],
    template=r"anima:(?P<gid>[0-9]+):(?P<since>[0-9]+):(?P<idx>[0-9]+)",
):
    """One choice of the open prompt, by its index (never its card)."""

    def __init__(
        self,
        gid: int,
        since: int,
        idx: int,
        label: str = "Choose",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        row: int | None = None,
    ) -> None:
        super().__init__(
            ui.Button(
                label=rendering.clip(label, rendering.LABEL_LIMIT),
                style=style,
                custom_id=f"anima:{gid}:{since}:{idx}",
                row=row,
            )
        )
        self.gid, self.since, self.idx = gid, since, idx

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: ui.Item[Any], match: re.Match[str], /
    ) -> ChoiceButton:
        label = getattr(item, "label", None) or ""
        return cls(int(match["gid"]), int(match["since"]), int(match["idx"]), label)

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda: choice_made(interaction, self.gid, self.since, self.idx))


class ChoiceSelect(
    ui.DynamicItem[ui.Select[Any]],
    template=r"anima:(?P<gid>[0-9]+):(?P<since>[0-9]+):s(?P<n>[0-9]+)",
):
    """Several choices of the open prompt in one menu; option values are choice indexes."""

    def __init__(
        self,
        gid: int,
        since: int,
        n: int,
        options: list[discord.SelectOption],
        placeholder: str = "Choose…",
        row: int | None = None,
    ) -> None:
        super().__init__(
            ui.Select(
                custom_id=f"anima:{gid}:{since}:s{n}",
                options=options,
                placeholder=rendering.clip(placeholder, 150),
                row=row,
            )
        )
        self.gid, self.since = gid, since

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: ui.Item[Any], match: re.Match[str], /
    ) -> ChoiceSelect:
        options = list(getattr(item, "options", []))
        return cls(int(match["gid"]), int(match["since"]), int(match["n"]), options)

    async def callback(self, interaction: discord.Interaction) -> None:
        values = self.item.values
        if not values or not values[0].isdigit():
            await interaction.response.send_message("Pick one option.", ephemeral=True)
            return
        idx = int(values[0])
        await guarded(interaction, lambda: choice_made(interaction, self.gid, self.since, idx))


#: Seconds a board click may wait for its game (another click holds it) before it is
#: acknowledged on its own: Discord wants an answer within 3 seconds.
ACKNOWLEDGE_AFTER = 1.0


class BoardClick:
    """A click on the public board, answered by the board's own edit when the click changes
    it (:class:`bot.publishing.ClickedBoard`: one Discord call instead of an
    acknowledgement and an edit); otherwise acknowledged without a message when its work is
    done, or after :data:`ACKNOWLEDGE_AFTER` seconds if the game keeps it waiting."""

    def __init__(self, interaction: discord.Interaction) -> None:
        self.interaction = interaction
        self.message_id = interaction.message.id if interaction.message is not None else 0
        #: Set before the answer is sent (the checks and the sets happen with no await in
        #: between, so two answers are never attempted).
        self._answered = False
        # A timer handle (cancelled at no cost when the work is done in time), which starts
        # the acknowledgement in a task of its own when it is due.
        self._late = asyncio.get_running_loop().call_later(
            ACKNOWLEDGE_AFTER, self._acknowledge_late
        )
        self._acknowledging: asyncio.Future[None] | None = None

    def _acknowledge_late(self) -> None:
        self._acknowledging = asyncio.ensure_future(self.acknowledge())

    async def edit(self, **fields: Any) -> bool:
        """Answer by editing the clicked message (see :class:`ClickedBoard`)."""
        if self._answered:
            return False
        self._answered = True
        try:
            await self.interaction.response.edit_message(**fields)
        except discord.HTTPException:
            self._answered = False  # not answered: acknowledged later, edited by the caller
            return False
        return True

    async def acknowledge(self) -> None:
        """Answer without a message, unless answered already."""
        if self._answered:
            return
        self._answered = True
        await self.interaction.response.defer()

    async def done(self) -> None:
        """The click's work is over: acknowledge it if nothing answered it."""
        self._late.cancel()
        if self._acknowledging is not None:
            await self._acknowledging
        await self.acknowledge()


async def choice_made(interaction: discord.Interaction, gid: int, since: int, idx: int) -> None:
    games = _bot(interaction).games
    if _in_panel(interaction):  # the panel is edited in place
        panel = interaction.message.id if interaction.message is not None else None
        await _reply_quickly(
            interaction, lambda: games.choose(gid, interaction.user.id, since, idx, panel=panel)
        )
        return
    # A click on the public board: answered by the board's edit, or acknowledged without a
    # message; the player hears privately only when there is something private to tell (an
    # error, a card drawn, his next panel).
    clicked = BoardClick(interaction)
    try:
        reply = await games.choose(gid, interaction.user.id, since, idx, clicked=clicked)
    finally:
        await clicked.done()
    if reply.quiet:
        return
    extra: dict[str, Any] = {"view": reply.view} if reply.view is not None else {}
    if reply.content:
        extra["content"] = reply.content
    message = await interaction.followup.send(
        embeds=[reply.embed] if reply.embed is not None else [],
        ephemeral=True,
        wait=True,
        **extra,
    )
    if reply.panel is not None:
        await _bot(interaction).panels.opened(
            reply.panel, message.id, message.edit, False, reply.embed, reply.view
        )


class ControlButton(
    ui.DynamicItem[ui.Button[Any]],
    template=r"anima:(?P<gid>[0-9]+):(?P<what>decide|hand|respond|reclaim)",
):
    """Decide / My hand / Respond (open the private panel) and Take my seat back."""

    LABELS = {
        "decide": ("Decide", discord.ButtonStyle.primary),
        "hand": ("My hand", discord.ButtonStyle.secondary),
        "respond": ("Respond", discord.ButtonStyle.primary),
        "reclaim": ("Take my seat back", discord.ButtonStyle.success),
    }

    def __init__(self, gid: int, what: str, label: str | None = None, row: int | None = None):
        default, style = self.LABELS[what]
        super().__init__(
            ui.Button(label=label or default, style=style, custom_id=f"anima:{gid}:{what}", row=row)
        )
        self.gid, self.what = gid, what

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: ui.Item[Any], match: re.Match[str], /
    ) -> ControlButton:
        return cls(int(match["gid"]), match["what"], getattr(item, "label", None))

    async def callback(self, interaction: discord.Interaction) -> None:
        async def reply() -> Reply:
            games = _bot(interaction).games
            if self.what == "reclaim":
                return await games.reclaim(self.gid, interaction.user.id)
            return await games.panel(self.gid, interaction.user.id, self.what)

        await guarded(interaction, lambda: _reply_quickly(interaction, reply))


def _style(choice: str) -> discord.ButtonStyle:
    head = choice.split(" ", 1)[0]
    if head in ("pass", "done", "skip", "withdraw", "decline", "rest"):
        return discord.ButtonStyle.secondary
    if head in ("attack", "remove", "dismiss", "discard", "block"):
        return discord.ButtonStyle.danger
    if head in ("accept", "explore", "reveal_final", "send", "keep"):
        return discord.ButtonStyle.success
    return discord.ButtonStyle.primary


#: The board's label of the decider's private panel in the steps where he may play cards.
PLAY_A_CARD = "Play a card…"


def board_view(table: Table) -> ui.View | None:
    """The board's components: public choices of the decider, and the control buttons."""
    g = table.game
    if g.over or table.row.status != "running":
        return None
    prompts = g.pending()
    view = new_view()
    windows = [p for p in prompts if p.window]
    if windows:
        since = table.seats[windows[0].player].prompt_since or 0
        # "pass" is the first choice of every window: a public button that reveals nothing.
        view.add_item(ChoiceButton(table.id, since, 0, "Pass", discord.ButtonStyle.secondary, 0))
        view.add_item(ControlButton(table.id, "respond", row=0))
        view.add_item(ControlButton(table.id, "hand", row=0))
        return view
    if len(prompts) == 1 and not table.seats[prompts[0].player].ai:
        prompt = table.prompt_view(prompts[0].player)
        assert prompt is not None
        since = table.seats[prompt.player].prompt_since or 0
        # The engine says which choices name nothing hidden from the table.
        public = [c for c in prompt.choices if c.public]
        if public:
            _add_prompt_choices(view, table, prompt.player, since, public, BOARD_BUTTONS, 3)
        row = 3
        # The setup's last chooser still chooses his start: the button keeps its name. In a
        # step of his own turn where cards may be played, the decider's private choices are
        # shown as "Play a card…" whatever he holds: showing it only when he holds a playable
        # card would tell the table so (docs/bot.md).
        if prompt.kind.startswith("start_"):
            label: str | None = "Choose my start"
        else:
            label = PLAY_A_CARD if prompt.kind in PLAY_KINDS else None
        view.add_item(ControlButton(table.id, "decide", label, row=row))
        view.add_item(ControlButton(table.id, "hand", row=row))
        return view
    label = "Choose my start" if any(p.kind.startswith("start_") for p in prompts) else None
    view.add_item(ControlButton(table.id, "decide", label, row=0))
    view.add_item(ControlButton(table.id, "hand", row=0))
    return view


def _add_prompt_choices(
    view: ui.View,
    table: Table,
    player: str,
    since: int,
    indexed: list[ChoiceView],
    max_buttons: int,
    max_rows: int,
) -> None:
    """Add the ``indexed`` choices of a prompt: buttons (5 a row) up to ``max_buttons``,
    else select menus of 25 options, one a row, at most ``max_rows`` of them. Choices whose
    label does not say what they give (a Region's named rewards) go in one menu whose
    options are described."""
    names = table.names
    g = table.game
    view_now = table.table_view()
    described = [rendering.choice_description(c, view_now, player, g.db) for c in indexed]
    if any(described) and len(indexed) <= SELECT_SIZE:
        # Rewards named on the card ("Woodland Shrine") say what they give in a menu.
        options = [
            discord.SelectOption(
                label=rendering.clip(rendering.choice_label(c, names), 100),
                value=str(c.index),
                description=d,
            )
            for c, d in zip(indexed, described, strict=True)
        ]
        view.add_item(ChoiceSelect(table.id, since, 0, options, "Choose a reward…", row=0))
        return
    if len(indexed) <= max_buttons:
        for n, c in enumerate(indexed):
            label = rendering.choice_label(c, names)
            view.add_item(ChoiceButton(table.id, since, c.index, label, _style(c.action), n // 5))
        return
    for n in range(min(max_rows, -(-len(indexed) // SELECT_SIZE))):
        part = indexed[n * SELECT_SIZE : (n + 1) * SELECT_SIZE]
        options = [
            discord.SelectOption(
                label=rendering.clip(rendering.choice_label(c, names), 100), value=str(c.index)
            )
            for c in part
        ]
        first, last = n * SELECT_SIZE + 1, n * SELECT_SIZE + len(part)
        placeholder = f"Choose… ({first}-{last} of {len(indexed)})"
        view.add_item(ChoiceSelect(table.id, since, n, options, placeholder, row=n))


def private_view(
    table: Table, seat: SeatRow, autopass: frozenset[str] = frozenset()
) -> ui.View | None:
    """Every choice of the player's open prompt (card names included: only he sees it), his
    auto-pass menu and a Refresh button."""
    prompt = table.prompt_view(seat.seat)
    view = new_view()
    if prompt is not None and seat.prompt_since is not None:
        indexed = list(prompt.choices)
        _add_prompt_choices(
            view, table, seat.seat, seat.prompt_since, indexed, PANEL_BUTTONS, PANEL_SELECTS
        )
    if table.row.status == "running":
        if seat.user_id is not None:
            view.add_item(AutoPassSelect(table.id, autopass_options(autopass), row=3))
        view.add_item(ControlButton(table.id, "hand", "Refresh", row=4))
    return view if view.children else None


def autopass_options(kinds: frozenset[str]) -> list[discord.SelectOption]:
    """The auto-pass menu's options, the member's current kinds selected."""
    return [
        discord.SelectOption(
            label=k.label, value=code, description=k.description, default=code in kinds
        )
        for code, k in AUTO_KINDS.items()
    ]


class AutoPassSelect(
    ui.DynamicItem[ui.Select[Any]],
    template=r"anima:(?P<gid>[0-9]+):autopass",
):
    """The private panel's auto-pass menu: the kinds of decision the bot passes at once for
    this member (bot.autopass); none selected switches it off."""

    def __init__(
        self, gid: int, options: list[discord.SelectOption], row: int | None = None
    ) -> None:
        super().__init__(
            ui.Select(
                custom_id=f"anima:{gid}:autopass",
                options=options,
                placeholder="Auto-pass: off",
                min_values=0,
                max_values=len(options),
                row=row,
            )
        )
        self.gid = gid
        chosen = [o.label for o in options if o.default]
        if chosen:
            self.item.placeholder = rendering.clip("Auto-pass: " + ", ".join(chosen), 150)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: ui.Item[Any], match: re.Match[str], /
    ) -> AutoPassSelect:
        return cls(int(match["gid"]), list(getattr(item, "options", [])))

    async def callback(self, interaction: discord.Interaction) -> None:
        values = list(self.item.values)

        async def work() -> None:
            await _open(interaction)
            bot = _bot(interaction)
            reply = await bot.games.set_autopass(self.gid, interaction.user.id, values)
            await _answer(interaction, reply)

        await guarded(interaction, work)


def refresh_view(gid: int) -> ui.View:
    """A lone **Refresh** button: it opens the player's fresh panel."""
    view = new_view()
    view.add_item(ControlButton(gid, "hand", "Refresh"))
    return view


def reclaim_view(gid: int) -> ui.View:
    view = new_view()
    view.add_item(ControlButton(gid, "reclaim"))
    return view


# ---------------------------------------------------------------------- lobby


def available_sets(cards: CardDB) -> list[str]:
    """Card sets that have cards in the database (others cannot be played yet)."""
    present = {c.set for c in cards}
    return [s for s in rendering.SET_NAMES if s in present]


class LobbyButton(
    ui.DynamicItem[ui.Button[Any]],
    template=r"anima:lobby:(?P<gid>[0-9]+):(?P<what>join|leave|ai|start|cancel)",
):
    LABELS = {
        "join": ("Join", discord.ButtonStyle.success),
        "leave": ("Leave", discord.ButtonStyle.secondary),
        "ai": ("Add AI player", discord.ButtonStyle.secondary),
        "start": ("Start", discord.ButtonStyle.primary),
        "cancel": ("Cancel", discord.ButtonStyle.danger),
    }

    def __init__(self, gid: int, what: str) -> None:
        label, style = self.LABELS[what]
        super().__init__(
            ui.Button(label=label, style=style, custom_id=f"anima:lobby:{gid}:{what}", row=4)
        )
        self.gid, self.what = gid, what

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: ui.Item[Any], match: re.Match[str], /
    ) -> LobbyButton:
        return cls(int(match["gid"]), match["what"])

    async def callback(self, interaction: discord.Interaction) -> None:
        if self.what == "ai":  # the host first picks the new AI player's level
            await guarded(interaction, lambda: ai_level_picker(interaction, self.gid))
            return
        await guarded(interaction, lambda: lobby_action(interaction, self.gid, self.what, []))


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
                label=level.capitalize(), style=style, custom_id=f"anima:lobby:{gid}:ai:{level}"
            )
        )
        self.gid, self.level = gid, level

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: ui.Item[Any], match: re.Match[str], /
    ) -> AiLevelButton:
        return cls(int(match["gid"]), match["level"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda: add_ai_player(interaction, self.gid, self.level))


def ai_level_view(gid: int) -> ui.View:
    """One button per AI level, weakest first (engine.agents.levels)."""
    view = new_view()
    for level in LEVELS:
        view.add_item(AiLevelButton(gid, level))
    return view


async def ai_level_picker(interaction: discord.Interaction, gid: int) -> None:
    """ "Add AI player": the host gets the levels privately; anybody else the refusal."""
    refusal = await _bot(interaction).lobby.ai_refusal(
        gid, interaction.user.id, is_admin(interaction)
    )
    if refusal is not None:
        await interaction.response.send_message(refusal, ephemeral=True)
        return
    await interaction.response.send_message(
        rendering.ai_level_text(), view=ai_level_view(gid), ephemeral=True
    )


async def add_ai_player(interaction: discord.Interaction, gid: int, level: str) -> None:
    """A level picked: the AI takes a seat, the lobby message shows it, and the picker says
    so (or why not)."""
    await interaction.response.defer()
    bot = _bot(interaction)
    result = await bot.lobby.add_ai(gid, interaction.user.id, is_admin(interaction), level)
    if result.error or result.row is None:
        await interaction.edit_original_response(
            content=result.error or "This lobby is closed.", view=None
        )
        return
    row = result.row
    if row.lobby_message_id is not None:
        embed = rendering.lobby_embed(row, result.seats, result.default_timer)
        lobby = bot.publisher.channel(row).get_partial_message(row.lobby_message_id)
        with contextlib.suppress(discord.HTTPException):  # the seat is taken all the same
            await lobby.edit(embed=embed, view=lobby_view(row, bot.cards))
    added = result.seats[-1]
    await interaction.edit_original_response(
        content=f"🤖 {added.name} ({level}) takes seat {len(result.seats)}.\n\n"
        + rendering.ai_level_text(),
        view=ai_level_view(gid) if len(result.seats) < MAX_SEATS else None,
    )


class LobbySelect(
    ui.DynamicItem[ui.Select[Any]],
    template=r"anima:lobby:(?P<gid>[0-9]+):(?P<what>sets|rules|edition|timer)",
):
    def __init__(self, gid: int, what: str, options: list[discord.SelectOption], row: int) -> None:
        placeholder, low, high = {
            "sets": ("Card sets", 1, len(options)),
            "rules": ("Optional rules", 0, len(options)),
            "edition": ("Edition options", 0, len(options)),
            "timer": ("Decision timer", 1, 1),
        }[what]
        super().__init__(
            ui.Select(
                custom_id=f"anima:lobby:{gid}:{what}",
                placeholder=placeholder,
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
        values = list(self.item.values)
        await guarded(interaction, lambda: lobby_action(interaction, self.gid, self.what, values))


async def lobby_action(
    interaction: discord.Interaction, gid: int, what: str, values: list[str]
) -> None:
    """A lobby button or select: the lobby message shows the change (nobody gets a private
    confirmation per click); only a refusal is said to the clicker, privately."""
    # Acknowledge first: the lock may be held by a start that deals and posts the board.
    await interaction.response.defer()
    lobby = _bot(interaction).lobby
    user = interaction.user
    admin = is_admin(interaction)
    if what == "start":
        result = await lobby.start(gid, user.id, admin)
    elif what == "join":
        result = await lobby.join(gid, user.id, user.display_name)
    elif what == "leave":
        result = await lobby.leave(gid, user.id)
    elif what == "cancel":
        result = await lobby.cancel(gid, user.id, admin)
    else:
        result = await lobby.set_option(gid, user.id, admin, what, values)
    if result.error or result.row is None:
        await interaction.followup.send(result.error or "This lobby is closed.", ephemeral=True)
        return
    embed = rendering.lobby_embed(
        result.row, result.seats, result.default_timer, closed=result.closed
    )
    view = None if result.closed else lobby_view(result.row, _bot(interaction).cards)
    await interaction.edit_original_response(embed=embed, view=view)


def lobby_view(row: GameRow, cards: CardDB) -> ui.View:
    """The lobby's selects (sets among those ``cards`` has, rules, edition with S5 when
    Twilight of the Gods is combined, timer) and buttons."""
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
            label=f"Timer: {label}",
            value="default" if seconds is None else str(seconds),
            default=seconds == row.decision_timer,
        )
        for label, seconds in rendering.TIMER_CHOICES
    ]
    view.add_item(LobbySelect(row.id, "timer", timers, 3))
    for what in ("join", "leave", "ai", "start", "cancel"):
        view.add_item(LobbyButton(row.id, what))
    return view


# ---------------------------------------------------------------------- /anima end


class EndButton(
    ui.DynamicItem[ui.Button[Any]],
    template=r"anima:end:(?P<gid>[0-9]+):(?P<what>yes|no)",
):
    """The confirmation of ``/anima end``."""

    def __init__(self, gid: int, what: str) -> None:
        label, style = (
            ("End the game", discord.ButtonStyle.danger)
            if what == "yes"
            else ("Keep playing", discord.ButtonStyle.secondary)
        )
        super().__init__(ui.Button(label=label, style=style, custom_id=f"anima:end:{gid}:{what}"))
        self.gid, self.what = gid, what

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: ui.Item[Any], match: re.Match[str], /
    ) -> EndButton:
        return cls(int(match["gid"]), match["what"])

    async def callback(self, interaction: discord.Interaction) -> None:
        async def work() -> None:
            if self.what == "no":
                await interaction.response.edit_message(content="The game goes on.", view=None)
                return
            await interaction.response.defer()
            reply = await _bot(interaction).games.end_game(
                self.gid, interaction.user.id, is_admin(interaction)
            )
            await interaction.edit_original_response(content=reply.content, view=None)

        await guarded(interaction, work)


def end_view(gid: int) -> ui.View:
    view = new_view()
    view.add_item(EndButton(gid, "yes"))
    view.add_item(EndButton(gid, "no"))
    return view


DYNAMIC_ITEMS: tuple[type[ui.DynamicItem[Any]], ...] = (
    ChoiceButton,
    ChoiceSelect,
    ControlButton,
    AutoPassSelect,
    LobbyButton,
    AiLevelButton,
    LobbySelect,
    EndButton,
)
