"""Biosphere 5 end to end in headless Chromium: import a complete catalog from a file, create a
Man-against-Machine campaign, reveal cards by tapping their tiles, let the Machine decide, read its
instruction, undo, redo, reload (kept); three Machine turns with a human catastrophe between them, at a
table rolling physical dice: the Machine's rescue dice are entered as black hand / blank faces on the
frame's dice pad; the catalog's delete button and its QR codes in parts; The Abyss on a desktop (its
players side by side under an overview), a leader using a lower tier's ability; the changed screens and
dialogs at 360 px (also at the largest text), 412 px and 1280 px."""

import re

import pytest
from playwright.sync_api import expect

from companion.games.biosphere5.cards import Catalog, dump_catalog
from tests.browser import DESKTOP, PHONE, by_id, go, open_app, served, settled_screenshot, tap, type_into, wait_steady
from tests.games.test_biosphere5_cards import TEST_DECK


@pytest.fixture
def server(tmp_path):
    with served(f"sqlite:///{tmp_path / 'bio5.sqlite'}", token="biosphere5-e2e-token", extra_env={"COMPANION_SEED": "7"}) as s:
        yield s


def open_page(browser, server, viewport=None):
    return open_app(browser, server, viewport=viewport or PHONE)


def pick(page, name: str) -> None:
    """Tap a revealed card's tile on the grid of the whole catalog (no typing); wait until it is listed
    as tapped (the redraw moves the tiles below it: a tap made before it settles can land on empty
    space)."""
    tap(page, page.get_by_role("button", name=re.compile(f"^{name}")), steady=True)
    expect(page.get_by_role("button", name=re.compile(f"^Remove {name}")).first).to_be_visible()


def decide(page) -> None:
    """Tap "Let the Machine decide" once it has stopped moving (the picks above it redraw)."""
    expect(by_id(page, "reveal-status")).to_contain_text("ready")
    tap(page, page.get_by_role("button", name="Let the Machine decide"), steady=True)


def tap_until(page, button, check, tries: int = 3) -> None:
    """Tap a round +1 button until its effect shows: a second tap on the same spot right after a
    redraw is sometimes not delivered by Flutter's web engine in headless Chromium."""
    for attempt in range(tries):
        tap(page, button)
        try:
            check()
            return
        except AssertionError:
            if attempt == tries - 1:
                raise


def enter_dice(page, faces: list[str]) -> None:
    """The frame's "Waiting for dice" card: tap each face's big button, then use the dice."""
    expect(by_id(page, "pending-dice")).to_be_visible()
    n = len(faces)
    for i, face in enumerate(faces):
        button = page.get_by_role("button", name=f"face {face}", exact=True)
        tap(page, button)
        try:
            expect(page.get_by_text(f"{i + 1} of {n} entered", exact=True)).to_be_visible(timeout=4000)
        except AssertionError:  # a tap Flutter dropped while redrawing: tap again if nothing was entered
            expect(page.get_by_text(f"{i} of {n} entered", exact=True)).to_be_visible()
            tap(page, button)
            expect(page.get_by_text(f"{i + 1} of {n} entered", exact=True)).to_be_visible()
    tap(page, page.get_by_role("button", name="Use these dice"))
    expect(by_id(page, "pending-dice")).to_have_count(0)


