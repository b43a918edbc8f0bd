"""Chat completions: create (plain or streamed), and the stored ones (contract section 1)."""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Body, Query, Request
from fastapi.exceptions import RequestValidationError
from pydantic import TypeAdapter, ValidationError
from starlette.responses import Response

from chatspace.service.chat_actions import create_completion
from chatspace.service.deps import CallerDep, StateDep, require_access
from chatspace.service.idempotency import IdempotencyKeyDep
from chatspace.service.problems import error_responses
from chatspace.service.store import completions as store
from chatspace.service.store.transactions import write_transaction
from chatspace.types import (
    ChatCompletion,
    ChatCompletionDeleted,
    ChatCompletionList,
    ChatCompletionMessageList,
    ChatCompletionRequest,
    Metadata,
    WorkspaceId,
)

router = APIRouter(tags=["chat"], responses=error_responses(401, 429))

WorkspaceQuery = Annotated[WorkspaceId, Query(description="The workspace to look in.")]
Limit = Annotated[int, Query(ge=1, le=100, description="Items per page, 1 to 100.")]
Order = Annotated[Literal["asc", "desc"], Query(description="Sort by timestamp.")]
After = Annotated[str | None, Query(description="The last id of the previous page.")]
_METADATA_PARAM = re.compile(r"^metadata\[(.+)\]$")
_metadata_adapter: TypeAdapter[dict[str, str]] = TypeAdapter(Metadata)
_CREATE_RESPONSES: dict[int | str, dict[str, Any]] = {
    200: {
        "model": ChatCompletion,
        "description": "The completion; with `stream: true`, `chat.completion.chunk` events.",
        "content": {"text/event-stream": {"schema": {"type": "string"}}},
    }
}


@router.post(
    "/chat/completions",
    response_model=None,
    responses={**_CREATE_RESPONSES, **error_responses(400, 403, 404, 409, 502, 504)},
    summary="Create a chat completion",
)
async def create_chat_completion(
    request: Request,
    body: ChatCompletionRequest,
    caller: CallerDep,
    state: StateDep,
    idempotency_key: IdempotencyKeyDep = None,
) -> Response:
    """Create a chat completion over the workspace's files; stream it with `stream: true`."""
    return await create_completion(
        state, caller, body, idempotency_key, request_id=request.state.request_id
    )


def _metadata_filter(request: Request) -> dict[str, str]:
    """The ``metadata[KEY]=VALUE`` query parameters."""
    found = {}
    for name, value in request.query_params.multi_items():
        if match := _METADATA_PARAM.match(name):
            found[match.group(1)] = value
    return found


@router.get(
    "/chat/completions",
    response_model=ChatCompletionList,
    responses=error_responses(404),
    summary="List stored chat completions",
)
def list_chat_completions(
    request: Request,
    caller: CallerDep,
    state: StateDep,
    workspace: WorkspaceQuery = "default",
    after: After = None,
    limit: Limit = 20,
    order: Order = "asc",
    model: Annotated[str | None, Query(description="Only completions of this model.")] = None,
) -> ChatCompletionList:
    """Stored completions, oldest first; also filtered by `metadata[KEY]=VALUE` parameters."""
    with state.db.connect() as conn:
        require_access(conn, caller, workspace, "reader")
        return store.list_completions(
            conn,
            org_id=caller.org_id,
            workspace_id=workspace,
            limit=limit,
            order=order,
            after=after,
            model=model,
            metadata=_metadata_filter(request),
        )


@router.get(
    "/chat/completions/{completion_id}",
    response_model=ChatCompletion,
    responses=error_responses(404),
    summary="Get a stored chat completion",
)
def get_chat_completion(
    completion_id: str, caller: CallerDep, state: StateDep, workspace: WorkspaceQuery = "default"
) -> ChatCompletion:
    with state.db.connect() as conn:
        require_access(conn, caller, workspace, "reader")
        return store.get_completion(
            conn, org_id=caller.org_id, workspace_id=workspace, completion_id=completion_id
        )


def _metadata_body(body: dict[str, Any]) -> dict[str, str]:
    """The new metadata: the body itself, or its ``metadata`` (what the openai package sends)."""
    loc: tuple[str, ...] = ("body",)
    if set(body) == {"metadata"} and (
        body["metadata"] is None or isinstance(body["metadata"], dict)
    ):
        body, loc = body["metadata"] or {}, ("body", "metadata")
    try:
        return _metadata_adapter.validate_python(body)
    except ValidationError as exc:
        errors = [
            {"loc": [*loc, *e["loc"]], "msg": e["msg"], "type": e["type"]} for e in exc.errors()
        ]
        raise RequestValidationError(errors) from None


_METADATA_SCHEMA = {
    "title": "Metadata",
    "type": "object",
    "maxProperties": 16,
    "propertyNames": {"maxLength": 64},
    "additionalProperties": {"type": "string", "maxLength": 512},
}


@router.post(
    "/chat/completions/{completion_id}",
    response_model=ChatCompletion,
    responses=error_responses(403, 404),
    summary="Update a stored chat completion's metadata",
    openapi_extra={"requestBody": {"content": {"application/json": {"schema": _METADATA_SCHEMA}}}},
)
def update_chat_completion(
    completion_id: str,
    body: Annotated[dict[str, Any], Body(description="The new metadata.")],
    caller: CallerDep,
    state: StateDep,
    workspace: WorkspaceQuery = "default",
) -> ChatCompletion:
    """Replace a stored completion's metadata."""
    metadata = _metadata_body(body)
    with write_transaction(state.db) as conn:
        require_access(conn, caller, workspace, "writer")
        return store.update_metadata(
            conn,
            org_id=caller.org_id,
            workspace_id=workspace,
            completion_id=completion_id,
            metadata=metadata,
        )


@router.delete(
    "/chat/completions/{completion_id}",
    response_model=ChatCompletionDeleted,
    responses=error_responses(403, 404),
    summary="Delete a stored chat completion",
)
def delete_chat_completion(
    completion_id: str, caller: CallerDep, state: StateDep, workspace: WorkspaceQuery = "default"
) -> ChatCompletionDeleted:
    with write_transaction(state.db) as conn:
        require_access(conn, caller, workspace, "writer")
        return store.delete_completion(
            conn, org_id=caller.org_id, workspace_id=workspace, completion_id=completion_id
        )


@router.get(
    "/chat/completions/{completion_id}/messages",
    response_model=ChatCompletionMessageList,
    responses=error_responses(404),
    summary="List the messages of a stored chat completion",
)
def list_chat_completion_messages(
    completion_id: str,
    caller: CallerDep,
    state: StateDep,
    workspace: WorkspaceQuery = "default",
    after: After = None,
    limit: Limit = 20,
    order: Order = "asc",
) -> ChatCompletionMessageList:
    """The request's messages, then the answer of choice 0."""
    with state.db.connect() as conn:
        require_access(conn, caller, workspace, "reader")
        return store.list_messages(
            conn,
            org_id=caller.org_id,
            workspace_id=workspace,
            completion_id=completion_id,
            limit=limit,
            order=order,
            after=after,
        )
