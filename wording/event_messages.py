"""The messages of the game's course, cards and effects, movement and interaction (and of
the Discord bot's own events), from their payloads: kind -> builder (:data:`COURSE`).

A builder reads the event's data (``engine.EVENT_PAYLOADS`` declares its fields; the bot's
own kinds are in :data:`BOT_EVENT_KINDS`) and returns a message of the catalogs
(:mod:`words`); the engine's English ``text`` is never read. Seat ids become the front end's
names (:class:`~wording.names.SeatNames`) and card ids card names here, so the templates see
only words.
"""

from __future__ import annotations

from typing import Any

from engine import IDLE, ChoiceData
from wording.actions import NEED_DATA, action_message
from wording.event_context import Builders, Context, outcome, with_text
from words import Message, counted, listing, msg, say

#: The kinds of events the bot itself logs (payload fields as for the engine's kinds).
BOT_EVENT_KINDS: dict[str, tuple[str, ...]] = {
    "window_closed": (),
    "paused": (),
    "channel_paused": ("reason",),
    "resumed": ("player",),
    "takeover": ("player", "times"),
    "reclaimed": ("player",),
    # A slow game's vote on an absent member's seat (issue 26, bot.slow).
    "vote_open": ("player", "times"),
    "vote_ai": ("player",),
    "vote_wait": ("player",),
}


COURSE = Builders()


def _simple(kind: str, *fields: str) -> None:
    """A kind whose message takes its fields as they are: seats as names, cards as names."""
    seats = {"player", "other", "victim"}

    def build(d: dict[str, Any], c: Context) -> Message:
        args = {f: c.who(d[f]) if f in seats else c.card(d[f]) for f in fields}
        return msg(f"event.{kind}", **args)

    COURSE[kind] = build


for _kind in (
    "start_character",
    "start_advantages",
    "turn_over",
    "untap",
    "reroll",
    "lose_next_turn",
    "rest",
    "move_cancelled",
    "trade_withdrawn",
    "trade_declined",
    "deliver",
    "final_completed",
    "crisis_lost",
    "resumed",
    "reclaimed",
    "undone",
    "vote_ai",
    "vote_wait",
):
    _simple(_kind, "player")
for _kind in ("attack", "offer", "trade_offer", "trade", "spoils", "discredit"):
    _simple(_kind, "player", "other")
for _kind in ("steal", "exchange_advantage"):
    _simple(_kind, "player", "victim")
for _kind in ("dismiss", "leave", "hire", "death", "incapacitate", "new_party"):
    _simple(_kind, "player", "card")
for _kind in ("start_character_private", "trap_set_private"):
    _simple(_kind, "card")
_simple("steal_private", "player", "victim", "card")
_simple("spoils_private", "player", "other", "card")
_simple("take_character", "player", "victim", "card")
_simple("mission_completed", "player", "card")
_simple("spoils_artifact", "player", "other", "card")
_simple("incident_over", "player", "card")


@COURSE(
    "battle_cancelled",
    "cancel",
    "no_removal",
    "explore_nothing",
    "crisis",
    "window_closed",
    "paused",
)
def _bare(d: dict[str, Any], c: Context) -> Message:
    """A kind whose message takes no argument."""
    return msg(f"event.{c.kind}")


@COURSE("arrive", "move", "redirect", "scout", "block", "expelled", "leave_region", "trap_set")
def _where(d: dict[str, Any], c: Context) -> Message:
    """A party and a Region (the Region's name as a card name)."""
    return msg(f"event.{c.kind}", player=c.who(d["player"]), region=c.card(d["region"]))


@COURSE("region_removed")
def _region_removed(d: dict[str, Any], c: Context) -> Message:
    return msg("event.region_removed", region=c.card(d["region"]))


@COURSE("scout_private")
def _scout_private(d: dict[str, Any], c: Context) -> Message:
    return msg("event.scout_private", region=c.card(d["region"]), card=c.card(d["card"]))


