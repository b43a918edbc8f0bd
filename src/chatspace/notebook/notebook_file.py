"""Which notebook this kernel runs for, as the Jupyter server knows it now.

JupyterLab sets ``JPY_SESSION_NAME`` once, when it starts the kernel: after a rename the
kernel still sees ``Untitled.ipynb``. The server knows the current path (its sessions API
maps each kernel id to a path), so the kernel asks it. The chatspace server extension
tells kernels where the server's runtime file is (``CHATSPACE_JUPYTER_SERVER_INFO``, a path
the server writes with mode 0600); the URL and token are read from that file when needed,
so the token is never in an environment, a process list, a repr or an output. Answers
are kept for :data:`FRESH_FOR` seconds, and a server that does not answer is not asked
again for :data:`RETRY_AFTER` seconds: a question costs at most one local call.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

__all__ = ["FRESH_FOR", "RETRY_AFTER", "SERVER_INFO_ENV", "current_path", "kernel_id"]

SERVER_INFO_ENV = "CHATSPACE_JUPYTER_SERVER_INFO"
FRESH_FOR = 5.0
"""Seconds a path found is used before the server is asked again (a rename shows then)."""
RETRY_AFTER = 60.0
"""Seconds before a server that did not answer is asked again."""

_cache: dict[str, tuple[float, str | None]] = {}


def current_path(kernel: str | None = None) -> str | None:
    """The path of the notebook of ``kernel`` (default: this kernel) relative to the
    server's root, or None when no Jupyter server tells it."""
    info = os.environ.get(SERVER_INFO_ENV)
    kernel = (kernel or kernel_id()) if info else None
    if not kernel or not info:
        return None
    now = time.monotonic()
    cached = _cache.get(kernel)
    if cached is not None and now < cached[0]:
        return cached[1]
    path = _ask(Path(info), kernel)
    if path is None and cached is not None and cached[1] is not None:
        path = cached[1]  # a server busy for a moment: the last path it told stands
    _cache[kernel] = (now + (FRESH_FOR if path is not None else RETRY_AFTER), path)
    return path


def kernel_id() -> str | None:
    """This kernel's id (its connection file is ``kernel-<id>.json``), in ipykernel only."""
    from IPython import get_ipython

    if getattr(get_ipython(), "kernel", None) is None:
        return None
    from ipykernel.connect import get_connection_file

    stem = Path(get_connection_file()).stem
    return stem.removeprefix("kernel-") if stem.startswith("kernel-") else None


def _ask(info_file: Path, kernel: str) -> str | None:
    """The path of ``kernel``'s session, from the server's sessions API; None on failure."""
    import httpx

    try:
        info = json.loads(info_file.read_text())
        url, token = str(info["url"]), str(info.get("token") or "")
        headers = {"Authorization": f"token {token}"} if token else {}
        response = httpx.get(url.rstrip("/") + "/api/sessions", headers=headers, timeout=2.0)
        response.raise_for_status()
        sessions = response.json()
    except (OSError, ValueError, KeyError, TypeError, httpx.HTTPError):
        return None
    for session in sessions if isinstance(sessions, list) else []:
        if isinstance(session, dict) and (session.get("kernel") or {}).get("id") == kernel:
            path = session.get("path")
            return str(path) if path else None
    return None
