"""Receiving ``multipart/form-data`` uploads as a stream, straight to temporary blobs.

FastAPI's ``UploadFile`` would spool each part to ``/tmp`` (or memory) before the route
runs; here python-multipart's push parser is fed from ``request.stream()`` and each file
part's bytes are appended to a :class:`~chatspace.service.store.blobs.TempBlob` in the
data dir as they arrive: the body is never held whole, the size limit (413) is enforced
as bytes arrive, and every part is hashed on the way (for the row and for the
idempotency fingerprint).

Whatever goes wrong (a limit, a malformed body, the client going away), every temporary
blob of the request is removed before the error leaves :func:`receive_upload`. Then
:func:`read_fields` checks the form's text fields and filenames like a JSON body (422).
"""

from __future__ import annotations

import logging
import unicodedata
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import anyio
import python_multipart
from fastapi.exceptions import RequestValidationError
from pydantic import ValidationError
from python_multipart.exceptions import FormParserError
from python_multipart.multipart import MultipartState, parse_options_header
from starlette.requests import ClientDisconnect, Request

from chatspace.service.http.errors import faults_at
from chatspace.service.operations.files import UploadFields
from chatspace.service.problems import BadRequest, Invalid, Problem, TooLarge
from chatspace.service.store.blobs import BlobStore, TempBlob

__all__ = ["FilePart", "UploadForm", "read_fields", "receive_upload", "safe_filename"]

log = logging.getLogger("chatspace.service.http.uploads")

FILE_FIELD = "file"
MAX_FIELD_BYTES = 1024 * 1024
"""A text field (metadata, instructions, ...) larger than this is a 413."""
MAX_PARTS = 1000
MAX_FILENAME = 255
DRAIN_LIMIT = 64 * 1024 * 1024
"""After a rejection, up to this much of the rest of the body is read and dropped, so that
the client, still sending, gets to read the answer instead of a reset connection."""


class ClientGone(BadRequest):
    """The client closed the connection mid-upload; nobody reads this answer (a 400)."""


@dataclass
class FilePart:
    """A ``file`` part received whole: its name as sent, and its bytes in a temp blob."""

    filename: str
    temp: TempBlob


@dataclass
class UploadForm:
    """The received form: text fields (each value in order) and file parts."""

    fields: dict[str, list[str]] = field(default_factory=dict)
    files: list[FilePart] = field(default_factory=list)
    stray_files: list[str] = field(default_factory=list)
    """Names of file parts under a field other than ``file`` (their bytes are dropped)."""

    def discard(self) -> None:
        """Remove the temp blobs not moved in place (idempotent)."""
        for part in self.files:
            part.temp.discard()


def _decode(raw: bytes) -> str:
    try:
        return raw.decode()
    except UnicodeDecodeError:
        return raw.decode("latin-1")


_HTML5_ESCAPES = {"%22": '"', "%0D": "\r", "%0A": "\n"}


def _html5_unescape(name: str) -> str:
    """Undo the escapes browsers and httpx apply to file names in multipart headers.

    The HTML standard's form encoding writes ``"`` as ``%22`` and CR/LF as ``%0D``/``%0A``;
    nothing else is escaped (a literal ``%`` stays as it is), so only those are undone.
    """
    for escaped, char in _HTML5_ESCAPES.items():
        name = name.replace(escaped, char)
    return name


