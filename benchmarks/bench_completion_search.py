"""3b. Completion search: the service's word index vs the kernel-side scan it replaced.

Until m009, ``%completions search`` paged through the newest 5,000 completions and
matched their question and answer in the kernel; now it asks ``GET /chat/completions
?search=``. Both are timed here side by side, for a rare pair of words (the scan reads
its 5,000 completions) and a common word (the scan stops at its 100th hit)."""

from __future__ import annotations

from typing import Any

from ._harness import Section, interleave, median
from ._service import BenchService
from .bench_listing import fill

_TOPICS = 50
_CITIES = 37
_SCAN = 5000  # what the old scan read at most
_HITS = 100  # %completions search's default --max-items


def _question(i: int) -> str:
    """About one of 50 topics in one of 37 cities."""
    return f"What is the status of topic{i % _TOPICS} in city{i % _CITIES}? (request {i})"


def run(service: BenchService, size: dict[str, Any]) -> Section:
    from chatspace import Client
    from chatspace.client import to_pandas

    token = service.fresh_token()
    count = size["search_completions"]
    fill(service, token, count, _question)
    client = Client(base_url=service.url, token=token, max_retries=0)

    def scan(text: str) -> int:
        """The old ``%completions search``: newest first, matched in the kernel, found
        ones into a DataFrame (its questions were in the bodies, as here)."""
        words = text.casefold().split()
        found = []
        for seen, completion in enumerate(client.chat.list(order="desc", limit=100), start=1):
            haystack = f"{completion.question or ''}\n{completion.text}".casefold()
            if all(word in haystack for word in words):
                found.append(completion)
            if len(found) >= _HITS or seen >= _SCAN:
                break
        return len(to_pandas(found))

    def search(text: str) -> int:
        page = client.chat.list(search=text, order="desc", limit=_HITS)
        return len(page.to_pandas(max_items=_HITS))

    rare, common = "topic7 city7", "status"
    expected_rare = sum(1 for i in range(count) if i % _TOPICS == 7 and i % _CITIES == 7)
    assert search(rare) == min(expected_rare, _HITS)
    assert scan(rare) <= search(rare)  # the scan sees the newest 5,000 only
    assert search(common) == scan(common) == min(count, _HITS)
    samples = interleave(
        {
            "kernel scan, rare words": lambda: scan(rare),
            "service search, rare words": lambda: search(rare),
            "kernel scan, common word": lambda: scan(common),
            "service search, common word": lambda: search(common),
        },
        rounds=size["search_rounds"],
        per_round=1,
    )
    section = Section(
        "completion-search",
        f"3b. Searching {count:,} stored completions for words of their question or answer",
        baseline="kernel scan, rare words",
        unit_notes="Seconds per search (lower is better), 100 hits at most, newest first. "
        "The scan read at most the newest 5,000 completions (it missed older ones).",
    )
    for name, values in samples.items():
        section.add(name, seconds=median(values))
    seconds = {name: row["seconds"] for name, row in section.rows.items()}
    common_ratio = seconds["service search, common word"] / seconds["kernel scan, common word"]
    section.notes.append(
        f"Common word: the service's search takes {common_ratio:.2f}x the scan's time."
    )
    section.goal(
        "the service's search faster than the scan it replaced, for rare words",
        section.ratio("service search, rare words", "seconds") < 1.0,
    )
    client.close()
    return section
