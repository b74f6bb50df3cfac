"""What runs in the phone's browser (Pyodide, Python 3.14 in a web worker) in place of `companion serve`.

The save is the laptop's SQLite file, with the same Alembic migrations, in a folder kept in the
browser's IndexedDB (Emscripten's IDBFS). IDBFS rather than OPFS: it works in every browser that
runs the app (OPFS's synchronous handles need a worker of their own per file and aren't in every
Safari the players have), and it was checked here; its cost is that it copies: a file is durable
only once `FS.syncfs` has written it to IndexedDB.

So that an action the screen shows as done is durable, the connection to the screen is gated:
every commit marks the save unsynced and schedules a sync; while it is unsynced, what Python sends
to the screen (the tap's redraw included) is held, and it is sent the moment the sync has finished.
A tab closed in between loses the tap, and the screen never showed it as done.

A browser's Python can't start threads: backups are made when the app starts and every
BACKUP_EVERY_ACTIONS actions, inside the action's own turn (a copy of a small file in memory).
"""

from __future__ import annotations

import asyncio
import json
import logging
import sys
from pathlib import Path
from typing import Any, Callable, Optional

log = logging.getLogger(__name__)

SAVE_DIR = Path("/companion")  # the IndexedDB-backed folder
SAVE_FILE = SAVE_DIR / "companion.sqlite"
BACKUP_EVERY_ACTIONS = 25
PERSISTED_KEY = "companion.storage_persisted"  # written by phone.js: the answer to navigator.storage.persist()
SEEN_VERSION_FILE = SAVE_DIR / "seen-version.txt"  # the last version this phone opened (to say when it changed)
SAVE_LOCK = "table-companion-save"  # the Web Lock of the tab that writes the save


def on_phone() -> bool:
    """True in the browser's Python (a phone alone), False on the laptop."""
    return sys.platform == "emscripten"


def build_version() -> Optional[str]:
    """The version written by the build (companion/web/build.py); None outside a build."""
    try:
        return json.loads((Path(__file__).parent / "version.json").read_text())["version"]
    except (OSError, ValueError, KeyError):
        return None


class IndexedDbFolder:
    """A folder of the browser's file system kept in IndexedDB, synced after every write."""

    def __init__(self, path: Path):
        import pyodide_js

        self.path = path
        self.fs = pyodide_js.FS
        self.unsynced = False  # something was written that IndexedDB doesn't have yet
        self.syncs = 0  # finished syncs (for tests and the bench)
        self.failure: Optional[str] = None  # why the last sync failed (None: it worked)
        self._running = False
        self._waiting: list[Callable[[], None]] = []  # run once everything written is synced

    async def mount(self) -> None:
        """Mount the folder and read what IndexedDB keeps into it (before the save is opened)."""
        try:
            self.fs.mkdirTree(str(self.path))
        except Exception:
            pass  # already there
        self.fs.mount(self.fs.filesystems.IDBFS, {}, str(self.path))
        await self._syncfs(populate=True)

    def _syncfs(self, *, populate: bool) -> "asyncio.Future[None]":
        from pyodide.ffi import create_once_callable

        done: asyncio.Future[None] = asyncio.get_event_loop().create_future()

        def finished(error=None):
            if done.done():
                return
            if error:
                done.set_exception(OSError(str(error)))
            else:
                done.set_result(None)
        # The callback must outlive this call: a plain proxy would be destroyed before IndexedDB answers.
        self.fs.syncfs(populate, create_once_callable(finished))
        return done

    def written(self) -> None:
        """Something was committed: sync it soon (after the writer's own code has finished)."""
        self.unsynced = True
        if not self._running:
            self._running = True
            asyncio.get_event_loop().call_soon(lambda: asyncio.ensure_future(self._sync_until_clean()))

    async def _sync_until_clean(self) -> None:
        try:
            while self.unsynced:
                self.unsynced = False
                try:
                    await self._syncfs(populate=False)
                    self.failure = None
                    self.syncs += 1
                except Exception as exc:  # the screen is still released: holding it forever helps nobody
                    self.failure = str(exc)
                    log.error("IndexedDB sync failed: the save could not be written to the browser's storage: %s", exc)
        finally:
            self._running = False
        waiting, self._waiting = self._waiting, []
        for release in waiting:
            release()

    def after_sync(self, release: Callable[[], None]) -> bool:
        """Run `release` once what was written is in IndexedDB; False (not queued) when it already is."""
        if not (self.unsynced or self._running):
            return False
        self._waiting.append(release)
        return True


def gate_screen(connection: Any, folder: IndexedDbFolder) -> None:
    """Hold what Python sends to the screen while the save has unsynced changes (see the module's note).
    Order is kept: once anything is held, everything after it waits behind it.

    What is held is the bytes, encoded when Python sent them (the connection's `send_callback`), not
    Flet's messages: a message refers to live controls and is encoded only when it goes out, so a
    patch held while the next one was made would go out carrying that one's changes too (a service
    registered twice, say; the page's copy of it then never answered a call)."""
    send = connection.send_callback
    held: list[Any] = []

    def release() -> None:
        if folder.after_sync(release):  # written again meanwhile: wait for that sync too
            return
        while held:
            send(held.pop(0))

    def send_callback(packet: Any) -> None:
        if held or folder.unsynced or folder._running:
            first = not held
            held.append(packet)
            if first and not folder.after_sync(release):
                release()
            return
        send(packet)
    connection.send_callback = send_callback


