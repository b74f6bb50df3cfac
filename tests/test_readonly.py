"""A save that can't be written — a full disk, a read-only filesystem — still opens: read-only, saying
so, and exporting. A database error reaches the phone as a sentence, never a traceback (#12.5).

These tests use a real small filesystem (tmpfs), filled up or remounted read-only: chmod proves
nothing to root, and an emulated error (query_only, a mode=ro URL) would skip the very code paths
that fail (WAL's shared memory, the start-up backup, the migration check). Mounting needs root (or
CAP_SYS_ADMIN); elsewhere these tests are skipped."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from companion.context import AppContext
from companion.exchange import dumps, export_campaign, import_campaign
from companion.games.counter.rules import Add, Roll
from companion.log import Store
from tests.helpers import memory_store
from models.db import open_database

ROOT = Path(__file__).resolve().parent.parent


class Disk:
    def __init__(self, path: Path):
        self.path = path

    def fill(self) -> None:
        """Write until the filesystem says ENOSPC: the disk is full, to the last byte."""
        for name, chunk in (("filler", 4096), ("filler-small", 1)):  # to the last few bytes too
            with open(self.path / name, "wb", buffering=0) as f:
                try:
                    while f.write(b"\0" * chunk):
                        pass
                except OSError as exc:
                    assert exc.errno == 28

    def read_only(self) -> None:
        subprocess.run(["mount", "-o", "remount,ro", str(self.path)], check=True)


@pytest.fixture
def disk(tmp_path):
    mount = tmp_path / "disk"
    mount.mkdir()
    made = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", str(mount)], capture_output=True)
    if made.returncode != 0:
        pytest.skip("needs permission to mount a small filesystem (run as root)")
    try:
        yield Disk(mount)
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)


def save_on(disk: Disk) -> tuple[str, int]:
    """A save with a played campaign on the small disk, closed as the app leaves it."""
    db_url = f"sqlite:///{disk.path / 'companion.sqlite'}"
    store = Store(open_database(db_url))
    cid = store.create("counter", "Friday", {}, seed=3)
    cursor = 0
    for action in (Add(amount=2), Roll(), Add(amount=1)):
        cursor = store.apply(cid, action, expected_cursor=cursor).cursor
    store.db.close()
    return db_url, cid


def reads_and_exports(ctx: AppContext, cid: int) -> None:
    assert [c.name for c in ctx.store.list_campaigns()] == ["Friday"]
    assert ctx.store.load(cid).game_state.value > 2
    payload = export_campaign(ctx.store, cid)
    assert len(payload["log"]) == 4
    elsewhere = memory_store()
    assert elsewhere.load(import_campaign(elsewhere, dumps(payload))).game_state == ctx.store.load(cid).game_state


def test_a_full_disk_opens_read_only_says_why_and_still_exports(disk):
    db_url, cid = save_on(disk)
    disk.fill()
    ctx = AppContext.open(db_url)  # before: the start-up backup raised and the app never started
    assert ctx.db.read_only and "disk is full" in ctx.read_only_reason
    reads_and_exports(ctx, cid)
    with pytest.raises(Exception) as refused:
        ctx.store.apply(cid, Add(amount=1), expected_cursor=3)
    from models.db import is_database_error

    assert is_database_error(refused.value)
    assert not (disk.path / "companion-backups").exists()  # read-only: no start-up backup tried
    ctx.close()


def test_a_read_only_filesystem_opens_read_only_and_still_exports(disk):
    db_url, cid = save_on(disk)
    disk.read_only()
    ctx = AppContext.open(db_url)
    assert ctx.db.read_only and "read-only" in ctx.read_only_reason
    reads_and_exports(ctx, cid)
    token = ctx.join_token()  # can't be kept in a read-only save: one for this run
    assert len(token) >= 16
    ctx.close()


def test_a_failing_start_up_backup_does_not_stop_the_app(disk, tmp_path):
    disk.fill()
    ctx = AppContext.open(f"sqlite:///{tmp_path / 'c.sqlite'}", backup_dir=disk.path / "backups")
    assert not ctx.db.read_only and "disk is full" in ctx.backup_problem
    assert [p.name for p in (disk.path / "backups").iterdir()] == []  # no 0-byte or half-written file
    ctx.store.create("counter", "Still plays", {})
    ctx.close()


class Taps:
    """The app's tap guard without a browser: what would reach the phone is what `toast` got."""

    def __init__(self, ctx):
        from companion.app import TableSession

        self.session = TableSession.__new__(TableSession)
        self.session.ctx, self.session.store = ctx, ctx.store
        self.shown: list[str] = []
        self.session.toast = lambda message, error=False: self.shown.append(message)
        self.session.refresh = lambda: None

    def tap(self, fn) -> None:
        self.session.guard(lambda e: fn())(None)


