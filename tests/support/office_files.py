"""Office files as people send them, written with the libraries that make them.

Each function returns the file's bytes (``returns_frame`` a DataFrame, as a notebook holds
it). Their facts are fixed, since tests of quotes and of tables both ask about them:

- :func:`acme_contract_docx`: a contract with a summary, a key/value table without a
  header row, sections (Fees, Service levels, Termination) and a signature block.
- :func:`postmortem_pdf`: two pages; lines wrapped at :data:`PDF_LINE_CHARS` characters as
  a PDF writer wraps them, so a sentence may span lines.
- :func:`sales_xlsx`: sheets "Sales" (:data:`SALES`) and "Targets" (:data:`TARGETS`);
  the same rows as a Word report (:func:`sales_report_docx`) and a slide
  (:func:`sales_deck_pptx`), numbers written "58,300".
- :func:`project_card_pptx`: a slide with a key/value table (:data:`PROJECT_CARD`).
- :func:`returns_frame`: return rates of 8 products; the highest rate (0.14, Rain jacket)
  is not on the product with the most returns (Water bottle, 0.05).
- :func:`tickets_csv`: support tickets (:data:`TICKETS`), 5 of them open.
"""

from __future__ import annotations

import io
import textwrap
from collections.abc import Sequence
from typing import TYPE_CHECKING

from .documents import pdf_lines_bytes

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "CONTRACT_TERMS",
    "PDF_LINE_CHARS",
    "POSTMORTEM_PAGES",
    "PROJECT_CARD",
    "RETURNS",
    "SALES",
    "TARGETS",
    "TICKETS",
    "acme_contract_docx",
    "postmortem_pdf",
    "project_card_pptx",
    "returns_frame",
    "sales_deck_pptx",
    "sales_report_docx",
    "sales_xlsx",
    "tickets_csv",
]

# ---------------------------------------------------------------- the contract (DOCX)

CONTRACT_TITLE = "Master Services Agreement — Acme GmbH"
CONTRACT_SUMMARY = (
    "This agreement sets out the terms under which Northwind supplies analytics services "
    "to Acme GmbH."
)
CONTRACT_TERMS = (
    ("Contract owner", "Maria Keller (Procurement)"),
    ("Renewal", "Automatic 12-month renewal unless cancelled 90 days before term end"),
    ("Governing law", "Germany"),
)
"""The key/value table, two columns and no header row."""
CONTRACT_SECTIONS = (
    (
        "Fees",
        "The annual fee is EUR 184,000, invoiced quarterly in advance. Late payments accrue "
        "interest of 1% per month.",
    ),
    (
        "Service levels",
        "Northwind guarantees on-time delivery of 98% of monthly reports. If the on-time "
        "delivery SLA is missed in two consecutive months, Acme may claim a service credit "
        "of 5% of the quarterly fee.",
    ),
    (
        "Termination",
        "Either party may terminate for convenience with 90 days' written notice. Acme may "
        "terminate immediately if Northwind breaches confidentiality.",
    ),
)
CONTRACT_SIGNATURES = (
    "Signed for Acme GmbH: Maria Keller",
    "Signed for Northwind Analytics Ltd: Tom Becker, Managing Director",
    "Date: 2 January 2025",
)


def acme_contract_docx() -> bytes:
    """The contract "Master Services Agreement — Acme GmbH" as Word writes it: a title, a
    summary, a bordered key/value table with no header row, headed sections, signatures."""
    import docx

    document = docx.Document()
    document.add_heading(CONTRACT_TITLE, 0)
    document.add_paragraph(CONTRACT_SUMMARY)
    table = document.add_table(rows=0, cols=2)
    table.style = "Table Grid"
    for key, value in CONTRACT_TERMS:
        cells = table.add_row().cells
        cells[0].text = key
        cells[0].paragraphs[0].runs[0].bold = True
        cells[1].text = value
    for heading, paragraph in CONTRACT_SECTIONS:
        document.add_heading(heading, 1)
        document.add_paragraph(paragraph)
    document.add_paragraph()
    for line in CONTRACT_SIGNATURES:
        document.add_paragraph(line)
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()


# ---------------------------------------------------------------- the postmortem (PDF)

