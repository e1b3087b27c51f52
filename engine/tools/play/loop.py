"""The game loop of ``anima play``: AI seats answer at once, a human seat is shown what it
may see and types a choice or a command.

Everything printed for a human comes from what that seat may see: the board from its
:class:`~engine.views.SeatView`, the decision from its :class:`~engine.views.PromptView`
(the engine's neutral labels), the log from the events addressed to everybody or to that
seat, and card texts from the card database (public). The game itself, which holds every
hand, is never rendered.

The full board is long (30-40 lines with four parties): it is printed at a seat's first
decision of each turn and when asked (``b``); in between, a phase header when the phase
changed and the seat's own party, hand and missions when they changed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol, TextIO

from engine.actions import parse_action
from engine.agents import Agent
from engine.events import Event
from engine.game import Game
from engine.tools.play import cards, display
from engine.views import ChoiceView, PromptView, SeatView, lazy_seat_view

#: The commands, for ``help`` and ``anima play --help``.
COMMANDS = """\
Type the number of a choice and press Enter (or the start of its label: "rest", "done").
  ?N          what choice N is about: the card's numbers and text (e.g. ?2)
  ? NAME      any card by name (e.g. ? Arkhangel, ? fireball)
  b, board    the whole board
  hand        your hand, each card with its text
  missions    your missions (secret ones too) and what they ask
  discards    the discard piles, top card first
  rules       the game in brief: how to win, the phases of a turn
  help, ?     this list
  q, quit     leave the game"""


#: The game in brief, for ``rules`` (from the rules digest; the rule ids say where to read).
RULES = """\
To win (G2, F3-F6): complete one of your two secret Basic missions, then the Final mission.
  Once a Basic mission is completed, the Final mission may be revealed at the start of a
  turn; its Crisis! countdown then drops by one each turn. At 0, players without a completed
  Basic mission lose and the others try the Crisis! challenge.
A turn (T1) has four phases; everyone plays each one, fastest party first:
  Reset: discard Advantages, dismiss characters, play Reset phase cards (R2).
  Movement: go to a Region (its face-down Encounter is met first, M2), explore a new
    Region from the deck, or rest (+2 Strength and +2 Speed next turn) (M1).
  Interaction: trade (trade icons) or attack a party in your Region (I1, I2).
  Exploration: roll a die on your Region's table (? NAME shows it): nothing, Encounters
    to get through, or a special result; then take one of its rewards, or attempt a
    mission of that Region instead (E2-E6).
Battles (B1-B3): each side rolls a die and adds its Strength; the higher total wins (a
  monster loses ties); losing by 5 or more costs a character."""


class LineInput(Protocol):
    """Where the human's lines come from: the terminal, or a script (``--script``)."""

    def readline(self) -> str: ...


class Quit(Exception):
    """The human left: ``q``, the end of the input, or Ctrl-C."""


def visible_to(event: Event, seat: str) -> bool:
    """Whether ``seat`` may see ``event``: addressed to everybody, or to the seat."""
    return event.to is None or seat in event.to


@dataclass
class Shown:
    """What one human seat was last shown, to print only what changed."""

    turn: int = -1
    phase: str = ""
    yours: str = ""


