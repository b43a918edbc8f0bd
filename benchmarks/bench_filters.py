"""10. Filtered file lists: ``GET /files`` of 10,000 files with a metadata filter, against
the same list unfiltered, on SQLite and on PostgreSQL (docs/interface.md#metadata-filters).

Each engine gets a service of its own (PostgreSQL: the tests' server,
``tests/support/pg_server.py``) and 10,000 file rows written straight into its database
through the store (a list reads rows only; uploading 10,000 files would measure uploads).
Every file has a number ``year``, a string ``team``, an ISO ``date`` and a number-like
string ``code``. The filters keep a fifth to a half of the files; each is timed on the
first page (100 files and the ``total`` over all of them, what the panel and
``%files list --max-items`` ask) and on the whole list (what ``client.files.list()``
pages through), round by round against the unfiltered request of the same shape.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx

from ._harness import Section, interleave, median
from ._service import BenchService, start

TEAMS = ("ml", "bi", "ops", "data")
FILTERS: dict[str, dict[str, Any]] = {
    "eq shorthand (team=ml)": {"team": "ml"},
    "gte number (year>=2024)": {"type": "gte", "key": "year", "value": 2024},
    "date range (2024-03-01..2024-09-30)": {
        "type": "and",
        "filters": [
            {"type": "gte", "key": "date", "value": "2024-03-01"},
            {"type": "lt", "key": "date", "value": "2024-09-30T00:00:00Z"},
        ],
    },
    "or of in and lt on a string number": {
        "type": "or",
        "filters": [
            {"type": "in", "key": "team", "value": ["bi", "ops"]},
            {"type": "lt", "key": "code", "value": 100},
        ],
    },
}
UNFILTERED = "unfiltered"


def _fill(database: str, org: str, count: int) -> None:
    """``count`` file rows of ``org``'s default workspace, written through the store."""
    from chatspace.service.store.db import open_database
    from chatspace.service.store.files import create_file, new_file_id

    engine = open_database(database)
    now = int(time.time())
    with engine.begin() as conn:
        for i in range(count):
            metadata = {
                "year": 2015 + i % 10,
                "team": TEAMS[i % len(TEAMS)],
                "date": f"2024-{1 + i % 12:02d}-{1 + i % 28:02d}",
                "code": str(i % 1000),
                "title": f"Report {i}",
            }
            create_file(
                conn, file_id=new_file_id(), org_id=org, workspace_id="default",
                user_id="bench", filename=f"doc-{i}.txt", size=100, sha256="0" * 64,
                content_type="text/plain", purpose="user_data", metadata=metadata,
                status_details="", created_at=now - i, expires_at=None, blob=f"none-{i}",
            )  # fmt: skip
    engine.dispose()


@contextmanager
def _postgres(scratch: Path) -> Iterator[tuple[BenchService, str]]:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
    from support.pg_server import running_postgres

    with running_postgres() as pg:
        url = pg.new_database()
        service = start(scratch / "pg-data", "--database-url", url)
        try:
            yield service, url
        finally:
            service.stop()


def _measure(
    section: Section, engine: str, service: BenchService, database: str, size: dict[str, Any]
) -> None:
    org = "bench-filters"
    count = size["filter_files"]
    _fill(database, org, count)
    token = service.token(org=org)
    client = httpx.Client(
        base_url=service.url, headers={"Authorization": f"Bearer {token}"}, timeout=120
    )

    def listing(flt: dict[str, Any] | None, limit: int) -> Callable[[], int]:
        params: dict[str, Any] = {"limit": limit}
        if flt is not None:
            params["metadata"] = json.dumps(flt)

        def run() -> int:
            response = client.get("/files", params=params)
            response.raise_for_status()
            return int(response.json()["total"])

        return run

    for shape, limit in (("first page of 100", 100), ("whole list", count)):
        contenders = {UNFILTERED: listing(None, limit)}
        contenders |= {name: listing(flt, limit) for name, flt in FILTERS.items()}
        kept = {name: op() for name, op in contenders.items()}  # warm, and checked
        assert kept[UNFILTERED] == count
        samples = interleave(contenders, rounds=size["filter_rounds"], per_round=1)
        base = median(samples[UNFILTERED])
        section.add(f"{engine}, {shape}: {UNFILTERED}", seconds=base, files=count)
        worst = 0.0
        for name in FILTERS:
            seconds = median(samples[name])
            ratio = seconds / base
            worst = max(worst, ratio)
            section.add(
                f"{engine}, {shape}: {name}", seconds=seconds, files=kept[name], ratio=ratio
            )
        section.goal(f"{engine}, {shape}: every filter within 2x of the unfiltered list "
                     f"(worst {worst:.2f}x)", worst <= 2.0)  # fmt: skip
    client.close()


def run(size: dict[str, Any], scratch: Path) -> Section:
    section = Section(
        "filters",
        f"10. Filtered file lists of {size['filter_files']:,} files, SQLite and PostgreSQL",
        baseline=f"SQLite, first page of 100: {UNFILTERED}",
        unit_notes="Median seconds per GET /files over HTTP; `ratio` is to the unfiltered "
        "list of the same engine and shape, measured in the same rounds; `files` is the "
        "`total` the filter keeps.",
    )
    sqlite = start(scratch / "sqlite-data")
    try:
        _measure(section, "SQLite", sqlite, str(scratch / "sqlite-data" / "chatspace.db"), size)
    finally:
        sqlite.stop()
    with _postgres(scratch) as (service, url):
        _measure(section, "PostgreSQL", service, url, size)
    return section
