"""What replicas share besides the data, at the store level with the clock given: the
housekeeping lease (one holder at a time, taken over once it runs out) and the rate
limit's counters (a cap no concurrent writers can pass). On the run's engine: SQLite, or
PostgreSQL with ``--engine postgres``."""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest
import sqlalchemy as sa

from chatspace.service.problems import RateLimited
from chatspace.service.ratelimit import RateLimiter
from chatspace.service.store import leases, rate_counters
from chatspace.service.store.db import open_database


@pytest.fixture
def db(database_url: str) -> Iterator[sa.Engine]:
    engine = open_database(database_url)
    yield engine
    engine.dispose()


def _acquire(db: sa.Engine, holder: str, now: float, seconds: float = 30.0) -> bool:
    with db.begin() as conn:
        return leases.acquire(conn, name="job", holder=holder, now=now, seconds=seconds)


def _holder(db: sa.Engine, now: float) -> str | None:
    """Who holds the lease at ``now``, if anybody."""
    query = sa.text("SELECT holder FROM leases WHERE name = 'job' AND expires_at > :now")
    with db.connect() as conn:
        return conn.execute(query, {"now": now}).scalar()


def test_one_holder_at_a_time_until_the_lease_runs_out(db: sa.Engine) -> None:
    assert _acquire(db, "a", now=1000.0)
    assert not _acquire(db, "b", now=1010.0)  # a's lease runs until 1030
    assert _acquire(db, "a", now=1020.0)  # renewed until 1050
    assert not _acquire(db, "b", now=1049.0)
    assert _holder(db, now=1049.0) == "a"
    assert _acquire(db, "b", now=1050.0)  # a stopped renewing: b takes over
    assert not _acquire(db, "a", now=1051.0)
    assert _holder(db, now=1051.0) == "b"


def test_a_released_lease_is_free_at_once_and_only_its_holder_releases_it(
    db: sa.Engine,
) -> None:
    assert _acquire(db, "a", now=1000.0)
    with db.begin() as conn:
        leases.release(conn, name="job", holder="b")  # not b's to give up
    assert _holder(db, now=1001.0) == "a"
    with db.begin() as conn:
        leases.release(conn, name="job", holder="a")
    assert _holder(db, now=1001.0) is None
    assert _acquire(db, "b", now=1001.0)


def test_many_asking_at_once_one_gets_it(db: sa.Engine) -> None:
    with ThreadPoolExecutor(8) as pool:
        taken = list(pool.map(lambda i: _acquire(db, f"r{i}", now=1000.0), range(8)))
    assert taken.count(True) == 1


def test_a_second_counts_up_to_its_cap_however_many_count_at_once(db: sa.Engine) -> None:
    def hit(_: int) -> bool:
        with db.begin() as conn:
            return rate_counters.count_one(conn, org_id="o", user_id="u", second=5000, cap=10)

    with ThreadPoolExecutor(8) as pool:
        counted = list(pool.map(hit, range(25)))
    assert counted.count(True) == 10
    with db.connect() as conn:
        assert rate_counters.hits_since(conn, org_id="o", user_id="u", since=0) == [(5000, 10)]
    with db.begin() as conn:
        assert rate_counters.purge(conn, before=5000) == 0
        assert rate_counters.purge(conn, before=5001) == 1


def test_the_limit_is_shared_by_limiters_on_one_database(db: sa.Engine) -> None:
    """Two limiters (two replicas) on one database let ``per_minute`` through in all."""
    replicas = [RateLimiter(6, db), RateLimiter(6, db)]
    for i in range(6):
        replicas[i % 2].check("o", "u")
    for limiter in replicas:
        with pytest.raises(RateLimited) as refused:
            limiter.check("o", "u")
        assert 1 <= refused.value.retry_after <= 60
    replicas[0].check("o", "another user")
