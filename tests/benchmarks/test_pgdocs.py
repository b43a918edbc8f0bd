"""The PostgreSQL-manual set's split (``benchmarks/pgdocs.py``): the service is tuned on
``dev`` and reported on ``test``, so the split must be fixed and fair."""

from __future__ import annotations

from collections import Counter

from benchmarks.pgdocs import load


def test_each_kind_is_split_in_half_the_same_way_every_time() -> None:
    questions, _ = load()
    counts = Counter((q.kind, q.split) for q in questions)
    for kind in {q.kind for q in questions}:
        dev, test = counts[(kind, "dev")], counts[(kind, "test")]
        assert dev - test in (0, 1), (kind, dev, test)
    again, _ = load()
    assert [q.split for q in again] == [q.split for q in questions]
    first = [q.id for q in questions[:20]]
    assert {q.split for q in questions if q.id in first} == {"dev", "test"}, "not by order"
