"""The board's picture: the public table at a glance (issue 23).

From the top: the phase and turn, the Final mission (or how many lie face down) and the
Crisis! countdown; the turn order, whose decision it is and what it is; every active Region
as a card in the table's order (level, name, trade and no-fighting icons, its Preliminary
Encounter face down or revealed, its face-down Traps by number, its guard) with the tokens
of the parties standing there; every party's panel; and a legend of the symbols shown.

It is drawn from the public :class:`engine.TableView` alone (the signature takes nothing
else; tests draw it from every seat's own table and get the same bytes): a seat's own Traps
and the Encounters it scouted are in its table but never drawn.
"""

from __future__ import annotations

from collections.abc import Mapping

from bot.pictures import icons
from bot.pictures.board_alt import board_alt, deciding, decision_line
from bot.pictures.board_parts import (
    DETAIL,
    PAD,
    SMALL,
    RegionCard,
    draw_party,
    draw_region,
    party_panel,
    region_card,
)
from bot.pictures.canvas import Canvas, Ink, Picture, drawable, fit, length, wrap
from bot.pictures.icons import SYMBOL
from engine import CardDB, PartyView, TableView
from wording.cards import any_translated, card_name
from wording.table import phase_text
from words import speaking
from words.plain import line

WIDTH = 1200
MARGIN = 24
GAP = 14
HEADER = 100


def draw_board(view: TableView, db: CardDB, names: Mapping[str, str], language: str) -> Picture:
    """The public board of ``view`` in ``language``; ``names``: seat id -> the player's
    display name as typed (a seat missing from it is drawn by its id)."""
    with speaking(language):
        return _draw(view, db, names)


