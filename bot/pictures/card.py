"""A card's picture (``/anima card``) and the small faces of a hand (:mod:`.hand`).

A card is drawn as a card: its frame in its type's colour with the type's icon and name (the
colour never alone), its set's emblem and a paper tinted by set, its name with the stand-in
mark ◇ and our translation's globe where they apply, its numbers (Strength and Speed, level,
a monster's Strength), its skills and icons, its rules by type (a Region's exploration table
and rewards, a mission's objective, a Final mission's Quest and Crisis!), and its text wrapped.
Every word is the catalog's or the card's own in the current language (:mod:`wording.cards`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import words
from bot.pictures import icons
from bot.pictures.canvas import RGB, Canvas, Ink, Picture, fit, length, wrap
from bot.pictures.icons import SET_SYMBOL, SYMBOL
from engine import (
    AdvantageCard,
    Card,
    CardDB,
    CharacterCard,
    EncounterCard,
    FinalMissionCard,
    MissionCard,
    RegionCard,
)
from wording.cards import (
    advantage_rule,
    card_kind,
    card_name,
    card_text,
    exploration_row,
    guard_text,
    keyword,
    objective_text,
    printed,
    reward_text,
    set_name,
    skill_name,
)
from words import speaking
from words.plain import count, line, plain

WIDTH = 800
PAD = 28
TEXT = 24


def frame_colour(card: Card) -> RGB:
    """A card's frame by its type (and an Encounter's kind); its name and icon say it too."""
    if isinstance(card, CharacterCard):
        return Ink.BLUE
    if isinstance(card, RegionCard):
        return Ink.GREEN
    if isinstance(card, EncounterCard):
        return Ink.VERMILION if card.kind == "monster" else Ink.PURPLE
    if isinstance(card, FinalMissionCard):
        return Ink.YELLOW
    if isinstance(card, MissionCard):
        return Ink.SKY
    return Ink.ORANGE


def type_symbol(card: Card) -> str:
    """The symbol beside a card's type: an Advantage's by its kind."""
    if isinstance(card, CharacterCard):
        return SYMBOL["arcane" if card.arcane else "character"]
    if isinstance(card, RegionCard):
        return SYMBOL["region"]
    if isinstance(card, EncounterCard):
        return SYMBOL[card.kind]
    if isinstance(card, FinalMissionCard):
        return SYMBOL["final_mission"]
    if isinstance(card, MissionCard):
        return SYMBOL["mission"]
    kind = card.kind
    if kind == "skill" and card.skill:
        return SYMBOL[card.skill]
    return SYMBOL.get(kind, SYMBOL["in_play"])


#: The paper of each set (its emblem and name say the set too).
SET_PAPER: dict[str, RGB] = {
    "shadow_of_omega": Ink.PAPER,
    "beyond_good_and_evil": (238, 240, 244),
    "twilight_of_the_gods": (246, 236, 226),
}


@dataclass
class Block:
    """A part of a card's body: a heading, then lines, each with an icon."""

    heading: str = ""
    lines: list[tuple[str, str]] = field(default_factory=list)
    #: A die's face before each line (a Region's exploration table), 1-6.
    dice: bool = False
    bold: bool = False


def _blocks(card: Card, db: CardDB) -> list[Block]:
    """The card's rules by type, in words, as blocks of lines."""
    blocks: list[Block] = []
    if isinstance(card, CharacterCard):
        skills = [(skill_name(s), SYMBOL[s]) for s in card.skills]
        if skills:
            blocks.append(Block(line("card.field.skills"), skills, bold=True))
        if card.arcane:
            blocks.append(Block("", [(line("card.arcane_rule"), SYMBOL["arcane"])]))
    elif isinstance(card, RegionCard):
        marks = []
        if card.trade:
            marks.append((line("card.mark.trade"), SYMBOL["trade"]))
        if not card.fighting:
            marks.append((line("card.mark.no_fighting"), SYMBOL["no_fighting"]))
        if marks:
            blocks.append(Block(line("card.field.marks"), marks, bold=True))
        rows = [(exploration_row(card, i), str(i)) for i in range(1, 7)]
        blocks.append(Block(line("card.field.exploration"), rows, dice=True))
        rewards = [(reward_text(card, i), "•") for i in range(len(card.rewards))]
        blocks.append(Block(line("card.field.rewards"), rewards))
        if card.guard is not None:
            guard = plain(guard_text(card))
            blocks.append(Block(line("card.field.guard", mark="").strip(), [(guard, "shield")]))
    elif isinstance(card, EncounterCard):
        if card.keywords:
            said = ", ".join(keyword(k) for k in card.keywords)
            blocks.append(Block(line("card.field.keywords"), [(said, "")]))
    elif isinstance(card, FinalMissionCard):
        quest = objective_text(card.quest, db, card.id)
        blocks.append(Block(line("card.field.quest"), [(quest, SYMBOL["final_mission"])]))
        limit = count("card.turns", card.crisis.limit)
        crisis = [(f"{line('card.field.crisis_limit')}: {limit}", "hourglass")]
        if card.crisis.text:
            crisis.append((printed(card.id, card.crisis.text), ""))
        blocks.append(Block(line("card.field.crisis"), crisis))
    elif isinstance(card, MissionCard):
        objective = objective_text(card.objective, db, card.id)
        blocks.append(Block(line("card.field.objective"), [(objective, SYMBOL["mission"])]))
    elif isinstance(card, AdvantageCard):
        if card.skill:
            needs = [(skill_name(card.skill), SYMBOL[card.skill])]
            blocks.append(Block(line("card.field.needs"), needs, bold=True))
        rule = advantage_rule(card.kind)
        if rule:
            blocks.append(Block(line("card.field.rule"), [(rule, SYMBOL.get(card.kind, ""))]))
        if card.rivals:
            rivals = ", ".join(card_name(db, r) for r in card.rivals)
            title = "card.field.enemy_factions" if card.kind == "faction" else "card.field.rivals"
            blocks.append(Block(line(title), [(rivals, SYMBOL[card.kind])]))
    return blocks


