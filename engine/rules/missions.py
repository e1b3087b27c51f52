"""Missions (F1-F5, B5, B6): attempting Basic missions and the Final mission's Quest.

A mission is attempted in the Exploration phase by a party in the mission's Region, after a
successful exploration, instead of taking a reward (or from elsewhere through a
``remote_mission`` reward). Starting one announces it (F1) unless the card is secret.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine import zones
from engine.actions import Action
from engine.cards import FinalMissionCard, MissionCard, Objective
from engine.flow import handles, responds
from engine.rules.crisis import end_game
from engine.rules.interpreter import run_effects
from engine.rules.party import discard_card, end_turn, speed
from engine.rules.regions import region_level
from engine.state import Frame, Player
from engine.zones import Zone, ZoneKind

if TYPE_CHECKING:
    from engine.game import Game


def required_completed(g: Game) -> int:
    """F4, O2: Basic missions needed before the Final mission."""
    return 2 if g.s.options.both_missions else 1


def can_reveal_final(g: Game, p: Player) -> bool:
    """F3/V1: a player with a completed Basic mission may reveal the Final mission."""
    return g.s.final_mission is None and bool(g.s.final_deck) and len(p.completed) >= 1


def reveal_final(g: Game, p: Player) -> None:
    """F3, F5: the Final mission goes face up; the Crisis! countdown starts."""
    card = zones.draw_top(g.s, Zone("final_deck"), Zone("final_mission"))
    assert card is not None, "reveal_final needs a Final mission deck (can_reveal_final)"
    final = g.db.final_mission(card)
    if g.s.options.crisis:
        g.s.crisis = final.crisis.limit
    limit = f" Crisis! in {final.crisis.limit} turns." if g.s.options.crisis else ""
    g.emit(
        "final_revealed",
        f"{p.name} reveals the Final mission: {final.name}. {final.text}{limit}",
        player=p.name,
        card=card,
    )


def _objective(g: Game, card_id: str) -> Objective:
    card = g.db[card_id]
    if isinstance(card, FinalMissionCard):
        return card.quest
    assert isinstance(card, MissionCard)
    return card.objective


def _at_place(g: Game, objective: Objective, region: str) -> bool:
    if objective.region is not None:
        return objective.region == region
    if objective.region_level is not None:
        return region_level(g, region) >= objective.region_level
    return True


def _can_attempt(g: Game, p: Player, card_id: str, region: str) -> bool:
    objective = _objective(g, card_id)
    if not _at_place(g, objective, region):
        return False
    if objective.kind == "resist" and card_id in p.resisting:
        return False  # already under way: it goes on by itself (F2)
    if objective.kind == "deliver" and len(p.hand) < (objective.advantages or 1):
        return False
    return not (objective.kind == "gather" and not _gathered(g, p, objective))


def attemptable_missions(g: Game, p: Player, region: str) -> list[str]:
    """Missions ``p`` may attempt at ``region`` now (the Final mission too, F4)."""
    result = [m for m in (*p.missions, *p.started) if _can_attempt(g, p, m, region)]
    final = g.s.final_mission
    if final and len(p.completed) >= required_completed(g) and _can_attempt(g, p, final, region):
        result.append(final)
    return result


def remote_missions(g: Game, p: Player) -> list[tuple[str, str]]:
    """(mission, Region) pairs attemptable at any active Region (``remote_mission`` reward)."""
    pairs: list[tuple[str, str]] = []
    for region in g.s.regions:
        for m in attemptable_missions(g, p, region.card):
            if m not in (seen[0] for seen in pairs):
                pairs.append((m, region.card))
    return pairs


def _gathered(g: Game, p: Player, objective: Objective) -> bool:
    chars = [g.db.character(c.card) for c in p.party if not c.incapacitated]
    if objective.characters is not None and len(chars) < objective.characters:
        return False
    if any(not any(skill in c.skills for c in chars) for skill in objective.skills):
        return False
    return all(any(c.gender == gender for c in chars) for gender in objective.genders)


def is_secret(g: Game, card_id: str) -> bool:
    """A Basic mission whose card says it is not announced (F1): it stays hidden until done."""
    card = g.db[card_id]
    return isinstance(card, MissionCard) and card.secret


def _announce(g: Game, p: Player, card_id: str) -> None:
    """F1: a started mission is placed on the left, face up, unless the card says otherwise
    (a secret mission stays in the hand of missions, hidden, until it is completed)."""
    if card_id not in p.missions or is_secret(g, card_id):
        return
    zones.move(g.s, card_id, Zone("missions", p.name), Zone("started", p.name))
    card = g.db.mission(card_id)
    g.emit(
        "mission_started",
        f"{p.name} starts the mission {card.name}: {card.text}",
        player=p.name,
        card=card_id,
    )


def _say_attempt(g: Game, p: Player, card_id: str) -> None:
    name = g.db[card_id].name
    if is_secret(g, card_id):
        g.emit("mission_attempt", f"{p.name} attempts a secret mission.", player=p.name)
        g.emit("mission_attempt", f"You attempt {name}.", to=[p.name], player=p.name, card=card_id)
    else:
        g.emit("mission_attempt", f"{p.name} attempts {name}.", player=p.name, card=card_id)


@handles("mission")
def run_mission(g: Game, frame: Frame) -> None:
    """An attempt at mission ``card`` (Basic or Final) by ``player`` at ``region``."""
    p = g.player(frame.player or "")
    card_id = frame.card or ""
    objective = _objective(g, card_id)
    if frame.stage == "":
        _announce(g, p, card_id)
        _say_attempt(g, p, card_id)
        if objective.kind == "fight":
            frame.stage = "fought"
            level = g.db[card_id].level  # type: ignore[union-attr]
            g.push(
                "battle",
                player=p.name,
                data={
                    "name": "a secret foe"
                    if is_secret(g, card_id)
                    else objective.opponent or g.db[card_id].name,
                    "strength": objective.strength if objective.strength is not None else level,
                    "keywords": list(objective.keywords),
                },
            )  # B5
            return
        if objective.kind == "speed_check":
            die = g.die()
            total = die + speed(g, p)
            ok = total >= (objective.difficulty or 0)
            g.emit(
                "speed_check",
                f"🎲 {die} + Speed {speed(g, p)} = {total} vs "
                f"{objective.difficulty}: {'success' if ok else 'failure'}.",
                player=p.name,
                die=die,
                total=total,
                success=ok,
            )
            _resolve(g, p, card_id, ok)
            return
        if objective.kind == "resist":
            p.resisting[card_id] = 1
            g.emit("resist", f"{p.name}'s party holds out (1/{objective.turns}).", player=p.name)
            _resolve(g, p, card_id, ok=None if (objective.turns or 1) > 1 else True)
            return
        if objective.kind == "gather":
            _resolve(g, p, card_id, _gathered(g, p, objective))
            return
        frame.stage = "deliver"  # deliver
        frame.data["left"] = objective.advantages or 1
    if frame.stage == "deliver":
        if frame.data["left"] == 0 or not p.hand:
            _resolve(g, p, card_id, frame.data["left"] == 0)
            return
        g.ask(
            p.name,
            "deliver",
            f"Choose an Advantage to hand over ({frame.data['left']} left).",
            [f"pick {c}" for c in p.hand],
        )
        return
    if frame.stage == "fought":
        won = g.s.result.get("won") is True
        if g.s.result.get("won") is False:
            end_turn(g, p)  # B7: a lost battle costs the turn (the party stays where it is)
        _resolve(g, p, card_id, won)


@responds("mission")
def answer_mission(g: Game, frame: Frame, player: str, action: Action) -> None:
    assert action.arg is not None
    discard_card(g, action.arg, Zone("hand", player))
    frame.data["left"] -= 1
    g.emit("deliver", f"{player} hands over an Advantage.", player=player)


def _resolve(g: Game, p: Player, card_id: str, ok: bool | None) -> None:
    """Finish an attempt: pop the frame, then complete the mission if ``ok``."""
    g.pop()
    if ok:
        complete(g, p, card_id)
    elif ok is False:
        name = "a secret mission" if is_secret(g, card_id) else g.db[card_id].name
        g.emit("mission_failed", f"{p.name} fails {name} this time.", player=p.name)


def complete(g: Game, p: Player, card_id: str) -> None:
    """F1: a completed Basic mission goes to the right and gives its reward; the Final
    mission's Quest wins the game (F5)."""
    if card_id == g.s.final_mission:
        g.emit("final_completed", f"{p.name} completes the Final mission!", player=p.name)
        end_game(g, p.name, "final_mission")
        return
    kept: ZoneKind = "missions" if card_id in p.missions else "started"
    zones.move(g.s, card_id, Zone(kept, p.name), Zone("completed", p.name))
    p.resisting.pop(card_id, None)
    card = g.db.mission(card_id)
    g.emit("mission_completed", f"{p.name} completes {card.name}!", player=p.name, card=card_id)
    run_effects(g, p.name, card_id, ["reward"])
    if g.s.final_mission is None and g.s.options.final_reveal == "immediate" and g.s.final_deck:
        reveal_final(g, p)  # V1, SoO reading


def resist_progress(g: Game, p: Player) -> None:
    """F2: a party that stays in the Region of its Resistance mission counts one more turn."""
    for card_id, turns in list(p.resisting.items()):
        objective = _objective(g, card_id)
        if objective.region is not None and objective.region != p.region:
            continue
        p.resisting[card_id] = turns + 1
        g.emit(
            "resist", f"{p.name}'s party holds out ({turns + 1}/{objective.turns}).", player=p.name
        )
        if turns + 1 >= (objective.turns or 1):
            complete(g, p, card_id)
