"""A cited table row with its column names, wherever the notebook shows it.

The service quotes a row of a table as text of its file: ``South,March,58300,547``, a line
of CSV (docs/interface.md#locations: a table's text is blocks, each led by the header).
Read alone it says nothing of its columns, so every output that lists sources (``%%chat``,
the chat panel, ``%chat export``, the sources tables of ``%completions show`` and the
completions browser) shows it as ``Region: South, Month: March, Revenue (EUR): 58300,
Units: 547``, as ``service-l0``'s answers quote it. A quote is a table's row when its
``location`` has a ``row`` (a sheet, a CSV, TSV or Parquet file); its header is read from
the file's text (``client.files.text``) once per file and kept for the kernel's life (a
file's text never changes): the first line of a table without a sheet, the line after the
sheet's name for a workbook's sheet. A line whose cells do not match the header's stays
as it is.
"""

from __future__ import annotations

import csv
import dataclasses
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from chatspace.errors import ChatspaceError

if TYPE_CHECKING:
    from chatspace.client import Client
    from chatspace.types import Source

    from .display import Citation

__all__ = ["labelled_citations", "labelled_sources", "with_columns"]

_Heads = dict[str | None, str]
"""A file's table headers by sheet (None: the file's one table)."""
_KEPT = 256
"""Files whose headers a kernel keeps; the oldest is forgotten first."""
_heads: dict[tuple[str, str], _Heads] = {}


def _headers(text: str) -> _Heads:
    """The header line of each table of a file's text: blocks are a blank line apart, a
    sheet's first block is led by its name, then the header."""
    heads: _Heads = {}
    for block in text.split("\n\n"):
        lines = block.split("\n", 2)
        if not heads:
            heads[None] = lines[0]
        if len(lines) > 1:
            heads.setdefault(lines[0], lines[1])
    return heads


def _heads_of(client: Client, file_id: str, workspace: str) -> _Heads:
    key = (client.config.base_url, file_id)
    if key not in _heads:
        try:
            text = client.files.text(file_id, workspace=workspace)
        except ChatspaceError:  # deleted since, or no text: the row stays as quoted
            text = ""
        if len(_heads) >= _KEPT:
            del _heads[next(iter(_heads))]
        _heads[key] = _headers(text)
    return _heads[key]


def _cells(line: str, delimiter: str) -> list[str]:
    return next(csv.reader([line], delimiter=delimiter), [])


def _labelled(header: str, quote: str) -> str:
    """Each line of ``quote`` as ``column: value`` pairs; ``quote`` unchanged unless every
    line has the header's number of cells."""
    delimiter = "\t" if "\t" in header else ","
    names = [n.strip() or f"column {i + 1}" for i, n in enumerate(_cells(header, delimiter))]
    rows = [_cells(line, delimiter) for line in quote.strip().split("\n")]
    if len(names) < 2 or any(len(row) != len(names) for row in rows):
        return quote
    pairs = (zip(names, row, strict=True) for row in rows)
    return "; ".join(", ".join(f"{n}: {c}" for n, c in row) for row in pairs)


def with_columns(
    client: Client,
    *,
    file_id: str,
    quote: str,
    location: Mapping[str, Any] | None,
    workspace: str,
) -> str:
    """``quote`` with its column names where it is a table's row (see the module), else
    ``quote`` as it is."""
    if not quote or not location or location.get("row") is None:
        return quote
    header = _heads_of(client, file_id, workspace).get(location.get("sheet"))
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
                location=c.location,
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
                    location=None if s.location is None else s.location.model_dump(),
                    workspace=workspace,
                )
                or s.quote
            }
        )
        for s in sources
    ]
