"""Interrupting a real kernel while ``%%chat`` streams stops it cleanly, keeping the text.

An ipykernel started by jupyter_client talks to a service whose upstream model sends two
pieces of its answer and then stalls; the test waits until the first piece is on screen
(an iopub message), interrupts the kernel as the Stop button does (SIGINT), and reads
what the cell shows.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from jupyter_client.manager import KernelManager

from support.kernels import TIMEOUT, iopub_until_idle, running_kernel
from support.service import Service, new_org, running_service
from support.upstream import PIECES, FakeUpstream


@pytest.fixture(scope="module")
def stalling_service(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Service]:
    upstream = FakeUpstream().start()
    try:
        data = tmp_path_factory.mktemp("stall-service")
        args = ("--upstream-url", upstream.url, "--upstream-model", "stall")
        with running_service(data, *args) as svc:
            yield svc
    finally:
        upstream.stop()


@pytest.fixture
def kernel(stalling_service: Service, tmp_path: Path) -> Iterator[tuple[KernelManager, Any]]:
    env = dict(
        os.environ,
        CHATSPACE_BASE_URL=stalling_service.url,
        CHATSPACE_TOKEN=stalling_service.token("ann", new_org()),
    )
    with running_kernel(env, tmp_path) as started:
        yield started


def _run(client: Any, code: str) -> list[dict]:
    msg_id = client.execute(code)
    outputs = iopub_until_idle(client, msg_id)
    reply = client.get_shell_msg(timeout=TIMEOUT)
    assert reply["content"]["status"] == "ok", reply["content"]
    return outputs


def test_interrupting_the_kernel_keeps_the_partial_answer(
    kernel: tuple[KernelManager, Any],
) -> None:
    manager, client = kernel
    _run(client, "%load_ext chatspace")
    msg_id = client.execute("%%chat -m stall --no-store\nWhat do the deserts hide?")
    # The first piece on screen: the stream is live, and the upstream now stalls.
    iopub_until_idle(client, msg_id, stop_at=PIECES[0].strip())
    manager.interrupt_kernel()
    rest = iopub_until_idle(client, msg_id)
    reply = client.get_shell_msg(timeout=TIMEOUT)
    assert reply["content"]["status"] == "ok"  # the magic caught it: no traceback
    assert not [m for m in rest if m["msg_type"] == "error"]
    shown = [m["content"]["data"] for m in rest if m["msg_type"] == "display_data"]
    final = shown[-1]["text/markdown"]
    # The service holds a choice's latest piece back until the next one comes (its
    # citations travel with the last content chunk), so the stall leaves one piece out.
    assert final.startswith(PIECES[0].strip() + "\n")
    assert "interrupted" in final
    after = _run(client, "print(_chat.interrupted, repr(_chat.text))")
    printed = "".join(m["content"]["text"] for m in after if m["msg_type"] == "stream")
    assert printed.strip() == f"True {PIECES[0]!r}"
