"""A cited table row with its column names, wherever the notebook shows it.

The service quotes a row of a table as text of its file: ``South,March,58300,547``, a line
of CSV (docs/interface.md#locations: a table's text is blocks, a blank line apart, each
led by the header). Read alone it says nothing of its columns, so every output that lists
sources (``%%chat``, the chat panel, ``%chat export``, the sources tables of ``%completions
show`` and the completions browser) shows it as ``Region: South, Month: March, Revenue
(EUR): 58300, Units: 547``, as ``service-l0``'s answers quote it: in a CSV, TSV or Parquet
file, a workbook's sheet, and the tables of a Word, PowerPoint or PDF document alike. The
quote is found in the file's text (``client.files.text``, read once per file and kept for
the kernel's life, :data:`_KEPT_CHARS` characters of texts at most: a file's text never
changes); its header is the first line of its block, or the second where the first is
the sheet's name. A quote that is no such block's rows stays as it is.
"""

from __future__ import annotations

import csv
import dataclasses
from collections.abc import Sequence
from typing import TYPE_CHECKING

from chatspace._wire import labelled_row
from chatspace.errors import ChatspaceError

if TYPE_CHECKING:
    from chatspace.client import Client
    from chatspace.types import Source

    from .display import Citation

__all__ = ["labelled_citations", "labelled_sources", "with_columns"]

_KEPT_CHARS = 16_000_000
"""Characters of file texts a kernel keeps; the oldest file is forgotten first."""
_texts: dict[tuple[str, str], str] = {}


def _text_of(client: Client, file_id: str, workspace: str) -> str:
    key = (client.config.base_url, file_id)
    if key not in _texts:
        try:
            text = client.files.text(file_id, workspace=workspace)
        except ChatspaceError:  # deleted since, or no text: the row stays as quoted
            text = ""
        if len(text) > _KEPT_CHARS:
            return text  # read again when asked again, never kept
        while _texts and sum(map(len, _texts.values())) + len(text) > _KEPT_CHARS:
            del _texts[next(iter(_texts))]
        _texts[key] = text
    return _texts[key]


def _header(text: str, quote: str) -> str | None:
    """The header line of the table block whose rows ``quote`` is, if it is one."""
    at = text.find(quote)
    if at < 0:
        return None
    gap = text.rfind("\n\n", 0, at)
    lines = text[0 if gap < 0 else gap + 2 : at].split("\n")[:-1]  # the block's, before
    if not lines:
        return None  # the quote starts its block: a header, or no table
    width = len(_cells(quote.split("\n", 1)[0], _delimiter(lines[0])))
    if len(lines) > 1 and len(_cells(lines[0], _delimiter(lines[0]))) != width:
        return lines[1]  # the sheet's name leads its first block
    return lines[0]


def _rows_like(quote: str) -> bool:
    """Whether ``quote`` may be a table's rows: lines of as many cells, two or more, the
    last not ending a sentence (prose is quoted by sentences). Only then is the file's
    text read."""
    lines = quote.strip().split("\n")
    widths = {len(_cells(line, _delimiter(line))) for line in lines}
    return len(widths) == 1 and min(widths) >= 2 and not quote.rstrip().endswith((".", "!", "?"))


def _delimiter(header: str) -> str:
    return "\t" if "\t" in header else ","


def _cells(line: str, delimiter: str) -> list[str]:
    return next(csv.reader([line], delimiter=delimiter), [])


def _labelled(header: str, quote: str) -> str:
    """Each line of ``quote`` as ``column: value`` pairs; ``quote`` unchanged unless every
    line has the header's number of cells."""
    delimiter = _delimiter(header)
    names = [n.strip() or f"column {i + 1}" for i, n in enumerate(_cells(header, delimiter))]
    rows = [_cells(line, delimiter) for line in quote.strip().split("\n")]
    if len(names) < 2 or any(len(row) != len(names) for row in rows):
        return quote
    return "; ".join(labelled_row(names, row) for row in rows)


def with_columns(client: Client, *, file_id: str, quote: str, workspace: str) -> str:
    """``quote`` with its column names where it is a table's rows (see the module), else
    ``quote`` as it is."""
    if not _rows_like(quote):
        return quote
    header = _header(_text_of(client, file_id, workspace), quote)
    return quote if header is None else _labelled(header, quote)


def labelled_citations(
    client: Client, citations: Sequence[Citation], workspace: str
) -> list[Citation]:
    """The citations of an answer, their table rows with column names."""
    return [
        dataclasses.replace(
            c,
            quote=with_columns(
                client,
                file_id=c.file_id,
                quote=c.quote,
                workspace=workspace,
            ),
        )
        for c in citations
    ]


def labelled_sources(client: Client, sources: Sequence[Source], workspace: str) -> list[Source]:
    """A stored completion's sources, their table rows with column names."""
    return [
        s.model_copy(
            update={
                "quote": with_columns(
                    client,
                    file_id=s.file_id,
                    quote=s.quote or "",
                    workspace=workspace,
                )
                or s.quote
            }
        )
        for s in sources
    ]
