"""Retrieval on PostgreSQL (docs/decisions.md, retrieval per engine): the ``tsvector``
index with its per-workspace idf and folded accents, pgvector's HNSW index under a
selective filter, the in-memory fallback where ``vector`` cannot be created, and deletes
reaching both indexes.

Against a real PostgreSQL server (the run's with ``--engine postgres``, else one started
here), with the real embedding model.
"""

from __future__ import annotations

import itertools
import random
import string
from collections.abc import Iterator
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
import sqlalchemy as sa

from chatspace.service.retrieval.dense import DenseIndex, Nearest
from chatspace.service.retrieval.embeddings import Embedder, MiniLMEmbedder, WordLlamaEmbedder
from chatspace.service.retrieval.extract import extract
from chatspace.service.retrieval.index import PassageIndex, open_index
from chatspace.service.retrieval.postgres_index import PgVectors
from chatspace.service.retrieval.scope import Scope
from chatspace.service.retrieval.search import Passage, Searched, query_of, search
from chatspace.service.store import files as file_store
from chatspace.service.store import schema
from chatspace.service.store.db import open_database
from chatspace.service.store.migrations import MIGRATIONS, m015_vector_dimensions, migrate
from chatspace.service.store.passages import forget_other_vectors
from chatspace.service.store.transactions import write_transaction
from chatspace.service.vectors import embed_batch
from chatspace.types import ChatMessage
from support import engines
from support.chat import ask, client_for, upload
from support.pg_server import PgServer, running_postgres
from support.rows import add_indexed_file
from support.service import start_service

EMBEDDER = WordLlamaEmbedder()
ANIMALS = ("cats", "dogs", "rabbits", "parrots", "hamsters", "ferrets", "turtles", "horses")
DOINGS = ("nap", "play", "eat", "sleep", "run", "hide", "climb", "rest", "purr", "bark")
PLACES = ("sofa", "garden", "kitchen", "porch", "barn", "meadow", "window", "attic", "yard")
TIMES = ("at dawn", "every afternoon", "after lunch", "at night", "on Sundays")
PETS = [
    f"Our {a} {d} in the {p} {t}."
    for a, d, p, t in itertools.product(ANIMALS, DOINGS, PLACES, TIMES)
]  # 3,600 passages about pets
FINANCE = [
    f"Invoice {i} of the finance team is paid within {i + 20} days by bank transfer."
    for i in range(8)
]


@pytest.fixture(scope="module")
def pg() -> Iterator[PgServer]:
    if engines.current is not None:
        yield engines.current.pg
        return
    with running_postgres() as server:
        yield server


@pytest.fixture
def db(pg: PgServer) -> Iterator[sa.Engine]:
    engine = open_database(pg.new_database())
    yield engine
    engine.dispose()


def _search(
    engine: sa.Engine, index: PassageIndex, org: str, question: str, **scope: object
) -> tuple[Passage, ...]:
    query = query_of([ChatMessage(role="user", content=question)])
    with engine.connect() as conn:
        return search(
            conn,
            org_id=org,
            workspace_id="default",
            query=query,
            scope=Scope(**scope),  # type: ignore[arg-type]
            index=index,
        )


