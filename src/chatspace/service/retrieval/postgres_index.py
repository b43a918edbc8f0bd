"""Retrieval on PostgreSQL: a ``tsvector`` column with a GIN index, and pgvector's HNSW.

**Full text** (:class:`PostgresText`). Migration ``m006_postgres_search`` gives
``passages`` a generated column, ``search_vector = to_tsvector('english',
chatspace_fold(text))``, and a GIN index on it. ``chatspace_fold`` (a SQL function of the
same migration; PostgreSQL has no ``unaccent`` here) drops the combining marks of the
decomposed text and makes ASCII punctuation a space, so that, as with SQLite's
``unicode61 remove_diacritics 2``, "café" is found by "cafe" and "8:30" is the words "8"
and "30". Each term is a ``phraseto_tsquery`` (a phrase, as FTS5's quoted strings) and
the terms are ORed. One index serves every workspace, so the idf of each term comes from
the passages of the workspace alone, whose counts the database keeps (tables ``fts_terms``
and ``fts_workspaces``, :meth:`PostgresText.counts`; the terms too common to search alone
are searched only all together, :func:`~.search.searched_terms`), and candidates
are ranked by the weight x idf of the terms they match (the coverage :mod:`.search`
computes), then ``ts_rank_cd`` over the passage's length (:data:`_RANK`, computed only
where it can change the outcome: :data:`_RANKED`; the passages found by the common
terms together read only when they can rank: :data:`_SPLIT`): the passages
matching the question's rare words come first, as with bm25. A passage's ``hits`` are
its words (runs of letters and digits) whose stems, from ``to_tsvector`` and remembered,
include a term's.

**Dense** (:class:`PgVectors`). Where ``CREATE EXTENSION vector`` succeeded, passages
also have ``embedding halfvec`` (the stored float16 vectors, at the same precision, of
any size) with an HNSW index for cosine distance per dense model (migration
``m015_vector_dimensions``: the column cast to the model's size, for the passages of
that model; the queries spell it alike, so that the planner takes it). The nearest
passages come from one query whose filter (workspace, model, files not expired, the
filter parts' files) is part of it; with ``hnsw.iterative_scan = relaxed_order`` the
index keeps scanning until the filter has left ``limit`` rows, so a filter part that
leaves few files still gets its ``top_k``. The same statement sets that scan, reads the
nearest passages whole and gives the similarity of the text candidates
(:data:`_NEAREST`): one round trip where there were four.
"""

from __future__ import annotations

import re
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
import sqlalchemy as sa

from .dense import Nearest
from .embeddings import Embedder, from_blobs
from .locations import marks_from_json
from .search import Passage, Searched
from .stems import StemCache, Stems

if TYPE_CHECKING:
    from .index import Hit, Workspace
    from .scope import Scope

__all__ = ["PgVectors", "PostgresText", "has_vector_column"]

_PASSAGE = """
SELECT p.id, p.file_id, f.filename, p.ord, p.start, p.text, p.locations
FROM passages AS p JOIN files AS f ON f.id = p.file_id
WHERE {which}
  AND (f.expires_at IS NULL OR f.expires_at > :now)
"""
_MATCHING = """
    SELECT p.id, p.file_id, p.ord, p.search_vector, {cover} AS cover
    FROM (
      SELECT p.id, p.file_id, p.ord, p.search_vector, p.search_vector || ''::tsvector AS whole
      FROM passages AS p
      WHERE p.org_id = :o AND p.workspace_id = :w AND p.search_vector @@ {either}{only_files}
        AND NOT EXISTS (
          SELECT 1 FROM files AS f
          WHERE f.org_id = :o AND f.workspace_id = :w AND f.expires_at <= :now
            AND f.id = p.file_id){gate}
      OFFSET 0
    ) AS p{unless}
"""
"""The passages of a workspace matching the terms ``either``, with their ``cover``: found
on the passages' index alone (the few expired files of the workspace looked up by
``files_expiring``, not every file joined). A long ``tsvector`` is stored out of line
(TOAST, before ``m019_search_vector_inline``): ``whole`` reads it once a row, where each
term's ``@@`` of the cover read it again (four terms: 14 buffers a row, 40% of the
statement at half a million passages)."""
_THRESHOLD = """coalesce(
        (SELECT m.cover FROM {cte} AS m ORDER BY m.cover DESC OFFSET :skip LIMIT 1),
        '-Infinity')"""
