"""Per-player views: what one player may see (own hand, own missions, own prompt, scouted
Encounters), or the public view. Hidden cards of others appear only as counts."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.rules.missions import is_secret
from engine.rules.party import speed, strength

if TYPE_CHECKING:
    from engine.game import Game


def build_view(g: Game, viewer: str | None) -> dict[str, Any]:
    s = g.s
    players: dict[str, Any] = {}
    for name in s.seats:
        p = s.players[name]
        mine = name == viewer
        choosing = s.phase == "setup" and not mine  # S3: hidden until everyone has chosen
        entry: dict[str, Any] = {
            "party": []
            if choosing
            else [
                {"card": c.card, "tapped": c.tapped, "incapacitated": c.incapacitated}
                for c in p.party
            ],
            "strength": None if choosing else strength(g, p),
            "speed": None if choosing else speed(g, p),
            "hand_count": len(p.hand),
            "secret_missions": len(p.missions),
            "started": list(p.started),
            "completed": list(p.completed),
            "in_play": list(p.in_play),
            "region": p.region,
            "turn_over": p.turn_over,
            "resting": any(m.source == "rest" for m in p.modifiers),
            # A secret Resistance mission under way shows as held turns, not by name (F1).
            "resisting": {
                (m if mine or not is_secret(g, m) else "secret"): n for m, n in p.resisting.items()
            },
            "lost": p.lost,
        }
        if mine:
            entry["hand"] = list(p.hand)
            entry["missions"] = list(p.missions)
            entry["offered_characters"] = list(p.offered_characters)
            entry["offered_advantages"] = list(p.offered_advantages)
        players[name] = entry
    regions = []
    for r in s.regions:
        shown = r.revealed or (viewer is not None and viewer in r.peeked)
        regions.append(
            {
                "card": r.card,
                "level": g.db.region(r.card).level,
                "preliminary": (r.preliminary if shown else "face_down") if r.preliminary else None,
            }
        )
    view: dict[str, Any] = {
        "viewer": viewer,
        "turn": s.turn,
        "phase": s.phase,
        "order": list(s.order),
        "seats": list(s.seats),
        "players": players,
        "regions": regions,
        "final_mission": s.final_mission,
        "crisis": s.crisis,
        "decks": {k: len(v) for k, v in s.decks.items()},
        "discards": {k: list(v) for k, v in s.discards.items()},
        "set_aside": len(s.set_aside),
        "final_deck": len(s.final_deck),
        "waiting_for": [{"player": p.player, "kind": p.kind} for p in s.prompts],
        "winner": s.winner,
        "ending": s.ending,
        "version": s.actions,
    }
    mine_prompt = next((p for p in s.prompts if p.player == viewer), None)
    if mine_prompt is not None:
        view["prompt"] = mine_prompt.to_dict()
    return view
