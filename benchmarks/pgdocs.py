"""The PostgreSQL-manual evidence set (``data/pgdocs``): questions, canned answers, checks.

``questions.jsonl``: one labelled question a line, ``{"id", "kind", "question", "page",
"answer"}``; ``kind`` is ``literal``, ``paraphrase`` (the user's words, not the page's) or
``no-answer`` (``page`` and ``answer`` null); ``answer`` is an exact phrase of ``page``
as the service extracts its text. ``answers.jsonl``: for each answerable question, what
the scripted model of :mod:`.bench_evidence` answers: ``supported``, one or two sentences
stating the answer (the page's own sentences, or a light rewording when ``reworded``),
and ``unsupported``, a sentence no page holds, put first when ``unsupported_first``.

Each question is in the ``dev`` split (the half that changes to the service are tuned on)
or ``test`` (the half the results report): within each kind, the questions sorted by a
hash of their id, the first half dev (:func:`load`).

The pages are Debian's ``postgresql-doc-15`` (``make bench-deps``). ``python -m
benchmarks.pgdocs`` checks the set against them, extracted as the service extracts them:
every phrase and every sentence given as the page's own in its page, and no unsupported
sentence in any page.
"""

from __future__ import annotations

import hashlib
import json
import random
import re
import sys
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path

__all__ = [
    "DOCS",
    "SPLITS",
    "Canned",
    "Composed",
    "Question",
    "check",
    "compose",
    "docs_dir",
    "load",
    "norm",
    "subset",
]

DOCS = Path("/usr/share/doc/postgresql-doc-15/html")
DATA = Path(__file__).parent / "data" / "pgdocs"
TINY_PAGES = 40
TINY_EVERY = 18
"""``tiny``: every 18th question (about 20), their pages and others up to 40 pages."""
SPLITS = ("dev", "test")
_ENDED = re.compile(r"[.!?][\"'”’)\]]*$")


@dataclass(frozen=True, slots=True)
class Question:
    id: str
    kind: str
    question: str
    page: str | None
    answer: str | None
    split: str = ""
    """``dev`` or ``test`` (:func:`load`)."""


@dataclass(frozen=True, slots=True)
class Canned:
    """What the scripted model answers to an answerable question."""

    id: str
    supported: tuple[str, ...]
    reworded: bool
    unsupported: str
    unsupported_first: bool


@dataclass(frozen=True, slots=True)
class Composed:
    content: str
    supported: tuple[tuple[int, int], ...]
    unsupported: tuple[int, int]
    marked: tuple[int, int] | None


def norm(text: str) -> str:
    return " ".join(text.split()).casefold()


def load() -> tuple[list[Question], dict[str, Canned]]:
    rows = (json.loads(line) for line in (DATA / "questions.jsonl").read_text().splitlines())
    questions = _split([Question(**row) for row in rows])
    canned = {}
    for line in (DATA / "answers.jsonl").read_text().splitlines():
        row = json.loads(line)
        canned[row["id"]] = Canned(**{**row, "supported": tuple(row["supported"])})
    return questions, canned


def _split(questions: list[Question]) -> list[Question]:
    """``questions`` with their split: stratified by kind, half of each kind (rounded up)
    in ``dev``, chosen by a hash of the id (not by order, which follows the pages)."""
    dev: set[str] = set()
    for kind in {q.kind for q in questions}:
        ids = sorted(
            (q.id for q in questions if q.kind == kind),
            key=lambda i: hashlib.sha256(i.encode()).hexdigest(),
        )
        dev.update(ids[: (len(ids) + 1) // 2])
    return [replace(q, split=SPLITS[q.id not in dev]) for q in questions]


def docs_dir() -> Path:
    if not any(DOCS.glob("*.html")):
        raise RuntimeError(
            f"{DOCS} has no pages: this benchmark runs on Debian's postgresql-doc-15 "
            "(make bench-deps, or apt-get install postgresql-doc-15)"
        )
    return DOCS


def subset(questions: list[Question], size: str) -> tuple[list[Question], list[str]]:
    """The questions and page names of a run: every page for ``full``."""
    pages = sorted(p.name for p in docs_dir().glob("*.html"))
    if size != "tiny":
        return questions, pages
    chosen = questions[::TINY_EVERY]
    labelled = sorted({q.page for q in chosen if q.page})
    others = [p for p in pages if p not in labelled]
    filler = random.Random(15).sample(others, max(0, TINY_PAGES - len(labelled)))
    return chosen, sorted(labelled + filler)


def check(
    texts: Mapping[str, str],
    questions: Iterable[Question],
    canned: Mapping[str, Canned],
    *,
    every_page: bool = False,
) -> list[str]:
    """What is wrong with the set against ``texts`` (page -> extracted text): a phrase
    not in its page, a sentence given as the page's own that is not in it, and (with
    ``every_page``) an unsupported sentence found in some page."""
    problems = []
    normed = {page: norm(text) for page, text in texts.items()}
    for q in questions:
        if q.page is None or q.answer is None:
            continue
        page = normed[q.page]
        if norm(q.answer) not in page:
            problems.append(f"{q.id}: {q.answer!r} is not in {q.page}")
        c = canned[q.id]
        for sentence in () if c.reworded else c.supported:
            if norm(sentence) not in page:
                problems.append(f"{q.id}: the sentence {sentence!r} is not in {q.page}")
        if every_page:
            found = [p for p, text in normed.items() if norm(c.unsupported) in text]
            problems += [f"{q.id}: unsupported {c.unsupported!r} is in {p}" for p in found]
    return problems


def compose(canned: Canned, *, marker: bool) -> Composed:
    """The scripted answer: the supported sentences and the unsupported one, with the
    spans of each (a ``[1]`` after the last supported sentence belongs to it). A sentence
    taken from a table cell gets the full stop a model would end it with."""
    supported = [s if _ENDED.search(s) else f"{s}." for s in canned.supported]
    if marker:
        last = supported[-1]
        supported[-1] = f"{last[:-1]} [1]{last[-1]}" if last[-1] in ".!?" else f"{last} [1]"
    if canned.unsupported_first:
        order = [canned.unsupported, *supported]
    else:
        order = [*supported, canned.unsupported]
    spans, at = [], 0
    for sentence in order:
        spans.append((at, at + len(sentence)))
        at += len(sentence) + 1
    unsupported = spans.pop(0) if canned.unsupported_first else spans.pop()
    return Composed(" ".join(order), tuple(spans), unsupported, spans[-1] if marker else None)


def main() -> int:
    """Check the set against every page, extracted as the service extracts it."""
    from chatspace.service.retrieval.extract import extract

    questions, canned = load()
    docs = docs_dir()
    pages = sorted(docs.glob("*.html"))
    found = {p.name: extract(p, filename=p.name, content_type="text/html") for p in pages}
    texts = {name: e.text for name, e in found.items() if e is not None}
    problems = check(texts, questions, canned, every_page=True)
    print("\n".join(problems) or f"{len(questions)} questions match {len(texts)} pages")
    return 1 if problems else 0


if __name__ == "__main__":
    import warnings

    warnings.simplefilter("ignore")
    sys.exit(main())
