"""The two file operations that span the disk, a model and the database: storing an
upload, and patching metadata (possibly derived by ``instructions``).

Both follow one order, so that nothing half-done is ever visible or left behind: check
what can be checked without writing, run the slow work (text extraction, the model)
outside any transaction, then write rows, blobs and the search index in one transaction
that re-checks access; blobs moved in place are removed again if that transaction fails.
"""

from __future__ import annotations

import mimetypes
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal

import anyio
from fastapi.exceptions import RequestValidationError
from pydantic import Field, ValidationError, field_validator
from pydantic_core import PydanticCustomError
from starlette.concurrency import run_in_threadpool

from chatspace.types.common import RequestModel, WorkspaceId
from chatspace.types.files import File, file_metadata_problem

from .deps import Caller, require_access
from .idempotency import Answer, fingerprint, lookup, remember
from .json_values import JSONRejected
from .problems import Invalid
from .retrieval.extract import Extracted, extract
from .retrieval.indexing import PassageVectors, embed_passages, index_file
from .state import AppState
from .store import files as file_store
from .store.blobs import TempBlob
from .store.transactions import write_transaction
from .uploads import FILE_FIELD, UploadForm

__all__ = ["UploadFields", "create_files", "patch_metadata", "safe_filename"]

MAX_FILENAME = 255
MAX_INSTRUCTIONS = 20_000


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
                parsed = file_store.parse_json_object(value)
            except JSONRejected as exc:
                raise PydanticCustomError(exc.kind, exc.msg) from None
        if parsed is not None and (problem := file_metadata_problem(parsed)):
            raise PydanticCustomError("value_error", problem)
        return parsed


def safe_filename(raw: str) -> str | None:
    """The last path component of an uploaded name, without control characters.

    ``../../etc/passwd`` is ``passwd``, ``C:\\Users\\x\\a.txt`` is ``a.txt``; None when
    nothing usable remains. The result is only ever stored, never used as a path.
    """
    name = raw.replace("\\", "/").rsplit("/", 1)[-1]
    name = "".join(ch for ch in name if ch.isprintable()).strip()
    return None if name in {"", ".", ".."} else name


def _fields(form: UploadForm) -> tuple[UploadFields, list[str]]:
    """The validated text fields and the stored filenames; 422 with every fault at once."""
    errors: list[dict[str, Any]] = []
    single: dict[str, str] = {}
    for name, values in form.fields.items():
        if name == FILE_FIELD:
            errors.append(_error(name, "Expected a file: a part with a filename.", "value_error"))
        elif len(values) > 1:
            errors.append(_error(name, "The field is given more than once.", "value_error"))
        else:
            single[name] = values[0]
    errors += [
        _error(n, "Extra inputs are not permitted", "extra_forbidden") for n in form.stray_files
    ]
    if not form.files and FILE_FIELD not in form.fields:
        errors.append(_error(FILE_FIELD, "Field required", "missing"))
    names: list[str] = []
    for i, part in enumerate(form.files):
        kept = safe_filename(part.filename)
        if kept is None:
            errors.append(_error(FILE_FIELD, "The file part needs a filename.", "value_error", i))
        elif len(kept) > MAX_FILENAME:
            msg = f"The filename is longer than {MAX_FILENAME} characters."
            errors.append(_error(FILE_FIELD, msg, "string_too_long", i))
        names.append(kept or "")
    try:
        fields = UploadFields.model_validate(single)
    except ValidationError as exc:
        errors += [
            {"loc": ("body", *e["loc"]), "msg": e["msg"], "type": e["type"]} for e in exc.errors()
        ]
    if errors:
        raise RequestValidationError(errors)
    return fields, names


def _error(name: str, msg: str, kind: str, index: int | None = None) -> dict[str, Any]:
    loc: tuple[str | int, ...] = ("body", name) if index is None else ("body", name, index)
    return {"loc": loc, "msg": msg, "type": kind}


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
    vectors: PassageVectors | None


def _bounded(metadata: dict[str, Any], loc: list[str | int]) -> dict[str, Any]:
    if problem := file_metadata_problem(metadata):
        raise Invalid(loc, problem)
    return metadata


async def _extract(path: Path, filename: str, content_type: str) -> Extracted | None:
    """The file's text and passages, read in a worker thread (PDFs and sheets take time)."""
    return await anyio.to_thread.run_sync(
        lambda: extract(path, filename=filename, content_type=content_type)
    )


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
    state: AppState, *, caller: Caller, form: UploadForm, key: str | None
) -> Answer:
    """Store the files of a received upload (all or none) and return the answer."""
    fields, names = _fields(form)
    workspace = fields.workspace
    parts = [(name, part.temp) for name, part in zip(names, form.files, strict=True)]
    fp = fingerprint(
        "POST /files",
        fields.model_dump(mode="json"),
        [(name, temp.size, temp.sha256) for name, temp in parts],
    )

    def check() -> Answer | None:
        with state.db.connect() as conn:
            require_access(conn, caller, workspace, "writer")
            return lookup(conn, caller=caller, key=key, fingerprint=fp)

    if (prior := await run_in_threadpool(check)) is not None:
        return prior

    given = fields.metadata or {}
    new_files: list[_NewFile] = []
    for name, temp in parts:
        content_type = _content_type(name)
        extracted = await _extract(temp.path, name, content_type)
        embedder = state.dense.embedder if state.dense else None
        vectors = await anyio.to_thread.run_sync(embed_passages, extracted, embedder)
        metadata, details = dict(given), ""
        if fields.instructions is not None:
            derived, details = await _derive(
                state, extracted, name, content_type, fields.instructions
            )
            metadata = _bounded({**derived, **given}, ["body", "metadata"])
        new_files.append(_NewFile(name, content_type, metadata, details, temp, extracted, vectors))

    def write() -> Answer:
        placed: list[str] = []
        try:
            with write_transaction(state.db) as conn:
                require_access(conn, caller, workspace, "writer")
                if (prior := lookup(conn, caller=caller, key=key, fingerprint=fp)) is not None:
                    return prior
                now = int(time.time())
                days = state.settings.retention_days
                created: list[File] = []
                for new in new_files:
                    file_id = file_store.new_file_id()
                    blob = state.blobs.name_for(file_id)
                    state.blobs.place(new.temp, blob)
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
                        )
                    )
                    index_file(
                        conn,
                        file_id=file_id,
                        org_id=caller.org_id,
                        workspace_id=workspace,
                        extracted=new.extracted,
                        vectors=new.vectors,
                    )
                answer = Answer.from_payload(created, fingerprint=fp)
                remember(conn, caller=caller, key=key, answer=answer)
                return answer
        except BaseException:
            state.blobs.delete_many(placed)
            raise

    return await run_in_threadpool(write)


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
        with state.db.connect() as conn:
            require_access(conn, caller, workspace, "writer")
            return file_store.get_file_row(
                conn,
                org_id=caller.org_id,
                workspace_id=workspace,
                file_id=file_id,
                now=int(time.time()),
            )

    row = await run_in_threadpool(current)
    derived: dict[str, Any] = {}
    details: str | None = None
    if instructions is not None:
        extracted = await _extract(state.blobs.path(row.blob), row.filename, row.content_type)
        derived, details = await _derive(
            state, extracted, row.filename, row.content_type, instructions
        )

    def write() -> File:
        with write_transaction(state.db) as conn:
            require_access(conn, caller, workspace, "writer")
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

    return await run_in_threadpool(write)
