"""Text and embeds: the board, private hands, cards, choices, event batches, the lobby.

The one renderer of the bot: it turns the engine's views (:class:`~engine.views.TableView`,
:class:`~engine.views.SeatView`), prompt views and event payloads into Discord messages. What
is public is the engine's decision (a public view, a choice's ``public`` flag, a prompt's
``public_text``); nothing here reads a game's state.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, cast

import discord

from bot.autopass import describe
from bot.lobby_options import EDITION_OPTIONS, OPTIONAL_RULES, selected_codes
from bot.storage import EventRow, GameRow, SeatRow
from engine import (
    DEFAULT_LEVEL,
    ENDINGS,
    LEVELS,
    PLAY_KINDS,
    TIEBREAKS,
    AdvantageCard,
    Card,
    CardDB,
    CharacterCard,
    ChoiceView,
    EncounterCard,
    Ending,
    FinalMissionCard,
    MissionCard,
    Objective,
    Options,
    PartyView,
    PublicChoice,
    RegionCard,
    RegionView,
    SeatView,
    TableView,
    Tiebreak,
    kind_text,
    reward_label,
)

# Discord limits
CONTENT_LIMIT = 2000
EMBED_DESCRIPTION_LIMIT = 4096
FIELD_LIMIT = 1024
LABEL_LIMIT = 80
OPTION_LABEL_LIMIT = 100

COLOR = discord.Colour(0x6B3FA0)
COLOR_PRIVATE = discord.Colour(0x2F7D6D)
COLOR_OVER = discord.Colour(0xC9A227)

PHASES = {
    "setup": "Setup",
    "reset": "Reset phase",
    "movement": "Movement phase",
    "interaction": "Interaction phase",
    "exploration": "Exploration phase",
    "crisis": "Crisis!",
    "over": "Game over",
}

ADVANTAGE_KINDS = {
    "skill": "Skill",
    "plot": "Plot",
    "organization": "Organization",
    "interrupt": "Interrupt",
    "battle": "Battle",
    "incident": "Incident",
    "trap": "Trap",
    "faction": "Faction",
    "artifact": "Artifact",
}

#: The marks of the expansions' elements on the board and in the panels (the footer's legend).
ARCANE_MARK = "✦"
TRAP_MARK = "🪤"
GUARD_MARK = "🛡"
BEATEN_MARK = "🏳"
#: Cards in play in front of a party, by kind: a Faction, an Artifact, an Incident (until the
#: end of the turn), anything else (Organizations, Magic Objects).
IN_PLAY_MARKS = {"faction": "🚩", "artifact": "🏺", "incident": "🌀"}
IN_PLAY_MARK = "🏛"


EMBED_TOTAL_LIMIT = 6000


@functools.lru_cache(maxsize=4096)
def escape(text: str) -> str:
    """User text (a display name, anything a user typed) made safe to echo in a message or
    an embed: markdown (bold, masked links, headings, quotes, code...) shows as typed,
    ``@everyone`` / ``@here`` cannot ping, and Discord's ``<...>`` syntax (``<@id>`` user
    and ``<@&id>`` role mentions, ``<#id>`` channels, ``<t:...>`` times, custom emojis)
    shows as typed instead of becoming a mention or a link. The one escape of the
    renderer: every user-provided string goes through it before it is put in markdown.
    (Cached: the same few names are escaped many times per message.)"""
    text = discord.utils.escape_mentions(discord.utils.escape_markdown(text))
    return text.replace("<", "\\<")


def plural(n: int, one: str, many: str | None = None) -> str:
    """``1 Encounter``, ``2 Encounters`` (``many`` when adding an s is wrong)."""
    return f"{n} {one if n == 1 else (many or one + 's')}"


#: A rule ID in parentheses in an engine text ("(B2)", "(V2, BGE reading)"): the rules are
#: for help texts (``/anima rules``); the table reads the game without them.
_RULE_IDS = re.compile(r"\s*\((?:[A-Z][0-9]{1,2}[a-z]?)(?:,\s*[^()]*)?\)")


def without_rule_ids(text: str) -> str:
    """``text`` without the rule IDs the engine cites."""
    return _RULE_IDS.sub("", text)


def clip(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters, with an ellipsis when cut."""
    return text if len(text) <= limit else text[: max(0, limit - 1)] + "…"


def fit(embed: discord.Embed, limit: int = EMBED_TOTAL_LIMIT - 200) -> discord.Embed:
    """Shorten the longest field values until the embed is within Discord's total limit."""
    while len(embed) > limit and embed.fields:
        i, longest = max(enumerate(embed.fields), key=lambda f: len(f[1].value or ""))
        value = longest.value or ""
        excess = len(embed) - limit
        if len(value) <= 20:
            break
        embed.set_field_at(
            i,
            name=longest.name,
            value=clip(value, max(20, len(value) - excess)),
            inline=longest.inline,
        )
    return embed


# ---------------------------------------------------------------------- names


@dataclass
class Names:
    """Seat id -> display name, for every text that leaves the bot."""

    seats: dict[str, SeatRow]

    def of(self, seat: str | None) -> str:
        """The seat's display name, escaped for a message or an embed (markdown)."""
        return escape(self.label(seat))

    def label(self, seat: str | None) -> str:
        """The seat's display name as typed, for button labels and select options (Discord
        shows them as plain text)."""
        if seat is None:
            return "nobody"
        row = self.seats.get(seat)
        if row is None:
            return seat
        return ("🤖 " if row.ai and not row.human else "") + row.name

    def bold(self, seat: str | None) -> str:
        return f"**{self.of(seat)}**"

    def mention(self, seat: str) -> str:
        row = self.seats.get(seat)
        if row is not None and row.user_id is not None and not row.ai:
            return f"<@{row.user_id}>"
        return self.bold(seat)

    def sub(self, text: str) -> str:
        """An engine text for a message: seat ids (p1..p5) as bold escaped display names,
        without rule IDs."""
        return self._sub(text, self.bold)

    def text(self, text: str) -> str:
        """An engine text inside a line that is already bold (a choice in ``**…**``): seat
        ids as escaped display names, without rule IDs."""
        return self._sub(text, self.of)

    def plain(self, text: str) -> str:
        """An engine text for a button label: seat ids as display names, without rule IDs."""
        return self._sub(text, self.label)

    def _sub(self, text: str, how: Callable[[str], str]) -> str:
        text = without_rule_ids(text)
        if not self.seats:
            return text
        return _seat_pattern(tuple(self.seats)).sub(lambda m: how(m.group(1)), text)


