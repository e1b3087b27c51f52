"""The expansions' special Advantages and guarded Regions: Incidents (A4), Traps (A5, M9),
Factions and Discredit (A6, E6), and the trap guards of Twilight of the Gods' Regions.

Playing these cards is :mod:`engine.rules.play`'s (all in the Reset phase, R2); this module
holds what happens after: the end of the Movement phase (M9: Traps where a party stands, then
trap guards, then Incidents that act at that moment), the end of the turn for Incidents (A4),
and the Discredit reward (E6). Artifacts (A7) change hands in the Interaction phase (I4,
:mod:`engine.rules.interaction`); monster guards are met on entering a Region
(:mod:`engine.rules.movement`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.actions import Action
from engine.flow import handles, responds
from engine.rules.interpreter import run_effects
from engine.rules.party import discard_card, faction, lose_faction, speed, strength
from engine.rules.regions import active_region, guard_stands
from engine.state import Frame, Player
from engine.zones import Zone, traps_zone

if TYPE_CHECKING:
    from engine.game import Game


# ---------------------------------------------------------------------- the end of Movement (M9)


def _standing(g: Game, region: str) -> list[str]:
    """The parties standing in ``region``, in turn order (M9: where a party stands)."""
    return [n for n in g.s.order if not g.player(n).lost and g.player(n).region == region]


def _movement_end_abilities(g: Game, name: str) -> list[tuple[str, int]]:
    """(Incident, ability index) of ``name``'s Incidents in play that act at the end of the
    Movement phase (A4, M9)."""
    found: list[tuple[str, int]] = []
    for card in g.player(name).in_play:
        adv = g.db.advantage(card)
        if adv.kind == "incident":
            found += [(card, i) for i, a in enumerate(adv.abilities) if a.timing == "movement_end"]
    return found


def after_movement_queue(g: Game) -> list[list[Any]]:
    """M9, in order: the Traps of every Region where a party stands (Regions as they lie on
    the table, Traps in the order they were laid), then the trap guards of such Regions (each
    party there in turn order), then the Incidents that act at the end of the Movement phase
    (players in turn order). Traps take effect before Incidents."""
    queue: list[list[Any]] = []
    for r in g.s.regions:
        if _standing(g, r.card):
            queue += [["trap", r.card, t.card, t.owner] for t in r.traps]
    for r in g.s.regions:
        if guard_stands(g, r.card, "trap"):
            queue += [["guard", r.card, n] for n in _standing(g, r.card)]
    for name in g.s.order:
        if not g.player(name).lost:
            queue += [["incident", name, c, i] for c, i in _movement_end_abilities(g, name)]
    return queue


@handles("after_movement")
def run_after_movement(g: Game, frame: Frame) -> None:
    """M9: once every party has moved, the Traps where a party stands are revealed and take
    effect, then the trap guards, then the Incidents (see :func:`after_movement_queue`)."""
    if frame.stage == "":
        frame.stage = "resolving"
        frame.data = {"queue": after_movement_queue(g)}
    queue = frame.data["queue"]
    while queue and not g.over:
        item = queue.pop(0)
        if item[0] == "trap":
            _reveal_trap(g, item[1], item[2], item[3])
            return  # its effects run first (child frames)
        if item[0] == "guard" and guard_stands(g, item[1], "trap"):
            _check_trap_guard(g, item[1], g.player(item[2]))
            return
        if item[0] == "incident":
            run_effects(g, item[1], item[2], ["abilities", item[3], "effects"])
            return
    g.pop()


def _reveal_trap(g: Game, region: str, card: str, owner: str) -> None:
    """M9: the Trap is turned face up, discarded, and its effect applies at its Region (its
    ``parties_in_region`` are the parties standing there; ``self`` is the player who laid it)."""
    discard_card(g, card, traps_zone(region, owner))
    trap = g.db.advantage(card)
    g.emit(
        "trap_revealed",
        f"A Trap springs at {g.db[region].name}: {trap.name} ({owner}'s): {trap.text}",
        player=owner,
        region=region,
        card=card,
    )
    reveal = [i for i, a in enumerate(trap.abilities) if a.timing == "on_reveal" and a.effects]
    for i in reversed(reveal):  # a stack: the first ability runs first
        run_effects(g, owner, card, ["abilities", i, "effects"], region=region)


def _check_trap_guard(g: Game, region: str, p: Player) -> None:
    """TotG: a party standing in a Region guarded by a trap makes its check; success beats the
    guard for good, failure brings its effects on the party."""
    guard = g.db.region(region).guard
    assert guard is not None and guard.difficulty is not None
    die = g.die()
    bonus = speed(g, p) if guard.check == "speed" else strength(g, p)
    total = die + bonus
    ok = total >= guard.difficulty
    g.emit(
        "guard_check",
        f"{p.name} faces {guard.name} at {g.db[region].name}: 🎲 {die} + "
        f"{guard.check.capitalize()} {bonus} = {total} vs {guard.difficulty}: "
        f"{'beaten' if ok else 'caught'}.",
        player=p.name,
        region=region,
        die=die,
        total=total,
        at_least=guard.difficulty,
        success=ok,
    )
    if ok:
        beat_guard(g, p, region)
    elif guard.effects:
        run_effects(g, p.name, region, ["guard", "effects"], region=region)


def beat_guard(g: Game, p: Player, region: str) -> None:
    """TotG: the Region's guard is beaten and stays so while the Region is in play; its
    ``reward`` (if any) goes to the party that beat it."""
    slot = active_region(g, region)
    assert slot is not None
    slot.guarded = False
    guard = g.db.region(region).guard
    assert guard is not None
    g.emit(
        "guard_beaten",
        f"{p.name} overcomes {guard.name}: {g.db[region].name} is no longer guarded.",
        player=p.name,
        region=region,
    )
    if guard.reward:
        run_effects(g, p.name, region, ["guard", "reward"], region=region)


# ---------------------------------------------------------------------- Incidents (A4)


def end_incidents(g: Game) -> None:
    """A4: an Incident lasts until the end of the turn: then it is discarded."""
    for name in g.s.seats:
        p = g.player(name)
        for card in [c for c in p.in_play if g.db.advantage(c).kind == "incident"]:
            discard_card(g, card, Zone("in_play", name))
            g.emit("incident_over", f"{g.db[card].name} ends.", player=name, card=card)


# ---------------------------------------------------------------------- Discredit (E6)


def discredit_victims(g: Game, p: Player) -> list[str]:
    """E6: the other players Discredit could strike (they have a Faction); none when ``p`` has
    no Advantage to pay with."""
    if not p.hand:
        return []
    return [n for n in g.others(p.name) if faction(g, g.player(n)) is not None]


@handles("discredit")
def run_discredit(g: Game, frame: Frame) -> None:
    """E6 Discredit: the player names another player with a Faction, discards an Advantage,
    and that player discards his Faction."""
    p = g.player(frame.player or "")
    if frame.stage == "":
        victims = discredit_victims(g, p)
        if not victims:
            g.pop()
            return
        if len(victims) == 1:  # nobody to choose between: no question
            frame.other, frame.stage = victims[0], "pay"
            return
        frame.stage = "victim"
        g.ask(
            p.name, "discredit", "Discredit: choose whose Faction falls (E6).",
            [f"pick {n}" for n in victims], data={"variant": "victim"},
        )  # fmt: skip
        return
    if frame.stage == "pay":
        frame.stage = "paying"
        g.ask(
            p.name,
            "discredit",
            f"Discredit: choose the Advantage you discard to strike {frame.other} (E6).",
            [f"pick {c}" for c in p.hand],
            data={"variant": "pay", "other": frame.other},
        )
        return
    g.pop()


@responds("discredit")
def answer_discredit(g: Game, frame: Frame, player: str, action: Action) -> None:
    if frame.stage == "victim":
        frame.other, frame.stage = action.arg, "pay"
        return
    card = action.arg or ""
    discard_card(g, card, Zone("hand", player))
    g.emit("discard", f"{player} discards {g.db[card].name}.", player=player, card=card)
    victim = g.player(frame.other or "")
    g.emit(
        "discredit",
        f"{player} discredits {victim.name}, who must leave his Faction (E6).",
        player=player,
        other=victim.name,
    )
    lose_faction(g, victim)
    frame.stage = "done"
