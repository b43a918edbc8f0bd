"""Dense similarity: a workspace's passage vectors in memory-mapped files, compared in blocks.

Searching by similarity compares the question's vector with every passage vector of the
workspace. Reading them from the database for each question would cost more than the
comparison, so they are kept in block files beside the database (:mod:`.dense_files`),
which each process maps: the operating system's page cache holds them, once for every
process on the data dir, and no process's own memory grows with the passages. Before
each question one query (:func:`~chatspace.service.store.passages.vector_stamp`) checks
that nothing was added or removed since; none serves a stale copy.

A block holds what is stored: float16, 512 bytes a passage (with its id and its file's
key: 528), :data:`BLOCK_ROWS` rows at most, sorted by id. numpy has no fast float16
arithmetic, so ``numkong``'s SIMD kernels compare the question (as float16) with each
block; the passages those approximate similarities put first (:data:`MARGIN` times as
many as asked), and those asked about, are then scored exactly in float32 as before: the
same ranking. When the stamp changes, a process first maps what another has written;
failing that, it reads only what changed, under the folder's lock: the vectors after the
largest id held, and where that does not account for the change (passages removed, a
vector stored below that id), the ids alone, then the vectors missing; a block that
loses rows is written anew, the others are kept.

This is the dense side of SQLite's index, and of PostgreSQL's where the database has no
pgvector (:mod:`.index`).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numkong
import numpy as np
import numpy.typing as npt
import sqlalchemy as sa

from chatspace.service.store.passages import (
    Stamp,
    VectorRow,
    vector_owners,
    vector_stamp,
    vectors_of,
    workspace_vectors,
)

from .dense_files import Block, WorkspaceFiles, file_key
from .embeddings import Embedder, Vectors

if TYPE_CHECKING:
    from .index import Hit, Workspace
    from .scope import Scope

__all__ = ["BLOCK_ROWS", "MARGIN", "MAX_WORKSPACES", "DenseIndex", "Nearest", "Similarities"]

MAX_WORKSPACES = 32
"""Workspaces whose files a process keeps mapped (least recently searched go first)."""
BLOCK_ROWS = 32_768
"""Rows of a block (16 MB): what a refresh writes anew at most besides the rows it adds,
and what one load reads at a time."""
MARGIN = 4
"""The passages compared exactly: this many times those asked for, by the approximate
similarity (float16 question: off by 1e-4 at most, far less than the gaps it skips)."""
SAMPLE_EVERY = 16
"""The values :func:`_largest` samples to bound the passages it partitions."""
_HALF = np.dtype("<f2")


@dataclass(frozen=True, slots=True)
class Nearest:
    """The passages most similar to a question (ids, most similar first) and the cosine
    similarity of every passage asked about that has a vector."""

    best: list[int]
    cosine: dict[int, float]
    passages: list[Hit] | None = None
    """The passages of ``best`` that were not asked about, in its order, where the engine
    read them with it (None: the full text's ``by_id`` reads them)."""


@dataclass(frozen=True, slots=True)
class _Matrix:
    """A workspace's vectors: row ``i`` is row ``i - starts[k]`` of ``blocks[k]``."""

    blocks: tuple[Block, ...]
    starts: npt.NDArray[np.intp]
    """Where each block's rows begin, and after the last, the number of rows."""
    removed_at: int = 0
    """The database's last removal when these rows were read (the stamp's fourth part;
    -1: not known, as in files that do not say it)."""

    @classmethod
    def of(cls, blocks: Sequence[Block], removed_at: int = 0) -> _Matrix:
        starts = np.cumsum([0, *(len(b) for b in blocks)]).astype(np.intp)
        return cls(tuple(blocks), starts, removed_at)

    @classmethod
    def read(cls, files: WorkspaceFiles, known: Mapping[str, Block]) -> _Matrix:
        """What ``files`` hold (empty where they hold no whole copy)."""
        found = files.read(known)
        return cls.of(*found) if found is not None else cls.of(())

    def __len__(self) -> int:
        return int(self.starts[-1])

    @property
    def stamp(self) -> Stamp:
        """What :func:`vector_stamp` says of the database this matrix holds."""
        if not len(self):
            return 0, 0, 0, 0
        return (
            len(self),
            max(int(b.ids[-1]) for b in self.blocks),
            sum(b.total for b in self.blocks),
            self.removed_at,
        )

    def rows(self, pids: Sequence[int]) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.intp]]:
        """The passages of ``pids`` held here, in that order, and their rows (each block
        is sorted by id: one search a block for all of them)."""
        asked = np.fromiter(pids, np.int64, len(pids))
        where, rows = [np.zeros(0, np.intp)], [np.zeros(0, np.intp)]
        for block, start in zip(self.blocks, self.starts, strict=False):
            at = np.minimum(np.searchsorted(block.ids, asked), len(block) - 1)
            found = np.flatnonzero(block.ids[at] == asked)
            where.append(found)
            rows.append(at[found] + start)
        places, held = np.concatenate(where), np.concatenate(rows)
        order = np.argsort(places, kind="stable")  # as asked: the product's rows as before
        return asked[places[order]], held[order]

    def _gather(
        self, rows: npt.NDArray[np.intp], part: str, found: npt.NDArray[Any]
    ) -> npt.NDArray[Any]:
        """These rows' ``ids`` or ``vectors`` into ``found``, block by block."""
        block = np.searchsorted(self.starts, rows, side="right") - 1
        for k in np.unique(block):
            here = block == k
            found[here] = getattr(self.blocks[k], part)[rows[here] - self.starts[k]]
        return found

    def ids(self, rows: npt.NDArray[np.intp]) -> npt.NDArray[np.int64]:
        """These rows' passage ids."""
        return self._gather(rows, "ids", np.empty(len(rows), np.int64))

    def vectors(self, rows: npt.NDArray[np.intp], dim: int) -> Vectors:
        """These rows' vectors, as float32."""
        return self._gather(rows, "vectors", np.empty((len(rows), dim), np.float32))

    def approximate(self, query: Vectors) -> npt.NDArray[np.float64]:
        """Every row's similarity to ``query``, block by block in float16."""
        half = query.astype(_HALF)[None, :]
        parts = [
            np.asarray(numkong.cdist(half, b.vectors, metric="dot")).ravel() for b in self.blocks
        ]
        return np.concatenate(parts) if parts else np.zeros(0)

    def of_files(self, file_ids: frozenset[str]) -> npt.NDArray[np.intp]:
        """The rows of passages of these files."""
        keys = np.fromiter((file_key(f) for f in file_ids), np.int64, len(file_ids))
        kept = [np.zeros(0, np.bool_), *(np.isin(b.files, keys) for b in self.blocks)]
        return np.flatnonzero(np.concatenate(kept))

    def appended(self, rows: Sequence[VectorRow], dim: int, folder: Path) -> _Matrix:
        """With these rows (of passages not held): the last block filled first, then new
        blocks."""
        if not rows:
            return self
        blocks = list(self.blocks)
        ids = np.fromiter((r[0] for r in rows), np.int64, len(rows))
        files = np.fromiter((file_key(r[1]) for r in rows), np.int64, len(rows))
        added = np.frombuffer(b"".join(r[2] for r in rows), _HALF).reshape(len(rows), dim)
        if blocks and len(blocks[-1]) < BLOCK_ROWS:
            last = blocks.pop()
            ids = np.concatenate([last.ids, ids])
            files = np.concatenate([last.files, files])
            added = np.concatenate([last.vectors, added])
        for at in range(0, len(ids), BLOCK_ROWS):
            part = slice(at, at + BLOCK_ROWS)
            blocks.append(Block.write(folder, ids[part], files[part], added[part]))
        return _Matrix.of(blocks, self.removed_at)

    def without(
        self, kept: npt.NDArray[np.int64], keys: npt.NDArray[np.int64], folder: Path
    ) -> _Matrix:
        """Only the rows whose id is in ``kept`` with the file key at its place in
        ``keys``; the blocks that lose one are written anew."""
        order = np.argsort(kept, kind="stable")
        kept, keys = kept[order], keys[order]
        blocks = []
        for block in self.blocks:
            at = np.minimum(np.searchsorted(kept, block.ids), len(kept) - 1)
            keep = np.zeros(len(block), np.bool_)
            if len(kept):
                keep = (kept[at] == block.ids) & (keys[at] == block.files)
            if keep.all():
                blocks.append(block)
            elif keep.any():
                blocks.append(
                    Block.write(folder, block.ids[keep], block.files[keep], block.vectors[keep])
                )
        return _Matrix.of(blocks, self.removed_at)