@functools.lru_cache(maxsize=256)
def _seat_pattern(seats: tuple[str, ...]) -> re.Pattern[str]:
    """The seat ids of a game as whole words (compiled once per set of seats)."""
    return re.compile(r"\b(" + "|".join(re.escape(s) for s in seats) + r")\b")


def seat_names(seats: Iterable[SeatRow]) -> Names:
    return Names({s.seat: s for s in seats})


# ---------------------------------------------------------------------- cards


def card_name(db: CardDB, card_id: str) -> str:
    card = db.by_id.get(card_id)
    return card.name if card else card_id


def card_kind(card: Card) -> str:
    if isinstance(card, CharacterCard) and card.arcane:
        return "Character · Arcane"
    if isinstance(card, AdvantageCard):
        return f"Advantage · {ADVANTAGE_KINDS[card.kind]}"
    if isinstance(card, EncounterCard):
        return f"Encounter · {card.kind.capitalize()}"
    if isinstance(card, FinalMissionCard):
        return "Final mission"
    if isinstance(card, MissionCard):
        return "Basic mission"
    if isinstance(card, CharacterCard) and card.arcane:
        return "Character · Arcane"  # C7: its own deck
    return card.type.capitalize()


#: Marks a card whose text is our stand-in (engine.cards: ``source``), in lists of cards.
STAND_IN_MARK = "◇"
STAND_IN_LEGEND = (
    f"{STAND_IN_MARK} stand-in text: our own design, the printed text is not available"
)


def card_line(db: CardDB, card_id: str, *, text: bool = True) -> str:
    """One line about a card: name, type, numbers and (optionally) its text."""
    card = db.by_id.get(card_id)
    if card is None:
        return card_id
    extra = ""
    if isinstance(card, CharacterCard):
        extra = f" ({card.strength}/{card.speed})" + (f" {ARCANE_MARK}" if card.arcane else "")
    elif isinstance(card, EncounterCard) and card.strength is not None:
        extra = f" (Strength {card.strength})"
    mark = f" {STAND_IN_MARK}" if card.is_stand_in else ""
    head = f"**{card.name}**{mark} · {card_kind(card)}{extra}"
    return f"{head} — {card.text}" if text and card.text else head


def hand_choice_label(db: CardDB, card_id: str, playable: bool) -> str:
    """A card of the user's hand as ``/anima play`` suggests it (only he sees it)."""
    kind = card_kind(db[card_id]).split(" · ")[-1]
    now = " · playable now" if playable else ""
    return clip(f"{card_name(db, card_id)} ({kind}){now}", OPTION_LABEL_LIMIT)


def _objective_text(o: Objective, db: CardDB) -> str:
    """A mission's objective in plain words, for ``/anima card`` ("Fight Tiamat (Strength 10)
    at the Pit of Hell", "Hold out 2 turns at ..., beating ... on each")."""
    where = ""
    if o.region:
        where = f" at {db.by_id[o.region].name}" if o.region in db.by_id else ""
    elif o.region_level:
        where = f" in a Region of level {o.region_level}+"
    if o.kind == "fight":
        return f"Fight {o.opponent or 'an opponent'} (Strength {o.strength or '= level'}){where}"
    if o.kind == "speed_check":
        return f"Speed check {o.difficulty}+{where}"
    if o.kind == "resist" and o.strength is not None:
        return (
            f"Hold out {plural(o.turns or 0, 'turn')}{where}, beating "
            f"{o.opponent or 'the enemies'} (Strength {o.strength}) on each; beaten, the party "
            "is driven out and starts over"
        )
    if o.kind == "resist":
        return f"Stay {plural(o.turns or 0, 'turn')}{where}"
    if o.kind == "gather":
        return f"Gather a party{where}"
    if o.kind == "encounters":
        place = where or " in any Region"
        level = (
            f", the Region counting as level {o.region_counts_as} until they are over"
            if o.region_counts_as is not None
            else ""
        )
        return (
            f"Come through {plural(o.encounters or 0, 'Encounter')} in a row{place}{level}; "
            "a defeat drives the party out"
        )
    return f"Deliver {plural(o.advantages or 0, 'Advantage')}{where}"


#: How the expansions' kinds of Advantage are played (A4-A7), for ``/anima card``.
ADVANTAGE_RULES = {
    "incident": "🌀 Incident: it lasts until the end of the turn (A4).",
    "trap": f"{TRAP_MARK} Trap: laid face down on a Region in the Reset phase; only its owner "
    "knows it; it springs at the end of the Movement phase where a party stands (A5, M9).",
    "faction": f"{IN_PLAY_MARKS['faction']} Faction: one at a time; enemy Factions must fight "
    "(A6).",
    "artifact": f"{IN_PLAY_MARKS['artifact']} Artifact: one at a time, replaced in the Reset "
    "phase; a battle's winner may take it as spoils (A7).",
}


def guard_text(region: RegionCard) -> str:
    """A guarded Region's guard as its card prints it (TotG): who, and how it is beaten."""
    guard = region.guard
    if guard is None:
        return "none"
    if guard.kind == "monster":
        how = f"monster, Strength {guard.strength}: every party entering fights it"
    else:
        how = (
            f"trap: at the end of the Movement phase a party here makes a "
            f"{guard.check.capitalize()} check, {guard.difficulty}+"
        )
    text = f" — {guard.text}" if guard.text else ""
    return clip(f"**{guard.name}** ({how}; it stays until beaten){text}", FIELD_LIMIT)


