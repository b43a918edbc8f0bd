"""Table passages read as tables: the rows that answer a question, and what they add up to.

Tables are stored as blocks that start with their header line (the first block of a sheet
after the sheet's name; :mod:`chatspace.service.retrieval.tables`). Quoted like prose, such
a block gives its header ("Region,Month,Revenue (EUR),Units") and never the row that
answers. Here the question is read against the table, computed with pandas:

- **filters**: a question word that is a word of cells in a column ("South", "March",
  "open") keeps the rows whose cell there has one of the words found in that column;
  columns combine with AND. Words that name a column, that ask for a computation, the
  words of the file's name (what every row is: "airports" of ``airports.csv``) and
  numbers are no filters; an adjective filters by the word it comes from ("rainy":
  "rain"); a column of yes and no (true and false) the question names keeps the rows
  that say yes, or no when it says "not" ("did not complete their clutch"). A word
  found in several columns filters the one where it is a whole cell, else the leftmost.
  A cell of several words that the question spells whole ("Store 17", "INC-102",
  "MS-Garnet") filters its column to it, though its words name a column or are numbers.
  Words of one column that one of its cells holds together keep that cell's rows
  ("aborted ... no access": "Aborted - no access", not "Aborted - safety"). Words no
  cell of the table holds, of a question that filters it by others, may filter another
  table of its file (a workbook's lookup sheet): the values its rows kept have in a
  column both tables name alike filter this one's ("jobs completed by engineers based at
  the Preston depot": the ``Engineer ID`` of the engineers' rows with ``Depot`` Preston).
  A year ("in 2020", not "above 2020") filters a column named for years, else the
  column of days written year first ("2020-01-01", "2020/01/01"); an ISO date keeps the
  rows whose date cell starts with it; a stretch of days ("between 1 and 15 April 2025",
  "from 3 March to 9 May 2024") the rows of that column within it.
- **conditions**: words that name a numeric column, then a comparison with a number
  ("a petal width above 2", "units of at least 500", "price < 10") keep the rows that
  meet it; a condition whose words no column's name holds ("a stem length") computes
  nothing. A number before a word that names a numeric column, after "with" or "have"
  ("cars with 8 cylinders", "How many cars have 8 cylinders?"), or a number a hyphen
  joins to its unit ("at the 48-hour horizon": ``horizon_h``), keeps the rows where
  that column is the number (naming none, it is left aside).
- **empty cells**: "no" or "without" and the words that name a column ("months with no
  GOOGL price"), or a column and "missing", "empty" or "blank", keep the rows whose cell
  there is empty (or 0, in a column of numbers: "products without returns"); when those
  words name no column ("no discount"), nothing is computed, unless they are words of
  cells that filter ("aborted because of no access").
- **empty cells**: a cell that is empty or says a value is missing as pandas reads it
  ("NA", "n/a", "null", ...).
- **the column asked about**: the numeric column (every non-empty cell a number such as
  ``58,300``, ``12%``, ``EUR 1,200``) whose name shares the most words with the question
  ("return rate" names ``return_rate`` more than ``units_returned``; a word of the name
  of four letters or more names it when a question word starts with it: "temperature",
  ``temp_max``; of two named alike, "highest" prefers the one named "max"), filters and
  the column asked to be empty left aside;
  without one, the only numeric column left, if every question word is a column's, a
  filter's or the file name's ("What is the total for North?", but no "total revenue" of
  a sheet of targets; words that are what any table's rows are, "items", "lines", say
  nothing it lacks: "the sum of line items for CC-520"). The difference of two numeric
  columns whose names differ by one word each, row by row, when the question sets one
  against the other ("the biggest H2 overspend *vs budget*": ``H2 Actual`` −
  ``H2 Budget``, the pair whose shared words it names), spending against what was
  planned ("over budget", "overspend": actual less a column named "budget", "plan",
  "target", "forecast", ...; "under budget": that column less actual) or asks the
  "difference between" two (either way); when two pairs fit alike, none. Words only a
  condition says name its column, not this one; a
  superlative of a measure names the measure ("the *longest* petal": ``petal_length``,
  "the *coldest* day": ``temp_min``). The word after a leading "which" or "what" names
  what is shown, not the measure, when another word names one ("In which year were the
  most miles driven?": ``miles``, and its row's year); the words that group ("by",
  "per") name none ("cars per year" is not of ``Miles_per_Gallon``).
- **what is asked**: an average ("average", "mean"); a sum ("total", "sum", "how much",
  or "how many" / "number of" with a numeric column named: "How many units did North
  sell?"), unless a condition is on that column; a count of rows ("How many tickets are
  open?", when every filtered column repeats its values: "How many inhabitants does Paris
  have?" looks Paris up; "How many flowers have a petal width above 2?"), with its share
  of the rows when asked ("What percentage ..."); the part of a numeric column's total
  the rows kept hold, when a share is asked of a column the question names ("What share
  of revenue came from North?": "412,000 of 1,109,100 (37.1%)"); a count of the
  distinct values of a column of text the question names ("How many species are
  there?"); a median; a standard deviation (of a sample: pandas' ``std``); a superlative
  ("highest", "lowest", "most", ...: the rows with the extreme value); the table itself:
  what it holds, for a file's data ("Describe the data", "What is in the table?": its
  columns, its rows and the first and last of its dates, those rows cited); its columns
  ("What columns does it have?": the header, cited), a count of its rows
  ("How many rows does it have?", "How many records are there for September?"), the
  time its rows cover, read off its leftmost column of dates ("What period does it
  cover?": the first and the last date, each row cited; "How many trading days does it
  cover?": its dates counted, the first and the last cited); the range of a column of
  numbers ("What is the range of Close?": its lowest and highest value, each row cited);
  the row of the earliest or latest date of a column of dates ("What was the first egg
  date?"); after a leading "which" or "what" that names a column of text (or with "most
  common"), the value the most (or fewest) rows have ("Which island has the most
  penguins?": "Biscoe (168 of 344 rows)"), or without a filter or a superlative the
  column's values ("Which symbols are in the table?"); any of these computations for
  each value of the column named after "by", "per" or "each", or each pair of values of
  two ("by species and sex") ("the average bill depth
  by species": each species' average and rows; "How many penguins of each species?":
  each species' rows, the commonest first; "per year" or "by month" of the column of
  dates), or for the group a leading "which" names with the highest or lowest value
  ("Which symbol has the highest average price?"). Else
  the rows the filters and conditions keep (at most :data:`MAX_SHOWN_ROWS`), or without
  either (or when the filters keep none) the first row with the most question words.
  When no row meets the conditions, the answer says so and cites the row nearest to
  meeting the first.

Rows whose text cell says "Total" (or "Subtotal", ...) take no part in computations. A
table whose blocks are several passages (same file, same header) is one table: the rows
of the passages given, in file order (retrieval gives all of a cited table's, up to
:data:`~chatspace.service.retrieval.search.WHOLE_TABLE`), and the answer says how many.

Every quote is a row's exact text in its passage; the answer shows it with its column
names. A computed answer cites the rows it comes from (the first :data:`MAX_CITED_ROWS`),
a marker each::

    - "Region: South, Month: March, Revenue (EUR): 58300, Units: 547" (sales.xlsx) [1]
    - Total Revenue (EUR) for Region North: 412,000 (sum of 3 rows of sales.xlsx) [1][2][3]
    - Rows with status open: 5 of 14 (tickets.csv) [1][2][3][4][5]
    - Highest return_rate: 0.14 (max of 8 rows): "product: Rain jacket, ..." (returns.csv) [1]
"""

from __future__ import annotations

import dataclasses
import itertools
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import PurePath
from typing import TYPE_CHECKING

from chatspace._wire import labelled_row
from chatspace.service.retrieval.locations import quote_location
from chatspace.service.retrieval.tables import (
    ANY_YEAR,
    COMPUTATIONS,
    COUNTING,
    DATES,
    MEASURES,
    SUMMING,
    TABLE_COLUMNS,
    TABLE_ROWS,
    TABLE_SPAN,
    abbreviates,
    asks_overview,
    comma_numbers,
    date_span,
    dates_in,
    header_start,
    name_words,
    number,
    rows_of,
)
from chatspace.service.retrieval.terms import (
    CALENDAR,
    MONTH_CUTS,
    MONTHS,
    WEEKDAYS,
    month_cut,
    month_number,
)
from chatspace.types import FileCitation

if TYPE_CHECKING:
    import pandas as pd

    from chatspace.service.retrieval.search import Passage, Retrieval

__all__ = [
    "MAX_CITED_ROWS",
    "MAX_SHOWN_ROWS",
    "Bullet",
    "Cite",
    "Computed",
    "TableRow",
    "answer_tables",
    "answering_row",
    "computed_for",
    "computes",
    "header_end",
    "row_cells",
]

MAX_SHOWN_ROWS = 5
"""Rows shown, one bullet each, when the question looks rows up."""
MAX_CITED_ROWS = 10
"""Rows cited by a computed answer."""

