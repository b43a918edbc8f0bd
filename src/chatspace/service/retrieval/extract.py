"""The text of an uploaded file and its passages, whatever kind of document it is.

Which reader runs (:mod:`.documents`) is decided by the file name's extension first
(browsers and clients often send ``application/octet-stream``), then by the content type;
anything else that decodes as UTF-8 is text. The readers' paragraphs become prose, cut by
:func:`~.indexing.split_passages`; their tables become header-led blocks (:mod:`.tables`).
The pieces are joined by blank lines, and every passage is an exact slice of the text at
its ``start``, so a quote taken from a passage is text of the file. Where the readers say
where their blocks are, each passage keeps the marks of its text (:mod:`.locations`).

A file without text (binary, empty, damaged, or over a bound of :mod:`.documents`)
yields ``None`` and takes no part in retrieval; a reader that fails on a hostile document
is such a file, never a failed upload. The text is at most :data:`MAX_TEXT_CHARS` long.
"""

from __future__ import annotations

import contextlib
import logging
import warnings
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from chatspace.types import Location

from .documents import Block, clean, kind_of, read_document
from .indexing import PASSAGE_CHARS, split_passages
from .locations import Mark, Place, passage_marks
from .tables import Piece, Table

__all__ = ["MAX_TEXT_CHARS", "Extracted", "extract", "kind_of"]

MAX_TEXT_CHARS = 16 * 1024 * 1024
_SEPARATOR = "\n\n"
_log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Extracted:
    """A file's text and its passages: ``(start, passage)``, ``text[start:]`` starting
    with the passage; ``locations``: each passage's marks (:mod:`.locations`)."""

    text: str
    passages: tuple[tuple[int, str], ...]
    locations: tuple[tuple[Mark, ...], ...] = ()


def extract(path: Path, *, filename: str, content_type: str) -> Extracted | None:
    """The file's text and passages, or ``None`` when it has no text that can be read."""
    kind = kind_of(filename, content_type)
    try:
        # A library's warnings about a user's document are not the service's to show.
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            with contextlib.closing(read_document(path, kind, size=PASSAGE_CHARS)) as blocks:
                return _assemble(blocks)
    except Exception as exc:  # a damaged or hostile document is a file without text
        _log.info("a %s file has no readable text (%s)", kind, type(exc).__name__)
        return None


def _assemble(blocks: Iterable[Block]) -> Extracted | None:
    """Join the readers' blocks: runs of paragraphs as prose, tables as tables; each
    block marked with the location its reader last gave (nowhere before the first)."""
    pieces: list[Piece] = []
    paragraphs: list[str] = []
    marks: list[Mark] = []  # of the paragraphs, in their prose
    place: Place = {}
    prose_len = used = 0

    def end_prose() -> None:
        nonlocal prose_len
        if paragraphs:
            text = _SEPARATOR.join(paragraphs)
            pieces.append(Piece(text, tuple(split_passages(text)), tuple(marks)))
            paragraphs.clear()
            marks.clear()
            prose_len = 0

    for block in blocks:
        room = MAX_TEXT_CHARS - used
        if room <= 0:
            break
        if isinstance(block, Location):
            place = block.model_dump()
            continue
        if isinstance(block, str):
            if block.strip():
                paragraphs.append(clean(block)[:room])
                marks.append((prose_len, place))
                prose_len += len(paragraphs[-1]) + len(_SEPARATOR)
                used += len(paragraphs[-1]) + len(_SEPARATOR)
            continue
        end_prose()
        piece = (
            block.piece(size=PASSAGE_CHARS, max_chars=room) if isinstance(block, Table) else block
        )
        if piece is not None:
            # a table's rows are where its reader last said too (a PDF table's page)
            placed = tuple((at, {**place, **where}) for at, where in piece.marks)
            piece = Piece(piece.text, piece.passages, placed or ((0, place),))
            pieces.append(piece)
            used += len(piece.text) + len(_SEPARATOR)
    end_prose()
    return _join(pieces)


def _join(pieces: list[Piece]) -> Extracted | None:
    passages: list[tuple[int, str]] = []
    marks: list[Mark] = []
    offset = 0
    for piece in pieces:
        passages += [(offset + start, passage) for start, passage in piece.passages]
        marks += [(offset + at, where) for at, where in piece.marks]
        offset += len(piece.text) + len(_SEPARATOR)
    text = _SEPARATOR.join(piece.text for piece in pieces)
    if not text.strip():
        return None
    located = any(place for _, place in marks)
    return Extracted(
        text, tuple(passages), tuple(passage_marks(text, marks, passages)) if located else ()
    )
