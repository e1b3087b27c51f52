"""Text and embeds: the board, private hands, cards, choices, event batches, the lobby.

Everything that decides *what may be shown publicly* lives here too: :func:`public_cards`
(what the public view shows), :func:`is_public_choice` (a choice that names nothing hidden)
and :func:`public_prompt_text`. Public text never contains a hidden card's name or id.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import discord

from bot.storage import EventRow, GameRow, SeatRow
from engine.actions import parse_action
from engine.cards import (
    AdvantageCard,
    Card,
    CardDB,
    CharacterCard,
    EncounterCard,
    FinalMissionCard,
    MissionCard,
    Objective,
    RegionCard,
)
from engine.errors import IllegalAction
from engine.game import Game
from engine.options import Options
from engine.prompts import Prompt
from engine.rules.party import speed, strength

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

ENDINGS = {
    "final_mission": "completed the Final mission",
    "crisis_won": "won the Crisis! challenge",
    "crisis_lost": "nobody survived the Crisis: Omega breaks free",
    "last_player": "was the last player standing after the Crisis",
    "turn_cap": "the turn limit was reached",
}

#: Prompts that are private as a whole: their choices and text go to ephemeral views only.
PRIVATE_KINDS = frozenset(
    {
        "start_character",
        "start_advantage",
        "casualty",
        "trade_offer",
        "trade_answer",
        "trade_pay",
        "deliver",
        "remote_mission",
    }
)

#: What the table may read about a decision whose own text is not public.
KIND_TEXT = {
    "start_character": "choose a leader for the party (S3)",
    "start_advantage": "choose which Advantages to keep (S3)",
    "casualty": "choose the character who dies (B3)",
    "trade_offer": "prepare a trade offer (I1)",
    "trade_answer": "answer a trade offer (I1)",
    "trade_pay": "choose the Advantages to hand over (I1)",
    "deliver": "choose the Advantages to deliver",
    "remote_mission": "choose a mission to attempt",
    "pick": "make a choice",
    "window": "respond (play an Interrupt or Battle card, or pass)",
    "block_removal": "block the removal of a Region, or pass (M5)",
}

ADVANTAGE_KINDS = {
    "skill": "Skill",
    "plot": "Plot",
    "organization": "Organization",
    "interrupt": "Interrupt",
    "battle": "Battle",
}


EMBED_TOTAL_LIMIT = 6000


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
        if seat is None:
            return "nobody"
        row = self.seats.get(seat)
        if row is None:
            return seat
        return ("🤖 " if row.ai and not row.human else "") + row.name

    def bold(self, seat: str | None) -> str:
        return f"**{discord.utils.escape_markdown(self.of(seat))}**"

    def mention(self, seat: str) -> str:
        row = self.seats.get(seat)
        if row is not None and row.user_id is not None and not row.ai:
            return f"<@{row.user_id}>"
        return self.bold(seat)

    def sub(self, text: str) -> str:
        """Replace the engine's seat ids (p1..p5) by bold display names."""
        if not self.seats:
            return text
        pattern = r"\b(" + "|".join(re.escape(s) for s in self.seats) + r")\b"
        return re.sub(pattern, lambda m: self.bold(m.group(1)), text)


def seat_names(seats: Iterable[SeatRow]) -> Names:
    return Names({s.seat: s for s in seats})


# ---------------------------------------------------------------------- what is public


def public_cards(game: Game) -> set[str]:
    """Card ids anyone at the table may see now (the engine's public view)."""
    view = game.view(None)
    ids: set[str] = set()
    for p in view["players"].values():
        ids.update(c["card"] for c in p["party"])
        ids.update(p["started"])
        ids.update(p["completed"])
        ids.update(p["in_play"])
    for r in view["regions"]:
        ids.add(r["card"])
        if r["preliminary"] not in (None, "face_down"):
            ids.add(r["preliminary"])
    if view["final_mission"]:
        ids.add(view["final_mission"])
    for pile in view["discards"].values():
        ids.update(pile)
    return ids


def hidden_names(game: Game, public: set[str] | None = None) -> list[str]:
    """Names of every card that is not public now (hands, missions, decks, face-down cards)."""
    public = public if public is not None else public_cards(game)
    return [c.name for c in game.db if c.id not in public]


def names_hidden_card(text: str, hidden: Sequence[str]) -> bool:
    lowered = text.lower()
    return any(
        name.lower() in lowered and re.search(r"\b" + re.escape(name) + r"\b", text, re.I)
        for name in hidden
    )


