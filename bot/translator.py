"""The slash commands in every language: their names, descriptions, options and choices, as
Discord shows them in each member's client; and the language their answers speak.

A command's words are :class:`~discord.app_commands.locale_str` whose ``id`` extra is their
message id in the catalogs (``command.start.name``, ``command.start.turns.description``):
:func:`name` and :func:`text` make them, :func:`options` gives a command's options theirs.
English is the default Discord shows every locale; when the commands are synced, discord.py
asks :class:`CatalogTranslator` for each string in each locale, and it answers from the
language's catalog (Red-DiscordBot's cogs translate their commands the same way).

Discord refuses the whole sync for one bad name (not lower case, a space, over 32
characters) or an over-long description, so a translation that breaks its limits is not
given: Discord shows the English one instead (:func:`fits`; a test checks every
translation of every language).

A command's answers are private (ephemeral), so each command runs in its reader's language
(:func:`reading`: :func:`words.speaking` around the callback); what it posts in public (the
lobby) says itself in the game's.
"""

from __future__ import annotations

import functools
import inspect
import unicodedata
from collections.abc import Callable, Coroutine
from typing import TYPE_CHECKING, Any, Concatenate, ParamSpec, TypeVar

import discord
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Where
from discord.app_commands import locale_str

from bot.languages import reader_language
from bot.storage import StorageUnavailable
from words import SOURCE, catalog, language_of, msg, say, speaking

if TYPE_CHECKING:
    from bot.app import AnimaBot

T = TypeVar("T")
P = ParamSpec("P")

#: Discord's limits: a name's characters, a description's or a choice's name.
NAME_LIMIT = 32
DESCRIPTION_LIMIT = 100
#: The strings Discord takes as names (the others are descriptions and choices' names).
NAMES = frozenset({Where.command_name, Where.group_name, Where.parameter_name})


def name(english: str, id: str) -> locale_str:
    """A command's, group's or option's name: ``english`` is the one the bot routes by (it
    never changes; the English catalog holds it for translators), ``id`` its message."""
    return locale_str(english, id=id)


def text(id: str) -> locale_str:
    """A description or a choice's name: its English from the catalog, the others given by
    :class:`CatalogTranslator`."""
    return locale_str(say(msg(id), SOURCE), id=id)


def command(english: str) -> dict[str, Any]:
    """The ``name`` and ``description`` of the subcommand ``english`` of ``/anima``."""
    return {
        "name": name(english, f"command.{english}.name"),
        "description": text(f"command.{english}.description"),
    }


def options(command: str, *names: str) -> Callable[[T], T]:
    """A decorator that gives the options ``names`` of ``command`` their translatable names
    and descriptions (``command.<command>.<option>.name`` and ``.description``)."""
    renames = {o: name(o, f"command.{command}.{o}.name") for o in names}
    descriptions = {o: text(f"command.{command}.{o}.description") for o in names}

    def decorate(callback: T) -> T:
        described = app_commands.describe(**descriptions)(callback)
        return app_commands.rename(**renames)(described)

    return decorate


def fits(translation: str, where: Where) -> bool:
    """Whether Discord takes ``translation`` at ``where``: a name is 1-32 lower-case letters,
    digits, ``-`` or ``_`` (Discord's ``^[-_\\p{L}\\p{N}]{1,32}$``); a description or a
    choice's name 1-100 characters."""
    if where in NAMES:
        return (
            1 <= len(translation) <= NAME_LIMIT
            and translation == translation.lower()
            and all(c in "-_" or unicodedata.category(c)[0] in "LN" for c in translation)
        )
    return 1 <= len(translation) <= DESCRIPTION_LIMIT


class CatalogTranslator(app_commands.Translator):
    """The commands' words in each Discord locale, from the catalogs (installed by
    ``AnimaBot.setup_hook`` with ``tree.set_translator``)."""

    async def translate(
        self,
        string: locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        """The translation of ``string`` in ``locale``'s language; None (Discord shows the
        English) for English, a locale the bot does not speak, a string with no message id
        or no translation yet, or a translation beyond Discord's limits."""
        id = string.extras.get("id")
        language = language_of(locale)
        if not isinstance(id, str) or language == SOURCE or id not in catalog(language):
            return None
        translation = say(msg(id), language)
        return translation if fits(translation, context.location) else None


async def reader(interaction: discord.Interaction) -> str:
    """The language of the answers to ``interaction``: its member's
    (:func:`bot.languages.reader_language`, which remembers his Discord locale)."""
    bot: AnimaBot = interaction.client  # type: ignore[assignment]
    try:
        return await reader_language(bot.storage, interaction.user.id, interaction.locale)
    except StorageUnavailable:  # remembering the locale failed: the answer says why
        return language_of(interaction.locale)


def reading(
    callback: Callable[Concatenate[discord.Interaction, P], Coroutine[Any, Any, T]],
) -> Callable[Concatenate[discord.Interaction, P], Coroutine[Any, Any, T]]:
    """A command's (or an autocomplete's) callback, run in its reader's language."""

    @functools.wraps(callback)
    async def run(interaction: discord.Interaction, /, *args: P.args, **kwargs: P.kwargs) -> T:
        with speaking(await reader(interaction)):
            return await callback(interaction, *args, **kwargs)

    # discord.py reads the options from the callback's signature and resolves its
    # annotations in the module of the function it is given, this one: hand it the
    # signature evaluated in the callback's own module.
    run.__signature__ = inspect.signature(callback, eval_str=True)  # type: ignore[attr-defined]
    return run
