"""What the service does, one module per resource, below the HTTP routes.

Every operation has one shape: ``name(state, *, caller, ...)``; it authorizes
(:func:`~chatspace.service.access.require_access`), runs slow work (extraction, a model)
outside any transaction, and writes in one transaction. A creating operation runs that
transaction through :meth:`~chatspace.service.idempotency.Once.run`, the one place where an
``Idempotency-Key`` is looked up and its answer remembered. Operations raise the domain
errors of :mod:`~chatspace.service.problems` and return data, never a response: they
import nothing of FastAPI, Starlette or the HTTP edge (:mod:`~chatspace.service.http`).
The routes (:mod:`~chatspace.service.routes`) parse, call one operation and answer.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import sqlalchemy as sa

from chatspace.service.access import Caller, Level, require_access
from chatspace.service.state import AppState
from chatspace.service.store.transactions import write_transaction

__all__ = ["reading", "vectors_stored", "writing"]


@contextmanager
def reading(
    state: AppState, caller: Caller, workspace: str, level: Level = "reader"
) -> Iterator[sa.Connection]:
    """A connection for reads, once the caller is found to have ``level`` access."""
    with state.db.connect() as conn:
        require_access(conn, caller, workspace, level)
        yield conn


async def vectors_stored(state: AppState, caller: Caller, workspace: str) -> None:
    """Before a question is answered from ``workspace``: wait (up to the service's
    ``vectors_wait_seconds``) for the vectors its files still wait for, so that a question
    asked right after an upload is ranked as it will be later
    (:meth:`~chatspace.service.vectors.BackgroundVectors.wait_for`)."""
    if state.vectors is not None:
        await state.vectors.wait_for(
            (caller.org_id, workspace), state.settings.vectors_wait_seconds
        )


@contextmanager
def writing(
    state: AppState, caller: Caller, workspace: str, level: Level = "writer"
) -> Iterator[sa.Connection]:
    """A write transaction in the workspace (its writers queue), once the caller is found
    to have ``level`` access in it."""
    with write_transaction(state.db, workspace=(caller.org_id, workspace)) as conn:
        require_access(conn, caller, workspace, level)
        yield conn
