"""Finding the passages of a workspace's files that answer the user's question.

The question is the text of the last user message that has text. A follow-up ("And in
Nice?", "Who owns it?") is searched with the conversation it continues: the content words
of the previous user turns join the query at :data:`CONTEXT_WEIGHT`. The words, less
common English stop words, are each quoted (so FTS5 syntax in user text, like ``NEAR(``
or ``col:``, is plain words) and ranked in two steps:

1. **Candidates**: FTS5's bm25 over the terms joined by ``OR``, the :data:`POOL` best
   passages (:func:`_pool`; without context and relevance this is the whole ranking of
   earlier versions, the benchmark's "today" column), and, with vectors
   (:mod:`.dense`), the :data:`POOL` passages most similar to the question.
2. **Relevance** (:func:`_lexical`, :func:`relevance_of`): which query terms each
   candidate matches (the tokens FTS5 marked in it, stemmed as the index stems them),
   and each term's inverse document frequency in the workspace. A passage's *coverage*
   is the share of the question's weight (term weight x idf) that it matches, in its
   text or its file's name; its
   relevance is :data:`LEXICAL_SHARE` of its coverage plus the rest of its cosine
   similarity to the question (a convex combination, which beat reciprocal rank fusion
   on the dev split of ``benchmarks/data/retrieval``). Candidates are ranked by relevance
   (ties by bm25), and cited when it reaches the threshold (``relevance`` of a
   filter part, else the service's ``relevance_threshold``, default
   :data:`DEFAULT_RELEVANCE`). A question that names (capitalizes) something no passage
   and no file name of the workspace contains has no relevant passage at all: the files
   do not know what it is about. When none is left, the answer says that nothing in the
   files answers the question.

Each hit also carries where its matched terms stand in the passage (``hits``), which the
local engine uses to pick the sentences it quotes.
"""

from __future__ import annotations

import json
import math
import re
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

import sqlalchemy as sa

from chatspace.service.store.passages import index_exists, index_table
from chatspace.service.tokenizer import count_texts
from chatspace.types import ChatMessage

from .dense import DenseIndex
from .scope import Scope, resolve_scope
from .stems import stems_of

__all__ = [
    "CONTEXT_WEIGHT",
    "DEFAULT_RELEVANCE",
    "LEXICAL_SHARE",
    "Passage",
    "Query",
    "Retrieval",
    "build_query",
    "is_follow_up",
    "names_in",
    "query_of",
    "question_of",
    "relevance_of",
    "retrieve",
    "search",
    "search_terms",
]

MAX_TERMS = 32
MAX_TERM_CHARS = 64
POOL = 50
"""Candidates scored per search and per ranking (at least 4 x top_k)."""
MIN_PASSAGES = 100
"""The smallest passage count idf is computed with (see :func:`_idf`)."""
CONTEXT_WEIGHT = 0.5
"""Weight of a term of an earlier user turn in a follow-up (the question's own: 1)."""
CONTEXT_TURNS = 2
"""How many earlier user turns a follow-up is searched with."""
DENSE_CHARS = 4000
"""Characters of a question (and of each turn a follow-up continues) whose vector is
compared: a question pasted with a whole document is searched by its start, in a
millisecond, not by embedding megabytes."""
DEFAULT_RELEVANCE = 0.35
"""The relevance a passage needs to be cited (calibrated on the dev split of
``benchmarks/data/retrieval``; 0 cites the best ``top_k`` whatever they say)."""
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
_SENTENCE_ENDS = frozenset('.!?:"(')
"""A capitalized word after one of these (and blanks), or at the start, begins a sentence."""
LEXICAL_SHARE = 0.8
"""Weight of lexical coverage in a passage's relevance; cosine similarity has the rest
(chosen on the dev split of ``benchmarks/data/retrieval``)."""


@dataclass(frozen=True, slots=True)
class Passage:
    """A retrieved passage; ``hits`` are the spans of ``text`` that matched the query.

    ``score`` is its bm25 (lower is better; 0 for a passage found by meaning alone);
    ``relevance`` from 0 to 1 how well it answers the question (:func:`relevance_of`;
    1.0 when it was not computed).
    """

    file_id: str
    filename: str
    ord: int
    start: int
    text: str
    score: float
    hits: tuple[tuple[int, int], ...] = ()
    relevance: float = 1.0


@dataclass(frozen=True, slots=True)
class Query:
    """What is searched: distinct lowercased terms and their weights, question's first,
    and the text whose vector the dense half compares (a follow-up's with its context)."""

    terms: tuple[str, ...] = ()
    weights: tuple[float, ...] = ()
    follow_up: bool = False
    text: str = ""
    names: frozenset[str] = frozenset()


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


