"""The models a service serves (``GET /models``) and connecting more (``POST /models``,
docs/interface.md#models)."""

from __future__ import annotations

import re
from typing import Annotated, Literal

from pydantic import AfterValidator, Field, SecretStr, StringConstraints
from pydantic_core import PydanticCustomError

from .common import RequestModel, WireModel

__all__ = [
    "MODEL_NAME_PATTERN",
    "Model",
    "ModelCheck",
    "ModelConnection",
    "ModelDeleted",
    "ModelList",
]

MODEL_NAME_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9._:/@+-]{0,127}$"
"""A model name users pick: a letter or digit, then letters, digits and ``._:/@+-``."""
_URL_PATTERN = r"^https?://[^\s/]+"


def _matching(pattern: str, says: str) -> AfterValidator:
    """A check of ``pattern`` whose error is the sentence ``says`` (the schema states the
    pattern too, through ``Field``), instead of pydantic's "should match pattern"."""

    def check(value: str) -> str:
        if not re.match(pattern, value):
            raise PydanticCustomError("string_pattern_mismatch", says)
        return value

    return AfterValidator(check)


class Model(WireModel):
    id: str
    object: str = "model"
    created: int = 0
    owned_by: str


class ModelList(WireModel):
    object: str = "list"
    data: list[Model] = Field(default_factory=list)


class ModelConnection(RequestModel):
    """A model served by forwarding to an OpenAI-compatible server (``POST /models``).

    ``key`` is write-only: no answer, listing, log line or error shows it again."""

    id: Annotated[
        str,
        Field(json_schema_extra={"pattern": MODEL_NAME_PATTERN}),
        _matching(
            MODEL_NAME_PATTERN,
            "A model name starts with a letter or digit and holds only letters, digits and "
            ". _ : / @ + - (at most 128 characters)",
        ),
    ]
    url: Annotated[
        str,
        Field(max_length=2048, json_schema_extra={"pattern": _URL_PATTERN}),
        _matching(_URL_PATTERN, "The URL must start with http:// or https://"),
    ]
    """The server's OpenAI-compatible base URL (usually ending in ``/v1``)."""
    model: Annotated[str, StringConstraints(min_length=1, max_length=256)] | None = None
    """The server's name for the model; default: ``id``."""
    key: Annotated[SecretStr, Field(max_length=4096)] | None = None
    timeout: Annotated[float, Field(gt=0, le=3600)] = 120.0
    """Seconds an answer of the server may take."""
    replace: bool = False
    """Change the connection of that name instead of refusing it (409)."""
    check: bool = True
    """Ask the server first (it answers, accepts the key, serves the model): a 422 naming
    what failed, and nothing saved, when it does not."""


class ModelCheck(WireModel):
    """What the server of a connection answered when asked for its models."""

    id: str
    object: Literal["model.check"] = "model.check"
    ok: bool
    """Whether the server answered, accepted the key and serves the model."""
    detail: str
    """One sentence: what the server answered, or what failed and what to do."""
    served: list[str] = Field(default_factory=list)


class ModelDeleted(WireModel):
    id: str
    object: str = "model"
    deleted: bool = True
