"""The pictures look as they did: each is compared with its reference image in
``tests/pictures/reference/`` within a perceptual tolerance (the mean absolute difference and
the structural similarity, SSIM, of the two in grey at half size), so that a change of
Pillow's or FreeType's anti-aliasing passes and a moved box, a lost word or a wrong colour
does not. The references are a fixed seeded position: the board (three sets, five players)
in English and in Russian (Cyrillic glyphs), a card of each kind, a hand and a battle.

After an intended change of the drawings, write them anew and look at them::

    ANIMA_UPDATE_REFERENCES=1 .venv/bin/pytest -q tests/pictures/test_pictures_reference.py

Every picture also keeps within Discord's limits: ≤ 250 KB, alt text ≤ 1,024 characters,
in the language drawn.
"""

from __future__ import annotations

import io
import os
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from pictures.positions import NAMES, position
from PIL import Image

from bot.pictures import (
    ALT_LIMIT,
    BYTES_LIMIT,
    Picture,
    draw_battle,
    draw_board,
    draw_card,
    draw_hand,
)
from engine import seat_view
from engine.cards import default_cards

REFERENCES = Path(__file__).resolve().parent / "reference"
UPDATE = os.environ.get("ANIMA_UPDATE_REFERENCES") == "1"
DB = default_cards()
#: A card of each type and kind (an Arcane character, a guarded Region, an Encounter of
#: each kind, Advantages of the base set and of each expansion's kinds).
CARDS = (
    "acrobat",
    "black_angel",
    "frozen_ford",
    "wandering_warrior",
    "treasure",
    "defeat_tiamat",
    "the_last_seal",
    "ki_strike",
    "wrong_road",
    "eclipse",
    "unleashed_danger",
    "abel",
    "spear_of_the_fallen_king",
)
#: The tolerance: mean absolute difference of the grey levels (0-255), and SSIM at least.
MAX_MEAN_DIFFERENCE = 3.0
MIN_SSIM = 0.95


def _board(language: str) -> Picture:
    game, _ = position()
    return draw_board(game.table_view(), DB, NAMES, language)


def _hand(language: str) -> Picture:
    game, _ = position()
    return draw_hand(seat_view(game, "P1", sealed=False), DB, language)


def _battle(language: str) -> Picture:
    _, events = position()
    index = max(i for i, e in enumerate(events) if e.kind == "battle_roll")
    result = next(e.data for e in events[index:] if e.kind == "battle_result")
    return draw_battle(events[index].data, NAMES, language, result)


PICTURES: dict[str, Callable[[], Picture]] = {
    "board_en": lambda: _board("en"),
    "board_ru": lambda: _board("ru"),
    "hand_en": lambda: _hand("en"),
    "battle_en": lambda: _battle("en"),
    "card_frozen_ford_ru": lambda: draw_card("frozen_ford", DB, "ru"),
    **{f"card_{c}_en": (lambda c=c: draw_card(c, DB, "en")) for c in CARDS},  # type: ignore[misc]
}


def _half(png: bytes) -> Image.Image:
    """A picture at half its size, as its reference is kept (a box filter: the same pixels
    on every machine)."""
    return Image.open(io.BytesIO(png)).convert("RGB").reduce(2)


def _grey(image: Image.Image) -> np.ndarray:
    return np.asarray(image.convert("L"), dtype=np.float64)


def ssim(a: np.ndarray, b: np.ndarray, block: int = 8) -> float:
    """The mean structural similarity of two grey images over blocks of ``block`` pixels
    (Wang et al. 2004, without the Gaussian window)."""
    c1, c2 = (0.01 * 255) ** 2, (0.03 * 255) ** 2
    h, w = (a.shape[0] // block) * block, (a.shape[1] // block) * block

    def blocks(x: np.ndarray) -> np.ndarray:
        return x[:h, :w].reshape(h // block, block, w // block, block).swapaxes(1, 2)

    x, y = blocks(a), blocks(b)
    mx, my = x.mean(axis=(2, 3)), y.mean(axis=(2, 3))
    vx, vy = x.var(axis=(2, 3)), y.var(axis=(2, 3))
    cov = ((x - mx[..., None, None]) * (y - my[..., None, None])).mean(axis=(2, 3))
    index = ((2 * mx * my + c1) * (2 * cov + c2)) / ((mx**2 + my**2 + c1) * (vx + vy + c2))
    return float(index.mean())


@pytest.mark.parametrize("name", sorted(PICTURES))
def test_the_picture_matches_its_reference(name: str) -> None:
    picture = PICTURES[name]()
    assert len(picture.png) <= BYTES_LIMIT
    assert 0 < len(picture.alt) <= ALT_LIMIT
    assert Image.open(io.BytesIO(picture.png)).size == picture.size
    if name.endswith("_ru"):
        assert any("\u0400" <= ch <= "\u04ff" for ch in picture.alt)  # Cyrillic
    drawn = _half(picture.png)
    path = REFERENCES / f"{name}.png"
    if UPDATE:
        REFERENCES.mkdir(exist_ok=True)
        kept = drawn.quantize(256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
        kept.save(path, optimize=True)
        return
    assert path.exists(), f"no reference for {name}: run with ANIMA_UPDATE_REFERENCES=1"
    reference = Image.open(path).convert("RGB")
    assert drawn.size == reference.size, "the picture's size changed"
    a, b = _grey(drawn), _grey(reference)
    difference = float(np.abs(a - b).mean())
    similarity = ssim(a, b)
    assert difference <= MAX_MEAN_DIFFERENCE, f"{name}: mean difference {difference:.2f}"
    assert similarity >= MIN_SSIM, f"{name}: SSIM {similarity:.3f}"


def test_the_comparison_sees_a_changed_picture() -> None:
    picture = _board("en")
    drawn = _half(picture.png)
    changed = drawn.copy()
    # A party's row hidden under a box: what a lost panel or a moved layout looks like.
    changed.paste((40, 40, 40), (20, 300, 580, 360))
    a, b = _grey(drawn), _grey(changed)
    assert ssim(a, a) == pytest.approx(1.0)
    assert ssim(a, b) < MIN_SSIM or float(np.abs(a - b).mean()) > MAX_MEAN_DIFFERENCE
