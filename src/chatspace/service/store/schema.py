"""The tables as the store's queries see them (created by :mod:`.migrations`).

JSON columns are declared ``sa.JSON`` so that ``table.c.metadata["key"]`` compiles to the
dialect's JSON path operator; on SQLite they are stored as TEXT, on PostgreSQL as ``json``
(kept as written). Text a user wrote that may hold NUL is :class:`UserText`.
"""

from __future__ import annotations

import json
from typing import Any

import sqlalchemy as sa

metadata = sa.MetaData()


class UserText(sa.TypeDecorator[str]):
    """Text as the user sent it, NUL included (valid Unicode, which the service keeps).

    PostgreSQL's ``text`` cannot hold NUL, so there a value that contains one (or that
    starts with :attr:`MARK`, a Unicode noncharacter) is kept as :attr:`MARK` and its JSON
    string, which escapes NUL; every other value is stored as it is, on both engines.
    """

    impl = sa.Text
    cache_ok = True
    MARK = "\ufdd0"

    def process_bind_param(self, value: str | None, dialect: sa.Dialect) -> str | None:
        if value is None or dialect.name != "postgresql":
            return value
        if "\x00" in value or value.startswith(self.MARK):
            return self.MARK + json.dumps(value)
        return value

    def process_result_value(self, value: Any, dialect: sa.Dialect) -> str | None:
        if isinstance(value, str) and dialect.name == "postgresql" and value.startswith(self.MARK):
            return str(json.loads(value[len(self.MARK) :]))
        return None if value is None else str(value)


workspaces = sa.Table(
    "workspaces",
    metadata,
    sa.Column("org_id", sa.Text, primary_key=True),
    sa.Column("id", sa.Text, primary_key=True),
    sa.Column("name", UserText, nullable=False),
    sa.Column("creator_user_id", sa.Text, nullable=False),
    sa.Column("created_at", sa.Double, nullable=False),
)

workspace_users = sa.Table(
    "workspace_users",
    metadata,
    sa.Column("org_id", sa.Text, primary_key=True),
    sa.Column("workspace_id", sa.Text, primary_key=True),
    sa.Column("user_id", sa.Text, primary_key=True),
    sa.Column("access", sa.Text, nullable=False),
    sa.Column("created_at", sa.Double, nullable=False),
)

completions = sa.Table(
    "completions",
    metadata,
    sa.Column("id", sa.Text, primary_key=True),
    sa.Column("org_id", sa.Text, nullable=False),
    sa.Column("workspace_id", sa.Text, nullable=False),
    sa.Column("user_id", sa.Text, nullable=False),
    sa.Column("model", sa.Text, nullable=False),
    sa.Column("created", sa.BigInteger, nullable=False),
    sa.Column("metadata", sa.JSON, nullable=False),
    sa.Column("body", sa.Text, nullable=False),
    sa.Column("sources", sa.JSON(none_as_null=True)),
)

completion_messages = sa.Table(
    "completion_messages",
    metadata,
    sa.Column("completion_id", sa.Text, primary_key=True),
    sa.Column("idx", sa.Integer, primary_key=True),
    sa.Column("role", sa.Text, nullable=False),
    sa.Column("content", UserText),
    sa.Column("name", UserText),
    sa.Column("content_parts", sa.JSON),
    sa.Column("tool_calls", sa.JSON),
    sa.Column("tool_call_id", UserText),
    sa.Column("function_call", sa.JSON),
)

completion_search = sa.Table(
    "completion_search",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("completion_id", sa.Text, nullable=False),
    sa.Column("text", sa.Text, nullable=False),
)
"""The text a completion is found by (:mod:`.completion_search`); PostgreSQL adds
``search_vector``, SQLite the FTS5 table ``fts_completions``."""

