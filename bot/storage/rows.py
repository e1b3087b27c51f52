"""The rows: what is stored of a server, a game, its seats and its log, as the rest of the bot
reads and writes them, the columns read back, and the readers that turn a row into its type.

Every row is parsed without raising: a malformed ``options_json`` sets the
:attr:`GameRow.damage` of its game, a malformed event row is :attr:`EventRow.damaged` (and
private to nobody), so one bad row stops only its own game (``bot.games`` marks it broken).

Time is stored as POSIX seconds taken from ``discord.utils.utcnow()`` (virtual in SimCord).
Nothing here runs SQL.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from typing import Any


@dataclass
class GuildSettings:
    """Per-server defaults (``/anima settings``)."""

    guild_id: int
    decision_timer: int
    window_timer: int
    dms: bool
    ai_takeover: int
    #: The public language of new lobbies (a words.LANGUAGES code); None: the server's
    #: preferred locale.
    language: str | None = None
    #: New lobbies' pace (issue 26: ``live`` or ``slow``) and a slow game's decision and
    #: reaction-window timers, in seconds.
    pace: str = "live"
    slow_timer: int = 12 * 3600
    slow_window: int = 3600


@dataclass
class MemberPings:
    """A member's ping settings (issue 26; his data): quiet hours (``23-08``, in his time
    zone), his time zone (an IANA name or a UTC offset; None: UTC) and whether he wants a
    "you are next" heads-up."""

    user_id: int
    quiet_hours: str | None = None
    timezone: str | None = None
    heads_up: bool = False


@dataclass
class SeatRow:
    """One seat of a game: a Discord member or an AI player."""

    game_id: int
    seat: str
    position: int
    user_id: int | None
    name: str
    ai: bool = False
    timeouts: int = 0
    prompt_since: int | None = None
    deadline: float | None = None
    half_at: float | None = None
    pinged: bool = False
    #: Its secret start DM: 0 still to deliver, 1 delivered, None nothing to deliver.
    start_dm: int | None = None
    #: The AI level of an AI seat (a key of engine.agents.levels.LEVELS); None: the default
    #: level (a member's seat an AI takes over after time-outs, an AI seat of an older lobby).
    ai_level: str | None = None
    #: Why a stored column of the seat could not be read (its game is then marked broken,
    #: as for :attr:`GameRow.damage`), else None.
    damage: str | None = None
    #: A member's own seed of the game's dice (docs/fair_dice.md): his Join's interaction id
    #: (the host's: his ``/anima start``'s); None: an AI seat, or a game of the old generator.
    dice_seed: str | None = None
    #: A slow game's (issue 26, bot.slow): when his decision's ping is due, when his "you are
    #: next" heads-up is, when the ping saying his time ran out is, when the table's vote on
    #: his seat closes and its ballots (voter's user id -> ``ai`` or ``wait``); None:
    #: nothing pending.
    ping_at: float | None = None
    heads_at: float | None = None
    missed_at: float | None = None
    vote_until: float | None = None
    #: His heads-up was sent since his last decision opened (one per turn of the player
    #: before him, not one per decision of that player).
    headed: bool = False
    ballots: dict[str, str] = field(default_factory=dict)

    @property
    def slow_json(self) -> str | None:
        """The slow game's bookkeeping as stored (None: nothing pending)."""
        kept = {
            k: v
            for k, v in (
                ("ping", self.ping_at),
                ("heads", self.heads_at),
                ("missed", self.missed_at),
                ("vote", self.vote_until),
                ("ballots", self.ballots),
                ("headed", self.headed),
            )
            if v
        }
        return json.dumps(kept, separators=(",", ":")) if kept else None

    @property
    def wake_at(self) -> float | None:
        """The earliest moment something of :attr:`slow_json` is due (the timers' query)."""
        pending = (self.ping_at, self.heads_at, self.missed_at, self.vote_until)
        due = [t for t in pending if t is not None]
        return min(due) if due else None

    @property
    def human(self) -> bool:
        """A Discord member sits here (even if an AI took the seat over)."""
        return self.user_id is not None

    @property
    def taken_over(self) -> bool:
        return self.user_id is not None and self.ai


