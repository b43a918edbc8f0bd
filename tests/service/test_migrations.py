"""Schema migrations: a blank database (SQLite, or PostgreSQL with ``--engine postgres``)
migrates to exactly the tables of ``schema.py``, a second run changes nothing, replicas
starting together migrate once, and each workspace's FTS index follows its passages."""

from __future__ import annotations

import subprocess
import sys
import warnings
from pathlib import Path

import pytest
import sqlalchemy as sa

from chatspace.service.store import schema
from chatspace.service.store.db import open_database
from chatspace.service.store.files import delete_file, list_files
from chatspace.service.store.migrations import (
    MIGRATIONS,
    m012_metadata_values,
    m016_vector_stamps,
    migrate,
)
from chatspace.service.store.passages import (
    add_passages,
    delete_file_passages,
    drop_workspace_index,
    index_exists,
    index_table,
    vector_stamp,
)
from chatspace.types.filters import read_filter
from support.rows import add_file_row


def _columns(engine: sa.Engine, table: str) -> list[tuple[str, bool, bool]]:
    """(name, not null, part of the primary key) of each column, in order."""
    inspector = sa.inspect(engine)
    keys = set(inspector.get_pk_constraint(table)["constrained_columns"])
    with warnings.catch_warnings():  # pgvector's types, unknown to SQLAlchemy: names suffice
        warnings.filterwarnings("ignore", "Did not recognize type", sa.exc.SAWarning)
        columns = inspector.get_columns(table)
    return [(c["name"], not c["nullable"] or c["name"] in keys, c["name"] in keys) for c in columns]


def test_a_blank_database_gets_exactly_the_declared_tables(database_url: str) -> None:
    """On the run's engine: the same named migrations, the same tables and columns."""
    engine = open_database(database_url)
    try:
        with engine.connect() as conn:
            applied = conn.exec_driver_sql("SELECT name FROM _migrations ORDER BY applied_at")
            assert [r[0] for r in applied] == [m.__name__ for m in MIGRATIONS]
        # kept by triggers, read as SQL by one engine only: PostgreSQL's term statistics
        # (fts_*), SQLite's vector stamps and the clock of their removals
        engine_only = {"vector_stamps", "vector_clock"}
        tables = {
            t
            for t in sa.inspect(engine).get_table_names()
            if not t.startswith("fts_") and t not in engine_only
        }
        assert tables == set(schema.metadata.tables) | {"_migrations"}
        for name, table in schema.metadata.tables.items():
            declared = [
                (c.name, not c.nullable or c.primary_key, c.primary_key) for c in table.columns
            ]
            # in order; the engine's own columns (PostgreSQL's search_vector, embedding)
            # may stand between them, as later migrations add to the end of a table
            names = {c.name for c in table.columns}
            assert [c for c in _columns(engine, name) if c[0] in names] == declared, name
        assert migrate(engine) == []
    finally:
        engine.dispose()


@pytest.mark.sqlite_only
def test_sqlite_runs_in_wal_mode_with_foreign_keys(tmp_path: Path) -> None:
    engine = open_database(tmp_path / "blank.db")
    try:
        with engine.connect() as conn:
            assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
            assert conn.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
    finally:
        engine.dispose()


_MIGRATE_IN_A_PROCESS = """
import sys
from chatspace.service.store.db import open_database
sys.stdin.readline()  # every process waits for the word to start
open_database(sys.argv[1]).dispose()
"""


