"""A player's auto-pass: the decisions the bot answers for him at once, by kind.

Every reaction window (T4) opens for every player whatever he holds, so that whether a window
opens never tells the table anything about a hand. Nobody has to answer one: a window closes
by itself when its time runs out (issue 23: the default window time is short, and the
time-out passes). Each member may also put any kind of window (and two steps of his own turn
that most players end at once) on auto-pass, so that no window ever waits for him; the first
turn's windows tell him so (:func:`window_tip`).

The one rule that keeps this safe: **an auto-pass never looks at the hand.** A member on
auto-pass for a kind passes every window of that kind at once, even when he holds a card he
could play (he gives up the chance to answer it, and his panel says how to switch it off); a
member not on auto-pass is always asked, even with nothing playable. An auto-pass that fired
only for an empty hand would tell the table, through its timing, that the hand is empty.
:func:`auto_action` reads only what the table could read too: the kind of the decision, the
window's moment and the *public* choices.

The setting belongs to a member on a server (``storage.autopass``): it is remembered across
games there, and it is never shown to anybody else (not on the board, not in a line of the
log). The bot applies the auto-passes of every seat in the same step as the window opens,
before anything is posted (``Games.run_ai``), so the table sees only who it still waits for.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from engine import PromptView
from words import Message, listing, msg, say


@dataclass(frozen=True)
class AutoKind:
    """One kind of decision a member may put on auto-pass; its words are the catalogs'
    (``autopass.<code>.label`` and ``.description``), said in the current language."""

    code: str

    @property
    def label(self) -> str:
        """The short name on the panel's menu."""
        return say(msg(f"autopass.{self.code}.label"))

    @property
    def description(self) -> str:
        """What the auto-pass does (the menu option's description)."""
        return say(msg(f"autopass.{self.code}.description"))


#: Every auto-pass kind, by code. The four windows are the engine's moments (``window_kind``);
#: ``reset`` and ``interaction`` are the member's own steps.
AUTO_KINDS: dict[str, AutoKind] = {
    code: AutoKind(code)
    for code in (
        "move_declared",
        "encounter_revealed",
        "exploration_roll",
        "battle_start",
        "reset",
        "interaction",
    )
}

#: The kinds that are reaction windows.
WINDOW_KINDS = ("move_declared", "encounter_revealed", "exploration_roll", "battle_start")

#: Action types in the Interaction step that depend only on public facts (who stands where,
#: party sizes, trade icons): the auto-pass of ``interaction`` waits when one is offered.
_PUBLIC_INTERACTIONS = ("attack", "offer")


def parse_kinds(codes: Iterable[str]) -> frozenset[str]:
    """Known auto-pass codes among ``codes`` (unknown ones are dropped)."""
    return frozenset(c for c in codes if c in AUTO_KINDS)


def describe(kinds: Iterable[str]) -> str:
    """The kinds as a short list for the member himself ("off" when none), in the current
    language."""
    chosen = set(kinds)
    names = [k.label for code, k in AUTO_KINDS.items() if code in chosen]
    if not names:
        return say(msg("autopass.off"))
    joined = listing(names)
    return say(joined) if isinstance(joined, Message) else joined


def window_tip(prompt: PromptView | None, kinds: frozenset[str], turn: int) -> bool:
    """Whether a member is told, privately, how reaction windows close and offered the
    button that puts them all on auto-pass (issue 23: auto-pass is found without reading the
    README): in a reaction window of the game's first turn, while none of the windows is on
    his auto-pass. The first turn, so that a member who keeps windows off auto-pass on
    purpose reads it a few times a game, not at every window. Like :func:`auto_action`, it
    never reads the hand (and only he sees it)."""
    return (
        prompt is not None and prompt.window and turn <= 1 and not kinds.intersection(WINDOW_KINDS)
    )


def auto_action(prompt: PromptView, kinds: frozenset[str]) -> str | None:
    """The action the bot takes at once for a member on auto-pass for ``kinds``, or None
    when he must be asked. Never reads the hand: only the decision's kind, the window's
    moment and the public choices (see the module's docstring)."""
    if prompt.window_kind is not None:
        return "pass" if prompt.window_kind in kinds else None
    if prompt.kind == "reset" and "reset" in kinds:
        return "done"
    if prompt.kind == "interaction" and "interaction" in kinds:
        public = {c.action.split(" ", 1)[0] for c in prompt.choices if c.public}
        if not public.intersection(_PUBLIC_INTERACTIONS):
            return "done"
    return None
