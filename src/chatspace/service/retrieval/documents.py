"""Readers of uploaded documents, one per kind, each on a well-kept library.

A reader yields the document's content in reading order: paragraphs (``str``), tables
(:class:`~.tables.Table`), or a :class:`~.tables.Piece` that brings its own passages (a
JSON array of records). :mod:`.extract` joins them into the text and its passages, and
stops pulling once the text is long enough, so readers are generators.

A reader also says where its blocks are, for citations (:mod:`.locations`): a
:class:`~chatspace.types.Location` it yields holds for the blocks after it (a PDF's page,
a slide, a notebook cell; line 1 of a text file, whose lines are then counted); a sheet,
a CSV, a Parquet file or a JSON array of flat records is a numbered table, which knows
its rows (a short sheet of ``key: value`` facts is at its sheet), as is a table on a PDF
page, at its page. A Word or ODT document has no location: a word processor lays out its
pages when it shows them, so no page number is in the file, and a row number would not
say which of its tables. Nor does HTML (its visible text's lines are not the lines of its
source), RTF, XML other than an export of records, or an e-mail (its lines are MIME's).

Libraries: pypdf (PDF; pure Python), python-docx (DOCX), openpyxl (XLSX, in read-only
mode, which streams rows), xlrd (XLS), python-pptx (PPTX), odfpy (ODT; ODS through
pandas' reader on it), nbformat (notebooks), Beautiful Soup on lxml (HTML), pyarrow
(Parquet, in row batches), striprtf (RTF), defusedxml (XML, without entities), and the
standard library for CSV, JSON, JSON Lines and e-mail. ``markitdown`` would cover most
at once, but it pulls in magika and with it onnxruntime (tens of MB) to guess file types
that the name already tells, and it renders to Markdown, where retrieval needs rows and
paragraphs.

Bounds, so that a hostile document costs little: text files are read up to
:data:`MAX_TEXT_BYTES`; other documents over :data:`MAX_DOCUMENT_BYTES` are not read; a
ZIP-based one (DOCX, XLSX, PPTX, ODT, ODS) whose members would unpack to more than
:data:`MAX_UNZIPPED_BYTES`, or that has more than :data:`MAX_ZIP_MEMBERS` members, is not
read (a ZIP member is never read past its declared size); PDFs and presentations are read
up to :data:`MAX_PAGES` pages or slides; tables up to the bounds of :mod:`.tables`.
"""

from __future__ import annotations

import codecs
import contextlib
import io
import json
import re
import zipfile
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from dataclasses import replace
from functools import cache
from itertools import chain, islice
from pathlib import Path
from typing import Any

from chatspace.types import Location

from .pdf_pages import page_blocks, without_running_lines
from .tables import (
    CONTROL,
    Piece,
    Table,
    key_value_text,
    records_piece,
    records_table,
    stacked_tables,
)
from .terms import CLASSIFIER_MARK

__all__ = [
    "MAX_DOCUMENT_BYTES",
    "MAX_PAGES",
    "MAX_TEXT_BYTES",
    "MAX_UNZIPPED_BYTES",
    "MAX_ZIP_MEMBERS",
    "Block",
    "clean",
    "decode",
    "kind_of",
    "read_document",
]

MAX_TEXT_BYTES = 16 * 1024 * 1024
MAX_DOCUMENT_BYTES = 64 * 1024 * 1024
MAX_UNZIPPED_BYTES = 256 * 1024 * 1024
MAX_ZIP_MEMBERS = 10_000
MAX_PAGES = 2_000

Block = str | Table | Piece | Location

_BY_SUFFIX = {
    ".pdf": "pdf", ".docx": "docx", ".xlsx": "xlsx", ".xlsm": "xlsx", ".xls": "xls",
    ".pptx": "pptx", ".odt": "odt", ".ods": "ods", ".html": "html", ".htm": "html",
    ".xhtml": "html", ".eml": "email", ".rtf": "rtf", ".xml": "xml",
    ".ipynb": "notebook", ".csv": "csv", ".tsv": "tsv", ".parquet": "parquet",
    ".json": "json", ".jsonl": "jsonl", ".ndjson": "jsonl", ".md": "markdown",
    ".markdown": "markdown",
}  # fmt: skip
_BY_TYPE = {
    "application/pdf": "pdf",
    "application/vnd.openxmlformats-officedocument.wordprocessingml.document": "docx",
    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": "xlsx",
    "application/vnd.ms-excel": "xls",
    "application/vnd.openxmlformats-officedocument.presentationml.presentation": "pptx",
    "application/vnd.oasis.opendocument.text": "odt",
    "application/vnd.oasis.opendocument.spreadsheet": "ods",
    "message/rfc822": "email",
    "application/rtf": "rtf",
    "text/rtf": "rtf",
    "application/xml": "xml",
    "text/xml": "xml",
    "text/html": "html",
    "application/xhtml+xml": "html",
    "application/x-ipynb+json": "notebook",
    "text/csv": "csv",
    "text/tab-separated-values": "tsv",
    "application/vnd.apache.parquet": "parquet",
    "application/json": "json",
    "application/jsonl": "jsonl",
    "application/x-ndjson": "jsonl",
    "text/markdown": "markdown",
}
_ZIPPED = {"docx", "xlsx", "pptx", "odt", "ods"}
_FACT_ROWS = 50
"""The most rows of a sheet read as ``key: value`` lines: a sheet that says what a workbook
is (its source, its units) is short; a longer one of two columns is data."""
_BLANKS = re.compile(r"\s+")
_MARKDOWN_PARSED = 4 * 1024 * 1024
"""The characters of a Markdown file that are parsed: a hostile file of 16 MB of link
definitions took 37 s of CPU to parse, 4 MB take 9, Node.js's longest page 0.1."""
_COMMENTS = re.compile(r"\s*(?:<!--.*?-->\s*)+", re.S)
_TABLE_AT = "\x00table "
"""Where a data table stood in an HTML page's text, on a line of its own (no page's text
holds NUL: :func:`clean` made it a blank)."""
_PROSE_CELL = 120
"""Characters of a cell past which an HTML table holds prose (a reference's descriptions),
read a cell a line rather than as rows of data."""
_CAPTION_CHARS = 100
"""The longest title of a table."""
_KEY_CHARS = 60
"""The longest first cell of an HTML table read as ``key: value`` lines: a label."""
_DROPPED_TAGS = ("script", "style", "noscript", "template", "svg", "head", "nav")
_NAVIGATION = 0.9
"""Share of link text from which a line is navigation, not text: an entry of a table of
contents, a "See also" line of names, a Prev / Up / Next bar. Lower shares are text: a
reference links every type and name it mentions (Node.js's API lists its parameters as
"path <string> | <Buffer> | <URL>", two thirds links), and so does a book's index
("vacuum_cost_delay configuration parameter, Cost-based Vacuum Delay")."""
_NAV_RELS = frozenset({"next", "prev", "previous", "up", "contents", "index", "start"})
"""The ``rel`` of a link that moves through a document (texinfo's "Next: Introduction,
Previous: R FAQ, Up: R FAQ [Contents]", whose labels and brackets are a quarter of the
line): a line that holds one is navigation, whatever share of it is linked."""
_NAV_MARK = "\x10"
_LINK_START, _LINK_END = "\x0e", "\x0f"
"""Around a link's text while lines are measured: control characters, which :func:`_lines`
makes blanks in the page's own text (a character reference can make one)."""
_LINKED = re.compile(f"{_LINK_START}([^{_LINK_END}]*){_LINK_END}")
_BLOCK_TAGS = {
    "address", "article", "aside", "blockquote", "br", "dd", "div", "dl", "dt", "fieldset",
    "figcaption", "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header",
    "hr", "li", "main", "ol", "p", "pre", "section", "table", "td", "th", "tr", "ul",
}  # fmt: skip