def card_embed(db: CardDB, card_id: str) -> discord.Embed:
    """The ``/anima card`` answer."""
    card = db[card_id]
    embed = discord.Embed(title=card.name, description=card.text or None, colour=COLOR)
    embed.add_field(name="Type", value=card_kind(card))
    embed.add_field(name="Set", value=SET_NAMES.get(card.set, card.set.replace("_", " ").title()))
    if isinstance(card, CharacterCard):
        embed.add_field(name="Strength / Speed", value=f"{card.strength} / {card.speed}")
        embed.add_field(name="Gender", value=card.gender)
        skills = ", ".join(s.capitalize() for s in card.skills) or "none"
        embed.add_field(name="Skills", value=skills)
        if card.arcane:
            embed.add_field(
                name=f"{ARCANE_MARK} Arcane",
                value="Own deck; hired with three characters at a Region with Hire, for one "
                "discarded Advantage; never dismissed.",
                inline=False,
            )
    elif isinstance(card, RegionCard):
        marks = []
        if card.trade:
            marks.append("🤝 trade")
        if not card.fighting:
            marks.append("☮ no fighting")
        embed.add_field(name="Level", value=str(card.level))
        embed.add_field(name="Marks", value=", ".join(marks) or "—")
        rows = []
        for i, row in enumerate(card.exploration, start=1):
            what = {"nothing": "nothing", "encounters": plural(row.count, "Encounter")}.get(
                row.result, row.text or "special"
            )
            rows.append(f"🎲 {i}: {what}")
        embed.add_field(name="Exploration", value="\n".join(rows), inline=False)
        embed.add_field(
            name="Rewards",
            value="\n".join(reward_label(card, i) for i in range(len(card.rewards))),
            inline=False,
        )
        if card.guard is not None:
            embed.add_field(name=f"{GUARD_MARK} Guard", value=guard_text(card), inline=False)
    elif isinstance(card, EncounterCard):
        embed.add_field(name="Level", value=str(card.level))
        if card.strength is not None:
            embed.add_field(name="Strength", value=str(card.strength))
        if card.keywords:
            embed.add_field(name="Keywords", value=", ".join(card.keywords))
    elif isinstance(card, MissionCard):
        embed.add_field(name="Level", value=str(card.level))
        embed.add_field(name="Objective", value=_objective_text(card.objective, db))
    elif isinstance(card, FinalMissionCard):
        embed.add_field(name="Quest", value=_objective_text(card.quest, db))
        embed.add_field(name="Crisis! limit", value=plural(card.crisis.limit, "turn"))
        if card.crisis.text:
            embed.add_field(name="Crisis!", value=clip(card.crisis.text, FIELD_LIMIT), inline=False)
    elif isinstance(card, AdvantageCard):
        if card.skill:
            embed.add_field(name="Needs", value=card.skill.capitalize())
        if card.kind in ADVANTAGE_RULES:
            embed.add_field(name="Rule", value=ADVANTAGE_RULES[card.kind], inline=False)
        if card.rivals:
            rivals = ", ".join(card_name(db, r) for r in card.rivals)
            enemy = "Enemy Factions" if card.kind == "faction" else "Rivals"
            embed.add_field(name=enemy, value=clip(rivals, FIELD_LIMIT), inline=False)
    embed.set_footer(text=card.source_note or "Printed card: name and facts as published.")
    return embed


# ---------------------------------------------------------------------- choices


def choice_description(choice: ChoiceView, view: TableView, player: str, db: CardDB) -> str | None:
    """What a choice gives, for a select option's description, when its label alone does
    not say it: a Region's reward (E6) is named on the card ("Woodland Shrine"); its text
    says what it does."""
    kind, _, arg = choice.action.partition(" ")
    if kind != "reward" or not arg.isdigit():
        return None
    region = view.party(player).region
    if region is None or region not in db.by_id:
        return None
    rewards = db.region(region).rewards
    if int(arg) >= len(rewards):
        return None
    reward = rewards[int(arg)]
    if reward.kind == "advantage":
        return "Into your hand"
    if reward.kind == "hire":
        return "A character from the deck joins your party"
    return clip(reward.text, OPTION_LABEL_LIMIT) if reward.text else None


def choice_label(choice: ChoiceView | PublicChoice, names: Names) -> str:
    """A button label: the engine's neutral label, seat ids as display names (may name
    cards: only public choices go on the board)."""
    return clip(names.plain(choice.label), LABEL_LIMIT)


def choice_text(choice: ChoiceView | PublicChoice, names: Names) -> str:
    """A choice named in a message ("You chose: …", "ran out of time: …"): its label with
    the display names escaped (a label is plain text, a message is markdown)."""
    return clip(names.text(choice.label), LABEL_LIMIT * 2)


# ---------------------------------------------------------------------- the board


def _time(ts: float | None) -> str:
    """A relative time ("in 2 minutes"), only for messages the bot edits when it is over:
    the current board (posted again or stripped of its board at every change)."""
    return f"<t:{int(ts)}:R>" if ts else ""


def at_time(ts: float | None) -> str:
    """An absolute time (each reader's own clock), for lines nobody will edit once the
    moment has passed: seconds shown for a deadline less than 10 minutes ahead."""
    if not ts:
        return ""
    ahead = ts - discord.utils.utcnow().timestamp()
    style = "T" if ahead < 600 else ("t" if ahead < 12 * 3600 else "f")
    return f"<t:{int(ts)}:{style}>"


PAUSED_TEXT = "Paused: everybody is away. Any seated player's click resumes the game."
#: How the board marks a member's seat that the AI plays (after too many time-outs).
AI_AWAY = "🤖 (AI, away)"


