"""What the terminal prints: the board, one seat's own cards, a decision, the end.

Everything comes from a seat's :class:`~engine.views.SeatView` (the public table plus its own
hand, secret missions, offers and scouted Encounters) and the card database (public text):
a human seat is never shown another seat's hidden cards.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from engine.actions import parse_action
from engine.cards import CardDB, EncounterCard
from engine.endings import ENDINGS
from engine.tools.play.cards import card_name, exploration_text, reward_text
from engine.views import ChoiceView, PromptView, SeatView, TableView

#: Actions that cannot be taken back and change much: asked again before they are applied
#: (a typed-ahead number must not reveal the Final mission or send a character away).
CONFIRM = {
    "reveal_final": "Revealing the Final mission starts the Crisis! countdown for everybody",
    "dismiss": "A dismissed character leaves your party for the discard pile",
    "leave": "A card you leave goes to the discard pile",
}
#: Actions listed after the others, so that they are never choice 1 (the number a player
#: types ahead when the previous decision answered itself).
LAST = frozenset({"reveal_final"})


def _names(db: CardDB, cards: Sequence[str]) -> str:
    return ", ".join(card_name(db, c) for c in cards) if cards else "none"


def _party_lines(view: SeatView, db: CardDB, seat: str) -> list[str]:
    """The lines of one party on the board."""
    party = view.table.party(seat)
    you = " (you)" if seat == view.seat else ""
    if party.lost:
        return [f"  {seat}{you}: out of the game"]
    if party.hidden:
        return [f"  {seat}{you}: choosing a leader"]
    where = f" at {card_name(db, party.region)}" if party.region else ""
    state = "".join(
        [", resting" if party.resting else "", ", turn over" if party.turn_over else ""]
    )
    lines = [
        f"  {seat}{you}{where}: Strength {party.strength}, Speed {party.speed}, "
        f"{party.hand_count} Advantage(s) in hand, {party.secret_missions} secret "
        f"mission(s){state}"
    ]
    members = []
    for c in party.characters:
        marks = [m for m, on in (("turned", c.tapped), ("incapacitated", c.incapacitated)) if on]
        members.append(card_name(db, c.card) + (f" ({', '.join(marks)})" if marks else ""))
    lines.append(f"    characters: {', '.join(members) or 'none'}")
    if party.in_play:
        lines.append(f"    in play: {_names(db, party.in_play)}")
    if party.started:
        lines.append(f"    missions started: {_names(db, party.started)}")
    if party.completed:
        lines.append(f"    missions completed: {_names(db, party.completed)}")
    resisting = view.resisting if seat == view.seat else party.resisting
    if resisting:
        held = ", ".join(
            f"{'a secret mission' if m == 'secret' else card_name(db, m)} ({n} turn(s))"
            for m, n in resisting
        )
        lines.append(f"    resisting: {held}")
    return lines


def phase_line(table: TableView) -> str:
    """The turn and phase, as a header."""
    return f"=== Turn {table.turn} · {table.phase} phase ==="


def render_board(view: SeatView, db: CardDB) -> str:
    """The board as ``view``'s seat sees it: the public table plus the seat's own cards."""
    table: TableView = view.table
    lines = [phase_line(table)]
    if table.order:
        lines.append("Order of play: " + ", ".join(table.order))
    final = (
        card_name(db, table.final_mission)
        if table.final_mission
        # The size of the Final mission deck, not a countdown: that starts at the reveal.
        else f"not revealed yet (the top of a deck of {table.final_deck})"
    )
    crisis = "" if table.crisis is None else f" · Crisis countdown: {table.crisis}"
    lines.append(f"Final mission: {final}{crisis}")
    lines.append("Parties:")
    for party in table.parties:
        lines.extend(_party_lines(view, db, party.seat))
    if table.regions:
        lines.append("Regions:")
    for region in table.regions:
        level = f"level {region.level}"
        if region.level != region.printed_level and region.printed_level:
            level += f" (printed {region.printed_level})"
        encounter = {
            "none": "no Encounter",
            "face_down": "Encounter face down",
            "revealed": f"Encounter {card_name(db, region.preliminary or '')}",
            "known": f"Encounter face down (you scouted {card_name(db, region.preliminary or '')})",
        }[region.preliminary_state]
        extra = [f"guard {region.guard}"] if region.guard != "none" else []
        if region.traps:
            own = f" (yours: {_names(db, region.own_traps)})" if region.own_traps else ""
            extra.append(f"{region.traps} Trap(s){own}")
        if region.parties:
            extra.append("parties: " + ", ".join(region.parties))
        lines.append(
            f"  {card_name(db, region.card)} ({level}): {encounter}"
            + "".join(f"; {e}" for e in extra)
        )
    if table.decks:
        lines.append("Decks: " + ", ".join(f"{deck} {n}" for deck, n in table.decks))
    tops = [f"{deck} {card_name(db, pile[-1])}" for deck, pile in table.discards if pile]
    lines.append("Discard piles, top card: " + (", ".join(tops) or "all empty"))
    lines.extend(render_yours(view, db, party=False).splitlines())
    return "\n".join(lines)


def render_yours(view: SeatView, db: CardDB, *, party: bool = True) -> str:
    """What is the seat's own: its party (``party``), hand, secret missions, offers and the
    Encounters it scouted. Printed again whenever it changes."""
    lines = ["Your party and cards:", *_party_lines(view, db, view.seat)] if party else []
    lines.append(f"Your hand: {_names(db, view.hand)}")
    lines.append(f"Your secret missions: {_names(db, view.missions)}")
    if view.offered_characters:
        lines.append(f"Characters offered to you: {_names(db, view.offered_characters)}")
    if view.offered_advantages:
        lines.append(f"Advantages offered to you: {_names(db, view.offered_advantages)}")
    for region, encounter in view.scouted if party else ():
        lines.append(
            f"You scouted {card_name(db, encounter)} at {card_name(db, region)} (face down)"
        )
    return "\n".join(lines)


def render_discards(table: TableView, db: CardDB) -> str:
    """Every discard pile, top card first: they are public, and some cards take from them
    (Relic Market, a character taken back from the discard pile, the R5 pick-up)."""
    lines = ["Discard piles (top card first):"]
    for deck, pile in table.discards:
        lines.append(f"  {deck}: {_names(db, list(reversed(pile)))}")
    return "\n".join(lines)


def order(prompt: PromptView) -> list[ChoiceView]:
    """The choices in the order they are numbered: the engine's, with :data:`LAST` at the
    end."""
    first = [c for c in prompt.choices if parse_action(c.action).type not in LAST]
    return first + [c for c in prompt.choices if parse_action(c.action).type in LAST]


def prompt_text(prompt: PromptView) -> str:
    """The decision's text. A card's "choose one" lists its options numbered from 0 in the
    engine's text, above a menu numbered from 1: the menu alone says it."""
    listed = " / ".join(f"{i}: {c.label}" for i, c in enumerate(prompt.choices))
    if prompt.kind == "pick" and (
        prompt.text == listed or re.fullmatch(r"0: .*( / \d+: .*)+", prompt.text)
    ):
        return "Choose one:"
    return prompt.text


