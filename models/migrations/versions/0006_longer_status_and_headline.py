"""status 400, headline 600: a campaign's status and headline are kept as their message (its id and
values, as JSON) so each phone reads them in its own language; a message longer than the column was
kept as its English ("Ana wins (last host standing)" on a German phone). The columns now hold the
longest message a game makes, with the players' names in it.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-28
"""
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa


revision: str = '0006'
down_revision: Union[str, None] = '0005'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    # SQLite ignores a VARCHAR's length (no table rebuild needed there); PostgreSQL enforces it.
    if op.get_bind().dialect.name == "sqlite":
        return
    op.alter_column("campaign", "status", type_=sa.String(length=400), existing_nullable=False)
    op.alter_column("campaign", "headline", type_=sa.String(length=600), existing_nullable=False)


def downgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        return
    # A message too long for the old column can't be cut (it is JSON): it goes blank until the next action.
    op.execute("UPDATE campaign SET status = '' WHERE length(status) > 80")
    op.execute("UPDATE campaign SET headline = '' WHERE length(headline) > 200")
    op.alter_column("campaign", "status", type_=sa.String(length=80), existing_nullable=False)
    op.alter_column("campaign", "headline", type_=sa.String(length=200), existing_nullable=False)
