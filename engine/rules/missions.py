"""Missions (F1-F5, B5, B6): attempting Basic missions and the Final mission's Quest.

A mission is attempted in the Exploration phase by a party in the mission's Region, after a
successful exploration, instead of taking a reward (or from elsewhere through a
``remote_mission`` reward). Starting one announces it (F1) unless the card is secret.

Objective kinds: a ``fight`` (B5), a ``speed_check`` (B6), a ``resist`` (F2: the party stays
several turns; with ``strength``, it beats the mission's enemies on each of those turns), a
``gather``, a ``deliver`` and ``encounters`` (Encounter cards met in a row, as exploring meets
them, the Region counting as some level while they last).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine import zones
from engine.actions import Action
from engine.cards import FinalMissionCard, MissionCard, Objective
from engine.flow import handles, responds
from engine.rules.crisis import end_game
from engine.rules.interpreter import run_effects
from engine.rules.party import discard_card, drive_out, end_turn, speed, top_card
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
        crisis=final.crisis.limit if g.s.options.crisis else None,
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
        if frame.data.get("hold"):
            _hold_on(g, frame, p, card_id, objective)
            return
        _announce(g, p, card_id)
        _say_attempt(g, p, card_id)
        if objective.kind == "fight":
            _fight(g, frame, p, card_id, objective, then="fought")
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
                at_least=objective.difficulty or 0,
                success=ok,
            )
            _resolve(g, p, card_id, ok)
            return
        if objective.fights_each_turn:
            _fight(g, frame, p, card_id, objective, then="held")  # F2: the first turn's fight
            return
        if objective.kind == "resist":
            p.resisting[card_id] = 1
            g.emit(
                "resist",
                f"{p.name}'s party holds out (1/{objective.turns}).",
                player=p.name,
                turns=1,
                of=objective.turns or 1,
            )
            _resolve(g, p, card_id, ok=None if (objective.turns or 1) > 1 else True)
            return
        if objective.kind == "gather":
            _resolve(g, p, card_id, _gathered(g, p, objective))
            return
        if objective.kind == "encounters":
            _face_encounters(g, frame, p, objective)
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
            data={"left": frame.data["left"]},
        )
        return
    if frame.stage == "fought":
        won = g.s.result.get("won") is True
        if g.s.result.get("won") is False:
            end_turn(g, p)  # B7: a lost battle costs the turn (the party stays where it is)
        _resolve(g, p, card_id, won)
        return
    if frame.stage == "held":
        _held(g, p, card_id, objective)
        return
    if frame.stage == "encounters":
        _next_encounter(g, frame, p, card_id)


def _fight(g: Game, frame: Frame, p: Player, card_id: str, objective: Objective, then: str) -> None:
    """B5: the mission's opponent fights like a monster; its Strength is the card's, or the
    mission's level. The frame goes on at stage ``then`` with the battle's result."""
    frame.stage = then
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
    )


def _hold_on(g: Game, frame: Frame, p: Player, card_id: str, objective: Objective) -> None:
    """F2: another turn of a Resistance mission whose enemies fight the party each turn (a
    frame pushed by :func:`resist_progress`); an earlier battle of this Exploration step may
    have driven the party out already, and then there is nothing left to hold."""
    if card_id not in p.resisting or p.turn_over or p.region is None:
        g.pop()
        return
    secret = is_secret(g, card_id)
    name = "its secret mission" if secret else g.db[card_id].name
    # The card only when it is no secret (F1): the payload is public.
    mission = {} if secret else {"card": card_id}
    g.emit("resist", f"{p.name}'s party stands its ground for {name}.", player=p.name, **mission)
    _fight(g, frame, p, card_id, objective, then="held")


def _held(g: Game, p: Player, card_id: str, objective: Objective) -> None:
    """F2: the turn's battle of a Resistance mission is over. Beaten, the party is driven out
    of the Region and the mission starts over; otherwise the turn counts (a battle called
    off counts too: the party held out, undefeated)."""
    if g.s.result.get("won") is False:
        drive_out(g, p)
        _resolve(g, p, card_id, False)
        return
    turns = p.resisting.get(card_id, 0) + 1
    p.resisting[card_id] = turns
    g.emit(
        "resist",
        f"{p.name}'s party holds out ({turns}/{objective.turns}).",
        player=p.name,
        turns=turns,
        of=objective.turns or 1,
    )
    _resolve(g, p, card_id, True if turns >= (objective.turns or 1) else None)


def _face_encounters(g: Game, frame: Frame, p: Player, objective: Objective) -> None:
    """An ``encounters`` objective: the party is to come through that many Encounter cards in
    a row; while they last the Region counts as ``region_counts_as`` (read by
    :func:`~engine.rules.regions.region_level` from this frame)."""
    count = objective.encounters or 1
    frame.stage = "encounters"
    frame.data.update(left=count, met=False)
    level = ""
    counts_as: dict[str, Any] = {}
    if objective.region_counts_as is not None:
        counts_as = {"region": frame.region or "", "counts_as": objective.region_counts_as}
        frame.data["counts_as"] = objective.region_counts_as
        level = (
            f"; {g.db[frame.region or ''].name} counts as level {objective.region_counts_as} "
            "until they are over"
        )
    g.emit(
        "explore_result",
        f"{p.name} must face {count} Encounter{'s' if count != 1 else ''} in a row{level}.",
        player=p.name,
        count=count,
        in_a_row=True,
        **counts_as,
    )


def _next_encounter(g: Game, frame: Frame, p: Player, card_id: str) -> None:
    """Draw and meet the next Encounter, as exploring does (E4): a monster that wins, or an
    event that ends the turn, drives the party out (E3) and the mission fails this time."""
    if p.turn_over or not p.arrived or (frame.data["met"] and not g.s.result.get("ok")):
        drive_out(g, p)
        _resolve(g, p, card_id, False)
        return
    if frame.data["left"] == 0 or top_card(g, "encounter") is None:
        _resolve(g, p, card_id, True)
        return
    frame.data["left"] -= 1
    frame.data["met"] = True
    g.push("encounter", player=p.name, region=frame.region, data={"context": "mission"})
    zones.draw_top(g.s, Zone("deck", "encounter"), Zone("stack", "encounter"))


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
        secret = is_secret(g, card_id)
        name = "a secret mission" if secret else g.db[card_id].name
        mission = {} if secret else {"card": card_id}  # public: a secret stays unnamed (F1)
        g.emit("mission_failed", f"{p.name} fails {name} this time.", player=p.name, **mission)


def complete(g: Game, p: Player, card_id: str) -> None:
    """F1: a completed Basic mission goes to the right and gives its reward; the Final
    mission's Quest wins the game (G2, F5: only a player with a completed Basic mission may
    have attempted it, F4)."""
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


def resist_progress(g: Game, p: Player) -> bool:
    """F2: a party that stays in the Region of its Resistance mission counts one more turn;
    where the mission's enemies fight it each turn, that turn counts once they are beaten (a
    ``mission`` frame is pushed for each). True if such a frame was pushed."""
    fights: list[str] = []
    for card_id, turns in list(p.resisting.items()):
        objective = _objective(g, card_id)
        if objective.region is not None and objective.region != p.region:
            continue
        if objective.fights_each_turn:
            fights.append(card_id)
            continue
        p.resisting[card_id] = turns + 1
        g.emit(
            "resist",
            f"{p.name}'s party holds out ({turns + 1}/{objective.turns}).",
            player=p.name,
            turns=turns + 1,
            of=objective.turns or 1,
        )
        if turns + 1 >= (objective.turns or 1):
            complete(g, p, card_id)
    for card_id in reversed(fights):  # the stack runs the last pushed first: keep card order
        g.push("mission", player=p.name, card=card_id, region=p.region, data={"hold": True})
    return bool(fights)
