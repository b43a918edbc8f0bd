"""The files that hold a workspace's passage vectors beside the database, memory-mapped.

A process that kept every vector of its workspaces on its heap grew by 528 bytes a
passage (528 MB at a million) and read them all again from the database after every
restart. Here they live in files under the data dir, which each process maps: the pages
are the operating system's page cache, shared by every process on the data dir, counted
as file-backed memory (``RssFile``) and dropped by the kernel under pressure, and a
restarted service finds them.

One folder per workspace and model (``<folder>/<digest>/``) holds:

- **blocks**: immutable files of at most ``BLOCK_ROWS`` rows, written whole under a
  temporary name and renamed: a header, then the rows' passage ids (ascending), their
  files' keys (:func:`file_key`) and their float16 vectors;
- ``manifest.json``: the blocks that make up the workspace, in order, the boot of the
  machine that wrote them and the database's last removal of a vector when they were
  read (the stamp's fourth part), replaced atomically (``os.replace``);
- ``lock``: ``flock``'d shared to read the manifest and map its blocks, exclusive to
  change them. A block no manifest names is removed by the next writer; a process that
  still maps one keeps reading it (an unlinked file lives on while it is mapped).

The files are a copy checked against the database's stamp before each question, never
the truth: whatever does not match (another boot, a missing or short block) reads as no
copy and is rebuilt from the database.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import struct
import uuid
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt
import sqlalchemy as sa

__all__ = ["Block", "WorkspaceFiles", "file_key", "files_beside"]

_MAGIC = b"CSDENSE1"
_HEADER = struct.Struct("<8sqqq")
"""Magic, rows, dimension, sum of the ids (the stamp's third part, read without the ids)."""
_SUFFIX = ".block"
_MANIFEST = "manifest.json"
_HALF = np.dtype("<f2")


def _boot_id() -> str:
    """This boot of the machine: what was written but never flushed is lost only with it,
    so a manifest of another boot is not trusted (and nothing is ``fsync``'d)."""
    try:
        return Path("/proc/sys/kernel/random/boot_id").read_text().strip()
    except OSError:
        return ""


_BOOT = _boot_id()


def _flush_without_boot(fd: int) -> None:
    """Where the boot cannot be told (no ``/proc``), what is written is flushed to disk."""
    if not _BOOT:
        os.fsync(fd)


def files_beside(engine: sa.Engine) -> Path:
    """Where a SQLite database's dense files go: beside it (``chatspace.db-dense``, as its
    ``-wal``), so that they follow that database and no other."""
    database = engine.url.database
    if engine.dialect.name != "sqlite" or not database or database == ":memory:":
        raise ValueError("only a SQLite database in a file has a folder beside it")
    return Path(f"{database}-dense")


def file_key(file_id: str) -> int:
    """A file's 64-bit key in the blocks (the same in every process, unlike ``hash``):
    what a search restricted to some files compares."""
    return int.from_bytes(
        hashlib.blake2b(file_id.encode(), digest_size=8).digest(), "little", signed=True
    )


@dataclass(frozen=True, slots=True, eq=False)
class Block:
    """Rows of one block file, as arrays over its map (nothing copied to the heap)."""

    name: str
    ids: npt.NDArray[np.int64]
    """Ascending."""
    files: npt.NDArray[np.int64]
    vectors: npt.NDArray[np.float16]
    total: int
    """The sum of ``ids``."""

    def __len__(self) -> int:
        return len(self.ids)

    @classmethod
    def open(cls, path: Path) -> Block:
        """The block at ``path``; ValueError if it is not a whole one."""
        raw = np.memmap(path, np.uint8, "r")
        if len(raw) < _HEADER.size:
            raise ValueError(f"{path.name}: shorter than its header")
        magic, rows, dim, total = _HEADER.unpack(raw[: _HEADER.size].tobytes())
        at = _HEADER.size
        if magic != _MAGIC or len(raw) != at + rows * (16 + 2 * dim):
            raise ValueError(f"{path.name}: not a whole block")
        ids = raw[at : at + 8 * rows].view(np.int64)
        files = raw[at + 8 * rows : at + 16 * rows].view(np.int64)
        vectors = raw[at + 16 * rows :].view(_HALF).reshape(rows, dim)
        return cls(path.name, ids, files, vectors, total)

    @classmethod
    def write(
        cls,
        folder: Path,
        ids: npt.NDArray[np.int64],
        files: npt.NDArray[np.int64],
        vectors: npt.NDArray[np.float16],
    ) -> Block:
        """A new block of these rows (sorted by id), written whole, then mapped."""
        order = np.argsort(ids, kind="stable")
        name = f"{uuid.uuid4().hex}{_SUFFIX}"
        partial = folder / f".{name}.tmp"
        with partial.open("wb") as out:
            out.write(_HEADER.pack(_MAGIC, len(ids), vectors.shape[1], int(ids.sum())))
            for part in (ids[order], files[order], vectors[order]):
                out.write(np.ascontiguousarray(part).tobytes())
            out.flush()
            _flush_without_boot(out.fileno())
        os.replace(partial, folder / name)
        return cls.open(folder / name)


class WorkspaceFiles:
    """The folder of one workspace's vectors of one model."""

    def __init__(self, root: Path, org_id: str, workspace_id: str, model: str) -> None:
        self.what = {"org_id": org_id, "workspace_id": workspace_id, "model": model}
        digest = hashlib.blake2b("\0".join(self.what.values()).encode(), digest_size=12)
        self.folder = root / digest.hexdigest()

    @classmethod
    def under(cls, root: Path) -> list[WorkspaceFiles]:
        """The folders under ``root`` that hold blocks, by what their manifest names."""
        found = []
        for manifest in sorted(root.glob(f"*/{_MANIFEST}")):
            try:
                told = json.loads(manifest.read_text())
                files = cls(root, **told["of"])
            except (OSError, ValueError, KeyError, TypeError):
                continue
            if files.folder == manifest.parent and told.get("blocks"):
                found.append(files)
        return found

    @contextlib.contextmanager
    def locked(self, *, exclusive: bool) -> Iterator[None]:
        """The folder's lock, shared (to read) or exclusive (to change it)."""
        self.folder.mkdir(parents=True, exist_ok=True)
        with (self.folder / "lock").open("a") as handle:
            fcntl.flock(handle, fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH)
            try:
                yield
            finally:
                fcntl.flock(handle, fcntl.LOCK_UN)

    def read(self, known: Mapping[str, Block]) -> tuple[tuple[Block, ...], int] | None:
        """The blocks the manifest names (those in ``known`` not mapped again), and the
        database's last removal when they were written (-1 where it does not say); None
        where there is no whole copy of this boot. Call it holding the lock."""
        try:
            manifest = json.loads((self.folder / _MANIFEST).read_text())
            if manifest.get("boot") != _BOOT or manifest.get("of") != self.what:
                return None
            blocks = tuple(
                known.get(name) or Block.open(self.folder / name) for name in manifest["blocks"]
            )
            return blocks, int(manifest.get("removed_at", -1))
        except (OSError, ValueError, KeyError, TypeError):
            return None

    def publish(self, blocks: tuple[Block, ...], removed_at: int = 0) -> None:
        """Make ``blocks`` the workspace's copy (read at the database's last removal
        ``removed_at``), and remove the files no longer in it. Call it holding the lock,
        exclusive."""
        names = [b.name for b in blocks]
        partial = self.folder / f".{_MANIFEST}.{uuid.uuid4().hex}.tmp"
        written = {"of": self.what, "boot": _BOOT, "blocks": names, "removed_at": removed_at}
        with partial.open("w") as out:
            out.write(json.dumps(written))
            out.flush()
            _flush_without_boot(out.fileno())
        os.replace(partial, self.folder / _MANIFEST)
        keep = {*names, _MANIFEST, "lock"}
        for path in self.folder.iterdir():
            if path.name not in keep:
                path.unlink(missing_ok=True)