def waiting_line(
    view: TableView, seats: dict[str, SeatRow], names: Names, paused: bool = False
) -> str:
    """Who must decide what now (public)."""
    waiting = view.waiting
    if view.over or not waiting:
        return ""
    if paused:
        return f"⏸️ **{PAUSED_TEXT}**"
    windows = [w for w in waiting if w.window]
    if windows:
        first = windows[0]
        deadline = seats[first.player].deadline if first.player in seats else None
        ends = f" Closes {_time(deadline)}." if deadline else ""
        text = names.sub(first.text)
        # Only who is still asked: whoever passed (by hand or on auto-pass) is not named.
        who = ", ".join(names.bold(w.player) for w in windows)
        return f"⚡ **Reaction window** — {text} Waiting for {who}.{ends}"
    if len(waiting) > 1:
        who = ", ".join(names.bold(w.player) for w in waiting)
        return f"⏳ Waiting for {who} to {kind_text(waiting[0].kind)}."
    w = waiting[0]
    deadline = seats[w.player].deadline if w.player in seats else None
    ends = f" ⏰ {_time(deadline)}" if deadline else ""
    return f"➡️ {names.bold(w.player)}'s decision — {names.sub(w.text)}{ends}"


def party_field(view: TableView, p: PartyView, db: CardDB, names: Names) -> tuple[str, str]:
    """(name, value) of a party's board field."""
    where = f" · 📍 {card_name(db, p.region)}" if p.region else ""
    flags = []
    if p.lost:
        flags.append("❌ out")
    if p.turn_over and not view.over:
        flags.append("turn over")
    if p.resting:
        flags.append("resting")
    who = names.of(p.seat)
    row = names.seats.get(p.seat)
    if row is not None and row.taken_over:
        who = f"{who} {AI_AWAY}"
    if p.hidden:
        head = f"{who} · choosing a leader{where}"
    else:
        head = f"{who} · ⚔ {p.strength} · 💨 {p.speed}{where}"
    if flags:
        head += f" ({', '.join(flags)})"
    chars = []
    for c in p.characters:
        card = db.character(c.card)
        mark = " 💤" if c.incapacitated else (" ↷" if c.tapped else "")
        arcane = f"{ARCANE_MARK} " if c.arcane else ""
        chars.append(f"{arcane}{card.name} {card.strength}/{card.speed}{mark}")
    if p.hidden:
        lines = ["🂠 leader hidden until everybody has chosen"]
    else:
        lines = [", ".join(chars) or "no characters"]
    lines += in_play_lines(p.in_play, db)
    lines.append(
        f"✋ {plural(p.hand_count, 'Advantage')} · 📜 {plural(p.secret_missions, 'secret mission')}"
    )
    if p.started:
        lines.append("🎯 " + ", ".join(card_name(db, c) for c in p.started))
    if p.completed:
        lines.append("✅ " + ", ".join(card_name(db, c) for c in p.completed))
    return clip(head, 256), clip("\n".join(lines), FIELD_LIMIT)


def in_play_lines(cards: Sequence[str], db: CardDB) -> list[str]:
    """A party's cards in play, one line per mark: its Faction (🚩), Artifact (🏺), Incidents
    (🌀), and the rest (🏛: Organizations, Magic Objects)."""
    groups: dict[str, list[str]] = {}
    for c in cards:
        card = db.by_id.get(c)
        kind = card.kind if isinstance(card, AdvantageCard) else ""
        groups.setdefault(IN_PLAY_MARKS.get(kind, IN_PLAY_MARK), []).append(card_name(db, c))
    order = [IN_PLAY_MARK, *IN_PLAY_MARKS.values()]
    return [f"{mark} " + ", ".join(groups[mark]) for mark in order if mark in groups]


def level_text(r: RegionView) -> str:
    """``L2``, or ``L3 (printed 2)`` while a card changes the Region's level this turn."""
    if r.printed_level and r.level != r.printed_level:
        return f"L{r.level} (printed {r.printed_level})"
    return f"L{r.level}"


def region_extras(r: RegionView, db: CardDB) -> list[str]:
    """What lies on a Region besides its Preliminary Encounter: face-down Traps (only how
    many) and its guard, standing or beaten."""
    out = []
    if r.traps:
        out.append(f"{TRAP_MARK} {plural(r.traps, 'Trap')} face down")
    if r.guard != "none":
        guard = db.region(r.card).guard
        name = guard.name if guard is not None else "its guard"
        out.append(
            f"{GUARD_MARK} guarded by {name}"
            if r.guard == "standing"
            else f"{BEATEN_MARK} {name} beaten"
        )
    return out


def regions_text(view: TableView, db: CardDB, names: Names) -> str:
    lines = []
    for r in view.regions:
        card = db.region(r.card)
        marks = " ".join(m for m, on in (("🤝", card.trade), ("☮", not card.fighting)) if on)
        if r.preliminary_state == "none":
            pre = "clear"
        elif r.preliminary_state == "revealed" and r.preliminary is not None:
            enc = db.encounter(r.preliminary)
            pre = f"{enc.name}" + (f" (S {enc.strength})" if enc.strength is not None else "")
        else:
            pre = "🂠 face down"
        extras = "".join(f" · {x}" for x in region_extras(r, db))
        here = [names.of(n) for n in r.parties]
        at = f" — {', '.join(here)}" if here else ""
        head = f"**{card.name}** {level_text(r)}{' ' + marks if marks else ''}"
        lines.append(f"{head} · {pre}{extras}{at}")
    return clip("\n".join(lines) or "none yet", FIELD_LIMIT)


