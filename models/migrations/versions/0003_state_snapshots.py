"""state snapshots: a log row's full state becomes optional, with a compressed snapshot column

Storing the whole state on every row made saves grow with the square of their length. From here
the newest row keeps its state as JSON and every few rows keep a compressed snapshot; the states
between are replayed from the log (companion.log.Store). Existing rows keep their states.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-22
"""
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa


revision: str = '0003'
down_revision: Union[str, None] = '0002'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    with op.batch_alter_table("action_log") as batch:
        batch.alter_column("state", existing_type=sa.JSON(), nullable=True)
        batch.add_column(sa.Column("snapshot", sa.LargeBinary(), nullable=True))


def downgrade() -> None:
    raise NotImplementedError("States dropped from the log can't be put back without replaying every campaign.")