@pytest.mark.parametrize(
    ("model", "index_name", "pets"),
    [
        (WordLlamaEmbedder, "passages_embedding_wordllama", len(PETS)),
        # MiniLM embeds some 100 passages a second here: 400 pets (4 s, not 40) still
        # leave the finance file out of the ~40 nearest; run once, it is PostgreSQL's
        pytest.param(
            MiniLMEmbedder,
            "passages_embedding_minilm",
            400,
            marks=[pytest.mark.slow, pytest.mark.postgres_only],
        ),
    ],
)
def test_a_selective_filter_still_gets_top_k_through_hnsw(
    db: sa.Engine, model: type[Embedder], index_name: str, pets: int
) -> None:
    """The HNSW index alone gives the ~40 nearest passages of the whole table, which a
    filter part leaving one small file empties; iterative scan keeps going until the
    filter has left ``top_k``. Each model's vectors (256 and 384 numbers in one column)
    have an index of their own, which its queries use."""
    embedder = EMBEDDER if model is WordLlamaEmbedder else model()
    index = open_index(db, embedder)
    assert isinstance(index.dense, PgVectors)
    add_indexed_file(db, index, org="o", file_id="pets", passages=PETS[:pets])
    add_indexed_file(db, index, org="o", file_id="finance", passages=FINANCE)
    question = "Where do the cats sleep in the afternoon?"
    q = "[" + ",".join(map(str, embedder.embed([question])[0])) + "]"
    dim, name = embedder.dim, embedder.name
    nearest = (
        f"SELECT id FROM passages WHERE file_id = 'finance' AND vector_model = '{name}' "
        f"ORDER BY embedding::halfvec({dim}) <=> '{q}'::halfvec({dim}) LIMIT 5"
    )
    with db.begin() as conn:
        conn.exec_driver_sql("ANALYZE passages")
        for setting in ("enable_seqscan", "enable_bitmapscan", "enable_sort"):
            conn.exec_driver_sql(f"SET LOCAL {setting} = off")  # the plan a big table gets
        scope = Scope(file_ids=frozenset({"finance"}), top_k=5)
        plan = conn.exec_driver_sql(f"EXPLAIN {nearest}")
        assert f"Index Scan using {index_name}" in "\n".join(r[0] for r in plan)
        without = conn.exec_driver_sql(nearest).all()
        assert len(without) < 5, "without iterative scan, the filter empties the HNSW result"
        near = index.dense.nearest(
            conn, where=("o", "default"), question=question, scope=scope, limit=5, also=[]
        )
    finance = {pid for (pid,) in _ids(db, "finance")}
    assert len(near.best) == 5
    assert set(near.best) <= finance
    assert near.best == sorted(near.best, key=lambda pid: -near.cosine[pid])


@pytest.mark.slow
@pytest.mark.postgres_only  # run once: the SQLite run would start a server for it alone
def test_vectors_stored_before_m015_stay_and_minilm_vectors_join_them(pg: PgServer) -> None:
    """A database whose ``embedding`` column was ``halfvec(256)`` (migrations up to m014)
    keeps its WordLlama vectors through ``m015_vector_dimensions``, found through the
    WordLlama index; a service on MiniLM then re-embeds them at 384 numbers in the same
    column, found through its own index."""
    url = pg.new_database()
    before = MIGRATIONS[: MIGRATIONS.index(m015_vector_dimensions)]
    older = sa.create_engine(url)
    try:
        assert migrate(older, before) == [m.__name__ for m in before]
        index = open_index(older, EMBEDDER)
        add_indexed_file(older, index, org="o", file_id="pets", passages=PETS[:40])
        add_indexed_file(older, index, org="o", file_id="bills", passages=FINANCE)
    finally:
        older.dispose()
    engine = open_database(url)  # m015
    try:
        question = "When are the invoices of the finance team paid?"
        for embedder in (EMBEDDER, MiniLMEmbedder()):
            index = open_index(engine, embedder)
            assert isinstance(index.dense, PgVectors)
            with engine.begin() as conn:
                forget_other_vectors(conn, model=embedder.name, embedding=True)
            while embed_batch(engine, index.dense):
                pass
            with engine.connect() as conn:
                stored = conn.exec_driver_sql(
                    "SELECT DISTINCT vector_model, vector_dims(embedding) FROM passages"
                ).all()
                near = index.dense.nearest(
                    conn, where=("o", "default"), question=question, scope=Scope(None),
                    limit=5, also=[],
                )  # fmt: skip
            assert stored == [(embedder.name, embedder.dim)]
            assert {pid for (pid,) in _ids(engine, "bills")} >= set(near.best[:3])
    finally:
        engine.dispose()


def _ids(engine: sa.Engine, file_id: str) -> list[tuple[int]]:
    with engine.connect() as conn:
        query = sa.select(schema.passages.c.id).where(schema.passages.c.file_id == file_id)
        return [(int(pid),) for pid in conn.scalars(query)]


