"""The phone-alone pieces that run without a browser: backups without threads, the screen held until the
save is synced, and which locked packages the static build ships (tests/e2e/test_phone_alone.py runs
the real build in Chromium)."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from companion.context import AppContext
from companion.games.counter.rules import Add
from companion.web.build import ROOT, SERVER_ONLY, browser_packages, pyodide_info, client_dir
from companion.web.phone import gate_screen
from models.backup import list_backups


def test_backups_every_n_actions_start_no_thread(tmp_path, monkeypatch):
    def no_threads(*a, **kw):
        raise RuntimeError("can't start new thread")  # as in a browser's Python
    monkeypatch.setattr(threading.Thread, "start", no_threads)
    ctx = AppContext.open(f"sqlite:///{tmp_path / 'phone.sqlite'}", backup_every_actions=3)
    assert [b.reason for b in list_backups(ctx.backup_dir)] == ["start"]
    cid = ctx.store.create("counter", "Taps", {"cap": 100}, seed=1)
    cursor = 0
    for _ in range(7):
        cursor = ctx.store.apply(cid, Add(amount=1), expected_cursor=cursor).cursor
    reasons = sorted(b.reason for b in list_backups(ctx.backup_dir))
    assert reasons == ["auto", "auto", "start"]  # after the 3rd and the 6th action
    ctx.close()


def test_an_export_and_an_import_run_with_no_threads(tmp_path, monkeypatch):
    """Long work (companion.jobs) runs on the loop where no thread can start, as in a browser's Python:
    an export and the import of its file finish, their progress reported, nothing left waiting."""
    import asyncio

    from companion import exchange
    from companion.jobs import Job

    def no_threads(*a, **kw):
        raise RuntimeError("can't start new thread")
    monkeypatch.setattr(threading.Thread, "start", no_threads)
    ctx = AppContext.open(f"sqlite:///{tmp_path / 'phone.sqlite'}", start_backup=False)
    cid = ctx.store.create("counter", "Taps", {"cap": 100}, seed=1)
    for cursor in range(3):
        ctx.store.apply(cid, Add(amount=1), expected_cursor=cursor)

    async def run(work):
        loop = asyncio.get_running_loop()
        finished: asyncio.Future = loop.create_future()
        reports: list = []
        job = Job(work, on_progress=lambda words, done, total: reports.append((done, total)),
                  on_done=finished.set_result, on_failed=finished.set_exception)
        job.start()
        assert job.thread is None and not finished.done()  # not yet: after the handler that started it
        return await asyncio.wait_for(finished, 10), reports

    exported, _ = asyncio.run(run(lambda job: exchange.export_file(exchange.export_campaign(ctx.store, cid))))
    imported, reports = asyncio.run(run(lambda job: exchange.import_campaign(ctx.store, exported[0], progress=job.progress)))
    assert reports and ctx.store.load(imported).cursor == 3
    ctx.close()


class FakeFolder:
    """IndexedDbFolder's side the gate sees: unsynced, running, after_sync."""

    def __init__(self):
        self.unsynced = False
        self._running = False
        self._waiting = []

    def after_sync(self, release) -> bool:
        if not (self.unsynced or self._running):
            return False
        self._waiting.append(release)
        return True

    def synced(self) -> None:
        self.unsynced = self._running = False
        waiting, self._waiting = self._waiting, []
        for release in waiting:
            release()


class FakeConnection:
    """The connection's side the gate sees: the callback that hands the page each encoded message."""

    def __init__(self):
        self.sent = []
        self.send_callback = self.sent.append

    def send_message(self, message) -> None:
        self.send_callback(message)


def test_the_screen_gets_nothing_until_the_save_is_synced_and_all_in_order():
    folder, connection = FakeFolder(), FakeConnection()
    gate_screen(connection, folder)
    connection.send_message("before any write")
    assert connection.sent == ["before any write"]
    folder.unsynced = True  # a tap committed
    connection.send_message("the tap's redraw")
    connection.send_message("its snack bar")
    assert connection.sent == ["before any write"]  # not shown: not yet in IndexedDB
    folder.synced()
    connection.send_message("after the sync")
    assert connection.sent == ["before any write", "the tap's redraw", "its snack bar", "after the sync"]


def test_a_write_during_the_release_waits_for_its_own_sync():
    folder, connection = FakeFolder(), FakeConnection()
    gate_screen(connection, folder)
    folder.unsynced = True
    connection.send_message("first")
    folder._running, folder.unsynced = True, True  # written again before the sync finished
    waiting = list(folder._waiting)
    folder._waiting = []
    for release in waiting:  # the first sync's end: the folder still has unsynced changes
        release()
    assert connection.sent == []
    folder.synced()
    assert connection.sent == ["first"]


def pyodide_connection(monkeypatch, sent: list):
    """Flet's own browser connection (its module needs the page's `flet_js`: a stand-in), its callback
    to the page collecting what it sends."""
    import sys
    import types

    monkeypatch.setitem(sys.modules, "flet_js", types.ModuleType("flet_js"))
    from flet.messaging.pyodide_connection import PyodideConnection

    connection = object.__new__(PyodideConnection)  # its __init__ wants the page's event loop
    connection.send_callback = sent.append
    return connection


def test_a_held_message_goes_out_as_it_was_when_sent(monkeypatch):
    """Flet's messages refer to live controls and lists, encoded only when they go out: held as they
    were, a patch made while an earlier one waited would go out inside that one too (seen: the file
    picker and the preferences registered twice, and the page's copies never answered a call)."""
    import msgpack
    from flet.messaging.protocol import Message, MessageAction, PatchControlBody

    sent: list[bytes] = []
    connection, folder = pyodide_connection(monkeypatch, sent), FakeFolder()
    gate_screen(connection, folder)
    services = ["HapticFeedback"]
    folder.unsynced = True  # a commit not yet in IndexedDB: what follows is held
    connection.send_message(Message(MessageAction.PATCH_CONTROL, PatchControlBody(id=7, patch=[services])))
    services.append("FilePicker")  # the next registration, made while the first patch waits
    connection.send_message(Message(MessageAction.PATCH_CONTROL, PatchControlBody(id=7, patch=[["FilePicker"]])))
    assert sent == []
    folder.synced()
    patches = [msgpack.unpackb(packet[1:])[1]["patch"] for packet in sent]
    assert patches == [[["HapticFeedback"]], [["FilePicker"]]]


LOCK = ROOT / "uv.lock"


@pytest.mark.skipif(not LOCK.exists(), reason="no uv.lock in this checkout")
def test_the_static_build_ships_what_runs_in_a_browser_from_the_lock():
    rt = pyodide_info(client_dir())
    names = {p["name"] for p in browser_packages(LOCK, rt)}
    assert {"flet", "sqlmodel", "sqlalchemy", "alembic", "pydantic", "pydantic-core", "babel", "msgpack"} <= names
    assert not names & (SERVER_ONLY | {"httpx", "greenlet", "oauthlib", "fastapi", "starlette"})
