"""Settings read from the environment and ``.env`` (see ``.env.example``)."""

from __future__ import annotations

import logging
from pathlib import Path

from pydantic import Field, ValidationError, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
#: The rules digest shipped with the bot: ``docs/rules/DIGEST.md`` in the repository, a verbatim
#: copy of the project's ``../shared/rules/DIGEST.md`` (``tests/test_rules_copy.py`` keeps them
#: identical).
DEFAULT_RULES_PATH = Path(__file__).resolve().parent.parent / "docs" / "rules" / "DIGEST.md"
#: The default of ``ANIMA_GAME_CACHE``: running games kept in memory (``bot.games``). Twice the
#: 1,000 live games the issue 10 benchmark plays at once, so that they never leave memory
#: while they are played (a game read back costs one database hop and parsing its state); at
#: ~130 KB per live game on the bot's side that is ~260 MB at most, on a server that really
#: has 2,000 games running.
GAME_CACHE = 2000
#: What a ``DATABASE_URL`` starts with (``bot.database.database_for``).
DATABASE_SCHEMES = ("sqlite:///", "postgresql://", "postgres://")
#: The default of ``ANIMA_LEASE``, in seconds: see ``Settings.lease``.
LEASE = 20.0
#: The default of ``ANIMA_WINDOW_TIMER``, in seconds: see ``Settings.window_timer``.
WINDOW_TIMER = 20


def parse_shard_ids(text: str) -> tuple[int, ...]:
    """``SHARD_IDS``: a range ``0-3`` or a list ``0,1,2`` (ranges may be listed: ``0-1,4``),
    sorted, each once; ValueError (its message one line) when it is neither."""
    ids: set[int] = set()
    for part in text.replace(" ", "").split(","):
        low, dash, high = part.partition("-")
        if not low.isdigit() or (dash and not high.isdigit()):
            raise ValueError(f"{text!r} is not a range like 0-3 or a list like 0,1,2")
        first, last = int(low), int(high) if dash else int(low)
        if last < first:
            raise ValueError(f"the range {part} goes down")
        ids.update(range(first, last + 1))
    return tuple(sorted(ids))


def shard_of(guild_id: int | None, shard_count: int) -> int:
    """The shard whose gateway carries a server's events, as Discord computes it; a DM's
    (no server) is shard 0's."""
    if guild_id is None or guild_id == 0:
        return 0
    return (guild_id >> 22) % shard_count


class ShardSet:
    """The shards one process runs, of ``count``: which servers' games are its own."""

    def __init__(self, count: int = 1, ids: tuple[int, ...] = (0,)) -> None:
        self.count = count
        self.ids = frozenset(ids)

    @property
    def everything(self) -> bool:
        """Whether this process runs every shard (one process: every game is its own)."""
        return len(self.ids) == self.count

    def owns(self, guild_id: int | None) -> bool:
        """Whether the server's events (a DM's: shard 0's) come to this process."""
        return self.everything or shard_of(guild_id, self.count) in self.ids


class SettingsError(Exception):
    """A setting that is missing or malformed; the message is one line for the user."""


