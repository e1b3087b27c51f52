"""The hard AI's rollout policy (:mod:`engine.agents.hard`, step 3): the quick choice every
seat makes in an imagined game, read from the determinized state directly."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from engine.cards import FinalMissionCard, MissionCard, Objective
from engine.rules.missions import required_completed
from engine.rules.party import strength

if TYPE_CHECKING:
    from engine.game import Game
    from engine.prompts import Prompt
    from engine.state import Player


def _missions_regions(g: Game, p: Player) -> list[str]:
    """The Regions on the table where ``p`` could attempt one of its missions (or the Final
    mission's Quest)."""
    wanted: list[Objective] = []
    for mission in (*p.missions, *p.started):
        card = g.db[mission]
        if isinstance(card, MissionCard):
            wanted.append(card.objective)
    final = g.s.final_mission
    if final is not None and len(p.completed) >= required_completed(g):
        card = g.db[final]
        if isinstance(card, FinalMissionCard):
            wanted.insert(0, card.quest)
    out = []
    for region in g.s.regions:
        for objective in wanted:
            if objective.region == region.card or (
                objective.region is None
                and objective.region_level is not None
                and g.db.region(region.card).level >= objective.region_level
            ):
                out.append(region.card)
                break
    return out


def rollout_choice(g: Game, prompt: Prompt, rng: random.Random) -> str:
    """A quick, sensible choice for ``prompt`` in an imagined game: the policy every seat
    follows in a rollout. It reads the (determinized) state directly and costs a few
    microseconds; it never discards or dismisses voluntarily, passes most windows, heads for
    its missions' Regions, explores, attempts missions and attacks weaker parties."""
    choices = prompt.choices
    if len(choices) == 1:
        return choices[0]
    kind = prompt.kind
    r = rng.random()
    if kind == "window" or kind == "block_removal":
        plays = [c for c in choices if c.startswith(("play", "ability"))]
        if plays and kind == "window" and r < 0.5:
            frame = g.s.stack[-1]
            if frame.data.get("when") == "battle_start" and prompt.player in (
                frame.player,
                frame.other,
            ):
                return plays[int(rng.random() * len(plays))]
        return "pass" if r < 0.95 or not plays else plays[int(rng.random() * len(plays))]
    if kind == "reset":
        plays = [c for c in choices if c.startswith(("play", "ability"))]
        return plays[int(rng.random() * len(plays))] if plays and r < 0.3 else "done"
    if kind == "movement":
        p = g.s.players[prompt.player]
        if r < 0.6:
            targets = [t for t in _missions_regions(g, p) if f"go {t}" in choices]
            if targets:
                return f"go {targets[int(rng.random() * len(targets))]}"
        if r < 0.7:
            return "rest"
        moves = [c for c in choices if c.startswith(("go", "explore_new"))]
        return moves[int(rng.random() * len(moves))] if moves else prompt.default
    if kind == "exploration":
        return "explore" if "explore" in choices and r < 0.9 else prompt.default
    if kind == "reward":
        missions = [c for c in choices if c.startswith("mission")]
        if missions:
            return missions[0]
        rewards = [c for c in choices if c.startswith("reward")]
        if rewards:
            return rewards[int(rng.random() * len(rewards))]
        return prompt.default
    if kind == "interaction":
        me = g.s.players[prompt.player]
        attacks = [c for c in choices if c.startswith("attack")]
        if attacks:
            mine = strength(g, me)
            for action in attacks:
                if strength(g, g.s.players[action[7:]]) + 2 <= mine:
                    return action
        return "done" if "done" in choices else prompt.default
    if kind in ("trade_offer", "trade_answer", "spoils", "reveal_final", "flee", "pickup"):
        if kind == "reveal_final":
            return "reveal_final"
        if kind == "spoils":
            return "take" if any(c.startswith("take") for c in choices) else prompt.default
        if kind == "pickup":
            takes = [c for c in choices if c.startswith("take")]
            return takes[0] if takes else prompt.default
        if kind == "flee":
            return "fight" if r < 0.7 else "flee"
        return prompt.default
    return choices[int(r * len(choices))]


__all__ = ["rollout_choice"]
