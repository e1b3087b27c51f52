"""A game in the terminal against AI seats: ``anima play``.

For learning the rules and trying the game without Discord. The human seats are the first
``--humans`` seats (P1, P2, ...); the others are AI players of one level
(:mod:`engine.agents.levels`). With several humans the terminal is passed around (hot seat):
each decision says whose it is.

Everything printed for a human comes from what that seat may see: the board from its
:class:`~engine.views.SeatView` (the public :class:`~engine.views.TableView` plus its own
hand, secret missions and scouted Encounters), the decision from its
:class:`~engine.views.PromptView` (the engine's neutral labels), and the log from the events
addressed to everybody or to that seat. The game itself, which holds every hand, is never
rendered.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, TextIO

from engine.actions import parse_action
from engine.agents import Agent
from engine.agents.levels import DEFAULT_LEVEL, LEVELS, make_agent
from engine.cards import CardDB, default_cards
from engine.endings import ENDINGS
from engine.errors import IllegalAction
from engine.events import Event
from engine.game import Game
from engine.options import Options
from engine.rules.sets import SETS, SHADOW_OF_OMEGA, check_table
from engine.tools.simulate import DEFAULT_TURN_CAP, _at_least, parse_sets, seat_names
from engine.views import PromptView, SeatView, TableView, lazy_seat_view

HELP = (
    "Type the number of a choice and press Enter.\n"
    "  ?N  show the text of the card of choice N (e.g. ?2)\n"
    "  b   show the board again\n"
    "  q   leave the game"
)


class Quit(Exception):
    """The human left: ``q``, the end of the input, or Ctrl-C."""


def card_name(db: CardDB, card: str) -> str:
    """A card's printed name (an id the database does not know is shown as it is)."""
    found = db.by_id.get(card)
    return found.name if found is not None else card


def _names(db: CardDB, cards: Sequence[str]) -> str:
    return ", ".join(card_name(db, c) for c in cards) if cards else "none"


def render_board(view: SeatView, db: CardDB) -> str:
    """The board as ``view``'s seat sees it: the public table plus the seat's own cards."""
    table: TableView = view.table
    lines = [f"=== Turn {table.turn} · {table.phase} phase ==="]
    if table.order:
        lines.append("Order of play: " + ", ".join(table.order))
    final = (
        card_name(db, table.final_mission)
        if table.final_mission
        else f"face down ({table.final_deck} left)"
    )
    crisis = "" if table.crisis is None else f" · Crisis countdown: {table.crisis}"
    lines.append(f"Final mission: {final}{crisis}")
    lines.append("Parties:")
    for party in table.parties:
        you = " (you)" if party.seat == view.seat else ""
        if party.lost:
            lines.append(f"  {party.seat}{you}: out of the game")
            continue
        if party.hidden:
            lines.append(f"  {party.seat}{you}: choosing a leader")
            continue
        where = f" at {card_name(db, party.region)}" if party.region else ""
        state = "".join(
            [", resting" if party.resting else "", ", turn over" if party.turn_over else ""]
        )
        lines.append(
            f"  {party.seat}{you}{where}: Strength {party.strength}, Speed {party.speed}, "
            f"{party.hand_count} Advantage(s) in hand, {party.secret_missions} secret "
            f"mission(s){state}"
        )
        members = []
        for c in party.characters:
            marks = [
                m for m, on in (("tapped", c.tapped), ("incapacitated", c.incapacitated)) if on
            ]
            members.append(card_name(db, c.card) + (f" ({', '.join(marks)})" if marks else ""))
        lines.append(f"    characters: {', '.join(members) or 'none'}")
        if party.in_play:
            lines.append(f"    in play: {_names(db, party.in_play)}")
        if party.started:
            lines.append(f"    missions started: {_names(db, party.started)}")
        if party.completed:
            lines.append(f"    missions completed: {_names(db, party.completed)}")
        resisting = view.resisting if party.seat == view.seat else party.resisting
        if resisting:
            held = ", ".join(
                f"{'a secret mission' if m == 'secret' else card_name(db, m)} ({n} turn(s))"
                for m, n in resisting
            )
            lines.append(f"    resisting: {held}")
    if table.regions:
        lines.append("Regions:")
    for region in table.regions:
        level = f"level {region.level}"
        if region.level != region.printed_level and region.printed_level:
            level += f" (printed {region.printed_level})"
        encounter = {
            "none": "no Encounter",
            "face_down": "Encounter face down",
            "revealed": f"Encounter {card_name(db, region.preliminary or '')}",
            "known": f"Encounter face down (you scouted {card_name(db, region.preliminary or '')})",
        }[region.preliminary_state]
        extra = [f"guard {region.guard}"] if region.guard != "none" else []
        if region.traps:
            own = f" (yours: {_names(db, region.own_traps)})" if region.own_traps else ""
            extra.append(f"{region.traps} Trap(s){own}")
        if region.parties:
            extra.append("parties: " + ", ".join(region.parties))
        lines.append(
            f"  {card_name(db, region.card)} ({level}): {encounter}"
            + "".join(f"; {e}" for e in extra)
        )
    if table.decks:
        lines.append("Decks: " + ", ".join(f"{deck} {n}" for deck, n in table.decks))
    lines.append(f"Your hand: {_names(db, view.hand)}")
    lines.append(f"Your secret missions: {_names(db, view.missions)}")
    if view.offered_characters:
        lines.append(f"Characters offered to you: {_names(db, view.offered_characters)}")
    if view.offered_advantages:
        lines.append(f"Advantages offered to you: {_names(db, view.offered_advantages)}")
    return "\n".join(lines)


