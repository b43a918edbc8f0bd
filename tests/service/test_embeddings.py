"""The passage vectors are WordLlama's own: :class:`WordLlamaEmbedder` tokenizes a piece at
a time and pools unpadded (docs/decisions.md#when-are-a-files-passage-vectors-computed),
and gives the token ids and the vectors of WordLlama's ``embed`` for prose, code, runs of
spaces, tabs and newlines, characters outside the vocabulary (byte fallback) and empty
text."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from chatspace.service.retrieval.embeddings import WordLlamaEmbedder

SOURCES = sorted((Path(__file__).parents[2] / "src" / "chatspace" / "service").glob("*.py"))
ODD = [*"ab c  \n\t\u00e9\u4e2d\U0001f600.,;-_\u2581\x00\ufffd", "   ", "\u2581\u2581", "word"]


def _texts() -> list[str]:
    rng = random.Random(22)
    made = ["", " ", "  ", "\u2581", " x", "x ", "  x  y   ", "def f():\n        return 1\n"]
    made += ["".join(rng.choice(ODD) for _ in range(rng.randint(0, 80))) for _ in range(600)]
    made += [path.read_text()[:4000] for path in SOURCES[:12]]
    made += [
        "Invoices are paid within thirty days. The harbour accounts balanced once more.",
        "Our felines nap on the sofa every afternoon.\n\nWhere do the cats sleep?",
    ]
    return made


@pytest.fixture(scope="module")
def embedder() -> WordLlamaEmbedder:
    return WordLlamaEmbedder()


def test_the_token_ids_are_the_tokenizer_s_own(embedder: WordLlamaEmbedder) -> None:
    tokenizer = WordLlamaEmbedder.wordllama().tokenizer
    tokenizer.no_padding()
    texts = _texts()
    expected = [e.ids for e in tokenizer.encode_batch(texts, add_special_tokens=False)]
    tokens, _ = embedder._loaded()
    assert [tokens.ids(text) for text in texts] == expected


def test_the_vectors_are_wordllama_s(embedder: WordLlamaEmbedder) -> None:
    texts = _texts()
    raw = np.asarray(WordLlamaEmbedder.wordllama().embed(texts, norm=False), np.float32)
    norms = np.linalg.norm(raw, axis=1, keepdims=True)
    ours = embedder.embed(texts)
    assert ours.shape == (len(texts), 256)
    assert np.allclose(ours * norms, raw, atol=1e-6)
    assert not ours[0].any()  # no words: a row of zeros
    assert np.allclose(np.linalg.norm(ours[norms[:, 0] > 0], axis=1), 1, atol=1e-5)
    # stored as float16: the same bytes, but for a last bit in a few numbers
    same = ours.astype(np.float16) == (raw / np.where(norms > 0, norms, 1)).astype(np.float16)
    assert same.mean() > 0.999
