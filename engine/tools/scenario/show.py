"""Showing a scenario's result: the table as text, the hidden information, the JSON."""

from __future__ import annotations

from typing import Any

from engine.game import Game
from engine.tools.scenario.format import shown
from engine.tools.scenario.steps import Outcome


def hidden_info(g: Game) -> dict[str, dict[str, Any]]:
    """What each player alone may see: hand, secret missions, start offers, scouted
    Preliminary Encounters, open prompt."""
    public = {r["card"]: r["preliminary"] for r in g.view(None)["regions"]}
    result: dict[str, dict[str, Any]] = {}
    for name in g.s.seats:
        view = g.view(name)
        mine = view["players"][name]
        result[name] = {
            "hand": mine["hand"],
            "missions": mine["missions"],
            "offered_characters": mine["offered_characters"],
            "offered_advantages": mine["offered_advantages"],
            "scouted": {
                r["card"]: r["preliminary"]
                for r in view["regions"]
                if r["preliminary"] != public[r["card"]]
            },
            "prompt": view.get("prompt"),
        }
    return result


def _names(cards: list[str]) -> str:
    return ", ".join(cards) or "-"


def render(g: Game) -> str:
    """The final state for humans: the public view, then each player's hidden info."""
    view = g.view(None)
    hidden = hidden_info(g)
    lines = [
        f"Turn {view['turn']}, {view['phase']} phase; order: {_names(view['order'])}",
        "Waiting for: "
        + (", ".join(f"{w['player']} ({w['kind']})" for w in view["waiting_for"]) or "nobody"),
    ]
    if view["winner"] or view["ending"]:
        lines.append(f"Game over: winner {view['winner'] or 'nobody'} ({view['ending']})")
    final = view["final_mission"] or "not revealed"
    crisis = f", Crisis! in {view['crisis']}" if view["crisis"] is not None else ""
    lines += [f"Final mission: {final}{crisis}", "", "Regions:"]
    for r in view["regions"]:
        pre = {None: "none", "face_down": "face down"}.get(r["preliminary"], r["preliminary"])
        lines.append(f"  {r['card']} (level {r['level']}), Preliminary Encounter: {pre}")
    lines += ["", "Players:"]
    for name in view["seats"]:
        p = view["players"][name]
        where = p["region"] or "no Region"
        flags = [
            flag
            for flag, on in (
                ("turn over", p["turn_over"]),
                ("resting", p["resting"]),
                ("lost", p["lost"]),
            )
            if on
        ]
        extra = f" [{', '.join(flags)}]" if flags else ""
        lines.append(f"  {name}: Strength {p['strength']}, Speed {p['speed']}, at {where}{extra}")
        party = [
            c["card"]
            + (" (tapped)" if c["tapped"] else "")
            + (" (incapacitated)" if c["incapacitated"] else "")
            for c in p["party"]
        ]
        lines.append(f"    party: {_names(party)}")
        lines.append(f"    in play: {_names(p['in_play'])}")
        lines.append(f"    missions started: {_names(p['started'])}")
        lines.append(f"    missions completed: {_names(p['completed'])}")
        if p["resisting"]:
            lines.append(f"    resisting: {shown(p['resisting'])}")
        h = hidden[name]
        lines.append(f"    hand ({len(h['hand'])}, hidden): {_names(h['hand'])}")
        lines.append(f"    secret missions (hidden): {_names(h['missions'])}")
        if h["offered_characters"] or h["offered_advantages"]:
            offered = h["offered_characters"] + h["offered_advantages"]
            lines.append(f"    offered (hidden): {_names(offered)}")
        for region, card in h["scouted"].items():
            lines.append(f"    scouted (hidden): {region} holds {card}")
        if h["prompt"]:
            lines.append(f"    prompt ({h['prompt']['kind']}): {_names(h['prompt']['choices'])}")
    decks = ", ".join(f"{k} {v}" for k, v in view["decks"].items())
    lines += [
        "",
        f"Decks: {decks}; final missions {view['final_deck']}; set aside {view['set_aside']}",
        "Discards:",
    ]
    lines += [f"  {k}: {_names(v)}" for k, v in view["discards"].items()]
    return "\n".join(lines)


def as_json(outcome: Outcome, source: str) -> dict[str, Any]:
    """The machine form printed by ``anima scenario --json``."""
    failure = outcome.failure
    return {
        "scenario": source,
        "ok": outcome.ok,
        "steps": len(outcome.scenario.steps),
        "steps_run": outcome.steps_run,
        "failure": (
            {"step": failure.step, "spec": failure.spec, "reason": failure.reason}
            if failure
            else None
        ),
        "view": outcome.game.view(None),
        "hidden": hidden_info(outcome.game),
    }
