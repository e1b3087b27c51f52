"""The pictures' common ground: the :class:`Picture` a drawing returns, the shipped fonts,
the palette, text measured, fitted and wrapped to a width, and the PNG that leaves.

Every text is drawn with DejaVu Sans, shipped in ``fonts/`` (its licence beside it): it has
the Latin and Cyrillic glyphs of the game's four languages and the symbols the pictures use as
icons (⚔ ☮ ⇄ ⚑ ⚱ ♜ ✦ ◇ and the dice ⚀-⚅), so a picture looks the same on every machine.
What it lacks (an emoji in a member's display name, a variation selector) is left out of the
text rather than drawn as an empty box (:func:`drawable`).
"""

from __future__ import annotations

import io
import re
import threading
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

FONTS = Path(__file__).resolve().parent / "fonts"
REGULAR = FONTS / "DejaVuSans.ttf"
BOLD = FONTS / "DejaVuSans-Bold.ttf"

#: Discord's limit on an attachment's description (the alt text screen readers say).
ALT_LIMIT = 1024
#: The largest picture the bot sends (a test holds every drawing to it).
BYTES_LIMIT = 250 * 1024

RGB = tuple[int, int, int]


@dataclass(frozen=True, slots=True)
class Picture:
    """A drawn picture: its PNG, its alt text (a short text version for screen readers, in
    the language it was drawn in, at most :data:`ALT_LIMIT` characters) and its size."""

    png: bytes
    alt: str
    width: int
    height: int

    @property
    def size(self) -> tuple[int, int]:
        """(width, height) in pixels."""
        return self.width, self.height


def _hex(code: str) -> RGB:
    value = int(code.lstrip("#"), 16)
    return (value >> 16) & 0xFF, (value >> 8) & 0xFF, value & 0xFF


class Ink:
    """The pictures' colours.

    Accents are the Okabe-Ito palette (Okabe and Ito, "Color Universal Design", 2008), whose
    eight colours stay distinct for readers with protanopia, deuteranopia and tritanopia; and
    no colour is ever the only signal: a Region's level is also its pips and its number, a
    party's colour also its shape and its name, a card's kind also its name and its icon.
    Text is near-black on light cards or near-white on the dark table (contrast above 7:1).
    """

    # Okabe-Ito
    ORANGE = _hex("#E69F00")
    SKY = _hex("#56B4E9")
    GREEN = _hex("#009E73")
    YELLOW = _hex("#F0E442")
    BLUE = _hex("#0072B2")
    VERMILION = _hex("#D55E00")
    PURPLE = _hex("#CC79A7")
    BLACK = _hex("#000000")
    # The table and the cards
    TABLE = _hex("#1B1F2A")
    BAND = _hex("#262C3B")
    PANEL = _hex("#2E3547")
    PAPER = _hex("#F6F1E4")
    PAPER_DIM = _hex("#E4DCC8")
    INK = _hex("#1A1A1A")
    INK_SOFT = _hex("#4A4A4A")
    LIGHT = _hex("#F2F2F2")
    LIGHT_SOFT = _hex("#B8BECC")
    CARD_BACK = _hex("#3B3256")
    WHITE = _hex("#FFFFFF")


#: A seat's colour, by its place at the table (with :data:`icons.SEAT_SHAPES`, its shape).
SEAT_COLOURS: tuple[RGB, ...] = (
    Ink.ORANGE,
    Ink.SKY,
    Ink.GREEN,
    Ink.YELLOW,
    Ink.PURPLE,
    Ink.VERMILION,
)
#: A Region's level, 1 to 3 (its pips and number say it too).
LEVEL_COLOURS: dict[int, RGB] = {1: Ink.GREEN, 2: Ink.ORANGE, 3: Ink.VERMILION}

_local = threading.local()


def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """DejaVu Sans (or Sans Bold) at ``size`` pixels.

    Kept per thread: a FreeType face is not safe to use from two threads at once, and tests
    may draw from several threads (the bot draws in its worker process: bot.pictures.pool)."""
    fonts: dict[tuple[int, bool], ImageFont.FreeTypeFont] | None = getattr(_local, "fonts", None)
    if fonts is None:
        fonts = _local.fonts = {}
    key = (size, bold)
    found = fonts.get(key)
    if found is None:
        # The basic layout: the four languages need no shaping (no ligatures, no
        # right-to-left), and it is faster than Raqm's, which Pillow picks when it is there.
        found = ImageFont.truetype(
            str(BOLD if bold else REGULAR), size, layout_engine=ImageFont.Layout.BASIC
        )
        fonts[key] = found
    return found


@lru_cache(maxsize=4096)
def _has_glyph(char: str) -> bool:
    """Whether DejaVu Sans draws ``char`` (else it would draw its empty box, .notdef)."""
    if char.isspace():
        return True
    return _mask(char) != _mask("\ue000")


def _mask(char: str) -> tuple[tuple[int, int], bytes]:
    """The glyph's bitmap as drawn; a private-use code point (U+E000, which DejaVu lacks)
    gives the empty box that every missing character would draw."""
    mask = font(40).getmask(char)
    return mask.size, bytes(Image.Image()._new(mask).tobytes())


#: Characters that join or vary an emoji (variation selectors, the zero-width joiner):
#: without the emoji they have no use.
_INVISIBLE = frozenset(chr(c) for c in (*range(0xFE00, 0xFE10), 0x200D))


_BEFORE_PUNCTUATION = re.compile(r" ([,.;:!?])")


