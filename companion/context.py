"""What one running app shares between all its screens: the database, the store, the sync hub,
the join URL and token, and app-wide settings. Created once by the command line (serve/desktop)."""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional

from companion.live import LiveCampaigns
from companion.log import Store
from companion.sync import Hub
from models.backup import BackupFailed, make_backup, restore_backup
from models.db import Database, default_url, is_database_error, open_database, plain_db_error, sqlite_path
from models.tables import Setting

log = logging.getLogger(__name__)

BACKUP_EVERY_SECONDS = 10 * 60
TOKEN_KEY = "join_token"  # the join token lives in the settings table: with the data, across restarts

# App-wide settings with their defaults and allowed values.
DEFAULT_SETTINGS: dict[str, Any] = {"text_scale": 1.0, "keep_awake": True}
# Settings every open screen must follow at once (they redraw); others are read when needed.
SHARED_DISPLAY_SETTINGS = {"text_scale", "keep_awake"}
TEXT_SCALES = (0.9, 1.0, 1.2, 1.4, 1.7)


@dataclass
class AppContext:
    db: Database
    store: Store
    hub: Hub
    join_url: Optional[str] = None
    token: Optional[str] = None
    backup_dir: Optional[Path] = None
    backup_problem: Optional[str] = None  # why the last backup failed (None: it worked)
    auto_backups: bool = True  # off for one-off commands (export, import): no backup of theirs rotates the real ones out
    # Where threads can't start (a phone alone: the browser's Python), a backup every this many
    # actions, made in the action's own turn, instead of the thread every BACKUP_EVERY_SECONDS.
    backup_every_actions: Optional[int] = None
    phone_alone: bool = False  # the app runs in the phone's browser: no table server, no join token
    _actions_since_backup: int = 0
    _last_backup: float = field(default=0.0)
    _backup_lock: threading.Lock = field(default_factory=threading.Lock)
    live: LiveCampaigns = field(init=False)  # the open campaigns every screen follows (companion.live)

    def __post_init__(self) -> None:
        self.live = LiveCampaigns(self.store, self.hub)

    @classmethod
    def open(cls, url: Optional[str] = None, *, join_url: Optional[str] = None, token: Optional[str] = None,
             backup_dir: Optional[Path] = None, start_backup: bool = True,
             backup_every_actions: Optional[int] = None) -> AppContext:
        """Open the save for the app. One that can't be written here opens read-only (see
        `read_only_reason`). `start_backup=False` for one-off commands (export, import), whose
        backups would push the real ones out of the rotation."""
        path = sqlite_path(url or default_url())
        # Each database file keeps its own backups beside it: companion.sqlite → companion-backups/.
        backup_dir = backup_dir or (path.with_name(f"{path.stem}-backups") if path else None)
        db = open_database(url, backup_dir=backup_dir, read_only_fallback=True)
        hub = Hub()
        store = Store(db)
        ctx = cls(db=db, store=store, hub=hub, join_url=join_url, token=token,
                  backup_dir=backup_dir if db.path else None, auto_backups=start_backup,
                  backup_every_actions=backup_every_actions)
        store.on_change = ctx._on_change
        if db.read_only:
            log.warning("The save opens read-only: %s", db.read_only_reason)
        elif start_backup:
            ctx.safe_backup("start")  # a failed backup is reported, never a reason not to start
            ctx.sweep_imports()
        return ctx

    def sweep_imports(self) -> None:
        """Delete the hidden rows of imports a crash stopped halfway (the app's start: no import runs
        yet; not a one-off command's, which may run beside the app while it imports)."""
        try:
            swept = self.store.sweep_imports()
        except Exception as exc:  # never a reason not to start: they stay hidden, and go next time
            if not is_database_error(exc):
                raise
            log.warning("unfinished imports could not be deleted: %s", plain_db_error(exc, self.db.path))
            return
        if swept:
            log.info("deleted %d import(s) a stop left unfinished", swept)

    @property
    def read_only_reason(self) -> Optional[str]:
        return self.db.read_only_reason

    def _on_change(self, campaign_id: int, cursor: int) -> None:
        self.hub.publish(campaign_id, cursor)
        if self.auto_backups and self.backup_every_actions:
            self._actions_since_backup += 1
            if self._actions_since_backup >= self.backup_every_actions:
                self._actions_since_backup = 0
                self.safe_backup("auto")
        elif self.auto_backups and time.monotonic() - self._last_backup > BACKUP_EVERY_SECONDS:
            threading.Thread(target=self.safe_backup, args=("auto",), daemon=True).start()

    def backup_now(self, reason: str = "manual") -> Optional[Path]:
        """Rotating backup of a SQLite database (server databases have their own backups).
        Raises BackupFailed with a message (nothing is left behind)."""
        if not (self.db.path and self.backup_dir):
            return None
        with self._backup_lock:
            self._last_backup = time.monotonic()
            try:
                made = make_backup(self.db.path, self.backup_dir, reason=reason)
            except BackupFailed as exc:
                self.backup_problem = str(exc)
                raise
            self.backup_problem = None
            return made

    def safe_backup(self, reason: str) -> Optional[Path]:
        """A backup the app makes by itself: a failure is logged and shown on the Backups screen."""
        try:
            return self.backup_now(reason)
        except BackupFailed as exc:
            log.warning("%s backup failed: %s", reason, exc)
            return None

    def restore(self, backup: Path) -> None:
        """Restore a backup into the live save; the join token stays this table's (a backup may
        hold an older one, which a later restart would otherwise bring back)."""
        restore_backup(backup, self.db.path, self.backup_dir)
        self.store.forget()
        self.sweep_imports()  # a backup made while an import was being written holds its hidden rows
        if self.token:
            self._store_token(self.token)
        self.hub.publish(0, 0)

    # --- the join token ---

    def join_token(self, *, given: Optional[str] = None, rotate: bool = False) -> str:
        """The table's join token: `given` (kept from now on), a new one (`rotate`, or the first
        start), or the one kept in the save, so phones that joined before stay joined."""
        from companion.share import new_token, token_problem

        kept = None if rotate or given else self.setting(TOKEN_KEY)
        if isinstance(kept, str) and token_problem(kept) is None:
            return kept
        token = given or new_token()
        self._store_token(token)
        return token

    def _store_token(self, token: str) -> None:
        try:
            self.set_setting(TOKEN_KEY, token)
        except Exception as exc:
            if not is_database_error(exc):
                raise
            # A read-only save: this token works until the app stops (phones rescan after a restart).
            log.warning("the join token can't be kept in the save: %s", plain_db_error(exc, self.db.path))

    # --- app-wide settings ---

    def setting(self, key: str) -> Any:
        with self.db.read() as s:
            row = s.get(Setting, key)
            return DEFAULT_SETTINGS.get(key) if row is None else row.value

    def set_setting(self, key: str, value: Any) -> None:
        with self.db.session() as s:
            row = s.get(Setting, key) or Setting(key=key)
            row.value = value
            s.add(row)
        if key in SHARED_DISPLAY_SETTINGS:
            self.hub.publish(0, 0)

    def close(self) -> None:
        self.db.close()