_EARLIEST = COMPUTATIONS["earliest"]
_LATEST = COMPUTATIONS["latest"]
"""Words that ask for the row of the earliest or the latest date ("What was the first
egg date?")."""
_COMMON = frozenset({"common", "frequent", "popular"})
"""Words that, with "most" or "least", ask for the value of the most rows of the column
the question names ("the most common type of death")."""
_MOST = frozenset({"most", "fewest", "least"})
"""The superlatives that may ask for the value of the most rows ("Which island has the
most penguins?"); "the heaviest penguin" asks for a row."""
_HIGHEST = COMPUTATIONS["max"]
_LOWEST = COMPUTATIONS["min"]
_EXTREMES = {
    1: frozenset({"max", "maximum", "high", "highest"}),
    -1: frozenset({"min", "minimum", "low", "lowest"}),
}
"""The words of a column's name that say it holds each day's (or each item's) highest or
lowest value: of ``temp_max`` and ``temp_min``, "the highest temperature" is the first's."""
_RANKS = {"second": 2, "2nd": 2, "third": 3, "3rd": 3, "fourth": 4, "4th": 4, "fifth": 5, "5th": 5}
_RANKED = re.compile(
    rf"\b({'|'.join(_RANKS)})[\s-]+(?=(?:{'|'.join(sorted(_HIGHEST | _LOWEST | _MOST))})\b)",
    re.I,
)
"""An ordinal before a superlative ("the *second* highest", "*3rd*-largest"): the value
that many places from the top (or the bottom) is asked for, not the first."""
_ORDINALS = {2: "Second", 3: "Third", 4: "Fourth", 5: "Fifth"}
_STARTING = re.compile(
    r"\b(?:start(?:s|ing)?|begin(?:s|ning)?)\s+(with\s+)?[\"'‘“]?([^\W_][\w./-]*?)[\"'’”]?(?=[\s?,.;:!)]|$)",
    re.I,
)
"""What cells start with ("codes *starting AB-22*", "beginning with 'VX'"): a code
written with a digit, a hyphen or a capital, or anything after "with"."""
_COMPARISON = re.compile(
    r"((?:[^\W\d_]+[\s_]+){1,3}?)(?:is\s+|are\s+|of\s+)?"
    r"(above|over|more than|greater than|higher than|larger than|at least|older than|"
    r"below|under|less than|lower than|smaller than|at most|younger than|>=|<=|>|<)"
    r"\s*(-?\d[\d,]*(?:\.\d+)?)(?![\d/\u2013-])"
    r"(?:\s+([^\W\d_]+))?",
    re.I,
)
"""A condition on a numeric column: words that name it, then how it compares with a
number ("a petal width above 2", "units of at least 500", "price < 10"), or the word
after the number ("sold more than 500 units"); not a period ("the highest MNF *over
2024/25*")."""
_YEAR_BOUND = re.compile(
    r"\b([^\W\d_]+)\s+(before|after|since|prior\s+to)\s+((?:19|20)\d{2})\b(?![-/.]\d)",
    re.I,
)
"""A year that bounds a numeric column of years, which the word before it names ("pipes
*installed before 1970*": ``install_year``)."""
_YEAR_BOUNDS = {"before": "<", "prior to": "<", "after": ">", "since": ">="}
_CATEGORY_NUMBER = re.compile(
    r"\b(grade|class|level|category|tier|band|stage|phase|priority)\s+(\d{1,2})\b(?![-/.,]\d)",
    re.I,
)
"""A category written as a word and its number ("*grade 5* pipes"): the column the word
names equals the number."""
_EQUAL = re.compile(
    r"\b(?:with|have|has|had|having)\s+(?:exactly\s+)?(\d[\d,]*(?:\.\d+)?)\s+([^\W\d_]+)", re.I
)
"""A count the rows have of what a numeric column counts ("cars *with 8 cylinders*",
"How many houses have 3 bedrooms?"): that column equals the number."""
_NUMBERED = re.compile(
    r"\b(?:for|of|in|at|on)\s+(?:the\s+)?([^\W\d_]+)\s+(\d+(?:,\d{3})*(?:\.\d+)?)(?![\w.,-]*\w)",
    re.I,
)
"""A numeric column's whole name, then its value ("PIREPs *for ATA 30*", "sales *in week
19*"): that column equals the number (not "for ATR 72-600", a name)."""
_GRADED = re.compile(r"\b([^\W\d_]{2,})\.?\s+([A-Z])\b(?![-'’]\w)")
"""A grade: a word, then a capital letter alone ("category C", "cat D", "Plan B")."""
_MEASURED = re.compile(r"\b(\d[\d,]*(?:\.\d+)?)-([^\W\d_]+)(?:\s+([^\W\d_]+))?", re.I)
"""A number a hyphen joins to its unit, then what it measures ("at the *48-hour
horizon*", "a *5-star rating*"): the numeric column the thing, else the unit, names
(``horizon_h``, ``stars``) is that number."""
_EXCLUDING = re.compile(
    r"\b(?:not\s+counting|excluding|except(?:\s+for)?|other\s+than|apart\s+from|ignoring|"
    r"leaving\s+out)\s+(?:the\s+|any\s+)?((?:[^\W\d_]+\s*){1,3})",
    re.I,
)
"""Rows the question leaves out ("kg of Fresh meat ordered in February, *not counting
cancelled lines*"): the cells its words hold are not kept."""
_ABSENT = re.compile(r"\b(no|without|missing|empty|blank)\b((?:\s+[^\W\d_]+){0,3})", re.I)
"""A column asked to be empty: named by the words after "no" or "without" ("months with
no GOOGL price"), or, after "missing", "empty" or "blank", by the question's words too
("How many GOOGL prices are missing?")."""
_AGAINST = re.compile(
    r"\b(?:vs\.?|versus|minus|against|compared\s+(?:to|with))\s+(?:the\s+)?((?:[^\W_]+\s*){1,3})",
    re.I,
)
"""What a column is set against ("the biggest H2 overspend *vs budget*", "revenue 2024
*minus* revenue 2023"): its words name the column subtracted."""
_BETWEEN = re.compile(
    r"\b(?:difference|gap)(?:\s+(?:in|of)\s+[^?]{1,60}?)?\s+between\s+(?:the\s+)?(.{1,60}?)"
    r"\s+and\s+(?:the\s+)?([^\W_][\w-]*(?:\s+[^\W_][\w-]*)?)",
    re.I,
)
"""Two columns whose difference is asked ("the largest *difference between* budget and
actual"): by how much they differ, either way; or two kinds of rows ("*Difference in*
total flight hours *between* G-TBRA and G-TBRK")."""
_PLANNED = re.compile(
    r"\b(?:(?P<over>over|above)|under|below)"
    r"(?:spen[dt]\w*|run\w*|\s+(?:the\s+)?(?:budget|plan|target))\b",
    re.I,
)
"""Spending set against what was planned: over it ("Which workstream has the biggest
overspend?": actual − budget) or under it (budget − actual)."""
_REFERENCE = frozenset(
    {"budget", "budgeted", "plan", "planned", "target", "forecast", "baseline", "expected"}
)
"""The words of a column that holds what was planned: an overspend is set against it."""
_CONDITION_CHARS = 4000
"""The characters of a question read for conditions: a document pasted into it is none."""
_AT_LEAST = frozenset({"at least", ">="})
_AT_MOST = frozenset({"at most", "<="})
_BELOW = frozenset(
    {"below", "under", "less than", "lower than", "smaller than", "younger than", "<"}
)
_SUM = COMPUTATIONS["sum"]
_MEAN = COMPUTATIONS["mean"]
_MEDIAN = COMPUTATIONS["median"]
_SPREAD = COMPUTATIONS["std"]
_SHARE = COMPUTATIONS["share"]
_AVERAGING = _MEAN | _MEDIAN | _SPREAD
"""Words that ask for a count as a share of the rows ("What percentage of flowers are
virginica?"); not taken out of the words that name columns ("discount percentage")."""
_COUNT = COMPUTATIONS["count"]
_ASKING = _HIGHEST | _LOWEST | _SUM | _MEAN | _MEDIAN | _SPREAD | _COUNT | _EARLIEST | _LATEST
_DAYS = TABLE_SPAN & {"days", "dates"}
"""Counted, the days of a column of dates: "How many trading days does it cover?"."""
_RANGE = frozenset({"range"})
_STRETCH = (TABLE_SPAN - _DAYS) | _RANGE
"""The stretch of time a column of dates covers: "What period does the table cover?",
"What date range does it span?"; of a column of numbers, its lowest and highest value
("What is the range of Close?")."""
_SUMMARY_CELLS = frozenset({"total", "totals", "grand total", "subtotal", "sum", "all"})
_WORD = re.compile(r"[^\W_]+")
_MAX_PLACES = 6
_SHOWN_VALUES = 5
_ENDING = re.compile(r"(?:ing|ed|es|e)$")
_ROOTED = 4
"""Words longer than this lose a verb's ending to name a column (:func:`_root`)."""
_ABBREVIATION = re.compile(r"([^\W\d_]{3,})\.")
_DAY_CELL = re.compile(r"\d{4}([-/.])\d{2}\1\d{2}(?:\b|T\d)")
"""A cell of a column of days written year first: ISO's "2012-01-01", or "2012/01/01"
(vega's ``seattle-weather.csv``), "2012.01.01"; or a time on that day, written as ISO
8601 and JSON write it ("2025-01-07T02:48:00Z")."""
_NUMBERED_DAY = re.compile(r"(\d{1,2})([/.-])(\d{1,2})\2(\d{4})")
"""A day written with its day or its month first ("05/01/2025", "5.1.2025")."""
_MONTHS_IN_YEAR = 12
_MONTH_COLUMNS = 3
"""A table with this many numeric columns named for months is a sheet of months."""
_QUARTER = re.compile(r"q[1-4]")
_PERIOD = re.compile(rf"{_QUARTER.pattern}|h[12]")
_YEAR = re.compile(r"\b(?:19|20)\d{2}\b")
_FISCAL_YEAR = re.compile(r"\b(?:19|20)\d{2}\s*[/\u2013-]\s*\d{2}\b")
"""A year of accounts across two ("2024/25"): no calendar year's rows."""
_WHICH = re.compile(r"\W*(?:(?:in|on|at|for|from|during|of)\s+)?(?:which|what)\s+([^\W\d_]+)", re.I)
_ADJECTIVE = re.compile(r"([^\W\d_]{2,}?)([^\W\d_aeiou])?\2?y$")
"""An adjective of a word a cell says: "rainy" of "rain", "sunny" of "sun", "foggy" of
"fog"."""
_STEMMED = 5
"""A question word's root this long names a column whose word starts with it."""
_YES_NO = (("yes", "no"), ("true", "false"), ("y", "n"))
"""The two values of a column that says whether (``Clutch Completion``: Yes, No)."""
_GROUPING = frozenset({"by", "per", "each", "every"})
_PERIODIC = {"monthly": "month", "yearly": "year", "annual": "year", "annually": "year"}
"""The words that group by a period as "per month" does ("the average *monthly* revenue")."""
_PERIODS = frozenset({"month", "year", "quarter", "week"})
_GROUPED = re.compile(rf"\b(?:{'|'.join(_GROUPING)})\s+([^\W\d_]+)(?:\s+and\s+([^\W\d_]+))?", re.I)
_COUNTED = re.compile(
    r"\b(?:how\s+many|number\s+of)\s+(?:(?:different|distinct|unique)\s+)?([^\W\d_]+)", re.I
)
_GROUPS_SHOWN = 12
"""Groups shown of a computation by group; the answer says how many more."""
_NEGATION = re.compile(r"\b(?:not|never)\b|n't\b", re.I)
_MISSING = frozenset(
    {"#N/A", "#N/A N/A", "#NA", "-1.#IND", "-1.#QNAN", "-NaN", "-nan", "1.#IND", "1.#QNAN"}
    | {"<NA>", "N/A", "NA", "NULL", "NaN", "None", "n/a", "nan", "null"}
)
"""Cells that say a value is missing, as ``pandas.read_csv`` reads them by default
(``na_values``): empty, so "NA" is no number in a column of numbers (palmerpenguins'
``bill_length_mm``), and "How many penguins have no recorded sex?" counts them."""


@dataclass(frozen=True, slots=True)
class TableRow:
    """A row of a table passage: where it is in the passage, and how it reads."""

    start: int
    end: int
    shown: str
    """``column: value`` pairs, e.g. ``region: South, budget_eur: 340000``."""


@dataclass(frozen=True, slots=True)
class Cite:
    """A row cited: its passage (an index into the passages given), its exact text, and
    where that text starts in the passage."""

    passage: int
    quote: str
    start: int

    def citation(self, passages: Sequence[Passage]) -> FileCitation:
        """The row as a ``file_citation``, ``passages`` being those the answer was
        computed from."""
        cited = passages[self.passage]
        return FileCitation(
            file_id=cited.file_id,
            filename=cited.filename,
            quote=self.quote,
            location=quote_location(cited, self.start),
        )


Bullet = tuple[str | Cite, ...]
"""One line of an answer: its text, with a ``[n]`` marker where each :class:`Cite` is."""


@dataclass(frozen=True, slots=True)
class _Table:
    """Rows of one table, from one passage or several: each row's cells and its cite."""

    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    cites: tuple[Cite, ...]
    spans: tuple[tuple[int, int], ...]
    heading: Cite
    """The header line (of the first block)."""
    passages: int = 1
    numbered: bool = False
    """Whether it is a file's data (a sheet, a CSV, a Parquet file), not a table in a
    document's text: only such a table is "the data" a question asks to describe."""


@dataclass(frozen=True, slots=True)
class _Answer:
    kind: str  # "rows", "sum", "mean", "median", "count", "distinct", "none", "max", "min",
    # "part", "columns", "overview", "stretch", "days", "most", "fewest", "earliest", "latest",
    # "between"
    rows: tuple[int, ...]
    """The rows shown or cited, in table order."""
    column: int = -1
    value: str = ""
    scope: str = ""
    """The filters as words: ``Region North, Month March``."""
    of: int = 0
    """Rows computed over (a count: rows counted among)."""
    share: bool = False
    """Whether a count is shown as a share of the rows too."""
    values: tuple[str, ...] = ()
    """The distinct values counted."""
    nearest: str = ""
    """When no row meets the conditions: "highest" or "lowest", the row cited."""
    by: int = -1
    """The column whose values group the rows ("by species"): ``values`` are each group's
    value and count, ``rows`` each group's first row."""
    period: str = ""
    """How a column of dates groups them: "year" or "month" ("per year")."""
    extreme: int = 0
    """1 (-1) when only the group of the highest (lowest) value is asked for ("Which
    symbol has the highest average price?")."""
    then: int = -1
    """The second column that groups the rows ("by species and sex"), else -1."""
    label: str = ""
    """The name of ``column`` when the table has none such, its values computed (a
    difference: ``H2 2024 Actual − H2 2024 Budget``)."""
    rank: int = 1
    """The place of the extreme shown: 2 for the second highest."""
    averaged: str = ""
    """"sum" or "count" when ``value`` is the average of each period's total or count
    ("the average monthly revenue"), ``values`` those totals."""


def answer_tables(
    passages: Sequence[Passage], question: str, terms: Sequence[str], *, told: bool = False
) -> dict[int, list[Bullet]]:
    """The bullets answering ``question`` from the table passages among ``passages``.

    Keyed by the index of each table's first passage; a table's other passages map to no
    bullets. Passages that are not header-led tables, or whose table answers nothing,
    are left out. ``told``: as a model is told them, without how many passages the
    table spans nor how many of its rows are cited (a model wrote back "The dataset
    contains 17 passages of penguins.").
    """
    groups: dict[tuple[str, tuple[str, ...]], list[tuple[int, _Table]]] = {}
    for index, passage in enumerate(passages):
        block = _read(passage, index)
        if block is not None:
            groups.setdefault((passage.file_id, block.header), []).append((index, block))
    found: dict[int, list[Bullet]] = {}
    tables = {
        key: _merge([block for _, block in sorted(members, key=lambda m: passages[m[0]].start)])
        for key, members in groups.items()
    }
    for key, members in groups.items():
        table = tables[key]
        # the file's other tables: a sheet of engineers says where each one is based
        lookups = tuple(
            t for (file_id, _), t in tables.items() if file_id == key[0] and t is not table
        )
        answer = _answer(table, question, terms, passages[members[0][0]].filename, lookups)
        if answer is not None:
            first = min(index for index, _ in members)
            found |= {index: [] for index, _ in members}
            found[first] = _bullets(answer, table, passages[first].filename, told=told)
    return found


@dataclass(frozen=True, slots=True)
class Computed:
    """A table's answer as a generative model is given it (:func:`computed_for`): the
    text of one bullet, without markers, and the first row it shows or computes over."""

    filename: str
    text: str
    citation: FileCitation
    cells: tuple[tuple[str, str], ...] = ()
    """The row it shows, when it cites one: its cells with their columns' names."""


def computed_for(retrieval: Retrieval) -> tuple[Computed, ...]:
    """What the tables among the retrieved passages answer, computed with pandas over all
    their rows (:func:`answer_tables`): a model sent five blocks of a CSV cannot average
    the 123 rows of Gentoo penguins, nor count the 11 without a sex."""
    every = (*retrieval.passages, *retrieval.tables)
    found = answer_tables(every, retrieval.question, retrieval.terms, told=True)
    computed = []
    for index in sorted(found):
        for bullet in found[index]:
            text = " ".join("".join(p for p in bullet if isinstance(p, str)).split())
            cites = [p for p in bullet if isinstance(p, Cite)]
            if text and cites:
                first = cites[0]
                row = (
                    row_cells(every[first.passage]).get(first.start, ()) if len(cites) == 1 else ()
                )
                computed.append(Computed(every[index].filename, text, first.citation(every), row))
    return tuple(computed)


def answering_row(passage: Passage, question: str, terms: Sequence[str]) -> TableRow | None:
    """The first row that the answer from ``passage`` alone (a header-led table block)
    shows or cites; None when it is not such a block or nothing in it answers."""
    table = _read(passage, 0)
    answer = None if table is None else _answer(table, question, terms, passage.filename)
    if table is None or answer is None or not answer.rows:
        return None
    row = answer.rows[0]
    start, end = table.spans[row]
    return TableRow(start, end, _shown(table.header, table.rows[row]))


