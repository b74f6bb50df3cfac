"""End to end in headless Chromium at phone size: the served app, as a phone at the table sees it.

home → create a campaign → open → an action → undo → redo → reload → kept; a second phone with the
token sees the same action within moments; a browser without the token sees nothing of it."""

import re

import pytest
from playwright.sync_api import expect

from tests.browser import DESKTOP, open_app, tap_until, PHONE, by_id, new_context, served, settled_screenshot, tap, type_into, wait_steady


@pytest.fixture
def server(tmp_path):
    with served(f"sqlite:///{tmp_path / 'e2e.sqlite'}", token="e2e-table-token-0001") as s:
        yield s


def open_phone(browser, server, viewport=PHONE):
    return open_app(browser, server, viewport=viewport)


def new_counter_campaign(page, name: str) -> None:
    tap(page, page.get_by_role("button", name="New campaign"))
    tap(page, page.get_by_role("radio", name="Counter (test game)"))
    expect(by_id(page, "game-summary")).to_have_text("A counter for testing the log.")  # its settings are drawn
    type_into(page.get_by_label("Campaign name"), name)
    expect(page.get_by_text(f"{60 - len(name)} characters remaining").first).to_be_visible()  # Flutter has it


def test_create_play_undo_redo_reload_and_share(browser, server, artifacts):
    context, page = open_phone(browser, server)
    settled_screenshot(page, artifacts / "home-empty-phone.png")

    new_counter_campaign(page, "Friday table")
    settled_screenshot(page, artifacts / "new-campaign-phone.png")
    tap(page, page.get_by_role("button", name="Create and open"))
    expect(by_id(page, "counter-value")).to_have_text("0")

    tap(page, page.get_by_role("button", name="Value +1"))
    expect(by_id(page, "counter-value")).to_have_text("1")
    tap(page, page.get_by_role("button", name="Value +1"))
    expect(by_id(page, "counter-value")).to_have_text("2")
    expect(page.get_by_role("button", name="Undo: counter +1")).to_be_enabled()
    tap(page, page.get_by_role("button", name="Undo: counter +1"))
    expect(by_id(page, "counter-value")).to_have_text("1")
    tap(page, page.get_by_role("button", name="Redo"))
    expect(by_id(page, "counter-value")).to_have_text("2")
    tap(page, page.get_by_role("button", name="2d6"))
    expect(by_id(page, "history")).to_contain_text("Rolled 2d6")
    settled_screenshot(page, artifacts / "campaign-phone.png")

    campaign_url = page.url
    page.reload()
    expect(by_id(page, "counter-value")).to_have_text("2")
    expect(by_id(page, "history")).to_contain_text("Rolled 2d6")

    # A second phone joined with the token sees the same campaign, and each other's actions.
    other, other_page = open_phone(browser, server)
    other_page.goto(campaign_url)
    expect(by_id(other_page, "counter-value")).to_have_text("2")
    tap(page, page.get_by_role("button", name="Value +1"))
    expect(by_id(other_page, "counter-value")).to_have_text("3", timeout=5000)
    tap(other_page, other_page.get_by_role("button", name="Value +1"))
    expect(by_id(page, "counter-value")).to_have_text("4", timeout=5000)

    # A browser without the token sees only the scan page, on every path.
    stranger = new_context(browser, viewport=PHONE)
    stranger_page = stranger.new_page()
    for path in ("", campaign_url.split("/", 3)[3]):
        response = stranger_page.goto(server["base"] + path)
        assert response.status == 403
        expect(stranger_page.get_by_text("Scan the code at the table")).to_be_visible()
        assert "Friday table" not in stranger_page.content()
    settled_screenshot(stranger_page, artifacts / "stranger-phone.png")

    # Back home, the campaign is listed with its game and status.
    page.goto(server["base"])
    expect(page.get_by_role("group", name=re.compile(r"Friday table\s+Counter \(test game\)"))).to_be_visible()
    settled_screenshot(page, artifacts / "home-phone.png")
    for c in (context, other, stranger):
        c.close()


