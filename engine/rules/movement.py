"""Movement phase (M1-M8, X1, O1): go to an active Region, explore a new one, or rest."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from engine import zones
from engine.actions import Action
from engine.flow import handles, responds
from engine.rules.advantages import beat_guard
from engine.rules.interpreter import run_effects
from engine.rules.party import add_modifier, discard_card, draw, end_turn, top_card
from engine.rules.play import own_turn_plays, play_step_action
from engine.rules.regions import (
    active_region,
    can_explore_new,
    destinations,
    guard_stands,
    lay_out,
    max_regions,
    new_region_choices,
)
from engine.rules.sets import regions_to_reveal
from engine.rules.windows import open_window
from engine.state import Frame, Player, Region
from engine.zones import Zone

if TYPE_CHECKING:
    from engine.game import Game

REST_BONUS = 2  # M6


@handles("movement_step")
def movement_step(g: Game, frame: Frame) -> None:
    if frame.stage == "done" or frame.data.get("moved") or g.player(frame.player or "").turn_over:
        g.pop()
        return
    name = frame.player or ""
    choices = [f"go {r}" for r in destinations(g, name)]
    if can_explore_new(g):
        choices += [f"explore_new {r}" if r else "explore_new" for r in new_region_choices(g)]
    choices.append("rest")
    choices += own_turn_plays(g, name, "movement")
    g.ask(
        name,
        "movement",
        "Movement phase: go to a Region, explore a new one, or rest (M1).",
        choices,
        default="rest",
    )


@responds("movement_step")
def answer_movement(g: Game, frame: Frame, player: str, action: Action) -> None:
    p = g.player(player)
    if action.type == "go":
        frame.stage = "done"
        g.push("move", player=player, region=action.arg)
    elif action.type == "explore_new":
        frame.stage = "done"
        g.push("explore_new", player=player, region=action.arg)
    elif action.type == "rest":
        add_modifier(g, p, "strength", REST_BONUS, "next_turn", "rest")
        add_modifier(g, p, "speed", REST_BONUS, "next_turn", "rest")
        p.arrived = False  # X1: a resting party stays where it is and does not explore
        g.emit("rest", f"{player}'s party rests (+2 Strength, +2 Speed next turn).", player=player)
        g.pop()  # at once, not through the "done" stage: one handler step less (hot path)
    else:
        play_step_action(g, player, action, "movement")


@handles("move")
def run_move(g: Game, frame: Frame) -> None:
    """A declared move (M1, M2): the Wrong Road window, then the Preliminary Encounter."""
    p = g.player(frame.player or "")
    if frame.stage == "":
        assert frame.region is not None
        g.emit(
            "move",
            f"{p.name}'s party heads for {g.db[frame.region].name}.",
            player=p.name,
            region=frame.region,
        )
        frame.stage = "declared"
        if not frame.data.get("no_window"):
            open_window(g, "move_declared", p.name)
        else:
            g.s.result = {}
        return
    if frame.stage == "declared":
        if g.s.result.get("cancelled"):
            g.emit("move_cancelled", f"{p.name}'s party stays where it is.", player=p.name)
            p.arrived = p.region is not None
            g.pop(ok=False)
            return
        dest = frame.region or ""
        region = active_region(g, dest)
        if region is None:  # the Region left play meanwhile: the party stays put
            g.pop(ok=False)
            return
        if dest == p.region:  # X1: staying meets no Preliminary Encounter
            _arrive(g, p, dest)
            g.pop(ok=True)
            return
        frame.stage = "entered"
        level = g.db.region(dest).level
        if region.preliminary is not None:
            g.push(
                "encounter",
                player=p.name,
                card=region.preliminary,
                region=dest,
                data={"context": "preliminary"},
            )
        elif _tree_level_changes(g, p, level):
            _tree_encounter(g, p, dest)
        else:
            g.s.result = {"ok": True}
        return
    if frame.stage == "guarded":
        _after_guard(g, frame, p)
        return
    if frame.stage == "guard_passed":
        frame.stage = "entered"
        g.s.result = {"ok": True}
        return
    if frame.stage == "guard_lost":
        if g.s.options.tree_of_regions != "off":
            p.tree_level = None  # O1: defeated parties leave the tree
        g.pop(ok=False)
        return
    if frame.stage == "entered":
        if g.s.result.get("ok") and not p.turn_over:
            dest = frame.region or ""
            if not frame.data.get("guard_met") and guard_stands(g, dest, "monster"):
                frame.data["guard_met"] = True
                _meet_guard(g, frame, p, dest)
                return
            level = g.db.region(dest).level
            if not frame.data.get("tree_checked") and _tree_level_changes(g, p, level):
                frame.data["tree_checked"] = True
                _tree_encounter(g, p, dest)
                return
            _arrive(g, p, dest)
            g.pop(ok=True)
        else:
            # M2: a lost battle or an event that ends the turn: the party does not arrive.
            if g.s.options.tree_of_regions != "off":
                p.tree_level = None  # O1: defeated parties leave the tree
            g.pop(ok=False)


def _meet_guard(g: Game, frame: Frame, p: Player, dest: str) -> None:
    """TotG: a Region guarded by a monster: every party entering fights it, after the
    Preliminary Encounter (M2), until one beats it."""
    guard = g.db.region(dest).guard
    assert guard is not None and guard.strength is not None
    g.emit(
        "guard",
        f"{guard.name} guards {g.db[dest].name} (Strength {guard.strength}): {guard.text}",
        player=p.name,
        region=dest,
    )
    frame.stage = "guarded"
    g.push(
        "battle",
        player=p.name,
        data={"name": guard.name, "strength": guard.strength, "keywords": list(guard.keywords)},
    )


def _after_guard(g: Game, frame: Frame, p: Player) -> None:
    """The battle with a monster guard is over: a win beats it for good; a loss keeps the party
    out (M2) and brings the guard's effects on it; a battle called off lets the party pass."""
    dest = frame.region or ""
    won = g.s.result.get("won")
    if won is False:
        end_turn(g, p)
        frame.stage = "guard_lost"
        guard = g.db.region(dest).guard
        if guard is not None and guard.effects:
            run_effects(g, p.name, dest, ["guard", "effects"], region=dest)
        return
    frame.stage = "guard_passed"
    if won:
        beat_guard(g, p, dest)  # its reward may run first (child frames)


