"""Every word translatable, each phone its own language (#15): the catalogs are complete and fresh,
plurals and lazy messages render per language, numbers and dates follow the locale, the screens
converted so far speak German through and through, and no English literal slips past `_()`."""

from __future__ import annotations

import ast
import asyncio
import doctest
import re
import string
import subprocess
import sys
import threading
from datetime import datetime, timedelta, timezone
from pathlib import Path
from types import SimpleNamespace

import flet as ft
import pytest
from babel import Locale
from babel.messages.plurals import get_plural
from babel.messages.pofile import read_po
from hypothesis import given, strategies as st

from companion import i18n
from companion.games.base import percent
from companion.i18n import Msg, NMsg, Percent, _, fmt_ago, fmt_date, fmt_number, fmt_percent, ngettext, speaking
from tests.helpers import DE_PERCENT

ROOT = Path(__file__).resolve().parent.parent
POT = ROOT / "companion" / "locale" / "companion.pot"
TRANSLATED = [code for code in i18n.languages() if code != i18n.SOURCE]

# Every module's player-visible words go through the catalogs, but these, which show a player none:
# the command line (for whoever hosts; it speaks English), the catalogs' own machinery, TLS set-up,
# the served client's HTTP layer and `make web`, which builds the static site.
NOT_SHOWN = {"companion/__main__.py", "companion/i18n.py", "companion/tls.py", "companion/ui/style.py",
             "companion/web_client.py", "companion/web/build.py"}
CONVERTED = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "companion").rglob("*.py")
                   if str(p.relative_to(ROOT)) not in NOT_SHOWN)


def catalog(path: Path, locale=None):
    with path.open("rb") as f:
        return read_po(f, locale=locale)


def entries(cat) -> dict:
    """id → (context, translator comments, python-brace-format?) of every message in a catalog."""
    return {(m.id, m.context): (tuple(m.auto_comments), "python-brace-format" in m.flags) for m in cat if m.id}


def placeholders(text: str) -> set[str]:
    return {field[1] for field in string.Formatter().parse(text) if field[1] is not None}


# --- the catalogs ---

def test_the_template_is_fresh(tmp_path):
    """Extracting again (what `make messages` does, with babel.cfg) finds exactly the committed
    template's messages: a new or changed string without `make messages` fails here."""
    fresh = tmp_path / "fresh.pot"
    subprocess.run([sys.executable, "-m", "babel.messages.frontend", "extract", "-F", "babel.cfg", "--sort-output",
                    "--add-location=file", "-o", str(fresh), "companion"],
                   cwd=ROOT, check=True, capture_output=True)
    extracted, committed = entries(catalog(fresh)), entries(catalog(POT))
    assert sorted(set(extracted) - set(committed), key=str) == [], "new messages: run `make messages`"
    assert sorted(set(committed) - set(extracted), key=str) == [], "messages no longer used: run `make messages`"
    assert extracted == committed, "translator comments or formats changed: run `make messages`"


@pytest.mark.parametrize("code", TRANSLATED)
def test_every_message_is_translated(code):
    """The language's catalog has exactly the template's messages, every one translated, none fuzzy
    (an unsure guess `make messages` left), each plural with all its forms, and the same placeholders."""
    template = catalog(POT)
    po = catalog(ROOT / "companion" / "locale" / code / "LC_MESSAGES" / "companion.po", locale=code)
    assert set(entries(po)) == set(entries(template)), "the catalog is stale: run `make messages`"
    assert not po.obsolete
    forms = po.num_plurals
    # the header agrees with CLDR as gettext counts it: whole numbers only (Polish has no form for CLDR's
    # "other", which is for fractions: 3 forms, not 4)
    assert forms == get_plural(code).num_plurals
    problems = []
    for m in po:
        if not m.id:
            continue
        if m.fuzzy:
            problems.append(f"fuzzy: {m.id!r}")
        ids = m.id if isinstance(m.id, tuple) else (m.id,)
        strings = m.string if isinstance(m.string, tuple) else (m.string,)
        if isinstance(m.id, tuple) and len(strings) != forms:
            problems.append(f"{len(strings)} plural forms for {forms}: {m.id!r}")
        if not all(strings):
            problems.append(f"untranslated: {m.id!r}")
        wanted = set().union(*(placeholders(i) for i in ids))
        for s in strings:
            if s and placeholders(s) - wanted:
                problems.append(f"unknown placeholder in {s!r}")
            if s and not isinstance(m.id, tuple) and placeholders(s) != wanted:
                problems.append(f"placeholders differ: {m.id!r} → {s!r}")
    assert problems == []


