"""The running game's views: the public board's components (the decider's public choices and
the control buttons) and the player's private panel (every choice of his open prompt, his
auto-pass menu, Refresh); buttons five a row, select menus of 25 beyond a count.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import ui

from bot import rendering
from bot.autopass import AUTO_KINDS
from bot.components.answers import new_view
from bot.components.choices import AutoPassSelect, ChoiceButton, ChoiceSelect, ControlButton
from engine import PLAY_KINDS, ChoiceView

if TYPE_CHECKING:
    from bot.storage import SeatRow
    from bot.table import Table

#: Public choice buttons on the board before it switches to select menus.
BOARD_BUTTONS = 15
#: Choice buttons on a private panel before it switches to select menus (three rows: the
#: fourth holds the auto-pass menu, the fifth the Refresh button).
PANEL_BUTTONS = 15
#: Select menus of choices on a private panel at most.
PANEL_SELECTS = 3
SELECT_SIZE = 25


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
                label=rendering.clip(rendering.choice_label(c, names, g.db), 100),
                value=str(c.index),
                description=d,
            )
            for c, d in zip(indexed, described, strict=True)
        ]
        view.add_item(ChoiceSelect(table.id, since, 0, options, "Choose a reward…", row=0))
        return
    if len(indexed) <= max_buttons:
        for n, c in enumerate(indexed):
            label = rendering.choice_label(c, names, g.db)
            view.add_item(ChoiceButton(table.id, since, c.index, label, _style(c.action), n // 5))
        return
    for n in range(min(max_rows, -(-len(indexed) // SELECT_SIZE))):
        part = indexed[n * SELECT_SIZE : (n + 1) * SELECT_SIZE]
        options = [
            discord.SelectOption(
                label=rendering.clip(rendering.choice_label(c, names, g.db), 100),
                value=str(c.index),
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


def refresh_view(gid: int) -> ui.View:
    """A lone **Refresh** button: it opens the player's fresh panel."""
    view = new_view()
    view.add_item(ControlButton(gid, "hand", "Refresh"))
    return view


def reclaim_view(gid: int) -> ui.View:
    view = new_view()
    view.add_item(ControlButton(gid, "reclaim"))
    return view
