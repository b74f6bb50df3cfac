"""What one running app shares between all its screens: the database, the store, the sync hub,
the join URL, and app-wide settings. Created once by the command line (serve/desktop)."""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional

from sqlmodel import select

from companion.log import Store
from companion.sync import Hub
from models.backup import make_backup
from models.db import Database, default_url, open_database, sqlite_path
from models.tables import Setting

BACKUP_EVERY_SECONDS = 10 * 60

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
    _last_backup: float = field(default=0.0)
    _backup_lock: threading.Lock = field(default_factory=threading.Lock)

    @classmethod
    def open(cls, url: Optional[str] = None, *, join_url: Optional[str] = None, token: Optional[str] = None,
             backup_dir: Optional[Path] = None) -> "AppContext":
        path = sqlite_path(url or default_url())
        # Each database file keeps its own backups beside it: companion.sqlite → companion-backups/.
        backup_dir = backup_dir or (path.with_name(f"{path.stem}-backups") if path else None)
        db = open_database(url, backup_dir=backup_dir)
        hub = Hub()
        store = Store(db)
        ctx = cls(db=db, store=store, hub=hub, join_url=join_url, token=token,
                  backup_dir=backup_dir if db.path else None)
        store.on_change = ctx._on_change
        ctx.backup_now("start")
        return ctx

    def _on_change(self, campaign_id: int, cursor: int) -> None:
        self.hub.publish(campaign_id, cursor)
        if time.monotonic() - self._last_backup > BACKUP_EVERY_SECONDS:
            threading.Thread(target=self.backup_now, args=("auto",), daemon=True).start()

    def backup_now(self, reason: str = "manual") -> Optional[Path]:
        """Rotating backup of a SQLite database (server databases have their own backups)."""
        if not (self.db.path and self.backup_dir):
            return None
        with self._backup_lock:
            self._last_backup = time.monotonic()
            return make_backup(self.db.path, self.backup_dir, reason=reason)

    # --- app-wide settings ---

    def setting(self, key: str) -> Any:
        with self.db.session() as s:
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
