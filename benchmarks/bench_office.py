"""9c. Office files as colleagues send them: Word reports, PDF reports with tables, decks,
workbooks and exports, with questions an analyst types, written by helpers who had not seen
the service's code (two in session 47, one in each session since).

Each set is a script (``data/office/set1.py`` to ``set5.py``) that writes its files and its
questions, the same bytes on every run: ReportLab's PDFs with wrapped, empty, centred and
merged-over cells, a table over two pages, a grouped first column, two columns of text;
python-docx's tables of 60 rows and two-column facts; a matplotlib table; openpyxl's sheets
with a title row, real dates, months as columns and a header of two rows; python-pptx's
table slides, speaker notes and a chart; CSV and TSV exports, one from a European ERP
(semicolons, decimal commas); an API's JSON export; ODT; a notebook with its outputs;
Markdown; HTML. Every expected value was computed with pandas from the data written, and
each lookup and phrase read back from the file. Each set was measured once on the code of
the session that added it before any rule it could teach (the figures then are in
``README.md``); the fifth (session 50) is the last one held out so.

Each question is asked of ``service-l0`` through a real ``chatspace serve`` with all of
its set's files uploaded, one at a time; ``bm25s`` over the same passages beside it:

- **right**: an expected string is in the answer or its quotes (numbers without their
  thousands separators; a decimal expected also matches a number that rounds to it);
  bm25s: in one of its 5 best passages, whole;
- **first_file**: the first citation (bm25s: the best passage) is the file asked about;
- **silent**: a question no file answers cites nothing (bm25s has no notion of relevance
  and always shows passages).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path
from typing import Any

from ._harness import Section
from ._service import start, wait_for_vectors
from .bench_evidence import bm25s_passages, share
from .pgdocs import Question

__all__ = ["run"]

DATA = Path(__file__).parent / "data" / "office"
SETS = {
    "set 1": DATA / "set1.py",
    "set 2": DATA / "set2.py",
    "set 3": DATA / "set3.py",
    "set 4": DATA / "set4.py",
    "set 5": DATA / "set5.py",
    "set 6": DATA / "set6.py",
    "set 7": DATA / "set7.py",
}
KINDS = ("lookup", "aggregate", "prose", "paraphrase")
"""The kinds of answerable questions, each with its own figures (sets 3 and 4 have
paraphrases: questions that share no word with the sentence that answers)."""
CHATSPACE, BM25S = "chatspace (service-l0)", "bm25s (5 best passages)"
_SEPARATOR = re.compile(r"(?<=\d),(?=\d{3})")
_NUMBER = re.compile(r"\d+(?:\.\d+)?")


def _plain(text: str) -> str:
    return _SEPARATOR.sub("", text).lower()


def _holds(text: str, expected: list[str]) -> bool:
    """Whether ``text`` holds an expected string, or a number that rounds to an expected
    decimal (16.455 is 16.46)."""
    plain = _plain(text)
    if any(_plain(e) in plain for e in expected):
        return True
    decimals = [Decimal(e) for e in expected if re.fullmatch(r"\d+\.\d+", e)]
    found = [Decimal(n) for n in _NUMBER.findall(plain)]
    return any(
        n.quantize(d, rounding=ROUND_HALF_UP) == d
        for d in decimals
        for n in found
        if n.as_tuple().exponent < d.as_tuple().exponent  # type: ignore[operator]
    )


def _ask(script: Path, scratch: Path, key: str) -> list[dict[str, Any]]:
    """The set's questions, each with what service-l0 and bm25s show for it."""
    from chatspace import Client
    from chatspace.service.store.db import open_database

    made = scratch / f"office-{key}"
    subprocess.run([sys.executable, str(script), str(made)], check=True, capture_output=True)
    rows = [json.loads(line) for line in (made / "questions.jsonl").read_text().splitlines()]
    service = start(scratch / f"office-data-{key}", "--no-autodetect")
    try:
        with Client(base_url=service.url, token=service.token(org=key), max_retries=0) as c:
            c.files.upload(sorted((made / "files").iterdir()), progress=False)
            wait_for_vectors(c)
            for row in rows:
                message = c.chat.create(messages=[{"role": "user", "content": row["q"]}])
                answer = message.choices[0].message
                notes = [a.file_citation for a in answer.annotations or [] if a.file_citation]
                row["cited"] = [(n.filename, n.quote) for n in notes]
                row["content"] = answer.content or ""
    finally:
        service.stop()
    engine = open_database(service.data_dir / "chatspace.db")
    questions = [Question(r["id"], r["kind"], r["q"], r["file"], None) for r in rows]
    with engine.connect() as conn:
        for row, best in zip(rows, bm25s_passages(conn, key, questions), strict=True):
            row["bm25s"] = best
    engine.dispose()
    return rows


