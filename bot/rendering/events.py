"""Events: public lines of a batch, the log, and lines joined into messages."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import discord

from bot.rendering.cards import card_name
from bot.rendering.ending import ending_text
from bot.rendering.text import (
    ARCANE_MARK,
    BEATEN_MARK,
    COLOR,
    CONTENT_LIMIT,
    EMBED_DESCRIPTION_LIMIT,
    GUARD_MARK,
    IN_PLAY_MARKS,
    TRAP_MARK,
    Names,
    clip,
)
from bot.storage import EventRow
from engine import (
    CardDB,
)


def event_lines(events: Sequence[EventRow], names: Names, db: CardDB) -> list[str]:
    """Public lines for a batch of logged events (private ones are left out), from the
    events' payloads where the bot has a better line than the engine's text."""
    lines = []
    for e in events:
        if e.recipients is None:
            lines.append(event_line(e, names, db))
    return lines


def _check(d: dict[str, Any], stat: str = "") -> str:
    """A check's roll (B6): ``🎲 4 + Speed 5 = 9 vs 8``."""
    return f"🎲 {d['die']} + {stat}{d['total'] - d['die']} = {d['total']} vs {d['at_least']}"


def _guard_name(db: CardDB, region: str) -> str:
    guard = db.region(region).guard if region in db.by_id else None
    return guard.name if guard is not None else "its guard"


def expansion_line(e: EventRow, names: Names, db: CardDB) -> str | None:
    """The line of an event of the expansions (Traps, guards, Arcane characters, Factions,
    Artifacts, Incidents, Flee, M10), from its payload; None for any other event. A Trap is
    named only once it springs (``trap_set`` says where, never which)."""
    d = e.data
    who = names.bold(d.get("player"))
    card = card_name(db, d.get("card", ""))
    region = card_name(db, d.get("region", ""))
    if e.kind == "trap_set":
        return f"{TRAP_MARK} {who} lays a Trap face down on **{region}**."
    if e.kind == "trap_revealed":
        text = db[d["card"]].text if d["card"] in db.by_id else ""
        return f"{TRAP_MARK} A Trap springs at **{region}**: **{card}** ({who}'s)" + (
            f" — {text}" if text else "."
        )
    if e.kind == "region_level":
        change = f"{d['amount']:+d}"
        return f"⛰️ **{region}** is level **{d['level']}** until the end of the turn ({change})."
    if e.kind == "guard":
        guard = _guard_name(db, d["region"])
        return f"{GUARD_MARK} **{guard}** guards **{region}**: {who} must fight it."
    if e.kind == "guard_check":
        outcome = "beaten" if d["success"] else "caught"
        guard = _guard_name(db, d["region"])
        return f"{GUARD_MARK} {who} faces **{guard}** at **{region}**: {_check(d)}: {outcome}."
    if e.kind == "guard_beaten":
        return (
            f"{BEATEN_MARK} {who} overcomes **{_guard_name(db, d['region'])}**: "
            f"**{region}** is no longer guarded."
        )
    if e.kind == "flee":
        outcome = "escapes" if d["success"] else "cannot escape and must fight"
        return f"💨 {who} tries to flee **{card}**: {_check(d, 'Speed ')}: {outcome}."
    if e.kind == "exchange_arcane":
        arcane = card_name(db, d["arcane"])
        return f"{ARCANE_MARK} {card} leaves {who}'s party; the Arcane **{arcane}** joins it."
    if e.kind == "explore_new_regions":
        revealed = ", ".join(
            f"**{card_name(db, r)}** (L{db.region(r).level})" for r in d["regions"] if r in db.by_id
        )
        return f"🧭 {who} explores and reveals {revealed}: the party goes to the highest level."
    if e.kind == "discredit":
        return f"🗞️ {who} discredits {names.bold(d['other'])}, who loses his Faction."
    if e.kind == "spoils_artifact":
        mark = IN_PLAY_MARKS["artifact"]
        return f"{mark} {who} takes {names.bold(d['other'])}'s Artifact **{card}** as spoils."
    if e.kind == "incident_over":
        return f"{IN_PLAY_MARKS['incident']} {card} ends ({who}'s Incident)."
    return None


def event_line(e: EventRow, names: Names, db: CardDB) -> str:
    """One public event as a line."""
    d = e.data
    expansion = expansion_line(e, names, db)
    if expansion is not None:
        return expansion
    if e.kind == "turn" and "turn" in d:
        order = " → ".join(names.of(n) for n in d.get("order", []))
        return f"🔔 __**Turn {d['turn']}**__ · order: {order}"
    if e.kind == "game_over" and "ending" in d:
        return ending_text(d.get("winner"), d.get("ending"), names, d.get("tiebreak"))
    if e.kind == "battle_roll" and "shown" in d:
        # Both sides by name: the other party, or the monster (its name in ``opponent``).
        other = d.get("opponent") or "the monster"
        sides = [names.bold(d["player"]), names.bold(d["other"]) if d["other"] else f"**{other}**"]
        rolls = [
            f"🎲 {side}: {shown} + Strength {strength} = **{total}**"
            for side, shown, strength, total in zip(
                sides, d["shown"], d["strengths"], d["totals"], strict=True
            )
        ]
        return " vs ".join(rolls)
    if e.kind == "battle_result" and "winner" in d:
        winner = names.bold(d["winner"])
        if d["margin"]:
            return f"⚔️ {winner} wins the battle by {d['margin']}."
        return f"⚔️ A tie: {winner} wins."
    if e.kind == "crisis":
        return f"**{names.sub(e.text)}**"
    return names.sub(e.text)


def log_embed(
    game_id: int, events: Sequence[EventRow], names: Names, mine: str | None
) -> discord.Embed:
    """``/anima log``: the latest public events and those for seat ``mine`` (🔒), newest last."""
    lines = []
    for e in events:
        if e.recipients is None:
            lines.append(names.sub(e.text))
        elif mine is not None and mine in e.recipients:
            lines.append(f"🔒 {names.sub(e.text)}")
    text = "\n".join(lines[-30:]) or "Nothing has happened yet."
    while len(text) > EMBED_DESCRIPTION_LIMIT:
        text = text.split("\n", 1)[1] if "\n" in text else clip(text, 4000)
    return discord.Embed(title=f"Game #{game_id} · latest events", description=text, colour=COLOR)


def chunk_lines(lines: Sequence[str], limit: int = CONTENT_LIMIT - 50) -> list[str]:
    """Join lines into messages of at most ``limit`` characters."""
    chunks: list[str] = []
    current = ""
    for line in lines:
        line = clip(line, limit)
        if current and len(current) + 1 + len(line) > limit:
            chunks.append(current)
            current = line
        else:
            current = f"{current}\n{line}" if current else line
    if current:
        chunks.append(current)
    return chunks
