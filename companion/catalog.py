"""Catalogs a table enters once and shares: Biosphere 5 cards, Human Ethos maps and enemy types.

Stored in the `catalog` table as (kind, key) → name + JSON data; exported/imported as files or QR
text by `companion.exchange`. Games validate their own entries (pure code in their rules modules)."""

from __future__ import annotations

from contextlib import contextmanager
from datetime import datetime, timezone
from typing import Any, Iterable, Iterator, Optional

from sqlmodel import select

from companion.log import Store
from models.tables import CatalogEntry


def entries(store: Store, kind: str) -> list[CatalogEntry]:
    """A kind's entries, by name. Kept in memory after the first read until a catalog write (see
    `changed`): game screens read them with every redraw, on every phone (Human Ethos' enemy types,
    Biosphere 5's cards), and a change mustn't cost each phone a read of the save. Read-only rows."""
    kept = store.catalog_kept
    rows = kept.rows.get(kind)
    if rows is None:
        generation = kept.generation
        with store.db.read() as s:  # reads never wait for a writer
            rows = tuple(s.exec(select(CatalogEntry).where(CatalogEntry.kind == kind).order_by(CatalogEntry.name)))
        kept.keep(kind, rows, generation)  # unless a write came meanwhile
    return list(rows)


@contextmanager
def writing(store: Store) -> Iterator:
    """One write transaction on the catalog (every write goes through here): once it has committed
    or failed, the kept rows go, so the next read sees it."""
    try:
        with store.db.session() as s:
            yield s
    finally:
        store.catalog_kept.forget()


def get(store: Store, kind: str, key: str) -> Optional[CatalogEntry]:
    with store.db.read() as s:
        return s.exec(select(CatalogEntry).where(CatalogEntry.kind == kind, CatalogEntry.key == key)).first()


def put(store: Store, kind: str, key: str, name: str, data: dict[str, Any]) -> None:
    """Add or replace one entry (one transaction)."""
    with writing(store) as s:
        row = s.exec(select(CatalogEntry).where(CatalogEntry.kind == kind, CatalogEntry.key == key)).first()
        row = row or CatalogEntry(kind=kind, key=key, name=name)
        row.name, row.data, row.updated_at = name, data, datetime.now(timezone.utc)
        s.add(row)


def remove(store: Store, kind: str, key: str) -> None:
    with writing(store) as s:
        row = s.exec(select(CatalogEntry).where(CatalogEntry.kind == kind, CatalogEntry.key == key)).first()
        if row is not None:
            s.delete(row)


def seed_once(store: Store, kind: str, items: Iterable[tuple[str, str, dict]]) -> int:
    """Fill an empty catalog kind with the shipped starting entries; leaves a used one alone."""
    if entries(store, kind):
        return 0  # (known from the kept rows: no write transaction for the check)
    with writing(store) as s:
        if s.exec(select(CatalogEntry).where(CatalogEntry.kind == kind)).first() is not None:
            return 0
        count = 0
        for key, name, data in items:
            s.add(CatalogEntry(kind=kind, key=key, name=name, data=data))
            count += 1
        return count
