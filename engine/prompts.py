"""Prompts: the decisions some player must take now, stored in the state (never a callback)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from engine.plain import Plain


@dataclass(slots=True, kw_only=True)
class Prompt(Plain):
    """A decision some player must take now: the legal choices and the time-out default."""

    player: str
    kind: str
    text: str
    choices: list[str]
    default: str
    #: Several prompts may be open at once (start choices, reaction windows).
    window: bool = False


@dataclass(frozen=True, slots=True)
class PromptKind:
    """What a kind of prompt asks: the digest rule behind it and a neutral description."""

    #: The rule cited when an action is refused (None: the card's own text is the rule).
    rule: str | None
    #: The decision in a few words, the same for every player ("choose your leader").
    text: str
    #: Action types ruled by another rule than the kind's (an ``attack`` in the Interaction
    #: step is I2, a trade offer I1).
    actions: Mapping[str, str] = field(default_factory=dict)


#: Cards and abilities used in a player's own phase step are ruled by T4.
_PLAYS = {"play": "T4", "ability": "T4"}

#: Every kind of prompt the engine opens (docs/actions.md), with its rule and description.
PROMPT_KINDS: dict[str, PromptKind] = {
    "start_character": PromptKind("S3", "choose your leader"),
    "start_advantage": PromptKind("S3", "choose the Advantage to give back"),
    "reveal_final": PromptKind("V1", "reveal the Final mission, or pass"),
    "reset": PromptKind("R2", "discard, dismiss, play Reset cards, or done"),
    "pickup": PromptKind("R5", "take a card another player let go, or pass"),
    "movement": PromptKind("M1", "move, explore a new Region, or rest", _PLAYS),
    "remove_region": PromptKind("M5", "choose a Region to remove"),
    "block_removal": PromptKind("M5", "block the removal of a Region, or pass"),
    "window": PromptKind("T4", "play an Interrupt or Battle card, or pass"),
    "interaction": PromptKind(
        "I1", "trade, attack, or done", {"attack": "I2", "offer": "I1", **_PLAYS}
    ),
    "trade_offer": PromptKind("X3", "build a trade offer"),
    "trade_answer": PromptKind("X3", "accept or decline a trade offer"),
    "trade_pay": PromptKind("X3", "choose an Advantage to hand over"),
    "exploration": PromptKind("E1", "explore, or skip", {"explore": "E2", **_PLAYS}),
    "reward": PromptKind("E6", "choose a reward or a mission"),
    "remote_mission": PromptKind("E6", "choose a mission to attempt"),
    "deliver": PromptKind("F1", "choose an Advantage to deliver"),
    "casualty": PromptKind("B3", "choose the character who dies"),
    "skill_choice": PromptKind("C4", "choose the character who turns"),
    "pick": PromptKind(None, "make a choice for a card"),
    "trap_region": PromptKind("A5", "choose the Region where a Trap lies"),
    "spoils": PromptKind("I4", "take the loser's Artifact, or pass for a random Advantage"),
    "discredit": PromptKind("E6", "choose whom to discredit, and the Advantage to pay"),
}


def prompt_rule(kind: str, action_type: str | None = None) -> str | None:
    """The digest rule of a decision of ``kind`` answered with ``action_type``."""
    entry = PROMPT_KINDS.get(kind)
    if entry is None:
        return None
    if action_type is not None and action_type in entry.actions:
        return entry.actions[action_type]
    return entry.rule
