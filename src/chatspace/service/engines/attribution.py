"""Which file supports each sentence of a generated answer, whatever the model wrote.

Most models, small and local ones above all, never write the ``[n]`` markers they are asked
for, and those that do often put them after the wrong sentence. So after any upstream
model answers (plain or streamed), every sentence of the answer is compared with every
sentence of the passages it was sent (:func:`attribute`):

- **Support is lexical**: the share of the answer sentence's content words (folded to a
  crude stem, :func:`~chatspace.service.retrieval.quotes.claim_words`) and numbers found in
  one sentence of a passage (or two in a row, so that a claim spread over two short
  sentences is found) or its file's name, each word weighted by its inverse frequency
  among the sentences of the sent passages (a word none of them holds as the rarest),
  a word of the question by :data:`ASKED_FACTOR` of that, each number twice. Every
  passage was found by the question's words, so a sentence that says them back backs
  nothing; what it says beyond them must be in the passage. A sentence that ends with a
  colon introduces what follows ("Here's an example:") and a label before a claim
  ("Noted:") claims nothing; the digits of a name ("v1", "git-am(1)") are no number.
  A sentence is supported when that share reaches :data:`SUPPORT` (or
  :data:`RESTATED_SUPPORT`, when it holds most of what a passage's sentence says beyond
  the question: a small model wraps a claim in words of its own) with at least
  :data:`MIN_SHARED` words or numbers in common, and when every number it states is in
  the passage, and every month it names: a sentence that invents a figure is not backed
  by a passage that gives another one ("Q4" is a figure too, not "Q3"; "from January
  2025" is not "from 1 October 2025"). The numbers and months the question states are
  no claim: "The number of jobs with no access in week 19 was 4." says back its "19". A
  number that counts or measures in the sentence must count or measure in the passage
  too: the 14 of "14 March" does not back "lasted 14 days"
  (:func:`~chatspace.service.retrieval.quotes.quantities_in`). A table's row is read by
  its cells, and backs a number only under a column the sentence names, when it names
  one of the row's, and only when it is the row the sentence names, when it names one (by
  a cell no other row of its column holds): "Cormac Hegarty's FY2025 target was 73." is
  backed neither by his row, whose 73 is under "Practices visited", nor by another rep's
  whose target is 73 (:func:`_figured`). The
  dense model was left out: a reader can check lexical support (the words and figures
  are in the quote), and a sentence similar in topic but stating another fact must not
  count as its support.
- A supported sentence gets a ``file_citation`` whose quote is the supporting span of the
  passage. Where the model wrote markers in the sentence, each marker is the citation's
  ``text``: kept on its passage when that passage supports the sentence, pointed at the
  passage that does otherwise, dropped when none does. A marker naming no passage the
  model was sent (a small model's ``[3]`` of two) is pointed at the passage that supports
  its sentence too, unless another marker of the sentence already cites it. Without
  markers, the sentence itself is the citation's ``text``.
- A table's answer computed over all its rows (an average, a count, the row of the
  highest value: :func:`~.table_rows.computed_for`), which the model was sent after the
  passages, supports a sentence as a passage does, and is cited by the first row it shows
  or computes over: "The average body mass of Gentoo penguins is 5,076.02 g." is backed
  by "Average body_mass_g for species Gentoo: 5,076.02 (mean of 123 rows)", which no
  block of the CSV says.
- A sentence nothing supports gets no citation: the notebook marks it as one to check.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import PurePath

from chatspace.service.retrieval.locations import quote_location
from chatspace.service.retrieval.quotes import (
    claim_words,
    code_spans,
    labelled_units,
    months_in,
    numbers_in,
    quantities_in,
    quote_span,
    units_of,
)
from chatspace.service.retrieval.search import Passage, Retrieval
from chatspace.service.retrieval.tables import name_words
from chatspace.types import Annotation, FileCitation

from .table_rows import Computed, row_cells

__all__ = ["MIN_SHARED", "SUPPORT", "attribute", "sentences_of"]

SUPPORT = 0.5
"""The weighted share of an answer sentence's words and numbers a passage sentence must
hold to support it."""
MIN_SHARED = 2
"""Words or numbers an answer sentence must share with its support (one shared word
supports nothing)."""
RESTATED = 0.6
"""The share of a passage sentence's words beyond the question's that a sentence holds to
restate it (:meth:`_Judge._restates`)..."""
RESTATED_WORDS = 5
"""... when the passage's sentence says at least this many of them..."""
RESTATED_SUPPORT = 0.35
"""... and this share of the sentence's own words is in the passage: then it is
supported (chosen on SmolLM2's recorded answers, ``benchmarks/data/formats``)."""
ASKED_FACTOR = 0.3
"""A word of the question weighs this share of its rarity in a sentence's support: every
passage sent was found by those words, so a sentence that says them back (a small model's
"You can use the following commands to print the top-level directory of the working
tree:") is backed by none; what it says beyond them must be in the passage."""
_INTRODUCES = re.compile(r":\W*$")
"""A sentence that ends with a colon introduces what follows ("Here's an example:", "The
following are examples:"): it claims nothing to back."""
_LEAD = re.compile(r"^\W*[^\W\d_]+(?: [^\W\d_]+)?:\s+")
"""A label a model puts before its claim ("Noted:", "In short:"): it claims nothing."""
_MARKER = re.compile(r"\[(\d{1,3})\]")


