"""A file's preview as safe HTML: text, CSV as a table, images, or a plain note.

A text file shows its bytes; any other document (PDF, DOCX, a spreadsheet, ...) the text
the service extracted from it, which is what chat searches and quotes. Only files up to
``PREVIEW_BYTES`` are fetched; larger ones say so and offer the download link instead,
so that a preview never pulls gigabytes into the kernel.
"""

from __future__ import annotations

import base64
import io
import mimetypes
from typing import TYPE_CHECKING

from chatspace.errors import UnprocessableEntityError
from chatspace.notebook.markup import escape

if TYPE_CHECKING:
    from chatspace.client import Client
    from chatspace.types import File

__all__ = ["PREVIEW_BYTES", "preview_html", "readable_text"]

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
    text = readable_text(client, f.id, workspace=workspace, content=data)
    if text is None:
        return f"{title}<div><i>Binary file: no preview.</i></div>"
    more = "\n…" if len(text) > PREVIEW_CHARS else ""
    return (
        f'{title}<pre class="chatspace-preview-text" style="max-height: 300px; overflow: auto">'
        f"{escape(text[:PREVIEW_CHARS] + more)}</pre>"
    )


def readable_text(client: Client, file_id: str, *, workspace: str, content: bytes) -> str | None:
    """The text to show of a file that is neither an image nor a table: its bytes when
    they are UTF-8 text, else the text the service extracted; None when it has neither."""
    if b"\x00" not in content[:4096]:
        try:
            return content.decode("utf-8")
        except UnicodeDecodeError:
            pass
    try:
        return client.files.text(file_id, workspace=workspace)
    except UnprocessableEntityError:  # 422 no_text: the service found no text either
        return None


def _csv_table(data: bytes) -> str | None:
    import pandas as pd

    try:
        frame = pd.read_csv(io.BytesIO(data), nrows=PREVIEW_ROWS)
    except (ValueError, UnicodeDecodeError, pd.errors.ParserError):
        return None
    # to_html escapes cells and headers (escape=True is its default; said here on purpose)
    return str(frame.to_html(index=False, escape=True, classes="chatspace-preview-table", border=0))