def row_cells(passage: Passage) -> dict[int, tuple[tuple[str, str], ...]]:
    """Each row of a header-led table block, by where its line starts in the passage's
    text: its cells, each with its column's name. Empty for other passages."""
    table = _read(passage, 0)
    if table is None:
        return {}
    return {
        a: tuple(zip(table.header, row, strict=True))
        for (a, _), row in zip(table.spans, table.rows, strict=True)
    }


def header_end(passage: Passage) -> int | None:
    """Where the header line of a header-led table block ends in its text; None for
    other passages. A quote that ends there holds no row: it names columns, says nothing."""
    table = _read(passage, 0)
    return None if table is None else table.heading.start + len(table.heading.quote)


# ---------------------------------------------------------------- reading


def _read(passage: Passage, index: int) -> _Table | None:
    """A header-led block as a table: a block of a table's rows after the lines that lead
    it (a sheet's name, rows of one cell above the header: where its locations say), any
    other text from its first line or, past a title line, its second."""
    text = passage.text
    lines = text.split("\n")
    top = header_start(text, passage.locations)
    numbered = top is not None
    for skip in (0, 1) if top is None else (text.count("\n", 0, top),):
        parsed = rows_of(lines[skip:])
        if parsed is not None:
            header, rows = parsed[0], parsed[1:]
            top = sum(len(line) + 1 for line in lines[:skip])
            heading = Cite(index, lines[skip], top)
            at = top + len(lines[skip]) + 1
            spans = []
            for line in lines[skip + 1 :]:
                spans.append((at, at + len(line)))
                at += len(line) + 1
            cites = tuple(Cite(index, text[a:b], a) for a, b in spans)
            return _Table(
                tuple(header), tuple(map(tuple, rows)), cites, tuple(spans), heading,
                numbered=numbered,
            )  # fmt: skip
    return None


def _merge(blocks: list[_Table]) -> _Table:
    if len(blocks) == 1:
        return blocks[0]
    return _Table(
        blocks[0].header,
        tuple(row for b in blocks for row in b.rows),
        tuple(cite for b in blocks for cite in b.cites),
        tuple(span for b in blocks for span in b.spans),
        blocks[0].heading,
        passages=len(blocks),
        numbered=blocks[0].numbered,
    )


def _stem(word: str) -> str:
    return word[:-1] if len(word) > 3 and word.endswith("s") and not word.endswith("ss") else word


_ADDING = frozenset(
    _stem(w)
    for w in ("amount", "revenue", "sales", "cost", "spend", "quantity", "qty", "units",
              "cases", "orders", "volume", "turnover", "profit", "income", "expenses", "kg",
              "pallets", "hours", "minutes")
)  # fmt: skip
"""Words of a column whose values add up (amounts, quantities): "the highest" of such a
column over a value that repeats ("which customer") is of each value's total. A price, a
rate or a temperature does not add up: its highest is a row's."""
_NOT_ADDING = frozenset(
    _stem(w)
    for w in ("price", "rate", "ratio", "pct", "percent", "percentage", "avg", "average", "mean",
              "median", "temperature", "temp", "score", "margin", "share", "per")
)  # fmt: skip
"""Words of a column of a rate or a level, which does not add up ("Unit Price EUR",
"Revenue per unit")."""


def _adds_up(name: str) -> bool:
    """Whether a column's values add up over rows (:data:`_ADDING`, :data:`_NOT_ADDING`)."""
    words = _column_words(name)
    return bool(words & _ADDING) and not words & _NOT_ADDING


_ROW_NOUNS = frozenset(_stem(w) for w in TABLE_ROWS | {"items", "lines"})
"""What any table's rows are ("the sum of *line items* for CC-520"): they say nothing the
table does not hold."""


def _words(text: str) -> set[str]:
    return {_stem(w) for w in _WORD.findall(text.lower())}


def _column_words(name: str) -> set[str]:
    """The words of a column's name (:func:`.tables.name_words`: ``lifeExp`` is "life" and
    "exp"), as :func:`_words` gives a question's."""
    return {_stem(w) for w in name_words(name)}


def _root(word: str) -> str:
    """A word without the ending of a verb's form: "closing", "closed" and "close" are
    "clos"."""
    return _ENDING.sub("", word) if len(word) > _ROOTED else word


def _names(column: str, terms: frozenset[str]) -> int:
    """How many of ``terms`` a column's name holds (``return_rate``: "return", "rate"): a
    word of it (or its plural: "countries" of ``country``), the start of one, a word of
    the same root ("the *closing* price": ``Close``) or one it abbreviates with a period
    ("*adjusted* close": ``Adj. Close*``), or a word that starts with a long root of the
    question's ("*completed*": ``Clutch Completion``), or a month as tables cut it ("in
    *March*": ``Mar``)."""
    words = _column_words(column)
    words |= {w[:-1] + "ie" for w in words if w.endswith("y")}  # "countrie(s)", as stemmed
    roots = {_root(w) for w in words}
    cut = [a.lower() for a in _ABBREVIATION.findall(column)]
    return sum(
        1
        for t in terms
        if any(w == t or (len(t) > 3 and w.startswith(t)) or abbreviates(w, t) for w in words)
        or _root(t) in roots
        or (len(_root(t)) >= _STEMMED and any(w.startswith(_root(t)) for w in words))
        or any(t.startswith(a) for a in cut)
        or (t in MONTHS and month_cut(t) in words)
    )


# ---------------------------------------------------------------- understanding


@dataclass(frozen=True, slots=True)
class _Condition:
    """A comparison the question puts on a numeric column: "petal width above 2"."""

    naming: frozenset[str]
    """The words before it, which name the column."""
    op: str
    value: str
    after: frozenset[str] = frozenset()
    """The word after the number, which names the column when those before do not."""
    whole: bool = False
    """Whether ``naming`` must say the column's whole name ("for ATA 30": ``ATA``)."""
    soft: bool = False
    """Whether it is dropped, not unmet, when no numeric column is named ("installed
    *before 1970*" of a table whose years are dates)."""

    def holds(self, values: pd.Series) -> pd.Series:
        bound = number(self.value)
        limit = bound[0] if bound is not None else float("nan")
        if self.op in _AT_LEAST:
            return values >= limit
        if self.op in _AT_MOST:
            return values <= limit
        if self.op == "=":
            return values == limit
        return values < limit if self.op in _BELOW else values > limit


@dataclass(frozen=True, slots=True)
class _Difference:
    """Two numeric columns whose difference the question asks of each row (the two whose
    names differ by one word each: ``H2 2024 Actual`` − ``H2 2024 Budget``)."""

    first: frozenset[str]
    """Words that name the column subtracted from, or none: then it is the one paired
    with ``second``."""
    second: frozenset[str]
    """Words that name the column subtracted."""
    sign: int
    """1: the first less the second; -1: the second less the first (an underspend); 0:
    how far apart they are, either way."""

    @classmethod
    def of(cls, question: str) -> _Difference | None:
        planned = _PLANNED.search(question)
        sign = -1 if planned and not planned["over"] else 1
        if between := _BETWEEN.search(question):
            return cls(frozenset(_words(between[1])), frozenset(_words(between[2])), 0)
        if against := _AGAINST.search(question):
            return cls(frozenset(), frozenset(_words(against[1])), sign)
        return cls(frozenset(), _REFERENCE, sign) if planned else None


@dataclass(frozen=True, slots=True)
class _Question:
    said: frozenset[str]
    """The question's words, lowercased, with the words of a computation a follow-up
    carries over from the turns before it when it asks for none itself."""
    phrases: frozenset[str]
    """Its pairs of words ("how many")."""
    wanted: frozenset[str]
    """The words of the search terms the question says, stemmed, less those that ask for
    a computation, with the measure a superlative names (:data:`.tables.MEASURES`)."""
    earlier: frozenset[str] = frozenset()
    """The words of the terms a follow-up takes from the turns before it: they filter a
    column and name the column computed only where the question's own do not ("And for
    virginica?" after the average sepal width of setosa is not of both)."""
    conditions: tuple[_Condition, ...] = ()
    asking: frozenset[str] = frozenset()
    """The wanted words less those only the conditions say: they name the column computed
    ("the total petal width of flowers with a petal length > 6")."""
    dates: frozenset[str] = frozenset()
    """The ISO dates the question says: they filter the column of dates whose cells start
    with them ("on 2000-03-01": that day, at any time of it)."""
    years: frozenset[str] = frozenset()
    """The years it says outside a date or a condition: filter words, as a year is a word
    of a date's cell ("the average IBM price in 2020": "2020-01-01" to "2020-12-01")."""
    months: frozenset[str] = frozenset()
    """The months it names ("in *August*"; "may" only capitalized): they filter a column of
    dates, written as words ("22-Aug-03") or ISO ("2003-08-22")."""
    absent: tuple[frozenset[str], ...] = ()
    """The words that may name the column asked to be empty (:data:`_ABSENT`), in order:
    when none names a column ("no discount" of a table without one), nothing is computed."""
    negated: bool = False
    """Whether it says "not" or "never" ("did *not* complete their clutch")."""
    grouping: frozenset[str] = frozenset()
    """The words after "by", "per" or "each" ("the average bill depth *by species*",
    "How many penguins of *each species*?"): they may name the column that groups the
    rows."""
    listing: frozenset[str] = frozenset()
    """The word after a leading "which" or "what" ("*Which symbols* are in the table?",
    "*Which island* has the most penguins?"): it may name the column whose values the
    question asks for."""
    whole: bool = False
    """Whether it asks what the table holds as a whole (:func:`.tables.asks_overview`)."""
    counted: frozenset[str] = frozenset()
    """The word after "how many" or "number of" ("How many *countries* are in Africa?"):
    it may name the column whose distinct values are counted."""
    then: frozenset[str] = frozenset()
    """The word after "and" that follows the grouping ("by species *and sex*"): it may
    name a second column that groups the rows."""
    spelled: str = ""
    """Its words, lowercased, a blank apart and around (:func:`_phrase`): a cell of
    several words that it spells whole ("Store 17", "INC-102") filters its column."""
    difference: _Difference | None = None
    """The difference of two columns it asks for, if it does."""
    span: tuple[str, str] | None = None
    """The first and last day of a stretch it writes ("between 1 and 15 April 2025",
    :func:`.tables.date_span`): they keep the rows of the column of days within them."""
    graded: tuple[tuple[str, str], ...] = ()
    """The grades it writes, a word then a capital letter ("a *category C* item", "*cat
    D*"): the column the word names (or starts) whose cells are that letter keeps them."""
    excluded: frozenset[str] = frozenset()
    """The words of the rows it leaves out (:data:`_EXCLUDING`): they filter no row in,
    and the rows whose cells hold them are not kept."""
    rank: int = 1
    """Which place of a superlative it asks for (:data:`_RANKED`): 2 for "the second
    highest"."""
    prefixes: tuple[str, ...] = ()
    """What it asks cells to start with (:data:`_STARTING`), lowercased: a column whose
    cells start so keeps those rows ("starting AB-22": AB-220 and AB-221, not AB-230)."""
    periodic: frozenset[str] = frozenset()
    """The period an adjective says ("the average *monthly* quantity": "month"): it groups
    the rows only for an average of each period's total, not "which DMA had the highest
    average MNF in the *monthly* raw data"."""

    @classmethod
    def of(cls, question: str, terms: Sequence[str]) -> _Question:
        said = [w.lower() for w in _WORD.findall(question)]
        measures = {m for w in said for m in MEASURES.get(w, ())}
        own = _words(question)
        # the words that group name no column ("How many cars *per* year?": not
        # ``Miles_per_Gallon``)
        wanted = set().union(*(_words(t) for t in terms if _words(t) <= own))
        wanted = wanted - _ASKING - _GROUPING | measures
        before = set().union(*(_words(t) for t in terms if not _words(t) <= own))
        earlier = before - _ASKING - wanted
        phrases = {" ".join(pair) for pair in itertools.pairwise(said)}
        # a follow-up that asks for no computation asks for the one before it ("And for
        # virginica?" after an average; not "And how many in the South?")
        asks = own & (_ASKING | _SHARE) or phrases & (COUNTING | SUMMING)
        carried = set() if asks else before & _ASKING
        found = list(_COMPARISON.finditer(question[:_CONDITION_CHARS]))
        equal = list(_EQUAL.finditer(_COMPARISON.sub(" ", question[:_CONDITION_CHARS])))
        conditions = tuple(
            _Condition(
                frozenset(_words(m[1])),
                " ".join(m[2].lower().split()),
                m[3],
                frozenset(_words(m[4] or "")),
            )
            for m in found
        ) + tuple(_Condition(frozenset(), "=", m[1], frozenset(_words(m[2]))) for m in equal)
        conditions += tuple(
            _Condition(frozenset(_words(m[1])), "=", m[2], whole=True)
            for m in _NUMBERED.finditer(question[:_CONDITION_CHARS])
        )
        bounds = list(_YEAR_BOUND.finditer(question[:_CONDITION_CHARS]))
        conditions += tuple(
            _Condition(
                frozenset(_words(m[1])), _YEAR_BOUNDS[" ".join(m[2].lower().split())], m[3],
                soft=True,
            )
            for m in bounds
        )  # fmt: skip
        conditions += tuple(
            _Condition(frozenset({m[1].lower()}), "=", m[2], soft=True)
            for m in _CATEGORY_NUMBER.finditer(question[:_CONDITION_CHARS])
        )
        found += bounds
        measured = _MEASURED.finditer(question[:_CONDITION_CHARS])
        conditions += tuple(
            _Condition(frozenset(_words(m[3] or "")), "=", m[1], frozenset(_words(m[2])))
            for m in measured
        )
        inside = set().union(*(_words(m[0]) for m in found))
        outside = _YEAR_BOUND.sub(" ", _COMPARISON.sub(" ", question[:_CONDITION_CHARS]))
        only_inside = inside - _words(outside) - measures
        span = date_span(question[:_CONDITION_CHARS])
        dates = frozenset(dates_in(question[:_CONDITION_CHARS])) - set(span or ())
        bare = DATES.sub(" ", outside)
        absent: list[frozenset[str]] = []
        for m in _ABSENT.finditer(question[:_CONDITION_CHARS]):
            after = m[1].lower() in {"no", "without"}
            absent += [frozenset(w) for w in (_words(m[2]), set() if after else wanted) if w]
        months = (
            frozenset(w.lower() for w in _WORD.findall(bare) if w.lower() in MONTHS and w != "may")
            | _quarter_months(bare)
            | _month_stretch(bare)
        )
        lead = _WHICH.match(question)
        return cls(
            frozenset(said) | carried, frozenset(phrases), frozenset(wanted),
            frozenset(earlier), conditions, frozenset(wanted - only_inside), dates,
            frozenset(_YEAR.findall(_FISCAL_YEAR.sub(" ", bare))), months, tuple(absent),
            bool(_NEGATION.search(question[:_CONDITION_CHARS])),
            frozenset().union(*(_words(m[1]) for m in _GROUPED.finditer(bare))),
            frozenset(_words(lead[1])) - _ASKING if lead else frozenset(),
            asks_overview(question),
            frozenset().union(*(_words(m[1]) for m in _COUNTED.finditer(question))),
            frozenset().union(*(_words(m[2] or "") for m in _GROUPED.finditer(bare))),
            f" {_phrase(question[:_CONDITION_CHARS])} ",
            _Difference.of(question[:_CONDITION_CHARS]), span,
            tuple((m[1].lower(), m[2]) for m in _GRADED.finditer(question[:_CONDITION_CHARS])),
            frozenset().union(*(_words(m[1]) for m in _EXCLUDING.finditer(bare))),
            _RANKS[ranked[1].lower()] if (ranked := _RANKED.search(bare)) else 1,
            tuple(
                m[2].lower() for m in _STARTING.finditer(question[:_CONDITION_CHARS])
                if m[1] or re.search(r"[\d\-A-Z]", m[2])
            ),
            frozenset(_PERIODIC[w] for w in said if w in _PERIODIC),
        )  # fmt: skip

    @property
    def direction(self) -> int:
        return 1 if self.said & _HIGHEST else -1 if self.said & _LOWEST else 0

    @property
    def when(self) -> int:
        """1 for the latest of a column of dates, -1 for the earliest, else 0."""
        return 1 if self.said & _LATEST else -1 if self.said & _EARLIEST else 0

    @property
    def counting(self) -> bool:
        return bool(self.phrases & COUNTING or "count" in self.said)

    @property
    def sharing(self) -> bool:
        return bool(self.said & _SHARE)

    @property
    def summing(self) -> bool:
        return bool(self.said & _SUM or self.phrases & SUMMING)