_Row = tuple[tuple[str, str], ...]
"""A table row's cells, each with its column's name (:func:`.table_rows.row_cells`)."""
_Cells = tuple[tuple[frozenset[str], frozenset[str]], ...]
"""A table row's cells as a claim is judged by them: each column's name (its words) and
the numbers under it."""


@dataclass(frozen=True, slots=True)
class _Span:
    """A sentence (with the next one) of a sent passage: what it says, and where it is."""

    passage: int
    start: int
    end: int
    words: frozenset[str]
    numbers: frozenset[str]
    rows: tuple[tuple[int, _Cells], ...] = ()
    """The table rows it holds: where each starts in its passage's text, and its cells."""


@dataclass(frozen=True, slots=True)
class _Support:
    span: _Span
    share: float


def sentences_of(content: str) -> list[tuple[int, int]]:
    """``(start, end)`` of each sentence of an answer, outside code blocks."""
    fenced = code_spans(content, whole=True)
    return [
        (u.start, u.end) for u in units_of(content) if not any(a <= u.start < b for a, b in fenced)
    ]


def _spans(passages: Sequence[Passage], rows: Sequence[dict[int, _Row]]) -> list[_Span]:
    """Every sentence of the passages, then every sentence joined with the next one (a
    pair supports a claim only where it holds more of it than either sentence alone),
    each with the words of its file's name: "git rev-parse" is what ``git-rev-parse.html``
    documents, though its sentences do not repeat it. A table's row is a sentence whose
    numbers are its cells' ("5683.5,5341.4" is two) and which knows their columns."""
    singles, pairs = [], []
    for k, p in enumerate(passages):
        units = [u for u, _ in labelled_units(p.text)]
        named = claim_words(re.sub(r"[\W_]+", " ", PurePath(p.filename).stem))
        said: list[tuple[frozenset[str], tuple[tuple[int, _Cells], ...]]] = []
        for u in units:
            row = rows[k].get(u.start)
            if row is None:
                said.append((numbers_in(p.text[u.start : u.end]), ()))
                continue
            cells = tuple(
                (claim_words(" ".join(name_words(name))), numbers_in(cell)) for name, cell in row
            )
            said.append((frozenset().union(*(n for _, n in cells)), ((u.start, cells),)))
        for i, u in enumerate(units):
            numbers, held = said[i]
            words = claim_words(p.text[u.start : u.end]) | named
            singles.append(_Span(k, u.start, u.end, words, numbers, held))
            if i + 1 < len(units):
                end = units[i + 1].end
                words = claim_words(p.text[u.start : end]) | named
                numbers, held = numbers | said[i + 1][0], held + said[i + 1][1]
                pairs.append(_Span(k, u.start, end, words, numbers, held))
    return singles + pairs


def _figures(
    text: str, rows: dict[int, _Row], read: Callable[[str], frozenset[str]]
) -> frozenset[str]:
    """What ``read`` finds in a passage's text: in a table's rows, cell by cell (a CSV
    line's "5683.5,5341.4,73" is three numbers, not one)."""
    if not rows:
        return read(text)
    cells = (cell for row in rows.values() for _, cell in row)
    return read(text[: min(rows)]).union(*map(read, cells))


def _idf(spans: Sequence[_Span]) -> dict[str, float]:
    counts: dict[str, int] = {}
    for span in spans:
        for word in span.words:
            counts[word] = counts.get(word, 0) + 1
    n = len(spans)
    return {w: math.log(1 + n / c) for w, c in counts.items()}


