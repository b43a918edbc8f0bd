"""A request described as data, so that resources are written once for both clients.

Resources build a :class:`Call`; :class:`~chatspace.client.Client` runs it with blocking
I/O and :class:`~chatspace.client.AsyncClient` with ``await``. Everything between (the
headers, the retries, the error mapping, the parsing) is shared.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ._uploads import Upload

__all__ = ["Call", "Parser"]

Parser = Callable[[bytes], Any]
"""Turns an answer's body into the value a method returns."""


@dataclass(slots=True)
class Call:
    """One API operation: what to send, and how to read the answer.

    ``create`` marks a POST that creates something: it carries an ``Idempotency-Key``,
    made once and kept across retries, so that a retry never creates twice.
    ``then`` may turn the parsed answer into a follow-up :class:`Call` (or a value).
    """

    method: str
    path: str
    params: dict[str, Any] | None = None
    content: bytes | None = None
    upload: Upload | None = None
    headers: dict[str, str] | None = None
    parse: Parser | None = None
    create: bool = False
    stream: bool = False
    then: Callable[[Any], Any] | None = field(default=None)

    @property
    def replayable(self) -> bool:
        """Whether the body can be sent again (a non-seekable upload cannot, once read)."""
        return self.upload is None or self.upload.replayable
