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
from typing import Callable, Iterator, Optional

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


def wait_for_port(port: int, timeout: float = 30.0, proc: Optional[subprocess.Popen] = None,
                  output: Optional[Callable[[], str]] = None) -> None:
    """Wait until something listens on `port`; fails at once, with `output()`, if `proc` exits first."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            said = output() if output else (proc.stdout.read() if proc.stdout else "")
            raise RuntimeError(f"server exited with {proc.returncode}: {said}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.05)
    raise TimeoutError(f"port {port} did not open within {timeout}s")


def cpu_seconds(pid: int) -> float:
    """The CPU time a process has used so far (user + system, from /proc); OSError once it is gone."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


SERVERS: list[dict] = []  # servers of the running e2e test; their output's tail goes in a failure's report


@contextmanager
def served(db_url: str, *, token: Optional[str] = "test-token-0123456789", extra_env: Optional[dict] = None,
           command: Optional[list[str]] = None, port: Optional[int] = None) -> Iterator[dict]:
    """Start `companion serve` on a (free) port; yields {'port', 'base', 'join', 'proc', 'output'}.
    Its output goes to a file, not a pipe: a pipe nobody reads fills (64 KB: a few dozen tracebacks
    of closed websockets) and then stops the server at its next print. `output()` reads it so far."""
    import tempfile

    port = port or free_port()
    env = dict(os.environ, COMPANION_TEST_GAMES="1", **(extra_env or {}))
    cmd = command or [sys.executable, "-m", "companion", "--db", db_url, "serve", "--host", "127.0.0.1",
                      "--port", str(port), "--quiet"] + (["--token", token] if token else ["--open"])
    with tempfile.NamedTemporaryFile("w+", prefix="companion-serve-", suffix=".log") as log:
        proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, text=True)

        def output() -> str:
            return Path(log.name).read_text(errors="replace")

        server = {"port": port, "proc": proc, "output": output}
        SERVERS.append(server)
        try:
            wait_for_port(port, proc=proc, output=output)
            base = f"http://127.0.0.1:{port}/"
            server.update(base=base, join=f"{base}?join={token}" if token else base)
            yield server
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
            server["output"] = lambda text=output(): text  # the file goes with this block


def printed_line(server: dict, timeout: float = 30.0) -> str:
    """The first line the served app printed (waited for)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        text = server["output"]()
        if "\n" in text:
            return text.split("\n", 1)[0]
        time.sleep(0.05)
    raise TimeoutError(f"the server printed no line within {timeout}s")


def launch(playwright):
    return playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)


def new_context(browser, *, viewport=PHONE, locale: Optional[str] = None):
    """A phone's browser; `locale` is the language it asks for (navigator.language)."""
    context = browser.new_context(viewport=viewport, service_workers="block", **({"locale": locale} if locale else {}))
    context.add_init_script(ENABLE_SEMANTICS)
    if os.environ.get("E2E_THEME"):  # E2E_THEME=dark: every phone in that theme (screenshots/dark/)
        context.add_init_script(f"localStorage.setItem('flutter.companion.theme', '\"{os.environ['E2E_THEME']}\"')")
    # A page's own waits (a locator to appear, a screenshot): long enough to outlast a stall of the
    # shared headless Chromium late in a loaded full run (seen: a screenshot or a first button taking
    # over 20 s, then fine); a check that fails still fails, later.
    context.set_default_timeout(45_000)
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


def type_into(field, text: str, *, attempts: int = 3) -> None:
    """Focus a Flutter text field the way a finger does (scrolled into view first), then fill it:
    Flutter only listens to an input it has focused itself, so a bare fill() can be ignored. Then
    wait until Flutter has drawn the text: a tap right after could reach it before the text did.
    On a loaded machine Flutter can take the focus only after the fill and then write its own text
    back over it; the field then doesn't hold `text` once settled, and the typing is done again."""
    from playwright.sync_api import expect

    for attempt in range(attempts):
        tap(field.page, field)
        expect(field).to_be_focused()
        field.fill(text)
        settle(field.page)
        if field.input_value() == text:
            return
    raise AssertionError(f"the field kept {field.input_value()!r}, not {text!r}, after {attempts} tries")


