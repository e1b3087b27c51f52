"""The game loop of ``anima play``: AI seats answer at once, a human seat is shown what it
may see and types a choice or a command.

Everything printed for a human comes from what that seat may see: the board from its
:class:`~engine.views.SeatView`, the decision from its :class:`~engine.views.PromptView`
(worded from its kind and data), the log from the events addressed to everybody or to that
seat (worded from their kinds and payloads), and card texts from the card database (public).
The game itself, which holds every hand, is never rendered. Every line is said in the
session's language (``anima play --lang``): the catalogs' words through :mod:`wording`, as the
Discord bot says them, and the terminal's own ``terminal.*`` messages.

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
from engine.tools.play.help import card_command, command_of, commands_text, rules_text
from engine.tools.play.speech import folded
from engine.views import ChoiceView, PromptView, SeatView, lazy_seat_view
from wording import PlainNames, choice_words, event_words
from wording.cards import card_name, printed
from words import SOURCE, speaking
from words.plain import count, line, plain, said


class LineInput(Protocol):
    """Where the human's lines come from: the terminal, or a script (``--script``)."""

    def readline(self) -> str: ...


class Quit(Exception):
    """The human left: ``q``, the end of the input, or Ctrl-C. Its argument is the id of
    the message that says why (``terminal.quit.<why>``)."""


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
    #: The language every line is said in (one of :data:`words.LANGUAGES`).
    language: str = SOURCE
    #: The game's seats, named by their ids in the lines worded by :mod:`wording`.
    names: PlainNames = field(init=False)

    def __post_init__(self) -> None:
        for human in self.humans:
            self.unseen[human] = []
            self.shown[human] = Shown()
        self.names = PlainNames(tuple(self.game.s.seats))
        self.record(self.game.last_events)

    def say(self, text: str) -> None:
        """Print for the human(s) at the terminal."""
        print(text, file=self.stdout, flush=True)

    def line_of(self, event: Event) -> str:
        """An event's line, worded from its kind and payload (an event told to some seats
        alone is worded for them). An event without the payload its message needs (none
        the engine logs: the bot's tests word every kind) says the engine's own line."""
        with speaking(self.language):
            worded = event_words(event.kind, event.data, self.names, self.game.db, bool(event.to))
            return plain(worded if worded is not None else event.text)

    def record(self, events: Sequence[Event]) -> None:
        """Keep each event for the log of every human seat that may see it."""
        for event in events:
            text = self.line_of(event)
            player = event.data.get("player")
            if event.kind == "explore_roll" and isinstance(event.data.get("die"), int):
                self.rolls[str(player)] = event.data["die"]
            if event.kind == "mission_attempt" and event.to is None and player in self.remote:
                # The table saw the party explore its Region; the attempt follows from a
                # reward it took there, which the event's line does not name.
                with speaking(self.language):
                    how = self.remote.pop(str(player))
                    text = line("terminal.remote", line=text.rstrip("."), how=how)
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
            with speaking(self.language):
                reward = card.rewards[index].name
                name = printed(region, reward) if reward else line("terminal.remote.unnamed")
                where = card_name(self.game.db, region)
                self.remote[seat] = line("terminal.remote.how", reward=name, region=where)

    def run(self) -> int:
        """Play to the end; raises :class:`Quit` when the human leaves."""
        with speaking(self.language):
            return self._run()

    def _run(self) -> int:
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
            self.say(line("terminal.log.seat", player=seat) if len(self.humans) > 1 else "---")
            self.say("\n".join(f"  {text}" for text in lines))
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
            self.say("\n" + line("terminal.hot_seat", player=seat))
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
        kind = parse_action(choice.action).type
        if kind not in display.CONFIRM:
            return True
        why = line(f"terminal.confirm.{kind}")
        # The actions asked again name no card's printed words: worded without the prompt.
        label = said(choice_words(choice, self.game.db))
        self.say(line("terminal.confirm", choice=label, why=why))
        yes = line("terminal.yes")
        self.suggest = lambda: yes
        typed = folded(self.ask(line("terminal.confirm.ask", yes=yes)))
        if typed in {folded(yes), folded(yes)[:1], "y", "yes"}:
            return True
        self.say(line("terminal.confirm.not_done"))
        return False

    def ask(self, question: str) -> str:
        """One line typed by the human (Quit at the end of the input)."""
        self.stdout.write(question)
        self.stdout.flush()
        typed = self.stdin.readline()
        if not typed and self.suggest is not None and self.last_human in self.autoplay:
            typed = f"{self.suggest()}\n"
            self.stdout.write(typed)  # shown as if typed
        if not typed:
            raise Quit("terminal.quit.input_ended")
        return typed

    def read_choice(self, view: SeatView, prompt: PromptView) -> ChoiceView | None:
        """The choice typed, or None after a command or a message (ask again)."""
        choices = display.order(prompt)
        n = len(choices)
        text = self.ask(line("terminal.ask", n=n)).strip()
        lower = text.lower()
        command = command_of(text)
        card = card_command(text)
        if command == "quit":
            raise Quit("terminal.quit.left")
        if command is not None:
            self.say(self.command_text(command, view, prompt))
        elif lower.startswith("?") and lower[1:].strip().isdigit():
            self.say(self.choice_text(view, choices, lower[1:].strip()))
        elif lower.startswith("?") or card is not None:
            self.say(self.lookup(text[1:] if lower.startswith("?") else card or ""))
        elif lower.isdigit():
            number = int(lower)
            if 1 <= number <= n:
                return choices[number - 1]
            self.say(line("terminal.no_such_choice", number=number, n=n))
        else:
            labels = [(c, display.choice_label(c, view, self.game.db).lower()) for c in choices]
            by_label = [c for c, label in labels if label.startswith(lower)] if lower else []
            if len(by_label) == 1:
                return by_label[0]
            self.say(line("terminal.not_a_choice", typed=repr(text), n=n))
        return None

    def command_text(self, command: str, view: SeatView, prompt: PromptView) -> str:
        """What a command (but ``quit``) prints."""
        db = self.game.db
        if command == "board":
            return "\n".join(
                [
                    display.render_board(view, db),
                    display.render_prompt(view, db, self.roll_for(prompt)),
                ]
            )
        if command == "hand":
            return self.hand_text(view)
        if command == "missions":
            return self.missions_text(view)
        if command == "discards":
            return display.render_discards(view.table, db)
        return rules_text() if command == "rules" else commands_text()

    def choice_text(self, view: SeatView, choices: Sequence[ChoiceView], which: str) -> str:
        """What choice ``which`` is about: the card it names (its own hand, a public card:
        the choice is the seat's, so its card is one the seat may see), the reward it takes,
        or the option it picks."""
        if not 1 <= int(which) <= len(choices):
            return line("terminal.choice.range", n=len(choices))
        choice = choices[int(which) - 1]
        action = parse_action(choice.action)
        arg = action.arg or ""
        if arg in self.game.db.by_id:
            return cards.describe(self.game.db, arg)
        region = view.table.party(view.seat).region
        if action.type in ("explore", "skip") and region:
            # Exploring reads the table of the Region the party stands in.
            return cards.describe(self.game.db, region)
        label = display.choice_label(choice, view, self.game.db)
        note = display.choice_note(choice, view, self.game.db)
        if note:
            return line("terminal.choice.note", choice=label, note=note)
        return line("terminal.choice.no_card", choice=label)

    def lookup(self, name: str) -> str:
        """Any card of the sets in play, by name: card texts are public."""
        if not name.strip():
            return line("terminal.lookup.empty")
        db = self.game.db
        found = cards.find(db, name, self.game.table_view().sets)
        if not found:
            return line("terminal.lookup.none", name=repr(name.strip()))
        if len(found) > 6:
            names = ", ".join(sorted(card_name(db, c) for c in found))
            return count("terminal.lookup.many", len(found), name=repr(name.strip()), cards=names)
        return "\n".join(cards.describe(db, c) for c in found)

    def hand_text(self, view: SeatView) -> str:
        """The seat's hand, each card with what it says."""
        if not view.hand:
            return line("terminal.hand.empty")
        described = "\n".join(cards.describe(self.game.db, c) for c in view.hand)
        return f"{line('terminal.hand')}\n{described}"

    def missions_text(self, view: SeatView) -> str:
        """The seat's missions: secret ones in hand, started and completed, and the Final."""
        db = self.game.db
        party = view.table.party(view.seat)
        parts = []
        for title, ids in (
            ("terminal.missions.secret", view.missions),
            ("terminal.missions.started", party.started),
            ("terminal.missions.completed", party.completed),
        ):
            if ids:
                described = "\n".join(cards.describe(db, c) for c in ids)
                parts.append(f"{line(title)}\n{described}")
        parts.append(line("terminal.missions.how"))
        final = view.table.final_mission
        if final:
            parts.append(f"{line('terminal.missions.final')}\n{cards.describe(db, final)}")
        else:
            parts.append(line("terminal.missions.final_hidden"))
        return "\n".join(parts)