# ---------------------------------------------------------------------- the game's course


@COURSE("setup")
def _setup(d: dict[str, Any], c: Context) -> Message:
    return msg("event.setup", players=listing([c.who(p) for p in d["players"]]))


@COURSE("regions")
def _regions(d: dict[str, Any], c: Context) -> Message:
    return msg("event.regions", regions=listing([c.card(r) for r in d["regions"]]))


@COURSE("turn")
def _turn(d: dict[str, Any], c: Context) -> Message:
    order = " → ".join(c.names.text(n) for n in d["order"])
    return msg("event.turn", turn=d["turn"], order=order)


@COURSE("tie_roll")
def _tie_roll(d: dict[str, Any], c: Context) -> Message:
    rolls = [msg("event.tie_roll.one", player=c.who(p), die=r) for p, r in d["rolls"].items()]
    return msg("event.tie_roll", rolls=listing(rolls))


@COURSE("reshuffle")
def _reshuffle(d: dict[str, Any], c: Context) -> Message:
    return msg("event.reshuffle", deck=msg(f"deck.{d['deck']}"))


@COURSE("draw")
def _draw(d: dict[str, Any], c: Context) -> Message:
    return counted("event.draw", d["n"], player=c.who(d["player"]))


@COURSE("draw_private")
def _draw_private(d: dict[str, Any], c: Context) -> Message:
    return msg("event.draw_private", cards=listing([c.card(x) for x in d["cards"]]))


@COURSE("timeout")
def _timeout(d: dict[str, Any], c: Context) -> Message:
    """The engine's note, or the bot's (``choice``: the default's label when it is public,
    None when it would name a hidden card)."""
    who = c.who(d["player"])
    if "choice" not in d:
        return msg("event.timeout", player=who)
    if d["choice"] is None:
        return msg("event.timeout.hidden", player=who)
    return msg("event.timeout.choice", player=who, choice=_default(d, c, "choice"))


@COURSE("timeout_private")
def _timeout_private(d: dict[str, Any], c: Context) -> Message:
    # The bot adds the default's label (bot.games.turns); the bare action otherwise.
    return msg("event.timeout_private", choice=_default(d, c, "label"))


def _default(d: dict[str, Any], c: Context, label: str) -> str:
    """The default action a time-out took, in the current language: worded again from the
    stored action and its choice data; a log written before they were stored has only the
    label, in English, for an action whose words need that data."""
    action = d.get("action")
    stored = d.get("choice_data")
    if action and (stored is not None or action.partition(" ")[0] not in NEED_DATA):
        data = ChoiceData.model_validate(stored) if stored is not None else ChoiceData()
        return c.names.text(say(action_message(action, data, c.db)))
    return c.names.text(d.get(label) or action or "")


@COURSE("channel_paused")
def _channel_paused(d: dict[str, Any], c: Context) -> Message:
    return msg("event.channel_paused", reason=msg(f"reason.channel_{d['reason']}"))


@COURSE("takeover", "vote_open")
def _takeover(d: dict[str, Any], c: Context) -> Message:
    return counted(f"event.{c.kind}", d["times"], player=c.who(d["player"]))


# ---------------------------------------------------------------------- cards and effects


@COURSE("play", "ability")
def _play(d: dict[str, Any], c: Context) -> Message:
    return with_text(
        f"event.{c.kind}", d["card"], c, player=c.who(d["player"]), card=c.card(d["card"])
    )


@COURSE("discard")
def _discard(d: dict[str, Any], c: Context) -> Message:
    why = f".{d['why']}" if "why" in d else ""
    return msg(f"event.discard{why}", player=c.who(d["player"]), card=c.card(d["card"]))


@COURSE("take")
def _take(d: dict[str, Any], c: Context) -> Message:
    source = f".{d['source']}" if "source" in d else ""
    return msg(f"event.take{source}", player=c.who(d["player"]), card=c.card(d["card"]))


