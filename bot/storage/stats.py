"""The stats of a server (``/anima stats``), read from the per-server aggregates that the
schema's triggers keep up to date in the transaction that ends a game."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.database import Session
from bot.storage.core import StorageCore


class StatsStore(StorageCore):
    """A server's finished games and its players' wins."""

    # ------------------------------------------------------------------ stats

    async def guild_stats(
        self, guild_id: int
    ) -> tuple[int, list[tuple[str, int | None, int, int]]]:
        """(games finished, [(name, user_id, wins, games)]) for a server, best first (the
        20 best; every AI seat together as "AI players"), from the per-server aggregates
        (``guild_stats``, ``player_stats``) that the game's last commit keeps up to date."""

        async def read(s: Session) -> tuple[Any, Sequence[Any]]:
            row = await s.one("SELECT games FROM guild_stats WHERE guild_id = ?", (guild_id,))
            rows = await s.all(
                "SELECT name, NULLIF(user_key, -1), wins, games FROM player_stats "
                "WHERE guild_id = ? ORDER BY wins DESC, games DESC LIMIT 20",
                (guild_id,),
            )
            return row, rows

        row, rows = await self.db.run(read)
        return (row[0] if row else 0), [(r[0], r[1], r[2], r[3]) for r in rows]

    async def omega_wins(self, guild_id: int) -> int:
        """Finished games of a server that nobody won (Omega broke free)."""
        row = await self.fetchone(
            "SELECT omega_wins FROM guild_stats WHERE guild_id = ?", (guild_id,)
        )
        return int(row[0]) if row else 0
