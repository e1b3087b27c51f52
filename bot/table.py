"""The small shared types of the bot's services: a loaded game (:class:`Table`), an answer for
one user (:class:`Reply`), the errors of loading a game, and the seat bookkeeping every service
writes with a change (prompt versions and deadlines).

Each seat stores ``prompt_since``: the state version at which its open prompt appeared.
Buttons carry that number; a click whose number differs from the seat's current one is on
an outdated prompt ("that choice is no longer open"). Using the prompt's own version rather
than the game's lets several players answer one reaction window (or the start choice) with
buttons rendered once.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

import discord

from bot.quiet import Quiet
from bot.rendering import Names
from bot.storage import GameRow, GuildSettings, SeatRow, SeatUpdate
from engine import Game, Prompt, PromptView, SeatView, TableView
from words import SOURCE, msg, say

V = TypeVar("V")

MAX_SEATS = 5
MIN_SEATS = 2
#: Real decisions timed out in a row after which a seat counts as away, when the server's
#: ``ai_takeover`` is off (0): the game still pauses when every human is away.
AWAY_TIMEOUTS = 3
#: A slow game's ping of a new decision waits this long (seconds): a member who is playing
#: answers a follow-up decision within it and is not pinged for it (bot.timers).
PING_GRACE = 60


def no_game() -> str:
    """The answer where there is no game (in the current language)."""
    return say(msg("notice.no_game"))


#: :func:`no_game` in English (for callers that have no language at hand).
NO_GAME = say(msg("notice.no_game"), SOURCE)


class NoGame(Exception):
    """No such game (or not in a state the caller can use)."""


class GameBroken(Exception):
    """The stored game cannot be loaded; it has been marked broken and reported."""


@dataclass
class Reply:
    """An answer for one user (ephemeral, or the private panel it updates)."""

    content: str
    embed: discord.Embed | None = None
    view: discord.ui.View | None = None
    ok: bool = False
    #: Nothing private to say: a click on the public board needs no reply, since the board
    #: and the channel already show what happened (it saves a message per decision).
    quiet: bool = False
    #: Attachments (a finished game's history).
    files: list[discord.File] = field(default_factory=list)
    #: The answer is a player's private panel (or stands in its place): the game, the seat
    #: and what the full panel shows now, so that :mod:`bot.panels` keeps it up to date.
    panel: PanelKey | None = None
    #: The panel's hand picture still to draw (a :class:`bot.panels.HandRequest`): edited
    #: in by the panels' sender once drawn, so that the answer does not wait for it.
    hand: Any = None


@dataclass(frozen=True)
class PanelKey:
    """Whose panel a message is, and the fingerprint of what a full panel shows now."""

    game_id: int
    seat: str
    shown: str


@dataclass
class Table:
    """A running (or finished) game loaded from storage."""

    row: GameRow
    seats: dict[str, SeatRow]
    game: Game
    settings: GuildSettings
    #: A slow game's seated members' quiet hours, by user id (bot.quiet; issue 26).
    quiet: dict[int, Quiet] = field(default_factory=dict)
    #: The views already built of the game at one version (see :meth:`table_view`).
    _views: dict[tuple[str, str | None], Any] = field(default_factory=dict, repr=False)
    _views_of: tuple[int, int] = (0, -1)

    @property
    def id(self) -> int:
        return self.row.id

    def _view(self, kind: str, seat: str | None, make: Callable[[], V]) -> V:
        # One publish renders the board, the prompt lines and every live panel from the
        # same state: each view is built once per version. The bot changes a game only
        # through Game.apply, which moves the version on (and a game replaced after a failed
        # commit is another object).
        at = (id(self.game), self.game.version)
        if self._views_of != at:
            self._views.clear()
            self._views_of = at
        key = (kind, seat)
        if key not in self._views:
            self._views[key] = make()
        value: V = self._views[key]
        return value

    def table_view(self) -> TableView:
        """The game's public table (built once per version)."""
        return self._view("table", None, self.game.table_view)

    def seat_view(self, seat: str) -> SeatView:
        """What ``seat`` may see (built once per version)."""
        # Panels only render: no sealed table (the AI gets full views from lazy_seat_view),
        # and the seat's table derives from the board's, built once per version.
        return self._view(
            "seat", seat, lambda: self.game.seat_view(seat, sealed=False, table=self.table_view())
        )

    def prompt_view(self, seat: str) -> PromptView | None:
        """The open prompt of ``seat`` as that seat sees it (built once per version)."""
        return self._view("prompt", seat, lambda: self.game.prompt_view(seat))

    @property
    def names(self) -> Names:
        return Names(self.seats)

    def seat_of(self, user_id: int) -> SeatRow | None:
        return next((s for s in self.seats.values() if s.user_id == user_id), None)

    @property
    def paused(self) -> bool:
        """Every human was away: no timer runs until a seated player clicks."""
        return self.row.paused_at is not None

    @property
    def away_after(self) -> int:
        """Real decisions timed out in a row after which a seat counts as away (and is
        taken over by the AI if the server allows it)."""
        return self.settings.ai_takeover or AWAY_TIMEOUTS

    def present(self, s: SeatRow) -> bool:
        """A member plays this seat himself and has not let ``away_after`` real decisions
        in a row time out."""
        return s.human and not s.ai and s.timeouts < self.away_after

    def set_deadline(self, s: SeatRow, prompt: Prompt, t: float) -> None:
        """Start the clock of ``s``'s new prompt at ``t`` (none for AI seats or no timer)."""
        timer = self.row.window_timer if prompt.window else (self.row.decision_timer or 0)
        s.pinged = False
        s.ping_at = None
        if s.ai or timer <= 0:
            s.deadline, s.half_at = None, None
        elif self.row.slow and not prompt.window:
            # A slow game's clock does not run during the member's quiet hours: his deadline
            # (and his reminder's half time) move on by their overlap (bot.timers).
            quiet = self.quiet.get(s.user_id or 0)
            s.deadline = quiet.active_after(t, timer) if quiet else t + timer
            s.half_at = quiet.active_after(t, timer / 2) if quiet else t + timer / 2
            s.ping_at = t + PING_GRACE if s.human else None
            s.headed = False  # his own decision: the next heads-up is for his next turn
        else:
            s.deadline = t + timer
            # Half-time pings are for real decisions; windows are short and for everybody.
            s.half_at = None if prompt.window else t + timer / 2


@dataclass
class LobbyResult:
    """The outcome of a lobby action: an error for the clicker, or the new lobby."""

    error: str | None = None
    row: GameRow | None = None
    seats: list[SeatRow] = field(default_factory=list)
    closed: str | None = None
    #: The server's decision timer, which the lobby shows when the host keeps the default.
    default_timer: int = 0


def seat_update(s: SeatRow) -> SeatUpdate:
    """The bookkeeping of ``s`` as storage writes it."""
    return SeatUpdate(
        s.seat,
        s.ai,
        s.timeouts,
        s.prompt_since,
        s.deadline,
        s.half_at,
        s.pinged,
        s.slow_json,
        s.wake_at,
    )


def now() -> float:
    """Virtual-clock-aware time (SimCord simulates ``discord.utils.utcnow``)."""
    return discord.utils.utcnow().timestamp()


def jump_url(guild_id: int, channel_id: int, message_id: int | None = None) -> str:
    """A link to a channel, or to one of its messages."""
    base = f"https://discord.com/channels/{guild_id}/{channel_id}"
    return f"{base}/{message_id}" if message_id else base