def tap(page, locator, *, bottom_margin: int = 100, steady: bool = False) -> None:
    """Click a control, first scrolling Flutter's view until it is on screen (`scroll_to`, clear of
    the bottom bar by `bottom_margin`): the semantics DOM can't scroll the canvas, so an off-screen
    click would miss. `steady`: also wait until it stops moving (a redraw above it may still be
    pushing it down).

    A control Flutter describes but hides (off screen, past the view's edge) is never "visible":
    after a short wait for it, the wheel looks for it; only a control that isn't there at all is
    then waited for as long as any other (a redraw late in a loaded run)."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    try:
        locator.wait_for(timeout=5_000)
    except PlaywrightTimeout:
        try:
            scroll_to(page, locator, near_top=False, bottom=bottom_margin, step=250)
        except AssertionError:
            locator.wait_for()
    scroll_to(page, locator, near_top=False, bottom=bottom_margin, step=250)
    if steady:
        wait_steady(page, locator)
    locator.click()


def on_screen(page, locator, *, top: float = 56, bottom: float = 90, timeout: float = 5.0) -> Optional[dict]:
    """The control's box once it is wholly on screen, clear of the title and the bottom bar (waited
    for: the app scrolls to it after a tap); None if it stays off screen. No scrolling here: a check
    that the app brought it into view (issue #30)."""
    height = page.viewport_size["height"]
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        box = locator.first.bounding_box() if locator.count() else None
        if box and box["y"] >= top and box["y"] + box["height"] <= height - bottom:
            return box
        page.wait_for_timeout(150)
    return None


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


# Two animation frames (or 100 ms, should the page not be drawing): what a redraw takes.
FRAMES = "() => new Promise(r => { requestAnimationFrame(() => requestAnimationFrame(r)); setTimeout(r, 100); })"
# Where every node of the semantics tree is: changes whenever Flutter's view scrolls.
LAYOUT = """() => { let h = 0, n = 0;
  for (const e of document.querySelectorAll('flt-semantics')) { h = (h * 31 + Math.round(e.getBoundingClientRect().y)) % 1000000007; n++; }
  return n + ':' + h; }"""


def _described(locator) -> tuple[bool, Optional[dict]]:
    """Whether Flutter describes the control now (it leaves out what is far off screen), and its box
    (None while a redraw replaces its node)."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    if not locator.count():
        return False, None
    try:
        return True, locator.bounding_box(timeout=1_000)
    except PlaywrightTimeout:  # gone again between the two reads
        return False, None


def wheel(page, dy: float, *, quiet_ms: int = 600) -> bool:
    """Turn the mouse wheel by `dy` px over the middle of the screen (as a finger swipes) and wait
    until Flutter's view has moved; False if nothing moved within `quiet_ms` (the end of the page)."""
    viewport = page.viewport_size
    before = page.evaluate(LAYOUT)
    page.mouse.move(viewport["width"] / 2, viewport["height"] / 2)
    page.mouse.wheel(0, dy)
    deadline = time.monotonic() + quiet_ms / 1000
    while time.monotonic() < deadline:
        page.evaluate(FRAMES)
        if page.evaluate(LAYOUT) != before:
            return True
    return False


def scroll_to(page, locator, *, near_top: bool = True, top: float = 60, bottom: float = 0,
              spot: Optional[Callable[[dict], tuple[float, float]]] = None, step: int = 150, tries: int = 40,
              from_top: bool = False, what: Optional[str] = None) -> dict:
    """Scroll Flutter's view with the mouse wheel (as a finger swipes) until `locator` is on screen;
    returns its box. The one scrolling loop of the browser tests: Flutter web describes only what is
    on or near the screen (its semantics tree), so a control must be brought into view before it can
    be read, tapped or photographed.

    Where it is wanted (`top`: px under the screen's top, the title bar; `bottom`: px above its bottom):
    - `near_top` (the default, for screenshots): its top between `top` and a third of the screen down;
    - `near_top=False` (for a tap): all of it between `top` and `bottom` (clear of a bottom bar or a
      snack bar). Of a control taller than that room only its first (room - 60) px need be shown.
    - `spot(box) -> (y0, y1)`: the part of the page that must be there instead of the whole box (a
      point of a canvas map: `lambda box: (box["y"] + y, box["y"] + y)`).
    Where the page can't scroll any further (the wheel moves nothing), anywhere on screen will do.

    A control Flutter doesn't describe yet is looked for downwards, then upwards once the wheel
    stops moving the page (`from_top`: from the top of the page down). After each turn of the wheel
    (`step` px, halved each time the control is overshot) it waits until the view has moved, not a
    fixed time. Raises AssertionError naming the control (`what`, or the locator) if it isn't there
    after `tries` turns."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    height = page.viewport_size["height"]
    room = height - top - bottom

    def span(box: dict) -> tuple[float, float]:
        y0, y1 = spot(box) if spot else (box["y"], box["y"] + box["height"])
        return y0, y0 + min(y1 - y0, room - 60)

    def wanted(y0: float, y1: float) -> bool:
        return top <= y0 <= height / 3 if near_top else top <= y0 and y1 <= height - bottom

    try:  # a control just being drawn is waited for a moment before the search
        locator.first.wait_for(state="attached", timeout=1_000)
    except PlaywrightTimeout:
        pass
    if from_top:
        for _ in range(3):
            if not wheel(page, -100_000):
                break
    moved, downward, last, box = True, True, None, None
    for _ in range(tries):
        found, box = _described(locator)
        if found and box is None:  # its node is being redrawn
            page.evaluate(FRAMES)
            continue
        if box is None:  # not described: look further on (the other way once the page stops)
            moved = wheel(page, step if downward else -step)
            if not moved:
                downward = not downward
            continue
        y0, y1 = span(box)
        if wanted(y0, y1) or (not moved and 0 <= y0 and y1 <= height):
            return box
        down = y0 >= top
        if last is not None and down != last:  # overshot: finer turns
            step = max(step // 2, 40)
        last = down
        moved = wheel(page, step if down else -step)
    where = "not described by Flutter" if box is None else f"last at y={box['y']:.0f}, height {box['height']:.0f}"
    goal = f"its top {top}-{height / 3:.0f} px" if near_top else f"{top}-{height - bottom} px"
    raise AssertionError(f"{what or locator} not scrolled on screen in {tries} turns of the wheel ({where}; wanted at {goal})")


def finger(page, x: float, y: float) -> None:
    """A finger's tap at a point of the page (a canvas map has no control to click). A finger on a
    phone (no screen reader) reaches the canvas directly; here the semantics tree laid over the page
    (enabled for the locators) would swallow the pointer, so it is let through for this one tap (the
    browser given two frames to take the style into account)."""
    page.evaluate("""() => { const s = document.createElement('style'); s.id = 'let-taps-through';
        s.textContent = 'flt-semantics { pointer-events: none !important; }'; document.head.appendChild(s); }""")
    page.evaluate(FRAMES)
    page.mouse.click(x, y)
    page.evaluate(FRAMES)
    page.evaluate("() => document.getElementById('let-taps-through').remove()")
    # After raw pointer events Flutter's web engine ignores semantic clicks for a short while (its
    # "gesture mode" switches back lazily); nothing observable marks the end, so give it that while.
    page.wait_for_timeout(1000)


def both_phones(page, locator, save) -> None:
    """Screenshots of this screen, scrolled to `locator`, on a small phone (360×740) and a large one
    (412×915), each by `save(tag)` ("360", "412"); back at the small one after."""
    for size, tag in ((SMALL_PHONE, "360"), (PHONE, "412")):
        page.set_viewport_size(size)
        scroll_to(page, locator)
        save(tag)
    page.set_viewport_size(SMALL_PHONE)
