"""Alembic environment: runs on the connection the app hands in (models.db.upgrade)."""

from alembic import context
from sqlmodel import SQLModel

import models.tables  # noqa: F401  (registers the tables on SQLModel.metadata)

config = context.config
target_metadata = SQLModel.metadata


def run_migrations_online() -> None:
    connection = config.attributes.get("connection")
    if connection is None:
        from sqlalchemy import create_engine

        from models.db import default_url

        engine = create_engine(config.get_main_option("sqlalchemy.url") or default_url())
        with engine.begin() as connection:
            _run(connection)
    else:
        _run(connection)


def _run(connection) -> None:
    context.configure(connection=connection, target_metadata=target_metadata, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


run_migrations_online()
