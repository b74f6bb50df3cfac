"""Small fixtures shared by the store tests."""

from __future__ import annotations

from pathlib import Path

from companion.log import Store
from models.db import open_database


def file_store(tmp_path: Path, name: str = "t.sqlite") -> Store:
    return Store(open_database(f"sqlite:///{tmp_path / name}"))


def memory_store() -> Store:
    return Store(open_database("sqlite://"))


def percent_suffix(tag: str) -> str:
    """What the locale's percent pattern writes after the number ('%' in English, '\\xa0%' in German),
    read from the installed Babel's CLDR data: tests compare with that, not with a glyph copied from
    one CLDR release (#27)."""
    from babel import Locale
    pattern = Locale.parse(tag).percent_formats[None].pattern  # '#,##0%' / '#,##0\xa0%'
    return pattern[pattern.rindex("0") + 1:]


DE_PERCENT = percent_suffix("de")
