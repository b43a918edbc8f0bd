"""Freed memory given back to the system (:mod:`chatspace.service.memory`): real heap
memory of this process, allocated and freed through the C library, measured by the
kernel (``RssAnon``). Where the C library is glibc (every machine this runs on) the call
must be found; elsewhere there is nothing to give back and the last two tests say so."""

from __future__ import annotations

import ctypes
import platform
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import anyio
import pytest

from chatspace.service import memory

CHUNK = 2048  # below glibc's mmap threshold: from the heap, as the service's small objects
CHUNKS = 40_000  # 80 MB

without_trim = pytest.mark.skipif(
    memory._TRIM is None, reason=f"no malloc_trim in this C library ({sys.platform})"
)


def _rss_anon_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("RssAnon:"):
            return int(line.split()[1]) / 1e3
    raise AssertionError("no RssAnon in /proc/self/status")


@contextmanager
def _freed_but_kept() -> Iterator[float]:
    """80 MB allocated, written (resident) and freed but for one chunk above them, which
    keeps the allocator from giving the heap back by itself: its RssAnon meanwhile."""
    libc = ctypes.CDLL(None)
    libc.malloc.restype = ctypes.c_void_p
    libc.free.argtypes = [ctypes.c_void_p]
    chunks = [libc.malloc(CHUNK) for _ in range(CHUNKS)]
    top = libc.malloc(CHUNK)
    for chunk in chunks:
        ctypes.memset(chunk, 1, CHUNK)
    for chunk in chunks:
        libc.free(chunk)
    try:
        yield _rss_anon_mb()
    finally:
        libc.free(top)


def test_glibc_has_it_found() -> None:
    if sys.platform.startswith("linux") and platform.libc_ver()[0] == "glibc":
        assert memory._TRIM is not None


@without_trim
def test_freed_heap_memory_is_given_back() -> None:
    with _freed_but_kept() as held:
        assert memory.give_back_freed()
        after = _rss_anon_mb()
    assert held - after > 0.8 * CHUNK * CHUNKS / 1e6, (held, after)


@without_trim
def test_the_services_task_gives_it_back_every_interval() -> None:
    async def main() -> float:
        with _freed_but_kept() as held:
            async with memory.trimming(every=0.05):
                with anyio.fail_after(10):
                    while held - _rss_anon_mb() < 0.8 * CHUNK * CHUNKS / 1e6:
                        await anyio.sleep(0.05)
            return held - _rss_anon_mb()

    assert anyio.run(main) > 0.8 * CHUNK * CHUNKS / 1e6
