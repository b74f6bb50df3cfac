"""Opening the database safely: refuse what isn't ours, migrate what is, never clobber a file.

SQLite (default) runs in WAL mode. A write session is BEGIN IMMEDIATE, so one action = one
transaction = one writer at a time; a read session (`db.read()`) begins DEFERRED and never waits for
a writer (WAL readers see the last commit). A save that can't be written at start (read-only file or
folder, full disk) opens read-only when the caller allows it: everything can still be read and
exported. Any SQLAlchemy URL works; PostgreSQL is the supported server.
"""

from __future__ import annotations

import contextvars
import errno
import logging
import os
import sqlite3
import sys
import threading
from contextlib import contextmanager
from datetime import datetime, timezone
from pathlib import Path
from typing import Iterator, Optional

from sqlalchemy import create_engine, event, inspect
from sqlalchemy.engine import Engine, make_url
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.pool import StaticPool
from sqlmodel import Session

from companion.i18n import Msg, Text

MIGRATIONS = Path(__file__).parent / "migrations"
SQLITE_HEADER = b"SQLite format 3\x00"
# Every revision so far has these; a file with a schema version but without them is not a whole save.
REQUIRED_TABLES = {"campaign", "action_log", "catalog", "setting", "alembic_version"}
log = logging.getLogger(__name__)
_READ = "companion_read"  # execution option: this transaction only reads (BEGIN DEFERRED)
# How long a write waits for another program's write lock. A phone's tap waits less than a second
# (`tap_patience`) and then says so, and its app retries by itself; other work waits the default.
WAIT_MS = 10_000
TAP_WAIT_MS = 700
_wait_ms: contextvars.ContextVar[int] = contextvars.ContextVar("companion_wait_ms", default=WAIT_MS)


@contextmanager
def tap_patience(ms: int = TAP_WAIT_MS) -> Iterator[None]:
    """Writes inside wait at most `ms` for a lock another program holds (then fail as busy)."""
    token = _wait_ms.set(ms)
    try:
        yield
    finally:
        _wait_ms.reset(token)
# A background write (an import's chunk) waits at most this long for this process's other writers to
# be done: they are single taps, so this only bounds a writer that never ends.
BACKGROUND_WAIT = 5.0


class DatabaseError(Exception):
    """The database can't be used; the message says why and what to do. The file is untouched."""


def default_url() -> str:
    from platformdirs import user_data_dir

    env = os.environ.get("COMPANION_DATABASE_URL")
    if env:
        return env
    # Built with `flet build`, the app gets its own storage folder from Flet.
    app_storage = os.environ.get("FLET_APP_STORAGE_DATA")
    folder = Path(app_storage) if app_storage else Path(user_data_dir("table-companion", appauthor=False))
    return f"sqlite:///{folder / 'companion.sqlite'}"


def sqlite_path(url: str) -> Optional[Path]:
    """The file behind a SQLite URL, or None for a server database or an in-memory one."""
    parsed = make_url(url)
    if not parsed.drivername.startswith("sqlite"):
        return None
    if not parsed.database or parsed.database == ":memory:":
        return None
    return Path(parsed.database)


# --- what went wrong, in words ----------------------------------------------------------------------

# SQLite's primary result codes (the low byte of an extended code).
_SQLITE_PERM, _SQLITE_BUSY, _SQLITE_LOCKED, _SQLITE_READONLY = 3, 5, 6, 8
_SQLITE_IOERR, _SQLITE_CORRUPT, _SQLITE_FULL, _SQLITE_CANTOPEN, _SQLITE_NOTADB = 10, 11, 13, 14, 26
_CANT_WRITE_CODES = {_SQLITE_PERM, _SQLITE_READONLY, _SQLITE_IOERR, _SQLITE_FULL, _SQLITE_CANTOPEN}
_CANT_WRITE_ERRNOS = {errno.EROFS, errno.ENOSPC, errno.EACCES, errno.EPERM, errno.EDQUOT}


def _causes(exc: BaseException) -> Iterator[BaseException]:
    seen = set()
    while exc is not None and id(exc) not in seen:
        seen.add(id(exc))
        yield exc
        yield from ([exc.orig] if isinstance(exc, SQLAlchemyError) and getattr(exc, "orig", None) else [])
        exc = exc.__cause__  # only what an error was raised from: an unrelated earlier error isn't its cause


