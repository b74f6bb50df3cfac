"""Opening the database safely: refuse what isn't ours, migrate what is, never clobber a file.

SQLite (default) runs in WAL mode and every transaction is BEGIN IMMEDIATE, so one action = one
transaction = one writer at a time. Any SQLAlchemy URL works; PostgreSQL is the supported server.
"""

from __future__ import annotations

import os
import sqlite3
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator, Optional

from sqlalchemy import create_engine, event, inspect
from sqlalchemy.engine import Engine, make_url
from sqlalchemy.pool import StaticPool
from sqlmodel import Session

MIGRATIONS = Path(__file__).parent / "migrations"
SQLITE_HEADER = b"SQLite format 3\x00"


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

    Raises DatabaseError for a file that isn't SQLite, is damaged, belongs to another program,
    or was written by a newer version of this app."""
    if not path.exists() or path.stat().st_size == 0:
        return None
    with open(path, "rb") as f:
        if f.read(16) != SQLITE_HEADER:
            raise DatabaseError(f"{path} is not a companion database (it is not an SQLite file). It was left untouched.")
    try:
        con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            ok = con.execute("PRAGMA quick_check").fetchone()[0]
            if ok != "ok":
                raise DatabaseError(f"{path} is damaged ({ok}). It was left untouched; restore a backup.")
            tables = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='table'")}
            if not tables:
                return None
            if "alembic_version" not in tables:
                raise DatabaseError(f"{path} belongs to another program (no companion schema). It was left untouched.")
            row = con.execute("SELECT version_num FROM alembic_version").fetchone()
        finally:
            con.close()
    except sqlite3.DatabaseError as exc:
        raise DatabaseError(f"{path} can't be read as a database ({exc}). It was left untouched.") from exc
    revision = row[0] if row else None
    if revision and revision not in known_revisions():
        raise DatabaseError(
            f"{path} was saved by a newer version of the companion (schema {revision}). "
            "Update the app to open it; the file was left untouched."
        )
    return revision


def _sqlite_engine(url: str) -> Engine:
    memory = sqlite_path(url) is None
    engine = create_engine(
        url,
        connect_args={"check_same_thread": False, "timeout": 10},
        poolclass=StaticPool if memory else None,
    )

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_conn, _record):
        # Let SQLAlchemy's "begin" below issue BEGIN IMMEDIATE instead of pysqlite's deferred BEGIN.
        dbapi_conn.isolation_level = None
        cur = dbapi_conn.cursor()
        if not memory:
            cur.execute("PRAGMA journal_mode=WAL")
        cur.execute("PRAGMA synchronous=FULL")  # an acknowledged action survives power loss too
        cur.execute("PRAGMA foreign_keys=ON")
        cur.execute("PRAGMA busy_timeout=10000")
        cur.close()

    @event.listens_for(engine, "begin")
    def _on_begin(conn):
        conn.exec_driver_sql("BEGIN IMMEDIATE")

    return engine


class Database:
    """The engine plus helpers. Create with `open_database(url)`."""

    def __init__(self, url: str, engine: Engine):
        self.url = url
        self.engine = engine
        self.path = sqlite_path(url)

    @contextmanager
    def session(self) -> Iterator[Session]:
        """One transaction: commits on success, rolls back on any error."""
        with Session(self.engine, expire_on_commit=False) as session:
            with session.begin():
                yield session

    @property
    def is_sqlite(self) -> bool:
        return self.engine.dialect.name == "sqlite"

    def close(self) -> None:
        self.engine.dispose()


def open_database(url: Optional[str] = None, *, migrate: bool = True, backup_dir: Optional[Path] = None) -> Database:
    """Open (creating if needed) and migrate to the newest schema. Raises DatabaseError."""
    url = url or default_url()
    try:
        parsed = make_url(url)
    except Exception as exc:
        raise DatabaseError(f"{url!r} is not a database URL ({exc}).") from exc
    path = sqlite_path(url)
    revision = None
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
    if migrate:
        try:
            upgrade(db)
        except DatabaseError:
            engine.dispose()
            raise
        except Exception as exc:
            engine.dispose()
            raise DatabaseError(f"Could not prepare the database at {url}: {exc}") from exc
    return db


def upgrade(db: Database, revision: str = "head") -> None:
    from alembic import command
    from alembic.runtime.migration import MigrationContext

    with db.engine.connect() as conn:
        current = MigrationContext.configure(conn).get_current_revision()
        if current and current not in known_revisions():
            raise DatabaseError(f"The database was saved by a newer version of the companion (schema {current}).")
        if not current and inspect(conn).get_table_names() and "campaign" in inspect(conn).get_table_names():
            raise DatabaseError("The database has companion tables but no schema version; it was left untouched.")
    with db.engine.begin() as conn:
        command.upgrade(_alembic_config(conn), revision)