@dataclass
class GameRow:
    """One game (lobby, running or finished) as stored."""

    id: int
    guild_id: int
    channel_id: int
    host_id: int
    status: str
    options: dict[str, Any]
    decision_timer: int | None
    window_timer: int
    seed: int
    state_json: str | None
    version: int
    published_event_id: int
    published_version: int
    lobby_message_id: int | None
    board_message_id: int | None
    board_turn: int | None
    winner_seat: str | None
    ending: str | None
    broken_reason: str | None
    created_at: float
    started_at: float | None
    ended_at: float | None
    #: The lobby's option: play in a thread started from the lobby message.
    in_thread: bool = False
    #: When the game was paused because every human was away (None: not paused).
    paused_at: float | None = None
    #: Why a stored column could not be read (the game is then marked broken), else None.
    damage: str | None = None
    #: The language of the game's public messages (a words.LANGUAGES code: a lobby option).
    language: str = "en"
    #: The game's server seed (docs/fair_dice.md), drawn when its lobby opened: SECRET until
    #: the game is over (kept out of the row's repr, hence of any log line); the lobby shows
    #: its SHA-256 (``engine.dice_commitment``). None: a game of the old generator.
    dice_seed: str | None = field(default=None, repr=False)
    #: The lobby's option "Rated" (issue 25, :mod:`bot.storage.ratings`): rated at its end
    #: if two members or more sit at it (on by default, as the column's default).
    rated: bool = True
    #: Its pace (issue 26): ``live``, ``slow``; None in a lobby: the server's default.
    pace: str | None = None

    @property
    def slow(self) -> bool:
        """A game played at the slow pace (bot.slow)."""
        return self.pace == "slow"


@dataclass
class EventRow:
    """One logged event; ``recipients`` None means everybody."""

    id: int
    game_id: int
    version: int
    kind: str
    text: str
    recipients: list[str] | None
    data: dict[str, Any] = field(default_factory=dict)
    at: float = 0.0
    #: The row's recipients or data could not be read: private to nobody, data empty.
    damaged: bool = False


@dataclass
class NewEvent:
    """An event to log with an action."""

    kind: str
    text: str
    recipients: list[str] | None = None
    data: dict[str, Any] = field(default_factory=dict)


@dataclass
class SeatUpdate:
    """The per-seat bookkeeping written with an action."""

    seat: str
    ai: bool
    timeouts: int
    prompt_since: int | None
    deadline: float | None
    half_at: float | None
    pinged: bool
    #: A slow game's pending pings and vote (:attr:`SeatRow.slow_json`) and when due.
    slow_json: str | None = None
    wake_at: float | None = None


@dataclass
class Finish:
    """The end of a game, written with its last action."""

    winner_seat: str | None
    ending: str | None
    results: list[tuple[str, int | None, str, bool, bool]]  # seat, user, name, ai, won
    #: The level of an AI seat that names none (its rating's: bot.storage.ratings).
    ai_level: str = ""


@dataclass
class Pointer:
    """What has been posted of a game: the last event and state version published, and the
    message that carries the board (and its turn)."""

    event_id: int
    version: int
    board_message_id: int | None
    board_turn: int | None


@dataclass
class GameWrite:
    """One change of a running game, written in one transaction by :meth:`Storage.commit`.

    ``state_json`` None: the state did not change (a notice, a pause, a ping's bookkeeping).
    """

    version: int
    state_json: str | None
    #: (version, seat, action, source) of each action applied since the last write.
    actions: list[tuple[int, str, str, str]]
    #: (version, event) of each event to log, in order.
    events: list[tuple[int, NewEvent]]
    seats: list[SeatUpdate]
    paused_at: float | None
    pointer: Pointer
    finish: Finish | None = None


_GAME_COLUMNS = (
    "id, guild_id, channel_id, host_id, status, options_json, decision_timer, window_timer, "
    "seed, state_json, version, published_event_id, published_version, lobby_message_id, "
    "board_message_id, board_turn, winner_seat, ending, broken_reason, created_at, started_at, "
    "ended_at, in_thread, paused_at, language, dice_seed, rated, pace"
)
_SEAT_COLUMNS = (
    "game_id, seat, position, user_id, name, ai, timeouts, prompt_since, deadline, half_at, "
    "pinged, start_dm, ai_level, dice_seed, slow_json"
)
_EVENT_COLUMNS = "id, game_id, version, kind, text, recipients, data_json, at"