class _Receiver:
    """The parser's callbacks: builds the form and queues file bytes for writing."""

    def __init__(self, blobs: BlobStore, max_file_bytes: int) -> None:
        self.form = UploadForm()
        self.blobs = blobs
        self.max_file_bytes = max_file_bytes
        self.pending: list[tuple[TempBlob, bytes]] = []
        self.parts = 0
        self._header_name = b""
        self._header_value = b""
        self._disposition = b""
        self._name = ""
        self._filename: str | None = None
        self._text: bytearray | None = None
        self._temp: TempBlob | None = None
        self._received = 0

    def on_part_begin(self) -> None:
        self.parts += 1
        if self.parts > MAX_PARTS:
            raise TooLarge(f"The form has more than {MAX_PARTS} parts.")
        self._disposition, self._text, self._temp, self._filename = b"", None, None, None

    def on_header_field(self, data: bytes, start: int, end: int) -> None:
        self._header_name += data[start:end]

    def on_header_value(self, data: bytes, start: int, end: int) -> None:
        self._header_value += data[start:end]

    def on_header_end(self) -> None:
        if self._header_name.strip().lower() == b"content-disposition":
            self._disposition = self._header_value
        self._header_name = self._header_value = b""

    def on_headers_finished(self) -> None:
        _, options = parse_options_header(self._disposition)
        if b"name" not in options:
            raise Invalid(["body"], "A form part has no name in its Content-Disposition.")
        self._name = _decode(options[b"name"])
        self._received = 0
        if b"filename" not in options:
            self._text = bytearray()
            return
        self._filename = _html5_unescape(_decode(options[b"filename"]))
        if self._name == FILE_FIELD:
            self._temp = self.blobs.new_temp()
            self.form.files.append(FilePart(self._filename, self._temp))
        else:
            self.form.stray_files.append(self._name)

    def on_part_data(self, data: bytes, start: int, end: int) -> None:
        self._received += end - start
        if self._text is not None:
            if self._received > MAX_FIELD_BYTES:
                raise TooLarge(f"Form field '{self._name}' is over {MAX_FIELD_BYTES} bytes.")
            self._text += data[start:end]
        elif self._temp is not None:
            if self._received > self.max_file_bytes:
                raise TooLarge(
                    f"File '{self._filename}' is over the upload limit of "
                    f"{self.max_file_bytes // (1024 * 1024)} MiB."
                )
            self.pending.append((self._temp, data[start:end]))

    def on_part_end(self) -> None:
        if self._text is not None:
            try:
                value = self._text.decode()
            except UnicodeDecodeError:
                raise Invalid(
                    ["body", self._name], "The field is not valid UTF-8 text.", "string_unicode"
                ) from None
            self.form.fields.setdefault(self._name, []).append(value)

    def flush(self) -> None:
        """Write the queued file bytes (blocking: runs in a worker thread)."""
        for temp, data in self.pending:
            temp.write(data)
        self.pending.clear()


def _boundary(request: Request) -> bytes:
    kind, params = parse_options_header(request.headers.get("content-type", ""))
    if kind != b"multipart/form-data" or not params.get(b"boundary"):
        raise Invalid(
            ["body"],
            "Expected a multipart/form-data body (fields file, purpose, metadata, "
            "instructions, workspace).",
            "multipart_type",
        )
    return params[b"boundary"]


async def _drain(chunks: AsyncIterator[bytes]) -> None:
    drained = 0
    try:
        async for chunk in chunks:
            drained += len(chunk)
            if drained > DRAIN_LIMIT:
                return
    except ClientDisconnect:
        return