def test_catalog_import_machine_turn_undo_redo_reload(browser, server, artifacts, tmp_path):
    context, page = open_page(browser, server)
    tap(page, page.get_by_role("button", name="New campaign"))
    tap(page, page.get_by_role("radio", name="Biosphere 5"))
    expect(by_id(page, "game-summary")).to_contain_text("Machine")
    type_into(page.get_by_label("Campaign name"), "Solo night")
    tap(page, page.get_by_role("button", name="Create and open"))
    expect(page.get_by_role("button", name="Reveal 2 cards")).to_be_visible()
    expect(by_id(page, "machine-level")).to_have_text("2")
    campaign_url = page.url

    # The shipped catalog is incomplete: import a complete deck from a file, replacing it.
    tap(page, page.get_by_role("button", name=re.compile("^Card catalog")))
    expect(by_id(page, "catalog-summary")).to_contain_text("of 25 cards entered")
    settled_screenshot(page, artifacts / "biosphere5-catalog-phone.png")
    tap(page, page.get_by_role("button", name="Import"))
    deck = tmp_path / "biosphere5-catalog.json"
    deck.write_text(dump_catalog(Catalog(complete=True, cards=TEST_DECK)), encoding="utf-8")
    with page.expect_file_chooser() as chooser:
        tap(page, page.get_by_role("button", name="Choose a file"))
    chooser.value.set_files(str(deck))
    expect(page.get_by_text("biosphere5-catalog.json is read: add its cards or replace yours.")).to_be_visible()
    tap(page, page.get_by_role("button", name="Replace my catalog"))
    expect(by_id(page, "catalog-summary")).to_have_text("25 of 25 cards entered")
    tap(page, page.get_by_role("button", name="Back to the game"))

    # Round 1: the Machine reveals 2 cards; it plays the highest-value playable achievement.
    tap(page, page.get_by_role("button", name="Reveal 2 cards"))
    pick(page, "Deep Well")
    expect(by_id(page, "reveal-status")).to_have_text("1 of 2 tapped — tap 1 more")
    pick(page, "Shack")
    expect(by_id(page, "reveal-status")).to_have_text("2 of 2 tapped — ready")
    settled_screenshot(page, artifacts / "biosphere5-reveal-phone.png")
    decide(page)
    instruction = "The Machine plays Deep Well — perfect water achievement: place a green cube on water."
    expect(by_id(page, "machine-instruction")).to_have_text(instruction)
    expect(by_id(page, "machine-why")).to_contain_text("Rule 5")
    expect(by_id(page, "machine-water")).to_contain_text("perfect")
    settled_screenshot(page, artifacts / "biosphere5-decision-phone.png")

    tap(page, page.get_by_role("button", name="Undo: Machine reveals 2"))
    expect(page.get_by_role("button", name="Reveal 2 cards")).to_be_visible()
    expect(by_id(page, "machine-water")).to_contain_text("—")
    tap(page, page.get_by_role("button", name="Redo"))
    expect(by_id(page, "machine-instruction")).to_have_text(instruction)

    page.reload()
    expect(by_id(page, "machine-instruction")).to_have_text(instruction)
    expect(by_id(page, "machine-water")).to_contain_text("perfect")

    context.close()


