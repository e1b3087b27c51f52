"""The simulation report's page (:mod:`engine.tools.report`): ``index.html``, its tables and
notes around the plots, section by section.

Every figure of the page comes from the summary's dictionary (what ``--json`` prints) or from
the card rows, so the page and the JSON never disagree. The pace section reads the ``pace``
key and the ``turns`` quartiles when the simulator reports them, and is left out otherwise.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Sequence
from typing import Any

from engine.cards import default_cards
from engine.endings import ENDINGS
from engine.tools.report_plots import MIN_HOLDERS
from engine.tools.simulate import Summary

_STYLE = """
body { font-family: system-ui, sans-serif; max-width: 60rem; margin: 2rem auto; padding: 0 1rem;
       color: #222; }
table { border-collapse: collapse; font-size: 0.9rem; }
th, td { border-bottom: 1px solid #ddd; padding: 0.2rem 0.6rem; text-align: right; }
th:first-child, td:first-child, td.text { text-align: left; }
figure { margin: 1.5rem 0; }
figcaption { font-weight: bold; margin-bottom: 0.3rem; }
.low { color: #999; }
.note { background: #f6f6f0; border-left: 3px solid #c9b458; padding: 0.4rem 0.8rem; }
"""

#: How the page names the pace figures of the summary's ``pace`` key (others: their key).
PACE_LABELS = {
    "first_basic_mission_turn_median": "first Basic mission completed (median turn)",
    "final_revealed_turn_median": "Final mission revealed (median turn)",
    "crisis_countdown_median": "Crisis! countdown set to (median)",
    "winners_with_two_basic_missions": "winners who had completed both Basic missions",
}

esc = html.escape


def render_page(
    summary: Summary,
    d: dict[str, Any],
    images: Sequence[tuple[str, str, str]],
    rows: Sequence[dict[str, Any]],
    command: str,
) -> str:
    """The page: ``d`` is ``summary.deterministic()``, ``images`` (section, caption, file)
    the plots written, ``rows`` the card rows (engine.tools.report)."""
    out = [
        "<!doctype html>",
        '<html lang="en"><head><meta charset="utf-8">',
        "<title>Anima simulation report</title>",
        f"<style>{_STYLE}</style></head><body>",
        "<h1>Anima simulation report</h1>",
    ]
    if command:
        out.append(f"<p>Made with <code>{esc(command)}</code>.</p>")
    out += _facts(d)

    def figures(section: str) -> list[str]:
        return [
            f'<figure><figcaption>{esc(caption)}</figcaption><img src="{esc(name)}" '
            f'alt="{esc(caption)}"></figure>'
            for sec, caption, name in images
            if sec == section
        ]

    out += ["<h2>How long games last</h2>", *figures("games")]
    pace = _pace(d)
    if pace or figures("pace"):
        out += ["<h2>Pace</h2>", *pace, *figures("pace")]
    out += [*_endings(summary, d), *figures("endings")]
    out += [*_wins(d), *figures("wins")]
    out += [*_regions(d, summary.games - d["errors"]), *figures("regions")]
    out += [*_encounters(d), *figures("encounters")]
    out += _cards_note(summary, rows)
    advantages = [r for r in rows if r["type"] == "advantage"]
    characters = [r for r in rows if r["type"] == "character"]
    out += ["<h3>Advantages: one card, one use</h3>", *figures("advantages")]
    out += _card_table(advantages, ("plays", "per game"), lambda r: [r["plays"], r["per_game"]])
    out += [
        "<h3>Characters: hired, and abilities used turn after turn</h3>",
        "<p>The plot shows the characters with an ability a party uses; the others only fight "
        "and are counted when hired.</p>",
        *figures("characters"),
    ]
    out += _card_table(
        characters,
        ("hired", "ability uses", "per game"),
        # A use per game of an ability, not of a hire: the two are not the same kind of use.
        lambda r: [
            r["hires"],
            *([r["abilities"], r["abilities_per_game"]] if r["has_ability"] else ["-", "-"]),
        ],
    )
    out.append("</body></html>")
    return "\n".join(out) + "\n"


def _facts(d: dict[str, Any]) -> list[str]:
    t = d["turns"]
    turns = f"min {t['min']}, median {t['median']}, max {t['max']}"
    if "p25" in t and "p75" in t:
        turns += f"; middle half {t['p25']}-{t['p75']}"
    facts = [
        ("games", f"{d['games']} (seeds {d['seeds'][0]}-{d['seeds'][1]}), {d['errors']} errors"),
        (
            "players",
            f"{d['players']}: " + ", ".join(f"{s} {lv}" for s, lv in d["seat_levels"].items()),
        ),
        ("sets", ", ".join(d["sets"])),
        ("turn limit", str(d["turn_cap"] or "none")),
        ("turns", turns),
    ]
    out = ["<table>"]
    out.extend(f"<tr><th>{esc(k)}</th><td class='text'>{esc(v)}</td></tr>" for k, v in facts)
    out.append("</table>")
    return out


def _value_text(key: str, value: Any) -> str:
    """A pace figure as the page shows it: a share as a percentage, a rate entry with its
    interval, a number as it is, a missing one as a dash."""
    if value is None:
        return "-"
    if isinstance(value, dict) and "rate" in value:
        low, high = value.get("ci95", (0.0, 1.0))
        return f"{value['rate']:.0%} ({value.get('wins')}/{value.get('of')}; {low:.0%}-{high:.0%})"
    if isinstance(value, float) and key.startswith("winners_"):
        return f"{value:.0%}"
    return f"{value:g}" if isinstance(value, float) else esc(str(value))


def _pace(d: dict[str, Any]) -> list[str]:
    """The ``pace`` figures of the summary, as a table (none: an empty list)."""
    pace = d.get("pace")
    if not isinstance(pace, dict):
        return []
    if all(v is None for k, v in pace.items() if k.endswith("_median")):
        return []  # nothing of the kind happened in the run
    out = [
        "<p>When a game's missions come: the first Basic mission completed by anyone, the "
        "Final mission revealed, and the value the Crisis! countdown was set to (the number "
        "of turns left). A game in which it never happened has no value.</p>",
        "<table><tr><th>figure</th><th>value</th></tr>",
    ]
    out.extend(
        f"<tr><td>{esc(PACE_LABELS.get(k, k.replace('_', ' ')))}</td>"
        f"<td>{_value_text(k, v)}</td></tr>"
        for k, v in pace.items()
    )
    out.append("</table>")
    return out


def _endings(summary: Summary, d: dict[str, Any]) -> list[str]:
    finished = summary.games - d["errors"]
    out = ["<h2>How games end</h2><table><tr><th>ending</th><th>games</th><th>share</th></tr>"]
    for key, label in ENDINGS.items():
        n = d["endings"][key]
        share = n / finished if finished else 0.0
        out.append(f"<tr><td>{esc(label)}</td><td>{n}</td><td>{share:.0%}</td></tr>")
    out.append("</table>")
    return out


def _wins(d: dict[str, Any]) -> list[str]:
    out = ["<h2>Wins</h2><table><tr><th>seat</th><th>level</th><th>won</th><th>rate</th>"]
    out.append("<th>95% interval</th></tr>")
    for seat, e in d["wins_per_seat"].items():
        out.append(
            f"<tr><td>{esc(seat)}</td><td class='text'>{esc(e['level'])}</td>"
            f"<td>{e['wins']}/{e['of']}</td><td>{e['rate']:.1%}</td>"
            f"<td>{e['ci95'][0]:.1%}-{e['ci95'][1]:.1%}</td></tr>"
        )
    out.append(f"<tr><td>nobody</td><td></td><td>{d['wins']['nobody']}</td><td></td><td></td></tr>")
    out.append("</table>")
    if len(d["wins_per_level"]) == 1:
        out.append("<p>Every seat plays at one AI level: no plot per level.</p>")
    return out


def _share(wins: int, of: int) -> str:
    return f"{wins}/{of} ({wins / of:.0%})" if of else "-"


def _regions(d: dict[str, Any], games: int) -> list[str]:
    db = default_cards()
    out = [
        "<h2>Regions</h2>",
        "<p>Arrivals: parties that arrived there. Fights: battles fought there to a result "
        "against an Encounter, a mission's foe or the Crisis!'s; party won: the share of them "
        "the party won. Of them, missions: the battles against a mission's or the Crisis!'s "
        "foe. Rival fights: battles between parties there.</p>",
        "<table><tr><th>Region</th><th>set</th><th>arrivals</th><th>per game</th>"
        "<th>fights</th><th>party won</th><th>of them, missions</th><th>party won</th>"
        "<th>rival fights</th></tr>",
    ]
    for region, e in d["regions"].items():
        per_game = e["visits"] / games if games else 0.0
        out.append(
            f"<tr><td>{esc(db[region].name)}</td><td class='text'>{esc(db[region].set)}</td>"
            f"<td>{e['visits']}</td><td>{per_game:.2f}</td><td>{e['fights']}</td>"
            f"<td>{_share(e['wins'], e['fights'])}</td><td>{e['mission_fights']}</td>"
            f"<td>{_share(e['mission_wins'], e['mission_fights'])}</td>"
            f"<td>{e['rival_fights']}</td></tr>"
        )
    out.append("</table>")
    return out


def _encounters(d: dict[str, Any]) -> list[str]:
    db = default_cards()
    out = [
        "<h2>Encounters</h2>",
        "<p>Met: revealed to a party. Fights: battles against it that reached a result; party "
        "won: the share the party won (a tie goes to the party, B2). Fled: parties that "
        "escaped it (E7).</p>",
        "<table><tr><th>Encounter</th><th>kind</th><th>set</th><th>met</th><th>fights</th>"
        "<th>party won</th><th>fled</th></tr>",
    ]
    for card, e in d["encounters"].items():
        out.append(
            f"<tr><td>{esc(db[card].name)}</td><td class='text'>{esc(e['kind'])}</td>"
            f"<td class='text'>{esc(db[card].set)}</td><td>{e['met']}</td><td>{e['fights']}</td>"
            f"<td>{_share(e['wins'], e['fights'])}</td><td>{e['fled']}</td></tr>"
        )
    out.append("</table>")
    return out


def _pooled(rows: Sequence[dict[str, Any]]) -> str:
    holders = sum(r["holders"] for r in rows)
    return f"{sum(r['holder_wins'] for r in rows) / holders:.0%}" if holders else "-"


def _seat_rate(summary: Summary) -> str:
    """The share of its games an average seat won (games nobody won count for none)."""
    finished = [r for r in summary.results if r.error is None]
    seats = len(finished) * summary.players
    won = sum(r.winner_seat is not None for r in finished)
    return f"{won / seats:.0%}" if seats else "-"


def _cards_note(summary: Summary, rows: Sequence[dict[str, Any]]) -> list[str]:
    advantages = [r for r in rows if r["type"] == "advantage"]
    abilities = [r for r in rows if r["type"] == "character" and r["has_ability"]]
    return [
        "<h2>Cards</h2>",
        "<p>Used: played (an Advantage), ability used or hired (a character). Holder won: "
        "of the (game, seat) pairs in which the seat used the card, the share the seat won "
        f"(fair share {1 / summary.players:.0%}). Grey: fewer than {MIN_HOLDERS} holders, too "
        "few to read (unlabelled on the plots).</p>",
        "<p class='note'><strong>“Holder won” favours the cards that winners use more.</strong> "
        "A seat that is ahead keeps its characters, hires more, draws and plays more cards "
        "and uses its abilities turn after turn: it is the holder of more cards, and each "
        "of them shares its win. So the holders of a card that does nothing still win more "
        f"often than a seat does on average ({_seat_rate(summary)} here, below the fair share "
        "when nobody wins some games), most of all for a card used often or late. Read a card "
        "against the dotted line, the rate of all holders of such cards together (Advantages "
        f"{_pooled(advantages)}, characters' abilities {_pooled(abilities)}), rather than "
        "against the fair share; a rate far from it with a narrow interval is a pointer to "
        "look at the card, not a verdict.</p>",
    ]


def _card_table(
    rows: Sequence[dict[str, Any]],
    heads: Sequence[str],
    counts: Callable[[dict[str, Any]], list[Any]],
) -> list[str]:
    """A table of card rows: name, type, set, source, ``counts(row)`` under ``heads``, games,
    holder won and its interval."""
    out = [
        "<table><tr><th>card</th><th>type</th><th>set</th><th>source</th>"
        + "".join(f"<th>{esc(h)}</th>" for h in heads)
        + "<th>games</th><th>holder won</th><th>95% interval</th></tr>"
    ]
    for r in rows:
        low = " class='low'" if r["holders"] < MIN_HOLDERS else ""
        rate = f"{r['holder_rate']:.0%}" if r["holders"] else "-"
        interval = f"{r['ci95'][0]:.0%}-{r['ci95'][1]:.0%}" if r["holders"] else "-"
        cells = "".join(
            f"<td>{c:.2f}</td>" if isinstance(c, float) else f"<td>{c}</td>" for c in counts(r)
        )
        out.append(
            f"<tr{low}><td>{esc(r['name'])}</td><td class='text'>{esc(r['type'])}</td>"
            f"<td class='text'>{esc(r['set'])}</td><td class='text'>{esc(r['source'])}</td>"
            f"{cells}<td>{r['games']}</td>"
            f"<td>{r['holder_wins']}/{r['holders']} ({rate})</td><td>{interval}</td></tr>"
        )
    out.append("</table>")
    return out


__all__ = ["PACE_LABELS", "render_page"]
