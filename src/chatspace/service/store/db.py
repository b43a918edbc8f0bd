"""The database engine, migrated on open: SQLite in WAL mode (the embedded default) or
PostgreSQL through psycopg 3 (a team's service, its replicas sharing one database)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import sqlalchemy as sa

from . import StoreUnavailable
from .migrations import migrate

__all__ = ["DatabaseUnavailable", "open_database"]


class DatabaseUnavailable(StoreUnavailable):
    """The database cannot be reached or used at start."""


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
    if url.startswith("postgresql"):
        # a connection per request thread in flight (AnyIO's pool has 40); a server
        # restarted under a running service costs one failed ping, not one failed request
        # psycopg prepares a statement run five times on a connection; PostgreSQL then may
        # plan it once for any parameters, and such a generic plan computes a search's
        # tsquery (a function of them) on every row: 2.5x the candidates query
        # (benchmarks/results/results-team-full.md, 8g). Plans stay per parameters.
        custom = {"options": "-c plan_cache_mode=force_custom_plan"}
        engine = sa.create_engine(
            url, pool_pre_ping=True, pool_size=10, max_overflow=30, connect_args=custom
        )
    else:
        engine = sa.create_engine(url)
        sa.event.listen(engine, "connect", _sqlite_pragmas)
    try:
        migrate(engine)
    except sa.exc.OperationalError as exc:
        engine.dispose()
        where = engine.url.render_as_string(hide_password=True)
        reason = str(exc.orig).strip().splitlines()[0] if exc.orig else type(exc).__name__
        raise DatabaseUnavailable(f"The database {where} cannot be used: {reason}") from None
    return engine
