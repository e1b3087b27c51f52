"""The board's picture in words and by its fingerprint: its alt text (a short text board that
a screen reader says, within Discord's 1,024 characters) and :func:`board_digest`, a hash of
exactly what the picture draws, so that a cache redraws it only when that changed.

Both read the public :class:`engine.TableView` as the picture does: a Preliminary Encounter
only once revealed, Traps by their number, never a seat's own Traps or what it scouted.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping

from bot.pictures.canvas import ALT_LIMIT, drawable
from bot.pictures.names import PictureNames
from engine import CardDB, PartyView, RegionView, TableView
from wording.cards import card_name, printed
from wording.choices import kind_message
from wording.ending import ending_text
from wording.prompts import prompt_message
from wording.table import level_text, phase_text
from words import say
from words.plain import count, line, plain


def board_alt(view: TableView, db: CardDB, names: Mapping[str, str]) -> str:
    """The board in a few lines of the current language, at most :data:`ALT_LIMIT`
    characters: the fullest that fits of three levels of detail, then cut."""
    for detail in (2, 1, 0):
        text = "\n".join(x for x in _lines(view, db, names, detail) if x)
        if len(text) <= ALT_LIMIT:
            return text
    return text[: ALT_LIMIT - 1] + "…"


def _lines(view: TableView, db: CardDB, names: Mapping[str, str], detail: int) -> list[str]:
    seats = PictureNames(names)
    head = phase_text("over" if view.over else view.phase)
    if view.turn:
        head += " · " + line("pictures.turn", turn=view.turn)
    final = line("board.final_mission") + " "
    if view.final_mission:
        final += card_name(db, view.final_mission)
        if view.crisis is not None:
            final += " · " + line("board.crisis_in", turns=view.crisis)
    else:
        final += line("board.final_mission.hidden", n=view.final_deck)
    lines = [head, final]
    if view.order:
        order = " → ".join(seats.who(s) for s in view.order)
        lines.append(f"{line('board.turn_order')} {order}")
    lines.append(decision_line(view, db, names))
    if view.regions:
        lines.append(line("board.field.regions") + ":")
        lines += [_region(r, db, seats, detail) for r in view.regions]
    lines.append(line("pictures.parties") + ":")
    lines += [_party(p, db, seats, detail) for p in view.parties]
    return [drawable(plain(x)) for x in lines]


def deciding(view: TableView) -> list[str]:
    """The seats whose decision the table waits for (a window's: every one still asked)."""
    if view.over:
        return []
    return list(dict.fromkeys(w.player for w in view.waiting))


def decision_line(view: TableView, db: CardDB, names: Mapping[str, str]) -> str:
    """Who must decide what now, in plain words (the text board's line without its
    Markdown); how the game ended once it is over; "" when nobody is asked."""
    seats = PictureNames(names)
    if view.over:
        return plain(ending_text(view.winner, view.ending, seats))
    if not view.waiting:
        return ""
    # A reaction window first: it names the move, the Encounter or the battle it answers.
    first = next((w for w in view.waiting if w.window), view.waiting[0])
    if first.withheld:
        what = say(kind_message(first.kind))
    else:
        what = say(prompt_message(first.kind, first.data, seats, db))
    who = ", ".join(seats.who(s) for s in deciding(view))
    if first.window:
        return line("board.window", decision=what, players=who)
    if len(view.waiting) > 1:
        return line("waiting.many", players=who, decision=kind_message(first.kind))
    return line("board.decision", player=who, decision=what)


def _region(r: RegionView, db: CardDB, seats: PictureNames, detail: int) -> str:
    parts = [f"{card_name(db, r.card)} {level_text(r)}"]
    card = db.region(r.card)
    if detail:
        if card.trade:
            parts.append(line("board.legend.trade"))
        if not card.fighting:
            parts.append(line("board.legend.no_fighting"))
    if r.preliminary_state == "revealed" and r.preliminary is not None:
        enc = db.encounter(r.preliminary)
        name = card_name(db, r.preliminary)
        if enc.strength is not None:
            name = line("board.region.preliminary", card=name, strength=enc.strength)
        parts.append(name)
    elif r.preliminary_state in ("face_down", "known"):
        parts.append(line("board.region.face_down"))
    if r.traps:
        parts.append(count("board.region.traps", r.traps))
    if r.guard != "none" and card.guard is not None:
        guard = printed(r.card, card.guard.name)
        word = "board.region.guarded" if r.guard == "standing" else "board.region.guard_beaten"
        parts.append(line(word, guard=guard))
    here = f" — {', '.join(seats.who(s) for s in r.parties)}" if r.parties else ""
    return " · ".join(parts) + here


def _party(p: PartyView, db: CardDB, seats: PictureNames, detail: int) -> str:
    who = seats.who(p.seat)
    if p.hidden or p.strength is None:
        return f"{who}: {line('board.party.choosing')}"
    parts = [line("pictures.alt.totals", strength=p.strength, speed=p.speed)]
    parts.append(card_name(db, p.region) if p.region else line("pictures.party.nowhere"))
    if p.lost:
        parts.append(line("board.flag.out"))
    if detail >= 2 and p.characters:
        parts.append(", ".join(card_name(db, ch.card) for ch in p.characters))
    if detail and p.in_play:
        parts.append(", ".join(card_name(db, c) for c in p.in_play))
    if detail and p.completed:
        completed = ", ".join(card_name(db, c) for c in p.completed)
        parts.append(f"{line('hand.field.completed')}: {completed}")
    return f"{who}: " + " · ".join(parts)


def board_digest(view: TableView, names: Mapping[str, str], language: str) -> str:
    """A fingerprint of what the board's picture draws: the same for two views that draw
    the same picture (an action that changed only the decks, or a seat's hidden cards),
    another as soon as anything drawn changed. Read from the public fields alone."""
    regions = tuple(
        (
            r.card,
            r.level,
            r.printed_level,
            "face_down" if r.preliminary_state == "known" else r.preliminary_state,
            r.preliminary if r.preliminary_state == "revealed" else None,
            r.parties,
            r.traps,
            r.guard,
        )
        for r in view.regions
    )
    parties = tuple(tuple(sorted(p.model_dump().items())) for p in view.parties)
    waiting = tuple(
        (w.player, w.kind, w.window, w.withheld, None if w.withheld else w.data)
        for w in view.waiting
    )
    drawn = (
        language,
        tuple(sorted((s, names.get(s)) for s in view.seats)),
        view.turn,
        view.phase,
        view.order,
        view.seats,
        regions,
        parties,
        view.final_mission,
        view.final_deck,
        view.crisis,
        waiting,
        view.over,
        view.winner,
        view.ending,
    )
    return hashlib.blake2b(repr(drawn).encode(), digest_size=16).hexdigest()
