"""File bytes on disk: written to a temporary name, moved in place only when complete.

Layout under the blob root (``<data-dir>/blobs``)::

    .incoming/<pid>-<random>.part   uploads in progress (same file system, so the move is atomic)
    <xx>/<file-id>                  stored blobs; the ``files.blob`` column holds ``<xx>/<file-id>``

A blob's name is derived from the file id, never from the uploaded filename, so no
client-supplied text ever becomes a path. A crash can leave two kinds of debris, both
removed by :meth:`LocalBlobStore.sweep` when the service starts: ``.part`` files of
processes that no longer run, and blobs moved in place whose row was never committed.

:class:`BlobStore` is what the service asks of any store: this directory
(:class:`LocalBlobStore`, the default) or an S3 bucket (:mod:`.blobs_s3`,
``--blob-store s3://bucket/prefix``).
"""

from __future__ import annotations

import hashlib
import os
import secrets
import time
from collections.abc import Iterable, Iterator
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO, Protocol

from chatspace.local.runtime import process_alive

__all__ = [
    "BlobStat",
    "BlobStore",
    "LocalBlobStore",
    "LocalTempBlob",
    "TempBlob",
    "open_blob_store",
]

_INCOMING = ".incoming"
_READ_CHUNK = 64 * 1024
_ORPHAN_GRACE_SECONDS = 3600.0
"""A blob without a row is only swept once this old, so that an upload another process is
committing right now (between its move and its commit) is never taken for debris."""


class TempBlob(Protocol):
    """An upload in progress. ``path`` holds the bytes received so far on the local disk
    (text extraction reads it); every method is blocking."""

    path: Path

    @property
    def size(self) -> int: ...
    @property
    def sha256(self) -> str: ...
    def write(self, data: bytes) -> None: ...
    def close(self) -> None: ...
    def discard(self) -> None: ...


@dataclass(frozen=True)
class BlobStat:
    size: int
    etag: str
    modified: float


class BlobStore(Protocol):
    """Where file bytes live; every method is blocking (run it off the event loop)."""

    def new_temp(self) -> TempBlob: ...
    def place(self, temp: TempBlob, file_id: str) -> str:
        """Make a complete upload the blob of ``file_id``; returns the name its row keeps."""
        ...

    def delete(self, name: str) -> None: ...
    def delete_many(self, names: Iterable[str]) -> None: ...
    def local_copy(self, name: str) -> AbstractContextManager[Path]:
        """The blob as a local file while the context lasts (a path that does not exist
        when the blob does not)."""
        ...

    def stat(self, name: str) -> BlobStat:
        """Size and version of a blob; FileNotFoundError when it does not exist."""
        ...

    def read(self, name: str, start: int, end: int) -> Iterator[bytes]:
        """The bytes ``start`` to ``end`` (exclusive) of a blob, in chunks. The read begins
        before this returns (FileNotFoundError when the blob is gone), so that a delete
        after it cannot cut an answer whose headers are sent."""
        ...

    def sweep(self, *, referenced: set[str], now: float | None = None) -> list[str]: ...


def _chunks(f: BinaryIO, start: int, end: int) -> Iterator[bytes]:
    """The bytes ``start`` to ``end`` of an open file (still readable once unlinked)."""
    with f:
        f.seek(start)
        while start < end and (chunk := f.read(min(_READ_CHUNK, end - start))):
            start += len(chunk)
            yield chunk


