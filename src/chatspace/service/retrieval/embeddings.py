"""Dense vectors of passages and questions, from a model that ships inside a wheel.

The default is WordLlama's ``l2_supercat`` at 256 dimensions: its 16 MB of weights come
inside the ``wordllama`` package, so it works offline on a fresh machine, and it embeds
about two thousand passages a second on one core (numpy, no torch). It is loaded with
``disable_download=True`` from the package's own directory (a plain ``load()`` would try
the network). Vectors are unit length, so a dot product is the cosine similarity, and
they are stored as float16 (512 bytes a passage): the ranking they give is the same as
float32's to three decimals.

A stored vector names the model that made it (:attr:`Embedder.name`); vectors of another
model are recomputed, never compared (:mod:`chatspace.service.housekeeping`).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Protocol

import numpy as np
import numpy.typing as npt

if TYPE_CHECKING:
    from wordllama.inference import WordLlamaInference

__all__ = ["Embedder", "Vectors", "WordLlamaEmbedder", "from_blobs", "to_blobs"]

Vectors = npt.NDArray[np.float32]
"""Unit-length rows, one per text (a text without words gives a row of zeros)."""
_STORED = np.dtype("<f2")


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
        self._model: WordLlamaInference | None = None
        self._lock = threading.Lock()

    def _loaded(self) -> WordLlamaInference:
        with self._lock:
            if self._model is None:
                wordllama = _import_wordllama()
                self._model = wordllama.WordLlama.load(
                    "l2_supercat",
                    cache_dir=Path(str(wordllama.__file__)).parent,
                    dim=self.dim,
                    disable_download=True,
                )
            return self._model

    def embed(self, texts: Sequence[str]) -> Vectors:
        if not texts:
            return np.zeros((0, self.dim), np.float32)
        raw = np.asarray(self._loaded().embed(list(texts), norm=False), np.float32)
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
