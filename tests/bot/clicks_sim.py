"""Counting a member's clicks as a player makes them (issue 23, "A newcomer's turn").

:class:`ClickCounter` plays the human seats of a game through Discord's surface only, the way
a member with the settings a new member has plays: a choice shown on the board is one click;
a choice of his private panel costs the click that opens it (**Decide**, **Play a card…**,
**Respond**) unless the panel he just clicked in shows it already; a choice in a select menu
costs the click that opens the menu and the click on the option. In a reaction window he
answers with a card he holds now and then (``play_in_windows``); otherwise he lets the window
close by itself (it closes when its time runs out, whatever anybody holds), or, with
``pass_clicks``, clicks **Pass** as the board used to ask.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import simcord
from anima_sim import Stored, World, board, chose, components, private_reply, stored

from engine.prompts import Prompt

#: Building a trade offer: one click per card given or asked (the offerer composing his own
#: offer); counted apart, as the auto-pass test of issue 8 does.
TRADE_KINDS = frozenset({"trade_offer", "trade_answer", "trade_pay"})


@dataclass
class Clicks:
    """A member's clicks by purpose."""

    decision: int = 0
    passing: int = 0
    navigation: int = 0
    trade: int = 0
    setup: int = 0
    by_kind: Counter[str] = field(default_factory=Counter)

    @property
    def turn_clicks(self) -> int:
        """The clicks of the game's turns (the setup and the building of trade offers left
        out)."""
        return self.decision + self.passing + self.navigation


class ClickCounter:
    """Plays the members' seats of a game with seeded random legal choices, counting every
    click (see the module)."""

    def __init__(
        self,
        w: World,
        db_path: Path,
        game_id: int,
        players: dict[int, simcord.MemberActor],
        seed: int = 0,
        pass_clicks: bool = False,
        play_in_windows: float = 0.25,
        tick: float = 5.0,
    ) -> None:
        self.w = w
        self.db_path = db_path
        self.game_id = game_id
        self.players = players
        self.rng = random.Random(seed)
        self.pass_clicks = pass_clicks
        self.play_in_windows = play_in_windows
        self.tick = tick
        self.clicks: dict[int, Clicks] = {uid: Clicks() for uid in players}
        #: The panel each member clicked in last, while it shows his next decision.
        self.panels: dict[int, Any] = {}
        #: The member who clicked last (a member looks at the panel he just clicked in).
        self.last: int | None = None
        #: Virtual seconds spent waiting for windows to close by themselves.
        self.waited = 0.0
        #: The windows answered with a card, by seat.
        self.window_plays: Counter[str] = Counter()

    def human_prompts(self) -> tuple[Stored, list[Prompt]]:
        st = stored(self.db_path, self.game_id)
        return st, [p for p in st.game.pending() if not st.seats[p.player].ai]

    def _count(self, uid: int, st: Stored, prompt: Prompt, what: str, n: int = 1) -> None:
        c = self.clicks[uid]
        if st.game.table_view().phase == "setup":
            c.setup += n
        elif prompt.kind in TRADE_KINDS:
            c.trade += n
        elif what == "decision":
            c.decision += n
        elif what == "pass":
            c.passing += n
        else:
            c.navigation += n
        c.by_kind[f"{prompt.kind}:{what}"] += n

    async def choose(self, st: Stored, prompt: Prompt, index: int) -> Any:
        """Take choice ``index`` of ``prompt`` the way a player does, counting the clicks."""
        seat = st.seats[prompt.player]
        uid = seat.user_id or 0
        member = self.players[uid]
        custom_id = f"anima:{self.game_id}:{seat.since}:{index}"
        what = "pass" if prompt.window and prompt.choices[index] == "pass" else "decision"
        places = []
        panel = self.panels.get(uid)
        if panel is not None and self.last == uid:
            places.append(panel)
        board_msg = board(self.w.table, self.db_path, self.game_id)
        places.append(board_msg)
        for place in places:
            found = self._find(place, custom_id, index)
            if found is not None:
                break
        else:
            opener = "respond" if prompt.window else "decide"
            opened = await member.click(board_msg, custom_id=f"anima:{self.game_id}:{opener}")
            self._count(uid, st, prompt, "navigation")
            assert opened.ephemeral and opened.response is not None, private_reply(opened)
            place = opened.response
            found = self._find(place, custom_id, index)
            assert found is not None, (prompt.kind, prompt.choices[index], components(place))
        kind, cid = found
        if kind == "select":
            self._count(uid, st, prompt, "navigation")  # opening the menu
            result = await member.select(place, [str(index)], custom_id=cid)
        else:
            result = await member.click(place, custom_id=cid)
        self._count(uid, st, prompt, what)
        assert result.acknowledged and chose(result), private_reply(result)
        self.last = uid
        panel_now = self._panel_of(place, result)
        if panel_now is not None:
            self.panels[uid] = panel_now
        else:
            self.panels.pop(uid, None)
        return result

    @staticmethod
    def _find(place: Any, custom_id: str, index: int) -> tuple[str, str] | None:
        comps = components(place)
        for c in comps:
            if c.type == "button" and c.custom_id == custom_id:
                return "button", c.custom_id
        prefix = custom_id.rsplit(":", 1)[0] + ":s"
        for c in comps:
            if c.type == "select" and c.custom_id.startswith(prefix) and str(index) in c.values:
                return "select", c.custom_id
        return None

    @staticmethod
    def _panel_of(place: Any, result: Any) -> Any:
        """The private panel the member looks at after his click: the panel he clicked in
        (answered in place), or the one a board click sent him."""
        if not isinstance(place, simcord.ResponseMessage) and result.followups:
            return next((f for f in result.followups if f.ephemeral), None)
        if isinstance(place, simcord.ResponseMessage):
            return place
        return None

    async def step(self) -> bool:
        """One member's decision (or a window let close); False when the game is over."""
        st, prompts = self.human_prompts()
        if st.status != "running":
            return False
        assert prompts, "the game waits for nobody"
        windows = [p for p in prompts if p.window]
        if windows and len(windows) == len(prompts):
            return await self._window(st, windows)
        prompt = self.rng.choice([p for p in prompts if not p.window] or prompts)
        index = self.rng.randrange(len(prompt.choices))
        await self.choose(st, prompt, index)
        return True

    async def _window(self, st: Stored, windows: list[Prompt]) -> bool:
        """Every member in the window answers it with a card now and then; the others
        click Pass (``pass_clicks``) or let it close by itself."""
        for prompt in sorted(windows, key=lambda p: p.player):
            cards = [i for i, c in enumerate(prompt.choices) if c != "pass"]
            if cards and self.rng.random() < self.play_in_windows:
                self.window_plays[prompt.player] += 1
                await self.choose(st, prompt, self.rng.choice(cards))
                return True
        if self.pass_clicks:
            prompt = min(windows, key=lambda p: p.player)
            await self.choose(st, prompt, prompt.choices.index("pass"))
            return True
        version = st.version
        for _ in range(200):
            await self.w.env.advance_time(self.tick)
            self.waited += self.tick
            if stored(self.db_path, self.game_id).version != version:
                return True
        raise AssertionError("the window never closed by itself")

    async def play(self, max_steps: int = 5000) -> Stored:
        for _ in range(max_steps):
            if not await self.step():
                break
        st = stored(self.db_path, self.game_id)
        assert st.status == "over", f"game still {st.status} after {max_steps} steps"
        return st
