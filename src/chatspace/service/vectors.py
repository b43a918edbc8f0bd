"""Passage vectors, computed in the background by every replica, across files.

An upload commits its passages without vectors (found by full text at once) and marks
its files ``vectors_pending``, whose ``status_details`` say so
(:data:`~chatspace.types.files.VECTORS_PENDING`). Each replica runs one
:class:`BackgroundVectors` task: woken by its own uploads, and every
:data:`POLL_SECONDS` for what another replica left (one that died before embedding what
it had taken in, passages of another model or older than vectors), it claims up to
:data:`BATCH` pending passages of any files, oldest first, embeds them in a thread of
its own at a lower priority (:data:`MODEL_NICE`: the event loop and the requests come
first), writes their vectors, and clears the mark of the files whose passages all have
one. A question (a completion, ``POST /files/search``) asked while a file of its
workspace waits for vectors waits for them first (:meth:`BackgroundVectors.wait_for`, up
to ``vectors_wait_seconds``): a user who uploads and asks at once gets the ranking the
vectors give, not one by words alone; that workspace's passages are claimed first. The
claim is a deadline in the passage rows
(:func:`~chatspace.service.store.passages.claim_pending`): two replicas never embed the
same passage, and the passages of a replica that dies, or stops mid-batch, are free
again after :data:`CLAIM_SECONDS`. A file deleted meanwhile is simply not there to
write to.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import threading
import time
from collections import Counter
from collections.abc import AsyncIterator, Collection, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager

import anyio
import sqlalchemy as sa

from .retrieval.embeddings import Vectors, to_blobs
from .retrieval.index import Dense
from .store import files as file_store
from .store import passages as passage_store
from .store.transactions import write_transaction

__all__ = [
    "BATCH",
    "CLAIM_SECONDS",
    "MODEL_NICE",
    "POLL_SECONDS",
    "RECHECK_SECONDS",
    "BackgroundVectors",
    "claim_batch",
    "embed_batch",
    "store_batch",
]

log = logging.getLogger("chatspace.service")

BATCH = 256
"""Passages embedded in one call of the model (a few files' worth)."""
CLAIM_SECONDS = 300.0
"""How long a claim keeps other replicas off its passages (a batch takes well under one
second; a claim older than this is a dead replica's)."""
POLL_SECONDS = 2.0
"""How often a replica that no upload woke looks for pending passages all the same."""
RECHECK_SECONDS = 0.15
"""How often a question waiting for its workspace's vectors looks at the database (for
those another replica stores; this replica's own wake it at once)."""
MODEL_NICE = 10
"""The niceness of the model's thread: on a busy machine, answering requests comes
first and vectors wait; on an idle core they are computed at once."""


def forget_other_vectors(db: sa.Engine, dense: Dense) -> int:
    """Make pending the passages whose vector is not of ``dense``'s model (or missing from
    pgvector's column), and mark the files with a pending passage; how many files."""
    with write_transaction(db) as conn:
        file_ids = passage_store.forget_other_vectors(
            conn, model=dense.embedder.name, embedding=dense.vector_column
        )
        file_store.mark_vectors_pending(conn, file_ids)
    return len(file_ids)


def claim_batch(
    db: sa.Engine, first: Collection[tuple[str, str]] = ()
) -> list[passage_store.PendingRow]:
    """Claim up to :data:`BATCH` pending passages, those of the workspaces ``first`` (where
    a question waits for them) before any other; none pending: settle the files' marks (a
    mark set as another replica cleared it, at its start) and return []."""
    now = time.time()
    until = now + CLAIM_SECONDS
    todo: list[passage_store.PendingRow] = []
    with write_transaction(db) as conn:
        for workspace in [*first, None]:
            if len(todo) < BATCH:
                todo += passage_store.claim_pending(
                    conn, limit=BATCH - len(todo), now=now, until=until, workspace=workspace
                )
    if not todo:
        with db.begin() as conn:
            file_store.settle_vectors_pending(conn)
    return todo


def store_batch(
    db: sa.Engine, dense: Dense, todo: Sequence[passage_store.PendingRow], vectors: Vectors
) -> None:
    """Write the claimed passages' vectors, then clear the marks of the files they
    complete (after the vectors commit:
    :func:`~chatspace.service.store.files.settle_vectors_pending`)."""
    blobs = to_blobs(vectors)
    with write_transaction(db) as conn:
        passage_store.set_vectors(
            conn,
            model=dense.embedder.name,
            rows=[(pid, blob) for (pid, _, _), blob in zip(todo, blobs, strict=True)],
            embeddings=dense.columns(blobs),
        )
    with db.begin() as conn:
        file_store.settle_vectors_pending(conn, {file_id for _, file_id, _ in todo})


def embed_batch(db: sa.Engine, dense: Dense) -> int:
    """Claim, embed and store one batch of pending passages; how many (0: none pending).
    Short transactions, none held while the model runs."""
    todo = claim_batch(db)
    if todo:
        store_batch(db, dense, todo, dense.embedder.embed([text for _, _, text in todo]))
    return len(todo)


def _lower_priority() -> None:
    """The model's thread yields the CPU to the requests' (Linux: a thread's own nice)."""
    with contextlib.suppress(OSError, AttributeError):
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), MODEL_NICE)