def test_refused_input_shows_a_message_and_changes_nothing(browser, server, artifacts):
    context, page = open_phone(browser, server)
    new_counter_campaign(page, "   ")
    tap_until(page, page.get_by_role("button", name="Create and open"), page.get_by_text("Give the campaign a name"))
    type_into(page.get_by_label("Campaign name"), "Ranges")
    type_into(page.get_by_label("Highest value"), "5000")
    tap(page, page.get_by_role("button", name="Create and open"))
    expect(page.get_by_text(re.compile("Highest value: must be at most 1,000"))).to_be_visible()  # named as labelled, the phone's number format
    type_into(page.get_by_role("textbox", name="Highest value"), "2")  # the refusal names the field too
    tap(page, page.get_by_role("button", name="Create and open"))
    expect(by_id(page, "counter-value")).to_have_text("0")
    tap(page, page.get_by_role("switch", name="I rolled physical dice"))
    type_into(page.get_by_label(re.compile("I rolled …")), "9")
    tap(page, page.get_by_role("button", name="d6", exact=True))
    expect(page.get_by_text("A d6 shows 1 to 6")).to_be_visible()
    expect(by_id(page, "history")).to_contain_text("Nothing has happened yet")
    type_into(page.get_by_label(re.compile("I rolled …")), "4")
    tap(page, page.get_by_role("button", name="d6", exact=True))
    expect(by_id(page, "tray-last")).to_contain_text("4")
    expect(by_id(page, "history")).to_contain_text("Physical dice entered")
    settled_screenshot(page, artifacts / "campaign-physical-phone.png")

    # A dialog refuses in place: the reason under its title, nothing changed, the dialog still open.
    tap(page, page.get_by_role("button", name="Campaign settings"))
    tap(page, page.get_by_role("button", name="Rename"))
    name = page.get_by_label("New name").and_(page.locator("input, textarea"))
    type_into(name, "   ")
    tap(page, page.get_by_role("button", name="Save", exact=True))
    expect(by_id(page, "dialog-error")).to_have_text("Give the campaign a name (1 to 60 characters).")
    expect(name).to_be_visible()  # still open, to correct
    settled_screenshot(page, artifacts / "rename-refused-phone.png")
    type_into(name, "Ranges renamed")
    tap(page, page.get_by_role("button", name="Save", exact=True))
    expect(page.get_by_role("banner", name=re.compile("Ranges renamed"))).to_be_visible()
    expect(page.get_by_role("button", name="Save", exact=True)).to_have_count(0)  # done: the dialog closed
    context.close()


def test_desktop_size_and_the_dice_screen(browser, server, artifacts):
    context, page = open_phone(browser, server, viewport=DESKTOP)
    settled_screenshot(page, artifacts / "home-desktop.png")
    page.goto(server["base"] + "dice")
    tap(page, page.get_by_role("button", name="3d6"))
    expect(by_id(page, "dice-last")).to_contain_text("3d6")
    type_into(page.get_by_label("Faces, separated by commas"), "Bug, Idea, Progress")
    tap(page, page.get_by_role("button", name="Roll custom die"))
    expect(by_id(page, "dice-last")).to_contain_text("custom die")
    settled_screenshot(page, artifacts / "dice-desktop.png")

    # A campaign laid out for the desktop's width (redo stands beside undo even with nothing to redo)
    # is laid out again when the window narrows to a phone's (redo only once there is one).
    page.goto(server["base"])
    new_counter_campaign(page, "Wide table")
    tap(page, page.get_by_role("button", name="Create and open"))
    expect(by_id(page, "counter-value")).to_have_text("0")
    # the history stands beside the dice tray and the note, not under them across the whole page
    tray, history = wait_steady(page, page.get_by_role("button", name="2d6", exact=True)), wait_steady(page, by_id(page, "history"))
    assert history["x"] > tray["x"] + tray["width"] and abs(history["y"] - tray["y"]) < 120, (tray, history)
    redo = page.get_by_role("button", name=re.compile("^Redo"))
    expect(redo).to_be_visible()
    page.set_viewport_size(PHONE)
    expect(redo).to_have_count(0)
    page.set_viewport_size(DESKTOP)
    expect(redo).to_be_visible()
    context.close()


def test_a_dropped_connection_reconnects_and_shows_the_current_state(browser, tmp_path, artifacts):
    """The phone keeps its page while the server goes away (a Wi-Fi blip, a locked phone, even a host
    restart); when the server is back it reconnects by itself and shows what changed meanwhile."""
    from companion.games.counter.rules import Add
    from tests.helpers import file_store

    db = tmp_path / "blip.sqlite"
    store = file_store(tmp_path, "blip.sqlite")
    cid = store.create("counter", "Blip", {}, seed=5)
    store.db.close()
    with served(f"sqlite:///{db}", token="e2e-reconnect-token-01") as first:
        port = first["port"]
        context, page = open_phone(browser, first)
        page.goto(f"{first['base']}c/{cid}")
        expect(by_id(page, "counter-value")).to_have_text("0")
    # Server gone. Another phone's action lands in the save meanwhile.
    store = file_store(tmp_path, "blip.sqlite")
    store.apply(cid, Add(amount=3), expected_cursor=0)
    store.db.close()
    with served(f"sqlite:///{db}", token="e2e-reconnect-token-01", port=port):
        expect(by_id(page, "counter-value")).to_have_text("3", timeout=30_000)
        tap(page, page.get_by_role("button", name="Value +1"))
        expect(by_id(page, "counter-value")).to_have_text("4")
    context.close()


