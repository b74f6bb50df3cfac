"""Tap → update, side by side with a bare Flet counter served the same way, in one run (#16).

For each app: a phone taps "Value +1" TAPS times (a mouse click where the button is); measured in
the page, from the pointerdown to the new value in the screen's semantics tree (what the phone shows once Flutter has drawn it). With other phones
open on the same campaign: when the last of them shows the change, the server's CPU time per tap,
and the bytes each phone is sent per change (websocket frames).

    python -m tests.perf.tap_bench            # prints a table; run_all includes it
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

from tests.browser import ROOT, by_id, free_port, launch, new_context, served, settle, wait_for_port

TAPS = int(os.environ.get("BENCH_TAPS", "24"))
OTHER_PHONES = int(os.environ.get("BENCH_PHONES", "6"))

BARE_COUNTER = '''  # the least a shared Flet counter can do: pubsub to every session
import sys
import flet as ft
import uvicorn


COUNT = [0]  # one counter shared by every phone, as a campaign is


def main(page: ft.Page):
    value = ft.Text(str(COUNT[0]), size=40)

    def show(n):
        value.value = str(n)
        page.update()

    def add(e):
        COUNT[0] += 1
        page.pubsub.send_all(COUNT[0])
    page.pubsub.subscribe(show)
    page.add(ft.Semantics(identifier="counter-value", content=value),
             ft.FilledButton(content="Value +1", on_click=add, height=56))


app = ft.run(main, export_asgi_app=True, no_cdn=True)
uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[1]), log_level="warning", ws="websockets-sansio")
'''

# Armed before each tap: the finger's pointerdown starts the clock, and the counter's node showing
# the expected text stops it (what the phone shows once Flutter has drawn it).
ARM_TAP = """
(expected) => { window.__t0 = null; window.__dt = null;
  addEventListener('pointerdown', () => { window.__t0 = performance.now(); }, {capture: true, once: true});
  const shown = () => {
    const node = document.querySelector('[flt-semantics-identifier="counter-value"]');
    return node && node.textContent.includes(expected);
  };
  const obs = new MutationObserver(() => {
    if (window.__t0 !== null && shown()) { obs.disconnect(); window.__dt = performance.now() - window.__t0; }
  });
  obs.observe(document.body, {subtree: true, childList: true, characterData: true, attributes: true});
}
"""
WATCH = """
(expected) => { window.__seen = null;
  const shown = () => {
    const node = document.querySelector('[flt-semantics-identifier="counter-value"]');
    return node && node.textContent.includes(expected);
  };
  const obs = new MutationObserver(() => { if (shown()) { obs.disconnect(); window.__seen = Date.now(); } });
  obs.observe(document.body, {subtree: true, childList: true, characterData: true, attributes: true});
}
"""


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@contextmanager
def bare_server():
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        script = Path(tmp) / "bare_counter.py"
        script.write_text(BARE_COUNTER)
        proc = subprocess.Popen([sys.executable, str(script), str(port)], cwd=ROOT, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL)
        try:
            wait_for_port(port, proc=proc)
            yield {"url": f"http://127.0.0.1:{port}/", "proc": proc, "join": f"http://127.0.0.1:{port}/"}
        finally:
            proc.terminate()
            proc.wait(timeout=10)


@contextmanager
def companion_server(tmp: Path):
    from companion.log import Store
    from models.db import open_database

    db = tmp / "tap.sqlite"
    store = Store(open_database(f"sqlite:///{db}"))
    cid = store.create("counter", "Tap bench", {"cap": 1000}, seed=1)
    store.db.close()
    command = None
    if os.environ.get("BENCH_PROFILE"):  # the companion under a profiler (a script that runs companion.__main__)
        port = free_port()
        command = [sys.executable, os.environ["BENCH_PROFILE"], "--db", f"sqlite:///{db}", "serve", "--host", "127.0.0.1",
                   "--port", str(port), "--quiet", "--token", "test-token-0123456789"]
    with served(f"sqlite:///{db}", command=command, port=port if command else None) as server:
        yield {"url": f"{server['base']}c/{cid}", "proc": server["proc"], "join": server["join"]}


def open_phone(browser, server, frames: list):
    context = new_context(browser)
    page = context.new_page()
    page.on("websocket", lambda ws: ws.on("framereceived", lambda payload: frames.append(len(payload))))
    page.goto(server["join"])
    page.goto(server["url"])
    page.get_by_role("button", name="Value +1").wait_for()
    by_id(page, "counter-value").wait_for()
    settle(page)
    return context, page


def measure(browser, server, phones: int) -> dict:
    frames_tapper: list[int] = []
    frames_others: list[list[int]] = [[] for _ in range(phones)]
    context, page = open_phone(browser, server, frames_tapper)
    others = [open_phone(browser, server, frames_others[i]) for i in range(phones)]
    box = page.get_by_role("button", name="Value +1").bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    start = int(by_id(page, "counter-value").text_content().strip() or 0)
    taps, last_phone, bytes_sent = [], [], []
    cpu_before = cpu_seconds(server["proc"].pid)
    for i in range(1, TAPS + 1):
        expected = str(start + i)
        for _, other in others:
            other.evaluate(WATCH, expected)
        frames_tapper.clear()
        for f in frames_others:
            f.clear()
        t0 = time.time() * 1000
        page.evaluate(ARM_TAP, expected)
        page.mouse.click(x, y)
        page.wait_for_function("window.__dt !== null", timeout=30_000)
        taps.append(page.evaluate("window.__dt"))
        if others:
            for _, other in others:
                other.wait_for_function("window.__seen !== null", timeout=30_000)
            last_phone.append(max(other.evaluate("window.__seen") for _, other in others) - t0)
            page.wait_for_timeout(50)
            bytes_sent.append(statistics.mean(sum(f) for f in frames_others))
        else:
            page.wait_for_timeout(50)
            bytes_sent.append(sum(frames_tapper))
        print(f"  tap {i}: {taps[-1]:.0f} ms" + (f", last phone {last_phone[-1]:.0f} ms" if last_phone else ""),
              file=sys.stderr, flush=True)
    cpu = (cpu_seconds(server["proc"].pid) - cpu_before) / TAPS * 1000
    for c, _ in [(context, page), *others]:
        c.close()
    return {"tap_ms": statistics.median(taps), "last_phone_ms": statistics.median(last_phone) if last_phone else None,
            "cpu_ms_per_tap": cpu, "bytes_per_change": statistics.median(bytes_sent)}


def run() -> dict:
    from playwright.sync_api import sync_playwright

    results = {}
    with sync_playwright() as p, tempfile.TemporaryDirectory() as tmp:
        browser = launch(p)
        for name, make in (("bare Flet counter", lambda: bare_server()), ("companion counter", lambda: companion_server(Path(tmp)))):
            with make() as server:
                results[name] = {"alone": measure(browser, server, 0)}
            with make() as server:
                results[name][f"{OTHER_PHONES} other phones"] = measure(browser, server, OTHER_PHONES)
        browser.close()
    return results


def report(results: dict) -> str:
    lines = [f"tap → update, median of {TAPS} taps (ms); server CPU per tap (ms); bytes sent per change"]
    for name, runs in results.items():
        for label, r in runs.items():
            last = f", last phone {r['last_phone_ms']:.0f}" if r["last_phone_ms"] is not None else ""
            lines.append(f"  {name:18} {label:16} tap {r['tap_ms']:6.0f}{last}; CPU {r['cpu_ms_per_tap']:6.1f}; "
                         f"{r['bytes_per_change']:8.0f} B")
    bare, ours = results.get("bare Flet counter", {}).get("alone"), results.get("companion counter", {}).get("alone")
    if bare and ours:
        lines.append(f"  companion / bare, one phone: {ours['tap_ms'] / bare['tap_ms']:.1f}×")
    return "\n".join(lines)


if __name__ == "__main__":
    print(report(run()))
