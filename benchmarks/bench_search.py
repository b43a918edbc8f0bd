"""6d. Search without asking: the work of ``POST /files/search`` against a completion's
retrieval step, over the stored files of 6b.

Both run in this process on the service's database, question after question in
alternating order: the completion's retrieval step is what ``operations/chat.py`` runs
before the model (:func:`~chatspace.service.retrieval.search.retrieve` for one user
message, at the service's threshold and a completion's default ``top_k``); the search is
:func:`~chatspace.service.operations.file_search.search_in` for the same question and
``top_k`` (its filter part's scope, the same ranking, then a quote and a hit per passage).
Over HTTP both would add the same request cycle. Each search's cited hits are also checked
to be the completion's passages, in order.
"""

from __future__ import annotations

import time
from pathlib import Path

from ._harness import Section, median, percentile

RETRIEVAL = "a completion's retrieval step"
SEARCH = "POST /files/search (its operation)"
TOP_K = 5
"""A completion's default ``top_k`` (``retrieval/scope.py``), given to the search too."""


def search_vs_retrieval(
    database: str | Path, org_id: str, questions: list[str]
) -> tuple[dict[str, list[float]], int]:
    """Seconds per question of each contender, and how many questions' cited hits
    differed from the completion's passages."""
    from chatspace.service.config import Settings
    from chatspace.service.operations.file_search import search_in
    from chatspace.service.retrieval.embeddings import WordLlamaEmbedder
    from chatspace.service.retrieval.index import open_index
    from chatspace.service.retrieval.search import retrieve
    from chatspace.service.store.db import open_database
    from chatspace.types import ChatMessage, FileSearchRequest

    engine = open_database(database)
    index = open_index(engine, WordLlamaEmbedder())
    threshold = Settings().relevance
    times: dict[str, list[float]] = {RETRIEVAL: [], SEARCH: []}
    differ = 0
    with engine.connect() as conn:

        def completion(question: str) -> list[tuple[str, str]]:
            found = retrieve(
                conn,
                org_id=org_id,
                workspace_id="default",
                messages=[ChatMessage(role="user", content=question)],
                index=index,
                relevance=threshold,
            )
            return [(p.file_id, p.text) for p in found.passages]

        def search(question: str) -> list[tuple[str, str]]:
            body = FileSearchRequest(query=question, top_k=TOP_K)
            hits = search_in(conn, org_id=org_id, body=body, index=index, relevance=threshold)
            return [(h.file_id, h.text) for h in hits.data if h.cited]

        contenders = {RETRIEVAL: completion, SEARCH: search}
        completion("warm up")  # loads the model, warms the caches
        search("warm up")
        for i, question in enumerate(questions):
            results = {}
            for name in list(contenders)[i % 2 :] + list(contenders)[: i % 2]:
                start = time.perf_counter()
                results[name] = contenders[name](question)
                times[name].append(time.perf_counter() - start)
            differ += results[RETRIEVAL] != results[SEARCH]
    engine.dispose()
    return times, differ


def section(files: int, times: dict[str, list[float]], differ: int) -> Section:
    found = Section(
        "search",
        f"6d. Search without asking over {files:,} stored files",
        baseline=RETRIEVAL,
        unit_notes="Milliseconds per question (lower is better), in-process on its database, "
        f"top_k {TOP_K}.",
    )
    for name, values in times.items():
        found.add(name, p50_ms=median(values) * 1e3, p99_ms=percentile(values, 99) * 1e3)
    found.goal(
        "search within 1.1x of a completion's retrieval step (p50)",
        found.ratio(SEARCH, "p50_ms") <= 1.1,
    )
    found.goal(
        "the search cites the completion's passages, in order, for every question", not differ
    )
    return found
