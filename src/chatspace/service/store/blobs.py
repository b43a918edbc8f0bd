"""File bytes on disk: written to a temporary name, moved in place only when complete.

Layout under the blob root (``<data-dir>/blobs``)::

    .incoming/<pid>-<random>.part   uploads in progress (same file system, so the move is atomic)
    <xx>/<file-id>                  stored blobs; the ``files.blob`` column holds ``<xx>/<file-id>``

A blob's name is derived from the file id, never from the uploaded filename, so no
client-supplied text ever becomes a path. A crash can leave two kinds of debris, both
removed by :meth:`BlobStore.sweep` when the service starts: ``.part`` files of processes
that no longer run, and blobs moved in place whose row was never committed.
"""

from __future__ import annotations

import hashlib
import os
import secrets
import time
from collections.abc import Iterable
from pathlib import Path
from typing import BinaryIO

__all__ = ["BlobStore", "TempBlob"]

_INCOMING = ".incoming"
_ORPHAN_GRACE_SECONDS = 3600.0
"""A blob without a row is only swept once this old, so that an upload another process is
committing right now (between its move and its commit) is never taken for debris."""


class TempBlob:
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


class BlobStore:
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

    def new_temp(self) -> TempBlob:
        return TempBlob(self.incoming / f"{os.getpid()}-{secrets.token_hex(12)}.part")

    def place(self, temp: TempBlob, name: str) -> Path:
        """Move a complete upload to its final name (atomic rename on the same file system)."""
        temp.close()
        final = self.path(name)
        final.parent.mkdir(parents=True, exist_ok=True)
        os.replace(temp.path, final)
        return final

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
            if not pid.isdigit() or not _process_alive(int(pid)):
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


def _process_alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