def test_a_hybrid_search_asks_the_database_four_times(db: sa.Engine) -> None:
    """The term counts, the candidates, the nearest passages (the HNSW settings, the
    similarity of the candidates and the text of the nearest that are not candidates in
    the same statement), the files' titles: four round trips, each waiting for a core on
    a loaded machine (there were seven: benchmarks/results, 8g)."""
    index = open_index(db, EMBEDDER)
    add_indexed_file(db, index, org="o", file_id="pets", passages=PETS[:400])
    add_indexed_file(db, index, org="o", file_id="finance", passages=FINANCE)
    statements: list[str] = []

    def count(*args: object) -> None:
        statements.append(str(args[2]))

    question = "Which invoice do the cats pay after lunch?"
    _search(db, index, "o", question, file_ids=None, top_k=5)  # the words' stems, once
    sa.event.listen(db, "before_cursor_execute", count)
    found = _search(db, index, "o", question, file_ids=None, top_k=5)
    sa.event.remove(db, "before_cursor_execute", count)
    assert [p.file_id for p in found][:1] == ["finance"]
    assert len(statements) == 4, statements


def test_a_search_run_again_is_planned_for_its_terms(db: sa.Engine) -> None:
    """psycopg prepares a statement it has run five times; PostgreSQL may then plan it
    for any parameters (a generic plan), which computes the terms' tsquery on every row
    and took 2.5x as long over 10,000 files: the service's connections plan each search
    for its own terms."""
    index = open_index(db, EMBEDDER)
    add_indexed_file(db, index, org="o", file_id="pets", passages=PETS[:400])
    with db.connect() as conn:
        for _ in range(12):
            search(
                conn,
                org_id="o",
                workspace_id="default",
                query=query_of([ChatMessage(role="user", content="Where do cats nap?")]),
                scope=Scope(file_ids=None),
                index=index,
                relevance=0.1,
            )
        plans = conn.exec_driver_sql(
            "SELECT generic_plans, custom_plans FROM pg_prepared_statements "
            "WHERE strpos(statement, 'matching AS MATERIALIZED') > 0"
        ).all()
    assert plans, "the candidates statement is prepared"
    assert all(generic == 0 and custom > 0 for generic, custom in plans), plans


def test_the_nearest_passages_are_read_as_by_id_reads_them(db: sa.Engine) -> None:
    """The nearest passages read with their similarity are those ``by_id`` reads (text,
    file name, place, hits of the terms), in the order of ``best``, less those asked
    about already."""
    index = open_index(db, EMBEDDER)
    assert isinstance(index.dense, PgVectors)
    add_indexed_file(db, index, org="o", file_id="pets", passages=PETS[:400])
    add_indexed_file(db, index, org="o", file_id="finance", passages=FINANCE)
    terms = ("cats", "invoice")
    where = ("o", "default")
    dense = index.dense
    with db.connect() as conn:

        def nearest(also: list[int]) -> Nearest:
            question = "Which invoice do the cats pay?"
            scope = Scope(file_ids=None)
            return dense.nearest(
                conn, where=where, question=question, scope=scope, limit=20, also=also, terms=terms
            )

        near = nearest([])
        assert near.passages is not None
        assert near.passages == index.text.by_id(conn, where=where, terms=terms, ids=near.best)
        assert any(p.hits for _, p in near.passages)
        also = near.best[::2]
        fewer = nearest(also)
    assert fewer.best == near.best
    assert fewer.passages == [hit for hit in near.passages if hit[0] not in also]


def test_idf_is_counted_in_the_workspace_alone(db: sa.Engine) -> None:
    """Another org's uploads change neither the term counts nor the relevance of this
    workspace's passages: one GIN index, but the statistics of each workspace."""
    index = open_index(db, EMBEDDER)
    add_indexed_file(db, index, org="a", file_id="a1", passages=[*FINANCE[:4], "The cats nap."])
    question = "Which invoice do the cats have?"
    before = _search(db, index, "a", question, file_ids=None, top_k=5)
    with db.connect() as conn:
        counts = index.text.counts(conn, where=("a", "default"), terms=("cats", "invoice"))
    assert counts == (5, [1, 4])
    # with counts over the whole table, "cats" would now be the common word
    add_indexed_file(db, index, org="b", file_id="b1", passages=PETS[:300])
    with db.connect() as conn:
        assert index.text.counts(conn, where=("a", "default"), terms=("cats", "invoice")) == counts
        assert index.text.counts(conn, where=("b", "default"), terms=("cats",)) == (300, [300])
    after = _search(db, index, "a", question, file_ids=None, top_k=5)
    assert [(p.file_id, p.ord, p.relevance) for p in after] == [
        (p.file_id, p.ord, p.relevance) for p in before
    ]
    assert before[0].text == "The cats nap."  # "cats" is the rarer word in workspace a


