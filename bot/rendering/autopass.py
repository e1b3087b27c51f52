"""The auto-pass kinds (:data:`bot.autopass.AUTO_KINDS`) in words: the private panel's menu
and its reminder, in the current language (``hand.autopass.kind.<code>`` and its
``.description`` in the catalog)."""

from __future__ import annotations

from collections.abc import Iterable

from bot.autopass import AUTO_KINDS
from bot.rendering.messages import ENGLISH, listing, msg, say


def autopass_label(code: str) -> str:
    """A kind's short name on the panel's menu ("Moves")."""
    id = f"hand.autopass.kind.{code}"
    return say(msg(id)) if id in ENGLISH else AUTO_KINDS[code].label


def autopass_description(code: str) -> str:
    """What a kind's auto-pass does (the menu option's description)."""
    id = f"hand.autopass.kind.{code}.description"
    return say(msg(id)) if id in ENGLISH else AUTO_KINDS[code].description


def autopass_kinds(kinds: Iterable[str]) -> str:
    """The kinds as a short list for the member himself ("off" when none), in the menu's
    order."""
    chosen = set(kinds)
    names = [autopass_label(code) for code in AUTO_KINDS if code in chosen]
    said = listing(names) if names else msg("hand.autopass.off")
    return said if isinstance(said, str) else say(said)
