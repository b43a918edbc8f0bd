"""A PDF page's text as pypdf gives it, made readable: without the lines the document
repeats at its pages' edges (a running header, a page number), and with its tables read as
tables, from the page's layout where the text has their cells in the same order.

Both need more than the page's layout-free text: the pages around it (running lines), and
the page's layout (tables), which :func:`page_blocks` asks pypdf for only when the text
may hold a table.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator, Sequence
from itertools import pairwise, product
from typing import Any

from .tables import Table
from .tables import number as read_number

__all__ = ["page_blocks", "without_running_lines"]

_NUMBERS = re.compile(r"\d+")
_CELL_CHARS = 40
_CELL_LINES = 6
"""A PDF page with this many lines in a row of at most :data:`_CELL_CHARS` characters may
hold a table, its cells one a line (:func:`page_blocks`)."""
_LAID_CELLS = re.compile(r"\S+(?: \S+)*")
"""A cell of a laid-out line: text whose words are one blank apart."""
_MARK = re.compile(r"\d{1,2}")
"""A footnote's mark, raised over a header's cell ("MTBUR (FH)²")."""
_HEADER_LINES = 2
"""Lines above a laid-out table's first that may be its header's wrapped cells."""
_Laid = tuple[int, str]
"""A cell of a laid-out line: where it starts, and its text."""
_Row = list[list[str]]
"""A laid-out table's row: each cell's lines, top to bottom (none for an empty cell)."""
_TABLE_LINES = 3
_MIN_NUMBERS = 2
_MIN_CELLS = 3
"""A table of a laid-out page: this many lines at least, each of this many cells (two
would take a numbered heading, "2.1  ASN.1 syntax", or a bullet for cells)."""
_EDGE_LINES = 2
"""How many lines at the top and at the bottom of a PDF page may be its running header or
footer (a title and a date, a page number under a line of text)."""
_RUNNING_REACH = 2
"""How many pages away a running line is looked for: a book's left and right pages have
headers of their own."""
_PAGE_NUMBER_DIGITS = 4
"""The most digits of a page number standing alone on a PDF page's edge line."""


def page_blocks(
    text: str, page: Any, header: list[str] | None
) -> tuple[list[str | Table], list[str] | None]:
    """A PDF page's text with its tables as tables. The layout-free text has a table's
    cells one a line ("Region", "Month", ..., "South", "March", "58300", ...), so no row
    was ever quoted; pypdf's layout extraction shows the rows in aligned columns, but
    puts a two-column page's columns side by side. So a table is taken from the layout
    (:func:`_aligned_rows`) where the text has its cells in the same order
    (:func:`_run_of`), and the rest stays the text's. A table that starts a page under one
    as wide that ended the page before, its first row data (a number in it), takes that
    ``header``; the header of a table that ends this page is returned. Only a page that
    may hold a table (:func:`_may_hold_table`) is laid out, which costs 1.3 times the
    text's reading."""
    lines = text.split("\n")
    if not _may_hold_table(lines):
        return [text], None
    stripped = [line.strip() for line in lines]
    blocks: list[str | Table] = []
    at, last = 0, None
    for readings in _aligned_rows(page.extract_text(extraction_mode="layout") or "", stripped):
        found = next(
            ((run, laid) for laid in readings if (run := _run_of(stripped, laid, at))), None
        )
        if found is None:
            continue
        (start, end), laid = found
        rows = _grouped([[" ".join(cell) for cell in row] for row in laid])
        data = any(read_number(cell) for cell in rows[0])  # no header of its own
        if start == 0 and header is not None and len(header) == len(rows[0]) and data:
            rows = [header, *rows]
        blocks += ["\n".join(lines[at:start]), Table(rows, numbered=True)]
        at, last = end, rows[0]
    rest = "\n".join(lines[at:])
    return [*blocks, rest], (last if not rest.strip() else None)


