"""The catalog (companion.catalog): its rows are read from the save once, then kept until a write,
so a screen redrawn on every phone for every change reads nothing (#16); every kind of write is
seen by the next read."""

from __future__ import annotations

from sqlalchemy import event

from companion import catalog, exchange
from tests.helpers import file_store


def _counting_selects(store) -> list[str]:
    seen: list[str] = []

    @event.listens_for(store.db.engine, "before_cursor_execute")
    def count(conn, cursor, statement, *args):
        if statement.lstrip().upper().startswith("SELECT") and "catalog" in statement:
            seen.append(statement)
    return seen


def test_entries_are_read_once_and_every_write_is_seen(tmp_path):
    store = file_store(tmp_path)
    catalog.put(store, "enemy", "drone", "Drone", {"hp": 2})
    reads = _counting_selects(store)
    assert [e.name for e in catalog.entries(store, "enemy")] == ["Drone"]
    assert [e.name for e in catalog.entries(store, "enemy")] == ["Drone"]
    assert len(reads) == 1  # the second read came from memory

    catalog.put(store, "enemy", "ace", "Ace", {"hp": 5})
    assert [e.name for e in catalog.entries(store, "enemy")] == ["Ace", "Drone"]
    catalog.remove(store, "enemy", "drone")
    assert [e.name for e in catalog.entries(store, "enemy")] == ["Ace"]
    payload = {"format": exchange.CATALOG_FORMAT, "version": exchange.VERSION,
               "entries": [{"kind": "enemy", "key": "tank", "name": "Tank", "data": {"hp": 9}}]}
    exchange.import_catalog(store, exchange.json.dumps(payload))
    assert [e.name for e in catalog.entries(store, "enemy")] == ["Ace", "Tank"]
    assert catalog.seed_once(store, "map", [("sample", "Sample", {})]) == 1
    assert catalog.seed_once(store, "map", [("other", "Other", {})]) == 0  # a used kind is left alone
    assert [e.key for e in catalog.entries(store, "map")] == ["sample"]
    store.forget()  # a restore replaced the save: everything is read again
    before = len(reads)
    catalog.entries(store, "enemy")
    assert len(reads) == before + 1


def test_a_read_overtaken_by_a_write_is_not_kept(tmp_path):
    store = file_store(tmp_path)
    catalog.put(store, "enemy", "drone", "Drone", {})

    # A write commits while a read is under way (another phone's import): what that read saw isn't kept.
    writes = []

    @event.listens_for(store.db.engine, "after_cursor_execute")
    def write_meanwhile(conn, cursor, statement, *args):
        if statement.lstrip().upper().startswith("SELECT") and "catalog" in statement and not writes:
            writes.append(statement)
            store.catalog_kept.forget()  # (as a write's commit does: catalog.writing)

    assert [e.name for e in catalog.entries(store, "enemy")] == ["Drone"]
    assert writes and "enemy" not in store.catalog_kept.rows
    catalog.entries(store, "enemy")
    assert "enemy" in store.catalog_kept.rows  # the next read, with no write under way, is kept
