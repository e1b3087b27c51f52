"""Interaction phase (I1-I5, X3): trades between trade Regions, attacks, forced fights of
rival Organizations, and what the loser pays."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine import zones
from engine.actions import Action
from engine.flow import handles, responds
from engine.rules.party import (
    HAND_LIMIT,
    PARTY_LIMIT,
    RIVALRIES,
    are_rivals,
    artifact,
    end_turn,
    hand_over_random,
    region_of,
    rivalry_kind,
)
from engine.rules.play import own_turn_plays, play_step_action
from engine.state import Frame, Player
from engine.zones import Zone, ZoneKind

if TYPE_CHECKING:
    from engine.game import Game


def takes_part(p: Player) -> bool:
    """M2/B7/E3: a party that lost a battle or an event this turn does nothing more in it: no
    trade, no battle (and a seat out of the game never does)."""
    return not p.turn_over and not p.lost


def can_attack(g: Game, a: Player, b: Player) -> bool:
    """I2: same Region, fighting allowed, character counts differ by at most one; I5: not
    twice in a turn."""
    if not (takes_part(a) and takes_part(b) and a.region == b.region):
        return False  # checked first: it spares the Region's lookup for most pairs
    region = region_of(g, a)
    return (
        region is not None
        and region.fighting
        and abs(len(a.party) - len(b.party)) <= 1
        and b.name not in a.fought
    )


def must_fight(g: Game, a: Player, b: Player) -> bool:
    """I3: rival Organizations in the same Region must fight."""
    if not (takes_part(a) and takes_part(b) and a.region == b.region):
        return False  # checked first: it spares the Region's lookup for most pairs
    region = region_of(g, a)
    return region is not None and region.fighting and b.name not in a.fought and are_rivals(g, a, b)


def can_trade(g: Game, a: Player, b: Player) -> bool:
    """I1: both parties in Regions with a trade icon; X3: one trade per pair per phase."""
    if not (takes_part(a) and takes_part(b) and b.name not in a.traded):
        return False
    ra, rb = region_of(g, a), region_of(g, b)
    return bool(ra and rb and ra.trade and rb.trade)


@handles("interaction_step")
def interaction_step(g: Game, frame: Frame) -> None:
    name = frame.player or ""
    p = g.player(name)
    if frame.stage == "spoils":  # asked again (a determinized game)
        _ask_spoils(g, frame)
        return
    if frame.stage == "fought":
        if _artifact_spoils(g, frame):
            return  # I4/A7: the winner chooses first
        _after_battle(g, frame)
        frame.stage = ""
    if frame.stage == "spoils_taken":
        _after_battle(g, frame, took_artifact=True)
        frame.stage = ""
    if frame.stage == "spoils_declined":
        _after_battle(g, frame)
        frame.stage = ""
    if frame.stage == "done" or p.turn_over or g.over:
        g.pop()
        return
    others = g.others(name)
    players = g.s.players
    # Only parties in the same Region may fight (I2, I3): most steps look at nobody further.
    here = [o for o in others if p.region is not None and players[o].region == p.region]
    for other in here:
        if must_fight(g, p, players[other]):
            kind = rivalry_kind(g, p, g.player(other))
            g.emit(
                "rivals",
                f"{name} and {other} belong to {RIVALRIES[kind]} and must fight (I3).",
                player=name,
                other=other,
                rivalry=kind,
            )
            _start_battle(g, frame, name, other)
            return
    choices = ["done"]
    choices += [f"attack {o}" for o in here if can_attack(g, p, players[o])]
    region = region_of(g, p)
    if region is not None and region.trade:  # I1: else no trade is possible (can_trade)
        choices += [f"offer {o}" for o in others if can_trade(g, p, players[o])]
    choices += own_turn_plays(g, name, "interaction")
    g.ask(name, "interaction", "Interaction phase: trade, attack, or done (I1, I2).", choices)


def _start_battle(g: Game, frame: Frame, a: str, b: str) -> None:
    g.player(a).fought.append(b)
    g.player(b).fought.append(a)
    frame.stage = "fought"
    frame.other = b
    g.push("battle", player=a, other=b)


def _sides(g: Game, frame: Frame, won: bool | None) -> tuple[Player, Player] | None:
    """(winner, loser) of the battle just fought, None when nobody lost."""
    if won is None:
        return None
    a, b = g.player(frame.player or ""), g.player(frame.other or "")
    return (a, b) if won else (b, a)


def _artifact_spoils(g: Game, frame: Frame) -> bool:
    """I4/A7: a winner with no Artifact may take the loser's instead of a random Advantage;
    asks him (True) when there is one to take."""
    won = g.s.result.get("won")
    sides = _sides(g, frame, won)
    if sides is None:
        return False
    winner, loser = sides
    if artifact(g, loser) is None or artifact(g, winner) is not None:
        return False
    frame.stage = "spoils"
    frame.data["spoils"] = {"won": won}
    _ask_spoils(g, frame)
    return True


def _ask_spoils(g: Game, frame: Frame) -> None:
    sides = _sides(g, frame, frame.data["spoils"]["won"])
    assert sides is not None
    winner, loser = sides
    taken = artifact(g, loser)
    assert taken is not None
    g.ask(
        winner.name,
        "spoils",
        f"You won: take {loser.name}'s Artifact {taken.name}, or pass for a random Advantage "
        "from his hand (I4).",
        ["pass", f"take {taken.id}"],
        default="pass",
        data={"other": loser.name, "card": taken.id},
    )


def _after_battle(g: Game, frame: Frame, took_artifact: bool = False) -> None:
    """I4: the loser gives the winner a random Advantage (or his Artifact, A7), leaves the
    Region, his turn ends."""
    spoils = frame.data.pop("spoils", None)
    # The battle's outcome, kept across the question of spoils.
    sides = _sides(g, frame, spoils["won"] if spoils is not None else g.s.result.get("won"))
    if sides is None:
        return
    winner, loser = sides
    taken = artifact(g, loser) if took_artifact else None
    if taken is not None:
        zones.move(g.s, taken.id, Zone("in_play", loser.name), Zone("in_play", winner.name))
        g.emit(
            "spoils_artifact",
            f"{winner.name} takes {loser.name}'s Artifact {taken.name} (I4).",
            player=winner.name,
            other=loser.name,
            card=taken.id,
        )
    elif loser.hand and len(winner.hand) < HAND_LIMIT:
        text = f"{loser.name} gives {winner.name} a random Advantage."
        kinds = ("spoils", "spoils_private")
        hand_over_random(g, loser, winner, kinds, text, player=winner.name, other=loser.name)
    if loser.region is not None:
        g.emit(
            "leave_region",
            f"{loser.name}'s party leaves {g.db[loser.region].name}.",
            player=loser.name,
            region=loser.region,
        )
    loser.region = None
    loser.resisting.clear()  # F2: a defeated Resistance starts over
    end_turn(g, loser)


@responds("interaction_step")
def answer_interaction(g: Game, frame: Frame, player: str, action: Action) -> None:
    if action.type == "done":
        g.pop()  # at once, not through the "done" stage: one handler step less (hot path)
    elif frame.stage == "spoils":  # I4/A7: the winner's choice of spoils
        frame.stage = "spoils_taken" if action.type == "take" else "spoils_declined"
    elif action.type == "attack":
        g.emit("attack", f"{player} attacks {action.arg}!", player=player, other=action.arg)
        _start_battle(g, frame, player, action.arg or "")
    elif action.type == "offer":
        other = action.arg or ""
        g.emit("offer", f"{player} proposes a trade to {other}.", player=player, other=other)
        g.push("trade", player=player, other=other, data={"give": [], "ask": [], "ask_hand": 0})
    else:
        play_step_action(g, player, action, "interaction")


# ---------------------------------------------------------------------- trades (I1, X3)


def _sizes_after(g: Game, frame: Frame) -> tuple[int, int, int, int]:
    """Hand and party sizes of (offerer, partner) if the offer is accepted."""
    a, b = g.player(frame.player or ""), g.player(frame.other or "")
    give, ask, ask_hand = frame.data["give"], frame.data["ask"], frame.data["ask_hand"]
    give_hand = sum(1 for c in give if c in a.hand)
    give_chars = len(give) - give_hand
    return (
        len(a.hand) - give_hand + ask_hand,
        len(a.party) - give_chars + len(ask),
        len(b.hand) + give_hand - ask_hand,
        len(b.party) + give_chars - len(ask),
    )


def _offer_fits(g: Game, frame: Frame) -> bool:
    hand_a, party_a, hand_b, party_b = _sizes_after(g, frame)
    return (
        hand_a <= HAND_LIMIT
        and hand_b <= HAND_LIMIT
        and 1 <= party_a <= PARTY_LIMIT
        and 1 <= party_b <= PARTY_LIMIT
    )


def offer_data(frame: Frame) -> dict[str, Any]:
    """An offer as event data (the private trade events): who gives which cards for which
    cards and how many Advantages of the other's choice."""
    return {
        "player": frame.player or "",
        "other": frame.other or "",
        "give": list(frame.data["give"]),
        "ask": list(frame.data["ask"]),
        "ask_hand": int(frame.data["ask_hand"]),
    }


