"""Tap → update, side by side with a bare Flet counter served the same way, in one run (#16).

For the companion's counter and a typical repeatable tap in each game (SCENARIOS): a phone taps the
scenario's button TAPS times (a mouse click where the button is); measured in the page, from the
pointerdown to the new value in the screen's semantics tree (what the phone shows once Flutter has
drawn it). The counter runs a second time with other phones open on the same campaign: when the last
of them shows the change, and when the last of them was brought the update (its websocket's first
message: the server's share, before the browser draws it). For each tap, the server's CPU time and the bytes each phone is sent
(websocket frames), from the tap until no phone is sent anything more.

Two bare Flet apps are measured the same way: the counter (two controls), and the counter behind a
game-sized screen that each tap changes as a game's tap does (both in tests/perf/bare_app.py). The second says what a
screen like the games' costs in Flet and in the browser by itself; each game's tap is given as a
multiple of both.

    python -m tests.perf.tap_bench            # prints a table; run_all includes it
    BENCH_TAPS=5 BENCH_PHONES=1 BENCH_GAMES=klaw,shadowrun python -m tests.perf.tap_bench
"""

from __future__ import annotations

import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Optional

from tests.browser import ROOT, by_id, cpu_seconds, free_port, launch, new_context, served, settle, wait_for_port, wait_steady

TAPS = int(os.environ.get("BENCH_TAPS", "24"))
OTHER_PHONES = int(os.environ.get("BENCH_PHONES", "6"))
BARE = "bare Flet counter"
BARE_GAME_SCREEN = "bare Flet game screen"

# --- the scenarios ------------------------------------------------------------------------------------


def steps(*deltas: int) -> Callable[[str, int], str]:
    """The (first) number shown moves by these deltas, in turn, one per tap."""
    def after(start: str, i: int) -> str:
        moved = sum(deltas[k % len(deltas)] for k in range(i))
        return re.sub(r"-?\d+", lambda m: str(int(m.group()) + moved), start, count=1)
    return after


def undo_between(shows: str) -> Callable:
    """Take the previous tap back with the Undo button (untimed), so that the same tap is open again."""
    def before(page, i: int) -> None:
        if i > 1:
            tap_until_changed(page, page.get_by_role("button", name=re.compile("^Undo: ")), shows)
    return before


@dataclass
class Scenario:
    """A game's typical repeatable tap. The campaign is made through the Store (`settings`, then
    `actions` applied) so that the tap is open; `buttons` (accessible names) are tapped in turn;
    `shows` is the flt-semantics-identifier of the value each tap changes and `expected(start, i)`
    what it shows after tap i; `before(page, i)` runs untimed before each tap."""

    game: str
    settings: dict
    actions: list
    buttons: tuple
    shows: str
    expected: Callable[[str, int], str]
    before: Optional[Callable] = None

    @property
    def name(self) -> str:
        return "companion counter" if self.game == "counter" else self.game

    def button(self, page, i: int):
        """The button of tap i. An icon button's name is its label twice (label and tooltip): a name
        matches from the start, up to a blank or the end ("Threat +1" is not "Undo: threat +1")."""
        name = self.buttons[(i - 1) % len(self.buttons)]
        pattern = re.compile(rf"^{re.escape(name)}(\s|$)") if isinstance(name, str) else name
        return page.get_by_role("button", name=pattern)


HUMAN_ETHOS_MAP = json.loads((ROOT / "assets" / "human_ethos_sample_map.json").read_text())
# Shadowrun to Legwork: one objective per range, then turn 1's phases (no Luck of the Draw rolls; seed
# 1's payment-due roll says due, so the interest is paid).
SHADOWRUN_LEGWORK = [
    *({"kind": "add_objective", "name": n, "rep": r} for n, r in (("Job", 5), ("Heist", 15), ("Hit", 25))),
    *({"kind": k} for k in ("advance", "refresh_challenges", "advance", "advance", "get_paid", "advance", "advance",
                            "payroll", "advance", "charge_interest", "advance", "roll_payment_due", "pay_interest",
                            "advance")),
]