def _may_hold_table(lines: list[str]) -> bool:
    """Whether a page's text has a run of :data:`_CELL_LINES` short lines (a table's cells,
    one a line), or of :data:`_TABLE_LINES` lines of as many words, two of them numbers
    at least (a table's rows, one a line): prose has neither."""
    short = [len(line.strip()) <= _CELL_CHARS for line in lines]
    if any(all(short[i : i + _CELL_LINES]) for i in range(len(lines) - _CELL_LINES + 1)):
        return True
    shapes = []
    for line in lines:
        words = line.split()
        numbers = sum(read_number(word) is not None for word in words)
        shapes.append(len(words) if numbers >= _MIN_NUMBERS and len(words) >= _MIN_CELLS else 0)
    runs = (shapes[i : i + _TABLE_LINES] for i in range(len(shapes) - _TABLE_LINES + 1))
    return any(run[0] and len(set(run)) == 1 for run in runs)


def _aligned_rows(layout: str, lines: Sequence[str]) -> Iterator[list[list[_Row]]]:
    """The tables of a page's layout text, each as the readings of its rows that
    :func:`_readings` gives: runs of :data:`_TABLE_LINES` rows at least (blank lines
    aside) under a first line of :data:`_MIN_CELLS` cells or more (:func:`_laid_cells`,
    with the page's text ``lines``), each line with as many cells, or with fewer that
    stand under its columns (:func:`_placed`). The lines right above a run whose cells
    stand under its columns, no number among them but a footnote's mark, may be its
    header's wrapped cells (in a header centred over several lines, the first may fill
    most of the columns).
    """
    run: list[tuple[bool, _Row]] = []
    lead: list[tuple[bool, _Row]] = []
    starts: list[int] = []
    above: list[list[_Laid]] = []
    following: dict[str, set[str]] = {}
    for line, after in pairwise(lines):
        following.setdefault(line, set()).add(after)
    for line in [*layout.split("\n"), ""]:
        found = _laid_cells(line, following)
        if not found and not line.strip():
            continue
        placed = _placed(found, starts) if run else None
        if placed is not None:
            run.append(placed)
            if len(found) == len(starts):  # a column starts where its leftmost cell does
                starts = [min(at, start) for (at, _), start in zip(found, starts, strict=True)]
        else:
            if sum(own for own, _ in run) >= _TABLE_LINES:
                yield _readings(run, lead, lines)
            run, lead, starts = [], [], [at for at, _ in found]
            if len(found) >= _MIN_CELLS:
                run = [(True, [[cell] for _, cell in found])]
                for cells in (_placed(cells, starts) for cells in reversed(above)):
                    if cells is None or _holds_number(cells[1], marks=False):
                        break
                    lead.insert(0, (False, cells[1]))
        above = [*above, found][-_HEADER_LINES:]
    if sum(own for own, _ in run) >= _TABLE_LINES:
        yield _readings(run, lead, lines)


def _laid_cells(line: str, following: dict[str, set[str]]) -> list[_Laid]:
    """The cells of a laid-out line, where each starts: text two spaces or more apart, a
    text that is two lines of the page's text in a row taken apart (a header's cell wider
    than its column runs into the next one: "Annual spend (USD)Risk")."""
    found: list[_Laid] = []
    for m in _LAID_CELLS.finditer(line):
        cell = m[0]
        apart = next(
            (k for k in range(1, len(cell)) if cell[k:].lstrip() in following.get(cell[:k], ())),
            None,
        ) if cell not in following else None  # fmt: skip
        if apart is None:
            found.append((m.start(), cell))
        else:
            rest = cell[apart:].lstrip()
            found += [(m.start(), cell[:apart]), (m.end() - len(rest), rest)]
    return found