def _answer(
    table: _Table,
    question: str,
    terms: Sequence[str],
    filename: str,
    lookups: Sequence[_Table] = (),
) -> _Answer | None:
    """What ``question`` asks of ``table`` (see the module's docstring for the rules),
    ``lookups`` being the other tables of its file."""
    if not table.rows:
        return None
    asked = _Question.of(question, terms)
    view = _View.of(table, asked, filename, lookups)
    if view is None:
        return _best_row(table, asked.wanted)
    answer = _answer_of(table, asked, view)
    if answer is not None and answer.column >= len(table.header):  # computed, as a difference
        return dataclasses.replace(answer, label=view.names[answer.column])
    return answer


def _answer_of(table: _Table, asked: _Question, view: _View) -> _Answer | None:
    column, filters = view.column, view.filters
    summing = asked.summing and not view.total_named
    counting = asked.counting or (asked.sharing and view.target is None)
    if view.compared and not (view.keep & view.counted).any():
        return view.nothing_meets()
    conditioned = bool(view.compared) or view.absent is not None
    # "the average bill depth by species", "How many penguins of each species?"
    by, extreme = view.grouped_by(asked.grouping, asked.then), 0
    # an amount adds up over what repeats: "Which customer had the highest invoiced net
    # amount?" asks for the customer of the highest total, not of the largest line
    adds = column is not None and _adds_up(view.names[column])
    if by is None and asked.direction and (asked.said & (_MEAN | _MEDIAN | _SUM) or adds):
        # "Which symbol has the highest average price?": the group of the highest one
        by, extreme = view.grouped_by(asked.listing), asked.direction
    kind = (
        "mean" if asked.said & _MEAN else "median" if asked.said & _MEDIAN
        else "std" if asked.said & _SPREAD
        # "How many units per region?" sums the column it names, as without groups
        else "sum" if summing or (counting and column is not None and view.named_here)
        or (extreme and adds)
        else ("max" if asked.direction > 0 else "min") if asked.direction
        else "count" if counting else None
    )  # fmt: skip
    # "Difference in total flight hours between G-TBRA and G-TBRK": each side's, then apart
    if view.apart is not None and column is not None:
        apart = view.between("mean" if kind == "mean" else "sum", column)
        if apart is not None:
            return apart
    # "the average number of defects per month", "the average monthly revenue": each
    # period's count or total, averaged over the periods (not the average row's)
    total = "sum" if adds else "count" if counting else ""
    periods = by if by is not None or not asked.periodic else view.grouped_by(asked.periodic)
    if (
        periods is not None
        and kind == "mean"
        and total
        and not asked.direction
        and _periodic(view, periods)
    ):
        averaged = view.per_group(*periods, total, column, averaged=True)
        if averaged is not None:
            return averaged
    # (asked for nothing computed, "the price per unit" is no group)
    if by is not None and column != by[0] and kind is not None:
        grouped = view.per_group(*by, kind, column, extreme, asked.rank)
        if grouped is not None:
            return grouped
    # the table itself: "Describe the data", "What columns does it have?", "How many rows?"
    if (
        not filters
        and not conditioned
        and kind is None
        and column is None
        and asked.whole
        and table.numbered
    ):
        return view.overview()
    if not filters and not conditioned and asked.said & TABLE_COLUMNS:
        return _Answer("columns", (), value=f"{len(table.header)}")
    if counting and asked.said & TABLE_ROWS and (view.keep & view.counted).any():
        return view.count(asked.sharing)
    if counting and conditioned and (column is None or column in view.compared):
        return view.count(asked.sharing)
    # "What share of revenue came from North?": the part of a column's total
    if asked.sharing and view.target is not None and (filters or conditioned):
        part = view.part(view.target)
        if part is not None:
            return part
    # "What period does it cover?", "How many trading days does it cover?": its dates
    calendar = view.calendar() if asked.said & (_STRETCH | _DAYS) else None
    if calendar is not None and asked.said & _STRETCH and view.target is None:
        stretch = view.stretch(*calendar)
        if stretch is not None:
            return stretch
    extent = view.extent(column) if column is not None and asked.said & _RANGE else None
    if extent is not None:  # "What is the range of Close?"
        return extent
    if counting and asked.said & _DAYS and not view.compared and calendar is not None:
        return view.count(asked.sharing) if filters else view.days(*calendar)
    if column is not None and asked.said & _MEAN:
        return view.compute("mean", column)
    if column is not None and asked.said & _MEDIAN:
        return view.compute("median", column)
    if column is not None and asked.said & _SPREAD:
        return view.compute("std", column)
    # "how many" sums a column the question names ("How many units did North sell?"), not
    # one an earlier turn did ("And how many versicolor?" after an average sepal width)
    if column is not None and (summing or (asked.counting and view.named_here)):
        return view.compute("sum", column)
    if counting and not filters and not view.compared:
        kinds = {c: None for c in view.frame.columns if c not in view.numeric}
        if (named := _named(view.names, kinds, asked.wanted)) is not None:
            return view.distinct(named)
    # "How many countries are in Africa?": the countries among the rows kept
    if counting and (filters or view.compared) and asked.counted:
        kinds = {c: None for c in view.frame.columns if c not in view.numeric and c not in filters}
        counted = _named(view.names, kinds, asked.counted)
        if counted is not None:
            cells = view.frame[counted][view.keep & view.counted]
            if 0 < cells.nunique() < len(cells):
                return view.distinct(counted)
    # (a stretch of days filters a column of times, each a row's own: not a row looked up)
    spanned = view.span[0] if view.span is not None else None
    # (nor is a month or a year of a column of days: "assessed in the first half of 2024")
    repeated = all(
        view.frame[c].nunique() < len(view.frame)
        for c, words in filters.items()
        if c != spanned and not _all_dates(words)
    )
    if counting and (filters or view.explained) and repeated and (view.keep & view.counted).any():
        return view.count(asked.sharing)
    if column is not None and asked.direction:
        return view.compute("max" if asked.direction > 0 else "min", column, asked.rank)
    # "What was the first egg date?": the row of the earliest date
    # (not "How many pipes had their *last* condition assessment in ...?": a count)
    dated = view.calendar(asked.wanted) if asked.when and column is None and not counting else None
    if dated is not None:
        return view.first(*dated, asked.when)
    text = {c: None for c in view.frame.columns if c not in view.numeric and c not in filters}
    listed = _named(view.names, text, asked.listing) if asked.listing else None
    if listed is None and asked.said & _COMMON:  # "What was the most common type?"
        listed = _named(view.names, text, asked.wanted)
    # "Which island has the most penguins?": the value of the most rows
    if listed is not None and asked.said & _MOST and not conditioned:
        common = view.mode(listed, asked.direction, asked.rank)
        if common is not None:
            return common
    # "Which symbols are in the table?": the column's values
    if listed is not None and not (filters or conditioned or asked.direction):
        return view.distinct(listed)
    if filters or conditioned:
        if not view.keep.any():  # "Which days have no Volume?" of a table with every one
            return _Answer("none", (), scope=view.scope, of=view.total)
        return _Answer("rows", view.rows(view.keep), scope=view.scope)
    return _best_row(table, asked.wanted)


