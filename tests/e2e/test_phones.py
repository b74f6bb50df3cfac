"""Phones at the table, as they really join: over the LAN, on an insecure origin.

Chromium maps table.test to loopback, so http://table.test:PORT/ is not a secure context (no
navigator.wakeLock, no navigator.clipboard), exactly like http://<laptop's LAN address>:8550/ on a
phone. Keep-awake falls back to the looping muted video, copy to select-and-copy; the manifest makes
the app installable; each phone keeps its own text size and theme."""

from __future__ import annotations

import io
import re

import png
import pytest
from playwright.sync_api import expect

from tests.browser import CHROMIUM, CHROMIUM_ARGS, ENABLE_SEMANTICS, OPEN_PAGES, PHONE, by_id, printed_line, served, \
    settled_screenshot, tap, type_into

TOKEN = "phones-table-token-0001"
HOST = "table.test"


@pytest.fixture(scope="module")
def lan_browser(playwright):
    """Chromium with table.test resolving to this machine: an insecure origin on loopback."""
    browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True,
                                         args=[*CHROMIUM_ARGS, f"--host-resolver-rules=MAP {HOST} 127.0.0.1"])
    yield browser
    browser.close()


@pytest.fixture
def server(tmp_path):
    with served(f"sqlite:///{tmp_path / 'phones.sqlite'}", token=TOKEN) as s:
        s["lan"] = f"http://{HOST}:{s['port']}/"
        yield s


def join(browser, server):
    """A phone that scanned the code: a fresh browser profile, nothing leaving the machine."""
    context = browser.new_context(viewport=PHONE, service_workers="block")
    context.add_init_script(ENABLE_SEMANTICS)
    context.set_default_timeout(20_000)
    context.route(re.compile(rf"^(?!http://{re.escape(HOST)}:{server['port']}/).*"), lambda route: route.abort())
    page = context.new_page()
    OPEN_PAGES.append(page)
    page.goto(f"{server['lan']}?join={TOKEN}")
    page.get_by_text("Table Companion").first.wait_for()
    return context, page


def keep_awake(page) -> dict:
    return page.evaluate("window.companion.keepAwake()")


def new_campaign(page, name: str) -> None:
    tap(page, page.get_by_role("button", name="New campaign"))
    tap(page, page.get_by_role("radio", name="Counter (test game)"))
    expect(by_id(page, "game-summary")).to_have_text("A counter for testing the log.")
    type_into(page.get_by_label("Campaign name"), name)
    expect(page.get_by_text(f"{60 - len(name)} characters remaining").first).to_be_visible()
    tap(page, page.get_by_role("button", name="Create and open"))
    expect(by_id(page, "counter-value")).to_have_text("0")


