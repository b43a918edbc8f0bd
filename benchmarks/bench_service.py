"""6. The service: stored completions per second under 16 clients, retrieval latency,
search without asking (:mod:`.bench_search`), and upload throughput with and without
passage vectors.

Completions are measured twice: in a workspace without files (nothing retrieved), and in
one whose :data:`ANSWERING_FILES` files all hold the question's word, so that each stored
completion also stores its sources (the passages retrieved for it): how much storing
costs with them beside how much it costs without, in the same run.

Retrieval is measured in this process on the service's own database (WAL mode allows a
second reader): the full-text search alone (FTS5 bm25, what the service ran before hybrid
retrieval) and the hybrid search the service runs now (full text, relevance, and the
dense similarity of every passage of the workspace), against scanning every passage and
scoring it by query-term counts, the way a search without an index would. A profile of
the service under the load says where its time goes. Uploads: a 10 MB set of prose
documents, once to a service that embeds every passage (the default: after answering,
in the background; timed until the answers and until the vectors are stored) and once
to one started with ``--embeddings off``.
"""

from __future__ import annotations

import re
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import sqlalchemy as sa

from . import bench_search
from ._harness import Section, median, percentile
from ._profile import sampled
from ._service import BenchService, start, wait_for_vectors

WORDS = (
    "river",
    "salmon",
    "harbor",
    "invoice",
    "budget",
    "forecast",
    "glacier",
    "orchard",
    "copper",
    "ledger",
    "turbine",
    "meadow",
    "lantern",
    "quarry",
    "violin",
    "beacon",
    "canyon",
    "prairie",
    "falcon",
    "marble",
    "tundra",
    "reactor",
    "pepper",
    "cobalt",
    "summit",
    "willow",
    "garnet",
    "plasma",
    "anchor",
    "compass",
)


def completion_rate(url: str, token: str, store: bool, total: int) -> float:
    """Completions per second from 16 concurrent clients, ``total`` in all."""
    from chatspace import Client

    clients = [Client(base_url=url, token=token, max_retries=0) for _ in range(16)]

    def work(i: int) -> None:
        clients[i % 16].chat.create(
            messages=[{"role": "user", "content": f"question {i} about the harbor"}], store=store
        )

    with ThreadPoolExecutor(16) as pool:
        start_t = time.perf_counter()
        list(pool.map(work, range(total)))
        seconds = time.perf_counter() - start_t
    for c in clients:
        c.close()
    return total / seconds


def upload_corpus(url: str, token: str, files: int, folder: Path) -> None:
    """``files`` small text files, sent 100 to a request (the corpus of retrieval latency)."""
    from chatspace import Client

    folder.mkdir()
    paths = []
    for i in range(files):
        words = " ".join(WORDS[(i * 7 + k * 3) % len(WORDS)] for k in range(60))
        path = folder / f"doc-{i}.txt"
        path.write_text(f"Document {i}. {words}. Reference code R{i}.")
        paths.append(path)
    with Client(base_url=url, token=token, max_retries=0) as client:
        for first in range(0, files, 100):
            client.files.upload(paths[first : first + 100], progress=False)
        wait_for_vectors(client)


def retrieval_questions(count: int) -> list[str]:
    """Questions on the words of :func:`upload_corpus`'s files."""
    return [
        f"What about {WORDS[i % len(WORDS)]} and {WORDS[(i * 5 + 1) % len(WORDS)]}?"
        for i in range(count)
    ]


def _scan(conn: sa.Connection, org_id: str, terms: list[str], top_k: int) -> list[int]:
    """The baseline: read every passage of the workspace and rank by term counts."""
    rows = conn.execute(
        sa.text("SELECT id, text FROM passages WHERE org_id = :o AND workspace_id = 'default'"),
        {"o": org_id},
    )
    patterns = [re.compile(rf"\b{re.escape(t)}\b", re.IGNORECASE) for t in terms]
    scored = []
    for pid, body in rows:
        score = sum(len(p.findall(body)) for p in patterns)
        if score:
            scored.append((-score, pid))
    scored.sort()
    return [pid for _, pid in scored[:top_k]]


