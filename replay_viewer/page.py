"""The replay page: one HTML file, its style, its script and its data inside it.

Nothing is fetched: no font, no picture, no script from elsewhere (a Content-Security-Policy
in the page forbids it too), so the file opens offline and from a Discord attachment alike.
The data (:func:`replay_viewer.frames.page_data`) is JSON, gzipped and in base64; the
browser unpacks it with its own ``DecompressionStream`` (every current browser has it), which
makes a long game's page about ten times smaller than the JSON.
"""

from __future__ import annotations

import base64
import gzip
import html
import json
import re
from collections.abc import Mapping
from importlib.resources import files
from typing import Any

from engine import CardDB, GameRecord
from replay_viewer.frames import page_data
from words import current, msg, say

#: The page's own words: message id -> its key in the script's ``labels``.
LABELS = {
    "replay.first": "first",
    "replay.previous": "previous",
    "replay.next": "next",
    "replay.last": "last",
    "replay.step": "step",
    "replay.view.public": "public",
    "replay.view.seat": "seat",
    "replay.lines": "lines",
    "replay.earlier": "earlier",
    "replay.nothing": "nothing",
    "replay.acts": "acts",
    "replay.private": "private",
    "replay.parties": "parties",
    "replay.regions": "regions",
    "replay.regions.none": "noRegions",
    "replay.region.columns": "columns",
    "replay.keys": "keys",
}

#: The Content-Security-Policy of the page: its own inline style and script, nothing else.
POLICY = (
    "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; "
    "img-src data:; connect-src 'none'; base-uri 'none'; form-action 'none'"
)


#: A place in page.html: ``{{name}}``.
_PLACE = re.compile(r"\{\{(\w+)\}\}")


def _asset(name: str) -> str:
    return files("replay_viewer").joinpath(name).read_text(encoding="utf-8")


def packed(data: dict[str, Any]) -> str:
    """``data`` as gzipped JSON in base64 (deterministic: no time in the gzip header)."""
    raw = json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode()
    return base64.b64encode(gzip.compress(raw, compresslevel=9, mtime=0)).decode("ascii")


def replay_page(
    record: GameRecord,
    names: Mapping[str, str] | None = None,
    title: str | None = None,
    cards: CardDB | None = None,
) -> str:
    """The replay page of ``record``, said in the current language (``words.speaking``).

    ``names``: each seat's display name (by default its id); ``title``: the page's heading
    (by default the catalog's). Raises :class:`engine.tools.replay.ReplayError` if the
    record cannot be replayed."""
    data = page_data(record, names or {}, cards)
    # A label's {places} stay for the script to fill (the step's number, a seat's name).
    places = {"step": "{step}", "steps": "{steps}", "player": "{player}"}
    data["labels"] = {key: say(msg(id, **places)) for id, key in LABELS.items()} | {
        "names": data["labels"]
    }
    heading = title or say(msg("replay.title"))
    players = ", ".join(data["seats"])
    values = {
        "lang": current(),
        "policy": POLICY,
        "title": html.escape(heading),
        "players": players,
        "nojs": html.escape(say(msg("replay.no_script"))),
        "old": html.escape(say(msg("replay.old_browser"))),
        "style": _asset("viewer.css"),
        "script": _asset("viewer.js"),
        "data": packed(data),
    }
    # One pass: a value (a display name, the data) is never read for another's place.
    return _PLACE.sub(lambda m: values[m[1]], _asset("page.html"))
