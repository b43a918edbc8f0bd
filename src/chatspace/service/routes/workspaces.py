"""Workspaces and their users (seed 4.2, contract section 4).

The seed answers the creating and changing calls with "200, no body": they send an empty
body. Access: reading needs ``reader``, managing users and deleting needs ``admin``; a
workspace the caller is not a member of is a 404.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from starlette.responses import Response

from chatspace.service.deps import CallerDep, StateDep, require_access
from chatspace.service.idempotency import (
    Answer,
    IdempotencyKeyDep,
    fingerprint,
    lookup,
    remember,
)
from chatspace.service.limits import BoundedJSONRoute
from chatspace.service.problems import error_responses
from chatspace.service.store import workspaces as store
from chatspace.service.store.transactions import write_transaction
from chatspace.types import (
    Workspace,
    WorkspaceCreate,
    WorkspaceList,
    WorkspaceUserList,
    WorkspaceUserRequest,
)

router = APIRouter(
    tags=["workspaces"], responses=error_responses(401, 429), route_class=BoundedJSONRoute
)

_EMPTY: dict[int | str, dict[str, Any]] = {
    200: {"description": "Successful Response (no body)", "content": None}
}


@router.post(
    "/workspaces",
    response_class=Response,
    responses={**_EMPTY, **error_responses(409)},
    summary="Create a workspace",
)
def create_workspace(
    body: WorkspaceCreate, caller: CallerDep, state: StateDep, key: IdempotencyKeyDep = None
) -> Response:
    """Create a workspace in the caller's organization, with the caller as its admin."""
    fp = fingerprint("POST /workspaces", body)
    with write_transaction(state.db) as conn:
        if (prior := lookup(conn, caller=caller, key=key, fingerprint=fp)) is not None:
            return prior.response()
        store.create_workspace(
            conn,
            org_id=caller.org_id,
            workspace_id=body.id,
            name=body.name,
            user_id=caller.user_id,
        )
        answer = Answer.empty(fingerprint=fp)
        remember(conn, caller=caller, key=key, answer=answer)
    return answer.response()


@router.get("/workspaces", summary="List workspaces")
def list_workspaces(caller: CallerDep, state: StateDep) -> WorkspaceList:
    """The caller's workspaces: ``default`` first, then the others oldest first."""
    with state.db.begin() as conn:
        found = store.list_workspaces(conn, org_id=caller.org_id, user_id=caller.user_id)
    return WorkspaceList(data=found)


@router.get(
    "/workspaces/{workspace_id}",
    responses=error_responses(404),
    summary="Get a workspace",
)
def get_workspace(workspace_id: str, caller: CallerDep, state: StateDep) -> Workspace:
    with state.db.begin() as conn:
        require_access(conn, caller, workspace_id, "reader")
        return store.get_workspace(conn, org_id=caller.org_id, workspace_id=workspace_id)


@router.delete(
    "/workspaces/{workspace_id}",
    response_class=Response,
    responses={**_EMPTY, **error_responses(403, 404, 409)},
    summary="Delete a workspace",
)
def delete_workspace(workspace_id: str, caller: CallerDep, state: StateDep) -> Response:
    """Delete the workspace with its users, stored completions and files (blobs too)."""
    with write_transaction(state.db) as conn:
        if workspace_id != store.DEFAULT_WORKSPACE:
            require_access(conn, caller, workspace_id, "admin")
        blobs = store.delete_workspace(conn, org_id=caller.org_id, workspace_id=workspace_id)
    state.blobs.delete_many(blobs)
    return Response()


@router.get(
    "/workspaces/{workspace_id}/users",
    responses=error_responses(404),
    summary="List the users of a workspace",
)
def list_users(workspace_id: str, caller: CallerDep, state: StateDep) -> WorkspaceUserList:
    with state.db.begin() as conn:
        require_access(conn, caller, workspace_id, "reader")
        users = store.list_users(
            conn, org_id=caller.org_id, workspace_id=workspace_id, caller_id=caller.user_id
        )
    return WorkspaceUserList(data=users)


@router.post(
    "/workspaces/{workspace_id}/user",
    response_class=Response,
    responses={**_EMPTY, **error_responses(403, 404, 409)},
    summary="Add a user to a workspace",
)
def add_user(
    workspace_id: str,
    body: WorkspaceUserRequest,
    caller: CallerDep,
    state: StateDep,
    key: IdempotencyKeyDep = None,
) -> Response:
    fp = fingerprint(f"POST /workspaces/{workspace_id}/user", body)
    with write_transaction(state.db) as conn:
        require_access(conn, caller, workspace_id, "admin")
        if (prior := lookup(conn, caller=caller, key=key, fingerprint=fp)) is not None:
            return prior.response()
        store.add_user(
            conn,
            org_id=caller.org_id,
            workspace_id=workspace_id,
            user_id=body.user,
            access=body.access,
        )
        answer = Answer.empty(fingerprint=fp)
        remember(conn, caller=caller, key=key, answer=answer)
    return answer.response()


@router.put(
    "/workspaces/{workspace_id}/user",
    response_class=Response,
    responses={**_EMPTY, **error_responses(403, 404, 409)},
    summary="Change a user's access level",
)
def set_user_access(
    workspace_id: str, body: WorkspaceUserRequest, caller: CallerDep, state: StateDep
) -> Response:
    with write_transaction(state.db) as conn:
        require_access(conn, caller, workspace_id, "admin")
        store.set_user_access(
            conn,
            org_id=caller.org_id,
            workspace_id=workspace_id,
            user_id=body.user,
            access=body.access,
        )
    return Response()


@router.delete(
    "/workspaces/{workspace_id}/user/{user_id}",
    response_class=Response,
    responses={**_EMPTY, **error_responses(403, 404, 409)},
    summary="Remove a user from a workspace",
)
def remove_user(workspace_id: str, user_id: str, caller: CallerDep, state: StateDep) -> Response:
    with write_transaction(state.db) as conn:
        require_access(conn, caller, workspace_id, "admin")
        store.remove_user(conn, org_id=caller.org_id, workspace_id=workspace_id, user_id=user_id)
    return Response()
