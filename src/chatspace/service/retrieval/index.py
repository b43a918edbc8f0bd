"""What retrieval asks of a database engine: one interface, one implementation per engine.

:mod:`.search` holds everything that does not depend on the engine (the query, relevance,
the names rule, the ranking); an engine only answers the questions below about one
workspace's passages. Both halves are chosen once, when the service starts
(:func:`open_index`, by the database's dialect):

- the **full text** (:class:`FullText`): SQLite's FTS5, one index table per workspace
  (:mod:`.sqlite_index`), or PostgreSQL's ``tsvector`` column and GIN index
  (:mod:`.postgres_index`);
- the **dense** side (:class:`Dense`): pgvector's HNSW index where the database has the
  extension (:class:`~.postgres_index.PgVectors`), else the vectors of the workspace held
  in memory (:class:`~.dense.DenseIndex`, SQLite's, and PostgreSQL's fallback).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

import sqlalchemy as sa

from chatspace.service.store.dialects import is_postgres

from .dense import DenseIndex, Nearest
from .dense_files import files_beside
from .embeddings import Embedder
from .postgres_index import PgVectors, PostgresText, has_vector_column
from .search import Passage, Searched
from .sqlite_index import Fts5Text

if TYPE_CHECKING:
    from .scope import Scope

__all__ = ["Dense", "FullText", "Hit", "Nearest", "PassageIndex", "Workspace", "open_index"]

log = logging.getLogger("chatspace.service")

Hit = tuple[int, Passage]
"""A passage found, with its id (its ``score``: lower is better; 0 when found by meaning)."""
Workspace = tuple[str, str]
"""``(org_id, workspace_id)``."""


class FullText(Protocol):
    """The full-text side of the workspaces' passages."""

    def candidates(
        self,
        conn: sa.Connection,
        *,
        where: Workspace,
        terms: Sequence[str],
        weights: Sequence[float] | None,
        scope: Scope,
        limit: int,
        searched: Searched | None = None,
    ) -> list[Hit]:
        """The ``limit`` best passages of files not expired matching any of ``terms``, or
        only as ``searched`` says (:func:`~.search.searched_terms`), ranked and marked
        (``hits``) by every term. ``weights`` (each term's weight x idf, or None) are a
        hint an engine without its own term statistics ranks by."""
        ...

    def by_id(
        self, conn: sa.Connection, *, where: Workspace, terms: Sequence[str], ids: Sequence[int]
    ) -> list[Hit]:
        """The passages ``ids`` (in that order) of files not expired, with the spans where
        they match any of ``terms``."""
        ...

    def counts(
        self, conn: sa.Connection, *, where: Workspace, terms: Sequence[str]
    ) -> tuple[int, list[int]]:
        """How many passages the workspace has indexed, and how many match each term."""
        ...

    def stems(self, conn: sa.Connection, words: Sequence[str]) -> dict[str, tuple[str, ...]]:
        """Each word's tokens as the index stores them (``()`` for a word it drops)."""
        ...


class Dense(Protocol):
    """The dense side: passage vectors and a question's nearest passages."""

    embedder: Embedder
    vector_column: bool
    """Whether the engine keeps the vectors in a column of its own besides the bytes."""

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
        similarity of those and of the passages ``also``; an engine that reads the
        passages with them gives those not ``also`` too, their ``hits`` of ``terms``
        marked (:attr:`Nearest.passages`)."""
        ...

    def columns(self, blobs: Sequence[bytes]) -> list[str] | None:
        """The stored vectors as the engine's vector column takes them (None: the bytes
        of the ``vector`` column are all there is)."""
        ...


@dataclass(frozen=True, slots=True)
class PassageIndex:
    """The full-text and dense sides of one database (``dense`` None: full text only)."""

    text: FullText
    dense: Dense | None


def open_index(
    engine: sa.Engine, embedder: Embedder | None, folder: Path | None = None
) -> PassageIndex:
    """The implementations for ``engine``'s dialect (with ``embedder``: hybrid). The
    vectors of a SQLite database are compared in files beside it (:func:`files_beside`),
    those of a PostgreSQL database without pgvector in files under ``folder``."""
    if not is_postgres(engine):
        dense = DenseIndex(embedder, files_beside(engine)) if embedder else None
        return PassageIndex(Fts5Text(), dense)
    if embedder is None:
        return PassageIndex(PostgresText(), None)
    with engine.connect() as conn:
        pgvector = has_vector_column(conn)
    if not pgvector:
        log.warning(
            "pgvector is not installed in this database (CREATE EXTENSION vector needs a "
            "superuser): passage vectors are compared in memory, workspace by workspace"
        )
        if folder is None:
            raise ValueError(
                "a PostgreSQL database without pgvector needs a folder for its vectors"
            )
        return PassageIndex(PostgresText(), DenseIndex(embedder, folder))
    text = PostgresText()
    return PassageIndex(text, PgVectors(embedder, text))
