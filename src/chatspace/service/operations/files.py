"""Files: the operations behind ``/files``.

Storing an upload and patching metadata (possibly derived by ``instructions``) span the
disk, a model and the database. Both follow one order, so that nothing half-done is ever
visible or left behind: check what can be checked without writing, run the slow work
(text extraction, the model) outside any transaction, then write rows, blobs and the
search index in one transaction that re-checks access; blobs moved in place are removed
again if that transaction fails. Reading needs ``reader`` access to the workspace;
uploading, patching and deleting need ``writer``.
"""

from __future__ import annotations

import mimetypes
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal

import anyio
import sqlalchemy as sa
from pydantic import Field, field_validator
from pydantic_core import PydanticCustomError

from chatspace.service.access import Caller, require_access
from chatspace.service.idempotency import Answer, Once
from chatspace.service.json_values import JSONRejected, parse_json_object
from chatspace.service.operations import reading, writing
from chatspace.service.problems import Invalid
from chatspace.service.retrieval.extract import Extracted, extract
from chatspace.service.retrieval.indexing import index_files
from chatspace.service.state import AppState
from chatspace.service.store import files as file_store
from chatspace.service.store.blobs import TempBlob
from chatspace.service.store.files import file_not_found
from chatspace.types.common import RequestModel, WorkspaceId
from chatspace.types.files import File, FileDeleted, FileList, file_metadata_problem
from chatspace.types.filters import MetadataFilter

__all__ = [
    "MAX_INSTRUCTIONS",
    "StoredFile",
    "UploadFields",
    "create_files",
    "delete_file",
    "file_not_found",
    "file_text",
    "get_file",
    "list_files",
    "patch_metadata",
    "stored_file",
]

MAX_INSTRUCTIONS = 20_000
NO_TEXT = (
    "The file has no text that can be extracted (binary, empty, damaged or over a size "
    "bound); download its content instead."
)


class UploadFields(RequestModel):
    """The text fields of ``POST /files``, validated like a JSON body."""

    purpose: Literal["user_data"] = "user_data"
    metadata: dict[str, Any] | None = Field(
        default=None, description="File metadata: a JSON object, as a string."
    )
    instructions: Annotated[str, Field(min_length=1, max_length=MAX_INSTRUCTIONS)] | None = None
    workspace: WorkspaceId = "default"

    @field_validator("metadata", mode="before")
    @classmethod
    def _metadata_object(cls, value: Any) -> Any:
        parsed = value
        if isinstance(value, str):
            try:
                parsed = parse_json_object(value)
            except JSONRejected as exc:
                raise PydanticCustomError(exc.kind, exc.msg) from None
        if parsed is not None and (problem := file_metadata_problem(parsed)):
            raise PydanticCustomError("value_error", problem)
        return parsed


def _content_type(filename: str) -> str:
    return mimetypes.guess_type(filename, strict=False)[0] or "application/octet-stream"


@dataclass
class _NewFile:
    filename: str
    content_type: str
    metadata: dict[str, Any]
    status_details: str
    temp: TempBlob
    extracted: Extracted | None


def _bounded(metadata: dict[str, Any], loc: list[str | int]) -> dict[str, Any]:
    if problem := file_metadata_problem(metadata):
        raise Invalid(loc, problem)
    return metadata


async def _extract(path: Path, filename: str, content_type: str) -> Extracted | None:
    """The file's text and passages, read in a worker thread (PDFs and sheets take time)."""
    return await anyio.to_thread.run_sync(
        lambda: extract(path, filename=filename, content_type=content_type)
    )


async def _extract_stored(
    state: AppState, blob: str, filename: str, content_type: str
) -> Extracted | None:
    """A stored file's text, read from a local copy when its store is remote."""

    def run() -> Extracted | None:
        with state.blobs.local_copy(blob) as path:
            return extract(path, filename=filename, content_type=content_type)

    return await anyio.to_thread.run_sync(run)


async def _derive(
    state: AppState,
    extracted: Extracted | None,
    filename: str,
    content_type: str,
    instructions: str,
) -> tuple[dict[str, Any], str]:
    """Metadata derived from a file's text by ``instructions``, and the sentence saying so."""
    return await state.models.derive_metadata(
        text=extracted.text if extracted else None,
        filename=filename,
        content_type=content_type,
        instructions=instructions,
    )


