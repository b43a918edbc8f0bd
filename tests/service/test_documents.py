"""Documents as people have them: PDF, DOCX, XLSX, PPTX, ODT, notebooks, tables, JSON.

Each document is written here with the library that reads it, uploaded to the real
service, read back through ``GET /files/{id}/text`` and asked about with ``service-l0``.
"""

from __future__ import annotations

import json
import tracemalloc
import zipfile
from collections.abc import Iterator
from io import BytesIO
from pathlib import Path
from typing import Any

import httpx
import pandas as pd
import pytest

from chatspace.service.retrieval.extract import Extracted, extract
from chatspace.service.retrieval.tables import MAX_CELLS
from support.chat import ask, client_for, upload
from support.documents import (
    docx_bytes,
    notebook_text,
    odt_bytes,
    parquet_bytes,
    pdf_bytes,
    pdf_lines_bytes,
    pptx_bytes,
    xlsx_bytes,
    zip_bomb_xlsx,
)
from support.service import Service, start_service
from support.upstream import FakeUpstream

BUDGET = [["region", "budget"], ["North", "800000"], ["South", "1200000"], ["West", "950000"]]
DOCX = docx_bytes("Quarterly report", ["Zanzibar exports cloves and nutmeg."], BUDGET)
XLSX = xlsx_bytes({"Budget": [["region", "budget"], ["North", 800000], ["South", 1200000]]})
PPTX = pptx_bytes([("Roadmap", "Ship the walrus feature in May")])
ODT = odt_bytes("Minutes", ["The committee approved the lighthouse repairs."])
PDF = pdf_bytes("Zanzibar exports cloves", "Page two mentions saffron harvests")
NOTEBOOK = notebook_text(
    "# Cleaning\nWe drop the outliers of the penguin data.",
    "penguins = load_penguins()\npenguins.dropna()",
    "OUTPUT-ONLY-WORD",
)
CSV_HEADER = "region,budget,manager"
LONG_CSV = "\n".join(
    [CSV_HEADER, *(f"Region{i},{1000 + i},Manager{i}" for i in range(300)), "South,1200000,Ada"]
)


def _extract(tmp_path: Path, name: str, data: bytes | str) -> Extracted | None:
    path = tmp_path / "blob"  # stored blobs have no suffix: readers must not need one
    path.write_bytes(data.encode() if isinstance(data, str) else data)
    return extract(path, filename=name, content_type="application/octet-stream")


def _text(tmp_path: Path, name: str, data: bytes | str) -> str | None:
    found = _extract(tmp_path, name, data)
    return None if found is None else found.text


# ---------------------------------------------------------------- reading each kind


@pytest.mark.parametrize(
    ("name", "data", "expected"),
    [
        (
            "report.docx",
            DOCX,
            "Quarterly report\n\nZanzibar exports cloves and nutmeg.\n\n"
            "region,budget\nNorth,800000\nSouth,1200000\nWest,950000",
        ),
        ("budget.xlsx", XLSX, "Budget\nregion,budget\nNorth,800000\nSouth,1200000"),
        ("plan.pptx", PPTX, "Roadmap\nShip the walrus feature in May"),
        ("minutes.odt", ODT, "Minutes\n\nThe committee approved the lighthouse repairs."),
        ("doc.pdf", PDF, "Zanzibar exports cloves\n\nPage two mentions saffron harvests"),
        (
            "clean.ipynb",
            NOTEBOOK,
            "# Cleaning\nWe drop the outliers of the penguin data.\n\n"
            "penguins = load_penguins()\npenguins.dropna()\n\nOUTPUT-ONLY-WORD",
        ),
        ("t.tsv", "a\tb\nx y\t1\n", "a\tb\nx y\t1"),
        (
            "p.parquet",
            parquet_bytes({"region": ["South"], "budget": [1200000]}),
            "region,budget\nSouth,1200000",
        ),
    ],
)
def test_each_kind_of_document_has_its_text(
    tmp_path: Path, name: str, data: bytes | str, expected: str
) -> None:
    assert _text(tmp_path, name, data) == expected


def test_a_long_table_repeats_its_header_in_every_passage(tmp_path: Path) -> None:
    found = _extract(tmp_path, "budget.csv", LONG_CSV)
    assert found is not None
    assert len(found.passages) > 5
    for start, passage in found.passages:
        assert found.text[start:].startswith(passage), "a passage is a slice of the text"
        assert passage.startswith(CSV_HEADER + "\n")
        assert len(passage) <= 1000
    rows = [line for _, p in found.passages for line in p.split("\n")[1:]]
    assert rows == LONG_CSV.split("\n")[1:], "every row once, whole, in order"


def test_a_pdf_is_read_without_its_running_header_and_footer(tmp_path: Path) -> None:
    """As a manual typeset by TeX sets them (GNU libtasn1's: "Chapter 2: ASN.1 structure
    handling 3" atop each page, which was quoted as evidence): the running header goes on
    every page, the page numbers (here from 7 on) go, and a title repeated as it is stays
    on the first page. Lines that repeat further in stay: two functions' entries that end
    alike, a short page's number that is no page's number."""
    pages = [
        ["Widget Manual", "Widgets are small tools.", "7"],
        ["Widget Manual", "Chapter 2: Sizes 8", "A widget weighs 3 grams.", "der: a buffer.",
         "der len: its size.", "8"],
        ["Widget Manual", "Chapter 2: Sizes 9", "A gadget weighs 5 grams.", "der: a buffer.",
         "der len: the final size.", "9"],
        ["Widget Manual", "Chapter 2: Sizes 10", "Totals", "42"],
    ]  # fmt: skip
    found = _extract(tmp_path, "manual.pdf", pdf_lines_bytes(*pages))
    assert found is not None
    shown = found.text.split("\n\n")
    assert shown == [
        "Widget Manual\nWidgets are small tools.",
        "A widget weighs 3 grams.\nder: a buffer.\nder len: its size.",
        "A gadget weighs 5 grams.\nder: a buffer.\nder len: the final size.",
        "Totals\n42",
    ]
    assert _text(tmp_path, "one.pdf", pdf_lines_bytes(["Widget Manual", "Totals", "1"])) == (
        "Widget Manual\nTotals\n1"
    ), "one page repeats nothing"
    squared = pdf_lines_bytes(["Floor area in m", "²"])
    assert _text(tmp_path, "area.pdf", squared) == "Floor area in m\n²", "a digit, not a number"


