"""The lobby's option codes (O1-O3 optional rules, V1-V4 edition options, and S5 in the
edition menu when Twilight of the Gods is combined with another set): one table, read one way
to show which codes a game's options switch on, and the other way to turn the host's selection
into options. Each code's name and description are the catalogs' (``option.<code>.name``
and ``.description``), said in the current language."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from engine import Options
from words import msg, say


@dataclass(frozen=True)
class OptionCode:
    """A lobby code and the :class:`~engine.options.Options` field (``option``) it sets."""

    code: str
    group: Literal["rules", "edition"]
    option: str
    #: The value the code sets when chosen, and the one it sets when unchosen.
    on: Any
    off: Any
    #: Values that count as "on" besides ``on`` (O1 is on with either Tree reading).
    also_on: frozenset[Any] = field(default_factory=frozenset)

    @property
    def name(self) -> str:
        """The option's short name (the lobby's menus and its embed)."""
        return say(msg(f"option.{self.code}.name"))

    @property
    def description(self) -> str:
        """What the option does, in a line (its menu option's description)."""
        return say(msg(f"option.{self.code}.description"))

    def is_on(self, options: Options) -> bool:
        value = getattr(options, self.option)
        return bool(value == self.on or value in self.also_on)

    def apply(self, options: dict[str, Any], chosen: bool) -> None:
        """Set ``options`` (a dict of Options fields) for this code chosen or not; a value
        that already counts as on (or off) is left alone."""
        on = self.is_on(Options.model_validate(options))
        if chosen and not on:
            options[self.option] = self.on
        elif not chosen and on:
            options[self.option] = self.off


#: Every lobby code, in the order of the lobby's menus.
OPTION_CODES: tuple[OptionCode, ...] = (
    OptionCode("O1", "rules", "tree_of_regions", "soo", "off", frozenset({"bge"})),
    OptionCode("O2", "rules", "both_missions", True, False),
    OptionCode("O3", "rules", "open_rolls", True, False),
    OptionCode("V1", "edition", "final_reveal", "immediate", "choose"),
    OptionCode("V2", "edition", "party_tie", "stands", "reroll"),
    OptionCode("V3", "edition", "crisis", False, True),
    # V4 is a reading of O1: choosing it switches the Tree of Regions on.
    OptionCode("V4", "edition", "tree_of_regions", "bge", "soo"),
    # S5 only counts (and is only offered) when Twilight of the Gods is combined with
    # another set; the lobby has no room for a fifth menu, so it joins the edition options.
    OptionCode("S5", "edition", "combined_missions", "older", "twilight"),
)

OPTIONAL_RULES = {c.code: c for c in OPTION_CODES if c.group == "rules"}
EDITION_OPTIONS = {c.code: c for c in OPTION_CODES if c.group == "edition"}

TWILIGHT_OF_THE_GODS = "twilight_of_the_gods"


def twilight_combined(options: Options) -> bool:
    """S5 applies: Twilight of the Gods is combined with another set (the engine's
    ``totg_combined``; the bot may not import the rules)."""
    return TWILIGHT_OF_THE_GODS in options.sets and len(options.sets) > 1


def offered_codes(options: Options, group: str) -> list[str]:
    """The codes of ``group`` the lobby offers with these options: S5 only when Twilight of
    the Gods is combined with another set (alone, or without it, S5 has no effect)."""
    return [
        c.code
        for c in OPTION_CODES
        if c.group == group and (c.code != "S5" or twilight_combined(options))
    ]


def selected_codes(options: Options) -> tuple[list[str], list[str]]:
    """The O and V (and, when offered, S5) codes ``options`` switch on."""
    return (
        [c for c in offered_codes(options, "rules") if OPTIONAL_RULES[c].is_on(options)],
        [c for c in offered_codes(options, "edition") if EDITION_OPTIONS[c].is_on(options)],
    )


def choose_codes(options: dict[str, Any], group: str, chosen: list[str]) -> dict[str, Any]:
    """``options`` with the codes of ``group`` the lobby offers set as the host chose them;
    a code not offered (S5 without Twilight combined) keeps its value."""
    out = dict(options)
    offered = offered_codes(Options.model_validate(options), group)
    for code in OPTION_CODES:
        if code.group == group and code.code in offered:
            code.apply(out, code.code in chosen)
    return out


__all__ = [
    "EDITION_OPTIONS",
    "OPTIONAL_RULES",
    "OPTION_CODES",
    "choose_codes",
    "offered_codes",
    "selected_codes",
    "twilight_combined",
]
