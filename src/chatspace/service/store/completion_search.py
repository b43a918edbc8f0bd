"""Finding stored completions by the words of their question and answer.

Each completion has a row of ``completion_search`` holding the text it is found by
(:func:`searchable`), written with the completion and deleted with it (a foreign key
``ON DELETE CASCADE``). SQLite indexes that text with the FTS5 table ``fts_completions``
(``unicode61 remove_diacritics 2``, kept in step by triggers); PostgreSQL with the
generated ``search_vector`` (``to_tsvector('simple', chatspace_fold(text))``, GIN). Both
fold case and accents, split at punctuation, and neither stems nor drops stop words, so
that "holds every word" means the words as typed and a word matches the same
completions on both engines (docs/decisions.md, "Completion search").
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

import sqlalchemy as sa

from chatspace.types import ChatCompletion, ChatMessage, question_of

from .dialects import is_postgres
from .schema import completion_search as search_t
from .schema import completions as completions_t

__all__ = ["SEARCHED_CHARS", "index_completion", "matching", "searchable", "words"]

SEARCHED_CHARS = 100_000
"""How much of a completion's question and answer is indexed (PostgreSQL's ``tsvector``
holds at most 1 MB: 100,000 characters stay well within it)."""

_WORD = re.compile(r"[^\W_]+")
"""A word: letters and digits; everything else separates words, as FTS5's ``unicode61``
and PostgreSQL's parser after ``chatspace_fold`` split text."""


def words(text: str) -> list[str]:
    """The distinct words of a search, in order (punctuation and FTS syntax are not words:
    ``'"fee" NEAR -x:'`` is the words ``fee``, ``NEAR``, ``x``). Combining marks are
    dropped first, as both indexes drop them inside a word (``e`` + U+0301 + ``t`` is
    ``et``, not two words)."""
    unmarked = "".join(ch for ch in text if unicodedata.category(ch) != "Mn")
    return list(dict.fromkeys(_WORD.findall(unmarked)))


def searchable(completion: ChatCompletion, messages: Sequence[ChatMessage]) -> str:
    """The text a completion is found by: its question (the last user message) and its
    answer, NUL a space (PostgreSQL's text has none), at most :data:`SEARCHED_CHARS`."""
    question = completion.question or question_of(messages) or ""
    return f"{question}\n{completion.text}".replace("\x00", " ")[:SEARCHED_CHARS]


def index_completion(
    conn: sa.Connection, *, completion: ChatCompletion, messages: Sequence[ChatMessage]
) -> None:
    """Make a just-stored completion findable (in its transaction)."""
    conn.execute(
        search_t.insert().values(completion_id=completion.id, text=searchable(completion, messages))
    )


def matching(conn: sa.Connection, search: str) -> sa.ColumnElement[bool]:
    """Whether a completion (``completions.id``) holds every word of ``search`` (which
    has at least one, by :func:`words`).

    SQLite is asked for the words as :func:`words` splits them, each an FTS5 string, so
    that nothing is read as syntax; PostgreSQL for ``search`` itself, through the same
    ``chatspace_fold`` and parser as the indexed text (``plainto_tsquery`` reads no
    operators), so that each engine splits a search as it split the text it indexed."""
    if is_postgres(conn):
        query = sa.func.plainto_tsquery(
            sa.literal_column("'simple'::regconfig"),
            sa.func.chatspace_fold(search.replace("\x00", " ")),
        )
        ids = sa.select(search_t.c.completion_id).where(
            sa.literal_column("completion_search.search_vector").op("@@")(query)
        )
    else:
        expression = " ".join(f'"{word}"' for word in words(search))  # juxtaposed: AND
        rowids = sa.text("SELECT rowid FROM fts_completions WHERE fts_completions MATCH :words")
        ids = sa.select(search_t.c.completion_id).where(
            search_t.c.id.in_(rowids.bindparams(words=expression).columns(sa.column("rowid")))
        )
    return completions_t.c.id.in_(ids)
