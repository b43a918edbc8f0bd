"""Dense vectors of passages and questions, from a model that ships inside a wheel.

The default is WordLlama's ``l2_supercat`` at 256 dimensions: its 16 MB of weights come
inside the ``wordllama`` package, so it works offline on a fresh machine, and it embeds
about two thousand passages a second on one core (numpy, no torch). It is loaded with
``disable_download=True`` from the package's own directory (a plain ``load()`` would try
the network). Vectors are unit length, so a dot product is the cosine similarity, and
they are stored as float16 (512 bytes a passage): the ranking they give is the same as
float32's to three decimals.

WordLlama's own ``embed`` runs its tokenizer over each passage as one word (the model has
no pre-tokenizer) and pools a padded batch: most of the time of a batch. No token of its
vocabulary holds a ``▁`` (a space) after another character, so the text can be cut before
each such space and each piece tokenized alone with the same result (the merges of BPE
never cross a cut where no token does): :class:`_Tokens` does that, keeps the pieces it
has seen (prose repeats its words), and the passages are pooled one by one, unpadded.
The ids and so the vectors are WordLlama's own (``tests/service/test_embeddings.py``),
for a third to a fifth of the CPU (``benchmarks/results/results-scale.md``).

A stored vector names the model that made it (:attr:`Embedder.name`); vectors of another
model are recomputed, never compared (:mod:`chatspace.service.housekeeping`).
"""

from __future__ import annotations

import logging
import re
import threading
from collections.abc import Sequence
from itertools import chain
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Protocol

import numpy as np
import numpy.typing as npt

if TYPE_CHECKING:
    from tokenizers import Tokenizer
    from wordllama.inference import WordLlamaInference

__all__ = ["Embedder", "Vectors", "WordLlamaEmbedder", "from_blobs", "to_blobs"]

Vectors = npt.NDArray[np.float32]
"""Unit-length rows, one per text (a text without words gives a row of zeros)."""
_STORED = np.dtype("<f2")
_SPACE = "\u2581"
"""How the model's tokenizer writes a space (SentencePiece's ``▁``)."""
_PIECE = re.compile(f"{_SPACE}*[^{_SPACE}]+|{_SPACE}+")
"""A run of spaces and the characters up to the next space: no token spans two."""
PIECES_KEPT = 65_536
"""Pieces whose token ids :class:`_Tokens` keeps, by the text after their first ``▁`` (a
few MB; cleared when full)."""


class _Tokens:
    """The token ids of a text, as the model's tokenizer gives them, a piece at a time."""

    def __init__(self, tokenizer: Tokenizer) -> None:
        from tokenizers import Tokenizer

        # the BPE model alone: the pieces are normalized already
        self._bpe = Tokenizer.from_str(tokenizer.to_str()).model
        self._known: dict[str, list[int]] = {}

    def ids(self, text: str) -> list[int]:
        """The normalizer's work (a space before the text, each space as ``▁``), then each
        piece's ids. Where no space follows a space or starts the text, the pieces are the
        words between single spaces (``str.split``: the common case, in one pass)."""
        if not text:
            return []
        if "  " in text or text[0] == " " or _SPACE in text:
            normalized = _SPACE + text.replace(" ", _SPACE)
            words = [piece[1:] for piece in _PIECE.findall(normalized)]
        else:
            words = text.split(" ")
        found = list(map(self._known.get, words))
        if None in found:
            for at, word in enumerate(words):
                if found[at] is None:
                    found[at] = self._tokenized(word)
        return list(chain.from_iterable(found))  # type: ignore[arg-type]

    def _tokenized(self, word: str) -> list[int]:
        """The ids of the piece ``▁`` + ``word``, kept."""
        if len(self._known) >= PIECES_KEPT:
            self._known.clear()
        ids = self._known[word] = [token.id for token in self._bpe.tokenize(_SPACE + word)]
        return ids


class Embedder(Protocol):
    """What retrieval needs of an embedding model."""

    name: str
    dim: int

    def embed(self, texts: Sequence[str]) -> Vectors: ...


class WordLlamaEmbedder:
    """WordLlama ``l2_supercat`` (256 dimensions), loaded on first use from its wheel."""

    name = "wordllama/l2_supercat-256"
    dim = 256

    def __init__(self) -> None:
        self._model: tuple[_Tokens, npt.NDArray[np.float32]] | None = None
        self._lock = threading.Lock()

    def _loaded(self) -> tuple[_Tokens, npt.NDArray[np.float32]]:
        """The tokenizer and the token embeddings (a row per token id)."""
        with self._lock:
            if self._model is None:
                model = self.wordllama()
                self._model = _Tokens(model.tokenizer), np.asarray(model.embedding, np.float32)
            return self._model

    @classmethod
    def wordllama(cls) -> WordLlamaInference:
        """The model as WordLlama loads it (from its wheel, never the network)."""
        wordllama = _import_wordllama()
        model: WordLlamaInference = wordllama.WordLlama.load(
            "l2_supercat",
            cache_dir=Path(str(wordllama.__file__)).parent,
            dim=cls.dim,
            disable_download=True,
        )
        return model

    def embed(self, texts: Sequence[str]) -> Vectors:
        """Each text's mean token embedding (WordLlama's average pooling), unit length."""
        tokens, table = self._loaded()
        raw = np.zeros((len(texts), self.dim), np.float32)
        for row, text in enumerate(texts):
            if ids := tokens.ids(text):
                raw[row] = np.add.reduce(table[np.array(ids)], axis=0) / len(ids)
        norms = np.linalg.norm(raw, axis=1, keepdims=True)
        unit = np.zeros_like(raw)
        np.divide(raw, norms, out=unit, where=norms > 0)
        return unit


def _import_wordllama() -> ModuleType:
    """``wordllama``, imported without the ``logging.basicConfig(level=INFO)`` it runs on
    import: the root logger of the process that loads it stays as it was."""
    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    try:
        import wordllama
    finally:
        root.handlers[:] = handlers
        root.setLevel(level)
    module: ModuleType = wordllama
    return module


def to_blobs(vectors: Vectors) -> list[bytes]:
    """Each row as the bytes stored with its passage."""
    return [row.tobytes() for row in vectors.astype(_STORED)]


def from_blobs(blobs: Sequence[bytes], dim: int) -> Vectors:
    """The stored rows back as one float32 matrix (``len(blobs) x dim``)."""
    if not blobs:
        return np.zeros((0, dim), np.float32)
    return np.frombuffer(b"".join(blobs), _STORED).reshape(len(blobs), dim).astype(np.float32)
