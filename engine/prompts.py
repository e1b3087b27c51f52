"""Prompts: the decisions some player must take now, stored in the state (never a callback)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.plain import Plain


@dataclass(slots=True)  # not kw_only: Game.ask builds it positionally (see there)
class Prompt(Plain):
    """A decision some player must take now: the legal choices and the time-out default."""

    player: str
    kind: str
    text: str
    choices: list[str]
    default: str
    #: Several prompts may be open at once (start choices, reaction windows).
    window: bool = False
    #: What a front end needs to word the decision itself (``text`` is the engine's English,
    #: for logs and the terminal): seat ids, card ids, numbers, and ``variant`` when a kind
    #: asks in several ways (a window's moment, what a card's effect asks for).
    data: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class PromptKind:
    """What a kind of prompt asks: the digest rule behind it and a neutral description."""

    #: The rule cited when an action is refused (None: the card's own text is the rule).
    rule: str | None
    #: The decision in a few words, the same for every player, read after "waiting for
    #: Alice to ..." ("choose a leader"): what the table is told when the prompt's own text
    #: may not be shown.
    text: str
    #: Action types ruled by another rule than the kind's (an ``attack`` in the Interaction
    #: step is I2, a trade offer I1).
    actions: Mapping[str, str] = field(default_factory=dict)
    #: The prompt is private as a whole: its text and choices are never shown to the table
    #: (the start choices, a trade being built, a casualty or a delivery chosen in secret).
    private: bool = False
    #: A step of the player's own turn in which he may play cards of that phase (T4), so
    #: that a front end may offer "play a card" on every such decision, whatever he holds.
    plays: bool = False


#: Cards and abilities used in a player's own phase step are ruled by T4.
_PLAYS = {"play": "T4", "ability": "T4"}

#: Every kind of prompt the engine opens (docs/actions.md), with its rule and description.
PROMPT_KINDS: dict[str, PromptKind] = {
    "start_character": PromptKind("S3", "choose a leader", private=True),
    "start_advantage": PromptKind("S3", "choose the Advantage to give back", private=True),
    "reveal_final": PromptKind("V1", "reveal the Final mission, or pass"),
    "reset": PromptKind(
        "R2", "discard, dismiss, play Reset phase cards, or end the phase", plays=True
    ),
    "pickup": PromptKind("R5", "take a card another player let go, or pass"),
    "movement": PromptKind("M1", "move, explore a new Region, or rest", _PLAYS, plays=True),
    "remove_region": PromptKind("M5", "choose a Region to remove"),
    "block_removal": PromptKind("M5", "block the removal of a Region, or pass"),
    "window": PromptKind("T4", "respond: play an Interrupt or Battle card, or pass"),
    "interaction": PromptKind(
        "I1",
        "trade, attack, or end the phase",
        {"attack": "I2", "offer": "I1", **_PLAYS},
        plays=True,
    ),
    "trade_offer": PromptKind("X3", "prepare a trade offer", private=True),
    "trade_answer": PromptKind("X3", "answer a trade offer", private=True),
    "trade_pay": PromptKind("X3", "choose the Advantages to hand over", private=True),
    "exploration": PromptKind("E1", "explore, or skip", {"explore": "E2", **_PLAYS}, plays=True),
    "reward": PromptKind("E6", "choose a reward or a mission"),
    "remote_mission": PromptKind("E6", "choose a mission to attempt", private=True),
    "deliver": PromptKind("F1", "choose the Advantages to deliver", private=True),
    "casualty": PromptKind("B3", "choose the character who dies", private=True),
    "skill_choice": PromptKind("C4", "choose the character who turns"),
    "pick": PromptKind(None, "make a choice for a card"),
    "flee": PromptKind("E7", "fight the monster, or try to flee it"),
    "new_region": PromptKind("M10", "choose which new Region of the highest level to enter"),
    "trap_region": PromptKind("A5", "choose the Region where a Trap lies"),
    "spoils": PromptKind("I4", "take the loser's Artifact, or pass for a random Advantage"),
    "discredit": PromptKind("E6", "choose whom to discredit, and the Advantage to pay"),
}

#: The kinds whose text and choices never reach the table.
PRIVATE_KINDS = frozenset(kind for kind, entry in PROMPT_KINDS.items() if entry.private)
#: The player's own phase steps, in which he may play cards of that phase.
PLAY_KINDS = frozenset(kind for kind, entry in PROMPT_KINDS.items() if entry.plays)


def kind_text(kind: str) -> str:
    """What the table may read about a decision of ``kind`` (a neutral description)."""
    entry = PROMPT_KINDS.get(kind)
    return entry.text if entry is not None else "decide"


def prompt_rule(kind: str, action_type: str | None = None) -> str | None:
    """The digest rule of a decision of ``kind`` answered with ``action_type``."""
    entry = PROMPT_KINDS.get(kind)
    if entry is None:
        return None
    if action_type is not None and action_type in entry.actions:
        return entry.actions[action_type]
    return entry.rule
