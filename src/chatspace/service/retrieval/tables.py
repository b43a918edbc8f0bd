"""Tables as text: rows in blocks that each begin with the header, so that every passage,
and every quote of one, reads its rows with their column names.

Cut like prose, a long CSV puts its header in the first passage only, and a question
such as "Which region has the largest budget?" finds that header and never the row. Here
a table's text is a series of blocks, a blank line apart, each its header line and as many
whole rows as fit in about :data:`~.indexing.PASSAGE_CHARS` characters; each block is one
passage, so passages stay exact slices of the text (``start`` is where the block begins)
and a quote the local engine joins from the header and a row is text of the file. Rows are
written as CSV (cells with the delimiter, a quote or a newline are quoted).

A two-column table without a header row (a contract's "Contract owner | Maria Keller",
"Renewal | Automatic ...") is no table of records but a list of facts: it reads as
``key: value`` lines (:func:`key_value_text`), so that each fact is quoted on its own.

A JSON array of flat records (vega's datasets, ``DataFrame.to_json(orient="records")``) is
a table (:func:`records_table`): its keys are the header. Any other array of objects needs
no header: each record carries its keys. Its text stays the file's own, and its passages
are runs of whole records (:func:`records_piece`).
"""

from __future__ import annotations

import csv
import datetime
import io
import itertools
import json
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TypeGuard

from .locations import Mark
from .terms import month_number

__all__ = [
    "ANY_YEAR",
    "COMPUTATIONS",
    "COMPUTING",
    "CONTROL",
    "COUNTING",
    "DATES",
    "MAX_CELLS",
    "MAX_CELL_CHARS",
    "MAX_COLUMNS",
    "MAX_ROWS",
    "MEASURES",
    "SUMMING",
    "TABLE_COLUMNS",
    "TABLE_OVERVIEW",
    "TABLE_ROWS",
    "TABLE_SPAN",
    "Piece",
    "Table",
    "abbreviates",
    "asks_computation",
    "asks_overview",
    "asks_shape",
    "block_header",
    "comma_numbers",
    "computing_words",
    "date_span",
    "dates_in",
    "header_start",
    "key_value_text",
    "name_words",
    "names_the_table",
    "number",
    "records_piece",
    "records_table",
    "rows_of",
    "stacked_tables",
]

COMPUTATIONS: Mapping[str, frozenset[str]] = {
    "sum": frozenset({"total", "sum", "overall", "combined", "altogether"}),
    "mean": frozenset({"average", "mean", "avg"}),
    "median": frozenset({"median"}),
    "std": frozenset({"deviation", "std", "stdev"}),
    "share": frozenset({"percentage", "percent", "proportion", "share", "fraction"}),
    "count": frozenset({"count", "number"}),
    "max": frozenset(
        {"largest", "biggest", "highest", "most", "max", "maximum", "greatest", "top"}
        | {"longest", "widest", "tallest", "heaviest", "oldest", "strongest", "fastest"}
        | {"hottest", "warmest", "wettest", "northernmost", "easternmost"}
    ),
    "min": frozenset(
        {"smallest", "lowest", "least", "min", "minimum", "fewest", "cheapest"}
        | {"shortest", "narrowest", "lightest", "youngest", "weakest", "slowest"}
        | {"coldest", "coolest", "driest", "southernmost", "westernmost"}
    ),
    "earliest": frozenset({"earliest", "first"}),
    "latest": frozenset({"latest", "last", "newest"}),
    "difference": frozenset(
        {"difference", "gap", "variance", "minus", "vs", "versus", "overrun", "overruns"}
        | {"overspend", "overspent", "overspending", "underspend", "underspent"}
    ),
}
"""The words that ask for a computation over a table's rows, by what they ask
(``engines/table_rows.py`` computes it). No cell need say them: a table's passage is
judged by the question's other words (:mod:`.search`)."""
COMPUTING = frozenset().union(*COMPUTATIONS.values())
MEASURES: Mapping[str, tuple[str, ...]] = {
    "longest": ("length", "duration"), "shortest": ("length", "duration"), "widest": ("width",),
    "narrowest": ("width",), "tallest": ("height",), "heaviest": ("weight", "mass"),
    "lightest": ("weight", "mass"), "oldest": ("age",), "youngest": ("age",),
    "fastest": ("speed",), "slowest": ("speed",), "hottest": ("temperature",),
    "warmest": ("temperature",), "coldest": ("temperature",), "coolest": ("temperature",),
    "northernmost": ("latitude",), "southernmost": ("latitude",),
    "easternmost": ("longitude",), "westernmost": ("longitude",),
    "older": ("age",), "younger": ("age",), "wettest": ("precipitation", "rainfall"),
    "driest": ("precipitation", "rainfall"),
}  # fmt: skip
"""A superlative (or a comparison) that says which measure it is extreme in (the words
that may name it): "the longest petal" names the column ``petal_length``, not
``petal_width``; "the heaviest penguin", ``body_mass_g``; "the coldest day",
``temp_min``; "the longest incident", ``Duration (min)``; "victims older than 50",
``age``."""
TABLE_ROWS = frozenset({"rows", "records", "entries", "observations"})
TABLE_COLUMNS = frozenset({"columns", "fields", "variables"})
TABLE_SPAN = frozenset({"days", "dates", "period", "span"})
"""The words that ask about a table itself, its rows or its columns ("How many rows does
the table have?", "What columns does it have?"), or the stretch of time its rows cover
("How many trading days does it cover?", "What period does the table cover?"): no cell
says them either."""
TABLE_OVERVIEW = frozenset(
    {"describe", "description", "summary", "summarise", "summarize", "overview"}
)
"""The words that ask what a table holds as a whole ("Describe the data"): its columns,
its rows, the time they span."""
_HOLDS = re.compile(r"\b(?:contain|contains|hold|holds)\b|\bwhat(?:'s|\s+is|\s+are)\s+in\b", re.I)
"""What asks it too of "it" or of :data:`THE_TABLE` ("What does this table contain?",
"What is in the data?"), and of nothing else ("Which process holds the lock?")."""
_IT = re.compile(r"\bit\b", re.I)
COUNTING = frozenset({"how many", "number of"})
SUMMING = frozenset({"how much"})
"""Pairs of words that ask for a count of rows, or for an amount."""
_STANDARD_DEVIATION = re.compile(r"\bstandard\s+deviation\b", re.I)
_MEANS = re.compile(r"\b(?:does|do|did)\b[^.?!]*\bmean\b", re.I)
"""The verb, not the average: "What does the state 'idle in transaction' mean?"."""
_WORDS = re.compile(r"[^\W\d_]+")
_NAME_WORD = re.compile(r"[^\W\d_][^\W_]*")