def test_the_languages_a_phone_can_choose():
    assert {"en": "English", "de": "Deutsch"}.items() <= i18n.languages().items()  # each in its own words
    assert i18n.languages()["fr"] == "Français"  # Settings lists it so


def test_the_doctests():
    assert doctest.testmod(i18n).failed == 0


# --- plurals and lazy messages ---

def test_plural_forms_per_language():
    for n, en, de in [(0, "0 campaigns", "0 Kampagnen"), (1, "1 campaign", "1 Kampagne"),
                      (2, "2 campaigns", "2 Kampagnen"), (1500, "1,500 campaigns", "1.500 Kampagnen")]:
        with speaking("en"):
            assert ngettext("{n} campaign", "{n} campaigns", n) == en
        with speaking("de"):
            assert ngettext("{n} campaign", "{n} campaigns", n) == de
        assert NMsg("{n} campaign", "{n} campaigns", n).render("de") == de


def test_texts_side_by_side_are_one_flat_list_said_in_each_language():
    """`joined` and `+`: each part in the phone's language, kept as one list (not pairs nested in
    pairs, ~60 bytes of the log each); an older save's nested pairs still read."""
    parts = [Msg("no dice"), "Ann", Msg("no dice")]
    text = i18n.joined(parts, "; ") + "."
    assert text.english == "no dice; Ann; no dice."
    assert text.render("de") == "keine Würfel; Ann; keine Würfel."
    stored = text.to_json()
    assert stored["params"]["parts"][1:4] == ["; Ann; ", {"msg": {"msgid": "no dice"}}, "."]  # flat, strs merged
    assert Msg.from_json(stored) == text and Msg.from_json(stored).render("de") == text.render("de")
    assert i18n.joined(["A", "B"]) == "A, B" and isinstance(i18n.joined(["A", "B"]), str)
    assert i18n.joined([]) == "" and i18n.joined([Msg("no dice")]) == Msg("no dice")
    nested = {"msgid": "{first}{second}", "params": {"first": {"msg": {"msgid": "{first}{second}", "params": {
        "first": {"msg": {"msgid": "no dice"}}, "second": ", "}}}, "second": "Ann"}}
    assert Msg.from_json(nested).render("de") == "keine Würfel, Ann"


def test_one_message_shown_on_two_phones_at_once():
    """Made once (as an event will be), shown in each phone's language, with its parameters: numbers
    in the phone's locale, a message inside a message in the same language."""
    made = Msg("Last played {when}", when=Msg("yesterday"))
    assert made.render("en") == "Last played yesterday"
    assert made.render("de") == "Zuletzt gespielt: gestern"
    big = Msg("It has more than the {max} actions an import holds: keep this database's backups instead.", max=50_000)
    assert "50,000" in big.render("en") and "50.000" in big.render("de")
    with speaking("de"):
        assert str(made) == "Zuletzt gespielt: gestern"
    assert str(made) == "Last played yesterday"  # no phone: English
    # Kept in the log as JSON and read back, it is the same message.
    counted = NMsg("{n} action", "{n} actions", 3, extra=Msg("Dice"))
    again = Msg.from_json(counted.to_json())
    assert again == counted and hash(again) == hash(counted) and again.render("de") == "3 Aktionen"
    assert Msg("Copied “{name}”.", name="Ann").render("de") == "„Ann“ kopiert."
    assert Msg("not in any catalog").render("de") == "not in any catalog"  # falls back to the words written