def _largest(values: npt.NDArray[np.float64], k: int) -> npt.NDArray[np.intp]:
    """The places of the ``k`` largest ``values`` (any order). Only the values at or above
    the ``k``-th largest of every :data:`SAMPLE_EVERY`-th are partitioned: at least ``k``
    values reach it (those of the sample), so the ``k`` largest are all among them; a
    partition of all of a million took 20 to 25 ms a question."""
    if len(values) <= k:
        return np.arange(len(values), dtype=np.intp)
    sample = values[::SAMPLE_EVERY]
    places = np.arange(len(values), dtype=np.intp)
    if len(sample) > k:
        bound = np.partition(sample, len(sample) - k)[len(sample) - k]
        places = np.flatnonzero(values >= bound)
    return places[np.argpartition(-values[places], k - 1)[:k]]


@dataclass(frozen=True, slots=True)
class Similarities:
    """Every passage of a workspace with vectors, and its similarity to a question:
    approximate for all (to choose), exact for those :meth:`best` returns and :meth:`of`
    is asked about."""

    matrix: _Matrix
    query: Vectors
    approximate: npt.NDArray[np.float64]

    def _exact(self, rows: npt.NDArray[np.intp]) -> npt.NDArray[np.float32]:
        if not len(rows):  # nothing held, or nothing of the files asked for
            return np.zeros(0, np.float32)
        return self.matrix.vectors(rows, len(self.query)) @ self.query

    def of(self, pids: Sequence[int]) -> dict[int, float]:
        """The similarity of each passage of ``pids`` that has a vector."""
        held, rows = self.matrix.rows(pids)
        return dict(zip(held.tolist(), self._exact(rows).tolist(), strict=True))

    def best(self, limit: int, *, file_ids: frozenset[str] | None) -> list[int]:
        """The ids of the ``limit`` most similar passages (of ``file_ids`` when given)."""
        matrix = self.matrix
        if file_ids is None:
            candidates = _largest(self.approximate, limit * MARGIN)
        else:
            rows = matrix.of_files(file_ids)
            candidates = rows[_largest(self.approximate[rows], limit * MARGIN)]
        cosine = self._exact(candidates)
        ids = matrix.ids(candidates)
        order = np.lexsort((ids, -cosine))[:limit]
        return [int(i) for i in ids[order]]