def computing_words(question: str) -> frozenset[str]:
    """The words of ``question`` that ask for a computation over a table's rows: those of
    :data:`COMPUTING`, and the "standard" of "standard deviation"."""
    found = {w.lower() for w in _WORDS.findall(question)} & COMPUTING
    found -= {"mean"} if _MEANS.search(question) else set()
    # the period a computation is of: "the average *monthly* quantity", "per *year*"
    found |= {(m[1] or m[2]).lower() for m in _PER_PERIOD.finditer(question)} if found else set()
    return frozenset(found | ({"standard"} if _STANDARD_DEVIATION.search(question) else set()))


_PER_PERIOD = re.compile(
    r"\b(?:per|by|each|every)\s+(month|year|quarter|week)\b"
    r"|\b(monthly|yearly|annual|annually|quarterly|weekly)\b",
    re.I,
)


CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
"""Control characters, which extracted text never keeps (each becomes a space): NUL in
particular, which PostgreSQL's ``text`` cannot hold."""

MAX_ROWS = 100_000
"""Rows read of one table (a sheet, a CSV, a Parquet file); the rest has no text."""
MAX_COLUMNS = 256
"""Cells kept of a row."""
MAX_CELLS = 2_000_000
"""Cells read of one table, padding included: a sheet that claims 16384 columns per row
stops after ~120 rows instead of making billions of empty cells."""
MAX_CELL_CHARS = 2_000
"""Characters kept of one cell."""
PREAMBLE_ROWS = 20
"""Rows looked at for the header: those of one cell above it are the table's title."""
_MIN_CELLS = 2
"""Cells of a table's header, and lines of a block of its rows (the header and a row)."""


@dataclass(frozen=True, slots=True)
class Piece:
    """A stretch of a document's text with its passages (``(offset in text, passage)``)
    and, where it knows them itself, the locations of its text (:mod:`.locations`)."""

    text: str
    passages: tuple[tuple[int, str], ...]
    marks: tuple[Mark, ...] = ()


