"""Named, append-only schema migrations, recorded in the ``_migrations`` table.

Never edit a migration that has shipped: add ``m002_...`` instead. ``tests/service/
test_migrations.py`` migrates an empty database and checks the exact columns against
:mod:`.schema`, so the two cannot drift apart.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable

import sqlalchemy as sa

Migration = Callable[[sa.Connection], None]
MIGRATIONS: list[Migration] = []


def migration(fn: Migration) -> Migration:
    MIGRATIONS.append(fn)
    return fn


def _run(conn: sa.Connection, script: str) -> None:
    """Run statements separated by a line holding only ``--``, as triggers contain ``;``."""
    for statement in script.split("\n--\n"):
        if statement.strip():
            conn.exec_driver_sql(statement)


@migration
def m001_initial(conn: sa.Connection) -> None:
    _run(
        conn,
        """
        CREATE TABLE workspaces (
            org_id TEXT NOT NULL,
            id TEXT NOT NULL,
            name TEXT NOT NULL,
            creator_user_id TEXT NOT NULL,
            created_at DOUBLE PRECISION NOT NULL,
            PRIMARY KEY (org_id, id)
        )
--
        CREATE TABLE workspace_users (
            org_id TEXT NOT NULL,
            workspace_id TEXT NOT NULL,
            user_id TEXT NOT NULL,
            access TEXT NOT NULL,
            created_at DOUBLE PRECISION NOT NULL,
            PRIMARY KEY (org_id, workspace_id, user_id)
        )
--
        CREATE TABLE completions (
            id TEXT PRIMARY KEY,
            org_id TEXT NOT NULL,
            workspace_id TEXT NOT NULL,
            user_id TEXT NOT NULL,
            model TEXT NOT NULL,
            created BIGINT NOT NULL,
            metadata TEXT NOT NULL,
            body TEXT NOT NULL
        )
--
        CREATE INDEX completions_by_time ON completions (org_id, workspace_id, created, id)
--
        CREATE INDEX completions_by_model ON completions (org_id, workspace_id, model, created, id)
--
        CREATE TABLE completion_messages (
            completion_id TEXT NOT NULL REFERENCES completions (id) ON DELETE CASCADE,
            idx INTEGER NOT NULL,
            role TEXT NOT NULL,
            content TEXT,
            name TEXT,
            content_parts TEXT,
            PRIMARY KEY (completion_id, idx)
        )
--
        CREATE TABLE files (
            id TEXT PRIMARY KEY,
            org_id TEXT NOT NULL,
            workspace_id TEXT NOT NULL,
            user_id TEXT NOT NULL,
            filename TEXT NOT NULL,
            bytes BIGINT NOT NULL,
            created_at BIGINT NOT NULL,
            expires_at BIGINT,
            purpose TEXT NOT NULL,
            status TEXT NOT NULL,
            status_details TEXT NOT NULL,
            metadata TEXT NOT NULL,
            content_type TEXT NOT NULL,
            sha256 TEXT NOT NULL,
            blob TEXT NOT NULL
        )
--
        CREATE INDEX files_by_time ON files (org_id, workspace_id, created_at, id)
--
        CREATE TABLE passages (
            id INTEGER PRIMARY KEY,
            file_id TEXT NOT NULL REFERENCES files (id) ON DELETE CASCADE,
            org_id TEXT NOT NULL,
            workspace_id TEXT NOT NULL,
            ord INTEGER NOT NULL,
            start INTEGER NOT NULL,
            text TEXT NOT NULL
        )
--
        CREATE INDEX passages_by_file ON passages (file_id, ord)
--
        CREATE TABLE idempotency_keys (
            org_id TEXT NOT NULL,
            user_id TEXT NOT NULL,
            key TEXT NOT NULL,
            fingerprint TEXT NOT NULL,
            status_code INTEGER NOT NULL,
            media_type TEXT NOT NULL,
            body TEXT NOT NULL,
            created_at DOUBLE PRECISION NOT NULL,
            PRIMARY KEY (org_id, user_id, key)
        )
        """,
    )
    if conn.dialect.name == "sqlite":
        # External-content FTS5 index over passages, kept in step by triggers so that a
        # passage and its index entry are written (and rolled back) in one transaction.
        _run(
            conn,
            """
            CREATE VIRTUAL TABLE passages_fts USING fts5(
                text, content='passages', content_rowid='id',
                tokenize='porter unicode61 remove_diacritics 2'
            )
