"""Each game in two languages at one table (#15): a German phone and an English phone open the same
campaign of each of the five games, part-way through (automated decisions made, events in the history),
and each reads all of it in its own language — the panel, the explanations, the history and the frame.

What each phone reads is every text its screen reader would (Flutter's semantics tree), gathered while
scrolling the whole screen. The German phone must show no English message the catalog has German for,
and the two phones must share no sentence (what they share is names, numbers and the games' titles).
Then the English phone takes the last action back, and the German phone follows in German.

Every other language with a catalog (#34: found in companion/locale, so a new catalog is tested with
no edit here) plays one turn of two games on a phone whose browser asks for it, tapping its buttons by
their words in that language, and reads no English before or after but names and the games' titles;
its Settings list it in its own name. Two games, not five, keep CI short (German keeps the five)."""

from __future__ import annotations

import re
from functools import lru_cache

import pytest
from playwright.sync_api import expect

from companion import i18n
from companion.context import AppContext
from tests import story_games
from tests.browser import SMALL_PHONE, by_id, open_app, scroll_to, served, settled_screenshot, tap
from tests.test_i18n import NOTATION, english_words

TOKEN = "language-games-token-0001"

# Each game part-way through, played by the rules' own moves with the campaign's seeded dice.
CAMPAIGNS = {
    "save_the_singularity": lambda store: story_games.save_the_singularity(store, "Quiz night", actions=14),
    "shadowrun": lambda store: story_games.shadowrun(store, "Sprawl night"),
    "klaw": lambda store: story_games.klaw(store, "Were night", to_the_end=False),
    "biosphere5": lambda store: story_games.biosphere5(store, "Abyss night"),
    "human_ethos": lambda store: story_games.human_ethos(store, "Ethos night", lose=False),
}

# What both phones may show alike: names players gave, the games' published titles, dice notation.
SHARED_OK = re.compile(r"^(Quiz night|Sprawl night|Were night|Abyss night|Ethos night|Ada|Bea|Cy|Ana|Ben|Kai|Rex|Max|"
                       r"Ada · Rationalist|Heist|Extraction|Wetwork|Save the Singularity|Shadowrun: Singularis|KLAW: Were-Wars|"
                       r"Biosphere 5|The Singularity War: Human Ethos|Table Companion)$")

READ_SCREEN = """() => {
  const out = [];
  for (const n of document.querySelectorAll('flt-semantics')) {
    const label = n.getAttribute('aria-label');
    if (label) out.push(label);
    for (const c of n.childNodes) if (c.nodeType === 3 && c.textContent.trim()) out.push(c.textContent);
  }
  for (const n of document.querySelectorAll('input, textarea')) if (n.value) out.push(n.value);
  return out;
}"""


def read_whole_screen(page) -> set[str]:
    """Every text on the screen, scrolled from top to bottom (Flutter only describes what is near view)."""
    seen: set[str] = set()
    viewport = page.viewport_size
    page.mouse.move(viewport["width"] / 2, viewport["height"] / 2)
    unchanged = 0
    for _ in range(80):
        before = len(seen)
        seen.update(line.strip() for text in page.evaluate(READ_SCREEN) for line in text.split("\n") if line.strip())
        unchanged = unchanged + 1 if len(seen) == before else 0
        if unchanged >= 4:  # the bottom reached: four scrolls brought nothing new
            break
        page.mouse.wheel(0, viewport["height"] * 0.6)
        page.wait_for_timeout(150)
    return seen


def sentences(texts: set[str]) -> set[str]:
    """The texts that are words (at least two of them), not a name or a number."""
    return {t for t in texts if re.search(r"[A-Za-zÄÖÜäöüß]{2,}\W+[A-Za-zÄÖÜäöüß]{2,}", t) and not SHARED_OK.match(t)}


# The languages besides English and German (found, not listed), each playing a turn of these games.
NEW_LANGUAGES = sorted(set(i18n.languages()) - {i18n.SOURCE, "de"})
TURN_GAMES = ("save_the_singularity", "klaw")


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    db = tmp_path_factory.mktemp("languages") / "games.sqlite"
    ctx = AppContext.open(f"sqlite:///{db}", start_backup=False)
    cids = {game: make(ctx.store) for game, make in CAMPAIGNS.items()}
    cids.update({(code, game): CAMPAIGNS[game](ctx.store) for code in NEW_LANGUAGES for game in TURN_GAMES})
    ctx.close()
    with served(f"sqlite:///{db}", token=TOKEN) as server:
        yield server, cids


