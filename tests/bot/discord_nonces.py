"""Discord's message nonces, modelled for SimCord (which ignores them): a test helper.

What Discord documents (Create Message, ``nonce`` and ``enforce_nonce``): "If
``enforce_nonce`` is true and a nonce is present, it will be checked for uniqueness in the
past few minutes. If another message was created by the same author with the same nonce,
that message will be returned and no new message will be created." discord.py sends
``enforce_nonce`` with every nonce (``Messageable.send(nonce=...)``).

:func:`honour_nonces` wraps SimCord's ``POST /channels/{channel_id}/messages`` route so that it
does the same: a send whose nonce this author used within :data:`WINDOW` seconds (of SimCord's
clock, the bot's ``discord.utils.utcnow()``) returns that message as it is now, unchanged, and
creates nothing. This is a model of Discord, not Discord: the real window is "a few minutes",
unspecified; here it is five.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import discord
from simcord.http import router
from simcord.http._helpers import message_response
from simcord.http.routes import messages

#: Seconds a nonce is remembered (Discord: "the past few minutes").
WINDOW = 300.0


@dataclass
class NonceLog:
    """What the model saw: every nonce it kept and the sends it answered with an old message."""

    #: (author, nonce) -> (channel, message, time).
    kept: dict[tuple[int, str], tuple[int, int, float]] = field(default_factory=dict)
    #: Sends answered with the message an earlier send with the same nonce created.
    deduplicated: int = 0


@contextlib.contextmanager
def honour_nonces() -> Iterator[NonceLog]:
    """Inside the block, SimCord's message creation honours ``enforce_nonce`` as Discord
    does (see the module's doc); the route is restored after."""
    table = router._ROUTES["POST"]
    at = next(i for i, (_t, handler) in enumerate(table) if handler is messages.send_message)
    template, original = table[at]
    seen = NonceLog()

    def send(ctx: router.RequestContext) -> Any:
        body = ctx.json if isinstance(ctx.json, dict) else {}
        nonce, enforce = body.get("nonce"), body.get("enforce_nonce")
        now = discord.utils.utcnow().timestamp()
        key = (ctx.backend.bot_user.id, str(nonce))
        if nonce is not None and enforce:
            found = seen.kept.get(key)
            if found is not None and now - found[2] <= WINDOW:
                channel_id, message_id, _at = found
                message = ctx.backend.messages.get(channel_id, {}).get(message_id)
                if message is not None:
                    seen.deduplicated += 1
                    return message_response(ctx, message)
        result = original(ctx)
        if nonce is not None and enforce:
            seen.kept[key] = (int(result["channel_id"]), int(result["id"]), now)
        return result

    table[at] = (template, send)
    try:
        yield seen
    finally:
        table[at] = (template, original)
