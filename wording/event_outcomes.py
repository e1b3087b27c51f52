"""The messages of battles, exploration, missions, the end and the expansions' events,
from their payloads: kind -> builder (:data:`OUTCOMES`); see :mod:`wording.event_messages`."""

from __future__ import annotations

from typing import Any

from engine import EncounterCard
from wording.ending import ending_text
from wording.event_context import Builders, Context, with_text
from words import Message, counted, listing, msg, say

OUTCOMES = Builders()


# ---------------------------------------------------------------------- battles


@OUTCOMES("battle")
def _battle(d: dict[str, Any], c: Context) -> Message:
    if d["other"]:
        opponent = c.who(d["other"])
    elif d["card"]:
        opponent = c.card(d["card"])
    else:
        # A mission's or the Crisis!'s enemy, as its card names it.
        opponent = c.printed(None, d["opponent"])
    return msg("event.battle", player=c.who(d["player"]), opponent=opponent)


@OUTCOMES("battle_roll")
def _battle_roll(d: dict[str, Any], c: Context) -> Message:
    # Both sides by name: the other party, or the monster (its name in ``opponent``).
    monster = c.printed(None, d.get("opponent") or "")
    other = c.names.strong(monster) if monster else say(msg("event.battle_roll.monster"))
    sides = [c.who(d["player"]), c.who(d["other"]) if d["other"] else other]
    rolls = [
        msg("event.battle_roll.side", side=side, shown=shown, strength=strength, total=total)
        for side, shown, strength, total in zip(
            sides, d["shown"], d["strengths"], d["totals"], strict=True
        )
    ]
    return msg("event.battle_roll", first=rolls[0], second=rolls[1])


@OUTCOMES("battle_result")
def _battle_result(d: dict[str, Any], c: Context) -> Message:
    if d["margin"]:
        return msg("event.battle_result", winner=c.side(d["winner"]), margin=d["margin"])
    return msg("event.battle_result.tie", winner=c.side(d["winner"]))


@OUTCOMES("tie")
def _tie(d: dict[str, Any], c: Context) -> Message:
    return msg("event.tie.goes_on" if d["goes_on"] else "event.tie")


# ---------------------------------------------------------------------- exploration


@OUTCOMES("explore_roll")
def _explore_roll(d: dict[str, Any], c: Context) -> Message:
    return msg(
        "event.explore_roll", player=c.who(d["player"]), region=c.card(d["region"]), die=d["die"]
    )


@OUTCOMES("explore_result")
def _explore_result(d: dict[str, Any], c: Context) -> Message:
    who = c.who(d["player"])
    if "row" in d:
        region = c.region(d["region"])
        text = region.exploration[d["row"]].text if region is not None else ""
        return msg(
            "event.explore_result.special",
            region=c.card(d["region"]),
            text=c.printed(d["region"], text or ""),
        )
    n = d["count"]
    if not n:
        return msg("event.explore_result.nothing", player=who)
    if "counts_as" in d:
        return counted(
            "event.explore_result.counts_as",
            n,
            player=who,
            region=c.card(d["region"]),
            level=d["counts_as"],
        )
    return counted(
        "event.explore_result.in_a_row" if d.get("in_a_row") else "event.explore_result",
        n,
        player=who,
    )


@OUTCOMES("false_alarm")
def _false_alarm(d: dict[str, Any], c: Context) -> Message:
    card = c.db.by_id.get(d["card"])
    return msg(
        "event.false_alarm",
        card=c.card(d["card"]),
        card_level=card.level if isinstance(card, EncounterCard) else "?",
        region=c.card(d["region"]),
        level=d["level"],
    )


@OUTCOMES("encounter")
def _encounter(d: dict[str, Any], c: Context) -> Message:
    card = c.db.by_id.get(d["card"])
    args: dict[str, object] = {
        "player": c.who(d["player"]),
        "card": c.card(d["card"]),
        "level": card.level if isinstance(card, EncounterCard) else "?",
        "text": c.text(d["card"]),
    }
    if isinstance(card, EncounterCard) and card.kind == "monster":
        return msg("event.encounter.monster", strength=card.strength, **args)
    return msg("event.encounter.event", **args)


@OUTCOMES("reward")
def _reward(d: dict[str, Any], c: Context) -> Message:
    region = c.region(d["region"])
    rewards = region.rewards if region is not None else []
    name = c.printed(d["region"], rewards[d["index"]].name) if d["index"] < len(rewards) else "?"
    return msg("event.reward", player=c.who(d["player"]), reward=name)


# ---------------------------------------------------------------------- missions and the end


@OUTCOMES("mission_started")
def _mission_started(d: dict[str, Any], c: Context) -> Message:
    return msg(
        "event.mission_started",
        player=c.who(d["player"]),
        card=c.card(d["card"]),
        text=c.text(d["card"]),
    )


@OUTCOMES("mission_attempt")
def _mission_attempt(d: dict[str, Any], c: Context) -> Message:
    who = c.who(d["player"])
    if "card" not in d:
        return msg("event.mission_attempt.secret", player=who)
    if c.private:
        return msg("event.mission_attempt.private", card=c.card(d["card"]))
    return msg("event.mission_attempt", player=who, card=c.card(d["card"]))


