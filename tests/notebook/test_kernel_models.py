"""``%chat models add --key-prompt`` in a real kernel: the key is typed into the front
end's password prompt (a jupyter_client ``input_request`` with ``password: true``), sent
to the service, which keeps it sealed, and never shown in any output of the kernel.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from chatspace.local.launcher import stop_service
from support.kernels import TIMEOUT, execute_reply, iopub_until_idle, running_kernel
from support.upstream import REPLY, FakeUpstream

KEY = "sk-typed-into-the-prompt-0123456789"


@pytest.fixture
def kernel(tmp_path: Path) -> Iterator[tuple[Any, Path, FakeUpstream]]:
    """A kernel on the embedded service of a fresh data dir, and an upstream to add."""
    data = tmp_path / "data"
    env = {
        k: v for k, v in os.environ.items() if k not in ("CHATSPACE_BASE_URL", "CHATSPACE_TOKEN")
    }
    env["CHATSPACE_DATA_DIR"] = str(data)
    upstream = FakeUpstream().start()
    try:
        with running_kernel(env, tmp_path) as (_, client):
            yield client, data, upstream
    finally:
        stop_service(data)
        upstream.stop()


def _execute(client: Any, code: str, answer: str | None = None) -> tuple[list[dict], list[dict]]:
    """Run ``code``; answer its input request with ``answer``. Its iopub and stdin messages."""
    msg_id = client.execute(code, allow_stdin=answer is not None)
    requests = []
    if answer is not None:
        request = client.get_stdin_msg(timeout=TIMEOUT)
        requests.append(request)
        client.input(answer)
    seen = iopub_until_idle(client, msg_id)
    reply = execute_reply(client, msg_id)
    assert reply["status"] == "ok", reply
    return seen, requests


def test_a_key_typed_into_the_password_prompt_is_kept_and_never_shown(
    kernel: tuple[Any, Path, FakeUpstream],
) -> None:
    client, data, upstream = kernel
    _execute(client, "%load_ext chatspace")
    shown, requests = _execute(
        client, f"%chat models add typed --url {upstream.url} --model echo --key-prompt", KEY
    )
    (request,) = requests
    assert request["content"]["password"] is True
    assert request["content"]["prompt"].startswith("Key for typed")
    outputs = json.dumps([m["content"] for m in shown])
    assert KEY not in outputs
    assert "model typed added" in outputs

    assert not (data / "keys").exists()
    assert KEY.encode() not in (data / "chatspace.db").read_bytes()

    answered, _ = _execute(client, "%%chat -m typed --no-store\nHello?")
    assert REPLY.split()[0] in json.dumps([m["content"] for m in answered])
    assert upstream.last("echo")["headers"]["authorization"] == f"Bearer {KEY}"
    history, _ = _execute(client, "print(len(In), any('sk-typed' in cell for cell in In[:-1]))")
    printed = "".join(m["content"].get("text", "") for m in history if m["msg_type"] == "stream")
    assert printed.split()[1] == "False"
