"""Schema migrations: a blank database migrates to exactly the tables of ``schema.py``,
a second run changes nothing, and the FTS index follows its passages."""

from __future__ import annotations

from pathlib import Path

import sqlalchemy as sa

from chatspace.service.store import schema
from chatspace.service.store.db import open_database
from chatspace.service.store.migrations import MIGRATIONS, migrate


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
                    "SELECT name FROM sqlite_master "
                    "WHERE type = 'table' AND name NOT LIKE 'passages_fts%'"
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


def test_the_search_index_follows_passages(tmp_path: Path) -> None:
    engine = open_database(tmp_path / "fts.db")
    try:
        with engine.begin() as conn:
            conn.execute(
                schema.files.insert().values(
                    id="file-1",
                    org_id="o",
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
                    blob="1/file-1",
                )
            )
            conn.execute(
                schema.passages.insert().values(
                    file_id="file-1",
                    org_id="o",
                    workspace_id="default",
                    ord=0,
                    start=0,
                    text="Foxes are running through the forest",
                )
            )

        def hits(conn: sa.Connection) -> int:
            query = "SELECT count(*) FROM passages_fts WHERE passages_fts MATCH 'run'"
            return int(conn.exec_driver_sql(query).scalar_one())

        with engine.begin() as conn:
            assert hits(conn) == 1  # porter stemming: "running" matches "run"
            conn.execute(schema.files.delete().where(schema.files.c.id == "file-1"))
            # ON DELETE CASCADE removes the passage, and the trigger its index entry.
            assert (
                conn.execute(sa.select(sa.func.count()).select_from(schema.passages)).scalar() == 0
            )
            assert hits(conn) == 0
    finally:
        engine.dispose()
