"""Reset (Discard) phase (R1-R5): discard, dismiss, leave an Organization, play Reset cards,
then the pick-up of what others let go. R1 (straighten, turn face up) runs in
:func:`engine.turn.start_turn`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.actions import Action
from engine.effects_runtime import own_turn_plays, play_step_action
from engine.game import handles, responds
from engine.party import PARTY_LIMIT, add_character, discard_card, room_in_hand
from engine.state import Frame

if TYPE_CHECKING:
    from engine.game import Game


@handles("reset_step")
def reset_step(g: Game, frame: Frame) -> None:
    if frame.stage == "done":
        g.pop()
        return
    name = frame.player or ""
    p = g.player(name)
    if p.turn_over:  # a party that sits out this turn (lose_next_turn) does nothing
        g.pop()
        return
    choices = ["done"]
    choices += [f"discard {c}" for c in p.hand]  # R2, R3
    if len(p.party) > 1:  # the last character cannot walk away
        choices += [f"dismiss {c.card}" for c in p.party]
    choices += [f"leave {c}" for c in p.in_play]
    choices += own_turn_plays(g, name, "reset")
    g.ask(name, "reset", "Reset phase: discard, dismiss, play Reset cards, or done (R2).", choices)


@responds("reset_step")
def answer_reset(g: Game, frame: Frame, player: str, action: Action) -> None:
    p = g.player(player)
    card = action.arg or ""
    if action.type == "done":
        frame.stage = "done"
    elif action.type == "discard":
        p.hand.remove(card)
        discard_card(g, card)
        g.s.discarded_by[card] = player
        g.emit("discard", f"{player} discards {g.db[card].name}.", player=player, card=card)
    elif action.type == "dismiss":
        p.party = [c for c in p.party if c.card != card]
        discard_card(g, card)
        g.s.dismissed.append(card)
        g.emit("dismiss", f"{player} dismisses {g.db[card].name}.", player=player, card=card)
    elif action.type == "leave":
        p.in_play.remove(card)
        discard_card(g, card)
        g.emit("leave", f"{player} gives up {g.db[card].name}.", player=player, card=card)
    else:
        play_step_action(g, player, action, "reset")


def _fewest(g: Game, size: dict[str, int]) -> str | None:
    """R5: the one player with the fewest; nobody when two or more tie."""
    low = min(size.values())
    at_low = [n for n, v in size.items() if v == low]
    return at_low[0] if len(at_low) == 1 else None


@handles("pickup")
def run_pickup(g: Game, frame: Frame) -> None:
    """R5: the player with the fewest characters may take a dismissed character; the player
    with the fewest Advantages may take an Advantage another player discarded."""
    s = g.s
    players = [n for n in s.seats if not g.player(n).lost]
    if frame.stage == "":
        frame.stage = "advantages"
        dismissed = [c for c in s.dismissed if c in s.discards["character"]]
        who = _fewest(g, {n: len(g.player(n).party) for n in players})
        if dismissed and who and len(g.player(who).party) < PARTY_LIMIT:
            g.ask(
                who,
                "pickup",
                "You have the fewest characters: take a dismissed one (R5)?",
                ["pass", *(f"take {c}" for c in dismissed)],
                "pass",
            )
        return
    if frame.stage == "advantages":
        frame.stage = "done"
        who = _fewest(g, {n: len(g.player(n).hand) for n in players})
        offered = [
            c for c, by in s.discarded_by.items() if by != who and c in s.discards["advantage"]
        ]
        if offered and who and room_in_hand(g.player(who)):
            g.ask(
                who,
                "pickup",
                "You have the fewest Advantages: take a discarded one (R5)?",
                ["pass", *(f"take {c}" for c in offered)],
                "pass",
            )
        return
    g.pop()


@responds("pickup")
def answer_pickup(g: Game, frame: Frame, player: str, action: Action) -> None:
    if action.type != "take" or action.arg is None:
        return
    p = g.player(player)
    card = action.arg
    if g.db[card].type == "character":
        g.s.discards["character"].remove(card)
        add_character(g, p, card)
    else:
        g.s.discards["advantage"].remove(card)
        p.hand.append(card)
        g.emit("take", f"{player} takes {g.db[card].name}.", player=player, card=card)
