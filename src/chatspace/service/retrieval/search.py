"""Finding the passages of a workspace's files that answer the user's question.

The question is the text of the last user message that has text. A follow-up ("And in
Nice?", "Who owns it?") is searched with the conversation it continues: the content words
of the previous user turns join the query at :data:`CONTEXT_WEIGHT`. The words, less
common English stop words, are each quoted (so FTS5 syntax in user text, like ``NEAR(``
or ``col:``, is plain words) and ranked in two steps:

1. **Candidates** (:func:`_pool`): FTS5's bm25 over the terms joined by ``OR``, the
   :data:`POOL` best passages. Without context this is the whole ranking of earlier
   versions, and the benchmark's "today" column.
2. **Scores and relevance** (:func:`_score`): each term's own bm25 contribution to each
   candidate (FTS5's bm25 of an ``OR`` query is exactly the sum of its terms' scores), so
   terms can be weighted, and each term's inverse document frequency in the workspace.
   A passage's *coverage* is the share of the question's weight (term weight x idf) that
   it matches; a passage is relevant when its coverage reaches the relevance threshold
   (``relevance`` of a filter part, else the service's ``relevance_threshold``, default
   :data:`DEFAULT_RELEVANCE`). Irrelevant passages are never cited: when none is left, the
   answer says that nothing in the files answers the question.

A dense (embedding) ranking would join in step 2 as one more score per candidate; the
relevance rule stays the same. Each hit also carries where its matched terms stand in
the passage (``hits``), which the local engine uses to pick the sentences it quotes.
"""

from __future__ import annotations

import json
import math
import re
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

import sqlalchemy as sa

from chatspace.service.engines.tokenizer import count_texts
from chatspace.service.store.passages import index_exists, index_table
from chatspace.types import ChatMessage

from .scope import Scope, resolve_scope

__all__ = [
    "CONTEXT_WEIGHT",
    "DEFAULT_RELEVANCE",
    "Passage",
    "Query",
    "Retrieval",
    "build_query",
    "is_follow_up",
    "query_of",
    "question_of",
    "retrieve",
    "search",
    "search_terms",
]

MAX_TERMS = 32
MAX_TERM_CHARS = 64
POOL = 50
"""Candidates scored per search (at least 4 x top_k)."""
CONTEXT_WEIGHT = 0.5
"""Weight of a term of an earlier user turn in a follow-up (the question's own: 1)."""
CONTEXT_TURNS = 2
"""How many earlier user turns a follow-up is searched with."""
DEFAULT_RELEVANCE = 0.4
"""Share of the question's idf-weighted terms a passage must match to be cited
(calibrated on the dev split of ``benchmarks/data/retrieval``; 0 cites any match)."""
_WORD = re.compile(r"\w+")
_MARK_OPEN, _MARK_CLOSE = "\x02", "\x03"
_STOP_TEXT = """a about above after again all also am an and any are as at be because been before
    being below between both but by can could did do does doing down during each few for
    from further had has have having he her here hers him his how i if in into is it its
    just me more most my no nor not now of off on once only or other our ours out over own
    please same she should so some such than that the their them then there these they
    this those through to too under until up very was we were what when where which while
    who whom why will with would you your yours tell show give find know"""
_STOP_WORDS = frozenset(_STOP_TEXT.split())
# Words that shape a question ("how many", "how much", "how often") rather than say what
# it is about: left out of the search (a file rarely says "many" where it gives a count).
_QUESTION_WORDS = frozenset({"many", "much", "often"})
# A follow-up starts with a connective, or leans on a pronoun and has few words of its own.
_CONTINUES = re.compile(r"^\W*(?:and|also|or|but|then|what about|how about|same for)\b", re.I)
_POINTS_BACK = re.compile(
    r"\b(?:it|its|they|them|their|theirs|there|this|that|these|those|he|she|his|her)\b", re.I
)
_FEW_TERMS = 3


@dataclass(frozen=True, slots=True)
class Passage:
    """A retrieved passage; ``hits`` are the spans of ``text`` that matched the query.

    ``score`` is bm25's (lower is better); ``coverage`` the share of the question's
    idf-weighted terms the passage matches (1.0 when it was not computed).
    """

    file_id: str
    filename: str
    ord: int
    start: int
    text: str
    score: float
    hits: tuple[tuple[int, int], ...] = ()
    coverage: float = 1.0