@dataclass(frozen=True, slots=True)
class Table:
    """A table as a reader sees it: rows of cells; the first row with text is the header.

    ``title`` (a sheet's name) leads the first block. ``delimiter`` is the one rows are
    written with: a TSV stays tab-separated, everything else is comma-separated.
    ``numbered``: the table is the file's data (a sheet, a CSV, a Parquet file), so its
    passages say which data row each line is (``row`` n is n rows below the header row,
    blank rows counted as the sheet shows them) and, with a ``title``, which sheet.
    """

    rows: Iterable[Sequence[object]]
    title: str | None = None
    delimiter: str = ","
    numbered: bool = False

    def piece(self, *, size: int, max_chars: int) -> Piece | None:
        """The table's text in header-led blocks of about ``size`` characters, at most
        ``max_chars`` in all; None for a table without a cell of text. The title and the
        row of one cell above the header (:func:`_preamble`) lead the first block; rows
        of one cell above it, several, are a passage of their own before it (a sheet's
        notes), with the title."""
        said, below = _preamble(self.rows)
        lines = self._lines(_stacked_header(below))
        first = next(lines, None)
        if first is None:
            return None
        top, header = first
        # a note of several lines above the table is text of its own, at the sheet: led
        # by the header, its sentences were read as a table's and never quoted
        note = "\n".join(line for line in [self.title, *said] if line) if len(said) > 1 else ""
        lead = "".join(f"{line}\n" for line in [self.title, *([] if note else said)] if line)
        blocks: list[list[tuple[int, str]]] = []
        rows: list[tuple[int, str]] = []
        block_len, total = len(header), len(lead) + len(note)
        for number, line in lines:
            if rows and block_len + 1 + len(line) > size:
                blocks.append(rows)
                total += block_len + 2
                rows, block_len = [], len(header)
            if total + block_len + 1 + len(line) > max_chars:
                break
            rows.append((number - top, line))
            block_len += 1 + len(line)
        blocks.append(rows)
        passages: list[tuple[int, str]] = [(0, note)] if note else []
        sheet = {"sheet": self.title} if self.title else {}
        marks: list[Mark] = [(0, sheet)] if note and self.numbered else []
        offset = len(note) + 2 if note else 0
        for i, block in enumerate(blocks):
            head = (lead if i == 0 else "") + header
            text = "\n".join([head, *(line for _, line in block)])
            passages.append((offset, text))
            if self.numbered:
                marks += self._marks(offset, offset + len(head) + 1, block)
            offset += len(text) + 2
        return Piece("\n\n".join(text for _, text in passages), tuple(passages), tuple(marks))

    def _marks(self, start: int, at: int, block: list[tuple[int, str]]) -> list[Mark]:
        """The marks of a block at ``start`` whose data lines start at ``at``: its header
        (no row: nowhere, unless on a named sheet), then each run of consecutive rows."""
        sheet = {"sheet": self.title} if self.title else {}
        marks: list[Mark] = [(start, sheet)]
        previous = None
        for row, line in block:
            if previous is None or row != previous + 1:
                marks.append((at, {**sheet, "row": row}))
            previous = row
            at += len(line) + 1
        return marks

    def _lines(self, rows: Iterable[Sequence[object]]) -> Iterator[tuple[int, str]]:
        """Each row with a cell of text as one CSV line, within the bounds above, with its
        place among the rows read. Empty cells at a row's end are left out, but a row keeps
        as many cells as the widest row before it (the header, past a sheet's title row):
        "1990-02-05,,,,,,,,,," is a row of the table whose prices are missing, where
        "1990-02-05" alone was no row of it at all."""
        out = io.StringIO()
        writer = csv.writer(out, delimiter=self.delimiter, lineterminator="")
        cells = 0
        width = 0
        for number, row in enumerate(rows):
            cells += len(row)
            if number >= MAX_ROWS or cells > MAX_CELLS:
                return
            texts = [_cell(value) for value in row[:MAX_COLUMNS]]
            while len(texts) > width and not texts[-1]:
                texts.pop()
            if not any(texts):
                continue
            width = max(width, len(texts))
            texts += [""] * (width - len(texts))
            out.seek(0)
            out.truncate()
            writer.writerow(texts)
            yield number, out.getvalue()


def asks_shape(question: str) -> bool:
    """Whether ``question`` asks about a table's rows or columns themselves, the time its
    rows span, or what it holds (:func:`asks_overview`)."""
    words = {w.lower() for w in _WORDS.findall(question)}
    return bool(words & (TABLE_ROWS | TABLE_COLUMNS | TABLE_SPAN)) or asks_overview(question)


def asks_overview(question: str) -> bool:
    """Whether ``question`` asks what a table holds as a whole (:data:`TABLE_OVERVIEW`,
    "What is in the table?")."""
    words = {w.lower() for w in _WORDS.findall(question)}
    pointed = names_the_table(question) or _IT.search(question) is not None
    return bool(words & TABLE_OVERVIEW) or (pointed and _HOLDS.search(question) is not None)


ABBREVIATION_CHARS = 4
"""A word of a column's name at least this long names the column when a question word
starts with it: "temperature" names ``temp_max`` (:func:`abbreviates`)."""
SHORT_ABBREVIATION_TERM = 8
"""A shorter word does when the question's word is at least this long: "population" names
``pop``, "expectancy" ``lifeExp``; "average" does not name ``age``."""
_CAMEL = re.compile(r"(?<=[a-z])(?=[A-Z])|(?<=[^\W\d_])(?=[A-Z][a-z])")


