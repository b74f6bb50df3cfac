"""Opening databases: migrations from the first schema, and refusing what isn't ours untouched."""

import sqlite3
from pathlib import Path

import pytest
from sqlalchemy import text

from companion.games.counter.rules import Add
from companion.log import Store
from models.backup import list_backups, make_backup, restore_backup
from models.db import DatabaseError, Database, _sqlite_engine, head_revision, open_database, upgrade


def url(path: Path) -> str:
    return f"sqlite:///{path}"


def test_a_new_database_is_created_at_the_newest_schema_in_wal_mode(tmp_path):
    db = open_database(url(tmp_path / "new" / "c.sqlite"))
    with db.engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
        assert conn.exec_driver_sql("SELECT version_num FROM alembic_version").scalar() == head_revision()


def test_a_database_made_at_the_first_revision_opens_with_the_newest_code(tmp_path):
    path = tmp_path / "old.sqlite"
    old = Database(url(path), _sqlite_engine(url(path)))
    upgrade(old, "0001")
    with old.engine.begin() as conn:  # a save written by the first version
        conn.execute(text("INSERT INTO campaign (game, name, seed, settings, cursor, head, status, headline, created_at, updated_at)"
                          " VALUES ('counter', 'Old save', 5, '{}', 0, 0, 'In progress', '', '2026-01-01', '2026-01-01')"))
        conn.execute(text("INSERT INTO action_log (campaign_id, seq, action, dice, events, state, label, context, created_at)"
                          " VALUES (1, 0, '{}', '[]', '[]', '{\"game\": {\"value\": 0, \"cap\": 100, \"turn\": 1}, \"tray\": []}', 'created', '', '2026-01-01')"))
    old.close()
    store = Store(open_database(url(path), backup_dir=tmp_path / "backups"))
    assert store.load(1).campaign.name == "Old save"
    store.apply(1, Add(amount=1), expected_cursor=0)


def test_events_saved_as_sentences_before_the_game_contract_become_typed_and_still_replay(tmp_path):
    from companion.exchange import export_campaign, validate_campaign
    from companion.games.base import Event

    path = tmp_path / "old.sqlite"
    old = Database(url(path), _sqlite_engine(url(path)))
    upgrade(old, "0001")
    with old.engine.begin() as conn:  # a save of the first version: a roll, its die, its sentence
        conn.execute(text("INSERT INTO campaign (game, name, seed, settings, cursor, head, status, headline, created_at, updated_at)"
                          " VALUES ('counter', 'Old save', 5, '{\"start\": 0, \"cap\": 100}', 1, 1, 'In progress', '', '2026-01-01', '2026-01-01')"))
        conn.execute(text("INSERT INTO action_log (campaign_id, seq, action, dice, events, state, label, context, created_at)"
                          " VALUES (1, 0, '{}', '[]', '[\"Campaign created.\"]', '{\"game\": {\"value\": 0, \"cap\": 100, \"turn\": 1}, \"tray\": []}', 'created', '', '2026-01-01')"))
        conn.execute(text("INSERT INTO action_log (campaign_id, seq, action, dice, events, state, label, context, created_at)"
                          " VALUES (1, 1, '{\"kind\": \"roll\"}', '[[6, 4, 1]]', '[\"Rolled 4: counter → 4.\"]', "
                          "'{\"game\": {\"value\": 4, \"cap\": 100, \"turn\": 2}, \"tray\": []}', 'roll a d6', '', '2026-01-01')"))
    old.close()
    store = Store(open_database(url(path), backup_dir=tmp_path / "backups"))
    row = store.history(1)[0]
    assert row.events == [{"kind": "text", "text": "Rolled 4: counter → 4.", "data": {}}]
    assert Event.coerce(row.events[0]).text == "Rolled 4: counter → 4."
    validate_campaign(export_campaign(store, 1))  # replays with its physical die
    store.apply(1, Add(amount=1), expected_cursor=1)


def refuse(path: Path, match: str):
    before = path.read_bytes()
    with pytest.raises(DatabaseError, match=match):
        open_database(url(path))
    assert path.read_bytes() == before  # never overwritten or truncated


def test_a_file_that_is_not_sqlite_is_refused_untouched(tmp_path):
    path = tmp_path / "notes.sqlite"
    path.write_bytes(b"shopping list: eggs, milk\n" * 50)
    refuse(path, "not an SQLite file")


def test_a_corrupt_database_is_refused_untouched(tmp_path):
    path = tmp_path / "c.sqlite"
    store = Store(open_database(url(path)))
    for i in range(50):
        cid = store.create("counter", f"c{i}", {})
    store.db.close()
    con = sqlite3.connect(path)
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    con.close()
    data = bytearray(path.read_bytes())
    for offset in range(4096 + 100, len(data), 997):
        data[offset] ^= 0xFF
    path.write_bytes(bytes(data))
    refuse(path, "damaged|can't be read")


def test_another_programs_database_is_refused_untouched(tmp_path):
    path = tmp_path / "other.sqlite"
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE recipes (name TEXT)")
    con.commit()
    con.close()
    refuse(path, "another program")


def test_a_database_from_a_newer_version_is_refused_untouched(tmp_path):
    path = tmp_path / "future.sqlite"
    open_database(url(path)).close()
    con = sqlite3.connect(path)
    con.execute("UPDATE alembic_version SET version_num = '9999_from_the_future'")
    con.commit()
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    con.close()
    refuse(path, "newer version")


def test_a_bad_url_is_refused():
    with pytest.raises(DatabaseError):
        open_database("not a url at all")


def test_backups_rotate_and_restore(tmp_path):
    path = tmp_path / "c.sqlite"
    store = Store(open_database(url(path)))
    backups = tmp_path / "backups"
    cid = store.create("counter", "Before", {})
    first = make_backup(path, backups, reason="test")
    store.rename(cid, "After")
    for _ in range(10):
        make_backup(path, backups, keep=3)
    kept = list_backups(backups)
    assert len(kept) == 3 and first not in [b.path for b in kept]
    store.rename(cid, "Latest")
    snapshot = make_backup(path, backups, reason="snap", keep=20)
    store.rename(cid, "Changed again")
    restore_backup(snapshot, path, backups)
    assert store.get(cid).name == "Latest"
    assert any(b.reason == "before-restore" for b in list_backups(backups))
