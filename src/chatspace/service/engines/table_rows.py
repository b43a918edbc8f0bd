"""The row of a table passage that answers a question, read with its header.

Tables are stored as blocks that start with their header line
(:mod:`chatspace.service.retrieval.tables`). Quoted like prose, such a block gives its
header ("region,budget_eur,owner"), the line that shares the most words with "Which region
has the largest budget?", and never the row that answers. Here the row is chosen instead:
with a superlative ("largest", "lowest", "most"...) and a numeric column the question names,
the row with the extreme value; otherwise the first row that matches the most question
terms.
The quote stays the row's exact text; what the answer shows pairs each cell with its
column name, so the row reads on its own.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["TableRow", "answering_row"]

_HIGHEST = frozenset({"largest", "biggest", "highest", "most", "max", "maximum", "greatest", "top"})
_LOWEST = frozenset({"smallest", "lowest", "least", "min", "minimum", "fewest", "cheapest"})
_WORD = re.compile(r"[a-z0-9]+")
_MIN_COLUMNS = 2


@dataclass(frozen=True, slots=True)
class TableRow:
    """A row of a table passage: where it is in the passage, and how it reads."""

    start: int
    end: int
    shown: str
    """``column: value`` pairs, e.g. ``region: South, budget_eur: 340000``."""


def _words(text: str) -> set[str]:
    return set(_WORD.findall(text.lower()))


def _matches(column: str, terms: set[str]) -> bool:
    """Whether a column name holds a question term (``budget_eur`` for "budget")."""
    return any(
        w in terms or any(w.startswith(t) for t in terms if len(t) > 3) for w in _words(column)
    )


def _number(cell: str) -> float | None:
    try:
        return float(cell.replace(",", "").replace("_", "").strip().rstrip("%"))
    except ValueError:
        return None


def answering_row(text: str, question: str, terms: Sequence[str]) -> TableRow | None:
    """The row of ``text`` (a header-led table block) that answers ``question``; None
    when ``text`` is not such a block or no row matches."""
    lines = text.split("\n")
    if len(lines) < _MIN_COLUMNS:
        return None
    delimiter = "\t" if "\t" in lines[0] else ","
    try:
        parsed = list(csv.reader(lines, delimiter=delimiter))
    except csv.Error:
        return None
    header, rows = parsed[0], parsed[1:]
    if len(header) < _MIN_COLUMNS or any(len(r) != len(header) for r in rows) or not rows:
        return None
    offsets, at = [], 0
    for line in lines:
        offsets.append((at, at + len(line)))
        at += len(line) + 1
    wanted = set(terms)
    asked = _words(question)
    chosen = None
    direction = 1 if asked & _HIGHEST else -1 if asked & _LOWEST else 0
    if direction:
        for column, name in enumerate(header):
            values = [_number(r[column]) for r in rows]
            if _matches(name, wanted) and all(v is not None for v in values):
                chosen = max(range(len(rows)), key=lambda i: direction * (values[i] or 0.0))
                break
    if chosen is None:
        scores = [len(_words(" ".join(r)) & wanted) for r in rows]
        if max(scores) == 0:
            return None
        chosen = scores.index(max(scores))  # the first of equals, as a reader would
    start, end = offsets[chosen + 1]
    shown = ", ".join(f"{name}: {cell}" for name, cell in zip(header, rows[chosen], strict=True))
    return TableRow(start, end, shown)
