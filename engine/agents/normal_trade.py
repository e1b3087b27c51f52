"""The normal AI's trades (I1, X3; issue 20).

A card whose skill no character of this party has is worth little here (C4: a Skill card
needs a character with the skill) and more to a party with one: the heuristic offers such a
card for one Advantage of the partner's choice, to a party that has the skill, and answers
an offer by comparing what it would get with what it would give. It never trades with a party
ahead of it in missions (helping the leader is how one loses), never gives a character, and
never asks for one. The offer is built over several prompts (give, ask, send); the plan is
read again from the state each time, so the agent needs no memory.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.agents.normal_seat import arg
from engine.cards import AdvantageCard, CharacterCard

if TYPE_CHECKING:
    from engine.agents.normal_seat import Seat

#: An answer accepts when it gains at least this much.
ACCEPT_MARGIN = 0.2


def _skills_of(me: Seat, seat: str) -> set[str]:
    skills: set[str] = set()
    for c in me.party(seat).characters:
        card = me.db.by_id.get(c.card)
        if isinstance(card, CharacterCard) and not c.incapacitated:
            skills.update(card.skills)
    return skills


def _ahead(me: Seat, seat: str) -> bool:
    return len(me.party(seat).completed) > len(me.me.completed)


def trade_plan(me: Seat, partners: list[str]) -> tuple[str, str] | None:
    """(partner, card to give): this seat's least useful Skill card to a party that can use
    it and has a card to pay with."""
    best: tuple[float, str, str] | None = None
    for card_id in me.view.hand:
        card = me.db.by_id.get(card_id)
        if not isinstance(card, AdvantageCard) or card.skill is None or me.has_skill(card.skill):
            continue
        worth = me.card_worth(card_id)
        for seat in partners:
            other = me.party(seat)
            if other.lost or other.hand_count == 0 or _ahead(me, seat):
                continue
            if card.skill in _skills_of(me, seat):
                key = (worth, seat, card_id)
                if best is None or key < best:
                    best = key
    return (best[1], best[2]) if best is not None else None


def offer_choice(me: Seat, actions: list[str]) -> str | None:
    """An ``offer`` of the interaction step worth making, if any."""
    partners = [arg(a) for a in actions if a.startswith("offer ")]
    plan = trade_plan(me, partners)
    return f"offer {plan[0]}" if plan is not None else None


def build_offer(me: Seat, actions: list[str]) -> str:
    """The next step of building the offer: give the card, ask for one, send."""
    frame = me.stack_frame("trade")
    if frame is None:
        return "withdraw"
    data = frame.get("data", {})
    partner = str(frame.get("other"))
    plan = trade_plan(me, [partner])
    if plan is None:
        return "withdraw"
    give = f"give {plan[1]}"
    if not data.get("give"):
        return give if give in actions else "withdraw"
    if not data.get("ask_hand") and "ask hand" in actions:
        return "ask hand"
    return "send" if "send" in actions else "withdraw"


def answer_offer(me: Seat, actions: list[str]) -> str:
    """Accept an offer that gives this seat more than it costs, from a party not ahead."""
    frame = me.stack_frame("trade")
    if frame is None or "accept" not in actions:
        return "decline"
    offerer = str(frame.get("player"))
    data = frame.get("data", {})
    if data.get("ask") or _ahead(me, offerer):
        return "decline"  # never gives a character, never helps the leader
    # The sealed table shows the partner the cards an offer sent to him names (offered_to).
    give = list(data.get("give", []))
    if not give:
        return "decline"
    gets = 0.0
    for card_id in give:
        card = me.db.by_id.get(card_id)
        if isinstance(card, CharacterCard):
            return "decline"  # a character changes the party; the heuristic does not plan it
        gets += me.card_worth(card_id)
    asked = int(data.get("ask_hand", 0))
    pays = sorted(me.card_worth(h) for h in me.view.hand)[:asked]
    if len(pays) < asked:
        return "decline"
    return "accept" if gets - sum(pays) >= ACCEPT_MARGIN else "decline"