def test_accents_and_punctuation_fold_as_on_sqlite(db: sa.Engine) -> None:
    """No ``unaccent`` here: ``chatspace_fold`` maps "é" to "e" and "8:30" to two words,
    and the spans it marks are the passage's own characters."""
    index = open_index(db, None)
    add_indexed_file(
        db, index, org="o", file_id="cafe", passages=["The Café opens at 8:30 in Nîmes."]
    )
    (found,) = _search(db, index, "o", "When does the cafe in nimes open? 8", file_ids=None)
    assert [found.text[a:b] for a, b in found.hits] == ["Café", "opens", "8", "Nîmes"]


def test_candidates_cut_anywhere_are_the_head_of_every_match_ranked(db: sa.Engine) -> None:
    """``ts_rank_cd`` is computed only for the passages whose cover reaches the
    ``limit``-th best: whatever the limit (inside a cover of many ties, at its edge, past
    every match), the candidates are the first ``limit`` of all the matches ranked, in
    the same order and with the same scores."""
    index = open_index(db, None)
    cats = [f"The cats {'nap ' * (i % 4)}and the cats purr {i}." for i in range(12)]
    both = [f"Invoice {i} for the cats' food{' and toys' * i}." for i in range(3)]
    add_indexed_file(db, index, org="o", file_id="mixed", passages=[*cats, *both, *FINANCE[:4]])
    add_indexed_file(db, index, org="o", file_id="pets", passages=PETS[-5:])  # horses: no match

    def candidates(limit: int) -> list[tuple[str, int, float]]:
        with db.connect() as conn:
            found = index.text.candidates(
                conn,
                where=("o", "default"),
                terms=("invoice", "cats"),
                weights=(2.0, 0.5),
                scope=Scope(file_ids=None),
                limit=limit,
            )
        return [(p.file_id, p.ord, p.score) for _, p in found]

    every = candidates(100)
    assert len(every) == 19  # 3 with both terms, then 4 invoices, then 12 of cats
    assert [ord_ for _, ord_, _ in every[:3]] == [12, 13, 14]
    assert every[3:7] == sorted(every[3:7], key=lambda c: (c[2], c[1]))
    assert len({score for _, _, score in every[7:]}) > 1  # the cats' passages rank apart
    for limit in range(1, 21):
        assert candidates(limit) == every[:limit], limit


def test_common_terms_are_read_only_when_their_passages_can_rank(db: sa.Engine) -> None:
    """Past the bound, the common terms find candidates only all together (:class:`Searched`)
    and in a scan of their own, gated: a passage holding them and no rare term covers
    their weights alone, so while the ``limit``-th passage of the rare term covers more,
    that scan reads nothing (the statement's plan says it never ran). Whatever the
    limit, the candidates are the head of every match ranked."""
    index = open_index(db, None)
    invoices = [f"Invoice {i} for the cats' food{' in the garden' * (i % 2)}." for i in range(4)]
    both = [f"The cats play in the garden {'and nap ' * i}on day {i}." for i in range(6)]
    cats = [f"The cats nap on day {i}." for i in range(5)]  # one common term: not searched
    add_indexed_file(db, index, org="o", file_id="mixed", passages=[*invoices, *both, *cats])
    plans: list[dict[str, object]] = []

    def candidates(limit: int) -> list[tuple[int, float]]:
        with db.connect() as conn:
            found = index.text.candidates(
                conn,
                where=("o", "default"),
                terms=("invoice", "cats", "garden"),
                weights=(3.0, 0.5, 0.6),
                scope=Scope(file_ids=None),
                limit=limit,
                searched=Searched(("invoice",), ("cats", "garden")),
            )
        return [(p.ord, p.score) for _, p in found]

    def explain(conn: object, cursor: object, statement: str, params: object, *_: object) -> None:
        if "common AS MATERIALIZED" in statement:
            raw = db.raw_connection()
            try:
                with raw.cursor() as cur:
                    cur.execute("EXPLAIN (ANALYZE, FORMAT JSON) " + statement, params)
                    plans.append(cur.fetchone()[0][0]["Plan"])
            finally:
                raw.close()

    every = candidates(100)
    assert [ord_ for ord_, _ in every[:4]] == [1, 3, 0, 2]  # the invoices, garden first
    assert [ord_ for ord_, _ in every[4:]] == sorted(range(4, 10), key=lambda o: every[o][1])
    sa.event.listen(db, "before_cursor_execute", explain)
    try:
        for limit in range(1, 12):
            assert candidates(limit) == every[:limit], limit
    finally:
        sa.event.remove(db, "before_cursor_execute", explain)
    scans = [_full_text_scans_run(plan) for plan in plans]
    assert scans == [1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2], scans