def test_export_a_campaign_to_a_file_and_as_qr(browser, server, artifacts):
    import json

    context, page = open_phone(browser, server)
    new_counter_campaign(page, "Export night")
    tap(page, page.get_by_role("button", name="Create and open"))
    tap(page, page.get_by_role("button", name="Value +1"))
    expect(by_id(page, "counter-value")).to_have_text("1")
    tap(page, page.get_by_role("button", name="Campaign settings"))
    tap(page, page.get_by_role("button", name="Export"))
    expect(page.get_by_text(re.compile(r"1 action, .* as counter-Export-night\.json"))).to_be_visible()
    tap(page, page.get_by_role("button", name="Show QR"))
    expect(by_id(page, "qr-text")).to_contain_text("TC1:")
    settled_screenshot(page, artifacts / "export-qr-phone.png")
    page.keyboard.press("Escape")
    tap(page, page.get_by_role("button", name="Campaign settings"))
    tap(page, page.get_by_role("button", name="Export"))
    with page.expect_download() as download:
        tap(page, page.get_by_role("button", name="Save file"))
    text = open(download.value.path(), encoding="utf-8").read()
    data = json.loads(text)
    assert data["format"] == "table-companion/campaign" and data["name"] == "Export night"
    assert data["log"][-1]["action"] == {"kind": "add", "amount": 1}  # actions and dice: the rules rebuild the rest

    # Import it back on the home screen (refusals of bad files are unit-tested in test_exchange.py).
    page.goto(server["base"])
    tap(page, page.get_by_role("button", name="Import"))
    pasted = page.get_by_label("Text to import")
    type_into(pasted, "TC1:not an export")
    tap(page, page.get_by_role("button", name="Import text"))
    # Checked in a worker thread behind the progress dialog (#28): the refusal is said there, in words.
    expect(by_id(page, "progress-error")).to_contain_text("The QR text is damaged")
    tap(page, page.get_by_role("button", name="Close"))
    assert re.search(r"/$", page.url)
    tap_until(page, page.get_by_role("button", name="Import"), pasted)
    type_into(pasted, text[: len(text) // 2])  # cut short on its way: said so, in words
    tap(page, page.get_by_role("button", name="Import text"))
    expect(by_id(page, "progress-error")).to_contain_text("The file is damaged or cut short")
    settled_screenshot(page, artifacts / "import-damaged-phone.png")
    tap(page, page.get_by_role("button", name="Close"))
    tap_until(page, page.get_by_role("button", name="Import"), pasted)
    type_into(pasted, text)
    tap(page, page.get_by_role("button", name="Import text"))
    expect(by_id(page, "counter-value")).to_have_text("1")
    assert re.search(r"/c/2$", page.url)
    context.close()


def enter_dice(page, faces: list[str]) -> None:
    """The frame's "Waiting for dice" card: tap each face, then use them."""
    expect(by_id(page, "pending-dice")).to_be_visible()
    for face in faces:
        tap(page, page.get_by_role("button", name=f"face {face}", exact=True))
    tap(page, page.get_by_role("button", name="Use these dice"))


def test_physical_dice_belong_to_the_campaign_and_every_phone_is_asked(browser, tmp_path, artifacts):
    """The switch is an action in the history: it survives leaving the campaign, a reload, a restart,
    and a second phone shows the same mode. A roll waits for the table's die on every phone; either
    phone may enter it; undo asks for it again."""
    db = f"sqlite:///{tmp_path / 'physical.sqlite'}"
    with served(db, token="e2e-physical-dice-token") as server:
        context, page = open_phone(browser, server)
        new_counter_campaign(page, "Dice night")
        tap(page, page.get_by_role("button", name="Create and open"))
        expect(by_id(page, "counter-value")).to_have_text("0")
        campaign_url = page.url
        switch = page.get_by_role("switch", name=re.compile("I roll physical dice"))
        tap(page, switch)
        expect(switch).to_be_checked()
        expect(by_id(page, "history")).to_contain_text("the table rolls physical dice")

        other, other_page = open_phone(browser, server)
        other_page.goto(campaign_url)
        expect(other_page.get_by_role("switch", name=re.compile("I roll physical dice"))).to_be_checked()

        tap(page, page.get_by_role("button", name="Roll a d6 onto it"))
        expect(by_id(page, "pending-why")).to_contain_text("the counter's roll")
        expect(by_id(other_page, "pending-dice")).to_be_visible(timeout=5000)  # every phone is asked
        expect(by_id(page, "counter-value")).to_have_text("0")  # nothing happened yet
        settled_screenshot(page, artifacts / "waiting-for-dice-phone.png")
        enter_dice(other_page, ["4"])
        expect(by_id(page, "counter-value")).to_have_text("4", timeout=5000)
        expect(by_id(page, "pending-dice")).to_have_count(0)
        # Undo asks for the die again; redo brings back the 4 that was entered.
        tap(page, page.get_by_role("button", name="Undo: dice for roll a d6: 4"))
        expect(by_id(page, "pending-dice")).to_be_visible()
        tap(page, page.get_by_role("button", name="Redo"))
        expect(by_id(page, "counter-value")).to_have_text("4")

        # Leaving and coming back, and a reload: still physical.
        page.goto(server["base"])
        expect(page.get_by_role("group", name=re.compile(r"Dice night"))).to_be_visible()
        page.goto(campaign_url)
        expect(page.get_by_role("switch", name=re.compile("I roll physical dice"))).to_be_checked()
        page.reload()
        expect(page.get_by_role("switch", name=re.compile("I roll physical dice"))).to_be_checked()
        for c in (context, other):
            c.close()
    with served(db, token="e2e-physical-dice-token") as server:  # the host restarted the app
        context, page = open_phone(browser, server)
        page.goto(campaign_url.replace(campaign_url.split("/")[2], f"127.0.0.1:{server['port']}"))
        expect(by_id(page, "counter-value")).to_have_text("4")
        expect(page.get_by_role("switch", name=re.compile("I roll physical dice"))).to_be_checked()
        tap(page, page.get_by_role("button", name="Roll a d6 onto it"))
        enter_dice(page, ["6"])
        expect(by_id(page, "counter-value")).to_have_text("10")
        context.close()


def test_the_history_lists_the_newest_lines_and_earlier_ones_on_request(browser, tmp_path, artifacts):
    """A long campaign lists its newest 20 actions; a button shows earlier ones on that phone only."""
    from companion.games.counter.rules import Add
    from tests.helpers import file_store

    store = file_store(tmp_path, "long.sqlite")
    cid = store.create("counter", "Long night", {"cap": 100}, seed=3)
    for cursor in range(25):
        store.apply(cid, Add(amount=1), expected_cursor=cursor)
    store.db.close()
    with served(f"sqlite:///{tmp_path / 'long.sqlite'}", token="e2e-history-token-01") as server:
        context, page = open_phone(browser, server, viewport=DESKTOP)
        other_context, other = open_phone(browser, server, viewport=DESKTOP)
        for phone in (page, other):
            phone.goto(f"{server['base']}c/{cid}")
            expect(by_id(phone, "history")).to_contain_text("#25 · ")
        history = by_id(page, "history")
        expect(history).to_contain_text("#6 · ")
        expect(history).not_to_contain_text("#5 · ")
        tap(page, page.get_by_role("button", name="Show 5 earlier actions"))
        expect(history).to_contain_text("#1 · ")
        expect(page.get_by_role("button", name=re.compile("earlier action"))).to_have_count(0)
        expect(by_id(other, "history")).not_to_contain_text("#5 · ")  # the other phone's list is its own
        tap(other, other.get_by_role("button", name="Value +1"))  # a change keeps what each phone asked for
        expect(history).to_contain_text("#26 · ")
        expect(history).to_contain_text("#1 · ")
        expect(by_id(other, "history")).not_to_contain_text("#6 · ")
        for c in (context, other_context):
            c.close()


def test_every_button_of_home_and_a_game_screen_is_at_least_48_px(browser, server):
    """Issue #30: the title bar's back arrow and a campaign's ⋮ were 40 px; 48 is the floor."""
    context, page = open_phone(browser, server)
    new_counter_campaign(page, "Finger night")
    tap(page, page.get_by_role("button", name="Create and open"))
    expect(by_id(page, "counter-value")).to_have_text("0")

    def too_small() -> list:
        found = []
        for button in page.get_by_role("button").all():
            box = button.bounding_box()
            if box and (box["width"] < 47.5 or box["height"] < 47.5):
                found.append((button.get_attribute("aria-label") or button.inner_text(), box["width"], box["height"]))
        return found

    expect(page.get_by_role("button", name="Back")).to_be_visible()
    assert too_small() == []
    tap(page, page.get_by_role("button", name="Back"))
    expect(page.locator("[flt-semantics-identifier^=campaign-]").first).to_be_visible()  # its card, with its ⋮
    page.wait_for_timeout(500)  # the card's buttons are described with it
    assert len(page.get_by_role("button").all()) >= 4 and too_small() == []
    context.close()
