"""Words as the full-text index sees them: FTS5's own tokenizer, asked through SQLite.

Relevance needs to know which words of the question a passage matches. FTS5 says which
tokens of a passage matched (``highlight``), but not for which query word; asking it word
by word costs one scan of the index per word. Stemming the matched tokens and the query
words the way the index does answers it without touching the index. The stems come from
the index's tokenizer itself (``porter unicode61 remove_diacritics 2``), through a
temporary FTS5 table and its ``fts5vocab`` (no second stemmer that could disagree with
SQLite's), and are cached for the life of the process: a word's stem never changes.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable

import sqlalchemy as sa

from chatspace.service.store.passages import TOKENIZER

__all__ = ["MAX_CACHED", "stems_of"]

MAX_CACHED = 100_000
"""Words whose stems a process remembers (then it starts afresh)."""
_CREATE = (
    "CREATE VIRTUAL TABLE IF NOT EXISTS temp.chatspace_words "
    f"USING fts5(word, tokenize='{TOKENIZER}')",
    "CREATE VIRTUAL TABLE IF NOT EXISTS temp.chatspace_stems "
    "USING fts5vocab(temp, chatspace_words, 'instance')",
)
_known: dict[str, tuple[str, ...]] = {}
_lock = threading.Lock()


def stems_of(conn: sa.Connection, words: Iterable[str]) -> dict[str, tuple[str, ...]]:
    """Each word's tokens as the index stores them (``"Rivers"`` -> ``("river",)``,
    ``"8:30"`` -> ``("8", "30")``)."""
    wanted = set(words)
    with _lock:
        found = {w: _known[w] for w in wanted if w in _known}
    missing = sorted(wanted - found.keys())
    if missing:
        for statement in _CREATE:
            conn.exec_driver_sql(statement)
        conn.exec_driver_sql("DELETE FROM temp.chatspace_words")
        conn.exec_driver_sql(
            "INSERT INTO temp.chatspace_words (rowid, word) VALUES (?, ?)",
            list(enumerate(missing)),
        )
        tokens: dict[int, list[str]] = {}
        for doc, term in conn.exec_driver_sql(
            "SELECT doc, term FROM temp.chatspace_stems ORDER BY doc, offset"
        ):
            tokens.setdefault(doc, []).append(term)
        conn.exec_driver_sql("DELETE FROM temp.chatspace_words")
        new = {w: tuple(tokens.get(i, ())) for i, w in enumerate(missing)}
        found.update(new)
        with _lock:
            if len(_known) + len(new) > MAX_CACHED:
                _known.clear()
            _known.update(new)
    return found
