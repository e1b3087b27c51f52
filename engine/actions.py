"""Actions: what a player can do. Each has a JSON form (``{"type": "go", "arg": "arkhangel"}``)
and a short string form (``"go arkhangel"``, at most 80 characters) that the bot puts in
button ids. The whole vocabulary, with an example each, is in ``docs/actions.md``."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any, ClassVar, Literal, cast, get_args

from pydantic import ConfigDict, TypeAdapter, ValidationError

from engine.errors import IllegalAction, Refusal

ActionType = Literal[
    # start of the game (S3)
    "keep",
    "drop",
    # generic answers to a prompt
    "done",
    "pass",
    "pick",
    "yes",
    "no",
    # Reset phase (R2) and any phase's own cards and abilities (T4)
    "discard",
    "dismiss",
    "leave",
    "play",
    "ability",
    "reveal_final",
    "take",
    # Movement phase (M1, M5)
    "go",
    "explore_new",
    "rest",
    "remove",
    "block",
    # Interaction phase (I1, I2, X3)
    "attack",
    "offer",
    "give",
    "ask",
    "send",
    "withdraw",
    "accept",
    "decline",
    # Exploration phase (E1, E6, F)
    "explore",
    "skip",
    "reward",
    "mission",
    # Beyond Good and Evil, Twilight of the Gods (C7, E7)
    "hire_arcane",
    "fight",
    "flee",
    # taking one's last decision back (issue 25; never a prompt's choice)
    "undo",
]

#: Action types that take one argument (a card id, a player name, or a number).
TAKES_ARG: frozenset[str] = frozenset(
    {
        "keep",
        "drop",
        "pick",
        "discard",
        "dismiss",
        "leave",
        "play",
        "ability",
        "take",
        "go",
        "explore_new",
        "remove",
        "block",
        "attack",
        "offer",
        "give",
        "ask",
        "reward",
        "mission",
        "hire_arcane",
    }
)
#: Of those, the ones whose argument is optional ("explore_new" alone draws from the deck).
OPTIONAL_ARG: frozenset[str] = frozenset({"explore_new"})
#: Of those, the ones whose argument is always a card id (``ask`` may name ``hand``, ``pick``
#: an option, ``reward`` an index, ``attack`` and ``offer`` a seat).
CARD_ARG: frozenset[str] = TAKES_ARG - {"ask", "pick", "reward", "attack", "offer"}

MAX_STRING = 80


#: Every action type, for checking the string form.
ACTION_TYPES: frozenset[str] = frozenset(get_args(ActionType))


@dataclass(frozen=True, slots=True, kw_only=True)
class Action:
    """One action. ``arg`` is a card id, a player name or an index, by type.

    A plain record: building one checks nothing (the engine builds one per applied action from
    a choice it offered itself); :func:`parse_action` checks what comes from outside.
    """

    #: For :data:`_FROM_JSON`: a JSON form with any other key is refused.
    __pydantic_config__: ClassVar[ConfigDict] = ConfigDict(extra="forbid")

    type: ActionType
    arg: str | None = None

    def __str__(self) -> str:
        return self.type if self.arg is None else f"{self.type} {self.arg}"

    def to_json(self) -> dict[str, Any]:
        """The JSON form."""
        return {"type": self.type} if self.arg is None else {"type": self.type, "arg": self.arg}


#: Checks the JSON form of an action (pydantic, at the edge).
_FROM_JSON: TypeAdapter[Action] = TypeAdapter(Action)


@lru_cache(maxsize=4096)
def offered_action(choice: str) -> Action:
    """The action of a choice the engine itself offered, so well formed: no check. Cached,
    because the same few hundred choices come back all game long and actions are immutable."""
    head, _, arg = choice.partition(" ")
    return Action(type=cast(ActionType, head), arg=arg or None)


def parse_action(value: Action | str | dict[str, Any]) -> Action:
    """An action from its model, string form or JSON form; bad input raises IllegalAction."""
    if isinstance(value, Action):
        if value.type not in ACTION_TYPES:
            raise IllegalAction(
                Refusal.UNKNOWN_ACTION, f"unknown action {value.type!r}", action=value.type
            )
        action = value
    elif isinstance(value, str):
        if len(value) > MAX_STRING:
            raise _too_long()
        head, _, arg = value.strip().partition(" ")
        if head not in ACTION_TYPES:
            raise IllegalAction(Refusal.UNKNOWN_ACTION, f"unknown action {head!r}", action=head)
        action = Action(type=cast(ActionType, head), arg=arg.strip() or None)
    elif isinstance(value, dict):
        try:
            action = _FROM_JSON.validate_python(value)
        except ValidationError as exc:
            raise IllegalAction(
                Refusal.MALFORMED, f"malformed action: {exc.errors()[0]['msg']}", action=str(value)
            ) from None
    else:
        raise IllegalAction(
            Refusal.MALFORMED, "an action is a string or a JSON object", action=repr(value)
        )
    if action.type in TAKES_ARG and action.arg is None and action.type not in OPTIONAL_ARG:
        raise IllegalAction(
            Refusal.MALFORMED,
            f"'{action.type}' needs an argument",
            action=action.type,
            needs_argument=True,
        )
    if action.type not in TAKES_ARG and action.arg is not None:
        raise IllegalAction(
            Refusal.MALFORMED,
            f"'{action.type}' takes no argument",
            action=str(action),
            needs_argument=False,
        )
    if len(str(action)) > MAX_STRING:
        raise _too_long()
    return action


def _too_long() -> IllegalAction:
    return IllegalAction(
        Refusal.TOO_LONG, f"an action is at most {MAX_STRING} characters", limit=MAX_STRING
    )
