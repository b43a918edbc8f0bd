"""Cleaning up after crashes and expiring files, on one replica at a time.

The replicas of a team deployment share one database and one blob store, so what cleans
those up runs on one replica at a time: the one holding the ``housekeeping`` lease
(:mod:`.store.leases`). Every ``housekeeping_interval`` seconds (a setting of
:class:`~.config.Settings`) each replica asks for it; the holder renews it for
:data:`LEASE_INTERVALS` intervals, and once a holder that died has let it run out, the
next replica to ask takes it over. A holder is named by its host and data dir (one per
replica), so a replica restarted after a crash holds it again.

A replica that takes the lease (at start, before it answers, or from one that died)
sweeps: files past their ``expires_at`` deleted, old idempotency keys and rate counts
forgotten, and the blob store rid of what a crash left (uploads in progress of dead
processes, blobs whose row never committed). While it holds the lease, every interval,
old keys and counts are forgotten and, with ``--retention-days``, expired files deleted.
Every other replica only removes, at start, the uploads in progress that a dead process
left in its own data dir. (Passage vectors are every replica's work:
:mod:`.vectors`.)
"""

from __future__ import annotations

import logging
import socket
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import anyio

from .ratelimit import WINDOW_SECONDS
from .state import AppState
from .store import files as file_store
from .store import idempotency as idempotency_store
from .store import leases as lease_store
from .store import rate_counters
from .store.blobs import LocalBlobStore
from .store.transactions import write_transaction

__all__ = [
    "LEASE",
    "LEASE_INTERVALS",
    "expire_files",
    "forget_old_counts",
    "forget_old_keys",
    "running",
    "sweep",
    "sweep_own_uploads",
]

log = logging.getLogger("chatspace.service")

LEASE = "housekeeping"
LEASE_INTERVALS = 3
"""How many intervals a lease lasts: its holder may miss two renewals (a slow sweep, a
busy database) before another replica takes over."""


def expire_files(state: AppState) -> int:
    """Delete the files past their ``expires_at`` (rows, passages, blobs); how many. Each
    workspace's in a transaction of its own, among that workspace's writers."""
    now = int(time.time())
    with state.db.connect() as conn:
        where = file_store.workspaces_with_expired(conn, now=now)
    deleted = 0
    for workspace in where:
        with write_transaction(state.db, workspace=workspace) as conn:
            blobs = file_store.purge_expired(conn, workspace=workspace, now=now)
        state.blobs.delete_many(blobs)
        deleted += len(blobs)
    return deleted


def forget_old_keys(state: AppState) -> int:
    """Purge the idempotency keys past their 24 hours; how many."""
    with write_transaction(state.db) as conn:
        return idempotency_store.purge(conn, now=time.time())


def forget_old_counts(state: AppState) -> int:
    """Purge the rate limit's counts older than its window; how many rows."""
    with state.db.begin() as conn:
        return rate_counters.purge(conn, before=int(time.time()) - WINDOW_SECONDS)


def sweep(state: AppState) -> None:
    """What the replica that takes the lease does first: expire, forget, remove debris."""
    expired = expire_files(state)
    forget_old_keys(state)
    forget_old_counts(state)
    with state.db.connect() as conn:
        referenced = file_store.referenced_blobs(conn)
    removed = state.blobs.sweep(referenced=referenced)
    if expired or removed:
        log.info("sweep: %d expired file(s), %d stray blob(s) removed", expired, len(removed))


def sweep_own_uploads(state: AppState) -> list[str]:
    """Remove the uploads in progress that dead processes left in this replica's data dir
    (each replica has its own); the names removed."""
    spool = LocalBlobStore(state.settings.blob_dir)
    # Blobs in place count as referenced: which are debris is for the lease holder to say.
    return spool.sweep(referenced=set(spool.stored_names()))


def _tidy(state: AppState) -> None:
    forget_old_keys(state)
    forget_old_counts(state)
    if state.settings.retention_days and (count := expire_files(state)):
        log.info("%d expired file(s) deleted", count)


def _turn(state: AppState, holder: str, held: bool) -> bool:
    """Take or renew the lease, then sweep (just taken) or tidy (held already); whether
    this replica holds it."""
    seconds = LEASE_INTERVALS * state.settings.housekeeping_interval
    with state.db.begin() as conn:
        if not lease_store.acquire(
            conn, name=LEASE, holder=holder, now=time.time(), seconds=seconds
        ):
            return False
    if held:
        _tidy(state)
    else:
        log.info("this replica (%s) runs the housekeeping now", holder)
        sweep(state)
    return True


def _release(state: AppState, holder: str) -> None:
    with state.db.begin() as conn:
        lease_store.release(conn, name=LEASE, holder=holder)


async def _tidy_forever(state: AppState, holder: str, held: bool) -> None:
    while True:
        await anyio.sleep(state.settings.housekeeping_interval)
        try:
            held = await anyio.to_thread.run_sync(_turn, state, holder, held)
        except Exception:
            log.exception("housekeeping failed; trying again later")


@asynccontextmanager
async def running(state: AppState) -> AsyncIterator[None]:
    """Sweep (or, when another replica holds the lease, remove this data dir's debris),
    then take a turn every interval until exit, and give the lease up."""
    # A replica is its data dir: started again after a crash, it takes its lease back at
    # once instead of waiting for it to run out.
    holder = f"{socket.gethostname()}:{state.settings.data_dir.resolve()}"
    held = await anyio.to_thread.run_sync(_turn, state, holder, False)
    if not held and (removed := await anyio.to_thread.run_sync(sweep_own_uploads, state)):
        log.info("%d upload(s) in progress of dead processes removed", len(removed))
    async with anyio.create_task_group() as tasks:
        tasks.start_soon(_tidy_forever, state, holder, held)
        yield
        tasks.cancel_scope.cancel()
    try:
        await anyio.to_thread.run_sync(_release, state, holder)
    except Exception:  # it runs out by itself
        log.warning("giving up the housekeeping lease failed; it expires by itself")
