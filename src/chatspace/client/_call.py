"""A request described as data, so that resources build it once for both clients.

Resources build a :class:`Call`; :class:`~chatspace.client.Client` runs it with blocking
I/O and :class:`~chatspace.client.AsyncClient` with ``await``. Everything between (the
headers, the retries, the error mapping, the parsing) is shared.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, TypeVar
from urllib.parse import quote

import pydantic_core

if TYPE_CHECKING:
    from ._uploads import Upload

__all__ = ["Call", "dump", "no_content", "segment"]

R = TypeVar("R")


@dataclass(slots=True)
class Call(Generic[R]):
    """One API operation: what to send, and how to read the answer into an ``R``.

    ``create`` marks a POST that creates something: it carries an ``Idempotency-Key``,
    made once and kept across retries, so that a retry never creates twice.
    """

    method: str
    path: str
    parse: Callable[[bytes], R]
    params: dict[str, Any] | None = None
    content: bytes | None = None
    upload: Upload | None = None
    headers: dict[str, str] | None = None
    create: bool = False
    stream: bool = False

    @property
    def replayable(self) -> bool:
        """Whether the body can be sent again (a non-seekable upload cannot, once read)."""
        return self.upload is None or self.upload.replayable


def no_content(content: bytes) -> None:
    """The parser of calls whose answer carries nothing the caller needs."""


def dump(value: Any, *, exclude_none: bool = False) -> bytes:
    """JSON bytes of ``value``; pydantic models inside are serialized as well."""
    return pydantic_core.to_json(value, exclude_none=exclude_none)


def segment(value: str) -> str:
    """An id made safe as one path segment."""
    if not value:
        raise ValueError("an id must not be empty")
    return quote(value, safe="")