def kind_of(filename: str, content_type: str) -> str:
    """Which reader a file gets: by the name's extension, else its content type, else
    ``text`` (anything that decodes as UTF-8 is text)."""
    suffix = Path(filename).suffix.lower()
    if suffix in _BY_SUFFIX:
        return _BY_SUFFIX[suffix]
    return _BY_TYPE.get(content_type.split(";", 1)[0].strip().lower(), "text")


def read_document(path: Path, kind: str, *, size: int) -> Generator[Block, None, None]:
    """The content of the file at ``path`` read as ``kind``; nothing when it is too large.

    ``size`` is the passage size, for readers whose pieces carry their own passages.
    Raises whatever the library raises on a damaged file; the caller treats that as a
    file without text.
    """
    if kind in _TEXT_READERS:
        text = decode(path)
        if text is not None:
            yield from _TEXT_READERS[kind](clean(text), size)
        return
    if path.stat().st_size > MAX_DOCUMENT_BYTES:
        return
    if kind in _ZIPPED and not _zip_within_bounds(path):
        return
    yield from _READERS[kind](path)


def decode(path: Path) -> str | None:
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


def clean(text: str) -> str:
    """Text with ``\n`` line ends and no control characters (``\x02``/``\x03`` are
    also the search's highlight markers)."""
    return CONTROL.sub(" ", text.replace("\r\n", "\n").replace("\r", "\n"))


def _mostly_printable(text: str, sample: int = 4096) -> bool:
    """Whether decoded text reads as text: almost any bytes after a UTF-16 byte order mark
    decode, so a binary file that starts with one would otherwise be indexed as noise."""
    head = text[:sample]
    if not head:
        return True
    readable = sum(1 for ch in head if ch.isprintable() or ch in "\n\r\t")
    return readable / len(head) >= 0.95


def _zip_within_bounds(path: Path) -> bool:
    """Whether a ZIP-based document unpacks to a bounded size (a zip bomb does not)."""
    with zipfile.ZipFile(path) as archive:
        members = archive.infolist()
    total = sum(m.file_size for m in members)
    return len(members) <= MAX_ZIP_MEMBERS and total <= MAX_UNZIPPED_BYTES


# ---------------------------------------------------------------- text files


def _plain(text: str, size: int) -> Iterator[Block]:
    yield Location(line=1)
    yield text


def _csv(text: str, size: int) -> Iterator[Block]:
    """A CSV, whatever it is separated by (:func:`_delimiter`); written back with commas."""
    yield from _delimited(text, _delimiter(text))


def _tsv(text: str, size: int) -> Iterator[Block]:
    yield from _delimited(text, "\t")


def _delimited(text: str, delimiter: str) -> Iterator[Table]:
    import csv

    rows = csv.reader(text.splitlines(), delimiter=delimiter)
    for table in stacked_tables(rows):
        yield Table(table, delimiter="\t" if delimiter == "\t" else ",", numbered=True)


_SNIFFED_LINES = 50


def _delimiter(text: str) -> str:
    """What separates a CSV's cells, as ``csv.Sniffer`` guesses it from the first lines
    among a comma, a semicolon, a tab and a bar; a comma when it cannot, or when commas
    split every line into as many cells, two at least (a column of "a;b;c" tags is no
    reason to split on semicolons). Programs set to a European locale write ``;``, the
    comma being their decimal point ("Order No;Line;Net Amount EUR" over
    "SO-25-004512;10;251,45"): read with commas, such a file was a table of one column."""
    import csv

    lines = [line for line in text.splitlines()[:_SNIFFED_LINES] if line.strip()]
    try:
        found = csv.Sniffer().sniff("\n".join(lines), delimiters=",;\t|").delimiter
    except csv.Error:
        return ","
    widths = {len(row) for row in csv.reader(lines)}
    return "," if len(widths) == 1 and widths.pop() > 1 else found


_MAIL_HEADERS = ("From", "To", "Cc", "Date", "Subject")


def _email(text: str, size: int) -> Iterator[Block]:
    """An e-mail saved as a file (``.eml``), parsed by the standard library: who wrote to
    whom, when and on what, as ``key: value`` lines; its body, the plain text or else the
    HTML as a page's text (quoted replies kept); then each attachment as a file of its
    name is read, led by that name (:func:`_attachment`). Read as it was stored, a
    message was its MIME: quoted-printable lines broken by ``=`` ("the all= ocation"),
    an HTML copy of the body, and an attachment in base64. No part is at a location: the
    file's lines are MIME's, and the contract names no attachment."""
    from email import message_from_string, policy

    message = message_from_string(text, policy=policy.default)
    yield "\n".join(f"{name}: {message[name]}" for name in _MAIL_HEADERS if message[name])
    body = message.get_body(preferencelist=("plain", "html"))
    with contextlib.suppress(LookupError, ValueError):  # a charset Python does not know
        content = clean(body.get_content()) if body is not None else ""
        html = body is not None and body.get_content_subtype() == "html"
        yield from _unplaced(_html(content, size) if html else [content])
    for part in message.iter_attachments():
        yield from _titled(_attachment(part, size), part.get_filename() or "")


