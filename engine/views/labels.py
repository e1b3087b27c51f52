"""Neutral labels of the choices of a decision, and which of them the table may see."""

from __future__ import annotations

from collections.abc import Container
from typing import TYPE_CHECKING, Any

from engine.actions import Action, offered_action
from engine.cards import CardDB, RegionCard
from engine.cards import effects as fx
from engine.prompts import PRIVATE_KINDS, Prompt, kind_text
from engine.rules.ops_flow import IDLE
from engine.state import Frame
from engine.views.models import ChoiceView, PromptData, PromptView, typed
from engine.visibility import seen_by_all

if TYPE_CHECKING:
    from engine.game import Game


def public_cards(g: Game) -> frozenset[str]:
    """Every card the table sees face up now (the zones everybody may see)."""
    return frozenset(seen_by_all(g.s))


class TableCards(Container[str]):
    """:func:`public_cards` of a game, found on the first question.

    Finding them walks the zones map, the largest part of a prompt's view; many decisions
    never ask (a reaction window shows only "pass", a private choice nothing, most choices
    name no card), and a view build shares one among its parts."""

    __slots__ = ("_cards", "_g")

    def __init__(self, g: Game) -> None:
        self._g = g
        self._cards: frozenset[str] | None = None

    def __contains__(self, card: object) -> bool:
        if self._cards is None:
            self._cards = public_cards(self._g)
        return card in self._cards


#: The neutral label of each action type; ``{card}`` is the card's name, ``{seat}`` the
#: seat id, ``{region}`` a Region's name, ``{reward}``/``{option}`` the engine's text.
ACTION_LABELS: dict[str, str] = {
    "go": "Go to {card}",
    "explore_new": "Explore a new Region",
    "rest": "Rest (+2/+2 next turn)",
    "play": "Play {card}",
    "ability": "Use {card}'s ability",
    "discard": "Discard {card}",
    "dismiss": "Dismiss {card}",
    "leave": "Leave {card}",
    "keep": "Lead with {card}",
    "drop": "Give back {card}",
    "take": "Take {card}",
    "remove": "Remove {card}",
    "block": "Discard {card} to block",
    "attack": "Attack {seat}",
    "offer": "Offer a trade to {seat}",
    "give": "Offer {card}",
    "ask": "Ask for {card}",
    "reward": "Reward: {reward}",
    "mission": "Attempt {card}",
    "pick": "{option}",
    "reveal_final": "Reveal the Final mission",
    "pass": "Pass",
    "done": "Done",
    "explore": "Explore",
    "skip": "Skip",
    "send": "Send the offer",
    "withdraw": "Withdraw",
    "accept": "Accept",
    "decline": "Decline",
    "hire_arcane": "Hire an Arcane character, discarding {card}",
    "fight": "Fight",
    "flee": "Flee (Speed check)",
    "yes": "Yes",
    "no": "No",
    "undo": "Undo",
}

#: Labels for an argument that is not a card.
_SPECIAL_LABELS: dict[tuple[str, str], str] = {
    ("ask", "hand"): "Ask for an Advantage",
}


def reward_label(region: RegionCard, index: int) -> str:
    """The label of a Region's ``index``-th reward (E6)."""
    reward = region.rewards[index]
    if reward.kind == "advantage":
        return f"Draw {region.level} Advantage" + ("s" if region.level != 1 else "")
    if reward.kind == "hire":
        return "Hire a character"
    if reward.kind == "remote_mission":
        return reward.name or "Attempt a mission from afar"
    if reward.kind == "discredit":
        return reward.name or "Discredit"
    return reward.name or reward.text or "Special reward"


def choose_options(g: Game) -> list[str] | None:
    """The option labels of the ``choose`` effect being resolved, from the card's data."""
    printed = choose_printed(g)
    if printed is None:
        return None
    return [label + (IDLE if idle else "") for label, idle in printed]


def choose_printed(g: Game) -> list[tuple[str, bool]] | None:
    """The options of the ``choose`` effect being resolved as printed on the card, each with
    whether it would change nothing now."""
    frame = g.s.stack[-1] if g.s.stack else None
    if frame is None or frame.kind != "effects" or frame.card is None:
        return None
    obj: Any = g.db[frame.card]
    for key in frame.data.get("path", []):
        obj = obj[key] if isinstance(key, int) else getattr(obj, key)
    i = frame.data.get("i", 0)
    if not isinstance(obj, list) or i >= len(obj) or not isinstance(obj[i], fx.Choose):
        return None
    # The interpreter's labels, once it asked: an option of a forced choice that would change
    # nothing says so (engine.rules.ops_flow.op_choose).
    asked: dict[str, str] = frame.data.get("op", {}).get("labels", {})
    return [
        (o.label, asked.get(str(k), o.label).endswith(IDLE)) for k, o in enumerate(obj[i].options)
    ]


def _data(
    db: CardDB, action: Action, region: str | None, printed: list[tuple[str, bool]] | None
) -> dict[str, Any]:
    """The :class:`ChoiceData` of ``action``: what a front end needs to word it (every field,
    as :func:`typed` wants)."""
    data: dict[str, Any] = {"option": None, "idle": False, "reward": None, "level": None}
    arg = action.arg or ""
    if action.type == "pick" and arg.isdigit() and printed is not None and int(arg) < len(printed):
        option, idle = printed[int(arg)]
        return {**data, "option": option, "idle": idle}
    if action.type == "reward" and region is not None and arg.isdigit():
        card = db.region(region)
        if int(arg) < len(card.rewards):
            reward = card.rewards[int(arg)]
            return {
                **data,
                "reward": reward.kind,
                "level": card.level,
                # A kind the front end words itself is printed by name only.
                "option": (
                    reward.name or None
                    if reward.kind in ("remote_mission", "discredit")
                    else reward.name or reward.text or None
                ),
            }
    return data


