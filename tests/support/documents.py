"""Small real documents for the tests, written with the libraries that read them."""

from __future__ import annotations

import io
import zipfile
from collections.abc import Sequence

__all__ = [
    "docx_bytes",
    "notebook_text",
    "odt_bytes",
    "parquet_bytes",
    "pdf_bytes",
    "pdf_lines_bytes",
    "pptx_bytes",
    "xlsx_bytes",
    "zip_bomb_xlsx",
]


def pdf_bytes(*pages: str) -> bytes:
    """A PDF with one page per text (:func:`pdf_lines_bytes` with one line a page)."""
    return pdf_lines_bytes(*([page] for page in pages))


def pdf_lines_bytes(*pages: Sequence[str]) -> bytes:
    """A PDF with one page per sequence of lines, in 11 pt Helvetica, written by hand
    (pypdf writes no text). The second line is the binary comment real PDF writers put
    there, so that tools take the file for binary.

    Each line is one ``Tj``, the next line one ``T*`` further down (a blank line is a ``T*``
    alone), as PDF writers set text, so that pypdf extracts a line break between lines.
    Text is Latin-1 (the font's encoding); ``(``, ``)`` and ``\\`` are escaped.
    """
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>", b""]
    kids = []
    font = 3 + 2 * len(pages)
    for number, lines in enumerate(pages):
        page, content = 3 + 2 * number, 4 + 2 * number
        kids.append(b"%d 0 R" % page)
        shown = []
        for i, line in enumerate(lines):
            move = "" if i == 0 else "T* "
            escaped = line.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")
            shown.append(f"{move}({escaped}) Tj" if line else move.strip())
        stream = f"BT /F1 11 Tf 14 TL 72 740 Td {' '.join(shown)} ET".encode("latin-1")
        objects.append(
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents %d 0 R "
            b"/Resources << /Font << /F1 %d 0 R >> >> >>" % (content, font)
        )
        objects.append(b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream")
    objects[1] = b"<< /Type /Pages /Kids [%s] /Count %d >>" % (b" ".join(kids), len(pages))
    objects.append(
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>"
    )
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % o for o in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1,
        xref,
    )
    return bytes(out)


def docx_bytes(heading: str, paragraphs: Sequence[str], table: Sequence[Sequence[str]]) -> bytes:
    import docx

    document = docx.Document()
    document.add_heading(heading, 1)
    for text in paragraphs:
        document.add_paragraph(text)
    grid = document.add_table(rows=len(table), cols=len(table[0]))
    for r, row in enumerate(table):
        for c, value in enumerate(row):
            grid.cell(r, c).text = value
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()


def xlsx_bytes(sheets: dict[str, Sequence[Sequence[object]]]) -> bytes:
    import openpyxl

    book = openpyxl.Workbook()
    book.remove(book.active)
    for title, rows in sheets.items():
        sheet = book.create_sheet(title)
        for row in rows:
            sheet.append(list(row))
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def zip_bomb_xlsx(unpacked_mib: int) -> bytes:
    """A valid small workbook plus one member that unpacks to ``unpacked_mib`` MiB of
    zeros (a few hundred KB packed)."""
    out = io.BytesIO(xlsx_bytes({"Sheet": [["word"], ["tiny"]]}))
    zeros = bytes(1024 * 1024)
    with (
        zipfile.ZipFile(out, "a", zipfile.ZIP_DEFLATED) as archive,
        archive.open("xl/media/bomb.bin", "w", force_zip64=True) as member,
    ):
        for _ in range(unpacked_mib):
            member.write(zeros)
    return out.getvalue()


def pptx_bytes(slides: Sequence[tuple[str, str]]) -> bytes:
    from pptx import Presentation

    deck = Presentation()
    for title, body in slides:
        slide = deck.slides.add_slide(deck.slide_layouts[1])
        slide.shapes.title.text = title
        slide.placeholders[1].text = body
    out = io.BytesIO()
    deck.save(out)
    return out.getvalue()


def odt_bytes(heading: str, paragraphs: Sequence[str]) -> bytes:
    from odf.opendocument import OpenDocumentText
    from odf.text import H, P

    document = OpenDocumentText()
    document.text.addElement(H(outlinelevel=1, text=heading))
    for text in paragraphs:
        document.text.addElement(P(text=text))
    out = io.BytesIO()
    document.write(out)
    return out.getvalue()


def notebook_text(markdown: str, code: str, output: str) -> str:
    """A notebook with a markdown cell and a code cell whose output is ``output``."""
    import nbformat
    from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook, new_output

    cell = new_code_cell(code, outputs=[new_output("stream", name="stdout", text=output)])
    return str(nbformat.writes(new_notebook(cells=[new_markdown_cell(markdown), cell])))


def parquet_bytes(columns: dict[str, list[object]]) -> bytes:
    import pyarrow as pa
    import pyarrow.parquet as pq

    out = io.BytesIO()
    pq.write_table(pa.table(columns), out)
    return out.getvalue()