def abbreviates(word: str, term: str) -> bool:
    """Whether ``word`` of a column's name is the start of the question's ``term`` and long
    enough (:data:`ABBREVIATION_CHARS`, :data:`SHORT_ABBREVIATION_TERM`) to say it: "temp"
    of "temperature", "pop" of "population"."""
    long_enough = len(word) >= ABBREVIATION_CHARS or (
        len(word) > 2 and len(term) >= SHORT_ABBREVIATION_TERM
    )
    return (long_enough and term.startswith(word)) or _contracts(word, term)


_CONTRACTION = re.compile(r"[a-z][b-df-hj-np-tv-z]+y?")


def _contracts(word: str, term: str) -> bool:
    """Whether ``word`` is ``term`` with its vowels and some consonants left out, first and
    last letters kept: "qty" of "quantity", "amt" of "amount", "pct" of "percent" (not
    "set" of "select": a contraction keeps no vowel but its first letter)."""
    if len(word) < 3 or len(term) < len(word) + 2 or not _CONTRACTION.fullmatch(word):
        return False
    if word[0] != term[0] or word[-1] != term[-1]:
        return False
    rest = iter(term[1:])
    return all(letter in rest for letter in word[1:])


def name_words(name: str) -> list[str]:
    """The words of a column's name, lowercased, its camel case split as a reader splits
    it: ``lifeExp`` is "life" and "exp", ``gdpPercap`` "gdp" and "percap",
    ``Miles_per_Gallon`` "miles", "per" and "gallon"; a word's digits after a letter are
    its own ("H2 2024 Actual": "h2", which was "h", and "the total H2 actual" summed
    H1's)."""
    return [w.lower() for w in _NAME_WORD.findall(_CAMEL.sub(" ", name))]


THE_TABLE = re.compile(
    r"\b(?:the|this|that|my)\s+(?:table|spreadsheet|sheet|workbook|csv|tsv|data\s*set"
    r"|data\s*frame|data)\b",
    re.I,
)
"""How a question points at a table without naming its file ("How many rows does *the
table* have?", "What period does *the data* cover?")."""


def names_the_table(question: str) -> bool:
    """Whether ``question`` points at a table without naming it (:data:`THE_TABLE`): in a
    workspace with one table, that table."""
    return THE_TABLE.search(question) is not None


def asks_computation(question: str) -> bool:
    """Whether ``question`` asks for a value computed over a table's rows (a total, an
    average, a count, a share, ...): then the whole table is read (:mod:`.search`)."""
    words = [w.lower() for w in _WORDS.findall(question)]
    pairs = {" ".join(pair) for pair in itertools.pairwise(words)}
    return bool(computing_words(question) or pairs & (COUNTING | SUMMING))


_DAY = r"(?P<{d}>[0-3]?\d)(?:st|nd|rd|th)?"
_MONTH_WORD = r"(?P<{m}>[A-Za-z]{{3,9}})\.?"
DATES = re.compile(
    r"\b(?P<iso>\d{4}-\d{2}-\d{2})\b"
    rf"|\b{_DAY.format(d='d1')}\s+{_MONTH_WORD.format(m='m1')},?\s+(?P<y1>\d{{4}})\b"
    rf"|\b{_MONTH_WORD.format(m='m2')}\s+{_DAY.format(d='d2')},?\s+(?P<y2>\d{{4}})\b"
)
"""A date a question writes: ISO's "2024-01-06", or in words, "6 Jan 2024", "6th January
2024", "January 6, 2024"."""


_SPAN = re.compile(
    r"\b(?:between|from)\s+(?:the\s+)?(?P<first>[\w ,.-]{1,20}?)\s+(?:and|to|until|till|through)"
    r"\s+(?:the\s+)?(?P<last>[\w ,.-]{1,24})",
    re.I,
)
"""Days from one to another: "between 1 and 15 April 2025", "from 3 March to 9 May 2024",
"between 2024-01-01 and 2024-03-31"."""


ANY_YEAR = "0000"
"""The year of a stretch's days that a question writes without one ("between 11 and 24
August"): the days of any year are within it."""
_DAY_MONTH = re.compile(rf"{_DAY.format(d='d')}\s+{_MONTH_WORD.format(m='m')}(?!\s*,?\s*\d)")


def date_span(text: str) -> tuple[str, str] | None:
    """The first and last day of the stretch ``text`` writes (:data:`_SPAN`), as ISO dates;
    the first may leave out what the last says ("1" of "between 1 and 15 April 2025" is 1
    April 2025, "3 March" of "3 March to 9 May 2024" is of 2024), and both the year (of
    :data:`ANY_YEAR`). None when it writes none, or the first comes after the last."""
    for m in _SPAN.finditer(text):
        last = DATES.search(m["last"])
        ends = dates_in(last[0]) if last is not None and not last.start() else ()
        if not ends and (bare := _DAY_MONTH.match(m["last"])):  # "24 August"
            ends = dates_in(f"{bare[0]} {ANY_YEAR}")
        if not ends:  # no date first after "and" ("15 Foobar 2025" is none)
            continue
        end = ends[0]
        first = dates_in(m["first"]) or dates_in(f"{m['first']} {end[:4]}")
        if not first and m["first"].strip().isdigit():
            first = (f"{end[:8]}{int(m['first']):02d}",) if 0 < int(m["first"]) <= 31 else ()
        if first and first[0] <= end:
            return first[0], end
    return None


