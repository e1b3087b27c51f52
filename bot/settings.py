"""Settings read from the environment and ``.env`` (see ``.env.example``)."""

from __future__ import annotations

import logging
from pathlib import Path

from pydantic import Field, ValidationError, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")


class SettingsError(Exception):
    """A setting that is missing or malformed; the message is one line for the user."""


class Settings(BaseSettings):
    """Every setting of the bot. Names are the environment variables."""

    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    discord_token: str = Field(default="", alias="DISCORD_TOKEN")
    db_path: Path = Field(default=Path("anima.sqlite3"), alias="ANIMA_DB_PATH")
    dev_guild_id: int | None = Field(default=None, alias="ANIMA_DEV_GUILD_ID")
    log_level: str = Field(default="INFO", alias="ANIMA_LOG_LEVEL")

    @field_validator("dev_guild_id", mode="before")
    @classmethod
    def _empty_is_none(cls, value: object) -> object:
        return None if value == "" else value

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
}


def load_settings(env_file: str | Path | None = ".env") -> Settings:
    """Read the settings; a bad value raises :class:`SettingsError` with a one-line message
    that names the setting and how to fix it."""
    try:
        return Settings(_env_file=env_file)  # type: ignore[call-arg]
    except ValidationError as exc:
        err = exc.errors()[0]
        name = str(err["loc"][0]) if err["loc"] else "settings"
        fix = _HOW_TO_FIX.get(name, "see .env.example")
        raise SettingsError(f"{name} is invalid ({err['msg']}): {fix} in .env") from None
