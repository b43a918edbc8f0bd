"""The database engine: SQLite in WAL mode, migrated on open."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import sqlalchemy as sa

from .migrations import migrate


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    cursor = dbapi_conn.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=10000")
    cursor.close()


def open_database(url_or_path: str | Path) -> sa.Engine:
    """An engine for a SQLAlchemy URL, or for a SQLite file path; migrations applied."""
    url = str(url_or_path)
    if "://" not in url:
        url = f"sqlite:///{url}"
    engine = sa.create_engine(url, pool_pre_ping=False)
    if engine.dialect.name == "sqlite":
        sa.event.listen(engine, "connect", _sqlite_pragmas)
    migrate(engine)
    return engine
