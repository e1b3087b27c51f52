"""The scale tests (issue 24) use the bot tests' helpers (``tests/bot``: SimCord's game
helpers, the posting checks, Discord's nonces modelled)."""

import sys
from pathlib import Path

BOT_TESTS = str(Path(__file__).resolve().parents[1] / "bot")
if BOT_TESTS not in sys.path:
    sys.path.insert(0, BOT_TESTS)


def pytest_configure(config: object) -> None:
    config.addinivalue_line(  # type: ignore[attr-defined]
        "markers", "slow: a test of a minute or more (the kill test); it runs in make test"
    )
