"""Every word a player reads, in each phone's own language: gettext catalogs read with Babel.

- The catalogs: `companion/locale/companion.pot` (extracted from the code by `make messages`) and one
  `companion/locale/<lang>/LC_MESSAGES/companion.po` per language. The .po files are read as they are
  when a language is first needed (Babel's `read_po`, compiled in memory): no build step, no .mo
  file to keep in step with its .po. The source language, English, needs no catalog.
- The current language is a `ContextVar`: the app sets it for a phone (`use`) at the start of each of
  that phone's handlers and redraws, so two phones at one table, served by one process, each read
  their own. Outside a phone (the command line, the tests) it is English.
- `_()` / `ngettext()` / `pgettext()` translate for the current phone, at once. Text made in one place
  and shown on many phones (a game's events, a rule's explanation) is a `Msg` instead: it keeps the
  message id and its parameters, and renders in each phone's language when shown (`render`).
- Numbers, percentages and dates follow the phone's locale (`fmt_number`, `fmt_percent`, `fmt_date`, ...).

Placeholders are `{name}` (str.format). Parameters are rendered for the language too: a `Msg` in
its language, an int or float as a number of its locale, anything with a `render(lang)` method by it.

>>> new = Msg("New campaign")
>>> new.render("en"), new.render("de")
('New campaign', 'Neue Kampagne')
>>> [NMsg("{n} campaign", "{n} campaigns", n).render("de") for n in (1, 2)]
['1 Kampagne', '2 Kampagnen']
>>> fmt_percent(2 / 3, lang="de"), fmt_percent(0.001, lang="en")
('67\\xa0%', '<1%')
"""

from __future__ import annotations

import asyncio
import gettext as _gettext
import io
import json
import logging
import re
from contextvars import ContextVar, Token
from dataclasses import dataclass
from datetime import date, datetime, timezone
from decimal import Decimal
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping, Optional, Union

from babel import Locale, UnknownLocaleError
from babel.dates import format_date, format_datetime, format_timedelta
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_decimal, parse_pattern
from babel.support import Translations

__all__ = ["_", "gettext", "ngettext", "pgettext", "N_", "Msg", "NMsg", "render", "Percent", "Number", "Lang", "lang", "Text",
           "as_text", "stored_text", "data_word",
           "current", "use", "speaking", "languages", "autonym", "negotiate", "PhoneLanguage", "BROWSER",
           "fmt_number", "fmt_percent", "fmt_date", "fmt_datetime", "fmt_ago"]

log = logging.getLogger(__name__)

DOMAIN = "companion"
LOCALE_DIR = Path(__file__).resolve().parent / "locale"
SOURCE = "en"  # the language of the message ids


@lru_cache(maxsize=None)
def languages() -> dict[str, str]:
    """The languages the app speaks, code → its own name ('de' → 'Deutsch'): English and every catalog."""
    codes = [SOURCE] + sorted(p.parent.parent.name for p in LOCALE_DIR.glob(f"*/LC_MESSAGES/{DOMAIN}.po"))
    return {code: autonym(code) for code in dict.fromkeys(codes)}


def autonym(code: str) -> str:
    """A language's name in itself, as a phone's language menu shows it ('Deutsch', 'English')."""
    try:
        name = Locale.parse(code).get_display_name(code) or code
    except (ValueError, UnknownLocaleError):
        return code
    return name[:1].upper() + name[1:]


@lru_cache(maxsize=None)
def _translations(code: str) -> _gettext.NullTranslations:
    """A language's catalog, read from its .po (fuzzy entries left out, as msgfmt would)."""
    po = LOCALE_DIR / code / "LC_MESSAGES" / f"{DOMAIN}.po"
    if code == SOURCE or not po.exists():
        return _gettext.NullTranslations()  # English: the message ids are the text
    with po.open("rb") as f:
        catalog = read_po(f, locale=code, domain=DOMAIN)
    mo = io.BytesIO()
    write_mo(mo, catalog, use_fuzzy=False)
    mo.seek(0)
    return Translations(mo, domain=DOMAIN)


