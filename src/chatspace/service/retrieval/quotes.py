"""The span of a passage that a citation quotes, and the words that say what a text claims.

A quote is whole sentences of one paragraph of the passage (a line, for code, list items
and table rows), at most :data:`MAX_QUOTE_SENTENCES` of them and never more than
:data:`MAX_QUOTE_CHARS` (a longer sentence is cut at words around its first matched term).
Which sentences are quoted (:func:`best_span`): of every run of up to three sentences
that fits, the one whose matched terms weigh most, where

- each term weighs its share of the question (its inverse document frequency in the
  workspace, :mod:`.search`), a term of the file's name :data:`NAMED_FACTOR` of it, so
  that "What is the annual *fee* in the Acme contract?" quotes the sentence with "fee",
  not the one with "contract"; an identifier (``work_mem``) counts only whole, not in
  ``maintenance_work_mem``;
- and, in a passage of :data:`RARITY_UNITS` sentences or more, times its rarity among
  them (:func:`_within`): the words a passage is about are in most of its sentences and
  tell none apart ("What is the maximum duration of the asynchronous commit risk
  window?" of a passage whose every sentence says "risk window": "maximum duration" is
  what picks the sentence);
- a sentence also holds the terms of the heading it stands under (:func:`_sections`), at
  :data:`HEADED_FACTOR` of its own: "Using RECURSIVE, a WITH query can refer to its own
  output" says "query" itself, under "Recursive Queries";
- the first sentence under a heading that matches (with the labels between them: a
  parameter's line, "* `value` {any}"), and does not repeat its name, is its definition
  (:data:`DEFINITION_BONUS`): "SKIP_LOCKED", then what it does; and the first under
  labels one of which opens the entry of an option the question spells (a line that
  starts with it: "-p", "--prune", then "Before fetching, remove ...") or, for "what
  does X do", names it alone ("configtest") is what it does, whatever words it holds
  (:data:`ENTRY_BONUS`), as is a ``key: value`` line whose key the question asks
  ("Default: CacheDefaultExpire 3600 (one hour)");
- a run whose first sentence gives what the question asks for (a duration or a size for
  "how long"; a number that is not a date's day or a time of day for "how much", "what
  size", "what is the default"; a date for "when"; a name for "who"; a sentence of prose
  for "what does it do", "what does it return", "what happens"; the first under an
  option's label for "which option", quoted from the label) weighs more by
  :data:`SHAPE_BONUS`: three sentences that each hold a word of "When does the Lyon
  office open?" and a year do not beat "The Lyon office opens at 9:00";
- a heading, a signature line, a bare label, an FAQ's question on a line of its own or
  the file's title (its first line, when it is a few words that end no sentence) weighs
  less (:data:`HEADING_FACTOR`): the sentence under a heading answers, not the heading (a
  setting's "max_connections (integer)" is a heading, and so is a column with its type,
  "null_frac float4"; a call, "penguins.dropna()", is not), and so does, for a question
  of what a thing does or what happens, a line of code that assigns or indexes or a
  ``key: value`` line (:data:`_USAGE`: an example of its use, a fact of its entry);
- each sentence past the first costs :data:`SENTENCE_COST`, and a run starts with a
  sentence holding terms the rest does not: a quote starts with what answers, so its
  location is the answer's.

Then the sentences of prose after it that refer back to it ("It", "This", ... first)
join, within the bounds: a following sentence that only shares words with it ("The Q3
churn in Nice ..." after Lyon's) may be another fact, and stays out. A quote that ends
with a colon goes on with the line or paragraph it announces ("lines of the following
format:", then the format), within the bounds. A quote whose first sentence itself refers
back ("However, they are not crash-safe") starts with the whole sentence of prose before
it, which says what "they" are (its location is then that sentence's).

A passage may be quoted twice (:func:`quote_spans`, ``service-l0``'s answers): the best run
apart from the first, when it holds words of the question the first does not and weighs
at least :data:`SECOND_QUOTE_SHARE` of it, and is more than a heading alone (a title names
what the passage is about; it says nothing of it). Each quote keeps the bounds above.

:func:`claim_words`, :func:`numbers_in` and :func:`quantities_in` are what attribution
compares (:mod:`chatspace.service.engines.attribution`): content words folded to a crude
stem, and numbers written without their thousands separators (those that count something
apart from those of dates and times).
"""

from __future__ import annotations

import functools
import math
import re
import unicodedata
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from chatspace._wire import SENTENCE_PATTERN

from .tables import DATES
from .terms import (
    ASKS_EFFECT,
    calls_in,
    flags_in,
    gives_value,
    heading_names,
    heads_itself,
    holds_identifier,
    is_identifier,
    keyword_values,
    month_number,
    opens_entry,
    opens_parameter,
    options_in,
    parameter_of,
    parameters_in,
    search_terms,
)

if TYPE_CHECKING:
    from .search import Passage

__all__ = [
    "MAX_QUOTE_CHARS",
    "MAX_QUOTE_SENTENCES",
    "Unit",
    "best_quote",
    "best_span",
    "claim_words",
    "defines_option",
    "heading_spans",
    "holds_parameter",
    "is_label",
    "labelled_units",
    "named_in_file",
    "numbers_in",
    "quantities_in",
    "quote_span",
    "quote_spans",
    "states_asked_fact",
    "units_of",
]

