"""``make lab`` as a new user meets it: the URL it prints opens the quickstart notebook.

The recipe is read from ``make -n lab`` (the Makefile as it is, nothing retyped here),
run with this environment's JupyterLab on a free port with every directory temporary (the
notebooks a copy, as JupyterLab keeps checkpoints next to what it opens), and the URL it
prints is opened in Chromium.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from browser.conftest import _free_port, _wait_for_lab
from chatspace.local.launcher import stop_service
from support.lab import REPO, TOKEN, stop_lab

pytestmark = pytest.mark.browser


def _lab_command() -> list[str]:
    """The ``jupyter lab`` line of the ``lab`` target, its program this environment's."""
    printed = subprocess.run(
        ["make", "-n", "-s", "lab"], cwd=REPO, capture_output=True, text=True, check=True
    ).stdout
    [line] = [ln for ln in printed.splitlines() if re.search(r"/jupyter lab\b", ln)]
    args = shlex.split(line)[2:]  # after ".venv/bin/jupyter lab"
    return [sys.executable, "-m", "jupyterlab", *args]


def test_the_url_make_lab_prints_opens_the_quickstart(browser: Any, tmp_path: Path) -> None:
    port = _free_port()
    command = [
        *_lab_command(),
        "--no-browser",
        f"--port={port}",
        "--ip=127.0.0.1",
        f"--IdentityProvider.token={TOKEN}",
    ]
    if "--allow-root" not in command:
        command.append("--allow-root")
    env = dict(
        os.environ,
        CHATSPACE_DATA_DIR=str(tmp_path / "data"),
        JUPYTER_RUNTIME_DIR=str(tmp_path / "runtime"),
        JUPYTERLAB_SETTINGS_DIR=str(tmp_path / "settings"),
        JUPYTERLAB_WORKSPACES_DIR=str(tmp_path / "workspaces"),
    )
    checkout = tmp_path / "checkout"
    shutil.copytree(REPO / "notebooks", checkout / "notebooks")
    log_path = tmp_path / "lab.log"
    with log_path.open("w") as log:
        proc = subprocess.Popen(
            command, cwd=checkout, stdout=log, stderr=subprocess.STDOUT, env=env
        )
    try:
        _wait_for_lab(f"http://127.0.0.1:{port}", proc, log_path)
        urls = re.findall(rf"http://127\.0\.0\.1:{port}\S*", log_path.read_text())
        assert urls, log_path.read_text()
        assert urls[0].startswith(
            f"http://127.0.0.1:{port}/lab/tree/notebooks/quickstart.ipynb?token="
        )
        context = browser.new_context(viewport={"width": 1400, "height": 900})
        page = context.new_page()
        try:
            # a token given on the command line prints masked ("token=...")
            page.goto(urls[0].replace("token=...", f"token={TOKEN}"))
            expect(page.locator(".jp-NotebookPanel .jp-Cell").first).to_be_visible(timeout=60_000)
            tab = page.locator("#jp-main-dock-panel .lm-TabBar-tab.lm-mod-current")
            expect(tab).to_contain_text("quickstart.ipynb")
            expect(page.locator(".jp-NotebookPanel:visible")).to_contain_text(
                "chatspace quickstart"
            )
            assert page.locator(".jp-Launcher:visible").count() == 0
        finally:
            context.close()
    finally:
        stop_lab(proc)
        stop_service(tmp_path / "data")