class Settings(BaseSettings):
    """Every setting of the bot. Names are the environment variables."""

    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    discord_token: str = Field(default="", alias="DISCORD_TOKEN")
    db_path: Path = Field(default=Path("anima.sqlite3"), alias="ANIMA_DB_PATH")
    #: The database's address when it is not the SQLite file ``ANIMA_DB_PATH``:
    #: ``postgresql://USER:PASSWORD@HOST/NAME`` or ``sqlite:///PATH``; empty: ``ANIMA_DB_PATH``.
    database_url: str | None = Field(default=None, alias="DATABASE_URL")
    dev_guild_id: int | None = Field(default=None, alias="ANIMA_DEV_GUILD_ID")
    log_level: str = Field(default="INFO", alias="ANIMA_LOG_LEVEL")
    #: The rules digest behind ``/anima rules`` (default: ``docs/rules/DIGEST.md``).
    rules_path: Path = Field(default=DEFAULT_RULES_PATH, alias="ANIMA_RULES_PATH")
    #: Per-server defaults until a server admin changes them with ``/anima settings``.
    decision_timer: int = Field(default=300, ge=0, alias="ANIMA_DECISION_TIMER")
    #: A reaction window closes by itself when nobody answers it for this long (issue 23):
    #: nobody has to click Pass, whatever he holds. Time enough to see the board change,
    #: click Respond and pick a card; short enough that the table does not sit waiting.
    window_timer: int = Field(default=WINDOW_TIMER, ge=0, alias="ANIMA_WINDOW_TIMER")
    ai_takeover: int = Field(default=3, ge=0, alias="ANIMA_AI_TAKEOVER")
    dms: bool = Field(default=True, alias="ANIMA_DMS")
    #: How often the timer loop looks for due deadlines, in seconds.
    timer_tick: float = Field(default=5.0, gt=0, alias="ANIMA_TIMER_TICK")
    #: A lobby nobody changed (join, leave, AI, options) for this many seconds expires: the
    #: next ``/anima start`` in its channel closes it and opens a new one.
    lobby_idle: int = Field(default=3600, ge=60, alias="ANIMA_LOBBY_IDLE")
    #: Running games kept in memory at most (``bot.games``: the least recently used idle ones
    #: leave first and are read back from the database when played again).
    game_cache: int = Field(default=GAME_CACHE, ge=1, alias="ANIMA_GAME_CACHE")
    #: A fixed seed for every new game (tests and demos): its games keep the old generator,
    #: without the keyed dice anyone can verify (docs/fair_dice.md); empty: a random seed and
    #: a secret server seed per game.
    fixed_seed: int | None = Field(default=None, alias="ANIMA_FIXED_SEED")
    #: The board and the hands drawn as pictures on every decision (issue 23), in a worker
    #: process (``bot.pictures.pool``): the clicks no longer wait for the drawing's Python
    #: parts, and the bot process's CPU per decision is a third of the thread's. On by
    #: default: ``benchmarks/bot_speed.py --pictures`` keeps the interaction p99 within its
    #: 15 ms. Off: the text board, as on a server that turns pictures off.
    #: ``/anima card`` draws its card always.
    table_pictures: bool = Field(default=True, alias="ANIMA_TABLE_PICTURES")
    #: Shard clusters (issue 24): the total number of Discord gateway shards of the bot
    #: (every process gives the same), and the shards this process runs (``SHARD_IDS``:
    #: ``0-3`` or ``0,1,2``; empty: all of them). Unset: one process, not sharded.
    shard_count: int | None = Field(default=None, ge=1, alias="SHARD_COUNT")
    #: As written (parsed by :attr:`shards`; a string: the environment's JSON decoding of a
    #: tuple would refuse ``0-3``).
    shard_ids: str = Field(default="", alias="SHARD_IDS")
    #: Shard clusters on one database: how long a process's claim on a game's timers, AI
    #: turns or posting holds (``bot.storage.leases``). A process that dies has its games'
    #: timers taken over by another cluster once they are this late, and its postings once
    #: its lease expires; a cluster restarted with the same shards takes its own back at once.
    lease: float = Field(default=LEASE, gt=0, alias="ANIMA_LEASE")

    @field_validator("dev_guild_id", "fixed_seed", "database_url", "shard_count", mode="before")
    @classmethod
    def _empty_is_none(cls, value: object) -> object:
        return None if value == "" else value

    @field_validator("rules_path", mode="before")
    @classmethod
    def _empty_is_the_shipped_digest(cls, value: object) -> object:
        return DEFAULT_RULES_PATH if value in ("", None) else value

    @field_validator("database_url")
    @classmethod
    def _known_database(cls, value: str | None) -> str | None:
        if value is not None and not value.startswith(DATABASE_SCHEMES):
            raise ValueError("must start with " + " or ".join(DATABASE_SCHEMES))
        return value

    @field_validator("shard_ids")
    @classmethod
    def _shard_list(cls, value: str) -> str:
        if value.strip():
            parse_shard_ids(value)
        return value.strip()

    @model_validator(mode="after")
    def _shards_in_range(self) -> Settings:
        if self.shard_ids:
            if self.shard_count is None:
                raise ValueError("SHARD_IDS needs SHARD_COUNT")
            wrong = [i for i in parse_shard_ids(self.shard_ids) if not 0 <= i < self.shard_count]
            if wrong:
                raise ValueError(
                    f"SHARD_IDS {wrong[0]} is outside 0-{self.shard_count - 1} (SHARD_COUNT "
                    f"{self.shard_count})"
                )
        return self

    @property
    def sharded(self) -> bool:
        """Whether the bot runs as a cluster of shards (``SHARD_COUNT`` set)."""
        return self.shard_count is not None

    @property
    def shards(self) -> tuple[int, ...]:
        """The shards this process runs (all of them by default; ``(0,)`` unsharded)."""
        if self.shard_ids:
            return parse_shard_ids(self.shard_ids)
        return tuple(range(self.shard_count or 1))

    @property
    def holder(self) -> str:
        """This process's name as a holder of leases: its shards (a cluster restarted with
        the same shards is the same holder: it takes its leases back at once)."""
        count = self.shard_count or 1
        return f"shards {','.join(str(i) for i in self.shards)} of {count}"

    @property
    def database(self) -> Path | str:
        """The database the bot opens: ``DATABASE_URL`` if set, else the SQLite file
        ``ANIMA_DB_PATH`` (``bot.database.database_for`` reads either)."""
        return self.database_url if self.database_url is not None else self.db_path

    @field_validator("log_level")
    @classmethod
    def _known_level(cls, value: str) -> str:
        level = value.upper()
        if level not in LOG_LEVELS:
            raise ValueError(f"must be one of {', '.join(LOG_LEVELS)}")
        return level

    @property
    def log_level_number(self) -> int:
        return int(getattr(logging, self.log_level))