MAX_QUOTE_CHARS = 360
MAX_QUOTE_SENTENCES = 3
"""The bounds of a quote: enough to hold the answer with what it is about, short enough to
read (chosen on the dev split of ``benchmarks/data/pgdocs``: 300, 360 and 400 characters
put the answer in a quote for 0.577, 0.592 and 0.585 of the questions)."""
SHAPE_BONUS = 0.35
"""Added to a sentence's weight (a share of the question, 0..1) when it holds what the
question asks for."""
NAMED_FACTOR = 0.3
"""A term of the file's name (:func:`named_in_file`) weighs this share in the choice of a
sentence."""
DEFINITION_BONUS = 0.3
"""Added to a sentence's weight (a share of the question) when it is the first under a
heading that matches the question and does not repeat its name: a definition
("SKIP_LOCKED", then "Specifies that VACUUM should not wait ...")."""
ENTRY_BONUS = 1.0
"""Added to a sentence's weight (a share of the question) when it is the first under the
label of an option the question names ("What does git fetch --prune do?": "-p",
"--prune", then "Before fetching, remove ..."): that is what it does; and to a ``key:
value`` line whose key the question asks of what it names ("What is the default value of
CacheDefaultExpire?": "Default: CacheDefaultExpire 3600 (one hour)")."""
ENTRY_LABELS = 3
"""The labels an entry's first sentence may follow its name by: its other names and its
type ("-c", "--clean"; "--decorate[=short|full|auto|no]")."""
RARITY_UNITS = 3
"""A passage of at least this many sentences weighs each term by its rarity among them
(:func:`_within`); in fewer, a term's count among them says little."""
SENTENCE_COST = 0.02
"""Taken off per sentence a quote adds: a longer quote must hold more of the question."""
HEADED_FACTOR = 0.7
"""A term of the heading a sentence stands under weighs this share of one it holds."""
HEADING_FACTOR = 0.4
"""A heading or a label line, or a quote that starts with an example's prompt, weighs
this share of what its matched terms weigh."""
SECOND_QUOTE_SHARE = 0.5
"""A passage is quoted twice when its best run of sentences apart from the first quote
holds words of the question the first does not, and weighs at least this share of it:
where two sentences each hold part of the question, the words alone cannot tell which one
answers ("the asynchronous commit risk window" and "the maximum duration of the risk
window"). Chosen on the dev split of ``benchmarks/data/pgdocs``: with a second quote at
0.3 to 0.6 of the first the answer is in a quote for 0.676 of the questions, at 0.7 for
0.669, with one quote for 0.641. A second quote that says no word the first does not
would have added 0.021 more, but repeats it ("The Lyon office opens at 9:00" after "The
Paris office opens at 8:30", for which office opens at 8:30)."""
_NUMBER = re.compile(r"(?<!\w)(?<![^\W\d_]\()\d(?:\d|[,.'](?=\d)| (?=\d{3}\b))*")
"""A number: not the digits of a name ("v1", "Q3", "int4", :data:`_NUMBERED`) or of a
manual's section ("git-am(1)"); a unit may follow it ("5min", "128MB"). Its separators
are followed by a digit, a space by three ("184 000"): "512, 1024 and 4096" are three."""
_NUMBERED = re.compile(r"(?<!\w)[^\W\d_]+\d[^\W_]*")
"""A name with digits ("Q3", "v1", "template1"): a figure as strict as a number ("Q4" is
not "Q3"), whole ("v1" is not "file1")."""
_HEX = re.compile(r"(?<!\w)0x[0-9a-f]+\b", re.I)
"""A number written in hexadecimal ("0xfffffff8"), whole: not the 0 before its x."""
_HAS_DIGIT = re.compile(r"\d")
_MONTH = re.compile(
    r"\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b|\b\d{4}-\d{2}-\d{2}\b|"
    r"\b(?:19|20)\d{2}\b",
    re.I,
)
_ISO_MONTH = re.compile(r"\b\d{4}-(\d{2})-\d{2}\b")
_CAPITALISED = re.compile(r"\b[A-Z][a-z]{2,8}\b")
_DIGIT_BEFORE = re.compile(r"\d\s*$")
_DIGIT_AFTER = re.compile(r",?\s*\d")
_DATE_OR_TIME = re.compile(
    r"\b\d{1,2}(?:st|nd|rd|th)?\s+(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b"
    r"|\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\s+\d{1,2}\b"
    r"|\b\d{4}-\d{2}-\d{2}\b|\b\d{1,2}:\d{2}(?::\d{2})?\b",
    re.I,
)
"""A day of a month, an ISO date or a time of day: a number that counts nothing."""
_LENGTH = re.compile(
    r"\d\s*(?:ms|milliseconds?|s|secs?|seconds?|mins?|minutes?|h|hours?|days?|weeks?|months?|"
    r"years?|[kmgt]?i?b|bytes?|kilobytes?|megabytes?|gigabytes?|characters?|chars?)\b",
    re.I,
)
"""A duration or a size: what "how long" asks for (not the 14 of "14 March")."""
_INNER_NAME = re.compile(r"(?<=[a-z,;:] )[A-Z][a-z]+")
_ASKS_LENGTH = re.compile(r"\bhow long\b", re.I)
_ASKS_NUMBER = re.compile(
    r"\b(?:how (?:much|many|often|big|large|high|low)|what size|what (?:is|was|are|were) the "
    r"(?:\w+ )?(?:fee|price|cost|rate|amount|number|total|size|limit|count|percentage|"
    r"share|revenue|budget|value|maximum|minimum|default)s?\b|percent)",
    re.I,
)
_ASKS_DATE = re.compile(r"\b(?:when|what (?:date|day|year|month|time))\b", re.I)
_ASKS_DESCRIPTION = re.compile(
    r"\bwhat (?:does|do|did)\b.*\b(?:do|return|mean)(?:\s+(?:in|of|for|with|on)\b[^?]*)?\W*$", re.I
)
""""What does util.promisify do?": a sentence that says it, not a parameter's line; the
first under a label that names it alone ("configtest", then what it does) is its entry."""
_ASKS_NAME = re.compile(r"\b(?:who|whom|whose)\b", re.I)
_ASKS_OPTION = re.compile(r"\b(?:which|what) (?:\w+ )?((?:option|flag|switch)(?:e?s)?)\b", re.I)
""""Which option of htpasswd uses bcrypt?" is answered by the sentence under an option's
label ("-B", then "Use bcrypt hashing for passwords."), quoted from the label; the word
"option" says what the answer is, not what it says (the sentences under "Options" are
not more about it, nor is "... specified by the -C option.")."""
_OPTION_LABEL = re.compile(r"\s*--?\w")
_FENCE = re.compile(r"^[ \t]*```[ \t]*(?P<language>[\w+-]*)[ \t]*$", re.M)
"""A line of Markdown that opens or closes a block of code."""
_LABEL = re.compile(r"^\s*(?:#+\s(?!.*[.!]$)|[-*]\s*$)|^[^.!?]{0,60}:\s*$")
"""A Markdown heading, a bullet alone, a short line that ends with a colon. A line after
``#`` that ends a sentence is a comment that says something (a YAML file's "# Mallow is
left out until its WMS moves on 3 November 2025."), not a heading."""
_PROMPT = re.compile(r"(?:In \[\d*\]:|Out\[\d*\]:|>>>|\.\.\.:)(?:\s|$)")
"""An interactive prompt (IPython's, the doctest's) that starts a line of an example: a
quote that starts with it weighs as a label does, so the sentence it illustrates comes
first ("Pass errors='coerce' to convert unparsable data to NaT", not "In [57]:
pd.to_datetime(..., errors='coerce')"); the example is not a label, which would lend its
words to the output lines under it."""
_SIGNATURE = re.compile(r"^\s*(?:signed|signature|date|yours|regards|sincerely)\b", re.I)
# A definition's signature, with parameters ("class Cursor(connection, row_factory=None)")
# or a return type ("pg_cancel_backend ( pid integer ) → boolean", a reference table's
# row): it names what the sentences under it explain. A bare call ("df.dropna()") is code
# that may well be the answer, and a call with literals ("chr(65) → A") an example.
_CODE_SIGNATURE = re.compile(
    r"^(?:(?:async\s+)?def\s+|class\s+)?[\w.]+\s*\([^)]*[,=*][^)]*\)\s*(?:->.*|:)?$"
    r"|^[\w.]+\s*\((?:[^)'\d]|(?<=\w)\d)*\)\s*(?:->|\u2192)(?:[^'\d]|(?<=\w)\d)*$"
)
_NUMBERED_HEADING = re.compile(r"^(?:\d{1,2}(?:\.\d{1,2})*\.?)\s+(?=[A-Z])")
"""A heading's number before its capitalized title ("4 Step test", "3.2 Findings")."""
_SECTION_NUMBER = re.compile(r"^(?:[A-Z]\.)?(?:\d+\.)+\d*$")
"""A heading's number, which ends a "sentence" of its own ("54.24." of "54.24.
pg_settings", "F.4."): a label, not a fact to quote."""
_CLAUSE_END = re.compile(r"[.,;:!?][\"')\]]*$")
_PROSE = re.compile(r"[.!?][\"')\]]*$")
"""A sentence of prose ends with its punctuation (a heading, a table row or code does not)."""
_ANNOUNCES = re.compile(
    r"\b(?:two|three|four|several|a few|different)\s+(?:ways|options|methods|approaches)\b"
    r"[^.!?]*[.!?]$",
    re.I,
)
"""A sentence that announces the ways that follow ("If you want to register your own
filters in Jinja2 you have two ways to do that."): it answers with the next one."""
_REFERS_BACK = re.compile(
    r"(?:it|its|this|that|these|those|they|their|such|then|otherwise|however|also|instead"
    r"|thus|hence|therefore|if not)\b",
    re.I,
)
"""The first words of a sentence that goes on about the one before it ("If key is in the
dictionary, return its value. If not, insert key ...")."""
_CALL = re.compile(r"\w\(")
_EXAMPLE = re.compile(r"\w\([^)]*['\"].*\)\s*(?:\u2192|->|=>)\s*\S")
"""A call with a string among its arguments, then what it gives: an example of use,
whose result is a fact (a reference's "initcap('hi THOMAS') → Hi Thomas"), not the label
of what follows."""
_LIST_ITEM = re.compile(r"^(?:[-*+\u2022]|\d{1,3}[.)])\s+\S")
"""An item of a list, with its bullet or number: a fact, however short ("* `\\` on
Windows"), when it says words (not only a name in code or a type: "* {string}") and does
not end with a colon to introduce what follows."""
_TYPED = re.compile(r"^[-*+\u2022]\s+[\w ]{1,20}:\s*\{[^}\n]*\}$")
"""A list item that gives only a type, as JSDoc-style references do ("* Returns:
{Function}", "* Extends: {net.Socket}"): a label of the sentences under it."""
_COLUMN_TYPE = re.compile(
    r"^[^\W\d]\w*\s+[a-z]+(?:\d+|\(\d+(?:,\s*\d+)?\))?(?:\[\])?"
    r"(?:\s+\(references [^)]*\))?$"
)
"""A column and its type, as a data dictionary or a catalog lists them ("null_frac
float4", "amount numeric(10,2)", "most_common_freqs float4[]"): a label of its
description, though it holds digits."""
_MARKUP = re.compile(r"`[^`\n]*`|\{[^}\n]*\}")
_TEMPLATE_SLOT = re.compile(r"\{[^}\n]*\}")
_WORD = re.compile(r"[^\W\d_]{2,}")
_KEY_VALUE = re.compile(r"^[^:]{1,60}:\s+\S")
"""A table's key/value line ("Renewal: Automatic ..."): a fact, not a label."""
_WRAP_WORDS = 5
_NEVER_LAST = frozenset(
    {"a", "an", "the", "of", "to", "by", "with", "for", "in", "on", "at", "from", "into"}
    | {"and", "or", "but", "than", "under", "between", "about", "via", "per"}
)
"""Words no sentence ends with: the line after one that does goes on with its sentence,
whatever its first letter ("... under the direction of" then "Helena Voss. It covers")."""
_TITLE_WORDS = 12
_DATE_CHARS = 20
"""Characters either side of a line break that a date across it is looked for in."""
_USAGE = re.compile(rf"\w[\])]?\s*=\s*\S|\w\[|{_KEY_VALUE.pattern}")
"""A line of code that assigns or indexes (``response.headers['X-Frame-Options'] =
'SAMEORIGIN'``), or a ``key: value`` line ("Syntax: ProxyPreserveHost On|Off"): an
example of a thing's use or a fact of its entry, which weighs as a label when the
question asks what the thing does (the line is not prose: it ends no sentence), unless it
is the line of the parameter asked about ("inplace : bool, default False")."""
_CODE_CHARS = re.compile(r"[=;{}<>|]|\w\(|^\s")
_INLINE_CODE = re.compile(r"`[^`\n]+`")
"""Code within prose, as Markdown marks it: "an `(err, value) => ...` callback as the last
argument, and returns a version" is a line of prose that wraps."""
_SUFFIXES = ("ations", "ation", "ings", "ing", "ies", "ied", "ed", "es", "s", "ly")


