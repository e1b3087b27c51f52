"""The board of one step as HTML blocks, from a seat's view or the public table.

A board is a list of *blocks*, each one self-contained piece of HTML whose first character
says where the page puts it (:data:`HEAD`, :data:`PARTY`, :data:`REGION`, :data:`FOOT`,
:data:`OWN`): the page keeps every distinct block once and each step names its blocks, so a
block that did not change between two steps (most of them) costs nothing. For the same reason
a party's block is the same in every view (the viewer's own party is marked by the page), but
for the missions it resists, which only its own view names.

Every word is the catalogs' (the board's and the terminal's ids, through :mod:`wording`), the
same words the Discord board and ``anima play`` say.
"""

from __future__ import annotations

import html
from collections.abc import Sequence

from engine import CardDB, PartyView, RegionView, SeatView, TableView
from replay_viewer.markup import HtmlNames, fill
from wording import ending_message
from wording.cards import card_name
from wording.table import deck_name, in_play_lines, level_text, phase_text, region_extras
from words import counted, msg, say

#: Where a block goes: the heading, a party, a Region's row, the decks, the seat's own cards.
HEAD, PARTY, REGION, FOOT, OWN = "H", "P", "R", "F", "O"


def card_html(db: CardDB, card: str) -> str:
    """A card's name; the page shows its text on hover (``data-c``, the card's id)."""
    return f'<span class="c" data-c="{html.escape(card)}">{html.escape(card_name(db, card))}</span>'


def cards_html(db: CardDB, cards: Sequence[str], none: bool = True) -> str:
    """Cards' names, comma-separated ("none" for no card, unless ``none`` is False)."""
    if not cards:
        return html.escape(say(msg("hand.none"))) if none else ""
    return ", ".join(card_html(db, c) for c in cards)


def head_block(table: TableView, names: HtmlNames, db: CardDB) -> str:
    """The turn and phase, the turn order, the Final mission, and the end once it came."""
    phase = phase_text(table.phase)
    turn = html.escape(
        phase if table.turn == 0 else say(msg("replay.turn", turn=table.turn, phase=phase))
    )
    parts = [f"<h2>{turn}</h2>"]
    if table.order:
        order = " → ".join(names.seat_html(s, bold=False) for s in table.order)
        parts.append(f"<p>{html.escape(say(msg('board.turn_order')))} {order}</p>")
    final = (
        card_html(db, table.final_mission)
        if table.final_mission
        else html.escape(say(msg("board.final_mission.hidden", n=table.final_deck)))
    )
    crisis = ""
    if table.crisis is not None:
        left = html.escape(say(msg("board.crisis_in", turns=table.crisis)))
        crisis = f' <span class="crisis">{left}</span>'
    parts.append(f"<p>{html.escape(say(msg('board.final_mission')))} {final}{crisis}</p>")
    if table.over:
        how = say(ending_message(table.ending))
        if table.winner:
            won = fill(
                names, "replay.won", player=names.seat_html(table.winner), how=html.escape(how)
            )
        else:
            won = html.escape(say(msg("replay.nobody_won", how=how)))
        parts.append(f'<p class="over">🏆 {won}</p>')
    return HEAD + "".join(parts)


def _character(db: CardDB, card: str, tapped: bool, incapacitated: bool) -> str:
    marks = [
        say(msg(f"board.legend.{mark}"))
        for mark, on in (("turned", tapped), ("incapacitated", incapacitated))
        if on
    ]
    more = f" <i>({html.escape(', '.join(marks))})</i>" if marks else ""
    return card_html(db, card) + more


def _resisting(party: PartyView, resisting: Sequence[tuple[str, int]], db: CardDB) -> str:
    held = [
        html.escape(
            say(
                counted(
                    "terminal.party.resisting.one",
                    n,
                    mission=say(msg("terminal.party.secret_mission"))
                    if m == "secret"
                    else card_name(db, m),
                )
            )
        )
        for m, n in resisting
    ]
    return html.escape(say(msg("terminal.party.resisting", missions="\x00"))).replace(
        "\x00", ", ".join(held)
    )


