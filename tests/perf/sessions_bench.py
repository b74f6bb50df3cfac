"""100 phones come and go (#28): the server's CPU per action and its memory, fresh and afterwards.

`companion serve` runs as it does at a table (FLET_SESSION_TIMEOUT shortened, so that the bench
needn't wait two minutes for the phones' sessions to be let go). One phone (tests/phone_socket.py,
Flet's protocol over a websocket) stays on a counter campaign and taps "Value +1"; the server's CPU
time per tap (from /proc, from the tap until the phone has been sent everything) and its resident
memory are measured fresh, then again after 100 phones opened the campaign and left — half closing
their tab, half vanishing — in rounds of 10 around a tap, so that many leave while the server sends.

    python -m tests.perf.sessions_bench        # run_all includes it
"""

from __future__ import annotations

import asyncio
import os
import tempfile
import time
from pathlib import Path

from tests.browser import cpu_seconds, served
from tests.phone_socket import SocketPhone

TOKEN = "bench-token-0123456789"
TAPS = int(os.environ.get("BENCH_TAPS", "24"))  # (cap 1000: value 120 + 2 × (TAPS + 1) + 10 stays under it)
PHONES = 100
AT_ONCE = 10
SESSION_TIMEOUT = 3  # seconds (the app's own: flet_fixes.PHONE_SESSION_TIMEOUT)
PLUS = "Value +1"


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


async def cpu_per_tap(phone: SocketPhone, pid: int) -> float:
    await phone.tap_answered(PLUS)  # (one untimed)
    total = 0.0
    for _ in range(TAPS):
        before = cpu_seconds(pid)
        await phone.tap_answered(PLUS)
        total += cpu_seconds(pid) - before
    return total / TAPS * 1000


async def churn(port: int, cid: int, actor: SocketPhone) -> None:
    for _ in range(PHONES // AT_ONCE):
        phones = [await SocketPhone(port, TOKEN).open(f"/c/{cid}") for _ in range(AT_ONCE)]
        await asyncio.gather(*(p.drawn() for p in phones))
        await actor.tap(PLUS)
        await asyncio.sleep(0.01)  # the change is being sent to them as they go
        await asyncio.gather(*(p.vanish() if i % 2 else p.close() for i, p in enumerate(phones)))


def run() -> dict:
    from companion.log import Store
    from models.db import open_database

    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "sessions.sqlite"
        store = Store(open_database(f"sqlite:///{db}"))
        cid = store.create("counter", "Sessions bench", {"cap": 1000}, seed=1)
        from companion.games.counter.rules import Add

        for cursor in range(120):  # mid-campaign: the screen lists its history
            store.apply(cid, Add(amount=1), expected_cursor=cursor)
        store.db.close()
        with served(f"sqlite:///{db}", token=TOKEN, extra_env={"FLET_SESSION_TIMEOUT": str(SESSION_TIMEOUT)}) as server:
            pid, port = server["proc"].pid, server["port"]

            async def bench() -> dict:
                actor = await SocketPhone(port, TOKEN).open(f"/c/{cid}")
                await actor.drawn()
                fresh_cpu = await cpu_per_tap(actor, pid)
                fresh_rss = rss_mb(pid)
                started = time.monotonic()
                await churn(port, cid, actor)
                churned = time.monotonic() - started
                await asyncio.sleep(SESSION_TIMEOUT + 2)  # their sessions' time is up (let go within 0.1 s of it)
                after_cpu = await cpu_per_tap(actor, pid)
                after_rss = rss_mb(pid)
                # 100 more: memory that grows again would be a leak; memory that stays is the
                # allocator keeping what the first 100 used, for the next ones.
                await churn(port, cid, actor)
                await asyncio.sleep(SESSION_TIMEOUT + 2)
                again_cpu = await cpu_per_tap(actor, pid)
                again_rss = rss_mb(pid)
                await actor.close()
                return {"fresh_cpu_ms": fresh_cpu, "after_cpu_ms": after_cpu, "fresh_rss_mb": fresh_rss,
                        "after_rss_mb": after_rss, "churn_s": churned, "again_cpu_ms": again_cpu,
                        "again_rss_mb": again_rss}

            return asyncio.run(bench())


def report(r: dict) -> str:
    return (f"{PHONES} phones come and go (half vanish, many mid-send; {r['churn_s']:.0f} s), server CPU per tap "
            f"and memory, one phone following: fresh {r['fresh_cpu_ms']:.1f} ms, {r['fresh_rss_mb']:.0f} MB · after "
            f"{r['after_cpu_ms']:.1f} ms, {r['after_rss_mb']:.0f} MB (Δ {r['after_cpu_ms'] - r['fresh_cpu_ms']:+.1f} ms, "
            f"{r['after_rss_mb'] - r['fresh_rss_mb']:+.1f} MB) · after {2 * PHONES}: {r['again_cpu_ms']:.1f} ms, "
            f"{r['again_rss_mb']:.0f} MB ({r['again_rss_mb'] - r['after_rss_mb']:+.1f} MB more)")


if __name__ == "__main__":
    print(report(run()))