def names_in(question: str) -> frozenset[str]:
    """The search terms ``question`` writes as names: capitalized inside a sentence
    ("the capital of *Australia*", "the *NPS* of *Nice*"), lowercased."""
    names = set()
    for match in _WORD.finditer(question):
        word = match.group()
        if word[0].isupper() and not _begins_sentence(question, match.start()):
            names.add(word.lower())
    return frozenset(names) & frozenset(search_terms(question))


def _begins_sentence(text: str, at: int) -> bool:
    """Whether the word at ``at`` starts a sentence: only blanks, or nothing, lie between
    it and the end of the previous one. Looks back over the blanks only, so that scanning
    a long question stays linear."""
    i = at - 1
    while i >= 0 and text[i].isspace():
        i -= 1
    return i < 0 or text[i] in _SENTENCE_ENDS


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
    text = question[:DENSE_CHARS]
    if follow_up:
        text = "\n".join(t[:DENSE_CHARS] for t in [*earlier[-CONTEXT_TURNS:], question])
        for turn in reversed(earlier[-CONTEXT_TURNS:]):
            for term in search_terms(turn):
                if term in _QUESTION_WORDS:
                    continue
                if len(terms) == MAX_TERMS:
                    break
                terms.setdefault(term, CONTEXT_WEIGHT)
    return Query(tuple(terms), tuple(terms.values()), follow_up, text, names_in(question))


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
_TERM_COUNT = 'SELECT count(*) FROM "{index}" WHERE "{index}" MATCH :term'
_PASSAGE_COUNT = 'SELECT count(*) FROM "{index}_docsize"'

_BY_ID = """
SELECT p.id, p.file_id, f.filename, p.ord, p.start, p.text
FROM passages AS p JOIN files AS f ON f.id = p.file_id
WHERE p.id IN (SELECT value FROM json_each(:ids))
  AND (f.expires_at IS NULL OR f.expires_at > :now)
"""
_HIGHLIGHT = (
    'SELECT rowid, highlight("{index}", 0, char(2), char(3)) FROM "{index}" '
    'WHERE "{index}" MATCH :query AND rowid IN (SELECT value FROM json_each(:ids))'
)

_NAMED_FILE = sa.text(
    "SELECT 1 FROM files WHERE org_id = :o AND workspace_id = :w "
    "AND instr(lower(filename), :term) > 0 LIMIT 1"
)

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


def _by_id(conn: sa.Connection, index: str, terms: Sequence[str], ids: Sequence[int]) -> list[_Row]:
    """The passages ``ids`` (in that order) of files not expired, with their matched
    spans when they match any of ``terms``."""
    if not ids:
        return []
    params = {"ids": json.dumps(list(ids)), "now": int(time.time())}
    found = {row[0]: row for row in conn.execute(sa.text(_BY_ID), params)}
    marked: dict[int, str] = {}
    if terms:
        query = {"query": build_query(terms), "ids": params["ids"]}
        marked = dict(conn.execute(sa.text(_HIGHLIGHT.format(index=index)), query).tuples().all())
    rows = []
    for pid in ids:
        if pid in found:
            _, file_id, filename, ord_, start, text = found[pid]
            hits: tuple[tuple[int, int], ...] = ()
            if pid in marked:
                text, hits = _hits(marked[pid])
            rows.append((pid, Passage(file_id, filename, ord_, start, text, 0.0, hits)))
    return rows


def _idf(n: int, df: int) -> float:
    """bm25's inverse document frequency (never below a small positive floor), as if the
    workspace had at least :data:`MIN_PASSAGES` passages: in a workspace of three files
    every word they use would otherwise weigh next to nothing beside one they do not, and
    "Which products sell in Lyon?" over ``city,product`` rows would hang on "sell"."""
    n = max(n, MIN_PASSAGES)
    return max(math.log(1 + (n - df + 0.5) / (df + 0.5)), 1e-6)


@dataclass(frozen=True, slots=True)
class _Lexical:
    coverage: dict[int, float]
    unknown_names: bool
    """Whether the question names something no passage of the workspace contains."""