# The driver's words, for an error that came without its code.
_WORDS = {"database is locked": _SQLITE_BUSY, "disk is full": _SQLITE_FULL, "readonly database": _SQLITE_READONLY,
          "unable to open": _SQLITE_CANTOPEN, "disk i/o error": _SQLITE_IOERR, "malformed": _SQLITE_CORRUPT,
          "not a database": _SQLITE_NOTADB}


def _sqlite_code(exc: BaseException) -> Optional[int]:
    for e in _causes(exc):
        if isinstance(e, sqlite3.Error):
            code = getattr(e, "sqlite_errorcode", None)
            if code is not None:
                return code & 0xFF
            text = str(e).lower()
            return next((c for words, c in _WORDS.items() if words in text), None)
    return None


def _errno(exc: BaseException) -> Optional[int]:
    for e in _causes(exc):
        if isinstance(e, OSError) and e.errno is not None:
            return e.errno
    return None


def cannot_write(exc: BaseException) -> bool:
    """Whether an error means the save can't be written here (read-only file or folder, full disk)."""
    return _sqlite_code(exc) in _CANT_WRITE_CODES or _errno(exc) in _CANT_WRITE_ERRNOS


def is_busy(exc: BaseException) -> bool:
    """Whether a database error means another program holds the save's lock (try again later)."""
    return _sqlite_code(exc) in (_SQLITE_BUSY, _SQLITE_LOCKED)


def is_database_error(exc: BaseException) -> bool:
    """An error of the save itself (not a bug): the app shows `plain_db_error` instead of a traceback."""
    return isinstance(exc, (DatabaseError, SQLAlchemyError, sqlite3.Error))


# Said to a player (the read-only banner, the message bar, Backups): messages, in each phone's language.
FULL_DISK = Msg("The disk is full, so nothing can be saved. Free some space, then restart the app.")
READ_ONLY_DISK = Msg("The save can't be written: the disk it is on is read-only.")
_NEARLY_FULL = 1024 * 1024  # bytes free: less than this, and a write just failed, means a full disk


def _disk_state(where: Optional[Path]) -> Optional[Msg]:
    """What the filesystem says about a failed write: SQLite reports a full disk or a read-only
    mount as a mere I/O error or "unable to open" when it meets it in WAL's shared memory file."""
    if where is None:
        return None
    folder = where if where.is_dir() else where.parent
    try:
        st = os.statvfs(folder)
    except OSError:
        return None
    if st.f_flag & os.ST_RDONLY:
        return READ_ONLY_DISK
    if st.f_bavail * st.f_frsize < _NEARLY_FULL:
        return FULL_DISK
    return None


def plain_db_error(exc: BaseException, where: Optional[Path] = None) -> Text:
    """A database error as a sentence for a player: no SQL, no traceback, no driver names.
    `where`: the save's path, to tell a full or read-only disk behind a vague I/O error."""
    if isinstance(exc, DatabaseError):
        return str(exc)
    code, number = _sqlite_code(exc), _errno(exc)
    if code in _CANT_WRITE_CODES or number in _CANT_WRITE_ERRNOS:
        disk = _disk_state(where)
        if disk:
            return disk
    if code == _SQLITE_FULL or number in (errno.ENOSPC, errno.EDQUOT):
        return FULL_DISK
    if number == errno.EROFS:
        return READ_ONLY_DISK
    if code in (_SQLITE_READONLY, _SQLITE_PERM) or number in (errno.EACCES, errno.EPERM):
        return Msg("The save can't be written (its file or folder is read-only).")
    if code in (_SQLITE_BUSY, _SQLITE_LOCKED):
        return Msg("The save is busy: another program is writing to it. Try again in a moment.")
    if code == _SQLITE_CANTOPEN:
        return Msg("The save can't be opened (its folder is missing or not accessible).")
    if code == _SQLITE_IOERR:
        return Msg("The disk reported an error while reading or writing the save.")
    if code in (_SQLITE_CORRUPT, _SQLITE_NOTADB):
        return Msg("The save is damaged. Restore a backup (Settings → Backups).")
    return Msg("The save could not be read or written right now.")


# --- looking at a file before opening it -------------------------------------------------------------


def _alembic_config(connection=None):
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    if connection is not None:
        cfg.attributes["connection"] = connection
    return cfg


def known_revisions() -> set[str]:
    from alembic.script import ScriptDirectory

    return {rev.revision for rev in ScriptDirectory.from_config(_alembic_config()).walk_revisions()}


def head_revision() -> str:
    from alembic.script import ScriptDirectory

    return ScriptDirectory.from_config(_alembic_config()).get_current_head()


