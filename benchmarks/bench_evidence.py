"""9. Evidence on real documents: PostgreSQL 15's manual, judged by what the user sees.

The pages are Debian's ``postgresql-doc-15`` (``make bench-deps`` installs it), uploaded
as they are (HTML) through a real ``chatspace serve``; the labelled questions
(``data/pgdocs``, written by hand from the pages) say which page answers and with which
exact phrase. Side by side with ``bm25s`` over the same passages (the service's own,
read from its database):

- **top-1 file**: the first citation of the ``service-l0`` answer is the labelled page
  (bm25s: the file of its best passage);
- **answer in quote**: the phrase (case-insensitive, whitespace-normalised) is inside one
  of the quotes of the ``service-l0`` answer (bm25s: inside one of its 5 best passages,
  whole; ``answer_in_top1``: the first quote, the best passage);
- **evidence recall**: the phrase is inside the context the service sent a model (its
  ``top_k`` passages, 5 by default; bm25s: its 5 best). A
  scripted OpenAI-compatible server in this process (:mod:`._scripted_upstream`) is the
  service's upstream model; it records the system message, the numbered passages;
- **no-answer silence**: the questions no page answers that get no citation at all;
- **attribution**: the scripted model answers with one or two sentences stating the
  answer (the page's sentence, or for half of the questions a light rewording of it) and
  one sentence no page supports, without ``[n]`` markers; the share of supported
  sentences with an overlapping citation of the labelled page, and of unsupported ones
  with none. Then the same answers with ``[1]`` after the supported sentence, whichever
  passage holds it: where the marked sentence's citations point after the service's
  processing.

Before asking, the set is checked against the pages' text as the service extracted it
(:func:`.pgdocs.check`): a phrase missing from its page stops the run.
"""

from __future__ import annotations

import re
import subprocess
import time
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path
from statistics import fmean
from typing import Any

from chatspace.service.retrieval.scope import DEFAULT_TOP_K

from ._harness import Section
from ._scripted_upstream import ScriptedUpstream
from ._service import start, wait_for_vectors
from .bench_retrieval_quality import dense_models
from .pgdocs import Canned, Question, check, compose, docs_dir, load, norm, subset

__all__ = ["blocks", "bm25s_passages", "run", "share"]

PLAIN, MARKED = "scripted", "scripted-marked"
MODELS = {"l0": "service-l0"}
SENT = DEFAULT_TOP_K
"""The passages a model is sent, and bm25s' that are compared with them."""
CLIENTS = 2
"""Requests in flight at once (the machine has 2 cores; the service's threads do the work)."""
NOT_DOCUMENTED = "The documentation I was given does not cover this."
CHATSPACE = "chatspace (service-l0 quotes, upstream context)"
MINILM = "chatspace, --embeddings minilm"
BM25S = "bm25s (5 best passages, best passage)"
ATTRIBUTION = "chatspace + model answering without [n]"
MARKERS = "chatspace + model writing [1] after the supported sentence"
_BLOCK = re.compile(r"(?:^|\n\n)\[(\d+)\] ([^\n]*)\n")


def blocks(context: str) -> list[tuple[str, str]]:
    """The ``(filename, text)`` of each numbered passage of a context message."""
    found = list(_BLOCK.finditer(context))
    ends = [m.start() for m in found[1:]] + [len(context)] if found else []
    return [(m.group(2), context[m.end() : end]) for m, end in zip(found, ends, strict=True)]


def _files(notes: Sequence[Any], span: tuple[int, int]) -> set[str]:
    """The files cited by the annotations overlapping ``span`` of the content."""
    lo, hi = span
    return {a.file_citation.filename for a in notes if a.start_index < hi and a.end_index > lo}


def share(flags: Sequence[bool]) -> float:
    return sum(flags) / max(len(flags), 1)


def _ask(client: Any, model: str, question: str) -> Any:
    from chatspace.client import user_message

    return client.chat.create(messages=[user_message(question)], model=model)


def bm25s_passages(
    conn: Any, org_id: str, questions: Sequence[Question]
) -> list[list[tuple[str, str]]]:
    """The :data:`SENT` best passages ``(filename, text)`` of each question by bm25s,
    positive scores."""
    import bm25s
    import sqlalchemy as sa

    rows = conn.execute(
        sa.text(
            "SELECT p.text, f.filename FROM passages p JOIN files f ON f.id = p.file_id "
            "WHERE p.org_id = :o ORDER BY p.id"
        ),
        {"o": org_id},
    ).all()
    retriever = bm25s.BM25()
    tokens = bm25s.tokenize([t for t, _ in rows], stopwords="en", show_progress=False)
    retriever.index(tokens, show_progress=False)
    found: list[list[tuple[str, str]]] = []
    for q in questions:
        query = bm25s.tokenize([q.question], stopwords="en", show_progress=False)
        if not query.vocab:
            found.append([])
            continue
        docs, scores = retriever.retrieve(query, k=min(SENT, len(rows)), show_progress=False)
        best = [(rows[d][1], rows[d][0]) for d, s in zip(docs[0], scores[0], strict=True) if s > 0]
        found.append(best)
    return found


