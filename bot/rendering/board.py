"""The public board: turn, phase, parties, Regions, and whose decision it is, in the current
language (the game's public one: :func:`bot.languages.public_language`)."""

from __future__ import annotations

import discord

from bot.rendering.cards import TRANSLATED_MARK, any_translated, card_name
from bot.rendering.choices import described_choices, kind_message
from bot.rendering.ending import ending_text
from bot.rendering.messages import counted, msg, say
from bot.rendering.prompts import waiting_text
from bot.rendering.text import (
    ARCANE_MARK,
    COLOR,
    COLOR_OVER,
    EMBED_DESCRIPTION_LIMIT,
    EMBED_TITLE_LIMIT,
    FIELD_LIMIT,
    FIELD_NAME_LIMIT,
    FOOTER_LIMIT,
    GUARD_MARK,
    IN_PLAY_MARKS,
    TRAP_MARK,
    Names,
    clip,
    clip_lines,
    fit,
)
from bot.storage import GameRow, SeatRow
from engine import (
    AdvantageCard,
    CardDB,
    Options,
    PartyView,
    TableView,
)
from wording.table import deck_name, in_play_lines, level_text, phase_text, region_extras
from words import SOURCE


def _time(ts: float | None) -> str:
    """A relative time ("in 2 minutes"), only for messages the bot edits when it is over:
    the current board (posted again or stripped of its board at every change)."""
    return f"<t:{int(ts)}:R>" if ts else ""


def paused_text() -> str:
    """What the board says of a game paused because everybody is away."""
    return say(msg("board.paused"))


def ai_away() -> str:
    """How the board marks a member's seat that the AI plays (after too many time-outs)."""
    return f"🤖 {say(msg('board.ai_away'))}"


#: :func:`paused_text` and :func:`ai_away` in English (what tests and older callers compare).
PAUSED_TEXT = say(msg("board.paused"), SOURCE)
AI_AWAY = f"🤖 {say(msg('board.ai_away'), SOURCE)}"


def waiting_line(
    view: TableView, seats: dict[str, SeatRow], names: Names, db: CardDB, paused: bool = False
) -> str:
    """Who must decide what now (public)."""
    waiting = view.waiting
    if view.over or not waiting:
        return ""
    if paused:
        return f"⏸️ **{paused_text()}**"
    windows = [w for w in waiting if w.window]
    if windows:
        first = windows[0]
        deadline = seats[first.player].deadline if first.player in seats else None
        text = waiting_text(first, names, db)
        # Only who is still asked: whoever passed (by hand or on auto-pass) is not named.
        who = ", ".join(names.bold(w.player) for w in windows)
        if deadline:
            line = msg("board.window.closes", decision=text, players=who, time=_time(deadline))
        else:
            line = msg("board.window", decision=text, players=who)
        return f"⚡ {say(line)}"
    if len(waiting) > 1:
        who = ", ".join(names.bold(w.player) for w in waiting)
        return say(msg("waiting.many", players=who, decision=kind_message(waiting[0].kind)))
    w = waiting[0]
    deadline = seats[w.player].deadline if w.player in seats else None
    ends = f" ⏰ {_time(deadline)}" if deadline else ""
    decision = say(
        msg("board.decision", player=names.bold(w.player), decision=waiting_text(w, names, db))
    )
    # What the public named rewards give, above their buttons (one click: issue 23).
    described = described_choices(w.choices, view, w.player, db, names)
    return "\n".join([f"➡️ {decision}{ends}", *described])


def party_field(view: TableView, p: PartyView, db: CardDB, names: Names) -> tuple[str, str]:
    """(name, value) of a party's board field."""
    where = f" · 📍 {card_name(db, p.region)}" if p.region else ""
    flags = []
    if p.lost:
        flags.append(f"❌ {say(msg('board.flag.out'))}")
    if p.turn_over and not view.over:
        flags.append(say(msg("board.flag.turn_over")))
    if p.resting:
        flags.append(say(msg("board.flag.resting")))
    who = names.of(p.seat)
    row = names.seats.get(p.seat)
    if row is not None and row.taken_over:
        who = f"{who} {ai_away()}"
    if p.hidden:
        head = f"{who} · {say(msg('board.party.choosing'))}{where}"
    else:
        head = f"{who} · ⚔ {p.strength} · 💨 {p.speed}{where}"
    if flags:
        head += f" ({', '.join(flags)})"
    chars = []
    for c in p.characters:
        card = db.character(c.card)
        mark = " 💤" if c.incapacitated else (" ↷" if c.tapped else "")
        arcane = f"{ARCANE_MARK} " if c.arcane else ""
        chars.append(f"{arcane}{card_name(db, c.card)} {card.strength}/{card.speed}{mark}")
    if p.hidden:
        lines = [f"🂠 {say(msg('board.party.leader_hidden'))}"]
    else:
        lines = [", ".join(chars) or say(msg("board.party.no_characters"))]
    lines += in_play_lines(p.in_play, db)
    hand = say(counted("board.party.advantages", p.hand_count))
    missions = say(counted("board.party.secret_missions", p.secret_missions))
    lines.append(f"✋ {hand} · 📜 {missions}")
    if p.started:
        lines.append("🎯 " + ", ".join(card_name(db, c) for c in p.started))
    if p.completed:
        lines.append("✅ " + ", ".join(card_name(db, c) for c in p.completed))
    return clip(head, FIELD_NAME_LIMIT), clip_lines("\n".join(lines), FIELD_LIMIT)


