"""Rotating backups of the SQLite database, made with SQLite's online backup API (safe while open)."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Optional

KEEP = 8
PREFIX = "companion-"


@dataclass
class BackupInfo:
    path: Path
    made_at: datetime
    reason: str
    size: int
    campaigns: Optional[int]


def make_backup(db_path: Path, backup_dir: Path, *, reason: str = "auto", keep: int = KEEP) -> Optional[Path]:
    """Copy the live database to backup_dir and keep only the newest `keep` backups."""
    if not db_path.exists():
        return None
    backup_dir.mkdir(parents=True, exist_ok=True)
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S-%f")
    target = backup_dir / f"{PREFIX}{stamp}-{reason}.sqlite"
    src = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)
    dst = sqlite3.connect(target)
    try:
        src.backup(dst)
    finally:
        dst.close()
        src.close()
    for old in list_backups(backup_dir)[keep:]:
        old.path.unlink(missing_ok=True)
    return target


def list_backups(backup_dir: Path) -> list[BackupInfo]:
    """Newest first."""
    if not backup_dir.exists():
        return []
    found = []
    for path in backup_dir.glob(f"{PREFIX}*.sqlite"):
        parts = path.stem[len(PREFIX):].split("-")
        try:
            made_at = datetime.strptime("-".join(parts[:3]), "%Y%m%d-%H%M%S-%f")
        except ValueError:
            continue
        found.append(BackupInfo(path, made_at, "-".join(parts[3:]) or "auto", path.stat().st_size, _count(path)))
    return sorted(found, key=lambda b: b.made_at, reverse=True)


def _count(path: Path) -> Optional[int]:
    try:
        con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            return con.execute("SELECT count(*) FROM campaign").fetchone()[0]
        finally:
            con.close()
    except sqlite3.DatabaseError:
        return None


def restore_backup(backup: Path, db_path: Path, backup_dir: Path) -> None:
    """Replace the live database's content with a backup's, keeping a backup of the current first.

    Uses the backup API into the open file, so other connections see the restored data next read."""
    from models.db import check_sqlite_file

    check_sqlite_file(backup)  # refuses a damaged or foreign file before anything changes
    make_backup(db_path, backup_dir, reason="before-restore")
    src = sqlite3.connect(f"file:{backup}?mode=ro", uri=True)
    dst = sqlite3.connect(db_path, timeout=10)
    try:
        src.backup(dst)
    finally:
        dst.close()
        src.close()
