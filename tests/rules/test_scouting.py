"""Scouting a face-down Preliminary Encounter (S4): the ``reveal`` operation (Scrying).

Scrying looks at two face-down Preliminary Encounters; each ``reveal`` offers only the Regions
whose Encounter the user does not know yet, so the second look is always at another Region, and
a look with no such Region left does nothing.
"""

from __future__ import annotations

from typing import Any

ARK = "arkhangel"
CORNES = "village_of_cornes"
RUINS = "lost_ruins"


def _scryer(make: Any, regions: list[dict[str, Any]]) -> Any:
    """A (Sorcerer, Magic) holds Scrying at the Movement phase; B (Mercenary) is second."""
    setup = {
        "regions": regions,
        "players": {
            "A": {"party": ["sorcerer"], "hand": ["scrying"]},
            "B": {"party": ["mercenary"], "hand": []},
        },
        "phase": "movement",
    }
    return make(setup=setup)


def test_S4_scrying_offers_each_region_once(make: Any) -> None:
    t = _scryer(
        make,
        [
            {"card": ARK, "preliminary": "giant_rats"},
            {"card": CORNES, "preliminary": "wild_boar"},
            {"card": RUINS, "preliminary": "treasure", "revealed": True},
        ],
    )
    t.do("A", "play scrying")
    t.pass_windows()
    first = t.prompt("A")
    assert first is not None and first.kind == "pick"
    assert first.choices == [f"pick {ARK}", f"pick {CORNES}"]  # Lost Ruins' is face up
    t.do("A", f"pick {ARK}")
    second = t.prompt("A")
    assert second is not None and second.kind == "pick"
    assert second.choices == [f"pick {CORNES}"]  # not Arkhangel again
    t.do("A", f"pick {CORNES}")
    assert t.texts("scout") == ["A scouts Arkhangel.", "A scouts Village of Cornes."]
    assert [r.peeked for r in t.s.regions] == [["A"], ["A"], []]


def test_S4_scrying_with_no_unknown_region_left_looks_no_more(make: Any) -> None:
    # One face-down Encounter, already scouted by B only: A's first look takes it, the second
    # has nothing left to offer and does nothing.
    t = _scryer(make, [{"card": ARK, "preliminary": "giant_rats"}, {"card": CORNES}])
    t.s.regions[0].peeked.append("B")
    t.do("A", "play scrying")
    t.pass_windows()
    t.do("A", f"pick {ARK}")
    prompt = t.prompt("A")
    assert prompt is not None and prompt.kind == "movement"  # back to A's move
    assert t.texts("scout") == ["A scouts Arkhangel."]
    assert t.s.regions[0].peeked == ["B", "A"]
