"""Reading the JSON files the tools take (game records, scenarios), with one-line errors."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any


def read_json(
    path: str | Path, error: type[Exception], where: str = "", stdin: bool = False
) -> Any:
    """The JSON value in the file at ``path`` (standard input for ``-`` when ``stdin``).

    A file that cannot be read or is not JSON raises ``error`` with one line, ``where``
    before it (the file's name, when the caller's messages name it)."""
    try:
        if stdin and str(path) == "-":
            text = sys.stdin.read()
        else:
            text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise error(f"{where}cannot read: {exc.strerror or exc}") from None
    except UnicodeDecodeError:  # a binary file (issue 24, fault 8: it was a traceback)
        raise error(f"{where}cannot read: not UTF-8 text") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise error(f"{where}not valid JSON: {exc.msg} (line {exc.lineno})") from None
