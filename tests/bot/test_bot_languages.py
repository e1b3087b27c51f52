"""Who reads which language (issue 22): a member's private answers in his (his choice, else
his Discord locale), a lobby in its own (the server's default, else the server's locale; the
host may change it), and the slash commands' words in every language within Discord's limits.

The es/ru/it catalogs are the translators'; these tests put a stand-in Spanish catalog in
place (:func:`spanish`: every English template marked «…»), so that a Spanish answer is
told from the English fallback."""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import discord
import pytest
import simcord
from anima_sim import World, components, message_by_id, open_lobby, private_reply, timed_game
from babel.messages.pofile import read_po
from discord import app_commands
from language_checks import limits, untranslated
from locales import with_locales

import bot.translator
import words
from bot import rendering
from bot.app import AnimaBot
from bot.translator import CatalogTranslator, fits
from words import LANGUAGES, SOURCE, Catalog, counted, msg, say, speaking
from words.catalogs import files_of

BOT = Path(__file__).resolve().parents[2] / "bot"
#: Discord's rule for a name (Python's ``re`` has no ``\p{L}``: letters and digits by hand).
NAME = re.compile(r"^[-_\w]{1,32}$")


@pytest.fixture
def spanish(monkeypatch: pytest.MonkeyPatch) -> Catalog:
    """A stand-in Spanish catalog: every English message marked «…», the commands' names
    prefixed ``es-`` (a valid name), the languages' own names kept."""
    english = words.catalog(SOURCE)
    templates: dict[str, str | tuple[str, ...]] = {}
    for id, template in english.items():
        if id.startswith("command.") and id.endswith(".name"):
            templates[id] = f"es-{template}"
        elif id.startswith("language."):
            templates[id] = template
        elif isinstance(template, str):
            templates[id] = f"«{template}»"
        else:
            templates[id] = tuple(f"«{form}»" for form in template)
    fake = Catalog("es", templates, "(n != 1)")
    real = words.catalog

    def catalog(language: str, cards: bool = False) -> Catalog:
        return fake if language == "es" and not cards else real(language, cards)

    monkeypatch.setattr(words, "catalog", catalog)
    monkeypatch.setattr(bot.translator, "catalog", catalog)
    return fake


def es(message: words.Message) -> str:
    said = say(message, "es")
    assert said != say(message, SOURCE)  # the stand-in catalog is in place
    return said


def spoken(lang: str, draw: Callable[[], Any]) -> Any:
    with speaking(lang):
        return draw()


def fields(message: Any) -> dict[str, str]:
    return {f.name: f.value for f in message.embeds[0].fields}


# ---------------------------------------------------------------------- private answers


async def test_a_spanish_member_reads_his_answers_in_spanish(
    w: World, monkeypatch: pytest.MonkeyPatch, spanish: Catalog
) -> None:
    with_locales(monkeypatch, {w.alice.id: "es-ES"})
    r = await w.alice.slash(w.table, "anima about")
    assert r.ephemeral and r.response.content == spoken("es", lambda: rendering.about_text(True))
    assert "«" in r.response.content
    r = await w.alice.slash(w.table, "anima card", name="zzz")
    assert r.response.content == es(msg("lookup.unknown_card", name="zzz"))
    r = await w.alice.slash(w.table, "anima settings", decision_timer=10)
    assert r.response.content == es(msg("settings.manage_server_only"))
    r = await w.alice.slash(w.table, "anima rules", topic="B3")
    assert r.response.embeds[0].footer.text == es(msg("rules.english_digest"))
    choices = await w.alice.autocomplete(w.table, "anima rules", "topic", "battles")
    assert es(msg("rules.section", letter="B", title="Battles and checks")) in {
        c["name"] for c in choices
    }
    # Bob's Discord is English: so are his answers.
    r = await w.bob.slash(w.table, "anima card", name="zzz")
    assert r.response.content == say(msg("lookup.unknown_card", name="zzz"), SOURCE)


