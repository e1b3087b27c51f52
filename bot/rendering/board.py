"""The public board: turn, phase, parties, Regions, and whose decision it is."""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.rendering.cards import card_name
from bot.rendering.choices import kind_message
from bot.rendering.ending import ending_text
from bot.rendering.messages import msg, say
from bot.rendering.prompts import waiting_text
from bot.rendering.text import (
    ARCANE_MARK,
    BEATEN_MARK,
    COLOR,
    COLOR_OVER,
    EMBED_DESCRIPTION_LIMIT,
    FIELD_LIMIT,
    GUARD_MARK,
    IN_PLAY_MARK,
    IN_PLAY_MARKS,
    TRAP_MARK,
    Names,
    clip,
    clip_lines,
    fit,
    plural,
)
from bot.storage import GameRow, SeatRow
from engine import (
    AdvantageCard,
    CardDB,
    Options,
    PartyView,
    RegionView,
    TableView,
)

PHASES = {
    "setup": "Setup",
    "reset": "Reset phase",
    "movement": "Movement phase",
    "interaction": "Interaction phase",
    "exploration": "Exploration phase",
    "crisis": "Crisis!",
    "over": "Game over",
}


def _time(ts: float | None) -> str:
    """A relative time ("in 2 minutes"), only for messages the bot edits when it is over:
    the current board (posted again or stripped of its board at every change)."""
    return f"<t:{int(ts)}:R>" if ts else ""


PAUSED_TEXT = "Paused: everybody is away. Any seated player's click resumes the game."
#: How the board marks a member's seat that the AI plays (after too many time-outs).
AI_AWAY = "🤖 (AI, away)"


def waiting_line(
    view: TableView, seats: dict[str, SeatRow], names: Names, db: CardDB, paused: bool = False
) -> str:
    """Who must decide what now (public)."""
    waiting = view.waiting
    if view.over or not waiting:
        return ""
    if paused:
        return f"⏸️ **{PAUSED_TEXT}**"
    windows = [w for w in waiting if w.window]
    if windows:
        first = windows[0]
        deadline = seats[first.player].deadline if first.player in seats else None
        ends = f" Closes {_time(deadline)}." if deadline else ""
        text = waiting_text(first, names, db)
        # Only who is still asked: whoever passed (by hand or on auto-pass) is not named.
        who = ", ".join(names.bold(w.player) for w in windows)
        return f"⚡ **Reaction window** — {text} Waiting for {who}.{ends}"
    if len(waiting) > 1:
        who = ", ".join(names.bold(w.player) for w in waiting)
        return say(msg("waiting.many", players=who, decision=kind_message(waiting[0].kind)))
    w = waiting[0]
    deadline = seats[w.player].deadline if w.player in seats else None
    ends = f" ⏰ {_time(deadline)}" if deadline else ""
    return f"➡️ {names.bold(w.player)}'s decision — {waiting_text(w, names, db)}{ends}"


def party_field(view: TableView, p: PartyView, db: CardDB, names: Names) -> tuple[str, str]:
    """(name, value) of a party's board field."""
    where = f" · 📍 {card_name(db, p.region)}" if p.region else ""
    flags = []
    if p.lost:
        flags.append("❌ out")
    if p.turn_over and not view.over:
        flags.append("turn over")
    if p.resting:
        flags.append("resting")
    who = names.of(p.seat)
    row = names.seats.get(p.seat)
    if row is not None and row.taken_over:
        who = f"{who} {AI_AWAY}"
    if p.hidden:
        head = f"{who} · choosing a leader{where}"
    else:
        head = f"{who} · ⚔ {p.strength} · 💨 {p.speed}{where}"
    if flags:
        head += f" ({', '.join(flags)})"
    chars = []
    for c in p.characters:
        card = db.character(c.card)
        mark = " 💤" if c.incapacitated else (" ↷" if c.tapped else "")
        arcane = f"{ARCANE_MARK} " if c.arcane else ""
        chars.append(f"{arcane}{card.name} {card.strength}/{card.speed}{mark}")
    if p.hidden:
        lines = ["🂠 leader hidden until everybody has chosen"]
    else:
        lines = [", ".join(chars) or "no characters"]
    lines += in_play_lines(p.in_play, db)
    lines.append(
        f"✋ {plural(p.hand_count, 'Advantage')} · 📜 {plural(p.secret_missions, 'secret mission')}"
    )
    if p.started:
        lines.append("🎯 " + ", ".join(card_name(db, c) for c in p.started))
    if p.completed:
        lines.append("✅ " + ", ".join(card_name(db, c) for c in p.completed))
    return clip(head, 256), clip("\n".join(lines), FIELD_LIMIT)


def in_play_lines(cards: Sequence[str], db: CardDB) -> list[str]:
    """A party's cards in play, one line per mark: its Faction (🚩), Artifact (🏺), Incidents
    (🌀), and the rest (🏛: Organizations, Magic Objects)."""
    groups: dict[str, list[str]] = {}
    for c in cards:
        card = db.by_id.get(c)
        kind = card.kind if isinstance(card, AdvantageCard) else ""
        groups.setdefault(IN_PLAY_MARKS.get(kind, IN_PLAY_MARK), []).append(card_name(db, c))
    order = [IN_PLAY_MARK, *IN_PLAY_MARKS.values()]
    return [f"{mark} " + ", ".join(groups[mark]) for mark in order if mark in groups]


