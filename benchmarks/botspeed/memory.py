"""What the bot's side holds in memory once every game is live (``bot_speed --memory``): the
live allocations traced, split between the bot's side and SimCord's."""

from __future__ import annotations

import tracemalloc
from dataclasses import dataclass, field
from pathlib import Path

ROOT = str(Path(__file__).resolve().parents[2])

#: Frames kept per allocation: enough to find whose code asked for it.
MEMORY_FRAMES = 12
#: Whose code an allocation is for: the innermost frame in one of these decides.
BOT_SIDE = ("/bot/", "/engine/", "/discord/")
SIMCORD_SIDE = ("/simcord/", "/benchmarks/")


@dataclass
class BotMemory:
    """The memory the bot's side holds for the games traced (``games``: how many), once
    every game is live."""

    measured: bool = False
    games: int = 0
    bot_bytes: int = 0
    simcord_bytes: int = 0
    other_bytes: int = 0
    by_file: list[tuple[str, int]] = field(default_factory=list)


def bot_memory(snapshot: tracemalloc.Snapshot, games: int) -> BotMemory:
    """Split the live allocations made since tracing started into the bot's side (the bot,
    the engine and discord.py's caches) and SimCord's (its simulated Discord
    stores every message, and this benchmark): each allocation belongs to the innermost
    frame of its traceback that is in one of them (a ``json.loads`` called by the engine is
    the bot's; one called by SimCord is SimCord's)."""
    memory = BotMemory(measured=True, games=games)
    files: dict[str, int] = {}
    for stat in snapshot.statistics("traceback"):
        side = None
        for frame in reversed(stat.traceback):  # innermost first
            name = frame.filename.replace("\\", "/")
            if any(part in name for part in SIMCORD_SIDE):
                side = "simcord"
                break
            if any(part in name for part in BOT_SIDE):
                side = "bot"
                key = name.rsplit("/site-packages/", 1)[-1].removeprefix(f"{ROOT}/")
                files[key] = files.get(key, 0) + stat.size
                break
        if side == "bot":
            memory.bot_bytes += stat.size
        elif side == "simcord":
            memory.simcord_bytes += stat.size
        else:
            memory.other_bytes += stat.size
    memory.by_file = sorted(files.items(), key=lambda kv: kv[1], reverse=True)[:8]
    return memory