def is_public_choice(game: Game, prompt: Prompt, choice: str, public: set[str]) -> bool:
    """May ``choice`` be a public button? Not in private prompts, windows (they go through
    the Respond button), or when it names a card that is hidden now."""
    if prompt.kind in PRIVATE_KINDS or prompt.window:
        return False
    try:
        action = parse_action(choice)
    except IllegalAction:
        return False
    if action.arg is None:
        return True
    if action.arg in game.db.by_id:
        return action.arg in public
    return True  # a player, a number or "hand"


def public_prompt_text(game: Game, prompt: Prompt, names: Names, public: set[str]) -> str:
    """What the table may read about ``prompt``."""
    if prompt.kind in PRIVATE_KINDS:
        return KIND_TEXT[prompt.kind]
    if names_hidden_card(prompt.text, hidden_names(game, public)):
        return KIND_TEXT.get(prompt.kind, "decide")
    return names.sub(prompt.text)


# ---------------------------------------------------------------------- cards


def card_name(game: Game, card_id: str) -> str:
    card = game.db.by_id.get(card_id)
    return card.name if card else card_id


def card_kind(card: Card) -> str:
    if isinstance(card, AdvantageCard):
        return f"Advantage · {ADVANTAGE_KINDS[card.kind]}"
    if isinstance(card, EncounterCard):
        return f"Encounter · {card.kind.capitalize()}"
    if isinstance(card, FinalMissionCard):
        return "Final mission"
    if isinstance(card, MissionCard):
        return "Basic mission"
    return card.type.capitalize()


def card_line(game: Game, card_id: str, *, text: bool = True) -> str:
    """One line about a card: name, type, numbers and (optionally) its text."""
    card = game.db.by_id.get(card_id)
    if card is None:
        return card_id
    extra = ""
    if isinstance(card, CharacterCard):
        extra = f" ({card.strength}/{card.speed})"
    elif isinstance(card, EncounterCard) and card.strength is not None:
        extra = f" (Strength {card.strength})"
    head = f"**{card.name}** · {card_kind(card)}{extra}"
    return f"{head} — {card.text}" if text and card.text else head


def _objective_text(o: Objective, db: CardDB) -> str:
    where = ""
    if o.region:
        where = f" at {db.by_id[o.region].name}" if o.region in db.by_id else ""
    elif o.region_level:
        where = f" in a Region of level {o.region_level}+"
    if o.kind == "fight":
        return f"Fight {o.opponent or 'an opponent'} (Strength {o.strength or '= level'}){where}"
    if o.kind == "speed_check":
        return f"Speed check {o.difficulty}+{where}"
    if o.kind == "resist":
        return f"Stay {o.turns} turn(s){where}"
    if o.kind == "gather":
        return f"Gather a party{where}"
    return f"Deliver {o.advantages} Advantage(s){where}"


def card_embed(db: CardDB, card_id: str) -> discord.Embed:
    """The ``/anima card`` answer."""
    card = db[card_id]
    embed = discord.Embed(title=card.name, description=card.text or None, colour=COLOR)
    embed.add_field(name="Type", value=card_kind(card))
    embed.add_field(name="Set", value=card.set.replace("_", " ").title())
    if isinstance(card, CharacterCard):
        embed.add_field(name="Strength / Speed", value=f"{card.strength} / {card.speed}")
        embed.add_field(name="Gender", value=card.gender)
        skills = ", ".join(s.capitalize() for s in card.skills) or "none"
        embed.add_field(name="Skills", value=skills)
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
            what = {"nothing": "nothing", "encounters": f"{row.count} Encounter(s)"}.get(
                row.result, row.text or "special"
            )
            rows.append(f"🎲 {i}: {what}")
        embed.add_field(name="Exploration", value="\n".join(rows), inline=False)
        embed.add_field(
            name="Rewards",
            value="\n".join(reward_label(card, i) for i in range(len(card.rewards))),
            inline=False,
        )
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
        embed.add_field(name="Crisis! limit", value=f"{card.crisis.limit} turns")
        if card.crisis.text:
            embed.add_field(name="Crisis!", value=clip(card.crisis.text, FIELD_LIMIT), inline=False)
    elif isinstance(card, AdvantageCard) and card.skill:
        embed.add_field(name="Needs", value=card.skill.capitalize())
    embed.set_footer(text=f"id: {card.id}")
    return embed


