"""Safe rendering of text that came from a model, a file name or metadata.

JupyterLab runs scripts inside trusted HTML outputs, and live outputs are trusted, so
nothing from the service is ever put into HTML or Markdown unescaped.
"""

from __future__ import annotations

import html
import re
from functools import cache
from typing import Any

__all__ = [
    "code_blocks",
    "code_span",
    "escape",
    "escape_markdown_html",
    "markdown_literal",
    "markdown_text",
    "markdown_to_html",
    "one_line",
    "safe_markdown",
]

_HTML_CHARS = re.compile(r"[&<>]")
_HTML_TEXT = re.compile(r"[&<]")
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


# CommonMark lets a backslash escape any ASCII punctuation character.
_MD_PUNCT = re.compile(r"""([!"#$%&'()*+,\-./:;<=>?@\[\\\]^_`{|}~])""")
# A fence we trust: at column 0, where no container (list, quote) can hold it, and for
# backticks with no backtick in its info string (else it is no fence to any parser).
_FENCE_OPEN = re.compile(r"^(?:(`{3,})[^`]*|(~{3,}).*)$")
# Any line that some parser might read as a closing fence ends ours: closing too early
# only shows code escaped, closing too late would let raw HTML through.
_FENCE_CLOSE = re.compile(r"^\s*(?:`{3,}|~{3,})")
# Markdown ends lines at \n, \r\n and \r only (not at U+2028 as str.splitlines does).
_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+\Z")
# A line that starts a block a fence could belong to (list, quote, indented code, link
# definition) or a table row: after one, a fence-like line in the same paragraph is not
# trusted to be a fence.
_CONTAINER_LINE = re.compile(r"^(?:[ \t]|>|\[|[-*+](?:[ \t]|$)|\d{1,9}[.)](?:[ \t]|$))")
_SAFE_SCHEMES = frozenset({"http", "https", "mailto"})
_SCHEME = re.compile(r"^([a-z][a-z0-9+.\-]*):")
# The target's start, up to the first bracket or parenthesis: enough to see its scheme,
# and no match swallows the next "](" (each is checked on its own).
_INLINE_LINK = re.compile(r"(\]\(\s*)([^\s()\[\]]*)")
_REFERENCE_DEF = re.compile(r"^( {0,3}\[[^\]]*\]:\s*)(\S+)", re.MULTILINE)


def markdown_literal(text: object) -> str:
    """Text that Markdown shows exactly as it is, on one line: a file name, a metadata value.

    Every ASCII punctuation character is backslash-escaped, so that ``[x](javascript:...)``,
    ``*stars*`` or ``<b>`` in a file name stay plain characters.
    """
    return _MD_PUNCT.sub(r"\\\1", " ".join(str(text).split()))


# What Markdown reads as markup inside a line of text: escapes, code, emphasis, links and
# images, raw HTML and entities, strikethrough, and JupyterLab's $math$ ...
_MD_INLINE = re.compile(r"([\\`*_\[\]<>&$~])")
# ... and at the start of a line: a heading, a quote, a list item or a rule.
_MD_LINE_START = re.compile(r"^(?:#{1,6}(?=\s|$)|\+(?=\s|$)|-(?=[-\s]|$)|\d{1,9}(?=[.)](?:\s|$)))")


def markdown_text(text: object) -> str:
    """Text on one line that Markdown shows as it is, with only the escapes it needs there:
    for a record people read as plain text too (``%chat export``), where
    :func:`markdown_literal` would write ``notes\\.txt``.

    >>> markdown_text("Travel cost 300 EUR (q1-2025). <b>*")
    'Travel cost 300 EUR (q1-2025). \\\\<b\\\\>\\\\*'
    """
    flat = _MD_INLINE.sub(r"\\\1", " ".join(str(text).split()))
    start = _MD_LINE_START.match(flat)
    if start is None:
        return flat
    end = start.end()
    if flat[:1].isdigit():  # "1. x" is a list item: escape its dot
        return f"{flat[:end]}\\{flat[end:]}"
    return f"\\{flat}"


def code_span(text: object) -> str:
    """``text`` on one line as inline code: shown exactly, nothing in it is markup (file
    names and ids), with a fence longer than any run of backticks in it."""
    flat = " ".join(str(text).split())
    fence = "`" * (max(map(len, re.findall("`+", flat)), default=0) + 1)
    pad = " " if flat[:1] == "`" or flat[-1:] == "`" else ""
    return f"{fence}{pad}{flat}{pad}{fence}"


