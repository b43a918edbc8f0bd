"""What the browser tests share: the running JupyterLab and screenshots."""

from __future__ import annotations

import os
import re
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .processes import stop_process

REPO = Path(__file__).resolve().parents[2]
SHOTS = Path(os.environ.get("CHATSPACE_SCREENSHOTS", REPO / "artifacts" / "screenshots"))
TOKEN = "browser-test-token"
KERNEL_IDLE_JS = """() => { const w = window.jupyterapp && window.jupyterapp.shell.currentWidget;
    const k = w && w.sessionContext && w.sessionContext.session
              && w.sessionContext.session.kernel;
    return !!k && k.connectionStatus === 'connected' && k.status === 'idle'; }"""
"""True once the current notebook's kernel is connected and idle (for wait_for_function)."""


@dataclass
class Lab:
    base: str
    root: Path
    data_dir: Path
    log: Path

    def url(self, path: str) -> str:
        return f"{self.base}/{path.lstrip('/')}?token={TOKEN}"

    def write_notebook(self, name: str, cells: list[str]) -> None:
        """A notebook of these code cells in the server's root, for the Python 3 kernel."""
        import nbformat

        notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in cells])
        notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3"}
        nbformat.write(notebook, self.root / name)

    def open_notebook(self, page: Any, name: str) -> None:
        """Open the notebook ``name`` in ``page`` and wait until its cells show and its
        kernel is idle."""
        page.goto(self.url(f"lab/tree/{name}"))
        page.wait_for_selector(".jp-NotebookPanel .jp-Cell", timeout=60_000)
        page.wait_for_function(KERNEL_IDLE_JS, timeout=90_000)


def watched_page(context: Any) -> Any:
    """A new page of the browser ``context`` whose uncaught script errors collect in
    ``page.page_errors`` (each test asserts it stays empty)."""
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.page_errors = errors
    return page


def stop_lab(proc: subprocess.Popen[bytes]) -> None:
    """Stop a JupyterLab (30 s to end of its own)."""
    stop_process(proc, 30)


def shot(page: object, name: str, element: object | None = None) -> Path:
    """A screenshot of the window (and of ``element`` alone, as ``<name>-panel.png``),
    kept where CI keeps artifacts (ignored by git)."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / f"{re.sub(r'[^a-z0-9-]+', '-', name.lower())}.png"
    page.screenshot(path=str(path), full_page=False)  # type: ignore[attr-defined]
    if element is not None:
        element.screenshot(path=str(path.with_name(path.stem + "-panel.png")))  # type: ignore[attr-defined]
    return path