def _attachment(part: Any, size: int) -> Iterator[Block]:
    """An e-mail's attachment read by the reader of its name (else its type); nothing for
    a kind no reader knows, or a message attached."""
    import tempfile

    name = part.get_filename() or ""
    kind = kind_of(name, part.get_content_type())
    content = part.get_content()
    if isinstance(content, str) and kind in _TEXT_READERS:
        yield from _TEXT_READERS[kind](clean(content), size)
    elif isinstance(content, bytes) and kind in _READERS:
        with tempfile.NamedTemporaryFile(suffix=Path(name).suffix) as stored:
            stored.write(content)
            stored.flush()
            yield from read_document(Path(stored.name), kind, size=size)


def _titled(blocks: Iterable[Block], name: str) -> Iterator[Block]:
    """An attachment's blocks at no location, led by its name: its tables titled with it
    (and their sheet's), its text after it. A row or page number would not say of which
    attachment. A damaged attachment ends where its reader fails, and the message does
    not: the rest of it is still read."""
    said = False
    with contextlib.suppress(Exception):
        for block in _unplaced(blocks):
            if isinstance(block, Table):
                rows = _rows_until_failure(block.rows)
                title = f"{name}: {block.title}" if block.title else name
                yield replace(block, rows=rows, title=title, numbered=False)
                continue
            if not said:
                yield name
                said = True
            yield block


def _rows_until_failure(rows: Iterable[Sequence[object]]) -> Iterator[Sequence[object]]:
    with contextlib.suppress(Exception):
        yield from rows


def _unplaced(blocks: Iterable[Block]) -> Iterator[Block]:
    return (block for block in blocks if not isinstance(block, Location))


def _rtf(text: str, size: int) -> Iterator[Block]:
    """A Rich Text document's text, as ``striprtf`` reads it (its ``\\'e9`` escapes as
    Windows-1252, the code page of almost every RTF writer; Unicode ``\\u`` escapes
    as themselves). Read as text, a memo was its control words
    (``{\\pard\\sa120 Customers will be credited ... \\'8015.00``)."""
    from striprtf.striprtf import rtf_to_text

    yield rtf_to_text(text, errors="replace")


def _xml(text: str, size: int) -> Iterator[Block]:
    """An XML export of records (a root over elements of one name, two at least: a
    product master's ``<Product>``) as the table a JSON export of them is: a record's
    attributes and children are its columns (``code``, ``Name``, ``ListPrice``,
    ``ListPrice.currency``), the root's attributes ``key: value`` lines above it. Any
    other XML is the text of its elements, a line each. Parsed by ``defusedxml``, which
    refuses entity definitions (a "billion laughs") and external references; XML it
    refuses or cannot parse is read as plain text."""
    from defusedxml import DefusedXmlException
    from defusedxml.ElementTree import ParseError, fromstring

    try:
        root = fromstring(text)
    except (ParseError, DefusedXmlException, ValueError):
        yield from _plain(text, size)
        return
    records = list(root)
    rows = [_xml_record(r, depth=1) for r in records]
    found = None
    if len(records) > 1 and len({r.tag for r in records}) == 1 and all(rows):
        said = {_local(k): v for k, v in root.attrib.items()}
        found = records_table({**said, _local(records[0].tag): rows})
    if found is None:
        yield "\n".join(t.strip() for t in root.itertext() if t.strip())
    else:
        yield from found


_XML_NESTING = 4
"""How deep an XML record's elements may nest and still be read as its columns."""


def _xml_record(element: Any, *, depth: int) -> dict[str, object] | None:
    """An element's attributes and its children's texts by name, a child's attributes and
    children under ``child.name``; a name repeated joins its texts with "; ". None past
    :data:`_XML_NESTING` levels."""
    if depth > _XML_NESTING:
        return None
    record: dict[str, object] = {_local(k): v for k, v in element.attrib.items()}
    for child in element:
        name, text = _local(child.tag), (child.text or "").strip()
        if text:
            record[name] = f"{record[name]}; {text}" if name in record else text
        nested = _xml_record(child, depth=depth + 1)
        if nested is None:
            return None
        record |= {f"{name}.{k}": v for k, v in nested.items()}
    return record


def _local(tag: str) -> str:
    """A tag's or an attribute's name without its namespace."""
    return tag.rpartition("}")[2]


def _markdown(text: str, size: int) -> Iterator[Block]:
    """Markdown as its reader sees it: what never shows is blanked, its lines kept, so that
    a quote's line is the file's. That is an HTML comment on lines of its own (Node.js's
    API documents each function's history in ``<!-- YAML ... -->``, which was quoted for
    "What is os.EOL?", "added: v0.7.8") and a link reference definition (``[`path.sep`]:
    #pathsep``). A code block keeps them. A pipe table is a table (GitHub's extension:
    meeting notes count "PIREPs by ATA chapter" in one), at no line: its delimiter row
    is no row of its text; the paragraph that introduces it with a colon leads it. Read
    by markdown-it-py's block rules: the lines no block holds are blank or such
    definitions. Only the first :data:`_MARKDOWN_PARSED` characters are parsed; the rest
    is read as it is."""
    from markdown_it import MarkdownIt

    parser = MarkdownIt("commonmark").enable("table")
    parser.disable("inline")
    lines = text.split("\n")
    head, parsed = text, len(lines)
    if len(text) > _MARKDOWN_PARSED:  # whole lines, up to the bound
        head = text[: text.rfind("\n", 0, _MARKDOWN_PARSED) + 1]
        parsed = head.count("\n")
    shown = [False] * parsed + [True] * (len(lines) - parsed)
    tables: list[tuple[int, int, list[list[str]]]] = []
    rows: list[list[str]] | None = None  # of the table being read
    for token in parser.parse(head):
        if token.level == 0 and token.map and not _COMMENTS.fullmatch(token.content):
            shown[token.map[0] : token.map[1]] = [True] * (token.map[1] - token.map[0])
        if token.type == "table_open" and token.map:
            rows = []
            tables.append((token.map[0], token.map[1], rows))
        elif token.type == "table_close":
            rows = None
        elif token.type == "tr_open" and rows is not None:
            rows.append([])
        elif token.type == "inline" and rows:
            rows[-1].append(_inline_text(token.content))
    visible = [line if keep else "" for line, keep in zip(lines, shown, strict=True)]
    at = 0
    for start, end, cells in tables:
        top = _caption_line(visible, at, start)
        yield Location(line=at + 1)
        yield "\n".join(visible[at:top])
        yield Location()
        caption = " ".join(line.strip() for line in visible[top:start] if line.strip())
        yield Table([[caption], *cells] if caption else cells)
        at = end
    yield Location(line=at + 1)
    yield "\n".join(visible[at:])


