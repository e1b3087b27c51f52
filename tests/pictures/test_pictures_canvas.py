"""The pictures' ground: the shipped font draws every symbol the pictures use and the letters
of the four languages, anything else (an emoji in a display name) is left out rather than
drawn as an empty box, and text is fitted and wrapped to its width."""

from __future__ import annotations

import pytest

from bot.pictures import icons
from bot.pictures.battle import VERSUS_GAP, versus_size
from bot.pictures.canvas import (
    ALT_LIMIT,
    BOLD,
    FONTS,
    REGULAR,
    clip_alt,
    drawable,
    fit,
    length,
    wrap,
)
from bot.pictures.canvas import _has_glyph as has_glyph
from words import LANGUAGES, catalog, msg, say, speaking

SYMBOLS = sorted({*icons.SYMBOL.values(), *icons.SET_SYMBOL.values(), "→", "…", "·", "—"})


def test_the_font_and_its_licence_are_shipped() -> None:
    assert REGULAR.is_file() and BOLD.is_file()
    licence = (FONTS / "LICENSE").read_text(encoding="utf-8")
    assert "Bitstream Vera" in licence and "public domain" in licence and "Arev" in licence


@pytest.mark.parametrize("symbol", SYMBOLS)
def test_every_symbol_is_in_the_font(symbol: str) -> None:
    assert has_glyph(symbol)
    assert drawable(symbol) == symbol


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_letter_of_the_catalogs_is_in_the_font(language: str) -> None:
    # The catalogs' own emoji are the text board's: a picture leaves them out.
    letters = {
        ch
        for template in catalog(language).values()
        for form in (template if isinstance(template, tuple) else (template,))
        for ch in form
        if ch.isalpha()
    }
    missing = sorted(ch for ch in letters if not has_glyph(ch))
    assert not missing


def test_what_the_font_lacks_is_left_out() -> None:
    assert not has_glyph("🤝") and not has_glyph("\U0001f3c6")
    assert drawable("Alice 🏆 the best") == "Alice the best"
    assert drawable("⚔️ Борис") == "⚔ Борис"  # the variation selector goes, the swords stay


def test_text_is_fitted_and_wrapped() -> None:
    text = "Citadel of the Inquisition, far beyond the Frozen Ford"
    cut = fit(text, 20, 150)
    assert cut.endswith("…") and length(cut, 20) <= 150
    lines = wrap(text, 20, 200)
    assert all(length(x, 20) <= 200 for x in lines) and " ".join(lines) == text
    two = wrap(text, 20, 120, lines=2)
    assert len(two) == 2 and two[-1].endswith("…")


def test_alt_text_is_cut_at_a_line() -> None:
    text = "\n".join(f"line {i} " + "x" * 40 for i in range(40))
    clipped = clip_alt(text)
    assert len(clipped) <= ALT_LIMIT and clipped.endswith("…")
    assert clip_alt("short") == "short"


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_word_between_a_battles_sides_fits_between_their_boxes(language: str) -> None:
    # Russian's «против» at the full size overlapped both boxes.
    with speaking(language):
        word = say(msg("pictures.battle.vs"))
    size = versus_size(word)
    assert length(word, size, True) <= VERSUS_GAP
    assert size >= 18, f"{word!r} drawn at {size} px"
    if language == "en":
        assert size == 30
