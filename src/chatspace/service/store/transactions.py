"""Transactions that read and then write, safely under concurrent requests.

Python's ``sqlite3`` (in its default mode, which SQLAlchemy keeps) opens a transaction only
at the first INSERT/UPDATE/DELETE, so the reads before it see no snapshot and take no lock:
"check that the id is free, then insert" could race. :func:`write_transaction` starts
SQLite transactions with ``BEGIN IMMEDIATE`` instead, so a writer holds the write lock
from its first read and concurrent writers queue (``busy_timeout``) rather than interleave.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import sqlalchemy as sa

__all__ = ["write_transaction"]


@contextmanager
def write_transaction(engine: sa.Engine) -> Iterator[sa.Connection]:
    """A connection in a transaction that commits on success and rolls back on error.

    Example::

        with write_transaction(state.db) as conn:
            if exists(conn, ...):
                raise Conflict(...)
            insert(conn, ...)
    """
    with engine.begin() as conn:
        if conn.dialect.name == "sqlite":
            conn.exec_driver_sql("BEGIN IMMEDIATE")
        yield conn