async def test_a_members_own_language_outlives_a_restart(
    w: World, simcord_env: simcord.Env, make_bot: Callable[..., AnimaBot], spanish: Catalog
) -> None:
    r = await w.alice.slash(w.table, "anima settings", language="es")
    # The answer is in the language just chosen.
    assert r.response.embeds[0].title == es(msg("settings.title"))
    own = fields(r.response)[es(msg("settings.language"))]
    assert own == "Español"
    r = await w.alice.slash(w.table, "anima card", name="zzz")
    assert r.response.content == es(msg("lookup.unknown_card", name="zzz"))
    await simcord_env.restart_bot(make_bot())
    r = await w.alice.slash(w.table, "anima card", name="zzz")
    assert r.response.content == es(msg("lookup.unknown_card", name="zzz"))
    # Discord's language again: English (alice's Discord locale).
    r = await w.alice.slash(w.table, "anima settings", language="discord")
    english = say(msg("settings.language.discord", language="English"), SOURCE)
    assert fields(r.response)[say(msg("settings.language"), SOURCE)] == english
    r = await w.alice.slash(w.table, "anima card", name="zzz")
    assert r.response.content == say(msg("lookup.unknown_card", name="zzz"), SOURCE)


# ---------------------------------------------------------------------- the lobby's language


async def stored_language(env: simcord.Env, game_id: int) -> str:
    row = await env.bot.storage.game(game_id)  # type: ignore[attr-defined]
    assert row is not None
    return str(row.language)


async def test_a_lobby_speaks_the_servers_default_language(
    w: World, simcord_env: simcord.Env, monkeypatch: pytest.MonkeyPatch, spanish: Catalog
) -> None:
    r = await w.alice.slash(w.table, "anima settings", server_language="es")
    assert "Manage Server" in r.response.content  # members may not
    r = await w.admin.slash(w.table, "anima settings", server_language="es")
    assert "(saved)" in r.response.embeds[0].title
    assert fields(r.response)["Language of new lobbies"] == "Español"
    game_id, lobby = await open_lobby(w, w.alice, [])
    assert await stored_language(simcord_env, game_id) == "es"
    # The lobby message is public: in its language, whoever opened it.
    assert lobby.embeds[0].title == es(
        msg("lobby.title", game=game_id, sets=es(msg("card.set.shadow_of_omega")))
    )
    assert fields(lobby)[es(msg("lobby.language"))] == "Español"
    join = next(c for c in components(lobby) if c.custom_id.endswith(":join"))
    assert join.label == es(msg("lobby.button.join"))
    # The server's Discord language again: the server's preferred locale decides.
    r = await w.admin.slash(w.table, "anima settings", server_language="discord")
    assert fields(r.response)["Language of new lobbies"].startswith("English")

    # A server whose preferred locale is Spanish and whose managers chose nothing.
    guild = simcord_env.create_guild("Servidor", preferred_locale="es-ES")
    mesa = guild.create_text_channel("mesa")
    host = guild.add_member(simcord_env.create_user("ana"))
    with_locales(monkeypatch, {})
    r = await host.slash(mesa, "anima start")
    game_id = await simcord_env.bot.storage.active_game(mesa.id)  # type: ignore[attr-defined]
    assert game_id is not None and game_id.language == "es"
    assert r.response.embeds[0].title == es(
        msg("lobby.title", game=game_id.id, sets=es(msg("card.set.shadow_of_omega")))
    )


