"""Rotating backups of the SQLite database, made with SQLite's online backup API (safe while open).

A backup is named `companion-<UTC time>-<sequence>-<reason>.sqlite`. The sequence number orders
them (newest = highest), so a backup made after the computer's clock went back is still the newest
and is not rotated out at once. A backup is written under a temporary name, checked, and only then
renamed, so a full disk or a crash never leaves a 0-byte or half-written backup in the list.
"""

from __future__ import annotations

import logging
import os
import re
import sqlite3
import threading
import time
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Optional

from companion.i18n import Msg, Text
from models.db import DatabaseError, check_save, head_revision, plain_db_error

log = logging.getLogger(__name__)

KEEP = 8
PREFIX = "companion-"
PARTIAL = ".partial"  # a backup being written (or left by a crash); never listed
_NAME = re.compile(r"^companion-(?P<stamp>\d{8}T\d{12}Z)-(?P<seq>\d+)-(?P<reason>.+)$")
_OLD_NAME = re.compile(r"^companion-(?P<stamp>\d{8}-\d{6}-\d{6})-?(?P<reason>.*)$")  # local time, before sequences
_STAMP = "%Y%m%dT%H%M%S%fZ"


class BackupFailed(DatabaseError):
    """No backup was made; the message says why. Nothing was left behind."""


@dataclass
class BackupInfo:
    path: Path
    made_at: datetime  # UTC
    reason: str
    size: int
    campaigns: Optional[int]
    seq: int = 0  # 0 for backups named before sequence numbers
    problem: Optional[Text] = None  # why it can't be restored (None: a complete, healthy save)

    @property
    def usable(self) -> bool:
        return self.problem is None


def make_backup(db_path: Path, backup_dir: Path, *, reason: str = "auto", keep: int = KEEP) -> Optional[Path]:
    """Copy the live database to backup_dir and keep only the newest `keep` backups.

    Raises BackupFailed (disk full, read-only folder, ...) after removing its unfinished copy."""
    if not db_path.exists():
        return None
    reason = re.sub(r"[^a-z0-9-]+", "-", reason.lower()).strip("-") or "auto"
    try:
        backup_dir.mkdir(parents=True, exist_ok=True)
        _remove_stale_partials(backup_dir)
        seq = max((b.seq for b in _named(backup_dir)), default=0) + 1
        stamp = datetime.now(timezone.utc).strftime(_STAMP)
        target = backup_dir / f"{PREFIX}{stamp}-{seq:06d}-{reason}.sqlite"
        partial = backup_dir / f".{target.name}.{os.getpid()}{PARTIAL}"
    except OSError as exc:
        raise BackupFailed(Msg("No backup was made: {why}", why=plain_db_error(exc, backup_dir))) from exc
    try:
        _copy(db_path, partial)
        check_save(partial)  # complete and healthy, or it never gets a backup's name
        os.replace(partial, target)
    except (OSError, sqlite3.Error, DatabaseError) as exc:
        _unlink(partial)
        why = str(exc) if isinstance(exc, DatabaseError) else plain_db_error(exc, backup_dir)
        raise BackupFailed(Msg("No backup was made: {why}", why=why)) from exc
    except BaseException:
        _unlink(partial)
        raise
    for old in _named(backup_dir)[keep:]:
        _unlink(old.path)
    return target


def _copy(source: Path, target: Path) -> None:
    """SQLite's backup API: a consistent copy of a live database (other connections may be writing)."""
    src = sqlite3.connect(f"file:{source}?mode=ro", uri=True)
    try:
        dst = sqlite3.connect(target)
        try:
            src.backup(dst)
            dst.execute("PRAGMA journal_mode=DELETE")  # one self-contained file, no -wal beside it
        finally:
            dst.close()
    finally:
        src.close()


def _unlink(path: Path) -> None:
    for p in (path, path.with_name(path.name + "-journal"), path.with_name(path.name + "-wal"),
              path.with_name(path.name + "-shm")):
        try:
            p.unlink(missing_ok=True)
        except OSError:
            log.warning("could not remove %s", p, exc_info=True)


def _remove_stale_partials(backup_dir: Path) -> None:
    """Unfinished copies left by a crash or a power cut (an hour old: not one being written now)."""
    for p in backup_dir.glob(f".{PREFIX}*{PARTIAL}"):
        try:
            if time.time() - p.stat().st_mtime > 3600:
                _unlink(p)
        except OSError:
            pass


