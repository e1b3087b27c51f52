"""The replay page in a real browser: Debian's Chromium, headless, driven by Playwright (its
own browsers are never downloaded: ``executable_path`` is the system's chromium).

The page opens from a file and fetches nothing; each seat's view shows that seat's hidden
cards and no other view does (the public view shows no hand at all); the buttons, the slider
and the arrow keys step through the game, whose last step shows its end and winner; and no
script error is logged on the way.

``.ci/run`` installs chromium where it is missing, so CI runs this on a fresh machine: there
(``CI=true``) a missing chromium fails the test; elsewhere it is skipped, saying how to run it.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, sync_playwright
from postgres_cluster import in_ci
from replay_pages import hidden_at
from test_replay import simulated

from engine.game import Game
from engine.tools.replay import GameRecord, record_from
from replay_viewer import replay_page
from wording.cards import card_name

#: The browser: Debian's chromium (``CHROMIUM`` names another).
CHROMIUM = os.environ.get("CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    if not Path(CHROMIUM).exists():
        why = f"chromium is not installed (no {CHROMIUM}; Debian: apt-get install chromium)"
        if in_ci():
            pytest.fail(f"CI=true and {why}")
        pytest.skip(why)
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"]
        )
        try:
            yield launched
        finally:
            launched.close()


@pytest.fixture(scope="module")
def played() -> tuple[Game, GameRecord]:
    game, log = simulated(7, 3, 2)
    return game, record_from(game, log)


def text(page: Page, selector: str) -> str:
    return page.inner_text(selector)


def test_the_page_steps_through_every_view_without_the_network(
    browser: Browser, played: tuple[Game, GameRecord], tmp_path: Path
) -> None:
    game, record = played
    file = tmp_path / "replay.html"
    file.write_text(replay_page(record), encoding="utf-8")
    seats = record.players
    middle = (len(record.actions) + 1) // 2
    hidden = {
        seat: [card_name(game.db, c) for c in hidden_at(record, middle, seat)] for seat in seats
    }
    assert all(hidden.values())  # every seat holds something the table does not see

    context = browser.new_context(viewport={"width": 1280, "height": 900})
    requests: list[str] = []
    errors: list[str] = []
    # Every request is seen and none but the file itself is let through.
    context.route(
        "**/*",
        lambda route: route.continue_() if route.request.url == file.as_uri() else route.abort(),
    )
    page = context.new_page()
    page.on("request", lambda request: requests.append(request.url))
    page.on("console", lambda m: errors.append(m.text) if m.type in ("error", "warning") else None)
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(file.as_uri())
    page.wait_for_selector("body[data-ready=true]")
    steps = len(record.actions)
    assert text(page, "#step-label") == f"Step 0 of {steps}"

    # The slider takes the page to the middle of the game.
    page.eval_on_selector(
        "#slider", "(el, n) => { el.value = n; el.dispatchEvent(new Event('input')); }", middle
    )
    assert text(page, "#step-label") == f"Step {middle} of {steps}"

    def check_public() -> None:
        page.click("#view-0")
        assert page.inner_html("#own") == ""
        shown = text(page, "main")
        for cards in hidden.values():
            assert not any(card in shown for card in cards), cards

    check_public()
    for index, seat in enumerate(seats, start=1):
        page.click(f"#view-{index}")
        assert page.get_attribute(f"#view-{index}", "aria-selected") == "true"
        own = text(page, "#own")
        assert all(card in own for card in hidden[seat]), (seat, own)
        assert page.query_selector(".party.you") is not None
        # (Its lines may name another's card it was told of: a card given to it, say.)
        shown = text(page, "#board") + text(page, "#own")
        for other, cards in hidden.items():
            if other != seat:
                mine = set(hidden[seat])
                assert not any(card in shown for card in cards if card not in mine), other
        check_public()

    # The arrow keys step one at a time; "Last" goes to the end, which shows the winner.
    page.keyboard.press("ArrowRight")
    assert text(page, "#step-label") == f"Step {middle + 1} of {steps}"
    page.keyboard.press("ArrowLeft")
    assert text(page, "#step-label") == f"Step {middle} of {steps}"
    page.click("#last")
    assert text(page, "#step-label") == f"Step {steps} of {steps}"
    assert page.is_disabled("#next")
    assert game.s.winner is not None
    assert f"{game.s.winner} wins" in text(page, "#head .over")
    page.click("#first")
    assert text(page, "#step-label") == f"Step 0 of {steps}"

    assert requests == [file.as_uri()]
    assert errors == []
    context.close()
