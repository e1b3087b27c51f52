"""A member's quiet hours (issue 26): when the bot does not ping him, and, in a slow game,
when his decision timer does not run down.

Quiet hours are a span of his day (``23-08``, ``22:30-07:15``: the end is the first minute he
may be pinged again) in his own time zone, which Discord does not tell bots: he sets it
(``/anima settings timezone:``), an IANA name (``Europe/Rome``, daylight saving time
included) or a UTC offset (``UTC+2``, ``-05:30``); UTC when he set none.

Everything here is pure arithmetic on POSIX seconds: :class:`Quiet` says whether a moment is
quiet, when the quiet span around it ends, and when a timer that does not run during quiet
spans runs out (:meth:`Quiet.active_after`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta, timezone, tzinfo
from functools import cache
from zoneinfo import ZoneInfo, available_timezones

from bot.storage import MemberPings, Storage

_SPAN = re.compile(r"^\s*(\d{1,2})(?::(\d{2}))?\s*-\s*(\d{1,2})(?::(\d{2}))?\s*$")
_OFFSET = re.compile(r"^\s*(?:UTC|GMT)?\s*([+-])\s*(\d{1,2})(?::?(\d{2}))?\s*$", re.IGNORECASE)
#: The days looked at ahead at most (a timer of a week in a day of 23 quiet hours).
_MAX_DAYS = 400


@cache
def zone_names() -> list[str]:
    """Every IANA time zone name the system knows, sorted."""
    return sorted(available_timezones())


def parse_span(text: str) -> tuple[int, int] | None:
    """Quiet hours ``23-08`` or ``22:30-07:15`` as minutes of the day (start, end); None if
    ``text`` is not such a span (or an empty one)."""
    m = _SPAN.match(text)
    if m is None:
        return None
    h1, m1, h2, m2 = (int(g) if g else 0 for g in m.groups())
    if h1 > 24 or h2 > 24 or m1 > 59 or m2 > 59:
        return None
    start, end = (h1 * 60 + m1) % 1440, (h2 * 60 + m2) % 1440
    return None if start == end else (start, end)


def parse_zone(text: str) -> tzinfo | None:
    """A time zone from an IANA name or a UTC offset (``UTC+2``, ``-05:30``); None if it is
    neither."""
    name = text.strip()
    if name in zone_names():
        return ZoneInfo(name)
    if name.upper() in ("UTC", "GMT", "Z"):
        return UTC
    m = _OFFSET.match(name)
    if m is None:
        return None
    hours, minutes = int(m[2]), int(m[3] or 0)
    if hours > 14 or minutes > 59:
        return None
    delta = timedelta(hours=hours, minutes=minutes)
    return timezone(-delta if m[1] == "-" else delta)


@dataclass(frozen=True)
class Quiet:
    """A member's quiet span of the day, ``start`` to ``end`` (minutes of the day; past
    midnight when ``end < start``) in ``zone``."""

    start: int
    end: int
    zone: tzinfo

    def _spans(self, t: float) -> Iterator[tuple[float, float]]:
        """The quiet spans (POSIX seconds) that end after ``t``, in order."""
        day = datetime.fromtimestamp(t, self.zone).date() - timedelta(days=1)
        for i in range(_MAX_DAYS):
            a, b = self._span_of(day + timedelta(days=i))
            if b > t:
                yield a, b

    def _span_of(self, day: date) -> tuple[float, float]:
        def at(d: date, minute: int) -> float:
            clock = time(minute // 60, minute % 60)
            return datetime.combine(d, clock, tzinfo=self.zone).timestamp()

        after = day + timedelta(days=1) if self.end < self.start else day
        return at(day, self.start), at(after, self.end)

    def quiet_at(self, t: float) -> bool:
        """Whether ``t`` falls in a quiet span."""
        return self.ends(t) > t

    def ends(self, t: float) -> float:
        """The end of the quiet span ``t`` falls in; ``t`` itself when it is not quiet."""
        for a, b in self._spans(t):
            if a > t:
                return t
            t = b  # a span's end may be the next one's start (never: start != end)
        return t

    def active_after(self, t: float, seconds: float) -> float:
        """When ``seconds`` of time outside the quiet spans have passed since ``t``: a slow
        game's deadline, extended by the quiet hours it overlaps."""
        left, at = seconds, t
        for a, b in self._spans(t):
            if a > at:
                if left <= a - at:
                    return at + left
                left -= a - at
            at = max(at, b)
        return at + left


def quiet_of(p: MemberPings) -> Quiet | None:
    """A member's quiet hours (None: he set none, or they no longer parse)."""
    span = parse_span(p.quiet_hours or "")
    if span is None:
        return None
    zone = parse_zone(p.timezone or "UTC") or UTC
    return Quiet(span[0], span[1], zone)


async def quiet_hours(storage: Storage, user_ids: Iterable[int | None]) -> dict[int, Quiet]:
    """The quiet hours of the members ``user_ids`` who set some."""
    found = {}
    for user in {u for u in user_ids if u}:
        quiet = quiet_of(await storage.member_pings(user))
        if quiet is not None:
            found[user] = quiet
    return found
