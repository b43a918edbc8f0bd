"""The words of a question that are searched: content words less English stop words, and
identifiers (words joined by underscores), which must be found whole; the long options a
question spells (``--single-transaction``), which a file must spell too; and names of
several words, which a file spells together (:func:`holds_phrase`).

Both the ranking (:mod:`.search`) and the choice of a quote (:mod:`.quotes`) read a
question through these rules, so they live below both.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Sequence
from itertools import chain

__all__ = [
    "ASKS_EFFECT",
    "CALENDAR",
    "CLASSIFIER_MARK",
    "MAX_OPTIONS",
    "MAX_TERMS",
    "MAX_TERM_CHARS",
    "MONTHS",
    "MONTH_CUTS",
    "OPTION_CHARS",
    "PERMALINK",
    "WEEKDAYS",
    "WORD",
    "asked_words",
    "calls_in",
    "flags_in",
    "gives_value",
    "heading_names",
    "heads_itself",
    "holds_identifier",
    "holds_option",
    "holds_phrase",
    "is_identifier",
    "keyword_values",
    "month_cut",
    "month_number",
    "opens_entry",
    "opens_parameter",
    "options_in",
    "parameter_of",
    "parameters_in",
    "search_terms",
]

MAX_TERMS = 32
MAX_TERM_CHARS = 64
WORD = re.compile(r"\w+")
ASKS_EFFECT = re.compile(r"\bwhat\s+(happens|happened|happen)\b", re.I)
""""What happens" asks for an effect, which a file says without the word ("When enabled,
this option will pass the Host: line ..."): the verb shapes the question, not its
subject (:func:`.search.shaping_words`), and a sentence of prose answers it, not a
directive's syntax (:mod:`.quotes`)."""
_STOP_TEXT = """a about above after again all also am an and any are as at be because been before
    being below between both but by can could did do does doing down during each few for
    from further had has have having he her here hers him his how i if in into is it its
    just me more most my no nor not now of off on once only or other our ours out over own
    please same she should so some such than that the their them then there these they
    this those through to too under until up very was we were what when where which while
    who whom why will with would you your yours tell show give find know"""
_STOP_WORDS = frozenset(_STOP_TEXT.split())
_CLITICS = frozenset(("s", "t", "m", "re", "ve", "ll", "d"))
"""What follows the apostrophe of "Flask's", "don't", "I'm", "they're", "we've", "you'll",
"I'd": no content word."""
_APOSTROPHES = "'\u2019"
_MONTH_NAMES = (
    "january", "february", "march", "april", "may", "june", "july", "august", "september",
    "october", "november", "december",
)  # fmt: skip
MONTHS = {name: number for number, name in enumerate(_MONTH_NAMES, start=1)}
"""The months' names, lowercased, and their numbers."""


def month_cut(month: str) -> str:
    """A month's name as tables and people cut it: "march" is "mar" (``Mar``, "6 Mar
    2024")."""
    return month[:3]


MONTH_CUTS = {month_cut(name): number for name, number in MONTHS.items()}
"""The months' names as tables and people cut them ("Sep", "6 Jan 2024"), and their
numbers."""


def month_number(word: str) -> int | None:
    """The number of the month ``word`` names, whole or cut ("March", "Mar", "Sept");
    None for another word."""
    word = word.strip().lower()
    return MONTHS.get(word) or MONTH_CUTS.get("sep" if word == "sept" else word)


WEEKDAYS = {
    "monday": ("mon",), "tuesday": ("tue", "tues"), "wednesday": ("wed",),
    "thursday": ("thu", "thur", "thurs"), "friday": ("fri",), "saturday": ("sat",),
    "sunday": ("sun",),
}  # fmt: skip
"""The days' names, lowercased, and how tables cut them ("Sun", "Thur")."""
CALENDAR = frozenset({*MONTHS, *MONTH_CUTS, "sept", *WEEKDAYS, *chain(*WEEKDAYS.values())})
"""Words English capitalizes that name a time, not a thing: "the total volume in
*August*" is no question about something the files do not know."""
_IDENTIFIER = re.compile(r"[^\W_]_[^\W_]")
"""A word joined by an underscore (``track_plans_by_user``, ``max_query_memory``) names a
setting, a function or a column: like a capitalized name, the files must know it."""


def is_identifier(term: str) -> bool:
    """Whether ``term`` is a word joined by underscores (:data:`_IDENTIFIER`)."""
    return _IDENTIFIER.search(term) is not None


def holds_identifier(text: str, term: str) -> bool:
    """Whether ``text`` has the identifier ``term`` as a whole word: ``work_mem`` is not
    in ``maintenance_work_mem``, though the index matches both on "work" and "mem"."""
    return re.search(rf"(?<!\w){re.escape(term)}(?!\w)", text, re.I) is not None


_OPTION = re.compile(r"(?<![\w-])--[^\W_][\w-]*(?<!-)")
"""A command's long option (``--data-checksums``): the index reads its words apart, but it
names one thing, which a file that documents it spells whole."""


OPTION_CHARS = 4000
MAX_OPTIONS = 16
"""A question names its options within its first :data:`OPTION_CHARS` characters, at most
:data:`MAX_OPTIONS` of them: a document pasted into it is no list of options, and each
is looked for in the label lines of every candidate (:func:`opens_entry`)."""


def options_in(question: str) -> frozenset[str]:
    """The long options ``question`` spells (:data:`_OPTION`), lowercased."""
    return _first(m.group().lower() for m in _OPTION.finditer(question[:OPTION_CHARS]))


def _first(found: Iterable[str]) -> frozenset[str]:
    return frozenset(list(dict.fromkeys(found))[:MAX_OPTIONS])


_FLAG = re.compile(r"(?<![\w-])-[^\W\d_](?![\w-])")
"""A command's short option (``-x``, ``-R``): a letter, whose case matters."""


def flags_in(question: str) -> frozenset[str]:
    """The short options ``question`` spells (:data:`_FLAG`), as written."""
    return _first(m.group() for m in _FLAG.finditer(question[:OPTION_CHARS]))


_CODE_NAME = re.compile(
    r"(?<![\w.])(?:[^\W\d]\w*(?:\.[^\W\d]\w*)+|[A-Z][a-z]+[A-Z]\w*|[^\W\d]\w*(?=\(\)))(?![\w.])"
)
"""A name as code calls it: with dots ("shutil.rmtree", "dict.setdefault"), a class's in
CamelCase ("StandardScaler"), or a function's with its parentheses ("enumerate()");
not a version ("15.2")."""
_ASKS_OF = re.compile(r"\W*what\s+(?:does|do|did|is|are)\s+(?:the\s+)?(?:\w+\s+)?$", re.I)
_ASKED_WHOLE = re.compile(r"(?:\(\))?\s*(?:do|return|mean|give|yield)?\W*$", re.I)
"""What stands before the name a question asks about ("What does", "What is the method")
and after it ("do?", "return?"): nothing else asked of it."""


_HEADED = re.compile(
    r"(?<![\w.])[A-Z]\w*?(?:[a-z][A-Z]|[A-Z]{2}[a-z]{2})\w*|(?<=\[)[^\W_]{1,12}(?=\])"
)
"""A name a manual heads its entry with: in CamelCase, a directive's or a class's
("ExpiresActive", "SSLProtocol", "DataFrame"; not an acronym's plural, "PDFs"), or in
brackets, a rewrite rule's flag ("[L]", whose entry is "L|last ¶")."""


def heading_names(question: str) -> frozenset[str]:
    """The names ``question`` writes as a manual heads their entries (:data:`_HEADED`),
    lowercased: like an identifier, a name whose entry is a heading that starts with it
    ("ExpiresActive Directive ¶", then what it does)."""
    return _first(m.group().lower() for m in _HEADED.finditer(question[:OPTION_CHARS]))


def calls_in(question: str) -> frozenset[str]:
    """The name in code (:data:`_CODE_NAME`) a question asks what it is or does ("What
    does shutil.rmtree do?"), lowercased; not one it asks something else of ("the
    maxsplit argument of str.split", "What does str.partition return if the separator is
    not found?"). A reference documents it under a label that starts with it
    ("shutil.rmtree(path, ...)"), or with its last parts (:func:`_opens_call`)."""
    return _first(
        m.group().lower()
        for m in _CODE_NAME.finditer(question[:OPTION_CHARS])
        if _ASKS_OF.fullmatch(question[: m.start()]) and _ASKED_WHOLE.fullmatch(question[m.end() :])
    )


CLASSIFIER_MARK = " : "
"""What stands between a NumPy-style parameter's name and its type ("sep : str, default
','"), as a docutils page shows it (:mod:`.documents`)."""
_PARAMETER = (
    re.compile(r"\b([^\W\d]\w*)\s+(?:parameter|argument|keyword|kwarg)s?\b", re.I),
    re.compile(r"\b(?:parameter|argument)s?\s+([^\W\d]\w*)", re.I),
)
"""A parameter's name before the word, or after it ("the ddof parameter", "with the
argument inplace")."""
_NOT_PARAMETERS = frozenset(
    {"the", "a", "an", "this", "that", "which", "what", "each", "every", "any", "its"}
    | {"keyword", "optional", "required", "default", "positional", "named", "given", "same"}
    | {"first", "second", "third", "fourth", "last", "next", "other", "new", "old"}
)
"""Words before "parameter" or "argument" that are no parameter's name ("the third
argument")."""


_QUOTES = "\"'\u2018\u2019"
"""The marks a value is quoted with, in a question or a manual ("'warn'", "\u2018warn\u2019")."""
_KEYWORD = re.compile(
    rf"(?<![\w.])([^\W\d]\w*)\s*=\s*[{_QUOTES}]?([^\W_][\w.-]*)[{_QUOTES}]?(?!\w)"
)
"""A keyword argument and its value, as a call passes it (``on_bad_lines='warn'``,
``how="left"``, ``n_jobs=-1`` aside: a value starts with a letter or a digit)."""


def parameters_in(question: str) -> frozenset[str]:
    """The names ``question`` asks about as a function's parameters ("the ddof parameter",
    "the stratify argument", "parameter thresh") or passes values to ("on_bad_lines='warn'",
    :func:`keyword_values`), lowercased."""
    before, after = _PARAMETER
    named = [m.group(1).lower() for m in before.finditer(question[:OPTION_CHARS])]
    named = [n for n in named if n not in _NOT_PARAMETERS]  # "the how parameter" is one
    following = [m.group(1).lower() for m in after.finditer(question[:OPTION_CHARS])]
    passed = [name for name, _ in keyword_values(question)]
    return _first(
        [*named, *(n for n in following if n not in _STOP_WORDS | _NOT_PARAMETERS), *passed]
    )


def keyword_values(question: str) -> tuple[tuple[str, str], ...]:
    """The keyword arguments ``question`` passes and their values (:data:`_KEYWORD`),
    lowercased: "What happens when read_csv is called with on_bad_lines='warn'?" asks
    what the value ``warn`` of the parameter ``on_bad_lines`` does."""
    pairs = (
        (m.group(1).lower(), m.group(2).lower()) for m in _KEYWORD.finditer(question[:OPTION_CHARS])
    )
    return tuple(dict.fromkeys(pairs))[:MAX_OPTIONS]


def gives_value(line: str, value: str) -> bool:
    """Whether ``line`` is the item of a parameter's description that says what ``value``
    does: it starts with it, quoted or not, then a comma, a colon or a dash ("'warn',
    print a warning when a bad line is encountered and skip that line.")."""
    item = rf"[{_QUOTES}]?{re.escape(value)}[{_QUOTES}]?\s*[,:\u2013\u2014-]\s"
    return re.match(item, line.lstrip(), re.I) is not None


_PARAMETER_LINE = re.compile(rf"\s*([^\W\d]\w*){re.escape(CLASSIFIER_MARK)}")


def parameter_of(line: str) -> str | None:
    """The parameter whose entry ``line`` is in a NumPy-style reference, lowercased: its
    name, then its type after :data:`CLASSIFIER_MARK` ("C : float, default=1.0"), above
    what it does; None for another line."""
    entry = _PARAMETER_LINE.match(line)
    return entry.group(1).lower() if entry else None


def opens_parameter(line: str, names: Collection[str]) -> bool:
    """Whether ``line`` is the entry of one of the parameters ``names``
    (:func:`parameter_of`)."""
    return parameter_of(line) in names


PERMALINK = "\u00b6"
"""The mark Sphinx and MkDocs link each heading and each definition's signature to
("str.partition(sep)¶", "heapq.heapify(x)¶"): a line that ends with it names what the
lines under it explain, however it is written."""


def heads_itself(line: str) -> bool:
    """Whether ``line`` ends with a :data:`PERMALINK`: a heading or a definition's
    signature, of its own."""
    return line.rstrip().endswith(PERMALINK)


def opens_entry(
    line: str, options: Iterable[str], flags: Iterable[str], calls: Iterable[str] = ()
) -> bool:
    """Whether ``line`` starts with one of the long ``options`` (in any case) or short
    ``flags`` (as written): as a label, the line of their entry in a manual ("-p",
    "--prune", "--decorate[=short|full]"), above what the option does; or is the entry of
    one of the names in code ``calls`` (:func:`calls_in`)."""
    line = line.strip()
    return any(
        re.match(rf"{re.escape(o)}(?![\w-])", line, 0 if o in flags else re.I)
        for o in (*options, *flags)
    ) or any(_opens_call(line, c) for c in calls)


def _opens_call(line: str, name: str) -> bool:
    """Whether ``line`` is the entry of the name in code ``name``: it starts with it (a
    dotted one), or it is a signature Sphinx links (:data:`PERMALINK`) of the name or its
    last parts, as a method's under its class ("Path.glob(pattern)¶" of
    ``pathlib.Path.glob``, "setdefault(key[, default])¶" of ``dict.setdefault``), or a
    class's under its module ("class sklearn.preprocessing.StandardScaler(...)¶" of
    ``StandardScaler``)."""
    if "." in name and re.match(rf"{re.escape(name)}(?![\w.])", line, re.I):
        return True
    parts = name.split(".")
    # the whole name under its module, or its last parts alone (never another's method)
    named = [
        rf"(?:\w+\.)*{re.escape(name)}",
        *(re.escape(".".join(parts[i:])) for i in range(1, len(parts))),
    ]
    return heads_itself(line) and any(re.match(rf"(?:class\s+)?{n}\(", line, re.I) for n in named)


def holds_option(text: str, option: str) -> bool:
    """Whether ``text`` spells the long option ``option`` whole: ``--link`` is not in
    ``--link-dest``."""
    return re.search(rf"(?<![\w-]){re.escape(option)}(?![\w-])", text, re.I) is not None


def holds_phrase(text: str, words: Sequence[str]) -> bool:
    """Whether ``text`` spells ``words`` one after the other, whatever their case and
    whatever stands between them but letters and digits ("SELECT ... FOR UPDATE",
    "write-ahead log", ``sql_server.md``)."""
    between = r"[\W_]+"
    pattern = between.join(re.escape(w) for w in words)
    return re.search(rf"(?<![^\W_]){pattern}(?![^\W_])", text, re.I) is not None


def _contracted(text: str, match: re.Match[str]) -> bool:
    """Whether the word ``match`` of ``text`` is a piece of a contraction: what follows a
    word's apostrophe ("I'm", "Flask's": not the quoted letter of "the 'm' flag"), or the
    verb before "n't" ("doesn't", "isn't"). "My Mac says port 5000 is already taken even
    though I'm not running anything" searched for "m", as rare in a manual as "port"."""
    start, end = match.span()
    after = start >= 2 and text[start - 1] in _APOSTROPHES and text[start - 2].isalnum()
    if after and match.group().lower() in _CLITICS:
        return True
    negates = re.match(rf"[{_APOSTROPHES}][tT](?!\w)", text[end : end + 3]) is not None
    return negates and match.group()[-1] in "nN"


_ASKED_THING = re.compile(
    r"\b(?:what|which|how\s+(?:many|much|long|often|soon|far|big|large|old))(?:['\u2019]s)?"
    r"((?:\s+[\w'\u2019-]+){1,6})",
    re.I,
)
_ASKED_WORDS = 3
_ASKED_ENDS = frozenset(
    {"across", "among", "around", "including", "like", "near", "per", "since", "versus", "via"}
    | {"vs", "within", "without"}
)
"""Words that end the thing asked for as a stop word does ("total headcount *across* all
departments")."""


def asked_words(question: str) -> frozenset[str]:
    """The words of the thing a question asks for, lowercased: after "what", "which" or
    "how many" (and the stop words that follow), up to the next stop word, at most
    :data:`_ASKED_WORDS`: "What *nitrate concentration* did the samples show?", "Which
    *contractor installs* the meters?", "How long is the *sewer network*?". A file that
    never says one of them may be near the question, yet does not answer it."""
    found: set[str] = set()
    for m in _ASKED_THING.finditer(question):
        words = [w.lower() for w in WORD.findall(m[1])]
        while words and (words[0] in _STOP_WORDS or words[0] in _CLITICS):
            words.pop(0)
        for word in words[:_ASKED_WORDS]:
            if word in _STOP_WORDS or word in _ASKED_ENDS:
                break
            found.add(word)
    return frozenset(found)


def search_terms(question: str) -> tuple[str, ...]:
    """The distinct content words of ``question`` (at most :data:`MAX_TERMS`), lowercased,
    without the pieces of its contractions (:func:`_contracted`)."""
    terms: dict[str, None] = {}
    for match in WORD.finditer(question):
        word = match.group().lower()
        if word in _STOP_WORDS or len(word) > MAX_TERM_CHARS or _contracted(question, match):
            continue
        terms.setdefault(word)
        if len(terms) == MAX_TERMS:
            break
    return tuple(terms)
