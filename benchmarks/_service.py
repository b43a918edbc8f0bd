"""The reference service the benchmarks run against: ``chatspace serve`` in its own process."""

from __future__ import annotations

import os
import subprocess
import threading
import time
import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from chatspace.local.auth import load_or_create_secret, mint_token
from chatspace.local.serving import start_serve
from chatspace.types.files import VECTORS_PENDING

if TYPE_CHECKING:
    from chatspace import Client


@dataclass
class BenchService:
    url: str
    data_dir: Path
    process: subprocess.Popen[str]

    def token(self, org: str = "bench", user: str = "bench") -> str:
        secret = load_or_create_secret(self.data_dir)
        return mint_token(user=user, org=org, secret=secret, ttl_seconds=24 * 3600)

    def fresh_token(self) -> str:
        """A token of a new org: each benchmark starts from an empty workspace."""
        return self.token(org=f"bench-{uuid.uuid4().hex[:8]}")

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()


def start(data_dir: Path, *args: str, env: Mapping[str, str] | None = None) -> BenchService:
    """``chatspace serve`` on a free port of 127.0.0.1 (``env``: variables to add)."""
    full_env = None if env is None else {**os.environ, **env}
    started = start_serve(data_dir, "--log-level", "warning", *args, env=full_env)
    stdout = started.process.stdout
    assert stdout is not None
    # Keep reading its output, or its pipe fills up and the service blocks.
    threading.Thread(target=stdout.read, daemon=True).start()
    return BenchService(started.url, data_dir, started.process)


def wait_for_vectors(client: Client, workspace: str | None = None, timeout: float = 3600) -> None:
    """Return once no file of the workspace says its passages wait for their vectors
    (the service embeds them after the upload, oldest first: the newest file is polled,
    then every file checked once)."""
    deadline = time.monotonic() + timeout
    while True:
        newest = client.files.list(workspace=workspace, limit=1).page.data
        if not (newest and VECTORS_PENDING in newest[0].status_details):
            files = client.files.list(workspace=workspace)
            if not any(VECTORS_PENDING in f.status_details for f in files):
                return
        if time.monotonic() > deadline:
            raise TimeoutError(f"passage vectors still pending after {timeout} s")
        time.sleep(0.05)
