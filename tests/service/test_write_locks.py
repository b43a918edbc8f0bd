"""Who waits for whom among write transactions (store/transactions.py), on the run's
engine: on PostgreSQL writers in different workspaces run side by side and writers in
one workspace queue, except those that only add rows (shared); SQLite has one writer at a
time."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager

import pytest
import sqlalchemy as sa

from chatspace.service.store.db import open_database
from chatspace.service.store.transactions import write_transaction

DEADLINE = 30.0
"""Seconds a step may take before the test calls it stuck (a failure, never a wait)."""


@pytest.fixture
def db(database_url: str) -> Iterator[sa.Engine]:
    engine = open_database(database_url)
    yield engine
    engine.dispose()


@contextmanager
def _held(db: sa.Engine, *, shared: bool) -> Iterator[threading.Event]:
    """A write transaction in workspace ``o/a`` held open in a thread until the event is set."""
    entered, release = threading.Event(), threading.Event()

    def hold() -> None:
        with write_transaction(db, workspace=("o", "a"), shared=shared) as conn:
            conn.execute(sa.text("SELECT 1"))
            entered.set()
            release.wait(DEADLINE)

    with ThreadPoolExecutor(1) as pool:
        held = pool.submit(hold)
        assert entered.wait(DEADLINE)
        yield release
        release.set()
        held.result(DEADLINE)


@pytest.fixture
def holding(db: sa.Engine) -> Iterator[threading.Event]:
    with _held(db, shared=False) as release:
        yield release


@pytest.fixture
def holding_shared(db: sa.Engine) -> Iterator[threading.Event]:
    with _held(db, shared=True) as release:
        yield release


def _write(db: sa.Engine, org: str, workspace: str, *, shared: bool = False) -> str:
    with write_transaction(db, workspace=(org, workspace), shared=shared) as conn:
        return str(conn.execute(sa.text("SELECT 'written'")).scalar())


def _waits_for_a_lock(db: sa.Engine, writer: Future[str]) -> bool:
    """Whether ``writer`` is found waiting for an advisory lock before it finishes (a
    lock wait has no event to await from outside: PostgreSQL's lock table is polled)."""
    query = "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted"
    pause = threading.Event()
    while not writer.done():
        with db.connect() as conn:
            if conn.exec_driver_sql(query).scalar():
                return True
        pause.wait(0.01)
    return False


@pytest.mark.postgres_only
@pytest.mark.usefixtures("holding")
def test_writers_in_another_workspace_or_organization_do_not_wait(db: sa.Engine) -> None:
    with ThreadPoolExecutor(2) as pool:
        other_workspace = pool.submit(_write, db, "o", "b")
        other_org = pool.submit(_write, db, "p", "a")
        assert other_workspace.result(DEADLINE) == "written"
        assert other_org.result(DEADLINE) == "written"


@pytest.mark.postgres_only
def test_a_writer_in_the_same_workspace_waits_for_the_first(
    db: sa.Engine, holding: threading.Event
) -> None:
    with ThreadPoolExecutor(1) as pool:
        same = pool.submit(_write, db, "o", "a")
        assert _waits_for_a_lock(db, same)
        holding.set()
        assert same.result(DEADLINE) == "written"


@pytest.mark.postgres_only
@pytest.mark.usefixtures("holding_shared")
def test_writers_that_only_add_rows_run_side_by_side_in_one_workspace(db: sa.Engine) -> None:
    """Stored completions: each adds rows of its own, so they share the workspace's lock."""
    with ThreadPoolExecutor(1) as pool:
        assert pool.submit(_write, db, "o", "a", shared=True).result(DEADLINE) == "written"


@pytest.mark.postgres_only
def test_a_writer_waits_for_those_that_only_add_rows_and_they_for_it(db: sa.Engine) -> None:
    with _held(db, shared=True) as release, ThreadPoolExecutor(1) as pool:
        exclusive = pool.submit(_write, db, "o", "a")
        assert _waits_for_a_lock(db, exclusive)
        release.set()
        assert exclusive.result(DEADLINE) == "written"
    with _held(db, shared=False) as release, ThreadPoolExecutor(1) as pool:
        adding = pool.submit(_write, db, "o", "a", shared=True)
        assert _waits_for_a_lock(db, adding)
        release.set()
        assert adding.result(DEADLINE) == "written"


@pytest.mark.sqlite_only
@pytest.mark.usefixtures("holding")
def test_sqlite_has_one_writer_whatever_the_workspace(db: sa.Engine) -> None:
    raw = sqlite3.connect(db.url.database or "", timeout=0)  # a writer that would not wait
    try:
        with pytest.raises(sqlite3.OperationalError, match="locked"):
            raw.execute("BEGIN IMMEDIATE")
    finally:
        raw.close()