OS_MARKDOWN = (
    "# OS\n\n## `os.EOL`\n\n<!-- YAML\nadded: v0.7.8\n-->\n\n* {string}\n\n"
    "The operating system-specific end-of-line marker.\n\nSee [`path.sep`][].\n\n"
    "```html\n<!-- a comment in an example stays -->\n[x]: #kept\n```\n\n"
    "[`path.sep`]: path.md#pathsep\n"
)
"""As Node.js's API documents itself (Debian's ``nodejs``): each entry's history in an
HTML comment, links by reference."""
PROMISIFY = (
    "Takes a function following the common error-first callback style, i.e. taking\n"
    "an `(err, value) => ...` callback as the last argument, and returns a version\n"
    "that returns promises."
)
HOMEDIR = "Returns the string path of the current user's home directory."
API_MARKDOWN = (
    "# Utilities\n\n## `util.promisify(original)`\n\n<!-- YAML\nadded: v8.0.0\n-->\n\n"
    f"* `original` {{Function}}\n* Returns: {{Function}}\n\n{PROMISIFY}\n\n"
    "## `path.sep`\n\n* {string}\n\nProvides the platform-specific path segment separator:\n\n"
    "* `\\` on Windows\n* `/` on POSIX\n\nFor example, on Windows:\n\n"
    "```js\n'foo\\\\bar'.split(path.sep);\n// Returns: ['foo', 'bar']\n```\n\n"
    f"## `os.homedir()`\n\n* Returns: {{string}}\n\n{HOMEDIR}\n"
)
"""Entries of an API reference as Node.js writes them: a parameter's and a return value's
type in list items, then the sentence that says what the function does."""


def test_markdown_is_read_without_what_never_shows(tmp_path: Path) -> None:
    """An HTML comment and a link reference definition are not text (the comment's "added:
    v0.7.8" was quoted for "What is os.EOL?"); a code block keeps both; every line stays
    where it was, for the quote's line."""
    text = _text(tmp_path, "os.md", OS_MARKDOWN)
    assert text is not None
    for hidden in ("YAML", "v0.7.8", "pathsep"):
        assert hidden not in text
    assert "<!-- a comment in an example stays -->\n[x]: #kept" in text
    assert "See [`path.sep`][]." in text
    lines = text.split("\n")
    assert lines.index("The operating system-specific end-of-line marker.") == 10
    assert OS_MARKDOWN.split("\n")[10] == lines[10]


def test_json_records_are_cut_between_whole_records(tmp_path: Path) -> None:
    records = [{"region": f"R{i}", "budget": i, "notes": [["x" * 40]]} for i in range(100)]
    text = json.dumps(records, indent=1)
    found = _extract(tmp_path, "r.json", text)
    assert found is not None
    assert found.text == text, "the file's own text: each record carries its keys"
    assert len(found.passages) > 3
    for start, passage in found.passages:
        assert text[start:].startswith(passage)
        assert json.loads(f"[{passage}]"), "whole records only"


def test_json_records_of_plain_values_are_a_table(tmp_path: Path) -> None:
    """vega's ``cars.json``, ``DataFrame.to_json(orient="records")``: records of numbers,
    strings and nulls were cut as JSON text, so no question was computed over them and a
    quote was a line such as ``"Origin":"Japan"``. They are a table, the keys its header
    in the order first seen, a missing key or a null an empty cell."""
    records = [{"car": "corolla", "mpg": 31.0, "origin": "Japan"}, {"car": "pinto", "mpg": None}]
    records.append({"car": "golf", "origin": "Europe", "diesel": True})
    found = _extract(tmp_path, "cars.json", json.dumps(records))
    assert found is not None
    assert found.text == ("car,mpg,origin,diesel\ncorolla,31,Japan,\npinto,,,\ngolf,,Europe,True")
    for nested in ([{"car": "golf", "tags": [["small"]]}], [1, 2]):
        found = _extract(tmp_path, "other.json", json.dumps(nested))
        assert found is not None
        assert found.text == json.dumps(nested), "not a table"


def test_an_api_export_of_nested_records_is_a_table(tmp_path: Path) -> None:
    """An API's export: records whose values are objects (``"cost": {"amount": ...}``),
    in an object that says what the export is. The file was cut as JSON text, so "How
    much did request RQ-2 cost?" quoted ``"request_id": "RQ-2",``. Its records are a
    table whose columns are named as ``pandas.json_normalize`` names them, under the
    export's other values as ``key: value`` lines."""
    records = [
        {"id": "RQ-1", "cost": {"amount": 1418.08, "currency": "GBP"}, "part": {"ata": "61-21"}},
        {"id": "RQ-2", "cost": {"amount": 20318.41, "currency": "GBP"}, "done": None},
    ]
    export = {"export": {"source": "Stores API v2", "count": 2}, "records": records}
    found = _extract(tmp_path, "export.json", json.dumps(export, indent=2))
    assert found is not None
    assert found.text == (
        "export.source: Stores API v2\nexport.count: 2\n\n"
        "id,cost.amount,cost.currency,part.ata,done\n"
        "RQ-1,1418.08,GBP,61-21,\nRQ-2,20318.41,GBP,,"
    )
    deep: dict[str, object] = {"value": 1}
    for _ in range(6):
        deep = {"inner": deep}
    for other in ({"a": records, "b": records}, [deep], {"records": records, "tags": {"x": deep}}):
        found = _extract(tmp_path, "other.json", json.dumps(other))
        assert found is not None
        assert found.text == json.dumps(other), "not a table"


def test_a_record_s_lists_are_a_cell_or_a_table_of_their_own(
    tmp_path: Path, client: httpx.Client
) -> None:
    """A work order holding its crew (a list of objects) made the whole export JSON text,
    so "Dara Quinn's hours on WO-25-03113" quoted ``"name": "Dara Quinn", ... "hours":
    4.25`` of another order. A list of values is one cell; a list of objects is a table
    after the records', a row an object beside its record's cells, as
    ``json_normalize(record_path=..., meta=...)`` reads it; an empty list is no cell."""
    orders = [
        {"wo": "WO-11", "zone": "South", "tags": ["leak", "P1"], "parts": [],
         "crew": [{"name": "Dara Quinn", "hours": 4.25}, {"name": "Ann Byrne", "hours": 2}]},
        {"wo": "WO-13", "zone": "North", "tags": [], "parts": [{"item": "clamp", "qty": 2}],
         "crew": [{"name": "Dara Quinn", "hours": 4.75}]},
    ]  # fmt: skip
    export = json.dumps({"export": {"count": 2}, "work_orders": orders}, indent=2)
    found = _extract(tmp_path, "orders.json", export)
    assert found is not None
    assert found.text == (
        "export.count: 2\n\nwo,zone,tags\nWO-11,South,leak; P1\nWO-13,North,\n\n"
        "crew\nwo,zone,tags,crew.name,crew.hours\nWO-11,South,leak; P1,Dara Quinn,4.25\n"
        "WO-11,South,leak; P1,Ann Byrne,2\nWO-13,North,,Dara Quinn,4.75\n\n"
        "parts\nwo,zone,tags,parts.item,parts.qty\nWO-13,North,,clamp,2"
    ), found.text
    nested = json.dumps([{"a": 1, "b": [[1, 2]]}])
    found = _extract(tmp_path, "lists.json", nested)
    assert found is not None
    assert found.text == nested, "a list of lists: not a table"
    upload(client, [("orders.json", export)])
    content = ask(client, "How many hours did Dara Quinn book on work order WO-13?")
    content = content["choices"][0]["message"]["content"]
    assert "crew.hours for crew.name Dara Quinn, wo WO-13: 4.75" in content, content
    content = ask(client, "What were the total crew hours in the South zone?")
    content = content["choices"][0]["message"]["content"]
    assert "Total crew.hours for zone South: 6.25" in content, content