def _full_text_scans_run(plan: dict[str, object]) -> int:
    """How many nodes of ``plan`` (EXPLAIN ANALYZE's JSON) that read the passages by their
    ``tsvector`` ran."""
    conditions = " ".join(str(plan.get(k, "")) for k in ("Filter", "Index Cond", "Recheck Cond"))
    ran = plan.get("Relation Name") == "passages" and "@@" in conditions
    ran = ran and plan.get("Actual Loops", 0) != 0
    children = plan.get("Plans", [])
    assert isinstance(children, list)
    return int(ran) + sum(_full_text_scans_run(child) for child in children)


def test_a_passages_tsvector_stays_in_its_row(db: sa.Engine) -> None:
    """The candidates statement reads the ``tsvector`` of every passage it scores: kept in
    the row (``m019_search_vector_inline``), not out of line where PostgreSQL moves a
    row's largest value past 2 KB; the text and the vectors, read for the few kept, go."""
    index = open_index(db, EMBEDDER)
    rng = random.Random(7)
    words = ["".join(rng.choices(string.ascii_lowercase, k=8)) for _ in range(1000)]
    long = [" ".join(words[i : i + 90]) for i in range(0, 900, 90)]  # 809 characters each
    add_indexed_file(db, index, org="o", file_id="words", passages=long)
    with db.connect() as conn:
        stored = conn.exec_driver_sql(
            "SELECT count(*), count(pg_column_toast_chunk_id(search_vector)), "
            "count(pg_column_toast_chunk_id(text)) + count(pg_column_toast_chunk_id(vector)) "
            "+ count(pg_column_toast_chunk_id(embedding)), min(length(text)) "
            "FROM passages WHERE embedding IS NOT NULL"
        ).one()
    passages, tsvectors_out, others_out, shortest = stored
    assert passages == 10
    assert shortest > 800
    assert tsvectors_out == 0
    assert others_out >= passages  # the rows are that long: something else left them


def test_a_table_cell_holding_nul_is_indexed(db: sa.Engine, tmp_path: Path) -> None:
    """PostgreSQL's ``text`` cannot hold NUL: a cell's (Parquet, sheets) becomes a space,
    as in prose, instead of failing the upload."""
    path = tmp_path / "cities.parquet"
    pq.write_table(pa.table({"city": ["Lyon\x00x", "Nice"], "n": [1, 2]}), path)
    extracted = extract(path, filename=path.name, content_type="application/octet-stream")
    assert extracted is not None
    index = open_index(db, None)
    add_indexed_file(db, index, org="o", file_id="cities", extracted=extracted)
    (found,) = _search(db, index, "o", "lyon", file_ids=None)
    assert found.text == "city,n\nLyon x,1\nNice,2"


def test_a_deleted_file_is_gone_from_both_indexes(db: sa.Engine) -> None:
    index = open_index(db, EMBEDDER)
    add_indexed_file(db, index, org="o", file_id="pets", passages=PETS[:40])
    add_indexed_file(db, index, org="o", file_id="finance", passages=FINANCE)
    found = _search(db, index, "o", "bank invoice", file_ids=None, top_k=5)
    assert [p.file_id for p in found] == ["finance"] * 5
    with write_transaction(db) as conn:
        file_store.delete_file(conn, org_id="o", workspace_id="default", file_id="finance", now=2)
    found = _search(db, index, "o", "bank invoice", file_ids=None, top_k=5)
    assert [p.file_id for p in found] == ["pets"] * 5  # by meaning alone, barely
    assert all(p.hits == () and p.relevance < 0.2 for p in found)
    with db.begin() as conn:
        conn.exec_driver_sql("SET LOCAL enable_sort = off")  # through the HNSW index
        assert index.dense is not None
        near = index.dense.nearest(
            conn,
            where=("o", "default"),
            question="money owed to suppliers",
            scope=Scope(file_ids=None),
            limit=50,
            also=[],
        )
        assert len(near.best) == 40
        left = conn.scalar(sa.text("SELECT count(*) FROM passages WHERE file_id = 'finance'"))
    assert left == 0
    assert set(near.best) == {pid for (pid,) in _ids(db, "pets")}