@OUTCOMES("mission_failed")
def _mission_failed(d: dict[str, Any], c: Context) -> Message:
    who = c.who(d["player"])
    if "card" not in d:
        return msg("event.mission_failed.secret", player=who)
    return msg("event.mission_failed", player=who, card=c.card(d["card"]))


@OUTCOMES("resist")
def _resist(d: dict[str, Any], c: Context) -> Message:
    who = c.who(d["player"])
    if "turns" in d:
        return msg("event.resist", player=who, turns=d["turns"], of=d["of"])
    if "card" in d:
        return msg("event.resist.stand", player=who, card=c.card(d["card"]))
    return msg("event.resist.secret", player=who)


@OUTCOMES("final_revealed")
def _final_revealed(d: dict[str, Any], c: Context) -> Message:
    args: dict[str, object] = {
        "player": c.who(d["player"]),
        "card": c.card(d["card"]),
        "text": c.text(d["card"]),
    }
    if d["crisis"] is not None:
        return msg("event.final_revealed.crisis", turns=d["crisis"], **args)
    return msg("event.final_revealed", **args)


@OUTCOMES("crisis_countdown")
def _crisis_countdown(d: dict[str, Any], c: Context) -> Message:
    return msg("event.crisis_countdown", turns=d["turns"])


@OUTCOMES("crisis_challenge")
def _crisis_challenge(d: dict[str, Any], c: Context) -> Message:
    final = c.db.by_id.get(d["card"])
    text = c.printed(d["card"], getattr(getattr(final, "crisis", None), "text", "") or "")
    order = listing([c.who(p) for p in d["order"]])
    return msg("event.crisis_challenge", text=text, order=order)


@OUTCOMES("game_over")
def _game_over(d: dict[str, Any], c: Context) -> str:
    return ending_text(d.get("winner"), d.get("ending"), c.names, d.get("tiebreak"))


# ---------------------------------------------------------------------- the expansions
# Traps, guards, Arcane characters, Flee and M10. A Trap is named only once it springs
# (``trap_set`` says where, never which).


def _guard(c: Context, region: str) -> str | Message:
    card = c.region(region)
    guard = card.guard if card is not None else None
    return c.printed(region, guard.name) if guard is not None else msg("event.guard.unnamed")


def _guard_stat(c: Context, region: str) -> Message | str:
    """The stat a trap guard's check adds to the die, as its Region's card prints it."""
    card = c.region(region)
    guard = card.guard if card is not None else None
    return msg(f"stat.{guard.check}") if guard is not None and guard.kind == "trap" else ""


def _check(d: dict[str, Any], stat: str | Message = "") -> Message:
    """A check's roll (B6): ``🎲 4 + Speed 5 = 9 vs 8``."""
    stat = f"{say(stat)} " if isinstance(stat, Message) else stat
    return msg(
        "event.check",
        die=d["die"],
        stat=stat,
        bonus=d["total"] - d["die"],
        total=d["total"],
        at_least=d["at_least"],
    )


@OUTCOMES("trap_revealed")
def _trap_revealed(d: dict[str, Any], c: Context) -> Message:
    return with_text(
        "event.trap_revealed",
        d["card"],
        c,
        region=c.card(d["region"]),
        card=c.card(d["card"]),
        player=c.who(d["player"]),
    )


@OUTCOMES("region_level")
def _region_level(d: dict[str, Any], c: Context) -> Message:
    return msg(
        "event.region_level",
        region=c.card(d["region"]),
        level=d["level"],
        amount=f"{d['amount']:+d}",
    )


@OUTCOMES("guard", "guard_beaten")
def _guard_line(d: dict[str, Any], c: Context) -> Message:
    return msg(
        f"event.{c.kind}",
        guard=_guard(c, d["region"]),
        region=c.card(d["region"]),
        player=c.who(d["player"]),
    )


@OUTCOMES("guard_check")
def _guard_check(d: dict[str, Any], c: Context) -> Message:
    return msg(
        "event.guard_check",
        player=c.who(d["player"]),
        guard=_guard(c, d["region"]),
        region=c.card(d["region"]),
        roll=_check(d, _guard_stat(c, d["region"])),
        outcome=msg("event.guard_check.beaten" if d["success"] else "event.guard_check.caught"),
    )


@OUTCOMES("flee")
def _flee(d: dict[str, Any], c: Context) -> Message:
    return msg(
        "event.flee",
        player=c.who(d["player"]),
        card=c.card(d["card"]),
        roll=_check(d, msg("stat.speed")),
        outcome=msg("event.flee.escapes" if d["success"] else "event.flee.caught"),
    )


@OUTCOMES("exchange_arcane")
def _exchange_arcane(d: dict[str, Any], c: Context) -> Message:
    return msg(
        "event.exchange_arcane",
        card=c.card(d["card"]),
        player=c.who(d["player"]),
        arcane=c.card(d["arcane"]),
    )


@OUTCOMES("explore_new_regions")
def _explore_new_regions(d: dict[str, Any], c: Context) -> Message:
    revealed = [
        msg("event.explore_new_regions.one", region=c.card(r), level=region.level)
        for r in d["regions"]
        if (region := c.region(r)) is not None
    ]
    return msg("event.explore_new_regions", player=c.who(d["player"]), regions=listing(revealed))