def reward_label(region: RegionCard, index: int) -> str:
    reward = region.rewards[index]
    if reward.kind == "advantage":
        return f"Draw {region.level} Advantage(s)"
    if reward.kind == "hire":
        return "Hire a character"
    if reward.kind == "remote_mission":
        return reward.name or "Attempt a mission from afar"
    return reward.name or reward.text or "Special reward"


# ---------------------------------------------------------------------- choices


def choice_label(game: Game, prompt: Prompt, choice: str, names: Names) -> str:
    """A short button label for an action string (may name cards: check publicity first)."""
    try:
        action = parse_action(choice)
    except IllegalAction:
        return clip(choice, LABEL_LIMIT)
    arg = action.arg
    name = card_name(game, arg) if arg else ""
    who = names.of(arg) if arg in names.seats else name
    t = action.type
    label: str
    if t == "go":
        label = f"Go to {name}"
    elif t == "explore_new":
        label = f"Explore {name} (discard pile)" if arg else "Explore a new Region"
    elif t == "rest":
        label = "Rest (+2/+2 next turn)"
    elif t == "play":
        label = f"Play {name}"
    elif t == "ability":
        label = f"Use {name}'s ability"
    elif t == "discard":
        label = f"Discard {name}"
    elif t == "dismiss":
        label = f"Dismiss {name}"
    elif t == "leave":
        label = f"Leave {name}"
    elif t == "keep":
        label = f"Lead with {name}"
    elif t == "drop":
        label = f"Give back {name}"
    elif t == "take":
        label = f"Take {name}"
    elif t == "remove":
        label = f"Remove {name}"
    elif t == "block":
        label = f"Discard {name} to block"
    elif t == "attack":
        label = f"Attack {who}"
    elif t == "offer":
        label = f"Offer a trade to {who}"
    elif t == "give":
        label = f"Offer {name}"
    elif t == "ask":
        label = "Ask for an Advantage" if arg == "hand" else f"Ask for {name}"
    elif t == "reward":
        label = _reward_choice(game, prompt, arg)
    elif t == "mission":
        label = f"Attempt {name}"
    elif t == "pick":
        label = _pick_label(game, prompt, arg or "", names)
    elif t == "reveal_final":
        label = "Reveal the Final mission"
    elif t == "pass":
        label = "Pass"
    elif t == "done":
        label = "Done"
    elif t == "explore":
        label = "Explore"
    elif t == "skip":
        label = "Skip"
    elif t == "send":
        label = "Send the offer"
    elif t == "withdraw":
        label = "Withdraw"
    elif t == "accept":
        label = "Accept"
    elif t == "decline":
        label = "Decline"
    else:
        label = choice
    return clip(label, LABEL_LIMIT)


def _reward_choice(game: Game, prompt: Prompt, arg: str | None) -> str:
    player = game.s.players.get(prompt.player)
    if player is None or player.region is None or arg is None or not arg.isdigit():
        return f"Reward {arg}"
    region = game.db.region(player.region)
    index = int(arg)
    if index >= len(region.rewards):
        return f"Reward {arg}"
    return f"Reward: {reward_label(region, index)}"


def _pick_label(game: Game, prompt: Prompt, arg: str, names: Names) -> str:
    if arg in names.seats:
        return names.of(arg)
    if arg in game.db.by_id:
        return card_name(game, arg)
    if arg.isdigit():  # a "choose" effect: the labels are in the prompt text "0: A / 1: B"
        match = re.search(rf"(?:^|/ ){arg}: (.*?)(?: / \d+: |$)", prompt.text)
        if match:
            return match.group(1)
    return arg


# ---------------------------------------------------------------------- the board


def _time(ts: float | None) -> str:
    return f"<t:{int(ts)}:R>" if ts else ""


def waiting_line(game: Game, seats: dict[str, SeatRow], names: Names, public: set[str]) -> str:
    """Who must decide what now (public)."""
    prompts = game.pending()
    if game.over or not prompts:
        return ""
    windows = [p for p in prompts if p.window]
    if windows:
        first = windows[0]
        deadline = seats[first.player].deadline if first.player in seats else None
        ends = f" Closes {_time(deadline)}." if deadline else ""
        text = public_prompt_text(game, first, names, public)
        return f"⚡ **Reaction window** — {text} Waiting for {len(windows)} answer(s).{ends}"
    if len(prompts) > 1:
        who = ", ".join(names.bold(p.player) for p in prompts)
        return f"⏳ Waiting for {who} to {KIND_TEXT.get(prompts[0].kind, 'decide')}."
    prompt = prompts[0]
    deadline = seats[prompt.player].deadline if prompt.player in seats else None
    ends = f" ⏰ {_time(deadline)}" if deadline else ""
    text = public_prompt_text(game, prompt, names, public)
    return f"➡️ {names.bold(prompt.player)}'s decision — {text}{ends}"