def check_sqlite_file(path: Path) -> Optional[str]:
    """Look at an existing file read-only. Returns its schema revision (None = empty file).

    Raises DatabaseError for a file that isn't SQLite, is damaged or incomplete, belongs to another
    program, or was written by a newer version of this app."""
    if not path.exists() or path.stat().st_size == 0:
        return None
    with open(path, "rb") as f:
        if f.read(16) != SQLITE_HEADER:
            raise DatabaseError(f"{path} is not a companion database (it is not an SQLite file). It was left untouched.")
    try:
        con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            # integrity_check, not quick_check: it also finds indexes that disagree with their table.
            ok = con.execute("PRAGMA integrity_check(1)").fetchone()[0]
            if ok != "ok":  # SQLite's own words ("*** in database main *** Page 5: …") go to the log only
                log.warning("integrity_check of %s: %s", path, ok)
                raise DatabaseError(f"{path} is damaged (SQLite's own check of the file finds errors in it). "
                                    "It was left untouched; restore a backup.")
            tables = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='table'")}
            if not tables:
                return None
            if "alembic_version" not in tables:
                raise DatabaseError(f"{path} belongs to another program (no companion schema). It was left untouched.")
            row = con.execute("SELECT version_num FROM alembic_version").fetchone()
        finally:
            con.close()
    except sqlite3.DatabaseError as exc:
        if cannot_write(exc):
            raise  # not the file's fault (a read-only place, a full disk): the caller may open it read-only
        log.warning("%s can't be read as a database", path, exc_info=True)
        raise DatabaseError(f"{path} can't be read as a database (it is damaged or not a whole save). "
                            "It was left untouched.") from exc
    revision = row[0] if row else None
    if revision and revision not in known_revisions():
        raise DatabaseError(
            f"{path} was saved by a newer version of the companion (schema {revision}). "
            "Update the app to open it; the file was left untouched."
        )
    if revision and not REQUIRED_TABLES <= tables:
        missing = ", ".join(sorted(REQUIRED_TABLES - tables))
        raise DatabaseError(f"{path} is incomplete (no {missing} table). It was left untouched; restore a backup.")
    return revision


def check_save(path: Path) -> str:
    """A complete save of a known schema that passes integrity_check, or DatabaseError saying why not.

    Stricter than opening (where an empty file is simply a new database): a backup to restore must
    hold a whole save. Returns its schema revision."""
    if not path.exists():
        raise DatabaseError("the file is gone")
    if path.stat().st_size == 0:
        raise DatabaseError("the file is empty (0 bytes)")
    try:
        revision = check_sqlite_file(path)
    except sqlite3.Error as exc:
        log.warning("%s can't be read", path, exc_info=True)
        raise DatabaseError(f"it can't be read ({plain_db_error(exc)})") from exc
    except DatabaseError as exc:
        # "<path> is damaged (…). It was left untouched…" → "it is damaged (…)"
        raise DatabaseError("it" + str(exc)[len(str(path)):].split(". ")[0]) from exc
    if revision is None:
        raise DatabaseError("it holds no companion tables (an unfinished copy)")
    return revision


# --- engines and sessions ----------------------------------------------------------------------------


def _sqlite_engine(url: str, *, read_only: bool = False) -> Engine:
    memory = sqlite_path(url) is None
    engine = create_engine(
        url,
        connect_args={"check_same_thread": False, "timeout": 10},
        poolclass=StaticPool if memory else None,
    )

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_conn, _record):
        # Let SQLAlchemy's "begin" below issue BEGIN itself instead of pysqlite's implicit one.
        dbapi_conn.isolation_level = None
        cur = dbapi_conn.cursor()
        if read_only:
            cur.execute("PRAGMA query_only=ON")  # a write fails at once with "readonly", nothing half-done
        elif sys.platform == "emscripten":  # a phone alone (companion/web/phone.py): the file lives in
            # memory and is made durable by copying it to IndexedDB after each commit; a WAL file
            # would be copied whole at every sync (megabytes by the checkpoint), a rollback journal in
            # memory keeps the one file complete at each commit.
            cur.execute("PRAGMA journal_mode=MEMORY")
        elif not memory:
            cur.execute("PRAGMA journal_mode=WAL")
        cur.execute("PRAGMA synchronous=FULL")  # an acknowledged action survives power loss too
        cur.execute("PRAGMA foreign_keys=ON")
        cur.execute(f"PRAGMA busy_timeout={WAIT_MS}")
        cur.close()

    @event.listens_for(engine, "begin")
    def _on_begin(conn):
        # Writers queue for the write lock at BEGIN (no deadlock between two upgrading readers);
        # readers begin DEFERRED and read the last commit without waiting for a writer.
        deferred = read_only or conn.get_execution_options().get(_READ, False)
        wait = _wait_ms.get()
        if not deferred and conn.info.get("busy_ms", WAIT_MS) != wait:  # (a tap's, or back to the default)
            conn.exec_driver_sql(f"PRAGMA busy_timeout={int(wait)}")
            conn.info["busy_ms"] = wait
        conn.exec_driver_sql("BEGIN" if deferred else "BEGIN IMMEDIATE")

    return engine


