"""Which terms find the candidates in a large workspace (:func:`searched_terms`): the
rare terms alone, the common ones only all together, so that the candidates query scores
a bounded number of matches (docs/decisions.md, candidates bounded by the rare terms);
on SQLite and on a real PostgreSQL server (the run's with ``--engine postgres``, else one
started here). The bound is lowered here so that a few hundred passages cross it.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa

from chatspace.service.retrieval import search as search_module
from chatspace.service.retrieval.index import open_index
from chatspace.service.retrieval.scope import Scope
from chatspace.service.retrieval.search import (
    SEARCHED_POSTINGS,
    Passage,
    Searched,
    query_of,
    rank,
    searched_terms,
)
from chatspace.service.store.db import open_database
from chatspace.types import ChatMessage
from support import engines
from support.pg_server import running_postgres
from support.rows import add_indexed_file

MILLION = 1_000_000


def test_every_term_is_searched_while_their_matches_fit() -> None:
    assert searched_terms(("say", "rare"), (SEARCHED_POSTINGS - 100, 100), MILLION) is None


def test_past_the_bound_common_terms_are_searched_together_or_not_at_all() -> None:
    terms = ("say", "rare", "table", "column")
    # 100 + 15,000 fit; 30,000 and 40,000 are both in about 1,200 of a million passages
    both = searched_terms(terms, (15_000, 100, 30_000, 40_000), MILLION)
    assert both == Searched(("say", "rare"), ("table", "column"))
    # 300,000 and 400,000 would both be in 120,000: too many to score, left out
    many = searched_terms(terms, (15_000, 100, 300_000, 400_000), MILLION)
    assert many == Searched(("say", "rare"))
    # one common term alone would be as costly as before: left out
    assert searched_terms(("rare", "table"), (100, 30_000), MILLION) == Searched(("rare",))
    # every term common: the passages holding all of them
    every = searched_terms(("table", "column"), (30_000, 40_000), MILLION)
    assert every == Searched((), ("table", "column"))


@pytest.fixture(params=["sqlite", "postgres"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[sa.Engine]:
    if request.param == "sqlite":
        engine = open_database(tmp_path / "chatspace.db")
        yield engine
        engine.dispose()
        return
    if engines.current is not None:
        engine = open_database(engines.current.pg.new_database())
        yield engine
        engine.dispose()
        return
    with running_postgres() as server:
        engine = open_database(server.new_database())
        yield engine
        engine.dispose()


INVOICES = ["Invoice 1 is paid.", "Invoice 2 is paid.", "Invoice 3 covers the cats' food."]
GARDEN_CATS = [f"The cats play in the garden, day {i}." for i in range(10)]
CATS = [f"The cats nap, day {i}." for i in range(40)]
GARDEN = [f"The garden party, day {i}." for i in range(40)]
DOGS = [f"The dogs bark, day {i}." for i in range(400)]


def _ranked(engine: sa.Engine, question: str) -> tuple[Passage, ...]:
    index = open_index(engine, None)
    query = query_of([ChatMessage(role="user", content=question)])
    with engine.connect() as conn:
        found = rank(
            conn,
            org_id="o",
            workspace_id="default",
            query=query,
            scope=Scope(file_ids=None, top_k=100),
            index=index,
            relevance=0.01,
        )
    return found.passages


def test_a_passage_holding_only_some_common_terms_is_not_a_candidate(
    database: sa.Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    """ "invoice" is in 3 passages, "garden" in 50 and "cats" in 51 of 493: past a bound of
    10 matches, "garden" and "cats" are searched together (about 5 passages would hold
    both), so the 80 passages holding one of them alone are no longer scored. Those found
    are still ranked and marked by every term: the invoice about the cats covers two."""
    index = open_index(database, None)
    for file_id, passages in (
        ("invoices", INVOICES),
        ("both", GARDEN_CATS),
        ("cats", CATS),
        ("garden", GARDEN),
        ("dogs", DOGS),
    ):
        add_indexed_file(database, index, org="o", file_id=file_id, passages=passages)
    question = "Which invoice is about cats in the garden?"
    every = _ranked(database, question)
    assert len(every) == 93  # any term: 3 invoices, 10 + 40 + 40 of the animals
    monkeypatch.setattr(search_module, "SEARCHED_POSTINGS", 10)
    bounded = _ranked(database, question)
    assert sorted(p.text for p in bounded) == sorted([*INVOICES, *GARDEN_CATS])
    assert bounded[0].text == INVOICES[2]
    assert [bounded[0].text[a:b] for a, b in bounded[0].hits] == ["Invoice", "cats"]
    before = {p.text: p.lexical for p in every}
    assert {p.text: p.lexical for p in bounded} == {p.text: before[p.text] for p in bounded}
