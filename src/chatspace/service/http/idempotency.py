"""The ``Idempotency-Key`` header, and a remembered answer sent as a response.

What a key means (one creation per key and request, replays, 409s) is
:mod:`chatspace.service.idempotency`'s, which operations use without HTTP
(docs/interface.md#idempotency).
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Header
from starlette.responses import Response

from chatspace.service.idempotency import Answer

__all__ = ["HEADER", "REPLAY_HEADER", "IdempotencyKeyDep", "response_of"]

HEADER = "Idempotency-Key"
REPLAY_HEADER = "Idempotent-Replayed"

IdempotencyKeyDep = Annotated[
    str | None,
    Header(
        alias=HEADER,
        min_length=1,
        max_length=255,
        pattern=r"^[\x21-\x7e]+$",
        description="Makes the request safe to retry: the same key and request within 24 h "
        "get the first answer again; the same key with another request is a 409.",
    ),
]
"""The optional ``Idempotency-Key`` header: 1 to 255 visible ASCII characters."""


def response_of(answer: Answer) -> Response:
    """``answer`` as sent: its status, media type and body, marked when it is a replay."""
    headers = {REPLAY_HEADER: "true"} if answer.replayed else None
    return Response(
        content=answer.body.encode(),
        status_code=answer.status_code,
        media_type=answer.media_type or None,
        headers=headers,
    )
