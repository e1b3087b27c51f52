"""Members' Discord locales in SimCord.

SimCord 3.2 sends every interaction with ``locale`` and ``guild_locale`` "en-US". Discord
sends the member's own client language and the server's preferred locale: :func:`with_locales`
makes SimCord do the same for the members it is given (others stay "en-US"); a server's
preferred locale is ``env.create_guild(..., preferred_locale=...)``'s."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest
import simcord
import simcord.interactions


def with_locales(mp: pytest.MonkeyPatch, locales: Mapping[int, str]) -> None:
    """Interactions of the user ids in ``locales`` carry that locale; every interaction in a
    server carries the server's preferred locale as ``guild_locale``."""
    original = simcord.interactions.base_payload

    def base_payload(backend: Any, **kw: Any) -> tuple[Any, dict[str, Any]]:
        record, payload = original(backend, **kw)
        payload["locale"] = locales.get(kw["user_id"], "en-US")
        if kw.get("guild_id") is not None:
            payload["guild_locale"] = backend.get_guild(kw["guild_id"]).preferred_locale
        return record, payload

    mp.setattr(simcord.interactions, "base_payload", base_payload)