def render_prompt(prompt: PromptView) -> str:
    """The decision with its choices numbered from 1 (the engine's labels)."""
    lines = [f"{prompt.player}, your decision: {prompt.text}"]
    width = len(str(len(prompt.choices)))
    lines.extend(f"  {i:>{width}}. {c.label}" for i, c in enumerate(prompt.choices, 1))
    return "\n".join(lines)


def render_end(table: TableView) -> str:
    """How the game ended, from the public table."""
    labels: dict[str, str] = {key: text for key, text in ENDINGS.items()}
    ending = labels.get(table.ending, table.ending) if table.ending else "the game ended"
    winner = f"{table.winner} wins" if table.winner else "nobody wins"
    return f"=== Game over: {winner} ({ending}) ==="


def visible_to(event: Event, seat: str) -> bool:
    """Whether ``seat`` may see ``event``: addressed to everybody, or to the seat."""
    return event.to is None or seat in event.to


@dataclass
class TerminalGame:
    """One game between the humans at this terminal and AI seats."""

    game: Game
    humans: list[str]
    agents: dict[str, Agent]
    stdin: TextIO
    stdout: TextIO
    #: Per human: the lines of the log not shown to him yet.
    unseen: dict[str, list[str]] = field(default_factory=dict)
    last_human: str | None = None
    #: Per human: the board last shown to him.
    boards: dict[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for human in self.humans:
            self.unseen[human] = []
        self.record(self.game.last_events)

    def say(self, text: str) -> None:
        """Print for the human(s) at the terminal."""
        print(text, file=self.stdout, flush=True)

    def record(self, events: Sequence[Event]) -> None:
        """Keep each event for the log of every human seat that may see it."""
        for event in events:
            for human in self.humans:
                if visible_to(event, human):
                    self.unseen[human].append(event.text)

    def run(self) -> int:
        """Play to the end; raises :class:`Quit` when the human leaves."""
        g = self.game
        while not g.over:
            prompts = g.pending()
            ai = [p for p in prompts if p.player not in self.unseen]
            if ai:
                # The AI seats answer at once (as in the bot): a human decides after them.
                prompt = ai[0]
                agent = self.agents[prompt.player]
                action = agent.choose(lazy_seat_view(g, prompt.player), prompt)
                self.record(g.apply(prompt.player, action))
                continue
            self.decide(prompts[0].player)
        self.say("")
        for human in self.humans:
            self.show_log(human)
        self.say(render_board(g.seat_view(self.humans[0]), g.db))
        self.say(render_end(g.table_view()))
        return 0

    def show_log(self, seat: str) -> None:
        lines = self.unseen[seat]
        if lines:
            self.say(f"--- What {seat} saw happen ---" if len(self.humans) > 1 else "---")
            self.say("\n".join(f"  {line}" for line in lines))
        self.unseen[seat] = []

    def decide(self, seat: str) -> None:
        """Show ``seat`` the board, the log and its decision; apply the choice it types."""
        g = self.game
        if len(self.humans) > 1 and seat != self.last_human:
            self.say(f"\n##### {seat} at the keyboard (the others look away) #####")
        self.last_human = seat
        view = g.seat_view(seat)
        prompt = view.prompt
        assert prompt is not None  # pending() says the seat has a decision
        self.say("")
        self.show_log(seat)
        board = render_board(view, g.db)
        if board != self.boards.get(seat):  # a string of window passes changes nothing
            self.say(board)
            self.boards[seat] = board
        if len(prompt.choices) == 1:
            # Nothing to decide (a reaction window with no card to play): said, not asked.
            self.say(f"{prompt.text}\n  Only one choice: {prompt.choices[0].label}.")
            self.record(g.apply(seat, prompt.choices[0].action))
            return
        self.say(render_prompt(prompt))
        while True:
            index = self.read_choice(view, prompt)
            if index is None:
                continue
            events = g.apply(seat, prompt.choices[index].action)
            self.record(events)
            return

    def read_choice(self, view: SeatView, prompt: PromptView) -> int | None:
        """The 0-based index of the choice typed, or None after a message (ask again)."""
        count = len(prompt.choices)
        self.stdout.write(f"Choice (1-{count}, ? for help): ")
        self.stdout.flush()
        line = self.stdin.readline()
        if not line:
            raise Quit("the input ended")
        text = line.strip().lower()
        if text in ("q", "quit", "exit"):
            raise Quit("you left the game")
        if text in ("?", "h", "help"):
            self.say(HELP)
            return None
        if text == "b":
            self.say(render_board(view, self.game.db))
            self.say(render_prompt(prompt))
            return None
        if text.startswith("?"):
            self.say(self.card_text(prompt, text[1:].strip()))
            return None
        if not text.isdigit():
            self.say(f"Not a number: {line.strip()!r}. Type a number from 1 to {count}.")
            return None
        number = int(text)
        if not 1 <= number <= count:
            self.say(f"No choice {number}: type a number from 1 to {count}.")
            return None
        return number - 1

    def card_text(self, prompt: PromptView, which: str) -> str:
        """The text of the card a choice names (its own hand, a public card: the choice
        is the seat's, so its card is one the seat may see)."""
        count = len(prompt.choices)
        if not which.isdigit() or not 1 <= int(which) <= count:
            return f"Type ?N with N from 1 to {count}."
        arg = parse_action(prompt.choices[int(which) - 1].action).arg
        card = self.game.db.by_id.get(arg or "")
        if card is None:
            return "That choice names no card."
        text = card.text or "(no text)"
        return f"{card.name} ({card.type}): {text}"


def new_game(
    players: int, humans: int, level: str, seed: int, options: dict[str, Any]
) -> tuple[Game, list[str], dict[str, Agent]]:
    """The game, the human seats and an agent for every other seat (each seeded from the
    game's seed and its seat, so that a seed replays the same game for the same choices)."""
    names = seat_names(players)
    game = Game.new(names, Options.model_validate(options), seed)
    agents = {name: make_agent(level, f"{seed}:{name}") for name in names[humans:]}
    return game, names[:humans], agents


def _cmd_play(args: argparse.Namespace) -> int:
    if not 1 <= args.humans <= args.players:
        print(f"anima play: --humans must be 1 to {args.players}", file=sys.stderr)
        return 2
    try:  # G1: refuse what the rules forbid before dealing
        check_table(args.sets, args.players, default_cards())
    except IllegalAction as exc:
        print(f"anima play: {exc}", file=sys.stderr)
        return 2
    seed = args.seed if args.seed is not None else random.randrange(1_000_000)
    game, humans, agents = new_game(
        args.players, args.humans, args.ai, seed, {"sets": args.sets, "turn_cap": args.turn_cap}
    )
    ai = ", ".join(sorted(agents)) or "none"
    print(
        f"Anima: {args.players} players, seed {seed} (replay with --seed {seed}). "
        f"You play {', '.join(humans)}; AI ({args.ai}): {ai}. Type ? for help."
    )
    session = TerminalGame(game, humans, agents, sys.stdin, sys.stdout)
    try:
        return session.run()
    except Quit as why:
        print(f"\nGame left unfinished: {why}.")
        return 1
    except KeyboardInterrupt:
        print("\nGame left unfinished: interrupted.")
        return 130


def register(sub: Any) -> None:
    """Add ``anima play`` to the ``anima`` subcommands."""
    cmd = sub.add_parser(
        "play",
        help="play a game in the terminal against AI seats",
        description="Play a game in the terminal: the first --humans seats are yours (hot seat "
        "when more than one), the others are AI players.",
    )
    cmd.add_argument(
        "--players", type=int, choices=range(2, 6), default=4, help="players (2-5, default 4)"
    )
    cmd.add_argument("--humans", type=int, default=1, help="human seats (default 1)")
    cmd.add_argument(
        "--ai",
        choices=list(LEVELS),
        default=DEFAULT_LEVEL,
        help=f"level of the AI seats (default {DEFAULT_LEVEL})",
    )
    cmd.add_argument("--seed", type=int, default=None, help="seed of the game (default: random)")
    cmd.add_argument(
        "--sets",
        type=parse_sets,
        default=[SHADOW_OF_OMEGA],
        help=f"comma-separated sets in play (default {SHADOW_OF_OMEGA}; any of {', '.join(SETS)})",
    )
    cmd.add_argument(
        "--turn-cap",
        type=_at_least(0),
        default=DEFAULT_TURN_CAP,
        help=f"end the game after this many turns (default {DEFAULT_TURN_CAP}; 0 = never)",
    )
    cmd.set_defaults(func=_cmd_play)


__all__ = [
    "TerminalGame",
    "new_game",
    "register",
    "render_board",
    "render_end",
    "render_prompt",
    "visible_to",
]
