"""The text of an uploaded file, by kind: plain text and its relatives, HTML, PDF.

Which reader runs is decided by the file name's extension first (browsers and clients
often send ``application/octet-stream``), then by the content type. A file whose bytes
are not text (a NUL byte, or undecodable) yields ``None`` and takes no part in retrieval.
Only the first :data:`MAX_TEXT_BYTES` of a file are read: retrieval is for finding
passages, not for indexing a 500 MB log whole.
"""

from __future__ import annotations

import codecs
import contextlib
import logging
import re
import warnings
from html.parser import HTMLParser
from pathlib import Path

__all__ = ["MAX_TEXT_BYTES", "extract_text", "kind_of"]

MAX_TEXT_BYTES = 16 * 1024 * 1024

_HTML_EXT = {".html", ".htm", ".xhtml"}
_PDF_EXT = {".pdf"}
_TEXT_TYPES = ("text/", "application/json", "application/xml", "application/x-yaml")
# Characters that are never text; \x02 and \x03 are also retrieval's highlight markers.
_BLOCK_TAGS = (
    "address article aside blockquote br dd div dl dt fieldset figcaption figure footer "
    "form h1 h2 h3 h4 h5 h6 header hr li main nav ol p pre section table td th tr ul title"
)
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


def kind_of(filename: str, content_type: str) -> str:
    """``html``, ``pdf`` or ``text``: which reader a file gets."""
    suffix = Path(filename).suffix.lower()
    mime = content_type.split(";", 1)[0].strip().lower()
    if suffix in _HTML_EXT or (not suffix and mime in {"text/html", "application/xhtml+xml"}):
        return "html"
    if suffix in _PDF_EXT or mime == "application/pdf":
        return "pdf"
    return "text"


def extract_text(path: Path, *, filename: str, content_type: str) -> str | None:
    """The file's text, or ``None`` when it has none that can be extracted."""
    kind = kind_of(filename, content_type)
    if kind == "pdf":
        text = _pdf_text(path)
    else:
        text = _decode(path)
        if text is not None and kind == "html":
            text = html_to_text(text)
    if text is None:
        return None
    text = _CONTROL.sub(" ", text.replace("\r\n", "\n").replace("\r", "\n"))
    return text if text.strip() else None


def _decode(path: Path) -> str | None:
    """The file's first bytes as text: UTF-8 (BOM or not), UTF-16 with a BOM, else None."""
    with path.open("rb") as f:
        data = f.read(MAX_TEXT_BYTES)
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        with contextlib.suppress(UnicodeDecodeError):
            text = data[: len(data) // 2 * 2].decode("utf-16")
            return text if _mostly_printable(text) else None
        return None
    if b"\x00" in data[:65536]:
        return None
    decoder = codecs.getincrementaldecoder("utf-8-sig")()
    try:
        # final=False: a multi-byte character cut by MAX_TEXT_BYTES is dropped, not an error
        return decoder.decode(data, final=len(data) < MAX_TEXT_BYTES)
    except UnicodeDecodeError:
        return None


def _mostly_printable(text: str, sample: int = 4096) -> bool:
    """Whether decoded text reads as text: almost any bytes after a UTF-16 byte order mark
    decode, so a binary file that starts with one would otherwise be indexed as noise."""
    head = text[:sample]
    if not head:
        return True
    readable = sum(1 for ch in head if ch.isprintable() or ch in "\n\r\t")
    return readable / len(head) >= 0.95


class _TextOfHtml(HTMLParser):
    """Collects the visible text of an HTML page: no tags, scripts, styles or comments."""

    _SKIP = frozenset({"script", "style", "noscript", "template", "svg"})
    _BLOCK = frozenset(_BLOCK_TAGS.split())

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self._skipping: list[str] = []
        self.title: list[str] = []
        self._in_title = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "title":
            self._in_title = True
        elif tag in self._SKIP:
            self._skipping.append(tag)
        if tag in self._BLOCK:
            self.parts.append("\n")

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in self._BLOCK:
            self.parts.append("\n")

    def handle_endtag(self, tag: str) -> None:
        if tag == "title":
            self._in_title = False
        elif self._skipping and tag == self._skipping[-1]:
            self._skipping.pop()
        if tag in self._BLOCK:
            self.parts.append("\n")

    def handle_data(self, data: str) -> None:
        if self._in_title:
            self.title.append(data)
        elif not self._skipping:
            self.parts.append(data)


def html_to_text(html: str) -> str:
    """The visible text of an HTML document, its ``<title>`` first, one block per line."""
    parser = _TextOfHtml()
    parser.feed(html)
    parser.close()
    title = " ".join("".join(parser.title).split())
    lines = (" ".join(line.split()) for line in "".join(parser.parts).split("\n"))
    body = "\n".join(line for line in lines if line)
    return f"{title}\n{body}" if title else body


def _pdf_text(path: Path) -> str | None:
    """The text of a PDF's pages, a blank line between pages; None without pypdf."""
    try:
        from pypdf import PdfReader
    except ImportError:
        return None
    logging.getLogger("pypdf").setLevel(logging.ERROR)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            reader = PdfReader(path)
            pages = [page.extract_text() or "" for page in reader.pages]
    except Exception:  # a damaged PDF is a file without text, not a failed upload
        return None
    return "\n\n".join(p.strip() for p in pages)
