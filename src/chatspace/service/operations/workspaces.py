"""Workspaces and their users: the operations behind ``/workspaces``.

Access: reading needs ``reader``, managing users and deleting needs ``admin``; a workspace
the caller is not a member of is a 404. The creating POSTs answer with an empty body.
"""

from __future__ import annotations

import sqlalchemy as sa

from chatspace.service.access import Caller, require_access
from chatspace.service.idempotency import Answer, Once
from chatspace.service.operations import writing
from chatspace.service.state import AppState
from chatspace.service.store import workspaces as store
from chatspace.service.store.transactions import write_transaction
from chatspace.types import Workspace, WorkspaceCreate, WorkspaceUser, WorkspaceUserRequest

__all__ = [
    "add_user",
    "create_workspace",
    "delete_workspace",
    "get_workspace",
    "list_users",
    "list_workspaces",
    "remove_user",
    "set_user_access",
]


def create_workspace(
    state: AppState, *, caller: Caller, body: WorkspaceCreate, key: str | None
) -> Answer:
    """A workspace in the caller's organization, with the caller as its admin."""
    once = Once.of(caller, key, "POST /workspaces", body)

    def write(conn: sa.Connection) -> Answer:
        store.create_workspace(
            conn,
            org_id=caller.org_id,
            workspace_id=body.id,
            name=body.name,
            user_id=caller.user_id,
        )
        return once.empty()

    return once.run(state.db, write, workspace=body.id)


def list_workspaces(state: AppState, *, caller: Caller) -> list[Workspace]:
    with state.db.begin() as conn:
        return store.list_workspaces(conn, org_id=caller.org_id, user_id=caller.user_id)


def get_workspace(state: AppState, *, caller: Caller, workspace_id: str) -> Workspace:
    with state.db.begin() as conn:
        require_access(conn, caller, workspace_id, "reader")
        return store.get_workspace(conn, org_id=caller.org_id, workspace_id=workspace_id)


def delete_workspace(state: AppState, *, caller: Caller, workspace_id: str) -> None:
    """The workspace with its users, stored completions and files (blobs too)."""
    with write_transaction(state.db, workspace=(caller.org_id, workspace_id)) as conn:
        if workspace_id != store.DEFAULT_WORKSPACE:
            require_access(conn, caller, workspace_id, "admin")
        blobs = store.delete_workspace(conn, org_id=caller.org_id, workspace_id=workspace_id)
    state.blobs.delete_many(blobs)


def list_users(state: AppState, *, caller: Caller, workspace_id: str) -> list[WorkspaceUser]:
    with state.db.begin() as conn:
        require_access(conn, caller, workspace_id, "reader")
        return store.list_users(
            conn, org_id=caller.org_id, workspace_id=workspace_id, caller_id=caller.user_id
        )


def add_user(
    state: AppState,
    *,
    caller: Caller,
    workspace_id: str,
    body: WorkspaceUserRequest,
    key: str | None,
) -> Answer:
    once = Once.of(caller, key, f"POST /workspaces/{workspace_id}/user", body)

    def write(conn: sa.Connection) -> Answer:
        store.add_user(
            conn,
            org_id=caller.org_id,
            workspace_id=workspace_id,
            user_id=body.user,
            access=body.access,
        )
        return once.empty()

    return once.run(
        state.db,
        write,
        workspace=workspace_id,
        authorize=lambda conn: require_access(conn, caller, workspace_id, "admin"),
    )


def set_user_access(
    state: AppState, *, caller: Caller, workspace_id: str, body: WorkspaceUserRequest
) -> None:
    with writing(state, caller, workspace_id, "admin") as conn:
        store.set_user_access(
            conn,
            org_id=caller.org_id,
            workspace_id=workspace_id,
            user_id=body.user,
            access=body.access,
        )


def remove_user(state: AppState, *, caller: Caller, workspace_id: str, user_id: str) -> None:
    with writing(state, caller, workspace_id, "admin") as conn:
        store.remove_user(conn, org_id=caller.org_id, workspace_id=workspace_id, user_id=user_id)
