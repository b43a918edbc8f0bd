"""The tables as the store's queries see them (created by :mod:`.migrations`).

JSON columns are declared ``sa.JSON`` so that ``table.c.metadata["key"]`` compiles to the
dialect's JSON path operator; on SQLite they are stored as TEXT.
"""

from __future__ import annotations

import sqlalchemy as sa

metadata = sa.MetaData()

workspaces = sa.Table(
    "workspaces",
    metadata,
    sa.Column("org_id", sa.Text, primary_key=True),
    sa.Column("id", sa.Text, primary_key=True),
    sa.Column("name", sa.Text, nullable=False),
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
)

completion_messages = sa.Table(
    "completion_messages",
    metadata,
    sa.Column("completion_id", sa.Text, primary_key=True),
    sa.Column("idx", sa.Integer, primary_key=True),
    sa.Column("role", sa.Text, nullable=False),
    sa.Column("content", sa.Text),
    sa.Column("name", sa.Text),
    sa.Column("content_parts", sa.JSON),
    sa.Column("tool_calls", sa.JSON),
    sa.Column("tool_call_id", sa.Text),
    sa.Column("function_call", sa.JSON),
)

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
    sa.Column("status_details", sa.Text, nullable=False),
    sa.Column("metadata", sa.JSON, nullable=False),
    sa.Column("content_type", sa.Text, nullable=False),
    sa.Column("sha256", sa.Text, nullable=False),
    sa.Column("blob", sa.Text, nullable=False),
)

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