def test_two_phones_in_one_process_never_mix():
    """The language is a ContextVar: two phones' handlers interleaving on one loop each keep theirs."""
    async def phone(code: str, seen: list) -> None:
        i18n.use(code)
        for _turn in range(20):
            await asyncio.sleep(0)  # the other phone runs in between
            seen.append(_("New campaign"))

    async def table():
        german, english = [], []
        await asyncio.gather(phone("de", german), phone("en", english))
        return german, english

    german, english = asyncio.run(table())
    assert set(german) == {"Neue Kampagne"} and set(english) == {"New campaign"}
    assert i18n.current() is i18n.ENGLISH  # nothing leaked out of the phones' tasks


def test_a_redraw_another_phone_asked_for_is_in_the_redrawn_phones_language():
    """An action on the English phone makes every screen redraw (TableSession.later from its handler):
    the German phone's redraw is in German all the same."""
    from companion.app import TableSession

    loop = asyncio.new_event_loop()
    runner = threading.Thread(target=loop.run_forever, daemon=True)
    runner.start()
    futures = []

    def session(choice: str) -> TableSession:
        s = TableSession.__new__(TableSession)
        s.language = i18n.PhoneLanguage()
        s.language.choose(choice)
        # Flet's run_task: the coroutine runs on the session's loop, in a copy of the caller's context.
        s.page = SimpleNamespace(run_task=lambda fn: futures.append(asyncio.run_coroutine_threadsafe(fn(), loop)))
        return s

    german, english = session("de"), session("en")
    seen = {}
    try:
        with speaking("en"):  # in the English phone's handler
            german.later(lambda: seen.setdefault("de", _("Settings")))
            english.later(lambda: seen.setdefault("en", _("Settings")))
        for f in futures:
            f.result(timeout=5)
    finally:
        loop.call_soon_threadsafe(loop.stop)
        runner.join(timeout=5)
    assert seen == {"de": "Einstellungen", "en": "Settings"}


# --- numbers, percentages, dates ---

def _symbols(tag: str) -> tuple[str, str]:
    """The locale's grouping and decimal signs as the installed Babel's CLDR data has them: the tests
    compare with those, not with a glyph copied from one CLDR release (de-CH's group sign changed
    from ’ to ' between releases, #27)."""
    from babel import Locale
    from babel.numbers import get_decimal_symbol, get_group_symbol
    locale = Locale.parse(tag.replace("-", "_"))
    return get_group_symbol(locale), get_decimal_symbol(locale)


def test_numbers_follow_the_locale():
    assert fmt_number(1234.5, lang="en") == "1,234.5" and fmt_number(1234.5, lang="de") == "1.234,5"
    assert fmt_number(2, 1, lang="de") == "2,0"
    group, decimal = _symbols("de_CH")
    assert (group, decimal) != _symbols("de")  # Swiss German is a locale of its own, not German's signs
    assert fmt_number(1234.5, lang=i18n.lang("de-CH")) == f"1{group}234{decimal}5"  # the browser's own locale


@pytest.mark.parametrize("p, en, de", [
    (2 / 3, "67%", "67"), (0.001, "<1%", "<1"), (0.999, ">99%", ">99"),
    (0, "0%", "0"), (1, "100%", "100"), (0.125, "12%", "12"),
])
def test_percentages_follow_the_locale(p, en, de):
    de += DE_PERCENT  # German's gap and sign, as the installed CLDR data writes them
    assert fmt_percent(p, lang="en") == en and fmt_percent(p, lang="de") == de
    assert Percent(p).render("de") == de
    assert Msg("{i} of 6", i=Percent(p)).render("de") == f"{de} von 6"


@given(st.floats(min_value=-0.5, max_value=1.5, allow_nan=False), st.sampled_from([0, 1]))
def test_percentages_keep_the_app_s_one_rule(p, digits):
    """In English exactly what games.base.percent writes; in German the same number, its way."""
    assert fmt_percent(p, digits, lang="en") == percent(p, digits)
    assert fmt_percent(p, digits, lang="de").replace(DE_PERCENT, "%").replace(",", ".") == percent(p, digits)


