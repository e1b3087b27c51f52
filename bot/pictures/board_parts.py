"""The board's pieces: a Region's card (its level, name, icons, what lies on it and the
parties standing there) and a party's panel (its token, player, Strength and Speed, place,
characters and cards in play, counts and missions).

Each piece is laid out first (its lines wrapped, its height known) and drawn after, so that a
row of pieces can take the height of its tallest. They read only the public table's fields
(:class:`engine.TableView`): a Region's Preliminary Encounter only once it is revealed, its
Traps only by their number; never a seat's own Traps nor what it scouted (its own table
holds them; the board draws the same from it as from the public one).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from bot.pictures import icons
from bot.pictures.canvas import LEVEL_COLOURS, RGB, Canvas, Ink, fit, length, wrap
from bot.pictures.icons import SYMBOL
from engine import AdvantageCard, CardDB, PartyView, RegionView
from wording.cards import card_name, printed
from wording.table import level_text
from words.plain import count, line

#: Text sizes (pixels) of the pieces.
NAME = 24
DETAIL = 20
SMALL = 18
PAD = 12


@dataclass
class Row:
    """One line of a piece: an icon (a symbol, or a drawn one by name), its text, colour."""

    text: str
    icon: str = ""
    drawn: str = ""
    ink: RGB = Ink.INK
    bold: bool = False
    size: int = DETAIL


@dataclass
class RegionCard:
    """A Region laid out: its level band, name lines, rows, and the seats standing there."""

    region: RegionView
    level: str
    name: list[str]
    rows: list[Row]
    tokens: list[tuple[int, str]]
    trade: bool
    peaceful: bool
    height: int = 0


def _line_height(size: int) -> int:
    return round(size * 1.3)


def region_card(
    r: RegionView,
    db: CardDB,
    width: int,
    seats: Mapping[str, int],
    names: Mapping[str, str],
    used: set[str],
) -> RegionCard:
    """Lay out the card of the active Region ``r`` (``width`` pixels wide)."""
    card = db.region(r.card)
    inner = width - 2 * PAD
    rows: list[Row] = []
    # Only a revealed Encounter is named: "known" (scouted) is the scout's alone.
    if r.preliminary_state == "revealed" and r.preliminary is not None:
        enc = db.encounter(r.preliminary)
        name = card_name(db, r.preliminary)
        monster = enc.strength is not None
        text = (
            line("board.region.preliminary", card=name, strength=enc.strength) if monster else name
        )
        icon = SYMBOL["monster" if monster else "event"]
        used.add("monster" if monster else "event")
        rows.append(Row(text, icon, bold=True))
    elif r.preliminary_state in ("face_down", "known"):
        rows.append(Row(line("board.region.face_down"), drawn="face_down", ink=Ink.INK_SOFT))
        used.add("face_down")
    # A clear Region shows nothing there (the text board's "clear"; the alt text says it).
    if r.traps:
        rows.append(Row(count("board.region.traps", r.traps), SYMBOL["traps"], bold=True))
        used.add("traps")
    if r.guard != "none" and card.guard is not None:
        guard = printed(r.card, card.guard.name)
        if r.guard == "standing":
            rows.append(Row(line("board.region.guarded", guard=guard), drawn="shield", bold=True))
            used.add("guarded")
        else:
            text = line("board.region.guard_beaten", guard=guard)
            rows.append(Row(text, SYMBOL["beaten"], ink=Ink.INK_SOFT))
            used.add("beaten")
    size = DETAIL if width > 240 else SMALL
    laid: list[Row] = []
    for row in rows:
        for i, part in enumerate(wrap(row.text, size, inner - 28, 2, row.bold)):
            first = i == 0
            laid.append(
                Row(
                    part,
                    row.icon if first else "",
                    row.drawn if first else "",
                    row.ink,
                    row.bold,
                    size,
                )
            )
    tokens = [(seats.get(s, 0), names.get(s) or s) for s in r.parties]
    if card.trade:
        used.add("trade")
    if not card.fighting:
        used.add("no_fighting")
    built = RegionCard(
        r,
        level_text(r),
        wrap(card_name(db, r.card), _name_size(width), inner, 2, True),
        laid,
        tokens,
        card.trade,
        not card.fighting,
    )
    built.height = 40 + PAD + len(built.name) * _line_height(_name_size(width))
    built.height += sum(_line_height(row.size) for row in laid) + (4 if laid else 0)
    if tokens:
        built.height += 4 + _token_rows(tokens, inner) * 32
    built.height += PAD
    return built


def _name_size(width: int) -> int:
    """A Region's name: smaller on the narrower cards of five Regions a row."""
    return NAME if width > 240 else 22