_HOW_TO_FIX = {
    "ANIMA_DEV_GUILD_ID": "set it to a server id (a number) or leave it empty",
    "ANIMA_LOG_LEVEL": f"set it to one of {', '.join(LOG_LEVELS)}",
    "ANIMA_DB_PATH": "set it to a file path, e.g. anima.sqlite3",
    "DATABASE_URL": "set it to postgresql://USER:PASSWORD@HOST/NAME, sqlite:///PATH, or "
    "leave it empty (the SQLite file ANIMA_DB_PATH)",
    "ANIMA_RULES_PATH": "set it to the path of the rules digest (DIGEST.md)",
    "ANIMA_DECISION_TIMER": "set it to a number of seconds (0 = no timer)",
    "ANIMA_WINDOW_TIMER": "set it to a number of seconds (0 = wait for every player)",
    "ANIMA_AI_TAKEOVER": "set it to a number of time-outs (0 = never)",
    "ANIMA_DMS": "set it to true or false",
    "ANIMA_TIMER_TICK": "set it to a number of seconds above 0",
    "ANIMA_LOBBY_IDLE": "set it to a number of seconds, at least 60",
    "ANIMA_FIXED_SEED": "set it to a whole number or leave it empty",
    "ANIMA_GAME_CACHE": "set it to a number of games, at least 1",
    "ANIMA_LEASE": "set it to a number of seconds above 0",
    "SHARD_COUNT": "set it to the number of shards of the bot (1 or more), or leave it empty",
    "SHARD_IDS": "set it to this process's shards, a range like 0-3 or a list like 0,1,2, "
    "each below SHARD_COUNT, or leave it empty (all)",
}


def load_settings(env_file: str | Path | None = ".env") -> Settings:
    """Read the settings; a bad value raises :class:`SettingsError` with a one-line message
    that names the setting and how to fix it."""
    try:
        return Settings(_env_file=env_file)
    except ValidationError as exc:
        err = exc.errors()[0]
        name = str(err["loc"][0]) if err["loc"] else "settings"
        if name == "settings" and "SHARD_IDS" in str(err["msg"]):
            name = "SHARD_IDS"
        fix = _HOW_TO_FIX.get(name, "see .env.example")
        raise SettingsError(f"{name} is invalid ({err['msg']}): {fix} in .env") from None