def _caption_line(lines: list[str], at: int, start: int) -> int:
    """Where the paragraph that introduces a table starting at line ``start`` begins (one
    that ends with a colon: "PIREPs by ATA chapter for Q2 2025:"), so that the table's
    passage says what it counts; ``start`` when none does."""
    end = start
    while end > at and not lines[end - 1].strip():
        end -= 1
    if end == at or not lines[end - 1].rstrip().endswith(":"):
        return start
    top = end - 1
    while top > at and lines[top - 1].strip():
        top -= 1
    return top


def _inline_text(markdown: str) -> str:
    """A table cell's Markdown as it shows: ``**8**`` is 8, ``[docs](url)`` is docs."""
    (inline,) = _inline_parser().parseInline(markdown)
    return "".join(t.content for t in inline.children or () if t.type in _SHOWN_INLINE)


@cache
def _inline_parser() -> Any:
    """One parser of a cell's inline Markdown for every cell: making one costs four times
    the parsing of a short cell, and parsing leaves it as it was."""
    from markdown_it import MarkdownIt

    return MarkdownIt("commonmark")


_SHOWN_INLINE = frozenset({"text", "code_inline", "html_inline"})


def _json(text: str, size: int) -> Iterator[Block]:
    """A table of records (its rows numbered), after what an export says of itself;
    else the file's lines."""
    found = _records(text, lines=False)
    if found is None:
        yield Location(line=1)
        yield records_piece(text, size=size) or text
    else:
        yield from found


def _json_lines(text: str, size: int) -> Iterator[Block]:
    """JSON Lines (a log's or an export's records, one object a line) as the table a JSON
    array of the same records is; else the file's lines."""
    found = _records(text, lines=True)
    yield from _plain(text, size) if found is None else found


def _records(text: str, *, lines: bool) -> tuple[str | Table, ...] | None:
    """The table of records of a JSON file (of JSON Lines: one value a line), and what it
    says of itself (:func:`.tables.records_table`); None when the text is no JSON, or its
    JSON no such table."""
    try:
        data = (
            [json.loads(line) for line in text.splitlines() if line.strip()]
            if lines
            else json.loads(text)
        )
    except (ValueError, RecursionError):
        return None
    return records_table(data)


def _html(text: str, size: int) -> Iterator[Block]:
    """The visible text of an HTML document, its ``<title>`` first, one block per line,
    its data tables (:func:`_data_table`) as tables in their place, and its tables of
    facts (:func:`_facts_table`) as ``key: value`` lines.

    Line breaks of the source inside a paragraph are blanks, as a browser shows them (a
    manual wrapped at 80 columns would otherwise cut its sentences at every line end);
    only ``<pre>`` keeps its lines. A cell's paragraphs are one cell ("concat_ws ( sep
    text, ... ) → text", then what it does).

    Navigation is left out: ``<nav>``, and by its link density, as readability and
    jusText judge it, a line (outside ``<pre>``, where linked names are code) that is
    links and little else (:data:`_NAVIGATION`). Each page of PostgreSQL's manual
    otherwise began with "Prev", "Up", "Home", "Next", and its chapters with their tables
    of contents: words of every page, and lines in the passages a model is sent."""
    from bs4 import BeautifulSoup

    soup = BeautifulSoup(text, "lxml")
    title = " ".join(soup.title.get_text().split()) if soup.title else ""
    for tag in soup.find_all(_DROPPED_TAGS):
        tag.decompose()
    for classifier in soup.find_all(class_="classifier"):
        # as its stylesheet's ``.classifier:before`` shows it: "sep : str, default ','",
        # not "sepstr, default ','" (NumPy-style parameters: pandas, SciPy, scikit-learn)
        classifier.insert_before(CLASSIFIER_MARK)
    found: list[Table | str] = []
    at: dict[int, int] = {}
    for table in _innermost_tables(soup):
        block: Table | str | None
        if _headed(table):
            rows = _data_table(table)
            block = Table(rows, title=_caption(table)) if rows is not None else None
        else:
            block = _facts_table(table)
        if block is not None:
            at[id(table)] = len(found)
            found.append(block)
    lines = _lines(soup, at)
    paragraph = [title] if title else []
    for line in lines:
        if line.startswith(_TABLE_AT) and line[len(_TABLE_AT) :].isdigit():
            if paragraph:
                yield "\n".join(paragraph)
            paragraph = []
            data = found[int(line[len(_TABLE_AT) :])]
            yield data if isinstance(data, str) else key_value_text(data.rows, header=True) or data
        elif line:
            paragraph.append(line)
    if paragraph:
        yield "\n".join(paragraph)


def _lines(soup: Any, tables: dict[int, int]) -> list[str]:
    """The page's visible text in lines as a browser breaks them: at each block tag's
    start and end, and around each data table (``tables``: its number by the ``id`` of
    its tag), which is a line of its own naming its number. Line breaks of the source are
    blanks outside ``<pre>``; navigation lines are empty (:func:`_text_of`).

    One walk of the tree, with a stack: a line break inserted before and after each
    block tag, for ``get_text``, cost the tree's depth each time (a page of 20,000
    nested blocks took 81 s to read)."""
    from bs4.element import CData, NavigableString, Tag

    parts: list[str] = []
    stack: list[tuple[Any, bool]] = [(soup, False)]  # (node or text to add, in <pre>)
    while stack:
        node, in_pre = stack.pop()
        if type(node) is str:
            parts.append(node)
        elif isinstance(node, Tag):
            if id(node) in tables:
                parts.append(f"\n{_TABLE_AT}{tables[id(node)]}\n")
                continue
            if node.name in _BLOCK_TAGS:
                parts.append("\n")
                stack.append(("\n", in_pre))
            if node.name == "a" and not in_pre:
                if _NAV_RELS.intersection(node.get("rel") or ()):
                    parts.append(_NAV_MARK)
                parts.append(_LINK_START)
                stack.append((_LINK_END, in_pre))
            inside = in_pre or node.name == "pre"
            stack.extend((child, inside) for child in reversed(node.contents))
        elif type(node) in (NavigableString, CData):
            shown = CONTROL.sub(" ", node)
            parts.append(_BLANKS.sub(" ", shown) if "\n" in shown and not in_pre else shown)
    return [_text_of(line) for line in "".join(parts).split("\n")]


