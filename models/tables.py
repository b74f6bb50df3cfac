"""SQLModel tables. JSON columns hold pydantic-dumped game data; the log is the save."""

from __future__ import annotations

import json
import zlib
from datetime import datetime, timezone
from typing import Any, Optional

from sqlalchemy import JSON, BigInteger, Boolean, Column, Index, LargeBinary, Text, UniqueConstraint, false
from sqlalchemy.types import TypeDecorator
from sqlmodel import Field, SQLModel


def utcnow() -> datetime:
    return datetime.now(timezone.utc)


class PackedJSON(TypeDecorator):
    """JSON kept zlib-compressed in SQLite: a log's typed events say their sentences as message
    JSON (Biosphere 5's Machine explains every rule it weighed), and compressed they take a third of
    the room. A value saved before as plain JSON text is read as it is. Other databases keep JSON."""

    impl = JSON
    cache_ok = True

    def load_dialect_impl(self, dialect):
        # Text: SQLite hands back what it holds (a blob, or an older row's text) unconverted.
        return dialect.type_descriptor(Text() if dialect.name == "sqlite" else JSON())

    def process_bind_param(self, value, dialect):
        if dialect.name != "sqlite" or value is None:
            return value
        return zlib.compress(json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode(), 6)

    def process_result_value(self, value, dialect):
        if isinstance(value, bytes):
            return json.loads(zlib.decompress(value))
        if isinstance(value, str):  # written before (plain JSON)
            return json.loads(value)
        return value


class Campaign(SQLModel, table=True):
    """One saved game. `cursor` is the log position in effect (undo moves it back)."""

    id: Optional[int] = Field(default=None, primary_key=True)
    game: str = Field(max_length=40, index=True)
    name: str = Field(max_length=80)
    seed: int = Field(sa_column=Column(BigInteger, nullable=False))
    settings: dict[str, Any] = Field(default_factory=dict, sa_column=Column(JSON, nullable=False))
    cursor: int = 0  # actions 1..cursor are in effect; 0 = just created
    head: int = 0  # the last logged action (cursor < head after an undo)
    status: str = Field(default="In progress", max_length=400)  # a message as JSON (migration 0006)
    headline: str = Field(default="", max_length=600)
    created_at: datetime = Field(default_factory=utcnow)
    updated_at: datetime = Field(default_factory=utcnow, index=True)
    # True while an import writes its log in chunks (companion.exchange): hidden from every list and
    # screen until its last chunk clears it, deleted if the import stops (migration 0005).
    importing: bool = Field(default=False, sa_column=Column(Boolean, nullable=False, server_default=false()))


class ActionRow(SQLModel, table=True):
    """One applied action: what was done, the dice it used, what happened (and some states: below).

    Row seq 0 of every campaign is its setup (its snapshot: the starting state)."""

    __tablename__ = "action_log"
    __table_args__ = (UniqueConstraint("campaign_id", "seq"),)

    id: Optional[int] = Field(default=None, primary_key=True)
    campaign_id: int = Field(foreign_key="campaign.id", ondelete="CASCADE")
    seq: int
    action: dict[str, Any] = Field(default_factory=dict, sa_column=Column(JSON, nullable=False))
    dice: list[Any] = Field(default_factory=list, sa_column=Column(JSON, nullable=False))
    # typed events: {"kind", "text", "data"} (migration 0002 turned older plain sentences into kind "text")
    # (kept compressed: PackedJSON)
    events: list[Any] = Field(default_factory=list, sa_column=Column(PackedJSON, nullable=False))
    # The state after the action is kept only where it's needed (see companion.log): every
    # SNAPSHOT_EVERY rows compressed, and the newest in NewestState; other states are replayed from
    # the nearest one before. A row is written once and never changed. (Saves made before 0004 kept
    # the newest state here, and before 0003 a state on every row; those still count.)
    state: Optional[dict[str, Any]] = Field(default=None, sa_column=Column(JSON(none_as_null=True), nullable=True))
    snapshot: Optional[bytes] = Field(default=None, sa_column=Column(LargeBinary, nullable=True))
    label: str = Field(default="", sa_column=Column(Text, nullable=False))  # "interest +5"
    context: str = Field(default="", sa_column=Column(Text, nullable=False))  # "Turn 2 · Credstick"
    created_at: datetime = Field(default_factory=utcnow)


class NewestState(SQLModel, table=True):
    """The state after a campaign's newest action (row `seq`, its head), rewritten by each action.

    Kept apart from the log so that log rows are written once and never changed: a row written with
    its state and cleared by the next action left a hole in the file that later rows never filled."""

    __tablename__ = "newest_state"

    campaign_id: int = Field(primary_key=True, foreign_key="campaign.id", ondelete="CASCADE")
    seq: int
    state: dict[str, Any] = Field(sa_column=Column(JSON, nullable=False))


class CatalogEntry(SQLModel, table=True):
    """Data a table enters once and shares: Biosphere 5 cards, Human Ethos maps and enemy types."""

    __tablename__ = "catalog"
    __table_args__ = (UniqueConstraint("kind", "key"), Index("ix_catalog_kind", "kind"))

    id: Optional[int] = Field(default=None, primary_key=True)
    kind: str = Field(max_length=40)
    key: str = Field(max_length=80)
    name: str = Field(max_length=120)
    data: dict[str, Any] = Field(default_factory=dict, sa_column=Column(JSON, nullable=False))
    updated_at: datetime = Field(default_factory=utcnow)


class Setting(SQLModel, table=True):
    """App-wide settings (text size, keep awake, ...), one JSON value per key."""

    key: str = Field(primary_key=True, max_length=80)
    value: Any = Field(default=None, sa_column=Column(JSON))
