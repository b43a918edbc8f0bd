"""Finding the passages of a workspace's files that best answer the user's question.

The question is the text of the last user message that has text. Its words, less common
English stop words, become an FTS5 query of quoted terms joined by ``OR`` (quoting makes
any FTS5 syntax in user text, like ``NEAR(`` or ``col:``, plain words), ranked by bm25.
Each hit also carries where its matched terms stand in the passage (``hits``), which the
local engine uses to pick the sentence it quotes.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

import sqlalchemy as sa

from chatspace.service.engines.tokenizer import count_texts
from chatspace.service.store.passages import index_exists, index_table
from chatspace.types import ChatMessage

from .scope import Scope, resolve_scope

__all__ = ["Passage", "Retrieval", "build_query", "question_of", "retrieve", "search_terms"]

MAX_TERMS = 32
MAX_TERM_CHARS = 64
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


@dataclass(frozen=True, slots=True)
class Passage:
    """A retrieved passage; ``hits`` are the spans of ``text`` that matched the query."""

    file_id: str
    filename: str
    ord: int
    start: int
    text: str
    score: float
    hits: tuple[tuple[int, int], ...] = ()


@dataclass(frozen=True, slots=True)
class Retrieval:
    """What retrieval found for a request: the question and its best passages."""

    question: str
    terms: tuple[str, ...] = ()
    passages: tuple[Passage, ...] = field(default_factory=tuple)

    @property
    def passage_tokens(self) -> int:
        return count_texts(p.text for p in self.passages)


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


def build_query(terms: Sequence[str]) -> str:
    """An FTS5 MATCH expression: each term a quoted string, any of them may match."""
    return " OR ".join('"' + t.replace('"', '""') + '"' for t in terms)


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
SELECT p.file_id, f.filename, p.ord, p.start, bm25({index}) AS score,
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


def search(
    conn: sa.Connection, *, org_id: str, workspace_id: str, terms: Sequence[str], scope: Scope
) -> tuple[Passage, ...]:
    """The ``scope.top_k`` best passages for ``terms``, best first."""
    if not terms or (scope.file_ids is not None and not scope.file_ids):
        return ()
    index = index_table(org_id, workspace_id)
    if not index_exists(conn, index):
        return ()  # nothing of this workspace was ever indexed
    params: dict[str, object] = {
        "query": build_query(terms),
        "now": int(time.time()),
        "top_k": scope.top_k,
    }
    only_files = ""
    if scope.file_ids is not None:
        # one JSON array parameter, however many files a filter part leaves
        only_files = "AND p.file_id IN (SELECT value FROM json_each(:file_ids))"
        params["file_ids"] = json.dumps(sorted(scope.file_ids))
    statement = sa.text(_SEARCH.format(index=index, only_files=only_files))
    passages = []
    for file_id, filename, ord_, start, score, marked in conn.execute(statement, params):
        text, hits = _hits(marked)
        passages.append(Passage(file_id, filename, ord_, start, text, float(score), hits))
    return tuple(passages)


def retrieve(
    conn: sa.Connection, *, org_id: str, workspace_id: str, messages: Sequence[ChatMessage]
) -> Retrieval:
    """Check the request's filter parts, then find the passages for its question."""
    scope = resolve_scope(conn, org_id=org_id, workspace_id=workspace_id, messages=messages)
    question = question_of(messages)
    terms = search_terms(question)
    passages = search(conn, org_id=org_id, workspace_id=workspace_id, terms=terms, scope=scope)
    return Retrieval(question=question, terms=terms, passages=passages)