def test_dates_follow_the_locale():
    day = datetime(2026, 3, 12, 14, 5, tzinfo=timezone.utc)
    assert fmt_date(day, lang="en") == "Mar 12, 2026" and fmt_date(day, lang="de") == "12.03.2026"
    for ago, en, de in [(timedelta(seconds=20), "just now", "gerade eben"),
                        (timedelta(minutes=5), "5 minutes ago", "vor 5 Minuten"),
                        (timedelta(hours=3), "3 hours ago", "vor 3 Stunden"),
                        (timedelta(hours=30), "yesterday", "gestern")]:
        assert fmt_ago(day - ago, day, lang="en") == en and fmt_ago(day - ago, day, lang="de") == de
    long_ago = day - timedelta(days=40)
    assert fmt_ago(long_ago, day, lang="de") == fmt_date(long_ago.astimezone(), lang="de")


# --- each phone's language ---

def test_the_browser_s_language_is_the_default():
    assert i18n.negotiate(["de-DE", "en-US"]).code == "de"
    assert i18n.negotiate(["sv-SE", "de-AT"]).locale == Locale.parse("de_AT")  # the first one the app speaks
    assert i18n.negotiate(["en-GB", "de"]).locale == Locale.parse("en_GB")
    assert i18n.negotiate(["sv", "xx-??", ""]) == i18n.ENGLISH and i18n.negotiate([]) == i18n.ENGLISH
    phone = i18n.PhoneLanguage()
    phone.browser = ["de-CH"]
    assert phone.lang.code == "de" and phone.lang.locale == Locale.parse("de_CH")
    phone.choose("en")
    assert phone.lang.code == "en"
    phone.choose("klingon")  # an odd value from a browser's storage: back to the browser's
    assert phone.choice == i18n.BROWSER and phone.lang.code == "de"


def test_a_phone_s_languages_come_from_its_browser():
    class Prefs:
        def __init__(self, value):
            self.value, self.kept = value, []

        async def get(self, key):
            return self.value

        async def set(self, key, value):
            self.kept.append((key, value))

    async def device_info():
        return SimpleNamespace(language="de-DE", languages=["de-DE", "en-US"], locales=[])

    async def no_answer():
        await asyncio.sleep(10)

    async def run():
        phone = i18n.PhoneLanguage(Prefs("en"), "companion.language")
        await phone.load(SimpleNamespace(get_device_info=device_info))
        assert phone.browser == ["de-DE", "en-US"] and phone.choice == "en" and phone.lang.code == "en"
        phone.choose(i18n.BROWSER)
        await phone.keep()
        assert phone.prefs.kept == [("companion.language", "")] and phone.lang.code == "de"

        silent = i18n.PhoneLanguage(Prefs(None))
        await silent.load(SimpleNamespace(get_device_info=no_answer), timeout=0.05)
        assert silent.browser == [] and silent.lang == i18n.ENGLISH

        # A busy phone that says its languages after the first draw: it is drawn again in them.
        async def slow_device_info():
            await asyncio.sleep(0.2)
            return await device_info()
        redrawn = asyncio.Event()
        busy = i18n.PhoneLanguage(Prefs(None))
        await busy.load(SimpleNamespace(get_device_info=slow_device_info), timeout=0.05, on_late=redrawn.set)
        assert busy.lang == i18n.ENGLISH
        await asyncio.wait_for(redrawn.wait(), 5)
        assert busy.lang.code == "de"

        desktop = SimpleNamespace(locales=[SimpleNamespace(language_code="de", country_code="AT")])
        assert await i18n.browser_languages(SimpleNamespace(get_device_info=lambda: _coro(desktop))) == ["de-AT"]

    asyncio.run(run())


async def _coro(value):
    return value


# --- the screens, in German ---

def english_words(code: str = "de") -> set[str]:
    """Every message whose translation (German unless told) differs from its English (so a leftover shows)."""
    po = catalog(ROOT / "companion" / "locale" / code / "LC_MESSAGES" / "companion.po", locale=code)
    found = set()
    for m in po:
        if m.id and not isinstance(m.id, tuple) and m.string != m.id and not placeholders(m.id):
            found.add(m.id)
    return found


