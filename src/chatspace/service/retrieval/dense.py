"""Dense similarity: a workspace's passage vectors held in memory, compared in blocks.

Searching by similarity compares the question's vector with every passage vector of the
workspace. Reading them from the database for each question would cost more than the
comparison, so each process keeps the matrices of the workspaces it searched last
(:data:`MAX_WORKSPACES`), and checks with one indexed ``count``/``max``/``sum`` query
(:func:`~chatspace.service.store.passages.vector_stamp`) that nothing was added or removed
since. Several processes on one database each keep their own copy; none serves a stale one.

A matrix holds what is stored: float16, 512 bytes a passage (with its id, its file as a
number, its place in id order: 528), in blocks of :data:`BLOCK_ROWS` rows. numpy has no
fast float16 arithmetic, so ``numkong``'s SIMD kernels compare the question (as float16)
with each block; the passages those approximate similarities put first (:data:`MARGIN`
times as many as asked), and those asked about, are then scored exactly in float32 as
before: the same ranking. When the stamp changes, only what changed is read: the vectors
after the largest id held, and where that does not account for the change (passages
removed, a vector stored below that id), the ids alone, then the vectors missing; a block
that loses rows is rewritten, the others are kept.

This is the dense side of SQLite's index, and of PostgreSQL's where the database has no
pgvector (:mod:`.index`).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numkong
import numpy as np
import numpy.typing as npt
import sqlalchemy as sa

from chatspace.service.store.passages import (
    VectorRow,
    vector_ids,
    vector_stamp,
    vectors_of,
    workspace_vectors,
)

from .embeddings import Embedder, Vectors

if TYPE_CHECKING:
    from .index import Hit, Workspace
    from .scope import Scope

__all__ = ["BLOCK_ROWS", "MARGIN", "MAX_WORKSPACES", "DenseIndex", "Nearest", "Similarities"]

MAX_WORKSPACES = 32
"""Workspaces whose vectors a process keeps in memory (least recently searched go first)."""
BLOCK_ROWS = 32_768
"""Rows of a block of a matrix (16 MB): what a refresh rewrites at most besides the rows
it adds, and what one load reads at a time."""
MARGIN = 4
"""The passages compared exactly: this many times those asked for, by the approximate
similarity (float16 question: off by 1e-4 at most, far less than the gaps it skips)."""
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
    """A workspace's vectors: row ``i`` is passage ``ids[i]`` of file ``files[codes[i]]``,
    its vector row ``i - starts[k]`` of ``blocks[k]``."""

    ids: npt.NDArray[np.int64]
    codes: npt.NDArray[np.int32]
    blocks: tuple[npt.NDArray[np.float16], ...]
    files: dict[str, int]
    """Each file's code; only grows (a file removed keeps its code, unused)."""
    by_id: npt.NDArray[np.int32]
    """The rows in id order (for :meth:`row`)."""

    @property
    def stamp(self) -> tuple[int, int, int]:
        """What :func:`vector_stamp` says of the database this matrix holds."""
        if not len(self.ids):
            return 0, 0, 0
        return len(self.ids), int(self.ids.max()), int(self.ids.sum())

    def rows(self, pids: Sequence[int]) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.intp]]:
        """The passages of ``pids`` held here, and their rows: one search for all (numpy
        checks a ``sorter`` whole on each call, a million rows for every passage asked)."""
        asked = np.fromiter(pids, np.int64, len(pids))
        if not len(self.ids) or not len(asked):
            return asked[:0], np.zeros(0, np.intp)
        at = np.minimum(np.searchsorted(self.ids, asked, sorter=self.by_id), len(self.ids) - 1)
        rows = self.by_id[at].astype(np.intp)
        held = self.ids[rows] == asked
        return asked[held], rows[held]

    def vectors(self, rows: npt.NDArray[np.intp]) -> Vectors:
        """These rows' vectors, as float32."""
        starts = np.cumsum([0, *(len(b) for b in self.blocks)])
        block = np.searchsorted(starts, rows, side="right") - 1
        found = np.empty((len(rows), self.blocks[0].shape[1]), np.float32)
        for k in np.unique(block):
            here = block == k
            found[here] = self.blocks[k][rows[here] - starts[k]]
        return found

    def approximate(self, query: Vectors) -> npt.NDArray[np.float64]:
        """Every row's similarity to ``query``, block by block in float16."""
        half = query.astype(_HALF)[None, :]
        parts = [np.asarray(numkong.cdist(half, b, metric="dot")).ravel() for b in self.blocks]
        return np.concatenate(parts) if parts else np.zeros(0)

    def appended(self, rows: Sequence[VectorRow], dim: int) -> _Matrix:
        """With these rows (of passages not held) after the others."""
        if not rows:
            return self
        for _, file_id, _ in rows:
            self.files.setdefault(file_id, len(self.files))
        added = np.frombuffer(b"".join(v for _, _, v in rows), _HALF).reshape(len(rows), dim)
        blocks = list(self.blocks)
        if blocks and len(blocks[-1]) < BLOCK_ROWS:  # fill the last block first
            added = np.concatenate([blocks.pop(), added])
        blocks += [added[at : at + BLOCK_ROWS].copy() for at in range(0, len(added), BLOCK_ROWS)]
        ids = np.concatenate([self.ids, np.fromiter((r[0] for r in rows), np.int64, len(rows))])
        codes = np.fromiter((self.files[r[1]] for r in rows), np.int32, len(rows))
        return _Matrix(
            ids,
            np.concatenate([self.codes, codes]),
            tuple(blocks),
            self.files,
            np.argsort(ids, kind="stable").astype(np.int32),
        )

    def without(self, gone: npt.NDArray[np.bool_]) -> _Matrix:
        """Without the rows ``gone``; only the blocks that held one are rewritten."""
        if not gone.any():
            return self
        blocks, at = [], 0
        for block in self.blocks:
            lost = gone[at : at + len(block)]
            kept = block if not lost.any() else block[~lost]
            if len(kept):
                blocks.append(kept)
            at += len(block)
        ids = self.ids[~gone]
        return _Matrix(
            ids,
            self.codes[~gone],
            tuple(blocks),
            self.files,
            np.argsort(ids, kind="stable").astype(np.int32),
        )


