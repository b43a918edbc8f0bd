"""Passage vectors computed after the upload
(docs/decisions.md#when-are-a-files-passage-vectors-computed): a file is found by its
words at once and by meaning once its ``status_details`` stop saying its vectors are
pending, without another request; replicas sharing a database never embed one passage
twice; a claim of a dead replica runs out; a file deleted while its vectors are computed
leaves nothing behind; a question asked right after an upload waits for its workspace's
vectors (``vectors_wait_seconds``), and is then ranked as it is once they are stored.
Through the real service, and at the store level with two engines on one database
standing for two replicas."""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa

from chatspace.service.retrieval.embeddings import Vectors, WordLlamaEmbedder
from chatspace.service.retrieval.extract import Extracted
from chatspace.service.retrieval.index import PassageIndex, open_index
from chatspace.service.retrieval.indexing import index_file
from chatspace.service.retrieval.scope import Scope
from chatspace.service.retrieval.search import Passage, query_of, search
from chatspace.service.store import files as file_store
from chatspace.service.store import passages as passage_store
from chatspace.service.store.db import open_database
from chatspace.service.store.transactions import write_transaction
from chatspace.service.vectors import BATCH, claim_batch, embed_batch
from chatspace.types import ChatMessage
from chatspace.types.files import VECTORS_PENDING
from support.chat import ask, client_for, upload
from support.platform import rows, with_vectors
from support.rows import add_file_row
from support.service import Service, new_org, start_service

CATS = ("cats.md", "Our felines nap on the sofa every afternoon.\n")
BILLS = ("bills.md", "Invoices are paid within thirty days.\n")
MEANING = "Where do the cats sleep?"  # no word in common with cats.md
MODEL = WordLlamaEmbedder.name
NAP = "Where do our felines nap?"  # one word of cats.md, and its meaning
BACKLOG = (
    "backlog.md",
    "\n\n".join(
        f"Ledger {i}: " + "the harbour accounts balanced once more. " * 24 for i in range(1500)
    ),
)
"""Another team's upload of 1,500 passages: the embedder is busy with it (oldest first)
when the question comes, as on a busy service."""


def _search(c: httpx.Client, query: str) -> list[dict[str, Any]]:
    found = c.post("/files/search", json={"query": query, "relevance": 0})
    assert found.status_code == 200, found.text
    return list(found.json()["data"])


def test_a_file_is_found_by_its_words_at_once_and_by_meaning_once_its_vectors_are_in(
    service: Service, org: str
) -> None:
    with client_for(service, org) as c:
        uploaded = upload(c, [CATS, BILLS], vectors=False)
        assert [f["status_details"] for f in uploaded] == [VECTORS_PENDING] * 2
        by_word = _search(c, "felines")[0]  # vectors or not (they may be in already)
        assert (by_word["filename"], by_word["scores"]["lexical"] > 0) == ("cats.md", True)
        # nothing but reading the files: the vectors come by themselves
        settled = with_vectors(c, uploaded)
        assert [f["status_details"] for f in settled] == ["", ""]
        listed = c.get("/files").json()["data"]
        assert {f["status_details"] for f in listed} == {""}
        best = _search(c, MEANING)[0]
        assert best["filename"] == "cats.md"
        assert best["scores"]["dense"] > 0


def test_a_file_deleted_while_its_vectors_are_pending_leaves_nothing(
    service: Service, org: str
) -> None:
    with client_for(service, org) as c:
        (cats,) = upload(c, [CATS], vectors=False)
        assert c.delete(f"/files/{cats['id']}").status_code == 200
        upload(c, [BILLS])  # a batch of the embedder has run since the delete
        assert "cats.md" not in [h["filename"] for h in _search(c, MEANING)]
    assert rows(service, "SELECT count(*) FROM passages WHERE file_id = :f", f=cats["id"]) == [(0,)]
    assert not [line for line in service.log if "passage vectors failed" in line]


class _Recording:
    """The real embedding model, noting every text it is given (one per replica)."""

    def __init__(self) -> None:
        self.model = WordLlamaEmbedder()
        self.name, self.dim = self.model.name, self.model.dim
        self.lexical_share, self.relevance = self.model.lexical_share, self.model.relevance
        self.texts: list[str] = []

    def embed(self, texts: Sequence[str]) -> Vectors:
        self.texts += texts
        return self.model.embed(texts)


