"""What ``files.upload`` accepts, turned into streamed multipart parts.

A path, several paths, a glob, bytes, a binary file object or a pandas DataFrame. Files
are read in 64 KiB pieces while the request is sent (httpx streams file objects), so
memory stays flat whatever their size. A DataFrame is written to a spooled temporary
file (on disk beyond 8 MiB) as CSV, or as Parquet with ``format="parquet"``.

Before a retry every part is rewound to where it started; a part that cannot seek
(a pipe, a socket) is not sent twice: once any of it was read, the request is not retried.
"""

from __future__ import annotations

import glob
import io
import json
import os
import tempfile
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, BinaryIO, Literal, TypedDict

from chatspace._pandas import is_dataframe
from chatspace.errors import ConfigurationError, RequestTooLargeError

from ._transfer import Progress, ProgressSetting

__all__ = ["FileInput", "PathInput", "Upload", "UploadOptions", "is_dataframe"]

FileInput = Any
"""A path (``str``/``PathLike``, globs allowed), bytes, a binary file object, a DataFrame,
or a list of paths."""
PathInput = str | os.PathLike[str]


class UploadOptions(TypedDict, total=False):
    """The keywords of ``files.upload`` (for typing its overloads only)."""

    filename: str | None
    purpose: str
    metadata: Mapping[str, Any] | None
    instructions: str | None
    workspace: str | None
    format: Literal["csv", "parquet"]
    progress: ProgressSetting


_GLOB_CHARS = frozenset("*?[")
_SPOOL = 8 * 1024 * 1024


class _Part:
    """One file of the request: a reader that counts, rewinds and reports progress."""

    def __init__(self, name: str, raw: BinaryIO, *, owned: bool) -> None:
        if isinstance(raw, io.TextIOBase):
            raise TypeError(f"{name}: open the file in binary mode ('rb'), not text mode.")
        self.filename = name
        self._raw = raw
        self._owned = owned
        self.progress: Progress | None = None
        self.sent = 0
        try:
            self.seekable = bool(raw.seekable()) if hasattr(raw, "seekable") else False
            self._start = raw.tell() if self.seekable else 0
        except (OSError, ValueError):
            self.seekable, self._start = False, 0

    def size(self) -> int | None:
        if not self.seekable:
            return None
        end = self._raw.seek(0, os.SEEK_END)
        self._raw.seek(self._start)
        return int(end) - self._start

    # the file protocol httpx uses: read, and seek/tell to find the length and rewind
    def read(self, n: int = -1) -> bytes:
        chunk = self._raw.read(n)
        if chunk:
            self.sent += len(chunk)
            if self.progress is not None:
                self.progress.update(len(chunk))
        return chunk

    def seek(self, offset: int, whence: int = os.SEEK_SET) -> int:
        if not self.seekable:
            raise io.UnsupportedOperation("this upload source cannot seek")
        if whence == os.SEEK_SET:
            offset += self._start
        return int(self._raw.seek(offset, whence)) - self._start

    def tell(self) -> int:
        if not self.seekable:
            raise io.UnsupportedOperation("this upload source cannot tell")
        return int(self._raw.tell()) - self._start

    def rewind(self) -> None:
        if self.seekable:
            self._raw.seek(self._start)
            self.sent = 0

    def close(self) -> None:
        if self._owned:
            self._raw.close()


