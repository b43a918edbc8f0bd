"""Cleaning up after crashes and expiring files, while the service runs.

At start: files past their ``expires_at`` are deleted, old idempotency keys forgotten,
and the blob store swept of what a crash left (uploads in progress of dead processes,
blobs whose row never committed). Then every :data:`EXPIRY_INTERVAL` seconds, old
idempotency keys are forgotten and, with ``--retention-days``, expired files deleted.
Passages stored without a vector of the service's embedding model (before vectors
existed, or under another model) get one in the background, :data:`EMBED_BATCH` at a
time, each batch its own short transaction.
"""

from __future__ import annotations

import logging
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import anyio
from starlette.concurrency import run_in_threadpool

from .retrieval.embeddings import to_blobs
from .state import AppState
from .store import files as file_store
from .store import idempotency as idempotency_store
from .store import passages as passage_store
from .store.transactions import write_transaction

__all__ = [
    "EMBED_BATCH",
    "EXPIRY_INTERVAL",
    "embed_missing",
    "expire_files",
    "forget_old_keys",
    "running",
    "sweep",
]

log = logging.getLogger("chatspace.service")

EXPIRY_INTERVAL = 600.0
EMBED_BATCH = 256


def expire_files(state: AppState) -> int:
    """Delete the files past their ``expires_at`` (rows, passages, blobs); how many."""
    with write_transaction(state.db) as conn:
        blobs = file_store.purge_expired(conn, now=int(time.time()))
    state.blobs.delete_many(blobs)
    return len(blobs)


def forget_old_keys(state: AppState) -> int:
    """Purge the idempotency keys past their 24 hours; how many."""
    with write_transaction(state.db) as conn:
        return idempotency_store.purge(conn, now=time.time())


def embed_missing(state: AppState) -> int:
    """Give one batch of passages without a vector of the service's model theirs; how
    many (0 when every passage has one, or without a model)."""
    if state.dense is None:
        return 0
    embedder = state.dense.embedder
    with state.db.connect() as conn:
        todo = passage_store.passages_without_vectors(conn, model=embedder.name, limit=EMBED_BATCH)
    if not todo:
        return 0
    blobs = to_blobs(embedder.embed([text for _, text in todo]))
    with write_transaction(state.db) as conn:
        passage_store.set_vectors(
            conn,
            model=embedder.name,
            rows=[(pid, b) for (pid, _), b in zip(todo, blobs, strict=True)],
        )
    return len(todo)


async def _embed_all(state: AppState) -> None:
    done = 0
    try:
        while count := await run_in_threadpool(embed_missing, state):
            done += count
    except Exception:
        log.exception("computing passage vectors failed; passages without one are found by text")
    if done:
        log.info("%d passage vector(s) computed", done)


def sweep(state: AppState) -> None:
    """What a service does once before it answers: expire, forget, remove debris."""
    expired = expire_files(state)
    forget_old_keys(state)
    with state.db.connect() as conn:
        referenced = file_store.referenced_blobs(conn)
    removed = state.blobs.sweep(referenced=referenced)
    if expired or removed:
        log.info(
            "start-up sweep: %d expired file(s), %d stray blob(s) removed", expired, len(removed)
        )


def _tidy(state: AppState) -> None:
    forget_old_keys(state)
    if state.settings.retention_days and (count := expire_files(state)):
        log.info("%d expired file(s) deleted", count)


async def _tidy_forever(state: AppState) -> None:
    while True:
        await anyio.sleep(EXPIRY_INTERVAL)
        try:
            await run_in_threadpool(_tidy, state)
        except Exception:
            log.exception("housekeeping failed; trying again later")


@asynccontextmanager
async def running(state: AppState) -> AsyncIterator[None]:
    """Sweep, then keep tidying up every :data:`EXPIRY_INTERVAL` seconds until exit."""
    await run_in_threadpool(sweep, state)
    async with anyio.create_task_group() as tasks:
        tasks.start_soon(_tidy_forever, state)
        tasks.start_soon(_embed_all, state)
        yield
        tasks.cancel_scope.cancel()