def _lexical(
    conn: sa.Connection, index: str, query: Query, rows: Sequence[_Row], where: tuple[str, str]
) -> _Lexical:
    """Each candidate's coverage: the weight of the query terms among the tokens FTS5
    matched in it (its ``hits``, stemmed as the index stems them: :mod:`.stems`) or in the
    name of its file ("stock in Genoa" and ``stock-genoa.csv``)."""
    tokens = {pid: [p.text[a:b] for a, b in p.hits] for pid, p in rows}
    stems = stems_of(conn, [*query.terms, *(t for found in tokens.values() for t in found)])
    matched = {pid: {s for t in found for s in stems[t]} for pid, found in tokens.items()}
    named = {pid: frozenset(_WORD.findall(p.filename.lower())) for pid, p in rows}
    n = int(conn.exec_driver_sql(_PASSAGE_COUNT.format(index=index)).scalar_one())
    covered: dict[int, float] = dict.fromkeys(tokens, 0.0)
    total = 0.0
    unknown = False
    for term, weight in zip(query.terms, query.weights, strict=True):
        df = int(
            conn.execute(
                sa.text(_TERM_COUNT.format(index=index)), {"term": _phrase(term)}
            ).scalar_one()
        )
        if df == 0 and term in query.names:
            unknown |= _no_file_named(conn, where, term)
        share = weight * _idf(n, df)
        total += share
        term_stems = set(stems[term])
        for pid in covered:
            if (term_stems and term_stems <= matched[pid]) or term in named[pid]:
                covered[pid] += share
    coverage = {pid: c / total if total else 0.0 for pid, c in covered.items()}
    return _Lexical(coverage, unknown)


def _no_file_named(conn: sa.Connection, where: tuple[str, str], term: str) -> bool:
    """Whether no file of the workspace ``where`` has ``term`` in its name."""
    params = {"o": where[0], "w": where[1], "term": term}
    return conn.execute(_NAMED_FILE, params).first() is None


def relevance_of(coverage: float, cosine: float | None) -> float:
    """How relevant a passage is, from 0 to 1: its lexical coverage of the question, and
    (with dense vectors) its cosine similarity to it, in the proportion
    :data:`LEXICAL_SHARE`."""
    if cosine is None:
        return coverage
    return LEXICAL_SHARE * coverage + (1 - LEXICAL_SHARE) * max(cosine, 0.0)


def search(
    conn: sa.Connection,
    *,
    org_id: str,
    workspace_id: str,
    query: Query,
    scope: Scope,
    relevance: float = 0.0,
    dense: DenseIndex | None = None,
) -> tuple[Passage, ...]:
    """The ``scope.top_k`` most relevant passages for ``query`` whose relevance reaches
    ``relevance``, best first: by full text alone, or with ``dense`` similarity."""
    if scope.file_ids is not None and not scope.file_ids:
        return ()
    index = index_table(org_id, workspace_id)
    terms = query.terms if index_exists(conn, index) else ()  # never indexed: no terms
    if dense is None and relevance <= 0 and set(query.weights) <= {1.0}:
        return tuple(p for _, p in _pool(conn, index, terms, scope, scope.top_k)) if terms else ()
    pool = max(POOL, 4 * scope.top_k)
    rows = _pool(conn, index, terms, scope, pool) if terms else []
    sims = None
    if dense is not None and query.text.strip():
        sims = dense.similarities(
            conn, org_id=org_id, workspace_id=workspace_id, question=query.text
        )
        seen = {pid for pid, _ in rows}
        extra = [pid for pid in sims.best(pool, file_ids=scope.file_ids) if pid not in seen]
        rows += _by_id(conn, index, terms, extra)
    if not rows:
        return ()
    where = (org_id, workspace_id)
    lexical = _lexical(conn, index, query, rows, where) if terms else _Lexical({}, False)
    if relevance > 0 and lexical.unknown_names:
        return ()
    ranked = []
    for pid, p in rows:
        rel = relevance_of(lexical.coverage.get(pid, 0.0), sims.of(pid) if sims else None)
        if rel >= relevance:
            ranked.append((-rel, p.score, pid, p, rel))
    ranked.sort(key=lambda r: r[:3])
    return tuple(
        Passage(p.file_id, p.filename, p.ord, p.start, p.text, bm25, p.hits, rel)
        for _, bm25, _, p, rel in ranked[: scope.top_k]
    )


def retrieve(
    conn: sa.Connection,
    *,
    org_id: str,
    workspace_id: str,
    messages: Sequence[ChatMessage],
    relevance: float = DEFAULT_RELEVANCE,
    dense: DenseIndex | None = None,
) -> Retrieval:
    """Check the request's filter parts, then find the relevant passages for its question
    (a filter part's ``relevance`` wins over the service's ``relevance``)."""
    scope = resolve_scope(conn, org_id=org_id, workspace_id=workspace_id, messages=messages)
    query = query_of(messages)
    passages = search(
        conn,
        org_id=org_id,
        workspace_id=workspace_id,
        query=query,
        scope=scope,
        relevance=scope.relevance if scope.relevance is not None else relevance,
        dense=dense,
    )
    return Retrieval(question=question_of(messages), terms=query.terms, passages=passages)