def board_embed(
    view: TableView, db: CardDB, row: GameRow, seats: dict[str, SeatRow]
) -> discord.Embed:
    """The public board: turn, phase, order, parties, Regions, missions, whose decision."""
    names = Names(seats)
    title = f"Anima · game #{row.id}"
    if view.turn:
        title += f" · turn {turn_text(view.turn, row)}"
    title += f" · {PHASES.get(view.phase, view.phase)}"
    lines = []
    if view.order:
        lines.append("**Turn order:** " + " → ".join(names.of(n) for n in view.order))
    if view.final_mission:
        final = db.final_mission(view.final_mission)
        crisis = f" · ⏳ Crisis! in **{view.crisis}**" if view.crisis is not None else ""
        lines.append(f"**Final mission:** {final.name}{crisis}")
    else:
        lines.append(f"**Final mission:** not revealed ({view.final_deck} face down)")
    if view.over:
        lines.append(ending_text(view.winner, view.ending, names))
    else:
        lines.append(waiting_line(view, seats, names, row.paused_at is not None))
    embed = discord.Embed(
        title=title,
        description=clip("\n".join(x for x in lines if x), EMBED_DESCRIPTION_LIMIT),
        colour=COLOR_OVER if view.over else COLOR,
    )
    for p in view.parties:
        name, value = party_field(view, p, db, names)
        embed.add_field(name=name, value=value, inline=False)
    embed.add_field(name="Regions", value=regions_text(view, db, names), inline=False)
    decks = ", ".join(f"{k} {v}" for k, v in sorted(view.decks))
    legend = "↷ turned · 💤 incapacitated · 🤝 trade · ☮ no fighting · 🂠 face down"
    if expansion_marks(view, db):
        legend += (
            f"\n{ARCANE_MARK} Arcane · {TRAP_MARK} Traps · {GUARD_MARK} guarded · "
            f"{IN_PLAY_MARKS['faction']} Faction · {IN_PLAY_MARKS['artifact']} Artifact · "
            f"{IN_PLAY_MARKS['incident']} Incident"
        )
    embed.set_footer(text=f"{legend}\nDecks: {decks}")
    return fit(embed)


def expansion_marks(view: TableView, db: CardDB) -> bool:
    """Whether the board shows any of the expansions' marks (then the footer explains them)."""
    return (
        any(c.arcane for p in view.parties for c in p.characters)
        or any(r.traps or r.guard != "none" for r in view.regions)
        or any(
            isinstance(db.by_id.get(c), AdvantageCard) and db.advantage(c).kind in IN_PLAY_MARKS
            for p in view.parties
            for c in p.in_play
        )
    )


def turn_text(turn: int, row: GameRow) -> str:
    """``2``, or ``2/3`` when the game has a turn limit."""
    cap = Options.model_validate(row.options).turn_cap
    return f"{turn}/{cap}" if cap else str(turn)


def ending_text(
    winner: str | None, ending: str | None, names: Names, tiebreak: str | None = None
) -> str:
    """How the game ended, in the engine's words (engine.endings); a game ended by its turn
    limit names the tie-break criterion that decided it."""
    how = ENDINGS.get(cast(Ending, ending), ending or "the game is over")
    if winner:
        decided = TIEBREAKS.get(cast(Tiebreak, tiebreak)) if tiebreak else None
        return f"🏆 {names.bold(winner)} wins the game — {how}" + (
            f", decided on {decided}." if decided else "."
        )
    return f"🌑 Nobody wins — {how}."


@dataclass
class Revealed:
    """One player's secrets, shown to the table once the game is over: his leader (the
    character he kept at the start) and every mission (secret, started, completed)."""

    seat: str
    leader: str | None
    secret: Sequence[str]
    started: Sequence[str]
    completed: Sequence[str]


def revealed(hands: Iterable[SeatView], leaders: dict[str, str]) -> list[Revealed]:
    """What the end of a game reveals, from every seat's view: the caller shows it only
    once the game has ended (a result, or stopped by its host)."""
    out = []
    for h in hands:
        p = h.table.party(h.seat)
        out.append(Revealed(h.seat, leaders.get(h.seat), h.missions, p.started, p.completed))
    return out


def tiebreak_lines(over: dict[str, Any], names: Names) -> list[str]:
    """Every player's scores at the turn limit, on the criteria the tie-break compared (up
    to the one that decided), and the dice of a final roll."""
    decided = over.get("tiebreak")
    scores: dict[str, dict[str, int]] = over.get("scores") or {}
    if not decided or not scores:
        return []
    compared = [c for c in TIEBREAKS if c != "die_roll"]
    if decided in compared:
        compared = compared[: compared.index(decided) + 1]
    rolls: dict[str, list[int]] = over.get("rolls") or {}
    lines = []
    for seat, score in scores.items():
        parts = [f"{TIEBREAKS[cast(Tiebreak, c)]} **{score.get(c, 0)}**" for c in compared]
        if seat in rolls:
            parts.append("🎲 " + ", ".join(map(str, rolls[seat])))
        lines.append(f"{names.bold(seat)}: " + " · ".join(parts))
    return lines


def summary_embed(
    view: TableView,
    db: CardDB,
    row: GameRow,
    seats: dict[str, SeatRow],
    secrets: Sequence[Revealed] = (),
    over: dict[str, Any] | None = None,
) -> discord.Embed:
    """The end-of-game message: how it ended (at a turn limit, the tie-break and everybody's
    scores), and every party with its leader and missions, secret ones included (the game
    is over: the table may see them)."""
    names = Names(seats)
    over = over or {}
    tiebreak = over.get("tiebreak")
    embed = discord.Embed(
        title=f"Anima · game #{row.id} is over",
        description=ending_text(view.winner, view.ending, names, tiebreak)
        + f"\nTurns played: **{view.turn}**",
        colour=COLOR_OVER,
    )
    lines = tiebreak_lines(over, names)
    if lines:
        embed.add_field(name="Tie-break", value=clip("\n".join(lines), FIELD_LIMIT), inline=False)
    shown = {r.seat: r for r in secrets}

    def listed(cards: Sequence[str]) -> str:
        return ", ".join(card_name(db, c) for c in cards) or "none"

    for p in view.parties:
        party = ", ".join(card_name(db, c.card) for c in p.characters) or "no characters"
        crown = "🏆 " if p.seat == view.winner else ""
        value = [f"⚔ {p.strength} · 💨 {p.speed} · {party}"]
        r = shown.get(p.seat)
        if r is not None:
            if r.leader:
                value.append(f"👑 Leader: {card_name(db, r.leader)}")
            value.append(f"✅ Completed: {listed(r.completed)}")
            value.append(f"🎯 Started: {listed(r.started)}")
            value.append(f"📜 Secret: {listed(r.secret)}")
        else:
            value.append(f"✅ Completed: {listed(p.completed)}")
        embed.add_field(
            name=clip(f"{crown}{names.of(p.seat)}", 256),
            value=clip("\n".join(value), FIELD_LIMIT),
            inline=False,
        )
    if secrets:
        embed.set_footer(text="The game is over: every leader and mission is revealed.")
    return fit(embed)


