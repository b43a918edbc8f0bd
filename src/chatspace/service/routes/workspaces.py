"""Workspaces and their users: HTTP over :mod:`chatspace.service.operations.workspaces`.

The creating and changing calls answer "200, no body": they send an empty body.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from starlette.responses import Response

from chatspace.service.http.deps import CallerDep, StateDep
from chatspace.service.http.errors import error_responses
from chatspace.service.http.idempotency import IdempotencyKeyDep, response_of
from chatspace.service.http.limits import BoundedJSONRoute
from chatspace.service.operations import workspaces as operations
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
    return response_of(operations.create_workspace(state, caller=caller, body=body, key=key))


@router.get("/workspaces", summary="List workspaces")
def list_workspaces(caller: CallerDep, state: StateDep) -> WorkspaceList:
    """The caller's workspaces: ``default`` first, then the others oldest first."""
    return WorkspaceList(data=operations.list_workspaces(state, caller=caller))


@router.get(
    "/workspaces/{workspace_id}",
    responses=error_responses(404),
    summary="Get a workspace",
)
def get_workspace(workspace_id: str, caller: CallerDep, state: StateDep) -> Workspace:
    return operations.get_workspace(state, caller=caller, workspace_id=workspace_id)


@router.delete(
    "/workspaces/{workspace_id}",
    response_class=Response,
    responses={**_EMPTY, **error_responses(403, 404, 409)},
    summary="Delete a workspace",
)
def delete_workspace(workspace_id: str, caller: CallerDep, state: StateDep) -> Response:
    """Delete the workspace with its users, stored completions and files (blobs too)."""
    operations.delete_workspace(state, caller=caller, workspace_id=workspace_id)
    return Response()


@router.get(
    "/workspaces/{workspace_id}/users",
    responses=error_responses(404),
    summary="List the users of a workspace",
)
def list_users(workspace_id: str, caller: CallerDep, state: StateDep) -> WorkspaceUserList:
    users = operations.list_users(state, caller=caller, workspace_id=workspace_id)
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
    answer = operations.add_user(
        state, caller=caller, workspace_id=workspace_id, body=body, key=key
    )
    return response_of(answer)


@router.put(
    "/workspaces/{workspace_id}/user",
    response_class=Response,
    responses={**_EMPTY, **error_responses(403, 404, 409)},
    summary="Change a user's access level",
)
def set_user_access(
    workspace_id: str, body: WorkspaceUserRequest, caller: CallerDep, state: StateDep
) -> Response:
    operations.set_user_access(state, caller=caller, workspace_id=workspace_id, body=body)
    return Response()


@router.delete(
    "/workspaces/{workspace_id}/user/{user_id}",
    response_class=Response,
    responses={**_EMPTY, **error_responses(403, 404, 409)},
    summary="Remove a user from a workspace",
)
def remove_user(workspace_id: str, user_id: str, caller: CallerDep, state: StateDep) -> Response:
    operations.remove_user(state, caller=caller, workspace_id=workspace_id, user_id=user_id)
    return Response()