def dates_in(text: str) -> tuple[str, ...]:
    """The dates ``text`` writes (:data:`DATES`), as ISO dates: a table's days are written
    so ("2024-01-06"), a question's in words ("turbidity at Heron Point on 6 Jan 2024")."""
    found = []
    for m in DATES.finditer(text):
        if m["iso"]:
            found.append(m["iso"])
            continue
        day, month, year = (m["d1"], m["m1"], m["y1"]) if m["d1"] else (m["d2"], m["m2"], m["y2"])
        number = month_number(month)
        if number is not None and 0 < int(day) <= 31:
            found.append(f"{year}-{number:02d}-{int(day):02d}")
    return tuple(found)


def rows_of(lines: Sequence[str]) -> list[list[str]] | None:
    """The cells of ``lines`` read as a table's rows as :class:`Table` writes them (tab- or
    comma-separated, the first line the header); None unless there are two lines or more
    and every line has as many cells as the first, two or more."""
    if len(lines) < _MIN_CELLS:
        return None
    delimiter = "\t" if "\t" in lines[0] else ","
    try:
        rows = list(csv.reader(lines, delimiter=delimiter))
    except csv.Error:
        return None
    width = len(rows[0])
    return rows if width >= _MIN_CELLS and all(len(row) == width for row in rows) else None


def block_header(text: str) -> str | None:
    """The header line of ``text`` when it is a block of a table's rows that starts with it
    (a table of a document: a Word file's, a slide's), else None. Every block of such a
    table starts with the same line, which finds its others (:mod:`.search`)."""
    lines = text.split("\n")
    return lines[0] if rows_of(lines) is not None else None


def header_start(text: str, marks: Sequence[Mark]) -> int | None:
    """Where the header line of a block of a table's rows starts in its ``text``: the line
    before its first row (:meth:`Table._marks`); None for text that counts no rows (prose,
    a table of a document)."""
    first = next((offset for offset, place in marks if "row" in place), None)
    if first is None or first == 0:
        return None
    return text.rfind("\n", 0, first - 1) + 1


def _preamble(
    rows: Iterable[Sequence[object]],
) -> tuple[list[str], Iterator[Sequence[object]]]:
    """The rows of one cell above a table's header, each as a line, and the rows from the
    header on. A CSV's comment ("# Data source: https://finance.yahoo.com" atop
    matplotlib's ``Stocks.csv``) or a sheet's title row ("Sales report, first quarter")
    read as the header made the table one column wide, and no question was answered from
    it. Only the first :data:`PREAMBLE_ROWS` rows are looked at; a table of one column
    has none."""
    found = iter(rows)
    head = list(itertools.islice(found, PREAMBLE_ROWS))
    cells = [[_cell(value) for value in row[:MAX_COLUMNS]] for row in head]
    first = next((i for i, row in enumerate(cells) if sum(map(bool, row)) > 1), 0)
    said = [" ".join(c for c in row if c) for row in cells[:first]]
    return [line for line in said if line], itertools.chain(head[first:], found)


def _stacked_header(rows: Iterator[Sequence[object]]) -> Iterator[Sequence[object]]:
    """A table's header of two rows as one: a cell merged over several columns above the
    cells that divide it ("H1 2024" over "Budget" and "Actual") names each of them ("H1
    2024 Budget", "H1 2024 Actual"); a cell merged down is named once ("Workstream").
    Word repeats a merged cell in each column it spans; a sheet (and a CSV saved from it)
    has it in the first only, the others blank (:func:`_groups`). Read as it was, "Budget"
    and "Actual" were the first row of data, and "the total H1 2024 budget" named no
    column. A first row that says one thing across the table is its title, not this. The
    rows of a numbered table are counted from the lower row of such a header."""
    head = list(itertools.islice(rows, 2))
    top, under = ([_cell(v) for v in row] for row in [*head, [], []][:2])
    width = max(len(top), len(under))
    top, under = top + [""] * (width - len(top)), under + [""] * (width - len(under))
    named = any(under) and all(number(c) is None for c in under if c)
    spans = any(a and a == b for a, b in itertools.pairwise(top)) and len(set(top)) > 1
    if named and spans and len(head) == 2 and len(head[0]) == len(head[1]):
        joined = [
            a if a == b or not b else b if not a else f"{a} {b}"
            for a, b in zip(top, under, strict=True)
        ]
        return itertools.chain([joined], rows)
    groups = _groups(top, under) if named else None
    if groups is None:
        return itertools.chain(head, rows)
    return itertools.chain([groups], rows)