@dataclass(frozen=True, slots=True)
class Query:
    """What is searched: distinct lowercased terms and their weights, question's first."""

    terms: tuple[str, ...] = ()
    weights: tuple[float, ...] = ()
    follow_up: bool = False


@dataclass(frozen=True, slots=True)
class Retrieval:
    """What retrieval found for a request: the question and its relevant passages."""

    question: str
    terms: tuple[str, ...] = ()
    passages: tuple[Passage, ...] = field(default_factory=tuple)

    @property
    def passage_tokens(self) -> int:
        return count_texts(p.text for p in self.passages)


def _user_texts(messages: Sequence[ChatMessage]) -> list[str]:
    return [m.text() for m in messages if m.role == "user" and m.text().strip()]


def question_of(messages: Sequence[ChatMessage]) -> str:
    """The text of the last user message with text, else of the last message with text."""
    for role in ("user", None):
        for message in reversed(messages):
            text = message.text()
            if (role is None or message.role == role) and text.strip():
                return text
    return ""


def search_terms(question: str) -> tuple[str, ...]:
    """The distinct content words of ``question`` (at most :data:`MAX_TERMS`), lowercased."""
    terms: dict[str, None] = {}
    for match in _WORD.finditer(question):
        word = match.group().lower()
        if word in _STOP_WORDS or len(word) > MAX_TERM_CHARS:
            continue
        terms.setdefault(word)
        if len(terms) == MAX_TERMS:
            break
    return tuple(terms)


def is_follow_up(question: str) -> bool:
    """Whether ``question`` continues the conversation rather than standing on its own:
    it starts with a connective ("And in Nice?", "What about Q4?"), or it points back
    with a pronoun ("Who owns it?") and has at most three content words."""
    if _CONTINUES.search(question):
        return True
    return bool(_POINTS_BACK.search(question)) and len(search_terms(question)) <= _FEW_TERMS


def query_of(messages: Sequence[ChatMessage], *, context: bool = True) -> Query:
    """The terms to search for: the question's (less words like "many" that only shape
    it), and for a follow-up those of the :data:`CONTEXT_TURNS` user turns before it at
    :data:`CONTEXT_WEIGHT`."""
    question = question_of(messages)
    terms = dict.fromkeys((t for t in search_terms(question) if t not in _QUESTION_WORDS), 1.0)
    earlier = _user_texts(messages)[:-1]
    follow_up = context and bool(earlier) and is_follow_up(question)
    if follow_up:
        for text in reversed(earlier[-CONTEXT_TURNS:]):
            for term in search_terms(text):
                if term in _QUESTION_WORDS:
                    continue
                if len(terms) == MAX_TERMS:
                    break
                terms.setdefault(term, CONTEXT_WEIGHT)
    return Query(tuple(terms), tuple(terms.values()), follow_up)


def build_query(terms: Sequence[str]) -> str:
    """An FTS5 MATCH expression: each term a quoted string, any of them may match."""
    return " OR ".join(_phrase(t) for t in terms)


def _phrase(term: str) -> str:
    return '"' + term.replace('"', '""') + '"'


def _hits(marked: str) -> tuple[str, tuple[tuple[int, int], ...]]:
    """The text of ``highlight()``'s output without its markers, and the marked spans."""
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


# {index} is the workspace's own index table (hex name from ``index_table``).
_SEARCH = """
SELECT p.id, p.file_id, f.filename, p.ord, p.start, bm25({index}) AS score,
       highlight({index}, 0, char(2), char(3)) AS marked
FROM {index}
JOIN passages AS p ON p.id = {index}.rowid
JOIN files AS f ON f.id = p.file_id
WHERE {index} MATCH :query
  AND (f.expires_at IS NULL OR f.expires_at > :now)
  {only_files}
ORDER BY score, p.file_id, p.ord
LIMIT :top_k
"""
_TERM_SCORES = (
    'SELECT rowid, bm25("{index}") FROM "{index}" WHERE "{index}" MATCH :term '
    "AND rowid IN (SELECT value FROM json_each(:ids))"
)
_TERM_COUNT = 'SELECT count(*) FROM "{index}" WHERE "{index}" MATCH :term'
_PASSAGE_COUNT = 'SELECT count(*) FROM "{index}_docsize"'

_Row = tuple[int, Passage]