def party_block(
    party: PartyView, names: HtmlNames, db: CardDB, resisting: Sequence[tuple[str, int]]
) -> str:
    """One party: who, where, its Strength and Speed, how many cards it holds, its characters,
    cards in play and missions (``resisting``: as its reader may see them)."""
    index = names.seats.index(party.seat) if party.seat in names.seats else 0
    top = names.seat_html(party.seat)
    rows: list[str] = []
    if party.lost:
        top += f' <span class="flag">{html.escape(say(msg("board.flag.out")))}</span>'
    elif party.hidden:
        rows.append(html.escape(say(msg("board.party.choosing"))))
    else:
        if party.region:
            top += f' <span class="where">📍 {card_html(db, party.region)}</span>'
        for flag, on in (("resting", party.resting), ("turn_over", party.turn_over)):
            if on:
                top += f' <span class="flag">{html.escape(say(msg(f"board.flag.{flag}")))}</span>'
        stats = say(
            msg(
                "terminal.party",
                strength=party.strength,
                speed=party.speed,
                advantages=say(counted("board.party.advantages", party.hand_count)),
                missions=say(counted("board.party.secret_missions", party.secret_missions)),
            )
        )
        rows.append(f'<span class="stats">{html.escape(stats)}</span>')
        members = [_character(db, c.card, c.tapped, c.incapacitated) for c in party.characters]
        rows.append(
            fill(names, "terminal.party.characters", cards=", ".join(members))
            if members
            else html.escape(say(msg("board.party.no_characters")))
        )
        rows.extend(html.escape(x) for x in in_play_lines(party.in_play, db))
        if party.started:
            rows.append(fill(names, "terminal.party.started", cards=cards_html(db, party.started)))
        if party.completed:
            done = cards_html(db, party.completed)
            rows.append(fill(names, "terminal.party.completed", cards=done))
        if resisting:
            rows.append(_resisting(party, resisting, db))
    body = "".join(f"<div>{r}</div>" for r in rows)
    return f'{PARTY}<div class="party p{index}" data-seat="{index}"><h3>{top}</h3>{body}</div>'


def region_block(view: SeatView | None, region: RegionView, names: HtmlNames, db: CardDB) -> str:
    """One Region's row: its name and level, its Encounter as the reader may see it, what
    else lies there, and who is there."""
    known = region.preliminary or ""
    name = card_name(db, known) if known else ""
    encounter = html.escape(say(msg(f"terminal.encounter.{region.preliminary_state}", card=name)))
    if known and region.preliminary_state not in ("none", "face_down"):
        encounter = encounter.replace(html.escape(name), card_html(db, known), 1)
    extras = [html.escape(x) for x in region_extras(region, db)]
    if view is not None and region.own_traps:
        own = cards_html(db, region.own_traps)
        extras.append(fill(names, "replay.own_traps", cards=own))
    here = ", ".join(names.seat_html(p, bold=False) for p in region.parties)
    cells = [
        f"{card_html(db, region.card)} <small>{html.escape(level_text(region))}</small>",
        encounter,
        "<br>".join(extras),
        here,
    ]
    return REGION + "<tr>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>"


def foot_block(table: TableView, db: CardDB) -> str:
    """The decks' sizes and the discard piles' top cards."""
    parts = []
    if table.decks:
        decks = ", ".join(f"{deck_name(deck)} {n}" for deck, n in table.decks)
        parts.append(html.escape(say(msg("board.decks", decks=decks))))
    tops = [
        f"{html.escape(deck_name(deck))} {card_html(db, pile[-1])}"
        for deck, pile in table.discards
        if pile
    ]
    if tops:
        text = html.escape(say(msg("terminal.board.discards", tops="\x00")))
        parts.append(text.replace("\x00", ", ".join(tops)))
    else:
        parts.append(html.escape(say(msg("terminal.board.discards.empty"))))
    return FOOT + "".join(f"<p>{p}</p>" for p in parts)


def own_block(view: SeatView, names: HtmlNames, db: CardDB) -> str:
    """What the seat holds that the table does not see: its hand, secret missions, the cards
    offered to it and the Encounters it scouted."""
    rows = [
        fill(names, "replay.hand", cards=cards_html(db, view.hand)),
        fill(names, "replay.missions", cards=cards_html(db, view.missions)),
    ]
    if view.offered_characters:
        offered = cards_html(db, view.offered_characters)
        rows.append(fill(names, "replay.offered_characters", cards=offered))
    if view.offered_advantages:
        offered = cards_html(db, view.offered_advantages)
        rows.append(fill(names, "replay.offered_advantages", cards=offered))
    for region, encounter in view.scouted:
        rows.append(
            fill(
                names,
                "replay.scouted",
                card=card_html(db, encounter),
                region=card_html(db, region),
            )
        )
    title = fill(names, "replay.own", player=names.seat_html(view.seat))
    return OWN + f"<h3>{title}</h3>" + "".join(f"<div>{r}</div>" for r in rows)
