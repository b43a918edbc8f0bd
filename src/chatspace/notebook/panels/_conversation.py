"""The chat panel's conversation as safe HTML.

A turn is a plain dict (``role``, ``content``, ``citations``, ``usage``, ``stopped``,
``id``), so the conversation is easy to inspect and test; what is sent again as history
is the thread's (:mod:`chatspace.notebook.conversations`), not this. Assistant text is
Markdown rendered by :func:`markdown_to_html` (raw HTML off, then sanitized); user text,
file names and quotes are escaped.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from chatspace.notebook.display import UNSUPPORTED, UNSUPPORTED_NOTE, ChatResult, Citation
from chatspace.notebook.markup import escape, markdown_to_html

from ._links import file_download_url

__all__ = ["render_citations", "render_turn", "usage_line"]


def render_citations(
    citations: Sequence[Citation], *, workspace: str, base_url: str | None = None
) -> str:
    """The sources under an answer: marker, file name (a download link), where in the
    file, and the quote."""
    items = []
    for cite in citations:
        name = escape(cite.filename or cite.file_id or "file")
        if cite.file_id:
            href = escape(file_download_url(cite.file_id, workspace, base_url=base_url))
            name = f'<a href="{href}" target="_blank" rel="noopener">{name}</a>'
        if cite.place:
            name += f'<span class="chatspace-place">, {escape(cite.place)}</span>'
        items.append(
            f'<li class="chatspace-citation"><b>{escape(cite.marker)}</b> {name}'
            f'<blockquote class="chatspace-quote" style="margin: 2px 0 6px 12px; '
            f'color: var(--jp-ui-font-color2, #555)">{escape(cite.quote)}</blockquote></li>'
        )
    if not items:
        return ""
    style = "list-style: none; padding-left: 0"
    return f'<ol class="chatspace-citations" style="{style}">{"".join(items)}</ol>'


def render_turn(turn: dict[str, Any], *, workspace: str, base_url: str | None = None) -> str:
    """One turn as HTML: user text escaped, assistant Markdown rendered and sanitized, with
    its sources and, where a sentence is marked :data:`~.display.UNSUPPORTED`, what the
    mark means."""
    role = turn.get("role", "user")
    content = str(turn.get("content") or "")
    if role == "user":
        body = f'<div style="white-space: pre-wrap">{escape(content)}</div>'
        who = "You"
    else:
        who = "Assistant"
        body = markdown_to_html(content) if content else "<i>…</i>"
        if turn.get("stopped"):
            body += '<div class="chatspace-stopped"><i>(stopped)</i></div>'
        citations = [Citation(**c) for c in turn.get("citations") or []]
        body += render_citations(citations, workspace=workspace, base_url=base_url)
        if UNSUPPORTED in content:
            body += (
                '<div class="chatspace-unsupported" style="color: var(--jp-ui-font-color2, '
                f'#555)">{escape(UNSUPPORTED_NOTE)}</div>'
            )
    return f'<div class="chatspace-turn chatspace-{escape(role)}"><b>{who}</b>{body}</div>'


def usage_line(last: ChatResult | None, total_tokens: int, model: str) -> str:
    """The footer, as escaped HTML that wraps where the panel is narrow: the model and
    tokens of the last answer (``~`` when counted here, as for a stopped answer), and the
    conversation's total; ``model`` until an answer came."""
    if last is None or last.usage is None:
        return escape(f"model {model} · no tokens used yet")
    usage, about = last.usage, "~" if last.usage_estimated else ""
    return escape(
        f"model {last.model} · last answer: {about}{usage.prompt_tokens} prompt + "
        f"{about}{usage.completion_tokens} completion = {about}{usage.total_tokens} tokens"
        f" · conversation: {total_tokens} tokens"
    )