def _label(
    db: CardDB,
    action: Action,
    region: str | None,
    options: list[str] | None,
) -> str:
    arg = action.arg or ""
    special = _SPECIAL_LABELS.get((action.type, arg))
    if special is not None:
        return special
    if action.type == "explore_new" and arg:
        return f"Explore {db[arg].name} (discard pile)"
    card = db.by_id.get(arg)
    reward = f"reward {arg}"
    if action.type == "reward" and region is not None and arg.isdigit():
        rewards = db.region(region).rewards
        if int(arg) < len(rewards):
            reward = reward_label(db.region(region), int(arg))
    option = card.name if card is not None else arg
    if action.type == "pick" and arg.isdigit() and options is not None and int(arg) < len(options):
        option = options[int(arg)]
    template = ACTION_LABELS.get(action.type, str(action))
    return template.format(
        card=card.name if card is not None else arg, seat=arg, reward=reward, option=option
    )


def choice_views(g: Game, prompt: Prompt, public: Container[str]) -> tuple[ChoiceView, ...]:
    """The choices of ``prompt``, labelled, with their publicity (``public``: the cards the
    table sees, :func:`public_cards`)."""
    region = g.s.players[prompt.player].region if prompt.player in g.s.players else None
    printed = choose_printed(g) if prompt.kind == "pick" else None
    options = None if printed is None else [o + (IDLE if idle else "") for o, idle in printed]
    private = prompt.kind in PRIVATE_KINDS
    out = []
    for i, choice in enumerate(prompt.choices):
        # The engine offered the choice, so it is well formed: the cached parse, unchecked.
        action = offered_action(choice)
        arg = action.arg
        shown = not private and (
            # A window's plays come from the hand: only "pass" is for the board.
            not arg if prompt.window else (arg not in g.db.by_id or arg in public)
        )
        if shown and action.type == "reward" and region is not None and arg:
            # A mission from afar is offered only to a party with a mission it can attempt:
            # showing the choice would tell the table about its secret missions.
            rewards = g.db.region(region).rewards
            shown = not (int(arg) < len(rewards) and rewards[int(arg)].kind == "remote_mission")
        out.append(
            typed(
                ChoiceView,
                # ChoiceData's fields first: the order of a validated view's fields.
                **_data(g.db, action, region, printed),
                index=i,
                action=choice,
                label=_label(g.db, action, region, options),
                public=shown,
            )
        )
    return tuple(out)


def text_withheld(g: Game, prompt: Prompt, public: Container[str]) -> bool:
    """Whether the table may not read ``prompt``'s text: the kind is private or the card
    whose effect asks (the top frame's) is hidden from the table."""
    if prompt.kind in PRIVATE_KINDS:
        return True
    frame = g.s.stack[-1] if g.s.stack else None
    return frame is not None and frame.card is not None and frame.card not in public


def public_prompt_text(g: Game, prompt: Prompt, public: Container[str]) -> str:
    """What the table may read about ``prompt``: its text, unless it is withheld
    (:func:`text_withheld`), then the kind's neutral description."""
    return kind_text(prompt.kind) if text_withheld(g, prompt, public) else prompt.text


def _window_frame(g: Game, prompt: Prompt) -> Frame | None:
    """The reaction window ``prompt`` answers: a ``window`` prompt is always asked by the
    window frame on top of the stack."""
    if prompt.kind != "window" or not g.s.stack or g.s.stack[-1].kind != "window":
        return None
    return g.s.stack[-1]


def window_kind(g: Game, prompt: Prompt) -> str | None:
    """The moment of the reaction window ``prompt`` answers (T4), or None."""
    frame = _window_frame(g, prompt)
    return str(frame.data["when"]) if frame is not None else None


def window_about(g: Game, prompt: Prompt) -> tuple[str, ...]:
    """The seats whose action opened the window ``prompt`` answers (public)."""
    frame = _window_frame(g, prompt)
    if frame is None:
        return ()
    return tuple(n for n in (frame.player, frame.other) if n)


#: Every field of :class:`PromptData`, empty (``typed`` wants them all, in order).
_NO_DATA: dict[str, Any] = {
    name: field.get_default() for name, field in PromptData.model_fields.items()
}


def prompt_data(data: dict[str, Any]) -> PromptData:
    """A prompt's data (:attr:`Prompt.data`) as its view: lists as tuples."""
    if not data:
        return EMPTY_DATA
    fields = dict(_NO_DATA)
    for key, value in data.items():
        fields[key] = (
            tuple(tuple(v) if isinstance(v, list) else v for v in value)
            if isinstance(value, list)
            else value
        )
    return typed(PromptData, **fields)


#: A prompt without data.
EMPTY_DATA = PromptData()


def prompt_view(g: Game, prompt: Prompt, public: Container[str] | None = None) -> PromptView:
    """``prompt`` as its player sees it (``public``: the cards the table sees, when the caller
    has them)."""
    public = public if public is not None else TableCards(g)
    return typed(
        PromptView,
        player=prompt.player,
        kind=prompt.kind,
        text=prompt.text,
        public_text=public_prompt_text(g, prompt, public),
        window=prompt.window,
        window_kind=window_kind(g, prompt),
        window_about=window_about(g, prompt),
        default=prompt.default,
        choices=choice_views(g, prompt, public),
        withheld=text_withheld(g, prompt, public),
        data=prompt_data(prompt.data),
    )