"""The ``limit``-th best cover of a CTE (``skip`` is ``limit - 1``; none: every row
counts)."""
_RANKED = """
WITH {ctes}, best AS (
    SELECT p.id, p.cover, {rank} AS rank_cd
    FROM matching AS p
    WHERE p.cover >= {threshold}
    ORDER BY p.cover DESC, rank_cd DESC, p.file_id, p.ord
    LIMIT :limit
)
SELECT p.id, p.file_id, f.filename, p.ord, p.start, p.text, p.locations, best.rank_cd
FROM best JOIN passages AS p ON p.id = best.id JOIN files AS f ON f.id = p.file_id
ORDER BY best.cover DESC, best.rank_cd DESC, p.file_id, p.ord
"""
"""The best ``limit`` passages of ``matching`` (:data:`_MATCHING`) by ``cover``, then
``ts_rank_cd``, the text and file name read for those kept only. ``ts_rank_cd`` is most
of the cost of ranking (cover density over every position of the terms), so it is
computed only for the passages whose cover reaches the ``limit``-th best: those of a
higher cover are kept whatever their rank, those of a lower one are not, so the
passages and their order are those of ranking every match (it halves the query over
10,000 files: ``benchmarks/results``, 8f)."""
_ONE = "matching AS MATERIALIZED ({matching})"
_SPLIT = """rare AS MATERIALIZED ({rare}),
common AS MATERIALIZED ({common}),
matching AS (SELECT * FROM rare UNION ALL SELECT * FROM common)"""
"""Candidates found by rare terms or by common ones all together (:class:`Searched`),
the common ones' read only when they can rank (MaxScore's bound, exact): a passage with
all of them and none of the rare terms covers exactly their weights (``common``), so
when the ``limit``-th passage of ``rare`` covers more, none of them is kept and the
``common`` scan, gated on that (a one-time filter: PostgreSQL does not start it), reads
nothing. "What does it say about convert, server and gconn?" at a million passages:
12,244 passages scored, not 26,135 (``benchmarks/results/results-scale.md``)."""
_STEMS = sa.text("""
SELECT u.word, coalesce((
    SELECT array_agg(v.lexeme ORDER BY v.positions[1], v.lexeme)
    FROM unnest(to_tsvector('english', chatspace_fold(u.word))) AS v
), '{}')
FROM unnest(CAST(:words AS text[])) AS u(word)
""")
Row = tuple[Any, ...]
"""A passage as the statements here select it: id, file id, file name, ord, start, text,
locations (JSON), and for a candidate its ``ts_rank_cd``."""
_IN_WORKSPACE = "p.org_id = :o AND p.workspace_id = :w"
_PASSAGE_COUNT = """coalesce((SELECT s.passages FROM fts_workspaces AS s
    WHERE s.org_id = :o AND s.workspace_id = :w), 0)"""
_TERM_PASSAGES = """CASE numnode({q}) WHEN 0 THEN 0
    WHEN 1 THEN coalesce((SELECT s.passages FROM fts_terms AS s
        WHERE s.org_id = :o AND s.workspace_id = :w
          AND s.term = (tsvector_to_array(to_tsvector('english', chatspace_fold(:t{i}))))[1]), 0)
    ELSE ({phrase}) END"""