def _groups(top: Sequence[str], under: Sequence[str]) -> list[str] | None:
    """The names of a header whose top row names groups of columns by their first cell,
    blank over the rest of each ("Q1 2024", "", "Q2 2024", "" over "Cases", "Revenue
    (EUR)", ...), the row under it naming every column of a group and no other: each
    group's columns as "Q1 2024 Cases", "Q1 2024 Revenue (EUR)", the others as the top
    row names them ("Depot"); None for any other pair of rows."""
    names: list[str] = []
    group = ""
    grouped = False
    for i, (a, b) in enumerate(zip(top, under, strict=True)):
        starts = bool(a) and i + 1 < len(top) and not top[i + 1]
        if a and not starts:
            if b:  # a column alone, named again under it: no group header
                return None
            group = ""
            names.append(a)
            continue
        group = a or group
        if not group or not b:
            return None
        names.append(f"{group} {b}")
        grouped = True
    return names if grouped else None


def stacked_tables(rows: Iterable[Sequence[object]]) -> Iterator[Iterator[Sequence[object]]]:
    """The tables a sheet (or a CSV saved from one) stacks, each as its rows. A table
    starts after a blank row, at a row of two text cells or more that is not as wide as
    the header above it, or is that header again: a few parameters above the data, a
    second year's table below the first. Read as one table, the second's header was a row
    of data under the first's ("Account, Customer, Type" under "Parameter, Value"), and no
    question named its columns. Lazy, as the rows are: a table not read to its end (its
    text long enough) is the last."""
    cutter = _Cutter(iter(rows))
    first: list[Sequence[object]] = []
    while True:
        cutter.cut = None
        yield cutter.run(first)
        if cutter.cut is None:
            return
        first = [cutter.cut]


@dataclass
class _Cutter:
    rows: Iterator[Sequence[object]]
    cut: Sequence[object] | None = None
    """The header of the next table, once a table's rows have stopped before it."""

    def run(self, first: list[Sequence[object]]) -> Iterator[Sequence[object]]:
        # a row's cells are read as text only where it may head a table: the table's own
        # reading (:meth:`Table.piece`) reads every cell once more
        header: list[str] | None = None
        data = blank = False
        for row in itertools.chain(first, self.rows):
            if not any(value is not None and str(value).strip() for value in row):
                blank = data
            elif header is None:
                cells = _cells(row)
                header = cells if sum(map(bool, cells)) > 1 else None
            elif blank and _heads(row, header):
                self.cut = row
                return
            else:
                data, blank = True, False
            yield row


def _cells(row: Sequence[object]) -> list[str]:
    """A row's cells as text, without the empty ones after its last value."""
    cells = [_cell(value) for value in row[:MAX_COLUMNS]]
    while cells and not cells[-1]:
        cells.pop()
    return cells


def _heads(row: Sequence[object], header: list[str]) -> bool:
    """Whether a row after a blank one is another table's header (:func:`stacked_tables`)."""
    texts = [v for v in row if v is not None and str(v).strip()]
    if len(texts) < 2 or not all(isinstance(v, str) and number(v) is None for v in texts):
        return False
    cells = _cells(row)
    return len(cells) != len(header) or cells == header


def _cell(value: object) -> str:
    """A cell as text: integral floats without ``.0`` (spreadsheets store 1200000 so), a
    date and time at midnight as its date (a workbook's dates are datetimes: "2024-01-06",
    not "2024-01-06 00:00:00")."""
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, datetime.datetime) and value.time() == datetime.time():
        value = value.date()
    text = " ".join(str(value).split()) if isinstance(value, str) else str(value)
    return CONTROL.sub(" ", text[:MAX_CELL_CHARS])


# A number as tables write them: "58,300", "-1.5", "12%", "EUR 184,000", "$1,200.50".
_CURRENCY = r"(?:[$\u20ac\u00a3\u00a5]|\b(?:EUR|USD|GBP|CHF)\b)"
_NUMBER = re.compile(
    rf"(?P<sign>[-+\u2212])?\s*{_CURRENCY}?\s*"
    r"(?P<digits>\d{1,3}(?:,\d{3})+|\d+)(?P<fraction>\.\d+)?"
    rf"\s*(?:%|{_CURRENCY})?",
    re.IGNORECASE,
)
# A second column header that says "the values" rather than what they are.
_VALUE_HEADERS = frozenset(
    {"value", "values", "description", "details", "detail", "definition", "meaning", "answer"}
)
_KEY_VALUE_COLUMNS = 2


