"""``%completions`` through a real IPython shell against the real reference service."""

from __future__ import annotations

from typing import Any

from chatspace.client import Client
from chatspace.notebook.session import NotebookSession
from support.magics import run
from support.service import HOSTILE


def test_search_finds_past_questions_and_answers_by_their_words(
    ip: Any, nb_session: NotebookSession, client: Client
) -> None:
    client.files.upload(b"The Q3 churn in Lyon was 5 percent.", filename="n.txt")
    lyon = run(ip, "%%chat\nWhat was the churn in Lyon?").value
    run(ip, "%%chat\nWhat is the capital of Italy?")
    found = run(ip, "%completions search churn LYON").value
    assert found["id"].tolist() == [lyon.id]
    assert list(found.columns) == list(run(ip, "%completions").value.columns)
    by_answer = run(ip, "%completions search 5 percent").value
    assert lyon.id in by_answer["id"].tolist()
    nothing = run(ip, "%completions search zebra").value
    assert nothing.empty
    assert {"id", "created", "question", "answer"} <= set(nothing.columns)


def test_search_is_the_services_words_not_a_scan_of_substrings(
    ip: Any, nb_session: NotebookSession, client: Client
) -> None:
    """The service's search (docs/interface.md#stored-completions): whole words, accents
    aside, punctuation not searched; the kernel no longer reads completions to match them."""
    cafe = run(ip, "%%chat\nIs the Café Lumière open on Sundays?").value
    assert run(ip, "%completions search cafe LUMIERE").value["id"].tolist() == [cafe.id]
    assert run(ip, "%completions search caf").value.empty  # a word, not part of one
    assert run(ip, '%completions search "sundays," open?!').value["id"].tolist() == [cafe.id]
    line = run(ip, "%completions search '*' ?").error_line()
    assert "no word to find" in line


def test_search_pages_through_more_than_one_page(
    ip: Any, nb_session: NotebookSession, client: Client
) -> None:
    asked = [client.chat.create(messages=f"heron count {i}", store=True).id for i in range(3)]
    client.chat.create(messages="something else", store=True)
    found = run(ip, "%completions search heron --max-items 2").value
    assert len(found) == 2
    assert set(run(ip, "%completions search heron").value["id"]) == set(asked)


def test_show_lists_the_sources_the_service_stored(
    ip: Any, nb_session: NotebookSession, client: Client
) -> None:
    """Stored by another client than the notebook's session (as before a kernel
    restart): the sources come from the service; markup in a quote stays text."""
    text = f"The Q3 churn in Lyon was 5 percent. {HOSTILE} | pipe"
    client.files.upload(text.encode(), filename="n.txt", progress=False)
    client.files.upload(b"Lyon has two rivers.", filename="rivers.txt", progress=False)
    stored = client.chat.create(messages="What was the Q3 churn in Lyon?", store=True)
    [first, *rest] = list(client.chat.sources(stored.id))
    shown = run(ip, f"%completions show {stored.id}")
    transcript = shown.value
    assert [r["rank"] for r in transcript.sources] == [1, *(s.rank for s in rest)]
    assert transcript.sources[0] == {
        "rank": 1,
        "file": "n.txt",
        "quote": first.quote,
        "score": f"{first.score:.2f}",
        "sent": "yes",
        "cited": "yes",
        "location": "line 1",
    }
    bundle = transcript._repr_mimebundle_()
    markdown = bundle["text/markdown"]
    assert "| rank | file | quote | score | sent | cited | location |" in markdown
    assert "<script" not in markdown
    assert "<img" not in markdown
    assert f"[sources] {1 + len(rest)}" in bundle["text/plain"]
    client.chat.delete(stored.id)
    assert run(ip, f"%completions show {stored.id}").error_line()