def _text_of(line: str) -> str:
    """A line of the page with its blanks made single and its link marks taken out; empty
    when it is navigation (:data:`_NAVIGATION`, :data:`_NAV_RELS`)."""
    if _NAV_MARK in line:
        return ""
    linked = sum(len("".join(link.split())) for link in _LINKED.findall(line))
    words = line.replace(_LINK_START, "").replace(_LINK_END, "").split()
    if linked and linked >= _NAVIGATION * sum(map(len, words)):
        return ""
    return " ".join(words)


def _caption(table: Any) -> str | None:
    """A table's title, taken out of the page's text: its ``<caption>``, or a short
    block just before it ("Table 8.2. Numeric Types" in a ``<p>`` above the ``<div>`` that
    holds the table, as DocBook writes it)."""
    caption = table.find("caption")
    if caption is None:
        node = table
        while node.parent is not None and node.find_previous_sibling() is None:
            if "".join(s for s in node.previous_siblings if isinstance(s, str)).strip():
                return None
            node = node.parent
        caption = node.find_previous_sibling()
        if caption is None or caption.name == "table":
            return None
        if caption.find(["table", "img"]) is not None:
            return None
    title = " ".join(caption.get_text(" ").split())
    if not title or len(title) > _CAPTION_CHARS:
        return None
    caption.decompose()
    return title


def _innermost_tables(soup: Any) -> list[Any]:
    """The page's tables that hold no table, in the page's order, found in one walk of
    the tree: asking each table with ``find`` walks down its last children first, the
    depth of the nesting for every table of nested ones (4,000 took 45 s)."""
    from bs4.element import Tag

    tables: list[Any] = []
    holding: set[int] = set()
    stack: list[tuple[Any, Any]] = [(soup, None)]  # (tag, the innermost table around it)
    while stack:
        tag, around = stack.pop()
        if tag.name == "table":
            if around is not None:
                holding.add(id(around))
            tables.append(tag)
            around = tag
        stack.extend((child, around) for child in reversed(tag.contents) if isinstance(child, Tag))
    return [table for table in tables if id(table) not in holding]


def _data_table(table: Any) -> list[list[str]] | None:
    """The rows of cell texts of a table with a header (:func:`_headed`) that holds no
    table and no prose; None for one that lays a page out (a manual's navigation bar)."""
    rows = _cells(table)
    prose = any(len(cell) > _PROSE_CELL for row in rows for cell in row)
    return rows if len(rows) >= 2 and not prose else None


def _facts_table(table: Any) -> str | None:
    """A table without a header of two columns whose first cells are short and name each
    thing once (a directive's "Default: | KeepAliveTimeout 5" in Apache's manual, a
    converter's "path | like string but also accepts slashes" in Flask's) as ``key:
    value`` lines, as Word's are read (:func:`~.tables.key_value_text`); None for any
    other table. Read a cell a line, a value stood apart from what it is, and Apache's
    labels, links alone on their line, were left out as navigation."""
    rows = [row for row in _cells(table) if any(row)]
    keys = [row[0] for row in rows]
    if len(rows) < 2 or any(len(row) != 2 for row in rows) or len(set(keys)) < len(keys):
        return None
    if not all(0 < len(key) <= _KEY_CHARS for key in keys):
        return None
    return key_value_text(rows, header=False)


def _headed(table: Any) -> bool:
    """Whether an HTML table has a header: a ``<thead>``, or a first row of ``<th>``
    cells (at least two)."""
    first = table.find("tr")
    return table.find("thead") is not None or (
        first is not None
        and len(cells := first.find_all(["th", "td"])) >= 2
        and all(c.name == "th" for c in cells)
    )


def _cells(table: Any) -> list[list[str]]:
    """The texts of an HTML table's cells, by row, as a browser shows them: blanks made
    single, a blank where a block starts, none around an inline tag (Apache's
    ``<code>KeepAliveTimeout <var>num</var>[ms]</code>`` is "KeepAliveTimeout num[ms]")."""
    from bs4.element import CData, NavigableString, Tag

    def text(node: Any) -> str:
        if isinstance(node, Tag):
            return " " if node.name in _BLOCK_TAGS else ""
        return str(node) if type(node) in (NavigableString, CData) else ""  # not a comment

    rows = []
    for tr in table.find_all("tr"):
        row = []
        for cell in tr.find_all(["th", "td"]):
            row.append(" ".join("".join(map(text, cell.descendants)).split()))
        rows.append(row)
    return rows


def _notebook(text: str, size: int) -> Iterator[Block]:
    """Markdown and code cells at their cell (numbered as the notebook shows them, from
    1): a cell's source, then a code cell's outputs (:func:`_output`); raw cells are left
    out. An analysis states its results in its outputs ("Education 3 91614.81"), which a
    reader of the notebook sees under the code: left out, "the Education segment's open
    balance" was answered by the code that computed it."""
    import nbformat

    notebook = nbformat.reads(text, as_version=nbformat.NO_CONVERT)
    for number, cell in enumerate(notebook.get("cells", []), start=1):
        kind = cell.get("cell_type")
        if kind not in {"markdown", "code"}:
            continue
        source = _joined(cell.get("source", ""))
        outputs = cell.get("outputs", []) if kind == "code" else []
        if source.strip() or outputs:
            yield Location(cell=number)
        if source.strip():
            yield source
        for output in outputs if isinstance(outputs, list) else ():
            yield from _output(output, size)


_OUTPUT_CHARS = 256 * 1024
"""The characters of one output read: a loop's log of megabytes says little more."""
_SHOWN_TYPES = ("text/html", "text/markdown", "text/plain")
"""What a result or a display shows, in the order JupyterLab prefers them; images and
widgets are left out."""
_FRAME_FOOTER = re.compile(r"^\[\d+ rows x \d+ columns\]$")