def test_three_machine_turns_and_a_human_catastrophe(browser, tmp_path, artifacts):
    """Man against Machine on a prepared catalog (the complete test deck, put in the database as a
    second phone would): three Machine turns — an achievement, a second achievement, Espionage telling
    the human what to discard — and between them a Hurricane against the Machine. The table rolls
    physical dice: the Hurricane waits for the Machine's 2 hand dice, entered as a black hand and a
    blank, so the Machine drops to level 1 instead of losing; reload keeps it."""
    from companion.games.biosphere5.screens import import_text
    from tests.helpers import file_store

    store = file_store(tmp_path, "turns.sqlite")
    import_text(store, dump_catalog(Catalog(complete=True, cards=TEST_DECK)), replace=True)
    cid = store.create("biosphere5", "Three rounds", {}, seed=7)
    store.db.close()
    with served(f"sqlite:///{tmp_path / 'turns.sqlite'}", token="biosphere5-e2e-token", extra_env={"COMPANION_SEED": "7"}) as server:
        context, page = open_page(browser, server)
        go(page, f"{server['base']}c/{cid}")  # settled: a tap during the first frames can be dropped

        # Machine turn 1 (level 2: two cards): the highest-value playable achievement.
        tap(page, page.get_by_role("button", name="Reveal 2 cards"))
        pick(page, "Deep Well")
        pick(page, "Shack")
        decide(page)
        expect(by_id(page, "machine-instruction")).to_have_text(
            "The Machine plays Deep Well — perfect water achievement: place a green cube on water.")
        expect(by_id(page, "machine-water")).to_contain_text("perfect")

        # From here the table rolls physical dice (an action in the log): the app asks for every die.
        switch = page.get_by_role("switch", name=re.compile("I roll physical dice"))
        tap(page, switch)
        expect(switch).to_be_checked()

        # The human: the first turn asks for the hand size (every play greyed for that one reason),
        # then a Hurricane with a rescue card; the Machine's rescue dice.
        expect(by_id(page, "play-reasons")).to_have_text("Enter your hand size first: the app counts 0 cards in your hand.")
        for n in ("1", "2", "3"):
            tap_until(page, page.get_by_role("button", name="Your hand cards +1"),
                      lambda: expect(by_id(page, "human-hand")).to_have_text(n, timeout=3000))
        tap(page, page.get_by_role("button", name="Catastrophe"))
        type_into(page.get_by_label("Its name"), "Hurricane")
        tap(page, page.get_by_role("switch", name="I discard a matching rescue card with it"))
        tap(page, page.get_by_role("button", name="Housing catastrophe"))
        # The action waits for the table's hand dice: named faces on the frame's pad, with the odds.
        expect(by_id(page, "pending-why")).to_contain_text("the Machine's rescue check against Hurricane")
        expect(by_id(page, "pending-dice")).to_contain_text("any black hand saves the Machine: 31%")
        expect(page.get_by_role("button", name=re.compile("^face "))).to_have_count(2)
        expect(by_id(page, "human-hand")).to_have_text("3")  # nothing happened yet
        page.mouse.move(206, 450)
        page.mouse.wheel(0, -3000)  # up to the dice pad, at the top of the campaign
        settled_screenshot(page, artifacts / "biosphere5-rescue-dice-phone.png")
        enter_dice(page, ["black hand", "blank"])
        expect(by_id(page, "last-move")).to_contain_text("Rescue check: 2 hand dice show black hand, blank → a black hand")
        expect(by_id(page, "human-hand")).to_have_text("1")
        expect(by_id(page, "machine-level")).to_have_text("1")
        expect(by_id(page, "history")).to_contain_text("Physical dice entered.")
        settled_screenshot(page, artifacts / "biosphere5-human-phone.png")
        tap(page, page.get_by_role("button", name="End my turn"))

        # Machine turn 2 (level 1: one card).
        tap(page, page.get_by_role("button", name="Reveal 1 card"))
        pick(page, "Protection Bunker")
        expect(by_id(page, "reveal-status")).to_have_text("1 of 1 tapped — ready")
        decide(page)
        expect(by_id(page, "machine-instruction")).to_have_text(
            "The Machine plays Protection Bunker — perfect housing achievement: place a green cube on housing.")
        expect(by_id(page, "machine-housing")).to_contain_text("perfect")
        tap(page, page.get_by_role("button", name="End my turn"))

        # Machine turn 3: Ruins' Espionage tells the human exactly what to discard.
        tap(page, page.get_by_role("button", name="Reveal 1 card"))
        pick(page, "Ruins")
        decide(page)
        espionage = "The Machine plays Espionage (Ruins): discard your hand card with the highest level."
        expect(by_id(page, "machine-instruction")).to_have_text(espionage)
        expect(by_id(page, "due")).to_contain_text("Espionage: discard your hand card with the highest level")
        page.mouse.move(206, 450)
        page.mouse.wheel(0, -3000)  # back to the top of the panel
        settled_screenshot(page, artifacts / "biosphere5-espionage-phone.png")
        tap(page, page.get_by_role("button", name="I discarded 1 card"))
        expect(by_id(page, "human-hand")).to_have_text("0")
        expect(page.get_by_role("button", name="End my turn")).to_be_visible()

        page.reload()
        expect(by_id(page, "machine-instruction")).to_have_text(espionage)
        expect(by_id(page, "human-hand")).to_have_text("0")
        expect(by_id(page, "machine-water")).to_contain_text("perfect")
        expect(by_id(page, "machine-housing")).to_contain_text("perfect")
        expect(by_id(page, "machine-level")).to_have_text("1")
        context.close()