@pytest.mark.parametrize("game", list(CAMPAIGNS))
def test_a_german_and_an_english_phone_read_the_same_game(browser, table, game, artifacts):
    server, cids = table
    _gc, german = open_app(browser, server, viewport=SMALL_PHONE, locale="de-DE")
    _ec, english = open_app(browser, server, viewport=SMALL_PHONE, locale="en-US")
    for page in (german, english):
        page.goto(f"{server['base']}c/{cids[game]}")
    expect(german.get_by_role("button", name="Kampagnen-Einstellungen")).to_be_visible()
    expect(english.get_by_role("button", name="Campaign settings")).to_be_visible()
    settled_screenshot(german, artifacts / f"language-{game}-de.png")

    on_german, on_english = read_whole_screen(german), read_whole_screen(english)
    left_in_english = sorted((english_words() - NOTATION) & on_german)
    assert left_in_english == [], f"English on the German phone: {left_in_english}"
    shared = sorted(sentences(on_german) & sentences(on_english))
    assert shared == [], f"the same words on both phones (untranslated?): {shared}"

    # The English phone takes the last action back; the German phone follows, in German.
    english.mouse.wheel(0, -100_000)
    tap(english, english.get_by_role("button", name=re.compile(r"^Undo: ")))
    expect(german.get_by_role("button", name=re.compile(r"^Wiederholen: "))).to_be_visible()
    expect(english.get_by_role("button", name=re.compile(r"^Redo: "))).to_be_visible()


# --- every other language: one turn of two games ------------------------------------------------------

def _pattern(text: str) -> str:
    """A message's words as a regex, its placeholders standing for anything."""
    return ".+".join(re.escape(part) for part in re.split(r"\{[^{}]*\}", text))


def said(code: str, message: str, plural: str | None = None) -> re.Pattern:
    """A message (each of its plural forms) as a phone speaking `code` shows it, placeholders filled."""
    words = i18n.lang(code).translations
    forms = {words.ngettext(message, plural, n) for n in (1, 2, 5, 1_000_000)} if plural else {words.gettext(message)}
    return re.compile("^(" + "|".join(_pattern(f) for f in sorted(forms)) + ")$")


@lru_cache(maxsize=None)
def english_sentences(code: str) -> tuple[re.Pattern, ...]:
    """The catalog's English messages with parameters ("Turn {turn} · {name} · {at_risk} at risk"), filled in
    by anything, whose translation into `code` differs and which have two words of their own: a message
    that reaches the screen in English, parameters and all, matches one."""
    from babel.messages.pofile import read_po

    po_path = i18n.LOCALE_DIR / code / "LC_MESSAGES" / "companion.po"
    with po_path.open("rb") as f:
        catalog = read_po(f, locale=code)
    found = []
    for m in catalog:
        ids = m.id if isinstance(m.id, tuple) else (m.id,)
        strings = m.string if isinstance(m.string, tuple) else (m.string,)
        for english in ids:
            own_words = re.split(r"\{[^{}]*\}", english)
            if len(own_words) > 1 and len(re.findall(r"[A-Za-z]{2,}", " ".join(own_words))) >= 2 \
                    and english not in strings:
                found.append(re.compile(_pattern(english)))
    return tuple(found)


@lru_cache(maxsize=None)
def english_phrases(code: str) -> re.Pattern:
    """The catalog's English messages of two words or more that `code` says otherwise ("last host
    standing"), found inside a longer text too: a message put into another in English."""
    phrases = sorted((w for w in english_words(code) - NOTATION if len(re.findall(r"[A-Za-z]{2,}", w)) >= 2),
                     key=len, reverse=True)
    return re.compile(r"(?<![\w])(" + "|".join(re.escape(p) for p in phrases) + r")(?![\w])")