PDF_LINE_CHARS = 90
"""Where :func:`postmortem_pdf` wraps a paragraph (11 pt Helvetica on a letter page)."""
POSTMORTEM_PAGES: tuple[tuple[str, ...], ...] = (
    (
        "Postmortem: checkout outage of 14 March",
        "",
        "Summary",
        "On 14 March, checkout was unavailable for 47 minutes, from 09:12 to 09:59 CET. Every "
        "card payment failed and about 3,100 orders could not be placed. No payment was "
        "charged twice.",
        "",
        "Timeline",
        "09:12 Card authorisations start failing at the payments gateway.",
        "09:18 The on-call engineer is paged by the checkout error-rate alert.",
        "09:31 The incident is escalated to the payments team.",
        "09:52 The payments team installs a renewed TLS certificate on the gateway.",
        "09:59 Card authorisations succeed again; checkout is back to normal.",
    ),
    (
        "Root cause",
        "The root cause was an expired TLS certificate on the payments gateway, which made "
        "every card authorisation fail for 47 minutes. The certificate had been issued by "
        "hand a year earlier, and the reminder to renew it went to a mailbox nobody reads.",
        "",
        "Action items",
        "1. Renew every gateway certificate automatically (owner: Payments team, due 31 March).",
        "2. Alert 30 days before any certificate expires (owner: SRE, due 15 April).",
        "3. Add a synthetic card payment to the checkout monitoring (owner: Checkout team, "
        "due 30 April).",
    ),
)
"""Each page's paragraphs ("" is a blank line), before wrapping."""


def postmortem_pdf() -> bytes:
    """The PDF "Postmortem: checkout outage of 14 March": page 1 the summary and timeline,
    page 2 the root cause and action items."""
    return pdf_lines_bytes(
        *(
            [line for p in page for line in (textwrap.wrap(p, PDF_LINE_CHARS) or [""])]
            for page in POSTMORTEM_PAGES
        )
    )


# ---------------------------------------------------------------- sales (XLSX)

SALES_COLUMNS = ("Region", "Month", "Revenue (EUR)", "Units")
SALES: tuple[tuple[str, str, int, int], ...] = (
    ("North", "January", 131_200, 1_312),
    ("North", "February", 138_500, 1_377),
    ("North", "March", 142_300, 1_405),
    ("South", "January", 52_400, 498),
    ("South", "February", 55_100, 521),
    ("South", "March", 58_300, 547),
    ("East", "January", 97_600, 934),
    ("East", "February", 94_200, 902),
    ("East", "March", 101_900, 968),
    ("West", "January", 76_800, 741),
    ("West", "February", 81_300, 779),
    ("West", "March", 79_500, 763),
)
"""The "Sales" sheet's rows: North's Q1 revenue is 412,000; South's March revenue 58,300;
the highest revenue North's in March (142,300)."""
TARGETS_COLUMNS = ("Region", "Q1 target (EUR)")
TARGETS: tuple[tuple[str, int], ...] = (
    ("North", 400_000),
    ("South", 180_000),
    ("East", 290_000),
    ("West", 240_000),
)


def sales_xlsx() -> bytes:
    """A workbook as finance keeps it: sheet "Sales" (Region, Month, Revenue (EUR), Units;
    4 regions x January to March) and sheet "Targets" (Region, Q1 target (EUR)), bold
    headers and thousands formats."""
    import openpyxl
    from openpyxl.styles import Font

    book = openpyxl.Workbook()
    sales = book.active
    assert sales is not None
    sales.title = "Sales"
    targets = book.create_sheet("Targets")
    for sheet, columns, rows in (
        (sales, SALES_COLUMNS, SALES),
        (targets, TARGETS_COLUMNS, TARGETS),
    ):
        sheet.append(list(columns))
        for row in rows:
            sheet.append(list(row))
        for cell in sheet[1]:
            cell.font = Font(bold=True)
        for row_cells in sheet.iter_rows(min_row=2):
            for cell in row_cells:
                if isinstance(cell.value, int):
                    cell.number_format = "#,##0"
        for letter in "ABCD"[: len(columns)]:
            sheet.column_dimensions[letter].width = 16
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def _sales_cells() -> list[list[str]]:
    """The "Sales" rows as a document's table shows them: ``58,300``."""
    return [list(SALES_COLUMNS)] + [[r, m, f"{v:,}", f"{u:,}"] for r, m, v, u in SALES]