@pytest.fixture
def replicas(database_url: str) -> Iterator[list[tuple[sa.Engine, PassageIndex, _Recording]]]:
    """Two replicas' engines, indexes and models on one database."""
    made = []
    for _ in range(2):
        engine, model = open_database(database_url), _Recording()
        made.append((engine, open_index(engine, model), model))
    yield made
    for engine, _, _ in made:
        engine.dispose()


def _add_file(
    engine: sa.Engine, file_id: str, passages: list[str], workspace: str = "default"
) -> None:
    """A file written as an upload writes it: passages in, vectors pending."""
    text = "\n".join(passages)
    starts, at = [], 0
    for passage in passages:
        starts.append(at)
        at += len(passage) + 1
    extracted = Extracted(text, tuple(zip(starts, passages, strict=True)))
    with write_transaction(engine) as conn:
        add_file_row(conn, file_id=file_id, org_id="o", workspace_id=workspace, size=len(text))
        file_store.mark_vectors_pending(conn, [file_id])
        index_file(conn, file_id=file_id, org_id="o", workspace_id=workspace, extracted=extracted)


def _pending(engine: sa.Engine) -> list[str]:
    with engine.connect() as conn:
        marked = conn.execute(sa.text("SELECT id FROM files WHERE vectors_pending ORDER BY id"))
        return [file_id for (file_id,) in marked]


def _find(engine: sa.Engine, index: PassageIndex, question: str) -> tuple[Passage, ...]:
    with engine.connect() as conn:
        return search(
            conn,
            org_id="o",
            workspace_id="default",
            query=query_of([ChatMessage(role="user", content=question)]),
            scope=Scope(None),
            index=index,
        )


def test_two_replicas_never_embed_the_same_passage(
    replicas: list[tuple[sa.Engine, PassageIndex, _Recording]],
) -> None:
    first = replicas[0][0]
    texts = {
        f"file-{f}": [f"Passage {f}-{i} on river {i} of the atlas." for i in range(200)]
        for f in range(4)
    }
    for file_id, passages in texts.items():
        _add_file(first, file_id, passages)
    start = threading.Barrier(2)

    def replica(engine: sa.Engine, index: PassageIndex) -> None:
        assert index.dense is not None
        start.wait()
        while embed_batch(engine, index.dense):
            pass

    threads = [threading.Thread(target=replica, args=(e, i)) for e, i, _ in replicas]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    embedded = Counter(text for _, _, model in replicas for text in model.texts)
    assert embedded == Counter(t for passages in texts.values() for t in passages)
    assert len(embedded) == 4 * 200 > BATCH  # more than one batch each, at once
    assert _pending(first) == []
    with first.connect() as conn:
        models = conn.execute(sa.text("SELECT DISTINCT vector_model FROM passages")).all()
    assert models == [(MODEL,)]


def test_a_file_is_found_by_its_words_while_its_vectors_are_pending(
    replicas: list[tuple[sa.Engine, PassageIndex, _Recording]],
) -> None:
    engine, index, _ = replicas[0]
    _add_file(engine, "cats", [CATS[1].strip()])
    _add_file(engine, "bills", [BILLS[1].strip()])
    (found,) = _find(engine, index, "Do the felines nap?")
    assert (found.file_id, found.dense) == ("cats", None)
    assert _find(engine, index, MEANING) == ()  # no shared word, no vector yet
    assert index.dense is not None
    assert embed_batch(engine, index.dense) == 2
    assert embed_batch(engine, index.dense) == 0
    assert _find(engine, index, MEANING)[0].file_id == "cats"
    assert _pending(engine) == []


def test_the_passages_of_a_workspace_where_a_question_waits_are_claimed_first(
    database_url: str,
) -> None:
    engine = open_database(database_url)
    try:
        _add_file(engine, "backlog", [f"Older passage {i}." for i in range(BATCH + 10)])
        _add_file(engine, "asked", ["The passage a question waits for."], workspace="team")
        first = claim_batch(engine, [("o", "team")])
        assert len(first) == BATCH
        assert [f for _, f, _ in first] == ["asked"] + ["backlog"] * (BATCH - 1)
        assert [f for _, f, _ in claim_batch(engine)] == ["backlog"] * 11  # then the oldest
    finally:
        engine.dispose()


