"""What ``/anima start`` asks of a channel: every permission the bot uses there, named."""

from __future__ import annotations

import discord

from bot.commands import missing_permissions, missing_text
from words import say, speaking


def test_the_pictures_and_the_restart_need_attach_files_and_read_message_history() -> None:
    """The board's and the battles' pictures are files in the channel, and after a restart
    the bot reads the channel to take the buttons off an older board: without those two
    permissions ``/anima start`` names them."""
    granted = discord.Permissions(view_channel=True, embed_links=True, send_messages=True)
    assert missing_permissions(granted) == ["attach_files", "read_message_history"]
    with speaking("en"):
        text = say(missing_text(missing_permissions(granted)))
    assert "**Attach Files**" in text and "**Read Message History**" in text
    granted.update(attach_files=True, read_message_history=True)
    assert missing_permissions(granted) == []