class _Judge:
    """Support of answer sentences by the sentences of the sent passages."""

    def __init__(
        self, passages: Sequence[Passage], question: str = "", computed: Sequence[Computed] = ()
    ) -> None:
        # a table's computed answer is judged as a passage of its own text, and cited by
        # the row it shows or computes over
        lines = [Passage(c.citation.file_id, c.filename, 0, 0, c.text, 0.0) for c in computed]
        self.computed = computed
        self.sent = len(passages)
        passages = [*passages, *lines]
        self.passages = passages
        self.asked = claim_words(question)
        # what the question states, a sentence says back: no claim ("... in week 19 was 4")
        self.asked_numbers, self.asked_months = numbers_in(question), months_in(question)
        # a computed answer that shows a row is judged by its cells, as the row is
        rows = [row_cells(p) for p in passages[: self.sent]]
        rows += [{0: c.cells} if c.cells else {} for c in computed]
        self.names = [_row_names(r) for r in rows]
        self.spans = _spans(passages, rows)
        self.idf = _idf(self.spans)
        self.numbers = [
            _figures(p.text, r, numbers_in) for p, r in zip(passages, rows, strict=True)
        ]
        self.quantities = [
            _figures(p.text, r, quantities_in) for p, r in zip(passages, rows, strict=True)
        ]
        self.months = [months_in(p.text) for p in passages]
        self.rare = max(self.idf.values(), default=1.0)

    def support(self, sentence: str, passage: int | None = None) -> _Support | None:
        """The best support of ``sentence`` (in passage ``passage`` only, when given)."""
        sentence = _LEAD.sub("", sentence)
        unmarked = _MARKER.sub("", sentence)
        words, numbers = claim_words(sentence), numbers_in(unmarked)
        # what it states beyond the question must be in the passage
        claimed = (
            numbers - self.asked_numbers,
            quantities_in(unmarked) - self.asked_numbers,
            months_in(unmarked) - self.asked_months,
        )
        weight = {
            w: self.idf.get(w, self.rare) * (ASKED_FACTOR if w in self.asked else 1.0)
            for w in words
        } | {n: 2 * self.rare * (ASKED_FACTOR if n in self.asked_numbers else 1.0) for n in numbers}
        total = sum(weight.values())
        if not total:
            return None
        # the rows of each passage the sentence names by a cell of theirs
        named = _named_rows(self.names, words | numbers)
        best: _Support | None = None
        for span in self.spans:
            if passage is not None and span.passage != passage:
                continue
            k = span.passage
            if not all(c <= held for c, held in zip(claimed, self._held(k), strict=True)):
                continue
            if not _figured(span, words, claimed[0], named[k]):
                continue
            shared = (words & span.words) | (numbers & span.numbers)
            if len(shared) < MIN_SHARED:
                continue
            share = sum(weight[w] for w in shared) / total
            if (share >= SUPPORT or self._restates(span, words, share)) and (
                best is None or share > best.share
            ):
                best = _Support(span, share)
        return best

    def _held(self, passage: int) -> tuple[frozenset[str], frozenset[str], frozenset[int]]:
        """The numbers, quantities and months of a passage."""
        return self.numbers[passage], self.quantities[passage], self.months[passage]

    def _restates(self, span: _Span, words: frozenset[str], share: float) -> bool:
        """Whether a sentence says most of what ``span`` says beyond the question (at
        least :data:`RESTATED` of its words, of :data:`RESTATED_WORDS` or more) with
        words of its own around it: "... a command that allows you to prune references
        from your fetch, which means it will remove any remote-tracking references ..."
        restates "Before fetching, remove any remote-tracking references that no longer
        exist on the remote." though most of its own words are not the passage's."""
        said = span.words - self.asked
        return (
            share >= RESTATED_SUPPORT
            and len(said) >= RESTATED_WORDS
            and len(said & words) >= RESTATED * len(said)
        )

    def citation(self, support: _Support) -> FileCitation:
        if support.span.passage >= self.sent:
            return self.computed[support.span.passage - self.sent].citation
        p = self.passages[support.span.passage]
        start, end = quote_span(p, support.span.start, support.span.end)
        return FileCitation(
            file_id=p.file_id,
            filename=p.filename,
            quote=p.text[start:end],
            location=quote_location(p, start),
        )


def _row_names(rows: dict[int, _Row]) -> dict[int, list[frozenset[str]]]:
    """The words of each row's cells that may name it: text that not every row of its
    column holds ("Cormac Hegarty", "Munster" of two rows of three; not the "EUR" of
    all of them), and a code with its numbers, whatever rows hold it ("WO-13": "wo" and
    "13", though every row of the passage is of that order); not a figure."""
    if not rows:
        return {}
    cells = {at: [_naming(cell) for _, cell in row] for at, row in rows.items()}
    columns = list(zip(*cells.values(), strict=False))
    return {
        at: [
            words
            for c, words in enumerate(row)
            if words
            and c < len(columns)
            and (
                _coded(words)
                or len(columns[c]) == 1  # a row alone: a table's computed answer
                or sum(words <= other for other in columns[c]) < len(columns[c])
            )
        ]
        for at, row in cells.items()
    }