class Upload:
    """The multipart body of ``POST /files``: form fields and one part per file."""

    def __init__(
        self,
        parts: list[_Part],
        fields: dict[str, str],
        *,
        single: bool,
        progress: ProgressSetting,
    ) -> None:
        self.fields = fields
        self.single = single
        self._parts = parts
        sizes = [p.size() for p in parts]
        self._sizes = sizes
        total = None if None in sizes else sum(s for s in sizes if s is not None)
        desc = parts[0].filename if len(parts) == 1 else f"{len(parts)} files"
        self.progress = Progress(progress, total, desc)
        for part in parts:
            part.progress = self.progress

    @classmethod
    def build(
        cls,
        file: FileInput,
        *,
        filename: str | None,
        format: str,
        fields: Mapping[str, Any],
        progress: ProgressSetting,
    ) -> Upload:
        parts, single = _parts(file, filename=filename, format=format)
        form = {k: (v if isinstance(v, str) else json.dumps(v)) for k, v in fields.items()}
        return cls(parts, form, single=single, progress=progress)

    @property
    def largest(self) -> int:
        """The size of its largest file whose size is known (0 when none is)."""
        return max((s for s in self._sizes if s is not None), default=0)

    def refuse_over(self, max_file_bytes: int | None) -> None:
        """Raise the 413 here, before a byte is sent, for a file over the service's limit
        (``None``: the service did not say); a part of unknown size (a pipe) is left to
        the service, which answers 413 as its bytes arrive."""
        if max_file_bytes is None:
            return
        for part, size in zip(self._parts, self._sizes, strict=True):
            if size is not None and size > max_file_bytes:
                raise RequestTooLargeError(
                    f"File '{part.filename}' is {_mib(size)}, over the service's upload limit"
                    f" of {_mib(max_file_bytes)}; nothing was sent"
                )

    @property
    def replayable(self) -> bool:
        return all(p.seekable or p.sent == 0 for p in self._parts)

    def parts(self) -> list[tuple[str, tuple[str, Any]]]:
        return [("file", (p.filename, p)) for p in self._parts]

    def rewind(self) -> None:
        for part in self._parts:
            part.rewind()
        self.progress.reset()

    def close(self) -> None:
        self.progress.close()
        for part in self._parts:
            part.close()


def _mib(size: int) -> str:
    return f"{size / 2**20:.1f}".removesuffix(".0") + " MiB"


def _parts(file: FileInput, *, filename: str | None, format: str) -> tuple[list[_Part], bool]:
    if isinstance(file, (str, os.PathLike)):
        paths = _expand(file)
        if len(paths) == 1 and not _is_glob(file):
            return [_open(paths[0], filename)], True
        return [_open(p, None) for p in paths], False
    if isinstance(file, (bytes, bytearray, memoryview)):
        return [_Part(filename or "upload.bin", io.BytesIO(bytes(file)), owned=True)], True
    if is_dataframe(file):
        return [_frame(file, filename, format)], True
    if hasattr(file, "read"):
        name = filename or Path(str(getattr(file, "name", "") or "upload.bin")).name
        return [_Part(name, file, owned=False)], True
    if isinstance(file, Iterable):
        items = list(file)
        if filename is not None:
            raise TypeError("filename= names a single upload; several files keep their names")
        if not items:
            raise ValueError("nothing to upload: the list of files is empty")
        parts: list[_Part] = []
        for item in items:
            parts.extend(_parts(item, filename=None, format=format)[0])
        return parts, False
    raise TypeError(
        f"cannot upload a {type(file).__name__}: give a path, a glob, bytes, "
        "a binary file object or a pandas DataFrame"
    )


def _is_glob(path: str | os.PathLike[str]) -> bool:
    text = os.fspath(path)
    return not os.path.exists(text) and bool(_GLOB_CHARS & set(str(text)))


def _expand(path: str | os.PathLike[str]) -> list[Path]:
    text = os.path.expanduser(os.fspath(path))
    if not _is_glob(text):
        if not os.path.isfile(text):
            raise FileNotFoundError(f"no file to upload at {text}")
        return [Path(text)]
    matches = sorted(p for p in glob.glob(text, recursive=True) if os.path.isfile(p))
    if not matches:
        raise FileNotFoundError(f"no file matches {text}")
    return [Path(m) for m in matches]


def _open(path: Path, filename: str | None) -> _Part:
    return _Part(filename or path.name, path.open("rb"), owned=True)


def _frame(frame: Any, filename: str | None, format: str) -> _Part:
    buffer: Any = tempfile.SpooledTemporaryFile(max_size=_SPOOL)  # noqa: SIM115 - closed by the part
    if format == "csv":
        frame.to_csv(buffer, index=False)
    elif format == "parquet":
        try:
            frame.to_parquet(buffer, index=False)
        except ImportError as exc:
            buffer.close()
            raise ConfigurationError(
                "Parquet needs pyarrow: pip install pyarrow, or use format='csv'."
            ) from exc
    else:
        buffer.close()
        raise ValueError(f"format must be 'csv' or 'parquet', not {format!r}")
    buffer.seek(0)
    return _Part(filename or f"dataframe.{format}", buffer, owned=True)
