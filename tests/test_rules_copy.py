"""The rules digest shipped for ``/anima rules`` (docs/rules/DIGEST.md) is the project's
``../shared/rules/DIGEST.md``, byte for byte, and it is the bot's default."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot import rules
from bot.settings import DEFAULT_RULES_PATH, load_settings

REPO = Path(__file__).resolve().parent.parent
COPY = REPO / "docs" / "rules" / "DIGEST.md"
SHARED = REPO.parent / "shared" / "rules" / "DIGEST.md"


def test_the_shipped_digest_is_the_default_and_reads_as_rules(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("ANIMA_RULES_PATH", raising=False)
    assert DEFAULT_RULES_PATH == COPY
    assert load_settings(env_file=tmp_path / "missing.env").rules_path == COPY
    digest = rules.parse(COPY.read_text(encoding="utf-8"), COPY)
    assert digest.error is None
    assert digest.section("B") is not None and digest.rule("B3") is not None
    assert len(digest.rules) > 50


def test_an_empty_rules_path_means_the_shipped_digest(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ANIMA_RULES_PATH", "")  # as in .env.example
    assert load_settings(env_file=tmp_path / "missing.env").rules_path == COPY
    monkeypatch.setenv("ANIMA_RULES_PATH", str(tmp_path / "mine.md"))
    assert load_settings(env_file=tmp_path / "missing.env").rules_path == tmp_path / "mine.md"


def test_the_shipped_digest_is_identical_to_the_shared_one() -> None:
    if not SHARED.is_file():
        pytest.skip(f"{SHARED} does not exist here, so there is nothing to compare the copy with")
    assert COPY.read_bytes() == SHARED.read_bytes(), (
        f"{COPY.relative_to(REPO)} differs from {SHARED}: copy it again "
        f"(cp {SHARED} {COPY.relative_to(REPO)})"
    )
