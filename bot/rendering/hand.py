"""Private views: a player's hand panel and his secret start (only he sees them), in the
current language (his own: :func:`bot.languages.reader_language`)."""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.rendering.autopass import autopass_kinds, window_tip
from bot.rendering.cards import (
    any_translated,
    card_line,
    card_name,
    stand_in_legend,
    translated_legend,
)
from bot.rendering.choices import described_choices
from bot.rendering.events import event_line
from bot.rendering.messages import msg, say
from bot.rendering.prompts import prompt_text
from bot.rendering.text import (
    COLOR_PRIVATE,
    EMBED_DESCRIPTION_LIMIT,
    EMBED_TITLE_LIMIT,
    EMBED_TOTAL_LIMIT,
    FIELD_LIMIT,
    FIELD_NAME_LIMIT,
    FOOTER_LIMIT,
    TRAP_MARK,
    Names,
    at_time,
    clip,
    clip_lines,
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
    tip: bool = False,
) -> discord.Embed:
    """What one player alone may see: party, hand, missions, start offers, scouted cards,
    his open decision, his auto-pass and his recent private events (card texts left out if
    too long); ``tip``: the first turn's tip about reaction windows
    (:func:`bot.autopass.window_tip`)."""
    if texts:
        full = _hand_embed(view, db, row, seat, names, private_log, True, autopass, tip)
        if len(full) <= EMBED_TOTAL_LIMIT - 200:
            return full
    return fit(_hand_embed(view, db, row, seat, names, private_log, False, autopass, tip))


#: The window kinds about the mover's own action whose line the panel shows him
#: (``hand.your_window.<kind>``; the board stays neutral).
YOUR_WINDOW = ("move_declared", "encounter_revealed", "exploration_roll", "battle_start")


def autopass_line(kinds: frozenset[str]) -> str:
    """The panel's reminder of the member's own auto-pass (only he sees it)."""
    if not kinds:
        return ""
    return f"⏩ {say(msg('hand.autopass', kinds=autopass_kinds(kinds)))}"


def _field(embed: discord.Embed, id: str, value: str, **args: object) -> None:
    """A field named by the catalog's ``id``, cut at a line's end within Discord's limit."""
    name = clip(say(msg(id, **args)), FIELD_NAME_LIMIT)
    embed.add_field(name=name, value=clip_lines(value, FIELD_LIMIT), inline=False)


