"""The chat panel's conversation as data and as safe HTML.

A turn is a plain dict (``role``, ``content``, ``annotations``, ``usage``, ``stopped``,
``id``), so the conversation is easy to inspect, test and send back as history. Assistant
text is Markdown rendered by :func:`markdown_to_html` (raw HTML off, then sanitized); user
text, file names and quotes are escaped.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from chatspace.notebook.markup import escape, markdown_to_html

from ._links import file_download_url

__all__ = ["history", "render_citations", "render_turn", "usage_line"]


def _citation_dicts(annotations: Sequence[Any]) -> list[dict[str, Any]]:
    """Annotations as dicts (models or dicts accepted), file citations only, one per marker."""
    seen: set[str] = set()
    out = []
    for item in annotations:
        data = item.model_dump() if hasattr(item, "model_dump") else dict(item)
        cite = data.get("file_citation") or {}
        marker = str(data.get("text", ""))
        if not cite or marker in seen:
            continue
        seen.add(marker)
        out.append({"marker": marker, **cite})
    return out


def render_citations(
    annotations: Sequence[Any], *, workspace: str, base_url: str | None = None
) -> str:
    """The sources under an answer: marker, file name (a download link) and the quote."""
    items = []
    for cite in _citation_dicts(annotations):
        name = escape(cite.get("filename") or cite.get("file_id") or "file")
        file_id = cite.get("file_id")
        if file_id:
            href = escape(file_download_url(str(file_id), workspace, base_url=base_url))
            name = f'<a href="{href}" target="_blank" rel="noopener">{name}</a>'
        quote = escape(cite.get("quote") or "")
        items.append(
            f'<li class="chatspace-citation"><b>{escape(cite["marker"])}</b> {name}'
            f'<blockquote class="chatspace-quote" style="margin: 2px 0 6px 12px; '
            f'color: var(--jp-ui-font-color2, #555)">{quote}</blockquote></li>'
        )
    if not items:
        return ""
    style = "list-style: none; padding-left: 0"
    return f'<ol class="chatspace-citations" style="{style}">{"".join(items)}</ol>'


def render_turn(turn: dict[str, Any], *, workspace: str, base_url: str | None = None) -> str:
    """One turn as HTML: user text escaped, assistant Markdown rendered and sanitized."""
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
        body += render_citations(
            turn.get("annotations") or [], workspace=workspace, base_url=base_url
        )
    return f'<div class="chatspace-turn chatspace-{escape(role)}"><b>{who}</b>{body}</div>'


def usage_line(last: dict[str, int] | None, total: dict[str, int], model: str) -> str:
    """The footer: tokens of the last answer and of the whole conversation."""
    if not last:
        return f"model {model} · no tokens used yet"
    return (
        f"model {model} · last answer: {last.get('prompt_tokens', 0)} prompt + "
        f"{last.get('completion_tokens', 0)} completion = {last.get('total_tokens', 0)} tokens"
        f" · conversation: {total.get('total_tokens', 0)} tokens"
    )


def history(turns: Sequence[dict[str, Any]], budget_chars: int) -> list[dict[str, str]]:
    """Earlier turns to send again, newest kept first, within a character budget.

    A budget rather than a fixed number of turns: long answers use it up sooner, and the
    oldest turns are the ones dropped, whole.
    """
    kept: list[dict[str, str]] = []
    used = 0
    for turn in reversed(turns):
        content = str(turn.get("content") or "")
        if not content:
            continue
        used += len(content)
        if used > budget_chars:
            break
        kept.append({"role": str(turn.get("role", "user")), "content": content})
    kept.reverse()
    # a conversation sent back starts with the user, never with a dangling answer
    while kept and kept[0]["role"] != "user":
        kept.pop(0)
    return kept