def _tree_level_changes(g: Game, p: Player, level: int) -> bool:
    return g.s.options.tree_of_regions != "off" and p.tree_level != level


def _tree_encounter(g: Game, p: Player, dest: str) -> None:
    """O1: each change of level draws a Preliminary Encounter."""
    if top_card(g, "encounter") is None:
        g.s.result = {"ok": True}
        return
    g.push("encounter", player=p.name, region=dest, data={"context": "tree"})
    zones.draw_top(g.s, Zone("deck", "encounter"), Zone("stack", "encounter"))


def _arrive(g: Game, p: Player, dest: str) -> None:
    if p.region != dest:
        p.resisting.clear()  # F2: leaving the Region starts a Resistance mission over
    p.region = dest
    p.arrived = True
    if g.s.options.tree_of_regions != "off":
        p.tree_level = g.db.region(dest).level
    g.emit("arrive", f"{p.name}'s party reaches {g.db[dest].name}.", player=p.name, region=dest)


@handles("explore_new")
def run_explore_new(g: Game, frame: Frame) -> None:
    """M4, M5: a new Region with a face-up Preliminary Encounter; remove one if too many."""
    p = g.player(frame.player or "")
    if frame.stage == "":
        g.s.explored_new = True
        if frame.region is not None:  # from the Region discard pile (M4, D2)
            zones.move(g.s, frame.region, Zone("discard", "region"), Zone("region"))
            revealed = [frame.region]
        else:
            # M10: with sets combined, one Region per set; as many as the deck still holds.
            revealed = []
            for _ in range(regions_to_reveal(g.s.options)):
                drawn = draw(g, "region", Zone("region"))
                if drawn is None:
                    break
                revealed.append(drawn)
            assert revealed  # offered only while the deck holds a Region (M4)
        for region in revealed:
            lay_out(g, region)  # TotG: a printed guard stands
        frame.data = {"blocked": [], "revealed": revealed}
        if len(revealed) == 1:
            frame.region = revealed[0]
            _reveal_encounters(g, frame, p)
            return
        names = ", ".join(f"{g.db[r].name} (level {g.db.region(r).level})" for r in revealed)
        g.emit(
            "explore_new_regions",
            f"{p.name} explores and reveals {names} (M10).",
            player=p.name,
            regions=revealed,
        )
        frame.stage = "choose"
        return
    if frame.stage == "choose":
        # M10: the party must go to the highest level; the explorer breaks a tie.
        revealed = frame.data["revealed"]
        top = max(g.db.region(r).level for r in revealed)
        highest = [r for r in revealed if g.db.region(r).level == top]
        if len(highest) == 1:
            frame.region = highest[0]
            _reveal_encounters(g, frame, p)
            return
        g.ask(
            p.name,
            "new_region",
            "Several new Regions share the highest level: choose the one to enter (M10).",
            [f"go {r}" for r in highest],
        )
        return
    if frame.stage == "remove":
        candidates = removable_regions(
            g, frame.region or "", frame.data["blocked"], frame.data.get("revealed", ())
        )
        if not candidates:
            g.emit("no_removal", "No Region can be removed: the new one is added anyway (M5).")
            frame.stage = "enter"
            return
        g.ask(
            p.name,
            "remove_region",
            "Too many Regions: choose one to remove (M5).",
            [f"remove {r}" for r in candidates],
        )
        return
    if frame.stage == "block":
        choice = frame.data["choice"]
        waiting = [
            n for n in g.others(p.name) if n not in frame.data["passed"]
        ]  # M5: any *other* player may block the explorer's choice
        if not waiting:
            removed = active_region(g, choice)
            assert removed is not None
            for trap in list(removed.traps):  # a ruling: its Traps go with it
                discard_card(g, trap.card, zones.traps_zone(choice, trap.owner))
            discard_card(g, choice, Zone("region"))
            g.emit("region_removed", f"{g.db[choice].name} leaves play.", region=choice)
            # M5: one Region removed per new Region (M10 may add two or three), while there
            # are still too many.
            frame.data["removed"] = removed = frame.data.get("removed", 0) + 1
            fresh = len(frame.data.get("revealed", ())) or 1
            more = removed < fresh and len(g.s.regions) > max_regions(g)
            frame.stage = "remove" if more else "enter"
            return
        text = f"{p.name} removes {g.db[choice].name}. Discard an Advantage to block it (M5)?"
        for name in waiting:
            g.ask(
                name,
                "block_removal",
                text,
                ["pass", *(f"block {c}" for c in g.player(name).hand)],
                "pass",
                window=True,
                data={"player": p.name, "region": choice},
            )
        return
    if frame.stage == "enter":
        frame.stage = "done"
        g.push("move", player=p.name, region=frame.region, data={"no_window": True})
        return
    g.pop(ok=bool(g.s.result.get("ok")))


