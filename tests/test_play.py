"""``anima play``: a game in the terminal, driven by scripted input.

The leak test plays whole games choosing "1" at every decision and checks every piece of text
written to the terminal, at the moment it is written, against the game: it names no card that
another seat holds hidden (hand, secret missions, start offers, a face-down Trap) unless the
human's seat has seen that card at some moment of the game. It plays in English and in other
languages (``anima play --lang``), where it looks for the hidden cards' names in that
language's translation too, and for English left in the lines (:mod:`english_left`).
"""

from __future__ import annotations

import io
import re
import sys
from typing import Any

import pytest
from english_left import untranslated
from test_properties import CARD_PHRASES, NAMES, named_in, named_in_text

import words
from engine import visibility as sight
from engine import zones
from engine.agents.levels import DEFAULT_LEVEL, LEVELS, make_agent
from engine.cards import CharacterCard
from engine.events import Event
from engine.game import Game
from engine.tools import cli
from engine.tools.play import (
    COMMANDS,
    Quit,
    TerminalGame,
    commands_text,
    new_game,
    render_board,
    render_prompt,
    visible_to,
)
from engine.tools.play.cards import describe, exploration_text
from engine.tools.play.display import order, render_discards
from engine.tools.play.help import COMMAND_NAMES
from engine.views import ChoiceView, PromptData, PromptView
from wording.cards import card_marks
from words.plain import line

HUMAN = "P1"
ALL_CARDS = set(NAMES)


class Always:
    """A terminal input that answers the same line forever."""

    def __init__(self, line: str) -> None:
        self.line = line
        self.reads = 0

    def readline(self) -> str:
        self.reads += 1
        return self.line


class Translated:
    """The cards' names in one language, to find them in a text as :func:`named_in_text`
    finds the printed ones (card texts that quote names cut out first)."""

    def __init__(self, language: str) -> None:
        self.names = {c: words.card_name(c, name, language) for c, name in NAMES.items()}
        every = set(self.names.values())
        self.longer = {
            c: sorted({n for n in every if name in n and n != name}, key=len, reverse=True)
            for c, name in self.names.items()
        }
        own = words.catalog(language, cards=True)
        quoted = {str(t) for id, t in own.items() if not id.endswith(".name") and " " in str(t)}
        self.phrases = sorted(quoted | set(CARD_PHRASES), key=len, reverse=True)

    def named(self, text: str, cards: set[str]) -> set[str]:
        """The ``cards`` that ``text`` names in this language."""
        hits = {c for c in cards if self.names[c] in text}
        if hits:
            for quoted in self.phrases:
                text = text.replace(quoted, "")
            hits = {c for c in hits if self.names[c] in _without(text, self.longer[c])}
        return hits


def _without(text: str, phrases: list[str]) -> str:
    for phrase in phrases:
        text = text.replace(phrase, "")
    return text


class Watched(io.StringIO):
    """The terminal's output, checked for hidden cards at each write (named as printed, and
    in ``language`` when the terminal speaks another)."""

    def __init__(self, game: Game, language: str = "en") -> None:
        super().__init__()
        self.game = game
        self.translated = Translated(language) if language != "en" else None
        self.seen: set[str] = set()
        apply = game.apply

        def watched_apply(player: str, action: Any) -> Any:
            self.look()
            events = apply(player, action)
            self.look()
            # An event addressed to the human's seat may name a card another seat holds (a
            # trade offered to him): the engine's own property tests check that such an
            # event is his to see; from then on he has seen the card.
            for event in events:
                if visible_to(event, HUMAN):
                    self.seen |= named_in(event.data, ALL_CARDS)
                    self.seen |= named_in_text(event.text, ALL_CARDS)
            return events

        game.apply = watched_apply  # type: ignore[method-assign]
        self.look()

    def look(self) -> None:
        """Remember every card the human's seat may see now."""
        state = self.game.s
        self.seen |= set(zones.all_cards(state)) - sight.hidden_from(state, HUMAN)

    def write(self, text: str) -> int:
        self.look()
        state = self.game.s
        seen_names = {NAMES[c] for c in self.seen}
        if self.translated is not None:
            seen_names |= {self.translated.names[c] for c in self.seen}
        secret = {
            card
            for card, zone in zones.places(state)
            if zone.key != HUMAN
            and not sight.is_visible_to(state, card, HUMAN)
            and card not in self.seen
            # Another copy by the same name was seen: naming it tells nothing.
            and NAMES[card] not in seen_names
            and (self.translated is None or self.translated.names[card] not in seen_names)
        }
        leaked = named_in_text(text, secret)
        if self.translated is not None:
            leaked |= self.translated.named(text, secret)
        assert not leaked, f"{HUMAN} is shown {sorted(leaked)} in {text!r}"
        return super().write(text)


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_a_whole_game_choosing_1_shows_no_hidden_card_of_another_seat(seed: int) -> None:
    game, humans, agents = new_game(4, 1, "random", seed, {"turn_cap": 30})
    out = Watched(game)
    result = TerminalGame(game, humans, agents, Always("1\n"), out).run()  # type: ignore[arg-type]
    assert result == 0
    assert game.over
    text = out.getvalue()
    assert "=== Game over:" in text
    assert "P1, your decision:" in text


