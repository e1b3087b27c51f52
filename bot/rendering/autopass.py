"""The auto-pass kinds (:data:`bot.autopass.AUTO_KINDS`) in words: the private panel's menu,
its reminder and the first turn's tip about reaction windows, in the current language (each
kind says its own ``autopass.<code>.label`` and ``.description``)."""

from __future__ import annotations

from collections.abc import Iterable

from bot.autopass import AUTO_KINDS
from bot.rendering.messages import listing, msg, say


def autopass_label(code: str) -> str:
    """A kind's short name on the panel's menu ("Moves")."""
    return AUTO_KINDS[code].label


def autopass_description(code: str) -> str:
    """What a kind's auto-pass does (the menu option's description)."""
    return AUTO_KINDS[code].description


def autopass_kinds(kinds: Iterable[str]) -> str:
    """The kinds as a short list for the member himself ("off" when none), in the menu's
    order."""
    chosen = set(kinds)
    names = [autopass_label(code) for code in AUTO_KINDS if code in chosen]
    said = listing(names) if names else msg("autopass.off")
    return said if isinstance(said, str) else say(said)


def window_tip(timed: bool) -> str:
    """The tip a member reads privately in his first reaction windows
    (:func:`bot.autopass.window_tip`): that nobody has to pass (when the game's windows close
    by themselves: ``timed``) and what the button beside it does."""
    id = "hand.window_tip" if timed else "hand.window_tip.no_timer"
    return say(msg(id, button=say(msg("button.autopass_windows")), hand=say(msg("button.hand"))))