def _placed(found: list[_Laid], starts: list[int]) -> tuple[bool, _Row] | None:
    """A laid-out line's cells under a table's columns (``starts``: where the leftmost cell
    of each starts in its lines of all cells; a column reaches to the next one's start),
    and whether it is a row of its own; None for a line that is no part of the table.

    A line with as many cells is a row. One with fewer is read by where its cells stand:
    each in the column it overlaps most, by half its width at least, and in two columns
    at most (a header's cells are centred, numbers set right), each column one cell at
    most. It is a row with empty cells when it fills more than half of the columns
    ("INC-102  Search  (no duration)  Index rebuild stalled"), or half with a number (a
    report's "  February    490" under "North"); else it holds the lines of wrapped
    cells (a wrapped note may end with a year), a part of the row above or below.
    """
    if len(found) == len(starts):
        return True, [[cell] for _, cell in found]
    if not found or len(found) > len(starts):
        return None
    edges = [-(10**9), *starts[1:], 10**9]
    cells: _Row = [[] for _ in starts]
    for at, cell in found:
        end = at + len(cell)
        overlaps = [min(end, hi) - max(at, lo) for lo, hi in pairwise(edges)]
        column = max(range(len(starts)), key=overlaps.__getitem__)
        if cells[column] or 2 * overlaps[column] < len(cell) or sorted(overlaps)[-3] > 0:
            return None  # a column's at most, or a line of prose across the table
        cells[column] = [cell]
    filled = [cell[0] for cell in cells if cell]
    half = 2 * len(filled) - len(starts)
    return half > 0 or (half == 0 and any(read_number(c) for c in filled)), cells


def _readings(
    run: list[tuple[bool, _Row]], lead: list[tuple[bool, _Row]], lines: Sequence[str]
) -> list[list[_Row]]:
    """The ways to read a table's laid-out lines as rows, the likeliest first: the lines of
    wrapped cells (not rows of their own) join the row above, or the row below (a table
    whose cells sit at their bottom, as ReportLab's do), or the row above without those
    after the last row (a note under the table); the lines between the first and the
    first that holds a number may be the header's wrapped cells ("Duration" over "in
    minutes"), and so may the ``lead`` lines above the first. Last, the rows the page's
    text ``lines`` give in their order (:func:`_text_ordered`: cells centred in their
    rows, whose wrapped lines stand above and below), without the ``lead`` lines if it
    can (a sentence's last line over the table is no header), and without the lines under
    its last row if it can (a caption). Which one the page's text holds in its order
    decides (:func:`_run_of`)."""
    numbered = next((i for i, (_, cells) in enumerate(run) if _holds_number(cells)), 0)
    headed = [(own and not 0 < i < numbered, cells) for i, (own, cells) in enumerate(run)]
    found: list[list[_Row]] = []
    for top in ([], lead) if lead else ([],):
        for laid in (run, headed) if headed != run else (run,):
            for below, trailing in ((False, True), (True, False), (False, False)):
                rows = _joined([*top, *laid], below=below, trailing=trailing)
                if rows not in found:
                    found.append(rows)
    last = max(i for i, (own, _) in enumerate(run) if own)
    for top in ([], lead) if lead else ([],):
        # without the lines under the last row first: a note under the table stays text
        for laid in (run[: last + 1], run) if last + 1 < len(run) else (run,):
            ordered = _text_ordered([cells for _, cells in [*top, *laid]], lines)
            if ordered is not None and ordered not in found:
                return [*found, ordered]
    return found


