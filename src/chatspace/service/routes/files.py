"""Files: HTTP over :mod:`chatspace.service.operations.files` (upload, list, get, delete,
content, text, metadata) and :mod:`~chatspace.service.operations.file_search` (search).

Uploads are parsed by :mod:`chatspace.service.http.uploads` from the raw stream (so the body
is never held whole); their OpenAPI body is declared by hand in :data:`UPLOAD_BODY`.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Body, Header, Query, Request
from fastapi.exceptions import RequestValidationError
from pydantic import TypeAdapter, ValidationError
from starlette.concurrency import run_in_threadpool
from starlette.responses import FileResponse, PlainTextResponse, Response

from chatspace.service.http.content import blob_response
from chatspace.service.http.deps import CallerDep, StateDep
from chatspace.service.http.errors import error_responses, faults_at
from chatspace.service.http.idempotency import IdempotencyKeyDep, response_of
from chatspace.service.http.limits import BoundedJSONRoute
from chatspace.service.http.uploads import read_fields, receive_upload
from chatspace.service.operations import files as operations
from chatspace.service.operations.file_search import search_files
from chatspace.service.operations.files import MAX_INSTRUCTIONS
from chatspace.types import FileSearchRequest, SearchResults, WorkspaceId
from chatspace.types.common import JSON_OBJECT_STRING
from chatspace.types.files import (
    FILE_METADATA_MAX_KEY_LENGTH,
    FILE_METADATA_MAX_KEYS,
    File,
    FileDeleted,
    FileLimits,
    FileList,
)
from chatspace.types.filters import FILTER_STRING, read_filter

router = APIRouter(
    tags=["files"], responses=error_responses(401, 429), route_class=BoundedJSONRoute
)

WorkspaceQuery = Annotated[
    WorkspaceId, Query(description="The workspace the file is in (default `default`).")
]

UPLOAD_BODY: dict[str, Any] = {
    "requestBody": {
        "required": True,
        "content": {
            "multipart/form-data": {
                "schema": {
                    "title": "FileUpload",
                    "type": "object",
                    "required": ["file"],
                    "properties": {
                        "file": {
                            "type": "array",
                            "items": {"type": "string", "format": "binary"},
                            "minItems": 1,
                            "description": "The file to upload; repeat the part to upload "
                            "several files in one request.",
                        },
                        "purpose": {
                            "type": "string",
                            "enum": ["user_data"],
                            "default": "user_data",
                        },
                        "metadata": {
                            "type": "string",
                            **JSON_OBJECT_STRING,
                            "description": "File metadata as a JSON object string.",
                        },
                        "instructions": {
                            "type": "string",
                            "minLength": 1,
                            "maxLength": MAX_INSTRUCTIONS,
                            "description": "Instructions used to derive metadata from the file.",
                        },
                        "workspace": {
                            **TypeAdapter(WorkspaceId).json_schema(),
                            "default": "default",
                        },
                    },
                }
            }
        },
    }
}


@router.post(
    "/files",
    response_model=list[File],
    openapi_extra=UPLOAD_BODY,
    responses=error_responses(403, 404, 408, 409, 413),
    summary="Upload files",
)
async def upload_files(
    request: Request, caller: CallerDep, state: StateDep, key: IdempotencyKeyDep = None
) -> Response:
    """Upload one or more files (one ``file`` part each); all are stored, or none."""
    with request.app.state.upload_slots.hold(caller.org_id, caller.user_id):
        form = await receive_upload(
            request,
            blobs=state.blobs,
            max_file_bytes=state.settings.max_upload_bytes,
            who=f"{caller.user_id} of {caller.org_id}",
        )
        try:
            fields, parts = read_fields(form)
            answer = await operations.create_files(
                state, caller=caller, fields=fields, parts=parts, key=key
            )
        finally:
            await run_in_threadpool(form.discard)
    return response_of(answer)


@router.get("/files/limits", summary="Upload limits")
def upload_limits(_: CallerDep, state: StateDep) -> FileLimits:
    """The largest file an upload may carry, so that a client refuses a larger one before
    sending it (declared before ``/files/{file_id}``, which would take the path)."""
    return FileLimits(max_file_bytes=state.settings.max_upload_bytes)


@router.get("/files", responses=error_responses(404), summary="List files")
def list_files(
    caller: CallerDep,
    state: StateDep,
    workspace: WorkspaceQuery = "default",
    after: Annotated[
        str | None, Query(description="Id of the last file of the previous page.")
    ] = None,
    limit: Annotated[int, Query(ge=1, le=10000)] = 10000,
    order: Annotated[Literal["asc", "desc"], Query(description="By created_at.")] = "desc",
    purpose: str | None = None,
    metadata: Annotated[
        str | None,
        Query(
            description=FILTER_STRING["description"],
            json_schema_extra=FILTER_STRING,
        ),
    ] = None,
) -> FileList:
    """A page of the workspace's files; ``total`` counts all that match the filters."""
    wanted = None
    if metadata is not None:
        try:
            wanted = read_filter(metadata)
        except ValidationError as exc:
            raise RequestValidationError(faults_at(("query", "metadata"), exc)) from None
    return operations.list_files(
        state,
        caller=caller,
        workspace=workspace,
        after=after,
        limit=limit,
        order=order,
        purpose=purpose,
        metadata=wanted,
    )