async def test_the_host_changes_the_lobbys_language(
    w: World, simcord_env: simcord.Env, db_path: Path, spanish: Catalog
) -> None:
    game_id, lobby = await open_lobby(w, w.alice, [w.bob])
    assert await stored_language(simcord_env, game_id) == "en"
    timer = f"anima:lobby:{game_id}:timer"
    values = next(c.values for c in components(lobby) if c.custom_id == timer)
    assert {f"language:{code}" for code in LANGUAGES} <= set(values)
    r = await w.bob.select(lobby, ["language:es"], custom_id=timer)
    assert private_reply(r) == say(msg("lobby.host_only.options"), SOURCE)
    assert await stored_language(simcord_env, game_id) == "en"
    r = await w.alice.select(lobby, ["language:es"], custom_id=timer)
    assert r.acknowledged and private_reply(r) is None
    assert await stored_language(simcord_env, game_id) == "es"
    now = message_by_id(w.table, lobby.id)
    assert now.embeds[0].title == es(
        msg("lobby.title", game=game_id, sets=es(msg("card.set.shadow_of_omega")))
    )
    assert fields(now)[es(msg("lobby.language"))] == "Español"
    # The timer is still chosen in the same menu; the lobby keeps its language.
    r = await w.alice.select(now, ["120"], custom_id=timer)
    assert private_reply(r) is None
    now = message_by_id(w.table, lobby.id)
    assert fields(now)[es(msg("lobby.timer"))] == es(counted("timer.minutes", 2))
    # An AI seat is named in the lobby's language.
    r = await w.alice.click(now, custom_id=f"anima:lobby:{game_id}:ai")
    await w.alice.click(r.response.message, custom_id=f"anima:lobby:{game_id}:ai:random")
    seats = next(iter(fields(message_by_id(w.table, lobby.id)).values()))
    assert es(msg("lobby.ai_seat", number=1)) in seats


async def test_a_hosts_dm_is_in_his_language(
    w: World, simcord_env: simcord.Env, monkeypatch: pytest.MonkeyPatch, spanish: Catalog
) -> None:
    """A DM carries no locale: the host's last one is remembered (his Spanish Discord)."""
    with_locales(monkeypatch, {w.alice.id: "es-ES"})
    game_id = await timed_game(w)
    host_dms = len(w.alice.user.dm_channel.history())
    simcord_env.backend.delete_channel(w.table.id)
    await simcord_env.advance_time(65)  # both start choices time out: the post fails
    (told,) = w.alice.user.dm_channel.history()[host_dms:]
    assert told.content.startswith("«⏸️") and f"#{game_id}" in told.content
    assert es(msg("permission.view_channel")) in told.content


LOCALES = {"en": "en-US", "es": "es-ES", "ru": "ru", "it": "it"}


def text_of(message: Any) -> str:
    """Everything a message says: its content, embeds and components' labels."""
    parts = [message.content or ""]
    for e in message.embeds:
        parts += [e.title or "", e.description or "", e.footer.text or ""]
        parts += [f"{f.name}\n{f.value}" for f in e.fields]
    parts += [c.label for c in components(message)]
    return "\n".join(parts)


@pytest.mark.parametrize("language", LANGUAGES)
async def test_each_language_within_discords_limits_and_translated(
    w: World, simcord_env: simcord.Env, monkeypatch: pytest.MonkeyPatch, language: str
) -> None:
    """A lobby in each language, and a member of each Discord locale's answers: within
    Discord's limits, and (once the language has its commands.po and lobby.po) without an
    English fragment left."""
    with_locales(monkeypatch, {m.id: LOCALES[language] for m in (w.alice, w.bob, w.admin)})
    answers = [await w.admin.slash(w.table, "anima settings", server_language=language)]
    answers.append(await w.alice.slash(w.table, "anima about"))
    answers.append(await w.alice.slash(w.table, "anima stats"))
    answers.append(await w.alice.slash(w.table, "anima card", name="zzz"))
    game_id, lobby = await open_lobby(w, w.alice, [w.bob], ai_levels=["hard"])
    assert await stored_language(simcord_env, game_id) == language
    answers.append(await w.alice.click(lobby, custom_id=f"anima:lobby:{game_id}:ai"))
    answers.append(await w.bob.click(lobby, custom_id=f"anima:lobby:{game_id}:start"))
    said = [r.response for r in answers[:-1]]
    for message in [*said, message_by_id(w.table, lobby.id)]:
        assert limits(message) == [], text_of(message)
    translated = {"commands.po", "lobby.po"} <= set(files_of(language))
    if translated:
        for message in [*said, message_by_id(w.table, lobby.id)]:
            assert untranslated(text_of(message), language) == []
        assert untranslated(private_reply(answers[-1]) or "", language) == []


