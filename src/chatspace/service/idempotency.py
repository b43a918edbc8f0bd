"""Creating once under an ``Idempotency-Key`` (docs/interface.md#idempotency).

The service keeps, per caller (org and user) and for the time docs/interface.md#idempotency
states (:data:`.store.idempotency.RETENTION_SECONDS`), each key with a fingerprint of its
request and the answer sent. The same key with the same request is answered with
that answer again (header ``Idempotent-Replayed: true``) and creates nothing; the same key
with a different request is a 409. Only successful answers are remembered, so that a
request that failed (413, 502, ...) can be retried under its key.

Every creating operation (:mod:`.operations`) goes through :meth:`Once.run`: one write
transaction that authorizes, looks the key up, runs the write and remembers its answer
(the key's row is unique: its insert is the arbiter), so that two concurrent requests with
one key cannot both create::

    def create_thing(state: AppState, *, caller: Caller, body: ThingIn, key: str | None) -> Answer:
        once = Once.of(caller, key, "POST /things", body)

        def write(conn: sa.Connection) -> Answer:
            return once.answer(store.create_thing(conn, org_id=caller.org_id, ...))

        return once.run(state.db, write, workspace=ws, authorize=lambda conn: require_access(...))

The header itself, and an answer as the HTTP response it is sent as, are the HTTP
edge's (:mod:`.http.idempotency`); this module is what operations use, without HTTP.

A streamed answer is remembered as what it streams (for chat, the completion JSON): on a
replay, read it back with :meth:`Answer.payload` and stream it again. A slow creation (an
upload, a model call) may also look up first (:meth:`Once.prior`) in a read-only connection
to skip the work on a replay, and tell :meth:`Once.run` so (``looked_up=True``): the key is
then looked up once per request, and a request under it that finished meanwhile is found
by the conflict of the insert that remembers the answer.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from pydantic import TypeAdapter

from .access import Caller
from .problems import Conflict
from .store import idempotency as rows
from .store.transactions import write_transaction

__all__ = ["Answer", "Once", "fingerprint", "lookup", "remember"]

_ANY: TypeAdapter[Any] = TypeAdapter(Any)


def _plain(value: Any) -> Any:
    """``value`` as JSON data: pydantic models dumped by their aliases, tuples as lists
    (what FastAPI's ``jsonable_encoder`` gave, so fingerprints remembered before hold)."""
    return _ANY.dump_python(value, mode="json", by_alias=True)


def fingerprint(*parts: Any) -> str:
    """A digest of what identifies a request: its method and path, then its inputs.

    ``parts`` must be JSON-encodable (pydantic models are encoded as :func:`_plain` says);
    mappings are compared regardless of key order.
    """
    canonical = json.dumps(_plain(parts), sort_keys=True, separators=(",", ":"))
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
        body = json.dumps(_plain(payload), separators=(",", ":"), ensure_ascii=False)
        return cls(fingerprint, status_code, "application/json", body)

    @classmethod
    def empty(cls, *, fingerprint: str, status_code: int = 200) -> Answer:
        """An answer with no body (the workspace POSTs: docs/interface.md#workspaces)."""
        return cls(fingerprint, status_code)

    def payload(self) -> Any:
        """The JSON body as Python data (None for an empty body)."""
        return json.loads(self.body) if self.body else None


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


def remember(conn: sa.Connection, *, caller: Caller, key: str | None, answer: Answer) -> bool:
    """Keep ``answer`` under ``key`` (nothing when there is no key), in the caller's
    transaction, so that it is kept exactly when what the request created is. False when
    another request under the key was remembered first (the insert's conflict says so:
    no lookup)."""
    if key is None:
        return True
    stored = rows.Remembered(answer.fingerprint, answer.status_code, answer.media_type, answer.body)
    return rows.save(
        conn,
        org_id=caller.org_id,
        user_id=caller.user_id,
        key=key,
        answer=stored,
        now=time.time(),
    )


class _KeyTaken(Exception):
    """Rolls back a write whose key another request remembered first; carries its answer."""

    def __init__(self, prior: Answer) -> None:
        self.prior = prior


@dataclass(frozen=True, slots=True)
class Once:
    """One creating request under its (optional) ``Idempotency-Key``: who sent it, the key,
    and the fingerprint of what it asks."""

    caller: Caller
    key: str | None
    fingerprint: str

    @classmethod
    def of(cls, caller: Caller, key: str | None, *parts: Any) -> Once:
        """``parts`` as for :func:`fingerprint`: the method and path, then the inputs."""
        return cls(caller, key, fingerprint(*parts))

    def answer(self, payload: Any) -> Answer:
        """``payload`` as the JSON answer of this request."""
        return Answer.from_payload(payload, fingerprint=self.fingerprint)

    def empty(self) -> Answer:
        """The empty answer of this request (the workspace POSTs)."""
        return Answer.empty(fingerprint=self.fingerprint)

    def prior(self, conn: sa.Connection) -> Answer | None:
        """The remembered answer to replay, or None (see :func:`lookup`)."""
        return lookup(conn, caller=self.caller, key=self.key, fingerprint=self.fingerprint)

    def run(
        self,
        db: sa.Engine,
        write: Callable[[sa.Connection], Answer],
        *,
        workspace: str,
        authorize: Callable[[sa.Connection], object] | None = None,
        looked_up: bool = False,
        shared: bool = False,
    ) -> Answer:
        """In one write transaction in ``workspace`` (of the caller's organization):
        ``authorize``, then the remembered answer if there is one, else ``write``'s answer,
        remembered under the key.

        ``looked_up``: the caller already asked :meth:`prior` before its slow work (an
        upload, a model call), so the key is not looked up again; a request under it that
        finished meanwhile shows as the conflict of :func:`remember`, which rolls
        ``write`` back and answers what that request remembered. ``shared``: ``write``
        only adds rows of its own (:func:`~.store.transactions.write_transaction`)."""
        try:
            where = (self.caller.org_id, workspace)
            with write_transaction(db, workspace=where, shared=shared) as conn:
                if authorize is not None:
                    authorize(conn)
                if not looked_up and (prior := self.prior(conn)) is not None:
                    return prior
                answer = write(conn)
                if not remember(conn, caller=self.caller, key=self.key, answer=answer):
                    raise _KeyTaken(self._winner(conn))
                return answer
        except _KeyTaken as taken:
            return taken.prior

    def _winner(self, conn: sa.Connection) -> Answer:
        """What the request that took the key first remembered (409 if it asked another
        thing)."""
        prior = self.prior(conn)
        if prior is None:  # remember() saw a live row, so it is there; never reached
            raise Conflict("A request with this Idempotency-Key is already being processed; retry.")
        return prior
