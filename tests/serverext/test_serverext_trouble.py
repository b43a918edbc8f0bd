"""A service that is down, rejects the server, or is misconfigured: gateway errors.

Each case changes the server's environment before the Jupyter server starts, since
the extension resolves its service once, at start.
"""

from __future__ import annotations

import json
import socket
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from tornado.httpclient import HTTPClientError, HTTPResponse

Fetch = Callable[..., Awaitable[HTTPResponse]]


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


CASES = {
    "unreachable": ("CHATSPACE_BASE_URL", lambda: f"http://127.0.0.1:{_closed_port()}"),
    "wrong_token": ("CHATSPACE_TOKEN", lambda: "not-a-jwt"),
    "misconfigured": ("CHATSPACE_BASE_URL", lambda: "ftp://example.invalid"),
}


@pytest.fixture(params=sorted(CASES))
def trouble(
    request: pytest.FixtureRequest, service_env: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> str:
    name, value = CASES[request.param]
    monkeypatch.setenv(name, value())
    return str(request.param)


@pytest.fixture
def jp_server_config(trouble: str, jp_server_config: dict[str, Any]) -> dict[str, Any]:
    return jp_server_config


EXPECTED = {
    "unreachable": (502, "could not be reached"),
    "wrong_token": (502, "rejected the Jupyter server's credentials"),
    "misconfigured": (503, "must start with http"),
}


async def test_service_trouble_is_a_gateway_error(jp_fetch: Fetch, trouble: str) -> None:
    status, words = EXPECTED[trouble]
    with pytest.raises(HTTPClientError) as info:
        await jp_fetch("chatspace", "files", "file-x", "content")
    assert info.value.code == status
    assert info.value.response is not None
    assert words in json.loads(info.value.response.body)["message"]