def test_keep_awake_copy_and_install_on_an_insecure_origin(lan_browser, server, artifacts):
    context, page = join(lan_browser, server)
    assert page.evaluate("({secure: isSecureContext, lock: 'wakeLock' in navigator, clip: 'clipboard' in navigator})") \
        == {"secure": False, "lock": False, "clip": False}

    # Installable: title, favicon, manifest with its name and icons (a maskable one too), all served.
    assert page.title() == "Table Companion"
    manifest = page.evaluate("""async () => {
        const href = document.querySelector('link[rel=manifest]').href;
        const m = await (await fetch(href, {credentials: 'omit'})).json();  // as the browser fetches it
        const icons = [];
        for (const i of m.icons) {
            const r = await fetch(new URL(i.src, href), {credentials: 'omit'});
            icons.push({...i, status: r.status, type: r.headers.get('content-type')});
        }
        const fav = await fetch(document.querySelector('link[rel=icon]').href);
        return {...m, icons, favicon: fav.status};
    }""")
    # short_name is the home-screen label: the whole name, not "Table" (issue #30)
    assert manifest["name"] == "Table Companion" and manifest["short_name"] == "Table Companion"
    assert manifest["theme_color"] and manifest["display"] == "standalone" and manifest["favicon"] == 200
    assert {i["purpose"] for i in manifest["icons"]} == {"any", "maskable"}
    assert all(i["status"] == 200 and i["type"] == "image/png" for i in manifest["icons"])
    assert {i["sizes"] for i in manifest["icons"]} >= {"192x192", "512x512"}

    # Copy the join link: no Clipboard API here, so the page selects and copies it, and says so.
    tap(page, page.get_by_role("button", name="Join this table"))
    tap(page, page.get_by_role("button", name="Copy text"))
    page.wait_for_function("window.companion.copies.length > 0")
    copied = page.evaluate("window.companion.copies[0]")
    assert copied == {"text": f"http://127.0.0.1:{server['port']}/?join={TOKEN}", "ok": True, "how": "select"}
    expect(page.locator(".companion-note")).to_have_text("Copied")
    expect(by_id(page, "qr-full-text")).to_be_visible()  # the text, selectable, should a phone refuse
    assert page.evaluate("localStorage.getItem('flutter.companion.copy')") is None  # not left in the phone
    page.keyboard.press("Escape")

    # Keep-awake: off on the home screen; on in a campaign (from the tap that opened it), by the video.
    assert keep_awake(page)["active"] is False
    new_campaign(page, "Awake")
    page.wait_for_function("window.companion.keepAwake().active", timeout=10_000)
    state = keep_awake(page)
    assert state["mode"] == "video" and state["videoPlaying"] and not state["lock"]
    assert page.evaluate("document.querySelector('video').muted && document.querySelector('video').loop")
    campaign = page.url

    # Hidden and shown again (the phone locked, the tab switched): let go, then take it again.
    page.evaluate("""() => {
        Object.defineProperty(document, 'visibilityState', {value: 'hidden', configurable: true});
        document.dispatchEvent(new Event('visibilitychange'));
    }""")
    assert keep_awake(page)["active"] is False
    page.evaluate("""() => {
        Object.defineProperty(document, 'visibilityState', {value: 'visible', configurable: true});
        document.dispatchEvent(new Event('visibilitychange'));
    }""")
    page.wait_for_function("window.companion.keepAwake().active", timeout=10_000)

    # Back home: let go.
    tap(page, page.get_by_role("button", name="Back"))
    page.wait_for_function("!window.companion.keepAwake().active", timeout=10_000)

    # Turned off in this phone's settings: a campaign no longer keeps it awake.
    tap(page, page.get_by_role("button", name="Settings"))
    switch = page.get_by_role("switch", name=re.compile("Keep the screen awake"))
    expect(switch).to_be_checked()
    tap(page, switch)
    expect(switch).not_to_be_checked()
    page.wait_for_function("localStorage.getItem('flutter.companion.keep_awake') === 'false'")
    page.goto(campaign)
    expect(by_id(page, "counter-value")).to_have_text("0")
    tap(page, page.get_by_role("button", name="Value +1"))
    expect(by_id(page, "counter-value")).to_have_text("1")
    page.wait_for_timeout(500)
    assert keep_awake(page) == {"wanted": False, "active": False, "mode": None, "lock": False, "videoPlaying": False}
    context.close()


def _pixel(shot: bytes, x: int, y: int) -> tuple:
    width, height, rows, info = png.Reader(file=io.BytesIO(shot)).asRGBA8()
    for i, row in enumerate(rows):
        if i == y:
            return tuple(row[x * 4:x * 4 + 3])
    raise IndexError(y)


def _choose(page, name: str) -> None:
    button = page.get_by_role("button", name=name, exact=True)
    tap(page, button)
    expect(page.get_by_role("button", name=name, exact=True)).to_be_visible()


def test_each_phone_has_its_own_text_size_and_theme(lan_browser, server, artifacts):
    dark, dark_page = join(lan_browser, server)
    light, light_page = join(lan_browser, server)
    new_campaign(light_page, "Two phones")

    tap(dark_page, dark_page.get_by_role("button", name="Settings"))
    expect(dark_page.get_by_role("group", name=re.compile("^This phone .*every phone at the table chooses its own"))).to_be_visible()
    expect(dark_page.get_by_role("textbox", name=re.compile("^This table\\s+Shared by every phone at the table"))).to_be_attached()
    _choose(dark_page, "Dark")
    _choose(dark_page, "Large")
    dark_page.wait_for_function("localStorage.getItem('flutter.companion.theme') === '\"dark\"'")
    dark_page.wait_for_function("localStorage.getItem('flutter.companion.text_scale') === '1.2'")
    settled_screenshot(dark_page, artifacts / "dark-settings-phone.png")

    # Both phones on the same campaign at once: one dark and large, one light and normal.
    dark_page.goto(light_page.url)  # a reload: the phone's settings come back from its browser
    for p in (dark_page, light_page):
        expect(by_id(p, "counter-value")).to_have_text("0")
    dark_shot = settled_screenshot(dark_page, artifacts / "dark-campaign-phone.png")
    light_shot = settled_screenshot(light_page, artifacts / "light-campaign-phone.png")
    assert sum(_pixel(dark_shot, 5, 400)) < 150 and sum(_pixel(light_shot, 5, 400)) > 600
    dark_box = by_id(dark_page, "counter-value").bounding_box()
    light_box = by_id(light_page, "counter-value").bounding_box()
    assert dark_box["height"] > light_box["height"] * 1.1
    assert light_page.evaluate("localStorage.getItem('flutter.companion.theme')") is None

    # Every main screen in the dark theme, for a look.
    tap(dark_page, dark_page.get_by_role("button", name="2d6"))
    expect(by_id(dark_page, "history")).to_contain_text("Rolled 2d6")
    settled_screenshot(dark_page, artifacts / "dark-campaign-rolled-phone.png")
    for path, shown, name in [("", "New campaign", "home"), ("new", "Create and open", "new-campaign"),
                              ("dice", "Dice", "dice"), ("backups", "Back up now", "backups")]:
        dark_page.goto(server["lan"] + path)
        dark_page.get_by_text(shown).first.wait_for()
        settled_screenshot(dark_page, artifacts / f"dark-{name}-phone.png")
    dark_page.goto(server["lan"])
    tap(dark_page, dark_page.get_by_role("button", name="Join this table"))
    dark_page.get_by_text("Scan with a phone").wait_for()
    dark_page.wait_for_timeout(1000)  # the QR image decodes after the text is laid out
    settled_screenshot(dark_page, artifacts / "dark-join-phone.png")
    dark.close()
    light.close()