def _output(output: Any, size: int) -> Iterator[Block]:
    """What a code cell's output shows as text: printed text, or a result's (a display's)
    HTML (a DataFrame's table: :func:`_html`), Markdown or plain text; a DataFrame printed
    as text reads as a table (:func:`_printed_frame`). Errors (a traceback in terminal
    colours) are left out."""
    kind = output.get("output_type") if isinstance(output, dict) else None
    if kind == "stream":
        shown, text = "text/plain", _joined(output.get("text", ""))
    elif kind in {"execute_result", "display_data"} and isinstance(output.get("data"), dict):
        data = output["data"]
        shown = next((t for t in _SHOWN_TYPES if t in data), "")
        text = _joined(data.get(shown, ""))
    else:
        return
    text = clean(text[:_OUTPUT_CHARS])
    if not text.strip():
        return
    if shown == "text/html":
        yield from _html(text, size)
    elif shown == "text/markdown":  # at its cell, not at lines of its own
        yield from (b for b in _markdown(text, size) if not isinstance(b, Location))
    else:
        yield _printed_frame(text) or text


def _printed_frame(text: str) -> Table | None:
    """A DataFrame as ``print`` writes it: a line of column names over right-aligned
    columns, each row led by its index (and a line naming the index, "segment", when it
    has a name); read by ``pandas.read_fwf``, which infers the columns from the text's
    alignment. None for other text: fewer than two rows, one column, a Series ("dtype:"
    ends it), or lines the columns do not fit."""
    import pandas as pd

    lines = [line for line in text.splitlines() if line.strip()]
    if lines and _FRAME_FOOTER.match(lines[-1].strip()):
        lines.pop()
    if len(lines) < 3 or lines[-1].lstrip().startswith(("dtype:", "Name:")):
        return None
    try:
        frame = pd.read_fwf(io.StringIO("\n".join(lines)), colspecs="infer", dtype=str)
    except (ValueError, pd.errors.ParserError):
        return None
    header = ["" if str(c).startswith("Unnamed: ") else str(c) for c in frame.columns]
    rows = frame.fillna("").values.tolist()
    if rows and len(frame.columns) > 1 and not any(rows[0][1:]):  # the index's name
        header[0] = rows.pop(0)[0]
    if len(header) < 2 or len(rows) < 2 or sum(map(bool, header)) < 2:
        return None
    if any(not row[-1] for row in rows):
        return None
    return Table([header, *rows])


def _joined(source: object) -> str:
    """A notebook's text, which it may store as a list of lines."""
    return "".join(map(str, source)) if isinstance(source, list) else str(source)


_TEXT_READERS: dict[str, Callable[[str, int], Iterator[Block]]] = {
    "text": _plain,
    "csv": _csv,
    "tsv": _tsv,
    "json": _json,
    "jsonl": _json_lines,
    "email": _email,
    "rtf": _rtf,
    "xml": _xml,
    "html": _html,
    "markdown": _markdown,
    "notebook": _notebook,
}

# ---------------------------------------------------------------- binary documents


def _pdf(path: Path) -> Iterator[Block]:
    """Each page's text (pypdf's layout-free extraction), a block per page, at its page,
    without its running header and footer (:func:`.pdf_pages.without_running_lines`,
    which needs the pages around each: they are read first, up to as much text as a file
    keeps); its tables as tables (:func:`.pdf_pages.page_blocks`)."""
    import logging

    from pypdf import PdfReader

    logging.getLogger("pypdf").setLevel(logging.ERROR)
    reader = PdfReader(path)
    if reader.is_encrypted and not reader.decrypt(""):
        return
    pages: list[str] = []
    read = 0
    for page in islice(reader.pages, MAX_PAGES):
        pages.append((page.extract_text() or "").strip())
        read += len(pages[-1])
        if read > MAX_TEXT_BYTES:  # more than a file's text is kept: no page further
            break
    header: list[str] | None = None  # of a table that ends a page, for the next
    for number, text in enumerate(without_running_lines(pages), start=1):
        yield Location(page=number)
        blocks, header = page_blocks(text, reader.pages[number - 1], header)
        yield from blocks


def _docx(path: Path) -> Iterator[Block]:
    """The page headers' text, then paragraphs and tables in the body's order, then the
    page footers' text (:func:`_docx_margins`); a two-column table of facts as ``key:
    value`` lines; a table in a table's cell after the table (:func:`_docx_table`); a
    footnote, an endnote or a comment after the paragraph or table that refers to it
    (:func:`_docx_notes`)."""
    import docx

    document = docx.Document(str(path))
    notes = _docx_notes(document.part)
    yield from _docx_margins(section.header for section in document.sections)
    yield from _docx_content(document, notes)
    yield from _docx_margins(section.footer for section in document.sections)


def _docx_content(
    container: Any, notes: dict[tuple[str, str], str] | None = None
) -> Iterator[Block]:
    """A document's or a header's paragraphs and tables, in order, each followed by the
    notes it refers to."""
    from docx.table import Table as DocxTable

    for item in container.iter_inner_content():
        if isinstance(item, DocxTable):
            yield from _docx_table(item)
        else:
            yield item.text
        if notes:
            for reference in item._element.iter(*_NOTE_REFERENCES):
                found = notes.pop((reference.tag, reference.get(_W_ID)), None)
                if found:
                    yield found


_W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
_W_ID = f"{_W}id"
# A reference's tag -> the part's relationship, its notes' tag, and how a note is led.
_NOTE_KINDS = {
    f"{_W}footnoteReference": ("footnotes", f"{_W}footnote", "Footnote"),
    f"{_W}endnoteReference": ("endnotes", f"{_W}endnote", "Endnote"),
    f"{_W}commentReference": ("comments", f"{_W}comment", "Comment"),
}
_NOTE_REFERENCES = tuple(_NOTE_KINDS)


def _docx_notes(part: Any) -> dict[tuple[str, str], str]:
    """The document's footnotes, endnotes and comments as lines, by their reference's tag
    and id: "Footnote 2: ...", "Comment (Ann Byrne): ...". python-docx reads none of
    them, yet a report's footnote or a reviewer's comment often says what the body does
    not (the source of a figure, a correction). A note is numbered as Word shows it, in
    the order the body first refers to it; one no paragraph refers to is not read."""
    from docx.oxml.parser import parse_xml
    from lxml import etree

    notes: dict[tuple[str, str], str] = {}
    related = {
        rel.reltype.rsplit("/", 1)[-1]: rel.target_part
        for rel in part.rels.values()
        if not rel.is_external
    }
    references = list(part.element.iter(*_NOTE_REFERENCES))
    for tag, (name, note_tag, lead) in _NOTE_KINDS.items():
        try:
            root = parse_xml(related[name].blob)
        except (KeyError, etree.XMLSyntaxError):  # none, or broken: the body is still read
            continue
        texts = {
            note.get(_W_ID): (note.get(f"{_W}author"), _docx_note_text(note))
            for note in root.iter(note_tag)
        }
        order = dict.fromkeys(r.get(_W_ID) for r in references if r.tag == tag)
        for number, key in enumerate(order, start=1):
            author, text = texts.get(key, (None, ""))
            if not text:
                continue
            if lead == "Comment":  # a comment is its author's; a note, numbered
                notes[(tag, key)] = f"Comment ({author}): {text}" if author else f"Comment: {text}"
            else:
                notes[(tag, key)] = f"{lead} {number}: {text}"
    return notes


