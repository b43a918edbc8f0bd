"""Hybrid retrieval through the real service: passage vectors stored after upload, found by
meaning where no word is shared, inside the scope of the workspace and its filter parts,
never after a delete, and computed for passages stored without one."""

from __future__ import annotations

import json
import logging
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx

from chatspace.service.retrieval.search import DENSE_CHARS, query_of
from chatspace.types import ChatMessage
from support.chat import ask, client_for, upload
from support.platform import rows, with_vectors
from support.service import Service, start_service

CATS = ("cats.md", "Our felines nap on the sofa every afternoon.\n")
BILLS = ("bills.md", "Invoices are paid within thirty days.\n")
BUDGET = ("budget.md", "The quarterly budget review is due on Friday.\n")
QUESTION = "Where do the cats sleep?"  # no word in common with cats.md
ANYTHING = {"type": "filter", "relevance": 0}


def _cited(answer: dict[str, Any]) -> list[str]:
    notes = answer["choices"][0]["message"]["annotations"]
    return [n["file_citation"]["filename"] for n in notes]


def _ask_loosely(client: httpx.Client, question: str, **part: Any) -> list[str]:
    """The files cited for ``question`` when every passage found may be cited."""
    return _cited(ask(client, [{"type": "text", "text": question}, {**ANYTHING, **part}]))


def _vectors(service: Service) -> list[tuple[Any, ...]]:
    return rows(
        service,
        "SELECT f.filename, length(p.vector), p.vector_model FROM passages p "
        "JOIN files f ON f.id = p.file_id ORDER BY f.filename",
    )


def test_each_passage_is_stored_with_its_vector(service: Service, org: str) -> None:
    with client_for(service, org) as c:
        upload(c, [CATS, BILLS], workspace="default")
    mine = [row for row in _vectors(service) if row[0] in {"cats.md", "bills.md"}]
    assert {(name, size, model) for name, size, model in mine} >= {
        ("bills.md", 512, "wordllama/l2_supercat-256"),
        ("cats.md", 512, "wordllama/l2_supercat-256"),
    }


def test_a_passage_is_found_by_meaning_without_a_shared_word(service: Service, org: str) -> None:
    with client_for(service, org) as c:
        upload(c, [CATS, BILLS, BUDGET])
        assert _ask_loosely(c, QUESTION)[0] == "cats.md"
        assert _ask_loosely(c, "When must we pay bills?")[0] == "bills.md"


def test_without_embeddings_only_shared_words_find_a_passage(tmp_path: Path, org: str) -> None:
    plain = start_service(tmp_path / "plain", "--embeddings", "off")
    try:
        with client_for(plain, org) as c:
            upload(c, [CATS, BILLS, BUDGET])
            assert _ask_loosely(c, QUESTION) == []
        assert {model for _, _, model in _vectors(plain)} == {None}
    finally:
        plain.stop()


def test_meaning_stays_inside_the_workspace_and_its_filter_parts(
    service: Service, org: str
) -> None:
    with client_for(service, org) as c:
        c.post("/workspaces", json={"id": "pets", "name": "Pets"}).raise_for_status()
        upload(c, [CATS], workspace="pets")
        (bills,) = upload(c, [BILLS], metadata={"team": "finance"})
        (budget,) = upload(c, [BUDGET], metadata={"team": "planning"})
        assert "cats.md" not in _ask_loosely(c, QUESTION), "another workspace's file"
        assert _ask_loosely(c, QUESTION, file_ids=[budget["id"]]) == ["budget.md"]
        assert _ask_loosely(c, QUESTION, filter=json.dumps({"team": "finance"})) == ["bills.md"]
        assert bills["id"] != budget["id"]
    with client_for(service, f"{org}-other") as other:
        upload(other, [BILLS])
        assert "cats.md" not in _ask_loosely(other, QUESTION), "another org's file"


def test_a_deleted_file_is_never_found_by_meaning(service: Service, org: str) -> None:
    with client_for(service, org) as c:
        (cats,) = upload(c, [CATS])
        upload(c, [BILLS])
        assert _ask_loosely(c, QUESTION)[0] == "cats.md"  # its vectors are now in memory
        assert c.delete(f"/files/{cats['id']}").status_code == 200
        assert "cats.md" not in _ask_loosely(c, QUESTION)


def test_passages_stored_without_vectors_get_them_at_start(tmp_path: Path, org: str) -> None:
    """An upgrade: files uploaded with embeddings off (as before vectors existed) are
    found by meaning once the service runs with them."""
    data = tmp_path / "data"
    before = start_service(data, "--embeddings", "off")
    try:
        with client_for(before, org) as c:
            upload(c, [CATS, BILLS, BUDGET])
    finally:
        before.stop()
    after = start_service(data)
    try:
        after.wait_for_log("3 file(s) have passages waiting for vectors")
        with client_for(after, org) as c:
            with_vectors(c, c.get("/files").json()["data"])
            assert _ask_loosely(c, QUESTION)[0] == "cats.md"
        assert {model for _, _, model in _vectors(after)} == {"wordllama/l2_supercat-256"}
    finally:
        after.stop()


def test_loading_the_model_leaves_the_root_logger_alone() -> None:
    """wordllama calls ``logging.basicConfig(level=INFO)`` when imported; in the service
    or a kernel that would print every httpx request line."""
    probe = (
        "import logging; from chatspace.service.retrieval.embeddings import WordLlamaEmbedder;"
        "WordLlamaEmbedder().embed(['x']); root = logging.getLogger();"
        "print(len(root.handlers), root.level)"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=60, check=True
    )
    assert done.stdout.split() == ["0", str(logging.WARNING)]


def test_a_huge_question_is_searched_by_its_start(service: Service, org: str) -> None:
    """A question pasted with a whole document (7 MB) is embedded by its start only:
    embedding all of it took half a minute and a worker thread."""
    huge = QUESTION + " " + "lorem ipsum dolor sit amet " * 270_000
    query = query_of([ChatMessage(role="user", content=huge)])
    assert query.text == huge[:DENSE_CHARS]
    with client_for(service, org) as c:
        upload(c, [CATS, BILLS])
        assert _ask_loosely(c, huge)[0] == "cats.md"
