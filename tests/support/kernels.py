"""A real IPython kernel, as JupyterLab starts one, for the tests that need its messages
(the execute reply's payload, the stdin channel, interrupts)."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from jupyter_client.manager import KernelManager

TIMEOUT = 60


@contextlib.contextmanager
def running_kernel(env: Mapping[str, str], cwd: Path) -> Iterator[tuple[KernelManager, Any]]:
    """A python3 kernel with ``env`` in ``cwd``: its manager and a ready client."""
    manager = KernelManager(kernel_name="python3")
    manager.start_kernel(env=dict(env), cwd=str(cwd))
    client = manager.client()
    client.start_channels()
    try:
        client.wait_for_ready(timeout=TIMEOUT)
        yield manager, client
    finally:
        client.stop_channels()
        manager.shutdown_kernel(now=True)


def iopub_until_idle(client: Any, msg_id: str, stop_at: str | None = None) -> list[dict]:
    """The iopub messages of one execution, up to its idle status (or the first output
    whose Markdown holds ``stop_at``)."""
    seen = []
    while True:
        msg = client.get_iopub_msg(timeout=TIMEOUT)
        if msg["parent_header"].get("msg_id") != msg_id:
            continue
        seen.append(msg)
        if msg["msg_type"] == "status" and msg["content"]["execution_state"] == "idle":
            return seen
        data = msg["content"].get("data", {})
        if stop_at is not None and stop_at in data.get("text/markdown", ""):
            return seen


def execute_reply(client: Any, msg_id: str) -> dict:
    """The execute reply of ``msg_id`` (skipping wait_for_ready's kernel_info reply)."""
    reply = client.get_shell_msg(timeout=TIMEOUT)
    while reply["parent_header"].get("msg_id") != msg_id:
        reply = client.get_shell_msg(timeout=TIMEOUT)
    return dict(reply["content"])