@dataclass(frozen=True, slots=True)
class Unit:
    """A sentence (or line) of a text: ``text[start:end]``, blanks trimmed."""

    start: int
    end: int


def units_of(text: str) -> list[Unit]:
    """The sentences of ``text``, in order. A line that ends without punctuation is one (a
    table row, a line of code, a heading), unless it is prose wrapped onto the next line,
    as PDF pages are: then the sentence goes on (:func:`_wrapped`); a line of code in a
    fence (:func:`code_spans`) never does."""
    found: list[Unit] = []
    code = code_spans(text)
    for m in SENTENCE_PATTERN.finditer(text):
        start = m.start() + len(m.group()) - len(m.group().lstrip())
        end = m.start() + len(m.group().rstrip())
        if end <= start:
            continue
        if found and not _inside(code, start) and _wrapped(text, found[-1], start):
            found[-1] = Unit(found[-1].start, end)
        else:
            found.append(Unit(start, end))
    return found


@functools.lru_cache(maxsize=1024)
def labelled_units(text: str) -> tuple[tuple[Unit, bool], ...]:
    """The sentences of ``text`` (:func:`units_of`), each with whether it is a heading or
    a label (:func:`is_label`). Ranking (a file's headings), quoting and attribution each
    read a passage's sentences: the passages of one question are split once."""
    code = code_spans(text)
    return tuple(
        (u, not _inside(code, u.start) and (is_label(text[u.start : u.end]) or _asks(text, u)))
        for u in units_of(text)
    )


