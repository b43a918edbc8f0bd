"""Passages of prose, and writing a file's passages in the upload's own transaction.

A prose passage is about :data:`PASSAGE_CHARS` characters of the file's extracted text,
cut at a paragraph, line, sentence or word boundary where one is near, and overlapping the
previous passage by about :data:`OVERLAP_CHARS`, from the line or sentence that starts
nearest to that, so that a sentence that straddles a cut is still found whole in one
passage, and no passage starts mid-sentence (tables are cut by rows instead: :mod:`.tables`).
``start`` records where a passage begins in the extracted text. Passages and their
index entries are written together (:mod:`chatspace.service.store.passages`: the
workspace's FTS5 table on SQLite; on PostgreSQL the ``tsvector`` and pgvector columns of
the same rows), so a rolled-back upload leaves no index entry. Extraction, the slow part,
runs before the transaction (:func:`.extract.extract`); only the writing runs inside it.
The passages' vectors come after it, in the background (:mod:`chatspace.service.vectors`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

import sqlalchemy as sa

from chatspace.service.store.passages import add_files_passages

if TYPE_CHECKING:
    from .extract import Extracted

__all__ = [
    "OVERLAP_CHARS",
    "PASSAGE_CHARS",
    "index_file",
    "index_files",
    "split_passages",
]

PASSAGE_CHARS = 1000
OVERLAP_CHARS = 200
_SPACE = re.compile(r"\s")
_SENTENCE_START = re.compile(
    r"\n|(?<=[.!?])(?<!\bi\.e\.)(?<!\be\.g\.)(?<!\bvs\.)(?<!\bcf\.)[\"')\]]*\s", re.I
)
"""Where a passage starts: after a line break or a sentence's end, so that its first
sentence is whole (its quote was "md5 is specified as a method ..." of "if md5 is ..."),
not after "i.e.", "e.g.", "vs." or "cf.", which go on (a quote of scikit-learn's guide
began "with more zero coefficients), even when L2 penalty is used.")."""
_BREAKS = ("\n\n", "\n", ". ", "? ", "! ", "; ", ", ", " ")


def _cut_before(text: str, lo: int, hi: int) -> int:
    """The best place to end a passage in ``text[lo:hi]``: just after the strongest break."""
    for mark in _BREAKS:
        at = text.rfind(mark, lo, hi)
        if at != -1:
            return at + len(mark)
    return hi


def split_passages(
    text: str, *, size: int = PASSAGE_CHARS, overlap: int = OVERLAP_CHARS
) -> list[tuple[int, str]]:
    """``(start, passage)`` pairs covering ``text``; ``text[start:].startswith(passage)``."""
    passages: list[tuple[int, str]] = []
    start, n = 0, len(text)
    while start < n:
        while start < n and text[start].isspace():
            start += 1
        if start >= n:
            break
        end = n if n - start <= size else _cut_before(text, start + size // 2, start + size)
        chunk = text[start:end].rstrip()
        if chunk:
            passages.append((start, chunk))
        if end >= n:
            break
        # Step back by the overlap, then to the nearest place where a line or a sentence
        # starts (within the overlap either side; else to a word's start), always moving on.
        back = max(end - overlap, start + 1)
        starts = _SENTENCE_START.finditer(text, max(end - 2 * overlap, start + 1), end)
        near = min((m.end() for m in starts), key=lambda at: abs(at - back), default=None)
        space = _SPACE.search(text, back, end)
        start = near if near is not None else space.end() if space else back
    return passages


def index_file(
    conn: sa.Connection,
    *,
    file_id: str,
    org_id: str,
    workspace_id: str,
    extracted: Extracted | None,
) -> int:
    """:func:`index_files` of one file."""
    files = [(file_id, extracted)]
    return index_files(conn, org_id=org_id, workspace_id=workspace_id, files=files)


def index_files(
    conn: sa.Connection,
    *,
    org_id: str,
    workspace_id: str,
    files: Sequence[tuple[str, Extracted | None]],
) -> int:
    """Insert the files' passages (``(file id, its extracted text)``) with their locations
    and index them (in the caller's transaction, at once: an upload's files in one
    statement); their vectors are pending.

    Returns the number of passages; 0 when no file has extractable text.
    """
    return add_files_passages(
        conn,
        org_id=org_id,
        workspace_id=workspace_id,
        files=[
            (
                file_id,
                extracted.passages,
                [[list(mark) for mark in marks] for marks in extracted.locations] or None,
            )
            for file_id, extracted in files
            if extracted is not None
        ],
    )
