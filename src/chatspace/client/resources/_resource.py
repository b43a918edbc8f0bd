"""The base of every resource: a client to run calls, and the workspace to use."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any
from urllib.parse import quote

import pydantic_core

if TYPE_CHECKING:
    from chatspace.client._base import BaseClient

__all__ = ["Resource", "dump", "segment"]


class Resource:
    """Builds :class:`~chatspace.client._call.Call` objects; the client runs them."""

    __slots__ = ("_client",)

    def __init__(self, client: BaseClient) -> None:
        # Typed loosely: a sync client returns values, an async one awaitables.
        self._client: Any = client

    def _ws(self, workspace: str | None) -> str:
        return workspace or self._client._workspace

    def __repr__(self) -> str:
        return f"<{type(self).__name__} of {self._client!r}>"


def dump(value: Any, *, exclude_none: bool = False) -> bytes:
    """JSON bytes of ``value``; pydantic models inside are serialized as well."""
    return pydantic_core.to_json(value, exclude_none=exclude_none)


def segment(value: str) -> str:
    """An id made safe as one path segment."""
    if not value:
        raise ValueError("an id must not be empty")
    return quote(value, safe="")