def describe_offer(g: Game, frame: Frame) -> str:
    names = [g.db[c].name for c in frame.data["give"]]
    asks = [g.db[c].name for c in frame.data["ask"]]
    if frame.data["ask_hand"]:
        asks.append(f"{frame.data['ask_hand']} Advantage(s) of your choice")
    return (
        f"{frame.player} gives {', '.join(names) or 'nothing'} for {', '.join(asks) or 'nothing'}"
    )


@handles("trade")
def run_trade(g: Game, frame: Frame) -> None:
    a, b = g.player(frame.player or ""), g.player(frame.other or "")
    if frame.stage == "":
        give = frame.data["give"]
        choices = [f"give {c}" for c in a.hand if c not in give]
        choices += [f"give {c.card}" for c in a.party if c.card not in give]
        choices += [f"ask {c.card}" for c in b.party if c.card not in frame.data["ask"]]
        if frame.data["ask_hand"] < len(b.hand):
            choices.append("ask hand")
        offer = give or frame.data["ask"] or frame.data["ask_hand"]
        if offer and _offer_fits(g, frame):
            choices.append("send")
        choices.append("withdraw")
        g.ask(
            a.name,
            "trade_offer",
            f"Build your offer to {b.name}: {describe_offer(g, frame)}.",
            choices,
            default="withdraw",
            data=offer_data(frame),
        )
        return
    if frame.stage == "sent":
        choices = ["accept", "decline"] if _offer_fits(g, frame) else ["decline"]
        g.ask(
            b.name,
            "trade_answer",
            f"Trade offer: {describe_offer(g, frame)}.",
            choices,
            default="decline",
            data=offer_data(frame),
        )
        return
    if frame.stage == "pay":
        if frame.data["paid"] >= frame.data["ask_hand"]:
            _exchange(g, frame)
            return
        g.ask(
            b.name,
            "trade_pay",
            "Choose an Advantage to hand over.",
            [f"pick {c}" for c in b.hand if c not in frame.data["payment"]],
        )
        return
    g.pop()