def number(cell: str) -> tuple[float, int] | None:
    """A cell's number and its decimal places (``"58,300"`` is ``(58300.0, 0)``,
    ``"12.5%"`` ``(12.5, 1)``); None for a cell that is not one number."""
    found = _NUMBER.fullmatch(cell.strip())
    if found is None:
        return None
    fraction = found["fraction"] or ""
    value = float(found["digits"].replace(",", "") + fraction)
    return (-value if found["sign"] in {"-", "\u2212"} else value), max(len(fraction) - 1, 0)


_COMMA_DECIMAL = re.compile(
    r"(?P<sign>[-+\u2212])?(?P<whole>\d{1,3}(?:\.\d{3})+|\d+)(?:,(?P<fraction>\d+))?"
)


def comma_numbers(cells: Sequence[str]) -> list[tuple[float, int]] | None:
    """The numbers of a column written with a decimal comma ("1.234,56", "251,45", "12"),
    as programs set to a European locale export them, and their places; None unless every
    cell is one and one cell at least can be read no other way: a comma before other
    than three digits, or after a dot grouping thousands ("12,5", "1.234,56"; not
    "1,234" alone, which :func:`number` reads as 1234)."""
    found = [_COMMA_DECIMAL.fullmatch(cell.strip()) for cell in cells]
    if not found or not all(found):
        return None
    matches = [m for m in found if m is not None]
    if not any(m["fraction"] and (len(m["fraction"]) != 3 or "." in m["whole"]) for m in matches):
        return None
    numbers = []
    for m in matches:
        fraction = m["fraction"] or ""
        value = float(m["whole"].replace(".", "") + "." + (fraction or "0"))
        numbers.append((-value if m["sign"] in {"-", "\u2212"} else value, len(fraction)))
    return numbers


def key_value_text(rows: Iterable[Sequence[object]], *, header: bool | None = None) -> str | None:
    """A two-column table of facts as ``key: value`` lines; None for any other table.

    ``header`` is what the document says of the first row: a header (True: the table's
    header row is marked, or set apart in bold), not one (False), or nothing (None). Without
    a mark, the first row is a header when it is text over a column of numbers
    ("region | budget" over "North | 800000"). A header row that only says "Key | Value"
    is left out; any other makes the table a table. A row of one cell (merged across)
    reads as itself.
    """
    cells = [[_cell(value) for value in row] for row in rows]
    cells = [row[:1] if len(set(row)) == 1 else row for row in cells if any(row)]
    if not cells or any(len(row) > _KEY_VALUE_COLUMNS for row in cells):
        return None
    pairs = [row for row in cells if len(row) == _KEY_VALUE_COLUMNS]
    if not pairs:
        return None
    if header is None:
        first, below = pairs[0][1], [row[1] for row in pairs[1:] if row[1]]
        header = number(first) is None and bool(below) and all(number(c) for c in below)
    if header and len(cells[0]) == _KEY_VALUE_COLUMNS:
        if pairs[0][1].lower() not in _VALUE_HEADERS:
            return None
        cells = cells[1:]
    # a key written as a label ("Default:") says its colon once
    lines = [
        ": ".join(c for c in (row[0].rstrip(":").rstrip(), *row[1:]) if c)
        if len(row) > 1
        else row[0]
        for row in cells
    ]
    return "\n".join(lines)


def records_table(data: object) -> tuple[str | Table, ...] | None:
    """A JSON array of records (objects of numbers, strings, booleans and nulls: what
    ``DataFrame.to_json(orient="records")`` writes, vega's datasets) as the table a data
    scientist reads it as, its keys the header in the order first seen, a nested object's
    keys as ``pandas.json_normalize`` names them (``cost.amount``). An API's export that
    wraps the array in an object with other values (``{"export": {...}, "records":
    [...]}``) is that table, its other values ``key: value`` lines (the text returned,
    first). A record's list of values is one cell (``"tags": ["a", "b"]``: ``a; b``); its
    list of objects (a work order's ``crew``) is a table of its own after the records',
    titled with its key, a row an object under the columns of its record
    (:func:`_nested_tables`), as ``json_normalize(record_path=..., meta=...)`` reads it.
    None for any other JSON: a list of lists, or more than :data:`MAX_COLUMNS` keys, or
    objects nested deeper than :data:`_NESTING`."""
    facts: dict[str, object] = {}
    if isinstance(data, dict):
        arrays = [k for k, v in data.items() if isinstance(v, list) and _all_objects(v)]
        if len(arrays) != 1 or (found := _flat(data, skip=arrays[0])) is None:
            return None
        facts, data = found, data[arrays[0]]
    if not _all_objects(data):
        return None
    keys: dict[str, None] = {}
    records = []
    nested: dict[str, list[tuple[int, list[dict[str, object]]]]] = {}
    for number, record in enumerate(map(_flat, data)):
        if record is None:
            return None
        for key, value in list(record.items()):
            if not isinstance(value, list):
                continue
            if not value:  # none of either kind: no cell
                del record[key]
            elif _all_objects(value):
                nested.setdefault(key, []).append((number, value))
                del record[key]
            elif _holds_more(value):
                return None
            else:
                record[key] = "; ".join(_cell(v) for v in value)
        keys |= dict.fromkeys(record)
        if len(keys) > MAX_COLUMNS:
            return None
        records.append(record)
    header = list(keys)
    rows = [[record.get(key) for key in header] for record in records]
    said = "\n".join(
        f"{key}: {json.dumps(v, ensure_ascii=False) if isinstance(v, list) else _cell(v)}"
        for key, v in facts.items()
    )
    # (its rows numbered when it is the file's one table: a row n of two would say neither)
    table = Table(itertools.chain([header], rows), numbered=not nested)
    return (said, table, *_nested_tables(header, rows, nested))