def removable_regions(
    g: Game, new: str, blocked: list[str], revealed: Sequence[str] = ()
) -> list[str]:
    """M5: not the new one (nor the others revealed with it, M10), no party in it, no
    unresolved Preliminary Encounter (nor a guard still standing, TotG), not blocked."""
    occupied = {p.region for p in g.s.players.values()}
    return [
        r.card
        for r in g.s.regions
        if r.card != new
        and r.card not in revealed
        and r.card not in occupied
        and r.preliminary is None
        and not r.guarded
        and r.card not in blocked
    ]


def _reveal_encounters(g: Game, frame: Frame, p: Player) -> None:
    """M4: the Region entered gets a face-up Preliminary Encounter; M10: the others revealed
    with it are laid out like the first Regions, each with a face-down one (S4). Then one
    Region is removed if there are too many (M5)."""
    new = frame.region or ""
    encounter = draw(g, "encounter", Zone("preliminary", new))
    _active(g, new).revealed = True  # M4: the new Region's Encounter lies face up
    shown = f", guarded by {g.db[encounter].name}" if encounter else ""
    g.emit(
        "explore_new",
        f"{p.name} discovers {g.db[new].name} (level {g.db.region(new).level}){shown}.",
        player=p.name,
        region=new,
        encounter=encounter,
    )
    for other in frame.data.get("revealed", ()):
        if other != new:
            draw(g, "encounter", Zone("preliminary", other))
    frame.stage = "remove" if len(g.s.regions) > max_regions(g) else "enter"


def _active(g: Game, card: str) -> Region:
    region = active_region(g, card)
    assert region is not None
    return region


@responds("explore_new")
def answer_explore_new(g: Game, frame: Frame, player: str, action: Action) -> None:
    if action.type == "go":  # M10: the explorer's pick among the highest-level Regions
        frame.region = action.arg
        _reveal_encounters(g, frame, g.player(player))
    elif action.type == "remove":
        frame.stage = "block"
        frame.data.update(choice=action.arg, passed=[])
    elif action.type == "pass":
        frame.data["passed"].append(player)
    else:  # block: discard one Advantage; the explorer must pick another Region
        assert action.arg is not None
        discard_card(g, action.arg, Zone("hand", player))
        g.s.prompts = [p for p in g.s.prompts if not p.window]
        frame.data["blocked"].append(frame.data["choice"])
        frame.stage = "remove"
        g.emit(
            "block",
            f"{player} discards an Advantage to keep {g.db[frame.data['choice']].name} in play.",
            player=player,
            region=frame.data["choice"],
        )