@dataclass(frozen=True)
class Lang:
    """A language as one phone reads it: the catalog (`code`) and the locale numbers and dates follow
    (`locale`: the browser's own 'de_CH' when it asked for Swiss German)."""

    code: str
    locale: Locale

    @property
    def translations(self) -> _gettext.NullTranslations:
        return _translations(self.code)

    def __str__(self) -> str:
        return self.code


def lang(tag: Union[str, Lang, None] = None) -> Lang:
    """The Lang for a code or a browser's language tag ('de', 'de-CH', 'en_US'); one the app doesn't
    speak gives English."""
    return tag if isinstance(tag, Lang) else _lang(tag or SOURCE)


@lru_cache(maxsize=64)
def _lang(tag: str) -> Lang:
    tag = tag.replace("-", "_")
    try:
        locale = Locale.parse(tag)
    except (ValueError, UnknownLocaleError):
        return lang(SOURCE)
    code = locale.language if locale.language in languages() else SOURCE
    if code != locale.language:
        locale = Locale.parse(SOURCE)
    return Lang(code, locale)


ENGLISH = lang(SOURCE)
_active: ContextVar[Optional[Lang]] = ContextVar("companion_language", default=None)


def current() -> Lang:
    """The language of the phone this code runs for (English outside any phone)."""
    return _active.get() or ENGLISH


def use(language: Union[str, Lang, None]) -> Token:
    """Speak this language in the running handler or task (and what it starts) from now on."""
    return _active.set(lang(language))


class speaking:
    """`with speaking("de"): ...` — a language for a block, the previous one back afterwards."""

    def __init__(self, language: Union[str, Lang, None]):
        self.language = lang(language)

    def __enter__(self) -> Lang:
        self._token = _active.set(self.language)
        return self.language

    def __exit__(self, *exc) -> None:
        _active.reset(self._token)


# --- translating now, for the current phone ---

def _fill(text: str, params: Mapping[str, Any], language: Lang) -> str:
    if not params:
        return text
    return text.format_map({k: _param(v, language) for k, v in params.items()})


def _param(value: Any, language: Lang) -> str:
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, (int, float, Decimal)):
        return fmt_number(value, lang=language)
    render_in = getattr(value, "render", None)
    if callable(render_in):
        return render_in(language)
    return str(value)


def gettext(message: str, **params: Any) -> str:
    """`message` in the current phone's language, its `{placeholders}` filled with `params`."""
    language = current()
    if not message:
        return ""  # gettext("") is the catalog's header, never a message
    return _fill(language.translations.gettext(message), params, language)


_ = gettext


def ngettext(singular: str, plural: str, n: int, **params: Any) -> str:
    """The form for `n` in the current language (German and English have two; others more);
    `{n}` is filled with n unless `params` says otherwise."""
    language = current()
    return _fill(language.translations.ngettext(singular, plural, n), {"n": n, **params}, language)


def pgettext(context: str, message: str, **params: Any) -> str:
    """A short word that means different things in different places: `context` tells them apart."""
    language = current()
    return _fill(language.translations.pgettext(context, message), params, language)


def N_(message: str) -> str:
    """Marks a message for the catalog where it is written, translated where it is shown: `_(name)`."""
    return message


# --- text made once and shown on many phones ---

