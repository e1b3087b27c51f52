"""Who reads which language (issue 22).

- A game's public messages (the board, the turn's batch of events, notices in its channel)
  are in the game's language: a lobby option, whose default is the server's (``/anima
  settings``), itself by default the server's preferred locale.
- A private message (an ephemeral panel, a DM, autocomplete) is in its reader's language: the
  one he chose with ``/anima settings language``, else his Discord locale (the interaction's,
  or for a DM the last one an interaction of his carried), else English.

Rendering happens inside :func:`words.speaking`; these functions say which language.
"""

from __future__ import annotations

from bot.storage import GameRow, Storage
from words import LANGUAGES, SOURCE, language_of


def public_language(row: GameRow) -> str:
    """The language of a game's public messages."""
    return row.language if row.language in LANGUAGES else SOURCE


def server_language(chosen: str | None, preferred_locale: object) -> str:
    """A server's default for new lobbies: its managers' choice, else its preferred locale."""
    return chosen if chosen in LANGUAGES else language_of(preferred_locale)


async def reader_language(storage: Storage, user_id: int, locale: object = None) -> str:
    """The language of a member's private messages; ``locale`` is his interaction's (it is
    remembered, so that a later DM, which carries none, is said in it too)."""
    if locale:
        await storage.saw_locale(user_id, str(getattr(locale, "value", locale)))
    chosen, seen = await storage.member_languages(user_id)
    if chosen in LANGUAGES:
        return str(chosen)
    return language_of(locale or seen)