#: The widest name on a token in a Region.
TOKEN_NAME = 96


def _token_width(name: str) -> float:
    return 28 + min(length(name, SMALL, True), TOKEN_NAME) + 14


def _token_rows(tokens: list[tuple[int, str]], width: float) -> int:
    rows, x = 1, 0.0
    for _, name in tokens:
        w = _token_width(name)
        if x and x + w > width:
            rows, x = rows + 1, 0.0
        x += w
    return rows


def draw_region(c: Canvas, card: RegionCard, x: int, y: int, width: int, height: int) -> None:
    """Draw a laid-out Region card at ``(x, y)``, ``height`` pixels high (its row's)."""
    r = card.region
    colour = LEVEL_COLOURS.get(r.level, Ink.BLUE)
    c.box((x, y, x + width, y + height), fill=Ink.PAPER, outline=Ink.BLACK, radius=12)
    c.draw.rounded_rectangle(
        (x, y, x + width, y + 40), radius=12, fill=colour, corners=(True, True, False, False)
    )
    c.draw.line((x, y + 40, x + width, y + 40), fill=Ink.BLACK, width=2)
    # The level: pips and its words on a white pill (the colour is never alone).
    label_w = length(card.level, DETAIL, True)
    pill_w = 12 + r.level * 17 + 6 + label_w + 12
    c.box((x + 7, y + 6, x + 7 + pill_w, y + 34), fill=Ink.WHITE, outline=Ink.BLACK, radius=14)
    icons.pips(c, x + 17, y + 13, r.level, 14, colour)
    c.text((x + 19 + r.level * 17 + 4, y + 9), card.level, DETAIL, Ink.INK, True)
    right = x + width - 8
    for on, key in ((card.peaceful, "no_fighting"), (card.trade, "trade")):
        if on:
            c.draw.ellipse((right - 28, y + 6, right, y + 34), fill=Ink.WHITE, outline=Ink.BLACK)
            c.text((right - 14, y + 20), SYMBOL[key], DETAIL, Ink.INK, True, "mm")
            right -= 34
    ty = y + 40 + PAD
    size = _name_size(width)
    for part in card.name:
        c.text((x + PAD, ty), part, size, Ink.INK, True)
        ty += _line_height(size)
    ty += 4 if card.rows else 0
    for row in card.rows:
        _row(c, row, x + PAD, ty)
        ty += _line_height(row.size)
    if card.tokens:
        _tokens(c, card.tokens, x + PAD, ty + 4, width - 2 * PAD)


def _row(c: Canvas, row: Row, x: float, y: float, light: bool = False) -> None:
    """A row's icon (drawn, or a symbol) and its text."""
    ink = row.ink
    if row.drawn == "face_down":
        icons.card_back(c, x + 2, y + 1, 17, 23)
    elif row.drawn == "shield":
        icons.shield(c, x + 2, y + 1, 22, Ink.BLUE, Ink.BLACK)
    elif row.drawn == "hand":
        icons.hand_of_cards(c, x, y + 2, 20, ink)
    elif row.icon:
        c.text((x + 11, y + row.size * 0.62), row.icon, row.size, ink, True, "mm")
    c.text((x + 28 if (row.icon or row.drawn) else x, y), row.text, row.size, ink, row.bold)


def _tokens(c: Canvas, tokens: list[tuple[int, str]], x: float, y: float, width: float) -> None:
    """The parties standing in a Region: their tokens and names, in a flow."""
    at = 0.0
    for index, name in tokens:
        w = _token_width(name)
        if at and at + w > width:
            at, y = 0.0, y + 32
        tx = x + at
        c.box((tx, y, tx + w - 6, y + 28), fill=Ink.PANEL, outline=Ink.BLACK, radius=14)
        icons.token(c, tx + 15, y + 14, 9, index)
        c.text((tx + 28, y + 4), fit(name, SMALL, TOKEN_NAME, True), SMALL, Ink.LIGHT, True)
        at += w