def test_without_pgvector_the_service_compares_vectors_in_memory(
    pg: PgServer, tmp_path: Path
) -> None:
    """A database owned by a role that may not ``CREATE EXTENSION vector``: the migration
    leaves the column out, the service says so once at start-up and still finds passages
    by meaning."""
    url = pg.new_database(owner="plain")
    engine = open_database(url)
    try:
        index = open_index(engine, EMBEDDER, tmp_path / "dense")
        assert isinstance(index.dense, DenseIndex)
    finally:
        engine.dispose()
    service = start_service(tmp_path / "data", env={"CHATSPACE_DATABASE_URL": url})
    try:
        line = service.wait_for_log("pgvector is not installed")
        assert "compared in memory" in line
        with client_for(service, "org-plain") as c:
            upload(c, [("cats.md", "Our felines nap on the sofa every afternoon.\n")])
            upload(c, [("bills.md", "Invoices are paid within thirty days.\n")])
            loose = {"type": "filter", "relevance": 0}
            answer = ask(c, [{"type": "text", "text": "Where do the cats sleep?"}, loose])
            notes = answer["choices"][0]["message"]["annotations"]
            assert notes[0]["file_citation"]["filename"] == "cats.md"
        assert sum("pgvector is not installed" in line for line in service.log) == 1
    finally:
        service.stop()


_KEPT_TERMS = "SELECT org_id, workspace_id, term, passages FROM fts_terms"
_RECOUNTED_TERMS = (
    "SELECT p.org_id, p.workspace_id, t.term, count(*) FROM passages AS p, "
    "unnest(tsvector_to_array(p.search_vector)) AS t(term) "
    "GROUP BY p.org_id, p.workspace_id, t.term"
)
_KEPT_PASSAGES = "SELECT org_id, workspace_id, passages FROM fts_workspaces"
_RECOUNTED_PASSAGES = (
    "SELECT org_id, workspace_id, count(*) FROM passages GROUP BY org_id, workspace_id"
)


def _term_stats(url: str) -> dict[tuple[str, str, str], int]:
    """The kept statistics (terms, and ``""`` for the passages of a workspace), after
    checking them against a recount of the passages."""
    engine = sa.create_engine(url)
    try:
        with engine.connect() as conn:
            kept = {tuple(r[:-1]): r[-1] for r in conn.exec_driver_sql(_KEPT_TERMS)}
            assert kept == {tuple(r[:-1]): r[-1] for r in conn.exec_driver_sql(_RECOUNTED_TERMS)}
            passages = {(o, w, ""): n for o, w, n in conn.exec_driver_sql(_KEPT_PASSAGES)}
            recounted = {(o, w, ""): n for o, w, n in conn.exec_driver_sql(_RECOUNTED_PASSAGES)}
            assert passages == recounted
    finally:
        engine.dispose()
    return {**kept, **passages}


_COUNT_INSERTS = (
    "CREATE TABLE insert_statements (at timestamptz DEFAULT now())",
    "CREATE FUNCTION count_insert() RETURNS trigger LANGUAGE plpgsql AS "
    "$$ BEGIN INSERT INTO insert_statements DEFAULT VALUES; RETURN NULL; END $$",
    "CREATE TRIGGER count_inserts AFTER INSERT ON passages "
    "FOR EACH STATEMENT EXECUTE FUNCTION count_insert()",
)