def test_catalog_delete_and_qr_codes_in_parts(browser, tmp_path, artifacts):
    """A catalog too big for one QR code (long notes on every card) shows as several codes, paged;
    the delete button asks first, then removes the card."""
    from companion.games.biosphere5.screens import import_text
    from tests.games.test_biosphere5_cards import deck_with_notes
    from tests.helpers import file_store

    store = file_store(tmp_path, "cards.sqlite")
    import_text(store, dump_catalog(Catalog(complete=True, cards=deck_with_notes())), replace=True)
    store.db.close()
    with served(f"sqlite:///{tmp_path / 'cards.sqlite'}", token="biosphere5-e2e-token") as server:
        context, page = open_page(browser, server)
        page.goto(f"{server['base']}g/biosphere5/catalog")
        expect(by_id(page, "catalog-summary")).to_have_text("25 of 25 cards entered")

        tap(page, page.get_by_role("button", name="Show QR"))
        expect(by_id(page, "qr-part")).to_have_text(re.compile(r"^Part 1 of [2-9]$"))
        total = by_id(page, "qr-part").inner_text().rsplit(" ", 1)[1]
        tap(page, page.get_by_role("button", name="Next"))
        expect(by_id(page, "qr-part")).to_have_text(f"Part 2 of {total}")
        settled_screenshot(page, artifacts / "biosphere5-qr-parts-phone.png")
        tap(page, page.get_by_role("button", name="Previous"))
        expect(by_id(page, "qr-part")).to_have_text(f"Part 1 of {total}")
        tap(page, page.get_by_role("button", name="Close"))
        expect(by_id(page, "qr-part")).to_have_count(0)

        tap(page, page.get_by_role("button", name="Delete Shack"))
        expect(page.get_by_text("Delete Shack?")).to_be_visible()
        tap(page, page.get_by_role("button", name="Delete", exact=True))
        expect(by_id(page, "catalog-summary")).to_contain_text("24 of 25")
        expect(page.get_by_role("button", name="Delete Shack")).to_have_count(0)
        page.reload()
        expect(by_id(page, "catalog-summary")).to_contain_text("24 of 25")
        context.close()


def test_abyss_against_people_desktop(browser, server, artifacts):
    context, page = open_page(browser, server, viewport=DESKTOP)
    tap(page, page.get_by_role("button", name="New campaign"))
    tap(page, page.get_by_role("radio", name="Biosphere 5"))
    type_into(page.get_by_label("Campaign name"), "Abyss table")
    tap(page, page.get_by_role("button", name=re.compile("^Against people")))
    tap(page, page.get_by_role("button", name="Create and open"))
    expect(by_id(page, "doom-0")).to_have_text("0")
    # A desktop's width: the overview's players side by side at the top, their buttons side by side under it.
    tiles = [wait_steady(page, by_id(page, f"overview-{i}")) for i in (0, 1)]
    cards = [wait_steady(page, by_id(page, f"abyss-player-{i}")) for i in (0, 1)]
    for left, right in (tiles, cards):
        assert abs(left["y"] - right["y"]) < 2 and right["x"] >= left["x"] + left["width"], (left, right)
    assert cards[0]["y"] >= tiles[0]["y"] + tiles[0]["height"]
    assert tiles[0]["width"] > 400 and cards[0]["width"] > 400  # the width is used, not a phone's column
    tap(page, page.get_by_role("button", name="Draw pile empty +2").first)
    expect(by_id(page, "doom-0")).to_have_text("2")
    expect(by_id(page, "overview-doom-0")).to_have_text("2")
    expect(by_id(page, "overview-doom-1")).to_have_text("0")
    tap(page, page.get_by_role("button", name="Promote True Believer (Player 1)"))
    expect(by_id(page, "tier-0-true_believer")).to_have_text("1")
    expect(by_id(page, "overview-tier-0-true_believer")).to_have_text("1")
    tap(page, page.get_by_role("button", name="Use tier 1").first)
    expect(by_id(page, "doom-0")).to_have_text("1")
    tap(page, page.get_by_role("button", name="Undo: True Believer: Glimmer of Hope"))
    expect(by_id(page, "doom-0")).to_have_text("2")
    # At tier 2 the True Believer may use tier 2's ability, or tier 1's instead (RULES.md §4).
    tap(page, page.get_by_role("button", name="Promote True Believer (Player 1)"))
    expect(by_id(page, "tier-0-true_believer")).to_have_text("2")
    expect(page.get_by_role("button", name="Use tier 2 – Without Hesitation").first).to_be_visible()
    tap(page, page.get_by_role("button", name="Use tier 1 – Glimmer of Hope").first)
    expect(by_id(page, "doom-0")).to_have_text("1")
    expect(by_id(page, "history")).to_contain_text("uses True Believer tier 1 (instead of tier 2's)")
    page.mouse.move(640, 400)
    page.mouse.wheel(0, -3000)  # back to the top of the panel
    settled_screenshot(page, artifacts / "biosphere5-abyss-desktop.png")
    page.reload()
    expect(by_id(page, "doom-0")).to_have_text("1")
    expect(by_id(page, "tier-0-true_believer")).to_have_text("2")
    context.close()


