"""The pictures' icons: DejaVu Sans' own symbols (:data:`SYMBOL`), and the few drawn as shapes
where the font has nothing fit (a seat's token, a shield, an hourglass, a globe, a card's back,
a die's face, a Region's level pips, a hand of cards).

The Discord text board marks the same things with emoji, which no open font with Latin and
Cyrillic letters carries in colour; a picture draws its own instead (never an empty box).
Every icon stands beside a word or a number: the legend (or the card) says what it means.
"""

from __future__ import annotations

import math

from bot.pictures.canvas import RGB, SEAT_COLOURS, Canvas, Ink

#: Symbols of DejaVu Sans, by what they mark (the text board's emoji in brackets).
SYMBOL = {
    "strength": "⚔",  # (⚔)
    "speed": "➤",  # (💨)
    "trade": "⇄",  # (🤝)
    "no_fighting": "☮",  # (☮)
    "traps": "⚠",  # (🪤)
    "beaten": "⚐",  # (🏳)
    "arcane": "✦",  # (✦)
    "organization": "♜",  # (🏛)
    "faction": "⚑",  # (🚩)
    "artifact": "⚱",  # (🏺)
    "incident": "⟳",  # (🌀: it lasts until the end of the turn)
    "in_play": "✧",  # (🏛: a Magic Object)
    "tapped": "↷",  # (↷)
    "incapacitated": "☾",  # (💤)
    "resting": "☼",
    "out": "✘",  # (❌)
    "turn_over": "✓",
    "secret_missions": "✉",  # (📜)
    "started": "◎",  # (🎯)
    "completed": "✔",  # (✅)
    "decision": "▶",  # (➡️)
    "window": "⚡",  # (⚡)
    "final_mission": "★",
    "winner": "♛",
    "monster": "☠",
    "event": "❂",
    "stand_in": "◇",  # (◇)
    "character": "♟",
    "region": "▲",
    "mission": "◎",
    "plot": "✎",
    "interrupt": "⚡",
    "battle": "⚔",
    "skill": "✷",
    "trap": "⚠",
    "ki": "☸",
    "magic": "✷",
    "trickery": "♞",
}
#: A card set's emblem: Omega; good and evil; the twilight moon.
SET_SYMBOL = {
    "shadow_of_omega": "Ω",
    "beyond_good_and_evil": "☯",
    "twilight_of_the_gods": "☾",
}

#: A seat's shape, by its place at the table (with its colour, :data:`SEAT_COLOURS`).
SEAT_SHAPES = ("circle", "square", "triangle", "diamond", "star", "hexagon")


def seat_colour(index: int) -> RGB:
    """The colour of the ``index``-th seat."""
    return SEAT_COLOURS[index % len(SEAT_COLOURS)]


def _polygon(cx: float, cy: float, r: float, sides: int, turn: float) -> list[tuple[float, float]]:
    return [
        (
            cx + r * math.cos(turn + 2 * math.pi * i / sides),
            cy + r * math.sin(turn + 2 * math.pi * i / sides),
        )
        for i in range(sides)
    ]


def _star(cx: float, cy: float, r: float) -> list[tuple[float, float]]:
    points = []
    for i in range(10):
        radius = r if i % 2 == 0 else r * 0.45
        angle = -math.pi / 2 + math.pi * i / 5
        points.append((cx + radius * math.cos(angle), cy + radius * math.sin(angle)))
    return points


def token(c: Canvas, cx: float, cy: float, r: float, index: int) -> None:
    """A seat's token: its shape in its colour, outlined (the shape tells seats apart for
    a reader who cannot tell the colours)."""
    fill, outline = seat_colour(index), Ink.BLACK
    shape = SEAT_SHAPES[index % len(SEAT_SHAPES)]
    d = c.draw
    if shape == "circle":
        d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fill, outline=outline, width=2)
    elif shape == "square":
        s = r * 0.88
        d.rectangle((cx - s, cy - s, cx + s, cy + s), fill=fill, outline=outline, width=2)
    elif shape == "triangle":
        points = _polygon(cx, cy + r * 0.15, r * 1.1, 3, -math.pi / 2)
        d.polygon(points, fill=fill, outline=outline, width=2)
    elif shape == "diamond":
        d.polygon(_polygon(cx, cy, r * 1.1, 4, 0), fill=fill, outline=outline, width=2)
    elif shape == "star":
        d.polygon(_star(cx, cy, r * 1.2), fill=fill, outline=outline, width=2)
    else:
        d.polygon(_polygon(cx, cy, r, 6, 0), fill=fill, outline=outline, width=2)