# ---------------------------------------------------------------------- parties


@dataclass
class Item:
    """One item of a flow: an icon (a symbol, or a drawn one by name) and its text."""

    text: str
    icon: str = ""
    drawn: str = ""
    ink: RGB = Ink.LIGHT


def _item_width(item: Item, size: int) -> float:
    return (28 if item.icon or item.drawn else 0) + length(item.text, size) + 22


def flow(items: list[Item], width: float, size: int = DETAIL) -> list[list[tuple[float, Item]]]:
    """Items in lines of at most ``width`` pixels: (x offset, item) of each, by line; an item
    too long for a line alone is cut."""
    lines: list[list[tuple[float, Item]]] = [[]]
    x = 0.0
    for item in items:
        w = _item_width(item, size)
        if w > width:
            cut = fit(item.text, size, width - 50)
            item, w = Item(cut, item.icon, item.drawn, item.ink), width
        if lines[-1] and x + w > width:
            lines.append([])
            x = 0.0
        lines[-1].append((x, item))
        x += w
    return [placed for placed in lines if placed]


#: The left column of a party's row: token, name, totals, place.
LEFT = 300


@dataclass
class PartyPanel:
    """A party laid out as a row of the board: its left column (token, name, totals, place
    and flags) and its flows (characters; cards in play, counts and missions)."""

    index: int
    name: str
    #: Strength and Speed; None while the party is hidden (setup).
    totals: tuple[int, int] | None
    where: str
    flags: list[str]
    flows: list[list[list[tuple[float, Item]]]] = field(default_factory=list)
    height: int = 0


def party_panel(
    p: PartyView,
    index: int,
    db: CardDB,
    width: int,
    names: Mapping[str, str],
    over: bool,
    used: set[str],
) -> PartyPanel:
    """Lay out a party's row (``width`` pixels wide)."""
    name = names.get(p.seat) or p.seat
    totals = None
    if not p.hidden and p.strength is not None and p.speed is not None:
        totals = (p.strength, p.speed)
        used.update(("strength", "speed"))
    where = card_name(db, p.region) if p.region else line("pictures.party.nowhere")
    used.add("region")
    flags = []
    for on, key, word in (
        (p.lost, "out", "board.flag.out"),
        (p.turn_over and not over, "turn_over", "board.flag.turn_over"),
        (p.resting, "resting", "board.flag.resting"),
    ):
        if on:
            flags.append(f"{SYMBOL[key]} {line(word)}")
    panel = PartyPanel(index, name, totals, where, flags)
    room = width - LEFT - 2 * PAD
    characters: list[Item] = []
    if p.hidden:
        characters.append(Item(line("board.party.choosing"), drawn="face_down"))
        used.add("face_down")
    elif not p.characters:
        characters.append(Item(line("board.party.no_characters"), ink=Ink.LIGHT_SOFT))
    for ch in p.characters:
        card = db.character(ch.card)
        marks = []
        if ch.tapped:
            marks.append(SYMBOL["tapped"])
            used.add("tapped")
        if ch.incapacitated:
            marks.append(SYMBOL["incapacitated"])
            used.add("incapacitated")
        key = "arcane" if ch.arcane else "character"
        used.add(key)
        text = f"{card_name(db, ch.card)} {card.strength}/{card.speed}"
        characters.append(Item(f"{text} {' '.join(marks)}" if marks else text, SYMBOL[key]))
    panel.flows.append(flow(characters, room))
    others: list[Item] = []
    for kind, cards in _in_play(p, db):
        used.add(kind)
        others += [Item(card_name(db, c), SYMBOL[kind]) for c in cards]
    resisting = dict(p.resisting)
    for mission in p.started:
        text = card_name(db, mission)
        if mission in resisting:
            text = count("pictures.party.resisting", resisting.pop(mission), mission=text)
        others.append(Item(text, SYMBOL["started"]))
        used.add("started")
    for mission, held in resisting.items():
        said = line("pictures.secret_mission") if mission == "secret" else card_name(db, mission)
        others.append(
            Item(count("pictures.party.resisting", held, mission=said), SYMBOL["started"])
        )
        used.add("started")
    for mission in p.completed:
        others.append(Item(card_name(db, mission), SYMBOL["completed"]))
        used.add("completed")
    hand = count("board.party.advantages", p.hand_count)
    missions = count("board.party.secret_missions", p.secret_missions)
    others.append(Item(hand, drawn="hand", ink=Ink.LIGHT_SOFT))
    used.add("hand")
    if p.secret_missions:
        others.append(Item(missions, SYMBOL["secret_missions"], ink=Ink.LIGHT_SOFT))
        used.add("secret_missions")
    panel.flows.append(flow(others, room))
    lines = sum(len(f) for f in panel.flows)
    left = 2 + (totals is not None) + len(flags)
    panel.height = 2 * PAD + max(left * 28 + 6, lines * _line_height(DETAIL) + 6)
    return panel


