"""A real JupyterLab with the chatspace server extension, driven by Debian's Chromium.

Follows ``shared/notes/jupyter-testing.md``: Playwright for Python with
``executable_path`` (its own browser download cannot work here), JupyterLab started with
``--allow-root`` and ``expose_app_in_browser``, the news toast switched off, and every
directory (settings, workspaces, runtime, chatspace data) temporary.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from chatspace.local.launcher import stop_service
from support.lab import REPO, TOKEN, Lab, stop_lab

CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def running_lab(tmp: Path, env: dict[str, str] | None = None) -> Iterator[Lab]:
    """JupyterLab on a free port with the notebooks in its root, in ``tmp``; ``env`` adds
    to the server's environment (what the embedded service it starts inherits)."""
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: run `make browser-deps` (Debian's chromium)")
    root = tmp / "nb"
    root.mkdir()
    shutil.copytree(REPO / "notebooks", root, dirs_exist_ok=True)
    settings = tmp / "user-settings" / "@jupyterlab" / "apputils-extension"
    settings.mkdir(parents=True)
    (settings / "notification.jupyterlab-settings").write_text(
        json.dumps({"fetchNews": "false", "checkForUpdates": False})
    )
    data_dir = tmp / "chatspace-data"
    full_env = dict(
        os.environ,
        CHATSPACE_DATA_DIR=str(data_dir),
        JUPYTER_RUNTIME_DIR=str(tmp / "runtime"),
        JUPYTERLAB_SETTINGS_DIR=str(tmp / "user-settings"),
        JUPYTERLAB_WORKSPACES_DIR=str(tmp / "workspaces"),
        **(env or {}),
    )
    port = _free_port()
    log_path = tmp / "lab.log"
    log = log_path.open("w")
    proc = subprocess.Popen(
        [
            sys.executable, "-m", "jupyterlab", "--no-browser", "--allow-root",
            "--ip=127.0.0.1", f"--port={port}", f"--IdentityProvider.token={TOKEN}",
            f"--ServerApp.root_dir={root}", "--LabApp.expose_app_in_browser=True",
            "--FileContentsManager.delete_to_trash=False",
        ],
        stdout=log, stderr=subprocess.STDOUT, env=full_env,
    )  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    try:
        _wait_for_lab(base, proc, log_path)
        yield Lab(base=base, root=root, data_dir=data_dir, log=log_path)
    finally:
        stop_lab(proc)
        log.close()
        stop_service(data_dir)  # the extension's service outlives the server by design


@pytest.fixture(scope="module")
def lab(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Lab]:
    with running_lab(tmp_path_factory.mktemp("lab")) as started:
        yield started


def _wait_for_lab(base: str, proc: subprocess.Popen[bytes], log_path: Path) -> None:
    """Poll /api/status until it answers; fail at once if the server died."""
    with httpx.Client(timeout=2) as http:
        for _ in range(300):
            if proc.poll() is not None:
                raise RuntimeError("JupyterLab exited:\n" + log_path.read_text())
            try:
                if http.get(f"{base}/api/status", params={"token": TOKEN}).status_code == 200:
                    return
            except httpx.TransportError:
                pass
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(timeout=0.3)  # an event (exit) or the next poll, whichever first
    raise RuntimeError("JupyterLab did not answer in 90 s:\n" + log_path.read_text())


# Module scope: Playwright's sync API keeps an event loop running in the main thread while
# it is open, and the async tests that run after these need that thread's loop free.
@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(
            executable_path=CHROMIUM,
            headless=True,
            args=["--disable-gpu", "--disable-background-networking", "--disable-sync",
                  "--disable-component-update", "--no-first-run"],
        )  # fmt: skip
        yield b
        b.close()
