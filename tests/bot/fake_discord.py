"""A Discord client, channels and storage that keep what the publisher sends, for tests of
:class:`bot.publishing.Publisher` without SimCord (``test_bot_languages_render``)."""

from __future__ import annotations

from typing import Any

import discord

from bot.panels import Panels
from bot.publishing import Publisher
from bot.storage import EventRow
from bot.table import Table


class _Refused:
    """Discord's answer to a request the bot may not make."""

    status = 403
    reason = "Forbidden"


class FakeMessage:
    def __init__(self, sent: list[dict[str, Any]], id: int) -> None:
        self.id, self.sent = id, sent
        #: A sent message's files (none here: the publisher keeps its battle pictures).
        self.attachments: list[Any] = []
        # What Discord gives back of a sent message (the publisher reads the board's lines
        # from it): none here.
        self.flags = discord.MessageFlags()
        self.components: list[Any] = []

    async def edit(self, **fields: Any) -> None:
        self.sent.append(fields)


class FakeChannel:
    """A channel (or a DM) that keeps what it is sent."""

    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []

    async def send(self, content: str | None = None, **fields: Any) -> FakeMessage:
        self.sent.append({"content": content, **fields})
        return FakeMessage(self.sent, 1000 + len(self.sent))

    def get_partial_message(self, id: int) -> FakeMessage:
        return FakeMessage(self.sent, id)

    async def fetch_message(self, id: int) -> Any:
        """The channel's messages cannot be read back (as without Read Message History)."""
        raise discord.Forbidden(_Refused(), "missing access")

    async def history(self, **_: Any) -> Any:  # pragma: no cover - nothing posted before
        return
        yield


class FakeStorage:
    """What the publisher and the panels read: nobody refused DMs, ``languages`` by member."""

    #: One process writes the database (no shard clusters): posts are not leased.
    shared = False

    def __init__(self, languages: dict[int, str] | None = None) -> None:
        self.languages = languages or {}

    async def member_languages(self, user_id: int) -> tuple[str | None, str | None]:
        return self.languages.get(user_id), None

    async def saw_locale(self, user_id: int, locale: str) -> None:
        return None

    async def dm_refused(self, user_id: int) -> bool:
        return False

    async def set_dm_refused(self, *_: Any) -> None:
        return None

    async def private_events(self, *_: Any) -> list[EventRow]:
        return []

    async def autopass(self, *_: Any) -> dict[int, frozenset[str]]:
        return {}

    async def actions(self, *_: Any) -> list[Any]:
        return []

    async def last_events(self, *_: Any) -> list[EventRow]:
        return []

    async def set_start_delivered(self, *_: Any) -> None:
        return None


class FakeClient:
    def __init__(self) -> None:
        self.channel = FakeChannel()
        self.dms: dict[int, FakeChannel] = {}
        self.user = None

    def get_partial_messageable(self, *_: Any, **__: Any) -> FakeChannel:
        return self.channel

    async def create_dm(self, user: Any) -> FakeChannel:
        return self.dms.setdefault(user.id, FakeChannel())


def publisher(languages: dict[int, str] | None = None) -> tuple[Publisher, FakeClient]:
    client = FakeClient()
    storage = FakeStorage(languages)
    p = Publisher(client, storage, Panels(storage))  # type: ignore[arg-type]

    async def saved(_: Table) -> None:
        return None

    p.save_pointer = saved
    return p, client