def _draw(view: TableView, db: CardDB, names: Mapping[str, str]) -> Picture:
    used: set[str] = set()
    seats = {s: i for i, s in enumerate(view.seats or [p.seat for p in view.parties])}
    columns = _columns(len(view.regions))
    card_w = (WIDTH - 2 * MARGIN - (columns - 1) * GAP) // columns
    cards = [region_card(r, db, card_w, seats, names, used) for r in view.regions]
    rows = [cards[i : i + columns] for i in range(0, len(cards), columns)]
    order = _in_order(view)
    panel_w = WIDTH - 2 * MARGIN
    panels = [
        party_panel(p, seats.get(p.seat, i), db, panel_w, names, view.over, used)
        for i, p in enumerate(order)
    ]
    decision = wrap(drawable(decision_line(view, db, names)), DETAIL, WIDTH - 2 * MARGIN - 34, 2)
    legend = _legend_items(view, db, used)
    height = HEADER + len(decision) * 27 + GAP
    height += sum(max(c.height for c in row) + GAP for row in rows) or 40
    height += 34 + sum(p.height + GAP // 2 for p in panels)
    height += _legend_height(legend) + MARGIN
    c = Canvas(WIDTH, height)
    _header(c, view, db)
    y = HEADER
    if decision:
        mark = SYMBOL["window" if any(w.window for w in view.waiting) else "decision"]
        c.text(
            (MARGIN + 12, y + 13),
            SYMBOL["winner"] if view.over else mark,
            DETAIL,
            Ink.YELLOW,
            True,
            "mm",
        )
    for part in decision:
        c.text((MARGIN + 32, y), part, DETAIL, Ink.YELLOW)
        y += 27
    y += GAP
    for row in rows:
        h = max(card.height for card in row)
        for i, card in enumerate(row):
            draw_region(c, card, MARGIN + i * (card_w + GAP), y, card_w, h)
        y += h + GAP
    if not rows:
        x = MARGIN + c.text((MARGIN, y), line("board.field.regions"), DETAIL, Ink.LIGHT_SOFT, True)
        c.text((x + 12, y), line("board.regions.none"), DETAIL, Ink.LIGHT_SOFT)
        y += 40
    heading = line("board.turn_order" if view.order else "pictures.parties")
    c.text((MARGIN, y + 2), heading, DETAIL, Ink.LIGHT_SOFT, True)
    y += 34
    asked = set(deciding(view))
    for place, (party, panel) in enumerate(zip(order, panels, strict=True)):
        here = party.seat in asked
        winner = view.over and view.winner == party.seat
        mark = "winner" if winner else "decision" if here else ""
        draw_party(c, panel, MARGIN, y, panel_w, panel.height, mark)
        if view.order:
            _place(c, place + 1, MARGIN, y, here, winner)
        y += panel.height + GAP // 2
    _legend(c, legend, y)
    return c.picture(board_alt(view, db, names))


def _columns(regions: int) -> int:
    """Regions in a row: four or five, whichever needs fewer rows (four, wider, on a tie)."""
    return min((-(-regions // n), n) for n in (4, 5))[1] if regions else 4


def _in_order(view: TableView) -> list[PartyView]:
    """The parties in the turn order (the seats' order before there is one)."""
    at = {seat: i for i, seat in enumerate(view.order)}
    return sorted(view.parties, key=lambda p: at.get(p.seat, len(at)))


def _place(c: Canvas, place: int, x: int, y: int, deciding: bool, winner: bool) -> None:
    """A party's place in the turn order, on its row's corner."""
    ink = Ink.YELLOW if deciding or winner else Ink.LIGHT_SOFT
    c.draw.ellipse((x - 12, y - 8, x + 12, y + 16), fill=ink, outline=Ink.BLACK, width=2)
    c.text((x, y + 4), str(place), SMALL, Ink.INK, True, "mm")


def _header(c: Canvas, view: TableView, db: CardDB) -> None:
    """Phase and turn on the left; the Final mission and the Crisis! on the right."""
    c.draw.rectangle((0, 0, WIDTH, HEADER - 14), fill=Ink.BAND)
    phase = phase_text("over" if view.over else view.phase)
    c.text((MARGIN, 12), fit(phase, 34, 560, True), 34, Ink.LIGHT, True)
    if view.turn:
        c.text((MARGIN, 56), line("pictures.turn", turn=view.turn), DETAIL, Ink.LIGHT_SOFT)
    box = (WIDTH - MARGIN - 560, 10, WIDTH - MARGIN, HEADER - 24)
    c.box(box, fill=Ink.PANEL, outline=Ink.YELLOW if view.final_mission else Ink.BLACK)
    x = box[0] + PAD
    # One line (no countdown yet) sits in the box's middle; two fill it.
    top = 0 if view.crisis is not None else 17
    c.text((x + 10, top + 29), SYMBOL["final_mission"], 26, Ink.YELLOW, True, "mm")
    label = line("board.final_mission")
    label_w = length(label, SMALL)
    c.text((x + 28, top + 18), label, SMALL, Ink.LIGHT_SOFT)
    if view.final_mission:
        name = card_name(db, view.final_mission)
        room = box[2] - x - 48 - label_w
        c.text((x + 36 + label_w, top + 14), fit(name, 24, room, True), 24, Ink.LIGHT, True)
    else:
        hidden = line("board.final_mission.hidden", n=view.final_deck)
        icons.card_back(c, x + 36 + label_w, top + 14, 18, 24)
        room = box[2] - x - 74 - label_w
        c.text((x + 62 + label_w, top + 18), fit(hidden, SMALL, room), SMALL, Ink.LIGHT)
    if view.crisis is not None:
        icons.hourglass(c, x + 3, 48, 26, Ink.VERMILION)
        c.text((x + 28, 48), line("board.crisis_in", turns=view.crisis), 22, Ink.LIGHT, True)


# ---------------------------------------------------------------------- the legend

#: The legend's entries in order: the symbol's key and the catalog's word for it.
LEGEND = (
    ("strength", "stat.strength"),
    ("speed", "stat.speed"),
    ("region", "card.type.region"),
    ("trade", "board.legend.trade"),
    ("no_fighting", "board.legend.no_fighting"),
    ("face_down", "board.legend.face_down"),
    ("monster", "card.kind.monster"),
    ("event", "card.kind.event"),
    ("traps", "board.legend.traps"),
    ("guarded", "board.legend.guarded"),
    ("beaten", "pictures.legend.beaten"),
    ("character", "card.type.character"),
    ("arcane", "board.legend.arcane"),
    ("tapped", "board.legend.turned"),
    ("incapacitated", "board.legend.incapacitated"),
    ("organization", "card.kind.organization"),
    ("faction", "board.legend.faction"),
    ("artifact", "board.legend.artifact"),
    ("incident", "board.legend.incident"),
    ("in_play", "hand.field.in_play"),
    ("hand", "hand.field.hand"),
    ("secret_missions", "hand.field.missions"),
    ("started", "hand.field.started"),
    ("completed", "hand.field.completed"),
)
_DRAWN = {"face_down", "guarded", "hand"}


def _legend_items(view: TableView, db: CardDB, used: set[str]) -> list[tuple[str, str]]:
    items = [(key, line(word)) for key, word in LEGEND if key in used]
    if any_translated(_shown_cards(view)):
        items.append(("translated", line("board.legend.translated", mark="").strip()))
    return items


def _shown_cards(view: TableView) -> list[str | None]:
    cards: list[str | None] = [view.final_mission]
    for p in view.parties:
        cards += [p.region, *(ch.card for ch in p.characters), *p.in_play, *p.started]
        cards += p.completed
    for r in view.regions:
        cards += [r.card, r.preliminary if r.preliminary_state == "revealed" else None]
    return cards


def _legend_layout(items: list[tuple[str, str]]) -> list[tuple[float, int, str, str]]:
    """(x offset, row, key, word) of each legend entry, in a flow."""
    placed = []
    x, row = 0.0, 0
    room = WIDTH - 2 * MARGIN
    for key, word in items:
        w = 30 + length(word, SMALL) + 22
        if x and x + w > room:
            x, row = 0.0, row + 1
        placed.append((x, row, key, word))
        x += w
    return placed


def _legend_height(items: list[tuple[str, str]]) -> int:
    rows = max((row for _, row, _, _ in _legend_layout(items)), default=-1) + 1
    return 12 + rows * 28


def _legend(c: Canvas, items: list[tuple[str, str]], y: int) -> None:
    c.draw.line((MARGIN, y, WIDTH - MARGIN, y), fill=Ink.PANEL, width=2)
    for x, row, key, word in _legend_layout(items):
        lx, ly = MARGIN + x, y + 12 + row * 28
        if key == "face_down":
            icons.card_back(c, lx + 3, ly, 15, 21)
        elif key == "guarded":
            icons.shield(c, lx + 2, ly, 20, Ink.BLUE, Ink.BLACK)
        elif key == "hand":
            icons.hand_of_cards(c, lx, ly + 1, 19, Ink.LIGHT_SOFT)
        elif key == "strength":
            icons.swords(c, lx + 2, ly + 1, 18, Ink.LIGHT_SOFT)
        elif key == "translated":
            icons.globe(c, lx + 1, ly + 1, 19, Ink.LIGHT_SOFT)
        else:
            c.text((lx + 11, ly + 11), SYMBOL[key], SMALL, Ink.LIGHT_SOFT, True, "mm")
        c.text((lx + 28, ly), word, SMALL, Ink.LIGHT_SOFT)


__all__ = ["RegionCard", "draw_board"]