class LocalTempBlob:
    """An upload in progress: bytes appended, hashed and counted as they arrive."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.size = 0
        self._sha256 = hashlib.sha256()
        self._file: BinaryIO | None = open(path, "xb")  # noqa: SIM115 - closed by close()/discard()

    def write(self, data: bytes) -> None:
        """Append ``data`` (blocking: call it from a worker thread)."""
        assert self._file is not None, "write after close"
        self._file.write(data)
        self._sha256.update(data)
        self.size += len(data)

    @property
    def sha256(self) -> str:
        return self._sha256.hexdigest()

    def close(self) -> None:
        """Flush to disk, so that a blob moved in place survives a crash of the machine."""
        if self._file is not None:
            self._file.flush()
            os.fsync(self._file.fileno())
            self._file.close()
            self._file = None

    def discard(self) -> None:
        """Forget the upload: close and remove the temporary file (idempotent)."""
        if self._file is not None:
            self._file.close()
            self._file = None
        self.path.unlink(missing_ok=True)


class LocalBlobStore:
    """Blobs under ``root``; every method is blocking (run it off the event loop)."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.incoming = root / _INCOMING
        self.incoming.mkdir(parents=True, exist_ok=True)

    @staticmethod
    def name_for(file_id: str) -> str:
        """The blob name of a file: a two-character fan-out directory, then the id."""
        return f"{file_id[-2:]}/{file_id}"

    def path(self, name: str) -> Path:
        return self.root / name

    def local_copy(self, name: str) -> AbstractContextManager[Path]:
        return nullcontext(self.path(name))

    def stat(self, name: str) -> BlobStat:
        found = self.path(name).stat()
        etag = f'"{found.st_mtime_ns:x}-{found.st_size:x}"'  # quoted, as RFC 9110 and S3 write it
        return BlobStat(found.st_size, etag, found.st_mtime)

    def read(self, name: str, start: int, end: int) -> Iterator[bytes]:
        return _chunks(open(self.path(name), "rb"), start, end)

    def new_temp(self) -> LocalTempBlob:
        return LocalTempBlob(self.incoming / f"{os.getpid()}-{secrets.token_hex(12)}.part")

    def place(self, temp: TempBlob, file_id: str) -> str:
        """Move a complete upload to its final name (atomic rename on the same file system)."""
        temp.close()
        name = self.name_for(file_id)
        final = self.path(name)
        final.parent.mkdir(parents=True, exist_ok=True)
        os.replace(temp.path, final)
        return name

    def delete(self, name: str) -> None:
        self.path(name).unlink(missing_ok=True)

    def delete_many(self, names: Iterable[str]) -> None:
        for name in names:
            self.delete(name)

    def stored_names(self) -> list[str]:
        """Names of every blob in place (not the uploads in progress)."""
        return [
            f"{d.name}/{f.name}"
            for d in self.root.iterdir()
            if d.is_dir() and d.name != _INCOMING
            for f in d.iterdir()
            if f.is_file()
        ]

    def sweep(self, *, referenced: set[str], now: float | None = None) -> list[str]:
        """Remove what a crash left behind; return the names removed (for the log).

        ``referenced`` are the blob names the database knows.
        """
        now = time.time() if now is None else now
        removed: list[str] = []
        for part in self.incoming.glob("*.part"):
            pid = part.name.split("-", 1)[0]
            if not pid.isdigit() or not process_alive(int(pid)):
                part.unlink(missing_ok=True)
                removed.append(f"{_INCOMING}/{part.name}")
        for name in self.stored_names():
            if name in referenced:
                continue
            try:
                age = now - self.path(name).stat().st_mtime
            except FileNotFoundError:
                continue
            if age >= _ORPHAN_GRACE_SECONDS:
                self.delete(name)
                removed.append(name)
        return removed


def open_blob_store(url: str | None, *, data_dir: Path) -> BlobStore:
    """The store ``--blob-store`` names: None for ``<data-dir>/blobs``, or ``s3://...``."""
    if url is None:
        return LocalBlobStore(data_dir / "blobs")
    from .blobs_s3 import S3BlobStore  # boto3 is the optional extra chatspace[s3]

    # Uploads in progress are spooled where the local store keeps them (text extraction
    # reads them there), so the same start-up sweep removes those of dead processes.
    return S3BlobStore.from_url(url, spool=LocalBlobStore(data_dir / "blobs"))