def level_text(r: RegionView) -> str:
    """``L2``, or ``L3 (printed 2)`` while a card changes the Region's level this turn."""
    if r.printed_level and r.level != r.printed_level:
        return f"L{r.level} (printed {r.printed_level})"
    return f"L{r.level}"


def region_extras(r: RegionView, db: CardDB) -> list[str]:
    """What lies on a Region besides its Preliminary Encounter: face-down Traps (only how
    many) and its guard, standing or beaten."""
    out = []
    if r.traps:
        out.append(f"{TRAP_MARK} {plural(r.traps, 'Trap')} face down")
    if r.guard != "none":
        guard = db.region(r.card).guard
        name = guard.name if guard is not None else "its guard"
        out.append(
            f"{GUARD_MARK} guarded by {name}"
            if r.guard == "standing"
            else f"{BEATEN_MARK} {name} beaten"
        )
    return out


def regions_text(view: TableView, db: CardDB, names: Names) -> str:
    lines = []
    for r in view.regions:
        card = db.region(r.card)
        marks = " ".join(m for m, on in (("🤝", card.trade), ("☮", not card.fighting)) if on)
        if r.preliminary_state == "none":
            pre = "clear"
        elif r.preliminary_state == "revealed" and r.preliminary is not None:
            enc = db.encounter(r.preliminary)
            pre = f"{enc.name}" + (f" (S {enc.strength})" if enc.strength is not None else "")
        else:
            pre = "🂠 face down"
        extras = "".join(f" · {x}" for x in region_extras(r, db))
        here = [names.of(n) for n in r.parties]
        at = f" — {', '.join(here)}" if here else ""
        head = f"**{card.name}** {level_text(r)}{' ' + marks if marks else ''}"
        lines.append(f"{head} · {pre}{extras}{at}")
    return clip_lines("\n".join(lines) or "none yet", FIELD_LIMIT)


def board_embed(
    view: TableView, db: CardDB, row: GameRow, seats: dict[str, SeatRow]
) -> discord.Embed:
    """The public board: turn, phase, order, parties, Regions, missions, whose decision."""
    names = Names(seats)
    title = f"Anima · game #{row.id}"
    if view.turn:
        title += f" · turn {turn_text(view.turn, row)}"
    title += f" · {PHASES.get(view.phase, view.phase)}"
    lines = []
    if view.order:
        lines.append("**Turn order:** " + " → ".join(names.of(n) for n in view.order))
    if view.final_mission:
        final = db.final_mission(view.final_mission)
        crisis = f" · ⏳ Crisis! in **{view.crisis}**" if view.crisis is not None else ""
        lines.append(f"**Final mission:** {final.name}{crisis}")
    else:
        lines.append(f"**Final mission:** not revealed ({view.final_deck} face down)")
    if view.over:
        lines.append(ending_text(view.winner, view.ending, names))
    else:
        lines.append(waiting_line(view, seats, names, db, row.paused_at is not None))
    embed = discord.Embed(
        title=title,
        description=clip("\n".join(x for x in lines if x), EMBED_DESCRIPTION_LIMIT),
        colour=COLOR_OVER if view.over else COLOR,
    )
    for p in view.parties:
        name, value = party_field(view, p, db, names)
        embed.add_field(name=name, value=value, inline=False)
    embed.add_field(name="Regions", value=regions_text(view, db, names), inline=False)
    decks = ", ".join(f"{k} {v}" for k, v in sorted(view.decks))
    legend = "↷ turned · 💤 incapacitated · 🤝 trade · ☮ no fighting · 🂠 face down"
    if expansion_marks(view, db):
        legend += (
            f"\n{ARCANE_MARK} Arcane · {TRAP_MARK} Traps · {GUARD_MARK} guarded · "
            f"{IN_PLAY_MARKS['faction']} Faction · {IN_PLAY_MARKS['artifact']} Artifact · "
            f"{IN_PLAY_MARKS['incident']} Incident"
        )
    embed.set_footer(text=f"{legend}\nDecks: {decks}")
    return fit(embed)


def expansion_marks(view: TableView, db: CardDB) -> bool:
    """Whether the board shows any of the expansions' marks (then the footer explains them)."""
    return (
        any(c.arcane for p in view.parties for c in p.characters)
        or any(r.traps or r.guard != "none" for r in view.regions)
        or any(
            isinstance(db.by_id.get(c), AdvantageCard) and db.advantage(c).kind in IN_PLAY_MARKS
            for p in view.parties
            for c in p.in_play
        )
    )


def turn_text(turn: int, row: GameRow) -> str:
    """``2``, or ``2/3`` when the game has a turn limit."""
    cap = Options.model_validate(row.options).turn_cap
    return f"{turn}/{cap}" if cap else str(turn)