#: What the decision's line starts with in each language (terminal.decision).
YOUR_DECISION = {"es": "P1, tu decisión:", "ru": "P1, ваше решение:"}


@pytest.mark.parametrize(("language", "seed"), [("es", 1), ("ru", 2)])
def test_a_whole_game_in_another_language_shows_no_hidden_card_and_no_english(
    language: str, seed: int
) -> None:
    game, humans, agents = new_game(4, 1, "random", seed, {"turn_cap": 30})
    out = Watched(game, language)
    stdin = Always("1\n")
    session = TerminalGame(game, humans, agents, stdin, out, language=language)  # type: ignore[arg-type]
    assert session.run() == 0
    assert game.over
    text = out.getvalue()
    assert YOUR_DECISION[language] in text
    assert "P1, your decision:" not in text
    assert untranslated(text, language) == []


@pytest.mark.parametrize("language", ["es", "ru", "it"])
def test_the_commands_speak_the_language_and_take_its_words(language: str) -> None:
    # Lead, give back, then at the Reset phase every command in the language's words (the
    # longest of each: not the one-letter ones every language shares), a card by its
    # printed name.
    with words.speaking(language):
        typed = [line("terminal.command.card") + " " + NAMES["arkhangel"]]
        typed += [max(line(f"terminal.command.{c}").split(), key=len) for c in COMMAND_NAMES]
    quit_word = typed.pop()
    stdin = Typed("?1", "1", "1", *typed, "?2", "? zzzz", quit_word)
    s, out = session(4, stdin, language=language)
    play_until_quit(s)
    text = out.getvalue()
    assert untranslated(text, language) == []
    with words.speaking(language):
        for said in (
            commands_text(),
            line("terminal.rules"),
            line("terminal.hand"),
            line("terminal.missions.how"),
            line("terminal.discards"),
            line("terminal.lookup.none", name="'zzzz'"),
            describe(s.game.db, "arkhangel"),
        ):
            assert said in text, said
        # The board: at the first decision of the turn, and once asked.
        assert text.count(f"\n{line('terminal.board.parties')}\n") == 3


def test_the_board_shows_the_seats_own_cards_and_only_counts_of_the_others() -> None:
    game, _, _ = new_game(4, 1, "random", 5, {})
    view = game.seat_view(HUMAN)
    board = render_board(view, game.db)
    mine = game.s.players[HUMAN]
    for card in [*mine.missions, *mine.offered_characters, *mine.offered_advantages]:
        assert NAMES[card] in board
    for seat in ("P2", "P3", "P4"):
        other = game.s.players[seat]
        for card in [*other.missions, *other.offered_characters, *other.offered_advantages]:
            # A card by the same name may be the human's own.
            if NAMES[card] not in {NAMES[c] for c in zones.all_cards(game.s)} - {
                NAMES[c] for c in sight.hidden_from(game.s, HUMAN)
            }:
                assert NAMES[card] not in board
        assert f"{seat}: choosing a leader" in board  # S3: leaders hidden during setup