SMALL = {"width": 360, "height": 740}  # the narrowest phone
SIZES = {"360": SMALL, "360-huge": SMALL, "412": PHONE, "1280": DESKTOP}  # 360-huge: at the largest text size


@pytest.mark.parametrize("size", list(SIZES))
def test_reveal_grid_first_turn_and_dialogs_at_phone_and_desktop_sizes(browser, tmp_path, artifacts, size):
    """The screens this pass changed, looked at on a small phone (also at its largest text), a phone
    and a desktop: the reveal grid of tiles, the first human turn asking for the hand size, the catastrophe
    dialog's rescue switch (its label wraps), the catalog import from a file refusing a bad one, and
    the card dialog's refusal — with no red "Semantics.content must be provided" box anywhere."""
    from companion.games.biosphere5.screens import import_text
    from tests.helpers import file_store

    store = file_store(tmp_path, "sizes.sqlite")
    # Festival left out: the card dialog enters it, by its name and four taps (#30 item 7).
    import_text(store, dump_catalog(Catalog(complete=False, cards=[c for c in TEST_DECK if c.id != "festival"])),
                replace=True)
    cid = store.create("biosphere5", "Sizes", {}, seed=7)
    store.db.close()

    def shot(name: str) -> None:
        settled_screenshot(page, artifacts / f"biosphere5-{name}-{size}.png")

    def no_error_box() -> None:  # Flet's red box for a Semantics whose content is hidden
        expect(page.get_by_text(re.compile("must be provided"))).to_have_count(0)

    with served(f"sqlite:///{tmp_path / 'sizes.sqlite'}", token="biosphere5-e2e-token") as server:
        context, page = open_page(browser, server, viewport=SIZES[size])
        if size == "360-huge":  # this phone's largest text size, chosen as a player does
            page.goto(f"{server['base']}settings")
            tap(page, page.get_by_role("button", name="Huge", exact=True))
            page.wait_for_function("localStorage.getItem('flutter.companion.text_scale') === '1.7'")
        go(page, f"{server['base']}c/{cid}")  # settled: a tap during the first frames can be dropped

        tap(page, page.get_by_role("button", name="Reveal 2 cards"))
        expect(page.get_by_role("button", name=re.compile("^Deep Well"))).to_be_visible()
        shot("grid")
        tap(page, page.get_by_role("button", name=re.compile("^Surveillance Technology")), bottom_margin=300)
        expect(by_id(page, "reveal-status")).to_have_text("1 of 2 tapped — tap 1 more")
        shot("grid-tiles")
        tap(page, page.get_by_role("button", name="Remove Surveillance Technology"))
        expect(by_id(page, "reveal-status")).to_have_text("0 of 2 tapped — tap 2 more")
        pick(page, "Deep Well")
        pick(page, "Shack")
        decide(page)

        # The first turn: one reason greys every play, said where the hand size is entered.
        reasons = by_id(page, "play-reasons")
        expect(reasons).to_have_text("Enter your hand size first: the app counts 0 cards in your hand.")
        tap(page, reasons)  # scrolls it into view (a tap on words does nothing)
        shot("first-turn")
        for n in ("1", "2"):
            tap_until(page, page.get_by_role("button", name="Your hand cards +1"),
                      lambda: expect(by_id(page, "human-hand")).to_have_text(n, timeout=3000))
        expect(by_id(page, "play-reasons")).to_contain_text("Espionage: You can't play Espionage (level II)")
        tap(page, by_id(page, "play-reasons"))
        shot("turn-reasons")
        tap(page, page.get_by_role("button", name="Catastrophe"))
        rescue = page.get_by_role("switch", name="I discard a matching rescue card with it")
        tap(page, rescue)
        expect(rescue).to_be_checked()
        shot("catastrophe")
        tap(page, page.get_by_role("button", name="Cancel"))

        # The catalog: import from a file (a broken one is refused in the dialog), the card dialog.
        page.goto(f"{server['base']}g/biosphere5/catalog?from={cid}")
        tap(page, page.get_by_role("button", name="Import"))
        no_error_box()
        broken = tmp_path / "broken.json"
        broken.write_text('{"format": "biosphere5-catalog", "cards": [', encoding="utf-8")
        with page.expect_file_chooser() as chooser:
            tap(page, page.get_by_role("button", name="Choose a file"))
        chooser.value.set_files(str(broken))
        expect(page.get_by_text("broken.json is read: add its cards or replace yours.")).to_be_visible()
        tap(page, page.get_by_role("button", name="Add / correct"))
        expect(by_id(page, "import-error")).to_contain_text("The file is damaged or cut short")
        no_error_box()
        shot("import")
        tap(page, page.get_by_role("button", name="Cancel"))
        expect(by_id(page, "import-error")).to_have_count(0)
        # Back at the top: reaching the dialog's lower buttons scrolled the long list under it.
        page.goto(f"{server['base']}g/biosphere5/catalog?from={cid}")
        tap(page, page.get_by_role("button", name="Add a card"))
        tap(page, page.get_by_role("button", name="Save card"))
        expect(by_id(page, "card-error")).to_have_text("Give the card its name, as printed on it.")
        no_error_box()
        shot("card-dialog")
        # The card: its name, then a chip for its class, its category and its lower option, and Save.
        type_into(page.get_by_label("Card name (as printed)"), "Festival")
        taps = 0
        for chip in ("Upper option: class: rescue card", "Upper option: category: Community · I",
                     "Lower option: Water catastrophe · I"):
            tap(page, page.get_by_role("button", name=re.compile("^" + re.escape(chip))))
            expect(page.get_by_role("button", name=re.compile("^" + re.escape(chip)))).to_have_attribute(
                "aria-current", "true")  # chosen (a tap Flutter dropped would show here)
            taps += 1
        shot("card-chips")
        tap(page, page.get_by_role("button", name="Save card"))
        taps += 1
        expect(by_id(page, "catalog-summary")).to_have_text("25 of 25 cards entered")  # saved, complete
        assert taps <= 4
        context.close()


