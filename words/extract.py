"""``python -m words.extract [cards.json]``: write the English mirror of the cards' words,
``words/locales/en/LC_MESSAGES/cards.po``, the source a translator of the cards works from
(``make catalogs``; a test fails when it is not current)."""

from __future__ import annotations

import json
import sys
from io import BytesIO
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.pofile import write_po

from words.cards import card_strings

HERE = Path(__file__).parent
MIRROR = HERE / "locales" / "en" / "LC_MESSAGES" / "cards.po"


def cards_po(cards: list[dict[str, object]]) -> bytes:
    """The English cards catalog of a cards.json's cards."""
    po = Catalog(locale="en", domain="cards", project="anima-bot", charset="utf-8")
    for card in cards:
        source = card.get("source", "")
        for id, english in card_strings(card).items():
            po.add(id, english, auto_comments=[f"{card['id']} ({source})"])
    out = BytesIO()
    write_po(out, po, width=100, omit_header=True, sort_output=False, no_location=True)
    header = (
        "# The cards' words in English, written from cards.json by `make catalogs`: the\n"
        "# source of every language's cards.po (never edited by hand).\n"
        'msgid ""\nmsgstr ""\n"Language: en\\n"\n"Plural-Forms: nplurals=2; plural=(n != 1);\\n"\n'
        '"Content-Type: text/plain; charset=utf-8\\n"\n\n'
    )
    return header.encode() + out.getvalue()


def main(argv: list[str] | None = None) -> int:
    """Write the mirror from ``cards.json`` (the repository's, or the path given)."""
    args = sys.argv[1:] if argv is None else argv
    path = Path(args[0]) if args else HERE.parent / "cards.json"
    MIRROR.write_bytes(cards_po(json.loads(path.read_text(encoding="utf-8"))))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
