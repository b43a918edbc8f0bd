"""Dense similarity: a workspace's passage vectors held in memory, compared in one product.

Searching by similarity compares the question's vector with every passage vector of the
workspace; at 256 float32 numbers a passage, 100,000 passages are 100 MB read and one
matrix product of a few milliseconds. Reading them from the database for each question
would cost more than the product, so each process keeps the matrices of the workspaces
it searched last (:data:`MAX_WORKSPACES`), checks with one indexed ``count``/``max`` query
(:func:`~chatspace.service.store.passages.vector_stamp`) that nothing was added or removed
since, and reloads otherwise. Several processes on one database each keep their own copy;
none can serve a stale one.

This is the dense side of SQLite's index, and of PostgreSQL's where the database has no
pgvector (:mod:`.index`).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt
import sqlalchemy as sa

from chatspace.service.store.passages import vector_stamp, workspace_vectors

from .embeddings import Embedder, Vectors, from_blobs

if TYPE_CHECKING:
    from .index import Hit, Workspace
    from .scope import Scope

__all__ = ["MAX_WORKSPACES", "DenseIndex", "Nearest", "Similarities"]

MAX_WORKSPACES = 32
"""Workspaces whose vectors a process keeps in memory (least recently searched go first)."""


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
class Similarities:
    """Every passage of a workspace with vectors, and its cosine similarity to a question
    (``ids`` ascending, so :meth:`of` finds a passage by binary search)."""

    ids: npt.NDArray[np.int64]
    file_ids: npt.NDArray[np.str_]
    cosine: npt.NDArray[np.float32]

    def of(self, pid: int) -> float | None:
        """The similarity of passage ``pid``; None when it has no vector."""
        at = int(np.searchsorted(self.ids, pid))
        if at < len(self.ids) and self.ids[at] == pid:
            return float(self.cosine[at])
        return None

    def best(self, limit: int, *, file_ids: frozenset[str] | None) -> list[int]:
        """The ids of the ``limit`` most similar passages (of ``file_ids`` when given)."""
        candidates = np.arange(len(self.ids))
        if file_ids is not None:
            candidates = candidates[np.isin(self.file_ids, list(file_ids))]
        if len(candidates) > limit:
            part = np.argpartition(-self.cosine[candidates], limit - 1)[:limit]
            candidates = candidates[part]
        order = candidates[np.lexsort((self.ids[candidates], -self.cosine[candidates]))]
        return [int(i) for i in self.ids[order]]


@dataclass(frozen=True, slots=True)
class _Matrix:
    stamp: tuple[int, int]
    ids: npt.NDArray[np.int64]
    file_ids: npt.NDArray[np.str_]
    vectors: Vectors


class DenseIndex:
    """The passage vectors of recently searched workspaces, and the questions' similarity
    to them."""

    vector_column = False

    def __init__(self, embedder: Embedder) -> None:
        self.embedder = embedder
        self._matrices: OrderedDict[tuple[str, str], _Matrix] = OrderedDict()
        self._lock = threading.Lock()

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
        cosine = {pid: c for pid in (*best, *also) if (c := sims.of(pid)) is not None}
        return Nearest(best, cosine)

    def columns(self, blobs: Sequence[bytes]) -> list[str] | None:
        """None: the vectors live in the ``vector`` column only."""
        return None

    def similarities(
        self, conn: sa.Connection, *, org_id: str, workspace_id: str, question: str
    ) -> Similarities:
        """The similarity of ``question`` to each passage of the workspace."""
        matrix = self._matrix(conn, org_id, workspace_id)
        query = self.embedder.embed([question])[0]
        return Similarities(matrix.ids, matrix.file_ids, matrix.vectors @ query)

    def _matrix(self, conn: sa.Connection, org_id: str, workspace_id: str) -> _Matrix:
        model, key = self.embedder.name, (org_id, workspace_id)
        stamp = vector_stamp(conn, org_id=org_id, workspace_id=workspace_id, model=model)
        with self._lock:
            held = self._matrices.get(key)
            if held is not None and held.stamp == stamp:
                self._matrices.move_to_end(key)
                return held
        rows = workspace_vectors(conn, org_id=org_id, workspace_id=workspace_id, model=model)
        matrix = _Matrix(
            stamp,
            np.array([pid for pid, _, _ in rows], np.int64),
            np.array([file_id for _, file_id, _ in rows], np.str_),
            from_blobs([vector for _, _, vector in rows], self.embedder.dim),
        )
        with self._lock:
            self._matrices[key] = matrix
            self._matrices.move_to_end(key)
            while len(self._matrices) > MAX_WORKSPACES:
                self._matrices.popitem(last=False)
        return matrix
