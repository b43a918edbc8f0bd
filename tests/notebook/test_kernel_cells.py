"""The notebook as context in a real kernel, as JupyterLab runs it: a failing cell's
traceback (drawn in colour by ipykernel) reaches an upstream model through
``%chat explain`` without its colour codes, and a code answer asked with ``--format code``
comes back to the front end as the next cell (the ``set_next_input`` payload of the
execute reply, which JupyterLab turns into a new cell below)."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from support.kernels import execute_reply, iopub_until_idle, running_kernel
from support.service import Service, new_org, running_service
from support.upstream import FakeUpstream

CODE = "clean = df.dropna()\nclean.describe()"
PIECES = ["Drop the missing rows first:\n\n```python\n", f"{CODE}\n", "```\n"]


@pytest.fixture(scope="module")
def upstream() -> Iterator[FakeUpstream]:
    server = FakeUpstream(pieces=PIECES).start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def code_service(
    upstream: FakeUpstream, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Service]:
    data = tmp_path_factory.mktemp("code-service")
    with running_service(data, "--upstream-url", upstream.url, "--upstream-model", "echo") as svc:
        yield svc


@pytest.fixture
def kernel(code_service: Service, tmp_path: Path) -> Iterator[Any]:
    env = dict(
        os.environ,
        CHATSPACE_BASE_URL=code_service.url,
        CHATSPACE_TOKEN=code_service.token("ann", new_org()),
    )
    with running_kernel(env, tmp_path) as (_, client):
        yield client


def _execute(client: Any, code: str) -> tuple[list[dict], dict]:
    """Run ``code`` as a notebook cell: its iopub messages and its execute reply."""
    msg_id = client.execute(code)
    return iopub_until_idle(client, msg_id), execute_reply(client, msg_id)


def test_explain_sends_the_traceback_without_colours_and_code_lands_in_the_next_cell(
    kernel: Any, upstream: FakeUpstream
) -> None:
    _execute(kernel, "%load_ext chatspace")
    failed, reply = _execute(kernel, "ratios = {'q1': 0.5}\nratios['q2'] / 2")
    assert reply["status"] == "error"
    (shown,) = [m["content"] for m in failed if m["msg_type"] == "error"]
    assert "\x1b[" in "".join(shown["traceback"])  # the notebook shows it in colour

    answered, reply = _execute(kernel, "%chat explain -m echo --no-store")
    assert reply["status"] == "ok"
    asked = upstream.last("echo")["body"]["messages"][-1]["content"]
    asked = asked if isinstance(asked, str) else json.dumps(asked)
    assert "```python\nratios = {'q1': 0.5}\nratios['q2'] / 2\n```" in asked
    assert "KeyError: 'q2'" in asked
    assert "\x1b" not in asked
    assert not [m for m in answered if m["msg_type"] == "error"]

    _, reply = _execute(kernel, "%%chat -m echo --format code --no-store\nClean df, then describe")
    assert reply["status"] == "ok"
    assert reply["payload"] == [{"source": "set_next_input", "text": CODE, "replace": False}]