def _package_version() -> str:
    try:
        query = ["dpkg-query", "-W", "-f=${Version}", "postgresql-doc-15"]
        return subprocess.run(query, capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


@dataclass
class Asked:
    """What a run of the questions through the service gave."""

    answers: dict[str, dict[str, Any]]
    """model -> question id -> the completion (``l0``, :data:`PLAIN`, :data:`MARKED`)."""
    contexts: dict[tuple[str, str], str]
    bm25s: dict[str, list[tuple[str, str]]]
    seconds: dict[str, float]


def _ask_all(
    pages: Sequence[str],
    questions: Sequence[Question],
    canned: Mapping[str, Canned],
    data_dir: Path,
    *options: str,
) -> Asked:
    """Upload ``pages`` through a service (started with ``options`` too) whose upstream is
    the scripted model, check the set against the service's text, ask every question of
    each model, and rank with bm25s."""
    from chatspace import Client
    from chatspace.service.store.db import open_database

    docs = docs_dir()
    answerable = [q for q in questions if q.page is not None]
    script: dict[str, dict[str, str]] = {PLAIN: {q.question: NOT_DOCUMENTED for q in questions}}
    script[MARKED] = {}
    for q in answerable:
        script[PLAIN][q.question] = compose(canned[q.id], marker=False).content
        script[MARKED][q.question] = compose(canned[q.id], marker=True).content
    clock = [time.perf_counter()]
    upstream = ScriptedUpstream(script).start()
    service = start(data_dir, "--no-autodetect", "--upstream-url", upstream.url,
                    "--upstream-model", PLAIN, "--upstream-model", MARKED, *options)  # fmt: skip
    org_id = "evidence"
    answers: dict[str, dict[str, Any]] = {"l0": {}, PLAIN: {}, MARKED: {}}
    try:
        with Client(base_url=service.url, token=service.token(org=org_id), max_retries=0) as c:
            clock.append(time.perf_counter())
            ids = {}
            for first in range(0, len(pages), 100):
                batch = [docs / p for p in pages[first : first + 100]]
                ids.update({f.filename: f.id for f in c.files.upload(batch, progress=False)})
            wait_for_vectors(c)
            clock.append(time.perf_counter())
            texts = {p: c.files.text(ids[p]) for p in {q.page for q in answerable if q.page}}
            problems = check(texts, answerable, canned)
            if problems:
                raise RuntimeError("data/pgdocs does not match the pages:\n" + "\n".join(problems))
            asks = [(m, q) for q in questions for m in ("l0", PLAIN, MARKED)
                    if m != MARKED or q.page is not None]  # fmt: skip
            with ThreadPoolExecutor(CLIENTS) as pool:
                done = pool.map(lambda a: _ask(c, MODELS.get(a[0], a[0]), a[1].question), asks)
                for (model, q), completion in zip(asks, done, strict=True):
                    answers[model][q.id] = completion
            clock.append(time.perf_counter())
    finally:
        service.stop()
        upstream.stop()
    engine = open_database(service.data_dir / "chatspace.db")
    with engine.connect() as conn:
        ranked = dict(
            zip((q.id for q in questions), bm25s_passages(conn, org_id, questions), strict=True)
        )
    engine.dispose()
    clock.append(time.perf_counter())
    steps = ("service start", "upload", "chat requests", "bm25s")
    seconds = {step: b - a for step, (a, b) in zip(steps, pairwise(clock), strict=True)}
    return Asked(answers, dict(upstream.contexts), ranked, seconds)


def _minilm_rows(
    section: Section, asked: Asked, questions: Sequence[Question], canned: Mapping[str, Canned]
) -> None:
    """The row of the service with MiniLM (``--embeddings minilm``) and its notes: the
    dense model measured on real documents, with what it costs here."""
    test = [q for q in questions if q.split == "test"]
    main = ("top1_file", "answer_in_quote", "answer_in_top1", "evidence_recall")
    ours = _retrieval(asked, test)[CHATSPACE]
    rows, _ = _attribution(asked, [q for q in test if q.page is not None], canned)
    section.add(
        MINILM,
        **{k: ours[k] for k in (*main, "no_answer_silent")},
        **rows[ATTRIBUTION],
    )
    dev = [q for q in questions if q.split == "dev"]
    section.notes.append(f"Dev split, {MINILM}: {_figures(asked, dev, canned)}")
    for kind in ("literal", "paraphrase"):
        part = [q for q in test if q.kind == kind]
        shown = [f"{k} {_retrieval(asked, part)[CHATSPACE][k]:.3f}" for k in main]
        section.notes.append(f"{kind} ({len(part)} questions), {MINILM}: " + ", ".join(shown))
    section.notes.append(
        f"{MINILM}: upload until every passage's vector was stored "
        f"{asked.seconds['upload']:.0f} s (WordLlama's: in the time line below)"
    )


def _retrieval(asked: Asked, group: Sequence[Question]) -> dict[str, dict[str, float]]:
    """The retrieval metrics of ``group``, for chatspace and for bm25s."""
    ours: dict[str, list[bool]] = {}
    theirs: dict[str, list[bool]] = {}
    for q in group:
        notes = asked.answers["l0"][q.id].choices[0].message.annotations
        quotes = [(a.file_citation.filename, a.file_citation.quote) for a in notes]
        best = asked.bm25s[q.id]
        if q.answer is None:
            ours.setdefault("no_answer_silent", []).append(not quotes)
            theirs.setdefault("no_answer_silent", []).append(not best)
            continue
        phrase = norm(q.answer)
        sent = blocks(asked.contexts.get((PLAIN, q.question), ""))
        for found, shown, given in ((ours, quotes, sent), (theirs, best[:5], best)):
            flags = {
                "top1_file": bool(shown) and shown[0][0] == q.page,
                "answer_in_quote": any(phrase in norm(t) for _, t in shown),
                "answer_in_top1": bool(shown) and phrase in norm(shown[0][1]),
                "evidence_recall": any(phrase in norm(t) for _, t in given),
                "labelled_answer_in_quote": any(
                    f == q.page and phrase in norm(t) for f, t in shown
                ),
                "labelled_evidence_recall": any(
                    f == q.page and phrase in norm(t) for f, t in given
                ),
            }
            for name, flag in flags.items():
                found.setdefault(name, []).append(flag)
    return {
        name: {k: share(v) for k, v in found.items()}
        for name, found in ((CHATSPACE, ours), (BM25S, theirs))
    }


def _attribution(
    asked: Asked, answerable: Sequence[Question], canned: Mapping[str, Canned]
) -> tuple[dict[str, dict[str, float]], str]:
    """The attribution rows, and a note on them."""
    supported, unsupported, reworded, given, right, wrong, first = [], [], [], [], [], [], []
    for q in answerable:
        c = canned[q.id]
        plain = compose(c, marker=False)
        notes = asked.answers[PLAIN][q.id].choices[0].message.annotations
        hits = [q.page in _files(notes, span) for span in plain.supported]
        supported += hits
        reworded += hits if c.reworded else []
        sent = blocks(asked.contexts.get((PLAIN, q.question), ""))
        assert q.answer is not None
        if any(f == q.page and norm(q.answer) in norm(t) for f, t in sent):
            given += hits
        unsupported.append(not _files(notes, plain.unsupported))
        marked = compose(c, marker=True)
        assert marked.marked is not None
        files = _files(asked.answers[MARKED][q.id].choices[0].message.annotations, marked.marked)
        right.append(q.page in files)
        wrong.append(bool(files - {q.page}))
        sent = blocks(asked.contexts.get((MARKED, q.question), ""))
        first.append(bool(sent) and sent[0][0] == q.page)
    rows = {
        ATTRIBUTION: {
            "attribution_supported": share(supported),
            "attribution_unsupported_clean": share(unsupported),
        },
        MARKERS: {"marker_to_labelled": share(right), "marker_to_other": share(wrong)},
    }
    note = (
        f"Attribution: {len(supported)} supported sentences in {len(answerable)} answers "
        f"(cited from the labelled page: those reworded {share(reworded):.3f}, those "
        f"whose answer was in a passage of the labelled page sent {share(given):.3f}), "
        f"{len(unsupported)} unsupported sentences. Passage [1] was from the labelled page "
        f"for {share(first):.3f} of the marked answers: where the markers point when they "
        "are kept as written."
    )
    return rows, note


def _figures(asked: Asked, group: Sequence[Question], canned: Mapping[str, Canned]) -> str:
    """One line of every figure of ``group`` (the dev split's line of the notes)."""
    overall = _retrieval(asked, group)
    rows, _ = _attribution(asked, [q for q in group if q.page is not None], canned)
    figures = {**overall[CHATSPACE], **rows[ATTRIBUTION], **rows[MARKERS]}
    shown = [f"{k} {v:.3f}" for k, v in figures.items() if not k.startswith("labelled")]
    theirs = [f"{k} {overall[BM25S][k]:.3f}" for k in ("top1_file", "answer_in_quote")]
    return ", ".join(shown) + f" (bm25s: {', '.join(theirs)})"


def run(size: dict[str, Any], scratch: Path) -> Section:
    every, canned = load()
    questions, pages = subset(every, size["evidence"])
    asked = _ask_all(pages, questions, canned, scratch / "evidence-data")
    dev = [q for q in questions if q.split == "dev"]
    test = [q for q in questions if q.split == "test"]
    answerable = [q for q in test if q.page is not None]
    section = Section(
        "evidence",
        f"9. Evidence on real documents: PostgreSQL 15's manual, the test split ({len(test)} "
        f"questions, {len(pages)} pages)",
        baseline=BM25S,
        unit_notes=(
            "Shares from 0 to 1 (higher is better). top1_file: the first citation (bm25s: "
            "the best passage) is the labelled page; answer_in_quote: the answer phrase is "
            "inside one of service-l0's quotes (bm25s: one of its 5 best passages, whole); "
            "answer_in_top1: in the first quote (the best passage); evidence_recall: in "
            f"the passages sent to the model (top_k, {SENT} by default; bm25s: its {SENT} "
            "best); no_answer_silent: "
            "no-answer questions without any citation. attribution_supported: supported "
            "answer sentences with an overlapping citation of the labelled page; "
            "attribution_unsupported_clean: unsupported ones without any; marker_to_*: the "
            "citations of the sentence the model marked [1]. The service was tuned on the "
            "dev split only (its figures are in the notes)."
        ),
    )
    main = ("top1_file", "answer_in_quote", "answer_in_top1", "evidence_recall")
    overall = _retrieval(asked, test)
    section.add(CHATSPACE, **{k: overall[CHATSPACE][k] for k in (*main, "no_answer_silent")})
    section.add(BM25S, **{k: overall[BM25S][k] for k in main})
    rows, note = _attribution(asked, answerable, canned)
    for name, metrics in rows.items():
        section.add(name, **metrics)
    if "minilm" in dense_models():
        minilm = _ask_all(pages, questions, canned, scratch / "evidence-minilm",
                          "--embeddings", "minilm")  # fmt: skip
        _minilm_rows(section, minilm, questions, canned)
    section.notes.append(
        f"Dev split ({len(dev)} questions), chatspace: {_figures(asked, dev, canned)}"
    )
    quotes = [
        len(" ".join(a.file_citation.quote.split()))
        for q in test
        for a in asked.answers["l0"][q.id].choices[0].message.annotations
    ]
    section.notes.append(
        f"Quotes of service-l0 (test): {len(quotes)}, {fmean(quotes or [0]):.0f} characters "
        f"on average (whitespace joined), at most {max(quotes, default=0)}"
    )
    unanswerable = [q for q in test if q.page is None]
    blind = [not blocks(asked.contexts.get((PLAIN, q.question), "")) for q in unanswerable]
    section.notes.append(
        f"No-answer questions: the model was sent no passage for {share(blind):.3f} of "
        f"them; {BM25S} has no notion of relevance and shows passages for "
        f"{1 - overall[BM25S]['no_answer_silent']:.3f}"
    )
    for name in (CHATSPACE, BM25S):
        section.notes.append(
            f"{name}, counting the labelled page only: answer in a quote of it "
            f"{overall[name]['labelled_answer_in_quote']:.3f}, in a passage of it given "
            f"{overall[name]['labelled_evidence_recall']:.3f}"
        )
    kinds = sorted({q.kind for q in questions})
    for kind in kinds:
        part = [q for q in test if q.kind == kind]
        for name, metrics in _retrieval(asked, part).items():
            shown = [f"{k} {v:.3f}" for k, v in metrics.items() if not k.startswith("labelled")]
            section.notes.append(f"{kind} ({len(part)} questions), {name}: " + ", ".join(shown))
    counts = ", ".join(f"{k} {sum(q.kind == k for q in questions)}" for k in kinds)
    section.notes += [
        note,
        f"Set: {len(questions)} questions ({counts}; {len(dev)} dev, {len(test)} test), "
        f"labelled with {len({q.page for q in questions if q.page})} distinct pages; "
        f"{len(pages)} pages of postgresql-doc-15 {_package_version()} uploaded as HTML.",
        "Time: "
        + ", ".join(f"{k} {v:.1f} s" for k, v in asked.seconds.items())
        + f" ({sum(len(a) for a in asked.answers.values())} chat requests)",
    ]
    return section
