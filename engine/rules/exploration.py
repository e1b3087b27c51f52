"""Encounters (M2, M7, M8, E3-E5) and the Exploration phase (E1-E6)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine import zones
from engine.actions import Action
from engine.flow import handles, responds
from engine.rules.advantages import discredit_victims
from engine.rules.effective import Use, acts
from engine.rules.interpreter import run_effects
from engine.rules.missions import attemptable_missions, remote_missions, resist_progress
from engine.rules.party import (
    PARTY_LIMIT,
    add_character,
    discard_card,
    draw_advantages,
    drive_out,
    end_turn,
    monster_strength,
    normal_characters,
    room_in_hand,
    speed,
    top_card,
)
from engine.rules.play import own_turn_plays, play_step_action
from engine.rules.regions import active_region, region_level
from engine.rules.sets import ARCANE_DECK, can_flee
from engine.rules.windows import open_window
from engine.state import Frame, Player
from engine.zones import Zone

if TYPE_CHECKING:
    from engine.game import Game


# ---------------------------------------------------------------------- encounters

FLEE_MARGIN = 2  # E7: a Speed check against the monster's Strength + 2


@handles("encounter")
def run_encounter(g: Game, frame: Frame) -> None:
    """One Encounter met by ``player`` at ``region``; reports ``ok`` (the party got through).

    ``data["context"]``: ``preliminary`` (it guards the Region), ``exploration``, ``tree`` or
    ``mission`` (an ``encounters`` objective: met as exploring meets them).
    """
    p = g.player(frame.player or "")
    card = g.db.encounter(frame.card or "")
    region = g.db.region(frame.region or "")
    preliminary = frame.data["context"] == "preliminary"
    if frame.stage == "":
        slot = active_region(g, region.id) if preliminary else None
        if slot is not None:
            slot.revealed = True
        level = region_level(g, region.id)  # a Trap may have changed it this turn
        if card.level > level:  # M8/E5: a false alarm
            g.emit(
                "false_alarm",
                f"{card.name} (level {card.level}) cannot happen at "
                f"{region.name} (level {level}): a false alarm.",
                card=card.id,
                region=region.id,
                level=level,
            )
            _done_with_card(g, frame, keep=False)
            g.pop(ok=True)
            return
        kind = f"a monster, Strength {card.strength}" if card.kind == "monster" else "an event"
        g.emit(
            "encounter",
            f"{p.name} meets {card.name} ({kind}, level {card.level}): {card.text}",
            player=p.name,
            card=card.id,
        )
        frame.stage = "revealed"
        open_window(g, "encounter_revealed", p.name)
        return
    if frame.stage == "revealed":
        if g.s.result.get("cancelled"):
            _done_with_card(g, frame, keep=False)
            g.pop(ok=True)
            return
        if card.kind == "event":
            frame.stage = "event_done"
            for i, ability in enumerate(card.abilities):
                if ability.timing == "on_reveal" and ability.effects:
                    run_effects(g, p.name, card.id, ["abilities", i, "effects"])
            return
        # E7: with Twilight of the Gods, the party may try to flee instead of fighting.
        frame.stage = "flee_choice" if can_flee(g.s.options) else "fight"
        return
    if frame.stage == "flee_choice":
        g.ask(
            p.name,
            "flee",
            f"{card.name} (Strength {monster_strength(g, card, p)}) bars the way: fight it, or "
            f"try to flee (Speed check against its Strength + {FLEE_MARGIN}, E7)?",
            ["fight", "flee"],
            default="fight",
            data={
                "card": card.id,
                "strength": monster_strength(g, card, p),
                "margin": FLEE_MARGIN,
            },
        )
        return
    if frame.stage == "fight":
        frame.stage = "battle_done"
        g.push("battle", player=p.name, card=card.id)
        return
    if frame.stage == "fled":
        # E7: the party escapes: it leaves the Region and its turn ends. The monster was not
        # beaten: a Preliminary one stays at its Region (M7), any other is discarded (E4).
        _done_with_card(g, frame, keep=preliminary)
        end_turn(g, p)
        g.pop(ok=False)
        return
    if frame.stage == "event_done":
        _done_with_card(g, frame, keep=False)  # M7: an event is discarded
        g.pop(ok=not p.turn_over)
        return
    if frame.stage == "battle_done":
        won = g.s.result.get("won")
        if won is False:
            # M7: a Preliminary monster that wins stays; E4: an exploration one is discarded.
            _done_with_card(g, frame, keep=preliminary)
            end_turn(g, p)
            g.pop(ok=False)
            return
        _done_with_card(g, frame, keep=won is None and preliminary)
        g.pop(ok=True)


@responds("encounter")
def answer_flee(g: Game, frame: Frame, player: str, action: Action) -> None:
    """E7: fight the monster, or flee it with a Speed check against its Strength + 2 (B6);
    a failed check means the party fights it as usual."""
    if action.type == "fight":
        frame.stage = "fight"
        return
    p = g.player(player)
    card = g.db.encounter(frame.card or "")
    difficulty = monster_strength(g, card, p) + FLEE_MARGIN
    die, party_speed = g.die(), speed(g, p)
    escaped = die + party_speed >= difficulty
    outcome = "escapes" if escaped else "cannot escape and must fight"
    g.emit(
        "flee",
        f"{player}'s party tries to flee {card.name}: 🎲 {die} + Speed {party_speed} = "
        f"{die + party_speed} vs {difficulty}: it {outcome}.",
        player=player,
        card=card.id,
        die=die,
        total=die + party_speed,
        at_least=difficulty,
        success=escaped,
    )
    frame.stage = "fled" if escaped else "fight"


def _done_with_card(g: Game, frame: Frame, keep: bool) -> None:
    """Discard the Encounter: off its Region if it was the Preliminary one, else off the stack
    (the frame held it)."""
    if keep:
        return
    card = frame.card or ""
    if frame.data["context"] == "preliminary":
        discard_card(g, card, Zone("preliminary", frame.region or ""))
    else:
        discard_card(g, card, Zone("stack", "encounter"))


# ---------------------------------------------------------------------- exploration phase


@handles("exploration_step")
def exploration_step(g: Game, frame: Frame) -> None:
    p = g.player(frame.player or "")
    if frame.stage == "":
        if not p.arrived or p.turn_over or p.region is None:  # E1
            g.pop()
            return
        # F2: a Resistance mission goes on by itself; one whose enemies fight the party each
        # turn pushes that battle, which may drive the party out before it can explore.
        frame.stage = "held" if resist_progress(g, p) else "choose"
        return
    if frame.stage == "held":
        if p.turn_over or p.region is None:
            g.pop()
            return
        frame.stage = "choose"
    if frame.stage == "choose":
        g.ask(
            p.name,
            "exploration",
            f"Exploration phase at {g.db[p.region or ''].name}: explore (E2) or skip.",
            ["explore", "skip", *own_turn_plays(g, p.name, "exploration")],
            default="skip",
            data={"region": p.region},
        )
        return
    if frame.stage == "table":
        _read_table(g, frame, p)
        return
    if frame.stage == "encounters":
        if p.turn_over or not p.arrived:
            _expelled(g, p)
            return
        if frame.data["left"] == 0:
            frame.stage = "reward"
            return
        if frame.data.get("met") and not g.s.result.get("ok"):
            _expelled(g, p)
            return
        if top_card(g, "encounter") is None:
            frame.stage = "reward"
            return
        frame.data["left"] -= 1
        frame.data["met"] = True
        g.push("encounter", player=p.name, region=p.region, data={"context": "exploration"})
        zones.draw_top(g.s, Zone("deck", "encounter"), Zone("stack", "encounter"))  # E4
        return
    if frame.stage == "special":
        if p.turn_over:
            _expelled(g, p)
            return
        frame.stage = "reward"
        return
    if frame.stage == "reward":
        _ask_reward(g, p)
        return
    g.pop()  # "done"


def _expelled(g: Game, p: Player) -> None:
    """E3: a defeat or an event that ends the turn expels the party: no reward."""
    drive_out(g, p)
    g.pop()


def _read_table(g: Game, frame: Frame, p: Player) -> None:
    region = g.db.region(p.region or "")
    if g.s.result.get("cancelled"):
        g.emit("explore_nothing", "The exploration finds nothing this time.")
        frame.stage = "reward"
        return
    roll = frame.data["roll"]
    row = region.exploration[roll - 1]
    if row.result == "nothing":
        g.emit("explore_result", f"Nothing stands in {p.name}'s way.", player=p.name, count=0)
        frame.stage = "reward"
    elif row.result == "encounters":
        g.emit(
            "explore_result",
            f"{p.name} must face {row.count} Encounter{'s' if row.count != 1 else ''}.",
            player=p.name,
            count=row.count,
        )
        frame.stage = "encounters"
        frame.data.update(left=row.count, met=False)
    else:
        g.emit(
            "explore_result",
            f"{region.name}: {row.text}",
            player=p.name,
            region=region.id,
            row=roll - 1,
        )
        frame.stage = "special"
        run_effects(g, p.name, region.id, ["exploration", roll - 1, "effects"])


def reward_choices(g: Game, p: Player) -> list[str]:
    """E6: the rewards the party may take now, and missions it may attempt instead."""
    region = g.db.region(p.region or "")
    choices: list[str] = []
    for i, reward in enumerate(region.rewards):
        if reward.kind == "advantage" and not (
            room_in_hand(p) and (g.s.decks["advantage"] or g.s.discards["advantage"])
        ):
            continue  # R4: a full hand cannot draw (nor anybody from two empty piles)
        if reward.kind == "hire" and not (
            can_hire(g, p, region.id) and (g.s.decks["character"] or g.s.discards["character"])
        ):
            continue
        if reward.kind == "special" and not acts(g, Use(p.name, region.id), reward.effects):
            continue  # no empty choices: a reward that would change nothing (issue 20)
        if reward.kind == "remote_mission" and not remote_missions(g, p):
            continue
        if reward.kind == "discredit" and not discredit_victims(g, p):
            continue  # E6: an Advantage to pay with, and a Faction to strike
        choices.append(f"reward {i}")
        if reward.kind == "hire" and can_hire_arcane(g, p):
            # C7: instead of a normal character, an Arcane one, for one discarded Advantage.
            choices += [f"hire_arcane {c}" for c in p.hand]
    choices += [f"mission {m}" for m in attemptable_missions(g, p, region.id)]
    return choices or ["pass"]


def can_hire(g: Game, p: Player, region: str) -> bool:
    """E6: not with 4 characters; not in the same Region two turns in a row."""
    if len(p.party) >= PARTY_LIMIT:
        return False
    return p.last_hire != (region, g.s.turn - 1)


def can_hire_arcane(g: Game, p: Player) -> bool:
    """C7: a party of three normal characters (and room for a fourth, R4) may hire an Arcane
    character, if there is one to hire and an Advantage to pay with."""
    return (
        len(p.party) < PARTY_LIMIT
        and len(normal_characters(g, p)) >= 3
        and bool(p.hand)
        and bool(g.s.decks.get(ARCANE_DECK) or g.s.discards.get(ARCANE_DECK))
    )


def _ask_reward(g: Game, p: Player) -> None:
    g.ask(
        p.name,
        "reward",
        "The exploration succeeded: choose a reward or attempt a mission (E6).",
        reward_choices(g, p),
    )


@responds("exploration_step")
def answer_exploration(g: Game, frame: Frame, player: str, action: Action) -> None:
    p = g.player(player)
    region = g.db.region(p.region or "")
    if action.type == "skip" or action.type == "pass":
        g.pop()  # at once, not through the "done" stage: one handler step less (hot path)
    elif action.type == "explore":
        roll = g.die()
        g.emit(
            "explore_roll",
            f"{player} explores {region.name}: 🎲 {roll}.",
            player=player,
            die=roll,
            region=region.id,
        )
        frame.stage = "table"
        frame.data["roll"] = roll
        open_window(g, "exploration_roll", player)
    elif action.type == "reward":
        frame.stage = "done"
        reward = region.rewards[int(action.arg or 0)]
        _take_reward(g, p, region.id, int(action.arg or 0), reward.kind)
    elif action.type == "mission":
        frame.stage = "done"
        g.push("mission", player=player, card=action.arg, region=region.id)
    elif action.type == "hire_arcane":
        frame.stage = "done"
        _hire_arcane(g, p, region.id, action.arg or "")
    else:
        play_step_action(g, player, action, "exploration")


def _hire_arcane(g: Game, p: Player, region: str, payment: str) -> None:
    """C7: discard one Advantage, and the top Arcane character joins the party; it is the
    Region's Hire reward (E6: not in the same Region two turns in a row)."""
    discard_card(g, payment, Zone("hand", p.name))
    g.emit(
        "discard",
        f"{p.name} discards {g.db[payment].name} to hire an Arcane character.",
        player=p.name,
        card=payment,
        why="arcane",
    )
    card = top_card(g, ARCANE_DECK)
    assert card is not None  # offered only while the Arcane deck or its discard pile holds one
    add_character(g, p, card, Zone("deck", ARCANE_DECK))
    p.last_hire = (region, g.s.turn)