class Msg:
    """A message that renders in whichever language shows it.

    `Msg("{who} rolls {count} dice.", who="Ann", count=3)`; plural forms with `NMsg`. A parameter may
    itself be a Msg (rendered in the same language). `to_json`/`from_json` keep one in the log.
    `str(msg)` renders it for the current phone."""

    __slots__ = ("msgid", "plural", "n", "params")

    def __init__(self, msgid: str, *, _plural: Optional[str] = None, _n: Optional[int] = None, **params: Any):
        self.msgid = msgid
        self.plural = _plural
        self.n = _n
        self.params = params

    def render(self, language: Union[str, Lang, None] = None) -> str:
        language = _resolve(language)
        if self.msgid == _PARTS:
            return "".join(_param(part, language) for part in self.params["parts"])
        t = language.translations
        if self.plural is None:
            return _fill(t.gettext(self.msgid), self.params, language)
        return _fill(t.ngettext(self.msgid, self.plural, self.n), {"n": self.n, **self.params}, language)

    def __str__(self) -> str:
        return self.render()

    def __repr__(self) -> str:
        extra = f", plural={self.plural!r}, n={self.n!r}" if self.plural is not None else ""
        return f"Msg({self.msgid!r}{extra}, params={self.params!r})"

    def _key(self) -> tuple:
        return (self.msgid, self.plural, self.n, tuple(sorted((k, repr(v)) for k, v in self.params.items())))

    @property
    def english(self) -> str:
        """The message as the source language says it (what the code and the tests compare)."""
        return self.render(ENGLISH)

    def __eq__(self, other: object) -> bool:
        # A Msg equals another with the same id and parameters, and a str that is its English: text
        # written before a game spoke languages (a plain sentence in an old save) compares as before.
        if isinstance(other, str):
            return self.english == other
        return isinstance(other, Msg) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self.english)  # equal to a str with the same English, as __eq__ says

    def __contains__(self, part: str) -> bool:
        return part in self.render()

    def __add__(self, other: Any) -> "Msg":
        """`msg + " (waiting for dice)"`: the words joined in each language (the added part as well,
        when it is a Msg)."""
        return _side_by_side(self, other)

    def __radd__(self, other: Any) -> "Msg":
        return _side_by_side(other, self)

    def to_json(self) -> dict:
        data: dict[str, Any] = {"msgid": self.msgid}
        if self.plural is not None:
            data.update(plural=self.plural, n=self.n)
        if self.params:
            data["params"] = {k: _param_json(v) for k, v in self.params.items()}
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "Msg":
        params = {k: _param_from_json(v) for k, v in (data.get("params") or {}).items()}
        msgid = REWORDED.get(data["msgid"], data["msgid"])
        return cls(msgid, _plural=data.get("plural"), _n=data.get("n"), **params)


# A message saved in the log under words since changed (old msgid → today's, same placeholders): a
# game adds its own when it rewords one, so an old save's history still reads in every language.
REWORDED: dict[str, str] = {}


def _param_json(value: Any) -> Any:
    if isinstance(value, list):
        return [_param_json(v) for v in value]
    if isinstance(value, Msg):
        return {"msg": value.to_json()}
    if isinstance(value, Percent):
        return {"percent": value.p, "digits": value.digits}
    if isinstance(value, Number):
        return {"number": value.value, "digits": value.digits}
    return value


def _param_from_json(value: Any) -> Any:
    if isinstance(value, list):
        return [_param_from_json(v) for v in value]
    if isinstance(value, dict) and "msg" in value:
        return Msg.from_json(value["msg"])
    if isinstance(value, dict) and "percent" in value:
        return Percent(value["percent"], value.get("digits", 0))
    if isinstance(value, dict) and "number" in value:
        return Number(value["number"], value.get("digits", 1))
    return value


Text = Union[str, "Msg"]  # words for people: a plain str (a name, an old save's sentence) or a Msg


def as_text(value: Any) -> Any:
    """A stored text back as it was made: a Msg's JSON (a dict, or a str holding one) → Msg; else as is."""
    if isinstance(value, str) and value.startswith(_MSG_PREFIX):
        try:
            value = json.loads(value)
        except ValueError:
            return value
    if isinstance(value, dict) and "msgid" in value:
        return Msg.from_json(value)
    return value


