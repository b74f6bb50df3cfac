"""No session outlives its phone (#28): 100 phones come and go — half close their tab, half vanish
(the connection cut), many of them while the server is sending them another phone's change — and
the server lets every one of them go: Flet's sessions, our TableSessions, their campaign and hub
listeners all back to what they were. A phone that comes back within the timeout resumes.

The served app runs in this process (uvicorn in a thread, as `companion serve` builds it), so its
counts can be read directly; the phones are tests/phone_socket.py's (Flet's protocol over a
websocket). The CPU and memory figures are tests/perf/sessions_bench.py's.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import threading
import time

import pytest
import uvicorn

from companion import flet_fixes
from companion.app import TableSession
from tests.browser import free_port, wait_for_port
from tests.phone_socket import SocketPhone

TOKEN = "test-token-0123456789"
PHONES = 100
AT_ONCE = 10  # phones open together in each round
TIMEOUT = 1  # seconds a session waits for its phone here (the app's is flet_fixes.PHONE_SESSION_TIMEOUT)
PLUS = "Value +1"


@pytest.fixture
def table(tmp_path, monkeypatch):
    from companion.__main__ import build_web_app
    from companion.context import AppContext

    monkeypatch.setenv("COMPANION_TEST_GAMES", "1")
    monkeypatch.delenv("FLET_SESSION_TIMEOUT", raising=False)
    monkeypatch.setattr(flet_fixes, "PHONE_SESSION_TIMEOUT", TIMEOUT)
    # Flet keeps its sessions process-wide: those of earlier tests' servers (stopped, each waiting
    # out its timeout) are not this table's phones.
    flet_fixes.app_manager._FletAppManager__sessions.clear()
    ctx = AppContext.open(f"sqlite:///{tmp_path / 'sessions.sqlite'}", start_backup=False)
    cid = ctx.store.create("counter", "Sessions", {"cap": 1000}, seed=1)
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(build_web_app(ctx, TOKEN), host="127.0.0.1", port=port,
                                           log_level="warning", ws="websockets-sansio", **flet_fixes.HEARTBEAT))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    wait_for_port(port)
    try:
        yield {"ctx": ctx, "cid": cid, "port": port}
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        ctx.close()


def counts(ctx, cid: int) -> dict:
    """What the server holds for its phones."""
    gc.collect()
    live = ctx.live.get(cid)
    return {"flet sessions": flet_fixes.phone_sessions(), "table sessions": len(TableSession.alive),
            "campaign followers": live.followers if live else 0, "hub listeners": len(ctx.hub._all)}


async def settle_to(ctx, cid: int, expected: dict, limit: float = 30.0) -> dict:
    """Wait until the server's counts are `expected` (the sessions' timeout and their closing)."""
    deadline = time.monotonic() + limit
    while (now := counts(ctx, cid)) != expected and time.monotonic() < deadline:
        await asyncio.sleep(0.2)
    return now


async def changed(ctx, cid: int, cursor: int) -> None:
    """Wait until the campaign's log is at `cursor` (a tap was applied)."""
    deadline = time.monotonic() + 20
    while ctx.store.load(cid).cursor < cursor:
        assert time.monotonic() < deadline, "the tap was never applied"
        await asyncio.sleep(0.02)


def test_a_hundred_phones_come_and_go_and_the_server_lets_every_one_go(table, caplog):
    ctx, cid, port = table["ctx"], table["cid"], table["port"]
    caplog.set_level(logging.INFO, logger=flet_fixes.__name__)

    async def play() -> tuple[dict, dict, int]:
        actor = await SocketPhone(port, TOKEN).open(f"/c/{cid}")  # the phone that stays and taps
        await actor.drawn()
        baseline = await settle_to(ctx, cid, counts(ctx, cid))
        cursor = 0
        for round_ in range(PHONES // AT_ONCE):
            phones = [await SocketPhone(port, TOKEN).open(f"/c/{cid}") for _ in range(AT_ONCE)]
            await asyncio.gather(*(p.drawn() for p in phones))
            # Another phone acts; while the server sends the change to every phone, they leave:
            # odd ones vanish (the connection cut), even ones close their tab.
            await actor.tap(PLUS)
            cursor += 1
            await changed(ctx, cid, cursor)
            await asyncio.gather(*(p.vanish() if i % 2 else p.close() for i, p in enumerate(phones)))
        after = await settle_to(ctx, cid, baseline)
        # The phone that stayed still plays, and is still sent each change.
        frames = actor.frames
        await actor.tap(PLUS)
        await changed(ctx, cid, cursor + 1)
        deadline = time.monotonic() + 10
        while actor.frames == frames and time.monotonic() < deadline:
            await asyncio.sleep(0.02)
        sent_after = actor.frames - frames
        await actor.close()
        return baseline, after, sent_after

    baseline, after, sent_after = asyncio.run(play())
    assert after == baseline
    assert baseline["flet sessions"] == 1 and baseline["campaign followers"] == 1
    assert sent_after > 0
    # The churn did hit the case of #28: phones gone while the server was sending them a change.
    gone_mid_send = [r for r in caplog.records if "went away while the table was sending" in r.getMessage()]
    assert gone_mid_send


def test_a_phone_back_within_the_timeout_resumes_its_session(table, monkeypatch):
    ctx, cid, port = table["ctx"], table["cid"], table["port"]
    monkeypatch.setattr(flet_fixes, "PHONE_SESSION_TIMEOUT", 30)  # (read by each new connection)

    async def play() -> tuple[str, str, int, int]:
        phone = await SocketPhone(port, TOKEN).open(f"/c/{cid}")
        await phone.drawn()
        first = phone.session_id
        sessions = len(TableSession.alive)
        await phone.vanish()  # the phone locks: its Wi-Fi drops
        deadline = time.monotonic() + 10
        while (live := ctx.live.get(cid)) is not None and live.followers and time.monotonic() < deadline:
            await asyncio.sleep(0.05)  # asleep: it stops following the campaign
        back = await SocketPhone(port, TOKEN).open(f"/c/{cid}", session_id=first)
        deadline = time.monotonic() + 10
        while back.session_id is None and time.monotonic() < deadline:
            await asyncio.sleep(0.02)
        while (ctx.live.get(cid) is None or not ctx.live.get(cid).followers) and time.monotonic() < deadline:
            await asyncio.sleep(0.05)  # awake again: it follows the campaign again
        followers = ctx.live.get(cid).followers if ctx.live.get(cid) else 0
        await back.close()
        return first, back.session_id, sessions, followers

    first, again, sessions_before, followers = asyncio.run(play())
    assert again == first
    assert len(TableSession.alive) <= sessions_before  # the same TableSession, not a second one
    assert followers == 1