def _naming(cell: str) -> frozenset[str]:
    """The words of a cell, and its numbers when it has words too (a code: "WO-13")."""
    words = claim_words(cell)
    return words | numbers_in(cell) if words else words


def _coded(words: frozenset[str]) -> bool:
    """Whether a cell's naming words hold a number (:func:`_naming`: a code's)."""
    return any(word[:1].isdigit() for word in words)


def _named_rows(
    names: Sequence[dict[int, list[frozenset[str]]]], words: frozenset[str]
) -> list[set[int] | None]:
    """The rows of each passage a sentence names: those, of all passages, with the most
    cells it says (:func:`_row_names`); None for each when it says none. A sentence that
    names a row is not backed by another's figure ("Cormac Hegarty's target was 4952.9.":
    Orla Byrne's), nor one that names a row by two cells, each in other rows too ("Dara
    Quinn booked 4 hours on WO-25-03113": her row of that order, not of another, in this
    passage or the next)."""
    said = [{at: sum(cell <= words for cell in cells) for at, cells in n.items()} for n in names]
    most = max((n for counts in said for n in counts.values()), default=0)
    if not most:
        return [None] * len(names)
    return [{at for at, n in counts.items() if n == most} for counts in said]


def _figured(
    span: _Span, words: frozenset[str], numbers: frozenset[str], named: set[int] | None
) -> bool:
    """Whether each number a sentence states that a table row of ``span`` holds is in a
    row the sentence names (``named``: where they start), when it names one, and under a
    column it names, when it names one of that row's: a row's other figure, or another
    row's, is not the one the sentence speaks of; and a span of rows holds each number
    itself ("4.25 hours on WO-13" is not backed by WO-13's row of 4.75 because another
    row of the passage says 4.25)."""
    if span.rows and not numbers <= span.numbers:
        return False
    for n in numbers:
        holding = [(at, cells) for at, cells in span.rows if any(n in held for _, held in cells)]
        if not holding:
            continue
        if named is not None:
            holding = [(at, cells) for at, cells in holding if at in named]
        if not any(_under_named(cells, words, n) for _, cells in holding):
            return False
    return True


def _under_named(cells: _Cells, words: frozenset[str], number: str) -> bool:
    """Whether ``number`` is under a column of the row the sentence names, or it names
    none of them."""
    naming = [bool(name & words) for name, _ in cells]
    return not any(naming) or any(
        said for said, (_, held) in zip(naming, cells, strict=True) if number in held
    )


def _annotation(text: str, start: int, citation: FileCitation) -> Annotation:
    return Annotation(
        type="file_citation",
        text=text,
        start_index=start,
        end_index=start + len(text),
        file_citation=citation,
    )


def attribute(
    content: str, retrieval: Retrieval, computed: Sequence[Computed] = ()
) -> tuple[Annotation, ...]:
    """The ``file_citation`` annotations of a generated answer (see the module's doc),
    ``computed`` being what the tables answer, as the model was given it after the
    passages (:func:`.table_rows.computed_for`)."""
    if not retrieval.passages or not content:
        return ()
    judge = _Judge(retrieval.passages, retrieval.question, computed)
    passages = judge.passages
    found: list[Annotation] = []
    for start, end in sentences_of(content):
        sentence = content[start:end]
        best = None if _INTRODUCES.search(sentence) else judge.support(sentence)
        markers = list(_MARKER.finditer(sentence))
        if not markers:
            if best is not None:
                found.append(_annotation(sentence, start, judge.citation(best)))
            continue
        cited = False
        # markers naming a passage that was sent first: one naming none stands for the
        # passage that supports the sentence only where no other marker of it cites that
        for m in sorted(markers, key=lambda m: not 0 < int(m.group(1)) <= len(passages)):
            k = int(m.group(1)) - 1
            sent = 0 <= k < len(passages)
            chosen = (judge.support(sentence, k) or best) if sent else (None if cited else best)
            if chosen is not None:
                found.append(_annotation(m.group(), start + m.start(), judge.citation(chosen)))
                cited = True
    return tuple(sorted(found, key=lambda a: a.start_index))
