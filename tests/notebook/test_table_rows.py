"""A cited table row is shown with its column names wherever the notebook lists sources:
``%%chat``, ``%completions show``, ``%chat export`` (a real IPython shell) and the chat
panel (real widgets), over workbooks, CSV files and the tables of Word and PowerPoint
documents uploaded to the real service, which quotes the row as a line of CSV
(``South,March,58300,547``)."""

from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import Any

import pytest

from chatspace.client import Client
from chatspace.notebook.panels import ChatPanel
from chatspace.notebook.session import NotebookSession
from support.magics import render_markdown, run
from support.office_files import (
    SALES,
    acme_contract_docx,
    sales_deck_pptx,
    sales_report_docx,
    sales_xlsx,
)

QUESTION = "What was the revenue of the South region in March?"
RAW = "South,March,58300,547"
ROW = "Region: South, Month: March, Revenue (EUR): 58300, Units: 547"


def _sales_csv(delimiter: str = ",") -> bytes:
    out = io.StringIO()
    writer = csv.writer(out, delimiter=delimiter, lineterminator="\n")
    writer.writerows([("Region", "Month", "Revenue (EUR)", "Units"), *SALES])
    return out.getvalue().encode()


@pytest.fixture
def workbook(client: Client) -> None:
    client.files.upload(sales_xlsx(), filename="sales.xlsx", progress=False)


def test_chat_lists_the_row_by_its_columns(
    ip: Any, nb_session: NotebookSession, workbook: None
) -> None:
    """service-l0 quotes the row with its columns in the answer: the source is that row,
    so it is listed by its file and place alone, never again as CSV."""
    ran = run(ip, f"%%chat\n{QUESTION}")
    plain, markdown = ran.final[-1].data["text/plain"], ran.final[-1].data["text/markdown"]
    assert "  [1] sales.xlsx, sheet Sales, data row 6\n" in plain
    assert RAW not in plain
    assert RAW.replace(",", "\\,") not in markdown
    assert "<strong>sales.xlsx, sheet Sales, data row 6</strong></li>" in render_markdown(markdown)
    assert ran.value.citations[0].quote == ROW


def test_completions_show_and_export_show_the_row_by_its_columns(
    ip: Any, nb_session: NotebookSession, workbook: None, tmp_path: Path
) -> None:
    ran = run(ip, f"%%chat --thread sales\n{QUESTION}")
    shown = run(ip, f"%completions show {ran.value.id}")
    table = shown.final[-1].data["text/plain"]
    assert f"| sales.xlsx | {ROW} |" in table
    assert RAW not in table
    target = tmp_path / "sales.md"
    run(ip, f"%chat export sales --to md -o {target}")
    exported = target.read_text()
    assert f"sheet Sales, data row 6 (`{ran.value.citations[0].file_id}`): “{ROW}”" in exported
    assert f"cited yes, sheet Sales, data row 6: “{ROW}”" in exported
    assert RAW not in exported


@pytest.mark.parametrize(("name", "delimiter"), [("sales.csv", ","), ("sales.tsv", "\t")])
def test_the_panel_quotes_a_csv_row_by_its_columns(
    client: Client, session: NotebookSession, name: str, delimiter: str
) -> None:
    client.files.upload(_sales_csv(delimiter), filename=name, progress=False)
    panel = ChatPanel(client, session=session)
    panel.download_base_url = "/"
    try:
        assert panel.send(QUESTION) is True, panel.error
        assert panel.wait(30)
        [cite, *_] = panel.turns[-1]["citations"]
        assert (cite["location"], cite["quote"]) == ({"row": 6}, ROW)
        html = panel.conversation.children[-1].value
        assert 'data row 6</span><blockquote class="chatspace-quote"' in html
        assert f">{ROW}</blockquote>" in html
        assert RAW.replace(",", delimiter) not in html
    finally:
        panel.close()


@pytest.mark.parametrize(
    ("name", "document"), [("sales.docx", sales_report_docx), ("sales.pptx", sales_deck_pptx)]
)
def test_a_documents_table_row_is_shown_by_its_columns(
    ip: Any, nb_session: NotebookSession, client: Client, name: str, document: Any
) -> None:
    """A Word or PowerPoint table's row has no ``row`` location (a document may hold many
    tables): the notebook finds it under its table's header in the file's text. It showed
    ``South,March,"58,300",547``. A sentence of the same document stays as it is."""
    client.files.upload(document(), filename=name, progress=False)
    client.files.upload(acme_contract_docx(), filename="acme-contract.docx", progress=False)
    ran = run(ip, f"%%chat\n{QUESTION}")
    quotes = [c.quote for c in ran.value.citations if c.filename == name]
    assert quotes[0] == "Region: South, Month: March, Revenue (EUR): 58,300, Units: 547"
    fee = run(ip, "%%chat\nWhat is the annual fee in the Acme contract?")
    assert fee.value.citations[0].quote == (
        "The annual fee is EUR 184,000, invoiced quarterly in advance."
    )


def test_a_row_s_empty_cell_is_shown_as_empty(
    ip: Any, nb_session: NotebookSession, client: Client
) -> None:
    """A cell with nothing in it showed as ``Duration (min): ,``, which reads as a glitch;
    it is ``(empty)``, as in ``service-l0``'s answer."""
    rows = "Incident,Service,Duration (min),Root cause\nINC-101,Checkout,42,Expired certificate\n"
    rows += "INC-102,Search,,Index rebuild stalled\nINC-103,Payments,95,Slow failover\n"
    client.files.upload(rows.encode(), filename="incidents.csv", progress=False)
    ran = run(ip, "%%chat\nHow long did INC-102 last?")
    shown = "Incident: INC-102, Service: Search, Duration (min): (empty), Root cause: Index rebuild"
    assert ran.value.citations[0].quote == shown + " stalled"
    assert shown in ran.final[-1].data["text/plain"]