def stored_text(value: Any, limit: Optional[int] = None) -> str:
    """A text for a str column of the save: a Msg as its JSON (read back with `as_text`), a str as it is.
    A column of `limit` characters takes a Msg too long for it as its English, cut to fit."""
    if isinstance(value, Msg):
        dumped = json.dumps(value.to_json(), ensure_ascii=False, separators=(",", ":"))
        if limit is None or len(dumped) <= limit:
            return dumped
        value = value.english
    value = "" if value is None else str(value)
    return value if limit is None else value[:limit]


_MSG_PREFIX = '{"msgid":'
# Texts side by side (not a message of its own: nothing to translate), each part said in the phone's
# language: one flat list however many are joined. (Older saves nest pairs, "{first}{second}" with
# first/second params, each level ~60 bytes of the log: they read as any message does.)
_PARTS = "{parts}"


def _side_by_side(*texts: Any) -> Msg:
    parts: list[Any] = []
    for text in texts:
        for part in text.params["parts"] if isinstance(text, Msg) and text.msgid == _PARTS else [text]:
            if isinstance(part, str) and parts and isinstance(parts[-1], str):
                parts[-1] += part  # plain words next to plain words: one str
            elif not (isinstance(part, str) and part == ""):
                parts.append(part)
    return Msg(_PARTS, parts=parts)


def joined(items: Iterable[Any], separator: str = ", ") -> Any:
    """Texts one after the other, `separator` between them (the same in the languages the app speaks):
    "Shack, Garden", clauses of a rule. A plain str when every one is, else a Msg that says each in the
    phone's language; "" for none."""
    items = list(items)
    if all(isinstance(i, str) for i in items):
        return separator.join(items)
    if len(items) == 1:
        return items[0]
    with_separators = [part for i, item in enumerate(items) for part in ((separator, item) if i else (item,))]
    return _side_by_side(*with_separators)


def data_word(word: str) -> Msg:
    """A word the rules keep as data (a die's name, a face's, who rolls), said in the phone's language
    where the catalog has it: its game marks it for the catalog with `N_()` where it defines it."""
    return Msg(word)


def NMsg(singular: str, plural: str, n: int, **params: Any) -> Msg:
    """A Msg with plural forms: the form for `n` is chosen in each language (`{n}` is n)."""
    return Msg(singular, _plural=plural, _n=n, **params)


def render(text: Any, language: Union[str, Lang, None] = None) -> str:
    """Text for a phone: a Msg (or anything with `render(lang)`) in `language` (default: the current
    phone's), a number in its locale, a str as it is."""
    return _param(text, _resolve(language))


# --- numbers, percentages and dates in the phone's locale ---

def _resolve(language: Union[str, Lang, None]) -> Lang:
    return current() if language is None else lang(language)


def _locale(language: Union[str, Lang, None]) -> Locale:
    return _resolve(language).locale


def fmt_number(value: Union[int, float, Decimal], digits: Optional[int] = None, *,
               lang: Union[str, Lang, None] = None) -> str:
    """1234.5 → '1,234.5' / '1.234,5'; `digits`: exactly that many decimals."""
    return _number(value, digits, _resolve(lang))


# Formatting is pure and Babel's is slow (~10 µs a number): a redraw writes the same few dozen
# numbers again and again, on every phone (#16).
@lru_cache(maxsize=4096, typed=True)
def _number(value: Union[int, float, Decimal], digits: Optional[int], language: Lang) -> str:
    locale = language.locale
    if digits is None:
        return format_decimal(value, locale=locale)
    pattern = parse_pattern(locale.decimal_formats[None].pattern)
    pattern.frac_prec = (digits, digits)
    return pattern.apply(Decimal(str(value)), locale)


def fmt_percent(p: float, digits: int = 0, *, lang: Union[str, Lang, None] = None) -> str:
    """A probability as the app always writes one (the rules of `games.base.percent`: '67%', '<1%',
    '>99%', never 0% or 100% for what may or may not happen), in the locale's way: '67 %' in German."""
    return _percent(float(p), digits, _resolve(lang))