"""How many passages of the workspace match a term's tsquery ``q``: none for an empty one,
the kept count of its lexeme for one lexeme, else counted (a subquery run only then)."""
_TOKEN = re.compile(r"[^\W_]+")
"""A word as FTS5's unicode61 cuts it: letters and digits (an underscore separates)."""
_RANK = "ts_rank_cd(p.search_vector, {either}, 2)"
"""How well a passage matches beyond the terms' weights (higher is better): cover density
divided by the passage's length, as bm25 weighs long passages down (on the dev split of
``benchmarks/data/retrieval``, full text only: nDCG@10 0.974 against 0.965 without the
division, SQLite's 0.974)."""


def _term_queries(terms: Sequence[str]) -> tuple[list[str], dict[str, Any]]:
    """Each term as a tsquery (an expression of constants, folded once by the planner, so
    that the GIN index serves it), and their parameters."""
    each = [f"phraseto_tsquery('english', chatspace_fold(:t{i}))" for i in range(len(terms))]
    return each, {f"t{i}": term for i, term in enumerate(terms)}


def _any(queries: Sequence[str]) -> str:
    return "(" + " || ".join(queries) + ")"


def _ranked(
    terms: Sequence[str],
    each: Sequence[str],
    weights: Sequence[float] | None,
    searched: Searched | None,
    only_files: str,
) -> tuple[str, dict[str, float]]:
    """The candidates statement (:data:`_RANKED`) for passages matching any term, or as
    ``searched`` says, ranked by ``weights`` (their cover), and its parameters beyond the
    terms': the common terms in a scan of their own where they can be (:data:`_SPLIT`)."""
    params: dict[str, float] = {}
    cover = "CAST(0 AS float8)"
    if weights is not None:
        cover = " + ".join(
            f"CASE WHEN p.whole @@ {q} THEN CAST(:c{i} AS float8) ELSE 0 END"
            for i, q in enumerate(each)
        )
        params.update({f"c{i}": float(c) for i, c in enumerate(weights)})
    query = dict(zip(terms, each, strict=True))
    alone = [query[t] for t in (terms if searched is None else searched.alone)]
    together = [] if searched is None else [query[t] for t in searched.together]
    both = "(" + " && ".join(together) + ")"

    def matching(either: str, gate: str = "", unless: str = "") -> str:
        return _MATCHING.format(
            cover=cover, either=either, only_files=only_files, gate=gate, unless=unless
        )

    if weights is None or searched is None or not alone or not together:
        ctes = _ONE.format(matching=matching(_any([*alone, both] if together else alone)))
    else:
        gate = f"\n        AND {_THRESHOLD.format(cte='rare')} <= :common_cover"
        unless = f"\n    WHERE NOT p.whole @@ {_any(alone)}"
        ctes = _SPLIT.format(rare=matching(_any(alone)), common=matching(both, gate, unless))
        shares = dict(zip(terms, weights, strict=True))
        # a margin: the database may add the same weights up to another last digit
        params["common_cover"] = sum(shares[t] for t in searched.together) + 1e-9
    rank = _RANK.format(either=_any(each))
    threshold = _THRESHOLD.format(cte="matching")
    return _RANKED.format(ctes=ctes, rank=rank, threshold=threshold), params


