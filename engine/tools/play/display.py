"""What the terminal prints: the board, one seat's own cards, a decision, the end, in the
session's language.

Everything comes from a seat's :class:`~engine.views.SeatView` (the public table plus its own
hand, secret missions, offers and scouted Encounters) and the card database (public text):
a human seat is never shown another seat's hidden cards. Every word is the catalogs', through
:mod:`wording` (the words the Discord bot says of the same data) and the terminal's own
``terminal.*`` messages.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.actions import parse_action
from engine.cards import CardDB, EncounterCard
from engine.tools.play.cards import exploration_text, reward_text
from engine.views import ChoiceView, PartyView, PromptView, RegionView, SeatView, TableView
from wording import PlainNames, choice_words, ending_message, option_card, prompt_message
from wording.cards import card_name
from wording.table import deck_name, in_play_lines, level_text, phase_text, region_extras
from words.plain import count, line, said

#: Actions that cannot be taken back and change much: asked again before they are applied
#: (a typed-ahead number must not reveal the Final mission or send a character away). Each
#: says why with its ``terminal.confirm.<action>`` message.
CONFIRM = frozenset({"reveal_final", "dismiss", "leave"})
#: Actions listed after the others, so that they are never choice 1 (the number a player
#: types ahead when the previous decision answered itself).
LAST = frozenset({"reveal_final"})


def names_of(table: TableView) -> PlainNames:
    """The game's seats, named by their ids."""
    return PlainNames(tuple(p.seat for p in table.parties))


def _names(db: CardDB, cards: Sequence[str]) -> str:
    return ", ".join(card_name(db, c) for c in cards) if cards else line("hand.none")


def _character(db: CardDB, card: str, tapped: bool, incapacitated: bool) -> str:
    marks = [
        line(f"board.legend.{mark}")
        for mark, on in (("turned", tapped), ("incapacitated", incapacitated))
        if on
    ]
    return card_name(db, card) + (f" ({', '.join(marks)})" if marks else "")


def _resisting(view: SeatView, party: PartyView, db: CardDB) -> str:
    resisting = view.resisting if party.seat == view.seat else party.resisting
    held = [
        count(
            "terminal.party.resisting.one",
            n,
            mission=line("terminal.party.secret_mission") if m == "secret" else card_name(db, m),
        )
        for m, n in resisting
    ]
    return line("terminal.party.resisting", missions=", ".join(held)) if held else ""


def _party_lines(view: SeatView, db: CardDB, seat: str) -> list[str]:
    """The lines of one party on the board."""
    party = view.table.party(seat)
    who = line("terminal.party.you", player=seat) if seat == view.seat else seat
    if party.lost:
        return [f"  {who}: {line('board.flag.out')}"]
    if party.hidden:
        return [f"  {who}: {line('board.party.choosing')}"]
    where = line("terminal.party.at", region=card_name(db, party.region)) if party.region else ""
    flags = [
        line(f"board.flag.{flag}")
        for flag, on in (("resting", party.resting), ("turn_over", party.turn_over))
        if on
    ]
    state = line(
        "terminal.party",
        strength=party.strength,
        speed=party.speed,
        advantages=count("board.party.advantages", party.hand_count),
        missions=count("board.party.secret_missions", party.secret_missions),
    )
    lines = [f"  {who}{where}: {state}" + "".join(f", {f}" for f in flags)]
    members = [_character(db, c.card, c.tapped, c.incapacitated) for c in party.characters]
    cast = line("terminal.party.characters", cards=", ".join(members)) if members else None
    lines.append(f"    {cast or line('board.party.no_characters')}")
    lines.extend(f"    {x}" for x in in_play_lines(party.in_play, db))
    if party.started:
        lines.append(f"    {line('terminal.party.started', cards=_names(db, party.started))}")
    if party.completed:
        lines.append(f"    {line('terminal.party.completed', cards=_names(db, party.completed))}")
    resisting = _resisting(view, party, db)
    if resisting:
        lines.append(f"    {resisting}")
    return lines


def phase_line(table: TableView) -> str:
    """The turn and phase, as a header."""
    return line("terminal.phase", turn=table.turn, phase=phase_text(table.phase))


