"""Actions: what a player can do. Each has a JSON form (``{"type": "go", "arg": "arkhangel"}``)
and a short string form (``"go arkhangel"``, at most 80 characters) that the bot puts in
button ids. The whole vocabulary, with an example each, is in ``docs/actions.md``."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, ValidationError

from engine.errors import IllegalAction

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
    }
)
#: Of those, the ones whose argument is optional ("explore_new" alone draws from the deck).
OPTIONAL_ARG: frozenset[str] = frozenset({"explore_new"})

MAX_STRING = 80


class Action(BaseModel):
    """One action. ``arg`` is a card id, a player name or an index, by type."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    type: ActionType
    arg: str | None = None

    def __str__(self) -> str:
        return self.type if self.arg is None else f"{self.type} {self.arg}"

    def to_json(self) -> dict[str, Any]:
        """The JSON form."""
        return self.model_dump(exclude_none=True)


def parse_action(value: Action | str | dict[str, Any]) -> Action:
    """An action from its model, string form or JSON form; bad input raises IllegalAction."""
    if isinstance(value, Action):
        action = value
    elif isinstance(value, str):
        if len(value) > MAX_STRING:
            raise IllegalAction(f"an action is at most {MAX_STRING} characters")
        head, _, arg = value.strip().partition(" ")
        try:
            action = Action(type=head, arg=arg.strip() or None)
        except ValidationError:
            raise IllegalAction(f"unknown action {head!r}") from None
    elif isinstance(value, dict):
        try:
            action = Action.model_validate(value)
        except ValidationError as exc:
            raise IllegalAction(f"malformed action: {exc.errors()[0]['msg']}") from None
    else:
        raise IllegalAction("an action is a string or a JSON object")
    if action.type in TAKES_ARG and action.arg is None and action.type not in OPTIONAL_ARG:
        raise IllegalAction(f"'{action.type}' needs an argument")
    if action.type not in TAKES_ARG and action.arg is not None:
        raise IllegalAction(f"'{action.type}' takes no argument")
    if len(str(action)) > MAX_STRING:
        raise IllegalAction(f"an action is at most {MAX_STRING} characters")
    return action
