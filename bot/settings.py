"""Settings read from the environment and ``.env`` (see ``.env.example``)."""

from __future__ import annotations

import logging
from pathlib import Path

from pydantic import Field, ValidationError, field_validator
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
#: The default of ``ANIMA_WINDOW_TIMER``, in seconds: see ``Settings.window_timer``.
WINDOW_TIMER = 20


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
    #: parts, and the bot process's CPU per decision is a third of the thread's. Off by
    #: default until ``benchmarks/bot_speed.py --pictures`` shows the interaction p99 within
    #: its 15 ms (17.9 ms on a loaded 2-core machine, against 24.4 with the thread).
    #: ``/anima card`` draws its card always.
    table_pictures: bool = Field(default=False, alias="ANIMA_TABLE_PICTURES")

    @field_validator("dev_guild_id", "fixed_seed", "database_url", mode="before")
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
}


def load_settings(env_file: str | Path | None = ".env") -> Settings:
    """Read the settings; a bad value raises :class:`SettingsError` with a one-line message
    that names the setting and how to fix it."""
    try:
        return Settings(_env_file=env_file)
    except ValidationError as exc:
        err = exc.errors()[0]
        name = str(err["loc"][0]) if err["loc"] else "settings"
        fix = _HOW_TO_FIX.get(name, "see .env.example")
        raise SettingsError(f"{name} is invalid ({err['msg']}): {fix} in .env") from None
