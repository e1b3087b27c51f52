"""Checks of what a reader gets, in his language (issue 22): no English left in another
language's message (:mod:`english_left`, shared with the terminal's tests), and Discord's
limits on every part of a message."""

from __future__ import annotations

import discord
from english_left import foreign_fragments as foreign_fragments
from english_left import untranslated as untranslated


def limits(m: discord.Message) -> list[str]:
    """Every part of ``m`` over one of Discord's limits."""
    over = []
    if len(m.content or "") > 2000:
        over.append(f"content {len(m.content)}")
    total = 0
    for e in m.embeds:
        parts = {
            "title": (e.title or "", 256),
            "description": (e.description or "", 4096),
            "footer": (e.footer.text or "", 2048),
            "author": (e.author.name or "", 256),
        }
        if len(e.fields) > 25:
            over.append(f"{len(e.fields)} fields")
        for i, f in enumerate(e.fields):
            parts[f"field {i} name"] = (f.name or "", 256)
            parts[f"field {i} value"] = (f.value or "", 1024)
        for what, (text, limit) in parts.items():
            total += len(text)
            if len(text) > limit:
                over.append(f"embed {what} {len(text)} > {limit}")
    if total > 6000:
        over.append(f"embeds {total} > 6000")
    for row in m.components:
        for child in getattr(row, "children", []):
            label = getattr(child, "label", None) or ""
            if len(label) > 80:
                over.append(f"label {label!r}")
            placeholder = getattr(child, "placeholder", None) or ""
            if len(placeholder) > 150:
                over.append(f"placeholder {placeholder!r}")
            for option in getattr(child, "options", []):
                if len(option.label) > 100 or len(option.description or "") > 100:
                    over.append(f"option {option.label!r}")
    return over