_EMPTY_IDS = np.zeros(0, np.int64)


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
        return self.matrix.vectors(rows) @ self.query

    def of(self, pids: Sequence[int]) -> dict[int, float]:
        """The similarity of each passage of ``pids`` that has a vector."""
        held, rows = self.matrix.rows(pids)
        return dict(zip(held.tolist(), self._exact(rows).tolist(), strict=True))

    def best(self, limit: int, *, file_ids: frozenset[str] | None) -> list[int]:
        """The ids of the ``limit`` most similar passages (of ``file_ids`` when given)."""
        matrix = self.matrix
        candidates = np.arange(len(matrix.ids))
        if file_ids is not None:
            codes = [c for f in file_ids if (c := matrix.files.get(f)) is not None]
            candidates = candidates[np.isin(matrix.codes, codes)]
        if len(candidates) > limit * MARGIN:
            part = np.argpartition(-self.approximate[candidates], limit * MARGIN - 1)
            candidates = candidates[part[: limit * MARGIN]]
        cosine = self._exact(candidates)
        order = np.lexsort((matrix.ids[candidates], -cosine))[:limit]
        return [int(i) for i in matrix.ids[candidates[order]]]


class DenseIndex:
    """The passage vectors of recently searched workspaces, and the questions' similarity
    to them."""

    vector_column = False

    def __init__(self, embedder: Embedder) -> None:
        self.embedder = embedder
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
        with self._refreshing:  # one refresh at a time: the files' codes are shared
            with self._lock:
                held = self._matrices.get(key, held)
            matrix = self._refreshed(conn, held, org_id, workspace_id, stamp)
            with self._lock:
                self._matrices[key] = matrix
                self._matrices.move_to_end(key)
                while len(self._matrices) > MAX_WORKSPACES:
                    self._matrices.popitem(last=False)
        return matrix

    def _refreshed(
        self,
        conn: sa.Connection,
        held: _Matrix | None,
        org_id: str,
        workspace_id: str,
        stamp: tuple[int, int, int],
    ) -> _Matrix:
        """``held`` (None: an empty one) brought up to the database: the vectors after its
        largest id; then, if the stamp says more changed, by the ids."""
        where = {"org_id": org_id, "workspace_id": workspace_id, "model": self.embedder.name}
        dim = self.embedder.dim
        matrix = held or _Matrix(_EMPTY_IDS, np.zeros(0, np.int32), (), {}, np.zeros(0, np.int32))
        if matrix.stamp == stamp:
            return matrix
        while rows := workspace_vectors(conn, **where, after=matrix.stamp[1], limit=BLOCK_ROWS):
            matrix = matrix.appended(rows, dim)
        if matrix.stamp != stamp:  # passages removed, or vectors stored below the largest id
            now = np.array(vector_ids(conn, **where), np.int64)
            matrix = matrix.without(~np.isin(matrix.ids, now))
            missing = np.setdiff1d(now, matrix.ids)
            matrix = matrix.appended(vectors_of(conn, missing.tolist(), model=where["model"]), dim)
        return matrix
