"""The wheel built from the project carries the card database (``engine/cards/cards.json``, a
symlink to the top-level ``cards.json`` in the checkout, a real file in the wheel) and the
installed package finds it.

The build runs offline from the test's own environment (``--no-build-isolation``: the dev
extras install setuptools) in a copy of the sources, so the checkout gets no ``build/`` folder.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
#: What a wheel is built from (the rest of the checkout is not packaged).
SOURCES = (
    "pyproject.toml",
    "README.md",
    "cards.json",
    "engine",
    "bot",
    "words",
    "wording",
    "replay_viewer",
)


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tmp = tmp_path_factory.mktemp("wheel")
    src = tmp / "src"
    src.mkdir()
    for name in SOURCES:
        path = ROOT / name
        if path.is_dir():
            ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
            shutil.copytree(path, src / name, symlinks=True, ignore=ignore)
        else:
            shutil.copy2(path, src / name)
    out = tmp / "dist"
    pip_wheel = [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation"]
    subprocess.run(
        [*pip_wheel, "--no-index", "--quiet", "--wheel-dir", str(out), str(src)],
        check=True,
        capture_output=True,
    )
    (built,) = out.glob("anima_bot-*.whl")
    return built


def test_the_package_links_to_the_one_card_database() -> None:
    link = ROOT / "engine" / "cards" / "cards.json"
    assert link.is_symlink()
    assert os.readlink(link) == os.path.join("..", "..", "cards.json")
    assert link.resolve() == (ROOT / "cards.json").resolve()


def test_the_wheel_holds_the_card_database(wheel: Path) -> None:
    with zipfile.ZipFile(wheel) as archive:
        data = archive.read("engine/cards/cards.json")
        names = archive.namelist()
    assert data == (ROOT / "cards.json").read_bytes()
    assert "cards.json" not in names  # one copy, inside the package
    assert "engine/py.typed" in names
    # The terminal words the engine's data with the bot's wording and the catalogs.
    assert "wording/py.typed" in names
    assert "words/locales/es/LC_MESSAGES/terminal.po" in names
    # The replay page's template, style and script (replay_viewer).
    for asset in ("page.html", "viewer.css", "viewer.js", "py.typed"):
        assert f"replay_viewer/{asset}" in names
    # The pictures' font and its licence (bot/pictures/fonts).
    assert "bot/pictures/fonts/DejaVuSans.ttf" in names
    assert "bot/pictures/fonts/DejaVuSans-Bold.ttf" in names
    assert "bot/pictures/fonts/LICENSE" in names


def test_the_installed_package_loads_the_cards(wheel: Path, tmp_path: Path) -> None:
    site = tmp_path / "site"
    pip_install = [sys.executable, "-m", "pip", "install", "--no-deps", "--no-index", "--quiet"]
    subprocess.run(
        [*pip_install, "--target", str(site), str(wheel)], check=True, capture_output=True
    )
    script = (
        "import json, engine.cards as c;"
        "from engine.tools.cli import main;"
        "db = c.default_cards();"
        "print(json.dumps({'file': c.DEFAULT_CARDS_PATH.as_posix(), 'cards': len(db),"
        " 'link': c.DEFAULT_CARDS_PATH.is_symlink()}));"
        "raise SystemExit(main(['cards', 'validate']))"
    )
    env = {**os.environ, "PYTHONPATH": str(site)}
    run = subprocess.run(
        [sys.executable, "-c", script], cwd=tmp_path, env=env, capture_output=True, text=True
    )
    assert run.returncode == 0, run.stderr
    first, *validate = run.stdout.splitlines()
    found = json.loads(first)
    assert found["file"] == (site / "engine" / "cards" / "cards.json").as_posix()
    assert not found["link"]
    assert found["cards"] == len(json.loads((ROOT / "cards.json").read_text(encoding="utf-8")))
    assert any(line.startswith("shadow_of_omega: 110 cards (") for line in validate)
    assert validate[-1] == f"total: {found['cards']} cards, all valid"
