"""Every rule of the digest is proved by a test named after it and cited by the code that
enforces it, and ``docs/rules-map.md`` leads from each rule ID to that code in one step."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
DIGEST = REPO / "docs" / "rules" / "DIGEST.md"
RULES_MAP = REPO / "docs" / "rules-map.md"

#: A map row: ``| F7 | what | `engine/rules/crisis.py`, ... |``.
_ROW = re.compile(r"^\| ([A-Z]\d+) \| [^|]* \| ([^|]*) \|$", re.M)


@cache
def rule_ids() -> tuple[str, ...]:
    """The IDs of the digest, in its order (``- **B3** ...``)."""
    return tuple(re.findall(r"^- \*\*([A-Z]\d+)\*\*", DIGEST.read_text(encoding="utf-8"), re.M))


@cache
def source_texts() -> dict[str, str]:
    """The engine's and the bot's modules, by path relative to the repository."""
    paths = sorted([*(REPO / "engine").rglob("*.py"), *(REPO / "bot").rglob("*.py")])
    return {p.relative_to(REPO).as_posix(): p.read_text(encoding="utf-8") for p in paths}


@cache
def named_tests() -> tuple[str, ...]:
    names: list[str] = []
    for path in (REPO / "tests").rglob("*.py"):
        names += re.findall(r"^\s*def (test_\w+)\(", path.read_text(encoding="utf-8"), re.M)
    return tuple(names)


def cites(text: str, rule: str) -> bool:
    """``rule`` stands in ``text`` as a word (F1 is not cited by F10)."""
    return re.search(rf"(?<![A-Za-z0-9]){rule}(?![0-9])", text) is not None


def test_the_digest_has_its_rules() -> None:
    ids = rule_ids()
    assert len(ids) == len(set(ids)) >= 80
    assert {"G1", "M10", "F7", "X6"} <= set(ids)


def test_every_rule_is_named_by_a_test() -> None:
    names = named_tests()
    untested = [
        rule for rule in rule_ids() if not any(re.search(rf"_{rule}(?:_|$)", n) for n in names)
    ]
    assert untested == [], f"no test is named after {untested}"


def test_every_rule_is_cited_by_the_code_that_enforces_it() -> None:
    texts = source_texts()
    uncited = [rule for rule in rule_ids() if not any(cites(t, rule) for t in texts.values())]
    assert uncited == [], f"no module of engine/ or bot/ cites {uncited}"


def test_the_rules_map_leads_from_every_rule_to_modules_that_cite_it() -> None:
    rows = {rule: cell for rule, cell in _ROW.findall(RULES_MAP.read_text(encoding="utf-8"))}
    assert [r for r in rule_ids() if r not in rows] == [], "rules missing from docs/rules-map.md"
    assert [r for r in rows if r not in rule_ids()] == [], "rows for rules the digest lacks"
    texts = source_texts()
    wrong: list[str] = []
    for rule, cell in rows.items():
        modules = re.findall(r"`([^`]+)`", cell)
        if not modules:
            wrong.append(f"{rule}: no module named")
        for module in modules:
            if module not in texts:
                wrong.append(f"{rule}: {module} does not exist")
            elif not cites(texts[module], rule):
                wrong.append(f"{rule}: {module} does not cite it")
    assert wrong == []