def test_json_lines_of_records_are_a_table(tmp_path: Path, client: httpx.Client) -> None:
    """A log or an export of one JSON object a line (``.jsonl``, ``.ndjson``) was read
    as plain text, so "Who released batch B-17?" quoted a line of JSON and nothing was
    computed over its records. It is the table a JSON array of the same records is;
    any other lines stay lines."""
    events = [
        {"batch": "B-16", "event": "released", "by": {"name": "Aoife Byrne"}, "units": 40},
        {"batch": "B-17", "event": "released", "by": {"name": "Lars Holm"}, "units": 25},
        {"batch": "B-17", "event": "quarantined", "by": {"name": "Aoife Byrne"}, "units": 5},
    ]
    lines = "\n".join(json.dumps(e) for e in events) + "\n\n"
    found = _extract(tmp_path, "audit.jsonl", lines)
    assert found is not None
    assert found.text == (
        "batch,event,by.name,units\nB-16,released,Aoife Byrne,40\n"
        "B-17,released,Lars Holm,25\nB-17,quarantined,Aoife Byrne,5"
    )
    for other in ('{"a": 1}\n{"a": [[1, 2]]}', '{"a": 1}\nnot json', "[1, 2]"):
        found = _extract(tmp_path, "other.ndjson", other)
        assert found is not None
        assert found.text == other, "its lines"
    upload(client, [("audit.jsonl", lines)])
    answer = ask(client, "How many units of batch B-17 were released, and by whom?")
    assert _cited(answer)[0] == ("audit.jsonl", "B-17,released,Lars Holm,25"), answer


def test_tables_stacked_on_a_sheet_are_each_a_table(tmp_path: Path, client: httpx.Client) -> None:
    """A rebate model puts its parameters above its accounts, a blank row between: read
    as one table, "Account, Customer, Type" was a row of "Parameter, Value", and "the
    total net sales of the co-op accounts" named no column. After a blank row, a row of
    text cells as wide as no header above, or that header again, starts a table; blank
    rows inside a table, and rows of text as wide as its header, do not."""
    rows: list[list[object]] = [
        ["Rebate model FY2025"],
        ["Parameter", "Value"],
        ["Base rebate rate", 0.02],
        [],
        ["Account", "Type", "Net sales"],
        ["C1042", "Vets", 164741.61],
        [],
        ["C1063", "Co-op", 838606.62],
        [],
        ["C1162", "Co-op", "539161.68"],
        [],
        ["Account", "Type", "Net sales"],
        ["G2011", "Co-op", 71625.85],
    ]
    for name, data in (
        ("rebates.xlsx", xlsx_bytes({"Rebates": rows})),
        ("rebates.csv", "\n".join(",".join(map(str, row)) for row in rows)),
    ):
        found = _extract(tmp_path, name, data)
        assert found is not None
        heads = [p for _, p in found.passages if "Account,Type,Net sales" in p]
        assert len(heads) == 2, found.text
        assert "Parameter,Value\nBase rebate rate,0.02" in found.text
        assert "Base rebate rate,0.02\nAccount" not in found.text
        assert "C1042,Vets,164741.61\nC1063,Co-op,838606.62\nC1162,Co-op,539161.68" in heads[0]
    upload(client, [("rebates.xlsx", xlsx_bytes({"Rebates": rows}))])
    answer = ask(client, "What is the total net sales of the Co-op accounts?")
    content = answer["choices"][0]["message"]["content"]
    total = 838606.62 + 539161.68 + 71625.85  # both tables of accounts, not a parameter
    assert f"Total Net sales for Type Co-op: {total:,.2f} (sum of 3 rows" in content, content
    place = answer["choices"][0]["message"]["annotations"][0]["file_citation"]["location"]
    assert place == {"sheet": "Rebates", "row": 3}, "counted below its own table's header"


def test_a_value_computed_over_a_table_leads_the_answer(client: httpx.Client) -> None:
    """ "How many cases of Frozen did Breda ship?" was answered first by the workbook's
    note on what a case is, which says more of the question's words; the total came
    second. A question that asks for a computation is answered first by the value."""
    notes = [
        [
            "Cases: shipped cases as scanned at the dock door at Breda; a kilo article counts as"
            " one case per 10 kg of Frozen or Dairy shipped."
        ],
        ["Breda ships Frozen cases from its own cold store, and Dairy cases from Ghent."],
    ]
    cases = [
        ["Depot", "Group", "Q4 2024 Cases"],
        ["Breda", "Frozen", 4120],
        ["Breda", "Dairy", 2310],
    ]
    cases += [["Ghent", "Frozen", 5230]]
    upload(client, [("depot_cases.xlsx", xlsx_bytes({"Notes": notes, "Cases": cases}))])
    content = ask(client, "How many cases of Frozen did Breda ship in Q4 2024?")["choices"][0][
        "message"
    ]["content"]
    first = content.split("\n- ")[1]
    assert first.startswith("Q4 2024 Cases for Depot Breda, Group Frozen: 4120"), content


def _allocation_email() -> bytes:
    """A reply as Outlook saves it: quoted-printable text and HTML bodies, a CSV and a
    workbook attached."""
    from email.message import EmailMessage

    import openpyxl

    message = EmailMessage()
    message["From"] = "Siobhán Kelly <siobhan@example.ie>"
    message["To"] = "Declan Moran <declan@example.ie>"
    message["Subject"] = "RE: Bovirex allocation for week 38"
    message["Date"] = "Tue, 16 Sep 2025 08:47:12 +0100"
    body = (
        "Hi Declan,\n\nUntil the shipment lands, the attached file is the allocation for "
        "week 38: every account gets 70% of its open order on the 50 dose vials, Siobhán.\n"
        "\n> Can you send me an allocation by tomorrow morning?\n"
    )
    message.set_content(body, cte="quoted-printable")
    message.add_alternative(f"<p>{body}</p>", subtype="html", cte="quoted-printable")
    damaged = dict(HOSTILE)["broken.pdf"]
    assert isinstance(damaged, bytes)
    message.add_attachment(damaged, "application", "pdf", filename="minutes.pdf")
    csv = "account,customer,allocated_vials\nC1042,Suir Valley Vets,18\nC1057,Ballyfin Vets,34\n"
    message.add_attachment(csv.encode(), "text", "csv", filename="allocation_wk38.csv")
    book = openpyxl.Workbook()
    book.active.title = "Stock"
    book.active.append(["product", "doses"])
    book.active.append(["Bovirex 50", 21500])
    sheet = BytesIO()
    book.save(sheet)
    subtype = "vnd.openxmlformats-officedocument.spreadsheetml.sheet"
    message.add_attachment(sheet.getvalue(), "application", subtype, filename="stock.xlsx")
    return message.as_bytes()


