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
- ``anima:<game>:undo:<version>`` — the private panel's Undo (issue 25,
  :mod:`~bot.components.undo`);
- ``anima:lobby:<game>:<join|leave|ai|start|cancel>`` and ``…:<sets|rules|edition|timer>``;
- ``anima:lobby:<game>:ai:<level>`` — a level in the host's private "Add AI player" picker;
- ``anima:end:<game>:<yes|no>`` — the ``/anima end`` confirmation;
- ``anima:privacy:<member>:<ask|yes|no>`` — ``/anima privacy``'s deletion and confirmation
  (only that member may click).
- ``anima:<game>:vote:<seat>:<ai|wait>`` — a ballot of a slow game's vote on a seat (``vote``).

The modules, one job each: :mod:`~bot.components.answers` (acknowledging and answering a
click), :mod:`~bot.components.choices` (the running game's items),
:mod:`~bot.components.game_views` (the board's and the private panel's views),
:mod:`~bot.components.lobby` (the lobby's items and view), :mod:`~bot.components.end` (the
``/anima end`` confirmation), :mod:`~bot.components.privacy` (``/anima privacy``'s buttons).
This package gathers every item class for registration (:data:`DYNAMIC_ITEMS`).
"""

from __future__ import annotations

from typing import Any

from discord import ui

from bot.components.choices import (
    AutoPassButton,
    AutoPassSelect,
    ChoiceButton,
    ChoiceSelect,
    ControlButton,
)
from bot.components.end import EndButton
from bot.components.lobby import AiLevelButton, LobbyButton, LobbySelect
from bot.components.privacy import PrivacyButton
from bot.components.undo import UndoButton
from bot.components.vote import VoteButton

#: Every item class, registered once at start (``AnimaBot.setup_hook``).
DYNAMIC_ITEMS: tuple[type[ui.DynamicItem[Any]], ...] = (
    ChoiceButton,
    ChoiceSelect,
    ControlButton,
    AutoPassSelect,
    AutoPassButton,
    LobbyButton,
    AiLevelButton,
    LobbySelect,
    EndButton,
    PrivacyButton,
    UndoButton,
    VoteButton,
)