def party_field(game: Game, seat: str, names: Names) -> tuple[str, str]:
    """(name, value) of a party's board field."""
    p = game.s.players[seat]
    where = f" · 📍 {card_name(game, p.region)}" if p.region else ""
    flags = []
    if p.lost:
        flags.append("❌ out")
    if p.turn_over and not game.over:
        flags.append("turn over")
    if any(m.source == "rest" for m in p.modifiers):
        flags.append("resting")
    head = f"{names.of(seat)} · ⚔ {strength(game, p)} · 💨 {speed(game, p)}{where}"
    if flags:
        head += f" ({', '.join(flags)})"
    chars = []
    for c in p.party:
        card = game.db.character(c.card)
        mark = " 💤" if c.incapacitated else (" ↷" if c.tapped else "")
        chars.append(f"{card.name} {card.strength}/{card.speed}{mark}")
    lines = [", ".join(chars) or "no characters"]
    in_play = [card_name(game, c) for c in p.in_play]
    if in_play:
        lines.append("🏛 " + ", ".join(in_play))
    lines.append(f"✋ {len(p.hand)} Advantage(s) · 📜 {len(p.missions)} secret mission(s)")
    if p.started:
        lines.append("🎯 " + ", ".join(card_name(game, c) for c in p.started))
    if p.completed:
        lines.append("✅ " + ", ".join(card_name(game, c) for c in p.completed))
    return clip(head, 256), clip("\n".join(lines), FIELD_LIMIT)


def regions_text(game: Game, names: Names) -> str:
    lines = []
    for r in game.s.regions:
        card = game.db.region(r.card)
        marks = " ".join(m for m, on in (("🤝", card.trade), ("☮", not card.fighting)) if on)
        if r.preliminary is None:
            pre = "clear"
        elif r.revealed:
            enc = game.db.encounter(r.preliminary)
            pre = f"{enc.name}" + (f" (S {enc.strength})" if enc.strength is not None else "")
        else:
            pre = "🂠 face down"
        here = [names.of(n) for n in game.s.seats if game.s.players[n].region == r.card]
        at = f" — {', '.join(here)}" if here else ""
        lines.append(f"**{card.name}** L{card.level}{' ' + marks if marks else ''} · {pre}{at}")
    return clip("\n".join(lines) or "none yet", FIELD_LIMIT)


def board_embed(game: Game, row: GameRow, seats: dict[str, SeatRow]) -> discord.Embed:
    """The public board: turn, phase, order, parties, Regions, missions, whose decision."""
    names = Names(seats)
    public = public_cards(game)
    s = game.s
    title = f"Anima · game #{row.id}"
    if s.turn:
        title += f" · turn {s.turn}"
    title += f" · {PHASES.get(s.phase, s.phase)}"
    lines = []
    if s.order:
        lines.append("**Turn order:** " + " → ".join(names.of(n) for n in s.order))
    if s.final_mission:
        final = game.db.final_mission(s.final_mission)
        crisis = f" · ⏳ Crisis! in **{s.crisis}**" if s.crisis is not None else ""
        lines.append(f"**Final mission:** {final.name}{crisis}")
    else:
        lines.append(f"**Final mission:** not revealed ({len(s.final_deck)} face down)")
    if game.over:
        lines.append(ending_line(game, names))
    else:
        lines.append(waiting_line(game, seats, names, public))
    embed = discord.Embed(
        title=title,
        description=clip("\n".join(x for x in lines if x), EMBED_DESCRIPTION_LIMIT),
        colour=COLOR_OVER if game.over else COLOR,
    )
    for seat in s.seats:
        name, value = party_field(game, seat, names)
        embed.add_field(name=name, value=value, inline=False)
    embed.add_field(name="Regions", value=regions_text(game, names), inline=False)
    decks = ", ".join(f"{k} {v}" for k, v in sorted((k, len(v)) for k, v in s.decks.items()))
    legend = "↷ turned · 💤 incapacitated · 🤝 trade · ☮ no fighting · 🂠 face down"
    embed.set_footer(text=f"{legend}\nDecks: {decks} · version {s.actions}")
    return fit(embed)