def swords(c: Canvas, x: float, y: float, size: float, ink: RGB) -> None:
    """Strength: two crossed swords, ``size`` pixels square (DejaVu's ⚔ is too thin to read
    at the size the pictures are seen)."""
    d = c.draw
    w = max(2, round(size / 9))
    for flip in (False, True):
        x0, x1 = (x + size, x) if flip else (x, x + size)
        # The blade from the hilt (bottom) to the point (top), then its guard and grip.
        d.line((x0 + (x1 - x0) * 0.12, y + size * 0.88, x1, y), fill=ink, width=w)
        gx, gy = x0 + (x1 - x0) * 0.25, y + size * 0.75
        d.line(
            (gx - size * 0.16, gy - size * 0.16, gx + size * 0.16, gy + size * 0.16)
            if not flip
            else (gx + size * 0.16, gy - size * 0.16, gx - size * 0.16, gy + size * 0.16),
            fill=ink,
            width=w,
        )


def shield(c: Canvas, x: float, y: float, size: float, fill: RGB, outline: RGB) -> None:
    """A guard's shield (TotG), ``size`` pixels high from its top left corner."""
    w = size * 0.8
    points = [
        (x, y),
        (x + w, y),
        (x + w, y + size * 0.5),
        (x + w / 2, y + size),
        (x, y + size * 0.5),
    ]
    c.draw.polygon(points, fill=fill, outline=outline, width=2)


def hourglass(c: Canvas, x: float, y: float, size: float, fill: RGB) -> None:
    """The Crisis! countdown's hourglass, ``size`` pixels high."""
    w = size * 0.7
    d = c.draw
    d.rectangle((x, y, x + w, y + size * 0.1), fill=fill)
    d.rectangle((x, y + size * 0.9, x + w, y + size), fill=fill)
    d.polygon(
        [(x + w * 0.1, y + size * 0.1), (x + w * 0.9, y + size * 0.1), (x + w / 2, y + size / 2)],
        outline=fill,
        width=2,
    )
    d.polygon(
        [(x + w * 0.1, y + size * 0.9), (x + w * 0.9, y + size * 0.9), (x + w / 2, y + size / 2)],
        fill=fill,
    )


def globe(c: Canvas, x: float, y: float, size: float, ink: RGB) -> None:
    """Our translation's mark (the text board's 🌐): a globe, ``size`` pixels wide."""
    d = c.draw
    d.ellipse((x, y, x + size, y + size), outline=ink, width=2)
    d.ellipse((x + size * 0.28, y, x + size * 0.72, y + size), outline=ink, width=1)
    d.line((x, y + size / 2, x + size, y + size / 2), fill=ink, width=1)
    d.line((x + size / 2, y, x + size / 2, y + size), fill=ink, width=1)


def card_back(c: Canvas, x: float, y: float, w: float, h: float) -> None:
    """A face-down card: a dark back with a diamond (the text board's 🂠)."""
    c.box((x, y, x + w, y + h), fill=Ink.CARD_BACK, outline=Ink.LIGHT_SOFT, radius=4, width=2)
    cx, cy = x + w / 2, y + h / 2
    r = min(w, h) * 0.28
    c.draw.polygon(_polygon(cx, cy, r, 4, 0), fill=Ink.LIGHT_SOFT)


#: Where a die's pips lie, on a grid of three by three, for faces 1 to 6.
_PIPS = {
    1: [(1, 1)],
    2: [(0, 0), (2, 2)],
    3: [(0, 0), (1, 1), (2, 2)],
    4: [(0, 0), (2, 0), (0, 2), (2, 2)],
    5: [(0, 0), (2, 0), (1, 1), (0, 2), (2, 2)],
    6: [(0, 0), (2, 0), (0, 1), (2, 1), (0, 2), (2, 2)],
}


def die(c: Canvas, x: float, y: float, size: float, value: int, fill: RGB, pip: RGB) -> None:
    """A die showing ``value`` (1-6 as pips; another number written)."""
    c.box((x, y, x + size, y + size), fill=fill, outline=Ink.BLACK, radius=int(size * 0.18))
    if value not in _PIPS:
        c.text((x + size / 2, y + size / 2), str(value), int(size * 0.55), pip, True, "mm")
        return
    step = size / 4
    r = size * 0.09
    for col, row in _PIPS[value]:
        px, py = x + step * (col + 1), y + step * (row + 1)
        c.draw.ellipse((px - r, py - r, px + r, py + r), fill=pip)


def pips(c: Canvas, x: float, y: float, level: int, size: float, ink: RGB) -> float:
    """A Region's level as ``level`` diamonds from ``(x, y)``; returns their width."""
    r = size / 2
    for i in range(level):
        cx = x + r + i * (size + 3)
        c.draw.polygon(_polygon(cx, y + r, r, 4, 0), fill=ink, outline=Ink.BLACK)
    return level * (size + 3)


def hand_of_cards(c: Canvas, x: float, y: float, size: float, ink: RGB) -> None:
    """Cards held in hand: two overlapping cards, ``size`` pixels high."""
    w = size * 0.62
    c.box((x, y + 2, x + w, y + size), fill=None, outline=ink, radius=3, width=2)
    c.box((x + w * 0.5, y, x + w * 1.5, y + size - 2), fill=Ink.PANEL, outline=ink, radius=3)