def test_after_each_action_of_a_turn_the_next_step_is_on_screen(browser, tmp_path, artifacts):
    """Issue #30: after End my turn the Machine's "Reveal N cards" was 450–900 px above the screen, the
    rescue dice after a catastrophe and "You discard" likewise. At 412×915, at a table rolling physical
    dice, every control a played turn taps next is already on screen after the action before it (no
    swipe): the reveal, the Machine's instruction with your hand count under it, the rescue dice and
    what came of them, the discard the Machine's Espionage asks for. (Between plays of your own turn
    nothing is required next: the screen stays at your turn's top.)"""
    from companion.games.biosphere5.screens import import_text
    from tests.browser import on_screen
    from tests.helpers import file_store

    store = file_store(tmp_path, "in-view.sqlite")
    import_text(store, dump_catalog(Catalog(complete=True, cards=TEST_DECK)), replace=True)
    cid = store.create("biosphere5", "In view", {}, seed=7)
    store.db.close()
    with served(f"sqlite:///{tmp_path / 'in-view.sqlite'}", token="biosphere5-e2e-token",
                extra_env={"COMPANION_SEED": "7"}) as server:
        context, page = open_page(browser, server)
        go(page, f"{server['base']}c/{cid}")

        def next_on_screen(locator, after: str) -> None:
            if not on_screen(page, locator):
                page.screenshot(path=str(artifacts / "biosphere5-not-in-view.png"))
                raise AssertionError(f"after {after}: {locator} is not on screen")

        switch = page.get_by_role("switch", name=re.compile("I roll physical dice"))
        tap(page, switch)
        expect(switch).to_be_checked()
        next_on_screen(page.get_by_role("button", name="Reveal 2 cards"), "switching physical dice on")
        tap(page, page.get_by_role("button", name="Reveal 2 cards"))
        pick(page, "Deep Well")
        pick(page, "Shack")
        decide(page)
        expect(by_id(page, "machine-instruction")).to_contain_text("Deep Well")
        next_on_screen(by_id(page, "machine-instruction"), "the Machine's decision")
        hand_up = page.get_by_role("button", name="Your hand cards +1")
        next_on_screen(hand_up, "the Machine's decision")
        for n in ("1", "2", "3"):
            tap_until(page, hand_up, lambda: expect(by_id(page, "human-hand")).to_have_text(n, timeout=3000))
            next_on_screen(hand_up, f"a hand of {n}")
        next_on_screen(page.get_by_role("button", name="Catastrophe"), "the hand count")
        tap(page, page.get_by_role("button", name="Catastrophe"))
        type_into(page.get_by_label("Its name"), "Hurricane")
        tap(page, page.get_by_role("switch", name="I discard a matching rescue card with it"))
        tap(page, page.get_by_role("button", name="Housing catastrophe"))
        expect(by_id(page, "pending-dice")).to_be_visible()
        next_on_screen(page.get_by_role("button", name="face black hand").first, "a catastrophe (the rescue dice)")
        enter_dice(page, ["black hand", "blank"])
        expect(by_id(page, "machine-level")).to_have_text("1")
        next_on_screen(by_id(page, "last-move"), "the rescue dice")  # what came of it; then your turn goes on
        next_on_screen(page.get_by_role("button", name="Your hand cards +1"), "the rescue dice")
        tap(page, page.get_by_role("button", name="End my turn"))
        next_on_screen(page.get_by_role("button", name="Reveal 1 card"), "End my turn")
        settled_screenshot(page, artifacts / "biosphere5-reveal-in-view-phone.png")
        tap(page, page.get_by_role("button", name="Reveal 1 card"))
        pick(page, "Protection Bunker")
        decide(page)
        expect(by_id(page, "machine-housing")).to_contain_text("perfect")
        next_on_screen(by_id(page, "machine-instruction"), "the Machine's second decision")
        tap(page, page.get_by_role("button", name="End my turn"))
        next_on_screen(page.get_by_role("button", name="Reveal 1 card"), "the second End my turn")
        tap(page, page.get_by_role("button", name="Reveal 1 card"))
        pick(page, "Ruins")
        decide(page)
        next_on_screen(by_id(page, "due"), "the Machine's Espionage (You discard)")
        next_on_screen(page.get_by_role("button", name="I discarded 1 card"), "the Machine's Espionage")
        settled_screenshot(page, artifacts / "biosphere5-discard-in-view-phone.png")
        tap(page, page.get_by_role("button", name="I discarded 1 card"))
        next_on_screen(page.get_by_role("button", name="End my turn"), "the discard")
        context.close()


