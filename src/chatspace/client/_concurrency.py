"""Running several requests: at once for the async client, in turn for the sync one.

``scripts/unasync_client.py`` renames :func:`run_concurrently` to :func:`run_in_turn` in the
generated sync code, as it renames ``anyio`` (sleeping) to ``time``.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence

import anyio

__all__ = ["run_concurrently", "run_in_turn"]


async def run_concurrently(tasks: Sequence[Callable[[], Awaitable[None]]], limit: int) -> None:
    """Run ``tasks``, at most ``limit`` at a time, and return when all have finished."""
    limiter = anyio.CapacityLimiter(limit)

    async def run(task: Callable[[], Awaitable[None]]) -> None:
        async with limiter:
            await task()

    async with anyio.create_task_group() as group:
        for task in tasks:
            group.start_soon(run, task)


def run_in_turn(tasks: Sequence[Callable[[], None]], limit: int) -> None:
    """Run ``tasks`` one after another (``limit`` is the async twin's)."""
    for task in tasks:
        task()
