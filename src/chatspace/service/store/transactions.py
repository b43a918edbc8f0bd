"""Transactions that read and then write, safely under concurrent requests.

Python's ``sqlite3`` (in its default mode, which SQLAlchemy keeps) opens a transaction only
at the first INSERT/UPDATE/DELETE, so the reads before it see no snapshot and take no lock:
"check that the id is free, then insert" could race. :func:`write_transaction` starts
SQLite transactions with ``BEGIN IMMEDIATE`` instead, so a writer holds the write lock
from its first read and concurrent writers queue (``busy_timeout``) rather than interleave.

PostgreSQL (read committed) has the same race, between replicas too. There a write
transaction in a workspace first takes that workspace's transaction-level advisory lock:
writers in one workspace queue as on SQLite (every check-then-write of the service is about
one workspace: its members, its files, a name or an id in it), while writers in different
workspaces or organizations run side by side. A transaction that only adds rows of its
own and checks nothing (storing a completion) takes the lock shared: such transactions
run side by side, and wait only for the workspace's other writers. What spans workspaces
guards itself with the database's own means: unique keys and ``INSERT ... ON CONFLICT``
(idempotency keys, ids), row locks of ``UPDATE``/``DELETE`` (vectors, expired keys, rate
counts). Reads take no lock on either engine.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import sqlalchemy as sa

from .dialects import WORKSPACE_LOCKS, is_postgres

__all__ = ["write_transaction"]


@contextmanager
def write_transaction(
    engine: sa.Engine, *, workspace: tuple[str, str] | None = None, shared: bool = False
) -> Iterator[sa.Connection]:
    """A connection in a transaction that commits on success and rolls back on error.

    ``workspace`` (organization and workspace id): the transaction checks, then writes,
    in that workspace, so it waits for the workspace's other writers on PostgreSQL. None
    is for writes whose statements guard themselves (an upsert, an ``UPDATE`` or
    ``DELETE`` of rows by key, which locks the rows it writes). ``shared``: the
    transaction only adds rows of its own (new ids) and reads nothing it must hold still,
    so it runs beside others that say so and waits for the workspace's other writers.
    SQLite has one writer at a time whatever is asked.

    Example::

        with write_transaction(state.db, workspace=(org_id, workspace_id)) as conn:
            if exists(conn, ...):
                raise Conflict(...)
            insert(conn, ...)
    """
    with engine.begin() as conn:
        if not is_postgres(conn):
            conn.exec_driver_sql("BEGIN IMMEDIATE")
        elif workspace is not None:
            # the two-key form: (namespace, hash of the workspace); a hash collision only
            # makes two workspaces queue together
            lock = "pg_advisory_xact_lock_shared" if shared else "pg_advisory_xact_lock"
            conn.execute(
                sa.text(f"SELECT {lock}(:ns, hashtext(:org || '/' || :ws))"),
                {"ns": WORKSPACE_LOCKS, "org": workspace[0], "ws": workspace[1]},
            )
        yield conn