def sales_report_docx() -> bytes:
    """A report "Q1 sales report": a paragraph, then the sales in a table whose header row
    is bold and repeats on each page, as Word's "Header row" option sets it."""
    import docx
    from docx.oxml import OxmlElement
    from docx.oxml.ns import qn

    document = docx.Document()
    document.add_heading("Q1 sales report", 1)
    document.add_paragraph("Revenue and units sold per region and month, January to March.")
    cells = _sales_cells()
    table = document.add_table(rows=len(cells), cols=len(SALES_COLUMNS))
    table.style = "Table Grid"
    for r, row in enumerate(cells):
        for c, value in enumerate(row):
            table.cell(r, c).text = value
    for cell in table.rows[0].cells:
        cell.paragraphs[0].runs[0].bold = True
    table.rows[0]._tr.get_or_add_trPr().append(OxmlElement("w:tblHeader"))
    assert table.rows[0]._tr.trPr.find(qn("w:tblHeader")) is not None
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()


def _deck(slides: Sequence[tuple[str, Sequence[Sequence[str]]]]) -> bytes:
    from pptx import Presentation
    from pptx.util import Inches

    deck = Presentation()
    for title, rows in slides:
        slide = deck.slides.add_slide(deck.slide_layouts[5])  # title only
        slide.shapes.title.text = title
        shape = slide.shapes.add_table(
            len(rows), len(rows[0]), Inches(0.5), Inches(1.5), Inches(9), Inches(0.4 * len(rows))
        )
        for r, row in enumerate(rows):
            for c, value in enumerate(row):
                shape.table.cell(r, c).text = value
    out = io.BytesIO()
    deck.save(out)
    return out.getvalue()


def sales_deck_pptx() -> bytes:
    """A slide "Q1 sales by region" with the sales as a table (header row first)."""
    return _deck([("Q1 sales by region", _sales_cells())])


PROJECT_CARD = (
    ("Project", "Atlas"),
    ("Owner", "Ann Lee (Data Platform)"),
    ("Budget", "EUR 1.2 million"),
    ("Deadline", "30 June 2025"),
)
"""The facts of :func:`project_card_pptx`, a two-column table without a header row."""


def project_card_pptx() -> bytes:
    """A slide "Project card" whose table is the project's facts, a key and a value a row."""
    return _deck([("Project card", PROJECT_CARD)])


# ---------------------------------------------------------------- returns (a DataFrame)

RETURNS: tuple[tuple[str, int, int], ...] = (
    ("Trail backpack", 1_200, 60),
    ("Rain jacket", 800, 112),
    ("Hiking boots", 950, 48),
    ("Water bottle", 2_400, 120),
    ("Camping stove", 400, 24),
    ("Sleeping bag", 650, 26),
    ("Headlamp", 1_500, 75),
    ("Tent", 300, 27),
)
"""``(product, units_sold, units_returned)``; the rate is returned / sold, to 2 places."""


def returns_frame() -> pd.DataFrame:
    """Return rates by product, as a notebook computes them: Rain jacket has the highest
    rate (0.14); Water bottle the most returns (120) at 0.05, like three others."""
    import pandas as pd

    frame = pd.DataFrame(RETURNS, columns=["product", "units_sold", "units_returned"])
    frame["return_rate"] = (frame["units_returned"] / frame["units_sold"]).round(2)
    return frame


# ---------------------------------------------------------------- tickets (CSV)

TICKETS: tuple[tuple[str, str, str, str, str], ...] = (
    ("T-1041", "closed", "high", "Payments", "2025-03-03"),
    ("T-1042", "open", "medium", "Checkout", "2025-03-04"),
    ("T-1043", "closed", "low", "Accounts", "2025-03-04"),
    ("T-1044", "pending", "high", "Payments", "2025-03-05"),
    ("T-1045", "open", "high", "Checkout", "2025-03-06"),
    ("T-1046", "closed", "medium", "Search", "2025-03-06"),
    ("T-1047", "open", "low", "Accounts", "2025-03-07"),
    ("T-1048", "closed", "high", "Checkout", "2025-03-10"),
    ("T-1049", "pending", "medium", "Search", "2025-03-11"),
    ("T-1050", "open", "medium", "Payments", "2025-03-12"),
    ("T-1051", "closed", "low", "Search", "2025-03-12"),
    ("T-1052", "open", "high", "Payments", "2025-03-13"),
    ("T-1053", "pending", "low", "Checkout", "2025-03-14"),
    ("T-1054", "closed", "medium", "Accounts", "2025-03-14"),
)
"""``(id, status, priority, team, created)``: 5 open, 6 closed, 3 pending."""


def tickets_csv() -> bytes:
    """Support tickets exported from a help desk (``id,status,priority,team,created``)."""
    lines = ["id,status,priority,team,created", *(",".join(t) for t in TICKETS)]
    return ("\n".join(lines) + "\n").encode()