def test_the_claim_of_a_replica_that_died_runs_out(database_url: str) -> None:
    engine = open_database(database_url)
    try:
        _add_file(engine, "f", ["One passage.", "Another passage."])
        with write_transaction(engine) as conn:
            claimed = passage_store.claim_pending(conn, limit=10, now=1000.0, until=1300.0)
            assert [text for _, _, text in claimed] == ["One passage.", "Another passage."]
            assert passage_store.claim_pending(conn, limit=10, now=1299.0, until=1600.0) == []
            retaken = passage_store.claim_pending(conn, limit=10, now=1301.0, until=1600.0)
        assert retaken == claimed
    finally:
        engine.dispose()


def test_vectors_of_a_file_deleted_while_they_were_computed_are_dropped(
    database_url: str,
) -> None:
    engine = open_database(database_url)
    try:
        _add_file(engine, "f", ["One passage."])
        with write_transaction(engine) as conn:
            ((pid, file_id, _),) = passage_store.claim_pending(conn, limit=10, now=0, until=300)
        with write_transaction(engine, workspace=("o", "default")) as conn:
            file_store.delete_file(conn, org_id="o", workspace_id="default", file_id="f", now=1)
        with write_transaction(engine) as conn:  # what the embedder then writes
            passage_store.set_vectors(conn, model=MODEL, rows=[(pid, b"\0" * 512)])
            file_store.settle_vectors_pending(conn, [file_id])
        with engine.connect() as conn:
            left = conn.execute(sa.text("SELECT count(*) FROM passages")).scalar_one()
        assert (left, _pending(engine)) == (0, [])
    finally:
        engine.dispose()


def _scored(hits: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    """What ranks a hit or a source: its file, relevance and both halves of its score."""
    return [(h["file_id"], h["score"], h["scores"]["lexical"], h["scores"]["dense"]) for h in hits]


def _ask(c: httpx.Client, how: str) -> list[tuple[Any, ...]]:
    """``NAP`` asked through ``POST /files/search`` or a completion (its sources)."""
    if how == "search":
        return _scored(_search(c, NAP))
    completion = ask(c, NAP, model="service-l0", store=True)
    return _scored(c.get(f"/chat/completions/{completion['id']}/sources").json()["data"])


def _asked_at_once(service: Service, c: httpx.Client, how: str) -> list[tuple[Any, ...]]:
    """``NAP`` asked right after an upload whose vectors wait behind a backlog."""
    with client_for(service, new_org()) as other:
        upload(other, [BACKLOG], vectors=False)
    uploaded = upload(c, [CATS, BILLS], vectors=False)
    assert [f["status_details"] for f in uploaded] == [VECTORS_PENDING] * 2
    return _ask(c, how)


@pytest.mark.parametrize("how", ["search", "chat"])
def test_a_question_asked_right_after_an_upload_is_ranked_as_once_the_vectors_are_in(
    service: Service, org: str, how: str
) -> None:
    with client_for(service, org) as c:
        at_once = _asked_at_once(service, c, how)
        files = with_vectors(c, c.get("/files").json()["data"])
        later = _ask(c, how)
    cats = next(f["id"] for f in files if f["filename"] == "cats.md")
    assert at_once == later
    assert at_once[0][0] == cats
    assert at_once[0][3] > 0  # ranked with its vector


def test_a_service_told_not_to_wait_answers_by_words_at_once(tmp_path: Path, org: str) -> None:
    service = start_service(tmp_path / "no-wait", "--vectors-wait-seconds", "0")
    try:
        with client_for(service, org) as c:
            best = _asked_at_once(service, c, "search")[0]
            cats = next(
                f["id"] for f in c.get("/files").json()["data"] if f["filename"] == "cats.md"
            )
    finally:
        service.stop()
    assert best[0] == cats
    assert best[3] is None  # by its words alone: the question did not wait for the vector