def _first(shown: list[tuple[str, str]]) -> str | None:
    return shown[0][0] if shown else None


def _right(row: dict[str, Any]) -> bool:
    return _holds("\n".join([row["content"], *(q for _, q in row["cited"])]), row["expect"])


def _right_first(row: dict[str, Any]) -> bool:
    """Whether the answer's first bullet, what the user reads first, holds an expected
    string: an answer that computes a wrong total and quotes the right row is right
    (:func:`_right`), not right first."""
    bullets = row["content"].split("\n- ")
    return _holds(bullets[1] if len(bullets) > 1 else row["content"], row["expect"])


def _told(row: dict[str, Any]) -> bool:
    """Whether the answer leads with what no file says of the thing asked ("No file
    mentions "nitrate"."): its passages are then only the nearest."""
    return str(row["content"]).startswith("No file mentions ")


def _figures(rows: list[dict[str, Any]]) -> dict[str, dict[str, float]]:
    answerable = [r for r in rows if r["expect"]]
    unanswerable = [r for r in rows if not r["expect"]]
    return {
        CHATSPACE: {
            "right": share([_right(r) for r in answerable]),
            "right_first": share([_right_first(r) for r in answerable]),
            "first_file": share([_first(r["cited"]) == r["file"] for r in answerable]),
            "silent": share([not r["cited"] for r in unanswerable]),
            "told": share([not r["cited"] or _told(r) for r in unanswerable]),
            "told_answerable": share([_told(r) for r in answerable]),
        },
        BM25S: {
            "right": share(
                [_holds("\n".join(t for _, t in r["bm25s"]), r["expect"]) for r in answerable]
            ),
            "right_first": share(
                [bool(r["bm25s"]) and _holds(r["bm25s"][0][1], r["expect"]) for r in answerable]
            ),
            "first_file": share([_first(r["bm25s"]) == r["file"] for r in answerable]),
        },
    }


def run(size: dict[str, Any], scratch: Path) -> list[Section]:
    """A section for each set, its own bm25s the baseline."""
    sections = []
    for number, (label, script) in enumerate(SETS.items(), start=1):
        section = Section(
            f"office-{number}",
            f"9c. Office files as colleagues send them, {label}: Word, PDF, PowerPoint, "
            "Excel, CSV, JSON, notebooks and more, with questions, by a helper who had not "
            "seen the code",
            baseline=BM25S,
            unit_notes=(
                "Shares from 0 to 1 (higher is better). right: an expected string (a cell, a "
                "computed value, a phrase) is in service-l0's answer or its quotes (bm25s: "
                "in its 5 best passages); right_first: in the answer's first bullet, what "
                "the user reads first (bm25s: its best passage); first_file: the first "
                "citation is the file asked about (bm25s: its best passage); silent: "
                "questions no file answers cite nothing; told: they cite nothing, or lead "
                'with the words of what they ask for that no file says ("No file mentions '
                '"nitrate"."), the passages then only the nearest; told_answerable: '
                "answerable questions that lead so (lower is better)."
            ),
        )
        section.metric("told_answerable", lower_is_better=True)
        rows = _ask(script, scratch, script.stem)
        figures = _figures(rows)
        for name in (CHATSPACE, BM25S):
            section.add(name, **figures[name])
        for kind in (k for k in KINDS if any(r["kind"] == k for r in rows)):
            part = _figures([r for r in rows if r["kind"] == kind])
            section.notes.append(
                f"{kind} ({sum(r['kind'] == kind for r in rows)} questions): chatspace right "
                f"{part[CHATSPACE]['right']:.3f}, right_first {part[CHATSPACE]['right_first']:.3f}"
                f", first_file {part[CHATSPACE]['first_file']:.3f}"
                f"; bm25s right {part[BM25S]['right']:.3f}"
            )
        wrong = [r["id"] for r in rows if (not _right(r) if r["expect"] else r["cited"])]
        section.notes.append(f"Wrong, or not silent: {', '.join(wrong) or 'none'}")
        sections.append(section)
    return sections