def _encounter_state(db: CardDB, region: RegionView, note: bool = False) -> str:
    """A Region's Preliminary Encounter as the seat may see it (on the board, or in a note
    after a choice, where a monster says its Strength)."""
    known = region.preliminary or ""
    name = _monster(db, known) if note else card_name(db, known)
    return line(f"terminal.encounter.{region.preliminary_state}", card=name)


def _region_line(view: SeatView, db: CardDB, region: RegionView) -> str:
    extra = [said(x) for x in region_extras(region, db)]
    if region.own_traps:
        extra.append(line("terminal.region.own_traps", cards=_names(db, region.own_traps)))
    if region.parties:
        extra.append(line("terminal.region.parties", players=", ".join(region.parties)))
    head = f"{card_name(db, region.card)} ({level_text(region)})"
    return f"  {head}: {_encounter_state(db, region)}" + "".join(f"; {e}" for e in extra)


def render_board(view: SeatView, db: CardDB) -> str:
    """The board as ``view``'s seat sees it: the public table plus the seat's own cards."""
    table: TableView = view.table
    lines = [phase_line(table)]
    if table.order:
        lines.append(f"{line('board.turn_order')} {', '.join(table.order)}")
    # The size of the Final mission deck, not a countdown: that starts at the reveal.
    final = (
        card_name(db, table.final_mission)
        if table.final_mission
        else line("board.final_mission.hidden", n=table.final_deck)
    )
    crisis = "" if table.crisis is None else f" · {line('board.crisis_in', turns=table.crisis)}"
    lines.append(f"{line('board.final_mission')} {final}{crisis}")
    lines.append(line("terminal.board.parties"))
    for party in table.parties:
        lines.extend(_party_lines(view, db, party.seat))
    if table.regions:
        lines.append(f"{line('board.field.regions')}:")
    lines.extend(_region_line(view, db, region) for region in table.regions)
    if table.decks:
        decks = ", ".join(f"{deck_name(deck)} {n}" for deck, n in table.decks)
        lines.append(line("board.decks", decks=decks))
    tops = [f"{deck_name(deck)} {card_name(db, pile[-1])}" for deck, pile in table.discards if pile]
    lines.append(
        line("terminal.board.discards", tops=", ".join(tops))
        if tops
        else line("terminal.board.discards.empty")
    )
    lines.extend(render_yours(view, db, party=False).splitlines())
    return "\n".join(lines)


def render_yours(view: SeatView, db: CardDB, *, party: bool = True) -> str:
    """What is the seat's own: its party (``party``), hand, secret missions, offers and the
    Encounters it scouted. Printed again whenever it changes."""
    lines = [line("terminal.yours"), *_party_lines(view, db, view.seat)] if party else []
    lines.append(line("terminal.yours.hand", cards=_names(db, view.hand)))
    lines.append(line("terminal.yours.missions", cards=_names(db, view.missions)))
    if view.offered_characters:
        lines.append(line("terminal.yours.characters", cards=_names(db, view.offered_characters)))
    if view.offered_advantages:
        lines.append(line("terminal.yours.advantages", cards=_names(db, view.offered_advantages)))
    for region, encounter in view.scouted if party else ():
        lines.append(
            line(
                "terminal.yours.scouted",
                card=card_name(db, encounter),
                region=card_name(db, region),
            )
        )
    return "\n".join(lines)


def render_discards(table: TableView, db: CardDB) -> str:
    """Every discard pile, top card first: they are public, and some cards take from them
    (Relic Market, a character taken back from the discard pile, the R5 pick-up)."""
    lines = [line("terminal.discards")]
    for deck, pile in table.discards:
        lines.append(f"  {deck_name(deck)}: {_names(db, list(reversed(pile)))}")
    return "\n".join(lines)


def order(prompt: PromptView) -> list[ChoiceView]:
    """The choices in the order they are numbered: the engine's, with :data:`LAST` at the
    end."""
    first = [c for c in prompt.choices if parse_action(c.action).type not in LAST]
    return first + [c for c in prompt.choices if parse_action(c.action).type in LAST]


def prompt_text(view: SeatView, db: CardDB) -> str:
    """The seat's decision, worded from its kind and data. A card's "choose one" lists its
    options numbered from 0 in its sentence, above a menu numbered from 1: the menu alone
    says them."""
    prompt = view.prompt
    assert prompt is not None
    if prompt.kind == "pick" and prompt.data.variant == "choose":
        return line("terminal.choose_one")
    return said(prompt_message(prompt.kind, prompt.data, names_of(view.table), db))


