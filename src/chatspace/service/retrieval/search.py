"""Finding the passages of a workspace's files that answer the user's question.

The question is the text of the last user message that has text. A follow-up ("And in
Nice?", "Who owns it?") is searched with the conversation it continues: the content words
of the previous user turns join the query at :data:`CONTEXT_WEIGHT`. The words, less
common English stop words, are searched through the database engine's index
(:mod:`.index`: FTS5 on SQLite, ``tsvector`` and pgvector on PostgreSQL) and ranked here,
the same way on every engine, in two steps:

1. **Candidates**: the :data:`POOL` best passages matching any of the terms (without
   context and relevance, this alone is the ranking of the benchmark's "today" column),
   and, with vectors, the :data:`POOL` passages most similar to the question. In a large
   workspace, the terms whose matches together exceed :data:`SEARCHED_POSTINGS`, the
   commonest first, are searched only together (:func:`searched_terms`): the query's
   cost is bounded by the rare terms' matches, not by the commonest word's.
2. **Relevance** (:func:`_lexical`, :func:`relevance_of`): which query terms each
   candidate matches (the tokens the index marked in it, stemmed as the index stems
   them), and each term's inverse document frequency in the workspace. A passage's *coverage*
   is the share of the question's weight (term weight x idf) that it matches, in its
   text or its file's name; its
   relevance is the dense model's ``lexical_share`` of its coverage plus the rest of its
   cosine similarity to the question (a convex combination, which beat reciprocal rank
   fusion on the dev split of ``benchmarks/data/retrieval``; each model's share is its own,
   :class:`~.embeddings.Embedder`). Candidates are ranked by relevance (within either side
   of the cut, a file whose title the question spells out a little higher: :func:`_titled`;
   ties by bm25; within the places a file holds, its passage with the entry of an option
   the question spells ("-p", "--prune") first, then one whose headings name the
   question: :func:`_headed_first`), and cited when it reaches the threshold
   (``relevance`` of a filter part, else the service's ``relevance_threshold``, by default
   the dense model's ``relevance``, or :data:`DEFAULT_RELEVANCE` by words alone). A
   question that names (capitalizes) something no passage and no file name of the
   workspace contains has no relevant passage at all: the files do not know what it is
   about; unless that name is a short acronym ("for a *CFO*": a role, not a subject) or
   another name of the question, not such an acronym, is in a candidate's file name ("the
   *Acme* contract"). A passage without a name of the question that few passages of the
   workspace hold (:data:`RARE_NAME_SHARE`) is not relevant either: "the capital city of
   *Australia*" is not answered by "Each state has many cities, but only one capital." A
   word joined by underscores (``max_query_memory``) counts as a name, capitalized or not:
   it names a setting, a function or a column that the files must know; so does a long
   option (``--data-checksums``), which a candidate must spell whole, and a product's or
   a command's name of several capitalized words, one in capitals (:func:`name_phrases`),
   which a candidate or its file's name must spell together: a manual that says
   "Microsoft Windows" and "SQL server" does not know "Microsoft SQL Server".
   When none is left, the answer says that nothing in the files answers the question.

The question is the user's own words: sentences a tool wraps around it to shape the
answer ("Produce output in markdown format only.") are not searched
(:func:`without_instructions`).

Each hit also carries where its matched terms stand in the passage (``hits``), and the
retrieval each term's share of the question (``weights``): :mod:`.quotes` picks by them
the sentences an answer quotes.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cache, partial
from itertools import pairwise
from pathlib import PurePath
from typing import TYPE_CHECKING, NamedTuple

import sqlalchemy as sa

from chatspace.service.store import schema
from chatspace.service.store.dialects import in_json_array
from chatspace.service.tokenizer import count_texts
from chatspace.types import ChatMessage, question_of

from .locations import Mark
from .quotes import (
    asks_option,
    defines_option,
    heading_spans,
    holds_parameter,
    named_in_file,
    option_descriptions,
    states_asked_fact,
)
from .scope import Scope, resolve_scope
from .tables import (
    MEASURES,
    abbreviates,
    asks_computation,
    asks_shape,
    block_header,
    computing_words,
    dates_in,
    header_start,
    name_words,
    names_the_table,
)
from .terms import (
    ASKS_EFFECT,
    CALENDAR,
    MAX_TERMS,
    MONTHS,
    WORD,
    asked_words,
    calls_in,
    flags_in,
    heading_names,
    holds_identifier,
    holds_option,
    holds_phrase,
    is_identifier,
    month_cut,
    options_in,
    parameters_in,
    search_terms,
)

if TYPE_CHECKING:
    from .index import FullText, Hit, PassageIndex, Workspace

__all__ = [
    "CONTEXT_WEIGHT",
    "DEFAULT_RELEVANCE",
    "SEARCHED_POSTINGS",
    "Passage",
    "Query",
    "Ranking",
    "Retrieval",
    "Searched",
    "is_follow_up",
    "name_phrases",
    "names_in",
    "query_of",
    "rank",
    "relevance_of",
    "retrieve",
    "search",
    "searched_terms",
    "without_instructions",
]

POOL = 50
NAMING_FILES = 3
"""A name of the question in the names of at most this many files names them."""
MIN_PASSAGES = 100
"""The smallest passage count idf is computed with (see :func:`_idf`)."""
CONTEXT_WEIGHT = 0.5
"""Weight of a term of an earlier user turn in a follow-up (the question's own: 1)."""
CONTEXT_TURNS = 2
"""How many earlier user turns a follow-up is searched with."""
DENSE_CHARS = 4000
"""Characters of a question (and of each turn a follow-up continues) whose vector is
compared: a question pasted with a whole document is searched by its start, in a
millisecond, not by embedding megabytes."""
MAX_PHRASES = 8
PHRASE_WORDS = 6
"""The most names of several words a question is read for, and their most words
(:func:`name_phrases`): a longer run of capitalized words is a heading, not a name."""
DEFAULT_RELEVANCE = 0.35
"""The relevance a passage needs to be cited by words alone (``--embeddings off``; with a
dense model, its own ``relevance``: :class:`~.embeddings.Embedder`), calibrated on the dev
split of ``benchmarks/data/retrieval``; 0 cites the best ``top_k`` whatever they say."""
# Words that shape a question ("how many", "how much", "how often") rather than say what
# it is about: left out of the search (a file rarely says "many" where it gives a count).
_QUESTION_WORDS = frozenset({"many", "much", "often"})
# "How long" asks for a duration, and a verb ending such a question ("did it last?",
# "does it take?") only asks it again: a file says "47 minutes", not "long" or "last".
_HOW_LONG = re.compile(r"\bhow\s+long\b", re.I)
_DURATION_VERB = re.compile(r"\b(last|lasted|lasts|take|takes|took)\W*$", re.I)
_ASKS_WHAT = re.compile(r"\W*what (?:is|are|does|do)\b", re.I)
"""A question that asks what something is or does (:attr:`Query.describes`)."""
# A follow-up starts with a connective, or leans on a pronoun and has few words of its own.
_CONTINUES = re.compile(r"^\W*(?:and|also|or|but|then|what about|how about|same for)\b", re.I)
_POINTS_BACK = re.compile(
    r"\b(?:it|its|they|them|their|theirs|there|this|that|these|those|he|she|his|her)\b", re.I
)
_EXISTS = re.compile(
    r"\b(?:is|are|was|were|be)\s+there\b|\bthere(?:\s+(?:is|are|was|were)|'s)\b", re.I
)
"""An existential "there" ("How many species are there?", "Is there a ..."), which points
back to no place."""
_FEW_TERMS = 3
_ACRONYM = re.compile(r"\b[A-Z]{2,4}s?\b|\b(?:[QH]\d|FY\d{2}(?:\d{2})?)\b")
"""A short acronym, or a period a report names ("Q1", "H2", "FY24"): what a passage need
not spell out (a table of the first quarter's figures never says "Q1")."""
_NO_NAME = re.compile(r"[A-Z]{2,}s|[QH]\d|FY\d{2}(?:\d{2})?|[A-Z]")
"""An acronym's plural ("PIREPs", "DCs"): things of a kind; a period a report names ("Q2",
"FY24"): when they are; a letter alone: a grade ("a category *C* MEL item", "Plan *B*")
(:func:`name_phrases`)."""
_SENTENCE = re.compile(r"(?:[^.!?\n]|[.!?]+(?=[^\s.!?]))+(?:[.!?]+|$)", re.M)
"""A sentence ends at ".", "!" or "?" before a blank or the end: "os.path.join" and
"15.2" are words within one."""
# A sentence that asks for a form of answer (and is not itself a question), or casts the
# model in a role: a tool's wrapping, not the user's subject.
_INSTRUCTION = re.compile(
    r"^\s*(?:(?:please\s+)?(?:produce|give|return|write|format|respond|reply|answer|output|"
    r"use|keep|be)\b[^?]*\b(?:markdown|json|format|formatted|bullet|bullets|plain text|"
    r"english|concise|brief|short|words|sentences|paragraphs?)\b[^?]*[.!]?\s*$|"
    r"(?:you are|act as|as an ai)\b[^?]*[.!]\s*$)",
    re.I,
)
_SENTENCE_ENDS = frozenset('.!?:"(')
"""A capitalized word after one of these (and blanks), or at the start, begins a sentence."""
WHOLE_TABLE = 1_000
"""Passages of a table the local engine computes over (about 30,000 rows of a few
columns): past them, its answer counts the rows it read ("mean of 30,000 rows")."""
TITLE_WEIGHT = 0.03
"""How much a file whose title the question spells out ranks above its peers: the share
of the title's words found in the question, times this. It orders passages; the
relevance cut ignores it."""
TITLE_CHARS = 100
"""A file's title is its first line when that line is at most this long (an HTML page's
``<title>``, a document's heading); a longer first line is a sentence, not a title."""
ENTRY_WEIGHT = 1.0
"""How much a passage that holds the entry of an option the question names (a label line
that starts with it: "-p", "--prune"), or of a setting, a function or a column
("work_mem (integer)", :func:`_entry_names`), ranks above the other passages of its file
(:func:`_headed_first`): the entry says what it does; the others use it. An entry weighs
times the share of the question its passage holds: "to_timedelta¶" holds 0.30 of "What
unit does to_timedelta assume for a string without units?", and the passage below it that
holds the rest answers."""
CALL_WEIGHT = 0.3
"""How much a passage that holds the entry of the name in code a question asks about
("What does subprocess.run do?": "subprocess.run(args, ...)", then what it does) ranks
above the others, whatever their file: its definition, not a page that calls it."""
NAMED_ENTRY_WEIGHT = 0.05
"""How much a passage that holds the entry of a setting, a function or an option the
question names ("checkpoint_timeout (integer)", then what it sets; Flask's
"PERMANENT_SESSION_LIFETIME¶", then its default) ranks above other files' passages, added
to the order, not to relevance (the cut is unchanged): a guide that uses the name as often
("wal-configuration.html" for "What is the default checkpoint_timeout?") comes after it
when their relevance is within this. On the dev split of ``benchmarks/data/pgdocs``: top-1
0.704 -> 0.711, the answer in the first quote 0.486 -> 0.500 (0.1: top-1 0.704, 0.3: 0.690,
the pages that define a name the question only mentions coming first)."""
TITLE_HELD = 0.6
"""The share of a question's weight its words of a title must hold for the question to
be about what the title names: "What does the ANALYZE command do?" (0.63 in SQLite's
manual: "command" is a common word) is about ``ANALYZE``; "What does git bisect reset
do?" (0.58) asks about a part of ``git-bisect``."""
INTRO_WEIGHT = 1.0
"""How much the first passage of a file whose title the question spells whole ranks above
the file's other passages when the question asks what the thing is or does ("What does
VACUUM do?" of the page titled "VACUUM"): a page's introduction says what its title is."""
HEADED_WEIGHT = 0.03
"""How much a passage whose headings or labels hold the question's terms ("checkpoint_timeout
(integer)", "-R", "PERMISSIVE") ranks above the other passages of its file: the share of
the question's weight they hold, times this. It only reorders a file's passages among the
places the file holds (:func:`_headed_first`): the files' order is relevance's and the
title's."""


@dataclass(frozen=True, slots=True)
class Passage:
    """A retrieved passage; ``hits`` are the spans of ``text`` that matched the query.

    ``score`` is its bm25 (lower is better; 0 for a passage found by meaning alone);
    ``relevance`` from 0 to 1 how well it answers the question (:func:`relevance_of`;
    1.0 when it was not computed), from its ``lexical`` coverage of the question and its
    ``dense`` cosine similarity to it (None where that half did not score it).
    ``locations`` say where its text is in the file (:mod:`.locations`; a quote's:
    :func:`~.locations.quote_location`).
    """

    file_id: str
    filename: str
    ord: int
    start: int
    text: str
    score: float
    hits: tuple[tuple[int, int], ...] = ()
    relevance: float = 1.0
    lexical: float | None = None
    dense: float | None = None
    locations: tuple[Mark, ...] = ()


@dataclass(frozen=True, slots=True)
class Query:
    """What is searched: distinct lowercased terms and their weights, question's first,
    and the text whose vector the dense half compares (a follow-up's with its context)."""

    terms: tuple[str, ...] = ()
    weights: tuple[float, ...] = ()
    follow_up: bool = False
    text: str = ""
    names: frozenset[str] = frozenset()
    roles: frozenset[str] = frozenset()
    """Names written as short acronyms ("CFO", "CEO", "SLA") or periods ("Q1"): roles,
    kinds of things and times that a file need not spell out, not a subject the files
    must know."""
    options: frozenset[str] = frozenset()
    """The long options the question spells (``--single-transaction``)."""
    flags: frozenset[str] = frozenset()
    """The short options it spells (``-x``), as written."""
    phrases: frozenset[tuple[str, ...]] = frozenset()
    """The names the question writes in several words (:func:`name_phrases`)."""
    describes: bool = False
    """Whether the question asks what something is or does ("What does VACUUM do?")."""
    shape: bool = False
    """Whether it asks about a table's rows or columns (:func:`~.tables.asks_shape`)."""
    computing: frozenset[str] = frozenset()
    """The words that ask for a computation over a table (:func:`~.tables.computing_words`)."""
    calls: frozenset[str] = frozenset()
    """The name in code it asks what it is or does ("What does shutil.rmtree do?",
    :func:`~.terms.calls_in`)."""
    parameters: frozenset[str] = frozenset()
    """The parameters it asks about ("the ddof parameter", :func:`~.terms.parameters_in`)."""
    table: bool = False
    """Whether it points at a table without naming its file ("the table", "the data":
    :func:`~.tables.names_the_table`)."""
    tallies: bool = False
    """Whether it asks for a value computed over a table's rows ("How many victims were
    female?", :func:`~.tables.asks_computation`)."""
    which_option: bool = False
    """Whether it asks which option does something (:func:`~.quotes.asks_option`)."""
    headed: frozenset[str] = frozenset()
    """The names it writes as a manual heads their entries (:func:`~.terms.heading_names`)."""
    called: frozenset[str] = frozenset()
    """The words it writes as calls ("head()"), lowercased: found whole, as identifiers
    are ("headings" is no ``head``)."""
    asked: frozenset[str] = frozenset()
    """The words of the thing it asks for (:func:`~.terms.asked_words`): one that no file
    says is told with the nearest passages (:attr:`Retrieval.unknown_said`)."""


@dataclass(frozen=True, slots=True)
class Retrieval:
    """What retrieval found for a request: the question and its relevant passages."""

    question: str
    terms: tuple[str, ...] = ()
    passages: tuple[Passage, ...] = field(default_factory=tuple)
    below: tuple[Passage, ...] = ()
    """The passages ranked after ``passages`` within ``top_k`` that miss the relevance
    cut: not given to the model; ``POST /files/search`` shows them uncited."""
    weights: tuple[float, ...] = ()
    """Each term's share of the question (its weight x idf in the workspace)."""
    searched: bool = False
    """Whether the workspace had files to search (an answer without passages then means
    that none was relevant, not that there was nothing to look in)."""
    unknown: tuple[str, ...] = ()
    """The names the question writes that no file says (:attr:`Ranking.unknown`)."""
    unsaid: tuple[str, ...] = ()
    """The words of the thing it asks for that no file says (:attr:`Ranking.unsaid`)."""
    tables: tuple[Passage, ...] = ()
    """The other passages of the tables among ``passages`` (:func:`_rest_of_tables`), when
    the question (or the turns a follow-up continues) asks for a computation: the local
    engine computes over a table's rows, not over those that matched; never given to a
    model."""

    @property
    def term_weights(self) -> dict[str, float]:
        """Each term's share of the question, normalized to sum to 1 (1 each without idf)."""
        shares = self.weights or (1.0,) * len(self.terms)
        total = sum(shares) or 1.0
        return {t: w / total for t, w in zip(self.terms, shares, strict=True)}

    @property
    def unknown_said(self) -> str:
        """The names of the question, and the words of what it asks for, that no file
        says, as it writes them, in a sentence ("No file mentions "Marseille"."): an answer
        without passages ends with it, one with passages leads with it (they are the
        nearest, not the answer): what to check, or to spell otherwise; "" when there are
        none."""
        said = [_as_written(self.question, word) for word in (*self.unknown, *self.unsaid)]
        names = " or ".join(f'"{name}"' for name in dict.fromkeys(said))
        return f"No file mentions {names}." if names else ""

    @property
    def passage_tokens(self) -> int:
        return count_texts(p.text for p in self.passages)


def _user_texts(messages: Sequence[ChatMessage]) -> list[str]:
    return [m.text() for m in messages if m.role == "user" and m.text().strip()]


def _searched_text(messages: Sequence[ChatMessage]) -> str:
    """What retrieval searches for: the question (:func:`chatspace.types.question_of`),
    else, in a request without one (a system message alone), the last message with text."""
    question = question_of(messages)
    if question is not None:
        return question
    return next((m.text() for m in reversed(messages) if m.text().strip()), "")


def _as_written(question: str, term: str) -> str:
    """``term`` as ``question`` writes it ("Australia" of "australia")."""
    found = re.search(rf"(?<!\w){re.escape(term)}(?!\w)", question, re.I)
    return found.group() if found else term


def names_in(question: str) -> frozenset[str]:
    """The search terms ``question`` writes as names: capitalized inside a sentence
    ("the capital of *Australia*", "the *NPS* of *Nice*") or called ("dplyr's
    *mutate()*"), lowercased; not a month's or a day's (:data:`~.terms.CALENDAR`)."""
    names = {m.group().lower() for m in WORD.finditer(question) if _is_name(question, m)}
    return frozenset(names) & frozenset(search_terms(question)) - CALENDAR


_CALLED = re.compile(r"(\w+)\(\)")
"""A word written as a function's, followed by "()"."""


_WORD_APART = re.compile(r"[^\W_]+")
"""A word without the underscores that join words (:func:`_name_words`)."""
_MIXED_CASE = re.compile(r"[a-z][A-Z]")
"""A capital after a small letter: a name, wherever it stands ("cuDF", "macOS")."""


def _is_name(question: str, match: re.Match[str]) -> bool:
    """Whether the word ``match`` of ``question`` is written as a name: capitalized, and
    not because it starts a sentence, in mixed case (:data:`_MIXED_CASE`) or as a
    function's (:data:`_CALLED`)."""
    if _CALLED.match(question, match.start()) or _MIXED_CASE.search(match.group()):
        return True
    return match.group()[0].isupper() and not _begins_sentence(question, match.start())


def name_phrases(question: str) -> frozenset[tuple[str, ...]]:
    """The names of ``question`` written in several capitalized words in a row, inside a
    sentence, one of them in capitals ("the *Microsoft SQL Server*", "*REFRESH MATERIALIZED
    VIEW CONCURRENTLY*"), lowercased: a product's or a command's name, which a file that
    knows the thing spells together. Not "the *Acme Contract*": a document's name that a
    user capitalizes, and the file words its own way ("this contract between Acme GmbH").
    None in a question written as a title (every word of more than three letters
    capitalized), nor short acronyms in a row ("its *MIME XML* file", "a *REST API*"): like
    a role's ("CFO"), each says what kind of thing it is, and a file writes them apart
    ("the XML file ... MIME types"). An acronym's plural names things counted, not one
    thing ("how many *Q400 PIREPs*": pilot reports of the Q400), a period says when
    ("the *Q2 PIREP* table") and a letter alone a grade ("a category *C MEL* item"): none
    is in a name. At most :data:`MAX_PHRASES` names of at most
    :data:`PHRASE_WORDS` words, from the question's first :data:`DENSE_CHARS` characters:
    each is looked for in every candidate, and a pasted document is no list of names."""
    question = question[:DENSE_CHARS]
    words = list(WORD.finditer(question))
    if all(w.group()[0].isupper() for w in words if len(w.group()) > 3):
        return frozenset()
    runs: list[list[str]] = [[]]
    end = 0
    for match in words:
        word = match.group()
        if not _is_name(question, match) or _NO_NAME.fullmatch(word):
            runs.append([])
        elif runs[-1] and question[end : match.start()].isspace():
            runs[-1].append(word)
        else:  # "Server's", "CFO, CEO": a run ends at anything but blanks
            runs.append([word])
        end = match.end()
    names = [
        tuple(w.lower() for w in run)
        for run in runs
        if 2 <= len(run) <= PHRASE_WORDS
        and any(len(w) > 1 and w.isupper() for w in run)
        and not all(_ACRONYM.fullmatch(w) for w in run)
    ]
    return frozenset(names[:MAX_PHRASES])


def _begins_sentence(text: str, at: int) -> bool:
    """Whether the word at ``at`` starts a sentence: only blanks, or nothing, lie between
    it and the end of the previous one. Looks back over the blanks only, so that scanning
    a long question stays linear."""
    i = at - 1
    while i >= 0 and text[i].isspace():
        i -= 1
    return i < 0 or text[i] in _SENTENCE_ENDS


def is_follow_up(question: str) -> bool:
    """Whether ``question`` continues the conversation rather than standing on its own:
    it starts with a connective ("And in Nice?", "What about Q4?"), or it points back
    with a pronoun ("Who owns it?", "Who works there?", not "How many are there?") and
    has at most three content words."""
    if _CONTINUES.search(question):
        return True
    points_back = _POINTS_BACK.search(_EXISTS.sub(" ", question))
    return bool(points_back) and len(search_terms(question)) <= _FEW_TERMS


def without_instructions(question: str) -> str:
    """``question`` less the sentences that tell a model how to answer rather than what
    ("Produce output in markdown format only.", "You are a helpful assistant."), as tools
    such as jupyter-ai wrap them around the user's words; the question itself when
    nothing else is left."""
    kept = [m.group() for m in _SENTENCE.finditer(question) if not _INSTRUCTION.search(m.group())]
    left = " ".join(" ".join(kept).split())
    return left if search_terms(left) else question


def shaping_words(question: str) -> frozenset[str]:
    """The words of ``question`` that shape it rather than say what it is about, left
    out of the search: "many", "much", "often", and "long" with the verb that ends a
    "how long" question ("How long did the outage last?" searches "outage")."""
    words = _QUESTION_WORDS | {m.group(1).lower() for m in ASKS_EFFECT.finditer(question)}
    if not _HOW_LONG.search(question):
        return words
    verb = _DURATION_VERB.search(question)
    return words | {"long"} | ({verb.group(1).lower()} if verb else set())


def query_of(messages: Sequence[ChatMessage], *, context: bool = True) -> Query:
    """The terms to search for: the question's (less words like "many" that only shape
    it, and less the instructions a tool wraps around it), and for a follow-up those of
    the :data:`CONTEXT_TURNS` user turns before it at :data:`CONTEXT_WEIGHT`."""
    question = without_instructions(_searched_text(messages))
    shaping = shaping_words(question)
    terms = dict.fromkeys((t for t in search_terms(question) if t not in shaping), 1.0)
    earlier = _user_texts(messages)[:-1]
    follow_up = context and bool(earlier) and is_follow_up(question)
    text = question[:DENSE_CHARS]
    if follow_up:
        text = "\n".join(t[:DENSE_CHARS] for t in [*earlier[-CONTEXT_TURNS:], question])
        for turn in reversed(earlier[-CONTEXT_TURNS:]):
            shaping = shaping_words(turn)
            for term in search_terms(turn):
                if term in shaping:
                    continue
                if len(terms) == MAX_TERMS:
                    break
                terms.setdefault(term, CONTEXT_WEIGHT)
    names = names_in(question)
    roles = frozenset(m.lower() for m in _ACRONYM.findall(question)) & names
    options = options_in(question)
    return Query(
        tuple(terms),
        tuple(terms.values()),
        follow_up,
        text,
        names,
        roles,
        options,
        flags_in(question),
        name_phrases(question),
        bool(_ASKS_WHAT.match(question)),
        asks_shape(question),
        computing_words(question),
        calls_in(question),
        parameters_in(question),
        names_the_table(question),
        asks_computation(question),
        asks_option(question),
        heading_names(question),
        frozenset(m.group(1).lower() for m in _CALLED.finditer(question)),
        asked_words(question[:DENSE_CHARS]) - computing_words(question),
    )


def _idf(n: int, df: int) -> float:
    """bm25's inverse document frequency (never below a small positive floor), as if the
    workspace had at least :data:`MIN_PASSAGES` passages: in a workspace of three files
    every word they use would otherwise weigh next to nothing beside one they do not, and
    "Which products sell in Lyon?" over ``city,product`` rows would hang on "sell"."""
    n = max(n, MIN_PASSAGES)
    return max(math.log(1 + (n - df + 0.5) / (df + 0.5)), 1e-6)


@dataclass(frozen=True, slots=True)
class _Weights:
    """Each query term's share of the question (its weight x idf in the workspace) and
    how many passages of the workspace match it."""

    shares: list[float]
    counts: list[int]
    passages: int | None = None
    """How many passages the workspace has (None: not counted, as without terms)."""


def _weights(conn: sa.Connection, text: FullText, where: Workspace, query: Query) -> _Weights:
    n, counts = text.counts(conn, where=where, terms=query.terms)
    shares = [w * _idf(n, df) for w, df in zip(query.weights, counts, strict=True)]
    return _Weights(shares, counts, n)


RARE_NAME_SHARE = 0.2
"""A name the question writes ("the capital of *Australia*", "a plan of an *UPDATE*")
that at most this share of the workspace's passages hold is what the question is about: a
passage without it (in its text or its file's name) is not relevant, whatever else it
shares with the question. A name more passages hold is the workspace's own subject
("PostgreSQL" in its manual: 23% of the passages), which a passage that answers need not
repeat. PostgreSQL's manual, dev split: the passage that answers holds every name of its
question in 48 of 49 questions, the miss being "PostgreSQL" (the test split: 28 of 29,
the same). On dev, 0.01 to 0.1 change nothing, 0.2 quotes the answer of one question
more, 0.3 of two (it requires "PostgreSQL", and on the test split loses the question
whose answer does not say it): 0.2, the largest share below the subject's."""

SEARCHED_POSTINGS = 20_000
"""How many matches (passages x terms) the candidates query may score: a workspace
whose terms together match no more is searched with every term, any of them; past it,
the commonest terms are searched only together (:func:`searched_terms`)."""


@dataclass(frozen=True, slots=True)
class Searched:
    """Which terms find the candidates: a passage holding any of ``alone``, or all of
    ``together`` (all the terms rank and mark the candidates found)."""

    alone: tuple[str, ...]
    together: tuple[str, ...] = ()


def searched_terms(terms: Sequence[str], counts: Sequence[int], passages: int) -> Searched | None:
    """The terms the candidates query searches, when not all of them (None: any term).

    Taken rarest first (ties in the question's order), the terms are searched alone
    while their matches add up to at most :data:`SEARCHED_POSTINGS`; the commoner ones
    ("say", "table" in a large manual) are searched only all together, and only when so
    few passages would hold them all (counted as if the words fell independently) that
    scoring those stays within the bound too. A question whose every term is that common
    is searched for the passages holding all of them. Nothing is left out while all the
    matches fit, so a workspace of fewer passages than that, or a question of rare
    words, is searched as before."""
    if sum(counts) <= SEARCHED_POSTINGS:
        return None
    total = 0
    common = set()
    for i in sorted(range(len(terms)), key=lambda i: counts[i]):
        total += counts[i]
        if total > SEARCHED_POSTINGS:
            common.add(terms[i])
    alone = tuple(t for t in terms if t not in common)
    together = tuple(t for t in terms if t in common)
    if not alone:
        return Searched((), together)
    n = max(passages, 1)
    holding_all = n * math.prod(
        min(df, n) / n for t, df in zip(terms, counts, strict=True) if t in common
    )
    if len(together) < 2 or holding_all > SEARCHED_POSTINGS:
        return Searched(alone)
    return Searched(alone, together)


@dataclass(frozen=True, slots=True)
class _Lexical:
    coverage: dict[int, float]
    unknown: tuple[str, ...]
    """The names the question writes that no passage of the workspace, nor a file's name,
    contains."""
    covers: dict[int, list[tuple[frozenset[str], float]]] = field(default_factory=dict)
    """For each candidate, the stems and the share of the question of each term it covers."""
    lacking: frozenset[int] = frozenset()
    """The candidates without a rare name of the question (:data:`RARE_NAME_SHARE`)."""
    stems: Mapping[str, Sequence[str]] = field(default_factory=dict)
    """The stems of the candidates' matched tokens."""
    unsaid: tuple[str, ...] = ()
    """The words of the thing the question asks for (:attr:`Query.asked`) that no passage
    of the workspace, nor a file's name, contains: "What *nitrate* concentration did the
    samples show?" of files that never say "nitrate"."""

    def held_in(self, pid: int, p: Passage, spans: Sequence[tuple[int, int]]) -> float:
        """The share of the question's weight that candidate ``pid`` holds within ``spans``
        of its text (its headings and labels; what its options do): computed for the few
        candidates whose order it may change, as it reads the passage's sentences."""
        tokens = [p.text[a:b] for a, b in p.hits if any(s <= a and b <= e for s, e in spans)]
        held = {s for t in tokens for s in self.stems.get(t, ())}
        return sum(share for stems, share in self.covers.get(pid, ()) if stems <= held)


def _lexical(
    conn: sa.Connection,
    text: FullText,
    query: Query,
    weights: _Weights,
    rows: Sequence[Hit],
    where: Workspace,
) -> _Lexical:
    """Each candidate's coverage: the weight of the query terms among the tokens the index
    matched in it (its ``hits``, stemmed as the index stems them) or in the name of its
    file ("stock in Genoa" and ``stock-genoa.csv``). A term the index drops altogether
    (one of PostgreSQL's English stop words that is not one of ours) weighs nothing. A
    table's rows (a table file's, or a document's: :func:`~.tables.block_header`) are
    judged without the words that ask for a computation over them (:attr:`Query.computing`:
    "What *percentage* of flowers are virginica?", "the biggest *overspend vs* budget"): no
    cell says them. A month is held where it is cut as tables cut it ("Mar")."""
    tokens = {pid: [p.text[a:b] for a, b in p.hits] for pid, p in rows}
    stems = text.stems(conn, [*query.terms, *(t for found in tokens.values() for t in found)])
    # a month as tables and dates cut it ("G-TBRC's hours in *March*": its column ``Mar``)
    months = [t for t in query.terms if t in MONTHS and len(t) > 3]
    cut = {pid: {t for t in months if _cut_month(t).search(p.text)} for pid, p in rows}
    matched = {pid: {s for t in found for s in stems[t]} for pid, found in tokens.items()}
    # two words a file's name writes as one ("tech log": ``techlog_defects.tsv``)
    pairs = [(a, b) for a, b in pairwise(query.terms) if a.isalpha() and b.isalpha()]
    # and what kind of file it is ("the AR ageing *notebook*", "the board *deck*")
    named = {pid: _name_words(p.filename) | _kind_words(p.filename) for pid, p in rows}
    named = {
        pid: words | {w for a, b in pairs if a + b in words for w in (a, b)}
        for pid, words in named.items()
    }
    covered: dict[int, float] = dict.fromkeys(tokens, 0.0)
    covers: dict[int, list[tuple[frozenset[str], float]]] = {pid: [] for pid in tokens}
    total = computing = 0.0
    # (only a question that asks for a computation reads them so)
    table = {pid for pid, p in rows if query.computing and _tabular(p)}
    unknown: list[str] = []
    unsaid: list[str] = []
    lacking: set[int] = set()
    rare = RARE_NAME_SHARE * (weights.passages or 0)
    for term, share, df in zip(query.terms, weights.shares, weights.counts, strict=True):
        term_stems = set(stems[term])
        if not term_stems:
            continue
        identifier = is_identifier(term) or term in query.called
        # an identifier is known only whole: "on_error" is not in "on error", nor a name
        # called, "head()", in "headings"
        whole = {pid: not identifier or holds_identifier(p.text, term) for pid, p in rows}
        nowhere = df == 0 or not any(whole.values())
        if nowhere and (term in query.names - query.roles or identifier):
            unknown += [term] if _no_file_named(conn, where, term) else []
        elif df == 0 and term in query.asked and term not in _KINDS:
            unsaid += [term] if _no_file_named(conn, where, term) else []
        total += share
        asks = term in query.computing
        computing += share if asks else 0.0
        required = 0 < df <= rare and term in query.names - query.roles
        for pid in covered:
            if asks and pid in table:
                continue
            found = term_stems <= matched[pid] or term in named[pid]
            found = found or term in cut[pid]
            if found and (whole[pid] or term in named[pid]):
                covered[pid] += share
                covers[pid].append((frozenset(term_stems), share))
            elif required:
                lacking.add(pid)
    if not total:
        return _Lexical(dict.fromkeys(covered, 0.0), tuple(unknown), unsaid=tuple(unsaid))
    rows_only = total - computing
    of = {pid: rows_only if rows_only and pid in table else total for pid in covered}
    coverage = {pid: c / of[pid] for pid, c in covered.items()}
    shares = {pid: [(s, share / of[pid]) for s, share in found] for pid, found in covers.items()}
    return _Lexical(coverage, tuple(unknown), shares, frozenset(lacking), stems, tuple(unsaid))


@cache
def _cut_month(month: str) -> re.Pattern[str]:
    """A month as tables write it: cut ("Mar"), or the month of an ISO date's day
    ("2025-03-14", "2025-03-14T09:00")."""
    return re.compile(rf"\b{month_cut(month)}\b|\b\d{{4}}-{MONTHS[month]:02d}-\d{{2}}(?!\d)", re.I)


def _names_a_column(p: Passage, terms: Sequence[str]) -> bool:
    """Whether the question matched a word of the header of ``p``, a block of a table's
    rows, or says a word one of the header's starts ("temperature": ``temp_max``,
    :func:`~.tables.abbreviates`): in a search narrowed to a few files (``%%chat --df``, a
    filter part), "What is the highest AAPL price?" is about the table with an ``AAPL``
    column, though no cell says "price"."""
    top = header_start(p.text, p.locations)
    if top is None:
        return False
    end = p.text.find("\n", top)
    if any(top <= a and b <= end for a, b in p.hits):
        return True
    header = name_words(p.text[top:end])
    return any(w == t or abbreviates(w, t) for w in header for t in terms)


def _rows_of_a_table(p: Passage) -> bool:
    """Whether ``p`` is a block of a table's rows (a sheet, a CSV, a Parquet file): its
    locations count rows (:mod:`.tables`)."""
    return header_start(p.text, p.locations) is not None


def _tabular(p: Passage) -> bool:
    """Whether ``p`` is a block of a table's rows, a sheet's or a document's."""
    return _rows_of_a_table(p) or block_header(p.text) is not None


def _tables_meant(
    conn: sa.Connection, where: Workspace, rows: Sequence[Hit], query: Query
) -> frozenset[str]:
    """The table the question asks about as if narrowed to it (its file's id; none when
    it does not say): the only one of the candidates' tables whose file's name it says
    ("the *penguins* table", "in *Seattle*": ``seattle-weather.xlsx``), or the only table
    among them when it points at a table ("How many rows does *the table* have?") or the
    workspace has no other file."""
    tables = {p.file_id: p.filename for _, p in rows if _rows_of_a_table(p)}
    said = set(query.terms)
    named = [f for f, name in tables.items() if said & _name_words(name)]
    if len(named) == 1:
        return frozenset(named)
    if len(tables) != 1:
        return frozenset()
    if query.table or len(conn.execute(_any_file(where).limit(2)).all()) == 1:
        return frozenset(tables)
    return frozenset()


def _unknown_spelling(query: Query, rows: Sequence[Hit]) -> bool:
    """Whether the question spells a long option that no candidate spells whole
    ("pg_dump's ``--parallel-restore-threads``": the index found "parallel", "restore"
    and "threads", each elsewhere), or a name of several words that no candidate, nor its
    file's name, spells together ("the default port of *Microsoft SQL Server*": a manual
    knows "Microsoft Windows" and "SQL server"); a file's name holds it when it holds its
    words, in any order ("the Q3 QBR" and ``QBR_Q3_2026.docx``). An acronym that ends it
    says what kind of thing it is (:func:`_without_kind`). The candidates hold the
    passages with its rare words, so a file that documents it is among them."""
    if any(not any(holds_option(p.text, o) for _, p in rows) for o in query.options):
        return True
    return any(
        not any(
            holds_phrase(p.text, words) or set(words) <= _name_words(p.filename) for _, p in rows
        )
        for words in map(partial(_without_kind, query.roles), query.phrases)
    )


def _without_kind(roles: frozenset[str], words: tuple[str, ...]) -> tuple[str, ...]:
    """A name of several words without the acronym that ends it, when two words are left
    ("Milan North DC": "Milan North", the distribution centre; "SQL Server" as it is), or
    that leads a code ("DMA C204": the code, which a sheet writes under its column ``DMA``
    and a report as "DMA: C204"; "AWS S3" as it is)."""
    if len(words) == 2 and words[0] in roles and _CODE.fullmatch(words[1]):
        return words[1:]
    return words[:-1] if len(words) > 2 and words[-1] in roles else words


_CODE = re.compile(r"[a-z]{0,3}-?\d{2,}[\w-]*")
"""A code: a few letters, then two digits or more ("c204", "po-4471")."""


_KINDS = {
    "notebook": frozenset({".ipynb"}),
    "deck": frozenset({".pptx"}),
    "slides": frozenset({".pptx"}),
    "presentation": frozenset({".pptx"}),
    "workbook": frozenset({".xlsx", ".xlsm", ".xls", ".ods"}),
    "spreadsheet": frozenset({".xlsx", ".xlsm", ".xls", ".ods", ".csv", ".tsv"}),
    "email": frozenset({".eml"}),
}
"""The words a user names a file by its kind with, and the extensions of that kind."""


def _kind_words(filename: str) -> frozenset[str]:
    """The words that name the kind of ``filename`` (:data:`_KINDS`): "In the *notebook's*
    per-DMA output" is about ``night_use_pilot.ipynb``, whose name does not say so."""
    suffix = PurePath(filename).suffix.lower()
    return frozenset(word for word, suffixes in _KINDS.items() if suffix in suffixes)


def _name_words(filename: str) -> frozenset[str]:
    """The words of a file's name, lowercased (``stock-genoa.csv``: stock,
    genoa, csv): a question that says one of them may be about that file. Words joined by
    underscores are words whole and apart (``QBR_Q3_2026.docx``: "q3", as "qbr_q3_2026"
    it was no word a question says, and every passage of a Word table lacked the rare
    name "Q3" of "Cobalt Switch revenue in the East region in Q3?")."""
    name = filename.lower()
    return frozenset(WORD.findall(name)) | frozenset(_WORD_APART.findall(name))


def _names_a_file(conn: sa.Connection, where: Workspace, rows: Sequence[Hit], query: Query) -> bool:
    """Whether a name of the question is in the name of a candidate's file ("the *Acme*
    contract" and ``acme-contract.docx``), and in those of at most :data:`NAMING_FILES`
    files of the workspace: the question is about that file, whatever else it names. A
    name many files share ("Query" in a manual's ``runtime-config-query.html``) names
    none of them."""
    named = {w for _, p in rows for w in _name_words(p.filename)}
    return bool(_naming_few_files(conn, where, (query.names - query.roles) & named))


def _in_named_files(
    conn: sa.Connection,
    text: FullText,
    where: Workspace,
    query: Query,
    weights: _Weights,
    searched: Searched | None,
    rows: Sequence[Hit],
    scope: Scope,
    limit: int,
) -> list[Hit]:
    """The best passages for ``query`` of the candidates' files whose name holds one of
    its terms that at most :data:`NAMING_FILES` files' names hold, not among ``rows``:
    "What does the -k switch of ab do?" names ``ab.html``, whose entry "-k", then "Enable
    the HTTP KeepAlive feature", never says "ab" and was not among the 50 passages that
    say "k" most. The name's word counts as covered in every passage of the file
    (:func:`_lexical`); this gives the file's passages the chance to show it."""
    terms = set(query.terms)
    words = {p.file_id: _name_words(p.filename) & terms for _, p in rows}
    naming = {t for found in words.values() for t in found}
    few = _naming_few_files(conn, where, naming)
    files = frozenset(f for f, found in words.items() if found & few)
    if scope.file_ids is not None:
        files &= scope.file_ids
    if not files:
        return []
    seen = {pid for pid, _ in rows}
    found = text.candidates(
        conn,
        where=where,
        terms=query.terms,
        weights=weights.shares,
        scope=replace(scope, file_ids=files),
        limit=limit,
        searched=searched,
    )
    return [(pid, p) for pid, p in found if pid not in seen]


def _any_file(where: Workspace) -> sa.Select[tuple[int]]:
    files = schema.files
    return sa.select(1).where(files.c.org_id == where[0], files.c.workspace_id == where[1])


def _has_files(conn: sa.Connection, where: Workspace) -> bool:
    return conn.execute(_any_file(where).limit(1)).first() is not None


def _no_file_named(conn: sa.Connection, where: Workspace, term: str) -> bool:
    """Whether no file of the workspace ``where`` has ``term`` in its name."""
    named = sa.func.lower(schema.files.c.filename).contains(term, autoescape=True)
    return conn.execute(_any_file(where).where(named).limit(1)).first() is None


def _naming_few_files(
    conn: sa.Connection, where: Workspace, terms: set[str] | frozenset[str]
) -> set[str]:
    """Those of ``terms`` that at most :data:`NAMING_FILES` files of the workspace
    ``where`` have in their name, counted in one pass over its files."""
    if not terms:
        return set()
    ordered = sorted(terms)
    name = sa.func.lower(schema.files.c.filename)
    counts = [
        sa.func.sum(sa.case((name.contains(t, autoescape=True), 1), else_=0)) for t in ordered
    ]
    files = schema.files.c
    found = conn.execute(
        sa.select(*counts).where(files.org_id == where[0], files.workspace_id == where[1])
    ).one()
    return {t for t, n in zip(ordered, found, strict=True) if (n or 0) <= NAMING_FILES}


class _Titles(NamedTuple):
    shares: dict[str, float]
    """Each file's share of its title's words that the question holds."""
    about: frozenset[str]
    """The files whose title the question spells whole, its words :data:`TITLE_HELD` of
    the question's weight: what it asks about is what the title names ("What does VACUUM
    do?")."""


def _titled(
    conn: sa.Connection, text: FullText, query: Query, weights: Sequence[float], file_ids: set[str]
) -> _Titles:
    """Each file's share of its title's words that the question holds ("What lock does
    VACUUM FULL take?" spells out all of ``VACUUM``'s title and one of "Routine
    Vacuuming"'s), by the index's stems, and those whose title is what it asks about;
    files without a title are left out."""
    if not query.terms:
        return _Titles({}, frozenset())
    passages = schema.passages
    first = sa.select(passages.c.file_id, sa.func.substr(passages.c.text, 1, TITLE_CHARS + 1))
    # one parameter for the files, not one each (a hundred cost PostgreSQL ~3 ms more)
    of_files = sa.text(f"file_id {in_json_array(conn, 'files')}")
    of_files = of_files.bindparams(files=json.dumps(sorted(file_ids)))
    lines = conn.execute(first.where(of_files, passages.c.ord == 0))
    titles = {}
    for file_id, head in lines:
        line, _, rest = head.partition("\n")
        words = [w for w in search_terms(line) if not w.isdigit()]
        if words and (rest or len(head) <= TITLE_CHARS):
            titles[file_id] = words
    if not titles:
        return _Titles({}, frozenset())
    stems = text.stems(conn, [*query.terms, *(w for words in titles.values() for w in words)])
    asked = {s for t in query.terms for s in stems[t]}
    weighed = list(zip(query.terms, weights, strict=True))
    total = sum(weights)
    shares, about = {}, set()
    for file_id, words in titles.items():
        known = [w for w in words if stems[w]]
        if known:
            shares[file_id] = sum(set(stems[w]) <= asked for w in known) / len(known)
            title = {s for w in known for s in stems[w]}
            held = sum(w for t, w in weighed if set(stems[t]) <= title)
            if shares[file_id] >= 1.0 and held >= TITLE_HELD * total:
                about.add(file_id)
    return _Titles(shares, frozenset(about))


class _Ranked(NamedTuple):
    """A candidate in the order of :func:`rank`: its first four fields are the sort key."""

    below: bool
    """Under the relevance cut: those above it come first, whatever the rest says."""
    order: float
    """Minus relevance plus the title's share (:func:`_titled`)."""
    bm25: float
    pid: int
    passage: Passage
    relevance: float
    coverage: float | None
    similarity: float | None
    entry: bool
    """Whether it holds the entry of a name the question asks about (:func:`_entry_names`)."""


class _Entries(NamedTuple):
    """The names whose entry a passage may hold (:func:`_entry_names`)."""

    options: frozenset[str] = frozenset()
    flags: frozenset[str] = frozenset()
    calls: frozenset[str] = frozenset()
    headed: frozenset[str] = frozenset()


def _headed_first(
    ranked: list[_Ranked], top_k: int, lexical: _Lexical, query: Query, intro: frozenset[str]
) -> list[_Ranked]:
    """``ranked`` with the passages of each file among the first ``top_k`` reordered within
    the places the file holds, a passage whose headings hold the question's terms higher
    by :data:`HEADED_WEIGHT`, one with the entry of an option it names by
    :data:`ENTRY_WEIGHT`, the first of a file in ``intro`` (whose title is what the
    question asks about) by :data:`INTRO_WEIGHT` (on its side of the cut): a manual's
    entry for ``checkpoint_timeout`` or ``--prune`` before the passages of the same page
    that only mention it, and the introduction of ``VACUUM``'s page before those that say
    what else it does, in what a model is given and quoted."""
    places: dict[str, list[int]] = {}
    for i, r in enumerate(ranked):
        places.setdefault(r.passage.file_id, []).append(i)
    out = list(ranked)
    for file_id in {r.passage.file_id for r in ranked[:top_k]}:
        held = places[file_id]
        if len(held) < 2:
            continue
        mine = [ranked[i] for i in held]
        bonus = {
            r.pid: HEADED_WEIGHT * lexical.held_in(r.pid, r.passage, heading_spans(r.passage.text))
            + ENTRY_WEIGHT
            * (
                query.which_option
                and lexical.held_in(r.pid, r.passage, option_descriptions(r.passage.text))
            )
            + ENTRY_WEIGHT * r.entry * (1.0 if r.coverage is None else r.coverage)
            + ENTRY_WEIGHT * holds_parameter(r.passage.text, query.parameters)
            + INTRO_WEIGHT * (file_id in intro and r.passage.ord == 0)
            for r in mine
        }
        mine.sort(key=lambda r: (r.below, r.order - bonus[r.pid], r.bm25, r.pid))
        for i, r in zip(held, mine, strict=True):
            out[i] = r
    return out


def _entry_names(passage: Passage, query: Query) -> _Entries:
    """The names (long, short, in code, heading their entry) whose entry in ``passage``
    says what the question asks: the options it spells, else the settings, functions or
    columns it names ("What is the default value of work_mem?": the entry "work_mem
    (integer)", then what it sets and its default) and those it writes in CamelCase or in
    brackets ("ExpiresActive Directive ¶", then its box and what it does), less those the file is
    named after (``pg_restore`` of ``app-pgrestore.html``: its synopsis, not an entry),
    and the name in code it asks about ("What does shutil.rmtree do?": the entry
    "shutil.rmtree(path, ...)")."""
    if query.options or query.flags:
        return _Entries(query.options, query.flags)
    names = frozenset(t for t in query.terms if is_identifier(t))
    headed = query.headed
    if names or headed:
        filed = named_in_file(passage, [names | headed])
        names, headed = names - filed, headed - filed
    return _Entries(names, calls=query.calls, headed=headed)


def relevance_of(coverage: float, cosine: float | None, lexical_share: float) -> float:
    """How relevant a passage is, from 0 to 1: its lexical coverage of the question, and
    (with dense vectors) its cosine similarity to it, in the proportion ``lexical_share``
    (the dense model's)."""
    if cosine is None:
        return coverage
    return lexical_share * coverage + (1 - lexical_share) * max(cosine, 0.0)


@dataclass(frozen=True, slots=True)
class Ranking:
    """The best ``top_k`` passages for a query, best first, whether or not they pass the
    relevance cut: ``passages[:cited]`` are those that do (what :func:`search` returns)."""

    passages: tuple[Passage, ...] = ()
    cited: int = 0
    unknown: tuple[str, ...] = ()
    """The names the question writes that no file says (:attr:`_Lexical.unknown`): what
    an answer without passages tells the user ("No file mentions "Marseille".")."""
    unsaid: tuple[str, ...] = ()
    """The words of what it asks for that no file says (:attr:`_Lexical.unsaid`)."""


def rank(
    conn: sa.Connection,
    *,
    org_id: str,
    workspace_id: str,
    query: Query,
    scope: Scope,
    index: PassageIndex,
    relevance: float = 0.0,
    weights: _Weights | None = None,
) -> Ranking:
    """The ``scope.top_k`` most relevant passages for ``query``, best first, and how many
    of the first reach ``relevance``: by full text alone, or with the dense similarity of
    ``index`` (``weights``: the query's, when the caller has counted them already).
    Relevance decides the order, so those below the cut can only follow those above it."""
    if scope.file_ids is not None and not scope.file_ids:
        return Ranking()
    where = (org_id, workspace_id)
    text, dense, terms = index.text, index.dense, query.terms
    if dense is None and relevance <= 0 and set(query.weights) <= {1.0}:
        found = text.candidates(
            conn, where=where, terms=terms, weights=None, scope=scope, limit=scope.top_k
        )
        return Ranking(tuple(p for _, p in found), len(found))
    pool = max(POOL, 4 * scope.top_k)
    if weights is None:
        weights = _weights(conn, text, where, query) if terms else _Weights([], [])
    if weights.passages == 0:  # a workspace without passages: no candidate query to run
        return Ranking()
    searched = searched_terms(terms, weights.counts, weights.passages or 0)
    rows = text.candidates(
        conn,
        where=where,
        terms=terms,
        weights=weights.shares,
        scope=scope,
        limit=pool,
        searched=searched,
    )
    rows += _in_named_files(conn, text, where, query, weights, searched, rows, scope, pool)
    cosine = None
    if dense is not None and query.text.strip():
        seen = [pid for pid, _ in rows]
        near = dense.nearest(
            conn, where=where, question=query.text, scope=scope, limit=pool, also=seen, terms=terms
        )
        cosine = near.cosine
        if near.passages is None:
            extra = [pid for pid in near.best if pid not in set(seen)]
            rows += text.by_id(conn, where=where, terms=terms, ids=extra)
        else:
            rows += near.passages
    if not rows:
        return Ranking()
    lexical = _lexical(conn, text, query, weights, rows, where) if terms else _Lexical({}, ())
    # a question about something the files do not know: nothing is relevant
    unknown = (
        relevance > 0
        and (bool(lexical.unknown) or _unknown_spelling(query, rows))
        and not _names_a_file(conn, where, rows, query)
    )
    titled = _titled(conn, text, query, weights.shares, {p.file_id for _, p in rows})
    narrowed = scope.file_ids is not None
    meant = _tables_meant(conn, where, rows, query)
    # the measure a superlative or a comparison names: "the coldest day" is of
    # ``temp_min``, "older than 50" of ``age``
    said = {*query.terms, *query.computing}
    naming = [*query.terms, *(m for w in said for m in MEASURES.get(w, ()))]
    share = dense.embedder.lexical_share if dense is not None else 1.0
    asked = frozenset(terms)
    ranked: list[_Ranked] = []
    for pid, p in rows:
        similarity = None if cosine is None else cosine.get(pid)
        coverage = lexical.coverage.get(pid, 0.0) if terms else None
        rel = relevance_of(coverage or 0.0, similarity, share)
        order = rel + TITLE_WEIGHT * titled.shares.get(p.file_id, 0.0)
        called = bool(query.calls) and defines_option(p.text, frozenset(), frozenset(), query.calls)
        below = rel < relevance or (relevance > 0 and pid in lexical.lacking)
        names = _entry_names(p, query)
        named = defines_option(
            p.text, names.options, names.flags, headed=names.headed
        ) or states_asked_fact(p.text, asked)
        order += CALL_WEIGHT * called + NAMED_ENTRY_WEIGHT * (named and not below)
        # narrowed to a few files (or to the table it means, :func:`_tables_meant`), a
        # question about a table's column or its shape is about that table (or computed
        # over the rows with a word of the question: "How many victims were female?")
        about = _names_a_column(p, naming) or (
            _rows_of_a_table(p) and (query.shape or (query.tallies and bool(p.hits)))
        )
        below = below and not ((narrowed or p.file_id in meant) and about)
        entry = named or (called and bool(names.calls))
        ranked.append(_Ranked(below, -order, p.score, pid, p, rel, coverage, similarity, entry))
    ranked.sort(key=lambda r: r[:4])
    # what a thing is or does, not one of its options (their entries come first)
    intro = titled.about if query.describes and not query.options | query.flags else frozenset()
    ranked = _headed_first(ranked, scope.top_k, lexical, query, intro)
    best = tuple(
        replace(
            r.passage, score=r.bm25, relevance=r.relevance, lexical=r.coverage, dense=r.similarity
        )
        for r in ranked[: scope.top_k]
    )
    cited = 0 if unknown else sum(1 for r in ranked[: scope.top_k] if not r.below)
    return Ranking(best, cited, lexical.unknown, lexical.unsaid)


def search(
    conn: sa.Connection,
    *,
    org_id: str,
    workspace_id: str,
    query: Query,
    scope: Scope,
    index: PassageIndex,
    relevance: float = 0.0,
    weights: _Weights | None = None,
) -> tuple[Passage, ...]:
    """The ``scope.top_k`` most relevant passages for ``query`` whose relevance reaches
    ``relevance``, best first (:func:`rank`, cut)."""
    found = rank(
        conn,
        org_id=org_id,
        workspace_id=workspace_id,
        query=query,
        scope=scope,
        index=index,
        relevance=relevance,
        weights=weights,
    )
    return found.passages[: found.cited]


def retrieve(
    conn: sa.Connection,
    *,
    org_id: str,
    workspace_id: str,
    messages: Sequence[ChatMessage],
    index: PassageIndex,
    relevance: float = DEFAULT_RELEVANCE,
    scope: Scope | None = None,
) -> Retrieval:
    """Check the request's filter parts (or take the ``scope`` they were resolved to),
    then find the relevant passages for its question (a filter part's ``relevance`` wins
    over the service's ``relevance``)."""
    if scope is None:
        scope = resolve_scope(conn, org_id=org_id, workspace_id=workspace_id, messages=messages)
    query = query_of(messages)
    where = (org_id, workspace_id)
    weights = _weights(conn, index.text, where, query) if query.terms else _Weights([], [])
    found = rank(
        conn,
        org_id=org_id,
        workspace_id=workspace_id,
        query=query,
        scope=scope,
        index=index,
        relevance=scope.relevance if scope.relevance is not None else relevance,
        weights=weights,
    )
    passages = found.passages[: found.cited]
    asked = _user_texts(messages)[-(CONTEXT_TURNS + 1) :] if query.follow_up else []
    question = _searched_text(messages)
    # a day's row is looked for among all of a table's ("turbidity ... on 6 Jan 2024":
    # the passages that say "Heron Point" most need not hold that day)
    computes = any(
        asks_computation(t) or asks_shape(t) or names_the_table(t) or bool(dates_in(t))
        for t in [question, *asked]
    )
    return Retrieval(
        question=question,
        terms=query.terms,
        passages=passages,
        below=found.passages[found.cited :],
        weights=tuple(weights.shares),
        searched=bool(found.passages) or _has_files(conn, where),
        unknown=found.unknown,
        unsaid=found.unsaid,
        tables=_rest_of_tables(conn, index.text, where, passages) if computes else (),
    )


def _rest_of_tables(
    conn: sa.Connection, text: FullText, where: Workspace, passages: Sequence[Passage]
) -> tuple[Passage, ...]:
    """The other passages of each table among ``passages``, in file order, of its first
    :data:`WHOLE_TABLE`: "What percentage of flowers are virginica?" matched the three
    passages of the iris data that hold one, and its share was 50 of their 73 rows, not
    of the table's 150. A table file's are its passages; a document's table's, those of
    its file that start with its header line (:func:`~.tables.block_header`): "How many
    units were sold in February?" summed the rows of the four passages of a Word report's
    table that matched "February", 31 of its 40."""
    files = {p.file_id for p in passages if _rows_of_a_table(p)}
    headers = {
        (p.file_id, header)
        for p in passages
        if p.file_id not in files and (header := block_header(p.text)) is not None
    }
    have = {(p.file_id, p.ord) for p in passages}
    table = schema.passages
    ids: list[int] = []
    listed = sa.select(table.c.id, table.c.file_id, table.c.ord).order_by(table.c.ord)
    for file_id, header in [*((f, None) for f in sorted(files)), *sorted(headers)]:
        block = listed.where(table.c.file_id == file_id)
        if header is not None:
            lead = f"{header}\n"
            block = block.where(sa.func.substr(table.c.text, 1, len(lead)) == lead)
        found = conn.execute(block.limit(WHOLE_TABLE))
        ids += [pid for pid, _, ord_ in found if (file_id, ord_) not in have]
    return tuple(p for _, p in text.by_id(conn, where=where, terms=(), ids=ids))
