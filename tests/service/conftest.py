"""Fixtures of the service tests: HTTP clients of the session's service, per user."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import httpx
import pytest

from support.service import Service


@pytest.fixture
def client_of(service: Service, org: str) -> Iterator[Callable[[str], httpx.Client]]:
    """``client_of("bob")``: an httpx client of user bob in this test's org."""
    clients: list[httpx.Client] = []

    def make(user: str = "alice") -> httpx.Client:
        client = httpx.Client(base_url=service.url, headers=service.headers(user, org), timeout=60)
        clients.append(client)
        return client

    yield make
    for client in clients:
        client.close()


@pytest.fixture
def alice(client_of: Callable[[str], httpx.Client]) -> httpx.Client:
    return client_of("alice")
