"""Acknowledging and answering a click within Discord's 3 seconds: the guard every component
callback runs in, the quick answer (one call when the work comes in time), the board click
answered by the board's own edit, and the player's live panel remembered once shown.

A component reaches the bot's services through the client of its interaction
(:func:`client`): the services sit above the components in the import graph.

Every callback runs in :func:`guarded`, which says everything inside it in the clicker's
language (:func:`bot.languages.reader_language`, from his choice or the interaction's locale):
his answers, his panel; whatever is public (the board, the channel's lines) is said in the
game's language by the code that posts it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, TypeVar

import discord
from discord import ui

from bot.collector import work_done
from bot.languages import reader_language
from words import SOURCE, language_of, msg, say, speaking

if TYPE_CHECKING:
    from bot.app import AnimaBot
    from bot.table import Reply

log = logging.getLogger("anima.components")


def error_text() -> str:
    """The apology for a failure on the bot's side (in the current language)."""
    return say(msg("answer.error"))


#: :func:`error_text` in English (for callers that have no language at hand).
ERROR_TEXT = say(msg("answer.error"), SOURCE)

#: Seconds a click may wait for its game (another click holds it) before it is acknowledged
#: on its own: Discord wants an answer within 3 seconds.
ACKNOWLEDGE_AFTER = 1.0

AnyView = TypeVar("AnyView", ui.View, ui.LayoutView)


def new_view() -> ui.View:
    """An empty view for the bot's components, with no timer and no listener.

    Every item is a :class:`discord.ui.DynamicItem` registered once at start
    (``AnimaBot.setup_hook``): a click is matched by its custom_id, whatever message it is
    on. So the view is stopped at once: discord.py then keeps nothing for the message it is
    sent with (``is_finished()`` views are not stored). Otherwise it would keep every sent
    view, and give every ephemeral one (the private panels) a 15-minute timeout task of
    its own, which piles up in a long game and slows SimCord's virtual clock (issue 10)."""
    return _stopped(ui.View(timeout=None))


def new_layout() -> ui.LayoutView:
    """An empty components V2 view (the board message), stopped at once like
    :func:`new_view` (its items are dynamic items too)."""
    return _stopped(ui.LayoutView(timeout=None))


def _stopped(view: AnyView) -> AnyView:
    with contextlib.suppress(RuntimeError):  # outside an event loop: nothing to stop
        asyncio.get_running_loop()
        view.stop()
    return view


def client(interaction: discord.Interaction) -> AnimaBot:
    return interaction.client  # type: ignore[return-value]


def is_admin(interaction: discord.Interaction) -> bool:
    """Manage Server, the permission that lets members end games and change settings."""
    user = interaction.user
    return isinstance(user, discord.Member) and user.guild_permissions.manage_guild


def in_panel(interaction: discord.Interaction) -> bool:
    """A click on an ephemeral panel or in a DM updates that message in place."""
    message = interaction.message
    return interaction.guild_id is None or (message is not None and message.flags.ephemeral)


async def clicker_language(interaction: discord.Interaction) -> str:
    """The language of the clicker's private answers: his choice, else the interaction's
    locale (remembered for his DMs). Never fails: without storage, the locale decides."""
    locale = getattr(interaction, "locale", None)
    storage = getattr(client(interaction), "storage", None)
    if storage is None:
        return language_of(locale)
    try:
        return await reader_language(storage, interaction.user.id, locale)
    except Exception:
        log.warning("could not read a clicker's language", exc_info=True)
        return language_of(locale)


async def guarded(interaction: discord.Interaction, work: Callable[[], Awaitable[None]]) -> None:
    """Run a component callback in the clicker's language; an unexpected error is logged
    (and kept for the tests) and the user gets a short apology instead of a traceback or a
    spinning button."""
    try:
        language = await clicker_language(interaction)
        with speaking(language):
            try:
                await work()
            except Exception as exc:
                log.exception("component callback failed")
                client(interaction).record_error(exc)
                try:
                    if interaction.response.is_done():
                        await interaction.followup.send(error_text(), ephemeral=True)
                    else:
                        await interaction.response.send_message(error_text(), ephemeral=True)
                except discord.HTTPException:
                    pass
    finally:
        work_done()


async def open_answer(interaction: discord.Interaction) -> bool:
    """Acknowledge at once (3-second rule); True when the answer edits a panel in place."""
    if in_panel(interaction):
        await interaction.response.defer()
        return True
    await interaction.response.defer(ephemeral=True, thinking=True)
    return False


async def reply_quickly(
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
        opening = asyncio.ensure_future(open_answer(interaction))

    timer = asyncio.get_running_loop().call_later(ACKNOWLEDGE_AFTER, acknowledge)
    try:
        reply = await work()
    finally:
        timer.cancel()
        if opening is not None:
            await opening  # acknowledged: the answer (or the apology) completes it
    if opening is not None:
        await answer(interaction, reply)
        return
    embeds = [reply.embed] if reply.embed is not None else []
    view = reply.view
    if in_panel(interaction):
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
    panels = client(interaction).panels
    await panels.opened(
        reply.panel, message_id, edit, interaction.guild_id is None, reply.embed, reply.view
    )
    if reply.hand is not None:  # its hand picture follows (bot.panels)
        panels.follow_hand(reply.panel.game_id, reply.panel.seat, reply.hand)


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
