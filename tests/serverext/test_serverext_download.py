"""The server extension's download route, through a real Jupyter server and service."""

from __future__ import annotations

import json
import os
import tracemalloc
from collections.abc import Awaitable, Callable, Iterator
from typing import Any
from urllib.parse import quote

import pytest
from tornado.httpclient import HTTPClientError, HTTPResponse

import chatspace
from chatspace.notebook.panels import FilesPanel
from chatspace.notebook.session import NotebookSession
from chatspace.notebook.settings import ChatspaceSettings
from chatspace.serverext import BASE_URL_ENV

Fetch = Callable[..., Awaitable[HTTPResponse]]


@pytest.fixture
def client(service_env: dict[str, str]) -> Iterator[chatspace.Client]:
    """A client of the same service, user and org as the Jupyter server."""
    with chatspace.Client() as c:
        yield c


def content(*file_id: str) -> tuple[str, ...]:
    return ("chatspace", "files", *file_id, "content")


async def fetch_error(jp_fetch: Fetch, *parts: str, **kw: Any) -> HTTPClientError:
    with pytest.raises(HTTPClientError) as info:
        await jp_fetch(*parts, **kw)
    return info.value


async def test_file_streams_with_its_headers(jp_fetch: Fetch, client: chatspace.Client) -> None:
    data = os.urandom(300_000)
    f = client.files.upload(data, filename="Q3 report ü.csv", progress=False)
    response = await jp_fetch(*content(f.id), params={"workspace": "default"})
    assert response.code == 200
    assert response.body == data
    assert response.headers["Content-Type"].startswith("text/csv")
    assert response.headers["Content-Length"] == str(len(data))
    disposition = response.headers["Content-Disposition"]
    assert disposition.startswith("attachment")
    assert quote("Q3 report ü.csv") in disposition
    assert response.headers["X-Content-Type-Options"] == "nosniff"


async def test_range_is_passed_through(jp_fetch: Fetch, client: chatspace.Client) -> None:
    f = client.files.upload(b"0123456789", filename="digits.txt", progress=False)
    response = await jp_fetch(*content(f.id), headers={"Range": "bytes=2-5"})
    assert response.code == 206
    assert response.body == b"2345"
    assert response.headers["Content-Range"] == "bytes 2-5/10"


async def test_the_panel_link_is_the_route(
    jp_fetch: Fetch, jp_base_url: str, client: chatspace.Client
) -> None:
    """The extension exports its base URL; a panel's link, as the browser follows it."""
    assert os.environ[BASE_URL_ENV] == jp_base_url
    client.workspaces.create("team", "Team")
    f = client.files.upload(b"team file", filename="t.txt", workspace="team", progress=False)
    panel = FilesPanel(
        client,
        session=NotebookSession(client, settings=ChatspaceSettings(default_workspace="team")),
    )
    link = panel.download_url(f.id)
    panel.close()
    path, query = link.split("?", 1)
    assert path.startswith(jp_base_url)
    parts = path[len(jp_base_url) :].split("/")
    response = await jp_fetch(*parts, params=dict([query.split("=")]))
    assert response.body == b"team file"


async def test_large_file_is_relayed_in_chunks(jp_fetch: Fetch, client: chatspace.Client) -> None:
    size = 24 * 1024 * 1024
    f = client.files.upload(b"x" * size, filename="big.bin", progress=False)
    received = 0

    def count(chunk: bytes) -> None:
        nonlocal received
        received += len(chunk)

    tracemalloc.start()
    try:
        response = await jp_fetch(*content(f.id), streaming_callback=count, request_timeout=120)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert response.code == 200
    assert received == size
    assert peak < 4 * 1024 * 1024, f"peak {peak} bytes while relaying {size}"


@pytest.mark.parametrize(
    ("file_id", "params", "status"),
    [
        ("file-doesnotexist", {}, 404),
        ("file-doesnotexist", {"workspace": "Not Valid"}, 400),
        ("file-doesnotexist", {"workspace": "nosuchworkspace"}, 404),
    ],
)
async def test_service_errors_keep_their_meaning(
    jp_fetch: Fetch, file_id: str, params: dict[str, str], status: int
) -> None:
    error = await fetch_error(jp_fetch, *content(file_id), params=params)
    assert error.code == status
    assert error.response is not None
    body = json.loads(error.response.body)
    assert body["message"]
    assert "Traceback" not in error.response.body.decode()


async def test_a_file_of_another_workspace_is_404(
    jp_fetch: Fetch, client: chatspace.Client
) -> None:
    client.workspaces.create("team", "Team")
    f = client.files.upload(b"t", filename="t.txt", workspace="team", progress=False)
    error = await fetch_error(jp_fetch, *content(f.id), params={"workspace": "default"})
    assert error.code == 404


@pytest.mark.parametrize("headers", [{"Authorization": "token wrong"}, {"Authorization": ""}])
async def test_without_the_jupyter_token_is_refused(
    jp_fetch: Fetch, client: chatspace.Client, headers: dict[str, str]
) -> None:
    f = client.files.upload(b"secret", filename="s.txt", progress=False)
    error = await fetch_error(jp_fetch, *content(f.id), headers=headers)
    assert error.code == 403
    assert error.response is not None
    assert b"secret" not in error.response.body