def test_the_log_keeps_only_events_the_seat_may_see() -> None:
    game, humans, agents = new_game(4, 2, "random", 7, {})
    session = TerminalGame(game, humans, agents, Always("1\n"), io.StringIO())  # type: ignore[arg-type]
    # All public, each worded from its kind and payload.
    assert session.unseen[HUMAN] == [session.line_of(e) for e in game.last_events]
    assert session.unseen[HUMAN][0] == "🎲 A game of Anima begins with P1, P2, P3, P4."
    session.record(
        [
            Event("draw", "P3 draws 2 Advantages."),
            Event("draw_private", "You draw Scrying, Fireball.", ["P3"]),
            Event("draw_private", "You draw Holy Water.", ["P1"]),
            Event("offer", "P2 makes an offer to P1.", ["P1", "P2"]),
        ]
    )
    assert session.unseen["P1"][-3:] == [
        "P3 draws 2 Advantages.",
        "You draw Holy Water.",
        "P2 makes an offer to P1.",
    ]
    assert session.unseen["P2"][-2:] == ["P3 draws 2 Advantages.", "P2 makes an offer to P1."]


def run_cli(monkeypatch: pytest.MonkeyPatch, capsys: Any, stdin: Any, *args: str) -> Any:
    monkeypatch.setattr(sys, "stdin", stdin)
    code = cli.main(["play", *args])
    return code, capsys.readouterr()


