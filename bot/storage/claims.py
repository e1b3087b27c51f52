"""The SQL of a lease's claim, on each backend (:mod:`bot.storage.leases` says what leases
are; :mod:`bot.storage.dialect` names each backend's batch claim)."""

from __future__ import annotations

from collections.abc import Sequence

from bot.database import Session

#: One claim: the lease is this holder's now if it was nobody's, expired, or its own already
#: (renewed). Parameters: kind, game, holder, expiry, now.
CLAIM = (
    "INSERT INTO leases (kind, game_id, holder, expires_at) VALUES (?, ?, ?, ?) "
    "ON CONFLICT (kind, game_id) DO UPDATE SET holder = excluded.holder, "
    "expires_at = excluded.expires_at "
    "WHERE leases.holder = excluded.holder OR leases.expires_at <= ? RETURNING game_id"
)


async def claim_each(
    s: Session, kind: str, game_ids: Sequence[int], holder: str, until: float, now: float
) -> list[int]:
    """SQLite's batch of claims: one transaction (one process: nothing to skip)."""
    claimed = []
    async with s.transaction():
        for game_id in game_ids:
            if await s.one(CLAIM, (kind, game_id, holder, until, now)) is not None:
                claimed.append(game_id)
    return claimed


async def claim_skip_locked(
    s: Session, kind: str, game_ids: Sequence[int], holder: str, until: float, now: float
) -> list[int]:
    """PostgreSQL's batch of claims: the missing rows made, then the free ones locked with
    ``FOR UPDATE SKIP LOCKED`` (a row another process is claiming is skipped, not waited
    for) and taken, in one transaction."""
    ids = list(game_ids)
    async with s.transaction():
        await s.execute(
            "INSERT INTO leases (kind, game_id, holder, expires_at) "
            "SELECT ?, x, '', 0 FROM unnest(CAST(? AS BIGINT[])) AS x "
            "ON CONFLICT (kind, game_id) DO NOTHING",
            (kind, ids),
        )
        rows = await s.all(
            "SELECT game_id FROM leases WHERE kind = ? AND game_id = ANY(CAST(? AS BIGINT[])) "
            "AND (holder = ? OR expires_at <= ?) ORDER BY game_id FOR UPDATE SKIP LOCKED",
            (kind, ids, holder, now),
        )
        free = [int(r[0]) for r in rows]
        if free:
            await s.execute(
                "UPDATE leases SET holder = ?, expires_at = ? "
                "WHERE kind = ? AND game_id = ANY(CAST(? AS BIGINT[]))",
                (holder, until, kind, free),
            )
    return free
