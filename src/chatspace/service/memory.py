"""Freed memory given back to the system, every :data:`TRIM_SECONDS`.

glibc's allocator keeps what a process frees for its next allocations, in one arena per
thread that allocated (up to eight per core), and gives back only the top of the main
heap. The service allocates and frees in many threads (each upload's text, tokens and
rows, each batch of vectors, each question), so its resident memory held every arena's
high-water mark: at a million passages (SQLite), 3,000 files uploaded raised the
process's anonymous memory from 208 to 259 MB, and ``malloc_trim(0)`` took it to 183
(``benchmarks/results/results-scale.md``, "The upload path's memory"). A task of the
service's lifespan calls it every :data:`TRIM_SECONDS`, in a worker thread (it walks the
arenas' free chunks: 11 ms after 80 MB freed, 0.02 ms with nothing to give back).
Elsewhere than glibc (macOS, musl) there is nothing to call and the task does not run.
"""

from __future__ import annotations

import ctypes
import logging
import sys
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager

import anyio

__all__ = ["TRIM_SECONDS", "give_back_freed", "trimming"]

log = logging.getLogger("chatspace.service")

TRIM_SECONDS = 30.0
"""How often the freed memory is given back: what a burst of uploads or questions frees
leaves the resident size within half a minute, for a cost no request notices."""


def _malloc_trim() -> Callable[[int], int] | None:
    """glibc's ``malloc_trim`` in this process, if its C library has one."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        trim: Callable[[int], int] = ctypes.CDLL(None).malloc_trim
    except AttributeError:  # musl
        return None
    return trim


_TRIM = _malloc_trim()


def give_back_freed() -> bool:
    """Return the free pages of every arena to the system; whether any were (False too
    where there is no ``malloc_trim``)."""
    return bool(_TRIM and _TRIM(0))


@asynccontextmanager
async def trimming(every: float = TRIM_SECONDS) -> AsyncIterator[None]:
    """:func:`give_back_freed` every ``every`` seconds until the block ends."""
    if _TRIM is None:
        yield
        return

    async def trim_forever() -> None:
        while True:
            await anyio.sleep(every)
            try:
                await anyio.to_thread.run_sync(give_back_freed)
            except Exception:  # memory given back later, or never: never a failure
                log.exception("giving freed memory back to the system failed")

    async with anyio.create_task_group() as tasks:
        tasks.start_soon(trim_forever)
        yield
        tasks.cancel_scope.cancel()