def search_latency(
    database: str | Path, org_id: str, questions: list[str]
) -> dict[str, list[float]]:
    """Seconds per search of each question in ``org_id``'s default workspace, in this
    process on the service's database (a SQLite file, or a PostgreSQL URL): full text
    alone, hybrid, and the scan of every passage."""
    from chatspace.service.retrieval.embeddings import WordLlamaEmbedder
    from chatspace.service.retrieval.index import PassageIndex, open_index
    from chatspace.service.retrieval.scope import Scope
    from chatspace.service.retrieval.search import DEFAULT_RELEVANCE, Query, search, search_terms
    from chatspace.service.store.db import open_database

    engine = open_database(database)
    index = open_index(engine, WordLlamaEmbedder())
    lexical = PassageIndex(index.text, None)
    times: dict[str, list[float]] = {SCAN: [], FULL_TEXT: [], HYBRID: []}
    where = {"org_id": org_id, "workspace_id": "default", "scope": Scope(None)}
    with engine.connect() as conn:
        search(conn, **where, query=Query(("warm",), (1.0,), text="warm"), index=index)
        for q in questions:
            terms = search_terms(q)
            plain, hybrid = (
                Query(terms, (1.0,) * len(terms)),
                Query(terms, (1.0,) * len(terms), text=q),
            )
            t = time.perf_counter()
            search(conn, **where, query=plain, index=lexical)
            times[FULL_TEXT].append(time.perf_counter() - t)
            t = time.perf_counter()
            search(conn, **where, query=hybrid, relevance=DEFAULT_RELEVANCE, index=index)
            times[HYBRID].append(time.perf_counter() - t)
            t = time.perf_counter()
            _scan(conn, org_id, list(terms), 5)
            times[SCAN].append(time.perf_counter() - t)
    engine.dispose()
    return times


def _prose_set(folder: Path, megabytes: int) -> list[Path]:
    """About ``megabytes`` MB of prose documents of 50 KB."""
    folder.mkdir()
    sentence = "The {0} team reviewed the {1} budget and the {2} forecast before the {3} audit. "
    paths = []
    for i in range(megabytes * 20):
        words = [WORDS[(i * 7 + k) % len(WORDS)] for k in range(4)]
        path = folder / f"report-{i}.txt"
        path.write_text((sentence.format(*words) * 700)[: 50 * 1024])
        paths.append(path)
    return paths


def _upload_rate(service: BenchService, paths: list[Path]) -> tuple[float, float]:
    """Files per second, 20 to a request: until the last answer, and until the last
    file's passage vectors are stored (the service computes them after answering)."""
    from chatspace import Client

    with Client(base_url=service.url, token=service.fresh_token(), max_retries=0) as client:
        begin = time.perf_counter()
        for first in range(0, len(paths), 20):
            client.files.upload(paths[first : first + 20], progress=False)
        answered = time.perf_counter() - begin
        wait_for_vectors(client)
        return len(paths) / answered, len(paths) / (time.perf_counter() - begin)


SCAN = "scan every passage"
FULL_TEXT = "full text alone (before hybrid)"
HYBRID = "hybrid (chatspace)"
WITHOUT_VECTORS = "--embeddings off"
WITH_VECTORS = "embeddings on (default): answered"
VECTORS_STORED = "embeddings on: vectors stored"


ANSWERING_FILES = 8
WITH_FILES = f"over {ANSWERING_FILES} files"


