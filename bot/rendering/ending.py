"""The end of a game: how it ended, the tie-break scores, every secret revealed."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import discord

from bot.rendering.cards import any_translated, card_name, translated_legend
from bot.rendering.messages import ENGLISH, Message, msg, say
from bot.rendering.text import (
    COLOR_OVER,
    EMBED_DESCRIPTION_LIMIT,
    EMBED_TITLE_LIMIT,
    FIELD_LIMIT,
    FIELD_NAME_LIMIT,
    FOOTER_LIMIT,
    Names,
    clip,
    clip_lines,
    fit,
)
from bot.storage import GameRow, SeatRow
from engine import (
    TIEBREAKS,
    CardDB,
    SeatView,
    TableView,
)


def ending_message(ending: str | None) -> Message:
    """How a game ended, in a few words, from its ending code (``ending.<code>``)."""
    key = f"ending.{ending}"
    return msg(key if ending and key in ENGLISH else "ending.unknown")


def tiebreak_message(criterion: str) -> Message | None:
    """What a tie-break criterion compares (``tiebreak.<criterion>``), or None if unknown."""
    key = f"tiebreak.{criterion}"
    return msg(key) if key in ENGLISH else None


def ending_text(
    winner: str | None, ending: str | None, names: Names, tiebreak: str | None = None
) -> str:
    """How the game ended, worded from its ending code (engine.endings); a game ended by its
    turn limit names the tie-break criterion that decided it."""
    how = ending_message(ending)
    if winner:
        decided = tiebreak_message(tiebreak) if tiebreak else None
        if decided is not None:
            return say(
                msg("ending.won.decided", player=names.bold(winner), how=how, criterion=decided)
            )
        return say(msg("ending.won", player=names.bold(winner), how=how))
    return say(msg("ending.nobody", how=how))


@dataclass
class Revealed:
    """One player's secrets, shown to the table once the game is over: his leader (the
    character he kept at the start) and every mission (secret, started, completed)."""

    seat: str
    leader: str | None
    secret: Sequence[str]
    started: Sequence[str]
    completed: Sequence[str]


def revealed(hands: Iterable[SeatView], leaders: dict[str, str]) -> list[Revealed]:
    """What the end of a game reveals, from every seat's view: the caller shows it only
    once the game has ended (a result, or stopped by its host)."""
    out = []
    for h in hands:
        p = h.table.party(h.seat)
        out.append(Revealed(h.seat, leaders.get(h.seat), h.missions, p.started, p.completed))
    return out


def tiebreak_lines(over: dict[str, Any], names: Names) -> list[str]:
    """Every player's scores at the turn limit, on the criteria the tie-break compared (up
    to the one that decided), and the dice of a final roll."""
    decided = over.get("tiebreak")
    scores: dict[str, dict[str, int]] = over.get("scores") or {}
    if not decided or not scores:
        return []
    compared = [c for c in TIEBREAKS if c != "die_roll"]
    if decided in compared:
        compared = compared[: compared.index(decided) + 1]
    rolls: dict[str, list[int]] = over.get("rolls") or {}
    lines = []
    for seat, score in scores.items():
        parts = [
            say(msg("tiebreak.score", criterion=msg(f"tiebreak.{c}"), score=score.get(c, 0)))
            for c in compared
        ]
        if seat in rolls:
            parts.append("🎲 " + ", ".join(map(str, rolls[seat])))
        lines.append(f"{names.bold(seat)}: " + " · ".join(parts))
    return lines


def summary_embed(
    view: TableView,
    db: CardDB,
    row: GameRow,
    seats: dict[str, SeatRow],
    secrets: Sequence[Revealed] = (),
    over: dict[str, Any] | None = None,
) -> discord.Embed:
    """The end-of-game message: how it ended (at a turn limit, the tie-break and everybody's
    scores), and every party with its leader and missions, secret ones included (the game
    is over: the table may see them)."""
    names = Names(seats)
    over = over or {}
    tiebreak = over.get("tiebreak")
    how = ending_text(view.winner, view.ending, names, tiebreak)
    turns = say(msg("summary.turns", turns=view.turn))
    embed = discord.Embed(
        title=clip(summary_title(row.id), EMBED_TITLE_LIMIT),
        description=clip(f"{how}\n{turns}", EMBED_DESCRIPTION_LIMIT),
        colour=COLOR_OVER,
    )
    lines = tiebreak_lines(over, names)
    if lines:
        embed.add_field(
            name=say(msg("summary.field.tiebreak")),
            value=clip("\n".join(lines), FIELD_LIMIT),
            inline=False,
        )
    shown = {r.seat: r for r in secrets}
    named: list[str] = []

    def listed(cards: Sequence[str]) -> str:
        named.extend(cards)
        return ", ".join(card_name(db, c) for c in cards) or say(msg("summary.none"))

    for p in view.parties:
        named.extend(c.card for c in p.characters)
        party = ", ".join(card_name(db, c.card) for c in p.characters) or say(
            msg("summary.no_characters")
        )
        crown = "🏆 " if p.seat == view.winner else ""
        value = [f"⚔ {p.strength} · 💨 {p.speed} · {party}"]
        r = shown.get(p.seat)
        if r is not None:
            if r.leader:
                named.append(r.leader)
                value.append(f"👑 {say(msg('summary.leader', card=card_name(db, r.leader)))}")
            value.append(f"✅ {say(msg('summary.completed', cards=listed(r.completed)))}")
            value.append(f"🎯 {say(msg('summary.started', cards=listed(r.started)))}")
            value.append(f"📜 {say(msg('summary.secret', cards=listed(r.secret)))}")
        else:
            value.append(f"✅ {say(msg('summary.completed', cards=listed(p.completed)))}")
        embed.add_field(
            name=clip(f"{crown}{names.of(p.seat)}", FIELD_NAME_LIMIT),
            value=clip_value(value),
            inline=False,
        )
    footer = [say(msg("summary.revealed"))] if secrets else []
    if any_translated(named):
        footer.append(translated_legend())
    if footer:
        embed.set_footer(text=clip("\n".join(footer), FOOTER_LIMIT))
    return fit(embed)


def summary_title(game_id: int) -> str:
    """The end message's title (also how a restarted bot finds it in the channel)."""
    return say(msg("summary.title", game=game_id))


def clip_value(lines: Sequence[str]) -> str:
    """A field's lines within Discord's limit, cut at a line's end."""
    return clip_lines("\n".join(lines), FIELD_LIMIT)
