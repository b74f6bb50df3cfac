"""newest state: the state after a campaign's newest action moves to a table of its own

Until now the newest log row held its state as JSON and the next action cleared it: every row was
written twice, and each cleared state left a hole in the file that later rows never filled (a
Biosphere 5 save shrank by a quarter when vacuumed). From here a log row is written once; the state
after the newest action is one row per campaign in `newest_state`, rewritten in place.

No data moves: a campaign saved before keeps its newest state on its row, where the store still
reads it, and its next action moves it over.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-24
"""
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa


revision: str = '0004'
down_revision: Union[str, None] = '0003'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    op.create_table(
        "newest_state",
        sa.Column("campaign_id", sa.Integer(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("state", sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(["campaign_id"], ["campaign.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("campaign_id"),
    )


def downgrade() -> None:
    raise NotImplementedError("A newest state kept apart can't be put back on its row by a schema change.")