def test_bad_input_gets_a_message_and_asks_again(
    monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    code, out = run_cli(
        monkeypatch, capsys, io.StringIO("one\n0\n99\n?\n?1\n?9\n\nq\n"), "--seed", "4"
    )
    assert code == 1
    assert "Not a choice: 'one'" in out.out
    assert "No choice 0: type a number from 1 to 2." in out.out
    assert "No choice 99: type a number from 1 to 2." in out.out
    assert "Type the number of a choice" in out.out  # the help
    assert "(Character)\n  Strength " in out.out  # ?1: the offered leader's card
    assert "Type ?N with N from 1 to 2." in out.out
    assert "Not a choice: ''" in out.out
    assert "Game left unfinished: you left the game." in out.out
    assert "Traceback" not in out.out + out.err


def test_the_end_of_the_input_leaves_cleanly(monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    code, out = run_cli(monkeypatch, capsys, io.StringIO("1\n1\n"), "--seed", "4")
    assert code == 1
    assert "Game left unfinished: the input ended." in out.out


class Interrupted:
    def readline(self) -> str:
        raise KeyboardInterrupt


def test_ctrl_c_leaves_cleanly(monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    code, out = run_cli(monkeypatch, capsys, Interrupted(), "--seed", "4")
    assert code == 130
    assert "Game left unfinished: interrupted." in out.out


def test_a_whole_game_from_the_command_with_every_seat_ai_but_one(
    monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    code, out = run_cli(monkeypatch, capsys, Always("1\n"), "--seed", "9", "--turn-cap", "20")
    assert code == 0
    assert f"AI ({DEFAULT_LEVEL}): P2, P3, P4" in out.out
    assert "=== Game over:" in out.out


def test_hot_seat_says_whose_turn_it_is(monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    code, out = run_cli(
        monkeypatch, capsys, io.StringIO("1\n1\n1\n1\n"), "--seed", "4", "--humans", "2"
    )
    assert code == 1
    assert "##### P1 at the keyboard" in out.out
    assert "##### P2 at the keyboard" in out.out


def test_the_command_refuses_what_cannot_be_played(
    monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    code, out = run_cli(monkeypatch, capsys, io.StringIO(""), "--humans", "0")
    assert code == 2
    assert "--humans must be 1 to 4" in out.err
    with pytest.raises(SystemExit):
        cli.main(["play", "--ai", "grandmaster"])
    assert "invalid choice: 'grandmaster'" in capsys.readouterr().err
    assert DEFAULT_LEVEL in LEVELS


# ---------------------------------------------------------------------- learning the game
# Issue 20: tried as a new player would, one chose blind. Each test drives the loop with
# scripted input and reads what was printed.


class Typed:
    """A terminal input typing the given lines, then "1" forever (or the end of the input)."""

    def __init__(self, *lines: str, then: str | None = "1") -> None:
        self.lines = [f"{line}\n" for line in lines]
        self.then = then

    def readline(self) -> str:
        if self.lines:
            return self.lines.pop(0)
        return f"{self.then}\n" if self.then is not None else ""


def session(
    seed: int, stdin: Any, humans: int = 1, language: str = "en"
) -> tuple[TerminalGame, io.StringIO]:
    game, seats, agents = new_game(4, humans, "random", seed, {"turn_cap": 30})
    out = io.StringIO()
    return TerminalGame(game, seats, agents, stdin, out, language=language), out


def play_until_quit(s: TerminalGame) -> None:
    with pytest.raises(Quit):
        s.run()


def test_a_character_s_strength_speed_and_skills_are_shown() -> None:
    s, out = session(4, Typed("?1", "?2", then=None))
    play_until_quit(s)
    for card in s.game.s.players[HUMAN].offered_characters:
        c = s.game.db.by_id[card]
        assert isinstance(c, CharacterCard)
        skills = ", ".join(k.capitalize() for k in c.skills) or "none"
        assert (
            f"{c.name}{card_marks(c)} (Character)\n"
            f"  Strength {c.strength}, Speed {c.speed}, skills: {skills}"
        ) in out.getvalue()


def test_a_region_shows_its_table_rewards_and_icons() -> None:
    s, out = session(4, Typed("? arkhangel", "card Lost Ruins", then=None))
    play_until_quit(s)
    text = out.getvalue()
    arkhangel = s.game.db.region("arkhangel")
    assert f"Arkhangel{card_marks(arkhangel)} (Region)\n  Level 1" in text
    assert "trade icon: a party here may trade" in text
    for roll in range(1, 7):
        assert f"    {roll}: {exploration_text(arkhangel, roll)}" in text
    # A reward named on the card (Relic Market) says what it does.
    assert "Relic Market: Take the top card of the Advantage discard pile." in text
    assert "Secret Passage: A hidden tunnel: attempt one of your missions" in text
    assert "Draw 1 Advantage: as many as the Region's level" in text


def test_a_card_not_found_and_an_empty_name_get_a_message() -> None:
    s, out = session(4, Typed("? no such card at all", "?", "card ", then=None))
    play_until_quit(s)
    assert "No card is named 'no such card at all'." in out.getvalue()
    assert "Type ? and a card's name" in out.getvalue()
    assert "Type the number of a choice" in out.getvalue()  # "?" alone is the help


def test_hand_and_missions_show_the_seat_s_own_cards_with_their_text() -> None:
    # Lead, give back, then look at the hand and the missions at the Reset phase.
    s, out = session(4, Typed("1", "1", "hand", "missions", then=None))
    play_until_quit(s)
    text = out.getvalue()
    me = s.game.s.players[HUMAN]
    assert "Your hand:\n" in text
    for card in me.hand:
        assert describe(s.game.db, card) in text
    assert "Your secret missions:\n" in text
    for card in me.missions:
        assert describe(s.game.db, card) in text
        assert "objective: " in describe(s.game.db, card)
    assert "The Final mission is still face down." in text


def test_the_discard_piles_are_shown_top_card_first() -> None:
    s, _ = session(2, Always("1\n"))
    s.run()
    table = s.game.table_view()
    board = render_board(s.game.seat_view(HUMAN, sealed=False), s.game.db)
    tops = [f"{deck} {NAMES[pile[-1]]}" for deck, pile in table.discards if pile]
    assert tops  # a whole game discards something
    assert "Discard piles, top card: " + ", ".join(tops) in board
    listed = render_discards(table, s.game.db)
    for deck, pile in table.discards:
        names = ", ".join(NAMES[c] for c in reversed(pile)) if pile else "none"
        assert f"  {deck}: {names}" in listed


def test_the_discards_command_lists_the_piles() -> None:
    s, out = session(4, Typed("1", "1", "discards", then=None))
    play_until_quit(s)
    assert "Discard piles (top card first):\n  character: " in out.getvalue()


def test_an_exploration_roll_says_what_the_die_means_on_that_region() -> None:
    s, _ = session(3, Always("1\n"))
    s.run()
    table = s.game.table_view()
    seat = next(p.seat for p in table.parties if p.region)
    region = s.game.db.region(table.party(seat).region or "")
    s.record([Event("explore_roll", f"{seat} explores: 🎲 4.", None, {"player": seat, "die": 4})])
    window = PromptView(
        player=HUMAN,
        kind="window",
        text=f"{seat} rolled to explore. Play an Interrupt card, or pass.",
        public_text="",
        window=True,
        window_kind="exploration_roll",
        window_about=(seat,),
        default="pass",
        choices=(
            ChoiceView(index=0, action="pass", label="Pass", public=True),
            ChoiceView(index=1, action="play wrong_road", label="Play Wrong Road", public=False),
        ),
    )
    assert s.roll_for(window) == 4
    view = s.game.seat_view(HUMAN, sealed=False).model_copy(update={"prompt": window})
    for roll in range(1, 7):
        shown = render_prompt(view, s.game.db, roll)
        meaning = exploration_text(region, roll).rstrip(".")
        assert f"The die shows {roll} at {region.name}: {meaning}." in shown


def test_a_choose_one_prompt_is_not_numbered_from_0_above_a_menu_from_1() -> None:
    options = ("+2 Strength this turn", "+2 Speed this turn")
    prompt = PromptView(
        player=HUMAN,
        kind="pick",
        text="0: +2 Strength this turn / 1: +2 Speed this turn",
        public_text="",
        default="pick 0",
        data=PromptData(
            variant="choose", options=tuple((str(i), o, False) for i, o in enumerate(options))
        ),
        choices=tuple(
            ChoiceView(index=i, action=f"pick {i}", label=o, public=True, option=o)
            for i, o in enumerate(options)
        ),
    )
    game, _, _ = new_game(4, 1, "random", 4, {})
    view = game.seat_view(HUMAN, sealed=False).model_copy(update={"prompt": prompt})
    shown = render_prompt(view, game.db)
    assert shown.startswith("P1, your decision: Choose one:\n")
    assert "0:" not in shown
    assert "  1. +2 Strength this turn\n  2. +2 Speed this turn" in shown


def reveal_prompt(game: Game) -> PromptView:
    return PromptView(
        player=HUMAN,
        kind="reveal_final",
        text="Reveal the Final mission now (F3)?",
        public_text="",
        default="pass",
        choices=(
            ChoiceView(
                index=0, action="reveal_final", label="Reveal the Final mission", public=True
            ),
            ChoiceView(index=1, action="pass", label="Pass", public=True),
        ),
    )


def test_revealing_the_final_mission_is_not_choice_1_and_asks_to_confirm() -> None:
    game, _, _ = new_game(4, 1, "random", 4, {})
    prompt = reveal_prompt(game)
    view = game.seat_view(HUMAN, sealed=False).model_copy(update={"prompt": prompt})
    shown = render_prompt(view, game.db)
    assert "  1. Pass\n  2. Reveal the Final mission" in shown
    # A typed-ahead "1" passes; "2" asks, and only "yes" reveals.
    s, out = session(4, Typed("1", "2", "1", "2", "yes", then=None))
    assert s.read_choice(view, prompt) == prompt.choices[1]  # "1": Pass
    reveal = s.read_choice(view, prompt)
    assert reveal == prompt.choices[0]
    assert reveal is not None
    assert not s.confirmed(reveal)  # "1" is not a yes
    assert "Not done: choose again." in out.getvalue()
    assert s.read_choice(view, prompt) == reveal
    assert s.confirmed(reveal)
    assert "Revealing the Final mission starts the Crisis! countdown" in out.getvalue()


class Reveals:
    """P1's input in a whole game: the normal AI's choice, except that when the Final mission
    may be revealed it types its number, refuses to confirm once, then confirms."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.agent = make_agent("normal", "test")
        self.queue: list[str] = []
        self.asked = 0

    def readline(self) -> str:
        if self.queue:
            return self.queue.pop(0)
        view = self.game.seat_view(HUMAN)
        prompt = view.prompt
        assert prompt is not None
        choices = order(prompt)
        if prompt.kind == "reveal_final":
            self.asked += 1
            number = 1 + next(i for i, c in enumerate(choices) if c.action == "reveal_final")
            self.queue = ["no\n", f"{number}\n", "yes\n"]
            return f"{number}\n"
        raw = next(p for p in self.game.pending() if p.player == HUMAN)
        action = self.agent.choose(self.game.seat_view(HUMAN), raw)
        number = 1 + next(i for i, c in enumerate(choices) if c.action == action)
        return f"{number}\n"


def test_a_whole_game_in_which_the_human_reveals_the_final_mission_after_confirming() -> None:
    for seed in range(1, 30):
        game, seats, agents = new_game(4, 1, "normal", seed, {"turn_cap": 30})
        stdin = Reveals(game)
        out = io.StringIO()
        TerminalGame(game, seats, agents, stdin, out).run()
        if stdin.asked:
            break
    else:
        pytest.fail("P1 was never asked to reveal the Final mission")
    text = out.getvalue()
    assert "Reveal the Final mission: Revealing the Final mission starts" in text
    assert "P1 reveals the Final mission" in text


def test_the_log_names_the_reward_behind_a_mission_attempted_from_afar() -> None:
    s, _ = session(4, Always("1\n"))
    s.game.s.players["P2"].region = "lost_ruins"  # a Region with a "mission from afar" reward
    s.note_remote("P2", "reward 0")  # drawing Advantages: nothing to name
    assert "P2" not in s.remote
    s.note_remote("P2", "reward 2")
    s.record(
        [
            Event("mission_attempt", "P2 attempts a secret mission.", None, {"player": "P2"}),
            Event("mission_attempt", "P2 attempts a secret mission.", None, {"player": "P2"}),
        ]
    )
    assert s.unseen[HUMAN][-2:] == [
        "P2 attempts a secret mission (from afar, through Secret Passage, a reward of Lost Ruins).",
        "P2 attempts a secret mission.",  # named once: the next attempt is another one
    ]


def test_the_board_is_printed_once_a_turn_and_on_demand_not_after_every_event() -> None:
    s, out = session(3, Always("1\n"))
    s.run()
    text = out.getvalue()
    turns = s.game.s.turn
    # Once at the human's first decision of each turn (and once at the end).
    assert text.count("\nParties:\n") <= turns + 2
    assert text.count("\nDecks: ") <= turns + 2
    # In between, what changed for him: the phase, and his own party and cards.
    assert "=== Turn 1 · Movement phase ===" in text
    assert "Your party and cards:\n  P1 (you)" in text
    s, out = session(4, Typed("b", "board", then=None))
    play_until_quit(s)
    assert out.getvalue().count("\nParties:\n") == 3  # at the start, then twice on demand


def test_a_choice_may_be_typed_by_its_label() -> None:
    # Lead, give back; at the Reset phase "dis" is ambiguous (three Discards), "don" is not.
    s, out = session(4, Typed("1", "1", "dis", "don", then=None))
    play_until_quit(s)
    text = out.getvalue()
    assert text.count("Not a choice: 'dis'.") == 1
    assert "Not a choice: 'don'" not in text
    assert text.index("Not a choice: 'dis'.") < text.index("P1, your decision: Movement phase")


def test_help_and_the_command_s_help_list_the_commands(
    monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    for command in ("?N", "? NAME", "board", "hand", "missions", "discards", "rules", "quit"):
        assert command in COMMANDS
    with pytest.raises(SystemExit):
        cli.main(["play", "--help"])
    helped = capsys.readouterr().out
    assert COMMANDS.splitlines()[1] in helped
    assert "--script FILE" in helped
    _, out = run_cli(monkeypatch, capsys, io.StringIO("help\nrules\nq\n"), "--seed", "4")
    assert COMMANDS in out.out
    assert "A turn (T1) has four phases" in out.out


def test_a_script_is_typed_and_echoed_then_the_terminal_is_read(
    monkeypatch: pytest.MonkeyPatch, capsys: Any, tmp_path: Any
) -> None:
    script = tmp_path / "session.txt"
    script.write_text("# a comment, not typed\n?1\n2\n", encoding="utf-8")
    code, out = run_cli(
        monkeypatch, capsys, io.StringIO("q\n"), "--seed", "4", "--script", str(script)
    )
    assert code == 1
    assert "Choice (1-2, ? for help): ?1\n" in out.out
    assert "Choice (1-2, ? for help): 2\n" in out.out
    assert "a comment" not in out.out
    assert "Game left unfinished: you left the game." in out.out  # then the terminal's "q"
    code, out = run_cli(
        monkeypatch, capsys, io.StringIO(""), "--script", str(tmp_path / "missing.txt")
    )
    assert code == 2
    assert "cannot read the script" in out.err


def test_autoplay_types_for_the_human_once_the_input_ends(
    monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    code, out = run_cli(
        monkeypatch, capsys, io.StringIO("?1\n"), "--seed", "12", "--autoplay", "normal"
    )
    assert code == 0
    assert "=== Game over:" in out.out
    assert "(Character)\n  Strength " in out.out  # "?1", read from the input first
    typed = re.findall(r"Choice \(1-(\d+), \? for help\): (\d+)\n", out.out)
    assert len(typed) > 10  # then typed by the AI, shown as if typed
    assert all(1 <= int(n) <= int(top) for top, n in typed)


def test_a_move_says_what_waits_in_each_region_and_exploring_a_new_one_what_it_does() -> None:
    s, out = session(4, Typed("1", "1", "1", then=None))  # lead, give back, Reset: done
    play_until_quit(s)
    view = s.game.seat_view(HUMAN, sealed=False)
    assert view.prompt is not None
    assert view.prompt.kind == "movement"
    shown = out.getvalue()
    for region in view.table.regions:
        others = [p for p in region.parties if p != HUMAN]
        line = f"Go to {NAMES[region.card]} (level {region.level}, "
        assert line in shown
        if others:
            assert f"; {', '.join(others)} there)" in shown
    left = dict(view.table.decks)["region"]
    assert f"Explore a new Region (the top card of the Region deck, {left} left" in shown


class DeclinesTheReveal:
    """P1's input: nothing (the autoplaying AI types), except at the first chance to reveal
    the Final mission: its number, then "no" to the confirmation."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.queue: list[str] = []
        self.declined = False
        self.reads = 0

    def readline(self) -> str:
        self.reads += 1
        # A loop asking again and again would never end the game: fail instead.
        assert self.reads < 5_000, "the same question was asked over and over"
        if self.queue:
            return self.queue.pop(0)
        prompt = self.game.seat_view(HUMAN).prompt
        if not self.declined and prompt is not None and prompt.kind == "reveal_final":
            self.declined = True
            number = 1 + [c.action for c in order(prompt)].index("reveal_final")
            self.queue = ["no\n"]
            return f"{number}\n"
        return ""


def test_after_a_declined_confirmation_the_autoplaying_ai_chooses_again() -> None:
    for seed in range(12, 40):
        game, seats, agents = new_game(4, 1, "normal", seed, {"turn_cap": 30})
        stdin = DeclinesTheReveal(game)
        out = io.StringIO()
        autoplay = {HUMAN: make_agent("normal", f"{seed}:autoplay")}
        result = TerminalGame(game, seats, agents, stdin, out, autoplay=autoplay).run()
        if stdin.declined:
            break
    else:
        pytest.fail("P1 was never asked to reveal the Final mission")
    assert result == 0
    text = out.getvalue()
    assert "Not done: choose again.\nChoice (1-2, ? for help): " in text
    assert "Not a choice: 'yes'" not in text  # the AI types a number, not the confirmation's yes


def test_hot_seat_shows_whoever_sits_down_his_own_cards_not_the_board_each_time() -> None:
    s, out = session(5, Always("1\n"), humans=2)
    s.run()
    text = out.getvalue()
    blocks = text.split("\n##### ")[1:]
    assert len(blocks) > 4
    for block in blocks:
        seat = block[:2]
        # A seat with nothing to decide is not called to the keyboard.
        assert f"{seat}, your decision:" in block
        # He sees his own cards: the whole board, or his part of it.
        assert f"  {seat} (you)" in block
    assert text.count("\nParties:\n") <= 2 * (s.game.s.turn + 2)


def test_a_party_s_bonus_says_how_long_it_lasts_in_words() -> None:
    # Seed 7: Meditation and the Blessed Spring give P4 +2/+2 for the next turn (turn 1).
    game, humans, agents = new_game(4, 1, "normal", 7, {"turn_cap": 30})
    out = io.StringIO()
    autoplay = {HUMAN: make_agent("normal", "7:P1:autoplay")}
    TerminalGame(game, humans, agents, io.StringIO(""), out, autoplay=autoplay).run()
    text = out.getvalue()
    assert re.search(r"party gets [+-]\d+ \w+ \(next turn\)\.", text)
    assert not re.search(r"party gets [+-]\d+ \w+ \((next_turn|battle|permanent)\)", text)


def test_a_face_down_final_mission_shows_its_deck_not_a_countdown() -> None:
    # "face down (3 left)" read like the Crisis! countdown, which starts only at the reveal.
    game, _, _ = new_game(4, 1, "random", 5, {})
    board = render_board(game.seat_view(HUMAN), game.db)
    deck = len(game.s.final_deck)
    assert f"Final mission: not revealed ({deck} face down)" in board
    assert "left)" not in board.split("Parties:")[0]