# ---------------------------------------------------------------------- private views


def hand_embed(
    view: SeatView,
    db: CardDB,
    row: GameRow,
    seat: SeatRow,
    names: Names,
    private_log: Sequence[EventRow] = (),
    texts: bool = True,
    autopass: frozenset[str] = frozenset(),
) -> discord.Embed:
    """What one player alone may see: party, hand, missions, start offers, scouted cards,
    his open decision, his auto-pass and his recent private events (card texts left out if
    too long)."""
    if texts:
        full = _hand_embed(view, db, row, seat, names, private_log, True, autopass)
        if len(full) <= EMBED_TOTAL_LIMIT - 200:
            return full
    return fit(_hand_embed(view, db, row, seat, names, private_log, False, autopass))


#: The mover's own line when the window about his action is open (the board stays neutral).
YOUR_WINDOW = {
    "move_declared": "⚡ Your move is declared; the others may respond.",
    "encounter_revealed": "⚡ You meet an Encounter; the others may respond.",
    "exploration_roll": "⚡ You rolled to explore; the others may respond.",
    "battle_start": "⚡ Your battle is about to start; everybody may respond.",
}


def autopass_line(kinds: frozenset[str]) -> str:
    """The panel's reminder of the member's own auto-pass (only he sees it)."""
    if not kinds:
        return ""
    return (
        f"⏩ Auto-pass on: {describe(kinds)}. Those decisions pass for you at once, whatever "
        "you hold; switch them off in the **Auto-pass** menu below or with `/anima settings`."
    )


def _hand_embed(
    view: SeatView,
    db: CardDB,
    row: GameRow,
    seat: SeatRow,
    names: Names,
    private_log: Sequence[EventRow],
    texts: bool,
    autopass: frozenset[str] = frozenset(),
) -> discord.Embed:
    table = view.table
    p = table.party(view.seat)
    lines: list[str] = []
    prompt = view.prompt
    if seat.taken_over:
        lines.append("🤖 An AI player has taken over your seat (too many time-outs).")
    mine = [w for w in table.waiting if w.window and view.seat in w.window_about]
    if mine and mine[0].window_kind in YOUR_WINDOW:
        lines.append(YOUR_WINDOW[mine[0].window_kind])
    if prompt is not None:
        # Absolute: a panel may outlive the 15 minutes in which the bot can edit it.
        deadline = f" ⏰ by {at_time(seat.deadline)}" if seat.deadline else ""
        lines.append(f"**Your decision:** {names.sub(prompt.text)}{deadline}")
        playable = [
            card_name(db, c.action[5:]) for c in prompt.choices if c.action.startswith("play ")
        ]
        if playable:
            lines.append("▶️ Playable now: " + ", ".join(playable))
        elif prompt.window or prompt.kind in PLAY_KINDS:
            lines.append("▶️ Nothing playable now.")
    elif not table.over:
        # Whose decision it is changes at every click; the panel is refreshed when its
        # owner's situation changes (bot.panels), so it points to the board instead.
        lines.append("Not your decision now: the board shows whose it is.")
    if autopass and not table.over:
        lines.append(autopass_line(autopass))
    embed = discord.Embed(
        title=f"Your hand · game #{row.id}",
        description="\n".join(lines) or None,
        colour=COLOR_PRIVATE,
        # Shown by Discord as "Today at 14:03": when the panel was drawn.
        timestamp=discord.utils.utcnow(),
    )

    def add(title: str, cards: Sequence[str], empty: str | None = None) -> None:
        if cards:
            value = "\n".join(card_line(db, c, text=texts) for c in cards)
        elif empty is not None:
            value = empty
        else:
            return
        embed.add_field(name=title, value=clip(value, FIELD_LIMIT), inline=False)

    add("Your party", [c.card for c in p.characters], "no characters")
    add("Advantages in hand", view.hand, "none")
    add("Secret missions", view.missions, "none")
    add("Started missions", p.started)
    add("Completed missions", p.completed)
    add("In play", p.in_play)
    traps = own_traps_text(table, db)
    if traps:
        embed.add_field(name=f"{TRAP_MARK} Your Traps", value=traps, inline=False)
    # A character not kept waits, face down, for the others' choices: it is not his any
    # more, so the panel shows the offer only while he chooses.
    choosing = prompt is not None and prompt.kind == "start_character"
    add("Offered characters (keep 1)", view.offered_characters if choosing else ())
    add("Offered Advantages (keep 3)", view.offered_advantages)
    scouted = [f"{card_name(db, r)}: {card_name(db, e)}" for r, e in view.scouted]
    if scouted:
        embed.add_field(name="Scouted", value=clip("\n".join(scouted), FIELD_LIMIT), inline=False)
    if private_log:
        log = "\n".join(f"🔒 {names.sub(e.text)}" for e in private_log)
        embed.add_field(name="Recently, for you alone", value=clip(log, FIELD_LIMIT), inline=False)
    footer = f"{names.label(view.seat)} · ⚔ {p.strength} · 💨 {p.speed}"
    embed.set_footer(text=f"{footer}\n{STAND_IN_LEGEND}")
    return embed


def own_traps_text(table: TableView, db: CardDB) -> str:
    """The Traps the viewer laid, face down for everybody else: "Unleashed Danger at Maisen"
    (``table`` is the viewer's own view: only his Traps are named in it)."""
    laid = [
        f"{card_name(db, t)} at {card_name(db, r.card)}" for r in table.regions for t in r.own_traps
    ]
    return clip("\n".join(laid), FIELD_LIMIT)


