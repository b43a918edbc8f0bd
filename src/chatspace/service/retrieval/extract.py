"""The text of an uploaded file and its passages, whatever kind of document it is.

Which reader runs (:mod:`.documents`) is decided by the file name's extension first
(browsers and clients often send ``application/octet-stream``), then by the content type;
anything else that decodes as UTF-8 is text. The readers' paragraphs become prose, cut by
:func:`~.indexing.split_passages`; their tables become header-led blocks (:mod:`.tables`).
The pieces are joined by blank lines, and every passage is an exact slice of the text at
its ``start``, so a quote taken from a passage is text of the file.

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

from .documents import Block, clean, kind_of, read_document
from .indexing import PASSAGE_CHARS, split_passages
from .tables import Piece, Table

__all__ = ["MAX_TEXT_CHARS", "Extracted", "extract", "kind_of"]

MAX_TEXT_CHARS = 16 * 1024 * 1024
_SEPARATOR = "\n\n"
_log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Extracted:
    """A file's text and its passages: ``(start, passage)``, ``text[start:]`` starting
    with the passage."""

    text: str
    passages: tuple[tuple[int, str], ...]


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
    """Join the readers' blocks: runs of paragraphs as prose, tables as tables."""
    pieces: list[Piece] = []
    paragraphs: list[str] = []
    used = 0

    def end_prose() -> None:
        if paragraphs:
            text = _SEPARATOR.join(paragraphs)
            pieces.append(Piece(text, tuple(split_passages(text))))
            paragraphs.clear()

    for block in blocks:
        room = MAX_TEXT_CHARS - used
        if room <= 0:
            break
        if isinstance(block, str):
            if block.strip():
                paragraphs.append(clean(block)[:room])
                used += len(paragraphs[-1]) + len(_SEPARATOR)
            continue
        end_prose()
        piece = (
            block.piece(size=PASSAGE_CHARS, max_chars=room) if isinstance(block, Table) else block
        )
        if piece is not None:
            pieces.append(piece)
            used += len(piece.text) + len(_SEPARATOR)
    end_prose()
    return _join(pieces)


def _join(pieces: list[Piece]) -> Extracted | None:
    passages: list[tuple[int, str]] = []
    offset = 0
    for piece in pieces:
        passages += [(offset + start, passage) for start, passage in piece.passages]
        offset += len(piece.text) + len(_SEPARATOR)
    text = _SEPARATOR.join(piece.text for piece in pieces)
    return Extracted(text, tuple(passages)) if text.strip() else None
