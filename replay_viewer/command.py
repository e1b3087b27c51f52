"""``anima replay FILE --html OUT [--language es]``: the replay page written to a file.

The options are added to ``anima replay``'s own parser (``engine.tools.replay.register``);
without ``--html`` the command prints the public log as before."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

from engine import ReplayError, load_record
from replay_viewer.page import replay_page
from words import LANGUAGES, SOURCE, speaking


def write_page(args: argparse.Namespace) -> int:
    """Write the replay page of ``args.file`` to ``args.html``; one line printed, 0, or one
    line on standard error and 1 (a record that cannot be replayed, a file not written)."""
    try:
        record = load_record(args.file)
        with speaking(args.language):
            page = replay_page(record)
    except ReplayError as exc:
        print(f"anima replay: {args.file}: {exc}", file=sys.stderr)
        return 1
    try:
        Path(args.html).write_text(page, encoding="utf-8")
    except OSError as exc:
        print(f"anima replay: cannot write {args.html}: {exc.strerror}", file=sys.stderr)
        return 1
    size = len(page.encode())
    print(f"{args.html}: {len(record.actions) + 1} steps, {size / 1024:.0f} KiB")
    return 0


def register_html(cmd: argparse.ArgumentParser) -> None:
    """Add ``--html`` and ``--language`` to ``anima replay`` (``cmd``, its parser)."""
    cmd.add_argument(
        "--html",
        metavar="OUT",
        default=None,
        help="write the replay page to OUT instead: one HTML file that steps through the game "
        "in a browser, in every player's view (nothing fetched; docs/replay.md)",
    )
    cmd.add_argument(
        "--language", choices=LANGUAGES, default=SOURCE, help="the page's language (default en)"
    )
    log: Callable[[argparse.Namespace], int] = cmd.get_default("func")

    def run(args: argparse.Namespace) -> int:
        return write_page(args) if args.html is not None else log(args)

    cmd.set_defaults(func=run)
