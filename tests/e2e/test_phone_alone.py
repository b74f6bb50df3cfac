"""The app on a phone alone (#29): the static build (`make web`, build/web/) served by a plain static file
server on localhost, run by Pyodide inside the phone's browser: no Python server, no request leaving
the machine. A campaign of each game is made and played, the page reloaded (a fresh Python) and every
campaign is there, read from the save in IndexedDB; a tab closed right after a tap shown as done
finds it saved; a second open with the network cut works from the service worker's copy."""

from __future__ import annotations

import functools
import http.server
import os
import re
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser import ENABLE_SEMANTICS, OPEN_PAGES, PHONE, ROOT, by_id, free_port, settled_screenshot, tap, \
    tap_until, type_into

# Pyodide boots and imports the app on every open (~15 s alone here; a minute on a loaded machine):
# these tests are slow, not stuck, well past the suite's 360 s.
pytestmark = pytest.mark.timeout(900)

WEB = ROOT / "build" / "web"
SOURCES = [ROOT / "companion", ROOT / "models", ROOT / "assets", ROOT / "pyproject.toml"]
FIRST_SCREEN = 240_000  # ms: Pyodide boots and the app's imports run on the phone (~15 s alone here; a loaded machine is slower)


def newest_source() -> float:
    times = []
    for source in SOURCES:
        files = [source] if source.is_file() else [p for p in source.rglob("*") if p.is_file() and "__pycache__" not in p.parts]
        times.extend(p.stat().st_mtime for p in files)
    return max(times)


@pytest.fixture(scope="module")
def site():
    """build/web, built now unless it is newer than every source file (a build takes ~2 minutes)."""
    archive = WEB / "app.tar.gz"
    if os.environ.get("PHONE_ALONE_REBUILD") or not archive.exists() or archive.stat().st_mtime < newest_source():
        subprocess.run([sys.executable, "-m", "companion.web.build"], cwd=ROOT, check=True)
    return WEB


class StaticFiles(http.server.SimpleHTTPRequestHandler):
    """Python's plain static file server, quiet."""

    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, ".mjs": "text/javascript",
                      ".wasm": "application/wasm", ".js": "text/javascript"}

    def log_message(self, *args) -> None:
        pass