class PostgresText:
    """The full-text side on PostgreSQL (see the module's docstring)."""

    def __init__(self) -> None:
        self._stems = StemCache(_lookup_stems)

    def _passages(
        self, conn: sa.Connection, statement: str, terms: Sequence[str], params: dict[str, Any]
    ) -> list[Hit]:
        """The passages ``statement`` selects (with, as a last column, their
        ``ts_rank_cd``: their score is its opposite), their ``hits`` marked."""
        found = conn.execute(sa.text(statement), {**params, "now": int(time.time())})
        return self.read(conn, terms, [tuple(row) for row in found])

    def read(self, conn: sa.Connection, terms: Sequence[str], rows: Sequence[Row]) -> list[Hit]:
        """The passages of ``rows`` (:data:`Row`), where they match ``terms`` marked."""
        rows_hits = zip(rows, self._hits(conn, terms, [row[5] for row in rows]), strict=True)
        passages: list[Hit] = []
        for (pid, file_id, filename, ord_, start, text, marks, *rank_cd), hits in rows_hits:
            score = -float(rank_cd[0]) if rank_cd else 0.0
            found_at = marks_from_json(marks)
            passage = Passage(file_id, filename, ord_, start, text, score, hits, locations=found_at)
            passages.append((int(pid), passage))
        return passages

    def _hits(
        self, conn: sa.Connection, terms: Sequence[str], texts: Sequence[str]
    ) -> list[tuple[tuple[int, int], ...]]:
        """Where each text has a word whose stems (as the index stems them) include one of
        the terms': its words are cut as FTS5 cuts them (runs of letters and digits) and each
        stemmed by ``to_tsvector``, once per process (``ts_headline`` would fold every
        passage again on each search)."""
        if not terms:
            return [() for _ in texts]
        words = [[(m.start(), m.end(), m.group()) for m in _TOKEN.finditer(t)] for t in texts]
        stems = self._stems(conn, [*terms, *{w for found in words for _, _, w in found}])
        wanted = {stem for term in terms for stem in stems[term]}
        return [
            tuple((a, b) for a, b, w in found if wanted.intersection(stems[w])) for found in words
        ]

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
        """The ``limit`` passages matching the most of ``weights`` (each term's weight x
        idf in the workspace), ties (and without weights, all) by ``ts_rank_cd``, of
        those matching any term, or as ``searched`` says (:func:`_ranked`)."""
        if not terms:
            return []
        each, params = _term_queries(terms)
        params.update(o=where[0], w=where[1], limit=limit, skip=limit - 1)
        only_files = ""
        if scope.file_ids is not None:
            only_files = " AND p.file_id = ANY(CAST(:file_ids AS text[]))"
            params["file_ids"] = sorted(scope.file_ids)
        statement, more = _ranked(terms, each, weights, searched, only_files)
        return self._passages(conn, statement, terms, {**params, **more})

    def by_id(
        self, conn: sa.Connection, *, where: Workspace, terms: Sequence[str], ids: Sequence[int]
    ) -> list[Hit]:
        if not ids:
            return []
        statement = _PASSAGE.format(which="p.id = ANY(CAST(:ids AS bigint[]))")
        found = dict(self._passages(conn, statement, terms, {"ids": list(ids)}))
        return [(pid, found[pid]) for pid in ids if pid in found]

    def counts(
        self, conn: sa.Connection, *, where: Workspace, terms: Sequence[str]
    ) -> tuple[int, list[int]]:
        """The workspace's passages, and those matching each term, from the statistics the
        database keeps (``fts_terms``, ``fts_workspaces``: migration ``m013_term_stats``)
        in one query: a term of one lexeme is read there, one the index drops (a stop
        word) matches nothing, and a phrase of several ("max_query_memory") is counted."""
        each, params = _term_queries(terms)
        count = "SELECT count(*) FROM passages AS p WHERE " + _IN_WORKSPACE  # noqa: S608
        df = [
            _TERM_PASSAGES.format(q=q, i=i, phrase=f"{count} AND p.search_vector @@ {q}")
            for i, q in enumerate(each)
        ]
        statement = "SELECT " + ", ".join([_PASSAGE_COUNT, *df])
        n, *dfs = conn.execute(sa.text(statement), {**params, "o": where[0], "w": where[1]}).one()
        return int(n), [int(d) for d in dfs]

    def stems(self, conn: sa.Connection, words: Sequence[str]) -> Stems:
        return self._stems(conn, words)


def _lookup_stems(conn: sa.Connection, words: list[str]) -> Stems:
    found = conn.execute(_STEMS, {"words": words})
    return {word: tuple(lexemes) for word, lexemes in found}


