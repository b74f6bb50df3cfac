"""Driving the served app in headless Chromium (Debian's /usr/bin/chromium, via Playwright).

Shared by the end-to-end tests, the benchmarks and manual screenshots. See ../shared/TESTING.md:
Flutter draws on a canvas, so the page's DOM is its semantics tree, which appears only after its
placeholder is clicked; the init script below does that as soon as it shows up."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator, Optional

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = os.environ.get("CHROMIUM", shutil.which("chromium") or "/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
PHONE = {"width": 412, "height": 915}
OPEN_PAGES: list = []  # pages of the running e2e test; screenshotted when it fails
DESKTOP = {"width": 1280, "height": 800}
SMALL_PHONE = {"width": 360, "height": 740}

ENABLE_SEMANTICS = """
new MutationObserver((_, obs) => {
  const ph = document.querySelector('flt-semantics-placeholder');
  if (ph) { ph.click(); obs.disconnect(); }
}).observe(document, {childList: true, subtree: true});
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for_port(port: int, timeout: float = 30.0, proc: Optional[subprocess.Popen] = None) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            raise RuntimeError(f"server exited with {proc.returncode}: {proc.stdout.read() if proc.stdout else ''}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.05)
    raise TimeoutError(f"port {port} did not open within {timeout}s")


@contextmanager
def served(db_url: str, *, token: Optional[str] = "test-token-0123456789", extra_env: Optional[dict] = None,
           command: Optional[list[str]] = None, port: Optional[int] = None) -> Iterator[dict]:
    """Start `companion serve` on a (free) port; yields {'port', 'base', 'join', 'proc'}."""
    port = port or free_port()
    env = dict(os.environ, COMPANION_TEST_GAMES="1", **(extra_env or {}))
    cmd = command or [sys.executable, "-m", "companion", "--db", db_url, "serve", "--host", "127.0.0.1",
                      "--port", str(port), "--quiet"] + (["--token", token] if token else ["--open"])
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        wait_for_port(port, proc=proc)
        base = f"http://127.0.0.1:{port}/"
        yield {"port": port, "base": base, "join": f"{base}?join={token}" if token else base, "proc": proc}
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()


def launch(playwright):
    return playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)


def new_context(browser, *, viewport=PHONE, locale: Optional[str] = None):
    """A phone's browser; `locale` is the language it asks for (navigator.language)."""
    context = browser.new_context(viewport=viewport, service_workers="block", **({"locale": locale} if locale else {}))
    context.add_init_script(ENABLE_SEMANTICS)
    if os.environ.get("E2E_THEME"):  # E2E_THEME=dark: every phone in that theme (screenshots/dark/)
        context.add_init_script(f"localStorage.setItem('flutter.companion.theme', '\"{os.environ['E2E_THEME']}\"')")
    context.set_default_timeout(20_000)
    return context


def go(page, url: str) -> None:
    """Open a URL of the app and wait until its screen has settled: a tap while the first frames are
    still being laid out can be dropped by Flutter."""
    page.goto(url)
    page.get_by_role("button").first.wait_for()
    settle(page)


def settle(page, *, quiet_ms: int = 400, timeout: float = 10.0) -> bytes:
    """Wait until the canvas has stopped changing for `quiet_ms`; returns the last frame."""
    deadline = time.monotonic() + timeout
    last = page.screenshot()
    stable_since = time.monotonic()
    while time.monotonic() < deadline:
        page.wait_for_timeout(100)
        shot = page.screenshot()
        if shot != last:
            last, stable_since = shot, time.monotonic()
        elif (time.monotonic() - stable_since) * 1000 >= quiet_ms:
            break
    return last


def settled_screenshot(page, path: str | Path, *, quiet_ms: int = 400, timeout: float = 10.0) -> bytes:
    """Take the screenshot once the canvas has stopped changing for `quiet_ms`."""
    last = settle(page, quiet_ms=quiet_ms, timeout=timeout)
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    Path(path).write_bytes(last)
    return last


def by_id(page, identifier: str):
    return page.locator(f'[flt-semantics-identifier="{identifier}"]')


def type_into(field, text: str) -> None:
    """Focus a Flutter text field the way a finger does (scrolled into view first), then fill it:
    Flutter only listens to an input it has focused itself, so a bare fill() can be ignored."""
    tap(field.page, field)
    field.fill(text)


def tap(page, locator, *, bottom_margin: int = 100, steady: bool = False) -> None:
    """Click a control, first scrolling Flutter's view (with the wheel, as a finger would swipe) until
    it is on screen: the semantics DOM can't scroll the canvas, so an off-screen click would miss.
    `steady`: also wait until it stops moving (a redraw above it may still be pushing it down)."""
    locator.wait_for()
    viewport = page.viewport_size
    for _ in range(30):
        box = locator.bounding_box()
        if box and box["y"] >= 60 and box["y"] + box["height"] <= viewport["height"] - bottom_margin:
            break
        page.mouse.move(viewport["width"] / 2, viewport["height"] / 2)
        page.mouse.wheel(0, 250 if (box is None or box["y"] > 60) else -250)
        page.wait_for_timeout(120)
    if steady:
        wait_steady(page, locator)
    locator.click()


def wait_steady(page, locator, *, tries: int = 50) -> Optional[dict]:
    """Wait until a control's box is the same on two reads 150 ms apart; returns that box."""
    previous = None
    for _ in range(tries):
        locator.wait_for()
        box = locator.bounding_box()  # None while a redraw replaces the node
        if box is not None and box == previous:
            break
        previous = box
        page.wait_for_timeout(150)
    return previous


def tap_until(page, locator, shown, *, attempts: int = 3) -> None:
    """Tap a control whose tap changes nothing but shows something (a refusal's message), again if
    Flutter dropped the tap: safe only because a refused tap is harmless to repeat."""
    from playwright.sync_api import expect

    for attempt in range(attempts):
        tap(page, locator)
        try:
            expect(shown.first).to_be_visible(timeout=5_000)
            return
        except AssertionError:
            if attempt == attempts - 1:
                raise


def open_app(browser, server: dict, *, viewport=PHONE, locale: Optional[str] = None):
    """A phone that scanned the join code: a new context, nothing leaving the machine, home shown."""
    import re

    context = new_context(browser, viewport=viewport, locale=locale)
    context.route(re.compile(r"^(?!http://127\.0\.0\.1).*"), lambda route: route.abort())
    page = context.new_page()
    OPEN_PAGES.append(page)
    page.goto(server["join"])
    page.get_by_text("Table Companion").first.wait_for()
    return context, page


def scroll_to(page, locator) -> None:
    """Scroll Flutter's view (with the wheel, as a finger swipes) until `locator` is near the top."""
    viewport = page.viewport_size
    for _ in range(30):
        box = locator.bounding_box()
        if box and 60 <= box["y"] <= viewport["height"] / 3:
            return
        page.mouse.move(viewport["width"] / 2, viewport["height"] / 2)
        page.mouse.wheel(0, 120 if (box is None or box["y"] > 60) else -120)
        page.wait_for_timeout(120)


def both_phones(page, locator, save) -> None:
    """Screenshots of this screen, scrolled to `locator`, on a small phone (360×740) and a large one
    (412×915), each by `save(tag)` ("360", "412"); back at the small one after."""
    for size, tag in ((SMALL_PHONE, "360"), (PHONE, "412")):
        page.set_viewport_size(size)
        scroll_to(page, locator)
        save(tag)
    page.set_viewport_size(SMALL_PHONE)
