"""Words as the full-text index sees them, asked of the database and remembered.

Relevance needs to know which words of the question a passage matches. The index says
which tokens of a passage matched (its highlighting), but not for which query word;
asking it word by word costs one scan of the index per word. Stemming the matched tokens
and the query words the way the index does answers it without touching the index. The
stems come from the database's own text search (no second stemmer that could disagree
with it): on SQLite, FTS5's tokenizer (``porter unicode61 remove_diacritics 2``) through a
temporary FTS5 table and its ``fts5vocab`` (:func:`fts5_stems`); on PostgreSQL,
``to_tsvector`` (:mod:`.postgres_index`). A :class:`StemCache` remembers them for the life
of the process: a word's stem never changes.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable

import sqlalchemy as sa

from chatspace.service.store.passages import TOKENIZER

__all__ = ["MAX_CACHED", "StemCache", "Stems", "fts5_stems", "stems_of"]

MAX_CACHED = 100_000
"""Words whose stems a process remembers (then it starts afresh)."""
Stems = dict[str, tuple[str, ...]]
_CREATE = (
    "CREATE VIRTUAL TABLE IF NOT EXISTS temp.chatspace_words "
    f"USING fts5(word, tokenize='{TOKENIZER}')",
    "CREATE VIRTUAL TABLE IF NOT EXISTS temp.chatspace_stems "
    "USING fts5vocab(temp, chatspace_words, 'instance')",
)


class StemCache:
    """The stems of words, asked of the database (``lookup``) only for new words."""

    def __init__(self, lookup: Callable[[sa.Connection, list[str]], Stems]) -> None:
        self._lookup = lookup
        self._known: Stems = {}
        self._lock = threading.Lock()

    def __call__(self, conn: sa.Connection, words: Iterable[str]) -> Stems:
        """Each word's tokens as the index stores them (``"Rivers"`` -> ``("river",)``,
        ``"8:30"`` -> ``("8", "30")``)."""
        wanted = set(words)
        with self._lock:
            found = {w: self._known[w] for w in wanted if w in self._known}
        missing = sorted(wanted - found.keys())
        if missing:
            new = self._lookup(conn, missing)
            found.update(new)
            with self._lock:
                if len(self._known) + len(new) > MAX_CACHED:
                    self._known.clear()
                self._known.update(new)
        return found


def fts5_stems(conn: sa.Connection, words: list[str]) -> Stems:
    """The words' tokens from FTS5's tokenizer (one insert, one ``fts5vocab`` read)."""
    for statement in _CREATE:
        conn.exec_driver_sql(statement)
    conn.exec_driver_sql("DELETE FROM temp.chatspace_words")
    conn.exec_driver_sql(
        "INSERT INTO temp.chatspace_words (rowid, word) VALUES (?, ?)", list(enumerate(words))
    )
    tokens: dict[int, list[str]] = {}
    for doc, term in conn.exec_driver_sql(
        "SELECT doc, term FROM temp.chatspace_stems ORDER BY doc, offset"
    ):
        tokens.setdefault(doc, []).append(term)
    conn.exec_driver_sql("DELETE FROM temp.chatspace_words")
    return {w: tuple(tokens.get(i, ())) for i, w in enumerate(words)}


stems_of = StemCache(fts5_stems)
"""SQLite's stems, remembered."""
