"""typed events: each logged event becomes {"kind", "text", "data"}

Saves made before the game contract stored events as plain sentences; they become kind "text"
(their words are kept as they were). Only rows still holding a sentence are rewritten.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-22
"""
import json
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa


revision: str = '0002'
down_revision: Union[str, None] = '0001'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None

_log = sa.table("action_log", sa.column("id", sa.Integer), sa.column("events", sa.JSON))


def upgrade() -> None:
    bind = op.get_bind()
    rows = bind.execute(sa.select(_log.c.id, _log.c.events)).fetchall()
    for row_id, events in rows:
        if isinstance(events, str):  # a driver that hands JSON back as text
            events = json.loads(events)
        if not any(isinstance(e, str) for e in events or []):
            continue
        typed = [{"kind": "text", "text": e, "data": {}} if isinstance(e, str) else e for e in events]
        bind.execute(_log.update().where(_log.c.id == row_id).values(events=typed))


def downgrade() -> None:
    bind = op.get_bind()
    rows = bind.execute(sa.select(_log.c.id, _log.c.events)).fetchall()
    for row_id, events in rows:
        if isinstance(events, str):
            events = json.loads(events)
        plain = [e["text"] if isinstance(e, dict) else e for e in events or []]
        bind.execute(_log.update().where(_log.c.id == row_id).values(events=plain))
