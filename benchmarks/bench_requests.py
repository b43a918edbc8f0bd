"""1. Per-request overhead: non-streamed ``chat.create`` through chatspace, bare httpx, openai."""

from __future__ import annotations

import json
from typing import Any

import httpx

from chatspace._wire import DEFAULT_MODEL

from ._harness import Section, interleave, median, percentile
from ._service import BenchService

PROMPT = [{"role": "user", "content": "ping"}]


def run(service: BenchService, size: dict[str, Any]) -> Section:
    import openai

    from chatspace import Client

    token = service.fresh_token()
    body = json.dumps({"messages": PROMPT, "model": DEFAULT_MODEL}).encode()
    headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
    bare = httpx.Client(base_url=service.url, headers=headers)
    client = Client(base_url=service.url, token=token, max_retries=0)
    oai = openai.OpenAI(base_url=service.url, api_key=token, max_retries=0)

    def with_httpx() -> None:
        response = bare.post("/chat/completions", content=body)
        response.raise_for_status()
        response.json()

    def with_chatspace() -> None:
        client.chat.create(messages=PROMPT, model=DEFAULT_MODEL)

    def with_openai() -> None:
        oai.chat.completions.create(messages=PROMPT, model=DEFAULT_MODEL)  # type: ignore[arg-type]

    contenders = {"httpx": with_httpx, "chatspace": with_chatspace, "openai": with_openai}
    for op in contenders.values():  # warm connections and caches
        op()
    calls, rounds = size["requests"], size["rounds"]
    samples = interleave(contenders, rounds=rounds, per_round=max(1, calls // rounds))
    section = Section(
        "requests",
        f"1. Per-request overhead ({calls} non-streamed chat.create calls each)",
        baseline="httpx",
        unit_notes="Milliseconds per call; median and p99 over interleaved rounds.",
    )
    for name, values in samples.items():
        section.add(name, median_ms=median(values) * 1e3, p99_ms=percentile(values, 99) * 1e3)
    section.goal(
        "chatspace within 1.10x of bare httpx", section.ratio("chatspace", "median_ms") <= 1.10
    )
    section.goal(
        "chatspace faster than openai",
        section.rows["chatspace"]["median_ms"] < section.rows["openai"]["median_ms"],
    )
    for closable in (bare, client, oai):
        closable.close()
    return section
