"""Issue 22's whole game in each language: three members and one AI seat play all three sets
to the end, the game's public messages in one language and each member reading another.

Every message and every edit is read as it appears, by whoever can see it: the channel's
public messages in the game's language, each member's ephemeral panels and answers and his
DMs in his own (his Discord locale, or the language he chose with ``/anima settings``). Each
must be in its reader's language (no English fragment of the catalogs' templates, player
names and printed English card names aside), within Discord's limits, and the public ones
must leak nothing hidden (the no-leak scan, with the cards' translated names too)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import simcord
from anima_sim import Driver, World, open_lobby, private_reply, stored, world
from language_checks import untranslated
from locales import with_locales
from rules.expansion_advantage_cards import ALL_SETS
from test_bot_expansions import choose_sets
from test_bot_noleak import LeakCheck

from bot.app import AnimaBot
from engine.cards import default_cards

#: The server's preferred locale, which makes the lobby's (and so the game's) language.
SERVER_LOCALE = {"en": "en-US", "es": "es-ES", "ru": "ru", "it": "it"}
#: Each case: the game's language; alice's and bob's Discord locales; carol's Discord locale
#: and the language she chose with ``/anima settings language`` (which wins over it).
CASES = [
    ("en", "es-ES", "ru", ("it", "it")),
    ("es", "ru", "it", ("en-US", "en")),
    ("ru", "it", "en-GB", ("es-419", "es")),
    ("it", "en-US", "es-419", ("ru", "ru")),
]
LANGUAGE_OF_LOCALE = {
    "en-US": "en",
    "en-GB": "en",
    "es-ES": "es",
    "es-419": "es",
    "ru": "ru",
    "it": "it",
}
#: A deal and members' choices that play to the end within the turn limit.
DEAL_SEED, CHOICE_SEED, TURNS = 3, 4, 5


@pytest.fixture
def simcord_bot(make_bot: Callable[..., AnimaBot]) -> AnimaBot:
    """The bot with the cards it ships with, dealing a fixed game."""
    return make_bot(fixed_seed=DEAL_SEED)


def texts(message: Any) -> Iterator[str]:
    """The words of a stored message (SimCord's backend row): content, embeds, components."""
    yield message.content or ""
    for e in message.embeds:
        yield from (e.get("title") or "", e.get("description") or "")
        yield (e.get("footer") or {}).get("text") or ""
        yield (e.get("author") or {}).get("name") or ""
        for f in e.get("fields") or []:
            yield from (f.get("name") or "", f.get("value") or "")
    yield from _component_texts(message.components)


def _component_texts(components: list[dict[str, Any]]) -> Iterator[str]:
    for c in components:
        for key in ("label", "placeholder", "content"):
            if c.get(key):
                yield str(c[key])
        for option in c.get("options") or []:
            yield from (option.get("label") or "", option.get("description") or "")
        yield from _component_texts(c.get("components") or [])


def over_limits(message: Any) -> list[str]:
    """The parts of a stored message over one of Discord's limits."""
    over = [f"content {len(message.content)}"] if len(message.content or "") > 2000 else []
    total = 0
    for e in message.embeds:
        limited = [("title", e.get("title"), 256), ("description", e.get("description"), 4096)]
        limited.append(("footer", (e.get("footer") or {}).get("text"), 2048))
        fields = e.get("fields") or []
        if len(fields) > 25:
            over.append(f"{len(fields)} fields")
        for f in fields:
            limited += [("field name", f.get("name"), 256), ("field value", f.get("value"), 1024)]
        for what, text, limit in limited:
            total += len(text or "")
            if len(text or "") > limit:
                over.append(f"{what} {len(text)} > {limit}")
    if total > 6000:
        over.append(f"embeds {total} > 6000")
    over += _component_limits(message.components)
    return over


def _component_limits(components: list[dict[str, Any]]) -> list[str]:
    over = []
    for c in components:
        if len(c.get("label") or "") > 80:
            over.append(f"label {c['label']!r}")
        if len(c.get("placeholder") or "") > 150:
            over.append(f"placeholder {c['placeholder']!r}")
        if len(c.get("custom_id") or "") > 100:
            over.append(f"custom_id {c['custom_id']!r}")
        for o in c.get("options") or []:
            if len(o.get("label") or "") > 100 or len(o.get("description") or "") > 100:
                over.append(f"option {o.get('label')!r}")
        over += _component_limits(c.get("components") or [])
    return over


class Readers:
    """Reads every new or changed message of the game's channel and of the members' DMs, as
    its reader sees it, and checks it is in his language and within Discord's limits."""

    def __init__(self, env: simcord.Env, w: World, languages: dict[int, str], public: str):
        self.env, self.w, self.languages, self.public = env, w, languages, public
        self.dms = {m.id: m.user.dm_channel.id for m in (w.alice, w.bob, w.carol)}
        self.seen: dict[int, set[str]] = {}
        #: Messages checked, by the language they were read in.
        self.read: dict[str, int] = {}

    def _reader_language(self, channel_id: int, message: Any) -> str:
        for user_id, dm in self.dms.items():
            if channel_id == dm:
                return self.languages[user_id]
        if message.is_ephemeral:
            reader = ((message.interaction_metadata or {}).get("user") or {}).get("id")
            return self.languages[int(reader)]
        return self.public

    def check(self) -> None:
        backend = self.env.backend
        for channel_id in (self.w.table.id, *self.dms.values()):
            for message in list(backend.messages.get(channel_id, {}).values()):
                if message.author_id != backend.bot_user.id:
                    continue
                seen = self.seen.setdefault(message.id, set())
                new = [t for t in texts(message) if t and t not in seen]
                if not new:
                    continue
                seen.update(new)
                language = self._reader_language(channel_id, message)
                self.read[language] = self.read.get(language, 0) + 1
                text = "\n".join(new)
                assert untranslated(text, language) == [], (language, text)
                assert over_limits(message) == [], (language, text)


@pytest.mark.parametrize(("public", "alice", "bob", "carol"), CASES)
async def test_a_whole_game_reads_in_every_readers_language(
    simcord_env: simcord.Env,
    db_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    public: str,
    alice: str,
    bob: str,
    carol: tuple[str, str],
) -> None:
    w = world(simcord_env)
    guild = simcord_env.create_guild("Anima", preferred_locale=SERVER_LOCALE[public])
    table = guild.create_text_channel("mesa")
    members = [guild.add_member(u.user) for u in (w.alice, w.bob, w.carol, w.dave)]
    w = World(simcord_env, guild, table, *members, w.admin)
    carol_locale, carol_choice = carol
    with_locales(monkeypatch, {w.alice.id: alice, w.bob.id: bob, w.carol.id: carol_locale})
    r = await w.carol.slash(table, "anima settings", language=carol_choice)
    assert r.ephemeral, private_reply(r)
    languages = {
        w.alice.id: LANGUAGE_OF_LOCALE[alice],
        w.bob.id: LANGUAGE_OF_LOCALE[bob],
        w.carol.id: carol_choice,
    }
    readers = Readers(simcord_env, w, languages, public)

    game_id, lobby = await open_lobby(w, w.alice, [w.bob, w.carol], ai=1, turns=TURNS)
    lobby = await choose_sets(w, w.alice, lobby, game_id, ALL_SETS)
    r = await w.alice.click(lobby, custom_id=f"anima:lobby:{game_id}:start")
    assert private_reply(r) is None, private_reply(r)
    st = stored(db_path, game_id)
    assert st.options["sets"] == ALL_SETS
    cards = default_cards()
    leaks = LeakCheck(w, db_path, game_id, w.dave, cards, language=public)
    readers.check()
    leaks.check()
    players = {m.id: m for m in (w.alice, w.bob, w.carol)}
    driver = Driver(w, db_path, game_id, players, seed=CHOICE_SEED, channel=table, cards=cards)
    steps = 0
    while await driver.step():
        steps += 1
        readers.check()
        leaks.check()
        if steps % 23 == 0:  # now and then nobody answers: the time-outs' notes and pings
            await simcord_env.advance_time(301)
            readers.check()
            leaks.check()
    readers.check()
    leaks.check()
    assert stored(db_path, game_id).status == "over"
    # Everyone read something in his own language: the public and each member.
    assert set(readers.read) == {public, *languages.values()}, readers.read
    assert readers.read[public] > 20
    assert leaks.checked > 20
