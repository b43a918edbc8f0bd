"""A conversation written out with its citations: Markdown, a notebook, or JSON.

``%chat export`` uses it; the notebook form has one Markdown cell per question and one
per answer (with its citations and the passages retrieved for it, as the service stored
them), so it opens as a readable record in JupyterLab. The text
is meant to be read as plain text too: file names and ids are code spans, and questions
and quotes carry only the escapes Markdown needs (``sales-q1-2025.xlsx``, not
``sales\\-q1\\-2025\\.xlsx``).
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from .display import UNSUPPORTED, UNSUPPORTED_NOTE
from .grammar import InputError
from .markup import code_span, markdown_text, one_line, safe_markdown
from .sources import source_rows

if TYPE_CHECKING:
    from chatspace.types import Source

    from .conversations import Thread, Turn

__all__ = ["EXPORT_FORMATS", "ExportFormat", "Retrieved", "export_text", "write_thread"]

ExportFormat = Literal["md", "ipynb", "json"]
EXPORT_FORMATS: tuple[ExportFormat, ...] = ("md", "ipynb", "json")
Retrieved = Mapping[str, list["Source"]]
"""The sources of each stored turn, by completion id."""


def _sources(turn: Turn) -> str:
    """The turn's sources, and what its mark means where a sentence carries it."""
    items = [
        f"- {markdown_text(c.marker)} **{code_span(c.filename)}**"
        + (f", {markdown_text(c.place)}" if c.place else "")
        + f" ({code_span(c.file_id)}): "
        f"“{markdown_text(one_line(c.quote, 300))}”"
        for c in turn.citations
    ]
    if UNSUPPORTED in turn.shown_answer:
        items.append(f"- {markdown_text(UNSUPPORTED_NOTE)}")
    return "**Sources**\n\n" + "\n".join(items) if items else ""


def _retrieved(sources: list[Source]) -> str:
    rows = source_rows(sources)
    if not rows:
        return ""
    items = [
        f"{r['rank']}. **{code_span(r['file'])}** score {r['score']}, sent {r['sent']}, "
        f"cited {r['cited']}"
        + (f", {markdown_text(r['location'])}" if r["location"] else "")
        + (f": “{markdown_text(r['quote'])}”" if r["quote"] else "")
        for r in rows
    ]
    return "**Passages retrieved**\n\n" + "\n".join(items)


def _cells(turn: Turn, retrieved: Retrieved) -> tuple[str, str]:
    """The question and the answer of a turn as Markdown (model text made inert)."""
    question = f"**You**\n\n{markdown_text(turn.question)}"
    rows = retrieved.get(turn.completion_id or "", [])
    answer = "\n\n".join(
        p
        for p in (
            f"**Assistant**\n\n{safe_markdown(turn.shown_answer)}",
            _sources(turn),
            _retrieved(rows),
        )
        if p
    )
    return question, answer


def export_text(thread: Thread, fmt: ExportFormat, retrieved: Retrieved | None = None) -> str:
    """The conversation of ``thread`` in format ``fmt``, as text, with the passages
    ``retrieved`` for its stored turns."""
    retrieved = retrieved or {}
    title = f"Thread {thread.name} (conversation {thread.conversation})"
    if fmt == "json":
        turns = [
            {
                "question": t.question,
                "answer": t.answer,
                "completion_id": t.completion_id,
                "citations": [dataclasses.asdict(c) for c in t.citations],
                "sources": [
                    s.model_dump(mode="json") for s in retrieved.get(t.completion_id or "", [])
                ],
            }
            for t in thread.turns
        ]
        record = {"thread": thread.name, "conversation": thread.conversation, "turns": turns}
        return json.dumps(record, indent=1, ensure_ascii=False)
    cells = [text for turn in thread.turns for text in _cells(turn, retrieved)]
    if fmt == "md":
        return "\n\n---\n\n".join([f"# {markdown_text(title)}", *cells]) + "\n"
    import nbformat

    notebook = nbformat.v4.new_notebook()
    notebook.cells = [nbformat.v4.new_markdown_cell(f"# {markdown_text(title)}")]
    notebook.cells += [nbformat.v4.new_markdown_cell(text) for text in cells]
    return str(nbformat.writes(notebook))


def write_thread(
    thread: Thread, path: str | Path | None, fmt: str | None, retrieved: Retrieved | None = None
) -> Path:
    """Write ``thread`` to ``path`` (default ``NAME.FORMAT`` here), with the passages
    ``retrieved`` for its stored turns; the path written."""
    chosen = fmt or (Path(path).suffix.lstrip(".") if path else "") or "md"
    if chosen not in EXPORT_FORMATS:
        raise InputError(f"--to {chosen!r}: use md, ipynb or json")
    kind: ExportFormat = chosen
    if not thread.turns:
        raise InputError(f"thread {thread.name} has no turns to export yet")
    target = Path(path).expanduser() if path else Path(f"{thread.name}.{kind}")
    if target.is_dir():
        target = target / f"{thread.name}.{kind}"
    target.write_text(export_text(thread, kind, retrieved), encoding="utf-8")
    return target
