"""Full text on SQLite: FTS5, one external-content index table per workspace.

Each workspace has its own index (:mod:`chatspace.service.store.passages`), so bm25's
term statistics come from its own passages only. The terms are each quoted (so FTS5
syntax in user text, like ``NEAR(`` or ``col:``, is plain words) and joined with ``OR``
(or, in a large workspace, only some of them: :func:`~.search.searched_terms`);
candidates come ranked by bm25, and ``highlight()`` marks the tokens that matched, which
become a passage's ``hits``. Stems come from the index's own tokenizer (:mod:`.stems`).
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import sqlalchemy as sa

from chatspace.service.store.passages import index_exists, index_table

from .locations import marks_from_json
from .search import Passage, Searched
from .stems import stems_of

if TYPE_CHECKING:
    from .index import Hit, Workspace
    from .scope import Scope

__all__ = ["Fts5Text", "build_query", "marked_spans"]

_MARK_OPEN, _MARK_CLOSE = "\x02", "\x03"

# {index} is the workspace's own index table (hex name from ``index_table``).
_SEARCH = """
SELECT p.id, p.file_id, f.filename, p.ord, p.start, bm25({index}) AS score,
       highlight({index}, 0, char(2), char(3)) AS marked, p.locations
FROM {index}
JOIN passages AS p ON p.id = {index}.rowid
JOIN files AS f ON f.id = p.file_id
WHERE {index} MATCH :query
  AND (f.expires_at IS NULL OR f.expires_at > :now)
  {only_files}
ORDER BY score, p.file_id, p.ord
LIMIT :top_k
"""
_BEST_FIRST = """
WITH m AS MATERIALIZED (
  SELECT rowid AS id, rank AS score, highlight({index}, 0, char(2), char(3)) AS marked
  FROM {index} WHERE {index} MATCH :query ORDER BY rank LIMIT :pool
)
SELECT p.id, p.file_id, f.filename, p.ord, p.start, m.score, m.marked, p.locations,
       (SELECT count(*) FROM m), (SELECT max(score) FROM m)
FROM m
JOIN passages AS p ON p.id = m.id
JOIN files AS f ON f.id = p.file_id
WHERE f.expires_at IS NULL OR f.expires_at > :now
ORDER BY m.score, p.file_id, p.ord
LIMIT :top_k
"""
POOL_FACTOR = 2
"""Without a filter of files, FTS5 ranks its best ``POOL_FACTOR`` x ``limit`` matches
alone (its own top-k: a million passages' matches are not joined and sorted whole); the
answer is :data:`_SEARCH`'s whenever every match left out ranks strictly below the
last one kept, and :data:`_SEARCH` answers otherwise (ties at the edge, expired files)."""
_TERM_COUNT = 'SELECT count(*) FROM "{index}" WHERE "{index}" MATCH :term'
_PASSAGE_COUNT = 'SELECT count(*) FROM "{index}_docsize"'

_BY_ID = """
SELECT p.id, p.file_id, f.filename, p.ord, p.start, p.text, p.locations
FROM passages AS p JOIN files AS f ON f.id = p.file_id
WHERE p.id IN (SELECT value FROM json_each(:ids))
  AND (f.expires_at IS NULL OR f.expires_at > :now)
"""
_HIGHLIGHT = (
    'SELECT rowid, highlight("{index}", 0, char(2), char(3)) FROM "{index}" '
    'WHERE "{index}" MATCH :query AND rowid IN (SELECT value FROM json_each(:ids))'
)


def _best_first(
    conn: sa.Connection, index: str, params: dict[str, object], limit: int
) -> Sequence[Sequence[Any]] | None:
    """The rows of :data:`_SEARCH` (and two more columns) from FTS5's best
    :data:`POOL_FACTOR` x ``limit`` matches alone; None when they may not be its rows:
    none left (no match, or every one the pool held expired), too few, or a match left
    out that could tie the last one kept."""
    pool = POOL_FACTOR * limit
    found = conn.execute(sa.text(_BEST_FIRST.format(index=index)), {**params, "pool": pool}).all()
    if not found:
        return None
    pooled, worst = found[0][8], found[0][9]
    if pooled == pool and (len(found) < limit or found[-1][5] >= worst):
        return None
    return found


def build_query(terms: Sequence[str], searched: Searched | None = None) -> str:
    """An FTS5 MATCH expression: each term a quoted string, any of them may match; with
    ``searched``, any of its ``alone`` or all of its ``together`` (bm25 and
    ``highlight()`` then weigh and mark only the terms searched)."""
    if searched is None:
        return " OR ".join(_phrase(t) for t in terms)
    anyone = [_phrase(t) for t in searched.alone]
    if searched.together:
        anyone.append("(" + " AND ".join(_phrase(t) for t in searched.together) + ")")
    return " OR ".join(anyone)


def _phrase(term: str) -> str:
    return '"' + term.replace('"', '""') + '"'


def marked_spans(marked: str) -> tuple[str, tuple[tuple[int, int], ...]]:
    """``highlight()``'s output without its markers (``\\x02`` opens, ``\\x03``
    closes), and the marked spans: a passage's ``hits``."""
    text: list[str] = []
    spans: list[tuple[int, int]] = []
    pos = 0
    opened = 0
    for piece in re.split(f"([{_MARK_OPEN}{_MARK_CLOSE}])", marked):
        if piece == _MARK_OPEN:
            opened = pos
        elif piece == _MARK_CLOSE:
            spans.append((opened, pos))
        else:
            text.append(piece)
            pos += len(piece)
    return "".join(text), tuple(spans)