def choice_note(choice: ChoiceView, view: SeatView, db: CardDB) -> str:
    """What a choice does when its label does not say it: a Region's reward (E6)."""
    action = parse_action(choice.action)
    region = view.table.party(view.seat).region if not view.table.party(view.seat).hidden else None
    if action.type == "go":
        return _region_note(view, db, action.arg or "")
    if action.type == "explore_new" and not action.arg:
        left = dict(view.table.decks).get("region", 0)
        return (
            f"the top card of the Region deck, {left} left: your party enters it at once "
            "and meets an Encounter drawn for it, M4"
        )
    if action.type == "reward" and region and (action.arg or "").isdigit():
        rewards = db.region(region).rewards
        if int(action.arg or 0) < len(rewards):
            return reward_text(db.region(region), int(action.arg or 0))[1]
    return ""


def _encounter(db: CardDB, card: str) -> str:
    """An Encounter's name, with its Strength when it is a monster."""
    found = db.by_id.get(card)
    if isinstance(found, EncounterCard) and found.strength is not None:
        return f"{found.name}, a monster of Strength {found.strength}"
    return card_name(db, card)


def _region_note(view: SeatView, db: CardDB, card: str) -> str:
    """A Region a party may go to, as the board shows it: level, Encounter, who is there."""
    for r in view.table.regions:
        if r.card != card:
            continue
        encounter = {
            "none": "no Encounter",
            "face_down": "an Encounter face down",
            "revealed": f"Encounter {_encounter(db, r.preliminary or '')}",
            "known": f"an Encounter face down (you scouted {_encounter(db, r.preliminary or '')})",
        }[r.preliminary_state]
        here = [p for p in r.parties if p != view.seat]
        stay = "you are here; " if view.seat in r.parties else ""
        there = f"; {', '.join(here)} there" if here else ""
        return f"{stay}level {r.level}, {encounter}{there}"
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
    return (
        f"The die shows {roll} at {card_name(db, region)}: "
        f"{exploration_text(db.region(region), roll).rstrip('.')}."
    )


def render_prompt(view: SeatView, db: CardDB, roll: int | None = None) -> str:
    """The decision with its choices numbered from 1 (the engine's labels, with what a
    reward does and what an exploration roll means)."""
    prompt = view.prompt
    assert prompt is not None
    lines = [f"{prompt.player}, your decision: {prompt_text(prompt)}"]
    meaning = roll_meaning(view, db, roll)
    if meaning:
        lines.append(meaning)
    if prompt.kind == "reveal_final":
        lines.append(
            "Once revealed, the Final mission may be attempted by anyone with a completed "
            "Basic mission, and its Crisis! countdown starts: at 0, whoever has no completed "
            "Basic mission loses (F3-F6)."
        )
    if prompt.window_kind == "battle_start" and prompt.window_about:
        # What a Battle card would change: the sides' Strength before the dice (B1).
        sides = [view.table.party(seat) for seat in prompt.window_about]
        lines.append(
            "Strength before the dice: " + ", ".join(f"{p.seat} {p.strength}" for p in sides) + "."
        )
    choices = order(prompt)
    width = len(str(len(choices)))
    for i, c in enumerate(choices, 1):
        note = choice_note(c, view, db)
        lines.append(f"  {i:>{width}}. {c.label}" + (f" ({note})" if note else ""))
    return "\n".join(lines)


def render_end(table: TableView) -> str:
    """How the game ended, from the public table."""
    labels: dict[str, str] = {key: text for key, text in ENDINGS.items()}
    ending = labels.get(table.ending, table.ending) if table.ending else "the game ended"
    winner = f"{table.winner} wins" if table.winner else "nobody wins"
    return f"=== Game over: {winner} ({ending}) ==="