@lru_cache(maxsize=4096)
def _percent(p: float, digits: int, language: Lang) -> str:
    locale = language.locale

    def pct(value: Decimal, places: int) -> str:
        pattern = parse_pattern(locale.percent_formats[None].pattern)
        pattern.frac_prec = (places, places)
        return pattern.apply(value, locale)

    if p <= 0:
        return pct(Decimal(0), 0)
    if p >= 1:
        return pct(Decimal(1), 0)
    edge = 0.5 / 10 ** (digits + 2)
    step = Decimal(1).scaleb(-digits - 2)  # 1% (digits=0), 0.1% (digits=1), as a fraction
    if p < edge:
        return "<" + pct(step, digits)
    if p > 1 - edge:
        return ">" + pct(1 - step, digits)
    return pct(Decimal(f"{p * 100:.{digits}f}").scaleb(-2), digits)  # rounded as games.base.percent rounds


class Percent:
    """A probability to put in a Msg: rendered with `fmt_percent` in each phone's language."""

    __slots__ = ("p", "digits")

    def __init__(self, p: float, digits: int = 0):
        self.p, self.digits = float(p), digits

    def render(self, language: Union[str, Lang, None] = None) -> str:
        return fmt_percent(self.p, self.digits, lang=language)

    def __repr__(self) -> str:
        return f"Percent({self.p!r}, {self.digits!r})"


class Number:
    """A number with a fixed count of decimals to put in a Msg ('0.8' / '0,8' for Number(0.8, 1))."""

    __slots__ = ("value", "digits")

    def __init__(self, value: float, digits: int = 1):
        self.value, self.digits = float(value), digits

    def render(self, language: Union[str, Lang, None] = None) -> str:
        return fmt_number(self.value, self.digits, lang=language)

    def __repr__(self) -> str:  # a Msg compares its parameters by repr
        return f"Number({self.value!r}, {self.digits!r})"


def fmt_date(value: Union[date, datetime], format: str = "medium", *, lang: Union[str, Lang, None] = None) -> str:
    """'Mar 12, 2026' / '12.03.2026' (`format`: 'short', 'medium', 'long', 'full' or a CLDR pattern)."""
    return format_date(value, format=format, locale=_locale(lang))


def fmt_datetime(value: datetime, format: str = "medium", *, lang: Union[str, Lang, None] = None) -> str:
    """'Mar 12, 2026, 2:05:09 PM' / '12.03.2026, 14:05:09', in this computer's time zone."""
    if value.tzinfo is not None:
        value = value.astimezone()
    return format_datetime(value, format=format, locale=_locale(lang))


def fmt_ago(moment: datetime, now: Optional[datetime] = None, *, lang: Union[str, Lang, None] = None) -> str:
    """When something last happened: 'just now', '5 minutes ago', 'yesterday', or its date."""
    language = _resolve(lang)
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=timezone.utc)
    now = now or datetime.now(timezone.utc)
    delta = moment - now
    seconds = -delta.total_seconds()
    t = language.translations
    if seconds < 60:
        return t.gettext("just now")
    if seconds < 86400:
        return format_timedelta(delta, add_direction=True, locale=language.locale)
    if seconds < 2 * 86400:
        return t.gettext("yesterday")
    return fmt_date(moment.astimezone(), lang=language)


# --- each phone's language ---

def negotiate(tags: Iterable[str]) -> Lang:
    """The first of a browser's languages ('de-CH', 'en-US', ...) that the app speaks, with that
    tag's locale for numbers and dates; English when none is."""
    spoken = languages()
    for tag in tags:
        if not isinstance(tag, str) or not tag.strip():
            continue
        candidate = lang(tag.strip())
        if candidate.code in spoken and (candidate.code != SOURCE or _is_english(tag)):
            return candidate
    return ENGLISH


def _is_english(tag: str) -> bool:
    return re.split(r"[-_]", tag.strip().lower())[0] == SOURCE


