"""3. Listing: every stored completion into a DataFrame, vs a bare page loop + json_normalize."""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx

from ._harness import Section, interleave, median
from ._service import BenchService


def fill(
    service: BenchService,
    token: str,
    count: int,
    question: Callable[[int], str] = "question {}".format,
) -> None:
    """``count`` stored completions, the ``i``-th asking ``question(i)``, created from 8
    threads to save wall time."""
    from chatspace import Client

    with Client(base_url=service.url, token=token) as client:

        def create(i: int) -> None:
            client.chat.create(
                messages=[{"role": "user", "content": question(i)}],
                store=True,
                metadata={"batch": str(i % 10)},
            )

        with ThreadPoolExecutor(8) as pool:
            list(pool.map(create, range(count)))


def run(service: BenchService, size: dict[str, Any]) -> Section:
    import pandas as pd

    from chatspace import Client

    token = service.fresh_token()
    count = size["listing"]
    fill(service, token, count)
    client = Client(base_url=service.url, token=token, max_retries=0)
    bare = httpx.Client(base_url=service.url, headers={"Authorization": f"Bearer {token}"})

    def with_chatspace() -> int:
        return len(client.chat.list(limit=100).to_pandas())

    def with_httpx() -> int:
        rows: list[dict[str, Any]] = []
        params: dict[str, Any] = {"limit": 100}
        while True:
            page = bare.get("/chat/completions", params=params).json()
            rows += page["data"]
            if not page["has_more"]:
                break
            params["after"] = page["last_id"]
        return len(pd.json_normalize(rows))

    assert with_chatspace() == with_httpx() == count
    samples = interleave(
        {"httpx + json_normalize": with_httpx, "chatspace to_pandas": with_chatspace},
        rounds=size["listing_rounds"],
        per_round=1,
    )
    section = Section(
        "listing",
        f"3. Listing {count:,} stored completions into a DataFrame",
        baseline="httpx + json_normalize",
        unit_notes="Seconds for the whole list (lower is better) and rows per second.",
    )
    for name, values in samples.items():
        seconds = median(values)
        section.add(name, seconds=seconds, rows_per_s=count / seconds)
    section.goal(
        "chatspace at least as fast as the bare loop",
        section.ratio("chatspace to_pandas", "seconds") <= 1.0,
    )
    client.close()
    bare.close()
    return section
