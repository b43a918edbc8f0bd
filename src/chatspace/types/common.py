"""Pieces shared by every resource of the wire format: identifiers, metadata, errors."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, ValidationError
from pydantic_core import InitErrorDetails, PydanticCustomError

__all__ = [
    "JSON_OBJECT_STRING",
    "WORKSPACE_ID_PATTERN",
    "ErrorObject",
    "ErrorResponse",
    "HTTPValidationError",
    "Metadata",
    "Relevance",
    "RequestModel",
    "Temperature",
    "TopK",
    "ValidationErrorItem",
    "WireModel",
    "WorkspaceId",
    "relocated",
]

WORKSPACE_ID_PATTERN = r"^[a-z0-9]+(?:[-_][a-z0-9]+)*$"

TopK = Annotated[int, Field(ge=1, le=50)]
"""How many passages a search gives (a filter part's ``top_k``, ``POST /files/search``)."""
Relevance = Annotated[float, Field(ge=0, le=1)]
"""The relevance a passage needs to be cited (0: any match)."""
Temperature = Annotated[float, Field(ge=0, le=2)]
"""A request's sampling temperature (the chat panel's slider takes its bounds)."""

JSON_OBJECT_STRING: dict[str, Any] = {
    "format": "json-object",
    "contentMediaType": "application/json",
    "contentSchema": {"type": "object"},
}
"""The JSON schema words of a string that holds a JSON object (a metadata filter, ...):
``contentSchema`` says it to readers, the ``json-object`` format to tools that generate
values (a regular expression cannot)."""

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


def relocated(prefix: tuple[str | int, ...], exc: ValidationError) -> list[InitErrorDetails]:
    """The errors of a nested validation, each under ``prefix``: raised again from a wrap
    validator, they keep their own ``loc`` without pydantic's union labels."""
    return [
        InitErrorDetails(
            type=PydanticCustomError(e["type"], e["msg"]),
            loc=(*prefix, *e["loc"]),
            input=e["input"],
        )
        for e in exc.errors()
    ]


class WireModel(BaseModel):
    """Base of every answer the service sends: unknown fields are kept, not dropped.

    A newer service may add fields; an older client keeps them in ``model_extra``
    instead of failing.
    """

    model_config = ConfigDict(extra="allow", populate_by_name=True)


class RequestModel(BaseModel):
    """Base of request bodies: an unknown field is a 422 rather than silently ignored, and
    a value of the wrong JSON type too (``"strict": 0`` is not ``false``), as the OpenAPI
    document says."""

    model_config = ConfigDict(extra="forbid", strict=True)


class ValidationErrorItem(BaseModel):
    """One fault of a 422 answer."""

    loc: list[str | int]
    msg: str
    type: str


class ErrorObject(BaseModel):
    """The error in the OpenAI API's shape, so that its clients show the reason."""

    message: str
    type: str
    code: str | None = None


class HTTPValidationError(BaseModel):
    """The body of every 422 answer; ``error.message`` is the first fault on one line."""

    detail: list[ValidationErrorItem]
    error: ErrorObject


class ErrorResponse(BaseModel):
    """The body of every error answer other than 422: one plain sentence, twice."""

    detail: str
    error: ErrorObject
