"""importing: a campaign being imported is written in short transactions, hidden until complete

An import of a long campaign used to hold the write lock from its first row to its commit, so every
other phone's tap waited for the whole of it. From here its rows are written in chunks, each its
own transaction, under a campaign row marked `importing`: no list shows it and nothing opens it,
and the last transaction clears the mark, so players see the whole campaign or none of it. A cancel
or failure deletes the marked rows; the app deletes any a crash left when it starts.

Every campaign saved before is complete: the column starts false for all of them.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-28
"""
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa


revision: str = '0005'
down_revision: Union[str, None] = '0004'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    # A plain ADD COLUMN with a constant default (no table rebuild on SQLite).
    op.add_column("campaign", sa.Column("importing", sa.Boolean(), nullable=False, server_default=sa.false()))


def downgrade() -> None:
    # A half-imported campaign was never a player's: it goes (foreign keys are off while migrating).
    for table in ("action_log", "newest_state"):
        op.execute(f"DELETE FROM {table} WHERE campaign_id IN (SELECT id FROM campaign WHERE importing)")
    op.execute("DELETE FROM campaign WHERE importing")
    with op.batch_alter_table("campaign") as batch:
        batch.drop_column("importing")