SCENARIOS = [  # bounded numbers go −1/+1 in turn, so that any BENCH_TAPS fits
    # The counter mid-campaign, 120 actions in: a table's screen lists its history, and what that
    # costs each phone with each change is part of a tap (an empty log hid it).
    Scenario("counter", {"cap": 1000}, [{"kind": "add", "amount": 1}] * 120, ("Value +1",), "counter-value", steps(1)),
    Scenario("klaw", {"players": ["Ana", "Bo"]},
             [{"kind": "deploy", "card": {"name": "Wolfmother", "attack": 3, "defense": 2, "life": 12}}],
             ("Wolfmother life -1", "Wolfmother life +1"), "klaw-life-1", steps(-1, 1)),
    Scenario("human_ethos", {}, [{"kind": "start_issue", "map": HUMAN_ETHOS_MAP, "track": 12, "members": ["Max"]}],
             ("Cards played: run the enemy phase",), "turn", steps(1)),  # no enemies: the next turn
    Scenario("biosphere5", {}, [], ("Your hand cards +1", "Your hand cards -1"), "human-hand", steps(1, -1)),
    Scenario("shadowrun", {"luck_of_the_draw": False}, SHADOWRUN_LEGWORK, ("Sell (+1 each)",), "sr-cash", steps(1)),
    # No tap repeats as is in Save the Singularity: its most typical one, each time after an untimed undo.
    Scenario("save_the_singularity", {}, [{"kind": "roll"}], (re.compile(r"^Press on with \d+ dice$"),), "sts-move",
             lambda start, i: str(int(start) + 1), before=undo_between("sts-move")),
]


def chosen() -> list[Scenario]:
    """The scenarios BENCH_GAMES names (game keys, comma-separated), or all."""
    wanted = [g.strip() for g in os.environ.get("BENCH_GAMES", "").split(",") if g.strip()]
    known = {s.game: s for s in SCENARIOS}
    unknown = [g for g in wanted if g not in known]
    if unknown:
        raise SystemExit(f"BENCH_GAMES: unknown {', '.join(unknown)} (known: {', '.join(known)})")
    return [known[g] for g in wanted] if wanted else SCENARIOS


# --- in the page ------------------------------------------------------------------------------------

SHOWN = """const shown = () => {
    const node = document.querySelector(`[flt-semantics-identifier="${id}"]`);
    return node !== null && node.textContent.trim() === expected;
  };"""
# Armed before each tap: the finger's pointerdown starts the clock, and the value's node showing the
# expected text stops it (what the phone shows once Flutter has drawn it).
ARM_TAP = """([id, expected]) => { if (window.__obs) window.__obs.disconnect();
  window.__t0 = null; window.__dt = null; window.__out = null; window.__in = null;
  addEventListener('pointerdown', () => { window.__t0 = performance.now(); }, {capture: true, once: true});
  """ + SHOWN + """
  const obs = window.__obs = new MutationObserver(() => {
    if (window.__t0 !== null && shown()) { obs.disconnect(); window.__dt = performance.now() - window.__t0; }
  });
  obs.observe(document.body, {subtree: true, childList: true, characterData: true, attributes: true});
}"""
WATCH = """([id, expected]) => { window.__seen = null; window.__heard = null;
  """ + SHOWN + """
  const obs = new MutationObserver(() => { if (shown()) { obs.disconnect(); window.__seen = Date.now(); } });
  obs.observe(document.body, {subtree: true, childList: true, characterData: true, attributes: true});
}"""


# Each phone notes when its websocket brings a message (the server sent a change), apart from when
# the change shows: on this one machine the phones' browsers share its CPUs with the server, which a
# table's phones don't, so both are reported.
# The tapping phone also notes when, after the finger went down, its tap left for the server and
# the server's answer came back (performance.now()).
HEARD = """(() => { const Socket = window.WebSocket; window.__heard = null;
  const send = Socket.prototype.send;
  Socket.prototype.send = function (data) {
    if (window.__t0 != null && window.__out == null) window.__out = performance.now() - window.__t0;
    return send.call(this, data); };
  const Heard = function (...args) { const ws = new Socket(...args);
    ws.addEventListener('message', () => {
      if (window.__heard === null) window.__heard = Date.now();
      if (window.__out != null && window.__in == null) window.__in = performance.now() - window.__t0; });
    return ws; };
  Heard.prototype = Socket.prototype;
  for (const k of ['CONNECTING', 'OPEN', 'CLOSING', 'CLOSED']) Heard[k] = Socket[k];
  window.WebSocket = Heard; })()"""


def shown(page, identifier: str) -> str:
    return (by_id(page, identifier).text_content() or "").strip()


def aim(page, locator) -> tuple[float, float]:
    """Where a finger taps the control: scrolled on screen with the wheel (clear of the title and
    bottom bars; off-screen controls may be missing from the semantics tree), held still."""
    height, last = page.viewport_size["height"], None
    for n in range(40):
        box = wait_steady(page, locator) if locator.count() else None
        if box is not None:
            y = box["y"] + box["height"] / 2
            if 100 <= y <= height - 200 or box == last:  # on screen, or as far as the view scrolls
                return box["x"] + box["width"] / 2, y
        down = n < 15 if box is None else y > height - 200
        last = box
        page.mouse.move(page.viewport_size["width"] / 2, height / 2)
        page.mouse.wheel(0, 250 if down else -250)
        page.wait_for_timeout(150)
    raise RuntimeError(f"{locator} never came on screen")