# {distance}, {model}: of the model (PgVectors._sql), spelled as its partial index is
_NEAREST = """
WITH scan AS MATERIALIZED (
    SELECT set_config('hnsw.iterative_scan', 'relaxed_order', true) AS mode,
           set_config('hnsw.ef_search', :ef, true) AS ef
)
SELECT n.* FROM scan CROSS JOIN LATERAL (
    SELECT p.id, 1 - {distance} AS cosine, true AS nearest,
           p.file_id, f.filename, p.ord, p.start, p.text, p.locations
    FROM passages AS p JOIN files AS f ON f.id = p.file_id
    WHERE scan.ef = :ef
      AND p.org_id = :o AND p.workspace_id = :w AND p.vector_model = {model}
      AND p.embedding IS NOT NULL
      AND (f.expires_at IS NULL OR f.expires_at > :now){only_files}
    ORDER BY {distance}
    LIMIT :limit
) AS n
UNION ALL
SELECT p.id, 1 - {distance}, false,
       NULL, NULL, NULL, NULL, NULL, NULL
FROM passages AS p
WHERE p.id = ANY(CAST(:also AS bigint[])) AND p.vector_model = {model}
  AND p.embedding IS NOT NULL
"""
"""The ``limit`` passages nearest the vector ``q`` (read whole: those of them that are not
``also`` join the candidates) and the similarity of the passages ``also``, in one round
trip. The settings come first (the lateral scan reads ``scan``, so the executor fetches
its row before it starts the index scan): for this transaction, pgvector's HNSW scan
goes on until the filter has left ``limit`` rows."""


def _literal(vector: np.ndarray[Any, Any]) -> str:
    return "[" + ",".join(repr(float(x)) for x in vector) + "]"


class PgVectors:
    """The dense side on PostgreSQL with pgvector (see the module's docstring)."""

    vector_column = True

    def __init__(self, embedder: Embedder, text: PostgresText) -> None:
        self.embedder = embedder
        self.text = text
        self._nearest = self._sql(_NEAREST)

    def _sql(self, template: str) -> str:
        """``template`` for this model: its name a literal and the distance on the column
        cast to its size, as its partial HNSW index has them (a bound name would not
        tell the planner that the index covers the rows asked for)."""
        dim, model = self.embedder.dim, self.embedder.name.replace("'", "''")
        distance = f"(p.embedding::halfvec({dim}) <=> CAST(:q AS halfvec({dim})))"
        return template.replace("{distance}", distance).replace("{model}", f"'{model}'")

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
        """The nearest passages, the similarities, and the nearest passages not ``also``
        with their ``hits`` of ``terms`` (no second query for them)."""
        q = _literal(self.embedder.embed([question])[0])
        params: dict[str, Any] = {"o": where[0], "w": where[1]}
        params.update(q=q, limit=limit, now=int(time.time()))
        only_files = ""
        if scope.file_ids is not None:
            only_files = "\n  AND p.file_id = ANY(CAST(:file_ids AS text[]))"
            params["file_ids"] = sorted(scope.file_ids)
        params.update(ef=str(max(limit, 40)), also=list(also))
        found = conn.execute(sa.text(self._nearest.format(only_files=only_files)), params)
        cosine: dict[int, float] = {}
        rows: dict[int, Row] = {}
        for pid, similarity, is_nearest, *passage in found:
            cosine[int(pid)] = float(similarity)
            if is_nearest:
                rows[int(pid)] = (int(pid), *passage)
        best = sorted(rows, key=lambda pid: (-cosine[pid], pid))
        seen = set(also)
        extra = [rows[pid] for pid in best if pid not in seen]
        return Nearest(best, cosine, self.text.read(conn, terms, extra))

    def columns(self, blobs: Sequence[bytes]) -> list[str]:
        """The vectors as ``halfvec`` literals (from the float16 bytes: the same numbers)."""
        return [_literal(row) for row in from_blobs(blobs, self.embedder.dim)]


def has_vector_column(conn: sa.Connection) -> bool:
    """Whether ``passages`` has pgvector's ``embedding`` column (the extension could be
    created when the database was migrated)."""
    found = conn.exec_driver_sql(
        "SELECT 1 FROM information_schema.columns "
        "WHERE table_schema = current_schema() AND table_name = 'passages' "
        "AND column_name = 'embedding'"
    )
    return found.first() is not None