def _start_at_once(url: str, count: int) -> None:
    """``count`` processes open the database ``url`` at the same moment; all must start."""
    processes = [
        subprocess.Popen(
            [sys.executable, "-c", _MIGRATE_IN_A_PROCESS, url],
            stdin=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(count)
    ]
    for process in processes:
        assert process.stdin is not None
        process.stdin.write("go\n")
        process.stdin.flush()
    for process in processes:
        _, errors = process.communicate(timeout=120)
        assert process.returncode == 0, errors


@pytest.mark.postgres_only
def test_replicas_starting_at_once_migrate_once(database_url: str) -> None:
    """Six processes open one PostgreSQL database at the same moment, blank and then as the
    release before left it (its last migration not applied): the advisory lock lets the
    first migrate; the others wait, find it done, and start."""
    _start_at_once(database_url, 6)
    older = sa.create_engine(database_url)
    try:
        with older.begin() as conn:
            conn.exec_driver_sql("DROP SCHEMA public CASCADE")
            conn.exec_driver_sql("CREATE SCHEMA public")
        assert migrate(older, MIGRATIONS[:-1]) == [m.__name__ for m in MIGRATIONS[:-1]]
        _start_at_once(database_url, 6)
        with older.connect() as conn:
            names = [r[0] for r in conn.exec_driver_sql("SELECT name FROM _migrations")]
        assert sorted(names) == sorted(m.__name__ for m in MIGRATIONS)
    finally:
        older.dispose()


def _hits(conn: sa.Connection, org_id: str, term: str) -> int:
    name = index_table(org_id, "default")
    return int(
        conn.exec_driver_sql(
            f"SELECT count(*) FROM {name} WHERE {name} MATCH ?", (term,)
        ).scalar_one()
    )


@pytest.mark.sqlite_only
def test_each_workspace_index_follows_its_passages(tmp_path: Path) -> None:
    engine = open_database(tmp_path / "fts.db")
    try:
        with engine.begin() as conn:
            for org in ("o1", "o2"):
                add_file_row(conn, file_id=f"file-{org}", org_id=org)
                add_passages(
                    conn,
                    org_id=org,
                    workspace_id="default",
                    file_id=f"file-{org}",
                    passages=[(0, "Foxes are running through the forest")],
                )
        with engine.begin() as conn:
            assert _hits(conn, "o1", "run") == 1  # porter stemming: "running" matches "run"
            assert _hits(conn, "o2", "run") == 1  # each org its own index
            delete_file_passages(conn, ["file-o1"])
            assert _hits(conn, "o1", "run") == 0
            assert _hits(conn, "o2", "run") == 1
            count = sa.select(sa.func.count()).select_from(schema.passages)
            assert conn.execute(count).scalar() == 1
            drop_workspace_index(conn, org_id="o2", workspace_id="default")
            assert conn.execute(count).scalar() == 0
            assert not index_exists(conn, index_table("o2", "default"))
    finally:
        engine.dispose()


@pytest.mark.sqlite_only
def test_m002_moves_indexed_passages_to_per_workspace_indexes(tmp_path: Path) -> None:
    """A database made by m001 alone keeps its search after the upgrade."""
    engine = sa.create_engine(f"sqlite:///{tmp_path / 'old.db'}")
    try:
        with engine.begin() as conn:
            conn.exec_driver_sql(
                "CREATE TABLE _migrations (name TEXT PRIMARY KEY, applied_at DOUBLE PRECISION)"
            )
            MIGRATIONS[0](conn)
            conn.exec_driver_sql("INSERT INTO _migrations VALUES ('m001_initial', 0)")
            add_file_row(conn, file_id="file-1", org_id="o")
            conn.execute(
                schema.passages.insert().values(
                    file_id="file-1", org_id="o", workspace_id="default", ord=0, start=0,
                    text="Foxes are running through the forest",
                )
            )  # fmt: skip
        assert migrate(engine) == [m.__name__ for m in MIGRATIONS[1:]]
        with engine.connect() as conn:
            assert _hits(conn, "o", "forest") == 1
            assert not index_exists(conn, "passages_fts")
    finally:
        engine.dispose()


def test_files_stored_before_the_metadata_index_are_found_by_typed_filters(
    database_url: str,
) -> None:
    """A database as the release before left it (no typed index) holds files with
    metadata; after the upgrade typed filters find them by number, date and text, and
    deleting a file takes its indexed values with it."""
    before = MIGRATIONS[: MIGRATIONS.index(m012_metadata_values)]
    older = sa.create_engine(database_url)
    try:
        assert migrate(older, before) == [m.__name__ for m in before]
        with older.begin() as conn:
            add_file_row(conn, file_id="file-new", org_id="o", metadata={
                "year": "2024", "date": "2024-03-01T10:00:00+02:00", "team": "ml", "ok": True,
            })  # fmt: skip
            add_file_row(conn, file_id="file-old", org_id="o", metadata={"year": 2019.5})
            add_file_row(conn, file_id="file-nul", org_id="o", metadata={"year": 2030, "k": "\x00"})
    finally:
        older.dispose()
    engine = open_database(database_url)  # migrates the rest
    try:
        with engine.connect() as conn:
            applied = set(conn.exec_driver_sql("SELECT name FROM _migrations").scalars())
        assert m012_metadata_values.__name__ in applied

        def found(flt: str) -> set[str]:
            with engine.connect() as conn:
                page = list_files(
                    conn, org_id="o", workspace_id="default", now=2, metadata=read_filter(flt)
                )
            assert page.total == len(page.data)
            return {f.id for f in page.data}

        assert found('{"type": "gte", "key": "year", "value": 2024}') == {"file-new"}
        assert found('{"type": "lt", "key": "date", "value": "2024-03-01T09:00:00Z"}') == {
            "file-new"
        }
        assert found('{"team": "ml", "ok": true}') == {"file-new"}
        assert found('{"type": "ne", "key": "year", "value": 2024}') == {"file-old", "file-nul"}
        with engine.begin() as conn:
            delete_file(conn, org_id="o", workspace_id="default", file_id="file-new", now=2)
            left = conn.execute(sa.select(schema.metadata_values.c.file_id).distinct())
            assert set(left.scalars()) == {"file-old"}  # NUL in the metadata: no values
    finally:
        engine.dispose()


@pytest.mark.sqlite_only
def test_vectors_stored_before_the_kept_stamps_are_counted(tmp_path: Path) -> None:
    """A database whose passages got vectors before ``m016_vector_stamps``: the stamp the
    dense index reads after the upgrade counts them (and a passage without one not)."""
    url = f"sqlite:///{tmp_path / 'old.db'}"
    before = MIGRATIONS[: MIGRATIONS.index(m016_vector_stamps)]
    older = sa.create_engine(url)
    try:
        assert migrate(older, before) == [m.__name__ for m in before]
        with older.begin() as conn:
            add_file_row(conn, file_id="file-1", org_id="o")
            texts = ["Foxes run.", "Owls fly.", "Moles dig."]
            add_passages(conn, org_id="o", workspace_id="default", file_id="file-1",
                         passages=list(enumerate(texts)))  # fmt: skip
            conn.exec_driver_sql(
                "UPDATE passages SET vector = x'00', vector_model = 'm' WHERE ord < 2"
            )
            ids = list(conn.exec_driver_sql("SELECT id FROM passages WHERE ord < 2").scalars())
    finally:
        older.dispose()
    engine = open_database(url)  # migrates the rest
    try:
        with engine.connect() as conn:
            stamp = vector_stamp(conn, org_id="o", workspace_id="default", model="m")
        assert stamp == (2, max(ids), sum(ids), 0)
    finally:
        engine.dispose()