def run(size: dict[str, Any], scratch: Path) -> list[Section]:
    service = start(scratch / "service-data")
    try:
        token = service.fresh_token()
        total = size["service_completions"]
        with sampled(service.process.pid, scratch / "service-profile.txt") as profile:
            stored = completion_rate(service.url, token, True, total)
        plain = completion_rate(service.url, token, False, total)
        answered = service.fresh_token()
        upload_corpus(service.url, answered, ANSWERING_FILES, scratch / "answering")
        stored_sources = completion_rate(service.url, answered, True, total)
        plain_sources = completion_rate(service.url, answered, False, total)
        org_id = f"retrieval-{time.time_ns()}"
        retrieval_token = service.token(org=org_id)
        upload_corpus(service.url, retrieval_token, size["retrieval_files"], scratch / "corpus")
        questions = retrieval_questions(size["retrieval_questions"])
        latency = search_latency(service.data_dir / "chatspace.db", org_id, questions)
        searched = bench_search.search_vs_retrieval(
            service.data_dir / "chatspace.db", org_id, questions
        )
    finally:
        service.stop()
    throughput = Section(
        "service",
        f"6a. Service: completions per second from 16 concurrent clients ({total:,} each)",
        baseline="store: false",
        unit_notes="Completions per second (higher is better).",
    )
    throughput.add("store: false", completions_per_s=plain)
    throughput.add("store: true", completions_per_s=stored)
    throughput.add(f"store: false, {WITH_FILES}", completions_per_s=plain_sources)
    throughput.add(f"store: true, {WITH_FILES} (sources kept)", completions_per_s=stored_sources)
    # ("store: true" above runs under the profiler: only this pair compares as it is)
    added = 1e3 * (1 / stored_sources - 1 / plain_sources)
    throughput.notes.append(
        f"{WITH_FILES.capitalize()}, storing a completion with its sources adds {added:.2f} ms "
        "of the 16 clients' time per completion."
    )
    throughput.notes.append("Where the service's time goes under the `store: true` load (py-spy):")
    throughput.notes += [f"`{line}`" for line in profile]
    retrieval = Section(
        "retrieval",
        f"6b. Retrieval latency over {size['retrieval_files']:,} stored files",
        baseline="scan every passage",
        unit_notes="Milliseconds per search (lower is better), in-process on its database.",
    )
    for name, values in latency.items():
        retrieval.add(name, p50_ms=median(values) * 1e3, p99_ms=percentile(values, 99) * 1e3)
    retrieval.goal(
        "hybrid search faster than scanning every passage (p99)",
        retrieval.ratio(HYBRID, "p99_ms") < 1,
    )
    retrieval.goal(
        "hybrid p99 at most 2x full text alone",
        retrieval.rows[HYBRID]["p99_ms"] <= 2 * retrieval.rows[FULL_TEXT]["p99_ms"],
    )
    search = bench_search.section(size["retrieval_files"], *searched)
    return [throughput, retrieval, upload_section(size, scratch), search]


def upload_section(size: dict[str, Any], scratch: Path) -> Section:
    """6c: the prose set uploaded to a new service with vectors, then to one without."""
    documents = _prose_set(scratch / "prose", size["upload_mb"])
    service = start(scratch / "upload-service-data")
    try:
        answered, stored_vectors = _upload_rate(service, documents)
    finally:
        service.stop()
    plain_service = start(scratch / "plain-service-data", "--embeddings", "off")
    try:
        rates = {WITHOUT_VECTORS: _upload_rate(plain_service, documents)[0]}
    finally:
        plain_service.stop()
    rates |= {WITH_VECTORS: answered, VECTORS_STORED: stored_vectors}
    uploads = Section(
        "uploads",
        f"6c. Uploads of {size['upload_mb']} MB of prose ({len(documents)} files of 50 KB)",
        baseline=WITHOUT_VECTORS,
        unit_notes="Files per second, 20 to a request (higher is better): until the last "
        "answer, and with vectors also until the last file's vectors are stored.",
    )
    for name in (WITHOUT_VECTORS, WITH_VECTORS, VECTORS_STORED):
        uploads.add(name, files_per_s=rates[name])
    uploads.goal(
        "uploads with vectors at least 0.5x of without",
        uploads.ratio(WITH_VECTORS, "files_per_s") >= 0.5,
    )
    uploads.notes.append(
        "Passage vectors are computed after the answer, in the background, batched across "
        "files (docs/decisions.md); a file is found by its words at once and by meaning "
        "once its `status_details` stop saying its vectors are pending."
    )
    return uploads
