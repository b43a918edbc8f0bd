"""Chat completions: HTTP over :mod:`chatspace.service.operations.chat`.

Create (plain or streamed), and the stored ones: list, get, update metadata, delete,
messages, sources.
"""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Body, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import StreamingResponse
from pydantic import TypeAdapter, ValidationError
from starlette.responses import Response

from chatspace.service.http.deps import CallerDep, StateDep
from chatspace.service.http.errors import error_responses, faults_at
from chatspace.service.http.idempotency import REPLAY_HEADER, IdempotencyKeyDep, response_of
from chatspace.service.http.limits import BoundedJSONRoute
from chatspace.service.operations import chat as operations
from chatspace.types import (
    ChatCompletion,
    ChatCompletionChunk,
    ChatCompletionDeleted,
    ChatCompletionList,
    ChatCompletionMessageList,
    ChatCompletionRequest,
    Metadata,
    SourceList,
    WorkspaceId,
)
from chatspace.types.chat import COMPLETION_SEARCH_MAX_CHARS

router = APIRouter(tags=["chat"], responses=error_responses(401, 429), route_class=BoundedJSONRoute)

WorkspaceQuery = Annotated[WorkspaceId, Query(description="The workspace to look in.")]
Limit = Annotated[int, Query(ge=1, le=100, description="Items per page, 1 to 100.")]
Order = Annotated[Literal["asc", "desc"], Query(description="Sort by timestamp.")]
After = Annotated[str | None, Query(description="The last id of the previous page.")]
SSE_HEADERS = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
IGNORED_HEADER = "X-Chatspace-Ignored"
_METADATA_PARAM = re.compile(r"^metadata\[(.+)\]$")
_metadata_adapter: TypeAdapter[dict[str, str]] = TypeAdapter(Metadata)
_EVENT_DATA = {"type": "string", "contentMediaType": "application/json"}
_SSE_EVENT: dict[str, Any] = {
    "title": "ChatCompletionEvent",
    "description": "One server-sent event: a `chat.completion.chunk`, an error after the "
    "first byte, or `[DONE]` last.",
    "type": "object",
    "required": ["data"],
    "properties": {
        "data": {
            "anyOf": [
                {
                    **_EVENT_DATA,
                    "contentSchema": {"$ref": "#/components/schemas/ChatCompletionChunk"},
                },
                {
                    **_EVENT_DATA,
                    "contentSchema": {
                        "type": "object",
                        "required": ["error"],
                        "properties": {"error": {"$ref": "#/components/schemas/ErrorObject"}},
                    },
                },
                {"const": "[DONE]"},
            ]
        }
    },
}
_CREATE_RESPONSES: dict[int | str, dict[str, Any]] = {
    200: {
        "model": ChatCompletion,
        "description": "The completion; with `stream: true`, `chat.completion.chunk` events.",
        "content": {"text/event-stream": {"schema": _SSE_EVENT}},
    }
}


def openapi_components() -> dict[str, Any]:
    """The schemas :data:`_SSE_EVENT` names, which no route's model brings into the document."""
    schema = TypeAdapter(ChatCompletionChunk).json_schema(
        mode="serialization", ref_template="#/components/schemas/{model}"
    )
    return {**schema.pop("$defs", {}), "ChatCompletionChunk": schema}


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
    created = await operations.create_completion(
        state,
        caller=caller,
        body=body,
        key=idempotency_key,
        request_id=request.state.request_id,
    )
    response: Response
    if created.stream is not None:
        headers = {**SSE_HEADERS, REPLAY_HEADER: "true"} if created.replayed else SSE_HEADERS
        response = StreamingResponse(
            created.stream, media_type="text/event-stream", headers=headers
        )
    else:
        assert created.answer is not None
        response = response_of(created.answer)
    if created.ignored:
        response.headers[IGNORED_HEADER] = ", ".join(created.ignored)
    return response


def _metadata_filter(request: Request) -> dict[str, str]:
    """The ``metadata[KEY]=VALUE`` query parameters, bounded as stored metadata is (so
    that a thousand of them are a 422, not a query too large for SQLite)."""
    found = {}
    for name, value in request.query_params.multi_items():
        if match := _METADATA_PARAM.match(name):
            found[match.group(1)] = value
    return _as_metadata(found, ("query", "metadata"))


def _as_metadata(value: Any, loc: tuple[str, ...]) -> dict[str, str]:
    """``value`` as completion metadata; a 422 under ``loc`` if it is not."""
    try:
        return _metadata_adapter.validate_python(value)
    except ValidationError as exc:
        raise RequestValidationError(faults_at(loc, exc)) from None


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
    search: Annotated[
        str | None,
        Query(
            min_length=1,
            max_length=COMPLETION_SEARCH_MAX_CHARS,
            description="Only completions whose question or answer holds every word of this "
            "text (letters and digits; case, accents and order do not matter; punctuation "
            "separates words).",
        ),
    ] = None,
) -> ChatCompletionList:
    """Stored completions, oldest first; also filtered by `metadata[KEY]=VALUE` parameters
    and by the words of `search`."""
    return operations.list_completions(
        state,
        caller=caller,
        workspace=workspace,
        after=after,
        limit=limit,
        order=order,
        model=model,
        metadata=_metadata_filter(request),
        search=search,
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
    return operations.get_completion(
        state, caller=caller, workspace=workspace, completion_id=completion_id
    )


def _metadata_body(body: dict[str, Any]) -> dict[str, str]:
    """The new metadata: the body itself, or its ``metadata`` (what the openai package sends)."""
    loc: tuple[str, ...] = ("body",)
    if set(body) == {"metadata"} and (
        body["metadata"] is None or isinstance(body["metadata"], dict)
    ):
        body, loc = body["metadata"] or {}, ("body", "metadata")
    return _as_metadata(body, loc)


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
    return operations.update_metadata(
        state, caller=caller, workspace=workspace, completion_id=completion_id, metadata=metadata
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
    return operations.delete_completion(
        state, caller=caller, workspace=workspace, completion_id=completion_id
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
    return operations.list_messages(
        state,
        caller=caller,
        workspace=workspace,
        completion_id=completion_id,
        after=after,
        limit=limit,
        order=order,
    )


@router.get(
    "/chat/completions/{completion_id}/sources",
    response_model=SourceList,
    responses=error_responses(404),
    summary="List the sources of a stored chat completion",
)
def list_chat_completion_sources(
    completion_id: str, caller: CallerDep, state: StateDep, workspace: WorkspaceQuery = "default"
) -> SourceList:
    """The passages retrieved for the completion, best first: the quote the answer cites
    from each (else the one it would), its relevance, whether the model was given it
    (`sent`) and whether the answer cites it (`cited`). A deleted file's rows keep only
    its id, scores and flags, with `deleted` true."""
    return operations.list_sources_of(
        state, caller=caller, workspace=workspace, completion_id=completion_id
    )