def ending_line(game: Game, names: Names) -> str:
    return ending_text(game.s.winner, game.s.ending, names)


def ending_text(winner: str | None, ending: str | None, names: Names) -> str:
    """How the game ended (the engine's own line says "Omega breaks free" for a turn limit)."""
    how = ENDINGS.get(ending or "", ending or "")
    if winner:
        return f"🏆 {names.bold(winner)} wins the game — {how}!"
    if ending == "turn_cap":
        return "🏁 The game ends: the turn limit was reached. Nobody wins."
    return f"🌑 Nobody wins: {how}."


def summary_embed(game: Game, row: GameRow, seats: dict[str, SeatRow]) -> discord.Embed:
    """The end-of-game summary."""
    names = Names(seats)
    s = game.s
    embed = discord.Embed(
        title=f"Anima · game #{row.id} is over",
        description=ending_line(game, names)
        + f"\nTurns played: **{s.turn}** · actions: **{s.actions}**",
        colour=COLOR_OVER,
    )
    for seat in s.seats:
        p = s.players[seat]
        party = ", ".join(card_name(game, c.card) for c in p.party) or "no characters"
        done = ", ".join(card_name(game, c) for c in p.completed) or "none"
        crown = "🏆 " if seat == s.winner else ""
        embed.add_field(
            name=clip(f"{crown}{names.of(seat)}", 256),
            value=clip(
                f"⚔ {strength(game, p)} · 💨 {speed(game, p)} · {party}\n"
                f"Completed missions: {done}",
                FIELD_LIMIT,
            ),
            inline=False,
        )
    return embed


# ---------------------------------------------------------------------- private views


def hand_embed(
    game: Game,
    row: GameRow,
    seat: SeatRow,
    names: Names,
    private_log: Sequence[EventRow] = (),
    texts: bool = True,
) -> discord.Embed:
    """What one player alone may see: party, hand, missions, start offers, scouted cards,
    his open decision and his recent private events (card texts left out if too long)."""
    if texts:
        full = _hand_embed(game, row, seat, names, private_log, True)
        if len(full) <= EMBED_TOTAL_LIMIT - 200:
            return full
    return fit(_hand_embed(game, row, seat, names, private_log, False))


def _hand_embed(
    game: Game,
    row: GameRow,
    seat: SeatRow,
    names: Names,
    private_log: Sequence[EventRow],
    texts: bool,
) -> discord.Embed:
    s = game.s
    p = s.players[seat.seat]
    lines: list[str] = []
    prompt = game.prompt_for(seat.seat)
    if seat.taken_over:
        lines.append("🤖 An AI player has taken over your seat (too many time-outs).")
    if prompt is not None:
        deadline = f" ⏰ {_time(seat.deadline)}" if seat.deadline else ""
        lines.append(f"**Your decision:** {names.sub(prompt.text)}{deadline}")
        playable = [card_name(game, c[5:]) for c in prompt.choices if c.startswith("play ")]
        if playable:
            lines.append("▶️ Playable now: " + ", ".join(playable))
    elif not game.over:
        waiting = ", ".join(names.of(x.player) for x in game.pending()) or "nobody"
        lines.append(f"Not your decision now (waiting for {waiting}).")
    embed = discord.Embed(
        title=f"Your hand · game #{row.id}",
        description="\n".join(lines) or None,
        colour=COLOR_PRIVATE,
    )

    def add(title: str, cards: Sequence[str], empty: str | None = None) -> None:
        if cards:
            value = "\n".join(card_line(game, c, text=texts) for c in cards)
        elif empty is not None:
            value = empty
        else:
            return
        embed.add_field(name=title, value=clip(value, FIELD_LIMIT), inline=False)

    party = [c.card for c in p.party]
    add("Your party", party, "no characters")
    add("Advantages in hand", p.hand, "none")
    add("Secret missions", p.missions, "none")
    add("Started missions", p.started)
    add("Completed missions", p.completed)
    add("In play", p.in_play)
    add("Offered characters (keep 1)", p.offered_characters)
    add("Offered Advantages (keep 3)", p.offered_advantages)
    scouted = [
        f"{card_name(game, r.card)}: {card_name(game, r.preliminary)}"
        for r in s.regions
        if r.preliminary and not r.revealed and seat.seat in r.peeked
    ]
    if scouted:
        embed.add_field(name="Scouted", value=clip("\n".join(scouted), FIELD_LIMIT), inline=False)
    if private_log:
        log = "\n".join(f"🔒 {names.sub(e.text)}" for e in private_log)
        embed.add_field(name="Recently, for you alone", value=clip(log, FIELD_LIMIT), inline=False)
    embed.set_footer(text=f"{names.of(seat.seat)} · ⚔ {strength(game, p)} · 💨 {speed(game, p)}")
    return embed