def _hand_embed(
    view: SeatView,
    db: CardDB,
    row: GameRow,
    seat: SeatRow,
    names: Names,
    private_log: Sequence[EventRow],
    texts: bool,
    autopass: frozenset[str] = frozenset(),
    tip: bool = False,
) -> discord.Embed:
    table = view.table
    p = table.party(view.seat)
    lines: list[str] = []
    prompt = view.prompt
    if seat.taken_over:
        lines.append(f"🤖 {say(msg('hand.taken_over'))}")
    mine = [w for w in table.waiting if w.window and view.seat in w.window_about]
    if mine and mine[0].window_kind in YOUR_WINDOW:
        lines.append(f"⚡ {say(msg(f'hand.your_window.{mine[0].window_kind}'))}")
    if prompt is not None:
        # Absolute: a panel may outlive the 15 minutes in which the bot can edit it.
        deadline = ""
        if seat.deadline:
            deadline = f" ⏰ {say(msg('hand.deadline', time=at_time(seat.deadline)))}"
        decision = say(msg("hand.decision"))
        lines.append(f"**{decision}** {prompt_text(prompt, names, db)}{deadline}")
        lines += described_choices(prompt.choices, table, view.seat, db, names)
        playable = [
            card_name(db, c.action[5:]) for c in prompt.choices if c.action.startswith("play ")
        ]
        if playable:
            lines.append(f"▶️ {say(msg('hand.playable', cards=', '.join(playable)))}")
        elif prompt.window or prompt.kind in PLAY_KINDS:
            lines.append(f"▶️ {say(msg('hand.nothing_playable'))}")
        if tip:
            lines.append(window_tip(timed=row.window_timer > 0))
    elif not table.over:
        # Whose decision it is changes at every click; the panel is refreshed when its
        # owner's situation changes (bot.panels), so it points to the board instead.
        lines.append(say(msg("hand.not_your_decision")))
    if autopass and not table.over:
        lines.append(autopass_line(autopass))
    embed = discord.Embed(
        title=clip(say(msg("hand.title", game=row.id)), EMBED_TITLE_LIMIT),
        description=clip_lines("\n".join(lines), EMBED_DESCRIPTION_LIMIT) or None,
        colour=COLOR_PRIVATE,
        # Shown by Discord as "Today at 14:03": when the panel was drawn.
        timestamp=discord.utils.utcnow(),
    )
    shown: list[str] = []

    def add(id: str, cards: Sequence[str], empty: str | None = None) -> None:
        if cards:
            shown.extend(cards)
            value = "\n".join(card_line(db, c, text=texts) for c in cards)
        elif empty is not None:
            value = say(msg(empty))
        else:
            return
        _field(embed, id, value)

    add("hand.field.party", [c.card for c in p.characters], "hand.no_characters")
    add("hand.field.hand", view.hand, "hand.none")
    add("hand.field.missions", view.missions, "hand.none")
    add("hand.field.started", p.started)
    add("hand.field.completed", p.completed)
    add("hand.field.in_play", p.in_play)
    traps = own_traps_text(table, db)
    if traps:
        _field(embed, "hand.field.traps", traps, mark=TRAP_MARK)
    # A character not kept waits, face down, for the others' choices: it is not his any
    # more, so the panel shows the offer only while he chooses.
    choosing = prompt is not None and prompt.kind == "start_character"
    add("hand.field.offered_characters", view.offered_characters if choosing else ())
    # The same for the Advantages: once he has given one back, the offer is over (the card
    # given back is not his any more, and the three kept are in his hand).
    starting = prompt is not None and prompt.kind in ("start_character", "start_advantage")
    add("hand.field.offered_advantages", view.offered_advantages if starting else ())
    scouted = [f"{card_name(db, r)}: {card_name(db, e)}" for r, e in view.scouted]
    if scouted:
        _field(embed, "hand.field.scouted", "\n".join(scouted))
    if private_log:
        log = "\n".join(f"🔒 {event_line(e, names, db)}" for e in private_log)
        _field(embed, "hand.field.private_log", log)
    footer = [f"{names.label(view.seat)} · ⚔ {p.strength} · 💨 {p.speed}", stand_in_legend()]
    if any_translated(shown):
        footer.append(translated_legend())
    embed.set_footer(text=clip("\n".join(footer), FOOTER_LIMIT))
    return embed


def own_traps_text(table: TableView, db: CardDB) -> str:
    """The Traps the viewer laid, face down for everybody else: "Unleashed Danger at Maisen"
    (``table`` is the viewer's own view: only his Traps are named in it)."""
    laid = [
        say(msg("hand.trap_at", trap=card_name(db, t), region=card_name(db, r.card)))
        for r in table.regions
        for t in r.own_traps
    ]
    return clip_lines("\n".join(laid), FIELD_LIMIT)


def start_embed(view: SeatView, db: CardDB, row: GameRow) -> discord.Embed:
    """The secret start (S2, S3) sent by DM."""
    embed = discord.Embed(
        title=clip(say(msg("start.title", game=row.id)), EMBED_TITLE_LIMIT),
        description=say(msg("start.description")),
        colour=COLOR_PRIVATE,
    )
    shown: list[str] = []
    for id, cards in (
        ("start.field.missions", view.missions),
        ("start.field.characters", view.offered_characters),
        ("start.field.advantages", view.offered_advantages),
    ):
        shown.extend(cards)
        value = "\n".join(card_line(db, c) for c in cards) or "—"
        _field(embed, id, value)
    footer = [stand_in_legend()]
    if any_translated(shown):
        footer.append(translated_legend())
    embed.set_footer(text=clip("\n".join(footer), FOOTER_LIMIT))
    return fit(embed)