def choice_label(choice: ChoiceView, view: SeatView, db: CardDB) -> str:
    """A choice's label, worded from its action and data (what its card prints, in the
    language), seats by their ids."""
    region = view.table.party(view.seat).region
    return said(choice_words(choice, db, option_card(choice, view.prompt, region)))


def choice_note(choice: ChoiceView, view: SeatView, db: CardDB) -> str:
    """What a choice does when its label does not say it: where a move leads, a Region's
    reward (E6)."""
    action = parse_action(choice.action)
    party = view.table.party(view.seat)
    region = party.region if not party.hidden else None
    if action.type == "go":
        return _region_note(view, db, action.arg or "")
    if action.type == "explore_new" and not action.arg:
        left = dict(view.table.decks).get("region", 0)
        return line("terminal.note.explore_new", left=left)
    if action.type == "reward" and region and (action.arg or "").isdigit():
        rewards = db.region(region).rewards
        if int(action.arg or 0) < len(rewards):
            return reward_text(db.region(region), int(action.arg or 0))[1]
    return ""


def _monster(db: CardDB, card: str) -> str:
    """An Encounter's name, with its Strength when it is a monster."""
    found = db.by_id.get(card)
    if isinstance(found, EncounterCard) and found.strength is not None:
        return line("terminal.note.monster", card=card_name(db, card), strength=found.strength)
    return card_name(db, card)


def _region_note(view: SeatView, db: CardDB, card: str) -> str:
    """A Region a party may go to, as the board shows it: level, Encounter, who is there."""
    for r in view.table.regions:
        if r.card != card:
            continue
        note = line("terminal.note.region", level=r.level, encounter=_encounter_state(db, r, True))
        here = [p for p in r.parties if p != view.seat]
        if view.seat in r.parties:
            note = line("terminal.note.here", note=note)
        if here:
            note = line("terminal.note.there", note=note, players=", ".join(here))
        return note
    return ""


def roll_meaning(view: SeatView, db: CardDB, roll: int | None) -> str:
    """For the window after an exploration roll: what the die means on that Region's table,
    so that a player deciding whether to cancel it knows what he cancels."""
    prompt = view.prompt
    if prompt is None or prompt.window_kind != "exploration_roll" or roll is None:
        return ""
    seat = prompt.window_about[0] if prompt.window_about else view.seat
    region = view.table.party(seat).region
    if not region or region not in db.by_id:
        return ""
    meaning = exploration_text(db.region(region), roll).rstrip(".")
    return line("terminal.roll_meaning", die=roll, region=card_name(db, region), meaning=meaning)


def render_prompt(view: SeatView, db: CardDB, roll: int | None = None) -> str:
    """The decision with its choices numbered from 1 (each worded from its action, with
    where a move leads, what a reward does and what an exploration roll means)."""
    prompt = view.prompt
    assert prompt is not None
    lines = [line("terminal.decision", player=prompt.player, decision=prompt_text(view, db))]
    meaning = roll_meaning(view, db, roll)
    if meaning:
        lines.append(meaning)
    if prompt.kind == "reveal_final":
        lines.append(line("terminal.reveal_final"))
    if prompt.window_kind == "battle_start" and prompt.window_about:
        # What a Battle card would change: the sides' Strength before the dice (B1).
        sides = [view.table.party(seat) for seat in prompt.window_about]
        strengths = ", ".join(f"{p.seat} {p.strength}" for p in sides)
        lines.append(line("terminal.battle_strengths", sides=strengths))
    choices = order(prompt)
    width = len(str(len(choices)))
    for i, c in enumerate(choices, 1):
        note = choice_note(c, view, db)
        label = choice_label(c, view, db)
        lines.append(f"  {i:>{width}}. {label}" + (f" ({note})" if note else ""))
    return "\n".join(lines)


def render_end(table: TableView) -> str:
    """How the game ended, from the public table."""
    how = said(ending_message(table.ending))
    if table.winner:
        return line("terminal.game_over.won", player=table.winner, how=how)
    return line("terminal.game_over.nobody", how=how)
