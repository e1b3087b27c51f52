"""The settings kept in memory: a server's (``/anima settings``), a member's auto-pass kinds
on a server, his languages, and whether his DMs are closed.

Each is read once and kept in memory (this process is the database's only writer); a write
drops the copy in memory and saves the new value in one transaction.
"""

from __future__ import annotations

from collections.abc import Iterable

from bot.storage.core import StorageCore
from bot.storage.rows import GuildSettings, MemberPings


class SettingsStore(StorageCore):
    """Servers' and members' settings (see the module)."""

    # ------------------------------------------------------------------ guild settings

    async def guild_settings(self, guild_id: int) -> GuildSettings:
        """The server's settings, the bot's defaults where unset."""
        cached = self._settings.get(guild_id)
        if cached is not None:
            return GuildSettings(**vars(cached))
        settings = await self._read_guild_settings(guild_id)
        self._settings[guild_id] = settings
        return GuildSettings(**vars(settings))

    async def _read_guild_settings(self, guild_id: int) -> GuildSettings:
        row = await self.fetchone(
            "SELECT decision_timer, window_timer, dms, ai_takeover, language, pace, slow_timer, "
            "slow_window FROM guild_settings WHERE guild_id = ?",
            (guild_id,),
        )
        d = self.defaults
        if row is None:
            return GuildSettings(
                guild_id,
                d.decision_timer,
                d.window_timer,
                d.dms,
                d.ai_takeover,
                pace=d.pace,
                slow_timer=d.slow_timer,
                slow_window=d.slow_window,
            )
        return GuildSettings(
            guild_id,
            d.decision_timer if row[0] is None else row[0],
            d.window_timer if row[1] is None else row[1],
            d.dms if row[2] is None else bool(row[2]),
            d.ai_takeover if row[3] is None else row[3],
            row[4],
            row[5] or d.pace,
            d.slow_timer if row[6] is None else row[6],
            d.slow_window if row[7] is None else row[7],
        )

    async def save_guild_settings(self, s: GuildSettings) -> None:
        self._settings.pop(s.guild_id, None)
        await self._write(
            [
                (
                    "INSERT INTO guild_settings (guild_id, decision_timer, window_timer, dms, "
                    "ai_takeover, language, pace, slow_timer, slow_window) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) "
                    "ON CONFLICT(guild_id) DO UPDATE SET "
                    "decision_timer = excluded.decision_timer, "
                    "window_timer = excluded.window_timer, dms = excluded.dms, "
                    "ai_takeover = excluded.ai_takeover, language = excluded.language, "
                    "pace = excluded.pace, slow_timer = excluded.slow_timer, "
                    "slow_window = excluded.slow_window",
                    (
                        s.guild_id,
                        s.decision_timer,
                        s.window_timer,
                        int(s.dms),
                        s.ai_takeover,
                        s.language,
                        s.pace,
                        s.slow_timer,
                        s.slow_window,
                    ),
                )
            ]
        )

    # ------------------------------------------------------------------ auto-pass

    async def autopass(self, guild_id: int, user_ids: Iterable[int]) -> dict[int, frozenset[str]]:
        """The auto-pass kinds of each of ``user_ids`` on a server (members without any are
        left out)."""
        ids = list(user_ids)
        missing = [u for u in ids if (guild_id, u) not in self._autopass]
        if missing:
            marks = ", ".join("?" for _ in missing)
            rows = await self.fetchall(
                f"SELECT user_id, kinds FROM autopass WHERE guild_id = ? AND user_id IN ({marks})",
                (guild_id, *missing),
            )
            found = {r[0]: frozenset(k for k in r[1].split(",") if k) for r in rows}
            for u in missing:
                self._autopass[(guild_id, u)] = found.get(u, frozenset())
        out = {u: self._autopass[(guild_id, u)] for u in ids}
        return {u: kinds for u, kinds in out.items() if kinds}

    async def set_autopass(self, guild_id: int, user_id: int, kinds: Iterable[str]) -> None:
        """Remember a member's auto-pass kinds on a server (an empty set forgets them)."""
        codes = ",".join(sorted(set(kinds)))
        self._autopass.pop((guild_id, user_id), None)
        if codes:
            sql = (
                "INSERT INTO autopass (guild_id, user_id, kinds) VALUES (?, ?, ?) "
                "ON CONFLICT(guild_id, user_id) DO UPDATE SET kinds = excluded.kinds"
            )
            await self._write([(sql, (guild_id, user_id, codes))])
        else:
            await self._write(
                [("DELETE FROM autopass WHERE guild_id = ? AND user_id = ?", (guild_id, user_id))]
            )

    # ------------------------------------------------------------------ members' languages

    async def member_languages(self, user_id: int) -> tuple[str | None, str | None]:
        """A member's chosen language (``/anima settings language``; None: none chosen) and
        the Discord locale his last interaction carried (None: never seen)."""
        if user_id not in self._languages:
            row = await self.fetchone(
                "SELECT language, locale FROM member_settings WHERE user_id = ?", (user_id,)
            )
            self._languages[user_id] = (row[0], row[1]) if row is not None else (None, None)
        return self._languages[user_id]

    async def set_member_language(self, user_id: int, language: str | None) -> None:
        """Remember a member's chosen language (None forgets it: his locale decides)."""
        _, locale = await self.member_languages(user_id)
        await self._save_member(user_id, language, locale)

    async def saw_locale(self, user_id: int, locale: str) -> None:
        """Remember the Discord locale of a member's interaction (written only when it
        changed: a DM, which carries none, is then said in it)."""
        language, seen = await self.member_languages(user_id)
        if seen != locale:
            await self._save_member(user_id, language, locale)

    async def _save_member(self, user_id: int, language: str | None, locale: str | None) -> None:
        self._languages.pop(user_id, None)
        sql = (
            "INSERT INTO member_settings (user_id, language, locale) VALUES (?, ?, ?) "
            "ON CONFLICT(user_id) DO UPDATE SET language = excluded.language, "
            "locale = excluded.locale"
        )
        await self._write([(sql, (user_id, language, locale))])
        self._languages[user_id] = (language, locale)

    # ------------------------------------------------------------------ members' pings

    async def member_pings(self, user_id: int) -> MemberPings:
        """A member's ping settings (issue 26: quiet hours, time zone, heads-up); the
        defaults when he set none."""
        cached = self._pings.get(user_id)
        if cached is None:
            row = await self.fetchone(
                "SELECT quiet_hours, timezone, heads_up FROM member_pings WHERE user_id = ?",
                (user_id,),
            )
            cached = MemberPings(user_id)
            if row is not None:
                cached = MemberPings(user_id, row[0], row[1], bool(row[2]))
            self._pings[user_id] = cached
        return MemberPings(**vars(cached))

    async def save_member_pings(self, p: MemberPings) -> None:
        """Remember a member's ping settings."""
        self._pings.pop(p.user_id, None)
        sql = (
            "INSERT INTO member_pings (user_id, quiet_hours, timezone, heads_up) "
            "VALUES (?, ?, ?, ?) ON CONFLICT(user_id) DO UPDATE SET "
            "quiet_hours = excluded.quiet_hours, timezone = excluded.timezone, "
            "heads_up = excluded.heads_up"
        )
        await self._write([(sql, (p.user_id, p.quiet_hours, p.timezone, int(p.heads_up)))])

    # ------------------------------------------------------------------ DMs

    async def dm_refused(self, user_id: int) -> bool:
        refused = self._dm_refused.get(user_id)
        if refused is None:
            row = await self.fetchone("SELECT 1 FROM dm_refused WHERE user_id = ?", (user_id,))
            refused = self._dm_refused[user_id] = row is not None
        return refused

    async def set_dm_refused(self, user_id: int, refused: bool, now: float) -> None:
        self._dm_refused.pop(user_id, None)
        if refused:
            await self._write(
                [
                    (
                        "INSERT INTO dm_refused (user_id, at) VALUES (?, ?) "
                        "ON CONFLICT (user_id) DO NOTHING",
                        (user_id, now),
                    )
                ]
            )
        else:
            await self._write([("DELETE FROM dm_refused WHERE user_id = ?", (user_id,))])