@pytest.fixture(scope="module")
def host(site):
    port = free_port()
    server = http.server.ThreadingHTTPServer(("127.0.0.1", port), functools.partial(StaticFiles, directory=str(site)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{port}/"
    server.shutdown()
    server.server_close()


def phone(browser, host: str):
    """A phone's browser: service workers allowed (the app's own keeps it offline), nothing leaving the machine."""
    context = browser.new_context(viewport=PHONE, service_workers="allow")
    context.add_init_script(ENABLE_SEMANTICS)
    context.set_default_timeout(45_000)
    context.route(re.compile(rf"^(?!{re.escape(host)}).*"), lambda route: route.abort())
    return context


def open_home(context, host: str, route: str = ""):
    page = context.new_page()
    OPEN_PAGES.append(page)
    page.goto(host + route)
    page.get_by_role("button", name="New campaign").or_(page.get_by_role("button", name="Undo", exact=False)) \
        .first.wait_for(timeout=FIRST_SCREEN)
    return page


def create(page, game: str, name: str, players: tuple[str, ...] = ()) -> None:
    tap(page, page.get_by_role("button", name="New campaign"))
    tap(page, page.get_by_role("radio", name=game))
    type_into(page.get_by_label("Campaign name"), name)
    for i, player in enumerate(players, start=1):
        field = page.get_by_label(f"Player {i} name")
        tap(page, field)
        type_into(field, player)
    tap(page, page.get_by_role("button", name="Create and open"))


def listed(page, name: str):
    """A campaign's card on the home screen (its texts merge into the card's name)."""
    return page.get_by_role("group", name=re.compile(rf"^More for {re.escape(name)} ")).first


def home(page) -> None:
    page.goto(page.url.split("#")[0] + "#/")
    expect(page.get_by_role("button", name="New campaign")).to_be_visible()


def play_save_the_singularity(page, artifacts) -> None:
    create(page, "Save the Singularity", "Phone STS", ("Ada",))
    expect(by_id(page, "sts-move")).to_have_text("0")
    tap(page, page.get_by_role("button", name="Roll 3 dice"))
    expect(by_id(page, "sts-move")).to_have_text("1")
    expect(by_id(page, "sts-dice")).to_be_visible()
    settled_screenshot(page, artifacts / "phone-alone-save_the_singularity.png")


def play_klaw(page, artifacts) -> None:
    create(page, "KLAW: Were-Wars", "Phone KLAW", ("Ana", "Bo"))
    expect(by_id(page, "klaw-turn")).to_have_text("Round 1 · Reveal · Ana's turn")
    tap_until(page, page.get_by_role("button", name="Deploy a host", exact=True), page.get_by_label("Host name"))
    for label, text in (("Host name", "Wolfmother"), ("Attack dice", "3"), ("Defense dice", "2")):
        field = page.get_by_label(label)
        tap(page, field)
        type_into(field, text)
    life = page.get_by_label("Life", exact=True)
    tap(page, life)
    type_into(life, "10")
    tap(page, page.get_by_role("button", name="Deploy", exact=True))
    expect(by_id(page, "klaw-life-1")).to_have_text("10")
    settled_screenshot(page, artifacts / "phone-alone-klaw.png")


def play_shadowrun(page, artifacts) -> None:
    from tests.e2e.test_shadowrun import add_objective

    create(page, "Shadowrun: Singularis", "Phone Sprawl")
    add_objective(page, "Data steal", 5)
    settled_screenshot(page, artifacts / "phone-alone-shadowrun.png")


def play_human_ethos(page, artifacts) -> None:
    create(page, "The Singularity War: Human Ethos", "Phone Issue")
    team = page.get_by_label(re.compile("Team members, in turn order"))
    tap(page, team)
    team.fill("Max, Ana")
    expect(team).to_have_value("Max, Ana")
    tap(page, page.get_by_role("button", name="Start issue #1"))
    expect(by_id(page, "turn")).to_have_text("Turn 1 · Max's turn")
    settled_screenshot(page, artifacts / "phone-alone-human_ethos.png")


def play_biosphere5(page, artifacts) -> None:
    """The human's side (the Machine's needs a complete card catalog, which a new phone doesn't have)."""
    create(page, "Biosphere 5", "Phone Machine")
    expect(page.get_by_role("button", name="Reveal 2 cards")).to_be_visible()
    tap_until(page, page.get_by_role("button", name="Your hand cards +1"), by_id(page, "human-hand").filter(has_text="1"))
    expect(by_id(page, "human-hand")).to_have_text("1")
    settled_screenshot(page, artifacts / "phone-alone-biosphere5.png")


GAMES = {"Phone STS": play_save_the_singularity, "Phone KLAW": play_klaw, "Phone Sprawl": play_shadowrun,
         "Phone Issue": play_human_ethos, "Phone Machine": play_biosphere5}


def test_every_game_played_on_a_phone_alone_and_found_after_a_reload(browser, host, artifacts):
    context = phone(browser, host)
    page = open_home(context, host)
    shown = {}
    for name, play in GAMES.items():
        play(page, artifacts)
        shown[name] = page.url
        home(page)
    settled_screenshot(page, artifacts / "phone-alone-home.png")

    # Settings: where saves live, and the browser's answer to "keep this storage".
    page.goto(host + "#/settings")
    expect(by_id(page, "storage-kept")).to_be_visible()
    # No table to join on a phone alone: the QR button says so, and offers export in a campaign.
    home(page)
    tap(page, page.get_by_role("button", name="Join this table"))
    expect(by_id(page, "phone-alone")).to_contain_text("no join code")
    page.keyboard.press("Escape")

    page.reload()  # a fresh Python: everything below is read back from IndexedDB
    expect(page.get_by_role("button", name="New campaign")).to_be_visible(timeout=FIRST_SCREEN)
    for name in GAMES:
        expect(listed(page, name)).to_be_visible()
    page.goto(shown["Phone STS"])
    expect(by_id(page, "sts-move")).to_have_text("1")
    page.goto(shown["Phone KLAW"])
    expect(by_id(page, "klaw-life-1")).to_have_text("10")
    context.close()


def test_settings_say_what_the_browser_answered_and_this_phones_choices_outlive_a_reload(browser, host, artifacts):
    """Settings say truthfully whether the browser keeps the app's storage (navigator.storage.persist()),
    and a choice kept in this phone's browser (its language) is read back after a reload."""
    context = phone(browser, host)
    page = open_home(context, host)
    page.wait_for_function("localStorage.getItem('flutter.companion.storage_persisted') !== null")
    kept = page.evaluate("navigator.storage.persisted()")
    page.goto(host + "#/settings")
    words = "This browser keeps the app's storage" if kept else "This browser may clear the app's storage"
    expect(by_id(page, "storage-kept")).to_contain_text(words)
    settled_screenshot(page, artifacts / "phone-alone-settings.png")

    tap(page, page.get_by_role("button", name="Deutsch"))
    expect(page.get_by_role("button", name="Riesig")).to_be_visible()
    page.wait_for_function("localStorage.getItem('flutter.companion.language') === '\"de\"'")
    page.reload()  # a fresh Python: the language is read back from the browser's preferences
    expect(page.get_by_role("button", name="Riesig")).to_be_visible(timeout=FIRST_SCREEN)
    context.close()


def test_a_tap_shown_as_done_is_saved_when_the_tab_closes(browser, host, artifacts):
    context = phone(browser, host)
    page = open_home(context, host)
    create(page, "Save the Singularity", "Closed tab", ("Ada",))
    expect(by_id(page, "sts-move")).to_have_text("0")
    campaign = page.url

    # Shown, then the tab closed at once: the shown roll is in the save (the screen waited for IndexedDB).
    tap(page, page.get_by_role("button", name="Roll 3 dice"))
    expect(by_id(page, "sts-move")).to_have_text("1", timeout=20_000)
    page.close(run_before_unload=False)
    page = open_home(context, host, campaign.removeprefix(host))
    expect(by_id(page, "sts-move")).to_have_text("1", timeout=FIRST_SCREEN)

    # Closed within milliseconds of the tap: the roll is saved, or it was never shown (and the save opens).
    undo = page.get_by_role("button", name=re.compile("^Undo"))
    expect(undo).to_be_visible()
    undo.click()
    page.close(run_before_unload=False)
    page = open_home(context, host, campaign.removeprefix(host))
    expect(by_id(page, "sts-move")).to_have_text(re.compile("^[01]$"), timeout=FIRST_SCREEN)

    # A second tab of the same phone only reads: two copies of the save would overwrite each other.
    second = open_home(context, host)
    expect(by_id(second, "read-only-banner")).to_contain_text("open in another tab")
    context.close()


def test_a_second_open_with_no_network_works(browser, host, artifacts):
    context = phone(browser, host)
    page = open_home(context, host)
    page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=60_000)
    # Everything the service worker keeps is cached before the network goes.
    page.wait_for_function("""async () => {
        const keys = await caches.keys();
        if (!keys.length) return false;
        const cache = await caches.open(keys[0]);
        return !!(await cache.match('app.tar.gz')) && !!(await cache.match('pyodide/pyodide.asm.wasm'));
    }""", timeout=60_000)
    create(page, "Save the Singularity", "Offline night", ("Ada",))
    expect(by_id(page, "sts-move")).to_have_text("0")
    campaign = page.url
    page.close()

    context.set_offline(True)
    page = open_home(context, host)
    expect(listed(page, "Offline night")).to_be_visible()
    page.goto(campaign)
    tap(page, page.get_by_role("button", name="Roll 3 dice"))
    expect(by_id(page, "sts-move")).to_have_text("1")
    settled_screenshot(page, artifacts / "phone-alone-offline.png")
    context.close()


# Whether a file of the save's folder is in IndexedDB (Emscripten's IDBFS: a database named after the
# folder, a FILE_DATA store keyed by path).
SAVED_IN_INDEXEDDB = """(path) => new Promise((resolve) => {
    const open = indexedDB.open('/companion');
    open.onerror = () => resolve(false);
    open.onsuccess = () => {
        const db = open.result;
        if (!db.objectStoreNames.contains('FILE_DATA')) { db.close(); resolve(false); return; }
        const get = db.transaction('FILE_DATA').objectStore('FILE_DATA').get(path);
        get.onsuccess = () => { db.close(); resolve(!!get.result); };
        get.onerror = () => { db.close(); resolve(false); };
    };
})"""


def wait_until_active(context, version: str, timeout: float = 120.0) -> None:
    """Until the service worker of `version` is the active one (asked of the workers themselves)."""
    import time

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for worker in context.service_workers:
            try:
                if worker.evaluate("[VERSION, self.serviceWorker.state]") == [version, "activated"]:
                    return
            except Exception:  # a worker that stopped meanwhile
                pass
        time.sleep(0.2)
    raise AssertionError(f"the service worker of {version} never became active")


def publish_new_version(site: Path, folder: Path, version: str) -> None:
    """What publishing a new build does to the host's folder, in a copy: another version inside the app's
    archive (its version.json), in version.json and in the service worker (each file also as .gz)."""
    import gzip
    import io
    import json
    import shutil
    import tarfile

    if folder.exists():
        shutil.rmtree(folder)
    shutil.copytree(site, folder)
    old = json.loads((site / "version.json").read_text())["version"]
    packed = io.BytesIO()
    with tarfile.open(site / "app.tar.gz", "r:gz") as src, tarfile.open(fileobj=packed, mode="w:gz") as dst:
        for member in src.getmembers():
            data = src.extractfile(member).read() if member.isfile() else None
            if member.name.endswith("companion/web/version.json"):
                data = json.dumps({"version": version}).encode()
                member.size = len(data)
            dst.addfile(member, io.BytesIO(data) if data is not None else None)
    (folder / "app.tar.gz").write_bytes(packed.getvalue())
    for name in ("sw.js", "version.json"):
        text = (site / name).read_text().replace(old, version)
        (folder / name).write_text(text)
        (folder / f"{name}.gz").write_bytes(gzip.compress(text.encode(), mtime=0))


def test_a_new_version_is_picked_up_on_the_next_open_and_told(browser, site, tmp_path):
    """The host gets a new build: the open after it fetches it in the background, the one after runs it
    and says so."""
    published = tmp_path / "host"
    import shutil

    shutil.copytree(site, published)
    port = free_port()
    server = http.server.ThreadingHTTPServer(("127.0.0.1", port), functools.partial(StaticFiles, directory=str(published)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    host = f"http://127.0.0.1:{port}/"
    try:
        context = phone(browser, host)
        page = open_home(context, host)
        page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=60_000)
        # The app notes the version it runs beside the save once its first screen is up: in IndexedDB.
        page.wait_for_function(SAVED_IN_INDEXEDDB, arg="/companion/seen-version.txt", timeout=60_000)
        page.close()
        publish_new_version(site, published, "newer-build-0002")
        page = open_home(context, host)  # still the old version, from the cache; the new one is fetched meanwhile
        # The new version is cached whole and waits: it never takes over a page running the old one.
        page.wait_for_function("""async () => (await caches.keys()).includes('table-companion-newer-build-0002')
                                  && !(await navigator.serviceWorker.getRegistration()).installing
                                  && !!(await navigator.serviceWorker.getRegistration()).waiting""", timeout=120_000)
        assert page.get_by_text("The app was updated").count() == 0
        page.close()
        # As when a phone's tab is closed and opened later: the waiting version takes over once no page of
        # the old one is open, a moment after the close (opened at once, the next page could still be the old one's).
        wait_until_active(context, "newer-build-0002")
        page = open_home(context, host)
        expect(page.get_by_text("The app was updated to version newer-build-0002.")).to_be_visible(timeout=30_000)
        page.goto(host + "#/settings")
        expect(page.get_by_text("Version newer-build-0002")).to_be_visible()
        context.close()
    finally:
        server.shutdown()
        server.server_close()


def test_a_campaign_moves_from_the_phone_to_a_table_and_back(browser, host, tmp_path):
    """Export on the phone alone downloads the file the laptop imports (`companion import`); the
    laptop's export, with an action played there, is imported back on the phone: one format."""
    import json

    context = phone(browser, host)
    page = open_home(context, host)
    create(page, "Save the Singularity", "Travelling", ("Ada",))
    tap(page, page.get_by_role("button", name="Roll 3 dice"))
    expect(by_id(page, "sts-move")).to_have_text("1")
    tap(page, page.get_by_role("button", name="Share this table"))  # on a phone alone: the export instead
    expect(by_id(page, "phone-alone")).to_contain_text("export it to a file")
    tap(page, page.get_by_role("button", name="Export this campaign"))
    with page.expect_download() as download:
        tap(page, page.get_by_role("button", name="Save file"))
    exported = tmp_path / download.value.suggested_filename
    download.value.save_as(exported)

    # The table's laptop imports it, plays on (the pure rules, through its store), and exports it back.
    table = f"sqlite:///{tmp_path / 'table.sqlite'}"
    said = subprocess.run([sys.executable, "-m", "companion", "--db", table, "import", str(exported)], cwd=ROOT,
                          capture_output=True, text=True, check=True).stdout
    table_id = int(re.search(r"Imported as campaign (\d+)", said).group(1))
    from companion.context import AppContext
    from companion.games.save_the_singularity.rules import legal_actions

    ctx = AppContext.open(table, start_backup=False)
    loaded = ctx.store.load(table_id)
    assert loaded.campaign.name == "Travelling" and loaded.cursor == 1
    ctx.store.apply(table_id, legal_actions(loaded.game_state)[0], expected_cursor=1)  # played at the table
    ctx.close()
    back = tmp_path / "back.json"
    subprocess.run([sys.executable, "-m", "companion", "--db", table, "export", str(table_id), str(back)], cwd=ROOT,
                   check=True, capture_output=True)
    actions_at_the_table = len(json.loads(back.read_text())["log"]) - 1

    # Back on the phone: Import opens the browser's file picker, and the laptop's file is picked.
    home(page)
    tap_until(page, page.get_by_role("button", name="Import"), page.get_by_role("button", name="Choose a file"))
    with page.expect_file_chooser() as chooser:
        tap(page, page.get_by_role("button", name="Choose a file"))
    chooser.value.set_files(str(back))
    expect(by_id(page, "sts-move")).to_have_text(str(actions_at_the_table))
    context.close()
