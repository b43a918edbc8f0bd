"""Pieces shared by every resource of the wire format: identifiers, metadata, errors."""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

__all__ = [
    "WORKSPACE_ID_PATTERN",
    "ErrorResponse",
    "HTTPValidationError",
    "Metadata",
    "RequestModel",
    "ValidationErrorItem",
    "WireModel",
    "WorkspaceId",
]

WORKSPACE_ID_PATTERN = r"^[a-z0-9]+(?:[-_][a-z0-9]+)*$"

WorkspaceId = Annotated[
    str, StringConstraints(pattern=WORKSPACE_ID_PATTERN, min_length=1, max_length=64)
]
"""A workspace identifier: lowercase letters and digits, single ``-`` or ``_`` between."""

Metadata = Annotated[
    dict[
        Annotated[str, StringConstraints(max_length=64)],
        Annotated[str, StringConstraints(max_length=512)],
    ],
    Field(max_length=16),
]
"""Completion metadata: at most 16 string pairs, keys up to 64 and values up to 512 characters."""


class WireModel(BaseModel):
    """Base of every answer the service sends: unknown fields are kept, not dropped.

    A newer service may add fields; an older client keeps them in ``model_extra``
    instead of failing.
    """

    model_config = ConfigDict(extra="allow", populate_by_name=True)


class RequestModel(BaseModel):
    """Base of request bodies: an unknown field is a 422 rather than silently ignored."""

    model_config = ConfigDict(extra="forbid")


class ValidationErrorItem(BaseModel):
    """One fault of a 422 answer."""

    loc: list[str | int]
    msg: str
    type: str


class HTTPValidationError(BaseModel):
    """The body of every 422 answer."""

    detail: list[ValidationErrorItem]


class ErrorResponse(BaseModel):
    """The body of every error answer other than 422: one plain sentence."""

    detail: str