def shown_words(control) -> list[str]:
    from tests.views import all_controls

    out = []
    for c in all_controls(control, ("controls", "content", "actions", "title", "appbar", "items", "options",
                                    "bottom_appbar")):
        for attr in ("value", "label", "content", "tooltip", "text", "title"):
            v = getattr(c, attr, None)
            if isinstance(v, str) and v:
                out.append(v)
    return out


# What a screen shows alike in every language though the catalog has German for it: the dice tray's
# quick rolls are dice notation the tray reads back ("2d6"), where a sentence says "W6".
NOTATION: set[str] = {"d6", "d12"}


@pytest.fixture
def german_app(tmp_path):
    """The app as a screen meets it, on a real save, its phone speaking German."""
    from companion.app import PHONE_DEFAULTS
    from companion.context import AppContext
    from companion.ui.style import Sizes
    from tests.views import guard

    ctx = AppContext.open(f"sqlite:///{tmp_path / 'c.sqlite'}", start_backup=False)
    dialogs = []
    page = SimpleNamespace(show_dialog=dialogs.append, pop_dialog=lambda: None, update=lambda: None,
                           run_task=lambda *a: None, views=[])
    language = i18n.PhoneLanguage()
    language.browser = ["de-DE"]
    toasts = []
    app = SimpleNamespace(ctx=ctx, store=ctx.store, page=page, phone=dict(PHONE_DEFAULTS), language=language,
                          sizes=Sizes(1.0), guard=guard, go=lambda route: None, dialogs=dialogs, toasts=toasts,
                          toast=lambda message, error=False: toasts.append(message),
                          file_picker=None, refresh=lambda: None, pending=[])
    app.later = app.pending.append  # what a worker thread hands to the phone's loop (run by the test)
    app.confirm = lambda title, text, yes, on_yes, danger=True: dialogs.append(
        ft.AlertDialog(title=ft.Text(title), content=ft.Text(text), actions=[ft.TextButton(content=yes)]))
    with speaking(language.lang):
        yield app
    ctx.close()


def test_the_screens_outside_a_campaign_speak_german(german_app):
    from companion.ui import home, settings
    from companion.ui.dice_screen import DiceScreen

    app = german_app
    cid = app.store.create("counter", "Freitag", {})
    app.ctx.backup_dir = None  # a server's database: the Backups screen says so
    app.ctx.set_setting("dice_history", [
        {"label": "2d6", "count": 2, "name": "", "shown": ["3", "4"], "total": 7, "physical": False},
        {"label": "1×custom die", "count": 1, "name": "custom die", "shown": ["Bug"], "total": None, "physical": True},
        {"label": "2d6", "count": 2, "name": "", "shown": ["1", "2"], "total": 3, "physical": False}])
    shown = []
    for screen in (home.HomeScreen(app), home.NewCampaignScreen(app), settings.SettingsScreen(app),
                   settings.BackupsScreen(app), DiceScreen(app)):
        shown += shown_words(screen.view())
    campaign = app.store.get(cid)
    home.rename_dialog(app, campaign)
    home.export_dialog(app, cid).thread.join(10)  # made in a worker thread, then shown
    for deferred in app.pending:
        deferred()
    home.import_dialog(app)
    home.HomeScreen(app)._duplicate(campaign)
    for dialog in app.dialogs:
        shown += shown_words(dialog)
    shown += app.toasts
    assert {"Neue Kampagne", "Einstellungen", "Sprache des Browsers (Deutsch)", "Riesig", "Würfel", "Verlauf",
            "Zuletzt gespielt: gerade eben", "Kampagne umbenennen", "„Freitag“ kopiert.",
            "2d6, Summe 7", "1×eigener Würfel: Bug · echte Würfel", "2d6: 1, 2 (Summe 3)"} <= set(shown)
    assert any(s.startswith("Läuft") for s in shown)
    assert any(re.fullmatch(r"0 Aktionen, \d+ Byte, als .+\.json\.", s) for s in shown)
    leftovers = english_words() & set(shown)
    assert leftovers == NOTATION


