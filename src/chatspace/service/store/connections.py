"""Models connected over HTTP (``POST /models``): one row per model name, shared by every
replica; the key is stored sealed, never in plain text (:mod:`..sealing`)."""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa

from .dialects import insert
from .schema import model_connections as table

__all__ = ["Saved", "delete", "find", "read_all", "save"]

Saved = sa.Row[Any]
"""A row of :data:`~.schema.model_connections`."""


def read_all(conn: sa.Connection) -> list[Saved]:
    """Every connection, by name."""
    return list(conn.execute(sa.select(table).order_by(table.c.name)).all())


def find(conn: sa.Connection, name: str) -> Saved | None:
    """The connection named ``name``, if there is one."""
    return conn.execute(sa.select(table).where(table.c.name == name)).first()


def save(
    conn: sa.Connection,
    *,
    name: str,
    url: str,
    model: str,
    timeout: float,
    sealed_key: bytes | None,
    org_id: str,
    user_id: str,
    now: float,
    replace: bool,
) -> bool:
    """Keep the connection; False when ``name`` is taken and ``replace`` is not asked
    (the primary key decides, so that two admins adding one name at once cannot both)."""
    values = {
        "url": url,
        "model": model,
        "timeout": timeout,
        "sealed_key": sealed_key,
        "org_id": org_id,
        "user_id": user_id,
        "changed_at": now,
    }
    statement = insert(conn, table).values(name=name, **values)
    if replace:
        upsert = statement.on_conflict_do_update(index_elements=[table.c.name], set_=values)
        return conn.execute(upsert.returning(table.c.name)).first() is not None
    added = statement.on_conflict_do_nothing().returning(table.c.name)
    return conn.execute(added).first() is not None


def delete(conn: sa.Connection, name: str) -> bool:
    """Forget the connection; whether there was one."""
    return conn.execute(table.delete().where(table.c.name == name)).rowcount > 0
