"""What the browser tests share: the running JupyterLab and screenshots."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SHOTS = Path(os.environ.get("CHATSPACE_SCREENSHOTS", REPO / "artifacts" / "screenshots"))
TOKEN = "browser-test-token"


@dataclass
class Lab:
    base: str
    root: Path
    data_dir: Path
    log: Path

    def url(self, path: str) -> str:
        return f"{self.base}/{path.lstrip('/')}?token={TOKEN}"


def shot(page: object, name: str, element: object | None = None) -> Path:
    """A screenshot of the window (and of ``element`` alone, as ``<name>-panel.png``),
    kept where CI keeps artifacts (ignored by git)."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / f"{re.sub(r'[^a-z0-9-]+', '-', name.lower())}.png"
    page.screenshot(path=str(path), full_page=False)  # type: ignore[attr-defined]
    if element is not None:
        element.screenshot(path=str(path.with_name(path.stem + "-panel.png")))  # type: ignore[attr-defined]
    return path
