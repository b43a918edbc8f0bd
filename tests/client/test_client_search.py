"""``client.files.search`` (sync and async) against the real service: the hits of
``POST /files/search``, one page, and their DataFrame."""

from __future__ import annotations

import pytest

from chatspace.client._frames import COLUMNS
from chatspace.errors import UnprocessableEntityError
from chatspace.types import SearchHit
from support.clients import AnyClient, collect, run

pytestmark = pytest.mark.anyio

FILES = {
    "contract.txt": b"The annual fee is 12,000 euros, paid in January.",
    "pricing.txt": b"The setup fee is 500 euros. Support is free.",
    "garden.txt": b"Tomatoes need sun and water.",
}


async def _upload(client: AnyClient) -> dict[str, str]:
    ids = {}
    for name, content in FILES.items():
        kind = "money" if name != "garden.txt" else "other"
        ids[name] = (
            await run(client.files.upload(content, filename=name, metadata={"kind": kind}))
        ).id
    return ids


async def test_search_gives_hits_best_first_in_one_page(client: AnyClient) -> None:
    ids = await _upload(client)
    page = await run(client.files.search("What is the annual fee?", top_k=2, relevance=0))
    hits = await collect(page)
    assert all(isinstance(h, SearchHit) for h in hits)
    assert [h.filename for h in hits] == ["contract.txt", "pricing.txt"]
    assert hits[0].file_id == ids["contract.txt"]
    assert hits[0].quote == "The annual fee is 12,000 euros, paid in January."
    assert [h.cited for h in hits] == [True, True]  # relevance 0: no cut
    assert page.has_more is False
    assert page.page.query == "What is the annual fee?"


async def test_the_cut_filter_and_file_ids_reach_the_service(client: AnyClient) -> None:
    ids = await _upload(client)
    question = "What is the annual fee?"
    cut = await collect(client.files.search(question, top_k=3, relevance=0.99))
    assert [h.cited for h in cut] == [False] * len(cut)
    assert cut
    money = await collect(client.files.search(question, filter={"kind": "money"}, relevance=0))
    assert {h.filename for h in money} == {"contract.txt", "pricing.txt"}
    as_text = await collect(client.files.search(question, filter='{"kind": "money"}', relevance=0))
    assert as_text == money
    only = await collect(client.files.search(question, file_ids=[ids["garden.txt"]], relevance=0))
    assert [h.filename for h in only] == ["garden.txt"]


async def test_to_pandas_has_the_documented_columns(client: AnyClient) -> None:
    await _upload(client)
    frame = await run(client.files.search("annual fee", relevance=0).to_pandas())
    assert list(frame.columns) == list(COLUMNS["hits"]) == [
        "rank", "file_id", "filename", "quote", "score", "lexical", "dense", "cited",
        "page", "sheet", "row", "slide", "cell", "line", "text",
    ]  # fmt: skip
    assert list(frame["rank"]) == list(range(1, len(frame) + 1))
    assert frame.loc[0, "filename"] == "contract.txt"
    assert frame["cited"].dtype == bool
    assert frame["cited"].all()
    assert str(frame["page"].dtype) == "Int64"
    assert frame["page"].isna().all()
    assert frame["score"].is_monotonic_decreasing
    empty = await run(
        client.files.search("annual fee", workspace="default", file_ids=[]).to_pandas()
    )
    assert empty.empty
    assert empty.dtypes.to_dict() == frame.dtypes.to_dict()


async def test_bad_input_is_a_422_naming_the_field(client: AnyClient) -> None:
    with pytest.raises(UnprocessableEntityError) as caught:
        await collect(client.files.search("fee", top_k=51))
    assert [e["loc"] for e in caught.value.detail] == [["body", "top_k"]]
