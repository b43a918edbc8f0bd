"""Errors in the notebook name what went wrong in the user's words, never the request's URL."""

from __future__ import annotations

from typing import Any

import pytest

from chatspace.client import Client
from chatspace.errors import APIConnectionError, NotFoundError
from chatspace.notebook.panels import ChatPanel
from chatspace.notebook.session import NotebookSession
from support.magics import run
from support.service import Service

MISSING = "file-AAAAAAAAAAAAAAAAAAAAAAAA"
OFFLINE = "http://127.0.0.1:9"


def _no_request_in(line: str) -> None:
    internals = ("http://", "127.0.0.1", "GET ", "POST ", "PATCH ", "workspace=...", "base_url")
    for internal in internals:
        assert internal not in line, line


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        (
            f"%files show {MISSING}",
            f"✗ %files: 404 File '{MISSING}' not found in workspace 'default'. "
            "Check the id, and the workspace (-w NAME, or %workspace) it lives in.",
        ),
        (
            f"%files update {MISSING} team=ml",
            f"✗ %files: 404 File '{MISSING}' not found in workspace 'default'. ",
        ),
        ("%%chat -w nowhere\nHi", "✗ %%chat: 404 Workspace 'nowhere' not found."),
        # the service says what to do; no workspace a model would "live in" (JupyterLab)
        ("%%chat -m nosuch\nHi", "✗ %%chat: 404 model 'nosuch' not found; this service serves"),
        ("%completions show chatcmpl-nope", "✗ %completions: 404 Chat completion 'chatcmpl-nope'"),
        (
            f"%%chat --files {MISSING}\nHi",
            f"✗ %%chat: the service refused --files '{MISSING}': file '{MISSING}' is not a file "
            "of workspace 'default' (422)",
        ),
        ("%workspace create 'bad id!'", "✗ %workspace: 422 body.id: String should match pattern"),
    ],
)
def test_status_errors_are_one_line_without_the_request(
    ip: Any, nb_session: NotebookSession, source: str, expected: str
) -> None:
    line = run(ip, source).error_line()
    assert line.startswith(expected)
    if source.startswith(("%%chat -w", "%%chat -m")):
        assert line.endswith(("not found.", "'%chat models add NAME --url URL'.")), line
    _no_request_in(line)


def test_a_refused_token_says_what_to_check(
    ip: Any, nb_session: NotebookSession, service: Service
) -> None:
    nb_session.use_client(Client(base_url=service.url, token="x" * 40, max_retries=0))
    line = run(ip, "%files list").error_line()
    assert line.startswith("✗ %files: 401 The token is not valid for this service. Check the")
    assert "CHATSPACE_TOKEN" in line
    _no_request_in(line)


@pytest.mark.parametrize("source", ["%files list", "%chat Hello", "%%chat --no-stream\nHello"])
def test_no_service_is_one_line_without_the_request(
    ip: Any, nb_session: NotebookSession, source: str
) -> None:
    nb_session.use_client(Client(base_url=OFFLINE, token="t" * 40, max_retries=0))
    line = run(ip, source).error_line()
    assert "cannot reach the chatspace service (" in line
    assert "Connection refused" in line
    assert "%chat config shows which service" in line
    _no_request_in(line)


def test_the_panel_says_it_the_same_way() -> None:
    with Client(base_url=OFFLINE, token="t" * 40, max_retries=0) as offline:
        panel = ChatPanel(offline, session=NotebookSession(client=offline))
        assert "cannot reach the chatspace service (" in panel.error
        _no_request_in(panel.error)
        panel.close()


def test_programmers_still_get_the_request(client: Client) -> None:
    with pytest.raises(NotFoundError) as found:
        client.files.get(MISSING)
    assert found.value.method == "GET"
    assert found.value.url == f"{client.base_url}/files/{MISSING}"
    assert f"(GET {client.base_url}/files/{MISSING})" in str(found.value)
    offline = Client(base_url=OFFLINE, token="t" * 40, max_retries=0)
    with offline, pytest.raises(APIConnectionError) as refused:
        offline.files.list()
    assert refused.value.url == f"{OFFLINE}/files"
    assert str(refused.value).startswith(f"GET {OFFLINE}/files failed: ")
