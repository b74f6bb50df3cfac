"""Each game in two languages at one table (#15): a German phone and an English phone open the same
campaign of each of the five games, part-way through (automated decisions made, events in the history),
and each reads all of it in its own language — the panel, the explanations, the history and the frame.

What each phone reads is every text its screen reader would (Flutter's semantics tree), gathered while
scrolling the whole screen. The German phone must show no English message the catalog has German for,
and the two phones must share no sentence (what they share is names, numbers and the games' titles).
Then the English phone takes the last action back, and the German phone follows in German."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from companion.context import AppContext
from tests import story_games
from tests.browser import SMALL_PHONE, open_app, served, settled_screenshot, tap
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


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    db = tmp_path_factory.mktemp("languages") / "games.sqlite"
    ctx = AppContext.open(f"sqlite:///{db}", start_backup=False)
    cids = {game: make(ctx.store) for game, make in CAMPAIGNS.items()}
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
