"""The running game's views: the public board's components (the decider's public choices and
the control buttons) and the player's private panel (every choice of his open prompt, his
auto-pass menu, Refresh); buttons five a row, select menus of 25 beyond a count.

Labels are said in the current language: the caller builds the board's view in the game's
language and a panel's in its owner's.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import discord
from discord import ui

from bot import rendering
from bot.attachments import attachment_url
from bot.autopass import AUTO_KINDS
from bot.components.answers import new_layout, new_view
from bot.components.choices import (
    AutoPassButton,
    AutoPassSelect,
    ChoiceButton,
    ChoiceSelect,
    ControlButton,
)
from bot.components.undo import undo_button
from engine import PLAY_KINDS, ChoiceView
from words import msg, say

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
        passing = say(msg("button.pass"))
        view.add_item(ChoiceButton(table.id, since, 0, passing, discord.ButtonStyle.secondary, 0))
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
            label: str | None = say(msg("button.start"))
        else:
            label = say(msg("button.play_a_card")) if prompt.kind in PLAY_KINDS else None
        view.add_item(ControlButton(table.id, "decide", label, row=row))
        view.add_item(ControlButton(table.id, "hand", row=row))
        return view
    starting = any(p.kind.startswith("start_") for p in prompts)
    label = say(msg("button.start")) if starting else None
    view.add_item(ControlButton(table.id, "decide", label, row=0))
    view.add_item(ControlButton(table.id, "hand", row=0))
    return view


#: An action row's width: five buttons, or one select menu.
ROW_WIDTH = 5
#: A picture on a components V2 message: its attachment's name and its alt text.
Shown = tuple[str, str]


def board_layout(
    table: Table,
    lines: str,
    board: str,
    picture: Shown | None = None,
    battles: Sequence[Shown] = (),
    colour: discord.Colour | None = None,
) -> ui.LayoutView:
    """The board message as components V2 (issue 23): the latest ``lines``, the pictures of
    the battles among them, then the board in a container (``board``: its text, the whole
    text board, or with its ``picture`` its heading and whose decision it is), and the
    decision's buttons (:func:`board_view`) with **Text board**, which shows the whole board
    in words to the clicker alone."""
    view = retired_layout(lines, battles)
    box: ui.Container[Any] = ui.Container(accent_colour=colour)
    # The lines and the board share the message's text: a board grown since its lines were
    # posted (an edit in place) is cut at a line's end, never refused by Discord (Text
    # board shows it whole).
    box.add_item(ui.TextDisplay(rendering.clip_lines(board, rendering.V2_TEXT_LIMIT - len(lines))))
    if picture is not None:
        name, alt = picture
        box.add_item(
            ui.MediaGallery(discord.MediaGalleryItem(attachment_url(name), description=alt))
        )
    view.add_item(box)
    rows: dict[int, list[ui.Item[Any]]] = {}
    buttons = board_view(table)
    for item in buttons.children if buttons is not None else []:
        rows.setdefault(item.row or 0, []).append(item)
    if table.row.status == "running" and not table.game.over:
        text_board = ControlButton(table.id, "board")
        last = max(rows, default=0)
        if len(rows.get(last, [])) >= 5 or any(
            isinstance(i, ChoiceSelect) for i in rows.get(last, [])
        ):
            last += 1
        rows.setdefault(last, []).append(text_board)
    for n in sorted(rows):
        row = ui.ActionRow[Any]()
        for item in rows[n]:
            item.row = None  # a components V2 message places its items by their ActionRow
            if sum(i.width for i in row.children) + item.width > ROW_WIDTH:
                view.add_item(row)  # full (five buttons, or a select menu): the next row
                row = ui.ActionRow[Any]()
            row.add_item(item)
        view.add_item(row)
    return view


def retired_layout(lines: str, battles: Sequence[Shown] = ()) -> ui.LayoutView:
    """A board message once a newer one holds the board: its lines and its battles'
    pictures, nothing else."""
    view = new_layout()
    view.add_item(ui.TextDisplay(lines))
    items = [
        discord.MediaGalleryItem(attachment_url(name), description=alt) for name, alt in battles
    ]
    if items:
        view.add_item(ui.MediaGallery(*items))
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
    else select menus of 25 options, one a row, at most ``max_rows`` of them. (A Region's
    named rewards are buttons too: what each gives is written above them, on the board
    and in the panel, so that a reward is one click: ``rendering.described_choices``.)"""
    names = table.names
    g = table.game
    view_now = table.table_view()
    # The card that prints the choices' words (a pick's card, a reward's Region), for their
    # translation.
    prompt = table.prompt_view(player)
    region = next((p.region for p in view_now.parties if p.seat == player), None)

    def label(c: ChoiceView, limit: int) -> str:
        card = rendering.option_card(c, prompt, region)
        return rendering.clip(rendering.choice_label(c, names, g.db, card), limit)

    if len(indexed) <= max_buttons:
        for n, c in enumerate(indexed):
            button = ChoiceButton(
                table.id, since, c.index, label(c, rendering.LABEL_LIMIT), _style(c.action), n // 5
            )
            view.add_item(button)
        return
    for n in range(min(max_rows, -(-len(indexed) // SELECT_SIZE))):
        part = indexed[n * SELECT_SIZE : (n + 1) * SELECT_SIZE]
        options = [
            discord.SelectOption(label=label(c, rendering.OPTION_LABEL_LIMIT), value=str(c.index))
            for c in part
        ]
        first, last = n * SELECT_SIZE + 1, n * SELECT_SIZE + len(part)
        placeholder = say(msg("select.choose.range", first=first, last=last, n=len(indexed)))
        view.add_item(ChoiceSelect(table.id, since, n, options, placeholder, row=n))


def private_view(
    table: Table, seat: SeatRow, autopass: frozenset[str] = frozenset(), tip: bool = False
) -> ui.View | None:
    """Every choice of the player's open prompt (card names included: only he sees it), his
    auto-pass menu, a Refresh button and Undo while he may take his last decision back;
    ``tip``: the **Auto-pass windows** button of the first turn's tip beside it
    (:func:`bot.autopass.window_tip`)."""
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
        view.add_item(ControlButton(table.id, "hand", say(msg("button.refresh")), row=4))
        undo = undo_button(table, seat, row=4)  # issue 25: while the engine allows it
        if undo is not None:
            view.add_item(undo)
        if tip and seat.user_id is not None:
            view.add_item(AutoPassButton(table.id, row=4))
    return view if view.children else None


def tip_view(gid: int) -> ui.View:
    """The lone **Auto-pass windows** button, under the tip that answers a Pass clicked on
    the board in the first turn."""
    view = new_view()
    view.add_item(AutoPassButton(gid))
    return view


def autopass_options(kinds: frozenset[str]) -> list[discord.SelectOption]:
    """The auto-pass menu's options, the member's current kinds selected."""
    return [
        discord.SelectOption(
            label=rendering.clip(rendering.autopass_label(code), rendering.OPTION_LABEL_LIMIT),
            value=code,
            description=rendering.clip(
                rendering.autopass_description(code), rendering.OPTION_LABEL_LIMIT
            ),
            default=code in kinds,
        )
        for code in AUTO_KINDS
    ]


def refresh_view(gid: int) -> ui.View:
    """A lone **Refresh** button: it opens the player's fresh panel."""
    view = new_view()
    view.add_item(ControlButton(gid, "hand", say(msg("button.refresh"))))
    return view


def reclaim_view(gid: int) -> ui.View:
    view = new_view()
    view.add_item(ControlButton(gid, "reclaim"))
    return view
