"""With no remote service configured, the extension starts the embedded one at start-up.

The kernels of the server (here: a client in this process, with the same data dir) find
the same service through ``<data dir>/service.json`` instead of starting their own.
The embedded service is detached on purpose (it outlives the server); the test stops
the one it caused, by its pid.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from tornado.httpclient import HTTPResponse

import chatspace
from chatspace.local.launcher import stop_service
from chatspace.serverext import BASE_URL_ENV, ServiceTarget

Fetch = Callable[..., Awaitable[HTTPResponse]]


@pytest.fixture
def embedded_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    data = tmp_path / "chatspace-data"
    for name in ("CHATSPACE_BASE_URL", "CHATSPACE_TOKEN", "CHATSPACE_JWT_SECRET"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("CHATSPACE_DATA_DIR", str(data))
    monkeypatch.setenv(BASE_URL_ENV, "unset")
    yield data
    stop_service(data)


@pytest.fixture
def jp_server_config(embedded_env: Path) -> dict[str, Any]:
    return {
        "ServerApp": {
            "jpserver_extensions": {"chatspace": True},
            "allow_unauthenticated_access": False,
        }
    }


async def test_server_start_starts_the_shared_service(
    jp_serverapp: Any, jp_fetch: Fetch, embedded_env: Path
) -> None:
    target: ServiceTarget = jp_serverapp.web_app.settings["chatspace_target"]
    url = target.wait(60)
    assert json.loads((embedded_env / "service.json").read_text())["url"] == url
    assert "embedded local service" in target.where
    with chatspace.Client() as kernel_client:  # what a kernel of this server does
        assert kernel_client.base_url == url
        f = kernel_client.files.upload(b"shared", filename="s.txt", progress=False)
    response = await jp_fetch("chatspace", "files", f.id, "content")
    assert response.body == b"shared"
