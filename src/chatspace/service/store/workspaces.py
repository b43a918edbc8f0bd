"""Workspaces and their users (docs/interface.md#workspaces).

Every organization has the workspace ``default`` implicitly: every user of the org is a
``writer`` there and it cannot be deleted. Its row is written the first time the org
lists or reads its workspaces, so that it has a stable ``created_at``; its
``creator_user_id`` is :data:`DEFAULT_CREATOR`, as no user created it. Other workspaces
are the caller's through a membership row; the creator starts as ``admin``.
"""

from __future__ import annotations

import time
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa

from chatspace.service.problems import Conflict, NotFound, quoted
from chatspace.types import Workspace, WorkspaceUser

from . import schema
from .dialects import insert
from .passages import drop_workspace_index
from .schema import workspace_users as members
from .schema import workspaces as table

__all__ = [
    "DEFAULT_CREATOR",
    "DEFAULT_NAME",
    "DEFAULT_WORKSPACE",
    "access_level",
    "add_user",
    "create_workspace",
    "delete_workspace",
    "get_workspace",
    "list_users",
    "list_workspaces",
    "remove_user",
    "set_user_access",
]

DEFAULT_WORKSPACE = "default"
DEFAULT_NAME = "Default"
DEFAULT_CREATOR = "system"


def _stamp(seconds: float) -> datetime:
    return datetime.fromtimestamp(seconds, tz=UTC)


def _workspace(row: Any) -> Workspace:
    return Workspace(
        id=row.id,
        name=row.name,
        creator_user_id=row.creator_user_id,
        org_id=row.org_id,
        created_at=_stamp(row.created_at),
    )


def access_level(
    conn: sa.Connection, *, org_id: str, workspace_id: str, user_id: str
) -> str | None:
    """The user's access level in the workspace, or None when they are not a member."""
    if workspace_id == DEFAULT_WORKSPACE:
        return "writer"
    return conn.execute(
        sa.select(members.c.access).where(
            members.c.org_id == org_id,
            members.c.workspace_id == workspace_id,
            members.c.user_id == user_id,
        )
    ).scalar_one_or_none()


def _ensure_default(conn: sa.Connection, *, org_id: str) -> None:
    exists = conn.execute(
        sa.select(table.c.id).where(table.c.org_id == org_id, table.c.id == DEFAULT_WORKSPACE)
    ).first()
    if exists is None:
        # another request may create it first, outside a write transaction
        conn.execute(
            insert(conn, table)
            .values(
                org_id=org_id,
                id=DEFAULT_WORKSPACE,
                name=DEFAULT_NAME,
                creator_user_id=DEFAULT_CREATOR,
                created_at=time.time(),
            )
            .on_conflict_do_nothing()
        )


def create_workspace(
    conn: sa.Connection, *, org_id: str, workspace_id: str, name: str, user_id: str
) -> Workspace:
    """Create a workspace with ``user_id`` as its admin; 409 when the id is taken."""
    if workspace_id == DEFAULT_WORKSPACE or _exists(conn, org_id=org_id, workspace_id=workspace_id):
        raise Conflict(f"Workspace {quoted(workspace_id)} already exists in this organization.")
    now = time.time()
    conn.execute(
        table.insert().values(
            org_id=org_id, id=workspace_id, name=name, creator_user_id=user_id, created_at=now
        )
    )
    conn.execute(
        members.insert().values(
            org_id=org_id,
            workspace_id=workspace_id,
            user_id=user_id,
            access="admin",
            created_at=now,
        )
    )
    return Workspace(
        id=workspace_id, name=name, creator_user_id=user_id, org_id=org_id, created_at=_stamp(now)
    )


def _exists(conn: sa.Connection, *, org_id: str, workspace_id: str) -> bool:
    query = sa.select(table.c.id).where(table.c.org_id == org_id, table.c.id == workspace_id)
    return conn.execute(query).first() is not None


def get_workspace(conn: sa.Connection, *, org_id: str, workspace_id: str) -> Workspace:
    if workspace_id == DEFAULT_WORKSPACE:
        _ensure_default(conn, org_id=org_id)
    row = conn.execute(
        sa.select(table).where(table.c.org_id == org_id, table.c.id == workspace_id)
    ).first()
    if row is None:
        raise NotFound(f"Workspace {quoted(workspace_id)} not found.")
    return _workspace(row)


def list_workspaces(conn: sa.Connection, *, org_id: str, user_id: str) -> list[Workspace]:
    """``default`` first, then the workspaces the user is a member of, oldest first."""
    _ensure_default(conn, org_id=org_id)
    query = (
        sa.select(table)
        .join(
            members,
            sa.and_(
                members.c.org_id == table.c.org_id,
                members.c.workspace_id == table.c.id,
                members.c.user_id == user_id,
            ),
        )
        .where(table.c.org_id == org_id, table.c.id != DEFAULT_WORKSPACE)
        .order_by(table.c.created_at, table.c.id)
    )
    rows = conn.execute(query).all()
    return [get_workspace(conn, org_id=org_id, workspace_id=DEFAULT_WORKSPACE)] + [
        _workspace(r) for r in rows
    ]


