"""Files on the wire (seed 2.5, contract section 5)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from .common import WireModel

__all__ = ["File", "FileDeleted", "FileList"]


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
