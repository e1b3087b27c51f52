"""Games at the slow pace (issue 26): a game played over days, each decision pinged once and
reminded once (never in its member's quiet hours, which stop his clock), and no seat given to
the AI without the table's vote."""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Callable
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from zoneinfo import ZoneInfo

import simcord
from anima_sim import Driver, World, components, lines_text, private_reply, stored
from databases import connect
from slow_sim import (
    HALF,
    HOUR,
    MISSED,
    NEXT,
    OPEN,
    TICK,
    advance,
    pings,
    slow_game,
    slow_seats,
)

from bot.app import AnimaBot

#: alice sleeps 23-07 in Rome (CET in January: 22:00-06:00 UTC), bob 22-06 at UTC-5
#: (03:00-11:00 UTC); carol has no quiet hours and wants her "you are next" heads-up.
ROME = ZoneInfo("Europe/Rome")
MINUS_5 = timezone(timedelta(hours=-5))


def quiet_for(name: str, t: float) -> bool:
    """Whether ``t`` falls in the quiet hours of ``name`` (worked out here, not by the bot)."""
    if name == "alice":
        hour = datetime.fromtimestamp(t, ROME).hour
        return hour >= 23 or hour < 7
    if name == "bob":
        hour = datetime.fromtimestamp(t, MINUS_5).hour
        return hour >= 22 or hour < 6
    return False