def _pool(
    conn: sa.Connection, index: str, terms: Sequence[str], scope: Scope, limit: int
) -> list[_Row]:
    """The ``limit`` best passages for ``terms`` joined by OR, by FTS5's bm25."""
    params: dict[str, object] = {"query": build_query(terms), "now": int(time.time())}
    params["top_k"] = limit
    only_files = ""
    if scope.file_ids is not None:
        # one JSON array parameter, however many files a filter part leaves
        only_files = "AND p.file_id IN (SELECT value FROM json_each(:file_ids))"
        params["file_ids"] = json.dumps(sorted(scope.file_ids))
    statement = sa.text(_SEARCH.format(index=index, only_files=only_files))
    rows = []
    for pid, file_id, filename, ord_, start, score, marked in conn.execute(statement, params):
        text, hits = _hits(marked)
        rows.append((pid, Passage(file_id, filename, ord_, start, text, float(score), hits)))
    return rows


def _idf(n: int, df: int) -> float:
    """bm25's inverse document frequency (never below a small positive floor)."""
    return max(math.log(1 + (n - df + 0.5) / (df + 0.5)), 1e-6)


def _score(
    conn: sa.Connection, index: str, query: Query, rows: list[_Row]
) -> list[tuple[float, float, Passage]]:
    """``(weighted bm25, coverage, passage)`` of each candidate."""
    ids = json.dumps([pid for pid, _ in rows])
    n = int(conn.exec_driver_sql(_PASSAGE_COUNT.format(index=index)).scalar_one())
    scores: dict[int, float] = dict.fromkeys((pid for pid, _ in rows), 0.0)
    covered: dict[int, float] = dict.fromkeys(scores, 0.0)
    total = 0.0
    for term, weight in zip(query.terms, query.weights, strict=True):
        phrase = _phrase(term)
        df = int(
            conn.execute(sa.text(_TERM_COUNT.format(index=index)), {"term": phrase}).scalar_one()
        )
        share = weight * _idf(n, df)
        total += share
        found = conn.execute(
            sa.text(_TERM_SCORES.format(index=index)), {"term": phrase, "ids": ids}
        )
        for pid, score in found:
            scores[pid] += weight * float(score)
            covered[pid] += share
    return [(scores[pid], covered[pid] / total if total else 0.0, passage) for pid, passage in rows]


def search(
    conn: sa.Connection,
    *,
    org_id: str,
    workspace_id: str,
    terms: Sequence[str],
    scope: Scope,
    weights: Sequence[float] | None = None,
    relevance: float = 0.0,
) -> tuple[Passage, ...]:
    """The ``scope.top_k`` best passages for ``terms`` whose coverage reaches
    ``relevance``, best first. ``weights`` (default: all 1) weigh the terms' scores."""
    if not terms or (scope.file_ids is not None and not scope.file_ids):
        return ()
    index = index_table(org_id, workspace_id)
    if not index_exists(conn, index):
        return ()  # nothing of this workspace was ever indexed
    query = Query(tuple(terms), tuple(weights) if weights is not None else (1.0,) * len(terms))
    if relevance <= 0 and weights is None:
        return tuple(p for _, p in _pool(conn, index, terms, scope, scope.top_k))
    rows = _pool(conn, index, terms, scope, max(POOL, 4 * scope.top_k))
    if not rows:
        return ()
    ranked = sorted(_score(conn, index, query, rows), key=lambda r: (r[0], r[2].file_id, r[2].ord))
    kept = [
        Passage(p.file_id, p.filename, p.ord, p.start, p.text, score, p.hits, coverage)
        for score, coverage, p in ranked
        if coverage >= relevance
    ]
    return tuple(kept[: scope.top_k])


def retrieve(
    conn: sa.Connection,
    *,
    org_id: str,
    workspace_id: str,
    messages: Sequence[ChatMessage],
    relevance: float = DEFAULT_RELEVANCE,
) -> Retrieval:
    """Check the request's filter parts, then find the relevant passages for its question
    (a filter part's ``relevance`` wins over the service's ``relevance``)."""
    scope = resolve_scope(conn, org_id=org_id, workspace_id=workspace_id, messages=messages)
    query = query_of(messages)
    passages = search(
        conn,
        org_id=org_id,
        workspace_id=workspace_id,
        terms=query.terms,
        scope=scope,
        weights=query.weights,
        relevance=scope.relevance if scope.relevance is not None else relevance,
    )
    return Retrieval(question=question_of(messages), terms=query.terms, passages=passages)