class BackgroundVectors:
    """This replica's embedder: :meth:`wake` after an upload, :meth:`running` in the
    service's lifespan."""

    def __init__(self, db: sa.Engine, dense: Dense) -> None:
        self._db = db
        self._dense = dense
        self._woken = asyncio.Event()
        self._stored = asyncio.Event()
        """Set (and replaced) each time a batch of vectors is stored and marks cleared."""
        self._waiting: Counter[tuple[str, str]] = Counter()
        """The workspaces where questions wait for vectors (claimed first)."""
        # the model runs in a thread of its own, at a lower priority; the short
        # transactions in the service's worker threads, at the requests' priority
        self._model = ThreadPoolExecutor(1, "chatspace-vectors", initializer=_lower_priority)

    async def _embed_pending(self) -> int:
        """Claim, embed and store one batch; how many passages (0: none pending)."""
        todo = await anyio.to_thread.run_sync(claim_batch, self._db, list(self._waiting))
        if todo:
            texts = [text for _, _, text in todo]
            loop = asyncio.get_running_loop()
            vectors = await loop.run_in_executor(self._model, self._dense.embedder.embed, texts)
            await anyio.to_thread.run_sync(store_batch, self._db, self._dense, todo, vectors)
            self._stored.set()  # the questions waiting look again
            self._stored = asyncio.Event()
        return len(todo)

    def _pending_in(self, workspace: tuple[str, str]) -> bool:
        with self._db.connect() as conn:
            return file_store.vectors_pending_in(conn, workspace)

    async def wait_for(self, workspace: tuple[str, str], within: float) -> None:
        """Return once no file of ``workspace`` waits for vectors, or after ``within``
        seconds (0: at once): read-your-writes for a question asked right after an upload.

        Woken when this replica stores a batch, and every :data:`RECHECK_SECONDS` for those
        another replica stores; no transaction is held in between. Meanwhile the embedder
        claims this workspace's passages first."""
        if within <= 0:
            return
        stored = self._stored
        if not await anyio.to_thread.run_sync(self._pending_in, workspace):
            return
        self._waiting[workspace] += 1
        self.wake()
        try:
            with anyio.move_on_after(within):
                while True:
                    with anyio.move_on_after(RECHECK_SECONDS):
                        await stored.wait()
                    stored = self._stored
                    if not await anyio.to_thread.run_sync(self._pending_in, workspace):
                        return
        finally:
            self._waiting[workspace] -= 1
            if not self._waiting[workspace]:
                del self._waiting[workspace]

    def wake(self) -> None:
        """Passages are pending (an upload committed): embed them now."""
        self._woken.set()

    async def run(self) -> None:
        """Embed batches while any are pending, then wait for :meth:`wake` or
        :data:`POLL_SECONDS`; forever (cancelled when the service stops)."""
        name = self._dense.embedder.name
        try:
            if count := await anyio.to_thread.run_sync(forget_other_vectors, self._db, self._dense):
                log.info("%d file(s) have passages waiting for vectors of %s", count, name)
        except Exception:  # the claims below find them all the same
            log.exception("marking the files whose passages wait for vectors failed")
        while True:
            self._woken.clear()
            done = 0
            try:
                while count := await self._embed_pending():
                    done += count
            except Exception:
                log.exception("computing passage vectors failed; trying again shortly")
            if done:
                log.debug("%d passage vector(s) computed", done)
            with anyio.move_on_after(POLL_SECONDS):
                await self._woken.wait()

    @asynccontextmanager
    async def running(self) -> AsyncIterator[None]:
        """:meth:`run` in the background until exit (a batch under way finishes first)."""
        try:
            async with anyio.create_task_group() as tasks:
                tasks.start_soon(self.run)
                yield
                tasks.cancel_scope.cancel()
        finally:
            self._model.shutdown(wait=True)