def _text_ordered(laid: list[_Row], lines: Sequence[str]) -> list[_Row] | None:
    """The rows of a table's laid-out lines as the page's text ``lines`` give its cells:
    one after the other, each cell's lines together, row by row. A cell centred in its
    row ("VALIGN MIDDLE") has wrapped lines above its row's line and below it, among
    those of the rows around, so no joining of whole lines reads it; the text's order
    does. Each text line is the next line of one column (the layout's ``laid`` lines give
    the column): the first to the right on the same line, else the cell's own when it
    stands right under the cell's last line ("7" and "7" side by side, over a "7"), else
    the first column to the right, else it starts a row. None when the text holds no
    such order from the first line of any column."""
    pieces = [
        [(number, cells[column][0]) for number, cells in enumerate(laid) if cells[column]]
        for column in range(len(laid[0]))
    ]
    count = sum(map(len, pieces))
    firsts = {column[0][1] for column in pieces if column}
    for start in (at for at, line in enumerate(lines) if line in firsts):
        rows: list[_Row] = []
        taken = [0] * len(pieces)
        column, last = len(pieces), -1
        for line in lines[start : start + count]:
            fits = {c: n for c, held in enumerate(pieces) if (n := _fits(held[taken[c] :], line))}
            if not fits:
                break
            right = [c for c in fits if c > column]
            beside = [c for c in right if pieces[c][taken[c]][0] == last]
            if not beside and column in fits and pieces[column][taken[column]][0] == last + 1:
                rows[-1][column].append(line)
            else:
                column = (beside or right or list(fits))[0]
                if not right:
                    rows.append([[] for _ in pieces])
                rows[-1][column].append(line)
            taken[column] += fits[column]
            last = pieces[column][taken[column] - 1][0]
        if taken == [len(held) for held in pieces]:
            return rows
    return None


def _fits(pieces: list[tuple[int, str]], line: str) -> int:
    """How many of a column's next laid-out ``pieces`` the page's text ``line`` is: the
    next one, or the one after it with the footnote mark set above it (the layout's "2"
    over "(FH)", the text's "(FH)2"); 0 for none."""
    if pieces and pieces[0][1] == line:
        return 1
    marked = len(pieces) > 1 and _MARK.fullmatch(pieces[0][1])
    return 2 if marked and pieces[1][1] + pieces[0][1] == line else 0


def _grouped(rows: list[list[str]]) -> list[list[str]]:
    """A table's rows with the empty first cells of its data rows filled from the row
    above, when its first column names each group once, over rows of which half at least
    leave it empty (a report's "North" over its three months): "What was North's revenue
    in February?" finds the row that says so. A list whose first cell is missing here and
    there (an unnamed incident) is left as it is."""
    firsts = [row[0] for row in rows[1:] if row[0]]
    if 2 * len(firsts) > len(rows) - 1 or len(set(firsts)) < len(firsts):
        return rows
    filled = [rows[0]]
    for row in rows[1:]:
        above = filled[-1][0] if len(filled) > 1 else ""
        filled.append(row if row[0] or not above else [above, *row[1:]])
    return filled


def _holds_number(cells: _Row, *, marks: bool = True) -> bool:
    """Whether a laid-out line's cells hold a number (``marks``: a footnote's mark counts)."""
    return any(
        read_number(piece) and (marks or not _MARK.fullmatch(piece))
        for cell in cells
        for piece in cell
    )


def _joined(lines: list[tuple[bool, _Row]], *, below: bool, trailing: bool) -> list[_Row]:
    """The rows of a table's lines, each line that is no row of its own joined to the row
    above (``below``: to the row below; those above the first row join it), those after
    the last row kept (``trailing``, to the row above)."""
    rows: list[_Row] = []
    waiting: list[_Row] = []
    for own, cells in lines:
        if not own:
            waiting.append(cells)
            continue
        if below or not rows:
            for before in reversed(waiting):
                cells = [more + kept for kept, more in zip(cells, before, strict=True)]
        else:
            rows[-1] = _appended(rows[-1], waiting)
        rows.append(cells)
        waiting = []
    if rows and trailing and not below:
        rows[-1] = _appended(rows[-1], waiting)
    return rows


def _appended(row: _Row, lines: list[_Row]) -> _Row:
    for after in lines:
        row = [kept + more for kept, more in zip(row, after, strict=True)]
    return row


