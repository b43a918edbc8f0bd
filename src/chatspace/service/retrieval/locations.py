"""Where a passage, or a quote in it, stands in its file (docs/interface.md#locations).

Extraction marks the text it makes (:mod:`.extract`): a :data:`Mark` says that from its
offset on, the text is at its place (a PDF page, a slide, a notebook cell, a sheet): the
keys of a :class:`~chatspace.types.Location` as a plain dict, which a file's thousands of
passages store and read cheaply. A place with a ``line`` or a ``row`` goes up by one at
each line break after its mark: a text file's lines, a table's data rows (one per line,
:mod:`.tables`). An empty place (a table's header line, a part of a file nothing
locates) says "nowhere".

Each passage keeps the marks of its own text (:func:`passage_marks`): the one in force
where it starts, moved to offset 0, then those inside it. So the location of any offset
in a passage, a quote's start in particular, follows from the passage alone
(:func:`quote_location`), in search hits, citations and a completion's sources alike.
Passages stored before migration ``m010_passage_locations`` have no marks: no location.
"""

from __future__ import annotations

import json
from bisect import bisect_right
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from chatspace.types import Location

if TYPE_CHECKING:
    from .search import Passage

__all__ = ["Mark", "Place", "marks_from_json", "passage_marks", "quote_location"]

Place = dict[str, Any]
"""A location's keys that apply (``{"sheet": "Targets", "row": 3}``), as a plain dict."""
Mark = tuple[int, Place]
"""``(offset, place)``: from ``offset`` on, the text is at ``place``."""
_COUNTED = ("line", "row")


def _advanced(place: Place, breaks: int) -> Place:
    """``place`` ``breaks`` line breaks further on: its line or row that much higher."""
    for key in _COUNTED:
        if key in place and breaks:
            return {**place, key: place[key] + breaks}
    return place


def _counts(place: Place) -> bool:
    return "line" in place or "row" in place


def passage_marks(
    text: str, marks: Sequence[Mark], passages: Sequence[tuple[int, str]]
) -> list[tuple[Mark, ...]]:
    """The marks of each passage ``(start, passage)`` of ``text`` (marked by ``marks``,
    in offset order), relative to the passage's start.

    Line breaks are counted from the previous passage's start when the same mark governs
    both, so a text file of many passages is counted once through, not once per passage.
    """
    offsets = [offset for offset, _ in marks]
    found: list[tuple[Mark, ...]] = []
    counted: tuple[int, int, int] | None = None  # (mark index, up to offset, breaks)
    for start, passage in passages:
        i = bisect_right(offsets, start) - 1
        own: list[Mark] = []
        if i >= 0:
            at, place = marks[i]
            if _counts(place):
                since, breaks = at, 0
                if counted is not None and counted[0] == i and counted[1] <= start:
                    since, breaks = counted[1], counted[2]
                breaks += text.count("\n", since, start)
                counted = (i, start, breaks)
                place = _advanced(place, breaks)
            own.append((0, place))
        end = start + len(passage)
        j = i + 1
        while j < len(marks) and marks[j][0] < end:
            own.append((marks[j][0] - start, marks[j][1]))
            j += 1
        found.append(tuple(own))
    return found


def quote_location(passage: Passage, start: int) -> Location | None:
    """Where the text of ``passage`` at offset ``start`` (a quote's first character) is
    in its file; None where nothing says (a file kind without locations, a table's
    header line, a passage stored before locations were)."""
    marks = passage.locations
    i = bisect_right([offset for offset, _ in marks], start) - 1
    if i < 0:
        return None
    at, place = marks[i]
    if _counts(place):
        place = _advanced(place, passage.text.count("\n", at, start))
    return Location(**place) if place else None


def marks_from_json(value: Any) -> tuple[Mark, ...]:
    """Marks read back from the ``passages.locations`` column, which stores them as
    ``[[0, {"page": 2}], ...]`` (JSON text on SQLite, a list on PostgreSQL; null for a
    passage stored before locations were: no marks)."""
    if isinstance(value, str):
        value = json.loads(value)
    return tuple((int(offset), dict(place)) for offset, place in value or ())
