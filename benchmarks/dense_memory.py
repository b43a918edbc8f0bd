"""The dense index of one workspace at scale, in process: resident memory and time of a
load, of a question, and of a refresh after a file's vectors are added.

``python -m benchmarks.dense_memory --passages 100000 300000`` fills a SQLite database per
size with synthetic unit vectors (float16, as stored) under one workspace and measures the
:class:`~chatspace.service.retrieval.dense.DenseIndex` of the code on ``PYTHONPATH``, each
size in a process of its own; run it once with another tree first on ``PYTHONPATH`` to
compare (``results-scale.md``)."""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

QUESTIONS = 20
ADDED = 1_000
"""Vectors added (after the largest id) before the refresh is timed: 100 files' worth."""


def _rss_mb(kind: str = "RssAnon") -> float:
    """This process's resident MB of ``kind`` (``RssAnon``: its own memory; ``RssFile``:
    mapped files' pages, the page cache's)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(f"{kind}:"):
            return int(line.split()[1]) / 1024
    return 0.0


def _fill(url: str, count: int, first: int = 0) -> None:
    """``count`` passages with vectors, ten a file, one workspace."""
    import numpy as np
    import sqlalchemy as sa

    from chatspace.service.retrieval.embeddings import WordLlamaEmbedder, to_blobs
    from chatspace.service.store import schema
    from chatspace.service.store.db import open_database

    engine = open_database(url)
    rng = np.random.default_rng(first)
    with engine.begin() as conn:
        conn.exec_driver_sql("PRAGMA foreign_keys=OFF")
        for at in range(first, first + count, 10_000):
            n = min(10_000, first + count - at)
            vectors = rng.standard_normal((n, 256), dtype=np.float32)
            vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
            rows = [
                {
                    "file_id": f"file-{(at + i) // 10}",
                    "org_id": "o",
                    "workspace_id": "w",
                    "ord": (at + i) % 10,
                    "start": 0,
                    "text": "",
                    "locations": [],
                    "vector": blob,
                    "vector_model": WordLlamaEmbedder.name,
                }
                for i, blob in enumerate(to_blobs(vectors))
            ]
            conn.execute(sa.insert(schema.passages), rows)
    engine.dispose()


def measure(url: str) -> dict[str, float]:
    """In this process: the index's memory and times over the database at ``url``."""
    from chatspace.service.retrieval.dense import DenseIndex
    from chatspace.service.retrieval.dense_files import files_beside
    from chatspace.service.retrieval.embeddings import WordLlamaEmbedder
    from chatspace.service.store.db import open_database

    engine = open_database(url)
    dense = DenseIndex(WordLlamaEmbedder(), files_beside(engine))
    dense.embedder.embed(["warm up"])
    before = _rss_mb()
    asked = [f"What does section {i} say about indexes and tables?" for i in range(QUESTIONS)]
    with engine.connect() as conn:
        begin = time.perf_counter()
        dense.similarities(conn, org_id="o", workspace_id="w", question="load").best(
            50, file_ids=None
        )
        load_s = time.perf_counter() - begin
    held = _rss_mb() - before
    times = []
    for question in asked:
        with engine.connect() as conn:
            begin = time.perf_counter()
            sims = dense.similarities(conn, org_id="o", workspace_id="w", question=question)
            sims.best(50, file_ids=None)
            times.append((time.perf_counter() - begin) * 1e3)
    with engine.connect() as conn:
        count = conn.exec_driver_sql("SELECT count(*) FROM passages").scalar_one()
    _fill(url, ADDED, first=int(count))
    with engine.connect() as conn:
        begin = time.perf_counter()
        dense.similarities(conn, org_id="o", workspace_id="w", question="again").best(
            50, file_ids=None
        )
        refresh_s = time.perf_counter() - begin
    return {
        "passages": float(count),
        "held_mb": held,
        "bytes_per_passage": held * 1024 * 1024 / count,
        "load_s": load_s,
        "question_p50_ms": statistics.median(times),
        "question_max_ms": max(times),
        "refresh_s": refresh_s,
        "rss_anon_mb": _rss_mb(),
        "rss_file_mb": _rss_mb("RssFile"),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--passages", type=int, nargs="+", default=[100_000, 300_000])
    parser.add_argument("--measure", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure:
        print(json.dumps(measure(args.measure)))
        return
    with tempfile.TemporaryDirectory() as scratch:
        for count in args.passages:
            url = f"sqlite:///{scratch}/dense-{count}.db"
            _fill(url, count)
            found = subprocess.run(
                [sys.executable, "-m", "benchmarks.dense_memory", "--measure", url],
                check=True, capture_output=True, text=True,
            )  # fmt: skip
            print(json.dumps({"passages": count, **json.loads(found.stdout.splitlines()[-1])}))


if __name__ == "__main__":
    main()