class DenseIndex:
    """The passage vectors of the workspaces, in files under ``folder``, and the
    questions' similarity to them."""

    vector_column = False

    def __init__(self, embedder: Embedder, folder: Path) -> None:
        self.embedder = embedder
        self.folder = folder
        self._matrices: OrderedDict[tuple[str, str], _Matrix] = OrderedDict()
        self._lock = threading.Lock()
        self._refreshing = threading.Lock()

    def nearest(
        self,
        conn: sa.Connection,
        *,
        where: Workspace,
        question: str,
        scope: Scope,
        limit: int,
        also: Sequence[int],
        terms: Sequence[str] = (),
    ) -> Nearest:
        """The ``limit`` passages of ``scope`` most similar to ``question``, and the
        similarity of those and of the passages ``also`` (not the passages: ``terms``
        unused)."""
        sims = self.similarities(conn, org_id=where[0], workspace_id=where[1], question=question)
        best = sims.best(limit, file_ids=scope.file_ids)
        return Nearest(best, sims.of(list(dict.fromkeys((*best, *also)))))

    def columns(self, blobs: Sequence[bytes]) -> list[str] | None:
        """None: the vectors live in the ``vector`` column only."""
        return None

    def release_unused(self, conn: sa.Connection) -> int:
        """Empty the files of each workspace and model that has no vectors left (a
        workspace deleted, another model chosen): no question would ever refresh them.
        How many were emptied."""
        emptied = 0
        for files in WorkspaceFiles.under(self.folder):
            if vector_stamp(conn, **files.what)[0] == 0:
                with files.locked(exclusive=True):
                    files.publish(())
                emptied += 1
        return emptied

    def similarities(
        self, conn: sa.Connection, *, org_id: str, workspace_id: str, question: str
    ) -> Similarities:
        """The similarity of ``question`` to each passage of the workspace."""
        matrix = self._matrix(conn, org_id, workspace_id)
        query = self.embedder.embed([question])[0]
        return Similarities(matrix, query, matrix.approximate(query))

    def _matrix(self, conn: sa.Connection, org_id: str, workspace_id: str) -> _Matrix:
        model, key = self.embedder.name, (org_id, workspace_id)
        stamp = vector_stamp(conn, org_id=org_id, workspace_id=workspace_id, model=model)
        with self._lock:
            held = self._matrices.get(key)
            if held is not None and held.stamp == stamp:
                self._matrices.move_to_end(key)
                return held
        with self._refreshing:  # one refresh at a time in a process, the lock across them
            with self._lock:
                held = self._matrices.get(key, held)
            files = WorkspaceFiles(self.folder, org_id, workspace_id, model)
            known = {b.name: b for b in held.blocks} if held is not None else {}
            with files.locked(exclusive=False):  # what another process may have written
                matrix = _Matrix.read(files, known)
            if matrix.stamp != stamp:
                with files.locked(exclusive=True):
                    matrix = _Matrix.read(files, known)
                    refreshed = self._refreshed(conn, matrix, files, stamp)
                    if refreshed is not matrix:
                        files.publish(refreshed.blocks, refreshed.removed_at)
                    matrix = refreshed
            with self._lock:
                self._matrices[key] = matrix
                self._matrices.move_to_end(key)
                while len(self._matrices) > MAX_WORKSPACES:
                    self._matrices.popitem(last=False)
        return matrix

    def _refreshed(
        self,
        conn: sa.Connection,
        matrix: _Matrix,
        files: WorkspaceFiles,
        stamp: Stamp,
    ) -> _Matrix:
        """``matrix`` brought up to the database: the vectors after its largest id; then,
        if the stamp says more changed (a vector removed since it was read, stored below
        that id), by the ids and their files: on SQLite an id freed by a delete is given
        to the next passage, and a row held may be another passage's now."""
        where, dim, folder = files.what, self.embedder.dim, files.folder
        removed = len(matrix) > 0 and matrix.removed_at != stamp[3]
        while rows := workspace_vectors(conn, **where, after=matrix.stamp[1], limit=BLOCK_ROWS):
            matrix = matrix.appended(rows, dim, folder)
        if matrix.stamp[:3] != stamp[:3] or removed:
            owners = vector_owners(conn, **where)
            now = np.fromiter((pid for pid, _ in owners), np.int64, len(owners))
            known: dict[str, int] = {}  # a file's key computed once, not once a passage
            keys = np.fromiter(
                (known.get(f) or known.setdefault(f, file_key(f)) for _, f in owners),
                np.int64,
                len(owners),
            )
            matrix = matrix.without(now, keys, folder)
            held = np.concatenate([b.ids for b in matrix.blocks]) if matrix.blocks else now[:0]
            missing = np.setdiff1d(now, held).tolist()
            matrix = matrix.appended(vectors_of(conn, missing, model=where["model"]), dim, folder)
        return replace(matrix, removed_at=stamp[3])
