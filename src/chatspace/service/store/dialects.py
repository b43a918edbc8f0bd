"""What differs between the two database engines, said once: SQLite (the embedded
default) and PostgreSQL (a team's service). Everything else in :mod:`chatspace.service.store`
is the same SQL on both."""

from __future__ import annotations

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite

__all__ = ["WORKSPACE_LOCKS", "in_json_array", "insert", "is_postgres"]

WORKSPACE_LOCKS = 0x77_73_70_63  # "wspc"
"""The first key of the PostgreSQL advisory locks a workspace's write transactions hold
(:mod:`.transactions`); the second is a hash of the workspace."""


def is_postgres(conn: sa.Connection | sa.Engine) -> bool:
    return conn.dialect.name == "postgresql"


def insert(conn: sa.Connection, table: sa.Table) -> postgresql.Insert | sqlite.Insert:
    """The engine's ``INSERT``, which has ``on_conflict_do_nothing()`` on both."""
    return (postgresql.insert if is_postgres(conn) else sqlite.insert)(table)


def in_json_array(conn: sa.Connection, param: str) -> str:
    """SQL for ``IN`` the values of the JSON array bound to ``:param`` (one parameter, so
    that a list of any length stays one query under SQLite's limit on parameters)."""
    # param is a name the store writes, never user text
    if is_postgres(conn):
        return f"IN (SELECT json_array_elements_text(CAST(:{param} AS json)))"
    return f"IN (SELECT value FROM json_each(:{param}))"  # noqa: S608
