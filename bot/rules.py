"""The rules digest (``DIGEST.md``) as topics for ``/anima rules``.

A topic is a section (``## B — Battles and checks``) or one rule (``- **B3** …``). The file
is read once per path; a missing file gives an empty digest and a clear message.

The digest is English; the few words the bot adds around it (a section's label, a search's
title) are the catalogs', in the current language.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from words import msg, say

SECTION = re.compile(r"^##\s+([A-Z])\s+[—-]\s+(.+?)\s*$")
RULE = re.compile(r"^-\s+\*\*([A-Z][0-9]+)\*\*\s*(.*)$")


@dataclass
class Rule:
    id: str
    section: str
    text: str


@dataclass
class Section:
    letter: str
    title: str
    rules: list[Rule] = field(default_factory=list)


@dataclass
class Digest:
    """Sections and rules, in file order."""

    path: Path
    sections: list[Section]
    #: Why the digest could not be read (the system's reason and the path), else None.
    error: str | None = None

    @property
    def rules(self) -> list[Rule]:
        return [r for s in self.sections for r in s.rules]

    def rule(self, rule_id: str) -> Rule | None:
        return next((r for r in self.rules if r.id.upper() == rule_id.upper()), None)

    def section(self, letter: str) -> Section | None:
        return next((s for s in self.sections if s.letter.upper() == letter.upper()), None)

    def topics(self, query: str, limit: int = 25) -> list[tuple[str, str]]:
        """(label, value) pairs for autocomplete: sections and rules matching ``query``."""
        q = query.strip().lower()
        out: list[tuple[str, str]] = []
        for s in self.sections:
            label = say(msg("rules.section", letter=s.letter, title=s.title))
            if not q or q in label.lower() or q == s.letter.lower():
                out.append((label, f"section:{s.letter}"))
        for r in self.rules:
            label = f"{r.id} — {r.text}"
            if not q or q == r.id.lower() or q in label.lower():
                out.append((label, r.id))
        # Exact ids first, then sections, then the rest in file order.
        out.sort(key=lambda lv: (lv[1].lower() != q, not lv[1].startswith("section:")))
        return [(clip(label, 100), value) for label, value in out[:limit]]

    def lookup(self, topic: str) -> tuple[str, str] | None:
        """(title, text) for a topic value, a rule id, a section letter or free words."""
        t = topic.strip()
        if t.lower().startswith("section:"):
            t = t.split(":", 1)[1]
        if len(t) == 1 and (sec := self.section(t)):
            body = "\n".join(f"**{r.id}** {r.text}" for r in sec.rules)
            return f"{sec.letter} — {sec.title}", body
        if rule := self.rule(t):
            sec = self.section(rule.section)
            title = f"{rule.id} ({sec.title})" if sec else rule.id
            return title, rule.text
        words = [w for w in re.findall(r"\w+", t.lower()) if len(w) > 2]
        if not words:
            return None
        hits = [r for r in self.rules if all(w in r.text.lower() for w in words)]
        if not hits:
            return None
        title = say(msg("rules.search", words=clip(t, 60)))
        return title, "\n".join(f"**{r.id}** {r.text}" for r in hits[:8])


def clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def parse(text: str, path: Path) -> Digest:
    sections: list[Section] = []
    rule: Rule | None = None
    for line in text.splitlines():
        if m := SECTION.match(line):
            sections.append(Section(m.group(1), m.group(2)))
            rule = None
        elif sections and (m := RULE.match(line)):
            rule = Rule(m.group(1), sections[-1].letter, m.group(2).strip())
            sections[-1].rules.append(rule)
        elif rule is not None and line.startswith("  ") and line.strip():
            # A continuation line of the rule (indented), or a sub-bullet of it.
            rule.text += ("\n" if line.strip().startswith("-") else " ") + line.strip()
        elif not line.strip():
            rule = None
    return Digest(path, sections)


@cache
def load(path: Path) -> Digest:
    """The digest at ``path`` (cached); a missing file gives an empty digest with an error."""
    try:
        return parse(path.read_text(encoding="utf-8"), path)
    except OSError as exc:
        return Digest(path, [], f"{exc.strerror}: {path}")
