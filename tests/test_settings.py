"""Settings: read from the environment and .env; bad values give one clear line."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.settings import SettingsError, load_settings

NAMES = (
    "DISCORD_TOKEN",
    "ANIMA_DB_PATH",
    "ANIMA_DEV_GUILD_ID",
    "ANIMA_LOG_LEVEL",
    "SHARD_COUNT",
    "SHARD_IDS",
)


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


def test_shards_default_to_one_unsharded_process(tmp_path: Path) -> None:
    settings = load_settings(env_file=tmp_path / "missing.env")
    assert not settings.sharded and settings.shards == (0,)


@pytest.mark.parametrize(
    ("count", "ids", "shards"),
    [
        ("4", "", (0, 1, 2, 3)),
        ("4", "0-1", (0, 1)),
        ("8", "0,2, 5", (0, 2, 5)),
        ("8", "6-7,1", (1, 6, 7)),
    ],
)
def test_shard_ids_are_a_range_or_a_list(
    count: str, ids: str, shards: tuple[int, ...], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SHARD_COUNT", count)
    monkeypatch.setenv("SHARD_IDS", ids)
    settings = load_settings(env_file=tmp_path / "missing.env")
    assert settings.sharded and settings.shard_count == int(count) and settings.shards == shards


@pytest.mark.parametrize(
    ("count", "ids", "named"),
    [
        ("4", "2-5", "SHARD_IDS"),  # past the last shard
        ("4", "x", "SHARD_IDS"),
        ("4", "3-1", "SHARD_IDS"),
        ("", "1", "SHARD_IDS"),  # no count to be within
        ("0", "", "SHARD_COUNT"),
        ("two", "", "SHARD_COUNT"),
    ],
)
def test_a_bad_shard_setting_is_one_line_naming_it(
    count: str, ids: str, named: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SHARD_COUNT", count)
    monkeypatch.setenv("SHARD_IDS", ids)
    with pytest.raises(SettingsError) as err:
        load_settings(env_file=tmp_path / "missing.env")
    message = str(err.value)
    assert "\n" not in message and message.startswith(named) and ".env" in message
