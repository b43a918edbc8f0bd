"""7. Retrieval quality: recall@5, nDCG@10, MRR and honest silence, side by side.

The evaluation set (``data/retrieval``, written by :mod:`.retrieval_corpus`) is uploaded
through a real ``chatspace serve``, so extraction, passage splitting and indexing are the
service's own. The rankings are then computed in this process on the service's database
(WAL allows a second reader) by the service's own functions, with different settings:

- ``service today``: the last user message's terms joined by OR, ranked by FTS5 bm25,
  every match cited (what the service did before the relevance rule);
- ``bm25s``: the same passages and question in the ``bm25s`` library (English stop
  words, no stemmer), every passage with a positive score cited;
- ``dense alone``: the passages most similar to the question by the service's embedding
  model (WordLlama), every one cited;
- ``chatspace, full text only``: :func:`retrieve`'s query (follow-ups with their
  conversation) and relevance rule at the default threshold, without vectors
  (``--embeddings off``);
- ``chatspace (hybrid)``: the same with vectors, as the service runs by default;
- ``... (PostgreSQL)``: the same two, with the same files uploaded through a service on a
  PostgreSQL server of its own (``tests/support/pg_server.py``): the ``tsvector``/GIN
  full text and pgvector's HNSW (docs/decisions.md, retrieval per engine).

Relevance is judged per file: a question's answer is in one file. recall@5: that file is
among the files of the 5 passages the service would cite (default ``top_k``); nDCG@10
and MRR: over the files of the 10 best passages, in order of their best passage.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from ._harness import Section
from ._service import start, wait_for_vectors

DATA = Path(__file__).parent / "data" / "retrieval"
NO_ANSWER = ("no-answer", "no-answer-near", "no-answer-in-conversation")
TODAY = "service today (FTS5 bm25, OR)"
BM25S = "bm25s"
DENSE = "dense alone (WordLlama)"
LEXICAL = "chatspace, full text only"
NEW = "chatspace (hybrid)"
LEXICAL_PG = "chatspace, full text only (PostgreSQL)"
NEW_PG = "chatspace (hybrid, PostgreSQL)"
CONTENDERS = (TODAY, BM25S, DENSE, LEXICAL, NEW)
SWEEP = (0.0, 0.2, 0.3, 0.35, 0.4, 0.45, 0.5, 0.6)

Ranker = Callable[[dict[str, Any]], list[str]]  # question -> file paths of the passages


def load(size: str) -> tuple[dict[str, str], list[dict[str, Any]]]:
    """The files (path -> text) and questions; ``tiny`` keeps a sixth of the files."""
    root = DATA / "files"
    files = {p.relative_to(root).as_posix(): p.read_text() for p in sorted(root.rglob("*"))
             if p.is_file()}  # fmt: skip
    questions = [json.loads(line) for line in (DATA / "questions.jsonl").read_text().splitlines()]
    if size == "tiny":
        files = {k: v for i, (k, v) in enumerate(files.items()) if i % 6 == 0}
        questions = [q for q in questions if q["file"] is None or q["file"] in files][::4]
    return files, questions


def metrics(questions: Sequence[dict[str, Any]], ranked: Sequence[list[str]]) -> dict[str, float]:
    """recall@5, nDCG@10, MRR over answerable questions; the silent share of the rest."""
    hits5 = ndcg = rr = cited = 0.0
    answerable = silent = unanswerable = follow = follow_hits = 0
    for q, passages in zip(questions, ranked, strict=True):
        if q["kind"] in NO_ANSWER:
            unanswerable += 1
            silent += not passages
            continue
        answerable += 1
        cited += bool(passages[:5])
        found = q["file"] in passages[:5]
        hits5 += found
        if q["kind"] == "follow-up":
            follow += 1
            follow_hits += found
        files = list(dict.fromkeys(passages[:10]))
        if q["file"] in files:
            rank = files.index(q["file"]) + 1
            ndcg += 1 / math.log2(rank + 1)
            rr += 1 / rank
    n = max(answerable, 1)
    return {
        "recall_at_5": hits5 / n,
        "ndcg_at_10": ndcg / n,
        "mrr": rr / n,
        "no_answer_silent": silent / max(unanswerable, 1),
        "answerable_cited": cited / n,
        "follow_up_recall_at_5": follow_hits / max(follow, 1),
    }


def _rankers(
    conn: Any, org_id: str, path_of: dict[str, str]
) -> dict[str, Callable[..., list[str]]]:
    import bm25s
    import sqlalchemy as sa

    from chatspace.service.retrieval.dense import DenseIndex
    from chatspace.service.retrieval.embeddings import WordLlamaEmbedder
    from chatspace.service.retrieval.index import open_index
    from chatspace.service.retrieval.search import (
        DEFAULT_RELEVANCE,
        Query,
        question_of,
        search,
        search_terms,
    )

    dense = DenseIndex(WordLlamaEmbedder())
    chatspace, lexical = _chatspace_rankers(
        conn, org_id, path_of, open_index(conn.engine, dense.embedder)
    )

    def today(q: dict[str, Any]) -> list[str]:
        terms = search_terms(question_of(_messages(q)))
        query = Query(terms, (1.0,) * len(terms))
        found = search(conn, org_id=org_id, workspace_id="default", query=query, scope=_scope(),
                       index=lexical)  # fmt: skip
        return [path_of[p.file_id] for p in found]

    def dense_alone(q: dict[str, Any]) -> list[str]:
        sims = dense.similarities(conn, org_id=org_id, workspace_id="default",
                                  question=question_of(_messages(q)))  # fmt: skip
        return [path_of[owner_of[pid]] for pid in sims.best(10, file_ids=None)]

    rows = conn.execute(
        sa.text("SELECT id, file_id, text FROM passages WHERE org_id = :o ORDER BY id"),
        {"o": org_id},
    ).all()
    owners = [path_of[file_id] for _, file_id, _ in rows]
    owner_of = {pid: file_id for pid, file_id, _ in rows}
    retriever = bm25s.BM25()
    retriever.index(bm25s.tokenize([t for _, _, t in rows], stopwords="en", show_progress=False),
                    show_progress=False)  # fmt: skip

    def with_bm25s(q: dict[str, Any]) -> list[str]:
        tokens = bm25s.tokenize([question_of(_messages(q))], stopwords="en", show_progress=False)
        if not tokens.vocab:
            return []
        k = min(10, len(rows))
        docs, scores = retriever.retrieve(tokens, k=k, show_progress=False)
        return [owners[d] for d, s in zip(docs[0], scores[0], strict=True) if s > 0]

    return {
        TODAY: today,
        BM25S: with_bm25s,
        DENSE: dense_alone,
        LEXICAL: lambda q: chatspace(q, DEFAULT_RELEVANCE, hybrid=False),
        NEW: lambda q: chatspace(q, DEFAULT_RELEVANCE),
        "sweep": chatspace,
    }


def _scope() -> Any:
    from chatspace.service.retrieval.scope import Scope

    return Scope(file_ids=None, top_k=10)


def _messages(q: dict[str, Any]) -> list[Any]:
    from chatspace.types import ChatMessage

    return [ChatMessage.model_validate(m) for m in q["messages"]]


def _chatspace_rankers(
    conn: Any, org_id: str, path_of: dict[str, str], index: Any
) -> tuple[Callable[..., list[str]], Any]:
    """The service's ranking on ``index`` (``hybrid=False``: its full text alone), and
    that full-text-only index."""
    from chatspace.service.retrieval.index import PassageIndex
    from chatspace.service.retrieval.search import query_of, search

    lexical = PassageIndex(index.text, None)

    def chatspace(q: dict[str, Any], relevance: float, *, hybrid: bool = True) -> list[str]:
        found = search(
            conn,
            org_id=org_id,
            workspace_id="default",
            query=query_of(_messages(q)),
            scope=_scope(),
            relevance=relevance,
            index=index if hybrid else lexical,
        )
        return [path_of[p.file_id] for p in found]

    return chatspace, lexical


def _on_postgres(
    folder: Path, files: list[str], questions: list[dict[str, Any]], scratch: Path
) -> dict[str, list[list[str]]]:
    """The rankings of ``questions`` by the full-text-only and hybrid rules, with the files
    uploaded through a service on a PostgreSQL server of its own."""
    import sys

    from chatspace.service.retrieval.embeddings import WordLlamaEmbedder
    from chatspace.service.retrieval.index import open_index
    from chatspace.service.retrieval.search import DEFAULT_RELEVANCE
    from chatspace.service.store.db import open_database

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
    from support.pg_server import running_postgres

    with running_postgres() as pg:
        url = pg.new_database()
        service = start(scratch / "retrieval-quality-pg", "--database-url", url)
        try:
            org_id = "retrieval-quality"
            path_of = _upload(service.url, service.token(org=org_id), folder, files)
        finally:
            service.stop()
        engine = open_database(url)
        try:
            with engine.connect() as conn:
                index = open_index(engine, WordLlamaEmbedder())
                chatspace, _ = _chatspace_rankers(conn, org_id, path_of, index)
                return {
                    LEXICAL_PG: [chatspace(q, DEFAULT_RELEVANCE, hybrid=False) for q in questions],
                    NEW_PG: [chatspace(q, DEFAULT_RELEVANCE) for q in questions],
                }
        finally:
            engine.dispose()


def _upload(url: str, token: str, root: Path, paths: list[str]) -> dict[str, str]:
    from chatspace import Client

    path_of: dict[str, str] = {}
    with Client(base_url=url, token=token, max_retries=0) as client:
        for first in range(0, len(paths), 100):
            batch = paths[first : first + 100]
            uploaded = client.files.upload([root / p for p in batch], progress=False)
            for rel, f in zip(batch, uploaded, strict=True):
                path_of[f.id] = rel
        wait_for_vectors(client)
    return path_of


def run(size: dict[str, Any], scratch: Path) -> Section:
    from chatspace.service.retrieval.search import DEFAULT_RELEVANCE
    from chatspace.service.store.db import open_database

    files, questions = load(size["retrieval_quality"])
    folder = scratch / "retrieval-quality"
    for rel, text in files.items():
        (folder / rel).parent.mkdir(parents=True, exist_ok=True)
        (folder / rel).write_text(text)
    service = start(scratch / "retrieval-quality-data")
    try:
        org_id = "retrieval-quality"
        path_of = _upload(service.url, service.token(org=org_id), folder, list(files))
    finally:
        service.stop()
    engine = open_database(service.data_dir / "chatspace.db")
    results: dict[str, dict[str, list[list[str]]]] = {}
    with engine.connect() as conn:
        rank = _rankers(conn, org_id, path_of)
        for split in ("dev", "test"):
            part = [q for q in questions if q["split"] == split]
            found = results.setdefault(split, {})
            for name in CONTENDERS:
                found[name] = [rank[name](q) for q in part]
            if split == "dev":
                for t in SWEEP:
                    found[f"relevance {t}"] = [rank["sweep"](q, t) for q in part]
    engine.dispose()

    test = [q for q in questions if q["split"] == "test"]
    dev = [q for q in questions if q["split"] == "dev"]
    results["test"].update(_on_postgres(folder, list(files), test, scratch))
    kinds: dict[str, int] = {}
    for q in questions:
        kinds[q["kind"]] = kinds.get(q["kind"], 0) + 1
    section = Section(
        "retrieval-quality",
        f"7. Retrieval quality on the test split ({len(test)} questions, {len(files)} files)",
        baseline=TODAY,
        unit_notes=(
            "Shares from 0 to 1 (higher is better). Relevance per file. recall@5: the answer's "
            "file among the 5 passages cited; nDCG@10, MRR: files of the 10 best passages; "
            "no_answer_silent: questions no file answers that get no citation; "
            "answerable_cited: answerable questions with at least one citation."
        ),
    )
    for name in (*CONTENDERS, LEXICAL_PG, NEW_PG):
        section.add(name, **metrics(test, results["test"][name]))
    new, old = section.rows[NEW], section.rows[TODAY]
    section.goal("at least 90% of no-answer questions cite nothing", new["no_answer_silent"] >= 0.9)
    section.goal(
        "recall@5 on answerable questions not below today's",
        new["recall_at_5"] >= old["recall_at_5"],
    )
    section.goal(
        "hybrid nDCG@10 at least 10% above today's (the most it could be here is "
        f"{1 / old['ndcg_at_10']:.3f}x)",
        new["ndcg_at_10"] >= 1.1 * old["ndcg_at_10"],
    )
    section.goal(
        "hybrid nDCG@10 above bm25s'", new["ndcg_at_10"] > section.rows[BM25S]["ndcg_at_10"]
    )
    for sqlite, postgres in ((LEXICAL, LEXICAL_PG), (NEW, NEW_PG)):
        pairs = zip(results["test"][sqlite], results["test"][postgres], strict=True)
        same = sum(a[:5] == b[:5] for a, b in pairs)
        section.notes.append(
            f"{postgres}: the same files cited in the same order as on SQLite for {same} of "
            f"{len(test)} test questions (stems, stop words and term statistics differ: "
            "docs/decisions.md, retrieval per engine)"
        )
    section.notes.append(
        f"Set: {len(questions)} questions ({len(dev)} dev, {len(test)} test) over {len(files)} "
        "files; kinds: " + ", ".join(f"{k} {v}" for k, v in sorted(kinds.items()))
    )
    section.notes.append(
        f"Default relevance threshold {DEFAULT_RELEVANCE}, chosen on the dev split; the dev "
        "sweep (threshold: recall@5 / nDCG@10 / no_answer_silent / answerable_cited):"
    )
    for t in SWEEP:
        m = metrics(dev, results["dev"][f"relevance {t}"])
        section.notes.append(
            f"dev, relevance {t}: {m['recall_at_5']:.3f} / {m['ndcg_at_10']:.3f} / "
            f"{m['no_answer_silent']:.3f} / {m['answerable_cited']:.3f}"
        )
    for name in CONTENDERS:
        m = metrics(dev, results["dev"][name])
        section.notes.append(
            f"dev, {name}: recall@5 {m['recall_at_5']:.3f}, nDCG@10 {m['ndcg_at_10']:.3f}, "
            f"MRR {m['mrr']:.3f}, no_answer_silent {m['no_answer_silent']:.3f}"
        )
    return section
