"""Client fixtures: both clients against the real service (see ``client_support``)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import pytest
from client_support import AnyClient, close, make_client
from fault_proxy import FaultProxy

from support import Service


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
