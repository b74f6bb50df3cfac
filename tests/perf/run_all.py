"""`make bench`: the figures the foundation promises, measured in one run on this machine.

- process start → server ready (s), for the companion and for a bare Flet app
- apply+commit latency, median and p99 (ms), on a campaign with 10,000 logged actions
- campaign load (ms) with 10,000 actions
- time to first frame of the home screen in headless Chromium vs a bare Flet app (ratio)
- tap → update, the last of several phones, server CPU and bytes per change vs a bare Flet counter
- server CPU per action and memory, fresh and after 100 phones came and went (sessions_bench)
- a phone's first and later open on table Wi-Fi, before and after the compressed, cached client (open_bench)
- on a phone alone (`make web`): bytes on first open, page open → usable home (first and later opens),
  tap → update, beside a bare Flet counter built the same way (tests/perf/phone_bench.py)
- another phone's tap → applied, usual and while a 50,000-action import is checked and saved; the
  import's peak memory (long_work_bench)
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tests.browser import ROOT, PHONE, free_port, launch, new_context, served, wait_for_port

LOG_SIZE = 10_000


def pct(values, q):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q / 100 * (len(ordered) - 1))))]


def build_long_campaign(store, size: int) -> int:
    """A campaign with `size` logged actions, made through the pure rules and written in bulk."""
    from companion.dice import SeededDice
    from companion.games import get_game
    from companion.games.counter.rules import Add, Roll
    from companion.i18n import stored_text
    from companion.log import SNAPSHOT_EVERY, dump_action, keep_newest, pack_state, step
    from companion.table import CampaignState
    from models.tables import ActionRow, Campaign

    game = get_game("counter")
    cid = store.create("counter", "Long campaign", {"cap": 1000}, seed=99)
    state = store.load(cid).state
    with store.db.session() as s:
        for seq in range(1, size + 1):
            action = Roll() if seq % 5 == 0 else Add(amount=1 if state.game["value"] < 900 else -1)
            dice = SeededDice(99, seq)
            done = step(game, state, action, dice)
            state = done.state
            # Stored as the Store keeps a log: a snapshot every SNAPSHOT_EVERY rows, the newest state apart.
            s.add(ActionRow(campaign_id=cid, seq=seq, action=dump_action(game, action),
                            dice=[d.to_json() for d in done.dice],
                            events=[e.model_dump(mode="json") for e in done.events],
                            snapshot=pack_state(state) if seq % SNAPSHOT_EVERY == 0 else None,
                            label=stored_text(game.describe(action))))  # a Msg kept as JSON, as the Store does
        keep_newest(s.connection(), cid, size, state)
        campaign = s.get(Campaign, cid)
        campaign.cursor = campaign.head = size
        s.add(campaign)
    return cid


def bench_store(tmp: Path) -> dict:
    from companion.games.counter.rules import Add
    from companion.log import Store
    from models.db import open_database

    store = Store(open_database(f"sqlite:///{tmp / 'bench.sqlite'}"))
    cid = build_long_campaign(store, LOG_SIZE)
    loads = []
    for _ in range(50):
        t = time.perf_counter()
        store.load(cid)
        loads.append((time.perf_counter() - t) * 1000)
    applies = []
    cursor = store.load(cid).cursor
    for i in range(300):
        value = store.load(cid).game_state.value
        t = time.perf_counter()
        cursor = store.apply(cid, Add(amount=1 if value < 900 else -1), expected_cursor=cursor).cursor
        applies.append((time.perf_counter() - t) * 1000)
    undo = []
    for _ in range(50):
        t = time.perf_counter()
        cursor = store.undo(cid, expected_cursor=cursor).cursor
        undo.append((time.perf_counter() - t) * 1000)
    store.db.close()
    return {"apply_median_ms": statistics.median(applies), "apply_p99_ms": pct(applies, 99),
            "load_median_ms": statistics.median(loads), "load_p99_ms": pct(loads, 99),
            "undo_median_ms": statistics.median(undo)}


def time_ready(cmd: list[str], port: int) -> float:
    t = time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_for_port(port, proc=proc)
        return time.perf_counter() - t
    finally:
        proc.terminate()
        proc.wait()


def first_frame(browser, url: str, text: str, *, token: str | None = None, runs: int = 5) -> tuple[float, float]:
    """Cold (fresh context each run) first frame: navigation start → `text` in the semantics tree."""
    from companion.share import COOKIE

    times = []
    for _ in range(runs):
        context = new_context(browser, viewport=PHONE)
        if token:  # a phone that joined before: it has the cookie, opens the app directly
            context.add_cookies([{"name": COOKIE, "value": token, "url": url}])
        page = context.new_page()
        t = time.perf_counter()
        page.goto(url)
        page.get_by_text(text).first.wait_for(timeout=30_000)
        times.append(time.perf_counter() - t)
        context.close()
    return statistics.median(times), min(times)


def main() -> None:
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        store = bench_store(tmp)

        port = free_port()
        ready_app = statistics.median(time_ready(
            [sys.executable, "-m", "companion", "--db", f"sqlite:///{tmp / 'ready.sqlite'}", "serve", "--host",
             "127.0.0.1", "--port", str(port), "--quiet", "--token", "bench-token-0123456789"], port) for _ in range(3))
        port = free_port()
        ready_bare = statistics.median(time_ready([sys.executable, "-m", "tests.perf.bare_app", str(port)], port)
                                       for _ in range(3))

        bare_port = free_port()
        bare = subprocess.Popen([sys.executable, "-m", "tests.perf.bare_app", str(bare_port)], cwd=ROOT,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            wait_for_port(bare_port, proc=bare)
            with served(f"sqlite:///{tmp / 'ui.sqlite'}", token="bench-token-0123456789") as app, sync_playwright() as p:
                browser = launch(p)
                bare_url = f"http://127.0.0.1:{bare_port}/"
                first_frame(browser, bare_url, "Hello, table", runs=1)  # warm the server side once
                first_frame(browser, app["base"], "Table Companion", token="bench-token-0123456789", runs=1)
                bare_ff = first_frame(browser, bare_url, "Hello, table")
                app_ff = first_frame(browser, app["base"], "Table Companion", token="bench-token-0123456789")
                join_ff = first_frame(browser, app["join"], "Table Companion")
                browser.close()
        finally:
            bare.terminate()
            bare.wait()

    print("\n=== Table Companion benchmarks ===")
    print(f"process start → server ready: companion {ready_app:.2f} s · bare Flet {ready_bare:.2f} s")
    print(f"apply+commit on a {LOG_SIZE:,}-action campaign: median {store['apply_median_ms']:.2f} ms · "
          f"p99 {store['apply_p99_ms']:.2f} ms   (target median < 5 ms)")
    print(f"undo on the same campaign: median {store['undo_median_ms']:.2f} ms")
    print(f"campaign load with {LOG_SIZE:,} actions: median {store['load_median_ms']:.2f} ms · "
          f"p99 {store['load_p99_ms']:.2f} ms   (target < 100 ms)")
    print(f"first frame, phone 412×915, headless Chromium (median of 5, best):")
    print(f"  bare Flet hello-world: {bare_ff[0] * 1000:.0f} ms (best {bare_ff[1] * 1000:.0f})")
    print(f"  companion home:        {app_ff[0] * 1000:.0f} ms (best {app_ff[1] * 1000:.0f})"
          f"   ratio {app_ff[0] / bare_ff[0]:.2f}×   (target ≤ 1.3×)")
    print(f"  companion via the QR join link (one redirect more): {join_ff[0] * 1000:.0f} ms"
          f"   ratio {join_ff[0] / bare_ff[0]:.2f}×")
    print(f"saves of each game, random legal play ({os.environ.get('BENCH_ACTIONS', '10000')} actions each):")
    from tests.perf import storage_bench

    for line in storage_bench.main():
        print(f"  {line}")
    print("automated decisions (median):")
    from tests.perf import rules_bench

    for line in rules_bench.main():
        print(f"  {line}")
    from tests.perf import sessions_bench

    print(sessions_bench.report(sessions_bench.run()))
    from tests.perf import tap_bench

    print(tap_bench.report(tap_bench.run()))
    from tests.perf import open_bench

    print(open_bench.report(open_bench.run()))
    from tests.perf import phone_bench  # the static build on a phone alone, beside a bare counter built the same way

    print(phone_bench.report(phone_bench.run()))
    from tests.perf import long_work_bench

    print(long_work_bench.report(long_work_bench.run()))


if __name__ == "__main__":
    main()
