"""The database: SQLModel tables, the engine, and migrations applied at start."""

from models.tables import ActionRow, Campaign, CatalogEntry, Setting
from models.db import Database, DatabaseError, open_database

__all__ = ["ActionRow", "Campaign", "CatalogEntry", "Setting", "Database", "DatabaseError", "open_database"]
