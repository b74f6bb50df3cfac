"""Opening databases: migrations from the first schema, and refusing what isn't ours untouched."""

import sqlite3
from pathlib import Path

import pytest
from sqlalchemy import text

from companion.games.counter.rules import Add
from companion.log import Store
from companion.table import TableNote
from models.backup import list_backups, make_backup, restore_backup
from models.db import DatabaseError, Database, _sqlite_engine, check_sqlite_file, head_revision, open_database, upgrade


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
    exported = export_campaign(store, 1)
    assert exported["legacy_entered_dice"] is True  # a die the table entered on a game roll, before physical dice were an action
    validate_campaign(exported)  # replays with its physical die
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


# --- a backup is a whole save, or it is neither listed as restorable nor restored (#12.1) ----------


def live_save(tmp_path: Path) -> tuple[Path, Store, int]:
    path = tmp_path / "live.sqlite"
    store = Store(open_database(url(path)))
    return path, store, store.create("counter", "Keep me", {})


def test_an_empty_or_table_less_backup_is_marked_unusable_and_never_restored(tmp_path):
    path, store, cid = live_save(tmp_path)
    backups = tmp_path / "backups"
    good = make_backup(path, backups, reason="good")
    empty = backups / "companion-20991231T235959000000Z-000090-start.sqlite"
    empty.write_bytes(b"")  # what a full disk left behind, before backups were written atomically
    table_less = backups / "companion-20991231T235959000000Z-000091-start.sqlite"
    sqlite3.connect(table_less).execute("PRAGMA user_version=1").connection.close()
    half = backups / "companion-20991231T235959000000Z-000092-start.sqlite"
    half.write_bytes(good.read_bytes()[:4096])  # cut short
    listed = {b.path: b for b in list_backups(backups)}
    assert "empty (0 bytes)" in listed[empty].problem
    assert "no companion tables" in listed[table_less].problem
    assert listed[half].problem and not listed[half].usable
    assert listed[good].usable and listed[good].campaigns == 1
    for bad in (empty, table_less, half):
        with pytest.raises(DatabaseError, match="can't be restored"):
            restore_backup(bad, path, backups)
        assert store.get(cid).name == "Keep me"  # the live save is untouched: no "no such table"
    assert not any(b.reason == "before-restore" for b in list_backups(backups))


def test_a_failed_backup_leaves_no_file_behind(tmp_path, monkeypatch):
    import models.backup as backup_module
    from models.backup import BackupFailed

    path, store, _ = live_save(tmp_path)
    backups = tmp_path / "backups"
    make_backup(path, backups)
    before = sorted(p.name for p in backups.iterdir())

    def full_disk(source, target):
        target.write_bytes(b"SQLite format 3\x00" + b"\x00" * 100)  # a few bytes, then the disk filled
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(backup_module, "_copy", full_disk)
    with pytest.raises(BackupFailed, match="disk is full"):
        make_backup(path, backups)
    assert sorted(p.name for p in backups.iterdir()) == before


def test_a_backup_of_an_older_schema_is_upgraded_as_it_is_restored(tmp_path):
    old_path = tmp_path / "old.sqlite"
    old = Database(url(old_path), _sqlite_engine(url(old_path)))
    upgrade(old, "0001")
    with old.engine.begin() as conn:
        conn.execute(text("INSERT INTO campaign (game, name, seed, settings, cursor, head, status, headline, created_at, updated_at)"
                          " VALUES ('counter', 'From 0001', 5, '{}', 0, 0, 'In progress', '', '2026-01-01', '2026-01-01')"))
        conn.execute(text("INSERT INTO action_log (campaign_id, seq, action, dice, events, state, label, context, created_at)"
                          " VALUES (1, 0, '{}', '[]', '[\"Campaign created.\"]', '{\"game\": {\"value\": 0, \"cap\": 100, \"turn\": 1}, \"tray\": []}', 'created', '', '2026-01-01')"))
    old.close()
    path, store, _ = live_save(tmp_path)
    restore_backup(old_path, path, tmp_path / "backups")
    assert [c.name for c in store.list_campaigns()] == ["From 0001"]
    assert store.history(1) == [] and store.log_rows(1)[0].events[0]["kind"] == "text"  # 0002 ran
    with store.db.engine.connect() as conn:
        assert conn.exec_driver_sql("SELECT version_num FROM alembic_version").scalar() == head_revision()


