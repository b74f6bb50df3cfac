"""The web client as a phone gets it from `companion serve` (companion/web_client.py, #27, #30): every
request stays on the laptop, the client's files come from their versioned URLs, and a later open takes
them from the browser's cache without asking the laptop."""

import re
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect

from tests.browser import CHROMIUM, CHROMIUM_ARGS, OPEN_PAGES, by_id, new_context, served, tap, type_into

LOCAL = {"127.0.0.1"}


@pytest.fixture(scope="module")
def browser(playwright):
    """A Chromium that can reach no other machine: names other than the laptop's resolve to nothing. (Not
    Playwright's routing, which would turn the browser's cache off.) Each attempt still shows as a request."""
    b = playwright.chromium.launch(executable_path=CHROMIUM, headless=True,
                                   args=[*CHROMIUM_ARGS, "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"])
    yield b
    b.close()


@pytest.fixture
def server(tmp_path):
    with served(f"sqlite:///{tmp_path / 'e2e.sqlite'}", token="e2e-client-token-0001") as s:
        yield s


def watched_page(context):
    """A page whose every request (and, through the DevTools protocol, whether the browser's cache
    answered it) is noted."""
    page = context.new_page()
    OPEN_PAGES.append(page)
    seen = {"requests": [], "from_cache": set(), "from_network": set()}
    page.on("request", lambda request: seen["requests"].append(request.url))
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.on("Network.requestServedFromCache", lambda e: seen["from_cache"].add(e["requestId"]))
    ids = {}
    cdp.on("Network.requestWillBeSent", lambda e: ids.__setitem__(e["requestId"], e["request"]["url"]))

    def received(e):
        response = e["response"]
        if response.get("fromDiskCache") or response.get("fromMemoryCache") or e["requestId"] in seen["from_cache"]:
            seen["from_cache"].add(ids.get(e["requestId"], response["url"]))
        else:
            seen["from_network"].add(response["url"])
    cdp.on("Network.responseReceived", received)
    return page, seen


def test_a_served_page_asks_nothing_of_another_machine_and_a_later_open_is_cached(browser, server):
    context = new_context(browser)
    page, first = watched_page(context)
    page.goto(server["join"])
    page.get_by_text("Table Companion").first.wait_for()
    tap(page, page.get_by_role("button", name="New campaign"))
    tap(page, page.get_by_role("radio", name="Counter (test game)"))
    type_into(page.get_by_label("Campaign name"), "Offline table")
    tap(page, page.get_by_role("button", name="Create and open"))
    expect(by_id(page, "counter-value")).to_have_text("0")
    page.wait_for_load_state("networkidle")

    elsewhere = [url for url in first["requests"]
                 if urlsplit(url).scheme not in ("data", "blob") and urlsplit(url).hostname not in LOCAL]
    assert not elsewhere, f"the served page asked another machine for: {elsewhere}"
    paths = [urlsplit(url).path for url in first["requests"]]
    versioned = [p for p in paths if re.match(r"^/_client/[0-9a-f]{16}/", p)]
    assert any(p.endswith(("/main.dart.js", "/main.dart.wasm")) for p in versioned), paths
    assert any("/canvaskit/" in p for p in versioned), paths
    assert not [p for p in paths if re.match(r"^/(main\.dart\.|canvaskit/)", p)], "the client's files asked unversioned"
    assert "/_client/rive/wasm/rive_native.js" in paths  # Rive's loader asked the laptop, and stopped there

    # A later open of the app on this phone: the versioned files come from the browser's cache.
    page.close()
    page, later = watched_page(context)
    page.goto(server["base"])
    page.get_by_text("Table Companion").first.wait_for()
    page.wait_for_load_state("networkidle")
    later_versioned = {url for url in later["requests"] if re.search(r"/_client/[0-9a-f]{16}/", url)}
    assert later_versioned, later["requests"]
    assert later_versioned <= later["from_cache"], f"asked the laptop again: {later_versioned - later['from_cache']}"
    assert not later_versioned & later["from_network"]
    context.close()