def tap_until_changed(page, locator, identifier: str) -> None:
    """Tap a control that is always on screen (the bottom bar's), untimed, and wait until the value
    changes; a tap Flutter dropped is tapped again."""
    from playwright.sync_api import expect

    before = shown(page, identifier)
    for attempt in range(3):
        box = wait_steady(page, locator)
        page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        try:
            expect(by_id(page, identifier)).not_to_have_text(before, timeout=10_000)
            return
        except AssertionError:
            if attempt == 2 or shown(page, identifier) != before:
                raise


def timed_tap(page, x: float, y: float, identifier: str, expected: str, before: str) -> tuple[float, int, tuple]:
    """(ms from the pointerdown to the expected value, taps Flutter dropped and that were tapped again,
    (ms to the tap leaving for the server, ms to its answer arriving))."""
    from playwright.sync_api import TimeoutError as Timeout

    for dropped in range(3):
        page.evaluate(ARM_TAP, [identifier, expected])
        page.mouse.click(x, y)
        try:
            page.wait_for_function("window.__dt !== null", timeout=10_000)
            return page.evaluate("window.__dt"), dropped, tuple(page.evaluate("[window.__out, window.__in]"))
        except Timeout:
            now = shown(page, identifier)
            if now != before:
                raise RuntimeError(f"{identifier} shows {now!r} after the tap, not {expected!r}") from None
    raise RuntimeError(f"three taps at ({x:.0f}, {y:.0f}) left {identifier} at {before!r}")


def quiet(page, frames: list[list[int]], ms: int = 150, limit: float = 3.0) -> None:
    """Wait until no phone has been sent a frame for `ms`: the server is done with the change."""
    deadline, seen = time.monotonic() + limit, -1
    while time.monotonic() < deadline and sum(map(len, frames)) != seen:
        seen = sum(map(len, frames))
        page.wait_for_timeout(ms)


# --- the servers and the phones -----------------------------------------------------------------------


@contextmanager
def bare_server(app: str = "counter"):
    """One of tests.perf.bare_app's apps ("counter" or "game_screen"), served as the companion is."""
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "tests.perf.bare_app", str(port), app], cwd=ROOT,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_for_port(port, proc=proc)
        yield {"url": f"http://127.0.0.1:{port}/", "proc": proc, "join": f"http://127.0.0.1:{port}/"}
    finally:
        proc.terminate()
        proc.wait(timeout=10)


@contextmanager
def companion_server(tmp: Path, scenario: Scenario):
    from companion.log import Store
    from models.db import open_database

    db = Path(tempfile.mkdtemp(dir=tmp)) / "tap.sqlite"
    store = Store(open_database(f"sqlite:///{db}"))
    cid = store.create(scenario.game, "Tap bench", scenario.settings, seed=1)
    for cursor, action in enumerate(scenario.actions):
        store.apply(cid, action, expected_cursor=cursor)
    store.db.close()
    command = None
    if os.environ.get("BENCH_PROFILE"):  # the companion under a profiler (a script that runs companion.__main__)
        port = free_port()
        command = [sys.executable, os.environ["BENCH_PROFILE"], "--db", f"sqlite:///{db}", "serve", "--host", "127.0.0.1",
                   "--port", str(port), "--quiet", "--token", "test-token-0123456789"]
    with served(f"sqlite:///{db}", command=command, port=port if command else None) as server:
        yield {"url": f"{server['base']}c/{cid}", "proc": server["proc"], "join": server["join"]}


def open_phone(browser, server, scenario: Scenario, frames: list):
    context = new_context(browser)
    context.add_init_script(HEARD)
    page = context.new_page()
    page.on("websocket", lambda ws: ws.on("framereceived", lambda payload: frames.append(len(payload))))
    page.goto(server["join"])
    page.goto(server["url"])
    page.get_by_role("button").first.wait_for()
    settle(page)
    aim(page, scenario.button(page, 1))
    by_id(page, scenario.shows).wait_for()
    return context, page