def test_backups_in_german(german_app, tmp_path):
    from companion.ui import settings

    app = german_app
    app.ctx.backup_now("manual")
    shown = shown_words(settings.BackupsScreen(app).view())
    assert "Jetzt sichern" in shown
    detail = next(s for s in shown if "von Hand" in s)
    assert re.fullmatch(r"gerade eben · von Hand · 0 Kampagnen · \d+ KB", detail)
    assert english_words() & set(shown) == set()


# --- no English literal slips past _() ---

TRANSLATING = {"_", "gettext", "ngettext", "pgettext", "N_", "Msg", "NMsg"}
# Calls and keywords whose strings are never shown to a player: locators, routes, keys, logs.
QUIET_CALLS = {"tagged", "keyed", "getattr", "hasattr", "setting", "set_setting", "go", "get", "startswith",
               "endswith", "split", "join", "replace", "strip", "format", "debug", "info", "warning", "error",
               "exception", "run_task", "backup_now", "create", "isinstance", "control",
               "rulebook"}  # a rulebook's section quoted as printed (companion.games.table_help.rulebook)
KEY_CALLS = {"tagged", "keyed"}  # (identifier, control): the control's words are shown
QUIET_KEYWORDS = {"identifier", "key", "route", "allowed_extensions", "file_name", "name"}
# Where a string is shown: the first argument of these calls (`icon_button`: its second) and these keywords.
SHOWN_CALLS = {"Text": 0, "big_button": 0, "section": 0, "note": 0, "toast": 0, "confirm": 0, "qr_dialog": 0,
               "switch_row": 0, "icon_button": 1, "InputError": 0, "RuleError": 0, "ImportRefused": 0}
SHOWN_KEYWORDS = {"label", "tooltip", "title", "content", "text", "caption", "hint_text", "helper_text", "value"}
# Helpers that write English whatever the phone's language.
ENGLISH_HELPERS = {"when", "strftime"}


def _call_name(node: ast.Call) -> str:
    f = node.func
    return f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""


def _literal_text(node: ast.AST) -> str:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(v.value for v in node.values if isinstance(v, ast.Constant))
    return ""


def _is_docstring(node: ast.AST, parent: ast.AST, grandparent: ast.AST) -> bool:
    return (isinstance(parent, ast.Expr) and isinstance(grandparent, (ast.Module, ast.ClassDef, ast.FunctionDef,
                                                                       ast.AsyncFunctionDef))
            and grandparent.body and grandparent.body[0] is parent)


