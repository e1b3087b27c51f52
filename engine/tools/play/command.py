"""The ``anima play`` command line: options, a new game, a scripted input (``--script``), the
language every line is said in (``--lang``)."""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path
from typing import Any, TextIO

from engine.agents import Agent
from engine.agents.levels import DEFAULT_LEVEL, LEVELS, make_agent
from engine.cards import default_cards
from engine.errors import IllegalAction
from engine.game import Game
from engine.options import Options
from engine.rules.sets import check_table
from engine.tools.arguments import add_table_arguments
from engine.tools.play.cards import legend
from engine.tools.play.help import COMMANDS, command_words
from engine.tools.play.loop import LineInput, Quit, TerminalGame
from engine.tools.simulate import seat_names
from words import LANGUAGES, SOURCE, speaking
from words.plain import line


class Scripted:
    """The lines of a script, each printed as if typed (a transcript shows what was
    chosen), then the terminal's own input. Lines starting with ``#`` are comments."""

    def __init__(self, lines: list[str], then: LineInput, out: TextIO) -> None:
        self.lines = [line for line in lines if not line.lstrip().startswith("#")]
        self.then = then
        self.out = out

    def readline(self) -> str:
        if not self.lines:
            return self.then.readline()
        line = self.lines.pop(0).rstrip("\n")
        self.out.write(line + "\n")
        return line + "\n"


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
    with speaking(args.lang):
        return _play(args)


def _play(args: argparse.Namespace) -> int:
    if not 1 <= args.humans <= args.players:
        print(line("terminal.error.humans", players=args.players), file=sys.stderr)
        return 2
    try:  # G1: refuse what the rules forbid before dealing
        check_table(args.sets, args.players, default_cards())
    except IllegalAction as exc:
        refusal = line(f"refusal.{exc.kind.value}", **exc.params)
        print(line("terminal.error", error=refusal), file=sys.stderr)
        return 2
    stdin: LineInput = sys.stdin
    if args.script is not None:
        try:
            lines = Path(args.script).read_text(encoding="utf-8").splitlines()
        except OSError as exc:
            print(line("terminal.error.script", error=exc), file=sys.stderr)
            return 2
        stdin = Scripted(lines, sys.stdin, sys.stdout)
    seed = args.seed if args.seed is not None else random.randrange(1_000_000)
    game, humans, agents = new_game(
        args.players, args.humans, args.ai, seed, {"sets": args.sets, "turn_cap": args.turn_cap}
    )
    intro = line(
        "terminal.intro",
        players=args.players,
        seed=seed,
        humans=", ".join(humans),
        level=line(f"ai.{args.ai}.name"),
        ai=", ".join(sorted(agents)) or line("card.none"),
        help=command_words("help")[0],
    )
    print(f"{intro}\n{legend()}")
    autoplay = {
        seat: make_agent(args.autoplay, f"{seed}:{seat}:autoplay")
        for seat in (humans if args.autoplay else [])
    }
    session = TerminalGame(
        game, humans, agents, stdin, sys.stdout, autoplay=autoplay, language=args.lang
    )
    try:
        return session.run()
    except Quit as why:
        print("\n" + line("terminal.unfinished", why=line(str(why))))
        return 1
    except KeyboardInterrupt:
        print("\n" + line("terminal.unfinished", why=line("terminal.quit.interrupted")))
        return 130


def register(sub: Any) -> None:
    """Add ``anima play`` to the ``anima`` subcommands."""
    cmd = sub.add_parser(
        "play",
        help="play a game in the terminal against AI seats",
        description="Play a game in the terminal: the first --humans seats are yours (hot seat "
        "when more than one), the others are AI players. The board is printed at your first "
        "decision of each turn; in between, the phase when it changes and your own party, "
        "hand and missions when they change.",
        epilog="Commands at a decision:\n" + COMMANDS,
        formatter_class=argparse.RawDescriptionHelpFormatter,
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
    add_table_arguments(cmd, "the game")
    cmd.add_argument(
        "--script",
        metavar="FILE",
        default=None,
        help="type the lines of FILE first, each printed as if typed (# starts a comment), "
        "then read the terminal: with --seed it replays a session (docs/terminal-play.md)",
    )
    cmd.add_argument(
        "--autoplay",
        choices=list(LEVELS),
        default=None,
        metavar="LEVEL",
        help="when your input ends (after --script, or at once with no input), an AI of "
        "LEVEL types your choices, printed as if typed: a whole game from one command",
    )
    cmd.add_argument(
        "--lang",
        choices=list(LANGUAGES),
        default=SOURCE,
        help=f"the language of every line (default {SOURCE}): the catalogs the Discord bot "
        "speaks, cards in our translation marked 🌐",
    )
    cmd.set_defaults(func=_cmd_play)