def _refuse_flush(session, _context, _instances) -> None:
    if session.new or session.dirty or session.deleted:
        raise RuntimeError("A read session can't write; use db.session() for changes.")


class Database:
    """The engine plus helpers. Create with `open_database(url)`."""

    def __init__(self, url: str, engine: Engine, *, read_only_reason: Optional[str] = None):
        self.url = url
        self.engine = engine
        self.path = sqlite_path(url)
        self._reader = engine.execution_options(**{_READ: True})
        # Why this save is open read-only (None: it can be written).
        self.read_only_reason = read_only_reason
        # This process's write transactions under way or waiting for the write lock, but background ones.
        self._writers = 0
        self._writers_done = threading.Condition()

    @property
    def read_only(self) -> bool:
        return self.read_only_reason is not None

    @contextmanager
    def session(self, *, write: bool = True, background: bool = False) -> Iterator[Session]:
        """One transaction: commits on success, rolls back on any error.

        `write=False` (or `read()`) for reads: it begins DEFERRED, so it doesn't queue behind a writer.
        `background=True`: a write of long work done in many short transactions (an import): it
        begins only once this process has no other write under way or waiting, so a tap never
        queues behind a row of them (SQLite's lock goes to whoever asks next, not to who waited)."""
        if background:
            with self._writers_done:
                self._writers_done.wait_for(lambda: self._writers == 0, timeout=BACKGROUND_WAIT)
        elif write:
            with self._writers_done:
                self._writers += 1
        try:
            with Session(self.engine if write else self._reader, expire_on_commit=False) as session:
                if not write:
                    event.listen(session, "before_flush", _refuse_flush)
                with session.begin():
                    yield session
        finally:
            if write and not background:
                with self._writers_done:
                    self._writers -= 1
                    if self._writers == 0:
                        self._writers_done.notify_all()

    def read(self):
        """A read-only transaction (BEGIN DEFERRED): a consistent snapshot, never the write lock."""
        return self.session(write=False)

    def check_writable(self) -> None:
        """Commit one tiny write (when the save was last opened), so a read-only file or folder, or a
        full disk, shows at start instead of at the first tap. Raises what the driver raised."""
        from models.tables import Setting

        with self.session() as s:
            row = s.get(Setting, "last_opened") or Setting(key="last_opened")
            row.value = datetime.now(timezone.utc).isoformat()
            s.add(row)

    @property
    def is_sqlite(self) -> bool:
        return self.engine.dialect.name == "sqlite"

    def close(self) -> None:
        self.engine.dispose()


