"""A conversation written out with its citations: Markdown, a notebook, or JSON.

``%chat export`` uses it; the notebook form has one Markdown cell per question and one
per answer (with its sources), so it opens as a readable record in JupyterLab. The text
is meant to be read as plain text too: file names and ids are code spans, and questions
and quotes carry only the escapes Markdown needs (``sales-q1-2025.xlsx``, not
``sales\\-q1\\-2025\\.xlsx``).
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import TYPE_CHECKING, Literal, cast

from .grammar import InputError
from .markup import code_span, markdown_text, one_line, safe_markdown

if TYPE_CHECKING:
    from .conversations import Thread, Turn

__all__ = ["EXPORT_FORMATS", "ExportFormat", "export_text", "write_thread"]

ExportFormat = Literal["md", "ipynb", "json"]
EXPORT_FORMATS: tuple[ExportFormat, ...] = ("md", "ipynb", "json")


def _sources(turn: Turn) -> str:
    if not turn.citations:
        return ""
    items = [
        f"- {markdown_text(c.marker)} **{code_span(c.filename)}**"
        + (f", {markdown_text(c.place)}" if c.place else "")
        + f" ({code_span(c.file_id)}): "
        f"“{markdown_text(one_line(c.quote, 300))}”"
        for c in turn.citations
    ]
    return "**Sources**\n\n" + "\n".join(items)


def _cells(turn: Turn) -> tuple[str, str]:
    """The question and the answer of a turn as Markdown (model text made inert)."""
    question = f"**You**\n\n{markdown_text(turn.question)}"
    answer = "\n\n".join(
        p for p in (f"**Assistant**\n\n{safe_markdown(turn.shown_answer)}", _sources(turn)) if p
    )
    return question, answer


def export_text(thread: Thread, fmt: ExportFormat) -> str:
    """The conversation of ``thread`` in format ``fmt``, as text."""
    title = f"Thread {thread.name} (conversation {thread.conversation})"
    if fmt == "json":
        turns = [
            {
                "question": t.question,
                "answer": t.answer,
                "completion_id": t.completion_id,
                "citations": [dataclasses.asdict(c) for c in t.citations],
            }
            for t in thread.turns
        ]
        record = {"thread": thread.name, "conversation": thread.conversation, "turns": turns}
        return json.dumps(record, indent=1, ensure_ascii=False)
    cells = [text for turn in thread.turns for text in _cells(turn)]
    if fmt == "md":
        return "\n\n---\n\n".join([f"# {markdown_text(title)}", *cells]) + "\n"
    import nbformat

    notebook = nbformat.v4.new_notebook()
    notebook.cells = [nbformat.v4.new_markdown_cell(f"# {markdown_text(title)}")]
    notebook.cells += [nbformat.v4.new_markdown_cell(text) for text in cells]
    return str(nbformat.writes(notebook))


def write_thread(thread: Thread, path: str | Path | None, fmt: str | None) -> Path:
    """Write ``thread`` to ``path`` (default ``NAME.FORMAT`` here); the path written."""
    chosen = fmt or (Path(path).suffix.lstrip(".") if path else "") or "md"
    if chosen not in EXPORT_FORMATS:
        raise InputError(f"--to {chosen!r}: use md, ipynb or json")
    kind = cast(ExportFormat, chosen)
    if not thread.turns:
        raise InputError(f"thread {thread.name} has no turns to export yet")
    target = Path(path).expanduser() if path else Path(f"{thread.name}.{kind}")
    if target.is_dir():
        target = target / f"{thread.name}.{kind}"
    target.write_text(export_text(thread, kind), encoding="utf-8")
    return target