def _named(backup_dir: Path) -> list[BackupInfo]:
    """Every file named like a backup, newest first (by sequence, then time), not yet checked."""
    if not backup_dir.exists():
        return []
    found = []
    for path in backup_dir.glob(f"{PREFIX}*.sqlite"):
        try:
            size = path.stat().st_size
        except OSError:
            continue
        if m := _NAME.match(path.stem):
            made_at = datetime.strptime(m["stamp"], _STAMP).replace(tzinfo=timezone.utc)
            found.append(BackupInfo(path, made_at, m["reason"], size, None, int(m["seq"])))
        elif m := _OLD_NAME.match(path.stem):
            try:
                local = datetime.strptime(m["stamp"], "%Y%m%d-%H%M%S-%f")
            except ValueError:
                continue
            found.append(BackupInfo(path, local.astimezone(timezone.utc), m["reason"] or "auto", size, None, 0))
    return sorted(found, key=lambda b: (b.seq, b.made_at), reverse=True)


def list_backups(backup_dir: Path) -> list[BackupInfo]:
    """Newest first, each checked: `problem` says why one can't be restored."""
    backups = _named(backup_dir)
    for b in backups:
        b.problem, b.campaigns = _inspect(b.path)
    return backups


_checked: dict[tuple, tuple[Optional[str], Optional[int]]] = {}
_checked_lock = threading.Lock()


def _inspect(path: Path) -> tuple[Optional[Text], Optional[int]]:
    """(why it can't be restored or None, how many campaigns). A backup never changes once named,
    so the (slow on a big save) integrity check runs once per file."""
    try:
        st = path.stat()
    except OSError:
        return Msg("the file is gone"), None
    key = (str(path), st.st_size, st.st_mtime_ns)
    with _checked_lock:
        if key in _checked:
            return _checked[key]
    try:
        check_save(path)
        con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            result: tuple[Optional[Text], Optional[int]] = (None, con.execute("SELECT count(*) FROM campaign").fetchone()[0])
        finally:
            con.close()
    except DatabaseError as exc:
        result = (Msg("Unusable: {why}.", why=str(exc)), None)
    except sqlite3.Error as exc:  # the driver's words to the log; the list says what it means
        log.warning("backup %s can't be read", path, exc_info=True)
        result = (Msg("Unusable: it can't be read ({why}).", why=plain_db_error(exc)), None)
    with _checked_lock:
        _checked[key] = result
    return result


def restore_backup(backup: Path, db_path: Path, backup_dir: Path) -> None:
    """Replace the live database's content with a backup's, keeping a backup of the current first.

    Only a complete save of a known schema that passes integrity_check is restored; anything else
    raises DatabaseError before anything changes. An older schema is upgraded on a scratch copy
    first, so the live file only ever receives a whole save at today's schema. Uses the backup API
    into the open file, so other connections see the restored data on their next read."""
    from models.db import open_database

    try:
        check_save(backup)
    except DatabaseError as exc:
        raise DatabaseError(Msg("This backup can't be restored: {why}. Nothing was changed.", why=str(exc))) from exc
    scratch = backup_dir / f".restore-{os.getpid()}-{time.monotonic_ns()}{PARTIAL}"
    try:
        backup_dir.mkdir(parents=True, exist_ok=True)
        _copy(backup, scratch)
        if check_save(scratch) != head_revision():
            open_database(f"sqlite:///{scratch}").close()  # migrations, as at start
            with sqlite3.connect(scratch) as con:
                con.execute("PRAGMA journal_mode=DELETE")
            con.close()
        if check_save(scratch) != head_revision():
            raise DatabaseError(Msg("This backup can't be brought up to date. Nothing was changed."))
        make_backup(db_path, backup_dir, reason="before-restore")
        src = sqlite3.connect(f"file:{scratch}?mode=ro", uri=True)
        dst = sqlite3.connect(db_path, timeout=10)
        try:
            src.backup(dst)
        finally:
            dst.close()
            src.close()
    except (OSError, sqlite3.Error) as exc:
        raise DatabaseError(Msg("The backup was not restored: {why}", why=plain_db_error(exc, db_path))) from exc
    finally:
        _unlink(scratch)