def open_database(url: Optional[str] = None, *, migrate: bool = True, backup_dir: Optional[Path] = None,
                  read_only_fallback: bool = False) -> Database:
    """Open (creating if needed) and migrate to the newest schema. Raises DatabaseError.

    `read_only_fallback`: when an existing save at the newest schema can't be written here (read-only
    file or folder, full disk), open it read-only instead of refusing; `db.read_only_reason` says why."""
    url = url or default_url()
    try:
        parsed = make_url(url)
    except Exception as exc:
        raise DatabaseError(f"{url!r} is not a database URL ({exc}).") from exc
    path = sqlite_path(url)
    revision = None
    try:
        if path is not None:
            revision = check_sqlite_file(path)
            path.parent.mkdir(parents=True, exist_ok=True)
            if revision and revision != head_revision() and backup_dir is not None:
                # Keep a copy of an older save before upgrading it.
                from models.backup import make_backup

                make_backup(path, backup_dir, reason="before-upgrade")
        if parsed.drivername.startswith("sqlite"):
            engine = _sqlite_engine(url)
        else:
            engine = create_engine(url, pool_pre_ping=True)
        db = Database(url, engine)
        try:
            if migrate:
                upgrade(db)
            if read_only_fallback and path is not None:
                try:
                    db.check_writable()
                except (SQLAlchemyError, sqlite3.Error) as exc:
                    if _sqlite_code(exc) not in (_SQLITE_BUSY, _SQLITE_LOCKED):
                        raise  # busy = another program is writing: the save is writable, just not this instant
        except BaseException:
            engine.dispose()
            raise
        return db
    except DatabaseError as exc:
        if not (read_only_fallback and cannot_write(exc)):
            raise
        failure: BaseException = exc
    except (SQLAlchemyError, sqlite3.Error, OSError) as exc:
        if not (read_only_fallback and cannot_write(exc)):
            if path is not None and cannot_write(exc):
                raise DatabaseError(f"The save at {path} can't be opened: {plain_db_error(exc, path)}") from exc
            raise DatabaseError(f"Could not prepare the database at {url}: {plain_db_error(exc, path)}") from exc
        failure = exc
    except Exception as exc:  # a migration that failed for another reason: the transaction was undone
        raise DatabaseError(f"Could not prepare the database at {url}: {exc}") from exc
    # The save can't be written here. Reading it is still worth a lot: the table can see and export.
    why = plain_db_error(failure.__cause__ if isinstance(failure, DatabaseError) and failure.__cause__ else failure, path)
    if path is None or not path.exists() or path.stat().st_size == 0:
        raise DatabaseError(f"There is no save at {path} and none can be made there: {why}")
    return _open_read_only(url, path, why)


def _open_read_only(url: str, path: Path, why: str) -> Database:
    head = head_revision()
    # mode=ro still needs WAL's shared-memory file; where even that can't be made (a read-only
    # folder), immutable=1 reads the main file alone (what a clean shutdown left: the WAL is folded in).
    for options in ("mode=ro", "mode=ro&immutable=1"):
        engine = _sqlite_engine(f"sqlite:///file:{path}?{options}&uri=true", read_only=True)
        try:
            with engine.connect() as conn:
                revision = conn.exec_driver_sql("SELECT version_num FROM alembic_version").scalar()
                conn.exec_driver_sql("SELECT count(*) FROM campaign").scalar()
        except SQLAlchemyError:
            engine.dispose()
            continue
        if revision != head:
            engine.dispose()
            raise DatabaseError(f"The save at {path} needs an upgrade to open, and it can't be written here: {why}")
        return Database(url, engine, read_only_reason=why)
    raise DatabaseError(f"The save at {path} can't be opened, not even to read it: {why}")


@contextmanager
def migrating(db: Database) -> Iterator:
    """One transaction for schema changes, with SQLite's foreign keys OFF and checked at the end.

    Alembic changes a column on SQLite by rebuilding the table (copy, drop, rename); with foreign
    keys on, dropping `campaign` would cascade and delete every action log. PRAGMA foreign_keys is
    ignored inside a transaction, so it is switched on the driver's connection before BEGIN, and
    back on for the pool afterwards. `foreign_key_check` refuses (rolls back) a migration that
    leaves a log row without its campaign."""
    with db.engine.connect() as conn:
        raw = conn.connection.driver_connection if db.is_sqlite else None
        if raw is not None:
            raw.execute("PRAGMA foreign_keys=OFF")
        try:
            with conn.begin():
                yield conn
                if raw is not None:
                    broken = conn.exec_driver_sql("PRAGMA foreign_key_check").fetchall()
                    if broken:
                        tables = ", ".join(sorted({str(r[0]) for r in broken}))
                        raise DatabaseError(f"The upgrade would leave rows of {tables} without the row they "
                                            "belong to; it was undone and the save left as it was.")
        finally:
            if raw is not None:
                raw.execute("PRAGMA foreign_keys=ON")


def upgrade(db: Database, revision: str = "head") -> None:
    from alembic import command
    from alembic.runtime.migration import MigrationContext

    with db._reader.connect() as conn:  # looking needs no write lock (a read-only save gets this far)
        current = MigrationContext.configure(conn).get_current_revision()
        if current and current not in known_revisions():
            raise DatabaseError(f"The database was saved by a newer version of the companion (schema {current}).")
        if not current and inspect(conn).get_table_names() and "campaign" in inspect(conn).get_table_names():
            raise DatabaseError("The database has companion tables but no schema version; it was left untouched.")
        if current == head_revision() and revision == "head":
            return  # nothing to do: no write transaction (a read-only or full disk still opens)
    with migrating(db) as conn:
        command.upgrade(_alembic_config(conn), revision)