def start_embed(view: SeatView, db: CardDB, row: GameRow) -> discord.Embed:
    """The secret start (S2, S3) sent by DM."""
    embed = discord.Embed(
        title=f"Your secret start · game #{row.id}",
        description=(
            "Choose **1 character** to lead your party and **give back 1 Advantage** "
            "(you keep 3). Use the buttons below, or **My hand** in the game channel."
        ),
        colour=COLOR_PRIVATE,
    )
    for title, cards in (
        ("Your 2 Basic missions (secret)", view.missions),
        ("Characters offered (keep 1)", view.offered_characters),
        ("Advantages offered (keep 3)", view.offered_advantages),
    ):
        value = "\n".join(card_line(db, c) for c in cards) or "—"
        embed.add_field(name=title, value=clip(value, FIELD_LIMIT), inline=False)
    return embed


# ---------------------------------------------------------------------- events


def event_lines(events: Sequence[EventRow], names: Names, db: CardDB) -> list[str]:
    """Public lines for a batch of logged events (private ones are left out), from the
    events' payloads where the bot has a better line than the engine's text."""
    lines = []
    for e in events:
        if e.recipients is None:
            lines.append(event_line(e, names, db))
    return lines


def _check(d: dict[str, Any], stat: str = "") -> str:
    """A check's roll (B6): ``🎲 4 + Speed 5 = 9 vs 8``."""
    return f"🎲 {d['die']} + {stat}{d['total'] - d['die']} = {d['total']} vs {d['at_least']}"


def _guard_name(db: CardDB, region: str) -> str:
    guard = db.region(region).guard if region in db.by_id else None
    return guard.name if guard is not None else "its guard"


def expansion_line(e: EventRow, names: Names, db: CardDB) -> str | None:
    """The line of an event of the expansions (Traps, guards, Arcane characters, Factions,
    Artifacts, Incidents, Flee, M10), from its payload; None for any other event. A Trap is
    named only once it springs (``trap_set`` says where, never which)."""
    d = e.data
    who = names.bold(d.get("player"))
    card = card_name(db, d.get("card", ""))
    region = card_name(db, d.get("region", ""))
    if e.kind == "trap_set":
        return f"{TRAP_MARK} {who} lays a Trap face down on **{region}**."
    if e.kind == "trap_revealed":
        text = db[d["card"]].text if d["card"] in db.by_id else ""
        return f"{TRAP_MARK} A Trap springs at **{region}**: **{card}** ({who}'s)" + (
            f" — {text}" if text else "."
        )
    if e.kind == "region_level":
        change = f"{d['amount']:+d}"
        return f"⛰️ **{region}** is level **{d['level']}** until the end of the turn ({change})."
    if e.kind == "guard":
        guard = _guard_name(db, d["region"])
        return f"{GUARD_MARK} **{guard}** guards **{region}**: {who} must fight it."
    if e.kind == "guard_check":
        outcome = "beaten" if d["success"] else "caught"
        guard = _guard_name(db, d["region"])
        return f"{GUARD_MARK} {who} faces **{guard}** at **{region}**: {_check(d)}: {outcome}."
    if e.kind == "guard_beaten":
        return (
            f"{BEATEN_MARK} {who} overcomes **{_guard_name(db, d['region'])}**: "
            f"**{region}** is no longer guarded."
        )
    if e.kind == "flee":
        outcome = "escapes" if d["success"] else "cannot escape and must fight"
        return f"💨 {who} tries to flee **{card}**: {_check(d, 'Speed ')}: {outcome}."
    if e.kind == "exchange_arcane":
        arcane = card_name(db, d["arcane"])
        return f"{ARCANE_MARK} {card} leaves {who}'s party; the Arcane **{arcane}** joins it."
    if e.kind == "explore_new_regions":
        revealed = ", ".join(
            f"**{card_name(db, r)}** (L{db.region(r).level})" for r in d["regions"] if r in db.by_id
        )
        return f"🧭 {who} explores and reveals {revealed}: the party goes to the highest level."
    if e.kind == "discredit":
        return f"🗞️ {who} discredits {names.bold(d['other'])}, who loses his Faction."
    if e.kind == "spoils_artifact":
        mark = IN_PLAY_MARKS["artifact"]
        return f"{mark} {who} takes {names.bold(d['other'])}'s Artifact **{card}** as spoils."
    if e.kind == "incident_over":
        return f"{IN_PLAY_MARKS['incident']} {card} ends ({who}'s Incident)."
    return None


def event_line(e: EventRow, names: Names, db: CardDB) -> str:
    """One public event as a line."""
    d = e.data
    expansion = expansion_line(e, names, db)
    if expansion is not None:
        return expansion
    if e.kind == "turn" and "turn" in d:
        order = " → ".join(names.of(n) for n in d.get("order", []))
        return f"🔔 __**Turn {d['turn']}**__ · order: {order}"
    if e.kind == "game_over" and "ending" in d:
        return ending_text(d.get("winner"), d.get("ending"), names, d.get("tiebreak"))
    if e.kind == "battle_roll" and "shown" in d:
        # Both sides by name: the other party, or the monster (its name in ``opponent``).
        other = d.get("opponent") or "the monster"
        sides = [names.bold(d["player"]), names.bold(d["other"]) if d["other"] else f"**{other}**"]
        rolls = [
            f"🎲 {side}: {shown} + Strength {strength} = **{total}**"
            for side, shown, strength, total in zip(
                sides, d["shown"], d["strengths"], d["totals"], strict=True
            )
        ]
        return " vs ".join(rolls)
    if e.kind == "battle_result" and "winner" in d:
        winner = names.bold(d["winner"])
        if d["margin"]:
            return f"⚔️ {winner} wins the battle by {d['margin']}."
        return f"⚔️ A tie: {winner} wins."
    if e.kind == "crisis":
        return f"**{names.sub(e.text)}**"
    return names.sub(e.text)