def test_a_database_error_in_a_tap_is_a_sentence_on_the_phone(disk):
    db_url, cid = save_on(disk)
    disk.fill()
    ctx = AppContext.open(db_url)
    taps = Taps(ctx)
    taps.tap(lambda: ctx.store.apply(cid, Add(amount=1), expected_cursor=3))
    taps.tap(lambda: ctx.store.rename(cid, "Saturday"))
    assert len(taps.shown) == 2
    for message in taps.shown:
        assert message.startswith("Nothing can be changed: The disk is full")
        assert "sqlite" not in message.lower() and "Traceback" not in message and "UPDATE" not in message
    ctx.close()


def test_a_locked_save_in_a_tap_says_so_at_once_and_the_tap_is_applied_once_it_is_free(tmp_path, monkeypatch):
    import sqlite3
    import threading
    import time

    from companion import app as app_module

    monkeypatch.setattr(app_module, "BUSY_RETRY_EVERY", 0.2)
    path = tmp_path / "c.sqlite"
    ctx = AppContext.open(f"sqlite:///{path}")
    cid = ctx.store.create("counter", "Busy", {})
    taps = Taps(ctx)
    said = threading.Event()
    taps.session.toast = lambda message, error=False: (taps.shown.append(message), said.set())
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # another program mid-write
    started = time.monotonic()
    taps.tap(lambda: ctx.store.apply(cid, Add(amount=1), expected_cursor=0))
    # Said while the other program still holds the save (a tap used to wait 10 s for it first).
    assert time.monotonic() - started < 5
    assert taps.shown == ["The save is busy: another program is writing to it. Trying again by itself…"]
    assert ctx.store.get(cid).cursor == 0
    said.clear()
    holder.execute("ROLLBACK")
    assert said.wait(15), "the tap was not tried again"
    assert taps.shown[-1] == "The save was free again: done."
    assert ctx.store.get(cid).cursor == 1  # applied once, by itself
    ctx.close()


def test_the_cli_exports_from_a_full_disk(disk, tmp_path):
    db_url, cid = save_on(disk)
    disk.fill()
    out = tmp_path / "friday.json"
    result = subprocess.run([sys.executable, "-m", "companion", "--db", db_url, "export", str(cid), str(out)],
                            cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert "read-only" in result.stderr and "disk is full" in result.stderr
    assert json.loads(out.read_text())["name"] == "Friday"
    refused = subprocess.run([sys.executable, "-m", "companion", "--db", db_url, "import", str(out)],
                             cwd=ROOT, capture_output=True, text=True)
    assert refused.returncode == 2 and "Traceback" not in refused.stderr
    assert refused.stderr.strip().endswith("The disk is full, so nothing can be saved. Free some space, then restart the app.")


def test_an_unguarded_error_reaches_the_phone_as_a_sentence(tmp_path, caplog):
    """Flet would send "Error running app" and the server's traceback; the session's last word is ours."""
    from companion.app import CRASHED

    ctx = AppContext.open(f"sqlite:///{tmp_path / 'c.sqlite'}", start_backup=False)
    taps = Taps(ctx)
    taps.session._crashed("Traceback (most recent call last):\n  ... sqlite3.OperationalError: disk I/O error")
    assert taps.shown == [CRASHED]
    assert "disk I/O error" in caplog.text  # the details stay in the server's log


def test_a_tap_kept_for_a_busy_save_is_dropped_if_the_phone_s_screen_moved_on(tmp_path, monkeypatch):
    """Tried again, a tap is still made on what its phone showed: once another action has been
    drawn there, it is not applied, and the phone is told."""
    import sqlite3
    import threading
    from types import SimpleNamespace

    from companion import app as app_module

    monkeypatch.setattr(app_module, "BUSY_RETRY_EVERY", 0.2)
    path = tmp_path / "c.sqlite"
    ctx = AppContext.open(f"sqlite:///{path}")
    cid = ctx.store.create("counter", "Busy", {})
    taps = Taps(ctx)
    taps.session.screen = SimpleNamespace(shown_cursor=0)
    said = threading.Event()
    taps.session.toast = lambda message, error=False: (taps.shown.append(message), said.set())
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    taps.tap(lambda: ctx.store.apply(cid, Add(amount=1), expected_cursor=0))
    said.clear()
    taps.session.screen.shown_cursor = 1  # another phone's action, drawn on this one meanwhile
    holder.execute("ROLLBACK")
    assert said.wait(15)
    assert taps.shown[-1] == "The table changed while the save was busy: your tap wasn't applied."
    assert ctx.store.get(cid).cursor == 0
    ctx.close()
