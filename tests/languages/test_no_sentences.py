"""No module of the bot, the wording, nor the terminal, writes a sentence a player reads
outside the catalogs (issue 22): an AST scan for string literals that hold words.

A literal is flagged when it holds two words (letters, a space, letters) and is not:
a docstring; a logging call's text (for the operator, in English); an exception's text
(raised for the code or the log, never shown: the bot words every refusal from its kind);
an ``assert``'s; SQL; an ``argparse`` help (the operator's command line); a crash-test
step's name (``kill_point``); or an identifier without a space (a message id, a component's
custom id or its pattern: ``anima:lobby:``).
Everything else a player reads is a catalog id and its arguments."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
#: Modules that speak to the operator alone (the command line, the settings read at start,
#: the storage layer's SQL and its crash-test step names, the catalogs' own tool).
FOR_THE_OPERATOR = {
    "bot/__main__.py",
    "bot/settings.py",
    "bot/storage",  # the package: every module of it
    "bot/database",  # the package: every module of it
    "bot/integrity.py",  # the database file's health, told at start and by `anima-bot backup`
    "bot/migrate.py",  # `anima-bot migrate`: its one line
    "words/extract.py",
}
#: The front ends' code: the bot, the words, the wording of the engine's data, and the
#: terminal.
SCANNED = [
    path
    for folder in ("bot", "words", "wording", "engine/tools/play")
    for path in sorted((ROOT / folder).rglob("*.py"))
    if str(path.relative_to(ROOT)) not in FOR_THE_OPERATOR
    and str(path.parent.relative_to(ROOT)) not in FOR_THE_OPERATOR
]
WORDS = re.compile(r"[^\W\d_]{2,}[ ,;:'\u2019]+[^\W\d_]{2,}")
SQL = re.compile(
    r"^\s*(SELECT|INSERT|UPDATE|DELETE|CREATE|ALTER|DROP|WITH|PRAGMA|BEGIN|COMMIT|VACUUM|"
    r"ON CONFLICT|WHERE|FROM|VALUES|ORDER BY|GROUP BY|END|INTO|AND|OR|SET|JOIN|LIMIT)\b"
    r"|\b(FROM|WHERE|VALUES|SET|JOIN|IS NULL|NOT NULL|INTEGER|TEXT)\b"
)
LOG_METHODS = {"debug", "info", "warning", "error", "exception", "critical", "log"}
LOGGERS = {"log", "logger", "logging", "LOG"}
#: argparse's calls, and the tools' helper that adds the table's options to a command line.
ARGPARSE = {
    "add_argument",
    "add_parser",
    "ArgumentParser",
    "add_subparsers",
    "add_table_arguments",
}
#: Calls whose strings name things for the code and its tests (crash-test steps).
FOR_THE_CODE = {"kill_point"}


def _docstrings(tree: ast.AST) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                found.add(id(body[0].value))
        # A constant's or attribute's "#:" doc is a comment; a bare string after an
        # assignment is an attribute docstring.
        if isinstance(node, ast.Module | ast.ClassDef):
            for a, b in zip(node.body, node.body[1:], strict=False):
                if (
                    isinstance(a, ast.Assign | ast.AnnAssign)
                    and isinstance(b, ast.Expr)
                    and isinstance(b.value, ast.Constant)
                ):
                    found.add(id(b.value))
    return found


def _exempt(node: ast.AST) -> bool:
    """A node whose strings are for the code, the log or the operator."""
    if isinstance(node, ast.Raise | ast.Assert):
        return True
    if isinstance(node, ast.Call):
        f = node.func
        if isinstance(f, ast.Attribute):
            if f.attr in LOG_METHODS and isinstance(f.value, ast.Name) and f.value.id in LOGGERS:
                return True
            if f.attr in ARGPARSE:
                return True
        if isinstance(f, ast.Name) and (f.id in ARGPARSE or f.id in FOR_THE_CODE):
            return True
    return False


def sentences(path: Path) -> Iterator[tuple[int, str]]:
    """The flagged literals of one module: (line, text)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docs = _docstrings(tree)
    exempt: set[int] = set()
    for node in ast.walk(tree):
        if _exempt(node):
            exempt.update(id(n) for n in ast.walk(node))
    for node in ast.walk(tree):
        if not isinstance(node, ast.Constant) or not isinstance(node.value, str):
            continue
        text = node.value
        if id(node) in docs or id(node) in exempt or SQL.search(text):
            continue
        if not any(c.isspace() for c in text):  # an identifier: an id, a custom id
            continue
        if WORDS.search(text):
            yield node.lineno, text


def test_no_sentence_outside_the_catalogs() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{line}: {text[:70]!r}"
        for path in SCANNED
        for line, text in sentences(path)
    ]
    assert found == [], "\n".join(found)


def test_the_scan_finds_a_sentence() -> None:
    tree = "x = 1\nsend('You draw a card')\nlog.info('logged for the operator')\n"
    path = ROOT / "tests" / "languages" / "_probe.py"
    try:
        path.write_text(tree, encoding="utf-8")
        assert [t for _, t in sentences(path)] == ["You draw a card"]
    finally:
        path.unlink()