async def create_files(
    state: AppState,
    *,
    caller: Caller,
    fields: UploadFields,
    parts: Sequence[tuple[str, TempBlob]],
    key: str | None,
) -> Answer:
    """Store received files (their stored names and temp blobs), all or none."""
    workspace = fields.workspace
    once = Once.of(
        caller,
        key,
        "POST /files",
        fields.model_dump(mode="json"),
        [(name, temp.size, temp.sha256) for name, temp in parts],
    )

    def check() -> Answer | None:
        with reading(state, caller, workspace, "writer") as conn:
            return once.prior(conn)

    if (prior := await anyio.to_thread.run_sync(check)) is not None:
        return prior

    given = fields.metadata or {}
    new_files: list[_NewFile] = []
    for name, temp in parts:
        content_type = _content_type(name)
        extracted = await _extract(temp.path, name, content_type)
        metadata, details = dict(given), ""
        if fields.instructions is not None:
            derived, details = await _derive(
                state, extracted, name, content_type, fields.instructions
            )
            metadata = _bounded({**derived, **given}, ["body", "metadata"])
        new_files.append(_NewFile(name, content_type, metadata, details, temp, extracted))

    placed: list[str] = []
    embeds = state.vectors is not None

    def write(conn: sa.Connection) -> Answer:
        now = int(time.time())
        days = state.settings.retention_days
        created: list[File] = []
        indexed: list[tuple[str, Extracted | None]] = []
        for new in new_files:
            file_id = file_store.new_file_id()
            blob = state.blobs.place(new.temp, file_id)
            placed.append(blob)
            created.append(
                file_store.create_file(
                    conn,
                    file_id=file_id,
                    org_id=caller.org_id,
                    workspace_id=workspace,
                    user_id=caller.user_id,
                    filename=new.filename,
                    size=new.temp.size,
                    sha256=new.temp.sha256,
                    content_type=new.content_type,
                    purpose=fields.purpose,
                    metadata=new.metadata,
                    status_details=new.status_details,
                    created_at=now,
                    expires_at=now + days * 86400 if days else None,
                    blob=blob,
                    vectors_pending=embeds and bool(new.extracted and new.extracted.passages),
                )
            )
            indexed.append((file_id, new.extracted))
        index_files(conn, org_id=caller.org_id, workspace_id=workspace, files=indexed)
        return once.answer(created)

    def run() -> Answer:
        try:
            answer = once.run(
                state.db,
                write,
                workspace=workspace,
                authorize=lambda conn: require_access(conn, caller, workspace, "writer"),
                looked_up=True,
            )
        except BaseException:
            state.blobs.delete_many(placed)
            raise
        if answer.replayed:  # a request under the key finished first: its files stand
            state.blobs.delete_many(placed)
        return answer

    answer = await anyio.to_thread.run_sync(run)
    if state.vectors is not None and not answer.replayed:
        state.vectors.wake()  # the passages just committed wait for their vectors
    return answer


async def patch_metadata(
    state: AppState, *, caller: Caller, workspace: str, file_id: str, body: dict[str, Any]
) -> File:
    """Merge ``body`` into the file's metadata (null removes a key); the key
    ``instructions`` derives metadata from the content instead of being stored."""
    changes = dict(body)
    instructions = changes.pop("instructions", None)
    if instructions is not None and (not isinstance(instructions, str) or not instructions):
        raise Invalid(["body", "instructions"], "Instructions must be a non-empty string.")

    def current() -> Any:
        with reading(state, caller, workspace, "writer") as conn:
            return file_store.get_file_row(
                conn,
                org_id=caller.org_id,
                workspace_id=workspace,
                file_id=file_id,
                now=int(time.time()),
            )

    row = await anyio.to_thread.run_sync(current)
    derived: dict[str, Any] = {}
    details: str | None = None
    if instructions is not None:
        extracted = await _extract_stored(state, row.blob, row.filename, row.content_type)
        derived, details = await _derive(
            state, extracted, row.filename, row.content_type, instructions
        )

    def write() -> File:
        with writing(state, caller, workspace) as conn:
            now = int(time.time())
            fresh = file_store.get_file_row(
                conn, org_id=caller.org_id, workspace_id=workspace, file_id=file_id, now=now
            )
            merged = dict(fresh.metadata)
            for key, value in {**derived, **changes}.items():
                if value is None:
                    merged.pop(key, None)
                else:
                    merged[key] = value
            return file_store.update_file(
                conn,
                org_id=caller.org_id,
                workspace_id=workspace,
                file_id=file_id,
                metadata=_bounded(merged, ["body"]),
                status_details=details,
                now=now,
            )

    return await anyio.to_thread.run_sync(write)


def _now() -> int:
    return int(time.time())


def list_files(
    state: AppState,
    *,
    caller: Caller,
    workspace: str,
    after: str | None,
    limit: int,
    order: Literal["asc", "desc"],
    purpose: str | None,
    metadata: MetadataFilter | None,
) -> FileList:
    """A page of the workspace's files; ``total`` counts all that match the filters."""
    with reading(state, caller, workspace) as conn:
        return file_store.list_files(
            conn,
            org_id=caller.org_id,
            workspace_id=workspace,
            now=_now(),
            after=after,
            limit=limit,
            order=order,
            purpose=purpose,
            metadata=metadata,
        )


def get_file(state: AppState, *, caller: Caller, workspace: str, file_id: str) -> File:
    with reading(state, caller, workspace) as conn:
        return file_store.get_file(
            conn, org_id=caller.org_id, workspace_id=workspace, file_id=file_id, now=_now()
        )


def delete_file(state: AppState, *, caller: Caller, workspace: str, file_id: str) -> FileDeleted:
    """Delete the file, its passages and its bytes."""
    with writing(state, caller, workspace) as conn:
        blob = file_store.delete_file(
            conn, org_id=caller.org_id, workspace_id=workspace, file_id=file_id, now=_now()
        )
    state.blobs.delete(blob)
    return FileDeleted(id=file_id)


@dataclass(frozen=True, slots=True)
class StoredFile:
    """Where a file's bytes are and what they are: what its content and text answer with."""

    blob: str
    filename: str
    content_type: str


def stored_file(state: AppState, *, caller: Caller, workspace: str, file_id: str) -> StoredFile:
    """The bytes of a file the caller may read (the route streams them: http/content.py)."""
    with reading(state, caller, workspace) as conn:
        row = file_store.get_file_row(
            conn, org_id=caller.org_id, workspace_id=workspace, file_id=file_id, now=_now()
        )
    return StoredFile(row.blob, row.filename, row.content_type)


def file_text(state: AppState, *, caller: Caller, workspace: str, file_id: str) -> str:
    """The text retrieval extracted from the file; 422 ``no_text`` when it has none."""
    stored = stored_file(state, caller=caller, workspace=workspace, file_id=file_id)
    with state.blobs.local_copy(stored.blob) as path:
        extracted = extract(path, filename=stored.filename, content_type=stored.content_type)
    if extracted is None:
        raise Invalid(["path", "file_id"], NO_TEXT, "no_text")
    return extracted.text
