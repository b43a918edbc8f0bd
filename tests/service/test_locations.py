"""Where a quote is in its file (docs/interface.md#locations).

Each document is written with the library that reads it, uploaded to the real service
(SQLite, or PostgreSQL with ``--engine postgres``) and asked about with ``service-l0``;
the citation's ``location`` is where its quote starts: a PDF's page, a sheet and data
row, a slide, a notebook cell, a text file's line.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import Any

import httpx
import nbformat
import sqlalchemy as sa
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook, new_raw_cell

from chatspace.service.retrieval.extract import extract
from chatspace.service.retrieval.index import open_index
from chatspace.service.retrieval.locations import quote_location
from chatspace.service.retrieval.search import Passage
from chatspace.service.store.migrations import MIGRATIONS, m010_passage_locations, migrate
from chatspace.service.store.passages import add_passages
from chatspace.types import Location
from support.chat import ask, assemble, stream, upload
from support.documents import docx_bytes, parquet_bytes, pdf_bytes, pptx_bytes, xlsx_bytes
from support.rows import add_file_row

PDF = pdf_bytes(
    "Chapter one describes the harbour and its old cranes.",
    "The root cause was an expired certificate on the load balancer.",
    "Chapter three lists the follow-up actions and their owners.",
)
TARGETS = [["region", "target"], ["North", 100], ["South", 200], ["Westmark", 300]]
XLSX = xlsx_bytes(
    {"Sales": [["region", "sold"], ["North", 90], ["Westmark", 280]], "Targets": TARGETS}
)
PPTX = pptx_bytes(
    [
        ("Welcome", "Agenda of the quarterly review"),
        ("Hiring", "Two engineers joined the data team"),
        ("Roadmap", "The walrus feature ships in May"),
    ]
)


def _notebook() -> str:
    cells = [
        new_markdown_cell("# Penguins\nLoading the data."),
        new_code_cell("import pandas as pd"),
        new_raw_cell("raw cells are not read"),
        new_code_cell(""),
        new_markdown_cell("We drop the outliers of the flipper length before fitting."),
    ]
    return str(nbformat.writes(new_notebook(cells=cells)))


def _notes() -> str:
    """Forty lines; the fact is on line 14, inside the file's first passage."""
    lines = [f"Line {n} is filler about the weather." for n in range(1, 41)]
    lines[13] = "The backup password rotates every ninety days."
    return "\n".join(lines)


def _citations(answer: dict[str, Any]) -> list[dict[str, Any]]:
    notes = answer["choices"][0]["message"]["annotations"]
    return [n["file_citation"] for n in notes if n["type"] == "file_citation"]


def _cited(alice: httpx.Client, name: str, data: bytes | str, question: str) -> dict[str, Any]:
    upload(alice, [(name, data)])
    [citation, *_] = _citations(ask(alice, question))
    assert citation["filename"] == name
    return citation


def test_a_pdf_quote_cites_its_page(alice: httpx.Client) -> None:
    cited = _cited(alice, "postmortem.pdf", PDF, "What was the root cause?")
    assert cited["quote"].startswith("The root cause was an expired certificate")
    assert cited["location"] == {"page": 2}


def test_a_spreadsheet_quote_cites_its_sheet_and_data_row(alice: httpx.Client) -> None:
    cited = _cited(alice, "sales.xlsx", XLSX, "What is the target of Westmark?")
    assert cited["quote"] == "Westmark,300"
    assert cited["location"] == {"sheet": "Targets", "row": 3}


def test_a_slide_quote_cites_its_slide(alice: httpx.Client) -> None:
    cited = _cited(alice, "deck.pptx", PPTX, "When does the walrus feature ship?")
    assert "walrus feature ships in May" in cited["quote"]
    assert cited["location"] == {"slide": 3}


def test_a_notebook_quote_cites_its_cell(alice: httpx.Client) -> None:
    cited = _cited(alice, "analysis.ipynb", _notebook(), "Which outliers do we drop?")
    assert cited["quote"].startswith("We drop the outliers")
    assert cited["location"] == {"cell": 5}


def test_a_text_quote_cites_the_line_it_starts_on(alice: httpx.Client) -> None:
    """The passage starts on line 1; the quote, fourteen lines into it, on line 14."""
    cited = _cited(alice, "notes.md", _notes(), "How often does the backup password rotate?")
    assert cited["quote"] == "The backup password rotates every ninety days."
    assert cited["location"] == {"line": 14}


def test_a_streamed_answer_cites_the_same_location(alice: httpx.Client) -> None:
    upload(alice, [("postmortem.pdf", PDF)])
    body = {"messages": [{"role": "user", "content": "What was the root cause?"}]}
    _, events = stream(alice, body)
    [cited] = _citations(assemble(events))
    assert cited["location"] == {"page": 2}


def test_a_word_document_has_no_location(alice: httpx.Client) -> None:
    """A word processor paginates when it shows a document: no page is in the file."""
    docx = docx_bytes("Report", ["The lighthouse keeper retires in June."], [["a", "b"]])
    cited = _cited(alice, "report.docx", docx, "When does the lighthouse keeper retire?")
    assert cited["quote"] == "The lighthouse keeper retires in June."
    assert cited.get("location") is None


# ---------------------------------------------------------------- extraction


