"""Files on the wire (docs/interface.md#files)."""

from __future__ import annotations

import json
from typing import Any, Literal

from pydantic import Field

from .common import WireModel

__all__ = [
    "FILE_METADATA_MAX_BYTES",
    "FILE_METADATA_MAX_KEYS",
    "FILE_METADATA_MAX_KEY_LENGTH",
    "VECTORS_PENDING",
    "File",
    "FileDeleted",
    "FileLimits",
    "FileList",
    "file_metadata_problem",
]

FILE_METADATA_MAX_KEYS = 256
FILE_METADATA_MAX_KEY_LENGTH = 128
FILE_METADATA_MAX_BYTES = 64 * 1024
"""Bounds of a file's metadata (docs/interface.md#metadata-and-instructions)."""

VECTORS_PENDING = "Passage vectors pending: until they are stored, the file is found by its words."
"""The sentence that ends a file's ``status_details`` while its passages wait for their
vectors (docs/interface.md#upload); it goes once they are stored."""


def file_metadata_problem(metadata: object) -> str | None:
    """Why ``metadata`` cannot be a file's metadata, in one sentence; None when it can."""
    if not isinstance(metadata, dict):
        return "File metadata must be a JSON object."
    if len(metadata) > FILE_METADATA_MAX_KEYS:
        return f"File metadata has {len(metadata)} keys; at most {FILE_METADATA_MAX_KEYS} allowed."
    for key in metadata:
        if not 1 <= len(key) <= FILE_METADATA_MAX_KEY_LENGTH:
            return f"File metadata keys must have 1 to {FILE_METADATA_MAX_KEY_LENGTH} characters."
    size = len(json.dumps(metadata, ensure_ascii=False, separators=(",", ":")).encode())
    if size > FILE_METADATA_MAX_BYTES:
        return f"File metadata is {size} bytes of JSON; at most {FILE_METADATA_MAX_BYTES} allowed."
    return None


class File(WireModel):
    """An uploaded file. ``created_at`` and ``expires_at`` are Unix seconds."""

    id: str
    object: Literal["file"] = "file"
    bytes: int
    created_at: int
    filename: str
    purpose: str = "user_data"
    status: str = "uploaded"
    status_details: str = ""
    expires_at: int | None = None
    org_id: str
    workspace_id: str = "default"
    user_id: str
    metadata: dict[str, Any] = Field(default_factory=dict)


class FileList(WireModel):
    """A page of files. ``total`` counts every match over all pages."""

    data: list[File]
    object: Literal["list"] = "list"
    total: int
    first_id: str | None = None
    last_id: str | None = None
    has_more: bool = False


class FileDeleted(WireModel):
    id: str
    object: Literal["file"] = "file"
    deleted: bool = True


class FileLimits(WireModel):
    """What an upload may be (``GET /files/limits``): a client refuses a file over
    ``max_file_bytes`` before sending its bytes, instead of learning it from a 413."""

    object: Literal["files.limits"] = "files.limits"
    max_file_bytes: int
