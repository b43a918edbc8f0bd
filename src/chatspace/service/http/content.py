"""A stored file's bytes as an HTTP answer: one byte range (``Range``), never held whole.

Starlette's ``FileResponse`` (1.10) parses ``Range`` itself, but it serves a path on disk
only (a blob may be in a bucket), answers several ranges as ``multipart/byteranges`` and
a malformed header or an unsatisfiable range in plain text; the service answers
docs/interface.md#files: a single range as a 206, anything else it does not serve as the
whole file (as RFC 9110 allows), a range past the end as a JSON 416. Hence the one small
parser here.
"""

from __future__ import annotations

import re
from email.utils import formatdate
from urllib.parse import quote

from starlette.responses import JSONResponse, Response, StreamingResponse

from chatspace.service.store.blobs import BlobStore

from .errors import error_body

__all__ = ["Unsatisfiable", "blob_response", "single_range"]

_RANGE = re.compile(r"^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$", re.IGNORECASE)
_BEYOND_ANY_FILE = 10**18


class Unsatisfiable(Exception):
    """A range that starts past the end of the file (RFC 9110, 14.1.3): a 416."""


def _position(digits: str) -> int:
    """A byte position of the header; one of 19 digits or more is past any file's end
    (and ``int()`` refuses over 4300 digits)."""
    digits = digits.lstrip("0") or "0"
    return int(digits) if len(digits) < 19 else _BEYOND_ANY_FILE


def single_range(header: str | None, size: int) -> tuple[int, int] | None:
    """The ``(start, end)`` (end exclusive) of a single byte range, or None to send the
    whole file (no header, several ranges, or one that does not parse, as RFC 9110
    allows). Raises :class:`Unsatisfiable` when it starts past the end, or asks for the
    last bytes of an empty file."""
    match = _RANGE.match(header or "")
    if match is None or not (match[1] or match[2]):
        return None
    if not match[1]:
        suffix = _position(match[2])
        if suffix == 0 or size == 0:
            raise Unsatisfiable
        return max(0, size - suffix), size
    start = _position(match[1])
    last = _position(match[2]) if match[2] else size - 1
    if match[2] and last < start:
        return None
    if start >= size:
        raise Unsatisfiable
    return start, min(last + 1, size)


def blob_response(
    blobs: BlobStore,
    blob: str,
    *,
    filename: str,
    content_type: str,
    range_: str | None,
    if_range: str | None,
) -> Response:
    """``blob`` answered as an attachment named ``filename``, with the headers Starlette's
    ``FileResponse`` sends (``Accept-Ranges``, ``ETag``, ``Last-Modified``) and a single
    range as a 206, except that the read begins before the headers go: a delete that wins
    the race raises ``FileNotFoundError`` here (the caller's 404), one that loses cannot
    cut the answer."""
    stat = blobs.stat(blob)
    modified = formatdate(stat.modified, usegmt=True)
    headers = {
        "Content-Type": content_type,
        "Content-Disposition": f"attachment; filename*=UTF-8''{quote(filename, safe='')}",
        "Accept-Ranges": "bytes",
        "ETag": stat.etag,
        "Last-Modified": modified,
    }
    span = None
    if if_range is None or if_range in (stat.etag, modified):
        try:
            span = single_range(range_, stat.size)
        except Unsatisfiable:
            return JSONResponse(
                error_body(416, f"The range starts past the end of the file ({stat.size} bytes)."),
                status_code=416,
                headers={"Content-Range": f"bytes */{stat.size}"},
            )
    start, end = span or (0, stat.size)
    headers["Content-Length"] = str(end - start)
    if span is not None:
        headers["Content-Range"] = f"bytes {start}-{end - 1}/{stat.size}"
    return StreamingResponse(
        blobs.read(blob, start, end), status_code=206 if span else 200, headers=headers
    )
