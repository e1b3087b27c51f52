"""A battle drawn: both sides' dice as faces, their Strength and totals, and who won, from a
``battle_roll`` event's payload (``engine.EVENT_PAYLOADS``: the attacker first, then the other
party or the monster) and, when given, its ``battle_result``'s. Both are public events."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from bot.pictures import icons
from bot.pictures.canvas import Canvas, Ink, Picture, fit, length
from bot.pictures.icons import SYMBOL
from bot.pictures.names import PictureNames
from wording.cards import printed
from words import msg, speaking
from words.plain import line, said

WIDTH = 1000
HEIGHT = 420
SIDE = 430
DIE = 64
#: A die's roll as ``shown`` writes it: "4", "6+2" (open rolls), "3/5" (rolled twice, the
#: best kept), "2/6+3".
_PARTS = re.compile(r"(\d+)|([+/])")


def dice_of(shown: str) -> list[tuple[str, int]]:
    """The dice of one side as drawn: ("", value) for a die, ("+", value) for a die added (an
    open roll's 6 rolled again), ("/", value) for a second roll of which the best is kept."""
    out: list[tuple[str, int]] = []
    sep = ""
    for number, mark in _PARTS.findall(shown):
        if mark:
            sep = mark
        else:
            out.append((sep, int(number)))
            sep = ""
    return out


def draw_battle(
    roll: Mapping[str, Any],
    names: Mapping[str, str],
    language: str,
    result: Mapping[str, Any] | None = None,
) -> Picture:
    """The ``battle_roll`` event's payload ``roll`` drawn in ``language`` (and the
    ``battle_result``'s ``result`` when given: the winner and the margin); ``names``: seat id
    -> the player's display name."""
    with speaking(language):
        seats = PictureNames(names)
        monster = printed(None, str(roll.get("opponent") or ""))
        other = roll.get("other")
        sides = [
            (seats.who(roll["player"]), roll["player"]),
            (seats.who(other), other)
            if other
            else (monster or line("event.battle_roll.monster"), None),
        ]
        totals = [int(t) for t in roll["totals"]]
        winner = _winner(roll, result, totals)
        c = Canvas(WIDTH, HEIGHT)
        c.draw.rectangle((0, 0, WIDTH, 64), fill=Ink.BAND)
        icons.swords(c, 26, 16, 32, Ink.LIGHT)
        c.text((72, 14), line("pictures.battle"), 30, Ink.LIGHT, True)
        seat_list = list(names)
        for i, (name, seat) in enumerate(sides):
            x = 24 if i == 0 else WIDTH - 24 - SIDE
            index = seat_list.index(seat) if seat in seat_list else None
            _side(
                c,
                x,
                name,
                index,
                str(roll["shown"][i]),
                int(roll["strengths"][i]),
                totals[i],
                winner == i,
            )
        _versus(c, line("pictures.battle.vs"))
        outcome = _outcome(result, seats)
        if outcome:
            c.text(
                (WIDTH / 2, HEIGHT - 34),
                fit(outcome, 24, WIDTH - 60, True),
                24,
                Ink.YELLOW,
                True,
                "mm",
            )
        return c.picture(battle_alt(roll, sides, result, seats))


#: The room for the word between the two sides' boxes, in pixels.
VERSUS_GAP = WIDTH - 2 * (24 + SIDE) - 12


def versus_size(word: str) -> int:
    """The font size of the word between the two sides: 30, smaller when the language's word
    is longer ("против"), so that it fits in the gap between their boxes."""
    size = 30
    while size > 14 and length(word, size, True) > VERSUS_GAP:
        size -= 2
    return size


def _versus(c: Canvas, word: str) -> None:
    size = versus_size(word)
    c.text((WIDTH / 2, 230), fit(word, size, VERSUS_GAP, True), size, Ink.LIGHT_SOFT, True, "mm")


def _winner(
    roll: Mapping[str, Any], result: Mapping[str, Any] | None, totals: list[int]
) -> int | None:
    """Which side won (0, 1), or None for a tie or when it is not known."""
    if result is not None:
        return 0 if result.get("winner") == roll["player"] else 1
    if totals[0] == totals[1]:
        return None
    return 0 if totals[0] > totals[1] else 1


def _outcome(result: Mapping[str, Any] | None, seats: PictureNames) -> str:
    if result is None:
        return ""
    winner = str(result["winner"])
    side = seats.who(winner) if seats.is_seat(winner) else printed(None, winner)
    if result.get("margin"):
        return said(msg("event.battle_result", winner=side, margin=result["margin"]))
    return said(msg("event.battle_result.tie", winner=side))


def _side(
    c: Canvas,
    x: float,
    name: str,
    index: int | None,
    shown: str,
    strength: int,
    total: int,
    won: bool,
) -> None:
    """One side: its token (or a monster's skull) and name, its dice, Strength and total."""
    c.box(
        (x, 86, x + SIDE, HEIGHT - 70),
        fill=Ink.PANEL,
        outline=Ink.YELLOW if won else Ink.BLACK,
        width=4 if won else 2,
        radius=16,
    )
    if index is not None:
        icons.token(c, x + 30, 116, 14, index)
    else:
        c.text((x + 30, 116), SYMBOL["monster"], 30, Ink.LIGHT, True, "mm")
    room = SIDE - 70 - (36 if won else 0)
    c.text((x + 56, 100), fit(name, 28, room, True), 28, Ink.LIGHT, True)
    if won:
        c.text((x + SIDE - 20, 100), SYMBOL["winner"], 30, Ink.YELLOW, True, "ra")
    dx = x + 24
    dice = dice_of(shown)
    best = max((v for sep, v in dice if sep in ("", "/")), default=0)
    rerolled = any(sep == "/" for sep, _ in dice)
    for sep, value in dice:
        if sep:
            c.text((dx + 4, 168 + DIE / 2), sep, 30, Ink.LIGHT_SOFT, True, "lm")
            dx += 26
        # Of two rolls (a reroll), the lower one is not kept: drawn dim.
        dim = rerolled and sep in ("", "/") and value < best
        icons.die(c, dx, 168, DIE, value, Ink.LIGHT_SOFT if dim else Ink.WHITE, Ink.INK)
        dx += DIE + 8
    y = 258
    icons.swords(c, x + 24, y + 2, 26, Ink.LIGHT)
    label = f"+ {line('stat.strength')} {strength}"
    c.text((x + 60, y), label, 24, Ink.LIGHT)
    total_text = f"= {total}"
    c.text((x + SIDE - 24, y - 12), total_text, 48, Ink.YELLOW if won else Ink.LIGHT, True, "ra")


def battle_alt(
    roll: Mapping[str, Any],
    sides: list[tuple[str, str | None]],
    result: Mapping[str, Any] | None,
    seats: PictureNames,
) -> str:
    """The battle in words: each side's dice, Strength and total, and who won."""
    lines = []
    for i, (name, _) in enumerate(sides):
        side = msg(
            "event.battle_roll.side",
            side=name,
            shown=roll["shown"][i],
            strength=roll["strengths"][i],
            total=roll["totals"][i],
        )
        lines.append(said(side).replace("🎲", "").strip())
    outcome = _outcome(result, seats)
    if outcome:
        lines.append(outcome.replace("⚔️", "").strip())
    return "\n".join(lines)