# --- backups: UTC, a sequence number, and the CLI doesn't rotate them out (#12.11) ------------------


def test_backups_are_named_in_utc_and_ordered_by_sequence_even_when_the_clock_goes_back(tmp_path, monkeypatch):
    import models.backup as backup_module
    from datetime import datetime as real_datetime, timedelta, timezone

    path, store, _ = live_save(tmp_path)
    backups = tmp_path / "backups"
    made = [make_backup(path, backups, keep=3) for _ in range(3)]
    assert all(p.name.split("-")[1].endswith("Z") for p in made)

    class ClockWentBack(real_datetime):
        @classmethod
        def now(cls, tz=None):
            return real_datetime.now(tz) - timedelta(days=1)

    monkeypatch.setattr(backup_module, "datetime", ClockWentBack)
    after = make_backup(path, backups, keep=3)
    listed = list_backups(backups)
    assert [b.path for b in listed] == [after, made[2], made[1]]  # the newest is kept, the oldest went
    assert listed[0].seq == 4 and listed[0].made_at.tzinfo is not None
    assert listed[0].made_at < listed[1].made_at  # made "earlier" by the clock, yet the newest


def test_backups_named_before_sequence_numbers_are_still_listed_as_older(tmp_path):
    path, store, _ = live_save(tmp_path)
    backups = tmp_path / "backups"
    old_style = backups / "companion-20260101-120000-000000-start.sqlite"
    backups.mkdir()
    old_style.write_bytes(make_backup(path, tmp_path / "elsewhere").read_bytes())
    new = make_backup(path, backups)
    assert [b.path for b in list_backups(backups)] == [new, old_style]
    assert list_backups(backups)[1].usable


# --- migrations keep every row: foreign keys off, checked after (#12.2) ------------------------------

FIXTURES = Path(__file__).resolve().parent / "fixtures"


def every_row(path: Path) -> dict[str, list]:
    con = sqlite3.connect(path)
    try:
        return {
            "campaign": con.execute("SELECT id, game, name, seed, cursor, head FROM campaign ORDER BY id").fetchall(),
            "action_log": con.execute("SELECT campaign_id, seq, action, dice, state, label FROM action_log "
                                      "ORDER BY campaign_id, seq").fetchall(),
            "catalog": con.execute("SELECT kind, key, name, data FROM catalog ORDER BY id").fetchall(),
            "setting": con.execute("SELECT key FROM setting WHERE key != 'last_opened' ORDER BY key").fetchall(),
        }
    finally:
        con.close()


SAVES = sorted(FIXTURES.glob("save-*.sqlite"))  # one per schema (tests/fixtures/make_saves.py)


def shipped_save(tmp_path: Path, fixture: Path = SAVES[-1]) -> Path:
    """A copy of a save fixture (the newest unless told)."""
    import shutil

    return Path(shutil.copy(fixture, tmp_path / fixture.name))


