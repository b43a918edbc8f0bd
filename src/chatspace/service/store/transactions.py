"""Transactions that read and then write, safely under concurrent requests.

Python's ``sqlite3`` (in its default mode, which SQLAlchemy keeps) opens a transaction only
at the first INSERT/UPDATE/DELETE, so the reads before it see no snapshot and take no lock:
"check that the id is free, then insert" could race. :func:`write_transaction` starts
SQLite transactions with ``BEGIN IMMEDIATE`` instead, so a writer holds the write lock
from its first read and concurrent writers queue (``busy_timeout``) rather than interleave.

PostgreSQL (read committed) has the same race, between replicas too; a write transaction
there first takes one transaction-level advisory lock, so that writers queue the same way
on every engine and the operations need no second reasoning about isolation. Reads take
no lock on either engine.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import sqlalchemy as sa

from .dialects import WRITE_LOCK, is_postgres

__all__ = ["write_transaction"]


@contextmanager
def write_transaction(engine: sa.Engine, *, queue: bool = True) -> Iterator[sa.Connection]:
    """A connection in a transaction that commits on success and rolls back on error.

    ``queue=False`` is for writes whose statements guard themselves (an upsert with a
    condition, which locks the row it writes): on PostgreSQL they skip the writers' queue;
    SQLite has one writer at a time whatever is asked.

    Example::

        with write_transaction(state.db) as conn:
            if exists(conn, ...):
                raise Conflict(...)
            insert(conn, ...)
    """
    with engine.begin() as conn:
        if not is_postgres(conn):
            conn.exec_driver_sql("BEGIN IMMEDIATE")
        elif queue:
            conn.execute(sa.text("SELECT pg_advisory_xact_lock(:k)"), {"k": WRITE_LOCK})
        yield conn