@dataclass(frozen=True, slots=True)
class _View:
    """A table as a question reads it, in pandas: its filters, the rows they keep, its
    numeric columns, and the one the question asks about."""

    frame: pd.DataFrame
    names: list[str]
    filters: dict[int, frozenset[str]]
    keep: pd.Series
    counted: pd.Series
    """Rows that take part in computations: not a "Total" row."""
    numeric: dict[int, tuple[pd.Series, int]]
    target: int | None
    """The numeric column the question names."""
    column: int | None
    """The column computed over: ``target``, else the only numeric column."""
    explained: bool
    """Whether every question word is a column's, a filter's or the file name's."""
    compared: dict[int, _Condition]
    """The numeric columns the question compares with a number, and how."""
    matched: pd.Series
    """The rows the filters keep, before the conditions."""
    named_here: bool
    """Whether the question's own words name ``target`` (not a turn before it)."""
    absent: int | None
    """The column the question asks to be empty ("no GOOGL price"): its rows kept are
    those with an empty cell there, or a 0 in a column of numbers ("no returns")."""
    total_named: bool = False
    """Whether the question's "total" names ``target`` (``total_bill``), not a sum."""
    span: tuple[int, str, str] | None = None
    """The column of days a stretch of them filters, and its first and last day."""
    joined: Mapping[int, str] = dataclasses.field(default_factory=dict)
    """The columns another table of the file filters, and what chose their values there
    (``Engineer ID``: "Depot Preston")."""
    excluded: Mapping[int, tuple[str, ...]] = dataclasses.field(default_factory=dict)
    """The columns whose cells left rows out, and those cells ("Status not Cancelled")."""
    apart: tuple[int, pd.Series, pd.Series] | None = None
    """The column whose values the question sets apart ("between G-TBRA and G-TBRK"), and
    the rows of each side."""
    unnamed: frozenset[int] = frozenset()
    """The columns whose header cell is blank (a chart's categories, a frame's index): their
    values say what they are."""

    @classmethod
    def of(
        cls, table: _Table, asked: _Question, filename: str, lookups: Sequence[_Table] = ()
    ) -> _View | None:
        """None when the question's filters keep no row."""
        import pandas as pd

        frame = pd.DataFrame(list(table.rows), dtype=object)
        frame = _iso_days(frame.map(lambda cell: "" if cell.strip() in _MISSING else cell))
        names = _column_names(table.header)
        naming = set().union(*map(_column_words, names))
        # what every row is ("How many airports are there?" of airports.csv) filters none
        titled = _words(PurePath(filename).stem)
        said = {t for t in asked.wanted - naming - titled - asked.excluded if _filtering(t)}
        # but one that is whole cells of some rows only sorts them ("AOG" requests of
        # ``aog_requests.json``, whose priority is "AOG", "Critical" or "Routine")
        said |= {t for t in asked.wanted & titled - naming if _filtering(t) and _sorts(frame, t)}
        cuts = {month_cut(m) for m in asked.months} | {c for w in said for c in WEEKDAYS.get(w, ())}
        filters = _filters(frame, said | cuts)
        before = _filters(frame, {t for t in asked.earlier - naming if _filtering(t)})
        filters |= {c: words for c, words in before.items() if c not in filters}
        dated = _dated(frame, names, asked.dates | asked.years, asked.months)
        filters |= {c: words for c, words in dated.items() if c not in filters}
        spanned = _spanned(frame, asked.span) if asked.span else {}
        if asked.span and not spanned:
            return None  # no day of the table is within them
        filters |= spanned
        filters |= _whether(frame, names, asked, filters)
        for c, cells in _spelled(frame, asked.spelled).items():  # "INC-102", not "inc"
            spelled = set().union(*map(_words, cells))  # as the filters stem them: "vet"
            filters[c] = frozenset(w for w in filters.get(c, ()) if w not in spelled) | cells
        for prefix in asked.prefixes:
            started = _started(frame, prefix)
            if started is not None:  # its words alone ("ab") are every code's
                bare = _words(prefix)
                filters = {c: w - bare for c, w in filters.items() if w - bare}
                filters[started[0]] = started[1]
        for word, letter in asked.graded:
            graded = _graded(frame, names, word, letter)
            if graded is not None and graded not in filters:
                filters[graded] = frozenset({letter.lower()})
        held = _filter_words(filters)
        joined: dict[int, str] = {}
        # "jobs completed by engineers based at the Preston depot": their ids (not of a
        # table the question filters nothing of: "How many engineers are at Preston?")
        for lookup in lookups if held else ():
            join = _joined(names, lookup, frozenset(said - held))
            if join is not None and join[0] not in filters:
                filters[join[0]], joined[join[0]] = join[1], join[2]
        keep = pd.Series(True, index=frame.index)
        for c, words in filters.items():
            keep &= _kept(frame[c], words)
        excluded: dict[int, tuple[str, ...]] = {}
        # (what any table's rows are, "lines", leaves none out)
        leaving = {t for t in asked.excluded - _ROW_NOUNS if _filtering(t)}
        for c, words in _filters(frame, leaving).items():
            out = frame[c].map(lambda cell, w=words: _holds(str(cell), w, ()))
            excluded[c] = tuple(frame[c][out].unique())
            keep &= ~out
        if (filters or excluded) and not keep.any():
            return None
        summary = frame.apply(lambda cells: cells.map(lambda c: str(c).lower() in _SUMMARY_CELLS))
        counted = ~summary.any(axis=1)
        numeric = {c: v for c in frame.columns if c not in filters and (v := _numeric(frame[c]))}
        matched = keep.copy()
        compared: dict[int, _Condition] = {}
        for condition in asked.conditions:
            on = _condition_column(names, numeric, condition, asked.wanted)
            # "with 2 questions": no column's count; "installed before 1970" of dates
            if on is None and (condition.op == "=" or condition.soft):
                continue
            if on is None:  # a condition on no column ("a stem length over 3"): none holds
                return None
            compared[on] = condition
            keep &= condition.holds(numeric[on][0]).reindex(frame.index, fill_value=False)
        columns = dict.fromkeys(frame.columns)
        named = (_named(names, columns, words) for words in asked.absent)
        absent = next((c for c in named if c is not None), None)
        filtered = {w for words in filters.values() for w in words}
        if asked.absent and absent is None and not all(w <= filtered for w in asked.absent):
            return None  # "no discount" of a table without one; not "Aborted - no access"
        if absent is not None:
            values = numeric[absent][0] if absent in numeric else None
            empty = frame[absent].map(lambda cell: not str(cell).strip())
            if values is not None:
                empty |= (values == 0).reindex(frame.index, fill_value=False)
            keep &= empty
        others = {c: v for c, v in numeric.items() if c not in compared and c != absent}
        # "How many penguins have no culmen length?": not of the culmen's depth
        gone = names[absent] if absent is not None else ""
        # nor is it of the rows left out ("not counting cancelled *lines*": not ``Line``)
        asking = frozenset(
            t for t in asked.asking - asked.excluded if not _names(gone, frozenset({t}))
        )
        # what the question lists names no measure when another word does ("In which
        # year were the most miles driven?": ``miles``, its row's year)
        if _named(names, others, asking - asked.listing) is not None:
            asking -= asked.listing
        # "the largest *total* bill", "the highest *total*": a word that asks for a sum
        # names a column with it when another computation is asked
        totals = asked.said & _SUM if asked.direction or asked.said & _AVERAGING else set()
        titled_total = _named(names, others, asking | totals) if totals else None
        if titled_total is not None and _names(names[titled_total], frozenset(totals)):
            asking |= totals
        else:
            totals = set()
        target = _named(names, others, asking)
        # the words naming it that another column's name holds with more of the question's
        # are that column's: "How many pipes had their last condition assessment in ...?"
        # counts pipes, not ``condition_grade``
        if target is not None:
            rival = _named(names, {c: None for c in frame.columns if c not in others}, asking)
            if rival is not None and _naming(names[target], asking) < _naming(names[rival], asking):
                target = None
        if target is None and asked.counting:  # "How many kg ...": the quantity in kg
            target = _measured_in(names, others, filters)
        difference = asked.difference
        pair = _differed(names, others, difference, asking) if difference else None
        months = (
            _month_columns(names, others, asked.wanted)
            if target is None
            else _periods(names, others, target, asked.wanted)
        )
        derived: tuple[str, tuple[pd.Series, int]] | None = None  # a column of its own
        if pair is not None and difference is not None:
            derived = (
                _difference_name(names, pair, difference),
                _subtracted(numeric, pair, difference),
            )
        elif months and (asked.direction or asked.said & _SUM):  # each row's periods, added
            derived = f"{names[months[0]]} to {names[months[-1]]}", _added(numeric, months)
        if derived is not None:
            target = len(names)
            names = [*names, derived[0]]
            others[target] = numeric[target] = derived[1]
            places = numeric[target][1]
            shown = numeric[target][0].map(lambda value: _format(value, places, "sum"))
            frame[target] = shown.reindex(frame.index, fill_value="")
        elif target is not None and asked.direction:  # "highest temperature": temp_max
            extreme = _named(names, others, asking | _EXTREMES[asked.direction])
            if extreme is not None and _names(names[extreme], asking) == _names(
                names[target], asking
            ):
                target = extreme
        named_here = target is not None
        target = _named(names, others, asked.earlier) if target is None else target
        # The only numeric column, when the question says nothing the table does not hold:
        # "What is the total for North?" (and not "total revenue" of a sheet of targets).
        found = _filter_words(filters)
        explained = asked.wanted - _ROW_NOUNS <= naming | found | titled
        # "Which assignee has the most tickets?" counts rows, not the one numeric column
        text = {c: None for c in frame.columns if c not in numeric and c not in filters}
        ranks = bool(asked.said & _MOST) and _named(names, text, asked.listing) is not None
        only = len(numeric) == 1 and explained and not ranks
        column = next(iter(numeric)) if target is None and only else target
        return cls(
            frame, names, filters, keep, counted, numeric, target, column, explained, compared,
            matched, named_here, absent, bool(totals),
            next(((c, *asked.span) for c in spanned), None) if asked.span else None, joined,
            excluded, _apart(frame, difference) if pair is None and difference else None,
            frozenset(c for c, cell in enumerate(table.header) if not cell.strip()),
        )  # fmt: skip

    @property
    def scope(self) -> str:
        """The filters as words: ``Region North, Month March``; a date's by the question's
        own (``Date 2020``, ``Date Sep``, not twelve dates); at most :data:`_SHOWN_VALUES`
        values each; values that start with their column's name without it (``Store 17``,
        not ``Store Store 17``)."""
        kept = self.frame[self.matched]
        found = []
        for c, words in self.filters.items():
            dated = _all_dates(words)
            cut = sorted(w.title() if w in MONTH_CUTS else w for w in words)
            shown = cut if dated else list(kept[c].unique())
            more = [f"{len(shown) - _SHOWN_VALUES} more"] if len(shown) > _SHOWN_VALUES else []
            said = " or ".join([*shown[:_SHOWN_VALUES], *more])
            if self.span is not None and c == self.span[0]:
                said = f"{self.span[1]} to {self.span[2]}".replace(f"{ANY_YEAR}-", "")
            if c in self.joined:  # "Engineer ID of Depot Preston", not their ids
                found.append(f"{self.names[c]} of {self.joined[c]}")
                continue
            named = all(str(v).lower().startswith(f"{self.names[c].lower()} ") for v in shown)
            named = named or c in self.unnamed  # "Brussels", not "column 1 Brussels"
            found.append(said if named else f"{self.names[c]} {said}")  # "Store 17"
        found += [f"{self.names[c]} not {' or '.join(v)}" for c, v in self.excluded.items()]
        compared = [f"{self.names[c]} {k.op} {k.value}" for c, k in self.compared.items()]
        absent = [] if self.absent is None else [f"{self.names[self.absent]} {self.empty}"]
        return ", ".join(found + compared + absent)

    @property
    def total(self) -> int:
        return int(self.counted.sum())

    @property
    def empty(self) -> str:
        """How the rows kept are empty in the column asked to be: "empty", or "empty or 0"
        when a kept row holds a 0 there."""
        numbers = self.numeric.get(self.absent) if self.absent is not None else None
        zero = numbers is not None and bool((numbers[0][self.keep[numbers[0].index]] == 0).any())
        return "empty or 0" if zero else "empty"

    def rows(self, mask: pd.Series) -> tuple[int, ...]:
        return tuple(int(i) for i in self.frame.index[mask])

    def count(self, share: bool) -> _Answer:
        """The rows kept, counted (``share``: as a share of the rows too)."""
        rows = self.rows(self.keep & self.counted)
        value = f"{len(rows):,}"
        return _Answer("count", rows, value=value, scope=self.scope, of=self.total, share=share)

    def part(self, column: int) -> _Answer | None:
        """The total of ``column`` over the rows kept, as a share of its total over the
        table ("412,000 of 1,109,100 (37.1%)"); None when the table's total is 0."""
        values, places = self.numeric[column]
        counted = values[self.counted[values.index]]
        kept = counted[self.keep[counted.index]]
        whole = float(counted.sum())
        if kept.empty or not whole:
            return None
        part = float(kept.sum())
        shown = f"{_format(part, places, 'sum')} of {_format(whole, places, 'sum')}"
        rows = tuple(int(i) for i in kept.index)
        return _Answer("part", rows, column, f"{shown} ({part / whole:.1%})", self.scope, len(rows))

    def grouped_by(
        self, words: frozenset[str], then: frozenset[str] = frozenset()
    ) -> tuple[int, str, pd.Series, int] | None:
        """The column named by the words after "by", "per" or "each", if it repeats its
        values (a column of ids groups nothing), or "year" or "month" of the column of
        dates (:meth:`calendar`): the column, "", "year" or "month", each row's group (the
        rows computed over, empty cells left out), and the column ``then`` names that
        groups each group again ("by species and sex": "Adelie, female"; else -1). Two
        columns whose pairs are each one row's group nothing: they say what a row is."""
        columns = {c: None for c in self.frame.columns if c not in self.filters}
        by = _named(self.names, columns, words) if words else None
        if by is not None and self.frame[by][self.counted].nunique() < self.total:
            groups = self.frame[by][self.counted]
            del columns[by]
            second = _named(self.names, columns, then) if then else None
            if second is None or self.frame[second][self.counted].nunique() == self.total:
                return by, "", groups[groups != ""], -1
            also = self.frame[second][self.counted]
            kept = (groups != "") & (also != "")
            pairs = (groups + ", " + also)[kept]
            # "the average revenue per store and month" of a row per store and month
            return None if pairs.is_unique else (by, "", pairs, second)
        period = next((p for p in ("year", "month") if p in words), None)
        dated = self.calendar() if period is not None else None
        if dated is None or period is None:
            return None
        dates = dated[1].dt.strftime("%Y" if period == "year" else "%Y-%m")
        return dated[0], period, dates, -1

    def per_group(
        self,
        by: int,
        period: str,
        keys: pd.Series,
        then: int,
        kind: str,
        column: int | None,
        extreme: int = 0,
        rank: int = 1,
        *,
        averaged: bool = False,
    ) -> _Answer | None:
        """``kind`` (a count of rows, or "mean", "sum", ... of the numeric ``column``) for
        each group of the rows kept (``keys``: :meth:`grouped_by`'s, of ``by`` and ``then``,
        or of its dates' year or month, ``period``): counts the largest first (a date's years or
        months in order), the others in the order the table first has them; each group
        cited by its first row; only the highest (``extreme`` 1) or lowest (-1), or the
        one ``rank`` places from it. ``averaged``: the groups' counts or sums, averaged,
        a year or month of dates between the first and last kept with none counted 0."""
        groups = keys[self.keep[keys.index]]
        if groups.empty:
            return None
        if averaged:
            return self._averaged(by, period, keys, groups, kind, column)
        if kind == "count":  # the commonest first, as value_counts has them; years in order
            counts = groups.value_counts(sort=not period)
            counts = counts.sort_index() if period else counts
            shown = [f"{g} {n:,}" for g, n in counts.items()]
            order = list(counts.index)
            of = len(groups)
        else:
            if column is None:
                return None
            values, places = self.numeric[column]
            values = values[values.index.isin(groups.index)]
            parted = values.groupby(groups[values.index], sort=False)
            computed, sizes = getattr(parted, kind)(), parted.size()
            computed = computed[computed.notna()]  # a group of one has no standard deviation
            if extreme:
                computed = computed.sort_values(ascending=extreme < 0, kind="stable")
                computed = computed.iloc[rank - 1 : rank]
                if computed.empty:
                    return None
            shown = [
                f"{g} {_format(v, places, kind)} ({_rows(int(sizes[g]))})"
                for g, v in computed.items()
            ]
            order = list(computed.index)
            of = len(values)
        first = groups[~groups.duplicated()]
        firsts = tuple(int(first.index[first == g][0]) for g in order)
        return _Answer(
            kind, firsts, -1 if column is None else column, f"{len(shown)}", self.scope, of,
            values=tuple(shown), by=by, period=period, extreme=extreme, then=then,
            rank=rank if extreme else 1,
        )  # fmt: skip

    def _averaged(
        self,
        by: int,
        period: str,
        keys: pd.Series,
        groups: pd.Series,
        kind: str,
        column: int | None,
    ) -> _Answer | None:
        """:meth:`per_group`'s ``averaged``: the count or sum of each group (``groups``, the
        kept rows' of ``keys``), then their mean."""
        import pandas as pd

        if kind == "count":
            totals, places = groups.value_counts(sort=False).sort_index(), 0
        elif column is not None:
            values, places = self.numeric[column]
            values = values[values.index.isin(groups.index)]
            if values.empty:
                return None
            totals = values.groupby(groups[values.index]).sum()
        else:
            return None
        if period:  # each month or year of the dates asked for, none kept: 0
            within = keys  # every row's, read once by :meth:`grouped_by`
            if by in self.filters:
                within = within[_kept(self.frame[by], self.filters[by])[within.index]]
            spanned = pd.period_range(within.min(), within.max(), freq=period[0].upper())
            between = spanned.strftime("%Y" if period == "year" else "%Y-%m")
            totals = totals.reindex(between, fill_value=0)
        shown = tuple(f"{g} {_format(v, places, 'sum')}" for g, v in totals.items())
        first = groups[~groups.duplicated()]
        firsts = tuple(int(first.index[first == g][0]) for g in totals.index if (first == g).any())
        return _Answer(
            "mean", firsts, -1 if column is None or kind == "count" else column,
            _format(float(totals.mean()), places, "mean"), self.scope, len(groups),
            values=shown, by=by, period=period, averaged=kind,
        )  # fmt: skip

    def mode(self, column: int, direction: int, rank: int = 1) -> _Answer | None:
        """The value of ``column`` the most rows kept have (``direction`` -1: the fewest;
        ``rank`` 2: the second most), its rows cited; None when no value is in two rows
        (every product once)."""
        cells = self.frame[column][self.keep & self.counted]
        counts = cells[cells != ""].value_counts(sort=False)
        placed = _placed(counts, rank, highest=direction > 0)
        if counts.empty or counts.max() < 2 or placed is None:
            return None
        best = int(placed)
        values = tuple(str(v) for v in counts.index[counts == best])
        rows = self.rows((self.keep & self.counted) & self.frame[column].isin(values))
        kind = "most" if direction > 0 else "fewest"
        return _Answer(
            kind, rows, column, f"{best:,}", self.scope, len(cells), values=values, rank=rank
        )

    def distinct(self, column: int) -> _Answer:
        """The distinct values of ``column`` among the rows kept ("How many species are
        there?", "How many countries are in Africa?"), each cited by the first row that
        has it."""
        kept = self.counted & self.keep
        cells = self.frame[column][kept]
        first = cells[~cells.duplicated()]
        rows = tuple(int(i) for i in first.index)
        values = tuple(str(v) for v in first)
        return _Answer(
            "distinct", rows, column, f"{len(rows):,}", self.scope, int(kept.sum()), values=values
        )

    def days(self, column: int, dates: pd.Series) -> _Answer:
        """How many distinct ``dates`` (``column``'s, :meth:`calendar`) the rows hold, from
        the first to the last ("How many trading days does it cover?"), those two cited:
        ten dates of a year say less than where it starts and ends."""
        rows, ends = self._ends(column, dates)
        count = f"{dates.dt.normalize().nunique():,}"
        return _Answer("days", rows, column, count, of=self.total, values=ends)

    def overview(self) -> _Answer:
        """What the table holds ("Describe the data"): its columns and rows, and the first
        and last of its dates (:meth:`calendar`), those rows cited, else its first row."""
        columns = f"{len(self.names)}"
        calendar = self.calendar()
        if calendar is None:
            return _Answer("overview", (0,), value=columns, of=self.total)
        rows, ends = self._ends(*calendar)
        return _Answer("overview", rows, calendar[0], columns, of=self.total, values=ends)

    def _ends(self, column: int, dates: pd.Series) -> tuple[tuple[int, ...], tuple[str, str]]:
        """The rows of the first and the last of ``dates`` (one, when they are the same
        row), and ``column``'s cells there, as the table writes them."""
        low, high = int(dates.idxmin()), int(dates.idxmax())
        cells = self.frame[column]
        return tuple(dict.fromkeys((low, high))), (cells[low], cells[high])

    def calendar(self, words: frozenset[str] = frozenset()) -> tuple[int, pd.Series] | None:
        """The leftmost column of dates (of those whose name holds the most of ``words``)
        and its dates by row (the rows computed over, its empty cells left out): every
        cell of it (one at least) reads as a date and it is no column of numbers."""
        import pandas as pd

        for c in sorted(self.frame.columns, key=lambda c: (-_names(self.names[c], words), c)):
            cells = self.frame[c][self.counted].map(str).str.strip()
            cells = cells[cells != ""]
            if c in self.numeric or cells.empty:
                continue
            read = pd.to_datetime(cells, errors="coerce", format="mixed")
            if read.notna().all():
                return int(c), read
        return None

    def stretch(self, column: int, dates: pd.Series) -> _Answer | None:
        """The first and the last of ``dates`` (``column``'s, :meth:`calendar`) among the
        rows kept ("12-Jun-03 to 19-Sep-03", whatever order the rows are in)."""
        return self._between(column, dates[self.keep[dates.index]])

    def first(self, column: int, dates: pd.Series, when: int) -> _Answer:
        """The row of the earliest (``when`` -1) or the latest of ``dates`` (``column``'s,
        :meth:`calendar`) among the rows kept."""
        kept = dates[self.keep[dates.index]]
        row = int(kept.idxmax() if when > 0 else kept.idxmin())
        kind = "latest" if when > 0 else "earliest"
        return _Answer(kind, (row,), column, str(self.frame[column][row]), self.scope, len(kept))

    def extent(self, column: int) -> _Answer | None:
        """The lowest and the highest value of the numeric ``column`` among the rows kept
        ("27.41 to 29.96")."""
        values, _ = self.numeric[column]
        return self._between(column, values[(self.keep & self.counted)[values.index]])

    def _between(self, column: int, values: pd.Series) -> _Answer | None:
        """From the lowest to the highest of ``values`` (read off ``column``'s cells, by
        row), each cited by its first row, as the cells write them; None without one."""
        if values.empty:
            return None
        low, high = values.idxmin(), values.idxmax()
        shown = f"{self.frame[column][low]} to {self.frame[column][high]}"
        rows = (int(low), int(high)) if low != high else (int(low),)
        return _Answer("stretch", rows, column, shown, self.scope, len(values))

    def nothing_meets(self) -> _Answer:
        """No row meets the conditions: the row nearest to meeting the first, cited (the
        highest value for "above 3", the lowest for "below 1")."""
        column, condition = next(iter(self.compared.items()))
        values = self.numeric[column][0]
        values = values[(self.matched & self.counted)[values.index]]
        if values.empty:
            return _Answer("none", (), column, scope=self.scope, of=self.total)
        lowest = condition.op in _BELOW | _AT_MOST
        best = values.idxmin() if lowest else values.idxmax()
        shown = str(self.frame[column][best])
        nearest = "lowest" if lowest else "highest"
        return _Answer("none", (int(best),), column, shown, self.scope, self.total, nearest=nearest)

    def between(self, kind: str, column: int) -> _Answer | None:
        """``kind`` ("sum" or "mean") of ``column`` over each side's rows kept, and the
        first side's less the second's; None when a side keeps no row."""
        if self.apart is None:
            return None
        by, first, second = self.apart
        values, places = self.numeric[column]
        kept = (self.keep & self.counted)[values.index]
        sides = [values[kept & side[values.index]] for side in (first, second)]
        if any(side.empty for side in sides):
            return None
        computed = [float(getattr(side, kind)()) for side in sides]
        shown = [
            f"{' or '.join(self.frame[by][side.index].unique())} {_format(v, places, kind)}"
            for side, v in zip(sides, computed, strict=True)
        ]
        value = _format(computed[0] - computed[1], places, kind)
        rows = tuple(int(i) for i in sorted({*sides[0].index, *sides[1].index}))
        return _Answer(
            "between", rows, column, value, self.scope, len(rows), values=(*shown, kind), by=by
        )

    def compute(self, kind: str, column: int, rank: int = 1) -> _Answer | None:
        """``kind`` ("sum", "mean", "median", "std", "max" or "min", the ``rank``-th
        highest or lowest value) of ``column`` over the rows kept (a standard deviation,
        of a sample, over two at least)."""
        values, places = self.numeric[column]
        values = values[(self.keep & self.counted)[values.index]]
        if values.empty or (kind == "std" and len(values) < 2):
            return None
        if kind in {"max", "min"}:
            best = _placed(values, rank, highest=kind == "max")
            if best is None:
                return None
            rows = values.index[values == best]
            shown = str(self.frame[column][rows[0]])
        else:
            rows = values.index
            computed = {
                "mean": values.mean, "median": values.median, "sum": values.sum, "std": values.std
            }[kind]  # fmt: skip
            shown = _format(computed(), places, kind)
        cited = tuple(int(i) for i in rows)
        return _Answer(kind, cited, column, shown, self.scope, len(values), rank=rank)


