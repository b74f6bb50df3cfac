"""The app on a phone alone (#29) beside a bare Flet counter built and loaded the same way (Pyodide in the
page's worker, the same client, the same service worker), in headless Chromium at 412×915:

- bytes on first open, as a static host sends them (each file's .gz when the browser accepts gzip),
  counted by the file server itself (the worker's requests too);
- page open → usable home screen: first open (nothing cached) and a later open (from the service
  worker's cache);
- tap → update: from the click to the changed value in the page (median and worst of TAPS taps).

    python -m tests.perf.phone_bench          (builds build/web if missing; the bare counter in build/bench-web)
"""

from __future__ import annotations

import functools
import http.server
import os
import statistics
import threading
from pathlib import Path

from tests.browser import ENABLE_SEMANTICS, PHONE, ROOT, free_port, launch

TAPS = 12
BARE = ROOT / "build" / "bench-web"
BARE_COUNTER = '''import flet as ft


def main(page: ft.Page):
    count = [0]
    value = ft.Text("0", size=40)

    def add(e):
        count[0] += 1
        value.value = str(count[0])
        page.update()
    page.add(ft.Semantics(identifier="counter-value", content=value),
             ft.FilledButton(content="Value +1", on_click=add, height=56))


ft.run(main)
'''


class StaticHost(http.server.SimpleHTTPRequestHandler):
    """A static host: the precompressed .gz when the browser accepts gzip; counts the bytes it sends."""

    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, ".mjs": "text/javascript",
                      ".wasm": "application/wasm", ".js": "text/javascript"}
    sent = [0]

    def log_message(self, *args) -> None:
        pass

    def send_head(self):
        path = Path(self.translate_path(self.path))
        packed = path.with_name(path.name + ".gz")
        if path.is_file() and packed.is_file() and "gzip" in self.headers.get("Accept-Encoding", ""):
            modified = self.date_time_string(int(packed.stat().st_mtime))
            if self.headers.get("If-Modified-Since") == modified:  # a revalidation, as any static host answers it
                self.send_response(304)
                self.end_headers()
                return None
            f = open(packed, "rb")
            self.send_response(200)
            self.send_header("Last-Modified", modified)
            self.send_header("Content-Type", self.guess_type(str(path)))
            self.send_header("Content-Encoding", "gzip")
            self.send_header("Content-Length", str(packed.stat().st_size))
            self.end_headers()
            return f
        return super().send_head()

    def copyfile(self, source, outputfile) -> None:
        data = source.read()
        StaticHost.sent[0] += len(data)
        outputfile.write(data)


