"""Client fixtures: both clients against the real service (see ``support.clients``)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import pytest

from support.clients import AnyClient, close, make_client
from support.fault_proxy import FaultProxy
from support.service import Service


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
def token(service: Service, org: str) -> str:
    return service.token("alice", org)


@pytest.fixture(params=["sync", "async"])
def kind(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
async def client(kind: str, service: Service, token: str) -> AsyncIterator[AnyClient]:
    c = make_client(kind, service.url, token, initial_retry_delay=0.01, max_retry_delay=0.05)
    yield c
    await close(c)


@pytest.fixture
def proxy(service: Service) -> Iterator[FaultProxy]:
    with FaultProxy(service.url) as p:
        yield p
