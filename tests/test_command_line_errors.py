"""The command lines refuse what they cannot use with one clear line and a non-zero exit, never
a traceback (issue 24, fault 8): ``anima cards validate`` and ``anima replay`` given a binary
file, ``anima-bot backup`` into a folder that cannot be created."""

from __future__ import annotations

import asyncio
import io
from pathlib import Path

import pytest

from bot.__main__ import main as bot_main
from bot.storage import GuildSettings, Storage
from engine.tools.cli import main

#: Bytes that are not UTF-8 text (the start of a PNG picture, then noise).
BINARY = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\xff\xfe\xfd" + bytes(range(256))


def one_line(err: str) -> str:
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert "Traceback" not in err
    return lines[0]


def test_cards_validate_refuses_a_binary_file_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "cards.png"
    path.write_bytes(BINARY)
    assert main(["cards", "validate", str(path)]) == 1
    captured = capsys.readouterr()
    problems = captured.err.splitlines()
    assert problems == [f"{path}: cannot read: not UTF-8 text", "1 problem(s) found"]
    assert captured.out == ""


def test_replay_refuses_a_binary_file_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "game.png"
    path.write_bytes(BINARY)
    assert main(["replay", str(path)]) == 1
    line = one_line(capsys.readouterr().err)
    assert line == f"anima replay: {path}: cannot read: not UTF-8 text"
    # The same from standard input.
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(BINARY), encoding="utf-8"))
    assert main(["replay", "-"]) == 1
    assert one_line(capsys.readouterr().err).endswith("cannot read: not UTF-8 text")


def a_database(path: Path) -> None:
    async def fill() -> None:
        storage = Storage(path, GuildSettings(0, 0, 30, True, 3))
        await storage.open()
        await storage.create_lobby(1, 100, 7, "alice", {}, 0.0)
        await storage.close()

    asyncio.run(fill())


@pytest.mark.parametrize("where", ["under a file", "a name too long"])
def test_backup_into_a_folder_that_cannot_be_created_fails_in_one_line(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    where: str,
) -> None:
    source = tmp_path / "anima.sqlite3"
    a_database(source)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("ANIMA_DB_PATH", str(source))
    monkeypatch.delenv("DATABASE_URL", raising=False)
    blocker = tmp_path / "notes.txt"
    blocker.write_text("a file, not a folder\n")
    if where == "under a file":
        # Its folder cannot be created: a file has that name.
        target = blocker / "backups" / "anima-1.sqlite3"
        said = f"cannot create the folder {target.parent}: Not a directory"
    else:
        # A name longer than the file system takes (255 bytes on most).
        target = tmp_path / "backups" / ("anima-" * 60 + ".sqlite3")
        said = f"cannot write {target}: unable to open database file"
    assert bot_main(["backup", str(target)]) == 2
    line = one_line(capsys.readouterr().err)
    assert line.startswith("anima-bot backup: ") and said in line
    assert blocker.read_text() == "a file, not a folder\n"