# ---------------------------------------------------------------------- the commands' words


class Recorder(app_commands.Translator):
    """Every string discord.py asks to translate, with where it goes (and no translation)."""

    def __init__(self) -> None:
        self.asked: dict[
            str, tuple[app_commands.locale_str, app_commands.TranslationContextLocation]
        ] = {}

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        self.asked[string.extras.get("id", string.message)] = (string, context.location)
        return None


async def payloads(bot: AnimaBot, translator: app_commands.Translator) -> list[dict[str, Any]]:
    return [await c.get_translated_payload(bot.tree, translator) for c in bot.tree.get_commands()]


async def test_every_command_word_has_a_message_and_every_translation_fits(
    make_bot: Callable[..., AnimaBot],
) -> None:
    """Every name, description and choice of every command comes from the catalogs, and
    every language's translation of it (whichever exist) is within Discord's limits: a
    translation that is not would be left out (Discord shows the English)."""
    recorder = Recorder()
    await payloads(make_bot(), recorder)
    assert len(recorder.asked) > 40
    problems = []
    # The languages are offered by their own names, in every language.
    endonyms = {say(msg(f"language.{code}"), code) for code in LANGUAGES}
    for id, (string, where) in recorder.asked.items():
        if "id" not in string.extras and string.message in endonyms:
            continue
        assert id in words.catalog(SOURCE), f"{string.message!r} has no message id"
        english = say(msg(id), SOURCE)
        # The English catalog holds the names the bot routes by, and every description.
        assert english == string.message, id
        for language in LANGUAGES:
            if id in words.catalog(language) and not fits(say(msg(id), language), where):
                problems.append(f"{language} {id}: {say(msg(id), language)!r}")
    assert problems == []


def walk(payload: dict[str, Any]) -> Iterator[tuple[str, str, int]]:
    """(kind, text, limit) of every name, description and choice of a command's payload,
    and of their localizations."""
    yield "name", payload["name"], 32
    for value in payload.get("name_localizations", {}).values():
        yield "name", value, 32
    if "description" in payload:
        yield "description", payload["description"], 100
        for value in payload.get("description_localizations", {}).values():
            yield "description", value, 100
    for option in payload.get("options", []):
        yield from walk(option)
    for choice in payload.get("choices", []):
        yield "choice", choice["name"], 100
        for value in choice.get("name_localizations", {}).values():
            yield "choice", value, 100


async def test_the_translator_gives_discord_only_what_it_takes(
    make_bot: Callable[..., AnimaBot], spanish: Catalog
) -> None:
    everything = await payloads(make_bot(), CatalogTranslator())
    (anima,) = everything
    start = next(o for o in anima["options"] if o["name"] == "start")
    # Spanish's two Discord locales from the stand-in catalog; the other languages' own.
    spanish_names = {k: v for k, v in start["name_localizations"].items() if k.startswith("es")}
    assert spanish_names == {"es-419": "es-start", "es-ES": "es-start"}
    assert "en-US" not in start["name_localizations"]
    assert start["description_localizations"]["es-ES"] == es(msg("command.start.description"))
    settings = next(o for o in anima["options"] if o["name"] == "settings")
    language = next(o for o in settings["options"] if o["name"] == "language")
    names = [c["name"] for c in language["choices"]]
    assert names[:4] == ["English", "Español", "Русский", "Italiano"]
    assert language["choices"][4]["name_localizations"]["es-ES"] == es(
        msg("command.settings.language.discord")
    )
    for payload in everything:
        for kind, text, limit in walk(payload):
            assert 1 <= len(text) <= limit, (kind, text)
            if kind == "name":
                assert NAME.match(text) and text == text.lower(), text