def _run_of(lines: list[str], rows: list[_Row], at: int) -> tuple[int, int] | None:
    """Where, from line ``at``, ``lines`` hold ``rows`` in order, a line of a cell a line
    (empty cells, which the text leaves out, aside), or a row a line under a header of
    words (matplotlib's tables; a struct's layout, "4 CARD32 ALIAS_LIST_OFFSET", reads
    well as it is): the first line and the one after the last. A page's first or last
    lines may be missing (:func:`without_running_lines` took a cell that the page
    before or after also has at its edge, "setosa", for a running line)."""
    shapes = [[piece for row in rows for cell in row for piece in cell]]
    if not _holds_number(rows[0]):
        shapes.append([" ".join(piece for cell in row for piece in cell) for row in rows])
    for shape in shapes:
        for head, tail in sorted(product(range(_EDGE_LINES + 1), repeat=2), key=sum):
            held = shape[head : len(shape) - tail]
            for start in range(at, len(lines) - len(held) + 1):
                end = start + len(held)
                at_edge = (start == 0 or not head) and (end == len(lines) or not tail)
                if at_edge and lines[start:end] == held:
                    return start, end
    return None


def without_running_lines(pages: list[str]) -> list[str]:
    """The pages without the lines a PDF repeats at their edges, as a Word document's
    headers and footers are left out: a page number alone (a number that is the page's
    own plus the offset of another page's), and a line that a page :data:`_RUNNING_REACH`
    or less away has at the same place from its top or bottom, its numbers aside
    ("Chapter 4: Function reference 9", then "... 10"); a line that repeats as it is stays
    on the first page that has it (a title, a table's header row). A line further in is
    looked at only when the one outside it went (a header of two lines): two functions'
    entries that end alike stay. Each page of a manual otherwise began with its running
    header, which was quoted as evidence ("Chapter 2: ASN.1 structure handling 3")."""
    lines = [page.split("\n") for page in pages]
    edges = [_edges(page) for page in lines]
    offsets = Counter(
        int(page[i]) - number
        for number, (page, found) in enumerate(zip(lines, edges, strict=True))
        for i in found.values()
        if _page_number(page[i])
    )
    shown = [{place: " ".join(page[i].split()) for place, i in found.items()}
             for page, found in zip(lines, edges, strict=True)]  # fmt: skip
    keys = [{place: _NUMBERS.sub("#", line) for place, line in found.items()} for found in shown]
    seen: set[tuple[int, str]] = set()
    out = []
    for number, page in enumerate(lines):
        near = [
            other
            for other in range(number - _RUNNING_REACH, number + _RUNNING_REACH + 1)
            if 0 <= other < len(pages) and other != number
        ]
        dropped: set[int] = set()
        for side in (range(_EDGE_LINES), range(-1, -1 - _EDGE_LINES, -1)):
            for place in side:  # from the edge inwards, while lines repeat
                if place not in edges[number]:
                    break
                i, key = edges[number][place], keys[number][place]
                if _page_number(page[i]):
                    running = offsets[int(page[i]) - number] > 1
                else:
                    alike = [shown[n][place] for n in near if keys[n].get(place) == key]
                    paged = any(line != shown[number][place] for line in alike)
                    running = bool(alike) and ((place, key) in seen or paged)
                if not running:
                    break
                dropped.add(i)
        seen.update(keys[number].items())
        out.append("\n".join(line for i, line in enumerate(page) if i not in dropped).strip())
    return out


def _edges(page: list[str]) -> dict[int, int]:
    """A page's first and last :data:`_EDGE_LINES` lines that hold text, by their place:
    0, 1, ... from the top, -1, -2, ... from the bottom."""
    filled = [i for i, line in enumerate(page) if line.strip()]
    top = dict(enumerate(filled[:_EDGE_LINES]))
    bottom = {-1 - place: i for place, i in enumerate(reversed(filled[-_EDGE_LINES:]))}
    return {**bottom, **{p: i for p, i in top.items() if i not in bottom.values()}}


def _page_number(line: str) -> bool:
    """Whether ``line`` is a number alone, in ASCII digits (``int`` reads no "²")."""
    bare = line.strip()
    return bare.isascii() and bare.isdigit() and len(bare) <= _PAGE_NUMBER_DIGITS