def _numbers(card: Card) -> list[tuple[str, str, str]]:
    """The big numbers of a card: (icon, word, number)."""
    if isinstance(card, CharacterCard):
        return [
            ("strength", line("stat.strength"), str(card.strength)),
            ("speed", line("stat.speed"), str(card.speed)),
        ]
    numbers = []
    if isinstance(card, RegionCard | EncounterCard | MissionCard):
        numbers.append(("level", line("card.field.level"), str(card.level)))
    if isinstance(card, EncounterCard) and card.strength is not None:
        numbers.append(("strength", line("stat.strength"), str(card.strength)))
    return numbers


def draw_card(card_id: str, db: CardDB, language: str) -> Picture:
    """The card ``card_id`` drawn, in ``language``."""
    with speaking(language):
        card = db[card_id]
        return _draw(card, db)


def card_alt(card: Card, db: CardDB) -> str:
    """The card in words: name, kind, set, numbers, rules and text (the alt text)."""
    parts = [
        card_name(db, card.id),
        card_kind(card),
        line("card.field.set") + ": " + set_name(card.set),
    ]
    parts += [f"{word} {number}" for _, word, number in _numbers(card)]
    for block in _blocks(card, db):
        said = "; ".join(text for text, _ in block.lines)
        parts.append(f"{block.heading}: {said}" if block.heading else said)
    if card.text:
        parts.append(card_text(db, card.id))
    parts.append(line("card.note.stand_in" if card.is_stand_in else "card.note.printed"))
    if words.is_translated(card.id):
        parts.append(line("card.our_translation", mark="").strip())
    return "\n".join(p for p in parts if p)


def _draw(card: Card, db: CardDB) -> Picture:
    inner = WIDTH - 2 * PAD
    colour = frame_colour(card)
    name = wrap(card_name(db, card.id), 40, inner - 70, 3, True)
    blocks = [(b, _laid(b, inner)) for b in _blocks(card, db)]
    text = wrap(card_text(db, card.id), TEXT, inner - 8)
    notes = _notes(card, inner)
    numbers = _numbers(card)
    height = 80 + len(name) * 50 + 16
    height += 96 if numbers else 0
    height += sum((40 if b.heading else 0) + len(laid) * 32 + 14 for b, laid in blocks)
    height += (len(text) * 32 + 24) if card.text else 0
    height += 30 + len(notes) * 26 + 60
    c = Canvas(WIDTH, height, Ink.TABLE)
    c.box((4, 4, WIDTH - 4, height - 4), fill=colour, outline=Ink.BLACK, radius=26, width=3)
    paper = SET_PAPER.get(card.set, Ink.PAPER)
    c.box((18, 70, WIDTH - 18, height - 18), fill=paper, outline=Ink.BLACK, radius=16)
    # The type band: its icon and words on the frame's colour, the set's emblem on the right.
    band_ink = Ink.INK if colour in (Ink.YELLOW, Ink.SKY, Ink.ORANGE) else Ink.WHITE
    c.text((PAD + 12, 38), type_symbol(card), 30, band_ink, True, "mm")
    c.text((PAD + 34, 22), fit(card_kind(card), 26, inner - 120, True), 26, band_ink, True)
    c.draw.ellipse(
        (WIDTH - PAD - 48, 14, WIDTH - PAD, 62), fill=Ink.WHITE, outline=Ink.BLACK, width=2
    )
    c.text((WIDTH - PAD - 24, 38), SET_SYMBOL.get(card.set, "?"), 28, Ink.INK, True, "mm")
    y = 86.0
    for part in name:
        c.text((PAD + 6, y), part, 40, Ink.INK, True)
        y += 50
    _marks(c, card, WIDTH - PAD - 8, 92)
    y += 8
    if numbers:
        x = PAD + 6.0
        for icon, word, number in numbers:
            x += _number(c, x, y, icon, word, number, colour) + 16
        y += 96
    for block, laid in blocks:
        y = _block(c, block, laid, y)
    if card.text:
        c.draw.line((PAD + 6, y + 4, WIDTH - PAD - 6, y + 4), fill=Ink.PAPER_DIM, width=2)
        y = c.lines(PAD + 6, y + 16, text, TEXT, Ink.INK, leading=1.33) + 8
    c.draw.line((PAD + 6, y + 6, WIDTH - PAD - 6, y + 6), fill=Ink.PAPER_DIM, width=2)
    y += 20
    for icon, note in notes:
        if icon == "globe":
            icons.globe(c, PAD + 6, y + 2, 18, Ink.INK_SOFT)
        else:
            c.text((PAD + 15, y + 11), icon, 20, Ink.INK_SOFT, True, "mm")
        c.text((PAD + 34, y), note, 19, Ink.INK_SOFT)
        y += 26
    emblem = f"{SET_SYMBOL.get(card.set, '')} {set_name(card.set)}"
    c.text((WIDTH - PAD - 6, height - 50), emblem, 20, Ink.INK_SOFT, True, "ra")
    return c.picture(card_alt(card, db))


