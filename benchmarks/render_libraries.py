"""Why the pictures use Pillow: one scene drawn to PNG with Pillow, cairosvg and skia-python.

Run: ``.venv/bin/python benchmarks/render_libraries.py [--runs 20] [--json]`` in an
environment that has the libraries to compare (``pip install cairosvg skia-python``: they
are not the project's dependencies; a library that is missing is reported as such).

The scene is the size of a five-player board (1200 x 1360 pixels) with 110 rounded boxes and
220 runs of text of 18-34 px in DejaVu Sans and Sans Bold (the shipped fonts), Latin and
Cyrillic, placed at random from a fixed seed. Each library draws it and makes a PNG as the
bot would: Pillow in 256 colours as ``bot.pictures.canvas.encode`` does, cairosvg from an SVG
text, skia with its own encoder. Times are the process's CPU time, the median of ``--runs``;
skia's drawing alone (without its PNG) is reported too.
"""

from __future__ import annotations

import argparse
import io
import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape

FONTS = Path(__file__).resolve().parent.parent / "bot" / "pictures" / "fonts"
REGULAR, BOLD = FONTS / "DejaVuSans.ttf", FONTS / "DejaVuSans-Bold.ttf"
WIDTH, HEIGHT = 1200, 1360
_rnd = random.Random(1)
_WORDS = ["Movement", "phase", "Whispering", "Forest", "Lantern", "Market", "Туманное"]
_WORDS += ["болото", "Alice", "Борис", "3/3", "Strength", "Speed", "Trap", "face", "down"]
BOXES = [
    (
        _rnd.randrange(0, WIDTH - 200),
        _rnd.randrange(0, HEIGHT - 100),
        _rnd.randrange(80, 300),
        _rnd.randrange(30, 200),
    )
    for _ in range(110)
]
TEXTS = [
    (
        _rnd.randrange(0, WIDTH - 300),
        _rnd.randrange(20, HEIGHT - 20),
        " ".join(_rnd.choice(_WORDS) for _ in range(_rnd.randrange(1, 5))),
        _rnd.choice([18, 20, 22, 24, 34]),
        _rnd.random() < 0.4,
    )
    for _ in range(220)
]


def pillow() -> Callable[[], bytes]:
    from PIL import Image, ImageDraw, ImageFont

    fonts = {
        (size, bold): ImageFont.truetype(
            str(BOLD if bold else REGULAR), size, layout_engine=ImageFont.Layout.BASIC
        )
        for size in (18, 20, 22, 24, 34)
        for bold in (False, True)
    }

    def run() -> bytes:
        image = Image.new("RGB", (WIDTH, HEIGHT), (27, 31, 42))
        draw = ImageDraw.Draw(image)
        for x, y, w, h in BOXES:
            box = (x, y, x + w, y + h)
            draw.rounded_rectangle(box, 10, fill=(246, 241, 228), outline=(0, 0, 0), width=2)
        for x, y, text, size, bold in TEXTS:
            draw.text((x, y), text, font=fonts[size, bold], fill=(26, 26, 26))
        palette = image.reduce(3).quantize(256, method=Image.Quantize.FASTOCTREE)
        quantized = image.quantize(palette=palette, dither=Image.Dither.NONE)
        buffer = io.BytesIO()
        quantized.save(buffer, "PNG", compress_level=3)
        return buffer.getvalue()

    return run


def cairosvg() -> Callable[[], bytes]:
    import cairosvg as svg

    def run() -> bytes:
        parts = [
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}">'
            f'<rect width="{WIDTH}" height="{HEIGHT}" fill="#1b1f2a"/>'
        ]
        for x, y, w, h in BOXES:
            parts.append(
                f'<rect x="{x}" y="{y}" width="{w}" height="{h}" rx="10" fill="#f6f1e4" '
                'stroke="#000" stroke-width="2"/>'
            )
        for x, y, text, size, bold in TEXTS:
            weight = "bold" if bold else "normal"
            parts.append(
                f'<text x="{x}" y="{y}" font-family="DejaVu Sans" font-size="{size}" '
                f'font-weight="{weight}" fill="#1a1a1a">{escape(text)}</text>'
            )
        parts.append("</svg>")
        png: bytes = svg.svg2png(bytestring="".join(parts).encode())
        return png

    return run


def skia(encode: bool = True) -> Callable[[], bytes]:
    import skia as sk

    faces = {
        False: sk.Typeface.MakeFromFile(str(REGULAR)),
        True: sk.Typeface.MakeFromFile(str(BOLD)),
    }

    def run() -> bytes:
        surface = sk.Surface(WIDTH, HEIGHT)
        canvas = surface.getCanvas()
        canvas.clear(sk.Color(27, 31, 42))
        fill = sk.Paint(Color=sk.Color(246, 241, 228), AntiAlias=True)
        stroke = sk.Paint(
            Color=sk.ColorBLACK, AntiAlias=True, Style=sk.Paint.kStroke_Style, StrokeWidth=2
        )
        ink = sk.Paint(Color=sk.Color(26, 26, 26), AntiAlias=True)
        for x, y, w, h in BOXES:
            box = sk.RRect.MakeRectXY(sk.Rect.MakeXYWH(x, y, w, h), 10, 10)
            canvas.drawRRect(box, fill)
            canvas.drawRRect(box, stroke)
        for x, y, text, size, bold in TEXTS:
            canvas.drawString(text, x, y, sk.Font(faces[bold], size), ink)
        image = surface.makeImageSnapshot()
        return bytes(image.encodeToData()) if encode else b""

    return run


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20, help="runs of each, the median kept")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    makers: dict[str, Callable[[], Callable[[], bytes]]] = {
        "pillow": pillow,
        "cairosvg": cairosvg,
        "skia": skia,
        "skia_drawing_only": lambda: skia(encode=False),
    }
    report: dict[str, Any] = {"runs": args.runs, "clock": "process_time"}
    for name, make in makers.items():
        try:
            run = make()
        except ImportError:
            report[name] = None
            continue
        run()
        times, size = [], 0
        for _ in range(args.runs):
            start = time.process_time()
            size = len(run())
            times.append(time.process_time() - start)
        report[name] = {"ms": round(1000 * statistics.median(times), 1), "kb": size // 1024}
    if args.json:
        print(json.dumps(report))
        return 0
    for name in makers:
        result = report[name]
        shown = f"{result['ms']} ms, {result['kb']} KB" if result else "not installed"
        print(f"{name:<18} {shown}", file=sys.stdout)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
