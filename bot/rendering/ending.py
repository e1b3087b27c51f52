"""The end of a game on Discord: how it ended and the tie-break scores (worded by
:mod:`wording.ending`), every secret revealed, in one embed."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import discord

from bot.rendering.cards import any_translated, card_name, translated_legend
from bot.rendering.messages import msg, say
from bot.rendering.text import (
    COLOR_OVER,
    EMBED_DESCRIPTION_LIMIT,
    EMBED_TITLE_LIMIT,
    EMBED_TOTAL_LIMIT,
    FIELD_LIMIT,
    FIELD_NAME_LIMIT,
    FOOTER_LIMIT,
    Names,
    clip,
    clip_lines,
    fit,
)
from bot.storage import GameRow, SeatRow
from engine import CardDB, SeatView, TableView
from wording.ending import ending_text as ending_text
from wording.ending import tiebreak_lines as tiebreak_lines


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


def summary_embed(
    view: TableView,
    db: CardDB,
    row: GameRow,
    seats: dict[str, SeatRow],
    secrets: Sequence[Revealed] = (),
    over: dict[str, Any] | None = None,
    ratings: Mapping[str, tuple[float, float]] | None = None,
) -> discord.Embed:
    """The end-of-game message: how it ended (at a turn limit, the tie-break and everybody's
    scores), and every party with its leader and missions, secret ones included (the game
    is over: the table may see them), and, for a rated game, each seat's rating before and
    after it (``ratings``: seat -> the conservative ratings, as ``/anima leaderboard`` shows
    them)."""
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
        if ratings and p.seat in ratings:
            value.append(f"🏅 {rating_change(*ratings[p.seat])}")
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
    dice = dice_field(view)
    if dice is None:
        return fit(embed)
    # The seed is never shortened: the other fields make room for it.
    fit(embed, EMBED_TOTAL_LIMIT - 200 - len(dice[0]) - len(dice[1]))
    embed.add_field(name=dice[0], value=dice[1], inline=False)
    return embed


def rating_change(before: float, after: float) -> str:
    """A seat's rating before and after a game, rounded as the leaderboard rounds them."""
    b, a = round(before), round(after)
    change = f"{a - b:+d}" if a != b else "±0"
    return say(msg("summary.rating", before=b, after=a, change=change))


def dice_field(view: TableView) -> tuple[str, str] | None:
    """The end message's field that reveals the dice's server seed with its commitment and
    says how to check them (docs/fair_dice.md); None for a game of the old generator, or
    before the game is over (the view has no seed then)."""
    if not view.dice_server_seed or not view.dice_commitment:
        return None
    value = say(msg("summary.dice", seed=view.dice_server_seed, commitment=view.dice_commitment))
    return say(msg("summary.field.dice")), clip(value, FIELD_LIMIT)


def summary_title(game_id: int) -> str:
    """The end message's title (also how a restarted bot finds it in the channel)."""
    return say(msg("summary.title", game=game_id))


def clip_value(lines: Sequence[str]) -> str:
    """A field's lines within Discord's limit, cut at a line's end."""
    return clip_lines("\n".join(lines), FIELD_LIMIT)