def test_an_email_is_read_as_its_headers_body_and_attachments(
    tmp_path: Path, client: httpx.Client
) -> None:
    """A message saved as ``.eml`` was read as its MIME: lines broken by ``=``, its body
    twice (text and HTML) and its attachments in base64. It is who wrote to whom on what,
    the text body, then each attachment read by the reader of its name, under that name;
    a damaged attachment is left out, not the message."""
    data = _allocation_email()
    assert b"=\n" in data, "quoted-printable, as saved"
    text = _text(tmp_path, "RE_allocation.eml", data)
    assert text is not None
    assert text.startswith(
        "From: Siobhán Kelly <siobhan@example.ie>\nTo: Declan Moran <declan@example.ie>\n"
        "Date: Tue, 16 Sep 2025 08:47:12 +0100\nSubject: RE: Bovirex allocation for week 38"
        "\n\nHi Declan,"
    ), text
    assert "every account gets 70% of its open order on the 50 dose vials" in text
    assert text.count("every account gets") == 1, "the text body, not the HTML too"
    assert "allocation_wk38.csv\naccount,customer,allocated_vials\nC1042,Suir Valley" in text
    assert "stock.xlsx: Stock\nproduct,doses\nBovirex 50,21500" in text
    assert "minutes.pdf" not in text, "the damaged PDF"
    upload(client, [("RE_allocation.eml", data)])
    answer = ask(client, "How many vials were allocated to Suir Valley Vets?")
    assert _cited(answer)[0] == ("RE_allocation.eml", "C1042,Suir Valley Vets,18"), answer


RTF_MEMO = (
    r"{\rtf1\ansi\ansicpg1252\deff0{\fonttbl{\f0 Calibri;}}"
    r"{\pard\b Customer credits\b0\par}"
    r"{\pard Customers are credited a handling fee of \'8015.00 per return (Ren\'e9e).\par}"
    r"{\pard\fi-360\li720\bullet\tab Quarantine batch 24K117 by 17:00.\par}}"
)


def test_an_rtf_memo_is_read_as_its_text(tmp_path: Path, client: httpx.Client) -> None:
    """Read as text, a Rich Text memo was its control words: its quotes began
    ``{\\pard`` and its fee was ``\\'8015.00``."""
    text = _text(tmp_path, "recall_memo.rtf", RTF_MEMO)
    assert text is not None
    assert "handling fee of €15.00 per return (Renée)" in text, text
    assert "\\" not in text, "no control word"
    assert "{" not in text, "no group"
    upload(client, [("recall_memo.rtf", RTF_MEMO)])
    cited = _cited(ask(client, "What handling fee per return are customers credited?"))
    assert cited[0][0] == "recall_memo.rtf"
    assert "€15.00 per return" in cited[0][1], cited


def test_an_ods_sheet_is_read_as_an_excel_sheet(tmp_path: Path, client: httpx.Client) -> None:
    """An OpenDocument spreadsheet (LibreOffice's own) was a file without text."""
    sales = pd.DataFrame(
        {"Territory": ["Munster West", "Connacht"], "Vaccines (EUR k)": [1046.6, 936.1]}
    )
    reps = pd.DataFrame({"Rep": ["Cormac Hegarty"], "Target FY2025 (EUR k)": [5683.5]})
    out = BytesIO()
    with pd.ExcelWriter(out, engine="odf") as writer:
        sales.to_excel(writer, sheet_name="Territory sales", index=False)
        reps.to_excel(writer, sheet_name="Reps", index=False)
    found = _extract(tmp_path, "territory_sales.ods", out.getvalue())
    assert found is not None
    assert found.text == (
        "Territory sales\nTerritory,Vaccines (EUR k)\nMunster West,1046.6\nConnacht,936.1"
        "\n\nReps\nRep,Target FY2025 (EUR k)\nCormac Hegarty,5683.5"
    )
    upload(client, [("territory_sales.ods", out.getvalue())])
    answer = ask(client, "What is Cormac Hegarty's FY2025 target?")
    assert _cited(answer)[0] == ("territory_sales.ods", "Cormac Hegarty,5683.5"), answer
    place = answer["choices"][0]["message"]["annotations"][0]["file_citation"]["location"]
    assert place == {"sheet": "Reps", "row": 1}


PRODUCTS_XML = """<?xml version="1.0" encoding="UTF-8"?>
<ProductMaster company="Lismore" records="2">
  <Product code="VX-101"><Name>Bovirex 10 dose</Name><Storage>2-8 °C</Storage>
    <ListPrice currency="EUR">38.90</ListPrice></Product>
  <Product code="AH-302"><Name>Levamectin Pour-On 5 L</Name><Storage>Below 25 °C</Storage>
    <ListPrice currency="EUR">179.50</ListPrice></Product>
</ProductMaster>"""


def test_an_xml_export_of_records_is_a_table(tmp_path: Path, client: httpx.Client) -> None:
    """An ERP's XML export was read as its tags: "the list price of Levamectin" quoted
    ``<Name>Levamectin Pour-On 5 L</Name>``. Its records are a table as a JSON export's
    are; any other XML is its elements' text; XML that defines entities (a "billion
    laughs") or does not parse is read as it is, never expanded."""
    found = _extract(tmp_path, "products.xml", PRODUCTS_XML)
    assert found is not None
    assert found.text == (
        "company: Lismore\nrecords: 2\n\ncode,Name,Storage,ListPrice,ListPrice.currency\n"
        "VX-101,Bovirex 10 dose,2-8 °C,38.90,EUR\nAH-302,Levamectin Pour-On 5 L,Below 25 °C,"
        "179.50,EUR"
    )
    page = "<doc><title>Recall</title><p>Quarantine <b>24K117</b> today.</p></doc>"
    found = _extract(tmp_path, "memo.xml", page)
    assert found is not None
    assert found.text == "Recall\nQuarantine\n24K117\ntoday."
    laughs = (
        '<?xml version="1.0"?><!DOCTYPE l [<!ENTITY a "aaaaaaaaaa">'
        '<!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">'
        '<!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">]><l>&c;</l>'
    )
    for other in (laughs, "<a><b>unclosed</a>"):
        found = _extract(tmp_path, "other.xml", other)
        assert found is not None
        assert found.text == other, "read as it is"
    upload(client, [("products.xml", PRODUCTS_XML)])
    answer = ask(client, "What is the list price of Levamectin Pour-On 5 L?")
    quote = "AH-302,Levamectin Pour-On 5 L,Below 25 °C,179.50,EUR"
    assert _cited(answer)[0] == ("products.xml", quote), answer