def test_serve_https_gives_each_phone_a_secure_context(lan_browser, tmp_path):
    """`serve --https`: after the one-time warning (accepted here), the phone's page is a secure
    context, so the real Wake Lock and clipboard exist, and the table plays as over http."""
    import sys

    from tests.browser import free_port

    port, db = free_port(), f"sqlite:///{tmp_path / 'https.sqlite'}"
    command = [sys.executable, "-m", "companion", "--db", db, "serve", "--host", "127.0.0.1", "--port", str(port),
               "--quiet", "--token", TOKEN, "--https"]
    with served(db, command=command, port=port) as server:
        assert printed_line(server).strip().endswith(f"https://127.0.0.1:{port}/?join={TOKEN}")
        context = lan_browser.new_context(viewport=PHONE, service_workers="block", ignore_https_errors=True)
        context.add_init_script(ENABLE_SEMANTICS)
        context.set_default_timeout(20_000)
        page = context.new_page()
        OPEN_PAGES.append(page)
        page.goto(f"https://{HOST}:{port}/?join={TOKEN}")
        page.get_by_text("Table Companion").first.wait_for()
        assert page.evaluate("isSecureContext && 'wakeLock' in navigator && !!navigator.clipboard")
        new_campaign(page, "Secure")
        tap(page, page.get_by_role("button", name="Value +1"))
        expect(by_id(page, "counter-value")).to_have_text("1")
        context.close()
    assert (tmp_path / "https-tls" / "cert.pem").exists()  # kept with the save for the next start


def _qr_drawn(page, artifacts, name: str) -> None:
    """The dialog's QR code is really drawn: its square shows dark modules on white in a fair mix
    (a blank image shows the dialog's own colour)."""
    code = by_id(page, "qr-image")
    expect(code).to_be_visible()
    shot = settled_screenshot(page, artifacts / f"{name}.png")
    box = code.bounding_box()
    width, height, rows, _info = png.Reader(file=io.BytesIO(shot)).asRGBA8()
    left, top, size = round(box["x"]), round(box["y"]), round(min(box["width"], box["height"]))
    dark = light = 0
    for y, row in enumerate(rows):
        if top + 2 <= y < top + size - 2:
            for x in range(left + 2, left + size - 2, 2):
                r, g, b = row[x * 4:x * 4 + 3]
                dark += r + g + b < 150
                light += r + g + b > 700
    assert dark + light > 0.9 * ((size - 4) // 2) * (size - 4), "the code's square is not black on white"
    assert 0.25 < dark / (dark + light) < 0.75, f"a blank or broken code: {dark} dark of {dark + light} samples"


def test_qr_codes_show_on_an_insecure_origin(lan_browser, server, artifacts):
    """Issue #30: on a phone's own address (not a secure context) "Join this table" and Export → Show
    QR showed an empty image; the codes are drawn, so they show wherever the app opens."""
    context, page = join(lan_browser, server)
    tap(page, page.get_by_role("button", name="Join this table"))
    _qr_drawn(page, artifacts, "join-qr-lan-phone")
    page.keyboard.press("Escape")
    new_campaign(page, "Shared by QR")
    tap(page, page.get_by_role("button", name="Campaign settings"))
    tap(page, page.get_by_role("button", name="Export"))
    tap(page, page.get_by_role("button", name="Show QR"))
    expect(by_id(page, "qr-text")).to_contain_text("TC1:")
    _qr_drawn(page, artifacts, "export-qr-lan-phone")
    context.close()