def _naming(column: str, words: frozenset[str]) -> frozenset[str]:
    """Those of ``words`` that a column's name holds (:func:`_names`)."""
    return frozenset(w for w in words if _names(column, frozenset({w})))


def _kept(cells: pd.Series, words: frozenset[str]) -> pd.Series:
    """The rows whose cell a column's filter words keep: words one cell holds together are
    that cell ("aborted", "access": "Aborted - no access", not "Aborted - safety"); else
    any ("North", "South")."""
    dates = _dates_of(words)
    holds = cells.map(lambda cell: _holds(str(cell), words, dates))
    together = cells.map(lambda cell: words <= _words(str(cell)))
    return together if len(words) > 1 and together.any() else holds


def _periodic(view: _View, by: tuple[int, str, pd.Series, int]) -> bool:
    """Whether rows are grouped by a period: a date's year or month, or a column named so
    ("Month")."""
    return bool(by[1]) or bool(_column_words(view.names[by[0]]) & _PERIODS)


def _placed(values: pd.Series, rank: int, *, highest: bool) -> float | None:
    """The value ``rank`` places from the highest (or the lowest) of the distinct
    ``values``; None when they are fewer."""
    distinct = sorted(set(values), reverse=highest)
    return distinct[rank - 1] if len(distinct) >= rank else None


def _apart(frame: pd.DataFrame, difference: _Difference) -> tuple[int, pd.Series, pd.Series] | None:
    """The column whose cells the two sides of a difference no pair of columns makes say
    ("between G-TBRA and G-TBRK": ``Registration``), and the rows of each side; None when
    they are not cells of one column."""
    sides = [
        _filters(frame, {w for w in words if _filtering(w)})
        for words in (difference.first, difference.second)
    ]
    if (
        difference.sign
        or any(len(side) != 1 for side in sides)
        or sides[0].keys() != sides[1].keys()
    ):
        return None  # (a sign: one column set against another, "vs budget")
    (column,) = sides[0]
    first, second = (
        frame[column].map(lambda cell, w=side[column]: _holds(str(cell), w, ())) for side in sides
    )
    return None if (first & second).any() else (column, first, second)


def _differed(
    names: list[str], numeric: Mapping[int, object], difference: _Difference, words: frozenset[str]
) -> tuple[int, int] | None:
    """The two columns of ``difference``, first and second: names that differ by one word
    each, the second's own word named by its words (and the first's by its own, when it
    has any), and of such pairs the one whose shared words the question names most
    ("H2" of the pairs of H1 and H2); None when no pair, or two alike, are."""
    own = {c: _column_words(names[c]) for c in numeric}
    pairs = {
        (a, b): _names(" ".join(own[a] & own[b]), words)
        for a in numeric
        for b in numeric
        if len(own[a] - own[b]) == len(own[b] - own[a]) == 1
        and _names(" ".join(own[b] - own[a]), difference.second)
        and (not difference.first or _names(" ".join(own[a] - own[b]), difference.first))
    }
    best = sorted(pairs, key=lambda pair: -pairs[pair])
    if not best or (len(best) > 1 and pairs[best[0]] == pairs[best[1]]):
        return None
    return best[0]


def _difference_name(names: list[str], pair: tuple[int, int], difference: _Difference) -> str:
    first, second = pair if difference.sign >= 0 else pair[::-1]
    shown = f"{names[first]} − {names[second]}"
    return shown if difference.sign else f"Difference of {names[first]} and {names[second]}"


def _month_columns(
    names: list[str], numeric: Mapping[int, object], wanted: frozenset[str]
) -> tuple[int, ...]:
    """The numeric columns of a sheet of months ("Jan" to "Dec", three at least) that a
    question which names none of them totals: those of the quarter it says ("Q3": "Jul",
    "Aug", "Sep"), else all of them."""
    months = {c: month_number(n) for c, n in enumerate(names)}
    found = tuple(c for c in numeric if months.get(c))
    if len(found) < _MONTH_COLUMNS:
        return ()
    quarter = next((int(w[1]) for w in wanted if _QUARTER.fullmatch(w)), None)
    if quarter is None:
        return found
    return tuple(c for c in found if _quarter_of(months[c] or 0) == quarter)


