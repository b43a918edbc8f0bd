"""``%completions`` through a real IPython shell against the real reference service."""

from __future__ import annotations

from typing import Any

from chatspace.client import Client
from chatspace.notebook.session import NotebookSession
from support.magics import run


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