def serve(folder: Path):
    server = http.server.ThreadingHTTPServer(("127.0.0.1", free_port()),
                                             functools.partial(StaticHost, directory=str(folder)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/"


def open_page(context, url: str, ready: str) -> tuple[object, float]:
    import time

    page = context.new_page()
    t = time.perf_counter()
    page.goto(url)
    page.get_by_role("button", name=ready).first.wait_for(timeout=300_000)
    return page, time.perf_counter() - t


def tap_times(page, button: str, identifier: str, taps: int = TAPS) -> list[float]:
    """Click → the value's semantics node changed, timed inside the page (ms)."""
    target = page.get_by_role("button", name=button).first
    times = []
    for _ in range(taps):
        box = target.bounding_box()
        page.evaluate("""(id) => {
            window.__changed = null;
            const node = document.querySelector(`[flt-semantics-identifier="${id}"]`);
            const before = node ? node.textContent : null;
            const watch = new MutationObserver(() => {
                const now = document.querySelector(`[flt-semantics-identifier="${id}"]`);
                if (now && now.textContent !== before) { window.__changed = performance.now(); watch.disconnect(); }
            });
            watch.observe(document.body, {subtree: true, childList: true, characterData: true, attributes: true});
            window.__clicked = performance.now();
        }""", identifier)
        page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        page.wait_for_function("window.__changed !== null", timeout=30_000)
        times.append(page.evaluate("window.__changed - window.__clicked"))
        page.wait_for_timeout(300)
    return times


def measure(browser, folder: Path, *, ready: str, setup=None, tap: tuple[str, str]) -> dict:
    server, url = serve(folder)
    try:
        context = browser.new_context(viewport=PHONE, service_workers="allow")
        context.add_init_script(ENABLE_SEMANTICS)
        StaticHost.sent[0] = 0
        page, first = open_page(context, url, ready)
        # The service worker has kept every file before "later" is measured.
        page.wait_for_function("""async () => {
            const keys = await caches.keys();
            return keys.length > 0 && !!(await (await caches.open(keys[0])).match('app.tar.gz'));
        }""", timeout=120_000)
        first_bytes = StaticHost.sent[0]
        if setup:
            setup(page)
        taps = tap_times(page, *tap)
        page.close()
        later = []
        for _ in range(3):
            StaticHost.sent[0] = 0
            page, seconds = open_page(context, url, ready)
            later.append(seconds)
            page.close()
        later_bytes = StaticHost.sent[0] // 3
        context.close()
    finally:
        server.shutdown()
        server.server_close()
    return {"first_s": first, "later_s": statistics.median(later), "first_bytes": first_bytes,
            "later_bytes": later_bytes, "tap_median_ms": statistics.median(taps), "tap_worst_ms": max(taps)}


def app_setup(page) -> None:
    """A Biosphere 5 campaign: "Your hand cards +1" is the tap measured (a logged action each time)."""
    from playwright.sync_api import expect

    from tests.browser import by_id, tap, type_into

    tap(page, page.get_by_role("button", name="New campaign"))
    tap(page, page.get_by_role("radio", name="Biosphere 5"))
    type_into(page.get_by_label("Campaign name"), "Bench")
    tap(page, page.get_by_role("button", name="Create and open"))
    expect(page.get_by_role("button", name="Reveal 2 cards")).to_be_visible()
    tap(page, page.get_by_role("button", name="Your hand cards +1"))
    expect(by_id(page, "human-hand")).to_have_text("1")


def run() -> dict:
    from playwright.sync_api import sync_playwright

    from companion.web.build import DEFAULT_OUT, build

    lock = os.environ.get("COMPANION_LOCK")
    if not (DEFAULT_OUT / "app.tar.gz").exists():
        build(DEFAULT_OUT, lock=lock)
    build(BARE, lock=lock, bare_app=BARE_COUNTER)
    size = lambda folder: sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())  # noqa: E731
    with sync_playwright() as p:
        browser = launch(p)
        bare = measure(browser, BARE, ready="Value +1", tap=("Value +1", "counter-value"))
        app = measure(browser, DEFAULT_OUT, ready="New campaign", setup=app_setup,
                      tap=("Your hand cards +1", "human-hand"))
        browser.close()
    return {"app": app, "bare": bare, "app_archive": (DEFAULT_OUT / "app.tar.gz").stat().st_size,
            "bare_archive": (BARE / "app.tar.gz").stat().st_size, "app_site": size(DEFAULT_OUT)}


def report(r: dict) -> str:
    a, b = r["app"], r["bare"]
    mb = lambda n: f"{n / 1e6:.1f} MB"  # noqa: E731
    return "\n".join([
        "on a phone alone (static build, Pyodide in the browser; headless Chromium 412×915, localhost):",
        f"  first open, bytes sent (gzip as a static host): app {mb(a['first_bytes'])} · bare counter {mb(b['first_bytes'])}"
        f"   (target < 15 MB); app.tar.gz {mb(r['app_archive'])} vs {mb(r['bare_archive'])}",
        f"  page open → usable home, first open: app {a['first_s']:.1f} s · bare {b['first_s']:.1f} s",
        f"  later open (service worker's cache): app {a['later_s']:.1f} s · bare {b['later_s']:.1f} s"
        f"   ratio {a['later_s'] / b['later_s']:.2f}×   (target ≤ 1.5×); bytes from the host {a['later_bytes']} · {b['later_bytes']}",
        f"  tap → update ({TAPS} taps): app median {a['tap_median_ms']:.0f} ms (worst {a['tap_worst_ms']:.0f})"
        f" · bare {b['tap_median_ms']:.0f} ms (worst {b['tap_worst_ms']:.0f})   (target < 100 ms)",
    ])


if __name__ == "__main__":
    print(report(run()))