--
            CREATE TRIGGER passages_ai AFTER INSERT ON passages BEGIN
                INSERT INTO passages_fts (rowid, text) VALUES (new.id, new.text);
            END
--
            CREATE TRIGGER passages_ad AFTER DELETE ON passages BEGIN
                INSERT INTO passages_fts (passages_fts, rowid, text)
                VALUES ('delete', old.id, old.text);
            END
            """,
        )


@migration
def m002_index_per_workspace(conn: sa.Connection) -> None:
    """One FTS5 index per workspace instead of one for all (see :mod:`.passages`).

    Written out in SQL, not through :mod:`.passages`, so that this migration means what it
    meant when it was written whatever that module becomes.
    """
    if conn.dialect.name != "sqlite":
        return
    for statement in (
        "DROP TRIGGER IF EXISTS passages_ai",
        "DROP TRIGGER IF EXISTS passages_ad",
        "DROP TABLE IF EXISTS passages_fts",
    ):
        conn.exec_driver_sql(statement)
    pairs = conn.exec_driver_sql("SELECT DISTINCT org_id, workspace_id FROM passages").all()
    for org_id, workspace_id in pairs:
        # The index table's name: a hex digest of (org, workspace), safe to put into SQL.
        name = "fts_" + hashlib.sha256(f"{org_id}\x00{workspace_id}".encode()).hexdigest()[:24]
        conn.exec_driver_sql(
            f'CREATE VIRTUAL TABLE IF NOT EXISTS "{name}" USING fts5(text, '
            "content='passages', content_rowid='id', "
            "tokenize='porter unicode61 remove_diacritics 2')"
        )
        conn.exec_driver_sql(
            f'INSERT INTO "{name}" (rowid, text) '  # noqa: S608 (a hex name, no user text)
            "SELECT id, text FROM passages WHERE org_id = ? AND workspace_id = ?",
            (org_id, workspace_id),
        )


@migration
def m003_idempotency_by_time(conn: sa.Connection) -> None:
    """Purging old idempotency keys reads them by age."""
    conn.exec_driver_sql("CREATE INDEX idempotency_by_time ON idempotency_keys (created_at)")


@migration
def m004_message_tool_calls(conn: sa.Connection) -> None:
    """Messages keep the tools an assistant called and the call a tool result answers."""
    for column in ("tool_calls JSON", "tool_call_id TEXT", "function_call JSON"):
        conn.exec_driver_sql(f"ALTER TABLE completion_messages ADD COLUMN {column}")


@migration
def m005_passage_vectors(conn: sa.Connection) -> None:
    """Passages keep their dense vector and the model that made it (NULL until computed:
    the service fills in the passages stored before this migration when it starts)."""
    for column in ("vector BLOB", "vector_model TEXT"):
        conn.exec_driver_sql(f"ALTER TABLE passages ADD COLUMN {column}")
    conn.exec_driver_sql(
        "CREATE INDEX passages_by_workspace ON passages (org_id, workspace_id, vector_model, id)"
    )


def migrate(engine: sa.Engine) -> list[str]:
    """Apply the migrations not yet recorded; return the names applied now."""
    applied_now: list[str] = []
    with engine.begin() as conn:
        conn.exec_driver_sql(
            "CREATE TABLE IF NOT EXISTS _migrations "
            "(name TEXT PRIMARY KEY, applied_at DOUBLE PRECISION NOT NULL)"
        )
        done = {row[0] for row in conn.exec_driver_sql("SELECT name FROM _migrations")}
        for fn in MIGRATIONS:
            if fn.__name__ in done:
                continue
            fn(conn)
            conn.execute(
                sa.text("INSERT INTO _migrations (name, applied_at) VALUES (:n, :t)"),
                {"n": fn.__name__, "t": time.time()},
            )
            applied_now.append(fn.__name__)
    return applied_now
