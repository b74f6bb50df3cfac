"""Each phone its own language (#15): two phones at one table, one whose browser speaks German and one
English, each see the app in theirs — also the same campaign at the same moment; a phone may choose
another language in Settings (kept in its browser); German words are long, and nothing is cut off
on a small phone, even at the largest text size."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser import SMALL_PHONE, by_id, open_app, scroll_to, served, settled_screenshot, tap, type_into

TOKEN = "language-table-token-01"


@pytest.fixture
def server(tmp_path):
    with served(f"sqlite:///{tmp_path / 'language.sqlite'}", token=TOKEN) as s:
        yield s


def phone(browser, server, locale: str):
    """A phone whose browser asks for `locale` (navigator.language), joined with the code."""
    return open_app(browser, server, viewport=SMALL_PHONE, locale=locale)


def card(page, words: str):
    """A campaign's card on the home screen (a screen reader reads its lines as one)."""
    return page.get_by_role("group", name=re.compile(words))


def button(page, name: str):
    return page.get_by_role("button", name=name, exact=True)


def choose(page, name: str) -> None:
    tap(page, button(page, name))


def test_two_phones_two_languages(browser, server, artifacts):
    german, de = phone(browser, server, "de-DE")
    english, en = phone(browser, server, "en-US")

    # Each phone's home screen in its browser's language.
    expect(de.get_by_role("button", name="Neue Kampagne")).to_be_visible()
    expect(de.get_by_text("Noch keine Kampagnen. Starte eine mit „Neue Kampagne“.")).to_be_visible()
    expect(en.get_by_role("button", name="New campaign")).to_be_visible()
    expect(en.get_by_text("No campaigns yet. Start one with “New campaign”.")).to_be_visible()
    expect(de.get_by_role("button", name="New campaign")).to_have_count(0)

    # A campaign played on the English phone shows on the German one, in German.
    tap(en, en.get_by_role("button", name="New campaign"))
    tap(en, en.get_by_role("radio", name="Counter (test game)"))
    type_into(en.get_by_label("Campaign name"), "Freitag")
    tap(en, en.get_by_role("button", name="Create and open"))
    expect(by_id(en, "counter-value")).to_have_text("0")
    tap(en, en.get_by_role("button", name="Value +1"))  # an action: every home screen follows it
    expect(by_id(en, "counter-value")).to_have_text("1")
    expect(card(de, "Freitag .*Läuft · .*Zuletzt gespielt: gerade eben")).to_be_visible()
    settled_screenshot(de, artifacts / "language-home-de-360.png")

    # The campaign's frame on the German phone in German, while the English phone keeps English.
    de.goto(server["base"] + "c/1")
    expect(by_id(de, "counter-value")).to_have_text("1")
    expect(de.get_by_role("button", name=re.compile("^Rückgängig: ")).first).to_be_visible()
    expect(button(de, "Handwürfel")).to_be_visible()  # the dice tray
    expect(de.get_by_role("textbox", name=re.compile("^Würfelschale"))).to_be_visible()
    expect(button(de, "Hand die")).to_have_count(0)
    expect(button(en, "Hand die")).to_be_visible()
    settled_screenshot(de, artifacts / "language-campaign-de-360.png")
    de.goto(server["base"])
    en.goto(server["base"])
    expect(card(en, "Freitag .*In progress · .*Last played just now")).to_be_visible()

    # The German phone's settings: the browser's language is the default.
    tap(de, de.get_by_role("button", name="Einstellungen"))
    expect(button(de, "Sprache des Browsers (Deutsch)")).to_be_visible()
    expect(button(de, "Riesig")).to_be_visible()
    settled_screenshot(de, artifacts / "language-settings-de-360.png")

    # It chooses English: this phone redraws in English at once; the other phone is untouched.
    choose(de, "English")
    expect(button(de, "Huge")).to_be_visible()
    expect(button(de, "Browser's language (Deutsch)")).to_be_visible()
    de.wait_for_function("localStorage.getItem('flutter.companion.language') === '\"en\"'")
    de.reload()  # kept in its browser
    expect(button(de, "Huge")).to_be_visible()
    expect(card(en, "In progress · .*Last played")).to_be_visible()

    # Back to the browser's language, then the largest text size: long German words still fit.
    choose(de, "Browser's language (Deutsch)")
    expect(button(de, "Riesig")).to_be_visible()
    choose(de, "Riesig")
    de.wait_for_function("localStorage.getItem('flutter.companion.text_scale') === '1.7'")
    settled_screenshot(de, artifacts / "language-settings-de-huge-360.png")
    for name in ("Klein", "Riesig", "Wie das Handy", "Sprache des Browsers (Deutsch)"):
        # Scrolled to first: at this size the screen is several screens long, and Flutter describes
        # only what is on or near the screen.
        box = scroll_to(de, button(de, name), what=name)
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= SMALL_PHONE["width"], name

    # The English phone may choose German too.
    en.goto(server["base"] + "settings")
    choose(en, "Deutsch")
    expect(button(en, "Riesig")).to_be_visible()
    expect(button(en, "Sprache des Browsers (English)")).to_be_visible()
    german.close()
    english.close()
