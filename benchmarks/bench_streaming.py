"""2. Streaming: time to first chunk and chunks per second."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import httpx

from chatspace._wire import DEFAULT_MODEL

from ._harness import Section, median
from ._service import BenchService

QUESTION = "What does the river report say about salmon migration and water temperature?"


def _corpus(paragraphs: int) -> bytes:
    lines = []
    for i in range(paragraphs):
        lines.append(
            f"Section {i}. The river report notes that salmon migration begins when the water "
            f"temperature falls below {8 + i % 5} degrees. Observers counted {100 + i} fish "
            "near the weir, and the temperature logs agree with the migration counts."
        )
    return "\n\n".join(lines).encode()


def run(service: BenchService, size: dict[str, Any]) -> Section:
    import openai

    from chatspace import Client

    token = service.fresh_token()
    client = Client(base_url=service.url, token=token, max_retries=0)
    client.files.upload(_corpus(size["stream_paragraphs"]), filename="river.txt", progress=False)
    request = {
        "messages": [{"role": "user", "content": QUESTION}],
        "model": DEFAULT_MODEL,
        "n": size["stream_n"],
    }
    headers = {"Authorization": f"Bearer {token}"}
    bare = httpx.Client(base_url=service.url, headers=headers)
    oai = openai.OpenAI(base_url=service.url, api_key=token, max_retries=0)

    names = ["httpx", "chatspace", "openai"]
    ttfc: dict[str, list[float]] = {name: [] for name in names}
    rate: dict[str, list[float]] = {name: [] for name in names}
    chunks_seen: dict[str, int] = {}
    for r in range(size["streams"]):
        for name in names[r % 3 :] + names[: r % 3]:
            first, count, total = _timed_stream(name, request, client, bare, oai)
            ttfc[name].append(first)
            rate[name].append(count / total)
            chunks_seen[name] = count
    section = Section(
        "streaming",
        f"2. Streaming ({size['streams']} streams each, {chunks_seen['chatspace']} chunks)",
        baseline="httpx",
        unit_notes="Time to first chunk in ms (lower is better); chunks per second (higher).",
    )
    for name in names:
        section.add(name, ttfc_ms=median(ttfc[name]) * 1e3, chunks_per_s=median(rate[name]))
    section.goal(
        "chatspace time to first chunk within 1.10x of bare httpx",
        section.ratio("chatspace", "ttfc_ms") <= 1.10,
    )
    section.goal(
        "chatspace time to first chunk lower than openai's",
        section.rows["chatspace"]["ttfc_ms"] < section.rows["openai"]["ttfc_ms"],
    )
    for closable in (bare, client, oai):
        closable.close()
    return section


def _timed_stream(
    name: str, request: dict[str, Any], client: Any, bare: Any, oai: Any
) -> tuple[float, int, float]:
    """(seconds to the first chunk, chunks, seconds in all) for one stream."""
    start = time.perf_counter()
    first = None
    count = 0
    for _ in _chunks(name, request, client, bare, oai):
        if first is None:
            first = time.perf_counter() - start
        count += 1
    total = time.perf_counter() - start
    return first or total, count, total


def _chunks(name: str, request: dict[str, Any], client: Any, bare: Any, oai: Any) -> Iterator[Any]:
    if name == "chatspace":
        with client.chat.stream(**request) as stream:
            yield from stream
    elif name == "httpx":
        with bare.stream("POST", "/chat/completions", json={**request, "stream": True}) as r:
            for line in r.iter_lines():
                if line.startswith("data: ") and line != "data: [DONE]":
                    yield json.loads(line[6:])
    else:
        with oai.chat.completions.create(stream=True, **request) as stream:
            yield from stream
