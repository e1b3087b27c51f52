"""A member's hand drawn: his Advantages and secret missions (and, during setup, the cards he
is offered), each a small card face, from his own :class:`engine.SeatView` alone. Private:
the publisher sends it only to him (an ephemeral answer)."""

from __future__ import annotations

from dataclasses import dataclass

import words
from bot.pictures import icons
from bot.pictures.canvas import Canvas, Ink, Picture, wrap
from bot.pictures.card import frame_colour, type_symbol
from bot.pictures.icons import SYMBOL
from engine import AdvantageCard, CardDB, CharacterCard, MissionCard, SeatView
from wording.cards import card_kind, card_name, card_text, objective_text, skill_name
from words import speaking
from words.plain import line

WIDTH = 1100
MARGIN = 24
GAP = 16
COLUMNS = 3
FACE = (WIDTH - 2 * MARGIN - (COLUMNS - 1) * GAP) // COLUMNS
TEXT = 18


@dataclass
class Face:
    """A small card face laid out: its card, name lines, detail and text lines."""

    card: str
    name: list[str]
    detail: str
    text: list[str]
    height: int = 0


def _face(card_id: str, db: CardDB) -> Face:
    card = db[card_id]
    inner = FACE - 44
    detail = ""
    if isinstance(card, AdvantageCard) and card.skill:
        detail = f"{line('card.field.needs')}: {skill_name(card.skill)}"
    elif isinstance(card, CharacterCard):
        detail = f"{line('stat.strength')} {card.strength} · {line('stat.speed')} {card.speed}"
    elif isinstance(card, MissionCard):
        detail = f"{line('card.field.level')} {card.level}"
    if isinstance(card, MissionCard):
        text = objective_text(card.objective, db, card_id)
    else:
        text = card_text(db, card_id)
    face = Face(
        card_id,
        wrap(card_name(db, card_id), 24, inner - 44, 2, True),
        detail,
        wrap(text, TEXT, inner, 6),
    )
    face.height = 44 + 10 + len(face.name) * 30 + (28 if detail else 0) + len(face.text) * 23 + 14
    return face


def _sections(view: SeatView) -> list[tuple[str, tuple[str, ...]]]:
    """The hand's sections: (heading, cards), the empty ones left out but the hand."""
    sections = [
        ("hand.field.hand", view.hand),
        ("hand.field.missions", view.missions),
        ("hand.field.offered_characters", view.offered_characters),
        ("hand.field.offered_advantages", view.offered_advantages),
    ]
    return [(line(id), cards) for id, cards in sections if cards or id == "hand.field.hand"]


def draw_hand(seat_view: SeatView, db: CardDB, language: str) -> Picture:
    """The member's own hand and secret missions, drawn from his seat view, in
    ``language``."""
    with speaking(language):
        sections = [
            (heading, [_face(c, db) for c in cards]) for heading, cards in _sections(seat_view)
        ]
        shown = [c for _, cards in _sections(seat_view) for c in cards]
        notes = _notes(shown, db)
        height = MARGIN
        for _, faces in sections:
            rows = [faces[i : i + COLUMNS] for i in range(0, len(faces), COLUMNS)]
            height += 44 + (sum(max(f.height for f in row) + GAP for row in rows) or 40)
        height += len(notes) * 28 + MARGIN
        c = Canvas(WIDTH, height)
        y = MARGIN
        for heading, faces in sections:
            c.text((MARGIN, y + 6), f"{heading} · {len(faces)}", 24, Ink.LIGHT, True)
            y += 44
            if not faces:
                c.text((MARGIN, y), line("hand.none"), 20, Ink.LIGHT_SOFT)
                y += 40
            for i in range(0, len(faces), COLUMNS):
                row = faces[i : i + COLUMNS]
                h = max(f.height for f in row)
                for j, face in enumerate(row):
                    _draw_face(c, face, db, MARGIN + j * (FACE + GAP), y, h)
                y += h + GAP
        for icon, note in notes:
            if icon == "globe":
                icons.globe(c, MARGIN, y + 3, 18, Ink.LIGHT_SOFT)
            else:
                c.text((MARGIN + 9, y + 12), icon, 20, Ink.LIGHT_SOFT, True, "mm")
            c.text((MARGIN + 28, y), note, 19, Ink.LIGHT_SOFT)
            y += 28
        return c.picture(hand_alt(seat_view, db))


def _notes(cards: list[str], db: CardDB) -> list[tuple[str, str]]:
    """The legends of the marks shown: stand-in ◇, our translation's globe."""
    notes = []
    if any(db[c].is_stand_in for c in cards):
        notes.append((SYMBOL["stand_in"], line("card.stand_in", mark="").strip()))
    if any(words.is_translated(c) for c in cards):
        notes.append(("globe", line("card.our_translation", mark="").strip()))
    return notes


def _draw_face(c: Canvas, face: Face, db: CardDB, x: int, y: int, h: int) -> None:
    card = db[face.card]
    colour = frame_colour(card)
    c.box((x, y, x + FACE, y + h), fill=colour, outline=Ink.BLACK, radius=14)
    c.box((x + 8, y + 40, x + FACE - 8, y + h - 8), fill=Ink.PAPER, outline=Ink.BLACK, radius=8)
    band = Ink.INK if colour in (Ink.YELLOW, Ink.SKY, Ink.ORANGE) else Ink.WHITE
    c.text((x + 22, y + 21), type_symbol(card), 22, band, True, "mm")
    c.text((x + 40, y + 10), card_kind(card), 18, band, True)
    ty = y + 50
    right = x + FACE - 20
    if words.is_translated(face.card):
        icons.globe(c, right - 20, ty + 4, 20, Ink.INK)
        right -= 28
    if card.is_stand_in:
        c.text((right, ty), SYMBOL["stand_in"], 24, Ink.INK, True, "ra")
    for part in face.name:
        c.text((x + 20, ty), part, 24, Ink.INK, True)
        ty += 30
    if face.detail:
        c.text((x + 20, ty + 2), face.detail, TEXT, Ink.INK_SOFT, True)
        ty += 28
    c.lines(x + 20, ty + 2, face.text, TEXT, Ink.INK)


def hand_alt(view: SeatView, db: CardDB) -> str:
    """The hand in words: each section's cards by name and kind (the alt text)."""
    parts = []
    for heading, cards in _sections(view):
        said = "; ".join(f"{card_name(db, c)} ({card_kind(db[c])})" for c in cards)
        parts.append(f"{heading}: {said or line('hand.none')}")
    return "\n".join(parts)
