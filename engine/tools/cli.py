"""The ``anima`` command: engine tools (cards, scenarios, simulations, replays, a game in the
terminal)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

import replay_viewer
from engine.cards import CARD_TYPES, CardDataError, load_cards
from engine.tools import play, replay, scenario, simulate_command, verify


def _cmd_cards_validate(args: argparse.Namespace) -> int:
    try:
        db = load_cards(args.path)
    except CardDataError as exc:
        for problem in exc.problems:
            print(problem, file=sys.stderr)
        print(f"{len(exc.problems)} problem(s) found", file=sys.stderr)
        return 1
    for set_name, counts in sorted(db.composition().items()):
        total = sum(counts[t] for t in CARD_TYPES)
        printed, stand_in = counts["source:printed"], counts["source:stand-in"]
        print(f"{set_name}: {total} cards ({printed} printed, {stand_in} stand-in)")
        for card_type in CARD_TYPES:
            line = f"  {card_type}: {counts[card_type]}"
            kinds = sorted(k for k in counts if k.startswith(f"{card_type}:"))
            if kinds:
                line += " (" + ", ".join(f"{k.split(':')[1]} {counts[k]}" for k in kinds) + ")"
            print(line)
    print(f"total: {len(db)} cards, all valid")
    return 0


def build_parser() -> argparse.ArgumentParser:
    """The ``anima`` argument parser; each tool registers a subcommand here."""
    parser = argparse.ArgumentParser(prog="anima", description="Anima engine tools")
    sub = parser.add_subparsers(dest="command", required=True)

    cards = sub.add_parser("cards", help="card data tools")
    cards_sub = cards.add_subparsers(dest="cards_command", required=True)
    validate = cards_sub.add_parser("validate", help="validate a cards file")
    validate.add_argument("path", nargs="?", default=None, help="cards file (default: cards.json)")
    validate.set_defaults(func=_cmd_cards_validate)
    scenario.register(sub)
    simulate_command.register(sub)
    # The replay page (``--html``) is written by the top-level ``replay_viewer``, which words
    # through ``wording``: it adds its options to the command here, where nothing of the
    # engine's public face (which ``wording`` imports) is in its way.
    replay_viewer.register_html(replay.register(sub))
    verify.register(sub)
    play.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``anima`` console script."""
    parser = build_parser()
    args = parser.parse_args(argv)
    result: int = args.func(args)
    return result


if __name__ == "__main__":
    raise SystemExit(main())