@router.post("/files/search", responses=error_responses(403, 404), summary="Search files")
async def search(body: FileSearchRequest, caller: CallerDep, state: StateDep) -> SearchResults:
    """The passages a completion with this question and filter part would retrieve, best
    first, each with its quote, scores and whether it passes the relevance cut (those
    that miss it follow, uncited); needs reader access."""
    return await search_files(state, caller=caller, body=body)


@router.get("/files/{file_id}", responses=error_responses(404), summary="Get a file")
def get_file(
    file_id: str, caller: CallerDep, state: StateDep, workspace: WorkspaceQuery = "default"
) -> File:
    return operations.get_file(state, caller=caller, workspace=workspace, file_id=file_id)


@router.delete("/files/{file_id}", responses=error_responses(403, 404), summary="Delete a file")
def delete_file(
    file_id: str, caller: CallerDep, state: StateDep, workspace: WorkspaceQuery = "default"
) -> FileDeleted:
    """Delete the file, its passages and its bytes."""
    return operations.delete_file(state, caller=caller, workspace=workspace, file_id=file_id)


@router.get(
    "/files/{file_id}/content",
    response_class=FileResponse,
    responses={
        200: {
            "description": "The file's bytes, with the Content-Type of its name",
            "content": {"*/*": {"schema": {"type": "string", "format": "binary"}}},
        },
        206: {"description": "The byte range asked for with a single `Range: bytes=a-b`"},
        416: {"description": "The range starts past the end of the file"},
        **error_responses(404),
    },
    summary="Download a file's content",
)
def file_content(
    file_id: str,
    caller: CallerDep,
    state: StateDep,
    workspace: WorkspaceQuery = "default",
    range_: Annotated[str | None, Header(alias="Range")] = None,
    if_range: Annotated[str | None, Header(alias="If-Range", include_in_schema=False)] = None,
) -> Response:
    stored = operations.stored_file(state, caller=caller, workspace=workspace, file_id=file_id)
    try:
        return blob_response(
            state.blobs,
            stored.blob,
            filename=stored.filename,
            content_type=stored.content_type,
            range_=range_,
            if_range=if_range,
        )
    except FileNotFoundError:  # deleted since its row was read
        raise operations.file_not_found(file_id, workspace) from None


@router.get(
    "/files/{file_id}/text",
    response_class=Response,  # not PlainTextResponse: its errors are JSON, not text/plain
    responses={
        200: {
            "description": "The file's extracted text: what retrieval searches and quotes",
            "content": {"text/plain": {"schema": {"type": "string"}}},
        },
        422: {"description": "The file has no text that can be extracted (type `no_text`)"},
        **error_responses(404),
    },
    summary="Read a file's extracted text",
)
def file_text(
    file_id: str, caller: CallerDep, state: StateDep, workspace: WorkspaceQuery = "default"
) -> Response:
    """The text retrieval extracted from the file (a chatspace addition): a PDF's or a
    DOCX's words, a table in header-led blocks. 422 ``no_text`` when it has none."""
    text = operations.file_text(state, caller=caller, workspace=workspace, file_id=file_id)
    return PlainTextResponse(text)  # Starlette adds "; charset=utf-8"


@router.patch(
    "/files/{file_id}/metadata",
    responses=error_responses(403, 404, 502, 504),
    summary="Update a file's metadata",
    openapi_extra={
        "requestBody": {
            "content": {
                "application/json": {
                    "schema": {
                        "type": "object",
                        "maxProperties": FILE_METADATA_MAX_KEYS,
                        "propertyNames": {
                            "minLength": 1,
                            "maxLength": FILE_METADATA_MAX_KEY_LENGTH,
                        },
                    }
                }
            }
        }
    },
)
async def update_metadata(
    file_id: str,
    body: Annotated[
        dict[str, Any],
        Body(
            description="Keys to merge into the metadata; a null value removes the key. "
            "The key `instructions` (a string) derives metadata from the file's content.",
            examples=[{"project": "apollo", "draft": None}],
        ),
    ],
    caller: CallerDep,
    state: StateDep,
    workspace: WorkspaceQuery = "default",
) -> File:
    return await operations.patch_metadata(
        state, caller=caller, workspace=workspace, file_id=file_id, body=body
    )
