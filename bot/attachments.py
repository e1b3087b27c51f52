"""Pictures as Discord attachments (issue 23): a :class:`~bot.pictures.Picture` becomes a
``discord.File`` whose description is the picture's alt text, so that a screen reader (and
the no-leak scan) reads the picture in words.

The pictures themselves know nothing of Discord (an import-linter contract): this module is
the one place that wraps their bytes for sending.
"""

from __future__ import annotations

import io

import discord

from bot.pictures import ALT_LIMIT, Picture


def picture_file(picture: Picture, filename: str) -> discord.File:
    """``picture`` as an attachment called ``filename`` (``board.png``: referred to as
    ``attachment://board.png`` by an embed's image or a media gallery), its alt text as the
    attachment's description (Discord keeps at most :data:`ALT_LIMIT` characters)."""
    return discord.File(
        io.BytesIO(picture.png), filename=filename, description=picture.alt[:ALT_LIMIT]
    )


def attachment_url(filename: str) -> str:
    """How an embed or a media gallery refers to the attachment ``filename`` of its message."""
    return f"attachment://{filename}"