def measure(browser, server, scenario: Scenario, phones: int, name: str) -> dict:
    """TAPS taps of the scenario on one phone, `phones` others following the campaign."""
    frames: list[list[int]] = [[] for _ in range(phones + 1)]  # [0]: the tapping phone's
    (context, page), *others = [open_phone(browser, server, scenario, f) for f in frames]
    pid = server["proc"].pid
    start = None
    taps, last_phone, last_heard, bytes_sent, cpu, dropped, legs = [], [], [], [], 0.0, 0, []
    for i in range(1, TAPS + 1):
        if scenario.before:
            scenario.before(page, i)
        x, y = aim(page, scenario.button(page, i))
        before = shown(page, scenario.shows)
        start = before if start is None else start
        expected = scenario.expected(start, i)
        if expected == before:
            raise RuntimeError(f"{name}: tap {i} would not change {scenario.shows} ({before!r})")
        for _, other in others:
            other.evaluate(WATCH, [scenario.shows, expected])
        quiet(page, frames)
        for f in frames:
            f.clear()
        cpu_before, t0 = cpu_seconds(pid), time.time() * 1000
        ms, again, leg = timed_tap(page, x, y, scenario.shows, expected, before)
        taps.append(ms)
        legs.append(leg)
        dropped += again
        if others:
            for _, other in others:
                other.wait_for_function("window.__seen !== null", timeout=30_000)
            last_phone.append(max(other.evaluate("window.__seen") for _, other in others) - t0)
            last_heard.append(max(other.evaluate("window.__heard") for _, other in others) - t0)
        quiet(page, frames)
        cpu += cpu_seconds(pid) - cpu_before
        bytes_sent.append(statistics.mean(sum(f) for f in frames[1:]) if others else sum(frames[0]))
        print(f"  {name} tap {i}: {taps[-1]:.0f} ms" + (f", last phone {last_phone[-1]:.0f} ms" if last_phone else "")
              + (f" ({again} dropped)" if again else ""), file=sys.stderr, flush=True)
    for c, _ in [(context, page), *others]:
        c.close()
    return {"tap_ms": statistics.median(taps), "last_phone_ms": statistics.median(last_phone) if last_phone else None,
            "last_heard_ms": statistics.median(last_heard) if last_heard else None,
            "cpu_ms_per_tap": cpu / TAPS * 1000, "bytes_per_change": statistics.median(bytes_sent), "dropped": dropped,
            "out_ms": median_of(leg[0] for leg in legs), "in_ms": median_of(leg[1] for leg in legs)}


def median_of(values) -> Optional[float]:
    known = [v for v in values if v is not None]
    return statistics.median(known) if known else None


def run() -> dict:
    from playwright.sync_api import sync_playwright

    scenarios = chosen()
    counter = SCENARIOS[0]
    results = {}
    with sync_playwright() as p, tempfile.TemporaryDirectory() as tmp:
        browser = launch(p)
        runs = [(BARE, bare_server, counter), (BARE_GAME_SCREEN, lambda: bare_server("game_screen"), counter)]
        runs += [(s.name, lambda s=s: companion_server(Path(tmp), s), s) for s in scenarios]
        for name, make, scenario in runs:
            with make() as server:
                results[name] = {"alone": measure(browser, server, scenario, 0, name)}
            if scenario is counter and counter in scenarios:  # the counters also with other phones following
                with make() as server:
                    results[name][f"{OTHER_PHONES} other phones"] = measure(browser, server, counter, OTHER_PHONES, name)
        browser.close()
    return results


def report(results: dict) -> str:
    lines = [f"tap → update, median of {TAPS} taps (ms); server CPU per tap (ms); bytes sent per change; "
             "tap time ÷ the bare counter's (and ÷ the bare game screen's)"]
    bare = results.get(BARE, {})
    screen = results.get(BARE_GAME_SCREEN, {})
    for name, runs in results.items():
        for label, r in runs.items():
            last = (f", last phone {r['last_phone_ms']:.0f} (update arrived {r['last_heard_ms']:.0f})"
                    if r["last_phone_ms"] is not None else "")
            ratio = f"; {r['tap_ms'] / bare[label]['tap_ms']:4.1f}×" if name != BARE and label in bare else ""
            if label in screen and name not in (BARE, BARE_GAME_SCREEN):
                ratio += f" ({r['tap_ms'] / screen[label]['tap_ms']:.1f}×)"
            dropped = f"  ({r['dropped']} dropped tap(s) tapped again)" if r["dropped"] else ""
            if r.get("in_ms") is not None:  # the tap's way: left the phone, answer back, shown
                last += f" (out {r['out_ms']:.0f}, back {r['in_ms']:.0f})"
            lines.append(f"  {name:21} {label:16} tap {r['tap_ms']:6.0f}{last}; CPU {r['cpu_ms_per_tap']:6.1f}; "
                         f"{r['bytes_per_change']:8.0f} B{ratio}{dropped}")
    lines.append("tapped (in turn) → the value it changes:")
    lines += [f"  {s.name:20} {' / '.join(getattr(b, 'pattern', b) for b in s.buttons)} → {s.shows}"
              for s in SCENARIOS if s.name in results]
    return "\n".join(lines)


if __name__ == "__main__":
    print(report(run()))