def test_the_abyss_with_three_players_on_a_phone_opens_one_board_at_a_time(browser, tmp_path, artifacts):
    """Issue #30 item 6: three players' boards one under another were about 4,400 px at phone size. At
    412×915 one board is open under the overview; a tap on a player's row opens theirs, on screen, and
    after their action their buttons are still on screen."""
    from tests.browser import on_screen
    from tests.helpers import file_store

    store = file_store(tmp_path, "abyss-phone.sqlite")
    cid = store.create("biosphere5", "Three at the abyss", {"opponent": "people", "abyss": True, "players": 3,
                                                             "names": ["Ann", "Ben", "Cat"]}, seed=7)
    store.db.close()
    with served(f"sqlite:///{tmp_path / 'abyss-phone.sqlite'}", token="biosphere5-e2e-token") as server:
        context, page = open_page(browser, server)
        go(page, f"{server['base']}c/{cid}")
        expect(by_id(page, "abyss-player-0")).to_have_count(1)
        expect(by_id(page, "abyss-player-1")).to_have_count(0)
        expect(by_id(page, "abyss-player-2")).to_have_count(0)
        tap(page, by_id(page, "overview-2"))
        expect(by_id(page, "abyss-player-2")).to_have_count(1)
        expect(by_id(page, "abyss-player-0")).to_have_count(0)
        draw = page.get_by_role("button", name="Draw pile empty +2")
        assert on_screen(page, draw), "Cat's board is not on screen after tapping her row"
        settled_screenshot(page, artifacts / "biosphere5-abyss-one-board-phone.png")
        tap(page, draw)
        expect(by_id(page, "doom-2")).to_have_text("2")
        expect(by_id(page, "overview-doom-2")).to_have_text("2")
        assert on_screen(page, draw), "Cat's buttons left the screen after her action"
        context.close()