class Fts5Text:
    """The full-text side on SQLite (see the module's docstring)."""

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
        """The ``limit`` best passages for ``terms`` (:func:`build_query`), by FTS5's
        bm25 (which has its own idf: ``weights`` are not needed). Those found by some of
        the terms (``searched``) are then marked by all of them."""
        index = index_table(*where)
        if not terms or not index_exists(conn, index):
            return []
        query = build_query(terms, searched)
        params: dict[str, object] = {"query": query, "now": int(time.time())}
        params["top_k"] = limit
        only_files = ""
        found: Sequence[Sequence[Any]] | None = None
        if scope.file_ids is not None:
            # one JSON array parameter, however many files a filter part leaves
            only_files = "AND p.file_id IN (SELECT value FROM json_each(:file_ids))"
            params["file_ids"] = json.dumps(sorted(scope.file_ids))
        else:
            found = _best_first(conn, index, params, limit)
        if found is None:
            found = conn.execute(
                sa.text(_SEARCH.format(index=index, only_files=only_files)), params
            ).all()
        rows: list[Hit] = []
        for pid, file_id, filename, ord_, start, score, marked, locations, *_ in found:
            text, hits = marked_spans(marked)
            marks = marks_from_json(locations)
            passage = Passage(
                file_id, filename, ord_, start, text, float(score), hits, locations=marks
            )
            rows.append((pid, passage))
        if searched is None:
            return rows
        marked = _marked(conn, index, terms, [pid for pid, _ in rows])
        return [(pid, replace(p, hits=marked_spans(marked[pid])[1])) for pid, p in rows]

    def by_id(
        self, conn: sa.Connection, *, where: Workspace, terms: Sequence[str], ids: Sequence[int]
    ) -> list[Hit]:
        if not ids:
            return []
        index = index_table(*where)
        params = {"ids": json.dumps(list(ids)), "now": int(time.time())}
        found = {row[0]: row for row in conn.execute(sa.text(_BY_ID), params)}
        marked: dict[int, str] = {}
        if terms and index_exists(conn, index):
            marked = _marked(conn, index, terms, ids)
        rows: list[Hit] = []
        for pid in ids:
            if pid in found:
                _, file_id, filename, ord_, start, text, locations = found[pid]
                hits: tuple[tuple[int, int], ...] = ()
                if pid in marked:
                    text, hits = marked_spans(marked[pid])
                marks = marks_from_json(locations)
                passage = Passage(file_id, filename, ord_, start, text, 0.0, hits, locations=marks)
                rows.append((pid, passage))
        return rows

    def counts(
        self, conn: sa.Connection, *, where: Workspace, terms: Sequence[str]
    ) -> tuple[int, list[int]]:
        index = index_table(*where)
        if not index_exists(conn, index):
            return 0, [0] * len(terms)
        n = int(conn.exec_driver_sql(_PASSAGE_COUNT.format(index=index)).scalar_one())
        statement = sa.text(_TERM_COUNT.format(index=index))
        return n, [
            int(conn.execute(statement, {"term": _phrase(term)}).scalar_one()) for term in terms
        ]

    def stems(self, conn: sa.Connection, words: Sequence[str]) -> dict[str, tuple[str, ...]]:
        return stems_of(conn, words)


def _marked(
    conn: sa.Connection, index: str, terms: Sequence[str], ids: Sequence[int]
) -> dict[int, str]:
    """The passages ``ids`` of ``index`` that match any of ``terms``, as ``highlight()``
    marks those terms in them (looked up by rowid: the common terms' matches are not
    read whole)."""
    query = {"query": build_query(terms), "ids": json.dumps(list(ids))}
    statement = sa.text(_HIGHLIGHT.format(index=index))
    return {int(pid): text for pid, text in conn.execute(statement, query)}