def english_on(code: str, texts: set[str]) -> list[str]:
    """What of `texts` is English that the catalog says in `code`: a whole message, one with its
    parameters filled, or a message of two words or more inside a longer text."""
    whole = (english_words(code) - NOTATION) & texts
    filled = {t for t in texts - whole for p in english_sentences(code) if p.fullmatch(t)}
    inside = {t for t in texts - whole - filled if english_phrases(code).search(t)}
    return sorted(whole | filled | inside)


def sts_turn(page, code: str) -> None:
    """Save the Singularity: the player whose turn it is throws and stops (or busts), then the world
    rolls its d12 until a Stop, tapping the one main button by its words, until the next player's turn."""
    main = [said(code, "Roll {n} die", "Roll {n} dice"), said(code, "Stop and bank {points}"),
            said(code, "Take the bust (lose {points})"), said(code, "Roll the d12")]
    worlds_turn = said(code, "The world's turn (after {name})")
    turn = by_id(page, "sts-turn")
    start, world_seen = turn.inner_text(), False
    for _ in range(40):
        now = turn.inner_text()
        if worlds_turn.match(now):
            world_seen = True
        elif world_seen and now != start:
            return  # a player's turn after the world's: the turn is over
        button = page.get_by_role("button", name=re.compile("|".join(p.pattern for p in main))).first
        button.wait_for()
        label = button.get_attribute("aria-label") or button.inner_text()
        before = int(by_id(page, "sts-move").inner_text())
        tap(page, page.get_by_role("button", name=label, exact=True))
        try:
            expect(by_id(page, "sts-move")).to_have_text(str(before + 1), timeout=4000)
        except AssertionError:  # a tap Flutter dropped while redrawing: tap again if nothing happened
            assert int(by_id(page, "sts-move").inner_text()) == before
            tap(page, page.get_by_role("button", name=label, exact=True))
            expect(by_id(page, "sts-move")).to_have_text(str(before + 1))
    raise AssertionError(f"the turn did not end: {turn.inner_text()}")


def klaw_turn(page, code: str) -> None:
    """KLAW: the player whose host just won a fight ends the turn, by its button's words (no card is
    drawn after a combat); the next player's turn begins."""
    title = by_id(page, "klaw-turn")
    before = title.inner_text()
    tap(page, page.get_by_role("button", name=said(code, "End turn (no card drawn after a combat)")).first)
    expect(title).not_to_have_text(before)


TURNS = {"save_the_singularity": sts_turn, "klaw": klaw_turn}


@pytest.mark.parametrize("game", TURN_GAMES)
@pytest.mark.parametrize("code", NEW_LANGUAGES)
def test_a_phone_in_another_language_plays_a_turn(browser, table, code, game, artifacts):
    server, cids = table
    context, page = open_app(browser, server, viewport=SMALL_PHONE, locale=code)
    page.goto(f"{server['base']}c/{cids[(code, game)]}")
    # (the app loads its client again for the new address: on a loaded machine that takes a while)
    settings = i18n.lang(code).translations.gettext("Campaign settings")  # (an icon's name: said twice, with its tooltip)
    expect(page.get_by_role("button", name=settings)).to_be_visible(timeout=60_000)
    before = read_whole_screen(page)
    left = english_on(code, before)
    assert left == [], f"English on the {code} phone before the turn: {left}"

    page.mouse.wheel(0, -100_000)
    TURNS[game](page, code)
    settled_screenshot(page, artifacts / f"language-{game}-{code}.png")
    after = read_whole_screen(page)
    left = english_on(code, after)
    assert left == [], f"English on the {code} phone after the turn: {left}"
    assert after != before  # the turn changed what the screen says
    context.close()


@pytest.mark.parametrize("code", NEW_LANGUAGES)
def test_settings_list_each_language_in_its_own_name(browser, table, code):
    server, _ = table
    context, page = open_app(browser, server, viewport=SMALL_PHONE, locale=code)
    page.goto(f"{server['base']}settings")
    own = i18n.autonym(code)
    browsers = i18n.lang(code).translations.gettext("Browser's language ({language})").format(language=own)
    expect(page.get_by_role("button", name=browsers, exact=True)).to_be_visible(timeout=60_000)
    for name in i18n.languages().values():  # English, Deutsch, Français, …: each as its speakers write it
        assert scroll_to(page, page.get_by_role("button", name=name, exact=True), what=name)  # (six languages: a long list)
    context.close()
