"""Safe rendering of text that came from a model, a file name or metadata.

JupyterLab runs scripts inside trusted HTML outputs, and live outputs are trusted, so
nothing from the service is ever put into HTML or Markdown unescaped.
"""

from __future__ import annotations

import html
import re
from functools import cache
from typing import Any

__all__ = ["escape", "escape_markdown_html", "markdown_to_html"]

_HTML_CHARS = re.compile(r"[&<>]")
_ENTITIES = {"&": "&amp;", "<": "&lt;", ">": "&gt;"}


def escape(text: object) -> str:
    """Text for an HTML context (element content or a quoted attribute)."""
    return html.escape(str(text), quote=True)


def escape_markdown_html(text: str) -> str:
    """Markdown whose raw HTML shows as text: ``<script>`` stays visible and inert.

    Markdown syntax (emphasis, lists, code, links) keeps working; only ``&``, ``<`` and
    ``>`` are turned into entities, which Markdown renders back as the characters.
    """
    return _HTML_CHARS.sub(lambda m: _ENTITIES[m.group()], text)


@cache
def _renderer() -> Any:
    from markdown_it import MarkdownIt

    return MarkdownIt("commonmark", {"html": False, "linkify": False}).enable("table")


def markdown_to_html(text: str) -> str:
    """Markdown rendered to HTML for a widget, with raw HTML disabled and the result cleaned.

    markdown-it never emits the input's HTML; nh3 then removes anything unsafe that
    Markdown itself can produce (``javascript:`` links, for one).
    """
    import nh3

    return nh3.clean(_renderer().render(text), url_schemes={"http", "https", "mailto"})