async def browser_languages(page: Any, timeout: float = 3.0) -> list[str]:
    """The languages the phone's browser asks for, best first (navigator.languages; on the desktop
    app, the system's locales). Empty when the client doesn't say in time."""
    try:
        info = await asyncio.wait_for(page.get_device_info(), timeout)
    except Exception:
        log.debug("the client's languages are unknown", exc_info=True)
        return []
    if info is None:
        return []
    tags = list(getattr(info, "languages", None) or [])
    if getattr(info, "language", None):
        tags.append(info.language)
    for loc in getattr(info, "locales", None) or []:
        code = getattr(loc, "language_code", None)
        if code and code != "und":
            country = getattr(loc, "country_code", None)
            tags.append(f"{code}-{country}" if country else code)
    return list(dict.fromkeys(tags))


BROWSER = ""  # a phone's language choice: follow its browser
LATE_ANSWER = 60.0  # seconds a busy phone may take to say its languages (then it redraws in them)


class PhoneLanguage:
    """One phone's language: its choice (kept in its browser like its other settings: '' follows the
    browser, else a language code) and what its browser asks for."""

    def __init__(self, prefs: Any = None, key: str = "companion.language"):
        self.prefs = prefs
        self.key = key
        self.choice = BROWSER
        self.browser: list[str] = []

    @staticmethod
    def valid(choice: Any) -> str:
        return choice if isinstance(choice, str) and (choice == BROWSER or choice in languages()) else BROWSER

    @property
    def browsers(self) -> Lang:
        """The language its browser asks for (among those the app speaks)."""
        return negotiate(self.browser)

    @property
    def lang(self) -> Lang:
        if self.choice == BROWSER:
            return self.browsers
        browsers = self.browsers
        # Chosen by hand: that language, in the browser's locale when it is the same language.
        return browsers if browsers.code == self.choice else lang(self.choice)

    async def load(self, page: Any, timeout: float = 3.0, on_late: Optional[Callable[[], None]] = None) -> None:
        """Read the phone's choice and its browser's languages, waiting at most `timeout` for each. A
        busy phone may answer later: then `on_late()` is called (to redraw in its language)."""
        asking = asyncio.ensure_future(browser_languages(page, LATE_ANSWER))

        async def choice() -> Any:
            if self.prefs is None:
                return BROWSER
            try:
                return await asyncio.wait_for(self.prefs.get(self.key), timeout)
            except Exception:
                log.debug("the phone's language choice is unreadable", exc_info=True)
                return BROWSER
        self.choice = self.valid(await choice())
        done, _pending = await asyncio.wait({asking}, timeout=timeout)
        if asking in done:
            self.browser = asking.result()
        else:
            def arrived(task: asyncio.Future) -> None:
                if task.cancelled() or task.exception() is not None or not task.result() or self.browser:
                    return
                before = self.lang
                self.browser = task.result()
                log.debug("a phone's languages came late: %s", self.browser)
                # Redraw only for another catalog: a redraw rebuilds the screen, and a phone that was
                # slow to say 'en-US' may already be typing into it (its numbers follow from the next draw).
                if on_late is not None and self.lang.code != before.code:
                    on_late()
            asking.add_done_callback(arrived)
        log.debug("a phone's languages: browser %s, chosen %r", self.browser, self.choice)

    def choose(self, choice: Any) -> None:
        self.choice = self.valid(choice)

    async def keep(self) -> None:
        """Keep the choice in the phone's browser."""
        if self.prefs is not None:
            try:
                await self.prefs.set(self.key, self.choice)
            except Exception:
                log.warning("the language choice could not be kept in the browser", exc_info=True)

    def locale_configuration(self) -> Any:
        """For Flet's page: Flutter's own words (a back button's tooltip, a date picker) follow too."""
        import flet as ft

        current_lang = self.lang
        supported = [ft.Locale(code) for code in languages()]
        return ft.LocaleConfiguration(supported_locales=supported, current_locale=ft.Locale(current_lang.code))