def delete_workspace(conn: sa.Connection, *, org_id: str, workspace_id: str) -> list[str]:
    """Delete the workspace with its users, stored completions and files.

    Returns the blob names of the deleted files: the caller removes them from disk once
    the transaction has committed.
    """
    if workspace_id == DEFAULT_WORKSPACE:
        raise Conflict("The default workspace cannot be deleted.")
    in_ws = {"org_id": org_id, "workspace_id": workspace_id}
    files = schema.files
    blobs = list(
        conn.execute(
            sa.select(files.c.blob).where(*(files.c[k] == v for k, v in in_ws.items()))
        ).scalars()
    )
    completions = schema.completions
    drop_workspace_index(conn, org_id=org_id, workspace_id=workspace_id)
    conn.execute(files.delete().where(*(files.c[k] == v for k, v in in_ws.items())))
    completion_ids = sa.select(completions.c.id).where(
        *(completions.c[k] == v for k, v in in_ws.items())
    )
    conn.execute(
        schema.completion_messages.delete().where(
            schema.completion_messages.c.completion_id.in_(completion_ids)
        )
    )
    conn.execute(completions.delete().where(*(completions.c[k] == v for k, v in in_ws.items())))
    conn.execute(members.delete().where(*(members.c[k] == v for k, v in in_ws.items())))
    conn.execute(table.delete().where(table.c.org_id == org_id, table.c.id == workspace_id))
    return blobs


# ---------------------------------------------------------------- users


def _member_row(conn: sa.Connection, *, org_id: str, workspace_id: str, user_id: str) -> Any:
    return conn.execute(
        sa.select(members).where(
            members.c.org_id == org_id,
            members.c.workspace_id == workspace_id,
            members.c.user_id == user_id,
        )
    ).first()


def list_users(
    conn: sa.Connection, *, org_id: str, workspace_id: str, caller_id: str
) -> list[WorkspaceUser]:
    """The members, oldest first. ``default`` has every user of the org as a writer, and
    the service knows users only from their tokens: there, the list is the caller alone."""
    if workspace_id == DEFAULT_WORKSPACE:
        created = get_workspace(conn, org_id=org_id, workspace_id=workspace_id).created_at
        return [WorkspaceUser(user_id=caller_id, access="writer", created_at=created)]
    rows = conn.execute(
        sa.select(members)
        .where(members.c.org_id == org_id, members.c.workspace_id == workspace_id)
        .order_by(members.c.created_at, members.c.user_id)
    ).all()
    return [
        WorkspaceUser(user_id=r.user_id, access=r.access, created_at=_stamp(r.created_at))
        for r in rows
    ]


def add_user(
    conn: sa.Connection, *, org_id: str, workspace_id: str, user_id: str, access: str
) -> None:
    """Add a member; 409 when they already are one."""
    if _member_row(conn, org_id=org_id, workspace_id=workspace_id, user_id=user_id) is not None:
        raise Conflict(
            f"User {quoted(user_id)} is already a member of workspace {quoted(workspace_id)}."
        )
    conn.execute(
        members.insert().values(
            org_id=org_id,
            workspace_id=workspace_id,
            user_id=user_id,
            access=access,
            created_at=time.time(),
        )
    )


def _require_member(conn: sa.Connection, *, org_id: str, workspace_id: str, user_id: str) -> Any:
    row = _member_row(conn, org_id=org_id, workspace_id=workspace_id, user_id=user_id)
    if row is None:
        raise NotFound(
            f"User {quoted(user_id)} is not a member of workspace {quoted(workspace_id)}."
        )
    return row


def _keeps_an_admin(conn: sa.Connection, *, org_id: str, workspace_id: str, user_id: str) -> None:
    """409 unless some admin other than ``user_id`` remains."""
    others = conn.execute(
        sa.select(sa.func.count()).where(
            members.c.org_id == org_id,
            members.c.workspace_id == workspace_id,
            members.c.access == "admin",
            members.c.user_id != user_id,
        )
    ).scalar_one()
    if not others:
        raise Conflict(
            f"User '{user_id}' is the last admin of workspace '{workspace_id}'; "
            "make another user admin first."
        )


def set_user_access(
    conn: sa.Connection, *, org_id: str, workspace_id: str, user_id: str, access: str
) -> None:
    """Change a member's level; 404 when not a member, 409 when it demotes the last admin."""
    row = _require_member(conn, org_id=org_id, workspace_id=workspace_id, user_id=user_id)
    if row.access == "admin" and access != "admin":
        _keeps_an_admin(conn, org_id=org_id, workspace_id=workspace_id, user_id=user_id)
    conn.execute(
        members.update()
        .where(
            members.c.org_id == org_id,
            members.c.workspace_id == workspace_id,
            members.c.user_id == user_id,
        )
        .values(access=access)
    )


def remove_user(conn: sa.Connection, *, org_id: str, workspace_id: str, user_id: str) -> None:
    """Remove a member; 404 when not a member, 409 when they are the last admin."""
    row = _require_member(conn, org_id=org_id, workspace_id=workspace_id, user_id=user_id)
    if row.access == "admin":
        _keeps_an_admin(conn, org_id=org_id, workspace_id=workspace_id, user_id=user_id)
    conn.execute(
        members.delete().where(
            members.c.org_id == org_id,
            members.c.workspace_id == workspace_id,
            members.c.user_id == user_id,
        )
    )
