"""Small fixtures shared by the store tests."""

from __future__ import annotations

from pathlib import Path

from companion.log import Store
from models.db import open_database


def file_store(tmp_path: Path, name: str = "t.sqlite") -> Store:
    return Store(open_database(f"sqlite:///{tmp_path / name}"))


def memory_store() -> Store:
    return Store(open_database("sqlite://"))