def regions_text(view: TableView, db: CardDB, names: Names) -> str:
    lines = []
    for r in view.regions:
        card = db.region(r.card)
        marks = " ".join(m for m, on in (("🤝", card.trade), ("☮", not card.fighting)) if on)
        if r.preliminary_state == "none":
            pre = say(msg("board.region.clear"))
        elif r.preliminary_state == "revealed" and r.preliminary is not None:
            enc = db.encounter(r.preliminary)
            pre = card_name(db, r.preliminary)
            if enc.strength is not None:
                pre = say(msg("board.region.preliminary", card=pre, strength=enc.strength))
        else:
            pre = f"🂠 {say(msg('board.region.face_down'))}"
        extras = "".join(f" · {x}" for x in region_extras(r, db))
        here = [names.of(n) for n in r.parties]
        at = f" — {', '.join(here)}" if here else ""
        head = f"**{card_name(db, r.card)}** {level_text(r)}{' ' + marks if marks else ''}"
        lines.append(f"{head} · {pre}{extras}{at}")
    return clip_lines("\n".join(lines) or say(msg("board.regions.none")), FIELD_LIMIT)


def board_title(game_id: int) -> str:
    """The start of the board's title (also how a restarted bot finds its boards)."""
    return say(msg("board.title", game=game_id))


def board_embed(
    view: TableView, db: CardDB, row: GameRow, seats: dict[str, SeatRow]
) -> discord.Embed:
    """The public board: turn, phase, order, parties, Regions, missions, whose decision."""
    names = Names(seats)
    title = board_title(row.id)
    if view.turn:
        title += " · " + say(msg("board.title.turn", turn=turn_text(view.turn, row)))
    title += f" · {phase_text(view.phase)}"
    lines = []
    if view.order:
        order = " → ".join(names.of(n) for n in view.order)
        lines.append(f"**{say(msg('board.turn_order'))}** {order}")
    final_mission = f"**{say(msg('board.final_mission'))}**"
    if view.final_mission:
        crisis = ""
        if view.crisis is not None:
            crisis = " · ⏳ " + say(msg("board.crisis_in", turns=f"**{view.crisis}**"))
        lines.append(f"{final_mission} {card_name(db, view.final_mission)}{crisis}")
    else:
        hidden = say(msg("board.final_mission.hidden", n=view.final_deck))
        lines.append(f"{final_mission} {hidden}")
    if view.over:
        lines.append(ending_text(view.winner, view.ending, names))
    else:
        lines.append(waiting_line(view, seats, names, db, row.paused_at is not None))
    embed = discord.Embed(
        title=clip(title, EMBED_TITLE_LIMIT),
        description=clip_lines("\n".join(x for x in lines if x), EMBED_DESCRIPTION_LIMIT),
        colour=COLOR_OVER if view.over else COLOR,
    )
    for p in view.parties:
        name, value = party_field(view, p, db, names)
        embed.add_field(name=name, value=value, inline=False)
    embed.add_field(
        name=say(msg("board.field.regions")), value=regions_text(view, db, names), inline=False
    )
    embed.set_footer(text=clip(legend(view, db), FOOTER_LIMIT))
    return fit(embed)


#: Discord's limit on the text of all the text displays of a components V2 message.
V2_TEXT_LIMIT = 4000


def board_colour(over: bool) -> discord.Colour:
    """The board's colour (its container's accent): another once the game is over."""
    return COLOR_OVER if over else COLOR


def board_text(embed: discord.Embed, full: bool) -> str:
    """The board (:func:`board_embed`) as the text of a components V2 message: its title as
    a heading and its description (the turn order, the Final mission, whose decision it is
    and what its choices give); ``full``: its parties, Regions and legend too (the text
    board; without it the board's picture shows them)."""
    lines = [f"### {embed.title}", embed.description or ""]
    if full:
        for f in embed.fields:
            lines += [f"**{f.name}**", f.value or ""]
        lines += [f"-# {line}" for line in (embed.footer.text or "").split("\n") if line]
    return "\n".join(lines)


def _decks(view: TableView) -> str:
    return ", ".join(f"{deck_name(k)} {v}" for k, v in sorted(view.decks))


def legend(view: TableView, db: CardDB) -> str:
    """The board's footer: what its marks mean (the expansions' only when it shows them, our
    translation of the cards only when it shows one) and the decks."""

    def word(id: str) -> str:
        return say(msg(f"board.legend.{id}"))

    lines = [
        f"↷ {word('turned')} · 💤 {word('incapacitated')} · 🤝 {word('trade')} · "
        f"☮ {word('no_fighting')} · 🂠 {word('face_down')}"
    ]
    if expansion_marks(view, db):
        lines.append(
            f"{ARCANE_MARK} {word('arcane')} · {TRAP_MARK} {word('traps')} · "
            f"{GUARD_MARK} {word('guarded')} · {IN_PLAY_MARKS['faction']} {word('faction')} · "
            f"{IN_PLAY_MARKS['artifact']} {word('artifact')} · "
            f"{IN_PLAY_MARKS['incident']} {word('incident')}"
        )
    if any_translated(shown_cards(view)):
        # The board names cards without marks: its legend says the names are ours.
        lines.append(say(msg("board.legend.translated", mark=TRANSLATED_MARK)))
    lines.append(say(msg("board.decks", decks=_decks(view))))
    return "\n".join(lines)


def shown_cards(view: TableView) -> list[str | None]:
    """Every card the board names (to tell whether it shows our translation of one)."""
    cards: list[str | None] = [view.final_mission]
    for p in view.parties:
        cards += [p.region, *(c.card for c in p.characters), *p.in_play, *p.started]
        cards += p.completed
    for r in view.regions:
        cards += [r.card, r.preliminary if r.preliminary_state == "revealed" else None]
    return cards


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