def start_embed(game: Game, row: GameRow, seat: str) -> discord.Embed:
    """The secret start (S2, S3) sent by DM."""
    p = game.s.players[seat]
    embed = discord.Embed(
        title=f"Your secret start · game #{row.id}",
        description=(
            "Choose **1 character** to lead your party and **give back 1 Advantage** "
            "(you keep 3). Use the buttons below, or **My hand** in the game channel."
        ),
        colour=COLOR_PRIVATE,
    )
    for title, cards in (
        ("Your 2 Basic missions (secret)", p.missions),
        ("Characters offered (keep 1)", p.offered_characters),
        ("Advantages offered (keep 3)", p.offered_advantages),
    ):
        value = "\n".join(card_line(game, c) for c in cards) or "—"
        embed.add_field(name=title, value=clip(value, FIELD_LIMIT), inline=False)
    return embed


# ---------------------------------------------------------------------- events


def event_lines(events: Sequence[EventRow], names: Names) -> list[str]:
    """Public lines for a batch of logged events (private ones are left out)."""
    lines = []
    for e in events:
        if e.recipients is not None:
            continue
        text = names.sub(e.text)
        if e.kind == "turn" and "turn" in e.data:
            order = " → ".join(names.of(n) for n in e.data.get("order", []))
            text = f"🔔 __**Turn {e.data['turn']}**__ · order: {order}"
        elif e.kind == "game_over" and "ending" in e.data:
            text = ending_text(e.data.get("winner"), e.data.get("ending"), names)
        elif e.kind == "crisis":
            text = f"**{text}**"
        lines.append(text)
    return lines


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

OPTIONAL_RULES = {
    "O1": ("Tree of Regions", "Regions by level; each change of level draws an Encounter"),
    "O2": ("Both missions", "Both Basic missions before the Final mission"),
    "O3": ("Open rolls", "A 6 in battle is rolled again and added"),
}
EDITION_OPTIONS = {
    "V1": ("Final mission at once (SoO)", "Drawn by the first to complete a Basic mission"),
    "V2": ("Ties stand (BGE)", "A tie between two parties stands instead of a re-roll"),
    "V3": ("No Crisis countdown (SoO)", "The game runs until the Final mission is done"),
    "V4": ("Tree of Regions: BGE reading", "With O1: move within a level or one up or down"),
}

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
        return f"{seconds // 86400} day(s)"
    if seconds % 3600 == 0:
        return f"{seconds // 3600} hour(s)"
    if seconds % 60 == 0:
        return f"{seconds // 60} min"
    return f"{seconds} s"


def rules_selected(options: Options) -> tuple[list[str], list[str]]:
    """The O and V codes an Options value has switched on."""
    o = []
    if options.tree_of_regions != "off":
        o.append("O1")
    if options.both_missions:
        o.append("O2")
    if options.open_rolls:
        o.append("O3")
    v = []
    if options.final_reveal == "immediate":
        v.append("V1")
    if options.party_tie == "stands":
        v.append("V2")
    if not options.crisis:
        v.append("V3")
    if options.tree_of_regions == "bge":
        v.append("V4")
    return o, v


def lobby_embed(
    row: GameRow, seats: Sequence[SeatRow], default_timer: int, *, closed: str | None = None
) -> discord.Embed:
    options = Options.model_validate(row.options)
    names = seat_names(seats)
    lines = []
    for i, s in enumerate(seats, start=1):
        host = " (host)" if s.user_id == row.host_id else ""
        lines.append(f"{i}. {discord.utils.escape_markdown(names.of(s.seat))}{host}")
    o, v = rules_selected(options)
    sets = ", ".join(SET_NAMES.get(x, x) for x in options.sets)
    rules = ", ".join(f"{c} {OPTIONAL_RULES[c][0]}" for c in o) or "none"
    edition = ", ".join(f"{c} {EDITION_OPTIONS[c][0]}" for c in v) or "default (revised rules)"
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
        embed.add_field(name="Turn limit", value=f"{options.turn_cap} turns")
    return embed
