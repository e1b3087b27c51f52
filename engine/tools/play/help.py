"""The commands a player types at a decision, in the session's language, and the help that
lists them: ``help``, ``rules`` and what a typed word means (:func:`command_of`).

A command is typed by one of its words: the language's own (``terminal.command.<name>``, the
first the help shows) or the English ones, which every language accepts (a player who knows
them, a script written for the English transcript). A choice may also be typed by the start
of its label, in the session's language.
"""

from __future__ import annotations

from engine.tools.play.cards import legend
from engine.tools.play.speech import folded
from words import SOURCE, speaking
from words.plain import line

#: The commands, in the order the help lists them.
COMMAND_NAMES = ("board", "hand", "missions", "discards", "rules", "help", "quit")
#: Words every language accepts besides its own, not shown in the help.
HIDDEN = {"missions": ("m",), "discards": ("d",), "help": ("h", "?"), "quit": ("exit",)}
#: The help's first column (the longest words: "? NAME" and "b, board").
WIDTH = 11


def command_words(name: str) -> list[str]:
    """The words of command ``name`` in the session's language, as the help shows them."""
    return line(f"terminal.command.{name}").split()


def _accepted(name: str) -> set[str]:
    """Every word that types command ``name``: the language's, English's, the hidden ones."""
    with speaking(SOURCE):
        english = command_words(name)
    return {folded(w) for w in [*command_words(name), *english, *HIDDEN.get(name, ())]}


def command_of(typed: str) -> str | None:
    """The command a typed line is (one of :data:`COMMAND_NAMES`), or None."""
    word = folded(typed)
    return next((name for name in COMMAND_NAMES if word in _accepted(name)), None)


def card_command(typed: str) -> str | None:
    """The card's name a line asks for (``card NAME`` in the language or in English), or
    None when the line is not that command."""
    with speaking(SOURCE):
        english = line("terminal.command.card")
    for word in {line("terminal.command.card"), english}:
        if folded(typed) == folded(word) or folded(typed).startswith(folded(word) + " "):
            return typed.strip()[len(word) :]
    return None


def _row(words: str, what: str) -> str:
    return f"  {words:<{WIDTH}} {what}"


def commands_text() -> str:
    """The help: how to type a choice, then every command with what it does, and the marks
    beside a card's name."""
    rows = [
        line("terminal.help.intro"),
        _row("?N", line("terminal.help.choice")),
        _row(f"? {line('terminal.help.name')}", line("terminal.help.card")),
    ]
    rows += [
        _row(", ".join(command_words(name)), line(f"terminal.help.{name}"))
        for name in COMMAND_NAMES
    ]
    rows.append(legend())
    return "\n".join(rows)


def rules_text() -> str:
    """The game in brief, for ``rules`` (from the rules digest; the rule ids say where to
    read)."""
    return line("terminal.rules")


#: The help in English, for ``anima play --help`` (the operator's command line).
with speaking(SOURCE):
    COMMANDS = commands_text()