def one_line(text: object, limit: int = 300) -> str:
    """``text`` on one line (whitespace collapsed) and at most ``limit`` characters."""
    flat = " ".join(str(text).split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def _unsafe_url(url: str) -> bool:
    # Browsers drop control characters and whitespace inside a scheme; Markdown drops
    # backslash escapes: compare what the browser would finally see.
    bare = "".join(ch for ch in url.replace("\\", "") if ord(ch) > 0x20).lower()
    scheme = _SCHEME.match(bare)
    return scheme is not None and scheme.group(1) not in _SAFE_SCHEMES


def _closes(line: str, fence: str) -> bool:
    """A closing fence to CommonMark and marked alike: the same character, at least as
    many, nothing after but spaces."""
    body = line.rstrip("\r\n")
    run = body.lstrip(" ")
    return (
        len(body) - len(run) <= 3
        and run.rstrip(" ") == fence[0] * len(run.rstrip(" "))
        and len(run.rstrip(" ")) >= len(fence)
    )


def _escape_prose(text: str) -> str:
    """Markdown outside fences: entities for ``&`` and ``<``, unsafe link targets dropped."""

    def target(m: re.Match[str]) -> str:
        return m.group(1) + ("#" if _unsafe_url(m.group(2)) else m.group(2))

    text = _HTML_TEXT.sub(lambda m: _ENTITIES[m.group()], text)
    # No images: some versions of marked (JupyterLab's renderer) put the alt text into
    # the attribute with its quotes unescaped, and a remote image is a tracking pixel.
    text = text.replace("![", "&#33;[")  # not "!\\[": marked unescapes \\[ in link text
    text = _INLINE_LINK.sub(target, text)
    return _REFERENCE_DEF.sub(target, text)


def safe_markdown(text: str) -> str:
    """Model output as Markdown that renders as written but can run nothing.

    Outside fenced code blocks ``&`` and ``<`` become entities (raw HTML shows as text),
    images show as their Markdown text, and links whose scheme is not http, https or
    mailto lose their target. Fenced code blocks that every parser reads as such (at
    column 0, after a blank line or plain text) are kept as they are, so that code with
    ``a < b`` reads right: inside a fence no parser renders HTML. After a fence-like
    line that some parser might read otherwise, everything is escaped. Inline code spans
    are escaped like the text around them (a span that some parser does not see as code
    would otherwise let HTML through), so ``<`` in inline code shows as ``&lt;``.
    """
    out: list[str] = []
    prose: list[str] = []  # lines outside fences, escaped together: a link may span lines
    fence = ""  # the open fence's run of ` or ~, "" outside a fence
    trusted = True  # False once some parser might disagree on where fences are
    simple = True  # the paragraph so far cannot hold a fence-like line (no list, quote, ...)
    for line in [*_LINE.findall(text), None]:
        if line is not None and fence:
            if _closes(line, fence):
                fence, simple = "", True
            elif _FENCE_CLOSE.match(line):  # a closing fence to some parsers only
                fence, trusted = "", False
            out.append(line if fence else escape_markdown_html(line))
            continue
        if line is not None and _FENCE_CLOSE.match(line):
            opened = _FENCE_OPEN.match(line.rstrip("\r\n"))
            if trusted and simple and opened and line.endswith(("\n", "\r")):
                out.append(_escape_prose("".join(prose)))
                prose.clear()
                fence = opened.group(1) or opened.group(2)
                out.append(escape_markdown_html(line))
                continue
            trusted = False  # a fence to some parser, text to another: trust none after
        if line is None:
            out.append(_escape_prose("".join(prose)))
            break
        prose.append(line)
        if not line.strip():
            simple = True
        elif _CONTAINER_LINE.match(line) or "|" in line:
            simple = False
    return "".join(out)


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


def code_blocks(text: str) -> list[str]:
    """The code of each code block of ``text`` (fenced or indented), without its last line
    break, in the order :func:`markdown_to_html` renders them as ``<pre>`` elements."""
    tokens = _renderer().parse(text)
    return [t.content.rstrip("\n") for t in tokens if t.type in ("fence", "code_block")]