@pytest.mark.parametrize("fixture", SAVES, ids=[p.stem for p in SAVES])
def test_the_shipped_save_upgrades_through_every_migration_keeping_every_row(tmp_path, fixture):
    from alembic.script import ScriptDirectory

    from models.db import _alembic_config

    path = shipped_save(tmp_path, fixture)
    before = every_row(path)
    assert len(before["campaign"]) == 6 and len(before["action_log"]) > 20
    start = check_sqlite_file(path)
    steps = [r.revision for r in ScriptDirectory.from_config(_alembic_config()).walk_revisions(base=start, head="heads")
             if r.revision != start][::-1]
    db = Database(url(path), _sqlite_engine(url(path)))
    for revision in steps:  # one migration at a time, so a loss names its migration
        upgrade(db, revision)
        assert every_row(path) == before, f"migration {revision} lost or changed rows"
    db.close()
    store = Store(open_database(url(path)))
    assert every_row(path) == before
    for c in store.list_campaigns():
        assert store.load(c.id).campaign.name == c.name


def test_a_save_from_before_0004_plays_on_its_newest_state_moving_apart(tmp_path):
    """Saved at 0003, each campaign's newest row holds its state. After the upgrade every campaign
    loads as it was; the next action moves the newest state into newest_state and clears the row's,
    and undo lands on that state again."""
    path = shipped_save(tmp_path, FIXTURES / "save-0003.sqlite")
    with sqlite3.connect(path) as con:
        kept_on_rows = con.execute("SELECT campaign_id, seq FROM action_log WHERE state IS NOT NULL").fetchall()
    store = Store(open_database(url(path)))
    campaigns = store.list_campaigns()
    assert {cid for cid, _ in kept_on_rows} == {c.id for c in campaigns}
    for c in campaigns:
        before = store.load(c.id)
        if c.game == "counter":
            cursor = store.apply(c.id, Add(amount=1), expected_cursor=c.cursor).cursor
        else:
            cursor = store.apply(c.id, TableNote(text="played on after the upgrade"), expected_cursor=c.cursor).cursor
        store.undo(c.id, expected_cursor=cursor)
        assert store.load(c.id).state == before.state, c.game
    with sqlite3.connect(path) as con:
        assert con.execute("SELECT count(*) FROM action_log WHERE state IS NOT NULL").fetchone()[0] == 0
        assert con.execute("SELECT count(*) FROM newest_state").fetchone()[0] == len(campaigns)


def future_migrations(tmp_path: Path, monkeypatch, body: str) -> None:
    """Today's migrations plus a future one ("future") with `body`, as the app's migration folder."""
    import shutil

    import models.db as db_module

    folder = tmp_path / "migrations"
    shutil.copytree(db_module.MIGRATIONS, folder, ignore=shutil.ignore_patterns("__pycache__"))
    head = head_revision()
    (folder / "versions" / "9999_future.py").write_text(
        f'"""a future change"""\nfrom alembic import op\nimport sqlalchemy as sa\n\n'
        f'revision = "future"\ndown_revision = "{head}"\nbranch_labels = None\ndepends_on = None\n\n\n'
        f"def upgrade():\n{body}\n\n\ndef downgrade():\n    pass\n")
    monkeypatch.setattr(db_module, "MIGRATIONS", folder)


def test_a_migration_that_rebuilds_campaign_keeps_every_action_log(tmp_path, monkeypatch):
    # Alembic's usual way to change a column on SQLite: copy campaign, drop it, rename the copy.
    # With foreign keys on, the drop cascades: every action log row goes with it.
    future_migrations(tmp_path, monkeypatch, '    with op.batch_alter_table("campaign", recreate="always") as b:\n'
                                             '        b.alter_column("name", type_=sa.String(120))')
    path = shipped_save(tmp_path)
    before = every_row(path)
    store = Store(open_database(url(path), backup_dir=tmp_path / "backups"))
    assert check_sqlite_file(path) == "future"
    assert every_row(path) == before
    with store.db.engine.connect() as conn:  # the pool's connections have their foreign keys back on
        assert conn.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
    store.delete(1)  # ... and the cascade still works for a real delete
    assert [r for r in every_row(path)["action_log"] if r[0] == 1] == []


