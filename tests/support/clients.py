"""Helpers for the client tests: one test body for both clients.

Tests are written once as ``async`` functions and run with each client (the ``client``
fixture of ``conftest.py`` is parametrized). The sync client blocks the test's event
loop, which is fine: the service runs in its own process. :func:`run`, :func:`collect`
and :func:`opened` smooth over the only differences (awaiting, ``async for``,
``async with``).
"""

from __future__ import annotations

import inspect
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from chatspace.client import AsyncClient, Client

AnyClient = Client | AsyncClient


def make_client(kind: str, url: str, token: Any, **options: Any) -> AnyClient:
    cls = Client if kind == "sync" else AsyncClient
    return cls(url, token=token, **options)


async def close(client: AnyClient) -> None:
    await run(client.close())


async def run(value: Any) -> Any:
    """The value of a call of either client."""
    return await value if inspect.isawaitable(value) else value


async def collect(iterable: Any) -> list[Any]:
    """Every item of a page or a stream of either client."""
    if hasattr(iterable, "__aiter__"):
        return [item async for item in iterable]
    return list(iterable)


@asynccontextmanager
async def opened(stream: Any) -> AsyncIterator[Any]:
    """``with`` / ``async with`` of a stream."""
    if hasattr(stream, "__aenter__"):
        async with stream as s:
            yield s
    else:
        with stream as s:
            yield s


async def first_item(iterable: Any) -> Any:
    """Take one item and break out of the loop (the early-break path)."""
    if hasattr(iterable, "__aiter__"):
        async for item in iterable:
            return item
    else:
        for item in iterable:
            return item
    return None