def _nested_tables(
    header: list[str],
    rows: list[list[object]],
    nested: Mapping[str, list[tuple[int, list[dict[str, object]]]]],
) -> Iterator[Table]:
    """Each key's lists of objects as a table: a row an object, after its record's cells
    (a crew member's ``crew.hours`` beside the work order's ``wo_id``, ``dma.zone``), so
    that "Dara Quinn's hours on WO-25-03113" is one row and "crew hours on South's leak
    repairs" a sum of them. A key whose objects hold lists, or nest too deep, is left out."""
    for key, lists in nested.items():
        items = [(number, _flat(value)) for number, values in lists for value in values]
        flats = [(number, flat) for number, flat in items if flat is not None]
        if len(flats) < len(items) or any(_holds_more(flat) for _, flat in flats):
            continue
        inner = list(dict.fromkeys(name for _, flat in flats for name in flat))
        if len(header) + len(inner) > MAX_COLUMNS:
            continue
        named = [*header, *(f"{key}.{name}" for name in inner)]
        cells = [[*rows[number], *(flat.get(name) for name in inner)] for number, flat in flats]
        yield Table([named, *cells], title=key)


def _holds_more(values: Mapping[str, object] | list[object]) -> bool:
    """Whether a record's (or a list's) values hold lists or objects."""
    found = values.values() if isinstance(values, Mapping) else values
    return any(isinstance(value, (list, dict)) for value in found)


_NESTING = 4
"""How deep a JSON record's objects may nest and still be read as its columns."""


def _all_objects(values: object) -> TypeGuard[list[dict[str, object]]]:
    """Whether ``values`` is a JSON array of objects, one at least."""
    return isinstance(values, list) and bool(values) and all(isinstance(v, dict) for v in values)


def _flat(
    record: dict[str, object], *, skip: str | None = None, depth: int = 0
) -> dict[str, object] | None:
    """A JSON object's values, its nested objects' under their dotted keys (``cost.amount``),
    without key ``skip``; None when they nest deeper than :data:`_NESTING`."""
    if depth > _NESTING:
        return None
    flat: dict[str, object] = {}
    for key, value in record.items():
        if key == skip:
            continue
        if not isinstance(value, dict):
            flat[key] = value
            continue
        inner = _flat(value, depth=depth + 1)
        if inner is None:
            return None
        flat |= {f"{key}.{name}": v for name, v in inner.items()}
    return flat


def records_piece(text: str, *, size: int) -> Piece | None:
    """The passages of a JSON array of objects: runs of whole records, each a slice of
    ``text``; None when ``text`` is not such an array."""
    decoder = json.JSONDecoder()
    spans: list[tuple[int, int]] = []
    at = _skip(text, 0)
    if not text.startswith("[", at):
        return None
    at = _skip(text, at + 1)
    while at < len(text) and text[at] != "]":
        try:
            value, end = decoder.raw_decode(text, at)
        except ValueError:
            return None
        if not isinstance(value, dict) or len(spans) >= MAX_ROWS:
            return None
        spans.append((at, end))
        at = _skip(text, end)
        if text.startswith(",", at):
            at = _skip(text, at + 1)
    if not spans or not text.startswith("]", at) or text[at + 1 :].strip():
        return None
    passages: list[tuple[int, str]] = []
    first = spans[0]
    for (start, end), (_, prev_end) in zip(spans[1:], spans, strict=False):
        if end - first[0] > size:
            passages.append((first[0], text[first[0] : prev_end]))
            first = (start, end)
    passages.append((first[0], text[first[0] : spans[-1][1]]))
    return Piece(text, tuple(passages))


def _skip(text: str, at: int) -> int:
    """The index of the first non-whitespace character from ``at``."""
    while at < len(text) and text[at] in " \t\r\n":
        at += 1
    return at
