"""Pictures of the game (issue 23): the public board, a card, a member's hand and a battle,
drawn as PNG images with Pillow, each with its alt text, in the reader's language.

Pure functions from the engine's views (and public event payloads) to a :class:`Picture`:
:func:`draw_board` (the public :class:`engine.TableView` only), :func:`draw_card`,
:func:`draw_hand` (the member's own :class:`engine.SeatView`), :func:`draw_battle` (a
``battle_roll`` event's payload). :class:`PictureCache` draws them in a worker process, keeps
them, and draws again only what changed. Every word is the catalogs' (``pictures.*`` and the
text board's and cards' own ids) or a card's in the current language; the font is shipped
(``fonts/``, DejaVu Sans: Latin and Cyrillic), the colours are the Okabe-Ito palette and
never the only signal (:class:`bot.pictures.canvas.Ink`).

Why Pillow rather than cairosvg or skia, measured on this machine (one core, CPU time,
median of 20; the same scene of 1200 x 1360 pixels with 110 rounded boxes and 220 runs of
text in DejaVu Sans, to PNG; ``benchmarks/render_libraries.py``):

- Pillow 13: 48 ms, 191 KB (a 256-colour PNG; the real board: 20 ms, 71 KB at the median).
- cairosvg 2.9: 162 ms, 580 KB (full colour; builds an SVG text first, and needs the
  system's cairo library, which no wheel brings).
- skia-python 144: 89 ms, 632 KB. Skia draws the scene in 10 ms, but its PNG encoder (full
  colour) takes the rest; handing its pixels to Pillow for the palette PNG would make about
  28 ms, for a 51 MB wheel and a second imaging library.

Pillow alone meets the targets (board p50 ≤ 40 ms, p99 ≤ 80 ms, ≤ 250 KB:
``benchmarks/render_speed.py``), is one small wheel that every platform has, and draws text
with FreeType from a font file we ship, so the pictures look the same everywhere.
"""

from bot.pictures.battle import draw_battle
from bot.pictures.board import draw_board
from bot.pictures.board_alt import board_digest
from bot.pictures.cache import PictureCache
from bot.pictures.canvas import ALT_LIMIT, BYTES_LIMIT, Picture
from bot.pictures.card import draw_card
from bot.pictures.hand import draw_hand

__all__ = [
    "ALT_LIMIT",
    "BYTES_LIMIT",
    "Picture",
    "PictureCache",
    "board_digest",
    "draw_battle",
    "draw_board",
    "draw_card",
    "draw_hand",
]