def _passages(tmp_path: Path, name: str, data: bytes | str) -> list[Passage]:
    path = tmp_path / "blob"
    path.write_bytes(data.encode() if isinstance(data, str) else data)
    found = extract(path, filename=name, content_type="application/octet-stream")
    assert found is not None
    return [
        Passage("f", name, i, start, text, 0.0, locations=marks)
        for i, ((start, text), marks) in enumerate(
            zip(found.passages, found.locations, strict=True)
        )
    ]


def _at(passages: list[Passage], needle: str) -> dict[str, Any] | None:
    """The location of the first occurrence of ``needle`` in the passages."""
    for passage in passages:
        if needle in passage.text:
            location = quote_location(passage, passage.text.index(needle))
            return None if location is None else location.model_dump()
    raise AssertionError(f"{needle!r} is in no passage")


def test_every_line_of_a_long_text_file_is_counted(tmp_path: Path) -> None:
    lines = [f"entry {n:05d} " + "word " * 12 for n in range(1, 3001)]
    passages = _passages(tmp_path, "log.txt", "\n".join(lines))
    assert len(passages) > 100
    for n in (1, 2, 777, 1500, 3000):
        assert _at(passages, f"entry {n:05d} ") == {"line": n}


def test_a_quote_on_the_next_page_of_a_passage_cites_that_page(tmp_path: Path) -> None:
    """Short pages share a passage: a quote in it is on its own page, not the first."""
    passages = _passages(tmp_path, "a.pdf", pdf_bytes("Alpha page.", "Beta page.", "Gamma."))
    assert len(passages) == 1
    assert [_at(passages, w) for w in ("Alpha", "Beta", "Gamma")] == [
        {"page": 1},
        {"page": 2},
        {"page": 3},
    ]


def test_rows_count_below_the_header_in_every_sheet(tmp_path: Path) -> None:
    """Rows are counted as the sheet shows them: a blank row between counts; the header
    line and the sheet's title line are no row."""
    sheets = {
        "Sales": [["region", "sold"], ["North", 90]],
        "Targets": [["region", "target"], ["North", 100], [None, None], ["Westmark", 300]],
    }
    passages = _passages(tmp_path, "sales.xlsx", xlsx_bytes(sheets))
    assert _at(passages, "North,90") == {"sheet": "Sales", "row": 1}
    assert _at(passages, "North,100") == {"sheet": "Targets", "row": 1}
    assert _at(passages, "Westmark,300") == {"sheet": "Targets", "row": 3}
    assert _at(passages, "region,target") == {"sheet": "Targets"}


def test_csv_rows_in_later_passages_keep_their_numbers(tmp_path: Path) -> None:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["city", "stock", "note"])
    writer.writerows([f"City{n}", n, "x" * 30] for n in range(1, 401))
    passages = _passages(tmp_path, "stock.csv", out.getvalue())
    assert len(passages) > 5
    assert passages[3].text.startswith("city,stock,note\n")
    for n in (1, 57, 399, 400):
        assert _at(passages, f"City{n},{n},") == {"row": n}
    assert _at(passages, "city,stock,note") is None


def test_parquet_tsv_and_json_records_are_located_too(tmp_path: Path) -> None:
    frame = parquet_bytes({"city": ["Lyon", "Nice", "Metz"], "stock": [5, 7, 9]})
    assert _at(_passages(tmp_path, "stock.parquet", frame), "Metz,9") == {"row": 3}
    tsv = "city\tstock\nLyon\t5\nNice\t7\n"
    assert _at(_passages(tmp_path, "stock.tsv", tsv), "Nice\t7") == {"row": 2}
    records = '[\n  {"city": "Lyon"},\n  {"city": "Nice"}\n]'
    assert _at(_passages(tmp_path, "cities.json", records), "Nice") == {"row": 2}
    records = '[\n  {"city": "Lyon", "zip": [[69001]]},\n  {"city": "Nice", "zip": [[6000]]}\n]'
    assert _at(_passages(tmp_path, "zips.json", records), '{"city": "Nice"') == {"line": 3}


# ---------------------------------------------------------------- the store


def test_passages_stored_before_locations_have_none(database_url: str) -> None:
    """A passage of a file uploaded before migration m008 has no location (null), not a
    made-up one; a passage stored after it has its own; both read back by the engine's
    own index."""
    engine = sa.create_engine(database_url)
    before = MIGRATIONS[: MIGRATIONS.index(m010_passage_locations)]
    migrate(engine, before)
    with engine.begin() as conn:
        for file_id in ("old", "new"):
            add_file_row(conn, file_id=file_id, org_id="o")
        conn.execute(
            sa.text(
                "INSERT INTO passages (file_id, org_id, workspace_id, ord, start, text) "
                "VALUES ('old', 'o', 'default', 0, 0, 'Old passage text.')"
            )
        )
    assert migrate(engine) == [fn.__name__ for fn in MIGRATIONS[len(before) :]]
    with engine.begin() as conn:
        add_passages(
            conn,
            org_id="o",
            workspace_id="default",
            file_id="new",
            passages=[(0, "New passage\ntext.")],
            locations=[[[0, {"line": 7}]]],
        )
        ids = [row[0] for row in conn.execute(sa.text("SELECT id FROM passages ORDER BY id"))]
        found = open_index(engine, None).text.by_id(conn, where=("o", "default"), terms=[], ids=ids)
    engine.dispose()
    [(_, old), (_, new)] = found
    assert old.locations == ()
    assert quote_location(old, 4) is None
    assert quote_location(new, new.text.index("text")) == Location(line=8)