def label_at(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]`` is one sentence of ``text`` that is a heading or a
    label (:func:`labelled_units`: a line of code in a fence is none, though alone it
    looks like one)."""
    return any(u.start == start and u.end == end and label for u, label in labelled_units(text))


def _inside(spans: list[tuple[int, int]], at: int) -> bool:
    return any(a <= at < b for a, b in spans)


def code_spans(text: str, *, whole: bool = False) -> list[tuple[int, int]]:
    """The spans of ``text``'s blocks of code, each from its opening fence to the end of
    its closing one (Markdown's line of three backticks; the opening one may name a
    language): their lines are code, none a heading ("lfp run --date today --force" is
    the command asked for) nor a claim of an answer. A block a text ends in goes to its
    end. A passage (not ``whole``, as an answer is) may start inside a block: its first
    fence then closes one (it names no language, and an odd number of fences follows)."""
    found = list(_FENCE.finditer(text))
    spans = []
    if len(found) % 2 and not whole and not found[0]["language"]:
        spans.append((0, found.pop(0).end()))
    for i in range(0, len(found), 2):
        spans.append((found[i].start(), found[i + 1].end() if i + 1 < len(found) else len(text)))
    return spans


def heading_spans(text: str) -> list[tuple[int, int]]:
    """The spans of the headings and labels of ``text`` that head a sentence in it: one
    that ends a passage, or has only its box of ``key: value`` facts under it there
    ("MaxRequestWorkers Directive ¶", then "Default: See usage for details"), heads what
    the next passage says."""
    spans: list[tuple[int, int]] = []
    pending: list[tuple[int, int]] = []
    for unit, label in labelled_units(text):
        if label:
            pending.append((unit.start, unit.end))
        elif not _KEY_VALUE.match(text[unit.start : unit.end]):
            spans += pending
            pending = []
    return spans


def _asks(text: str, unit: Unit) -> bool:
    """Whether ``unit`` is a line of its own that asks a question in a few words: an FAQ's
    heading ("2.12 Why is R named R?"), which the sentences under it answer; it answers
    nothing itself."""
    line = text[unit.start : unit.end]
    return (
        line.endswith("?")
        and text[unit.start - 1 : unit.start] in ("", "\n")
        and text[unit.end : unit.end + 1] in ("", "\n")
        and len(line.split()) <= _TITLE_WORDS
    )


def _wrapped(text: str, before: Unit, start: int) -> bool:
    """Whether the line at ``start`` continues the sentence ``before``: one line break
    between them, the line ``before`` ends with a word or a comma after at least
    :data:`_WRAP_WORDS` words (its own, or those of the sentences before it on that line:
    "... 09:59 CET. Every card" wraps "Every card"), holds no code (Markdown's inline code
    aside), and the line starts in lower case or with inline code (or follows a word no
    sentence ends with, :data:`_NEVER_LAST`: a name; or goes on with a date in words: "...
    from 1" then "October 2025, ahead of"), and ends a sentence or
    a clause or is long too: a short line without punctuation is a row of its own (a
    catalog's "null_frac float4" under the description of the column before it), and so
    is a ``key: value`` line under another (Flask's "float: like int but for floating
    point values", then "path: like the default but also accepts slashes")."""
    between = text[before.end : start]
    line = text[text.rfind("\n", 0, before.start) + 1 : before.end]
    end = text.find("\n", start)
    after = text[start : len(text) if end < 0 else end].rstrip()
    return (
        between.count("\n") == 1
        and not between.strip()
        and (line[-1].isalnum() or line[-1] in ",;")
        and len(line.split()) >= _WRAP_WORDS
        and not _CODE_CHARS.search(_INLINE_CODE.sub("code", line))
        and (_CLAUSE_END.search(after) is not None or len(after.split()) >= _WRAP_WORDS)
        and not (_KEY_VALUE.match(line) and _KEY_VALUE.match(after))
        and (
            text[start].islower()
            or text[start] == "`"
            or line.rsplit(None, 1)[-1].lower() in _NEVER_LAST
            or _date_across(text, before.end)
        )
    )


def _date_across(text: str, at: int) -> bool:
    """Whether a date in words (:data:`.tables.DATES`) runs over the line break at ``at``."""
    start = max(0, at - _DATE_CHARS)
    return any(
        m.start() < at - start < m.end() for m in DATES.finditer(text[start : at + _DATE_CHARS])
    )


def _fold(word: str) -> str:
    """A crude stem: lowercase, accents off, one common English suffix off."""
    word = unicodedata.normalize("NFKD", word.lower())
    word = "".join(c for c in word if not unicodedata.combining(c))
    for suffix in _SUFFIXES:
        if len(word) - len(suffix) >= 3 and word.endswith(suffix):
            return word[: -len(suffix)]
    return word


def claim_words(text: str) -> frozenset[str]:
    """The content words of ``text`` (stop words out), folded (:func:`_fold`); numbers are
    left to :func:`numbers_in`."""
    return frozenset(
        _fold(w) for w in search_terms(text) if not _HAS_DIGIT.search(w) and len(w) > 1
    )


def numbers_in(text: str) -> frozenset[str]:
    """The numbers of ``text`` as digits and a decimal point ("184,000" and "184000" are one;
    "3.1" keeps its point)."""
    found = {m.group().lower() for m in (*_HEX.finditer(text), *_NUMBERED.finditer(text))}
    for m in _NUMBER.finditer(_HEX.sub(" ", text)):
        raw = re.sub(r"[,' ](?=\d{3}\b)", "", m.group()).rstrip(".,' ")
        found.add(raw.replace(" ", ""))
    return frozenset(found)


def months_in(text: str) -> frozenset[int]:
    """The months ``text`` names, as numbers: "October", "Oct", the 10 of "2025-10-01";
    "May" only beside a number (a day, a year), as the verb is none."""
    found = {int(m[1]) for m in _ISO_MONTH.finditer(text)}
    for m in _CAPITALISED.finditer(text):
        word = m.group().lower()
        month = month_number(word)
        if month is None or (word == "may" and not _beside_number(text, m.start(), m.end())):
            continue
        found.add(month)
    return frozenset(found)


def _beside_number(text: str, start: int, end: int) -> bool:
    return bool(_DIGIT_BEFORE.search(text[max(0, start - 3) : start])) or bool(
        _DIGIT_AFTER.match(text, end)
    )


def quantities_in(text: str) -> frozenset[str]:
    """The numbers of ``text`` (:func:`numbers_in`) outside dates and times of day: the 14
    of "lasted 14 days", not of "14 March"."""
    return numbers_in(_DATE_OR_TIME.sub(" ", text))


def is_label(line: str) -> bool:
    """A heading, a signature or date line, a label ("Fees", "Contract owner:"), or a bare
    call signature: a line that names a subject rather than saying something about it."""
    stripped = line.strip()
    if _LABEL.search(stripped) or _SIGNATURE.search(stripped):
        return True
    if heads_itself(stripped):  # "heapq.heapify(x)¶": Sphinx marks what it defines
        return True
    if _CODE_SIGNATURE.match(stripped) or _SECTION_NUMBER.match(stripped):
        return True
    if _TYPED.match(stripped):  # "* Returns: {string}": the type of what the text explains
        return True
    if _COLUMN_TYPE.match(stripped):  # "null_frac float4": the column the text describes
        return True
    if _KEY_VALUE.match(stripped):  # "Contract owner: Maria Keller (Procurement)" says it
        return False
    if _LIST_ITEM.match(stripped) and _WORD.search(_MARKUP.sub(" ", stripped)):
        return False  # "* `\\` on Windows" says it; a heading has no bullet
    if _EXAMPLE.search(stripped):
        return False  # "initcap('hi THOMAS') → Hi Thomas" says what the call gives
    # "max_connections (integer)" names a setting; "penguins.dropna()" is a call.
    ends = stripped[-1:] in ".!?\"'" or (stripped[-1:] == ")" and _CALL.search(stripped))
    titled = _NUMBERED_HEADING.sub("", stripped)  # "4 Step test in Tullyroe East"
    return not ends and len(titled.split()) <= 6 and not _HAS_DIGIT.search(titled)


def _said(sentence: str) -> bool:
    """Whether ``sentence`` says something in words: at least three outside code ("Tests if
    `value` is truthy.")."""
    return len(_WORD.findall(_MARKUP.sub(" ", sentence))) >= 3


def _shape(question: str) -> Callable[[str], bool] | None:
    """What the answer to ``question`` must hold: a duration or size ("how long"), a
    quantity, a date or a name."""
    if _ASKS_LENGTH.search(question):
        return lambda sentence: _LENGTH.search(sentence) is not None
    if _ASKS_NUMBER.search(question):
        # not only the question's own ("on 3 or more nights"), nor a template's slots:
        # "print(f'... 3 or more nights: {len(flagged)}')" is not the "7 of 32" it printed
        said = quantities_in(question)
        return lambda sentence: bool(quantities_in(_TEMPLATE_SLOT.sub(" ", sentence)) - said)
    if _describes(question):  # "What happens *when* ...?" asks no date
        return lambda sentence: _PROSE.search(sentence) is not None and _said(sentence)
    if _ASKS_DATE.search(question):
        return lambda sentence: _MONTH.search(sentence) is not None
    if _ASKS_NAME.search(question):
        return lambda sentence: _INNER_NAME.search(sentence) is not None
    return None


def named_in_file(passage: Passage, terms: list[frozenset[str]]) -> frozenset[str]:
    """The query terms in the name of the passage's file: they chose the passage (every
    sentence of it matches them), so the sentence that answers is the one with the rest of
    the question ("the annual *fee* in the Acme contract")."""
    named = {_fold(w) for w in re.findall(r"[^\W_]+", passage.filename.lower())}
    return frozenset(
        t
        for matched in terms
        for t in matched
        if _fold(t) in named
        or (
            is_identifier(t)
            and ({_fold(w) for w in t.split("_")} <= named or _fold(t.replace("_", "")) in named)
        )
    )


def _sections(
    says: list[bool], labels: list[bool], terms: list[frozenset[str]], anew: list[bool]
) -> list[dict[str, float]]:
    """Each sentence's terms, at full weight, with those of the heading or label it stands
    under at :data:`HEADED_FACTOR` when it ``says`` something (:func:`_said`): the sentences
    under "deadlock_timeout (integer)" or "Root cause" are about it, and the heading alone
    answers nothing (nor does "Small." under SQLite's titles); but a sentence that says a
    word itself says more than one under a heading that does. A label that is a heading
    of its own (``anew``: :func:`~.terms.heads_itself`) names another thing than the
    labels before it ("shutil.rmtree(directory)", then "Archiving operations¶")."""
    found: list[dict[str, float]] = []
    heading, under = frozenset[str](), False
    for said, label, matched, own in zip(says, labels, terms, anew, strict=True):
        if label:
            # consecutive labels name one thing ("-R", "--write-recovery-conf")
            heading = heading | matched if under and not own else matched
            found.append(dict.fromkeys(matched, 1.0))
        else:
            headed = heading if matched or said else frozenset()
            found.append({**dict.fromkeys(headed, HEADED_FACTOR), **dict.fromkeys(matched, 1.0)})
        under = label
    return found


def _headings(
    labels: list[bool], terms: list[frozenset[str]], anew: list[bool]
) -> list[frozenset[str]]:
    """For each sentence, the matched terms of the labels right before it (a heading, then
    a parameter's line, "* `value` {any}"; from the last heading of its own, ``anew``): a
    sentence that follows them may define what they name."""
    found: list[frozenset[str]] = []
    before = frozenset[str]()
    for label, matched, own in zip(labels, terms, anew, strict=True):
        found.append(before)
        before = (matched if own else before | matched) if label else frozenset()
    return found


def holds_parameter(text: str, names: frozenset[str]) -> bool:
    """Whether ``text`` holds the entry of one of the parameters ``names``
    (:func:`~.terms.opens_parameter`)."""
    return bool(names) and any(opens_parameter(line, names) for line in text.splitlines())


def defines_option(
    text: str,
    options: frozenset[str],
    flags: frozenset[str],
    calls: frozenset[str] = frozenset(),
    *,
    headed: frozenset[str] = frozenset(),
) -> bool:
    """Whether ``text`` holds what one of ``options``, ``flags``, ``calls`` or ``headed``
    does: a sentence under the label of its entry (:func:`_entries`)."""
    if not options and not flags and not calls and not headed:
        return False
    split = labelled_units(text)
    lines = [text[u.start : u.end] for u, _ in split]
    labels = [label for _, label in split]
    return any(_entries(lines, labels, options, flags, calls, headed=headed))


def _entries(
    lines: list[str],
    labels: list[bool],
    options: frozenset[str],
    flags: frozenset[str],
    calls: frozenset[str] = frozenset(),
    alone: frozenset[str] = frozenset(),
    *,
    headed: frozenset[str] = frozenset(),
) -> list[bool]:
    """For each sentence, whether it is the first after labels one of which opens the
    entry of one of ``options``, ``flags`` or ``calls`` (:func:`~.terms.opens_entry`), or
    is one of the words ``alone`` and nothing else ("configtest", then "Run a
    configuration file syntax test."), at most :data:`ENTRY_LABELS` before it: an entry's
    names ("-p", "--prune"), not a list of signatures that only ends with a sentence
    ("json_extract(json,path,...)", then twenty more). A name of ``headed`` opens its
    entry from a heading of its own that starts with it ("ExpiresActive Directive ¶"),
    whose first sentence follows its box of ``key: value`` facts ("Syntax: ExpiresActive
    On|Off"): an example's line that starts with the name ("UserDir public_html") opens
    none."""
    found: list[bool] = []
    since, boxed = ENTRY_LABELS, False  # labels since the last that opened an entry
    for line, label in zip(lines, labels, strict=True):
        if boxed and not label and _KEY_VALUE.match(line):
            found.append(False)
            continue
        found.append(since < ENTRY_LABELS and not label)
        boxed = False
        if not label:
            since = ENTRY_LABELS
        elif opens_entry(line, options, flags, calls) or _one_of(line, alone):
            since = 0
        elif heads_itself(line) and opens_entry(line, headed, ()):
            since, boxed = 0, True
        else:  # a heading of its own ends the entry ("Archiving operations¶")
            since = ENTRY_LABELS if heads_itself(line) else since + 1
    return found


def _values_given(lines: list[str], passed: Sequence[tuple[str, str]]) -> list[bool]:
    """For each line, whether it is the item that says what a value ``passed`` to a
    parameter does (:func:`~.terms.gives_value`), under that parameter's entry
    ("on_bad_lines : ('error', 'warn', 'skip')", ..., then "'warn', print a warning ...")."""
    values = dict(reversed(passed))  # the first value passed to each parameter
    found: list[bool] = []
    value: str | None = None  # the value passed to the parameter whose entry this is
    for line in lines:
        found.append(value is not None and gives_value(line, value))
        if (name := parameter_of(line)) is not None:
            value = values.get(name)
    return found


def _describes(question: str) -> bool:
    """Whether ``question`` asks what a thing does or what happens: a sentence of prose
    answers it."""
    return (
        _ASKS_DESCRIPTION.search(question) is not None or ASKS_EFFECT.search(question) is not None
    )


def asks_option(question: str) -> bool:
    """Whether ``question`` asks which option does something (:data:`_ASKS_OPTION`)."""
    return _ASKS_OPTION.search(question) is not None


def _under_option(lines: list[str], labels: list[bool]) -> list[bool]:
    """For each sentence, whether it is the first under an option's label ("-B")."""
    return [
        i > 0 and labels[i - 1] and not labels[i] and _OPTION_LABEL.match(lines[i - 1]) is not None
        for i in range(len(lines))
    ]


def option_descriptions(text: str) -> list[tuple[int, int]]:
    """The spans of the sentences of ``text`` that say what an option does: the first
    under its label ("-B", then "Use bcrypt hashing for passwords.")."""
    split = labelled_units(text)
    lines = [text[u.start : u.end] for u, _ in split]
    under = _under_option(lines, [label for _, label in split])
    return [(u.start, u.end) for (u, _), first in zip(split, under, strict=True) if first]


def _key_asked(line: str, asked: frozenset[str]) -> frozenset[str]:
    """The words of the key of ``line``, a ``key: value`` line, when the question asks
    them all ("What is the default value of CacheDefaultExpire?" and "Default:
    CacheDefaultExpire 3600 (one hour)"); else none."""
    if not asked or not _KEY_VALUE.match(line):
        return frozenset()
    words = frozenset(search_terms(line.partition(":")[0]))
    return words if words <= asked else frozenset()


def states_asked_fact(text: str, asked: frozenset[str]) -> bool:
    """Whether a ``key: value`` line of ``text`` is the fact asked (:func:`_key_asked`)
    of what else the question names, which its value holds ("Default: SSLProtocol all
    -SSLv3" for "What is the default value of SSLProtocol?")."""
    for line in text.splitlines():
        key = _key_asked(line, asked)
        if key and (asked - key) & frozenset(search_terms(line.partition(":")[2])):
            return True
    return False


def _one_of(line: str, words: frozenset[str]) -> bool:
    """Whether the only word ``line`` searches is one of ``words``."""
    found = search_terms(line) if words else ()
    return len(found) == 1 and found[0] in words


def _title(passage: Passage, first: Unit) -> bool:
    """Whether ``first`` is the title of the passage's file: its first line, a few words
    without a sentence's end ("Postmortem: checkout outage of 14 March"). It names what the
    file is about, as a heading does, whatever digits or colon it holds."""
    line = passage.text[first.start : first.end]
    return (
        passage.start == 0
        and not passage.text[: first.start].strip()
        and "\n" not in line
        and _PROSE.search(line) is None
        and len(line.split()) <= _TITLE_WORDS
    )


def _whole(term: str, sentence: str) -> bool:
    """Whether ``sentence`` holds ``term`` itself: an identifier whole
    (:func:`~.terms.holds_identifier`), any other term as the index matched it."""
    return not is_identifier(term) or holds_identifier(sentence, term)


def _term_of(token: str, weights: Mapping[str, float]) -> str:
    """The query term a matched token stands for (the index matched it by its stem)."""
    token = token.lower()
    if token in weights:
        return token
    folded = _fold(token)
    for term in weights:
        if is_identifier(term) and token in term.split("_"):
            return term
        if _fold(term) == folded or term.startswith(folded) or folded.startswith(_fold(term)):
            return term
    return token


def best_quote(
    passage: Passage, weights: Mapping[str, float] | None = None, question: str = ""
) -> str:
    """The exact text of ``passage`` that best answers ``question``: the run of sentences
    whose matched terms weigh most by ``weights`` (each query term's share of the
    question; every term weighs 1 without them), with the bonuses and penalties above."""
    start, end = best_span(passage, weights, question)
    return passage.text[start:end]


def best_span(
    passage: Passage, weights: Mapping[str, float] | None = None, question: str = ""
) -> tuple[int, int]:
    """Where :func:`best_quote` is in ``passage.text`` (its start gives the quote's
    location: :func:`~.locations.quote_location`)."""
    return quote_spans(passage, weights, question, most=1)[0]


def quote_spans(
    passage: Passage,
    weights: Mapping[str, float] | None = None,
    question: str = "",
    *,
    most: int = 2,
) -> list[tuple[int, int]]:
    """The spans of ``passage.text`` its citations quote, best first: :func:`best_span`,
    then (``most`` 2) the best run of sentences apart from it that holds words of the
    question the first does not, when it weighs at least :data:`SECOND_QUOTE_SHARE` of
    the first."""
    text, split = passage.text, labelled_units(passage.text)
    units = [u for u, _ in split]
    if not units:
        lead = len(text) - len(text.lstrip())
        return [quote_span(passage, lead, min(len(text), lead + MAX_QUOTE_CHARS))]
    weights = weights or {}
    terms = [
        frozenset(
            term
            for a, b in passage.hits
            if u.start <= a
            and b <= u.end
            and _whole(term := _term_of(text[a:b], weights), text[u.start : u.end])
        )
        for u in units
    ]
    # "which option": the word "option" says what the answer is, not what it says
    if asked := _ASKS_OPTION.search(question):
        weights = {t: w for t, w in weights.items() if t != asked.group(1).lower()}
    weights = _within(weights, terms)
    lines = [text[u.start : u.end] for u in units]
    labels = [label for _, label in split]
    labels[0] = labels[0] or _title(passage, units[0])
    shape = _shape(question)
    named = named_in_file(passage, terms)
    says = [_said(line) for line in lines]
    anew = [heads_itself(line) for line in lines]
    sections = _sections(says, labels, terms, anew)
    headings = _headings(labels, terms, anew)
    options, flags = options_in(question), flags_in(question)
    # a name alone on its label line opens its entry, unless options are asked ("-X" is
    # not "-x": their entries are theirs)
    asks = _ASKS_DESCRIPTION.search(question) and not options | flags
    asked_terms = frozenset(weights)
    alone = asked_terms if asks else frozenset()
    headed = heading_names(question) if asks else frozenset()
    entries = _entries(lines, labels, options, flags, calls_in(question), alone, headed=headed)
    parameters = parameters_in(question)
    # a value passed to a parameter ("on_bad_lines='warn'"): its item, not the parameter's line
    passed = keyword_values(question)
    given = _values_given(lines, passed)
    if any(given):
        parameters -= {name for name, _ in passed}
    parameter = [bool(parameters) and opens_parameter(line, parameters) for line in lines]
    optioned = [bool(asked) and under for under in _under_option(lines, labels)]
    keys = [_key_asked(line, asked_terms) for line in lines]
    keyed = [bool(key and set(section) - key) for key, section in zip(keys, sections, strict=True)]
    # a label, or an example's prompt: a quote that starts there weighs less
    describes = _describes(question)
    lesser = [
        label
        or _PROMPT.match(line.lstrip()) is not None
        or (
            describes
            and not own
            and _PROSE.search(line) is None
            and _USAGE.search(line) is not None
        )
        for line, label, own in zip(lines, labels, parameter, strict=True)
    ]
    top = max(weights.values(), default=1.0)

    def weight(found: Mapping[str, float]) -> float:
        return sum(
            weights.get(t, 0.0 if weights else 1.0) * (NAMED_FACTOR if t in named else 1.0) * f
            for t, f in found.items()
        )

    def score(lo: int, hi: int) -> float:
        """What the quote of sentences ``lo``..``hi`` is worth: the weight of the terms
        it holds (with its heading's), the shape bonus, the heading penalty."""
        found: dict[str, float] = {}
        for section in sections[lo : hi + 1]:
            for t, f in section.items():
                found[t] = max(f, found.get(t, 0.0))
        value = weight(found)
        if value and ((shape is not None and shape(lines[lo])) or optioned[lo]):
            value += SHAPE_BONUS * top
        if not labels[lo] and (heading := headings[lo]) and not (terms[lo] & heading) and says[lo]:
            value += DEFINITION_BONUS * top
        # what it does, a parameter's line and type, or the fact asked of it
        if entries[lo] or parameter[lo] or keyed[lo] or given[lo]:
            value += ENTRY_BONUS * top
        return value * (HEADING_FACTOR if lesser[lo] else 1.0) - SENTENCE_COST * (hi - lo)

    def fits(lo: int, hi: int) -> bool:
        span = text[units[lo].start : units[hi].end]
        return "\n\n" not in span and len(span) <= MAX_QUOTE_CHARS and not labels[hi]

    def leads(lo: int, hi: int) -> bool:
        """The first sentence of a longer quote holds terms the rest does not: a quote
        starts with what answers, not with a sentence leading up to it."""
        return bool(terms[lo] - frozenset().union(*terms[lo + 1 : hi + 1]))

    runs: list[tuple[float, int, int]] = []
    for lo in range(len(units)):
        hi = lo
        while True:
            if lo == hi or leads(lo, hi):
                runs.append((score(lo, hi), lo, hi))
            if hi + 1 - lo >= MAX_QUOTE_SENTENCES or hi + 1 == len(units) or not fits(lo, hi + 1):
                break
            hi += 1

    def goes_on(lo: int, j: int) -> bool:
        """Sentence ``j`` is prose that goes on about what the quote from ``lo`` says (it
        refers back: "It", "This", ...), within the bounds. A sentence that only shares
        words with it may be about another thing ("The Q3 churn in Nice ..." after
        Lyon's)."""
        return (
            (_PROSE.search(lines[j]) is not None or lines[j].endswith(":"))
            and fits(lo, j)
            and _REFERS_BACK.match(lines[j]) is not None
        )

    def introduces(lo: int, hi: int) -> bool:
        """Sentence ``hi`` ends with a colon and what it introduces follows, within the
        bounds (even past a blank line: "lines of the following format:", then the
        format), or announces ways that follow (:data:`_ANNOUNCES`), or it is a
        parameter's line and its description follows ("inplace : bool, default False",
        then "Whether to modify the DataFrame ..."): a quote does not stop before what it
        announces."""
        return (
            (
                lines[hi].rstrip().endswith(":")
                or parameter[hi]
                or _ANNOUNCES.search(lines[hi]) is not None
            )
            and hi + 1 < len(units)
            and units[hi + 1].end - units[lo].start <= MAX_QUOTE_CHARS
        )

    def quoted(i: int) -> bool:
        """Sentence ``i`` is in a quote already taken."""
        return any(a <= i <= b for a, b in taken)

    def continues(lo: int, hi: int) -> bool:
        """The quote's first sentence refers back ("It should always be avoided") to the
        whole sentence of prose before it, which it joins within the bounds: a quote
        does not start with a pronoun whose subject the reader cannot see."""
        return (
            lo > 0
            and hi - lo + 1 < MAX_QUOTE_SENTENCES
            and _REFERS_BACK.match(lines[lo]) is not None
            and not labels[lo - 1]
            and lines[lo - 1][:1].isupper()
            and _PROSE.search(lines[lo - 1]) is not None
            and fits(lo - 1, hi)
            and not quoted(lo - 1)
        )

    spans: list[tuple[int, int]] = []
    taken: list[tuple[int, int]] = []
    first = 0.0
    said: frozenset[str] = frozenset()
    for _ in range(most):
        free = [r for r in runs if all(r[2] < lo or r[1] > hi for lo, hi in taken)]
        if taken:  # a second quote says words of the question the first does not, and
            # more than a heading: a title ("Postmortem: checkout outage of 14 March")
            # names what the passage is about, it says nothing of it
            free = [
                r
                for r in free
                if frozenset().union(*terms[r[1] : r[2] + 1]) - said
                and not (r[1] == r[2] and labels[r[1]])
            ]
        if not free:
            break
        value, lo, hi = _heaviest(free)
        if taken and (first <= 0 or value < SECOND_QUOTE_SHARE * first):
            break
        first = first if taken else value
        prose = all(_PROSE.search(lines[i]) for i in range(lo, hi + 1))
        if prose and continues(lo, hi):
            lo -= 1
        while prose and hi - lo + 1 < MAX_QUOTE_SENTENCES and hi + 1 < len(units):
            if quoted(hi + 1) or not goes_on(lo, hi + 1):
                break
            hi += 1
        if introduces(lo, hi) and not quoted(hi + 1):
            hi += 1
        if optioned[lo] and not quoted(lo - 1):
            lo -= 1
        taken.append((lo, hi))
        said = said.union(*terms[lo : hi + 1])
        spans.append(quote_span(passage, units[lo].start, units[hi].end))
    return spans


def _within(weights: Mapping[str, float], terms: list[frozenset[str]]) -> Mapping[str, float]:
    """``weights`` times each term's inverse frequency among the sentences whose terms are
    ``terms`` (``log((n + 1) / (count + 0.5))``), when there are :data:`RARITY_UNITS`
    of them or more: a term in every sentence weighs almost nothing in the choice of
    one. On the dev split of ``benchmarks/data/pgdocs`` the answer is in the first quote
    for 0.486 of the questions, 0.465 without (``1 + log(n / count)``: 0.479)."""
    if len(terms) < RARITY_UNITS:
        return weights
    counts = Counter(t for found in terms for t in found)
    n = len(terms)
    return {
        t: w * math.log((n + 1) / (counts[t] + 0.5)) if counts[t] else w for t, w in weights.items()
    }


def _heaviest(runs: list[tuple[float, int, int]]) -> tuple[float, int, int]:
    """The first of the runs that weigh most (a later one must weigh more by more than
    rounding)."""
    best = runs[0]
    for run in runs[1:]:
        if run[0] > best[0] + 1e-9:
            best = run
    return best


def quote_span(passage: Passage, start: int, end: int) -> tuple[int, int]:
    """The quote of ``passage.text[start:end]``: that span, or a window of
    :data:`MAX_QUOTE_CHARS` around its first hit cut at word boundaries when it is
    longer, blanks trimmed."""
    text = passage.text
    if end - start > MAX_QUOTE_CHARS:
        first = next((a for a, _ in passage.hits if start <= a < end), start)
        lo_c = max(start, first - MAX_QUOTE_CHARS // 3)
        hi_c = min(end, lo_c + MAX_QUOTE_CHARS)
        if lo_c > start and (space := text.find(" ", lo_c, hi_c)) != -1:
            lo_c = space + 1
        if hi_c < end and (space := text.rfind(" ", lo_c, hi_c)) > lo_c:
            hi_c = space
        start, end = lo_c, hi_c
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end