def _compact(value: Any) -> str:
    """JSON without the optional spaces (the log's rows: every reader parses JSON)."""
    return json.dumps(value, separators=(",", ":"), default=str)


def _json_object(text: Any) -> dict[str, Any] | None:
    """A stored JSON object, or None if the column does not hold one."""
    try:
        value = json.loads(text)
    except (TypeError, ValueError):
        return None
    return value if isinstance(value, dict) else None


def _game(row: Sequence[Any]) -> GameRow:
    # Never raises on a bad column: the game alone is marked broken (bot.games.Games.load).
    options = _json_object(row[5])
    return GameRow(
        id=row[0],
        guild_id=row[1],
        channel_id=row[2],
        host_id=row[3],
        status=row[4],
        options=options if options is not None else {},
        decision_timer=row[6],
        window_timer=row[7],
        seed=row[8],
        state_json=row[9],
        version=row[10],
        published_event_id=row[11],
        published_version=row[12],
        lobby_message_id=row[13],
        board_message_id=row[14],
        board_turn=row[15],
        winner_seat=row[16],
        ending=row[17],
        broken_reason=row[18],
        created_at=row[19],
        started_at=row[20],
        ended_at=row[21],
        in_thread=bool(row[22]),
        paused_at=row[23],
        damage=None if options is not None else "its options are not valid JSON",
        language=row[24] or "en",
        dice_seed=row[25],
        rated=bool(row[26]),
        pace=row[27],
    )


def _seat(row: Sequence[Any]) -> SeatRow:
    # Never raises on a bad column either: a member's id that is not a number (SQLite keeps
    # any text in an INTEGER column) would match nobody, so its owner would be told he does
    # not play and every timer of the game would fail on it (issue 24, fault 4).
    user_id = row[3]
    damage = None
    if user_id is not None and (not isinstance(user_id, int) or isinstance(user_id, bool)):
        user_id, damage = None, f"the user id of seat {row[1]} is not a number"
    return SeatRow(
        game_id=row[0],
        seat=row[1],
        position=row[2],
        user_id=user_id,
        name=row[4],
        ai=bool(row[5]),
        timeouts=row[6],
        prompt_since=row[7],
        deadline=row[8],
        half_at=row[9],
        pinged=bool(row[10]),
        start_dm=row[11],
        ai_level=row[12],
        damage=damage,
        dice_seed=row[13],
        **_slow(row[14]),
    )


def _slow(text: Any) -> dict[str, Any]:
    """A seat's slow-game bookkeeping from its column (nothing pending if unreadable)."""
    d = _json_object(text) or {}
    ballots = d.get("ballots")

    def at(key: str) -> float | None:
        value = d.get(key)
        return float(value) if isinstance(value, int | float) else None

    return {
        "ping_at": at("ping"),
        "heads_at": at("heads"),
        "missed_at": at("missed"),
        "vote_until": at("vote"),
        "ballots": {str(k): str(v) for k, v in ballots.items()}
        if isinstance(ballots, dict)
        else {},
        "headed": d.get("headed") is True,
    }


def missing_seat(players: Sequence[str], seats: Collection[str]) -> str | None:
    """The damage of a game whose state seats ``players`` when only ``seats`` have a stored
    row (issue 24, fault 3: such a game was never asked nor timed), else None; the game is
    then marked broken like one with a damaged row (``bot.games``)."""
    missing = [p for p in players if p not in seats]
    return f"the stored seat {missing[0]} is missing" if missing else None


def _event(row: Sequence[Any]) -> EventRow:
    # A damaged row is private to nobody (a bad recipients list must never make a private
    # line public) and has no data; its game is marked broken where it is published.
    recipients: list[str] | None = None
    damaged = False
    if row[5] is not None:
        try:
            parsed = json.loads(row[5])
        except (TypeError, ValueError):
            parsed = None
        if isinstance(parsed, list) and all(isinstance(r, str) for r in parsed):
            recipients = parsed
        else:
            recipients, damaged = [], True
    data = _json_object(row[6])
    return EventRow(
        id=row[0],
        game_id=row[1],
        version=row[2],
        kind=str(row[3]),
        text=str(row[4]),
        recipients=recipients,
        data=data if data is not None else {},
        at=row[7],
        damaged=damaged or data is None,
    )
