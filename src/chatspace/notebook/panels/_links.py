"""Links from a panel to the browser: file downloads through the server extension.

An HTML widget cannot run script, so the link must carry the Jupyter server's
``base_url`` itself (``/`` locally, ``/user/<name>/`` under JupyterHub). The kernel finds
it, most reliable first:

1. ``CHATSPACE_JUPYTER_BASE_URL``, which the chatspace server extension exports into the
   server's environment, so every kernel that server starts inherits it;
2. the runtime file ``jpserver-<pid>.json`` of the server that started this kernel
   (``JPY_PARENT_PID``, set by jupyter_client);
3. ``JUPYTERHUB_SERVICE_PREFIX`` (single-user servers under JupyterHub);
4. ``/``.

A panel's ``download_base_url`` trait overrides all of them.
"""

from __future__ import annotations

import base64
import json
import os
from pathlib import Path
from urllib.parse import quote, urlencode

from chatspace.notebook.markup import escape

__all__ = ["BASE_URL_ENV", "data_link", "file_download_url", "jupyter_base_url"]

BASE_URL_ENV = "CHATSPACE_JUPYTER_BASE_URL"
MAX_DATA_LINK_BYTES = 20 * 1024 * 1024


def jupyter_base_url() -> str:
    """The base URL of the Jupyter server this kernel belongs to, ending with ``/``."""
    found = os.environ.get(BASE_URL_ENV) or _from_runtime_file()
    found = found or os.environ.get("JUPYTERHUB_SERVICE_PREFIX") or "/"
    return _normalize(found)


def _normalize(base: str) -> str:
    base = "/" + base.strip("/") + "/"
    return "/" if base == "//" else base


def _from_runtime_file() -> str | None:
    pid = os.environ.get("JPY_PARENT_PID")
    if not pid or not pid.isdigit():
        return None
    try:
        from jupyter_core.paths import jupyter_runtime_dir
    except ImportError:  # pragma: no cover - jupyter_core comes with ipykernel
        return None
    path = Path(jupyter_runtime_dir()) / f"jpserver-{pid}.json"
    try:
        info = json.loads(path.read_text())
    except (OSError, ValueError):
        return None
    base = info.get("base_url") if isinstance(info, dict) else None
    return base if isinstance(base, str) else None


def file_download_url(file_id: str, workspace: str, *, base_url: str | None = None) -> str:
    """``<base_url>chatspace/files/<id>/content?workspace=...``, every part quoted."""
    base = _normalize(base_url) if base_url else jupyter_base_url()
    query = urlencode({"workspace": workspace})
    return f"{base}chatspace/files/{quote(file_id, safe='')}/content?{query}"


def data_link(data: bytes, filename: str, mime: str, *, css: str, text: str) -> str:
    """An ``<a download>`` carrying ``data`` itself, for exports made in the kernel."""
    if len(data) > MAX_DATA_LINK_BYTES:
        return (
            f'<span class="{escape(css)}">{escape(filename)} is too large to offer here '
            f"({len(data)} bytes); it was written to disk instead.</span>"
        )
    payload = base64.b64encode(data).decode("ascii")
    return (
        f'<a class="{escape(css)}" download="{escape(filename)}" '
        f'href="data:{escape(mime)};base64,{payload}">{escape(text)}</a>'
    )