def _docx_note_text(note: Any) -> str:
    """A note's paragraphs' text, each on its line."""
    lines = ("".join(t.text or "" for t in p.iter(f"{_W}t")).strip() for p in note.iter(f"{_W}p"))
    return "\n".join(line for line in lines if line)


def _docx_table(table: Any, title: str | None = None) -> Iterator[Block]:
    """A Word table, then each table in its cells, titled with that cell's text: a cell's
    text holds only its own paragraphs, so a table laid out in another's cell (a report's
    mapping results under "Temperature mapping, July 2025") was read by no one."""
    rows = [[cell.text for cell in row.cells] for row in table.rows]
    facts = key_value_text(rows, header=_docx_header(table))
    if facts is None:
        yield Table(rows, title=title)
    else:
        yield "\n".join(line for line in [title, facts] if line)
    seen: dict[int, object] = {}  # the cells' elements, kept: their ids stay theirs
    for row in table.rows:
        for cell in row.cells:  # a merged cell is in each row and column it spans
            if id(cell._tc) not in seen:
                seen[id(cell._tc)] = cell._tc
                for inner in cell.tables:
                    yield from _docx_table(inner, cell.text.strip() or None)


def _docx_margins(parts: Iterable[Any]) -> Iterator[Block]:
    """The text of the sections' page headers (or footers), each paragraph once however
    many sections repeat it: a footer can say what no page does ("Approved by ... Next
    self-inspection due March 2026"), and read on every page it would say it as often."""
    said: set[str] = set()
    for part in parts:
        for block in _docx_content(part):
            if not isinstance(block, str):
                yield block
            elif block.strip() and block not in said:
                said.add(block)
                yield block


def _docx_header(table: Any) -> bool | None:
    """True when the first row of a Word table is marked a header: repeated on each page,
    or bold throughout over rows that are not; None when nothing says."""
    from docx.oxml.ns import qn

    rows = list(table.rows)
    if not rows:
        return None
    properties = rows[0]._tr.trPr
    if properties is not None and properties.find(qn("w:tblHeader")) is not None:
        return True

    def bold(cell: Any) -> bool:
        runs = [run for paragraph in cell.paragraphs for run in paragraph.runs if run.text.strip()]
        return bool(runs) and all(run.bold for run in runs)

    first = all(bold(c) for c in rows[0].cells)
    if first and len(rows) > 1 and not all(bold(row.cells[-1]) for row in rows[1:]):
        return True
    return None


def _xlsx(path: Path) -> Iterator[Block]:
    """Each sheet as a table titled with its name; cached values, not formulas."""
    import openpyxl

    # A file object: given a path, openpyxl refuses names without .xlsx (blobs have none).
    with path.open("rb") as stream:
        book = openpyxl.load_workbook(stream, read_only=True, data_only=True)
        try:
            for sheet in book.worksheets:
                sheet.reset_dimensions()  # a declared A1:XFD1048576 would pad every row
                yield from _sheet(sheet.title, sheet.iter_rows(values_only=True))
        finally:
            book.close()


def _ods(path: Path) -> Iterator[Block]:
    """Each sheet of an OpenDocument spreadsheet as an Excel sheet is read, by pandas'
    reader on odfpy, which expands a row or cell its file says is repeated."""
    import pandas as pd

    sheets = pd.read_excel(path, engine="odf", sheet_name=None, header=None, dtype=object)
    for title, frame in sheets.items():
        rows = frame.astype(object).where(frame.notna(), None).to_numpy().tolist()
        yield from _sheet(str(title), iter(rows))


def _xls(path: Path) -> Iterator[Block]:
    import xlrd

    book = xlrd.open_workbook(str(path), on_demand=True)
    try:
        for index in range(book.nsheets):
            sheet = book.sheet_by_index(index)
            yield from _sheet(sheet.name, (sheet.row_values(r) for r in range(sheet.nrows)))
    finally:
        book.release_resources()


def _sheet(title: str, rows: Iterator[Sequence[object]]) -> Iterator[Block]:
    """A sheet as a numbered table titled with its name; or, for a short sheet of two
    columns that names each thing once ("Station | Seattle", "Units | mm"), its ``key:
    value`` lines, at the sheet: such a sheet says what the workbook holds, and has no
    header to read its rows by."""
    head = [_trimmed(row) for row in islice(rows, _FACT_ROWS + 1)]
    keys = [row[0] for row in head if any(row)]
    once = len(head) <= _FACT_ROWS and len(set(keys)) == len(keys) and all(keys)
    facts = key_value_text(head) if once else None
    if facts is None:
        for table in stacked_tables(chain(head, rows)):
            yield Table(table, title=title, numbered=True)
    else:
        yield Location(sheet=title)
        yield f"{title}\n{facts}"


def _trimmed(row: Sequence[object]) -> Sequence[object]:
    """A sheet's row without the empty cells after its last value (a cell formatted
    but empty is read as one)."""
    end = len(row)
    while end and row[end - 1] in (None, ""):
        end -= 1
    return row[:end]


def _pptx(path: Path) -> Iterator[Block]:
    """Each slide's text (text boxes, groups), then its notes, a block per slide; its
    tables as tables, between the text before and after them; all at the slide. A slide
    whose only text before a table (a chart's data) is a line, its title, leads the table
    with it: apart, the title "Leaks repaired by active leakage control" ended the
    passage before, and the chart's row ``Feb 2025,44,53,43`` was never found for it."""
    from pptx import Presentation

    _every_plot_read()
    for number, slide in enumerate(islice(Presentation(str(path)).slides, MAX_PAGES), start=1):
        yield Location(slide=number)
        texts: list[str] = []
        for item in _shape_blocks(slide.shapes):
            if isinstance(item, Table):
                before = "\n".join(texts).strip()
                if item.title is None and before and "\n" not in before:
                    item = replace(item, title=before)
                else:
                    yield before
                texts = []
                yield item
            elif item.strip():
                texts.append(item)
        if slide.has_notes_slide:
            texts.append(slide.notes_slide.notes_text_frame.text)
        yield "\n".join(t for t in texts if t.strip())


