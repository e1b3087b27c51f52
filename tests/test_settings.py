"""Settings: read from the environment and .env; bad values give one clear line."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.settings import SettingsError, load_settings

NAMES = ("DISCORD_TOKEN", "ANIMA_DB_PATH", "ANIMA_DEV_GUILD_ID", "ANIMA_LOG_LEVEL")


@pytest.fixture(autouse=True)
def clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in NAMES:
        monkeypatch.delenv(name, raising=False)


def test_defaults_without_any_setting(tmp_path: Path) -> None:
    settings = load_settings(env_file=tmp_path / "missing.env")
    assert settings.discord_token == ""
    assert settings.db_path == Path("anima.sqlite3")
    assert settings.dev_guild_id is None and settings.log_level == "INFO"


def test_values_come_from_the_env_file(tmp_path: Path) -> None:
    env = tmp_path / ".env"
    env.write_text("DISCORD_TOKEN=abc\nANIMA_DEV_GUILD_ID=123\nANIMA_LOG_LEVEL=debug\n")
    settings = load_settings(env_file=env)
    assert (settings.discord_token, settings.dev_guild_id, settings.log_level) == (
        "abc",
        123,
        "DEBUG",
    )


def test_environment_overrides_the_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    env = tmp_path / ".env"
    env.write_text("ANIMA_DB_PATH=from-file.sqlite3\n")
    monkeypatch.setenv("ANIMA_DB_PATH", "from-env.sqlite3")
    assert load_settings(env_file=env).db_path == Path("from-env.sqlite3")


@pytest.mark.parametrize(
    ("name", "value"), [("ANIMA_DEV_GUILD_ID", "not-a-number"), ("ANIMA_LOG_LEVEL", "LOUD")]
)
def test_a_malformed_setting_is_one_line_naming_it(
    name: str, value: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(name, value)
    with pytest.raises(SettingsError) as err:
        load_settings(env_file=tmp_path / "missing.env")
    message = str(err.value)
    assert "\n" not in message and message.startswith(name) and ".env" in message


def test_anima_bot_reports_a_bad_setting_without_traceback(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from bot.__main__ import main

    monkeypatch.setenv("ANIMA_LOG_LEVEL", "LOUD")
    assert main([]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "ANIMA_LOG_LEVEL" in err