#: The kinds of card in play in front of a party, in the order a panel lists them.
IN_PLAY_ORDER = ("organization", "faction", "artifact", "incident", "in_play")


def _in_play(p: PartyView, db: CardDB) -> list[tuple[str, list[str]]]:
    """A party's cards in play by kind: Organization, Faction, Artifact, Incidents, and the
    rest (Magic Objects)."""
    groups: dict[str, list[str]] = {}
    for c in p.in_play:
        card = db.by_id.get(c)
        kind = card.kind if isinstance(card, AdvantageCard) else ""
        groups.setdefault(kind if kind in IN_PLAY_ORDER else "in_play", []).append(c)
    return [(kind, groups[kind]) for kind in IN_PLAY_ORDER if kind in groups]


def draw_party(
    c: Canvas, panel: PartyPanel, x: int, y: int, width: int, height: int, mark: str = ""
) -> None:
    """Draw a laid-out party row at ``(x, y)``; a party whose decision it is (``mark``
    "decision") or the winner ("winner") is outlined in yellow and marked ▶ or ♛ (not by the
    colour alone)."""
    deciding = bool(mark)
    outline = Ink.YELLOW if deciding else Ink.BLACK
    c.box(
        (x, y, x + width, y + height), fill=Ink.PANEL, outline=outline, width=3 if deciding else 2
    )
    icons.token(c, x + PAD + 23, y + PAD + 15, 12, panel.index)
    name_x = x + PAD + 44
    if deciding:
        c.text((name_x, y + PAD + 15), SYMBOL[mark], NAME, Ink.YELLOW, True, "lm")
        name_x += 26
    c.text((name_x, y + PAD), fit(panel.name, NAME, x + LEFT - name_x, True), NAME, Ink.LIGHT, True)
    ly = y + PAD + 34
    if panel.totals:
        strength, speed = panel.totals
        icons.swords(c, x + PAD, ly + 2, 22, Ink.LIGHT)
        tx = x + PAD + 30 + c.text((x + PAD + 30, ly), str(strength), 22, Ink.LIGHT, True)
        c.text((tx + 26, ly), f"{SYMBOL['speed']} {speed}", 22, Ink.LIGHT, True)
        ly += 30
    c.text((x + PAD + 11, ly + 11), SYMBOL["region"], SMALL, Ink.LIGHT_SOFT, True, "mm")
    c.text((x + PAD + 28, ly), fit(panel.where, SMALL, LEFT - PAD - 40), SMALL, Ink.LIGHT_SOFT)
    for flag in panel.flags:
        ly += 26
        c.text((x + PAD, ly), fit(flag, SMALL, LEFT - PAD - 10), SMALL, Ink.YELLOW)
    c.draw.line((x + LEFT, y + PAD, x + LEFT, y + height - PAD), fill=Ink.BAND, width=2)
    fy = y + PAD + 2
    for lines in panel.flows:
        for placed in lines:
            for dx, item in placed:
                _item(c, item, x + LEFT + PAD + dx, fy)
            fy += _line_height(DETAIL)


def _item(c: Canvas, item: Item, x: float, y: float) -> None:
    if item.drawn == "face_down":
        icons.card_back(c, x + 2, y + 1, 17, 23)
    elif item.drawn == "hand":
        icons.hand_of_cards(c, x, y + 2, 20, item.ink)
    elif item.icon:
        c.text((x + 11, y + DETAIL * 0.62), item.icon, DETAIL, item.ink, True, "mm")
    c.text((x + 28 if (item.icon or item.drawn) else x, y), item.text, DETAIL, item.ink)