async def test_a_slow_game_over_days_pings_once_waits_for_the_table_and_ends(
    w: World, simcord_env: simcord.Env, db_path: Path, make_bot: Callable[..., AnimaBot]
) -> None:
    env = simcord_env
    await env.restart_bot(make_bot(timer_tick=TICK))
    await w.carol.slash(w.table, "anima settings", heads_up=True)
    game_id = await slow_game(
        w, {w.alice: ("23-07", "Europe/Rome"), w.bob: ("22:00-06:00", "UTC-5")}
    )
    start = datetime(2026, 1, 1, tzinfo=UTC).timestamp()
    assert env.now().timestamp() - start < 60
    # The start choices: alice is asleep (01:00 in Rome): her 12 hours start at 07:00 there
    # (06:00 UTC); bob's (19:00 at UTC-5) run 3 hours, stop for his 8 quiet ones, run 9 more.
    seats = slow_seats(db_path, game_id)
    assert seats["p1"]["deadline"] == start + 18 * HOUR
    assert seats["p1"]["half_at"] == start + 12 * HOUR
    assert seats["p2"]["deadline"] == start + 20 * HOUR
    assert seats["p3"]["deadline"] == start + 12 * HOUR

    # Pings wait for the end of the quiet hours: alice's first comes at 07:00 in Rome.
    await advance(env, 6 * HOUR + TICK)
    first = pings(env, w.alice.id, game_id)
    assert [p.kind for p in first] == [OPEN] and first[0].at >= start + 6 * HOUR
    assert [p.kind for p in pings(env, w.carol.id, game_id)] == [OPEN, HALF]  # 12 h from 00:00

    players = {m.id: m for m in (w.alice, w.bob, w.carol)}
    names = {w.alice.id: "alice", w.bob.id: "bob", w.carol.id: "carol"}
    driver = Driver(w, db_path, game_id, players, seed=3)
    driver.use_commands = False
    rng = random.Random(3)
    #: The real decisions of each member that stayed open past their half time: their
    #: deadlines (which their pings name) by seat.
    decided: dict[str, set[int]] = defaultdict(set)
    absent: str | None = None  # the seat whose member stopped playing
    votes: list[str] = []
    answered = 0
    for _ in range(4000):
        st, prompts = driver.human_prompts()
        if st.status != "running":
            break
        # Nobody is replaced by the AI but by the table's vote.
        assert all(not s.ai for s in st.seats.values()) or votes == ["wait", "ai"]
        seats = slow_seats(db_path, game_id)
        if absent is not None and seats[absent]["slow"].get("vote"):
            votes.append(await _vote(w, game_id, absent, "wait" if not votes else "ai"))
            continue
        present = [p for p in prompts if p.player != absent]
        if not present:
            # Only the absent member is asked: his decision (or window) runs out.
            p = prompts[0]
            due = seats[p.player]["deadline"]
            if not p.window:
                decided[p.player].add(int(due))
            await advance(env, due - env.now().timestamp() + TICK)
            continue
        p = rng.choice(present)
        if not p.window:
            # A real decision: its member answers once his reminder came (half time).
            wait = seats[p.player]["half_at"] - env.now().timestamp() + TICK
            if wait > 0:
                await advance(env, wait)
                after, _ = driver.human_prompts()
                if after.seats[p.player].since != st.seats[p.player].since:
                    continue  # the table moved on meanwhile (another's time-out)
            decided[p.player].add(int(seats[p.player]["deadline"]))
        st, _ = driver.human_prompts()
        index = driver.rng.randrange(len(p.choices))
        await driver.choose(st, p, index)
        answered += 1
        if answered == 12 and absent is None:
            absent = "p2"  # bob stops playing
    st = stored(db_path, game_id)
    assert st.status == "over"
    assert votes == ["wait", "ai"]
    assert st.seats["p2"].ai  # given to the AI by the table's second vote
    with connect(db_path) as db:
        winner, ending = db.execute(
            "SELECT winner_seat, ending FROM games WHERE id = ?", (game_id,)
        ).fetchone()
    assert winner in ("p1", "p2", "p3") and ending
    text = "\n".join(lines_text(m) for m in w.table.history())
    assert "an AI player takes over the seat of **bob**" in text
    assert "ran out of time 3 times in a row: an AI player takes over" not in text
    assert env.now().timestamp() - start > 5 * 24 * HOUR  # played over days

    for member in (w.alice, w.bob, w.carol):
        received = pings(env, member.id, game_id)
        name = names[member.id]
        assert not [p for p in received if quiet_for(name, p.at)], name
        seat = st.seat_of(member.id).seat
        by_decision: dict[int | None, list[str]] = defaultdict(list)
        for p in received:
            if p.kind in (OPEN, HALF):
                assert p.dm  # DMs are on: no mention in the channel
                by_decision[p.deadline].append(p.kind)
        # One ping then one reminder per decision, for every decision that stayed open.
        assert all(kinds == [OPEN, HALF] for kinds in by_decision.values()), (name, by_decision)
        assert decided[seat] <= set(by_decision), name
        assert len(decided[seat]) > 5, name
    # bob was pinged again after his time-outs (when no new decision of his opened at once).
    assert [p for p in pings(env, w.bob.id, game_id) if p.kind == MISSED]
    # carol's heads-ups came when the member before her (bob, then his AI: none) started.
    kinds = "".join(p.kind for p in pings(env, w.carol.id, game_id) if p.kind in (OPEN, NEXT))
    assert NEXT in kinds and NEXT * 2 not in kinds  # one per turn of bob's, not per decision


async def _vote(w: World, game_id: int, seat: str, choice: str) -> str:
    """alice and carol vote ``choice`` on ``seat`` (bob's) with the vote message's buttons;
    bob's own click is refused."""
    vote = next(
        m
        for m in reversed(w.table.history())
        if f"anima:{game_id}:vote:{seat}:{choice}" in [c.custom_id for c in components(m)]
    )
    assert "give the seat to an AI player, or wait?" in vote.content
    r = await w.bob.click(vote, custom_id=f"anima:{game_id}:vote:{seat}:wait")
    assert "Only the other players" in (private_reply(r) or "")
    for member in (w.alice, w.carol):
        r = await member.click(vote, custom_id=f"anima:{game_id}:vote:{seat}:{choice}")
        assert "Your vote is counted" in (private_reply(r) or "")
    said = "voted to wait for **bob**" if choice == "wait" else "takes over the seat of **bob**"
    assert said in "\n".join(lines_text(m) for m in w.table.history())
    return choice