def _shape_blocks(shapes: Any) -> Iterator[str | Table]:
    from pptx.shapes.group import GroupShape

    for shape in shapes:
        if isinstance(shape, GroupShape):
            yield from _shape_blocks(shape.shapes)
        elif shape.has_text_frame:
            yield shape.text_frame.text
        elif getattr(shape, "has_table", False):
            # PowerPoint marks a first row "header" by default: only the text can tell.
            rows = [[cell.text for cell in row.cells] for row in shape.table.rows]
            yield key_value_text(rows) or Table(rows)
        elif getattr(shape, "has_chart", False):
            yield from _chart_blocks(shape.chart)


def _chart_blocks(chart: Any) -> Iterator[str | Table]:
    """A chart's title leading its data, in one passage: a row per category and a column
    per series, as the chart's own data sheet holds them; one series as ``category:
    value`` lines after its name. Apart, the title ended the slide's passage before, and
    "the leaks repaired by active leakage control in the South in February" did not find
    the row ``Feb 2025,44,53,43``. A deck shows its figures in charts ("Temperature
    excursions per depot"), whose numbers were in no text of the slide. A chart without
    categories (a scatter plot's points) says nothing more.

    Its plots are read as their XML elements, each series as a bar chart's: python-pptx
    makes plot objects only of the types it can write and raises on the others (a 3-D
    column, a stock chart), which lost the whole deck; every type keeps its series'
    names, categories and values alike (:func:`_every_plot_read`)."""
    from pptx.chart.category import Categories
    from pptx.chart.series import BarSeries

    titled = chart.has_title and chart.chart_title.has_text_frame
    title = chart.chart_title.text_frame.text if titled else ""
    leading = title  # leads the first plot's data, in its passage
    for plot in chart.element.chart.plotArea.iter_xCharts():
        series = [BarSeries(ser) for ser in plot.iter_sers()]
        categories = [str(c) for c in Categories(plot)]
        if not series or not categories:
            continue
        rows = [
            [category, *(_chart_value(s.values, i) for s in series)]
            for i, category in enumerate(categories)
        ]
        if len(series) > 1:
            yield Table([["", *(s.name or "" for s in series)], *rows], title=leading or None)
        else:
            name = series[0].name or ""
            facts = key_value_text(rows, header=False) or ""
            lines = [leading, name if name != title else "", facts]
            yield "\n".join(line for line in lines if line)
        leading = ""
    if leading:
        yield leading


@cache
def _every_plot_read() -> None:
    """Give the plot elements python-pptx has no class for (``c:bar3DChart``,
    ``c:stockChart``...) its plots' common one, which finds their series and categories.
    Registered once, before a deck is parsed: python-pptx picks an element's class when
    it parses it, and reads decks only here."""
    from pptx.oxml import register_element_cls
    from pptx.oxml.chart.plot import BaseChartElement

    for tag in _UNPLOTTED:
        register_element_cls(tag, BaseChartElement)


_UNPLOTTED = (
    "c:bar3DChart", "c:line3DChart", "c:ofPieChart", "c:pie3DChart", "c:stockChart",
    "c:surface3DChart", "c:surfaceChart",
)  # fmt: skip


def _chart_value(values: Sequence[object], index: int) -> object:
    return values[index] if index < len(values) else None


def _odt(path: Path) -> Iterator[Block]:
    """Headings, paragraphs (list items included) and tables in document order."""
    from odf import teletype
    from odf.opendocument import load

    document = load(str(path))
    pending = [document.text]
    while pending:
        node = pending.pop()
        if node.qname in _ODT_PARAGRAPHS:
            yield teletype.extractText(node)
        elif node.qname == _ODT_TABLE:
            header, rows = _odt_rows(node)
            yield key_value_text(rows, header=header or None) or Table(rows)
        else:
            pending.extend(reversed(node.childNodes))


def _odt_rows(table: Any) -> tuple[bool, list[list[str]]]:
    """Whether an ODT table has header rows, and its rows of cell texts."""
    header, rows = False, []
    pending = list(reversed(table.childNodes))
    while pending:
        node = pending.pop()
        name = node.qname[1] if node.qname[0] == _ODT_TABLE[0] else None
        if name == "table-row":
            cells = [c for c in node.childNodes if c.qname[1] == "table-cell"]
            rows.append([" ".join(_odt_texts(c)) for c in cells])
        elif name in {"table-header-rows", "table-rows", "table-row-group"}:
            header = header or (name == "table-header-rows" and not rows)
            pending.extend(reversed(node.childNodes))
    return header, rows


def _odt_texts(node: Any) -> Iterator[str]:
    """The text of each paragraph in ``node`` (a table cell)."""
    from odf import teletype

    if node.qname in _ODT_PARAGRAPHS:
        yield teletype.extractText(node)
    else:
        for child in node.childNodes:
            yield from _odt_texts(child)


_ODT_PARAGRAPHS = {
    ("urn:oasis:names:tc:opendocument:xmlns:text:1.0", "p"),
    ("urn:oasis:names:tc:opendocument:xmlns:text:1.0", "h"),
}
_ODT_TABLE = ("urn:oasis:names:tc:opendocument:xmlns:table:1.0", "table")


def _parquet(path: Path) -> Iterator[Block]:
    import pyarrow.parquet as pq

    with pq.ParquetFile(path) as data:
        names = data.schema_arrow.names

        def rows() -> Iterator[list[object]]:
            yield names
            for batch in data.iter_batches(batch_size=1024):
                columns = [column.to_pylist() for column in batch.columns]
                yield from (list(row) for row in zip(*columns, strict=True))

        yield Table(rows(), numbered=True)


_READERS: dict[str, Callable[[Path], Iterator[Block]]] = {
    "pdf": _pdf,
    "docx": _docx,
    "xlsx": _xlsx,
    "xls": _xls,
    "pptx": _pptx,
    "odt": _odt,
    "ods": _ods,
    "parquet": _parquet,
}
