"""Private views: a player's hand panel and his secret start (only he sees them)."""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.autopass import describe
from bot.rendering.cards import STAND_IN_LEGEND, card_line, card_name
from bot.rendering.events import event_line
from bot.rendering.prompts import prompt_text
from bot.rendering.text import (
    COLOR_PRIVATE,
    EMBED_TOTAL_LIMIT,
    FIELD_LIMIT,
    TRAP_MARK,
    Names,
    at_time,
    clip,
    fit,
)
from bot.storage import EventRow, GameRow, SeatRow
from engine import (
    PLAY_KINDS,
    CardDB,
    SeatView,
    TableView,
)


def hand_embed(
    view: SeatView,
    db: CardDB,
    row: GameRow,
    seat: SeatRow,
    names: Names,
    private_log: Sequence[EventRow] = (),
    texts: bool = True,
    autopass: frozenset[str] = frozenset(),
) -> discord.Embed:
    """What one player alone may see: party, hand, missions, start offers, scouted cards,
    his open decision, his auto-pass and his recent private events (card texts left out if
    too long)."""
    if texts:
        full = _hand_embed(view, db, row, seat, names, private_log, True, autopass)
        if len(full) <= EMBED_TOTAL_LIMIT - 200:
            return full
    return fit(_hand_embed(view, db, row, seat, names, private_log, False, autopass))


#: The mover's own line when the window about his action is open (the board stays neutral).
YOUR_WINDOW = {
    "move_declared": "⚡ Your move is declared; the others may respond.",
    "encounter_revealed": "⚡ You meet an Encounter; the others may respond.",
    "exploration_roll": "⚡ You rolled to explore; the others may respond.",
    "battle_start": "⚡ Your battle is about to start; everybody may respond.",
}


def autopass_line(kinds: frozenset[str]) -> str:
    """The panel's reminder of the member's own auto-pass (only he sees it)."""
    if not kinds:
        return ""
    return (
        f"⏩ Auto-pass on: {describe(kinds)}. Those decisions pass for you at once, whatever "
        "you hold; switch them off in the **Auto-pass** menu below or with `/anima settings`."
    )


def _hand_embed(
    view: SeatView,
    db: CardDB,
    row: GameRow,
    seat: SeatRow,
    names: Names,
    private_log: Sequence[EventRow],
    texts: bool,
    autopass: frozenset[str] = frozenset(),
) -> discord.Embed:
    table = view.table
    p = table.party(view.seat)
    lines: list[str] = []
    prompt = view.prompt
    if seat.taken_over:
        lines.append("🤖 An AI player has taken over your seat (too many time-outs).")
    mine = [w for w in table.waiting if w.window and view.seat in w.window_about]
    if mine and mine[0].window_kind in YOUR_WINDOW:
        lines.append(YOUR_WINDOW[mine[0].window_kind])
    if prompt is not None:
        # Absolute: a panel may outlive the 15 minutes in which the bot can edit it.
        deadline = f" ⏰ by {at_time(seat.deadline)}" if seat.deadline else ""
        lines.append(f"**Your decision:** {prompt_text(prompt, names, db)}{deadline}")
        playable = [
            card_name(db, c.action[5:]) for c in prompt.choices if c.action.startswith("play ")
        ]
        if playable:
            lines.append("▶️ Playable now: " + ", ".join(playable))
        elif prompt.window or prompt.kind in PLAY_KINDS:
            lines.append("▶️ Nothing playable now.")
    elif not table.over:
        # Whose decision it is changes at every click; the panel is refreshed when its
        # owner's situation changes (bot.panels), so it points to the board instead.
        lines.append("Not your decision now: the board shows whose it is.")
    if autopass and not table.over:
        lines.append(autopass_line(autopass))
    embed = discord.Embed(
        title=f"Your hand · game #{row.id}",
        description="\n".join(lines) or None,
        colour=COLOR_PRIVATE,
        # Shown by Discord as "Today at 14:03": when the panel was drawn.
        timestamp=discord.utils.utcnow(),
    )

    def add(title: str, cards: Sequence[str], empty: str | None = None) -> None:
        if cards:
            value = "\n".join(card_line(db, c, text=texts) for c in cards)
        elif empty is not None:
            value = empty
        else:
            return
        embed.add_field(name=title, value=clip(value, FIELD_LIMIT), inline=False)

    add("Your party", [c.card for c in p.characters], "no characters")
    add("Advantages in hand", view.hand, "none")
    add("Secret missions", view.missions, "none")
    add("Started missions", p.started)
    add("Completed missions", p.completed)
    add("In play", p.in_play)
    traps = own_traps_text(table, db)
    if traps:
        embed.add_field(name=f"{TRAP_MARK} Your Traps", value=traps, inline=False)
    # A character not kept waits, face down, for the others' choices: it is not his any
    # more, so the panel shows the offer only while he chooses.
    choosing = prompt is not None and prompt.kind == "start_character"
    add("Offered characters (keep 1)", view.offered_characters if choosing else ())
    add("Offered Advantages (keep 3)", view.offered_advantages)
    scouted = [f"{card_name(db, r)}: {card_name(db, e)}" for r, e in view.scouted]
    if scouted:
        embed.add_field(name="Scouted", value=clip("\n".join(scouted), FIELD_LIMIT), inline=False)
    if private_log:
        log = "\n".join(f"🔒 {event_line(e, names, db)}" for e in private_log)
        embed.add_field(name="Recently, for you alone", value=clip(log, FIELD_LIMIT), inline=False)
    footer = f"{names.label(view.seat)} · ⚔ {p.strength} · 💨 {p.speed}"
    embed.set_footer(text=f"{footer}\n{STAND_IN_LEGEND}")
    return embed


def own_traps_text(table: TableView, db: CardDB) -> str:
    """The Traps the viewer laid, face down for everybody else: "Unleashed Danger at Maisen"
    (``table`` is the viewer's own view: only his Traps are named in it)."""
    laid = [
        f"{card_name(db, t)} at {card_name(db, r.card)}" for r in table.regions for t in r.own_traps
    ]
    return clip("\n".join(laid), FIELD_LIMIT)


def start_embed(view: SeatView, db: CardDB, row: GameRow) -> discord.Embed:
    """The secret start (S2, S3) sent by DM."""
    embed = discord.Embed(
        title=f"Your secret start · game #{row.id}",
        description=(
            "Choose **1 character** to lead your party and **give back 1 Advantage** "
            "(you keep 3). Use the buttons below, or **My hand** in the game channel."
        ),
        colour=COLOR_PRIVATE,
    )
    for title, cards in (
        ("Your 2 Basic missions (secret)", view.missions),
        ("Characters offered (keep 1)", view.offered_characters),
        ("Advantages offered (keep 3)", view.offered_advantages),
    ):
        value = "\n".join(card_line(db, c) for c in cards) or "—"
        embed.add_field(name=title, value=clip(value, FIELD_LIMIT), inline=False)
    return embed