def test_an_uploads_passages_are_one_statement(pg: PgServer, tmp_path: Path) -> None:
    """The term statistics' triggers run once a statement: the passages of an upload's
    files are written by one ``INSERT``, so they count each term once, not once a passage
    (an executemany's one-row statements made uploads of a large workspace 5x slower:
    benchmarks/results/results-scale.md). The counts still equal a recount."""
    url = pg.new_database()
    service = start_service(tmp_path / "data", env={"CHATSPACE_DATABASE_URL": url})
    try:
        engine = sa.create_engine(url)
        with engine.begin() as conn:
            for statement in _COUNT_INSERTS:
                conn.exec_driver_sql(statement)
        texts = [" ".join(PETS[i * 60 : (i + 1) * 60]) for i in range(3)]  # 3 passages each
        with client_for(service, "org-batch") as c:
            upload(c, [(f"pets-{i}.md", text) for i, text in enumerate(texts)])
        with engine.connect() as conn:
            passages = conn.scalar(sa.text("SELECT count(*) FROM passages"))
            statements = conn.scalar(sa.text("SELECT count(*) FROM insert_statements"))
        engine.dispose()
        assert (passages, statements) == (9, 1)
        assert _term_stats(url)[("org-batch", "default", "")] == 9
    finally:
        service.stop()


def test_term_statistics_follow_uploads_deletes_and_expiry(pg: PgServer, tmp_path: Path) -> None:
    """``fts_terms`` and ``fts_workspaces`` (migration ``m013_term_stats``) equal a recount
    of the passages after each write that adds or removes some, or none (a metadata
    update); a term no passage has any more, and a deleted workspace, leave no row."""
    url = pg.new_database()
    env = {"CHATSPACE_DATABASE_URL": url}
    org = "org-stats"
    service = start_service(tmp_path / "data", env=env)
    try:
        with client_for(service, org) as c:
            assert c.post("/workspaces", json={"id": "lab", "name": "Lab"}).status_code == 200
            invoices, cats, _ = upload(
                c,
                [
                    ("invoices.md", "Invoices are paid within thirty days.\n\nLate invoices."),
                    ("cats.md", "Our cats nap on the sofa.\n\nThe cats purr."),
                    ("notes.md", "Set max_query_memory before the import."),
                ],
            )
            upload(c, [("lab.md", "Invoices of the lab.")], workspace="lab")
            stats = _term_stats(url)
            assert stats[(org, "default", "invoic")] == stats[(org, "lab", "invoic")] == 1
            assert stats[(org, "default", "")] == 3
            patched = c.patch(f"/files/{cats['id']}/metadata", json={"team": "pets"})
            assert patched.status_code == 200
            assert _term_stats(url) == stats
            assert c.delete(f"/files/{invoices['id']}").status_code == 200
            stats = _term_stats(url)
            assert (org, "default", "invoic") not in stats
            assert (org, "default", "thirti") not in stats
        engine = open_database(url)
        try:
            index = open_index(engine, None)
            with engine.connect() as conn:
                terms = ["cats", "max_query_memory", "against", "zebra"]
                n, counts = index.text.counts(conn, where=(org, "default"), terms=terms)
                recount = [
                    conn.scalar(
                        sa.text(
                            "SELECT count(*) FROM passages WHERE org_id = :o AND workspace_id "
                            "= 'default' AND search_vector @@ "
                            "phraseto_tsquery('english', chatspace_fold(:t))"
                        ),
                        {"o": org, "t": t},
                    )
                    for t in terms
                ]
            assert (n, counts) == (stats[(org, "default", "")], recount)
            assert counts == [1, 1, 0, 0]  # cats, a phrase, a stop word, an unknown word
        finally:
            engine.dispose()
    finally:
        service.stop()
    # expiry: the row aged behind the service's back, then the service's own sweep
    write_engine = sa.create_engine(url)
    with write_engine.begin() as conn:
        conn.execute(sa.text("UPDATE files SET expires_at = 1 WHERE id = :id"), {"id": cats["id"]})
    write_engine.dispose()
    service = start_service(tmp_path / "data", env=env)
    try:
        service.wait_for_log("1 expired file(s)")
        stats = _term_stats(url)
        assert (org, "default", "cat") not in stats
        assert stats[(org, "default", "")] == 1  # notes.md, one passage
        with client_for(service, org) as c:
            assert c.delete("/workspaces/lab").status_code == 200
        assert {key[:2] for key in _term_stats(url)} == {(org, "default")}
    finally:
        service.stop()
