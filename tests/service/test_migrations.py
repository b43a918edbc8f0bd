"""Schema migrations: a blank database migrates to exactly the tables of ``schema.py``,
a second run changes nothing, and each workspace's FTS index follows its passages."""

from __future__ import annotations

from pathlib import Path

import sqlalchemy as sa

from chatspace.service.store import schema
from chatspace.service.store.db import open_database
from chatspace.service.store.migrations import MIGRATIONS, migrate
from chatspace.service.store.passages import (
    add_passages,
    delete_file_passages,
    drop_workspace_index,
    index_exists,
    index_table,
)


def _columns(conn: sa.Connection, table: str) -> list[tuple[str, bool, bool]]:
    """(name, not null, part of the primary key) of each column, in order."""
    rows = conn.exec_driver_sql(f"PRAGMA table_info({table})").all()
    return [(r.name, bool(r.notnull) or bool(r.pk), bool(r.pk)) for r in rows]


def test_a_blank_database_gets_exactly_the_declared_tables(tmp_path: Path) -> None:
    engine = open_database(tmp_path / "blank.db")
    try:
        with engine.connect() as conn:
            applied = [
                r[0] for r in conn.exec_driver_sql("SELECT name FROM _migrations ORDER BY rowid")
            ]
            assert applied == [m.__name__ for m in MIGRATIONS]
            assert applied[0] == "m001_initial"
            tables = {
                r[0]
                for r in conn.exec_driver_sql(
                    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'fts_%'"
                )
            }
            assert tables == set(schema.metadata.tables) | {"_migrations"}
            for name, table in schema.metadata.tables.items():
                declared = [
                    (c.name, not c.nullable or c.primary_key, c.primary_key) for c in table.columns
                ]
                assert _columns(conn, name) == declared, name
            assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
            assert conn.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
        assert migrate(engine) == []
    finally:
        engine.dispose()


def _add_file(conn: sa.Connection, file_id: str, org_id: str) -> None:
    conn.execute(
        schema.files.insert().values(
            id=file_id,
            org_id=org_id,
            workspace_id="default",
            user_id="u",
            filename="f.txt",
            bytes=3,
            created_at=1,
            expires_at=None,
            purpose="user_data",
            status="uploaded",
            status_details="",
            metadata={},
            content_type="text/plain",
            sha256="x",
            blob=f"1/{file_id}",
        )
    )


def _hits(conn: sa.Connection, org_id: str, term: str) -> int:
    name = index_table(org_id, "default")
    return int(
        conn.exec_driver_sql(
            f"SELECT count(*) FROM {name} WHERE {name} MATCH ?", (term,)
        ).scalar_one()
    )


def test_each_workspace_index_follows_its_passages(tmp_path: Path) -> None:
    engine = open_database(tmp_path / "fts.db")
    try:
        with engine.begin() as conn:
            for org in ("o1", "o2"):
                _add_file(conn, f"file-{org}", org)
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
            _add_file(conn, "file-1", "o")
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