@responds("trade")
def answer_trade(g: Game, frame: Frame, player: str, action: Action) -> None:
    arg = action.arg or ""
    if action.type == "give":
        frame.data["give"].append(arg)
    elif action.type == "ask":
        if arg == "hand":
            frame.data["ask_hand"] += 1
        else:
            frame.data["ask"].append(arg)
    elif action.type == "send":
        # X3: the pair's one trade of the phase is used once an offer is made (accepted or
        # not); building an offer and withdrawing it before sending uses nothing.
        g.player(player).traded.append(frame.other or "")
        g.player(frame.other or "").traded.append(player)
        frame.stage = "sent"
        g.emit(
            "trade_offer",
            f"{player} makes an offer to {frame.other}.",
            player=player,
            other=frame.other or "",
        )
        g.emit(
            "trade_offer_private",
            describe_offer(g, frame),
            to=[player, frame.other or ""],
            **offer_data(frame),
        )
    elif action.type == "withdraw":
        frame.stage = "done"
        g.emit("trade_withdrawn", f"{player} withdraws the offer.", player=player)
        # X3: the first offer withdrawn before it is sent uses nothing; a second one to the same
        # player uses the pair's trade, or offering and withdrawing could go on forever.
        step = g.find_frame("interaction_step")
        withdrawn: list[str] = step.data.setdefault("withdrawn", []) if step else []
        if frame.other in withdrawn:
            g.player(player).traded.append(frame.other or "")
            g.player(frame.other or "").traded.append(player)
        else:
            withdrawn.append(frame.other or "")
    elif action.type == "decline":
        frame.stage = "done"
        g.emit("trade_declined", f"{player} declines the trade.", player=player)
    elif action.type == "accept":
        frame.stage = "pay"
        frame.data.update(paid=0, payment=[])
    else:  # pick: one of the Advantages asked for
        frame.data["payment"].append(arg)
        frame.data["paid"] += 1


def _exchange(g: Game, frame: Frame) -> None:
    a, b = g.player(frame.player or ""), g.player(frame.other or "")
    for card in frame.data["give"]:
        kind: ZoneKind = "hand" if card in a.hand else "party"
        zones.move(g.s, card, Zone(kind, a.name), Zone(kind, b.name))
    for card in frame.data["ask"]:
        zones.move(g.s, card, Zone("party", b.name), Zone("party", a.name))
    for card in frame.data["payment"]:
        zones.move(g.s, card, Zone("hand", b.name), Zone("hand", a.name))
    g.emit("trade", f"{a.name} and {b.name} trade.", player=a.name, other=b.name)
    g.emit(
        "trade_private", describe_offer(g, frame) + ".", to=[a.name, b.name], **offer_data(frame)
    )
    frame.stage = "done"