@lru_cache(maxsize=8192)
def drawable(text: str) -> str:
    """``text`` without the characters the font lacks (emoji, variation selectors), its
    spaces made single where a dropped character leaves two."""
    kept = "".join(c for c in text if c.isascii() or (c not in _INVISIBLE and _has_glyph(c)))
    if kept == text:
        return text
    # A dropped emoji leaves its spaces: one between words, none before a comma.
    return _BEFORE_PUNCTUATION.sub(r"\1", " ".join(kept.split()))


@lru_cache(maxsize=16384)
def _length(text: str, size: int, bold: bool) -> float:
    return float(font(size, bold).getlength(text))


def length(text: str, size: int, bold: bool = False) -> float:
    """The width of ``text`` in pixels (of its drawable characters)."""
    return _length(drawable(text), size, bold)


def fit(text: str, size: int, width: float, bold: bool = False) -> str:
    """``text`` cut to ``width`` pixels, with an ellipsis when cut."""
    text = drawable(text)
    if _length(text, size, bold) <= width:
        return text
    low, high = 0, len(text)
    while low < high:
        mid = (low + high + 1) // 2
        if _length(text[:mid].rstrip() + "…", size, bold) <= width:
            low = mid
        else:
            high = mid - 1
    return text[:low].rstrip() + "…"


def wrap(text: str, size: int, width: float, lines: int = 99, bold: bool = False) -> list[str]:
    """``text`` in lines of at most ``width`` pixels (cut between words; a word too long for
    a line alone is cut), at most ``lines`` of them, the last one ending in an ellipsis when
    the text goes on."""
    out: list[str] = []
    for paragraph in drawable(text).split("\n"):
        line = ""
        for word in paragraph.split(" "):
            candidate = f"{line} {word}" if line else word
            if _length(candidate, size, bold) <= width:
                line = candidate
                continue
            if line:
                out.append(line)
            line = word if _length(word, size, bold) <= width else fit(word, size, width, bold)
        out.append(line)
    if len(out) > lines:
        out = out[:lines]
        out[-1] = fit(out[-1] + " …", size, width, bold)
    return out


class Canvas:
    """An image being drawn, with the text and shape helpers of every picture."""

    def __init__(self, width: int, height: int, background: RGB = Ink.TABLE) -> None:
        self.image = Image.new("RGB", (width, height), background)
        self.draw = ImageDraw.Draw(self.image)
        self.width, self.height = width, height

    def text(
        self,
        xy: tuple[float, float],
        text: str,
        size: int,
        fill: RGB,
        bold: bool = False,
        anchor: str = "la",
    ) -> float:
        """Draw ``text`` (its drawable characters) at ``xy`` (by default its left edge and
        the font's ascender line); returns its width."""
        text = drawable(text)
        if text:
            self.draw.text(xy, text, font=font(size, bold), fill=fill, anchor=anchor)
        return _length(text, size, bold)

    def lines(
        self,
        x: float,
        y: float,
        lines: Iterable[str],
        size: int,
        fill: RGB,
        bold: bool = False,
        leading: float = 1.25,
    ) -> float:
        """Draw ``lines`` one under another from ``(x, y)``; returns the y under the last."""
        step = round(size * leading)
        for line in lines:
            self.text((x, y), line, size, fill, bold)
            y += step
        return y

    def box(
        self,
        xy: tuple[float, float, float, float],
        fill: RGB | None,
        outline: RGB | None = None,
        radius: int = 10,
        width: int = 2,
    ) -> None:
        """A rounded rectangle."""
        self.draw.rounded_rectangle(xy, radius=radius, fill=fill, outline=outline, width=width)

    def crop(self, height: int) -> None:
        """Cut the picture to ``height`` pixels (a drawing sized before its content)."""
        if height < self.height:
            self.image = self.image.crop((0, 0, self.width, height))
            self.draw = ImageDraw.Draw(self.image)
            self.height = height

    def picture(self, alt: str) -> Picture:
        """The finished :class:`Picture` with its alt text (cut to :data:`ALT_LIMIT`)."""
        return Picture(encode(self.image), clip_alt(alt), self.width, self.height)


def encode(image: Image.Image) -> bytes:
    """The image as a PNG of 256 colours.

    The pictures are flat colours and anti-aliased text: a palette of 256 keeps them as they
    look at a third of the bytes of full colour, and a palette image is quicker to compress.
    Finding the palette is the costly part (a median cut of the whole board takes longer
    than drawing it), so it is found on the image shrunk three times (a ninth of the pixels,
    which still holds every colour drawn and the blends of the text's edges) by Pillow's
    fast octree, and then every pixel takes its nearest colour of it, undithered (dither
    would speckle the flat colours). zlib's level 3: level 6 makes files a tenth smaller
    and takes twice as long (benchmarks/render_speed.py measures both)."""
    palette = image.reduce(3).quantize(256, method=Image.Quantize.FASTOCTREE)
    quantized = image.quantize(palette=palette, dither=Image.Dither.NONE)
    buffer = io.BytesIO()
    quantized.save(buffer, "PNG", compress_level=COMPRESS_LEVEL)
    return buffer.getvalue()


#: zlib's level for the PNGs (see :func:`encode`).
COMPRESS_LEVEL = 3


def clip_alt(text: str) -> str:
    """Alt text within :data:`ALT_LIMIT` characters, cut at a line's end when it can be."""
    if len(text) <= ALT_LIMIT:
        return text
    cut = text[: ALT_LIMIT - 1]
    at = cut.rfind("\n")
    return (cut[:at] if at > ALT_LIMIT // 2 else cut) + "…"