def test_a_migration_that_would_orphan_log_rows_is_undone(tmp_path, monkeypatch):
    future_migrations(tmp_path, monkeypatch, '    op.execute("DELETE FROM campaign WHERE id = 2")')
    path = shipped_save(tmp_path)
    before = every_row(path)
    with pytest.raises(DatabaseError, match="without the row they belong to"):
        open_database(url(path))
    assert every_row(path) == before and check_sqlite_file(path) == SAVES[-1].stem.removeprefix("save-")  # untouched


# --- reads begin DEFERRED: a reader never waits for a writer (#12.6) ---------------------------------


def test_reads_do_not_wait_for_a_writer_and_writes_do(tmp_path):
    import threading
    import time

    from companion.context import AppContext
    from companion.exchange import export_catalog

    path = tmp_path / "c.sqlite"
    ctx = AppContext.open(url(path))
    ctx.store.create("counter", "Busy", {})
    writer = sqlite3.connect(path, isolation_level=None)
    writer.execute("BEGIN IMMEDIATE")  # another process mid-transaction, holding the write lock
    writer.execute("INSERT INTO setting (key, value) VALUES ('other', '1')")
    started = time.monotonic()
    assert ctx.setting("text_scale") == 1.0
    assert export_catalog(ctx.store, "any")["entries"] == []
    with ctx.db.read() as s:
        assert s.exec(text("SELECT count(*) FROM campaign")).scalar() == 1
    assert time.monotonic() - started < 2  # a write session would have waited 10 s, then failed

    done = threading.Event()
    threading.Thread(target=lambda: (ctx.set_setting("text_scale", 1.2), done.set()), daemon=True).start()
    assert not done.wait(0.5)  # a write queues for the lock at BEGIN
    writer.execute("COMMIT")
    assert done.wait(10) and ctx.setting("text_scale") == 1.2


def test_a_read_session_refuses_to_write(tmp_path):
    from models.tables import Setting

    db = open_database(url(tmp_path / "c.sqlite"))
    with pytest.raises(RuntimeError, match="read session can't write"):
        with db.read() as s:
            s.add(Setting(key="x", value=1))
    with db.read() as s:
        assert s.get(Setting, "x") is None


def test_a_bit_flipped_backup_is_listed_in_words_not_sqlite_s(tmp_path):
    from companion.games.counter.rules import Add

    path, store, cid = live_save(tmp_path)
    for i in range(200):  # enough rows for a few b-tree pages
        store.apply(cid, Add(amount=1 if i % 2 == 0 else -1), expected_cursor=i)
    backup = make_backup(path, tmp_path / "backups", reason="test")
    data = bytearray(backup.read_bytes())
    for offset in range(4096 * 2 + 100, len(data), 4096 * 3):  # bits flipped inside its pages, its header intact
        data[offset] ^= 0xFF
    backup.write_bytes(bytes(data))
    listed = next(b for b in list_backups(tmp_path / "backups") if b.path == backup)
    said = str(listed.problem)
    assert said.startswith("Unusable: it is damaged") or said.startswith("Unusable: it can't be read"), said
    assert "***" not in said and "page" not in said.lower() and "sqlite3" not in said, said


def test_a_campaign_set_past_its_log_says_so_on_open(tmp_path):
    from companion.games.counter.rules import Add
    from models.db import is_database_error, plain_db_error

    path, store, cid = live_save(tmp_path)
    store.apply(cid, Add(amount=1), expected_cursor=0)
    con = sqlite3.connect(path)
    con.execute("UPDATE campaign SET cursor = 7, head = 7 WHERE id = ?", (cid,))  # another program's edit
    con.commit()
    con.close()
    with pytest.raises(Exception) as refused:
        Store(open_database(url(path))).load(cid)
    assert is_database_error(refused.value)  # the app shows it as a screen with "Try again", not a crash
    assert str(plain_db_error(refused.value)) == ("The campaign “Keep me” is damaged: it is set at action 7, but its log "
                                                  "ends at action 1. Restore a backup (Settings → Backups), or delete it.")