def test_a_word_documents_margins_and_nested_tables_are_read(
    tmp_path: Path, client: httpx.Client
) -> None:
    """A report's footer said when the next inspection is due, and its mapping results
    were a table in a cell of another: both were read by no one. The headers lead the
    text and the footers end it, each once however many sections repeat them; a table in
    a cell follows the table holding it, titled with that cell's text."""
    import docx

    document = docx.Document()
    document.sections[0].header.paragraphs[0].text = "QA-SI-2025-02 | GDP self-inspection"
    document.sections[0].footer.paragraphs[0].text = "Next self-inspection due March 2026."
    document.add_paragraph("This report records the annual self-inspection of Naas.")
    outer = document.add_table(rows=1, cols=2)
    outer.cell(0, 0).text = "Site: Naas distribution centre"
    outer.cell(0, 1).text = "Temperature mapping, July 2025"
    inner = outer.cell(0, 1).add_table(rows=3, cols=2)
    for row, cells in zip(
        inner.rows,
        [("Zone", "Max °C"), ("Cold room 1", "6.9"), ("Cold room 2", "7.4")],
        strict=True,
    ):
        for cell, value in zip(row.cells, cells, strict=True):
            cell.text = value
    document.add_section()
    document.add_paragraph("Findings follow.")
    out = BytesIO()
    document.save(out)
    text = _text(tmp_path, "inspection.docx", out.getvalue())
    assert text is not None
    assert text.startswith("QA-SI-2025-02 | GDP self-inspection\n\nThis report"), text
    assert text.endswith("Findings follow.\n\nNext self-inspection due March 2026."), text
    assert "Temperature mapping, July 2025\nZone,Max °C\nCold room 1,6.9\nCold room 2,7.4" in text
    upload(client, [("inspection.docx", out.getvalue())])
    cited = _cited(ask(client, "When is the next self-inspection due?"))
    assert cited[0] == ("inspection.docx", "Next self-inspection due March 2026."), cited
    cited = _cited(ask(client, "What max temperature did cold room 2 reach in the mapping?"))
    assert cited[0] == ("inspection.docx", "Cold room 2,7.4"), cited


def _noted_report() -> bytes:
    """A Word report with a footnote, a reviewer's comment and a footnote in a table, as
    Word writes them (python-docx writes comments; its footnotes part is made here)."""
    import docx
    from docx.opc.constants import CONTENT_TYPE, RELATIONSHIP_TYPE
    from docx.opc.packuri import PackURI
    from docx.opc.part import Part
    from docx.oxml import OxmlElement
    from docx.oxml.ns import qn

    def refer(paragraph: Any, note: str) -> None:
        reference = OxmlElement("w:footnoteReference")
        reference.set(qn("w:id"), note)
        paragraph.add_run()._r.append(reference)

    document = docx.Document()
    body = document.add_paragraph("Pressure in DMA Kilcolgan North was reduced in May.")
    refer(body, "7")
    document.add_comment(body.runs[0], text="The night flow fell by 4.2 l/s.", author="Ann Byrne")
    table = document.add_table(rows=2, cols=2)
    cells = ["DMA", "Leakage", "Kilcolgan South", "11.3"]
    for cell, value in zip(table._cells, cells, strict=True):
        cell.text = value
    refer(table.cell(1, 1).paragraphs[0], "3")
    document.add_paragraph("Findings follow.")
    w = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"'
    notes = (
        f'<w:footnotes {w}><w:footnote w:type="separator" w:id="-1"><w:p><w:r><w:separator/>'
        '</w:r></w:p></w:footnote><w:footnote w:id="3"><w:p><w:r><w:t>Estimated from the'
        ' minimum night flow.</w:t></w:r></w:p></w:footnote><w:footnote w:id="7"><w:p><w:r>'
        "<w:t>Logged by the SCADA historian every 15 minutes.</w:t></w:r></w:p></w:footnote>"
        '<w:footnote w:id="9"><w:p><w:r><w:t>Referred to by nothing.</w:t></w:r></w:p>'
        "</w:footnote></w:footnotes>"
    )
    part = Part(
        PackURI("/word/footnotes.xml"),
        CONTENT_TYPE.WML_FOOTNOTES,
        notes.encode(),
        document.part.package,
    )
    document.part.relate_to(part, RELATIONSHIP_TYPE.FOOTNOTES)
    out = BytesIO()
    document.save(out)
    return out.getvalue()


def test_a_word_documents_footnotes_and_comments_follow_what_refers_to_them(
    tmp_path: Path, client: httpx.Client
) -> None:
    """python-docx reads no footnote or comment, so what a report said only there (how a
    figure was logged, a reviewer's correction) was read by no one. Each follows the
    paragraph or table that refers to it, numbered as Word shows it."""
    data = _noted_report()
    text = _text(tmp_path, "leakage.docx", data)
    assert text == (
        "Pressure in DMA Kilcolgan North was reduced in May.\n\n"
        "Comment (Ann Byrne): The night flow fell by 4.2 l/s.\n\n"
        "Footnote 1: Logged by the SCADA historian every 15 minutes.\n\n"
        "DMA,Leakage\nKilcolgan South,11.3\n\n"
        "Footnote 2: Estimated from the minimum night flow.\n\n"
        "Findings follow."
    ), text
    broken = BytesIO()
    with zipfile.ZipFile(BytesIO(data)) as source, zipfile.ZipFile(broken, "w") as target:
        for item in source.infolist():
            body = source.read(item)
            broken_notes = item.filename == "word/footnotes.xml"
            target.writestr(item, b"<w:footnotes" if broken_notes else body)
    text = _text(tmp_path, "broken.docx", broken.getvalue())
    assert text is not None
    assert "Footnote" not in text, text
    assert "Comment (Ann Byrne)" in text, text
    upload(client, [("leakage.docx", data)])
    cited = _cited(ask(client, "How often does the SCADA historian log the Kilcolgan pressure?"))
    logged = "Footnote 1: Logged by the SCADA historian every 15 minutes."
    assert cited[0] == ("leakage.docx", logged), cited
    cited = _cited(ask(client, "By how much did the night flow fall in Kilcolgan North?"))
    remark = "Comment (Ann Byrne): The night flow fell by 4.2 l/s."
    assert cited[0] == ("leakage.docx", remark), cited


# ---------------------------------------------------------------- hostile documents