def _quarter_months(text: str) -> frozenset[str]:
    """The months of the quarters or halves ``text`` says ("in Q2 2025": April, May and
    June; "H1", "the first half of 2024": January to June): a column of days is filtered
    to them, as to a month it names."""
    lowered = text.lower()
    quarters = {int(w[1]) for w in _WORD.findall(lowered) if _QUARTER.fullmatch(w)}
    halves = {int(w[1]) for w in _WORD.findall(lowered) if _HALF.fullmatch(w)}
    halves |= {1 if m[1] == "first" else 2 for m in _HALF_SAID.finditer(lowered)}
    return frozenset(
        m for m, n in MONTHS.items() if _quarter_of(n) in quarters or (n + 5) // 6 in halves
    )


_HALF = re.compile(r"h[12]")
_HALF_SAID = re.compile(r"\b(first|second)\s+half\b")


_MONTH_STRETCH = re.compile(
    r"\b([^\W\d_]{3,9})\.?\s*(?:to|through|till|until|-|–)\s*([^\W\d_]{3,9})\b", re.I
)


_MONTH_NUMBERS = {**MONTHS, **MONTH_CUTS}
"""A month's number by its name, whole or cut ("september", "sep")."""


def _month_stretch(text: str) -> frozenset[str]:
    """The months of the stretches of them ``text`` says ("July to September", "Jan to Jun
    2025"; "Nov to Feb" over the new year), first and last included."""
    found: set[str] = set()
    names = list(MONTHS)
    for m in _MONTH_STRETCH.finditer(text):
        first, last = _MONTH_NUMBERS.get(m[1].lower()), _MONTH_NUMBERS.get(m[2].lower())
        if first is not None and last is not None and "may" not in {m[1], m[2]}:
            length = (last - first) % _MONTHS_IN_YEAR + 1
            found |= {names[(first - 1 + k) % _MONTHS_IN_YEAR] for k in range(length)}
    return frozenset(found)


def _quarter_of(month: int) -> int:
    """The quarter of a month's number (April, 4: the second)."""
    return (month + 2) // 3


def _periods(
    names: list[str], numeric: Mapping[int, object], target: int, wanted: frozenset[str]
) -> tuple[int, ...]:
    """The numeric columns named as ``target`` is but for their period, a quarter, a half
    or a month ("Q1 2024 Cases" to "Q4 2024 Cases", not "Q1 2023 Cases"), when the
    question names none of their periods: "total Frozen cases in 2024" adds each row's
    quarters up."""
    words = {c: _WORD.findall(names[c].lower()) for c in numeric}
    periods = {c: {w for w in words[c] if _PERIOD.fullmatch(w) or w in CALENDAR} for c in words}
    rest = [w for w in words[target] if w not in periods[target]]
    found = tuple(
        c for c in numeric if periods[c] and [w for w in words[c] if w not in periods[c]] == rest
    )
    said = set().union(*(periods[c] for c in found)) & wanted
    return found if len(found) > 1 and not said else ()


def _added(
    numeric: Mapping[int, tuple[pd.Series, int]], columns: tuple[int, ...]
) -> tuple[pd.Series, int]:
    """Each row's sum of ``columns`` (rows with a number in each), and its places."""
    import pandas as pd

    values = pd.concat([numeric[c][0] for c in columns], axis=1).dropna().sum(axis=1)
    return values, max(numeric[c][1] for c in columns)


def _subtracted(
    numeric: Mapping[int, tuple[pd.Series, int]], pair: tuple[int, int], difference: _Difference
) -> tuple[pd.Series, int]:
    """Each row's difference of ``pair`` (rows with both numbers), and its places."""
    (first, first_places), (second, second_places) = (numeric[c] for c in pair)
    values = (first - second).dropna()
    values = values.abs() if difference.sign == 0 else values * difference.sign
    return values, max(first_places, second_places)


_UNIT_COLUMNS = frozenset({"unit", "uom"})
_QUANTITY_COLUMNS = frozenset({"quantity", "qty"})


def _measured_in(
    names: list[str], numeric: Mapping[int, object], filters: Mapping[int, frozenset[str]]
) -> int | None:
    """The numeric column counted in the unit a question filters ("How many *kg* of Fresh
    meat ...": ``Quantity`` of the rows whose ``Unit`` is "KG"): the one named for a
    quantity, else the one just before the column of units, as exports place them."""
    units = [c for c in filters if _column_words(names[c]) & _UNIT_COLUMNS]
    if not units:
        return None
    named = [c for c in numeric if _column_words(names[c]) & _QUANTITY_COLUMNS]
    before = units[0] - 1
    return named[0] if len(named) == 1 else before if before in numeric else None


def _condition_column(
    names: list[str], numeric: Mapping[int, object], condition: _Condition, wanted: frozenset[str]
) -> int | None:
    """The numeric column a condition is on: the one its words before the number name, all
    of those the question searches for ("a petal width above 2"), or whose whole name they
    say ("an IBM price above 100": the column ``IBM``, "price" describing it); else the
    one the word after it names ("more than 500 units"), else the one the comparison
    says ("older than 50": ``age``). A condition that must say a whole name (``whole``:
    "for ATA 30") is on the column it names wholly, or none."""
    implied = frozenset(MEASURES.get(condition.op.split()[0], ()))
    for naming in (condition.naming, condition.after, implied):
        on = _named(names, numeric, naming)
        said = naming & wanted
        if on is not None and (
            (not condition.whole and _names(names[on], said) == len(said))
            or _column_words(names[on]) <= naming
        ):
            return on
    return None


def _named(names: list[str], columns: Mapping[int, object], words: frozenset[str]) -> int | None:
    """Of ``columns``, the one whose name holds the most of ``words``, then the words that
    name the fewest columns of the table (of ``part.quantity`` and ``cost.amount``, "How
    much did part request 37 cost?" means the second: "part" names ``part.description``
    and ``part.ata`` too), then one that says it is a name, then the fewest other words,
    then the leftmost; None when no name holds one."""
    named = {c: _names(names[c], words) for c in columns}
    most = max(named.values(), default=0)
    held = [c for c in named if named[c] == most > 0]
    if len(held) < 2:
        return held[0] if held else None
    naming = {w: sum(1 for name in names if _names(name, frozenset({w}))) for w in words}
    said = {c: sum(1 / naming[w] for w in words if _names(names[c], frozenset({w}))) for c in held}
    # ("which customer": ``Customer Name``, not ``Customer No``)
    unnamed = {c: "name" not in _column_words(names[c]) for c in held}
    return min(held, key=lambda c: (-said[c], unnamed[c], len(_column_words(names[c])) - most, c))


def _column_names(header: Sequence[str]) -> list[str]:
    return [h.strip() or f"column {i + 1}" for i, h in enumerate(header)]


def _dates_of(words: frozenset[str]) -> tuple[str, ...]:
    """A filter's dates and years (:func:`_dated`): the other filter words hold no digit
    first."""
    return tuple(w for w in words if w[:4].isdigit())


def _holds(cell: str, words: frozenset[str], dates: tuple[str, ...]) -> bool:
    """Whether a cell holds one of a filter's words, is one of its cells spelled
    (:func:`_spelled`), or starts with one of its ``dates``."""
    return (
        bool(_words(cell) & words)
        or _phrase(cell) in words
        or (bool(dates) and cell.startswith(dates))
    )


def _phrase(text: str) -> str:
    """``text``'s words, lowercased, a blank apart: "INC-102" is "inc 102"."""
    return " ".join(_WORD.findall(text.lower()))


def _spelled(frame: pd.DataFrame, spelled: str) -> dict[int, frozenset[str]]:
    """The cells of several words that the question spells whole (its words ``spelled``),
    by column: "How many units did *Store 17* sell?" is of that store, though "store"
    names a column and "17" is a number, which filter nothing; "samples processed on
    *MS-Garnet*" is of that instrument, not of every "MS-" one."""
    found: dict[int, frozenset[str]] = {}
    for c in frame.columns:
        # a number is compared, not spelled: "more than 1,060 employees" keeps no "1,060"
        cells = (str(cell) for cell in frame[c].unique() if number(str(cell)) is None)
        phrases = {_phrase(cell) for cell in cells}
        named = {p for p in phrases if " " in p and f" {p} " in spelled}
        if named:
            found[int(c)] = frozenset(named)
    return found


def _started(frame: pd.DataFrame, prefix: str) -> tuple[int, frozenset[str]] | None:
    """The column some of whose cells, not all, start with ``prefix`` (lowercased), and
    those cells as :func:`_spelled` gives them; None when no column's do."""
    for c in frame.columns:
        cells = [str(cell) for cell in frame[c].unique() if str(cell).strip()]
        started = [cell for cell in cells if cell.lower().startswith(prefix)]
        if 0 < len(started) < len(cells):
            return int(c), frozenset(_phrase(cell) for cell in started)
    return None


def _dated(
    frame: pd.DataFrame, names: list[str], dates: frozenset[str], months: frozenset[str]
) -> dict[int, frozenset[str]]:
    """The question's dates, years and months, on the column they filter: a column named
    for years that holds them ("Year": 2020), else the leftmost column of ISO dates whose
    cells start with them, a month of a year ("2020-08") or of any year the column holds
    ("in August": "1990-08", "1991-08", ...). A column of counts that holds a 2019 is
    not one."""
    if not dates and not months:
        return {}
    filled = _filled(frame)
    for c, cells in filled.items():
        if "year" in _column_words(names[c]) and (found := dates & frozenset(cells)):
            return {int(c): found}
    for c, cells in _day_columns(filled):
        sep = str(cells.iloc[0])[4]  # "2012-01-01", "2012/01/01" or "2012.01.01"
        days = {d.replace("-", sep) for d in dates if len(d) > 4}
        years = sorted(d for d in dates if len(d) == 4) or sorted(set(cells.str[:4]))
        periods = {f"{y}{sep}{MONTHS[m]:02d}" for y in years for m in months} or set(years)
        found = frozenset(d for d in days or periods if cells.str.startswith(d).any())
        if found:
            return {int(c): found}
    # a column of periods ("Start": "Q2 2025", "H1 2026", "Mar 2026") holds a year as a word
    said = {d for d in dates if len(d) == 4}
    for c, cells in filled.items():
        kept = cells[cells != ""]
        if said and not kept.empty and kept.str.fullmatch(_PERIOD_CELL).all():
            found = frozenset(y for y in said if kept.str.endswith(y).any())
            if found:
                return {int(c): found}
    return {}


_PERIOD_CELL = re.compile(r"(?:[QH]\d|[^\W\d_]{3,9}\.?)\s+(?:19|20)\d{2}", re.I)
"""A cell that names a period of a year: "Q2 2025", "H1 2026", "March 2026"."""


def _all_dates(words: frozenset[str]) -> bool:
    """Whether a column's filter words are all days, months or years ("2024-01", "mar")."""
    return len(_dates_of(words)) + len(words & MONTH_CUTS.keys()) == len(words)


def _filter_words(filters: Mapping[int, frozenset[str]]) -> set[str]:
    """The words of the filters' values (a cell spelled whole, "cc 520", is two)."""
    return {w for words in filters.values() for cell in words for w in cell.split()}


def _filled(frame: pd.DataFrame) -> dict[int, pd.Series]:
    """Each column's cells that are not empty, as text."""
    return {c: frame[c].map(str)[frame[c].map(lambda v: bool(str(v).strip()))] for c in frame}


def _iso_days(frame: pd.DataFrame) -> pd.DataFrame:
    """A table with its columns of days written with the day or the month first
    ("05/01/2025", a tech log's) as ISO days, which a question's dates and stretches
    filter: the day first when a first number is over 12 and no second one is, the month
    first the other way round; as they are when no number says which."""
    for c in frame.columns:
        cells = frame[c]
        filled = cells[cells != ""]
        if filled.empty or not _NUMBERED_DAY.fullmatch(str(filled.iloc[0])):
            continue
        parts = filled.str.extract(_NUMBERED_DAY.pattern + "$")
        if parts.isna().any().any():
            continue
        first, second = parts[0].astype(int), parts[2].astype(int)
        if (first > _MONTHS_IN_YEAR).any() == (second > _MONTHS_IN_YEAR).any():
            continue
        day, month = (first, second) if (first > _MONTHS_IN_YEAR).any() else (second, first)
        iso = parts[3] + "-" + month.map("{:02d}".format) + "-" + day.map("{:02d}".format)
        frame[c] = cells.where(cells == "", iso)
    return frame


def _day_columns(filled: Mapping[int, pd.Series]) -> list[tuple[int, pd.Series]]:
    """The columns (of :func:`_filled`) with cells, every one a day written year first,
    leftmost first."""
    return [
        (c, cells)
        for c, cells in filled.items()
        if len(cells) and cells.str.match(_DAY_CELL.pattern).all()
    ]


def _joined(
    names: list[str], lookup: _Table, words: frozenset[str]
) -> tuple[int, frozenset[str], str] | None:
    """A filter of a table by another table of its file (a workbook's lookup sheet): the
    rows of ``lookup`` that ``words`` filter give the values of a column both tables
    name alike (``Engineer ID``), which then filter this table's; the column, those
    values (as :func:`_spelled` gives cells) and what chose them ("Depot Preston")."""
    import pandas as pd

    other = pd.DataFrame(list(lookup.rows), dtype=object)
    found = _filters(other, set(words)) if words else {}
    if not found:
        return None
    columns = _column_names(lookup.header)
    theirs = [name.lower() for name in columns]
    keep = pd.Series(True, index=other.index)
    for c, said in found.items():
        keep &= other[c].map(lambda cell, w=said: _holds(str(cell), w, ()))
    for c, name in enumerate(names):
        key = theirs.index(name.lower()) if name.lower() in theirs else None
        if key is not None and key not in found and keep.any():
            chose = [f"{columns[f]} {' or '.join(other[f][keep].unique())}" for f in found]
            return c, frozenset(_phrase(str(v)) for v in other[key][keep]), ", ".join(chose)
    return None