def _take_reward(g: Game, p: Player, region: str, index: int, kind: str) -> None:
    level = region_level(g, region)
    if kind == "advantage":
        draw_advantages(g, p, level)
    elif kind == "hire":
        card = top_card(g, "character")
        if card is not None:
            add_character(g, p, card, Zone("deck", "character"))
            p.last_hire = (region, g.s.turn)
    elif kind == "remote_mission":
        g.push("remote_mission", player=p.name)
    elif kind == "discredit":
        g.push("discredit", player=p.name)
    else:
        g.emit(
            "reward",
            f"{p.name} takes {g.db.region(region).rewards[index].name}.",
            player=p.name,
            region=region,
            index=index,
        )
        run_effects(g, p.name, region, ["rewards", index, "effects"])


@handles("remote_mission")
def run_remote(g: Game, frame: Frame) -> None:
    p = g.player(frame.player or "")
    if frame.stage == "":
        options = remote_missions(g, p)
        frame.stage = "chosen"
        g.ask(
            p.name,
            "remote_mission",
            "Choose the mission to attempt.",
            [f"pick {m}" for m, _ in options],
        )
        return
    g.pop()


@responds("remote_mission")
def answer_remote(g: Game, frame: Frame, player: str, action: Action) -> None:
    p = g.player(player)
    region = dict(remote_missions(g, p))[action.arg or ""]
    frame.stage = "done"
    g.push("mission", player=player, card=action.arg, region=region)