def _corrupt_zip() -> bytes:
    return DOCX[: len(DOCX) // 2]


def _wide_sheet() -> bytes:
    """A sheet whose every row has a cell in the last column (XFD): 16384 cells a row."""
    rows = "".join(
        f'<row r="{r}"><c r="A{r}" t="inlineStr"><is><t>w{r}</t></is></c>'
        f'<c r="XFD{r}"><v>1</v></c></row>'
        for r in range(1, 5001)
    )
    sheet = (
        '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
        f'<dimension ref="A1:XFD1048576"/><sheetData>{rows}</sheetData></worksheet>'
    )
    source = zipfile.ZipFile(BytesIO(XLSX))
    out = BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for item in source.infolist():
            data = source.read(item.filename)
            if item.filename == "xl/worksheets/sheet1.xml":
                data = sheet.encode()
            target.writestr(item, data)
    return out.getvalue()


HOSTILE = [
    ("broken.docx", _corrupt_zip()),
    ("broken.xlsx", b"PK\x03\x04 not really a workbook"),
    ("broken.pdf", b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj << /Type /Catalog /Pages 9 0 R"),
    ("broken.pptx", XLSX),  # a workbook named like a presentation
    ("broken.ods", b"PK\x03\x04 not really a spreadsheet"),
    ("notjson.ipynb", "{ this is not a notebook"),
]


@pytest.mark.timeout(60)
@pytest.mark.parametrize(("name", "data"), HOSTILE, ids=[n for n, _ in HOSTILE])
def test_a_damaged_document_has_no_text(tmp_path: Path, name: str, data: bytes | str) -> None:
    assert _extract(tmp_path, name, data) is None


@pytest.mark.timeout(60)
def test_a_zip_bomb_is_not_unpacked(tmp_path: Path) -> None:
    """Refused from its directory's sizes: nothing of it is inflated (peak memory stays far
    below the 300 MB it would unpack to)."""
    bomb = zip_bomb_xlsx(300)
    tracemalloc.start()
    try:
        assert _extract(tmp_path, "bomb.xlsx", bomb) is None
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 32 * 2**20


@pytest.mark.timeout(60)
def test_a_sheet_of_huge_rows_is_read_within_the_cell_bound(tmp_path: Path) -> None:
    found = _extract(tmp_path, "wide.xlsx", _wide_sheet())
    assert found is not None
    rows = found.text.count("\nw")
    assert 0 < rows <= MAX_CELLS // 16384 + 1, "reading stops at the cell bound"


@pytest.mark.timeout(60)
def test_a_deeply_nested_page_is_read_in_one_walk(tmp_path: Path) -> None:
    """40,000 nested blocks, each with a line break in its text, read as a browser shows
    them. Breaking lines by inserting them into the tree took time in the depth for
    every block (20,000 took 81 s)."""
    depth = 40_000
    page = "<html><body>" + "<div>x\n" * depth + "</div>" * depth + "</body></html>"
    assert _text(tmp_path, "deep.html", page) == "\n".join(["x"] * depth)


@pytest.mark.timeout(60)
def test_deeply_nested_tables_are_read_in_one_walk(tmp_path: Path) -> None:
    """10,000 tables each inside the last: whether a table holds another is found in one
    walk; asked of each table, it took time in the square of the nesting (4,000: 45 s)."""
    depth = 10_000
    page = "<table><tr><td>x " * depth + "</td></tr></table>" * depth
    assert _text(tmp_path, "tables.html", page) == "\n".join(["x"] * depth)


# ---------------------------------------------------------------- through the service


@pytest.fixture
def client(service: Service, org: str) -> Iterator[httpx.Client]:
    with client_for(service, org) as c:
        yield c


def _cited(answer: dict) -> list[tuple[str, str]]:
    notes = answer["choices"][0]["message"]["annotations"]
    return [(a["file_citation"]["filename"], a["file_citation"]["quote"]) for a in notes]


def test_documents_are_served_as_text_and_cited(client: httpx.Client) -> None:
    files = upload(
        client,
        [
            ("report.docx", DOCX),
            ("budget.xlsx", XLSX),
            ("plan.pptx", PPTX),
            ("minutes.odt", ODT),
            ("doc.pdf", PDF),
        ],
    )
    texts = {}
    for f in files:
        response = client.get(f"/files/{f['id']}/text")
        assert response.status_code == 200, (f["filename"], response.text)
        assert response.headers["content-type"] == "text/plain; charset=utf-8"
        texts[f["filename"]] = response.text
    assert "Zanzibar exports cloves and nutmeg." in texts["report.docx"]
    assert "South,1200000" in texts["budget.xlsx"]
    assert texts["doc.pdf"].endswith("Page two mentions saffron harvests")
    for question, filename, quote in [
        ("What does Zanzibar export besides cloves? nutmeg", "report.docx", "nutmeg."),
        ("When do we ship the walrus feature?", "plan.pptx", "Ship the walrus feature in May"),
        ("lighthouse repairs", "minutes.odt", "The committee approved the lighthouse repairs."),
        ("saffron harvests", "doc.pdf", "Page two mentions saffron harvests"),
    ]:
        cited = _cited(ask(client, question))
        assert cited[0][0] == filename, question
        assert cited[0][1].endswith(quote), question
        assert cited[0][1] in texts[filename], "the quote is text of the file"


def test_a_markdown_file_is_quoted_by_what_it_shows_at_its_line(client: httpx.Client) -> None:
    upload(client, [("os.md", OS_MARKDOWN)])
    response = ask(client, "What is os.EOL?")
    note = response["choices"][0]["message"]["annotations"][0]["file_citation"]
    assert note["quote"] == "The operating system-specific end-of-line marker."
    assert note["location"] == {"line": 11}


def test_an_api_reference_in_markdown_is_quoted_by_what_answers(client: httpx.Client) -> None:
    """A sentence wrapped over lines that hold inline code is one sentence (it was three
    fragments: the code's "=>" made a line look like code); a short list item that says
    something is a fact, not a heading ("* `\\` on Windows" weighed as little as a
    title); a line that only gives a type is a label ("* Returns: {string}" was quoted
    for what os.homedir() returns, above the sentence that says it); and "what does it do"
    asks for a sentence of prose."""
    upload(client, [("api.md", API_MARKDOWN)])
    quotes = [q for _, q in _cited(ask(client, "What does util.promisify do?"))]
    assert PROMISIFY in quotes
    quotes = [q for _, q in _cited(ask(client, "What does path.sep give on Windows?"))]
    assert "* `\\` on Windows" in quotes
    assert _cited(ask(client, "What does os.homedir() return?"))[0] == ("api.md", HOMEDIR)


def test_a_notebook_is_quoted_by_its_cells_never_its_json(client: httpx.Client) -> None:
    (nb,) = upload(client, [("clean.ipynb", NOTEBOOK)])
    assert "cell_type" not in client.get(f"/files/{nb['id']}/text").text
    for question in ("How are the penguin outliers dropped?", "cell type code source"):
        for _, quote in _cited(ask(client, question)):
            assert "cell_type" not in quote
            assert '"source"' not in quote
    assert _cited(ask(client, "OUTPUT-ONLY-WORD")) == [("clean.ipynb", "OUTPUT-ONLY-WORD")]
    assert _cited(ask(client, "penguins dropna")) == [("clean.ipynb", "penguins.dropna()")]


def _analysis_notebook() -> tuple[str, pd.DataFrame]:
    """An analyst's notebook: a frame printed, a frame shown (HTML and plain text), an
    error, and a chart (an image only)."""
    import nbformat
    import pandas as pd
    from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook, new_output

    segments = pd.DataFrame(
        {"accounts": [4, 3, 5], "open_balance": [160991.44, 91614.81, 146035.25]},
        index=pd.Index(["Healthcare", "Education", "Hotel"], name="segment"),
    )
    top = pd.DataFrame({"customer": ["Rivierland Hospital Group", "Restaurant Sablon Doré"],
                        "d90_plus": [14133.30, 3882.14]})  # fmt: skip
    cells = [
        new_markdown_cell("# Receivables ageing"),
        new_code_cell("print(seg)", outputs=[
            new_output("stream", name="stdout", text=segments.to_string() + "\n")]),
        new_code_cell("top", outputs=[new_output(
            "execute_result", data={"text/html": top.to_html(), "text/plain": top.to_string()},
            execution_count=2)]),
        new_code_cell("1 / 0", outputs=[new_output(
            "error", ename="ZeroDivisionError", evalue="division by zero",
            traceback=["\x1b[31mTRACEBACK-WORD\x1b[0m"])]),
        new_code_cell("chart", outputs=[new_output(
            "display_data", data={"image/png": "iVBORw0KGgoAAAANSUhEUgAAAAE="})]),
        new_code_cell("Markdown(note)", outputs=[new_output(
            "display_data", data={"text/markdown": "\n\nWrite-offs came to **EUR 18,430**."})]),
    ]  # fmt: skip
    return str(nbformat.writes(new_notebook(cells=cells))), segments


def test_a_notebook_s_outputs_are_read_as_its_reader_sees_them(
    tmp_path: Path, client: httpx.Client
) -> None:
    """An analysis states its results under its code: a frame printed (read by its
    columns' alignment), a frame shown (its HTML table); not a traceback nor an image.
    Outputs were left out, and "the Education segment's open balance" was answered by the
    code that computed it."""
    notebook, segments = _analysis_notebook()
    text = _text(tmp_path, "ageing.ipynb", notebook)
    assert text is not None
    assert "segment,accounts,open_balance\nHealthcare,4,160991.44\nEducation,3,91614.81" in text
    assert "Restaurant Sablon Doré,3882.14" in text
    assert "TRACEBACK-WORD" not in text
    assert "iVBOR" not in text
    # a Markdown output is at its cell, not at a line of the notebook's file
    found = _extract(tmp_path, "ageing.ipynb", notebook)
    assert found is not None
    ((passage, marks),) = [
        (p, m) for (_, p), m in zip(found.passages, found.locations, strict=True) if "18,430" in p
    ]
    at = passage.index("Write-offs")
    assert [place for offset, place in marks if offset <= at][-1] == {"cell": 6}, marks
    upload(client, [("ageing.ipynb", notebook)])
    answer = ask(client, "What is the open balance for the Education segment?")
    content = answer["choices"][0]["message"]["content"]
    balance = segments.loc["Education", "open_balance"]
    assert f'"segment: Education, accounts: 3, open_balance: {balance}"' in content, content
    assert _cited(answer)[0] == ("ageing.ipynb", "Education,3,91614.81")


def test_a_notebook_s_printed_result_is_quoted_not_the_line_that_printed_it(
    client: httpx.Client,
) -> None:
    """ "How many meters had continuous night flow on 3 or more nights in a row?" quoted
    the ``print(f'...')`` that wrote the answer, not the "7 of 32" it printed: both say the
    question's words, and the "3" the question says counted as the number it asks for."""
    import nbformat
    from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook, new_output

    notebook = new_notebook(
        cells=[
            new_markdown_cell("# Night use pilot\nWe look for meters with continuous night flow."),
            new_code_cell(
                "flagged = runs[runs >= 3].index\nprint(f'Meters with continuous night flow"
                " on 3 or more nights in a row: {len(flagged)} of {reads.meter.nunique()}')",
                outputs=[
                    new_output(
                        "stream",
                        text="Meters with continuous night flow on 3 or more nights in a row:"
                        " 7 of 32\n",
                    )
                ],
            ),
        ]
    )
    upload(client, [("night_use.ipynb", nbformat.writes(notebook))])
    question = "How many meters had continuous night flow on 3 or more nights in a row?"
    cited = _cited(ask(client, question))
    printed = "Meters with continuous night flow on 3 or more nights in a row: 7 of 32"
    assert cited[0] == ("night_use.ipynb", printed), cited


def _chart_slide(
    deck: Any, title: str, categories: list[str], series: dict[str, tuple[int, ...]]
) -> None:
    """A slide of ``deck`` titled ``title`` with a column chart of ``series``, untitled."""
    from pptx.chart.data import CategoryChartData
    from pptx.enum.chart import XL_CHART_TYPE
    from pptx.util import Inches

    data = CategoryChartData()
    data.categories = categories
    for name, values in series.items():
        data.add_series(name, values)
    slide = deck.slides.add_slide(deck.slide_layouts[5])
    slide.shapes.title.text = title
    slide.shapes.add_chart(
        XL_CHART_TYPE.COLUMN_CLUSTERED, Inches(1), Inches(1.5), Inches(8), Inches(5), data
    )


def test_a_slide_s_title_leads_the_chart_under_it(tmp_path: Path, client: httpx.Client) -> None:
    """A slide's title over a chart without one ended the passage before it (the last
    slide's notes), so "How many leaks did active leakage control repair in the South
    zone in February 2025?" found the chart's rows by their words alone, under the cut."""
    from pptx import Presentation

    deck = Presentation()
    first = deck.slides.add_slide(deck.slide_layouts[5])
    first.shapes.title.text = "Leakage against target"
    first.notes_slide.notes_text_frame.text = (
        "All three zones are above target; the Central zone's gap is mostly Ardcarne."
    )
    zones = {"North": (53, 44, 32), "Central": (73, 53, 57), "South": (30, 43, 30)}
    categories = ["Jan 2025", "Feb 2025", "Mar 2025"]
    _chart_slide(deck, "Leaks repaired by active leakage control", categories, zones)
    out = BytesIO()
    deck.save(out)
    found = _extract(tmp_path, "board.pptx", out.getvalue())
    assert found is not None
    assert found.passages[-1][1].startswith(
        "Leaks repaired by active leakage control\n,North,Central,South\nJan 2025,53,73,30"
    ), found.passages
    upload(client, [("board.pptx", out.getvalue())])
    question = (
        "How many leaks did active leakage control repair in the South zone in February 2025?"
    )
    content = ask(client, question)["choices"][0]["message"]["content"]
    assert "South for Feb: 43" in content, content


def test_a_file_named_by_its_kind_is_the_one_asked_about(client: httpx.Client) -> None:
    """ "In the notebook's per-DMA output, what is the median daily consumption for N102?"
    cited the daily reads the notebook was computed from: no file's name says "notebook".
    A word that names a file's kind ("notebook", "deck", "workbook", "email") is its
    name's."""
    import nbformat
    from nbformat.v4 import new_code_cell, new_notebook, new_output

    frame = (
        "  dma_code  meters  median_daily_m3\n"
        "0     C204       8            0.401\n"
        "1     N102       8            0.463\n"
    )
    notebook = new_notebook(
        cells=[
            new_code_cell(
                "per_dma = reads.groupby('dma_code')"
                ".agg(median_daily_m3=('consumption_m3', 'median'))",
                outputs=[
                    new_output("execute_result", data={"text/plain": frame}, execution_count=1)
                ],
            )
        ]
    )
    reads = "meter,dma_code,read_date,consumption_m3\n" + "".join(
        f"GM-{i:04d},N102,2025-03-{1 + i % 28:02d},{0.2 + i % 7 / 10:.3f}\n" for i in range(300)
    )
    upload(client, [("night_use.ipynb", nbformat.writes(notebook)), ("daily_reads.csv", reads)])
    question = "In the notebook's per-DMA output, what is the median daily consumption for N102?"
    content = ask(client, question)["choices"][0]["message"]["content"]
    assert content.split("\n- ")[1].startswith("median_daily_m3 for dma_code N102: 0.463"), content


def test_a_chart_on_a_slide_is_read_as_its_data(tmp_path: Path, client: httpx.Client) -> None:
    """A deck's figures are often in a chart, whose numbers no text of the slide says."""
    from pptx import Presentation
    from pptx.chart.data import CategoryChartData
    from pptx.enum.chart import XL_CHART_TYPE
    from pptx.util import Inches

    data = CategoryChartData()
    data.categories = ["Ghent", "Antwerp", "Brussels"]
    data.add_series("Q1 2025", (14, 9, 17))
    data.add_series("Q2 2025", (12, 11, 8))
    deck = Presentation()
    slide = deck.slides.add_slide(deck.slide_layouts[5])
    slide.shapes.title.text = "Cold chain review"
    frame = slide.shapes.add_chart(
        XL_CHART_TYPE.COLUMN_CLUSTERED, Inches(1), Inches(1), Inches(6), Inches(4), data
    )
    frame.chart.has_title = True
    frame.chart.chart_title.text_frame.text = "Temperature excursions per depot"
    alarms = CategoryChartData()
    alarms.categories = ["Ghent", "Antwerp"]
    alarms.add_series("Door alarms fitted", (5, 3))
    slide.shapes.add_chart(XL_CHART_TYPE.PIE, Inches(7), Inches(1), Inches(3), Inches(3), alarms)
    out = BytesIO()
    deck.save(out)
    text = _text(tmp_path, "review.pptx", out.getvalue())
    assert text is not None
    assert "Temperature excursions per depot\n,Q1 2025,Q2 2025\nGhent,14,12\n" in text, text
    assert "Door alarms fitted\nGhent: 5\nAntwerp: 3" in text, "one series: its facts"
    upload(client, [("review.pptx", out.getvalue())])
    question = "How many temperature excursions did Brussels have in Q1 2025?"
    content = ask(client, question)["choices"][0]["message"]["content"]
    assert "Q1 2025 for Brussels: 17" in content, content


def test_a_chart_python_pptx_cannot_plot_is_read_and_the_deck_with_it(tmp_path: Path) -> None:
    """A 3-D column chart (python-pptx reads only the plot types it can write) made the
    whole deck unreadable: its slides' text was lost with the chart."""
    from pptx import Presentation

    deck = Presentation()
    _chart_slide(deck, "Recalls by site", ["Cork", "Leeds"], {"Recalls": (4, 7)})
    flat = BytesIO()
    deck.save(flat)
    out = BytesIO()
    with zipfile.ZipFile(flat) as src, zipfile.ZipFile(out, "w") as dst:
        for item in src.infolist():
            part = src.read(item)
            if item.filename.startswith("ppt/charts/chart"):
                part = part.replace(b"c:barChart>", b"c:bar3DChart>")
            dst.writestr(item, part)
    text = _text(tmp_path, "recalls.pptx", out.getvalue())
    assert text is not None, "the deck has text"
    assert "Recalls by site" in text, text
    assert "Recalls\nCork: 4\nLeeds: 7" in text, text


def test_a_table_row_is_cited_from_a_block_led_by_its_header(client: httpx.Client) -> None:
    (csv,) = upload(client, [("budget.csv", LONG_CSV)])
    text = client.get(f"/files/{csv['id']}/text").text
    assert text.count(CSV_HEADER) > 5, "the header leads every block"
    cited = _cited(ask(client, "Who is the manager of South? Ada?"))
    assert cited[0] == ("budget.csv", "South,1200000,Ada")
    block = text[: text.index("South,1200000,Ada")].rsplit("\n\n", 1)[-1]
    assert block.startswith(CSV_HEADER + "\n"), "the row's passage starts with the header"


def test_instructions_read_the_extracted_text_of_a_document(client: httpx.Client) -> None:
    response = client.post(
        "/files",
        files=[("file", ("report.docx", DOCX))],
        data={"instructions": "title and word count"},
    )
    assert response.status_code == 200, response.text
    assert response.json()[0]["metadata"] == {"title": "Quarterly report", "words": 15}


@pytest.mark.timeout(120)
def test_hostile_uploads_succeed_without_text(client: httpx.Client) -> None:
    hostile = [*HOSTILE, ("bomb.xlsx", zip_bomb_xlsx(300))]
    files = upload(client, hostile)
    for f in files:
        response = client.get(f"/files/{f['id']}/text")
        assert response.status_code == 422, f["filename"]
        (problem,) = response.json()["detail"]
        assert problem["type"] == "no_text"
        assert problem["loc"] == ["path", "file_id"]
        assert "no text that can be extracted" in problem["msg"]
    assert client.get("/files/file-doesnotexist/text").status_code == 404
    assert _cited(ask(client, "tiny word notebook")) == []


# ---------------------------------------------------------------- what a model is given


@pytest.fixture(scope="module")
def relay(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Service, FakeUpstream]]:
    fake = FakeUpstream().start()
    upstreams = [{"url": fake.url, "models": {"echo": "echo"}}]
    svc = start_service(
        tmp_path_factory.mktemp("relay"), env={"CHATSPACE_UPSTREAMS": json.dumps(upstreams)}
    )
    yield svc, fake
    svc.stop()
    fake.stop()


def test_a_model_reads_the_row_with_its_column_names(
    relay: tuple[Service, FakeUpstream], org: str
) -> None:
    service, fake = relay
    with client_for(service, org) as c:
        upload(c, [("budget.csv", LONG_CSV)])
        ask(c, "What is the budget of the South region?", model="echo")
    context = fake.last("echo")["body"]["messages"][0]["content"]
    first = context.split("[1] budget.csv\n", 1)[1].split("\n\n[2]", 1)[0]
    assert first.startswith(CSV_HEADER + "\n")
    assert "South,1200000,Ada" in first


def test_instructions_count_the_rows_of_a_long_table_once(client: httpx.Client) -> None:
    response = client.post(
        "/files", files=[("file", ("budget.csv", LONG_CSV))], data={"instructions": "rows"}
    )
    assert response.status_code == 200, response.text
    assert response.json()[0]["metadata"] == {"rows": 301}
