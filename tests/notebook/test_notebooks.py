"""The committed notebooks are fit for nbval: saved with outputs, clean, and sanitizable.

nbval itself runs them (``make test``); these checks fail fast, without a kernel, when a
notebook was committed in a state nbval would compare wrongly or not at all.
"""

from __future__ import annotations

import configparser
import json
import re
from pathlib import Path

import pytest

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"
NAMES = ["quickstart", "files-and-retrieval", "completions-analysis"]
# (notebook, code cell index) whose output nbval does not compare, and why
IGNORED_OUTPUT = {
    ("quickstart", 12),  # %chat config: the service and token of this machine (embedded or not)
}


def code_cells(name: str) -> list[dict[str, object]]:
    notebook = json.loads((NOTEBOOKS / f"{name}.ipynb").read_text())
    assert notebook["metadata"]["kernelspec"]["name"] == "python3"
    return [c for c in notebook["cells"] if c["cell_type"] == "code"]


@pytest.mark.parametrize("name", NAMES)
def test_every_code_cell_ran_in_order_without_error(name: str) -> None:
    cells = code_cells(name)
    counts = [c["execution_count"] for c in cells]
    assert counts == list(range(1, len(cells) + 1))  # one clean top-to-bottom run
    for cell in cells:
        outputs = cell["outputs"]
        assert isinstance(outputs, list)
        assert all(o["output_type"] != "error" for o in outputs), cell["source"]
        text = json.dumps(outputs)
        assert "Traceback" not in text
        assert "eyJ" not in text  # no JWT (tokens start with a base64 '{"')


@pytest.mark.parametrize("name", NAMES)
def test_outputs_are_ignored_exactly_where_listed(name: str) -> None:
    """By nbval's cell tag; a comment marker nbval would not read (it must be the whole
    comment) would leave an output compared that was meant not to be."""
    for index, cell in enumerate(code_cells(name)):
        source = "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
        assert "NBVAL_" not in str(source)
        tags = cell["metadata"].get("tags", [])  # type: ignore[attr-defined]
        assert ("nbval-ignore-output" in tags) == ((name, index) in IGNORED_OUTPUT), index


@pytest.mark.parametrize("name", NAMES)
def test_notebooks_need_no_configuration(name: str) -> None:
    sources = " ".join(str(c["source"]) for c in code_cells(name))
    assert "CHATSPACE_" not in sources
    assert "base_url" not in sources


def test_sanitize_patterns_compile_and_cover_what_varies() -> None:
    config = configparser.ConfigParser()
    config.read(NOTEBOOKS / "sanitize.cfg")
    rules = [(re.compile(config[s]["regex"]), config[s]["replace"]) for s in config.sections()]

    def sanitize(text: str) -> str:
        for pattern, replace in rules:
            text = pattern.sub(replace, text)
        return text

    assert sanitize("chatcmpl-oCrGBBd6JMF7yn3NPosCQwc2") == "chatcmpl-ID"
    assert sanitize("chatcmpl\\-Z\\-6BAibMiccX3W3q4o\\_Wvh7w") == "chatcmpl-ID"
    assert sanitize("file-aRnih23zWFrbwf-31XoL3po-") == "file-ID"
    assert sanitize("2026-11-22 16:22:52+00:00") == "TIMESTAMP"
    assert sanitize("service-l0 · 94 tokens · 0.01 s") == "service-l0 · 94 tokens · T s"
    assert sanitize("94 tokens · 12\\.34 s*") == "94 tokens · T s*"
    assert sanitize("http://127.0.0.1:46085") == "http://127.0.0.1:PORT"
    assert sanitize("(embedded local service (/tmp/x-1/data))") == (
        "(embedded local service (DATA_DIR))"
    )
    assert sanitize("to \\/tmp\\/tmpz\\_0hbmb8\\/q3") == "to /tmp/TMPDIR\\/q3"


def test_quickstart_cells_show_something_meaningful() -> None:
    """No empty result where the reader expects one: "Use the answer" reads the citations
    of an answer that has some (after an off-topic question it printed ``[]``)."""
    shown = {}
    for cell in code_cells("quickstart"):
        source = "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
        texts = [
            "".join(o.get("data", {}).get("text/plain", "")) + "".join(o.get("text", ""))
            for o in cell["outputs"]  # type: ignore[attr-defined]
        ]
        shown[str(source)] = "".join(texts).strip()
    assert [s for s, text in shown.items() if text in ("", "[]", "{}", "None")] == [
        "%load_ext chatspace",
        'city = "Lyon"',
    ]
    [used] = [text for s, text in shown.items() if s.startswith("answer = _chat")]
    assert "tickets.csv" in used
