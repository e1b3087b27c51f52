"""Reading a replay page (replay_viewer) in tests: its data unpacked as the page's script
unpacks it, each view's board at each step rebuilt from the frames, and the checks that the
file fetches nothing."""

from __future__ import annotations

import base64
import gzip
import json
import re
from typing import Any

from engine.tools.replay import GameRecord, replay

#: What would make a browser fetch something: an address with a scheme or a host, an element
#: that loads one, CSS that imports one, a script that asks the network.
FETCHES = re.compile(
    r"https?:|//[a-z0-9]|<link\b|<img\b|<iframe\b|<object\b|<embed\b|\bsrc\s*=|@import|url\(|"
    r"\bfetch\(|XMLHttpRequest|WebSocket|EventSource|sendBeacon|\bimport\(",
    re.IGNORECASE,
)


def unpack(page: str) -> dict[str, Any]:
    """The page's data (gzipped JSON in base64 in ``<script id="data">``)."""
    found = re.search(r'<script id="data" type="application/octet-stream">([^<]*)</script>', page)
    assert found is not None, "the page holds no data"
    data: dict[str, Any] = json.loads(gzip.decompress(base64.b64decode(found[1])))
    return data


def boards(data: dict[str, Any]) -> list[list[list[str]]]:
    """Every step's board in every view (0: the public one), as its blocks' strings."""
    strings = data["strings"]
    now: list[list[int]] = [[] for _ in range(len(data["seats"]) + 1)]
    out = []
    for step in data["steps"]:
        for view, frame in enumerate(step[3]):
            if isinstance(frame, list):
                now[view] = frame
            elif isinstance(frame, dict):
                changed = now[view][: frame["n"]]
                for i in range(0, len(frame["d"]), 2):
                    changed[frame["d"][i]] = frame["d"][i + 1]
                now[view] = changed
        out.append([[strings[i] for i in blocks] for blocks in now])
    return out


def assert_self_contained(page: str) -> None:
    """The page loads nothing from anywhere: no address, no element or rule that fetches, a
    Content-Security-Policy that forbids it anyway (the data is checked too, unpacked)."""
    assert page.startswith("<!doctype html>")
    assert "default-src 'none'" in page and "connect-src 'none'" in page
    outside_data = re.sub(r'(<script id="data"[^>]*>)[^<]*', r"\1", page)
    found = FETCHES.findall(outside_data)
    assert not found, found
    inside = json.dumps(unpack(page), ensure_ascii=False)
    assert not FETCHES.findall(inside), FETCHES.findall(inside)


def hidden_at(record: GameRecord, step: int, seat: str) -> tuple[str, ...]:
    """The cards ``seat`` holds after ``step`` (its hand and secret missions) that the table
    does not see."""
    game = replay(record, until=step)
    view = game.seat_view(seat, sealed=False)
    public = game.table_view().model_dump_json()
    return tuple(c for c in view.hand + view.missions if f'"{c}"' not in public)