def untranslated(source: str) -> list[str]:
    """Player-visible English in a module: literals shown without `_()`, `_()` of something the
    extractor can't read, `_()` run at import (always English), English-only helpers."""
    tree = ast.parse(source)
    parents: dict[ast.AST, ast.AST] = {}
    for node in ast.walk(tree):
        for child in ast.iter_child_nodes(node):
            parents[child] = node
    problems = []

    def chain(node):
        while node in parents:
            node = parents[node]
            yield node

    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and _call_name(node) in ENGLISH_HELPERS:
            problems.append(f"line {node.lineno}: {_call_name(node)}() writes English; use companion.i18n's fmt_*")
        if isinstance(node, ast.Call) and _call_name(node) in TRANSLATING:
            if not node.args or not (isinstance(node.args[0], ast.Constant) or _call_name(node) == "_"):
                problems.append(f"line {node.lineno}: {_call_name(node)}() needs a plain string the extractor can read")
            elif _call_name(node) in ("_", "gettext", "ngettext") and isinstance(node.args[0], ast.JoinedStr):
                problems.append(f"line {node.lineno}: _() of an f-string never matches the catalog")
            if _call_name(node) not in ("N_", "Msg", "NMsg") and not any(
                    isinstance(a, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)) for a in chain(node)):
                problems.append(f"line {node.lineno}: {_call_name(node)}() at import time is always English")
        if not isinstance(node, (ast.Constant, ast.JoinedStr)) or not re.search(r"[A-Za-z]", _literal_text(node)):
            continue
        if isinstance(parents.get(node), ast.JoinedStr):
            continue  # a part of an f-string: judged as the whole
        parent = parents.get(node)
        if _is_docstring(node, parent, parents.get(parent)):
            continue
        shown = quiet = False
        child = node
        for ancestor in chain(node):
            if isinstance(ancestor, ast.Call):
                name = _call_name(ancestor)
                if name in KEY_CALLS and ancestor.args and ancestor.args[0] is not child:
                    pass  # tagged("id", section("Words")): only the identifier is quiet
                elif name in TRANSLATING or name in QUIET_CALLS:
                    quiet = True
                    break
                if name in SHOWN_CALLS and SHOWN_CALLS[name] < len(ancestor.args) and ancestor.args[SHOWN_CALLS[name]] is child:
                    shown = True
            if isinstance(ancestor, ast.keyword) and ancestor.arg in QUIET_KEYWORDS:
                quiet = True
                break
            if (isinstance(ancestor, ast.keyword) and ancestor.arg == "title"
                    and isinstance(parents.get(ancestor), ast.Call) and _call_name(parents[ancestor]) == "Game"):
                quiet = True  # a game's published name: the same in every language
                break
            if isinstance(ancestor, ast.keyword) and ancestor.arg in SHOWN_KEYWORDS:
                shown = True
            if isinstance(ancestor, ast.Subscript) and child is ancestor.slice:
                quiet = True  # a key: entry["label"]
                break
            if isinstance(ancestor, ast.Dict) and any(k is child for k in ancestor.keys):
                quiet = True
                break
            if isinstance(ancestor, ast.Compare):
                quiet = True
                break
            if isinstance(ancestor, (ast.stmt,)):
                break
            child = ancestor
        if quiet:
            continue
        text = _literal_text(node)
        prose = bool(re.search(r"[A-Za-z]\W*\s+\W*[A-Za-z]|^\W*[A-Z][a-z]", text))  # words, or a capitalised word
        if shown or prose:
            problems.append(f"line {node.lineno}: {text!r}")
    return problems


@pytest.mark.parametrize("path", CONVERTED)
def test_no_english_literal_is_shown_untranslated(path):
    assert untranslated((ROOT / path).read_text(encoding="utf-8")) == []


def test_the_scanner_finds_what_it_should():
    found = untranslated('''
import flet as ft
TITLE = _("Dice")
def view(app, n):
    """A docstring is fine."""
    ok = [ft.Text(_("Roll")), tagged("dice-last", x), ft.Text(_("{n} of 6", n=n)), entry["label"], app.go("/dice")]
    bad = [ft.Text("Roll"), ft.TextField(label="Custom die name"), big_button(f"Roll {n}", None),
           icon_button(ft.Icons.ADD, "Add one", None), _(f"Roll {n}"), when(moment), "Tap a die to roll."]
''')
    assert sorted(p.split(":", 1)[1].strip() for p in found) == sorted([
        "_() at import time is always English", "'Roll'", "'Custom die name'", "'Roll '", "'Add one'",
        "_() of an f-string never matches the catalog", "when() writes English; use companion.i18n's fmt_*",
        "'Tap a die to roll.'"])


def test_a_refused_value_is_said_in_the_phone_s_language():
    """pydantic's own errors (a number out of range, a word too long, not a number) are said through
    the catalog, not in pydantic's English; a rule's refusal raised in a validator keeps its message."""
    from pydantic import BaseModel, Field, ValidationError, field_validator

    from companion.log import format_errors

    class Form(BaseModel):
        count: int = Field(ge=0, le=5)
        name: str = Field(max_length=3)
        odd: int = 1

        @field_validator("odd")
        @classmethod
        def _odd(cls, v):
            if v % 2 == 0:
                raise ValueError(Msg("{n} is not odd.", n=v))
            return v

    with pytest.raises(ValidationError) as refused:
        Form(count="x", name="abcdef", odd=2)
    said = format_errors(refused.value)
    assert said == "count: must be a whole number; name: must have at most 3 characters; odd: 2 is not odd."
    assert said.render("de").startswith("count: muss eine ganze Zahl sein; name: darf höchstens 3 Zeichen haben")
    with pytest.raises(ValidationError) as refused:
        Form(count=9, name="ab")
    assert format_errors(refused.value).render("de") == "count: darf höchstens 5 sein"
