"""Where a quote is, as every output that lists sources says it ("postmortem.pdf, p. 2"):
``%%chat`` in a real IPython shell and ``%chat export`` (the chat panel: its own tests),
over real files uploaded to the real service."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from chatspace.client import Client
from chatspace.notebook.display import place_of
from chatspace.notebook.session import NotebookSession
from support.documents import pdf_bytes, xlsx_bytes
from support.magics import render_markdown, run

PDF = pdf_bytes(
    "Chapter one describes the harbour and its old cranes.",
    "The root cause was an expired certificate on the load balancer.",
    "Chapter three lists the follow-up actions and their owners.",
)
XLSX = xlsx_bytes(
    {
        "Sales": [["region", "sold"], ["North", 90]],
        "Targets": [["region", "target"], ["North", 100], ["South", 200], ["Westmark", 300]],
    }
)
# the answer line is a paragraph of its own (a quote joins the sentences of one paragraph)
NOTES = b"Filler about the weather.\n" * 12 + b"\nThe backup password rotates yearly."


@pytest.mark.parametrize(
    ("location", "said"),
    [
        ({"page": 2}, "p. 2"),
        ({"sheet": "Targets", "row": 3}, "sheet Targets, data row 3"),
        ({"row": 7}, "data row 7"),
        ({"sheet": "Targets"}, "sheet Targets"),
        ({"slide": 3}, "slide 3"),
        ({"cell": 5}, "cell 5"),
        ({"line": 14}, "line 14"),
        ({}, ""),
        (None, ""),
    ],
)
def test_a_location_is_said_as_a_reader_says_it(location: Any, said: str) -> None:
    assert place_of(location) == said


@pytest.fixture
def files(client: Client) -> None:
    for name, data in (("postmortem.pdf", PDF), ("sales.xlsx", XLSX), ("notes.md", NOTES)):
        client.files.upload(data, filename=name, progress=False)


def test_chat_output_names_page_row_and_line(
    ip: Any, nb_session: NotebookSession, files: None
) -> None:
    for question, source in (
        ("What was the root cause?", "postmortem.pdf, p. 2"),
        ("What is the target of Westmark?", "sales.xlsx, sheet Targets, data row 3"),
        ("How often does the backup password rotate?", "notes.md, line 14"),
    ):
        ran = run(ip, f"%%chat\n{question}")
        answer = ran.final[-1]
        assert f"[1] {source}" in answer.data["text/plain"]
        assert f"<strong>{source}</strong>" in render_markdown(answer.data["text/markdown"])
        assert ran.value.citations[0].source == source


def test_export_names_the_page(
    ip: Any, nb_session: NotebookSession, files: None, tmp_path: Path
) -> None:
    run(ip, "%%chat --thread incident\nWhat was the root cause?")
    target = tmp_path / "incident.md"
    run(ip, f"%chat export incident --to md -o {target}")
    assert "**`postmortem.pdf`**, p. 2 (`file-" in target.read_text()
