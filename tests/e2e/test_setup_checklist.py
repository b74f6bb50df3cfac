"""End to end, phone size (412×915): a new campaign opens with its set-up checklist at the top,
ticks on this phone, and "Skip set-up" folds it to a one-line entry this phone can open again; a
move (on any phone) never takes it away nor moves it, and the reminders of the move's step come
below the game's panel; a reminder dismissed on one phone is gone from every phone (an action in
the campaign's log) and undo brings it back. Screenshots of two games' checklists, a folded one and
a reminder are kept for looking at (KLAW for three players, Biosphere 5 with The Abyss for four)."""

import re

from playwright.sync_api import expect

from tests.browser import PHONE, SMALL_PHONE, by_id, go, open_app, served, scroll_to, settled_screenshot, tap, tap_until, type_into, wait_steady
from tests.helpers import file_store


def shown(page, words: str):
    """A part of the screen whose words (its accessible name: a card, or a step's checkbox) hold `words`."""
    pattern = re.compile(re.escape(words))
    return page.get_by_role("group", name=pattern).or_(page.get_by_role("checkbox", name=pattern)).first


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

        # Skip folds it on this phone only, to an entry that keeps its ticks.
        tap(page, page.get_by_role("button", name="Skip set-up"))
        expect(by_id(page, "setup-checklist")).to_have_count(0)
        expect(page.get_by_role("button", name="Set-up checklist (1 of 5 done)")).to_be_attached()
        expect(by_id(other, "setup-checklist")).to_have_count(1)
        expect(shown(other, "Ann holds 8 cards")).to_be_attached()

        # The table dismisses a reminder: gone on both phones, in the history, and undo brings it back.
        reminder = by_id(page, "reminder-klaw-full-hand")
        tap(page, reminder.get_by_role("button", name="Dismiss for this campaign"))
        expect(by_id(page, "reminder-klaw-full-hand")).to_have_count(0)
        expect(by_id(other, "reminder-klaw-full-hand")).to_have_count(0)
        tap(page, page.get_by_role("button", name=re.compile("Undo: reminder dismissed")))
        expect(by_id(page, "reminder-klaw-full-hand")).to_have_count(1)
        settled_screenshot(page, artifacts / "setup-klaw-skipped-phone.png")

        # The first move, made on this phone: the other phone's open checklist stays, in the same
        # place (the game's panel under it doesn't jump), and the move's reminders come below the panel.
        # (A box is cut at the bottom bar, which loses its Redo row with the move: its top and the
        # steps' boxes are what must not move.)
        checklist, step = by_id(other, "setup-checklist"), by_id(other, "setup-step-hands")
        before = wait_steady(other, checklist)["y"], wait_steady(other, step)
        tap_until(page, page.get_by_role("button", name="Deploy a host", exact=True), page.get_by_label("Host name"))
        for label, value in (("Host name", "Wolfmother"), ("Attack dice", "3"), ("Defense dice", "2")):
            tap(page, page.get_by_label(label))
            type_into(page.get_by_label(label), value)
        tap(page, page.get_by_label("Life", exact=True))
        type_into(page.get_by_label("Life", exact=True), "10")
        tap(page, page.get_by_role("button", name="Deploy", exact=True))
        expect(by_id(other, "klaw-life-1")).to_have_text("10")
        expect(by_id(other, "reminder-klaw-draw")).to_be_attached()
        assert (wait_steady(other, checklist)["y"], wait_steady(other, step)) == before
        settled_screenshot(other, artifacts / "setup-klaw-after-first-move-phone.png")
        expect(shown(other, "(1 of 5 done)")).to_have_count(0)  # its own ticks: none
        expect(shown(other, "(0 of 5 done)")).to_be_attached()
        # This phone's folded entry stayed folded; it opens again with its tick, and folds back.
        expect(by_id(page, "setup-checklist")).to_have_count(0)
        tap(page, page.get_by_role("button", name="Set-up checklist (1 of 5 done)"))
        expect(shown(page, "Set up the table (1 of 5 done)")).to_be_attached()
        settled_screenshot(page, artifacts / "setup-klaw-reopened-phone.png")
        tap(page, page.get_by_role("button", name="Hide set-up"))
        expect(by_id(page, "setup-checklist")).to_have_count(0)
        scroll_to(page, by_id(page, "reminders"), near_top=False, bottom=100)
        settled_screenshot(page, artifacts / "setup-klaw-folded-reminder-phone.png")

        # A phone that joins after the first move finds the checklist folded, one tap away.
        _, late = open_app(browser, server, viewport=SMALL_PHONE)
        go(late, f"{server['base']}c/{klaw}")
        expect(late.get_by_role("button", name="Set-up checklist (0 of 5 done)")).to_be_visible()
        expect(by_id(late, "setup-checklist")).to_have_count(0)
        settled_screenshot(late, artifacts / "setup-klaw-late-360.png")
        tap(late, late.get_by_role("button", name="Set-up checklist (0 of 5 done)"))
        expect(shown(late, "Set up the table (0 of 5 done)")).to_be_attached()
        settled_screenshot(late, artifacts / "setup-klaw-checklist-360.png")
        context.close()