def log_embed(
    game_id: int, events: Sequence[EventRow], names: Names, mine: str | None
) -> discord.Embed:
    """``/anima log``: the latest public events and those for seat ``mine`` (🔒), newest last."""
    lines = []
    for e in events:
        if e.recipients is None:
            lines.append(names.sub(e.text))
        elif mine is not None and mine in e.recipients:
            lines.append(f"🔒 {names.sub(e.text)}")
    text = "\n".join(lines[-30:]) or "Nothing has happened yet."
    while len(text) > EMBED_DESCRIPTION_LIMIT:
        text = text.split("\n", 1)[1] if "\n" in text else clip(text, 4000)
    return discord.Embed(title=f"Game #{game_id} · latest events", description=text, colour=COLOR)


def chunk_lines(lines: Sequence[str], limit: int = CONTENT_LIMIT - 50) -> list[str]:
    """Join lines into messages of at most ``limit`` characters."""
    chunks: list[str] = []
    current = ""
    for line in lines:
        line = clip(line, limit)
        if current and len(current) + 1 + len(line) > limit:
            chunks.append(current)
            current = line
        else:
            current = f"{current}\n{line}" if current else line
    if current:
        chunks.append(current)
    return chunks


def about_text(dms: bool) -> str:
    """``/anima about``: what the game is, its goal and a turn, in a few lines."""
    secret = "under **My hand** on the board" + (" (and in your DMs)" if dms else "")
    return "\n".join(
        [
            "I am a game master for **Anima: Shadow of Omega**, a card game for 2-5 players.",
            "🎯 **Goal:** lead a party of heroes, complete your secret missions, then reveal "
            "and complete the Final mission before the Crisis! lets Omega break free.",
            "🔁 **A turn:** *Movement* (go to a Region, explore a new one, or rest) → "
            "*Interaction* (trade, fight or hire where you stand) → *Exploration* (roll the "
            "die: Encounters and rewards). Play Advantages from your hand along the way; "
            "others may react in short windows.",
            f"🎴 `/anima start` opens a lobby. The board shows whose decision it is; your "
            f"secret cards are {secret}.",
            "📖 `/anima rules`, `/anima card`, `/anima log` and, after a game, "
            "`/anima history` help along.",
        ]
    )


# ---------------------------------------------------------------------- the lobby

TIMER_CHOICES: list[tuple[str, int | None]] = [
    ("Server default", None),
    ("No timer (play by post)", 0),
    ("1 minute", 60),
    ("2 minutes", 120),
    ("5 minutes", 300),
    ("10 minutes", 600),
    ("30 minutes", 1800),
    ("1 hour", 3600),
    ("1 day", 86400),
]

SET_NAMES = {
    "shadow_of_omega": "Shadow of Omega",
    "beyond_good_and_evil": "Beyond Good and Evil",
    "twilight_of_the_gods": "Twilight of the Gods",
}


def duration(seconds: int | None) -> str:
    if seconds is None:
        return "server default"
    if seconds == 0:
        return "none"
    if seconds % 86400 == 0:
        return plural(seconds // 86400, "day")
    if seconds % 3600 == 0:
        return plural(seconds // 3600, "hour")
    if seconds % 60 == 0:
        return f"{seconds // 60} min"
    return f"{seconds} s"


#: What each AI level plays like, for the host's picker (engine.agents.levels).
AI_LEVEL_TEXTS = {
    "random": "picks any legal move: to learn the buttons",
    "normal": "a reasonable player who answers at once",
    "hard": "plays many games ahead before each move (about a tenth of a second)",
}


def ai_level_text() -> str:
    """The host's private "Add AI player" picker: the levels, the default marked."""
    lines = ["**Add an AI player** — pick its level:"]
    for level in LEVELS:
        default = " (default)" if level == DEFAULT_LEVEL else ""
        lines.append(f"• **{level.capitalize()}**{default}: {AI_LEVEL_TEXTS.get(level, '')}")
    return "\n".join(lines)


def lobby_embed(
    row: GameRow, seats: Sequence[SeatRow], default_timer: int, *, closed: str | None = None
) -> discord.Embed:
    options = Options.model_validate(row.options)
    names = seat_names(seats)
    lines = []
    for i, s in enumerate(seats, start=1):
        host = " (host)" if s.user_id == row.host_id else ""
        level = f" · {s.ai_level or DEFAULT_LEVEL}" if s.ai and not s.human else ""
        lines.append(f"{i}. {names.of(s.seat)}{host}{level}")
    o, v = selected_codes(options)
    sets = ", ".join(SET_NAMES.get(x, x) for x in options.sets)
    # The option codes (O1, V2) are the rules digest's: the lobby names the options only.
    rules = ", ".join(OPTIONAL_RULES[c].name for c in o) or "none"
    edition = ", ".join(EDITION_OPTIONS[c].name for c in v) or "default (revised rules)"
    timer = (
        duration(row.decision_timer)
        if row.decision_timer is not None
        else f"server default ({duration(default_timer)})"
    )
    description = (
        closed
        if closed
        else "Join with the button; the host adds AI players, sets the options and starts. "
        "2-5 seats."
    )
    embed = discord.Embed(
        title=f"Anima: Shadow of Omega · game #{row.id}", description=description, colour=COLOR
    )
    embed.add_field(name=f"Seats ({len(seats)}/5)", value="\n".join(lines) or "—", inline=False)
    embed.add_field(name="Card sets", value=sets)
    embed.add_field(name="Optional rules", value=rules)
    embed.add_field(name="Edition options", value=edition)
    embed.add_field(name="Decision timer", value=timer)
    if options.turn_cap:
        embed.add_field(name="Turn limit", value=plural(options.turn_cap, "turn"))
    if row.in_thread:
        embed.add_field(name="Where", value="🧵 in a thread from this message")
    return embed