@COURSE("tap")
def _tap(d: dict[str, Any], c: Context) -> Message:
    if "used" in d:
        return msg("event.tap.used", card=c.card(d["card"]), used=c.card(d["used"]))
    return msg("event.tap", card=c.card(d["card"]), player=c.who(d["player"]))


@COURSE("choose")
def _choose(d: dict[str, Any], c: Context) -> Message:
    # The label is the card's own words for the option (card data; the payload does not
    # name the card: its translation is found by its English), and, for an option that
    # changes nothing now, the engine's English mark of it: worded as a choice's label is.
    label: str = d["label"]
    idle = label.endswith(IDLE)
    option = c.printed(None, label.removesuffix(IDLE))
    said = say(msg("action.pick.idle" if idle else "action.pick", option=option))
    return msg("event.choose", player=c.who(d["player"]), label=said)


@COURSE("modify")
def _modify(d: dict[str, Any], c: Context) -> Message:
    amount = f"{d['amount']:+d}"
    if "player" not in d:
        return msg("event.modify.monster", amount=amount)
    return msg(
        "event.modify",
        player=c.who(d["player"]),
        amount=amount,
        stat=msg(f"stat.{d['stat']}"),
        duration=msg(f"duration.{d['duration']}"),
    )


@COURSE("roll")
def _roll(d: dict[str, Any], c: Context) -> Message:
    args: dict[str, object] = {
        "player": c.who(d["player"]),
        "die": d["die"],
        "total": d["total"],
        "at_least": d["at_least"],
        "outcome": outcome(d["success"]),
    }
    if d["check"] is None:
        return msg("event.roll.plain", **args)
    stat = msg(f"stat.{d['check']}")
    return msg("event.roll", stat=stat, bonus=d["total"] - d["die"], **args)


@COURSE("speed_check", "crisis_attempt")
def _speed_check(d: dict[str, Any], c: Context) -> Message:
    return msg(
        f"event.{c.kind}",
        player=c.who(d["player"]),
        die=d["die"],
        bonus=d["total"] - d["die"],
        total=d["total"],
        at_least=d["at_least"],
        outcome=outcome(d["success"]),
    )


@COURSE("exchange_advantage_private")
def _exchange_private(d: dict[str, Any], c: Context) -> Message:
    return msg(
        "event.exchange_advantage_private",
        given=c.card(d["given"]),
        taken=c.card(d["taken"]),
        player=c.who(d["player"]),
        victim=c.who(d["victim"]),
    )


# ---------------------------------------------------------------------- movement


@COURSE("explore_new")
def _explore_new(d: dict[str, Any], c: Context) -> Message:
    region = c.region(d["region"])
    args: dict[str, object] = {
        "player": c.who(d["player"]),
        "region": c.card(d["region"]),
        "level": region.level if region is not None else "?",
    }
    if d["encounter"]:
        return msg("event.explore_new.guarded", card=c.card(d["encounter"]), **args)
    return msg("event.explore_new", **args)


# ---------------------------------------------------------------------- interaction


@COURSE("rivals")
def _rivals(d: dict[str, Any], c: Context) -> Message:
    return msg(
        "event.rivals",
        player=c.who(d["player"]),
        other=c.who(d["other"]),
        rivalry=msg(f"rivalry.{d['rivalry']}"),
    )


@COURSE("trade_offer_private", "trade_private")
def _offer(d: dict[str, Any], c: Context) -> Message:
    asks: list[str] = [c.card(x) for x in d["ask"]]
    if d["ask_hand"]:
        asks.append(say(counted("event.trade.ask_hand", d["ask_hand"])))
    return msg(
        f"event.{c.kind}",
        player=c.who(d["player"]),
        give=listing([c.card(x) for x in d["give"]]),
        ask=listing(asks),
    )
