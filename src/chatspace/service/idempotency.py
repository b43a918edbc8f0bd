"""``Idempotency-Key`` for the creating POSTs (contract section 6).

The service keeps, per caller (org and user) and for 24 hours, each key with a fingerprint
of its request and the answer sent. The same key with the same request is answered with
that answer again (header ``Idempotent-Replayed: true``) and creates nothing; the same key
with a different request is a 409. Only successful answers are remembered, so that a
request that failed (413, 502, ...) can be retried under its key.

How a route uses it (the lookup and the creation share one write transaction, so two
concurrent requests with one key cannot both create)::

    @router.post("/things")
    def create_thing(body: ThingIn, caller: CallerDep, state: StateDep, key: IdempotencyKeyDep):
        fp = fingerprint("POST /things", body.model_dump(mode="json"))
        with write_transaction(state.db) as conn:
            if (prior := lookup(conn, caller=caller, key=key, fingerprint=fp)) is not None:
                return prior.response()
            thing = store.create_thing(conn, ...)
            answer = Answer.from_payload(thing, fingerprint=fp)
            remember(conn, caller=caller, key=key, answer=answer)
        return answer.response()

A streamed answer is remembered as what it streams (for chat, the completion JSON): on a
replay, read it back with :meth:`Answer.payload` and stream it again. A slow creation (an
upload, a model call) may also :func:`lookup` first in a read-only connection to skip the
work on a replay, and must look up again in its write transaction.
"""

from __future__ import annotations

import hashlib
import json
import time
from dataclasses import dataclass
from typing import Annotated, Any

import sqlalchemy as sa
from fastapi import Header
from fastapi.encoders import jsonable_encoder
from starlette.responses import Response

from .deps import Caller
from .problems import Conflict
from .store import idempotency as rows

__all__ = [
    "HEADER",
    "REPLAY_HEADER",
    "Answer",
    "IdempotencyKeyDep",
    "fingerprint",
    "lookup",
    "remember",
]

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


def fingerprint(*parts: Any) -> str:
    """A digest of what identifies a request: its method and path, then its inputs.

    ``parts`` must be JSON-encodable (pydantic models are encoded with ``jsonable_encoder``);
    mappings are compared regardless of key order.
    """
    canonical = json.dumps(jsonable_encoder(parts), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()


@dataclass(frozen=True, slots=True)
class Answer:
    """An answer worth remembering: status, media type and body, with its request's
    fingerprint."""

    fingerprint: str
    status_code: int = 200
    media_type: str = ""
    body: str = ""
    replayed: bool = False

    @classmethod
    def from_payload(cls, payload: Any, *, fingerprint: str, status_code: int = 200) -> Answer:
        body = json.dumps(jsonable_encoder(payload), separators=(",", ":"), ensure_ascii=False)
        return cls(fingerprint, status_code, "application/json", body)

    @classmethod
    def empty(cls, *, fingerprint: str, status_code: int = 200) -> Answer:
        """An answer with no body (the workspace POSTs of the seed)."""
        return cls(fingerprint, status_code)

    def payload(self) -> Any:
        """The JSON body as Python data (None for an empty body)."""
        return json.loads(self.body) if self.body else None

    def response(self) -> Response:
        headers = {REPLAY_HEADER: "true"} if self.replayed else None
        return Response(
            content=self.body.encode(),
            status_code=self.status_code,
            media_type=self.media_type or None,
            headers=headers,
        )


def lookup(
    conn: sa.Connection, *, caller: Caller, key: str | None, fingerprint: str
) -> Answer | None:
    """The answer to replay for this key, or None when the key is new (or absent).

    Raises :class:`~.problems.Conflict` (409) when the key was used with another request.
    """
    if key is None:
        return None
    found = rows.find(conn, org_id=caller.org_id, user_id=caller.user_id, key=key, now=time.time())
    if found is None:
        return None
    if found.fingerprint != fingerprint:
        raise Conflict(
            "This Idempotency-Key was already used with a different request; "
            "use a new key for a new request."
        )
    return Answer(found.fingerprint, found.status_code, found.media_type, found.body, True)


def remember(conn: sa.Connection, *, caller: Caller, key: str | None, answer: Answer) -> None:
    """Keep ``answer`` under ``key`` (nothing when there is no key), in the caller's
    transaction, so that it is kept exactly when what the request created is."""
    if key is None:
        return
    if lookup(conn, caller=caller, key=key, fingerprint=answer.fingerprint) is not None:
        raise Conflict("A request with this Idempotency-Key is already being processed; retry.")
    stored = rows.Remembered(answer.fingerprint, answer.status_code, answer.media_type, answer.body)
    rows.save(
        conn,
        org_id=caller.org_id,
        user_id=caller.user_id,
        key=key,
        answer=stored,
        now=time.time(),
    )