def _notes(card: Card, width: int) -> list[tuple[str, str]]:
    """The footer's notes: printed or stand-in (◇), and our translation (a globe)."""
    notes: list[tuple[str, str]] = []
    note = line("card.note.stand_in" if card.is_stand_in else "card.note.printed")
    mark = SYMBOL["stand_in"] if card.is_stand_in else "✓"
    notes += [(mark if i == 0 else "", part) for i, part in enumerate(wrap(note, 19, width - 40))]
    if words.is_translated(card.id):
        ours = line("card.our_translation", mark="").strip()
        notes += [("globe" if i == 0 else "", p) for i, p in enumerate(wrap(ours, 19, width - 40))]
    return notes


def _marks(c: Canvas, card: Card, right: float, y: float) -> None:
    """The stand-in mark and our translation's globe at the name's right."""
    if words.is_translated(card.id):
        icons.globe(c, right - 30, y, 30, Ink.INK)
        right -= 42
    if card.is_stand_in:
        c.text((right, y - 4), SYMBOL["stand_in"], 36, Ink.INK, True, "ra")


def _number(c: Canvas, x: float, y: float, icon: str, word: str, number: str, ink: RGB) -> float:
    """A big number in a box: its icon, its word and the number; returns the box's width."""
    w = max(150.0, 76 + length(word, 18) + 10)
    c.box((x, y, x + w, y + 80), fill=Ink.WHITE, outline=Ink.BLACK, radius=12)
    if icon == "strength":
        icons.swords(c, x + 12, y + 12, 28, Ink.INK)
    elif icon == "level":
        level = int(number)
        icons.pips(c, x + 12, y + 18, level, 14, ink if ink != Ink.YELLOW else Ink.ORANGE)
    else:
        c.text((x + 26, y + 26), SYMBOL[icon], 30, Ink.INK, True, "mm")
    c.text((x + 12, y + 50), word, 18, Ink.INK_SOFT)
    c.text((x + w - 14, y + 8), number, 44, Ink.INK, True, "ra")
    return w


def _laid(block: Block, width: int) -> list[tuple[str, str]]:
    """A block's lines wrapped: (icon of the first line, text)."""
    laid = []
    for text, icon in block.lines:
        for i, part in enumerate(wrap(text, 22, width - 52, 4, block.bold)):
            laid.append((icon if i == 0 else "", part))
    return laid


def _block(c: Canvas, block: Block, laid: list[tuple[str, str]], y: float) -> float:
    if block.heading:
        c.text((PAD + 6, y + 6), block.heading, 20, Ink.INK_SOFT, True)
        y += 40
    for icon, part in laid:
        x = PAD + 6
        if block.dice and icon:
            icons.die(c, x, y, 26, int(icon), Ink.WHITE, Ink.INK)
        elif icon == "shield":
            icons.shield(c, x + 2, y, 26, Ink.BLUE, Ink.BLACK)
        elif icon == "hourglass":
            icons.hourglass(c, x + 4, y, 26, Ink.VERMILION)
        elif icon:
            c.text((x + 13, y + 14), icon, 24, Ink.INK, True, "mm")
        c.text((x + 40, y + 1), part, 22, Ink.INK, block.bold)
        y += 32
    return y + 14