files = sa.Table(
    "files",
    metadata,
    sa.Column("id", sa.Text, primary_key=True),
    sa.Column("org_id", sa.Text, nullable=False),
    sa.Column("workspace_id", sa.Text, nullable=False),
    sa.Column("user_id", sa.Text, nullable=False),
    sa.Column("filename", sa.Text, nullable=False),
    sa.Column("bytes", sa.BigInteger, nullable=False),
    sa.Column("created_at", sa.BigInteger, nullable=False),
    sa.Column("expires_at", sa.BigInteger),
    sa.Column("purpose", sa.Text, nullable=False),
    sa.Column("status", sa.Text, nullable=False),
    sa.Column("status_details", UserText, nullable=False),
    sa.Column("metadata", sa.JSON, nullable=False),
    sa.Column("content_type", sa.Text, nullable=False),
    sa.Column("sha256", sa.Text, nullable=False),
    sa.Column("blob", sa.Text, nullable=False),
    sa.Column("vectors_pending", sa.Boolean, nullable=False, server_default=sa.false()),
)

metadata_values = sa.Table(
    "metadata_values",
    metadata,
    sa.Column("file_id", sa.Text, primary_key=True),
    sa.Column("org_id", sa.Text, nullable=False),
    sa.Column("workspace_id", sa.Text, nullable=False),
    sa.Column("key", sa.Text, primary_key=True),
    sa.Column("number", sa.Numeric),
    sa.Column("instant", sa.Double),
    sa.Column("text", sa.Text),
    sa.Column("flag", sa.Text),
)
"""What each key of a file's metadata reads as (:mod:`.metadata_values`), written only by
``INSERT ... SELECT`` in SQL: ``number`` is PostgreSQL's ``numeric`` and SQLite's untyped
column (an integer stays an integer), ``instant`` PostgreSQL's ``timestamptz`` and
SQLite's Julian day, ``text`` in code-point order (PostgreSQL's ``COLLATE "C"``)."""

passages = sa.Table(
    "passages",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("file_id", sa.Text, nullable=False),
    sa.Column("org_id", sa.Text, nullable=False),
    sa.Column("workspace_id", sa.Text, nullable=False),
    sa.Column("ord", sa.Integer, nullable=False),
    sa.Column("start", sa.Integer, nullable=False),
    sa.Column("text", sa.Text, nullable=False),
    sa.Column("vector", sa.LargeBinary),
    sa.Column("vector_model", sa.Text),
    sa.Column("locations", sa.JSON),
    sa.Column("embed_claimed_until", sa.Double),
)

idempotency_keys = sa.Table(
    "idempotency_keys",
    metadata,
    sa.Column("org_id", sa.Text, primary_key=True),
    sa.Column("user_id", sa.Text, primary_key=True),
    sa.Column("key", sa.Text, primary_key=True),
    sa.Column("fingerprint", sa.Text, nullable=False),
    sa.Column("status_code", sa.Integer, nullable=False),
    sa.Column("media_type", sa.Text, nullable=False),
    sa.Column("body", sa.Text, nullable=False),
    sa.Column("created_at", sa.Double, nullable=False),
)

rate_counters = sa.Table(
    "rate_counters",
    metadata,
    sa.Column("org_id", sa.Text, primary_key=True),
    sa.Column("user_id", sa.Text, primary_key=True),
    sa.Column("epoch_second", sa.BigInteger, primary_key=True),
    sa.Column("hits", sa.Integer, nullable=False),
)

leases = sa.Table(
    "leases",
    metadata,
    sa.Column("name", sa.Text, primary_key=True),
    sa.Column("holder", sa.Text, nullable=False),
    sa.Column("expires_at", sa.Double, nullable=False),
)

model_connections = sa.Table(
    "model_connections",
    metadata,
    sa.Column("name", sa.Text, primary_key=True),
    sa.Column("url", sa.Text, nullable=False),
    sa.Column("model", sa.Text, nullable=False),
    sa.Column("timeout", sa.Double, nullable=False),
    sa.Column("sealed_key", sa.LargeBinary),
    sa.Column("org_id", sa.Text, nullable=False),
    sa.Column("user_id", sa.Text, nullable=False),
    sa.Column("changed_at", sa.Double, nullable=False),
)