def clashes(payload: dict[str, Any]) -> Iterator[str]:
    """Sibling options (or subcommands) that one locale would name alike: Discord refuses
    the sync."""
    siblings = payload.get("options", [])
    locales = {loc for o in siblings for loc in o.get("name_localizations", {})}
    for locale in locales:
        named = [o.get("name_localizations", {}).get(locale, o["name"]) for o in siblings]
        yield from {f"{payload['name']} {locale}: {n}" for n in named if named.count(n) > 1}
    for option in siblings:
        yield from clashes(option)


@pytest.mark.parametrize("stand_in", [False, True])
async def test_no_two_siblings_share_a_name_in_any_language(
    make_bot: Callable[..., AnimaBot], request: pytest.FixtureRequest, stand_in: bool
) -> None:
    """With the catalogs as they are (and with the stand-in Spanish one)."""
    if stand_in:
        request.getfixturevalue("spanish")
    everything = await payloads(make_bot(), CatalogTranslator())
    assert [c for payload in everything for c in clashes(payload)] == []


async def test_a_translated_name_discord_would_refuse_is_left_out(
    monkeypatch: pytest.MonkeyPatch, spanish: Catalog
) -> None:
    translator = CatalogTranslator()
    where = app_commands.TranslationContext(
        app_commands.TranslationContextLocation.command_name, None
    )
    start = app_commands.locale_str("start", id="command.start.name")
    assert await translator.translate(start, discord.Locale.spain_spanish, where) == "es-start"
    assert await translator.translate(start, discord.Locale.american_english, where) is None
    assert await translator.translate(start, discord.Locale.french, where) is None
    for bad in ("Empezar", "empezar partida", "x" * 33, ""):
        monkeypatch.setitem(spanish._templates, "command.start.name", bad)
        assert await translator.translate(start, discord.Locale.spain_spanish, where) is None
    long = app_commands.TranslationContext(
        app_commands.TranslationContextLocation.command_description, None
    )
    about = app_commands.locale_str("…", id="command.start.description")
    monkeypatch.setitem(spanish._templates, "command.start.description", "x" * 101)
    assert await translator.translate(about, discord.Locale.spain_spanish, long) is None
    assert fits("ruta-más_larga2", app_commands.TranslationContextLocation.parameter_name)
    assert fits("ход", app_commands.TranslationContextLocation.command_name)


# ---------------------------------------------------------------------- every id is known


def literal_ids(path: Path) -> Iterator[tuple[int, str]]:
    """The message ids written as literals in a module: ``msg("x")``, ``counted("x", n)``."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name | ast.Attribute)
            and getattr(node.func, "id", getattr(node.func, "attr", "")) in ("msg", "counted")
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            yield node.lineno, node.args[0].value


def test_every_message_the_bot_names_is_in_the_catalogs() -> None:
    unknown = [
        f"{path.relative_to(BOT)}:{line}: {id}"
        for path in sorted(BOT.rglob("*.py"))
        for line, id in literal_ids(path)
        if not words.known(id)
    ]
    assert unknown == []


def test_the_english_words_of_the_lobby_and_commands_files_are_all_used() -> None:
    """Each id of commands.po and lobby.po is named by the bot: a literal somewhere in it,
    or one of the families it builds ids of (a refusal kind, an option code...)."""
    written = {
        node.value
        for path in BOT.rglob("*.py")
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
    }
    families = (
        "command.",
        "refusal.",
        "option.",
        "autopass.",
        "ai.",
        "language.",
        "permission.",
        "lobby.button.",
        "lobby.select.",
    )
    folder = Path(words.__file__).parent / "locales" / SOURCE / "LC_MESSAGES"
    ids = [
        str(m.id if isinstance(m.id, str) else m.id[0])
        for name in ("commands.po", "lobby.po")
        for m in read_po((folder / name).open("rb"))
        if m.id
    ]
    assert len(ids) > 200
    assert [id for id in ids if id not in written and not id.startswith(families)] == []
