"""A kernel learns its notebook's current name from the Jupyter server, after a rename too."""

from __future__ import annotations

import ast
import asyncio
import json
import os
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import nbformat
import pytest
from tornado.httpclient import HTTPResponse

from chatspace.notebook import notebook_file
from chatspace.notebook.notebook_file import SERVER_INFO_ENV, current_path

Fetch = Callable[..., Awaitable[HTTPResponse]]


@pytest.fixture
def server_info(jp_serverapp: Any, monkeypatch: pytest.MonkeyPatch) -> str:
    """The runtime file the extension exported (taken back after the test)."""
    exported = os.environ[SERVER_INFO_ENV]
    monkeypatch.setenv(SERVER_INFO_ENV, exported)
    return exported


async def _session(jp_fetch: Fetch, root: Path, name: str) -> dict[str, Any]:
    nbformat.write(nbformat.v4.new_notebook(), root / name)
    body = {"path": name, "type": "notebook", "name": "", "kernel": {"name": "python3"}}
    response = await jp_fetch("api", "sessions", method="POST", body=json.dumps(body))
    return dict(json.loads(response.body))


async def _rename(jp_fetch: Fetch, session: dict[str, Any], new: str) -> None:
    """What JupyterLab does on a rename: the file, then the session's path."""
    old = session["path"]
    await jp_fetch("api", "contents", old, method="PATCH", body=json.dumps({"path": new}))
    patch = json.dumps({"path": new})
    await jp_fetch("api", "sessions", session["id"], method="PATCH", body=patch)


async def test_the_lookup_follows_a_rename(
    jp_fetch: Fetch,
    jp_serverapp: Any,
    jp_root_dir: Path,
    server_info: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert server_info == jp_serverapp.info_file
    info = Path(server_info).read_text()
    assert jp_serverapp.identity_provider.token in info  # the token is in the file ...
    assert jp_serverapp.identity_provider.token not in os.environ[SERVER_INFO_ENV]  # ... only
    session = await _session(jp_fetch, jp_root_dir, "Untitled.ipynb")
    kernel = session["kernel"]["id"]
    monkeypatch.setattr(notebook_file, "_cache", {})
    assert await asyncio.to_thread(current_path, kernel) == "Untitled.ipynb"
    await _rename(jp_fetch, session, "analysis.ipynb")
    # within FRESH_FOR seconds the name found is used again, without asking
    assert await asyncio.to_thread(current_path, kernel) == "Untitled.ipynb"
    monkeypatch.setattr(notebook_file, "FRESH_FOR", 0.0)
    monkeypatch.setattr(notebook_file, "_cache", {})
    assert await asyncio.to_thread(current_path, kernel) == "analysis.ipynb"
    assert await asyncio.to_thread(current_path, "no-such-kernel") is None


async def test_the_kernel_itself_names_the_renamed_notebook(
    jp_fetch: Fetch, jp_serverapp: Any, jp_root_dir: Path, server_info: str
) -> None:
    """Code run in the real kernel the server started: what new completions are tagged with."""
    session = await _session(jp_fetch, jp_root_dir, "Untitled.ipynb")
    await _rename(jp_fetch, session, "sales review.ipynb")
    kernel = jp_serverapp.kernel_manager.get_kernel(session["kernel"]["id"])
    code = (
        "import os\n"
        "from chatspace.notebook.session import notebook_name\n"
        "print(repr((notebook_name(), os.environ['JPY_SESSION_NAME'])))\n"
    )
    printed = await _run_in(kernel, code)
    name, told_at_start = ast.literal_eval(printed)
    assert name == "sales review.ipynb"
    assert "sales review" not in told_at_start  # what notebook_name() used to read


_CLIENT = """
import sys
from jupyter_client import BlockingKernelClient

client = BlockingKernelClient(connection_file=sys.argv[1])
client.load_connection_file()
client.start_channels()
client.wait_for_ready(timeout=60)
out = []
def keep(message):
    if message["msg_type"] == "stream":
        out.append(message["content"]["text"])
    elif message["msg_type"] == "error":
        out.append("\\n".join(message["content"]["traceback"]))
client.execute_interactive(sys.stdin.read(), output_hook=keep, timeout=60)
client.stop_channels()
print("".join(out).strip())
"""


async def _run_in(kernel: Any, code: str) -> str:
    """Run ``code`` in ``kernel`` from a client process of its own, as a front end would
    (a blocking client cannot share the server's event loop)."""
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-c", _CLIENT, kernel.connection_file,
        stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
    )  # fmt: skip
    out, _ = await asyncio.wait_for(process.communicate(code.encode()), timeout=120)
    return out.decode().strip()
