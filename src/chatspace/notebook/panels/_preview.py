"""A file's preview as safe HTML: text, CSV as a table, images, or a plain note.

Only files up to ``PREVIEW_BYTES`` are fetched; larger ones say so and offer the
download link instead, so that a preview never pulls gigabytes into the kernel.
"""

from __future__ import annotations

import base64
import io
import mimetypes
from typing import TYPE_CHECKING

from chatspace.notebook.markup import escape

if TYPE_CHECKING:
    from chatspace.client import Client
    from chatspace.types import File

__all__ = ["PREVIEW_BYTES", "preview_html"]

PREVIEW_BYTES = 2 * 1024 * 1024
PREVIEW_CHARS = 20_000
PREVIEW_ROWS = 20
_IMAGES = {"image/png", "image/jpeg", "image/gif", "image/webp"}  # never SVG: it can script


def preview_html(client: Client, f: File, *, workspace: str) -> str:
    """The preview of ``f``, every piece of its content escaped."""
    title = f"<b>{escape(f.filename)}</b> · {f.bytes} bytes"
    if f.bytes > PREVIEW_BYTES:
        return f"{title}<div><i>Too large to preview here; use the download link.</i></div>"
    data = client.files.content(f.id, workspace=workspace)
    mime = mimetypes.guess_type(f.filename)[0] or ""
    if mime in _IMAGES:
        payload = base64.b64encode(data).decode("ascii")
        return f'{title}<div><img style="max-width: 100%" src="data:{mime};base64,{payload}"></div>'
    if mime == "text/csv" or f.filename.lower().endswith(".csv"):
        table = _csv_table(data)
        if table is not None:
            return f"{title}{table}"
    if b"\x00" in data[:4096]:
        return f"{title}<div><i>Binary file: no preview.</i></div>"
    text = data.decode("utf-8", errors="replace")
    more = "\n…" if len(text) > PREVIEW_CHARS else ""
    return (
        f'{title}<pre class="chatspace-preview-text" style="max-height: 300px; overflow: auto">'
        f"{escape(text[:PREVIEW_CHARS] + more)}</pre>"
    )


def _csv_table(data: bytes) -> str | None:
    import pandas as pd

    try:
        frame = pd.read_csv(io.BytesIO(data), nrows=PREVIEW_ROWS)
    except (ValueError, UnicodeDecodeError, pd.errors.ParserError):
        return None
    # to_html escapes cells and headers (escape=True is its default; said here on purpose)
    return frame.to_html(index=False, escape=True, classes="chatspace-preview-table", border=0)
