"""End to end, phone size (412×915): a new campaign opens with its set-up checklist at the top,
ticks on this phone, and "Skip set-up" hides it; a reminder dismissed on one phone is gone from
every phone (an action in the campaign's log) and undo brings it back. Screenshots of two games'
checklists are kept for looking at (KLAW for three players, Biosphere 5 with The Abyss for four)."""

import re

from playwright.sync_api import expect

from tests.browser import PHONE, by_id, go, open_app, served, settled_screenshot, tap
from tests.helpers import file_store


def shown(page, words: str):
    """A part of the screen whose words (its accessible name: a card, a step) hold `words`."""
    return page.get_by_role("group", name=re.compile(re.escape(words))).first


def test_a_new_campaign_shows_its_checklist_and_skip_hides_it(browser, tmp_path, artifacts):
    store = file_store(tmp_path, "setup.sqlite")
    klaw = store.create("klaw", "Were night", {"players": ["Ann", "Bo", "Cy"]}, seed=5)
    bio = store.create("biosphere5", "Abyss night", {"opponent": "people", "abyss": True, "players": 4}, seed=5)
    store.db.close()
    with served(f"sqlite:///{tmp_path / 'setup.sqlite'}", token="setup-e2e-token-0123") as server:
        context, page = open_app(browser, server, viewport=PHONE)
        go(page, f"{server['base']}c/{bio}")
        expect(shown(page, "Set up the table (0 of 4 done)")).to_be_attached()
        expect(shown(page, "4 boards, 8 move markers, 112 cards in all.")).to_be_attached()  # 4 × (25 + 3)
        expect(shown(page, "Rulebook: 2.5 Four-player version")).to_be_attached()
        settled_screenshot(page, artifacts / "setup-biosphere5-abyss-4-phone.png")

        go(page, f"{server['base']}c/{klaw}")
        expect(shown(page, "For 3 players take 18 Host cards, 18 Totem cards and 90 Action and Item cards")).to_be_attached()
        expect(shown(page, "Turn order, as agreed (say clockwise from the highest die roll): Ann, Bo, Cy.")).to_be_attached()
        settled_screenshot(page, artifacts / "setup-klaw-3-phone.png")

        # A tick is this phone's: the count follows it.
        tap(page, by_id(page, "setup-step-deck").get_by_role("checkbox"))
        expect(shown(page, "Set up the table (1 of 5 done)")).to_be_attached()

        # A second phone at the table sees the checklist unticked, and the same reminder.
        _, other = open_app(browser, server, viewport=PHONE)
        go(other, f"{server['base']}c/{klaw}")
        expect(shown(other, "(0 of 5 done)")).to_be_attached()

        # Skip hides it on this phone only.
        tap(page, page.get_by_role("button", name="Skip set-up"))
        expect(by_id(page, "setup-checklist")).to_have_count(0)
        expect(by_id(other, "setup-checklist")).to_have_count(1)
        tap(other, other.get_by_role("button", name="Skip set-up"))
        expect(by_id(other, "setup-checklist")).to_have_count(0)
        expect(shown(other, "Ann holds 8 cards")).to_be_attached()

        # The table dismisses a reminder: gone on both phones, in the history, and undo brings it back.
        reminder = by_id(page, "reminder-klaw-full-hand")
        tap(page, reminder.get_by_role("button", name="Dismiss for this campaign"))
        expect(by_id(page, "reminder-klaw-full-hand")).to_have_count(0)
        expect(by_id(other, "reminder-klaw-full-hand")).to_have_count(0)
        tap(page, page.get_by_role("button", name=re.compile("Undo: reminder dismissed")))
        expect(by_id(page, "reminder-klaw-full-hand")).to_have_count(1)
        settled_screenshot(page, artifacts / "setup-klaw-skipped-phone.png")
        context.close()