async def receive_upload(
    request: Request, *, blobs: BlobStore, max_file_bytes: int, who: str = ""
) -> UploadForm:
    """Read the whole multipart body of ``request``; file parts end up in temp blobs.

    Raises :class:`Invalid` (422) for a body that is not multipart or is malformed,
    :class:`TooLarge` (413) for a file or field over its limit, :class:`ClientGone` when
    the client disconnects; in every case no temp blob of the request is left.
    """
    chunks = aiter(request.stream())
    receiver = _Receiver(blobs, max_file_bytes)
    try:
        parser = python_multipart.MultipartParser(
            _boundary(request),
            {
                "on_part_begin": receiver.on_part_begin,
                "on_header_field": receiver.on_header_field,
                "on_header_value": receiver.on_header_value,
                "on_header_end": receiver.on_header_end,
                "on_headers_finished": receiver.on_headers_finished,
                "on_part_data": receiver.on_part_data,
                "on_part_end": receiver.on_part_end,
            },
        )
        async for chunk in chunks:
            parser.write(chunk)
            if receiver.pending:
                await anyio.to_thread.run_sync(receiver.flush)
        parser.finalize()
        if parser.state != MultipartState.END:
            raise Invalid(
                ["body"],
                "The multipart body ends before its closing boundary.",
                "multipart_invalid",
            )
        for part in receiver.form.files:
            await anyio.to_thread.run_sync(part.temp.close)
        return receiver.form
    except ClientDisconnect:
        receiver.form.discard()
        log.warning(
            "upload%s interrupted: the client disconnected; its %d partial file(s) were removed",
            f" by {who}" if who else "",
            len(receiver.form.files),
        )
        raise ClientGone(
            "The client closed the connection before the upload was complete."
        ) from None
    except FormParserError:
        receiver.form.discard()
        await _drain(chunks)
        raise Invalid(
            ["body"], "The body is not valid multipart/form-data.", "multipart_invalid"
        ) from None
    except Problem:
        receiver.form.discard()
        await _drain(chunks)
        raise
    except BaseException:
        receiver.form.discard()
        raise


def safe_filename(raw: str) -> str | None:
    """The last path component of an uploaded name, without control characters.

    ``../../etc/passwd`` is ``passwd``, ``C:\\Users\\x\\a.txt`` is ``a.txt``; None when
    nothing usable remains. The result is only ever stored, never used as a path. Every
    other character is kept as sent, with no Unicode normalization: the joiner of an emoji
    such as 👩‍💻 and a no-break space are part of the name the user types back.
    """
    name = raw.replace("\\", "/").rsplit("/", 1)[-1]
    name = "".join(ch for ch in name if not _unsafe(ch)).strip()
    return None if name in {"", ".", ".."} else name


_BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def _unsafe(ch: str) -> bool:
    """Controls and line breaks (they forge lines in logs and listings), and the bidi
    controls that show a name in another order ("Trojan Source": ``invoice\u202etxt.exe``)."""
    return unicodedata.category(ch) in {"Cc", "Cs", "Zl", "Zp"} or ch in _BIDI_CONTROLS


def read_fields(form: UploadForm) -> tuple[UploadFields, list[tuple[str, TempBlob]]]:
    """The validated text fields, and each file as its name to store and its temp blob;
    a 422 with every fault at once."""
    errors: list[dict[str, Any]] = []
    single: dict[str, str] = {}
    for name, values in form.fields.items():
        if name == FILE_FIELD:
            errors.append(_error(name, "Expected a file: a part with a filename.", "value_error"))
        elif len(values) > 1:
            errors.append(_error(name, "The field is given more than once.", "value_error"))
        else:
            single[name] = values[0]
    errors += [
        _error(n, "Extra inputs are not permitted", "extra_forbidden") for n in form.stray_files
    ]
    if not form.files and FILE_FIELD not in form.fields:
        errors.append(_error(FILE_FIELD, "Field required", "missing"))
    names: list[str] = []
    for i, part in enumerate(form.files):
        kept = safe_filename(part.filename)
        if kept is None:
            errors.append(_error(FILE_FIELD, "The file part needs a filename.", "value_error", i))
        elif len(kept) > MAX_FILENAME:
            msg = f"The filename is longer than {MAX_FILENAME} characters."
            errors.append(_error(FILE_FIELD, msg, "string_too_long", i))
        names.append(kept or "")
    try:
        fields = UploadFields.model_validate(single)
    except ValidationError as exc:
        errors += faults_at(("body",), exc)
    if errors:
        raise RequestValidationError(errors)
    return fields, [(name, part.temp) for name, part in zip(names, form.files, strict=True)]


def _error(name: str, msg: str, kind: str, index: int | None = None) -> dict[str, Any]:
    loc: tuple[str | int, ...] = ("body", name) if index is None else ("body", name, index)
    return {"loc": loc, "msg": msg, "type": kind}