async def hold_the_save() -> bool:
    """True when this tab holds the save; False when another tab of this phone does (then this one only
    reads it). Two tabs each keep their own copy of the IndexedDB folder and would overwrite each
    other's actions at every sync, so one writes at a time: a Web Lock, held until the tab closes."""
    import js
    from pyodide.ffi import create_once_callable, to_js

    locks = getattr(js.navigator, "locks", None)
    if locks is None:  # a browser without Web Locks (before 2022): nothing to ask
        return True
    answer: asyncio.Future[bool] = asyncio.get_event_loop().create_future()

    try:
        from pyodide.ffi import jsnull  # what JS null is in Python since Pyodide 0.26
    except ImportError:
        jsnull = None

    def granted(lock):
        taken = lock is not None and lock is not jsnull
        js.console.info(f"Table Companion: the save's lock {'taken' if taken else 'held by another tab'}")
        answer.set_result(taken)
        if not taken:
            return None
        return js.Promise.new(create_once_callable(lambda resolve, reject: None))  # never settles: kept
    options = to_js({"ifAvailable": True}, dict_converter=js.Object.fromEntries)
    locks.request(SAVE_LOCK, options, create_once_callable(granted))
    return await answer


def _open_elsewhere():
    """The save, read-only, for a second tab (its banner says why; campaigns can be seen and exported)."""
    from companion.context import AppContext
    from companion.i18n import Msg
    from companion.log import Store
    from companion.sync import Hub
    from models.db import _open_read_only

    why = Msg("The app is open in another tab on this phone: play there, or close that tab and reload this one.")
    db = _open_read_only(f"sqlite:///{SAVE_FILE}", SAVE_FILE, why)
    ctx = AppContext(db=db, store=Store(db), hub=Hub(), auto_backups=False, phone_alone=True)
    ctx.store.on_change = ctx._on_change
    return ctx


def _open_context(folder: IndexedDbFolder):
    from companion.context import AppContext
    from sqlalchemy import event

    ctx = AppContext.open(f"sqlite:///{SAVE_FILE}", backup_every_actions=BACKUP_EVERY_ACTIONS)
    ctx.phone_alone = True
    event.listen(ctx.db.engine, "commit", lambda conn: folder.written())
    restore = ctx.restore

    def restore_and_sync(backup) -> None:  # a restore replaces the file outside any commit
        restore(backup)
        folder.written()
    ctx.restore = restore_and_sync
    backup_now = ctx.backup_now

    def backup_and_sync(reason: str = "manual"):
        made = backup_now(reason)
        folder.written()
        return made
    ctx.backup_now = backup_and_sync
    folder.written()  # the migrations and the start backup
    return ctx


class PhoneFiles:
    """The session's file picker on a phone alone: picking a file is Flet's own; saving one is a download
    the page makes (phone.js), as Flet's save_file needs a server in a browser. The worker hands the
    page the bytes over a BroadcastChannel."""

    CHANNEL = "table-companion"

    def __init__(self, picker):
        self.picker = picker

    def __getattr__(self, name: str):
        return getattr(self.picker, name)

    async def save_file(self, *, file_name: str, src_bytes: bytes, **_ignored) -> None:
        import js
        from pyodide.ffi import to_js

        channel = js.BroadcastChannel.new(self.CHANNEL)
        message = to_js({"type": "download", "name": file_name, "bytes": to_js(bytes(src_bytes))},
                        dict_converter=js.Object.fromEntries)
        channel.postMessage(message)
        channel.close()


async def tell_phone_things(session) -> None:
    """Read what the page's script (phone.js) left for this phone, and say when the app was updated."""
    prefs = session.prefs
    try:
        # Asked once the first screen is up: a phone busy drawing it answers late (the reads time out).
        for _ in range(600):
            if session.screen is not None:
                break
            await asyncio.sleep(0.1)
        version = build_version()
        # The version this phone ran last is kept beside the save (the browser's preferences answer
        # late, or not at all, while a Pyodide app starts): read and written at once.
        try:
            seen = SEEN_VERSION_FILE.read_text().strip() or None
        except OSError:
            seen = None
        if version and seen != version and not session.ctx.read_only_reason:  # a second tab writes nothing
            SEEN_VERSION_FILE.write_text(version)
            session.ctx_folder.written()
            if seen:  # not on the very first open
                from companion.i18n import Msg

                session.later(lambda: session.toast(Msg("The app was updated to version {version}.", version=version)))
        kept = await asyncio.wait_for(prefs.get(PERSISTED_KEY), 60)
        session.storage_kept = {True: True, False: False, "true": True, "false": False}.get(kept)
        if session.storage_kept is not None and (session.page.route or "").rstrip("/") == "/settings":
            session.later(lambda: session.show("/settings"))  # drawn before the answer came: say it now
    except Exception:
        log.warning("this phone's notes could not be read", exc_info=True)


def run() -> None:
    """The entry of the built site (its main.py): Flet's Pyodide connection, the save opened once."""
    import flet as ft

    from companion.app import TableSession

    logging.basicConfig(level=logging.WARNING)
    opened: dict[str, Any] = {}
    opening = asyncio.Lock()

    async def main(page: ft.Page) -> None:
        async with opening:
            if "ctx" not in opened:
                folder = IndexedDbFolder(SAVE_DIR)
                await folder.mount()
                opened["folder"] = folder
                mine = await hold_the_save()
                opened["ctx"] = _open_context(folder) if mine or not SAVE_FILE.exists() else _open_elsewhere()
        gate_screen(page.session.connection, opened["folder"])
        session = TableSession(page, opened["ctx"])
        session.storage_kept = None
        session.file_picker = PhoneFiles(session.file_picker)
        session.ctx_folder = opened["folder"]
        session.start()
        page.run_task(tell_phone_things, session)

    ft.run(main)