def _spanned(frame: pd.DataFrame, span: tuple[str, str]) -> dict[int, frozenset[str]]:
    """The days of the leftmost column of ISO days that are within ``span``, on that
    column (as :func:`_dated` gives a question's dates); none when no day is."""
    for c, cells in _day_columns(_filled(frame))[:1]:
        days = cells.str[:10]
        iso = days.str.replace(days.iloc[0][4], "-", regex=False)
        if span[0].startswith(ANY_YEAR):  # "between 11 and 24 August": of any year
            iso, span = iso.str[5:], (span[0][5:], span[1][5:])
        within = (iso >= span[0]) & (iso <= span[1])
        return {int(c): frozenset(days[within])} if within.any() else {}
    return {}


def _whether(
    frame: pd.DataFrame, names: list[str], asked: _Question, filters: Mapping[int, object]
) -> dict[int, frozenset[str]]:
    """The column of yes and no (true and false) the question names, on the value it asks
    for: "How many penguins completed their clutch?" keeps the rows that say "Yes", "did
    *not* complete" those that say "No"."""
    for c in frame.columns:
        if c in filters or not _names(names[c], asked.wanted):
            continue
        values = {str(v).strip().lower() for v in frame[c]} - {""}
        for pair in _YES_NO:
            if values == set(pair):
                return {int(c): frozenset({pair[1] if asked.negated else pair[0]})}
    return {}


def _filtering(word: str) -> bool:
    """Whether a question word may filter rows: not a number, not a letter alone (the "O"
    of "O-012345" kept every order)."""
    return len(word) > 1 and not word.isdigit()


def _graded(frame: pd.DataFrame, names: list[str], word: str, letter: str) -> int | None:
    """The column a grade is of: named by its word ("category") or by what it starts
    ("cat"), some of its cells that letter alone."""
    for c in frame.columns:
        words = _column_words(names[c])
        if not (
            _names(names[c], frozenset({_stem(word)})) or any(abbreviates(word, w) for w in words)
        ):
            continue
        if frame[c].map(lambda cell: str(cell).strip() == letter).any():
            return int(c)
    return None


def _sorts(frame: pd.DataFrame, word: str) -> bool:
    """Whether ``word`` is the whole of some cells of a column, not of all."""
    for c in frame.columns:
        cells = frame[c].map(str)
        near = cells[cells.str.contains(word, case=False, regex=False)]
        whole = near.map(lambda cell: _words(cell) == {word})
        if whole.any() and whole.sum() < len(cells):
            return True
    return False


def _filters(frame: pd.DataFrame, words: set[str]) -> dict[int, frozenset[str]]:
    """The question words found in each column's cells (a word in one column only: where
    it is a whole cell, else the leftmost); else its adjective's noun ("hourly"), else a
    cell's word of the same root ("picked": ``pick_confirmed``) or that it starts with, of
    :data:`_STEMMED` letters or more ("adjustments": ``ADJUST``)."""
    if not words:
        return {}
    cells = {c: [_words(str(cell)) for cell in frame[c].unique()] for c in frame.columns}
    found: dict[int, set[str]] = {}
    for said in sorted(words):
        adjective = _ADJECTIVE.fullmatch(said) if len(said) > _ROOTED else None
        for word in (said, *((adjective[1] + (adjective[2] or ""),) if adjective else ())):
            whole = [c for c, col in cells.items() if any(ws == {word} for ws in col)]
            partial = [c for c, col in cells.items() if any(word in ws for ws in col)]
            if whole or partial:
                found.setdefault(int((whole or partial)[0]), set()).add(word)
                break
        else:
            root = _root(said)
            rooted = (
                (c, w)
                for c, col in cells.items()
                for ws in col
                for w in ws
                if (root != said and _root(w) == root)
                or (len(w) >= _STEMMED and said.startswith(w))
            )
            if len(root) >= _ROOTED and (hit := next(rooted, None)):
                found.setdefault(int(hit[0]), set()).add(hit[1])
    return {c: frozenset(found[c]) for c in sorted(found)}


def _numeric(column: pd.Series) -> tuple[pd.Series, int] | None:
    """A column of numbers as floats (indexed by row, empty cells left out) and the most
    decimal places they are written with, with a decimal point or, in every cell that
    has one, a decimal comma (:func:`.tables.comma_numbers`); None when a cell is no
    number."""
    import pandas as pd

    filled = column[column.map(lambda cell: bool(str(cell).strip()))]
    if filled.empty:
        return None
    parsed = filled.map(lambda cell: number(str(cell)))
    if parsed.isna().any():
        commas = comma_numbers([str(cell) for cell in filled])
        if commas is None:
            return None
        parsed = pd.Series(commas, index=filled.index)
    return parsed.map(lambda p: p[0]).astype(float), int(parsed.map(lambda p: p[1]).max())


def _format(value: float, places: int, kind: str) -> str:
    """``412,000``; an average with two more places than its numbers, a median one more
    (the middle of two of them); never more than :data:`_MAX_PLACES` (prices a program
    wrote as ``43.203948172614396`` average to ``43.203948``, not 19 places)."""
    more = {"mean": 2, "median": 1, "std": 2}.get(kind, 0)
    return f"{value:,.{min(places + more, _MAX_PLACES)}f}"


def _best_row(table: _Table, wanted: frozenset[str]) -> _Answer | None:
    """The first row with the most question words; None when no row has one."""
    scores = [len(_words(" ".join(row)) & wanted) for row in table.rows]
    if max(scores) == 0:
        return None
    return _Answer("rows", (scores.index(max(scores)),))


# ---------------------------------------------------------------- showing


def _shown(header: Sequence[str], row: Sequence[str]) -> str:
    """A row with its column names: ``region: South, budget_eur: 340000``."""
    return labelled_row(_column_names(header), row)


def _grouping(answer: _Answer, table: _Table) -> str:
    """What an answer's groups are of: "species", "month of date", "species and sex"."""
    columns = _column_names(table.header)
    by = f"{answer.period} of {columns[answer.by]}" if answer.period else columns[answer.by]
    return by + (f" and {columns[answer.then]}" if answer.then >= 0 else "")


def _groups(values: Sequence[str]) -> str:
    """Each group's value, the first :data:`_GROUPS_SHOWN`, and how many more."""
    hidden = len(values) - _GROUPS_SHOWN
    return "; ".join(values[:_GROUPS_SHOWN]) + (f"; and {hidden} more" if hidden > 0 else "")


def _rows(n: int) -> str:
    return f"{n:,} row" if n == 1 else f"{n:,} rows"


_GROUP_LABELS = {
    "count": "Rows", "mean": "Average", "median": "Median", "std": "Standard deviation",
    "sum": "Total", "max": "Highest", "min": "Lowest",
}  # fmt: skip
_EXTREME_LABELS = {"max": "Highest", "min": "Lowest", "earliest": "Earliest", "latest": "Latest"}


def computes(bullets: Sequence[Bullet]) -> bool:
    """Whether a table's bullets (:func:`_bullets`) state a value computed over its rows
    (a total, a count, the highest), not rows looked up, which are quoted."""
    return bool(bullets) and not str(bullets[0][0]).startswith('"')


def _ranked(label: str, rank: int) -> str:
    """ "Highest", or "Second highest" for the one below it."""
    return f"{_ORDINALS[rank]} {label.lower()}" if rank > 1 else label


def _bullets(answer: _Answer, table: _Table, filename: str, *, told: bool = False) -> list[Bullet]:
    """How the answer shows: a quoted row per bullet, or the computed value and its rows
    (``told``: :func:`answer_tables`)."""
    spans = table.passages > 1 and not told
    source = f"{table.passages} passages of {filename}" if spans else filename
    if answer.kind == "rows" or (answer.kind in _EXTREME_LABELS and answer.of == 1):
        bullets: list[Bullet] = [
            (f'"{_shown(table.header, table.rows[i])}" ({filename}) ', table.cites[i])
            for i in answer.rows[:MAX_SHOWN_ROWS]
        ]
        if len(answer.rows) > MAX_SHOWN_ROWS:
            more = _rows(len(answer.rows) - MAX_SHOWN_ROWS).replace(" row", " more row")
            bullets.append((f"and {more} with {answer.scope} ({source})",))
        return bullets
    cited = answer.rows[:MAX_CITED_ROWS]
    some = f"; the first {len(cited)} cited" if len(cited) < len(answer.rows) and not told else ""
    scope = f" for {answer.scope}" if answer.scope else ""
    column = answer.label or (
        _column_names(table.header)[answer.column] if answer.column >= 0 else ""
    )
    if answer.kind == "between":
        *sides, kind = answer.values
        label = "" if kind == "sum" and answer.label else f"{_GROUP_LABELS[kind]} "
        return [
            (f"Difference in {label}{column}{scope}, {' less '.join(sides)}: {answer.value} "
             f"({source}{some}) ", *(table.cites[i] for i in cited)),
        ]  # fmt: skip
    if answer.averaged:
        of = "rows" if answer.averaged == "count" else f"total {column}"
        return [
            (f"Average {of} per {_grouping(answer, table)}{scope}: {answer.value} "
             f"({_groups(answer.values)}; of {_rows(answer.of)}, {source}{some}) ",
             *(table.cites[i] for i in cited)),
        ]  # fmt: skip
    if answer.by >= 0:
        label = _GROUP_LABELS[answer.kind] + (f" {column}" if answer.kind != "count" else "")
        if answer.extreme:
            extreme = _EXTREME_LABELS["max" if answer.extreme > 0 else "min"]
            label = f"{_ranked(extreme, answer.rank)} {label[0].lower()}{label[1:]}"
        groups = _groups(answer.values)
        by = _grouping(answer, table)
        return [
            (f"{label} by {by}{scope}: {groups} (of {_rows(answer.of)}, {source}{some}) ",
             *(table.cites[i] for i in cited)),
        ]  # fmt: skip
    if answer.kind in _EXTREME_LABELS:
        label = _ranked(_EXTREME_LABELS[answer.kind], answer.rank)
        spread = f" in {table.passages} passages" if spans else ""
        parts: list[str | Cite] = [
            f"{label} {column}{scope}: {answer.value} "
            f"({label.lower() if answer.rank > 1 else answer.kind} of {_rows(answer.of)}"
            f"{spread}{some}): "
        ]
        for k, i in enumerate(cited):
            shown = _shown(table.header, table.rows[i])
            parts += [("; " if k else "") + f'"{shown}" ({filename}) ', table.cites[i]]
        return [tuple(parts)]
    if answer.kind == "none":
        text = f"No row with {answer.scope} (of {_rows(answer.of)}, {source})"
        if not answer.rows:
            return [(text,)]
        (row,) = answer.rows
        return [(f"{text}; the {answer.nearest} {column}: {answer.value} ", table.cites[row])]
    if answer.kind == "distinct":
        listed = ", ".join(answer.values[:MAX_CITED_ROWS]) + (", ..." if some else "")
        return [
            (f"Distinct {column}{scope}: {answer.value} ({listed}) of {_rows(answer.of)} "
             f"({source}) ",
             *(table.cites[i] for i in cited)),
        ]  # fmt: skip
    if answer.kind in {"most", "fewest"}:
        label = _ranked("Most" if answer.kind == "most" else "Fewest", answer.rank)
        each = " each" if len(answer.values) > 1 else ""
        return [
            (f"{label} rows{scope} by {column}: {' and '.join(answer.values)} ({answer.value}"
             f"{each} of {_rows(answer.of)}, {source}{some}) ", *(table.cites[i] for i in cited)),
        ]  # fmt: skip
    if answer.kind == "days":
        first, last = answer.values
        return [
            (f"Distinct {column}: {answer.value} of {_rows(answer.of)}, {first} to {last} "
             f"({source}) ", *(table.cites[i] for i in cited)),
        ]  # fmt: skip
    if len(answer.rows) == 1 and answer.kind in {"sum", "mean", "median"} and not answer.label:
        (row,) = answer.rows
        value = table.rows[row][answer.column]
        return [(f"{column}{scope}: {value} ({filename}) ", table.cites[row])]  # a cell
    if answer.kind == "stretch":
        return [
            (f"{column}{scope}: {answer.value} ({_rows(answer.of)} of {source}) ",
             *(table.cites[i] for i in cited)),
        ]  # fmt: skip
    if answer.kind == "part":
        return [
            (f"Share of {column}{scope}: {answer.value} "
             f"(sum of {_rows(len(answer.rows))} of {source}{some}) ",
             *(table.cites[i] for i in cited)),
        ]  # fmt: skip
    if answer.kind in {"columns", "overview"}:
        text = f"Columns: {answer.value} ({', '.join(_column_names(table.header))})"
        if answer.kind == "overview":
            text += f"; {_rows(answer.of)}"
            text += f"; {column} {answer.values[0]} to {answer.values[1]}" if answer.values else ""
        return [(f"{text} ({source}) ", table.heading, *(table.cites[i] for i in answer.rows))]
    if answer.kind == "count":
        which = f" with {answer.scope}" if answer.scope else ""
        share = f" ({len(answer.rows) / answer.of:.1%})" if answer.share and answer.of else ""
        among = f" of {answer.of:,}" if answer.scope or share else ""
        text = f"Rows{which}: {answer.value}{among}{share} ({source}{some}) "
    else:
        label = {
            "sum": "Total", "mean": "Average", "median": "Median", "std": "Standard deviation"
        }[answer.kind]  # fmt: skip
        text = (
            f"{label} {column}{scope}: {answer.value} "
            f"({answer.kind} of {_rows(len(answer.rows))} of {source}{some}) "
        )
    return [(text, *(table.cites[i] for i in cited))]