@dataclass
class TerminalGame:
    """One game between the humans at this terminal and AI seats."""

    game: Game
    humans: list[str]
    agents: dict[str, Agent]
    stdin: LineInput
    stdout: TextIO
    #: Per human: the lines of the log not shown to him yet.
    unseen: dict[str, list[str]] = field(default_factory=dict)
    last_human: str | None = None
    #: Per human: what he was last shown.
    shown: dict[str, Shown] = field(default_factory=dict)
    #: The last exploration die of each seat (a public event): read by the window after it.
    rolls: dict[str, int] = field(default_factory=dict)
    #: Seats that took a "mission from afar" reward and whose attempt is not logged yet:
    #: the reward's name and Region, for the log line of the attempt.
    remote: dict[str, str] = field(default_factory=dict)
    #: Per human seat, an AI that types for him once his input has ended (``--autoplay``:
    #: a whole game from one command, even when a script falls out of step with the cards).
    autoplay: dict[str, Agent] = field(default_factory=dict)
    #: What the autoplaying AI would type at the question being asked (asked only once
    #: the input has ended).
    suggest: Callable[[], str] | None = None

    def __post_init__(self) -> None:
        for human in self.humans:
            self.unseen[human] = []
            self.shown[human] = Shown()
        self.record(self.game.last_events)

    def say(self, text: str) -> None:
        """Print for the human(s) at the terminal."""
        print(text, file=self.stdout, flush=True)

    def record(self, events: Sequence[Event]) -> None:
        """Keep each event for the log of every human seat that may see it."""
        for event in events:
            text = event.text
            player = event.data.get("player")
            if event.kind == "explore_roll" and isinstance(event.data.get("die"), int):
                self.rolls[str(player)] = event.data["die"]
            if event.kind == "mission_attempt" and event.to is None and player in self.remote:
                # The table saw the party explore its Region; the attempt follows from a
                # reward it took there, which the engine's line does not name.
                text = f"{text.rstrip('.')} ({self.remote.pop(str(player))})."
            for human in self.humans:
                if visible_to(event, human):
                    self.unseen[human].append(text)

    def apply(self, seat: str, action: str) -> None:
        """Apply ``seat``'s action and keep its events."""
        self.note_remote(seat, action)
        self.record(self.game.apply(seat, action))

    def note_remote(self, seat: str, action: str) -> None:
        """Remember a "mission from afar" reward taken by ``seat`` (E6)."""
        parsed = parse_action(action)
        if parsed.type != "reward" or not (parsed.arg or "").isdigit():
            return  # before building the table view: most actions are no reward
        region = self.game.table_view().party(seat).region
        if not region:
            return
        card = self.game.db.region(region)
        index = int(parsed.arg or 0)
        if index < len(card.rewards) and card.rewards[index].kind == "remote_mission":
            name = card.rewards[index].name or "a mission from afar"
            self.remote[seat] = f"from afar, through {name}, a reward of {card.name}"

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
                self.apply(prompt.player, agent.choose(lazy_seat_view(g, prompt.player), prompt))
                continue
            self.decide(prompts[0].player)
        self.say("")
        for human in self.humans:
            self.show_log(human)
        self.say(display.render_board(g.seat_view(self.humans[0], sealed=False), g.db))
        self.say(display.render_end(g.table_view()))
        return 0

    def show_log(self, seat: str) -> None:
        lines = self.unseen[seat]
        if lines:
            self.say(f"--- What {seat} saw happen ---" if len(self.humans) > 1 else "---")
            self.say("\n".join(f"  {line}" for line in lines))
        self.unseen[seat] = []

    def show_changes(self, view: SeatView) -> None:
        """The board at the seat's first decision of a turn; else the phase when it changed
        and the seat's own cards when they changed."""
        db = self.game.db
        shown = self.shown[view.seat]
        table = view.table
        yours = display.render_yours(view, db)
        if table.turn != shown.turn:
            self.say(display.render_board(view, db))
        else:
            if table.phase != shown.phase:
                self.say(display.phase_line(table))
            if yours != shown.yours:
                self.say(yours)
        shown.turn, shown.phase, shown.yours = table.turn, table.phase, yours

    def decide(self, seat: str) -> None:
        """Show ``seat`` what changed, the log and its decision; apply the choice it types."""
        g = self.game
        view = g.seat_view(seat, sealed=False)
        prompt = view.prompt
        assert prompt is not None  # pending() says the seat has a decision
        if len(prompt.choices) == 1:
            # Nothing to decide (a reaction window with no card to play): not shown as a
            # question, so that nobody types an answer ahead of the next real decision.
            self.apply(seat, prompt.choices[0].action)
            return
        if len(self.humans) > 1 and seat != self.last_human:
            self.say(f"\n##### {seat} at the keyboard (the others look away) #####")
            # Whoever sits down sees his own cards again (the board: once a turn, or "b").
            self.shown[seat].phase = self.shown[seat].yours = ""
        self.last_human = seat
        self.say("")
        self.show_log(seat)
        self.show_changes(view)
        self.say(display.render_prompt(view, g.db, self.roll_for(prompt)))
        while True:
            # Again at each question: a confirmation in between suggests "yes".
            self.suggest = lambda: self.ai_choice(seat, prompt)
            choice = self.read_choice(view, prompt)
            if choice is not None and self.confirmed(choice):
                self.apply(seat, choice.action)
                return

    def ai_choice(self, seat: str, prompt: PromptView) -> str:
        """The number the autoplaying AI of ``seat`` types at ``prompt``."""
        g = self.game
        raw = next(p for p in g.pending() if p.player == seat)
        action = self.autoplay[seat].choose(lazy_seat_view(g, seat), raw)
        return str([c.action for c in display.order(prompt)].index(action) + 1)

    def roll_for(self, prompt: PromptView) -> int | None:
        """The exploration die a window after a roll is about."""
        if prompt.window_kind != "exploration_roll" or not prompt.window_about:
            return None
        return self.rolls.get(prompt.window_about[0])

    def confirmed(self, choice: ChoiceView) -> bool:
        """Ask again before an action of :data:`display.CONFIRM` is applied."""
        why = display.CONFIRM.get(parse_action(choice.action).type)
        if why is None:
            return True
        self.say(f"{choice.label}: {why}. It cannot be undone.")
        self.suggest = lambda: "yes"
        line = self.ask("Type yes to confirm, anything else to choose again: ")
        if line.strip().lower() in ("y", "yes"):
            return True
        self.say("Not done: choose again.")
        return False

    def ask(self, question: str) -> str:
        """One line typed by the human (Quit at the end of the input)."""
        self.stdout.write(question)
        self.stdout.flush()
        line = self.stdin.readline()
        if not line and self.suggest is not None and self.last_human in self.autoplay:
            line = f"{self.suggest()}\n"
            self.stdout.write(line)  # shown as if typed
        if not line:
            raise Quit("the input ended")
        return line

    def read_choice(self, view: SeatView, prompt: PromptView) -> ChoiceView | None:
        """The choice typed, or None after a command or a message (ask again)."""
        choices = display.order(prompt)
        count = len(choices)
        line = self.ask(f"Choice (1-{count}, ? for help): ")
        text = line.strip()
        lower = text.lower()
        if lower in ("q", "quit", "exit"):
            raise Quit("you left the game")
        if lower in ("?", "h", "help"):
            self.say(COMMANDS)
        elif lower in ("b", "board"):
            self.say(display.render_board(view, self.game.db))
            self.say(display.render_prompt(view, self.game.db, self.roll_for(prompt)))
        elif lower == "rules":
            self.say(RULES)
        elif lower == "hand":
            self.say(self.hand_text(view))
        elif lower in ("missions", "m"):
            self.say(self.missions_text(view))
        elif lower in ("discards", "d"):
            self.say(display.render_discards(view.table, self.game.db))
        elif lower.startswith("?") and lower[1:].strip().isdigit():
            self.say(self.choice_text(view, choices, lower[1:].strip()))
        elif lower.startswith("?") or lower == "card" or lower.startswith("card "):
            self.say(self.lookup(text[1:] if lower.startswith("?") else text[4:]))
        elif lower.isdigit():
            number = int(lower)
            if 1 <= number <= count:
                return choices[number - 1]
            self.say(f"No choice {number}: type a number from 1 to {count}.")
        else:
            by_label = [c for c in choices if c.label.lower().startswith(lower)] if lower else []
            if len(by_label) == 1:
                return by_label[0]
            self.say(f"Not a choice: {text!r}. Type a number from 1 to {count}, or ? for help.")
        return None

    def choice_text(self, view: SeatView, choices: Sequence[ChoiceView], which: str) -> str:
        """What choice ``which`` is about: the card it names (its own hand, a public card:
        the choice is the seat's, so its card is one the seat may see), the reward it takes,
        or the option it picks."""
        if not 1 <= int(which) <= len(choices):
            return f"Type ?N with N from 1 to {len(choices)}."
        choice = choices[int(which) - 1]
        action = parse_action(choice.action)
        arg = action.arg or ""
        if arg in self.game.db.by_id:
            return cards.describe(self.game.db, arg)
        region = view.table.party(view.seat).region
        if action.type in ("explore", "skip") and region:
            # Exploring reads the table of the Region the party stands in.
            return cards.describe(self.game.db, region)
        note = display.choice_note(choice, view, self.game.db)
        if note:
            return f"{choice.label}: {note}"
        return f"{choice.label}: that choice names no card."

    def lookup(self, name: str) -> str:
        """Any card of the sets in play, by name: card texts are public."""
        if not name.strip():
            return "Type ? and a card's name, e.g. ? Arkhangel."
        db = self.game.db
        found = cards.find(db, name, self.game.table_view().sets)
        if not found:
            return f"No card is named {name.strip()!r}."
        if len(found) > 6:
            names = ", ".join(sorted(cards.card_name(db, c) for c in found))
            return f"{len(found)} cards match {name.strip()!r}: {names}."
        return "\n".join(cards.describe(db, c) for c in found)

    def hand_text(self, view: SeatView) -> str:
        """The seat's hand, each card with what it says."""
        if not view.hand:
            return "Your hand is empty."
        return "Your hand:\n" + "\n".join(cards.describe(self.game.db, c) for c in view.hand)

    def missions_text(self, view: SeatView) -> str:
        """The seat's missions: secret ones in hand, started and completed, and the Final."""
        db = self.game.db
        party = view.table.party(view.seat)
        parts = []
        for title, ids in (
            ("Your secret missions", view.missions),
            ("Started", party.started),
            ("Completed", party.completed),
        ):
            if ids:
                parts.append(f"{title}:\n" + "\n".join(cards.describe(db, c) for c in ids))
        parts.append(
            "A Basic mission is attempted after a successful exploration of its Region, "
            "instead of a reward (E6); some rewards let a party attempt it from afar."
        )
        final = view.table.final_mission
        if final:
            parts.append(
                "The Final mission (attempted like a Basic one, once you have completed a "
                "Basic mission, F4):\n" + cards.describe(db, final)
            )
        else:
            parts.append("The Final mission is still face down.")
        return "\n".join(parts)
